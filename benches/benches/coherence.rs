//! Temporal coherence against the exact update: per-frame query cost on trajectories that vary
//! slowly or quickly, and where the crossover lies.
//!
//! Scene: a unit icosphere of 81,920 triangles and a 720-triangle UV sphere of radius 0.04, both
//! with M = 10 smooth modes (largest displacement per mode 3 % of the body's radius), the small
//! body pressed 6 mm into the big one's deformed surface at every frame. `q_j(t) = sin(φ_j + ω t)`
//! over [`FRAMES`] frames, for each step rate ω in [`RATES`] (radians of phase per frame: 0.002 is
//! a slow drift, 0.2 a fast vibration).
//!
//! Group `coherence`, one benchmark per (rate, method), one iteration = the whole trajectory,
//! reported per frame: `exact` (every visited node updated exactly each frame) and
//! `coherent_g0.5mm`, `coherent_g2mm` (`Anchor::Growth`: re-anchor when the largest sphere
//! growth exceeds 0.5 mm / 2 mm; the big body's leaves have radii of about 5 mm) and
//! `coherent_steps4` (`Anchor::Steps(4)`). Before timing, every frame's
//! pairs of every method are checked against brute force on the f64 deformed meshes (a missed
//! pair panics) and the counters are printed: overlap tests, sphere updates, triangle tests and
//! anchors per trajectory.

use bdtree_benches::query_scene::collide_into;
use bdtree_std::BodyStorage;
use std::hint::black_box;
use std::time::Duration;

use bdtree_core::{
    stack_capacity, Anchor, Body, Pose, QueryStats, ReferenceEntry, TrianglePair, VertexEntry,
};
use bdtree_std::build::{build, BuildOptions, Precision};
use bdtree_std::io::Pose as OraclePose;
use bdtree_std::io::{Basis, Mesh};
use bdtree_std::oracle::{brute_force_pairs, deform};
use bdtree_std::shapes::procedural::{icosphere, smooth_basis, uv_sphere};
use criterion::{BenchmarkId, Criterion, Throughput};

const MODES: usize = 10;
/// Frames per trajectory.
const FRAMES: usize = 48;
/// Phase advanced per frame by each mode.
const RATES: [f64; 4] = [0.002, 0.01, 0.05, 0.2];
const SMALL_RADIUS: f64 = 0.04;
const DEPTH: f64 = 0.006;

struct Frame {
    q_big: Vec<f32>,
    q_small: Vec<f32>,
    pose_big: OraclePose,
    pose_small: OraclePose,
    q64: (Vec<f64>, Vec<f64>),
}

fn frames(big: &Mesh, basis: &Basis, rate: f64) -> Vec<Frame> {
    (0..FRAMES)
        .map(|k| {
            let t = k as f64;
            let q_big: Vec<f64> = (0..MODES)
                .map(|j| (1.3 * j as f64 + 0.4 + rate * t * (1.0 + 0.1 * j as f64)).sin())
                .collect();
            let q_small: Vec<f64> = (0..MODES)
                .map(|j| (0.9 * j as f64 + 1.1 + rate * t).cos())
                .collect();
            let pose_big = OraclePose::from_axis_angle([0.3, 1.0, 0.2], 0.4, [0.5, -0.25, 0.1]);
            let dir = [0.6f64, 0.5, 0.62];
            let n = dir.iter().map(|x| x * x).sum::<f64>().sqrt();
            let dir = dir.map(|x| x / n);
            let local = deform(&big.vertices, Some(basis), &q_big, &OraclePose::IDENTITY);
            let dot = |v: &[f64; 3]| v[0] * dir[0] + v[1] * dir[1] + v[2] * dir[2];
            let surface = local.iter().map(dot).fold(f64::MIN, f64::max);
            let center = dir.map(|c| c * (surface + SMALL_RADIUS - DEPTH));
            let pose_small = OraclePose {
                rotation: pose_big.rotation,
                translation: pose_big.apply(center),
            };
            Frame {
                q_big: q_big.iter().map(|&x| x as f32).collect(),
                q_small: q_small.iter().map(|&x| x as f32).collect(),
                pose_big,
                pose_small,
                q64: (q_big, q_small),
            }
        })
        .collect()
}

fn pose(p: &OraclePose) -> Pose<f32> {
    Pose::from_quaternion(
        p.rotation.map(|x| x as f32),
        p.translation.map(|x| x as f32),
    )
    .expect("unit quaternion")
}

