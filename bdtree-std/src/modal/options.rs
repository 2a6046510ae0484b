//! The analysis' options, progress reports, results and errors.

use super::spec::Fixed;
use super::thickness::Wall;
use super::units::{LengthUnit, Normalization};
use crate::io::Basis;

/// Cells the automatic lattice puts across the thinnest part of the body.
pub const CELLS_ACROSS: f64 = 4.0;

/// Cells the automatic lattice puts along the longest side of the bounding box, at least.
pub const MIN_RESOLUTION: usize = 20;

/// Cells the automatic lattice puts across every side of the body's bounding box, at least:
/// a compact section's torsion needs them (see the [module documentation](super)).
pub const SECTION_CELLS: f64 = 6.0;

/// Cells the automatic lattice puts along the longest side, at least, on an axis coarser than
/// its finest (along a plate or a slender body).
pub const ALONG_RESOLUTION: usize = 80;

/// Longest side of an automatic lattice's cell over its shortest: a cell thin across a wall
/// is at most this much longer along it (see the [module documentation](super)).
pub const MAX_ASPECT: f64 = 8.0;

/// Most cells of the grid over the bounding box (empty cells included) the lattice is built
/// on: its bookkeeping takes about 30 bytes a cell.
pub const MAX_GRID_CELLS: usize = 1 << 26;

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
    /// Lattice cells along the longest side of the bounding box, cubic; `None` chooses each
    /// cell side from the body's thickness along it (see the [module documentation](super)).
    pub resolution: Option<usize>,
    /// Most solid cells the automatic lattice may use; more is an error
    /// ([`ModesError::TooManyCells`]). Not applied to a given `resolution`.
    pub max_cells: usize,
    /// Held parts of the surface; empty for a free body.
    pub fixed: Vec<Fixed>,
    /// The unit of the mesh's coordinates (and so of the basis and of `q`); `E` and `ρ` stay
    /// in SI units whatever it is (see the [module documentation](super)).
    pub units: LengthUnit,
    /// How each returned mode is scaled.
    pub normalization: Normalization,
}

impl Default for ModalOptions {
    /// 10 modes of a free soft rubber-like solid (`E` = 1 MPa, `ν` = 0.45, `ρ` = 1000
    /// kg/m³) in metres on the automatic lattice, each scaled to a peak displacement of 1.
    fn default() -> Self {
        Self {
            modes: 10,
            young: 1e6,
            poisson: 0.45,
            density: 1000.0,
            resolution: None,
            max_cells: DEFAULT_MAX_CELLS,
            fixed: Vec::new(),
            units: LengthUnit::Metre,
            normalization: Normalization::Peak,
        }
    }
}

/// An option of [`ModalOptions`], as errors name it: the command line's flag
/// ([`ModalOption::flag`]) or another front end's parameter ([`ModesError::describe`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ModalOption {
    /// [`ModalOptions::modes`].
    Modes,
    /// [`ModalOptions::young`].
    Young,
    /// [`ModalOptions::poisson`].
    Poisson,
    /// [`ModalOptions::density`].
    Density,
    /// [`ModalOptions::resolution`].
    Resolution,
    /// [`ModalOptions::max_cells`].
    MaxCells,
}

