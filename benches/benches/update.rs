//! Per-node cost of the exact BD-Tree sphere update `c' = c + Ū q`, `R' = R + Σ ΔR_j |q_j|`.
//!
//! Groups `update_f32` and `update_f64`, one benchmark per variant and mode count M ∈ {4, 10,
//! 16, 32}, all reported per node (`Throughput::Elements(nodes)`):
//!
//! * `kernel/M` — `bdtree_core::bounds::sphere::update` over [`NODES`] node records laid out
//!   contiguously as in a tree image (M + 1 rows `[c, R]`, `[Ū_j, ΔR_j]` per node), results
//!   written to an output array.
//! * `scalar_reference/M` — the same arithmetic written as a straightforward implementation
//!   would: per node `c, R`, then `Ū` as three rows of M and a `ΔR` row of M, four separate dot
//!   products over j, one accumulator each.
//! * `body_sphere/M` — `Body::sphere` over every node of a built tree (icosphere, 1280
//!   triangles, 2559 nodes): update, world transform, inflation and cache write. `set_state`
//!   runs at the start of every iteration to invalidate the cache (O(M), included).
//! * `coherent_kernel/M` — the single-flop coherent update (`bdtree_core::bounds::coherence`): per node
//!   the reference center copied and `R'' = (R'_r + D ‖δq‖₂)(1 + 4u)` from the reference sphere
//!   and the spread, `‖δq‖₂` once per iteration; same layout of [`NODES`] references as a
//!   coherent body's cache (`[x, y, z, r]` and `D` per node).
//! * `body_sphere_coherent/M` — `body_sphere` on a coherent body (`Anchor::OnRequest`,
//!   anchored once before timing): the coherent radius instead of the `O(M)` update, then the
//!   same world transform, inflation and cache write.
//!
//! Targets (DESIGN.md, "Performance model"): `kernel/10` ≤ 5 ns per node, `coherent_kernel`
//! ≤ 1 ns per node.

use bdtree_std::BodyStorage;
use std::hint::black_box;
use std::time::Duration;

use bdtree_benches::Rng;
use bdtree_core::bounds::coherence::{coherent_radius, drift_norm};
use bdtree_core::bounds::sphere::{mode_weights, update};
use bdtree_core::{Anchor, Body, Pose, ReferenceEntry, Scalar};
use bdtree_std::build::{build, BuildOptions, Precision};
use bdtree_std::io::ImageBuf;
use bdtree_std::shapes::procedural::{icosphere, smooth_basis};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

/// Node records per `kernel` / `scalar_reference` iteration.
const NODES: usize = 2048;
/// Mode counts measured.
const MODE_COUNTS: [usize; 4] = [4, 10, 16, 32];
/// Icosphere subdivisions of the `body_sphere` tree (20·4³ = 1280 triangles, 2559 nodes).
const BODY_SUBDIVISIONS: u32 = 3;
/// Largest displacement of one mode in the `body_sphere` tree (unit-radius sphere).
const BODY_AMPLITUDE: f64 = 0.05;

/// Node records as in an image: per node `[c_x, c_y, c_z, R]`, then `[Ū_xj, Ū_yj, Ū_zj, ΔR_j]`
/// per mode. Magnitudes of a unit-sized body: centers in [−1, 1], radii up to 0.5, `Ū` up to
/// 0.05, growths up to 0.02.
fn image_records<S: Scalar>(rng: &mut Rng, nodes: usize, m: usize) -> Vec<[S; 4]> {
    let mut rows = Vec::with_capacity(nodes * (m + 1));
    for _ in 0..nodes {
        rows.push([
            S::from_f64(rng.uniform(-1.0, 1.0)),
            S::from_f64(rng.uniform(-1.0, 1.0)),
            S::from_f64(rng.uniform(-1.0, 1.0)),
            S::from_f64(rng.uniform(0.001, 0.5)),
        ]);
        for _ in 0..m {
            rows.push([
                S::from_f64(rng.uniform(-0.05, 0.05)),
                S::from_f64(rng.uniform(-0.05, 0.05)),
                S::from_f64(rng.uniform(-0.05, 0.05)),
                S::from_f64(rng.uniform(0.0, 0.02)),
            ]);
        }
    }
    rows
}

