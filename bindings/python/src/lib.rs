//! # bdtree (Python)
//!
//! The Python module `bdtree`, a thin client of [`bdtree_std::host`] (trees, bodies and every
//! query: each body pair at its own floating origin, f32 answers refined in f64, world
//! coordinates, sorted) and of [`bdtree_std`]'s loading, modes and export: NumPy arrays in (any float dtype, C or Fortran
//! order), NumPy arrays out. Every error of the library, and every bad argument, becomes a
//! `bdtree.Error` (a `ValueError`) carrying its message — file, place and problem for files,
//! the parameter and its value for arguments, the kernel's sentence for bad states.
//!
//! By concept: `error` (`bdtree.Error`, the form of a bad argument's message and the Python
//! words of the host's refusals), `args` (Python values to Rust: the argument checks),
//! `answers` (the host's answers to Python: one dict builder per answer type), `tree` and
//! `body` (the two classes, over [`bdtree_std::host::Tree`] and [`bdtree_std::host::Body`]),
//! then one file per family of queries, named as the kernel's and the host's — `triangles`
//! (collide, collide_frames), `self_collision` (collide_self), `separation` (distance,
//! closer_than), `contacts` (contact data and the Jacobian, within), `proxies` (proxies and
//! penalty forces), `primitives` (the primitive class, its contacts and proxies), `swept`,
//! `traversal` (`bdtree.Interruptible`), `world` (`bdtree.World`) — and `modes`, `export`. Each converts its arguments, calls the
//! host and converts the answer; this crate has no `unsafe` and no query logic of its own.

#![forbid(unsafe_code)]

mod answers;
mod args;
mod body;
mod contacts;
mod error;
mod export;
mod modes;
mod primitives;
mod proxies;
mod self_collision;
mod separation;
mod swept;
mod traversal;
mod tree;
mod triangles;
mod world;

use bdtree_std::io::Mesh;
use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray2};
use pyo3::prelude::*;

use crate::error::{err, Error};

/// `(V, F)`: float64 vertices and int64 triangles.
type MeshArrays<'py> = (Bound<'py, PyArray2<f64>>, Bound<'py, PyArray2<i64>>);

/// `(N, 3)` float64 vertices and `(F, 3)` int64 triangles of a mesh.
fn mesh_arrays<'py>(py: Python<'py>, mesh: &Mesh) -> MeshArrays<'py> {
    let v = Array2::from_shape_fn((mesh.vertices.len(), 3), |(i, k)| mesh.vertices[i][k]);
    let f = Array2::from_shape_fn((mesh.triangles.len(), 3), |(i, k)| {
        i64::from(mesh.triangles[i][k])
    });
    (v.into_pyarray(py), f.into_pyarray(py))
}

/// Reads a mesh (`.obj`, `.ply`, `.stl`): `(V, F)`, `V` of shape `(N, 3)` float64 and `F` of
/// shape `(F, 3)` int64, in the file's vertex and face order (polygons fan-triangulated).
#[pyfunction]
fn load_mesh<'py>(py: Python<'py>, path: std::path::PathBuf) -> PyResult<MeshArrays<'py>> {
    let mesh = bdtree_std::io::load_mesh(&path).map_err(err)?;
    Ok(mesh_arrays(py, &mesh))
}

/// Reads a displacement basis (`.npy`, shape `(3N, M)`): a float64 array of that shape. With
/// `vertices`, checks that it moves that many vertices.
#[pyfunction]
#[pyo3(signature = (path, vertices = None))]
fn load_basis<'py>(
    py: Python<'py>,
    path: std::path::PathBuf,
    vertices: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyArray2<f64>>> {
    let vertices = args::opt_int_arg(
        "vertices",
        vertices,
        0,
        i64::from(u32::MAX),
        "a vertex count, an integer ≥ 0, or None",
    )?;
    let basis = bdtree_std::io::load_npy(&path).map_err(err)?;
    if let Some(n) = vertices {
        basis.check_vertex_count(n as usize, &path).map_err(err)?;
    }
    let rows = basis.vertices * 3;
    let array = Array2::from_shape_vec((rows, basis.modes), basis.data).map_err(err)?;
    Ok(array.into_pyarray(py))
}

/// Exact collision detection between reduced deformable models (BD-Trees).
#[pymodule]
fn bdtree(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("Error", m.py().get_type::<Error>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("QUATERNION_TOLERANCE", bdtree_core::QUATERNION_TOLERANCE)?;
    m.add_class::<tree::Tree>()?;
    m.add_class::<body::Body>()?;
    m.add_class::<separation::Distance>()?;
    m.add_class::<primitives::Primitive>()?;
    m.add_class::<modes::Modes>()?;
    m.add_class::<world::World>()?;
    m.add_class::<traversal::Interruptible>()?;
    m.add_class::<swept::SweptFront>()?;
    m.add_function(wrap_pyfunction!(load_mesh, m)?)?;
    m.add_function(wrap_pyfunction!(load_basis, m)?)?;
    m.add_function(wrap_pyfunction!(triangles::collide, m)?)?;
    m.add_function(wrap_pyfunction!(self_collision::collide_self, m)?)?;
    m.add_function(wrap_pyfunction!(triangles::collide_frames, m)?)?;
    m.add_function(wrap_pyfunction!(separation::distance, m)?)?;
    m.add_function(wrap_pyfunction!(separation::closer_than, m)?)?;
    m.add_function(wrap_pyfunction!(swept::collide_swept, m)?)?;
    m.add_function(wrap_pyfunction!(contacts::contacts, m)?)?;
    m.add_function(wrap_pyfunction!(contacts::within, m)?)?;
    m.add_function(wrap_pyfunction!(proxies::collide_proxies, m)?)?;
    m.add_function(wrap_pyfunction!(proxies::penalty_forces, m)?)?;
    m.add_function(wrap_pyfunction!(primitives::collide_primitive, m)?)?;
    m.add_function(wrap_pyfunction!(primitives::collide_primitive_proxies, m)?)?;
    m.add_function(wrap_pyfunction!(modes::modes, m)?)?;
    m.add_function(wrap_pyfunction!(export::export, m)?)?;
    Ok(())
}
