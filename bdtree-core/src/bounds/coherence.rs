//! Temporal coherence: the single-flop sphere update of the BD-Tree paper (section 3.4).
//!
//! A body with coherence keeps, per node, a **reference sphere** updated exactly at a reference
//! coordinate vector `q_r` (center `c'_r = c + Ū q_r`, radius `R'_r`). For `q = q_r + δq` the
//! node keeps that center and grows its radius by the node's spread `D ≥ max_i ‖U_i‖₂`:
//!
//! ```text
//! R'' = R'_r + D ‖δq‖₂      (one multiply-add per node; ‖δq‖₂ once per body per step)
//! ```
//!
//! Proof: `x_i − c'_r = (p_i + U_i q_r − c'_r) + U_i δq`; the first term is within `R'_r`
//! (the exact update's bound at `q_r`), the second within `‖U_i‖₂ ‖δq‖₂ ≤ D ‖δq‖₂`.
//!
//! The bound loosens as `q` drifts from `q_r`; **re-anchoring** sets `q_r = q`, after which
//! each node gets one exact update (`4M` multiply-adds) the next time a query reaches it. The
//! [`Anchor`] policy chooses when; [`crate::Body::reanchor`] does it on request.
//!
//! Rounding: `‖δq‖₂` is computed in the body's scalar and multiplied by `1 + (M + 8) u`,
//! which covers the subtraction, the sum of squares and the square root; the sum
//! `R'_r + D ‖δq‖₂` is multiplied by `1 + 4u`; the reference center and radius carry the
//! rounding error of an exact update at `q_r`, so the sphere inflation uses the larger of the
//! per-step bounds `δ` at `q` and at `q_r` (see [`crate::bounds::sphere`]).

use crate::scalar::Scalar;

/// When a coherent body moves its reference coordinates `q_r` to the current `q`.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum Anchor<S> {
    /// Only when [`crate::Body::reanchor`] is called (until then the reference is the state
    /// the body had when coherence was turned on: `q = 0` for a new body).
    OnRequest,
    /// Every `n` steps (`n = 1` makes every step exact, at the cost of the reference cache).
    Steps(u32),
    /// When `‖q − q_r‖₂` exceeds the limit (in units of `q`).
    Drift(S),
    /// When the largest radius growth of the tree, `D_root ‖q − q_r‖₂` (the root's spread is
    /// the largest), exceeds this length (model units): every coherent sphere is then at most
    /// this much larger than its exact sphere at `q_r`. Choose it against the size of the
    /// leaves — a growth several times a leaf's radius multiplies the leaf tests.
    Growth(S),
}

/// One slot of a coherent body's reference cache: a node's body-frame sphere `[x, y, z, r]`
/// updated exactly at the reference coordinates, its spread `D`, and the anchor it belongs to.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
#[repr(C)]
pub struct ReferenceEntry<S: Scalar> {
    pub(crate) sphere: [S; 4],
    pub(crate) spread: S,
    pub(crate) anchor: u32,
}

impl<S: Scalar> ReferenceEntry<S> {
    /// An unused slot (the `Default`), usable in `const` and `static` initialisers.
    pub const EMPTY: Self = Self {
        sphere: [S::ZERO; 4],
        spread: S::ZERO,
        anchor: 0,
    };
}

/// `‖q − q_r‖₂`, rounded up so that it bounds the exact norm of the difference of the given
/// vectors (`3M + 2` operations).
pub fn drift_norm<S: Scalar>(
    q: impl IntoIterator<Item = S>,
    q_ref: impl IntoIterator<Item = S>,
) -> S {
    let mut sum = S::ZERO;
    let mut m = 0u32;
    for (a, b) in q.into_iter().zip(q_ref) {
        let d = a - b;
        sum = sum + d * d;
        m = m.saturating_add(1);
    }
    let slack = S::ONE + S::from_u32(m.min(1 << 20) + 8) * S::UNIT_ROUNDOFF;
    sum.sqrt() * slack
}

/// The coherent radius `(R'_r + D n)(1 + 4u)` for a drift norm `n` from [`drift_norm`].
#[inline(always)]
pub fn coherent_radius<S: Scalar>(reference_radius: S, spread: S, drift: S) -> S {
    let slack = S::ONE + S::from_u32(4) * S::UNIT_ROUNDOFF;
    (reference_radius + spread * drift) * slack
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drift_norm_bounds_the_exact_norm() {
        let q = [0.1f32, -3.0, 7.25, 1e-3];
        let r = [0.3f32, 2.0, -1.0, 0.0];
        let exact: f64 = q
            .iter()
            .zip(&r)
            .map(|(&a, &b)| (f64::from(a) - f64::from(b)).powi(2))
            .sum::<f64>()
            .sqrt();
        let n = drift_norm(q, r);
        assert!(f64::from(n) >= exact, "{n} < {exact}");
        assert!(f64::from(n) <= exact * 1.0001);
        assert_eq!(drift_norm::<f32>(q, q), 0.0);
    }

    #[test]
    fn coherent_radius_rounds_up() {
        let third = 1.0f32 / 3.0;
        let r = coherent_radius(1.0f32, 3.0, third);
        assert!(f64::from(r) >= 1.0 + 3.0 * f64::from(third));
    }
}
