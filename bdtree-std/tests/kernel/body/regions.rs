//! Deformation regions: with per-node mode supports, a step that changes some coordinates
//! recomputes exactly the nodes whose support meets them, and every sphere — recomputed or
//! carried over — still contains its node's deformed vertices; queries equal brute force.

use bdtree_core::{collide, stack_capacity, Body, BodyError, Pose, Scalar};
use bdtree_std::build::{build, BuildOptions};
use bdtree_std::io;
use bdtree_std::io::{Basis, Mesh};
use bdtree_std::shapes::procedural::{blob, smooth_basis};
use bdtree_std::shapes::{bspline_patch, cage_basis};
use bdtree_std::{oracle, BodyStorage};
use proptest::prelude::*;

use crate::support::{
    config, dist, image_in, node_vertices, pairs_into, set_state_f64, shuffled, sphere_f64, Rng,
};

fn bodies() -> Vec<(Mesh, Basis)> {
    let patch = bspline_patch(1.2, 0.8, [5, 4], 3, [13, 9]).expect("patch");
    let blob_mesh = blob(0.4, 2, 4, 5);
    let cage = cage_basis(&blob_mesh, [2, 2, 1]).expect("cage");
    let smooth = smooth_basis(&blob_mesh.vertices, 6, 0.1);
    vec![
        (patch.mesh, patch.basis),
        (blob_mesh.clone(), cage.basis),
        (blob_mesh, smooth),
    ]
}

