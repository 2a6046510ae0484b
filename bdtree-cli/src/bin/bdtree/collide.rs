//! `bdtree collide`: every intersecting triangle pair per frame, or with `--depth` the
//! overlapping contact proxies; `--check` compares with the f64 brute force.

use std::io::Write;
use std::path::{Path, PathBuf};

use bdtree_cli::report;
use bdtree_core::Scalar;
use bdtree_std::build::{BuildOptions, Precision};
use bdtree_std::host::PairBound;
use bdtree_std::runner::{
    brute_force_frame, brute_force_frame_with, compare, run_bounded, run_with, uncovered_contacts,
    uncovered_primitive_contacts,
};

use crate::error::CliError;
use crate::options::{load_and_prepare, BoundsArgs};

#[derive(clap::Args)]
pub struct Args {
    /// The scene (JSON).
    scene: PathBuf,
    /// One JSON object per frame, one per line.
    #[arg(long)]
    json: bool,
    /// Arithmetic of the kernel.
    #[arg(long, value_enum, default_value_t = Precision::F32)]
    precision: Precision,
    /// Run the frames this many times and report the mean time per frame.
    #[arg(long, default_value_t = 1)]
    repeat: usize,
    /// Also compute the f64 brute-force answer and compare (slow on large meshes). With
    /// `--depth`: check that every brute-force contact lies under a reported proxy pair (a
    /// triangle touching a primitive under a reported proxy of its body).
    #[arg(long)]
    check: bool,
    /// Bounded-depth query: report the overlapping contact proxies (nodes at this depth,
    /// or shallower leaves; the root has depth 0) with their world spheres and
    /// penetration depths instead of triangle pairs, and each body's proxies reaching into
    /// the scene's primitive bodies. Builds the trees nested.
    #[arg(long, value_name = "L")]
    depth: Option<u32>,
    /// Also report each body's self-collisions (non-adjacent triangle pairs of one body),
    /// as `["a", "a", ti, tj]` with ti < tj.
    #[arg(long = "self")]
    self_pairs: bool,
    /// Swept query: for every frame i ≥ 1, the pairs that may touch at some time of the motion
    /// from frame i − 1 to frame i (q and translation linear, rotation by slerp on the shorter
    /// arc), each with a conservative earliest time of impact. The frames run as a
    /// controller's ticks: each body pair's front is carried from one motion to the next, so a
    /// motion walks only where margins ran out (`--from-root` walks each from the root).
    /// `--check` compares with dense sampling of the motion (f64 brute force at `--samples` + 1
    /// times).
    #[arg(long, conflicts_with_all = ["depth", "self_pairs", "contacts"])]
    swept: bool,
    /// With `--swept`: walk every motion from the root, with no front carried across frames
    /// (the same pairs may touch; for frames that are not consecutive ticks of one motion).
    #[arg(long, requires = "swept")]
    from_root: bool,
    /// Times `--swept --check` samples each motion at, besides its start.
    #[arg(long, default_value_t = 100, requires = "swept")]
    samples: usize,
    /// With `--swept`: also time the user's alternative, the static query at this many evenly
    /// spaced instants of each motion (sub-stepping: not conservative), and print both costs
    /// per motion (medians of `--repeat` runs).
    #[arg(long, value_name = "N", requires = "swept")]
    substeps: Option<usize>,
    /// Add each pair's contact: a point of the intersection, the unit normal from the first
    /// body's triangle to the second's, and the penetration depth.
    #[arg(long, conflicts_with_all = ["depth", "self_pairs"])]
    contacts: bool,
    /// With `--contacts`: the penalty response of every contact between bodies (`K · depth`
    /// along its normal, at its point, on its triangles) and each body's wrench per frame —
    /// force, torque about its translation, generalized force on its `q`.
    #[arg(long, value_name = "K", requires = "contacts")]
    stiffness: Option<f64>,
    /// The node bound the triangle-pair query prunes with: the tree's spheres, or oriented
    /// boxes tested on 15 or 6 separating axes (the box variant of the BD-Tree). The pairs are
    /// the same; the work differs. Body pairs only: self pairs and primitives use spheres.
    #[arg(long = "bounds", value_enum, default_value_t = Bounds::Spheres, conflicts_with_all = ["depth", "swept", "contacts"])]
    node_bounds: Bounds,
    #[command(flatten)]
    bounds: BoundsArgs,
}

/// `--bounds`: the node bound of the triangle-pair query.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Bounds {
    /// The tree's spheres.
    Spheres,
    /// Oriented boxes, all 15 separating axes.
    Boxes15,
    /// Oriented boxes, the 6 face axes only (cheaper test, looser).
    Boxes6,
}

impl Bounds {
    fn host(self) -> PairBound {
        match self {
            Bounds::Spheres => PairBound::Spheres,
            Bounds::Boxes15 => PairBound::Boxes15,
            Bounds::Boxes6 => PairBound::Boxes6,
        }
    }
}

pub fn exec(args: Args) -> Result<(), CliError> {
    let options = args.bounds.options(args.precision);
    if args.swept {
        let timing = crate::swept::Timing {
            repeat: args.repeat,
            substeps: args.substeps,
            from_root: args.from_root,
        };
        return crate::swept::swept(
            &args.scene,
            args.json,
            options,
            (args.check, args.samples),
            timing,
        );
    }
    if args.contacts {
        let what = crate::contacts::What {
            check: args.check,
            stiffness: args.stiffness,
        };
        return crate::contacts::contacts(&args.scene, args.json, options, what);
    }
    match args.depth {
        Some(depth) => proxies(
            &args.scene,
            args.json,
            options,
            args.repeat,
            args.check,
            depth,
        ),
        None => collide(
            &args.scene,
            args.json,
            options,
            args.repeat,
            args.check,
            args.self_pairs,
            args.node_bounds.host(),
        )
        .map(|_| ()),
    }
}

