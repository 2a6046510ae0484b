//! Vibration modes of a closed surface mesh: a linear-elastic modal analysis on an embedded
//! hexahedral lattice, giving a displacement [`Basis`] for reduced deformable bodies — free
//! (six rigid-body modes removed) or held fixed where it is clamped ([`Fixed`]).
//!
//! # Pipeline
//!
//! 1. **Choose the lattice** (unless [`ModalOptions::resolution`] fixes it): the body's
//!    thickness is measured by casting a ray from every triangle into the body along its
//!    inward normal to where it leaves the solid; the thinnest part that matters (faces
//!    spanning at least 10 squared thicknesses) sets the cell side `h` so that
//!    [`CELLS_ACROSS`] cells span it, and the lattice has at least [`MIN_RESOLUTION`] cells
//!    along the longest side of the bounding box. If that needs more cells than
//!    [`ModalOptions::max_cells`], the analysis stops with [`ModesError::TooManyCells`], which
//!    names the wall, its thickness and what resolving it would cost — it computes no
//!    frequencies it knows to be wrong.
//! 2. **Voxelise with cut cells.** A regular grid of cubic cells of side `h` covers the
//!    bounding box. Cells the surface does not cross are full or empty by their centre; cells
//!    it may cross are measured by 377 rays each (exact inside intervals along the rays), and
//!    carry the stiffness and mass of the part of them inside the mesh (volume fraction and
//!    moment-fitted integration), so a tilted or curved face is not a staircase. Only the largest face-connected group of cells
//!    is kept: cells joined to it only by an edge or a corner would hinge freely.
//! 3. **Finite elements.** Every cell is an 8-node hexahedron with 3 displacement dofs per
//!    node, trilinear plus Wilson's incompatible bending modes (condensed out, so they cost
//!    nothing in the global problem): a single cell bends without the spurious shear stiffness
//!    ("shear locking") of a plain trilinear cell. Isotropic linear elasticity (Young's
//!    modulus `E`, Poisson's ratio `ν`), consistent mass (density `ρ`).
//! 4. **Held parts.** [`Fixed`] parts of the surface reach the lattice through the nodes they
//!    move with: every node with a non-zero trilinear weight at a held vertex, and, for every
//!    triangle whose three vertices are held, every node whose weight is not zero over that
//!    triangle's bounding box within a cell it crosses. Those nodes do not move. A half-space
//!    spec (`x<c`) also shifts the lattice along its axis so that a node plane passes through
//!    the innermost held vertex: a flat clamped end perpendicular to that axis then holds
//!    exactly that node plane, and the free length is exact. A held surface not on a node
//!    plane holds the nodes of the cells it crosses, so the clamp reaches up to one cell side
//!    `h` further into the body and shortens the free length by at most `h`.
//! 5. **Eigenproblem.** `K u = λ M u` by shift-invert subspace iteration (see `eigen`): the
//!    `k` lowest elastic modes, after the six rigid-body modes of a free body (which must be
//!    numerically zero — anything else is an error: a mechanism or a disconnected lattice —
//!    and are removed, the rigid motions also projected out of the elastic modes
//!    `M`-orthogonally). A held body must have no zero mode: otherwise the held vertices do
//!    not hold it (they lie on a line, say) and that is an error.
//! 6. **Surface.** Each mesh vertex is embedded in its lattice cell, or, if that cell is
//!    empty, in the nearest solid cell, with trilinear weights from its local coordinates
//!    *clamped to the cell*. A mode's surface displacement is the weighted sum of the cell's 8
//!    node displacements.
//!
//! # Accuracy
//!
//! Measured against theory nobody here wrote (the tests, and the convergence table in the
//! README): with the default lattice, a free–free 20:1 square beam's first four bending
//! frequencies are within 1 % of Timoshenko beam theory (Euler–Bernoulli is 1–7 % higher for
//! that beam: it neglects shear and rotary inertia), a 30° tilted rectangular bar's first
//! weak-axis bending within 1 %, a clamped beam within 1–2 %, the free cube within 1 % of a
//! converged polynomial Ritz solution, and a sphere's lowest torsional modes within 1 % of
//! Lamb's solution. Higher modes need finer lattices: give `resolution` to check them.
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
//! Voxelisation is `O(columns × triangles)` ray tests, plus 377 rays per row of cut cells;
//! the thickness rays cost about a bin walk each. The lattice dofs are ordered by geometric
//! nested dissection (see `ordering`), factored once, and each subspace iteration costs `p`
//! forward and back substitutions (typically 5–20 iterations). Slender and flat bodies are
//! cheap (their separators are small); compact ones cost `O(n²)` flops in the `n` dofs.

