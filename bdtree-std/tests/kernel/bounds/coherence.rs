//! Temporal coherence: containment of every deformed vertex in every node's coherent sphere at
//! every step of smooth and jerky trajectories, under every anchoring policy, and coherent
//! traversals equal to brute force — in f32 and in f64.

use bdtree_core::{collide, stack_capacity, Anchor, ReferenceEntry, Scalar, TrianglePair};
use bdtree_std::build::build;
use bdtree_std::io;
use bdtree_std::io::{Basis, ImageBuf, Mesh};
use bdtree_std::shapes::procedural::smooth_basis;
use bdtree_std::{oracle, BodyStorage};

use crate::support::{
    dist, kernel_pose, meshes, node_vertices, options_in, rough_basis, shuffled, sphere_f64,
    stored_model, Rng,
};

fn image_of<S: Scalar>(mesh: &Mesh, basis: &Basis) -> ImageBuf {
    let options = options_in::<S>();
    build(mesh, Some(basis), options, &mut |_| {})
        .expect("build")
        .0
}

/// A trajectory of `steps` coordinate vectors: smooth (a sum of slow sines) or jerky (random
/// jumps of the full amplitude every step).
fn trajectory(modes: usize, steps: usize, scale: f64, jerky: bool, rng: &mut Rng) -> Vec<Vec<f64>> {
    let phase: Vec<f64> = (0..modes).map(|_| rng.uniform(0.0, 6.3)).collect();
    let rate: Vec<f64> = (0..modes).map(|_| rng.uniform(0.05, 0.3)).collect();
    (0..steps)
        .map(|t| {
            (0..modes)
                .map(|j| {
                    if jerky {
                        rng.uniform(-scale, scale)
                    } else {
                        scale * (phase[j] + rate[j] * t as f64).sin()
                    }
                })
                .collect()
        })
        .collect()
}

fn policies<S: Scalar>() -> [Anchor<S>; 4] {
    [
        Anchor::OnRequest,
        Anchor::Steps(3),
        Anchor::Drift(S::from_f64(0.5)),
        Anchor::Growth(S::from_f64(0.02)),
    ]
}

/// Walks a trajectory with a coherent body and checks every node's sphere at every step
/// against the deformed vertices (source data and stored model, in f64). Returns the anchors
/// taken.
fn check_containment<S: Scalar>(
    mesh: &Mesh,
    basis: &Basis,
    qs: &[Vec<f64>],
    policy: Anchor<S>,
    rng: &mut Rng,
) -> u32 {
    let buf = image_of::<S>(mesh, basis);
    let image = buf.parse::<S>().expect("parse");
    let n = image.tree.node_count();
    let mut cache = BodyStorage::new(n);
    let mut refs = vec![ReferenceEntry::default(); n];
    let mut reference_modes = vec![S::ZERO; bdtree_core::mode_storage(image.tree.modes())];
    let mut body = cache
        .body(&image)
        .and_then(|b| b.with_coherence(&mut refs, &mut reference_modes, policy))
        .expect("body");
    let (stored_mesh, stored_basis) = stored_model(&image);
    let sets = node_vertices(&image);
    for (step, q) in qs.iter().enumerate() {
        let pose = io::Pose {
            rotation: rng.rotation(),
            translation: [0, 1, 2].map(|_| rng.uniform(-5.0, 5.0)),
        };
        let qk: Vec<S> = q.iter().map(|&x| S::from_f64(x)).collect();
        body.set_state(kernel_pose(&pose), &qk).expect("state");
        if matches!(policy, Anchor::OnRequest) && step == qs.len() / 2 {
            body.reanchor();
        }
        let source = oracle::deform(&mesh.vertices, Some(basis), q, &pose);
        let stored = oracle::deform(&stored_mesh.vertices, Some(&stored_basis), q, &pose);
        // Visit nodes in a random order: the reference cache fills lazily in any order.
        for k in shuffled(n, rng) {
            let (c, r) = sphere_f64(&mut body, k);
            for &v in &sets[k] {
                for (what, world) in [("source", &source), ("stored", &stored)] {
                    let d = dist(world[v as usize], c);
                    assert!(
                        d <= r,
                        "{} {policy:?} step {step}: node {k} vertex {v} ({what}) at {d} outside \
                         radius {r} (drift {:?})",
                        S::NAME,
                        body.drift()
                    );
                }
            }
        }
    }
    body.anchor_count()
}

#[test]
fn coherent_spheres_contain_every_vertex_on_smooth_and_jerky_trajectories() {
    let mut rng = Rng::new(0xBD7_C0E1);
    let mut anchors = [0u32; 4];
    for (index, mesh) in meshes().iter().enumerate() {
        for jerky in [false, true] {
            let modes = 1 + rng.below(10);
            let basis = if index % 2 == 0 {
                smooth_basis(&mesh.vertices, modes, 0.2)
            } else {
                rough_basis(mesh.vertices.len(), modes, 0.05, &mut rng)
            };
            let scale = if jerky { 3.0 } else { 1.0 };
            let qs = trajectory(modes, 10, scale, jerky, &mut rng);
            for (p, policy) in policies::<f32>().into_iter().enumerate() {
                anchors[p] += check_containment::<f32>(mesh, &basis, &qs, policy, &mut rng);
            }
            for policy in policies::<f64>() {
                check_containment::<f64>(mesh, &basis, &qs, policy, &mut rng);
            }
        }
    }
    // The policies did what they say: on request anchors twice per walk (construction and the
    // mid-walk call), every 3 steps about 3–4 times, the adaptive ones at least once.
    assert_eq!(anchors[0], 2 * 10, "on request: {anchors:?}");
    assert!(anchors[1] >= 3 * 10, "every 3 steps: {anchors:?}");
    assert!(anchors[2] > 10 && anchors[3] > 10, "adaptive: {anchors:?}");
}

