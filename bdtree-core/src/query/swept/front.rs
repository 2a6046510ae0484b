//! Certificates that last across ticks: the swept query's front carried from one tick's motion
//! to the next ([`SweptFront`], [`collide_swept_front`]).
//!
//! # The front
//!
//! A swept query stops at node pairs whose tracks never come near (pruned) and at leaf pairs
//! (tested). Those pairs partition the two trees' pairs: every triangle pair lies under exactly
//! one of them. The front keeps each with a **margin**, a lower bound of the distance between
//! the two nodes' contents at the end of the motion: `|c_a − c_b| − ρ_a − ρ_b` from the tracks'
//! end centers and radii (each radius at least the end sphere's), less its rounding (≤ 0 for a
//! leaf pair that may touch).
//!
//! # The motion budget
//!
//! Over the next tick's motion, from that end state to the new one, no point of a body's
//! geometry moves farther than
//!
//! ```text
//! μ = |Δt| + θ (P + U ‖q‖) + U ‖Δq‖ + 4 (δ₀ + δ₁) + rounding
//! ```
//!
//! with `θ` the rotation angle's bound, `P = max_v |p_v|` and `U = max_v ‖U_v‖_F` of the model
//! (computed once per front, rounded up), `q` the state at the start of the tick and `δ` the
//! states' rounding bounds: a vertex `x = R (p + U q) + t` moves by at most
//! `|Δt| + |R(τ) − R₀| |p + U q₀| + |U_v| |Δq|`, with `|R(τ) − R₀| ≤ 2 sin(θ/2) ≤ θ`, and a
//! triangle stays in the hull of its moved vertices. `O(M)` per body per tick.
//!
//! # Carried across ticks
//!
//! A front entry loses `μ_a + μ_b` each tick; while its margin stays positive the two nodes'
//! contents cannot touch during the tick, and the pair is skipped with no sphere, track or leaf
//! work. When it runs out the pair is walked again from where it is, with this tick's tracks,
//! and its part of the new front is recorded from there. In slow or resting contact at control
//! rates most of the front is skipped: only the pairs near contact are tested each tick.
//!
//! The front belongs to one body pair and assumes each query's `from` states are the previous
//! query's `to` states: it keeps a fingerprint of the `to` states (the bits of poses and `q`),
//! and a query whose `from` states differ, whose trees differ, after a failed query, or after
//! the front did not fit its storage, walks from the root as [`super::collide_swept`] does.
//! The answer is [`super::collide_swept`]'s up to a few extras either way (the front walks a
//! carried pair whose own tracks are near where the root walk pruned an ancestor, and
//! certifies pairs the root walk reaches: BD-Tree spheres are not nested), in a different
//! order. The leaf test is the same, with the same windows, but for one step first: a leaf
//! pair the static filter finds touching at the motion's start (within the query's tolerance)
//! is reported at time 0 with no path — in resting contact most pairs the front walks again
//! are these. A pair both report has the same time, or the front's is 0.

// `!(x > y)` is meant: NaN takes the conservative branch.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

use super::track::near;
use super::{checked, Swept, SweptPair};
use crate::body::Body;
use crate::bounds::track_cache::Track;
use crate::scalar::{dot, norm_inf, sub, Scalar};
use crate::walk::output::{QueryOutcome, QueryStats, QueryStatus, Sink};
use crate::walk::{run_from_pair, Flow, Node, Policy};

/// One entry of a [`SweptFront`]: a node pair and its margin (module docs).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
#[repr(C)]
pub struct FrontEntry<S> {
    pub(crate) pair: [u32; 2],
    pub(crate) margin: S,
}

impl<S: Scalar> FrontEntry<S> {
    /// An unused slot (the `Default`), usable in `const` and `static` initialisers.
    pub const EMPTY: Self = Self {
        pair: [0, 0],
        margin: S::ZERO,
    };

    /// The node pair `[node of a, node of b]`.
    pub fn pair(&self) -> [u32; 2] {
        self.pair
    }

    /// The margin left (module docs).
    pub fn margin(&self) -> S {
        self.margin
    }
}

/// A swept query's front for one body pair, carried from tick to tick (module docs). Storage is
/// the caller's: two buffers of equal length (the front and its successor). A front holds one
/// entry per node pair where a walk from the root stops (pruned or leaf pairs); a few times the
/// node pairs a swept query of the pair visits (`QueryStats::nodes_visited`) is ample. A front
/// that does not fit is dropped ([`SweptFront::overflowed`]) and the next query walks from the
/// root: the answer is never affected.
#[derive(Debug)]
pub struct SweptFront<'s, S: Scalar> {
    entries: &'s mut [FrontEntry<S>],
    spare: &'s mut [FrontEntry<S>],
    state: FrontState<S>,
}

