//! Separation: `distance` (the nearest points of two bodies) and `closer_than` (whether they
//! come within a distance) — the host's [`host::distance`] and [`host::closer_than`] (early
//! exit, the tree precision's "maybe" settled in f64 on the stored model at the states as
//! given: never a false "no", a "yes" within the pair's rounding bound of the distance), named
//! as the kernel's and the host's `separation`.

use bdtree_std::host;
use pyo3::prelude::*;

use crate::args::distance_arg;
use crate::body::borrow_two;
use crate::error::query_error;

/// The nearest points of two bodies (`bdtree.distance`).
#[pyclass(frozen, get_all, module = "bdtree")]
pub(crate) struct Distance {
    /// The minimum distance (0 when the bodies intersect).
    distance: f64,
    /// Witness point on a (world).
    point_a: (f64, f64, f64),
    /// Witness point on b (world).
    point_b: (f64, f64, f64),
    /// The witnesses' triangles `(triangle of a, triangle of b)`.
    triangles: (u32, u32),
    /// Unit normal from a to b (zero when intersecting).
    normal: (f64, f64, f64),
    /// Whether the two triangles intersect.
    intersecting: bool,
}

#[pymethods]
impl Distance {
    fn __repr__(&self) -> String {
        format!(
            "bdtree.Distance(distance={:?}, triangles={:?}, intersecting={})",
            self.distance,
            self.triangles,
            if self.intersecting { "True" } else { "False" }
        )
    }
}

fn tuple(p: [f64; 3]) -> (f64, f64, f64) {
    (p[0], p[1], p[2])
}

/// The minimum distance between two deformed bodies (0 when they intersect), with witness
/// points, their triangles and the unit normal from a to b. In f32 the witness triangles are
/// measured again in f64 on the stored model: the distance is theirs (an upper bound on the
/// bodies' distance, within the f32 rounding of it) and the points lie on them.
#[pyfunction]
pub(crate) fn distance(a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>) -> PyResult<Distance> {
    let (mut a, mut b) = borrow_two(["a", "b"], a, b)?;
    let (n, _) = host::distance(&mut a.body, &mut b.body)
        .map_err(|e| query_error("distance", &[("a", &a.body), ("b", &b.body)], e))?;
    Ok(Distance {
        distance: n.distance,
        point_a: tuple(n.points[0]),
        point_b: tuple(n.points[1]),
        triangles: (n.triangles[0], n.triangles[1]),
        normal: tuple(n.normal),
        intersecting: n.intersecting,
    })
}

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
