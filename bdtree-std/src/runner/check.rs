//! Kernel answers against the brute-force oracle: the f64 truth of a scene frame, the
//! comparison of a kernel answer with it, and the proxy cover check.

use std::collections::{BTreeSet, HashSet};

use bdtree_core::{NodeKind, Scalar, TreeView};

use super::scene::{PreparedScene, PrimitiveProxyContact, RunError};
use crate::export::{Contact, ProxyContact};
use crate::io::{ImageBuf, Pose, Scene};
use crate::oracle;

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
    let err = RunError::Tree;
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

/// [`proxy_of_triangles`] of every body of a scene.
fn proxies_of_triangles(
    prepared: &PreparedScene,
    proxy_depth: u32,
) -> Result<Vec<Vec<u32>>, RunError> {
    prepared
        .images
        .iter()
        .map(|image| proxy_of_triangles(image, proxy_depth))
        .collect()
}

/// The contacts of `truth` that lie under no reported proxy pair (must be empty: a proxy
/// query covers every intersecting triangle pair).
pub fn uncovered_contacts(
    prepared: &PreparedScene,
    proxy_depth: u32,
    proxies: &[ProxyContact],
    truth: &[Contact],
) -> Result<Vec<Contact>, RunError> {
    let owners = proxies_of_triangles(prepared, proxy_depth)?;
    let reported: HashSet<((usize, usize), (u32, u32))> =
        proxies.iter().map(|p| (p.bodies, p.nodes)).collect();
    Ok(truth
        .iter()
        .copied()
        // Contacts with primitives (b ≥ bodies): `uncovered_primitive_contacts`.
        .filter(|&(_, b, _, _)| b < owners.len())
        .filter(|&(a, b, ta, tb)| {
            let nodes = (owners[a][ta as usize], owners[b][tb as usize]);
            !reported.contains(&((a, b), nodes))
        })
        .collect())
}

/// The triangles of `truth` touching a primitive body (`(b, n + p, t, 0)`) that lie under no
/// reported proxy of their body reaching into that primitive (must be empty: every triangle
/// touching a primitive lies under a proxy [`bdtree_core::collide_primitive_proxies`] reports).
pub fn uncovered_primitive_contacts(
    prepared: &PreparedScene,
    proxy_depth: u32,
    proxies: &[PrimitiveProxyContact],
    truth: &[Contact],
) -> Result<Vec<Contact>, RunError> {
    let owners = proxies_of_triangles(prepared, proxy_depth)?;
    let reported: HashSet<((usize, usize), u32)> =
        proxies.iter().map(|p| (p.bodies, p.node)).collect();
    Ok(truth
        .iter()
        .copied()
        .filter(|&(_, b, _, _)| b >= owners.len())
        .filter(|&(a, b, ta, _)| {
            let node = owners[a][ta as usize];
            !reported.contains(&((a, b), node))
        })
        .collect())
}

/// The brute-force answer for one frame, in f64 on explicitly deformed meshes: every triangle
/// pair of every pair of distinct bodies, and every triangle touching a primitive body
/// (`(b, n + p, t, 0)`, [`brute_force_primitive_frame`]).
pub fn brute_force_frame(scene: &Scene, frame: usize) -> Vec<Contact> {
    brute_force_frame_with(scene, frame, false)
}

/// [`brute_force_frame`], with `self_pairs` also every body's non-adjacent intersecting
/// triangle pairs ([`oracle::brute_force_self_pairs`]) as `(b, b, ta, tb)`.
///
/// The meshes are deformed relative to the frame's floating origin
/// ([`super::scene::frame_origin`], the runners' own): which triangles meet does not change
/// under a translation of the whole frame, and f64 is then accurate to the bodies' size and
/// their distance from each other instead of to their distance from the world origin (a
/// millimetre part 10⁴ units away would otherwise be deformed with rounding errors a tenth of
/// the kernel's f64 margin, and touching pairs would come and go with them).
pub fn brute_force_frame_with(scene: &Scene, frame: usize, self_pairs: bool) -> Vec<Contact> {
    let origin = super::scene::frame_origin(scene, [frame]);
    let world: Vec<Vec<[f64; 3]>> = scene
        .bodies
        .iter()
        .zip(&scene.frames[frame])
        .map(|(body, (pose, q))| {
            let pose = shifted(pose, origin);
            oracle::deform(&body.mesh.vertices, body.basis.as_ref(), q, &pose)
        })
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
    pairs.extend(primitive_pairs(scene, frame, &world, origin));
    pairs.sort_unstable();
    pairs
}

