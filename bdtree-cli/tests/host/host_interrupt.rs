//! The host's interruptible traversal (`bdtree_std::host::Interruptible`) against the f64 brute
//! force on explicitly deformed meshes: a completed run equals `host::pairs`, an interrupted
//! and resumed one too (every order), every interrupted run's cover holds every true pair
//! (confirmed, or its triangles under a pending node pair), a full pending list ends in an
//! explicit cover — near the origin, 3–10 km from it, in millimetres, with exactly touching
//! coplanar sheets under rotation, f32 and f64.

use std::collections::BTreeSet;

use bdtree_core::{NodeKind, Scalar, TreeView};
use bdtree_std::build::{BuildOptions, Precision};
use bdtree_std::host::{
    self, Body, Budget, HostError, Interruptible, Order, Progress, RunStatus, Tree,
};
use bdtree_std::io::{Basis, Mesh, Pose};
use bdtree_std::oracle;
use bdtree_std::rng::Rng;
use bdtree_std::shapes::procedural::{icosphere, sheet, smooth_basis, torus};

/// For every triangle, its leaf and the leaf's ancestors up to the root (leaf first).
fn ancestors(tree: &Tree) -> Vec<Vec<u32>> {
    fn of<S: Scalar>(tree: &TreeView<'_, S>) -> Vec<Vec<u32>> {
        let n = tree.node_count();
        let mut parent = vec![u32::MAX; n];
        let mut leaf = vec![0u32; tree.triangle_count()];
        for k in 0..n {
            match tree.kind(k) {
                Some(NodeKind::Internal { left, right }) => {
                    parent[left as usize] = k as u32;
                    parent[right as usize] = k as u32;
                }
                Some(NodeKind::Leaf { triangle }) => leaf[triangle as usize] = k as u32,
                _ => {}
            }
        }
        leaf.iter()
            .map(|&l| {
                let mut chain = vec![l];
                while let Some(&p) = parent.get(*chain.last().expect("chain") as usize) {
                    if p == u32::MAX {
                        break;
                    }
                    chain.push(p);
                }
                chain
            })
            .collect()
    }
    let image = tree.image();
    match tree.precision() {
        Precision::F32 => of(&image.parse::<f32>().expect("image").tree),
        Precision::F64 => of(&image.parse::<f64>().expect("image").tree),
    }
}

struct Pair {
    a: Body,
    b: Body,
    truth: Vec<[u32; 2]>,
    up_a: Vec<Vec<u32>>,
    up_b: Vec<Vec<u32>>,
}

fn world(mesh: &Mesh, basis: Option<&Basis>, q: &[f64], pose: &Pose) -> Vec<[f64; 3]> {
    oracle::deform(&mesh.vertices, basis, q, pose)
}

/// Two bodies (a deforming ball and a torus, scaled by `size`) overlapping around `centre`.
fn overlapping(rng: &mut Rng, precision: Precision, size: f64, centre: [f64; 3]) -> Pair {
    let scale = |m: Mesh| Mesh {
        vertices: m.vertices.iter().map(|v| v.map(|x| x * size)).collect(),
        triangles: m.triangles,
    };
    let (ma, mb) = (scale(icosphere(0.5, 3)), scale(torus(0.45, 0.15, 24, 12)));
    let basis = smooth_basis(&ma.vertices, 3, 0.1 * size);
    let options = BuildOptions {
        precision,
        ..BuildOptions::default()
    };
    let (ta, _) = Tree::build(&ma, Some(&basis), options).expect("a");
    let (tb, _) = Tree::build(&mb, None, options).expect("b");
    let (mut a, mut b) = (Body::new(&ta).expect("a"), Body::new(&tb).expect("b"));
    let pa = Pose {
        rotation: rng.rotation(),
        translation: centre,
    };
    let d = rng.unit_vector();
    let gap = rng.uniform(0.3, 0.8) * size;
    let pb = Pose {
        rotation: rng.rotation(),
        translation: std::array::from_fn(|k| centre[k] + d[k] * gap),
    };
    let q: Vec<f64> = (0..3).map(|_| rng.uniform(-1.0, 1.0)).collect();
    a.set_state(pa.rotation, pa.translation, &q)
        .expect("a state");
    b.set_state(pb.rotation, pb.translation, &[])
        .expect("b state");
    let wa = world(&ma, Some(&basis), &q, &pa);
    let wb = world(&mb, None, &[], &pb);
    let truth = oracle::brute_force_pairs(&wa, &ma.triangles, &wb, &mb.triangles)
        .into_iter()
        .map(|(x, y)| [x, y])
        .collect();
    Pair {
        up_a: ancestors(&ta),
        up_b: ancestors(&tb),
        a,
        b,
        truth,
    }
}

