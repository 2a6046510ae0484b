//! A node's track over the motion (computed once per query and cached per node) and the time
//! window in which two tracks may meet.
//!
//! # The track
//!
//! A node's spheres at the two ticks, `(c₀, r₀)` and `(c₁, r₁)`, give its **track**: the point
//! moving on the segment from `c₀` to `c₁` and the radius
//!
//! ```text
//! ρ = max(r₀, r₁) + θ²/8 |ℓ₀| + θ/4 |ℓ₁ − ℓ₀|,   ℓ = Rᵀ (c − t) (the center in the body frame)
//! ```
//!
//! around it (the rotation's arc against its chord, [`super`]'s module docs). No rotation — the
//! same matrix at both ticks — has no arc: `ρ = max(r₀, r₁)`. `|ℓ₀| = |c₀ − t₀|` needs no
//! rotation, and `|ℓ₁ − ℓ₀| = |(c₁ − t₁) − R₁R₀ᵀ (c₀ − t₀)|` one product with the relative
//! rotation, formed once per query: two square roots and a matrix product per node, once.
//! The radius carries the rounding of all this and of the window test below,
//! `(1 + 16u)` relative and `96 u (w + |t|∞)` absolute (`w` the larger `|c|∞` of the node's two
//! centers).
//!
//! # The window of two tracks
//!
//! Two nodes may touch at τ only if their relative center `d(τ) = d₀ + τ v` comes within
//! `r = ρ_a + ρ_b` of the origin: `|v|² τ² + 2 (d₀·v) τ + |d₀|² − r² ≤ 0`, the times
//!
//! ```text
//! τ = (−d₀·v ± √h) / |v|²,   h = |v|² r² − |d₀ × v|²
//! ```
//!
//! (no real root, `h < 0`: the line of relative motion passes farther than `r`). The walk prunes
//! node pairs with the cheaper question of whether the relative center comes within `r` at all
//! ([`near`]: the closest point of its segment); the leaf test computes its two leaves' window
//! ([`meet`]) and searches only inside it. (Windows carried down the walk in the pair entries,
//! intersected with the parent's, are not built.) Computed in
//! `S`, `h` is bounded above (the cross product's rounding, `≤ 2.9 u |d₀||v|` per vector, and
//! the products' — `|v|² (r² + 8u |d₀|²)(1 + 8u) − |d₀ × v|² (1 − 4u)`) and the window
//! widened by `8u (|d₀||v| + |d₀·v| + √h) / |v|² + 4u`: it always contains the exact window
//! of the computed `d₀`, `v`, `r` (tested against f64 below). Without relative motion
//! (`|v|² < 2⁻¹⁰⁰`) the distance is `|d₀|` throughout. NaN never prunes.

// `!(x > y)` is meant: NaN takes the conservative branch.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

use crate::bounds::track_cache::Track;
use crate::geometry::pose::Pose;
use crate::scalar::{cross, dot, norm1, norm_inf, sub, Scalar};

/// What one body's motion adds to its nodes' tracks (module docs): the arc's factors, the
/// translations and the relative rotation, formed once per query.
#[derive(Debug, Clone, Copy)]
pub(super) struct Arc<S> {
    /// The rotation matrices differ (otherwise there is no arc).
    turns: bool,
    /// `θ²/8` and `θ/4`.
    k1: S,
    k2: S,
    t0: [S; 3],
    t1: [S; 3],
    /// `R₁ R₀ᵀ`.
    rel: [[S; 3]; 3],
    /// The rotation's world axis and its error bound `ε`, when the angle is large enough to
    /// have a useful one.
    axis: Option<([S; 3], S)>,
    /// `96 u |t|∞` (the larger translation).
    slack: S,
}

impl<S: Scalar> Arc<S> {
    /// The arc of a motion from `p0` to `p1` turning by at most `theta` about `axis` (with
    /// its error bound, see [`super::motion::Motion::axis`]).
    pub fn new(p0: &Pose<S>, p1: &Pose<S>, theta: S, axis: Option<([S; 3], S)>) -> Self {
        let (r0, r1) = (&p0.rotation, &p1.rotation);
        let mut rel = [[S::ZERO; 3]; 3];
        for (i, row) in rel.iter_mut().enumerate() {
            for (j, x) in row.iter_mut().enumerate() {
                *x = dot(r1[i], r0[j]);
            }
        }
        let t = norm_inf(p0.translation).max(norm_inf(p1.translation));
        Arc {
            turns: r0 != r1,
            k1: theta * theta * S::from_f64(0.125),
            k2: theta * S::from_f64(0.25),
            t0: p0.translation,
            t1: p1.translation,
            rel,
            axis,
            slack: S::from_u32(96) * S::UNIT_ROUNDOFF * t,
        }
    }

