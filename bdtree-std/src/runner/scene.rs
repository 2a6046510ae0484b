//! Running a scene (the scene runner): build every body's tree, then per frame set every body's
//! state and ask — every intersecting triangle pair between distinct bodies ([`run`]),
//! overlapping contact proxies or self-contacts ([`run_with`]), the nearest points of every
//! body pair ([`super::separation::distances`]). [`super::check`] compares the answers with the oracle.
//!
//! The runners are thin clients of the host layer ([`crate::host::World`]): each frame's
//! states go to the world as the scene gives them (f64), and the world answers every body pair
//! at its own floating origin ([`crate::host::placing`]), refined in f64 in f32, in world
//! coordinates; the runners only number and sort. [`run_unrefined`] asks the same world on the
//! device's path ([`Placement::Device`]: the kernel's own world query at the world origin on
//! states rounded to `S`, no second stage), the firmware replay's reference.
//!
//! **Primitive bodies** (planes, spheres, capsules, boxes of the scene file) take part in
//! [`run`], [`run_with`] without proxies, and [`super::run_contacts`]: each mesh body is queried
//! against them at its own origin. A pair is `(b, n + p, triangle, 0)` — the mesh body first,
//! the primitive (index `n + p`, `n` mesh bodies) second with triangle 0. Pairs of two
//! primitives are not queried; f32 primitive pairs are measured again in f64 on the stored
//! model at the state as given ([`crate::host::primitive_contacts`]), so an extra is within
//! the tolerance of the refine bound. The other runs ignore primitives (the CLI refuses
//! them there).

use std::path::PathBuf;
use std::time::Instant;

use bdtree_core::{floating_origin, Image, ImageError, QueryStats, Scalar};

use crate::build::{build, BuildError, BuildOptions, BuildReport, TreeKind};
use crate::export::{Contact, ProxyContact};
use crate::host::{Body as HostBody, HostError, Placement, Primitive, Tree, World, WorldAnswer};
use crate::io::{ImageBuf, Scene};

/// A contact proxy of a body reaching into a primitive body of the scene.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PrimitiveProxyContact {
    /// The body and the primitive, numbered `n + p` after the `n` bodies.
    pub bodies: (usize, usize),
    /// The proxy node.
    pub node: u32,
    /// Its world sphere `[x, y, z, r]`, in the mesh's units.
    pub sphere: [f64; 4],
    /// How deep the sphere reaches into the primitive (see [`bdtree_core::PrimitiveProxy`]).
    pub depth: f64,
}

/// The answer for one frame.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FrameResult {
    /// Intersecting pairs, sorted (empty for a proxy run).
    pub pairs: Vec<Contact>,
    /// Overlapping proxy pairs, sorted by bodies and nodes (empty unless a proxy run).
    pub proxies: Vec<ProxyContact>,
    /// Proxies of bodies reaching into the scene's primitive bodies, sorted by bodies and
    /// node (empty unless a proxy run of a scene with primitives).
    pub primitive_proxies: Vec<PrimitiveProxyContact>,
    /// Counters summed over the frame's body pairs.
    pub stats: QueryStats,
    /// Whether every query completed (always, with the host's unbounded sink).
    pub complete: bool,
}

/// A scene with a tree image per body.
pub struct PreparedScene {
    /// One image per body, in scene order.
    pub images: Vec<ImageBuf>,
    /// One build report per body.
    pub reports: Vec<BuildReport>,
}

/// Builds every body's tree. (The error is the builder's; [`RunError::Build`] names the scene
/// file with it.)
///
/// A body whose scene entry names a `"tree"` is built on that partition, every other body on
/// `options.tree`. A medial tree refused for a mesh that is not closed names the body
/// ([`BuildError::NotClosed`]).
pub fn prepare(scene: &Scene, options: BuildOptions) -> Result<PreparedScene, BuildError> {
    let mut images = Vec::new();
    let mut reports = Vec::new();
    for body in &scene.bodies {
        let tree = match &body.tree {
            // The scene file's loader admits only `TREE_NAMES`, which all parse.
            Some(name) => name.parse::<TreeKind>().map_err(BuildError::BadMesh)?,
            None => options.tree,
        };
        let options = BuildOptions { tree, ..options };
        let (image, report) = build(&body.mesh, body.basis.as_ref(), options, &mut |_| {})
            .map_err(|e| match e {
                BuildError::NotClosed(m) => BuildError::NotClosed(format!(
                    "body \"{}\" ({}): {m}",
                    body.name,
                    body.mesh_path.display()
                )),
                e => e,
            })?;
        images.push(image);
        reports.push(report);
    }
    Ok(PreparedScene { images, reports })
}

