//! Interruptible, ordered, resumable traversal: for every budget the confirmed pairs plus the
//! pending pairs cover every contact of the f64 brute-force oracle; resumed queries end with
//! exactly the uninterrupted answer; full storage, full sinks and changed states are reported.

use bdtree_core::{
    collide, stack_capacity, Body, Clock, ContactBuffer, Deadline, Image, NodeKind, Order, Pending,
    Pose, RunStatus, Scalar, TestBudget, Traversal, TreeView, TrianglePair,
};
use bdtree_std::io;
use bdtree_std::io::{Basis, ImageBuf, Mesh};
use bdtree_std::shapes::procedural::{blob, icosphere, sheet, smooth_basis, torus};
use bdtree_std::{oracle, BodyStorage};
use proptest::prelude::*;

use crate::support::{config, image_in, Rng};

const ORDERS: [Order; 3] = [
    Order::BreadthFirst,
    Order::DeepestFirst,
    Order::LargestFirst,
];

fn image<S: Scalar>(mesh: &Mesh, basis: &Basis) -> ImageBuf {
    image_in::<S>(mesh, Some(basis))
}

/// Parent of every node (the root's is itself) and the leaf of every triangle.
fn structure<S: Scalar>(tree: &TreeView<'_, S>) -> (Vec<u32>, Vec<u32>) {
    let mut parent = vec![0u32; tree.node_count()];
    let mut leaf = vec![0u32; tree.triangle_count()];
    for k in 0..tree.node_count() {
        match tree.kind(k).expect("node") {
            NodeKind::Internal { left, right } => {
                parent[left as usize] = k as u32;
                parent[right as usize] = k as u32;
            }
            NodeKind::Leaf { triangle } => leaf[triangle as usize] = k as u32,
            NodeKind::Cut => unreachable!("complete trees have no cut nodes"),
        }
    }
    (parent, leaf)
}

fn is_under(parent: &[u32], mut node: u32, ancestor: u32) -> bool {
    loop {
        if node == ancestor {
            return true;
        }
        if node == 0 {
            return false;
        }
        node = parent[node as usize];
    }
}

struct Setup<'i, S: Scalar> {
    images: [Image<'i, S>; 2],
    q: [Vec<S>; 2],
    pose: [Pose<S>; 2],
    /// The f64 oracle's contacts.
    truth: Vec<(u32, u32)>,
}

fn states<S: Scalar>(setup: &Setup<'_, S>, a: &mut Body<'_, '_, S>, b: &mut Body<'_, '_, S>) {
    a.set_state(setup.pose[0], &setup.q[0]).expect("state");
    b.set_state(setup.pose[1], &setup.q[1]).expect("state");
}

