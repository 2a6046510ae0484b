//! Triangle meshes. They are read from OBJ ([`super::obj`]), PLY ([`super::ply`]) and STL
//! ([`super::stl`]) files, chosen by extension by [`super::load::load_mesh`].
//!
//! A [`Mesh`] keeps its vertices in the order that defines them in the file, because a
//! displacement basis (see [`super::basis`]) indexes vertices by that order: row `3i + k` of the
//! basis moves coordinate `k` of vertex `i`. Nothing is ever merged, reordered or dropped, except
//! in STL files, which have no shared vertices to begin with.
//!
//! Every loader returns either a mesh that passes [`Mesh::validate`] (at least one triangle,
//! every index in range, every coordinate finite) or a [`LoadError`] naming the file, the place
//! (a line for text, a byte offset for binary data) and the problem. No input makes a loader
//! panic, and declared counts never cause an allocation larger than the file justifies.

use std::path::Path;

use crate::error::LoadError;

/// A triangle mesh in f64, vertices in file order (bases index them), triangles in face order.
///
/// For OBJ and PLY, polygons are fan-triangulated, so triangle indices are in face order after
/// fan triangulation; for STL, vertices are shared corners in order of first appearance (see the
/// module documentation of [`super::obj`], [`super::ply`] and [`super::stl`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Mesh {
    /// Vertex positions, in the order the file defines them.
    pub vertices: Vec<[f64; 3]>,
    /// Triangles as indices into [`Mesh::vertices`], in the order the file defines them.
    pub triangles: Vec<[u32; 3]>,
}

impl Mesh {
    /// Checks: at least one triangle, every index < vertices.len(), every coordinate finite.
    ///
    /// `path` is only used to name the file in the error, which numbers vertices and triangles
    /// from 0. Cost: one pass over the vertices and the triangles.
    pub fn validate(&self, path: &Path) -> Result<(), LoadError> {
        if self.triangles.is_empty() {
            return Err(LoadError::new(path, "the mesh has no triangles"));
        }
        let n = self.vertices.len();
        if u32::try_from(n).is_err() {
            return Err(LoadError::new(
                path,
                format!(
                    "the mesh has {n} vertices; at most {} can be indexed",
                    u32::MAX
                ),
            ));
        }
        for (i, v) in self.vertices.iter().enumerate() {
            if !v.iter().all(|c| c.is_finite()) {
                return Err(LoadError::at(
                    path,
                    format!("vertex {i}"),
                    format!("coordinate is not finite ({}, {}, {})", v[0], v[1], v[2]),
                ));
            }
        }
        for (t, tri) in self.triangles.iter().enumerate() {
            for &ix in tri {
                if usize::try_from(ix).map_or(true, |ix| ix >= n) {
                    return Err(LoadError::at(
                        path,
                        format!("triangle {t}"),
                        format!("vertex index {ix} is out of range (the mesh has {n} vertices)"),
                    ));
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::error::testing::assert_err;

    #[test]
    fn validate_reports_each_problem() {
        let path = Path::new("v.obj");
        let empty = Mesh {
            vertices: vec![[0.0; 3]; 3],
            triangles: vec![],
        };
        assert_err(empty.validate(path), "v.obj", &["no triangles"]);
        let range = Mesh {
            vertices: vec![[0.0; 3]; 3],
            triangles: vec![[0, 1, 2], [0, 3, 1]],
        };
        assert_err(
            range.validate(path),
            "v.obj",
            &[
                "triangle 1",
                "vertex index 3 is out of range (the mesh has 3 vertices)",
            ],
        );
        let nan = Mesh {
            vertices: vec![[0.0; 3], [0.0, f64::NAN, 0.0], [0.0; 3]],
            triangles: vec![[0, 1, 2]],
        };
        assert_err(nan.validate(path), "v.obj", &["vertex 1", "not finite"]);
        let good = Mesh {
            vertices: vec![[0.0; 3]; 3],
            triangles: vec![[0, 1, 2]],
        };
        assert_eq!(good.validate(path), Ok(()));
    }
}
