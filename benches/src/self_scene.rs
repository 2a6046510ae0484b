//! The self-collision scenes: one deformable body and its `q` per frame (pose the identity).
//! Shared by `benches/selfcollide.rs` and `examples/versus_self.rs`.
//!
//! * [`sheet`]: the crumpling sheet, 2,048 triangles, 24 frames; [`sheet_seeded`]: one made
//!   the same way with other phases (`sheet2`: seed 2, 1,922 triangles).
//! * [`curtain`]: the `fold` fixture's curtain (`fixtures/scenes/fold.json`, body 0), 8 frames.
//! * [`bent`]: a sheet of 1,922 triangles gently bent by 8 smooth modes, no contact at all, 24
//!   frames: what self-collision costs when nothing touches.
//! * [`ribbon`]: a 51,200-triangle ribbon whose far half folds over onto the near half and opens
//!   again, 20 frames, its rippled flap crossing the near half in the middle eight.

use std::f64::consts::PI;
use std::path::Path;

use bdtree_std::io::{Basis, Mesh, Scene};
use bdtree_std::shapes::procedural::{sheet as flat_sheet, smooth_basis};

/// One self-collision scene.
pub struct SelfScene {
    /// Its name in bench ids and cached image names.
    pub name: &'static str,
    /// The rest mesh.
    pub mesh: Mesh,
    /// Its basis.
    pub basis: Basis,
    /// `q` of each frame.
    pub frames: Vec<Vec<f64>>,
}

/// The scene called `sheet`, `curtain` or `ribbon`.
pub fn by_name(name: &str) -> Option<SelfScene> {
    match name {
        "sheet" => Some(sheet()),
        "sheet2" => Some(sheet_seeded(2)),
        "curtain" => Some(curtain()),
        "ribbon" => Some(ribbon()),
        "bent" => Some(bent()),
        _ => None,
    }
}

/// A unit sheet of 32 × 32 quads (2,048 triangles) with 8 smooth modes of amplitude 0.6, over
/// 24 frames `q_j = 0.9 sin(0.15 k + j)`: it crumples through itself.
pub fn sheet() -> SelfScene {
    let mesh = flat_sheet(1.0, 1.0, 32, 32);
    let basis = smooth_basis(&mesh.vertices, 8, 0.6);
    let frames = (0..24)
        .map(|k| {
            (0..8)
                .map(|j| 0.9 * (0.15 * k as f64 + j as f64).sin())
                .collect()
        })
        .collect();
    SelfScene {
        name: "crumpled_sheet",
        mesh,
        basis,
        frames,
    }
}

/// The crumpling sheet made the same way with another seed: a unit sheet of 31 × 31 quads
/// (1,922 triangles), 8 smooth modes of amplitude 0.6, 24 frames `q_j = 0.9 sin(0.15 k + φ_j)`
/// with phases `φ_j` drawn from `seed` (a 64-bit LCG, uniform in `[0, 2π)`): it crumples
/// through itself on some frames, not all.
pub fn sheet_seeded(seed: u64) -> SelfScene {
    let mesh = flat_sheet(1.0, 1.0, 31, 31);
    let basis = smooth_basis(&mesh.vertices, 8, 0.6);
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15).wrapping_add(1);
    let phases: Vec<f64> = (0..8)
        .map(|_| {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (state >> 11) as f64 / (1u64 << 53) as f64 * 2.0 * PI
        })
        .collect();
    let frames = (0..24)
        .map(|k| {
            phases
                .iter()
                .map(|&phase| 0.9 * (0.15 * k as f64 + phase).sin())
                .collect()
        })
        .collect();
    SelfScene {
        name: "crumpled_sheet_2",
        mesh,
        basis,
        frames,
    }
}

/// A unit sheet of 31 × 31 quads (1,922 triangles) with 8 smooth modes of amplitude 0.6, over
/// 24 frames `q_j = 0.08 sin(0.3 k + j)`: it bends and waves gently, touching itself nowhere.
pub fn bent() -> SelfScene {
    let mesh = flat_sheet(1.0, 1.0, 31, 31);
    let basis = smooth_basis(&mesh.vertices, 8, 0.6);
    let frames = (0..24)
        .map(|k| {
            (0..8)
                .map(|j| 0.08 * (0.3 * k as f64 + j as f64).sin())
                .collect()
        })
        .collect();
    SelfScene {
        name: "bent_sheet",
        mesh,
        basis,
        frames,
    }
}

