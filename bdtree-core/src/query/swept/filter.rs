//! The coplanarity filter of the swept leaf: which part of a window two moving triangles
//! cannot touch in, from the signs of their 15 vertex–face and edge–edge primitives' cubics
//! (the deforming non-penetration filters of Tang, Manocha and Tong 2010, with the Bernstein
//! sign bounds of Tang et al. 2014).
//!
//! # The cubics
//!
//! Over a window `[lo, hi]` every vertex moves on the chord between its positions at `lo` and
//! `hi` (`s ∈ [0, 1]` along it), up to `r` (the arc bound, the rounding: [`super::leaf`]). For a
//! vertex `p` and a face `(b₀, b₁, b₂)` of the other triangle, the signed volume
//! `f(s) = det(b₁ − b₀, b₂ − b₀, p − b₀)`, and for an edge `(a₀, a₁)` against an edge
//! `(b₀, b₁)`, `f(s) = det(a₁ − a₀, b₁ − b₀, b₀ − a₀)`, are cubics in `s`: the determinant of
//! three vectors `u, v, w` each linear in `s`. In Bernstein form their coefficients are
//!
//! ```text
//! B₀ = det(u₀, v₀, w₀)                       B₃ = det(u₁, v₁, w₁)
//! 3B₁ = (n₁₀ + n₀₁)·w₀ + n₀₀·w₁              3B₂ = n₁₁·w₀ + (n₁₀ + n₀₁)·w₁,   nⱼₖ = uⱼ × vₖ
//! ```
//!
//! and the cubic lies in their convex hull: above the line from `(0, B₀)` with the least slope
//! `σ = min(3(B₁ − B₀), 3/2 (B₂ − B₀), B₃ − B₀)` to the other control points (below it when
//! `B₀ < 0`, with the greatest slope).
//!
//! # Why that bounds contact
//!
//! Two triangles apart just before a time `t*` and touching at `t*` touch there at a vertex and
//! a face or at two edges, whose four points are then coplanar: one of the 15 cubics is zero.
//! So if the triangles are apart at `lo` (or cannot touch before it: the window of their
//! tracks starts later, [`super::track`]) and no cubic can vanish on `[lo, t)`, they cannot
//! touch before `t`. And where the three vertices of one triangle keep one strict sign against
//! the other's face over the whole window, that triangle stays on one side of the other's
//! plane: apart throughout, whatever they did before.
//!
//! # Rounding and the bound `r`
//!
//! Each vertex of the true motion is within `r` of its chord, so each difference vector is
//! within `D = 2r` of its chord's, and with `L` bounding every difference vector's length
//! (the 1-norm of the extent of the six vertices, at either end; the chords lie between),
//! a true determinant differs from the chords' by at most `D (3L² + 3LD + D²)`. The computed
//! coefficients (differences of coordinates: relative rounding; two products, sums) and the
//! hull's slopes are within `64 u L³` of the exact ones of the computed vectors (about 22 are
//! needed). A cubic is taken as nonzero only where
//! its hull is beyond the sum `m` of both (times `1 + 8u`), and a crossing time is shortened by
//! `8u` relative and `4u` absolute, as the advancement's ([`super::leaf`]). NaN clears nothing.
//!
//! Cost: 24 cross products, 84 dot products and a few comparisons per pair (~1,300 flops);
//! it stops at the first cubic that may vanish at `lo`.
//!
//! **Measured (issue 51): it does not pay on the swept fixtures.** Called on every leaf pair
//! the one-step test leaves, over the window on the motion's chords, it cleared none of them
//! (tunnel, plate, flap): a vertex–face cubic may vanish at the window's start in nearly every
//! call — the pairs that reach it are mostly pairs that touch, and the rotation's arc bound
//! `r` widens every margin. Callgrind, swept phase, whole scene: tunnel 32.58 M → 37.09 M,
//! plate 20.15 M → 22.33 M, flap 69.65 M → 79.27 M; per segment piece instead, tunnel
//! 47.34 M, plate 25.03 M.

