//! The swept leaf test: the earliest time two moving triangles may touch, or that they never do.
//!
//! # What a triangle can occupy
//!
//! Over an interval `[τa, τb]` of length `h` a vertex's body-frame position `x(τ) = p + U q(τ)`
//! is linear and its rotation turns by `φ = hθ` about one axis (slerp: constant angular
//! speed), so its world position differs from the chord between its world positions at the
//! interval's ends, *at the same τ*, by
//!
//! ```text
//! R(τ) x(τ) − lerp = [R(τ) − (1−s) Ra − s Rb] x(τa) + s (R(τ) − Rb)(x(τb) − x(τa)),
//! |·| ≤ |x(τa)| (1 − cos φ/2) + φ/4 · |x(τb) − x(τa)| ≤ h² (θ²/8 · X + θ/4 · Δ) = h² E
//! ```
//!
//! (`s` the fraction of the interval; a point turning on a circle is farthest from the chord
//! point at the same fraction at `s = ½`, where the distance is `1 − cos φ/2` of its radius —
//! checked over `θ ∈ (0, π]` by [`super::motion`]'s tests; `|R(τ) − Rb| = 2 sin((1−s)φ/2)`; `X`
//! the largest body-frame vertex norm of the triangle at either tick, `Δ` the largest
//! body-frame travel of a vertex over the motion). The bound is **quadratic in `h`**: halving
//! an interval quarters it. So over the interval each vertex is `(1−s) v(τa) + s v(τb) + e`,
//! `|e| ≤ ε = h² E`.
//!
//! # One step for most pairs
//!
//! For any axis `n`, the projection of a vertex is then within `|n| ε` of a function linear in
//! `s`, so if the lowest projection of triangle `a` exceeds the highest of `b` by more than
//! `|n| (ε_a + ε_b + T)` at **both** ends of the interval, it does throughout: the triangles are
//! apart over the whole interval. (This is a separating axis of the pair's Minkowski
//! difference over the interval: the hull of the 18 differences `a_i − b_j` at both ends, grown
//! by the bounds.) The axes tried: the line of closest approach of the two centroids (their
//! relative motion is linear up to `ε`, so along it their separation is nearly constant — the
//! axis that settles pairs a body passes beside), both triangles' normals at both ends, and the
//! centroid lines at both ends. Over the whole motion this one test settles most candidate
//! pairs of the walk.
//!
//! # Halving where it does not
//!
//! An undecided pair is halved in time, earliest first, down to `2⁻ᴸ` of the motion
//! ([`super::SWEPT_LEVELS`]). An interval is first tried on the axes above; where they do not
//! exclude it, the exact distance at its start ([`closest_points`]) either finds the triangles
//! within `T` — the pair is reported with that start as its time, the first time it touches
//! (every earlier interval was excluded) — or gives the direction `n` between the nearest
//! points. Along `n` the gap between the triangles is at least a function linear in τ minus
//! `|n| (ε_a + ε_b + T)`: positive at both ends, the interval is excluded; positive at its
//! start only, it stays positive up to where that line reaches zero, and the start moves there
//! (**conservative advancement**: at most [`MAX_ADVANCES`] steps a pair, each at least an eighth
//! of what is left of the interval, shortened by its rounding). Then the interval is halved
//! from its (advanced) start. An
//! interval no axis excludes is halved, or at the deepest level the pair is reported with its
//! start. The time reported is an interval start: **the pair cannot touch before it**, and is at
//! most `2⁻ᴸ` before the pair comes within the bounds. An interval is dropped only when a bound
//! proves the triangles apart throughout it, never by sampling.
//!
//! # Rounding
//!
//! Everything runs in the body's scalar `S`. `T = 4 (δ_a + δ_b) + 256 u_S (w + 1)`, with `δ` a
//! body's larger [`crate::Body::error`] of its two states and `w` the largest coordinate or
//! body-frame norm in play: it covers the stored states' rounding, the positions at τ computed
//! from poses at τ (quaternions, series, normalisation: [`super::motion`]) and the tests' own
//! products, which every comparison widens further by `16 u_S w` and a relative `8 u_S`.

// `!(x > y)` is meant: NaN takes the conservative branch.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

use super::motion::Motion;
use crate::closest::closest_points;
use crate::pose::Pose;
use crate::scalar::{cross, dot, norm_inf, sub, Scalar};

