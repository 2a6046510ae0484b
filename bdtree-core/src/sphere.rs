//! The exact BD-Tree sphere update and the overlap test, with their floating-point guarantees.
//!
//! # The update
//!
//! For reduced coordinates `q`, a node with rest center `c`, wrapped radius `R`, mode matrix `Ū`
//! and radius growth `ΔR` gets
//!
//! ```text
//! c' = c + Ū q            (3M multiply-adds)
//! R' = R + Σ_j ΔR_j |q_j| (M multiply-adds)
//! ```
//!
//! and every deformed vertex `x_i = p_i + U_i q` of the node satisfies `|x_i − c'| ≤ R'`
//! (`|x_i − c'| = |p_i − c + (U_i − Ū) q| ≤ R + Σ_j |U_ij − Ū_j| |q_j|`). The image stores
//! the rows `[Ū_j, ΔR_j]` side by side and [`update`] runs them as `M` four-lane multiply-adds
//! against `[q_j, q_j, q_j, |q_j|]` (prepared once per step by [`mode_weights`]) on two
//! independent accumulators, which compilers turn into SIMD on hosts and into a short FPU
//! sequence on Cortex-M.
//!
//! # Rounding
//!
//! Stored bounds are rounded outward by the builder (radii and growths rounded up, the rounding
//! of centers and `Ū` folded into `R` and `ΔR`), so they hold exactly for the stored model. At
//! run time every computed quantity carries rounding error; [`error_bound`] returns a per-body,
//! per-step `δ` that bounds, per coordinate, the error of every computed world-space center and
//! deformed vertex, and every computed radius, of the body:
//!
//! ```text
//! X = X₀ + Σ_j A_j |q_j|                 (bounds ‖c'‖∞ + R' and ‖p_i + U_i q‖∞)
//! δ = (2M + 96) · u · (X + ‖t‖∞)         (u: unit roundoff of the scalar)
//! ```
//!
//! where `X₀`, `A_j` are magnitude bounds stored in the image. The derivation, per coordinate:
//! the update sums `M + 1` terms (`≤ γ_{M+1} X`); the rotation matrix from a normalised
//! quaternion is within `12u` per entry of the rotation of the exact quaternion
//! (`≤ 36u X` after the product); `R x + t` adds `γ₄ (√3 X + ‖t‖∞)`. Inputs that reached the
//! scalar by rounding from f64 — the model (rest positions and basis, rounded by the builder),
//! `q`, the quaternion and the translation — add at most `u X`, `u X`, `24u X` and `u ‖t‖∞`. The
//! total, `(√3 M + 75) u X + 6u ‖t‖∞` to first order, is covered by `(2M + 96) u (X + ‖t‖∞)`,
//! so the guarantee holds against the f64 source data, not only against the stored model. World
//! spheres are inflated by `3δ` (≥ `√3 δ` for the center plus `δ` for the radius), which makes
//! them contain the exact deformed vertices. [`spheres_overlap`] compares squared distances with a
//! relative slack of `16u` that covers its own rounding. For f32 and a body of size 1 placed 10
//! units from the origin at M = 10 this inflation is about 3·10⁻⁴ — a few extra candidate pairs
//! at most, never a missed one.

use crate::scalar::Scalar;

/// Per-mode weights `[q_j, q_j, q_j, |q_j|]` for [`update`]; fills `out[..q.len()]`.
#[inline]
pub fn mode_weights<S: Scalar>(q: &[S], out: &mut [[S; 4]]) {
    for (w, &qj) in out.iter_mut().zip(q) {
        *w = [qj, qj, qj, qj.abs()];
    }
}

/// The exact update of one node: `[c + Ū q, R + Σ ΔR_j |q_j|]` from the node's rows
/// (see [`crate::TreeView::record`]) and [`mode_weights`] (whose first three lanes are equal;
/// scalar-FPU targets read only the first and the last). `4M` multiply-adds.
///
/// The result is the computed value, without inflation; see the module docs for its error.
#[inline]
pub fn update<S: Scalar>(record: &[[S; 4]], weights: &[[S; 4]]) -> [S; 4] {
    let Some((&head, cols)) = record.split_first() else {
        return [S::ZERO; 4];
    };
    let mut even = head;
    let mut odd = [S::ZERO; 4];
    let mut col_pairs = cols.chunks_exact(2);
    let mut w_pairs = weights.chunks_exact(2);
    // The first pair starts the odd accumulator (saves zeroing it on scalar FPUs).
    if let (Some([c0, c1]), Some([w0, w1])) = (col_pairs.next(), w_pairs.next()) {
        let (w0, w1) = (lanes(w0), lanes(w1));
        for l in 0..4 {
            even[l] = even[l] + c0[l] * w0[l];
            odd[l] = c1[l] * w1[l];
        }
    }
    for (c, w) in (&mut col_pairs).zip(&mut w_pairs) {
        if let ([c0, c1], [w0, w1]) = (c, w) {
            let (w0, w1) = (lanes(w0), lanes(w1));
            for l in 0..4 {
                even[l] = even[l] + c0[l] * w0[l];
                odd[l] = odd[l] + c1[l] * w1[l];
            }
        }
    }
    if let (Some(c), Some(w)) = (col_pairs.remainder().first(), w_pairs.remainder().first()) {
        let w = lanes(w);
        for l in 0..4 {
            even[l] = even[l] + c[l] * w[l];
        }
    }
    [
        even[0] + odd[0],
        even[1] + odd[1],
        even[2] + odd[2],
        even[3] + odd[3],
    ]
}

