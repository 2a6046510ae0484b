//! `bdtree modes`: the lowest vibration modes of a closed mesh, written as a basis, with the
//! lattice the analysis chose (the report's text and JSON come from `bdtree_std::modal::report`).

use std::io::Write;
use std::path::PathBuf;

use bdtree_std::io::{load_mesh, write_npy};
use bdtree_std::modal::{
    compute_modes, report, Fixed, LengthUnit, ModalOptions, ModesError, Normalization, Progress,
};

use crate::error::CliError;
use crate::options::progress_bar;

#[derive(clap::Args)]
pub struct Args {
    /// The closed rest mesh (OBJ, PLY, STL), in the unit of --units (metres by default).
    mesh: PathBuf,
    /// How many elastic modes (the 6 rigid-body modes of a free body are removed).
    #[arg(short = 'k', long = "count", default_value_t = 10)]
    k: usize,
    /// Where to write the basis.
    #[arg(short, long)]
    output: PathBuf,
    /// Young's modulus in pascals.
    #[arg(long, default_value_t = 1e6)]
    young: f64,
    /// Poisson's ratio, in (−1, 0.5).
    #[arg(long, default_value_t = 0.45, allow_negative_numbers = true)]
    poisson: f64,
    /// Density in kg/m³.
    #[arg(long, default_value_t = 1000.0)]
    density: f64,
    /// Lattice cells along the longest side of the bounding box, cubic, instead of the
    /// automatic choice (the cell budget then does not apply).
    #[arg(long)]
    resolution: Option<usize>,
    /// Most lattice cells the automatic choice may use.
    #[arg(long, default_value_t = bdtree_std::modal::DEFAULT_MAX_CELLS)]
    max_cells: usize,
    /// Hold every mesh vertex in a half-space fixed: an axis x|y|z, < or >, a value in mesh
    /// units, e.g. 'x<-0.499'. Repeatable. The lattice is shifted so a node plane passes
    /// through the innermost held vertex; the held surface holds the lattice nodes it moves
    /// with.
    #[arg(long, value_parser = Fixed::parse, allow_hyphen_values = true)]
    fixed: Vec<Fixed>,
    /// Hold these mesh vertices fixed: a file of 0-based vertex indices, one a line.
    #[arg(long)]
    fixed_vertices: Vec<PathBuf>,
    /// The unit of the mesh's coordinates: m (the default), cm, mm, um or in. Young's modulus and the
    /// density stay in SI units; frequencies are right whatever the unit, the lattice, walls and
    /// volumes are reported in it, and the basis moves vertices in it (so `q` is in it).
    /// Without it, a rubber or metal body over 10 units long is warned about.
    #[arg(long, value_parser = LengthUnit::parse, value_name = "m|cm|mm|um|in")]
    units: Option<LengthUnit>,
    /// How each mode is scaled: `peak` (the largest vertex displacement is 1 mesh unit per unit
    /// of q, so q_j is mode j's peak displacement) or `mass` (unit modal mass: m_j = 1,
    /// k_j = ω_j²). Modal masses and stiffnesses are reported either way.
    #[arg(long, default_value = "peak", value_parser = Normalization::parse)]
    normalize: Normalization,
    /// Print one JSON object on stdout (frequencies, modal masses and stiffnesses, the lattice
    /// chosen, cells, dofs, volumes, time) instead of a table.
    #[arg(long)]
    json: bool,
}

pub fn exec(args: Args) -> Result<(), CliError> {
    let mut options = ModalOptions {
        modes: args.k,
        young: args.young,
        poisson: args.poisson,
        density: args.density,
        resolution: args.resolution,
        max_cells: args.max_cells,
        fixed: args.fixed,
        units: args.units.unwrap_or_default(),
        normalization: args.normalize,
    };
    for path in &args.fixed_vertices {
        let held = Fixed::read_vertices(path)
            .map_err(|e| CliError::ModalOptions(ModesError::InvalidOptions(e)))?;
        options.fixed.push(held);
    }
    let (mesh_path, output) = (&args.mesh, &args.output);
    options.validate().map_err(CliError::ModalOptions)?;
    let mesh = load_mesh(mesh_path)?;
    if args.units.is_none() {
        if let Some(w) = report::unit_warning(extent(&mesh.vertices), args.young, args.density) {
            let _ = writeln!(std::io::stderr(), "warning: {}: {w}", mesh_path.display());
        }
    }
    let started = std::time::Instant::now();
    let bar = progress_bar(
        options.modes + 6,
        "{msg} {bar:40} {pos}/{len} converged ({elapsed})",
        "modes: measuring the thickness",
    );
    let result = compute_modes(&mesh, &options, &mut |p| match p {
        Progress::Measuring => bar.set_message("modes: measuring the thickness"),
        Progress::Voxelising { resolution } => {
            bar.set_message(format!(
                "modes: filling the lattice (resolution {resolution})"
            ));
        }
        Progress::Lattice { cells, dofs } => {
            bar.set_message(format!("modes: factoring ({cells} cells, {dofs} dofs)"));
        }
        Progress::Factored => bar.set_message("modes: iterating"),
        Progress::Iteration {
            iteration,
            converged,
            wanted,
        } => {
            bar.set_length(wanted as u64);
            bar.set_position(converged as u64);
            bar.set_message(format!("modes: iteration {iteration}"));
        }
    });
    bar.finish_and_clear();
    let modes = result.map_err(|error| CliError::Modes {
        path: mesh_path.clone(),
        error,
    })?;
    let cannot_write = |error| CliError::Write {
        path: output.clone(),
        error,
    };
    let file = std::fs::File::create(output).map_err(cannot_write)?;
    let mut writer = std::io::BufWriter::new(file);
    write_npy(&modes.basis, &mut writer)
        .and_then(|()| writer.flush())
        .map_err(cannot_write)?;
    let seconds = started.elapsed().as_secs_f64();
    for w in report::warnings(&modes) {
        let _ = writeln!(std::io::stderr(), "warning: {}: {w}", mesh_path.display());
    }
    if args.json {
        writeln!(std::io::stdout(), "{}", report::json(&modes, seconds))?;
    } else {
        write!(
            std::io::stdout(),
            "{}",
            report::table(&modes, output, seconds)
        )?;
    }
    Ok(())
}

/// The longest side of the vertices' bounding box.
fn extent(vertices: &[[f64; 3]]) -> f64 {
    (0..3)
        .map(|k| {
            let (lo, hi) = vertices
                .iter()
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
                    (lo.min(v[k]), hi.max(v[k]))
                });
            hi - lo
        })
        .fold(0.0, f64::max)
}
