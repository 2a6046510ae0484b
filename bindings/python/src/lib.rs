//! # bdtree (Python)
//!
//! The Python module `bdtree` over [`bdtree_std`] (loading, building, modes) and
//! [`bdtree_core`] (bodies and queries): NumPy arrays in (any float dtype, C or Fortran
//! order), NumPy arrays out. Every error of the library becomes a `bdtree.Error` (a
//! `ValueError`) carrying its message — file, place and problem for files, the kernel's
//! sentence for bad states.
//!
//! The `unsafe` of this crate is in `owned`: a kernel body borrows its tree image and its
//! caches, and a Python object must own both.

mod owned;
mod swept;

use std::path::Path;
use std::sync::Arc;

use bdtree_core::separation::{nearest, Nearest};
use bdtree_core::{
    collide_proxies as core_proxies, collide_self as core_self, proxy_stack_capacity, refine,
    refine_self, self_stack_capacity, stack_capacity, Body as CoreBody, BodyError, ProxyPair,
    QueryStatus, Scalar, TrianglePair,
};
use bdtree_std::build::{build, BuildOptions, Precision};
use bdtree_std::io::Basis;
use bdtree_std::io::ImageBuf;
use bdtree_std::io::Mesh;
use bdtree_std::modal::{compute_modes, ModalOptions, DEFAULT_MAX_CELLS};
use numpy::ndarray::{Array1, Array2, ArrayView2};
use numpy::PyArrayLikeDyn;
use numpy::{AllowTypeChange, IntoPyArray, PyArray1, PyArray2};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use owned::{Owned, TreeData};

pyo3::create_exception!(
    bdtree,
    Error,
    PyValueError,
    "An error of the library: a bad file (its path, place and problem), a bad array or state."
);

// `modes`' signature spells the default cell budget out (Python sees the literal).
const _: () = assert!(DEFAULT_MAX_CELLS == 200000);

fn err(message: impl std::fmt::Display) -> PyErr {
    Error::new_err(message.to_string())
}

type Floats<'py> = Bound<'py, PyAny>;

/// A two-dimensional array of numbers (any real dtype, C or Fortran order, or nested
/// sequences), widened to float64; `shape` names the expected shape in messages.
fn floats2(what: &str, shape: &str, x: &Bound<'_, PyAny>) -> PyResult<Array2<f64>> {
    let a: PyArrayLikeDyn<'_, f64, AllowTypeChange> = x.extract().map_err(|e| {
        err(format!(
            "{what}: expected an array of numbers of shape {shape} ({e})"
        ))
    })?;
    let a = a.as_array();
    let dims = a.shape().to_vec();
    a.into_dimensionality::<numpy::ndarray::Ix2>()
        .map(|a| a.to_owned())
        .map_err(|_| err(format!("{what}: expected shape {shape}, got {dims:?}")))
}

/// A float64 array made for Python.
type F64Out<'py> = Bound<'py, PyArray2<f64>>;

/// `(V, F)`: float64 vertices and int64 triangles.
type MeshArrays<'py> = (F64Out<'py>, Bound<'py, PyArray2<i64>>);

/// `(N, 3)` float64 vertices and `(F, 3)` int64 triangles of a mesh.
fn mesh_arrays<'py>(py: Python<'py>, mesh: &Mesh) -> MeshArrays<'py> {
    let v = Array2::from_shape_fn((mesh.vertices.len(), 3), |(i, k)| mesh.vertices[i][k]);
    let f = Array2::from_shape_fn((mesh.triangles.len(), 3), |(i, k)| {
        i64::from(mesh.triangles[i][k])
    });
    (v.into_pyarray(py), f.into_pyarray(py))
}

/// Reads a mesh (`.obj`, `.ply`, `.stl`): `(V, F)`, `V` of shape `(N, 3)` float64 and `F` of
/// shape `(F, 3)` int64, in the file's vertex and face order (polygons fan-triangulated).
#[pyfunction]
fn load_mesh<'py>(py: Python<'py>, path: std::path::PathBuf) -> PyResult<MeshArrays<'py>> {
    let mesh = bdtree_std::io::load_mesh(&path).map_err(err)?;
    Ok(mesh_arrays(py, &mesh))
}

