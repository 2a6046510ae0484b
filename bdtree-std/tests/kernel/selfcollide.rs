//! Self-collision against the f64 brute force over every pair of non-adjacent triangles of the
//! explicitly deformed mesh: nothing missed, extras only within the rounding inflation.

use bdtree_core::{collide_self, self_stack_capacity, Pose, QueryStatus, Scalar, TrianglePair};
use bdtree_std::build::{build, BuildOptions, Precision};
use bdtree_std::io::{Basis, Mesh};
use bdtree_std::shapes::procedural::{bar, blob, icosphere, sheet, smooth_basis, torus};
use bdtree_std::{oracle, BodyStorage};
use proptest::prelude::*;

use crate::support::{config, rough_basis, Rng};

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
    let mut cache = BodyStorage::new(image.tree.node_count());
    let mut body = cache.body(&image).expect("body");
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
        let mut rng = Rng::new(seed);
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
    use bdtree_core::query::self_collision::{collide_self_normal_culled, normal_cones};
    use bdtree_core::NodeKind;
    let mut rng = Rng::new(0xBD7_0702);
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
        let mut cache = BodyStorage::new(n);
        let mut body = cache.body(&image).expect("body");
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

/// The vertices below each node, collected independently of the kernel (leaves' triangles).
fn node_vertices(image: &bdtree_core::Image<'_, f32>, triangles: &[[u32; 3]]) -> Vec<Vec<u32>> {
    use bdtree_core::NodeKind;
    let n = image.tree.node_count();
    let mut sets = vec![Vec::new(); n];
    for k in (0..n).rev() {
        let set = match image.tree.kind(k).expect("node") {
            NodeKind::Leaf { triangle } => triangles[triangle as usize].to_vec(),
            NodeKind::Internal { left, right } => {
                let mut s = sets[left as usize].clone();
                s.extend_from_slice(&sets[right as usize]);
                s
            }
            NodeKind::Cut => unreachable!("complete trees have no cut nodes"),
        };
        sets[k] = set;
        sets[k].sort_unstable();
        sets[k].dedup();
    }
    sets
}

/// Signatures never call adjacent nodes non-adjacent (Type 3 is proven), and they do separate
/// most non-adjacent leaf pairs.
#[test]
fn vertex_signatures_never_hide_a_shared_vertex() {
    use bdtree_core::query::self_collision::vertex_signatures;
    let mut rng = Rng::new(0xBD7_0703);
    for mesh in meshes() {
        let buf = build(&mesh, None, BuildOptions::default(), &mut |_| {})
            .expect("build")
            .0;
        let image = buf.parse::<f32>().expect("image");
        let n = image.tree.node_count();
        let mut cache = BodyStorage::new(n);
        let body = cache.body(&image).expect("body");
        let mut signatures = vec![0u64; n];
        vertex_signatures(&body, &mut signatures).expect("signatures");
        let sets = node_vertices(&image, &mesh.triangles);
        let leaves: Vec<usize> = (0..n)
            .filter(|&k| matches!(image.tree.kind(k), Some(bdtree_core::NodeKind::Leaf { .. })))
            .collect();
        let (mut disjoint, mut proven) = (0usize, 0usize);
        for _ in 0..4000 {
            let (i, j) = (rng.below(n), rng.below(n));
            let shared = sets[i].iter().any(|v| sets[j].binary_search(v).is_ok());
            if shared {
                assert_ne!(
                    signatures[i] & signatures[j],
                    0,
                    "nodes {i}, {j} share a vertex"
                );
            }
            let (a, b) = (
                leaves[rng.below(leaves.len())],
                leaves[rng.below(leaves.len())],
            );
            if !sets[a].iter().any(|v| sets[b].binary_search(v).is_ok()) {
                disjoint += 1;
                proven += usize::from(signatures[a] & signatures[b] == 0);
            }
        }
        assert!(
            proven * 4 >= disjoint * 3,
            "only {proven} of {disjoint} non-adjacent leaf pairs proven Type 3"
        );
    }
}

/// A query's pairs, sorted, after checking it completed without duplicates (drains `found`).
fn settle(
    found: &mut Vec<(u32, u32)>,
    outcome: bdtree_core::QueryOutcome,
) -> Result<Vec<(u32, u32)>, TestCaseError> {
    prop_assert_eq!(outcome.status, QueryStatus::Complete);
    let mut pairs = std::mem::take(found);
    let count = pairs.len();
    pairs.sort_unstable();
    pairs.dedup();
    prop_assert_eq!(pairs.len(), count, "duplicate pairs");
    Ok(pairs)
}

