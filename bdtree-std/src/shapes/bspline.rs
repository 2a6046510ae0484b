//! Local bases: reduced models whose modes each move a small part of the mesh. This file holds
//! the B-spline patch; [`super::cage`] the cage.
//!
//! * [`bspline_patch`]: a uniform clamped B-spline surface (Lau et al.'s deforming NURBS with
//!   unit weights) sampled at a fixed `(u, v)` grid. With fixed parameters the surface is linear
//!   in its control points, so `q` = control-point displacements (3 per control point, x y z)
//!   and `U` holds the basis-function products `N_a(u) N_b(v)`: a vertex moves with at most
//!   `(p + 1)²` control points.
//! * [`cage_basis`](super::cage::cage_basis): a coarse lattice cage around a dense mesh, each vertex carried by the
//!   trilinear weights of its cage cell (the coarse mesh steering a dense one, as in Mendoza &
//!   O'Sullivan): `q` = cage-node displacements; a vertex moves with 8 nodes.
//!
//! Both are partitions of unity — moving every control point or cage node by `t` moves every
//! vertex by `t` — which the tests check, with their local support.

use crate::io::{Basis, Mesh};

/// Values of the `count` uniform clamped B-spline basis functions of degree `degree` at `t` in
/// `[0, 1]` (Cox–de Boor); they sum to 1.
fn bspline_values(count: usize, degree: usize, t: f64) -> Vec<f64> {
    let p = degree.min(count.saturating_sub(1));
    // Clamped uniform knots: p + 1 zeros, interior, p + 1 ones.
    let spans = count - p;
    let mut knots = vec![0.0; p + 1];
    knots.extend((1..spans).map(|k| k as f64 / spans as f64));
    knots.extend(vec![1.0; p + 1]);
    let t = t.clamp(0.0, 1.0);
    // Degree 0: the span containing t (the last span includes t = 1).
    let mut n: Vec<f64> = (0..knots.len() - 1)
        .map(|i| {
            let inside = knots[i] <= t && t < knots[i + 1];
            let last = t >= 1.0 && knots[i] < 1.0 && knots[i + 1] >= 1.0;
            f64::from(u8::from(inside || last))
        })
        .collect();
    for d in 1..=p {
        let mut next = vec![0.0; knots.len() - 1 - d];
        for (i, slot) in next.iter_mut().enumerate() {
            let left = knots[i + d] - knots[i];
            let right = knots[i + d + 1] - knots[i + 1];
            let a = if left > 0.0 {
                (t - knots[i]) / left * n[i]
            } else {
                0.0
            };
            let b = if right > 0.0 {
                (knots[i + d + 1] - t) / right * n[i + 1]
            } else {
                0.0
            };
            *slot = a + b;
        }
        n = next;
    }
    n.truncate(count);
    n
}

/// A B-spline patch: its sampled mesh, the local basis (3 columns per control point, control
/// point `(a, b)` at column block `a + b·controls[0]`), and the rest control points.
#[derive(Debug, Clone)]
pub struct Patch {
    /// The sampled surface: `samples[0] × samples[1]` vertices in a grid, two triangles per cell.
    pub mesh: Mesh,
    /// `U`, 3N × 3C: column `3c + k` moves coordinate `k` of control point `c`.
    pub basis: Basis,
    /// Rest control points, row-major over `(a, b)`.
    pub controls: Vec<[f64; 3]>,
}

