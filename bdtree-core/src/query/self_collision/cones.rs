//! Lau et al.'s normal test, made conservative: per-node bitfields of the sampled directions
//! that every true normal below the node faces.

use crate::body::Body;
use crate::image::self_tables::SelfNormals;
use crate::image::tree::NONE;
use crate::scalar::Scalar;

/// The 14 sampled directions of Lau et al.'s normal test (bit `d` of a cone is direction `d`): the 6 axis directions and the 8 cube
/// diagonals (unnormalised: only signs of dot products matter).
pub const DIRECTIONS: [[i8; 3]; 14] = [
    [1, 0, 0],
    [-1, 0, 0],
    [0, 1, 0],
    [0, -1, 0],
    [0, 0, 1],
    [0, 0, -1],
    [1, 1, 1],
    [1, 1, -1],
    [1, -1, 1],
    [1, -1, -1],
    [-1, 1, 1],
    [-1, 1, -1],
    [-1, -1, 1],
    [-1, -1, -1],
];

/// Lau et al.'s normal bitfields for this step: per node, bit `d` set when sampled direction
/// `d` ([`DIRECTIONS`]) has a positive dot product with the true deformed normal of every
/// triangle below the node. Conservative: a bit is set only when the computed dot product
/// exceeds the most the rounding of the vertices (each within [`Body::error`] per coordinate)
/// and of the normal's own arithmetic can move it, so a nearly edge-on triangle clears it.
/// Deforms every triangle (`O(n)` per step; reads with a vertex cache). `cones` needs one entry
/// per node; `None` for a short slice or a bad index.
///
/// A bit alone proves nothing about self-collision (a patch whose normals fit in a cone can
/// fold over its own boundary): [`super::collide_self_with`] culls a node only when its
/// contour ([`super::SelfContours`]) projected along a set direction does not cross itself.
pub fn normal_cones<S: Scalar>(body: &mut Body<'_, '_, S>, cones: &mut [u16]) -> Option<()> {
    let n = body.tree().node_count();
    let cones = cones.get_mut(..n)?;
    let delta = body.error();
    for k in (0..n).rev() {
        let [left, right, triangle, _] = body.tree().links(k)?;
        let mask = if triangle != NONE {
            triangle_cone(body, triangle as usize, delta)?
        } else {
            cones.get(left as usize)? & cones.get(right as usize)?
        };
        *cones.get_mut(k)? = mask;
    }
    Some(())
}

/// The cone bits of one triangle (see [`normal_cones`]): `None` for a bad index.
#[inline]
fn triangle_cone<S: Scalar>(body: &mut Body<'_, '_, S>, triangle: usize, delta: S) -> Option<u16> {
    Some(cone_of(&body.world_triangle(triangle)?, delta))
}

/// The cone bits of one deformed world triangle (see [`normal_cones`]).
#[inline(always)]
fn cone_of<S: Scalar>([a, b, c]: &[[S; 3]; 3], delta: S) -> u16 {
    let (two, u) = (S::from_u32(2), S::UNIT_ROUNDOFF);
    let e1 = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
    let e2 = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
    let normal = [
        e1[1] * e2[2] - e1[2] * e2[1],
        e1[2] * e2[0] - e1[0] * e2[2],
        e1[0] * e2[1] - e1[1] * e2[0],
    ];
    // Per coordinate, the edges are within `2δ` (both vertices) plus their rounding of
    // the true edges; the normal's coordinates within `2(m1 Δ2 + m2 Δ1 + Δ1 Δ2)` plus
    // its rounding `4u m1 m2`; a dot product with a direction of three ±1 entries
    // within three times that plus its own rounding `12u m1 m2`.
    let largest = |e: [S; 3]| e[0].abs().max(e[1].abs()).max(e[2].abs());
    let (m1, m2) = (largest(e1), largest(e2));
    let (d1, d2) = (two * delta + two * u * m1, two * delta + two * u * m2);
    let spread = m1 * d2 + m2 * d1 + d1 * d2;
    let threshold =
        (S::from_u32(6) * spread + S::from_u32(24) * u * m1 * m2) * (S::ONE + S::from_u32(16) * u);
    // The 14 dot products as sums of the normal's coordinates (each direction's terms
    // in the same order as `DIRECTIONS`, the negated directions by exact negation).
    let [x, y, z] = normal;
    let (p, m) = (x + y, x - y);
    let diagonals = [p + z, p - z, m + z, m - z];
    let bit = |positive: bool, d: u32| u16::from(positive) << d;
    let mut mask = bit(x > threshold, 0)
        | bit(x < -threshold, 1)
        | bit(y > threshold, 2)
        | bit(y < -threshold, 3)
        | bit(z > threshold, 4)
        | bit(z < -threshold, 5);
    for (k, dot) in (0u32..).zip(diagonals) {
        mask |= bit(dot > threshold, 6 + k) | bit(dot < -threshold, 13 - k);
    }
    mask
}

