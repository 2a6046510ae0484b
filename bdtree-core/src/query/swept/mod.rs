//! Swept queries: every triangle pair of two bodies that intersects at **some** time of the
//! motion from a previous state to the current one — what a control loop that samples the world
//! at its tick needs so that a fast body cannot pass through another between two ticks.
//!
//! | file | what |
//! |---|---|
//! | `mod.rs` | the query: its policy over the one walk (relative-motion node test) and [`collide_swept`] |
//! | `motion.rs` | one body's motion: slerp, the poses at dyadic times, the rotation angle bound |
//! | `track.rs` | a node's track over the motion, cached per query; the time window of two tracks |
//! | `front.rs` | certificates that last across ticks: the query's front carried to the next tick |
//! | `leaf.rs` | the leaf test: chords of the cached end vertices, arc bounds, conservative advancement |
//!
//! # The motion
//!
//! Each body goes from its state in `from` (a [`Body`] set to the previous step) to its state
//! in `to` (the current step), over τ ∈ [0, 1]: `q` and the translation linear in τ, the
//! rotation by slerp on the shorter arc (the quaternions are taken from the two poses'
//! rotation matrices). A deformed body-frame vertex `x(τ) = p + U q(τ)` is linear in τ.
//!
//! # Node bounds over the motion
//!
//! A node's BD-Tree sphere has a center linear in `q` and a radius convex in `q` (`r₀ + Σ ρⱼ|qⱼ|`,
//! plus a rounding bound also convex in `|q|`), so at τ its world sphere has center
//! `c(τ) = R(τ) ℓ(τ) + t(τ)` with `ℓ` linear and radius at most `max(r₀, r₁)`. With `θ` the
//! rotation angle from `R₀` to `R₁` (on the shorter arc, `θ ≤ π`),
//!
//! ```text
//! |c(τ) − ((1−τ) c₀ + τ c₁)| ≤ |ℓ₀| (1 − cos θ/2) + θ/4 |ℓ₁ − ℓ₀| ≤ θ²/8 |ℓ₀| + θ/4 |ℓ₁ − ℓ₀|
//! ```
//!
//! (the leaf test's bound, `leaf.rs`; `ℓ = Rᵀ (c − t)`, the center in the body frame), so the node
//! stays within `ρ = max(r₀, r₁) + θ²/8 |ℓ₀| + θ/4 |ℓ₁ − ℓ₀|` of the point
//! moving on the segment from `c₀` to `c₁` at the same τ. Two nodes may then touch at some τ only
//! if the **relative** center `c_a(τ) − c_b(τ)`, which moves on the segment from
//! `c_a0 − c_b0` to `c_a1 − c_b1`, comes within `ρ_a + ρ_b` of the origin: a point–segment
//! distance, ~25 flops. This ties the two bodies' times together (a sphere around each body's
//! whole sweep does not: a ball passing over a plate meets every plate node under its path at
//! *some* time, but only the ones it is over *at that time* pass this test). The query walks
//! these bounds with the one walk ([`crate::walk`]). **The `from` and `to` bodies must use the
//! exact sphere update** (not the coherent one, whose centers are not linear in `q`).
//!
//! Each node's track is computed once per query and kept in the `to` body's track cache
//! ([`Body::with_track_cache`]; without one it is computed at each visit).
//!
//! # The leaf test
//!
//! `leaf.rs`: the triangles' end positions from the bodies' vertex caches, each vertex's path
//! taken as the chord of its ends up to its arc bound; one separating-axis step over the whole
//! motion, then, inside the window of the two leaves' tracks, conservative advancement along
//! the direction of closest approach, the normals and the edge crosses, each step checked by
//! the static filter at its time. The reported `time` is a time before which every interval
//! was proved apart: **the pair cannot touch before it**.
//!
//! **Tightness**: a pair is reported where the static filter, with the leaf's bounds, cannot
//! separate it, or where a few rounds of advancement stall (then at their start: earlier).
//! Measured on the swept fixtures against 129 samples per motion: 1.02–1.14× the sampled pairs.
//!
//! **Cost** (host, f32, callgrind instructions per motion against the static query at 8
//! instants of the same motion): 2.4–3.2× (7.4–10.9× before the track cache and this leaf
//! test; the book's `docs/src/performance/swept.md`).
//!
//! **Across ticks** ([`collide_swept_front`], `front.rs`): the pairs where the walk stops are
//! kept with margins and skipped while the bodies' motion budgets leave them positive — on a pad
//! resting and sliding on a plate at 1 kHz, 0.68× one static query per tick (the root walk:
//! 2.5×).
//!
//! Everything runs in the bodies' scalar: an f32 body's query uses no f64 (no soft double
//! precision on a single-precision FPU); rounding is folded into every bound (`motion`, `leaf`).

