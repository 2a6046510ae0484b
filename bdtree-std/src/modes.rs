//! Vibration modes of a closed surface mesh: a linear-elastic modal analysis on an embedded
//! hexahedral lattice, giving a displacement [`Basis`] for reduced deformable bodies.
//!
//! # Pipeline
//!
//! 1. **Voxelise.** A regular grid of cubic cells of side `h = longest bounding-box side /
//!    resolution` covers the bounding box (centred on it). A cell is solid when its centre is
//!    inside the mesh: three ray-parity votes (one ray along each axis, slightly jittered off the
//!    cell centre so rays rarely graze an edge) decide by majority, and a cell whose three votes
//!    disagree is settled by the generalized winding number (`|w| > ½`). Only the largest
//!    face-connected group of solid cells is kept: cells joined to it only by an edge or a
//!    corner would hinge freely and add spurious zero-frequency modes.
//! 2. **Finite elements.** Every solid cell is a trilinear 8-node hexahedron with 3
//!    displacement dofs per node; the element stiffness comes from isotropic linear elasticity
//!    (Young's modulus `E`, Poisson's ratio `ν`) with full 2 × 2 × 2 Gauss integration, the mass
//!    matrix is the consistent one (density `ρ`). Sparse `K` and `M` are assembled over the
//!    lattice nodes. Fully integrated trilinear hexahedra are too stiff in bending (shear
//!    locking): bending frequencies of slender parts come out high, by an error that shrinks
//!    roughly like `(h / thickness)²` (see the tests for measured figures).
//! 3. **Eigenproblem.** `K u = λ M u` is solved by shift-invert subspace iteration: `K − σM` with
//!    a small negative shift `σ = −10⁻³ E / (ρ L²)` (`L` the longest side) is positive definite
//!    despite the six rigid-body modes, is factored once by faer's sparse Cholesky, and a block
//!    of `p = max(2(k + 6), k + 14)` vectors (started from the six rigid motions and
//!    deterministic pseudo-random vectors) is iterated `X ← (K − σM)⁻¹ M X` with a Rayleigh–Ritz
//!    step on the projected `p × p` problem each time, until the `k + 6` lowest Ritz values
//!    change by less than `10⁻¹⁰` (relative, or below a round-off floor of
//!    `10 ε max(K_ii / M_ii)` on fine lattices). The six lowest are the rigid-body modes; they must
//!    be numerically zero (anything else is an error: a mechanism or a disconnected lattice),
//!    are removed, and the rigid motions are also projected out of the elastic modes explicitly
//!    (`M`-orthogonally).
//! 4. **Surface.** Each mesh vertex is embedded in its lattice cell, or, if that cell is not
//!    solid, in the nearest solid cell, with trilinear weights from its local coordinates
//!    *clamped to the cell* (no extrapolation: a vertex outside its cell moves like the nearest
//!    point of the cell). A mode's surface displacement is the weighted sum of the cell's 8
//!    node displacements.
//!
//! # Units and conventions
//!
//! SI throughout: lengths in the mesh's unit, taken as metres; `E` in pascals, `ρ` in kg/m³;
//! eigenvalues `λ = ω²` in s⁻², frequencies `f = √λ / 2π` in hertz. Each column of the
//! returned [`Basis`] is scaled so that the largest vertex displacement (Euclidean norm over x,
//! y, z) is exactly 1, with the sign chosen so that the entry of largest magnitude is positive;
//! scale it by an amplitude to use it. Columns are sorted by increasing frequency.
//!
//! # Cost
//!
//! Voxelisation is `O(columns × triangles)` ray tests plus a winding number (`O(triangles)`)
//! per undecided cell. The lattice dofs are ordered by geometric nested dissection, so the
//! Cholesky factor of an `n`-dof lattice has `O(n^{4/3})` entries and costs `O(n²)` flops;
//! each iteration costs `p` forward and back substitutions with it (typically 10–20
//! iterations). Measured in release builds on one core: a 16-cell lattice of a ball (2 200
//! cells, 8 500 dofs, k = 10) takes 1.1 s; 32 cells (17 000 cells, 59 000 dofs) 15 s and
//! 0.7 GB.

use crate::basis::Basis;
use crate::mesh::Mesh;
use faer::dyn_stack::{MemBuffer, MemStack};
use faer::linalg::cholesky::llt::factor::LltRegularization;
use faer::perm::PermRef;
use faer::sparse::linalg::cholesky::{
    factorize_symbolic_cholesky, LltRef, SymbolicCholesky, SymmetricOrdering,
};
use faer::sparse::{SparseColMat, Triplet};
use faer::{Conj, Mat, MatMut, Par, Side};

/// Material and lattice parameters of a modal analysis (SI units).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ModalOptions {
    /// How many non-rigid modes to compute (at least 1).
    pub modes: usize,
    /// Young's modulus `E` in pascals.
    pub young: f64,
    /// Poisson's ratio `ν`, in `(−1, ½)`.
    pub poisson: f64,
    /// Density `ρ` in kg/m³.
    pub density: f64,
    /// Lattice cells along the longest side of the bounding box (at least 1).
    pub resolution: usize,
}

impl Default for ModalOptions {
    /// 10 modes of a soft rubber-like solid (`E` = 1 MPa, `ν` = 0.45, `ρ` = 1000 kg/m³) on a
    /// 16-cell lattice.
    fn default() -> Self {
        Self {
            modes: 10,
            young: 1e6,
            poisson: 0.45,
            density: 1000.0,
            resolution: 16,
        }
    }
}

/// What the analysis is doing, for progress reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Progress {
    /// The lattice is built: this many solid cells and degrees of freedom.
    Lattice {
        /// Solid cells kept.
        cells: usize,
        /// Degrees of freedom (3 per lattice node).
        dofs: usize,
    },
    /// `K − σM` is factored.
    Factored,
    /// One subspace iteration is done.
    Iteration {
        /// Iterations so far.
        iteration: usize,
        /// Leading Ritz values that have converged.
        converged: usize,
        /// Ritz values wanted (`k + 6`).
        wanted: usize,
    },
}

/// The lattice a [`Modes`] was computed on.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Lattice {
    /// Cells along x, y and z.
    pub cells: [usize; 3],
    /// Cell side `h` in metres.
    pub spacing: f64,
    /// Lower corner of the grid.
    pub origin: [f64; 3],
    /// Solid cells kept (the largest face-connected group).
    pub solid_cells: usize,
    /// Solid cells dropped because they are not face-connected to the kept group.
    pub dropped_cells: usize,
    /// Cells whose three ray votes disagreed and were settled by the winding number.
    pub undecided_cells: usize,
    /// Degrees of freedom, 3 per node of a kept cell.
    pub dofs: usize,
}

/// The result of [`compute_modes`].
#[derive(Debug, Clone, PartialEq)]
pub struct Modes {
    /// The `k` lowest non-rigid frequencies in hertz, increasing.
    pub frequencies_hz: Vec<f64>,
    /// Their eigenvalues `λ = (2π f)²` in s⁻².
    pub eigenvalues: Vec<f64>,
    /// The six removed rigid-body eigenvalues (numerically zero), in s⁻².
    pub rigid_eigenvalues: Vec<f64>,
    /// Surface displacements, 3N × k (see the [module documentation](self) for the scaling).
    pub basis: Basis,
    /// The lattice.
    pub lattice: Lattice,
    /// Subspace iterations until convergence.
    pub iterations: usize,
    /// Largest relative residual `‖K u − λ M u‖ / ‖K u‖` of the returned modes.
    pub max_residual: f64,
    /// Largest distance from a mesh vertex to the solid cell it is embedded in, in metres
    /// (0 when every vertex lies in a solid cell).
    pub max_embedding_gap: f64,
    /// Volume of the solid cells over the volume the mesh encloses: far from 1 when the
    /// lattice is too coarse for thin parts (which then come out too thick or are missing),
    /// and the frequencies are not to be trusted.
    pub volume_ratio: f64,
}

