//! The lattice: box cells over the mesh's bounding box, which of them the body fills, and
//! how much of each cell the surface cuts. Every cell has the same sides `h = [h_x, h_y,
//! h_z]`: cubes, or cells thin across a thin wall and longer along it (see `spacing`).
//!
//! Inside means a nonzero winding number, so a region where two closed parts of the mesh
//! overlap is inside (their union). A cell the surface does not pass through is full or empty
//! by its centre: three ray votes (one ray along each axis, slightly jittered so rays rarely
//! graze an edge, counting signed crossings), ties settled by the generalized winding number.
//! A cell the surface may pass through (its box meets the plane of a triangle within that
//! triangle's bounding box) is measured by 377 rays along x through a Fibonacci lattice of
//! points on its cross-section: the inside intervals along each ray are exact, so the cell's
//! volume fraction and the 27 moment-fitted quadrature weights of [`super::element`] are exact
//! along x and resolved to `h / 377` across. The cell then carries the stiffness and mass of
//! the part of it inside the mesh ("cut cells", as in the finite cell method), not all or
//! nothing, and a tilted or curved face is not a staircase.

use super::element::{lagrange, GAUSS_POINTS};
use crate::io::Mesh;

/// What a cell holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Fill {
    /// Outside the mesh.
    Empty,
    /// Inside the mesh.
    Full,
    /// Partly inside: index into [`Grid::cuts`].
    Cut(u32),
}

/// A cell the surface cuts.
#[derive(Debug, Clone)]
pub(super) struct CutCell {
    /// Share of the cell inside the mesh, in `(0, 1)`.
    pub fraction: f64,
    /// Moment-fitted weights of the inside part (see [`super::element`]).
    pub weights: [f64; 27],
}

/// The voxel grid and which cells are solid.
pub(super) struct Grid {
    pub n: [usize; 3],
    /// Cell sides along x, y and z.
    pub h: [f64; 3],
    pub origin: [f64; 3],
    pub fill: Vec<Fill>,
    pub cuts: Vec<CutCell>,
    /// Cells whose three centre votes disagreed and were settled by the winding number.
    pub undecided: usize,
}

impl Grid {
    pub fn cell(&self, i: usize, j: usize, k: usize) -> usize {
        i + self.n[0] * (j + self.n[1] * k)
    }

    pub fn node(&self, i: usize, j: usize, k: usize) -> usize {
        i + (self.n[0] + 1) * (j + (self.n[1] + 1) * k)
    }

    /// The cell's indices from its number.
    pub fn cell_ijk(&self, c: usize) -> [usize; 3] {
        [
            c % self.n[0],
            (c / self.n[0]) % self.n[1],
            c / (self.n[0] * self.n[1]),
        ]
    }

    pub fn centre(&self, c: [usize; 3]) -> [f64; 3] {
        core::array::from_fn(|a| self.origin[a] + (c[a] as f64 + 0.5) * self.h[a])
    }

    pub fn is_solid(&self, c: usize) -> bool {
        self.fill[c] != Fill::Empty
    }

    /// Share of cell `c` inside the mesh.
    pub fn fraction(&self, c: usize) -> f64 {
        match self.fill[c] {
            Fill::Empty => 0.0,
            Fill::Full => 1.0,
            Fill::Cut(i) => self.cuts[i as usize].fraction,
        }
    }

    /// Cells holding material.
    pub fn solid_cells(&self) -> usize {
        self.fill.iter().filter(|f| **f != Fill::Empty).count()
    }

    /// Lattice nodes of the solid cells.
    pub fn nodes(&self) -> usize {
        let n = self.n;
        let mut used = vec![false; (n[0] + 1) * (n[1] + 1) * (n[2] + 1)];
        for c in 0..self.fill.len() {
            if self.is_solid(c) {
                let [i, j, k] = self.cell_ijk(c);
                for l in 0..8 {
                    used[self.node(i + (l & 1), j + ((l >> 1) & 1), k + ((l >> 2) & 1))] = true;
                }
            }
        }
        used.iter().filter(|&&u| u).count()
    }

    /// Cells the surface cuts.
    pub fn cut_cells(&self) -> usize {
        self.fill
            .iter()
            .filter(|f| matches!(f, Fill::Cut(_)))
            .count()
    }

    /// Volume of one cell.
    pub fn cell_volume(&self) -> f64 {
        self.h[0] * self.h[1] * self.h[2]
    }

