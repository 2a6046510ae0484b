//! Running a scene (the scene runner): build every body's tree, then per frame set every body's
//! state and ask the kernel — every intersecting triangle pair between distinct bodies
//! ([`run`]), overlapping contact proxies or self-contacts ([`run_with`]), the nearest points
//! of every body pair ([`distances`]). [`super::check`] compares the answers with the oracle.
//!
//! **Primitive bodies** (planes, spheres, capsules, boxes of the scene file) take part in
//! [`run`], [`run_with`] without proxies, and [`super::run_contacts`]: per frame they are posed
//! with the kernel's [`Pose`] in the query's scalar and every mesh body is queried against
//! them by [`collide_world_primitives`] (its broad phase on root spheres, then
//! [`bdtree_core::collide_primitive`]). A pair is `(b, n + p, triangle, 0)` — the mesh body
//! first, the primitive (index `n + p`, `n` mesh bodies) second with triangle 0. Pairs of two
//! primitives are not queried, and f32 primitive pairs get no f64 second stage ([`refine()`] is
//! for triangle pairs): their extras are within the primitive query's `2T`. The other runs
//! ignore primitives (the CLI refuses them there).

use std::path::PathBuf;
use std::time::Instant;

use bdtree_core::{
    collide_proxies, collide_world, collide_world_primitives, primitive_stack_capacity,
    proxy_stack_capacity, refine, self_stack_capacity, stack_capacity, AllPairs, Body, BodyError,
    Image, ImageError, Pose, PoseError, Primitive, PrimitiveError, ProxyPair, QueryStats,
    QueryStatus, RunStatus, Scalar, SweepAndPrune, TrackEntry, VertexEntry, WorldContact,
    WorldOutcome, WorldPair,
};

use crate::build::{build, BuildError, BuildOptions, BuildReport};
use crate::io::scene::PrimitiveShape;
use crate::io::{ImageBuf, Scene};
use crate::BodyStorage;

/// One contact: body indices (a < b, or a == b for a self-contact, then ta < tb) and triangle
/// indices (face order of each mesh).
pub type Contact = (usize, usize, u32, u32);

/// An overlapping pair of contact proxies (see [`bdtree_core::proxy`]), widened to f64.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ProxyContact {
    /// Body indices, `a < b`.
    pub bodies: (usize, usize),
    /// The proxy node of each body.
    pub nodes: (u32, u32),
    /// The two world spheres `[x, y, z, r]`, in the mesh's units.
    pub spheres: [[f64; 4]; 2],
    /// Penetration depth `r_a + r_b − ‖c_b − c_a‖` (positive when overlapping).
    pub depth: f64,
}

/// The answer for one frame.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FrameResult {
    /// Intersecting pairs, sorted (empty for a proxy run).
    pub pairs: Vec<Contact>,
    /// Overlapping proxy pairs, sorted by bodies and nodes (empty unless a proxy run).
    pub proxies: Vec<ProxyContact>,
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
pub fn prepare(scene: &Scene, options: BuildOptions) -> Result<PreparedScene, BuildError> {
    let mut images = Vec::new();
    let mut reports = Vec::new();
    for body in &scene.bodies {
        let (image, report) = build(&body.mesh, body.basis.as_ref(), options, &mut |_| {})?;
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
    /// The kernel refused a body over its image.
    Body {
        /// The body's name.
        body: String,
        /// The problem.
        error: BodyError,
    },
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
    /// A frame's pose of a body is refused by the kernel.
    Pose {
        /// The frame.
        frame: usize,
        /// The body's name.
        body: String,
        /// The problem.
        error: PoseError,
    },
    /// A frame's state (`q`) of a body is refused by the kernel.
    State {
        /// The frame.
        frame: usize,
        /// The body's name.
        body: String,
        /// The problem.
        error: BodyError,
    },
    /// A frame's primitive is refused by the kernel (e.g. its size overflows `S`).
    Primitive {
        /// The frame.
        frame: usize,
        /// The primitive's name.
        body: String,
        /// The problem.
        error: PrimitiveError,
    },
    /// A nearest-points query ended without an answer.
    Distance {
        /// The frame.
        frame: usize,
        /// How it ended.
        status: QueryStatus,
    },
    /// An interrupted query found its state inconsistent.
    Interrupted {
        /// The frame.
        frame: usize,
        /// How it ended.
        status: RunStatus,
    },
}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Build { scene, error } => write!(f, "{}: {error}", scene.display()),
            Self::Image { scene, error } => write!(f, "{}: {error}", scene.display()),
            Self::Tree(error) => error.fmt(f),
            Self::Body { body, error } => write!(f, "body {body}: {error}"),
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
            Self::Pose { frame, body, error } => write!(f, "frame {frame}, body {body}: {error}"),
            Self::State { frame, body, error } => {
                write!(f, "frame {frame}, body {body}: {error}")
            }
            Self::Primitive { frame, body, error } => {
                write!(f, "frame {frame}, body {body}: {error}")
            }
            Self::Distance { frame, status } => {
                write!(f, "frame {frame}: distance query ended {status:?}")
            }
            Self::Interrupted { frame, status } => {
                write!(f, "frame {frame}: query ended {status:?}")
            }
        }
    }
}

