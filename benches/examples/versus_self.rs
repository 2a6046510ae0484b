//! bdtree's self-collision frame against parry3d's, on the same frames, in one binary: the
//! measuring tool for self-collision at refit-free cost.
//!
//! Each side runs in a function of its own that is never inlined:
//!
//! * `bdtree_self_frame`: `set_state` and `collide_self_lazy` (vertex signatures, the tree's
//!   contours and its certificates made once beforehand; cones and spheres made where the walk
//!   goes: what the host layer runs) on the f32 body with a vertex cache, the pairs it reports
//!   before `refine`; `VERSUS_LAZY=off` runs `normal_cones` (skipped when the root's subspace
//!   certificate holds) and `collide_self_with` instead (every cone and sphere made before the
//!   walk), `VERSUS_BDTREE=exact` `set_state` and plain `collide_self`,
//!   `VERSUS_CERTIFICATES=off` leaves the certificates out;
//! * `parry_query_frame`: parry3d's query phase alone, on the frame's mesh deformed and refitted
//!   beforehand: `Bvh::traverse_bvtt_single_tree` (the BVH against itself), triangle pairs that
//!   share a vertex skipped, the exact triangle test on every other candidate
//!   (`bdtree_benches::self_refit`);
//! * `parry_pipeline_frame`: parry's whole frame, every vertex deformed (`p + U q`), the BVH
//!   refitted (`TriMesh::update_vertices`), then the same query.
//!
//! ```text
//! cargo build --release -p bdtree-benches --example versus_self
//! target/release/examples/versus_self count     # instructions per frame, three sides (callgrind)
//! target/release/examples/versus_self time      # interleaved per-frame timing, medians
//! target/release/examples/versus_self check     # answers against the f64 brute force
//! VERSUS_SCENE=ribbon target/release/examples/versus_self count
//! ```
//!
//! * `count` runs this binary three times under `valgrind --tool=callgrind`, once per side, with
//!   `--toggle-collect` on that side's frame function, over every frame once (the setup is not
//!   counted), and prints instructions per frame with the ratios bdtree / parry query and parry
//!   pipeline / bdtree. The callgrind files stay in `target/versus/` for
//!   `callgrind_annotate --inclusive=yes`.
//! * `time` runs the three sides frame by frame, the order reversed every other frame and round,
//!   over `VERSUS_ROUNDS` rounds (default: as many as fit in about 60 s, at least 3) in each of
//!   `VERSUS_RUNS` runs (default 3); per run it prints each side's median frame time and the
//!   medians over frames of the per-frame ratios, then the median of the runs' ratios.
//! * `scene DIR` writes the scene as files `bdtree collide DIR/NAME.json --self` reads.
//! * `check` compares every side's pairs with `oracle::brute_force_self_pairs` (the exact f64
//!   answer over non-adjacent triangle pairs, a sort-and-sweep with `triangles_intersect` on
//!   every pair whose boxes touch, about 2.5 s a frame on the ribbon): bdtree's after the exact
//!   second stage (`refine_self`) must miss nothing; extra pairs are counted on every side, and
//!   for bdtree's the largest f64 distance between an extra pair's triangles is printed beside
//!   `refine_error`'s bound.
//!
//! `VERSUS_SCENE` picks the scene (`bdtree_benches::self_scene`): `sheet` (default; the
//! selfcollide bench's crumpling sheet, 2,048 triangles, 24 frames), `sheet2` (a crumpling
//! sheet made the same way with other phases, 1,922 triangles, 24 frames), `curtain` (the `fold`
//! fixture's curtain, 320 triangles, 8 frames), `bent` (1,922 triangles bending gently, no contact,
//! 24 frames) or `ribbon` (51,200 triangles folding onto
//! themselves, 20 frames). Images are cached in `target/walk-profile/`.

use std::hint::black_box;
use std::time::Instant;

