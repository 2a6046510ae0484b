//! Contact data: `contacts` (point, normal, depth and the Jacobian `∂d/∂q` of each body) and
//! `within` (pairs closer than a distance, with witnesses). The kernel finds the pairs at the
//! pair's floating origin; each pair is then measured in f64 on the stored model (the refine
//! of f32 answers), so no contact has a negative depth and every point lies on its triangles
//! within the stored model's rounding.

use bdtree_core::closest::closest_points;
use bdtree_core::contact::{contact_tolerance, triangle_contact};
use bdtree_core::{stack_capacity, within as core_within, Body as CoreBody, NearPair, Scalar};
use numpy::ndarray::{Array1, Array2};
use numpy::IntoPyArray;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::args::{float_arg, pair_array, rows};
use crate::body::{borrow_two, depth, status_error, with_pair, world};
use crate::pairs::{pair_origin, pairs_of};
use crate::refined::{error64, normal_row, triangle64, Frame64};

/// One contact, relative to the pair's origin.
struct Contact {
    pair: [u32; 2],
    point: [f64; 3],
    normal: [f64; 3],
    depth: f64,
}

/// Every intersecting pair (those of `collide`: the kernel's, refined in f64) with its
/// contact measured in f64, sorted by pair.
fn contacts_of<S: Scalar>(
    a: &mut CoreBody<'_, '_, S>,
    b: &mut CoreBody<'_, '_, S>,
    (fa, fb): (&Frame64, &Frame64),
) -> PyResult<Vec<Contact>> {
    let found = pairs_of(a, b)?;
    let error = error64(a) + error64(b);
    let mut out = Vec::with_capacity(found.len());
    for pair in found {
        let (Some(ta), Some(tb)) = (triangle64(a, fa, pair[0]), triangle64(b, fb, pair[1])) else {
            continue;
        };
        // A near-degenerate pair that the exact test keeps but whose triangles are apart has
        // no contact (see `triangle_contact`).
        if let Some(c) = triangle_contact(&ta, &tb, error) {
            out.push(Contact {
                pair,
                point: c.point,
                normal: c.normal,
                // Touching pairs can come out a rounding unit below 0.
                depth: c.depth.max(0.0),
            });
        }
    }
    out.sort_unstable_by_key(|c| c.pair);
    Ok(out)
}

/// Every intersecting triangle pair of two bodies with its contact: a dict of `pairs` int64
/// (K, 2) `[triangle of a, triangle of b]` (rows sorted, the pairs of `collide`), `points`
/// float64 (K, 3) (world: a point of the intersection, on both triangles within rounding),
/// `normals` float64 (K, 3) (unit, of least penetration, from a's triangle to b's), `depths`
/// float64 (K,) (≥ 0: moving b's triangle by `depth · normal` separates the pair; 0 for
/// touching; measured in f64 on the stored model, for f32 trees too), and `jacobian_a` (K, M_a), `jacobian_b` (K, M_b): the rows `∂depth/∂q` of each
/// body — moving `q_a` by `δ` changes the depth by `jacobian_a @ δ` to first order. For a point
/// `x` with barycentric weights `w` on a's triangle, row `nᵀ R_a Σ_v w_v U_v` (the point's
/// motion along the normal, which deepens the contact), and for b the negative of b's. A
/// penalty force of stiffness k then has the generalized forces `−k · jacobian.T @ depths` on
/// each body's q.
#[pyfunction]
pub(crate) fn contacts<'py>(
    py: Python<'py>,
    a: &Bound<'py, PyAny>,
    b: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyDict>> {
    let (mut a, mut b) = borrow_two(["a", "b"], a, b)?;
    let origin = pair_origin(&a, &b);
    a.place(origin)?;
    b.place(origin)?;
    let (fa, fb) = (
        Frame64::new(&a.state, origin),
        Frame64::new(&b.state, origin),
    );
    let (found, ja, jb) = with_pair!(a, b, |x, y| {
        let found = contacts_of(x, y, (&fa, &fb))?;
        let ja: Vec<Vec<f64>> = found
            .iter()
            .map(|c| normal_row(x, &fa, c.pair[0], c.point, c.normal))
            .collect();
        let jb: Vec<Vec<f64>> = found
            .iter()
            .map(|c| {
                let mut row = normal_row(y, &fb, c.pair[1], c.point, c.normal);
                row.iter_mut().for_each(|v| *v = -*v);
                row
            })
            .collect();
        Ok::<_, PyErr>((found, ja, jb))
    })?;
    let (ma, mb) = (a.state.q.len(), b.state.q.len());
    let d = PyDict::new(py);
    let pairs: Vec<[u32; 2]> = found.iter().map(|c| c.pair).collect();
    let points: Vec<[f64; 3]> = found.iter().map(|c| world(c.point, origin)).collect();
    let normals: Vec<[f64; 3]> = found.iter().map(|c| c.normal).collect();
    d.set_item("pairs", pair_array(py, &pairs))?;
    d.set_item("points", rows(py, &points))?;
    d.set_item("normals", rows(py, &normals))?;
    d.set_item(
        "depths",
        Array1::from_iter(found.iter().map(|c| c.depth)).into_pyarray(py),
    )?;
    let matrix = |rows: &[Vec<f64>], m: usize| {
        Array2::from_shape_fn((rows.len(), m), |(i, j)| {
            rows[i].get(j).copied().unwrap_or(0.0)
        })
    };
    d.set_item("jacobian_a", matrix(&ja, ma).into_pyarray(py))?;
    d.set_item("jacobian_b", matrix(&jb, mb).into_pyarray(py))?;
    Ok(d)
}

