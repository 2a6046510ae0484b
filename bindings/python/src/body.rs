//! `bdtree.Body`: a [`bdtree_std::host::Body`] (its caches, the state in f64 as the caller gave
//! it, the floating origin of each query) and the tree object it was made from; argument
//! helpers for bodies and the Python messages of the host's errors.

use bdtree_std::host::{self, HostError};
use bdtree_std::io::pose::QUATERNION_NORM_TOLERANCE;
use pyo3::prelude::*;

use crate::args::{floats1, int_arg, precision_text, shown, vector};
use crate::err;
use crate::tree::Tree;

/// A deformable body: a tree, a pose (rotation quaternion `(w, x, y, z)`, translation) and
/// reduced coordinates `q` (one per mode). A world vertex is `R (p + U q) + t`.
#[pyclass(module = "bdtree")]
pub(crate) struct Body {
    pub(crate) body: host::Body,
    pub(crate) tree: Py<Tree>,
}

/// The Python error of a host refusal of an input: a non-finite entry or a rotation off unit
/// length in Python's words (`translation[1] = NaN: every entry must be finite`,
/// `rotation = (w, x, y, z): a quaternion of norm …`), from the host's fields (the checks are
/// the host's, [`host::check`]); anything else as the host words it.
pub(crate) fn input_error(e: HostError) -> PyErr {
    match e {
        HostError::NonFinite {
            argument,
            index,
            value,
        } => err(format!(
            "{argument}[{index}] = {value}: every entry must be finite"
        )),
        HostError::NotUnit {
            rotation: [w, x, y, z],
            norm,
        } => err(format!(
            "rotation = ({w}, {x}, {y}, {z}): a quaternion of norm {norm}; rotations must be \
             unit quaternions (w, x, y, z) (| norm − 1 | ≤ {QUATERNION_NORM_TOLERANCE:e}, on \
             every surface)"
        )),
        e => err(e),
    }
}

/// The largest `|x|` of a slice.
fn largest(x: &[f64]) -> f64 {
    x.iter().fold(0.0f64, |m, v| m.max(v.abs()))
}

/// "f32" or "f64".
fn precision_name(body: &host::Body) -> &'static str {
    precision_text(body.precision())
}

/// The message of a state beyond what a body's precision can compute with (`where`: at its
/// own origin or a query's), with the largest `|q|` and `|t|` and the host's sentence.
fn out_of_range(precision: &str, q: f64, t: f64, place: &str, e: &HostError) -> String {
    format!(
        "state out of range for a {precision} body{place} (|q| up to {q:e}, |t| up to {t:e}): \
         {e}"
    )
}

/// The Python error of a host query on `bodies` (named by their parameters), called as
/// `what`. States were accepted when they were set, so a state refused during a query is out
/// of range at the query's floating origin; proxies need nested trees.
pub(crate) fn query_error(what: &str, bodies: &[(&str, &host::Body)], e: HostError) -> PyErr {
    let names = || {
        bodies
            .iter()
            .map(|(name, _)| *name)
            .collect::<Vec<_>>()
            .join(" and ")
    };
    match e {
        HostError::State { .. } => {
            let q = bodies
                .iter()
                .fold(0.0f64, |m, (_, b)| m.max(largest(&b.state().q)));
            let t = bodies
                .iter()
                .fold(0.0f64, |m, (_, b)| m.max(largest(&b.state().translation)));
            let precision = bodies.first().map_or("f64", |(_, b)| precision_name(b));
            err(format!(
                "{what}: {}: {}",
                names(),
                out_of_range(precision, q, t, " at the query's floating origin", &e)
            ))
        }
        HostError::NotNested { .. } => err(format!(
            "{what}: proxy queries need trees built with nested=True (Tree.build(..., \
             nested=True)); at least one of these trees is not nested"
        )),
        HostError::MixedPrecision => err(format!(
            "{what}: {}: the bodies' trees have different precisions (f32 and f64): build them \
             in one",
            names()
        )),
        HostError::DifferentTrees => err(format!(
            "{what}: an object's bodies before and now must hold the same tree"
        )),
        e => err(format!("{what}: {e}")),
    }
}

#[pymethods]
impl Body {
    #[new]
    fn new(tree: &Bound<'_, PyAny>) -> PyResult<Self> {
        let tree = tree
            .cast::<Tree>()
            .map_err(|_| err(format!("tree = {}: expected a bdtree.Tree", shown(tree))))?;
        let body = host::Body::new(&tree.get().tree).map_err(err)?;
        Ok(Body {
            body,
            tree: tree.clone().unbind(),
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
    let modes = body.tree().modes();
    let precision = precision_name(body);
    body.set_state(r, t, &q).map_err(|e| match e {
        // Finite numbers and a unit quaternion (the host's checks: `NonFinite` and `NotUnit`
        // come first) and as many coordinates as modes, refused for the translation or q:
        // beyond the range of the precision.
        HostError::State { argument, .. } if argument != "rotation" && q.len() == modes => {
            err(out_of_range(precision, largest(&q), largest(&t), "", &e))
        }
        e => input_error(e),
    })
}

/// A `bdtree.Body` argument.
pub(crate) fn body_arg<'py>(name: &str, x: &Bound<'py, PyAny>) -> PyResult<Bound<'py, Body>> {
    x.cast::<Body>()
        .cloned()
        .map_err(|_| err(format!("{name} = {}: expected a bdtree.Body", shown(x))))
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
        return Err(err(format!(
            "{} and {}: the bodies' trees have different precisions (f32 and f64): build both \
             in one",
            names[0], names[1]
        )));
    }
    Ok((a, b))
}
