//! `bdtree demo`: the chairs (or with `--scene` the bundled three-body scene against brute
//! force).

use std::io::Write;
use std::path::{Path, PathBuf};

use std::io::IsTerminal;

use bdtree_cli::sim::chairs::{pile_steps, Chair, ChairOptions, GroundContacts, StepReport};
use bdtree_cli::sim::demo::{self, Kept, Phase};
use bdtree_cli::view::demo::{collision_plot, heap_picture, picture};
use bdtree_std::build::{BuildOptions, Precision};
use bdtree_std::host::BroadPhase;

use crate::error::CliError;
use crate::options::progress_bar;

#[derive(clap::Args)]
pub struct Args {
    /// Chairs.
    #[arg(long, default_value_t = 100)]
    chairs: usize,
    /// Steps of 2 ms (default: 1000; with `--pile`, enough for the heap to form and settle).
    #[arg(long)]
    steps: Option<usize>,
    /// Drop the chairs from a hopper (a column of layers) into a heap, with contacts at
    /// depth 10, as in the paper's Figure 1, instead of two layers spread flat.
    #[arg(long)]
    pile: bool,
    /// Threads of the world's queries (0: one per core). The simulation is the same, bit for
    /// bit, whatever the count.
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// The broad phase over the chairs' root spheres (the answers do not depend on it).
    #[arg(long, value_enum, default_value_t = Broad::Auto)]
    broad_phase: Broad,
    /// Proxy depth of the contact queries (default: 7; with `--pile`, 10).
    #[arg(long)]
    depth: Option<u32>,
    /// Where to write the picture of the busiest step (.png or .svg); with `--pile`, the heap
    /// from the side at the last step.
    #[arg(short, long, default_value = "bdtree-demo.png")]
    output: PathBuf,
    /// Where to write the plot of the collision time per step, deformable and rigid (.png or
    /// .svg; default: beside the picture, its name with `-collision`).
    #[arg(long)]
    plot: Option<PathBuf>,
    /// Run `fixtures/scenes/demo.json` against the brute-force oracle instead.
    #[arg(long)]
    scene: bool,
    /// Also log the simulation to this Rerun recording (.rrd; needs a build with
    /// `--features rerun`).
    #[arg(long)]
    rerun: Option<PathBuf>,
    /// Log every this many steps to the Rerun recording.
    #[arg(long, default_value_t = 25)]
    rerun_every: usize,
    /// Write every step's figures to this CSV file as the run goes (step, simulated time,
    /// candidate and colliding chair pairs, chair–chair and ground proxy contacts, collision
    /// ms deformable and rigid, sphere overlap tests deformable and rigid).
    #[arg(long)]
    log: Option<PathBuf>,
    /// The ground plane's contacts: its contact proxies at the chair–chair proxy depth, or
    /// every exact triangle contact (several times slower).
    #[arg(long, value_enum, default_value_t = Ground::Proxies)]
    ground: Ground,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum Broad {
    /// The grid from 1000 chairs on, sweep-and-prune below.
    Auto,
    /// Sweep-and-prune along x.
    Sweep,
    /// The hashed uniform grid.
    Grid,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum Ground {
    Proxies,
    Triangles,
}

pub fn exec(args: Args) -> Result<(), CliError> {
    if args.scene {
        return scene();
    }
    let count = args.chairs;
    let mut options = if args.pile {
        ChairOptions::pile(count)
    } else {
        ChairOptions {
            count,
            ..ChairOptions::default()
        }
    };
    options.steps = args.steps.unwrap_or(if args.pile {
        pile_steps(count, options.dt)
    } else {
        1000
    });
    if let Some(depth) = args.depth {
        options.proxy_depth = depth;
    }
    options.threads = args.threads;
    options.broad = match args.broad_phase {
        Broad::Auto => BroadPhase::Auto,
        Broad::Sweep => BroadPhase::Sweep,
        Broad::Grid => BroadPhase::Grid,
    };
    options.ground_contacts = match args.ground {
        Ground::Proxies => GroundContacts::Proxies,
        Ground::Triangles => GroundContacts::Triangles,
    };
    if count < 2 || options.steps == 0 {
        return Err(demo::DemoError::TooSmall.into());
    }
    let banner = if args.pile {
        demo::pile_banner(count)
    } else {
        demo::banner(count)
    };
    writeln!(std::io::stdout(), "{banner}")?;
    let prepared = demo::prepare()?;
    writeln!(std::io::stdout(), "{prepared}")?;
    let run = {
        let steps = options.steps;
        let bar = progress_bar(
            steps,
            "  {prefix:10} {bar:30} {pos}/{len} steps ({elapsed}) {msg}",
            "",
        );
        if !std::io::stderr().is_terminal() {
            bar.set_draw_target(indicatif::ProgressDrawTarget::hidden());
        }
        let mut log = match &args.log {
            Some(path) => {
                let write = |error| CliError::Write {
                    path: path.clone(),
                    error,
                };
                let mut file = std::io::BufWriter::new(std::fs::File::create(path).map_err(write)?);
                writeln!(
                    file,
                    "step,t_s,candidates,colliding_pairs,contacts,ground_contacts,deformable_ms,rigid_ms,overlap_tests_deformable,overlap_tests_rigid"
                )
                .map_err(write)?;
                Some(file)
            }
            None => None,
        };
        let mut written: std::io::Result<()> = Ok(());
        let (mut last, mut simulated) = (None, StepReport::default());
        let keep_every = if args.rerun.is_some() {
            args.rerun_every.max(1)
        } else {
            0
        };
        let run = demo::run_keeping(
            &prepared.chair,
            &options,
            keep_every,
            &mut |phase, step, report| {
                if last != Some(phase) && phase == Phase::Checking {
                    bar.set_prefix("checking");
                }
                last = Some(phase);
                match phase {
                    Phase::Simulating => simulated = *report,
                    Phase::Rigid => {
                        bar.set_prefix("simulating");
                        bar.set_position(step as u64 + 1);
                        bar.set_message(format!(
                        "t = {:.3} s, {} proxy contacts, collision {:.1} ms deformable, {:.1} ms rigid",
                        (step + 1) as f64 * options.dt,
                        simulated.contacts,
                        simulated.seconds * 1e3,
                        report.seconds * 1e3
                    ));
                        if let (Some(file), Ok(())) = (&mut log, &written) {
                            let d = &simulated;
                            written = writeln!(
                                file,
                                "{step},{:.3},{},{},{},{},{:.3},{:.3},{},{}",
                                step as f64 * options.dt,
                                d.candidates,
                                d.colliding_pairs,
                                d.contacts,
                                d.ground_contacts,
                                d.seconds * 1e3,
                                report.seconds * 1e3,
                                d.overlap_tests,
                                report.overlap_tests
                            )
                            .and_then(|()| file.flush());
                        }
                    }
                    Phase::Checking => {}
                }
            },
        );
        bar.finish_and_clear();
        if let (Err(error), Some(path)) = (written, &args.log) {
            return Err(CliError::Write {
                path: path.clone(),
                error,
            });
        }
        run?
    };
    writeln!(std::io::stdout(), "{run}")?;
    if let Some(path) = &args.rerun {
        log_rerun(&prepared.chair, &run.kept, path)?;
        writeln!(
            std::io::stdout(),
            "  Rerun recording: {} (open with `rerun {}`)",
            path.display(),
            path.display()
        )?;
    }
    writeln!(std::io::stdout(), "{}", run.resting()?)?;
    if args.pile {
        heap_picture(&prepared.chair, &run, &run.last, &args.output)?;
        writeln!(
            std::io::stdout(),
            "  picture (the heap from the side): {}",
            args.output.display()
        )?;
    } else {
        picture(&prepared.chair, &run, &args.output)?;
        writeln!(std::io::stdout(), "  picture: {}", args.output.display())?;
    }
    let plot = args.plot.clone().unwrap_or_else(|| {
        let stem = args.output.file_stem().map_or_else(
            || "bdtree-demo".to_string(),
            |s| s.to_string_lossy().into_owned(),
        );
        let ext = args
            .output
            .extension()
            .map_or_else(|| "png".to_string(), |e| e.to_string_lossy().into_owned());
        args.output
            .with_file_name(format!("{stem}-collision.{ext}"))
    });
    collision_plot(&run, &plot)?;
    writeln!(
        std::io::stdout(),
        "  collision time per step (plot): {}",
        plot.display()
    )?;
    Ok(())
}

/// `--scene`: the bundled scene through `collide --check`, 20 runs.
fn scene() -> Result<(), CliError> {
    let scene = demo::scene_path();
    writeln!(std::io::stdout(), "bdtree demo: {}", scene.display())?;
    let options = BuildOptions {
        precision: Precision::F32,
        ..BuildOptions::default()
    };
    let frames = crate::collide::collide(
        &scene,
        false,
        options,
        20,
        true,
        false,
        bdtree_std::host::PairBound::Spheres,
    )?;
    writeln!(
        std::io::stdout(),
        "all {frames} frames agree with the f64 brute-force oracle (no missed contacts)"
    )?;
    Ok(())
}

#[cfg(feature = "rerun")]
fn log_rerun(chair: &Chair, steps: &[Kept], path: &Path) -> Result<(), CliError> {
    bdtree_cli::view::rerun::log_chairs(chair, steps, path).map_err(CliError::Rerun)
}

#[cfg(not(feature = "rerun"))]
fn log_rerun(_: &Chair, _: &[Kept], path: &Path) -> Result<(), CliError> {
    Err(CliError::NoRerun {
        path: path.to_path_buf(),
    })
}
