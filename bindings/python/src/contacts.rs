//! Contact data: `contacts` (point, normal, depth and the Jacobian `∂depth/∂q` of each body)
//! and `within` (pairs closer than a distance, with witnesses) — the host's
//! [`host::contacts`], [`host::contact_jacobians`] and [`host::within`] (f32 answers measured
//! again in f64 on the stored model: no negative depth, one contact per refined pair).

use bdtree_std::host;
use numpy::ndarray::Array2;
use numpy::IntoPyArray;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::answers;
use crate::args::distance_arg;
use crate::body::borrow_two;
use crate::error::query_error;

/// The rows of one body (`side` 0 for a, 1 for b) of every contact's Jacobian, `modes` wide.
fn jacobian(rows: &[host::ContactJacobian], side: usize, modes: usize) -> Array2<f64> {
    let mut out = Array2::zeros((rows.len(), modes));
    for (i, r) in rows.iter().enumerate() {
        let row = if side == 0 { &r.a } else { &r.b };
        for (j, &v) in row.iter().enumerate().take(modes) {
            out[[i, j]] = v;
        }
    }
    out
}

/// Every intersecting triangle pair of two bodies with its contact: a dict of `pairs` int64
/// (K, 2) `[triangle of a, triangle of b]` (rows sorted, the pairs of `collide`), `points`
/// float64 (K, 3) (world: a point of the intersection, on both triangles within rounding),
/// `normals` float64 (K, 3) (unit, of least penetration, from a's triangle to b's), `depths`
/// float64 (K,) (≥ 0: moving b's triangle by `depth · normal` separates the pair; 0 for
/// touching; measured in f64 on the stored model, for f32 trees too), and `jacobian_a` (K,
/// M_a), `jacobian_b` (K, M_b): the derivatives `∂depth/∂q` of each body — moving `q_a` by
/// `δ` changes the depth by `jacobian_a @ δ` to first order, the normal turning with the
/// triangle features that define it ([`host::jacobian`]: the definition, and where it is not
/// the derivative — a feature switch, depth 0). A penalty force of stiffness k then has the
/// generalized forces `−k · jacobian.T @ depths` on each body's q.
#[pyfunction]
pub(crate) fn contacts<'py>(
    py: Python<'py>,
    a: &Bound<'py, PyAny>,
    b: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyDict>> {
    let (mut a, mut b) = borrow_two(["a", "b"], a, b)?;
    let found = host::contacts(&mut a.body, &mut b.body)
        .map_err(|e| query_error("contacts", &[("a", &a.body), ("b", &b.body)], e))?;
    let found = found.items;
    let derivatives = host::contact_jacobians(&mut a.body, &mut b.body, &found)
        .map_err(|e| query_error("contacts", &[("a", &a.body), ("b", &b.body)], e))?;
    let ja = jacobian(&derivatives, 0, a.body.tree().modes());
    let jb = jacobian(&derivatives, 1, b.body.tree().modes());
    let d = PyDict::new(py);
    answers::contacts(&d, found.iter())?;
    d.set_item("jacobian_a", ja.into_pyarray(py))?;
    d.set_item("jacobian_b", jb.into_pyarray(py))?;
    Ok(d)
}

/// Every triangle pair of two bodies at most `distance` apart (intersecting pairs at 0): a
/// dict of `pairs` int64 (K, 2) (rows sorted), `distances` float64 (K,), `points_a` and
/// `points_b` float64 (K, 3) (world witnesses on each triangle). Conservative: every pair
/// within `distance` is reported; a reported pair is at most `distance` plus the rounding
/// tolerance apart (measured in f64 on the stored model, for f32 trees too).
#[pyfunction]
pub(crate) fn within<'py>(
    py: Python<'py>,
    a: &Bound<'py, PyAny>,
    b: &Bound<'py, PyAny>,
    distance: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyDict>> {
    let distance = distance_arg(distance)?;
    let (mut a, mut b) = borrow_two(["a", "b"], a, b)?;
    let found = host::within(&mut a.body, &mut b.body, distance)
        .map_err(|e| query_error("within", &[("a", &a.body), ("b", &b.body)], e))?;
    let d = PyDict::new(py);
    answers::near(&d, found.items.iter())?;
    Ok(d)
}
