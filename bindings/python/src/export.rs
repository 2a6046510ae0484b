//! `bdtree.export`: the bodies in their current states as PLY or OBJ for MeshLab or Blender,
//! the file `bdtree export` writes for a scene frame ([`bdtree_std::view::export`]).

use bdtree_core::Scalar;
use bdtree_std::run::frame::{contact_point, level_cut, BodyGeometry, FrameGeometry};
use bdtree_std::view::export::write_frame;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::args::{bool_arg, int_arg, shown};
use crate::body::{body_arg, with_body, with_pair, Body};
use crate::err;
use crate::pairs::{pair_origin, pairs_of};

/// The world vertices of a body at the caller's state, in f64 from the stored model.
fn world_vertices(body: &mut Body) -> Vec<[f64; 3]> {
    let state = body.state.clone();
    let pose = bdtree_core::Pose::<f64>::from_quaternion(state.rotation, state.translation);
    let Ok(pose) = pose else {
        return Vec::new();
    };
    with_body!(body, |x| {
        let model = x.model();
        (0..model.vertex_count())
            .map(|v| {
                let mut p = model
                    .position(v)
                    .map_or([0.0; 3], |p| p.map(|c| c.to_f64()));
                for (axis, c) in p.iter_mut().enumerate() {
                    for (j, &qj) in state.q.iter().enumerate() {
                        *c += model.basis_entry(v, axis, j).map_or(0.0, |u| u.to_f64()) * qj;
                    }
                }
                pose.apply(p)
            })
            .collect()
    })
}

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
    let contacts = contacts.map(|c| bool_arg("contacts", c)).transpose()?;
    let self_pairs = self_pairs.map(|c| bool_arg("self_pairs", c)).transpose()?;
    let level = match spheres.filter(|s| !s.is_none()) {
        Some(s) => Some(int_arg("spheres", s, 0, 1 << 16, "a tree level, an integer ≥ 0")? as u32),
        None => None,
    };
    bdtree_std::view::export::MeshFormat::of(&path).map_err(err)?;
    let list: Vec<Bound<'py, PyAny>> = bodies
        .try_iter()
        .and_then(|it| it.collect::<PyResult<Vec<_>>>())
        .map_err(|_| {
            err(format!(
                "bodies = {}: expected a sequence of bdtree.Body",
                shown(bodies)
            ))
        })?;
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
            let origin = pair_origin(&a, &b);
            a.place(origin)?;
            b.place(origin)?;
            let found = with_pair!(a, b, |x, y| pairs_of(x, y))
                .map_err(|e| err(format!("bodies[{i}] and bodies[{j}]: {e}")))?;
            pairs.extend(found.iter().map(|p| (i, j, p[0], p[1])));
        }
        if self_pairs == Some(true) {
            let own = crate::pairs::collide_self(py, &handles[i])?;
            let own: Vec<[i64; 2]> = own.extract()?;
            pairs.extend(own.iter().map(|p| (i, i, p[0] as u32, p[1] as u32)));
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
        let vertices = world_vertices(&mut body);
        let triangles = with_body!(body, |x| x.model().triangles().to_vec());
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
        let mut drawn = Vec::new();
        if let Some(level) = level {
            let t = body.state.translation;
            body.place(t)?;
            let origin = body.origin;
            with_body!(body, |x| {
                let tree = *x.tree();
                for k in level_cut(&tree, level) {
                    let (Some(rest), Some(s)) =
                        (tree.rest_sphere(k as usize), x.sphere(k as usize))
                    else {
                        continue;
                    };
                    let (r0, r) = (rest[3].to_f64(), s[3].to_f64());
                    let growth = if r0 > 0.0 { r / r0 } else { 1.0 };
                    let c: [f64; 3] = std::array::from_fn(|k| s[k].to_f64() + origin[k]);
                    drawn.push(([c[0], c[1], c[2], r], growth));
                }
            });
        }
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
    let summary = write_frame(&geometry, contacts == Some(true), &comment, &path).map_err(err)?;
    let d = PyDict::new(py);
    d.set_item("vertices", summary.vertices)?;
    d.set_item("triangles", summary.triangles)?;
    d.set_item("spheres", summary.spheres)?;
    d.set_item("points", summary.points)?;
    d.set_item("pairs", pairs.len())?;
    Ok(d)
}
