//! How often the interruptible paper's sphere update would have missed a contact (Mendoza and
//! O'Sullivan 2006, §4: a sphere's centre moves by the mean displacement of its associated
//! coarse vertices, its radius is scaled by `λ`, the largest ratio of a coarse vertex's new
//! distance from the centre to its rest distance). Counted against the f64 brute force on the
//! deformable fixture scenes and on two modal chairs, beside BD's update `c + Ū q`,
//! `R + ΔRᵀ|q|` of the same spheres (which must miss nothing).
//!
//! Our bodies have no coarse mesh; the coarse vertices are a grid subsample of the mesh's
//! vertices (the first vertex in each cell of a 16-cells-per-longest-side grid), and a sphere's
//! associated coarse vertices are those inside it at rest, or the 4 nearest when none is (the
//! paper associates the coarse vertices near a sphere, with a heuristic for spheres that
//! enclose none). The spheres are the proxies at depth `L` (nodes at depth `L` and leaves above
//! it): median-split exact spheres on the scenes (their cloths are open: no medial tree), and
//! on the chairs also the medial tree's exact and fitted spheres ([`bdtree_std::build::fit`]).
//! A true contact (a pair of intersecting deformed triangles) is **missed** when the updated
//! spheres of the two proxies holding its triangles do not overlap. Also counted: deformed
//! vertices outside their proxy's heuristic sphere (where a grazing contact would be missed),
//! and the farthest one. The chairs also with coordinates 5 and 20 times the demo's clamp.
//!
//! Run: `cargo run --release -p bdtree-std --example heuristic_update`

use bdtree_core::image::tree::NodeKind;
use bdtree_std::build::fitted::{fitted_spheres, FitBody, Nodes};
use bdtree_std::build::{build, BuildOptions, Precision, TreeKind};
use bdtree_std::io::{Basis, Mesh, Pose, Scene};
use bdtree_std::modal::{compute_modes, ModalOptions};
use bdtree_std::oracle::{brute_force_pairs, deform};
use bdtree_std::rng::Rng;
use bdtree_std::shapes::chair_mesh;
use std::path::Path;

/// Which spheres a body's proxies use.
#[derive(Clone, Copy, PartialEq)]
enum Spheres {
    Exact,
    Fitted,
}

/// A body's proxies at one depth: per triangle its proxy, per proxy its rest sphere, its BD
/// rows and its associated coarse vertices.
struct Proxies {
    of_triangle: Vec<usize>,
    spheres: Vec<[f64; 4]>,
    /// Per proxy `[Ū_j, ΔR_j]` per mode.
    rows: Vec<Vec<[f64; 4]>>,
    coarse: Vec<Vec<usize>>,
}

fn coarse_vertices(mesh: &Mesh) -> Vec<usize> {
    let (mut lo, mut hi) = ([f64::INFINITY; 3], [f64::NEG_INFINITY; 3]);
    for p in &mesh.vertices {
        for k in 0..3 {
            lo[k] = lo[k].min(p[k]);
            hi[k] = hi[k].max(p[k]);
        }
    }
    let cell = (0..3).map(|k| hi[k] - lo[k]).fold(0.0, f64::max) / 16.0;
    let mut seen = std::collections::HashSet::new();
    (0..mesh.vertices.len())
        .filter(|&i| {
            let p = mesh.vertices[i];
            let key = [0, 1, 2].map(|k| ((p[k] - lo[k]) / cell).floor() as i64);
            seen.insert(key)
        })
        .collect()
}

