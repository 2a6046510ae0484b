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
///
/// Runs `min(record.len() − 1, weights.len())` modes. Every path below computes the same sum in
/// the same order (two accumulators, even and odd modes, the odd one started by the product of
/// mode 1, a trailing odd mode added to the even one, the two added last), so the bits are the
/// same on every target and for every mode count:
///
/// * with the `asm` feature on 32-bit ARM with a hardware FPU (Cortex-M4F/M7/M33, Cortex-R),
///   f32 runs `vfp::update`: multi-register loads of two rows and two weights at a time;
/// * otherwise, with the `unrolled` feature (on by default), mode counts in [`FIXED_MODES`] run
///   a kernel unrolled for that count (the mode count is known only at run time; this dispatch
///   gives the traversal the unrolled loop);
/// * other counts, and every count without `unrolled`, run the general loop.
#[inline]
pub fn update<S: Scalar>(record: &[[S; 4]], weights: &[[S; 4]]) -> [S; 4] {
    #[cfg(all(feature = "asm", target_arch = "arm", target_abi = "eabihf"))]
    if S::BYTES == 4 {
        if let (Ok(r), Ok(w)) = (
            bytemuck::try_cast_slice::<[S; 4], [f32; 4]>(record),
            bytemuck::try_cast_slice::<[S; 4], [f32; 4]>(weights),
        ) {
            if let Ok(out) = bytemuck::try_cast::<[f32; 4], [S; 4]>(vfp::update(r, w)) {
                return out;
            }
        }
    }
    update_portable(record, weights)
}

/// [`update`] in Rust on every target (what it runs without the `asm` feature): the unrolled
/// kernel for mode counts in [`FIXED_MODES`] (with the `unrolled` feature), the loop for the
/// others.
#[inline]
pub fn update_portable<S: Scalar>(record: &[[S; 4]], weights: &[[S; 4]]) -> [S; 4] {
    #[cfg(feature = "unrolled")]
    {
        let m = weights.len().min(record.len().saturating_sub(1));
        macro_rules! dispatch {
            ($($modes:literal)*) => {
                match m {
                    $($modes => {
                        if let (Some(r), Some(w)) = (
                            record.first_chunk::<{ $modes + 1 }>(),
                            weights.first_chunk::<$modes>(),
                        ) {
                            return update_fixed(r, w);
                        }
                    })*
                    _ => {}
                }
            };
        }
        dispatch!(4 6 8 10 12 16);
    }
    update_loop(record, weights)
}

/// Mode counts with an unrolled kernel with the `unrolled` feature (see [`update`]); other
/// counts run a loop.
pub const FIXED_MODES: [usize; 6] = [4, 6, 8, 10, 12, 16];

/// [`update`] unrolled for `M` modes (`R = M + 1` rows): every load at a fixed offset, no loop.
#[cfg(feature = "unrolled")]
#[inline(never)]
fn update_fixed<S: Scalar, const R: usize, const M: usize>(
    record: &[[S; 4]; R],
    weights: &[[S; 4]; M],
) -> [S; 4] {
    let Some((head, cols)) = record.split_first() else {
        return [S::ZERO; 4];
    };
    let mut even = *head;
    let mut odd = [S::ZERO; 4];
    // Indices, not `chunks_exact`: with constant `M` the loop unrolls and every check folds
    // away at opt-level 3; at `s` the checks stay but cannot fail (no division by a chunk size
    // that the optimiser no longer sees).
    let pair = |j: usize| match (
        cols.get(j),
        cols.get(j + 1),
        weights.get(j),
        weights.get(j + 1),
    ) {
        (Some(c0), Some(c1), Some(w0), Some(w1)) => Some((c0, c1, lanes(w0), lanes(w1))),
        _ => None,
    };
    if let Some((c0, c1, w0, w1)) = pair(0) {
        for l in 0..4 {
            even[l] = even[l] + c0[l] * w0[l];
            odd[l] = c1[l] * w1[l];
        }
    }
    let mut j = 2;
    while j + 1 < M {
        if let Some((c0, c1, w0, w1)) = pair(j) {
            for l in 0..4 {
                even[l] = even[l] + c0[l] * w0[l];
                odd[l] = odd[l] + c1[l] * w1[l];
            }
        }
        j += 2;
    }
    if M % 2 == 1 {
        if let (Some(c), Some(w)) = (cols.get(M - 1), weights.get(M - 1)) {
            let w = lanes(w);
            for l in 0..4 {
                even[l] = even[l] + c[l] * w[l];
            }
        }
    }
    [
        even[0] + odd[0],
        even[1] + odd[1],
        even[2] + odd[2],
        even[3] + odd[3],
    ]
}

