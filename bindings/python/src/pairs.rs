//! Triangle pairs and distances: `collide`, `collide_self`, `collide_frames`, `distance`. Each
//! body pair is placed at its own floating origin ([`floating_origin`] of the two
//! translations), a body's self pairs at its own translation; f32 answers are refined in f64.

use bdtree_core::separation::{nearest, Nearest};
use bdtree_core::{
    collide as core_collide, collide_self as core_self, floating_origin, refine, refine_self,
    self_stack_capacity, stack_capacity, triangle::triangles_may_intersect, Body as CoreBody,
    Scalar, TrianglePair,
};
use numpy::ndarray::Array2;
use numpy::PyArray2;
use pyo3::prelude::*;

use crate::args::{floats2, pair_array};
use crate::body::{
    body_arg, borrow_two, depth, set, status_error, with_body, with_pair, world, Body, State,
};
use crate::refined::{error64, triangle64, Frame64};
use crate::{err, Floats};

/// The floating origin of a query between two bodies.
pub(crate) fn pair_origin(a: &Body, b: &Body) -> [f64; 3] {
    floating_origin(&[a.state.translation, b.state.translation])
}

/// Sorted pairs of two bodies, refined in f64 (f32).
pub(crate) fn pairs_of<S: Scalar>(
    a: &mut CoreBody<'_, '_, S>,
    b: &mut CoreBody<'_, '_, S>,
) -> Result<Vec<[u32; 2]>, PyErr> {
    let mut stack = vec![[0u32; 2]; stack_capacity(depth(a), depth(b))];
    let mut found = Vec::new();
    let mut sink = |p: TrianglePair| {
        found.push(p);
        true
    };
    let o = core_collide(a, b, &mut stack, &mut sink);
    if !o.status.is_complete() {
        return Err(status_error("collide", o.status));
    }
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

/// Every intersecting triangle pair of two bodies in their current states: an int64 array of
/// shape (K, 2), `[triangle of a, triangle of b]`, rows sorted. Conservative: every
/// intersecting pair (touching counts) is reported; a pair that misses by less than the
/// rounding inflation may be too. In f32 the pairs are re-tested in f64 on the stored model
/// (the exact second stage, as the CLI runs it), so an extra pair is closer than the model's
/// f32 storage rounding (~10⁻⁶ on unit-size bodies). The two bodies are placed at their own
/// floating origin (the centre of their translations), so the precision depends on their
/// sizes and distance from each other only.
#[pyfunction]
pub(crate) fn collide<'py>(
    py: Python<'py>,
    a: &Bound<'py, PyAny>,
    b: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyArray2<i64>>> {
    let (mut a, mut b) = borrow_two(["a", "b"], a, b)?;
    let origin = pair_origin(&a, &b);
    a.place(origin)?;
    b.place(origin)?;
    let pairs = with_pair!(a, b, |x, y| pairs_of(x, y))?;
    Ok(pair_array(py, &pairs))
}

/// Every intersecting pair of non-adjacent triangles of one body: int64 (K, 2), `a < b` in
/// each row, rows sorted. The body is placed at its own translation; f32 pairs are refined in
/// f64.
#[pyfunction]
pub(crate) fn collide_self<'py>(
    py: Python<'py>,
    body: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyArray2<i64>>> {
    let body = body_arg("body", body)?;
    let mut body = body.try_borrow_mut()?;
    let t = body.state.translation;
    body.place(t)?;
    let pairs = with_body!(body, |x| self_pairs_of(x))?;
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
    let q = match q.filter(|q| !q.is_none()) {
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
type Frames = (Vec<Vec<[u32; 2]>>, Option<(State, State, [f64; 3])>);

fn frames_of<S: Scalar>(
    a: &mut CoreBody<'_, '_, S>,
    b: &mut CoreBody<'_, '_, S>,
    sa: &States,
    sb: &States,
) -> Result<Frames, String> {
    let mut out = Vec::with_capacity(sa.rotation.nrows());
    let mut last = None;
    for f in 0..sa.rotation.nrows() {
        let (xa, xb) = (sa.state(f), sb.state(f));
        let origin = floating_origin(&[xa.translation, xb.translation]);
        set(a, &xa, origin).map_err(|e| format!("frame {f}, body a: {e}"))?;
        set(b, &xb, origin).map_err(|e| format!("frame {f}, body b: {e}"))?;
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
pub(crate) fn collide_frames<'py>(
    py: Python<'py>,
    a: &Bound<'py, PyAny>,
    b: &Bound<'py, PyAny>,
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
    let (mut a, mut b) = borrow_two(["a", "b"], a, b)?;
    let (ka, kb) = (&mut a.body, &mut b.body);
    let frames = py.detach(|| match (ka, kb) {
        (crate::body::AnyBody::F32(a), crate::body::AnyBody::F32(b)) => {
            frames_of(a.body(), b.body(), &sa, &sb)
        }
        (crate::body::AnyBody::F64(a), crate::body::AnyBody::F64(b)) => {
            frames_of(a.body(), b.body(), &sa, &sb)
        }
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
pub(crate) struct Distance {
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

fn tuple(p: [f64; 3]) -> (f64, f64, f64) {
    (p[0], p[1], p[2])
}

/// The kernel's nearest points; in f32, the witness triangles measured again in f64.
fn distance_of<S: Scalar>(
    a: &mut CoreBody<'_, '_, S>,
    b: &mut CoreBody<'_, '_, S>,
    origin: [f64; 3],
    (fa, fb): (&Frame64, &Frame64),
) -> PyResult<Distance> {
    let mut stack = vec![[0u32; 2]; stack_capacity(depth(a), depth(b))];
    let o = nearest(a, b, &mut stack);
    let n: Nearest<S> = match o.nearest {
        Some(n) if o.status.is_complete() => n,
        _ => return Err(status_error("distance", o.status)),
    };
    let triangles = (n.triangle_a, n.triangle_b);
    let kernel = Distance {
        distance: n.distance.to_f64(),
        point_a: tuple(world(n.point_a, origin)),
        point_b: tuple(world(n.point_b, origin)),
        triangles,
        normal: tuple(n.normal.map(S::to_f64)),
        intersecting: n.intersecting,
    };
    if S::BYTES >= 8 {
        return Ok(kernel);
    }
    let (Some(ta), Some(tb)) = (
        triangle64(a, fa, n.triangle_a),
        triangle64(b, fb, n.triangle_b),
    ) else {
        return Ok(kernel);
    };
    let error = error64(a) + error64(b);
    let (d2, pa, pb) = bdtree_core::closest::closest_points(&ta, &tb);
    let t = bdtree_core::contact::contact_tolerance(&ta, &tb, error);
    let d = d2.sqrt();
    let intersecting = triangles_may_intersect(&ta, &tb, error) && d <= t + t;
    let normal = if intersecting || d == 0.0 {
        [0.0; 3]
    } else {
        std::array::from_fn(|k| (pb[k] - pa[k]) / d)
    };
    Ok(Distance {
        distance: if intersecting { 0.0 } else { d },
        point_a: tuple(world(pa, origin)),
        point_b: tuple(world(pb, origin)),
        triangles,
        normal: tuple(normal),
        intersecting,
    })
}

/// The minimum distance between two deformed bodies (0 when they intersect), with witness
/// points, their triangles and the unit normal from a to b. In f32 the witness triangles are
/// measured again in f64 on the stored model: the distance is theirs (an upper bound on the
/// bodies' distance, within the f32 rounding of it) and the points lie on them.
#[pyfunction]
pub(crate) fn distance(a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>) -> PyResult<Distance> {
    let (mut a, mut b) = borrow_two(["a", "b"], a, b)?;
    let origin = pair_origin(&a, &b);
    a.place(origin)?;
    b.place(origin)?;
    let (fa, fb) = (
        Frame64::new(&a.state, origin),
        Frame64::new(&b.state, origin),
    );
    with_pair!(a, b, |x, y| distance_of(x, y, origin, (&fa, &fb)))
}
