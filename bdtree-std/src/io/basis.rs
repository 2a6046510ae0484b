//! Displacement bases `U`: a reduced deformable body moves its vertex `i` to `x_i = p_i + U_i q`,
//! where `U_i` is the 3 × M block of the basis that belongs to vertex `i` and `q` holds the M
//! modal coordinates. Bases are read from and written to NumPy files by [`super::npy`].

use std::path::Path;

use crate::error::LoadError;

/// A displacement basis U (3N × M) in f64, row-major: rows x0, y0, z0, x1, ...; entry (3i+k, j)
/// at data[(3*i + k) * modes + j].
#[derive(Debug, Clone, PartialEq)]
pub struct Basis {
    /// N, the number of vertices the basis moves.
    pub vertices: usize,
    /// M, the number of modes (columns).
    pub modes: usize,
    /// The 3N × M entries, row-major; `data.len() == 3 * vertices * modes`.
    pub data: Vec<f64>,
}

impl Basis {
    /// The all-zero basis of `vertices` vertices and `modes` modes.
    ///
    /// # Panics
    ///
    /// If `3 · vertices · modes` overflows `usize` (a host-only helper, never given file data).
    pub fn zeros(vertices: usize, modes: usize) -> Basis {
        let len = vertices
            .checked_mul(3)
            .and_then(|rows| rows.checked_mul(modes))
            .unwrap_or_else(|| panic!("basis of {vertices} vertices × {modes} modes is too big"));
        Basis {
            vertices,
            modes,
            data: vec![0.0; len],
        }
    }

    /// Entry `U[3·vertex + axis][mode]`: how far mode `mode` moves coordinate `axis` (0 = x,
    /// 1 = y, 2 = z) of vertex `vertex`.
    ///
    /// # Panics
    ///
    /// If `vertex >= self.vertices`, `axis >= 3` or `mode >= self.modes` (a host-only helper;
    /// the indices are the caller's, not a file's), or if `data` is shorter than the shape says.
    pub fn get(&self, vertex: usize, axis: usize, mode: usize) -> f64 {
        assert!(
            vertex < self.vertices && axis < 3 && mode < self.modes,
            "basis index (vertex {vertex}, axis {axis}, mode {mode}) out of range \
             ({} vertices, {} modes)",
            self.vertices,
            self.modes
        );
        self.data[(3 * vertex + axis) * self.modes + mode]
    }

    /// Error if self.vertices != mesh_vertices; the message says both numbers, e.g. "basis has
    /// 3·1200 = 3600 rows (1200 vertices) but the mesh has 1201 vertices".
    ///
    /// `path` names the basis file in the error.
    pub fn check_vertex_count(&self, mesh_vertices: usize, path: &Path) -> Result<(), LoadError> {
        if self.vertices == mesh_vertices {
            return Ok(());
        }
        let n = self.vertices;
        let rows = n.saturating_mul(3);
        Err(LoadError::new(
            path,
            format!(
                "basis has 3·{n} = {rows} rows ({n} vertices) \
                 but the mesh has {mesh_vertices} vertices"
            ),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::error::testing::err_text;

    #[test]
    fn zeros_and_get_use_the_documented_layout() {
        let mut b = Basis::zeros(4, 3);
        assert_eq!(b.data, vec![0.0; 36]);
        b.data[(3 * 2 + 1) * 3 + 2] = 7.0;
        assert_eq!(b.get(2, 1, 2), 7.0);
        assert_eq!(b.get(2, 1, 1), 0.0);
    }

    #[test]
    fn check_vertex_count_says_both_numbers() {
        let b = Basis::zeros(1200, 2);
        assert_eq!(b.check_vertex_count(1200, Path::new("u.npy")), Ok(()));
        let text = err_text(b.check_vertex_count(1201, Path::new("u.npy")));
        assert_eq!(
            text,
            "u.npy: basis has 3·1200 = 3600 rows (1200 vertices) but the mesh has 1201 vertices"
        );
    }
}
