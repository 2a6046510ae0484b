//! `bdtree distance`: the nearest points of every body pair per frame; `--check` compares with
//! the f64 brute force.

use std::io::Write;
use std::path::PathBuf;

use bdtree_cli::report;
use bdtree_std::build::{BuildOptions, Precision};
use bdtree_std::io::Scene;
use bdtree_std::runner::{
    brute_force_distance_frame, brute_force_pair_distance, brute_force_within_frame, distances,
    run_closer_than, run_within, PreparedScene,
};

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

/// `--within D`: every triangle pair at most `d` apart per frame; with `check`, against the
/// brute force (every pair within `d` reported, each distance within [`TOLERANCE`]).
fn within(
    scene: &Scene,
    prepared: &PreparedScene,
    precision: Precision,
    d: f64,
    check: bool,
    json: bool,
) -> Result<(), CliError> {
    if !(d >= 0.0 && d.is_finite()) {
        return Err(CliError::BadWithin { value: d });
    }
    let (answers, _) = match precision {
        Precision::F32 => run_within::<f32>(scene, prepared, d),
        Precision::F64 => run_within::<f64>(scene, prepared, d),
    }?;
    let (mut worst, mut missed) = (0.0f64, 0usize);
    let mut out = std::io::stdout().lock();
    for answer in &answers {
        let result = check.then(|| {
            let truth: std::collections::BTreeMap<_, _> =
                brute_force_within_frame(scene, answer.frame, d)
                    .into_iter()
                    .collect();
            let reported: std::collections::BTreeSet<_> =
                answer.items.iter().map(|c| c.pair).collect();
            let gone = truth.keys().filter(|p| !reported.contains(p)).count();
            let mut far = 0.0f64;
            for c in &answer.items {
                if let Some(t) = truth.get(&c.pair) {
                    far = far.max((t - c.distance).abs());
                }
            }
            (far, gone)
        });
        if let Some((far, gone)) = result {
            worst = worst.max(far);
            missed += gone;
        }
        writeln!(
            out,
            "{}",
            report::within_frame_line(scene, answer, d, result, json)
        )?;
    }
    if check && !json {
        writeln!(
            out,
            "brute force (f64): {missed} pair(s) within {d} missed; largest difference of a distance {worst:.2e}"
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