/// Reads a displacement basis (`.npy`, shape `(3N, M)`): a float64 array of that shape. With
/// `vertices`, checks that it moves that many vertices.
#[pyfunction]
#[pyo3(signature = (path, vertices = None))]
fn load_basis<'py>(
    py: Python<'py>,
    path: std::path::PathBuf,
    vertices: Option<usize>,
) -> PyResult<Bound<'py, PyArray2<f64>>> {
    let basis = bdtree_std::io::load_npy(&path).map_err(err)?;
    if let Some(n) = vertices {
        basis.check_vertex_count(n, &path).map_err(err)?;
    }
    let rows = basis.vertices * 3;
    let array = Array2::from_shape_vec((rows, basis.modes), basis.data).map_err(err)?;
    Ok(array.into_pyarray(py))
}

/// A mesh from NumPy arrays, checked (every index in range, every coordinate finite).
fn mesh_from(vertices: ArrayView2<'_, f64>, faces: &Bound<'_, PyAny>) -> PyResult<Mesh> {
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

/// A basis from a `(3N, M)` or `(N, 3, M)` array.
fn basis_from(modes: &Bound<'_, PyAny>, vertices: usize) -> PyResult<Basis> {
    let array: PyArrayLikeDyn<'_, f64, AllowTypeChange> = modes
        .extract()
        .map_err(|e| err(format!("modes: expected a float array ({e})")))?;
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

fn precision_of(name: &str) -> PyResult<Precision> {
    match name {
        "f64" | "float64" | "double" => Ok(Precision::F64),
        "f32" | "float32" | "float" => Ok(Precision::F32),
        _ => Err(err(format!(
            "precision: expected \"f32\" or \"f64\", got {name:?}"
        ))),
    }
}

/// A BD-Tree image: the tree of a mesh and its basis, in f32 or f64, as the kernel reads it.
#[pyclass(frozen, module = "bdtree")]
struct Tree {
    data: Arc<TreeData>,
}

#[pymethods]
impl Tree {
    /// Builds the tree of a mesh (`vertices` (N, 3), `faces` (F, 3)) and its displacement
    /// basis (`modes`: (3N, M), (N, 3, M) or None for a rigid body), in `precision` "f32" or
    /// "f64"; `nested=True` makes proxy queries possible. Releases the GIL while building.
    #[staticmethod]
    #[pyo3(signature = (vertices, faces, modes = None, precision = "f64", nested = false))]
    fn build(
        py: Python<'_>,
        vertices: &Bound<'_, PyAny>,
        faces: &Bound<'_, PyAny>,
        modes: Option<&Bound<'_, PyAny>>,
        precision: &str,
        nested: bool,
    ) -> PyResult<Tree> {
        let mesh = mesh_from(floats2("vertices", "(N, 3)", vertices)?.view(), faces)?;
        let basis = modes
            .map(|m| basis_from(m, mesh.vertices.len()))
            .transpose()?;
        let options = BuildOptions {
            precision: precision_of(precision)?,
            nested,
            ..BuildOptions::default()
        };
        let built = py.detach(|| build(&mesh, basis.as_ref(), options, &mut |_| {}));
        let (image, _report) = built.map_err(err)?;
        Ok(Tree {
            data: Arc::new(TreeData::new(image).map_err(err)?),
        })
    }

    /// Reads a tree image written by `save` or `bdtree build` (validated: header, checksum,
    /// every link and value).
    #[staticmethod]
    fn load(path: std::path::PathBuf) -> PyResult<Tree> {
        let image = ImageBuf::read(&path).map_err(err)?;
        let data = TreeData::new(image).map_err(|e| err(format!("{}: {e}", path.display())))?;
        Ok(Tree {
            data: Arc::new(data),
        })
    }

    /// Writes the image (the file `bdtree` and the C API read).
    fn save(&self, path: std::path::PathBuf) -> PyResult<()> {
        std::fs::write(&path, self.data.image.as_bytes())
            .map_err(|e| err(format!("{}: {e}", path.display())))
    }

    /// The image's bytes.
    fn to_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, pyo3::types::PyBytes> {
        pyo3::types::PyBytes::new(py, self.data.image.as_bytes())
    }

    /// `{"nodes", "depth", "modes", "bytes", "triangles", "vertices", "precision", "nested"}`.
    fn info<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let h = &self.data.header;
        let d = PyDict::new(py);
        d.set_item("nodes", h.nodes)?;
        d.set_item("depth", h.depth)?;
        d.set_item("modes", h.modes)?;
        d.set_item("bytes", h.total_len)?;
        d.set_item("triangles", h.triangles)?;
        d.set_item("vertices", h.vertices)?;
        d.set_item("precision", self.data.precision_name())?;
        d.set_item("nested", self.data.nested())?;
        Ok(d)
    }

    /// Modes `M` (the length of `q`).
    #[getter]
    fn modes(&self) -> u32 {
        self.data.header.modes
    }

    /// "f32" or "f64".
    #[getter]
    fn precision(&self) -> &'static str {
        self.data.precision_name()
    }

    fn __repr__(&self) -> String {
        let h = &self.data.header;
        format!(
            "bdtree.Tree({} nodes, depth {}, {} modes, {} triangles, {}, {} bytes)",
            h.nodes,
            h.depth,
            h.modes,
            h.triangles,
            self.data.precision_name(),
            h.total_len
        )
    }
}

