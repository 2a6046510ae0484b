//! `bdtree.Tree`: a tree image built from NumPy arrays or read from a file — a
//! [`bdtree_std::host::Tree`].

use bdtree_std::build::{BuildOptions, TreeKind};
use bdtree_std::host;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::answers::precision_text;
use crate::args::{basis_from, flag_arg, mesh_arg, precision_of, tree_of};
use crate::error::err;

/// A BD-Tree image: the tree of a mesh and its basis, in f32 or f64, as the kernel reads it.
#[pyclass(frozen, module = "bdtree")]
pub(crate) struct Tree {
    pub(crate) tree: host::Tree,
}

impl Tree {
    /// "f32" or "f64".
    fn precision_name(&self) -> &'static str {
        precision_text(self.tree.precision())
    }
}

#[pymethods]
impl Tree {
    /// Builds the tree of a mesh (`vertices` (N, 3), `faces` (F, 3)) and its displacement
    /// basis (`modes`: (3N, M), (N, 3, M) or None for a rigid body), in `precision` "f32" or
    /// "f64"; `nested=True` makes proxy queries possible; `tree` "median" (the median split)
    /// or "medial" (the medial-axis partition: closed meshes only, an open one is refused
    /// naming its first open edge); `self_cull=True` stores the self-collision culling data in
    /// the image (the body's `self_pairs` and a device then cull from it; off by default: give
    /// it for a body asked for its self pairs). Releases the GIL while building.
    #[staticmethod]
    #[pyo3(
        signature = (vertices, faces, modes = None, precision = None, nested = None, tree = None, self_cull = None),
        text_signature = "(vertices, faces, modes=None, precision='f64', nested=False, tree='median', self_cull=False)"
    )]
    fn build(
        py: Python<'_>,
        vertices: &Bound<'_, PyAny>,
        faces: &Bound<'_, PyAny>,
        modes: Option<&Bound<'_, PyAny>>,
        precision: Option<&Bound<'_, PyAny>>,
        nested: Option<&Bound<'_, PyAny>>,
        tree: Option<&Bound<'_, PyAny>>,
        self_cull: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Tree> {
        let mesh = mesh_arg(vertices, faces)?;
        let basis = modes
            .filter(|m| !m.is_none())
            .map(|m| basis_from(m, mesh.vertices.len()))
            .transpose()?;
        let precision = match precision {
            Some(p) => precision_of(p)?,
            None => bdtree_std::build::Precision::F64,
        };
        let nested = flag_arg("nested", nested)?;
        let self_cull = flag_arg("self_cull", self_cull)?;
        let tree = match tree {
            Some(t) => tree_of(t)?,
            None => TreeKind::default(),
        };
        let options = BuildOptions {
            precision,
            nested,
            tree,
            self_cull,
            ..BuildOptions::default()
        };
        let built = py.detach(|| host::Tree::build(&mesh, basis.as_ref(), options));
        let (tree, _report) = built.map_err(err)?;
        Ok(Tree { tree })
    }

    /// Reads a tree image written by `save` or `bdtree build` (validated: header, checksum,
    /// every link and value).
    #[staticmethod]
    fn load(path: std::path::PathBuf) -> PyResult<Tree> {
        let tree = host::Tree::read(&path).map_err(err)?;
        Ok(Tree { tree })
    }

    /// Writes the image (the file `bdtree` and the C API read).
    fn save(&self, path: std::path::PathBuf) -> PyResult<()> {
        std::fs::write(&path, self.tree.image().as_bytes())
            .map_err(|e| err(format!("{}: {e}", path.display())))
    }

    /// The image's bytes.
    fn to_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, pyo3::types::PyBytes> {
        pyo3::types::PyBytes::new(py, self.tree.image().as_bytes())
    }

    /// `{"nodes", "depth", "modes", "bytes", "triangles", "vertices", "precision", "nested"}`.
    fn info<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let h = self.tree.header();
        let d = PyDict::new(py);
        d.set_item("nodes", h.nodes)?;
        d.set_item("depth", h.depth)?;
        d.set_item("modes", h.modes)?;
        d.set_item("bytes", h.total_len)?;
        d.set_item("triangles", h.triangles)?;
        d.set_item("vertices", h.vertices)?;
        d.set_item("precision", self.precision_name())?;
        d.set_item("nested", self.tree.nested())?;
        Ok(d)
    }

    /// Modes `M` (the length of `q`).
    #[getter]
    fn modes(&self) -> u32 {
        self.tree.header().modes
    }

    /// "f32" or "f64".
    #[getter]
    fn precision(&self) -> &'static str {
        self.precision_name()
    }

    fn __repr__(&self) -> String {
        let h = self.tree.header();
        format!(
            "bdtree.Tree({} nodes, depth {}, {} modes, {} triangles, {}, {} bytes)",
            h.nodes,
            h.depth,
            h.modes,
            h.triangles,
            self.precision_name(),
            h.total_len
        )
    }
}
