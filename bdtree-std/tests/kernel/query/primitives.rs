//! Rigid primitives (half-space, sphere, capsule, oriented box) against deformed bodies, in f32 and f64,
//! against the f64 brute force over every triangle: every triangle that touches the primitive
//! is reported, every reported one is within `2T` of it, and its contact point, normal and
//! depth are what the brute force says.

use bdtree_core::{
    collide_primitive, primitive_stack_capacity, primitive_tolerance, ContactPoint, Pose,
    Primitive, QueryStatus, Scalar,
};
use bdtree_std::io;
use bdtree_std::oracle;
use bdtree_std::shapes::procedural::smooth_basis;
use bdtree_std::BodyStorage;
use proptest::prelude::*;
use std::collections::BTreeSet;

use crate::support::triangles::hull_penetration;
use crate::support::{config, image_in, random_case, set_state_rounded, small_meshes, Case, Rng};

type V = [f64; 3];
type Tri = [V; 3];

fn dot(a: V, b: V) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

/// A primitive in f64 for the oracle.
#[derive(Debug, Clone, Copy)]
enum Shape {
    Plane(V, f64),
    Sphere(V, f64),
    Capsule(V, V, f64),
    /// Center, unit quaternion, half extents (the kernel's box from its pose); the oracle's
    /// box is the parallelepiped `c + Σ xₖ aₖ`, `|xₖ| ≤ hₖ`, with `aₖ` the matrix's columns.
    Box(V, [f64; 4], V),
    /// The box as the kernel holds it: center, axes `aₖ`, half extents.
    BoxAxes(V, [V; 3], V),
}

/// The corners of a box `c + Σ ±hₖ aₖ`.
fn corners(c: V, axes: &[V; 3], h: V) -> Vec<V> {
    let mut out = Vec::new();
    for s in 0..8 {
        let sign = |k: usize| if s >> k & 1 == 1 { 1.0 } else { -1.0 };
        out.push(
            [0, 1, 2].map(|i| c[i] + (0..3).map(|k| sign(k) * h[k] * axes[k][i]).sum::<f64>()),
        );
    }
    out
}

/// The 12 triangles of a box's surface (corner bit k is the sign along axis k).
fn box_faces(c: V, axes: &[V; 3], h: V) -> Vec<Tri> {
    let p = corners(c, axes, h);
    let mut out = Vec::new();
    for k in 0..3 {
        let (i, j) = ((k + 1) % 3, (k + 2) % 3);
        for side in [0, 1 << k] {
            let at = |a: usize, b: usize| p[side | a << i | b << j];
            out.push([at(0, 0), at(1, 0), at(1, 1)]);
            out.push([at(0, 0), at(1, 1), at(0, 1)]);
        }
    }
    out
}

/// `x` in the box's frame.
fn local(x: V, c: V, axes: &[V; 3]) -> V {
    let d = [x[0] - c[0], x[1] - c[1], x[2] - c[2]];
    [dot(axes[0], d), dot(axes[1], d), dot(axes[2], d)]
}

fn box_axes(q: [f64; 4]) -> [V; 3] {
    let r = io::Pose {
        rotation: q,
        translation: [0.0; 3],
    }
    .matrix();
    [0, 1, 2].map(|k| [r[0][k], r[1][k], r[2][k]])
}

impl Shape {
    /// How far triangle `t` is outside the primitive (negative: how deep inside), by brute
    /// force: the least vertex height for a plane, the oracle's triangle distance to the
    /// center (a point triangle) or the axis (a segment triangle) less the radius.
    fn signed(&self, t: &Tri) -> f64 {
        match *self {
            Shape::Plane(n, offset) => {
                t.iter().map(|&v| dot(n, v)).fold(f64::INFINITY, f64::min) - offset
            }
            Shape::Sphere(c, r) => oracle::triangle_distance(&[c, c, c], t).0 - r,
            Shape::Capsule(a, b, r) => oracle::triangle_distance(&[a, b, b], t).0 - r,
            Shape::Box(c, q, h) => Shape::BoxAxes(c, box_axes(q), h).signed(t),
            Shape::BoxAxes(c, axes, h) => {
                let faces = box_faces(c, &axes, h);
                let inside = t.iter().any(|&v| {
                    let x = local(v, c, &axes);
                    (0..3).all(|k| x[k].abs() < h[k])
                });
                if inside || faces.iter().any(|f| oracle::triangles_intersect(f, t)) {
                    -hull_penetration(t, &corners(c, &axes, h), 1e-12)
                } else {
                    faces
                        .iter()
                        .map(|f| oracle::triangle_distance(f, t).0)
                        .fold(f64::INFINITY, f64::min)
                }
            }
        }
    }

    /// The same shape moved by `d`.
    fn moved(&self, d: V) -> Shape {
        let m = |x: V| [x[0] + d[0], x[1] + d[1], x[2] + d[2]];
        match *self {
            Shape::Plane(n, offset) => Shape::Plane(n, offset + dot(n, d)),
            Shape::Sphere(c, r) => Shape::Sphere(m(c), r),
            Shape::Capsule(a, b, r) => Shape::Capsule(m(a), m(b), r),
            Shape::Box(c, q, h) => Shape::Box(m(c), q, h),
            Shape::BoxAxes(c, axes, h) => Shape::BoxAxes(m(c), axes, h),
        }
    }