/// One node's slot in [`SelfCones`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[repr(C)]
pub struct ConeSlot {
    mark: u32,
    cone: u16,
}

impl ConeSlot {
    /// An unused slot, for `const` and `static` initialisers.
    pub const EMPTY: Self = Self { mark: 0, cone: 0 };
}

/// Caller storage for the normal cones a culled self query makes as it goes
/// ([`super::collide_self_lazy`]): one [`ConeSlot`] per node (8 bytes), each valid for the
/// query that marked it. A query starts with a new mark, so nothing is read from another
/// query, another step or another body (the slots are cleared when the 32-bit mark wraps);
/// keep one value across frames to avoid clearing them each time.
#[derive(Debug)]
pub struct SelfCones<'a> {
    slots: &'a mut [ConeSlot],
    mark: u32,
}

impl<'a> SelfCones<'a> {
    /// Cones over `slots` (at least one per node of the trees it is used with), cleared.
    pub fn new(slots: &'a mut [ConeSlot]) -> Self {
        slots.fill(ConeSlot::EMPTY);
        Self { slots, mark: 0 }
    }

    /// Slots held.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Whether no slot is held.
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Starts a query: every slot of an earlier one is stale.
    pub(super) fn begin(&mut self) {
        self.mark = self.mark.wrapping_add(1);
        if self.mark == 0 {
            self.slots.fill(ConeSlot::EMPTY);
            self.mark = 1;
        }
    }

    #[inline(always)]
    pub(super) fn get(&self, node: u32) -> Option<u16> {
        self.slots
            .get(node as usize)
            .filter(|s| s.mark == self.mark)
            .map(|s| s.cone)
    }

    #[inline(always)]
    fn set(&mut self, node: u32, cone: u16) -> Option<()> {
        *self.slots.get_mut(node as usize)? = ConeSlot {
            mark: self.mark,
            cone,
        };
        Some(())
    }
}

/// Entries of the lazy cones' path (a fixed array on the stack): two per level below the node
/// asked for, plus one. A tree too deep for it has all its cones made on the first request.
const PATH: usize = 96;

