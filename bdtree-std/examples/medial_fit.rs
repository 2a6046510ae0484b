//! The fit of the median-split and the medial tree, level by level, with the same number of
//! spheres (both trees split every node in halves): on the chair, a closed 20,480-triangle blob
//! and a slender bar. Plus build time and image size of the blob's trees.
//!
//! The measure is the library's ([`bdtree_std::build::fit`]): per level, the mean and the
//! largest Bradshaw error over its spheres (relative to the body's bounding-box diagonal) and
//! the summed outside volume over the body's volume.
//!
//! Run: `cargo run --release -p bdtree-std --example medial_fit`

use std::time::Instant;

use bdtree_std::build::fit::{level_spheres, Fit, FitRow};
use bdtree_std::build::{build, BuildOptions, Precision, TreeKind};
use bdtree_std::io::Mesh;
use bdtree_std::shapes::chair_mesh;
use bdtree_std::shapes::procedural::{bar, blob};

fn levels(mesh: &Mesh, tree: TreeKind, fit: &Fit) -> Vec<FitRow> {
    let options = BuildOptions {
        tree,
        precision: Precision::F64,
        ..BuildOptions::default()
    };
    let (buf, _) = build(mesh, None, options, &mut |_| {}).expect("build");
    let image = buf.parse::<f64>().expect("parse");
    fit.rows(&level_spheres(&image.tree, 3..=10))
}

fn main() {
    // `--timing`: only the build times and sizes.
    let timing_only = std::env::args().any(|a| a == "--timing");
    let cases: Vec<(&str, Mesh)> = vec![
        ("chair", chair_mesh()),
        ("blob (20,480 triangles)", blob(1.0, 5, 6, 59)),
        ("bar 2 x 0.1 (2,052 triangles)", bar(2.0, 0.1, 256)),
    ];
    for (name, mesh) in cases.iter().filter(|_| !timing_only) {
        let fit = Fit::new(mesh).expect("closed");
        let median = levels(mesh, TreeKind::Median, &fit);
        let medial = levels(mesh, TreeKind::Medial, &fit);
        println!("\n{name}: error = Bradshaw's (/ bbox diagonal), outside = Σ volume outside / body volume");
        println!(
            "| level | spheres | median err mean | medial err mean | ratio | median err max | medial err max | ratio | median outside | medial outside | ratio |"
        );
        println!("|---|---|---|---|---|---|---|---|---|---|---|");
        for (l, (a, b)) in median.iter().zip(&medial).enumerate() {
            assert_eq!(a.spheres, b.spheres);
            println!(
                "| {} | {} | {:.4} | {:.4} | {:.2} | {:.4} | {:.4} | {:.2} | {:.3} | {:.3} | {:.2} |",
                l + 3,
                a.spheres,
                a.mean_error,
                b.mean_error,
                b.mean_error / a.mean_error,
                a.max_error,
                b.max_error,
                b.max_error / a.max_error,
                a.outside,
                b.outside,
                b.outside / a.outside
            );
        }
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
