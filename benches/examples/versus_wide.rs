//! Issue 52's prototype measured: the kernel's binary pair walk (`collide`), the 4-wide walk of
//! `bdtree_benches::wide` and parry's query phase, on the same frames, in one binary.
//!
//! Each side runs in a function of its own that is never inlined: `binary_frame` (both
//! `set_state` calls and `collide`, vertex caches on: `versus`'s `bdtree_frame`), `wide_frame`
//! (both `set_state` calls and `collide_wide` on the same bodies' states, with the wide walk's
//! own sphere and vertex caches: the same spheres, the same leaf step, only the walk and its
//! node layout differ) and `parry_frame` (`versus`'s).
//!
//! ```text
//! cargo build --release -p bdtree-benches --example versus_wide
//! target/release/examples/versus_wide count   # instructions per frame, three sides (callgrind)
//! target/release/examples/versus_wide time    # interleaved per-frame timing, medians
//! target/release/examples/versus_wide check   # wide = binary pairs, and the brute force
//! ```
//!
//! `VERSUS_SCENE=fem` runs the FEM scene; images and bases are cached in
//! `target/walk-profile/` (shared with `versus`).

use std::hint::black_box;

use bdtree_benches::measure::{
    cache_dir, callgrind, interleaved_medians, median, median_ratio, rotated,
};
use bdtree_benches::query_scene::Frame;
use bdtree_benches::refit::ParryScene;
use bdtree_benches::versus::{
    self, count_line, lacking, parry_node_pairs, parry_scene, refined_pairs, rounds_and_runs,
    run_complete, truth, with_binary, Binary, Meshes,
};
use bdtree_benches::wide::{
    collide_wide, wide_stack_capacity, Entry, WideCache, WideSide, WideStats, WideTree,
};
use bdtree_core::{QueryOutcome, QueryStats, TrianglePair};

/// Both walks' state: the binary walk's bodies (vertex caches on), stack and pairs, and the
/// wide walk's trees, caches, stack and pairs.
struct Sides<'s, 't, 'c> {
    binary: &'s mut Binary<'t, 'c>,
    wide_big: WideTree,
    wide_small: WideTree,
    cache_big: WideCache,
    cache_small: WideCache,
    wide_stack: Vec<Entry>,
    wide_pairs: Vec<TrianglePair>,
}

/// One binary frame: both states set, then the kernel's query.
#[inline(never)]
fn binary_frame(side: &mut Sides<'_, '_, '_>, k: usize) -> QueryOutcome {
    side.binary.frame(k)
}

/// One wide frame: both states set, then the wide walk.
#[inline(never)]
fn wide_frame(side: &mut Sides<'_, '_, '_>, k: usize) -> WideStats {
    side.binary.set_states(k);
    side.wide_pairs.clear();
    let mut stats = WideStats::default();
    let mut a = WideSide::new(&side.binary.big, &side.wide_big, &mut side.cache_big);
    let mut b = WideSide::new(&side.binary.small, &side.wide_small, &mut side.cache_small);
    collide_wide(
        &mut a,
        &mut b,
        &mut side.wide_stack,
        &mut side.wide_pairs,
        &mut stats,
    )
    .expect("the wide walk completes");
    stats
}

/// One parry frame: the query phase on the frame's refitted meshes.
#[inline(never)]
fn parry_frame(parry: &mut ParryScene, k: usize) -> usize {
    parry.query_only(k)
}