// `!(x > y)` is meant: NaN takes the conservative branch.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

use crate::scalar::{add, cross, dot, sub, Scalar};

type V<S> = [S; 3];
type Tri<S> = [V<S>; 3];

/// One cubic's verdict over the window (window-local `s`): the sign it keeps at the start
/// (0: it may vanish there), whether it keeps it throughout, and the earliest `s` it may
/// vanish at (at least 1 when throughout).
#[derive(Clone, Copy)]
struct Sign<S> {
    sign: i8,
    throughout: bool,
    from: S,
}

/// The verdict on the cubic of `det(u, v, w)`, given `n = [n₀₀, n₁₀ + n₀₁, n₁₁]` and `w` at
/// both ends, against the margin `m` (module docs).
#[inline(always)]
fn cubic<S: Scalar>(n: &[V<S>; 3], w: [V<S>; 2], m: S) -> Sign<S> {
    let b0 = dot(n[0], w[0]);
    let b3 = dot(n[2], w[1]);
    let c1 = dot(n[1], w[0]) + dot(n[0], w[1]);
    let c2 = dot(n[2], w[0]) + dot(n[1], w[1]);
    let three = S::from_u32(3);
    // 3B₁, 3B₂ as computed; the slopes to them from B₀.
    let slopes = |b0: S, c1: S, c2: S, b3: S| {
        let s1 = c1 - three * b0;
        let s2 = (c2 - three * b0) * S::from_f64(0.5);
        let s3 = b3 - b0;
        (s1.min(s2).min(s3), c1.min(c2).min(three * b3))
    };
    let (sign, lead, slope, least) = if b0 > m {
        let (slope, least) = slopes(b0, c1, c2, b3);
        (1, b0, slope, least * S::from_f64(1.0 / 3.0))
    } else if -b0 > m {
        let (slope, least) = slopes(-b0, -c1, -c2, -b3);
        (-1, -b0, slope, least * S::from_f64(1.0 / 3.0))
    } else {
        return Sign {
            sign: 0,
            throughout: false,
            from: S::ZERO,
        };
    };
    // Every control point beyond the margin: throughout (the third of 3B rounds: 2u of m's 8u).
    let throughout = least > m * (S::ONE + S::from_u32(2) * S::UNIT_ROUNDOFF);
    let from = if throughout || !(slope < S::ZERO) {
        S::ONE
    } else {
        let u = S::UNIT_ROUNDOFF;
        // Where the hull's lower line reaches the margin, shortened by its rounding.
        (lead - m) / -slope * (S::ONE - S::from_u32(8) * u) - S::from_u32(4) * u
    };
    Sign {
        sign,
        throughout,
        from,
    }
}

/// `[u₀ × v₀, u₁ × v₀ + u₀ × v₁, u₁ × v₁]`.
#[inline(always)]
fn normals<S: Scalar>(u: [V<S>; 2], v: [V<S>; 2]) -> [V<S>; 3] {
    [
        cross(u[0], v[0]),
        add(cross(u[1], v[0]), cross(u[0], v[1])),
        cross(u[1], v[1]),
    ]
}

/// The three vertices of `p` against the face `f` (both at the window's two ends): the
/// earliest `s` one may reach the face's plane, and whether all three stay on one side of it
/// throughout (then the triangles are apart throughout) or at the start.
#[inline(always)]
fn side<S: Scalar>(p: [&Tri<S>; 2], f: [&Tri<S>; 2], m: S) -> (S, bool, bool) {
    let u = [sub(f[0][1], f[0][0]), sub(f[1][1], f[1][0])];
    let v = [sub(f[0][2], f[0][0]), sub(f[1][2], f[1][0])];
    let n = normals(u, v);
    let mut from = S::ONE;
    let (mut signs, mut throughout) = (0i8, true);
    for i in 0..3 {
        let w = [sub(p[0][i], f[0][0]), sub(p[1][i], f[1][0])];
        let c = cubic(&n, w, m);
        from = from.min(c.from);
        signs += c.sign;
        throughout &= c.throughout;
    }
    let one_side = signs == 3 || signs == -3;
    (from, one_side && throughout, one_side)
}

