//! Swept queries: every triangle pair of two bodies that intersects at **some** time of the
//! motion from a previous state to the current one — what a control loop that samples the world
//! at its tick needs so that a fast body cannot pass through another between two ticks.
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
//! c(τ) − ((1−τ) c₀ + τ c₁) = (1−τ)(R(τ) − R₀) ℓ₀ + τ (R(τ) − R₁) ℓ₁,   |R(τ) − R₀| ≤ θ τ,
//! |c(τ) − lerp| ≤ τ(1−τ) θ (|ℓ₀| + |ℓ₁|) ≤ θ/4 (|c₀ − t₀| + |c₁ − t₁|)
//! ```
//!
//! so the sphere centered at `(c₀ + c₁)/2` of radius
//! `|c₁ − c₀|/2 + θ/4 (|c₀ − t₀| + |c₁ − t₁|) + max(r₀, r₁)` holds the node over the whole
//! motion. The query walks these swept spheres with the one walk ([`crate::walk`]). **The
//! `from` and `to` bodies must use the exact sphere update** (not the coherent one, whose
//! centers are not linear in `q`).
//!
//! # The leaf test
//!
//! Over a sub-interval `[τa, τb]` of length `h` the same argument bounds every vertex: it stays
//! within `|v(τb) − v(τa)|/2 + θ h/4 (|x(τa)| + |x(τb)|)` of its chord's midpoint, so the
//! triangle stays within `ε` (the largest of its three vertices' bounds) of the triangle of the
//! midpoints. The two triangles may touch in `[τa, τb]` only if their midpoint triangles are at
//! most `ε_a + ε_b + T` apart; otherwise the interval is excluded. Starting from `[0, 1]`,
//! intervals that are not excluded are halved, earliest first, down to `2⁻¹⁰` of the motion
//! ([`SWEPT_LEVELS`]); the pair is reported at the first interval where its triangles are
//! within `T` at the interval's start (a contact found) or that is not excluded at the deepest
//! level. The reported `time` is that interval's start: **the pair cannot touch before it**
//! (every earlier interval was excluded). Never by sampling alone: an interval is dropped only
//! when the bound proves the triangles apart throughout it.
//!
//! Cost: "at most that far apart" is first tried on three separating axes (the line between the
//! triangles' centroids and both normals: the gap of the projections bounds the distance from
//! below), and the exact triangle distance runs only where they do not decide; the intervals are
//! taken in time order, so the triangles at one's start are those at the last one's end (or
//! its parent's start, whose contact test is not repeated). Neither changes an answer: the
//! pairs and every time on the fixtures are bit for bit those of the plain test; on the
//! Cortex-M4F the busiest tunnel motion fell from 21.8 G to 10.0 G instructions (soft f64).
//!
//! Positions at τ are computed in f64 from the body-frame vertices the kernel computes in `S`
//! (the slerp needs `sin`/`acos`, taken from `libm` in f64 on every target); `T` is
//! `4 (δ_a + δ_b) + 64 u_S (w + 1)` with `δ` the larger of a body's two [`Body::error`]s and `w`
//! the largest vertex coordinate, and the rotation angle carries a further `10⁻⁷` (the
//! conditioning of `acos` near 1).
//!
//! **Tightness**: a reported pair comes within `T` of touching, or within the deepest level's
//! bounds (about `2⁻¹¹` of the vertices' travel plus the rotation term) of it.

use crate::body::Body;
use crate::closest::closest_points;
use crate::output::{report, QueryOutcome, QueryStats, QueryStatus, Reported, Sink, TrianglePair};
use crate::pose::Pose;
use crate::scalar::{cross, dot, norm_inf, sub, Scalar};
use crate::sphere::spheres_overlap;
use crate::walk::{check_triangle_query, run_query, stack_capacity, Flow, Node, Policy};

/// The leaf test halves sub-intervals down to `2^-SWEPT_LEVELS` of the motion.
pub const SWEPT_LEVELS: u32 = 10;

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

type V = [f64; 3];

fn wide<S: Scalar>(v: [S; 3]) -> V {
    v.map(|x| x.to_f64())
}

