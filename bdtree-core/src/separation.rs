//! Proximity: how far apart two deformed bodies are.
//!
//! * [`separation_lower_bound`]: `‖c_a − c_b‖ − r_a − r_b` of the root spheres — two sphere
//!   updates; the true distance is at least this (negative: the spheres overlap, nothing known).
//! * [`nearest`]: the exact minimum distance between the two deformed meshes, with the closest
//!   points (witnesses) on each, the unit normal from body 1 to body 2 and the two triangles,
//!   by branch and bound over the trees: depth-first, the nearer child pair first, a node pair
//!   pruned when its spheres' lower bound `‖c_a − c_b‖ − r_a − r_b` is not below the best
//!   distance found. At two leaves the triangle distance is the least of the 6 vertex–triangle
//!   and 9 edge–edge distances, or 0 when the triangles intersect ([`triangles_may_intersect`]);
//!   touching only the triangles whose spheres come closer than the best distance so far.
//! * [`closer_than`]: whether the bodies are closer than `d + margin`, stopping at the first
//!   leaf pair that proves it — the form a safety monitor uses.
//!
//! **Signs and conventions.** Distances are non-negative; intersecting bodies report distance 0
//! with `intersecting = true` (no penetration depth: use [`crate::proxy`] spheres for that), a
//! witness point on the intersection (both witnesses equal) and a zero normal. Otherwise the
//! normal is `(w_b − w_a) / ‖w_b − w_a‖`, from body 1 to body 2.
//!
//! **Accuracy.** The deformed vertices carry the per-coordinate error `δ` of each body
//! ([`crate::Body::error`]), so the computed distance is within `2√3 (δ_a + δ_b)` of the exact
//! distance between the exact deformed meshes, plus the distance computation's own rounding
//! (a few `u` of the coordinates' magnitude). Pruning uses the inflated spheres, which contain
//! the exact vertices, so no closer pair is pruned. [`closer_than`] compares with that error
//! bound added (it may say "closer" for bodies up to the bound farther than `d + margin`, never
//! "not closer" for bodies within `d + margin`).

use crate::body::Body;
use crate::closest::{intersection_point, triangle_distance};
use crate::image::NONE;
use crate::query::{split, stack_capacity, QueryStats, QueryStatus, Split};
use crate::scalar::Scalar;
use crate::triangle::triangles_may_intersect;

type V<S> = [S; 3];

fn sub<S: Scalar>(a: V<S>, b: V<S>) -> V<S> {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}
fn scale<S: Scalar>(a: V<S>, s: S) -> V<S> {
    [a[0] * s, a[1] * s, a[2] * s]
}
fn dot<S: Scalar>(a: V<S>, b: V<S>) -> S {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

/// The nearest points of two bodies.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Nearest<S> {
    /// Distance (0 when intersecting).
    pub distance: S,
    /// Witness on the first body (world).
    pub point_a: [S; 3],
    /// Witness on the second body.
    pub point_b: [S; 3],
    /// Unit normal from body 1 to body 2 (zero when intersecting).
    pub normal: [S; 3],
    /// Triangle of the first body.
    pub triangle_a: u32,
    /// Triangle of the second body.
    pub triangle_b: u32,
    /// The two triangles intersect.
    pub intersecting: bool,
}

/// A [`nearest`] query's outcome.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NearestOutcome<S> {
    /// How it ended ([`QueryStatus::Complete`] for a valid answer).
    pub status: QueryStatus,
    /// The answer (`None` when incomplete).
    pub nearest: Option<Nearest<S>>,
    /// Work: `triangle_tests` counts triangle-distance evaluations.
    pub stats: QueryStats,
}

/// The signed root-sphere separation `‖c_a − c_b‖ − r_a − r_b`: a lower bound on the distance.
pub fn separation_lower_bound<S: Scalar, const MA: usize, const MB: usize>(
    a: &mut Body<'_, '_, S, MA>,
    b: &mut Body<'_, '_, S, MB>,
) -> Option<S> {
    let (sa, sb) = (a.sphere(0)?, b.sphere(0)?);
    let d = sub([sb[0], sb[1], sb[2]], [sa[0], sa[1], sa[2]]);
    Some(dot(d, d).sqrt() - sa[3] - sb[3])
}

/// Lower bound on the distance between two world spheres (may be negative).
fn gap<S: Scalar>(x: [S; 4], y: [S; 4]) -> S {
    let d = sub([y[0], y[1], y[2]], [x[0], x[1], x[2]]);
    dot(d, d).sqrt() - x[3] - y[3]
}

/// The exact minimum distance between two deformed bodies, with witnesses (module docs).
/// `stack` needs [`stack_capacity`] entries.
pub fn nearest<S: Scalar, const MA: usize, const MB: usize>(
    a: &mut Body<'_, '_, S, MA>,
    b: &mut Body<'_, '_, S, MB>,
    stack: &mut [[u32; 2]],
) -> NearestOutcome<S> {
    let mut best: Option<Nearest<S>> = None;
    let mut bound = S::from_f64(f64::MAX);
    let far = S::from_f64(f64::MAX);
    let (status, stats) = branch_and_bound(a, b, stack, far, &mut |found| {
        if found.distance < bound {
            bound = found.distance;
            best = Some(found);
        }
        (bound, found.intersecting)
    });
    NearestOutcome {
        status,
        nearest: if status.is_complete() { best } else { None },
        stats,
    }
}