/// Every intersecting pair per frame; returns the frame count.
pub fn collide(
    path: &Path,
    json: bool,
    options: BuildOptions,
    repeat: usize,
    check: bool,
    self_pairs: bool,
    bound: PairBound,
) -> Result<usize, CliError> {
    // A body asked for its self pairs gets the culling data in its image, and is answered
    // from it as a device would be (`bdtree_core::collide_self_image`).
    let options = BuildOptions {
        self_cull: options.self_cull || self_pairs,
        ..options
    };
    let (scene, prepared) = load_and_prepare(path, options, None)?;
    let precision = options.precision;
    let (frames, ms) = match (precision, bound) {
        (Precision::F32, PairBound::Spheres) => {
            run_with::<f32>(&scene, &prepared, repeat, None, self_pairs)
        }
        (Precision::F64, PairBound::Spheres) => {
            run_with::<f64>(&scene, &prepared, repeat, None, self_pairs)
        }
        (Precision::F32, _) => run_bounded::<f32>(&scene, &prepared, repeat, bound, self_pairs),
        (Precision::F64, _) => run_bounded::<f64>(&scene, &prepared, repeat, bound, self_pairs),
    }?;
    let mut problems = 0;
    let (mut extra, mut max_gap, mut oracle_pairs) = (0usize, 0.0f64, 0usize);
    let mut out = std::io::stdout().lock();
    for (f, frame) in frames.iter().enumerate() {
        let comparison = check.then(|| {
            let truth = brute_force_frame_with(&scene, f, self_pairs);
            oracle_pairs += truth.len();
            compare(&scene, f, &frame.pairs, &truth)
        });
        if let Some(c) = &comparison {
            problems += c.missed.len();
            extra += c.extra.len();
            max_gap = c.extra.iter().map(|e| e.1).fold(max_gap, f64::max);
        }
        let line = if json {
            report::collide_frame_json(&scene, f, frame, ms, comparison.as_ref())
        } else {
            report::collide_frame_text(&scene, f, frame, comparison.as_ref())
        };
        writeln!(out, "{line}")?;
    }
    if !json {
        let total: usize = frames.iter().map(|f| f.pairs.len()).sum();
        writeln!(
            out,
            "{} frames, {} bodies, {} contacts in all; {:.4} ms per frame ({} precision, mean of {} run(s))",
            frames.len(),
            scene.bodies.len() + scene.primitives.len(),
            total,
            ms,
            match precision {
                Precision::F32 => f32::NAME,
                Precision::F64 => f64::NAME,
            },
            repeat.max(1)
        )?;
    }
    if check && !json {
        writeln!(
            out,
            "brute force (f64, every triangle pair): {oracle_pairs} pairs, {problems} missed; \
             {extra} extra near-touching pair(s) within the rounding inflation (largest gap {max_gap:.1e})"
        )?;
    }
    if problems > 0 {
        return Err(CliError::Missed { count: problems });
    }
    Ok(frames.len())
}

/// `--depth L`: the overlapping proxy pairs per frame.
fn proxies(
    path: &Path,
    json: bool,
    options: BuildOptions,
    repeat: usize,
    check: bool,
    depth: u32,
) -> Result<(), CliError> {
    let options = BuildOptions {
        nested: true,
        ..options
    };
    let (scene, prepared) = load_and_prepare(path, options, None)?;
    let (frames, ms) = match options.precision {
        Precision::F32 => run_with::<f32>(&scene, &prepared, repeat, Some(depth), false),
        Precision::F64 => run_with::<f64>(&scene, &prepared, repeat, Some(depth), false),
    }?;
    let (mut contacts, mut uncovered) = (0usize, 0usize);
    let mut out = std::io::stdout().lock();
    for (f, frame) in frames.iter().enumerate() {
        let missed = if check {
            let truth = brute_force_frame(&scene, f);
            contacts += truth.len();
            let missed = uncovered_contacts(&prepared, depth, &frame.proxies, &truth)?.len()
                + uncovered_primitive_contacts(&prepared, depth, &frame.primitive_proxies, &truth)?
                    .len();
            uncovered += missed;
            Some(missed)
        } else {
            None
        };
        let line = if json {
            report::proxy_frame_json(&scene, f, depth, frame, ms, missed)
        } else {
            report::proxy_frame_text(f, frame, missed)
        };
        writeln!(out, "{line}")?;
    }
    if !json {
        let total: usize = frames.iter().map(|f| f.proxies.len()).sum();
        let grounded: usize = frames.iter().map(|f| f.primitive_proxies.len()).sum();
        let grounded = if scene.primitives.is_empty() {
            String::new()
        } else {
            format!(" and {grounded} proxies reaching into primitives")
        };
        writeln!(
            out,
            "{} frames, {} bodies, {total} proxy pairs at depth {depth} in all{grounded}; {ms:.4} ms per frame (mean of {} run(s))",
            frames.len(),
            scene.bodies.len() + scene.primitives.len(),
            repeat.max(1)
        )?;
        if check {
            writeln!(
                out,
                "brute force (f64): {contacts} contacts, {uncovered} not under a reported proxy pair"
            )?;
        }
    }
    if uncovered > 0 {
        return Err(CliError::Uncovered { count: uncovered });
    }
    Ok(())
}
