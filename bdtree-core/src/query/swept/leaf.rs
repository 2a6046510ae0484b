//! The swept leaf test: the earliest time two moving triangles may touch, or that they never do.
//!
//! # A vertex against its chord
//!
//! A vertex's world position is `x(τ) = R(τ) ℓ(τ) + t(τ)` with `ℓ` (body frame) and `t` linear
//! in τ and `R` the slerp. Without rotation (the same matrix at both ticks) it moves on the
//! **chord** between its positions at the ticks — the vertex caches' (no deformation). With
//! rotation, `f(τ) = x(τ) − chord(τ)` is zero at both ends and `|f''| ≤ θ² |ℓ⊥| + 2θ |Δℓ⊥|`
//! (`⊥`: across the rotation's axis; `θ` the angle), so
//!
//! ```text
//! |x(τ) − chord(τ)| ≤ 4τ(1 − τ) e,   e = θ²/8 |ℓ⊥| + θ/4 |Δℓ⊥|
//! ```
//!
//! ([`super::track`]'s arc bound, per vertex; the triangle's `e` is its vertices' largest).
//! Where `e` is large against the triangles (a blade turning a third of a turn in a tick) the
//! motion is cut into `K` **segments** (a power of two, up to the pose table's 32): the
//! positions at `k/K` are computed exactly (the pose table, the body-frame vertices), and
//! within a segment a vertex strays from the segment's chord by at most `e/K²` (times `4s(1−s)`,
//! `s` the fraction of the segment).
//!
//! # One interval
//!
//! Over an interval `[τa, τb]`, every vertex is within `dev` of the line between its computed
//! positions at `τa` and `τb` (the bound above; for an interval across segments,
//! `(τb − τa)² e + e/K²`). For an axis `n`, the gap `min n·a_i − max n·b_j` between the two
//! triangles' projections is then a concave function of τ up to `|n| dev`: above the line
//! between its values at the ends. If it exceeds `|n| (dev_a + dev_b + T)` at both ends, the
//! triangles are apart throughout the interval; at the start only, they are apart up to where
//! that line reaches the bound (**conservative advancement**, no exact distance needed). The
//! axes, in order: the axis that separated the triangles where the last round stopped — alone
//! while it gains (measured: it gains the most in three rounds of four on the flap fixture, and
//! the others cost more than the rounds they save) — then the direction of closest approach of
//! the two centroids over the interval (their relative motion is linear: along it their
//! separation is nearly constant — the axis that settles pairs a body passes beside) and both
//! normals; when these gain nothing, also each triangle's edges × the relative motion and the
//! nine edge crosses. Spans of different axes are joined.
//!
//! # The earliest time
//!
//! The walk hands the leaf its **window**, the times at which the two leaves' tracks may meet
//! ([`super::track`]): nothing can touch outside it. Piece by piece (the segments), earliest
//! first, from the window's start: what the axes cover without a gap is left behind; where
//! they stop, the static filter ([`crate::geometry::triangle`], stage 1) with the piece's bounds either
//! separates the triangles (its axis leads the next round, from there) or not (the pair is
//! reported with that time). A round that gains nothing with every axis, or [`ROUNDS`] rounds,
//! report the round's start. Where the arcs dominate the bounds, a reported time is examined
//! once more from there on the pose table's 32 segments. The reported time is a time every
//! earlier time of which was cleared: **the pair cannot touch before it**. An interval is
//! dropped only when a bound proves the triangles apart throughout it, never by sampling.
//!
//! # Rounding
//!
//! Everything runs in the body's scalar `S`. `T = 4 (δ_a + δ_b) + 256 u_S w`, with `δ` a
//! body's larger [`crate::Body::error`] of its two states and `w` the largest coordinate in
//! play (vertices and translations): it covers the stored states' rounding, the segment ends
//! computed from poses at `k/K` (quaternions, series, normalisation: [`super::motion`]), the
//! chords' own rounding and the tests' products, which every comparison widens further by
//! `16 u_S w` and a relative `8 u_S`; fractions are shortened by `16 u_S` and `4 u_S`.

