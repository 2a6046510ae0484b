//! The swept query over a whole scene: the pairs of the motion between two consecutive frames,
//! tick after tick with each pair's front carried ([`run_swept_front`],
//! [`bdtree_core::collide_swept_front`]) or each motion from the root ([`run_swept`],
//! [`bdtree_core::collide_swept`]), and the sub-stepped scene to compare them with
//! ([`substeps`]). Each answer is widened to f64 and sorted by pair;
//! [`FrameAnswer::result`] holds the pairs in the form of [`super::run`] so the same reports
//! and checks apply. Primitives are ignored.

use std::time::Instant;

use bdtree_core::Scalar;

use super::scene::{
    answer_of, frame_error, impl_numbered, set_world_frame, world, FrameAnswer, Numbered,
    PreparedScene, RunError,
};
use crate::export::Contact;
use crate::host::world::{swept, swept_front};
use crate::host::{Body as HostBody, Fronts, World};
use crate::io::Scene;

/// A triangle pair that may touch during the motion into a frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SweptContact {
    /// Bodies (`a < b`) and triangles.
    pub pair: Contact,
    /// A conservative earliest time of impact in `[0, 1]`: the pair cannot touch before it.
    pub time: f64,
}
impl_numbered!(SweptContact);

/// For every frame `f ≥ 1`, every triangle pair of distinct bodies that may touch at some time
/// of the motion from frame `f − 1` to frame `f` (`q` and translation linear, rotation by
/// slerp on the shorter arc), with its earliest time, in scalar `S` ([`crate::host::world::swept`]:
/// each pair at the origin of its two bodies' translations at both ends). Returns the answers
/// and the mean wall time per motion in milliseconds (setting states and querying).
pub fn run_swept<S: Scalar>(
    scene: &Scene,
    prepared: &PreparedScene,
) -> Result<(Vec<FrameAnswer<SweptContact>>, f64), RunError> {
    let mut before = world::<S>(scene, prepared)?;
    let mut now = twin(scene, &before)?;
    let mut out = Vec::new();
    let start = Instant::now();
    for f in 1..scene.frames.len() {
        set_world_frame(&mut before, scene, f - 1)?;
        set_world_frame(&mut now, scene, f)?;
        let answer = swept(&mut before, &mut now).map_err(frame_error(f))?;
        out.push(answer_of(f, answer, |s| SweptContact {
            pair: (0, 0, s.triangles[0], s.triangles[1]),
            time: s.time,
        }));
    }
    let ms = start.elapsed().as_secs_f64() * 1e3 / out.len().max(1) as f64;
    Ok((out, ms))
}

/// What the fronts of [`run_swept_front`] did over a scene's motions, summed over body pairs.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FrontSummary {
    /// Front entries skipped on their margins (no work for their node pairs).
    pub certified: usize,
    /// Front entries walked again (their margins ran out).
    pub retested: usize,
    /// The most entries one body pair's front held.
    pub largest: usize,
    /// Queries whose front did not fit its storage (it grew; the next walked from the root).
    pub overflows: usize,
}

/// [`run_swept`] as a controller runs it every tick: the frames as ticks, each body pair's
/// swept front carried from one motion to the next ([`crate::host::world::swept_front`]),
/// so a motion walks only the node pairs whose margins ran out — the same pairs may touch,
/// with conservative earliest times. Returns the answers, the mean wall time per motion in
/// milliseconds and what the fronts did.
pub fn run_swept_front<S: Scalar>(
    scene: &Scene,
    prepared: &PreparedScene,
) -> Result<(Vec<FrameAnswer<SweptContact>>, f64, FrontSummary), RunError> {
    let mut before = world::<S>(scene, prepared)?;
    let mut now = twin(scene, &before)?;
    let mut fronts = Fronts::new();
    let mut summary = FrontSummary::default();
    let mut out = Vec::new();
    let start = Instant::now();
    if !scene.frames.is_empty() {
        set_world_frame(&mut now, scene, 0)?;
    }
    for f in 1..scene.frames.len() {
        // The last motion's end is this one's start, placed where it was.
        std::mem::swap(&mut before, &mut now);
        set_world_frame(&mut now, scene, f)?;
        let answer = swept_front(&mut before, &mut now, &mut fronts).map_err(frame_error(f))?;
        out.push(answer_of(f, answer, |s| SweptContact {
            pair: (0, 0, s.triangles[0], s.triangles[1]),
            time: s.time,
        }));
        for front in fronts.iter() {
            summary.certified += front.certified();
            summary.retested += front.retested();
            summary.largest = summary.largest.max(front.len());
            summary.overflows += usize::from(front.overflowed());
        }
    }
    let ms = start.elapsed().as_secs_f64() * 1e3 / out.len().max(1) as f64;
    Ok((out, ms, summary))
}

/// A second world over the same trees and primitives as `world`, its bodies at rest: the two
/// ends of a motion share their trees (a front compares them by address, not byte by byte).
fn twin(scene: &Scene, world: &World) -> Result<World, RunError> {
    let host = |body: usize| {
        move |error| RunError::Host {
            frame: None,
            body: scene.name(body).to_string(),
            error,
        }
    };
    let bodies = world
        .bodies()
        .iter()
        .enumerate()
        .map(|(b, body)| HostBody::new(body.tree()).map_err(host(b)))
        .collect::<Result<Vec<_>, _>>()?;
    World::new(bodies, world.primitives().to_vec()).map_err(host(0))
}

/// The user's alternative to a swept query: the scene with each motion between consecutive
/// frames replaced by `steps` evenly spaced instants of it (τ = `s / steps`, `s = 0 … steps − 1`,
/// the interpolation [`run_swept`] and [`super::sampled_swept_frame`] use), to run the static
/// query on ([`super::run`]) — sub-stepping: cheap, not conservative. Frame
/// `(f − 1) · steps + s` is instant `s` of the motion into frame `f`. Primitives are dropped
/// (swept queries ignore them).
pub fn substeps(scene: &Scene, steps: usize) -> Scene {
    let steps = steps.max(1);
    let mut frames = Vec::new();
    for f in 1..scene.frames.len() {
        for s in 0..steps {
            let tau = s as f64 / steps as f64;
            frames.push(
                (0..scene.bodies.len())
                    .filter_map(|b| {
                        let (pose, q) = super::check::interpolated_state(scene, f, b, tau)?;
                        Some((pose, q))
                    })
                    .collect(),
            );
        }
    }
    Scene {
        frames,
        primitives: Vec::new(),
        ..scene.clone()
    }
}