/// A body over a tree: its pose, reduced coordinates `q` and cached world spheres.
enum AnyBody {
    F32(Owned<f32>),
    F64(Owned<f64>),
}

/// A deformable body: a tree, a pose (rotation quaternion `(w, x, y, z)`, translation) and
/// reduced coordinates `q` (one per mode). A world vertex is `R (p + U q) + t`.
#[pyclass(module = "bdtree")]
struct Body {
    body: AnyBody,
    tree: Py<Tree>,
    /// The state as the caller gave it, in f64.
    state: State,
    /// The floating origin the kernel body's state is relative to: the queries re-place a
    /// body's state (in f64, [`CoreBody::set_state_f64`]) when a query needs another origin.
    origin: [f64; 3],
}

/// A body's state as the caller gave it.
#[derive(Clone)]
struct State {
    rotation: [f64; 4],
    translation: [f64; 3],
    q: Vec<f64>,
}

/// A float vector of a given length.
/// A one-dimensional array of numbers (any real dtype, or a sequence), widened to float64.
fn floats1(what: &str, x: &Bound<'_, PyAny>) -> PyResult<Vec<f64>> {
    let a: PyArrayLikeDyn<'_, f64, AllowTypeChange> = x
        .extract()
        .map_err(|e| err(format!("{what}: expected a vector of numbers ({e})")))?;
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
fn vector<const N: usize>(what: &str, x: &Bound<'_, PyAny>) -> PyResult<[f64; N]> {
    floats1(what, x)?
        .try_into()
        .map_err(|v: Vec<f64>| err(format!("{what}: expected {N} numbers, got {}", v.len())))
}

/// Sets a kernel body to the caller's f64 state relative to a floating origin (conservative
/// against the state as given, whatever its distance from the world origin).
fn set<S: Scalar>(
    body: &mut CoreBody<'_, '_, S>,
    rotation: [f64; 4],
    translation: [f64; 3],
    q: &[f64],
    origin: [f64; 3],
) -> Result<(), String> {
    body.set_state_f64(rotation, translation, q, origin)
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

/// The midpoint of two translations: the floating origin of a query between two bodies.
fn midpoint(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    std::array::from_fn(|k| 0.5 * a[k] + 0.5 * b[k])
}

impl Body {
    /// Re-places the kernel body's state relative to `origin` (nothing to do when it already
    /// is).
    fn place(&mut self, origin: [f64; 3]) -> PyResult<()> {
        if self.origin == origin {
            return Ok(());
        }
        let State {
            rotation,
            translation,
            q,
        } = &self.state;
        let result = match &mut self.body {
            AnyBody::F32(b) => set(b.body(), *rotation, *translation, q, origin),
            AnyBody::F64(b) => set(b.body(), *rotation, *translation, q, origin),
        };
        result.map_err(err)?;
        self.origin = origin;
        Ok(())
    }
}

/// Places two bodies at the floating origin of a query between them.
fn place_two(a: &mut Body, b: &mut Body) -> PyResult<[f64; 3]> {
    let origin = midpoint(a.state.translation, b.state.translation);
    a.place(origin)?;
    b.place(origin)?;
    Ok(origin)
}

/// A point relative to a floating origin, in the world.
fn world(p: (f64, f64, f64), origin: [f64; 3]) -> (f64, f64, f64) {
    (p.0 + origin[0], p.1 + origin[1], p.2 + origin[2])
}

#[pymethods]
impl Body {
    #[new]
    fn new(tree: Bound<'_, Tree>) -> PyResult<Self> {
        let data = Arc::clone(&tree.get().data);
        let modes = data.header.modes as usize;
        let body = if data.header.scalar_bytes == 4 {
            AnyBody::F32(Owned::new(data).map_err(err)?)
        } else {
            AnyBody::F64(Owned::new(data).map_err(err)?)
        };
        Ok(Body {
            body,
            tree: tree.unbind(),
            state: State {
                rotation: [1.0, 0.0, 0.0, 0.0],
                translation: [0.0; 3],
                q: vec![0.0; modes],
            },
            origin: [0.0; 3],
        })
    }

    /// Sets the pose and `q` for a new step: `rotation` a unit quaternion `(w, x, y, z)`
    /// (scalar first; refused unless `|‖q‖² − 1| ≤ 10⁻³`), `translation` `(x, y, z)`, `q` the
    /// reduced coordinates (length = the tree's modes). Omitted values are the identity, the
    /// origin and `q = 0`. The state is kept in float64 as given: every query is conservative
    /// against it, for f32 trees too, at any distance from the origin. A refused state changes
    /// nothing.
    #[pyo3(signature = (rotation = None, translation = None, q = None))]
    fn set_state(
        &mut self,
        rotation: Option<&Bound<'_, PyAny>>,
        translation: Option<&Bound<'_, PyAny>>,
        q: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let r = rotation
            .map(|r| vector::<4>("rotation", r))
            .transpose()?
            .unwrap_or([1.0, 0.0, 0.0, 0.0]);
        let t = translation
            .map(|t| vector::<3>("translation", t))
            .transpose()?
            .unwrap_or([0.0; 3]);
        let modes = self.state.q.len();
        let q = q
            .map(|q| floats1("q", q))
            .transpose()?
            .unwrap_or_else(|| vec![0.0; modes]);
        // Placed at its own translation until a query between two bodies needs another origin.
        let result = match &mut self.body {
            AnyBody::F32(b) => set(b.body(), r, t, &q, t),
            AnyBody::F64(b) => set(b.body(), r, t, &q, t),
        };
        result.map_err(err)?;
        self.state = State {
            rotation: r,
            translation: t,
            q,
        };
        self.origin = t;
        Ok(())
    }

    /// World sphere `[x, y, z, r]` of a node for the current step (node 0: the whole body).
    #[pyo3(signature = (node = 0))]
    fn sphere(&mut self, node: usize) -> PyResult<(f64, f64, f64, f64)> {
        let s = match &mut self.body {
            AnyBody::F32(b) => b.body().sphere(node).map(|s| s.map(f64::from)),
            AnyBody::F64(b) => b.body().sphere(node),
        };
        let [x, y, z, r] = s.ok_or_else(|| err(format!("node {node} does not exist")))?;
        let (x, y, z) = world((x, y, z), self.origin);
        Ok((x, y, z, r))
    }

    /// The body's tree.
    #[getter]
    fn tree(&self, py: Python<'_>) -> Py<Tree> {
        self.tree.clone_ref(py)
    }
}

fn status_error(what: &str, status: QueryStatus) -> PyErr {
    err(format!("{what}: the query did not complete: {status:?}"))
}

fn depth<S: Scalar>(b: &CoreBody<'_, '_, S>) -> u32 {
    b.tree().depth()
}

/// Sorted `(K, 2)` triangle pairs between two bodies.
fn pairs_of<S: Scalar>(
    a: &mut CoreBody<'_, '_, S>,
    b: &mut CoreBody<'_, '_, S>,
) -> Result<Vec<[u32; 2]>, PyErr> {
    let mut stack = vec![[0u32; 2]; stack_capacity(depth(a), depth(b))];
    let mut found = Vec::new();
    let mut sink = |p: TrianglePair| {
        found.push(p);
        true
    };
    let o = bdtree_core::collide(a, b, &mut stack, &mut sink);
    if !o.status.is_complete() {
        return Err(status_error("collide", o.status));
    }
    // f32: the exact second stage, as the CLI runs it.
    let kept = refine(a, b, &mut found);
    Ok(sorted(found.get(..kept).unwrap_or(&[])))
}

fn self_pairs_of<S: Scalar>(a: &mut CoreBody<'_, '_, S>) -> Result<Vec<[u32; 2]>, PyErr> {
    let mut stack = vec![[0u32; 2]; self_stack_capacity(depth(a))];
    let mut found = Vec::new();
    let mut sink = |p: TrianglePair| {
        found.push(p);
        true
    };
    let o = core_self(a, &mut stack, &mut sink);
    if !o.status.is_complete() {
        return Err(status_error("collide_self", o.status));
    }
    let kept = refine_self(a, &mut found);
    Ok(sorted(found.get(..kept).unwrap_or(&[])))
}

/// Pairs as sorted `[a, b]` rows.
fn sorted(pairs: &[TrianglePair]) -> Vec<[u32; 2]> {
    let mut out: Vec<[u32; 2]> = pairs.iter().map(|p| [p.a, p.b]).collect();
    out.sort_unstable();
    out
}

fn pair_array<'py>(py: Python<'py>, pairs: &[[u32; 2]]) -> Bound<'py, PyArray2<i64>> {
    Array2::from_shape_fn((pairs.len(), 2), |(i, k)| i64::from(pairs[i][k])).into_pyarray(py)
}

