//! `cargo xtask fixtures [--check]`: the committed fixture data, generated from code.
//!
//! Procedural meshes (OBJ), smooth analytic bases (.npy), scenes whose bodies move through
//! contact (JSON), and the expected answer of every scene frame from the f64 brute-force oracle
//! (JSON lines, the `pairs` of `bdtree collide --json`). Everything is deterministic, so
//! `--check` can compare byte for byte.

use std::collections::BTreeMap;
use std::f64::consts::PI;
use std::path::{Path, PathBuf};

use bdtree_std::basis::{write_npy, Basis};
use bdtree_std::collide::brute_force_frame;
use bdtree_std::mesh::{write_obj, Mesh};
use bdtree_std::procedural::{bar, blob, icosphere, sheet, smooth_basis, torus, translate};
use bdtree_std::scene::{BodyFrame, BodySpec, FrameSpec, Scene, SceneFile};

/// File contents by path relative to `fixtures/`.
pub type Files = BTreeMap<PathBuf, Vec<u8>>;

struct BodyDef {
    name: &'static str,
    mesh: Mesh,
    basis: Option<Basis>,
}

fn body(name: &'static str, mesh: Mesh, modes: usize, amplitude: f64) -> BodyDef {
    let basis = (modes > 0).then(|| smooth_basis(&mesh.vertices, modes, amplitude));
    BodyDef { name, mesh, basis }
}

fn axis_angle(axis: [f64; 3], angle: f64) -> [f64; 4] {
    let n = (axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]).sqrt();
    let (s, c) = (angle / 2.0).sin_cos();
    [c, axis[0] / n * s, axis[1] / n * s, axis[2] / n * s]
}

/// Rounds to 9 significant digits so the JSON stays readable; the scene holds exactly these values.
fn tidy(x: f64) -> f64 {
    format!("{x:.9e}").parse().unwrap_or(x)
}

fn frame(rotation: [f64; 4], translation: [f64; 3], q: Vec<f64>) -> BodyFrame {
    // Renormalise after tidying so the quaternion is unit to f64 precision.
    let r = rotation.map(tidy);
    let n = r.iter().map(|x| x * x).sum::<f64>().sqrt();
    BodyFrame {
        rotation: r.map(|x| x / n),
        translation: translation.map(tidy),
        q: q.into_iter().map(tidy).collect(),
    }
}

fn modes_of(b: &BodyDef) -> usize {
    b.basis.as_ref().map_or(0, |b| b.modes)
}

/// Smooth reduced coordinates: mode j oscillates with its own frequency and phase.
fn wave(modes: usize, time: f64, scale: f64) -> Vec<f64> {
    (0..modes)
        .map(|j| scale * (time * (1.0 + 0.37 * j as f64) + 0.9 * j as f64).sin())
        .collect()
}

struct SceneDef {
    name: &'static str,
    bodies: Vec<BodyDef>,
    frames: Vec<Vec<BodyFrame>>,
}

fn scenes() -> Vec<SceneDef> {
    let id = [1.0, 0.0, 0.0, 0.0];
    let mut out = Vec::new();

    // demo: a deforming ball falls through a waving cloth next to a wobbling ring.
    {
        let bodies = vec![
            body("cloth", sheet(2.0, 2.0, 24, 24), 8, 0.12),
            body("ball", icosphere(0.35, 3), 6, 0.05),
            body("ring", torus(0.45, 0.12, 32, 12), 4, 0.04),
        ];
        let frames = (0..24)
            .map(|f| {
                let t = f as f64 / 23.0;
                vec![
                    frame(
                        id,
                        [0.0, 0.0, 0.0],
                        wave(modes_of(&bodies[0]), 6.0 * t, 1.0),
                    ),
                    frame(
                        axis_angle([0.3, 1.0, 0.2], 2.0 * t),
                        [0.2, -0.1, 0.6 - 1.2 * t],
                        wave(6, 9.0 * t, 1.0),
                    ),
                    frame(
                        axis_angle([1.0, 0.0, 0.0], PI / 2.0 + 0.4 * t),
                        [0.55, 0.35, 0.3 - 0.5 * t],
                        wave(4, 5.0 * t, 1.0),
                    ),
                ]
            })
            .collect();
        out.push(SceneDef {
            name: "demo",
            bodies,
            frames,
        });
    }

    // thin: a long bar of elongated triangles sweeping across a thin sheet.
    {
        let bodies = vec![
            body("sheet", sheet(1.6, 1.2, 12, 9), 5, 0.08),
            body("bar", bar(2.0, 0.05, 24), 3, 0.04),
        ];
        let frames = (0..10)
            .map(|f| {
                let t = f as f64 / 9.0;
                vec![
                    frame(id, [0.0; 3], wave(5, 4.0 * t, 1.0)),
                    frame(
                        axis_angle([0.0, 1.0, 0.3], 0.2 + 0.6 * t),
                        [0.1, -0.5 + t, 0.15 - 0.3 * t],
                        wave(3, 7.0 * t, 1.0),
                    ),
                ]
            })
            .collect();
        out.push(SceneDef {
            name: "thin",
            bodies,
            frames,
        });
    }

    // touching: exact contact (coplanar faces, a vertex on a face) and near misses by 1e-3.
    {
        let mut resting = bar(1.0, 0.125, 8);
        translate(&mut resting, [0.0, 0.0, 0.0625]);
        let mut ball = icosphere(0.25, 2);
        let lowest = ball
            .vertices
            .iter()
            .map(|v| v[2])
            .fold(f64::INFINITY, f64::min);
        translate(&mut ball, [0.0, 0.0, -lowest]);
        let bodies = vec![
            body("floor", sheet(2.0, 2.0, 8, 8), 0, 0.0),
            body("block", resting, 0, 0.0),
            body("ball", ball, 0, 0.0),
        ];
        let lifts = [0.0, 1e-3, 0.0, 1e-3];
        let frames = lifts
            .iter()
            .enumerate()
            .map(|(f, &lift)| {
                vec![
                    frame(id, [0.0; 3], vec![]),
                    frame(id, [0.0, -0.5, lift], vec![]),
                    frame(
                        id,
                        [0.5, 0.5, if f < 2 { lift } else { 1e-3 - lift }],
                        vec![],
                    ),
                ]
            })
            .collect();
        out.push(SceneDef {
            name: "touching",
            bodies,
            frames,
        });
    }

    // rigid: a rigid bumpy blob against a deforming torus.
    {
        let bodies = vec![
            body("blob", blob(0.4, 3, 6, 7), 0, 0.0),
            body("torus", torus(0.5, 0.15, 24, 10), 6, 0.06),
        ];
        let frames = (0..8)
            .map(|f| {
                let t = f as f64 / 7.0;
                vec![
                    frame(axis_angle([0.0, 0.0, 1.0], t), [0.0, 0.0, 0.0], vec![]),
                    frame(
                        axis_angle([1.0, 0.2, 0.0], 1.0 + t),
                        [0.9 - 0.6 * t, 0.05, 0.0],
                        wave(6, 5.0 * t, 1.0),
                    ),
                ]
            })
            .collect();
        out.push(SceneDef {
            name: "rigid",
            bodies,
            frames,
        });
    }
    out
}

