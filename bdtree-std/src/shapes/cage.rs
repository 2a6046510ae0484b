//! Local bases (2 of 2): a coarse lattice cage around a dense mesh, each vertex carried by the
//! trilinear weights of its cage cell (the coarse mesh steering a dense one, as in Mendoza &
//! O'Sullivan): `q` = cage-node displacements; a vertex moves with 8 nodes. Also their
//! λ-scaling sphere update, for comparison ([`lambda_sphere`]). See [`super::bspline`] for the
//! other local basis.

use crate::io::{Basis, Mesh};
use crate::vec3::bounding_box;

/// A cage: nodes of a `cells[0] × cells[1] × cells[2]` lattice over the mesh's bounding box
/// (grown by 1 % so every vertex is strictly inside), and the trilinear basis that carries the
/// mesh: column `3n + k` moves coordinate `k` of cage node `n` (x fastest, then y, then z).
#[derive(Debug, Clone)]
pub struct Cage {
    /// Rest cage nodes.
    pub nodes: Vec<[f64; 3]>,
    /// Node count per axis (`cells + 1`).
    pub counts: [usize; 3],
    /// `U`, 3N × 3·nodes.
    pub basis: Basis,
}

/// The trilinear cage of a mesh; `None` for a zero cell count or an empty mesh.
pub fn cage_basis(mesh: &Mesh, cells: [usize; 3]) -> Option<Cage> {
    if cells.contains(&0) || mesh.vertices.is_empty() {
        return None;
    }
    let (mut lo, mut hi) = bounding_box(mesh.vertices.iter().copied());
    let size = (0..3).map(|k| hi[k] - lo[k]).fold(0.0, f64::max).max(1e-9);
    for k in 0..3 {
        let grow = 0.01 * size;
        lo[k] -= grow;
        hi[k] += grow;
    }
    let counts = cells.map(|c| c + 1);
    let node = |a: usize, b: usize, c: usize| a + counts[0] * (b + counts[1] * c);
    let nodes: Vec<[f64; 3]> = (0..counts[2])
        .flat_map(|c| {
            (0..counts[1]).flat_map(move |b| {
                (0..counts[0]).map(move |a| {
                    let t = [a, b, c];
                    [0, 1, 2].map(|k| lo[k] + (hi[k] - lo[k]) * t[k] as f64 / cells[k] as f64)
                })
            })
        })
        .collect();
    let modes = 3 * nodes.len();
    let mut basis = Basis::zeros(mesh.vertices.len(), modes);
    for (i, v) in mesh.vertices.iter().enumerate() {
        let mut cell = [0usize; 3];
        let mut frac = [0.0; 3];
        for k in 0..3 {
            let x = (v[k] - lo[k]) / (hi[k] - lo[k]) * cells[k] as f64;
            let c = (x.floor().max(0.0) as usize).min(cells[k] - 1);
            cell[k] = c;
            frac[k] = (x - c as f64).clamp(0.0, 1.0);
        }
        for corner in 0..8 {
            let d = [corner & 1, (corner >> 1) & 1, (corner >> 2) & 1];
            let w: f64 = (0..3)
                .map(|k| if d[k] == 1 { frac[k] } else { 1.0 - frac[k] })
                .product();
            let n = node(cell[0] + d[0], cell[1] + d[1], cell[2] + d[2]);
            for k in 0..3 {
                basis.data[(3 * i + k) * modes + 3 * n + k] += w;
            }
        }
    }
    Some(Cage {
        nodes,
        counts,
        basis,
    })
}

/// The λ-scaling sphere update of Mendoza & O'Sullivan (section 4.4), for comparison with the
/// BD-Tree's exact bounds: a sphere `(c, r)` associated with coarse nodes `V` (rest positions
/// `rest[v]`, displacements `moved[v] − rest[v]`) gets the center `c + mean displacement` and the
/// radius `λ r`, `λ = max_v ‖moved[v] − c'‖ / ‖rest[v] − c‖`. A heuristic: nothing guarantees
/// that the moved vertices stay inside.
pub fn lambda_sphere(
    center: [f64; 3],
    radius: f64,
    rest: &[[f64; 3]],
    moved: &[[f64; 3]],
) -> [f64; 4] {
    let count = rest.len().max(1) as f64;
    let mut c = center;
    for (r, m) in rest.iter().zip(moved) {
        for k in 0..3 {
            c[k] += (m[k] - r[k]) / count;
        }
    }
    let dist = |a: [f64; 3], b: [f64; 3]| {
        ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2) + (a[2] - b[2]).powi(2)).sqrt()
    };
    let lambda = rest
        .iter()
        .zip(moved)
        .map(|(&r, &m)| {
            let before = dist(r, center);
            if before > 0.0 {
                dist(m, c) / before
            } else {
                1.0
            }
        })
        .fold(0.0f64, f64::max);
    [c[0], c[1], c[2], lambda.max(0.0) * radius]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shapes::bspline::tests::translate_all;

    #[test]
    fn moving_every_cage_node_moves_every_vertex_alike() {
        let mesh = crate::shapes::procedural::icosphere(0.5, 2);
        let cage = cage_basis(&mesh, [3, 3, 2]).expect("cage");
        assert_eq!(cage.nodes.len(), 4 * 4 * 3);
        for d in translate_all(&cage.basis, [0.5, 0.25, -1.0]) {
            for (k, t) in [0.5, 0.25, -1.0].iter().enumerate() {
                assert!((d[k] - t).abs() < 1e-12);
            }
        }
        // Trilinear weights reproduce the vertex from the cage nodes.
        for (i, v) in mesh.vertices.iter().enumerate() {
            for (k, vk) in v.iter().enumerate() {
                let x: f64 = (0..cage.nodes.len())
                    .map(|n| cage.basis.get(i, k, 3 * n + k) * cage.nodes[n][k])
                    .sum();
                assert!((x - vk).abs() < 1e-12);
            }
            let moving = (0..cage.basis.modes)
                .filter(|&j| cage.basis.get(i, 0, j) != 0.0)
                .count();
            assert!(moving <= 8);
        }
        assert!(cage_basis(&mesh, [0, 1, 1]).is_none());
    }

    #[test]
    fn lambda_scaling_keeps_the_center_on_the_mean_and_scales_the_radius() {
        let rest = [[1.0, 0.0, 0.0], [-1.0, 0.0, 0.0]];
        let moved = [[2.0, 0.0, 0.0], [-2.0, 0.0, 0.0]];
        assert_eq!(
            lambda_sphere([0.0; 3], 1.5, &rest, &moved),
            [0.0, 0.0, 0.0, 3.0]
        );
        let shifted = [[1.5, 0.0, 0.0], [-0.5, 0.0, 0.0]];
        assert_eq!(
            lambda_sphere([0.0; 3], 1.0, &rest, &shifted),
            [0.5, 0.0, 0.0, 1.0]
        );
    }
}
