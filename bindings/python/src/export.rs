//! `bdtree.export`: the bodies in their current states as PLY or OBJ for MeshLab or Blender,
//! the file `bdtree export` writes for a scene frame ([`bdtree_std::export`]).

use bdtree_std::export::write_frame;
use bdtree_std::export::{contact_point, BodyGeometry, FrameGeometry};
use bdtree_std::host;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::args::{depth_arg, flag_arg, sequence_arg};
use crate::body::{body_arg, Body};
use crate::error::{err, query_error};

/// Writes `bodies` (a sequence of `bdtree.Body`) in their current states to `path` (`.ply` or
/// `.obj`, by its extension), as `bdtree export` writes a scene frame: each body's deformed
/// mesh in its colour with the triangles of intersecting pairs (between bodies, and each
/// body's own with `self_pairs=True`) in red; with `spheres=L` every body's spheres at tree
/// level L (icospheres coloured by radius growth); with `contacts=True` one point of each
/// pair's intersection. Pairs are found as `collide` finds them. Returns a dict of what was
/// written: `vertices`, `triangles`, `spheres`, `points`, `pairs`.
#[pyfunction]
#[pyo3(
    signature = (path, bodies, contacts = None, spheres = None, self_pairs = None),
    text_signature = "(path, bodies, contacts=False, spheres=None, self_pairs=False)"
)]
pub(crate) fn export<'py>(
    py: Python<'py>,
    path: std::path::PathBuf,
    bodies: &Bound<'py, PyAny>,
    contacts: Option<&Bound<'py, PyAny>>,
    spheres: Option<&Bound<'py, PyAny>>,
    self_pairs: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let contacts = flag_arg("contacts", contacts)?;
    let self_pairs = flag_arg("self_pairs", self_pairs)?;
    let level = match spheres.filter(|s| !s.is_none()) {
        Some(s) => Some(depth_arg("spheres", s, "a tree level, an integer ≥ 0")?),
        None => None,
    };
    bdtree_std::export::MeshFormat::of(&path).map_err(err)?;
    let list = sequence_arg("bodies", bodies, "bdtree.Body")?;
    let mut handles = Vec::with_capacity(list.len());
    for (i, b) in list.iter().enumerate() {
        let b = body_arg(&format!("bodies[{i}]"), b)?;
        if handles.iter().any(|h: &Bound<'py, Body>| h.is(&b)) {
            return Err(err(format!("bodies[{i}]: the same body is listed twice")));
        }
        handles.push(b);
    }
    let mut pairs: Vec<(usize, usize, u32, u32)> = Vec::new();
    for i in 0..handles.len() {
        for j in i + 1..handles.len() {
            let (mut a, mut b) = (handles[i].try_borrow_mut()?, handles[j].try_borrow_mut()?);
            let found = host::pairs(&mut a.body, &mut b.body).map_err(|e| {
                let (x, y) = (format!("bodies[{i}]"), format!("bodies[{j}]"));
                query_error("export", &[(&x, &a.body), (&y, &b.body)], e)
            })?;
            pairs.extend(found.items.iter().map(|p| (i, j, p[0], p[1])));
        }
        if self_pairs {
            let mut body = handles[i].try_borrow_mut()?;
            let name = format!("bodies[{i}]");
            let own = host::self_pairs(&mut body.body)
                .map_err(|e| query_error("export", &[(&name, &body.body)], e))?;
            pairs.extend(own.items.iter().map(|p| (i, i, p[0], p[1])));
        }
    }
    pairs.sort_unstable();
    let mut geometry = FrameGeometry {
        bodies: Vec::with_capacity(handles.len()),
        pairs: pairs.clone(),
        proxies: Vec::new(),
        contact_points: Vec::new(),
    };
    for (b, handle) in handles.iter().enumerate() {
        let mut body = handle.try_borrow_mut()?;
        let vertices = body.body.vertices().map_err(err)?;
        let triangles = body.body.tree().triangles().to_vec();
        let touching = |others_only: bool| {
            let mut out: Vec<u32> = pairs
                .iter()
                .filter(|p| !others_only || p.0 != p.1)
                .flat_map(|&(i, j, ta, tb)| {
                    [(i == b).then_some(ta), (j == b).then_some(tb)]
                        .into_iter()
                        .flatten()
                })
                .collect();
            out.sort_unstable();
            out.dedup();
            out
        };
        let contact_triangles = touching(false);
        let with_others = touching(true);
        let self_contact_triangles = contact_triangles
            .iter()
            .copied()
            .filter(|t| with_others.binary_search(t).is_err())
            .collect();
        let drawn = match level {
            Some(level) => body.body.level_spheres(level).map_err(err)?,
            None => Vec::new(),
        };
        geometry.bodies.push(BodyGeometry {
            name: format!("body{b}"),
            vertices,
            triangles,
            contact_triangles,
            self_contact_triangles,
            spheres: drawn,
        });
    }
    let triangle = |b: usize, t: u32| -> Option<[[f64; 3]; 3]> {
        let body = geometry.bodies.get(b)?;
        let tri = body.triangles.get(t as usize)?;
        Some(tri.map(|v| body.vertices.get(v as usize).copied().unwrap_or([0.0; 3])))
    };
    let points: Vec<[f64; 3]> = pairs
        .iter()
        .filter_map(|&(i, j, ta, tb)| Some(contact_point(&triangle(i, ta)?, &triangle(j, tb)?)))
        .collect();
    geometry.contact_points = points;
    let comment = format!(
        "bdtree.export: {} bodies, {} intersecting triangle pairs",
        geometry.bodies.len(),
        pairs.len()
    );
    let summary = write_frame(&geometry, contacts, &comment, &path).map_err(err)?;
    let d = PyDict::new(py);
    d.set_item("vertices", summary.vertices)?;
    d.set_item("triangles", summary.triangles)?;
    d.set_item("spheres", summary.spheres)?;
    d.set_item("points", summary.points)?;
    d.set_item("pairs", pairs.len())?;
    Ok(d)
}