use bdtree_benches::measure::{
    alternated, cache_dir, cached_image, callgrind, callgrind_inclusive, env_usize,
    interleaved_medians, median, median_ratio,
};
use bdtree_benches::self_refit::{ParrySelf, SelfSearch};
use bdtree_benches::self_scene::{by_name, SelfScene};
use bdtree_core::query::self_collision::{
    collide_self_lazy, collide_self_with, normal_cones, vertex_signatures, ConeSlot, SelfAids,
    SelfCertificates, SelfCones, UnitCounts,
};
use bdtree_core::{
    collide_self, refine_error, refine_self, self_stack_capacity, Body, BoxEntry, NodeKind, Pose,
    QueryOutcome, TrianglePair, VertexEntry,
};
use bdtree_std::build::{
    self_certificates, self_contours, self_normals, self_spheres, ContourTable, NodeRows,
    Precision, NORMAL_MIN_TRIANGLES, SPHERE_MIN_TRIANGLES,
};
use bdtree_std::io::Pose as OraclePose;
use bdtree_std::oracle::{brute_force_self_pairs, deform, triangle_distance};
use bdtree_std::BodyStorage;

/// The sides, in the order `time` runs them on even frames (reversed on odd ones).
const SIDES: [&str; 3] = ["bdtree_self", "parry_query", "parry_pipeline"];

/// bdtree's side: the body (vertex cache on), the stack, the pairs, the frames in f32, and the
/// culling aids the host layer gives every self query (signatures and contours made once per
/// tree, normal cones each frame); `VERSUS_BDTREE=exact` runs plain `collide_self` instead.
struct Bdtree<'t, 'c> {
    body: Body<'t, 'c, f32>,
    stack: Vec<[u32; 2]>,
    pairs: Vec<TrianglePair>,
    frames: Vec<Vec<f32>>,
    culled: bool,
    signatures: Vec<[u32; 2]>,
    contours: ContourTable,
    certificates: Vec<f32>,
    /// Per-node normal bounds and affine spheres (`VERSUS_NORMALS=off`: none), read by the
    /// lazy query only.
    normals: NodeRows,
    spheres: NodeRows,
    cones: Vec<u16>,
    /// The cones made as the walk goes (`collide_self_lazy`, what the host layer runs);
    /// `None` with `VERSUS_LAZY=off`: `normal_cones` and `collide_self_with`, every sphere
    /// refitted before the walk.
    lazy: Option<SelfCones<'c>>,
    /// The test units of every culled frame so far, by type.
    units: UnitCounts,
}

/// One bdtree frame: the state set, then the self query (with the cones of the frame when
/// culling).
#[inline(never)]
fn bdtree_self_frame(side: &mut Bdtree<'_, '_>, k: usize) -> QueryOutcome {
    side.body
        .set_state(Pose::identity(), &side.frames[k])
        .expect("a valid state");
    side.pairs.clear();
    let pairs = &mut side.pairs;
    let mut sink = |p: TrianglePair| {
        pairs.push(p);
        true
    };
    if !side.culled {
        return collide_self(&mut side.body, &mut side.stack, &mut sink);
    }
    let certificates = SelfCertificates {
        weights: &side.certificates,
    };
    if let Some(cones) = side.lazy.as_mut() {
        let aids = SelfAids {
            signatures: &side.signatures,
            cones: &[],
            contours: side.contours.view(),
            certificates,
            normals: side.normals.normals(),
            spheres: side.spheres.spheres(),
        };
        return collide_self_lazy(
            &mut side.body,
            aids,
            cones,
            &mut side.units,
            &mut side.stack,
            &mut sink,
        );
    }
    // A body certified whole needs no cones (and stale ones must not be read).
    let fresh = !certificates.hold(&side.body, 0);
    if fresh {
        normal_cones(&mut side.body, &mut side.cones).expect("cones");
    }
    let aids = SelfAids {
        signatures: &side.signatures,
        cones: if fresh { &side.cones } else { &[] },
        contours: side.contours.view(),
        certificates,
        normals: Default::default(),
        spheres: Default::default(),
    };
    collide_self_with(
        &mut side.body,
        aids,
        &mut side.units,
        &mut side.stack,
        &mut sink,
    )
}

/// One parry frame, query phase alone: the self search on the frame's refitted mesh.
#[inline(never)]
fn parry_query_frame(parry: &mut ParrySelf, k: usize) -> SelfSearch {
    parry.query_only(k)
}

/// One parry frame, whole pipeline: deform, refit, then the self search.
#[inline(never)]
fn parry_pipeline_frame(parry: &mut ParrySelf, k: usize) -> SelfSearch {
    parry.refit_pipeline(k)
}