// `!(x > y)` is meant: NaN takes the conservative branch.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

use crate::body::Body;
use crate::geometry::triangle::filter_axis_for;
use crate::scalar::{norm_inf, Scalar};
use crate::walk::output::{
    report, QueryOutcome, QueryStats, QueryStatus, Reported, Sink, TrianglePair,
};
use crate::walk::{check_triangle_query, run_query, stack_capacity, Flow, Node, Policy, Side};

mod front;
mod leaf;
mod motion;
mod track;

pub use front::{collide_swept_front, FrontEntry, FrontState, SweptFront};

use crate::bounds::track_cache::{Track, TrackEntry};
use leaf::{apart_throughout, first_contact, gap_along, Path};
use motion::Motion;
use track::{meet, near, Arc};

/// A triangle pair that may intersect during the motion.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct SweptPair<S> {
    /// Triangle of the first body.
    pub a: u32,
    /// Triangle of the second body.
    pub b: u32,
    /// A conservative earliest time of impact: the pair cannot touch for τ below it.
    pub time: S,
}

/// A body at both ends of its motion, with the caches of both lent to the walk and the track
/// cache of the end body.
struct Ends<'q, 't0, 'c0, 't1, 'c1, S: Scalar> {
    from: Side<'q, 't0, 'c0, S>,
    to: Side<'q, 't1, 'c1, S>,
    /// The end body's track cache (empty without one) and this query's mark.
    tracks: &'c1 mut [TrackEntry<S>],
    epoch: u32,
    arc: Arc<S>,
    motion: Motion<S>,
    /// The larger rounding bound of the two states.
    error: S,
}

impl<'q, 't0, 'c0, 't1, 'c1, S: Scalar> Ends<'q, 't0, 'c0, 't1, 'c1, S> {
    /// The body at both ends, its motion and error bound.
    fn new(from: &'q mut Body<'t0, 'c0, S>, to: &'q mut Body<'t1, 'c1, S>) -> Self {
        let motion = Motion::new(from.pose(), to.pose());
        let arc = Arc::new(from.pose(), to.pose(), motion.theta, motion.axis());
        let error = from.error().max(to.error());
        let (tracks, epoch) = to.lend_tracks();
        Ends {
            from: Side::new(from),
            to: Side::new(to),
            tracks,
            epoch,
            arc,
            motion,
            error,
        }
    }

    /// A node's track (module docs): from the cache, or computed (with its sibling's, into the
    /// cache when there is one).
    #[inline(always)]
    fn track(&mut self, node: u32) -> Option<Track<S>> {
        if let Some(entry) = self.tracks.get(node as usize) {
            if entry.epoch == self.epoch {
                return Some(entry.track);
            }
        }
        if node == 0 {
            return self.root_track();
        }
        let left = ((node - 1) & !1) + 1;
        let [l, r] = self.fill(left)?;
        Some(if node == left { l } else { r })
    }

    /// The tracks of the sibling pair `left`, `left + 1`: one check for both.
    #[inline(always)]
    fn child_tracks(&mut self, left: u32) -> Option<[Track<S>; 2]> {
        if let Some([l, r]) = self
            .tracks
            .get(left as usize..)
            .and_then(<[_]>::first_chunk::<2>)
        {
            if l.epoch == self.epoch {
                return Some([l.track, r.track]);
            }
        }
        self.fill(left)
    }

    /// A node's track as the cache holds it, without asking whether it is of this query: for a
    /// node of a pair this walk pushed (computed when the pair was tested). Computed again
    /// without a cache.
    #[inline(always)]
    fn pending_track(&mut self, node: u32) -> Option<Track<S>> {
        if let Some(entry) = self.tracks.get(node as usize) {
            return Some(entry.track);
        }
        self.track(node)
    }

