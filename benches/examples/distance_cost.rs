//! What a distance query costs against the triangle query, frame by frame, on a fixture scene
//! (default `fixtures/scenes/demo.json`: a modal ball through a waving cloth beside a modal
//! ring), f32, each body pair placed at its own floating origin.
//!
//! ```text
//! cargo build --release -p bdtree-benches --example distance_cost
//! target/release/examples/distance_cost count [SCENE.json]   # instructions per call (callgrind)
//! target/release/examples/distance_cost [SCENE.json]         # the work counters per call
//! ```
//!
//! `count` runs this binary under `valgrind --tool=callgrind` with `--dump-after` on the two
//! query functions (`collide_pair`, `nearest_pair`, never inlined), so each call gets a dump of
//! its own, and prints per frame and body pair the instructions of `collide` (the triangle
//! query) and of `separation::nearest` (the distance query), with and without the bodies'
//! vertex caches; the summary compares the busiest triangle-query frame with the dearest
//! distance query on separated bodies.

use std::path::{Path, PathBuf};
use std::process::Command;

use bdtree_core::query::separation::{nearest, Nearest};
use bdtree_core::{
    collide, floating_origin, stack_capacity, Body, QueryOutcome, TrianglePair, VertexEntry,
};
use bdtree_std::build::{build, BuildOptions};
use bdtree_std::io::{ImageBuf, Scene};
use bdtree_std::BodyStorage;

/// Called before each query: callgrind dumps on leaving it, so the query's own dump holds the
/// query alone.
#[inline(never)]
fn start() {
    std::hint::black_box(());
}

/// The triangle query on one body pair.
#[inline(never)]
fn collide_pair(
    a: &mut Body<'_, '_, f32>,
    b: &mut Body<'_, '_, f32>,
    stack: &mut [[u32; 2]],
) -> QueryOutcome {
    collide(a, b, stack, &mut |_: TrianglePair| true)
}

/// The distance query on one body pair.
#[inline(never)]
fn nearest_pair(
    a: &mut Body<'_, '_, f32>,
    b: &mut Body<'_, '_, f32>,
    stack: &mut [[u32; 2]],
) -> (Option<Nearest<f32>>, QueryOutcome) {
    let mut answer = None;
    let outcome = nearest(a, b, stack, &mut answer);
    (answer, outcome)
}

fn scene_path(args: &[String]) -> PathBuf {
    args.iter().find(|a| a.ends_with(".json")).map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../fixtures/scenes/demo.json"),
        PathBuf::from,
    )
}

/// Runs every frame and body pair, with vertex caches when `vertices`; prints one line per call
/// (in call order, as the dumps come).
fn run(path: &Path, vertices: bool) {
    let scene = Scene::load(path).expect("the scene loads");
    let images: Vec<ImageBuf> = scene
        .bodies
        .iter()
        .map(|b| {
            build(
                &b.mesh,
                b.basis.as_ref(),
                BuildOptions::default(),
                &mut |_| {},
            )
            .expect("builds")
            .0
        })
        .collect();
    let views: Vec<_> = images
        .iter()
        .map(|i| i.parse::<f32>().expect("parses"))
        .collect();
    let mut storages: Vec<BodyStorage<f32>> = views
        .iter()
        .map(|v| BodyStorage::new(v.tree.node_count()))
        .collect();
    let mut vertex_caches: Vec<Vec<VertexEntry<f32>>> = scene
        .bodies
        .iter()
        .map(|b| vec![VertexEntry::default(); if vertices { b.mesh.vertices.len() } else { 0 }])
        .collect();
    let mut bodies: Vec<Body<'_, '_, f32>> = storages
        .iter_mut()
        .zip(&views)
        .zip(vertex_caches.iter_mut())
        .map(|((s, v), vc)| {
            let body = s.body(v).expect("caches fit");
            if vertices {
                body.with_vertex_cache(vc).expect("fits")
            } else {
                body
            }
        })
        .collect();
    let depth = views.iter().map(|v| v.tree.depth()).max().unwrap_or(0);
    let mut stack = vec![[0u32; 2]; stack_capacity(depth, depth)];
    for (f, frame) in scene.frames.iter().enumerate() {
        for i in 0..bodies.len() {
            for j in i + 1..bodies.len() {
                let (pi, pj) = (&frame[i], &frame[j]);
                let origin = floating_origin(&[pi.0.translation, pj.0.translation]);
                let (head, tail) = bodies.split_at_mut(j);
                let (a, b) = (&mut head[i], &mut tail[0]);
                a.set_state_f64(pi.0.rotation, pi.0.translation, &pi.1, origin)
                    .expect("a valid state");
                b.set_state_f64(pj.0.rotation, pj.0.translation, &pj.1, origin)
                    .expect("a valid state");
                start();
                let c = collide_pair(a, b, &mut stack);
                start();
                let (answer, n) = nearest_pair(a, b, &mut stack);
                let d = answer.map_or(f32::NAN, |x| x.distance);
                println!(
                    "frame {f} pair {i}-{j}: collide {} node pairs, {} triangle tests; nearest \
                     distance {d:.4}, {} node pairs, {} triangle tests",
                    c.stats.nodes_visited,
                    c.stats.triangle_tests,
                    n.stats.nodes_visited,
                    n.stats.triangle_tests
                );
            }
        }
    }
}