/// `pose` moved by `−origin`.
fn shifted(pose: &Pose, origin: [f64; 3]) -> Pose {
    Pose {
        translation: std::array::from_fn(|k| pose.translation[k] - origin[k]),
        ..*pose
    }
}

/// Primitive `p` of the scene in frame `f` as the oracle's [`oracle::Solid`] (posed in f64 by
/// the scene's own pose).
pub fn primitive_solid(scene: &Scene, p: usize, f: usize) -> Option<oracle::Solid> {
    let primitive = scene.primitives.get(p)?;
    Some(oracle::Solid::posed(
        &primitive.shape,
        primitive.poses.get(f)?,
    ))
}

/// Every triangle of every mesh body touching a primitive body in frame `f`, as
/// `(b, n + p, t, 0)` (f64 brute force, [`oracle::brute_force_primitive`]).
pub fn brute_force_primitive_frame(scene: &Scene, f: usize) -> Vec<Contact> {
    let world: Vec<Vec<[f64; 3]>> = (0..scene.bodies.len())
        .map(|b| scene.world_vertices(f, b).unwrap_or_default())
        .collect();
    let mut pairs = primitive_pairs(scene, f, &world, [0.0; 3]);
    pairs.sort_unstable();
    pairs
}

/// Every mesh triangle touching a primitive, the world (and the primitives) moved by
/// `−origin`.
fn primitive_pairs(
    scene: &Scene,
    f: usize,
    world: &[Vec<[f64; 3]>],
    origin: [f64; 3],
) -> Vec<Contact> {
    let n = scene.bodies.len();
    let mut pairs = Vec::new();
    for (p, primitive) in scene.primitives.iter().enumerate() {
        let Some(pose) = primitive.poses.get(f) else {
            continue;
        };
        let solid = oracle::Solid::posed(&primitive.shape, &shifted(pose, origin));
        for (b, body) in scene.bodies.iter().enumerate() {
            let found = oracle::brute_force_primitive(&world[b], &body.mesh.triangles, &solid);
            pairs.extend(found.into_iter().map(|t| (b, n + p, t, 0)));
        }
    }
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
            let gap = match j.checked_sub(scene.bodies.len()) {
                Some(p) => {
                    primitive_solid(scene, p, frame).map_or(f64::NAN, |s| s.gap(&tri(i, ta)))
                }
                None => oracle::separation_gap(&tri(i, ta), &tri(j, tb)),
            };
            (c, gap)
        })
        .collect();
    Comparison { missed, extra }
}

/// The brute-force minimum distance of bodies `a` and `b` in one frame (f64, every triangle
/// pair of the explicitly deformed meshes).
pub fn brute_force_distance_frame(scene: &Scene, frame: usize, a: usize, b: usize) -> Option<f64> {
    brute_force_distance_from(scene, &scene.frames[frame], a, b, [0.0; 3])
}

