//! `bdtree build`: a tree image from a mesh and a basis, optionally compacted.

use std::io::Write;
use std::path::PathBuf;

use bdtree_cli::report;
use bdtree_std::build::{build, BuildOptions, Precision, SphereFit, TreeKind};
use bdtree_std::io::{load_mesh, load_npy};

use crate::compact::compact_and_write;
use crate::error::{write, CliError};
use crate::options::{progress_bar, BoundsArgs, CompactArgs, ProgressLines};

#[derive(clap::Args)]
pub struct Args {
    /// The rest mesh.
    mesh: PathBuf,
    /// The displacement basis; omit for a rigid body.
    #[arg(long)]
    modes: Option<PathBuf>,
    /// Where to write the image.
    #[arg(short, long)]
    output: PathBuf,
    /// Scalar of the image.
    #[arg(long, value_enum, default_value_t = Precision::F32)]
    precision: Precision,
    /// Rest sphere fit.
    #[arg(long, value_enum, default_value_t = SphereFit::Welzl)]
    sphere: SphereFit,
    /// Report progress on stderr as plain lines (every 10 %) when stderr is not a terminal (a
    /// terminal gets a progress bar without it).
    #[arg(long)]
    progress: bool,
    /// Store the self-collision culling data in the image (vertex signatures, boundary loops,
    /// subspace certificates): the kernel then culls the body's self-collision from the image
    /// alone (C, firmware, `collide --self`). Off by default (the image stays as small as
    /// without it); give it for a body that will be asked for its self pairs.
    #[arg(long)]
    self_cull: bool,
    /// Store a fitted sphere per node (a medial tree always does; a median tree's are its
    /// exact spheres).
    #[arg(long)]
    fitted: bool,
    #[command(flatten)]
    bounds: BoundsArgs,
    #[command(flatten)]
    compact: CompactArgs,
}

pub fn exec(args: Args) -> Result<(), CliError> {
    let options = BuildOptions {
        sphere: args.sphere,
        nested: args.bounds.nested || args.compact.depth.is_some(),
        self_cull: args.self_cull,
        fitted: args.fitted,
        ..args.bounds.options(args.precision)
    };
    let path = &args.mesh;
    if !args.compact.is_plain() && options.precision != Precision::F32 {
        return Err(CliError::CompactF64 { path: path.clone() });
    }
    let mesh = load_mesh(path)?;
    if let Some(line) = bdtree_std::build::quality::counts(&mesh).summary() {
        writeln!(std::io::stdout(), "{}: {line}", path.display())?;
    }
    let basis = match &args.modes {
        Some(modes) => {
            let b = load_npy(modes)?;
            b.check_vertex_count(mesh.vertices.len(), modes)?;
            Some(b)
        }
        None => None,
    };
    let work = options.work(mesh.triangles.len());
    let bar = progress_bar(
        work,
        "{msg} {bar:40} {percent}% ({elapsed}, {eta} left)",
        match options.tree {
            TreeKind::Median => "building (leaves)",
            TreeKind::Medial => "building (medial balls, then leaves)",
        },
    );
    let mut lines = ProgressLines::new(args.progress && bar.is_hidden(), work);
    let (image, report) = build(&mesh, basis.as_ref(), options, &mut |n| {
        bar.inc(n as u64);
        lines.add(n);
    })
    .map_err(|error| CliError::Build {
        path: path.clone(),
        error,
    })?;
    bar.finish_and_clear();
    if !args.compact.is_plain() {
        let full = image.parse::<f32>().map_err(|error| CliError::Image {
            path: path.clone(),
            error,
        })?;
        let compacted = compact_and_write(&full, args.compact, path, &args.output)?;
        writeln!(std::io::stdout(),
            "  {} triangles, {} vertices, {} modes; complete f32 tree: {} nodes, depth {}, {} bytes",
            mesh.triangles.len(),
            mesh.vertices.len(),
            compacted.modes,
            full.tree.node_count(),
            full.tree.depth(),
            image.as_bytes().len()
        )?;
        writeln!(std::io::stdout(), "{}", report::compact_summary(&compacted))?;
        return Ok(());
    }
    write(&args.output, image.as_bytes())?;
    writeln!(std::io::stdout(), "wrote {}", args.output.display())?;
    let summary =
        report::build_summary(&report, mesh.triangles.len(), mesh.vertices.len(), &options);
    writeln!(std::io::stdout(), "{summary}")?;
    Ok(())
}
