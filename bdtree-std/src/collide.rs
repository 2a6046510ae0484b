//! Running a scene: build every body's tree, then per frame set every body's state and find all
//! intersecting triangle pairs between distinct bodies with the kernel.

use crate::BodyStorage;
use std::time::Instant;

use bdtree_core::{
    collide, collide_proxies, collide_self, proxy_stack_capacity, self_stack_capacity,
    stack_capacity, Body, Image, NodeKind, Pose, ProxyPair, QueryStats, Scalar, TreeView,
    TrianglePair, VertexEntry,
};

use crate::builder::{build, BuildError, BuildOptions, BuildReport, ImageBuf};
use crate::oracle;
use crate::scene::Scene;

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

/// Builds every body's tree.
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

/// Why running a scene failed.
#[derive(Debug, Clone, PartialEq)]
pub struct RunError(pub String);

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
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
        .map_err(|e| RunError(format!("{}: {e}", scene.path.display())))
}

/// Sphere and vertex caches for every body of a scene.
pub(crate) struct Caches<S: Scalar> {
    spheres: Vec<BodyStorage<S>>,
    vertices: Vec<Vec<VertexEntry<S>>>,
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
        }
    }

    /// A body per image, with a vertex cache.
    pub(crate) fn bodies<'t, 'c>(
        &'c mut self,
        scene: &Scene,
        images: &[Image<'t, S>],
    ) -> Result<Vec<Body<'t, 'c, S>>, RunError> {
        let mut bodies = Vec::new();
        for (((image, cache), vertices), spec) in images
            .iter()
            .zip(self.spheres.iter_mut())
            .zip(self.vertices.iter_mut())
            .zip(&scene.bodies)
        {
            let body = cache
                .body(image)
                .and_then(|b| b.with_vertex_cache(vertices))
                .map_err(|e| RunError(format!("body {}: {e}", spec.name)))?;
            bodies.push(body);
        }
        Ok(bodies)
    }
}