// Small fixed-size matrix blocks and lattice indices read best as index loops.
#![allow(clippy::needless_range_loop)]

mod eigen;
mod element;
mod embed;
mod fixed;
mod frame;
mod lattice;
mod ordering;
pub mod report;
mod sparse;
#[cfg(test)]
mod tests;
mod thickness;

pub use fixed::Fixed;
pub use thickness::Wall;

use crate::basis::Basis;
use crate::mesh::Mesh;
use eigen::{Factor, RIGID_FRACTION};
use faer::Mat;

/// Cells the automatic lattice puts across the thinnest part of the body.
pub const CELLS_ACROSS: f64 = 4.0;

/// Cells the automatic lattice puts along the longest side of the bounding box, at least.
pub const MIN_RESOLUTION: usize = 20;

/// Default cell budget of the automatic lattice ([`ModalOptions::max_cells`]).
pub const DEFAULT_MAX_CELLS: usize = 200_000;

/// Material, lattice and support of a modal analysis (SI units).
#[derive(Debug, Clone, PartialEq)]
pub struct ModalOptions {
    /// How many elastic (non-rigid) modes to compute (at least 1).
    pub modes: usize,
    /// Young's modulus `E` in pascals.
    pub young: f64,
    /// Poisson's ratio `ν`, in `(−1, ½)`.
    pub poisson: f64,
    /// Density `ρ` in kg/m³.
    pub density: f64,
    /// Lattice cells along the longest side of the bounding box; `None` chooses it from the
    /// body's thickness (see the [module documentation](self)).
    pub resolution: Option<usize>,
    /// Most solid cells the automatic lattice may use; more is an error
    /// ([`ModesError::TooManyCells`]). Not applied to a given `resolution`.
    pub max_cells: usize,
    /// Held parts of the surface; empty for a free body.
    pub fixed: Vec<Fixed>,
}

impl Default for ModalOptions {
    /// 10 modes of a free soft rubber-like solid (`E` = 1 MPa, `ν` = 0.45, `ρ` = 1000
    /// kg/m³) on the automatic lattice.
    fn default() -> Self {
        Self {
            modes: 10,
            young: 1e6,
            poisson: 0.45,
            density: 1000.0,
            resolution: None,
            max_cells: DEFAULT_MAX_CELLS,
            fixed: Vec::new(),
        }
    }
}

/// What the analysis is doing, for progress reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Progress {
    /// Measuring the body's thickness.
    Measuring,
    /// Filling a lattice of this many cells along the longest side.
    Voxelising {
        /// Cells along the longest side.
        resolution: usize,
    },
    /// The lattice is built: this many solid cells and degrees of freedom.
    Lattice {
        /// Solid cells kept.
        cells: usize,
        /// Degrees of freedom (3 per free lattice node).
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
        /// Ritz values wanted (`k`, plus 6 for a free body).
        wanted: usize,
    },
}

/// How the lattice's resolution was chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Chosen {
    /// Given ([`ModalOptions::resolution`]).
    Given,
    /// [`CELLS_ACROSS`] cells across the thinnest part.
    Thickness,
    /// [`MIN_RESOLUTION`] along the longest side (the body is thick everywhere).
    Minimum,
}

