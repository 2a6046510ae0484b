//! Generated scenes for the scene runner, the host layer and the CLI: bodies far from the
//! origin, faces touching exactly under rotation, millimetre parts beside large ones; their
//! bodies' extents and the host's per-pair bound on f32 extras; and writing a scene to files.

use bdtree_std::io::{Basis, Mesh, Pose, Scene, SceneBody};
use bdtree_std::rng::Rng;
use bdtree_std::shapes::procedural::{bar, blob, icosphere, sheet, smooth_basis, torus, uv_sphere};

/// A scene of `bodies` (named `body0`, `body1`, …) with no frames yet.
pub fn scene_of(bodies: Vec<(Mesh, Option<Basis>)>) -> Scene {
    Scene {
        path: "generated.json".into(),
        bodies: bodies
            .into_iter()
            .enumerate()
            .map(|(i, (mesh, basis))| SceneBody {
                name: format!("body{i}"),
                mesh_path: format!("body{i}.obj").into(),
                mesh,
                basis,
                tree: None,
            })
            .collect(),
        frames: Vec::new(),
        primitives: Vec::new(),
    }
}

/// The largest `‖U_ij‖` of a basis, per mode.
fn mode_norms(basis: Option<&Basis>) -> Vec<f64> {
    let Some(b) = basis else { return Vec::new() };
    (0..b.modes)
        .map(|j| {
            (0..b.vertices)
                .map(|i| {
                    let r = |k: usize| b.data[(3 * i + k) * b.modes + j];
                    (r(0) * r(0) + r(1) * r(1) + r(2) * r(2)).sqrt()
                })
                .fold(0.0, f64::max)
        })
        .collect()
}

/// `q` with every coordinate moving the body by up to `reach` (uniform in `[−1, 1]` of that).
pub fn random_q(rng: &mut Rng, basis: Option<&Basis>, reach: f64) -> Vec<f64> {
    let norms = mode_norms(basis);
    let m = norms.len().max(1) as f64;
    norms
        .iter()
        .map(|&n| {
            if n > 0.0 {
                rng.uniform(-1.0, 1.0) * reach / (n * m.sqrt())
            } else {
                0.0
            }
        })
        .collect()
}

/// Three bodies of size `s` (unit, millimetre or 50-unit parts) from a pool, `M` from
/// {0, 1, 2, 5, 12}, and `frames` random states: a common centre up to 10⁵ s from the origin
/// (log-uniform), each body within ±0.45 s of it, arbitrary rotations, `q` over ±0.15 s of
/// displacement.
pub fn far_scene(seed: u64, frames: usize) -> Scene {
    let mut rng = Rng::new(seed);
    let s = [1.0, 1e-3, 50.0][rng.below(3)];
    let pool = |k: usize, rng: &mut Rng| -> Mesh {
        match k {
            0 => icosphere(0.5 * s, 2),
            1 => torus(0.5 * s, 0.15 * s, 18, 8),
            2 => sheet(1.5 * s, 1.0 * s, 9, 6),
            3 => blob(0.5 * s, 2, 5, rng.next_u64()),
            4 => bar(2.0 * s, 0.08 * s, 14),
            _ => uv_sphere(0.4 * s, 8, 12),
        }
    };
    let bodies = (0..3)
        .map(|_| {
            let mesh = pool(rng.below(6), &mut rng);
            let m = [0, 1, 2, 5, 12][rng.below(5)];
            let basis = (m > 0).then(|| smooth_basis(&mesh.vertices, m, 0.2 * s));
            (mesh, basis)
        })
        .collect();
    let mut scene = scene_of(bodies);
    for _ in 0..frames {
        let far = s * 10f64.powf(rng.uniform(0.0, 5.0));
        let centre = rng.unit_vector().map(|x| x * far);
        let frame = scene
            .bodies
            .iter()
            .map(|b| {
                let offset = [0; 3].map(|_| rng.uniform(-0.45, 0.45) * s);
                let pose = Pose {
                    rotation: rng.rotation(),
                    translation: std::array::from_fn(|k| centre[k] + offset[k]),
                };
                (pose, random_q(&mut rng, b.basis.as_ref(), 0.15 * s))
            })
            .collect();
        scene.frames.push(frame);
    }
    scene
}

