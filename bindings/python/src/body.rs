//! `bdtree.Body`: a kernel body over a tree, with the state as the caller gave it (in f64) and
//! the floating origin its kernel state is currently relative to; argument helpers for bodies.

use std::sync::Arc;

use bdtree_core::{Body as CoreBody, BodyError, QueryStatus, Scalar, QUATERNION_TOLERANCE};
use pyo3::prelude::*;

use crate::args::{finite_vector, floats1, int_arg, shown, vector};
use crate::err;
use crate::owned::Owned;
use crate::tree::Tree;

/// A kernel body of either precision.
pub(crate) enum AnyBody {
    F32(Owned<f32>),
    F64(Owned<f64>),
}

/// A deformable body: a tree, a pose (rotation quaternion `(w, x, y, z)`, translation) and
/// reduced coordinates `q` (one per mode). A world vertex is `R (p + U q) + t`.
#[pyclass(module = "bdtree")]
pub(crate) struct Body {
    pub(crate) body: AnyBody,
    pub(crate) tree: Py<Tree>,
    /// The state as the caller gave it, in f64.
    pub(crate) state: State,
    /// The floating origin the kernel body's state is relative to: each query places its
    /// bodies at the origin of that query ([`Body::place`]).
    pub(crate) origin: [f64; 3],
}

/// A body's state as the caller gave it.
#[derive(Clone)]
pub(crate) struct State {
    pub(crate) rotation: [f64; 4],
    pub(crate) translation: [f64; 3],
    pub(crate) q: Vec<f64>,
}

/// Sets a kernel body to the caller's f64 state relative to a floating origin (conservative
/// against the state as given, whatever its distance from the world origin).
pub(crate) fn set<S: Scalar>(
    body: &mut CoreBody<'_, '_, S>,
    state: &State,
    origin: [f64; 3],
) -> Result<(), String> {
    let State {
        rotation,
        translation,
        q,
    } = state;
    body.set_state_f64(*rotation, *translation, q, origin)
        .map_err(|e| match e {
            BodyError::Pose(e) => format!("rotation/translation: {e}"),
            BodyError::OutOfRange => {
                let qmax = q.iter().fold(0.0f64, |m, x| m.max(x.abs()));
                let tmax = translation.iter().fold(0.0f64, |m, x| m.max(x.abs()));
                format!(
                    "state out of range for a {} body (|q| up to {qmax:e}, |t| up to {tmax:e}): {e}",
                    S::NAME
                )
            }
            e => format!("q: {e}"),
        })
}

/// Checks a state the way the kernel will, with messages that name the parameter and the
/// value: finite entries, a unit quaternion within [`QUATERNION_TOLERANCE`].
fn check_state(rotation: &[f64; 4], translation: &[f64; 3], q: &[f64]) -> PyResult<()> {
    for (name, values) in [
        ("rotation", &rotation[..]),
        ("translation", &translation[..]),
        ("q", q),
    ] {
        if let Some(k) = values.iter().position(|x| !x.is_finite()) {
            return Err(err(format!(
                "{name}[{k}] = {}: every entry must be finite",
                values[k]
            )));
        }
    }
    let norm = rotation.iter().map(|x| x * x).sum::<f64>().sqrt();
    if (norm - 1.0).abs() > QUATERNION_TOLERANCE {
        let [w, x, y, z] = rotation;
        return Err(err(format!(
            "rotation = ({w}, {x}, {y}, {z}): a quaternion of norm {norm}; rotations must be \
             unit quaternions (w, x, y, z) (| norm − 1 | ≤ {QUATERNION_TOLERANCE:e}, on every \
             surface)"
        )));
    }
    Ok(())
}

impl Body {
    /// Re-places the kernel body's state relative to `origin` (nothing to do when it already
    /// is).
    pub(crate) fn place(&mut self, origin: [f64; 3]) -> PyResult<()> {
        if self.origin == origin {
            return Ok(());
        }
        let result = match &mut self.body {
            AnyBody::F32(b) => set(b.body(), &self.state, origin),
            AnyBody::F64(b) => set(b.body(), &self.state, origin),
        };
        result.map_err(err)?;
        self.origin = origin;
        Ok(())
    }
}

