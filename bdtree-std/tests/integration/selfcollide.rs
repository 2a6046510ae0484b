//! Self-collision against the f64 brute force over every pair of non-adjacent triangles of the
//! explicitly deformed mesh: nothing missed, extras only within the rounding inflation.

use bdtree_core::{
    collide_self, self_stack_capacity, Body, CacheEntry, Pose, QueryStatus, Scalar, TrianglePair,
};
use bdtree_std::basis::Basis;
use bdtree_std::builder::{build, BuildOptions, Precision};
use bdtree_std::mesh::Mesh;
use bdtree_std::oracle;
use bdtree_std::procedural::{bar, blob, icosphere, sheet, smooth_basis, torus};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};

use crate::support::{rough_basis, Rng};

/// Checks one body and state; returns the number of true self-contacts.
fn check<S: Scalar>(
    mesh: &Mesh,
    basis: &Basis,
    q: &[f64],
    pose: oracle::Pose,
) -> Result<usize, TestCaseError> {
    let options = BuildOptions {
        precision: if S::BYTES == 4 {
            Precision::F32
        } else {
            Precision::F64
        },
        ..BuildOptions::default()
    };
    let buf = build(mesh, Some(basis), options, &mut |_| {})
        .expect("build")
        .0;
    let image = buf.parse::<S>().expect("image");
    let mut cache = vec![CacheEntry::default(); image.tree.node_count()];
    let mut body = Body::<S, 16>::new(&image, &mut cache).expect("body");
    let p = Pose::from_quaternion(
        pose.rotation.map(S::from_f64),
        pose.translation.map(S::from_f64),
    )
    .expect("pose");
    let qs: Vec<S> = q.iter().map(|&x| S::from_f64(x)).collect();
    body.set_state(p, &qs).expect("state");
    let mut stack = vec![[0u32; 2]; self_stack_capacity(image.tree.depth())];
    let mut found = Vec::new();
    let outcome = collide_self(&mut body, &mut stack, &mut |p: TrianglePair| {
        found.push((p.a, p.b));
        true
    });
    prop_assert_eq!(outcome.status, QueryStatus::Complete);
    let count = found.len();
    found.sort_unstable();
    found.dedup();
    prop_assert_eq!(found.len(), count, "duplicate pairs");
    for &(a, b) in &found {
        let (ta, tb) = (mesh.triangles[a as usize], mesh.triangles[b as usize]);
        prop_assert!(
            a < b && !ta.iter().any(|v| tb.contains(v)),
            "({a}, {b}) adjacent or unordered"
        );
    }
    let world = oracle::deform(&mesh.vertices, Some(basis), q, &pose);
    let truth = oracle::brute_force_self_pairs(&world, &mesh.triangles);
    for t in &truth {
        prop_assert!(
            found.binary_search(t).is_ok(),
            "{}: missed {t:?} of {}",
            S::NAME,
            truth.len()
        );
    }
    let tolerance = 20.0 * body.error().to_f64();
    let tri = |t: u32| mesh.triangles[t as usize].map(|v| world[v as usize]);
    for &(a, b) in found.iter().filter(|p| truth.binary_search(p).is_err()) {
        let gap = oracle::separation_gap(&tri(a), &tri(b));
        prop_assert!(
            gap <= tolerance,
            "{}: extra ({a}, {b}) {gap} apart",
            S::NAME
        );
    }
    Ok(truth.len())
}

fn meshes() -> Vec<Mesh> {
    vec![
        sheet(1.5, 1.0, 12, 8),
        icosphere(0.5, 2),
        torus(0.5, 0.15, 18, 8),
        bar(2.0, 0.08, 14),
        blob(0.5, 2, 5, 11),
    ]
}

fn config(cases: u32, seed: u64) -> Config {
    Config {
        cases,
        rng_seed: RngSeed::Fixed(seed),
        failure_persistence: None,
        ..Config::default()
    }
}