impl ModalOption {
    /// The `bdtree modes` flag: `-k`, `--young`, `--poisson`, `--density`, `--resolution`,
    /// `--max-cells`.
    pub fn flag(self) -> &'static str {
        match self {
            ModalOption::Modes => "-k",
            ModalOption::Young => "--young",
            ModalOption::Poisson => "--poisson",
            ModalOption::Density => "--density",
            ModalOption::Resolution => "--resolution",
            ModalOption::MaxCells => "--max-cells",
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
    /// The body's thickness: [`CELLS_ACROSS`] cells across its walls, [`SECTION_CELLS`]
    /// across its section.
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
    /// The body's thinnest part that matters (see the [module documentation](super)); `None`
    /// if no triangle gave a thickness.
    pub thinnest: Option<Wall>,
    /// Cells across that part (its thickness over the shortest cell side).
    pub cells_across: Option<f64>,
    /// Grid cells along x, y and z.
    pub cells: [usize; 3],
    /// Cell sides along the lattice's x, y and z in mesh units: equal (cubes) for a given
    /// resolution and a body thick every way, thinner across thin walls (see the [module
    /// documentation](super)).
    pub spacing: [f64; 3],
    /// Lower corner of the grid, in lattice coordinates (`frame · p` for a mesh point `p`).
    pub origin: [f64; 3],
    /// The lattice's axes in mesh coordinates (rows): the identity unless the body's faces
    /// line up better with a turned lattice (see the [module documentation](super)).
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
    /// Volume of material the lattice holds (full cells and the inside share of cut cells), in
    /// mesh units cubed.
    pub volume: f64,
}

/// The result of [`compute_modes`](super::compute_modes).
#[derive(Debug, Clone, PartialEq)]
pub struct Modes {
    /// The `k` lowest elastic frequencies in hertz, increasing.
    pub frequencies_hz: Vec<f64>,
    /// Their eigenvalues `λ = (2π f)²` in s⁻² (whatever the mesh's unit).
    pub eigenvalues: Vec<f64>,
    /// The six removed rigid-body eigenvalues of a free body (numerically zero), in s⁻²;
    /// empty when something is held.
    pub rigid_eigenvalues: Vec<f64>,
    /// Surface displacements, 3N × k, in mesh units per unit of `q` (see the [module
    /// documentation](super) for the scaling).
    pub basis: Basis,
    /// Each mode's modal mass `m_j` for `q` as the basis scales it (1 for
    /// [`Normalization::Mass`]): in N·s² per mesh unit (kg when the unit is the metre), such
    /// that `m_j q̈_j + k_j q_j = Q_j` with `q` in mesh units and the generalized force
    /// `Q_j = Σ_v U_vjᵀ F_v` of world forces `F_v` in newtons (body axes) — see the [module
    /// documentation](super).
    pub modal_masses: Vec<f64>,
    /// Each mode's modal stiffness `k_j = m_j ω_j²`, in N per mesh unit (`ω_j²` in s⁻² for
    /// [`Normalization::Mass`]).
    pub modal_stiffnesses: Vec<f64>,
    /// The unit of the mesh, the basis and `q`.
    pub units: LengthUnit,
    /// How the modes are scaled.
    pub normalization: Normalization,
    /// The lattice.
    pub lattice: Lattice,
    /// Mesh vertices held fixed.
    pub held_vertices: usize,
    /// Subspace iterations until convergence.
    pub iterations: usize,
    /// Largest relative residual `‖K u − λ M u‖ / ‖K u‖` of the returned modes.
    pub max_residual: f64,
    /// Largest distance from a mesh vertex to the solid cell it is embedded in, in mesh units
    /// (0 when every vertex lies in a solid cell).
    pub max_embedding_gap: f64,
    /// Volume the mesh encloses, in mesh units cubed.
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
    /// An option is out of range: which, its value and what it must be.
    InvalidOption {
        /// The option.
        option: ModalOption,
        /// Its value, as text.
        value: String,
        /// What it must be ("a positive number of pascals").
        expected: &'static str,
    },
    /// The mesh has no triangles, or edges used by only one triangle (so it has no inside).
    NotClosed {
        /// Edges used an odd number of times.
        open_edges: usize,
    },
    /// The automatic lattice would need more cells than the budget.
    TooManyCells {
        /// The thinnest part, which sets the cell size (if it does); boxed to keep the
        /// error small.
        wall: Option<Box<Wall>>,
        /// Cells along the longest side needed.
        resolution: usize,
        /// Cell sides needed along x, y and z.
        spacing: [f64; 3],
        /// Solid cells needed: counted on the filled lattice, or, when `estimated`, a lower
        /// bound (the body's volume over a cell's) that is already over the budget.
        cells: usize,
        /// Degrees of freedom of those cells (3 per node), when counted.
        dofs: Option<usize>,
        /// Whether `cells` is the lower bound.
        estimated: bool,
        /// The budget, [`ModalOptions::max_cells`].
        max_cells: usize,
        /// The mesh's unit (of `spacing` and the wall).
        units: LengthUnit,
    },
    /// The grid over the body's bounding box would have more than [`MAX_GRID_CELLS`] cells
    /// (a thin shell around a large empty inside, or a fine `resolution`).
    GridTooLarge {
        /// Grid cells along x, y and z.
        cells: [usize; 3],
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

/// Cell sides (mesh units of `unit`) as text: one length for a cube, else the three.
pub(super) fn sides(h: [f64; 3], unit: LengthUnit) -> String {
    let length = |x| super::units::length(x, unit);
    if h.iter().all(|&s| (s - h[0]).abs() <= 1e-9 * h[0]) {
        length(h[0])
    } else {
        format!("{} × {} × {}", length(h[0]), length(h[1]), length(h[2]))
    }
}

/// `cells / budget` as "N times", with as many decimals as it takes (up to 6) not to round
/// a count over the budget down to 1: "1.11 times", "2.4 times", "55 times".
fn times(cells: usize, budget: usize) -> String {
    let ratio = cells as f64 / budget.max(1) as f64;
    let mut decimals = if ratio >= 100.0 {
        0
    } else if ratio >= 10.0 {
        1
    } else {
        2
    };
    while decimals < 6 && cells > budget && format!("{ratio:.decimals$}").parse() == Ok(1.0) {
        decimals += 1;
    }
    format!("{ratio:.decimals$} times")
}

impl std::fmt::Display for ModesError {
    /// The message with the options named as `bdtree modes`' flags ([`ModalOption::flag`]).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.write(f, &ModalOption::flag)
    }
}

impl ModesError {
    /// The message with each option named by `name` (a front end's own parameter names;
    /// [`ModalOption::flag`] gives the command line's, as `Display` does).
    pub fn describe(&self, name: &dyn Fn(ModalOption) -> &'static str) -> String {
        struct Text<'e, 'n>(&'e ModesError, &'n dyn Fn(ModalOption) -> &'static str);
        impl std::fmt::Display for Text<'_, '_> {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                self.0.write(f, self.1)
            }
        }
        Text(self, name).to_string()
    }

