//! Broad phase for many bodies: sweep-and-prune (with frame coherence) against all pairs.
//!
//! `n` root spheres of radius 0.3–0.6 scattered over a 40 × 40 × 4 slab (a pile of chairs on a
//! floor, the slab growing with n: 258 overlapping pairs at n = 1000, 920 at 4000), each drifting by up
//! to 2 cm per frame. Group `broad`, per frame: `sweep_and_prune/n` (insertion re-sort + sweep)
//! and `all_pairs/n` (n (n − 1) / 2 sphere tests). Both give the same pairs (checked before
//! timing; the equality over random worlds is tested in bdtree-std/tests/kernel/world/sweep.rs).

use std::hint::black_box;
use std::time::Duration;

use bdtree_core::bounds::sphere::spheres_overlap;
use bdtree_core::{AllPairs, SweepAndPrune};
use criterion::{BenchmarkId, Criterion};

fn world(n: usize, seed: u64) -> Vec<[f32; 4]> {
    let mut rng = bdtree_std::rng::Rng::from_state(seed);
    let mut next = move || rng.unit();
    let side = 40.0 * (n as f64 / 1000.0).sqrt();
    (0..n)
        .map(|_| {
            [
                (next() * side) as f32,
                (next() * side) as f32,
                (next() * 4.0) as f32,
                (0.3 + 0.3 * next()) as f32,
            ]
        })
        .collect()
}

fn drift(spheres: &mut [[f32; 4]], frame: usize) {
    for (k, s) in spheres.iter_mut().enumerate() {
        let phase = (k * 7 + frame) as f32 * 0.1;
        s[0] += 0.02 * phase.sin();
        s[1] += 0.02 * phase.cos();
    }
}

fn all_pairs(spheres: &[[f32; 4]]) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    for i in 0..spheres.len() {
        for j in i + 1..spheres.len() {
            if spheres_overlap(spheres[i], spheres[j]) {
                out.push((i as u32, j as u32));
            }
        }
    }
    out
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("broad");
    group.sample_size(20);
    group.measurement_time(Duration::from_secs(3));
    for n in [1000usize, 4000] {
        let mut spheres = world(n, 0x5eed + n as u64);
        let mut order = vec![0u32; n];
        let mut sap = SweepAndPrune::new(&mut order);
        let mut found = Vec::new();
        sap.pairs(&spheres, &AllPairs, &mut |i, j| {
            found.push((i, j));
            true
        });
        found.sort_unstable();
        let expected = all_pairs(&spheres);
        assert_eq!(found, expected);
        println!("broad: {n} bodies, {} overlapping pairs", expected.len());
        let mut frame = 0;
        group.bench_function(BenchmarkId::new("sweep_and_prune", n), |b| {
            b.iter(|| {
                frame += 1;
                drift(&mut spheres, frame);
                let mut count = 0u32;
                sap.pairs(&spheres, &AllPairs, &mut |_, _| {
                    count += 1;
                    true
                });
                black_box(count)
            })
        });
        group.bench_function(BenchmarkId::new("all_pairs", n), |b| {
            b.iter(|| {
                frame += 1;
                drift(&mut spheres, frame);
                black_box(all_pairs(&spheres).len())
            })
        });
    }
    group.finish();
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    bench(&mut c);
    c.final_summary();
}
