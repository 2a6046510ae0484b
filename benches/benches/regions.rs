//! Local bases and deformation regions: update cost against M, and the per-frame query when one
//! control point moves.
//!
//! Bodies: quadratic B-spline patches (`bdtree_std::shapes::bspline_patch`) of 4 × 4, 8 × 8 and
//! 12 × 12 control points (M = 48, 192, 432), sampled 33 × 33 (2,048 triangles). Group
//! `regions`:
//! * `update_sparse/M` and `update_dense/M`: one `set_state` changing every coordinate and a
//!   full sweep of `Body::sphere` over every node — with regions (support-proportional kernel)
//!   and without (the dense `4M` kernel); reported per node.
//! * `one_control_point/on` and `/off`: two crossing 12 × 12 patches; each frame moves one
//!   control point of the first and runs `collide` — with regions most spheres carry over.

use bdtree_std::BodyStorage;
use std::time::Duration;

use bdtree_core::{collide, stack_capacity, Body, Image, Pose, TrianglePair, VertexEntry};
use bdtree_std::build::{build, BuildOptions};
use bdtree_std::io::ImageBuf;
use bdtree_std::shapes::bspline_patch;
use criterion::{BenchmarkId, Criterion, Throughput};

fn patch(controls: usize) -> ImageBuf {
    let p = bspline_patch(1.2, 1.2, [controls, controls], 2, [33, 33]).expect("patch");
    build(
        &p.mesh,
        Some(&p.basis),
        BuildOptions::default(),
        &mut |_| {},
    )
    .expect("build")
    .0
}

/// A body over `image` (with or without regions) whose every node is recomputed by `sweep`.
struct Sweeper<'i> {
    image: &'i Image<'i, f32>,
    q: Vec<f32>,
    step: usize,
}

impl Sweeper<'_> {
    /// Changes every coordinate, then asks every node's sphere.
    fn sweep(&mut self, body: &mut Body<'_, '_, f32>) {
        self.step += 1;
        for (j, x) in self.q.iter_mut().enumerate() {
            *x = 0.01 * ((j + self.step) % 7) as f32 - 0.03;
        }
        body.set_state(Pose::identity(), &self.q).expect("state");
        for k in 0..self.image.tree.node_count() {
            std::hint::black_box(body.sphere(k));
        }
    }
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("regions");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(2));
    for controls in [4usize, 8, 12] {
        let buf = patch(controls);
        let image = buf.parse::<f32>().expect("image");
        let m = image.tree.modes();
        group.throughput(Throughput::Elements(image.tree.node_count() as u64));
        let n = image.tree.node_count();
        for regions in [true, false] {
            let mut cache = BodyStorage::new(n);
            let mut words = vec![0u64; Body::<f32>::region_words(&image.tree)];
            let body = cache.body(&image).expect("body");
            let mut body = if regions {
                body.with_regions(&mut words).expect("regions")
            } else {
                body
            };
            let mut sweeper = Sweeper {
                image: &image,
                q: vec![0.0; m],
                step: 0,
            };
            let label = if regions {
                "update_sparse"
            } else {
                "update_dense"
            };
            group.bench_function(BenchmarkId::new(label, m), |b| {
                b.iter(|| sweeper.sweep(&mut body))
            });
        }
    }
    // One control point moving per frame.
    let buf = patch(12);
    let image = buf.parse::<f32>().expect("image");
    let n = image.tree.node_count();
    let m = image.tree.modes();
    let other = Pose::from_quaternion([0.8660254, 0.5, 0.0, 0.0], [0.05, 0.02, 0.0]).expect("pose");
    group.throughput(Throughput::Elements(1));
    for regions in [true, false] {
        let label = if regions { "on" } else { "off" };
        let (mut ca, mut cb) = (BodyStorage::new(n), BodyStorage::new(n));
        let words = Body::<f32>::region_words(&image.tree);
        let (mut wa, mut wb) = (vec![0u64; words], vec![0u64; words]);
        let v = image.model.vertex_count();
        let (mut va, mut vb) = (
            vec![VertexEntry::default(); v],
            vec![VertexEntry::default(); v],
        );
        let a = ca
            .body(&image)
            .and_then(|a| a.with_vertex_cache(&mut va))
            .expect("a");
        let b = cb
            .body(&image)
            .and_then(|b| b.with_vertex_cache(&mut vb))
            .expect("b");
        let (mut a, mut b) = if regions {
            (
                a.with_regions(&mut wa).expect("a"),
                b.with_regions(&mut wb).expect("b"),
            )
        } else {
            (a, b)
        };
        let mut stack = vec![[0u32; 2]; stack_capacity(image.tree.depth(), image.tree.depth())];
        let mut qa = vec![0.0f32; m];
        let qb = vec![0.0f32; m];
        b.set_state(other, &qb).expect("b");
        let mut frame = 0usize;
        let mut updates = 0u32;
        let mut frames = 0u32;
        group.bench_function(BenchmarkId::new("one_control_point", label), |bench| {
            bench.iter(|| {
                frame += 1;
                let j = 3 * ((frame * 37) % (m / 3)) + 2;
                qa[j] = 0.02 * ((frame % 5) as f32 - 2.0);
                a.set_state(Pose::identity(), &qa).expect("a");
                // b stays: same state, but a new step for it too.
                b.set_state(other, &qb).expect("b");
                let outcome = collide(&mut a, &mut b, &mut stack, &mut |_: TrianglePair| true);
                updates += outcome.stats.sphere_updates;
                frames += 1;
                outcome.stats.pairs
            })
        });
        println!(
            "regions: one control point per frame, regions {label}: {:.0} sphere updates per frame",
            f64::from(updates) / f64::from(frames.max(1))
        );
    }
    group.finish();
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    bench(&mut c);
    c.final_summary();
}
