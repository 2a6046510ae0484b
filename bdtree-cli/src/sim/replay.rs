//! The collision part of a simulation run again on the same placements: with the chairs' `q`
//! or rigid (`q = 0`), the cost of deformation for identical configurations (the paper
//! measured 2 for whole simulations). [`replay`] runs a recorded [`Trajectory`] again;
//! [`Shadow`] replays each step as a streamed simulation hands it over
//! ([`super::chairs::simulate_with`]), so that a long run keeps no trajectory and both sides
//! of every step meet the same load on a shared machine.

use super::chairs::{Chair, ChairOptions, Chairs, Placement, SimError, StepContacts, StepReport};
use super::chairs::{Trajectory, MODES};

/// The collision part of a trajectory run again, with its `q` or rigid (`q = 0`).
#[derive(Debug, Clone, Default)]
pub struct Replay {
    /// Collision seconds of every step.
    pub seconds: Vec<f64>,
    /// Mean collision seconds per step.
    pub mean_seconds: f64,
    /// Median collision seconds per step.
    pub median_seconds: f64,
    /// Mean chair pairs in contact per step (collision events).
    pub colliding_pairs: f64,
    /// Mean chair–chair proxy contacts per step.
    pub contacts: f64,
    /// Mean ground triangle contacts per step.
    pub ground_contacts: f64,
    /// Mean sphere overlap tests of the chair–chair proxy query per step.
    pub overlap_tests: f64,
    /// Mean spheres it updated per step.
    pub sphere_updates: f64,
}

impl Replay {
    /// The summary of every step's report.
    pub fn from_reports(reports: &[StepReport]) -> Replay {
        let n = reports.len().max(1) as f64;
        let mean = |f: &dyn Fn(&StepReport) -> f64| reports.iter().map(f).sum::<f64>() / n;
        let seconds: Vec<f64> = reports.iter().map(|r| r.seconds).collect();
        let mut sorted = seconds.clone();
        sorted.sort_by(f64::total_cmp);
        Replay {
            mean_seconds: mean(&|r| r.seconds),
            median_seconds: sorted.get(sorted.len() / 2).copied().unwrap_or(0.0),
            seconds,
            colliding_pairs: mean(&|r| r.colliding_pairs as f64),
            contacts: mean(&|r| r.contacts as f64),
            ground_contacts: mean(&|r| r.ground_contacts as f64),
            overlap_tests: mean(&|r| r.overlap_tests as f64),
            sphere_updates: mean(&|r| r.sphere_updates as f64),
        }
    }
}

/// A world of its own that runs the collision part of each step handed to it again, with the
/// chairs' `q` or rigid.
pub struct Shadow {
    world: Chairs,
    rigid: bool,
}

impl Shadow {
    /// A world of the chairs `options` describe, replaying with `q` or rigid.
    pub fn new(chair: &Chair, options: &ChairOptions, rigid: bool) -> Result<Shadow, SimError> {
        Ok(Shadow {
            world: Chairs::new(chair, options)?,
            rigid,
        })
    }

    /// The collision part of the step at `placements` (one per chair), its report.
    pub fn step(&mut self, placements: &[Placement]) -> Result<StepReport, SimError> {
        let replayed: Vec<Placement>;
        let at = if self.rigid {
            replayed = placements
                .iter()
                .map(|p| Placement {
                    q: [0.0; MODES],
                    ..*p
                })
                .collect();
            &replayed
        } else {
            placements
        };
        let (_, report) = self
            .world
            .step(at, &mut StepContacts::default(), &mut Vec::new())?;
        Ok(report)
    }
}

/// Replays the collision part of `trajectory`, with its `q` or with `q = 0`.
pub fn replay(
    chair: &Chair,
    options: &ChairOptions,
    trajectory: &Trajectory,
    rigid: bool,
) -> Result<Replay, SimError> {
    replay_with(chair, options, trajectory, rigid, &mut |_, _| {})
}

/// [`replay`], calling `progress(step, report)` after every step.
pub fn replay_with(
    chair: &Chair,
    options: &ChairOptions,
    trajectory: &Trajectory,
    rigid: bool,
    progress: &mut dyn FnMut(usize, &StepReport),
) -> Result<Replay, SimError> {
    let options = ChairOptions {
        count: trajectory.steps.first().map_or(options.count, Vec::len),
        ..*options
    };
    let mut shadow = Shadow::new(chair, &options, rigid)?;
    let mut reports = Vec::with_capacity(trajectory.steps.len());
    for (k, step) in trajectory.steps.iter().enumerate() {
        let report = shadow.step(step)?;
        progress(k, &report);
        reports.push(report);
    }
    Ok(Replay::from_reports(&reports))
}
