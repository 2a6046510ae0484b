//! `bdtree.World`: many bodies and rigid primitives with every world query — the host's
//! [`host::World`] (a broad phase over the bodies, each body pair answered at its own floating
//! origin, self pairs and primitives at each body's own, f32 answers refined in f64, world
//! coordinates, sorted). Each answer is the dict of the matching two-body function with a
//! `bodies` array in front naming the two bodies of each row.

use bdtree_std::host::{self, Found, HostError, WorldAnswer, Wrench};
use numpy::ndarray::{Array1, Array2};
use numpy::IntoPyArray;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::args::{float_arg, int_arg, pair_array, rows, shown};
use crate::body::{body_arg, query_error, set_host_state};
use crate::err;
use crate::primitives::primitive_arg;

/// The largest proxy depth asked for (a tree this deep would not fit in memory).
const MAX_DEPTH: i64 = 1 << 16;

/// Many deformable bodies (`bdtree.Body`, all of one precision) and rigid primitives
/// (`bdtree.Primitive`). The world holds its own copies of the bodies, made from their trees
/// and their states when it is built: move them with `World.set_state` (and the primitives with
/// `World.set_primitive`). Rows of every answer name their two bodies in `bodies` (K, 2)
/// int64: `[i, j]` with `i < j` for a body pair, `[i, i]` for a self pair and `[i, n + p]` for
/// body `i` against primitive `p` (primitives numbered after the `n` bodies).
#[pyclass(module = "bdtree")]
pub(crate) struct World {
    world: host::World,
}

fn index_arg(name: &str, x: &Bound<'_, PyAny>, count: usize, what: &str) -> PyResult<usize> {
    if count == 0 {
        return Err(err(format!(
            "{name} = {}: the world has no {what}",
            shown(x)
        )));
    }
    let last = count as i64 - 1;
    let text = format!("an index of one of the world's {count} {what}, 0 to {last}");
    Ok(int_arg(name, x, 0, last, &text)? as usize)
}

fn depth_arg(x: &Bound<'_, PyAny>) -> PyResult<u32> {
    let what = "a tree depth, an integer ≥ 0 (the root has depth 0)";
    Ok(int_arg("depth", x, 0, MAX_DEPTH, what)? as u32)
}

fn stiffness_arg(x: &Bound<'_, PyAny>) -> PyResult<f64> {
    float_arg(
        "stiffness",
        x,
        |k| k.is_finite() && k >= 0.0,
        "a finite stiffness ≥ 0 (force per length unit)",
    )
}

/// The Python error of a world query: a state out of range names the body with the largest
/// coordinates (`bodies[i]`), other errors as the two-body functions give them.
fn world_error(what: &str, world: &host::World, e: HostError) -> PyErr {
    let size = |b: &host::Body| {
        let s = b.state();
        s.q.iter()
            .chain(&s.translation)
            .fold(0.0f64, |m, x| m.max(x.abs()))
    };
    let bodies = world.bodies();
    let largest = (0..bodies.len())
        .max_by(|&i, &j| size(&bodies[i]).total_cmp(&size(&bodies[j])))
        .unwrap_or(0);
    match bodies.get(largest) {
        Some(body) => query_error(what, &[(&format!("bodies[{largest}]"), body)], e),
        None => query_error(what, &[], e),
    }
}

/// A proxy pair that pushes: the pair, the point and the force on its second body.
type Push = (host::Proxy, [f64; 3], [f64; 3]);

/// The `bodies` column of an answer: int64 (K, 2).
fn bodies_array<'py, T>(py: Python<'py>, found: &[Found<T>]) -> Bound<'py, PyAny> {
    Array2::from_shape_fn((found.len(), 2), |(i, k)| found[i].bodies[k] as i64)
        .into_pyarray(py)
        .into_any()
}

/// A dict with the `bodies` column of `answer` and, for each `(key, column)`, an array.
fn answer_dict<'py, T>(py: Python<'py>, answer: &WorldAnswer<T>) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("bodies", bodies_array(py, &answer.found))?;
    Ok(d)
}

fn column<'py, T>(py: Python<'py>, found: &[Found<T>], f: impl Fn(&T) -> f64) -> Bound<'py, PyAny> {
    Array1::from_iter(found.iter().map(|x| f(&x.item)))
        .into_pyarray(py)
        .into_any()
}

