//! Self-collision: the exact traversal against Lau et al.'s normal-cone culling (opt-in, may
//! miss), on the `fold` fixture's curtain and on crumpled sheets.
//!
//! Group `selfcollide`, per scene: `exact` (`collide_self`) and `normal_culled`
//! (`normal_cones` + `collide_self_normal_culled`), one iteration = all frames. Before timing,
//! every frame is compared with the f64 brute force over non-adjacent pairs: the exact
//! traversal must miss nothing (checked), the culled one's misses are counted and printed.

use std::path::Path;
use std::time::Duration;

use bdtree_core::selfcollide::{collide_self_normal_culled, normal_cones};
use bdtree_core::{collide_self, self_stack_capacity, Body, CacheEntry, Pose, TrianglePair};
use bdtree_std::basis::Basis;
use bdtree_std::builder::{build, BuildOptions};
use bdtree_std::mesh::Mesh;
use bdtree_std::oracle;
use bdtree_std::procedural::{sheet, smooth_basis};
use bdtree_std::scene::Scene;
use criterion::{BenchmarkId, Criterion};

const CAP: usize = 16;

struct Case {
    name: &'static str,
    mesh: Mesh,
    basis: Basis,
    frames: Vec<Vec<f64>>,
}

fn cases() -> Vec<Case> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/scenes/fold.json");
    let scene = Scene::load(&path).expect("fold scene");
    let curtain = &scene.bodies[0];
    let fold = Case {
        name: "fold_curtain",
        mesh: curtain.mesh.clone(),
        basis: curtain.basis.clone().expect("basis"),
        frames: scene.frames.iter().map(|f| f[0].1.clone()).collect(),
    };
    let mesh = sheet(1.0, 1.0, 32, 32);
    let basis = smooth_basis(&mesh.vertices, 8, 0.6);
    let crumpled = Case {
        name: "crumpled_sheet",
        mesh,
        basis,
        frames: (0..8)
            .map(|k| (0..8).map(|j| ((k * 3 + j) as f64 * 0.9).sin()).collect())
            .collect(),
    };
    vec![fold, crumpled]
}

fn run(
    body: &mut Body<'_, '_, f32, CAP>,
    frames: &[Vec<f64>],
    cull: bool,
    cones: &mut [u16],
    stack: &mut [[u32; 2]],
) -> Vec<Vec<(u32, u32)>> {
    let mut out = Vec::new();
    for q in frames {
        let q: Vec<f32> = q.iter().map(|&x| x as f32).collect();
        body.set_state(Pose::identity(), &q).expect("state");
        let mut found = Vec::new();
        let mut sink = |p: TrianglePair| {
            found.push((p.a, p.b));
            true
        };
        let outcome = if cull {
            normal_cones(body, cones).expect("cones");
            collide_self_normal_culled(body, cones, stack, &mut sink)
        } else {
            collide_self(body, stack, &mut sink)
        };
        assert!(outcome.status.is_complete());
        found.sort_unstable();
        out.push(found);
    }
    out
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("selfcollide");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(2));
    for case in cases() {
        let buf = build(
            &case.mesh,
            Some(&case.basis),
            BuildOptions::default(),
            &mut |_| {},
        )
        .expect("build")
        .0;
        let image = buf.parse::<f32>().expect("image");
        let n = image.tree.node_count();
        let mut cache = vec![CacheEntry::default(); n];
        let mut body = Body::<f32, CAP>::new(&image, &mut cache).expect("body");
        let mut cones = vec![0u16; n];
        let mut stack = vec![[0u32; 2]; self_stack_capacity(image.tree.depth())];
        let exact = run(&mut body, &case.frames, false, &mut cones, &mut stack);
        let culled = run(&mut body, &case.frames, true, &mut cones, &mut stack);
        let (mut truth_total, mut missed) = (0usize, 0usize);
        for (k, q) in case.frames.iter().enumerate() {
            let world = oracle::deform(
                &case.mesh.vertices,
                Some(&case.basis),
                q,
                &oracle::Pose::IDENTITY,
            );
            let truth = oracle::brute_force_self_pairs(&world, &case.mesh.triangles);
            for t in &truth {
                assert!(
                    exact[k].binary_search(t).is_ok(),
                    "exact self-collision missed {t:?}"
                );
            }
            truth_total += truth.len();
            missed += truth
                .iter()
                .filter(|t| culled[k].binary_search(t).is_err())
                .count();
        }
        println!(
            "selfcollide: {} ({} triangles, {} frames): {} true self-contacts; normal culling missed {} ({:.1} %)",
            case.name,
            case.mesh.triangles.len(),
            case.frames.len(),
            truth_total,
            missed,
            100.0 * missed as f64 / truth_total.max(1) as f64
        );
        group.bench_function(BenchmarkId::new("exact", case.name), |b| {
            b.iter(|| run(&mut body, &case.frames, false, &mut cones, &mut stack))
        });
        group.bench_function(BenchmarkId::new("normal_culled", case.name), |b| {
            b.iter(|| run(&mut body, &case.frames, true, &mut cones, &mut stack))
        });
    }
    group.finish();
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    bench(&mut c);
    c.final_summary();
}
