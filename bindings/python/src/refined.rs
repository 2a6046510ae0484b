//! The f64 view of a body that f32 answers are measured again on (as [`bdtree_core::refine()`]
//! re-tests pairs): its triangles deformed in f64 from the stored model at the caller's own
//! state, their error bound, and the reduced-coordinate Jacobian of a point on a triangle.
//! Positions are relative to the query's floating origin, like the kernel's.

use bdtree_core::{refine_error, Body as CoreBody, Pose, Scalar};

use crate::body::State;

/// A body's state as the caller gave it, in f64, relative to a floating origin: what the f64
/// view deforms the stored model at.
pub(crate) struct Frame64 {
    rotation: [[f64; 3]; 3],
    translation: [f64; 3],
    q: Vec<f64>,
}

impl Frame64 {
    /// The caller's `state` (its rotation normalised) less `origin`.
    pub(crate) fn new(state: &State, origin: [f64; 3]) -> Self {
        let r = state.rotation;
        let n = r.iter().map(|x| x * x).sum::<f64>().sqrt();
        let unit = if n > 0.0 && n.is_finite() {
            r.map(|x| x / n)
        } else {
            [1.0, 0.0, 0.0, 0.0]
        };
        let t: [f64; 3] = std::array::from_fn(|k| state.translation[k] - origin[k]);
        let pose = Pose::<f64>::from_quaternion(unit, t).unwrap_or_else(|_| Pose::identity());
        Self {
            rotation: pose.rotation,
            translation: pose.translation,
            q: state.q.clone(),
        }
    }
}

/// Triangle `t` of `body` in f64 (relative to the frame's origin): the stored model deformed
/// at the caller's own state (`frame`), not at its rounding to `S`; `None` for a triangle the
/// model does not have.
pub(crate) fn triangle64<S: Scalar>(
    body: &CoreBody<'_, '_, S>,
    frame: &Frame64,
    t: u32,
) -> Option<[[f64; 3]; 3]> {
    let model = body.model();
    let face = *model.triangles().get(t as usize)?;
    let rest = vec![S::ZERO; model.modes()];
    let mut out = [[0.0; 3]; 3];
    for (corner, &v) in out.iter_mut().zip(&face) {
        let mut x = model.deformed_f64(v as usize, &rest)?;
        for (axis, c) in x.iter_mut().enumerate() {
            for (j, &qj) in frame.q.iter().enumerate() {
                *c += model.basis_entry(v as usize, axis, j)?.to_f64() * qj;
            }
        }
        let r = &frame.rotation;
        for (k, c) in corner.iter_mut().enumerate() {
            *c = r[k][0] * x[0] + r[k][1] * x[1] + r[k][2] * x[2] + frame.translation[k];
        }
    }
    Some(out)
}

/// A per-coordinate bound on how far [`triangle64`]'s vertices are from those of the body's
/// source model at the caller's state: [`refine_error`], which bounds the kernel's f64 view at
/// the state rounded to `S` (and that rounding); at the caller's own state it is only the
/// smaller.
pub(crate) fn error64<S: Scalar>(body: &CoreBody<'_, '_, S>) -> f64 {
    refine_error(body)
}

/// Barycentric weights of the point of triangle `t` nearest to `p` (non-negative, summing to 1;
/// the nearest vertex's for a zero-area triangle).
pub(crate) fn barycentric(p: [f64; 3], t: &[[f64; 3]; 3]) -> [f64; 3] {
    let x = bdtree_core::closest::closest_on_triangle(p, t);
    let sub = |a: [f64; 3], b: [f64; 3]| [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
    let dot = |a: [f64; 3], b: [f64; 3]| a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    let (e1, e2, d) = (sub(t[1], t[0]), sub(t[2], t[0]), sub(x, t[0]));
    let (a, b, c) = (dot(e1, e1), dot(e1, e2), dot(e2, e2));
    let (g, h) = (dot(d, e1), dot(d, e2));
    let det = a * c - b * b;
    if det > 1e-24 * a * c && det.is_finite() {
        let v = ((c * g - b * h) / det).clamp(0.0, 1.0);
        let w = ((a * h - b * g) / det).clamp(0.0, 1.0 - v);
        return [1.0 - v - w, v, w];
    }
    // Zero area: the nearest vertex.
    let mut best = [1.0, 0.0, 0.0];
    let mut nearest = f64::INFINITY;
    for (k, corner) in t.iter().enumerate() {
        let e = sub(x, *corner);
        if dot(e, e) < nearest {
            nearest = dot(e, e);
            best = [0.0; 3];
            best[k] = 1.0;
        }
    }
    best
}

/// The row `∂(n · x)/∂q`: how a point `x` of triangle `t` of `body` (relative to the frame's
/// origin) moves along `normal` per unit of each reduced coordinate, `nᵀ R Σ_v w_v U_v` (`w`
/// the point's barycentric weights, `U_v` vertex `v`'s 3 × M block, `R` the caller's rotation).
pub(crate) fn normal_row<S: Scalar>(
    body: &CoreBody<'_, '_, S>,
    frame: &Frame64,
    t: u32,
    point: [f64; 3],
    normal: [f64; 3],
) -> Vec<f64> {
    let m = body.model().modes();
    let mut row = vec![0.0; m];
    let (Some(&face), Some(tri)) = (
        body.model().triangles().get(t as usize),
        triangle64(body, frame, t),
    ) else {
        return row;
    };
    // Rᵀ n: the normal in body axes.
    let r = frame.rotation;
    let local: [f64; 3] =
        std::array::from_fn(|c| r[0][c] * normal[0] + r[1][c] * normal[1] + r[2][c] * normal[2]);
    let w = barycentric(point, &tri);
    for (&v, &wv) in face.iter().zip(&w) {
        if wv == 0.0 {
            continue;
        }
        for (j, slot) in row.iter_mut().enumerate() {
            let mut along = 0.0;
            for (axis, &l) in local.iter().enumerate() {
                let u = body
                    .model()
                    .basis_entry(v as usize, axis, j)
                    .map_or(0.0, S::to_f64);
                along += l * u;
            }
            *slot += wv * along;
        }
    }
    row
}