type V<S> = [S; 3];
type Tri<S> = [V<S>; 3];

/// A triangle's body-frame vertices at the two ticks.
#[derive(Debug, Clone, Copy)]
pub(super) struct Local<S> {
    pub x0: Tri<S>,
    pub x1: Tri<S>,
    /// At least the largest norm of the six vertices.
    pub arm: S,
    /// At least the largest distance a vertex moves in the body frame over the motion.
    pub travel: S,
}

impl<S: Scalar> Local<S> {
    pub fn new(x0: Tri<S>, x1: Tri<S>) -> Self {
        let m = x0
            .iter()
            .chain(x1.iter())
            .fold(S::ZERO, |m, &x| m.max(dot(x, x)));
        let d = x0.iter().zip(x1.iter()).fold(S::ZERO, |m, (&a, &b)| {
            let d = sub(b, a);
            m.max(dot(d, d))
        });
        let up = S::ONE + S::from_u32(8) * S::UNIT_ROUNDOFF;
        Local {
            x0,
            x1,
            arm: m.sqrt() * up,
            travel: d.sqrt() * up,
        }
    }

    /// The body-frame triangle at τ = `k / 2^level` (the stored vertices at both ends).
    fn at(&self, k: u32, level: u32) -> Tri<S> {
        let n = 1u32.wrapping_shl(level);
        if k == 0 {
            return self.x0;
        }
        if k >= n {
            return self.x1;
        }
        self.at_time(S::from_u32(k) / S::from_u32(n))
    }

    /// The body-frame triangle at τ.
    fn at_time(&self, tau: S) -> Tri<S> {
        let lerp = |a: V<S>, b: V<S>| {
            let (s, t) = (S::ONE - tau, tau);
            [
                s * a[0] + t * b[0],
                s * a[1] + t * b[1],
                s * a[2] + t * b[2],
            ]
        };
        let [a0, a1, a2] = self.x0;
        let [b0, b1, b2] = self.x1;
        [lerp(a0, b0), lerp(a1, b1), lerp(a2, b2)]
    }
}

fn world<S: Scalar>(pose: &Pose<S>, t: &Tri<S>) -> Tri<S> {
    t.map(|x| pose.apply(x))
}

fn largest<S: Scalar>(t: &Tri<S>, w: S) -> S {
    t.iter().fold(w, |m, &x| m.max(norm_inf(x)))
}

/// `gap > |n| need` for a computed axis `n` with `|n|² = nn`, squared (no square root); NaN is
/// never apart, a zero axis proves nothing.
#[inline]
fn beyond<S: Scalar>(gap: S, nn: S, need: S) -> bool {
    let eight = S::from_u32(8) * S::UNIT_ROUNDOFF;
    gap > S::ZERO && nn > S::ZERO && gap * gap * (S::ONE - eight) > nn * need * need
}

/// The projections' extent of a triangle on `n`: `(low, high)`.
#[inline]
fn extent<S: Scalar>(n: V<S>, t: &Tri<S>) -> (S, S) {
    let [x, y, z] = [dot(n, t[0]), dot(n, t[1]), dot(n, t[2])];
    (x.min(y).min(z), x.max(y).max(z))
}

fn centroid3<S: Scalar>(t: &Tri<S>) -> V<S> {
    let [p, q, r] = *t;
    [p[0] + q[0] + r[0], p[1] + q[1] + r[1], p[2] + q[2] + r[2]]
}

fn normal<S: Scalar>(t: &Tri<S>) -> V<S> {
    cross(sub(t[1], t[0]), sub(t[2], t[0]))
}

/// The margin every comparison adds for the rounding of its products: `reach (1 + 8u) + 16 u w`.
fn need<S: Scalar>(reach: S, w: S) -> S {
    let u = S::UNIT_ROUNDOFF;
    reach * (S::ONE + S::from_u32(8) * u) + S::from_u32(16) * u * w
}

