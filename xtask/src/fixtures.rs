//! `cargo xtask fixtures [--check]`: the committed fixture data, generated from code.
//!
//! Procedural meshes (OBJ); displacement bases (.npy): vibration modes from
//! [`bdtree_std::modal`] for the closed bodies and smooth analytic fields for the open sheets;
//! scenes whose bodies move through contact (JSON); and the expected answer of every scene frame
//! from the f64 brute-force oracle (JSON lines, the `pairs` of `bdtree collide --json`).
//!
//! Meshes, analytic bases, scenes and answers are deterministic and compared byte for byte.
//! Vibration modes come out of an iterative eigensolver whose last digits depend on the
//! floating-point path (SIMD width, summation order), and a mode of a repeated frequency is any
//! vector of its eigenspace, so a committed modal basis is compared by the space it spans:
//! it is kept when every freshly computed mode lies in the span of the committed columns to a
//! relative residual of [`SPAN_TOLERANCE`] (and the shapes agree); otherwise it is stale.
//! The expected answers are always computed from the bases as written, so they answer the
//! committed files exactly. Every modal basis is cut at a clear frequency gap
//! (`f_{k+1} / f_k ≥ 1 +` [`MIN_CUT_GAP`]), so its span is well defined.

use std::collections::BTreeMap;
use std::f64::consts::PI;
use std::path::{Path, PathBuf};

use bdtree_std::io::{
    parse_npy, write_npy, write_obj, Basis, BodyFrame, BodySpec, FrameSpec, Mesh, Scene, SceneFile,
};
use bdtree_std::modal::{compute_modes, ModalOptions};
use bdtree_std::runner::brute_force_frame_with;
use bdtree_std::shapes::bspline_patch;
use bdtree_std::shapes::procedural::{bar, blob, icosphere, sheet, smooth_basis, torus, translate};

/// File contents by path relative to `fixtures/`.
pub type Files = BTreeMap<PathBuf, Vec<u8>>;

/// Largest relative residual `‖u − P u‖ / ‖u‖` of a fresh mode `u` projected (`P`) on the span
/// of the committed basis for that basis to count as unchanged. Round-off differences between
/// machines stay far below it; any change of mesh, material, lattice or mode count exceeds it.
const SPAN_TOLERANCE: f64 = 1e-5;

/// Smallest relative gap between the last kept frequency and the next one.
const MIN_CUT_GAP: f64 = 0.02;

struct BodyDef {
    name: &'static str,
    mesh: Mesh,
    basis: Option<Basis>,
    /// Whether the basis is a modal analysis' (compared by span, see the module docs).
    modal: bool,
}

/// A body with `modes` smooth analytic fields of largest displacement `amplitude` (or rigid).
fn body(name: &'static str, mesh: Mesh, modes: usize, amplitude: f64) -> BodyDef {
    let basis = (modes > 0).then(|| smooth_basis(&mesh.vertices, modes, amplitude));
    BodyDef {
        name,
        mesh,
        basis,
        modal: false,
    }
}

/// A body moved by its `modes` lowest vibration modes (a soft rubber-like solid, the
/// [`ModalOptions`] defaults, on the lattice the analysis chooses from the body's thickness),
/// each scaled to a largest vertex displacement of `amplitude`.
fn modal_body(
    name: &'static str,
    mesh: Mesh,
    modes: usize,
    amplitude: f64,
) -> Result<BodyDef, String> {
    let options = ModalOptions {
        modes: modes + 1,
        ..ModalOptions::default()
    };
    let analysis =
        compute_modes(&mesh, &options, &mut |_| {}).map_err(|e| format!("modes of {name}: {e}"))?;
    let f = &analysis.frequencies_hz;
    if f[modes] < f[modes - 1] * (1.0 + MIN_CUT_GAP) {
        return Err(format!(
            "modes of {name}: {modes} modes cut a cluster ({:.4} Hz then {:.4} Hz); \
             choose a count at a frequency gap",
            f[modes - 1],
            f[modes]
        ));
    }
    let full = &analysis.basis;
    let mut basis = Basis::zeros(full.vertices, modes);
    for row in 0..3 * full.vertices {
        for j in 0..modes {
            basis.data[row * modes + j] = amplitude * full.data[row * full.modes + j];
        }
    }
    Ok(BodyDef {
        name,
        mesh,
        basis: Some(basis),
        modal: true,
    })
}