/// A flat `width × height` patch in the z = 0 plane, centered on the origin, with
/// `controls[0] × controls[1]` control points of a degree-`degree` uniform clamped B-spline,
/// sampled at `samples[0] × samples[1]` parameter values (at least 2 each). `None` for fewer
/// than 2 control points or samples along a side.
pub fn bspline_patch(
    width: f64,
    height: f64,
    controls: [usize; 2],
    degree: usize,
    samples: [usize; 2],
) -> Option<Patch> {
    let [cu, cv] = controls;
    let [su, sv] = samples;
    if cu < 2 || cv < 2 || su < 2 || sv < 2 {
        return None;
    }
    let control_points: Vec<[f64; 3]> = (0..cv)
        .flat_map(|b| {
            (0..cu).map(move |a| {
                [
                    width * (a as f64 / (cu - 1) as f64 - 0.5),
                    height * (b as f64 / (cv - 1) as f64 - 0.5),
                    0.0,
                ]
            })
        })
        .collect();
    let modes = 3 * cu * cv;
    let mut vertices = Vec::with_capacity(su * sv);
    let mut basis = Basis::zeros(su * sv, modes);
    for j in 0..sv {
        let nv = bspline_values(cv, degree, j as f64 / (sv - 1) as f64);
        for i in 0..su {
            let nu = bspline_values(cu, degree, i as f64 / (su - 1) as f64);
            let vertex = vertices.len();
            let mut p = [0.0; 3];
            for (b, &wb) in nv.iter().enumerate() {
                for (a, &wa) in nu.iter().enumerate() {
                    let w = wa * wb;
                    if w == 0.0 {
                        continue;
                    }
                    let c = a + b * cu;
                    for k in 0..3 {
                        p[k] += w * control_points[c][k];
                        basis.data[(3 * vertex + k) * modes + 3 * c + k] = w;
                    }
                }
            }
            vertices.push(p);
        }
    }
    let mut triangles = Vec::with_capacity(2 * (su - 1) * (sv - 1));
    for j in 0..sv - 1 {
        for i in 0..su - 1 {
            let v = |i: usize, j: usize| (i + j * su) as u32;
            triangles.push([v(i, j), v(i + 1, j), v(i + 1, j + 1)]);
            triangles.push([v(i, j), v(i + 1, j + 1), v(i, j + 1)]);
        }
    }
    Some(Patch {
        mesh: Mesh {
            vertices,
            triangles,
        },
        basis,
        controls: control_points,
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    #[test]
    fn bspline_values_are_a_partition_of_unity_with_local_support() {
        for (count, degree) in [(2, 3), (4, 3), (7, 3), (5, 2), (6, 1)] {
            for k in 0..=40 {
                let t = k as f64 / 40.0;
                let n = bspline_values(count, degree, t);
                assert_eq!(n.len(), count);
                let sum: f64 = n.iter().sum();
                assert!(
                    (sum - 1.0).abs() < 1e-12,
                    "count {count} degree {degree} t {t}: {sum}"
                );
                assert!(n.iter().all(|&x| x >= -1e-15));
                let nonzero = n.iter().filter(|&&x| x > 0.0).count();
                assert!(
                    nonzero <= degree.min(count - 1) + 1,
                    "{nonzero} functions at {t}"
                );
            }
        }
        // Clamped: the ends interpolate the end control points.
        assert_eq!(bspline_values(6, 3, 0.0)[0], 1.0);
        assert_eq!(bspline_values(6, 3, 1.0)[5], 1.0);
    }

    /// Per vertex, its displacement when every control point (cage node) moves by `t`.
    pub(crate) fn translate_all(basis: &Basis, t: [f64; 3]) -> Vec<[f64; 3]> {
        (0..basis.vertices)
            .map(|i| {
                [0, 1, 2].map(|k| {
                    (0..basis.modes / 3)
                        .map(|c| basis.get(i, k, 3 * c + k) * t[k])
                        .sum()
                })
            })
            .collect()
    }

    #[test]
    fn moving_every_control_point_moves_every_vertex_alike() {
        let patch = bspline_patch(2.0, 1.0, [6, 4], 3, [17, 9]).expect("patch");
        assert_eq!(patch.mesh.vertices.len(), 17 * 9);
        assert_eq!(patch.basis.modes, 3 * 24);
        for d in translate_all(&patch.basis, [0.1, -0.2, 0.3]) {
            for (k, t) in [0.1, -0.2, 0.3].iter().enumerate() {
                assert!((d[k] - t).abs() < 1e-12);
            }
        }
        // At most 16 control points move a vertex of a bicubic patch.
        for i in 0..patch.basis.vertices {
            let moving = (0..patch.basis.modes)
                .filter(|&j| patch.basis.get(i, 0, j) != 0.0)
                .count();
            assert!(
                moving <= 16,
                "vertex {i} moves with {moving} control points"
            );
        }
        // The corners interpolate the corner control points.
        assert_eq!(patch.mesh.vertices[0], patch.controls[0]);
        assert!(bspline_patch(1.0, 1.0, [1, 4], 3, [5, 5]).is_none());
    }
}
