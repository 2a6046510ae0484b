//! Rigid poses: world point `y = R x + t`.

use crate::scalar::Scalar;

/// A rigid pose: rotation matrix and translation. World point `y = R x + t`.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Pose<S: Scalar> {
    /// Rotation matrix, row-major: `y_r = Σ_c rotation[r][c] x_c + translation[r]`.
    pub rotation: [[S; 3]; 3],
    /// Translation.
    pub translation: [S; 3],
}

/// How far a rotation quaternion's norm may be from 1: `| ‖q‖ − 1 | ≤ 10⁻⁶`, on every surface
/// (the kernel's [`Pose::from_quaternion`] and so the C API, scene files, the CLI and Python).
///
/// A quaternion is normalised before use, so the tolerance is not about accuracy: it catches a
/// quaternion that is not one (a scaled one, Euler angles, a matrix row) while accepting every
/// unit quaternion rounded to f32 and normalised there (`| ‖q‖ − 1 |` is then a few 10⁻⁷).
pub const QUATERNION_TOLERANCE: f64 = 1e-6;
// `PoseError::NotUnit`'s message writes the tolerance as text.
const _: () = assert!(QUATERNION_TOLERANCE == 1e-6);

/// Why a quaternion or translation was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum PoseError {
    /// A NaN or infinite component.
    NonFinite,
    /// The quaternion's norm is further than [`QUATERNION_TOLERANCE`] from 1: probably not a
    /// rotation.
    NotUnit,
}

impl core::fmt::Display for PoseError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Self::NonFinite => write!(f, "pose has a non-finite component"),
            // The tolerance as text: formatting an f64 would link the float formatter (~15 KB
            // of flash) into every firmware that prints this error.
            Self::NotUnit => write!(
                f,
                "rotation quaternion is not of unit length (| ‖q‖ − 1 | > 1e-6)"
            ),
        }
    }
}

impl core::error::Error for PoseError {}

impl<S: Scalar> Pose<S> {
    /// The identity pose.
    pub fn identity() -> Self {
        let (o, i) = (S::ZERO, S::ONE);
        Self {
            rotation: [[i, o, o], [o, i, o], [o, o, i]],
            translation: [o; 3],
        }
    }

    /// A pose from a unit quaternion `(w, x, y, z)` and a translation.
    ///
    /// The quaternion is normalised before use, so the rounding of a unit quaternion stored in
    /// f32 costs nothing; one whose norm is further than [`QUATERNION_TOLERANCE`] from 1 is
    /// refused as a likely mistake (the test is on the squared norm, in `S`: within a few
    /// rounding units of `(1 ± 10⁻⁶)²`).
    pub fn from_quaternion(q: [S; 4], translation: [S; 3]) -> Result<Self, PoseError> {
        if q.iter().chain(translation.iter()).any(|v| !v.is_finite()) {
            return Err(PoseError::NonFinite);
        }
        let n2 = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
        let low = S::from_f64((1.0 - QUATERNION_TOLERANCE) * (1.0 - QUATERNION_TOLERANCE));
        let high = S::from_f64((1.0 + QUATERNION_TOLERANCE) * (1.0 + QUATERNION_TOLERANCE));
        // The components are finite, so n2 is finite or +inf, never NaN.
        if !(n2 >= low && n2 <= high) {
            return Err(PoseError::NotUnit);
        }
        let inv = S::ONE / n2.sqrt();
        let [w, x, y, z] = [q[0] * inv, q[1] * inv, q[2] * inv, q[3] * inv];
        let two = S::ONE + S::ONE;
        let rotation = [
            [
                S::ONE - two * (y * y + z * z),
                two * (x * y - w * z),
                two * (x * z + w * y),
            ],
            [
                two * (x * y + w * z),
                S::ONE - two * (x * x + z * z),
                two * (y * z - w * x),
            ],
            [
                two * (x * z - w * y),
                two * (y * z + w * x),
                S::ONE - two * (x * x + y * y),
            ],
        ];
        Ok(Self {
            rotation,
            translation,
        })
    }

    /// `R x + t`: 9 multiply-adds.
    #[inline]
    pub fn apply(&self, x: [S; 3]) -> [S; 3] {
        let r = &self.rotation;
        let t = self.translation;
        [
            r[0][0] * x[0] + r[0][1] * x[1] + r[0][2] * x[2] + t[0],
            r[1][0] * x[0] + r[1][1] * x[1] + r[1][2] * x[2] + t[1],
            r[2][0] * x[0] + r[2][1] * x[1] + r[2][2] * x[2] + t[2],
        ]
    }

    /// `R x`: a direction (a normal, an axis) turned by the pose, without its translation.
    #[inline]
    pub fn rotate(&self, x: [S; 3]) -> [S; 3] {
        let r = &self.rotation;
        [
            r[0][0] * x[0] + r[0][1] * x[1] + r[0][2] * x[2],
            r[1][0] * x[0] + r[1][1] * x[1] + r[1][2] * x[2],
            r[2][0] * x[0] + r[2][1] * x[1] + r[2][2] * x[2],
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `(w, 0, 0, 0)` with `w` this far from 1, in `S`.
    fn off<S: Scalar>(by: f64) -> Result<Pose<S>, PoseError> {
        Pose::from_quaternion(
            [S::from_f64(1.0 + by), S::ZERO, S::ZERO, S::ZERO],
            [S::ZERO; 3],
        )
    }

    #[test]
    fn quaternion_tolerance_is_one_for_both_precisions() {
        for by in [0.0, 5e-7, -5e-7, 9e-7, -9e-7] {
            assert!(off::<f64>(by).is_ok(), "f64 {by}");
            assert!(off::<f32>(by).is_ok(), "f32 {by}");
        }
        for by in [1.2e-6, -1.2e-6, 1e-3, -1e-3, 1.0] {
            assert_eq!(off::<f64>(by), Err(PoseError::NotUnit), "f64 {by}");
            assert_eq!(off::<f32>(by), Err(PoseError::NotUnit), "f32 {by}");
        }
    }

    #[test]
    fn a_unit_quaternion_rounded_to_f32_is_accepted() {
        // Arbitrary unit quaternions, each component rounded to f32 on its own.
        let mut x = 0.123_456_789_f64;
        for _ in 0..1000 {
            let mut q = [0.0f64; 4];
            for c in &mut q {
                x = (x * 997.0 + 0.271_828).fract();
                *c = 2.0 * x - 1.0;
            }
            let n = q.iter().map(|c| c * c).sum::<f64>().sqrt();
            let q32 = q.map(|c| (c / n) as f32);
            assert!(Pose::from_quaternion(q32, [0.0; 3]).is_ok(), "{q32:?}");
        }
    }

    /// A `core::fmt::Write` into a fixed buffer.
    struct Text([u8; 128], usize);

    impl core::fmt::Write for Text {
        fn write_str(&mut self, s: &str) -> core::fmt::Result {
            let end = self.1 + s.len();
            self.0
                .get_mut(self.1..end)
                .ok_or(core::fmt::Error)?
                .copy_from_slice(s.as_bytes());
            self.1 = end;
            Ok(())
        }
    }

    #[test]
    fn not_unit_message_gives_the_tolerance() {
        use core::fmt::Write;
        let mut text = Text([0; 128], 0);
        write!(text, "{}", PoseError::NotUnit).expect("fits");
        let text = core::str::from_utf8(&text.0[..text.1]).expect("utf-8");
        assert!(text.ends_with("(| ‖q‖ − 1 | > 1e-6)"), "{text}");
    }
}