/// Runs `f` with both walks set up on the scene.
fn with_sides<R>(
    scene_name: &str,
    meshes: Meshes<'_>,
    frames: &[Frame],
    f: impl FnOnce(&mut Sides<'_, '_, '_>) -> R,
) -> R {
    with_binary(scene_name, meshes, frames, |binary| {
        let wide_big = WideTree::new(binary.big.tree()).expect("scalar rows");
        let wide_small = WideTree::new(binary.small.tree()).expect("scalar rows");
        let mut side = Sides {
            cache_big: wide_big.cache(meshes.0.vertices.len()),
            cache_small: wide_small.cache(meshes.2.vertices.len()),
            wide_stack: vec![Entry::default(); wide_stack_capacity(&wide_big, &wide_small)],
            wide_pairs: Vec::with_capacity(4096),
            wide_big,
            wide_small,
            binary,
        };
        f(&mut side)
    })
}

/// The sides `count` measures and `time` interleaves.
const SIDES: [&str; 3] = ["binary", "wide", "parry"];

/// `count`: this binary under callgrind once per side; instructions per frame.
fn count(scene_name: &str, meshes: Meshes<'_>, frames: &[Frame]) {
    let out = cache_dir().join("../versus-wide");
    std::fs::create_dir_all(&out).expect("target/versus-wide is writable");
    let totals = SIDES.map(|side| {
        let file = out.join(format!("{scene_name}-{side}.callgrind"));
        callgrind(
            &file,
            &format!("versus_wide::{side}_frame*"),
            &["run", side],
        )
    });
    // The work counters, outside callgrind.
    let (binary, wide, memory) = with_sides(scene_name, meshes, frames, |side| {
        let mut total = QueryStats::default();
        let mut wide = WideStats::default();
        for k in 0..frames.len() {
            total.add(&binary_frame(side, k).stats);
            let w = wide_frame(side, k);
            wide.visits += w.visits;
            wide.expansions += w.expansions;
            wide.updates += w.updates;
            wide.leaf_spheres += w.leaf_spheres;
            wide.leaf_pairs += w.leaf_pairs;
            wide.triangle_tests += w.triangle_tests;
        }
        let modes = side.binary.big.tree().modes();
        let memory = [
            (
                side.binary.big.tree().node_count(),
                side.wide_big.node_count(),
            ),
            (
                side.binary.small.tree().node_count(),
                side.wide_small.node_count(),
            ),
        ]
        .map(|(binary, wide)| (binary, binary * 16 * (modes + 1), wide));
        let rows = [side.wide_big.row_bytes(), side.wide_small.row_bytes()];
        (total, wide, memory.into_iter().zip(rows))
    });
    let parry_pairs = parry_node_pairs(meshes, frames);
    let n = frames.len() as f64;
    let [b, w, p] = totals.map(|t| t as f64 / n);
    let pairs = binary.nodes_visited as f64 / n;
    println!("scene {scene_name}, {} frames, per frame:", frames.len());
    println!(
        "  binary {b:>10.0} instructions  {pairs:>7.1} node pairs  {:>5.0} per node pair  \
         ({:.1} sphere updates, {:.1} triangle tests)",
        b / pairs,
        binary.sphere_updates as f64 / n,
        binary.triangle_tests as f64 / n,
    );
    println!(
        "  wide   {w:>10.0} instructions  {:>7.1} wide pairs  {:>5.0} per wide pair, {:>5.0} per \
         binary node pair  ({:.1} expansions, {:.1} wide updates = {:.1} lane spheres incl. \
         {:.1} leaf spheres, {:.1} leaf pairs, {:.1} triangle tests)",
        wide.visits as f64 / n,
        w * n / wide.visits as f64,
        w / pairs,
        wide.expansions as f64 / n,
        wide.updates as f64 / n,
        4.0 * wide.updates as f64 / n,
        wide.leaf_spheres as f64 / n,
        wide.leaf_pairs as f64 / n,
        wide.triangle_tests as f64 / n,
    );
    println!("{}", count_line("parry", 7, p, parry_pairs as f64, n));
    println!(
        "  wide / binary = {:.3}, binary / parry = {:.3}, wide / parry = {:.3} (instructions)",
        w / b,
        b / p,
        w / p
    );
    for (name, ((nodes, bytes, wide_nodes), rows)) in ["big", "small"].iter().zip(memory) {
        println!(
            "  {name} tree: {nodes} binary nodes, {:.1} MB of rows; {wide_nodes} wide nodes, \
             {:.1} MB of lane rows ({:.2}x)",
            bytes as f64 / 1e6,
            rows as f64 / 1e6,
            rows as f64 / bytes as f64
        );
    }
    println!("  callgrind files: {}", out.display());
}

/// `run SIDE`: one pass over the frames on one side (what `count` measures).
fn run(side: &str, scene_name: &str, meshes: Meshes<'_>, frames: &[Frame]) {
    match side {
        "binary" => with_sides(scene_name, meshes, frames, |side| {
            run_complete(frames.len(), |k| binary_frame(side, k))
        }),
        "wide" => with_sides(scene_name, meshes, frames, |side| {
            for k in 0..frames.len() {
                black_box(wide_frame(side, k));
            }
        }),
        _ => versus::run_parry(meshes, frames, parry_frame),
    }
}

/// `time`: the three sides interleaved frame by frame, the order rotated every frame and
/// round.
fn time(scene_name: &str, meshes: Meshes<'_>, frames: &[Frame]) {
    let (rounds, runs) = rounds_and_runs();
    let mut parry = parry_scene(meshes, frames);
    with_sides(scene_name, meshes, frames, |side| {
        let n = frames.len();
        println!(
            "scene {scene_name}: {n} frames, {rounds} rounds per run, three sides alternated \
             frame by frame (order rotated)"
        );
        for run in 0..runs {
            let m: [Vec<f64>; 3] =
                interleaved_medians(rounds, n, rotated, |which, k| match which {
                    0 => {
                        black_box(binary_frame(side, k));
                    }
                    1 => {
                        black_box(wide_frame(side, k));
                    }
                    _ => {
                        black_box(parry_frame(&mut parry, k));
                    }
                });
            let ratio = |x: usize, y: usize| median_ratio(&m[x], &m[y]);
            let mid = |x: usize| median(&mut m[x].clone()) * 1e6;
            println!(
                "run {run}: per-frame medians binary {:.1} µs, wide {:.1} µs, parry {:.1} µs; \
                 median over frames of wide / binary {:.3}, binary / parry {:.3}, wide / parry \
                 {:.3}",
                mid(0),
                mid(1),
                mid(2),
                ratio(1, 0),
                ratio(0, 2),
                ratio(1, 2)
            );
        }
    });
}

/// `check`: on every frame, the wide walk's pairs are the binary walk's, and after `refine`
/// they miss nothing of the f64 brute force.
fn check(scene_name: &str, meshes: Meshes<'_>, frames: &[Frame]) {
    with_sides(scene_name, meshes, frames, |side| {
        for (k, f) in frames.iter().enumerate() {
            let truth = truth(meshes, f);
            let outcome = binary_frame(side, k);
            assert!(outcome.status.is_complete(), "{outcome:?}");
            let stats = wide_frame(side, k);
            let mut binary: Vec<(u32, u32)> =
                side.binary.pairs.iter().map(|p| (p.a, p.b)).collect();
            let mut wide: Vec<(u32, u32)> = side.wide_pairs.iter().map(|p| (p.a, p.b)).collect();
            binary.sort_unstable();
            wide.sort_unstable();
            let duplicates = wide.windows(2).filter(|w| w[0] == w[1]).count();
            let only_wide = lacking(&wide, &binary);
            let only_binary = lacking(&binary, &wide);
            let refined = refined_pairs(&side.binary.big, &side.binary.small, &mut side.wide_pairs);
            let kept = refined.len();
            let missed = lacking(&truth, &refined);
            println!(
                "frame {k}: brute force {} pairs; binary {} reported; wide {} reported ({} only \
                 wide, {} only binary, {duplicates} duplicates), {kept} after refine, {missed} \
                 missed; binary node pairs {}, binary triangle tests {}, wide leaf pairs {}, \
                 wide triangle tests {}",
                truth.len(),
                binary.len(),
                wide.len(),
                only_wide,
                only_binary,
                outcome.stats.nodes_visited,
                outcome.stats.triangle_tests,
                stats.leaf_pairs,
                stats.triangle_tests,
            );
            assert_eq!(binary, wide, "the walks' pairs differ on frame {k}");
            assert_eq!(missed, 0, "the wide walk missed a pair on frame {k}");
        }
    });
}

fn main() {
    versus::main("binary", run, time, check, count);
}
