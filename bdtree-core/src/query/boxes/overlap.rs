//! World boxes and their overlap test (see [`super`]'s module docs for the bounds and the
//! rounding).

use super::table::BoxTable;
use crate::body::Body;
use crate::scalar::Scalar;

/// A world-space oriented box.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WorldBox<S> {
    /// Center.
    pub center: [S; 3],
    /// Axes: the columns of the body's rotation matrix (`axes[r][k]` = row r of axis k).
    pub axes: [[S; 3]; 3],
    /// Half-extents along the axes, inflated.
    pub half: [S; 3],
}

/// Which box overlap test a query uses (module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum BoxTest {
    /// All 15 separating axes.
    #[default]
    Exact,
    /// The 6 face axes only (conservative).
    FaceAxes,
}

/// The world box of `node` of `body` in its current state, or `None` for a bad index.
pub fn world_box<S: Scalar>(
    body: &mut Body<'_, '_, S>,
    table: &BoxTable<'_, S>,
    node: usize,
) -> Option<WorldBox<S>> {
    box_around(body, table, node)
}

/// [`world_box`]. The center is the node's BD-Tree center `R (c + Ū q) + t`, computed here
/// (`3M` multiply-adds and a transform, the sphere update's arithmetic and rounding), never
/// read from the sphere cache: with a vertex cache a leaf's cached sphere is centred on its
/// deformed triangle, and with temporal coherence a node's on its reference `q` — boxes
/// around those centres with the half-extents of `c + Ū q` miss contacts.
#[inline]
pub(crate) fn box_around<S: Scalar>(
    body: &Body<'_, '_, S>,
    table: &BoxTable<'_, S>,
    node: usize,
) -> Option<WorldBox<S>> {
    let local = body.tree().update(node, body.weights())?;
    let center = body.pose().apply([local[0], local[1], local[2]]);
    let h = half_extents(table.record(node)?, body.weights());
    let inflate = S::from_u32(3) * body.error().max(body.sphere_error());
    Some(WorldBox {
        center,
        axes: body.pose().rotation,
        half: [h[0] + inflate, h[1] + inflate, h[2] + inflate],
    })
}

/// `[H + Σ_j ΔH_j |q_j|, 0]` from a node's box rows and the body's mode weights (whose last
/// lane is `|q_j|`): `3M` multiply-adds.
fn half_extents<S: Scalar>(record: &[[S; 4]], weights: &[[S; 4]]) -> [S; 4] {
    let Some((&head, rows)) = record.split_first() else {
        return [S::ZERO; 4];
    };
    let mut h = head;
    for (row, w) in rows.iter().zip(weights) {
        for l in 0..3 {
            h[l] = h[l] + row[l] * w[3];
        }
    }
    h
}

/// Whether two world boxes may overlap (touching counts): never `false` when they intersect.
pub fn boxes_overlap<S: Scalar>(a: &WorldBox<S>, b: &WorldBox<S>, test: BoxTest) -> bool {
    let t_world = [
        b.center[0] - a.center[0],
        b.center[1] - a.center[1],
        b.center[2] - a.center[2],
    ];
    // Axis k of a box is column k of its rotation matrix. Indices below are constants or go
    // through `at` (a match): no bounds check survives at any opt-level.
    let axis = |m: &[[S; 3]; 3], k: usize| [at(m[0], k), at(m[1], k), at(m[2], k)];
    let dot = |u: [S; 3], v: [S; 3]| u[0] * v[0] + u[1] * v[1] + u[2] * v[2];
    // t in a's frame, and r[i][j] = a_i · b_j.
    let a_axes = [axis(&a.axes, 0), axis(&a.axes, 1), axis(&a.axes, 2)];
    let b_axes = [axis(&b.axes, 0), axis(&b.axes, 1), axis(&b.axes, 2)];
    let t = a_axes.map(|ai| dot(ai, t_world));
    let r = a_axes.map(|ai| b_axes.map(|bj| dot(ai, bj)));
    let abs_r = r.map(|row| row.map(|x| x.abs()));
    let magnitude = t_world[0].abs()
        + t_world[1].abs()
        + t_world[2].abs()
        + a.half[0]
        + a.half[1]
        + a.half[2]
        + b.half[0]
        + b.half[1]
        + b.half[2];
    let slack = S::from_u32(64) * S::UNIT_ROUNDOFF * magnitude;
    let separated = |projection: S, reach: S| projection.abs() > reach + slack;
    for ((&ti, &ha), abs_row) in t.iter().zip(&a.half).zip(&abs_r) {
        let rb = b.half[0] * abs_row[0] + b.half[1] * abs_row[1] + b.half[2] * abs_row[2];
        if separated(ti, ha + rb) {
            return false;
        }
    }
    for (j, &hb) in b.half.iter().enumerate() {
        let col = |m: &[[S; 3]; 3]| [at(m[0], j), at(m[1], j), at(m[2], j)];
        let (abs_col, col_r) = (col(&abs_r), col(&r));
        let ra = a.half[0] * abs_col[0] + a.half[1] * abs_col[1] + a.half[2] * abs_col[2];
        let tj = t[0] * col_r[0] + t[1] * col_r[1] + t[2] * col_r[2];
        if separated(tj, ra + hb) {
            return false;
        }
    }
    if test == BoxTest::FaceAxes {
        return true;
    }
    for i in 0..3 {
        let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
        let (r_i1, r_i2) = (at(r, i1), at(r, i2));
        let (abs_i, abs_i1, abs_i2) = (at(abs_r, i), at(abs_r, i1), at(abs_r, i2));
        for j in 0..3 {
            let (j1, j2) = ((j + 1) % 3, (j + 2) % 3);
            let ra = at(a.half, i1) * at(abs_i2, j) + at(a.half, i2) * at(abs_i1, j);
            let rb = at(b.half, j1) * at(abs_i, j2) + at(b.half, j2) * at(abs_i, j1);
            let p = at(t, i2) * at(r_i1, j) - at(t, i1) * at(r_i2, j);
            if separated(p, ra + rb) {
                return false;
            }
        }
    }
    true
}

/// Entry `k` of three (the last for `k ≥ 2`): a runtime index without a bounds check.
#[inline(always)]
fn at<T: Copy>(v: [T; 3], k: usize) -> T {
    match k {
        0 => v[0],
        1 => v[1],
        _ => v[2],
    }
}
