//! Measures the builder's bound options beyond the paper (see the book's
//! `docs/src/performance/bounds.md`): for every fixture mesh with a basis and a larger procedural sphere, the mean
//! radius growth `‖ΔR‖₂` per level for each combination of `--mode-center` and `--grouping`;
//! then, for every fixture scene, the kernel's counters summed over the frames.
//!
//! ```text
//! cargo run -p bdtree-std --example bounds [-- --weights 0.05,0.2,1] [--large]
//! ```
//!
//! Images are f32 (the default precision); counters come from the f32 kernel, and every
//! frame's contacts are compared with the committed f64 brute-force answers. `--large` adds
//! icosphere(1, 6) (81 920 triangles).

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Instant;

use bdtree_core::QueryStats;
use bdtree_std::build::{build, BuildOptions, Grouping, ModeCenter};
use bdtree_std::io::{Basis, Mesh, Scene};
use bdtree_std::runner::inspect::inspect;
use bdtree_std::runner::{compare, prepare, run};
use bdtree_std::shapes::procedural::{icosphere, smooth_basis};

// The tests' reader of the committed answers (`fixtures/expected/NAME.jsonl`).
#[path = "../tests/support/expected.rs"]
mod expected;
use expected::{expected, fixtures};

fn scenes() -> Vec<PathBuf> {
    let mut scenes: Vec<PathBuf> = std::fs::read_dir(fixtures().join("scenes"))
        .expect("fixtures/scenes")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    scenes.sort();
    scenes
}

/// A labelled option combination.
fn combos(weights: &[f64]) -> Vec<(String, BuildOptions)> {
    let mut out = Vec::new();
    for grouping in [Grouping::Rest, Grouping::Motion] {
        let ws: Vec<f64> = match grouping {
            Grouping::Rest => vec![1.0],
            Grouping::Motion => weights.to_vec(),
        };
        for w in ws {
            for mode_center in [ModeCenter::Mean, ModeCenter::MinimalBall] {
                let center = match mode_center {
                    ModeCenter::Mean => "mean",
                    ModeCenter::MinimalBall => "ball",
                };
                let label = match grouping {
                    Grouping::Rest => format!("{center}/rest"),
                    Grouping::Motion => format!("{center}/motion(w={w})"),
                };
                out.push((
                    label,
                    BuildOptions {
                        mode_center,
                        grouping,
                        motion_weight: w,
                        ..BuildOptions::default()
                    },
                ));
            }
        }
    }
    out
}

/// (mean ‖ΔR‖₂ over nodes, mean over levels 3..leaf of the per-level mean, mean rest radius
/// over nodes, per-level means, build seconds).
fn tightness(mesh: &Mesh, basis: &Basis, options: BuildOptions) -> (f64, f64, f64, Vec<f64>, f64) {
    let start = Instant::now();
    let (buf, report) = build(mesh, Some(basis), options, &mut |_| {}).expect("build");
    let seconds = start.elapsed().as_secs_f64();
    let image = buf.parse::<f32>().expect("parse");
    let levels = inspect(&image).levels;
    let deep: Vec<f64> = levels.iter().skip(3).map(|l| l.mean_growth).collect();
    let deep_mean = deep.iter().sum::<f64>() / deep.len().max(1) as f64;
    let radius = levels
        .iter()
        .map(|l| l.mean_radius * l.nodes as f64)
        .sum::<f64>()
        / report.nodes as f64;
    (
        report.mean_growth,
        deep_mean,
        radius,
        levels.iter().map(|l| l.mean_growth).collect(),
        seconds,
    )
}

