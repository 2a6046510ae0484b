//! The primitives themselves: a half-space, a sphere, a capsule, an oriented box, in world
//! coordinates, checked when made.

use super::box_shape::box_signed_distance;
use crate::geometry::closest::closest_on_segment;
use crate::geometry::pose::Pose;
use crate::scalar::{dot, norm_inf, sub, Scalar};

type V<S> = [S; 3];

/// A rigid primitive in world coordinates.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum Primitive<S> {
    /// The solid half-space `normal · x ≤ offset` (`normal` unit; see [`Primitive::plane`]).
    Plane {
        /// Unit outward normal (pointing out of the solid).
        normal: [S; 3],
        /// The boundary plane is `normal · x = offset`.
        offset: S,
    },
    /// A solid ball.
    Sphere {
        /// Center.
        center: [S; 3],
        /// Radius (≥ 0).
        radius: S,
    },
    /// A solid capsule: the points within `radius` of the segment `a b`.
    Capsule {
        /// One end of the axis.
        a: [S; 3],
        /// The other end.
        b: [S; 3],
        /// Radius (≥ 0).
        radius: S,
    },
    /// A solid oriented box: the points `c + Σₖ xₖ aₖ` with `|xₖ| ≤ hₖ` (see
    /// [`Primitive::oriented_box`]).
    Box {
        /// Center `c`.
        center: [S; 3],
        /// The box's unit axes `aₖ` in world coordinates (orthonormal: a rotation's columns).
        axes: [[S; 3]; 3],
        /// Half extents `hₖ` (≥ 0).
        half_extents: [S; 3],
    },
}

/// Why a primitive was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum PrimitiveError {
    /// A NaN or infinite component.
    NonFinite,
    /// A plane's normal has zero length.
    ZeroNormal,
    /// A negative radius.
    NegativeRadius,
}

impl core::fmt::Display for PrimitiveError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Self::NonFinite => write!(f, "primitive has a non-finite component"),
            Self::ZeroNormal => write!(f, "plane normal has zero length"),
            Self::NegativeRadius => write!(f, "primitive radius is negative"),
        }
    }
}

impl core::error::Error for PrimitiveError {}

fn finite<S: Scalar>(values: &[S]) -> Result<(), PrimitiveError> {
    if values.iter().all(|v| v.is_finite()) {
        Ok(())
    } else {
        Err(PrimitiveError::NonFinite)
    }
}

fn radius_ok<S: Scalar>(radius: S) -> Result<(), PrimitiveError> {
    if radius >= S::ZERO {
        Ok(())
    } else {
        Err(PrimitiveError::NegativeRadius)
    }
}

impl<S: Scalar> Primitive<S> {
    /// The half-space `n · x ≤ offset · |n|` below the plane through `offset · n/|n|` (the
    /// normal is normalised; it points out of the solid).
    pub fn plane(normal: [S; 3], offset: S) -> Result<Self, PrimitiveError> {
        finite(&[normal[0], normal[1], normal[2], offset])?;
        let len = dot(normal, normal).sqrt();
        let usable = len > S::ZERO && len.is_finite();
        if !usable {
            return Err(PrimitiveError::ZeroNormal);
        }
        Ok(Primitive::Plane {
            normal: normal.map(|x| x / len),
            offset,
        })
    }

    /// A ball.
    pub fn sphere(center: [S; 3], radius: S) -> Result<Self, PrimitiveError> {
        finite(&[center[0], center[1], center[2], radius])?;
        radius_ok(radius)?;
        Ok(Primitive::Sphere { center, radius })
    }

    /// A capsule around the segment `a b`.
    pub fn capsule(a: [S; 3], b: [S; 3], radius: S) -> Result<Self, PrimitiveError> {
        finite(&[a[0], a[1], a[2], b[0], b[1], b[2], radius])?;
        radius_ok(radius)?;
        Ok(Primitive::Capsule { a, b, radius })
    }

    /// The box of half extents `half_extents` posed by `pose`: centered at the translation,
    /// its axes the columns of the rotation (a unit quaternion's matrix, [`Pose`]).
    pub fn oriented_box(pose: &Pose<S>, half_extents: [S; 3]) -> Result<Self, PrimitiveError> {
        let r = &pose.rotation;
        finite(&[half_extents[0], half_extents[1], half_extents[2]])?;
        finite(&[
            pose.translation[0],
            pose.translation[1],
            pose.translation[2],
        ])?;
        for row in r {
            finite(row)?;
        }
        for h in half_extents {
            radius_ok(h)?;
        }
        Ok(Primitive::Box {
            center: pose.translation,
            axes: [
                [r[0][0], r[1][0], r[2][0]],
                [r[0][1], r[1][1], r[2][1]],
                [r[0][2], r[1][2], r[2][2]],
            ],
            half_extents,
        })
    }

    /// The primitive's magnitude `e` of the tolerance (module docs).
    pub(crate) fn magnitude(&self) -> S {
        match *self {
            Primitive::Plane { offset, .. } => offset.abs(),
            Primitive::Sphere { center, radius } => norm_inf(center) + radius,
            Primitive::Capsule { a, b, radius } => norm_inf(a).max(norm_inf(b)) + radius,
            Primitive::Box {
                center,
                half_extents: h,
                ..
            } => norm_inf(center) + h[0] + h[1] + h[2],
        }
    }

    /// The signed distance of `x` into the primitive's boundary surface, the surface's
    /// nearest point's parameters aside: for a plane `n · x − offset`, for a sphere or capsule
    /// `|x − nearest axis point| − radius`; negative inside. (Used for node spheres: a sphere
    /// `[c, r]` may touch the primitive only if this at `c` is at most `r`.)
    pub(crate) fn signed_distance(&self, x: V<S>) -> S {
        match *self {
            Primitive::Plane { normal, offset } => dot(normal, x) - offset,
            Primitive::Sphere { center, radius } => {
                let d = sub(x, center);
                dot(d, d).sqrt() - radius
            }
            Primitive::Capsule { a, b, radius } => {
                let c = closest_on_segment(x, a, b).0;
                let d = sub(x, c);
                dot(d, d).sqrt() - radius
            }
            Primitive::Box {
                center,
                axes,
                half_extents,
            } => box_signed_distance(to_box(x, center, &axes), half_extents),
        }
    }
}

/// `x` in the box's frame: `x'ₖ = aₖ · (x − c)`.
pub(super) fn to_box<S: Scalar>(x: V<S>, center: V<S>, axes: &[V<S>; 3]) -> V<S> {
    let d = sub(x, center);
    [dot(axes[0], d), dot(axes[1], d), dot(axes[2], d)]
}

/// A direction of the box's frame in world coordinates: `Σₖ xₖ aₖ`.
pub(super) fn from_box<S: Scalar>(x: V<S>, axes: &[V<S>; 3]) -> V<S> {
    let [a, b, c] = *axes;
    [
        x[0] * a[0] + x[1] * b[0] + x[2] * c[0],
        x[0] * a[1] + x[1] * b[1] + x[2] * c[1],
        x[0] * a[2] + x[1] * b[2] + x[2] * c[2],
    ]
}
