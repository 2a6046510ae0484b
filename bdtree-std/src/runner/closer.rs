//! `bdtree distance --closer-than D`: per frame, whether each body pair comes within a
//! distance ([`crate::host::World::closer_than`]).

use bdtree_core::Scalar;

use super::scene::{frame_error, set_world_frame, world, PreparedScene, RunError};
use crate::host::Closer;
use crate::io::{Pose, Scene};
use crate::oracle;

/// One body pair of one frame: whether it comes within the distance, with the witness.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PairCloser {
    /// Body indices, `a < b`.
    pub bodies: (usize, usize),
    /// The witness triangle pair when the bodies come within the distance (`None`: they do
    /// not).
    pub witness: Option<Closer>,
}

/// Per frame, every pair of distinct bodies with whether it comes within `distance`
/// ([`crate::host::World::closer_than`]: never a false "no"; a "yes" within the pair's
/// rounding bound of `distance`), in scalar `S`.
pub fn run_closer_than<S: Scalar>(
    scene: &Scene,
    prepared: &PreparedScene,
    distance: f64,
) -> Result<Vec<Vec<PairCloser>>, RunError> {
    let mut world = world::<S>(scene, prepared)?;
    let n = world.bodies().len();
    let mut out = Vec::with_capacity(scene.frames.len());
    for f in 0..scene.frames.len() {
        set_world_frame(&mut world, scene, f)?;
        let answer = world.closer_than(distance).map_err(frame_error(f))?;
        let mut row = Vec::with_capacity(n * n.saturating_sub(1) / 2);
        for a in 0..n {
            for b in a + 1..n {
                let witness = answer
                    .found
                    .iter()
                    .find(|x| x.bodies == [a, b])
                    .map(|x| x.item);
                row.push(PairCloser {
                    bodies: (a, b),
                    witness,
                });
            }
        }
        out.push(row);
    }
    Ok(out)
}

/// The brute-force minimum distance of bodies `a` and `b` in frame `f` (f64, every triangle
/// pair of the explicitly deformed meshes), computed relative to the pair's floating origin
/// ([`crate::host::placing::pair_origin`]'s rule): in world coordinates, the deformation's own
/// rounding (`u₆₄` of the translations, 10⁻¹² at 10⁴) would exceed the f64 answers' bound.
pub fn brute_force_pair_distance(scene: &Scene, f: usize, a: usize, b: usize) -> Option<f64> {
    let frame = scene.frames.get(f)?;
    let origin =
        bdtree_core::floating_origin(&[frame.get(a)?.0.translation, frame.get(b)?.0.translation]);
    let world = |i: usize| {
        let (pose, q) = &frame[i];
        let pose = Pose {
            rotation: pose.rotation,
            translation: std::array::from_fn(|k| pose.translation[k] - origin[k]),
        };
        let body = &scene.bodies[i];
        oracle::deform(&body.mesh.vertices, body.basis.as_ref(), q, &pose)
    };
    oracle::brute_force_distance(
        &world(a),
        &scene.bodies[a].mesh.triangles,
        &world(b),
        &scene.bodies[b].mesh.triangles,
    )
    .map(|(d, _, _)| d)
}
