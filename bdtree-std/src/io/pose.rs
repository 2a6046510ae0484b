//! The rigid pose of a scene file's body: a unit quaternion and a translation, in f64.
//!
//! The one host pose type: scene files ([`super::scene`]) store it, the brute-force oracle
//! ([`crate::oracle::deform`]) applies it. It shares no code with the kernel's
//! [`bdtree_core::Pose`] (the oracle must stay independent of what it checks).

/// A rigid pose: a rotation given as a unit quaternion `(w, x, y, z)` and a translation.
///
/// A body point `x` is placed in the world at `R x + t`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Pose {
    /// Unit quaternion `(w, x, y, z)`. The rotation is that of the normalised quaternion (the
    /// kernel normalises too), so a quaternion rounded in a file means the rotation it is
    /// closest to; the scene loader rejects quaternions further than
    /// [`bdtree_core::QUATERNION_TOLERANCE`] (`10⁻⁶`) from unit length, as every surface does.
    pub rotation: [f64; 4],
    /// Translation `t`, added after the rotation.
    pub translation: [f64; 3],
}

/// How far a rotation quaternion's norm may be from 1: the kernel's
/// [`bdtree_core::QUATERNION_TOLERANCE`], the one tolerance of every surface (the kernel, scene
/// files, the host layer, Python and C). Quaternions are never normalised silently: a scaled
/// quaternion is a mistake worth reporting.
pub const QUATERNION_NORM_TOLERANCE: f64 = bdtree_core::QUATERNION_TOLERANCE;

/// The one unit-quaternion check of the library: `None` when `rotation` is a unit quaternion
/// within [`QUATERNION_NORM_TOLERANCE`], else `Some(norm)` (a NaN norm for a non-finite
/// component). Scene files ([`quaternion_problem`]), the host layer and its front ends
/// (Python) word their refusals around it; the kernel keeps its own (`no_std`).
pub fn off_unit(rotation: [f64; 4]) -> Option<f64> {
    let [w, x, y, z] = rotation;
    let norm = (w * w + x * x + y * y + z * z).sqrt();
    // A NaN norm is a problem too.
    let unit = (norm - 1.0).abs() <= QUATERNION_NORM_TOLERANCE;
    (!unit).then_some(norm)
}

/// The first entry of `values` that is not finite (NaN or infinite), if any: the one
/// finiteness check of the library's inputs (scene files, primitives, the host layer's
/// [`crate::host::check`]).
pub fn non_finite(values: &[f64]) -> Option<usize> {
    values.iter().position(|v| !v.is_finite())
}

/// What is wrong with a body's state ([`state_problem`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum StateProblem {
    /// An entry of `argument` (`rotation`, `translation` or `q`) is not finite.
    NonFinite {
        /// The argument.
        argument: &'static str,
        /// The entry.
        index: usize,
        /// Its value.
        value: f64,
    },
    /// The rotation is not a unit quaternion ([`off_unit`]).
    NotUnit {
        /// Its norm.
        norm: f64,
    },
}