/// Why running a scene failed: the scene file, frame or body concerned, and the problem.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum RunError {
    /// A body's tree could not be built.
    Build {
        /// The scene file.
        scene: PathBuf,
        /// The problem.
        error: BuildError,
    },
    /// A tree image of the scene does not parse.
    Image {
        /// The scene file.
        scene: PathBuf,
        /// The problem.
        error: ImageError,
    },
    /// A tree image does not parse (no scene file involved).
    Tree(ImageError),
    /// The frame does not exist (the runner's own index).
    NoFrame {
        /// The frame asked for.
        frame: usize,
    },
    /// The frame asked for is not in the scene file.
    UnknownFrame {
        /// The scene file.
        scene: PathBuf,
        /// The frame asked for.
        frame: usize,
        /// Frames in the scene.
        frames: usize,
    },
    /// The host layer refused a state or a primitive of a body (`frame` when it is a frame's),
    /// or a query of a frame failed (then `body` is empty).
    Host {
        /// The frame.
        frame: Option<usize>,
        /// The body's name.
        body: String,
        /// The problem, naming the argument and its value.
        error: HostError,
    },
}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Build { scene, error } => write!(f, "{}: {error}", scene.display()),
            Self::Image { scene, error } => write!(f, "{}: {error}", scene.display()),
            Self::Tree(error) => error.fmt(f),
            Self::NoFrame { frame } => write!(f, "frame {frame} does not exist"),
            Self::UnknownFrame {
                scene,
                frame,
                frames,
            } => write!(
                f,
                "{}: frame {frame} does not exist (the scene has {frames} frame{})",
                scene.display(),
                if *frames == 1 { "" } else { "s" }
            ),
            Self::Host { frame, body, error } => {
                let place = match (frame, body.is_empty()) {
                    (Some(n), false) => format!("frame {n}, body {body}: "),
                    (Some(n), true) => format!("frame {n}: "),
                    (None, false) => format!("body {body}: "),
                    (None, true) => String::new(),
                };
                write!(f, "{place}{error}")
            }
        }
    }
}

impl std::error::Error for RunError {}

/// Every image of a prepared scene, parsed in scalar `S`.
pub(crate) fn parse_images<'b, S: Scalar>(
    scene: &Scene,
    prepared: &'b PreparedScene,
) -> Result<Vec<Image<'b, S>>, RunError> {
    prepared
        .images
        .iter()
        .map(|buf| buf.parse::<S>())
        .collect::<Result<Vec<_>, _>>()
        .map_err(|error| RunError::Image {
            scene: scene.path.clone(),
            error,
        })
}

/// The floating origin of a whole frame over `frames`: the centre of the box around every mesh
/// body's translation in those frames ([`floating_origin`]; the world origin for a scene
/// without mesh bodies). The runners place each body pair at its own origin
/// ([`crate::host::placing`]); for a scene of two bodies this is that pair's origin (over two
/// frames: its swept origin). The interrupted-query table places whole frames here.
pub fn frame_origin(scene: &Scene, frames: impl IntoIterator<Item = usize>) -> [f64; 3] {
    let translations: Vec<[f64; 3]> = frames
        .into_iter()
        .flat_map(|f| scene.frames.get(f).into_iter().flatten())
        .map(|(pose, _)| pose.translation)
        .collect();
    floating_origin(&translations)
}

/// The host world of a prepared scene: a [`Tree`] per image (in its own precision, which must
/// be `S`'s: a mismatch is the parser's error), a [`HostBody`] per mesh body, a [`Primitive`] per
/// primitive body (at its first frame's pose). States are set per frame by [`set_world_frame`].
pub fn world<S: Scalar>(scene: &Scene, prepared: &PreparedScene) -> Result<World, RunError> {
    // The precision the caller asked for must be the images'.
    parse_images::<S>(scene, prepared)?;
    let image_error = |body: usize, error: HostError| RunError::Host {
        frame: None,
        body: scene.name(body).to_string(),
        error,
    };
    let mut bodies = Vec::with_capacity(prepared.images.len());
    for (b, image) in prepared.images.iter().enumerate() {
        let tree = Tree::new(image.clone()).map_err(|e| image_error(b, e))?;
        bodies.push(HostBody::new(&tree).map_err(|e| image_error(b, e))?);
    }
    let n = bodies.len();
    let mut primitives = Vec::with_capacity(scene.primitives.len());
    for (p, primitive) in scene.primitives.iter().enumerate() {
        let pose = primitive
            .poses
            .first()
            .copied()
            .unwrap_or(crate::io::Pose::IDENTITY);
        primitives.push(Primitive::new(primitive.shape, pose).map_err(|e| image_error(n + p, e))?);
    }
    World::new(bodies, primitives).map_err(|e| image_error(0, e))
}

