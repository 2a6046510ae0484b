//! `collide_primitive_proxies`: the contact proxies of a body reaching into a rigid primitive —
//! the host's [`host::primitive_proxies`] (at the body's own origin, the primitive placed in
//! f64 before rounding): contact response against floors and walls at the cost of a depth-`L`
//! tree.

use bdtree_std::host;
use numpy::ndarray::Array1;
use numpy::IntoPyArray;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::args::{int_arg, rows};
use crate::body::{body_arg, query_error};
use crate::primitives::primitive_arg;

/// The contact proxies of `body` at `depth` (nodes at that depth, or leaves above it) whose
/// spheres may reach into `primitive`: a dict of `nodes` int64 (K,) (sorted), `spheres` float64
/// (K, 4) (world `[x, y, z, r]`) and `depths` float64 (K,) (how deep each sphere reaches into
/// the primitive). Conservative: every triangle touching the primitive lies under a reported
/// proxy. Needs a tree built with `nested=True`.
#[pyfunction]
pub(crate) fn collide_primitive_proxies<'py>(
    py: Python<'py>,
    body: &Bound<'py, PyAny>,
    depth: &Bound<'py, PyAny>,
    primitive: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyDict>> {
    let what = "a tree depth, an integer ≥ 0 (the root has depth 0)";
    let depth = int_arg("depth", depth, 0, 1 << 16, what)? as u32;
    let primitive = primitive_arg("primitive", primitive)?;
    let body = body_arg("body", body)?;
    let mut body = body.try_borrow_mut()?;
    let found = host::primitive_proxies(&mut body.body, depth, &primitive)
        .map_err(|e| query_error("collide_primitive_proxies", &[("body", &body.body)], e))?;
    let found = found.items;
    let d = PyDict::new(py);
    d.set_item(
        "nodes",
        Array1::from_iter(found.iter().map(|p| i64::from(p.node))).into_pyarray(py),
    )?;
    let spheres: Vec<[f64; 4]> = found.iter().map(|p| p.sphere).collect();
    d.set_item("spheres", rows(py, &spheres))?;
    d.set_item(
        "depths",
        Array1::from_iter(found.iter().map(|p| p.depth)).into_pyarray(py),
    )?;
    Ok(d)
}
