//! Rigid primitives (`bdtree.Primitive`: a half-space, a sphere, a capsule, an oriented box, in
//! world coordinates, each a [`host::Primitive`], which checks and places it) and
//! the queries against one, named as the kernel's and the host's `primitives`:
//! `collide_primitive`, every triangle of a body that touches one, with its contact
//! ([`host::primitive_contacts`]), and `collide_primitive_proxies`, the contact proxies of a
//! body reaching into one ([`host::primitive_proxies`]: contact response against floors and
//! walls at the cost of a depth-`L` tree) — at the body's own origin, the primitive placed in
//! f64 before rounding.

use bdtree_std::host;
use bdtree_std::io::scene::PrimitiveShape;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::answers;
use crate::args::{float_arg, instance_arg, proxy_depth_arg, vector};
use crate::body::borrow_one;
use crate::error::{input_error, query_error};

/// A rigid primitive in world coordinates: a half-space, a sphere, a capsule or an oriented
/// box (made by `Primitive.plane`, `.sphere`, `.capsule`, `.box`): the host's primitive, which
/// checks and places it, and how it was made (for `repr`).
#[pyclass(frozen, module = "bdtree")]
pub(crate) struct Primitive {
    pub(crate) host: host::Primitive,
    made: String,
}

impl Primitive {
    fn of(made: String, host: Result<host::Primitive, host::HostError>) -> PyResult<Primitive> {
        Ok(Primitive {
            host: host.map_err(input_error)?,
            made,
        })
    }
}

/// A real argument, its range the host's to check.
fn real(name: &str, x: &Bound<'_, PyAny>, what: &str) -> PyResult<f64> {
    float_arg(name, x, |_| true, what)
}

#[pymethods]
impl Primitive {
    /// The solid half-space `n · x ≤ offset` below the plane through `offset · n` (`normal`
    /// need not be unit: it is normalised, and points out of the solid).
    #[staticmethod]
    fn plane(normal: &Bound<'_, PyAny>, offset: &Bound<'_, PyAny>) -> PyResult<Primitive> {
        let normal = vector::<3>("normal", normal)?;
        let offset = real("offset", offset, "a finite number")?;
        let host = host::Primitive::plane(normal, offset);
        let made = match &host {
            Ok(host::Primitive {
                shape: PrimitiveShape::Plane { normal, offset },
                ..
            }) => format!("bdtree.Primitive.plane(normal={normal:?}, offset={offset:?})"),
            _ => String::new(),
        };
        Primitive::of(made, host)
    }

    /// A solid ball.
    #[staticmethod]
    fn sphere(center: &Bound<'_, PyAny>, radius: &Bound<'_, PyAny>) -> PyResult<Primitive> {
        let center = vector::<3>("center", center)?;
        let radius = real("radius", radius, "a finite radius ≥ 0")?;
        Primitive::of(
            format!("bdtree.Primitive.sphere(center={center:?}, radius={radius:?})"),
            host::Primitive::sphere(center, radius),
        )
    }

    /// A solid capsule: the points within `radius` of the segment from `a` to `b`.
    #[staticmethod]
    fn capsule(
        a: &Bound<'_, PyAny>,
        b: &Bound<'_, PyAny>,
        radius: &Bound<'_, PyAny>,
    ) -> PyResult<Primitive> {
        let (a, b) = (vector::<3>("a", a)?, vector::<3>("b", b)?);
        let radius = real("radius", radius, "a finite radius ≥ 0")?;
        Primitive::of(
            format!("bdtree.Primitive.capsule(a={a:?}, b={b:?}, radius={radius:?})"),
            host::Primitive::capsule(a, b, radius),
        )
    }

    /// A solid box of `half_extents` centred at `center`, its axes the columns of the unit
    /// quaternion `rotation` `(w, x, y, z)`'s matrix.
    #[staticmethod]
    #[pyo3(name = "box")]
    fn oriented_box(
        center: &Bound<'_, PyAny>,
        rotation: &Bound<'_, PyAny>,
        half_extents: &Bound<'_, PyAny>,
    ) -> PyResult<Primitive> {
        let rotation = vector::<4>("rotation", rotation)?;
        let half_extents = vector::<3>("half_extents", half_extents)?;
        let center = vector::<3>("center", center)?;
        Primitive::of(
            format!(
                "bdtree.Primitive.box(center={center:?}, rotation={rotation:?}, \
                 half_extents={half_extents:?})"
            ),
            host::Primitive::oriented_box(center, rotation, half_extents),
        )
    }

    /// "plane", "sphere", "capsule" or "box".
    #[getter]
    fn kind(&self) -> &'static str {
        self.host.shape.kind()
    }

    fn __repr__(&self) -> String {
        self.made.clone()
    }
}

/// A `bdtree.Primitive` argument: its host primitive.
pub(crate) fn primitive_arg(name: &str, x: &Bound<'_, PyAny>) -> PyResult<host::Primitive> {
    instance_arg::<Primitive>(name, x, "a bdtree.Primitive").map(|p| p.get().host)
}

/// Every triangle of `body` that touches `primitive` (a `bdtree.Primitive`), with its contact:
/// a dict of `triangles` int64 (K,) (sorted), `points` float64 (K, 3) (world: a point of the
/// triangle inside the primitive, within rounding), `normals` float64 (K, 3) (unit, from the
/// triangle to the primitive) and `depths` float64 (K,) (≥ 0: how far the primitive must move
/// along the normal for the triangle to stop touching it). Conservative: every touching
/// triangle is reported; f32 answers are measured again in f64 on the stored model.
#[pyfunction]
pub(crate) fn collide_primitive<'py>(
    py: Python<'py>,
    body: &Bound<'py, PyAny>,
    primitive: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyDict>> {
    let primitive = primitive_arg("primitive", primitive)?;
    let mut body = borrow_one("body", body)?;
    let found = host::primitive_contacts(&mut body.body, &primitive)
        .map_err(|e| query_error("collide_primitive", &[("body", &body.body)], e))?;
    let d = PyDict::new(py);
    answers::primitive_contacts(&d, found.items.iter())?;
    Ok(d)
}

/// The contact proxies of `body` at `depth` (nodes at that depth, or leaves above it) whose
/// spheres may reach into `primitive`: a dict of `nodes` int64 (K,) (sorted), `spheres` float64
/// (K, 4) (world `[x, y, z, r]`) and `depths` float64 (K,) (how deep each sphere reaches into
/// the primitive). Conservative: every triangle touching the primitive lies under a reported
/// proxy. Needs a tree built with `nested=True`.
#[pyfunction]
pub(crate) fn collide_primitive_proxies<'py>(
    py: Python<'py>,
    body: &Bound<'py, PyAny>,
    depth: &Bound<'py, PyAny>,
    primitive: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyDict>> {
    let depth = proxy_depth_arg("depth", depth)?;
    let primitive = primitive_arg("primitive", primitive)?;
    let mut body = borrow_one("body", body)?;
    let found = host::primitive_proxies(&mut body.body, depth, &primitive)
        .map_err(|e| query_error("collide_primitive_proxies", &[("body", &body.body)], e))?;
    let d = PyDict::new(py);
    answers::primitive_proxies(&d, found.items.iter())?;
    Ok(d)
}
