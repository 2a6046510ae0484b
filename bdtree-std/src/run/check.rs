//! Kernel answers against the brute-force oracle: the f64 truth of a scene frame, the
//! comparison of a kernel answer with it, and the proxy cover check.

use std::collections::{BTreeSet, HashSet};

use bdtree_core::{NodeKind, Scalar, TreeView};

use super::scene::{Contact, PreparedScene, ProxyContact, RunError};
use crate::io::{ImageBuf, Scene};
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
    let reported: HashSet<((usize, usize), (u32, u32))> =
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