fn vectors<'py, T, const N: usize>(
    py: Python<'py>,
    found: &[Found<T>],
    f: impl Fn(&T) -> [f64; N],
) -> Bound<'py, PyAny> {
    let v: Vec<[f64; N]> = found.iter().map(|x| f(&x.item)).collect();
    rows(py, &v).into_any()
}

fn pairs_of<'py, T>(
    py: Python<'py>,
    found: &[Found<T>],
    f: impl Fn(&T) -> [u32; 2],
) -> Bound<'py, PyAny> {
    let v: Vec<[u32; 2]> = found.iter().map(|x| f(&x.item)).collect();
    pair_array(py, &v).into_any()
}

/// Contacts as `contacts` gives them (without the Jacobians): `pairs`, `points`, `normals`,
/// `depths`.
fn contact_dict<'py>(
    py: Python<'py>,
    answer: &WorldAnswer<host::Contact>,
) -> PyResult<Bound<'py, PyDict>> {
    let d = answer_dict(py, answer)?;
    let found = &answer.found;
    d.set_item("pairs", pairs_of(py, found, |c| c.triangles))?;
    d.set_item("points", vectors(py, found, |c| c.point))?;
    d.set_item("normals", vectors(py, found, |c| c.normal))?;
    d.set_item("depths", column(py, found, |c| c.depth))?;
    Ok(d)
}

/// Every body's wrench: `force` and `torque` float64 (n, 3), `q` a list of n float64 arrays
/// (one entry per mode of each body).
fn wrenches(py: Python<'_>, d: &Bound<'_, PyDict>, w: Vec<Wrench>) -> PyResult<()> {
    let force: Vec<[f64; 3]> = w.iter().map(|w| w.force).collect();
    let torque: Vec<[f64; 3]> = w.iter().map(|w| w.torque).collect();
    d.set_item("force", rows(py, &force))?;
    d.set_item("torque", rows(py, &torque))?;
    let q = PyList::empty(py);
    for w in w {
        q.append(Array1::from(w.q).into_pyarray(py))?;
    }
    d.set_item("q", q)?;
    Ok(())
}

