//! Interruptible queries: answer quality and time per query against the test budget.
//!
//! Scene: the `proxies` bench's two deforming 20,480-triangle icospheres (M = 10) overlapping
//! over a broad patch, 16 frames. For budgets of 256 … 65,536 tests and the unlimited budget,
//! in breadth-first and deepest-first order, one query per frame from scratch
//! (`Traversal::start` + one `run`). Printed before timing, per budget and order: the fraction
//! of the full answer's triangle pairs already confirmed, the pending-list length, and the
//! cover size (triangle pairs the interrupted answer must treat as possibly colliding). Group
//! `interrupt`, one benchmark per (order, budget), one iteration = 16 queries; the time per
//! query is what a control loop's slot must hold (a 1 kHz loop has 1 ms for everything).

use std::time::Duration;

use bdtree_benches::pair_storage::PairStorage;
use bdtree_core::{
    collide, stack_capacity, Image, NodeKind, Order, Pending, Pose, TestBudget, Traversal,
    TreeView, TrianglePair,
};
use bdtree_std::build::{build, BuildOptions, Precision};
use bdtree_std::shapes::procedural::{icosphere, smooth_basis};
use criterion::{BenchmarkId, Criterion};

const MODES: usize = 10;
const FRAMES: usize = 16;
const BUDGETS: [u32; 6] = [256, 1024, 4096, 16384, 65536, u32::MAX];
const ORDERS: [Order; 2] = [Order::BreadthFirst, Order::DeepestFirst];

struct Frame {
    q: [Vec<f32>; 2],
    pose: [Pose<f32>; 2],
}

fn frames() -> Vec<Frame> {
    (0..FRAMES)
        .map(|k| {
            let t = k as f64 * 0.3;
            let q = |phase: f64| -> Vec<f32> {
                (0..MODES)
                    .map(|j| (1.3 * j as f64 + phase + t).sin() as f32)
                    .collect()
            };
            let half = 0.1 * (0.5 * t).sin() as f32;
            Frame {
                q: [q(0.4), q(1.7)],
                pose: [
                    Pose::from_quaternion([1.0, 0.0, 0.0, 0.0], [-0.95, half, 0.0]),
                    Pose::from_quaternion([0.0, 0.0, 1.0, 0.0], [0.95, -half, 0.0]),
                ]
                .map(|p| p.expect("unit quaternion")),
            }
        })
        .collect()
}

fn leaves(tree: &TreeView<'_, f32>) -> Vec<u64> {
    let mut count = vec![0u64; tree.node_count()];
    for k in (0..tree.node_count()).rev() {
        count[k] = match tree.kind(k).expect("node") {
            NodeKind::Internal { left, right } => count[left as usize] + count[right as usize],
            NodeKind::Leaf { .. } => 1,
            NodeKind::Cut => unreachable!("the bench builds complete trees"),
        };
    }
    count
}

struct Storage {
    pair: PairStorage,
    pending: Vec<Pending<f32>>,
}

/// One query per frame; returns per frame (confirmed pairs, pending pairs).
#[allow(clippy::type_complexity)]
fn run(
    image: &Image<'_, f32>,
    storage: &mut Storage,
    frames: &[Frame],
    order: Order,
    budget: u32,
) -> Vec<(Vec<(u32, u32)>, Vec<(u32, u32)>)> {
    let (mut a, mut b) = storage.pair.bodies(image);
    let mut out = Vec::with_capacity(frames.len());
    for f in frames {
        a.set_state(f.pose[0], &f.q[0]).expect("state");
        b.set_state(f.pose[1], &f.q[1]).expect("state");
        let mut t = Traversal::new(&mut storage.pending, order);
        t.start(&mut a, &mut b);
        let mut confirmed = Vec::new();
        t.run(
            &mut a,
            &mut b,
            &mut TestBudget::new(budget),
            &mut |p: TrianglePair| {
                confirmed.push((p.a, p.b));
                true
            },
        );
        out.push((confirmed, t.pending().collect()));
    }
    out
}

fn bench(c: &mut Criterion) {
    let mesh = icosphere(1.0, 5);
    let basis = smooth_basis(&mesh.vertices, MODES, 0.03);
    let options = BuildOptions {
        precision: Precision::F32,
        ..Default::default()
    };
    let buf = build(&mesh, Some(&basis), options, &mut |_| {})
        .expect("tree builds")
        .0;
    let image = buf.parse::<f32>().expect("image");
    let frames = frames();
    let mut storage = Storage {
        pair: PairStorage::new(&image),
        pending: vec![Pending::EMPTY; 1 << 20],
    };
    // The full answers, by the depth-first query.
    let mut full: Vec<Vec<(u32, u32)>> = Vec::new();
    {
        let [ca, cb] = &mut storage.pair.spheres;
        let mut a = ca.body(&image).expect("body");
        let mut b = cb.body(&image).expect("body");
        let mut stack = vec![[0u32; 2]; stack_capacity(image.tree.depth(), image.tree.depth())];
        for f in &frames {
            a.set_state(f.pose[0], &f.q[0]).expect("state");
            b.set_state(f.pose[1], &f.q[1]).expect("state");
            let mut pairs = Vec::new();
            collide(&mut a, &mut b, &mut stack, &mut |p: TrianglePair| {
                pairs.push((p.a, p.b));
                true
            });
            pairs.sort_unstable();
            full.push(pairs);
        }
    }
    let total: usize = full.iter().map(Vec::len).sum();
    let count = leaves(&image.tree);
    println!(
        "interrupt: 20,480 + 20,480 triangles, M = {MODES}, {FRAMES} frames, {:.0} intersecting pairs per frame",
        total as f64 / FRAMES as f64
    );
    println!("  order          budget   confirmed of full   pending   cover pairs");
    for order in ORDERS {
        for budget in BUDGETS {
            let results = run(&image, &mut storage, &frames, order, budget);
            let (mut found, mut pending, mut cover) = (0usize, 0usize, 0u64);
            for ((confirmed, waiting), truth) in results.iter().zip(&full) {
                found += confirmed
                    .iter()
                    .filter(|p| truth.binary_search(p).is_ok())
                    .count();
                pending += waiting.len();
                cover += confirmed.len() as u64
                    + waiting
                        .iter()
                        .map(|&(x, y)| count[x as usize] * count[y as usize])
                        .sum::<u64>();
            }
            println!(
                "  {:<13} {:>7} {:>18.1}% {:>9.0} {:>13.0}",
                format!("{order:?}"),
                if budget == u32::MAX {
                    "∞".to_string()
                } else {
                    budget.to_string()
                },
                100.0 * found as f64 / total.max(1) as f64,
                pending as f64 / FRAMES as f64,
                cover as f64 / FRAMES as f64
            );
        }
    }

    let mut group = c.benchmark_group("interrupt");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(3));
    for order in ORDERS {
        for budget in BUDGETS {
            let name = if budget == u32::MAX {
                "unlimited".to_string()
            } else {
                budget.to_string()
            };
            group.bench_function(BenchmarkId::new(format!("{order:?}"), name), |bench| {
                bench.iter(|| run(&image, &mut storage, &frames, order, budget))
            });
        }
    }
    group.finish();
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    bench(&mut c);
    c.final_summary();
}