/// Runs a trajectory; `check` compares each frame with brute force. Returns the summed
/// counters and the anchors taken by the big body.
#[allow(clippy::too_many_arguments)]
fn run(
    big: &mut Body<'_, '_, f32>,
    small: &mut Body<'_, '_, f32>,
    stack: &mut [[u32; 2]],
    pairs: &mut Vec<TrianglePair>,
    frames: &[Frame],
    check: Option<(&Mesh, &Basis, &Mesh, &Basis)>,
) -> QueryStats {
    let mut total = QueryStats::default();
    let mut touching = 0;
    for f in frames {
        big.set_state(pose(&f.pose_big), &f.q_big).expect("state");
        small
            .set_state(pose(&f.pose_small), &f.q_small)
            .expect("state");
        let outcome = collide_into(big, small, stack, pairs);
        assert!(outcome.status.is_complete());
        let s = outcome.stats;
        total.overlap_tests += s.overlap_tests;
        total.sphere_updates += s.sphere_updates;
        total.triangle_tests += s.triangle_tests;
        total.pairs += s.pairs;
        if let Some((mb, bb, ms, bs)) = check {
            let wb = deform(&mb.vertices, Some(bb), &f.q64.0, &f.pose_big);
            let ws = deform(&ms.vertices, Some(bs), &f.q64.1, &f.pose_small);
            let expected = brute_force_pairs(&wb, &mb.triangles, &ws, &ms.triangles);
            touching += usize::from(!expected.is_empty());
            for e in &expected {
                assert!(pairs.iter().any(|p| (p.a, p.b) == *e), "missed pair {e:?}");
            }
        }
    }
    // The small body's own modes can lift it off now and then; most frames must touch, or the
    // comparison with brute force says little.
    assert!(
        check.is_none() || 2 * touching > frames.len(),
        "only {touching} of {} frames make contact",
        frames.len()
    );
    total
}

fn main() {
    let big = icosphere(1.0, 6);
    let small = uv_sphere(SMALL_RADIUS, 16, 24);
    let big_basis = smooth_basis(&big.vertices, MODES, 0.03);
    let small_basis = smooth_basis(&small.vertices, MODES, 0.03 * SMALL_RADIUS);
    let options = BuildOptions {
        precision: Precision::F32,
        ..Default::default()
    };
    let big_buf = build(&big, Some(&big_basis), options, &mut |_| {})
        .expect("build")
        .0;
    let small_buf = build(&small, Some(&small_basis), options, &mut |_| {})
        .expect("build")
        .0;
    let big_image = big_buf.parse::<f32>().expect("parse");
    let small_image = small_buf.parse::<f32>().expect("parse");
    let (nb, ns) = (big_image.tree.node_count(), small_image.tree.node_count());
    eprintln!(
        "big body: {} triangles, {nb} nodes; small body: {} triangles",
        big.triangles.len(),
        small.triangles.len()
    );

    let mut criterion = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .sample_size(10)
        .configure_from_args();
    let mut group = criterion.benchmark_group("coherence");
    let methods: [(&str, Option<Anchor<f32>>); 4] = [
        ("exact", None),
        ("coherent_g0.5mm", Some(Anchor::Growth(0.0005))),
        ("coherent_g2mm", Some(Anchor::Growth(0.002))),
        ("coherent_steps4", Some(Anchor::Steps(4))),
    ];
    eprintln!("rate    method        overlap tests  updates  triangle tests  anchors  (per frame; anchors per trajectory)");
    for rate in RATES {
        let frames = frames(&big, &big_basis, rate);
        for (name, policy) in methods {
            let mut cache_b = BodyStorage::new(nb);
            let mut cache_s = BodyStorage::new(ns);
            let mut refs_b = vec![ReferenceEntry::default(); nb];
            let mut refs_s = vec![ReferenceEntry::default(); ns];
            let mut modes_b = vec![0.0f32; bdtree_core::mode_storage(big_image.tree.modes())];
            let mut modes_s = vec![0.0f32; bdtree_core::mode_storage(small_image.tree.modes())];
            let mut verts_b = vec![VertexEntry::default(); big.vertices.len()];
            let mut verts_s = vec![VertexEntry::default(); small.vertices.len()];
            let mut b = cache_b
                .body(&big_image)
                .and_then(|b| b.with_vertex_cache(&mut verts_b))
                .expect("big");
            let mut s = cache_s
                .body(&small_image)
                .and_then(|b| b.with_vertex_cache(&mut verts_s))
                .expect("small");
            if let Some(policy) = policy {
                b = b
                    .with_coherence(&mut refs_b, &mut modes_b, policy)
                    .expect("refs");
                s = s
                    .with_coherence(&mut refs_s, &mut modes_s, policy)
                    .expect("refs");
            }
            let mut stack =
                vec![[0u32; 2]; stack_capacity(big_image.tree.depth(), small_image.tree.depth())];
            let mut pairs = Vec::new();
            let anchors_before = b.anchor_count();
            let check = Some((&big, &big_basis, &small, &small_basis));
            let t = run(&mut b, &mut s, &mut stack, &mut pairs, &frames, check);
            let per = |x: u32| x as f64 / FRAMES as f64;
            eprintln!(
                "{rate:<7} {name:<13} {:>13.0} {:>8.0} {:>15.0} {:>8}",
                per(t.overlap_tests),
                per(t.sphere_updates),
                per(t.triangle_tests),
                b.anchor_count() - anchors_before
            );
            group.throughput(Throughput::Elements(FRAMES as u64));
            group.bench_function(BenchmarkId::new(name, rate), |bench| {
                bench.iter(|| black_box(run(&mut b, &mut s, &mut stack, &mut pairs, &frames, None)))
            });
        }
    }
    group.finish();
    criterion.final_summary();
}
