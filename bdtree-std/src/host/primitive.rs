//! [`Primitive`]: a rigid primitive body (plane, sphere, capsule, box — the scene file's
//! shapes, [`crate::io::scene::primitive`]) with its pose in f64, placed for the kernel at a
//! floating origin in f64 before anything is rounded.

use bdtree_core::{Pose as KernelPose, Primitive as KernelPrimitive, Scalar};

use super::error::HostError;
use crate::io::pose::{quaternion_problem, Pose};
use crate::io::scene::PrimitiveShape;

/// A primitive body: its shape in its local frame and its pose (unit quaternion and
/// translation, f64).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Primitive {
    /// The shape in its local frame.
    pub shape: PrimitiveShape,
    /// Its pose.
    pub pose: Pose,
}

impl Primitive {
    /// A primitive at `pose`; refused (naming the argument and value) for a quaternion off unit
    /// length or a non-finite number.
    pub fn new(shape: PrimitiveShape, pose: Pose) -> Result<Primitive, HostError> {
        if let Some(problem) = quaternion_problem(pose.rotation) {
            return Err(HostError::State {
                argument: "rotation",
                message: problem,
            });
        }
        if pose.translation.iter().any(|x| !x.is_finite()) {
            return Err(HostError::State {
                argument: "translation",
                message: format!("{:?} has a non-finite component", pose.translation),
            });
        }
        Ok(Primitive { shape, pose })
    }

    /// The kernel's primitive in scalar `S` relative to `origin`: placed in f64 (a plane's unit
    /// normal turned and its offset moved by `t − origin`, a sphere at `t − origin`, a
    /// capsule's ends at `R (0, 0, ∓h) + t − origin`, a box with `R`'s columns as axes), then
    /// rounded to `S`.
    pub(crate) fn kernel<S: Scalar>(
        &self,
        origin: [f64; 3],
    ) -> Result<KernelPrimitive<S>, HostError> {
        let r = self.pose.matrix();
        let t: [f64; 3] = std::array::from_fn(|k| self.pose.translation[k] - origin[k]);
        let turn = |v: [f64; 3]| -> [f64; 3] {
            std::array::from_fn(|k| r[k][0] * v[0] + r[k][1] * v[1] + r[k][2] * v[2])
        };
        let place = |v: [f64; 3]| -> [S; 3] {
            let w = turn(v);
            std::array::from_fn(|k| S::from_f64(w[k] + t[k]))
        };
        let s = S::from_f64;
        let primitive = match self.shape {
            PrimitiveShape::Plane { normal, offset } => {
                let len =
                    (normal[0] * normal[0] + normal[1] * normal[1] + normal[2] * normal[2]).sqrt();
                let n = turn(normal.map(|x| x / len));
                let moved = offset + n[0] * t[0] + n[1] * t[1] + n[2] * t[2];
                KernelPrimitive::plane(n.map(s), s(moved))
            }
            PrimitiveShape::Sphere(radius) => KernelPrimitive::sphere(place([0.0; 3]), s(radius)),
            PrimitiveShape::Capsule {
                radius,
                half_length,
            } => KernelPrimitive::capsule(
                place([0.0, 0.0, -half_length]),
                place([0.0, 0.0, half_length]),
                s(radius),
            ),
            PrimitiveShape::Box { half_extents } => {
                let pose = KernelPose::from_quaternion(self.pose.rotation.map(s), t.map(s))
                    .map_err(|e| HostError::State {
                        argument: "rotation",
                        message: e.to_string(),
                    })?;
                KernelPrimitive::oriented_box(&pose, half_extents.map(s))
            }
        };
        primitive.map_err(|e| HostError::Primitive {
            message: e.to_string(),
        })
    }
}
