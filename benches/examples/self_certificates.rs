//! How much of a self-collision frame subspace certificates could skip (Barbič and James 2010):
//! the measurement that decides whether certificates in `q` go into the kernel.
//!
//! For every internal node, in f64 on the rest shape and the basis, the radius `r` of a ball
//! `‖q‖ < r` inside which the node's patch provably cannot touch itself, by the same theorem
//! the run-time culling uses (every normal faces one direction `d`, and the boundary loop
//! projected along `d` does not cross itself), with `d` the patch's mean rest normal:
//!
//! * **normals**: a triangle's normal is `n(q) = (e₁ + A₁q) × (e₂ + A₂q)` with `A₁`, `A₂` the
//!   basis rows' differences, so `d·n(q) ≥ d·n₀ − ‖g‖ s − ‖A₁‖_F ‖A₂‖_F s²` with `s = ‖q‖`
//!   and `g = A₂ᵀ(d × e₁) + A₁ᵀ(e₂ × d)`; the triangle's radius is that quadratic's root;
//! * **contour**: a loop vertex moves in the plane across `d` by at most `‖P U_v‖_F s`; the
//!   projected loop stays simple while twice the largest such move is below its rest gap (the
//!   least distance between two edges that share no vertex, and from each edge to the far end
//!   of its neighbour).
//!
//! Per frame, with `s = ‖q‖`, a node is certified when `s < r`: its subtree needs no cones, no
//! contour test and no Type 1 unit. The tool prints, per scene and frame, how many triangles
//! lie below the top-most certified nodes (the cone work certificates would skip) and the Type
//! 1 units the walk would still expand — for that ball, and (the `per mode` lines) for per-mode
//! weights, the bounds above with `|qⱼ|` kept apart: four vectors `g`, `α`, `β`, `w` by
//! default, three (`γ = max(α, β)`, what the kernel stores) with `THREE=1`, one (the largest of
//! the four, tested as `x + x² < 1`) with `SINGLE=1`.
//!
//! ```text
//! cargo build --release -p bdtree-benches --example self_certificates
//! VERSUS_SCENE=sheet|curtain|bent|ribbon target/release/examples/self_certificates
//! ```

use bdtree_benches::measure::cached_image;
use bdtree_benches::self_scene::{by_name, SelfScene};
use bdtree_core::NodeKind;
use bdtree_std::build::{self_contours, Precision};

type V3 = [f64; 3];

fn sub(a: V3, b: V3) -> V3 {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}
fn cross(a: V3, b: V3) -> V3 {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}
fn dot(a: V3, b: V3) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}
fn norm(a: V3) -> f64 {
    dot(a, a).sqrt()
}

/// The basis rows of vertex `v`: `u[axis][mode]`.
fn rows(scene: &SelfScene, v: u32) -> Vec<V3> {
    let m = scene.basis.modes;
    let v = v as usize;
    (0..m)
        .map(|j| {
            let at = |axis: usize| scene.basis.data[(3 * v + axis) * m + j];
            [at(0), at(1), at(2)]
        })
        .collect()
}

/// The normal radius of one triangle along `d`.
fn triangle_radius(scene: &SelfScene, t: [u32; 3], d: V3) -> f64 {
    let p = |v: u32| scene.mesh.vertices[v as usize];
    let (e1, e2) = (sub(p(t[1]), p(t[0])), sub(p(t[2]), p(t[0])));
    let a = dot(d, cross(e1, e2));
    if a <= 0.0 {
        return 0.0;
    }
    let (u0, u1, u2) = (rows(scene, t[0]), rows(scene, t[1]), rows(scene, t[2]));
    let (de1, e2d) = (cross(d, e1), cross(e2, d));
    let mut g2 = 0.0;
    let (mut f1, mut f2) = (0.0, 0.0);
    for j in 0..scene.basis.modes {
        let a1 = sub(u1[j], u0[j]);
        let a2 = sub(u2[j], u0[j]);
        let g = dot(a2, de1) + dot(a1, e2d);
        g2 += g * g;
        f1 += dot(a1, a1);
        f2 += dot(a2, a2);
    }
    let (b, c) = (g2.sqrt(), (f1 * f2).sqrt());
    if c == 0.0 {
        return if b == 0.0 { f64::INFINITY } else { a / b };
    }
    (-b + (b * b + 4.0 * a * c).sqrt()) / (2.0 * c)
}

