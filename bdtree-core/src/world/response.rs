//! Contact response: penalty forces from overlapping spheres, and the generalized forces they
//! put on each body's rigid frame and reduced coordinates (BD-Tree paper, section 4.3).
//!
//! # Conventions and units
//!
//! * A contact is an overlapping pair of world spheres `(c_a, r_a)`, `(c_b, r_b)` — contact
//!   proxies from [`crate::query::proxies::collide_proxies`], or leaf spheres. Its **normal** `n` is the
//!   unit vector from `c_a` to `c_b` (body 1 to body 2), its **penetration depth**
//!   `d = r_a + r_b − ‖c_b − c_a‖` (length units of the meshes), its **point** the middle of the
//!   overlap along the center line, `p = c_a + (r_a − d/2) n`.
//! * The **penalty force** on body b is `f = k d n` (k a stiffness in force per length unit,
//!   e.g. N/m), on body a `−f`: it pushes the bodies apart. Concentric spheres (no direction)
//!   and non-positive depths give no force.
//! * On each body, world force `f` at world point `p` adds to its [`Wrench`]:
//!   `force += f`, `torque += (p − t) × f` (about the body frame's origin `t`, world axes), and
//!   `q += Ūᵀ Rᵀ f`: the generalized force on the reduced coordinates, by virtual work — the
//!   node's center moves as `R (c + Ū q) + t`, so `δW = fᵀ R Ū δq`. `Ū` is the node's
//!   per-mode center displacement (a proxy's or leaf's own). Units: `q`-force = force × length
//!   per unit of `q` (whatever makes `Ū q` a length).
//!
//! * An **exact contact** ([`crate::ContactPoint`], from [`crate::collide_contacts`] or the
//!   primitive queries) has its own normal `n` (from the first body's triangle to the second's)
//!   and depth `d`; its penalty force on body b is `k d n` at the contact point, and the point
//!   moves with its triangle: with `λ` its barycentric weights on the deformed triangle
//!   (vertices `i`), `q += Σ_i λ_i U_iᵀ Rᵀ f` — the exact virtual work of a point of the
//!   surface, where a node's `Ū` is an average ([`respond_contact`], [`apply_at_triangle`]).
//!
//! A [`Wrench`] holds its reduced force in a `[S; M]` fixed at compile time; a [`WrenchMut`]
//! is a wrench in the caller's storage sized at run time (any `q` slice at least as long as the
//! tree's modes): every function takes one, and `Wrench::as_mut` makes one of a `Wrench`.
//!
//! All in the body's scalar, no allocation; the caller sums over the contacts of a step.

use crate::body::Body;
use crate::geometry::closest::closest_on_triangle;
use crate::geometry::penetration::{least_penetration, penetration_gradient, Penetration};
use crate::query::contacts::ContactPoint;
use crate::scalar::Scalar;
use crate::walk::output::ProxyPair;

/// Force, torque and generalized reduced force accumulated on one body.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Wrench<S, const M: usize> {
    /// Total world force.
    pub force: [S; 3],
    /// Total world torque about the body frame's origin.
    pub torque: [S; 3],
    /// Generalized force on the reduced coordinates (first `modes` entries used; a wrench with
    /// fewer entries than a body's modes is refused by [`apply_at_node`]).
    pub q: [S; M],
}

impl<S: Scalar, const M: usize> Default for Wrench<S, M> {
    fn default() -> Self {
        Self::ZERO
    }
}

impl<S: Scalar, const M: usize> Wrench<S, M> {
    /// No force.
    pub const ZERO: Self = Self {
        force: [S::ZERO; 3],
        torque: [S::ZERO; 3],
        q: [S::ZERO; M],
    };

    /// This wrench as a [`WrenchMut`] (its `q` all `M` entries).
    pub fn as_mut(&mut self) -> WrenchMut<'_, S> {
        WrenchMut {
            force: &mut self.force,
            torque: &mut self.torque,
            q: &mut self.q,
        }
    }
}

