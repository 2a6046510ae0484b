//! One triangle against one primitive: the contact (point, normal, depth) and the tolerance
//! (see the parent module), and the node-sphere test of the walk.

use super::box_shape::box_contact;
use super::shape::{from_box, to_box};
use super::Primitive;
use crate::geometry::closest::{closest_on_triangle, closest_points};
use crate::geometry::triangle_pair::TriangleContact;
use crate::scalar::{cross, dot, norm_inf, sub, Scalar};

type V<S> = [S; 3];

/// The tolerance `T` of a triangle (or a sphere's extent) of largest coordinate `w` with
/// vertices known to within `error`, against `primitive` (module docs).
pub fn primitive_tolerance<S: Scalar>(w: S, error: S, primitive: &Primitive<S>) -> S {
    (error + error) + S::from_u32(64) * S::UNIT_ROUNDOFF * (w + primitive.magnitude() + error)
}

fn unit<S: Scalar>(v: V<S>) -> Option<V<S>> {
    let len = dot(v, v).sqrt();
    (len > S::ZERO && len.is_finite()).then(|| v.map(|x| x / len))
}

/// The contact of a world triangle whose vertices are known to within `error` per coordinate
/// with `primitive`: `None` when it is farther than [`primitive_tolerance`] from it.
pub fn primitive_contact<S: Scalar>(
    triangle: &[[S; 3]; 3],
    primitive: &Primitive<S>,
    error: S,
) -> Option<TriangleContact<S>> {
    let w = norm_inf(triangle[0])
        .max(norm_inf(triangle[1]))
        .max(norm_inf(triangle[2]));
    let t = primitive_tolerance(w, error, primitive);
    let face = || {
        let [p, q, r] = *triangle;
        unit(cross(sub(q, p), sub(r, p))).unwrap_or([S::ONE, S::ZERO, S::ZERO])
    };
    // (point on the triangle, its signed distance to the surface, normal triangle → primitive)
    let (point, signed, normal) = match *primitive {
        Primitive::Plane { normal, offset } => {
            let mut best = (triangle[0], dot(normal, triangle[0]));
            for &v in &triangle[1..] {
                let h = dot(normal, v);
                if h < best.1 {
                    best = (v, h);
                }
            }
            (best.0, best.1 - offset, normal.map(|x| -x))
        }
        Primitive::Sphere { center, radius } => {
            let p = closest_on_triangle(center, triangle);
            let d = sub(center, p);
            let dist = dot(d, d).sqrt();
            (p, dist - radius, unit(d).unwrap_or_else(face))
        }
        Primitive::Capsule { a, b, radius } => {
            let (d2, p, on_axis) = closest_points(triangle, &[a, b, b]);
            let dist = d2.sqrt();
            (p, dist - radius, unit(sub(on_axis, p)).unwrap_or_else(face))
        }
        Primitive::Box {
            center,
            axes,
            half_extents,
        } => {
            let [p, q, r] = *triangle;
            let local = [
                to_box(p, center, &axes),
                to_box(q, center, &axes),
                to_box(r, center, &axes),
            ];
            let (point, normal, depth) = box_contact(&local, half_extents, t)?;
            let normal = from_box(normal, &axes);
            let normal = unit(normal).unwrap_or_else(face);
            let point = from_box(point, &axes);
            let point = [
                point[0] + center[0],
                point[1] + center[1],
                point[2] + center[2],
            ];
            return Some(TriangleContact {
                point,
                normal,
                depth,
            });
        }
    };
    // NaN (a broken state) is not a contact.
    let touches = signed <= t;
    if !touches {
        return None;
    }
    // Within rounding of the axis the direction is noise: use the triangle's normal.
    let normal = match *primitive {
        Primitive::Plane { .. } | Primitive::Box { .. } => normal,
        _ if signed + primitive_radius(primitive) <= t => face(),
        _ => normal,
    };
    Some(TriangleContact {
        point,
        normal,
        depth: -signed,
    })
}

fn primitive_radius<S: Scalar>(primitive: &Primitive<S>) -> S {
    match *primitive {
        Primitive::Plane { .. } | Primitive::Box { .. } => S::ZERO,
        Primitive::Sphere { radius, .. } | Primitive::Capsule { radius, .. } => radius,
    }
}

/// Whether a body's world sphere `[x, y, z, r]` (vertices known to within `error`) may hold a
/// triangle [`primitive_contact`] reports: its center's signed distance to the primitive is at
/// most its radius, plus the leaf tolerance over its extent and the rounding of this test.
/// The walk's test of every node, and the world query's broad phase on root spheres.
#[inline(always)]
pub(crate) fn sphere_may_touch<S: Scalar>(
    sphere: &[S; 4],
    primitive: &Primitive<S>,
    error: S,
) -> bool {
    let [x, y, z, r] = *sphere;
    let c = [x, y, z];
    let w = norm_inf(c) + r;
    let t = primitive_tolerance(w, error, primitive);
    let rounding = S::from_u32(16) * S::UNIT_ROUNDOFF * (w + primitive.magnitude() + r);
    // NaN fails the test of a correct sphere: only possible with a broken state.
    primitive.signed_distance(c) <= r + t + rounding
}
