//! `bdtree collide --swept`: the pairs of the motion between consecutive frames, run as ticks
//! with each pair's front carried (`--from-root`: each motion from the root); `--check`
//! compares them with a dense sampling of the motion (the f64 brute force at each sample).

use std::io::Write;
use std::path::Path;

use bdtree_cli::report;
use bdtree_core::Scalar;
use bdtree_std::build::{BuildOptions, Precision};
use bdtree_std::io::Scene;
use bdtree_std::runner::{
    run, run_swept, run_swept_front, substeps, Comparison, FrameAnswer, FrontSummary,
    PreparedScene, RunError, SweptContact,
};

use crate::error::CliError;
use crate::options::load_and_prepare;

/// How `--swept` runs and times itself: ticks with fronts carried or each motion from the root,
/// the median of `repeat` runs, and with `substeps` the static query at that many instants of
/// each motion beside it.
pub struct Timing {
    pub repeat: usize,
    pub substeps: Option<usize>,
    pub from_root: bool,
}

/// One run of the scene's motions: the answers, the mean time per motion, and what the fronts
/// did (`None` from the root).
#[allow(clippy::type_complexity)]
fn once<S: Scalar>(
    scene: &Scene,
    prepared: &PreparedScene,
    from_root: bool,
) -> Result<(Vec<FrameAnswer<SweptContact>>, f64, Option<FrontSummary>), RunError> {
    if from_root {
        let (answers, ms) = run_swept::<S>(scene, prepared)?;
        return Ok((answers, ms, None));
    }
    let (answers, ms, summary) = run_swept_front::<S>(scene, prepared)?;
    Ok((answers, ms, Some(summary)))
}

fn median(mut x: Vec<f64>) -> f64 {
    x.sort_by(f64::total_cmp);
    x.get(x.len() / 2).copied().unwrap_or(0.0)
}

/// The swept answers with the median time per motion, what the fronts did, and the median
/// time per motion of the static query at `substeps` instants of each.
#[allow(clippy::type_complexity)]
fn timed<S: Scalar>(
    scene: &Scene,
    prepared: &PreparedScene,
    timing: &Timing,
) -> Result<
    (
        Vec<FrameAnswer<SweptContact>>,
        f64,
        Option<FrontSummary>,
        Option<f64>,
    ),
    RunError,
> {
    let (answers, first, fronts) = once::<S>(scene, prepared, timing.from_root)?;
    let mut times = vec![first];
    for _ in 1..timing.repeat.max(1) {
        times.push(once::<S>(scene, prepared, timing.from_root)?.1);
    }
    let sub = match timing.substeps {
        Some(n) => {
            let stepped = substeps(scene, n);
            let mut per_motion = Vec::new();
            for _ in 0..timing.repeat.max(1) {
                per_motion.push(run::<S>(&stepped, prepared, 1)?.1 * n.max(1) as f64);
            }
            Some(median(per_motion))
        }
        None => None,
    };
    Ok((answers, median(times), fronts, sub))
}

/// `--swept`: for every frame `f ≥ 1` the pairs of the motion from frame `f − 1`; with
/// `check`, every pair `samples` evenly spaced times of the motion find must be reported.
pub fn swept(
    path: &Path,
    json: bool,
    options: BuildOptions,
    (check, samples): (bool, usize),
    timing: Timing,
) -> Result<(), CliError> {
    let (scene, prepared) = load_and_prepare(path, options, Some("`bdtree collide --swept`"))?;
    let (answers, ms, fronts, sub) = match options.precision {
        Precision::F32 => timed::<f32>(&scene, &prepared, &timing),
        Precision::F64 => timed::<f64>(&scene, &prepared, &timing),
    }?;
    let (mut missed, mut sampled, mut reported, mut early) = (0usize, 0usize, 0usize, 0usize);
    let mut out = std::io::stdout().lock();
    for answer in &answers {
        reported += answer.items.len();
        let comparison = check.then(|| {
            let truth = bdtree_std::runner::sampled_swept_frame(&scene, answer.frame, samples);
            sampled += truth.len();
            let reported: std::collections::BTreeMap<_, _> =
                answer.items.iter().map(|c| (c.pair, c.time)).collect();
            // A pair reported with an earliest time after a sample that finds it is wrong too.
            early += truth
                .iter()
                .filter(|(p, &t)| reported.get(p).is_some_and(|&r| r > t))
                .count();
            let truth: Vec<_> = truth.into_keys().collect();
            Comparison {
                missed: truth
                    .iter()
                    .filter(|p| !reported.contains_key(p))
                    .copied()
                    .collect(),
                extra: Vec::new(),
            }
        });
        if let Some(c) = &comparison {
            missed += c.missed.len();
        }
        let line = if json {
            report::swept_frame_json(&scene, answer, ms, comparison.as_ref())
        } else {
            let first = answer.items.iter().map(|c| c.time).reduce(f64::min);
            format!(
                "{} (motion from frame {}{})",
                report::collide_frame_text(&scene, answer.frame, &answer.result, None),
                answer.frame - 1,
                first.map_or(String::new(), |t| format!("; earliest time {t:.4}"))
            ) + &comparison.map_or(String::new(), |c| {
                format!("  | sampling: {} missed", c.missed.len())
            })
        };
        writeln!(out, "{line}")?;
    }
    if !json {
        writeln!(
            out,
            "{} motions, {reported} swept pairs in all; {ms:.4} ms per motion",
            answers.len()
        )?;
        match fronts {
            Some(f) => writeln!(
                out,
                "run as ticks, each body pair's front carried from the motion before \
                 (`--from-root` walks each from the root): {} front entries skipped on their \
                 margins, {} walked again, at most {} entries in a pair's front{}",
                f.certified,
                f.retested,
                f.largest,
                if f.overflows > 0 {
                    format!(", {} fronts outgrew their storage", f.overflows)
                } else {
                    String::new()
                }
            )?,
            None => writeln!(out, "each motion walked from the root (`--from-root`)")?,
        }
        if let (Some(n), Some(sub)) = (timing.substeps, sub) {
            writeln!(
                out,
                "static query at {n} instants of each motion: {sub:.4} ms per motion; \
                 swept / sub-stepped {:.2}",
                ms / sub
            )?;
        }
        if check {
            writeln!(
                out,
                "dense sampling (f64, {} times per motion): {sampled} pairs, {missed} missed, \
                 {early} reported later than a sample finds them; reported / sampled {:.2}",
                samples.max(1) + 1,
                reported as f64 / sampled.max(1) as f64
            )?;
        }
    }
    if missed + early > 0 {
        return Err(CliError::Missed {
            count: missed + early,
        });
    }
    Ok(())
}