/// A wrench in the caller's storage, sized at run time: force and torque as in [`Wrench`],
/// and the generalized force on the reduced coordinates in `q`, whose first `M` entries (the
/// tree's modes) are used — a shorter `q` is refused (nothing is added).
#[derive(Debug, PartialEq)]
pub struct WrenchMut<'w, S> {
    /// Total world force.
    pub force: &'w mut [S; 3],
    /// Total world torque about the body frame's origin.
    pub torque: &'w mut [S; 3],
    /// Generalized force on the reduced coordinates.
    pub q: &'w mut [S],
}

impl<S> WrenchMut<'_, S> {
    /// A shorter-lived view of the same storage (to pass it on and use it again).
    pub fn reborrow(&mut self) -> WrenchMut<'_, S> {
        WrenchMut {
            force: self.force,
            torque: self.torque,
            q: self.q,
        }
    }
}

/// One penalty contact: where and how hard.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Penalty<S> {
    /// Unit normal from body a's sphere center to body b's.
    pub normal: [S; 3],
    /// Penetration depth (positive).
    pub depth: S,
    /// Contact point (world).
    pub point: [S; 3],
    /// Force on body b (`k d n`); body a gets its negative.
    pub force: [S; 3],
}

/// The penalty contact of two overlapping world spheres `[x, y, z, r]` with stiffness `k`, or
/// `None` when they do not overlap or are concentric.
pub fn penalty<S: Scalar>(sphere_a: [S; 4], sphere_b: [S; 4], stiffness: S) -> Option<Penalty<S>> {
    let d = [
        sphere_b[0] - sphere_a[0],
        sphere_b[1] - sphere_a[1],
        sphere_b[2] - sphere_a[2],
    ];
    let distance = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt();
    let depth = sphere_a[3] + sphere_b[3] - distance;
    if !(distance > S::ZERO && depth > S::ZERO) {
        return None;
    }
    let normal = d.map(|x| x / distance);
    let half = S::from_f64(0.5);
    let reach = sphere_a[3] - half * depth;
    let magnitude = stiffness * depth;
    Some(Penalty {
        normal,
        depth,
        point: [
            sphere_a[0] + reach * normal[0],
            sphere_a[1] + reach * normal[1],
            sphere_a[2] + reach * normal[2],
        ],
        force: normal.map(|x| magnitude * x),
    })
}

/// Adds world force `f` at world point `p`, applied at `node` of `body`, to `wrench`.
/// `None` (nothing added) for a node index the tree does not have, or when the wrench holds
/// fewer than the tree's modes (`M` below [`crate::TreeView::modes`]).
pub fn apply_at_node<S: Scalar, const M: usize>(
    body: &Body<'_, '_, S>,
    node: usize,
    point: [S; 3],
    force: [S; 3],
    wrench: &mut Wrench<S, M>,
) -> Option<()> {
    apply_at_node_mut(body, node, point, force, wrench.as_mut())
}

/// [`apply_at_node`] into a wrench sized at run time: `None` (nothing added) for a node index
/// the tree does not have, or a `wrench.q` shorter than the tree's modes. Cost: `3M + 15`
/// multiply-adds.
pub fn apply_at_node_mut<S: Scalar>(
    body: &Body<'_, '_, S>,
    node: usize,
    point: [S; 3],
    force: [S; 3],
    wrench: WrenchMut<'_, S>,
) -> Option<()> {
    let tree = body.tree();
    tree.row(node, 0)?;
    let modes = tree.modes();
    if wrench.q.len() < modes {
        return None;
    }
    let local = to_body_axes(body, force);
    for (j, slot) in wrench.q.iter_mut().enumerate().take(modes) {
        let row = tree.row(node, j + 1)?;
        *slot = *slot + row[0] * local[0] + row[1] * local[1] + row[2] * local[2];
    }
    add_rigid(body, point, force, wrench);
    Some(())
}

/// `Rᵀ f`: a world force in the body's axes.
fn to_body_axes<S: Scalar>(body: &Body<'_, '_, S>, force: [S; 3]) -> [S; 3] {
    let r = body.pose().rotation;
    let columns = [
        [r[0][0], r[1][0], r[2][0]],
        [r[0][1], r[1][1], r[2][1]],
        [r[0][2], r[1][2], r[2][2]],
    ];
    columns.map(|c| c[0] * force[0] + c[1] * force[1] + c[2] * force[2])
}