/// Runs `f` with bdtree's side set up on the scene.
fn with_bdtree<R>(scene: &SelfScene, f: impl FnOnce(&mut Bdtree<'_, '_>) -> R) -> R {
    let image = cached_image(scene.name, &scene.mesh, &scene.basis, Precision::F32);
    let view = image.parse::<f32>().expect("parses");
    let mut cache = BodyStorage::new(view.tree.node_count());
    let mut slots = vec![ConeSlot::EMPTY; view.tree.node_count()];
    let mut vertices = vec![VertexEntry::<f32>::default(); scene.mesh.vertices.len()];
    let mut boxes = vec![BoxEntry::<f32>::default(); view.tree.node_count()];
    let n = view.tree.node_count();
    let body = cache
        .body(&view)
        .and_then(|b| b.with_vertex_cache(&mut vertices))
        .and_then(|b| {
            if std::env::var("VERSUS_BOXES").as_deref() == Ok("off") {
                Ok(b)
            } else {
                b.with_box_cache(&mut boxes)
            }
        })
        .expect("caches fit");
    let mut signatures = vec![[0u32; 2]; n];
    vertex_signatures(&body, &mut signatures).expect("signatures");
    let contours = self_contours(&view.tree, view.model.triangles());
    let mut side = Bdtree {
        body,
        culled: std::env::var("VERSUS_BDTREE").as_deref() != Ok("exact"),
        signatures,
        certificates: if std::env::var("VERSUS_CERTIFICATES").as_deref() == Ok("off") {
            Vec::new()
        } else {
            self_certificates(&view.tree, &view.model, &contours)
        },
        normals: if std::env::var("VERSUS_NORMALS").as_deref() == Ok("off") {
            NodeRows::default()
        } else {
            self_normals(&view.tree, &view.model, NORMAL_MIN_TRIANGLES)
        },
        spheres: if std::env::var("VERSUS_NORMALS").as_deref() == Ok("off") {
            NodeRows::default()
        } else {
            let min = std::env::var("VERSUS_SPHERES_MIN")
                .ok()
                .and_then(|v| v.parse().ok())
                .unwrap_or(SPHERE_MIN_TRIANGLES);
            self_spheres(&view.tree, &view.model, min)
        },
        contours,
        cones: vec![0u16; n],
        lazy: (std::env::var("VERSUS_LAZY").as_deref() != Ok("off"))
            .then(|| SelfCones::new(&mut slots)),
        units: UnitCounts::default(),
        stack: vec![[0u32; 2]; self_stack_capacity(view.tree.depth())],
        pairs: Vec::with_capacity(4096),
        frames: scene
            .frames
            .iter()
            .map(|q| q.iter().map(|&x| x as f32).collect())
            .collect(),
    };
    f(&mut side)
}

/// `count`: this binary under callgrind once per side; instructions per frame.
fn count(scene: &SelfScene) {
    let out = cache_dir().join("../versus");
    std::fs::create_dir_all(&out).expect("target/versus is writable");
    let files = SIDES.map(|side| out.join(format!("{}-{side}.callgrind", scene.name)));
    let mut totals = [0u64; 3];
    for ((total, file), side) in totals.iter_mut().zip(&files).zip(SIDES) {
        *total = callgrind(file, &format!("versus_self::{side}_frame*"), &["run", side]);
    }
    // The exact triangle test's share of parry's query (`oracle::triangles_intersect`, whose
    // exact predicates fall back to expansion arithmetic on coplanar and touching pairs).
    let exact = callgrind_inclusive(&files[1], "triangles_intersect");
    // The work counters, outside callgrind.
    let n = scene.frames.len();
    let bdtree = with_bdtree(scene, |side| {
        let mut total = [0u64; 4];
        for k in 0..n {
            let s = bdtree_self_frame(side, k).stats;
            let counts = [
                s.nodes_visited,
                s.sphere_updates,
                s.triangle_tests,
                side.pairs.len() as u32,
            ];
            for (t, c) in total.iter_mut().zip(counts) {
                *t += u64::from(c);
            }
        }
        (total, side.units)
    });
    let (bdtree, units) = bdtree;
    let mut parry = ParrySelf::new(&scene.mesh, &scene.basis, &scene.frames);
    let mut work = [0usize; 3];
    for k in 0..n {
        let done = parry.query_only(k);
        for (t, c) in work
            .iter_mut()
            .zip([done.candidates, done.tests, parry.pairs.len()])
        {
            *t += c;
        }
    }
    let per = |x: f64| x / n as f64;
    let [b, q, p] = totals.map(|t| per(t as f64));
    let e = per(exact as f64);
    println!(
        "scene {} ({} triangles, {n} frames), per frame:",
        scene.name,
        scene.mesh.triangles.len()
    );
    println!(
        "  bdtree self     {b:>12.0} instructions  ({:.0} node pairs, {:.0} sphere updates, \
         {:.0} triangle tests, {:.1} pairs reported)",
        per(bdtree[0] as f64),
        per(bdtree[1] as f64),
        per(bdtree[2] as f64),
        per(bdtree[3] as f64),
    );
    println!(
        "    units: {:.0} type 1 ({:.0} culled, {:.0} of them by certificates), {:.0} type 2, {:.0} type 3",
        per(f64::from(units.type1)),
        per(f64::from(units.culled)),
        per(f64::from(units.certified)),
        per(f64::from(units.type2)),
        per(f64::from(units.type3)),
    );
    println!(
        "  parry query     {q:>12.0} instructions  ({:.0} leaf pairs, {:.0} exact tests, {:.1} \
         pairs)",
        per(work[0] as f64),
        per(work[1] as f64),
        per(work[2] as f64),
    );
    println!(
        "    of which the exact test {e:>8.0} ({:.0} per test), the traversal and the rest {:.0}",
        e / per(work[1] as f64),
        q - e
    );
    println!(
        "  parry pipeline  {p:>12.0} instructions  (deform and refit: pipeline - query = {:.0})",
        p - q
    );
    println!("  ratio bdtree / parry query    = {:.3} (goal <= 1)", b / q);
    println!(
        "  ratio parry pipeline / bdtree = {:.3} (goal >= 10)",
        p / b
    );
    println!("  callgrind files: {}", out.display());
}

