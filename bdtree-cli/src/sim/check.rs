//! The demo's check: the chair–chair **proxy contacts** the simulation used at one step against
//! a brute force that shares nothing with the traversal.
//!
//! The brute force computes every contact proxy's sphere (the nodes of the tree's cut at the
//! proxy depth) in f64 from the stored node rows — centre `c + Σ_j Ū_j q_j`, radius
//! `R + Σ_j ΔR_j |q_j|`, posed by the chair's rotation and position — checks that each one
//! contains the vertices of its triangles deformed explicitly in f64 (so the truth is a true
//! bound of the geometry), and tests every proxy pair of every chair pair whose root spheres
//! overlap. Every pair whose spheres overlap by more than the f64 rounding must be among the
//! simulation's contacts (a **missed** contact fails the check); a reported pair that is not
//! one must be within the f32 rounding of touching (an **extra** farther apart fails too).
//!
//! Only the proxies of one chair that reach into the other chair's root sphere can overlap
//! one of its proxies — when every proxy sphere of the other chair lies inside its root
//! sphere, which the brute force checks on its own f64 spheres (the chair's tree is nested);
//! a chair whose proxies are not all inside gets no such cut. At depth 10 (a heap of chairs,
//! 1,024 proxies each) this keeps the brute force to the proxies near each contact. The chair
//! pairs are compared on all threads.

use std::fmt;

use rayon::prelude::*;

use bdtree_core::image::tree::{NodeKind, TreeView};
use bdtree_core::ImageError;
use bdtree_std::host::level_cut;

use super::chairs::{mat_vec, rotation_matrix, Chair, Placement, ProxyContact};

/// Why [`proxy_check`] failed.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum CheckError {
    /// The chair's image did not parse.
    Image(ImageError),
    /// A node row the tree should have is missing.
    MissingNode(u32),
    /// The simulation missed a proxy contact the brute force found: a bug.
    Missed {
        /// The chairs.
        chairs: [usize; 2],
        /// Their proxy nodes.
        nodes: [u32; 2],
        /// How much the brute-force spheres overlap, m.
        overlap: f64,
    },
    /// The simulation reported a proxy contact whose brute-force spheres are apart by more
    /// than the f32 rounding.
    Extra {
        /// The chairs.
        chairs: [usize; 2],
        /// Their proxy nodes.
        nodes: [u32; 2],
        /// The gap between the brute-force spheres, m (infinite for a node that is no proxy).
        gap: f64,
    },
    /// A brute-force proxy sphere does not contain its triangles: the truth is no bound.
    Outside {
        /// The chair.
        chair: usize,
        /// The proxy node.
        node: u32,
        /// The triangle with a vertex outside.
        triangle: u32,
        /// How far outside, m.
        by: f64,
    },
}

impl fmt::Display for CheckError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Image(e) => e.fmt(f),
            Self::MissingNode(k) => write!(f, "the chair's tree has no node {k}"),
            Self::Missed {
                chairs: [i, j],
                nodes: [k, l],
                overlap,
            } => write!(
                f,
                "chairs {i}, {j}: proxies {k}, {l} overlap by {overlap:.3e} m (brute force) but \
                 the simulation has no contact for them"
            ),
            Self::Extra {
                chairs: [i, j],
                nodes: [k, l],
                gap,
            } => write!(
                f,
                "chairs {i}, {j}: the simulation has a contact for proxies {k}, {l}, which the \
                 brute force finds {gap:.3e} m apart"
            ),
            Self::Outside {
                chair,
                node,
                triangle,
                by,
            } => write!(
                f,
                "chair {chair}: triangle {triangle} reaches {by:.3e} m outside the sphere of its \
                 proxy {node}"
            ),
        }
    }
}

impl std::error::Error for CheckError {}

/// The f64 rounding allowance of the brute-force spheres, relative to a chair's size plus its
/// distance from the origin (the sums have 10 modes and a rotation: a few hundred ulps).
const F64_ROUNDING: f64 = 1e-13;
/// How far apart (relative to a chair's root radius) a reported pair's brute-force spheres
/// may be: the kernel's f32 spheres are inflated by their rounding bound (~10⁻⁶ of the size).
const F32_ROUNDING: f64 = 1e-4;

