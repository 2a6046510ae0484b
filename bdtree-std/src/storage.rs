//! The host's storage for kernel bodies: the caller-owned arrays a [`Body`] borrows, sized from
//! the image — the one place the host decides a body's capacity (there is none: any mode count
//! the image holds).

use bdtree_core::{mode_storage, Body, BodyError, CacheEntry, Image, Scalar};

/// The arrays a [`Body`] borrows: one sphere-cache entry per node and the mode storage
/// ([`mode_storage`]`(M)` scalars: `q` and the update weights).
///
/// ```
/// # use bdtree_std::BodyStorage;
/// # fn run(image: &bdtree_core::Image<'_, f32>) -> Result<(), bdtree_core::BodyError> {
/// let mut storage = BodyStorage::for_image(image);
/// let body = storage.body(image)?; // borrows `storage` for as long as it lives
/// # Ok(()) }
/// ```
#[derive(Debug, Clone, Default)]
pub struct BodyStorage<S: Scalar> {
    /// The sphere cache (its length is what the body is given: a short cache is refused).
    pub cache: Vec<CacheEntry<S>>,
    /// The mode storage; grown to the image's mode count by [`BodyStorage::body`].
    pub modes: Vec<S>,
}

impl<S: Scalar> BodyStorage<S> {
    /// Storage with a sphere cache of `nodes` entries (mode storage is sized when a body is
    /// made).
    pub fn new(nodes: usize) -> Self {
        Self {
            cache: vec![CacheEntry::default(); nodes],
            modes: Vec::new(),
        }
    }

    /// Storage for bodies over `image`.
    pub fn for_image(image: &Image<'_, S>) -> Self {
        let mut storage = Self::new(image.tree.node_count());
        storage.modes = vec![S::ZERO; mode_storage(image.tree.modes())];
        storage
    }

    /// A body over `image` at the identity pose and `q = 0`, borrowing this storage.
    pub fn body<'t>(&mut self, image: &Image<'t, S>) -> Result<Body<'t, '_, S>, BodyError> {
        let needed = mode_storage(image.tree.modes());
        if self.modes.len() < needed {
            self.modes.resize(needed, S::ZERO);
        }
        Body::new(image, &mut self.cache, &mut self.modes)
    }
}
