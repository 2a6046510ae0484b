//! Lau et al.'s normal test (opt-in, may miss contacts): per-node bitfields of the directions
//! every deformed normal below the node faces.

use super::{collide_self_with, SelfAids, UnitCounts};
use crate::body::Body;
use crate::image::tree::NONE;
use crate::scalar::Scalar;
use crate::walk::output::{ContactSink, QueryOutcome, QueryStats, QueryStatus};

/// **Opt-in, may miss contacts.** [`collide_self`](super::collide_self) with Lau et al.'s normal
/// test: a Type 1 unit whose node has a non-zero normal bitfield ([`normal_cones`], computed for
/// this step) is not expanded. The theorem behind it also needs a contour test (the projected
/// boundary must not cross itself), which Lau skipped and this skips too: a nearly flat patch whose
/// outline folds over itself can self-intersect with all its normals in one half-space, and such
/// contacts are missed. Measured miss rate: the book's `docs/src/performance/self.md`. Use
/// [`collide_self`](super::collide_self) when nothing may be missed. With
/// [`SelfAids::signatures`](super::SelfAids::signatures) as well
/// ([`collide_self_with`](super::collide_self_with)), Type 2 units are culled the same way.
pub fn collide_self_normal_culled<S: Scalar>(
    body: &mut Body<'_, '_, S>,
    cones: &[u16],
    stack: &mut [[u32; 2]],
    sink: &mut impl ContactSink,
) -> QueryOutcome {
    if cones.len() < body.tree().node_count() {
        return QueryOutcome {
            status: QueryStatus::Inconsistent,
            stats: QueryStats::default(),
        };
    }
    let aids = SelfAids {
        signatures: &[],
        cones,
    };
    collide_self_with(body, aids, &mut UnitCounts::default(), stack, sink)
}

/// The 14 sampled directions of Lau et al.'s normal test: the 6 axis directions and the 8 cube
/// diagonals (unnormalised: only signs of dot products matter).
const DIRECTIONS: [[i8; 3]; 14] = [
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

/// Lau et al.'s normal bitfields for this step: per node, bit d set when sampled direction d has
/// a positive dot product with the (deformed) normal of every triangle below the node. Deforms
/// every triangle (`O(n)` per step, unlike the lazy spheres). `cones` needs one entry per node;
/// `None` for a short slice or a bad index.
pub fn normal_cones<S: Scalar>(body: &mut Body<'_, '_, S>, cones: &mut [u16]) -> Option<()> {
    let n = body.tree().node_count();
    let cones = cones.get_mut(..n)?;
    for k in (0..n).rev() {
        let [left, right, triangle, _] = body.tree().links(k)?;
        let mask = if triangle != NONE {
            let [a, b, c] = body.world_triangle(triangle as usize)?;
            let e1 = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
            let e2 = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
            let normal = [
                e1[1] * e2[2] - e1[2] * e2[1],
                e1[2] * e2[0] - e1[0] * e2[2],
                e1[0] * e2[1] - e1[1] * e2[0],
            ];
            let mut mask = 0u16;
            for (d, dir) in DIRECTIONS.iter().enumerate() {
                let dot = normal[0] * S::from_f64(f64::from(dir[0]))
                    + normal[1] * S::from_f64(f64::from(dir[1]))
                    + normal[2] * S::from_f64(f64::from(dir[2]));
                if dot > S::ZERO {
                    mask |= 1 << d;
                }
            }
            mask
        } else {
            cones.get(left as usize)? & cones.get(right as usize)?
        };
        *cones.get_mut(k)? = mask;
    }
    Some(())
}
