//! The scalar types the kernel runs in, and every float operation it uses.
//!
//! All float math of the kernel goes through [`Scalar`] so that host and target compute the same
//! thing: `sqrt` is `libm`'s correctly rounded routine on every target (never an inherent method
//! that would differ between std and no_std builds, and never an approximation that could
//! under-estimate a bound).

use core::fmt::Debug;
use core::ops::{Add, Div, Mul, Neg, Sub};

mod sealed {
    pub trait Sealed {}
    impl Sealed for f32 {}
    impl Sealed for f64 {}
}

/// A floating-point scalar the kernel can run in: `f32` (microcontrollers) or `f64` (hosts).
///
/// Sealed: the error bounds of the kernel are derived for IEEE 754 binary32 and binary64 with
/// round-to-nearest, and hold for exactly these two types.
pub trait Scalar:
    sealed::Sealed
    + Copy
    + Default
    + Debug
    + PartialOrd
    + bytemuck::Pod
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Neg<Output = Self>
    + 'static
{
    /// 0.
    const ZERO: Self;
    /// 1.
    const ONE: Self;
    /// The unit roundoff `u` (half the machine epsilon): `2⁻²⁴` for f32, `2⁻⁵³` for f64. Every
    /// basic operation is exact up to a factor `(1 + θ)`, `|θ| ≤ u`.
    const UNIT_ROUNDOFF: Self;
    /// The largest magnitude a body's state may give its coordinates (`X₀ + Σ_j A_j |q_j| +
    /// ‖t‖∞`, see [`crate::Body::set_state`]): 2³⁰ for f32, 2²⁵⁰ for f64. Below it every product
    /// the queries form (up to fourth powers of a coordinate difference, with small factors)
    /// stays finite, so no infinity or NaN can reach a comparison that decides a contact.
    const STATE_LIMIT: Self;
    /// Size in bytes; the scalar tag of a tree image.
    const BYTES: u32;
    /// Name for messages: `"f32"` or `"f64"`.
    const NAME: &'static str;

    /// Rounds an f64 to the nearest value of this type.
    fn from_f64(x: f64) -> Self;
    /// Widens (exactly) to f64.
    fn to_f64(self) -> f64;
    /// Converts a small integer (exact for values below 2²⁴).
    fn from_u32(n: u32) -> Self;
    /// Converts a small signed integer (exact for magnitudes below 2²⁴).
    fn from_i32(n: i32) -> Self;
    /// Widens (exactly) from f32.
    fn from_f32(x: f32) -> Self;
    /// Absolute value.
    fn abs(self) -> Self;
    /// Neither infinite nor NaN.
    fn is_finite(self) -> bool;
    /// Correctly rounded square root (`libm`).
    fn sqrt(self) -> Self;
    /// Truncated toward zero to an integer, saturating at 0 and `u32::MAX`; NaN gives 0 (the
    /// `as` conversion, one instruction on an FPU: no double precision on an f32 target).
    fn trunc_u32(self) -> u32;
    /// A square root for ordering keys only, never for a bound: [`Scalar::sqrt`], except for
    /// f32 with the `micromath` feature, where it is micromath's bit approximation (for normal
    /// inputs within [`MICROMATH_SQRT_LOW`, `MICROMATH_SQRT_HIGH`] of the true root, measured
    /// over every f32 by this module's tests; finite for an infinite input).
    #[inline]
    fn sqrt_key(self) -> Self {
        self.sqrt()
    }
    /// The larger of two values (the other one if either is NaN).
    #[inline]
    fn max(self, other: Self) -> Self {
        if other > self {
            other
        } else {
            self
        }
    }
    /// The smaller of two values.
    #[inline]
    fn min(self, other: Self) -> Self {
        if other < self {
            other
        } else {
            self
        }
    }
}

impl Scalar for f32 {
    const ZERO: Self = 0.0;
    const ONE: Self = 1.0;
    const UNIT_ROUNDOFF: Self = f32::EPSILON * 0.5;
    const STATE_LIMIT: Self = 1_073_741_824.0;
    const BYTES: u32 = 4;
    const NAME: &'static str = "f32";

    #[inline]
    fn from_f64(x: f64) -> Self {
        x as f32
    }
    #[inline]
    fn to_f64(self) -> f64 {
        f64::from(self)
    }
    #[inline]
    fn from_u32(n: u32) -> Self {
        n as f32
    }
    #[inline]
    fn from_i32(n: i32) -> Self {
        n as f32
    }
    #[inline]
    fn from_f32(x: f32) -> Self {
        x
    }
    #[inline]
    fn abs(self) -> Self {
        f32::from_bits(self.to_bits() & 0x7fff_ffff)
    }
    #[inline]
    fn is_finite(self) -> bool {
        f32::is_finite(self)
    }
    #[inline]
    fn sqrt(self) -> Self {
        libm::sqrtf(self)
    }
    #[inline]
    fn trunc_u32(self) -> u32 {
        self as u32
    }
    #[cfg(feature = "micromath")]
    #[inline]
    fn sqrt_key(self) -> Self {
        // micromath maps −0 to a large number; zero, negative and NaN inputs take libm's path.
        if self > 0.0 {
            micromath::F32(self).sqrt().0
        } else {
            self.sqrt()
        }
    }
}

