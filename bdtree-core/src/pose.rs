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

/// Why a quaternion or translation was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum PoseError {
    /// A NaN or infinite component.
    NonFinite,
    /// The quaternion is far from unit length (`|‖q‖² − 1| > 10⁻³`): probably not a rotation.
    NotUnit,
}

impl core::fmt::Display for PoseError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Self::NonFinite => write!(f, "pose has a non-finite component"),
            Self::NotUnit => write!(f, "rotation quaternion is not of unit length"),
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
    /// f32 costs nothing; one further than `10⁻³` from unit length in squared norm is refused as
    /// a likely mistake (the host's scene loader is stricter: `10⁻⁶`).
    pub fn from_quaternion(q: [S; 4], translation: [S; 3]) -> Result<Self, PoseError> {
        if q.iter().chain(translation.iter()).any(|v| !v.is_finite()) {
            return Err(PoseError::NonFinite);
        }
        let n2 = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
        let tol = S::from_f64(1e-3);
        // The components are finite, so n2 is finite or +inf, never NaN.
        if (n2 - S::ONE).abs() > tol {
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
