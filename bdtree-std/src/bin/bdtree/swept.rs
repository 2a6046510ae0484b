//! `bdtree collide --swept`: the pairs of the motion between consecutive frames; `--check`
//! compares them with a dense sampling of the motion (the f64 brute force at each sample).

use std::io::Write;
use std::path::Path;

use bdtree_std::build::{BuildOptions, Precision};
use bdtree_std::run::{report, run_swept, Comparison};

use crate::error::CliError;
use crate::options::load_and_prepare;

/// `--swept`: for every frame `f ≥ 1` the pairs of the motion from frame `f − 1`; with
/// `check`, every pair `samples` evenly spaced times of the motion find must be reported.
pub fn swept(
    path: &Path,
    json: bool,
    options: BuildOptions,
    check: bool,
    samples: usize,
) -> Result<(), CliError> {
    let (scene, prepared) = load_and_prepare(path, options, Some("`bdtree collide --swept`"))?;
    let (answers, ms) = match options.precision {
        Precision::F32 => run_swept::<f32>(&scene, &prepared),
        Precision::F64 => run_swept::<f64>(&scene, &prepared),
    }?;
    let (mut missed, mut sampled, mut reported, mut early) = (0usize, 0usize, 0usize, 0usize);
    let mut out = std::io::stdout().lock();
    for answer in &answers {
        reported += answer.items.len();
        let comparison = check.then(|| {
            let truth = bdtree_std::run::sampled_swept_frame(&scene, answer.frame, samples);
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
        let _ = writeln!(out, "{line}");
    }
    if !json {
        let _ = writeln!(
            out,
            "{} motions, {reported} swept pairs in all; {ms:.4} ms per motion",
            answers.len()
        );
        if check {
            let _ = writeln!(
                out,
                "dense sampling (f64, {} times per motion): {sampled} pairs, {missed} missed, \
                 {early} reported later than a sample finds them",
                samples.max(1) + 1
            );
        }
    }
    if missed + early > 0 {
        return Err(CliError::Missed {
            count: missed + early,
        });
    }
    Ok(())
}