/// Checks one setup in every order: covers at many budgets, resumed answers, storage limits.
fn check<S: Scalar>(setup: &Setup<'_, S>) -> Result<(), TestCaseError> {
    let [ia, ib] = &setup.images;
    let mut ca = BodyStorage::new(ia.tree.node_count());
    let mut cb = BodyStorage::new(ib.tree.node_count());
    let mut a = ca.body(ia).expect("body");
    let mut b = cb.body(ib).expect("body");
    states(setup, &mut a, &mut b);
    // The uninterrupted answer, and the oracle inside it.
    let mut stack = vec![[0u32; 2]; stack_capacity(ia.tree.depth(), ib.tree.depth())];
    let mut full = Vec::new();
    let outcome = collide(&mut a, &mut b, &mut stack, &mut |p: TrianglePair| {
        full.push((p.a, p.b));
        true
    });
    prop_assert!(outcome.status.is_complete());
    full.sort_unstable();
    for t in &setup.truth {
        prop_assert!(full.binary_search(t).is_ok(), "collide missed {t:?}");
    }
    let (parent_a, leaf_a) = structure(&ia.tree);
    let (parent_b, leaf_b) = structure(&ib.tree);
    let mut storage = vec![Pending::<S>::EMPTY; 1 << 16];

    for order in ORDERS {
        // One call per budget: the cover holds every true contact.
        for budget in [0u32, 1, 2, 3, 7, 20, 60, 200, 700, 3000, u32::MAX] {
            let mut t = Traversal::new(&mut storage, order);
            t.start(&mut a, &mut b);
            let mut confirmed = Vec::new();
            let outcome = t.run(
                &mut a,
                &mut b,
                &mut TestBudget::new(budget),
                &mut |p: TrianglePair| {
                    confirmed.push((p.a, p.b));
                    true
                },
            );
            let expected = if t.pending_len() == 0 {
                RunStatus::Done
            } else {
                RunStatus::Interrupted
            };
            prop_assert_eq!(outcome.status, expected);
            prop_assert!(
                outcome.stats.overlap_tests + outcome.stats.triangle_tests <= budget,
                "{order:?}: spent more than the budget {budget}"
            );
            confirmed.sort_unstable();
            for c in &confirmed {
                prop_assert!(
                    full.binary_search(c).is_ok(),
                    "{order:?}: confirmed {c:?} not in the full answer"
                );
            }
            let pending: Vec<(u32, u32)> = t.pending().collect();
            for &(x, y) in &setup.truth {
                let covered = confirmed.binary_search(&(x, y)).is_ok()
                    || pending.iter().any(|&(i, j)| {
                        is_under(&parent_a, leaf_a[x as usize], i)
                            && is_under(&parent_b, leaf_b[y as usize], j)
                    });
                prop_assert!(
                    covered,
                    "{} {order:?} budget {budget}: contact ({x}, {y}) neither confirmed nor under a pending pair",
                    S::NAME
                );
            }
            if budget == u32::MAX {
                prop_assert_eq!(&confirmed, &full);
            }
        }
        // Spread over ticks of a small budget: exactly the uninterrupted answer.
        for per_tick in [4u32, 9, 33] {
            let mut t = Traversal::new(&mut storage, order);
            t.start(&mut a, &mut b);
            let mut confirmed = Vec::new();
            let mut ticks = 0;
            loop {
                let outcome = t.run(
                    &mut a,
                    &mut b,
                    &mut TestBudget::new(per_tick),
                    &mut |p: TrianglePair| {
                        confirmed.push((p.a, p.b));
                        true
                    },
                );
                ticks += 1;
                match outcome.status {
                    RunStatus::Done => break,
                    RunStatus::Interrupted => {}
                    other => return Err(TestCaseError::fail(format!("{other:?}"))),
                }
                prop_assert!(ticks < 1_000_000, "no progress");
            }
            confirmed.sort_unstable();
            prop_assert_eq!(&confirmed, &full, "{:?} in ticks of {}", order, per_tick);
        }
        // A sink of one pair at a time: each refused pair is retried by the next call.
        let mut t = Traversal::new(&mut storage, order);
        t.start(&mut a, &mut b);
        let mut confirmed = Vec::new();
        loop {
            let mut sink = ContactBuffer::<1>::new();
            let outcome = t.run(&mut a, &mut b, &mut TestBudget::unlimited(), &mut sink);
            confirmed.extend(sink.as_slice().iter().map(|p| (p.a, p.b)));
            match outcome.status {
                RunStatus::Done => break,
                RunStatus::OutputFull { .. } => {}
                other => return Err(TestCaseError::fail(format!("{other:?}"))),
            }
        }
        confirmed.sort_unstable();
        prop_assert_eq!(&confirmed, &full);
        // Tiny storage: the query stops with a full list, and the cover still holds.
        let mut small = vec![Pending::<S>::EMPTY; 5];
        let mut t = Traversal::new(&mut small, order);
        t.start(&mut a, &mut b);
        let mut confirmed = Vec::new();
        let outcome = t.run(
            &mut a,
            &mut b,
            &mut TestBudget::unlimited(),
            &mut |p: TrianglePair| {
                confirmed.push((p.a, p.b));
                true
            },
        );
        prop_assert!(
            matches!(outcome.status, RunStatus::Done | RunStatus::PendingFull),
            "{:?}",
            outcome.status
        );
        let pending: Vec<(u32, u32)> = t.pending().collect();
        for &(x, y) in &setup.truth {
            let covered = confirmed.contains(&(x, y))
                || pending.iter().any(|&(i, j)| {
                    is_under(&parent_a, leaf_a[x as usize], i)
                        && is_under(&parent_b, leaf_b[y as usize], j)
                });
            prop_assert!(covered, "{order:?} with 5 slots: ({x}, {y}) lost");
        }
    }
    Ok(())
}

fn meshes() -> Vec<Mesh> {
    vec![
        icosphere(0.5, 2),
        torus(0.5, 0.15, 18, 8),
        sheet(1.5, 1.0, 9, 6),
        blob(0.5, 2, 5, 11),
    ]
}

