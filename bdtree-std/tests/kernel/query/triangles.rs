//! Property tests with fixed seeds: containment of every deformed vertex in its node's updated
//! sphere, and traversal answers equal to brute force — in f32 and in f64.

use bdtree_core::{Scalar, VertexEntry};
use bdtree_std::build::{build, BuildOptions, TreeKind};
use bdtree_std::io;
use bdtree_std::io::{Basis, ImageBuf, Mesh};
use bdtree_std::shapes::procedural::{bar, blob, icosphere, sheet, smooth_basis, torus, uv_sphere};
use bdtree_std::{oracle, BodyStorage};
use proptest::prelude::*;

use crate::support::{
    collide_all, config, dist, node_vertices, precision, rough_basis, set_state_f64, shuffled,
    sphere_f64, stored_model, Rng,
};

fn meshes() -> Vec<(&'static str, Mesh)> {
    vec![
        ("icosphere", icosphere(0.5, 2)),
        ("torus", torus(0.5, 0.15, 18, 8)),
        ("sheet", sheet(1.5, 1.0, 9, 6)),
        ("bar (elongated triangles)", bar(2.0, 0.08, 14)),
        ("blob", blob(0.5, 2, 5, 11)),
        ("uv sphere", uv_sphere(0.4, 8, 12)),
    ]
}

fn image_of<S: Scalar>(mesh: &Mesh, basis: Option<&Basis>) -> ImageBuf {
    image_of_kind::<S>(TreeKind::Median, mesh, basis)
}

fn image_of_kind<S: Scalar>(tree: TreeKind, mesh: &Mesh, basis: Option<&Basis>) -> ImageBuf {
    let options = BuildOptions {
        tree,
        precision: precision::<S>(),
        ..BuildOptions::default()
    };
    build(mesh, basis, options, &mut |_| {}).expect("build").0
}

