//! `bdtree.modes`: vibration modes of a closed mesh ([`bdtree_std::modal`]), free or clamped,
//! in the mesh's unit, with modal masses and stiffnesses.

use bdtree_std::modal::{
    compute_modes, Fixed, LengthUnit, ModalOption, ModalOptions, Normalization, DEFAULT_MAX_CELLS,
};
use numpy::ndarray::{Array1, Array2};
use numpy::{IntoPyArray, PyArray1, PyArray2};
use pyo3::prelude::*;

use crate::args::{choice_arg, float_arg, int_arg, mesh_arg, opt_int_arg, sequence_arg};
use crate::error::err;

// `modes`' signature spells the default cell budget out (Python sees the literal).
const _: () = assert!(DEFAULT_MAX_CELLS == 200000);

/// The Python parameter of each option, for the library's messages.
fn parameter(option: ModalOption) -> &'static str {
    match option {
        ModalOption::Modes => "k",
        ModalOption::Young => "young",
        ModalOption::Poisson => "poisson",
        ModalOption::Density => "density",
        ModalOption::Resolution => "resolution",
        ModalOption::MaxCells => "max_cells",
    }
}

/// The result of `bdtree.modes`.
#[pyclass(frozen, get_all, module = "bdtree")]
pub(crate) struct Modes {
    /// The k lowest elastic frequencies in hertz, increasing (k,).
    frequencies_hz: Py<PyArray1<f64>>,
    /// The basis (3N, k): mode j moves vertex v by `basis[3v:3v+3, j]` mesh units per unit of
    /// `q_j`.
    basis: Py<PyArray2<f64>>,
    /// Modal masses (k,): N·s² per mesh unit (kg in metres); 1 for mass-normalised modes.
    masses: Py<PyArray1<f64>>,
    /// Modal stiffnesses `m ω²` (k,): N per mesh unit; `ω²` for mass-normalised modes.
    stiffnesses: Py<PyArray1<f64>>,
    /// The mesh's unit: "m", "cm", "mm", "µm" or "in".
    units: &'static str,
    /// "peak" or "mass".
    normalization: &'static str,
    /// Mesh vertices held fixed.
    held_vertices: usize,
}

#[pymethods]
impl Modes {
    fn __repr__(&self, py: Python<'_>) -> String {
        let f: Vec<f64> = self.frequencies_hz.bind(py).extract().unwrap_or_default();
        format!(
            "bdtree.Modes({} modes, {:?} Hz, units={:?}, normalization={:?})",
            f.len(),
            f,
            self.units,
            self.normalization
        )
    }
}

/// The held parts: half-space specs (`fixed`, strings like "x<-0.499") and vertex indices
/// (`fixed_vertices`).
fn held(
    fixed: Option<&Bound<'_, PyAny>>,
    fixed_vertices: Option<&Bound<'_, PyAny>>,
    vertices: usize,
) -> PyResult<Vec<Fixed>> {
    let mut out = Vec::new();
    if let Some(fixed) = fixed.filter(|f| !f.is_none()) {
        let specs: Vec<Bound<'_, PyAny>> = if fixed.is_instance_of::<pyo3::types::PyString>() {
            vec![fixed.clone()]
        } else {
            sequence_arg("fixed", fixed, "half-spaces like \"x<-0.499\"")?
        };
        for (i, spec) in specs.iter().enumerate() {
            let what = "a half-space: an axis x, y or z, then < or >, then a number in mesh \
                        units (for example \"x<-0.499\")";
            let parsed = choice_arg(&format!("fixed[{i}]"), spec, what, |text| {
                Fixed::parse(text).ok()
            })?;
            out.push(parsed);
        }
    }
    if let Some(list) = fixed_vertices.filter(|f| !f.is_none()) {
        let items = sequence_arg("fixed_vertices", list, "vertex indices")?;
        let mut indices = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            let what = format!(
                "a vertex index, 0 to {} (there are {vertices} vertices)",
                vertices.saturating_sub(1)
            );
            let v = int_arg(
                &format!("fixed_vertices[{i}]"),
                item,
                0,
                vertices as i64 - 1,
                &what,
            )?;
            indices.push((i + 1, v as usize));
        }
        out.push(Fixed::Vertices {
            source: "fixed_vertices".into(),
            indices,
        });
    }
    Ok(out)
}