/// The one check of a body's state `(rotation, translation, q)`: the first problem, in this
/// order — a non-finite entry of the rotation, of the translation, of `q`, then a rotation off
/// unit length. Each door words it with its own place: the scene file's reader
/// ([`super::scene`]: the file, the frame, the body, the field) and the host layer
/// ([`crate::host::check::state`]: the argument, for every caller of
/// [`crate::host::Body::set_state`]).
pub fn state_problem(rotation: [f64; 4], translation: [f64; 3], q: &[f64]) -> Option<StateProblem> {
    let values: [(&'static str, &[f64]); 3] = [
        ("rotation", &rotation),
        ("translation", &translation),
        ("q", q),
    ];
    for (argument, values) in values {
        if let Some(index) = non_finite(values) {
            return Some(StateProblem::NonFinite {
                argument,
                index,
                value: values[index],
            });
        }
    }
    off_unit(rotation).map(|norm| StateProblem::NotUnit { norm })
}

/// Why `rotation` is not a unit quaternion ([`off_unit`]), in a scene file's words, naming
/// its value and norm (`None` when it is one).
pub fn quaternion_problem(rotation: [f64; 4]) -> Option<String> {
    let [w, x, y, z] = rotation;
    off_unit(rotation).map(|norm| {
        format!(
            "quaternion (w, x, y, z) = ({w}, {x}, {y}, {z}) has norm {norm}; rotations must be \
             unit quaternions (|norm − 1| ≤ {QUATERNION_NORM_TOLERANCE:e})"
        )
    })
}

impl Pose {
    /// No rotation, no translation.
    pub const IDENTITY: Pose = Pose {
        rotation: [1.0, 0.0, 0.0, 0.0],
        translation: [0.0; 3],
    };

    /// A pure translation.
    pub fn from_translation(translation: [f64; 3]) -> Pose {
        Pose {
            rotation: [1.0, 0.0, 0.0, 0.0],
            translation,
        }
    }

    /// A rotation by `angle` radians about `axis` (any non-zero length; a zero axis gives no
    /// rotation), followed by `translation`.
    pub fn from_axis_angle(axis: [f64; 3], angle: f64, translation: [f64; 3]) -> Pose {
        let n = (axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]).sqrt();
        if n == 0.0 || !n.is_finite() {
            return Pose::from_translation(translation);
        }
        let (s, c) = (0.5 * angle).sin_cos();
        let k = s / n;
        Pose {
            rotation: [c, axis[0] * k, axis[1] * k, axis[2] * k],
            translation,
        }
    }

    /// The rotation matrix `R` of the normalised quaternion, rows first.
    ///
    /// Uses the standard homogeneous-free form `R = I + 2 w [v]× + 2 [v]×²`, a rotation for the unit quaternion
    /// only for unit quaternions.
    pub fn matrix(&self) -> [[f64; 3]; 3] {
        let [w, x, y, z] = self.rotation;
        let n = (w * w + x * x + y * y + z * z).sqrt();
        let [w, x, y, z] = if n > 0.0 && n.is_finite() {
            [w / n, x / n, y / n, z / n]
        } else {
            [w, x, y, z]
        };
        let (xx, yy, zz) = (x * x, y * y, z * z);
        let (xy, xz, yz) = (x * y, x * z, y * z);
        let (wx, wy, wz) = (w * x, w * y, w * z);
        [
            [1.0 - 2.0 * (yy + zz), 2.0 * (xy - wz), 2.0 * (xz + wy)],
            [2.0 * (xy + wz), 1.0 - 2.0 * (xx + zz), 2.0 * (yz - wx)],
            [2.0 * (xz - wy), 2.0 * (yz + wx), 1.0 - 2.0 * (xx + yy)],
        ]
    }

    /// The world position `R x + t` of the body point `x`.
    pub fn apply(&self, x: [f64; 3]) -> [f64; 3] {
        apply_matrix(&self.matrix(), self.translation, x)
    }
}

fn apply_matrix(r: &[[f64; 3]; 3], t: [f64; 3], x: [f64; 3]) -> [f64; 3] {
    let mut y = [0.0; 3];
    for (k, row) in r.iter().enumerate() {
        y[k] = row[0] * x[0] + row[1] * x[1] + row[2] * x[2] + t[k];
    }
    y
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pose_matrix_is_a_rotation() {
        let pose = Pose::from_axis_angle([1.0, 2.0, -0.5], 0.8, [1.0, -2.0, 3.0]);
        let r = pose.matrix();
        for i in 0..3 {
            for j in 0..3 {
                let d: f64 = (0..3).map(|k| r[i][k] * r[j][k]).sum();
                let expected = if i == j { 1.0 } else { 0.0 };
                assert!((d - expected).abs() < 1e-14, "R Rᵀ[{i}][{j}] = {d}");
            }
        }
        // Quarter turn about z: x → y.
        let quarter = Pose::from_axis_angle(
            [0.0, 0.0, 1.0],
            core::f64::consts::FRAC_PI_2,
            [0.0, 0.0, 1.0],
        );
        let y = quarter.apply([1.0, 0.0, 0.0]);
        assert!(
            (y[0]).abs() < 1e-15 && (y[1] - 1.0).abs() < 1e-15 && (y[2] - 1.0).abs() < 1e-15,
            "{y:?}"
        );
        assert_eq!(Pose::IDENTITY.apply([1.0, 2.0, 3.0]), [1.0, 2.0, 3.0]);
    }
}
