//! The demo behind `bdtree demo`: flexing chairs dropped on the ground (the BD-Tree paper's
//! experiment, small), from the bundled chair mesh, with the collision cost per step against
//! the same placements rigid, and two checks at the busiest step (the step with the most proxy
//! contacts): the **proxy check** ([`super::check`]), the simulation's chair–chair proxy
//! contacts against a brute force over every proxy pair of every chair pair whose root spheres
//! overlap, and the **exact check** ([`exact_check`]), the host's exact triangle queries on the
//! chair pairs with the most proxy contacts against the f64 brute force on the explicitly
//! deformed meshes: the intersecting triangle pairs, and the triangle pairs within
//! [`NEAR`] of each other (the chairs touch through their proxies, which hold their
//! triangles apart: the near pairs are the non-empty set of true contacts it compares).
//!
//! [`prepare`] loads and analyses the chair, [`run`] simulates, replays and checks; their
//! `Display` is the demo's printed summary. The picture of the busiest step is drawn by
//! `crate::view::demo` (feature `pictures`).

use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Instant;

use super::chairs::{
    prepare_chair, simulate_with, world_vertices, Chair, ChairOptions, GroundContacts, Layout,
    Placement, ProxyContact, SimError, StepContacts, StepReport,
};
use super::replay::{Replay, Shadow};
use bdtree_std::error::LoadError;
use bdtree_std::host::{self, Body, HostError, Tree};
use bdtree_std::io::load_mesh;
use bdtree_std::oracle::{brute_force_pairs, triangle_distance};

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
    /// The exact `within` query missed a triangle pair the brute force finds within
    /// [`NEAR`]: a bug.
    MissedNear {
        /// The chairs.
        chairs: (usize, usize),
        /// The triangle pair.
        pair: (u32, u32),
        /// Their distance (brute force), m.
        distance: f64,
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
            Self::MissedNear {
                chairs: (i, j),
                pair,
                distance,
            } => write!(
                f,
                "demo: chairs {i}, {j}: the exact within query missed triangle pair {pair:?}, \
                 {distance:.3e} m apart"
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

/// The first line the demo prints for a pile.
pub fn pile_banner(count: usize) -> String {
    format!(
        "bdtree demo --pile: {count} flexing chairs dropped from a hopper into a heap (the BD-Tree paper's Figure 1)"
    )
}

/// The distance of the exact check's near triangle pairs, m: chairs pressed together through
/// their proxies have triangle pairs this close (the proxy spheres hold the triangles apart:
/// at 3 cm a heap of 27 chairs had none at its busiest step).
pub const NEAR: f64 = 0.1;
/// The brute force's allowance on [`NEAR`] for the f32 image's rounding, m: a pair the brute
/// force finds closer than `NEAR − NEAR_ROUNDING` must be reported.
const NEAR_ROUNDING: f64 = 1e-6;

/// What [`exact_check`] found.
#[derive(Debug, Clone, PartialEq)]
pub struct ExactCheck {
    /// Chair pairs checked.
    pub pairs: usize,
    /// Intersecting triangle pairs (brute force).
    pub truth: usize,
    /// Pairs the kernel reported beyond the brute force (within rounding).
    pub extra: usize,
    /// Triangle pairs within [`NEAR`] (brute force).
    pub near: usize,
    /// Near pairs the host reported that the brute force finds farther than `NEAR` (within
    /// rounding).
    pub near_extra: usize,
    /// Per chair, the triangles in contact (within [`NEAR`]).
    pub contact_triangles: Vec<Vec<u32>>,
}

/// The found pairs of the exact check, before they are compared: a test removes one to see
/// the check fail.
pub type Tamper<'a> = &'a mut dyn FnMut(&mut Vec<(u32, u32)>);

/// Runs the host's exact f32 queries (intersecting pairs, and pairs within [`NEAR`]) on up
/// to 8 chair pairs of `placements` — those with the most proxy contacts in `proxies`, then
/// those whose centres are closest — and compares each with the f64 brute force on the
/// explicitly deformed meshes (`worlds`); a missed pair is an error.
pub fn exact_check(
    chair: &Chair,
    placements: &[Placement],
    worlds: &[Vec<[f64; 3]>],
    proxies: &[ProxyContact],
) -> Result<ExactCheck, DemoError> {
    exact_check_with(chair, placements, worlds, proxies, &mut |_| {})
}

/// The chair pairs of [`exact_check`].
fn checked_pairs(
    placements: &[Placement],
    proxies: &[ProxyContact],
    reach: f64,
) -> Vec<(usize, usize)> {
    let mut counts: std::collections::BTreeMap<[usize; 2], usize> = Default::default();
    for p in proxies {
        *counts.entry(p.chairs).or_default() += 1;
    }
    let mut busy: Vec<([usize; 2], usize)> = counts.into_iter().collect();
    busy.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let mut out: Vec<(usize, usize)> = busy.iter().take(8).map(|(c, _)| (c[0], c[1])).collect();
    if out.len() < 8 {
        let mut close: Vec<(f64, usize, usize)> = Vec::new();
        for i in 0..placements.len() {
            for j in i + 1..placements.len() {
                let d = (0..3)
                    .map(|k| (placements[i].x[k] - placements[j].x[k]).powi(2))
                    .sum::<f64>()
                    .sqrt();
                if d < reach && !out.contains(&(i, j)) {
                    close.push((d, i, j));
                }
            }
        }
        close.sort_by(|a, b| a.0.total_cmp(&b.0));
        out.extend(close.iter().take(8 - out.len()).map(|&(_, i, j)| (i, j)));
    }
    out
}

/// Every triangle pair of two deformed meshes within `distance` (f64 brute force: a
/// triangle's bounding box farther than `distance` on an axis is skipped, the rest measured),
/// with its distance.
fn brute_force_near(
    a: &[[f64; 3]],
    b: &[[f64; 3]],
    triangles: &[[u32; 3]],
    distance: f64,
) -> Vec<((u32, u32), f64)> {
    let corners = |w: &[[f64; 3]], t: &[u32; 3]| t.map(|v| w[v as usize]);
    let boxes = |w: &[[f64; 3]]| -> Vec<([f64; 3], [f64; 3])> {
        triangles
            .iter()
            .map(|t| {
                let c = corners(w, t);
                (
                    [0, 1, 2].map(|k| c[0][k].min(c[1][k]).min(c[2][k])),
                    [0, 1, 2].map(|k| c[0][k].max(c[1][k]).max(c[2][k])),
                )
            })
            .collect()
    };
    let (ba, bb) = (boxes(a), boxes(b));
    let mut out = Vec::new();
    for (s, (la, ha)) in ba.iter().enumerate() {
        for (t, (lb, hb)) in bb.iter().enumerate() {
            if (0..3).any(|k| lb[k] - ha[k] > distance || la[k] - hb[k] > distance) {
                continue;
            }
            let (d, _, _) =
                triangle_distance(&corners(a, &triangles[s]), &corners(b, &triangles[t]));
            if d <= distance {
                out.push(((s as u32, t as u32), d));
            }
        }
    }
    out
}

/// [`exact_check`], with `tamper` applied to each chair pair's found pairs (intersecting,
/// then near) before they are compared.
pub fn exact_check_with(
    chair: &Chair,
    placements: &[Placement],
    worlds: &[Vec<[f64; 3]>],
    proxies: &[ProxyContact],
    tamper: Tamper<'_>,
) -> Result<ExactCheck, DemoError> {
    let tree = Tree::new(chair.image.clone()).map_err(DemoError::Host)?;
    let close = checked_pairs(placements, proxies, 2.0 * tree.radius());
    let mut out = ExactCheck {
        pairs: close.len(),
        truth: 0,
        extra: 0,
        near: 0,
        near_extra: 0,
        contact_triangles: vec![Vec::new(); placements.len()],
    };
    let (mut a, mut b) = (
        Body::new(&tree).map_err(DemoError::Host)?,
        Body::new(&tree).map_err(DemoError::Host)?,
    );
    let triangles = &chair.mesh.triangles;
    for &(i, j) in &close {
        // The simulation's f64 states: the host places the pair at its own floating origin and
        // refines in f64, so the answer is conservative against the states the brute force
        // deforms.
        let (pa, pb) = (&placements[i], &placements[j]);
        a.set_state(pa.rotation, pa.x, &pa.q)
            .map_err(DemoError::Host)?;
        b.set_state(pb.rotation, pb.x, &pb.q)
            .map_err(DemoError::Host)?;
        let mut found: Vec<(u32, u32)> = host::pairs(&mut a, &mut b)
            .map_err(DemoError::Host)?
            .items
            .iter()
            .map(|p| (p[0], p[1]))
            .collect();
        tamper(&mut found);
        found.sort_unstable();
        let truth = brute_force_pairs(&worlds[i], triangles, &worlds[j], triangles);
        if let Some(&pair) = truth.iter().find(|t| found.binary_search(t).is_err()) {
            return Err(DemoError::Missed {
                chairs: (i, j),
                pair,
            });
        }
        out.truth += truth.len();
        out.extra += found.len() - truth.len().min(found.len());
        let mut near: Vec<(u32, u32)> = host::within(&mut a, &mut b, NEAR)
            .map_err(DemoError::Host)?
            .items
            .iter()
            .map(|n| (n.triangles[0], n.triangles[1]))
            .collect();
        tamper(&mut near);
        near.sort_unstable();
        // Measured to NEAR plus the rounding allowance: a reported pair just beyond NEAR is
        // an extra within rounding, not a far one.
        let truth = brute_force_near(&worlds[i], &worlds[j], triangles, NEAR + NEAR_ROUNDING);
        for &(pair, distance) in &truth {
            if distance <= NEAR - NEAR_ROUNDING && near.binary_search(&pair).is_err() {
                return Err(DemoError::MissedNear {
                    chairs: (i, j),
                    pair,
                    distance,
                });
            }
        }
        let within: Vec<(u32, u32)> = truth.iter().filter(|t| t.1 <= NEAR).map(|t| t.0).collect();
        out.near += within.len();
        out.near_extra += near
            .iter()
            .filter(|p| within.binary_search(p).is_err())
            .count();
        out.contact_triangles[i].extend(near.iter().map(|p| p.0));
        out.contact_triangles[j].extend(near.iter().map(|p| p.1));
    }
    Ok(out)
}

/// One step as the demo keeps it: its placements (before the step's forces) and contacts.
#[derive(Debug, Clone, Default)]
pub struct Kept {
    /// The step.
    pub step: usize,
    /// Every chair's placement.
    pub placements: Vec<Placement>,
    /// The step's contacts.
    pub contacts: StepContacts,
}

/// A finished demo run. It keeps every step's report and collision times, and the placements
/// and contacts only of the steps its checks and pictures need (the busiest, the last, and
/// every `keep_every`-th of [`run_keeping`]): a long run of thousands of chairs holds a few
/// steps, not its whole trajectory.
pub struct Demo {
    /// What was simulated.
    pub options: ChairOptions,
    /// Every step's collision report (the simulation's: its collision part is the deformable
    /// one).
    pub reports: Vec<StepReport>,
    /// The busiest step's placements and contacts.
    pub at_busiest: Kept,
    /// The last step's.
    pub last: Kept,
    /// Every `keep_every`-th step's ([`run_keeping`]; none by default).
    pub kept: Vec<Kept>,
    /// Wall-clock seconds of the simulation (its dynamics and collision; the rigid replay of
    /// each step not included).
    pub wall_seconds: f64,
    /// Threads of the world's queries.
    pub threads: usize,
    /// The collision part with the chairs' `q`: the simulation's own, timed step by step.
    pub deformable: Replay,
    /// The same placements replayed rigid (`q = 0`), each step right after the simulation's.
    pub rigid: Replay,
    /// The step with the most proxy contacts (the last of equals).
    pub busiest: usize,
    /// Every chair's world vertices at the busiest step (f64).
    pub worlds: Vec<Vec<[f64; 3]>>,
    /// The proxy check at the busiest step.
    pub proxy_check: ProxyCheck,
    /// The exact check at the busiest step.
    pub check: ExactCheck,
}

/// What the demo is doing, for a progress display.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// A step simulated (deformable); its report is the collision part's.
    Simulating,
    /// The same step's placements replayed rigid (`q = 0`), right after.
    Rigid,
    /// The checks at the busiest step.
    Checking,
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
    let options = ChairOptions {
        count,
        steps,
        ground_contacts: ground,
        ..ChairOptions::default()
    };
    run_with(chair, &options, &mut |phase, step, _| {
        if phase == Phase::Simulating {
            progress(step)
        }
    })
}

/// Simulates the chairs `options` describe (`progress(phase, step, report)` after each step of
/// the simulation and of its rigid replay), replays each step's collision part rigid right
/// after it, and runs the proxy and exact checks at the busiest step.
pub fn run_with(
    chair: &Chair,
    options: &ChairOptions,
    progress: &mut dyn FnMut(Phase, usize, &StepReport),
) -> Result<Demo, DemoError> {
    run_keeping(chair, options, 0, progress)
}

/// [`run_with`], keeping also every `keep_every`-th step's placements and contacts (0: none;
/// 1: every step) in [`Demo::kept`].
pub fn run_keeping(
    chair: &Chair,
    options: &ChairOptions,
    keep_every: usize,
    progress: &mut dyn FnMut(Phase, usize, &StepReport),
) -> Result<Demo, DemoError> {
    let (count, steps) = (options.count, options.steps);
    if count < 2 || steps == 0 {
        return Err(DemoError::TooSmall);
    }
    let options = *options;
    let mut shadow = Shadow::new(chair, &options, true).map_err(DemoError::Sim)?;
    let mut reports = Vec::with_capacity(steps);
    let mut rigid = Vec::with_capacity(steps);
    let (mut at_busiest, mut last, mut kept) = (Kept::default(), Kept::default(), Vec::new());
    let mut simulating = 0.0;
    let mut started = Instant::now();
    simulate_with(chair, &options, &mut |step, at, report, contacts| {
        simulating += started.elapsed().as_secs_f64();
        progress(Phase::Simulating, step, report);
        let replayed = shadow.step(at)?;
        progress(Phase::Rigid, step, &replayed);
        reports.push(*report);
        rigid.push(replayed);
        let keep = |contacts: StepContacts| Kept {
            step,
            placements: at.to_vec(),
            contacts,
        };
        if keep_every > 0 && step % keep_every == 0 {
            kept.push(keep(contacts.clone()));
        }
        // The last of equals, as the whole trajectory's `max_by_key` would pick.
        if step == 0 || report.contacts >= reports[at_busiest.step].contacts {
            at_busiest = keep(contacts.clone());
        }
        last = keep(contacts);
        started = Instant::now();
        Ok(())
    })
    .map_err(DemoError::Sim)?;
    let wall_seconds = simulating + started.elapsed().as_secs_f64();
    let busiest = at_busiest.step;
    progress(Phase::Checking, busiest, &reports[busiest]);
    let at = &at_busiest.placements;
    let worlds: Vec<Vec<[f64; 3]>> = at.iter().map(|p| world_vertices(chair, p)).collect();
    let counted = reports[busiest].contacts;
    let recorded = &at_busiest.contacts.proxies;
    if counted != recorded.len() {
        return Err(DemoError::Recorded {
            step: busiest,
            counted,
            recorded: recorded.len(),
        });
    }
    let proxy_check =
        proxy_check(chair, options.proxy_depth, at, &worlds, recorded).map_err(DemoError::Check)?;
    let check = exact_check(chair, at, &worlds, recorded)?;
    Ok(Demo {
        options,
        deformable: Replay::from_reports(&reports),
        rigid: Replay::from_reports(&rigid),
        reports,
        at_busiest,
        last,
        kept,
        wall_seconds,
        threads: match options.threads {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            n => n,
        },
        busiest,
        worlds,
        proxy_check,
        check,
    })
}

impl Demo {
    /// The last line: where the chairs came to rest.
    pub fn resting(&self) -> Result<String, DemoError> {
        if self.last.placements.is_empty() {
            return Err(DemoError::NoStep);
        }
        let heights: Vec<f64> = self.last.placements.iter().map(|p| p.x[2]).collect();
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
        let incomplete: usize = self.reports.iter().map(|r| r.incomplete).sum();
        writeln!(
            f,
            "  {} bodies, {} steps of {} ms{}: {simulated:.2} s simulated in {:.2} s on {} thread{} ({} broad phase, proxy queries at depth {}, the ground a plane primitive, penalty contacts, rigid and modal dynamics)",
            options.count,
            options.steps,
            options.dt * 1e3,
            match options.layout {
                Layout::Flat => " (two layers)",
                Layout::Pile => " (from a hopper into a heap, friction)",
            },
            self.wall_seconds,
            self.threads,
            if self.threads == 1 { "" } else { "s" },
            match options.broad {
                bdtree_std::host::BroadPhase::Sweep => "sweep-and-prune",
                bdtree_std::host::BroadPhase::Grid => "uniform-grid",
                bdtree_std::host::BroadPhase::Auto if options.count >= bdtree_std::host::world::AUTO_GRID_BODIES => "uniform-grid",
                bdtree_std::host::BroadPhase::Auto => "sweep-and-prune",
            },
            options.proxy_depth
        )?;
        writeln!(
            f,
            "  collision time per step: {:.3} ms deformable, {:.3} ms for the same placements rigid (q = 0): ratio {:.2} mean, {:.2} median (paper: 2); at the busiest step {:.1} ms deformable, {:.1} ms rigid; sphere overlap tests of the chair–chair queries per step {:.0} deformable, {:.0} rigid (ratio {:.2}), spheres updated {:.0} and {:.0}",
            d.mean_seconds * 1e3,
            r.mean_seconds * 1e3,
            d.mean_seconds / r.mean_seconds.max(1e-12),
            d.median_seconds / r.median_seconds.max(1e-12),
            d.seconds.get(self.busiest).copied().unwrap_or(0.0) * 1e3,
            r.seconds.get(self.busiest).copied().unwrap_or(0.0) * 1e3,
            d.overlap_tests,
            r.overlap_tests,
            d.overlap_tests / r.overlap_tests.max(1.0),
            d.sphere_updates,
            r.sphere_updates,
        )?;
        writeln!(
            f,
            "  contacts per step: {:.1} colliding chair pairs ({:.0} collision events per simulated second), {:.1} chair–chair proxy contacts and {:.1} ground {} contacts (the same placements rigid: {:.1} pairs, {:.1} and {:.1} contacts); {}",
            d.colliding_pairs,
            d.colliding_pairs / options.dt,
            d.contacts,
            d.ground_contacts,
            match options.ground_contacts {
                GroundContacts::Proxies => "proxy",
                GroundContacts::Triangles => "triangle",
            },
            r.colliding_pairs,
            r.contacts,
            r.ground_contacts,
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
            "  exact triangle queries at the busiest step ({}, {} proxy contacts) on its {} chair pairs with the most proxy contacts: {} intersecting triangle pairs ({} extra within rounding), {} triangle pairs within {} mm ({} extra within rounding), 0 missed (f64 brute force)",
            self.busiest,
            self.reports[self.busiest].contacts,
            check.pairs,
            check.truth,
            check.extra,
            check.near,
            NEAR * 1e3,
            check.near_extra
        )
    }
}
