//! Bounded-depth proxy queries against the full exact query, and what nesting costs the full
//! query.
//!
//! Scene: two unit icospheres of 20,480 triangles each (M = 10 smooth modes, largest
//! displacement per mode 3 % of the radius), deformed by `q_j(t) = sin(φ_j + 0.3 t)`, their
//! centers 1.9 apart so that a broad patch overlaps (about 0.1 deep) — the case where the full
//! query descends to thousands of leaf pairs and a proxy query stops early. 16 frames.
//!
//! Group `proxies`, one iteration = all frames, reported per frame: `exact_plain` (the full
//! query on trees built without nesting, the default), `exact_nested` (the same query on nested
//! trees: the price of nesting), and `proxies_L` for proxy depths L = 4, 6, 8, 10 on the nested
//! trees. Before timing, the counters are printed: overlap tests, sphere updates and pairs per
//! frame, and the trees' mean rest radius and mean `‖ΔR‖₂`, plain vs nested; the exact queries
//! on plain and nested trees are checked to return the same pairs, and every such pair to lie
//! under a reported proxy pair.

use std::hint::black_box;
use std::time::Duration;

use bdtree_benches::pair_storage::PairStorage;
use bdtree_core::{
    collide, collide_proxies, proxy_stack_capacity, stack_capacity, Image, NodeKind, Pose,
    ProxyPair, QueryStats, TreeView, TrianglePair,
};
use bdtree_std::build::{build, BuildOptions, Precision};
use bdtree_std::io::Pose as OraclePose;
use bdtree_std::io::{Basis, ImageBuf, Mesh};
use bdtree_std::oracle::{brute_force_pairs, deform};
use bdtree_std::shapes::procedural::{icosphere, smooth_basis};
use criterion::{BenchmarkId, Criterion};

const MODES: usize = 10;
const FRAMES: usize = 16;
const DEPTHS: [u32; 4] = [4, 6, 8, 10];

struct Frame {
    q: [Vec<f32>; 2],
    pose: [Pose<f32>; 2],
    q64: [Vec<f64>; 2],
    pose64: [OraclePose; 2],
}

fn frames() -> Vec<Frame> {
    (0..FRAMES)
        .map(|k| {
            let t = k as f64 * 0.3;
            let q = |phase: f64| -> Vec<f64> {
                (0..MODES)
                    .map(|j| (1.3 * j as f64 + phase + t).sin())
                    .collect()
            };
            let half = 0.1 * (0.5 * t).sin();
            let pose64 = [
                OraclePose {
                    rotation: [1.0, 0.0, 0.0, 0.0],
                    translation: [-0.95, half, 0.0],
                },
                OraclePose {
                    rotation: [0.0, 0.0, 1.0, 0.0],
                    translation: [0.95, -half, 0.0],
                },
            ];
            let q64 = [q(0.4), q(1.7)];
            Frame {
                q: q64.clone().map(|q| q.iter().map(|&x| x as f32).collect()),
                pose: pose64.map(|p| {
                    Pose::from_quaternion(
                        p.rotation.map(|x| x as f32),
                        p.translation.map(|x| x as f32),
                    )
                    .expect("unit quaternion")
                }),
                q64,
                pose64,
            }
        })
        .collect()
}

/// Mean rest radius and mean `‖ΔR‖₂` over a tree's nodes.
fn tightness(tree: &TreeView<'_, f32>) -> (f64, f64) {
    let n = tree.node_count();
    let (mut radius, mut growth) = (0.0, 0.0);
    for k in 0..n {
        let rows = tree.record(k).expect("record");
        radius += f64::from(rows[0][3]);
        growth += rows[1..]
            .iter()
            .map(|r| f64::from(r[3]).powi(2))
            .sum::<f64>()
            .sqrt();
    }
    (radius / n as f64, growth / n as f64)
}

/// The proxy at depth `l` of every triangle.
fn owners(tree: &TreeView<'_, f32>, l: u32) -> Vec<u32> {
    let mut owner = vec![0u32; tree.node_count()];
    let mut by_triangle = vec![0u32; tree.triangle_count()];
    for k in 0..tree.node_count() {
        if tree.node_depth(k).expect("node") <= l {
            owner[k] = k as u32;
        }
        match tree.kind(k).expect("node") {
            NodeKind::Internal { left, right } => {
                owner[left as usize] = owner[k];
                owner[right as usize] = owner[k];
            }
            NodeKind::Leaf { triangle } => by_triangle[triangle as usize] = owner[k],
            NodeKind::Cut => unreachable!("the bench builds complete trees"),
        }
    }
    by_triangle
}

#[derive(Clone, Copy)]
enum Method {
    Exact,
    Proxies(u32),
}