/// A walk of steps each changing a random subset of q (sometimes the pose); after each step
/// every node's sphere (in random order) contains its deformed vertices.
fn walk<S: Scalar>(mesh: &Mesh, basis: &Basis, rng: &mut Rng) -> Result<(), TestCaseError> {
    let buf = image_in::<S>(mesh, Some(basis));
    let image = buf.parse::<S>().expect("image");
    let mut cache = BodyStorage::new(image.tree.node_count());
    let mut words = vec![0u64; Body::<S>::region_words(&image.tree)];
    let mut body = cache
        .body(&image)
        .and_then(|b| b.with_regions(&mut words))
        .expect("body");
    let sets = node_vertices(&image);
    let m = basis.modes;
    let mut q = vec![0.0f64; m];
    let mut pose = io::Pose::IDENTITY;
    for step in 0..8 {
        match rng.below(4) {
            0 => {
                let j = rng.below(m.max(1));
                if m > 0 {
                    q[j] = rng.uniform(-0.3, 0.3);
                }
            }
            1 => {
                for x in q.iter_mut() {
                    if rng.below(3) == 0 {
                        *x = rng.uniform(-0.3, 0.3);
                    }
                }
            }
            2 => {
                pose = io::Pose {
                    rotation: rng.rotation(),
                    translation: [0, 1, 2].map(|_| rng.uniform(-3.0, 3.0)),
                }
            }
            _ => {}
        }
        set_state_f64(&mut body, &pose, &q);
        let world = oracle::deform(&mesh.vertices, Some(basis), &q, &pose);
        for k in shuffled(sets.len(), rng) {
            let (c, r) = sphere_f64(&mut body, k);
            for &v in &sets[k] {
                let d = dist(world[v as usize], c);
                prop_assert!(
                    d <= r,
                    "{} step {step}: node {k} vertex {v} at {d} outside {r}",
                    S::NAME
                );
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(12, 0xBD7_0C01))]

    #[test]
    fn spheres_carried_over_or_recomputed_contain_their_vertices(index in 0usize..3, seed in any::<u64>()) {
        let mut rng = Rng::new(seed);
        let (mesh, basis) = bodies().swap_remove(index);
        walk::<f32>(&mesh, &basis, &mut rng)?;
        walk::<f64>(&mesh, &basis, &mut rng)?;
    }
}

#[test]
fn moving_one_control_point_recomputes_only_the_nodes_it_moves() {
    // A quadratic patch of 12 × 10 control points: each moves at most 3 × 3 of its 10 × 8 spans.
    let patch = bspline_patch(1.2, 0.8, [12, 10], 2, [41, 33]).expect("patch");
    let buf = build(
        &patch.mesh,
        Some(&patch.basis),
        BuildOptions::default(),
        &mut |_| {},
    )
    .expect("build")
    .0;
    let image = buf.parse::<f32>().expect("image");
    let n = image.tree.node_count();
    let mut cache = BodyStorage::new(n);
    let mut words = vec![0u64; Body::<f32>::region_words(&image.tree)];
    let mut body = cache
        .body(&image)
        .and_then(|b| b.with_regions(&mut words))
        .expect("body");
    let m = patch.basis.modes;
    let mut q = vec![0.0f32; m];
    body.set_state(Pose::identity(), &q).expect("state");
    for k in 0..n {
        body.sphere(k).expect("sphere");
    }
    // Move a control point in the middle along z.
    let mode = 3 * (5 + 12 * 4) + 2;
    q[mode] = 0.05;
    body.set_state(Pose::identity(), &q).expect("state");
    let before = body.update_count();
    for k in 0..n {
        body.sphere(k).expect("sphere");
    }
    let updated = body.update_count() - before;
    let touched = (0..n)
        .filter(|&k| body.support(k).expect("support")[mode / 64] >> (mode % 64) & 1 == 1)
        .count();
    assert_eq!(updated as usize, touched);
    assert!(
        touched > 0 && touched < n / 4,
        "a local basis touches a small region: {touched} of {n}"
    );
    // Supports are local: no node is moved by every control point.
    let widest = (0..n)
        .map(|k| {
            body.support(k)
                .unwrap()
                .iter()
                .map(|w| w.count_ones())
                .sum::<u32>()
        })
        .max()
        .unwrap();
    assert!((widest as usize) <= m);
    // A pose change recomputes everything.
    let before = body.update_count();
    let pose = Pose::from_quaternion([1.0, 0.0, 0.0, 0.0], [0.5, 0.0, 0.0]).expect("pose");
    body.set_state(pose, &q).expect("state");
    for k in 0..n {
        body.sphere(k).expect("sphere");
    }
    assert_eq!((body.update_count() - before) as usize, n);
}

#[test]
fn queries_with_regions_equal_brute_force_step_after_step() {
    let patch = bspline_patch(1.2, 0.8, [5, 4], 3, [17, 13]).expect("patch");
    let (mesh, basis) = (patch.mesh, patch.basis);
    let buf = build(&mesh, Some(&basis), BuildOptions::default(), &mut |_| {})
        .expect("build")
        .0;
    let image = buf.parse::<f32>().expect("image");
    let n = image.tree.node_count();
    let (mut ca, mut cb) = (BodyStorage::new(n), BodyStorage::new(n));
    let words = Body::<f32>::region_words(&image.tree);
    let (mut wa, mut wb) = (vec![0u64; words], vec![0u64; words]);
    let mut a = ca
        .body(&image)
        .and_then(|b| b.with_regions(&mut wa))
        .expect("a");
    let mut b = cb
        .body(&image)
        .and_then(|b| b.with_regions(&mut wb))
        .expect("b");
    let mut rng = Rng::new(0xBD7_0C02);
    let m = basis.modes;
    let (mut qa, mut qb) = (vec![0.0f64; m], vec![0.0f64; m]);
    let pose_b = io::Pose::from_axis_angle([1.0, 0.0, 0.0], 1.2, [0.1, 0.05, 0.0]);
    let mut stack = vec![[0u32; 2]; stack_capacity(image.tree.depth(), image.tree.depth())];
    let mut total = 0;
    for _ in 0..30 {
        let j = rng.below(m);
        qa[j] = rng.uniform(-0.2, 0.2);
        let j = rng.below(m);
        qb[j] = rng.uniform(-0.2, 0.2);
        let f = |q: &[f64]| q.iter().map(|&x| x as f32).collect::<Vec<f32>>();
        a.set_state(Pose::identity(), &f(&qa)).expect("a");
        let pb = Pose::from_quaternion(
            pose_b.rotation.map(|x| x as f32),
            pose_b.translation.map(|x| x as f32),
        )
        .expect("pose");
        b.set_state(pb, &f(&qb)).expect("b");
        let mut found = Vec::new();
        let outcome = collide(&mut a, &mut b, &mut stack, &mut pairs_into(&mut found));
        assert!(outcome.status.is_complete());
        found.sort_unstable();
        let wa_ = oracle::deform(&mesh.vertices, Some(&basis), &qa, &io::Pose::IDENTITY);
        let wb_ = oracle::deform(&mesh.vertices, Some(&basis), &qb, &pose_b);
        let truth = oracle::brute_force_pairs(&wa_, &mesh.triangles, &wb_, &mesh.triangles);
        for t in &truth {
            assert!(found.binary_search(t).is_ok(), "missed {t:?}");
        }
        total += truth.len();
    }
    assert!(total > 0, "the sheets cross");
}

#[test]
fn too_little_region_storage_is_an_error() {
    let (mesh, basis) = bodies().swap_remove(0);
    let buf = build(&mesh, Some(&basis), BuildOptions::default(), &mut |_| {})
        .expect("build")
        .0;
    let image = buf.parse::<f32>().expect("image");
    let mut cache = BodyStorage::new(image.tree.node_count());
    let mut words = vec![0u64; 3];
    let err = cache
        .body(&image)
        .and_then(|b| b.with_regions(&mut words))
        .err();
    assert!(
        matches!(err, Some(BodyError::RegionStorageTooSmall { .. })),
        "{err:?}"
    );
}
