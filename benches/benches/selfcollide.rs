//! Self-collision: the exact traversal, its typed (Type 2/3 units from vertex signatures) and
//! incremental (Lau's self-collision list) forms, and sound culling (normal cones and the
//! contour test), on the `fold` fixture's curtain and on a crumpling sheet.
//!
//! Group `selfcollide`, per scene: `exact` (`collide_self`), `typed` (`collide_self_with` and
//! signatures), `list` (`SelfList::collide` with signatures, reset at the start of each
//! iteration), `culled` (`normal_cones` each frame, signatures, the tree's contours and
//! subspace certificates: Type 1 units proven free are skipped) and `culled_list` (the list with the same aids); one
//! iteration = all frames. Before timing, every frame is compared with the f64 brute force
//! over non-adjacent pairs: no mode may miss a pair (checked), with the test units per frame
//! by type.

use bdtree_benches::self_scene::{self, SelfScene};
use bdtree_std::io;
use bdtree_std::{oracle, BodyStorage};
use std::time::Duration;

use bdtree_core::query::self_collision::{
    collide_self_with, normal_cones, tree_parents, vertex_signatures, SelfAids, SelfCertificates,
    SelfContours, SelfList, UnitCounts,
};
use bdtree_core::{self_stack_capacity, Body, Pose, TrianglePair};
use bdtree_std::build::{build, self_certificates, self_contours, BuildOptions, ContourTable};
use criterion::{BenchmarkId, Criterion};

/// The fold curtain, the crumpling sheet and the gently bent sheet
/// (`bdtree_benches::self_scene`).
fn cases() -> Vec<SelfScene> {
    vec![
        self_scene::curtain(),
        self_scene::sheet(),
        self_scene::bent(),
    ]
}

#[derive(Clone, Copy, PartialEq)]
enum Mode {
    Exact,
    Typed,
    List,
    Culled,
    CulledList,
}

const MODES: [(Mode, &str); 5] = [
    (Mode::Exact, "exact"),
    (Mode::Typed, "typed"),
    (Mode::List, "list"),
    (Mode::Culled, "culled"),
    (Mode::CulledList, "culled_list"),
];

/// What a mode needs besides the body: signatures, cones, contours, the list and a stack.
struct Aids<'s> {
    signatures: Vec<[u32; 2]>,
    cones: Vec<u16>,
    contours: ContourTable,
    certificates: Vec<f32>,
    list: SelfList<'s>,
    stack: Vec<[u32; 2]>,
}

fn run(
    body: &mut Body<'_, '_, f32>,
    frames: &[Vec<f64>],
    mode: Mode,
    aids: &mut Aids<'_>,
    counts: &mut UnitCounts,
    stats: &mut [u64; 4],
) -> Vec<Vec<(u32, u32)>> {
    aids.list.reset();
    let mut out = Vec::new();
    for q in frames {
        let q: Vec<f32> = q.iter().map(|&x| x as f32).collect();
        body.set_state(Pose::identity(), &q).expect("state");
        let mut found = Vec::new();
        let mut sink = |p: TrianglePair| {
            found.push((p.a, p.b));
            true
        };
        let culled = matches!(mode, Mode::Culled | Mode::CulledList);
        let certificates = SelfCertificates {
            weights: if culled { &aids.certificates } else { &[] },
        };
        // A body certified whole needs no cones (and stale ones must not be read).
        let fresh = culled && !certificates.hold(body, 0);
        if fresh {
            normal_cones(body, &mut aids.cones).expect("cones");
        }
        let with = SelfAids {
            signatures: match mode {
                Mode::Exact => &[],
                _ => &aids.signatures,
            },
            cones: if fresh { &aids.cones } else { &[] },
            contours: if culled {
                aids.contours.view()
            } else {
                SelfContours::NONE
            },
            certificates,
            normals: Default::default(),
            spheres: Default::default(),
        };
        let outcome = if matches!(mode, Mode::List | Mode::CulledList) {
            aids.list
                .collide(body, with, &mut aids.stack, &mut sink, counts)
        } else {
            collide_self_with(body, with, counts, &mut aids.stack, &mut sink)
        };
        assert!(outcome.status.is_complete());
        let o = outcome.stats;
        for (total, x) in stats.iter_mut().zip([
            o.sphere_updates,
            o.overlap_tests,
            o.triangle_tests,
            o.nodes_visited,
        ]) {
            *total += u64::from(x);
        }
        assert!(!aids.list.overflowed(), "list storage too small");
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
        let mut cache = BodyStorage::new(n);
        let mut body = cache.body(&image).expect("body");
        let mut signatures = vec![[0u32; 2]; n];
        vertex_signatures(&body, &mut signatures).expect("signatures");
        let mut parents = vec![0u32; n];
        tree_parents(&image.tree, &mut parents).expect("parents");
        let capacity = 512 * case.mesh.triangles.len();
        let (mut units, mut spare) = (vec![[0u32; 2]; capacity], vec![[0u32; 2]; capacity]);
        let contours = self_contours(&image.tree, image.model.triangles());
        let mut aids = Aids {
            signatures,
            cones: vec![0u16; n],
            certificates: self_certificates(&image.tree, &image.model, &contours),
            contours,
            list: SelfList::new(&parents, &mut units, &mut spare),
            stack: vec![[0u32; 2]; self_stack_capacity(image.tree.depth())],
        };
        let truth: Vec<Vec<(u32, u32)>> = case
            .frames
            .iter()
            .map(|q| {
                let world = oracle::deform(
                    &case.mesh.vertices,
                    Some(&case.basis),
                    q,
                    &io::Pose::IDENTITY,
                );
                oracle::brute_force_self_pairs(&world, &case.mesh.triangles)
            })
            .collect();
        let total: usize = truth.iter().map(Vec::len).sum();
        println!(
            "selfcollide: {} ({} triangles, {} frames): {} true self-contacts",
            case.name,
            case.mesh.triangles.len(),
            case.frames.len(),
            total
        );
        for (mode, name) in MODES {
            let (mut counts, mut stats) = (UnitCounts::default(), [0u64; 4]);
            let found = run(
                &mut body,
                &case.frames,
                mode,
                &mut aids,
                &mut counts,
                &mut stats,
            );
            let mut missed = 0usize;
            for (k, t) in truth.iter().enumerate() {
                let lost = t.iter().filter(|p| found[k].binary_search(p).is_err());
                if let Some(p) = lost.clone().next() {
                    panic!("{name} self-collision missed {p:?} in frame {k}");
                }
                missed += lost.count();
            }
            let per = |x: u64| x as f64 / case.frames.len() as f64;
            println!(
                "  {name}: per frame: units type 1 {:.0}, type 2 {:.0}, type 3 {:.0}, culled {:.0}; sphere updates {:.0}, overlap tests {:.0}, triangle tests {:.0}; missed {missed} ({:.1} %)",
                per(counts.type1.into()),
                per(counts.type2.into()),
                per(counts.type3.into()),
                per(counts.culled.into()),
                per(stats[0]),
                per(stats[1]),
                per(stats[2]),
                100.0 * missed as f64 / total.max(1) as f64
            );
            if matches!(mode, Mode::List | Mode::CulledList) {
                println!("  list: {} units after the last frame", aids.list.len());
            }
            group.bench_function(BenchmarkId::new(name, case.name), |b| {
                b.iter(|| {
                    let (mut counts, mut stats) = (UnitCounts::default(), [0u64; 4]);
                    run(
                        &mut body,
                        &case.frames,
                        mode,
                        &mut aids,
                        &mut counts,
                        &mut stats,
                    )
                })
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
