//! Contact proxies and the forces on them: `collide_proxies` and `penalty_forces` — the host's
//! [`host::proxies`] and [`host::proxy_forces`] (the kernel's [`bdtree_core::world::response`]:
//! penalty forces on overlapping proxies and the generalized forces they put on each body's
//! frame and reduced coordinates), with [`host::Proxy::penalty`] for each pair's force.

use bdtree_std::host;
use numpy::ndarray::Array1;
use numpy::IntoPyArray;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::args::{float_arg, int_arg, pair_array, rows};
use crate::body::{borrow_two, query_error};

/// The largest proxy depth asked for (a tree this deep would not fit in memory).
const MAX_DEPTH: i64 = 1 << 16;

fn depth_arg(name: &str, x: &Bound<'_, PyAny>) -> PyResult<u32> {
    let what = "a tree depth, an integer ≥ 0 (the root has depth 0)";
    Ok(int_arg(name, x, 0, MAX_DEPTH, what)? as u32)
}

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
        depth_arg("depth_a", depth_a)?,
        depth_arg("depth_b", depth_b)?,
    );
    let (mut a, mut b) = borrow_two(["a", "b"], a, b)?;
    let found = host::proxies(&mut a.body, la, &mut b.body, lb)
        .map_err(|e| query_error("collide_proxies", &[("a", &a.body), ("b", &b.body)], e))?;
    let found = found.items;
    let d = PyDict::new(py);
    let nodes: Vec<[u32; 2]> = found.iter().map(|p| p.nodes).collect();
    let sa: Vec<[f64; 4]> = found.iter().map(|p| p.spheres[0]).collect();
    let sb: Vec<[f64; 4]> = found.iter().map(|p| p.spheres[1]).collect();
    d.set_item("nodes", pair_array(py, &nodes))?;
    d.set_item("sphere_a", rows(py, &sa))?;
    d.set_item("sphere_b", rows(py, &sb))?;
    d.set_item(
        "depth",
        Array1::from_iter(found.iter().map(|p| p.depth)).into_pyarray(py),
    )?;
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
        depth_arg("depth_a", depth_a)?,
        depth_arg("depth_b", depth_b)?,
    );
    let k = float_arg(
        "stiffness",
        stiffness,
        |k| k.is_finite() && k >= 0.0,
        "a finite stiffness ≥ 0 (force per length unit)",
    )?;
    let (mut a, mut b) = borrow_two(["a", "b"], a, b)?;
    let (found, [wa, wb]) = host::proxy_forces(&mut a.body, la, &mut b.body, lb, k)
        .map_err(|e| query_error("penalty_forces", &[("a", &a.body), ("b", &b.body)], e))?;
    let pushes: Vec<([u32; 2], [f64; 3], [f64; 3])> = found
        .items
        .iter()
        .filter_map(|p| p.penalty(k).map(|c| (p.nodes, c.point, c.force)))
        .collect();
    let d = PyDict::new(py);
    let nodes: Vec<[u32; 2]> = pushes.iter().map(|c| c.0).collect();
    let points: Vec<[f64; 3]> = pushes.iter().map(|c| c.1).collect();
    let forces: Vec<[f64; 3]> = pushes.iter().map(|c| c.2).collect();
    d.set_item("nodes", pair_array(py, &nodes))?;
    d.set_item("points", rows(py, &points))?;
    d.set_item("forces", rows(py, &forces))?;
    for (name, w) in [("a", wa), ("b", wb)] {
        d.set_item(
            format!("force_{name}"),
            Array1::from(w.force.to_vec()).into_pyarray(py),
        )?;
        d.set_item(
            format!("torque_{name}"),
            Array1::from(w.torque.to_vec()).into_pyarray(py),
        )?;
        d.set_item(format!("q_{name}"), Array1::from(w.q).into_pyarray(py))?;
    }
    Ok(d)
}
