//! `bdtree.collide_swept`: the pairs two moving bodies may touch between two steps — the
//! host's [`host::swept`] (placed at the floating origin of the four translations), or with a
//! `bdtree.SweptFront` carried from the last tick, [`host::swept_front`].

use numpy::ndarray::Array1;
use numpy::{IntoPyArray, PyArray1, PyArray2};
use pyo3::prelude::*;

use bdtree_std::host;

use crate::answers::pair_array;
use crate::args::instance_arg;
use crate::body::body_arg;
use crate::error::{err, query_error};

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
///
/// `front`: a `bdtree.SweptFront` of this pair of objects, to run the query every tick of a
/// control loop at a fraction of the cost: the front keeps where the last tick's walk stopped,
/// and in slow or resting contact only the node pairs whose margins ran out are walked again.
/// Pass the last call's `a_now`, `b_now` as this call's `a_before`, `b_before` (swap two pairs
/// of bodies each tick); anything else (a jump in state, other trees) walks from the root,
/// as does the first call. The answer is the same kind: every pair that may touch, with a
/// conservative earliest time.
#[pyfunction]
#[pyo3(signature = (a_before, a_now, b_before, b_now, front = None))]
pub(crate) fn collide_swept<'py>(
    py: Python<'py>,
    a_before: &Bound<'py, PyAny>,
    a_now: &Bound<'py, PyAny>,
    b_before: &Bound<'py, PyAny>,
    b_now: &Bound<'py, PyAny>,
    front: Option<&Bound<'py, PyAny>>,
) -> PyResult<Swept<'py>> {
    let front = match front.filter(|f| !f.is_none()) {
        Some(f) => Some(instance_arg::<SweptFront>(
            "front",
            f,
            "a bdtree.SweptFront or None",
        )?),
        None => None,
    };
    let mut front = match &front {
        Some(f) => Some(f.try_borrow_mut()?),
        None => None,
    };
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
    let found = match front.as_deref_mut() {
        Some(f) => host::swept_front(
            &mut w.body,
            &mut x.body,
            &mut y.body,
            &mut z.body,
            &mut f.front,
        ),
        None => host::swept(&mut w.body, &mut x.body, &mut y.body, &mut z.body),
    }
    .map_err(|e| {
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

/// A swept front: where a pair of objects' last swept query stopped, carried to the next tick
/// (`collide_swept(..., front=...)`). One per pair of objects. `len`: entries after the last
/// query; `certified`: entries it skipped on their margins; `retested`: entries it walked
/// again; `overflowed`: whether the last front outgrew its storage (which then grew: the next
/// query walks from the root); `reset()`: the next query walks from the root.
#[pyclass(module = "bdtree")]
pub(crate) struct SweptFront {
    front: host::Front,
}

#[pymethods]
impl SweptFront {
    /// An empty front: its first query walks from the root.
    #[new]
    fn new() -> Self {
        SweptFront {
            front: host::Front::new(),
        }
    }

    /// Entries in the front after the last query.
    #[getter]
    fn len(&self) -> usize {
        self.front.len()
    }

    /// Entries the last query skipped on their margins.
    #[getter]
    fn certified(&self) -> usize {
        self.front.certified()
    }

    /// Entries the last query walked again.
    #[getter]
    fn retested(&self) -> usize {
        self.front.retested()
    }

    /// Whether the last query's front outgrew its storage.
    #[getter]
    fn overflowed(&self) -> bool {
        self.front.overflowed()
    }

    /// The next query walks from the root.
    fn reset(&mut self) {
        self.front.reset();
    }

    fn __repr__(&self) -> String {
        format!(
            "SweptFront(len={}, certified={}, retested={})",
            self.front.len(),
            self.front.certified(),
            self.front.retested()
        )
    }
}
