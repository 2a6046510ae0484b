//! The f64 view of a body that f32 answers are refined on (as [`bdtree_core::refine()`] does):
//! its triangles deformed in f64 from the stored model at its state, their error bound, and the
//! reduced-coordinate Jacobian of a point on a triangle. Positions are relative to the body's
//! floating origin, like the kernel's.

use bdtree_core::{refine_error, Body as CoreBody, Pose, Scalar};

/// Triangle `t` of `body` in f64 (relative to its origin), deformed from the stored model at the
/// body's pose and `q`; `None` for a triangle the model does not have.
pub(crate) fn triangle64<S: Scalar>(body: &CoreBody<'_, '_, S>, t: u32) -> Option<[[f64; 3]; 3]> {
    let face = *body.model().triangles().get(t as usize)?;
    let pose = body.pose();
    let r = pose.rotation.map(|row| row.map(S::to_f64));
    let tr = pose.translation.map(S::to_f64);
    let q = body.q();
    let mut out = [[0.0; 3]; 3];
    for (corner, &v) in out.iter_mut().zip(&face) {
        let x = body.model().deformed_f64(v as usize, q)?;
        for (k, c) in corner.iter_mut().enumerate() {
            *c = r[k][0] * x[0] + r[k][1] * x[1] + r[k][2] * x[2] + tr[k];
        }
    }
    Some(out)
}

/// The per-coordinate bound on how far [`triangle64`]'s vertices are from those of the body's
/// source model at the caller's state ([`refine_error`]).
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

/// The row `∂(n · x)/∂q`: how a point `x` of triangle `t` of `body` (relative to its origin)
/// moves along `normal` per unit of each reduced coordinate, `nᵀ R Σ_v w_v U_v` (`w` the
/// point's barycentric weights, `U_v` vertex `v`'s 3 × M block, `R` the caller's rotation).
pub(crate) fn normal_row<S: Scalar>(
    body: &CoreBody<'_, '_, S>,
    rotation: [f64; 4],
    t: u32,
    point: [f64; 3],
    normal: [f64; 3],
) -> Vec<f64> {
    let m = body.model().modes();
    let mut row = vec![0.0; m];
    let (Some(&face), Some(tri)) = (
        body.model().triangles().get(t as usize),
        triangle64(body, t),
    ) else {
        return row;
    };
    let Ok(pose) = Pose::<f64>::from_quaternion(rotation, [0.0; 3]) else {
        return row;
    };
    // Rᵀ n: the normal in body axes.
    let r = pose.rotation;
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
