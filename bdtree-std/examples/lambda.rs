//! BD-Tree bounds against Mendoza & O'Sullivan's λ-scaling heuristic, on a dense mesh carried
//! by a coarse trilinear cage.
//!
//! Both use the same sphere tree (built by bdtree on the rest mesh) and the same cage
//! deformations. The BD-Tree sphere of a node is its exact update (`c + Ū q`,
//! `R + Σ ΔR_j |q_j|`); the λ sphere is the heuristic's (center moved by the mean displacement
//! of the node's cage nodes, radius scaled by the largest stretch of the center-to-cage-node
//! distances). For random cage deformations of growing amplitude this counts, in f64:
//!
//! * nodes whose λ sphere leaves out a deformed vertex of the node (BD-Tree: must be none);
//! * triangle contacts between two such bodies that a λ-sphere traversal misses, against brute
//!   force (BD-Tree traversal: must be none).
//!
//! ```sh
//! cargo run --release -p bdtree-std --example lambda
//! ```

use bdtree_core::{NodeKind, TreeView};
use bdtree_std::build::{build, BuildOptions, Precision};
use bdtree_std::io;
use bdtree_std::io::Basis;
use bdtree_std::oracle;
use bdtree_std::shapes::procedural::{blob, translate};
use bdtree_std::shapes::{cage_basis, lambda_sphere};

/// Per node: its vertices, its cage nodes, its rest sphere.
struct NodeInfo {
    vertices: Vec<u32>,
    cage: Vec<usize>,
    rest: [f64; 4],
}

fn nodes(tree: &TreeView<'_, f64>, triangles: &[[u32; 3]], basis: &Basis) -> Vec<NodeInfo> {
    let n = tree.node_count();
    let mut sets: Vec<Vec<u32>> = vec![Vec::new(); n];
    for k in (0..n).rev() {
        let mut set = match tree.kind(k).expect("node") {
            NodeKind::Leaf { triangle } => triangles[triangle as usize].to_vec(),
            NodeKind::Internal { left, right } => {
                let mut s = sets[left as usize].clone();
                s.extend_from_slice(&sets[right as usize]);
                s
            }
            NodeKind::Cut => unreachable!("the example builds complete trees"),
        };
        set.sort_unstable();
        set.dedup();
        sets[k] = set;
    }
    sets.into_iter()
        .enumerate()
        .map(|(k, vertices)| {
            let mut cage: Vec<usize> = vertices
                .iter()
                .flat_map(|&v| {
                    (0..basis.modes / 3).filter(move |&c| basis.get(v as usize, 0, 3 * c) != 0.0)
                })
                .collect();
            cage.sort_unstable();
            cage.dedup();
            NodeInfo {
                vertices,
                cage,
                rest: tree.rest_sphere(k).expect("sphere"),
            }
        })
        .collect()
}

fn exact_sphere(tree: &TreeView<'_, f64>, node: usize, q: &[f64]) -> [f64; 4] {
    let rows = tree.record(node).expect("record");
    let mut s = rows[0];
    for (row, &qj) in rows[1..].iter().zip(q) {
        for k in 0..3 {
            s[k] += row[k] * qj;
        }
        s[3] += row[3] * qj.abs();
    }
    s
}

fn dist(a: [f64; 3], b: [f64; 3]) -> f64 {
    ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2) + (a[2] - b[2]).powi(2)).sqrt()
}

/// Leaf pairs reached by a sphere-tree traversal of two bodies with the given node spheres.
fn traverse(
    ta: &TreeView<'_, f64>,
    sa: &[[f64; 4]],
    tb: &TreeView<'_, f64>,
    sb: &[[f64; 4]],
) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    let mut stack = vec![(0usize, 0usize)];
    while let Some((i, j)) = stack.pop() {
        let (x, y) = (sa[i], sb[j]);
        if dist([x[0], x[1], x[2]], [y[0], y[1], y[2]]) > x[3] + y[3] {
            continue;
        }
        match (ta.kind(i).expect("a"), tb.kind(j).expect("b")) {
            (NodeKind::Leaf { triangle: p }, NodeKind::Leaf { triangle: q }) => out.push((p, q)),
            (NodeKind::Internal { left, right }, NodeKind::Leaf { .. }) => {
                stack.push((left as usize, j));
                stack.push((right as usize, j));
            }
            (_, NodeKind::Internal { left, right }) => {
                stack.push((i, left as usize));
                stack.push((i, right as usize));
            }
            (NodeKind::Cut, _) | (_, NodeKind::Cut) => {
                unreachable!("the example builds complete trees")
            }
        }
    }
    out.sort_unstable();
    out
}