/// Two distinct bodies of one precision.
fn two<'a>(a: &'a mut Body, b: &'a mut Body) -> PyResult<(&'a mut AnyBody, &'a mut AnyBody)> {
    match (&a.body, &b.body) {
        (AnyBody::F32(_), AnyBody::F32(_)) | (AnyBody::F64(_), AnyBody::F64(_)) => {
            Ok((&mut a.body, &mut b.body))
        }
        _ => Err(err(
            "the bodies' trees have different precisions (f32 and f64): build both in one",
        )),
    }
}

/// Mutable borrows of two bodies, refusing the same object twice.
fn borrow_two<'py>(
    a: &Bound<'py, Body>,
    b: &Bound<'py, Body>,
) -> PyResult<(PyRefMut<'py, Body>, PyRefMut<'py, Body>)> {
    if a.is(b) {
        return Err(err(
            "the same body was given twice (use collide_self for self-collisions)",
        ));
    }
    Ok((a.try_borrow_mut()?, b.try_borrow_mut()?))
}

/// Every intersecting triangle pair of two bodies in their current states: an int64 array of
/// shape (K, 2), `[triangle of a, triangle of b]`, rows sorted. Conservative: every
/// intersecting pair (touching counts) is reported; a pair that misses by less than the
/// rounding inflation may be too. In f32 the pairs are re-tested in f64 on the stored model
/// (the exact second stage, as the CLI runs it), so an extra pair is closer than the model's
/// f32 storage rounding (~10⁻⁶ on unit-size bodies).
#[pyfunction]
fn collide<'py>(
    py: Python<'py>,
    a: &Bound<'py, Body>,
    b: &Bound<'py, Body>,
) -> PyResult<Bound<'py, PyArray2<i64>>> {
    let (mut a, mut b) = borrow_two(a, b)?;
    place_two(&mut a, &mut b)?;
    let pairs = match two(&mut a, &mut b)? {
        (AnyBody::F32(a), AnyBody::F32(b)) => pairs_of(a.body(), b.body())?,
        (AnyBody::F64(a), AnyBody::F64(b)) => pairs_of(a.body(), b.body())?,
        _ => unreachable!("checked by two()"),
    };
    Ok(pair_array(py, &pairs))
}

