//! [`Body::fitted_sphere`]: a node's fitted sphere for the body's state, with its reach.

use super::Body;
use crate::bounds::fitted::{local_fitted, world_reach, FittedSphere};
use crate::bounds::sphere::rounding_bound;
use crate::scalar::{norm_inf, Scalar};

impl<S: Scalar> Body<'_, '_, S> {
    /// The node's fitted sphere for this step, in the world: the stored sphere moved by the
    /// node's mean displacement `Ū q` and the pose, its radius kept, with its reach
    /// `e + ΔRᵀ|q|` grown by the rounding of this computation and the body's rounding bound
    /// [`Body::error`] (see [`crate::bounds::fitted`]). An approximate answer beside the exact
    /// sphere ([`Body::sphere`]), which contains the node's deformed triangles and this does
    /// not. `4M + 12` multiply-adds, not cached. `None` for a bad index.
    pub fn fitted_sphere(&self, node: usize) -> Option<FittedSphere<S>> {
        let tree = &self.tree;
        let (rest, reach) = tree.fitted(node)?;
        let modes = tree.modes();
        let rows = (1..=modes).map_while(|r| tree.row(node, r));
        let (local, reach) = local_fitted([rest[0], rest[1], rest[2]], reach, rows, self.weights);
        // The fitted centre's own magnitude bound, as δ's X is the exact spheres' (the fitted
        // centre need not lie within the stored magnitude bounds): ‖c_f‖∞ + r + Σ A_j |q_j|.
        let stats = tree.stats();
        let mut x = norm_inf([rest[0], rest[1], rest[2]]) + rest[3];
        for (a, w) in stats.iter().skip(1).zip(self.weights.iter()) {
            x = x + *a * w[3];
        }
        let m = u32::try_from(modes).unwrap_or(u32::MAX);
        let delta = self.error + rounding_bound(x, m, self.pose.translation);
        let c = self.pose.apply(local);
        Some(FittedSphere {
            sphere: [c[0], c[1], c[2], rest[3]],
            reach: world_reach(reach, delta),
        })
    }
}