// `!(x > y)` is meant: NaN takes the conservative branch.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

use super::motion::{Motion, POSE_LEVELS};

use crate::geometry::pose::Pose;
use crate::geometry::triangle::filter_axis_for;
use crate::scalar::{cross, dot, sub, Scalar};

type V<S> = [S; 3];
type Tri<S> = [V<S>; 3];

/// The most segments: the pose table's.
const MAX_SEGMENTS: u32 = 1 << POSE_LEVELS;

/// One triangle's path over the motion (module docs).
pub(super) struct Path<'m, S: Scalar> {
    /// World vertices at the two ticks.
    w0: Tri<S>,
    w1: Tri<S>,
    /// How far a vertex strays from the chord of the whole motion (0 without rotation).
    e: S,
    /// Segments (a power of two; 1: the chord of the whole motion) and its log.
    segments: u32,
    level: u32,
    /// With segments: the body-frame vertices at the start and their travel.
    l0: Tri<S>,
    dl: Tri<S>,
    /// The last segment end computed (`k`, its vertices; `k` 0: none): the next piece starts
    /// there.
    last: (u32, Tri<S>),
    motion: &'m mut Motion<S>,
}

impl<'m, S: Scalar> Path<'m, S> {
    /// A triangle's path from its world vertices at the two ticks, straying at most `e` from
    /// their chords, cut into segments where `e` exceeds `fine` (module docs).
    pub fn new(w0: Tri<S>, w1: Tri<S>, e: S, motion: &'m mut Motion<S>, fine: S) -> Self {
        let mut path = Path {
            w0,
            w1,
            e,
            segments: 1,
            level: 0,
            l0: [[S::ZERO; 3]; 3],
            dl: [[S::ZERO; 3]; 3],
            last: (0, [[S::ZERO; 3]; 3]),
            motion,
        };
        // e / K² ≤ fine, K ≤ 2^POSE_LEVELS (NaN: the most).
        while !(path.e <= fine * S::from_u32(path.segments * path.segments))
            && path.level < POSE_LEVELS
        {
            path.level += 1;
            path.segments *= 2;
        }
        if path.segments > 1 {
            let (p0, p1) = (*path.motion.from(), *path.motion.to());
            for i in 0..3 {
                let l0 = body_frame(&p0, w0[i]);
                path.dl[i] = sub(body_frame(&p1, w1[i]), l0);
                path.l0[i] = l0;
            }
        }
        path
    }

    /// The pose table's segments from now on (arcs `e / 1024`).
    fn refine(&mut self) {
        if self.segments >= MAX_SEGMENTS || !(self.e > S::ZERO) {
            return;
        }
        if self.segments == 1 {
            let (p0, p1) = (*self.motion.from(), *self.motion.to());
            for i in 0..3 {
                let l0 = body_frame(&p0, self.w0[i]);
                self.dl[i] = sub(body_frame(&p1, self.w1[i]), l0);
                self.l0[i] = l0;
            }
        }
        self.segments = MAX_SEGMENTS;
        self.level = POSE_LEVELS;
        self.last.0 = 0;
    }

    /// The computed position at `k / K` (a segment end).
    fn end(&mut self, k: u32) -> Option<Tri<S>> {
        if k == 0 {
            return Some(self.w0);
        }
        if k >= self.segments {
            return Some(self.w1);
        }
        if self.last.0 == k {
            return Some(self.last.1);
        }
        let pose = self.motion.at(k, self.level)?;
        let s = S::from_u32(k) / S::from_u32(self.segments);
        let at = |i: usize| {
            let (l, d) = (self.l0[i], self.dl[i]);
            pose.apply([l[0] + s * d[0], l[1] + s * d[1], l[2] + s * d[2]])
        };
        let end = [at(0), at(1), at(2)];
        self.last = (k, end);
        Some(end)
    }