/// Generates every fixture file. Scenes are loaded back through the public loaders before their
/// expected answers are computed, so the answers are those of the files as written.
pub fn generate(root: &Path) -> Result<Files, String> {
    let mut files = Files::new();
    let scratch = std::env::temp_dir().join(format!("bdtree-fixtures-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    for scene in scenes() {
        let mut specs = Vec::new();
        for b in &scene.bodies {
            let mesh_rel = PathBuf::from(format!("meshes/{}-{}.obj", scene.name, b.name));
            let mut obj = Vec::new();
            write_obj(&b.mesh, &mut obj).map_err(|e| e.to_string())?;
            files.insert(mesh_rel.clone(), obj);
            let modes_rel = b.basis.as_ref().map(|basis| {
                let rel = PathBuf::from(format!("modes/{}-{}.npy", scene.name, b.name));
                let mut npy = Vec::new();
                let _ = write_npy(basis, &mut npy);
                files.insert(rel.clone(), npy);
                rel
            });
            specs.push(BodySpec {
                name: b.name.to_string(),
                mesh: Path::new("..").join(mesh_rel),
                modes: modes_rel.map(|r| Path::new("..").join(r)),
            });
        }
        let frames = scene
            .frames
            .into_iter()
            .map(|bodies| FrameSpec { bodies })
            .collect();
        let file = SceneFile {
            bodies: specs,
            frames,
        };
        let scene_rel = PathBuf::from(format!("scenes/{}.json", scene.name));
        let json = serde_json::to_string_pretty(&file).map_err(|e| e.to_string())? + "\n";
        files.insert(scene_rel.clone(), json.into_bytes());

        // Load back what would be written, from a scratch copy, and answer it by brute force.
        for (rel, bytes) in &files {
            let path = scratch.join(rel);
            std::fs::create_dir_all(path.parent().unwrap_or(&scratch))
                .map_err(|e| e.to_string())?;
            std::fs::write(&path, bytes).map_err(|e| e.to_string())?;
        }
        let loaded = Scene::load(&scratch.join(&scene_rel)).map_err(|e| e.to_string())?;
        let mut expected = String::new();
        for f in 0..loaded.frames.len() {
            let pairs: Vec<serde_json::Value> = brute_force_frame(&loaded, f)
                .into_iter()
                .map(|(a, b, ta, tb)| {
                    serde_json::json!([loaded.bodies[a].name, loaded.bodies[b].name, ta, tb])
                })
                .collect();
            expected += &serde_json::json!({ "frame": f, "pairs": pairs }).to_string();
            expected.push('\n');
        }
        files.insert(
            PathBuf::from(format!("expected/{}.jsonl", scene.name)),
            expected.into_bytes(),
        );
    }
    let _ = std::fs::remove_dir_all(&scratch);
    let _ = root;
    Ok(files)
}

/// Writes the fixtures under `root`, or with `check` reports every file that differs.
pub fn run(root: &Path, check: bool) -> Result<(), Vec<String>> {
    let files = generate(root).map_err(|e| vec![e])?;
    let mut problems = Vec::new();
    for (rel, bytes) in &files {
        let path = root.join(rel);
        let current = std::fs::read(&path).ok();
        if current.as_deref() == Some(bytes.as_slice()) {
            continue;
        }
        if check {
            problems.push(format!(
                "{} is stale (run `cargo xtask fixtures`)",
                path.display()
            ));
        } else {
            if let Some(dir) = path.parent() {
                let _ = std::fs::create_dir_all(dir);
            }
            if let Err(e) = std::fs::write(&path, bytes) {
                problems.push(format!("{}: {e}", path.display()));
            } else {
                println!("wrote {}", path.display());
            }
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems)
    }
}
