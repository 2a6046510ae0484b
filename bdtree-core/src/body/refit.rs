//! Tight spheres for a query that reaches the whole body (self-collision): every node's sphere
//! rebuilt bottom-up from the deformed triangles, in the body's own sphere cache.

use super::{Body, CacheEntry};
use crate::bounds::sphere::enclosing_sphere;
use crate::image::tree::NONE;
use crate::scalar::Scalar;

impl<S: Scalar> Body<'_, '_, S> {
    /// Every node's sphere for this step rebuilt from the bottom: a leaf's from its deformed
    /// triangle (as with a vertex cache, inflated by `3δ`), an internal node's the sphere
    /// enclosing its two children's ([`enclosing_sphere`]). A node whose sphere an earlier
    /// query already computed this step keeps it (both contain the node's deformed vertices;
    /// a sphere once given out stays the step's, so [`Body::sphere`] answers the same whoever
    /// asks first).
    ///
    /// The BD-Tree sphere of a node carries `Σ_j ΔR_j |q_j|`, which a large local rotation (a
    /// fold, a crumple) makes many times the node's true size; these spheres follow the
    /// deformed shape. Cost: one deformation per vertex with a vertex cache (three per
    /// triangle without), and two square roots per internal node, in place of the `4M`
    /// multiply-adds of each node's update. Worth it only for a query that visits most of the
    /// tree, as self-collision does. `None` for an inconsistent tree.
    pub(crate) fn refit(&mut self) -> Option<()> {
        let links = self.tree.links_all();
        let epoch = self.epoch;
        for node in (0..links.len()).rev() {
            let [left, right, triangle, _] = *links.get(node)?;
            if self.cache.get(node)?.epoch == epoch {
                // A sphere this step already gave out stays the one of the step.
                continue;
            }
            let sphere = if triangle != NONE {
                self.triangle_sphere(triangle as usize)?
            } else {
                let child = |k: u32| self.cache.get(k as usize).map(|e| e.sphere);
                enclosing_sphere(child(left)?, child(right)?)
            };
            *self.cache.get_mut(node)? = CacheEntry { sphere, epoch };
            self.updates = self.updates.wrapping_add(1);
        }
        Some(())
    }
}
