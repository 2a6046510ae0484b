//! `bdtree`: build, inspect and query BD-Trees from the command line.
//!
//! Glue over `bdtree_std`: one file per subcommand, each holding its arguments and an `exec`
//! that calls into the library and prints what it returns; `options.rs` holds the arguments
//! several share, `error.rs` the typed errors.

use std::io::Write;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod boxes;
mod build;
mod collide;
mod compact;
mod contacts;
mod demo;
mod distance;
mod error;
mod export;
mod inspect;
mod interrupt;
mod modes;
mod options;
mod render;
mod swept;

use error::CliError;

#[derive(Parser)]
#[command(
    name = "bdtree",
    version,
    about = "BD-Tree collision detection for reduced deformable models"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Build a tree image from a mesh (OBJ, PLY, STL) and a basis (.npy, 3N × M or N × 3 × M).
    Build(build::Args),
    /// Make a compact image (quantized rows, bounded depth) from a complete f32 image.
    Compact(compact::Args),
    /// Write a tree image's box table (the bounds of `collide --bounds boxes15|boxes6`, computed
    /// in f64) to a file for a device: the C API's `bdtree_box_table_init_*` checks it against
    /// the image and `bdtree_collide_boxes_*` prunes with it.
    Boxes(boxes::Args),
    /// Print statistics of a tree image: sizes and the per-level tightness table.
    Inspect(inspect::Args),
    /// Find every intersecting triangle pair between distinct bodies, frame by frame.
    Collide(collide::Args),
    /// Interrupted queries (the interruptible-collision paper's Table 1): per test budget, the
    /// pending and confirmed list sizes, the fraction of the true contacts (f64 brute force)
    /// already confirmed, and the size of the conservative cover.
    Interrupt(interrupt::Args),
    /// The minimum distance between every pair of bodies per frame, with witness points,
    /// triangles and the normal from the first body to the second.
    Distance(distance::Args),
    /// The main job: flexing chairs dropped on the ground (the BD-Tree paper's experiment,
    /// small), from the bundled chair mesh; prints a summary (collision cost per step against
    /// the same placements rigid, contacts, the busiest step's proxy contacts checked against
    /// a brute force, an exact triangle check) and writes a
    /// picture. `--scene` runs the bundled three-body scene against brute force instead.
    Demo(demo::Args),
    /// Compute the lowest elastic vibration modes of a closed mesh (linear elasticity on an
    /// embedded hexahedral lattice with cut cells; E and density in SI units, the mesh in the
    /// unit of --units), free or held fixed where it is clamped, and write them as a basis
    /// (.npy, 3N × k), each mode scaled to a largest vertex displacement of 1 (or to unit
    /// modal mass with --normalize mass), with each mode's modal mass and stiffness.
    ///
    /// The lattice is chosen from the body: a ray from every triangle into the body measures
    /// its thickness, and each axis gets its own cell side: 4 cells across walls, 6 across
    /// the body's section, at least 20 along the longest side (80 along a plate or a slender
    /// body), so a thin wall gets cells thin across it only. A wall too thin for --max-cells
    /// is an error that names it and the cost, not a wrong answer. --resolution overrides the
    /// choice with cubic cells.
    Modes(modes::Args),
    /// Draw a picture, PNG or SVG by the output's extension: a tree's spheres at a level, its
    /// tightness curve, or a scene frame's contacts.
    Render(render::Args),
    /// Export a scene frame for MeshLab or Blender (PLY or OBJ by the output's extension): the
    /// deformed meshes, each body in its colour with the triangles in contact in red, and
    /// optionally the spheres at a tree level (icospheres coloured by radius growth) and the
    /// contact points (yellow points).
    Export(export::Args),
}

fn main() -> ExitCode {
    let result: Result<(), CliError> = match Cli::parse().command {
        Command::Build(args) => build::exec(args),
        Command::Compact(args) => compact::exec(args),
        Command::Boxes(args) => boxes::exec(args),
        Command::Inspect(args) => inspect::exec(args),
        Command::Collide(args) => collide::exec(args),
        Command::Interrupt(args) => interrupt::exec(args),
        Command::Distance(args) => distance::exec(args),
        Command::Demo(args) => demo::exec(args),
        Command::Modes(args) => modes::exec(args),
        Command::Render(args) => render::exec(args),
        Command::Export(args) => export::exec(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // The reader went away (`bdtree inspect x.bdt | head`): nothing left to say to it.
        Err(CliError::Stdout(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            // Standard error may be closed too: never panic on it.
            let _ = writeln!(std::io::stderr(), "error: {e}");
            ExitCode::FAILURE
        }
    }
}
