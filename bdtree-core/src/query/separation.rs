//! Proximity: how far apart two deformed bodies are.
//!
//! * [`separation_lower_bound`]: `‖c_a − c_b‖ − r_a − r_b` of the root spheres — two sphere
//!   updates; the true distance is at least this (negative: the spheres overlap, nothing known).
//! * [`nearest`]: the exact minimum distance between the two deformed meshes, with the closest
//!   points (witnesses) on each, the unit normal from body 1 to body 2 and the two triangles,
//!   by branch and bound over the trees: depth-first, the nearer child pair first, a node pair
//!   pruned when its spheres' lower bound `‖c_a − c_b‖ − r_a − r_b` is not below the best
//!   distance found. At two leaves the triangle distance is the least of the 6 vertex–triangle
//!   and 9 edge–edge distances, or 0 when the triangles intersect
//!   ([`crate::geometry::triangle::triangles_may_intersect`]); touching only the triangles whose spheres
//!   come closer than the best distance so far.
//! * [`closer_than`]: whether the bodies are closer than `d + margin`, stopping at the first
//!   leaf pair that proves it — the form a safety monitor uses.
//!
//! **Signs and conventions.** Distances are non-negative; intersecting bodies report distance 0
//! with `intersecting = true`, a witness point on the intersection (both witnesses equal) and
//! a zero normal; this query gives no penetration depth — [`crate::collide_contacts`] gives
//! one per intersecting triangle pair (point, normal, depth), [`crate::query::proxies`] spheres one per
//! overlapping proxy pair. Otherwise the
//! normal is `(w_b − w_a) / ‖w_b − w_a‖`, from body 1 to body 2.
//!
//! **Accuracy.** The deformed vertices carry the per-coordinate error `δ` of each body
//! ([`crate::Body::error`]), so the computed distance is within `2√3 (δ_a + δ_b)` of the exact
//! distance between the exact deformed meshes, plus the distance computation's own rounding
//! (a few `u` of the coordinates' magnitude). Pruning uses the inflated spheres, which contain
//! the exact vertices, so no closer pair is pruned by a node bound. At a leaf pair, five
//! separating axes (the coordinate axes and both normals) bound the triangles' distance from
//! below before any exact distance is computed: [`nearest`] skips the pair when that bound
//! shows it cannot come closer than the best distance so far by more than the accuracy above
//! (`√3 τ`, see `closest::farther_than`: two parallel sheets have thousands of pairs at the same
//! distance, and none of them can change the answer beyond its accuracy); [`closer_than`] skips
//! it only when it is certainly farther than its limit. [`closer_than`] compares with that error
//! bound added (it may say "closer" for bodies up to the bound farther than `d + margin`, never
//! "not closer" for bodies within `d + margin`).
//!
//! **Cost.** [`nearest`] visits every node pair whose spheres' gap is below the best distance
//! found so far, so on separated bodies it costs more than a triangle query on the same bodies
//! (which visits only overlapping spheres): the node pairs whose gap is below the answer. Leaf
//! pairs are cheap unless they may beat the best distance (a five-axis lower bound,
//! `closest::farther_than`, decides most of them in ~70 multiply-adds); the exact triangle
//! distance (the least of 15 primitive distances) runs on few. Measured on the fixture scenes,
//! f32 (`benches/examples/distance_cost.rs`; docs/src/performance): the demo's cloth and ball,
//! 0.19–0.25 apart, take 18–26 thousand node pairs and up to 22.4 M instructions on the host
//! without vertex caches (8.0 M with them) — about twice the scene's busiest triangle query;
//! two parallel sheets 0.25 apart (fold) 56.5 M (8.6 M with vertex caches). On the Cortex-M4F
//! (the C API's cost table), 3.0 M instructions per call on average over the fixture scenes,
//! 17.8 M at most. [`closer_than`] stops at the first leaf pair within its limit, and prunes
//! from the start at the limit: a safety monitor's check costs far less than [`nearest`].

use crate::body::Body;
use crate::geometry::triangle_pair::{farther_than, triangle_separation};
use crate::scalar::{dot, sub, Scalar};
use crate::walk::budget::Unlimited;
use crate::walk::output::{QueryOutcome, QueryStats, QueryStatus};
use crate::walk::{walk_pairs, Bodies, Flow, NearestFirst, Node, Policy, Visit};

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