    /// The triangle at `a` and at `b` on the chord of the segment holding both (`a ≤ b`, within
    /// one of the path's segments), and how far a vertex may stray from the line between them.
    fn piece(&mut self, a: S, b: S) -> Option<([Tri<S>; 2], S)> {
        let dev = self.dev(a, b);
        if self.segments == 1 {
            return Some((
                [lerp(&self.w0, &self.w1, a), lerp(&self.w0, &self.w1, b)],
                dev,
            ));
        }
        let k = S::from_u32(self.segments);
        let j = (a * k).trunc_u32().min(self.segments - 1);
        let (start, end) = (self.end(j)?, self.end(j + 1)?);
        let base = S::from_u32(j);
        Some((
            [
                lerp(&start, &end, a * k - base),
                lerp(&start, &end, b * k - base),
            ],
            dev,
        ))
    }

    /// How far a vertex may be from the line between its computed positions at `a ≤ b`
    /// (module docs).
    fn dev(&self, a: S, b: S) -> S {
        if !(self.e > S::ZERO) {
            // 0, or NaN (kept as NaN: nothing is cleared).
            return self.e;
        }
        let k = S::from_u32(self.segments);
        let per = self.e / (k * k) * (S::ONE + S::from_u32(16) * S::UNIT_ROUNDOFF);
        let (x, y) = (a * k, b * k);
        let j = x.trunc_u32().min(self.segments - 1);
        let base = S::from_u32(j);
        if y <= base + S::ONE {
            // One segment: 4s(1 − s) at its largest over [s_a, s_b].
            let (fa, fb) = (x - base, y - base);
            let half = S::from_f64(0.5);
            let bulge = |f: S| S::from_u32(4) * f * (S::ONE - f);
            let m = if fa <= half && fb >= half {
                S::ONE
            } else {
                bulge(fa).max(bulge(fb))
            };
            return per * m.min(S::ONE);
        }
        let h = b - a;
        h * h * self.e * (S::ONE + S::from_u32(16) * S::UNIT_ROUNDOFF) + per
    }
}

/// `Rᵀ (x − t)`: a world point in the pose's body frame.
fn body_frame<S: Scalar>(pose: &Pose<S>, x: V<S>) -> V<S> {
    let [[r00, r01, r02], [r10, r11, r12], [r20, r21, r22]] = pose.rotation;
    let d = sub(x, pose.translation);
    [
        r00 * d[0] + r10 * d[1] + r20 * d[2],
        r01 * d[0] + r11 * d[1] + r21 * d[2],
        r02 * d[0] + r12 * d[1] + r22 * d[2],
    ]
}

fn lerp<S: Scalar>(a: &Tri<S>, b: &Tri<S>, s: S) -> Tri<S> {
    let l = |p: V<S>, q: V<S>| {
        [
            p[0] + s * (q[0] - p[0]),
            p[1] + s * (q[1] - p[1]),
            p[2] + s * (q[2] - p[2]),
        ]
    };
    [l(a[0], b[0]), l(a[1], b[1]), l(a[2], b[2])]
}

fn centroid3<S: Scalar>(t: &Tri<S>) -> V<S> {
    let [p, q, r] = *t;
    [p[0] + q[0] + r[0], p[1] + q[1] + r[1], p[2] + q[2] + r[2]]
}

/// The margin every comparison adds for the rounding of its products: `reach (1 + 8u) + 16 u w`.
fn need<S: Scalar>(reach: S, w: S) -> S {
    let u = S::UNIT_ROUNDOFF;
    reach * (S::ONE + S::from_u32(8) * u) + S::from_u32(16) * u * w
}

