//! The queries a controller acts on, over a whole scene: the pairs of the motion between two
//! consecutive frames ([`run_swept`], [`bdtree_core::collide_swept`]), the contact data of every
//! intersecting pair ([`run_contacts`], [`bdtree_core::collide_contacts`]) and every triangle
//! pair closer than a distance ([`run_within`], [`bdtree_core::within`]). Each answer is
//! widened to f64 and sorted by pair; [`FrameAnswer::result`] holds the pairs in the form of
//! [`super::run`] so the same reports and checks apply. [`run_contacts`] also answers the
//! scene's primitive bodies (pairs `(b, n + p, triangle, 0)`, see [`super::scene`]); the
//! swept and within runs ignore them.

use std::time::Instant;

use bdtree_core::{
    collide_contacts, collide_swept, stack_capacity, within, Body, ContactPoint, NearPair,
    QueryOutcome, Scalar, SweptPair, WorldContact,
};

use super::scene::{
    against_primitives, frame_origin, parse_images, run_stack_capacity, set_frame, set_primitives,
    to_world, Caches, Contact, FrameResult, PreparedScene, RunError,
};
use crate::io::Scene;

/// A triangle pair that may touch during the motion into a frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SweptContact {
    /// Bodies (`a < b`) and triangles.
    pub pair: Contact,
    /// A conservative earliest time of impact in `[0, 1]`: the pair cannot touch before it.
    pub time: f64,
}

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

/// One frame's answer: the pairs and counters, and the data of each pair in the same order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FrameAnswer<T> {
    /// The frame (for a swept query, the motion from the frame before to this one).
    pub frame: usize,
    /// The pairs (sorted) and the counters summed over the body pairs.
    pub result: FrameResult,
    /// One entry per pair of `result.pairs`, in the same order.
    pub items: Vec<T>,
}

/// Sums a query's counters into a frame's.
fn add(result: &mut FrameResult, outcome: &QueryOutcome) {
    result.stats.add(&outcome.stats);
    result.complete &= outcome.status.is_complete();
}

/// Sorts a frame's items by pair and fills `result.pairs`.
fn finish<T: Copy>(
    frame: usize,
    mut result: FrameResult,
    mut items: Vec<T>,
    pair: fn(&T) -> Contact,
) -> FrameAnswer<T> {
    items.sort_by_key(pair);
    result.pairs = items.iter().map(pair).collect();
    FrameAnswer {
        frame,
        result,
        items,
    }
}

fn wide<S: Scalar, const N: usize>(v: [S; N]) -> [f64; N] {
    v.map(|x| x.to_f64())
}