/// Runs all frames; returns the summed counters and every frame's sorted pairs (triangle or
/// proxy node pairs). Both bodies use the same image.
fn run(
    image: &Image<'_, f32>,
    storage: &mut PairStorage,
    frames: &[Frame],
    method: Method,
    collect: bool,
) -> (QueryStats, Vec<Vec<(u32, u32)>>) {
    let (mut a, mut b) = storage.bodies(image);
    let depth = image.tree.depth();
    let mut stack = vec![[0u32; 2]; stack_capacity(depth, depth)];
    let mut total = QueryStats::default();
    let mut all = Vec::new();
    let mut pairs = Vec::new();
    for f in frames {
        a.set_state(f.pose[0], &f.q[0]).expect("state");
        b.set_state(f.pose[1], &f.q[1]).expect("state");
        pairs.clear();
        let outcome = match method {
            Method::Exact => collide(&mut a, &mut b, &mut stack, &mut |p: TrianglePair| {
                pairs.push((p.a, p.b));
                true
            }),
            Method::Proxies(l) => {
                let needed = proxy_stack_capacity(depth, l, depth, l);
                collide_proxies(
                    &mut a,
                    &mut b,
                    l,
                    l,
                    &mut stack[..needed],
                    &mut |p: ProxyPair<f32>| {
                        pairs.push((p.a, p.b));
                        true
                    },
                )
            }
        };
        assert!(outcome.status.is_complete(), "{:?}", outcome.status);
        let s = outcome.stats;
        total.overlap_tests += s.overlap_tests;
        total.sphere_updates += s.sphere_updates;
        total.triangle_tests += s.triangle_tests;
        total.pairs += s.pairs;
        if collect {
            pairs.sort_unstable();
            all.push(pairs.clone());
        }
        black_box(&pairs);
    }
    (total, all)
}

fn image(mesh: &Mesh, basis: &Basis, nested: bool) -> ImageBuf {
    let options = BuildOptions {
        precision: Precision::F32,
        nested,
        ..Default::default()
    };
    build(mesh, Some(basis), options, &mut |_| {})
        .expect("tree builds")
        .0
}

fn bench(c: &mut Criterion) {
    let mesh = icosphere(1.0, 5);
    let basis = smooth_basis(&mesh.vertices, MODES, 0.03);
    let (plain, nested) = (image(&mesh, &basis, false), image(&mesh, &basis, true));
    let plain = plain.parse::<f32>().expect("image");
    let nested = nested.parse::<f32>().expect("image");
    let frames = frames();
    let per_frame = |s: u32| f64::from(s) / FRAMES as f64;
    let (rp, gp) = tightness(&plain.tree);
    let (rn, gn) = tightness(&nested.tree);
    println!(
        "proxies: 20,480 + 20,480 triangles, M = {MODES}, {FRAMES} frames; tree depth {}; \
         mean rest radius plain {rp:.5} nested {rn:.5} ({:+.1} %), mean ‖ΔR‖₂ plain {gp:.5} \
         nested {gn:.5} ({:+.1} %)",
        nested.tree.depth(),
        100.0 * (rn / rp - 1.0),
        100.0 * (gn / gp - 1.0)
    );
    let mut storage = PairStorage::new(&plain);
    let (exact_plain, pairs_plain) = run(&plain, &mut storage, &frames, Method::Exact, true);
    let (exact_nested, pairs_nested) = run(&nested, &mut storage, &frames, Method::Exact, true);
    // Both exact answers hold every pair of the f64 oracle (extras differ: the nested tree's
    // larger magnitude bounds widen its rounding inflation a little).
    let mut extras = [0usize; 2];
    for (f, frame) in frames.iter().enumerate() {
        let world = [0, 1].map(|b| {
            deform(
                &mesh.vertices,
                Some(&basis),
                &frame.q64[b],
                &frame.pose64[b],
            )
        });
        let truth = brute_force_pairs(&world[0], &mesh.triangles, &world[1], &mesh.triangles);
        for (k, found) in [&pairs_plain[f], &pairs_nested[f]].into_iter().enumerate() {
            for pair in &truth {
                assert!(
                    found.binary_search(pair).is_ok(),
                    "frame {f}: missed {pair:?}"
                );
            }
            extras[k] += found.len() - truth.len();
        }
    }
    println!(
        "  exact queries hold every f64 brute-force pair; near-touching extras over all frames: plain {}, nested {}",
        extras[0], extras[1]
    );
    for (name, s) in [("exact_plain", exact_plain), ("exact_nested", exact_nested)] {
        println!(
            "  {name:<13} per frame: {:>8.0} overlap tests, {:>6.0} sphere updates, {:>6.0} triangle tests, {:>6.0} pairs",
            per_frame(s.overlap_tests),
            per_frame(s.sphere_updates),
            per_frame(s.triangle_tests),
            per_frame(s.pairs)
        );
    }
    for l in DEPTHS {
        let (s, proxies) = run(&nested, &mut storage, &frames, Method::Proxies(l), true);
        let owner = owners(&nested.tree, l);
        for (f, (exact, found)) in pairs_nested.iter().zip(&proxies).enumerate() {
            for &(ta, tb) in exact {
                let pair = (owner[ta as usize], owner[tb as usize]);
                assert!(
                    found.binary_search(&pair).is_ok(),
                    "frame {f}: contact ({ta}, {tb}) not under a proxy pair at depth {l}"
                );
            }
        }
        println!(
            "  proxies_{l:<5} per frame: {:>8.0} overlap tests, {:>6.0} sphere updates, {:>6.0} proxy pairs",
            per_frame(s.overlap_tests),
            per_frame(s.sphere_updates),
            per_frame(s.pairs)
        );
    }

    let mut group = c.benchmark_group("proxies");
    group.sample_size(20);
    group.measurement_time(Duration::from_secs(4));
    let methods = [
        ("exact_plain".to_string(), Method::Exact, &plain),
        ("exact_nested".to_string(), Method::Exact, &nested),
    ]
    .into_iter()
    .chain(
        DEPTHS
            .iter()
            .map(|&l| (format!("proxies_{l}"), Method::Proxies(l), &nested)),
    );
    for (name, method, image) in methods {
        group.bench_function(BenchmarkId::new(name, "per_trajectory"), |bench| {
            bench.iter(|| run(image, &mut storage, &frames, method, false))
        });
    }
    group.finish();
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    bench(&mut c);
    c.final_summary();
}
