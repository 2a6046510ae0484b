//! The host's answers as Python values: NumPy arrays of rows and pairs, the precision's name,
//! and one dict builder per answer type. A builder fills a dict's columns from the answer's
//! items, the same for a two-body function (its answer's items) and a world query (each
//! found item, after the `bodies` column the world puts in front).

use bdtree_std::build::Precision;
use bdtree_std::host::{Contact, Near, Nearest, PrimitiveProxy, Proxy, Wrench};
use numpy::ndarray::{Array1, Array2};
use numpy::{IntoPyArray, PyArray1, PyArray2};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

/// "f32" or "f64", as `precision` arguments, `Tree.precision` and messages spell it.
pub(crate) fn precision_text(precision: Precision) -> &'static str {
    match precision {
        Precision::F32 => "f32",
        Precision::F64 => "f64",
    }
}

/// Rows of `N` numbers as an `(K, N)` array.
pub(crate) fn rows<'py, T: numpy::Element + Copy, const N: usize>(
    py: Python<'py>,
    rows: &[[T; N]],
) -> Bound<'py, PyArray2<T>> {
    Array2::from_shape_fn((rows.len(), N), |(i, k)| rows[i][k]).into_pyarray(py)
}

/// Triangle (or node) pairs as an int64 `(K, 2)` array.
pub(crate) fn pair_array<'py>(py: Python<'py>, pairs: &[[u32; 2]]) -> Bound<'py, PyArray2<i64>> {
    Array2::from_shape_fn((pairs.len(), 2), |(i, k)| i64::from(pairs[i][k])).into_pyarray(py)
}

/// A float64 column (K,) of the items.
fn column<'py, 'a, T: 'a>(
    py: Python<'py>,
    items: impl Iterator<Item = &'a T>,
    f: impl Fn(&T) -> f64,
) -> Bound<'py, PyArray1<f64>> {
    Array1::from_iter(items.map(f)).into_pyarray(py)
}

/// An int64 column (K,) of the items (triangles or nodes).
fn indices<'py, 'a, T: 'a>(
    py: Python<'py>,
    items: impl Iterator<Item = &'a T>,
    f: impl Fn(&T) -> u32,
) -> Bound<'py, PyArray1<i64>> {
    Array1::from_iter(items.map(|x| i64::from(f(x)))).into_pyarray(py)
}

/// A float64 (K, N) array of the items' vectors.
fn vectors<'py, 'a, T: 'a, const N: usize>(
    py: Python<'py>,
    items: impl Iterator<Item = &'a T>,
    f: impl Fn(&T) -> [f64; N],
) -> Bound<'py, PyArray2<f64>> {
    let v: Vec<[f64; N]> = items.map(f).collect();
    rows(py, &v)
}

/// An int64 (K, 2) array of the items' pairs.
fn pairs<'py, 'a, T: 'a>(
    py: Python<'py>,
    items: impl Iterator<Item = &'a T>,
    f: impl Fn(&T) -> [u32; 2],
) -> Bound<'py, PyArray2<i64>> {
    let v: Vec<[u32; 2]> = items.map(f).collect();
    pair_array(py, &v)
}

/// Contacts (`contacts`, `World.contacts`): `pairs` int64 (K, 2), `points`, `normals` float64
/// (K, 3), `depths` float64 (K,).
pub(crate) fn contacts<'a>(
    d: &Bound<'_, PyDict>,
    items: impl Iterator<Item = &'a Contact> + Clone,
) -> PyResult<()> {
    d.set_item("pairs", pairs(d.py(), items.clone(), |c| c.triangles))?;
    contact_geometry(d, items)
}

/// Contacts of a body with a primitive (`collide_primitive`): `triangles` int64 (K,), then
/// `points`, `normals`, `depths` as [`contacts`].
pub(crate) fn primitive_contacts<'a>(
    d: &Bound<'_, PyDict>,
    items: impl Iterator<Item = &'a Contact> + Clone,
) -> PyResult<()> {
    d.set_item(
        "triangles",
        indices(d.py(), items.clone(), |c| c.triangles[0]),
    )?;
    contact_geometry(d, items)
}

/// A contact's point, normal and depth: `points`, `normals` (K, 3), `depths` (K,).
fn contact_geometry<'a>(
    d: &Bound<'_, PyDict>,
    items: impl Iterator<Item = &'a Contact> + Clone,
) -> PyResult<()> {
    let py = d.py();
    d.set_item("points", vectors(py, items.clone(), |c| c.point))?;
    d.set_item("normals", vectors(py, items.clone(), |c| c.normal))?;
    d.set_item("depths", column(py, items, |c| c.depth))
}

/// Pairs within a distance (`within`, `World.within`): `pairs` int64 (K, 2), `distances`
/// (K,), `points_a`, `points_b` (K, 3).
pub(crate) fn near<'a>(
    d: &Bound<'_, PyDict>,
    items: impl Iterator<Item = &'a Near> + Clone,
) -> PyResult<()> {
    let py = d.py();
    d.set_item("pairs", pairs(py, items.clone(), |n| n.triangles))?;
    d.set_item("distances", column(py, items.clone(), |n| n.distance))?;
    d.set_item("points_a", vectors(py, items.clone(), |n| n.points[0]))?;
    d.set_item("points_b", vectors(py, items, |n| n.points[1]))
}