/// Runs `steps` states through the exact traversal, the typed traversal (signatures) and an
/// incremental list; all three must give the same set each step. Returns the list's lengths.
fn list_run(
    mesh: &Mesh,
    basis: &Basis,
    states: &[Vec<f32>],
    capacity: usize,
) -> Result<Vec<(usize, bool)>, TestCaseError> {
    use bdtree_core::query::self_collision::{
        collide_self_with, tree_parents, vertex_signatures, SelfAids, SelfList, UnitCounts,
    };
    let buf = build(mesh, Some(basis), BuildOptions::default(), &mut |_| {})
        .expect("build")
        .0;
    let image = buf.parse::<f32>().expect("image");
    let n = image.tree.node_count();
    let mut cache = BodyStorage::new(n);
    let mut body = cache.body(&image).expect("body");
    let mut signatures = vec![0u64; n];
    vertex_signatures(&body, &mut signatures).expect("signatures");
    let mut parents = vec![0u32; n];
    tree_parents(&image.tree, &mut parents).expect("parents");
    let (mut units, mut spare) = (vec![[0u32; 2]; capacity], vec![[0u32; 2]; capacity]);
    let mut list = SelfList::new(&parents, &mut units, &mut spare);
    let mut stack = vec![[0u32; 2]; self_stack_capacity(image.tree.depth())];
    let mut lengths = Vec::new();
    for q in states {
        body.set_state(Pose::identity(), q).expect("state");
        let aids = SelfAids {
            signatures: &signatures,
            cones: &[],
        };
        let mut found = Vec::new();
        let mut sink = |p: TrianglePair| {
            found.push((p.a, p.b));
            true
        };
        let outcome = collide_self(&mut body, &mut stack, &mut sink);
        let exact = settle(&mut found, outcome)?;
        let mut typed_counts = UnitCounts::default();
        let mut sink = |p: TrianglePair| {
            found.push((p.a, p.b));
            true
        };
        let outcome = collide_self_with(&mut body, aids, &mut typed_counts, &mut stack, &mut sink);
        let typed = settle(&mut found, outcome)?;
        let mut sink = |p: TrianglePair| {
            found.push((p.a, p.b));
            true
        };
        let outcome = list.collide(
            &mut body,
            aids,
            &mut stack,
            &mut sink,
            &mut UnitCounts::default(),
        );
        let incremental = settle(&mut found, outcome)?;
        prop_assert_eq!(&typed, &exact, "typed traversal differs");
        prop_assert_eq!(&incremental, &exact, "incremental list differs");
        prop_assert!(typed_counts.type3 > 0 && typed_counts.type2 > 0);
        lengths.push((list.len(), list.overflowed()));
    }
    Ok(lengths)
}

proptest! {
    #![proptest_config(config(16, 0xBD7_0704))]

    /// The incremental list and the typed traversal equal the exact traversal (itself checked
    /// against brute force above) over a motion that folds and unfolds.
    #[test]
    fn incremental_list_equals_exact_traversal(
        index in 0usize..5,
        modes in 1usize..=6,
        amplitude in prop_oneof![Just(0.05), Just(0.3), Just(0.8)],
        seed in any::<u64>(),
    ) {
        let mut rng = Rng::new(seed);
        let mesh = meshes().swap_remove(index);
        let basis = smooth_basis(&mesh.vertices, modes, amplitude);
        let target: Vec<f64> = (0..modes).map(|_| rng.uniform(-2.0, 2.0)).collect();
        let states: Vec<Vec<f32>> = (0..=16)
            .map(|s| {
                let t = 1.0 - (f64::from(s) / 8.0 - 1.0).abs();
                target.iter().map(|&x| (x * t) as f32).collect()
            })
            .collect();
        // Crumpled states can outgrow the list: those steps check the fallback's answer.
        list_run(&mesh, &basis, &states, 16 * mesh.triangles.len())?;
    }
}

/// A list too small to hold the units still answers completely, says so, and walks from the
/// root again next step.
#[test]
fn a_full_list_is_reported_and_the_answer_stays_complete() {
    let mesh = sheet(2.0, 1.0, 16, 8);
    let basis = smooth_basis(&mesh.vertices, 3, 0.6);
    let states: Vec<Vec<f32>> = (0..4).map(|s| vec![0.5 * s as f32, -0.7, 0.3]).collect();
    let lengths = list_run(&mesh, &basis, &states, 16).expect("complete answers");
    assert!(lengths.iter().all(|&(len, overflow)| overflow && len == 0));
}

/// Folding then unfolding: the list grows where the sheet comes close and shrinks back as
/// separated units merge into their parents.
#[test]
fn the_list_shrinks_back_after_a_fold() {
    let mesh = sheet(2.0, 1.0, 16, 8);
    let mut basis = Basis::zeros(mesh.vertices.len(), 1);
    for (i, v) in mesh.vertices.iter().enumerate() {
        if v[0] > 0.0 {
            basis.data[3 * i] = -2.0 * v[0];
            basis.data[3 * i + 2] = 0.6 * v[0] * v[1];
        }
    }
    let mut states: Vec<Vec<f32>> = (0..=10).map(|s| vec![0.1 * s as f32]).collect();
    states.extend((0..=10).rev().map(|s| vec![0.1 * s as f32]));
    states.extend(std::iter::repeat_n(vec![0.0], 12));
    let lengths = list_run(&mesh, &basis, &states, 8192).expect("complete answers");
    let first = lengths[0].0;
    let peak = lengths.iter().map(|l| l.0).max().expect("steps");
    let last = lengths.last().expect("steps").0;
    eprintln!("list lengths: first {first}, peak {peak}, last {last}: {lengths:?}");
    assert!(peak > first, "folding refines the list");
    assert!(last < peak, "unfolding merges units back");
    assert!(
        last * 4 <= first * 5,
        "back at rest, the list is within 25 % of a fresh walk's"
    );
}