/// Node `node`'s cone bits this query ([`normal_cones`]' for that node), made now if not yet:
/// its subtree walked depth first, each node below it kept once made, and the walk abandoned
/// as soon as the bits common to what it has seen are none (the node's cone is then 0, and
/// the nodes left half-done stay unmarked). A node with a row in `normals` whose bound proves
/// some direction takes those bits in `O(M)` and is not walked (a subset of its exact bits:
/// sound, perhaps fewer). `right_first`: the node's right child is walked first (the one
/// likelier to end it early). `None` for a bad index or a row of `normals` its read refuses.
pub(super) fn lazy_cone<S: Scalar>(
    body: &mut Body<'_, '_, S>,
    cones: &mut SelfCones<'_>,
    normals: &SelfNormals<'_>,
    node: u32,
    right_first: bool,
) -> Option<u16> {
    if let Some(cone) = cones.get(node) {
        return Some(cone);
    }
    let delta = body.error();
    if (body.tree().depth() as usize).saturating_mul(2) >= PATH {
        all_cones(body, cones)?;
        return cones.get(node);
    }
    // `[node, children pushed]`; the top entry's children in the order `right_first` asks.
    let mut path = [[0u32; 2]; PATH];
    *path.first_mut()? = [node, 0];
    let mut len = 1usize;
    let mut common = u16::MAX;
    while let Some(&[k, pushed]) = len.checked_sub(1).and_then(|top| path.get(top)) {
        let [left, right, triangle, _] = body.tree().links(k as usize)?;
        if triangle != NONE {
            let mask = triangle_cone(body, triangle as usize, delta)?;
            cones.set(k, mask)?;
            common &= mask;
            len -= 1;
            if common == 0 {
                break;
            }
            continue;
        }
        if pushed == 0 {
            // A row its read refuses: no cone (the query names the row).
            let bound = normals.cone(body, k as usize).ok()?;
            if bound != 0 {
                cones.set(k, bound)?;
                common &= bound;
                len -= 1;
                if common == 0 {
                    break;
                }
                continue;
            }
            *path.get_mut(len - 1)? = [k, 1];
            // Pushed last, walked first.
            let order = if right_first && len == 1 {
                [left, right]
            } else {
                [right, left]
            };
            for c in order {
                match cones.get(c) {
                    Some(cone) => common &= cone,
                    None => {
                        *path.get_mut(len)? = [c, 0];
                        len += 1;
                    }
                }
            }
            if common == 0 {
                break;
            }
            continue;
        }
        let cone = cones.get(left)? & cones.get(right)?;
        cones.set(k, cone)?;
        len -= 1;
    }
    if common == 0 {
        cones.set(node, 0)?;
    }
    cones.get(node)
}

/// Every node's cone bits for this query, in one pass from the leaves up ([`normal_cones`]'
/// loop): for a body deformed everywhere, whose cones the walk will nearly all need.
pub(super) fn all_cones<S: Scalar>(
    body: &mut Body<'_, '_, S>,
    cones: &mut SelfCones<'_>,
) -> Option<()> {
    let delta = body.error();
    for k in (0..body.tree().node_count()).rev() {
        let [left, right, triangle, _] = body.tree().links(k)?;
        let mask = if triangle != NONE {
            triangle_cone(body, triangle as usize, delta)?
        } else {
            // Written just before, in this pass: read without their mark.
            cones.slots.get(left as usize)?.cone & cones.slots.get(right as usize)?.cone
        };
        cones.set(u32::try_from(k).ok()?, mask)?;
    }
    Some(())
}

/// Triangles whose cones [`all_cones_and_spheres`] reads first.
const PROBES: usize = 8;

/// [`all_cones`] and, once the cones met so far have no direction in common (the root's cone
/// is then 0, and the root is walked), every node's tight sphere ([`Body::refit`]) in the same
/// pass from the leaves up, each triangle read once for both: for a body deformed everywhere,
/// whose cones and spheres the walk will nearly all need. `Some(true)` when the spheres were
/// made.
pub(super) fn all_cones_and_spheres<S: Scalar>(
    body: &mut Body<'_, '_, S>,
    cones: &mut SelfCones<'_>,
) -> Option<bool> {
    let delta = body.error();
    // A few triangles spread over the mesh first: when they share no direction, the root's
    // cone is 0 and the spheres are made from the first node on.
    let n = body.model().triangles().len();
    let mut common = u16::MAX;
    for k in 0..PROBES.min(n) {
        let world = body.world_triangle(k * (n / PROBES))?;
        common &= cone_of(&world, delta);
    }
    let mark = cones.mark;
    let slots = &mut *cones.slots;
    // Inlined in both of the pass's loops on the host (a call per node otherwise); one copy
    // on bare-metal targets, whose flash it would cost more than it saves.
    body.refit_with(
        #[cfg_attr(not(target_os = "none"), inline(always))]
        |node, [left, right, _, _], triangle| {
            let cone = match triangle {
                Some(world) => cone_of(world, delta),
                // Written just before, in this pass.
                None => slots.get(left as usize)?.cone & slots.get(right as usize)?.cone,
            };
            *slots.get_mut(node)? = ConeSlot { mark, cone };
            common &= cone;
            Some(common == 0)
        },
    )
}