/// What a [`SweptFront`] keeps besides its entries, as plain data: the front of a caller that
/// cannot hold the borrowing [`SweptFront`] from one tick to the next (a host object, a C
/// struct) keeps this and its two buffers, and resumes the front each tick
/// ([`SweptFront::resume`], [`SweptFront::suspend`]).
#[derive(Debug, Clone, Copy, PartialEq)]
#[repr(C)]
pub struct FrontState<S> {
    len: usize,
    /// The length of each buffer the state was taken with (a resume on others starts afresh).
    capacity: usize,
    fresh: bool,
    overflowed: bool,
    /// Whether the entries are in the second buffer given (the front swaps them each query).
    swapped: bool,
    /// Per body: `[P, U]` of its model (module docs) and its node count (the model's identity).
    reach: [[S; 2]; 2],
    nodes: [usize; 2],
    /// Fingerprints of the last query's `to` states.
    ends: [u64; 2],
    certified: usize,
    retested: usize,
}

impl<S: Scalar> FrontState<S> {
    /// The state of an empty front: its first query walks from the root.
    pub const NEW: Self = FrontState {
        len: 0,
        capacity: 0,
        fresh: true,
        overflowed: false,
        swapped: false,
        reach: [[S::ZERO; 2]; 2],
        nodes: [0; 2],
        ends: [0; 2],
        certified: 0,
        retested: 0,
    };

    /// Entries in the front (after the last query).
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the front is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether the last query's front did not fit the storage (the next walks from the root).
    pub fn overflowed(&self) -> bool {
        self.overflowed
    }

    /// Entries the last query skipped on their margins.
    pub fn certified(&self) -> usize {
        self.certified
    }

    /// Entries the last query walked again.
    pub fn retested(&self) -> usize {
        self.retested
    }
}

impl<S: Scalar> Default for FrontState<S> {
    fn default() -> Self {
        Self::NEW
    }
}

impl<'s, S: Scalar> SweptFront<'s, S> {
    /// An empty front over the caller's storage; the first query walks from the root.
    pub fn new(entries: &'s mut [FrontEntry<S>], spare: &'s mut [FrontEntry<S>]) -> Self {
        Self::resume(entries, spare, FrontState::NEW)
    }

    /// The front `state` was taken from ([`SweptFront::suspend`]), over the same two buffers
    /// in the same order, their entries untouched since. Buffers of another length than the
    /// state's start an empty front (the first query walks from the root), so storage may grow
    /// between ticks.
    pub fn resume(
        entries: &'s mut [FrontEntry<S>],
        spare: &'s mut [FrontEntry<S>],
        mut state: FrontState<S>,
    ) -> Self {
        let capacity = entries.len().min(spare.len());
        if state.capacity != capacity || state.len > capacity {
            state = FrontState {
                capacity,
                ..FrontState::NEW
            };
        }
        let (entries, spare) = if state.swapped {
            (spare, entries)
        } else {
            (entries, spare)
        };
        SweptFront {
            entries,
            spare,
            state,
        }
    }

    /// The front's state, to resume it later over the same buffers ([`SweptFront::resume`]).
    pub fn suspend(self) -> FrontState<S> {
        self.state
    }

    /// Entries in the front (after the last query).
    pub fn len(&self) -> usize {
        self.state.len
    }

    /// Whether the front is empty (before the first query, or after one that failed or did
    /// not fit).
    pub fn is_empty(&self) -> bool {
        self.state.len == 0
    }

    /// The entries.
    pub fn entries(&self) -> &[FrontEntry<S>] {
        self.entries.get(..self.state.len).unwrap_or(&[])
    }

    /// The next query walks from the root (as after a jump in state the caller knows of).
    pub fn reset(&mut self) {
        self.state.fresh = true;
        self.state.len = 0;
    }

    /// Whether the last query's front did not fit the storage (the next walks from the root).
    pub fn overflowed(&self) -> bool {
        self.state.overflowed
    }

    /// Entries the last query skipped on their margins: no work for their pairs.
    pub fn certified(&self) -> usize {
        self.state.certified
    }

    /// Entries the last query walked again (their margins ran out).
    pub fn retested(&self) -> usize {
        self.state.retested
    }
}

