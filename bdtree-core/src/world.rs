//! A world of many bodies: broad phase over root spheres, then the exact pairwise (and,
//! where the filter allows, self) queries — no allocation, every buffer the caller's.
//!
//! ```text
//! for each step: set every body's state, then
//! collide_world(&mut bodies, &mut sweep, &mut roots, &filter, &mut stack, &mut sink)
//!   roots[i] = bodies[i].sphere(0)           (one update per body)
//!   sweep-and-prune over roots, filtered     → candidate body pairs
//!   collide(bodies[i], bodies[j]) per pair   → (i, j, triangle pair) to the sink
//!   collide_self(bodies[i]) if filter allows (i, i)
//! ```

use crate::body::Body;
use crate::broad::{PairFilter, SweepAndPrune, SweepStatus};
use crate::query::{collide, QueryStats, QueryStatus, TrianglePair};
use crate::scalar::Scalar;
use crate::selfcollide::collide_self;

/// What a world query did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct WorldOutcome {
    /// `Complete`, or the first status that was not (the rest of that query's answer, and any
    /// later pair's, may be missing: treat the world as possibly colliding).
    pub status: QueryStatus,
    /// Narrow-phase counters summed over every query.
    pub stats: QueryStats,
    /// Root-sphere tests of the broad phase.
    pub broad_tests: u32,
    /// Body pairs whose root spheres overlap (narrow-phase queries run).
    pub candidate_pairs: u32,
}

/// Every intersecting triangle pair between the bodies the filter allows (and within each body
/// whose self-collision it allows), to `sink` as `(i, j, pair)` with `i < j` (or `i == j`).
///
/// `roots` needs one entry per body; `stack` what the deepest pair needs
/// ([`crate::stack_capacity`] and [`crate::self_stack_capacity`] of the deepest tree). More
/// bodies than `roots` or the sweep's storage hold ends with [`QueryStatus::TooManyBodies`].
pub fn collide_world<S: Scalar>(
    bodies: &mut [Body<'_, '_, S>],
    sweep: &mut SweepAndPrune<'_>,
    roots: &mut [[S; 4]],
    filter: &impl PairFilter,
    stack: &mut [[u32; 2]],
    sink: &mut impl FnMut(u32, u32, TrianglePair) -> bool,
) -> WorldOutcome {
    let mut outcome = WorldOutcome {
        status: QueryStatus::Complete,
        stats: QueryStats::default(),
        broad_tests: 0,
        candidate_pairs: 0,
    };
    let n = bodies.len();
    let Some(roots) = roots.get_mut(..n) else {
        outcome.status = QueryStatus::TooManyBodies { bodies: n };
        return outcome;
    };
    for (root, body) in roots.iter_mut().zip(bodies.iter_mut()) {
        match body.sphere(0) {
            Some(s) => *root = s,
            None => {
                outcome.status = QueryStatus::Inconsistent;
                return outcome;
            }
        }
    }
    let mut first_failure: Option<QueryStatus> = None;
    let mut candidates = 0u32;
    let (status, tests) = sweep.pairs(roots, filter, &mut |i, j| {
        let (i, j) = (i as usize, j as usize);
        let Some((head, tail)) = bodies.split_at_mut_checked(j) else {
            return false;
        };
        let (Some(a), Some(b)) = (head.get_mut(i), tail.first_mut()) else {
            return false;
        };
        candidates += 1;
        let mut pair_sink = |p: TrianglePair| sink(i as u32, j as u32, p);
        let q = collide(a, b, stack, &mut pair_sink);
        add(&mut outcome.stats, &mut first_failure, q.stats, q.status);
        q.status.is_complete()
    });
    outcome.broad_tests = tests;
    outcome.candidate_pairs = candidates;
    match status {
        SweepStatus::Complete => {}
        SweepStatus::SinkFull { .. } => {
            // A narrow query failed (its status is recorded) or a body index did not resolve.
            if first_failure.is_none() {
                first_failure = Some(QueryStatus::Inconsistent);
            }
        }
        SweepStatus::TooManyBodies => {
            first_failure.get_or_insert(QueryStatus::TooManyBodies { bodies: n });
        }
    }
    if first_failure.is_none() {
        for (i, body) in bodies.iter_mut().enumerate() {
            if !filter.allows(i, i) {
                continue;
            }
            let mut self_sink = |p: TrianglePair| sink(i as u32, i as u32, p);
            let q = collide_self(body, stack, &mut self_sink);
            add(&mut outcome.stats, &mut first_failure, q.stats, q.status);
            if first_failure.is_some() {
                break;
            }
        }
    }
    if let Some(status) = first_failure {
        outcome.status = status;
    }
    outcome
}

/// Sums one query's counters into `total` and keeps the first incomplete status.
fn add(
    total: &mut QueryStats,
    first: &mut Option<QueryStatus>,
    s: QueryStats,
    status: QueryStatus,
) {
    total.nodes_visited = total.nodes_visited.wrapping_add(s.nodes_visited);
    total.sphere_updates = total.sphere_updates.wrapping_add(s.sphere_updates);
    total.overlap_tests = total.overlap_tests.wrapping_add(s.overlap_tests);
    total.triangle_tests = total.triangle_tests.wrapping_add(s.triangle_tests);
    total.pairs = total.pairs.wrapping_add(s.pairs);
    if !status.is_complete() && first.is_none() {
        *first = Some(status);
    }
}