/// Every true pair is confirmed or has its triangles under a pending node pair.
fn covers(p: &Pair, confirmed: &[[u32; 2]], pending: &[[u32; 2]]) -> bool {
    let confirmed: BTreeSet<[u32; 2]> = confirmed.iter().copied().collect();
    let pending: BTreeSet<[u32; 2]> = pending.iter().copied().collect();
    p.truth.iter().all(|&[ta, tb]| {
        confirmed.contains(&[ta, tb])
            || p.up_a[ta as usize].iter().any(|&na| {
                p.up_b[tb as usize]
                    .iter()
                    .any(|&nb| pending.contains(&[na, nb]))
            })
    })
}

/// Runs `query` with `tests` per run until done, checking every cover; returns the answer and
/// the number of interrupted runs.
fn until_done(p: &mut Pair, mut query: Interruptible, tests: u32) -> (Vec<[u32; 2]>, usize) {
    let mut interrupted = 0;
    loop {
        match query
            .run(&mut p.a, &mut p.b, Budget::Tests(tests))
            .expect("run")
        {
            Progress::Done(answer) => return (answer.items, interrupted),
            Progress::Interrupted(cover) => {
                assert_eq!(cover.status, RunStatus::Interrupted);
                if !covers(p, &cover.confirmed, &cover.pending) {
                    let confirmed: BTreeSet<[u32; 2]> = cover.confirmed.iter().copied().collect();
                    let out: Vec<_> = p
                        .truth
                        .iter()
                        .filter(|&&[ta, tb]| {
                            !confirmed.contains(&[ta, tb])
                                && !p.up_a[ta as usize].iter().any(|&na| {
                                    p.up_b[tb as usize]
                                        .iter()
                                        .any(|&nb| cover.pending.contains(&[na, nb]))
                                })
                        })
                        .collect();
                    panic!(
                        "true pairs outside the cover after {interrupted} runs: {out:?} \
                         (ancestors {:?} / {:?}); {} pending, {} confirmed",
                        out.first().map(|x| &p.up_a[x[0] as usize]),
                        out.first().map(|x| &p.up_b[x[1] as usize]),
                        cover.pending.len(),
                        cover.confirmed.len()
                    );
                }
                interrupted += 1;
                assert!(interrupted < 100_000, "no progress");
            }
        }
    }
}

#[test]
fn interruptible_runs_equal_pairs_and_their_covers_hold_the_brute_force() {
    let mut rng = Rng::new(39);
    let mut true_pairs = 0;
    for precision in [Precision::F32, Precision::F64] {
        for (size, far) in [(1.0, 0.0), (1.0, 5e3), (1e-3, 0.0), (1e-3, 3e3)] {
            let d = rng.unit_vector();
            let centre = d.map(|x| x * far);
            let mut p = overlapping(&mut rng, precision, size, centre);
            let expected = host::pairs(&mut p.a, &mut p.b).expect("pairs").items;
            let set: BTreeSet<[u32; 2]> = expected.iter().copied().collect();
            assert!(p.truth.iter().all(|t| set.contains(t)), "pairs missed one");
            true_pairs += p.truth.len();
            // Complete in one run.
            let q = Interruptible::start(&mut p.a, &mut p.b, Order::BreadthFirst, 1 << 16)
                .expect("start");
            let (once, interrupted) = until_done(&mut p, q, u32::MAX);
            assert_eq!(interrupted, 0);
            assert_eq!(once, expected, "{precision:?} size {size} far {far}");
            // Interrupted every few tests and resumed, each order.
            for order in [
                Order::BreadthFirst,
                Order::DeepestFirst,
                Order::LargestFirst,
            ] {
                let q = Interruptible::start(&mut p.a, &mut p.b, order, 1 << 16).expect("start");
                let (resumed, interrupted) = until_done(&mut p, q, 40);
                assert!(interrupted > 3, "{order:?}: {interrupted} interruptions");
                assert_eq!(
                    resumed, expected,
                    "{precision:?} {order:?} size {size} far {far}"
                );
            }
        }
    }
    assert!(true_pairs > 0, "no contact: the test would be vacuous");
}