/// [`super::collide_swept`] with a front carried from the previous tick (module docs): the same
/// pairs and times, walking only the node pairs whose margins ran out. `front` must be used with
/// this body pair only; `stack` needs [`crate::stack_capacity`] entries.
pub fn collide_swept_front<S: Scalar>(
    a_from: &mut Body<'_, '_, S>,
    a_to: &mut Body<'_, '_, S>,
    b_from: &mut Body<'_, '_, S>,
    b_to: &mut Body<'_, '_, S>,
    front: &mut SweptFront<'_, S>,
    stack: &mut [[u32; 2]],
    sink: &mut (impl Sink<SweptPair<S>> + ?Sized),
) -> QueryOutcome {
    let mut stats = QueryStats::default();
    front.state.certified = 0;
    front.state.retested = 0;
    if let Err(status) = checked(a_from, a_to, b_from, b_to, stack.len()) {
        front.reset();
        return QueryOutcome { status, stats };
    }
    let nodes = [a_to.tree().node_count(), b_to.tree().node_count()];
    if nodes != front.state.nodes {
        front.state.reach = [reach(a_to), reach(b_to)];
        front.state.nodes = nodes;
        front.state.fresh = true;
    }
    let carried = !front.state.fresh
        && !front.state.overflowed
        && front.state.ends == [fingerprint(a_from), fingerprint(b_from)];
    let ends = [fingerprint(a_to), fingerprint(b_to)];
    let budget = if carried {
        let [ra, rb] = front.state.reach;
        motion_budget(a_from, a_to, ra) + motion_budget(b_from, b_to, rb)
    } else {
        S::ZERO
    };
    let mut swept = Swept::new(a_from, a_to, b_from, b_to, true, sink);
    swept.certify = true;
    let mut policy = Fronted {
        swept,
        out: &mut *front.spare,
        len: 0,
        full: false,
    };
    let before = policy.updates();
    let status = if carried {
        let mut status = QueryStatus::Complete;
        let u = S::UNIT_ROUNDOFF;
        for entry in front.entries.iter().take(front.state.len) {
            let left = entry.margin - budget;
            let left = left - S::from_u32(4) * u * (entry.margin.abs() + budget);
            if left > S::ZERO {
                policy.record(entry.pair, left);
                front.state.certified += 1;
                continue;
            }
            front.state.retested += 1;
            status = policy.walk_pair(entry.pair, stack, &mut stats);
            if !status.is_complete() {
                break;
            }
        }
        status
    } else {
        policy.walk_pair([0, 0], stack, &mut stats)
    };
    stats.sphere_updates = policy.updates().wrapping_sub(before);
    let (len, full) = (policy.len, policy.full);
    drop(policy);
    if status.is_complete() && !full {
        core::mem::swap(&mut front.entries, &mut front.spare);
        front.state.swapped = !front.state.swapped;
        front.state.len = len;
        front.state.fresh = false;
        front.state.overflowed = false;
        front.state.ends = ends;
    } else {
        front.state.len = 0;
        front.state.fresh = true;
        front.state.overflowed = full;
    }
    QueryOutcome { status, stats }
}

/// `[P, U]` of a body's model (module docs), rounded up.
fn reach<S: Scalar>(body: &Body<'_, '_, S>) -> [S; 2] {
    let model = body.model();
    let m = model.modes();
    let u = S::UNIT_ROUNDOFF;
    let (mut p, mut big_u) = (S::ZERO, S::ZERO);
    for v in 0..model.vertex_count() {
        let x = model.position(v).unwrap_or([S::from_f64(f64::INFINITY); 3]);
        p = p.max(dot(x, x));
        let mut sum = S::ZERO;
        for k in 0..3 {
            for j in 0..m {
                let e = model
                    .basis_entry(v, k, j)
                    .unwrap_or(S::from_f64(f64::INFINITY));
                sum = sum + e * e;
            }
        }
        big_u = big_u.max(sum);
    }
    // Sums of 3M squares: relative rounding below (3M + 2) u; the roots add one more.
    let grow = S::ONE + S::from_u32(3 * m as u32 + 8) * u;
    [p.sqrt() * grow, big_u.sqrt() * grow]
}

/// How far any point of a body's geometry moves over the motion from `from` to `to` (module
/// docs), rounded up.
fn motion_budget<S: Scalar>(from: &Body<'_, '_, S>, to: &Body<'_, '_, S>, [p, big_u]: [S; 2]) -> S {
    let u = S::UNIT_ROUNDOFF;
    let norm = |x: [S; 3]| dot(x, x).sqrt();
    let (f, t) = (from.pose(), to.pose());
    let dt = norm(sub(t.translation, f.translation));
    let q0 = from.q().iter().fold(S::ZERO, |s, &x| s + x * x).sqrt();
    let dq = from
        .q()
        .iter()
        .zip(to.q())
        .fold(S::ZERO, |s, (&a, &b)| s + (b - a) * (b - a))
        .sqrt();
    let theta = super::motion::Motion::new(f, t).theta;
    let reach = p + big_u * q0;
    let m = S::from_u32(from.q().len() as u32 + 16);
    let moved = (dt + theta * reach + big_u * dq) * (S::ONE + m * u);
    let far = norm_inf(f.translation).max(norm_inf(t.translation)) + reach;
    moved + S::from_u32(4) * (from.error() + to.error()) + S::from_u32(64) * u * far
}