/// The brute-force minimum distance of bodies `a` and `b` at the poses and `q` of `frame`,
/// translated by `−origin` (f64, every triangle pair of the explicitly deformed meshes).
pub(super) fn brute_force_distance_from(
    scene: &Scene,
    frame: &[(Pose, Vec<f64>)],
    a: usize,
    b: usize,
    origin: [f64; 3],
) -> Option<f64> {
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

/// Body `b`'s pose and `q` at time `tau` of the motion from frame `f − 1` to frame `f` (`q` and
/// translation linear, rotation by slerp on the shorter arc), written independently of the
/// kernel's motion.
pub fn interpolated_state(scene: &Scene, f: usize, b: usize, tau: f64) -> Option<(Pose, Vec<f64>)> {
    let (p0, q0) = scene.frames.get(f.checked_sub(1)?)?.get(b)?;
    let (p1, q1) = scene.frames.get(f)?.get(b)?;
    let q = q0.iter().zip(q1).map(|(x, y)| x + tau * (y - x)).collect();
    let translation =
        [0, 1, 2].map(|k| p0.translation[k] + tau * (p1.translation[k] - p0.translation[k]));
    let unit = |r: [f64; 4]| {
        let n = r.iter().map(|x| x * x).sum::<f64>().sqrt();
        r.map(|x| x / n)
    };
    let (a, mut c) = (unit(p0.rotation), unit(p1.rotation));
    let mut cos: f64 = (0..4).map(|k| a[k] * c[k]).sum();
    if cos < 0.0 {
        c = c.map(|x| -x);
        cos = -cos;
    }
    let omega = cos.min(1.0).acos();
    let rotation = if omega < 1e-12 {
        unit([0, 1, 2, 3].map(|k| a[k] + tau * (c[k] - a[k])))
    } else {
        let (wa, wc) = (((1.0 - tau) * omega).sin(), (tau * omega).sin());
        unit([0, 1, 2, 3].map(|k| wa * a[k] + wc * c[k]))
    };
    Some((
        Pose {
            rotation,
            translation,
        },
        q,
    ))
}

/// Dense sampling of the motion from frame `f − 1` to frame `f` (`samples + 1` evenly spaced
/// times, both ends included), f64 brute force at each: every pair some sample finds, with
/// the first such time.
pub fn sampled_swept_frame(
    scene: &Scene,
    f: usize,
    samples: usize,
) -> std::collections::BTreeMap<Contact, f64> {
    let mut first = std::collections::BTreeMap::new();
    let samples = samples.max(1);
    for s in 0..=samples {
        let tau = s as f64 / samples as f64;
        let world: Vec<Vec<[f64; 3]>> = (0..scene.bodies.len())
            .filter_map(|b| {
                let (pose, q) = interpolated_state(scene, f, b, tau)?;
                let body = &scene.bodies[b];
                Some(oracle::deform(
                    &body.mesh.vertices,
                    body.basis.as_ref(),
                    &q,
                    &pose,
                ))
            })
            .collect();
        for i in 0..world.len() {
            for j in i + 1..world.len() {
                let found = oracle::brute_force_pairs(
                    &world[i],
                    &scene.bodies[i].mesh.triangles,
                    &world[j],
                    &scene.bodies[j].mesh.triangles,
                );
                for (ta, tb) in found {
                    first.entry((i, j, ta, tb)).or_insert(tau);
                }
            }
        }
    }
    first
}

/// Every body's world triangles in `frame` (a frame of `scene`), deformed explicitly in f64
/// ([`oracle::deform`]).
pub fn deformed_triangles(scene: &Scene, frame: &[(Pose, Vec<f64>)]) -> Vec<Vec<[[f64; 3]; 3]>> {
    scene
        .bodies
        .iter()
        .zip(frame)
        .map(|(body, (pose, q))| {
            let world = oracle::deform(&body.mesh.vertices, body.basis.as_ref(), q, pose);
            body.mesh
                .triangles
                .iter()
                .map(|t| t.map(|v| world[v as usize]))
                .collect()
        })
        .collect()
}

/// Every triangle pair of distinct bodies at most `distance` apart in frame `f`, with its
/// exact distance (f64 on the explicitly deformed meshes; boxes grown by `distance` skip the
/// pairs that are clearly farther).
pub fn brute_force_within_frame(scene: &Scene, f: usize, distance: f64) -> Vec<(Contact, f64)> {
    let Some(frame) = scene.frames.get(f) else {
        return Vec::new();
    };
    let triangles = deformed_triangles(scene, frame);
    let boxes = |ts: &[[[f64; 3]; 3]]| -> Vec<([f64; 3], [f64; 3])> {
        ts.iter()
            .map(|t| {
                let lo = [0, 1, 2].map(|k| t[0][k].min(t[1][k]).min(t[2][k]));
                let hi = [0, 1, 2].map(|k| t[0][k].max(t[1][k]).max(t[2][k]));
                (lo, hi)
            })
            .collect()
    };
    let mut out = Vec::new();
    for i in 0..triangles.len() {
        let bi = boxes(&triangles[i]);
        for j in i + 1..triangles.len() {
            let bj = boxes(&triangles[j]);
            for (ta, (la, ha)) in bi.iter().enumerate() {
                for (tb, (lb, hb)) in bj.iter().enumerate() {
                    if (0..3).any(|k| la[k] > hb[k] + distance || lb[k] > ha[k] + distance) {
                        continue;
                    }
                    let (d, _, _) = oracle::triangle_distance(&triangles[i][ta], &triangles[j][tb]);
                    if d <= distance {
                        out.push(((i, j, ta as u32, tb as u32), d));
                    }
                }
            }
        }
    }
    out
}

/// The distance from `p` to triangle `t` (f64).
pub fn point_triangle_distance(p: [f64; 3], t: &[[f64; 3]; 3]) -> f64 {
    oracle::triangle_distance(&[p, p, p], t).0
}