    /// How far a triangle's vertices, at `w0` and `w1` at the ticks, stray from their chords
    /// at most ([`Arc::deviation`] of each; 0 without rotation).
    pub fn largest(&self, w0: &[[S; 3]; 3], w1: &[[S; 3]; 3]) -> S {
        if !self.turns {
            return S::ZERO;
        }
        let d = |i: usize| self.deviation(w0[i], w1[i]);
        d(0).max(d(1)).max(d(2))
    }

    /// How far any point within a node's spheres strays from its chord (the bound `e` of
    /// [`super::leaf`]): its center's, `track.arc`, plus `θ²/8 r₀ + θ/4 (r₀ + r₁) ≤ (θ²/8 +
    /// θ/2) r` for the point's offset from the center (`r` the larger radius, the track's less
    /// its arc).
    pub fn within(&self, track: &Track<S>) -> S {
        if !self.turns {
            return S::ZERO;
        }
        let r = (track.radius - track.arc).max(S::ZERO);
        let k = self.k1 + self.k2 + self.k2;
        (track.arc + k * r) * (S::ONE + S::from_u32(4) * S::UNIT_ROUNDOFF)
    }

    /// How far a point with world positions `x0`, `x1` at the ticks strays from its chord
    /// over the motion: `θ²/8 |ℓ₀⊥| + θ/4 |Δℓ⊥|` (module docs; 0 without rotation), before the
    /// rounding [`Arc::track`] adds.
    #[inline(always)]
    pub fn deviation(&self, x0: [S; 3], x1: [S; 3]) -> S {
        if !self.turns {
            return S::ZERO;
        }
        let l0 = sub(x0, self.t0);
        let l1 = sub(x1, self.t1);
        let [m0, m1, m2] = self.rel;
        let dl = sub(l1, [dot(m0, l0), dot(m1, l0), dot(m2, l0)]);
        let turn = match self.axis {
            // Only the parts across the axis turn: |x × a| (+ ε |x|₁ for the axis's error).
            Some((a, eps)) => {
                let across = |x: [S; 3]| {
                    let c = cross(x, a);
                    dot(c, c).sqrt() + eps * norm1(x)
                };
                self.k1 * across(l0) + self.k2 * across(dl)
            }
            None => self.k1 * dot(l0, l0).sqrt() + self.k2 * dot(dl, dl).sqrt(),
        };
        let u = S::UNIT_ROUNDOFF;
        let w = norm_inf(x0).max(norm_inf(x1));
        turn * (S::ONE + S::from_u32(16) * u) + S::from_u32(96) * u * w + self.slack
    }

    /// The track of a node from its world spheres at the two ticks (module docs). Cost: a few
    /// comparisons without rotation; two square roots and 9 multiply-adds with it.
    #[inline(always)]
    pub fn track(&self, s0: [S; 4], s1: [S; 4]) -> Track<S> {
        let (c0, c1) = ([s0[0], s0[1], s0[2]], [s1[0], s1[1], s1[2]]);
        let arc = self.deviation(c0, c1);
        let r = s0[3].max(s1[3]) + arc;
        let u = S::UNIT_ROUNDOFF;
        let w = norm_inf(c0).max(norm_inf(c1));
        Track {
            c0,
            radius: r * (S::ONE + S::from_u32(16) * u) + S::from_u32(96) * u * w + self.slack,
            c1,
            arc,
        }
    }
}

/// Below this squared relative speed two tracks are taken as not moving apart or together.
const STILL: f64 = 7.888_609_052_210_118e-31; // 2⁻¹⁰⁰
/// Its square root: how far such a pair moves over the motion at most.
const STILL_ROOT: f64 = 8.881_784_197_001_252e-16; // 2⁻⁵⁰