/// For every frame `f ≥ 1`, every triangle pair of distinct bodies that may touch at some time
/// of the motion from frame `f − 1` to frame `f` (`q` and translation linear, rotation by
/// slerp on the shorter arc), with its earliest time, in scalar `S`. Returns the answers and
/// the mean wall time per motion in milliseconds (setting states and querying).
pub fn run_swept<S: Scalar>(
    scene: &Scene,
    prepared: &PreparedScene,
) -> Result<(Vec<FrameAnswer<SweptContact>>, f64), RunError> {
    let images = parse_images::<S>(scene, prepared)?;
    let (mut cache_from, mut cache_to) = (Caches::new(&images), Caches::with_tracks(&images));
    let mut from = cache_from.bodies(scene, &images)?;
    let mut to = cache_to.bodies(scene, &images)?;
    let depth = images.iter().map(|im| im.tree.depth()).max().unwrap_or(0);
    let mut stack = vec![[0u32; 2]; stack_capacity(depth, depth)];
    let mut q = Vec::new();
    let mut out = Vec::new();
    let start = Instant::now();
    for f in 1..scene.frames.len() {
        // One floating origin for both ends of the motion.
        let origin = Some(frame_origin(scene, [f - 1, f]));
        set_frame(scene, f - 1, origin, &mut from, &mut q)?;
        set_frame(scene, f, origin, &mut to, &mut q)?;
        let mut result = FrameResult {
            complete: true,
            ..FrameResult::default()
        };
        let mut items = Vec::new();
        for i in 0..from.len() {
            let (from_head, from_tail) = from.split_at_mut(i + 1);
            let (to_head, to_tail) = to.split_at_mut(i + 1);
            let (a_from, a_to) = (&mut from_head[i], &mut to_head[i]);
            for (k, (b_from, b_to)) in from_tail.iter_mut().zip(to_tail.iter_mut()).enumerate() {
                let j = i + 1 + k;
                let mut sink = |p: SweptPair<S>| {
                    items.push(SweptContact {
                        pair: (i, j, p.a, p.b),
                        time: p.time.to_f64(),
                    });
                    true
                };
                let outcome = collide_swept(a_from, a_to, b_from, b_to, &mut stack, &mut sink);
                add(&mut result, &outcome);
            }
        }
        out.push(finish(f, result, items, |c| c.pair));
    }
    let ms = start.elapsed().as_secs_f64() * 1e3 / out.len().max(1) as f64;
    Ok((out, ms))
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

/// The item of a body–primitive contact: `(body, primitive index n + p, contact, the frame's
/// floating origin)`.
type PrimitiveItem<S, T> = fn(usize, usize, &WorldContact<S>, [f64; 3]) -> T;

/// Runs `query` on every pair of distinct bodies of every frame, in scalar `S`; with
/// `primitive`, every mesh body against the frame's primitives too. Both get the frame's
/// floating origin, to move the points they report back to the world.
fn per_pair<S: Scalar, T: Copy>(
    scene: &Scene,
    prepared: &PreparedScene,
    pair: fn(&T) -> Contact,
    mut query: impl FnMut(
        (usize, usize),
        [f64; 3],
        &mut Body<'_, '_, S>,
        &mut Body<'_, '_, S>,
        &mut [[u32; 2]],
        &mut Vec<T>,
    ) -> QueryOutcome,
    primitive: Option<PrimitiveItem<S, T>>,
) -> Result<(Vec<FrameAnswer<T>>, f64), RunError> {
    let images = parse_images::<S>(scene, prepared)?;
    let mut caches = Caches::new(&images);
    let mut bodies = caches.bodies(scene, &images)?;
    let depth = images.iter().map(|im| im.tree.depth()).max().unwrap_or(0);
    let mut stack = vec![[0u32; 2]; run_stack_capacity(depth)];
    let mut q = Vec::new();
    let mut primitives = Vec::new();
    let mut out = Vec::new();
    let start = Instant::now();
    for f in 0..scene.frames.len() {
        let origin = frame_origin(scene, [f]);
        set_frame(scene, f, Some(origin), &mut bodies, &mut q)?;
        let mut result = FrameResult {
            complete: true,
            ..FrameResult::default()
        };
        let mut items = Vec::new();
        for i in 0..bodies.len() {
            let (head, tail) = bodies.split_at_mut(i + 1);
            let a = &mut head[i];
            for (k, b) in tail.iter_mut().enumerate() {
                let outcome = query((i, i + 1 + k), origin, a, b, &mut stack, &mut items);
                add(&mut result, &outcome);
            }
        }
        if let Some(item) = primitive.filter(|_| !scene.primitives.is_empty()) {
            set_primitives(scene, f, origin, &mut primitives)?;
            let outcome = against_primitives(&mut bodies, &primitives, &mut stack, |b, p, c| {
                items.push(item(b, p, c, origin));
            });
            result.stats.add(&outcome.stats);
            result.complete &= outcome.status.is_complete();
        }
        out.push(finish(f, result, items, pair));
    }
    let ms = start.elapsed().as_secs_f64() * 1e3 / out.len().max(1) as f64;
    Ok((out, ms))
}

/// Per frame, every intersecting triangle pair of distinct bodies with its contact (point,
/// normal, depth), in scalar `S`; and the mean wall time per frame in milliseconds.
pub fn run_contacts<S: Scalar>(
    scene: &Scene,
    prepared: &PreparedScene,
) -> Result<(Vec<FrameAnswer<ContactData>>, f64), RunError> {
    per_pair::<S, ContactData>(
        scene,
        prepared,
        |c| c.pair,
        |(i, j), origin, a, b, stack, items| {
            let mut sink = |p: ContactPoint<S>| {
                items.push(ContactData {
                    pair: (i, j, p.a, p.b),
                    point: to_world(p.contact.point, origin),
                    normal: wide(p.contact.normal),
                    depth: p.contact.depth.to_f64(),
                });
                true
            };
            collide_contacts(a, b, stack, &mut sink)
        },
        Some(|b, p, c, origin| ContactData {
            pair: (b, p, c.contact.a, c.contact.b),
            point: to_world(c.contact.contact.point, origin),
            normal: wide(c.contact.contact.normal),
            depth: c.contact.contact.depth.to_f64(),
        }),
    )
}

/// Per frame, every triangle pair of distinct bodies at most `distance` apart (conservative:
/// possibly a few rounding units more, see [`bdtree_core::within`]) with its witness points, in
/// scalar `S`; and the mean wall time per frame in milliseconds.
pub fn run_within<S: Scalar>(
    scene: &Scene,
    prepared: &PreparedScene,
    distance: f64,
) -> Result<(Vec<FrameAnswer<NearContact>>, f64), RunError> {
    // Rounded up so that `S`'s distance is not below the one asked for.
    let d = S::from_f64(distance * (1.0 + 1e-6));
    per_pair::<S, NearContact>(
        scene,
        prepared,
        |c| c.pair,
        |(i, j), origin, a, b, stack, items| {
            let mut sink = |p: NearPair<S>| {
                items.push(NearContact {
                    pair: (i, j, p.a, p.b),
                    distance: p.distance.to_f64(),
                    points: [to_world(p.point_a, origin), to_world(p.point_b, origin)],
                });
                true
            };
            within(a, b, d, stack, &mut sink)
        },
        None,
    )
}
