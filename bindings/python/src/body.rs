//! `bdtree.Body`: a [`bdtree_std::host::Body`] (its caches, the state in f64 as the caller gave
//! it, the floating origin of each query) and the tree object it was made from; the body
//! arguments of the functions (one body, two distinct bodies, a state).

use bdtree_std::host;
use pyo3::prelude::*;

use crate::args::{floats1, instance_arg, int_arg, vector};
use crate::error::{err, mixed_precision, state_error};
use crate::tree::Tree;

/// A deformable body: a tree, a pose (rotation quaternion `(w, x, y, z)`, translation) and
/// reduced coordinates `q` (one per mode). A world vertex is `R (p + U q) + t`.
#[pyclass(module = "bdtree")]
pub(crate) struct Body {
    pub(crate) body: host::Body,
    pub(crate) tree: Py<Tree>,
}

#[pymethods]
impl Body {
    #[new]
    fn new(tree: &Bound<'_, PyAny>) -> PyResult<Self> {
        let tree = instance_arg::<Tree>("tree", tree, "a bdtree.Tree")?;
        let body = host::Body::new(&tree.get().tree).map_err(err)?;
        Ok(Body {
            body,
            tree: tree.unbind(),
        })
    }

    /// Sets the pose and `q` for a new step: `rotation` a unit quaternion `(w, x, y, z)`
    /// (scalar first; normalised, refused unless `| ‖q‖ − 1 | ≤ 10⁻⁶`, the tolerance of every
    /// surface), `translation` `(x, y, z)`, `q` the reduced coordinates (length = the tree's
    /// modes). Omitted values are the identity, the origin and `q = 0`. The state is kept in
    /// float64 as given: every query is conservative against it, for f32 trees too, at any
    /// distance from the origin. A refused state changes nothing.
    #[pyo3(signature = (rotation = None, translation = None, q = None))]
    fn set_state(
        &mut self,
        rotation: Option<&Bound<'_, PyAny>>,
        translation: Option<&Bound<'_, PyAny>>,
        q: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        set_host_state(&mut self.body, rotation, translation, q)
    }

    /// World sphere `[x, y, z, r]` of a node for the current step (node 0: the whole body).
    #[pyo3(signature = (node = None), text_signature = "($self, node=0)")]
    fn sphere(&mut self, node: Option<&Bound<'_, PyAny>>) -> PyResult<(f64, f64, f64, f64)> {
        let nodes = self.body.tree().header().nodes as usize;
        let node = match node {
            Some(n) => int_arg(
                "node",
                n,
                0,
                nodes as i64 - 1,
                &format!(
                    "a node index, 0 to {} (the tree has {nodes} nodes)",
                    nodes - 1
                ),
            )? as usize,
            None => 0,
        };
        let s = self.body.sphere(node).map_err(err)?;
        let [x, y, z, r] = s.ok_or_else(|| err(format!("node = {node}: does not exist")))?;
        Ok((x, y, z, r))
    }

    /// The body's tree.
    #[getter]
    fn tree(&self, py: Python<'_>) -> Py<Tree> {
        self.tree.clone_ref(py)
    }
}

/// Sets a host body's state from Python arguments (`None`: the identity, the origin, `q = 0`),
/// every bad value refused with its parameter's name (the values' checks are the host's,
/// [`host::check::state`]); a refused state changes nothing.
pub(crate) fn set_host_state(
    body: &mut host::Body,
    rotation: Option<&Bound<'_, PyAny>>,
    translation: Option<&Bound<'_, PyAny>>,
    q: Option<&Bound<'_, PyAny>>,
) -> PyResult<()> {
    let r = match rotation.filter(|r| !r.is_none()) {
        Some(r) => vector::<4>("rotation", r)?,
        None => [1.0, 0.0, 0.0, 0.0],
    };
    let t = match translation.filter(|t| !t.is_none()) {
        Some(t) => vector::<3>("translation", t)?,
        None => [0.0; 3],
    };
    let q = match q.filter(|q| !q.is_none()) {
        Some(q) => floats1("q", q)?,
        None => vec![0.0; body.tree().modes()],
    };
    body.set_state(r, t, &q)
        .map_err(|e| state_error(body, &t, &q, e))
}

/// A `bdtree.Body` argument.
pub(crate) fn body_arg<'py>(name: &str, x: &Bound<'py, PyAny>) -> PyResult<Bound<'py, Body>> {
    instance_arg(name, x, "a bdtree.Body")
}

/// A `bdtree.Body` argument, borrowed mutably for a query.
pub(crate) fn borrow_one<'py>(name: &str, x: &Bound<'py, PyAny>) -> PyResult<PyRefMut<'py, Body>> {
    Ok(body_arg(name, x)?.try_borrow_mut()?)
}

/// Mutable borrows of two distinct bodies (`names` are the parameters) of one precision.
pub(crate) fn borrow_two<'py>(
    names: [&str; 2],
    a: &Bound<'py, PyAny>,
    b: &Bound<'py, PyAny>,
) -> PyResult<(PyRefMut<'py, Body>, PyRefMut<'py, Body>)> {
    let (a, b) = (body_arg(names[0], a)?, body_arg(names[1], b)?);
    if a.is(&b) {
        return Err(err(format!(
            "{} and {} are the same body (use collide_self for a body's own contacts)",
            names[0], names[1]
        )));
    }
    let (a, b) = (a.try_borrow_mut()?, b.try_borrow_mut()?);
    if a.body.precision() != b.body.precision() {
        return Err(mixed_precision(
            &format!("{} and {}", names[0], names[1]),
            "both",
        ));
    }
    Ok((a, b))
}