fn norm(v: V) -> f64 {
    dot(v, v).sqrt()
}

/// `sin x` for `x ∈ [0, π/2]` (Taylor series to `x²³`, error below 10⁻¹⁶): `libm`'s `sin`
/// reduces arguments with table lookups the panic check cannot prove in bounds.
fn sin_quadrant(x: f64) -> f64 {
    let x = x.clamp(0.0, core::f64::consts::FRAC_PI_2);
    let (x2, mut term, mut sum) = (x * x, x, x);
    let mut k = 1.0;
    for _ in 0..11 {
        term *= -x2 / ((k + 1.0) * (k + 2.0));
        sum += term;
        k += 2.0;
    }
    sum
}

/// `atan2(y, x)` for `x, y ≥ 0` (argument halved twice, then the Taylor series; error below
/// 10⁻¹⁵), for the same reason as [`sin_quadrant`].
fn atan_quadrant(y: f64, x: f64) -> f64 {
    let (y, x) = (y.max(0.0), x.max(0.0));
    if y > x {
        return core::f64::consts::FRAC_PI_2 - atan_quadrant(x, y);
    }
    if x.is_nan() || x <= 0.0 {
        return 0.0;
    }
    // r ∈ [0, 1]; atan r = 2 atan(r / (1 + √(1 + r²))), twice: r ≤ tan(π/16) ≈ 0.2.
    let mut r = y / x;
    for _ in 0..2 {
        r /= 1.0 + libm::sqrt(1.0 + r * r);
    }
    let (r2, mut term, mut sum) = (r * r, r, r);
    for k in 1..20 {
        term *= -r2;
        sum += term / f64::from(2 * k + 1);
    }
    4.0 * sum
}

/// A rotation matrix's unit quaternion `(w, x, y, z)` (Shepperd's method: divides by the
/// largest component, at least ½ for a rotation).
fn quaternion(r: &[[f64; 3]; 3]) -> [f64; 4] {
    let [[r00, r01, r02], [r10, r11, r12], [r20, r21, r22]] = *r;
    let trace = r00 + r11 + r22;
    let root = |x: f64| 0.5 * libm::sqrt(x.max(0.0));
    let q = if trace >= r00.max(r11).max(r22) {
        let w = root(1.0 + trace);
        let k = 0.25 / w;
        [w, (r21 - r12) * k, (r02 - r20) * k, (r10 - r01) * k]
    } else if r00 >= r11 && r00 >= r22 {
        let x = root(1.0 + r00 - r11 - r22);
        let k = 0.25 / x;
        [(r21 - r12) * k, x, (r01 + r10) * k, (r02 + r20) * k]
    } else if r11 >= r22 {
        let y = root(1.0 + r11 - r00 - r22);
        let k = 0.25 / y;
        [(r02 - r20) * k, (r01 + r10) * k, y, (r12 + r21) * k]
    } else {
        let z = root(1.0 + r22 - r00 - r11);
        let k = 0.25 / z;
        [(r10 - r01) * k, (r02 + r20) * k, (r12 + r21) * k, z]
    };
    let n = libm::sqrt(q.iter().map(|c| c * c).sum());
    q.map(|c| c / n)
}

/// One body's rigid motion: slerp on the shorter arc and linear translation, in f64.
#[derive(Debug, Clone, Copy)]
struct Motion {
    q0: [f64; 4],
    q1: [f64; 4],
    /// Half the rotation angle.
    half: f64,
    /// An upper bound of the rotation angle `θ` (π when the poses are not rotations).
    theta: f64,
    t0: V,
    t1: V,
}