/// Whether axis `n` keeps `a` on one side of `b` by more than `need` (in units of `|n|`) at
/// both ends of an interval (`a[0]`, `b[0]` at its start, `a[1]`, `b[1]` at its end): then it
/// does throughout (module docs).
fn separates<S: Scalar>(n: V<S>, a: [&Tri<S>; 2], b: [&Tri<S>; 2], need: S) -> bool {
    let nn = dot(n, n);
    let ((la0, ha0), (lb0, hb0)) = (extent(n, a[0]), extent(n, b[0]));
    if !(beyond(la0 - hb0, nn, need) || beyond(lb0 - ha0, nn, need)) {
        return false;
    }
    let ((la1, ha1), (lb1, hb1)) = (extent(n, a[1]), extent(n, b[1]));
    (beyond(la0 - hb0, nn, need) && beyond(la1 - hb1, nn, need))
        || (beyond(lb0 - ha0, nn, need) && beyond(lb1 - ha1, nn, need))
}

/// Whether one of the standard axes (module docs) keeps the triangles more than `reach` apart
/// over an interval (`w`: the largest coordinate).
pub(super) fn apart_over<S: Scalar>(a: [&Tri<S>; 2], b: [&Tri<S>; 2], reach: S, w: S) -> bool {
    let need = need(reach, w);
    let d0 = sub(centroid3(a[0]), centroid3(b[0]));
    let d1 = sub(centroid3(a[1]), centroid3(b[1]));
    let v = sub(d1, d0);
    let s = -dot(d0, v) / dot(v, v);
    // NaN (no relative motion) takes the start.
    let s = if s > S::ZERO { s.min(S::ONE) } else { S::ZERO };
    let closest = [d0[0] + s * v[0], d0[1] + s * v[1], d0[2] + s * v[2]];
    separates(closest, a, b, need)
        || separates(normal(b[0]), a, b, need)
        || separates(normal(a[0]), a, b, need)
        || separates(normal(b[1]), a, b, need)
        || separates(normal(a[1]), a, b, need)
        || separates(d0, a, b, need)
        || separates(d1, a, b, need)
}

/// Steps of conservative advancement one pair may take (module docs): a pair that needs more
/// is halved instead (4 or 16 cost the same on the swept fixtures).
const MAX_ADVANCES: u32 = 4;

/// One body's part in the leaf test: its motion and the triangle.
pub(super) struct Moving<'m, S: Scalar> {
    pub motion: &'m mut Motion<S>,
    pub local: Local<S>,
}

impl<S: Scalar> Moving<'_, S> {
    /// The world triangle at τ = `k / 2^level`.
    fn at(&mut self, k: u32, level: u32) -> Option<Tri<S>> {
        Some(world(&self.motion.at(k, level)?, &self.local.at(k, level)))
    }

    /// The world triangle at any τ.
    fn at_time(&mut self, tau: S) -> Option<Tri<S>> {
        Some(world(&self.motion.at_time(tau)?, &self.local.at_time(tau)))
    }

    /// How far a vertex may stray from its chord over an interval of length `h`: `h² E`
    /// (module docs).
    fn arc(&self, h: S) -> S {
        let theta = self.motion.theta;
        let e = theta * theta * S::from_f64(0.125) * self.local.arm
            + theta * S::from_f64(0.25) * self.local.travel;
        h * h * e * (S::ONE + S::from_u32(16) * S::UNIT_ROUNDOFF)
    }
}