/// [`update`] for any mode count: the same sum as [`update_fixed`], as a loop.
#[inline(never)]
fn update_loop<S: Scalar>(record: &[[S; 4]], weights: &[[S; 4]]) -> [S; 4] {
    let Some((&head, cols)) = record.split_first() else {
        return [S::ZERO; 4];
    };
    // Both to the mode count, so that a trailing odd mode pairs row and weight of that mode.
    let m = weights.len().min(cols.len());
    let (Some(cols), Some(weights)) = (cols.get(..m), weights.get(..m)) else {
        return head;
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

/// The f32 update in ARM VFP assembly (see the module).
#[cfg(all(feature = "asm", target_arch = "arm", target_abi = "eabihf"))]
#[allow(unsafe_code)]
pub mod vfp;

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
    rounding_bound(x, m, translation)
}

/// [`error_bound`] from its parts: `x = X₀ + Σ A_j |q_j|` and `M`.
pub(crate) fn rounding_bound<S: Scalar>(x: S, modes: u32, translation: [S; 3]) -> S {
    let t = translation[0]
        .abs()
        .max(translation[1].abs())
        .max(translation[2].abs());
    let m = S::from_u32(modes.min(1 << 20));
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

/// A sphere `[x, y, z, r]` containing both spheres `a` and `b` (the smallest one up to
/// rounding: its centre on the segment between theirs), conservatively in floating point:
/// whatever the rounding of the centre, the radius is measured from the computed centre to
/// each given sphere's far side and grown by `16u`, which covers the rounding of the two
/// distances (a square root of a sum of three squares of differences: under `6u` relative)
/// and of the sums. Two square roots and a division.
#[inline]
pub fn enclosing_sphere<S: Scalar>(a: [S; 4], b: [S; 4]) -> [S; 4] {
    let d = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
    let distance = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt();
    // Where the centre sits on the segment from a's centre (0) to b's (1): the midpoint of the
    // two far sides, clamped (one sphere inside the other gives 0 or 1). A zero or non-finite
    // distance takes the larger sphere's centre.
    let t = (distance + b[3] - a[3]) / (distance + distance);
    let t = if t.is_finite() {
        t.max(S::ZERO).min(S::ONE)
    } else if a[3] >= b[3] {
        S::ZERO
    } else {
        S::ONE
    };
    let c = [a[0] + t * d[0], a[1] + t * d[1], a[2] + t * d[2]];
    let reach = |s: [S; 4]| {
        let e = [s[0] - c[0], s[1] - c[1], s[2] - c[2]];
        (e[0] * e[0] + e[1] * e[1] + e[2] * e[2]).sqrt() + s[3]
    };
    let grow = S::ONE + S::from_u32(16) * S::UNIT_ROUNDOFF;
    [c[0], c[1], c[2], reach(a).max(reach(b)) * grow]
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

    /// The fixed-M kernels, the loop and the dispatch give the same bits for every mode count
    /// (0 to 20), in f32 and f64, including signed zeros.
    #[test]
    fn every_kernel_gives_the_same_bits() {
        fn check<S: Scalar>(scale: f64) {
            let mut record = [[S::ZERO; 4]; 21];
            let mut v = 0.37f64;
            for row in record.iter_mut() {
                for x in row.iter_mut() {
                    v = (v * 7.31 + 0.13) % 2.0 - 1.0;
                    *x = S::from_f64(v * scale);
                }
            }
            record[0] = [S::from_f64(-0.0), S::ZERO, S::from_f64(1.5), S::ZERO];
            let mut q = [S::ZERO; 20];
            for (j, x) in q.iter_mut().enumerate() {
                *x = S::from_f64(0.1 * j as f64 - 0.95);
            }
            q[3] = S::from_f64(-0.0);
            let mut w = [[S::ZERO; 4]; 20];
            mode_weights(&q, &mut w);
            let w_all = w;
            let bits = |x: [S; 4]| x.map(|v| v.to_f64().to_bits());
            for m in 0..=20 {
                let (r, w) = (&record[..m + 1], &w_all[..m]);
                let want = bits(update_loop(r, w));
                assert_eq!(bits(update(r, w)), want, "dispatch, m = {m}");
                // More weights than rows (or rows than weights): the shorter one decides.
                assert_eq!(bits(update(r, &w_all[..])), want, "long weights, m = {m}");
                if m < 20 {
                    assert_eq!(bits(update(&record[..], w)), want, "long record, m = {m}");
                }
            }
            #[cfg(feature = "unrolled")]
            {
                let r11: &[[S; 4]; 11] = record.first_chunk().expect("21 rows");
                let w10: &[[S; 4]; 10] = w.first_chunk().expect("20 weights");
                assert_eq!(
                    bits(update_fixed(r11, w10)),
                    bits(update_loop(&record[..11], &w[..10]))
                );
            }
        }
        check::<f32>(1.0);
        check::<f64>(1.0);
        check::<f32>(1e-30);
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

    #[test]
    fn enclosing_sphere_contains_both_spheres_in_f32() {
        // Random pairs (nested, apart, coincident, far from the origin): every point on either
        // sphere's far side along the six axes and the centre line is inside the result,
        // measured in f64.
        let mut seed = 0x2545_f491_u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 11) as f64 / (1u64 << 53) as f64
        };
        for case in 0..20_000 {
            let scale = [1e-3, 1.0, 1e3][case % 3];
            let offset = if case % 5 == 0 { 1e4 } else { 0.0 };
            let mut sphere = || -> [f32; 4] {
                [
                    (offset + scale * (next() - 0.5)) as f32,
                    (scale * (next() - 0.5)) as f32,
                    (scale * (next() - 0.5)) as f32,
                    (scale * next() * next()) as f32,
                ]
            };
            let a = sphere();
            let b = if case % 7 == 0 { a } else { sphere() };
            let e = enclosing_sphere(a, b);
            let c = [e[0] as f64, e[1] as f64, e[2] as f64];
            for s in [a, b] {
                let d = [0, 1, 2].map(|k| s[k] as f64 - c[k]);
                let distance = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt();
                assert!(
                    distance + s[3] as f64 <= e[3] as f64,
                    "{s:?} not inside {e:?} (case {case})"
                );
            }
            // Never much larger than the smallest enclosing sphere.
            let d = [0, 1, 2].map(|k| b[k] as f64 - a[k] as f64);
            let gap = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt();
            let best = ((gap + a[3] as f64 + b[3] as f64) / 2.0)
                .max(a[3] as f64)
                .max(b[3] as f64);
            assert!(
                e[3] as f64 <= best * 1.001 + 1e-6 * (scale + offset),
                "{e:?} vs {best}"
            );
        }
    }
}