/// Largest relative residual of a column of `fresh` projected on the span of `committed`'s
/// columns (least squares through the normal equations, k ≤ a dozen), or infinity when the
/// shapes differ or `committed` is rank-deficient.
fn span_residual(fresh: &Basis, committed: &Basis) -> f64 {
    if fresh.vertices != committed.vertices || fresh.modes != committed.modes {
        return f64::INFINITY;
    }
    let (k, rows) = (committed.modes, 3 * committed.vertices);
    let c = |r: usize, j: usize| committed.data[r * k + j];
    let u = |r: usize, j: usize| fresh.data[r * k + j];
    // Gram matrix G = CᵀC, factored G = LLᵀ.
    let mut l = vec![0.0; k * k];
    for i in 0..k {
        for j in 0..=i {
            let mut g: f64 = (0..rows).map(|r| c(r, i) * c(r, j)).sum();
            for p in 0..j {
                g -= l[i * k + p] * l[j * k + p];
            }
            if i == j {
                if g <= 0.0 {
                    return f64::INFINITY;
                }
                l[i * k + i] = g.sqrt();
            } else {
                l[i * k + j] = g / l[j * k + j];
            }
        }
    }
    let mut worst: f64 = 0.0;
    for j in 0..k {
        // x = G⁻¹ Cᵀ u_j, then the residual u_j − C x.
        let mut x: Vec<f64> = (0..k)
            .map(|i| (0..rows).map(|r| c(r, i) * u(r, j)).sum())
            .collect();
        for i in 0..k {
            let s: f64 = (0..i).map(|p| l[i * k + p] * x[p]).sum();
            x[i] = (x[i] - s) / l[i * k + i];
        }
        for i in (0..k).rev() {
            let s: f64 = (i + 1..k).map(|p| l[p * k + i] * x[p]).sum();
            x[i] = (x[i] - s) / l[i * k + i];
        }
        let (mut res, mut norm) = (0.0, 0.0);
        for r in 0..rows {
            let fit: f64 = (0..k).map(|i| c(r, i) * x[i]).sum();
            res += (u(r, j) - fit).powi(2);
            norm += u(r, j).powi(2);
        }
        worst = worst.max((res / norm).sqrt());
    }
    worst
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
    /// Whether the expected answers include each body's self-collisions (`bdtree collide
    /// --self`); their lines then carry `"self": true`.
    self_pairs: bool,
    /// The folder of the scene file under `fixtures/`: `scenes` (the fixture scenes every
    /// frame-by-frame check and the firmware pack run), or `swept` (scenes for swept queries).
    folder: &'static str,
}