fn segment_distance(p: [f64; 2], q: [f64; 2], r: [f64; 2], s: [f64; 2]) -> f64 {
    let cross2 = |a: [f64; 2], b: [f64; 2]| a[0] * b[1] - a[1] * b[0];
    let d = |a: [f64; 2], b: [f64; 2]| [b[0] - a[0], b[1] - a[1]];
    let (u, v) = (d(p, q), d(r, s));
    // Proper crossing: distance 0.
    let o1 = cross2(u, d(p, r)) * cross2(u, d(p, s));
    let o2 = cross2(v, d(r, p)) * cross2(v, d(r, q));
    if o1 < 0.0 && o2 < 0.0 {
        return 0.0;
    }
    let point = |x: [f64; 2], a: [f64; 2], b: [f64; 2]| {
        let ab = d(a, b);
        let len = ab[0] * ab[0] + ab[1] * ab[1];
        let t = if len > 0.0 {
            ((x[0] - a[0]) * ab[0] + (x[1] - a[1]) * ab[1]) / len
        } else {
            0.0
        };
        let t = t.clamp(0.0, 1.0);
        let c = [a[0] + t * ab[0] - x[0], a[1] + t * ab[1] - x[1]];
        (c[0] * c[0] + c[1] * c[1]).sqrt()
    };
    point(p, r, s)
        .min(point(q, r, s))
        .min(point(r, p, q))
        .min(point(s, p, q))
}

/// The contour radius of a loop along `d`: per pair of edges, their rest distance over the
/// largest relative move of an endpoint of one against an endpoint of the other (the points of
/// two segments differ by a convex combination of their endpoints' differences).
fn contour_radius(scene: &SelfScene, contour: &[u32], d: V3) -> f64 {
    let helper = if d[0].abs() < 0.9 {
        [1.0, 0.0, 0.0]
    } else {
        [0.0, 1.0, 0.0]
    };
    let eu = cross(d, helper);
    let eu = [eu[0] / norm(eu), eu[1] / norm(eu), eu[2] / norm(eu)];
    let ev = cross(d, eu);
    let points: Vec<[f64; 2]> = contour
        .iter()
        .map(|&v| {
            let p = scene.mesh.vertices[v as usize];
            [dot(p, eu), dot(p, ev)]
        })
        .collect();
    // Each loop vertex's projected basis rows, 2M numbers.
    let moves: Vec<Vec<f64>> = contour
        .iter()
        .map(|&v| {
            rows(scene, v)
                .iter()
                .flat_map(|u| [dot(*u, eu), dot(*u, ev)])
                .collect()
        })
        .collect();
    let apart = |x: usize, y: usize| {
        moves[x]
            .iter()
            .zip(&moves[y])
            .map(|(a, b)| (a - b) * (a - b))
            .sum::<f64>()
            .sqrt()
    };
    let ratio = |gap: f64, spread: f64| {
        if spread == 0.0 {
            f64::INFINITY
        } else {
            gap / spread
        }
    };
    let n = points.len();
    let mut radius = f64::INFINITY;
    for i in 0..n {
        let i1 = (i + 1) % n;
        let (p, q) = (points[i], points[i1]);
        for j in i + 1..n {
            let j1 = (j + 1) % n;
            let (r, s) = (points[j], points[j1]);
            if j == i + 1 {
                // Neighbours sharing `q = r`: the far end of each from the other edge.
                radius = radius
                    .min(ratio(
                        segment_distance(p, p, r, s),
                        apart(i, j).max(apart(i, j1)),
                    ))
                    .min(ratio(
                        segment_distance(s, s, p, q),
                        apart(j1, i).max(apart(j1, i1)),
                    ));
            } else if j1 == i {
                radius = radius
                    .min(ratio(
                        segment_distance(r, r, p, q),
                        apart(j, i).max(apart(j, i1)),
                    ))
                    .min(ratio(
                        segment_distance(q, q, r, s),
                        apart(i1, j).max(apart(i1, j1)),
                    ));
            } else {
                let spread = apart(i, j)
                    .max(apart(i, j1))
                    .max(apart(i1, j))
                    .max(apart(i1, j1));
                radius = radius.min(ratio(segment_distance(p, q, r, s), spread));
            }
        }
    }
    radius
}

