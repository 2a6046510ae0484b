//! `bdtree export`: a scene frame as PLY or OBJ for MeshLab or Blender.

use std::io::Write;
use std::path::PathBuf;

use bdtree_std::export;
use bdtree_std::io::Scene;
use bdtree_std::runner::frame::{frame_geometry, GeometryOptions};

use crate::error::CliError;

#[derive(clap::Args)]
pub struct Args {
    /// The scene (JSON).
    scene: PathBuf,
    /// The frame (0-based).
    #[arg(long, default_value_t = 0)]
    frame: usize,
    /// Where to write: .ply or .obj.
    #[arg(short, long)]
    output: PathBuf,
    /// Add every body's deformed spheres at this tree level (root = 0).
    #[arg(long, value_name = "LEVEL")]
    spheres: Option<u32>,
    /// Add one point of each intersecting triangle pair's intersection.
    #[arg(long)]
    contacts: bool,
    /// Count each body's self-contacts too.
    #[arg(long = "self")]
    self_pairs: bool,
}

pub fn exec(args: Args) -> Result<(), CliError> {
    let (path, frame, output) = (&args.scene, args.frame, &args.output);
    let (spheres, contacts, self_pairs) = (args.spheres, args.contacts, args.self_pairs);
    export::MeshFormat::of(output)?;
    let scene = Scene::load(path)?;
    scene.without_primitives("`bdtree export`")?;
    let options = GeometryOptions {
        proxies: None,
        self_pairs,
        spheres,
    };
    let geometry = frame_geometry(&scene, frame, &options)?;
    let comment = format!(
        "bdtree export of {} frame {frame}: {} bodies, {} intersecting triangle pairs",
        path.display(),
        geometry.bodies.len(),
        geometry.pairs.len()
    );
    let summary = export::write_frame(&geometry, contacts, &comment, output)?;
    writeln!(std::io::stdout(),
        "wrote {}: {} vertices, {} triangles ({} bodies, {} spheres), {} contact points; {} intersecting pairs",
        output.display(),
        summary.vertices,
        summary.triangles,
        geometry.bodies.len(),
        summary.spheres,
        summary.points,
        geometry.pairs.len()
    )?;
    Ok(())
}
