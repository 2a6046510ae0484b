//! Bound lab: counts node pairs and leaf pairs of a simulated walk on the query bench's scene
//! with different node bounds (f64, exact deformed vertices from the oracle), to see which
//! lever of the bounds would pay before building it into the kernel.
//!
//! Configurations: the kernel's BD-Tree spheres everywhere; and exact bounds of the deformed
//! vertices for subtrees of at most `k` triangles (sphere, sphere + slab along the mean normal
//! — "disc" —, with or without the world AABB), BD-Tree spheres above. Prints, per frame, node
//! pairs visited and leaf pairs per intersecting pair. Run with
//! `cargo run --release -p bdtree-benches --example lab` (`SUBDIV=7`, `DEPTH=0.006` by
//! default, as the query bench).
use std::collections::HashMap;

use bdtree_benches::query_scene::{normalized, pressed_frames, Frame, Press};
use bdtree_core::{Body, Image, Pose, TreeView};
use bdtree_std::build::{build, BuildOptions, Precision};
use bdtree_std::io::Pose as OraclePose;
use bdtree_std::io::{Basis, Mesh};
use bdtree_std::oracle::{brute_force_pairs, deform};
use bdtree_std::shapes::procedural::{icosphere, smooth_basis, uv_sphere};
use bdtree_std::vec3::{cross, dot, sub};
use bdtree_std::BodyStorage;

const MODES: usize = 10;

/// Per node of a tree: its subtree's triangles (pre-order layout).
fn subtree_triangles(tree: &TreeView<'_, f64>) -> Vec<Vec<u32>> {
    let n = tree.node_count();
    let mut out: Vec<Vec<u32>> = vec![Vec::new(); n];
    for k in (0..n).rev() {
        match tree.kind(k).unwrap() {
            bdtree_core::NodeKind::Leaf { triangle } => out[k] = vec![triangle],
            bdtree_core::NodeKind::Internal { left, right } => {
                let mut v = out[left as usize].clone();
                v.extend_from_slice(&out[right as usize]);
                out[k] = v;
            }
            bdtree_core::NodeKind::Cut => {}
        }
    }
    out
}

#[derive(Clone, Copy)]
struct Disc {
    c: [f64; 3],
    r: f64,
    /// Unit normal and half thickness (None: no slab).
    slab: Option<([f64; 3], f64)>,
    /// World AABB.
    aabb: Option<([f64; 3], [f64; 3])>,
}

struct Side<'a> {
    tree: TreeView<'a, f64>,
    subtree: Vec<Vec<u32>>,
    tris: &'a [[u32; 3]],
    world: Vec<[f64; 3]>,
    spheres: Vec<[f64; 4]>,
    exact: HashMap<u32, Disc>,
    k_exact: usize,
    kind: u8,
    deformed: std::collections::HashSet<u32>,
}

impl Side<'_> {
    fn bound(&mut self, node: u32) -> Disc {
        let s = self.spheres[node as usize];
        let tris = &self.subtree[node as usize];
        if tris.len() > self.k_exact || self.kind == 0 {
            return Disc {
                c: [s[0], s[1], s[2]],
                r: s[3],
                slab: None,
                aabb: None,
            };
        }
        if let Some(d) = self.exact.get(&node) {
            return *d;
        }
        let mut verts: Vec<[f64; 3]> = Vec::new();
        let mut normal = [0.0; 3];
        for &t in tris {
            let [a, b, c] = self.tris[t as usize];
            for v in [a, b, c] {
                self.deformed.insert(v);
            }
            let (pa, pb, pc) = (
                self.world[a as usize],
                self.world[b as usize],
                self.world[c as usize],
            );
            let n = cross(sub(pb, pa), sub(pc, pa));
            normal = [normal[0] + n[0], normal[1] + n[1], normal[2] + n[2]];
            verts.extend([pa, pb, pc]);
        }
        let mut lo = [f64::MAX; 3];
        let mut hi = [f64::MIN; 3];
        for v in &verts {
            for k in 0..3 {
                lo[k] = lo[k].min(v[k]);
                hi[k] = hi[k].max(v[k]);
            }
        }
        let c = [0, 1, 2].map(|k| 0.5 * (lo[k] + hi[k]));
        let r = verts
            .iter()
            .map(|v| dot(sub(*v, c), sub(*v, c)).sqrt())
            .fold(0.0, f64::max);
        let n = normalized(normal);
        let h = verts
            .iter()
            .map(|v| dot(n, sub(*v, c)).abs())
            .fold(0.0, f64::max);
        let d = Disc {
            c,
            r: r.min(s[3] + dot(sub(c, [s[0], s[1], s[2]]), sub(c, [s[0], s[1], s[2]])).sqrt()),
            slab: if self.kind >= 2 { Some((n, h)) } else { None },
            aabb: if self.kind == 3 || self.kind == 1 {
                Some((lo, hi))
            } else {
                None
            },
        };
        self.exact.insert(node, d);
        d
    }
}

fn overlap(a: &Disc, b: &Disc) -> bool {
    let d = sub(b.c, a.c);
    let rr = a.r + b.r;
    if dot(d, d) > rr * rr {
        return false;
    }
    if let Some((n, h)) = a.slab {
        if dot(n, d).abs() > h + b.r {
            return false;
        }
    }
    if let Some((n, h)) = b.slab {
        if dot(n, d).abs() > h + a.r {
            return false;
        }
    }
    if let (Some((la, ha)), Some((lb, hb))) = (a.aabb, b.aabb) {
        for k in 0..3 {
            if lb[k] > ha[k] || la[k] > hb[k] {
                return false;
            }
        }
    }
    true
}