/// The times `[lo, hi]` within `window` at which two tracks may meet (module docs), `None`
/// when they cannot within it. Never narrower than the exact window; NaN keeps `window`.
#[inline(always)]
pub(super) fn meet<S: Scalar>(a: &Track<S>, b: &Track<S>, [wl, wh]: [S; 2]) -> Option<[S; 2]> {
    let u = S::UNIT_ROUNDOFF;
    let eight = S::from_u32(8) * u;
    let d0 = sub(a.c0, b.c0);
    let v = sub(sub(a.c1, b.c1), d0);
    let r = (a.radius + b.radius) * (S::ONE + eight);
    let (vv, dv, dd) = (dot(v, v), dot(d0, v), dot(d0, d0));
    let x = cross(d0, v);
    let h =
        vv * (r * r + eight * dd) * (S::ONE + eight) - dot(x, x) * (S::ONE - S::from_u32(4) * u);
    if h < S::ZERO {
        return None;
    }
    if !(vv >= S::from_f64(STILL)) {
        let reach = r + S::from_f64(STILL_ROOT);
        return (!(dd > reach * reach)).then_some([wl, wh]);
    }
    let inv = S::ONE / vv;
    let root = h.sqrt();
    let slack = eight * ((vv * dd).sqrt() + dv.abs() + root) * inv + S::from_u32(4) * u;
    let lo = (-dv - root) * inv - slack;
    let hi = (-dv + root) * inv + slack;
    // NaN keeps the window's own end.
    let lo = if lo > wl { lo } else { wl };
    let hi = if hi < wh { hi } else { wh };
    (!(lo > hi)).then_some([lo, hi])
}

/// Whether two tracks may meet at some τ of the motion: the closest point of the relative
/// center's segment to the origin within their reach (no window: cheaper).
#[inline(always)]
pub(super) fn near<S: Scalar>(a: &Track<S>, b: &Track<S>) -> bool {
    let d0 = sub(a.c0, b.c0);
    let v = sub(sub(a.c1, b.c1), d0);
    let s = -dot(d0, v) / dot(v, v);
    // NaN (no relative motion) takes the start.
    let s = if s > S::ZERO { s.min(S::ONE) } else { S::ZERO };
    let p = [d0[0] + s * v[0], d0[1] + s * v[1], d0[2] + s * v[2]];
    let reach = (a.radius + b.radius) * (S::ONE + S::from_u32(8) * S::UNIT_ROUNDOFF);
    !(dot(p, p) > reach * reach)
}