fn proxies(
    mesh: &Mesh,
    basis: Option<&Basis>,
    tree: TreeKind,
    spheres: Spheres,
    depth: u32,
) -> Proxies {
    let options = BuildOptions {
        tree,
        precision: Precision::F64,
        ..BuildOptions::default()
    };
    let (buf, _) = build(mesh, basis, options, &mut |_| {}).expect("build");
    let image = buf.parse::<f64>().expect("parse");
    let t = &image.tree;
    let nodes = Nodes::of(t);
    let own = nodes.triangles();
    let fitted = (spheres == Spheres::Fitted)
        .then(|| fitted_spheres(&FitBody::new(mesh).expect("closed"), &nodes));
    let chosen: Vec<usize> = (0..t.node_count())
        .filter(|&k| {
            let d = t.node_depth(k).unwrap_or(0);
            d == depth || (d < depth && matches!(t.kind(k), Some(NodeKind::Leaf { .. })))
        })
        .collect();
    let coarse = coarse_vertices(mesh);
    let mut of_triangle = vec![usize::MAX; mesh.triangles.len()];
    let mut out = Proxies {
        of_triangle: Vec::new(),
        spheres: Vec::new(),
        rows: Vec::new(),
        coarse: Vec::new(),
    };
    for (p, &k) in chosen.iter().enumerate() {
        for &tri in &own[k] {
            of_triangle[tri as usize] = p;
        }
        let sphere = match &fitted {
            Some(f) => [f[k].center[0], f[k].center[1], f[k].center[2], f[k].radius],
            None => t.rest_sphere(k).expect("sphere"),
        };
        let rows = (1..=t.modes()).map(|r| t.row(k, r).expect("row")).collect();
        let c = [sphere[0], sphere[1], sphere[2]];
        let d2 = |i: usize| {
            let v = mesh.vertices[i];
            (0..3).map(|a| (v[a] - c[a]).powi(2)).sum::<f64>()
        };
        let mut near: Vec<usize> = coarse
            .iter()
            .copied()
            .filter(|&i| d2(i) <= sphere[3] * sphere[3])
            .collect();
        if near.is_empty() {
            let mut all = coarse.clone();
            all.sort_by(|&a, &b| d2(a).total_cmp(&d2(b)));
            near = all.into_iter().take(4).collect();
        }
        out.spheres.push(sphere);
        out.rows.push(rows);
        out.coarse.push(near);
    }
    out.of_triangle = of_triangle;
    out
}

/// The world spheres of a body's proxies by the paper's heuristic and by BD's update.
fn updated(
    proxies: &Proxies,
    mesh: &Mesh,
    basis: Option<&Basis>,
    q: &[f64],
    pose: &Pose,
) -> (Vec<[f64; 4]>, Vec<[f64; 4]>) {
    let m = pose.matrix();
    let place = |x: [f64; 3]| {
        [0, 1, 2].map(|i| m[i][0] * x[0] + m[i][1] * x[1] + m[i][2] * x[2] + pose.translation[i])
    };
    let displacement = |i: usize| -> [f64; 3] {
        basis.map_or([0.0; 3], |b| {
            [0, 1, 2].map(|k| (0..b.modes).map(|j| b.get(i, k, j) * q[j]).sum())
        })
    };
    let mut heuristic = Vec::new();
    let mut bd = Vec::new();
    for ((s, rows), coarse) in proxies
        .spheres
        .iter()
        .zip(&proxies.rows)
        .zip(&proxies.coarse)
    {
        let c = [s[0], s[1], s[2]];
        let moves: Vec<[f64; 3]> = coarse.iter().map(|&i| displacement(i)).collect();
        let mean = [0, 1, 2].map(|k| moves.iter().map(|d| d[k]).sum::<f64>() / moves.len() as f64);
        let c_new = [0, 1, 2].map(|k| c[k] + mean[k]);
        let mut lambda = 0.0f64;
        for (&i, d) in coarse.iter().zip(&moves) {
            let p = mesh.vertices[i];
            let before = (0..3).map(|k| (p[k] - c[k]).powi(2)).sum::<f64>().sqrt();
            let after = (0..3)
                .map(|k| (p[k] + d[k] - c_new[k]).powi(2))
                .sum::<f64>()
                .sqrt();
            if before > 0.0 {
                lambda = lambda.max(after / before);
            }
        }
        if lambda == 0.0 {
            lambda = 1.0;
        }
        let w = place(c_new);
        heuristic.push([w[0], w[1], w[2], lambda * s[3]]);
        let mut cb = c;
        let mut rb = s[3];
        for (row, &qj) in rows.iter().zip(q) {
            for k in 0..3 {
                cb[k] += row[k] * qj;
            }
            rb += row[3] * qj.abs();
        }
        let w = place(cb);
        bd.push([w[0], w[1], w[2], rb]);
    }
    (heuristic, bd)
}

