//! A swept motion's cost against the user's alternative, as instructions: the swept fixture
//! scenes in f32, every motion once with `run_swept` (`swept_phase`) and the scene sub-stepped
//! at 8 instants per motion once with `run` (`substep_phase`) — both through the scene runner,
//! states set and pairs sorted, trees built before. Counts do not depend on the machine's load:
//!
//! ```text
//! cargo build --release -p bdtree-benches --example swept_profile
//! valgrind --tool=callgrind --callgrind-out-file=target/swept.callgrind \
//!     target/release/examples/swept_profile
//! callgrind_annotate --inclusive=yes target/swept.callgrind | grep -E 'swept_phase|substep_phase'
//! ```
//!
//! Each phase function runs one scene (`SWEPT_SCENE=tunnel|plate|flap`, default all three in
//! turn, so the inclusive figures sum them). It prints, per scene, the counters the swept walk
//! keeps per motion: node pairs, leaf pairs (candidate triangle pairs the swept leaf test
//! decides), reported pairs. `SWEPT_WINDOWS=K` runs the swept phase over K windows of each
//! motion instead (the swept query between consecutive instants of `substeps(scene, K)`: the
//! same paths, cut into K motions; the last motion's last window is left out).
//!
//! `SWEPT_TIME=R` times instead, on the same phases: R rounds per scene, each running the swept
//! phase and the sub-step phase once, in turn first (order flipped every round), and prints the
//! medians per motion and the median of the rounds' ratios (swept / 8 sub-steps). On a shared
//! machine take several runs and read the ratios.

use std::hint::black_box;
use std::path::Path;
use std::time::Instant;

use bdtree_std::build::{BuildOptions, Precision};
use bdtree_std::io::Scene;
use bdtree_std::runner::{prepare, run, run_swept, substeps, PreparedScene};

#[inline(never)]
fn swept_phase(scene: &Scene, prepared: &PreparedScene) -> (u64, u64, usize) {
    let (answers, _) = run_swept::<f32>(scene, prepared).expect("swept");
    let nodes = answers
        .iter()
        .map(|a| a.result.stats.nodes_visited as u64)
        .sum();
    let leaves = answers
        .iter()
        .map(|a| a.result.stats.triangle_tests as u64)
        .sum();
    let pairs = answers.iter().map(|a| a.items.len()).sum();
    (nodes, leaves, pairs)
}

#[inline(never)]
fn substep_phase(stepped: &Scene, prepared: &PreparedScene) -> (u64, u64) {
    let (frames, _) = run::<f32>(stepped, prepared, 1).expect("sub-steps");
    let nodes = frames.iter().map(|f| f.stats.nodes_visited as u64).sum();
    let leaves = frames.iter().map(|f| f.stats.triangle_tests as u64).sum();
    (nodes, leaves)
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
}

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/swept");
    let only = std::env::var("SWEPT_SCENE").ok();
    for name in ["tunnel", "plate", "flap"] {
        if only.as_deref().is_some_and(|o| o != name) {
            continue;
        }
        let scene = Scene::load(&root.join(format!("{name}.json"))).expect("fixture scene");
        let options = BuildOptions {
            precision: Precision::F32,
            ..BuildOptions::default()
        };
        let prepared = prepare(&scene, options).expect("build");
        let stepped = substeps(&scene, 8);
        let windows: usize = std::env::var("SWEPT_WINDOWS")
            .ok()
            .and_then(|w| w.parse().ok())
            .unwrap_or(1);
        let windowed = if windows > 1 {
            substeps(&scene, windows)
        } else {
            scene.clone()
        };
        let motions = scene.frames.len() - 1;
        if let Some(rounds) = std::env::var("SWEPT_TIME")
            .ok()
            .and_then(|v| v.parse::<usize>().ok())
        {
            let m = motions.max(1) as f64;
            let swept = || {
                let start = Instant::now();
                black_box(swept_phase(&scene, &prepared));
                start.elapsed().as_secs_f64() / m
            };
            let stepped_time = || {
                let start = Instant::now();
                black_box(substep_phase(&stepped, &prepared));
                start.elapsed().as_secs_f64() / m
            };
            let (mut sw, mut st, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
            for round in 0..rounds {
                let (a, b) = if round % 2 == 0 {
                    let a = swept();
                    (a, stepped_time())
                } else {
                    let b = stepped_time();
                    (swept(), b)
                };
                sw.push(a);
                st.push(b);
                ratios.push(a / b);
            }
            println!(
                "{name}: per motion, median of {rounds} rounds: swept {:.3} ms, 8 sub-steps \
                 {:.3} ms; median ratio {:.2} (rounds {:.2}–{:.2})",
                median(&mut sw) * 1e3,
                median(&mut st) * 1e3,
                median(&mut ratios.clone()),
                ratios.iter().cloned().fold(f64::INFINITY, f64::min),
                ratios.iter().cloned().fold(0.0, f64::max),
            );
            continue;
        }
        let (nodes, leaves, pairs) = black_box(swept_phase(&windowed, &prepared));
        let (step_nodes, step_leaves) = black_box(substep_phase(&stepped, &prepared));
        let m = motions.max(1) as f64;
        println!(
            "{name}: per motion, swept {:.0} node pairs, {:.0} leaf pairs, {:.1} reported; \
             8 sub-steps {:.0} node pairs, {:.0} triangle tests",
            nodes as f64 / m,
            leaves as f64 / m,
            pairs as f64 / m,
            step_nodes as f64 / m,
            step_leaves as f64 / m,
        );
    }
}