/// The lattice a [`Modes`] was computed on.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Lattice {
    /// Cells along the longest side of the bounding box.
    pub resolution: usize,
    /// How that was chosen.
    pub chosen: Chosen,
    /// The body's thinnest part that matters (see the [module documentation](self)); `None`
    /// if no triangle gave a thickness.
    pub thinnest: Option<Wall>,
    /// Cells across that part (`thickness / spacing`).
    pub cells_across: Option<f64>,
    /// Grid cells along x, y and z.
    pub cells: [usize; 3],
    /// Cell side `h` in metres.
    pub spacing: f64,
    /// Lower corner of the grid, in lattice coordinates (`frame · p` for a mesh point `p`).
    pub origin: [f64; 3],
    /// The lattice's axes in mesh coordinates (rows): the identity unless the body's faces
    /// line up better with a turned lattice (see the [module documentation](self)).
    pub frame: [[f64; 3]; 3],
    /// Area-weighted misalignment of the face normals with the lattice axes, 0 (every face
    /// perpendicular to an axis) to 1/3.
    pub misalignment: f64,
    /// Solid cells kept (the largest face-connected group), full or cut.
    pub solid_cells: usize,
    /// Of those, cells the surface cuts (weighted by the share inside the mesh).
    pub cut_cells: usize,
    /// Solid cells dropped because they are not face-connected to the kept group.
    pub dropped_cells: usize,
    /// Cells whose three centre votes disagreed and were settled by the winding number.
    pub undecided_cells: usize,
    /// Lattice nodes held fixed.
    pub held_nodes: usize,
    /// Degrees of freedom, 3 per free node of a kept cell.
    pub dofs: usize,
    /// Entries of the Cholesky factor of `K − σM` (its memory is 8 bytes each).
    pub factor_entries: usize,
    /// Volume of material the lattice holds (full cells and the inside share of cut cells).
    pub volume: f64,
}

/// The result of [`compute_modes`].
#[derive(Debug, Clone, PartialEq)]
pub struct Modes {
    /// The `k` lowest elastic frequencies in hertz, increasing.
    pub frequencies_hz: Vec<f64>,
    /// Their eigenvalues `λ = (2π f)²` in s⁻².
    pub eigenvalues: Vec<f64>,
    /// The six removed rigid-body eigenvalues of a free body (numerically zero), in s⁻²;
    /// empty when something is held.
    pub rigid_eigenvalues: Vec<f64>,
    /// Surface displacements, 3N × k (see the [module documentation](self) for the scaling).
    pub basis: Basis,
    /// The lattice.
    pub lattice: Lattice,
    /// Mesh vertices held fixed.
    pub held_vertices: usize,
    /// Subspace iterations until convergence.
    pub iterations: usize,
    /// Largest relative residual `‖K u − λ M u‖ / ‖K u‖` of the returned modes.
    pub max_residual: f64,
    /// Largest distance from a mesh vertex to the solid cell it is embedded in, in metres
    /// (0 when every vertex lies in a solid cell).
    pub max_embedding_gap: f64,
    /// Volume the mesh encloses.
    pub mesh_volume: f64,
    /// The lattice's volume over the mesh's: 1 up to the sub-sampling of cut cells (a few
    /// 10⁻³); far from 1 when parts were dropped or the lattice is too coarse for them.
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
    /// The automatic lattice would need more cells than the budget.
    TooManyCells {
        /// The thinnest part, which sets the cell size (if it does).
        wall: Option<Wall>,
        /// Cells along the longest side needed.
        resolution: usize,
        /// Cell side needed.
        spacing: f64,
        /// Solid cells needed (counted, or estimated as `V/h³ + 0.75 A/h²`).
        cells: usize,
        /// Whether `cells` is an estimate.
        estimated: bool,
        /// The budget, [`ModalOptions::max_cells`].
        max_cells: usize,
    },
    /// No cell of the lattice holds material at this resolution.
    NoSolidCells {
        /// The resolution used.
        resolution: usize,
    },
    /// The lattice has fewer degrees of freedom than the modes asked for.
    TooFewDofs {
        /// Degrees of freedom of the lattice.
        dofs: usize,
        /// `k`, plus 6 for a free body.
        needed: usize,
    },
    /// A numerical step failed (not expected with valid options).
    Numerical(String),
    /// The iteration did not converge.
    NotConverged {
        /// Iterations run.
        iterations: usize,
    },
    /// A free body without exactly six near-zero eigenvalues.
    RigidModes {
        /// Near-zero eigenvalues found.
        found: usize,
    },
    /// A held body that can still move rigidly: the held vertices do not hold it.
    NotHeld {
        /// Near-zero eigenvalues found (rigid motions left).
        found: usize,
        /// Lattice nodes held.
        held_nodes: usize,
    },
}

