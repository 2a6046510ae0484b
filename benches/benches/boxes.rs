//! Sphere bounds against box bounds (15-axis and 6-axis tests): overlap tests per query, bytes
//! per node, time per frame.
//!
//! Scenes: the bundled `demo` fixture (three bodies with vibration modes and smooth fields, 24
//! frames, every body pair) and the `proxies` bench's two deforming 20,480-triangle
//! icospheres in broad contact (M = 10, 16 frames). Group `boxes`, one iteration = all frames of
//! a scene; counters printed before timing (every method's pairs hold the f64 brute-force
//! answer: see bdtree-std/tests/kernel/query/boxes.rs; here the three methods are checked to
//! report the same pairs up to near-touching extras).

use bdtree_std::BodyStorage;
use std::path::Path;
use std::time::Duration;

use bdtree_core::query::boxes::{collide_boxes, BoxTable, BoxTest};
use bdtree_core::{collide, stack_capacity, Body, Image, Pose, QueryStats, TrianglePair};
use bdtree_std::build::{box_table, build, BuildOptions, Precision};
use bdtree_std::io::{ImageBuf, Scene};
use bdtree_std::shapes::procedural::{icosphere, smooth_basis};
use criterion::{BenchmarkId, Criterion};

/// Per frame, per body: pose and q in f32.
type Frames = Vec<Vec<(Pose<f32>, Vec<f32>)>>;

#[derive(Clone, Copy, PartialEq)]
enum Method {
    Spheres,
    Boxes(BoxTest),
}

fn run(
    images: &[Image<'_, f32>],
    tables: &[BoxTable<'_, f32>],
    frames: &Frames,
    method: Method,
) -> (QueryStats, usize) {
    let mut caches: Vec<BodyStorage<f32>> = images
        .iter()
        .map(|im| BodyStorage::new(im.tree.node_count()))
        .collect();
    let mut bodies: Vec<Body<'_, '_, f32>> = caches
        .iter_mut()
        .zip(images)
        .map(|(c, im)| c.body(im).expect("body"))
        .collect();
    let depth = images.iter().map(|im| im.tree.depth()).max().unwrap_or(0);
    let mut stack = vec![[0u32; 2]; stack_capacity(depth, depth)];
    let mut total = QueryStats::default();
    let mut pairs = 0usize;
    for frame in frames {
        for (body, (pose, q)) in bodies.iter_mut().zip(frame) {
            body.set_state(*pose, q).expect("state");
        }
        for i in 0..bodies.len() {
            let (head, tail) = bodies.split_at_mut(i + 1);
            let a = &mut head[i];
            for (k, b) in tail.iter_mut().enumerate() {
                let j = i + 1 + k;
                let mut sink = |_: TrianglePair| {
                    pairs += 1;
                    true
                };
                let outcome = match method {
                    Method::Spheres => collide(a, b, &mut stack, &mut sink),
                    Method::Boxes(test) => {
                        collide_boxes(a, b, &tables[i], &tables[j], test, &mut stack, &mut sink)
                    }
                };
                assert!(outcome.status.is_complete());
                total.overlap_tests += outcome.stats.overlap_tests;
                total.triangle_tests += outcome.stats.triangle_tests;
                total.nodes_visited += outcome.stats.nodes_visited;
            }
        }
    }
    (total, pairs)
}

fn scenes() -> Vec<(String, Vec<ImageBuf>, Frames)> {
    let mut out = Vec::new();
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/scenes/demo.json");
    let scene = Scene::load(&path).expect("demo scene");
    let options = BuildOptions {
        precision: Precision::F32,
        ..BuildOptions::default()
    };
    let images = scene
        .bodies
        .iter()
        .map(|b| {
            build(&b.mesh, b.basis.as_ref(), options, &mut |_| {})
                .expect("build")
                .0
        })
        .collect();
    let frames = scene
        .frames
        .iter()
        .map(|f| {
            f.iter()
                .map(|(p, q)| {
                    let pose = Pose::from_quaternion(
                        p.rotation.map(|x| x as f32),
                        p.translation.map(|x| x as f32),
                    )
                    .expect("pose");
                    (pose, q.iter().map(|&x| x as f32).collect())
                })
                .collect()
        })
        .collect();
    out.push(("demo".to_string(), images, frames));

    let mesh = icosphere(1.0, 5);
    let basis = smooth_basis(&mesh.vertices, 10, 0.03);
    let image = build(&mesh, Some(&basis), options, &mut |_| {})
        .expect("build")
        .0;
    let frames = (0..16)
        .map(|k| {
            let t = k as f64 * 0.3;
            let q = |phase: f64| -> Vec<f32> {
                (0..10)
                    .map(|j| (1.3 * j as f64 + phase + t).sin() as f32)
                    .collect()
            };
            let half = 0.1 * (0.5 * t).sin() as f32;
            vec![
                (
                    Pose::from_quaternion([1.0, 0.0, 0.0, 0.0], [-0.95, half, 0.0]).expect("pose"),
                    q(0.4),
                ),
                (
                    Pose::from_quaternion([0.0, 0.0, 1.0, 0.0], [0.95, -half, 0.0]).expect("pose"),
                    q(1.7),
                ),
            ]
        })
        .collect();
    out.push((
        "spheres_20k".to_string(),
        vec![image.clone(), image],
        frames,
    ));
    out
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("boxes");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(3));
    for (name, bufs, frames) in scenes() {
        let images: Vec<Image<'_, f32>> = bufs.iter().map(|b| b.parse().expect("image")).collect();
        let rows: Vec<Vec<[f32; 4]>> = images.iter().map(box_table).collect();
        let tables: Vec<BoxTable<'_, f32>> = rows
            .iter()
            .zip(&images)
            .map(|(r, im)| BoxTable::new(r, &im.tree).expect("table"))
            .collect();
        let nodes: usize = images.iter().map(|im| im.tree.node_count()).sum();
        let modes: usize = images
            .iter()
            .map(|im| im.tree.modes() * im.tree.node_count())
            .sum();
        let sphere_bytes = (16 * (modes + nodes) + 4 * nodes) as f64 / nodes as f64;
        let box_bytes = (16 * (modes + nodes)) as f64 / nodes as f64;
        println!(
            "boxes: scene {name}, {} frames; bytes per node: sphere record {sphere_bytes:.0}, box table +{box_bytes:.0}",
            frames.len()
        );
        let methods = [
            ("spheres", Method::Spheres),
            ("boxes_15_axes", Method::Boxes(BoxTest::Exact)),
            ("boxes_6_axes", Method::Boxes(BoxTest::FaceAxes)),
        ];
        let f = frames.len() as f64;
        for (label, method) in methods {
            let (s, pairs) = run(&images, &tables, &frames, method);
            println!(
                "  {label:<14} per frame: {:>9.0} overlap tests, {:>8.0} node pairs visited, {:>7.0} triangle tests, {:>6.0} pairs",
                s.overlap_tests as f64 / f,
                s.nodes_visited as f64 / f,
                s.triangle_tests as f64 / f,
                pairs as f64 / f
            );
        }
        for (label, method) in methods {
            group.bench_function(BenchmarkId::new(label, &name), |b| {
                b.iter(|| run(&images, &tables, &frames, method))
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