/// A flat grid sheet in the plane `z = 0` (or, `fin`, `y = 0`) with vertices at exact
/// multiples of `h` (a power of two): sheets offset by multiples of `h` share vertices exactly.
pub fn grid(origin: [i32; 2], nx: u32, ny: u32, h: f64, fin: bool) -> Mesh {
    let mut vertices = Vec::new();
    for j in 0..=ny {
        for i in 0..=nx {
            let (x, y) = (
                f64::from(origin[0] + i as i32) * h,
                f64::from(origin[1] + j as i32) * h,
            );
            vertices.push(if fin { [x, 0.0, y] } else { [x, y, 0.0] });
        }
    }
    let mut triangles = Vec::new();
    let at = |i: u32, j: u32| j * (nx + 1) + i;
    for j in 0..ny {
        for i in 0..nx {
            triangles.push([at(i, j), at(i + 1, j), at(i + 1, j + 1)]);
            triangles.push([at(i, j), at(i + 1, j + 1), at(i, j + 1)]);
        }
    }
    Mesh {
        vertices,
        triangles,
    }
}

/// A basis that is a function of the rest position alone (two smooth fields, bending and
/// stretching), so that coincident rest vertices of different bodies move identically.
pub fn field_basis(mesh: &Mesh, scale: f64) -> Basis {
    let modes = 2;
    let mut data = Vec::with_capacity(3 * mesh.vertices.len() * modes);
    for p in &mesh.vertices {
        let (x, y) = (p[0] / scale, p[1] / scale);
        let rows = [
            [
                0.0,
                0.1 * (2.0 * y).sin(),
                (3.0 * x).sin() * (2.0 * y).cos(),
            ],
            [0.2 * x, 0.0, 0.3 * (x * y).cos()],
        ];
        for k in 0..3 {
            for row in &rows {
                data.push(row[k] * scale);
            }
        }
    }
    Basis {
        vertices: mesh.vertices.len(),
        modes,
        data,
    }
}

/// `v` turned by the unit quaternion `q = (w, x, y, z)`.
fn rotate(q: [f64; 4], v: [f64; 3]) -> [f64; 3] {
    let pose = Pose {
        rotation: q,
        translation: [0.0; 3],
    };
    pose.apply(v)
}

/// Sheets whose faces touch exactly under rotation, up to 10⁵ sizes from the origin, all
/// deformed by one field (coincident rest vertices move identically): two coplanar sheets
/// overlapping over part of their area, and a third sharing only an edge with the first or a
/// fin standing edge-on on it. Either every body has the same pose (the world vertices then
/// coincide bit for bit), or each body's rest mesh is shifted by a grid offset `d_k` and its
/// translation by `R d_k` (the faces touch in exact arithmetic; in f64 they touch or miss by
/// a rounding unit, and the oracle decides which). Millimetre or unit size.
pub fn touching_scene(seed: u64, frames: usize) -> Scene {
    let mut rng = Rng::new(seed);
    let s: f64 = [1.0, 1e-3][rng.below(2)];
    // A power of two near s / 16: grid coordinates are exact.
    let h = 2f64.powi((s / 16.0).log2().round() as i32);
    let n = 16;
    let split = rng.below(2) == 1;
    let d: Vec<[i32; 2]> = (0..3)
        .map(|k| {
            if split && k > 0 {
                [rng.below(40) as i32 - 20, rng.below(40) as i32 - 20]
            } else {
                [0, 0]
            }
        })
        .collect();
    let shift = [rng.below(8) as i32 + 1, rng.below(8) as i32 + 1];
    let at = |o: [i32; 2], k: usize| [o[0] - d[k][0], o[1] - d[k][1]];
    let a = grid(at([0, 0], 0), n, n, h, false);
    let b = grid(at(shift, 1), n, n, h, false);
    let third = match rng.below(2) {
        0 => grid(at([n as i32, rng.below(8) as i32], 2), n, n, h, false),
        // A fin standing on the sheet: rest plane y = y₀ (a grid line inside the first
        // sheet), its bottom edge at z = 0 on the sheet's faces.
        _ => {
            let mut fin = grid([rng.below(4) as i32 - d[2][0], 0], n / 2, n / 2, h, true);
            let y0 = f64::from(rng.below(14) as i32 + 1 - d[2][1]) * h;
            fin.vertices.iter_mut().for_each(|p| p[1] = y0);
            fin
        }
    };
    let scale = f64::from(n) * h;
    let bodies = [a, b, third]
        .into_iter()
        .map(|mesh| {
            let basis = field_basis(&mesh, scale);
            (mesh, Some(basis))
        })
        .collect();
    let mut scene = scene_of(bodies);
    for _ in 0..frames {
        let far = scale * 10f64.powf(rng.uniform(0.0, 5.0));
        let rotation = rng.rotation();
        let centre = rng.unit_vector().map(|x| x * far);
        let q = vec![rng.uniform(-0.1, 0.1), rng.uniform(-0.1, 0.1)];
        let frame = (0..3)
            .map(|k| {
                let offset = [f64::from(d[k][0]) * h, f64::from(d[k][1]) * h, 0.0];
                let turned = rotate(rotation, offset);
                let pose = Pose {
                    rotation,
                    translation: std::array::from_fn(|i| centre[i] + turned[i]),
                };
                (pose, q.clone())
            })
            .collect();
        scene.frames.push(frame);
    }
    scene
}