fn main() {
    let sub_div: u32 = std::env::var("SUBDIV")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(7);
    let depth_mm: f64 = std::env::var("DEPTH")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0.006);
    let big = icosphere(1.0, sub_div);
    let big_basis = smooth_basis(&big.vertices, MODES, 0.03);
    let small = uv_sphere(0.04, 16, 24);
    let small_basis = smooth_basis(&small.vertices, MODES, 0.0012);
    let img = |m: &Mesh, b: &Basis| {
        build(
            m,
            Some(b),
            BuildOptions {
                precision: Precision::F64,
                ..Default::default()
            },
            &mut |_| {},
        )
        .unwrap()
        .0
    };
    let (ib, is) = (img(&big, &big_basis), img(&small, &small_basis));
    let (ib, is): (Image<'_, f64>, Image<'_, f64>) = (ib.parse().unwrap(), is.parse().unwrap());
    let (stb, sts) = (subtree_triangles(&ib.tree), subtree_triangles(&is.tree));
    let configs: Vec<(&str, usize, u8)> = vec![
        ("bd spheres", 0, 0),
        ("exact sphere+aabb k<=1", 1, 1),
        ("exact disc k<=1", 1, 2),
        ("exact disc k<=4", 4, 2),
        ("exact disc k<=16", 16, 2),
        ("exact disc+aabb k<=16", 16, 3),
        ("exact disc k<=64", 64, 2),
    ];
    // The query benches' pressing scene at full amplitude, pressed `DEPTH` in: its first frames.
    let press = Press {
        q_big: 1.0,
        q_small: 1.0,
        small_radius: 0.04,
        depth: depth_mm,
        at_vertex: false,
    };
    for (frame, f) in pressed_frames(&big, &big_basis, &press)
        .iter()
        .take(4)
        .enumerate()
    {
        let Frame {
            q_big,
            q_small,
            pose_big,
            pose_small,
        } = f;
        let wb = deform(&big.vertices, Some(&big_basis), q_big, pose_big);
        let ws = deform(&small.vertices, Some(&small_basis), q_small, pose_small);
        let truth = brute_force_pairs(&wb, &big.triangles, &ws, &small.triangles).len();
        // BD spheres via the kernel.
        let spheres = |im: &Image<'_, f64>, q: &[f64], p: &OraclePose| {
            let mut st = BodyStorage::for_image(im);
            let mut body: Body<'_, '_, f64> = st.body(im).unwrap();
            body.set_state(Pose::from_quaternion(p.rotation, p.translation).unwrap(), q)
                .unwrap();
            (0..im.tree.node_count())
                .map(|k| body.sphere(k).unwrap())
                .collect::<Vec<_>>()
        };
        let (sb, ss) = (
            spheres(&ib, q_big, pose_big),
            spheres(&is, q_small, pose_small),
        );
        for (name, k, kind) in &configs {
            let mut a = Side {
                tree: ib.tree,
                subtree: stb.clone(),
                tris: &big.triangles,
                world: wb.clone(),
                spheres: sb.clone(),
                exact: HashMap::new(),
                k_exact: *k,
                kind: *kind,
                deformed: Default::default(),
            };
            let mut b = Side {
                tree: is.tree,
                subtree: sts.clone(),
                tris: &small.triangles,
                world: ws.clone(),
                spheres: ss.clone(),
                exact: HashMap::new(),
                k_exact: *k,
                kind: *kind,
                deformed: Default::default(),
            };
            let (mut visited, mut leaves, mut tests) = (0usize, 0usize, 1usize);
            let mut stack = vec![];
            if overlap(&a.bound(0), &b.bound(0)) {
                stack.push((0u32, 0u32));
            }
            while let Some((i, j)) = stack.pop() {
                visited += 1;
                let (ka, kb) = (
                    a.tree.kind(i as usize).unwrap(),
                    b.tree.kind(j as usize).unwrap(),
                );
                use bdtree_core::NodeKind::*;
                let (la, lb) = (matches!(ka, Leaf { .. }), matches!(kb, Leaf { .. }));
                if la && lb {
                    leaves += 1;
                    continue;
                }
                let (ra, rb) = (a.bound(i).r, b.bound(j).r);
                let split_a = !la && (lb || ra >= rb);
                let both = !la && !lb && (ra.min(rb) * 2.0 >= ra.max(rb));
                let ca: Vec<u32> = match ka {
                    Internal { left, right } if split_a || both => vec![left, right],
                    _ => vec![i],
                };
                let cb: Vec<u32> = match kb {
                    Internal { left, right } if !split_a || both => vec![left, right],
                    _ => vec![j],
                };
                for &x in &ca {
                    for &y in &cb {
                        tests += 1;
                        if overlap(&a.bound(x), &b.bound(y)) {
                            stack.push((x, y));
                        }
                    }
                }
            }
            println!(
                "frame {frame} truth {truth:4} {name:24} visited {visited:6} ({:5.1}/contact) leaf pairs {leaves:5} ({:5.1}/contact) bound tests {tests:6} exact bounds {:5} vertices deformed {:5}",
                visited as f64 / truth as f64,
                leaves as f64 / truth as f64,
                a.exact.len() + b.exact.len(),
                a.deformed.len() + b.deformed.len()
            );
        }
    }
}