/// The per-mode certificate of a node along `d`: vectors `g`, `α`, `β` (normals: certified
/// while `g·|q| + (α·|q|)(β·|q|) < 1`) and `w` (contour: certified while `w·|q| < 1`), each
/// the largest over the node's triangles or loop edge pairs.
fn per_mode(
    scene: &SelfScene,
    patch: &[u32],
    triangles: &[[u32; 3]],
    contour: &[u32],
    d: V3,
) -> Option<[Vec<f64>; 4]> {
    let m = scene.basis.modes;
    let (mut g, mut alpha, mut beta, mut w) =
        (vec![0.0; m], vec![0.0; m], vec![0.0; m], vec![0.0; m]);
    let p = |v: u32| scene.mesh.vertices[v as usize];
    for &t in patch {
        let t = triangles[t as usize];
        let (e1, e2) = (sub(p(t[1]), p(t[0])), sub(p(t[2]), p(t[0])));
        let a = dot(d, cross(e1, e2));
        if a <= 0.0 {
            return None;
        }
        let (u0, u1, u2) = (rows(scene, t[0]), rows(scene, t[1]), rows(scene, t[2]));
        let (de1, e2d) = (cross(d, e1), cross(e2, d));
        for j in 0..m {
            let a1 = sub(u1[j], u0[j]);
            let a2 = sub(u2[j], u0[j]);
            g[j] = f64::max(g[j], (dot(a2, de1) + dot(a1, e2d)).abs() / a);
            alpha[j] = f64::max(alpha[j], norm(a1) / a.sqrt());
            beta[j] = f64::max(beta[j], norm(a2) / a.sqrt());
        }
    }
    let helper = if d[0].abs() < 0.9 {
        [1.0, 0.0, 0.0]
    } else {
        [0.0, 1.0, 0.0]
    };
    let eu = cross(d, helper);
    let eu = [eu[0] / norm(eu), eu[1] / norm(eu), eu[2] / norm(eu)];
    let ev = cross(d, eu);
    let points: Vec<[f64; 2]> = contour
        .iter()
        .map(|&v| [dot(p(v), eu), dot(p(v), ev)])
        .collect();
    let moves: Vec<Vec<[f64; 2]>> = contour
        .iter()
        .map(|&v| {
            rows(scene, v)
                .iter()
                .map(|u| [dot(*u, eu), dot(*u, ev)])
                .collect()
        })
        .collect();
    let n = points.len();
    let mut spread = |gap: f64, pairs: &[(usize, usize)]| -> Option<()> {
        if gap <= 0.0 {
            return None;
        }
        for j in 0..m {
            let most = pairs
                .iter()
                .map(|&(x, y)| {
                    let (a, b) = (moves[x][j], moves[y][j]);
                    ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2)).sqrt()
                })
                .fold(0.0, f64::max);
            w[j] = f64::max(w[j], most / gap);
        }
        Some(())
    };
    for i in 0..n {
        let i1 = (i + 1) % n;
        let (pp, qq) = (points[i], points[i1]);
        for j in i + 1..n {
            let j1 = (j + 1) % n;
            let (r, s2) = (points[j], points[j1]);
            if j == i + 1 {
                spread(segment_distance(pp, pp, r, s2), &[(i, j), (i, j1)])?;
                spread(segment_distance(s2, s2, pp, qq), &[(j1, i), (j1, i1)])?;
            } else if j1 == i {
                spread(segment_distance(r, r, pp, qq), &[(j, i), (j, i1)])?;
                spread(segment_distance(qq, qq, r, s2), &[(i1, j), (i1, j1)])?;
            } else {
                spread(
                    segment_distance(pp, qq, r, s2),
                    &[(i, j), (i, j1), (i1, j), (i1, j1)],
                )?;
            }
        }
    }
    Some([g, alpha, beta, w])
}

fn holds(c: &[Vec<f64>; 4], q: &[f64]) -> bool {
    let at = |v: &Vec<f64>| v.iter().zip(q).map(|(a, x)| a * x.abs()).sum::<f64>();
    if std::env::var("THREE").is_ok() {
        let gamma: Vec<f64> = c[1].iter().zip(&c[2]).map(|(a, b)| a.max(*b)).collect();
        let y = at(&gamma);
        return at(&c[0]) + y * y < 1.0 && at(&c[3]) < 1.0;
    }
    if std::env::var("SINGLE").is_ok() {
        let x: f64 = (0..q.len())
            .map(|j| c[0][j].max(c[1][j]).max(c[2][j]).max(c[3][j]) * q[j].abs())
            .sum();
        return x + x * x < 1.0;
    }
    at(&c[0]) + at(&c[1]) * at(&c[2]) < 1.0 && at(&c[3]) < 1.0
}