/// Why a modal analysis failed.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum ModesError {
    /// An option is out of range; the text says which.
    InvalidOptions(String),
    /// The mesh has no triangles, or edges used by only one triangle (so it has no inside).
    NotClosed {
        /// Edges used an odd number of times.
        open_edges: usize,
    },
    /// No cell centre lies inside the mesh at this resolution.
    NoSolidCells {
        /// The resolution used.
        resolution: usize,
    },
    /// The lattice has fewer degrees of freedom than the modes asked for.
    TooFewDofs {
        /// Degrees of freedom of the lattice.
        dofs: usize,
        /// `k + 6`.
        needed: usize,
    },
    /// A numerical step failed (not expected with valid options).
    Numerical(String),
    /// The iteration did not converge.
    NotConverged {
        /// Iterations run.
        iterations: usize,
    },
    /// Not exactly six near-zero eigenvalues.
    RigidModes {
        /// Near-zero eigenvalues found.
        found: usize,
    },
}

impl std::fmt::Display for ModesError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ModesError::InvalidOptions(what) => write!(f, "{what}"),
            ModesError::NotClosed { open_edges: 0 } => write!(f, "the mesh has no triangles"),
            ModesError::NotClosed { open_edges } => write!(
                f,
                "the mesh is not closed ({open_edges} edges belong to an odd number of \
                 triangles), so it has no inside to vibrate"
            ),
            ModesError::NoSolidCells { resolution } => write!(
                f,
                "no lattice cell centre is inside the mesh at resolution {resolution}: \
                 the body is thinner than a cell; raise --resolution"
            ),
            ModesError::TooFewDofs { dofs, needed } => write!(
                f,
                "the lattice has {dofs} degrees of freedom but {needed} modes (6 rigid + k) \
                 are needed; raise --resolution or lower -k"
            ),
            ModesError::Numerical(what) => write!(f, "numerical failure: {what}"),
            ModesError::NotConverged { iterations } => write!(
                f,
                "the eigen-iteration did not converge in {iterations} iterations"
            ),
            ModesError::RigidModes { found } => write!(
                f,
                "found {found} near-zero eigenvalues where a free body has exactly 6: \
                 the lattice has a mechanism or is disconnected"
            ),
        }
    }
}

impl std::error::Error for ModesError {}

/// Relative change of a Ritz value below which it counts as converged.
const TOLERANCE: f64 = 1e-10;

/// Subspace iterations before giving up.
const MAX_ITERATIONS: usize = 2000;

/// Eigenvalues below this fraction of the largest wanted one count as rigid (zero).
const RIGID_FRACTION: f64 = 1e-6;

/// Computes the `options.modes` lowest non-rigid vibration modes of the closed `mesh` (see the
/// [module documentation](self)). `progress` is told about each stage and iteration.
pub fn compute_modes(
    mesh: &Mesh,
    options: &ModalOptions,
    progress: &mut dyn FnMut(Progress),
) -> Result<Modes, ModesError> {
    Ok(analyse(mesh, options, progress)?.0)
}

impl ModalOptions {
    /// Checks that every option is in range; the message names the offending command-line
    /// flag (`-k`, `--young`, `--poisson`, `--density`, `--resolution`).
    pub fn validate(&self) -> Result<(), ModesError> {
        check_options(self)
    }
}

/// Checks the options; the message names the offending flag.
fn check_options(o: &ModalOptions) -> Result<(), ModesError> {
    let bad = |s: String| Err(ModesError::InvalidOptions(s));
    if o.modes == 0 {
        return bad("-k (the number of modes) must be at least 1".into());
    }
    if !(o.young.is_finite() && o.young > 0.0) {
        return bad(format!(
            "--young must be a positive number of pascals, not {}",
            o.young
        ));
    }
    if !(o.poisson.is_finite() && o.poisson > -1.0 && o.poisson < 0.5) {
        return bad(format!(
            "--poisson must lie strictly between -1 and 0.5, not {}",
            o.poisson
        ));
    }
    if !(o.density.is_finite() && o.density > 0.0) {
        return bad(format!(
            "--density must be a positive number of kg/m³, not {}",
            o.density
        ));
    }
    if o.resolution == 0 || o.resolution > 1024 {
        return bad(format!(
            "--resolution must be between 1 and 1024, not {}",
            o.resolution
        ));
    }
    Ok(())
}

/// Edges used by an odd number of triangles (0 for a closed mesh).
fn open_edges(mesh: &Mesh) -> usize {
    let mut edges: Vec<(u32, u32)> = mesh
        .triangles
        .iter()
        .flat_map(|t| [(t[0], t[1]), (t[1], t[2]), (t[2], t[0])])
        .map(|(a, b)| (a.min(b), a.max(b)))
        .collect();
    edges.sort_unstable();
    let mut open = 0;
    let mut i = 0;
    while i < edges.len() {
        let mut j = i;
        while j < edges.len() && edges[j] == edges[i] {
            j += 1;
        }
        open += (j - i) % 2;
        i = j;
    }
    open
}

/// The voxel grid and which cells are solid.
struct Grid {
    n: [usize; 3],
    h: f64,
    origin: [f64; 3],
    solid: Vec<bool>,
    undecided: usize,
}

impl Grid {
    fn cell(&self, i: usize, j: usize, k: usize) -> usize {
        i + self.n[0] * (j + self.n[1] * k)
    }

    fn node(&self, i: usize, j: usize, k: usize) -> usize {
        i + (self.n[0] + 1) * (j + (self.n[1] + 1) * k)
    }

    fn centre(&self, c: [usize; 3]) -> [f64; 3] {
        core::array::from_fn(|a| self.origin[a] + (c[a] as f64 + 0.5) * self.h)
    }
}

/// Builds the grid and votes each cell in or out.
fn voxelise(mesh: &Mesh, resolution: usize) -> Grid {
    let mut lo = [f64::INFINITY; 3];
    let mut hi = [f64::NEG_INFINITY; 3];
    for v in &mesh.vertices {
        for a in 0..3 {
            lo[a] = lo[a].min(v[a]);
            hi[a] = hi[a].max(v[a]);
        }
    }
    let longest = (0..3).map(|a| hi[a] - lo[a]).fold(0.0, f64::max);
    let h = longest / resolution as f64;
    // Cells per axis: enough to cover the extent (a side that is an exact multiple of h gets
    // exactly that many, despite rounding), centred on the box.
    let n: [usize; 3] = core::array::from_fn(|a| {
        let cells = ((hi[a] - lo[a]) / h - 1e-9).ceil();
        (cells as usize).max(1)
    });
    let origin: [f64; 3] = core::array::from_fn(|a| 0.5 * (lo[a] + hi[a]) - 0.5 * n[a] as f64 * h);
    let mut grid = Grid {
        n,
        h,
        origin,
        solid: vec![false; n[0] * n[1] * n[2]],
        undecided: 0,
    };
    let mut votes = vec![0u8; grid.solid.len()];
    for axis in 0..3 {
        ray_votes(mesh, &grid, axis, &mut votes);
    }
    for k in 0..n[2] {
        for j in 0..n[1] {
            for i in 0..n[0] {
                let c = grid.cell(i, j, k);
                grid.solid[c] = match votes[c] {
                    0 => false,
                    3 => true,
                    _ => {
                        grid.undecided += 1;
                        winding_number(mesh, grid.centre([i, j, k])).abs() > 0.5
                    }
                };
            }
        }
    }
    grid
}