impl Motion {
    fn new<S: Scalar>(from: &Pose<S>, to: &Pose<S>) -> Self {
        let r = |p: &Pose<S>| p.rotation.map(wide);
        let q0 = quaternion(&r(from));
        let mut q1 = quaternion(&r(to));
        let mut d: f64 = q0.iter().zip(q1.iter()).map(|(a, b)| a * b).sum();
        if d < 0.0 {
            q1 = q1.map(|c| -c);
            d = -d;
        }
        // The angle between the quaternions from its sine (the component of q1 orthogonal to
        // q0) and cosine: accurate near 0, where acos is not.
        let ortho = libm::sqrt(
            q0.iter()
                .zip(q1.iter())
                .map(|(a, b)| (b - d * a) * (b - d * a))
                .sum(),
        );
        let half = atan_quadrant(ortho, d);
        let theta = 2.0 * half + 1e-7;
        let theta = if theta.is_finite() {
            theta.min(core::f64::consts::PI)
        } else {
            core::f64::consts::PI
        };
        Motion {
            q0,
            q1,
            half,
            theta,
            t0: wide(from.translation),
            t1: wide(to.translation),
        }
    }

    /// The pose at τ (`None` only for poses that are not rotations).
    fn at(&self, tau: f64) -> Option<Pose<f64>> {
        let s = sin_quadrant(self.half);
        let (w0, w1) = if s > 1e-9 {
            (
                sin_quadrant((1.0 - tau) * self.half) / s,
                sin_quadrant(tau * self.half) / s,
            )
        } else {
            (1.0 - tau, tau)
        };
        // Written out: index closures keep bounds checks at opt-level `s`.
        let (q0, q1) = (self.q0, self.q1);
        let q = [
            w0 * q0[0] + w1 * q1[0],
            w0 * q0[1] + w1 * q1[1],
            w0 * q0[2] + w1 * q1[2],
            w0 * q0[3] + w1 * q1[3],
        ];
        let n = libm::sqrt(q.iter().map(|c| c * c).sum());
        let lerp = |u: f64, v: f64| (1.0 - tau) * u + tau * v;
        let (t0, t1) = (self.t0, self.t1);
        let t = [lerp(t0[0], t1[0]), lerp(t0[1], t1[1]), lerp(t0[2], t1[2])];
        Pose::from_quaternion(q.map(|c| c / n), t).ok()
    }
}

/// A body at both ends of its motion.
struct Ends<'q, 't0, 'c0, 't1, 'c1, S: Scalar> {
    from: &'q mut Body<'t0, 'c0, S>,
    to: &'q mut Body<'t1, 'c1, S>,
    motion: Motion,
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

    /// The node's sphere over the whole motion (module docs).
    fn swept_sphere(&mut self, node: usize) -> Option<[S; 4]> {
        let s0 = self.from.sphere(node)?;
        let s1 = self.to.sphere(node)?;
        let (c0, c1) = ([s0[0], s0[1], s0[2]], [s1[0], s1[1], s1[2]]);
        let half = S::from_f64(0.5);
        let center = [
            (c0[0] + c1[0]) * half,
            (c0[1] + c1[1]) * half,
            (c0[2] + c1[2]) * half,
        ];
        let gap = sub(c1, c0);
        let arms = wide(sub(c0, self.from.pose().translation));
        let arms = norm(arms) + norm(wide(sub(c1, self.to.pose().translation)));
        let turn = S::from_f64(self.motion.theta * 0.25 * arms);
        let r = dot(gap, gap).sqrt() * half + turn + s0[3].max(s1[3]);
        let u16 = S::from_u32(16) * S::UNIT_ROUNDOFF;
        let r = r * (S::ONE + u16) + u16 * (norm_inf(center) + r);
        Some([center[0], center[1], center[2], r])
    }

    /// The body-frame vertices of a triangle at both ends.
    fn local(&self, triangle: u32) -> Option<([V; 3], [V; 3])> {
        let model = self.to.model();
        let face = *model.triangles().get(triangle as usize)?;
        let mut x0 = [[0.0; 3]; 3];
        let mut x1 = [[0.0; 3]; 3];
        for ((a, b), &v) in x0.iter_mut().zip(x1.iter_mut()).zip(face.iter()) {
            *a = wide(self.from.model().deformed(v as usize, self.from.q())?);
            *b = wide(model.deformed(v as usize, self.to.q())?);
        }
        Some((x0, x1))
    }
}