/// Per-body extents (`max ‖p_i‖ + Σ_j max_i ‖U_ij‖ |q_j|`) of a frame.
pub fn extents(scene: &Scene, f: usize) -> Vec<f64> {
    scene
        .bodies
        .iter()
        .zip(&scene.frames[f])
        .map(|(b, (_, q))| {
            let rest = b
                .mesh
                .vertices
                .iter()
                .map(|p| (p[0] * p[0] + p[1] * p[1] + p[2] * p[2]).sqrt())
                .fold(0.0, f64::max);
            let modes: f64 = mode_norms(b.basis.as_ref())
                .iter()
                .zip(q)
                .map(|(n, q)| n * q.abs())
                .sum();
            rest + modes
        })
        .collect()
}

/// Writes a generated scene to `dir` (OBJ meshes, `.npy` bases, the scene file) for the CLI.
pub fn write_scene(dir: &std::path::Path, scene: &Scene, name: &str) -> std::path::PathBuf {
    use bdtree_std::io::{write_npy, write_obj, BodyFrame, BodySpec, FrameSpec, SceneFile};
    let mut specs = Vec::new();
    for (k, body) in scene.bodies.iter().enumerate() {
        let mesh = format!("{name}-{k}.obj");
        let mut obj = Vec::new();
        write_obj(&body.mesh, &mut obj).expect("obj");
        std::fs::write(dir.join(&mesh), obj).expect("write obj");
        let basis = body.basis.as_ref().map(|basis| {
            let file = format!("{name}-{k}.npy");
            let mut npy = Vec::new();
            write_npy(basis, &mut npy).expect("npy");
            std::fs::write(dir.join(&file), npy).expect("write npy");
            file
        });
        let mut spec = BodySpec::mesh(format!("body{k}"), &mesh, basis.map(Into::into));
        if let bdtree_std::io::scene::BodyShape::Mesh { tree, .. } = &mut spec.shape {
            tree.clone_from(&body.tree);
        }
        specs.push(spec);
    }
    let frames = scene
        .frames
        .iter()
        .map(|frame| FrameSpec {
            bodies: frame
                .iter()
                .map(|(pose, q)| BodyFrame {
                    rotation: pose.rotation,
                    translation: pose.translation,
                    q: q.clone(),
                })
                .collect(),
        })
        .collect();
    let file = SceneFile {
        bodies: specs,
        frames,
    };
    let path = dir.join(format!("{name}.json"));
    file.write(&path).expect("write scene");
    path
}

/// f32's unit roundoff.
const U32: f64 = f32::EPSILON as f64 * 0.5;

/// The documented bound of `bdtree_std::host::placing` on f32 extras: a pair of bodies a and b
/// closer than `BOUND u₃₂ (x_a + x_b + ‖t_a − t_b‖)`, a self pair `BOUND u₃₂ · 2 x_a`.
const BOUND: f64 = 256.0;

