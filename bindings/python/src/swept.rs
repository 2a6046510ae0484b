//! `bdtree.collide_swept`: the pairs two moving bodies may touch between two steps — the
//! host's [`host::swept`] (placed at the floating origin of the four translations).

use numpy::ndarray::Array1;
use numpy::{IntoPyArray, PyArray1, PyArray2};
use pyo3::prelude::*;

use bdtree_std::host;

use crate::args::pair_array;
use crate::body::{body_arg, query_error};
use crate::err;

/// The pairs (K, 2) and their earliest times (K,).
type Swept<'py> = (Bound<'py, PyArray2<i64>>, Bound<'py, PyArray1<f64>>);

/// Every triangle pair of two moving bodies that may touch at **some** time between two steps
/// (a swept query: nothing passes through another between ticks unseen). Each object is given
/// as two bodies over one tree: its state at the previous step (`a_before`, `b_before`) and at
/// this one (`a_now`, `b_now`); between them `q` and the translation move linearly and the
/// rotation by slerp on the shorter arc. Returns `(pairs, times)`: int64 (K, 2)
/// `[triangle of a, triangle of b]`, rows sorted, and float64 (K,) conservative earliest times
/// `τ ∈ [0, 1]` (0 at the previous step, 1 at this one) — the pair cannot touch before `τ`.
/// Never misses a pair that touches at some `τ`; a reported pair comes within the rounding
/// bounds of touching at its time, or is where a capped conservative advancement stopped.
/// States are taken as given in float64, as for every query. Give an object's two bodies the
/// same `Tree` (two trees loaded apart are compared byte for byte on each call).
#[pyfunction]
pub(crate) fn collide_swept<'py>(
    py: Python<'py>,
    a_before: &Bound<'py, PyAny>,
    a_now: &Bound<'py, PyAny>,
    b_before: &Bound<'py, PyAny>,
    b_now: &Bound<'py, PyAny>,
) -> PyResult<Swept<'py>> {
    let all = [
        body_arg("a_before", a_before)?,
        body_arg("a_now", a_now)?,
        body_arg("b_before", b_before)?,
        body_arg("b_now", b_now)?,
    ];
    for (i, x) in all.iter().enumerate() {
        if all.iter().skip(i + 1).any(|y| x.is(y)) {
            return Err(err(
                "collide_swept: the same body was given twice (each object needs one body per \
                 step: before and now)",
            ));
        }
    }
    let [w, x, y, z] = &all;
    let (mut w, mut x, mut y, mut z) = (
        w.try_borrow_mut()?,
        x.try_borrow_mut()?,
        y.try_borrow_mut()?,
        z.try_borrow_mut()?,
    );
    let found = host::swept(&mut w.body, &mut x.body, &mut y.body, &mut z.body).map_err(|e| {
        let bodies = [
            ("a_before", &w.body),
            ("a_now", &x.body),
            ("b_before", &y.body),
            ("b_now", &z.body),
        ];
        query_error("collide_swept", &bodies, e)
    })?;
    let pairs: Vec<[u32; 2]> = found.items.iter().map(|s| s.triangles).collect();
    let times = Array1::from_iter(found.items.iter().map(|s| s.time));
    Ok((pair_array(py, &pairs), times.into_pyarray(py)))
}