/// `run SIDE`: one pass over the frames on one side (what `count` measures).
fn run(side: &str, scene: &SelfScene) {
    let n = scene.frames.len();
    if side == SIDES[0] {
        with_bdtree(scene, |side| {
            for k in 0..n {
                let outcome = bdtree_self_frame(side, k);
                assert!(outcome.status.is_complete(), "{outcome:?}");
            }
        });
        return;
    }
    let mut parry = ParrySelf::new(&scene.mesh, &scene.basis, &scene.frames);
    for k in 0..n {
        if side == SIDES[1] {
            black_box(parry_query_frame(&mut parry, k));
        } else {
            black_box(parry_pipeline_frame(&mut parry, k));
        }
    }
}

/// One frame on side `s` (an index into [`SIDES`]).
fn run_side(s: usize, side: &mut Bdtree<'_, '_>, parry: &mut ParrySelf, k: usize) {
    match s {
        0 => {
            black_box(bdtree_self_frame(side, k));
        }
        1 => {
            black_box(parry_query_frame(parry, k));
        }
        _ => {
            black_box(parry_pipeline_frame(parry, k));
        }
    }
}

/// Seconds of one frame on side `s` (an index into [`SIDES`]).
fn timed(s: usize, side: &mut Bdtree<'_, '_>, parry: &mut ParrySelf, k: usize) -> f64 {
    let start = Instant::now();
    run_side(s, side, parry, k);
    start.elapsed().as_secs_f64()
}

/// `time`: the three sides interleaved frame by frame.
fn time(scene: &SelfScene) {
    let runs = env_usize("VERSUS_RUNS", 3);
    let mut parry = ParrySelf::new(&scene.mesh, &scene.basis, &scene.frames);
    with_bdtree(scene, |side| {
        let n = scene.frames.len();
        // One warm-up pass, which also sizes the default round count.
        let pass: f64 = (0..n)
            .map(|k| (0..3).map(|s| timed(s, side, &mut parry, k)).sum::<f64>())
            .sum();
        let rounds = env_usize("VERSUS_ROUNDS", ((60.0 / pass) as usize).max(3));
        println!(
            "scene {}: {n} frames, {rounds} rounds per run, sides alternated frame by frame \
             (order reversed every other frame and round)",
            scene.name
        );
        let mut run_ratios = [Vec::new(), Vec::new()];
        for run in 0..runs {
            let m: [Vec<f64>; 3] = interleaved_medians(rounds, n, alternated, |s, k| {
                run_side(s, side, &mut parry, k)
            });
            let ratio = |x: usize, y: usize| median_ratio(&m[x], &m[y]);
            let (bq, pb) = (ratio(0, 1), ratio(2, 0));
            let mid = |s: usize| median(&mut m[s].clone()) * 1e6;
            println!(
                "run {run}: per-frame medians bdtree self {:.1} µs, parry query {:.1} µs, parry \
                 pipeline {:.1} µs; medians over frames of the ratios bdtree / query {bq:.3}, \
                 pipeline / bdtree {pb:.3}",
                mid(0),
                mid(1),
                mid(2)
            );
            run_ratios[0].push(bq);
            run_ratios[1].push(pb);
        }
        let [bq, pb] = run_ratios.map(|mut r| median(&mut r));
        println!(
            "median of {runs} runs: bdtree / parry query {bq:.3} (goal <= 1), parry pipeline / \
             bdtree {pb:.3} (goal >= 10)"
        );
    });
}