    /// Position of node `(i, j, k)`.
    pub fn node_position(&self, i: usize, j: usize, k: usize) -> [f64; 3] {
        let index = [i, j, k];
        core::array::from_fn(|a| self.origin[a] + index[a] as f64 * self.h[a])
    }

    /// Volume of the material the lattice holds (full cells plus the cut cells' fractions).
    pub fn volume(&self) -> f64 {
        (0..self.fill.len()).map(|c| self.fraction(c)).sum::<f64>() * self.cell_volume()
    }
}

/// The mesh's bounding box `(lo, hi)`.
pub(super) fn bounds(mesh: &Mesh) -> ([f64; 3], [f64; 3]) {
    crate::vec3::bounding_box(mesh.vertices.iter().copied())
}

/// Cells along each axis and the grid's lower corner, for cells of sides `h` over the mesh's
/// bounding box `(lo, hi)`. Along an axis with `align[a] = Some(p)` a node plane passes
/// through `p` (the grid covers the box with one cell to spare at most); other axes are
/// centred on the box.
pub(super) fn layout(
    (lo, hi): ([f64; 3], [f64; 3]),
    h: [f64; 3],
    align: [Option<f64>; 3],
) -> ([usize; 3], [f64; 3]) {
    let mut n = [0; 3];
    let mut origin = [0.0; 3];
    for a in 0..3 {
        if let Some(p) = align[a] {
            origin[a] = p - ((p - lo[a]) / h[a] - 1e-9).ceil().max(0.0) * h[a];
            n[a] = (((hi[a] - origin[a]) / h[a] - 1e-9).ceil() as usize).max(1);
        } else {
            // Enough cells to cover the extent (a side that is an exact multiple of h gets
            // exactly that many, despite rounding), centred on the box.
            n[a] = (((hi[a] - lo[a]) / h[a] - 1e-9).ceil() as usize).max(1);
            origin[a] = 0.5 * (lo[a] + hi[a]) - 0.5 * n[a] as f64 * h[a];
        }
    }
    (n, origin)
}

/// Builds the grid of cells of sides `h` laid out by [`layout`] and fills its cells.
pub(super) fn voxelise(mesh: &Mesh, h: [f64; 3], align: [Option<f64>; 3]) -> Grid {
    let (n, origin) = layout(bounds(mesh), h, align);
    let cells = n[0] * n[1] * n[2];
    let mut grid = Grid {
        n,
        h,
        origin,
        fill: vec![Fill::Empty; cells],
        cuts: Vec::new(),
        undecided: 0,
    };
    let mut votes = vec![0u8; cells];
    for axis in 0..3 {
        ray_votes(mesh, &grid, axis, &mut votes);
    }
    for c in 0..cells {
        grid.fill[c] = match votes[c] {
            0 => Fill::Empty,
            3 => Fill::Full,
            _ => {
                grid.undecided += 1;
                if winding_number(mesh, grid.centre(grid.cell_ijk(c))).abs() > 0.5 {
                    Fill::Full
                } else {
                    Fill::Empty
                }
            }
        };
    }
    let cut = cells_near_surface(mesh, &grid);
    sample_cut_cells(mesh, &mut grid, &cut);
    grid
}