/// Adds force `f` at world point `p` to a wrench's force and its torque about the body frame's
/// origin.
fn add_rigid<S: Scalar>(
    body: &Body<'_, '_, S>,
    point: [S; 3],
    force: [S; 3],
    wrench: WrenchMut<'_, S>,
) {
    let t = body.pose().translation;
    let arm = [point[0] - t[0], point[1] - t[1], point[2] - t[2]];
    let torque = [
        arm[1] * force[2] - arm[2] * force[1],
        arm[2] * force[0] - arm[0] * force[2],
        arm[0] * force[1] - arm[1] * force[0],
    ];
    for (sum, f) in wrench.force.iter_mut().zip(force) {
        *sum = *sum + f;
    }
    for (sum, t) in wrench.torque.iter_mut().zip(torque) {
        *sum = *sum + t;
    }
}

/// The barycentric weights of the point of triangle `t` nearest to `p` (each in `[0, 1]`,
/// summing to 1 up to rounding); for a triangle without area, all weight on its vertex
/// nearest to `p`.
fn barycentric<S: Scalar>(p: [S; 3], t: &[[S; 3]; 3]) -> [S; 3] {
    let sub = |x: [S; 3], y: [S; 3]| [x[0] - y[0], x[1] - y[1], x[2] - y[2]];
    let dot = |x: [S; 3], y: [S; 3]| x[0] * y[0] + x[1] * y[1] + x[2] * y[2];
    let x = closest_on_triangle(p, t);
    let [a, b, c] = *t;
    let (e0, e1, e2) = (sub(b, a), sub(c, a), sub(x, a));
    let (d00, d01, d11) = (dot(e0, e0), dot(e0, e1), dot(e1, e1));
    let (d20, d21) = (dot(e2, e0), dot(e2, e1));
    let denom = d00 * d11 - d01 * d01;
    let scale = d00 * d11;
    if denom.is_finite() && denom > S::from_u32(16) * S::UNIT_ROUNDOFF * scale && denom > S::ZERO {
        let clamp = |v: S| v.max(S::ZERO).min(S::ONE);
        let v = clamp((d11 * d20 - d01 * d21) / denom);
        let w = clamp((d00 * d21 - d01 * d20) / denom).min(S::ONE - v);
        return [S::ONE - v - w, v, w];
    }
    let (da, db, dc) = (
        dot(sub(p, a), sub(p, a)),
        dot(sub(p, b), sub(p, b)),
        dot(sub(p, c), sub(p, c)),
    );
    let (o, i) = (S::ZERO, S::ONE);
    if da <= db && da <= dc {
        [i, o, o]
    } else if db <= dc {
        [o, i, o]
    } else {
        [o, o, i]
    }
}

/// Adds world force `f` at world point `p` on `triangle` of `body` to `wrench`: the force and
/// its torque, and the generalized force of the point of the deformed triangle nearest to `p`
/// (barycentric weights `λ`): `q_j += Σ_i λ_i U_ijᵀ Rᵀ f`. `None` (nothing added) for a
/// triangle index the model does not have, or a `wrench.q` shorter than the tree's modes.
/// Cost: three vertex deformations (`3M + 9` multiply-adds each) and `9M` multiply-adds.
pub fn apply_at_triangle<S: Scalar>(
    body: &Body<'_, '_, S>,
    triangle: usize,
    point: [S; 3],
    force: [S; 3],
    wrench: WrenchMut<'_, S>,
) -> Option<()> {
    let model = body.model();
    let modes = model.modes();
    if wrench.q.len() < modes {
        return None;
    }
    let face = *model.triangles().get(triangle)?;
    let q = body.q();
    let pose = body.pose();
    let mut corners = [[S::ZERO; 3]; 3];
    for (corner, &v) in corners.iter_mut().zip(face.iter()) {
        *corner = pose.apply(model.deformed(v as usize, q)?);
    }
    let weights = barycentric(point, &corners);
    let local = to_body_axes(body, force);
    for (j, slot) in wrench.q.iter_mut().enumerate().take(modes) {
        let mut sum = S::ZERO;
        for (&v, &w) in face.iter().zip(&weights) {
            let v = v as usize;
            let u = [
                model.basis_entry(v, 0, j)?,
                model.basis_entry(v, 1, j)?,
                model.basis_entry(v, 2, j)?,
            ];
            sum = sum + w * (u[0] * local[0] + u[1] * local[1] + u[2] * local[2]);
        }
        *slot = *slot + sum;
    }
    add_rigid(body, point, force, wrench);
    Some(())
}

