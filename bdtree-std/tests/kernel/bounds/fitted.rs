//! Fitted spheres ([`Body::fitted_sphere`], `bdtree_core::bounds::fitted`): the reach holds.
//! For random `q` and poses — f32 and f64, unit-size and millimetre bodies, at the origin and
//! far from it, rigid and deformable, medial and median-split trees — every sampled point of
//! a node's rest fitted sphere that lies outside the rest body, carried by the node's `Ū q`
//! and the pose (and moved with the kernel's own computed centre), lies within the reported
//! reach of the node's own triangles deformed explicitly in f64 from the source data.

use bdtree_core::image::tree::NodeKind;
use bdtree_core::{Image, Pose, Scalar};
use bdtree_std::build::medial::Solid;
use bdtree_std::build::{build, BuildOptions, Precision, TreeKind};
use bdtree_std::io;
use bdtree_std::io::{Basis, Mesh};
use bdtree_std::shapes::chair_mesh;
use bdtree_std::shapes::procedural::{cable, smooth_basis};
use bdtree_std::{oracle, BodyStorage};
use proptest::prelude::*;

use crate::support::{self, config, dist, scaled, Rng};

/// The closed test meshes and a cable.
fn closed_meshes() -> Vec<Mesh> {
    let mut meshes = support::closed_meshes();
    meshes.push(cable(1.0, 0.04, 24, 8));
    meshes
}