fn run_case<S: Scalar>(ia: usize, ib: usize, modes: usize, seed: u64) -> Result<(), TestCaseError> {
    let mut rng = Rng::new(seed);
    let all = meshes();
    let (ma, mb) = (&all[ia], &all[ib]);
    let (ba, bb) = (
        smooth_basis(&ma.vertices, modes, 0.1),
        smooth_basis(&mb.vertices, modes, 0.1),
    );
    let q64: [Vec<f64>; 2] = [0, 1].map(|_| (0..modes).map(|_| rng.uniform(-1.5, 1.5)).collect());
    let poses = [0.2, 0.6].map(|reach| io::Pose {
        rotation: rng.rotation(),
        translation: [0, 1, 2].map(|_| rng.uniform(-reach, reach)),
    });
    let wa = oracle::deform(&ma.vertices, Some(&ba), &q64[0], &poses[0]);
    let wb = oracle::deform(&mb.vertices, Some(&bb), &q64[1], &poses[1]);
    let truth = oracle::brute_force_pairs(&wa, &ma.triangles, &wb, &mb.triangles);
    let (bufa, bufb) = (image::<S>(ma, &ba), image::<S>(mb, &bb));
    let setup = Setup {
        images: [bufa.parse::<S>().expect("a"), bufb.parse::<S>().expect("b")],
        q: q64
            .clone()
            .map(|q| q.iter().map(|&x| S::from_f64(x)).collect()),
        pose: poses.map(|p| {
            Pose::from_quaternion(p.rotation.map(S::from_f64), p.translation.map(S::from_f64))
                .expect("pose")
        }),
        truth,
    };
    check(&setup)
}

proptest! {
    #![proptest_config(config(12, 0xBD7_0501))]

    #[test]
    fn interrupted_queries_cover_every_contact_and_resume_to_the_full_answer(
        ia in 0usize..4,
        ib in 0usize..4,
        modes in 0usize..=6,
        seed in any::<u64>(),
    ) {
        run_case::<f32>(ia, ib, modes, seed)?;
        run_case::<f64>(ia, ib, modes, seed)?;
    }
}

#[test]
fn a_changed_state_stops_a_resumed_query() {
    let mesh = icosphere(0.5, 2);
    let basis = smooth_basis(&mesh.vertices, 2, 0.05);
    let buf = image::<f32>(&mesh, &basis);
    let im = buf.parse::<f32>().expect("image");
    let mut ca = BodyStorage::new(im.tree.node_count());
    let mut cb = BodyStorage::new(im.tree.node_count());
    let mut a = ca.body(&im).expect("body");
    let mut b = cb.body(&im).expect("body");
    let mut storage = vec![Pending::EMPTY; 4096];
    let mut t = Traversal::new(&mut storage, Order::DeepestFirst);
    assert_eq!(t.start(&mut a, &mut b), RunStatus::Interrupted);
    let mut sink = |_: TrianglePair| true;
    let first = t.run(&mut a, &mut b, &mut TestBudget::new(10), &mut sink);
    assert_eq!(first.status, RunStatus::Interrupted);
    assert!(first.stats.overlap_tests > 0 && first.stats.overlap_tests <= 10);
    b.set_state(Pose::identity(), &[0.1, 0.0]).expect("state");
    let second = t.run(&mut a, &mut b, &mut TestBudget::unlimited(), &mut sink);
    assert_eq!(second.status, RunStatus::StateChanged);
    assert_eq!(second.stats.overlap_tests, 0);
}

/// A clock that advances one tick per reading.
struct Ticks(u64);

impl Clock for Ticks {
    fn now(&mut self) -> u64 {
        self.0 += 1;
        self.0
    }
}

#[test]
fn a_deadline_stops_before_the_clock_reaches_it() {
    let mesh = torus(0.5, 0.15, 18, 8);
    let buf = image::<f64>(&mesh, &smooth_basis(&mesh.vertices, 0, 0.0));
    let im = buf.parse::<f64>().expect("image");
    let mut ca = BodyStorage::new(im.tree.node_count());
    let mut cb = BodyStorage::new(im.tree.node_count());
    let mut a = ca.body(&im).expect("body");
    let mut b = cb.body(&im).expect("body");
    let mut storage = vec![Pending::EMPTY; 1 << 14];
    let mut t = Traversal::new(&mut storage, Order::BreadthFirst);
    t.start(&mut a, &mut b);
    // Readings 1..=5 are before the deadline 6: exactly five steps run.
    let mut budget = Deadline::new(Ticks(0), 6);
    let outcome = t.run(&mut a, &mut b, &mut budget, &mut |_: TrianglePair| true);
    assert_eq!(outcome.status, RunStatus::Interrupted);
    assert_eq!(outcome.stats.nodes_visited, 5);
}
