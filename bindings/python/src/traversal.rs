//! `bdtree.Interruptible`: the interruptible, budgeted and resumable traversal of two bodies —
//! the host's [`host::Interruptible`] (at the pair's floating origin; complete, the pairs of
//! `collide`; interrupted, an explicit conservative cover).

use std::time::Duration;

use bdtree_std::host::{self, Budget, Order, Progress, RunStatus};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::answers::pair_array;
use crate::args::{choice_arg, float_arg, int_arg};
use crate::body::{borrow_two, Body};
use crate::error::{err, query_error};

/// An interruptible query between two bodies in their current states: `run` refines its
/// pending node pairs within a budget and either completes (the pairs of `collide(a, b)`) or
/// stops with a conservative cover — the triangle pairs confirmed so far and the node pairs
/// still pending; every intersecting triangle pair is confirmed or has its triangles under a
/// pending node pair. Running again (the bodies' states unchanged) resumes where it stopped.
#[pyclass(module = "bdtree")]
pub(crate) struct Interruptible {
    query: host::Interruptible,
    a: Py<Body>,
    b: Py<Body>,
}

fn order_arg(x: &Bound<'_, PyAny>) -> PyResult<Order> {
    let what = "\"breadth\", \"deepest\" or \"largest\"";
    choice_arg("order", x, what, |text| match text {
        "breadth" => Some(Order::BreadthFirst),
        "deepest" => Some(Order::DeepestFirst),
        "largest" => Some(Order::LargestFirst),
        _ => None,
    })
}

#[pymethods]
impl Interruptible {
    /// Starts the query on bodies `a` and `b` (distinct, one precision) in their current
    /// states: `order` is which pending pair is refined next ("breadth": first in, first out;
    /// "deepest": the deepest sphere overlap first; "largest": the largest spheres first);
    /// `capacity` the pending list's size in node pairs (a list too small for the bodies'
    /// overlap stops a run with status "pending_full" and its cover).
    #[new]
    #[pyo3(
        signature = (a, b, order = None, capacity = None),
        text_signature = "(a, b, order='breadth', capacity=65536)"
    )]
    fn new(
        a: &Bound<'_, PyAny>,
        b: &Bound<'_, PyAny>,
        order: Option<&Bound<'_, PyAny>>,
        capacity: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let order = match order {
            Some(o) => order_arg(o)?,
            None => Order::BreadthFirst,
        };
        let capacity = match capacity {
            Some(c) => int_arg(
                "capacity",
                c,
                1,
                1 << 26,
                "a pending-list size, an integer from 1 to 2^26",
            )? as usize,
            None => 1 << 16,
        };
        let query = {
            let (mut ba, mut bb) = borrow_two(["a", "b"], a, b)?;
            host::Interruptible::start(&mut ba.body, &mut bb.body, order, capacity)
                .map_err(|e| query_error("Interruptible", &[("a", &ba.body), ("b", &bb.body)], e))?
        };
        Ok(Interruptible {
            query,
            a: a.cast::<Body>()?.clone().unbind(),
            b: b.cast::<Body>()?.clone().unbind(),
        })
    }

    /// Refines pending pairs within a budget — `tests` (sphere overlap tests plus triangle
    /// tests, deterministic) or `seconds` (wall time; a step overruns it by one step at most),
    /// neither for no limit — and returns a dict: `done` (bool), `status` ("done",
    /// "interrupted": run again to resume, "pending_full": the pending list is full, start
    /// again with a larger capacity), `pairs` int64 (K, 2) (complete: the pairs of
    /// `collide(a, b)`; else the triangle pairs confirmed so far, refined likewise, sorted) and
    /// `pending` int64 (P, 2) (node pairs `[node of a, node of b]` still pending, sorted; empty
    /// when done). Refused (`bdtree.Error`) when a body's state changed since the start.
    #[pyo3(
        signature = (tests = None, seconds = None),
        text_signature = "($self, tests=None, seconds=None)"
    )]
    fn run<'py>(
        &mut self,
        py: Python<'py>,
        tests: Option<&Bound<'py, PyAny>>,
        seconds: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let tests = match tests.filter(|t| !t.is_none()) {
            Some(t) => Some(int_arg(
                "tests",
                t,
                0,
                i64::from(u32::MAX),
                "a test budget, an integer from 0 to 2^32 − 1, or None",
            )? as u32),
            None => None,
        };
        let seconds = match seconds.filter(|s| !s.is_none()) {
            Some(s) => Some(float_arg(
                "seconds",
                s,
                |x| (0.0..1e9).contains(&x),
                "a time budget in seconds, finite and ≥ 0, or None",
            )?),
            None => None,
        };
        let budget = match (tests, seconds) {
            (Some(_), Some(_)) => {
                return Err(err(
                    "tests and seconds: give one budget (or neither for no limit)",
                ))
            }
            (Some(n), None) => Budget::Tests(n),
            (None, Some(s)) => Budget::Time(Duration::from_secs_f64(s)),
            (None, None) => Budget::Unlimited,
        };
        let (a, b) = (self.a.bind(py).clone(), self.b.bind(py).clone());
        let (mut a, mut b) = borrow_two(["a", "b"], a.as_any(), b.as_any())?;
        let progress = self
            .query
            .run(&mut a.body, &mut b.body, budget)
            .map_err(|e| query_error("Interruptible.run", &[("a", &a.body), ("b", &b.body)], e))?;
        let d = PyDict::new(py);
        match progress {
            Progress::Done(answer) => {
                d.set_item("done", true)?;
                d.set_item("status", "done")?;
                d.set_item("pairs", pair_array(py, &answer.items))?;
                d.set_item("pending", pair_array(py, &[]))?;
            }
            Progress::Interrupted(cover) => {
                d.set_item("done", false)?;
                let status = match cover.status {
                    RunStatus::PendingFull => "pending_full",
                    _ => "interrupted",
                };
                d.set_item("status", status)?;
                d.set_item("pairs", pair_array(py, &cover.confirmed))?;
                d.set_item("pending", pair_array(py, &cover.pending))?;
            }
        }
        Ok(d)
    }
}
