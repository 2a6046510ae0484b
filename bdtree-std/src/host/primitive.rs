//! [`Primitive`]: a rigid primitive body (plane, sphere, capsule, box — the scene file's
//! shapes, [`crate::io::scene::primitive`]) with its pose in f64, placed for the kernel at a
//! floating origin in f64 before anything is rounded.

use bdtree_core::{Pose as KernelPose, Primitive as KernelPrimitive, Scalar};

use super::check::{self, input};
use super::error::HostError;
use crate::io::pose::{off_unit, Pose, QUATERNION_NORM_TOLERANCE};
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
    /// A primitive at `pose`; refused (naming the argument and value, [`super::check`]) for a
    /// quaternion off unit length or a non-finite translation.
    pub fn new(shape: PrimitiveShape, pose: Pose) -> Result<Primitive, HostError> {
        check::rotation(pose.rotation)?;
        check::finite("translation", &pose.translation)?;
        Ok(Primitive { shape, pose })
    }

    /// The solid half-space `n · x ≤ offset` below the plane through `offset · n`, in world
    /// coordinates (`normal` need not be unit: it is normalised, and points out of the solid).
    /// Refused: a non-finite number, a zero normal.
    pub fn plane(normal: [f64; 3], offset: f64) -> Result<Primitive, HostError> {
        check::finite("normal", &normal)?;
        if !offset.is_finite() {
            return Err(input(format!(
                "offset = {offset}: expected a finite number"
            )));
        }
        let len = (normal[0] * normal[0] + normal[1] * normal[1] + normal[2] * normal[2]).sqrt();
        if !(len > 0.0 && len.is_finite()) {
            let [x, y, z] = normal;
            return Err(input(format!(
                "normal = ({x}, {y}, {z}): a plane's normal must not be zero"
            )));
        }
        let shape = PrimitiveShape::Plane {
            normal: normal.map(|x| x / len),
            offset,
        };
        Primitive::new(shape, Pose::IDENTITY)
    }

    /// A solid ball about `center` (world coordinates). Refused: a non-finite number, a
    /// negative radius.
    pub fn sphere(center: [f64; 3], radius: f64) -> Result<Primitive, HostError> {
        check::finite("center", &center)?;
        check::radius("radius", radius)?;
        Primitive::new(
            PrimitiveShape::Sphere(radius),
            Pose::from_translation(center),
        )
    }

    /// A solid capsule: the points within `radius` of the segment from `a` to `b` (world
    /// coordinates), placed as its local `z` axis turned onto `b − a` (the shortest rotation;
    /// a half turn about `x` onto `−z`) about the segment's middle. Refused: a non-finite
    /// number, a negative radius.
    pub fn capsule(a: [f64; 3], b: [f64; 3], radius: f64) -> Result<Primitive, HostError> {
        check::finite("a", &a)?;
        check::finite("b", &b)?;
        check::radius("radius", radius)?;
        let d: [f64; 3] = std::array::from_fn(|k| b[k] - a[k]);
        let length = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt();
        let middle = std::array::from_fn(|k| 0.5 * a[k] + 0.5 * b[k]);
        let rotation = if length > 0.0 {
            let u = d.map(|x| x / length);
            let q = [1.0 + u[2], -u[1], u[0], 0.0];
            let n = q.iter().map(|x| x * x).sum::<f64>().sqrt();
            if n > 1e-8 {
                q.map(|x| x / n)
            } else {
                [0.0, 1.0, 0.0, 0.0]
            }
        } else {
            [1.0, 0.0, 0.0, 0.0]
        };
        let shape = PrimitiveShape::Capsule {
            radius,
            half_length: 0.5 * length,
        };
        let pose = Pose {
            rotation,
            translation: middle,
        };
        Primitive::new(shape, pose)
    }

    /// A solid box of `half_extents` centred at `center`, its axes the columns of the unit
    /// quaternion `rotation` `(w, x, y, z)`'s matrix (world coordinates). Refused: a rotation
    /// off unit length, a non-finite number, a negative half extent.
    pub fn oriented_box(
        center: [f64; 3],
        rotation: [f64; 4],
        half_extents: [f64; 3],
    ) -> Result<Primitive, HostError> {
        if off_unit(rotation).is_some() {
            let [w, x, y, z] = rotation;
            return Err(input(format!(
                "rotation = ({w}, {x}, {y}, {z}): expected a unit quaternion (w, x, y, z) \
                 (| norm − 1 | ≤ {QUATERNION_NORM_TOLERANCE:e})"
            )));
        }
        check::finite("half_extents", &half_extents)?;
        if let Some(k) = half_extents.iter().position(|&x| x < 0.0) {
            return Err(input(format!(
                "half_extents[{k}] = {}: must be ≥ 0",
                half_extents[k]
            )));
        }
        check::finite("center", &center)?;
        let pose = Pose {
            rotation,
            translation: center,
        };
        Primitive::new(PrimitiveShape::Box { half_extents }, pose)
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

impl Primitive {
    /// The kernel's primitive in scalar `S` as a device given `S` values computes it (the
    /// device's path, [`super::Placement::Device`]): the pose rounded to `S` first, at the
    /// world origin, and the shape placed by the kernel's [`KernelPose`] in `S` (a plane's unit
    /// normal turned by the rotation and its offset moved by the translation, a sphere at the
    /// translation, a capsule's ends `pose(0, 0, ∓h)`, a box with the rotation's columns as
    /// axes).
    pub fn device<S: Scalar>(&self) -> Result<KernelPrimitive<S>, HostError> {
        let s = S::from_f64;
        let pose =
            KernelPose::from_quaternion(self.pose.rotation.map(s), self.pose.translation.map(s))
                .map_err(|e| HostError::State {
                    argument: "rotation",
                    message: e.to_string(),
                })?;
        let primitive = match self.shape {
            PrimitiveShape::Plane { normal, offset } => {
                let len =
                    (normal[0] * normal[0] + normal[1] * normal[1] + normal[2] * normal[2]).sqrt();
                let n = pose.rotate(normal.map(|x| s(x / len)));
                let t = pose.translation;
                KernelPrimitive::plane(n, s(offset) + n[0] * t[0] + n[1] * t[1] + n[2] * t[2])
            }
            PrimitiveShape::Sphere(radius) => KernelPrimitive::sphere(pose.translation, s(radius)),
            PrimitiveShape::Capsule {
                radius,
                half_length,
            } => {
                let h = s(half_length);
                KernelPrimitive::capsule(
                    pose.apply([S::ZERO, S::ZERO, S::ZERO - h]),
                    pose.apply([S::ZERO, S::ZERO, h]),
                    s(radius),
                )
            }
            PrimitiveShape::Box { half_extents } => {
                KernelPrimitive::oriented_box(&pose, half_extents.map(s))
            }
        };
        primitive.map_err(|e| HostError::Primitive {
            message: e.to_string(),
        })
    }
}
