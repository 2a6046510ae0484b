//! The demo behind `bdtree demo`: flexing chairs dropped on the ground (the BD-Tree paper's
//! experiment, small), from the bundled chair mesh, with the collision cost per step against
//! the same placements rigid, and two checks at the busiest step (the step with the most proxy
//! contacts): the **proxy check** ([`super::check`]), the simulation's chair–chair proxy
//! contacts against a brute force over every proxy pair of every chair pair whose root spheres
//! overlap, and the **exact check**, the kernel's triangle query on the step's closest chair
//! pairs against the f64 brute force on the explicitly deformed meshes (the chairs touch
//! through their proxies, so this one often finds no intersecting pair to compare).
//!
//! [`prepare`] loads and analyses the chair, [`run`] simulates, replays and checks; their
//! `Display` is the demo's printed summary. The picture of the busiest step is drawn by
//! `crate::view::demo` (feature `pictures`).

use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Instant;

use super::chairs::{
    prepare_chair, replay, simulate, world_vertices, Chair, ChairOptions, GroundContacts,
    Placement, Replay, SimError, Trajectory,
};
use bdtree_std::error::LoadError;
use bdtree_std::host::{self, Body, HostError, Tree};
use bdtree_std::io::load_mesh;
use bdtree_std::oracle::brute_force_pairs;

use super::check::{proxy_check, CheckError, ProxyCheck};

/// The bundled chair mesh (`fixtures/meshes/chair.obj`).
pub fn chair_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/meshes/chair.obj")
}

/// The bundled three-body scene of `bdtree demo --scene` (`fixtures/scenes/demo.json`).
pub fn scene_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/scenes/demo.json")
}

/// Why the demo failed.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum DemoError {
    /// Fewer than 2 chairs or no step asked for.
    TooSmall,
    /// The chair mesh could not be read.
    Load(LoadError),
    /// The chair could not be prepared (modal analysis, build).
    Chair {
        /// The chair mesh.
        path: PathBuf,
        /// The problem.
        error: SimError,
    },
    /// The simulation or a replay failed.
    Sim(SimError),
    /// The simulation recorded no step.
    NoStep,
    /// The host layer refused a chair's state or the query failed.
    Host(HostError),
    /// The proxy check failed (a missed or far extra contact, a sphere not containing its
    /// triangles).
    Check(CheckError),
    /// The simulation's count of proxy contacts differs from the contacts it recorded.
    Recorded {
        /// The step.
        step: usize,
        /// Counted.
        counted: usize,
        /// Recorded.
        recorded: usize,
    },
    /// The exact query missed a triangle pair the brute force found: a bug.
    Missed {
        /// The chairs.
        chairs: (usize, usize),
        /// The triangle pair.
        pair: (u32, u32),
    },
}

impl fmt::Display for DemoError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::TooSmall => write!(f, "demo: needs at least 2 chairs and 1 step"),
            Self::Load(e) => e.fmt(f),
            Self::Chair { path, error } => write!(f, "{}: {error}", path.display()),
            Self::Sim(e) => e.fmt(f),
            Self::Host(e) => e.fmt(f),
            Self::NoStep => write!(f, "demo: no step"),
            Self::Missed {
                chairs: (i, j),
                pair,
            } => write!(
                f,
                "demo: chairs {i}, {j}: the exact query missed triangle pair {pair:?}"
            ),
            Self::Check(e) => write!(f, "demo check failed: {e}"),
            Self::Recorded {
                step,
                counted,
                recorded,
            } => write!(
                f,
                "demo check failed: step {step} counted {counted} proxy contacts and recorded \
                 {recorded}"
            ),
        }
    }
}

impl std::error::Error for DemoError {}

/// The demo's chair, loaded and analysed.
pub struct DemoChair {
    /// The mesh file.
    pub path: PathBuf,
    /// The chair: mesh, modes, image, mass properties.
    pub chair: Chair,
    /// Seconds for the modal analysis and the build.
    pub seconds: f64,
}

/// Loads the bundled chair, computes its modes and builds its tree.
pub fn prepare() -> Result<DemoChair, DemoError> {
    let path = chair_path();
    let started = Instant::now();
    let mesh = load_mesh(&path).map_err(DemoError::Load)?;
    let chair = prepare_chair(mesh).map_err(|error| DemoError::Chair {
        path: path.clone(),
        error,
    })?;
    Ok(DemoChair {
        path,
        chair,
        seconds: started.elapsed().as_secs_f64(),
    })
}

impl fmt::Display for DemoChair {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let chair = &self.chair;
        write!(
            f,
            "  chair: {} ({} triangles, {:.1} kg), {} vibration modes {:.1}–{:.1} Hz, tree depth {}, image {} KB (modal analysis and build {:.1} s)",
            self.path.display(),
            chair.mesh.triangles.len(),
            chair.mass,
            chair.omega.len(),
            chair.frequencies_hz.first().copied().unwrap_or(0.0),
            chair.frequencies_hz.last().copied().unwrap_or(0.0),
            chair.depth,
            chair.image.as_bytes().len() / 1024,
            self.seconds
        )
    }
}