/// A pair within the distance, relative to the pair's origin.
struct Near {
    pair: [u32; 2],
    distance: f64,
    points: [[f64; 3]; 2],
}

fn within_of<S: Scalar>(
    a: &mut CoreBody<'_, '_, S>,
    b: &mut CoreBody<'_, '_, S>,
    distance: f64,
    (fa, fb): (&Frame64, &Frame64),
) -> PyResult<Vec<Near>> {
    let mut stack = vec![[0u32; 2]; stack_capacity(depth(a), depth(b))];
    let mut found = Vec::new();
    let mut sink = |p: NearPair<S>| {
        found.push([p.a, p.b]);
        true
    };
    // Rounded up so that `S`'s distance is not below the one asked for.
    let d = S::from_f64(distance * (1.0 + 1e-6));
    let o = core_within(a, b, d, &mut stack, &mut sink);
    if !o.status.is_complete() {
        return Err(status_error("within", o.status));
    }
    let error = error64(a) + error64(b);
    let mut out = Vec::with_capacity(found.len());
    for pair in found {
        let (Some(ta), Some(tb)) = (triangle64(a, fa, pair[0]), triangle64(b, fb, pair[1])) else {
            continue;
        };
        let (d2, pa, pb) = closest_points(&ta, &tb);
        let t = contact_tolerance(&ta, &tb, error);
        let gap = d2.sqrt();
        if gap <= distance + t + t {
            out.push(Near {
                pair,
                distance: gap,
                points: [pa, pb],
            });
        }
    }
    out.sort_unstable_by_key(|n| n.pair);
    Ok(out)
}

/// Every triangle pair of two bodies at most `distance` apart (intersecting pairs at 0): a
/// dict of `pairs` int64 (K, 2) (rows sorted), `distances` float64 (K,), `points_a` and
/// `points_b` float64 (K, 3) (world witnesses on each triangle). Conservative: every pair
/// within `distance` is reported; a reported pair is at most `distance` plus the rounding
/// tolerance apart (measured in f64 on the stored model, for f32 trees too).
#[pyfunction]
pub(crate) fn within<'py>(
    py: Python<'py>,
    a: &Bound<'py, PyAny>,
    b: &Bound<'py, PyAny>,
    distance: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyDict>> {
    let distance = float_arg(
        "distance",
        distance,
        |d| d.is_finite() && d >= 0.0,
        "a finite distance ≥ 0",
    )?;
    let (mut a, mut b) = borrow_two(["a", "b"], a, b)?;
    let origin = pair_origin(&a, &b);
    a.place(origin)?;
    b.place(origin)?;
    let (fa, fb) = (
        Frame64::new(&a.state, origin),
        Frame64::new(&b.state, origin),
    );
    let found = with_pair!(a, b, |x, y| within_of(x, y, distance, (&fa, &fb)))?;
    let d = PyDict::new(py);
    let pairs: Vec<[u32; 2]> = found.iter().map(|n| n.pair).collect();
    let pa: Vec<[f64; 3]> = found.iter().map(|n| world(n.points[0], origin)).collect();
    let pb: Vec<[f64; 3]> = found.iter().map(|n| world(n.points[1], origin)).collect();
    d.set_item("pairs", pair_array(py, &pairs))?;
    d.set_item(
        "distances",
        Array1::from_iter(found.iter().map(|n| n.distance)).into_pyarray(py),
    )?;
    d.set_item("points_a", rows(py, &pa))?;
    d.set_item("points_b", rows(py, &pb))?;
    Ok(d)
}