/// Every intersecting pair of non-adjacent triangles of one body: int64 (K, 2), `a < b` in
/// each row, rows sorted.
#[pyfunction]
fn collide_self<'py>(
    py: Python<'py>,
    body: &Bound<'py, Body>,
) -> PyResult<Bound<'py, PyArray2<i64>>> {
    let mut body = body.try_borrow_mut()?;
    let pairs = match &mut body.body {
        AnyBody::F32(a) => self_pairs_of(a.body())?,
        AnyBody::F64(a) => self_pairs_of(a.body())?,
    };
    Ok(pair_array(py, &pairs))
}

/// Frame-stacked states of one body: rotations (F, 4), translations (F, 3), q (F, M).
struct States {
    rotation: Array2<f64>,
    translation: Array2<f64>,
    q: Array2<f64>,
}

impl States {
    /// Frame `f`'s state.
    fn state(&self, f: usize) -> State {
        let r = self.rotation.row(f);
        let t = self.translation.row(f);
        State {
            rotation: [r[0], r[1], r[2], r[3]],
            translation: [t[0], t[1], t[2]],
            q: self.q.row(f).to_vec(),
        }
    }
}

fn states(
    what: &str,
    rotation: &Floats<'_>,
    translation: &Floats<'_>,
    q: Option<&Floats<'_>>,
) -> PyResult<States> {
    let rotation = floats2(&format!("rotation_{what}"), "(F, 4)", rotation)?;
    let translation = floats2(&format!("translation_{what}"), "(F, 3)", translation)?;
    let frames = rotation.nrows();
    let q = match q {
        Some(q) => floats2(&format!("q_{what}"), "(F, M)", q)?,
        None => Array2::zeros((frames, 0)),
    };
    if rotation.ncols() != 4 || translation.ncols() != 3 {
        return Err(err(format!(
            "{what}: rotations must have shape (F, 4) and translations (F, 3), got {:?} and {:?}",
            rotation.shape(),
            translation.shape()
        )));
    }
    if translation.nrows() != frames || q.nrows() != frames {
        return Err(err(format!(
            "{what}: rotations, translations and q must have one row per frame ({frames}, {}, \
             {} rows)",
            translation.nrows(),
            q.nrows()
        )));
    }
    Ok(States {
        rotation,
        translation,
        q,
    })
}