/// The signed root-sphere separation `‖c_a − c_b‖ − r_a − r_b`: a lower bound on the distance.
pub fn separation_lower_bound<S: Scalar>(
    a: &mut Body<'_, '_, S>,
    b: &mut Body<'_, '_, S>,
) -> Option<S> {
    Some(gap(a.sphere(0)?, b.sphere(0)?))
}

/// Whether two world spheres may come within `bound` of each other: `gap ≤ bound`, decided on
/// squares without a square root — `‖c_a − c_b‖² ≤ (bound + r_a + r_b)²`, with a relative `16u`
/// of slack for the rounding of both sides (a pair is kept, never dropped, on a tie). NaN keeps
/// the pair.
#[inline(always)]
// `!(x > limit)` is meant: NaN keeps the pair.
#[allow(clippy::neg_cmp_op_on_partial_ord)]
fn within_reach<S: Scalar>(x: [S; 4], y: [S; 4], bound: S) -> bool {
    let d = sub([y[0], y[1], y[2]], [x[0], x[1], x[2]]);
    let reach = bound + x[3] + y[3];
    let slack = S::ONE + S::from_u32(16) * S::UNIT_ROUNDOFF;
    !(dot(d, d) > reach * reach * slack)
}

/// Lower bound on the distance between two world spheres (may be negative).
fn gap<S: Scalar>(x: [S; 4], y: [S; 4]) -> S {
    let d = sub([y[0], y[1], y[2]], [x[0], x[1], x[2]]);
    dot(d, d).sqrt() - x[3] - y[3]
}

/// The exact minimum distance between two deformed bodies, with witnesses (module docs):
/// `nearest` (the query's sink, one slot) gets the answer when the query completes and `None`
/// otherwise. `stack` needs [`crate::stack_capacity`] entries.
pub fn nearest<S: Scalar>(
    a: &mut Body<'_, '_, S>,
    b: &mut Body<'_, '_, S>,
    stack: &mut [[u32; 2]],
    nearest: &mut Option<Nearest<S>>,
) -> QueryOutcome {
    let mut best: Option<Nearest<S>> = None;
    let mut bound = S::from_f64(f64::MAX);
    let far = S::from_f64(f64::MAX);
    let (status, stats) = branch_and_bound(a, b, stack, far, true, &mut |found: Nearest<S>| {
        if found.distance < bound {
            bound = found.distance;
            best = Some(found);
        }
        (bound, found.intersecting)
    });
    *nearest = if status.is_complete() { best } else { None };
    QueryOutcome { status, stats }
}

/// Whether the bodies come closer than `distance + margin` (module docs): `closer` (the query's
/// sink, one slot) gets the answer when the query completes and `true` otherwise (an
/// incomplete check is treated as closer; the outcome's status says which).
pub fn closer_than<S: Scalar>(
    a: &mut Body<'_, '_, S>,
    b: &mut Body<'_, '_, S>,
    distance: S,
    margin: S,
    stack: &mut [[u32; 2]],
    closer: &mut bool,
) -> QueryOutcome {
    let error = S::from_u32(4) * (a.error() + b.error());
    let limit = distance + margin + error;
    let mut found_closer = false;
    // Pruning at `limit` from the start: only pairs that could be within it are searched.
    let (status, stats) = branch_and_bound(a, b, stack, limit, false, &mut |found: Nearest<S>| {
        found_closer |= found.distance <= limit;
        (limit, found_closer)
    });
    *closer = found_closer || !status.is_complete();
    QueryOutcome { status, stats }
}

/// The distance search's policy: node pairs whose sphere gap exceeds the bound (shrinking as
/// leaf pairs are found) are pruned; `found` gets each leaf pair's result and returns the new
/// bound and whether to stop.
struct Search<'q, 'ta, 'ca, 'tb, 'cb, S: Scalar, F> {
    bodies: Bodies<'q, 'ta, 'ca, 'tb, 'cb, S>,
    bound: S,
    error: S,
    /// Skip leaf pairs that cannot come closer than the bound by more than the answer's
    /// accuracy (the nearest search; see [`farther_than`]).
    ties: bool,
    found: &'q mut F,
}