/// Adds 1 to `votes[c]` for every cell whose (jittered) centre a ray along `axis` finds
/// inside by crossing parity.
fn ray_votes(mesh: &Mesh, grid: &Grid, axis: usize, votes: &mut [u8]) {
    let (b, c) = ((axis + 1) % 3, (axis + 2) % 3);
    let (nb, nc) = (grid.n[b], grid.n[c]);
    // Irrational fractions of a cell: rays through exact lattice-aligned coordinates would
    // graze the edges and vertices of axis-aligned meshes.
    let jitter = [0.754_877_666_2e-6 * grid.h, 0.569_840_291_0e-6 * grid.h];
    let coord = |axis: usize, index: usize, jitter: f64| {
        grid.origin[axis] + (index as f64 + 0.5) * grid.h + jitter
    };
    let mut hits: Vec<Vec<f64>> = vec![Vec::new(); nb * nc];
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
            let first = ((min - grid.origin[axis] - j) / grid.h - 0.5)
                .ceil()
                .max(0.0) as usize;
            let last = ((max - grid.origin[axis] - j) / grid.h - 0.5).floor();
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
        // Twice the signed projected area.
        let area =
            (p[1][b] - p[0][b]) * (p[2][c] - p[0][c]) - (p[2][b] - p[0][b]) * (p[1][c] - p[0][c]);
        if area == 0.0 {
            continue;
        }
        for jc in jc0..=jc1 {
            let y = coord(c, jc, jitter[1]);
            for jb in jb0..=jb1 {
                let x = coord(b, jb, jitter[0]);
                let edge = |u: usize, v: usize| {
                    (p[v][b] - p[u][b]) * (y - p[u][c]) - (x - p[u][b]) * (p[v][c] - p[u][c])
                };
                let w = [edge(1, 2), edge(2, 0), edge(0, 1)];
                let inside = if area > 0.0 {
                    w.iter().all(|&e| e >= 0.0)
                } else {
                    w.iter().all(|&e| e <= 0.0)
                };
                if inside {
                    let s = (w[0] * p[0][axis] + w[1] * p[1][axis] + w[2] * p[2][axis]) / area;
                    hits[jb + nb * jc].push(s);
                }
            }
        }
    }
    for jc in 0..nc {
        for jb in 0..nb {
            let column = &mut hits[jb + nb * jc];
            column.sort_unstable_by(f64::total_cmp);
            let mut crossed = 0;
            for i in 0..grid.n[axis] {
                let t = coord(axis, i, 0.0);
                while crossed < column.len() && column[crossed] < t {
                    crossed += 1;
                }
                if crossed % 2 == 1 {
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

/// The volume a closed mesh encloses (positive for outward winding), by the divergence theorem.
fn mesh_volume(mesh: &Mesh) -> f64 {
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
fn winding_number(mesh: &Mesh, q: [f64; 3]) -> f64 {
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

/// Keeps only the largest face-connected group of solid cells; returns how many were dropped.
fn keep_largest_component(grid: &mut Grid) -> usize {
    let n = grid.n;
    let mut label = vec![usize::MAX; grid.solid.len()];
    let mut sizes = Vec::new();
    let mut stack = Vec::new();
    for start in 0..grid.solid.len() {
        if !grid.solid[start] || label[start] != usize::MAX {
            continue;
        }
        let id = sizes.len();
        let mut size = 0;
        label[start] = id;
        stack.push(start);
        while let Some(c) = stack.pop() {
            size += 1;
            let (i, j, k) = (c % n[0], (c / n[0]) % n[1], c / (n[0] * n[1]));
            let mut visit = |i: usize, j: usize, k: usize| {
                let d = grid.cell(i, j, k);
                if grid.solid[d] && label[d] == usize::MAX {
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
    for (s, l) in grid.solid.iter_mut().zip(&label) {
        if *s && *l != best {
            *s = false;
            dropped += 1;
        }
    }
    dropped
}

/// The 8 local nodes of a cell, node `l` at offset `(l & 1, l >> 1 & 1, l >> 2 & 1)`.
fn corner(l: usize) -> [usize; 3] {
    [l & 1, (l >> 1) & 1, (l >> 2) & 1]
}

/// Stiffness of the unit-cube trilinear hexahedron (24 × 24, dof `3l + a`), 2 × 2 × 2 Gauss;
/// the cube of side `h` has `h` times this.
fn unit_stiffness(young: f64, poisson: f64) -> [[f64; 24]; 24] {
    let lambda = young * poisson / ((1.0 + poisson) * (1.0 - 2.0 * poisson));
    let mu = young / (2.0 * (1.0 + poisson));
    let g = [0.5 - 0.5 / 3f64.sqrt(), 0.5 + 0.5 / 3f64.sqrt()];
    let mut k = [[0.0; 24]; 24];
    for gp in 0..8 {
        let xi = corner(gp).map(|b| g[b]);
        // Shape-function gradients at this point.
        let grad: [[f64; 3]; 8] = core::array::from_fn(|l| {
            let c = corner(l);
            let f = |a: usize| if c[a] == 1 { xi[a] } else { 1.0 - xi[a] };
            let df = |a: usize| if c[a] == 1 { 1.0 } else { -1.0 };
            [
                df(0) * f(1) * f(2),
                f(0) * df(1) * f(2),
                f(0) * f(1) * df(2),
            ]
        });
        let weight = 0.125;
        for (l, gl) in grad.iter().enumerate() {
            for (m, gm) in grad.iter().enumerate() {
                // K_lm[a][b] = λ ∂_a N_l ∂_b N_m + μ (∂_b N_l ∂_a N_m + δ_ab ∇N_l·∇N_m).
                let dot = gl[0] * gm[0] + gl[1] * gm[1] + gl[2] * gm[2];
                for a in 0..3 {
                    for b in 0..3 {
                        let mut v = lambda * gl[a] * gm[b] + mu * gl[b] * gm[a];
                        if a == b {
                            v += mu * dot;
                        }
                        k[3 * l + a][3 * m + b] += weight * v;
                    }
                }
            }
        }
    }
    k
}

/// Consistent mass of the unit-cube trilinear hexahedron per unit density, node by node (the
/// same for each axis); the cube of side `h` and density `ρ` has `ρ h³` times this.
fn unit_mass() -> [[f64; 8]; 8] {
    core::array::from_fn(|l| {
        core::array::from_fn(|m| {
            let (cl, cm) = (corner(l), corner(m));
            (0..3)
                .map(|a| if cl[a] == cm[a] { 1.0 / 3.0 } else { 1.0 / 6.0 })
                .product()
        })
    })
}

/// A symmetric sparse matrix in compressed columns (full pattern).
struct Csc {
    n: usize,
    col_ptr: Vec<usize>,
    row: Vec<usize>,
    val: Vec<f64>,
}

impl Csc {
    /// Sums duplicate `(col, row, value)` entries.
    fn from_entries(n: usize, mut entries: Vec<(usize, usize, f64)>) -> Csc {
        entries.sort_unstable_by_key(|&(c, r, _)| (c, r));
        let mut col_ptr = vec![0; n + 1];
        let mut row = Vec::new();
        let mut val: Vec<f64> = Vec::new();
        let mut last = None;
        for (c, r, v) in entries {
            if last == Some((c, r)) {
                if let Some(x) = val.last_mut() {
                    *x += v;
                }
            } else {
                row.push(r);
                val.push(v);
                col_ptr[c + 1] += 1;
                last = Some((c, r));
            }
        }
        for c in 0..n {
            col_ptr[c + 1] += col_ptr[c];
        }
        Csc {
            n,
            col_ptr,
            row,
            val,
        }
    }

    /// `y = A x` for each column of `x` (A symmetric, so column access is row access).
    fn mul(&self, x: &Mat<f64>) -> Mat<f64> {
        let mut y = Mat::<f64>::zeros(self.n, x.ncols());
        for c in 0..x.ncols() {
            let xc = x.col_as_slice(c);
            let yc = y.col_as_slice_mut(c);
            for (j, &xj) in xc.iter().enumerate() {
                for p in self.col_ptr[j]..self.col_ptr[j + 1] {
                    yc[self.row[p]] += self.val[p] * xj;
                }
            }
        }
        y
    }

    /// `self + s · other` as a faer matrix, lower triangle only.
    fn lower_combination(
        &self,
        s: f64,
        other: &Csc,
    ) -> Result<SparseColMat<usize, f64>, ModesError> {
        let mut triplets = Vec::with_capacity(self.val.len() / 2 + self.n);
        for (m, scale) in [(self, 1.0), (other, s)] {
            for j in 0..m.n {
                for p in m.col_ptr[j]..m.col_ptr[j + 1] {
                    if m.row[p] >= j {
                        triplets.push((j, m.row[p], scale * m.val[p]));
                    }
                }
            }
        }
        let summed = Csc::from_entries(self.n, triplets);
        let mut out = Vec::with_capacity(summed.val.len());
        for j in 0..summed.n {
            for p in summed.col_ptr[j]..summed.col_ptr[j + 1] {
                out.push(Triplet::new(summed.row[p], j, summed.val[p]));
            }
        }
        SparseColMat::try_new_from_triplets(self.n, self.n, &out)
            .map_err(|e| ModesError::Numerical(format!("sparse matrix: {e:?}")))
    }
}

/// Geometric nested dissection of the lattice nodes: a box of nodes is split by its middle
/// node plane across its longest side, the two halves are ordered first and the plane last.
/// Returns the dofs in elimination order (3 per node). On 3-D lattices this gives far less
/// fill than minimum degree.
fn nested_dissection(grid: &Grid, node_dof: &[usize]) -> Vec<usize> {
    let mut order = Vec::with_capacity(node_dof.len() * 3);
    // Explicit stack of boxes (inclusive node ranges); a separator is pushed as a box to emit
    // after both halves, which are pushed above it.
    enum Task {
        Split([usize; 3], [usize; 3]),
        Emit([usize; 3], [usize; 3]),
    }
    let mut stack = vec![Task::Split([0; 3], grid.n)];
    while let Some(task) = stack.pop() {
        match task {
            Task::Split(lo, hi) => {
                let extent: [usize; 3] = core::array::from_fn(|a| hi[a] - lo[a]);
                let axis = (0..3).max_by_key(|&a| extent[a]).unwrap_or(0);
                if extent[axis] < 2 {
                    stack.push(Task::Emit(lo, hi));
                    continue;
                }
                let mid = lo[axis] + extent[axis] / 2;
                let (mut left_hi, mut right_lo, mut plane_lo, mut plane_hi) = (hi, lo, lo, hi);
                left_hi[axis] = mid - 1;
                right_lo[axis] = mid + 1;
                plane_lo[axis] = mid;
                plane_hi[axis] = mid;
                stack.push(Task::Emit(plane_lo, plane_hi));
                stack.push(Task::Split(right_lo, hi));
                stack.push(Task::Split(lo, left_hi));
            }
            Task::Emit(lo, hi) => {
                for k in lo[2]..=hi[2] {
                    for j in lo[1]..=hi[1] {
                        for i in lo[0]..=hi[0] {
                            let dof = node_dof[grid.node(i, j, k)];
                            if dof != usize::MAX {
                                order.extend([3 * dof, 3 * dof + 1, 3 * dof + 2]);
                            }
                        }
                    }
                }
            }
        }
    }
    order
}

/// A sparse Cholesky factor `L Lᵀ = P A Pᵀ` of a symmetric positive definite matrix, with
/// the fill-reducing order `P` given.
struct Factor {
    symbolic: SymbolicCholesky<usize>,
    values: Vec<f64>,
}

impl Factor {
    /// Factors `a` (lower triangle stored) eliminating dofs in `order`.
    fn new(a: &SparseColMat<usize, f64>, order: &[usize]) -> Result<Factor, ModesError> {
        let n = a.nrows();
        let mut inverse = vec![0; n];
        for (new, &old) in order.iter().enumerate() {
            inverse[old] = new;
        }
        let perm = PermRef::new_checked(order, &inverse, n);
        let symbolic = factorize_symbolic_cholesky(
            a.symbolic(),
            Side::Lower,
            SymmetricOrdering::Custom(perm),
            Default::default(),
        )
        .map_err(|e| ModesError::Numerical(format!("symbolic Cholesky: {e:?}")))?;
        let mut values = vec![0.0; symbolic.len_val()];
        let mut buffer = MemBuffer::new(
            symbolic.factorize_numeric_llt_scratch::<f64>(Par::Seq, Default::default()),
        );
        symbolic
            .factorize_numeric_llt(
                &mut values,
                a.as_ref(),
                Side::Lower,
                LltRegularization::default(),
                Par::Seq,
                MemStack::new(&mut buffer),
                Default::default(),
            )
            .map_err(|e| ModesError::Numerical(format!("Cholesky of K − σM: {e:?}")))?;
        Ok(Factor { symbolic, values })
    }

    /// Overwrites `rhs` with `A⁻¹ rhs`.
    fn solve_in_place(&self, rhs: MatMut<'_, f64>) {
        let mut buffer = MemBuffer::new(
            self.symbolic
                .solve_in_place_scratch::<f64>(rhs.ncols(), Par::Seq),
        );
        LltRef::new(&self.symbolic, &self.values).solve_in_place_with_conj(
            Conj::No,
            rhs,
            Par::Seq,
            MemStack::new(&mut buffer),
        );
    }
}

/// The assembled lattice problem.
struct System {
    k: Csc,
    m: Csc,
    /// Lattice node → dof block index (`usize::MAX` for unused nodes).
    node_dof: Vec<usize>,
    /// Position of each used node, by dof block.
    positions: Vec<[f64; 3]>,
}

fn assemble(grid: &Grid, o: &ModalOptions) -> System {
    let n = grid.n;
    let mut node_dof = vec![usize::MAX; (n[0] + 1) * (n[1] + 1) * (n[2] + 1)];
    let mut positions = Vec::new();
    let mut cells = Vec::new();
    for k in 0..n[2] {
        for j in 0..n[1] {
            for i in 0..n[0] {
                if !grid.solid[grid.cell(i, j, k)] {
                    continue;
                }
                let nodes: [usize; 8] = core::array::from_fn(|l| {
                    let c = corner(l);
                    let (a, b, d) = (i + c[0], j + c[1], k + c[2]);
                    let node = grid.node(a, b, d);
                    if node_dof[node] == usize::MAX {
                        node_dof[node] = positions.len();
                        positions.push([
                            grid.origin[0] + a as f64 * grid.h,
                            grid.origin[1] + b as f64 * grid.h,
                            grid.origin[2] + d as f64 * grid.h,
                        ]);
                    }
                    node_dof[node]
                });
                cells.push(nodes);
            }
        }
    }
    let ke = unit_stiffness(o.young, o.poisson);
    let me = unit_mass();
    let (ks, ms) = (grid.h, o.density * grid.h.powi(3));
    let mut k_entries = Vec::with_capacity(cells.len() * 576);
    let mut m_entries = Vec::with_capacity(cells.len() * 192);
    for nodes in &cells {
        for l in 0..8 {
            for m in 0..8 {
                for a in 0..3 {
                    let r = 3 * nodes[l] + a;
                    for b in 0..3 {
                        k_entries.push((3 * nodes[m] + b, r, ks * ke[3 * l + a][3 * m + b]));
                    }
                    m_entries.push((3 * nodes[m] + a, r, ms * me[l][m]));
                }
            }
        }
    }
    let dofs = 3 * positions.len();
    System {
        k: Csc::from_entries(dofs, k_entries),
        m: Csc::from_entries(dofs, m_entries),
        node_dof,
        positions,
    }
}

/// The six rigid motions (3 translations, 3 rotations about the centroid), `M`-orthonormal.
fn rigid_modes(sys: &System) -> Result<Mat<f64>, ModesError> {
    let nodes = sys.positions.len();
    let mut centroid = [0.0; 3];
    for p in &sys.positions {
        for a in 0..3 {
            centroid[a] += p[a] / nodes as f64;
        }
    }
    let r = Mat::<f64>::from_fn(3 * nodes, 6, |row, col| {
        let (node, a) = (row / 3, row % 3);
        if col < 3 {
            return if a == col { 1.0 } else { 0.0 };
        }
        // ω = e_(col−3); (ω × d)_a.
        let d: [f64; 3] = core::array::from_fn(|b| sys.positions[node][b] - centroid[b]);
        let w = col - 3;
        match (w, a) {
            (0, 1) => -d[2],
            (0, 2) => d[1],
            (1, 0) => d[2],
            (1, 2) => -d[0],
            (2, 0) => -d[1],
            (2, 1) => d[0],
            _ => 0.0,
        }
    });
    m_orthonormalise(&sys.m, r)
}

/// `M`-orthonormalises the columns of `x` by the eigen-decomposition of its Gram matrix.
fn m_orthonormalise(m: &Csc, x: Mat<f64>) -> Result<Mat<f64>, ModesError> {
    let gram = x.transpose() * m.mul(&x);
    let evd = gram
        .self_adjoint_eigen(Side::Lower)
        .map_err(|e| ModesError::Numerical(format!("Gram eigen-decomposition: {e:?}")))?;
    let s = evd.S().column_vector();
    let u = evd.U();
    let t = Mat::<f64>::from_fn(x.ncols(), x.ncols(), |i, j| {
        u[(i, j)] / s[j].max(1e-300).sqrt()
    });
    Ok(&x * &t)
}

/// The Rayleigh–Ritz step: Ritz values (ascending) and `M`-orthonormal Ritz vectors of `K` in
/// the span of `y`.
fn rayleigh_ritz(sys: &System, mut y: Mat<f64>) -> Result<(Vec<f64>, Mat<f64>), ModesError> {
    let p = y.ncols();
    for j in 0..p {
        let norm = y.col(j).norm_l2();
        if norm > 0.0 {
            y.col_as_slice_mut(j).iter_mut().for_each(|v| *v /= norm);
        }
    }
    let mr = y.transpose() * sys.m.mul(&y);
    let kr = y.transpose() * sys.k.mul(&y);
    let evd = mr
        .self_adjoint_eigen(Side::Lower)
        .map_err(|e| ModesError::Numerical(format!("projected mass: {e:?}")))?;
    let s = evd.S().column_vector();
    let largest = (0..p).map(|j| s[j]).fold(0.0, f64::max);
    // Whitening transform, dropping directions the block no longer spans.
    let keep: Vec<usize> = (0..p).filter(|&j| s[j] > 1e-14 * largest).collect();
    let u = evd.U();
    let t = Mat::<f64>::from_fn(p, keep.len(), |i, j| u[(i, keep[j])] / s[keep[j]].sqrt());
    let c = t.transpose() * &kr * &t;
    let evd = c
        .self_adjoint_eigen(Side::Lower)
        .map_err(|e| ModesError::Numerical(format!("projected stiffness: {e:?}")))?;
    let theta: Vec<f64> = (0..keep.len())
        .map(|j| evd.S().column_vector()[j])
        .collect();
    let x = &y * (&t * evd.U());
    Ok((theta, x))
}

/// Entry `(i, i)` of a sparse matrix (0 when not stored).
fn diagonal(a: &Csc, i: usize) -> f64 {
    (a.col_ptr[i]..a.col_ptr[i + 1])
        .find(|&p| a.row[p] == i)
        .map_or(0.0, |p| a.val[p])
}

/// A deterministic xorshift64 generator for the start vectors.
fn xorshift(state: &mut u64) -> f64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    (*state >> 11) as f64 / (1u64 << 53) as f64 - 0.5
}

/// Internals kept for the tests: the lattice modes and matrices.
#[cfg_attr(not(test), allow(dead_code))]
struct Solution {
    sys: System,
    /// Elastic lattice modes, `M`-orthonormal, one per column.
    vectors: Mat<f64>,
}

fn analyse(
    mesh: &Mesh,
    o: &ModalOptions,
    progress: &mut dyn FnMut(Progress),
) -> Result<(Modes, Solution), ModesError> {
    check_options(o)?;
    let open = open_edges(mesh);
    if mesh.triangles.is_empty() || open > 0 {
        return Err(ModesError::NotClosed { open_edges: open });
    }
    let mut grid = voxelise(mesh, o.resolution);
    let dropped = keep_largest_component(&mut grid);
    let solid = grid.solid.iter().filter(|&&s| s).count();
    if solid == 0 {
        return Err(ModesError::NoSolidCells {
            resolution: o.resolution,
        });
    }
    let sys = assemble(&grid, o);
    let n = sys.k.n;
    let wanted = o.modes + 6;
    if n < wanted {
        return Err(ModesError::TooFewDofs {
            dofs: n,
            needed: wanted,
        });
    }
    progress(Progress::Lattice {
        cells: solid,
        dofs: n,
    });

    let longest = grid.h * o.resolution as f64;
    let sigma = -1e-3 * o.young / (o.density * longest * longest);
    let llt = Factor::new(
        &sys.k.lower_combination(-sigma, &sys.m)?,
        &nested_dissection(&grid, &sys.node_dof),
    )?;
    progress(Progress::Factored);

    let rigid = rigid_modes(&sys)?;
    let p = (2 * wanted).max(wanted + 8).min(n);
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut x = Mat::<f64>::from_fn(n, p, |_, _| xorshift(&mut seed));
    for j in 0..6 {
        for i in 0..n {
            x[(i, j)] = rigid[(i, j)];
        }
    }
    // Round-off floor of a Ritz value: `xᵀKx` sums terms up to ≈ λ_max, estimated by the
    // largest K_ii / M_ii.
    let lambda_max = (0..n)
        .map(|i| diagonal(&sys.k, i) / diagonal(&sys.m, i))
        .fold(0.0, f64::max);
    let floor = 10.0 * f64::EPSILON * lambda_max;
    let mut previous: Vec<f64> = Vec::new();
    let mut iterations = 0;
    let theta = loop {
        iterations += 1;
        let mut y = sys.m.mul(&x);
        llt.solve_in_place(y.as_mut());
        let (theta, next) = rayleigh_ritz(&sys, y)?;
        x = next;
        if theta.len() < wanted {
            return Err(ModesError::Numerical(format!(
                "the iteration block collapsed to {} vectors",
                theta.len()
            )));
        }
        let scale = theta[wanted - 1].abs().max(f64::MIN_POSITIVE);
        let converged = if previous.len() >= wanted {
            (0..wanted)
                .take_while(|&i| {
                    // Rigid modes are exact from the start; their Ritz values are round-off.
                    theta[i] < RIGID_FRACTION * scale
                        || (theta[i] - previous[i]).abs() <= (TOLERANCE * theta[i].abs()).max(floor)
                })
                .count()
        } else {
            0
        };
        progress(Progress::Iteration {
            iteration: iterations,
            converged,
            wanted,
        });
        if converged == wanted {
            break theta;
        }
        if iterations >= MAX_ITERATIONS {
            return Err(ModesError::NotConverged { iterations });
        }
        previous = theta;
    };

    let largest = theta[wanted - 1];
    let zeros = theta
        .iter()
        .take_while(|&&t| t < RIGID_FRACTION * largest)
        .count();
    if zeros != 6 {
        return Err(ModesError::RigidModes { found: zeros });
    }
    // The elastic modes, with the rigid motions projected out M-orthogonally.
    let elastic = x.subcols(6, o.modes).to_owned();
    let mr = sys.m.mul(&rigid);
    let coefficients = mr.transpose() * &elastic;
    let mut vectors = &elastic - &rigid * &coefficients;
    for j in 0..o.modes {
        let mv = sys.m.mul(&vectors.subcols(j, 1).to_owned());
        let norm = (0..n)
            .map(|i| vectors[(i, j)] * mv[(i, 0)])
            .sum::<f64>()
            .sqrt();
        vectors
            .col_as_slice_mut(j)
            .iter_mut()
            .for_each(|v| *v /= norm);
    }
    let eigenvalues: Vec<f64> = theta[6..wanted].to_vec();
    let kv = sys.k.mul(&vectors);
    let mv = sys.m.mul(&vectors);
    let mut max_residual: f64 = 0.0;
    for (j, &lambda) in eigenvalues.iter().enumerate() {
        let (mut r2, mut k2) = (0.0, 0.0);
        for i in 0..n {
            r2 += (kv[(i, j)] - lambda * mv[(i, j)]).powi(2);
            k2 += kv[(i, j)].powi(2);
        }
        max_residual = max_residual.max((r2 / k2).sqrt());
    }

    let (basis, max_embedding_gap) = surface_basis(mesh, &grid, &sys, &vectors);
    let lattice = Lattice {
        cells: grid.n,
        spacing: grid.h,
        origin: grid.origin,
        solid_cells: solid,
        dropped_cells: dropped,
        undecided_cells: grid.undecided,
        dofs: n,
    };
    let modes = Modes {
        frequencies_hz: eigenvalues
            .iter()
            .map(|&l| l.max(0.0).sqrt() / (2.0 * std::f64::consts::PI))
            .collect(),
        eigenvalues,
        rigid_eigenvalues: theta[..6].to_vec(),
        basis,
        lattice,
        iterations,
        max_residual,
        max_embedding_gap,
        volume_ratio: solid as f64 * grid.h.powi(3) / mesh_volume(mesh).abs(),
    };
    Ok((modes, Solution { sys, vectors }))
}

/// The cell a vertex is embedded in and its clamped local coordinates.
fn embed(grid: &Grid, p: [f64; 3]) -> ([usize; 3], [f64; 3], f64) {
    let u: [f64; 3] = core::array::from_fn(|a| (p[a] - grid.origin[a]) / grid.h);
    let home: [usize; 3] =
        core::array::from_fn(|a| (u[a].floor().max(0.0) as usize).min(grid.n[a] - 1));
    // Distance² from p to cell c's box.
    let gap2 = |c: [usize; 3]| -> f64 {
        (0..3)
            .map(|a| {
                let d = (c[a] as f64 - u[a])
                    .max(u[a] - (c[a] as f64 + 1.0))
                    .max(0.0);
                d * d
            })
            .sum::<f64>()
            * grid.h
            * grid.h
    };
    let is_solid = |c: [usize; 3]| grid.solid[grid.cell(c[0], c[1], c[2])];
    let mut best = if is_solid(home) {
        Some((gap2(home), home))
    } else {
        None
    };
    // Rings of growing Chebyshev radius around the home cell; a cell on ring r + 1 is at
    // least r·h away.
    let max_ring = grid.n.iter().copied().max().unwrap_or(1);
    let mut r = 1usize;
    while r <= max_ring {
        if let Some((d2, _)) = best {
            if d2 <= ((r - 1) as f64 * grid.h).powi(2) {
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

/// Maps lattice modes to the mesh vertices and scales each to a largest vertex displacement
/// of 1 (largest entry positive); also returns the largest embedding gap.
fn surface_basis(mesh: &Mesh, grid: &Grid, sys: &System, vectors: &Mat<f64>) -> (Basis, f64) {
    let k = vectors.ncols();
    let mut basis = Basis::zeros(mesh.vertices.len(), k);
    let mut max_gap: f64 = 0.0;
    for (v, &p) in mesh.vertices.iter().enumerate() {
        let (cell, t, gap) = embed(grid, p);
        max_gap = max_gap.max(gap);
        for l in 0..8 {
            let c = corner(l);
            let w: f64 = (0..3)
                .map(|a| if c[a] == 1 { t[a] } else { 1.0 - t[a] })
                .product();
            let node = grid.node(cell[0] + c[0], cell[1] + c[1], cell[2] + c[2]);
            let dof = sys.node_dof[node];
            for a in 0..3 {
                for j in 0..k {
                    basis.data[(3 * v + a) * k + j] += w * vectors[(3 * dof + a, j)];
                }
            }
        }
    }
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
            let s = largest.copysign(signed);
            for v in 0..basis.vertices {
                for a in 0..3 {
                    basis.data[(3 * v + a) * k + j] /= s;
                }
            }
        }
    }
    (basis, max_gap)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::procedural::{bar, icosphere};
    use std::f64::consts::PI;

    /// Free–free beam of length 1 m and a 0.05 m square section, `across` cells through the
    /// thickness.
    fn beam(across: usize, poisson: f64, modes: usize) -> (Modes, Solution) {
        let options = ModalOptions {
            modes,
            young: 1e6,
            poisson,
            density: 1000.0,
            resolution: 20 * across,
        };
        analyse(&bar(1.0, 0.05, 4), &options, &mut |_| {}).expect("beam modes")
    }

    /// Euler–Bernoulli free–free first bending frequency of that beam.
    fn euler_bernoulli_f1() -> f64 {
        let (l, a, e, rho) = (1.0f64, 0.05f64, 1e6, 1000.0);
        let i = a.powi(4) / 12.0;
        4.730_040_745f64.powi(2) / (2.0 * PI * l * l) * (e * i / (rho * a * a)).sqrt()
    }

    /// Fraction of a lattice mode's kinetic energy (`uᵀ M u`) in axis `axis`.
    fn axis_fraction(s: &Solution, j: usize, axis: usize) -> f64 {
        let u = s.vectors.subcols(j, 1).to_owned();
        let mu = s.sys.m.mul(&u);
        let (mut part, mut all) = (0.0, 0.0);
        for i in 0..u.nrows() {
            all += u[(i, 0)] * mu[(i, 0)];
            if i % 3 == axis {
                part += u[(i, 0)] * mu[(i, 0)];
            }
        }
        part / all
    }

    #[test]
    fn beam_bending_converges_to_euler_bernoulli() {
        let exact = euler_bernoulli_f1();
        let mut errors = Vec::new();
        for across in [2, 3] {
            let (modes, _) = beam(across, 0.0, 2);
            // Square section: the two first bending modes are degenerate.
            let f = modes.frequencies_hz[0];
            let pair = (modes.frequencies_hz[1] - f).abs() / f;
            assert!(pair < 1e-6, "bending pair split by {pair}");
            errors.push((f - exact) / exact);
        }
        // Shear locking makes coarse lattices stiff: measured +5.3 % (2 across) and +2.0 %
        // (3 across); the error falls like h² towards the 3-D value, which lies ≈ 0.8 % below
        // Euler–Bernoulli (shear and rotary inertia, see `refinement_study`).
        assert!(errors[0] > 0.0 && errors[1] > 0.0, "{errors:?}");
        assert!(errors[1] < errors[0], "{errors:?}");
        assert!(errors[0] < 0.06 && errors[1] < 0.025, "{errors:?}");
    }

    #[test]
    fn bar_axial_mode_matches_the_exact_rod_frequency() {
        // With ν = 0 the rod mode u = cos(πx/L) is an exact 3-D mode: f = √(E/ρ) / 2L.
        let exact = (1e6f64 / 1000.0).sqrt() / 2.0;
        let (modes, s) = beam(2, 0.0, 10);
        let j = (0..10)
            .max_by(|&a, &b| axis_fraction(&s, a, 0).total_cmp(&axis_fraction(&s, b, 0)))
            .unwrap_or(0);
        assert!(axis_fraction(&s, j, 0) > 0.99);
        let error = (modes.frequencies_hz[j] - exact) / exact;
        assert!(
            error.abs() < 2e-3,
            "axial {} Hz vs {exact} Hz",
            modes.frequencies_hz[j]
        );
    }

    #[test]
    fn free_body_has_six_rigid_modes_and_m_orthonormal_modes() {
        let options = ModalOptions {
            modes: 8,
            resolution: 8,
            ..ModalOptions::default()
        };
        let mesh = icosphere(0.1, 2);
        let (modes, s) = analyse(&mesh, &options, &mut |_| {}).expect("modes");
        assert_eq!(modes.rigid_eigenvalues.len(), 6);
        let first = modes.eigenvalues[0];
        for r in &modes.rigid_eigenvalues {
            assert!(r.abs() < 1e-8 * first, "rigid {r} vs {first}");
        }
        assert!(modes.eigenvalues.windows(2).all(|w| w[0] <= w[1]));
        assert!(modes.max_residual < 1e-4, "residual {}", modes.max_residual);
        let gram = s.vectors.transpose() * s.sys.m.mul(&s.vectors);
        for i in 0..8 {
            for j in 0..8 {
                let want = if i == j { 1.0 } else { 0.0 };
                assert!(
                    (gram[(i, j)] - want).abs() < 1e-8,
                    "({i},{j}) {}",
                    gram[(i, j)]
                );
            }
        }
        assert_eq!(modes.basis.vertices, mesh.vertices.len());
        assert_eq!(modes.basis.modes, 8);
        assert_eq!(modes.basis.data.len(), 3 * mesh.vertices.len() * 8);
    }

    /// Lowest root of the free sphere's l = 2 torsional frequency equation
    /// `x j₂'(x) = j₂(x)`, i.e. `j₂(x) = x j₃(x)` (Lamb 1882): `ω = x c_s / a`.
    fn sphere_torsion_root() -> f64 {
        let j2 = |x: f64| (3.0 / x.powi(3) - 1.0 / x) * x.sin() - 3.0 * x.cos() / (x * x);
        let j3 = |x: f64| {
            (15.0 / x.powi(4) - 6.0 / (x * x)) * x.sin() - (15.0 / x.powi(3) - 1.0 / x) * x.cos()
        };
        let g = |x: f64| j2(x) - x * j3(x);
        let (mut lo, mut hi) = (2.0, 3.0);
        assert!(g(lo) * g(hi) < 0.0);
        for _ in 0..100 {
            let mid = 0.5 * (lo + hi);
            if g(lo) * g(mid) <= 0.0 {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        0.5 * (lo + hi)
    }

    /// Fraction of a lattice mode's (row-sum lumped) kinetic energy that is radial about the
    /// lattice centroid: 0 for a torsional mode of a sphere.
    fn radial_fraction(s: &Solution, j: usize) -> f64 {
        let nodes = s.sys.positions.len();
        let mut centroid = [0.0; 3];
        for p in &s.sys.positions {
            for a in 0..3 {
                centroid[a] += p[a] / nodes as f64;
            }
        }
        let ones = Mat::<f64>::from_fn(3 * nodes, 1, |_, _| 1.0);
        let lumped = s.sys.m.mul(&ones);
        let (mut radial, mut all) = (0.0, 0.0);
        for (node, p) in s.sys.positions.iter().enumerate() {
            let d: [f64; 3] = core::array::from_fn(|a| p[a] - centroid[a]);
            let len = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt().max(1e-300);
            let u: [f64; 3] = core::array::from_fn(|a| s.vectors[(3 * node + a, j)]);
            let m = lumped[(3 * node, 0)];
            let ur = (u[0] * d[0] + u[1] * d[1] + u[2] * d[2]) / len;
            radial += m * ur * ur;
            all += m * (u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
        }
        radial / all
    }

    /// The five l = 2 torsional modes of a free sphere (radius 0.1 m, ν = 0.3) on a lattice of
    /// `resolution` cells across: their mean frequency and the exact one.
    fn sphere_torsion(resolution: usize) -> (f64, f64, Modes) {
        let (radius, young, poisson, density) = (0.1, 1e6, 0.3, 1000.0);
        let options = ModalOptions {
            modes: 10,
            young,
            poisson,
            density,
            resolution,
        };
        let (modes, s) =
            analyse(&icosphere(radius, 3), &options, &mut |_| {}).expect("sphere modes");
        let mut by_radial: Vec<(f64, usize)> =
            (0..10).map(|j| (radial_fraction(&s, j), j)).collect();
        by_radial.sort_by(|a, b| a.0.total_cmp(&b.0));
        assert!(
            by_radial[4].0 < 0.05 && by_radial[5].0 > 0.2,
            "{by_radial:?}"
        );
        let mean = by_radial[..5]
            .iter()
            .map(|&(_, j)| modes.frequencies_hz[j])
            .sum::<f64>()
            / 5.0;
        let shear_speed = (young / (2.0 * (1.0 + poisson)) / density).sqrt();
        let exact = sphere_torsion_root() * shear_speed / (2.0 * PI * radius);
        (mean, exact, modes)
    }

    #[test]
    fn sphere_torsion_modes_match_lamb() {
        let x = sphere_torsion_root();
        assert!((x - 2.5011).abs() < 1e-3, "root {x}");
        let (mean, exact, modes) = sphere_torsion(12);
        let error = (mean - exact) / exact;
        assert!(error.abs() < 0.05, "{mean} Hz vs {exact} Hz ({error:+.4})");
        assert!(
            (modes.volume_ratio - 1.0).abs() < 0.1,
            "{}",
            modes.volume_ratio
        );
        assert!(modes.max_embedding_gap < modes.lattice.spacing);
    }

    #[test]
    fn ray_votes_agree_with_the_winding_number() {
        use crate::procedural::{blob, torus};
        for (name, mesh) in [
            ("torus", torus(0.3, 0.1, 24, 12)),
            ("blob", blob(0.2, 2, 5, 7)),
            ("bar", bar(1.0, 0.05, 4)),
        ] {
            let grid = voxelise(&mesh, 12);
            let mut solid = 0;
            for k in 0..grid.n[2] {
                for j in 0..grid.n[1] {
                    for i in 0..grid.n[0] {
                        let w = winding_number(&mesh, grid.centre([i, j, k]));
                        let inside = w.abs() > 0.5;
                        assert!((w - 1.0).abs() < 1e-6 || w.abs() < 1e-6, "{name}: w = {w}");
                        assert_eq!(
                            grid.solid[grid.cell(i, j, k)],
                            inside,
                            "{name} ({i},{j},{k})"
                        );
                        solid += usize::from(inside);
                    }
                }
            }
            assert!(solid > 0, "{name}");
        }
    }

    #[test]
    fn cells_touching_only_along_an_edge_are_dropped() {
        // Two unit cubes that share one edge: kept together they would hinge freely.
        let mut mesh = bar(1.0, 1.0, 1);
        let mut other = bar(1.0, 1.0, 1);
        crate::procedural::translate(&mut other, [1.0, 1.0, 0.0]);
        let offset = mesh.vertices.len() as u32;
        mesh.vertices.extend(other.vertices);
        mesh.triangles
            .extend(other.triangles.iter().map(|t| t.map(|v| v + offset)));
        let options = ModalOptions {
            modes: 3,
            resolution: 4,
            poisson: 0.3,
            ..ModalOptions::default()
        };
        let (modes, _) = analyse(&mesh, &options, &mut |_| {}).expect("modes");
        assert_eq!(modes.lattice.solid_cells, 8);
        assert_eq!(modes.lattice.dropped_cells, 8);
        assert_eq!(modes.rigid_eigenvalues.len(), 6);
        assert!(modes.max_embedding_gap > 0.0);
    }

    #[test]
    fn frequencies_scale_with_size_and_wave_speed() {
        // f ∝ √(E/ρ) / L, independent of where the body is.
        let options = ModalOptions {
            modes: 4,
            resolution: 6,
            ..ModalOptions::default()
        };
        let mesh = icosphere(0.1, 2);
        let (base, _) = analyse(&mesh, &options, &mut |_| {}).expect("modes");
        let mut moved = icosphere(0.2, 2);
        crate::procedural::translate(&mut moved, [3.0, -1.0, 0.5]);
        let stiffer = ModalOptions {
            young: 4.0 * options.young,
            ..options
        };
        let (other, _) = analyse(&moved, &stiffer, &mut |_| {}).expect("modes");
        // Twice the size halves f, four times E doubles it.
        for (a, b) in base.frequencies_hz.iter().zip(&other.frequencies_hz) {
            assert!((a - b).abs() < 1e-8 * a, "{a} vs {b}");
        }
    }

    #[test]
    fn bad_options_and_open_meshes_are_refused() {
        let mesh = icosphere(0.1, 1);
        let o = ModalOptions::default();
        for (bad, needle) in [
            (ModalOptions { modes: 0, ..o }, "-k"),
            (ModalOptions { young: -1.0, ..o }, "--young"),
            (ModalOptions { poisson: 0.5, ..o }, "--poisson"),
            (
                ModalOptions {
                    density: f64::NAN,
                    ..o
                },
                "--density",
            ),
            (ModalOptions { resolution: 0, ..o }, "--resolution"),
        ] {
            let e = compute_modes(&mesh, &bad, &mut |_| {})
                .err()
                .map(|e| e.to_string());
            assert!(e.as_deref().is_some_and(|e| e.contains(needle)), "{e:?}");
        }
        let mut open = mesh.clone();
        open.triangles.pop();
        let e = compute_modes(&open, &o, &mut |_| {}).err();
        assert_eq!(e, Some(ModesError::NotClosed { open_edges: 3 }));
        let few = ModalOptions {
            modes: 100,
            resolution: 1,
            ..o
        };
        let e = compute_modes(&mesh, &few, &mut |_| {}).err();
        assert_eq!(
            e,
            Some(ModesError::TooFewDofs {
                dofs: 24,
                needed: 106
            })
        );
    }

    /// Free–free cube of side 1 by the Rayleigh–Ritz method on polynomials `x^i y^j z^k`,
    /// `i + j + k ≤ degree`, per displacement component (Visscher et al. 1991, the basis of
    /// resonant ultrasound spectroscopy): an independent, spectrally converging reference.
    /// Returns the non-rigid frequencies in units of `c_s / L` (`f·L/c_s`), ascending.
    fn cube_ritz(degree: usize, poisson: f64) -> Vec<f64> {
        let (young, density) = (1.0, 1.0);
        let lambda = young * poisson / ((1.0 + poisson) * (1.0 - 2.0 * poisson));
        let mu = young / (2.0 * (1.0 + poisson));
        let mut powers = Vec::new();
        for i in 0..=degree {
            for j in 0..=degree - i {
                for k in 0..=degree - i - j {
                    powers.push([i, j, k]);
                }
            }
        }
        // ∫ x^n over [−½, ½].
        let integral = |n: i64| {
            if n < 0 || n % 2 == 1 {
                0.0
            } else {
                2.0 * 0.5f64.powi(n as i32 + 1) / (n as f64 + 1.0)
            }
        };
        let volume_integral = |e: [i64; 3]| e.iter().map(|&n| integral(n)).product::<f64>();
        // ∫ ∂_a φ_p ∂_b φ_q.
        let grad_integral = |p: [usize; 3], a: usize, q: [usize; 3], b: usize| {
            let (cp, cq) = (p[a] as f64, q[b] as f64);
            if cp == 0.0 || cq == 0.0 {
                return 0.0;
            }
            let mut e: [i64; 3] = core::array::from_fn(|x| (p[x] + q[x]) as i64);
            e[a] -= 1;
            e[b] -= 1;
            cp * cq * volume_integral(e)
        };
        let nb = powers.len();
        let n = 3 * nb;
        let mut k = Mat::<f64>::zeros(n, n);
        let mut m = Mat::<f64>::zeros(n, n);
        for (pi, &p) in powers.iter().enumerate() {
            for (qi, &q) in powers.iter().enumerate() {
                let mass =
                    density * volume_integral(core::array::from_fn(|x| (p[x] + q[x]) as i64));
                let dot: f64 = (0..3).map(|j| grad_integral(p, j, q, j)).sum();
                for a in 0..3 {
                    m[(3 * pi + a, 3 * qi + a)] = mass;
                    for b in 0..3 {
                        let mut v =
                            lambda * grad_integral(p, a, q, b) + mu * grad_integral(p, b, q, a);
                        if a == b {
                            v += mu * dot;
                        }
                        k[(3 * pi + a, 3 * qi + b)] = v;
                    }
                }
            }
        }
        // Whiten M (monomials are badly conditioned; drop its null-ish directions), then K.
        let evd = m.self_adjoint_eigen(Side::Lower).expect("mass eigen");
        let s = evd.S().column_vector();
        let largest = (0..n).map(|j| s[j]).fold(0.0, f64::max);
        let keep: Vec<usize> = (0..n).filter(|&j| s[j] > 1e-13 * largest).collect();
        let t = Mat::<f64>::from_fn(n, keep.len(), |i, j| {
            evd.U()[(i, keep[j])] / s[keep[j]].sqrt()
        });
        let c = t.transpose() * &k * &t;
        let theta = c
            .self_adjoint_eigenvalues(Side::Lower)
            .expect("stiffness eigen");
        let shear_speed = (mu / density).sqrt();
        let scale = theta.iter().fold(0.0f64, |a, &b| a.max(b.abs()));
        theta
            .iter()
            .filter(|&&l| l > 1e-9 * scale)
            .map(|&l| l.sqrt() / (2.0 * PI) / shear_speed)
            .collect()
    }

    #[test]
    fn cube_lattice_converges_to_the_polynomial_ritz_reference() {
        let reference = cube_ritz(8, 0.3);
        // The reference reproduces the cube's exact Lamé mode, f·L/c_s = 1/√2 for any ν
        // (modes 9 and 10 here).
        let lame = 0.5f64.sqrt();
        assert!(
            reference.iter().any(|f| (f - lame).abs() < 1e-5 * lame),
            "{reference:?}"
        );
        let shear_speed = (1e6 / (2.0 * 1.3) / 1000.0f64).sqrt();
        let mut previous = f64::INFINITY;
        for resolution in [4, 8] {
            let options = ModalOptions {
                modes: 6,
                young: 1e6,
                poisson: 0.3,
                density: 1000.0,
                resolution,
            };
            let (modes, _) = analyse(&bar(1.0, 1.0, 1), &options, &mut |_| {}).expect("cube");
            let mut worst: f64 = 0.0;
            for (f, r) in modes.frequencies_hz.iter().zip(&reference) {
                let error = f / shear_speed / r - 1.0;
                // Conforming elements with consistent mass bound frequencies from above.
                assert!(error > -1e-6, "{resolution}: {f} vs {r}");
                worst = worst.max(error);
            }
            assert!(worst < previous, "{resolution}: {worst} after {previous}");
            previous = worst;
        }
        assert!(previous < 0.04, "{previous}");
    }

    /// The refinement study printed in the report:
    /// `cargo test -p bdtree-std --release --lib modes::tests::refinement_study -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn refinement_study() {
        let exact = euler_bernoulli_f1();
        let axial = (1e6f64 / 1000.0).sqrt() / 2.0;
        println!("Euler–Bernoulli f1 = {exact:.5} Hz, rod axial = {axial:.5} Hz");
        for across in [2, 3, 4, 6, 8] {
            let t = std::time::Instant::now();
            let (modes, s) = beam(across, 0.0, 10);
            let j = (0..10)
                .max_by(|&a, &b| axis_fraction(&s, a, 0).total_cmp(&axis_fraction(&s, b, 0)))
                .unwrap_or(0);
            println!(
                "{across} cells across ({} dofs, {} it, {:.2} s): f1 = {:.5} Hz ({:+.2} %), axial = {:.5} Hz ({:+.3} %)",
                modes.lattice.dofs,
                modes.iterations,
                t.elapsed().as_secs_f64(),
                modes.frequencies_hz[0],
                100.0 * (modes.frequencies_hz[0] / exact - 1.0),
                modes.frequencies_hz[j],
                100.0 * (modes.frequencies_hz[j] / axial - 1.0),
            );
        }
        for resolution in [8, 12, 16, 24, 32] {
            let t = std::time::Instant::now();
            let (mean, exact, modes) = sphere_torsion(resolution);
            println!(
                "sphere, {resolution} cells across ({} dofs, {:.2} s): l=2 torsion {mean:.4} Hz vs Lamb {exact:.4} Hz ({:+.2} %), volume ratio {:.4}",
                modes.lattice.dofs,
                t.elapsed().as_secs_f64(),
                100.0 * (mean / exact - 1.0),
                modes.volume_ratio
            );
        }
        // Free unit cube, ν = 0.3: the lattice fits the cube exactly (no staircase), so this is
        // the pure finite-element convergence; printed as f·L/c_s with c_s = √(G/ρ).
        let shear_speed = (1e6 / (2.0 * 1.3) / 1000.0f64).sqrt();
        for resolution in [2, 4, 8, 12, 16] {
            let options = ModalOptions {
                modes: 10,
                young: 1e6,
                poisson: 0.3,
                density: 1000.0,
                resolution,
            };
            let (modes, _) = analyse(&bar(1.0, 1.0, 1), &options, &mut |_| {}).expect("cube");
            let scaled: Vec<String> = modes
                .frequencies_hz
                .iter()
                .map(|f| format!("{:.5}", f / shear_speed))
                .collect();
            println!(
                "cube, {resolution} cells across: f·L/c_s = {}",
                scaled.join(" ")
            );
        }
        for degree in [6, 8, 10, 12] {
            let scaled: Vec<String> = cube_ritz(degree, 0.3)
                .iter()
                .take(10)
                .map(|f| format!("{f:.5}"))
                .collect();
            println!("cube, Ritz degree {degree}: f·L/c_s = {}", scaled.join(" "));
        }
    }
}