/// The distance from `p` to triangle `t` (independent of the kernel's `closest_on_triangle`):
/// the least of the distances to the three edge segments and, when the plane's foot falls
/// inside the triangle, to the plane.
fn point_triangle_distance(p: [f64; 3], t: [[f64; 3]; 3]) -> f64 {
    let sub = |a: [f64; 3], b: [f64; 3]| [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
    let dot = |a: [f64; 3], b: [f64; 3]| a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    let segment = |a: [f64; 3], b: [f64; 3]| {
        let ab = sub(b, a);
        let len2 = dot(ab, ab);
        let s = if len2 > 0.0 {
            (dot(sub(p, a), ab) / len2).clamp(0.0, 1.0)
        } else {
            0.0
        };
        dist(p, [a[0] + s * ab[0], a[1] + s * ab[1], a[2] + s * ab[2]])
    };
    let mut best = segment(t[0], t[1])
        .min(segment(t[1], t[2]))
        .min(segment(t[2], t[0]));
    let (e0, e1) = (sub(t[1], t[0]), sub(t[2], t[0]));
    let n = [
        e0[1] * e1[2] - e0[2] * e1[1],
        e0[2] * e1[0] - e0[0] * e1[2],
        e0[0] * e1[1] - e0[1] * e1[0],
    ];
    let n2 = dot(n, n);
    if n2 > 0.0 {
        let h = dot(sub(p, t[0]), n) / n2;
        let foot = [p[0] - h * n[0], p[1] - h * n[1], p[2] - h * n[2]];
        // Inside when the three sub-triangles have the normal's orientation.
        let side = |a: [f64; 3], b: [f64; 3]| {
            let (u, v) = (sub(b, a), sub(foot, a));
            dot(
                [
                    u[1] * v[2] - u[2] * v[1],
                    u[2] * v[0] - u[0] * v[2],
                    u[0] * v[1] - u[1] * v[0],
                ],
                n,
            )
        };
        if side(t[0], t[1]) >= 0.0 && side(t[1], t[2]) >= 0.0 && side(t[2], t[0]) >= 0.0 {
            best = best.min(h.abs() * n2.sqrt());
        }
    }
    best
}

/// Every node's own triangles, by node index.
fn own_triangles<S: Scalar>(image: &Image<'_, S>) -> Vec<Vec<u32>> {
    let tree = &image.tree;
    let mut own: Vec<Vec<u32>> = vec![Vec::new(); tree.node_count()];
    for k in (0..tree.node_count()).rev() {
        match tree.kind(k) {
            Some(NodeKind::Leaf { triangle }) => own[k] = vec![triangle],
            Some(NodeKind::Internal { left, right }) => {
                let mut v = own[left as usize].clone();
                v.extend_from_slice(&own[right as usize]);
                own[k] = v;
            }
            _ => {}
        }
    }
    own
}

/// The check of the module docs on 25 nodes (the root and random ones), 48 points each.
/// Returns the number of points checked (those outside the rest body).
fn check_reach<S: Scalar>(
    tree: TreeKind,
    mesh: &Mesh,
    basis: Option<&Basis>,
    q: &[f64],
    pose: io::Pose,
    seed: u64,
) -> Result<usize, TestCaseError> {
    let options = BuildOptions {
        tree,
        precision: if S::BYTES == 4 {
            Precision::F32
        } else {
            Precision::F64
        },
        // A median tree stores fitted spheres only when asked (a medial one always does).
        fitted: true,
        ..BuildOptions::default()
    };
    let buf = build(mesh, basis, options, &mut |_| {}).expect("build").0;
    let image = buf.parse::<S>().expect("parse");
    let mut storage = BodyStorage::new(image.tree.node_count());
    let mut body = storage.body(&image).expect("body");
    let p = Pose::from_quaternion(
        pose.rotation.map(S::from_f64),
        pose.translation.map(S::from_f64),
    );
    let qs: Vec<S> = q.iter().map(|&x| S::from_f64(x)).collect();
    body.set_state(p.expect("pose"), &qs).expect("state");
    let solid = Solid::new(mesh).expect("closed");
    let world = oracle::deform(&mesh.vertices, basis, q, &pose);
    let matrix = pose.matrix();
    let place = |x: [f64; 3]| {
        [0, 1, 2].map(|i| {
            matrix[i][0] * x[0] + matrix[i][1] * x[1] + matrix[i][2] * x[2] + pose.translation[i]
        })
    };
    let own = own_triangles(&image);
    let tree = &image.tree;
    let modes = tree.modes();
    let mut rng = Rng::new(seed);
    let mut checked = 0;
    // A sample of nodes at every depth (the root, then random ones).
    let n = tree.node_count();
    let nodes: Vec<usize> = std::iter::once(0)
        .chain((0..24).map(|_| rng.below(n)))
        .collect();
    for k in nodes {
        let (rest, _) = tree.fitted(k).expect("fitted");
        let fitted = body.fitted_sphere(k).expect("fitted sphere");
        let reach = fitted.reach.to_f64();
        let c = [rest[0], rest[1], rest[2]].map(|x| x.to_f64());
        let r = rest[3].to_f64();
        // The mean displacement Ū q of the stored rows, in f64.
        let mut shift = [0.0; 3];
        for (j, &qj) in q.iter().enumerate().take(modes) {
            let row = tree.row(k, j + 1).expect("row");
            for a in 0..3 {
                shift[a] += row[a].to_f64() * qj;
            }
        }
        let centre_exact = place([0, 1, 2].map(|a| c[a] + shift[a]));
        let centre_kernel = [0, 1, 2].map(|a| fitted.sphere[a].to_f64());
        prop_assert_eq!(fitted.sphere[3].to_f64(), r);
        let triangles: Vec<[[f64; 3]; 3]> = own[k]
            .iter()
            .map(|&t| mesh.triangles[t as usize].map(|v| world[v as usize]))
            .collect();
        for i in 0..48 {
            // On the sphere (where the largest distances are) and inside it.
            let d = rng.unit_vector();
            let s = if i % 2 == 0 { r } else { r * rng.unit().cbrt() };
            let x_rest = [0, 1, 2].map(|a| c[a] + s * d[a]);
            if solid.contains(x_rest) {
                continue;
            }
            let x_world = place([0, 1, 2].map(|a| x_rest[a] + shift[a]));
            let x_kernel = [0, 1, 2].map(|a| x_world[a] - centre_exact[a] + centre_kernel[a]);
            for x in [x_world, x_kernel] {
                let near = triangles
                    .iter()
                    .map(|&t| point_triangle_distance(x, t))
                    .fold(f64::INFINITY, f64::min);
                prop_assert!(
                    near <= reach,
                    "node {k}: a point of the fitted sphere is {near} from its triangles, \
                     reach {reach} (radius {r})"
                );
            }
            checked += 1;
        }
    }
    Ok(checked)
}

proptest! {
    #![proptest_config(config(24, 0xF17_5901))]

    #[test]
    fn fitted_reach_holds(
        index in 0usize..5,
        modes in 0usize..=6,
        amplitude in prop_oneof![Just(0.02), Just(0.2)],
        scale in prop_oneof![Just(1.0), Just(1e-3)],
        far in prop_oneof![Just(0.0), Just(300.0)],
        medial in any::<bool>(),
        seed in any::<u64>(),
    ) {
        let mut rng = Rng::new(seed);
        let mesh = scaled(closed_meshes().swap_remove(index), scale);
        let mut basis = smooth_basis(&mesh.vertices, modes, amplitude);
        basis.data.iter_mut().for_each(|x| *x *= scale);
        let q: Vec<f64> = (0..modes).map(|_| rng.uniform(-1.5, 1.5)).collect();
        let pose = io::Pose {
            rotation: rng.rotation(),
            translation: [0, 1, 2].map(|_| far * scale * rng.uniform(-1.0, 1.0)),
        };
        let tree = if medial { TreeKind::Medial } else { TreeKind::Median };
        let basis = (modes > 0).then_some(&basis);
        let mut checked = check_reach::<f32>(tree, &mesh, basis, &q, pose, seed)?;
        checked += check_reach::<f64>(tree, &mesh, basis, &q, pose, seed)?;
        prop_assert!(checked > 0, "no point outside the body was sampled");
    }
}

/// The chair (thin slabs), deformable, both precisions: the fitted spheres' reach holds there too.
#[test]
fn fitted_reach_holds_on_the_chair() {
    let mesh = chair_mesh();
    let basis = smooth_basis(&mesh.vertices, 6, 0.05);
    let mut rng = Rng::new(59);
    for case in 0..3 {
        let q: Vec<f64> = (0..6).map(|_| rng.uniform(-1.5, 1.5)).collect();
        let pose = io::Pose {
            rotation: rng.rotation(),
            translation: [0, 1, 2].map(|_| rng.uniform(-50.0, 50.0)),
        };
        let checked = check_reach::<f32>(TreeKind::Medial, &mesh, Some(&basis), &q, pose, case)
            .and_then(|n| {
                check_reach::<f64>(TreeKind::Medial, &mesh, Some(&basis), &q, pose, case)
                    .map(|m| n + m)
            })
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(checked > 0);
    }
}