/// Every frame's pairs; returns them with the last frame's states and origin.
fn frames_of<S: Scalar>(
    a: &mut CoreBody<'_, '_, S>,
    b: &mut CoreBody<'_, '_, S>,
    sa: &States,
    sb: &States,
) -> Result<(Vec<Vec<[u32; 2]>>, Option<(State, State, [f64; 3])>), String> {
    let mut out = Vec::with_capacity(sa.rotation.nrows());
    let mut last = None;
    for f in 0..sa.rotation.nrows() {
        let (xa, xb) = (sa.state(f), sb.state(f));
        let origin = midpoint(xa.translation, xb.translation);
        set(a, xa.rotation, xa.translation, &xa.q, origin)
            .map_err(|e| format!("frame {f}, body a: {e}"))?;
        set(b, xb.rotation, xb.translation, &xb.q, origin)
            .map_err(|e| format!("frame {f}, body b: {e}"))?;
        out.push(pairs_of(a, b).map_err(|e| format!("frame {f}: {e}"))?);
        last = Some((xa, xb, origin));
    }
    Ok((out, last))
}

/// `collide` over many frames without the GIL: the states of `a` and `b` stacked by frame
/// (`rotation_*` (F, 4), `translation_*` (F, 3), `q_*` (F, M) or None). Returns a list of F
/// int64 (K, 2) arrays. The bodies are left in the last frame's state.
#[pyfunction]
#[pyo3(signature = (a, b, rotation_a, translation_a, rotation_b, translation_b, q_a = None, q_b = None))]
#[allow(clippy::too_many_arguments)]
fn collide_frames<'py>(
    py: Python<'py>,
    a: &Bound<'py, Body>,
    b: &Bound<'py, Body>,
    rotation_a: &Floats<'py>,
    translation_a: &Floats<'py>,
    rotation_b: &Floats<'py>,
    translation_b: &Floats<'py>,
    q_a: Option<&Floats<'py>>,
    q_b: Option<&Floats<'py>>,
) -> PyResult<Vec<Bound<'py, PyArray2<i64>>>> {
    let sa = states("a", rotation_a, translation_a, q_a)?;
    let sb = states("b", rotation_b, translation_b, q_b)?;
    if sa.rotation.nrows() != sb.rotation.nrows() {
        return Err(err(format!(
            "a has {} frames and b {}",
            sa.rotation.nrows(),
            sb.rotation.nrows()
        )));
    }
    let (mut a, mut b) = borrow_two(a, b)?;
    let (ka, kb) = two(&mut a, &mut b)?;
    let frames = py.detach(|| match (ka, kb) {
        (AnyBody::F32(a), AnyBody::F32(b)) => frames_of(a.body(), b.body(), &sa, &sb),
        (AnyBody::F64(a), AnyBody::F64(b)) => frames_of(a.body(), b.body(), &sa, &sb),
        _ => Err("precisions differ".to_string()),
    });
    let (frames, last) = frames.map_err(err)?;
    if let Some((xa, xb, origin)) = last {
        (a.state, a.origin) = (xa, origin);
        (b.state, b.origin) = (xb, origin);
    }
    Ok(frames.iter().map(|p| pair_array(py, p)).collect())
}

