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
use crate::image::self_tables::SelfCertificates;
use crate::scalar::Scalar;

impl SelfCertificates<'_> {
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
