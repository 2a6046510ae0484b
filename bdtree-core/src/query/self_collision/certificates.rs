//! Subspace certificates (after Barbič and James 2010): per node, a condition on `q` alone
//! under which the node's patch cannot touch itself, checked in `O(M)` without deforming a
//! vertex.
//!
//! The theorem is the one the cones and contours use (every normal faces one direction `d`,
//! and the boundary loop projected along `d` is a simple curve), with `d` fixed per node at
//! build time (`bdtree_std::build::self_certificates` takes the patch's mean rest normal) and
//! both halves bounded over `q`. With the rest edges `e₁`, `e₂` of a triangle and `A₁`, `A₂`
//! the differences of its vertices' basis rows, `d·n(q) ≥ d·n₀ − Σⱼ |gⱼ| |qⱼ| −
//! (Σⱼ ‖A₁ⱼ‖ |qⱼ|)(Σⱼ ‖A₂ⱼ‖ |qⱼ|)`; two loop edges stay apart while the largest relative move
//! of their endpoints, `Σⱼ ‖P(uₓⱼ − u_yⱼ)‖ |qⱼ|`, stays below their rest distance. Divided by
//! the rest margin and maximised over the node's triangles and edge pairs, that leaves three
//! vectors of `M` weights per node — `g`, `γ` and `w` — and the node is certified when
//!
//! ```text
//! g·|q| + (γ·|q|)² < 1   and   w·|q| < 1.
//! ```
//!
//! It pays where the deformation is modest (a gently bent sheet is certified whole at the root
//! on about half its frames, for a few dozen flops instead of deforming every triangle); a
//! fold rotates the patch away from `d`, and there the cones (which read the deformed normals)
//! do the culling.

use crate::body::Body;
use crate::scalar::Scalar;

/// Weight vectors per node in a [`SelfCertificates`] table: `g`, `γ`, `w`, `M` weights each.
pub const CERTIFICATE_VECTORS: usize = 3;

/// Per-node subspace certificates, written once per tree by the host
/// (`bdtree_std::build::self_certificates`): node `k`'s `3M` weights (`g`, then `γ`, then `w`;
/// see the module docs) at `[3Mk, 3M(k + 1))`. A node without a certificate has infinite
/// weights, which never hold. Empty: off.
#[derive(Debug, Clone, Copy, Default)]
pub struct SelfCertificates<'a> {
    /// `nodes × 3 × M` weights, node after node.
    pub weights: &'a [f32],
}

impl SelfCertificates<'_> {
    /// No certificates: no unit is culled by them.
    pub const NONE: SelfCertificates<'static> = SelfCertificates { weights: &[] };

    /// Whether the table fits a tree of `nodes` nodes and `modes` modes (empty fits any).
    pub(super) fn fits(&self, nodes: usize, modes: usize) -> bool {
        self.weights.is_empty()
            || width(modes).and_then(|w| w.checked_mul(nodes)) == Some(self.weights.len())
    }

    /// Node `node`'s three weight vectors (`g`, `γ`, `w`) for `modes` modes.
    fn vectors(&self, node: usize, modes: usize) -> Option<[&[f32]; 3]> {
        let width = width(modes)?;
        let start = node.checked_mul(width)?;
        let weights = self.weights.get(start..start.checked_add(width)?)?;
        let (g, rest) = weights.split_at_checked(modes)?;
        let (gamma, w) = rest.split_at_checked(modes)?;
        Some([g, gamma, w])
    }

    /// Whether `node`'s patch is proven free of self-intersection at `body`'s current `q`.
    ///
    /// Conservative in floating point: each sum of `M` non-negative products is within a
    /// relative `(M + 1)u` of its true value, the square and the sum add a few roundings more,
    /// so both tests are made with their left side grown by `1 + (2M + 16)u` (and refused
    /// outright when that factor would pass 1.5).
    ///
    /// An empty table holds nowhere, whatever `M`: with no modes every weight vector is empty
    /// and its sums are 0, so without this check a body with `M = 0` would pass at every node,
    /// its rest shape never tested.
    pub fn hold<S: Scalar>(&self, body: &Body<'_, '_, S>, node: usize) -> bool {
        if self.weights.is_empty() {
            return false;
        }
        let q = body.q();
        let Some([g, gamma, w]) = self.vectors(node, q.len()) else {
            return false;
        };
        let Ok(m) = u32::try_from(q.len()) else {
            return false;
        };
        let slack = S::from_u32(m.saturating_mul(2).saturating_add(16)) * S::UNIT_ROUNDOFF;
        if slack >= S::from_f64(0.5) {
            return false;
        }
        let grow = S::ONE + slack;
        let dot = |v: &[f32]| {
            v.iter()
                .zip(q)
                .fold(S::ZERO, |sum, (&c, &x)| sum + S::from_f32(c) * x.abs())
        };
        let (g, gamma, w) = (dot(g), dot(gamma), dot(w));
        (g + gamma * gamma) * grow < S::ONE && w * grow < S::ONE
    }
}

/// Weights per node for `modes` modes.
fn width(modes: usize) -> Option<usize> {
    modes.checked_mul(CERTIFICATE_VECTORS)
}
