//! A world of many bodies: broad phase over root spheres, then the exact pairwise (and,
//! where the filter allows, self) queries — no allocation, every buffer the caller's.
//!
//! ```text
//! for each step: set every body's state, then
//! collide_world(&mut bodies, &mut sweep, &mut roots, &filter, &mut stack, &mut sink)
//!   roots[i] = bodies[i].sphere(0)           (one update per body)
//!   sweep-and-prune over roots, filtered     → candidate body pairs
//!   collide(bodies[i], bodies[j]) per pair   → WorldPair { i, j, triangle pair } to the sink
//!   collide_self(bodies[i]) if filter allows (i, i)
//!
//! collide_world_primitives(&mut bodies, &primitives, &filter, &mut stack, &mut sink)
//!   per body i and primitive p the filter allows as (i, n + p):
//!     broad test of bodies[i].sphere(0) against the primitive → candidate pair
//!     collide_primitive(bodies[i], primitives[p])  → WorldContact { i, p, contact } to the sink
//! ```

pub mod grid;
pub mod response;
pub mod sweep;

use core::borrow::BorrowMut;

use crate::body::Body;
use crate::query::contacts::ContactPoint;
use crate::query::primitives::{collide_primitive, sphere_may_touch, Primitive};
use crate::query::self_collision::collide_self;
use crate::query::triangles::collide;
use crate::scalar::Scalar;
use crate::walk::output::{QueryStats, QueryStatus, Sink, TrianglePair};
use crate::world::sweep::{PairFilter, SweepAndPrune, SweepStatus};

/// An intersecting triangle pair of a world: the two bodies (indices into the world's bodies,
/// `a < b`, or `a == b` for a self-contact) and their triangles.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct WorldPair {
    /// The first body.
    pub a: u32,
    /// The second body.
    pub b: u32,
    /// Their triangles (for a self-contact, `triangles.a < triangles.b`).
    pub triangles: TrianglePair,
}

/// The bodies of a world, as [`collide_world`] and [`collide_world_primitives`] reach them:
/// their count, one body, two distinct bodies at once. Implemented for slices of bodies and of
/// anything that borrows one mutably (`[Body]`, `[&mut Body]`, through `as_mut_slice()` for a
/// `Vec`), so bodies need not be contiguous; a binding implements it over its caller's own
/// array of body handles (the C API's array of body pointers) without copying them.
pub trait WorldBodies<'t, 'c, S: Scalar> {
    /// How many bodies (indices `0..count()`).
    fn count(&self) -> usize;
    /// Body `i`; `None` when `i` is out of range.
    fn body(&mut self, i: usize) -> Option<&mut Body<'t, 'c, S>>;
    /// Bodies `i` and `j`, `i < j`, at once; `None` when `i >= j` or `j` is out of range.
    #[allow(clippy::type_complexity)]
    fn pair(&mut self, i: usize, j: usize) -> Option<(&mut Body<'t, 'c, S>, &mut Body<'t, 'c, S>)>;
}

impl<'t, 'c, S: Scalar, B: BorrowMut<Body<'t, 'c, S>>> WorldBodies<'t, 'c, S> for [B] {
    #[inline]
    fn count(&self) -> usize {
        self.len()
    }

    #[inline]
    fn body(&mut self, i: usize) -> Option<&mut Body<'t, 'c, S>> {
        self.get_mut(i).map(BorrowMut::borrow_mut)
    }