/// Adds 1 to `votes[c]` for every cell whose (jittered) centre a ray along `axis` finds
/// inside: the signed crossings before it (entering +1, leaving −1) add up to more than zero.
/// (The nonzero rule: a region inside two overlapping closed parts is inside.)
fn ray_votes(mesh: &Mesh, grid: &Grid, axis: usize, votes: &mut [u8]) {
    let (b, c) = ((axis + 1) % 3, (axis + 2) % 3);
    let (nb, nc) = (grid.n[b], grid.n[c]);
    // Irrational fractions of a cell: rays through exact lattice-aligned coordinates would
    // graze the edges and vertices of axis-aligned meshes.
    let jitter = [
        0.754_877_666_2e-6 * grid.h[b],
        0.569_840_291_0e-6 * grid.h[c],
    ];
    let coord = |axis: usize, index: usize, jitter: f64| {
        grid.origin[axis] + (index as f64 + 0.5) * grid.h[axis] + jitter
    };
    let mut hits: Vec<Vec<(f64, i32)>> = vec![Vec::new(); nb * nc];
    for t in &mesh.triangles {
        let p = t.map(|v| mesh.vertices[v as usize]);
        let (mut bmin, mut bmax, mut cmin, mut cmax) =
            (f64::INFINITY, f64::MIN, f64::INFINITY, f64::MIN);
        for q in &p {
            bmin = bmin.min(q[b]);
            bmax = bmax.max(q[b]);
            cmin = cmin.min(q[c]);
            cmax = cmax.max(q[c]);
        }
        let range = |min: f64, max: f64, axis: usize, j: f64, n: usize| {
            let first = ((min - grid.origin[axis] - j) / grid.h[axis] - 0.5)
                .ceil()
                .max(0.0) as usize;
            let last = ((max - grid.origin[axis] - j) / grid.h[axis] - 0.5).floor();
            let last = if last < 0.0 {
                None
            } else {
                Some((last as usize).min(n - 1))
            };
            (first, last)
        };
        let (jb0, jb1) = range(bmin, bmax, b, jitter[0], nb);
        let (jc0, jc1) = range(cmin, cmax, c, jitter[1], nc);
        let (Some(jb1), Some(jc1)) = (jb1, jc1) else {
            continue;
        };
        for jc in jc0..=jc1 {
            let y = coord(c, jc, jitter[1]);
            for jb in jb0..=jb1 {
                let x = coord(b, jb, jitter[0]);
                if let Some(s) = crossing(&p, axis, x, y) {
                    hits[jb + nb * jc].push(s);
                }
            }
        }
    }
    for jc in 0..nc {
        for jb in 0..nb {
            let column = &mut hits[jb + nb * jc];
            column.sort_unstable_by(|a, b| a.0.total_cmp(&b.0));
            let (mut crossed, mut winding) = (0, 0);
            for i in 0..grid.n[axis] {
                let t = coord(axis, i, 0.0);
                while crossed < column.len() && column[crossed].0 < t {
                    winding += column[crossed].1;
                    crossed += 1;
                }
                if winding > 0 {
                    let mut cell = [0; 3];
                    cell[axis] = i;
                    cell[b] = jb;
                    cell[c] = jc;
                    votes[grid.cell(cell[0], cell[1], cell[2])] += 1;
                }
            }
        }
    }
}

/// Where the line along `axis` through `(x, y)` in the other two coordinates (in cyclic order
/// `axis + 1`, `axis + 2`) crosses triangle `p`, if it does (edges included), and how: `+1`
/// entering the body (the outward normal points against the axis), `−1` leaving it.
fn crossing(p: &[[f64; 3]; 3], axis: usize, x: f64, y: f64) -> Option<(f64, i32)> {
    let (b, c) = ((axis + 1) % 3, (axis + 2) % 3);
    // Twice the signed projected area.
    let area =
        (p[1][b] - p[0][b]) * (p[2][c] - p[0][c]) - (p[2][b] - p[0][b]) * (p[1][c] - p[0][c]);
    if area == 0.0 {
        return None;
    }
    let edge = |u: usize, v: usize| {
        (p[v][b] - p[u][b]) * (y - p[u][c]) - (x - p[u][b]) * (p[v][c] - p[u][c])
    };
    let w = [edge(1, 2), edge(2, 0), edge(0, 1)];
    let inside = if area > 0.0 {
        w.iter().all(|&e| e >= 0.0)
    } else {
        w.iter().all(|&e| e <= 0.0)
    };
    let sign = if area > 0.0 { -1 } else { 1 };
    inside.then(|| {
        (
            (w[0] * p[0][axis] + w[1] * p[1][axis] + w[2] * p[2][axis]) / area,
            sign,
        )
    })
}

/// The volume a closed mesh encloses (positive for outward winding), by the divergence theorem.
pub(super) fn mesh_volume(mesh: &Mesh) -> f64 {
    mesh.triangles
        .iter()
        .map(|t| {
            let [a, b, c] = t.map(|v| mesh.vertices[v as usize]);
            a[0] * (b[1] * c[2] - b[2] * c[1])
                + a[1] * (b[2] * c[0] - b[0] * c[2])
                + a[2] * (b[0] * c[1] - b[1] * c[0])
        })
        .sum::<f64>()
        / 6.0
}

