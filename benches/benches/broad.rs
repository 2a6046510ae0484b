//! Broad phase for many bodies: sweep-and-prune (with frame coherence) and the hashed uniform
//! grid, against all pairs.
//!
//! Two layouts of `n` root spheres, each drifting by up to 2 cm per frame:
//! * `flat`: radius 0.3–0.6 scattered over a 40 × 40 × 4 slab (chairs spread on a floor, the
//!   slab's area growing with n: about √n bodies in each x slice);
//! * `pile`: radius 0.56 (the chair's root sphere) uniformly in a cone of 45° slopes holding
//!   0.35 m³ per body (a heap: its base radius grows as n^⅓, about n^⅔ bodies in each x slice).
//!
//! Group `broad`, per frame: `sweep_and_prune/<layout>/n` (insertion re-sort + sweep),
//! `grid/<layout>/n` (cells, counting sort, 27 neighbour cells per body) and, on the flat
//! layout at n = 1000, `all_pairs` (n (n − 1) / 2 sphere tests); n = 64, 256, 1000 and 3601
//! (the small sizes for the host's automatic choice,
//! `bdtree_std::host::world::AUTO_GRID_BODIES`). All give the same pairs (checked before
//! timing; the equality over random worlds is tested in
//! bdtree-std/tests/kernel/world/{sweep,grid}.rs).

use std::hint::black_box;
use std::time::Duration;

use bdtree_benches::broad_scene::{drift, flat, pile};
use bdtree_core::bounds::sphere::spheres_overlap;
use bdtree_core::{AllPairs, GridStatus, SweepAndPrune, UniformGrid};
use criterion::{BenchmarkId, Criterion};

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

fn sweep_pairs(sap: &mut SweepAndPrune<'_>, spheres: &[[f32; 4]]) -> Vec<(u32, u32)> {
    let mut found = Vec::new();
    sap.pairs(spheres, &AllPairs, &mut |i, j| {
        found.push((i, j));
        true
    });
    found.sort_unstable();
    found
}

fn grid_pairs(words: &mut [u32], spheres: &[[f32; 4]]) -> Vec<(u32, u32)> {
    let mut found = Vec::new();
    let (status, _) = UniformGrid::new(words).pairs(spheres, &AllPairs, &mut |i, j| {
        found.push((i, j));
        true
    });
    assert_eq!(status, GridStatus::Complete);
    found.sort_unstable();
    found
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("broad");
    group.sample_size(20);
    group.measurement_time(Duration::from_secs(3));
    type Layout = fn(usize, u64) -> Vec<[f32; 4]>;
    for (name, layout) in [("flat", flat as Layout), ("pile", pile as Layout)] {
        for n in [64usize, 256, 1000, 3601] {
            let mut spheres = layout(n, 0x5eed + n as u64);
            let mut order = vec![0u32; n];
            let mut sap = SweepAndPrune::new(&mut order);
            let mut words = vec![0u32; UniformGrid::words_needed(n)];
            let expected = all_pairs(&spheres);
            assert_eq!(sweep_pairs(&mut sap, &spheres), expected);
            assert_eq!(grid_pairs(&mut words, &spheres), expected);
            println!(
                "broad: {name}, {n} bodies, {} overlapping pairs",
                expected.len()
            );
            let mut frame = 0;
            group.bench_function(
                BenchmarkId::new(format!("sweep_and_prune/{name}"), n),
                |b| {
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
                },
            );
            group.bench_function(BenchmarkId::new(format!("grid/{name}"), n), |b| {
                b.iter(|| {
                    frame += 1;
                    drift(&mut spheres, frame);
                    let mut count = 0u32;
                    UniformGrid::new(&mut words).pairs(&spheres, &AllPairs, &mut |_, _| {
                        count += 1;
                        true
                    });
                    black_box(count)
                })
            });
            if name == "flat" && n == 1000 {
                group.bench_function(BenchmarkId::new("all_pairs/flat", n), |b| {
                    b.iter(|| {
                        frame += 1;
                        drift(&mut spheres, frame);
                        black_box(all_pairs(&spheres).len())
                    })
                });
            }
        }
    }
    group.finish();
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    bench(&mut c);
    c.final_summary();
}