/// Nearest points, one row per body pair (`World.distances`; `distance` gives one as a
/// `bdtree.Distance`): `distances` (K,), `points_a`, `points_b`, `normals` (K, 3),
/// `triangles` int64 (K, 2), `intersecting` bool (K,).
pub(crate) fn nearest<'a>(
    d: &Bound<'_, PyDict>,
    items: impl Iterator<Item = &'a Nearest> + Clone,
) -> PyResult<()> {
    let py = d.py();
    d.set_item("distances", column(py, items.clone(), |n| n.distance))?;
    d.set_item("points_a", vectors(py, items.clone(), |n| n.points[0]))?;
    d.set_item("points_b", vectors(py, items.clone(), |n| n.points[1]))?;
    d.set_item("normals", vectors(py, items.clone(), |n| n.normal))?;
    d.set_item("triangles", pairs(py, items.clone(), |n| n.triangles))?;
    d.set_item(
        "intersecting",
        Array1::from_iter(items.map(|n| n.intersecting)).into_pyarray(py),
    )
}

/// Overlapping proxies (`collide_proxies`, `World.proxies`): `nodes` int64 (K, 2),
/// `sphere_a`, `sphere_b` (K, 4), `depth` (K,).
pub(crate) fn proxies<'a>(
    d: &Bound<'_, PyDict>,
    items: impl Iterator<Item = &'a Proxy> + Clone,
) -> PyResult<()> {
    let py = d.py();
    d.set_item("nodes", pairs(py, items.clone(), |p| p.nodes))?;
    d.set_item("sphere_a", vectors(py, items.clone(), |p| p.spheres[0]))?;
    d.set_item("sphere_b", vectors(py, items.clone(), |p| p.spheres[1]))?;
    d.set_item("depth", column(py, items, |p| p.depth))
}

/// A proxy pair that pushes: its nodes, the point of the force and the force on its second
/// body.
pub(crate) struct Push {
    nodes: [u32; 2],
    point: [f64; 3],
    force: [f64; 3],
}

/// The push of a proxy pair with `stiffness` ([`Proxy::penalty`]); `None` when it gives no
/// force.
pub(crate) fn push(proxy: &Proxy, stiffness: f64) -> Option<Push> {
    proxy.penalty(stiffness).map(|c| Push {
        nodes: proxy.nodes,
        point: c.point,
        force: c.force,
    })
}

/// The proxy pairs that push (`penalty_forces`, `World.proxy_forces`): `nodes` int64 (K, 2),
/// `points`, `forces` (K, 3).
pub(crate) fn pushes<'a>(
    d: &Bound<'_, PyDict>,
    items: impl Iterator<Item = &'a Push> + Clone,
) -> PyResult<()> {
    let py = d.py();
    d.set_item("nodes", pairs(py, items.clone(), |p| p.nodes))?;
    d.set_item("points", vectors(py, items.clone(), |p| p.point))?;
    d.set_item("forces", vectors(py, items, |p| p.force))
}

/// Proxies reaching into primitives (`collide_primitive_proxies`, `World.primitive_proxies`):
/// `nodes` int64 (K,), `spheres` (K, 4), `depths` (K,).
pub(crate) fn primitive_proxies<'a>(
    d: &Bound<'_, PyDict>,
    items: impl Iterator<Item = &'a PrimitiveProxy> + Clone,
) -> PyResult<()> {
    let py = d.py();
    d.set_item("nodes", indices(py, items.clone(), |p| p.node))?;
    d.set_item("spheres", vectors(py, items.clone(), |p| p.sphere))?;
    d.set_item("depths", column(py, items, |p| p.depth))
}

/// The wrenches of two bodies (`penalty_forces`): `force_a`, `torque_a` (3,), `q_a` (M_a,),
/// then the same for b.
pub(crate) fn pair_wrenches(d: &Bound<'_, PyDict>, [a, b]: [Wrench; 2]) -> PyResult<()> {
    let py = d.py();
    for (name, w) in [("a", a), ("b", b)] {
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
    Ok(())
}

/// Every body's wrench (`World.contact_forces`, `World.proxy_forces`): `force` and `torque`
/// float64 (n, 3), `q` a list of n float64 arrays (one entry per mode of each body).
pub(crate) fn wrenches(d: &Bound<'_, PyDict>, w: Vec<Wrench>) -> PyResult<()> {
    let py = d.py();
    let force: Vec<[f64; 3]> = w.iter().map(|w| w.force).collect();
    let torque: Vec<[f64; 3]> = w.iter().map(|w| w.torque).collect();
    d.set_item("force", rows(py, &force))?;
    d.set_item("torque", rows(py, &torque))?;
    let q = PyList::empty(py);
    for w in w {
        q.append(Array1::from(w.q).into_pyarray(py))?;
    }
    d.set_item("q", q)
}
