//! Rigid primitives (`bdtree.Primitive`: a half-space, a sphere, a capsule, an oriented box, in
//! world coordinates, each a [`host::Primitive`]) and `collide_primitive`: every triangle of a
//! body that touches one, with its contact ([`host::primitive_contacts`], at the body's own
//! origin, the primitive placed in f64 before rounding).

use bdtree_std::host;
use bdtree_std::io::pose::Pose;
use bdtree_std::io::scene::PrimitiveShape;
use numpy::ndarray::Array1;
use numpy::IntoPyArray;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::args::{finite_vector, float_arg, rows, shown, vector};
use crate::body::{body_arg, query_error};
use crate::err;

/// A primitive's shape in world coordinates, f64.
#[derive(Clone, Copy)]
enum Shape {
    Plane {
        normal: [f64; 3],
        offset: f64,
    },
    Sphere {
        center: [f64; 3],
        radius: f64,
    },
    Capsule {
        a: [f64; 3],
        b: [f64; 3],
        radius: f64,
    },
    Box {
        center: [f64; 3],
        rotation: [f64; 4],
        half_extents: [f64; 3],
    },
}

/// A rigid primitive in world coordinates: a half-space, a sphere, a capsule or an oriented
/// box (made by `Primitive.plane`, `.sphere`, `.capsule`, `.box`).
#[pyclass(frozen, module = "bdtree")]
pub(crate) struct Primitive {
    shape: Shape,
    pub(crate) host: host::Primitive,
}

impl Primitive {
    fn of(shape: Shape) -> PyResult<Primitive> {
        Ok(Primitive {
            host: shape.host()?,
            shape,
        })
    }
}

fn radius_arg(x: &Bound<'_, PyAny>) -> PyResult<f64> {
    float_arg(
        "radius",
        x,
        |r| r.is_finite() && r >= 0.0,
        "a finite radius ≥ 0",
    )
}

#[pymethods]
impl Primitive {
    /// The solid half-space `n · x ≤ offset` below the plane through `offset · n` (`normal`
    /// need not be unit: it is normalised, and points out of the solid).
    #[staticmethod]
    fn plane(normal: &Bound<'_, PyAny>, offset: &Bound<'_, PyAny>) -> PyResult<Primitive> {
        let n = finite_vector::<3>("normal", normal)?;
        let offset = float_arg("offset", offset, f64::is_finite, "a finite number")?;
        let len = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
        if !(len > 0.0 && len.is_finite()) {
            return Err(err(format!(
                "normal = {}: a plane's normal must not be zero",
                shown(normal)
            )));
        }
        Primitive::of(Shape::Plane {
            normal: n.map(|x| x / len),
            offset,
        })
    }

    /// A solid ball.
    #[staticmethod]
    fn sphere(center: &Bound<'_, PyAny>, radius: &Bound<'_, PyAny>) -> PyResult<Primitive> {
        Primitive::of(Shape::Sphere {
            center: finite_vector::<3>("center", center)?,
            radius: radius_arg(radius)?,
        })
    }

    /// A solid capsule: the points within `radius` of the segment from `a` to `b`.
    #[staticmethod]
    fn capsule(
        a: &Bound<'_, PyAny>,
        b: &Bound<'_, PyAny>,
        radius: &Bound<'_, PyAny>,
    ) -> PyResult<Primitive> {
        Primitive::of(Shape::Capsule {
            a: finite_vector::<3>("a", a)?,
            b: finite_vector::<3>("b", b)?,
            radius: radius_arg(radius)?,
        })
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
        let r = vector::<4>("rotation", rotation)?;
        let norm = r.iter().map(|x| x * x).sum::<f64>().sqrt();
        if !r.iter().all(|x| x.is_finite())
            || (norm - 1.0).abs() > bdtree_core::QUATERNION_TOLERANCE
        {
            return Err(err(format!(
                "rotation = {}: expected a unit quaternion (w, x, y, z) (| norm − 1 | ≤ {:e})",
                shown(rotation),
                bdtree_core::QUATERNION_TOLERANCE
            )));
        }
        let h = finite_vector::<3>("half_extents", half_extents)?;
        if let Some(k) = h.iter().position(|&x| x < 0.0) {
            return Err(err(format!("half_extents[{k}] = {}: must be ≥ 0", h[k])));
        }
        Primitive::of(Shape::Box {
            center: finite_vector::<3>("center", center)?,
            rotation: r,
            half_extents: h,
        })
    }