    /// The miss of [`Ends::child_tracks`]: both ends' spheres of the pair, their tracks, cached.
    #[inline(never)]
    fn fill(&mut self, left: u32) -> Option<[Track<S>; 2]> {
        let [f0, f1] = self.from.child_spheres(left)?;
        let [t0, t1] = self.to.child_spheres(left)?;
        let pair = [self.arc.track(f0, t0), self.arc.track(f1, t1)];
        let epoch = self.epoch;
        if let Some([l, r]) = self
            .tracks
            .get_mut(left as usize..)
            .and_then(<[_]>::first_chunk_mut::<2>)
        {
            *l = TrackEntry {
                track: pair[0],
                epoch,
            };
            *r = TrackEntry {
                track: pair[1],
                epoch,
            };
        }
        Some(pair)
    }

    /// The root's track (it has no sibling).
    #[inline(never)]
    fn root_track(&mut self) -> Option<Track<S>> {
        let track = self.arc.track(self.from.sphere(0)?, self.to.sphere(0)?);
        if let Some(entry) = self.tracks.get_mut(0) {
            *entry = TrackEntry {
                track,
                epoch: self.epoch,
            };
        }
        Some(track)
    }

    /// A triangle's world vertices at both ends (the vertex caches', or deformed).
    #[inline(always)]
    fn ends(&mut self, triangle: u32) -> Option<[[[S; 3]; 3]; 2]> {
        Some([
            self.from.world_triangle(triangle)?,
            self.to.world_triangle(triangle)?,
        ])
    }

    /// At least every coordinate of the body at both ticks (its root's spheres) and of its
    /// translations (NaN when the tree is broken: the query then fails at its root).
    fn extent(&mut self) -> S {
        let t =
            norm_inf(self.motion.from().translation).max(norm_inf(self.motion.to().translation));
        let Some(root) = self.track(0) else {
            return S::ZERO;
        };
        let c = norm_inf(root.c0).max(norm_inf(root.c1));
        ((c + root.radius) * (S::ONE + S::from_u32(4) * S::UNIT_ROUNDOFF)).max(t)
    }
}

impl<S: Scalar> Drop for Ends<'_, '_, '_, '_, '_, S> {
    fn drop(&mut self) {
        let tracks = core::mem::take(&mut self.tracks);
        self.to.body.return_tracks(tracks);
    }
}

impl<S: Copy> Reported for SweptPair<S> {
    fn refused(&self) -> QueryStatus {
        TrianglePair::new(self.a, self.b).refused()
    }
}

/// The swept query's policy: node tracks and their time windows, the swept leaf test.
struct Swept<'q, 'a0, 'c0, 'a1, 'c1, 'b0, 'd0, 'b1, 'd1, S: Scalar, X: ?Sized> {
    a: Ends<'q, 'a0, 'c0, 'a1, 'c1, S>,
    b: Ends<'q, 'b0, 'd0, 'b1, 'd1, S>,
    /// At least every coordinate the leaf test meets (vertices at both ticks, translations).
    w: S,
    /// The leaf test's tolerance `T` ([`leaf`]).
    tolerance: S,
    /// What the last leaf test left between the triangles at the second tick (0 unless its
    /// first axis settled it): the front's certificate of a leaf pair ([`front`]).
    gap: S,
    /// Whether a leaf cleared beyond its first axis is certified too (for a front).
    certify: bool,
    sink: &'q mut X,
}