/// A triangle at τ: world vertices and body-frame vertex norms.
fn triangle_at(motion: &Motion, x0: &[V; 3], x1: &[V; 3], tau: f64) -> Option<([V; 3], [f64; 3])> {
    let pose = motion.at(tau)?;
    let mut world = [[0.0; 3]; 3];
    let mut arms = [0.0; 3];
    for k in 0..3 {
        let (a, b) = (x0.get(k)?, x1.get(k)?);
        let lerp = |u: f64, v: f64| (1.0 - tau) * u + tau * v;
        let x = [lerp(a[0], b[0]), lerp(a[1], b[1]), lerp(a[2], b[2])];
        *world.get_mut(k)? = pose.apply(x);
        *arms.get_mut(k)? = norm(x);
    }
    Some((world, arms))
}

/// The largest distance any vertex of a triangle may stray from its chord's midpoint over an
/// interval of length `h` (module docs), and the midpoint triangle.
fn spread(
    motion: &Motion,
    a: &([V; 3], [f64; 3]),
    b: &([V; 3], [f64; 3]),
    h: f64,
) -> (f64, [V; 3]) {
    let mut eps = 0.0f64;
    let mut mid = [[0.0; 3]; 3];
    for ((m, (va, vb)), (ra, rb)) in mid
        .iter_mut()
        .zip(a.0.iter().zip(b.0.iter()))
        .zip(a.1.iter().zip(b.1.iter()))
    {
        *m = [
            0.5 * (va[0] + vb[0]),
            0.5 * (va[1] + vb[1]),
            0.5 * (va[2] + vb[2]),
        ];
        let e = 0.5 * norm(sub(*vb, *va)) + motion.theta * h * 0.25 * (ra + rb);
        eps = eps.max(e);
    }
    // A small relative margin for the rounding of the bound itself.
    (eps * (1.0 + 1e-12), mid)
}

/// Whether two triangles are proved farther apart than `reach` along one of three axes — the
/// line between their centroids and each triangle's normal: for any axis `n`, the gap between
/// the two projection ranges bounds their distance from below, times `|n|`. A cheap test before
/// the exact distance (the centroid axis alone is at least as strong as their bounding balls);
/// the rounding of the products (a few `2⁻⁵³` of `|n| w`, `w` the largest coordinate) is
/// covered by a margin of `10⁻¹²` of the terms, compared squared (no square root). A zero axis
/// proves nothing; NaN is never apart.
fn axes_apart(a: &[V; 3], b: &[V; 3], reach: f64, w: f64) -> bool {
    let [a0, a1, a2] = *a;
    let [b0, b1, b2] = *b;
    let centroid = |p: V, q: V, r: V| [p[0] + q[0] + r[0], p[1] + q[1] + r[1], p[2] + q[2] + r[2]];
    let axes = [
        sub(centroid(b0, b1, b2), centroid(a0, a1, a2)),
        cross(sub(a1, a0), sub(a2, a0)),
        cross(sub(b1, b0), sub(b2, b0)),
    ];
    axes.iter().any(|&n| {
        let (x, y) = (
            [dot(n, a0), dot(n, a1), dot(n, a2)],
            [dot(n, b0), dot(n, b1), dot(n, b2)],
        );
        let low = |v: [f64; 3]| v[0].min(v[1]).min(v[2]);
        let high = |v: [f64; 3]| v[0].max(v[1]).max(v[2]);
        let gap = (low(y) - high(x)).max(low(x) - high(y));
        // gap − 10⁻¹² gap > |n| (reach + 10⁻¹² (reach + w)), squared: no square root (soft
        // float on most targets).
        let need = reach * (1.0 + 1e-12) + 1e-12 * w;
        gap > 0.0 && gap * gap * (1.0 - 2e-12) > dot(n, n) * need * need
    })
}

