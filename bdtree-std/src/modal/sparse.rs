//! The assembled lattice problem: sparse stiffness `K` and mass `M` over the free nodes.

use super::element::{corner, element, full_weights, Element};
use super::lattice::{Fill, Grid};
use super::options::ModesError;
use faer::sparse::{SparseColMat, Triplet};
use faer::Mat;

/// `node_dof` of a node no solid cell uses.
pub(super) const UNUSED: usize = usize::MAX;
/// `node_dof` of a held (clamped) node: its displacement is zero and it has no dofs.
pub(super) const HELD: usize = usize::MAX - 1;

/// A symmetric sparse matrix in compressed columns (full pattern, rows unsorted).
pub(super) struct Csc {
    pub n: usize,
    pub col_ptr: Vec<usize>,
    pub row: Vec<usize>,
    pub val: Vec<f64>,
}

impl Csc {
    /// `y = A x` for each column of `x` (A symmetric, so column access is row access).
    pub fn mul(&self, x: &Mat<f64>) -> Mat<f64> {
        let p = x.ncols();
        // Row-major copies, so the inner loop runs over the block's columns.
        let mut xr = vec![0.0; self.n * p];
        for c in 0..p {
            for (i, &v) in x.col_as_slice(c).iter().enumerate() {
                xr[i * p + c] = v;
            }
        }
        let mut yr = vec![0.0; self.n * p];
        for j in 0..self.n {
            let xj = &xr[j * p..(j + 1) * p];
            for e in self.col_ptr[j]..self.col_ptr[j + 1] {
                let (i, v) = (self.row[e], self.val[e]);
                for (y, x) in yr[i * p..(i + 1) * p].iter_mut().zip(xj) {
                    *y += v * x;
                }
            }
        }
        Mat::from_fn(self.n, p, |i, c| yr[i * p + c])
    }

    /// Entry `(i, i)` (0 when not stored).
    pub fn diagonal(&self, i: usize) -> f64 {
        (self.col_ptr[i]..self.col_ptr[i + 1])
            .filter(|&e| self.row[e] == i)
            .map(|e| self.val[e])
            .sum()
    }

    /// `self + s · other` as a faer matrix, lower triangle only.
    pub fn lower_combination(
        &self,
        s: f64,
        other: &Csc,
    ) -> Result<SparseColMat<usize, f64>, ModesError> {
        let mut triplets = Vec::with_capacity(self.val.len() / 2 + other.val.len() / 2 + self.n);
        for (m, scale) in [(self, 1.0), (other, s)] {
            for j in 0..m.n {
                for e in m.col_ptr[j]..m.col_ptr[j + 1] {
                    if m.row[e] >= j {
                        triplets.push(Triplet::new(m.row[e], j, scale * m.val[e]));
                    }
                }
            }
        }
        // Duplicates (the same entry of K and of M) are summed.
        SparseColMat::try_new_from_triplets(self.n, self.n, &triplets)
            .map_err(|e| ModesError::Numerical(format!("sparse matrix: {e:?}")))
    }
}

/// The assembled lattice problem.
pub(super) struct System {
    pub k: Csc,
    pub m: Csc,
    /// Lattice node → dof block index, or [`UNUSED`] / [`HELD`].
    pub node_dof: Vec<usize>,
    /// Position of each free node, by dof block.
    pub positions: Vec<[f64; 3]>,
}

/// Neighbour slot of node offset `d ∈ {−1, 0, 1}³`.
fn slot(d: [isize; 3]) -> usize {
    ((d[0] + 1) + 3 * (d[1] + 1) + 9 * (d[2] + 1)) as usize
}

