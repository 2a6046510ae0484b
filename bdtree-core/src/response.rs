//! Contact response: penalty forces from overlapping spheres, and the generalized forces they
//! put on each body's rigid frame and reduced coordinates (BD-Tree paper, section 4.3).
//!
//! # Conventions and units
//!
//! * A contact is an overlapping pair of world spheres `(c_a, r_a)`, `(c_b, r_b)` — contact
//!   proxies from [`crate::proxy::collide_proxies`], or leaf spheres. Its **normal** `n` is the
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
//! All in the body's scalar, no allocation; the caller sums over the contacts of a step.

use crate::body::Body;
use crate::proxy::ProxyPair;
use crate::scalar::Scalar;

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
        point: [0, 1, 2].map(|k| sphere_a[k] + reach * normal[k]),
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
    let tree = body.tree();
    tree.row(node, 0)?;
    if M < tree.modes() {
        return None;
    }
    let pose = body.pose();
    let r = pose.rotation;
    // Rᵀ f: the force in body axes.
    let local = [0, 1, 2].map(|j| r[0][j] * force[0] + r[1][j] * force[1] + r[2][j] * force[2]);
    for (j, slot) in wrench.q.iter_mut().enumerate().take(tree.modes()) {
        let row = tree.row(node, j + 1)?;
        *slot = *slot + row[0] * local[0] + row[1] * local[1] + row[2] * local[2];
    }
    let t = pose.translation;
    let arm = [point[0] - t[0], point[1] - t[1], point[2] - t[2]];
    let torque = [
        arm[1] * force[2] - arm[2] * force[1],
        arm[2] * force[0] - arm[0] * force[2],
        arm[0] * force[1] - arm[1] * force[0],
    ];
    for k in 0..3 {
        wrench.force[k] = wrench.force[k] + force[k];
        wrench.torque[k] = wrench.torque[k] + torque[k];
    }
    Some(())
}

/// The penalty contact of a proxy pair (see the module docs), added to both bodies' wrenches.
/// Returns the contact, or `None` when the spheres give no force (or a node index is bad).
pub fn respond<S: Scalar, const M: usize>(
    pair: &ProxyPair<S>,
    stiffness: S,
    a: &Body<'_, '_, S>,
    b: &Body<'_, '_, S>,
    wrench_a: &mut Wrench<S, M>,
    wrench_b: &mut Wrench<S, M>,
) -> Option<Penalty<S>> {
    let contact = penalty(pair.sphere_a, pair.sphere_b, stiffness)?;
    // Both nodes exist and both wrenches fit before either wrench changes.
    a.tree().row(pair.a as usize, 0)?;
    b.tree().row(pair.b as usize, 0)?;
    if M < a.tree().modes() || M < b.tree().modes() {
        return None;
    }
    let minus = contact.force.map(|x| S::ZERO - x);
    apply_at_node(a, pair.a as usize, contact.point, minus, wrench_a)?;
    apply_at_node(b, pair.b as usize, contact.point, contact.force, wrench_b)?;
    Some(contact)
}
