//! Triangle pairs: `collide` and `collide_frames` — the host's [`host::pairs`] and
//! [`host::pairs_with`] (each body pair at its own floating origin, f32 answers refined in f64,
//! sorted), named as the kernel's and the host's `triangles`.

use bdtree_std::host;
use numpy::ndarray::Array2;
use numpy::PyArray2;
use pyo3::prelude::*;

use crate::answers::pair_array;
use crate::args::{choice_arg, floats2, Floats};
use crate::body::borrow_two;
use crate::error::{err, query_error};

/// Every intersecting triangle pair of two bodies in their current states: an int64 array of
/// shape (K, 2), `[triangle of a, triangle of b]`, rows sorted. Conservative: every
/// intersecting pair (touching counts) is reported; a pair that misses by less than the
/// rounding inflation may be too. In f32 the pairs are re-tested in f64 on the stored model
/// (the exact second stage, as the CLI runs it), so an extra pair is closer than the model's
/// f32 storage rounding (~10⁻⁶ on unit-size bodies). The two bodies are placed at their own
/// floating origin (the centre of their translations), so the precision depends on their
/// sizes and distance from each other only. `bounds` is the node bound the search prunes
/// with: `"spheres"` (the tree's), `"boxes15"` or `"boxes6"` (oriented boxes tested on 15 or 6
/// separating axes, [`host::pairs_with`]) — the same pairs, found by a different walk.
#[pyfunction]
#[pyo3(signature = (a, b, bounds = None))]
pub(crate) fn collide<'py>(
    py: Python<'py>,
    a: &Bound<'py, PyAny>,
    b: &Bound<'py, PyAny>,
    bounds: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyArray2<i64>>> {
    let bound = match bounds.filter(|x| !x.is_none()) {
        None => host::PairBound::Spheres,
        Some(x) => choice_arg(
            "bounds",
            x,
            "\"spheres\", \"boxes15\" or \"boxes6\"",
            host::PairBound::from_name,
        )?,
    };
    let (mut a, mut b) = borrow_two(["a", "b"], a, b)?;
    let found = host::pairs_with(&mut a.body, &mut b.body, bound)
        .map_err(|e| query_error("collide", &[("a", &a.body), ("b", &b.body)], e))?;
    Ok(pair_array(py, &found.items))
}

/// Frame-stacked states of one body: rotations (F, 4), translations (F, 3), q (F, M).
struct States {
    rotation: Array2<f64>,
    translation: Array2<f64>,
    q: Array2<f64>,
}

/// A body's state, as [`host::Body::set_state`] takes it.
type State = ([f64; 4], [f64; 3], Vec<f64>);

impl States {
    /// Frame `f`'s state.
    fn state(&self, f: usize) -> State {
        let r = self.rotation.row(f);
        let t = self.translation.row(f);
        (
            [r[0], r[1], r[2], r[3]],
            [t[0], t[1], t[2]],
            self.q.row(f).to_vec(),
        )
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

/// Every frame's pairs of `a` and `b` ([`host::pairs`] after each frame's states); a refused
/// state or query names its frame.
fn frames_of(
    a: &mut host::Body,
    b: &mut host::Body,
    sa: &States,
    sb: &States,
) -> Result<Vec<Vec<[u32; 2]>>, String> {
    let mut out = Vec::with_capacity(sa.rotation.nrows());
    for f in 0..sa.rotation.nrows() {
        let ((ra, ta, qa), (rb, tb, qb)) = (sa.state(f), sb.state(f));
        a.set_state(ra, ta, &qa)
            .map_err(|e| format!("frame {f}, body a: {e}"))?;
        b.set_state(rb, tb, &qb)
            .map_err(|e| format!("frame {f}, body b: {e}"))?;
        let found = host::pairs(a, b).map_err(|e| format!("frame {f}: {e}"))?;
        out.push(found.items);
    }
    Ok(out)
}

/// `collide` over many frames without the GIL: the states of `a` and `b` stacked by frame
/// (`rotation_*` (F, 4), `translation_*` (F, 3), `q_*` (F, M) or None). Returns a list of F
/// int64 (K, 2) arrays. The bodies are left in the last frame's state (in their states
/// before the call when a frame is refused).
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
    let before = (ka.state().clone(), kb.state().clone());
    let frames = py.detach(|| {
        let frames = frames_of(ka, kb, &sa, &sb);
        if frames.is_err() {
            // Both states were accepted before: putting them back cannot fail.
            for (body, s) in [(&mut *ka, &before.0), (&mut *kb, &before.1)] {
                let _ = body.set_state(s.rotation, s.translation, &s.q);
            }
        }
        frames
    });
    let frames = frames.map_err(err)?;
    Ok(frames.iter().map(|p| pair_array(py, p)).collect())
}