fn pct(x: f64, base: f64) -> String {
    if base > 0.0 {
        format!("{:+.1} %", 100.0 * (x / base - 1.0))
    } else {
        "—".into()
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let weights: Vec<f64> = args
        .iter()
        .position(|a| a == "--weights")
        .and_then(|i| args.get(i + 1))
        .map(|s| s.split(',').filter_map(|w| w.parse().ok()).collect())
        .unwrap_or_else(|| vec![1.0]);
    let combos = combos(&weights);

    // Meshes with bases, once each, from the fixture scenes; then the procedural sphere.
    let mut bodies: BTreeMap<String, (Mesh, Basis)> = BTreeMap::new();
    for path in scenes() {
        let scene = Scene::load(&path).expect("scene");
        for body in scene.bodies {
            if let Some(basis) = body.basis {
                let name = body
                    .mesh_path
                    .file_stem()
                    .map(|s| s.to_string_lossy().into_owned())
                    .unwrap_or_default();
                bodies.insert(name, (body.mesh, basis));
            }
        }
    }
    let mut bodies: Vec<(String, (Mesh, Basis))> = bodies.into_iter().collect();
    let subdivisions: &[u32] = if args.iter().any(|a| a == "--large") {
        &[5, 6]
    } else {
        &[5]
    };
    for &s in subdivisions {
        let sphere = icosphere(1.0, s);
        let sphere_basis = smooth_basis(&sphere.vertices, 10, 0.03);
        bodies.push((
            format!("icosphere(1,{s})+smooth(10,0.03)"),
            (sphere, sphere_basis),
        ));
    }

    println!("## Radius growth ‖ΔR‖₂ (f32 images)\n");
    println!(
        "| mesh | tris | modes | option | mean ‖ΔR‖₂ (all nodes) | vs mean/rest | mean over levels 3..leaf | vs mean/rest | mean rest radius | vs mean/rest | build s |"
    );
    println!("|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|");
    let mut per_level: Vec<String> = Vec::new();
    for (name, (mesh, basis)) in &bodies {
        let mut base = (0.0, 0.0, 0.0);
        for (i, (label, options)) in combos.iter().enumerate() {
            let (all, deep, radius, levels, seconds) = tightness(mesh, basis, *options);
            if i == 0 {
                base = (all, deep, radius);
            }
            println!(
                "| {name} | {} | {} | {label} | {all:.5} | {} | {deep:.5} | {} | {radius:.5} | {} | {seconds:.2} |",
                mesh.triangles.len(),
                basis.modes,
                pct(all, base.0),
                pct(deep, base.1),
                pct(radius, base.2)
            );
            per_level.push(format!(
                "{name} {label}: {}",
                levels
                    .iter()
                    .map(|g| format!("{g:.4}"))
                    .collect::<Vec<_>>()
                    .join(" ")
            ));
        }
    }
    println!("\nPer-level mean ‖ΔR‖₂ (root first):\n");
    for line in per_level {
        println!("    {line}");
    }

    println!("\n## Kernel counters over the fixture scenes (f32, summed over frames)\n");
    println!(
        "| scene | frames | option | node pairs visited | overlap tests | sphere updates | triangle tests | overlap tests vs mean/rest | contacts | missed / extra vs brute force |"
    );
    println!("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|");
    for path in scenes() {
        let scene = Scene::load(&path).expect("scene");
        let name = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let truth = expected(&scene, &name);
        let mut base_tests = 0u64;
        for (i, (label, options)) in combos.iter().enumerate() {
            let prepared = prepare(&scene, *options).expect("build");
            let (frames, _) = run::<f32>(&scene, &prepared, 1).expect("run");
            let mut sum = [0u64; 4];
            for f in &frames {
                let QueryStats {
                    nodes_visited,
                    sphere_updates,
                    overlap_tests,
                    triangle_tests,
                    ..
                } = f.stats;
                for (s, x) in sum.iter_mut().zip([
                    nodes_visited,
                    overlap_tests,
                    sphere_updates,
                    triangle_tests,
                ]) {
                    *s += u64::from(x);
                }
            }
            let contacts: usize = frames.iter().map(|f| f.pairs.len()).sum();
            let (mut missed, mut extra) = (0, 0);
            for (f, (frame, want)) in frames.iter().zip(&truth).enumerate() {
                let c = compare(&scene, f, &frame.pairs, want);
                missed += c.missed.len();
                extra += c.extra.len();
            }
            if i == 0 {
                base_tests = sum[1];
            }
            println!(
                "| {name} | {} | {label} | {} | {} | {} | {} | {} | {contacts} | {missed} / {extra} |",
                frames.len(),
                sum[0],
                sum[1],
                sum[2],
                sum[3],
                pct(sum[1] as f64, base_tests as f64)
            );
        }
    }
}