/// A count with thousands separators.
fn count(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
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
            ModesError::TooManyCells {
                wall,
                resolution,
                spacing,
                cells,
                estimated,
                max_cells,
            } => {
                let about = if *estimated { "about " } else { "" };
                match wall {
                    Some(w) => write!(
                        f,
                        "the body has a wall too thin for the cell budget: {w}. Putting \
                         {CELLS_ACROSS} cells across it needs cells of {}",
                        thickness::length(*spacing)
                    )?,
                    None => write!(
                        f,
                        "the lattice needs cells of {}",
                        thickness::length(*spacing)
                    )?,
                }
                write!(
                    f,
                    " (resolution {resolution}): {about}{} cells and about {} degrees of \
                     freedom, {:.0} times the budget of {} cells (--max-cells). Raise \
                     --max-cells (time and memory grow faster than the cell count), or give \
                     --resolution to compute on a coarser lattice, on which that wall comes out \
                     too stiff; no frequencies were computed",
                    count(*cells),
                    count(4 * *cells),
                    *cells as f64 / *max_cells as f64,
                    count(*max_cells),
                )
            }
            ModesError::NoSolidCells { resolution } => write!(
                f,
                "no lattice cell holds material at resolution {resolution}: the body is \
                 thinner than a cell; raise --resolution"
            ),
            ModesError::TooFewDofs { dofs, needed } => write!(
                f,
                "the lattice has {dofs} degrees of freedom but {needed} modes are needed; \
                 raise --resolution or lower -k"
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
            ModesError::NotHeld { found, held_nodes } => write!(
                f,
                "the fixed vertices do not hold the body: it can still move rigidly in \
                 {found} way(s) ({held_nodes} lattice nodes held); fix vertices that are not \
                 all on one line, or more of the surface"
            ),
        }
    }
}

impl std::error::Error for ModesError {}

/// Computes the `options.modes` lowest elastic vibration modes of the closed `mesh` (see the
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
    /// flag (`-k`, `--young`, `--poisson`, `--density`, `--resolution`, `--max-cells`).
    pub fn validate(&self) -> Result<(), ModesError> {
        let bad = |s: String| Err(ModesError::InvalidOptions(s));
        if self.modes == 0 {
            return bad("-k (the number of modes) must be at least 1".into());
        }
        if !(self.young.is_finite() && self.young > 0.0) {
            return bad(format!(
                "--young must be a positive number of pascals, not {}",
                self.young
            ));
        }
        if !(self.poisson.is_finite() && self.poisson > -1.0 && self.poisson < 0.5) {
            return bad(format!(
                "--poisson must lie strictly between -1 and 0.5, not {}",
                self.poisson
            ));
        }
        if !(self.density.is_finite() && self.density > 0.0) {
            return bad(format!(
                "--density must be a positive number of kg/m³, not {}",
                self.density
            ));
        }
        if let Some(r) = self.resolution {
            if r == 0 || r > 4096 {
                return bad(format!("--resolution must be between 1 and 4096, not {r}"));
            }
        }
        if self.max_cells == 0 {
            return bad("--max-cells must be at least 1".into());
        }
        Ok(())
    }
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