fn scenes() -> Result<Vec<SceneDef>, String> {
    let id = [1.0, 0.0, 0.0, 0.0];
    let mut out = Vec::new();

    // demo: a deforming ball falls through a waving cloth next to a wobbling ring.
    {
        let bodies = vec![
            body("cloth", sheet(2.0, 2.0, 24, 24), 8, 0.12),
            modal_body("ball", icosphere(0.35, 3), 5, 0.05)?,
            modal_body("ring", torus(0.45, 0.12, 32, 12), 4, 0.04)?,
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
                        wave(modes_of(&bodies[1]), 9.0 * t, 1.0),
                    ),
                    frame(
                        axis_angle([1.0, 0.0, 0.0], PI / 2.0 + 0.4 * t),
                        [0.55, 0.35, 0.3 - 0.5 * t],
                        wave(modes_of(&bodies[2]), 5.0 * t, 1.0),
                    ),
                ]
            })
            .collect();
        out.push(SceneDef {
            name: "demo",
            bodies,
            frames,
            self_pairs: false,
            folder: "scenes",
        });
    }

    // thin: a long bar of elongated triangles sweeping across a thin sheet.
    {
        let bodies = vec![
            body("sheet", sheet(1.6, 1.2, 12, 9), 5, 0.08),
            modal_body("bar", bar(2.0, 0.05, 24), 4, 0.04)?,
        ];
        let frames = (0..10)
            .map(|f| {
                let t = f as f64 / 9.0;
                vec![
                    frame(id, [0.0; 3], wave(modes_of(&bodies[0]), 4.0 * t, 1.0)),
                    frame(
                        axis_angle([0.0, 1.0, 0.3], 0.2 + 0.6 * t),
                        [0.1, -0.5 + t, 0.15 - 0.3 * t],
                        wave(modes_of(&bodies[1]), 7.0 * t, 1.0),
                    ),
                ]
            })
            .collect();
        out.push(SceneDef {
            name: "thin",
            bodies,
            frames,
            self_pairs: false,
            folder: "scenes",
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
            self_pairs: false,
            folder: "scenes",
        });
    }

    // rigid: a rigid bumpy blob against a deforming torus.
    {
        let bodies = vec![
            body("blob", blob(0.4, 3, 6, 7), 0, 0.0),
            modal_body("torus", torus(0.5, 0.15, 24, 10), 5, 0.06)?,
        ];
        let frames = (0..8)
            .map(|f| {
                let t = f as f64 / 7.0;
                vec![
                    frame(axis_angle([0.0, 0.0, 1.0], t), [0.0, 0.0, 0.0], vec![]),
                    frame(
                        axis_angle([1.0, 0.2, 0.0], 1.0 + t),
                        [0.9 - 0.6 * t, 0.05, 0.0],
                        wave(modes_of(&bodies[1]), 5.0 * t, 1.0),
                    ),
                ]
            })
            .collect();
        out.push(SceneDef {
            name: "rigid",
            bodies,
            frames,
            self_pairs: false,
            folder: "scenes",
        });
    }
    // fold: a curtain folding onto itself (self-collisions), a cloth-like B-spline patch
    // pushed by its control points into it, and a bar bending through both.
    {
        let curtain_mesh = sheet(1.6, 1.0, 16, 10);
        let mut fold = Basis::zeros(curtain_mesh.vertices.len(), 2);
        for (i, v) in curtain_mesh.vertices.iter().enumerate() {
            if v[0] > 0.0 {
                // q0 swings the right half over the left (mirror in x, lifted with y); q1 waves.
                fold.data[3 * i * 2] = -2.0 * v[0];
                fold.data[(3 * i + 2) * 2] = 0.5 * v[0] * (v[1] + 0.13);
            }
            fold.data[(3 * i + 2) * 2 + 1] = 0.05 * (3.0 * v[0]).sin();
        }
        let curtain = BodyDef {
            name: "curtain",
            mesh: curtain_mesh,
            basis: Some(fold),
            modal: false,
        };
        let patch = bspline_patch(0.8, 0.6, [6, 5], 3, [13, 11])
            .ok_or("the fold scene's B-spline patch")?;
        let mut patch_mesh = patch.mesh;
        translate(&mut patch_mesh, [-0.4, 0.0, 0.25]);
        let mut patch_basis = patch.basis;
        // Scale the control-point displacements so q ~ 1 moves a control point by 0.1.
        for x in patch_basis.data.iter_mut() {
            *x *= 0.1;
        }
        let cloth = BodyDef {
            name: "cloth",
            mesh: patch_mesh,
            basis: Some(patch_basis),
            modal: false,
        };
        let bodies = vec![
            curtain,
            cloth,
            modal_body("bar", bar(1.6, 0.05, 20), 4, 0.05)?,
        ];
        let m_cloth = modes_of(&bodies[1]);
        let frames = (0..8)
            .map(|f| {
                let t = f as f64 / 7.0;
                // Control points move down in z, one after another, and wave.
                let cloth_q: Vec<f64> = (0..m_cloth)
                    .map(|j| {
                        let (c, axis) = (j / 3, j % 3);
                        if axis == 2 {
                            -2.5 * t * (1.0 + 0.3 * (c as f64 * 0.7).sin())
                        } else {
                            0.3 * (c as f64 + 4.0 * t).sin()
                        }
                    })
                    .collect();
                vec![
                    frame(id, [0.0; 3], vec![1.25 * t, (6.0 * t).sin()]),
                    frame(id, [0.0; 3], cloth_q),
                    frame(
                        axis_angle([0.0, 0.0, 1.0], 1.2),
                        [-0.3, 0.0, 0.3 - 0.4 * t],
                        wave(modes_of(&bodies[2]), 6.0 * t, 1.0),
                    ),
                ]
            })
            .collect();
        out.push(SceneDef {
            name: "fold",
            bodies,
            frames,
            self_pairs: true,
            folder: "scenes",
        });
    }
    // tunnel: tunnelling between ticks. A small ball drops through a waving sheet in one step
    // (above it at frame 1, below it at frame 2) and a blade swings half a turn through it
    // between frames 0 and 1; no frame has a contact, every motion but the last has some.
    {
        let bodies = vec![
            body("sheet", sheet(1.2, 1.2, 12, 12), 4, 0.02),
            body("ball", icosphere(0.08, 2), 3, 0.015),
            body("blade", bar(0.9, 0.04, 12), 2, 0.01),
        ];
        let ball_z = [0.4, 0.15, -0.15, -0.4];
        let blade_angle = [30.0f64, 150.0, 200.0, 230.0];
        let frames = (0..4)
            .map(|f| {
                let t = f as f64 / 3.0;
                vec![
                    frame(id, [0.0; 3], wave(modes_of(&bodies[0]), 3.0 * t, 1.0)),
                    frame(
                        axis_angle([1.0, 0.5, 0.0], 2.0 * t),
                        [0.3 - 0.1 * t, -0.2, ball_z[f]],
                        wave(modes_of(&bodies[1]), 4.0 * t, 1.0),
                    ),
                    frame(
                        axis_angle([0.0, 1.0, 0.0], blade_angle[f].to_radians()),
                        [-0.3, 0.2, 0.4],
                        wave(modes_of(&bodies[2]), 5.0 * t, 1.0),
                    ),
                ]
            })
            .collect();
        out.push(SceneDef {
            name: "tunnel",
            bodies,
            frames,
            self_pairs: false,
            folder: "swept",
        });
    }
    // plate: a ball (320 triangles) drops through a vibrating plate (288, a smooth basis: an
    // open sheet has no inside for the modal analysis) in one tick, turning; it is above the
    // plate at frame 1 and below it at frame 2.
    {
        let bodies = vec![
            body("plate", sheet(1.0, 1.0, 12, 12), 4, 0.03),
            body("ball", icosphere(0.12, 2), 3, 0.01),
        ];
        let ball_z = [0.5, 0.2, -0.2, -0.5, -0.8];
        let frames = (0..5)
            .map(|f| {
                let t = f as f64 / 4.0;
                vec![
                    frame(id, [0.0; 3], wave(modes_of(&bodies[0]), 5.0 * t, 1.0)),
                    frame(
                        axis_angle([0.3, 1.0, 0.2], 1.6 * t),
                        [0.1 - 0.1 * t, 0.05, ball_z[f]],
                        wave(modes_of(&bodies[1]), 4.0 * t, 1.0),
                    ),
                ]
            })
            .collect();
        out.push(SceneDef {
            name: "plate",
            bodies,
            frames,
            self_pairs: false,
            folder: "swept",
        });
    }
    // flap: a sheet (512 triangles) flaps through a ball and a bar between ticks: its first
    // coordinate bends it (z = 0.8 ((x + 0.6) / 1.2)², clamped at x = −0.6) from below them to
    // above them and back, its second waves it.
    {
        let sheet_mesh = sheet(1.2, 1.2, 16, 16);
        let mut flap = Basis::zeros(sheet_mesh.vertices.len(), 2);
        for (i, v) in sheet_mesh.vertices.iter().enumerate() {
            let x = (v[0] + 0.6) / 1.2;
            flap.data[(3 * i + 2) * 2] = 0.8 * x * x;
            flap.data[(3 * i + 2) * 2 + 1] = 0.03 * (3.0 * v[1]).sin();
        }
        let bodies = vec![
            BodyDef {
                name: "sheet",
                mesh: sheet_mesh,
                basis: Some(flap),
                modal: false,
            },
            body("ball", icosphere(0.1, 2), 2, 0.01),
            body("bar", bar(0.9, 0.05, 12), 2, 0.01),
        ];
        let swing = [-1.0f64, 1.0, -1.0, 1.0];
        let frames = (0..4)
            .map(|f| {
                let t = f as f64 / 3.0;
                let q = vec![swing[f], (4.0 * t).sin()];
                vec![
                    frame(axis_angle([0.0, 0.0, 1.0], 0.2 * t), [0.0; 3], q),
                    frame(id, [0.3, 0.1, 0.0], wave(2, 3.0 * t, 1.0)),
                    frame(
                        axis_angle([0.0, 0.0, 1.0], std::f64::consts::FRAC_PI_2),
                        [-0.2, 0.0, 0.0],
                        wave(2, 5.0 * t, 1.0),
                    ),
                ]
            })
            .collect();
        out.push(SceneDef {
            name: "flap",
            bodies,
            frames,
            self_pairs: false,
            folder: "swept",
        });
    }
    // resting: a modal pad (a ball of radius 3 cm, 320 triangles, its 5 lowest vibration modes)
    // pressed 1.2 mm into a plate (30 × 20 cm, 432 triangles, a smooth basis of 2 modes) and
    // sliding over it at 20 mm/s, turning at 0.2 rad/s, both breathing at 3 Hz: 100 ticks of a
    // 1 kHz control loop — the resting contact the swept query's front is for.
    {
        let bodies = vec![
            body("plate", sheet(0.3, 0.2, 18, 12), 2, 0.0005),
            modal_body("pad", icosphere(0.03, 2), 5, 0.0003)?,
        ];
        let frames = (0..100)
            .map(|f| {
                let t = f as f64 / 1000.0;
                let phase = std::f64::consts::TAU * 3.0 * t;
                vec![
                    frame(id, [0.0; 3], wave(modes_of(&bodies[0]), phase, 1.0)),
                    frame(
                        axis_angle([0.0, 0.0, 1.0], 0.2 * t),
                        [-0.05 + 0.02 * t, 0.01, 0.03 - 0.0012],
                        wave(modes_of(&bodies[1]), phase + 0.3, 1.0),
                    ),
                ]
            })
            .collect();
        out.push(SceneDef {
            name: "resting",
            bodies,
            frames,
            self_pairs: false,
            folder: "swept",
        });
    }
    Ok(out)
}

