//! Proximity queries: exact nearest distance and "closer than d?" against brute force.
//!
//! Two deforming unit icospheres (M = 10) whose surfaces pass 2–15 cm apart, 8 frames: at 1,280
//! triangles each (where brute force over all 1.6 M triangle pairs is affordable) and at 20,480
//! (bdtree only). Group `separation`, one iteration = all frames; `closer_than` asks "closer
//! than 10 cm?" (yes) and "closer than 1 cm?" (no, the harder answer: it must rule out every
//! pair). Before timing, every frame's bdtree distance is checked against brute force (1,280
//! case) and the work counters are printed.

use bdtree_std::io;
use bdtree_std::{oracle, BodyStorage};
use std::time::Duration;

use bdtree_core::query::separation::{closer_than, nearest};
use bdtree_core::{stack_capacity, Image, Pose};
use bdtree_std::build::{build, BuildOptions, Precision};
use bdtree_std::io::{Basis, ImageBuf, Mesh};
use bdtree_std::shapes::procedural::{icosphere, smooth_basis};
use criterion::{BenchmarkId, Criterion};

const MODES: usize = 10;

struct Frame {
    q: [Vec<f64>; 2],
    pose: [io::Pose; 2],
}

fn frames() -> Vec<Frame> {
    (0..8)
        .map(|k| {
            let t = k as f64 * 0.4;
            let q = |phase: f64| {
                (0..MODES)
                    .map(|j| (1.3 * j as f64 + phase + t).sin())
                    .collect()
            };
            Frame {
                q: [q(0.4), q(1.7)],
                pose: [
                    io::Pose::from_axis_angle([0.0, 0.0, 1.0], t, [-1.05, 0.0, 0.0]),
                    io::Pose::from_axis_angle([0.0, 1.0, 0.0], -t, [1.05, 0.1 * t.sin(), 0.0]),
                ],
            }
        })
        .collect()
}

fn pose(p: &io::Pose) -> Pose<f32> {
    Pose::from_quaternion(
        p.rotation.map(|x| x as f32),
        p.translation.map(|x| x as f32),
    )
    .expect("pose")
}

fn run(image: &Image<'_, f32>, frames: &[Frame], what: u8) -> Vec<f64> {
    let n = image.tree.node_count();
    let (mut c0, mut c1) = (BodyStorage::new(n), BodyStorage::new(n));
    let mut a = c0.body(image).expect("a");
    let mut b = c1.body(image).expect("b");
    let mut stack = vec![[0u32; 2]; stack_capacity(image.tree.depth(), image.tree.depth())];
    let mut out = Vec::new();
    for f in frames {
        let qa: Vec<f32> = f.q[0].iter().map(|&x| x as f32).collect();
        let qb: Vec<f32> = f.q[1].iter().map(|&x| x as f32).collect();
        a.set_state(pose(&f.pose[0]), &qa).expect("a");
        b.set_state(pose(&f.pose[1]), &qb).expect("b");
        out.push(match what {
            0 => {
                let mut answer = None;
                let o = nearest(&mut a, &mut b, &mut stack, &mut answer);
                assert!(o.status.is_complete());
                f64::from(answer.expect("answer").distance)
            }
            1 => {
                let mut closer = true;
                let o = closer_than(&mut a, &mut b, 0.1, 0.0, &mut stack, &mut closer);
                assert!(o.status.is_complete());
                f64::from(u8::from(closer))
            }
            _ => {
                let mut closer = true;
                let o = closer_than(&mut a, &mut b, 0.01, 0.0, &mut stack, &mut closer);
                assert!(o.status.is_complete());
                f64::from(u8::from(closer))
            }
        });
    }
    out
}

fn body(subdivisions: u32) -> (Mesh, Basis, ImageBuf) {
    let mesh = icosphere(1.0, subdivisions);
    let basis = smooth_basis(&mesh.vertices, MODES, 0.03);
    let options = BuildOptions {
        precision: Precision::F32,
        ..BuildOptions::default()
    };
    let image = build(&mesh, Some(&basis), options, &mut |_| {})
        .expect("build")
        .0;
    (mesh, basis, image)
}

fn bench(c: &mut Criterion) {
    let frames = frames();
    let mut group = c.benchmark_group("separation");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(3));
    for subdivisions in [3u32, 5] {
        let (mesh, basis, buf) = body(subdivisions);
        let image = buf.parse::<f32>().expect("image");
        let tris = mesh.triangles.len();
        let distances = run(&image, &frames, 0);
        print!("separation: {tris} triangles each, distances per frame:");
        for d in &distances {
            print!(" {d:.4}");
        }
        println!();
        if subdivisions == 3 {
            for (f, d) in frames.iter().zip(&distances) {
                let wa = oracle::deform(&mesh.vertices, Some(&basis), &f.q[0], &f.pose[0]);
                let wb = oracle::deform(&mesh.vertices, Some(&basis), &f.q[1], &f.pose[1]);
                let (truth, _, _) =
                    oracle::brute_force_distance(&wa, &mesh.triangles, &wb, &mesh.triangles)
                        .expect("tris");
                assert!(
                    (truth - d).abs() < 1e-4,
                    "bdtree {d} vs brute force {truth}"
                );
            }
            group.bench_function(BenchmarkId::new("brute_force", tris), |bench| {
                bench.iter(|| {
                    frames
                        .iter()
                        .map(|f| {
                            let wa =
                                oracle::deform(&mesh.vertices, Some(&basis), &f.q[0], &f.pose[0]);
                            let wb =
                                oracle::deform(&mesh.vertices, Some(&basis), &f.q[1], &f.pose[1]);
                            oracle::brute_force_distance(&wa, &mesh.triangles, &wb, &mesh.triangles)
                        })
                        .count()
                })
            });
        }
        for (label, what) in [
            ("nearest", 0u8),
            ("closer_than_10cm", 1),
            ("closer_than_1cm", 2),
        ] {
            group.bench_function(BenchmarkId::new(label, tris), |bench| {
                bench.iter(|| run(&image, &frames, what))
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