/// The same records in the naive layout: per node `c_x, c_y, c_z, R`, then the rows `Ū_x`,
/// `Ū_y`, `Ū_z` and `ΔR` of M scalars each (`4 + 4M` scalars per node).
fn naive_records<S: Scalar>(image: &[[S; 4]], m: usize) -> Vec<S> {
    let mut out = Vec::with_capacity(image.len() * 4);
    for record in image.chunks_exact(m + 1) {
        out.extend_from_slice(&record[0]);
        for lane in 0..4 {
            out.extend(record[1..].iter().map(|row| row[lane]));
        }
    }
    out
}

/// The update as a straightforward implementation writes it: four dot products over j with a
/// single accumulator each.
#[inline]
fn naive_update<S: Scalar>(node: &[S], q: &[S], m: usize) -> [S; 4] {
    let (head, rows) = node.split_at(4);
    let (ux, rows) = rows.split_at(m);
    let (uy, rows) = rows.split_at(m);
    let (uz, dr) = rows.split_at(m);
    let mut cx = head[0];
    for (&u, &qj) in ux.iter().zip(q) {
        cx = cx + u * qj;
    }
    let mut cy = head[1];
    for (&u, &qj) in uy.iter().zip(q) {
        cy = cy + u * qj;
    }
    let mut cz = head[2];
    for (&u, &qj) in uz.iter().zip(q) {
        cz = cz + u * qj;
    }
    let mut r = head[3];
    for (&d, &qj) in dr.iter().zip(q) {
        r = r + d * qj.abs();
    }
    [cx, cy, cz, r]
}

fn random_q<S: Scalar>(rng: &mut Rng, m: usize) -> Vec<S> {
    (0..m)
        .map(|_| S::from_f64(rng.uniform(-1.0, 1.0)))
        .collect()
}

fn built_tree(m: usize, precision: Precision) -> ImageBuf {
    let mesh = icosphere(1.0, BODY_SUBDIVISIONS);
    let basis = smooth_basis(&mesh.vertices, m, BODY_AMPLITUDE);
    let options = BuildOptions {
        precision,
        ..Default::default()
    };
    build(&mesh, Some(&basis), options, &mut |_| {})
        .expect("the icosphere tree builds")
        .0
}

