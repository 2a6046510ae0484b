//! The **fitted sphere** of a node under deformation and its **reach**: how far its points may
//! lie from the deformed node's own triangles.
//!
//! A version-5 image stores beside every node's exact sphere a fitted one `(c_f, r)`, placed by
//! the builder to fit the body (`bdtree_std::build::fitted`), and its rest reach `e`: no point of
//! the rest fitted sphere that lies outside the body is farther than `e` from the node's own
//! triangles. It moves like the exact sphere's centre and keeps its radius:
//!
//! ```text
//! c_f' = c_f + Ū q            reach = e + ΔRᵀ|q|
//! ```
//!
//! **Why the reach holds.** Let `x = c_f + v`, `|v| ≤ r`, be a point of the rest fitted sphere
//! outside the body and `y = Σ_i b_i p_i` (barycentric over one own triangle) a point of the
//! node's triangles with `|x − y| ≤ e`. Deformed, `x' = x + Ū q` and `y' = Σ_i b_i (p_i + U_i q)`
//! is a point of the deformed triangle, and
//!
//! ```text
//! |x' − y'| = |x − y + Σ_i b_i (Ū − U_i) q| ≤ e + Σ_j max_i |U_ij − Ū_j| |q_j| = e + ΔRᵀ|q|
//! ```
//!
//! (`Σ b_i = 1`, `b_i ≥ 0`; `ΔR` is the node's own growth, BD's per-node bound, stored in its
//! rows). The rigid pose moves `x'` and `y'` alike. So every point of the deformed fitted
//! sphere whose rest pre-image `x' − Ū q` lies outside the rest body is within the reach of the
//! deformed node's own triangles. The reach bounds how far outside the deformed body a fitted
//! sphere may report contact. It is **not** a containment bound: the fitted sphere need not
//! contain the deformed triangles, so a fitted sphere is an approximate answer beside the exact
//! one (the exact sphere's `R + ΔRᵀ|q|` does contain them), never in its place.
//!
//! **Rounding.** [`local_fitted`] sums `M + 1` non-negative terms (`ΔR_j |q_j|` products and
//! `e`): the computed sum `ŝ` is at least `s (1 − γ_{M+2})`, so `ŝ (1 + (2M + 8) u)` is at least
//! `s` (rounded product included). [`world_reach`] adds twice a rounding bound `δ` per
//! coordinate of the world centre (`√3 δ` in length) and grows the total by `4u` for its own
//! two roundings: the reach then holds for the computed world centre against the exact
//! deformed triangles of the caller's state.

use crate::scalar::Scalar;

/// A node's fitted sphere for one state: the world sphere `[x, y, z, r]` and its reach (see the
/// module docs), never below the true distance bound.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct FittedSphere<S> {
    /// World centre and radius.
    pub sphere: [S; 4],
    /// Every point of the sphere whose rest pre-image lies outside the rest body is within this
    /// distance of the node's deformed own triangles.
    pub reach: S,
}

/// The fitted centre `c_f + Ū q` in the body frame and the reach `e + ΔRᵀ|q|` rounded up, from
/// the node's mode rows `[Ū_j, ΔR_j]` and the mode weights `[q_j, q_j, q_j, |q_j|]`
/// ([`crate::bounds::sphere::mode_weights`]). `4M` multiply-adds.
pub fn local_fitted<S: Scalar>(
    center: [S; 3],
    reach: S,
    rows: impl IntoIterator<Item = [S; 4]>,
    weights: &[[S; 4]],
) -> ([S; 3], S) {
    let mut c = center;
    let mut s = reach;
    let mut m = 0u32;
    for (row, w) in rows.into_iter().zip(weights) {
        c = [
            c[0] + row[0] * w[0],
            c[1] + row[1] * w[1],
            c[2] + row[2] * w[2],
        ];
        s = s + row[3] * w[3];
        m = m.saturating_add(1);
    }
    let m = S::from_u32(m.min(1 << 20));
    let grow = S::ONE + (m + m + S::from_u32(8)) * S::UNIT_ROUNDOFF;
    (c, s * grow)
}

/// The world reach of a fitted sphere whose world centre is within `delta` per coordinate of
/// the exact one: `(local + 2δ)(1 + 4u)`.
pub fn world_reach<S: Scalar>(local: S, delta: S) -> S {
    let grow = S::ONE + S::from_u32(4) * S::UNIT_ROUNDOFF;
    (local + delta + delta) * grow
}
