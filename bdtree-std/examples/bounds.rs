//! Measures the builder's bound options beyond the paper (see benches/README.md, "Tighter
//! bounds"): for every fixture mesh with a basis and a larger procedural sphere, the mean
//! radius growth `‖ΔR‖₂` per level for each combination of `--mode-center` and `--grouping`;
//! then, for every fixture scene, the kernel's counters summed over the frames.
//!
//! ```text
//! cargo run -p bdtree-std --example bounds [-- --weights 0.5,1,2]
//! ```
//!
//! Images are f32 (the default precision); counters come from the f32 kernel.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use bdtree_core::QueryStats;
use bdtree_std::basis::Basis;
use bdtree_std::builder::{build, BuildOptions, Grouping, ModeCenter};
use bdtree_std::collide::{prepare, run, Contact};
use bdtree_std::inspect::inspect;
use bdtree_std::mesh::Mesh;
use bdtree_std::procedural::{icosphere, smooth_basis};
use bdtree_std::scene::Scene;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures")
}

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
/// over nodes, per-level means).
fn tightness(mesh: &Mesh, basis: &Basis, options: BuildOptions) -> (f64, f64, f64, Vec<f64>) {
    let (buf, report) = build(mesh, Some(basis), options, &mut |_| {}).expect("build");
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
    let sphere = icosphere(1.0, 5);
    let sphere_basis = smooth_basis(&sphere.vertices, 10, 0.03);
    let mut bodies: Vec<(String, (Mesh, Basis))> = bodies.into_iter().collect();
    bodies.push((
        "icosphere(1,5)+smooth(10,0.03)".into(),
        (sphere, sphere_basis),
    ));

    println!("## Radius growth ‖ΔR‖₂ (f32 images)\n");
    println!(
        "| mesh | tris | modes | option | mean ‖ΔR‖₂ (all nodes) | vs mean/rest | mean over levels 3..leaf | vs mean/rest | mean rest radius | vs mean/rest |"
    );
    println!("|---|---:|---:|---|---:|---:|---:|---:|---:|---:|");
    let mut per_level: Vec<String> = Vec::new();
    for (name, (mesh, basis)) in &bodies {
        let mut base = (0.0, 0.0, 0.0);
        for (i, (label, options)) in combos.iter().enumerate() {
            let (all, deep, radius, levels) = tightness(mesh, basis, *options);
            if i == 0 {
                base = (all, deep, radius);
            }
            println!(
                "| {name} | {} | {} | {label} | {all:.5} | {} | {deep:.5} | {} | {radius:.5} | {} |",
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
        "| scene | frames | option | node pairs visited | overlap tests | sphere updates | triangle tests | overlap tests vs mean/rest | contacts |"
    );
    println!("|---|---:|---|---:|---:|---:|---:|---:|---:|");
    for path in scenes() {
        let scene = Scene::load(&path).expect("scene");
        let name = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let mut base_tests = 0u64;
        let mut base_pairs: Option<Vec<Vec<Contact>>> = None;
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
            let pairs: Vec<Vec<Contact>> = frames.iter().map(|f| f.pairs.clone()).collect();
            let contacts: usize = pairs.iter().map(Vec::len).sum();
            if i == 0 {
                base_tests = sum[1];
                base_pairs = Some(pairs);
            } else if base_pairs.as_ref() != Some(&pairs) {
                println!("(warning: {name} {label}: the contacts differ from mean/rest)");
            }
            println!(
                "| {name} | {} | {label} | {} | {} | {} | {} | {} | {contacts} |",
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
