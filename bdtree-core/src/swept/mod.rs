//! Swept queries: every triangle pair of two bodies that intersects at **some** time of the
//! motion from a previous state to the current one — what a control loop that samples the world
//! at its tick needs so that a fast body cannot pass through another between two ticks.
//!
//! | file | what |
//! |---|---|
//! | `mod.rs` | the query: its policy over the one walk (relative-motion node test) and [`collide_swept`] |
//! | `motion.rs` | one body's motion: slerp, the poses at dyadic times, the rotation angle bound |
//! | `leaf.rs` | the leaf test: one step over the whole motion, halving where it does not decide |
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
//! # The leaf test
//!
//! `leaf.rs`: one separating-axis step over the whole motion on the pair's end positions
//! (linear in τ up to the rotation arc, a bound quadratic in the interval's length), then,
//! where it does not decide, interval halving with conservative advancement along the nearest
//! direction. The reported `time` is a time before which every interval was proved apart:
//! **the pair cannot touch before it**.
//!
//! **Tightness**: a reported pair is within `T` (the leaf's tolerance, a few rounding bounds)
//! of touching at its time, or was not excluded over an interval of `2⁻ᴸ` of the motion
//! starting at its time ([`SWEPT_LEVELS`]): it comes within the bounds of that interval (the
//! travel of its vertices over it plus the rotation arc) of touching, at most `2⁻ᴸ` later.
//! Measured on the swept fixtures against 129 samples per motion: 1.04–1.15× the sampled pairs.
//!
//! **Cost** (host, f32, callgrind instructions per motion against the static query at 8
//! instants of the same motion): 5.5–9.4× (the book's `docs/src/performance/swept.md`).
//!
//! Everything runs in the bodies' scalar: an f32 body's query uses no f64 (no soft double
//! precision on a single-precision FPU); rounding is folded into every bound (`motion`, `leaf`).

// `!(x > y)` is meant: NaN takes the conservative branch.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

use crate::body::Body;
use crate::output::{report, QueryOutcome, QueryStats, QueryStatus, Reported, Sink, TrianglePair};
use crate::pose::Pose;
use crate::scalar::{dot, norm_inf, sub, Scalar};
use crate::walk::{check_triangle_query, run_query, stack_capacity, Flow, Node, Policy};

mod leaf;
mod motion;

use leaf::{first_contact, Local, Moving};
use motion::Motion;

/// The leaf test halves sub-intervals down to `2^-SWEPT_LEVELS` of the motion (1/64): a pair
/// not excluded there is reported, so its earliest time is at most that much before it comes
/// within the bounds of touching (module docs).
pub const SWEPT_LEVELS: u32 = 6;

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

/// A node's bound over the motion: its world centers at both ticks and the radius `ρ` around
/// the point moving between them (module docs).
#[derive(Debug, Clone, Copy)]
struct Track<S> {
    c0: [S; 3],
    c1: [S; 3],
    radius: S,
}

/// A body at both ends of its motion.
struct Ends<'q, 't0, 'c0, 't1, 'c1, S: Scalar> {
    from: &'q mut Body<'t0, 'c0, S>,
    to: &'q mut Body<'t1, 'c1, S>,
    motion: Motion<S>,
    /// The larger rounding bound of the two states.
    error: S,
}

impl<'q, 't0, 'c0, 't1, 'c1, S: Scalar> Ends<'q, 't0, 'c0, 't1, 'c1, S> {
    /// The body at both ends, its motion and error bound.
    fn new(from: &'q mut Body<'t0, 'c0, S>, to: &'q mut Body<'t1, 'c1, S>) -> Self {
        Ends {
            motion: Motion::new(from.pose(), to.pose()),
            error: from.error().max(to.error()),
            from,
            to,
        }
    }

    /// The node's bound over the whole motion (module docs). Cost: the two ends' spheres, the
    /// center in both body frames, one square root.
    fn track(&mut self, node: usize) -> Option<Track<S>> {
        let s0 = self.from.sphere(node)?;
        let s1 = self.to.sphere(node)?;
        let (c0, c1) = ([s0[0], s0[1], s0[2]], [s1[0], s1[1], s1[2]]);
        let (p0, p1) = (self.from.pose(), self.to.pose());
        let l0 = unrotate(p0, sub(c0, p0.translation));
        let travel = sub(unrotate(p1, sub(c1, p1.translation)), l0);
        let theta = self.motion.theta;
        let (k1, k2) = (
            theta * theta * S::from_f64(0.125),
            theta * S::from_f64(0.25),
        );
        // k1 |ℓ₀| + k2 |ℓ₁ − ℓ₀| ≤ √((k1² + k2²)(|ℓ₀|² + |ℓ₁ − ℓ₀|²)) (Cauchy–Schwarz).
        let turn = ((k1 * k1 + k2 * k2) * (dot(l0, l0) + dot(travel, travel))).sqrt();
        let u16 = S::from_u32(16) * S::UNIT_ROUNDOFF;
        let t = norm_inf(p0.translation).max(norm_inf(p1.translation));
        let radius = (turn + s0[3].max(s1[3])) * (S::ONE + u16) + u16 * theta * t;
        Some(Track { c0, c1, radius })
    }

