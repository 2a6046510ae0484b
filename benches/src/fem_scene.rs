//! A second scene for the per-frame query, built like a user's FEM scene rather than the query
//! bench's analytic one: a large bumpy body (an icosphere of radius 1 pushed out by 12 smooth
//! bumps, 327,680 triangles) whose M = 10 modes come from the modal analysis
//! (`bdtree_std::modal`, soft rubber, the automatic lattice), grazed by a small UV sphere of
//! radius 0.05 with its own 10 modal modes, pressed [`FEM_DEPTH`] into the big body's deformed
//! surface: 50–100 intersecting triangle pairs per frame.
//!
//! The modes are normalised to a peak displacement of 1 per unit `q`; the frames drive the
//! big body's `q_j` with amplitude [`FEM_Q_BIG`] (3 cm on a body of radius ~1.3) and the
//! small one's with [`FEM_Q_SMALL`]. Modal analysis of the big body takes about a minute, so
//! both bases are written to `dir` as `.npy` on the first run and read back after.

use std::path::Path;

use bdtree_std::io::{load_npy, write_npy, Basis, Mesh};
use bdtree_std::modal::{compute_modes, ModalOptions};
use bdtree_std::shapes::procedural::{blob, uv_sphere};

use crate::query_scene::{pressed_frames, Frame, Press, MODES};

/// Icosphere subdivisions of the big body (20·4⁷ = 327,680 triangles).
pub const FEM_SUBDIVISIONS: u32 = 7;
/// Radius, stacks and slices of the small body (2·20·30 = 1,200 triangles).
pub const FEM_SMALL: (f64, u32, u32) = (0.05, 20, 30);
/// How far the small body is pressed into the big one's deformed surface.
pub const FEM_DEPTH: f64 = 0.004;
/// Amplitude of the big body's `q_j` (its modes peak at 1 per unit `q`).
pub const FEM_Q_BIG: f64 = 0.03;
/// Amplitude of the small body's `q_j`.
pub const FEM_Q_SMALL: f64 = 0.002;

/// The modes of `mesh`, read from `dir/NAME.npy` or computed and written there.
fn modes(dir: &Path, name: &str, mesh: &Mesh) -> Basis {
    let path = dir.join(format!("{name}.npy"));
    if let Ok(basis) = load_npy(&path) {
        if basis.modes == MODES && basis.data.len() == 3 * mesh.vertices.len() * MODES {
            return basis;
        }
    }
    let options = ModalOptions {
        modes: MODES,
        ..Default::default()
    };
    let started = std::time::Instant::now();
    let modes = compute_modes(mesh, &options, &mut |_| {}).expect("the modal analysis runs");
    eprintln!(
        "{name}: {MODES} modes in {:.1} s ({:.2}–{:.2} Hz)",
        started.elapsed().as_secs_f64(),
        modes.frequencies_hz[0],
        modes.frequencies_hz[MODES - 1]
    );
    std::fs::create_dir_all(dir).expect("the cache folder is writable");
    let mut file = std::fs::File::create(&path).expect("the basis file is writable");
    write_npy(&modes.basis, &mut file).expect("the basis is written");
    modes.basis
}

/// The two bodies with their modal bases: (big, big basis, small, small basis); bases cached
/// in `dir`.
pub fn fem_bodies(dir: &Path) -> (Mesh, Basis, Mesh, Basis) {
    let big = blob(1.0, FEM_SUBDIVISIONS, 12, 7);
    let small = uv_sphere(FEM_SMALL.0, FEM_SMALL.1, FEM_SMALL.2);
    let big_basis = modes(dir, &format!("fem-big-s{FEM_SUBDIVISIONS}"), &big);
    let small_basis = modes(dir, "fem-small", &small);
    (big, big_basis, small, small_basis)
}

/// The frames of the FEM scene.
pub fn fem_frames(big: &Mesh, big_basis: &Basis) -> Vec<Frame> {
    pressed_frames(
        big,
        big_basis,
        &Press {
            q_big: FEM_Q_BIG,
            q_small: FEM_Q_SMALL,
            small_radius: FEM_SMALL.0,
            depth: FEM_DEPTH,
            at_vertex: true,
        },
    )
}