/// The swept leaf test (module docs): the earliest interval start the pair is not excluded
/// from, or `None` when it is apart throughout the motion.
fn swept_triangles(
    ma: &Motion,
    (a0, a1): &([V; 3], [V; 3]),
    mb: &Motion,
    (b0, b1): &([V; 3], [V; 3]),
    tolerance: impl Fn(f64) -> f64,
) -> Option<Option<f64>> {
    // Intervals [k / 2^level, (k + 1) / 2^level], earliest on top.
    let mut stack = [(0u32, 0u32); SWEPT_LEVELS as usize + 2];
    let mut len = 1usize;
    // Intervals are taken in time order, each starting where the last one taken ended (an
    // excluded interval) or began (a halved one): the triangles at its start are at hand.
    let mut start = (triangle_at(ma, a0, a1, 0.0)?, triangle_at(mb, b0, b1, 0.0)?);
    while len > 0 {
        len -= 1;
        let (k, level) = *stack.get(len)?;
        let scale = 1.0 / f64::from(1u32.wrapping_shl(level));
        let (ta, tb) = (f64::from(k) * scale, f64::from(k.wrapping_add(1)) * scale);
        let (pa, pb) = start;
        let w =
            pa.0.iter()
                .chain(pb.0.iter())
                .flatten()
                .fold(0.0f64, |m, x| m.max(x.abs()));
        let t = tolerance(w);
        // An earlier half starts where its parent did, whose start was tested already (the
        // same τ, bit for bit: the interval ends are dyadic).
        let tested = level > 0 && k % 2 == 0;
        if !tested && !axes_apart(&pa.0, &pb.0, t, w) && closest_points(&pa.0, &pb.0).0 <= t * t {
            return Some(Some(ta));
        }
        let (qa, qb) = (triangle_at(ma, a0, a1, tb)?, triangle_at(mb, b0, b1, tb)?);
        let (ea, mid_a) = spread(ma, &pa, &qa, scale);
        let (eb, mid_b) = spread(mb, &pb, &qb, scale);
        let w = w.max(
            qa.0.iter()
                .chain(qb.0.iter())
                .flatten()
                .fold(0.0f64, |m, x| m.max(x.abs())),
        );
        let reach = ea + eb + tolerance(w);
        // NaN (a broken state) is never excluded.
        let apart = axes_apart(&mid_a, &mid_b, reach, w) || {
            let (d2, _, _) = closest_points(&mid_a, &mid_b);
            d2 > reach * reach
        };
        if apart {
            start = (qa, qb);
            continue;
        }
        if level >= SWEPT_LEVELS {
            return Some(Some(ta));
        }
        let (next, deeper) = (k.wrapping_mul(2), level.wrapping_add(1));
        *stack.get_mut(len)? = (next.wrapping_add(1), deeper);
        *stack.get_mut(len.wrapping_add(1))? = (next, deeper);
        len += 2;
    }
    Some(None)
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
    type Bound = [S; 4];
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
    fn bound(&mut self, first: bool, node: u32) -> Option<[S; 4]> {
        if first {
            self.a.swept_sphere(node as usize)
        } else {
            self.b.swept_sphere(node as usize)
        }
    }

    #[inline(always)]
    fn size(bound: &[S; 4]) -> S {
        bound[3]
    }

    #[inline(always)]
    fn test(&self, a: &[S; 4], b: &[S; 4]) -> Option<()> {
        spheres_overlap(*a, *b).then_some(())
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
        let error = (self.a.error + self.b.error).to_f64();
        let u = S::UNIT_ROUNDOFF.to_f64();
        let tolerance = |w: f64| 4.0 * error + 64.0 * u * (w + 1.0);
        let Some(found) = swept_triangles(&self.a.motion, &la, &self.b.motion, &lb, tolerance)
        else {
            return Err(QueryStatus::Inconsistent);
        };
        if let Some(time) = found {
            let item = SweptPair {
                a: a.triangle,
                b: b.triangle,
                time: S::from_f64(time),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sine_and_arctangent_match_libm() {
        for k in 0..=64 {
            let x = core::f64::consts::FRAC_PI_2 * f64::from(k) / 64.0;
            assert!((sin_quadrant(x) - libm::sin(x)).abs() < 1e-15, "sin {x}");
            let (y, z) = (libm::sin(x), libm::cos(x));
            assert!((atan_quadrant(y, z) - x).abs() < 1e-14, "atan {x}");
        }
    }

    fn rotation_z(angle: f64) -> Pose<f64> {
        let (s, c) = (libm::sin(0.5 * angle), libm::cos(0.5 * angle));
        Pose::from_quaternion([c, 0.0, 0.0, s], [0.0; 3]).expect("pose")
    }

    #[test]
    fn quaternions_round_trip_through_matrices() {
        for q in [
            [1.0, 0.0, 0.0, 0.0],
            [0.0, 1.0, 0.0, 0.0],
            [0.5, 0.5, -0.5, 0.5],
            [0.1, -0.7, 0.2, 0.6782329983125268],
        ] {
            let pose = Pose::<f64>::from_quaternion(q, [0.0; 3]).expect("pose");
            let back = Pose::from_quaternion(quaternion(&pose.rotation), [0.0; 3]).expect("pose");
            for (r, s) in pose
                .rotation
                .iter()
                .flatten()
                .zip(back.rotation.iter().flatten())
            {
                assert!((r - s).abs() < 1e-12);
            }
        }
    }

    #[test]
    fn the_slerp_takes_the_shorter_arc() {
        let m = Motion::new(&rotation_z(0.0), &rotation_z(1.5 * core::f64::consts::PI));
        // The shorter arc is −π/2: halfway is −π/4.
        let mid = m.at(0.5).expect("pose");
        let x = mid.apply([1.0, 0.0, 0.0]);
        let h = core::f64::consts::FRAC_1_SQRT_2;
        assert!((x[0] - h).abs() < 1e-9 && (x[1] + h).abs() < 1e-9, "{x:?}");
        assert!((m.theta - core::f64::consts::FRAC_PI_2).abs() < 1e-6);
    }

    #[test]
    fn a_triangle_passing_through_another_between_the_ends_is_found() {
        // A fixed triangle in z = 0 and one that moves from z = +1 to z = −1: apart at both
        // ends, crossing at τ = ½.
        let still = Motion::new(&Pose::<f64>::identity(), &Pose::identity());
        let t = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]];
        let up = Pose::<f64>::from_quaternion([1.0, 0.0, 0.0, 0.0], [0.0, 0.0, 1.0]).expect("up");
        let down =
            Pose::<f64>::from_quaternion([1.0, 0.0, 0.0, 0.0], [0.0, 0.0, -1.0]).expect("down");
        let moving = Motion::new(&up, &down);
        let small = [[0.2, 0.2, 0.0], [0.3, 0.2, 0.0], [0.2, 0.3, 0.0]];
        let tol = |_: f64| 1e-12;
        let found = swept_triangles(&still, &(t, t), &moving, &(small, small), tol).expect("ok");
        let time = found.expect("crossing found");
        assert!(time <= 0.5 && time > 0.45, "time {time}");
        // Moving sideways instead, it never meets the fixed triangle.
        let left = Pose::<f64>::from_quaternion([1.0, 0.0, 0.0, 0.0], [3.0, 0.0, 0.5]).expect("l");
        let right =
            Pose::<f64>::from_quaternion([1.0, 0.0, 0.0, 0.0], [-3.0, 0.0, 0.5]).expect("r");
        let sideways = Motion::new(&left, &right);
        let found = swept_triangles(&still, &(t, t), &sideways, &(small, small), tol).expect("ok");
        assert_eq!(found, None);
    }

    #[test]
    fn a_spinning_triangle_sweeping_through_a_thin_one_is_found() {
        // A long triangle spins half a turn about z through a thin triangle it misses at both
        // ends (the arc, not the chord, passes through).
        let still = Motion::new(&Pose::<f64>::identity(), &Pose::identity());
        let thin = [[0.0, 2.0, -0.1], [0.0, 2.0, 0.1], [0.01, 2.0, 0.0]];
        let arm = [[0.0, 0.0, 0.0], [3.0, 0.0, 0.01], [3.0, 0.0, -0.01]];
        let spin = Motion::new(&Pose::<f64>::identity(), &rotation_z(3.0));
        let tol = |_: f64| 1e-12;
        let found = swept_triangles(&still, &(thin, thin), &spin, &(arm, arm), tol).expect("ok");
        assert!(found.is_some());
    }
}
