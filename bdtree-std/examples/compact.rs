//! The size/tightness table of compact images (issue: compact tree images for flash).
//!
//! A torus of 10,752 triangles with its 16 lowest vibration modes (the modal pipeline,
//! `bdtree modes`), built nested in f32, then compacted to every format, complete (mesh in f32 or
//! in 16 bits) and bounded at a few depths. For each image: bytes, tree bytes per node, mean radius growth, and the sphere
//! overlap tests of 200 proxy queries between two placed copies against the complete f32 image
//! queried at the same proxy depth (`bdtree_std::runner::inspect::compare`).
//!
//! ```sh
//! cargo run --release -p bdtree-std --example compact            # the table
//! cargo run --release -p bdtree-std --example compact -- --write DIR   # also write the images
//! ```

use bdtree_core::Encoding;
use bdtree_std::build::{build, compact, BuildOptions, Precision};
use bdtree_std::modal::{compute_modes, ModalOptions};
use bdtree_std::runner::inspect::compare;
use bdtree_std::shapes::procedural::torus;

fn main() {
    let write = std::env::args()
        .skip_while(|a| a != "--write")
        .nth(1)
        .map(std::path::PathBuf::from);
    let mesh = torus(0.5, 0.18, 96, 56);
    let options = ModalOptions {
        modes: 16,
        resolution: Some(20),
        ..ModalOptions::default()
    };
    let modes = compute_modes(&mesh, &options, &mut |_| {}).expect("modes of the torus");
    let build_options = BuildOptions {
        precision: Precision::F32,
        nested: true,
        ..BuildOptions::default()
    };
    let (full_buf, _) =
        build(&mesh, Some(&modes.basis), build_options, &mut |_| {}).expect("build");
    let full = full_buf.parse::<f32>().expect("full image");
    println!(
        "torus: {} triangles, {} vertices, M = {} (modes {:.1}–{:.1} Hz); complete f32 image: {} nodes, depth {}, {} bytes ({:.1} KiB)",
        mesh.triangles.len(),
        mesh.vertices.len(),
        full.tree.modes(),
        modes.frequencies_hz.first().copied().unwrap_or(0.0),
        modes.frequencies_hz.last().copied().unwrap_or(0.0),
        full.tree.node_count(),
        full.tree.depth(),
        full_buf.as_bytes().len(),
        full_buf.as_bytes().len() as f64 / 1024.0
    );
    if let Some(dir) = &write {
        std::fs::create_dir_all(dir).expect("output directory");
        std::fs::write(dir.join("torus-f32.bdt"), full_buf.as_bytes()).expect("write");
    }
    println!(
        "| format | depth | nodes | bytes | KiB | tree B/node | mean ‖ΔR‖ ×f32 | overlap tests/query | ×f32 at same proxy depth | proxy pairs/query | ≤ 256 KiB |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|:-:|");
    let depths = [None, Some(11), Some(10), Some(9), Some(8)];
    let mut cases: Vec<(Encoding, Option<u32>, bool)> = Vec::new();
    for encoding in [Encoding::Float, Encoding::Q16, Encoding::Q8] {
        for depth in depths {
            cases.push((encoding, depth, false));
        }
        // Complete, with the mesh and basis in 16 bits.
        cases.push((encoding, None, true));
    }
    for (encoding, depth, model_q16) in cases {
        {
            let (buf, report) = compact(&full, encoding, depth, model_q16).expect("compact");
            buf.parse::<f32>().expect("compact image parses");
            let c = compare(&buf, &full_buf, 200).expect("same tree");
            let rows = match encoding {
                Encoding::Float => "f32",
                other => other.name(),
            };
            let name = if model_q16 {
                format!("{rows} + 16-bit mesh")
            } else {
                rows.to_string()
            };
            if let Some(dir) = &write {
                let file = match (depth, model_q16) {
                    (Some(l), _) => format!("torus-{rows}-d{l}.bdt"),
                    (None, true) => format!("torus-{rows}-m16.bdt"),
                    (None, false) => format!("torus-{rows}.bdt"),
                };
                std::fs::write(dir.join(file), buf.as_bytes()).expect("write");
            }
            let bytes = buf.as_bytes().len();
            println!(
                "| {name} | {} | {} | {} | {:.1} | {:.1} | {:.3} | {:.1} | {:.3} | {:.1} | {} |",
                depth.map_or_else(|| format!("full ({})", report.depth), |l| l.to_string()),
                report.nodes,
                bytes,
                bytes as f64 / 1024.0,
                report.tree_bytes_per_node,
                c.mean_growth / c.reference_mean_growth.max(1e-300),
                c.overlap_tests,
                c.test_ratio(),
                c.proxy_pairs,
                if bytes <= 256 * 1024 { "yes" } else { "no" },
            );
        }
    }
}