/// `count`: this binary under callgrind, a dump per query call.
fn count(path: &Path) {
    let out = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/distance-cost");
    let exe = std::env::current_exe().expect("the example's path");
    for vertices in [false, true] {
        let _ = std::fs::remove_dir_all(&out);
        std::fs::create_dir_all(&out).expect("target/distance-cost is writable");
        let base = out.join("cg");
        let output = Command::new("valgrind")
            .arg("--tool=callgrind")
            .arg(format!("--callgrind-out-file={}", base.display()))
            .arg("--dump-after=distance_cost::start")
            .arg("--dump-after=distance_cost::collide_pair")
            .arg("--dump-after=distance_cost::nearest_pair")
            .arg(&exe)
            .arg(if vertices { "run-vertices" } else { "run" })
            .arg(path)
            .output()
            .expect("valgrind runs");
        assert!(output.status.success(), "the run under callgrind failed");
        let lines: Vec<String> = String::from_utf8_lossy(&output.stdout)
            .lines()
            .map(String::from)
            .collect();
        // Dumps `cg.1`, `cg.2`, … in order; those made on leaving a query function hold that
        // call alone (a dump is made on leaving `start` just before it): collide, nearest, …
        let mut dumps: Vec<(usize, u64)> = std::fs::read_dir(&out)
            .expect("dumps")
            .filter_map(|e| {
                let p = e.ok()?.path();
                let n: usize = p.extension()?.to_str()?.parse().ok()?;
                let (after, count) = total(&p)?;
                after.then_some((n, count))
            })
            .collect();
        dumps.sort_unstable();
        let counts: Vec<u64> = dumps.iter().map(|d| d.1).collect();
        println!(
            "{} vertex caches:",
            if vertices { "with" } else { "without" }
        );
        let (mut collide_max, mut nearest_max_separated) = (0u64, 0u64);
        for (line, pair) in lines.iter().zip(counts.chunks_exact(2)) {
            let separated = !line.contains("distance 0.0000");
            println!(
                "  {line}\n      instructions: collide {}, nearest {}{}",
                pair[0],
                pair[1],
                if separated { " (separated)" } else { "" }
            );
            collide_max = collide_max.max(pair[0]);
            if separated {
                nearest_max_separated = nearest_max_separated.max(pair[1]);
            }
        }
        println!(
            "  busiest triangle query {collide_max}; dearest distance query on separated bodies \
             {nearest_max_separated} ({:.2}×)",
            nearest_max_separated as f64 / collide_max.max(1) as f64
        );
    }
}

/// Whether a callgrind dump was made on leaving a function, and its `totals:` figure.
fn total(file: &Path) -> Option<(bool, u64)> {
    let text = std::fs::read_to_string(file).ok()?;
    let after = text
        .lines()
        .any(|l| l.starts_with("desc: Trigger: --dump-after") && l.contains("_pair"));
    let count = text
        .lines()
        .filter_map(|l| {
            l.strip_prefix("totals:")
                .or_else(|| l.strip_prefix("summary:"))
        })
        .filter_map(|v| v.split_whitespace().next()?.parse().ok())
        .next_back()?;
    Some((after, count))
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let path = scene_path(&args);
    match args.first().map(String::as_str) {
        Some("count") => count(&path),
        Some("run-vertices") => run(&path, true),
        _ => run(&path, false),
    }
}