/// Body 0 of `fixtures/scenes/fold.json` (a curtain with its modal basis) and its `q` in each
/// of the scene's frames.
pub fn curtain() -> SelfScene {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/scenes/fold.json");
    let scene = Scene::load(&path).expect("the fold scene loads");
    let curtain = &scene.bodies[0];
    SelfScene {
        name: "fold_curtain",
        mesh: curtain.mesh.clone(),
        basis: curtain.basis.clone().expect("the curtain has a basis"),
        frames: scene.frames.iter().map(|f| f[0].1.clone()).collect(),
    }
}

/// Quads of the ribbon along x and across (2·320·80 = 51,200 triangles, square quads).
pub const RIBBON_QUADS: (u32, u32) = (320, 80);
/// Length (x) and width (y) of the ribbon.
pub const RIBBON_SIZE: (f64, f64) = (4.0, 1.0);
/// Frames of the ribbon's fold.
pub const RIBBON_FRAMES: usize = 20;
/// The fold angle at the first and last frames and at the deepest one (radians; π lays the flap
/// flat on the near half).
pub const RIBBON_FOLD: (f64, f64) = (0.55 * PI, 0.975 * PI);
/// Height and wavelength of the flap's ripples (before the fold, along the flap's length).
pub const RIBBON_RIPPLE: (f64, f64) = (0.05, 0.5);
/// Smooth modes added to the fold ([`smooth_basis`] of the rest ribbon) and their amplitude.
pub const RIBBON_CRUMPLE: (usize, f64) = (4, 0.02);

/// A 4 × 1 ribbon along x (51,200 triangles) whose half past the hinge line `x = 0` folds over
/// onto the other half and opens again over [`RIBBON_FRAMES`] frames.
///
/// The basis (M = 7) is linear in `q`, as every reduced model is: with `s = max(x, 0)` the
/// distance past the hinge, mode 0 is `(s, 0, 0)` and mode 1 `(0, 0, s)`, so `q_0 = cos θ − 1`,
/// `q_1 = sin θ` turn the flap rigidly by θ about the hinge (a sharp crease); mode 2 ripples
/// the flap (`z` by [`RIBBON_RIPPLE`]`.0 · sin(2π s / λ)`, fading to 0 at its long edges) and
/// stays at `q_2 = 1`; modes 3–6 are [`smooth_basis`] modes of the rest ribbon, driven gently
/// (`q = sin(0.3 k + j)`). θ closes from [`RIBBON_FOLD`]`.0` to `.1` and opens again, lingering
/// near the deepest fold (`θ = θ₀ + (θ₁ − θ₀) sin(π t)^¼`, `t` from 0 to 1); near π the
/// ripples' troughs dip through the near half. The f64 brute force finds no intersecting
/// non-adjacent pair in frames 0–5 and 14–19, 24–450 in frames 6–13 (2,390 in all).
pub fn ribbon() -> SelfScene {
    let (nx, ny) = RIBBON_QUADS;
    let (length, width) = RIBBON_SIZE;
    let mesh = flat_sheet(length, width, nx, ny);
    let (crumple_modes, crumple_amplitude) = RIBBON_CRUMPLE;
    let crumple = smooth_basis(&mesh.vertices, crumple_modes, crumple_amplitude);
    let (height, wavelength) = RIBBON_RIPPLE;
    let modes = 3 + crumple_modes;
    let mut data = vec![0.0; 3 * mesh.vertices.len() * modes];
    for (i, p) in mesh.vertices.iter().enumerate() {
        let s = p[0].max(0.0);
        let across = (PI * p[1] / width).cos();
        let ripple = height * (2.0 * PI * s / wavelength).sin() * across;
        let fold = [[s, 0.0, 0.0], [0.0, 0.0, s], [0.0, 0.0, ripple]];
        for k in 0..3 {
            let row = &mut data[(3 * i + k) * modes..(3 * i + k + 1) * modes];
            for (j, field) in fold.iter().enumerate() {
                row[j] = field[k];
            }
            let from = (3 * i + k) * crumple_modes;
            row[3..].copy_from_slice(&crumple.data[from..from + crumple_modes]);
        }
    }
    let basis = Basis {
        vertices: mesh.vertices.len(),
        modes,
        data,
    };
    let (open, deepest) = RIBBON_FOLD;
    let frames = (0..RIBBON_FRAMES)
        .map(|k| {
            let t = k as f64 / (RIBBON_FRAMES - 1) as f64;
            let theta = open + (deepest - open) * (PI * t).sin().powf(0.25);
            let mut q = vec![theta.cos() - 1.0, theta.sin(), 1.0];
            q.extend((0..crumple_modes).map(|j| (0.3 * k as f64 + j as f64).sin()));
            q
        })
        .collect();
    SelfScene {
        name: "folded_ribbon",
        mesh,
        basis,
        frames,
    }
}