/// The generalized winding number of the mesh around `q` (±1 inside a closed mesh, 0 outside),
/// from the solid angles of its triangles (Van Oosterom–Strackee).
pub(super) fn winding_number(mesh: &Mesh, q: [f64; 3]) -> f64 {
    let sub = |v: [f64; 3]| [v[0] - q[0], v[1] - q[1], v[2] - q[2]];
    let dot = |u: [f64; 3], v: [f64; 3]| u[0] * v[0] + u[1] * v[1] + u[2] * v[2];
    let mut total = 0.0;
    for t in &mesh.triangles {
        let [a, b, c] = t.map(|v| sub(mesh.vertices[v as usize]));
        let (la, lb, lc) = (dot(a, a).sqrt(), dot(b, b).sqrt(), dot(c, c).sqrt());
        let cross = [
            b[1] * c[2] - b[2] * c[1],
            b[2] * c[0] - b[0] * c[2],
            b[0] * c[1] - b[1] * c[0],
        ];
        let numerator = dot(a, cross);
        let denominator = la * lb * lc + dot(a, b) * lc + dot(b, c) * la + dot(c, a) * lb;
        total += 2.0 * numerator.atan2(denominator);
    }
    total / (4.0 * std::f64::consts::PI)
}

/// Index ranges `[first, last]` of the cells along each axis that the box `[lo, hi]` (grown by
/// a hair) touches, or `None` when it misses the grid.
pub(super) fn cell_range(grid: &Grid, lo: [f64; 3], hi: [f64; 3]) -> Option<[[usize; 2]; 3]> {
    let mut range = [[0; 2]; 3];
    for a in 0..3 {
        let slack = 1e-9 * grid.h[a];
        let first = ((lo[a] - slack - grid.origin[a]) / grid.h[a]).floor();
        let last = ((hi[a] + slack - grid.origin[a]) / grid.h[a]).floor();
        if last < 0.0 || first >= grid.n[a] as f64 {
            return None;
        }
        range[a] = [first.max(0.0) as usize, (last as usize).min(grid.n[a] - 1)];
    }
    Some(range)
}

/// Whether the box of cell `c` (grown by a hair) meets the plane of triangle `p`.
pub(super) fn cell_meets_plane(grid: &Grid, c: [usize; 3], p: &[[f64; 3]; 3]) -> bool {
    let u: [f64; 3] = core::array::from_fn(|a| p[1][a] - p[0][a]);
    let v: [f64; 3] = core::array::from_fn(|a| p[2][a] - p[0][a]);
    let n = [
        u[1] * v[2] - u[2] * v[1],
        u[2] * v[0] - u[0] * v[2],
        u[0] * v[1] - u[1] * v[0],
    ];
    let centre = grid.centre(c);
    let distance: f64 = (0..3).map(|a| n[a] * (centre[a] - p[0][a])).sum();
    let reach: f64 = (0..3).map(|a| n[a].abs() * grid.h[a]).sum::<f64>() * 0.5 * (1.0 + 1e-9);
    distance.abs() <= reach
}

/// Cells that the surface may pass through: those whose box meets the plane of a triangle
/// inside that triangle's bounding box (a superset of the cells the surface really cuts).
fn cells_near_surface(mesh: &Mesh, grid: &Grid) -> Vec<bool> {
    let mut near = vec![false; grid.fill.len()];
    for t in &mesh.triangles {
        let p = t.map(|v| mesh.vertices[v as usize]);
        cells_of_box(grid, &p, |[i, j, k], _, _| {
            let c = grid.cell(i, j, k);
            if !near[c] && cell_meets_plane(grid, [i, j, k], &p) {
                near[c] = true;
            }
        });
    }
    near
}

/// Calls `visit` with every cell `[i, j, k]` that the bounding box of triangle `p` touches
/// ([`cell_range`]), and with that box's low and high corners.
pub(super) fn cells_of_box(
    grid: &Grid,
    p: &[[f64; 3]; 3],
    mut visit: impl FnMut([usize; 3], [f64; 3], [f64; 3]),
) {
    let lo: [f64; 3] = core::array::from_fn(|a| p[0][a].min(p[1][a]).min(p[2][a]));
    let hi: [f64; 3] = core::array::from_fn(|a| p[0][a].max(p[1][a]).max(p[2][a]));
    let Some(r) = cell_range(grid, lo, hi) else {
        return;
    };
    for k in r[2][0]..=r[2][1] {
        for j in r[1][0]..=r[1][1] {
            for i in r[0][0]..=r[0][1] {
                visit([i, j, k], lo, hi);
            }
        }
    }
}

/// Sub-rays per row of cells: a Fibonacci lattice of `N` points on the cell's cross-section,
/// whose projections on either axis are `N` equally spaced values (so a face parallel to a
/// ray is placed to `h / N`, not `h / √N`).
const RAYS: usize = 377;
/// The lattice's generator (the Fibonacci number before [`RAYS`]).
const RAY_STEP: usize = 233;