proptest! {
    #![proptest_config(config(40, 0xBD7_0701))]

    #[test]
    fn self_collision_equals_brute_force(
        index in 0usize..5,
        modes in 1usize..=6,
        rough in any::<bool>(),
        amplitude in prop_oneof![Just(0.02), Just(0.2), Just(0.6)],
        seed in any::<u64>(),
    ) {
        let mut rng = Rng(seed);
        let mesh = meshes().swap_remove(index);
        let basis = if rough {
            rough_basis(mesh.vertices.len(), modes, amplitude * 0.2, &mut rng)
        } else {
            smooth_basis(&mesh.vertices, modes, amplitude)
        };
        let q: Vec<f64> = (0..modes).map(|_| rng.uniform(-2.0, 2.0)).collect();
        let pose = oracle::Pose { rotation: rng.rotation(), translation: [0, 1, 2].map(|_| rng.uniform(-1.0, 1.0)) };
        check::<f32>(&mesh, &basis, &q, pose)?;
        check::<f64>(&mesh, &basis, &q, pose)?;
    }
}

/// A sheet folded onto itself by one mode: its right half swings over the left and through it.
#[test]
fn a_folded_sheet_collides_with_itself() {
    let mesh = sheet(2.0, 1.0, 16, 8);
    let mut basis = Basis::zeros(mesh.vertices.len(), 1);
    for (i, v) in mesh.vertices.iter().enumerate() {
        if v[0] > 0.0 {
            // q = 1 mirrors x > 0 to −x and lifts it by 0.3·x·(y − 0.5·sign), tilting the flap
            // so that it crosses the left half.
            basis.data[3 * i] = -2.0 * v[0];
            basis.data[3 * i + 2] = 0.6 * v[0] * v[1];
        }
    }
    let mut total = 0;
    for q in [0.0, 0.5, 1.0, 1.2] {
        total += check::<f32>(&mesh, &basis, &[q], oracle::Pose::IDENTITY).expect("f32");
        total += check::<f64>(&mesh, &basis, &[q], oracle::Pose::IDENTITY).expect("f64");
    }
    assert!(total > 0, "the fold crosses the sheet somewhere");
}

/// Normal cones: a flat sheet is one cone at the root, a closed sphere has none; a parent's
/// bitfield is the AND of its children's; the culled traversal reports a subset of the exact
/// one (it may miss, never invents).
#[test]
fn normal_culling_reports_a_subset_and_cones_nest() {
    use bdtree_core::selfcollide::{collide_self_normal_culled, normal_cones};
    use bdtree_core::NodeKind;
    let mut rng = Rng(0xBD7_0702);
    for (mesh, expect_root) in [
        (sheet(1.5, 1.0, 12, 8), Some(true)),
        (icosphere(0.5, 2), Some(false)),
        (blob(0.5, 2, 5, 11), None),
    ] {
        let basis = smooth_basis(&mesh.vertices, 4, 0.4);
        let buf = build(&mesh, Some(&basis), BuildOptions::default(), &mut |_| {})
            .expect("build")
            .0;
        let image = buf.parse::<f32>().expect("image");
        let n = image.tree.node_count();
        let mut cache = vec![CacheEntry::default(); n];
        let mut body = Body::<f32, 8>::new(&image, &mut cache).expect("body");
        let mut cones = vec![0u16; n];
        let mut stack = vec![[0u32; 2]; self_stack_capacity(image.tree.depth())];
        for step in 0..6 {
            let q: Vec<f32> = (0..4).map(|_| rng.uniform(-2.0, 2.0) as f32).collect();
            body.set_state(Pose::identity(), &if step == 0 { vec![0.0; 4] } else { q })
                .expect("state");
            normal_cones(&mut body, &mut cones).expect("cones");
            if step == 0 {
                if let Some(flat) = expect_root {
                    assert_eq!(cones[0] != 0, flat, "root cone of the rest shape");
                }
            }
            for k in 0..n {
                if let Some(NodeKind::Internal { left, right }) = image.tree.kind(k) {
                    assert_eq!(cones[k], cones[left as usize] & cones[right as usize]);
                }
            }
            let mut exact = Vec::new();
            collide_self(&mut body, &mut stack, &mut |p: TrianglePair| {
                exact.push((p.a, p.b));
                true
            });
            let mut culled = Vec::new();
            let outcome = collide_self_normal_culled(
                &mut body,
                &cones,
                &mut stack,
                &mut |p: TrianglePair| {
                    culled.push((p.a, p.b));
                    true
                },
            );
            assert_eq!(outcome.status, QueryStatus::Complete);
            exact.sort_unstable();
            for p in &culled {
                assert!(
                    exact.binary_search(p).is_ok(),
                    "culled reported {p:?} that the exact traversal did not"
                );
            }
        }
    }
}
