//! `closer_than`: whether two bodies come within a distance — the host's
//! [`host::closer_than`] (early exit, the tree precision's "maybe" settled in f64 on the stored
//! model at the states as given: never a false "no", a "yes" within the pair's rounding bound
//! of the distance).

use bdtree_std::host;
use pyo3::prelude::*;

use crate::args::distance_arg;
use crate::body::borrow_two;
use crate::error::query_error;

/// Whether bodies `a` and `b` come within `distance` of each other (touching counts at 0), in
/// their current states: `True` whenever the f64 brute force on the deformed meshes puts them
/// within `distance` (never a false `False`); `True` only when a triangle pair is within
/// `distance` plus the pair's rounding bound (in f32 ~10⁻⁶ of the two bodies' size and their
/// distance from each other, measured again in f64; in f64 ~10⁻¹⁵). Stops at the first pair
/// that proves it: cheaper than `distance` for a safety check.
#[pyfunction]
pub(crate) fn closer_than(
    a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    distance: &Bound<'_, PyAny>,
) -> PyResult<bool> {
    let distance = distance_arg(distance)?;
    let (mut a, mut b) = borrow_two(["a", "b"], a, b)?;
    let (found, _) = host::closer_than(&mut a.body, &mut b.body, distance)
        .map_err(|e| query_error("closer_than", &[("a", &a.body), ("b", &b.body)], e))?;
    Ok(found.is_some())
}