fn bench_precision<S: Scalar>(c: &mut Criterion, precision: Precision) {
    let mut group = c.benchmark_group(format!("update_{}", S::NAME));
    let mut rng = Rng::from_state(0x5eed_0001);
    for &m in &MODE_COUNTS {
        let records = image_records::<S>(&mut rng, NODES, m);
        let naive = naive_records(&records, m);
        let q = random_q::<S>(&mut rng, m);
        let mut weights = vec![[S::ZERO; 4]; m];
        mode_weights(&q, &mut weights);
        let mut out = vec![[S::ZERO; 4]; NODES];

        // The two layouts must compute the same thing (same operation order per lane would give
        // identical bits; the kernel's two accumulators reassociate, so compare loosely).
        for (record, node) in records
            .chunks_exact(m + 1)
            .zip(naive.chunks_exact(4 + 4 * m))
        {
            let (a, b) = (update(record, &weights), naive_update(node, &q, m));
            for l in 0..4 {
                let diff = (a[l].to_f64() - b[l].to_f64()).abs();
                assert!(
                    diff <= 1e-5,
                    "kernel and reference disagree: {a:?} vs {b:?}"
                );
            }
        }

        group.throughput(Throughput::Elements(NODES as u64));
        group.bench_with_input(BenchmarkId::new("kernel", m), &m, |b, &m| {
            b.iter(|| {
                let weights = black_box(&weights[..]);
                for (record, o) in black_box(&records).chunks_exact(m + 1).zip(&mut out) {
                    *o = update(record, weights);
                }
                black_box(&mut out);
            });
        });
        group.bench_with_input(BenchmarkId::new("scalar_reference", m), &m, |b, &m| {
            b.iter(|| {
                let q = black_box(&q[..]);
                for (node, o) in black_box(&naive).chunks_exact(4 + 4 * m).zip(&mut out) {
                    *o = naive_update(node, q, m);
                }
                black_box(&mut out);
            });
        });

        // The coherent update: references as a coherent body stores them.
        let references: Vec<([S; 4], S)> = records
            .chunks_exact(m + 1)
            .map(|record| {
                let spread = record[1..].iter().map(|row| row[3]).fold(S::ZERO, S::max);
                (update(record, &weights), spread)
            })
            .collect();
        let q_ref = random_q::<S>(&mut rng, m);
        let q_near: Vec<S> = q_ref.iter().map(|&x| x + S::from_f64(0.01)).collect();
        group.bench_with_input(BenchmarkId::new("coherent_kernel", m), &m, |b, _| {
            b.iter(|| {
                let drift = drift_norm(
                    black_box(&q_near).iter().copied(),
                    black_box(&q_ref).iter().copied(),
                );
                for (&(s, spread), o) in black_box(&references).iter().zip(&mut out) {
                    *o = [s[0], s[1], s[2], coherent_radius(s[3], spread, drift)];
                }
                black_box(&mut out);
            });
        });

        let image_buf = built_tree(m, precision);
        let image = image_buf.parse::<S>().expect("a fresh image parses");
        let nodes = image.tree.node_count();
        let mut cache = BodyStorage::new(nodes);
        let mut body = cache.body(&image).expect("the cache fits");
        let half = std::f64::consts::FRAC_1_SQRT_2;
        let pose = Pose::from_quaternion(
            [half, 0.5, 0.0, 0.5].map(S::from_f64),
            [0.3, -1.2, 2.5].map(S::from_f64),
        )
        .expect("a unit quaternion");
        let q_body = random_q::<S>(&mut rng, m);
        group.throughput(Throughput::Elements(nodes as u64));
        group.bench_with_input(BenchmarkId::new("body_sphere", m), &m, |b, _| {
            b.iter(|| black_box(every_sphere(&mut body, pose, black_box(&q_body), nodes)));
        });

        let mut cache = BodyStorage::new(nodes);
        let mut refs = vec![ReferenceEntry::<S>::default(); nodes];
        let mut reference_modes = vec![S::ZERO; bdtree_core::mode_storage(image.tree.modes())];
        let mut body = cache
            .body(&image)
            .and_then(|b| b.with_coherence(&mut refs, &mut reference_modes, Anchor::OnRequest))
            .expect("the caches fit");
        body.set_state(pose, &q_body).expect("q is finite");
        body.reanchor();
        let anchors = body.anchor_count();
        let q_near: Vec<S> = q_body.iter().map(|&x| x + S::from_f64(0.01)).collect();
        group.bench_with_input(BenchmarkId::new("body_sphere_coherent", m), &m, |b, _| {
            b.iter(|| black_box(every_sphere(&mut body, pose, black_box(&q_near), nodes)));
        });
        assert_eq!(
            body.anchor_count(),
            anchors,
            "OnRequest never re-anchors by itself"
        );
    }
    group.finish();
}

/// Sets `body`'s state and reads the spheres of its `nodes` nodes (the sum of their first coordinates and
/// radii, for `black_box`).
#[inline(always)]
fn every_sphere<S: Scalar>(body: &mut Body<'_, '_, S>, pose: Pose<S>, q: &[S], nodes: usize) -> S {
    body.set_state(pose, q)
        .expect("q is finite and of length M");
    let mut acc = S::ZERO;
    for node in 0..nodes {
        if let Some(s) = body.sphere(node) {
            acc = acc + s[0] + s[3];
        }
    }
    acc
}

fn benches(c: &mut Criterion) {
    bench_precision::<f32>(c, Precision::F32);
    bench_precision::<f64>(c, Precision::F64);
}

fn config() -> Criterion {
    Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
}

criterion_group! {
    name = update_benches;
    config = config();
    targets = benches
}
criterion_main!(update_benches);