#[test]
fn an_unrefined_query_at_a_shared_origin_holds_pairs_and_its_covers_hold_the_brute_force() {
    let mut rng = Rng::new(41);
    for precision in [Precision::F32, Precision::F64] {
        for (size, far) in [(1.0, 0.0), (1.0, 5e3), (1e-3, 3e3)] {
            let d = rng.unit_vector();
            let centre = d.map(|x| x * far);
            let mut p = overlapping(&mut rng, precision, size, centre);
            let expected: BTreeSet<[u32; 2]> = host::pairs(&mut p.a, &mut p.b)
                .expect("pairs")
                .items
                .into_iter()
                .collect();
            // A frame's origin a few body sizes away from the pair, as a scene's other bodies
            // put it.
            let e = rng.unit_vector();
            let origin = std::array::from_fn(|k| centre[k] + e[k] * 4.0 * size);
            let start = |p: &mut Pair, order| {
                Interruptible::start_unrefined_at(&mut p.a, &mut p.b, order, 1 << 16, origin)
                    .expect("start")
            };
            let q = start(&mut p, Order::BreadthFirst);
            let (once, interrupted) = until_done(&mut p, q, u32::MAX);
            assert_eq!(interrupted, 0);
            // No second stage: every pair the refined query answers, and at most its extras.
            assert!(
                expected.iter().all(|x| once.binary_search(x).is_ok()),
                "{precision:?} size {size} far {far}: a refined pair is missing"
            );
            for order in [Order::DeepestFirst, Order::LargestFirst] {
                let q = start(&mut p, order);
                let (resumed, interrupted) = until_done(&mut p, q, 40);
                assert!(interrupted > 3, "{order:?}: {interrupted} interruptions");
                assert_eq!(
                    resumed, once,
                    "{precision:?} {order:?} size {size} far {far}"
                );
            }
        }
    }
}

#[test]
fn a_full_pending_list_ends_in_an_explicit_cover() {
    let mut rng = Rng::new(40);
    for precision in [Precision::F32, Precision::F64] {
        let mut p = overlapping(&mut rng, precision, 1.0, [2000.0, -500.0, 10.0]);
        assert!(!p.truth.is_empty());
        let mut q =
            Interruptible::start(&mut p.a, &mut p.b, Order::BreadthFirst, 6).expect("start");
        match q.run(&mut p.a, &mut p.b, Budget::Unlimited).expect("run") {
            Progress::Interrupted(cover) => {
                assert_eq!(cover.status, RunStatus::PendingFull);
                assert!(covers(&p, &cover.confirmed, &cover.pending));
                assert!(cover.pending.len() <= 6);
            }
            Progress::Done(_) => panic!("six pending pairs cannot hold this overlap"),
        }
    }
}

#[test]
fn a_time_budget_completes_and_equals_pairs() {
    let mut rng = Rng::new(41);
    let mut p = overlapping(&mut rng, Precision::F32, 1.0, [0.0, 4000.0, 0.0]);
    let expected = host::pairs(&mut p.a, &mut p.b).expect("pairs").items;
    let mut q =
        Interruptible::start(&mut p.a, &mut p.b, Order::DeepestFirst, 1 << 16).expect("start");
    let budget = Budget::Time(std::time::Duration::from_micros(50));
    let answer = loop {
        match q.run(&mut p.a, &mut p.b, budget).expect("run") {
            Progress::Done(answer) => break answer.items,
            Progress::Interrupted(cover) => assert!(covers(&p, &cover.confirmed, &cover.pending)),
        }
    };
    assert_eq!(answer, expected);
}

