//! `bdtree.World`: many bodies and rigid primitives with every world query — the host's
//! [`host::World`] (a broad phase over the bodies, each body pair answered at its own floating
//! origin, self pairs and primitives at each body's own, f32 answers refined in f64, world
//! coordinates, sorted). Each answer is the dict of the matching two-body function with a
//! `bodies` array in front naming the two bodies of each row.

use bdtree_std::host::{self, Found, HostError, WorldAnswer};
use numpy::ndarray::Array2;
use numpy::IntoPyArray;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::answers::{self, pair_array, push, Push};
use crate::args::{distance_arg, flag_arg, int_arg, iter_arg, proxy_depth_arg, stiffness_arg};
use crate::body::{body_arg, set_host_state};
use crate::error::{err, shown, world_bodies_error, world_error};
use crate::primitives::primitive_arg;

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

/// The `bodies` column of an answer: int64 (K, 2).
fn bodies_array<'py, T>(py: Python<'py>, found: &[Found<T>]) -> Bound<'py, PyAny> {
    Array2::from_shape_fn((found.len(), 2), |(i, k)| found[i].bodies[k] as i64)
        .into_pyarray(py)
        .into_any()
}

/// A dict with the `bodies` column of `answer`, for the answer's builder to fill.
fn answer_dict<'py, T>(py: Python<'py>, answer: &WorldAnswer<T>) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("bodies", bodies_array(py, &answer.found))?;
    Ok(d)
}

/// A world query's dict: runs `query` (a refusal is [`world_error`]'s, named `what`), then
/// puts the answer's `bodies` column and `fill`'s columns of its items.
fn world_dict<'py, T>(
    py: Python<'py>,
    world: &mut host::World,
    what: &str,
    query: impl FnOnce(&mut host::World) -> Result<WorldAnswer<T>, HostError>,
    fill: impl FnOnce(&Bound<'py, PyDict>, &[Found<T>]) -> PyResult<()>,
) -> PyResult<Bound<'py, PyDict>> {
    let answer = query(world).map_err(|e| world_error(what, world, e))?;
    let d = answer_dict(py, &answer)?;
    fill(&d, &answer.found)?;
    Ok(d)
}

/// The items of a world's answer, without their bodies.
fn items<T>(found: &[Found<T>]) -> impl Iterator<Item = &T> + Clone {
    found.iter().map(|f| &f.item)
}

#[pymethods]
impl World {
    /// A world of `bodies` (a sequence of `bdtree.Body`, all of one precision; the world copies
    /// each with its current state) and `primitives` (a sequence of `bdtree.Primitive`).
    #[new]
    #[pyo3(signature = (bodies, primitives = None))]
    fn new(bodies: &Bound<'_, PyAny>, primitives: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let mut owned = Vec::new();
        for (i, b) in iter_arg("bodies", bodies, "bdtree.Body")?.enumerate() {
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
            for (i, x) in iter_arg("primitives", p, "bdtree.Primitive")?.enumerate() {
                let x = x?;
                prims.push(primitive_arg(&format!("primitives[{i}]"), &x)?);
            }
        }
        let world = host::World::new(owned, prims).map_err(world_bodies_error)?;
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
        let self_pairs = flag_arg("self_pairs", self_pairs)?;
        let query = |w: &mut host::World| w.pairs(self_pairs);
        world_dict(py, &mut self.world, "World.collide", query, |d, found| {
            let pairs: Vec<[u32; 2]> = items(found).copied().collect();
            d.set_item("pairs", pair_array(py, &pairs))
        })
    }

    /// Every intersecting triangle pair of distinct bodies and every triangle touching a
    /// primitive, with its contact: `bodies`, and `pairs`, `points`, `normals`, `depths` as
    /// `contacts` gives them (for a primitive, `pairs` is `[t, 0]` and the normal points from
    /// the triangle into the primitive, as `collide_primitive`). The Jacobians are
    /// `contacts(a, b)`'s on two bodies.
    fn contacts<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let query = |w: &mut host::World| w.contacts();
        world_dict(py, &mut self.world, "World.contacts", query, |d, found| {
            answers::contacts(d, items(found))
        })
    }

    /// Every triangle touching a primitive with its contact (the primitives' part of
    /// `World.contacts`): `bodies` (`[i, n + p]`), `pairs` (`[t, 0]`), `points`, `normals`,
    /// `depths`.
    fn primitive_contacts<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let query = |w: &mut host::World| w.primitive_contacts();
        world_dict(
            py,
            &mut self.world,
            "World.primitive_contacts",
            query,
            |d, found| answers::contacts(d, items(found)),
        )
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
        let d = answer_dict(py, &answer)?;
        answers::contacts(&d, items(&answer.found))?;
        answers::wrenches(&d, w)?;
        Ok(d)
    }

    /// Every triangle pair of distinct bodies at most `distance` apart: `bodies`, and `pairs`,
    /// `distances`, `points_a`, `points_b` as `within` gives them.
    fn within<'py>(
        &mut self,
        py: Python<'py>,
        distance: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let distance = distance_arg(distance)?;
        let query = |w: &mut host::World| w.within(distance);
        world_dict(py, &mut self.world, "World.within", query, |d, found| {
            answers::near(d, items(found))
        })
    }

    /// The nearest points of every pair of distinct bodies, one row per pair (as `distance`
    /// gives them): `bodies`, `distances` (K,), `points_a`, `points_b`, `normals` (K, 3),
    /// `triangles` int64 (K, 2), `intersecting` bool (K,).
    fn distances<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let query = |w: &mut host::World| w.distances();
        world_dict(py, &mut self.world, "World.distances", query, |d, found| {
            answers::nearest(d, items(found))
        })
    }

    /// The overlapping contact proxies at `depth` of every pair of distinct bodies (trees
    /// built with `nested=True`): `bodies`, and `nodes`, `sphere_a`, `sphere_b`, `depth` as
    /// `collide_proxies` gives them.
    fn proxies<'py>(
        &mut self,
        py: Python<'py>,
        depth: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let depth = proxy_depth_arg("depth", depth)?;
        let query = |w: &mut host::World| w.proxies(depth);
        world_dict(py, &mut self.world, "World.proxies", query, |d, found| {
            answers::proxies(d, items(found))
        })
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
        let depth = proxy_depth_arg("depth", depth)?;
        let k = stiffness_arg(stiffness)?;
        let (answer, w) = self
            .world
            .proxy_forces(depth, k)
            .map_err(|e| world_error("World.proxy_forces", &self.world, e))?;
        let pushes: Vec<Found<Push>> = answer
            .found
            .iter()
            .filter_map(|f| {
                push(&f.item, k).map(|item| Found {
                    bodies: f.bodies,
                    item,
                })
            })
            .collect();
        let d = PyDict::new(py);
        d.set_item("bodies", bodies_array(py, &pushes))?;
        answers::pushes(&d, items(&pushes))?;
        answers::wrenches(&d, w)?;
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
        let depth = proxy_depth_arg("depth", depth)?;
        let query = |w: &mut host::World| w.primitive_proxies(depth);
        world_dict(
            py,
            &mut self.world,
            "World.primitive_proxies",
            query,
            |d, found| answers::primitive_proxies(d, items(found)),
        )
    }
}
