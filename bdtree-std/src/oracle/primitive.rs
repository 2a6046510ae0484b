//! Rigid primitives by brute force: which triangles of an explicitly deformed mesh touch a
//! half-space, ball, capsule or box, in f64, with code of its own (nothing of the kernel's
//! primitive query: no separating axes, no conservative spheres).
//!
//! * half-space: the lowest vertex's height over the plane;
//! * ball and capsule: [`triangle_distance`] from the center (a point triangle) or the axis
//!   (a segment triangle) to the triangle, less the radius;
//! * box: the triangle in the box's frame clipped to the box's six slabs
//!   (Sutherland–Hodgman); when nothing is left, the least [`triangle_distance`] to the box's
//!   twelve surface triangles.
//!
//! A scene primitive is posed here by the scene file's own [`Pose`] (its f64 matrix), not by
//! the kernel's.

use super::distance::triangle_distance;
use crate::io::pose::Pose;
use crate::io::scene::PrimitiveShape;

type V = [f64; 3];
type Tri = [V; 3];

fn dot(a: V, b: V) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn sub(a: V, b: V) -> V {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

/// A rigid primitive in world coordinates.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Solid {
    /// The points `x` with `normal · x ≤ offset` (`normal` unit).
    HalfSpace {
        /// Unit outward normal.
        normal: V,
        /// Height of the boundary plane along the normal.
        offset: f64,
    },
    /// A ball.
    Ball {
        /// Center.
        center: V,
        /// Radius.
        radius: f64,
    },
    /// The points within `radius` of the segment `a b`.
    Capsule {
        /// One end of the axis.
        a: V,
        /// The other end.
        b: V,
        /// Radius.
        radius: f64,
    },
    /// The points `center + Σ x_k axes[k]` with `|x_k| ≤ half[k]`.
    Box {
        /// Center.
        center: V,
        /// Orthonormal edge directions.
        axes: [V; 3],
        /// Half extents.
        half: V,
    },
}

impl Solid {
    /// A scene primitive (local frame: [`crate::io::scene::primitive`]) placed by `pose`.
    pub fn posed(shape: &PrimitiveShape, pose: &Pose) -> Solid {
        let r = pose.matrix();
        let t = pose.translation;
        let turn = |x: V| [dot(r[0], x), dot(r[1], x), dot(r[2], x)];
        let place = |x: V| {
            let y = turn(x);
            [y[0] + t[0], y[1] + t[1], y[2] + t[2]]
        };
        match *shape {
            PrimitiveShape::Plane { normal, offset } => {
                let len = dot(normal, normal).sqrt();
                let n = turn(normal.map(|x| x / len));
                Solid::HalfSpace {
                    normal: n,
                    offset: offset + dot(n, t),
                }
            }
            PrimitiveShape::Sphere(radius) => Solid::Ball { center: t, radius },
            PrimitiveShape::Capsule {
                radius,
                half_length,
            } => Solid::Capsule {
                a: place([0.0, 0.0, -half_length]),
                b: place([0.0, 0.0, half_length]),
                radius,
            },
            PrimitiveShape::Box { half_extents } => Solid::Box {
                center: t,
                axes: [0, 1, 2].map(|k| [r[0][k], r[1][k], r[2][k]]),
                half: half_extents,
            },
        }
    }

    /// The distance from triangle `t` to the solid: 0 when they touch or overlap.
    pub fn gap(&self, t: &Tri) -> f64 {
        let outside = match *self {
            Solid::HalfSpace { normal, offset } => {
                t.iter()
                    .map(|&v| dot(normal, v))
                    .fold(f64::INFINITY, f64::min)
                    - offset
            }
            Solid::Ball { center, radius } => {
                triangle_distance(&[center, center, center], t).0 - radius
            }
            Solid::Capsule { a, b, radius } => triangle_distance(&[a, b, b], t).0 - radius,
            Solid::Box { center, axes, half } => {
                let local = t.map(|v| {
                    let d = sub(v, center);
                    [dot(axes[0], d), dot(axes[1], d), dot(axes[2], d)]
                });
                if clip_to_box(&local, half) {
                    0.0
                } else {
                    box_surface(half)
                        .iter()
                        .map(|f| triangle_distance(f, &local).0)
                        .fold(f64::INFINITY, f64::min)
                }
            }
        };
        outside.max(0.0)
    }

    /// How deep triangle `t` reaches into a half-space, ball or capsule (negative: how far it
    /// is outside): the offset less the lowest vertex height, or the radius less the distance
    /// to the center or axis. `None` for a box (its penetration depth is not computed here).
    pub fn depth(&self, t: &Tri) -> Option<f64> {
        match *self {
            Solid::HalfSpace { normal, offset } => Some(
                offset
                    - t.iter()
                        .map(|&v| dot(normal, v))
                        .fold(f64::INFINITY, f64::min),
            ),
            Solid::Ball { center, radius } => {
                Some(radius - triangle_distance(&[center, center, center], t).0)
            }
            Solid::Capsule { a, b, radius } => Some(radius - triangle_distance(&[a, b, b], t).0),
            Solid::Box { .. } => None,
        }
    }