/// The nearest points of two bodies (`bdtree.distance`).
#[pyclass(frozen, get_all, module = "bdtree")]
struct Distance {
    /// The minimum distance (0 when the bodies intersect).
    distance: f64,
    /// Witness point on a (world).
    point_a: (f64, f64, f64),
    /// Witness point on b (world).
    point_b: (f64, f64, f64),
    /// The witnesses' triangles `(triangle of a, triangle of b)`.
    triangles: (u32, u32),
    /// Unit normal from a to b (zero when intersecting).
    normal: (f64, f64, f64),
    /// Whether the two triangles intersect.
    intersecting: bool,
}

#[pymethods]
impl Distance {
    fn __repr__(&self) -> String {
        format!(
            "bdtree.Distance(distance={:?}, triangles={:?}, intersecting={})",
            self.distance,
            self.triangles,
            if self.intersecting { "True" } else { "False" }
        )
    }
}

fn widen<S: Scalar>(n: Nearest<S>) -> Distance {
    let w = |[x, y, z]: [S; 3]| (x.to_f64(), y.to_f64(), z.to_f64());
    Distance {
        distance: n.distance.to_f64(),
        point_a: w(n.point_a),
        point_b: w(n.point_b),
        triangles: (n.triangle_a, n.triangle_b),
        normal: w(n.normal),
        intersecting: n.intersecting,
    }
}

fn distance_of<S: Scalar>(
    a: &mut CoreBody<'_, '_, S>,
    b: &mut CoreBody<'_, '_, S>,
) -> PyResult<Distance> {
    let mut stack = vec![[0u32; 2]; stack_capacity(depth(a), depth(b))];
    let o = nearest(a, b, &mut stack);
    match o.nearest {
        Some(n) if o.status.is_complete() => Ok(widen(n)),
        _ => Err(status_error("distance", o.status)),
    }
}

/// The exact minimum distance between two deformed bodies (0 when they intersect), with
/// witness points, their triangles and the unit normal from a to b.
#[pyfunction]
fn distance(a: &Bound<'_, Body>, b: &Bound<'_, Body>) -> PyResult<Distance> {
    let (mut a, mut b) = borrow_two(a, b)?;
    let origin = place_two(&mut a, &mut b)?;
    let mut d = match two(&mut a, &mut b)? {
        (AnyBody::F32(a), AnyBody::F32(b)) => distance_of(a.body(), b.body())?,
        (AnyBody::F64(a), AnyBody::F64(b)) => distance_of(a.body(), b.body())?,
        _ => unreachable!("checked by two()"),
    };
    d.point_a = world(d.point_a, origin);
    d.point_b = world(d.point_b, origin);
    Ok(d)
}

type ProxyRows = Vec<([u32; 2], [f64; 4], [f64; 4], f64)>;

fn proxies_of<S: Scalar>(
    a: &mut CoreBody<'_, '_, S>,
    depth_a: u32,
    b: &mut CoreBody<'_, '_, S>,
    depth_b: u32,
) -> PyResult<ProxyRows> {
    let mut stack = vec![[0u32; 2]; proxy_stack_capacity(depth(a), depth_a, depth(b), depth_b)];
    let mut out: ProxyRows = Vec::new();
    let mut sink = |p: ProxyPair<S>| {
        out.push((
            [p.a, p.b],
            p.sphere_a.map(|x| x.to_f64()),
            p.sphere_b.map(|x| x.to_f64()),
            p.depth.to_f64(),
        ));
        true
    };
    let o = core_proxies(a, depth_a, b, depth_b, &mut stack, &mut sink);
    if !o.status.is_complete() {
        return Err(status_error("collide_proxies", o.status));
    }
    out.sort_unstable_by_key(|p| p.0);
    Ok(out)
}