/// The least ratio of micromath's square root to the true one over the normal f32 inputs
/// (`1 − 2⁻²³`: exact at even powers of two, at most one ulp low elsewhere).
pub const MICROMATH_SQRT_LOW: f64 = 1.0 - 1.0 / 8_388_608.0;
/// The largest ratio of micromath's square root to the true one over the normal f32 inputs
/// (`1.0607`: 6.07 % high near 2·4ᵏ).
pub const MICROMATH_SQRT_HIGH: f64 = 1.0607;

impl Scalar for f64 {
    const ZERO: Self = 0.0;
    const ONE: Self = 1.0;
    const UNIT_ROUNDOFF: Self = f64::EPSILON * 0.5;
    const STATE_LIMIT: Self = f64::from_bits((1023 + 250) << 52);
    const BYTES: u32 = 8;
    const NAME: &'static str = "f64";

    #[inline]
    fn from_f64(x: f64) -> Self {
        x
    }
    #[inline]
    fn to_f64(self) -> f64 {
        self
    }
    #[inline]
    fn from_u32(n: u32) -> Self {
        f64::from(n)
    }
    #[inline]
    fn from_i32(n: i32) -> Self {
        f64::from(n)
    }
    #[inline]
    fn from_f32(x: f32) -> Self {
        f64::from(x)
    }
    #[inline]
    fn abs(self) -> Self {
        f64::from_bits(self.to_bits() & 0x7fff_ffff_ffff_ffff)
    }
    #[inline]
    fn is_finite(self) -> bool {
        f64::is_finite(self)
    }
    #[inline]
    fn sqrt(self) -> Self {
        libm::sqrt(self)
    }
    #[inline]
    fn trunc_u32(self) -> u32 {
        self as u32
    }
}

/// `a · b` for 3-vectors.
#[inline]
pub(crate) fn dot<S: Scalar>(a: [S; 3], b: [S; 3]) -> S {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

/// `a − b` for 3-vectors.
#[inline]
pub(crate) fn sub<S: Scalar>(a: [S; 3], b: [S; 3]) -> [S; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

/// `a + b` for 3-vectors.
#[inline]
pub(crate) fn add<S: Scalar>(a: [S; 3], b: [S; 3]) -> [S; 3] {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

/// `s a` for a 3-vector.
#[inline]
pub(crate) fn scale<S: Scalar>(a: [S; 3], s: S) -> [S; 3] {
    [a[0] * s, a[1] * s, a[2] * s]
}

/// `‖a − b‖²` for 3-vectors.
#[inline]
pub(crate) fn distance2<S: Scalar>(a: [S; 3], b: [S; 3]) -> S {
    let d = sub(a, b);
    dot(d, d)
}

/// `a × b` for 3-vectors.
#[inline]
pub(crate) fn cross<S: Scalar>(a: [S; 3], b: [S; 3]) -> [S; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

/// `|a|₁`.
#[inline]
pub(crate) fn norm1<S: Scalar>(a: [S; 3]) -> S {
    a[0].abs() + a[1].abs() + a[2].abs()
}

/// `|a|∞`.
#[inline]
pub(crate) fn norm_inf<S: Scalar>(a: [S; 3]) -> S {
    a[0].abs().max(a[1].abs()).max(a[2].abs())
}

#[cfg(all(test, feature = "micromath"))]
mod micromath_tests {
    use super::*;

    /// micromath's square root against the true one over every f32 bit pattern: the ratio on
    /// normal inputs lies in [`MICROMATH_SQRT_LOW`, `MICROMATH_SQRT_HIGH`] and reaches both
    /// ends; zero stays zero, negative inputs and NaN give NaN, subnormal and infinite inputs
    /// give finite keys that keep the order of the normal ones around them (monotone).
    #[test]
    fn micromath_sqrt_error_over_every_f32() {
        let (mut low, mut high) = (f64::INFINITY, 0.0f64);
        let mut previous = 0.0f32;
        for bits in 0..=u32::MAX {
            let x = f32::from_bits(bits);
            let key = x.sqrt_key();
            if x.is_nan() || x < 0.0 {
                assert!(key.is_nan(), "{x:e} → {key:e}");
                continue;
            }
            if x == 0.0 {
                assert_eq!(key, 0.0, "{x:e}");
                continue;
            }
            // Keys of non-negative inputs in bit order never decrease.
            assert!(key >= previous, "{x:e} → {key:e} < {previous:e}");
            previous = key;
            assert!(key.is_finite(), "{x:e} → {key:e}");
            if x.is_normal() {
                let ratio = f64::from(key) / f64::from(x).sqrt();
                low = low.min(ratio);
                high = high.max(ratio);
            }
        }
        assert!(low >= MICROMATH_SQRT_LOW, "low {low}");
        assert!(high <= MICROMATH_SQRT_HIGH, "high {high}");
        // The constants are the measured extremes, not loose guesses.
        assert!(low < 1.0 && high > 1.0606, "low {low}, high {high}");
    }
}
