//! `bdtree.collide_swept`: the pairs two moving bodies may touch between two steps.

use std::sync::Arc;

use bdtree_core::{
    collide_swept as core_swept, floating_origin, stack_capacity, Body as CoreBody, Scalar,
    SweptPair,
};
use numpy::ndarray::Array1;
use numpy::{IntoPyArray, PyArray1, PyArray2};
use pyo3::prelude::*;

use crate::args::pair_array;
use crate::body::{body_arg, depth, status_error, AnyBody, Body};
use crate::err;

/// The floating origin of a swept query: [`floating_origin`] of the four translations (both
/// bodies at both ends of the motion), as the CLI's runner places a motion.
fn origin_of(bodies: &[&Body; 4]) -> [f64; 3] {
    floating_origin(&bodies.map(|b| b.state.translation))
}

/// The pairs (K, 2) and their earliest times (K,).
type Swept<'py> = (Bound<'py, PyArray2<i64>>, Bound<'py, PyArray1<f64>>);

/// Sorted `[a, b]` rows and their times.
fn swept_pairs<S: Scalar>(
    a_before: &mut CoreBody<'_, '_, S>,
    a_now: &mut CoreBody<'_, '_, S>,
    b_before: &mut CoreBody<'_, '_, S>,
    b_now: &mut CoreBody<'_, '_, S>,
) -> PyResult<Vec<([u32; 2], f64)>> {
    let mut stack = vec![[0u32; 2]; stack_capacity(depth(a_now), depth(b_now))];
    let mut found = Vec::new();
    let mut sink = |p: SweptPair<S>| {
        found.push(([p.a, p.b], p.time.to_f64()));
        true
    };
    let o = core_swept(a_before, a_now, b_before, b_now, &mut stack, &mut sink);
    if !o.status.is_complete() {
        return Err(status_error("collide_swept", o.status));
    }
    found.sort_unstable_by_key(|f| f.0);
    Ok(found)
}

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
    let (a_before, a_now) = (body_arg("a_before", a_before)?, body_arg("a_now", a_now)?);
    let (b_before, b_now) = (body_arg("b_before", b_before)?, body_arg("b_now", b_now)?);
    let (a_before, a_now, b_before, b_now) = (&a_before, &a_now, &b_before, &b_now);
    let all = [a_before, a_now, b_before, b_now];
    for (i, x) in all.iter().enumerate() {
        if all.iter().skip(i + 1).any(|y| x.is(*y)) {
            return Err(err(
                "collide_swept: the same body was given twice (each object needs one body per \
                 step: before and now)",
            ));
        }
    }
    let same_tree = |x: &Bound<'py, Body>, y: &Bound<'py, Body>| -> PyResult<bool> {
        let (x, y) = (x.try_borrow()?, y.try_borrow()?);
        let (x, y) = (&x.tree.bind(py).get().data, &y.tree.bind(py).get().data);
        // One Tree object is free; trees loaded apart are told apart by their headers (sizes,
        // checksum) before their bytes are compared.
        Ok(Arc::ptr_eq(x, y) || (x.header == y.header && x.image.as_bytes() == y.image.as_bytes()))
    };
    if !same_tree(a_before, a_now)? || !same_tree(b_before, b_now)? {
        return Err(err(
            "collide_swept: an object's bodies before and now must hold the same tree",
        ));
    }
    let (mut w, mut x, mut y, mut z) = (
        a_before.try_borrow_mut()?,
        a_now.try_borrow_mut()?,
        b_before.try_borrow_mut()?,
        b_now.try_borrow_mut()?,
    );
    let origin = origin_of(&[&*w, &*x, &*y, &*z]);
    for body in [&mut *w, &mut *x, &mut *y, &mut *z] {
        body.place(origin)?;
    }
    let found = match (&mut w.body, &mut x.body, &mut y.body, &mut z.body) {
        (AnyBody::F32(w), AnyBody::F32(x), AnyBody::F32(y), AnyBody::F32(z)) => {
            swept_pairs(w.body(), x.body(), y.body(), z.body())?
        }
        (AnyBody::F64(w), AnyBody::F64(x), AnyBody::F64(y), AnyBody::F64(z)) => {
            swept_pairs(w.body(), x.body(), y.body(), z.body())?
        }
        _ => {
            return Err(err(
                "the bodies' trees have different precisions (f32 and f64): build all in one",
            ))
        }
    };
    let pairs: Vec<[u32; 2]> = found.iter().map(|f| f.0).collect();
    let times = Array1::from_iter(found.iter().map(|f| f.1));
    Ok((pair_array(py, &pairs), times.into_pyarray(py)))
}