/// Generates every fixture file. Scenes are loaded back through the public loaders before their
/// expected answers are computed, so the answers are those of the files as written.
pub fn generate(root: &Path) -> Result<Files, String> {
    let mut files = Files::new();
    // The demo's chair (`bdtree demo` computes its modes when it runs).
    let mut obj = Vec::new();
    write_obj(&bdtree_std::shapes::chair_mesh(), &mut obj).map_err(|e| e.to_string())?;
    files.insert(PathBuf::from("meshes/chair.obj"), obj);
    let scratch = std::env::temp_dir().join(format!("bdtree-fixtures-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    for scene in scenes()? {
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
                if b.modal {
                    // Keep the committed modes when they span the same space (module docs).
                    let path = root.join(&rel);
                    if let Ok(bytes) = std::fs::read(&path) {
                        if parse_npy(&bytes, &path)
                            .is_ok_and(|old| span_residual(basis, &old) <= SPAN_TOLERANCE)
                        {
                            npy = bytes;
                        }
                    }
                }
                files.insert(rel.clone(), npy);
                rel
            });
            specs.push(BodySpec::mesh(
                b.name,
                Path::new("..").join(mesh_rel),
                modes_rel.map(|r| Path::new("..").join(r)),
            ));
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
        let scene_rel = PathBuf::from(format!("{}/{}.json", scene.folder, scene.name));
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
            let pairs: Vec<serde_json::Value> =
                brute_force_frame_with(&loaded, f, scene.self_pairs)
                    .into_iter()
                    .map(|(a, b, ta, tb)| {
                        serde_json::json!([loaded.bodies[a].name, loaded.bodies[b].name, ta, tb])
                    })
                    .collect();
            let mut line = serde_json::json!({ "frame": f, "pairs": pairs });
            if scene.self_pairs {
                line["self"] = serde_json::json!(true);
            }
            expected += &line.to_string();
            expected.push('\n');
        }
        files.insert(
            PathBuf::from(format!("expected/{}.jsonl", scene.name)),
            expected.into_bytes(),
        );
    }
    let _ = std::fs::remove_dir_all(&scratch);
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

