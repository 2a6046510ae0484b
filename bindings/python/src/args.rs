//! Python arguments to Rust values, every check shared by two functions or more in one place.
//! Every bad argument becomes a `bdtree.Error` that names the Python parameter and the value it
//! was given (never pyo3's `TypeError` or `OverflowError`): [`expected`]'s message.

use std::path::Path;

use bdtree_std::build::{Precision, TreeKind};
use bdtree_std::io::{Basis, Mesh};
use numpy::ndarray::{Array2, ArrayView2};
use numpy::{AllowTypeChange, PyArrayLikeDyn};
use pyo3::prelude::*;
use pyo3::type_object::PyTypeCheck;
use pyo3::types::{PyInt, PyIterator};

use crate::error::{err, expected};

/// An array-like argument, read by the functions below.
pub(crate) type Floats<'py> = Bound<'py, PyAny>;

/// The largest proxy depth asked for (a tree this deep would not fit in memory).
const MAX_DEPTH: i64 = 1 << 16;

/// An integer argument in `[low, high]`; `what` says what it must be ("a tree depth, an
/// integer ≥ 0").
pub(crate) fn int_arg(
    name: &str,
    x: &Bound<'_, PyAny>,
    low: i64,
    high: i64,
    what: &str,
) -> PyResult<i64> {
    let bad = || expected(name, x, what);
    // bool is an int in Python; a flag where a count is wanted is a mistake.
    if x.is_instance_of::<pyo3::types::PyBool>() {
        return Err(bad());
    }
    let value = if x.is_instance_of::<PyInt>() {
        x.extract::<i64>().map_err(|_| bad())?
    } else {
        // NumPy integers and other integral objects (`__index__`).
        x.call_method0("__index__")
            .and_then(|i| i.extract::<i64>())
            .map_err(|_| bad())?
    };
    if value < low || value > high {
        return Err(bad());
    }
    Ok(value)
}

/// An optional integer argument (`None` when absent or `None`).
pub(crate) fn opt_int_arg(
    name: &str,
    x: Option<&Bound<'_, PyAny>>,
    low: i64,
    high: i64,
    what: &str,
) -> PyResult<Option<i64>> {
    match x {
        Some(x) if !x.is_none() => int_arg(name, x, low, high, what).map(Some),
        _ => Ok(None),
    }
}

/// A real argument (any Python or NumPy real number); `ok` decides whether it is in range and
/// `what` says what it must be.
pub(crate) fn float_arg(
    name: &str,
    x: &Bound<'_, PyAny>,
    ok: impl Fn(f64) -> bool,
    what: &str,
) -> PyResult<f64> {
    let bad = || expected(name, x, what);
    if x.is_instance_of::<pyo3::types::PyBool>() {
        return Err(bad());
    }
    let value: f64 = x.extract().map_err(|_| bad())?;
    if !ok(value) {
        return Err(bad());
    }
    Ok(value)
}

/// A string argument.
pub(crate) fn str_arg(name: &str, x: &Bound<'_, PyAny>, what: &str) -> PyResult<String> {
    x.extract::<String>().map_err(|_| expected(name, x, what))
}

/// A boolean argument (`True`/`False`, or a NumPy bool).
pub(crate) fn bool_arg(name: &str, x: &Bound<'_, PyAny>) -> PyResult<bool> {
    x.extract::<bool>()
        .map_err(|_| expected(name, x, "True or False"))
}

/// A flag argument: `True`/`False` (or a NumPy bool); absent, `False`.
pub(crate) fn flag_arg(name: &str, x: Option<&Bound<'_, PyAny>>) -> PyResult<bool> {
    Ok(x.map(|x| bool_arg(name, x)).transpose()?.unwrap_or(false))
}

/// A string argument that names one of a few choices: `parse` reads it (`None`: not one of
/// them), `what` says which they are.
pub(crate) fn choice_arg<T>(
    name: &str,
    x: &Bound<'_, PyAny>,
    what: &str,
    parse: impl FnOnce(&str) -> Option<T>,
) -> PyResult<T> {
    parse(&str_arg(name, x, what)?).ok_or_else(|| expected(name, x, what))
}