/// Sets every body's state and every primitive's pose of frame `f` in `world`, as the scene
/// gives them (f64).
pub fn set_world_frame(world: &mut World, scene: &Scene, f: usize) -> Result<(), RunError> {
    let frame = scene.frames.get(f).ok_or(RunError::NoFrame { frame: f })?;
    for (b, (body, (pose, q))) in world.bodies_mut().iter_mut().zip(frame).enumerate() {
        body.set_state(pose.rotation, pose.translation, q)
            .map_err(|error| RunError::Host {
                frame: Some(f),
                body: scene.name(b).to_string(),
                error,
            })?;
    }
    let n = scene.bodies.len();
    for (p, (slot, primitive)) in world
        .primitives_mut()
        .iter_mut()
        .zip(&scene.primitives)
        .enumerate()
    {
        let pose = *primitive
            .poses
            .get(f)
            .ok_or(RunError::NoFrame { frame: f })?;
        *slot = Primitive::new(primitive.shape, pose).map_err(|error| RunError::Host {
            frame: Some(f),
            body: scene.name(n + p).to_string(),
            error,
        })?;
    }
    Ok(())
}

/// A host error of frame `f` (no body named: a query's).
pub(crate) fn frame_error(f: usize) -> impl Fn(HostError) -> RunError {
    move |error| RunError::Host {
        frame: Some(f),
        body: String::new(),
        error,
    }
}

/// A world answer's items as `(a, b, ta, tb)` contacts.
fn numbered<T>(answer: &WorldAnswer<T>, triangles: impl Fn(&T) -> [u32; 2]) -> Vec<Contact> {
    answer
        .found
        .iter()
        .map(|f| {
            let [ta, tb] = triangles(&f.item);
            (f.bodies[0], f.bodies[1], ta, tb)
        })
        .collect()
}

/// Runs every frame `repeat` times (at least once) in scalar `S`. Returns the answers of the
/// last run and the mean wall time per frame in milliseconds (setting states and querying;
/// building excluded).
pub fn run<S: Scalar>(
    scene: &Scene,
    prepared: &PreparedScene,
    repeat: usize,
) -> Result<(Vec<FrameResult>, f64), RunError> {
    run_with::<S>(scene, prepared, repeat, None, false)
}

/// [`run`], or with `proxy_depth` the overlapping proxies of every body pair
/// ([`World::proxies`]; the trees must be built nested) in [`FrameResult::proxies`]; with
/// `self_pairs` each body's self-collisions are added to [`FrameResult::pairs`] as
/// `(b, b, ta, tb)`. Triangle pairs come from [`World::pairs`]: its broad phase, then every
/// body pair that may touch at its own origin, refined in f64 in f32 (the f32 answer's extras
/// are only pairs within the bound of [`crate::host::placing`]). The counters are the kernel
/// walks' (a body pair the broad phase or its certificate settles visits no node pair).
pub fn run_with<S: Scalar>(
    scene: &Scene,
    prepared: &PreparedScene,
    repeat: usize,
    proxy_depth: Option<u32>,
    self_pairs: bool,
) -> Result<(Vec<FrameResult>, f64), RunError> {
    run_placed::<S>(
        scene,
        prepared,
        repeat,
        proxy_depth,
        self_pairs,
        Placement::PerPair,
    )
}