/// The resolution to use, how it was chosen and the thinnest wall; errors when the
/// automatic choice would exceed the budget (by estimate).
fn choose_resolution(
    mesh: &Mesh,
    o: &ModalOptions,
    longest: f64,
    progress: &mut dyn FnMut(Progress),
) -> Result<(usize, Chosen, Option<Wall>), ModesError> {
    progress(Progress::Measuring);
    let wall = thickness::thinnest(mesh, &thickness::measure(mesh));
    if let Some(r) = o.resolution {
        return Ok((r, Chosen::Given, wall));
    }
    // A hair above an integer counts as that integer (thicknesses come from ray casting).
    let by_thickness = wall.map_or(0.0, |w| {
        (CELLS_ACROSS * longest / w.thickness * (1.0 - 1e-9)).ceil()
    });
    let (resolution, chosen) = if by_thickness > MIN_RESOLUTION as f64 {
        (by_thickness, Chosen::Thickness)
    } else {
        (MIN_RESOLUTION as f64, Chosen::Minimum)
    };
    let h = longest / resolution;
    let estimate = lattice::mesh_volume(mesh).abs() / h.powi(3)
        + 0.75 * thickness::surface_area(mesh) / (h * h);
    if estimate > o.max_cells as f64 || resolution > 4096.0 {
        return Err(ModesError::TooManyCells {
            wall: (chosen == Chosen::Thickness).then_some(wall).flatten(),
            resolution: resolution.min(u32::MAX as f64) as usize,
            spacing: h,
            cells: estimate.min(u32::MAX as f64) as usize,
            estimated: true,
            max_cells: o.max_cells,
        });
    }
    Ok((resolution as usize, chosen, wall))
}

/// Internals kept for the tests: the lattice modes and matrices.
#[cfg_attr(not(test), allow(dead_code))]
struct Solution {
    sys: sparse::System,
    /// Elastic lattice modes, `M`-orthonormal, one per column.
    vectors: Mat<f64>,
}