    /// How far `p` is outside the primitive.
    fn point_signed(&self, p: V) -> f64 {
        match *self {
            Shape::Plane(..) => self.signed(&[p, p, p]),
            Shape::Sphere(c, r) => oracle::triangle_distance(&[p, p, p], &[c, c, c]).0 - r,
            Shape::Capsule(a, b, r) => oracle::triangle_distance(&[p, p, p], &[a, b, b]).0 - r,
            Shape::Box(c, q, h) => Shape::BoxAxes(c, box_axes(q), h).point_signed(p),
            Shape::BoxAxes(c, axes, h) => {
                let x = local(p, c, &axes);
                let d = [0, 1, 2].map(|k| x[k].abs() - h[k]);
                let out = d.map(|v| v.max(0.0));
                dot(out, out).sqrt() + d[0].max(d[1]).max(d[2]).min(0.0)
            }
        }
    }

    fn kernel<S: Scalar>(&self) -> Primitive<S> {
        let s = |v: V| v.map(S::from_f64);
        match *self {
            Shape::Plane(n, offset) => Primitive::plane(s(n), S::from_f64(offset)),
            Shape::Sphere(c, r) => Primitive::sphere(s(c), S::from_f64(r)),
            Shape::Capsule(a, b, r) => Primitive::capsule(s(a), s(b), S::from_f64(r)),
            Shape::Box(c, q, h) => {
                let n = q.iter().map(|x| x * x).sum::<f64>().sqrt();
                let q = q.map(|x| S::from_f64(x / n));
                let pose = Pose::from_quaternion(q, s(c)).expect("pose");
                Primitive::oriented_box(&pose, s(h))
            }
            Shape::BoxAxes(..) => unreachable!("the kernel's boxes come from poses"),
        }
        .expect("primitive")
    }

    /// The shape as the kernel holds it (rounded to S, the plane's normal normalised).
    fn rounded<S: Scalar>(&self) -> Shape {
        let v = |x: [S; 3]| x.map(|c| c.to_f64());
        match self.kernel::<S>() {
            Primitive::Plane { normal, offset } => Shape::Plane(v(normal), offset.to_f64()),
            Primitive::Sphere { center, radius } => Shape::Sphere(v(center), radius.to_f64()),
            Primitive::Capsule { a, b, radius } => Shape::Capsule(v(a), v(b), radius.to_f64()),
            Primitive::Box {
                center,
                axes,
                half_extents,
            } => Shape::BoxAxes(v(center), axes.map(v), v(half_extents)),
            _ => unreachable!("four kinds"),
        }
    }
}

/// The number of triangles touching the primitive by brute force.
fn check<S: Scalar>(body: &Case<'_>, shape: Shape) -> Result<usize, TestCaseError> {
    let built = image_in::<S>(body.0, Some(body.1));
    let image = built.parse::<S>().expect("image");
    let mut storage = BodyStorage::new(image.tree.node_count());
    let mut kernel = storage.body(&image).expect("body");
    let (mesh, world) = set_state_rounded(&mut kernel, &image, &body.3, &body.2);
    let tri = |t: u32| mesh.triangles[t as usize].map(|v| world[v as usize]);

    let primitive = shape.kernel::<S>();
    let shape = shape.rounded::<S>();
    let error = kernel.error().to_f64();
    let root3 = 3f64.sqrt();
    let u = S::UNIT_ROUNDOFF.to_f64();
    let oracle_slack = 1e-13 * (1.0 + world.iter().flatten().fold(0f64, |m, x| m.max(x.abs())));

    let truth: BTreeSet<u32> = (0..mesh.triangles.len() as u32)
        .filter(|&t| shape.signed(&tri(t)) <= 0.0)
        .collect();
    let mut stack = vec![[0u32; 2]; primitive_stack_capacity(image.tree.depth())];
    let mut found: Vec<ContactPoint<S>> = Vec::new();
    let outcome = collide_primitive(&mut kernel, &primitive, &mut stack, &mut |c| {
        found.push(c);
        true
    });
    prop_assert_eq!(outcome.status, QueryStatus::Complete);
    let reported: BTreeSet<u32> = found.iter().map(|c| c.a).collect();
    prop_assert_eq!(reported.len(), found.len(), "a triangle reported twice");
    for t in &truth {
        prop_assert!(
            reported.contains(t),
            "{}: touching triangle {t} missing ({shape:?})",
            S::NAME
        );
    }
    for c in &found {
        prop_assert_eq!(c.b, 0);
        let k = kernel.world_triangle(c.a as usize).expect("triangle");
        let w = k.iter().flatten().fold(S::ZERO, |m, x| m.max(x.abs()));
        let t = primitive_tolerance(w, kernel.error(), &primitive).to_f64();
        let exact = tri(c.a);
        let signed = shape.signed(&exact);
        prop_assert!(
            signed <= 2.0 * t + oracle_slack,
            "{}: triangle {} is {signed} outside, 2T = {}",
            S::NAME,
            c.a,
            2.0 * t
        );
        let depth = c.contact.depth.to_f64();
        prop_assert!(
            (depth + signed).abs() <= t + oracle_slack,
            "{}: depth {depth}, brute force {} ({shape:?})",
            S::NAME,
            -signed
        );
        let point = c.contact.point.map(|x| x.to_f64());
        let on = oracle::triangle_distance(&[point, point, point], &exact).0;
        prop_assert!(
            on <= t + root3 * error + oracle_slack,
            "{}: point {on} off its triangle",
            S::NAME
        );
        prop_assert!(
            shape.point_signed(point) <= 2.0 * t + oracle_slack,
            "{}: point {} outside the primitive",
            S::NAME,
            shape.point_signed(point)
        );
        let n = c.contact.normal.map(|x| x.to_f64());
        prop_assert!(
            (dot(n, n) - 1.0).abs() <= 16.0 * u,
            "{}: normal {n:?} not unit",
            S::NAME
        );
        // Moving the primitive by the depth along the normal leaves the triangle outside (or
        // touching) — unless the triangle's nearest point is on the center or axis, where the
        // normal is the face's and the depth is only local.
        if -signed < primitive_radius(&shape) - 2.0 * t {
            let away = shape.moved(n.map(|x| x * (depth + t)));
            prop_assert!(
                away.signed(&exact) >= -2.0 * t - oracle_slack,
                "{}: moving by depth along the normal leaves it {} inside",
                S::NAME,
                -away.signed(&exact)
            );
        }
    }
    Ok(truth.len())
}

