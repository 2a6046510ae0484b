//! bdtree's whole f32 frame against parry's query phase, on the same frames, in one binary:
//! the measuring tool for "deformable at rigid cost".
//!
//! Each side runs in a function of its own that is never inlined: `bdtree_frame` (both
//! `set_state` calls and `collide` on the two bodies with vertex caches, as the query bench's
//! `bdtree_f32`) and `parry_frame` (parry3d's query phase on the frame's meshes deformed and
//! refitted beforehand, as the query bench's `parry_query`: `Bvh::leaf_pairs` with the AABB
//! test and the exact triangle test on every candidate).
//!
//! ```text
//! cargo build --release -p bdtree-benches --example versus
//! target/release/examples/versus count      # instructions per frame, both sides (callgrind)
//! target/release/examples/versus time       # interleaved per-frame timing, medians
//! target/release/examples/versus check      # answers against the f64 brute force
//! ```
//!
//! * `count` runs this binary twice under `valgrind --tool=callgrind`, once per side, with
//!   `--toggle-collect` on that side's frame function, over every frame once (the setup is not
//!   counted), and prints instructions per frame and per node pair. The callgrind files stay in
//!   `target/versus/` for `callgrind_annotate --inclusive=yes` (where the instructions go).
//! * `time` alternates the two sides frame by frame, the order flipped every other frame and
//!   round, over `VERSUS_ROUNDS` rounds (default 200) in each of `VERSUS_RUNS` runs (default
//!   3); per run it prints each side's median frame time and the median over frames of the
//!   per-frame ratio.
//! * `check` compares both sides' pairs with `oracle::brute_force_pairs` on the f64 deformed
//!   meshes (bdtree's after the exact second stage, `refine`).
//!
//! `BENCH_TREE=medial` builds bdtree's trees on the medial partition (cached apart).
//! `VERSUS_SCENE=fem` runs the FEM scene (`fem_scene`: a 327,680-triangle bumpy body with
//! modal modes grazed by a small modal sphere) instead of the query bench's (`query_scene`).
//! Images and bases are cached in `target/walk-profile/`.

use std::hint::black_box;
use std::path::Path;

use bdtree_benches::measure::{
    alternated, cache_dir, callgrind, interleaved_medians, median, median_ratio,
};
use bdtree_benches::query_scene::Frame;
use bdtree_benches::refit::ParryScene;
use bdtree_benches::versus::{
    self, count_line, lacking, parry_node_pairs, parry_scene, refined_pairs, rounds_and_runs,
    run_complete, truth, with_binary, Binary, Meshes,
};
use bdtree_core::{QueryOutcome, QueryStats};

/// One bdtree frame: both states set, then the query.
#[inline(never)]
fn bdtree_frame(side: &mut Binary<'_, '_>, k: usize) -> QueryOutcome {
    side.frame(k)
}

/// One parry frame: the query phase on the frame's refitted meshes.
#[inline(never)]
fn parry_frame(parry: &mut ParryScene, k: usize) -> usize {
    parry.query_only(k)
}

/// `count`: this binary under callgrind once per side; instructions per frame.
fn count(scene_name: &str, meshes: Meshes<'_>, frames: &[Frame]) {
    let out = cache_dir().join("../versus");
    std::fs::create_dir_all(&out).expect("target/versus is writable");
    let totals = ["bdtree", "parry"].map(|side| {
        let file = out.join(format!("{scene_name}-{side}.callgrind"));
        callgrind(&file, &format!("versus::{side}_frame*"), &["run", side])
    });
    // The work counters, outside callgrind.
    let (stats, contacts) = with_binary(scene_name, meshes, frames, |side| {
        let (mut total, mut contacts) = (QueryStats::default(), 0);
        for k in 0..frames.len() {
            total.add(&bdtree_frame(side, k).stats);
            contacts += side.pairs.len();
        }
        (total, contacts)
    });
    let parry_pairs = parry_node_pairs(meshes, frames);
    let n = frames.len() as f64;
    let (b, p) = (totals[0] as f64 / n, totals[1] as f64 / n);
    println!(
        "scene {scene_name} ({} tree), {} frames, per frame ({:.1} contacts, {:.1} node pairs \
         per contact):",
        bdtree_benches::query_scene::bench_tree().name(),
        frames.len(),
        contacts as f64 / n,
        stats.nodes_visited as f64 / contacts.max(1) as f64
    );
    println!(
        "{}  ({:.1} sphere updates, {:.1} triangle tests)",
        count_line("bdtree", 8, b, stats.nodes_visited as f64, n),
        stats.sphere_updates as f64 / n,
        stats.triangle_tests as f64 / n,
    );
    println!("{}", count_line("parry", 8, p, parry_pairs as f64, n));
    println!("  ratio bdtree / parry = {:.3} (instructions)", b / p);
    // Where bdtree's instructions go, by the function that executes them (inlined code counts
    // where it is inlined: the walk's own lines include the cache reads, sphere tests and the
    // leaf step's glue and box filter).
    let parts = parts(&out.join(format!("{scene_name}-bdtree.callgrind")));
    let pairs = stats.nodes_visited as f64;
    println!("  bdtree by part, per frame and per node pair:");
    for (name, count) in parts {
        println!(
            "    {name:<28} {:>10.0}  {:>6.1}",
            count as f64 / n,
            count as f64 / pairs
        );
    }
    println!("  callgrind files: {}", out.display());
}

