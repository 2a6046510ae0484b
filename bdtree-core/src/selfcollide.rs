//! Self-collision: every pair of non-adjacent triangles of one deformed body that intersect.
//!
//! The traversal runs one tree against itself (Lau et al.'s test units, on a binary tree): a
//! **self unit** `(i, i)` stands for "node i against itself" and expands into `(l, l)`, `(r, r)`
//! and, when their spheres overlap, the pair unit `(l, r)`; a **pair unit** `(i, j)` expands
//! exactly like [`crate::collide`]'s pairs (children tested at expansion, the larger sphere
//! split, both when within a factor of two). At two leaves the triangles are tested exactly
//! unless they are **adjacent** — sharing a vertex index — since touching along the shared
//! vertex or edge is the mesh's own connectivity, not a collision (so a fold that makes two
//! adjacent triangles cross beyond their shared vertex is not reported; their non-adjacent
//! neighbours are).
//!
//! Every sphere is the body's own (the cache is shared: a node updated for a self unit is not
//! updated again for a pair unit). Without a normal-cone test (Lau's 14-direction bitfields,
//! which need every deformed normal each step), a self unit always descends to its leaves, so
//! the cost is at least one test per pair of neighbouring leaves: `O(n)` per query on top of
//! the pairs that truly come close.

use crate::body::Body;
use crate::image::NONE;
use crate::query::{
    expand, split, stack_capacity, ContactSink, QueryOutcome, QueryStats, QueryStatus, TrianglePair,
};
use crate::scalar::Scalar;
use crate::sphere::spheres_overlap;
use crate::triangle::triangles_may_intersect;

/// Marks a self unit on the stack (the second slot of a pair is never this for a pair unit:
/// node indices are below `u32::MAX`).
const SELF: u32 = u32::MAX;

/// Stack entries [`collide_self`] needs for a tree of this depth: the self units left pending
/// along one root-to-leaf path (two per level) plus a pair traversal's
/// [`stack_capacity`]`(depth, depth)`, plus one.
pub const fn self_stack_capacity(depth: u32) -> usize {
    2 * depth as usize + stack_capacity(depth, depth) + 1
}

/// Every pair `(a, b)`, `a < b`, of non-adjacent triangles of `body` that intersect in its
/// current state — conservatively, as [`crate::collide`]: pairs closer than the rounding bound
/// may be reported, intersecting pairs never missed — delivered to `sink` in traversal order.
pub fn collide_self<S: Scalar, const M: usize>(
    body: &mut Body<'_, '_, S, M>,
    stack: &mut [[u32; 2]],
    sink: &mut impl ContactSink,
) -> QueryOutcome {
    let mut stats = QueryStats::default();
    let needed = self_stack_capacity(body.tree().depth());
    if stack.len() < needed {
        let status = QueryStatus::StackTooSmall {
            needed,
            given: stack.len(),
        };
        return QueryOutcome { status, stats };
    }
    let before = body.update_count();
    let status = run(body, stack, sink, &[], &mut stats);
    stats.sphere_updates = body.update_count().wrapping_sub(before);
    QueryOutcome { status, stats }
}

fn adjacent(a: [u32; 3], b: [u32; 3]) -> bool {
    a.iter().any(|v| b.contains(v))
}

