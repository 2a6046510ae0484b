//! One body's rigid motion between two ticks, in the body's scalar `S`: slerp on the shorter
//! arc and a linear translation, the poses at the dyadic times the leaf test asks for (computed
//! once per query and body, not per triangle), and a bound on the rotation angle.
//!
//! Everything here runs in `S` — no f64 on an f32 body, so no soft double precision on an
//! FPU-less or single-precision core. The rounding this leaves (the quaternions taken from the
//! pose matrices, the series, the slerp's normalisation, the matrix from the quaternion) moves a
//! computed position by a few hundred `u_S` of its magnitude at most; the leaf test's reach
//! covers it with `256 u_S w` ([`super::leaf`]).

// `!(x > y)` is meant: NaN takes the conservative branch.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

use crate::geometry::pose::Pose;
use crate::scalar::Scalar;

/// `sin x` for `x ∈ [0, π/2]` (Taylor series to `x²³`: below one rounding of f64, so below one
/// of f32): `libm`'s `sin` reduces arguments with table lookups the panic check cannot prove in
/// bounds.
pub(super) fn sin_quadrant<S: Scalar>(x: S) -> S {
    let x = x
        .max(S::ZERO)
        .min(S::from_f64(core::f64::consts::FRAC_PI_2));
    let (x2, mut term, mut sum) = (x * x, x, x);
    let mut k = S::ONE;
    let two = S::ONE + S::ONE;
    for _ in 0..11 {
        term = term * -x2 / ((k + S::ONE) * (k + two));
        sum = sum + term;
        k = k + two;
    }
    sum
}

/// `atan2(y, x)` for `x, y ≥ 0` (argument halved twice, then the Taylor series; error below
/// 10⁻¹⁵ in f64, a few `u` in f32), for the same reason as [`sin_quadrant`].
pub(super) fn atan_quadrant<S: Scalar>(y: S, x: S) -> S {
    let (y, x) = (y.max(S::ZERO), x.max(S::ZERO));
    if y > x {
        return S::from_f64(core::f64::consts::FRAC_PI_2) - atan_quadrant(x, y);
    }
    if !(x > S::ZERO) {
        return S::ZERO;
    }
    // r ∈ [0, 1]; atan r = 2 atan(r / (1 + √(1 + r²))), twice: r ≤ tan(π/16) ≈ 0.2.
    let mut r = y / x;
    for _ in 0..2 {
        r = r / (S::ONE + (S::ONE + r * r).sqrt());
    }
    let (r2, mut term, mut sum) = (r * r, r, r);
    for k in 1..20 {
        term = term * -r2;
        sum = sum + term / S::from_i32(2 * k + 1);
    }
    S::from_u32(4) * sum
}

/// A rotation matrix's unit quaternion `(w, x, y, z)` (Shepperd's method: divides by the
/// largest component, at least ½ for a rotation).
pub(super) fn quaternion<S: Scalar>(r: &[[S; 3]; 3]) -> [S; 4] {
    let [[r00, r01, r02], [r10, r11, r12], [r20, r21, r22]] = *r;
    let trace = r00 + r11 + r22;
    let (half, quarter) = (S::from_f64(0.5), S::from_f64(0.25));
    let root = |x: S| half * x.max(S::ZERO).sqrt();
    let q = if trace >= r00.max(r11).max(r22) {
        let w = root(S::ONE + trace);
        let k = quarter / w;
        [w, (r21 - r12) * k, (r02 - r20) * k, (r10 - r01) * k]
    } else if r00 >= r11 && r00 >= r22 {
        let x = root(S::ONE + r00 - r11 - r22);
        let k = quarter / x;
        [(r21 - r12) * k, x, (r01 + r10) * k, (r02 + r20) * k]
    } else if r11 >= r22 {
        let y = root(S::ONE + r11 - r00 - r22);
        let k = quarter / y;
        [(r02 - r20) * k, (r01 + r10) * k, y, (r12 + r21) * k]
    } else {
        let z = root(S::ONE + r22 - r00 - r11);
        let k = quarter / z;
        [(r10 - r01) * k, (r02 + r20) * k, (r12 + r21) * k, z]
    };
    normalized(q)
}

fn normalized<S: Scalar>(q: [S; 4]) -> [S; 4] {
    let n = (q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]).sqrt();
    q.map(|c| c / n)
}

/// Poses kept per body: every `2^-POSE_LEVELS` of the motion (33 poses; deeper levels of the
/// leaf test compute theirs).
pub(super) const POSE_LEVELS: u32 = 5;
const POSES: usize = (1 << POSE_LEVELS) + 1;