/// The length of `v`.
pub fn norm(v: [f64; 3]) -> f64 {
    (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt()
}

/// The bound of `placing` for the pair (a, b) of frame `f` (a self pair when `a == b`).
pub fn pair_bound(scene: &Scene, f: usize, a: usize, b: usize) -> f64 {
    let x = extents(scene, f);
    if a == b {
        return BOUND * U32 * 2.0 * x[a];
    }
    let (ta, tb) = (
        scene.frames[f][a].0.translation,
        scene.frames[f][b].0.translation,
    );
    BOUND * U32 * (x[a] + x[b] + norm(std::array::from_fn(|k| ta[k] - tb[k])))
}

/// Two 1 mm bodies (a ball and two crossing sheets, its self pairs) 0.36 mm apart near the
/// origin, beside a 1000-unit body (a torus) 265 units away; a second frame moves them into
/// each other, a third moves everything 10⁴ units away.
pub fn millimetre_scene() -> Scene {
    let ball = icosphere(0.5e-3, 2);
    let mut cross = sheet(1e-3, 1e-3, 6, 6);
    let mut other = sheet(1e-3, 1e-3, 6, 6);
    for v in &mut other.vertices {
        *v = [v[0], 0.0, v[1]];
    }
    let n = cross.vertices.len() as u32;
    cross.vertices.extend(other.vertices);
    cross
        .triangles
        .extend(other.triangles.iter().map(|t| t.map(|v| v + n)));
    let big = torus(400.0, 100.0, 48, 24);
    let cross_basis = smooth_basis(&cross.vertices, 2, 0.05e-3);
    let mut scene = scene_of(vec![(ball, None), (cross, Some(cross_basis)), (big, None)]);
    let turn = Pose::from_axis_angle([0.3, 1.0, 0.2], 0.7, [0.0; 3]).rotation;
    for (gap, shift) in [(0.36e-3, 0.0), (-0.2e-3, 0.0), (0.36e-3, 1e4)] {
        let at = |p: [f64; 3]| [p[0] + shift, p[1] - shift, p[2] + 0.5 * shift];
        scene.frames.push(vec![
            (Pose::from_translation(at([0.0, 0.0, 0.0])), Vec::new()),
            (
                Pose {
                    rotation: turn,
                    translation: at([1.0e-3 + gap, 0.0, 0.0]),
                },
                vec![0.3, -0.2],
            ),
            (
                Pose::from_translation(at([-126.0, 201.0, 111.0])),
                Vec::new(),
            ),
        ]);
    }
    scene
}

/// A random scene mixing sizes (1 mm, 1, 1000) and distances: clusters of bodies touching or
/// nearly, each cluster anywhere from the origin to 10⁵ of its size away, and a large body
/// near some small ones.
pub fn mixed_scene(seed: u64) -> Scene {
    let mut rng = Rng::new(seed);
    let mut bodies = Vec::new();
    let mut sizes = Vec::new();
    for _ in 0..5 {
        let s = [1e-3, 1.0, 1000.0][rng.below(3)];
        let mesh = match rng.below(3) {
            0 => icosphere(0.5 * s, 2),
            1 => torus(0.5 * s, 0.15 * s, 16, 8),
            _ => sheet(1.2 * s, 0.8 * s, 6, 5),
        };
        let m = [0, 2, 5][rng.below(3)];
        let basis = (m > 0).then(|| smooth_basis(&mesh.vertices, m, 0.1 * s));
        bodies.push((mesh, basis));
        sizes.push(s);
    }
    let mut scene = scene_of(bodies);
    for _ in 0..4 {
        // Two clusters: bodies 0–2 around one centre, 3–4 around another.
        let centres: Vec<[f64; 3]> = (0..2)
            .map(|_| {
                let far = 10f64.powf(rng.uniform(-1.0, 5.0));
                rng.unit_vector().map(|x| x * far)
            })
            .collect();
        let frame = (0..5)
            .map(|b| {
                let c = centres[usize::from(b >= 3)];
                let s = sizes[b];
                let offset = [0; 3].map(|_| rng.uniform(-0.6, 0.6) * s);
                let pose = Pose {
                    rotation: rng.rotation(),
                    translation: std::array::from_fn(|k| c[k] + offset[k]),
                };
                let m = scene.bodies[b].basis.as_ref().map_or(0, |x| x.modes);
                (pose, (0..m).map(|_| rng.uniform(-0.5, 0.5)).collect())
            })
            .collect();
        scene.frames.push(frame);
    }
    scene
}