impl<S: Scalar, X: Sink<SweptPair<S>> + ?Sized> Policy
    for Swept<'_, '_, '_, '_, '_, '_, '_, '_, '_, S, X>
{
    type S = S;
    type Bound = Track<S>;
    type Key = ();

    #[inline(always)]
    fn node(&self, first: bool, node: u32) -> Option<Node> {
        let links = if first {
            self.a.to.links(node)
        } else {
            self.b.to.links(node)
        };
        links.map(Node::leaf_terminal)
    }

    #[inline(always)]
    fn bound(&mut self, first: bool, node: u32) -> Option<Track<S>> {
        if first {
            self.a.track(node)
        } else {
            self.b.track(node)
        }
    }

    #[inline(always)]
    fn pending_bound(&mut self, first: bool, node: u32) -> Option<Track<S>> {
        if first {
            self.a.pending_track(node)
        } else {
            self.b.pending_track(node)
        }
    }

    #[inline(always)]
    fn children(&mut self, first: bool, [left, _]: [u32; 2]) -> Option<[Track<S>; 2]> {
        if first {
            self.a.child_tracks(left)
        } else {
            self.b.child_tracks(left)
        }
    }

    #[inline(always)]
    fn size(bound: &Track<S>) -> S {
        bound.radius
    }

    #[inline(always)]
    fn test(&self, a: &Track<S>, b: &Track<S>) -> Option<()> {
        near(a, b).then_some(())
    }

    fn updates(&self) -> u32 {
        let ends = |e: &Ends<'_, '_, '_, '_, '_, S>| {
            e.from
                .body
                .update_count()
                .wrapping_add(e.to.body.update_count())
        };
        ends(&self.a).wrapping_add(ends(&self.b))
    }

    fn leaf(
        &mut self,
        [i, j]: [u32; 2],
        a: &Node,
        b: &Node,
        stats: &mut QueryStats,
    ) -> Result<Flow, QueryStatus> {
        const BROKEN: QueryStatus = QueryStatus::Inconsistent;
        stats.triangle_tests += 1;
        let (Some(ta), Some(tb)) = (self.a.pending_track(i), self.b.pending_track(j)) else {
            return Err(BROKEN);
        };
        let (Some([a0, a1]), Some([b0, b1])) = (self.a.ends(a.triangle), self.b.ends(b.triangle))
        else {
            return Err(BROKEN);
        };
        let (ea, eb) = (self.a.arc.within(&ta), self.b.arc.within(&tb));
        // Most pairs: one axis apart over the whole motion, from the ticks' vertices.
        let reach = ea + eb + self.tolerance;
        if let Some(n) = apart_throughout([&a0, &a1], [&b0, &b1], reach, self.w) {
            if self.certify {
                self.gap = gap_along(n, &a1, &b1, reach, self.w);
            }
            return Ok(Flow::Continue);
        }
        self.gap = S::ZERO;
        let Some(window) = meet(&ta, &tb, [S::ZERO, S::ONE]) else {
            self.certify(&a1, &b1);
            return Ok(Flow::Continue);
        };
        // A front walks again mostly the leaf pairs in resting contact: touching at the
        // motion's start (the static filter finds no axis there), reported at 0, the earliest
        // time there is, with no path. (From the root most leaf pairs that get here touch
        // later, if at all: the filter would cost more than it saves.)
        if self.certify && !(window[0] > S::ZERO) && self.touching_at_start(&a0, &b0) {
            let item = SweptPair {
                a: a.triangle,
                b: b.triangle,
                time: S::ZERO,
            };
            report(self.sink, item, stats)?;
            return Ok(Flow::Continue);
        }
        let span = |t: &[[S; 3]; 3]| {
            let d = |k: usize| {
                let (x, y, z) = (t[0][k], t[1][k], t[2][k]);
                x.max(y).max(z) - x.min(y).min(z)
            };
            d(0).max(d(1)).max(d(2))
        };
        let fine = span(&a0).max(span(&b0)) / S::from_u32(16);
        // The rest: each vertex's own arc bound (tighter than the leaf's).
        let (ea, eb) = (self.a.arc.largest(&a0, &a1), self.b.arc.largest(&b0, &b1));
        let mut pa = Path::new(a0, a1, ea, &mut self.a.motion, fine);
        let mut pb = Path::new(b0, b1, eb, &mut self.b.motion, fine);
        let found = first_contact(&mut pa, &mut pb, window, self.tolerance, self.w);
        let Some(found) = found else {
            return Err(BROKEN);
        };
        match found {
            Some(time) => {
                let item = SweptPair {
                    a: a.triangle,
                    b: b.triangle,
                    time,
                };
                report(self.sink, item, stats)?;
            }
            None => self.certify(&a1, &b1),
        }
        Ok(Flow::Continue)
    }
}

impl<S: Scalar, X: ?Sized> Swept<'_, '_, '_, '_, '_, '_, '_, '_, '_, S, X> {
    /// Whether the static filter keeps the triangles at the motion's start (they may touch
    /// there, within the query's tolerance).
    #[inline(never)]
    fn touching_at_start(&self, a0: &[[S; 3]; 3], b0: &[[S; 3]; 3]) -> bool {
        filter_axis_for(a0, b0, self.tolerance).is_none()
    }

    /// For a front ([`front`]): the gap a leaf pair apart throughout the motion leaves at its
    /// end, along the static filter's axis there (nothing without a front: it costs a filter).
    #[inline(never)]
    fn certify(&mut self, a1: &[[S; 3]; 3], b1: &[[S; 3]; 3]) {
        if !self.certify {
            return;
        }
        if let Some(axis) = filter_axis_for(a1, b1, self.tolerance) {
            self.gap = gap_along(axis, a1, b1, self.tolerance, self.w);
        }
    }
}