fn overlap(a: [f64; 4], b: [f64; 4]) -> bool {
    let d2: f64 = (0..3).map(|k| (a[k] - b[k]).powi(2)).sum();
    d2 <= (a[3] + b[3]).powi(2)
}

#[derive(Default)]
struct Count {
    /// Deformed vertices outside their proxy's heuristic sphere, of all checked.
    escaped: usize,
    vertices: usize,
    /// The largest distance outside, over the sphere's radius.
    worst: f64,
    contacts: usize,
    missed_heuristic: usize,
    missed_bd: usize,
    frames_missing: usize,
    frames: usize,
}

/// Counts one body pair in one frame.
#[allow(clippy::too_many_arguments)]
fn count_pair(
    count: &mut Count,
    (mesh_a, basis_a, proxies_a): (&Mesh, Option<&Basis>, &Proxies),
    (q_a, pose_a): (&[f64], &Pose),
    (mesh_b, basis_b, proxies_b): (&Mesh, Option<&Basis>, &Proxies),
    (q_b, pose_b): (&[f64], &Pose),
) -> bool {
    let world_a = deform(&mesh_a.vertices, basis_a, q_a, pose_a);
    let world_b = deform(&mesh_b.vertices, basis_b, q_b, pose_b);
    let contacts = brute_force_pairs(&world_a, &mesh_a.triangles, &world_b, &mesh_b.triangles);
    let (ha, ba) = updated(proxies_a, mesh_a, basis_a, q_a, pose_a);
    let (hb, bb) = updated(proxies_b, mesh_b, basis_b, q_b, pose_b);
    for (world, mesh, proxies, spheres) in [
        (&world_a, mesh_a, proxies_a, &ha),
        (&world_b, mesh_b, proxies_b, &hb),
    ] {
        for (t, f) in mesh.triangles.iter().enumerate() {
            let s = spheres[proxies.of_triangle[t]];
            for &v in f {
                let p = world[v as usize];
                let d = (0..3).map(|k| (p[k] - s[k]).powi(2)).sum::<f64>().sqrt();
                count.vertices += 1;
                if d > s[3] {
                    count.escaped += 1;
                    count.worst = count.worst.max((d - s[3]) / s[3]);
                }
            }
        }
    }
    let mut missed_any = false;
    for (ta, tb) in contacts {
        let (pa, pb) = (
            proxies_a.of_triangle[ta as usize],
            proxies_b.of_triangle[tb as usize],
        );
        count.contacts += 1;
        if !overlap(ha[pa], hb[pb]) {
            count.missed_heuristic += 1;
            missed_any = true;
        }
        if !overlap(ba[pa], bb[pb]) {
            count.missed_bd += 1;
        }
    }
    missed_any
}

fn report(name: &str, depth: u32, count: &Count) {
    println!(
        "| {name} | {depth} | {:.2} % | {:.3} | {} | {} | {} | {} ({:.2} %) | {} |",
        100.0 * count.escaped as f64 / count.vertices.max(1) as f64,
        count.worst,
        count.frames,
        count.frames_missing,
        count.contacts,
        count.missed_heuristic,
        100.0 * count.missed_heuristic as f64 / count.contacts.max(1) as f64,
        count.missed_bd
    );
}