/// Assembles `K` and `M` over the solid cells of `grid` (`held[node]`: the node is clamped).
/// Full cells share one element; each cut cell gets its own from its weights.
pub(super) fn assemble(
    grid: &Grid,
    young: f64,
    poisson: f64,
    density: f64,
    held: &[bool],
) -> System {
    let n = grid.n;
    let mut node_dof = vec![UNUSED; (n[0] + 1) * (n[1] + 1) * (n[2] + 1)];
    let mut positions = Vec::new();
    for c in 0..grid.fill.len() {
        if !grid.is_solid(c) {
            continue;
        }
        let [i, j, k] = grid.cell_ijk(c);
        for l in 0..8 {
            let d = corner(l);
            let (a, b, e) = (i + d[0], j + d[1], k + d[2]);
            let node = grid.node(a, b, e);
            if node_dof[node] == UNUSED {
                node_dof[node] = if held[node] {
                    HELD
                } else {
                    positions.push(grid.node_position(a, b, e));
                    positions.len() - 1
                };
            }
        }
    }
    let free = positions.len();
    // Per free node, the 3 × 3 stiffness blocks and mass coefficients coupling it to its 27
    // neighbours (a node couples only to nodes of the cells it belongs to).
    let mut kb = vec![[[0.0f64; 9]; 27]; free];
    let mut mb = vec![[0.0f64; 27]; free];
    let full = element(&full_weights(), grid.h, young, poisson, true);
    for c in 0..grid.fill.len() {
        let own;
        let e: &Element = match grid.fill[c] {
            Fill::Empty => continue,
            Fill::Full => &full,
            Fill::Cut(index) => {
                own = element(
                    &grid.cuts[index as usize].weights,
                    grid.h,
                    young,
                    poisson,
                    true,
                );
                &own
            }
        };
        let [i, j, k] = grid.cell_ijk(c);
        let nodes: [usize; 8] = core::array::from_fn(|l| {
            let d = corner(l);
            node_dof[grid.node(i + d[0], j + d[1], k + d[2])]
        });
        for l in 0..8 {
            if nodes[l] >= HELD {
                continue;
            }
            let (cl, row) = (corner(l), nodes[l]);
            for m in 0..8 {
                if nodes[m] >= HELD {
                    continue;
                }
                let cm = corner(m);
                let s = slot(core::array::from_fn(|a| cm[a] as isize - cl[a] as isize));
                for a in 0..3 {
                    for b in 0..3 {
                        kb[row][s][3 * a + b] += e.stiffness[3 * l + a][3 * m + b];
                    }
                }
                mb[row][s] += density * e.mass[l][m];
            }
        }
    }
    // Neighbour dof blocks of each free node, by slot.
    let mut neighbours = vec![[UNUSED; 27]; free];
    for node in 0..node_dof.len() {
        let dof = node_dof[node];
        if dof >= HELD {
            continue;
        }
        let i = node % (n[0] + 1);
        let j = (node / (n[0] + 1)) % (n[1] + 1);
        let k = node / ((n[0] + 1) * (n[1] + 1));
        for (s, nb) in neighbours[dof].iter_mut().enumerate() {
            let d = [s % 3, (s / 3) % 3, s / 9];
            let (a, b, e) = (i + d[0], j + d[1], k + d[2]);
            if a == 0 || b == 0 || e == 0 || a > n[0] + 1 || b > n[1] + 1 || e > n[2] + 1 {
                continue;
            }
            let other = node_dof[grid.node(a - 1, b - 1, e - 1)];
            if other < HELD {
                *nb = other;
            }
        }
    }
    let dofs = 3 * free;
    let build = |value: &dyn Fn(usize, usize, usize, usize) -> f64| {
        let mut col_ptr = Vec::with_capacity(dofs + 1);
        let mut row = Vec::new();
        let mut val = Vec::new();
        col_ptr.push(0);
        for dof in 0..free {
            for b in 0..3 {
                for s in 0..27 {
                    let other = neighbours[dof][s];
                    if other == UNUSED {
                        continue;
                    }
                    for a in 0..3 {
                        let v = value(dof, s, a, b);
                        if v != 0.0 {
                            row.push(3 * other + a);
                            val.push(v);
                        }
                    }
                }
                col_ptr.push(row.len());
            }
        }
        Csc {
            n: dofs,
            col_ptr,
            row,
            val,
        }
    };
    // Column (dof, b), row (neighbour, a): the block stored at the neighbour for the opposite
    // slot equals the transpose of ours; K is symmetric, so use ours transposed.
    let k = build(&|dof, s, a, b| kb[dof][s][3 * b + a]);
    let m = build(&|dof, s, a, b| if a == b { mb[dof][s] } else { 0.0 });
    System {
        k,
        m,
        node_dof,
        positions,
    }
}