/// Whether the bodies come closer than `distance + margin` (module docs); `None` when the
/// query could not complete (treat as closer).
pub fn closer_than<S: Scalar, const MA: usize, const MB: usize>(
    a: &mut Body<'_, '_, S, MA>,
    b: &mut Body<'_, '_, S, MB>,
    distance: S,
    margin: S,
    stack: &mut [[u32; 2]],
) -> (Option<bool>, QueryStats) {
    let error = S::from_u32(4) * (a.error() + b.error());
    let limit = distance + margin + error;
    let mut closer = false;
    // Pruning at `limit` from the start: only pairs that could be within it are searched.
    let (status, stats) = branch_and_bound(a, b, stack, limit, &mut |found| {
        closer |= found.distance <= limit;
        (limit, closer)
    });
    (status.is_complete().then_some(closer), stats)
}

/// The search shared by [`nearest`] and [`closer_than`]: node pairs whose sphere gap exceeds
/// the bound (initially `bound`) are pruned; `visit` gets each leaf pair's result and returns
/// the new bound and whether to stop.
fn branch_and_bound<S: Scalar, const MA: usize, const MB: usize>(
    a: &mut Body<'_, '_, S, MA>,
    b: &mut Body<'_, '_, S, MB>,
    stack: &mut [[u32; 2]],
    mut bound: S,
    visit: &mut impl FnMut(Nearest<S>) -> (S, bool),
) -> (QueryStatus, QueryStats) {
    let mut stats = QueryStats::default();
    if a.tree().is_bounded() || b.tree().is_bounded() {
        return (QueryStatus::Truncated, stats);
    }
    let needed = stack_capacity(a.tree().depth(), b.tree().depth());
    if stack.len() < needed {
        return (
            QueryStatus::StackTooSmall {
                needed,
                given: stack.len(),
            },
            stats,
        );
    }
    let before = a.update_count().wrapping_add(b.update_count());
    let error = a.error() + b.error();
    let Some(root) = stack.first_mut() else {
        return (QueryStatus::Inconsistent, stats);
    };
    *root = [0, 0];
    let mut len = 1usize;
    let status = loop {
        if len == 0 {
            break QueryStatus::Complete;
        }
        len -= 1;
        let Some(&[i, j]) = stack.get(len) else {
            break QueryStatus::Inconsistent;
        };
        let (Some(si), Some(sj)) = (a.sphere(i as usize), b.sphere(j as usize)) else {
            break QueryStatus::Inconsistent;
        };
        stats.overlap_tests += 1;
        if gap(si, sj) > bound {
            continue;
        }
        stats.nodes_visited += 1;
        let (Some([la, ra, ta, _]), Some([lb, rb, tb, _])) =
            (a.tree().links(i as usize), b.tree().links(j as usize))
        else {
            break QueryStatus::Inconsistent;
        };
        let (leaf_a, leaf_b) = (ta != NONE, tb != NONE);
        if leaf_a & leaf_b {
            let (Some(va), Some(vb)) =
                (a.world_triangle(ta as usize), b.world_triangle(tb as usize))
            else {
                break QueryStatus::Inconsistent;
            };
            stats.triangle_tests += 1;
            let found = if triangles_may_intersect(&va, &vb, error) {
                let p = intersection_point(&va, &vb);
                Nearest {
                    distance: S::ZERO,
                    point_a: p,
                    point_b: p,
                    normal: [S::ZERO; 3],
                    triangle_a: ta,
                    triangle_b: tb,
                    intersecting: true,
                }
            } else {
                let (d2, x, y) = triangle_distance(&va, &vb);
                let distance = d2.sqrt();
                let n = sub(y, x);
                let normal = if distance > S::ZERO {
                    scale(n, S::ONE / distance)
                } else {
                    [S::ZERO; 3]
                };
                Nearest {
                    distance,
                    point_a: x,
                    point_b: y,
                    normal,
                    triangle_a: ta,
                    triangle_b: tb,
                    intersecting: false,
                }
            };
            let (new_bound, stop) = visit(found);
            bound = new_bound;
            stats.pairs += 1;
            if stop {
                break QueryStatus::Complete;
            }
            continue;
        }
        let children: [[u32; 2]; 4] = match split(si[3], sj[3], leaf_a, leaf_b) {
            Split::Both => [[la, lb], [la, rb], [ra, lb], [ra, rb]],
            Split::First => [[la, j], [ra, j], [NONE, NONE], [NONE, NONE]],
            Split::Second => [[i, lb], [i, rb], [NONE, NONE], [NONE, NONE]],
        };
        // Push the farther children first so the nearest is expanded next.
        let mut keyed = [(S::ZERO, [NONE, NONE]); 4];
        let mut count = 0usize;
        let mut failed = false;
        for &[x, y] in children.iter().filter(|c| c[0] != NONE) {
            let (Some(sx), Some(sy)) = (a.sphere(x as usize), b.sphere(y as usize)) else {
                failed = true;
                break;
            };
            if let Some(slot) = keyed.get_mut(count) {
                *slot = (gap(sx, sy), [x, y]);
                count += 1;
            }
        }
        if failed {
            break QueryStatus::Inconsistent;
        }
        let keyed = keyed.get_mut(..count).unwrap_or(&mut []);
        // Insertion sort, descending by gap (at most four entries).
        for k in 1..keyed.len() {
            let mut m = k;
            while m > 0 && keyed.get(m - 1).map(|e| e.0) < keyed.get(m).map(|e| e.0) {
                keyed.swap(m - 1, m);
                m -= 1;
            }
        }
        for &(g, pair) in keyed.iter() {
            if g > bound {
                continue;
            }
            let Some(slot) = stack.get_mut(len) else {
                failed = true;
                break;
            };
            *slot = pair;
            len += 1;
        }
        if failed {
            break QueryStatus::Inconsistent;
        }
    };
    stats.sphere_updates = a
        .update_count()
        .wrapping_add(b.update_count())
        .wrapping_sub(before);
    (status, stats)
}
