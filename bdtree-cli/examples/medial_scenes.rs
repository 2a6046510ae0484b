//! Writes the two scenes the book's medial-tree chapter measures both trees on
//! (`docs/src/concepts/medial.md`), so that `bdtree interrupt` and `bdtree collide` run on them
//! with `--tree median` and `--tree medial`:
//!
//! * `chairs.json`: 12 flexing chairs dropped on each other (the demo's simulation,
//!   [`bdtree_cli::sim::chairs`], 600 steps), each with the demo's 10 vibration modes: the
//!   busiest step pressed together in six frames (positions drawn towards the chairs'
//!   centroid by 0 to 30 %: the demo's chairs rest on their contact proxies' spheres,
//!   triangles apart, so they are pressed into triangle contact);
//! * `fem.json`: two closed bumpy bodies of 5,120 triangles each, with 8 vibration modes each
//!   from the modal analysis ([`bdtree_std::modal`], the `bdtree modes` of a soft solid, E = 1
//!   MPa), pressed into each other over eight frames while flexing.
//!
//!
//! and two closed meshes for build times: `blob20k.obj` (20,480 triangles) and
//! `torus100k.obj` (100,000 triangles).
//!
//! ```sh
//! cargo run --release -p bdtree-cli --example medial_scenes -- target/medial-scenes
//! ```

use std::path::{Path, PathBuf};

use bdtree_cli::sim::chairs::{prepare_chair, simulate, ChairOptions};
use bdtree_std::io::{
    write_npy, write_obj, Basis, BodyFrame, BodySpec, FrameSpec, Mesh, SceneFile,
};
use bdtree_std::modal::{compute_modes, ModalOptions};
use bdtree_std::shapes::chair_mesh;
use bdtree_std::shapes::procedural::{blob, torus};

fn write_files(dir: &Path, name: &str, mesh: &Mesh, basis: &Basis) -> Result<(), String> {
    let mut obj = Vec::new();
    write_obj(mesh, &mut obj).map_err(|e| e.to_string())?;
    std::fs::write(dir.join(format!("{name}.obj")), obj).map_err(|e| e.to_string())?;
    let mut npy = Vec::new();
    write_npy(basis, &mut npy).map_err(|e| e.to_string())?;
    std::fs::write(dir.join(format!("{name}.npy")), npy).map_err(|e| e.to_string())
}

fn body(name: String, file: &str) -> BodySpec {
    BodySpec::mesh(
        name,
        format!("{file}.obj"),
        Some(PathBuf::from(format!("{file}.npy"))),
    )
}

fn chairs(dir: &Path) -> Result<(), String> {
    let count = 12;
    let chair = prepare_chair(chair_mesh()).map_err(|e| e.to_string())?;
    let options = ChairOptions {
        count,
        steps: 600,
        ..ChairOptions::default()
    };
    let trajectory = simulate(&chair, &options, &mut |_, _| {}).map_err(|e| e.to_string())?;
    write_files(dir, "chair", &chair.mesh, &chair.basis)?;
    // The busiest step (most proxy contacts): the chairs rest on their proxies' spheres,
    // their triangles apart. Six frames press them together: every chair's position drawn
    // towards the chairs' centroid by 0, 6, …, 30 %, the step's orientations and deformations
    // kept.
    let busiest = (0..trajectory.reports.len())
        .max_by_key(|&s| trajectory.reports[s].contacts)
        .unwrap_or(0);
    let placements = &trajectory.steps[busiest];
    let centroid = [0, 1, 2]
        .map(|k| placements.iter().map(|p| p.x[k]).sum::<f64>() / placements.len().max(1) as f64);
    let frames = (0..6)
        .map(|k| {
            let scale = 1.0 - 0.06 * k as f64;
            FrameSpec {
                bodies: placements
                    .iter()
                    .map(|p| BodyFrame {
                        rotation: p.rotation,
                        translation: [0, 1, 2]
                            .map(|i| centroid[i] + scale * (p.x[i] - centroid[i])),
                        q: p.q.to_vec(),
                    })
                    .collect(),
            }
        })
        .collect();
    println!(
        "chairs: step {busiest} of {} ({} proxy contacts)",
        trajectory.reports.len(),
        trajectory.reports[busiest].contacts
    );
    let scene = SceneFile {
        bodies: (0..count)
            .map(|i| body(format!("chair{i}"), "chair"))
            .collect(),
        frames,
    };
    scene
        .write(&dir.join("chairs.json"))
        .map_err(|e| e.to_string())
}

fn fem(dir: &Path) -> Result<(), String> {
    let options = ModalOptions {
        modes: 8,
        ..ModalOptions::default()
    };
    let meshes = [blob(0.5, 4, 6, 59), blob(0.5, 4, 7, 60)];
    let mut names = Vec::new();
    for (i, mesh) in meshes.iter().enumerate() {
        let modes = compute_modes(mesh, &options, &mut |_| {}).map_err(|e| e.to_string())?;
        let name = format!("fem{i}");
        write_files(dir, &name, mesh, &modes.basis)?;
        names.push(name);
    }
    // Body 1 moves in along x from touching to 0.3 deep, both flexing (q up to 0.04 of a
    // metre-scale mode: 4 cm of a 1 m body).
    let frames = (0..8)
        .map(|k| {
            let t = k as f64 / 7.0;
            let q = |phase: f64| -> Vec<f64> {
                (0..8)
                    .map(|j| 0.04 * (phase + t * 3.0 + j as f64).sin() / (1.0 + j as f64 * 0.5))
                    .collect()
            };
            let half = (0.3 * t).sin_cos();
            FrameSpec {
                bodies: vec![
                    BodyFrame {
                        rotation: [1.0, 0.0, 0.0, 0.0],
                        translation: [0.0; 3],
                        q: q(0.0),
                    },
                    BodyFrame {
                        rotation: [half.1, 0.0, 0.0, half.0],
                        translation: [1.15 - 0.3 * t, 0.1, -0.05],
                        q: q(1.3),
                    },
                ],
            }
        })
        .collect();
    let scene = SceneFile {
        bodies: names.iter().map(|n| body(n.clone(), n)).collect(),
        frames,
    };
    scene
        .write(&dir.join("fem.json"))
        .map_err(|e| e.to_string())
}

/// The build-time meshes: the 20,480-triangle blob of `examples/medial_fit.rs` and a
/// 100,000-triangle torus.
fn large(dir: &Path) -> Result<(), String> {
    for (name, mesh) in [
        ("blob20k", blob(1.0, 5, 6, 59)),
        ("torus100k", torus(1.0, 0.3, 250, 200)),
    ] {
        let mut obj = Vec::new();
        write_obj(&mesh, &mut obj).map_err(|e| e.to_string())?;
        std::fs::write(dir.join(format!("{name}.obj")), obj).map_err(|e| e.to_string())?;
    }
    Ok(())
}

fn main() -> Result<(), String> {
    let dir = PathBuf::from(
        std::env::args()
            .nth(1)
            .unwrap_or_else(|| "target/medial-scenes".into()),
    );
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    large(&dir)?;
    println!("wrote blob20k.obj, torus100k.obj");
    fem(&dir)?;
    println!("wrote {}", dir.join("fem.json").display());
    chairs(&dir)?;
    println!("wrote {}", dir.join("chairs.json").display());
    Ok(())
}