/// Two coplanar sheets sharing part of their area (b's rest mesh is a's moved by three and two
/// grid cells, exactly), in one pose, rotated and far away: every pair of triangles sharing a
/// point touches exactly at the state as given. The brute force runs at the pair's floating
/// origin (the shared translation), where the shared vertices deform to the same bits in both
/// bodies; interrupted runs cover every such pair and finish on them.
#[test]
fn exactly_touching_sheets_far_away_are_covered_and_found() {
    let mut rng = Rng::new(42);
    let mesh_a = sheet(1.0, 1.0, 8, 8);
    let mesh_b = Mesh {
        vertices: mesh_a
            .vertices
            .iter()
            .map(|v| [v[0] + 0.375, v[1] + 0.25, v[2]])
            .collect(),
        triangles: mesh_a.triangles.clone(),
    };
    let shared = |ta: &[u32; 3], tb: &[u32; 3]| {
        ta.iter().any(|&i| {
            tb.iter()
                .any(|&j| mesh_a.vertices[i as usize] == mesh_b.vertices[j as usize])
        })
    };
    let mut touching = Vec::new();
    for (i, ta) in mesh_a.triangles.iter().enumerate() {
        for (j, tb) in mesh_b.triangles.iter().enumerate() {
            if shared(ta, tb) {
                touching.push([i as u32, j as u32]);
            }
        }
    }
    assert!(!touching.is_empty());
    for precision in [Precision::F32, Precision::F64] {
        let options = BuildOptions {
            precision,
            ..BuildOptions::default()
        };
        let (tree_a, _) = Tree::build(&mesh_a, None, options).expect("a");
        let (tree_b, _) = Tree::build(&mesh_b, None, options).expect("b");
        let (up_a, up_b) = (ancestors(&tree_a), ancestors(&tree_b));
        for _ in 0..4 {
            let r = rng.rotation();
            let d = rng.unit_vector();
            let t = d.map(|x| x * 10f64.powf(rng.uniform(0.0, 4.0)));
            let (mut a, mut b) = (
                Body::new(&tree_a).expect("a"),
                Body::new(&tree_b).expect("b"),
            );
            a.set_state(r, t, &[]).expect("a");
            b.set_state(r, t, &[]).expect("b");
            // At the pair's origin (t): the brute force on both sheets, shared vertices equal.
            let at_origin = Pose {
                rotation: r,
                translation: [0.0; 3],
            };
            let wa = oracle::deform(&mesh_a.vertices, None, &[], &at_origin);
            let wb = oracle::deform(&mesh_b.vertices, None, &[], &at_origin);
            let mut truth: Vec<[u32; 2]> =
                oracle::brute_force_pairs(&wa, &mesh_a.triangles, &wb, &mesh_b.triangles)
                    .into_iter()
                    .map(|(x, y)| [x, y])
                    .collect();
            truth.extend(&touching);
            truth.sort_unstable();
            truth.dedup();
            let expected = host::pairs(&mut a, &mut b).expect("pairs").items;
            let mut p = Pair {
                a,
                b,
                truth,
                up_a: up_a.clone(),
                up_b: up_b.clone(),
            };
            let q = Interruptible::start(&mut p.a, &mut p.b, Order::LargestFirst, 1 << 16)
                .expect("start");
            let (found, interrupted) = until_done(&mut p, q, 25);
            assert!(interrupted > 0);
            assert_eq!(found, expected);
            let set: BTreeSet<[u32; 2]> = found.into_iter().collect();
            assert!(
                p.truth.iter().all(|x| set.contains(x)),
                "{precision:?} |t| {t:?}"
            );
        }
    }
}

