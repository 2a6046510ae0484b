//! `bdtree collide --bounds boxes15|boxes6`: the triangle pairs of every frame found with box
//! bounds ([`crate::host::World::pairs_with`]) — the same pairs as [`super::run_with`]'s.

use bdtree_core::Scalar;

use super::scene::{frame_error, timed_frames, world, FrameResult, PreparedScene, RunError};
use crate::host::PairBound;
use crate::io::Scene;

/// Runs every frame `repeat` times (at least once) in scalar `S`, the body pairs pruned by
/// `bound` ([`crate::host::World::pairs_with`]; with `self_pairs` each body's self pairs too,
/// as `(b, b, ta, tb)`). Returns the answers of the last run and the mean wall time per frame
/// in milliseconds, as [`super::run_with`] does.
pub fn run_bounded<S: Scalar>(
    scene: &Scene,
    prepared: &PreparedScene,
    repeat: usize,
    bound: PairBound,
    self_pairs: bool,
) -> Result<(Vec<FrameResult>, f64), RunError> {
    let mut world = world::<S>(scene, prepared)?;
    timed_frames(&mut world, scene, repeat, |world, f| {
        let answer = world
            .pairs_with(self_pairs, bound)
            .map_err(frame_error(f))?;
        Ok(FrameResult {
            complete: true,
            stats: answer.stats,
            pairs: answer
                .found
                .iter()
                .map(|x| (x.bodies[0], x.bodies[1], x.item[0], x.item[1]))
                .collect(),
            ..FrameResult::default()
        })
    })
}