/// Every node's updated world sphere contains every deformed world vertex below it, computed
/// in f64 from the source data and from the stored (rounded) model; nodes visited in random
/// order.
fn check_containment<S: Scalar>(
    mesh: &Mesh,
    basis: &Basis,
    q: &[f64],
    rotation: [f64; 4],
    translation: [f64; 3],
    rng: &mut Rng,
) -> Result<(), TestCaseError> {
    let buf = image_of::<S>(mesh, Some(basis));
    let image = buf.parse::<S>().expect("parse");
    let opose = io::Pose {
        rotation,
        translation,
    };
    let source = oracle::deform(&mesh.vertices, Some(basis), q, &opose);
    let (stored_mesh, stored_basis) = stored_model(&image);
    let stored = oracle::deform(&stored_mesh.vertices, Some(&stored_basis), q, &opose);
    let sets = node_vertices(&image);
    // Without a vertex cache every sphere is the BD-Tree update; with one, leaves are bounded
    // from their deformed triangles: both must contain the vertices.
    for cached in [false, true] {
        let mut cache = BodyStorage::new(image.tree.node_count());
        let mut vertices = vec![VertexEntry::default(); image.model.positions().len()];
        let mut body = cache.body(&image).expect("body");
        if cached {
            body = body.with_vertex_cache(&mut vertices).expect("vertex cache");
        }
        set_state_f64(&mut body, &opose, q);
        for k in shuffled(sets.len(), rng) {
            let (c, r) = sphere_f64(&mut body, k);
            for &v in &sets[k] {
                for (what, world) in [("source", &source), ("stored", &stored)] {
                    let d = dist(world[v as usize], c);
                    prop_assert!(
                        d <= r,
                        "{}: node {k} vertex {v} ({what}) at {d} outside radius {r} (vertex cache: {cached})",
                        S::NAME
                    );
                }
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(40, 0xBD7_0001))]

    #[test]
    fn every_deformed_vertex_lies_in_its_updated_sphere(
        mesh_index in 0usize..6,
        modes in 0usize..=12,
        rough in any::<bool>(),
        amplitude in prop_oneof![Just(0.01), Just(0.3), Just(2.0)],
        q_scale in prop_oneof![Just(0.1), Just(1.0), Just(25.0)],
        far in any::<bool>(),
        seed in any::<u64>(),
    ) {
        let mut rng = Rng::new(seed);
        let (_, mesh) = meshes().swap_remove(mesh_index);
        let basis = if rough {
            rough_basis(mesh.vertices.len(), modes, amplitude, &mut rng)
        } else {
            smooth_basis(&mesh.vertices, modes, amplitude)
        };
        let q: Vec<f64> = (0..modes).map(|_| rng.uniform(-q_scale, q_scale)).collect();
        let rotation = rng.rotation();
        let reach = if far { 1000.0 } else { 2.0 };
        let translation = [0, 1, 2].map(|_| rng.uniform(-reach, reach));
        check_containment::<f32>(&mesh, &basis, &q, rotation, translation, &mut rng)?;
        check_containment::<f64>(&mesh, &basis, &q, rotation, translation, &mut rng)?;
    }
}

/// The kernel's pairs for two bodies against brute force on the f64 source data: nothing
/// missed, and any extra pair separated by less than the bodies' rounding inflation.
fn check_traversal<S: Scalar>(
    a: (&Mesh, Option<&Basis>, &[f64], io::Pose),
    b: (&Mesh, Option<&Basis>, &[f64], io::Pose),
) -> Result<usize, TestCaseError> {
    check_traversal_of::<S>(TreeKind::Median, a, b)
}

/// [`check_traversal`] on trees of the given kind.
pub(crate) fn check_traversal_of<S: Scalar>(
    tree: TreeKind,
    a: (&Mesh, Option<&Basis>, &[f64], io::Pose),
    b: (&Mesh, Option<&Basis>, &[f64], io::Pose),
) -> Result<usize, TestCaseError> {
    let (buf_a, buf_b) = (
        image_of_kind::<S>(tree, a.0, a.1),
        image_of_kind::<S>(tree, b.0, b.1),
    );
    let (image_a, image_b) = (
        buf_a.parse::<S>().expect("a"),
        buf_b.parse::<S>().expect("b"),
    );
    let mut cache_a = BodyStorage::new(image_a.tree.node_count());
    let mut cache_b = BodyStorage::new(image_b.tree.node_count());
    let mut body_a = cache_a.body(&image_a).expect("body a");
    // Body b deforms its vertices through a vertex cache, body a without: both paths tested.
    let mut vertices_b = vec![VertexEntry::default(); image_b.model.positions().len()];
    let mut body_b = cache_b
        .body(&image_b)
        .and_then(|b| b.with_vertex_cache(&mut vertices_b))
        .expect("body b");
    for (body, (_, _, q, pose)) in [(&mut body_a, &a), (&mut body_b, &b)] {
        set_state_f64(body, pose, q);
    }
    let depths = [image_a.tree.depth(), image_b.tree.depth()];
    let (outcome, found) = collide_all(&mut body_a, &mut body_b, depths);
    let mut pairs: Vec<(u32, u32)> = found.iter().map(|p| (p.a, p.b)).collect();
    prop_assert!(outcome.status.is_complete(), "{:?}", outcome.status);
    prop_assert_eq!(outcome.stats.pairs as usize, pairs.len());
    pairs.sort_unstable();
    let world_a = oracle::deform(&a.0.vertices, a.1, a.2, &a.3);
    let world_b = oracle::deform(&b.0.vertices, b.1, b.2, &b.3);
    let expected = oracle::brute_force_pairs(&world_a, &a.0.triangles, &world_b, &b.0.triangles);
    let missed: Vec<_> = expected
        .iter()
        .filter(|p| pairs.binary_search(p).is_err())
        .collect();
    prop_assert!(
        missed.is_empty(),
        "{}: missed {} of {} pairs: {:?}",
        S::NAME,
        missed.len(),
        expected.len(),
        missed
    );
    let tolerance = 10.0 * (body_a.error() + body_b.error()).to_f64();
    let tri = |world: &[[f64; 3]], mesh: &Mesh, t: u32| {
        mesh.triangles[t as usize].map(|v| world[v as usize])
    };
    for &(ta, tb) in pairs.iter().filter(|p| expected.binary_search(p).is_err()) {
        let gap = oracle::separation_gap(&tri(&world_a, a.0, ta), &tri(&world_b, b.0, tb));
        prop_assert!(
            gap <= tolerance,
            "{}: extra pair ({ta}, {tb}) is {gap} apart (tolerance {tolerance})",
            S::NAME
        );
    }
    Ok(expected.len())
}

proptest! {
    #![proptest_config(config(48, 0xBD7_0002))]

    #[test]
    fn traversal_equals_brute_force(
        ia in 0usize..6,
        ib in 0usize..6,
        modes_a in 0usize..=10,
        modes_b in 0usize..=10,
        amplitude in prop_oneof![Just(0.02), Just(0.2)],
        seed in any::<u64>(),
    ) {
        let mut rng = Rng::new(seed);
        let all = meshes();
        let (mesh_a, mesh_b) = (&all[ia].1, &all[ib].1);
        let basis_a = smooth_basis(&mesh_a.vertices, modes_a, amplitude);
        let basis_b = smooth_basis(&mesh_b.vertices, modes_b, amplitude);
        let qa: Vec<f64> = (0..modes_a).map(|_| rng.uniform(-1.5, 1.5)).collect();
        let qb: Vec<f64> = (0..modes_b).map(|_| rng.uniform(-1.5, 1.5)).collect();
        let pose_a = io::Pose { rotation: rng.rotation(), translation: [0, 1, 2].map(|_| rng.uniform(-0.2, 0.2)) };
        let pose_b = io::Pose { rotation: rng.rotation(), translation: [0, 1, 2].map(|_| rng.uniform(-0.7, 0.7)) };
        let a = (mesh_a, Some(&basis_a), qa.as_slice(), pose_a);
        let b = (mesh_b, Some(&basis_b), qb.as_slice(), pose_b);
        check_traversal::<f32>(a, b)?;
        check_traversal::<f64>(a, b)?;
    }
}

fn lifted(mut mesh: Mesh, t: [f64; 3]) -> Mesh {
    bdtree_std::shapes::procedural::translate(&mut mesh, t);
    mesh
}

#[test]
fn touching_and_nearly_touching_bodies() {
    let id = io::Pose::IDENTITY;
    let floor = sheet(2.0, 2.0, 10, 10);
    let cases: Vec<(&str, Mesh, bool)> = vec![
        (
            "coplanar overlapping sheets",
            lifted(sheet(1.0, 0.75, 5, 4), [0.25, 0.125, 0.0]),
            true,
        ),
        (
            "parallel sheets 1e-3 apart",
            lifted(sheet(1.0, 0.75, 5, 4), [0.25, 0.125, 1e-3]),
            false,
        ),
        (
            "bar resting on the floor",
            lifted(bar(1.0, 0.125, 8), [0.0, 0.0, 0.0625]),
            true,
        ),
        (
            "bar hovering 1e-3 above the floor",
            lifted(bar(1.0, 0.125, 8), [0.0, 0.0, 0.0625 + 1e-3]),
            false,
        ),
        (
            "sphere touching the floor at its pole",
            icosphere(0.5, 2),
            true,
        ),
    ];
    for (name, mesh, touching) in cases {
        let mut mesh = mesh;
        if name.starts_with("sphere") {
            let lowest = mesh
                .vertices
                .iter()
                .map(|v| v[2])
                .fold(f64::INFINITY, f64::min);
            bdtree_std::shapes::procedural::translate(&mut mesh, [0.0, 0.0, -lowest]);
        }
        for precision in ["f32", "f64"] {
            let a = (&floor, None, &[][..], id);
            let b = (&mesh, None, &[][..], id);
            let found = match precision {
                "f32" => check_traversal::<f32>(a, b),
                _ => check_traversal::<f64>(a, b),
            };
            let found = found.unwrap_or_else(|e| panic!("{name} ({precision}): {e}"));
            assert_eq!(
                found > 0,
                touching,
                "{name}: brute force found {found} pairs"
            );
        }
    }
}