fn primitive_radius(shape: &Shape) -> f64 {
    match *shape {
        // A box's depth is the pair's penetration depth: moving by it separates.
        Shape::Plane(..) | Shape::Box(..) | Shape::BoxAxes(..) => f64::INFINITY,
        Shape::Sphere(_, r) | Shape::Capsule(_, _, r) => r,
    }
}

fn unit(rng: &mut Rng) -> V {
    loop {
        let v = [0, 1, 2].map(|_| rng.uniform(-1.0, 1.0));
        let n = dot(v, v).sqrt();
        if n > 0.1 && n <= 1.0 {
            return v.map(|x| x / n);
        }
    }
}

fn shape(kind: usize, rng: &mut Rng) -> Shape {
    let center = [0, 1, 2].map(|_| rng.uniform(-0.3, 0.3));
    match kind {
        0 => Shape::Plane(unit(rng), rng.uniform(-0.3, 0.3)),
        1 => Shape::Sphere(center, rng.uniform(0.0, 0.4)),
        3 => Shape::Box(
            center,
            rng.rotation(),
            [0, 1, 2].map(|_| rng.uniform(0.0, 0.3)),
        ),
        _ => {
            let d = unit(rng).map(|x| x * rng.uniform(0.0, 0.5));
            Shape::Capsule(
                [center[0] - d[0], center[1] - d[1], center[2] - d[2]],
                [center[0] + d[0], center[1] + d[1], center[2] + d[2]],
                rng.uniform(0.0, 0.2),
            )
        }
    }
}

proptest! {
    #![proptest_config(config(64, 0xBD7_9B1A))]

    #[test]
    fn primitive_contacts_equal_brute_force(
        mesh in 0usize..5,
        kind in 0usize..4,
        modes in 0usize..=4,
        seed in any::<u64>(),
    ) {
        let mut rng = Rng::new(seed);
        let all = small_meshes();
        let m = &all[mesh];
        let basis = smooth_basis(&m.vertices, modes, 0.1);
        let case = random_case(&mut rng, m, &basis, modes, |rng| {
            [0, 1, 2].map(|_| rng.uniform(-0.1, 0.1))
        });
        let shape = shape(kind, &mut rng);
        check::<f32>(&case, shape)?;
        check::<f64>(&case, shape)?;
    }
}

/// The cases above are not vacuous: each kind of primitive cuts most bodies.
#[test]
fn the_primitives_cut_the_bodies() {
    let all = small_meshes();
    for kind in 0..4 {
        let mut cut = 0;
        for m in &all {
            let basis = smooth_basis(&m.vertices, 2, 0.1);
            let case: Case<'_> = (m, &basis, vec![0.4, -0.6], io::Pose::IDENTITY);
            let shape = match kind {
                0 => Shape::Plane([0.0, 0.6, 0.8], 0.05),
                1 => Shape::Sphere([0.1, 0.2, 0.0], 0.3),
                3 => Shape::Box([0.05, 0.1, 0.0], [0.9, 0.3, -0.2, 0.1], [0.5, 0.1, 0.15]),
                _ => Shape::Capsule([-0.3, 0.1, 0.0], [0.3, 0.0, 0.1], 0.1),
            };
            cut += usize::from(check::<f64>(&case, shape).expect("check") > 0);
        }
        assert!(cut >= 4, "kind {kind}: {cut} of 5 bodies cut");
    }
}