/// The swept leaf test (module docs): the earliest interval start the pair is not excluded
/// from, or `None` when it is apart throughout the motion; `error` is `δ_a + δ_b`. `None` for a
/// broken state (a pose that is not a rotation).
pub(super) fn first_contact<S: Scalar>(
    a: &mut Moving<'_, S>,
    b: &mut Moving<'_, S>,
    error: S,
    levels: u32,
) -> Option<Option<S>> {
    let u = S::UNIT_ROUNDOFF;
    let tolerance = |w: S| S::from_u32(4) * error + S::from_u32(256) * u * (w + S::ONE);
    let arms = a.local.arm.max(b.local.arm);
    let (a0, b0) = (a.at(0, 0)?, b.at(0, 0)?);
    let (a1, b1) = (a.at(1, 0)?, b.at(1, 0)?);
    let w = [&a0, &b0, &a1, &b1].iter().fold(arms, |m, t| largest(t, m));
    // One step over the whole motion.
    let reach = a.arc(S::ONE) + b.arc(S::ONE) + tolerance(w);
    if apart_over([&a0, &a1], [&b0, &b1], reach, w) {
        return Some(None);
    }
    // Intervals [k / 2^level, (k + 1) / 2^level], earliest on top, each taken from the current
    // start `ts` on: where the last one taken ended (an excluded interval), began (a halved
    // one), or where a step of conservative advancement left it.
    let mut stack = [(0u32, 0u32); super::SWEPT_LEVELS as usize + 2];
    let mut len = 1usize;
    let (mut pa, mut pb, mut ts) = (a0, b0, S::ZERO);
    let mut near: Option<(V<S>, S)> = None;
    let mut advances = 0u32;
    'intervals: while len > 0 {
        len -= 1;
        let (k, level) = *stack.get(len)?;
        let n = 1u32.checked_shl(level)?;
        let scale = S::ONE / S::from_u32(n);
        let next = k.checked_add(1)?;
        let tb = S::from_u32(next) * scale;
        let (qa, qb) = (a.at(next, level)?, b.at(next, level)?);
        let w0 = largest(&pb, largest(&pa, arms));
        let w = largest(&qb, largest(&qa, w0));
        // Over [ts, tb] ⊆ the interval: its length bounds the arcs.
        let reach = a.arc(scale) + b.arc(scale) + tolerance(w);
        if level > 0 && apart_over([&pa, &qa], [&pb, &qb], reach, w) {
            (pa, pb, ts, near) = (qa, qb, tb, None);
            continue;
        }
        loop {
            let (axis, d2) = match near {
                Some(known) => known,
                None => {
                    let (d2, xa, xb) = closest_points(&pa, &pb);
                    let t = need(tolerance(w0), w0);
                    // NaN is never apart.
                    if !(d2 > t * t) {
                        return Some(Some(ts));
                    }
                    near = Some((sub(xa, xb), d2));
                    (sub(xa, xb), d2)
                }
            };
            // Along the nearest direction at the start, `a`'s lowest projection minus `b`'s
            // highest is linear in τ up to |n| reach: at least `g0` at ts, `g1` at tb.
            let (la0, _) = extent(axis, &pa);
            let (_, hb0) = extent(axis, &pb);
            let (la1, _) = extent(axis, &qa);
            let (_, hb1) = extent(axis, &qb);
            let (g0, g1) = (la0 - hb0, la1 - hb1);
            let margin = need(reach, w) * d2.sqrt() * (S::ONE + S::from_u32(8) * u);
            let (g0, g1) = (g0 - margin, g1 - margin);
            if g0 > S::ZERO && g1 > S::ZERO {
                (pa, pb, ts, near) = (qa, qb, tb, None);
                continue 'intervals;
            }
            // Conservative advancement: the bound stays positive up to the fraction g0/(g0 −
            // g1) of [ts, tb]; the step is shortened by its rounding (times are at most 1).
            if !(g0 > S::ZERO) || advances >= MAX_ADVANCES {
                break;
            }
            let fraction = g0 / (g0 - g1) * (S::ONE - S::from_u32(16) * u);
            let t = ts + (tb - ts) * fraction - S::from_u32(4) * u;
            // Less than an eighth of the way: halve instead.
            if !(t > ts + (tb - ts) * S::from_f64(0.125)) || !(t < tb) {
                break;
            }
            advances += 1;
            (pa, pb, ts, near) = (a.at_time(t)?, b.at_time(t)?, t, None);
        }
        if level >= levels {
            return Some(Some(ts));
        }
        let (first, deeper) = (k.checked_mul(2)?, level.checked_add(1)?);
        let mid = S::from_u32(first.checked_add(1)?) / S::from_u32(n.checked_mul(2)?);
        *stack.get_mut(len)? = (first.checked_add(1)?, deeper);
        len += 1;
        if ts < mid {
            *stack.get_mut(len)? = (first, deeper);
            len += 1;
        }
    }
    Some(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rotation_z(angle: f64, t: [f64; 3]) -> Pose<f64> {
        let (s, c) = (libm::sin(0.5 * angle), libm::cos(0.5 * angle));
        Pose::from_quaternion([c, 0.0, 0.0, s], t).expect("pose")
    }

    fn shifted(t: [f64; 3]) -> Pose<f64> {
        Pose::from_quaternion([1.0, 0.0, 0.0, 0.0], t).expect("pose")
    }

    /// The leaf test on one triangle of each body, rigid (`x` the same at both ticks), with a
    /// tolerance of rounding only.
    fn first<S: Scalar>(
        a: (&Pose<f64>, &Pose<f64>, &Tri<f64>),
        b: (&Pose<f64>, &Pose<f64>, &Tri<f64>),
    ) -> Option<S> {
        let cast = |p: &Pose<f64>| Pose {
            rotation: p.rotation.map(|r| r.map(S::from_f64)),
            translation: p.translation.map(S::from_f64),
        };
        let tri = |t: &Tri<f64>| t.map(|v| v.map(S::from_f64));
        let (mut ma, mut mb) = (
            Motion::new(&cast(a.0), &cast(a.1)),
            Motion::new(&cast(b.0), &cast(b.1)),
        );
        let mut ta = Moving {
            motion: &mut ma,
            local: Local::new(tri(a.2), tri(a.2)),
        };
        let mut tb = Moving {
            motion: &mut mb,
            local: Local::new(tri(b.2), tri(b.2)),
        };
        first_contact(&mut ta, &mut tb, S::ZERO, super::super::SWEPT_LEVELS).expect("state")
    }

    fn both(
        a: (&Pose<f64>, &Pose<f64>, &Tri<f64>),
        b: (&Pose<f64>, &Pose<f64>, &Tri<f64>),
    ) -> [Option<f64>; 2] {
        [first::<f64>(a, b), first::<f32>(a, b).map(f64::from)]
    }

    #[test]
    fn a_triangle_passing_through_another_between_the_ends_is_found() {
        // A fixed triangle in z = 0 and one that moves from z = +1 to z = −1: apart at both
        // ends, crossing at τ = ½.
        let still = Pose::<f64>::identity();
        let t = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]];
        let small = [[0.2, 0.2, 0.0], [0.3, 0.2, 0.0], [0.2, 0.3, 0.0]];
        let (up, down) = (shifted([0.0, 0.0, 1.0]), shifted([0.0, 0.0, -1.0]));
        for time in both((&still, &still, &t), (&up, &down, &small)) {
            let time = time.expect("crossing found");
            assert!(time <= 0.5 && time > 0.45, "time {time}");
        }
        // Moving sideways instead, it never meets the fixed triangle.
        let (left, right) = (shifted([3.0, 0.0, 0.5]), shifted([-3.0, 0.0, 0.5]));
        assert_eq!(
            both((&still, &still, &t), (&left, &right, &small)),
            [None, None]
        );
    }

    #[test]
    fn a_spinning_triangle_sweeping_through_a_thin_one_is_found() {
        // A long triangle spins about z through a thin triangle it misses at both ends (the
        // arc, not the chord, passes through).
        let still = Pose::<f64>::identity();
        let thin = [[0.0, 2.0, -0.1], [0.0, 2.0, 0.1], [0.01, 2.0, 0.0]];
        let arm = [[0.0, 0.0, 0.0], [3.0, 0.0, 0.01], [3.0, 0.0, -0.01]];
        let spin = rotation_z(3.0, [0.0; 3]);
        for time in both((&still, &still, &thin), (&still, &spin, &arm)) {
            assert!(time.is_some());
        }
    }

    /// Far from the origin and millimetre-sized: a 2 mm triangle 1 km out passes 0.5 mm beside
    /// another (never touching: not reported) and then through it (reported before it touches).
    #[test]
    fn millimetre_parts_far_from_the_origin() {
        let o = [1000.0, -700.0, 300.0];
        let at = |x: f64, y: f64, z: f64| shifted([o[0] + x, o[1] + y, o[2] + z]);
        let still = at(0.0, 0.0, 0.0);
        let t = [[0.0, 0.0, 0.0], [0.002, 0.0, 0.0], [0.0, 0.002, 0.0]];
        let small = [[0.0, 0.0, 0.0], [0.0005, 0.0, 0.0], [0.0, 0.0005, 0.0]];
        // Beside: x from 2.5 mm to 2.5 mm, z from +1 mm to −1 mm.
        let (above, below) = (at(0.0025, 0.0005, 0.001), at(0.0025, 0.0005, -0.001));
        assert_eq!(
            first::<f64>((&still, &still, &t), (&above, &below, &small)),
            None
        );
        // Through: 0.5 mm in from the corner.
        let (above, below) = (at(0.0005, 0.0005, 0.001), at(0.0005, 0.0005, -0.001));
        for time in both((&still, &still, &t), (&above, &below, &small)) {
            let time = time.expect("crossing found");
            assert!(time <= 0.5, "time {time}");
        }
    }
}