/// The first line the demo prints.
pub fn banner(count: usize) -> String {
    format!(
        "bdtree demo: {count} flexing chairs dropped on the ground (the BD-Tree paper's experiment, small)"
    )
}

/// What [`exact_check`] found.
#[derive(Debug, Clone, PartialEq)]
pub struct ExactCheck {
    /// Chair pairs checked.
    pub pairs: usize,
    /// Intersecting triangle pairs (brute force).
    pub truth: usize,
    /// Pairs the kernel reported beyond the brute force (within rounding).
    pub extra: usize,
    /// Per chair, the triangles in contact.
    pub contact_triangles: Vec<Vec<u32>>,
}

/// Runs the exact f32 query on up to 8 chair pairs whose root spheres overlap most in
/// `placements` and compares each with the f64 brute force on the explicitly deformed meshes
/// (`worlds`); a missed pair is an error.
pub fn exact_check(
    chair: &Chair,
    placements: &[Placement],
    worlds: &[Vec<[f64; 3]>],
) -> Result<ExactCheck, DemoError> {
    let tree = Tree::new(chair.image.clone()).map_err(DemoError::Host)?;
    let reach = 2.0 * tree.radius();
    let mut close: Vec<(f64, usize, usize)> = Vec::new();
    for i in 0..placements.len() {
        for j in i + 1..placements.len() {
            let d = (0..3)
                .map(|k| (placements[i].x[k] - placements[j].x[k]).powi(2))
                .sum::<f64>()
                .sqrt();
            if d < reach {
                close.push((d, i, j));
            }
        }
    }
    close.sort_by(|a, b| a.0.total_cmp(&b.0));
    close.truncate(8);
    let mut out = ExactCheck {
        pairs: close.len(),
        truth: 0,
        extra: 0,
        contact_triangles: vec![Vec::new(); placements.len()],
    };
    let (mut a, mut b) = (
        Body::new(&tree).map_err(DemoError::Host)?,
        Body::new(&tree).map_err(DemoError::Host)?,
    );
    for &(_, i, j) in &close {
        // The simulation's f64 states: the host places the pair at its own floating origin and
        // refines in f64, so the answer is conservative against the states the brute force
        // deforms.
        let (pa, pb) = (&placements[i], &placements[j]);
        a.set_state(pa.rotation, pa.x, &pa.q)
            .map_err(DemoError::Host)?;
        b.set_state(pb.rotation, pb.x, &pb.q)
            .map_err(DemoError::Host)?;
        let found: Vec<(u32, u32)> = host::pairs(&mut a, &mut b)
            .map_err(DemoError::Host)?
            .items
            .iter()
            .map(|p| (p[0], p[1]))
            .collect();
        let truth = brute_force_pairs(
            &worlds[i],
            &chair.mesh.triangles,
            &worlds[j],
            &chair.mesh.triangles,
        );
        if let Some(&pair) = truth.iter().find(|t| found.binary_search(t).is_err()) {
            return Err(DemoError::Missed {
                chairs: (i, j),
                pair,
            });
        }
        out.truth += truth.len();
        out.extra += found.len() - truth.len().min(found.len());
        out.contact_triangles[i].extend(found.iter().map(|p| p.0));
        out.contact_triangles[j].extend(found.iter().map(|p| p.1));
    }
    Ok(out)
}

/// A finished demo run.
pub struct Demo {
    /// What was simulated.
    pub options: ChairOptions,
    /// Every step's placements, reports and contacts.
    pub trajectory: Trajectory,
    /// Wall-clock seconds of the simulation.
    pub wall_seconds: f64,
    /// The collision part replayed with the chairs' `q`.
    pub deformable: Replay,
    /// The same placements replayed rigid (`q = 0`).
    pub rigid: Replay,
    /// The step with the most proxy contacts.
    pub busiest: usize,
    /// Every chair's world vertices at the busiest step (f64).
    pub worlds: Vec<Vec<[f64; 3]>>,
    /// The proxy check at the busiest step.
    pub proxy_check: ProxyCheck,
    /// The exact check at the busiest step.
    pub check: ExactCheck,
}

/// Simulates `count` chairs for `steps` steps (`progress(step)` after each), replays the
/// collision part deformable and rigid, and runs the exact check at the busiest step.
pub fn run(
    chair: &Chair,
    count: usize,
    steps: usize,
    progress: &mut dyn FnMut(usize),
) -> Result<Demo, DemoError> {
    run_with_ground(chair, count, steps, GroundContacts::default(), progress)
}