/// Sets every body's pose and `q` from frame `f` (`q` is scratch space).
pub(crate) fn set_frame<S: Scalar>(
    scene: &Scene,
    f: usize,
    bodies: &mut [Body<'_, '_, S>],
    q: &mut Vec<S>,
) -> Result<(), RunError> {
    let frame = scene
        .frames
        .get(f)
        .ok_or_else(|| RunError(format!("frame {f} does not exist")))?;
    for (b, (body, (pose, qf))) in bodies.iter_mut().zip(frame).enumerate() {
        let err = |e: &dyn std::fmt::Display| {
            RunError(format!("frame {f}, body {}: {e}", scene.bodies[b].name))
        };
        let pose = Pose::from_quaternion(to_scalars(pose.rotation), to_scalars(pose.translation))
            .map_err(|e| err(&e))?;
        q.clear();
        q.extend(qf.iter().map(|&x| S::from_f64(x)));
        body.set_state(pose, q).map_err(|e| err(&e))?;
    }
    Ok(())
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
/// [`FrameResult::proxies`]; with `self_pairs` each body's self-collisions ([`collide_self`])
/// are added to [`FrameResult::pairs`] as `(b, b, ta, tb)`.
pub fn run_with<S: Scalar>(
    scene: &Scene,
    prepared: &PreparedScene,
    repeat: usize,
    proxy_depth: Option<u32>,
    self_pairs: bool,
) -> Result<(Vec<FrameResult>, f64), RunError> {
    let images = parse_images::<S>(scene, prepared)?;
    let mut caches = Caches::new(&images);
    let mut bodies = caches.bodies(scene, &images)?;
    let depth = images.iter().map(|im| im.tree.depth()).max().unwrap_or(0);
    let mut stack = vec![
        [0u32; 2];
        stack_capacity(depth, depth)
            .max(proxy_stack_capacity(depth, depth, depth, depth))
            .max(self_stack_capacity(depth))
    ];
    let mut q = Vec::new();
    let mut results = Vec::new();
    let start = Instant::now();
    let runs = repeat.max(1);
    for run in 0..runs {
        results.clear();
        for f in 0..scene.frames.len() {
            set_frame(scene, f, &mut bodies, &mut q)?;
            let mut result = FrameResult {
                complete: true,
                ..FrameResult::default()
            };
            for i in 0..bodies.len() {
                let (head, tail) = bodies.split_at_mut(i + 1);
                let a = &mut head[i];
                if self_pairs {
                    let mut sink = |p: TrianglePair| {
                        result.pairs.push((i, i, p.a, p.b));
                        true
                    };
                    let outcome = collide_self(a, &mut stack, &mut sink);
                    let s = &mut result.stats;
                    s.nodes_visited += outcome.stats.nodes_visited;
                    s.sphere_updates += outcome.stats.sphere_updates;
                    s.overlap_tests += outcome.stats.overlap_tests;
                    s.triangle_tests += outcome.stats.triangle_tests;
                    s.pairs += outcome.stats.pairs;
                    result.complete &= outcome.status.is_complete();
                }
                for (k, b) in tail.iter_mut().enumerate() {
                    let j = i + 1 + k;
                    let outcome = if let Some(l) = proxy_depth {
                        let mut sink = |p: ProxyPair<S>| {
                            let wide = |s: [S; 4]| s.map(|x| x.to_f64());
                            result.proxies.push(ProxyContact {
                                bodies: (i, j),
                                nodes: (p.a, p.b),
                                spheres: [wide(p.sphere_a), wide(p.sphere_b)],
                                depth: p.depth.to_f64(),
                            });
                            true
                        };
                        collide_proxies(a, l, b, l, &mut stack, &mut sink)
                    } else {
                        let mut sink = |p: TrianglePair| {
                            result.pairs.push((i, j, p.a, p.b));
                            true
                        };
                        collide(a, b, &mut stack, &mut sink)
                    };
                    let s = &mut result.stats;
                    s.nodes_visited += outcome.stats.nodes_visited;
                    s.sphere_updates += outcome.stats.sphere_updates;
                    s.overlap_tests += outcome.stats.overlap_tests;
                    s.triangle_tests += outcome.stats.triangle_tests;
                    s.pairs += outcome.stats.pairs;
                    result.complete &= outcome.status.is_complete();
                }
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

/// For every triangle of an image's tree, its proxy at `proxy_depth`: the ancestor at that
/// depth, or its own leaf when the leaf is shallower.
pub fn proxy_of_triangles(image: &ImageBuf, proxy_depth: u32) -> Result<Vec<u32>, RunError> {
    fn owners<S: Scalar>(tree: &TreeView<'_, S>, l: u32) -> Vec<u32> {
        let n = tree.node_count();
        let mut owner = vec![0u32; n];
        let mut by_triangle = vec![0u32; tree.triangle_count()];
        // Parents come before children.
        for k in 0..n {
            let depth = tree.node_depth(k).unwrap_or(0);
            if depth <= l {
                owner[k] = k as u32;
            }
            match tree.kind(k) {
                Some(NodeKind::Internal { left, right }) => {
                    let o = owner[k];
                    for c in [left, right] {
                        if let Some(slot) = owner.get_mut(c as usize) {
                            *slot = o;
                        }
                    }
                }
                Some(NodeKind::Leaf { triangle }) => {
                    if let Some(slot) = by_triangle.get_mut(triangle as usize) {
                        *slot = owner[k];
                    }
                }
                Some(NodeKind::Cut) | None => {}
            }
        }
        by_triangle
    }
    let scalar = image.header().map(|h| h.scalar_bytes);
    let err = |e: bdtree_core::ImageError| RunError(e.to_string());
    if scalar == Ok(8) {
        Ok(owners(
            &image.parse::<f64>().map_err(err)?.tree,
            proxy_depth,
        ))
    } else {
        Ok(owners(
            &image.parse::<f32>().map_err(err)?.tree,
            proxy_depth,
        ))
    }
}

/// The contacts of `truth` that lie under no reported proxy pair (must be empty: a proxy
/// query covers every intersecting triangle pair).
pub fn uncovered_contacts(
    prepared: &PreparedScene,
    proxy_depth: u32,
    proxies: &[ProxyContact],
    truth: &[Contact],
) -> Result<Vec<Contact>, RunError> {
    let owners = prepared
        .images
        .iter()
        .map(|image| proxy_of_triangles(image, proxy_depth))
        .collect::<Result<Vec<_>, _>>()?;
    let reported: std::collections::HashSet<((usize, usize), (u32, u32))> =
        proxies.iter().map(|p| (p.bodies, p.nodes)).collect();
    Ok(truth
        .iter()
        .copied()
        .filter(|&(a, b, ta, tb)| {
            let nodes = (owners[a][ta as usize], owners[b][tb as usize]);
            !reported.contains(&((a, b), nodes))
        })
        .collect())
}

/// The brute-force answer for one frame, in f64 on explicitly deformed meshes: every triangle
/// pair of every pair of distinct bodies.
pub fn brute_force_frame(scene: &Scene, frame: usize) -> Vec<Contact> {
    brute_force_frame_with(scene, frame, false)
}

/// [`brute_force_frame`], with `self_pairs` also every body's non-adjacent intersecting
/// triangle pairs ([`oracle::brute_force_self_pairs`]) as `(b, b, ta, tb)`.
pub fn brute_force_frame_with(scene: &Scene, frame: usize, self_pairs: bool) -> Vec<Contact> {
    let world: Vec<Vec<[f64; 3]>> = scene
        .bodies
        .iter()
        .zip(&scene.frames[frame])
        .map(|(body, (pose, q))| oracle::deform(&body.mesh.vertices, body.basis.as_ref(), q, pose))
        .collect();
    let mut pairs = Vec::new();
    for i in 0..scene.bodies.len() {
        if self_pairs {
            let found = oracle::brute_force_self_pairs(&world[i], &scene.bodies[i].mesh.triangles);
            pairs.extend(found.into_iter().map(|(ta, tb)| (i, i, ta, tb)));
        }
        for j in i + 1..scene.bodies.len() {
            let found = oracle::brute_force_pairs(
                &world[i],
                &scene.bodies[i].mesh.triangles,
                &world[j],
                &scene.bodies[j].mesh.triangles,
            );
            pairs.extend(found.into_iter().map(|(ta, tb)| (i, j, ta, tb)));
        }
    }
    pairs.sort_unstable();
    pairs
}

/// Kernel answer against the oracle: pairs the kernel missed (must be empty) and extra pairs it
/// reported, each with its f64 separation gap (small: within the rounding inflation).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Comparison {
    /// In the oracle's answer, not in the kernel's. A non-empty list is a bug.
    pub missed: Vec<Contact>,
    /// In the kernel's answer, not in the oracle's, with the f64 separating gap.
    pub extra: Vec<(Contact, f64)>,
}

/// Compares a kernel answer with the oracle's for one frame.
pub fn compare(
    scene: &Scene,
    frame: usize,
    kernel: &[Contact],
    oracle_pairs: &[Contact],
) -> Comparison {
    use std::collections::BTreeSet;
    let k: BTreeSet<_> = kernel.iter().copied().collect();
    let o: BTreeSet<_> = oracle_pairs.iter().copied().collect();
    let missed = o.difference(&k).copied().collect();
    let extra = k
        .difference(&o)
        .map(|&c| {
            let (i, j, ta, tb) = c;
            let tri = |b: usize, t: u32| -> [[f64; 3]; 3] {
                let body = &scene.bodies[b];
                let (pose, q) = &scene.frames[frame][b];
                body.mesh.triangles[t as usize].map(|v| {
                    let v = v as usize;
                    let mut x = body.mesh.vertices[v];
                    if let Some(basis) = &body.basis {
                        for (k, xk) in x.iter_mut().enumerate() {
                            for (j, qj) in q.iter().enumerate() {
                                *xk += basis.get(v, k, j) * qj;
                            }
                        }
                    }
                    pose.apply(x)
                })
            };
            (c, oracle::separation_gap(&tri(i, ta), &tri(j, tb)))
        })
        .collect();
    Comparison { missed, extra }
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
        set_frame(scene, f, &mut bodies, &mut q)?;
        let mut row = Vec::new();
        for i in 0..bodies.len() {
            let (head, tail) = bodies.split_at_mut(i + 1);
            let a = &mut head[i];
            for (k, b) in tail.iter_mut().enumerate() {
                let j = i + 1 + k;
                let outcome = bdtree_core::separation::nearest(a, b, &mut stack);
                let n = outcome.nearest.ok_or_else(|| {
                    RunError(format!(
                        "frame {f}: distance query ended {:?}",
                        outcome.status
                    ))
                })?;
                let wide = |v: [S; 3]| v.map(|x| x.to_f64());
                row.push(PairDistance {
                    bodies: (i, j),
                    distance: n.distance.to_f64(),
                    points: [wide(n.point_a), wide(n.point_b)],
                    normal: wide(n.normal),
                    triangles: (n.triangle_a, n.triangle_b),
                    intersecting: n.intersecting,
                });
            }
        }
        out.push(row);
    }
    Ok(out)
}

/// The brute-force minimum distance of bodies `a` and `b` in one frame (f64, every triangle
/// pair of the explicitly deformed meshes).
pub fn brute_force_distance_frame(scene: &Scene, frame: usize, a: usize, b: usize) -> Option<f64> {
    let world = |i: usize| {
        let (pose, q) = &scene.frames[frame][i];
        let body = &scene.bodies[i];
        oracle::deform(&body.mesh.vertices, body.basis.as_ref(), q, pose)
    };
    oracle::brute_force_distance(
        &world(a),
        &scene.bodies[a].mesh.triangles,
        &world(b),
        &scene.bodies[b].mesh.triangles,
    )
    .map(|(d, _, _)| d)
}
