//! Rigid primitives (`bdtree.Primitive`: a half-space, a sphere, a capsule, an oriented box, in
//! world coordinates) and `collide_primitive`: every triangle of a body that touches one, with
//! its contact. The pair is placed at its own floating origin (the body's translation and the
//! primitive's centre); f32 answers are measured again in f64 on the stored model.

use bdtree_core::{
    collide_primitive as core_primitive, floating_origin, primitive_contact,
    primitive_stack_capacity, Body as CoreBody, ContactPoint, Pose, Primitive as Kernel, Scalar,
};
use numpy::ndarray::Array1;
use numpy::IntoPyArray;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::args::{finite_vector, float_arg, rows, shown, vector};
use crate::body::{body_arg, depth, status_error, with_body, world};
use crate::err;
use crate::refined::{error64, triangle64, Frame64};

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
        Ok(Primitive {
            shape: Shape::Plane {
                normal: n.map(|x| x / len),
                offset,
            },
        })
    }

    /// A solid ball.
    #[staticmethod]
    fn sphere(center: &Bound<'_, PyAny>, radius: &Bound<'_, PyAny>) -> PyResult<Primitive> {
        Ok(Primitive {
            shape: Shape::Sphere {
                center: finite_vector::<3>("center", center)?,
                radius: radius_arg(radius)?,
            },
        })
    }

    /// A solid capsule: the points within `radius` of the segment from `a` to `b`.
    #[staticmethod]
    fn capsule(
        a: &Bound<'_, PyAny>,
        b: &Bound<'_, PyAny>,
        radius: &Bound<'_, PyAny>,
    ) -> PyResult<Primitive> {
        Ok(Primitive {
            shape: Shape::Capsule {
                a: finite_vector::<3>("a", a)?,
                b: finite_vector::<3>("b", b)?,
                radius: radius_arg(radius)?,
            },
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
        Ok(Primitive {
            shape: Shape::Box {
                center: finite_vector::<3>("center", center)?,
                rotation: r,
                half_extents: h,
            },
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
    /// The point a floating origin should be near (`None` for a half-space).
    fn anchor(&self) -> Option<[f64; 3]> {
        match *self {
            Shape::Plane { .. } => None,
            Shape::Sphere { center, .. } | Shape::Box { center, .. } => Some(center),
            Shape::Capsule { a, b, .. } => Some(std::array::from_fn(|k| 0.5 * a[k] + 0.5 * b[k])),
        }
    }

    /// The kernel's primitive in `S`, relative to `origin` (subtracted in f64).
    fn kernel<S: Scalar>(&self, origin: [f64; 3]) -> Result<Kernel<S>, String> {
        let rel =
            |p: [f64; 3]| -> [S; 3] { std::array::from_fn(|k| S::from_f64(p[k] - origin[k])) };
        let made = match *self {
            Shape::Plane { normal, offset } => {
                let along = normal[0] * origin[0] + normal[1] * origin[1] + normal[2] * origin[2];
                Kernel::plane(normal.map(S::from_f64), S::from_f64(offset - along))
            }
            Shape::Sphere { center, radius } => Kernel::sphere(rel(center), S::from_f64(radius)),
            Shape::Capsule { a, b, radius } => Kernel::capsule(rel(a), rel(b), S::from_f64(radius)),
            Shape::Box {
                center,
                rotation,
                half_extents,
            } => {
                let n = rotation.iter().map(|x| x * x).sum::<f64>().sqrt();
                let pose = Pose::from_quaternion(rotation.map(|x| S::from_f64(x / n)), rel(center))
                    .map_err(|e| e.to_string())?;
                Kernel::oriented_box(&pose, half_extents.map(S::from_f64))
            }
        };
        made.map_err(|e| format!("{e} (in {} precision, at the query's origin)", S::NAME))
    }
}

/// One contact of a triangle with the primitive, relative to the origin.
struct Touch {
    triangle: u32,
    point: [f64; 3],
    normal: [f64; 3],
    depth: f64,
}

fn touches<S: Scalar>(
    body: &mut CoreBody<'_, '_, S>,
    shape: &Shape,
    origin: [f64; 3],
    frame: &Frame64,
) -> PyResult<Vec<Touch>> {
    let primitive = shape.kernel::<S>(origin).map_err(err)?;
    let wide = shape.kernel::<f64>(origin).map_err(err)?;
    let mut stack = vec![[0u32; 2]; primitive_stack_capacity(depth(body))];
    let mut found = Vec::new();
    let mut sink = |c: ContactPoint<S>| {
        found.push(c.a);
        true
    };
    let o = core_primitive(body, &primitive, &mut stack, &mut sink);
    if !o.status.is_complete() {
        return Err(status_error("collide_primitive", o.status));
    }
    let error = error64(body);
    let mut out = Vec::with_capacity(found.len());
    for t in found {
        let Some(tri) = triangle64(body, frame, t) else {
            continue;
        };
        // Measured again in f64 on the stored model; one that does not touch there is dropped.
        if let Some(c) = primitive_contact(&tri, &wide, error) {
            out.push(Touch {
                triangle: t,
                point: c.point,
                normal: c.normal,
                depth: c.depth.max(0.0),
            });
        }
    }
    out.sort_unstable_by_key(|t| t.triangle);
    Ok(out)
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
    let shape = primitive
        .cast::<Primitive>()
        .map_err(|_| {
            err(format!(
                "primitive = {}: expected a bdtree.Primitive",
                shown(primitive)
            ))
        })?
        .get()
        .shape;
    let body = body_arg("body", body)?;
    let mut body = body.try_borrow_mut()?;
    let t = body.state.translation;
    let origin = match shape.anchor() {
        Some(p) => floating_origin(&[t, p]),
        None => t,
    };
    body.place(origin)?;
    let frame = Frame64::new(&body.state, origin);
    let found = with_body!(body, |x| touches(x, &shape, origin, &frame))?;
    let d = PyDict::new(py);
    d.set_item(
        "triangles",
        Array1::from_iter(found.iter().map(|t| i64::from(t.triangle))).into_pyarray(py),
    )?;
    let points: Vec<[f64; 3]> = found.iter().map(|t| world(t.point, origin)).collect();
    let normals: Vec<[f64; 3]> = found.iter().map(|t| t.normal).collect();
    d.set_item("points", rows(py, &points))?;
    d.set_item("normals", rows(py, &normals))?;
    d.set_item(
        "depths",
        Array1::from_iter(found.iter().map(|t| t.depth)).into_pyarray(py),
    )?;
    Ok(d)
}