/// Measures every cell marked in `near` by rays along x through [`RAYS`] points of each row's
/// cross-section: along each ray the inside intervals are exact (nonzero winding), and their
/// integrals of the quadratic Lagrange polynomials, weighted by the polynomials' values at the
/// ray in y and z, give the cell's volume fraction and moment-fitted weights. Sets each such
/// cell empty, full, or cut.
fn sample_cut_cells(mesh: &Mesh, grid: &mut Grid, near: &[bool]) {
    let [nx, ny, nz] = grid.n;
    // Which rows (j, k) along x hold cells to measure, and the triangles over each such row.
    let mut row_has = vec![false; ny * nz];
    for (c, &m) in near.iter().enumerate() {
        if m {
            let [_, j, k] = grid.cell_ijk(c);
            row_has[j + ny * k] = true;
        }
    }
    let mut row_triangles: Vec<Vec<u32>> = vec![Vec::new(); ny * nz];
    for (ti, t) in mesh.triangles.iter().enumerate() {
        let p = t.map(|v| mesh.vertices[v as usize]);
        let mut lo: [f64; 3] = core::array::from_fn(|a| p[0][a].min(p[1][a]).min(p[2][a]));
        let mut hi: [f64; 3] = core::array::from_fn(|a| p[0][a].max(p[1][a]).max(p[2][a]));
        // Only the y and z ranges matter for a row.
        lo[0] = grid.origin[0];
        hi[0] = grid.origin[0];
        let Some(r) = cell_range(grid, lo, hi) else {
            continue;
        };
        for k in r[2][0]..=r[2][1] {
            for j in r[1][0]..=r[1][1] {
                if row_has[j + ny * k] {
                    row_triangles[j + ny * k].push(ti as u32);
                }
            }
        }
    }
    let points: Vec<[f64; 2]> = (0..RAYS)
        .map(|i| {
            [
                (i as f64 + 0.5) / RAYS as f64,
                ((i * RAY_STEP) % RAYS) as f64 / RAYS as f64 + 0.5 / RAYS as f64,
            ]
        })
        .collect();
    let mut intervals = Vec::new();
    for k in 0..nz {
        for j in 0..ny {
            if !row_has[j + ny * k] {
                continue;
            }
            let cells: Vec<usize> = (0..nx).filter(|&i| near[grid.cell(i, j, k)]).collect();
            let mut weights = vec![[0.0f64; 27]; cells.len()];
            let mut volume = vec![0.0f64; cells.len()];
            for &[u, v] in &points {
                let y = grid.origin[1] + (j as f64 + u) * grid.h[1];
                let z = grid.origin[2] + (k as f64 + v) * grid.h[2];
                inside_intervals(mesh, &row_triangles[j + ny * k], grid, y, z, &mut intervals);
                let yz: [[f64; 3]; 3] = core::array::from_fn(|q2| {
                    core::array::from_fn(|q1| lagrange(q1, u) * lagrange(q2, v))
                });
                let mut first = 0;
                for (slot, &i) in cells.iter().enumerate() {
                    let x0 = grid.origin[0] + i as f64 * grid.h[0];
                    let mut along = [0.0; 3];
                    let mut length = 0.0;
                    while first < intervals.len() && intervals[first].1 <= x0 {
                        first += 1;
                    }
                    for &(a, b) in &intervals[first..] {
                        let (a, b) = (
                            ((a - x0) / grid.h[0]).max(0.0),
                            ((b - x0) / grid.h[0]).min(1.0),
                        );
                        if a >= 1.0 {
                            break;
                        }
                        if b > a {
                            length += b - a;
                            for (q, al) in along.iter_mut().enumerate() {
                                *al += lagrange_integral(q, a, b);
                            }
                        }
                    }
                    if length == 0.0 {
                        continue;
                    }
                    volume[slot] += length / RAYS as f64;
                    for q2 in 0..3 {
                        for q1 in 0..3 {
                            let w = yz[q2][q1] / RAYS as f64;
                            for q0 in 0..3 {
                                weights[slot][q0 + 3 * q1 + 9 * q2] += along[q0] * w;
                            }
                        }
                    }
                }
            }
            for (slot, &i) in cells.iter().enumerate() {
                let cell = grid.cell(i, j, k);
                // A fraction within a part per million of 0 or 1 is that (round-off at faces
                // lying on cell walls).
                grid.fill[cell] = if volume[slot] <= 1e-6 {
                    Fill::Empty
                } else if volume[slot] >= 1.0 - 1e-6 {
                    Fill::Full
                } else {
                    grid.cuts.push(CutCell {
                        fraction: volume[slot],
                        weights: weights[slot],
                    });
                    Fill::Cut((grid.cuts.len() - 1) as u32)
                };
            }
        }
    }
}

