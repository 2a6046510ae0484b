//! `bdtree build`: a tree image from a mesh and a basis, optionally compacted.

use std::io::Write;
use std::path::PathBuf;

use bdtree_cli::report;
use bdtree_std::build::{build, BuildOptions, Precision, SphereFit, TreeKind};
use bdtree_std::io::{load_mesh, load_npy};

use crate::compact::compact_and_write;
use crate::error::{write, CliError};
use crate::options::{progress_bar, BoundsArgs, CompactArgs};

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
    /// Which partition the tree is built on: the median split, or the medial-axis partition
    /// (closed meshes only; same image format).
    #[arg(long, value_enum, default_value_t = TreeKind::Median)]
    tree: TreeKind,
    #[command(flatten)]
    bounds: BoundsArgs,
    #[command(flatten)]
    compact: CompactArgs,
}

pub fn exec(args: Args) -> Result<(), CliError> {
    let options = BuildOptions {
        tree: args.tree,
        sphere: args.sphere,
        nested: args.bounds.nested || args.compact.depth.is_some(),
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
    let bar = progress_bar(
        mesh.triangles.len(),
        "{msg} {bar:40} {pos}/{len} leaves ({elapsed})",
        "building",
    );
    let (image, report) = build(&mesh, basis.as_ref(), options, &mut |n| bar.inc(n as u64))
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