/// One body's rigid motion and the poses at dyadic times computed so far.
#[derive(Debug, Clone, Copy)]
pub(super) struct Motion<S: Scalar> {
    q0: [S; 4],
    q1: [S; 4],
    /// Half the rotation angle.
    half: S,
    /// An upper bound of the rotation angle `θ` (π when the poses are not rotations).
    pub theta: S,
    from: Pose<S>,
    to: Pose<S>,
    poses: [Pose<S>; POSES],
    /// Bit `i`: `poses[i]` is computed.
    known: u64,
}

impl<S: Scalar> Motion<S> {
    pub fn new(from: &Pose<S>, to: &Pose<S>) -> Self {
        let q0 = quaternion(&from.rotation);
        let mut q1 = quaternion(&to.rotation);
        let dot4 = |a: &[S; 4], b: &[S; 4]| a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
        let mut d = dot4(&q0, &q1);
        if d < S::ZERO {
            q1 = q1.map(|c| -c);
            d = -d;
        }
        // The angle between the quaternions from its sine (the part of q1 orthogonal to q0) and
        // cosine: accurate near 0, where acos is not.
        let o = [
            q1[0] - d * q0[0],
            q1[1] - d * q0[1],
            q1[2] - d * q0[2],
            q1[3] - d * q0[3],
        ];
        let half = atan_quadrant(dot4(&o, &o).sqrt(), d);
        // The rounding of the quaternions and of `o` (a few u, absolute) and of the series.
        let theta = (half + half) * (S::ONE + S::from_u32(16) * S::UNIT_ROUNDOFF)
            + S::from_u32(64) * S::UNIT_ROUNDOFF;
        let pi = S::from_f64(core::f64::consts::PI);
        let theta = if theta.is_finite() { theta.min(pi) } else { pi };
        let mut motion = Motion {
            q0,
            q1,
            half,
            theta,
            from: *from,
            to: *to,
            poses: [*from; POSES],
            known: 1,
        };
        if let Some(last) = motion.poses.last_mut() {
            *last = *to;
            motion.known |= 1 << (POSES - 1);
        }
        motion
    }

    /// The pose at the start of the motion.
    pub fn from(&self) -> &Pose<S> {
        &self.from
    }

    /// The pose at its end.
    pub fn to(&self) -> &Pose<S> {
        &self.to
    }

    /// The world axis of the rotation from the first pose to the second (the vector part of
    /// `q₁ q₀*`, normalised) and a bound on how far it may be from the exact axis (the
    /// components' rounding, `≤ 32 u` over the sine of half the angle); `None` when the angle
    /// is too small for a useful axis (the bound above 1/8).
    pub fn axis(&self) -> Option<([S; 3], S)> {
        let ([w0, x0, y0, z0], [w1, x1, y1, z1]) = (self.q0, self.q1);
        // w0 v1 − w1 v0 + v0 × v1.
        let v = [
            w0 * x1 - w1 * x0 + (y0 * z1 - z0 * y1),
            w0 * y1 - w1 * y0 + (z0 * x1 - x0 * z1),
            w0 * z1 - w1 * z0 + (x0 * y1 - y0 * x1),
        ];
        let n = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
        let eps = S::from_u32(32) * S::UNIT_ROUNDOFF / n;
        if !(eps <= S::from_f64(0.125)) {
            return None;
        }
        Some((v.map(|c| c / n), eps))
    }

    /// The pose at τ = `k / 2^level`: the body's own poses at 0 and 1, the slerp between
    /// (`None` only for poses that are not rotations).
    pub fn at(&mut self, k: u32, level: u32) -> Option<Pose<S>> {
        if level <= POSE_LEVELS {
            let i = k.checked_shl(POSE_LEVELS - level)? as usize;
            let bit = 1u64.checked_shl(i as u32)?;
            if self.known & bit != 0 {
                return self.poses.get(i).copied();
            }
            let pose = self.slerp(S::from_u32(i as u32) / S::from_u32(1 << POSE_LEVELS))?;
            *self.poses.get_mut(i)? = pose;
            self.known |= bit;
            return Some(pose);
        }
        let scale = S::ONE / S::from_u32(1u32.checked_shl(level)?);
        if k == 0 {
            return Some(self.from);
        }
        if k.checked_shr(level) == Some(1) {
            return Some(self.to);
        }
        self.slerp(S::from_u32(k) * scale)
    }

