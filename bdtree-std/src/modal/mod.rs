//! Vibration modes of a closed surface mesh: a linear-elastic modal analysis on an embedded
//! hexahedral lattice, giving a displacement [`Basis`](crate::io::Basis) for reduced deformable bodies — free
//! (six rigid-body modes removed) or held fixed where it is clamped ([`Fixed`]).
//!
//! # Pipeline
//!
//! 1. **Choose the lattice** (unless [`ModalOptions::resolution`] fixes it, with cubic
//!    cells): the body's thickness is measured by casting a ray from every triangle into the
//!    body along its inward normal to where it leaves the solid. Each lattice axis gets its
//!    own cell side (see `spacing`): [`CELLS_ACROSS`] cells across the thinnest part that
//!    matters measured along that axis (faces spanning at least 10 squared thicknesses),
//!    [`SECTION_CELLS`] across every side of the bounding box, at least [`MIN_RESOLUTION`]
//!    along the longest side, and on the coarser axes at least [`ALONG_RESOLUTION`] with
//!    cells at most [`MAX_ASPECT`] times longer than the finest side. A plate or a tube gets
//!    cells thin across its wall only, so it costs what its surface needs; a body thick
//!    every way gets cubes. If the lattice needs more solid cells than
//!    [`ModalOptions::max_cells`] (counted on the filled lattice, or refused before filling
//!    when the body's volume alone needs more), the analysis stops with
//!    [`ModesError::TooManyCells`], which names the wall, its thickness and what resolving
//!    it would cost — it computes no frequencies it knows to be wrong.
//! 2. **Voxelise with cut cells.** A regular grid of box cells of sides `h` covers the
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
//! Measured against theory nobody here wrote (the tests, and the convergence tables of the book's
//! `docs/src/modal.md`): with the default lattice, a free–free 20:1 square beam's first four
//! bending frequencies are within 1 % of Timoshenko beam theory (Euler–Bernoulli is 1–7 % higher
//! for that beam: it neglects shear and rotary inertia) and its torsion within 1.3 % of
//! Saint-Venant's, a 30° tilted rectangular bar's first weak-axis bending within 1 %, a clamped
//! beam within 1–2 %, a 50:1 plate's six lowest modes, free or clamped on one edge, within 1 % of
//! Kirchhoff's plate, a thin tube's bending, torsion and first ovalling modes within 1.3 % of
//! three-dimensional elasticity, the free cube within 1 % of a converged polynomial Ritz solution,
//! and a sphere's lowest torsional modes within 1 % of Lamb's solution. Higher modes need finer
//! lattices: give `resolution` to check them.
//!
//! # Units and conventions
//!
//! Lengths are in the mesh's unit, [`ModalOptions::units`] (metres unless told: a mesh in
//! millimetres needs [`LengthUnit::Millimetre`], or its frequencies come out 1000 times too
//! low); `E` in pascals and `ρ` in kg/m³ whatever that unit is; eigenvalues `λ = ω²` in s⁻²,
//! frequencies `f = √λ / 2π` in hertz. The lattice's geometry (cell sides, walls, volumes,
//! gaps) is reported in the mesh's unit, and messages give lengths in a readable unit. The
//! analysis is computed on the mesh's own numbers (its lattice does not depend on the unit)
//! and scaled: a mesh `s` times larger in numbers has `λ` `s²` times smaller.
//!
//! **Scaling of the modes.** Each column of the returned [`Basis`](crate::io::Basis) is a
//! displacement in mesh units per unit of `q`, sorted by increasing frequency, with the sign
//! chosen so that the entry of largest magnitude is positive, and scaled by
//! [`ModalOptions::normalization`]:
//!
//! * [`Normalization::Peak`] (the default): the largest vertex displacement (Euclidean norm
//!   over x, y, z) is exactly 1, so `q_j` is mode `j`'s peak displacement in mesh units;
//! * [`Normalization::Mass`]: unit modal mass.
//!
//! **Modal masses and stiffnesses** ([`Modes::modal_masses`], [`Modes::modal_stiffnesses`])
//! are those of `q` as the basis scales it, for the equations of motion in modal coordinates
//!
//! ```text
//! m_j q̈_j + k_j q_j = Q_j,    Q_j = Σ_v U_vjᵀ F_v,    k_j = m_j ω_j²
//! ```
//!
//! with `q` in mesh units, `F_v` the force on vertex `v` in newtons (in the body's axes:
//! `Rᵀ f` for a world force `f`) and `U_vj` the vertex's 3-vector of mode `j` — the kernel's
//! generalized force ([`bdtree_core::world::response`]). With `L` the unit's length in metres and `M`
//! the lattice's mass matrix in kg, `m_j = L · U_jᵀ M U_j` (`U_j` on the lattice's nodes,
//! dimensionless): N·s² per mesh unit, which is kg when the unit is the metre; `k_j` is in N
//! per mesh unit. With [`Normalization::Mass`], `m_j = 1` and `k_j = ω_j²`. The elastic
//! modes are `M`-orthogonal, so the modal equations are uncoupled (no damping is modelled).
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
mod options;
mod ordering;
pub mod report;
mod spacing;
mod sparse;
mod spec;
#[cfg(test)]
mod tests;
mod thickness;
mod units;