#[test]
fn coherent_traversal_equals_brute_force_along_trajectories() {
    let mut rng = Rng::new(0xBD7_C0E2);
    let all = meshes();
    let mut total = 0;
    for case in 0..10 {
        let (mesh_a, mesh_b) = (&all[case % 5], &all[(case * 3 + 1) % 5]);
        let (ma, mb) = (1 + rng.below(8), 1 + rng.below(8));
        let basis_a = smooth_basis(&mesh_a.vertices, ma, 0.2);
        let basis_b = smooth_basis(&mesh_b.vertices, mb, 0.2);
        let jerky = case % 2 == 1;
        let qa = trajectory(ma, 8, 1.5, jerky, &mut rng);
        let qb = trajectory(mb, 8, 1.5, jerky, &mut rng);
        let policy = policies::<f32>()[case % 4];
        let (buf_a, buf_b) = (
            image_of::<f32>(mesh_a, &basis_a),
            image_of::<f32>(mesh_b, &basis_b),
        );
        let (image_a, image_b) = (
            buf_a.parse::<f32>().expect("a"),
            buf_b.parse::<f32>().expect("b"),
        );
        let (na, nb) = (image_a.tree.node_count(), image_b.tree.node_count());
        let (mut cache_a, mut cache_b) = (BodyStorage::new(na), BodyStorage::new(nb));
        let (mut refs_a, mut refs_b) = (
            vec![ReferenceEntry::default(); na],
            vec![ReferenceEntry::default(); nb],
        );
        let mut modes_a = vec![0.0f32; bdtree_core::mode_storage(image_a.tree.modes())];
        let mut modes_b = vec![0.0f32; bdtree_core::mode_storage(image_b.tree.modes())];
        let mut a = cache_a
            .body(&image_a)
            .and_then(|b| b.with_coherence(&mut refs_a, &mut modes_a, policy))
            .expect("a");
        let mut b = cache_b
            .body(&image_b)
            .and_then(|b| b.with_coherence(&mut refs_b, &mut modes_b, policy))
            .expect("b");
        let mut stack = vec![[0u32; 2]; stack_capacity(image_a.tree.depth(), image_b.tree.depth())];
        for step in 0..8 {
            let pa = io::Pose {
                rotation: rng.rotation(),
                translation: [0, 1, 2].map(|_| rng.uniform(-0.2, 0.2)),
            };
            let pb = io::Pose {
                rotation: rng.rotation(),
                translation: [0, 1, 2].map(|_| rng.uniform(-0.7, 0.7)),
            };
            let q32 = |q: &[f64]| q.iter().map(|&x| x as f32).collect::<Vec<_>>();
            a.set_state(kernel_pose(&pa), &q32(&qa[step]))
                .expect("a state");
            b.set_state(kernel_pose(&pb), &q32(&qb[step]))
                .expect("b state");
            let mut pairs = Vec::new();
            let outcome = collide(&mut a, &mut b, &mut stack, &mut |p: TrianglePair| {
                pairs.push((p.a, p.b));
                true
            });
            assert!(outcome.status.is_complete(), "{:?}", outcome.status);
            pairs.sort_unstable();
            let world_a = oracle::deform(&mesh_a.vertices, Some(&basis_a), &qa[step], &pa);
            let world_b = oracle::deform(&mesh_b.vertices, Some(&basis_b), &qb[step], &pb);
            let expected =
                oracle::brute_force_pairs(&world_a, &mesh_a.triangles, &world_b, &mesh_b.triangles);
            for p in &expected {
                assert!(
                    pairs.binary_search(p).is_ok(),
                    "case {case} step {step} {policy:?}: missed {p:?} of {}",
                    expected.len()
                );
            }
            let tolerance = 10.0 * f64::from(a.error() + b.error());
            for &(ta, tb) in pairs.iter().filter(|p| expected.binary_search(p).is_err()) {
                let ta3 = mesh_a.triangles[ta as usize].map(|v| world_a[v as usize]);
                let tb3 = mesh_b.triangles[tb as usize].map(|v| world_b[v as usize]);
                let gap = oracle::separation_gap(&ta3, &tb3);
                assert!(
                    gap <= tolerance,
                    "case {case} step {step}: extra pair {gap} apart"
                );
            }
            total += expected.len();
        }
    }
    // The trajectories make contact: the comparison is not vacuous.
    assert!(
        total > 100,
        "only {total} intersecting pairs over all steps"
    );
}