/// A fingerprint of a body's state: its pose's and `q`'s bits.
fn fingerprint<S: Scalar>(body: &Body<'_, '_, S>) -> u64 {
    let pose = body.pose();
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut mix = |x: S| {
        h ^= x.to_f64().to_bits();
        h = h.wrapping_mul(0x0000_0100_0000_01b3).rotate_left(29);
    };
    pose.rotation.iter().flatten().for_each(|&x| mix(x));
    pose.translation.iter().for_each(|&x| mix(x));
    body.q().iter().for_each(|&x| mix(x));
    h
}

/// The margin of two tracks at the end of the motion (module docs): at most the distance of
/// their contents there.
#[inline(always)]
fn margin<S: Scalar>(a: &Track<S>, b: &Track<S>) -> S {
    let u = S::UNIT_ROUNDOFF;
    let d = sub(a.c1, b.c1);
    let eight = S::from_u32(8) * u;
    dot(d, d).sqrt() * (S::ONE - eight) - (a.radius + b.radius) * (S::ONE + eight)
}

/// A swept policy that tells what its last leaf test left between the triangles at the second
/// tick (0 when it proved nothing).
pub(super) trait LeafGap: Policy {
    fn leaf_gap(&self) -> Self::S;
}

/// The swept policy recording where its walk stops: pruned pairs and leaf pairs, each with its
/// margin.
struct Fronted<'f, P, S> {
    swept: P,
    out: &'f mut [FrontEntry<S>],
    len: usize,
    full: bool,
}

impl<P: LeafGap<Bound = Track<S>, S = S>, S: Scalar> Fronted<'_, P, S> {
    /// One entry of the new front (dropped, and the front marked full, when it has no room).
    #[inline(always)]
    fn record(&mut self, pair: [u32; 2], margin: S) {
        match self.out.get_mut(self.len) {
            Some(slot) => {
                *slot = FrontEntry { pair, margin };
                self.len += 1;
            }
            None => self.full = true,
        }
    }

    /// The walk from one pair: its tracks (this query's), recorded when apart, walked when
    /// near.
    fn walk_pair(
        &mut self,
        [i, j]: [u32; 2],
        stack: &mut [[u32; 2]],
        stats: &mut QueryStats,
    ) -> QueryStatus {
        let (Some(x), Some(y)) = (self.swept.bound(true, i), self.swept.bound(false, j)) else {
            return QueryStatus::Inconsistent;
        };
        stats.overlap_tests += 1;
        if !near(&x, &y) {
            self.record([i, j], margin(&x, &y));
            return QueryStatus::Complete;
        }
        run_from_pair(self, stack, [i, j], stats)
    }
}

impl<P: LeafGap<Bound = Track<S>, S = S>, S: Scalar> Policy for Fronted<'_, P, S> {
    type S = S;
    type Bound = Track<S>;
    type Key = P::Key;

    #[inline(always)]
    fn node(&self, first: bool, node: u32) -> Option<Node> {
        self.swept.node(first, node)
    }

    #[inline(always)]
    fn bound(&mut self, first: bool, node: u32) -> Option<Track<S>> {
        self.swept.bound(first, node)
    }

    #[inline(always)]
    fn pending_bound(&mut self, first: bool, node: u32) -> Option<Track<S>> {
        self.swept.pending_bound(first, node)
    }

    #[inline(always)]
    fn children(&mut self, first: bool, children: [u32; 2]) -> Option<[Track<S>; 2]> {
        self.swept.children(first, children)
    }

    #[inline(always)]
    fn size(bound: &Track<S>) -> S {
        P::size(bound)
    }

    #[inline(always)]
    fn test(&self, a: &Track<S>, b: &Track<S>) -> Option<P::Key> {
        self.swept.test(a, b)
    }

    #[inline(always)]
    fn keep(&mut self, pair: [u32; 2], x: &Track<S>, y: &Track<S>) -> ([u32; 2], bool) {
        let overlap = self.swept.test(x, y).is_some();
        if !overlap {
            self.record(pair, margin(x, y));
        }
        (pair, overlap)
    }

    fn updates(&self) -> u32 {
        self.swept.updates()
    }

    fn leaf(
        &mut self,
        [i, j]: [u32; 2],
        a: &Node,
        b: &Node,
        stats: &mut QueryStats,
    ) -> Result<Flow, QueryStatus> {
        let flow = self.swept.leaf([i, j], a, b, stats)?;
        let (Some(x), Some(y)) = (
            self.swept.pending_bound(true, i),
            self.swept.pending_bound(false, j),
        ) else {
            return Err(QueryStatus::Inconsistent);
        };
        // The leaf test's own gap between the triangles when it had one: larger than the
        // spheres' where they overlap.
        let gap = self.swept.leaf_gap();
        self.record([i, j], margin(&x, &y).max(gap));
        Ok(flow)
    }
}