fn main() {
    println!("| scene / spheres | proxy depth | vertices outside their heuristic sphere | farthest outside / radius | frames | frames with a miss | true contacts | missed by the heuristic | missed by BD's update |");
    println!("|---|---|---|---|---|---|---|---|---|");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/scenes");
    for name in ["demo", "fold", "thin"] {
        let scene = Scene::load(&root.join(format!("{name}.json"))).expect("scene");
        for depth in [4, 6, 8] {
            let all: Vec<Proxies> = scene
                .bodies
                .iter()
                .map(|b| {
                    proxies(
                        &b.mesh,
                        b.basis.as_ref(),
                        TreeKind::Median,
                        Spheres::Exact,
                        depth,
                    )
                })
                .collect();
            let mut count = Count::default();
            for frame in &scene.frames {
                count.frames += 1;
                let mut missed = false;
                for a in 0..scene.bodies.len() {
                    for b in a + 1..scene.bodies.len() {
                        let (ba, bb) = (&scene.bodies[a], &scene.bodies[b]);
                        missed |= count_pair(
                            &mut count,
                            (&ba.mesh, ba.basis.as_ref(), &all[a]),
                            (&frame[a].1, &frame[a].0),
                            (&bb.mesh, bb.basis.as_ref(), &all[b]),
                            (&frame[b].1, &frame[b].0),
                        );
                    }
                }
                count.frames_missing += usize::from(missed);
            }
            report(&format!("{name} (median, exact)"), depth, &count);
        }
    }

    // Two modal chairs, 10 modes (the chairs demo's), each coordinate within ±1 cm (the demo's
    // clamp), the second placed across the first at random.
    let mesh = chair_mesh();
    let options = ModalOptions {
        modes: 10,
        young: 5e7,
        poisson: 0.35,
        density: 1000.0,
        ..ModalOptions::default()
    };
    let basis = compute_modes(&mesh, &options, &mut |_| {})
        .expect("modes")
        .basis;
    let extent = {
        let (mut lo, mut hi) = ([f64::INFINITY; 3], [f64::NEG_INFINITY; 3]);
        for p in &mesh.vertices {
            for k in 0..3 {
                lo[k] = lo[k].min(p[k]);
                hi[k] = hi[k].max(p[k]);
            }
        }
        (0..3).map(|k| hi[k] - lo[k]).fold(0.0, f64::max)
    };
    for (label, tree, spheres) in [
        ("chairs (median, exact)", TreeKind::Median, Spheres::Exact),
        ("chairs (medial, exact)", TreeKind::Medial, Spheres::Exact),
        ("chairs (medial, fitted)", TreeKind::Medial, Spheres::Fitted),
    ] {
        for (depth, amplitude) in [(6, 0.01), (8, 0.01), (10, 0.01), (10, 0.05), (10, 0.2)] {
            let p = proxies(&mesh, Some(&basis), tree, spheres, depth);
            let mut rng = Rng::new(59);
            let mut count = Count::default();
            for _ in 0..40 {
                let qa: Vec<f64> = (0..10)
                    .map(|_| rng.uniform(-amplitude, amplitude))
                    .collect();
                let qb: Vec<f64> = (0..10)
                    .map(|_| rng.uniform(-amplitude, amplitude))
                    .collect();
                let pose_a = Pose {
                    rotation: [1.0, 0.0, 0.0, 0.0],
                    translation: [0.0; 3],
                };
                let pose_b = Pose {
                    rotation: rng.rotation(),
                    translation: [0, 1, 2].map(|_| rng.uniform(-0.3, 0.3) * extent),
                };
                count.frames += 1;
                let missed = count_pair(
                    &mut count,
                    (&mesh, Some(&basis), &p),
                    (&qa, &pose_a),
                    (&mesh, Some(&basis), &p),
                    (&qb, &pose_b),
                );
                count.frames_missing += usize::from(missed);
            }
            report(&format!("{label}, q within ±{amplitude} m"), depth, &count);
        }
    }
}