    /// Whether triangle `t` touches the solid.
    pub fn touches(&self, t: &Tri) -> bool {
        self.gap(t) <= 0.0
    }
}

/// Whether any point of the triangle (box frame) lies in the box `|x_k| ≤ half[k]`: the
/// triangle clipped by the six slab planes in turn keeps a point.
fn clip_to_box(t: &Tri, half: V) -> bool {
    let mut polygon: Vec<V> = t.to_vec();
    for k in 0..3 {
        for sign in [1.0, -1.0] {
            // Inside: sign · x_k ≤ half[k].
            let d = |x: &V| sign * x[k] - half[k];
            let mut next = Vec::with_capacity(polygon.len() + 1);
            for (i, p) in polygon.iter().enumerate() {
                let q = &polygon[(i + 1) % polygon.len()];
                let (dp, dq) = (d(p), d(q));
                if dp <= 0.0 {
                    next.push(*p);
                }
                if (dp < 0.0 && dq > 0.0) || (dp > 0.0 && dq < 0.0) {
                    let s = dp / (dp - dq);
                    let mut x = [0, 1, 2].map(|j| p[j] + s * (q[j] - p[j]));
                    // On the plane exactly, whatever the rounding of s.
                    x[k] = sign * half[k];
                    next.push(x);
                }
            }
            if next.is_empty() {
                return false;
            }
            polygon = next;
        }
    }
    true
}

/// The box's surface as 12 triangles, in its frame.
fn box_surface(half: V) -> Vec<Tri> {
    let corner = |s: usize| [0, 1, 2].map(|k| if s >> k & 1 == 1 { half[k] } else { -half[k] });
    let mut out = Vec::with_capacity(12);
    for k in 0..3 {
        let (i, j) = ((k + 1) % 3, (k + 2) % 3);
        for side in [0, 1 << k] {
            let at = |a: usize, b: usize| corner(side | a << i | b << j);
            out.push([at(0, 0), at(1, 0), at(1, 1)]);
            out.push([at(0, 0), at(1, 1), at(0, 1)]);
        }
    }
    out
}

/// Every triangle of a mesh (`world` its vertices) that touches `solid`, in face order.
pub fn brute_force_primitive(world: &[V], triangles: &[[u32; 3]], solid: &Solid) -> Vec<u32> {
    (0..triangles.len() as u32)
        .filter(|&t| solid.touches(&triangles[t as usize].map(|v| world[v as usize])))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const T: Tri = [[0.0, 0.0, 0.1], [1.0, 0.0, -0.2], [0.0, 1.0, 0.3]];

    #[test]
    fn posed_primitives_have_their_documented_frames() {
        // A quarter turn about x takes local z to world −y.
        let h = core::f64::consts::FRAC_1_SQRT_2;
        let pose = Pose {
            rotation: [h, h, 0.0, 0.0],
            translation: [1.0, 2.0, 3.0],
        };
        let close = |a: V, b: V| (0..3).all(|k| (a[k] - b[k]).abs() < 1e-12);
        let floor = PrimitiveShape::Plane {
            normal: [0.0, 0.0, 2.0],
            offset: 0.5,
        };
        let Solid::HalfSpace { normal, offset } = Solid::posed(&floor, &pose) else {
            panic!("a plane is a half-space")
        };
        assert!(close(normal, [0.0, -1.0, 0.0]));
        // The local plane z = 0.5 becomes y = 2 − 0.5: −y ≤ −1.5.
        assert!((offset + 1.5).abs() < 1e-12);
        let link = PrimitiveShape::Capsule {
            radius: 0.1,
            half_length: 0.5,
        };
        let Solid::Capsule { a, b, .. } = Solid::posed(&link, &pose) else {
            panic!("a capsule")
        };
        assert!(close(a, [1.0, 2.5, 3.0]) && close(b, [1.0, 1.5, 3.0]));
    }

    #[test]
    fn gaps_by_hand() {
        let floor = Solid::HalfSpace {
            normal: [0.0, 0.0, 1.0],
            offset: -0.25,
        };
        assert!((floor.gap(&T) - 0.05).abs() < 1e-15);
        let ball = Solid::Ball {
            center: [-1.0, 0.0, 0.1],
            radius: 0.5,
        };
        assert!((ball.gap(&T) - 0.5).abs() < 1e-15);
        // A unit cube whose top face the triangle's low corner pierces.
        let cube = Solid::Box {
            center: [1.0, 0.0, -1.0],
            axes: cube_axes(),
            half: [0.5, 0.5, 0.9],
        };
        assert!(cube.touches(&T));
        let high = Solid::Box {
            center: [1.0, 0.0, -1.5],
            axes: cube_axes(),
            half: [0.5, 0.5, 0.9],
        };
        assert!((high.gap(&T) - 0.4).abs() < 1e-12);
        // A triangle slicing through a box with no vertex inside touches it.
        let big = [[-5.0, -5.0, 0.3], [5.0, -5.0, 0.3], [0.0, 5.0, 0.3]];
        let small = Solid::Box {
            center: [0.0; 3],
            axes: cube_axes(),
            half: [0.1, 0.1, 0.5],
        };
        assert!(small.touches(&big));
    }

    fn cube_axes() -> [V; 3] {
        [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]
    }
}