/// [`run`], with the ground plane's contacts found as `ground` says.
pub fn run_with_ground(
    chair: &Chair,
    count: usize,
    steps: usize,
    ground: GroundContacts,
    progress: &mut dyn FnMut(usize),
) -> Result<Demo, DemoError> {
    if count < 2 || steps == 0 {
        return Err(DemoError::TooSmall);
    }
    let options = ChairOptions {
        count,
        steps,
        ground_contacts: ground,
        ..ChairOptions::default()
    };
    let started = Instant::now();
    let trajectory = simulate(chair, &options, progress).map_err(DemoError::Sim)?;
    let wall_seconds = started.elapsed().as_secs_f64();
    let deformable = replay(chair, &options, &trajectory, false).map_err(DemoError::Sim)?;
    let rigid = replay(chair, &options, &trajectory, true).map_err(DemoError::Sim)?;
    let busiest = (0..steps)
        .max_by_key(|&s| trajectory.reports[s].contacts)
        .unwrap_or(0);
    let at = &trajectory.steps[busiest];
    let worlds: Vec<Vec<[f64; 3]>> = at.iter().map(|p| world_vertices(chair, p)).collect();
    let counted = trajectory.reports[busiest].contacts;
    let recorded = &trajectory.contacts[busiest].proxies;
    if counted != recorded.len() {
        return Err(DemoError::Recorded {
            step: busiest,
            counted,
            recorded: recorded.len(),
        });
    }
    let proxy_check =
        proxy_check(chair, options.proxy_depth, at, &worlds, recorded).map_err(DemoError::Check)?;
    let check = exact_check(chair, at, &worlds)?;
    Ok(Demo {
        options,
        trajectory,
        wall_seconds,
        deformable,
        rigid,
        busiest,
        worlds,
        proxy_check,
        check,
    })
}

impl Demo {
    /// The last line: where the chairs came to rest.
    pub fn resting(&self) -> Result<String, DemoError> {
        let last = self.trajectory.steps.last().ok_or(DemoError::NoStep)?;
        let heights: Vec<f64> = last.iter().map(|p| p.x[2]).collect();
        Ok(format!(
            "  resting: centers of mass from {:.2} m to {:.2} m above the ground",
            heights.iter().copied().fold(f64::INFINITY, f64::min),
            heights.iter().copied().fold(f64::NEG_INFINITY, f64::max)
        ))
    }
}

/// The summary: simulation, collision time against rigid, contacts, the exact check.
impl fmt::Display for Demo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (options, d, r) = (&self.options, &self.deformable, &self.rigid);
        let simulated = options.steps as f64 * options.dt;
        let incomplete: usize = self.trajectory.reports.iter().map(|r| r.incomplete).sum();
        writeln!(
            f,
            "  {} bodies, {} steps of {} ms: {simulated:.2} s simulated in {:.2} s (sweep-and-prune, proxy queries at depth {}, the ground a plane primitive, penalty contacts, rigid and modal dynamics)",
            options.count,
            options.steps,
            options.dt * 1e3,
            self.wall_seconds,
            options.proxy_depth
        )?;
        writeln!(
            f,
            "  collision time per step: {:.3} ms deformable, {:.3} ms for the same placements rigid (q = 0): ratio {:.2} mean, {:.2} median (paper: 2; target ≤ 1.5)",
            d.mean_seconds * 1e3,
            r.mean_seconds * 1e3,
            d.mean_seconds / r.mean_seconds.max(1e-12),
            d.median_seconds / r.median_seconds.max(1e-12)
        )?;
        writeln!(
            f,
            "  contacts per step: {:.1} colliding chair pairs ({:.0} collision events per simulated second), {:.1} chair–chair proxy contacts and {:.1} ground {} contacts; {}",
            d.colliding_pairs,
            d.colliding_pairs / options.dt,
            d.contacts,
            d.ground_contacts,
            match options.ground_contacts {
                GroundContacts::Proxies => "proxy",
                GroundContacts::Triangles => "triangle",
            },
            match incomplete {
                0 => "every query complete".to_string(),
                n => format!("{n} queries incomplete (their contacts may be missing)"),
            }
        )?;
        let p = &self.proxy_check;
        writeln!(
            f,
            "  proxy check at the busiest step ({}): its {} proxy contacts against a brute force over the {} chair pairs whose root spheres overlap ({} proxy pairs, {} proxy spheres each checked to contain its deformed triangles): {} overlapping, 0 missed, {} extra within f32 rounding",
            self.busiest,
            p.reported,
            p.chair_pairs,
            p.proxy_pairs,
            p.proxies,
            p.truth,
            p.extra
        )?;
        let check = &self.check;
        write!(
            f,
            "  exact triangle query at the busiest step ({}, {} proxy contacts) on its {} closest chair pairs: {} intersecting triangle pairs, {} extra within rounding, 0 missed (f64 brute force)",
            self.busiest,
            self.trajectory.reports[self.busiest].contacts,
            check.pairs,
            check.truth,
            check.extra
        )
    }
}
