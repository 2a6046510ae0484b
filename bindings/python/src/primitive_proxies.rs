//! `collide_primitive_proxies`: the contact proxies of a body reaching into a rigid primitive —
//! the host's [`host::primitive_proxies`] (at the body's own origin, the primitive placed in
//! f64 before rounding): contact response against floors and walls at the cost of a depth-`L`
//! tree.

use bdtree_std::host;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::answers;
use crate::args::proxy_depth_arg;
use crate::body::borrow_one;
use crate::error::query_error;
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
    let depth = proxy_depth_arg("depth", depth)?;
    let primitive = primitive_arg("primitive", primitive)?;
    let mut body = borrow_one("body", body)?;
    let found = host::primitive_proxies(&mut body.body, depth, &primitive)
        .map_err(|e| query_error("collide_primitive_proxies", &[("body", &body.body)], e))?;
    let d = PyDict::new(py);
    answers::primitive_proxies(&d, found.items.iter())?;
    Ok(d)
}
