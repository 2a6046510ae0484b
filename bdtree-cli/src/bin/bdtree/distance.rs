//! `bdtree distance`: the nearest points of every body pair per frame, or with `--closer-than D`
//! whether each pair comes within D (the kernel's and the host's `separation`); `--within D`
//! is the contacts family's ([`crate::contacts::within`]). `--check` compares with the f64
//! brute force.

use std::io::Write;
use std::path::PathBuf;

use bdtree_cli::report;
use bdtree_std::build::{BuildOptions, Precision};
use bdtree_std::io::Scene;
use bdtree_std::runner::{
    brute_force_distance_frame, brute_force_pair_distance, distances, run_closer_than,
    PreparedScene,
};

use crate::contacts::within;
use crate::error::CliError;
use crate::options::{load_and_prepare, DISTANCE_TOLERANCE as TOLERANCE};

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
    /// Every triangle pair of distinct bodies at most D apart (intersecting pairs at 0), with
    /// its distance and witness points, one line per frame, instead of the nearest points.
    #[arg(long, value_name = "D", allow_negative_numbers = true)]
    within: Option<f64>,
    /// Whether each body pair comes within D (touching counts at 0), one line per frame and
    /// body pair, with a witness triangle pair when it does: early exit, settled in f64 (never
    /// a false "no"). With `--check`, against the brute-force distance.
    #[arg(
        long,
        value_name = "D",
        allow_negative_numbers = true,
        conflicts_with = "within"
    )]
    closer_than: Option<f64>,
}

pub fn exec(args: Args) -> Result<(), CliError> {
    let options = BuildOptions {
        precision: args.precision,
        ..BuildOptions::default()
    };
    let (scene, prepared) = load_and_prepare(&args.scene, options, Some("`bdtree distance`"))?;
    if let Some(d) = args.closer_than {
        return closer_than(&scene, &prepared, args.precision, d, args.check, args.json);
    }
    if let Some(d) = args.within {
        return within(&scene, &prepared, args.precision, d, args.check, args.json);
    }
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
            writeln!(
                out,
                "{}",
                report::distance_line(&scene, f, d, truth, args.json)
            )?;
        }
    }
    if args.check {
        if !args.json {
            writeln!(out, "largest difference from brute force: {worst:.2e}")?;
        }
        if worst > TOLERANCE {
            return Err(CliError::Distances { worst });
        }
    }
    Ok(())
}

/// `--closer-than D`: whether each body pair comes within `d` per frame; with `check`, against
/// the brute-force distance (every pair the brute force puts within `d` answered "closer",
/// every "closer" within [`TOLERANCE`] of `d`).
fn closer_than(
    scene: &Scene,
    prepared: &PreparedScene,
    precision: Precision,
    d: f64,
    check: bool,
    json: bool,
) -> Result<(), CliError> {
    if !(d >= 0.0 && d.is_finite()) {
        return Err(CliError::BadCloserThan { value: d });
    }
    let frames = match precision {
        Precision::F32 => run_closer_than::<f32>(scene, prepared, d),
        Precision::F64 => run_closer_than::<f64>(scene, prepared, d),
    }?;
    let (mut missed, mut worst) = (0usize, 0.0f64);
    let mut out = std::io::stdout().lock();
    for (f, row) in frames.iter().enumerate() {
        for p in row {
            let (a, b) = p.bodies;
            let truth = check
                .then(|| brute_force_pair_distance(scene, f, a, b))
                .flatten();
            if let Some(t) = truth {
                match p.witness {
                    None if t <= d => missed += 1,
                    Some(_) => worst = worst.max(t - d),
                    None => {}
                }
            }
            writeln!(out, "{}", report::closer_line(scene, f, p, d, truth, json))?;
        }
    }
    if check && !json {
        writeln!(
            out,
            "brute force (f64): {missed} pair(s) within {d} answered \"not closer\"; \
             largest distance beyond {d} of a \"closer\" pair {:.2e}",
            worst.max(0.0)
        )?;
    }
    if missed > 0 {
        return Err(CliError::Missed { count: missed });
    }
    if worst > TOLERANCE {
        return Err(CliError::Distances { worst });
    }
    Ok(())
}