    fn write(
        &self,
        f: &mut std::fmt::Formatter<'_>,
        name: &dyn Fn(ModalOption) -> &'static str,
    ) -> std::fmt::Result {
        use ModalOption as O;
        match self {
            ModesError::InvalidOptions(what) => write!(f, "{what}"),
            ModesError::InvalidOption {
                option,
                value,
                expected,
            } => write!(f, "{} must be {expected}, not {value}", name(*option)),
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
                dofs,
                estimated,
                max_cells,
                units,
            } => {
                let sides = sides(*spacing, *units);
                match wall {
                    Some(w) => write!(
                        f,
                        "the body has a wall too thin for the cell budget: {}. Putting {:.0} \
                         cells across it needs cells of {sides}",
                        w.describe(*units),
                        w.thickness / spacing.iter().copied().fold(f64::INFINITY, f64::min)
                    )?,
                    None => write!(f, "the lattice needs cells of {sides}")?,
                }
                write!(f, " (resolution {resolution}): ")?;
                if *estimated {
                    write!(
                        f,
                        "at least {} cells (the body's volume over a cell's)",
                        count(*cells)
                    )?;
                } else {
                    write!(f, "{} cells", count(*cells))?;
                }
                if let Some(dofs) = dofs {
                    write!(f, " and {} degrees of freedom", count(*dofs))?;
                }
                write!(
                    f,
                    ", {} the budget of {} cells ({max}). Raise {max} to at least {} (time and \
                     memory grow faster than the cell count), or give {resolution} to compute on \
                     a coarser lattice, on which that wall comes out too stiff; no frequencies \
                     were computed",
                    times(*cells, *max_cells),
                    count(*max_cells),
                    count(*cells),
                    max = name(O::MaxCells),
                    resolution = name(O::Resolution),
                )
            }
            ModesError::GridTooLarge { cells } => write!(
                f,
                "the lattice's grid over the bounding box would have {}×{}×{} cells, more than \
                 the {} it can be built on; give a coarser {}",
                cells[0],
                cells[1],
                cells[2],
                count(MAX_GRID_CELLS),
                name(O::Resolution)
            ),
            ModesError::NoSolidCells { resolution } => write!(
                f,
                "no lattice cell holds material at resolution {resolution}: the body is \
                 thinner than a cell; raise {}",
                name(O::Resolution)
            ),
            ModesError::TooFewDofs { dofs, needed } => write!(
                f,
                "the lattice has {dofs} degrees of freedom but {needed} modes are needed; \
                 raise {} or lower {}",
                name(O::Resolution),
                name(O::Modes)
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

impl ModalOptions {
    /// Checks that every option is in range; the error names the option
    /// ([`ModesError::InvalidOption`]: `Display` gives `bdtree modes`' flag, `-k`, `--young`,
    /// `--poisson`, `--density`, `--resolution`, `--max-cells`).
    pub fn validate(&self) -> Result<(), ModesError> {
        let bad = |option, value: String, expected| {
            Err(ModesError::InvalidOption {
                option,
                value,
                expected,
            })
        };
        if self.modes == 0 {
            return bad(
                ModalOption::Modes,
                "0".into(),
                "at least 1 (the number of modes)",
            );
        }
        if !(self.young.is_finite() && self.young > 0.0) {
            return bad(
                ModalOption::Young,
                self.young.to_string(),
                "a positive number of pascals",
            );
        }
        if !(self.poisson.is_finite() && self.poisson > -1.0 && self.poisson < 0.5) {
            return bad(
                ModalOption::Poisson,
                self.poisson.to_string(),
                "strictly between -1 and 0.5",
            );
        }
        if !(self.density.is_finite() && self.density > 0.0) {
            return bad(
                ModalOption::Density,
                self.density.to_string(),
                "a positive number of kg/m³",
            );
        }
        if let Some(r) = self.resolution {
            if r == 0 || r > 4096 {
                return bad(ModalOption::Resolution, r.to_string(), "between 1 and 4096");
            }
        }
        if self.max_cells == 0 {
            return bad(ModalOption::MaxCells, "0".into(), "at least 1");
        }
        Ok(())
    }
}