fn run<S: Scalar, const M: usize>(
    body: &mut Body<'_, '_, S, M>,
    stack: &mut [[u32; 2]],
    sink: &mut impl ContactSink,
    cones: &[u16],
    stats: &mut QueryStats,
) -> QueryStatus {
    let error = body.error() + body.error();
    let Some(root) = stack.first_mut() else {
        return QueryStatus::StackTooSmall {
            needed: 1,
            given: 0,
        };
    };
    *root = [0, SELF];
    let mut len = 1usize;
    while len > 0 {
        len -= 1;
        let Some(&[i, j]) = stack.get(len) else {
            return QueryStatus::Inconsistent;
        };
        stats.nodes_visited += 1;
        let Some([li, ri, ti, _]) = body.tree().links(i as usize) else {
            return QueryStatus::Inconsistent;
        };
        if j == SELF {
            // A self unit: a leaf has nothing to test against itself; with normal cones, a
            // node whose normals all lie in one sampled half-space is taken as free.
            if ti != NONE || cones.get(i as usize).is_some_and(|&c| c != 0) {
                continue;
            }
            let (Some(sl), Some(sr)) = (body.sphere(li as usize), body.sphere(ri as usize)) else {
                return QueryStatus::Inconsistent;
            };
            stats.overlap_tests += 1;
            let Some(slots) = stack.get_mut(len..len + 3) else {
                return QueryStatus::Inconsistent;
            };
            let mut kept = 0usize;
            if spheres_overlap(sl, sr) {
                if let Some(slot) = slots.get_mut(kept) {
                    *slot = [li, ri];
                }
                kept += 1;
            }
            for unit in [[ri, SELF], [li, SELF]] {
                if let Some(slot) = slots.get_mut(kept) {
                    *slot = unit;
                }
                kept += 1;
            }
            len += kept;
            continue;
        }
        let Some([lj, rj, tj, _]) = body.tree().links(j as usize) else {
            return QueryStatus::Inconsistent;
        };
        let (leaf_i, leaf_j) = (ti != NONE, tj != NONE);
        if leaf_i & leaf_j {
            let triangles = body.model().triangles();
            let (Some(&fi), Some(&fj)) = (triangles.get(ti as usize), triangles.get(tj as usize))
            else {
                return QueryStatus::Inconsistent;
            };
            if adjacent(fi, fj) {
                continue;
            }
            let (Some(vi), Some(vj)) = (
                body.world_triangle(ti as usize),
                body.world_triangle(tj as usize),
            ) else {
                return QueryStatus::Inconsistent;
            };
            stats.triangle_tests += 1;
            if triangles_may_intersect(&vi, &vj, error) {
                let pair = TrianglePair {
                    a: ti.min(tj),
                    b: ti.max(tj),
                };
                if let Err(pair) = sink.push(pair) {
                    return QueryStatus::OutputFull { pair };
                }
                stats.pairs += 1;
            }
            continue;
        }
        let (Some(si), Some(sj)) = (body.sphere(i as usize), body.sphere(j as usize)) else {
            return QueryStatus::Inconsistent;
        };
        let how = split(si[3], sj[3], leaf_i, leaf_j);
        let sphere = |_: bool, node: u32| body.sphere(node as usize);
        let Some(slots) = stack.get_mut(len..len + 4) else {
            return QueryStatus::Inconsistent;
        };
        let mut kept = 0usize;
        let keep = |pair: [u32; 2], x: [S; 4], y: [S; 4]| {
            if let Some(slot) = slots.get_mut(kept) {
                *slot = pair;
            }
            kept += usize::from(spheres_overlap(x, y));
        };
        let Some(tests) = expand(how, (i, [li, ri], si), (j, [lj, rj], sj), sphere, keep) else {
            return QueryStatus::Inconsistent;
        };
        stats.overlap_tests += tests;
        len += kept;
    }
    QueryStatus::Complete
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
pub fn normal_cones<S: Scalar, const M: usize>(
    body: &mut Body<'_, '_, S, M>,
    cones: &mut [u16],
) -> Option<()> {
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

/// **Opt-in, may miss contacts.** [`collide_self`] with Lau et al.'s normal test: a self unit
/// whose node has a non-zero normal bitfield ([`normal_cones`], computed for this step) is not
/// expanded. The theorem behind it also needs a contour test (the projected boundary must not
/// cross itself), which Lau skipped and this skips too: a nearly flat patch whose outline folds
/// over itself can self-intersect with all its normals in one half-space, and such contacts are
/// missed. Measured miss rate: benches/README.md ("Self-collision"). Use [`collide_self`] when
/// nothing may be missed.
pub fn collide_self_normal_culled<S: Scalar, const M: usize>(
    body: &mut Body<'_, '_, S, M>,
    cones: &[u16],
    stack: &mut [[u32; 2]],
    sink: &mut impl ContactSink,
) -> QueryOutcome {
    let mut stats = QueryStats::default();
    let needed = self_stack_capacity(body.tree().depth());
    if stack.len() < needed {
        let status = QueryStatus::StackTooSmall {
            needed,
            given: stack.len(),
        };
        return QueryOutcome { status, stats };
    }
    if cones.len() < body.tree().node_count() {
        return QueryOutcome {
            status: QueryStatus::Inconsistent,
            stats,
        };
    }
    let before = body.update_count();
    let status = run(body, stack, sink, cones, &mut stats);
    stats.sphere_updates = body.update_count().wrapping_sub(before);
    QueryOutcome { status, stats }
}
