//! Python arguments to Rust values. Every bad argument becomes a `bdtree.Error` that names the
//! Python parameter and the value it was given (never pyo3's `TypeError` or `OverflowError`).

use std::path::Path;

use bdtree_std::build::Precision;
use bdtree_std::io::{Basis, Mesh};
use numpy::ndarray::{Array2, ArrayView2};
use numpy::{AllowTypeChange, IntoPyArray, PyArray2, PyArrayLikeDyn};
use pyo3::prelude::*;
use pyo3::types::PyInt;

use crate::err;

/// A short text of a Python value for messages: its `repr`, cut at 60 characters.
pub(crate) fn shown(x: &Bound<'_, PyAny>) -> String {
    let text = x
        .repr()
        .map(|r| r.to_string())
        .unwrap_or_else(|_| "<unprintable>".into());
    if text.chars().count() > 60 {
        let cut: String = text.chars().take(57).collect();
        format!("{cut}...")
    } else {
        text
    }
}

/// An integer argument in `[low, high]`; `what` says what it must be ("a tree depth, an
/// integer ≥ 0").
pub(crate) fn int_arg(
    name: &str,
    x: &Bound<'_, PyAny>,
    low: i64,
    high: i64,
    what: &str,
) -> PyResult<i64> {
    let bad = || err(format!("{name} = {}: expected {what}", shown(x)));
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
    let bad = || err(format!("{name} = {}: expected {what}", shown(x)));
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
    x.extract::<String>()
        .map_err(|_| err(format!("{name} = {}: expected {what}", shown(x))))
}

/// A boolean argument (`True`/`False`, or a NumPy bool).
pub(crate) fn bool_arg(name: &str, x: &Bound<'_, PyAny>) -> PyResult<bool> {
    x.extract::<bool>()
        .map_err(|_| err(format!("{name} = {}: expected True or False", shown(x))))
}

/// A two-dimensional array of numbers (any real dtype, C or Fortran order, or nested
/// sequences), widened to float64; `shape` names the expected shape in messages.
pub(crate) fn floats2(what: &str, shape: &str, x: &Bound<'_, PyAny>) -> PyResult<Array2<f64>> {
    let a: PyArrayLikeDyn<'_, f64, AllowTypeChange> = x.extract().map_err(|_| {
        err(format!(
            "{what} = {}: expected an array of numbers of shape {shape}",
            shown(x)
        ))
    })?;
    let a = a.as_array();
    let dims = a.shape().to_vec();
    a.into_dimensionality::<numpy::ndarray::Ix2>()
        .map(|a| a.to_owned())
        .map_err(|_| err(format!("{what}: expected shape {shape}, got {dims:?}")))
}

/// A one-dimensional array of numbers (any real dtype, or a sequence), widened to float64.
pub(crate) fn floats1(what: &str, x: &Bound<'_, PyAny>) -> PyResult<Vec<f64>> {
    let a: PyArrayLikeDyn<'_, f64, AllowTypeChange> = x.extract().map_err(|_| {
        err(format!(
            "{what} = {}: expected a vector of numbers",
            shown(x)
        ))
    })?;
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
    let what = "\"f32\" or \"f64\"";
    match str_arg("precision", x, what)?.as_str() {
        "f64" | "float64" | "double" => Ok(Precision::F64),
        "f32" | "float32" | "float" => Ok(Precision::F32),
        _ => Err(err(format!("precision = {}: expected {what}", shown(x)))),
    }
}

/// "f32" or "f64", as `precision` arguments and `Tree.precision` spell it.
pub(crate) fn precision_text(precision: Precision) -> &'static str {
    match precision {
        Precision::F32 => "f32",
        Precision::F64 => "f64",
    }
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
        .map_err(|_| err(format!("modes = {}: expected a float array", shown(modes))))?;
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