fn main() {
    let name = std::env::var("VERSUS_SCENE").unwrap_or_else(|_| "sheet".into());
    let scene = by_name(&name).expect("VERSUS_SCENE: sheet, curtain, bent or ribbon");
    let image = cached_image(scene.name, &scene.mesh, &scene.basis, Precision::F32);
    let view = image.parse::<f32>().expect("parses");
    let tree = view.tree;
    let triangles = view.model.triangles();
    let contours = self_contours(&tree, triangles);
    let n = tree.node_count();
    // Triangles below each node, children (larger indices) first.
    let mut below: Vec<Vec<u32>> = vec![Vec::new(); n];
    let mut radius = vec![0.0f64; n];
    let mut certificates: Vec<Option<[Vec<f64>; 4]>> = vec![None; n];
    let (mut normal_limited, mut contour_limited) = (0usize, 0usize);
    for k in (0..n).rev() {
        match tree.kind(k) {
            Some(NodeKind::Leaf { triangle }) => below[k] = vec![triangle],
            Some(NodeKind::Internal { left, right }) => {
                let mut list = below[left as usize].clone();
                list.extend_from_slice(&below[right as usize]);
                below[k] = list;
                let loop_ = &contours.vertices
                    [contours.starts[k] as usize..contours.starts[k + 1] as usize];
                if loop_.is_empty() {
                    continue;
                }
                let mut sum = [0.0; 3];
                for &t in &below[k] {
                    let [a, b, c] = triangles[t as usize];
                    let p = |v: u32| scene.mesh.vertices[v as usize];
                    let nn = cross(sub(p(b), p(a)), sub(p(c), p(a)));
                    sum = [sum[0] + nn[0], sum[1] + nn[1], sum[2] + nn[2]];
                }
                let d = [sum[0] / norm(sum), sum[1] / norm(sum), sum[2] / norm(sum)];
                let rn = below[k]
                    .iter()
                    .map(|&t| triangle_radius(&scene, triangles[t as usize], d))
                    .fold(f64::INFINITY, f64::min);
                let rc = contour_radius(&scene, loop_, d);
                radius[k] = rn.min(rc);
                certificates[k] = per_mode(&scene, &below[k], triangles, loop_, d);
                if rn < rc {
                    normal_limited += 1;
                } else {
                    contour_limited += 1;
                }
            }
            _ => {}
        }
    }
    println!(
        "scene {} ({} triangles, {} nodes, M = {}): root radius {:.4}; nodes limited by normals {}, by the contour {}",
        scene.name,
        triangles.len(),
        n,
        scene.basis.modes,
        radius[0],
        normal_limited,
        contour_limited
    );
    let mut totals = [0usize; 3];
    for (k, q) in scene.frames.iter().enumerate() {
        let s = q.iter().map(|x| x * x).sum::<f64>().sqrt();
        // Walk the Type 1 recursion: certified nodes stop it.
        let (mut covered, mut certified, mut expanded) = (0usize, 0usize, 0usize);
        let mut open = vec![0usize];
        while let Some(node) = open.pop() {
            let Some(NodeKind::Internal { left, right }) = tree.kind(node) else {
                continue;
            };
            if s < radius[node] {
                certified += 1;
                covered += below[node].len();
                continue;
            }
            expanded += 1;
            open.extend([left as usize, right as usize]);
        }
        let (mut covered2, mut expanded2) = (0usize, 0usize);
        let mut open = vec![0usize];
        while let Some(node) = open.pop() {
            let Some(NodeKind::Internal { left, right }) = tree.kind(node) else {
                continue;
            };
            if certificates[node].as_ref().is_some_and(|c| holds(c, q)) {
                covered2 += below[node].len();
                continue;
            }
            expanded2 += 1;
            open.extend([left as usize, right as usize]);
        }
        println!("           per mode: {covered2} triangles certified, {expanded2} Type 1 units expanded");
        totals[0] += covered;
        totals[1] += certified;
        totals[2] += expanded;
        println!(
            "  frame {k:2}: |q| {s:.4}, {certified} top certified nodes covering {covered} of {} triangles ({:.1} %), {expanded} Type 1 units expanded",
            triangles.len(),
            100.0 * covered as f64 / triangles.len() as f64
        );
    }
    let f = scene.frames.len() as f64;
    println!(
        "mean per frame: {:.1} % of the triangles under certified nodes, {:.1} certified nodes, {:.1} Type 1 units expanded",
        100.0 * totals[0] as f64 / f / triangles.len() as f64,
        totals[1] as f64 / f,
        totals[2] as f64 / f
    );
}