#[cfg(test)]
mod tests {
    use super::*;

    fn basis(vertices: usize, modes: usize, f: impl Fn(usize, usize) -> f64) -> Basis {
        let mut b = Basis::zeros(vertices, modes);
        for r in 0..3 * vertices {
            for j in 0..modes {
                b.data[r * modes + j] = f(r, j);
            }
        }
        b
    }

    #[test]
    fn span_residual_sees_the_space_not_the_vectors() {
        let a = basis(40, 3, |r, j| ((r * (j + 2)) as f64 * 0.37).sin());
        // Mixing, rescaling and flipping the columns keeps the span.
        let mixed = basis(40, 3, |r, j| {
            let c = |i: usize| a.data[r * 3 + i];
            match j {
                0 => c(0) + 0.5 * c(1),
                1 => -2.0 * c(1) + c(2),
                _ => 0.25 * c(2) - c(0),
            }
        });
        assert!(span_residual(&mixed, &a) < 1e-12);
        assert!(span_residual(&a, &a) < 1e-12);
        // A new direction in one column does not.
        let moved = basis(40, 3, |r, j| {
            a.data[r * 3 + j] + if j == 2 { 1e-3 * (r as f64).cos() } else { 0.0 }
        });
        assert!(span_residual(&moved, &a) > SPAN_TOLERANCE);
        // Neither does a different shape or a rank-deficient committed basis.
        assert_eq!(span_residual(&basis(40, 2, |_, _| 1.0), &a), f64::INFINITY);
        assert_eq!(span_residual(&a, &basis(40, 3, |_, _| 1.0)), f64::INFINITY);
    }
}