/// What [`proxy_check`] compared.
#[derive(Debug, Clone, PartialEq)]
pub struct ProxyCheck {
    /// Chair pairs whose root spheres overlap (brute force over every chair pair).
    pub chair_pairs: usize,
    /// Proxy pairs tested by brute force.
    pub proxy_pairs: usize,
    /// Proxies whose spheres were checked to contain their deformed triangles.
    pub proxies: usize,
    /// Proxy pairs whose brute-force spheres overlap.
    pub truth: usize,
    /// The simulation's proxy contacts.
    pub reported: usize,
    /// Reported pairs the brute force finds apart (within the f32 rounding).
    pub extra: usize,
}

/// One chair's brute-force proxy spheres (world, f64), by proxy node.
struct Spheres {
    root: [f64; 4],
    proxies: Vec<(u32, [f64; 4])>,
}

/// The world sphere of `node` of chair `p` in f64 from the stored rows.
fn sphere(tree: &TreeView<'_, f32>, node: u32, p: &Placement) -> Result<[f64; 4], CheckError> {
    let row = |r: usize| {
        tree.row(node as usize, r)
            .map(|x| x.map(f64::from))
            .ok_or(CheckError::MissingNode(node))
    };
    let head = row(0)?;
    let (mut c, mut radius) = ([head[0], head[1], head[2]], head[3]);
    for (j, &q) in p.q.iter().enumerate().take(tree.modes()) {
        let m = row(j + 1)?;
        for k in 0..3 {
            c[k] += m[k] * q;
        }
        radius += m[3] * q.abs();
    }
    let r = rotation_matrix(p.rotation);
    let w = mat_vec(&r, c);
    Ok([w[0] + p.x[0], w[1] + p.x[1], w[2] + p.x[2], radius])
}

/// The triangles below `node`.
fn triangles_below(tree: &TreeView<'_, f32>, node: u32) -> Vec<u32> {
    let (mut out, mut stack) = (Vec::new(), vec![node]);
    while let Some(k) = stack.pop() {
        match tree.kind(k as usize) {
            Some(NodeKind::Internal { left, right }) => stack.extend([left, right]),
            Some(NodeKind::Leaf { triangle }) => out.push(triangle),
            _ => {}
        }
    }
    out
}

/// `r_a + r_b − ‖c_b − c_a‖`: positive when two spheres overlap.
fn overlap(a: [f64; 4], b: [f64; 4]) -> f64 {
    let d = (0..3).map(|k| (a[k] - b[k]).powi(2)).sum::<f64>().sqrt();
    a[3] + b[3] - d
}