/// The pairs `found` has that `truth` (sorted) lacks, and how many pairs of `truth` `found`
/// (sorted) lacks.
fn differences(found: &[(u32, u32)], truth: &[(u32, u32)]) -> (Vec<(u32, u32)>, usize) {
    let extra = found
        .iter()
        .filter(|p| truth.binary_search(p).is_err())
        .copied()
        .collect();
    let missed = truth
        .iter()
        .filter(|p| found.binary_search(p).is_err())
        .count();
    (extra, missed)
}

/// `check`: every side's pairs against the brute force.
fn check(scene: &SelfScene) {
    let mut parry = ParrySelf::new(&scene.mesh, &scene.basis, &scene.frames);
    with_bdtree(scene, |side| {
        let mut totals = [0usize; 5];
        let (mut farthest, mut bound) = (0.0f64, 0.0f64);
        for (k, q) in scene.frames.iter().enumerate() {
            let world = deform(
                &scene.mesh.vertices,
                Some(&scene.basis),
                q,
                &OraclePose::IDENTITY,
            );
            let truth = brute_force_self_pairs(&world, &scene.mesh.triangles);
            let outcome = bdtree_self_frame(side, k);
            assert!(outcome.status.is_complete(), "{outcome:?}");
            let reported = side.pairs.len();
            let kept = refine_self(&side.body, &mut side.pairs);
            let mut ours: Vec<(u32, u32)> = side.pairs[..kept]
                .iter()
                .map(|p| (p.a.min(p.b), p.a.max(p.b)))
                .collect();
            ours.sort_unstable();
            let (extra, missed) = differences(&ours, &truth);
            // How far apart bdtree's extra pairs are, against the bound `refine` keeps within.
            let corners = |t: u32| scene.mesh.triangles[t as usize].map(|v| world[v as usize]);
            for &(a, b) in &extra {
                farthest = farthest.max(triangle_distance(&corners(a), &corners(b)).0);
            }
            bound = bound.max(refine_error(&side.body));
            let extra = extra.len();
            parry_query_frame(&mut parry, k);
            let mut theirs = parry.pairs.clone();
            theirs.sort_unstable();
            let (parry_extra, parry_missed) = differences(&theirs, &truth);
            let parry_extra = parry_extra.len();
            parry_pipeline_frame(&mut parry, k);
            let mut pipeline = parry.pairs.clone();
            pipeline.sort_unstable();
            assert_eq!(
                pipeline, theirs,
                "parry's pipeline and query differ on frame {k}"
            );
            println!(
                "frame {k}: brute force {} pairs; bdtree {reported} reported, {kept} after \
                 refine ({extra} extra, {missed} missed); parry {} ({parry_extra} extra, \
                 {parry_missed} missed)",
                truth.len(),
                theirs.len()
            );
            assert_eq!(missed, 0, "bdtree missed a pair on frame {k}");
            for (t, x) in
                totals
                    .iter_mut()
                    .zip([truth.len(), extra, missed, parry_extra, parry_missed])
            {
                *t += x;
            }
        }
        println!(
            "scene {}: {} true pairs over {} frames; bdtree {} extra (at most {farthest:.2e} \
             apart; refine's per-coordinate bound at most {bound:.2e}), {} missed; parry {} extra, {} \
             missed",
            scene.name,
            totals[0],
            scene.frames.len(),
            totals[1],
            totals[2],
            totals[3],
            totals[4]
        );
    });
}