    /// The body-frame vertices of a triangle at both ends.
    fn local(&self, triangle: u32) -> Option<Local<S>> {
        let model = self.to.model();
        let face = *model.triangles().get(triangle as usize)?;
        let mut x0 = [[S::ZERO; 3]; 3];
        let mut x1 = [[S::ZERO; 3]; 3];
        for ((a, b), &v) in x0.iter_mut().zip(x1.iter_mut()).zip(face.iter()) {
            *a = self.from.model().deformed(v as usize, self.from.q())?;
            *b = model.deformed(v as usize, self.to.q())?;
        }
        Some(Local::new(x0, x1))
    }
}

/// `Rᵀ x` (written out: index closures keep bounds checks at opt-level `s`).
fn unrotate<S: Scalar>(pose: &Pose<S>, x: [S; 3]) -> [S; 3] {
    let [[r00, r01, r02], [r10, r11, r12], [r20, r21, r22]] = pose.rotation;
    [
        r00 * x[0] + r10 * x[1] + r20 * x[2],
        r01 * x[0] + r11 * x[1] + r21 * x[2],
        r02 * x[0] + r12 * x[1] + r22 * x[2],
    ]
}

/// Whether two nodes' relative center comes within their radii of the origin at some τ (module
/// docs), with the rounding of the differences and of the closest point (a few `u` of the
/// coordinates) added. NaN is never apart.
fn tracks_meet<S: Scalar>(a: &Track<S>, b: &Track<S>) -> bool {
    let d0 = sub(a.c0, b.c0);
    let v = sub(sub(a.c1, b.c1), d0);
    let s = -dot(d0, v) / dot(v, v);
    // NaN (no relative motion) takes the start.
    let s = if s > S::ZERO { s.min(S::ONE) } else { S::ZERO };
    let p = [d0[0] + s * v[0], d0[1] + s * v[1], d0[2] + s * v[2]];
    let u = S::UNIT_ROUNDOFF;
    let w = norm_inf(a.c0)
        .max(norm_inf(b.c0))
        .max(norm_inf(a.c1))
        .max(norm_inf(b.c1));
    let reach = (a.radius + b.radius) * (S::ONE + S::from_u32(8) * u) + S::from_u32(32) * u * w;
    !(dot(p, p) > reach * reach)
}

impl<S: Copy> Reported for SweptPair<S> {
    fn refused(&self) -> QueryStatus {
        TrianglePair::new(self.a, self.b).refused()
    }
}

/// The swept query's policy: swept spheres, the swept leaf test.
struct Swept<'q, 'a0, 'c0, 'a1, 'c1, 'b0, 'd0, 'b1, 'd1, S: Scalar, X: ?Sized> {
    a: Ends<'q, 'a0, 'c0, 'a1, 'c1, S>,
    b: Ends<'q, 'b0, 'd0, 'b1, 'd1, S>,
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
        let tree = if first {
            self.a.to.tree()
        } else {
            self.b.to.tree()
        };
        tree.links(node as usize).map(Node::leaf_terminal)
    }

    #[inline(always)]
    fn bound(&mut self, first: bool, node: u32) -> Option<Track<S>> {
        if first {
            self.a.track(node as usize)
        } else {
            self.b.track(node as usize)
        }
    }

    #[inline(always)]
    fn size(bound: &Track<S>) -> S {
        bound.radius
    }

    #[inline(always)]
    fn test(&self, a: &Track<S>, b: &Track<S>) -> Option<()> {
        tracks_meet(a, b).then_some(())
    }

    fn updates(&self) -> u32 {
        let ends = |e: &Ends<'_, '_, '_, '_, '_, S>| {
            e.from.update_count().wrapping_add(e.to.update_count())
        };
        ends(&self.a).wrapping_add(ends(&self.b))
    }

    fn leaf(
        &mut self,
        _: [u32; 2],
        a: &Node,
        b: &Node,
        stats: &mut QueryStats,
    ) -> Result<Flow, QueryStatus> {
        let (Some(la), Some(lb)) = (self.a.local(a.triangle), self.b.local(b.triangle)) else {
            return Err(QueryStatus::Inconsistent);
        };
        stats.triangle_tests += 1;
        let error = self.a.error + self.b.error;
        let found = first_contact(
            &mut Moving {
                motion: &mut self.a.motion,
                local: la,
            },
            &mut Moving {
                motion: &mut self.b.motion,
                local: lb,
            },
            error,
            SWEPT_LEVELS,
        );
        let Some(found) = found else {
            return Err(QueryStatus::Inconsistent);
        };
        if let Some(time) = found {
            let item = SweptPair {
                a: a.triangle,
                b: b.triangle,
                time,
            };
            report(self.sink, item, stats)?;
        }
        Ok(Flow::Continue)
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
    let same = |x: &Body<'_, '_, S>, y: &Body<'_, '_, S>| {
        x.tree().node_count() == y.tree().node_count()
            && x.tree().depth() == y.tree().depth()
            && x.model().triangles().len() == y.model().triangles().len()
            && x.q().len() == y.q().len()
    };
    let check = if !same(a_from, a_to) || !same(b_from, b_to) {
        Err(QueryStatus::Inconsistent)
    } else {
        let bounded = a_to.tree().is_bounded() || b_to.tree().is_bounded();
        let needed = stack_capacity(a_to.tree().depth(), b_to.tree().depth());
        check_triangle_query(bounded, needed, stack.len())
    };
    let mut policy = Swept {
        a: Ends::new(a_from, a_to),
        b: Ends::new(b_from, b_to),
        sink,
    };
    run_query(&mut policy, stack, check)
}