#[pymethods]
impl World {
    /// A world of `bodies` (a sequence of `bdtree.Body`, all of one precision; the world copies
    /// each with its current state) and `primitives` (a sequence of `bdtree.Primitive`).
    #[new]
    #[pyo3(signature = (bodies, primitives = None))]
    fn new(bodies: &Bound<'_, PyAny>, primitives: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        fn sequence<'py>(
            name: &str,
            x: &Bound<'py, PyAny>,
            what: &str,
        ) -> PyResult<Bound<'py, pyo3::types::PyIterator>> {
            x.try_iter().map_err(|_| {
                err(format!(
                    "{name} = {}: expected a sequence of {what}",
                    shown(x)
                ))
            })
        }
        let mut owned = Vec::new();
        for (i, b) in sequence("bodies", bodies, "bdtree.Body")?.enumerate() {
            let b = b?;
            let b = body_arg(&format!("bodies[{i}]"), &b)?;
            let b = b.try_borrow()?;
            let mut body = host::Body::new(b.body.tree()).map_err(err)?;
            let s = b.body.state();
            body.set_state(s.rotation, s.translation, &s.q)
                .map_err(|e| err(format!("bodies[{i}]: {e}")))?;
            owned.push(body);
        }
        let mut prims = Vec::new();
        if let Some(p) = primitives.filter(|p| !p.is_none()) {
            for (i, x) in sequence("primitives", p, "bdtree.Primitive")?.enumerate() {
                let x = x?;
                prims.push(primitive_arg(&format!("primitives[{i}]"), &x)?);
            }
        }
        let world = host::World::new(owned, prims).map_err(|e| match e {
            HostError::MixedPrecision => err(
                "bodies: the bodies' trees have different precisions (f32 and f64): build them \
                 in one",
            ),
            e => err(format!("bodies: {e}")),
        })?;
        Ok(World { world })
    }

    /// How many bodies the world has.
    #[getter]
    fn body_count(&self) -> usize {
        self.world.bodies().len()
    }

    /// How many primitives the world has.
    #[getter]
    fn primitive_count(&self) -> usize {
        self.world.primitives().len()
    }

    /// Sets body `index`'s pose and `q` as `Body.set_state` does (omitted values: the identity,
    /// the origin, `q = 0`). A refused state changes nothing.
    #[pyo3(signature = (index, rotation = None, translation = None, q = None))]
    fn set_state(
        &mut self,
        index: &Bound<'_, PyAny>,
        rotation: Option<&Bound<'_, PyAny>>,
        translation: Option<&Bound<'_, PyAny>>,
        q: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let n = self.world.bodies().len();
        let i = index_arg("index", index, n, "bodies")?;
        set_host_state(&mut self.world.bodies_mut()[i], rotation, translation, q)
    }

    /// Replaces primitive `index` by `primitive` (to move it).
    fn set_primitive(
        &mut self,
        index: &Bound<'_, PyAny>,
        primitive: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let n = self.world.primitives().len();
        let i = index_arg("index", index, n, "primitives")?;
        self.world.primitives_mut()[i] = primitive_arg("primitive", primitive)?;
        Ok(())
    }

    /// Every intersecting triangle pair of distinct bodies (as `collide` gives it), with
    /// `self_pairs` each body's own (as `collide_self`), and every triangle touching a
    /// primitive (`[t, 0]`, as `collide_primitive`): a dict of `bodies` and `pairs` int64
    /// (K, 2), sorted by bodies then pairs.
    #[pyo3(
        signature = (self_pairs = None),
        text_signature = "($self, self_pairs=False)"
    )]
    fn collide<'py>(
        &mut self,
        py: Python<'py>,
        self_pairs: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let self_pairs = match self_pairs {
            Some(x) => crate::args::bool_arg("self_pairs", x)?,
            None => false,
        };
        let answer = self
            .world
            .pairs(self_pairs)
            .map_err(|e| world_error("World.collide", &self.world, e))?;
        let d = answer_dict(py, &answer)?;
        d.set_item("pairs", pairs_of(py, &answer.found, |p| *p))?;
        Ok(d)
    }

    /// Every intersecting triangle pair of distinct bodies and every triangle touching a
    /// primitive, with its contact: `bodies`, and `pairs`, `points`, `normals`, `depths` as
    /// `contacts` gives them (for a primitive, `pairs` is `[t, 0]` and the normal points from
    /// the triangle into the primitive, as `collide_primitive`). The Jacobians are
    /// `contacts(a, b)`'s on two bodies.
    fn contacts<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let answer = self
            .world
            .contacts()
            .map_err(|e| world_error("World.contacts", &self.world, e))?;
        contact_dict(py, &answer)
    }

    /// Every triangle touching a primitive with its contact (the primitives' part of
    /// `World.contacts`): `bodies` (`[i, n + p]`), `pairs` (`[t, 0]`), `points`, `normals`,
    /// `depths`.
    fn primitive_contacts<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let answer = self
            .world
            .primitive_contacts()
            .map_err(|e| world_error("World.primitive_contacts", &self.world, e))?;
        contact_dict(py, &answer)
    }

    /// `World.contacts` with penalty forces of `stiffness`: each contact between two bodies
    /// pushes the second by `stiffness · depth` along its normal at its point, the first by the
    /// opposite (contacts with primitives push nothing). Adds each body's wrench: `force`,
    /// `torque` float64 (n, 3) (world; torque about the body's translation) and `q` (a list of
    /// n arrays: the generalized force on each body's reduced coordinates).
    fn contact_forces<'py>(
        &mut self,
        py: Python<'py>,
        stiffness: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let k = stiffness_arg(stiffness)?;
        let (answer, w) = self
            .world
            .contact_forces(k)
            .map_err(|e| world_error("World.contact_forces", &self.world, e))?;
        let d = contact_dict(py, &answer)?;
        wrenches(py, &d, w)?;
        Ok(d)
    }

    /// Every triangle pair of distinct bodies at most `distance` apart: `bodies`, and `pairs`,
    /// `distances`, `points_a`, `points_b` as `within` gives them.
    fn within<'py>(
        &mut self,
        py: Python<'py>,
        distance: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let distance = float_arg(
            "distance",
            distance,
            |d| d.is_finite() && d >= 0.0,
            "a finite distance ≥ 0",
        )?;
        let answer = self
            .world
            .within(distance)
            .map_err(|e| world_error("World.within", &self.world, e))?;
        let d = answer_dict(py, &answer)?;
        let found = &answer.found;
        d.set_item("pairs", pairs_of(py, found, |n| n.triangles))?;
        d.set_item("distances", column(py, found, |n| n.distance))?;
        d.set_item("points_a", vectors(py, found, |n| n.points[0]))?;
        d.set_item("points_b", vectors(py, found, |n| n.points[1]))?;
        Ok(d)
    }

    /// The nearest points of every pair of distinct bodies, one row per pair (as `distance`
    /// gives them): `bodies`, `distances` (K,), `points_a`, `points_b`, `normals` (K, 3),
    /// `triangles` int64 (K, 2), `intersecting` bool (K,).
    fn distances<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let answer = self
            .world
            .distances()
            .map_err(|e| world_error("World.distances", &self.world, e))?;
        let d = answer_dict(py, &answer)?;
        let found = &answer.found;
        d.set_item("distances", column(py, found, |n| n.distance))?;
        d.set_item("points_a", vectors(py, found, |n| n.points[0]))?;
        d.set_item("points_b", vectors(py, found, |n| n.points[1]))?;
        d.set_item("normals", vectors(py, found, |n| n.normal))?;
        d.set_item("triangles", pairs_of(py, found, |n| n.triangles))?;
        d.set_item(
            "intersecting",
            Array1::from_iter(found.iter().map(|n| n.item.intersecting)).into_pyarray(py),
        )?;
        Ok(d)
    }

    /// The overlapping contact proxies at `depth` of every pair of distinct bodies (trees
    /// built with `nested=True`): `bodies`, and `nodes`, `sphere_a`, `sphere_b`, `depth` as
    /// `collide_proxies` gives them.
    fn proxies<'py>(
        &mut self,
        py: Python<'py>,
        depth: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let depth = depth_arg(depth)?;
        let answer = self
            .world
            .proxies(depth)
            .map_err(|e| world_error("World.proxies", &self.world, e))?;
        let d = answer_dict(py, &answer)?;
        let found = &answer.found;
        d.set_item("nodes", pairs_of(py, found, |p| p.nodes))?;
        d.set_item("sphere_a", vectors(py, found, |p| p.spheres[0]))?;
        d.set_item("sphere_b", vectors(py, found, |p| p.spheres[1]))?;
        d.set_item("depth", column(py, found, |p| p.depth))?;
        Ok(d)
    }

    /// `World.proxies` with penalty forces of `stiffness` (as `penalty_forces`): `bodies`,
    /// `nodes`, `points`, `forces` (the force on the second body) of the proxy pairs that push,
    /// and each body's wrench: `force`, `torque` float64 (n, 3), `q` (a list of n arrays).
    fn proxy_forces<'py>(
        &mut self,
        py: Python<'py>,
        depth: &Bound<'py, PyAny>,
        stiffness: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let depth = depth_arg(depth)?;
        let k = stiffness_arg(stiffness)?;
        let (answer, w) = self
            .world
            .proxy_forces(depth, k)
            .map_err(|e| world_error("World.proxy_forces", &self.world, e))?;
        let pushes: Vec<Found<Push>> = answer
            .found
            .iter()
            .filter_map(|f| {
                f.item.penalty(k).map(|c| Found {
                    bodies: f.bodies,
                    item: (f.item, c.point, c.force),
                })
            })
            .collect();
        let d = PyDict::new(py);
        d.set_item("bodies", bodies_array(py, &pushes))?;
        d.set_item("nodes", pairs_of(py, &pushes, |p| p.0.nodes))?;
        d.set_item("points", vectors(py, &pushes, |p| p.1))?;
        d.set_item("forces", vectors(py, &pushes, |p| p.2))?;
        wrenches(py, &d, w)?;
        Ok(d)
    }

    /// Every body's contact proxies at `depth` whose spheres may reach into a primitive (as
    /// `collide_primitive_proxies`): `bodies` (`[i, n + p]`), `nodes` int64 (K,), `spheres`
    /// float64 (K, 4), `depths` float64 (K,).
    fn primitive_proxies<'py>(
        &mut self,
        py: Python<'py>,
        depth: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let depth = depth_arg(depth)?;
        let answer = self
            .world
            .primitive_proxies(depth)
            .map_err(|e| world_error("World.primitive_proxies", &self.world, e))?;
        let d = answer_dict(py, &answer)?;
        let found = &answer.found;
        d.set_item(
            "nodes",
            Array1::from_iter(found.iter().map(|p| i64::from(p.item.node))).into_pyarray(py),
        )?;
        d.set_item("spheres", vectors(py, found, |p| p.sphere))?;
        d.set_item("depths", column(py, found, |p| p.depth))?;
        Ok(d)
    }
}