/// Compares the proxy contacts `reported` (the simulation's at one step, proxy depth `depth`)
/// with the brute force on `placements` and the chairs' world vertices `worlds` (module docs).
/// A missed contact, an extra beyond the f32 rounding or a sphere not containing its
/// triangles is an error naming the chairs and nodes.
pub fn proxy_check(
    chair: &Chair,
    depth: u32,
    placements: &[Placement],
    worlds: &[Vec<[f64; 3]>],
    reported: &[ProxyContact],
) -> Result<ProxyCheck, CheckError> {
    let image = chair.image.parse::<f32>().map_err(CheckError::Image)?;
    let tree = image.tree;
    let cut = level_cut(&tree, depth);
    let below: Vec<Vec<u32>> = cut.iter().map(|&k| triangles_below(&tree, k)).collect();
    let spheres = placements
        .iter()
        .map(|p| {
            Ok(Spheres {
                root: sphere(&tree, 0, p)?,
                proxies: cut
                    .iter()
                    .map(|&k| Ok((k, sphere(&tree, k, p)?)))
                    .collect::<Result<_, CheckError>>()?,
            })
        })
        .collect::<Result<Vec<_>, CheckError>>()?;
    let tolerance = |i: usize| {
        let x = placements[i].x.iter().map(|v| v.abs()).fold(0.0, f64::max);
        F64_ROUNDING * (x + spheres[i].root[3])
    };
    let mut out = ProxyCheck {
        chair_pairs: 0,
        proxy_pairs: 0,
        proxies: 0,
        truth: 0,
        reported: reported.len(),
        extra: 0,
    };
    let mut chair_pairs = Vec::new();
    for i in 0..placements.len() {
        for j in i + 1..placements.len() {
            if overlap(spheres[i].root, spheres[j].root) >= 0.0 {
                chair_pairs.push((i, j));
            }
        }
    }
    out.chair_pairs = chair_pairs.len();
    let mut involved = vec![false; placements.len()];
    for &(i, j) in &chair_pairs {
        involved[i] = true;
        involved[j] = true;
    }
    let checked: Vec<usize> = (0..placements.len())
        .into_par_iter()
        .filter(|&c| involved[c])
        .map(|c| check_containment(chair, c, &spheres[c], &below, &worlds[c]))
        .collect::<Result<Vec<_>, CheckError>>()?;
    out.proxies = checked.iter().sum();
    // Whether every proxy of a chair lies inside its root sphere (within the f64 rounding).
    let nested: Vec<bool> = spheres
        .iter()
        .enumerate()
        .map(|(c, s)| {
            s.proxies
                .iter()
                .all(|&(_, p)| -overlap_inside(p, s.root) <= tolerance(c))
        })
        .collect();
    // The proxies of chair `a` that may overlap one of chair `b`'s (module docs).
    let reaching = |a: usize, b: usize, slack: f64| -> Vec<(u32, [f64; 4])> {
        spheres[a]
            .proxies
            .iter()
            .filter(|&&(_, p)| !nested[b] || overlap(p, spheres[b].root) > -2.0 * slack)
            .copied()
            .collect()
    };
    let found: Vec<(usize, Vec<(ProxyContact, f64)>)> = chair_pairs
        .par_iter()
        .map(|&(i, j)| {
            let slack = tolerance(i) + tolerance(j);
            let (near_i, near_j) = (reaching(i, j, slack), reaching(j, i, slack));
            let mut truth = Vec::new();
            for &(k, a) in &near_i {
                for &(l, b) in &near_j {
                    if overlap(a, b) > slack {
                        truth.push((
                            ProxyContact {
                                chairs: [i, j],
                                nodes: [k, l],
                            },
                            overlap(a, b),
                        ));
                    }
                }
            }
            (near_i.len() * near_j.len(), truth)
        })
        .collect();
    let mut truth = Vec::new();
    for (tested, t) in found {
        out.proxy_pairs += tested;
        truth.extend(t);
    }
    out.truth = truth.len();
    let mut sorted = reported.to_vec();
    sorted.sort_unstable();
    for (t, by) in &truth {
        if sorted.binary_search(t).is_err() {
            return Err(CheckError::Missed {
                chairs: t.chairs,
                nodes: t.nodes,
                overlap: *by,
            });
        }
    }
    truth.sort_unstable_by_key(|t| t.0);
    for r in &sorted {
        if truth.binary_search_by(|t| t.0.cmp(r)).is_ok() {
            continue;
        }
        let [i, j] = r.chairs;
        let find = |c: usize, node: u32| {
            spheres
                .get(c)
                .and_then(|s| s.proxies.iter().find(|p| p.0 == node))
                .map(|p| p.1)
        };
        let (Some(a), Some(b)) = (find(i, r.nodes[0]), find(j, r.nodes[1])) else {
            return Err(CheckError::Extra {
                chairs: r.chairs,
                nodes: r.nodes,
                gap: f64::INFINITY,
            });
        };
        let gap = -overlap(a, b);
        if gap > F32_ROUNDING * spheres[i].root[3].max(spheres[j].root[3]) {
            return Err(CheckError::Extra {
                chairs: r.chairs,
                nodes: r.nodes,
                gap,
            });
        }
        out.extra += 1;
    }
    Ok(out)
}

/// `r_b − ‖c_b − c_a‖ − r_a`: at least 0 when sphere `a` lies inside sphere `b`.
fn overlap_inside(a: [f64; 4], b: [f64; 4]) -> f64 {
    let d = (0..3).map(|k| (a[k] - b[k]).powi(2)).sum::<f64>().sqrt();
    b[3] - d - a[3]
}

/// Checks that every proxy sphere of chair `c` contains its triangles' world vertices;
/// returns the proxies checked.
fn check_containment(
    chair: &Chair,
    c: usize,
    spheres: &Spheres,
    below: &[Vec<u32>],
    world: &[[f64; 3]],
) -> Result<usize, CheckError> {
    for ((node, s), triangles) in spheres.proxies.iter().zip(below) {
        let slack = F64_ROUNDING * (s[3] + s.iter().take(3).map(|v| v.abs()).fold(0.0, f64::max));
        for &t in triangles {
            let Some(face) = chair.mesh.triangles.get(t as usize) else {
                continue;
            };
            for &v in face {
                let Some(p) = world.get(v as usize) else {
                    continue;
                };
                let d = (0..3).map(|k| (p[k] - s[k]).powi(2)).sum::<f64>().sqrt();
                if d > s[3] + slack {
                    return Err(CheckError::Outside {
                        chair: c,
                        node: *node,
                        triangle: t,
                        by: d - s[3],
                    });
                }
            }
        }
    }
    Ok(spheres.proxies.len())
}