/// The times of `[t0, t1]` at which axis `n` keeps the triangles more than `need` (per unit of
/// `|n|`) apart: `a[0]`, `b[0]` are the triangles at `t0`, `a[1]`, `b[1]` at `t1`, and every
/// vertex within `need`'s bounds of the line between. The gap `min n·a_i − max n·b_j` is then
/// a concave function of τ (a minimum of linear ones less a maximum), above the line between
/// its values at `t0` and `t1`: where that line is above the margin, `a` is above `b`; the
/// other way round likewise. Up to two intervals (empty: `lo > hi`), shrunk by their rounding.
#[inline(always)]
fn spans<S: Scalar>(
    n: V<S>,
    a: [&Tri<S>; 2],
    b: [&Tri<S>; 2],
    [t0, t1]: [S; 2],
    need: S,
) -> [[S; 2]; 2] {
    const EMPTY: [f64; 2] = [1.0, 0.0];
    let empty = EMPTY.map(S::from_f64);
    let u = S::UNIT_ROUNDOFF;
    let nn = dot(n, n);
    if !(nn > S::ZERO) {
        return [empty; 2];
    }
    let margin = nn.sqrt() * (S::ONE + S::from_u32(4) * u) * need;
    let range = |t: &Tri<S>| {
        let [x, y, z] = [dot(n, t[0]), dot(n, t[1]), dot(n, t[2])];
        (x.min(y).min(z), x.max(y).max(z))
    };
    let ((la0, ha0), (lb0, hb0)) = (range(a[0]), range(b[0]));
    let ((la1, ha1), (lb1, hb1)) = (range(a[1]), range(b[1]));
    let h = t1 - t0;
    let eight = S::from_u32(8) * u;
    let four = S::from_u32(4) * u;
    let span = |g0: S, g1: S| -> [S; 2] {
        match (g0 > margin, g1 > margin) {
            (true, true) => [t0, t1],
            // Apart from t0 until the line reaches the margin, shortened by its rounding
            // (times are at most 1).
            (true, false) => [
                t0,
                t0 + h * ((g0 - margin) / (g0 - g1)) * (S::ONE - eight) - four,
            ],
            (false, true) => [
                t0 + h * ((margin - g0) / (g1 - g0)) * (S::ONE + eight) + four,
                t1,
            ],
            // NaN lands here: nothing.
            (false, false) => empty,
        }
    };
    [span(la0 - hb0, la1 - hb1), span(lb0 - ha0, lb1 - ha1)]
}

/// Whether the direction of closest approach of the two centroids keeps the triangles more
/// than `reach` apart over the whole motion: `a[0]`, `b[0]` at the first tick, `a[1]`, `b[1]`
/// at the second, every vertex within `reach` (less the tolerance) of its chord. The first
/// test of every pair (module docs): it settles most. When it does, the direction (the gap it
/// leaves at the second tick, [`gap_along`], is the certificate a swept front carries to the
/// next tick, [`super::front`]).
pub(super) fn apart_throughout<S: Scalar>(
    a: [&Tri<S>; 2],
    b: [&Tri<S>; 2],
    reach: S,
    w: S,
) -> Option<V<S>> {
    let d0 = sub(centroid3(a[0]), centroid3(b[0]));
    let d1 = sub(centroid3(a[1]), centroid3(b[1]));
    let v = sub(d1, d0);
    let s = -dot(d0, v) / dot(v, v);
    // NaN (no relative motion) takes the start.
    let s = if s > S::ZERO { s.min(S::ONE) } else { S::ZERO };
    let n = [d0[0] + s * v[0], d0[1] + s * v[1], d0[2] + s * v[2]];
    let [up, down] = spans(n, a, b, [S::ZERO, S::ONE], need(reach, w));
    // A span of the whole motion is exactly [0, 1].
    let whole = |x: [S; 2]| x[0] <= S::ZERO && x[1] >= S::ONE;
    (whole(up) || whole(down)).then_some(n)
}

