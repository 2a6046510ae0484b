//! Contact proxies and the forces on them: `collide_proxies` and `penalty_forces` (the kernel's
//! [`bdtree_core::response`]: penalty forces on overlapping proxies and the generalized forces
//! they put on each body's frame and reduced coordinates).

use bdtree_core::response::{respond, Wrench};
use bdtree_core::{
    collide_proxies as core_proxies, proxy_stack_capacity, Body as CoreBody, ProxyPair, Scalar,
};
use numpy::ndarray::Array1;
use numpy::IntoPyArray;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::args::{float_arg, int_arg, pair_array, rows};
use crate::body::{borrow_two, depth, status_error, with_pair, world};
use crate::err;
use crate::pairs::pair_origin;

/// The largest proxy depth asked for (a tree this deep would not fit in memory).
const MAX_DEPTH: i64 = 1 << 16;

fn depth_arg(name: &str, x: &Bound<'_, PyAny>) -> PyResult<u32> {
    let what = "a tree depth, an integer ≥ 0 (the root has depth 0)";
    Ok(int_arg(name, x, 0, MAX_DEPTH, what)? as u32)
}

/// The overlapping proxy pairs of two bodies, sorted by nodes.
fn proxies_of<S: Scalar>(
    a: &mut CoreBody<'_, '_, S>,
    depth_a: u32,
    b: &mut CoreBody<'_, '_, S>,
    depth_b: u32,
) -> PyResult<Vec<ProxyPair<S>>> {
    let mut stack = vec![[0u32; 2]; proxy_stack_capacity(depth(a), depth_a, depth(b), depth_b)];
    let mut out = Vec::new();
    let mut sink = |p: ProxyPair<S>| {
        out.push(p);
        true
    };
    let o = core_proxies(a, depth_a, b, depth_b, &mut stack, &mut sink);
    if !o.status.is_complete() {
        return Err(status_error("collide_proxies", o.status));
    }
    out.sort_unstable_by_key(|p| (p.a, p.b));
    Ok(out)
}

/// A proxy pair in f64, its spheres in the world.
struct Proxy {
    nodes: [u32; 2],
    spheres: [[f64; 4]; 2],
    depth: f64,
}

fn widen<S: Scalar>(p: &ProxyPair<S>, origin: [f64; 3]) -> Proxy {
    let sphere = |s: [S; 4]| {
        let c = world([s[0], s[1], s[2]], origin);
        [c[0], c[1], c[2], s[3].to_f64()]
    };
    Proxy {
        nodes: [p.a, p.b],
        spheres: [sphere(p.sphere_a), sphere(p.sphere_b)],
        depth: p.depth.to_f64(),
    }
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
    let origin = pair_origin(&a, &b);
    a.place(origin)?;
    b.place(origin)?;
    let found = with_pair!(a, b, |x, y| proxies_of(x, la, y, lb)
        .map(|ps| ps.iter().map(|p| widen(p, origin)).collect::<Vec<_>>()))?;
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

/// One body's wrench in f64: force, torque (about its frame's origin) and generalized force.
struct Wide {
    force: [f64; 3],
    torque: [f64; 3],
    q: Vec<f64>,
}

/// The nodes, points and forces on b of the penalty contacts, and both wrenches.
type Response = (Vec<([u32; 2], [f64; 3], [f64; 3])>, Wide, Wide);

/// [`respond`] over `pairs` with wrenches of `M` entries (at least both bodies' modes).
fn respond_all<S: Scalar, const M: usize>(
    pairs: &[ProxyPair<S>],
    stiffness: S,
    a: &CoreBody<'_, '_, S>,
    b: &CoreBody<'_, '_, S>,
) -> Response {
    let (mut wa, mut wb) = (Wrench::<S, M>::ZERO, Wrench::<S, M>::ZERO);
    let mut contacts = Vec::new();
    for p in pairs {
        if let Some(c) = respond(p, stiffness, a, b, &mut wa, &mut wb) {
            contacts.push(([p.a, p.b], c.point.map(S::to_f64), c.force.map(S::to_f64)));
        }
    }
    let wide = |w: &Wrench<S, M>, modes: usize| Wide {
        force: w.force.map(S::to_f64),
        torque: w.torque.map(S::to_f64),
        q: w.q.iter().take(modes).map(|x| x.to_f64()).collect(),
    };
    (
        contacts,
        wide(&wa, a.tree().modes()),
        wide(&wb, b.tree().modes()),
    )
}

/// [`respond_all`] with the smallest wrench size that holds both bodies' modes.
fn response_of<S: Scalar>(
    a: &mut CoreBody<'_, '_, S>,
    depth_a: u32,
    b: &mut CoreBody<'_, '_, S>,
    depth_b: u32,
    stiffness: f64,
) -> PyResult<Response> {
    let pairs = proxies_of(a, depth_a, b, depth_b)?;
    let k = S::from_f64(stiffness);
    let modes = a.tree().modes().max(b.tree().modes());
    Ok(match modes {
        0..=8 => respond_all::<S, 8>(&pairs, k, a, b),
        9..=32 => respond_all::<S, 32>(&pairs, k, a, b),
        33..=128 => respond_all::<S, 128>(&pairs, k, a, b),
        129..=512 => respond_all::<S, 512>(&pairs, k, a, b),
        _ => {
            return Err(err(format!(
                "penalty_forces: the bodies have {modes} modes; at most 512 are supported"
            )))
        }
    })
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
    let origin = pair_origin(&a, &b);
    a.place(origin)?;
    b.place(origin)?;
    let (found, wa, wb) = with_pair!(a, b, |x, y| response_of(x, la, y, lb, k))?;
    let d = PyDict::new(py);
    let nodes: Vec<[u32; 2]> = found.iter().map(|c| c.0).collect();
    let points: Vec<[f64; 3]> = found.iter().map(|c| world(c.1, origin)).collect();
    let forces: Vec<[f64; 3]> = found.iter().map(|c| c.2).collect();
    d.set_item("nodes", pair_array(py, &nodes))?;
    d.set_item("points", rows(py, &points))?;
    d.set_item("forces", rows(py, &forces))?;
    for (name, w) in [("a", &wa), ("b", &wb)] {
        d.set_item(
            format!("force_{name}"),
            Array1::from(w.force.to_vec()).into_pyarray(py),
        )?;
        d.set_item(
            format!("torque_{name}"),
            Array1::from(w.torque.to_vec()).into_pyarray(py),
        )?;
        d.set_item(
            format!("q_{name}"),
            Array1::from(w.q.clone()).into_pyarray(py),
        )?;
    }
    Ok(d)
}