    /// The slerp at τ ∈ (0, 1).
    fn slerp(&self, tau: S) -> Option<Pose<S>> {
        let s = sin_quadrant(self.half);
        let (w0, w1) = if s > S::from_f64(1e-9) {
            (
                sin_quadrant((S::ONE - tau) * self.half) / s,
                sin_quadrant(tau * self.half) / s,
            )
        } else {
            (S::ONE - tau, tau)
        };
        let (q0, q1) = (self.q0, self.q1);
        let q = [
            w0 * q0[0] + w1 * q1[0],
            w0 * q0[1] + w1 * q1[1],
            w0 * q0[2] + w1 * q1[2],
            w0 * q0[3] + w1 * q1[3],
        ];
        let lerp = |u: S, v: S| (S::ONE - tau) * u + tau * v;
        let (t0, t1) = (self.from.translation, self.to.translation);
        let t = [lerp(t0[0], t1[0]), lerp(t0[1], t1[1]), lerp(t0[2], t1[2])];
        Pose::from_quaternion(normalized(q), t).ok()
    }
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
            // f32: within a few units of the last place.
            let xf = x as f32;
            let e = (f64::from(sin_quadrant(xf)) - libm::sin(f64::from(xf))).abs();
            assert!(e < 4.0 * f64::from(f32::EPSILON), "sin f32 {x}: {e:e}");
            let (yf, zf) = (libm::sinf(xf), libm::cosf(xf));
            let e = (f64::from(atan_quadrant(yf, zf)) - f64::from(xf)).abs();
            assert!(e < 8.0 * f64::from(f32::EPSILON), "atan f32 {x}: {e:e}");
        }
    }

    fn rotation_z<S: Scalar>(angle: f64) -> Pose<S> {
        let (s, c) = (libm::sin(0.5 * angle), libm::cos(0.5 * angle));
        Pose::from_quaternion([c, 0.0, 0.0, s].map(S::from_f64), [S::ZERO; 3]).expect("pose")
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
        let mut m = Motion::new(
            &rotation_z::<f64>(0.0),
            &rotation_z(1.5 * core::f64::consts::PI),
        );
        // The shorter arc is −π/2: halfway is −π/4.
        let mid = m.at(1, 1).expect("pose");
        let x = mid.apply([1.0, 0.0, 0.0]);
        let h = core::f64::consts::FRAC_1_SQRT_2;
        assert!((x[0] - h).abs() < 1e-9 && (x[1] + h).abs() < 1e-9, "{x:?}");
        assert!((m.theta - core::f64::consts::FRAC_PI_2).abs() < 1e-6);
        assert!(m.theta >= core::f64::consts::FRAC_PI_2);
    }

    /// The poses at dyadic times, tabled or not, are the slerp's, and the ends are the bodies'
    /// own poses bit for bit; the angle bound is an upper bound in f32 too.
    #[test]
    fn poses_at_dyadic_times() {
        let (a, b) = (rotation_z::<f32>(0.3), rotation_z::<f32>(1.1));
        let mut m = Motion::new(&a, &b);
        assert_eq!(m.at(0, 3), Some(a));
        assert_eq!(m.at(8, 3), Some(b));
        assert_eq!(m.at(1 << 8, 8), Some(b));
        assert!(f64::from(m.theta) >= 0.8 && f64::from(m.theta) < 0.8 + 1e-5);
        for (k, level) in [(1u32, 1u32), (3, 2), (5, 5), (17, 7), (513, 10)] {
            let tau = f64::from(k) / f64::from(1u32 << level);
            let expected = rotation_z::<f64>(0.3 + 0.8 * tau).apply([1.0, 0.0, 0.0]);
            let got = m.at(k, level).expect("pose").apply([1.0, 0.0, 0.0]);
            for (e, g) in expected.iter().zip(got.iter()) {
                assert!((e - f64::from(*g)).abs() < 1e-6, "τ = {tau}: {got:?}");
            }
            // Asked again (from the table or computed again): the same bits.
            assert_eq!(m.at(k, level), m.at(k, level));
        }
    }

    /// The leaf test's arc bound ([`super::super::leaf`]): over a turn by `φ ≤ π` about a
    /// fixed axis at constant speed, a point on the unit circle is never farther than
    /// `1 − cos φ/2` from the point of its chord at the same fraction (reached at ½), and a
    /// body-frame offset `d` turned by the rest of the interval stays within `φ/4 · |d|`.
    #[test]
    fn the_arc_stays_within_its_bound_of_the_chord() {
        let mut worst = 0.0f64;
        for i in 1..=256 {
            let phi = core::f64::consts::PI * f64::from(i) / 256.0;
            let bound = 1.0 - libm::cos(0.5 * phi);
            for j in 0..=512 {
                let s = f64::from(j) / 512.0;
                let (x, y) = (libm::cos(s * phi), libm::sin(s * phi));
                let (cx, cy) = ((1.0 - s) + s * libm::cos(phi), s * libm::sin(phi));
                let d = libm::hypot(x - cx, y - cy);
                worst = worst.max(d / bound);
                // |R(τ) − R_b| |d| with R(τ) − R_b a turn by (1 − s) φ, weighted by s.
                let second = s * 2.0 * libm::sin(0.5 * (1.0 - s) * phi);
                assert!(second <= 0.25 * phi * (1.0 + 1e-12), "φ {phi}, s {s}");
            }
        }
        assert!(worst <= 1.0 + 1e-9, "{worst}");
    }
}