/// `∫ₐᵇ L_q(x) dx` for the quadratic Lagrange polynomial of Gauss point `q`.
fn lagrange_integral(q: usize, a: f64, b: f64) -> f64 {
    // L_q(x) = c (x − p)(x − r) with p, r the other two points.
    let others: Vec<f64> = (0..3)
        .filter(|&p| p != q)
        .map(|p| GAUSS_POINTS[p])
        .collect();
    let (p, r) = (others[0], others[1]);
    let c = 1.0 / ((GAUSS_POINTS[q] - p) * (GAUSS_POINTS[q] - r));
    let antiderivative = |x: f64| c * (x * x * x / 3.0 - (p + r) * x * x / 2.0 + p * r * x);
    antiderivative(b) - antiderivative(a)
}

/// The intervals of x where the line along x through `(y, z)` is inside the body (nonzero
/// winding of the signed crossings with `candidates`), sorted, into `out`. The line is nudged
/// by a few irrational millionths of a cell until its crossings add up to zero (a line
/// through an edge or a vertex can count a crossing twice on one side); if that never
/// happens the last attempt's intervals are kept.
fn inside_intervals(
    mesh: &Mesh,
    candidates: &[u32],
    grid: &Grid,
    y: f64,
    z: f64,
    out: &mut Vec<(f64, f64)>,
) {
    let mut hits: Vec<(f64, i32)> = Vec::new();
    for attempt in 0..4 {
        let f = (attempt + 1) as f64;
        let (yj, zj) = (
            y + 0.754_877_666_2e-6 * f * grid.h[1],
            z + 0.569_840_291_0e-6 * f * f * grid.h[2],
        );
        hits.clear();
        for &t in candidates {
            let p = mesh.triangles[t as usize].map(|v| mesh.vertices[v as usize]);
            if let Some(hit) = crossing(&p, 0, yj, zj) {
                hits.push(hit);
            }
        }
        if hits.iter().map(|h| h.1).sum::<i32>() == 0 {
            break;
        }
    }
    hits.sort_unstable_by(|a, b| a.0.total_cmp(&b.0));
    out.clear();
    let mut winding = 0;
    let mut start = 0.0;
    for &(x, sign) in &hits {
        let before = winding;
        winding += sign;
        if before <= 0 && winding > 0 {
            start = x;
        } else if before > 0 && winding <= 0 {
            out.push((start, x));
        }
    }
}

/// Keeps only the largest face-connected group of solid cells (cells joined to it only by an
/// edge or a corner would hinge freely and add spurious zero-frequency modes); returns how
/// many were dropped.
pub(super) fn keep_largest_component(grid: &mut Grid) -> usize {
    let n = grid.n;
    let mut label = vec![usize::MAX; grid.fill.len()];
    let mut sizes = Vec::new();
    let mut stack = Vec::new();
    for start in 0..grid.fill.len() {
        if !grid.is_solid(start) || label[start] != usize::MAX {
            continue;
        }
        let id = sizes.len();
        let mut size = 0;
        label[start] = id;
        stack.push(start);
        while let Some(c) = stack.pop() {
            size += 1;
            let [i, j, k] = grid.cell_ijk(c);
            let mut visit = |i: usize, j: usize, k: usize| {
                let d = grid.cell(i, j, k);
                if grid.is_solid(d) && label[d] == usize::MAX {
                    label[d] = id;
                    stack.push(d);
                }
            };
            if i > 0 {
                visit(i - 1, j, k);
            }
            if i + 1 < n[0] {
                visit(i + 1, j, k);
            }
            if j > 0 {
                visit(i, j - 1, k);
            }
            if j + 1 < n[1] {
                visit(i, j + 1, k);
            }
            if k > 0 {
                visit(i, j, k - 1);
            }
            if k + 1 < n[2] {
                visit(i, j, k + 1);
            }
        }
        sizes.push(size);
    }
    let Some(best) = (0..sizes.len()).max_by_key(|&i| sizes[i]) else {
        return 0;
    };
    let mut dropped = 0;
    for (f, l) in grid.fill.iter_mut().zip(&label) {
        if *f != Fill::Empty && *l != best {
            *f = Fill::Empty;
            dropped += 1;
        }
    }
    dropped
}