/// The overlapping contact proxies (nodes at depth `depth_a` of a and `depth_b` of b, or leaves
/// above them) with their world spheres and penetration depths, for contact response. Needs
/// trees built with `nested=True`. Returns a dict of arrays sorted by nodes: `nodes` int64
/// (K, 2), `sphere_a` and `sphere_b` float64 (K, 4) `[x, y, z, r]`, `depth` float64 (K,)
/// (`r_a + r_b − ‖c_b − c_a‖`; the normal is along `c_b − c_a`).
#[pyfunction]
fn collide_proxies<'py>(
    py: Python<'py>,
    a: &Bound<'py, Body>,
    depth_a: u32,
    b: &Bound<'py, Body>,
    depth_b: u32,
) -> PyResult<Bound<'py, PyDict>> {
    let (mut a, mut b) = borrow_two(a, b)?;
    let origin = place_two(&mut a, &mut b)?;
    let mut rows = match two(&mut a, &mut b)? {
        (AnyBody::F32(a), AnyBody::F32(b)) => proxies_of(a.body(), depth_a, b.body(), depth_b)?,
        (AnyBody::F64(a), AnyBody::F64(b)) => proxies_of(a.body(), depth_a, b.body(), depth_b)?,
        _ => unreachable!("checked by two()"),
    };
    for row in &mut rows {
        for sphere in [&mut row.1, &mut row.2] {
            for (c, o) in sphere.iter_mut().zip(origin) {
                *c += o;
            }
        }
    }
    let k = rows.len();
    let d = PyDict::new(py);
    d.set_item(
        "nodes",
        Array2::from_shape_fn((k, 2), |(i, j)| i64::from(rows[i].0[j])).into_pyarray(py),
    )?;
    d.set_item(
        "sphere_a",
        Array2::from_shape_fn((k, 4), |(i, j)| rows[i].1[j]).into_pyarray(py),
    )?;
    d.set_item(
        "sphere_b",
        Array2::from_shape_fn((k, 4), |(i, j)| rows[i].2[j]).into_pyarray(py),
    )?;
    d.set_item(
        "depth",
        Array1::from_iter(rows.iter().map(|r| r.3)).into_pyarray(py),
    )?;
    Ok(d)
}

/// The `k` lowest non-rigid vibration modes of a closed mesh (linear elasticity on a voxel
/// lattice; SI units): `(frequencies_hz (k,), U (3N, k))`. Releases the GIL.
#[pyfunction]
#[pyo3(signature = (vertices, faces, k = 10, young = 1e6, poisson = 0.45, density = 1000.0, resolution = None, max_cells = 200000))]
#[allow(clippy::too_many_arguments)]
fn modes<'py>(
    py: Python<'py>,
    vertices: &Bound<'py, PyAny>,
    faces: &Bound<'py, PyAny>,
    k: usize,
    young: f64,
    poisson: f64,
    density: f64,
    resolution: Option<usize>,
    max_cells: usize,
) -> PyResult<(Bound<'py, PyArray1<f64>>, F64Out<'py>)> {
    let mesh = mesh_from(floats2("vertices", "(N, 3)", vertices)?.view(), faces)?;
    let options = ModalOptions {
        modes: k,
        young,
        poisson,
        density,
        resolution,
        max_cells,
        ..ModalOptions::default()
    };
    options.validate().map_err(err)?;
    let result = py.detach(|| compute_modes(&mesh, &options, &mut |_| {}));
    let m = result.map_err(err)?;
    let u =
        Array2::from_shape_vec((m.basis.vertices * 3, m.basis.modes), m.basis.data).map_err(err)?;
    Ok((
        Array1::from(m.frequencies_hz).into_pyarray(py),
        u.into_pyarray(py),
    ))
}

/// Exact collision detection between reduced deformable models (BD-Trees).
#[pymodule]
fn bdtree(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("Error", m.py().get_type::<Error>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<Tree>()?;
    m.add_class::<Body>()?;
    m.add_class::<Distance>()?;
    m.add_function(wrap_pyfunction!(load_mesh, m)?)?;
    m.add_function(wrap_pyfunction!(load_basis, m)?)?;
    m.add_function(wrap_pyfunction!(collide, m)?)?;
    m.add_function(wrap_pyfunction!(collide_self, m)?)?;
    m.add_function(wrap_pyfunction!(collide_frames, m)?)?;
    m.add_function(wrap_pyfunction!(swept::collide_swept, m)?)?;
    m.add_function(wrap_pyfunction!(distance, m)?)?;
    m.add_function(wrap_pyfunction!(collide_proxies, m)?)?;
    m.add_function(wrap_pyfunction!(modes, m)?)?;
    Ok(())
}