#[cfg(test)]
mod tests {
    use super::super::motion::Motion;
    use super::*;

    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> f64 {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (self.0 >> 11) as f64 / (1u64 << 53) as f64
        }
        fn uniform(&mut self, lo: f64, hi: f64) -> f64 {
            lo + (hi - lo) * self.next()
        }
    }

    /// The exact window of the f32 tracks' own values, in f64 (within [0, 1]), or `None`.
    fn exact(a: &Track<f32>, b: &Track<f32>) -> Option<[f64; 2]> {
        let w = |x: [f32; 3]| x.map(f64::from);
        let (ca0, ca1, cb0, cb1) = (w(a.c0), w(a.c1), w(b.c0), w(b.c1));
        let d0 = [0, 1, 2].map(|k| ca0[k] - cb0[k]);
        let v = [0, 1, 2].map(|k| (ca1[k] - cb1[k]) - d0[k]);
        let r = f64::from(a.radius) + f64::from(b.radius);
        let vv: f64 = v.iter().map(|x| x * x).sum();
        let dv: f64 = (0..3).map(|k| d0[k] * v[k]).sum();
        let dd: f64 = d0.iter().map(|x| x * x).sum();
        if vv == 0.0 {
            return (dd <= r * r).then_some([0.0, 1.0]);
        }
        let h = dv * dv - vv * (dd - r * r);
        if h < 0.0 {
            return None;
        }
        let (lo, hi) = ((-dv - h.sqrt()) / vv, (-dv + h.sqrt()) / vv);
        let (lo, hi) = (lo.max(0.0), hi.min(1.0));
        (lo <= hi).then_some([lo, hi])
    }

    /// The window in f32 always contains the exact one, on random tracks of every scale and
    /// distance from the origin, and on grazing ones (passing at nearly their reach).
    #[test]
    fn windows_contain_the_exact_window() {
        let mut rng = Rng(7);
        let mut cases = [0usize; 2];
        for case in 0..200_000 {
            let scale = 10f64.powf(rng.uniform(-4.0, 3.0));
            let far = if case % 3 == 0 {
                10f64.powf(rng.uniform(0.0, 5.0))
            } else {
                0.0
            };
            let mut p = || [0, 1, 2].map(|_| (far + scale * rng.uniform(-1.0, 1.0)) as f32);
            let (ca0, ca1, cb0) = (p(), p(), p());
            let mut cb1 = p();
            let r = (scale * rng.uniform(0.0, 0.5)) as f32;
            if case % 2 == 0 {
                // Grazing: b moves beside a so that the closest approach is near the reach.
                let d = [0, 1, 2].map(|k| f64::from(ca0[k]) - f64::from(cb0[k]));
                let n = d.iter().map(|x| x * x).sum::<f64>().sqrt().max(1e-30);
                let g = f64::from(r) * 2.0 * rng.uniform(0.98, 1.02) / n;
                cb1 = [0, 1, 2].map(|k| (f64::from(ca1[k]) - d[k] * g) as f32);
            }
            let a = Track {
                c0: ca0,
                radius: r,
                c1: ca1,
                arc: 0.0,
            };
            let b = Track {
                c0: cb0,
                radius: r,
                c1: cb1,
                arc: 0.0,
            };
            let got = meet(&a, &b, [0.0f32, 1.0]);
            match exact(&a, &b) {
                None => cases[0] += 1,
                Some([lo, hi]) => {
                    cases[1] += 1;
                    let [glo, ghi] = got.unwrap_or_else(|| panic!("{a:?} {b:?}: pruned"));
                    assert!(
                        f64::from(glo) <= lo && f64::from(ghi) >= hi,
                        "{a:?} {b:?}: [{glo}, {ghi}] misses [{lo}, {hi}]"
                    );
                }
            }
        }
        assert!(cases[0] > 10_000 && cases[1] > 10_000, "{cases:?}");
    }

    /// The track contains the node at every τ: a rigid body turning about a random axis, the
    /// center of a sphere followed by slerp, in f64.
    #[test]
    fn tracks_follow_turning_centers() {
        let mut rng = Rng(11);
        for _ in 0..2_000 {
            let axis = [0, 1, 2].map(|_| rng.uniform(-1.0, 1.0));
            let n = axis.iter().map(|x| x * x).sum::<f64>().sqrt();
            let angle = rng.uniform(0.0, 3.0);
            let q = |s: f64| {
                let h = 0.5 * angle * s;
                let (sn, cs) = (libm::sin(h), libm::cos(h));
                [cs, sn * axis[0] / n, sn * axis[1] / n, sn * axis[2] / n]
            };
            let t0 = [0, 1, 2].map(|_| rng.uniform(-5.0, 5.0));
            let t1 = [0, 1, 2].map(|_| rng.uniform(-5.0, 5.0));
            let (l0, l1) = (
                [0, 1, 2].map(|_| rng.uniform(-2.0, 2.0)),
                [0, 1, 2].map(|_| rng.uniform(-2.0, 2.0)),
            );
            let pose = |s: f64| {
                let t = [0, 1, 2].map(|k| t0[k] + s * (t1[k] - t0[k]));
                Pose::from_quaternion(q(s), t).expect("pose")
            };
            let (p0, p1) = (pose(0.0), pose(1.0));
            let axis = Motion::new(&p0, &p1).axis();
            let arc = Arc::new(&p0, &p1, angle + 1e-9, axis);
            let (c0, c1) = (p0.apply(l0), p1.apply(l1));
            let track = arc.track([c0[0], c0[1], c0[2], 0.1], [c1[0], c1[1], c1[2], 0.05]);
            for k in 0..=64 {
                let s = f64::from(k) / 64.0;
                let l = [0, 1, 2].map(|i| l0[i] + s * (l1[i] - l0[i]));
                let c = pose(s).apply(l);
                let m = [0, 1, 2].map(|i| track.c0[i] + s * (track.c1[i] - track.c0[i]));
                let d = (0..3).map(|i| (c[i] - m[i]).powi(2)).sum::<f64>().sqrt();
                assert!(d + 0.1 <= track.radius + 1e-12, "{d} vs {}", track.radius);
            }
        }
    }
}