/// [`run_with`] with the world's [`Placement`].
fn run_placed<S: Scalar>(
    scene: &Scene,
    prepared: &PreparedScene,
    repeat: usize,
    proxy_depth: Option<u32>,
    self_pairs: bool,
    placement: Placement,
) -> Result<(Vec<FrameResult>, f64), RunError> {
    let mut world = world::<S>(scene, prepared)?;
    world.set_placement(placement);
    timed_frames(&mut world, scene, repeat, |world, f| {
        let mut result = FrameResult {
            complete: true,
            ..FrameResult::default()
        };
        if let Some(l) = proxy_depth {
            let answer = world.proxies(l).map_err(frame_error(f))?;
            result.stats = answer.stats;
            result.proxies = answer
                .found
                .iter()
                .map(|p| ProxyContact {
                    bodies: (p.bodies[0], p.bodies[1]),
                    nodes: (p.item.nodes[0], p.item.nodes[1]),
                    spheres: p.item.spheres,
                    depth: p.item.depth,
                })
                .collect();
            // The device's path replays no proxies against primitives.
            if placement == Placement::PerPair {
                let answer = world.primitive_proxies(l).map_err(frame_error(f))?;
                result.stats.add(&answer.stats);
                result.primitive_proxies = answer
                    .found
                    .iter()
                    .map(|p| PrimitiveProxyContact {
                        bodies: (p.bodies[0], p.bodies[1]),
                        node: p.item.node,
                        sphere: p.item.sphere,
                        depth: p.item.depth,
                    })
                    .collect();
            }
        } else {
            let answer = world.pairs(self_pairs).map_err(frame_error(f))?;
            result.stats = answer.stats;
            result.pairs = numbered(&answer, |p| *p);
        }
        Ok(result)
    })
}

/// Runs `frame` on every frame of `scene`, `repeat` times (at least once), after setting the
/// frame's states in `world` ([`set_world_frame`]): the answers of the last run and the mean
/// wall time per frame in milliseconds.
pub(super) fn timed_frames(
    world: &mut World,
    scene: &Scene,
    repeat: usize,
    mut frame: impl FnMut(&mut World, usize) -> Result<FrameResult, RunError>,
) -> Result<(Vec<FrameResult>, f64), RunError> {
    let mut results = Vec::new();
    let start = Instant::now();
    let runs = repeat.max(1);
    for _ in 0..runs {
        results.clear();
        for f in 0..scene.frames.len() {
            set_world_frame(world, scene, f)?;
            results.push(frame(world, f)?);
        }
    }
    let per_frame_ms =
        start.elapsed().as_secs_f64() * 1e3 / (runs * scene.frames.len().max(1)) as f64;
    Ok((results, per_frame_ms))
}

/// The device's answer: [`run_with`] on the host world's device path
/// ([`Placement::Device`]: every state rounded to `S` first and taken as exact at the world
/// origin, the kernel's own world query and primitives placed in `S`, no second stage: in f32
/// it holds the widened test's extras). The firmware replay's reference; with `proxy_depth`,
/// every body pair's proxies (none against primitives).
pub fn run_unrefined<S: Scalar>(
    scene: &Scene,
    prepared: &PreparedScene,
    proxy_depth: Option<u32>,
    self_pairs: bool,
) -> Result<Vec<FrameResult>, RunError> {
    run_placed::<S>(
        scene,
        prepared,
        1,
        proxy_depth,
        self_pairs,
        Placement::Device,
    )
    .map(|(results, _)| results)
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

/// A world answer as a frame's: the items numbered `(a, b, ta, tb)` by `item` (which fills
/// the triangles; the bodies are set here), in the world's order (sorted by pair).
pub(crate) fn answer_of<T, U>(
    frame: usize,
    answer: WorldAnswer<T>,
    item: impl Fn(&T) -> U,
) -> FrameAnswer<U>
where
    U: Numbered + Copy,
{
    let items: Vec<U> = answer
        .found
        .iter()
        .map(|f| item(&f.item).with_bodies(f.bodies[0], f.bodies[1]))
        .collect();
    let result = FrameResult {
        pairs: items.iter().map(Numbered::pair).collect(),
        stats: answer.stats,
        complete: true,
        ..FrameResult::default()
    };
    FrameAnswer {
        frame,
        result,
        items,
    }
}

/// An item numbered by its pair `(a, b, ta, tb)`.
pub(crate) trait Numbered {
    fn pair(&self) -> Contact;
    fn with_bodies(self, a: usize, b: usize) -> Self;
}

/// `impl Numbered` for a type with a `pair: Contact` field.
macro_rules! impl_numbered {
    ($t:ty) => {
        impl Numbered for $t {
            fn pair(&self) -> Contact {
                self.pair
            }
            fn with_bodies(mut self, a: usize, b: usize) -> Self {
                self.pair.0 = a;
                self.pair.1 = b;
                self
            }
        }
    };
}
pub(crate) use impl_numbered;
