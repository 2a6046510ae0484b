//! The contacts family (the kernel's and the host's `contacts`): `bdtree collide --contacts`,
//! point, normal and depth of every pair (`--stiffness K`: with penalty wrenches), and
//! `bdtree distance --within D`, every triangle pair at most D apart; `--check` compares with
//! the f64 brute force.

use std::collections::BTreeSet;
use std::io::Write;
use std::path::Path;

use bdtree_cli::report;
use bdtree_std::build::{BuildOptions, Precision};
use bdtree_std::io::Scene;
use bdtree_std::runner::{
    brute_force_frame, brute_force_within_frame, compare, point_triangle_distance, primitive_solid,
    run_contact_forces, run_contacts, run_within, PreparedScene,
};

use crate::error::CliError;
use crate::options::{load_and_prepare, DISTANCE_TOLERANCE};

/// How far a contact point may lie from its triangles under `--check` (in the scene's units;
/// the kernel's documented tolerance is a few δ, ~1e-4 of the coordinates in f32).
const POINT_TOLERANCE: f64 = 1e-3;

/// What `--contacts` adds: `--check`, `--stiffness K`.
pub struct What {
    pub check: bool,
    pub stiffness: Option<f64>,
}

/// `--contacts`: every intersecting pair with its contact; with `check`, the pairs against the
/// brute force and each point's distance from its two triangles; with a stiffness, every
/// body's wrench per frame.
pub fn contacts(
    path: &Path,
    json: bool,
    options: BuildOptions,
    What { check, stiffness }: What,
) -> Result<(), CliError> {
    let (scene, prepared) = load_and_prepare(path, options, None)?;
    let (answers, wrenches, ms) = match (options.precision, stiffness) {
        (Precision::F32, Some(k)) => run_contact_forces::<f32>(&scene, &prepared, k),
        (Precision::F64, Some(k)) => run_contact_forces::<f64>(&scene, &prepared, k),
        (Precision::F32, None) => {
            run_contacts::<f32>(&scene, &prepared).map(|(a, ms)| (a, Vec::new(), ms))
        }
        (Precision::F64, None) => {
            run_contacts::<f64>(&scene, &prepared).map(|(a, ms)| (a, Vec::new(), ms))
        }
    }?;
    let (mut missed, mut farthest) = (0usize, 0.0f64);
    let mut out = std::io::stdout().lock();
    for answer in &answers {
        let comparison = check.then(|| {
            let truth = brute_force_frame(&scene, answer.frame);
            let c = compare(&scene, answer.frame, &answer.result.pairs, &truth);
            missed += c.missed.len();
            let truth: BTreeSet<_> = truth.into_iter().collect();
            let world: Vec<Vec<[f64; 3]>> = (0..scene.bodies.len())
                .map(|b| scene.world_vertices(answer.frame, b).unwrap_or_default())
                .collect();
            for item in answer.items.iter().filter(|i| truth.contains(&i.pair)) {
                let (a, b, ta, tb) = item.pair;
                let tri = |body: usize, t: u32| {
                    scene.bodies[body].mesh.triangles[t as usize].map(|v| world[body][v as usize])
                };
                let on_b = match b.checked_sub(scene.bodies.len()) {
                    // A primitive's side: the point's distance from the solid.
                    Some(p) => {
                        primitive_solid(&scene, p, answer.frame).map_or(f64::INFINITY, |s| {
                            let point = item.point;
                            s.gap(&[point, point, point])
                        })
                    }
                    None => point_triangle_distance(item.point, &tri(b, tb)),
                };
                let on_a = point_triangle_distance(item.point, &tri(a, ta));
                farthest = farthest.max(on_a).max(on_b);
            }
            c
        });
        let forces = wrenches.get(answer.frame).map(Vec::as_slice);
        let line = if json {
            report::contacts_frame_json(&scene, answer, forces, ms, comparison.as_ref())
        } else {
            let deepest = answer
                .items
                .iter()
                .map(|c| c.depth)
                .fold(f64::NAN, f64::max);
            format!(
                "{} (deepest {deepest:.6})",
                report::collide_frame_text(
                    &scene,
                    answer.frame,
                    &answer.result,
                    comparison.as_ref()
                )
            )
        };
        writeln!(out, "{line}")?;
        for (b, w) in forces.unwrap_or_default().iter().enumerate() {
            if !json && w.force.iter().any(|&x| x != 0.0) {
                let f = |v: &[f64]| {
                    let parts: Vec<String> = v.iter().map(|x| format!("{x:.4e}")).collect();
                    format!("({})", parts.join(", "))
                };
                writeln!(
                    out,
                    "  {}: force {}, torque {}, q-force {}",
                    scene.name(b),
                    f(&w.force),
                    f(&w.torque),
                    f(&w.q)
                )?;
            }
        }
    }
    if check && !json {
        writeln!(
            out,
            "brute force (f64): {missed} missed; contact points at most {farthest:.2e} from \
             their triangles"
        )?;
    }
    if missed > 0 {
        return Err(CliError::Missed { count: missed });
    }
    if farthest > POINT_TOLERANCE {
        return Err(CliError::Distances { worst: farthest });
    }
    Ok(())
}

/// `bdtree distance --within D`: every triangle pair at most `d` apart per frame; with `check`, against the
/// brute force (every pair within `d` reported, each distance within [`DISTANCE_TOLERANCE`]).
pub fn within(
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
    if worst > DISTANCE_TOLERANCE {
        return Err(CliError::Distances { worst });
    }
    Ok(())
}
