//! Contact proxies and the forces on them: `collide_proxies` and `penalty_forces` — the host's
//! [`host::proxies`] and [`host::proxy_forces`] (the kernel's [`bdtree_core::world::response`]:
//! penalty forces on overlapping proxies and the generalized forces they put on each body's
//! frame and reduced coordinates), with [`host::Proxy::penalty`] for each pair's force.

use bdtree_std::host;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::answers::{self, push, Push};
use crate::args::{proxy_depth_arg, stiffness_arg};
use crate::body::borrow_two;
use crate::error::query_error;

/// The overlapping contact proxies (nodes at depth `depth_a` of a and `depth_b` of b, or leaves
/// above them) with their world spheres and penetration depths, for contact response. Needs
/// trees built with `nested=True`. Returns a dict of arrays sorted by nodes: `nodes` int64
/// (K, 2), `sphere_a` and `sphere_b` float64 (K, 4) `[x, y, z, r]`, `depth` float64 (K,)
/// (`r_a + r_b − ‖c_b − c_a‖`; the normal is along `c_b − c_a`).
#[pyfunction]
pub(crate) fn collide_proxies<'py>(
    py: Python<'py>,
    a: &Bound<'py, PyAny>,
    depth_a: &Bound<'py, PyAny>,
    b: &Bound<'py, PyAny>,
    depth_b: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyDict>> {
    let (la, lb) = (
        proxy_depth_arg("depth_a", depth_a)?,
        proxy_depth_arg("depth_b", depth_b)?,
    );
    let (mut a, mut b) = borrow_two(["a", "b"], a, b)?;
    let found = host::proxies(&mut a.body, la, &mut b.body, lb)
        .map_err(|e| query_error("collide_proxies", &[("a", &a.body), ("b", &b.body)], e))?;
    let d = PyDict::new(py);
    answers::proxies(&d, found.items.iter())?;
    Ok(d)
}

/// Penalty forces on the overlapping contact proxies of `collide_proxies(a, depth_a, b,
/// depth_b)` and what they do to each body (the kernel's contact response, BD-Tree paper §4.3):
/// each overlapping pair of proxy spheres pushes b by `stiffness · depth` along the unit
/// normal from a's sphere centre to b's (and a the other way), applied at the middle of the
/// overlap. Returns a dict: `nodes` int64 (K, 2) and `points`, `forces` float64 (K, 3) (world,
/// the force on b) of the pairs that give a force, and for each body `force_a`/`force_b` (3,)
/// (world, summed), `torque_a`/`torque_b` (3,) (about the body's translation `t`, world axes)
/// and `q_a`/`q_b` (M,): the generalized force on the reduced coordinates, `Σ Ūᵀ Rᵀ f` (`Ū`
/// each proxy node's per-mode centre displacement), in force × mesh units per unit of `q`.
/// Needs trees built with `nested=True`.
#[pyfunction]
pub(crate) fn penalty_forces<'py>(
    py: Python<'py>,
    a: &Bound<'py, PyAny>,
    depth_a: &Bound<'py, PyAny>,
    b: &Bound<'py, PyAny>,
    depth_b: &Bound<'py, PyAny>,
    stiffness: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyDict>> {
    let (la, lb) = (
        proxy_depth_arg("depth_a", depth_a)?,
        proxy_depth_arg("depth_b", depth_b)?,
    );
    let k = stiffness_arg(stiffness)?;
    let (mut a, mut b) = borrow_two(["a", "b"], a, b)?;
    let (found, wrenches) = host::proxy_forces(&mut a.body, la, &mut b.body, lb, k)
        .map_err(|e| query_error("penalty_forces", &[("a", &a.body), ("b", &b.body)], e))?;
    let pushes: Vec<Push> = found.items.iter().filter_map(|p| push(p, k)).collect();
    let d = PyDict::new(py);
    answers::pushes(&d, pushes.iter())?;
    answers::pair_wrenches(&d, wrenches)?;
    Ok(d)
}
