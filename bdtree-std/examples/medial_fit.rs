//! The fit of the trees' spheres, level by level, with the same number of spheres (both trees
//! split every node in halves): on the chair, a closed 20,480-triangle blob, a slender cable
//! and a slender bar. Columns: the median-split tree's exact (wrapped) spheres, the medial
//! tree's exact spheres, and the fitted spheres of both trees ([`bdtree_std::build::fit`]);
//! the ratio is the medial tree's fitted spheres over the median tree's exact ones. Plus the
//! time to fit, and build time and image size of the blob's trees.
//!
//! The measure is the library's ([`bdtree_std::build::fit`], deterministic sampling): per
//! level, **error**, Bradshaw's (the largest distance from the part of a sphere outside the
//! body to the surface), as the level's mean and largest over the body's bounding-box
//! diagonal; **outside**, the summed volume outside the body over the body's volume.
//!
//! Run: `cargo run --release -p bdtree-std --example medial_fit` (`--timing`: only the build
//! times and sizes; `--only NAME`: one body, `chair`, `blob`, `cable` or `bar`).

use std::time::Instant;

use bdtree_std::build::fit::{level_cover, Fit, FitRow};
use bdtree_std::build::fitted::{fitted_spheres, FitBody, Nodes};
use bdtree_std::build::{build, BuildOptions, Precision, TreeKind};
use bdtree_std::io::Mesh;
use bdtree_std::shapes::chair_mesh;
use bdtree_std::shapes::procedural::{bar, blob, cable};

/// One level: its sphere count and the fit of the exact and of the fitted spheres.
struct Row {
    level: u32,
    spheres: usize,
    exact: FitRow,
    fitted: FitRow,
}

fn table(mesh: &Mesh, body: &FitBody, fit: &Fit, tree: TreeKind) -> Vec<Row> {
    let options = BuildOptions {
        tree,
        precision: Precision::F64,
        ..BuildOptions::default()
    };
    let (buf, _) = build(mesh, None, options, &mut |_| {}).expect("build");
    let image = buf.parse::<f64>().expect("parse");
    let nodes = Nodes::of(&image.tree);
    let start = Instant::now();
    let fitted = fitted_spheres(body, &nodes);
    let fit_time = start.elapsed().as_secs_f64();
    let mean_reach: f64 = fitted
        .iter()
        .map(|f| f.reach / f.radius.max(1e-300))
        .sum::<f64>()
        / fitted.len() as f64;
    println!("  {tree:?}: fitted spheres in {fit_time:.2} s; mean reach/radius {mean_reach:.3}");
    let cover = level_cover(&image.tree, 3..=10);
    let spheres = |sphere: &dyn Fn(usize) -> [f64; 4]| -> Vec<(u32, Vec<[f64; 4]>)> {
        cover
            .iter()
            .map(|(level, nodes)| (*level, nodes.iter().map(|&k| sphere(k)).collect()))
            .collect()
    };
    let exact = fit.rows(&spheres(&|k| image.tree.rest_sphere(k).unwrap_or([0.0; 4])));
    let fitted = fit.rows(&spheres(&|k| {
        let f = fitted[k];
        [f.center[0], f.center[1], f.center[2], f.radius]
    }));
    exact
        .into_iter()
        .zip(fitted)
        .map(|(exact, fitted)| Row {
            level: exact.level,
            spheres: exact.spheres,
            exact,
            fitted,
        })
        .collect()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let timing_only = args.iter().any(|a| a == "--timing");
    let only = args
        .iter()
        .position(|a| a == "--only")
        .and_then(|i| args.get(i + 1).cloned());
    let cases: Vec<(&str, &str, Mesh)> = vec![
        ("chair", "chair", chair_mesh()),
        ("blob", "blob (20,480 triangles)", blob(1.0, 5, 6, 59)),
        (
            "cable",
            "cable 1 x r 0.02 (6,400 triangles)",
            cable(1.0, 0.02, 200, 16),
        ),
        ("bar", "bar 2 x 0.1 (2,052 triangles)", bar(2.0, 0.1, 256)),
    ];
    for (key, name, mesh) in cases.iter().filter(|_| !timing_only) {
        if only.as_deref().is_some_and(|o| o != *key) {
            continue;
        }
        println!("\n{name}, {} triangles:", mesh.triangles.len());
        let start = Instant::now();
        let body = FitBody::new(mesh).expect("closed");
        println!(
            "  body (inside test, medial balls, occupancy) in {:.2} s",
            start.elapsed().as_secs_f64()
        );
        let fit = Fit::new(mesh).expect("closed");
        let median = table(mesh, &body, &fit, TreeKind::Median);
        let medial = table(mesh, &body, &fit, TreeKind::Medial);
        println!("error = Bradshaw's / bbox diagonal; outside = Σ volume outside / body volume; ratio = medial fitted / median exact");
        println!(
            "| level | spheres | err mean: median exact | medial exact | median fitted | medial fitted | ratio | err max: median exact | medial fitted | ratio | outside: median exact | medial exact | median fitted | medial fitted | ratio |"
        );
        println!("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
        for (a, b) in median.iter().zip(&medial) {
            assert_eq!(a.spheres, b.spheres);
            println!(
                "| {} | {} | {:.4} | {:.4} | {:.4} | {:.4} | {:.2} | {:.4} | {:.4} | {:.2} | {:.3} | {:.3} | {:.3} | {:.3} | {:.2} |",
                a.level,
                a.spheres,
                a.exact.mean_error,
                b.exact.mean_error,
                a.fitted.mean_error,
                b.fitted.mean_error,
                b.fitted.mean_error / a.exact.mean_error,
                a.exact.max_error,
                b.fitted.max_error,
                b.fitted.max_error / a.exact.max_error,
                a.exact.outside,
                b.exact.outside,
                a.fitted.outside,
                b.fitted.outside,
                b.fitted.outside / a.exact.outside
            );
        }
    }
    if only.is_some() {
        return;
    }
    let mesh = blob(1.0, 5, 6, 59);
    println!("\nblob, 20,480 triangles, rigid:");
    for tree in [TreeKind::Median, TreeKind::Medial] {
        for precision in [Precision::F32, Precision::F64] {
            let options = BuildOptions {
                tree,
                precision,
                ..BuildOptions::default()
            };
            let start = Instant::now();
            let (buf, report) = build(&mesh, None, options, &mut |_| {}).expect("build");
            println!(
                "  {tree:?} {precision:?}: build {:.2} s, image {} bytes ({} in the buffer)",
                start.elapsed().as_secs_f64(),
                report.bytes,
                buf.as_bytes().len()
            );
        }
    }
}