/// The gap between two triangles along `n` (either way round), per unit of `|n|`, less `reach`
/// and the rounding: at most their distance less `reach` (negative or NaN when `n` does not
/// separate them by more).
pub(super) fn gap_along<S: Scalar>(n: V<S>, a: &Tri<S>, b: &Tri<S>, reach: S, w: S) -> S {
    let range = |t: &Tri<S>| {
        let [x, y, z] = [dot(n, t[0]), dot(n, t[1]), dot(n, t[2])];
        (x.min(y).min(z), x.max(y).max(z))
    };
    let ((la, ha), (lb, hb)) = (range(a), range(b));
    let gap = (la - hb).max(lb - ha);
    let u = S::UNIT_ROUNDOFF;
    let length = dot(n, n).sqrt() * (S::ONE + S::from_u32(4) * u);
    gap / length * (S::ONE - S::from_u32(8) * u) - need(reach, w) * (S::ONE + S::from_u32(8) * u)
}

/// Spans (of [`spans`]) kept to join later ones.
const SPANS: usize = 40;

/// How far from `t0` the axes' spans keep the triangles apart without a gap (module docs):
/// `t1` when throughout. The axes, in order: `first` (the static test's axis where an earlier
/// round stopped), the direction of closest approach of the centroids, both normals at `t0`,
/// each triangle's edges × the relative motion (the faces of its sweep), the nine edge crosses.
fn covered<S: Scalar>(
    a: [&Tri<S>; 2],
    b: [&Tri<S>; 2],
    [t0, t1]: [S; 2],
    first: Option<V<S>>,
    full: bool,
    need: S,
    kept: &mut [[S; 2]; SPANS],
) -> S {
    let mut len = 0usize;
    let mut reach = t0;
    let mut take = |axis: V<S>, reach: &mut S| {
        let mut moved = false;
        for span in spans(axis, a, b, [t0, t1], need) {
            if !(span[0] <= span[1]) || !(span[1] > *reach) {
                continue;
            }
            if span[0] <= *reach {
                *reach = span[1];
                moved = true;
            } else if let Some(slot) = kept.get_mut(len) {
                // Not joined yet: kept for when what is covered reaches it.
                *slot = span;
                len += 1;
            }
        }
        // What is covered grew: join the kept spans it now reaches.
        while moved {
            moved = false;
            for span in kept.iter().take(len) {
                if span[0] <= *reach && span[1] > *reach {
                    *reach = span[1];
                    moved = true;
                }
            }
        }
        *reach >= t1
    };
    // The static test's axis alone while it gains (it usually gains the most: the others are
    // taken when it gains nothing).
    if let Some(axis) = first {
        if take(axis, &mut reach) {
            return t1;
        }
        if reach > t0 && !full {
            return reach;
        }
    }
    let d0 = sub(centroid3(a[0]), centroid3(b[0]));
    let d1 = sub(centroid3(a[1]), centroid3(b[1]));
    let v = sub(d1, d0);
    let s = -dot(d0, v) / dot(v, v);
    // NaN (no relative motion) takes the start.
    let s = if s > S::ZERO { s.min(S::ONE) } else { S::ZERO };
    let closest = [d0[0] + s * v[0], d0[1] + s * v[1], d0[2] + s * v[2]];
    let edges = |t: &Tri<S>| [sub(t[1], t[0]), sub(t[2], t[1]), sub(t[0], t[2])];
    let (ea, eb) = (edges(a[0]), edges(b[0]));
    let (nb, na) = (cross(eb[0], eb[1]), cross(ea[0], ea[1]));
    // The static test's axis may be one of the normals (the same bits: the same edges of the
    // same triangles): each axis is taken once.
    let (skip_b, skip_a) = (first == Some(nb), first == Some(na));
    if take(closest, &mut reach)
        || (!skip_b && take(nb, &mut reach))
        || (!skip_a && take(na, &mut reach))
    {
        return t1;
    }
    if !full {
        return reach;
    }
    for e in eb.into_iter().chain(ea) {
        if take(cross(e, v), &mut reach) {
            return t1;
        }
    }
    for e in ea {
        for f in eb {
            if take(cross(e, f), &mut reach) {
                return t1;
            }
        }
    }
    reach
}

