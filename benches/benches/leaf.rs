//! The leaf test alone: `bdtree_core::geometry::triangle::triangles_may_intersect` on the triangle pairs a
//! query hands it.
//!
//! Pairs: two icospheres (radius 1, 1,280 triangles; radius 0.6, 320 triangles) whose surfaces
//! cross, every vertex jittered by up to 1 % of the radius so no two faces are aligned; the
//! pairs are every triangle pair whose bounding spheres (centroid, farthest vertex) overlap —
//! what a sphere-tree walk leaves for the leaf test: mostly near misses, some intersecting.
//! All of them are ordinary triangles (no zero-area ones), so this measures what ordinary
//! input pays. A second set, `degenerate`, takes the same pairs with every third triangle of
//! the small sphere collapsed to a point and every third to a segment (a vertex moved to the
//! midpoint of the other two), to show what those cost.
//!
//! Group `leaf`, one iteration is every pair once; criterion's throughput is per pair.
//!
//! ```sh
//! cargo bench -p bdtree-benches --bench leaf -- --warm-up-time 1 --measurement-time 3
//! ```

use std::hint::black_box;

use bdtree_benches::Rng;
use bdtree_core::geometry::triangle::triangles_may_intersect;
use bdtree_core::Scalar;
use bdtree_std::shapes::procedural::icosphere;
use criterion::{Criterion, Throughput};

type Tri = [[f64; 3]; 3];

fn jittered(radius: f64, subdivisions: u32, center: [f64; 3], rng: &mut Rng) -> Vec<Tri> {
    let mesh = icosphere(radius, subdivisions);
    let vertices: Vec<[f64; 3]> = mesh
        .vertices
        .iter()
        .map(|v| core::array::from_fn(|k| v[k] + center[k] + rng.uniform(-0.01, 0.01) * radius))
        .collect();
    mesh.triangles
        .iter()
        .map(|t| t.map(|i| vertices[i as usize]))
        .collect()
}

fn sphere_of(t: &Tri) -> ([f64; 3], f64) {
    let c: [f64; 3] = core::array::from_fn(|k| (t[0][k] + t[1][k] + t[2][k]) / 3.0);
    let r = t
        .iter()
        .map(|v| (0..3).map(|k| (v[k] - c[k]).powi(2)).sum::<f64>().sqrt())
        .fold(0.0, f64::max);
    (c, r)
}

/// Every pair of triangles whose bounding spheres overlap.
fn ordinary_pairs() -> Vec<(Tri, Tri)> {
    let mut rng = Rng::new(23);
    let big = jittered(1.0, 3, [0.0; 3], &mut rng);
    let small = jittered(0.6, 2, [0.9, 0.2, 0.1], &mut rng);
    let spheres: Vec<_> = big.iter().map(sphere_of).collect();
    let mut pairs = Vec::new();
    for b in &small {
        let (cb, rb) = sphere_of(b);
        for (a, (ca, ra)) in big.iter().zip(&spheres) {
            let d2: f64 = (0..3).map(|k| (ca[k] - cb[k]).powi(2)).sum();
            if d2 <= (ra + rb) * (ra + rb) {
                pairs.push((*a, *b));
            }
        }
    }
    pairs
}

/// The same pairs with a third of the small sphere's triangles points and a third segments.
fn degenerate_pairs(pairs: &[(Tri, Tri)]) -> Vec<(Tri, Tri)> {
    pairs
        .iter()
        .enumerate()
        .map(|(i, &(a, b))| {
            let b = match i % 3 {
                0 => [b[0]; 3],
                1 => [
                    b[0],
                    b[1],
                    core::array::from_fn(|k| 0.5 * (b[0][k] + b[1][k])),
                ],
                _ => b,
            };
            (a, b)
        })
        .collect()
}

/// Two triangles in the kernel's scalar.
type Pair<S> = ([[S; 3]; 3], [[S; 3]; 3]);

fn convert<S: Scalar>(pairs: &[(Tri, Tri)]) -> Vec<Pair<S>> {
    pairs
        .iter()
        .map(|(a, b)| (a.map(|v| v.map(S::from_f64)), b.map(|v| v.map(S::from_f64))))
        .collect()
}

fn run<S: Scalar>(pairs: &[Pair<S>], error: S) -> usize {
    pairs
        .iter()
        .filter(|(a, b)| triangles_may_intersect(black_box(a), black_box(b), error))
        .count()
}

fn bench(c: &mut Criterion) {
    let ordinary = ordinary_pairs();
    let degenerate = degenerate_pairs(&ordinary);
    let (o32, o64) = (convert::<f32>(&ordinary), convert::<f64>(&ordinary));
    let (d32, d64) = (convert::<f32>(&degenerate), convert::<f64>(&degenerate));
    // A typical inflation: a unit body in f32 / f64.
    let (e32, e64) = (1e-6f32, 1e-14f64);
    println!(
        "leaf pairs: {} ordinary ({} f64 / {} f32 may intersect), {} with degenerate triangles ({} / {})",
        ordinary.len(),
        run(&o64, e64),
        run(&o32, e32),
        degenerate.len(),
        run(&d64, e64),
        run(&d32, e32),
    );
    let mut group = c.benchmark_group("leaf");
    group.throughput(Throughput::Elements(ordinary.len() as u64));
    group.bench_function("ordinary_f32", |b| b.iter(|| run(&o32, e32)));
    group.bench_function("ordinary_f64", |b| b.iter(|| run(&o64, e64)));
    group.bench_function("degenerate_f32", |b| b.iter(|| run(&d32, e32)));
    group.bench_function("degenerate_f64", |b| b.iter(|| run(&d64, e64)));
    group.finish();
}

fn config() -> Criterion {
    Criterion::default().sample_size(20)
}

criterion::criterion_group! {
    name = benches;
    config = config();
    targets = bench
}
criterion::criterion_main!(benches);
