//! Explicit deformation: the world vertices `R (p_i + U_i q) + t` of a body, in f64.

use crate::io::basis::Basis;
use crate::io::pose::Pose;
use crate::io::scene::Scene;

/// The explicitly deformed world vertices `R (p_i + U_i q) + t`, all in f64.
///
/// Costs `3 N M` multiply-adds for the deformation plus `9 N` for the pose: the refit-style work
/// the BD-Tree avoids, which is what makes this the reference.
///
/// # Panics
///
/// If `basis` does not match `vertices` (vertex count) or `q` (mode count), or if `basis` is
/// `None` and `q` is not empty. These are programming errors: scenes loaded by
/// [`Scene::load`] are checked against each other.
pub fn deform(
    vertices: &[[f64; 3]],
    basis: Option<&Basis>,
    q: &[f64],
    pose: &Pose,
) -> Vec<[f64; 3]> {
    let r = pose.matrix();
    match basis {
        None => {
            assert!(
                q.is_empty(),
                "deform: a rigid body (no basis) takes an empty q, got {} entries",
                q.len()
            );
            vertices
                .iter()
                .map(|&p| apply_matrix(&r, pose.translation, p))
                .collect()
        }
        Some(basis) => {
            assert_eq!(
                basis.vertices,
                vertices.len(),
                "deform: the basis has {} vertices but the mesh has {}",
                basis.vertices,
                vertices.len()
            );
            assert_eq!(
                basis.modes,
                q.len(),
                "deform: the basis has {} modes but q has {} entries",
                basis.modes,
                q.len()
            );
            assert_eq!(
                basis.data.len(),
                3 * basis.vertices * basis.modes,
                "deform: basis data has the wrong length"
            );
            let m = basis.modes;
            vertices
                .iter()
                .enumerate()
                .map(|(i, &p)| {
                    let mut x = p;
                    for (k, xk) in x.iter_mut().enumerate() {
                        let row = &basis.data[(3 * i + k) * m..(3 * i + k + 1) * m];
                        *xk += row.iter().zip(q).map(|(u, qj)| u * qj).sum::<f64>();
                    }
                    apply_matrix(&r, pose.translation, x)
                })
                .collect()
        }
    }
}

fn apply_matrix(r: &[[f64; 3]; 3], t: [f64; 3], x: [f64; 3]) -> [f64; 3] {
    let mut y = [0.0; 3];
    for (k, row) in r.iter().enumerate() {
        y[k] = row[0] * x[0] + row[1] * x[1] + row[2] * x[2] + t[k];
    }
    y
}

impl Scene {
    /// The world vertices `R (p + U q) + t` of body `body` in frame `frame` (computed in f64 by
    /// [`deform`]), or `None` if either index is out of range.
    pub fn world_vertices(&self, frame: usize, body: usize) -> Option<Vec<[f64; 3]>> {
        let (pose, q) = self.frames.get(frame)?.get(body)?;
        let b = self.bodies.get(body)?;
        Some(deform(&b.mesh.vertices, b.basis.as_ref(), q, pose))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deform_applies_basis_then_pose() {
        let vertices = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0]];
        // Mode 0 moves vertex 1 by +z, mode 1 moves vertex 0 by +y.
        let mut basis = Basis::zeros(2, 2);
        basis.data[(3 + 2) * 2] = 1.0;
        basis.data[2 + 1] = 1.0;
        let pose = Pose::from_translation([10.0, 0.0, 0.0]);
        let world = deform(&vertices, Some(&basis), &[0.5, 2.0], &pose);
        assert_eq!(world, vec![[10.0, 2.0, 0.0], [11.0, 0.0, 0.5]]);
        let rigid = deform(&vertices, None, &[], &pose);
        assert_eq!(rigid, vec![[10.0, 0.0, 0.0], [11.0, 0.0, 0.0]]);
    }
}