/// The `k` lowest elastic vibration modes of a closed mesh (linear elasticity on an embedded
/// lattice; `young` in Pa and `density` in kg/m³, the mesh in `units`: "m", "cm", "mm", "um"
/// or "in"), free or held fixed where it is clamped (`fixed`: half-spaces like "x<-0.499" in
/// mesh units; `fixed_vertices`: vertex indices) — `bdtree modes` from Python. Returns a
/// `bdtree.Modes`: `frequencies_hz` (k,), `basis` (3N, k) (mesh units per unit of q; each
/// column's largest vertex displacement is 1 with `normalization="peak"`, its modal mass 1 with
/// `"mass"`), `masses` and `stiffnesses` (k,) for `m q̈ + k q = Uᵀ F` (q in mesh units, F in
/// newtons in the body's axes). Releases the GIL.
#[pyfunction]
#[pyo3(
    signature = (vertices, faces, k = None, young = None, poisson = None, density = None, resolution = None, max_cells = None, fixed = None, fixed_vertices = None, units = None, normalization = None),
    text_signature = "(vertices, faces, k=10, young=1000000.0, poisson=0.45, density=1000.0, resolution=None, max_cells=200000, fixed=None, fixed_vertices=None, units='m', normalization='peak')"
)]
#[allow(clippy::too_many_arguments)]
pub(crate) fn modes<'py>(
    py: Python<'py>,
    vertices: &Bound<'py, PyAny>,
    faces: &Bound<'py, PyAny>,
    k: Option<&Bound<'py, PyAny>>,
    young: Option<&Bound<'py, PyAny>>,
    poisson: Option<&Bound<'py, PyAny>>,
    density: Option<&Bound<'py, PyAny>>,
    resolution: Option<&Bound<'py, PyAny>>,
    max_cells: Option<&Bound<'py, PyAny>>,
    fixed: Option<&Bound<'py, PyAny>>,
    fixed_vertices: Option<&Bound<'py, PyAny>>,
    units: Option<&Bound<'py, PyAny>>,
    normalization: Option<&Bound<'py, PyAny>>,
) -> PyResult<Modes> {
    let mesh = mesh_arg(vertices, faces)?;
    let defaults = ModalOptions::default();
    let count = |name, x: Option<&Bound<'py, PyAny>>, default: usize, what| -> PyResult<usize> {
        Ok(opt_int_arg(name, x, 1, i64::from(u32::MAX), what)?.map_or(default, |v| v as usize))
    };
    let real = |name, x: Option<&Bound<'py, PyAny>>, default: f64| -> PyResult<f64> {
        match x {
            Some(x) => float_arg(name, x, |_| true, "a number"),
            None => Ok(default),
        }
    };
    let unit_names = LengthUnit::names();
    let units = match units {
        Some(u) => {
            let what = format!("a length unit, one of {unit_names}");
            choice_arg("units", u, &what, |text| LengthUnit::parse(text).ok())?
        }
        None => LengthUnit::Metre,
    };
    let normalization = match normalization {
        Some(n) => choice_arg("normalization", n, "\"peak\" or \"mass\"", |text| {
            Normalization::parse(text).ok()
        })?,
        None => Normalization::Peak,
    };
    let options = ModalOptions {
        modes: count("k", k, defaults.modes, "a number of modes, an integer ≥ 1")?,
        young: real("young", young, defaults.young)?,
        poisson: real("poisson", poisson, defaults.poisson)?,
        density: real("density", density, defaults.density)?,
        resolution: opt_int_arg(
            "resolution",
            resolution,
            1,
            4096,
            "lattice cells along the longest side, an integer from 1 to 4096, or None",
        )?
        .map(|r| r as usize),
        max_cells: count(
            "max_cells",
            max_cells,
            defaults.max_cells,
            "a cell budget, an integer ≥ 1",
        )?,
        fixed: held(fixed, fixed_vertices, mesh.vertices.len())?,
        units,
        normalization,
    };
    options
        .validate()
        .map_err(|e| err(e.describe(&parameter)))?;
    let result = py.detach(|| compute_modes(&mesh, &options, &mut |_| {}));
    let m = result.map_err(|e| err(e.describe(&parameter)))?;
    let u =
        Array2::from_shape_vec((m.basis.vertices * 3, m.basis.modes), m.basis.data).map_err(err)?;
    Ok(Modes {
        frequencies_hz: Array1::from(m.frequencies_hz).into_pyarray(py).unbind(),
        basis: u.into_pyarray(py).unbind(),
        masses: Array1::from(m.modal_masses).into_pyarray(py).unbind(),
        stiffnesses: Array1::from(m.modal_stiffnesses).into_pyarray(py).unbind(),
        units: m.units.symbol(),
        normalization: m.normalization.name(),
        held_vertices: m.held_vertices,
    })
}
