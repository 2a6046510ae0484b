//! The fit of the median-split and the medial tree, level by level, with the same number of
//! spheres (both trees split every node in halves): on the chair, a closed 20,480-triangle blob
//! and a slender bar. Plus build time and image size of the blob's trees.
//!
//! Per node sphere, by sampling (deterministic seeds):
//! * **error**, Bradshaw's: the largest distance from the part of the sphere outside the body
//!   to the surface, estimated over 128 random points on the sphere (the largest distance to a
//!   body over a ball lies on its boundary) and measured to the nearest of 400,000 surface
//!   points (an over-estimate by at most their spacing, the same for both trees);
//! * **outside**: the sphere's volume outside the body, from 128 random points inside it.
//!
//! A level's row gives the mean and the largest error over its spheres (relative to the body's
//! bounding-box diagonal) and the summed outside volume over the body's volume.
//!
//! Run: `cargo run --release -p bdtree-std --example medial_fit`

use std::time::Instant;

use bdtree_core::image::tree::NodeKind;
use bdtree_std::build::medial::{Solid, SurfacePoints};
use bdtree_std::build::{build, BuildOptions, Precision, TreeKind};
use bdtree_std::io::Mesh;
use bdtree_std::rng::Rng;
use bdtree_std::shapes::chair_mesh;
use bdtree_std::shapes::procedural::{bar, blob};

struct Level {
    spheres: usize,
    mean_error: f64,
    max_error: f64,
    outside: f64,
}

fn volume(mesh: &Mesh) -> f64 {
    mesh.triangles
        .iter()
        .map(|f| {
            let [a, b, c] = f.map(|v| mesh.vertices[v as usize]);
            (a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0])
                + a[2] * (b[0] * c[1] - b[1] * c[0]))
                / 6.0
        })
        .sum()
}

fn levels(mesh: &Mesh, tree: TreeKind, solid: &Solid, surface: &SurfacePoints) -> Vec<Level> {
    let options = BuildOptions {
        tree,
        precision: Precision::F64,
        ..BuildOptions::default()
    };
    let (buf, _) = build(mesh, None, options, &mut |_| {}).expect("build");
    let image = buf.parse::<f64>().expect("parse");
    let t = &image.tree;
    let body = volume(mesh);
    let (lo, hi) = solid.bounds();
    let diagonal = (0..3).map(|k| (hi[k] - lo[k]).powi(2)).sum::<f64>().sqrt();
    let mut rng = Rng::new(59);
    (3..=10)
        .map(|level| {
            // Nodes at depth `level`, and leaves above it.
            let nodes: Vec<usize> = (0..t.node_count())
                .filter(|&k| {
                    let d = t.node_depth(k).expect("depth");
                    d == level || (d < level && matches!(t.kind(k), Some(NodeKind::Leaf { .. })))
                })
                .collect();
            let (mut sum, mut max, mut outside) = (0.0, 0.0f64, 0.0);
            for &k in &nodes {
                let [x, y, z, r] = t.rest_sphere(k).expect("sphere");
                let c = [x, y, z];
                let mut error = 0.0f64;
                let mut out = 0;
                for _ in 0..128 {
                    let d = rng.unit_vector();
                    let p = [0, 1, 2].map(|i| c[i] + r * d[i]);
                    if !solid.contains(p) {
                        error = error.max(surface.distance(p));
                    }
                    let s = r * rng.unit().cbrt();
                    let d = rng.unit_vector();
                    if !solid.contains([0, 1, 2].map(|i| c[i] + s * d[i])) {
                        out += 1;
                    }
                }
                sum += error;
                max = max.max(error);
                outside += 4.0 / 3.0 * std::f64::consts::PI * r.powi(3) * f64::from(out) / 128.0;
            }
            Level {
                spheres: nodes.len(),
                mean_error: sum / nodes.len() as f64 / diagonal,
                max_error: max / diagonal,
                outside: outside / body,
            }
        })
        .collect()
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
        let solid = Solid::new(mesh).expect("closed");
        let surface = SurfacePoints::new(mesh, 400_000, 7);
        let median = levels(mesh, TreeKind::Median, &solid, &surface);
        let medial = levels(mesh, TreeKind::Medial, &solid, &surface);
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