pub use options::{
    Chosen, Lattice, ModalOption, ModalOptions, Modes, ModesError, Progress, ALONG_RESOLUTION,
    CELLS_ACROSS, DEFAULT_MAX_CELLS, MAX_ASPECT, MAX_GRID_CELLS, MIN_RESOLUTION, SECTION_CELLS,
};
pub use spec::Fixed;
pub use thickness::Wall;
pub use units::{LengthUnit, Normalization};

use crate::io::Mesh;
use eigen::{Factor, RIGID_FRACTION};
use faer::Mat;

/// Computes the `options.modes` lowest elastic vibration modes of the closed `mesh` (see the
/// [module documentation](self)). `progress` is told about each stage and iteration.
pub fn compute_modes(
    mesh: &Mesh,
    options: &ModalOptions,
    progress: &mut dyn FnMut(Progress),
) -> Result<Modes, ModesError> {
    Ok(analyse(mesh, options, progress)?.0)
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

/// The lattice's cell sides, how they were chosen, the thinnest wall and whether closed parts
/// of the mesh overlap (`mesh` as given, `turned` in lattice coordinates by `frame`).
fn choose_spacing(
    mesh: &Mesh,
    turned: &Mesh,
    frame: &frame::Rotation,
    o: &ModalOptions,
    progress: &mut dyn FnMut(Progress),
) -> ([f64; 3], Chosen, Option<Wall>, bool) {
    progress(Progress::Measuring);
    let (thickness, overlapping) = thickness::measure(mesh);
    let wall = thickness::thinnest(mesh, &thickness);
    if let Some(r) = o.resolution {
        let (lo, hi) = lattice::bounds(turned);
        let longest = (0..3).map(|a| hi[a] - lo[a]).fold(0.0, f64::max);
        return ([longest / r as f64; 3], Chosen::Given, wall, overlapping);
    }
    let (h, chosen) = spacing::automatic(mesh, turned, &thickness, frame);
    (h, chosen, wall, overlapping)
}

/// The refusal of an automatic lattice of `cells` solid cells (a lower bound if `estimated`).
fn too_many_cells(
    o: &ModalOptions,
    chosen: Chosen,
    wall: Option<Wall>,
    (resolution, spacing): (usize, [f64; 3]),
    (cells, dofs, estimated): (f64, Option<usize>, bool),
) -> ModesError {
    ModesError::TooManyCells {
        wall: (chosen == Chosen::Thickness)
            .then_some(wall)
            .flatten()
            .map(Box::new),
        resolution,
        spacing,
        cells: cells.min(usize::MAX as f64) as usize,
        dofs,
        estimated,
        max_cells: o.max_cells,
        units: o.units,
    }
}

/// A filled lattice and how it was chosen.
struct Built {
    grid: lattice::Grid,
    /// Cells along the longest side.
    resolution: usize,
    chosen: Chosen,
    thinnest: Option<Wall>,
    /// Solid cells dropped as not face-connected to the largest group.
    dropped: usize,
}

/// Chooses the lattice for `mesh` (as given; `turned` is it in lattice coordinates by
/// `frame`), fills it and keeps its largest face-connected group of cells. An automatic
/// lattice over the budget is refused: before filling when the body's volume alone needs
/// more cells than the budget (a lower bound when no closed parts overlap), else with the
/// exact count of the cells that would be used. A grid over [`MAX_GRID_CELLS`] is an error.
fn build_lattice(
    mesh: &Mesh,
    turned: &Mesh,
    frame: &frame::Rotation,
    o: &ModalOptions,
    progress: &mut dyn FnMut(Progress),
) -> Result<Built, ModesError> {
    let align = fixed::alignment(mesh, &o.fixed, frame);
    let (lo, hi) = lattice::bounds(turned);
    // Thickness on the mesh as given, so the thinnest wall's box is in mesh coordinates.
    let (h, chosen, thinnest, overlapping) = choose_spacing(mesh, turned, frame, o, progress);
    let resolution = spacing::resolution((lo, hi), h);
    // The mesh's volume bounds the count below only when its closed parts do not overlap.
    if chosen != Chosen::Given && !overlapping {
        // Every solid cell holds at most its volume (a hair less, for rounding).
        let at_least =
            (lattice::mesh_volume(turned).abs() / (h[0] * h[1] * h[2]) * (1.0 - 1e-9)).ceil();
        if at_least > o.max_cells as f64 {
            return Err(too_many_cells(
                o,
                chosen,
                thinnest,
                (resolution, h),
                (at_least, None, true),
            ));
        }
    }
    let (n, _) = lattice::layout((lo, hi), h, align);
    if n.iter().map(|&c| c as f64).product::<f64>() > MAX_GRID_CELLS as f64 {
        return Err(ModesError::GridTooLarge { cells: n });
    }
    progress(Progress::Voxelising { resolution });
    let mut grid = lattice::voxelise(turned, h, align);
    let dropped = lattice::keep_largest_component(&mut grid);
    let solid = grid.solid_cells();
    if solid == 0 {
        return Err(ModesError::NoSolidCells { resolution });
    }
    if chosen != Chosen::Given && solid > o.max_cells {
        return Err(too_many_cells(
            o,
            chosen,
            thinnest,
            (resolution, h),
            (solid as f64, Some(3 * grid.nodes()), false),
        ));
    }
    Ok(Built {
        grid,
        resolution,
        chosen,
        thinnest,
        dropped,
    })
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
    let turned = frame::turned(mesh, &rotation);
    let (lo, hi) = lattice::bounds(&turned);
    let longest = (0..3).map(|a| hi[a] - lo[a]).fold(0.0, f64::max);
    let Built {
        grid,
        resolution,
        chosen,
        thinnest,
        dropped,
    } = build_lattice(mesh, &turned, &rotation, o, progress)?;
    let solid = grid.solid_cells();
    let mesh = &turned;
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

    let (mut basis, max_embedding_gap, peaks) = embed::surface_basis(mesh, &grid, &sys, &vectors);
    // The lattice vectors are M-orthonormal in the mesh's numbers (`M` with lengths in mesh
    // units), so mode j, scaled to its peak, has `Uᵀ M U = 1 / peak²` there; in SI,
    // `M_SI = L³ M` and `m_j = L · U_jᵀ M_SI U_j` (module docs), `λ_SI = λ / L²`.
    let unit = o.units.metres();
    let si = 1.0 / (unit * unit);
    let eigenvalues: Vec<f64> = eigenvalues.iter().map(|&l| l * si).collect();
    let mut modal_masses: Vec<f64> = peaks.iter().map(|p| unit.powi(4) / (p * p)).collect();
    if o.normalization == Normalization::Mass {
        let k = basis.modes;
        for (j, m) in modal_masses.iter_mut().enumerate() {
            let s = 1.0 / m.sqrt();
            for row in basis.data.chunks_mut(k) {
                row[j] *= s;
            }
            *m = 1.0;
        }
    }
    let modal_stiffnesses = modal_masses
        .iter()
        .zip(&eigenvalues)
        .map(|(m, l)| m * l)
        .collect();
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
        cells_across: thinnest
            .map(|w| w.thickness / grid.h.iter().copied().fold(f64::INFINITY, f64::min)),
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
        rigid_eigenvalues: theta[..rigid].iter().map(|&l| l * si).collect(),
        basis,
        modal_masses,
        modal_stiffnesses,
        units: o.units,
        normalization: o.normalization,
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
