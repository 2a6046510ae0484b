//! A node's normal cone in `O(M)` from its row of [`SelfNormals`]: the cone bits every true
//! deformed normal below the node is proven to face, without deforming a triangle.
//!
//! **The bound.** A triangle's deformed normal is a quadratic polynomial in `q`: with its
//! rest edges `e₁`, `e₂` and the differences `A₁`, `A₂` of its vertices' basis rows (3×M),
//! `n(q) = (e₁ + A₁q) × (e₂ + A₂q) = n₀ + Σⱼ qⱼ lⱼ + (A₁q) × (A₂q)` with
//! `lⱼ = e₁ × a₂ⱼ + a₁ⱼ × e₂`. Divided by a positive scale `s` per triangle (its rest area
//! times two; a scale changes no sign), the host stores per node and per coordinate `k` the
//! centre and the spread over the node's triangles of `n₀/s` and of each `lⱼ/s`, and per
//! mode the largest `|a_{ij,k}|/√s` over both edges (`βⱼₖ`), so that `|((A₁q) × (A₂q))ₖ|/s ≤
//! 2 Bₖ₊₁ Bₖ₊₂` with `Bₖ = Σⱼ |qⱼ| βⱼₖ` — or, up to [`NORMAL_QUADRATIC_MODES`] modes, the
//! quadratic term's own centres and spreads per pair of modes (`cⱼₖ = a₁ⱼ × a₂ₖ + a₁ₖ × a₂ⱼ`
//! for `j < k`, `a₁ⱼ × a₂ⱼ` for `j = k`), which keep what the reach loses when two modes turn
//! the patch together (a rotation's `q₀q₁` terms cancel). Every triangle's `n(q)/s` then
//! lies, coordinate by coordinate, within `devₖ(q)` of `meanₖ(q)`, both `O(M)` (or `O(M²)`)
//! per coordinate. In the world the
//! normal is `cof(R) n` (for a rotation, `R n`), so a sampled direction `d` faces every one
//! when `w·mean − Σₖ |wₖ| devₖ > 0`, `w = cof(R)ᵀ d`.
//!
//! **What it covers.** The host computes the rows from the model the image stores, each
//! stored value taken as uncertain by its storage rounding (so they hold for the source the
//! image was made from at the body's stored `q` and rotation, in exact arithmetic), rounds
//! every centre to f32 and adds that rounding to the spread. Here the bound is made against:
//! the rounding of `w` (`cof(R)` from the pose's matrix as given); the caller's own state,
//! which moves each vertex by at most [`Body::state_error`] from the stored one (0 after
//! [`Body::set_state`]), bounded as the cones bound a move (each normal coordinate within
//! `2(m₁Δ + m₂Δ + Δ²)` for edges of largest coordinates `m₁`, `m₂` moved by `Δ = 2ε` per
//! coordinate, with `(m₁ + m₂)/s ≤ ‖R‖ (E₀ + Σⱼ |qⱼ| Eⱼ)` and `1/s ≤ K` stored per node); and
//! the rounding of this evaluation (a relative `(2M(M + 3) + 64)u` of every magnitude it adds). No
//! vertex is computed, so the pipeline's rounding ([`Body::error`]) does not enter. A bit it
//! sets is one every true normal of the patch faces, as [`super::normal_cones`]' bits; it may
//! set fewer or others (the bound is looser than the triangles, the cones' margins wider
//! than its own), never a false one.

use super::cones::DIRECTIONS;
use crate::body::Body;
#[cfg(doc)]
use crate::image::self_tables::NORMAL_QUADRATIC_MODES;
use crate::image::self_tables::{normal_quadratic_width, normal_row_width, BadRow, SelfNormals};
use crate::scalar::Scalar;

impl SelfNormals<'_> {
    /// The normal cone bits (as [`super::normal_cones`]' bitfield) that node `node`'s row
    /// proves at `body`'s current state, in `O(M)` without deforming a triangle: every bit set
    /// is a sampled direction that every true deformed normal below the node faces (see the
    /// module docs); 0 when the node has no row or nothing is proven. [`BadRow`] when the
    /// node's entry cannot be read (checked as it is read: a self query then ends with
    /// [`crate::QueryStatus::BadSection`]).
    ///
    /// On bare-metal targets (`target_os = "none"`) an f64 body proves nothing here (its cones
    /// come from the triangles): the bound in soft-float f64 would cost those devices several
    /// KiB of flash for a body they run in f32.
    pub fn cone<S: Scalar>(&self, body: &Body<'_, '_, S>, node: usize) -> Result<u16, BadRow> {
        if S::BYTES == 8 && cfg!(target_os = "none") {
            return Ok(0);
        }
        let Ok(node) = u32::try_from(node) else {
            return Ok(0);
        };
        Ok(self
            .row(node, body.q().len())?
            .map_or(0, |row| bounded_cone(body, row)))
    }
}