fn analyse(
    mesh: &Mesh,
    o: &ModalOptions,
    progress: &mut dyn FnMut(Progress),
) -> Result<(Modes, Solution), ModesError> {
    o.validate()?;
    let open = open_edges(mesh);
    if mesh.triangles.is_empty() || open > 0 {
        return Err(ModesError::NotClosed { open_edges: open });
    }
    let held_vertex = fixed::held_vertices(mesh, &o.fixed)?;
    let held_vertices = held_vertex.iter().filter(|&&h| h).count();
    // The body in lattice coordinates.
    let (rotation, misalignment) = frame::choose(mesh);
    let turned = Mesh {
        vertices: mesh
            .vertices
            .iter()
            .map(|&p| frame::apply(&rotation, p))
            .collect(),
        triangles: mesh.triangles.clone(),
    };
    let align = fixed::alignment(mesh, &o.fixed, &rotation);
    let (lo, hi) = lattice::bounds(&turned);
    let longest = (0..3).map(|a| hi[a] - lo[a]).fold(0.0, f64::max);
    // Thickness on the mesh as given, so the thinnest wall's box is in mesh coordinates.
    let (resolution, chosen, thinnest) = choose_resolution(mesh, o, longest, progress)?;
    let mesh = &turned;

    progress(Progress::Voxelising { resolution });
    let mut grid = lattice::voxelise(mesh, resolution, align);
    let dropped = lattice::keep_largest_component(&mut grid);
    let solid = grid.solid_cells();
    if solid == 0 {
        return Err(ModesError::NoSolidCells { resolution });
    }
    if chosen != Chosen::Given && solid > o.max_cells {
        return Err(ModesError::TooManyCells {
            wall: (chosen == Chosen::Thickness).then_some(thinnest).flatten(),
            resolution,
            spacing: grid.h,
            cells: solid,
            estimated: false,
            max_cells: o.max_cells,
        });
    }
    let held = embed::held_nodes(mesh, &grid, &held_vertex);
    let sys = sparse::assemble(&grid, o.young, o.poisson, o.density, &held);
    let held_nodes = sys.node_dof.iter().filter(|&&d| d == sparse::HELD).count();
    if held_vertices > 0 && held_nodes == 0 {
        return Err(ModesError::NotHeld {
            found: 6,
            held_nodes,
        });
    }
    let n = sys.k.n;
    let rigid = if held_nodes > 0 { 0 } else { 6 };
    let wanted = o.modes + rigid;
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

    let sigma = -1e-3 * o.young / (o.density * longest * longest);
    let factor = Factor::new(
        &sys.k.lower_combination(-sigma, &sys.m)?,
        &ordering::nested_dissection(&grid, &sys.node_dof),
    )?;
    progress(Progress::Factored);

    let rigid_motions = if rigid > 0 {
        Some(eigen::rigid_modes(&sys)?)
    } else {
        None
    };
    let pairs = eigen::lowest(&sys, &factor, wanted, rigid_motions.as_ref(), progress)?;
    let theta = &pairs.values;
    let largest = if rigid > 0 {
        theta[wanted - 1]
    } else {
        // A held body should have none: count them in the whole block, so a body left
        // free to turn is told how many ways.
        pairs.block.last().copied().unwrap_or(0.0)
    };
    let zeros = pairs
        .block
        .iter()
        .take_while(|&&t| t < RIGID_FRACTION * largest)
        .count();
    if zeros != rigid {
        return Err(if rigid == 6 {
            ModesError::RigidModes { found: zeros }
        } else {
            ModesError::NotHeld {
                found: zeros,
                held_nodes,
            }
        });
    }
    let elastic = pairs.vectors.subcols(rigid, o.modes).to_owned();
    let mut vectors = match &rigid_motions {
        // The elastic modes, with the rigid motions projected out M-orthogonally.
        Some(r) => {
            let coefficients = sys.m.mul(r).transpose() * &elastic;
            &elastic - r * &coefficients
        }
        None => elastic,
    };
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
    let eigenvalues: Vec<f64> = theta[rigid..wanted].to_vec();
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

    let (mut basis, max_embedding_gap) = embed::surface_basis(mesh, &grid, &sys, &vectors);
    if rotation != frame::IDENTITY {
        // Displacements back to mesh coordinates.
        let k = basis.modes;
        for v in 0..basis.vertices {
            for j in 0..k {
                let u = core::array::from_fn(|a| basis.data[(3 * v + a) * k + j]);
                let back = frame::apply_inverse(&rotation, u);
                for a in 0..3 {
                    basis.data[(3 * v + a) * k + j] = back[a];
                }
            }
        }
    }
    let mesh_volume = lattice::mesh_volume(mesh).abs();
    let volume = grid.volume();
    let lattice = Lattice {
        resolution,
        chosen,
        thinnest,
        cells_across: thinnest.map(|w| w.thickness / grid.h),
        cells: grid.n,
        spacing: grid.h,
        origin: grid.origin,
        frame: rotation,
        misalignment,
        solid_cells: solid,
        cut_cells: grid.cut_cells(),
        dropped_cells: dropped,
        undecided_cells: grid.undecided,
        held_nodes,
        dofs: n,
        factor_entries: factor.len(),
        volume,
    };
    let modes = Modes {
        frequencies_hz: eigenvalues
            .iter()
            .map(|&l| l.max(0.0).sqrt() / (2.0 * std::f64::consts::PI))
            .collect(),
        eigenvalues,
        rigid_eigenvalues: theta[..rigid].to_vec(),
        basis,
        lattice,
        held_vertices,
        iterations: pairs.iterations,
        max_residual,
        max_embedding_gap,
        mesh_volume,
        volume_ratio: volume / mesh_volume,
    };
    Ok((modes, Solution { sys, vectors }))
}