/// The parts of a frame, each the functions whose names contain one of its patterns (the
/// first part that matches takes a function).
const PARTS: [(&str, &[&str]); 6] = [
    ("leaf triangles (out of line)", &["world_triangle"]),
    (
        "sphere updates, leaf vertices",
        &[
            "refresh",
            "update",
            "triangle_sphere",
            "deformed",
            "deform_triangle",
            "store",
        ],
    ),
    ("exact triangle tests", &["triangle::", "closest::"]),
    (
        "states (set_state)",
        &["commit", "bound_and_magnitude", "next_epoch", "set_state"],
    ),
    (
        "the walk (incl. leaf glue)",
        &["walk::", "bdtree_frame", "collide"],
    ),
    ("other", &[""]),
];

/// Self instructions per part of a callgrind file (its `fn=` blocks; a `calls=` line's next
/// cost line is the callee's inclusive cost and is skipped).
fn parts(file: &Path) -> Vec<(&'static str, u64)> {
    let text = std::fs::read_to_string(file).expect("the callgrind file is readable");
    let mut names = std::collections::HashMap::new();
    let mut sums = vec![0u64; PARTS.len()];
    let (mut part, mut skip) = (PARTS.len() - 1, false);
    for line in text.lines() {
        for prefix in ["fn=(", "cfn=("] {
            if let Some(rest) = line.strip_prefix(prefix) {
                if let Some((id, name)) = rest.split_once(") ") {
                    names.insert(id.to_string(), name.to_string());
                }
            }
        }
        if let Some(rest) = line.strip_prefix("fn=(") {
            let id = rest.split(')').next().unwrap_or("");
            let name = names.get(id).map_or("", String::as_str);
            part = PARTS
                .iter()
                .position(|(_, patterns)| patterns.iter().any(|p| name.contains(p)))
                .unwrap_or(PARTS.len() - 1);
            continue;
        }
        if line.starts_with("calls=") {
            skip = true;
            continue;
        }
        let mut fields = line.split_whitespace();
        let (Some(first), Some(cost)) = (fields.next(), fields.next_back()) else {
            continue;
        };
        let position =
            first.starts_with(['+', '-', '*']) || first.chars().all(|c| c.is_ascii_digit());
        if let (true, Ok(cost)) = (position, cost.parse::<u64>()) {
            if !skip {
                sums[part] += cost;
            }
            skip = false;
        }
    }
    PARTS.iter().map(|(name, _)| *name).zip(sums).collect()
}

/// `run SIDE`: one pass over the frames on one side (what `count` measures).
fn run(side: &str, scene_name: &str, meshes: Meshes<'_>, frames: &[Frame]) {
    match side {
        "bdtree" => with_binary(scene_name, meshes, frames, |side| {
            run_complete(frames.len(), |k| bdtree_frame(side, k))
        }),
        _ => versus::run_parry(meshes, frames, parry_frame),
    }
}

/// `time`: the two sides interleaved frame by frame.
fn time(scene_name: &str, meshes: Meshes<'_>, frames: &[Frame]) {
    let (rounds, runs) = rounds_and_runs();
    let mut parry = parry_scene(meshes, frames);
    with_binary(scene_name, meshes, frames, |side| {
        let n = frames.len();
        println!(
            "scene {scene_name}: {n} frames, {rounds} rounds per run, sides alternated frame by \
             frame (order flipped)"
        );
        for run in 0..runs {
            let [mut mb, mut mp] = interleaved_medians(rounds, n, alternated, |s, k| {
                if s == 0 {
                    black_box(bdtree_frame(side, k));
                } else {
                    black_box(parry_frame(&mut parry, k));
                }
            });
            let ratio = median_ratio(&mb, &mp);
            println!(
                "run {run}: per-frame medians bdtree {:.1} µs, parry {:.1} µs; ratio bdtree / \
                 parry (median over frames) {ratio:.3}",
                median(&mut mb) * 1e6,
                median(&mut mp) * 1e6,
            );
        }
    });
}

/// `check`: both sides' pairs against the brute force.
fn check(scene_name: &str, meshes: Meshes<'_>, frames: &[Frame]) {
    let mut parry = parry_scene(meshes, frames);
    with_binary(scene_name, meshes, frames, |side| {
        for (k, f) in frames.iter().enumerate() {
            let truth = truth(meshes, f);
            let outcome = bdtree_frame(side, k);
            assert!(outcome.status.is_complete(), "{outcome:?}");
            let reported = side.pairs.len();
            let ours = refined_pairs(&side.big, &side.small, &mut side.pairs);
            let kept = ours.len();
            parry_frame(&mut parry, k);
            let mut theirs = parry.pairs.clone();
            theirs.sort_unstable();
            let missed = lacking(&truth, &ours);
            println!(
                "frame {k}: brute force {} pairs; bdtree {reported} reported, {kept} after \
                 refine, {missed} missed; parry {} pairs",
                truth.len(),
                theirs.len()
            );
            assert_eq!(missed, 0, "bdtree missed a pair on frame {k}");
        }
    });
}

fn main() {
    versus::main("bdtree", run, time, check, count);
}