#[test]
fn a_changed_state_or_bad_capacity_is_refused_by_name() {
    let mut rng = Rng::new(43);
    let mut p = overlapping(&mut rng, Precision::F32, 1.0, [0.0; 3]);
    let err = Interruptible::start(&mut p.a, &mut p.b, Order::BreadthFirst, 0).expect_err("0");
    assert!(
        matches!(
            err,
            HostError::Argument {
                name: "capacity",
                ..
            }
        ),
        "{err}"
    );
    let mut q = Interruptible::start(&mut p.a, &mut p.b, Order::BreadthFirst, 1024).expect("q");
    p.b.set_state([1.0, 0.0, 0.0, 0.0], [0.1, 0.0, 0.0], &[])
        .expect("b");
    let err = q
        .run(&mut p.a, &mut p.b, Budget::Tests(10))
        .expect_err("moved");
    assert!(
        matches!(err, HostError::Argument { name: "b", .. }),
        "{err}"
    );
    assert!(err.to_string().contains("start a new one"), "{err}");
}

/// The kernel's `Traversal::suspend` and `resume`: a traversal suspended after every run and
/// resumed over the same storage ends with the uninterrupted answer; resumed over storage too
/// short for its progress it reports `StateChanged` and does nothing.
#[test]
fn a_suspended_kernel_traversal_resumes_to_the_full_answer() {
    use bdtree_core::{collide, stack_capacity, Pending, TestBudget, Traversal, TrianglePair};
    let mesh = icosphere(0.5, 2);
    let basis = smooth_basis(&mesh.vertices, 2, 0.05);
    let options = BuildOptions {
        precision: Precision::F32,
        ..BuildOptions::default()
    };
    let (image, _) =
        bdtree_std::build::build(&mesh, Some(&basis), options, &mut |_| {}).expect("build");
    let im = image.parse::<f32>().expect("image");
    let mut ca = bdtree_std::BodyStorage::new(im.tree.node_count());
    let mut cb = bdtree_std::BodyStorage::new(im.tree.node_count());
    let mut a = ca.body(&im).expect("a");
    let mut b = cb.body(&im).expect("b");
    let pose =
        bdtree_core::Pose::from_quaternion([1.0, 0.0, 0.0, 0.0], [0.8, 0.1, 0.0]).expect("pose");
    b.set_state(pose, &[0.2, -0.1]).expect("b");
    let mut whole = Vec::new();
    let mut stack = vec![[0u32; 2]; stack_capacity(im.tree.depth(), im.tree.depth())];
    let outcome = collide(&mut a, &mut b, &mut stack, &mut |p: TrianglePair| {
        whole.push([p.a, p.b]);
        true
    });
    assert!(outcome.status.is_complete());
    whole.sort_unstable();
    assert!(!whole.is_empty());
    for order in [
        Order::BreadthFirst,
        Order::DeepestFirst,
        Order::LargestFirst,
    ] {
        let mut storage = vec![Pending::<f32>::EMPTY; 1 << 14];
        let mut t = Traversal::new(&mut storage, order);
        assert_eq!(t.start(&mut a, &mut b), RunStatus::Interrupted);
        let mut progress = t.suspend();
        let mut found = Vec::new();
        let mut runs = 0;
        loop {
            let mut t = Traversal::resume(&mut storage, progress);
            let mut sink = |p: TrianglePair| {
                found.push([p.a, p.b]);
                true
            };
            let outcome = t.run(&mut a, &mut b, &mut TestBudget::new(16), &mut sink);
            progress = t.suspend();
            runs += 1;
            match outcome.status {
                RunStatus::Done => break,
                RunStatus::Interrupted => {}
                s => panic!("{order:?}: {s:?}"),
            }
        }
        assert!(runs > 3);
        found.sort_unstable();
        assert_eq!(found, whole, "{order:?}");
    }
    // Progress that does not fit the storage given: StateChanged, nothing done.
    let mut storage = vec![Pending::<f32>::EMPTY; 1 << 14];
    let mut t = Traversal::new(&mut storage, Order::BreadthFirst);
    t.start(&mut a, &mut b);
    let mut sink = |_: TrianglePair| true;
    t.run(&mut a, &mut b, &mut TestBudget::new(64), &mut sink);
    let progress = t.suspend();
    let mut short = vec![Pending::<f32>::EMPTY; 1];
    let mut t = Traversal::resume(&mut short, progress);
    let outcome = t.run(&mut a, &mut b, &mut TestBudget::unlimited(), &mut sink);
    assert_eq!(outcome.status, RunStatus::StateChanged);
    assert_eq!(outcome.stats.overlap_tests, 0);
}
