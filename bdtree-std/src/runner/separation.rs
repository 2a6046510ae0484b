//! The separation queries over a whole scene: per frame, the nearest points of every body pair
//! ([`distances`], [`crate::host::World::distances`]) and whether each body pair comes within a
//! distance ([`run_closer_than`], [`crate::host::World::closer_than`]; `bdtree distance
//! --closer-than D`).

use bdtree_core::Scalar;

use super::check::brute_force_distance_from;
use super::scene::{frame_error, set_world_frame, world, PreparedScene, RunError};
use crate::host::Closer;
use crate::io::Scene;

/// The nearest points of one body pair in one frame, widened to f64 (see
/// [`crate::host::distance`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PairDistance {
    /// Body indices, `a < b`.
    pub bodies: (usize, usize),
    /// Distance (0 when intersecting).
    pub distance: f64,
    /// Witness points on body a and body b (world).
    pub points: [[f64; 3]; 2],
    /// Unit normal from body a to body b (zero when intersecting).
    pub normal: [f64; 3],
    /// The two triangles.
    pub triangles: (u32, u32),
    /// Whether the two triangles intersect.
    pub intersecting: bool,
}

/// Per frame, the nearest points of every body pair ([`crate::host::World::distances`]), in scalar `S`.
pub fn distances<S: Scalar>(
    scene: &Scene,
    prepared: &PreparedScene,
) -> Result<Vec<Vec<PairDistance>>, RunError> {
    let mut world = world::<S>(scene, prepared)?;
    let mut out = Vec::new();
    for f in 0..scene.frames.len() {
        set_world_frame(&mut world, scene, f)?;
        let answer = world.distances().map_err(frame_error(f))?;
        out.push(
            answer
                .found
                .iter()
                .map(|d| PairDistance {
                    bodies: (d.bodies[0], d.bodies[1]),
                    distance: d.item.distance,
                    points: d.item.points,
                    normal: d.item.normal,
                    triangles: (d.item.triangles[0], d.item.triangles[1]),
                    intersecting: d.item.intersecting,
                })
                .collect(),
        );
    }
    Ok(out)
}

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
    brute_force_distance_from(scene, frame, a, b, origin)
}