/// `units`: per frame, the Type 1 units the culled walk expands (node against itself, not
/// proven free) by why: no normal cone, no loop for the node, or a loop whose projection
/// the contour test could not prove simple.
/// `stats`: bdtree's work counters frame by frame (node pairs, sphere updates, triangle
/// tests, pairs found).
fn stats(scene: &SelfScene) {
    with_bdtree(scene, |side| {
        for k in 0..scene.frames.len() {
            let s = bdtree_self_frame(side, k).stats;
            println!(
                "frame {k:2}: {} node pairs, {} sphere updates, {} triangle tests, {} pairs",
                s.nodes_visited,
                s.sphere_updates,
                s.triangle_tests,
                side.pairs.len()
            );
        }
    });
}

fn units(scene: &SelfScene) {
    with_bdtree(scene, |side| {
        let tree = *side.body.tree();
        let mut why = [0usize; 4];
        for k in 0..scene.frames.len() {
            bdtree_self_frame(side, k);
            let mut open = vec![0usize];
            while let Some(node) = open.pop() {
                let Some(NodeKind::Internal { left, right }) = tree.kind(node) else {
                    continue;
                };
                let cone = side.cones[node];
                let size = side.contours.starts[node + 1] - side.contours.starts[node];
                let reason = if cone == 0 {
                    0
                } else if size == 0 {
                    1
                } else {
                    2
                };
                // A node with a cone and a loop may have been culled: only the walk knows,
                // so count it and stop (an upper bound on the contour test's refusals).
                why[reason] += 1;
                if reason == 2 {
                    why[3] += size as usize;
                    continue;
                }
                open.extend([left as usize, right as usize]);
            }
        }
        let n = scene.frames.len() as f64;
        println!(
            "per frame, internal Type 1 units reached: no cone {:.1}, cone but no loop {:.1}, \
             cone and loop {:.1} (mean loop {:.1} vertices)",
            why[0] as f64 / n,
            why[1] as f64 / n,
            why[2] as f64 / n,
            why[3] as f64 / why[2].max(1) as f64
        );
    });
}

/// `scene DIR`: the scene written as files the command-line tool reads (`DIR/NAME.obj`,
/// `DIR/NAME.npy`, `DIR/NAME.json`, the body at rest pose in every frame), for `bdtree collide
/// DIR/NAME.json --self`.
fn write_scene(scene: &SelfScene, dir: &std::path::Path) {
    use bdtree_std::io::{npy::write_npy, obj::write_obj};
    std::fs::create_dir_all(dir).expect("the scene folder is writable");
    let name = scene.name;
    let mut obj = std::fs::File::create(dir.join(format!("{name}.obj"))).expect("obj");
    write_obj(&scene.mesh, &mut obj).expect("obj written");
    let mut npy = std::fs::File::create(dir.join(format!("{name}.npy"))).expect("npy");
    write_npy(&scene.basis, &mut npy).expect("npy written");
    let number = |x: f64| format!("{x:?}");
    let frames: Vec<String> = scene
        .frames
        .iter()
        .map(|q| {
            let q: Vec<String> = q.iter().map(|&x| number(x)).collect();
            format!(
                "{{\"bodies\": [{{\"rotation\": [1.0, 0.0, 0.0, 0.0], \"translation\": [0.0, 0.0, \
                 0.0], \"q\": [{}]}}]}}",
                q.join(", ")
            )
        })
        .collect();
    let text = format!(
        "{{\"bodies\": [{{\"name\": \"{name}\", \"mesh\": \"{name}.obj\", \"modes\": \
         \"{name}.npy\"}}],\n\"frames\": [\n{}\n]}}\n",
        frames.join(",\n")
    );
    let path = dir.join(format!("{name}.json"));
    std::fs::write(&path, text).expect("scene written");
    println!("wrote {}", path.display());
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let name = std::env::var("VERSUS_SCENE").unwrap_or_else(|_| "sheet".into());
    let scene = by_name(&name).unwrap_or_else(|| {
        panic!("VERSUS_SCENE={name}: expected sheet, sheet2, bent, curtain or ribbon")
    });
    match args.first().map(String::as_str) {
        Some("run") => run(args.get(1).map_or(SIDES[0], String::as_str), &scene),
        Some("time") => time(&scene),
        Some("check") => check(&scene),
        Some("units") => units(&scene),
        Some("stats") => stats(&scene),
        Some("scene") => write_scene(
            &scene,
            std::path::Path::new(args.get(1).map_or(".", String::as_str)),
        ),
        _ => count(&scene),
    }
}