impl<S: Scalar, X: Sink<SweptPair<S>> + ?Sized> front::LeafGap
    for Swept<'_, '_, '_, '_, '_, '_, '_, '_, '_, S, X>
{
    #[inline(always)]
    fn leaf_gap(&self) -> S {
        self.gap
    }
}

/// Every triangle pair of two bodies that may intersect at some time of their motion from
/// `a_from`, `b_from` (the previous step) to `a_to`, `b_to` (the current one), with a
/// conservative earliest time of impact — delivered to `sink` in traversal order. Never misses
/// a pair that touches at some τ (module docs). The `from` and `to` bodies of one object must
/// hold the same image and use the exact sphere update; their spheres are updated as usual.
/// `stack` needs [`stack_capacity`] entries.
pub fn collide_swept<S: Scalar>(
    a_from: &mut Body<'_, '_, S>,
    a_to: &mut Body<'_, '_, S>,
    b_from: &mut Body<'_, '_, S>,
    b_to: &mut Body<'_, '_, S>,
    stack: &mut [[u32; 2]],
    sink: &mut (impl Sink<SweptPair<S>> + ?Sized),
) -> QueryOutcome {
    let check = checked(a_from, a_to, b_from, b_to, stack.len());
    let mut policy = Swept::new(a_from, a_to, b_from, b_to, check.is_ok(), sink);
    run_query(&mut policy, stack, check)
}

/// The swept query's preconditions: each body's two ends of one image, complete trees, the
/// stack.
#[inline(always)]
fn checked<S: Scalar>(
    a_from: &Body<'_, '_, S>,
    a_to: &Body<'_, '_, S>,
    b_from: &Body<'_, '_, S>,
    b_to: &Body<'_, '_, S>,
    stack: usize,
) -> Result<(), QueryStatus> {
    let same = |x: &Body<'_, '_, S>, y: &Body<'_, '_, S>| {
        x.tree().node_count() == y.tree().node_count()
            && x.tree().depth() == y.tree().depth()
            && x.model().triangles().len() == y.model().triangles().len()
            && x.q().len() == y.q().len()
    };
    if !same(a_from, a_to) || !same(b_from, b_to) {
        Err(QueryStatus::Inconsistent)
    } else {
        let bounded = a_to.tree().is_bounded() || b_to.tree().is_bounded();
        let needed = stack_capacity(a_to.tree().depth(), b_to.tree().depth());
        check_triangle_query(bounded, needed, stack)
    }
}

impl<'q, 'a0, 'c0, 'a1, 'c1, 'b0, 'd0, 'b1, 'd1, S: Scalar, X: Sink<SweptPair<S>> + ?Sized>
    Swept<'q, 'a0, 'c0, 'a1, 'c1, 'b0, 'd0, 'b1, 'd1, S, X>
{
    /// The policy over both bodies' ends; with `checked` (the preconditions hold) its extent
    /// and tolerance.
    #[inline(always)]
    fn new(
        a_from: &'q mut Body<'a0, 'c0, S>,
        a_to: &'q mut Body<'a1, 'c1, S>,
        b_from: &'q mut Body<'b0, 'd0, S>,
        b_to: &'q mut Body<'b1, 'd1, S>,
        checked: bool,
        sink: &'q mut X,
    ) -> Self {
        let mut policy = Swept {
            a: Ends::new(a_from, a_to),
            b: Ends::new(b_from, b_to),
            w: S::ZERO,
            tolerance: S::ZERO,
            gap: S::ZERO,
            certify: false,
            sink,
        };
        if checked {
            // Every vertex lies in its root's spheres; the translations for the poses at τ.
            let w = policy.a.extent().max(policy.b.extent());
            let u = S::UNIT_ROUNDOFF;
            policy.w = w;
            policy.tolerance = S::from_u32(4) * (policy.a.error + policy.b.error)
                + S::from_u32(256) * u * w.max(S::from_f64(1e-30));
        }
        policy
    }
}