/// The earliest time of `[lo, hi]` at which the triangles may touch as far as their cubics
/// tell (module docs), or `None` when they cannot touch in it: `a`, `b` the triangles at `lo`
/// and `hi`, every true vertex within `r` of its chord between them. `before`: the triangles
/// cannot touch before `lo` (their tracks' window starts after the motion's start); otherwise
/// they must be shown apart at `lo`, by a side of one triangle against the other's face, for
/// anything past `lo` to be cleared.
pub(super) fn earliest<S: Scalar>(
    a: [&Tri<S>; 2],
    b: [&Tri<S>; 2],
    [lo, hi]: [S; 2],
    before: bool,
    r: S,
) -> Option<S> {
    // L: the 1-norm of the six vertices' extent at either end.
    let extent = |x: &Tri<S>, y: &Tri<S>| {
        let mut l = S::ZERO;
        for k in 0..3 {
            let (mut lo, mut hi) = (x[0][k], x[0][k]);
            for p in x.iter().chain(y.iter()) {
                lo = lo.min(p[k]);
                hi = hi.max(p[k]);
            }
            l = l + (hi - lo);
        }
        l
    };
    let u = S::UNIT_ROUNDOFF;
    let l = extent(a[0], b[0]).max(extent(a[1], b[1])) * (S::ONE + S::from_u32(4) * u);
    let d = r + r;
    let three = S::from_u32(3);
    let m = (d * (three * l * l + three * l * d + d * d) + S::from_u32(64) * u * l * l * l)
        * (S::ONE + S::from_u32(8) * u);
    let (from_a, apart_a, start_a) = side(a, b, m);
    if apart_a {
        return None;
    }
    let (from_b, apart_b, start_b) = side(b, a, m);
    if apart_b {
        return None;
    }
    if !(before || start_a || start_b) {
        return Some(lo);
    }
    let mut from = from_a.min(from_b);
    if !(from > S::ZERO) {
        return Some(lo);
    }
    // The nine edge pairs.
    let edge = |t: [&Tri<S>; 2], i: usize| {
        let j = (i + 1) % 3;
        [sub(t[0][j], t[0][i]), sub(t[1][j], t[1][i])]
    };
    for i in 0..3 {
        let ea = edge(a, i);
        for j in 0..3 {
            let n = normals(ea, edge(b, j));
            let w = [sub(b[0][j], a[0][i]), sub(b[1][j], a[1][i])];
            from = from.min(cubic(&n, w, m).from);
            if !(from > S::ZERO) {
                return Some(lo);
            }
        }
    }
    if from >= S::ONE {
        return None;
    }
    let t = lo + (hi - lo) * from * (S::ONE - S::from_u32(4) * u) - S::from_u32(4) * u;
    Some(if t > lo { t } else { lo })
}

#[cfg(test)]
mod tests {
    use super::super::leaf::{first_contact, Path};
    use super::super::motion::Motion;
    use super::*;
    use crate::geometry::pose::Pose;
    use crate::geometry::triangle::triangles_may_intersect;
    use crate::scalar::norm_inf;

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

    /// A pair's triangles at the two ticks (each vertex on its chord).
    type Case = [[Tri<f64>; 2]; 2];

    /// The leaf's tolerance and extent for a case in `S`: `256 u w`, as the query's.
    fn in_s<S: Scalar>(c: &Case) -> ([[Tri<S>; 2]; 2], S, S) {
        let t = c.map(|p| p.map(|t| t.map(|v| v.map(S::from_f64))));
        let w = t
            .iter()
            .flat_map(|p| p.iter().flat_map(|t| t.iter()))
            .fold(S::ZERO, |m, &v| m.max(norm_inf(v)));
        (t, S::from_u32(256) * S::UNIT_ROUNDOFF * w, w)
    }

