//! The automatic lattice: each cell side from the body's thickness along that axis.
//!
//! A thin wall needs [`CELLS_ACROSS`] cells across it, but only across it: along the wall
//! its bending and stretching vary over lengths like the body's, not like the wall's
//! thickness. So the cell side along each lattice axis is chosen on its own, as a number of
//! cells `r_a` along the longest side `L` of the bounding box (the side is `L / r_a`):
//!
//! - **Across walls**: along axis `a`, a triangle of thickness `t` (see `thickness`) and unit
//!   normal `n` is `t / |n_a|` thick (exact for a flat wall at any angle); the body's
//!   thickness `τ_a` along `a` is the thinnest that matters by the rule of `thickness` (faces
//!   covering at least 10 squared thicknesses), and `r_a ≥` [`CELLS_ACROSS`]` · L / τ_a`.
//! - **Across the section**: `r_a ≥` [`SECTION_CELLS`]` · L / e_a` for the box's extent `e_a`
//!   along `a`. A compact section twists with its own warping, which converges as `h²`: a
//!   square beam's torsion is +2.6 % with 4 cells across it, +1.2 % with 6.
//! - **At least** [`MIN_RESOLUTION`] along every axis.
//! - **Along walls**, an axis coarser than the finest gets at least [`ALONG_RESOLUTION`] cells
//!   along `L` (bending waves along a slender body or a plate are resolved) and cells at most
//!   [`MAX_ASPECT`] times longer than the finest side; never finer than the finest.
//!
//! A plate gets cells thin through its thickness and longer in its plane; a tube along x,
//! cells fine across its wall in y and z and longer along x; a body thick every way, cubes
//! (exactly the cubic lattice of [`MIN_RESOLUTION`] or of its thinnest wall). The cells
//! stay boxes of one size on a structured grid, so the cut cells, the element and the
//! elimination order are those of a cubic lattice; the element integrates each box exactly and
//! its incompatible modes bend along each side (see `element`), so a long flat cell bends
//! without shear locking.

use super::options::{
    Chosen, ALONG_RESOLUTION, CELLS_ACROSS, MAX_ASPECT, MIN_RESOLUTION, SECTION_CELLS,
};
use super::thickness;
use crate::io::Mesh;

/// The cell sides of the automatic lattice for `mesh` (as given; `mesh_in_frame` is it in
/// lattice coordinates) with per-triangle `thickness` and lattice axes `frame` (rows, in mesh
/// coordinates); and whether the body's thickness or [`MIN_RESOLUTION`] set the finest side.
pub(super) fn automatic(
    mesh: &Mesh,
    mesh_in_frame: &Mesh,
    thickness: &[f64],
    frame: &[[f64; 3]; 3],
) -> ([f64; 3], Chosen) {
    let (lo, hi) = super::lattice::bounds(mesh_in_frame);
    let longest = (0..3).map(|a| hi[a] - lo[a]).fold(0.0, f64::max);
    let along = thickness::along_axes(mesh, thickness, frame);
    // Cells along the longest side for `count` cells across `width`; a hair above a whole
    // number counts as that number (thicknesses come from ray casting).
    let cells = |count: f64, width: f64| -> f64 {
        if width > 0.0 {
            (count * longest / width * (1.0 - 1e-9)).ceil()
        } else {
            0.0
        }
    };
    let fine: [f64; 3] = core::array::from_fn(|a| {
        let walls = along[a].map_or(0.0, |t| cells(CELLS_ACROSS, t));
        let section = cells(SECTION_CELLS, hi[a] - lo[a]);
        walls.max(section).max(MIN_RESOLUTION as f64)
    });
    let finest = fine.iter().copied().fold(0.0, f64::max);
    let r = fine.map(|f| {
        f.max((finest / MAX_ASPECT).ceil())
            .max(ALONG_RESOLUTION as f64)
            .min(finest)
    });
    let chosen = if finest > MIN_RESOLUTION as f64 {
        Chosen::Thickness
    } else {
        Chosen::Minimum
    };
    (r.map(|r| longest / r), chosen)
}

/// Cells along the longest side of the box `(lo, hi)` for cells of sides `h`.
pub(super) fn resolution((lo, hi): ([f64; 3], [f64; 3]), h: [f64; 3]) -> usize {
    let a = (0..3)
        .max_by(|&a, &b| (hi[a] - lo[a]).total_cmp(&(hi[b] - lo[b])))
        .unwrap_or(0);
    (((hi[a] - lo[a]) / h[a] - 1e-9).ceil().max(1.0)).min(u32::MAX as f64) as usize
}