/// The cone bits node's `row` proves at `body`'s state (see the module docs); 0 when the row
/// does not fit the body's modes or nothing is proven.
pub(super) fn bounded_cone<S: Scalar>(body: &Body<'_, '_, S>, row: &[f32]) -> u16 {
    let q = body.q();
    let m = q.len();
    if row.len() != normal_row_width(m) {
        return 0;
    }
    let Some((rest, tail)) = row.split_first_chunk::<6>() else {
        return 0;
    };
    let Some((centres, tail)) = tail.split_at_checked(3 * m) else {
        return 0;
    };
    let Some((spreads, tail)) = tail.split_at_checked(3 * m) else {
        return 0;
    };
    let Some((reach, tail)) = tail.split_at_checked(3 * m) else {
        return 0;
    };
    let Some((&e0, tail)) = tail.split_first() else {
        return 0;
    };
    let Some((lengths, tail)) = tail.split_at_checked(m) else {
        return 0;
    };
    let Some((&inverse, tail)) = tail.split_first() else {
        return 0;
    };
    let Some(quadratic) = tail.get(..normal_quadratic_width(m)) else {
        return 0;
    };
    let f = S::from_f32;
    let mut mean = [f(rest[0]), f(rest[1]), f(rest[2])];
    let mut size = mean.map(S::abs);
    let mut dev = [f(rest[3]), f(rest[4]), f(rest[5])];
    let mut b = [S::ZERO; 3];
    let mut edges = f(e0);
    // Slices by offset, not zipped chunks: a zip of chunks divides by the chunk size, a panic
    // path the device builds must not have.
    let three = |v: &[f32], j: usize| -> [S; 3] {
        match v.get(3 * j..3 * j + 3) {
            Some(&[a, b, c]) => [f(a), f(b), f(c)],
            _ => [S::from_f32(f32::INFINITY); 3],
        }
    };
    for (j, &qj) in q.iter().enumerate() {
        let a = qj.abs();
        let (c, s, r) = (three(centres, j), three(spreads, j), three(reach, j));
        for k in 0..3 {
            mean[k] = mean[k] + qj * c[k];
            size[k] = size[k] + a * c[k].abs();
            dev[k] = dev[k] + a * s[k];
            b[k] = b[k] + a * r[k];
        }
        edges = edges + a * f(lengths.get(j).copied().unwrap_or(f32::INFINITY));
    }
    let two = S::from_u32(2);
    if quadratic.is_empty() {
        // `|((A₁q) × (A₂q))ₖ| ≤ 2 Bₖ₊₁ Bₖ₊₂`.
        let cross = [two * b[1] * b[2], two * b[0] * b[2], two * b[0] * b[1]];
        for k in 0..3 {
            dev[k] = dev[k] + cross[k];
        }
    } else {
        // The pairs `j ≤ k` in order: centres then spreads, 3 each.
        let Some((centres, spreads)) = quadratic.split_at_checked(quadratic.len() / 2) else {
            return 0;
        };
        let mut pair = 0usize;
        for (j, &qj) in q.iter().enumerate() {
            for &qk in q.get(j..).unwrap_or(&[]) {
                let (c, s) = (three(centres, pair), three(spreads, pair));
                pair += 1;
                let (qq, a) = (qj * qk, (qj * qk).abs());
                for k in 0..3 {
                    mean[k] = mean[k] + qq * c[k];
                    size[k] = size[k] + a * c[k].abs();
                    dev[k] = dev[k] + a * s[k];
                }
            }
        }
    }
    let u = S::UNIT_ROUNDOFF;
    let r = &body.pose().rotation;
    let row_norm = |x: &[S; 3]| x[0].abs() + x[1].abs() + x[2].abs();
    let norm = row_norm(&r[0]).max(row_norm(&r[1])).max(row_norm(&r[2]));
    let delta = two * body.state_error() * (S::ONE + S::from_u32(4) * u);
    // Per world normal coordinate, over `s`: the caller's patch's distance from the stored one.
    let moved = two * (norm * edges * delta + f(inverse) * delta * delta);
    let cross = |a: &[S; 3], b: &[S; 3]| {
        [
            a[1] * b[2] - a[2] * b[1],
            a[2] * b[0] - a[0] * b[2],
            a[0] * b[1] - a[1] * b[0],
        ]
    };
    // `cof(R)`'s rows: `(R a) × (R b) = cof(R) (a × b)`.
    let cofactor = [
        cross(&r[1], &r[2]),
        cross(&r[2], &r[0]),
        cross(&r[0], &r[1]),
    ];
    let Ok(modes) = u32::try_from(m) else {
        return 0;
    };
    // Each sum adds at most `M(M + 1)/2 + M + 1` products, each of two or three roundings.
    let terms = modes.saturating_mul(modes.saturating_add(3));
    let gamma = S::from_u32(terms.saturating_mul(2).saturating_add(64)) * u;
    if gamma >= S::from_f64(0.5) {
        return 0;
    }
    let eta = S::from_u32(32) * u * norm * norm;
    let whole = [size[0] + dev[0], size[1] + dev[1], size[2] + dev[2]];
    let mut bits = 0u16;
    for (bit, d) in DIRECTIONS.iter().enumerate() {
        let weight = S::from_u32(u32::from(
            d[0].unsigned_abs() + d[1].unsigned_abs() + d[2].unsigned_abs(),
        ));
        let mut w = [S::ZERO; 3];
        for (row, &dr) in cofactor.iter().zip(d) {
            for (wc, &x) in w.iter_mut().zip(row) {
                *wc = match dr {
                    1 => *wc + x,
                    -1 => *wc - x,
                    _ => *wc,
                };
            }
        }
        let mut value = S::ZERO;
        let mut loss = weight * (eta * (whole[0] + whole[1] + whole[2]) + moved);
        let mut scale = S::ZERO;
        for k in 0..3 {
            value = value + w[k] * mean[k];
            loss = loss + w[k].abs() * dev[k];
            scale = scale + w[k].abs() * whole[k];
        }
        if value - loss > gamma * (scale + loss) {
            bits |= 1 << bit;
        }
    }
    bits
}