    #[inline]
    fn pair(&mut self, i: usize, j: usize) -> Option<(&mut Body<'t, 'c, S>, &mut Body<'t, 'c, S>)> {
        let (head, tail) = self.split_at_mut_checked(j)?;
        let (a, b) = (head.get_mut(i)?, tail.first_mut()?);
        Some((a.borrow_mut(), b.borrow_mut()))
    }
}

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
/// whose self-collision it allows), to `sink` as [`WorldPair`]s. A refused pair ends the query
/// with the narrow query's `OutputFull` status.
///
/// `bodies`: a slice of bodies or of `&mut Body`, or any [`WorldBodies`]; every body's state
/// must be given in one frame (one floating origin for the whole world).
///
/// `roots` needs one entry per body; `stack` what the deepest pair needs
/// ([`crate::stack_capacity`] and [`crate::self_stack_capacity`] of the deepest tree). More
/// bodies than `roots` or the sweep's storage hold ends with [`QueryStatus::TooManyBodies`].
pub fn collide_world<'t, 'c, S: Scalar>(
    bodies: &mut (impl WorldBodies<'t, 'c, S> + ?Sized),
    sweep: &mut SweepAndPrune<'_>,
    roots: &mut [[S; 4]],
    filter: &impl PairFilter,
    stack: &mut [[u32; 2]],
    sink: &mut (impl Sink<WorldPair> + ?Sized),
) -> WorldOutcome {
    let mut outcome = WorldOutcome {
        status: QueryStatus::Complete,
        stats: QueryStats::default(),
        broad_tests: 0,
        candidate_pairs: 0,
    };
    let n = bodies.count();
    let Some(roots) = roots.get_mut(..n) else {
        outcome.status = QueryStatus::TooManyBodies { bodies: n };
        return outcome;
    };
    for (i, root) in roots.iter_mut().enumerate() {
        match bodies.body(i).and_then(|body| body.sphere(0)) {
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
        let Some((a, b)) = bodies.pair(i as usize, j as usize) else {
            return false;
        };
        candidates += 1;
        let (a_index, b_index) = (i, j);
        let mut pair_sink = |triangles: TrianglePair| {
            let pair = WorldPair {
                a: a_index,
                b: b_index,
                triangles,
            };
            sink.push(pair).is_ok()
        };
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
        for i in 0..n {
            if !filter.allows(i, i) {
                continue;
            }
            let Some(body) = bodies.body(i) else {
                first_failure = Some(QueryStatus::Inconsistent);
                break;
            };
            let index = i as u32;
            let mut self_sink = |triangles: TrianglePair| {
                let pair = WorldPair {
                    a: index,
                    b: index,
                    triangles,
                };
                sink.push(pair).is_ok()
            };
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

/// A triangle of a world body touching a rigid primitive: the body (index into the world's
/// bodies), the primitive (index into the world's primitives) and the contact of
/// [`collide_primitive`] — `contact.a` the body's triangle, `contact.b` always 0 (the
/// primitive's side), the normal from the triangle to the primitive.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct WorldContact<S> {
    /// The body.
    pub body: u32,
    /// The primitive.
    pub primitive: u32,
    /// Triangle, point, normal and depth.
    pub contact: ContactPoint<S>,
}

/// Every triangle of every body touching one of `primitives` (half-spaces, spheres, capsules,
/// boxes in world coordinates), to `sink` as [`WorldContact`]s, body by body, primitive by
/// primitive.
///
/// **Filter.** The primitives follow the bodies in the filter's numbering: body `i` against
/// primitive `p` is asked as `filter.allows(i, n + p)` with `n = bodies.count()`, so one
/// [`crate::BitMatrix`] of `n + m` entries covers body pairs ([`collide_world`]) and
/// body–primitive pairs. Primitive–primitive pairs are not queried.
///
/// **Broad phase.** Each allowed pair is first tested on the body's root sphere
/// ([`Body::sphere`]`(0)`, one update per body) against the primitive itself — a half-space
/// by the root center's height over its plane, a sphere, capsule or box by the center's signed
/// distance — with the conservative test the narrow query applies to every node (radius plus
/// the leaf tolerance and the test's rounding): a pair it rejects has no triangle the narrow
/// query would report. Only candidate pairs run [`collide_primitive`]. An unbounded
/// half-space is thus a candidate exactly for the bodies whose root sphere reaches below its
/// plane. Cost: `n · m` root tests (primitives are few: floors, tools, links), then the narrow
/// queries.
///
/// `stack` needs [`crate::primitive_stack_capacity`] of the deepest tree. A refused contact
/// ends the query with `OutputFull`; more bodies or primitives than `u32` indices hold end it
/// with [`QueryStatus::TooManyBodies`].
pub fn collide_world_primitives<'t, 'c, S: Scalar>(
    bodies: &mut (impl WorldBodies<'t, 'c, S> + ?Sized),
    primitives: &[Primitive<S>],
    filter: &impl PairFilter,
    stack: &mut [[u32; 2]],
    sink: &mut (impl Sink<WorldContact<S>> + ?Sized),
) -> WorldOutcome {
    let mut outcome = WorldOutcome {
        status: QueryStatus::Complete,
        stats: QueryStats::default(),
        broad_tests: 0,
        candidate_pairs: 0,
    };
    let n = bodies.count();
    let too_many = QueryStatus::TooManyBodies {
        bodies: n.saturating_add(primitives.len()),
    };
    if u32::try_from(n).is_err() || u32::try_from(primitives.len()).is_err() {
        outcome.status = too_many;
        return outcome;
    }
    let mut first_failure: Option<QueryStatus> = None;
    'bodies: for i in 0..n {
        let Some(body) = bodies.body(i) else {
            first_failure = Some(QueryStatus::Inconsistent);
            break;
        };
        let mut root: Option<[S; 4]> = None;
        for (p, primitive) in primitives.iter().enumerate() {
            let Some(index) = n.checked_add(p) else {
                first_failure = Some(too_many);
                break 'bodies;
            };
            if !filter.allows(i, index) {
                continue;
            }
            let sphere = match root {
                Some(s) => s,
                None => match body.sphere(0) {
                    Some(s) => *root.insert(s),
                    None => {
                        first_failure = Some(QueryStatus::Inconsistent);
                        break 'bodies;
                    }
                },
            };
            outcome.broad_tests = outcome.broad_tests.saturating_add(1);
            if !sphere_may_touch(&sphere, primitive, body.error()) {
                continue;
            }
            outcome.candidate_pairs = outcome.candidate_pairs.saturating_add(1);
            // Both fit a u32 (checked above).
            let (body_index, primitive_index) = (i as u32, p as u32);
            let mut contact_sink = |contact: ContactPoint<S>| {
                let item = WorldContact {
                    body: body_index,
                    primitive: primitive_index,
                    contact,
                };
                sink.push(item).is_ok()
            };
            let q = collide_primitive(body, primitive, stack, &mut contact_sink);
            add(&mut outcome.stats, &mut first_failure, q.stats, q.status);
            if first_failure.is_some() {
                break 'bodies;
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
    total.add(&s);
    if !status.is_complete() && first.is_none() {
        *first = Some(status);
    }
}
