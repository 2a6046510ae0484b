//! `bdtree distance`: the nearest points of every body pair per frame; `--check` compares with
//! the f64 brute force.

use std::io::Write;
use std::path::PathBuf;

use bdtree_std::build::{BuildOptions, Precision};
use bdtree_std::run::{brute_force_distance_frame, distances, report};

use crate::error::CliError;
use crate::options::load_and_prepare;

/// Tolerance of the comparison: the kernel's documented error is a few δ (~1e-4 of the
/// coordinates in f32); 1e-3 of the scene's extent keeps well clear of it.
const TOLERANCE: f64 = 1e-3;

#[derive(clap::Args)]
pub struct Args {
    /// The scene (JSON).
    scene: PathBuf,
    /// One JSON object per frame and body pair, one per line.
    #[arg(long)]
    json: bool,
    /// Arithmetic of the kernel.
    #[arg(long, value_enum, default_value_t = Precision::F32)]
    precision: Precision,
    /// Also compute the distance by brute force (f64) and compare.
    #[arg(long)]
    check: bool,
}

pub fn exec(args: Args) -> Result<(), CliError> {
    let options = BuildOptions {
        precision: args.precision,
        ..BuildOptions::default()
    };
    let (scene, prepared) = load_and_prepare(&args.scene, options)?;
    let frames = match args.precision {
        Precision::F32 => distances::<f32>(&scene, &prepared),
        Precision::F64 => distances::<f64>(&scene, &prepared),
    }?;
    let mut worst = 0.0f64;
    let mut out = std::io::stdout().lock();
    for (f, row) in frames.iter().enumerate() {
        for d in row {
            let (a, b) = d.bodies;
            let truth = args
                .check
                .then(|| brute_force_distance_frame(&scene, f, a, b))
                .flatten();
            if let Some(t) = truth {
                worst = worst.max((t - d.distance).abs());
            }
            let _ = writeln!(
                out,
                "{}",
                report::distance_line(&scene, f, d, truth, args.json)
            );
        }
    }
    if args.check {
        if !args.json {
            let _ = writeln!(out, "largest difference from brute force: {worst:.2e}");
        }
        if worst > TOLERANCE {
            return Err(CliError::Distances { worst });
        }
    }
    Ok(())
}