/// Rounds of [`covered`] one piece may take: each from where the last stopped, with the axes
/// there and the static test's. A capped piece reports the start of its last round; on the flap
/// fixture 6 rounds left pairs to the pose table's segments that 10 clear sooner (fewer
/// instructions in all, a few pairs fewer reported); more gain little.
const ROUNDS: u32 = 10;

/// The earliest time of `[s0, s1]` at which the triangles may touch, or `None` when they are
/// apart throughout: `a`, `b` at `s0` and `s1`, every vertex within the bounds of `need` of the
/// line between (module docs). `here` is the static test's error bound.
fn contact<S: Scalar>(
    a: [Tri<S>; 2],
    b: [Tri<S>; 2],
    [s0, s1]: [S; 2],
    need: S,
    here: S,
) -> Option<S> {
    let h = s1 - s0;
    let at = |p: &[Tri<S>; 2], t: S| {
        if h > S::ZERO {
            lerp(&p[0], &p[1], (t - s0) / h)
        } else {
            p[0]
        }
    };
    let (mut t0, mut pa, mut pb) = (s0, a[0], b[0]);
    let (mut first, mut full) = (None, false);
    let mut kept = [[S::ZERO; 2]; SPANS];
    for round in 0..ROUNDS {
        let t = covered(
            [&pa, &a[1]],
            [&pb, &b[1]],
            [t0, s1],
            first,
            full,
            need,
            &mut kept,
        );
        if t >= s1 {
            return None;
        }
        if t > t0 || round == 0 {
            let (qa, qb) = (at(&a, t), at(&b, t));
            // Touching there (within the bounds): the time. Apart: its axis leads the next
            // round, from there.
            let Some(axis) = filter_axis_for(&qa, &qb, here) else {
                return Some(t);
            };
            (t0, pa, pb, first, full) = (t, qa, qb, Some(axis), false);
        } else if !full {
            // Nothing gained: every axis, from the same start.
            full = true;
        } else {
            return Some(t0);
        }
    }
    Some(t0)
}

/// The swept leaf test (module docs): the earliest time in `window` from which the pair is not
/// excluded, or `None` when it is apart throughout; `error` is `δ_a + δ_b`, `translations` the
/// largest `|t|∞` of the four poses. `None` (outer) for a broken state (a pose that is not a
/// rotation).
pub(super) fn first_contact<S: Scalar>(
    a: &mut Path<'_, S>,
    b: &mut Path<'_, S>,
    [lo, hi]: [S; 2],
    tolerance: S,
    w: S,
) -> Option<Option<S>> {
    let Some(t) = pieces(a, b, [lo, hi], tolerance, w)? else {
        return Some(None);
    };
    // Reported within bounds dominated by the arcs: once more, from there, on the pose table's
    // segments (arcs 1/1024 of theirs) — a pair the coarse chords could not clear.
    let coarse = |p: &Path<'_, S>| p.e > tolerance && p.segments < MAX_SEGMENTS;
    if !(coarse(a) || coarse(b)) {
        return Some(Some(t));
    }
    a.refine();
    b.refine();
    pieces(a, b, [t, hi], tolerance, w)
}