/// A tree depth (a proxy depth, a level to draw): an integer from 0 to 2^16; `what` says what
/// it is for.
pub(crate) fn depth_arg(name: &str, x: &Bound<'_, PyAny>, what: &str) -> PyResult<u32> {
    Ok(int_arg(name, x, 0, MAX_DEPTH, what)? as u32)
}

/// A proxy depth: [`depth_arg`] with the proxy queries' words.
pub(crate) fn proxy_depth_arg(name: &str, x: &Bound<'_, PyAny>) -> PyResult<u32> {
    depth_arg(
        name,
        x,
        "a tree depth, an integer ≥ 0 (the root has depth 0)",
    )
}

/// The `distance` of a query: finite and ≥ 0.
pub(crate) fn distance_arg(x: &Bound<'_, PyAny>) -> PyResult<f64> {
    float_arg(
        "distance",
        x,
        |d| d.is_finite() && d >= 0.0,
        "a finite distance ≥ 0",
    )
}

/// The `stiffness` of penalty forces: finite and ≥ 0.
pub(crate) fn stiffness_arg(x: &Bound<'_, PyAny>) -> PyResult<f64> {
    float_arg(
        "stiffness",
        x,
        |k| k.is_finite() && k >= 0.0,
        "a finite stiffness ≥ 0 (force per length unit)",
    )
}

/// An instance of one of the module's classes (`what`: "a bdtree.Body").
pub(crate) fn instance_arg<'py, T: PyTypeCheck>(
    name: &str,
    x: &Bound<'py, PyAny>,
    what: &str,
) -> PyResult<Bound<'py, T>> {
    x.cast::<T>().cloned().map_err(|_| expected(name, x, what))
}

/// An iterable argument, read lazily (`what`: what it holds, "bdtree.Body"); an item that
/// fails to come is that item's error.
pub(crate) fn iter_arg<'py>(
    name: &str,
    x: &Bound<'py, PyAny>,
    what: &str,
) -> PyResult<Bound<'py, PyIterator>> {
    x.try_iter()
        .map_err(|_| expected(name, x, &format!("a sequence of {what}")))
}

/// A sequence argument, read whole (`what`: what it holds, "vertex indices"); one that cannot
/// be read to its end is refused as a whole.
pub(crate) fn sequence_arg<'py>(
    name: &str,
    x: &Bound<'py, PyAny>,
    what: &str,
) -> PyResult<Vec<Bound<'py, PyAny>>> {
    x.try_iter()
        .and_then(|it| it.collect::<PyResult<Vec<_>>>())
        .map_err(|_| expected(name, x, &format!("a sequence of {what}")))
}

/// A two-dimensional array of numbers (any real dtype, C or Fortran order, or nested
/// sequences), widened to float64; `shape` names the expected shape in messages.
pub(crate) fn floats2(what: &str, shape: &str, x: &Bound<'_, PyAny>) -> PyResult<Array2<f64>> {
    let a: PyArrayLikeDyn<'_, f64, AllowTypeChange> = x
        .extract()
        .map_err(|_| expected(what, x, &format!("an array of numbers of shape {shape}")))?;
    let a = a.as_array();
    let dims = a.shape().to_vec();
    a.into_dimensionality::<numpy::ndarray::Ix2>()
        .map(|a| a.to_owned())
        .map_err(|_| err(format!("{what}: expected shape {shape}, got {dims:?}")))
}

/// A one-dimensional array of numbers (any real dtype, or a sequence), widened to float64.
pub(crate) fn floats1(what: &str, x: &Bound<'_, PyAny>) -> PyResult<Vec<f64>> {
    let a: PyArrayLikeDyn<'_, f64, AllowTypeChange> = x
        .extract()
        .map_err(|_| expected(what, x, "a vector of numbers"))?;
    let a = a.as_array();
    if a.ndim() != 1 {
        return Err(err(format!(
            "{what}: expected a vector of numbers, got shape {:?}",
            a.shape()
        )));
    }
    Ok(a.iter().copied().collect())
}

