//! The mesh in the lattice: each vertex moves with the cell it lies in, and held surface
//! pieces hold the lattice nodes they move with.

use super::element::{corner, shape};
use super::lattice::{cell_meets_plane, cells_of_box, Grid};
use super::sparse::{System, HELD, UNUSED};
use crate::io::Basis;
use crate::io::Mesh;
use faer::Mat;

/// Trilinear weights below this count as zero when deciding which nodes a held point moves
/// with (a point on a cell face has exact zeros there, up to rounding).
const WEIGHT_FLOOR: f64 = 1e-9;

/// The cell a point is embedded in, its local coordinates clamped to that cell, and its
/// distance to the cell: its own cell if solid, else the nearest solid cell.
pub(super) fn embed(grid: &Grid, p: [f64; 3]) -> ([usize; 3], [f64; 3], f64) {
    let u: [f64; 3] = core::array::from_fn(|a| (p[a] - grid.origin[a]) / grid.h[a]);
    let home: [usize; 3] =
        core::array::from_fn(|a| (u[a].floor().max(0.0) as usize).min(grid.n[a] - 1));
    // Distance² from p to cell c's box.
    let gap2 = |c: [usize; 3]| -> f64 {
        (0..3)
            .map(|a| {
                let d = (c[a] as f64 - u[a])
                    .max(u[a] - (c[a] as f64 + 1.0))
                    .max(0.0)
                    * grid.h[a];
                d * d
            })
            .sum::<f64>()
    };
    let shortest = grid.h.iter().copied().fold(f64::INFINITY, f64::min);
    let is_solid = |c: [usize; 3]| grid.is_solid(grid.cell(c[0], c[1], c[2]));
    let mut best = if is_solid(home) {
        Some((gap2(home), home))
    } else {
        None
    };
    // Rings of growing Chebyshev radius (in cells) around the home cell; a cell on ring r + 1
    // is at least r times the shortest cell side away.
    let max_ring = grid.n.iter().copied().max().unwrap_or(1);
    let mut r = 1usize;
    while r <= max_ring {
        if let Some((d2, _)) = best {
            if d2 <= ((r - 1) as f64 * shortest).powi(2) {
                break;
            }
        }
        let lo: [usize; 3] = core::array::from_fn(|a| home[a].saturating_sub(r));
        let hi: [usize; 3] = core::array::from_fn(|a| (home[a] + r).min(grid.n[a] - 1));
        for k in lo[2]..=hi[2] {
            for j in lo[1]..=hi[1] {
                for i in lo[0]..=hi[0] {
                    let c = [i, j, k];
                    let ring = (0..3).map(|a| c[a].abs_diff(home[a])).max().unwrap_or(0);
                    if ring != r || !is_solid(c) {
                        continue;
                    }
                    let d2 = gap2(c);
                    if best.is_none_or(|(b, _)| d2 < b) {
                        best = Some((d2, c));
                    }
                }
            }
        }
        r += 1;
    }
    // There is at least one solid cell, so the search found one.
    let (d2, cell) = best.unwrap_or((0.0, home));
    let local = core::array::from_fn(|a| (u[a] - cell[a] as f64).clamp(0.0, 1.0));
    (cell, local, d2.sqrt())
}