/// The penalty contact of an exact triangle contact (see the module docs): force `k d n` on
/// body b at the contact point (applied on its triangle `contact.b`), its negative on body a
/// (on triangle `contact.a`), added to both wrenches. Returns the contact, or `None` when it
/// gives no force (a depth not above 0, a non-finite value) or a triangle index is bad or a
/// wrench too short — then neither wrench changes.
pub fn respond_contact<S: Scalar>(
    a: &Body<'_, '_, S>,
    b: &Body<'_, '_, S>,
    contact: &ContactPoint<S>,
    stiffness: S,
    mut wrench_a: WrenchMut<'_, S>,
    mut wrench_b: WrenchMut<'_, S>,
) -> Option<Penalty<S>> {
    let c = &contact.contact;
    let depth = c.depth;
    let finite = c.point.iter().chain(&c.normal).all(|x| x.is_finite());
    if !(depth > S::ZERO && depth.is_finite() && finite) {
        return None;
    }
    // Both triangles exist and both wrenches fit before either wrench changes.
    a.model().triangles().get(contact.a as usize)?;
    b.model().triangles().get(contact.b as usize)?;
    if wrench_a.q.len() < a.tree().modes() || wrench_b.q.len() < b.tree().modes() {
        return None;
    }
    let magnitude = stiffness * depth;
    let force = c.normal.map(|x| magnitude * x);
    let minus = force.map(|x| S::ZERO - x);
    apply_at_triangle(a, contact.a as usize, c.point, minus, wrench_a.reborrow())?;
    apply_at_triangle(b, contact.b as usize, c.point, force, wrench_b.reborrow())?;
    Some(Penalty {
        normal: c.normal,
        depth,
        point: c.point,
        force,
    })
}

/// Why [`contact_jacobian`] wrote nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum JacobianError {
    /// A triangle index the body's model does not have.
    BadTriangle,
    /// A row shorter than its body's modes.
    RowTooShort,
}

/// The **contact Jacobian** of triangle `triangle_a` of `a` and `triangle_b` of `b` at the
/// bodies' current states: `∂depth/∂q_a` into `row_a` and `∂depth/∂q_b` into `row_b` (the
/// first `M` entries of each, overwritten), with `depth` the triangles' least penetration
/// ([`least_penetration`], the depth [`crate::collide_contacts`] reports) and its normal
/// turning with the features that define it ([`penetration_gradient`]):
/// `∂depth/∂q_j = Σ_v (Rᵀ g_v) · U_vj` over each triangle's vertices `v`, `g_v` the depth's
/// gradient at the deformed world vertex.
///
/// It is the derivative where the depth is positive and its features (axis, orientation,
/// extreme vertices: [`Penetration::features`]) do not switch in a neighbourhood of the state;
/// at a switch, the one-sided derivative of the features reported. Returns the penetration
/// the rows differentiate, or `Ok(None)` with both rows 0 when the two triangles have no
/// penetration axis (both of zero area, or all candidate axes degenerate). A bad triangle
/// index or a short row: the error, nothing written. In the body's scalar, no allocation;
/// cost: six vertex deformations (`3M + 9` multiply-adds each), about 250 for the
/// penetration and its gradient, `9M` per body for the rows.
pub fn contact_jacobian<S: Scalar>(
    a: &Body<'_, '_, S>,
    b: &Body<'_, '_, S>,
    triangle_a: usize,
    triangle_b: usize,
    row_a: &mut [S],
    row_b: &mut [S],
) -> Result<Option<Penetration<S>>, JacobianError> {
    let (Some(&fa), Some(&fb)) = (
        a.model().triangles().get(triangle_a),
        b.model().triangles().get(triangle_b),
    ) else {
        return Err(JacobianError::BadTriangle);
    };
    let (Some(row_a), Some(row_b)) = (
        row_a.get_mut(..a.tree().modes()),
        row_b.get_mut(..b.tree().modes()),
    ) else {
        return Err(JacobianError::RowTooShort);
    };
    let (Some(ta), Some(tb)) = (world_face(a, fa), world_face(b, fb)) else {
        return Err(JacobianError::BadTriangle);
    };
    row_a.fill(S::ZERO);
    row_b.fill(S::ZERO);
    let Some(found) = least_penetration(&ta, &tb) else {
        return Ok(None);
    };
    let Some((ga, gb)) = penetration_gradient(&ta, &tb, &found.features) else {
        return Ok(None);
    };
    add_row(a, fa, &ga, row_a);
    add_row(b, fb, &gb, row_b);
    Ok(Some(found))
}

