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
}

impl Scalar for f64 {
    const ZERO: Self = 0.0;
    const ONE: Self = 1.0;
    const UNIT_ROUNDOFF: Self = f64::EPSILON * 0.5;
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