    /// The advancement alone (`filtered`: after the cubics) over the whole motion.
    fn finder<S: Scalar>(c: &Case, filtered: bool) -> Option<f64> {
        let ([[a0, a1], [b0, b1]], tolerance, w) = in_s::<S>(c);
        if filtered {
            let r = super::super::leaf::need(tolerance, w);
            let from = earliest([&a0, &a1], [&b0, &b1], [S::ZERO, S::ONE], false, r)?;
            return run(a0, a1, b0, b1, [from, S::ONE], tolerance, w);
        }
        run(a0, a1, b0, b1, [S::ZERO, S::ONE], tolerance, w)
    }

    fn run<S: Scalar>(
        a0: Tri<S>,
        a1: Tri<S>,
        b0: Tri<S>,
        b1: Tri<S>,
        window: [S; 2],
        tolerance: S,
        w: S,
    ) -> Option<f64> {
        let still = Pose::<S>::identity();
        let (mut ma, mut mb) = (Motion::new(&still, &still), Motion::new(&still, &still));
        let mut pa = Path::new(a0, a1, S::ZERO, &mut ma, S::ONE);
        let mut pb = Path::new(b0, b1, S::ZERO, &mut mb, S::ONE);
        first_contact(&mut pa, &mut pb, window, tolerance, w)
            .expect("state")
            .map(S::to_f64)
    }

    /// The first of 2,049 instants at which the triangles (the `S` ends, moved in f64) meet.
    fn sampled<S: Scalar>(c: &Case) -> Option<f64> {
        let ([[a0, a1], [b0, b1]], _, _) = in_s::<S>(c);
        let f = |t: Tri<S>| t.map(|v| v.map(S::to_f64));
        let (a0, a1, b0, b1) = (f(a0), f(a1), f(b0), f(b1));
        let at = |p: &Tri<f64>, q: &Tri<f64>, s: f64| {
            [0, 1, 2].map(|i| [0, 1, 2].map(|k| p[i][k] + s * (q[i][k] - p[i][k])))
        };
        (0..=2048)
            .map(|k| f64::from(k) / 2048.0)
            .find(|&s| triangles_may_intersect(&at(&a0, &a1, s), &at(&b0, &b1, s), 0.0))
    }

    fn triangle(rng: &mut Rng, o: [f64; 3], size: f64) -> Tri<f64> {
        [0, 1, 2].map(|_| [0, 1, 2].map(|k| o[k] + size * rng.uniform(-1.0, 1.0)))
    }