fn main() {
    let mesh = blob(0.5, 3, 5, 3);
    let cage = cage_basis(&mesh, [2, 2, 2]).expect("cage");
    let basis = &cage.basis;
    let options = BuildOptions {
        precision: Precision::F64,
        ..BuildOptions::default()
    };
    let buf = build(&mesh, Some(basis), options, &mut |_| {})
        .expect("build")
        .0;
    let image = buf.parse::<f64>().expect("image");
    let tree = image.tree;
    let info = nodes(&tree, &mesh.triangles, basis);
    println!(
        "blob: {} triangles, cage of {} nodes (M = {}), {} tree nodes",
        mesh.triangles.len(),
        cage.nodes.len(),
        basis.modes,
        tree.node_count()
    );
    println!(
        "{:>9} {:>8} {:>22} {:>22} {:>12} {:>16} {:>16}",
        "amplitude",
        "trials",
        "λ nodes leaving out",
        "BD nodes leaving out",
        "contacts",
        "λ missed",
        "BD missed"
    );
    let mut rng = bdtree_std::rng::Rng::from_state(0x1a3b_5c7d);
    let mut next = move || rng.uniform(-1.0, 1.0);
    for amplitude in [0.02, 0.05, 0.1, 0.2] {
        let trials = 10;
        let (mut lambda_out, mut exact_out, mut contacts, mut lambda_missed, mut exact_missed) =
            (0usize, 0usize, 0usize, 0usize, 0usize);
        for _ in 0..trials {
            let mut spheres = Vec::new();
            let mut worlds = Vec::new();
            for offset in [[0.0, 0.0, 0.0], [0.85, 0.1, 0.05]] {
                let q: Vec<f64> = (0..basis.modes).map(|_| amplitude * next()).collect();
                let moved: Vec<[f64; 3]> = cage
                    .nodes
                    .iter()
                    .enumerate()
                    .map(|(n, p)| [0, 1, 2].map(|k| p[k] + q[3 * n + k] + offset[k]))
                    .collect();
                let mut shifted = mesh.clone();
                translate(&mut shifted, offset);
                let world = oracle::deform(&shifted.vertices, Some(basis), &q, &io::Pose::IDENTITY);
                let mut lambda_spheres = Vec::new();
                let mut exact_spheres = Vec::new();
                for (k, node) in info.iter().enumerate() {
                    let center = [0, 1, 2].map(|c| node.rest[c] + offset[c]);
                    let rest: Vec<[f64; 3]> = node
                        .cage
                        .iter()
                        .map(|&c| [0, 1, 2].map(|x| cage.nodes[c][x] + offset[x]))
                        .collect();
                    let now: Vec<[f64; 3]> = node.cage.iter().map(|&c| moved[c]).collect();
                    let ls = lambda_sphere(center, node.rest[3], &rest, &now);
                    let mut es = exact_sphere(&tree, k, &q);
                    for c in 0..3 {
                        es[c] += offset[c];
                    }
                    let outside = |s: [f64; 4]| {
                        node.vertices.iter().any(|&v| {
                            dist(world[v as usize], [s[0], s[1], s[2]]) > s[3] * (1.0 + 1e-12)
                        })
                    };
                    lambda_out += usize::from(outside(ls));
                    exact_out += usize::from(outside(es));
                    lambda_spheres.push(ls);
                    exact_spheres.push(es);
                }
                spheres.push((lambda_spheres, exact_spheres));
                worlds.push(world);
            }
            let truth =
                oracle::brute_force_pairs(&worlds[0], &mesh.triangles, &worlds[1], &mesh.triangles);
            let by_lambda = traverse(&tree, &spheres[0].0, &tree, &spheres[1].0);
            let by_exact = traverse(&tree, &spheres[0].1, &tree, &spheres[1].1);
            contacts += truth.len();
            lambda_missed += truth
                .iter()
                .filter(|t| by_lambda.binary_search(t).is_err())
                .count();
            exact_missed += truth
                .iter()
                .filter(|t| by_exact.binary_search(t).is_err())
                .count();
        }
        let nodes = 2 * trials * tree.node_count();
        println!(
            "{:>9} {:>8} {:>14} ({:>5.1}%) {:>14} ({:>5.1}%) {:>12} {:>9} ({:>4.1}%) {:>9} ({:>4.1}%)",
            amplitude,
            trials,
            lambda_out,
            100.0 * lambda_out as f64 / nodes as f64,
            exact_out,
            100.0 * exact_out as f64 / nodes as f64,
            contacts,
            lambda_missed,
            100.0 * lambda_missed as f64 / contacts.max(1) as f64,
            exact_missed,
            100.0 * exact_missed as f64 / contacts.max(1) as f64
        );
        assert_eq!(exact_out, 0, "a BD-Tree sphere left out a vertex");
        assert_eq!(exact_missed, 0, "the BD-Tree traversal missed a contact");
    }
}
