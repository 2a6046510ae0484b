//! `bdtree demo`: the chairs (or with `--scene` the bundled three-body scene against brute
//! force).

use std::io::Write;
use std::path::{Path, PathBuf};

use bdtree_cli::sim::chairs::{Chair, GroundContacts, Trajectory};
use bdtree_cli::sim::demo;
use bdtree_cli::view::demo::picture;
use bdtree_std::build::{BuildOptions, Precision};

use crate::error::CliError;
use crate::options::progress_bar;

#[derive(clap::Args)]
pub struct Args {
    /// Chairs.
    #[arg(long, default_value_t = 100)]
    chairs: usize,
    /// Steps of 2 ms.
    #[arg(long, default_value_t = 1000)]
    steps: usize,
    /// Where to write the picture of the busiest step (.png or .svg).
    #[arg(short, long, default_value = "bdtree-demo.png")]
    output: PathBuf,
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
    /// The ground plane's contacts: its contact proxies at the chair–chair proxy depth, or
    /// every exact triangle contact (several times slower).
    #[arg(long, value_enum, default_value_t = Ground::Proxies)]
    ground: Ground,
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
    let (count, steps) = (args.chairs, args.steps);
    if count < 2 || steps == 0 {
        return Err(demo::DemoError::TooSmall.into());
    }
    writeln!(std::io::stdout(), "{}", demo::banner(count))?;
    let prepared = demo::prepare()?;
    writeln!(std::io::stdout(), "{prepared}")?;
    let bar = progress_bar(
        steps,
        "  simulating {bar:40} {pos}/{len} steps ({elapsed})",
        "",
    );
    let ground = match args.ground {
        Ground::Proxies => GroundContacts::Proxies,
        Ground::Triangles => GroundContacts::Triangles,
    };
    let run = demo::run_with_ground(&prepared.chair, count, steps, ground, &mut |_| bar.inc(1));
    bar.finish_and_clear();
    let run = run?;
    writeln!(std::io::stdout(), "{run}")?;
    if let Some(path) = &args.rerun {
        log_rerun(&prepared.chair, &run.trajectory, args.rerun_every, path)?;
        writeln!(
            std::io::stdout(),
            "  Rerun recording: {} (open with `rerun {}`)",
            path.display(),
            path.display()
        )?;
    }
    writeln!(std::io::stdout(), "{}", run.resting()?)?;
    picture(&prepared.chair, &run, &args.output)?;
    writeln!(std::io::stdout(), "  picture: {}", args.output.display())?;
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
fn log_rerun(
    chair: &Chair,
    trajectory: &Trajectory,
    every: usize,
    path: &Path,
) -> Result<(), CliError> {
    bdtree_cli::view::rerun::log_chairs(chair, trajectory, every, path).map_err(CliError::Rerun)
}

#[cfg(not(feature = "rerun"))]
fn log_rerun(_: &Chair, _: &Trajectory, _: usize, path: &Path) -> Result<(), CliError> {
    Err(CliError::NoRerun {
        path: path.to_path_buf(),
    })
}