/// A float vector of a given length.
pub(crate) fn vector<const N: usize>(what: &str, x: &Bound<'_, PyAny>) -> PyResult<[f64; N]> {
    floats1(what, x)?
        .try_into()
        .map_err(|v: Vec<f64>| err(format!("{what}: expected {N} numbers, got {}", v.len())))
}

/// The precision a tree is built in.
pub(crate) fn precision_of(x: &Bound<'_, PyAny>) -> PyResult<Precision> {
    choice_arg("precision", x, "\"f32\" or \"f64\"", |text| match text {
        "f64" | "float64" | "double" => Some(Precision::F64),
        "f32" | "float32" | "float" => Some(Precision::F32),
        _ => None,
    })
}

/// `tree`: "median" or "medial" ([`TreeKind::name`]).
pub(crate) fn tree_of(x: &Bound<'_, PyAny>) -> PyResult<TreeKind> {
    choice_arg("tree", x, "\"median\" or \"medial\"", |text| {
        text.parse().ok()
    })
}

/// A mesh from NumPy arrays, checked (every index in range, every coordinate finite).
pub(crate) fn mesh_from(vertices: ArrayView2<'_, f64>, faces: &Bound<'_, PyAny>) -> PyResult<Mesh> {
    if vertices.ncols() != 3 {
        return Err(err(format!(
            "vertices: expected shape (N, 3), got {:?}",
            vertices.shape()
        )));
    }
    // Read as float64 (exact for every index below 2^53) so that a float array of
    // non-integral indices is refused rather than truncated.
    let faces = floats2("faces", "(F, 3)", faces)?;
    if faces.ncols() != 3 {
        return Err(err(format!(
            "faces: expected shape (F, 3), got {:?}",
            faces.shape()
        )));
    }
    let n = vertices.nrows();
    let mut triangles = Vec::with_capacity(faces.nrows());
    for (t, row) in faces.rows().into_iter().enumerate() {
        let mut tri = [0u32; 3];
        for (k, (&i, slot)) in row.iter().zip(&mut tri).enumerate() {
            if !(i >= 0.0 && i < n as f64 && i.fract() == 0.0) {
                return Err(err(format!(
                    "faces[{t}, {k}] = {i} is not a vertex index (there are {n} vertices)"
                )));
            }
            // In range and integral: exact.
            *slot = i as u32;
        }
        triangles.push(tri);
    }
    let mesh = Mesh {
        vertices: vertices
            .rows()
            .into_iter()
            .map(|r| [r[0], r[1], r[2]])
            .collect(),
        triangles,
    };
    mesh.validate(Path::new("the vertex and face arrays"))
        .map_err(err)?;
    Ok(mesh)
}

/// A mesh from the `vertices` and `faces` arguments.
pub(crate) fn mesh_arg(vertices: &Bound<'_, PyAny>, faces: &Bound<'_, PyAny>) -> PyResult<Mesh> {
    mesh_from(floats2("vertices", "(N, 3)", vertices)?.view(), faces)
}

/// A basis from a `(3N, M)` or `(N, 3, M)` array.
pub(crate) fn basis_from(modes: &Bound<'_, PyAny>, vertices: usize) -> PyResult<Basis> {
    let array: PyArrayLikeDyn<'_, f64, AllowTypeChange> = modes
        .extract()
        .map_err(|_| expected("modes", modes, "a float array"))?;
    let array = array.as_array();
    let shape = array.shape().to_vec();
    let m = match shape.as_slice() {
        [rows, m] if *rows == 3 * vertices => *m,
        [n, 3, m] if *n == vertices => *m,
        _ => {
            return Err(err(format!(
                "modes: expected shape (3N, M) = ({}, M) or (N, 3, M) = ({vertices}, 3, M), got \
                 {shape:?}",
                3 * vertices
            )))
        }
    };
    // Row-major (3N, M) either way: entry (3i + k, j) is [i, k, j] of the (N, 3, M) form.
    let data: Vec<f64> = array.iter().copied().collect();
    if let Some(i) = data.iter().position(|x| !x.is_finite()) {
        return Err(err(format!(
            "modes: entry {i} (row-major) is {} — every entry must be finite",
            data[i]
        )));
    }
    Ok(Basis {
        vertices,
        modes: m,
        data,
    })
}
