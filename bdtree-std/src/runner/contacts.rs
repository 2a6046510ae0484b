//! The contact queries over a whole scene: the contact data of every intersecting pair
//! ([`run_contacts`], [`bdtree_core::collide_contacts`]), with penalty forces
//! ([`run_contact_forces`]), and every triangle pair closer than a distance ([`run_within`],
//! [`bdtree_core::within`]). Each answer is widened to f64 and sorted by pair;
//! [`FrameAnswer::result`] holds the pairs in the form of [`super::run`] so the same reports
//! and checks apply. [`run_contacts`] also answers the scene's primitive bodies (pairs
//! `(b, n + p, triangle, 0)`, see [`super::scene`]); the within run ignores them.

use std::time::Instant;

use bdtree_core::Scalar;

use super::scene::{
    answer_of, frame_error, impl_numbered, set_world_frame, world, FrameAnswer, Numbered,
    PreparedScene, RunError,
};
use crate::export::Contact;
use crate::host::Wrench;
use crate::io::Scene;

/// An intersecting triangle pair with its contact.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ContactData {
    /// Bodies (`a < b`) and triangles.
    pub pair: Contact,
    /// A point of the intersection (world).
    pub point: [f64; 3],
    /// Unit normal of least penetration, from the first body's triangle to the second's.
    pub normal: [f64; 3],
    /// Penetration depth along the normal.
    pub depth: f64,
}

/// A triangle pair closer than the query's distance.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NearContact {
    /// Bodies (`a < b`) and triangles.
    pub pair: Contact,
    /// Their distance (0 up to rounding when they intersect).
    pub distance: f64,
    /// The witness points on the first and the second triangle (world).
    pub points: [[f64; 3]; 2],
}
impl_numbered!(ContactData);
impl_numbered!(NearContact);

/// Per frame, every intersecting triangle pair of distinct bodies and every triangle touching a
/// primitive with its contact (point, normal, depth; [`crate::host::World::contacts`]: in f32
/// one contact per refined pair, none with a negative depth), in scalar `S`; and the mean wall
/// time per frame in milliseconds.
pub fn run_contacts<S: Scalar>(
    scene: &Scene,
    prepared: &PreparedScene,
) -> Result<(Vec<FrameAnswer<ContactData>>, f64), RunError> {
    let mut world = world::<S>(scene, prepared)?;
    let mut out = Vec::new();
    let start = Instant::now();
    for f in 0..scene.frames.len() {
        set_world_frame(&mut world, scene, f)?;
        let answer = world.contacts().map_err(frame_error(f))?;
        out.push(answer_of(f, answer, |c| ContactData {
            pair: (0, 0, c.triangles[0], c.triangles[1]),
            point: c.point,
            normal: c.normal,
            depth: c.depth,
        }));
    }
    let ms = start.elapsed().as_secs_f64() * 1e3 / out.len().max(1) as f64;
    Ok((out, ms))
}

/// [`run_contacts`] with the penalty response of every contact between distinct bodies
/// ([`crate::host::World::contact_forces`]: `stiffness · depth` along each contact's normal
/// at its point, on its triangles), and per frame every mesh body's wrench — force, torque
/// about its translation, generalized force on its `q` (contacts with primitives push
/// nothing). Returns the answers, the wrenches (per frame, per mesh body) and the mean wall
/// time per frame in milliseconds.
#[allow(clippy::type_complexity)]
pub fn run_contact_forces<S: Scalar>(
    scene: &Scene,
    prepared: &PreparedScene,
    stiffness: f64,
) -> Result<(Vec<FrameAnswer<ContactData>>, Vec<Vec<Wrench>>, f64), RunError> {
    let mut world = world::<S>(scene, prepared)?;
    let (mut out, mut wrenches) = (Vec::new(), Vec::new());
    let start = Instant::now();
    for f in 0..scene.frames.len() {
        set_world_frame(&mut world, scene, f)?;
        let (answer, forces) = world.contact_forces(stiffness).map_err(frame_error(f))?;
        out.push(answer_of(f, answer, |c| ContactData {
            pair: (0, 0, c.triangles[0], c.triangles[1]),
            point: c.point,
            normal: c.normal,
            depth: c.depth,
        }));
        wrenches.push(forces);
    }
    let ms = start.elapsed().as_secs_f64() * 1e3 / out.len().max(1) as f64;
    Ok((out, wrenches, ms))
}

/// Per frame, every triangle pair of distinct bodies at most `distance` apart (conservative:
/// every pair within it; in f32 distances and witnesses computed again in f64, see
/// [`crate::host::within`]), in scalar `S`; and the mean wall time per frame in milliseconds.
pub fn run_within<S: Scalar>(
    scene: &Scene,
    prepared: &PreparedScene,
    distance: f64,
) -> Result<(Vec<FrameAnswer<NearContact>>, f64), RunError> {
    let mut world = world::<S>(scene, prepared)?;
    let mut out = Vec::new();
    let start = Instant::now();
    for f in 0..scene.frames.len() {
        set_world_frame(&mut world, scene, f)?;
        let answer = world.within(distance).map_err(frame_error(f))?;
        out.push(answer_of(f, answer, |n| NearContact {
            pair: (0, 0, n.triangles[0], n.triangles[1]),
            distance: n.distance,
            points: n.points,
        }));
    }
    let ms = start.elapsed().as_secs_f64() * 1e3 / out.len().max(1) as f64;
    Ok((out, ms))
}