    /// "plane", "sphere", "capsule" or "box".
    #[getter]
    fn kind(&self) -> &'static str {
        match self.shape {
            Shape::Plane { .. } => "plane",
            Shape::Sphere { .. } => "sphere",
            Shape::Capsule { .. } => "capsule",
            Shape::Box { .. } => "box",
        }
    }

    fn __repr__(&self) -> String {
        match self.shape {
            Shape::Plane { normal, offset } => {
                format!("bdtree.Primitive.plane(normal={normal:?}, offset={offset:?})")
            }
            Shape::Sphere { center, radius } => {
                format!("bdtree.Primitive.sphere(center={center:?}, radius={radius:?})")
            }
            Shape::Capsule { a, b, radius } => {
                format!("bdtree.Primitive.capsule(a={a:?}, b={b:?}, radius={radius:?})")
            }
            Shape::Box {
                center,
                rotation,
                half_extents,
            } => format!(
                "bdtree.Primitive.box(center={center:?}, rotation={rotation:?}, \
                 half_extents={half_extents:?})"
            ),
        }
    }
}

impl Shape {
    /// The host's primitive: the shape in its local frame and its pose (a capsule's axis is
    /// its local z, turned onto `b − a`).
    fn host(&self) -> PyResult<host::Primitive> {
        let (shape, pose) = match *self {
            Shape::Plane { normal, offset } => {
                (PrimitiveShape::Plane { normal, offset }, Pose::IDENTITY)
            }
            Shape::Sphere { center, radius } => (
                PrimitiveShape::Sphere(radius),
                Pose::from_translation(center),
            ),
            Shape::Capsule { a, b, radius } => {
                let d: [f64; 3] = std::array::from_fn(|k| b[k] - a[k]);
                let length = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt();
                let middle = std::array::from_fn(|k| 0.5 * a[k] + 0.5 * b[k]);
                // The shortest rotation of +z onto the axis (a half turn about x onto −z).
                let rotation = if length > 0.0 {
                    let u = d.map(|x| x / length);
                    let q = [1.0 + u[2], -u[1], u[0], 0.0];
                    let n = q.iter().map(|x| x * x).sum::<f64>().sqrt();
                    if n > 1e-8 {
                        q.map(|x| x / n)
                    } else {
                        [0.0, 1.0, 0.0, 0.0]
                    }
                } else {
                    [1.0, 0.0, 0.0, 0.0]
                };
                let shape = PrimitiveShape::Capsule {
                    radius,
                    half_length: 0.5 * length,
                };
                let pose = Pose {
                    rotation,
                    translation: middle,
                };
                (shape, pose)
            }
            Shape::Box {
                center,
                rotation,
                half_extents,
            } => {
                let pose = Pose {
                    rotation,
                    translation: center,
                };
                (PrimitiveShape::Box { half_extents }, pose)
            }
        };
        host::Primitive::new(shape, pose).map_err(err)
    }
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
    let primitive = primitive
        .cast::<Primitive>()
        .map_err(|_| {
            err(format!(
                "primitive = {}: expected a bdtree.Primitive",
                shown(primitive)
            ))
        })?
        .get()
        .host;
    let body = body_arg("body", body)?;
    let mut body = body.try_borrow_mut()?;
    let found = host::primitive_contacts(&mut body.body, &primitive)
        .map_err(|e| query_error("collide_primitive", &[("body", &body.body)], e))?;
    let found = found.items;
    let d = PyDict::new(py);
    d.set_item(
        "triangles",
        Array1::from_iter(found.iter().map(|c| i64::from(c.triangles[0]))).into_pyarray(py),
    )?;
    let points: Vec<[f64; 3]> = found.iter().map(|c| c.point).collect();
    let normals: Vec<[f64; 3]> = found.iter().map(|c| c.normal).collect();
    d.set_item("points", rows(py, &points))?;
    d.set_item("normals", rows(py, &normals))?;
    d.set_item(
        "depths",
        Array1::from_iter(found.iter().map(|c| c.depth)).into_pyarray(py),
    )?;
    Ok(d)
}
