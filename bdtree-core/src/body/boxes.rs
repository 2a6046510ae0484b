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
#[derive(Debug, Clone, Copy, Default, PartialEq)]
#[repr(C)]
pub struct BoxEntry<S: Scalar> {
    pub(crate) lo: [S; 3],
    pub(crate) hi: [S; 3],
    pub(crate) epoch: u32,
    pub(crate) bounded: u32,
}

impl<S: Scalar> BoxEntry<S> {
    /// An unused slot (the `Default`), usable in `const` and `static` initialisers.
    pub const EMPTY: Self = Self {
        lo: [S::ZERO; 3],
        hi: [S::ZERO; 3],
        epoch: 0,
        bounded: 0,
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
    pub fn with_box_cache(mut self, cache: &'c mut [BoxEntry<S>]) -> Result<Self, BodyError> {
        let needed = self.tree.node_count();
        if cache.len() < needed {
            return Err(BodyError::BoxCacheTooSmall {
                needed,
                given: cache.len(),
            });
        }
        for entry in cache.iter_mut() {
            entry.epoch = 0;
        }
        self.boxes = cache;
        Ok(self)
    }

    /// Lends the box cache (empty when the body has none) to a self walk, leaving an empty one
    /// behind until [`Body::return_boxes`].
    #[cfg(feature = "speed")]
    #[inline(always)]
    pub(crate) fn lend_boxes(&mut self) -> &'c mut [BoxEntry<S>] {
        core::mem::take(&mut self.boxes)
    }

    /// Takes back the box cache [`Body::lend_boxes`] lent.
    #[cfg(feature = "speed")]
    #[inline(always)]
    pub(crate) fn return_boxes(&mut self, boxes: &'c mut [BoxEntry<S>]) {
        self.boxes = boxes;
    }
}