impl std::error::Error for RunError {}

fn to_scalars<S: Scalar, const N: usize>(v: [f64; N]) -> [S; N] {
    v.map(S::from_f64)
}

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

/// Sphere and vertex caches for every body of a scene (and track caches, for the bodies that
/// end swept motions).
pub(crate) struct Caches<S: Scalar> {
    spheres: Vec<BodyStorage<S>>,
    vertices: Vec<Vec<VertexEntry<S>>>,
    tracks: Vec<Vec<TrackEntry<S>>>,
}

impl<S: Scalar> Caches<S> {
    pub(crate) fn new(images: &[Image<'_, S>]) -> Self {
        Self {
            spheres: images
                .iter()
                .map(|im| BodyStorage::new(im.tree.node_count()))
                .collect(),
            vertices: images
                .iter()
                .map(|im| vec![VertexEntry::default(); im.model.vertex_count()])
                .collect(),
            tracks: Vec::new(),
        }
    }

    /// With a track cache per body too (for the bodies at the end of swept motions).
    pub(crate) fn with_tracks(images: &[Image<'_, S>]) -> Self {
        Self {
            tracks: images
                .iter()
                .map(|im| vec![TrackEntry::default(); im.tree.node_count()])
                .collect(),
            ..Self::new(images)
        }
    }

    /// A body per image, with a vertex cache.
    pub(crate) fn bodies<'t, 'c>(
        &'c mut self,
        scene: &Scene,
        images: &[Image<'t, S>],
    ) -> Result<Vec<Body<'t, 'c, S>>, RunError> {
        let mut bodies = Vec::new();
        let mut tracks = self.tracks.iter_mut();
        for (((image, cache), vertices), spec) in images
            .iter()
            .zip(self.spheres.iter_mut())
            .zip(self.vertices.iter_mut())
            .zip(&scene.bodies)
        {
            let track = tracks.next();
            let body = cache
                .body(image)
                .and_then(|b| b.with_vertex_cache(vertices))
                .and_then(|b| match track {
                    Some(track) => b.with_track_cache(track),
                    None => Ok(b),
                })
                .map_err(|error| RunError::Body {
                    body: spec.name.clone(),
                    error,
                })?;
            bodies.push(body);
        }
        Ok(bodies)
    }
}

/// The floating origin of a run over `frames`: the centre of the box around every mesh body's
/// translation in those frames (the world origin for a scene without mesh bodies). Body
/// states are given to the kernel relative to it ([`Body::set_state_f64`]), so an f32 body's
/// precision depends on how far the bodies are from each other, not from the world origin;
/// answers in world coordinates are moved back by it.
pub fn frame_origin(scene: &Scene, frames: impl IntoIterator<Item = usize>) -> [f64; 3] {
    let mut low = [f64::INFINITY; 3];
    let mut high = [f64::NEG_INFINITY; 3];
    for f in frames {
        for (pose, _) in scene.frames.get(f).into_iter().flatten() {
            for k in 0..3 {
                low[k] = low[k].min(pose.translation[k]);
                high[k] = high[k].max(pose.translation[k]);
            }
        }
    }
    std::array::from_fn(|k| {
        let mid = 0.5 * low[k] + 0.5 * high[k];
        if mid.is_finite() {
            mid
        } else {
            0.0
        }
    })
}

/// `p + origin`: a point of a run's answer (relative to its floating origin) in the world.
pub(crate) fn to_world<S: Scalar>(p: [S; 3], origin: [f64; 3]) -> [f64; 3] {
    std::array::from_fn(|k| p[k].to_f64() + origin[k])
}

/// Sets every body's pose and `q` from frame `f`. With `Some(origin)` (what every runner
/// does) the state goes to the kernel in f64 relative to that floating origin, and the answer
/// is conservative against the scene's own state ([`Body::set_state_f64`]); with `None` it is
/// rounded to `S` first and taken as exact at the world origin, as a device given `S` values
/// computes it (the firmware replay's reference, [`run_unrefined`]). `q` is scratch space.
pub(crate) fn set_frame<S: Scalar>(
    scene: &Scene,
    f: usize,
    origin: Option<[f64; 3]>,
    bodies: &mut [Body<'_, '_, S>],
    q: &mut Vec<S>,
) -> Result<(), RunError> {
    let frame = scene.frames.get(f).ok_or(RunError::NoFrame { frame: f })?;
    for (b, (body, (pose, qf))) in bodies.iter_mut().zip(frame).enumerate() {
        let name = || scene.bodies[b].name.clone();
        let state = |error| RunError::State {
            frame: f,
            body: name(),
            error,
        };
        if let Some(origin) = origin {
            body.set_state_f64(pose.rotation, pose.translation, qf, origin)
                .map_err(|error| match error {
                    BodyError::Pose(error) => RunError::Pose {
                        frame: f,
                        body: name(),
                        error,
                    },
                    error => state(error),
                })?;
            continue;
        }
        let pose = Pose::from_quaternion(to_scalars(pose.rotation), to_scalars(pose.translation))
            .map_err(|error| RunError::Pose {
            frame: f,
            body: name(),
            error,
        })?;
        q.clear();
        q.extend(qf.iter().map(|&x| S::from_f64(x)));
        body.set_state(pose, q).map_err(state)?;
    }
    Ok(())
}

/// A scene primitive (local frame: [`crate::io::scene::primitive`]) placed by the kernel's
/// `pose`, as the kernel's [`Primitive`] in scalar `S`: a plane's unit normal turned by the
/// rotation and its offset moved by the translation, a sphere at the translation, a capsule's
/// ends `pose(0, 0, ∓h)`, a box with the rotation's columns as axes.
pub fn kernel_primitive<S: Scalar>(
    shape: &PrimitiveShape,
    pose: &Pose<S>,
) -> Result<Primitive<S>, PrimitiveError> {
    let s = S::from_f64;
    match *shape {
        PrimitiveShape::Plane { normal, offset } => {
            let len =
                (normal[0] * normal[0] + normal[1] * normal[1] + normal[2] * normal[2]).sqrt();
            let unit = normal.map(|x| S::from_f64(x / len));
            let n = pose.rotate(unit);
            let t = pose.translation;
            Primitive::plane(n, s(offset) + n[0] * t[0] + n[1] * t[1] + n[2] * t[2])
        }
        PrimitiveShape::Sphere(radius) => Primitive::sphere(pose.translation, s(radius)),
        PrimitiveShape::Capsule {
            radius,
            half_length,
        } => {
            let h = s(half_length);
            Primitive::capsule(
                pose.apply([S::ZERO, S::ZERO, S::ZERO - h]),
                pose.apply([S::ZERO, S::ZERO, h]),
                s(radius),
            )
        }
        PrimitiveShape::Box { half_extents } => {
            Primitive::oriented_box(pose, to_scalars(half_extents))
        }
    }
}

/// The kernel's primitives of frame `f`, in scalar `S`, into `out` (cleared): each scene
/// primitive in its local frame (see [`crate::io::scene::primitive`]) placed by the kernel's
/// [`Pose`] of the frame's rotation and translation less `origin` (the run's floating origin,
/// subtracted in f64).
pub(crate) fn set_primitives<S: Scalar>(
    scene: &Scene,
    f: usize,
    origin: [f64; 3],
    out: &mut Vec<Primitive<S>>,
) -> Result<(), RunError> {
    out.clear();
    for p in &scene.primitives {
        let place = p.poses.get(f).ok_or(RunError::NoFrame { frame: f })?;
        let t: [f64; 3] = std::array::from_fn(|k| place.translation[k] - origin[k]);
        let pose =
            Pose::from_quaternion(to_scalars(place.rotation), to_scalars(t)).map_err(|error| {
                RunError::Pose {
                    frame: f,
                    body: p.name.clone(),
                    error,
                }
            })?;
        let primitive = kernel_primitive(&p.shape, &pose);
        out.push(primitive.map_err(|error| RunError::Primitive {
            frame: f,
            body: p.name.clone(),
            error,
        })?);
    }
    Ok(())
}

/// Every mesh body against every primitive of the frame ([`collide_world_primitives`]); each
/// contact goes to `item(body, primitive index n + p, contact)`.
pub(crate) fn against_primitives<S: Scalar>(
    bodies: &mut [Body<'_, '_, S>],
    primitives: &[Primitive<S>],
    stack: &mut [[u32; 2]],
    mut item: impl FnMut(usize, usize, &WorldContact<S>),
) -> WorldOutcome {
    let n = bodies.len();
    let mut sink = |c: WorldContact<S>| {
        item(c.body as usize, n + c.primitive as usize, &c);
        true
    };
    collide_world_primitives(bodies, primitives, &AllPairs, stack, &mut sink)
}

/// Every body pair's overlapping proxies at depth `l` ([`collide_proxies`]; the kernel has no
/// world proxy query), widened to f64 in world coordinates, into `result`.
fn proxy_pairs<S: Scalar>(
    bodies: &mut [Body<'_, '_, S>],
    l: u32,
    origin: [f64; 3],
    stack: &mut [[u32; 2]],
    result: &mut FrameResult,
) {
    for i in 0..bodies.len() {
        let (head, tail) = bodies.split_at_mut(i + 1);
        let a = &mut head[i];
        for (k, b) in tail.iter_mut().enumerate() {
            let j = i + 1 + k;
            let proxies = &mut result.proxies;
            let mut sink = |p: ProxyPair<S>| {
                let wide = |s: [S; 4]| {
                    let c = to_world([s[0], s[1], s[2]], origin);
                    [c[0], c[1], c[2], s[3].to_f64()]
                };
                proxies.push(ProxyContact {
                    bodies: (i, j),
                    nodes: (p.a, p.b),
                    spheres: [wide(p.sphere_a), wide(p.sphere_b)],
                    depth: p.depth.to_f64(),
                });
                true
            };
            let outcome = collide_proxies(a, l, b, l, stack, &mut sink);
            result.stats.add(&outcome.stats);
            result.complete &= outcome.status.is_complete();
        }
    }
}

/// Stack entries for every query of a run on trees of this depth.
pub(crate) fn run_stack_capacity(depth: u32) -> usize {
    stack_capacity(depth, depth)
        .max(proxy_stack_capacity(depth, depth, depth, depth))
        .max(self_stack_capacity(depth))
        .max(primitive_stack_capacity(depth))
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

/// [`run`], or with `proxy_depth` a bounded-depth proxy query per body pair
/// ([`collide_proxies`], the trees must be built nested) whose answers go to
/// [`FrameResult::proxies`]; with `self_pairs` each body's self-collisions
/// ([`bdtree_core::collide_self`]) are added to [`FrameResult::pairs`] as `(b, b, ta, tb)`.
/// Triangle pairs come from the kernel's world query ([`collide_world`]: its broad phase on
/// root spheres, then the pair and self queries), so the counters are the world query's
/// (a body pair the broad phase rejects visits no node pair). In f32 the triangle pairs are
/// re-tested in f64 ([`refine()`], the exact second stage), so the f32 answer's extras are only
/// pairs closer than the model's f32 storage rounding; the counters are the walk's.
pub fn run_with<S: Scalar>(
    scene: &Scene,
    prepared: &PreparedScene,
    repeat: usize,
    proxy_depth: Option<u32>,
    self_pairs: bool,
) -> Result<(Vec<FrameResult>, f64), RunError> {
    run_inner::<S>(scene, prepared, repeat, proxy_depth, self_pairs, true)
}

/// [`run_with`] without the exact second stage: the kernel's own answer, as a device computes
/// it (the firmware replay's reference). In f32 it holds the widened test's extras.
pub fn run_unrefined<S: Scalar>(
    scene: &Scene,
    prepared: &PreparedScene,
    proxy_depth: Option<u32>,
    self_pairs: bool,
) -> Result<Vec<FrameResult>, RunError> {
    run_inner::<S>(scene, prepared, 1, proxy_depth, self_pairs, false).map(|(r, _)| r)
}

fn run_inner<S: Scalar>(
    scene: &Scene,
    prepared: &PreparedScene,
    repeat: usize,
    proxy_depth: Option<u32>,
    self_pairs: bool,
    refined: bool,
) -> Result<(Vec<FrameResult>, f64), RunError> {
    let images = parse_images::<S>(scene, prepared)?;
    let mut caches = Caches::new(&images);
    let mut bodies = caches.bodies(scene, &images)?;
    let depth = images.iter().map(|im| im.tree.depth()).max().unwrap_or(0);
    let mut stack = vec![[0u32; 2]; run_stack_capacity(depth)];
    let mut q = Vec::new();
    let mut primitives = Vec::new();
    let mut found = Vec::new();
    let mut pairs = Vec::new();
    let mut order = vec![0u32; bodies.len()];
    let mut roots = vec![[S::ZERO; 4]; bodies.len()];
    let mut results = Vec::new();
    let start = Instant::now();
    let runs = repeat.max(1);
    for run in 0..runs {
        results.clear();
        for f in 0..scene.frames.len() {
            // The device path (unrefined) sits at the world origin, as the firmware does.
            let origin = if refined {
                frame_origin(scene, [f])
            } else {
                [0.0; 3]
            };
            set_frame(scene, f, refined.then_some(origin), &mut bodies, &mut q)?;
            let mut result = FrameResult {
                complete: true,
                ..FrameResult::default()
            };
            if let Some(l) = proxy_depth {
                proxy_pairs(&mut bodies, l, origin, &mut stack, &mut result);
            } else {
                // Distinct body pairs always, each body against itself when asked.
                let filter = |i: usize, j: usize| i != j || self_pairs;
                let mut sweep = SweepAndPrune::new(&mut order);
                found.clear();
                let mut sink = |p: WorldPair| {
                    found.push(p);
                    true
                };
                let outcome = collide_world(
                    &mut bodies,
                    &mut sweep,
                    &mut roots,
                    &filter,
                    &mut stack,
                    &mut sink,
                );
                result.stats.add(&outcome.stats);
                result.complete &= outcome.status.is_complete();
                // A narrow query delivers its pairs together: refine each body pair's run.
                for group in found.chunk_by(|x, y| (x.a, x.b) == (y.a, y.b)) {
                    let (i, j) = (group[0].a as usize, group[0].b as usize);
                    pairs.clear();
                    pairs.extend(group.iter().map(|w| w.triangles));
                    let kept = if refined {
                        refine(&bodies[i], &bodies[j], &mut pairs)
                    } else {
                        pairs.len()
                    };
                    let kept = pairs.get(..kept).unwrap_or(&[]);
                    result.pairs.extend(kept.iter().map(|p| (i, j, p.a, p.b)));
                }
            }
            if proxy_depth.is_none() && !scene.primitives.is_empty() {
                set_primitives(scene, f, origin, &mut primitives)?;
                let pairs = &mut result.pairs;
                let outcome =
                    against_primitives(&mut bodies, &primitives, &mut stack, |b, p, c| {
                        pairs.push((b, p, c.contact.a, c.contact.b));
                    });
                result.stats.add(&outcome.stats);
                result.complete &= outcome.status.is_complete();
            }
            if run + 1 == runs {
                result.pairs.sort_unstable();
                result.proxies.sort_unstable_by_key(|p| (p.bodies, p.nodes));
            }
            results.push(result);
        }
    }
    let per_frame_ms =
        start.elapsed().as_secs_f64() * 1e3 / (runs * scene.frames.len().max(1)) as f64;
    Ok((results, per_frame_ms))
}

/// The nearest points of one body pair in one frame, widened to f64 (see
/// [`bdtree_core::separation::nearest`]).
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

/// Per frame, the nearest points of every body pair, in scalar `S`.
pub fn distances<S: Scalar>(
    scene: &Scene,
    prepared: &PreparedScene,
) -> Result<Vec<Vec<PairDistance>>, RunError> {
    let images = parse_images::<S>(scene, prepared)?;
    let mut caches = Caches::new(&images);
    let mut bodies = caches.bodies(scene, &images)?;
    let depth = images.iter().map(|im| im.tree.depth()).max().unwrap_or(0);
    let mut stack = vec![[0u32; 2]; stack_capacity(depth, depth)];
    let mut out = Vec::new();
    let mut q = Vec::new();
    for f in 0..scene.frames.len() {
        let origin = frame_origin(scene, [f]);
        set_frame(scene, f, Some(origin), &mut bodies, &mut q)?;
        let mut row = Vec::new();
        for i in 0..bodies.len() {
            let (head, tail) = bodies.split_at_mut(i + 1);
            let a = &mut head[i];
            for (k, b) in tail.iter_mut().enumerate() {
                let j = i + 1 + k;
                let outcome = bdtree_core::separation::nearest(a, b, &mut stack);
                let n = outcome.nearest.ok_or(RunError::Distance {
                    frame: f,
                    status: outcome.status,
                })?;
                row.push(PairDistance {
                    bodies: (i, j),
                    distance: n.distance.to_f64(),
                    points: [to_world(n.point_a, origin), to_world(n.point_b, origin)],
                    normal: n.normal.map(|x| x.to_f64()),
                    triangles: (n.triangle_a, n.triangle_b),
                    intersecting: n.intersecting,
                });
            }
        }
        out.push(row);
    }
    Ok(out)
}