#[pymethods]
impl Body {
    #[new]
    fn new(tree: &Bound<'_, PyAny>) -> PyResult<Self> {
        let tree = tree
            .cast::<Tree>()
            .map_err(|_| err(format!("tree = {}: expected a bdtree.Tree", shown(tree))))?;
        let data = Arc::clone(&tree.get().data);
        let modes = data.header.modes as usize;
        let body = if data.header.scalar_bytes == 4 {
            AnyBody::F32(Owned::new(data).map_err(err)?)
        } else {
            AnyBody::F64(Owned::new(data).map_err(err)?)
        };
        Ok(Body {
            body,
            tree: tree.clone().unbind(),
            state: State {
                rotation: [1.0, 0.0, 0.0, 0.0],
                translation: [0.0; 3],
                q: vec![0.0; modes],
            },
            origin: [0.0; 3],
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
        let r = match rotation.filter(|r| !r.is_none()) {
            Some(r) => vector::<4>("rotation", r)?,
            None => [1.0, 0.0, 0.0, 0.0],
        };
        let t = match translation.filter(|t| !t.is_none()) {
            Some(t) => finite_vector::<3>("translation", t)?,
            None => [0.0; 3],
        };
        let modes = self.state.q.len();
        let q = match q.filter(|q| !q.is_none()) {
            Some(q) => floats1("q", q)?,
            None => vec![0.0; modes],
        };
        check_state(&r, &t, &q)?;
        let state = State {
            rotation: r,
            translation: t,
            q,
        };
        // Placed at its own translation until a query needs another origin.
        let result = match &mut self.body {
            AnyBody::F32(b) => set(b.body(), &state, t),
            AnyBody::F64(b) => set(b.body(), &state, t),
        };
        result.map_err(err)?;
        self.state = state;
        self.origin = t;
        Ok(())
    }

    /// World sphere `[x, y, z, r]` of a node for the current step (node 0: the whole body).
    #[pyo3(signature = (node = None), text_signature = "($self, node=0)")]
    fn sphere(&mut self, node: Option<&Bound<'_, PyAny>>) -> PyResult<(f64, f64, f64, f64)> {
        let nodes = match &self.body {
            AnyBody::F32(b) => b.nodes(),
            AnyBody::F64(b) => b.nodes(),
        };
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
        // Its own translation is the best origin for one body.
        let t = self.state.translation;
        self.place(t)?;
        let s = match &mut self.body {
            AnyBody::F32(b) => b.body().sphere(node).map(|s| s.map(f64::from)),
            AnyBody::F64(b) => b.body().sphere(node),
        };
        let [x, y, z, r] = s.ok_or_else(|| err(format!("node = {node}: does not exist")))?;
        let o = self.origin;
        Ok((x + o[0], y + o[1], z + o[2], r))
    }

    /// The body's tree.
    #[getter]
    fn tree(&self, py: Python<'_>) -> Py<Tree> {
        self.tree.clone_ref(py)
    }
}

/// A `bdtree.Body` argument.
pub(crate) fn body_arg<'py>(name: &str, x: &Bound<'py, PyAny>) -> PyResult<Bound<'py, Body>> {
    x.cast::<Body>()
        .cloned()
        .map_err(|_| err(format!("{name} = {}: expected a bdtree.Body", shown(x))))
}

/// Mutable borrows of two distinct bodies (`names` are the parameters).
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
    if std::mem::discriminant(&a.body) != std::mem::discriminant(&b.body) {
        return Err(err(format!(
            "{} and {}: the bodies' trees have different precisions (f32 and f64): build both \
             in one",
            names[0], names[1]
        )));
    }
    Ok((a, b))
}

/// The kernel's status of a query that did not complete, as an error.
pub(crate) fn status_error(what: &str, status: QueryStatus) -> PyErr {
    match status {
        QueryStatus::NotNested => err(format!(
            "{what}: proxy queries need trees built with nested=True (Tree.build(..., \
             nested=True)); at least one of these trees is not nested"
        )),
        status => err(format!("{what}: the query did not complete: {status:?}")),
    }
}

/// The depth of a body's tree.
pub(crate) fn depth<S: Scalar>(b: &CoreBody<'_, '_, S>) -> u32 {
    b.tree().depth()
}

/// A point relative to a floating origin, in the world.
pub(crate) fn world<S: Scalar>(p: [S; 3], origin: [f64; 3]) -> [f64; 3] {
    std::array::from_fn(|k| p[k].to_f64() + origin[k])
}

/// Runs `$run` on the kernel bodies of two [`Body`]s of one precision (checked by
/// [`borrow_two`]) as `$x`, `$y`.
macro_rules! with_pair {
    ($a:expr, $b:expr, |$x:ident, $y:ident| $run:expr) => {
        match (&mut $a.body, &mut $b.body) {
            ($crate::body::AnyBody::F32(x), $crate::body::AnyBody::F32(y)) => {
                let ($x, $y) = (x.body(), y.body());
                $run
            }
            ($crate::body::AnyBody::F64(x), $crate::body::AnyBody::F64(y)) => {
                let ($x, $y) = (x.body(), y.body());
                $run
            }
            _ => Err($crate::err(
                "the bodies' trees have different precisions (f32 and f64): build both in one",
            )),
        }
    };
}

/// Runs `$run` on the kernel body of a [`Body`] as `$x`.
macro_rules! with_body {
    ($a:expr, |$x:ident| $run:expr) => {
        match &mut $a.body {
            $crate::body::AnyBody::F32(x) => {
                let $x = x.body();
                $run
            }
            $crate::body::AnyBody::F64(x) => {
                let $x = x.body();
                $run
            }
        }
    };
}

pub(crate) use {with_body, with_pair};
