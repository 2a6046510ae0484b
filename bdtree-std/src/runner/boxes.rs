//! `bdtree collide --bounds boxes15|boxes6`: the triangle pairs of every frame found with box
//! bounds ([`crate::host::World::pairs_with`]) — the same pairs as [`super::run_with`]'s.

use std::time::Instant;

use bdtree_core::Scalar;

use super::scene::{frame_error, set_world_frame, world, FrameResult, PreparedScene, RunError};
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
    let mut results = Vec::new();
    let start = Instant::now();
    let runs = repeat.max(1);
    for _ in 0..runs {
        results.clear();
        for f in 0..scene.frames.len() {
            set_world_frame(&mut world, scene, f)?;
            let answer = world
                .pairs_with(self_pairs, bound)
                .map_err(frame_error(f))?;
            results.push(FrameResult {
                complete: true,
                stats: answer.stats,
                pairs: answer
                    .found
                    .iter()
                    .map(|x| (x.bodies[0], x.bodies[1], x.item[0], x.item[1]))
                    .collect(),
                ..FrameResult::default()
            });
        }
    }
    let per_frame_ms =
        start.elapsed().as_secs_f64() * 1e3 / (runs * scene.frames.len().max(1)) as f64;
    Ok((results, per_frame_ms))
}