impl<S, F> Policy for Search<'_, '_, '_, '_, '_, S, F>
where
    S: Scalar,
    F: FnMut(Nearest<S>) -> (S, bool),
{
    type S = S;
    type Bound = [S; 4];
    type Key = S;

    #[inline(always)]
    fn node(&self, first: bool, node: u32) -> Option<Node> {
        self.bodies.leaf_node(first, node)
    }

    #[inline(always)]
    fn bound(&mut self, first: bool, node: u32) -> Option<[S; 4]> {
        self.bodies.sphere(first, node)
    }

    #[inline(always)]
    fn size(bound: &[S; 4]) -> S {
        bound[3]
    }

    /// Kept when the spheres' gap is not above the best distance so far (decided on squares,
    /// [`within_reach`]); the gap is the key (nearest first), its square root taken only for a
    /// kept pair.
    #[inline(always)]
    fn test(&self, a: &[S; 4], b: &[S; 4]) -> Option<S> {
        within_reach(*a, *b, self.bound).then(|| gap(*a, *b))
    }

    /// The bound may have shrunk since the pair was offered: test it again.
    fn visit(&mut self, [i, j]: [u32; 2]) -> Visit {
        match (
            self.bodies.cached_sphere(true, i),
            self.bodies.cached_sphere(false, j),
        ) {
            (Some(si), Some(sj)) if !within_reach(si, sj, self.bound) => Visit::Skip,
            _ => Visit::Pair([i, j]),
        }
    }

    fn updates(&self) -> u32 {
        self.bodies.updates()
    }

    fn leaf(
        &mut self,
        _: [u32; 2],
        a: &Node,
        b: &Node,
        stats: &mut QueryStats,
    ) -> Result<Flow, QueryStatus> {
        let (ta, tb) = (a.triangle, b.triangle);
        let [va, vb] = self.bodies.triangles(a, b)?;
        // A cheap lower bound first: most leaf pairs the spheres let through are farther apart
        // than the best pair found, and need no exact distance.
        if farther_than(&va, &vb, self.error, self.bound, self.ties) {
            stats.overlap_tests += 1;
            return Ok(Flow::Continue);
        }
        stats.triangle_tests += 1;
        let s = triangle_separation(&va, &vb, self.error);
        let found = Nearest {
            distance: s.distance,
            point_a: s.point_a,
            point_b: s.point_b,
            normal: s.normal,
            triangle_a: ta,
            triangle_b: tb,
            intersecting: s.intersecting,
        };
        let (bound, stop) = (self.found)(found);
        self.bound = bound;
        stats.pairs += 1;
        Ok(if stop { Flow::Stop } else { Flow::Continue })
    }
}

/// The search shared by [`nearest`] and [`closer_than`], from the root pair with the pruning
/// bound `bound` (see [`Search`]).
fn branch_and_bound<S: Scalar>(
    a: &mut Body<'_, '_, S>,
    b: &mut Body<'_, '_, S>,
    stack: &mut [[u32; 2]],
    bound: S,
    ties: bool,
    found: &mut impl FnMut(Nearest<S>) -> (S, bool),
) -> (QueryStatus, QueryStats) {
    let mut stats = QueryStats::default();
    let mut bodies = Bodies::new(a, b);
    if let Err(status) = bodies.check(stack.len()) {
        return (status, stats);
    }
    let error = bodies.error();
    let before = bodies.updates();
    // The root pair is pushed untested, and `Search::visit` reads the spheres of the pairs it
    // pops from the cache without asking whether they are of this step (a pushed pair's were
    // computed when it was offered): the roots' must be computed now, or a root sphere of a
    // previous state could skip the whole search (a "not closer" for touching bodies).
    if bodies.sphere(true, 0).is_none() || bodies.sphere(false, 0).is_none() {
        return (QueryStatus::Inconsistent, stats);
    }
    let mut search = Search {
        bodies,
        bound,
        error,
        ties,
        found,
    };
    let mut pending = NearestFirst::new(stack);
    let status = if pending.push([0, 0]) {
        walk_pairs(&mut search, &mut pending, &mut Unlimited, &mut stats).status()
    } else {
        QueryStatus::Inconsistent
    };
    stats.sphere_updates = search.updates().wrapping_sub(before);
    (status, stats)
}
