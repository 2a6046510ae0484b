//! Running a scene: build every body's tree, then per frame set every body's state and find all
//! intersecting triangle pairs between distinct bodies with the kernel.

use std::time::Instant;

use bdtree_core::{
    collide, stack_capacity, Body, CacheEntry, Pose, QueryStats, Scalar, TrianglePair, VertexEntry,
};

use crate::builder::{build, BuildError, BuildOptions, BuildReport, ImageBuf};
use crate::oracle;
use crate::scene::Scene;

/// Most modes a body may have on the host.
pub const HOST_MAX_MODES: usize = 128;

/// One contact: body indices (a < b) and triangle indices (face order of each mesh).
pub type Contact = (usize, usize, u32, u32);

/// The answer for one frame.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FrameResult {
    /// Intersecting pairs, sorted.
    pub pairs: Vec<Contact>,
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

/// Runs every frame `repeat` times (at least once) in scalar `S`. Returns the answers of the
/// last run and the mean wall time per frame in milliseconds (setting states and querying;
/// building excluded).
pub fn run<S: Scalar>(
    scene: &Scene,
    prepared: &PreparedScene,
    repeat: usize,
) -> Result<(Vec<FrameResult>, f64), RunError> {
    let images = prepared
        .images
        .iter()
        .map(|buf| buf.parse::<S>())
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| RunError(format!("{}: {e}", scene.path.display())))?;
    let mut caches: Vec<Vec<CacheEntry<S>>> = images
        .iter()
        .map(|im| vec![CacheEntry::default(); im.tree.node_count()])
        .collect();
    let mut vertex_caches: Vec<Vec<VertexEntry<S>>> = images
        .iter()
        .map(|im| vec![VertexEntry::default(); im.model.positions().len()])
        .collect();
    let mut bodies = Vec::new();
    for (((image, cache), vertices), spec) in images
        .iter()
        .zip(caches.iter_mut())
        .zip(vertex_caches.iter_mut())
        .zip(&scene.bodies)
    {
        let body = Body::<S, HOST_MAX_MODES>::new(image, cache)
            .and_then(|b| b.with_vertex_cache(vertices))
            .map_err(|e| RunError(format!("body {}: {e}", spec.name)))?;
        bodies.push(body);
    }
    let depth = images.iter().map(|im| im.tree.depth()).max().unwrap_or(0);
    let mut stack = vec![[0u32; 2]; stack_capacity(depth, depth)];
    let mut q = Vec::new();
    let mut results = Vec::new();
    let start = Instant::now();
    let runs = repeat.max(1);
    for run in 0..runs {
        results.clear();
        for (f, frame) in scene.frames.iter().enumerate() {
            for (b, (body, (pose, qf))) in bodies.iter_mut().zip(frame).enumerate() {
                let pose =
                    Pose::from_quaternion(to_scalars(pose.rotation), to_scalars(pose.translation))
                        .map_err(|e| {
                            RunError(format!("frame {f}, body {}: {e}", scene.bodies[b].name))
                        })?;
                q.clear();
                q.extend(qf.iter().map(|&x| S::from_f64(x)));
                body.set_state(pose, &q).map_err(|e| {
                    RunError(format!("frame {f}, body {}: {e}", scene.bodies[b].name))
                })?;
            }
            let mut result = FrameResult {
                complete: true,
                ..FrameResult::default()
            };
            for i in 0..bodies.len() {
                let (head, tail) = bodies.split_at_mut(i + 1);
                let a = &mut head[i];
                for (k, b) in tail.iter_mut().enumerate() {
                    let j = i + 1 + k;
                    let mut sink = |p: TrianglePair| {
                        result.pairs.push((i, j, p.a, p.b));
                        true
                    };
                    let outcome = collide(a, b, &mut stack, &mut sink);
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
            }
            results.push(result);
        }
    }
    let per_frame_ms =
        start.elapsed().as_secs_f64() * 1e3 / (runs * scene.frames.len().max(1)) as f64;
    Ok((results, per_frame_ms))
}

/// The brute-force answer for one frame, in f64 on explicitly deformed meshes: every triangle
/// pair of every pair of distinct bodies.
pub fn brute_force_frame(scene: &Scene, frame: usize) -> Vec<Contact> {
    let world: Vec<Vec<[f64; 3]>> = scene
        .bodies
        .iter()
        .zip(&scene.frames[frame])
        .map(|(body, (pose, q))| oracle::deform(&body.mesh.vertices, body.basis.as_ref(), q, pose))
        .collect();
    let mut pairs = Vec::new();
    for i in 0..scene.bodies.len() {
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
