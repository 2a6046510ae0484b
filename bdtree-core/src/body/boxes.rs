//! The optional box cache of self walks: each node's coordinate box of its deformed world
//! vertices (a leaf and the nodes up to four levels above the leaves), made once per step where
//! a self walk first reads it.

use super::{Body, BodyError};
use crate::scalar::Scalar;

/// One slot of a body's optional box cache (see [`Body::with_box_cache`]): for a leaf, the
/// coordinate box `lo..hi` of its triangle's deformed world vertices (their coordinate-wise
/// minimum and maximum, no rounding); for a node up to four levels above the leaves, the exact
/// union of its children's boxes; for a node higher up, or above a triangle with a NaN
/// coordinate, none (`bounded` 0). Valid for the step whose epoch it carries.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct BoxEntry<S: Scalar> {
    /// The box's low and high corners.
    pub(crate) lo: [S; 3],
    pub(crate) hi: [S; 3],
    /// The step it was made for (0: none).
    pub(crate) epoch: u32,
    /// 1 when the node has a box this step, 0 when it has none.
    pub(crate) bounded: u32,
}

impl<S: Scalar> BoxEntry<S> {
    /// An unused slot, of no step (the `Default`), usable in `const` and `static`
    /// initialisers.
    pub const EMPTY: Self = Self {
        epoch: 0,
        bounded: 0,
        lo: [S::ZERO; 3],
        hi: [S::ZERO; 3],
    };
}

impl<'c, S: Scalar> Body<'_, 'c, S> {
    /// Adds a cache of node boxes (at least one entry per node) for the lazy self-collision
    /// query ([`crate::collide_self_lazy`], and [`crate::collide_self_image`] with an image's
    /// self-collision data; the plain [`crate::collide_self`] does not read it): the box of each leaf's deformed triangle, and of each node up to four levels
    /// above the leaves (the exact union of its children's), made once per step where the
    /// walk first reads it. A pair of nodes whose four children have boxes tests the boxes
    /// instead of the children's spheres (the leaf step's own box filter, the same bits for two
    /// leaves: on a flat patch much tighter than a sphere). The pair queries do not read it.
    /// Costs 32 bytes per node in f32 (56 in f64); pays on bodies that fold onto themselves,
    /// with a vertex cache beside it.
    #[inline(never)]
    pub fn with_box_cache(mut self, cache: &'c mut [BoxEntry<S>]) -> Result<Self, BodyError> {
        let (needed, given) = (self.tree.node_count(), cache.len());
        let cache = cache
            .get_mut(..needed)
            .ok_or(BodyError::BoxCacheTooSmall { needed, given })?;
        cache.fill(BoxEntry::EMPTY);
        self.boxes = cache;
        Ok(self)
    }

    /// Puts `boxes` in the body's place for the box cache and hands back what was there: a
    /// self walk borrows the cache with an empty slice (`&mut []`) and returns it the same way.
    #[cfg(feature = "speed")]
    #[inline(always)]
    pub(crate) fn swap_boxes(&mut self, boxes: &'c mut [BoxEntry<S>]) -> &'c mut [BoxEntry<S>] {
        core::mem::replace(&mut self.boxes, boxes)
    }
}