/// A face's deformed world vertices.
fn world_face<S: Scalar>(body: &Body<'_, '_, S>, face: [u32; 3]) -> Option<[[S; 3]; 3]> {
    let (model, q, pose) = (body.model(), body.q(), body.pose());
    let mut out = [[S::ZERO; 3]; 3];
    for (o, &v) in out.iter_mut().zip(face.iter()) {
        *o = pose.apply(model.deformed(v as usize, q)?);
    }
    Some(out)
}

/// Adds `Σ_v (Rᵀ g_v) · U_v` to `row` (one entry per mode).
fn add_row<S: Scalar>(body: &Body<'_, '_, S>, face: [u32; 3], g: &[[S; 3]; 3], row: &mut [S]) {
    let model = body.model();
    for (&v, &gv) in face.iter().zip(g) {
        let local = to_body_axes(body, gv);
        for (j, slot) in row.iter_mut().enumerate() {
            let mut sum = *slot;
            for (axis, &l) in local.iter().enumerate() {
                sum = sum + l * model.basis_entry(v as usize, axis, j).unwrap_or(S::ZERO);
            }
            *slot = sum;
        }
    }
}

/// The penalty contact of a proxy pair (see the module docs), added to both bodies' wrenches.
/// Returns the contact, or `None` when the spheres give no force (or a node index is bad).
pub fn respond<S: Scalar, const M: usize>(
    a: &Body<'_, '_, S>,
    b: &Body<'_, '_, S>,
    pair: &ProxyPair<S>,
    stiffness: S,
    wrench_a: &mut Wrench<S, M>,
    wrench_b: &mut Wrench<S, M>,
) -> Option<Penalty<S>> {
    respond_mut(a, b, pair, stiffness, wrench_a.as_mut(), wrench_b.as_mut())
}

/// [`respond`] into wrenches sized at run time ([`WrenchMut`]): `None`, and neither wrench
/// changed, as [`respond`] — a wrench's `q` shorter than its body's modes included.
pub fn respond_mut<S: Scalar>(
    a: &Body<'_, '_, S>,
    b: &Body<'_, '_, S>,
    pair: &ProxyPair<S>,
    stiffness: S,
    mut wrench_a: WrenchMut<'_, S>,
    mut wrench_b: WrenchMut<'_, S>,
) -> Option<Penalty<S>> {
    let contact = penalty(pair.sphere_a, pair.sphere_b, stiffness)?;
    a.tree().row(pair.a as usize, 0)?;
    b.tree().row(pair.b as usize, 0)?;
    if wrench_a.q.len() < a.tree().modes() || wrench_b.q.len() < b.tree().modes() {
        return None;
    }
    let minus = contact.force.map(|x| S::ZERO - x);
    apply_at_node_mut(
        a,
        pair.a as usize,
        contact.point,
        minus,
        wrench_a.reborrow(),
    )?;
    apply_at_node_mut(
        b,
        pair.b as usize,
        contact.point,
        contact.force,
        wrench_b.reborrow(),
    )?;
    Some(contact)
}
