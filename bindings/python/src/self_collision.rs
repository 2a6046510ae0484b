//! Self-collision: `collide_self` — the host's [`host::self_pairs`] (the body at its own
//! translation, f32 pairs refined in f64), named as the kernel's and the host's
//! `self_collision`.

use bdtree_std::host;
use numpy::PyArray2;
use pyo3::prelude::*;

use crate::answers::pair_array;
use crate::body::borrow_one;
use crate::error::query_error;

/// Every intersecting pair of non-adjacent triangles of one body: int64 (K, 2), `a < b` in
/// each row, rows sorted. The body is placed at its own translation; f32 pairs are refined in
/// f64.
#[pyfunction]
pub(crate) fn collide_self<'py>(
    py: Python<'py>,
    body: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyArray2<i64>>> {
    let mut body = borrow_one("body", body)?;
    let found = host::self_pairs(&mut body.body)
        .map_err(|e| query_error("collide_self", &[("body", &body.body)], e))?;
    Ok(pair_array(py, &found.items))
}