/// The exact update over a node's mode support only: the rows `j + 1` for the set bits `j` of
/// `support` (64 modes per word, bit `j % 64` of word `j / 64`). `4·|support|` multiply-adds;
/// the same result as [`update`] when the other rows are zero, and the same error bound (which
/// holds for any summation order of the `M + 1` terms).
#[inline]
pub fn update_sparse<S: Scalar>(record: &[[S; 4]], weights: &[[S; 4]], support: &[u64]) -> [S; 4] {
    let Some((&head, cols)) = record.split_first() else {
        return [S::ZERO; 4];
    };
    let mut acc = head;
    for (word_index, &word) in support.iter().enumerate() {
        let mut bits = word;
        while bits != 0 {
            let j = word_index * 64 + bits.trailing_zeros() as usize;
            bits &= bits - 1;
            if let (Some(c), Some(w)) = (cols.get(j), weights.get(j)) {
                let w = lanes(w);
                for l in 0..4 {
                    acc[l] = acc[l] + c[l] * w[l];
                }
            }
        }
    }
    acc
}

/// A weight `[q_j, q_j, q_j, |q_j|]` as the update reads it. Hosts with vector units load the
/// four lanes at once; scalar FPUs (Cortex-M, Cortex-R) load only `q_j` and `|q_j|` and reuse
/// `q_j` for the three center lanes — 20 loads instead of 40 at M = 10. The lanes are equal by
/// construction ([`mode_weights`]), so both read the same values and give the same bits.
#[inline(always)]
fn lanes<S: Scalar>(w: &[S; 4]) -> [S; 4] {
    if cfg!(any(
        target_arch = "x86_64",
        target_arch = "x86",
        target_arch = "aarch64",
        target_arch = "wasm32"
    )) {
        *w
    } else {
        [w[0], w[0], w[0], w[3]]
    }
}

/// The per-coordinate rounding-error bound `δ` of a body for one step (see the module docs).
/// `magnitude` is `X₀`, `mode_magnitudes` the `A_j`, `q` the coordinates (any iterator: a
/// slice's `iter().copied()`, or a body's mode slots); `M + 3` operations.
pub fn error_bound<S: Scalar>(
    magnitude: S,
    mode_magnitudes: &[S],
    q: impl IntoIterator<Item = S>,
    translation: [S; 3],
) -> S {
    let mut x = magnitude;
    let mut m = 0u32;
    for (&a, qj) in mode_magnitudes.iter().zip(q) {
        x = x + a * qj.abs();
        m = m.saturating_add(1);
    }
    let t = translation[0]
        .abs()
        .max(translation[1].abs())
        .max(translation[2].abs());
    let m = S::from_u32(m.min(1 << 20));
    let factor = (m + m + S::from_u32(96)) * S::UNIT_ROUNDOFF;
    // The final products are rounded too; one more relative u is covered by the margin.
    factor * (x + t)
}

/// Whether two world-space spheres `[x, y, z, r]` overlap (touching counts), conservatively:
/// never `false` when the exact spheres intersect. Squared distances, no square root.
#[inline]
pub fn spheres_overlap<S: Scalar>(a: [S; 4], b: [S; 4]) -> bool {
    let d = [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
    let d2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
    let r = a[3] + b[3];
    let slack = S::ONE + S::from_u32(16) * S::UNIT_ROUNDOFF;
    d2 <= r * r * slack
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn update_matches_the_formula_for_odd_and_even_mode_counts() {
        for m in 0..7usize {
            let mut record = [[0.0f64; 4]; 8];
            record[0] = [1.0, -2.0, 3.0, 0.5];
            for j in 0..m {
                let f = j as f64 + 1.0;
                record[j + 1] = [f, -f * 0.5, 2.0 * f, 0.25 * f];
            }
            let q: [f64; 7] = [0.5, -1.0, 2.0, -0.25, 1.5, -3.0, 0.75];
            let mut w = [[0.0; 4]; 7];
            mode_weights(&q[..m], &mut w);
            let got = update(&record[..m + 1], &w[..m]);
            let mut want = record[0];
            for j in 0..m {
                for l in 0..3 {
                    want[l] += record[j + 1][l] * q[j];
                }
                want[3] += record[j + 1][3] * q[j].abs();
            }
            assert_eq!(got, want, "m = {m}");
        }
    }

    #[test]
    fn overlap_counts_touching_spheres() {
        assert!(spheres_overlap(
            [0.0f32, 0.0, 0.0, 1.0],
            [2.0, 0.0, 0.0, 1.0]
        ));
        assert!(!spheres_overlap(
            [0.0f32, 0.0, 0.0, 1.0],
            [2.001, 0.0, 0.0, 1.0]
        ));
        assert!(spheres_overlap(
            [0.0f64, 0.0, 0.0, 0.0],
            [0.0, 0.0, 0.0, 0.0]
        ));
    }
}