    /// Random pairs moving on chords (deforming: each vertex its own), at unit and
    /// millimetre scale, near the origin and 1 km out, in f32 and f64: the filtered leaf
    /// never reports later than the first sampled instant of contact, nor misses a pair, and
    /// reports at least as late as the advancement alone.
    #[test]
    fn the_filtered_leaf_against_the_unfiltered_finder_and_sampling() {
        let mut rng = Rng(51);
        let (mut touching, mut cleared, mut later) = (0usize, 0usize, 0usize);
        for case in 0..6_000 {
            let scale = if case % 2 == 0 { 1.0 } else { 1e-3 };
            let far = if case % 3 == 0 { 1e3 } else { 0.0 };
            let o = [far, -0.7 * far, 0.3 * far];
            let near = |rng: &mut Rng, c: [f64; 3], d: f64| {
                [0, 1, 2].map(|k| c[k] + scale * d * rng.uniform(-1.0, 1.0))
            };
            let ca = near(&mut rng, o, 0.5);
            let cb = near(&mut rng, o, 0.5);
            let a0 = triangle(&mut rng, ca, scale);
            let b0 = triangle(&mut rng, cb, scale);
            // Each vertex moves on its own: a translation of up to the size, and a wobble.
            let go = near(&mut rng, [0.0; 3], 1.5);
            let mv = |rng: &mut Rng, t: &Tri<f64>, g: [f64; 3]| {
                t.map(|v| [0, 1, 2].map(|k| v[k] + g[k] + scale * 0.2 * rng.uniform(-1.0, 1.0)))
            };
            let a1 = mv(&mut rng, &a0, go);
            let b1 = mv(&mut rng, &b0, [0.0; 3]);
            let c: Case = [[a0, a1], [b0, b1]];
            for precision in 0..2 {
                if precision == 0 && far > 0.0 && scale < 1.0 {
                    // f32 1 km out at millimetre scale: the tolerance is the parts' size.
                    continue;
                }
                let (truth, plain, filtered) = if precision == 0 {
                    (
                        sampled::<f32>(&c),
                        finder::<f32>(&c, false),
                        finder::<f32>(&c, true),
                    )
                } else {
                    (
                        sampled::<f64>(&c),
                        finder::<f64>(&c, false),
                        finder::<f64>(&c, true),
                    )
                };
                if let Some(t) = truth {
                    touching += 1;
                    let got = filtered.unwrap_or_else(|| panic!("case {case}: missed ({t})"));
                    assert!(got <= t, "case {case}: {got} after the sampled {t}");
                    let plain = plain.unwrap_or_else(|| panic!("case {case}: finder missed"));
                    assert!(plain <= t, "case {case}: the finder {plain} after {t}");
                }
                match (plain, filtered) {
                    (Some(_), None) => cleared += 1,
                    (Some(p), Some(f)) if f > p => later += 1,
                    _ => {}
                }
            }
        }
        assert!(touching > 1_000, "{touching} touching");
        extern crate std;
        std::println!("touching {touching}, cleared {cleared}, later {later}");
    }

    /// Exact touching at a tick or between them (dyadic coordinates): a vertex coming to
    /// rest on a face, an edge onto an edge, a face sliding onto a face, a triangle already
    /// through the other at the start. Never cleared, never later than the touch.
    #[test]
    fn exact_touching_is_kept() {
        let face = [[0.0, 0.0, 0.0], [4.0, 0.0, 0.0], [0.0, 4.0, 0.0]];
        let still = [face, face];
        let lift = |t: &Tri<f64>, z: f64| t.map(|v| [v[0], v[1], v[2] + z]);
        let tip = [[1.0, 1.0, 0.0], [1.5, 1.0, 1.0], [1.0, 1.5, 1.0]];
        let edge = [[1.0, -1.0, 0.0], [1.0, 1.0, 0.0], [1.25, 0.0, 2.0]];
        let flat = [[0.5, 0.5, 0.0], [1.5, 0.5, 0.0], [0.5, 1.5, 0.0]];
        let through = [[1.0, 1.0, -1.0], [1.5, 1.0, 1.0], [1.0, 1.5, 1.0]];
        for (what, moving, touch) in [
            ("vertex onto face at the end", [lift(&tip, 1.0), tip], 1.0),
            (
                "vertex through face at ½",
                [lift(&tip, 1.0), lift(&tip, -1.0)],
                0.5,
            ),
            ("edge onto edge at the end", [lift(&edge, 0.5), edge], 1.0),
            ("face onto face at the end", [lift(&flat, 0.25), flat], 1.0),
            ("touching at the start", [tip, lift(&tip, 1.0)], 0.0),
            ("through at the start", [through, lift(&through, 3.0)], 0.0),
        ] {
            for scale in [1.0, 1e-3] {
                for far in [0.0, 1024.0] {
                    let s = |t: &Tri<f64>| t.map(|v| v.map(|x| far + scale * x));
                    let c: Case = [[s(&moving[0]), s(&moving[1])], [s(&still[0]), s(&still[1])]];
                    let t64 = finder::<f64>(&c, true);
                    let t32 = finder::<f32>(&c, true);
                    for t in [t64, t32] {
                        let t = t.unwrap_or_else(|| panic!("{what} ({scale}, {far}): cleared"));
                        assert!(t <= touch, "{what} ({scale}, {far}): {t} after {touch}");
                    }
                }
            }
        }
    }
}