/// The lattice nodes (by grid node number) that the held part of the surface moves with:
/// for every held vertex, the nodes of its cell with a trilinear weight above
/// [`WEIGHT_FLOOR`]; for every held triangle (all three vertices held), in each solid cell it
/// passes through, the nodes whose weight is not zero over the triangle's bounding box in
/// that cell. A held flat face lying on a node plane thus holds exactly the nodes of that
/// plane under it.
pub(super) fn held_nodes(mesh: &Mesh, grid: &Grid, held_vertex: &[bool]) -> Vec<bool> {
    let n = grid.n;
    let mut held = vec![false; (n[0] + 1) * (n[1] + 1) * (n[2] + 1)];
    for (v, &p) in mesh.vertices.iter().enumerate() {
        if !held_vertex[v] {
            continue;
        }
        let (cell, t, _) = embed(grid, p);
        for (l, w) in shape(t).iter().enumerate() {
            if *w > WEIGHT_FLOOR {
                let c = corner(l);
                held[grid.node(cell[0] + c[0], cell[1] + c[1], cell[2] + c[2])] = true;
            }
        }
    }
    for t in &mesh.triangles {
        if !t.iter().all(|&v| held_vertex[v as usize]) {
            continue;
        }
        let p = t.map(|v| mesh.vertices[v as usize]);
        cells_of_box(grid, &p, |c, lo, hi| {
            let [i, j, k] = c;
            if !grid.is_solid(grid.cell(i, j, k)) || !cell_meets_plane(grid, c, &p) {
                return;
            }
            // The triangle's box in the cell's local coordinates, clamped to it.
            let local_lo: [f64; 3] = core::array::from_fn(|a| {
                ((lo[a] - grid.origin[a]) / grid.h[a] - c[a] as f64).clamp(0.0, 1.0)
            });
            let local_hi: [f64; 3] = core::array::from_fn(|a| {
                ((hi[a] - grid.origin[a]) / grid.h[a] - c[a] as f64).clamp(0.0, 1.0)
            });
            for l in 0..8 {
                let d = corner(l);
                // Node l's weight vanishes over the box if, along some axis, the box
                // lies on the far face from it.
                let zero = (0..3).any(|a| {
                    if d[a] == 1 {
                        local_hi[a] <= WEIGHT_FLOOR
                    } else {
                        local_lo[a] >= 1.0 - WEIGHT_FLOOR
                    }
                });
                if !zero {
                    held[grid.node(i + d[0], j + d[1], k + d[2])] = true;
                }
            }
        });
    }
    held
}

/// Maps lattice modes to the mesh vertices and scales each to a largest vertex displacement
/// of 1 (largest entry positive); also returns the largest embedding gap and each mode's
/// largest vertex displacement before scaling (the mode was divided by it; 1 for a mode that
/// does not move the surface). Held nodes do not move.
pub(super) fn surface_basis(
    mesh: &Mesh,
    grid: &Grid,
    sys: &System,
    vectors: &Mat<f64>,
) -> (Basis, f64, Vec<f64>) {
    let k = vectors.ncols();
    let mut basis = Basis::zeros(mesh.vertices.len(), k);
    let mut max_gap: f64 = 0.0;
    for (v, &p) in mesh.vertices.iter().enumerate() {
        let (cell, t, gap) = embed(grid, p);
        max_gap = max_gap.max(gap);
        for (l, w) in shape(t).iter().enumerate() {
            let c = corner(l);
            let node = grid.node(cell[0] + c[0], cell[1] + c[1], cell[2] + c[2]);
            let dof = sys.node_dof[node];
            if dof == HELD || dof == UNUSED {
                continue;
            }
            for a in 0..3 {
                for j in 0..k {
                    basis.data[(3 * v + a) * k + j] += w * vectors[(3 * dof + a, j)];
                }
            }
        }
    }
    let mut peaks = vec![1.0; k];
    for j in 0..k {
        let mut largest: f64 = 0.0;
        let mut signed: f64 = 0.0;
        for v in 0..basis.vertices {
            let d: [f64; 3] = core::array::from_fn(|a| basis.data[(3 * v + a) * k + j]);
            largest = largest.max((d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt());
            for x in d {
                if x.abs() > signed.abs() {
                    signed = x;
                }
            }
        }
        if largest > 0.0 {
            peaks[j] = largest;
            let s = largest.copysign(signed);
            for v in 0..basis.vertices {
                for a in 0..3 {
                    basis.data[(3 * v + a) * k + j] /= s;
                }
            }
        }
    }
    (basis, max_gap, peaks)
}