/// [`first_contact`] over `[lo, hi]` on the paths' current segments.
fn pieces<S: Scalar>(
    a: &mut Path<'_, S>,
    b: &mut Path<'_, S>,
    [lo, hi]: [S; 2],
    tolerance: S,
    w: S,
) -> Option<Option<S>> {
    // The finer path's segments, in order over the window.
    let k = a.segments.max(b.segments);
    let ks = S::from_u32(k);
    let mut j = (lo * ks).trunc_u32().min(k - 1);
    while j < k {
        let (p0, p1) = (S::from_u32(j) / ks, S::from_u32(j + 1) / ks);
        let (s0, s1) = (lo.max(p0), hi.min(p1));
        if !(s0 > hi) {
            let (ea, da) = a.piece(s0, s1)?;
            let (eb, db) = b.piece(s0, s1)?;
            let bounds = da + db + tolerance;
            if let Some(t) = contact(ea, eb, [s0, s1], need(bounds, w), bounds) {
                return Some(Some(t));
            }
        }
        if !(p1 < hi) {
            break;
        }
        j += 1;
    }
    Some(None)
}

#[cfg(test)]
mod tests {
    use super::super::track::Arc;
    use super::*;
    use crate::scalar::norm_inf;

    fn rotation_z(angle: f64, t: [f64; 3]) -> Pose<f64> {
        let (s, c) = (libm::sin(0.5 * angle), libm::cos(0.5 * angle));
        Pose::from_quaternion([c, 0.0, 0.0, s], t).expect("pose")
    }

    fn shifted(t: [f64; 3]) -> Pose<f64> {
        Pose::from_quaternion([1.0, 0.0, 0.0, 0.0], t).expect("pose")
    }

    /// The leaf test on one triangle of each body, rigid (`x` the same at both ticks), over the
    /// whole motion with a tolerance of rounding only.
    fn first<S: Scalar>(
        a: (&Pose<f64>, &Pose<f64>, &Tri<f64>),
        b: (&Pose<f64>, &Pose<f64>, &Tri<f64>),
    ) -> Option<S> {
        let cast = |p: &Pose<f64>| Pose {
            rotation: p.rotation.map(|r| r.map(S::from_f64)),
            translation: p.translation.map(S::from_f64),
        };
        let tri = |t: &Tri<f64>, p: &Pose<S>| t.map(|v| p.apply(v.map(S::from_f64)));
        let (a0, a1, b0, b1) = (cast(a.0), cast(a.1), cast(b.0), cast(b.1));
        let (mut ma, mut mb) = (Motion::new(&a0, &a1), Motion::new(&b0, &b1));
        let arc_a = Arc::new(&a0, &a1, ma.theta, ma.axis());
        let arc_b = Arc::new(&b0, &b1, mb.theta, mb.axis());
        let fine = S::from_f64(1e-3);
        let e = |arc: &Arc<S>, t: &Tri<f64>, p0: &Pose<S>, p1: &Pose<S>| {
            let (x0, x1) = (tri(t, p0), tri(t, p1));
            (0..3).fold(S::ZERO, |m, i| m.max(arc.deviation(x0[i], x1[i])))
        };
        let (ea, eb) = (e(&arc_a, a.2, &a0, &a1), e(&arc_b, b.2, &b0, &b1));
        let mut pa = Path::new(tri(a.2, &a0), tri(a.2, &a1), ea, &mut ma, fine);
        let mut pb = Path::new(tri(b.2, &b0), tri(b.2, &b1), eb, &mut mb, fine);
        let t = norm_inf(a0.translation)
            .max(norm_inf(a1.translation))
            .max(norm_inf(b0.translation))
            .max(norm_inf(b1.translation));
        let w = [&pa.w0, &pa.w1, &pb.w0, &pb.w1]
            .iter()
            .flat_map(|t| t.iter())
            .fold(t, |m, &x| m.max(norm_inf(x)));
        let tolerance = S::from_u32(256) * S::UNIT_ROUNDOFF * w;
        first_contact(&mut pa, &mut pb, [S::ZERO, S::ONE], tolerance, w).expect("state")
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
        // Spinning the other way (the shorter arc of −1 rad), it stays clear of it.
        let back = rotation_z(-1.0, [0.0; 3]);
        assert_eq!(
            both((&still, &still, &thin), (&still, &back, &arm)),
            [None, None]
        );
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
