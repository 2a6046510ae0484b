//! Owned trees and bodies: a kernel [`Body`] borrows its image bytes and its caches, while a
//! Python object must own everything it uses. [`TreeData`] owns the image bytes (shared by
//! `Arc` with every body over it); [`Owned`] owns a body's caches as leaked boxes and the
//! body that borrows them, and frees them in the right order.

use std::ptr::NonNull;
use std::sync::Arc;

use bdtree_core::{mode_storage, Body, CacheEntry, Header, Image, Scalar, VertexEntry};
use bdtree_std::io::ImageBuf;

/// A validated tree image, owned.
pub struct TreeData {
    /// The bytes (never changed after validation).
    pub image: ImageBuf,
    /// Its header.
    pub header: Header,
}

impl TreeData {
    /// Validates an image in its own precision.
    pub fn new(image: ImageBuf) -> Result<Self, String> {
        let header = image.header().map_err(|e| e.to_string())?;
        let nested = match header.scalar_bytes {
            4 => image.parse::<f32>().map(|i| i.tree.is_nested()),
            _ => image.parse::<f64>().map(|i| i.tree.is_nested()),
        };
        nested.map_err(|e| e.to_string())?;
        Ok(Self { image, header })
    }

    /// "f32" or "f64".
    pub fn precision_name(&self) -> &'static str {
        if self.header.scalar_bytes == 4 {
            "f32"
        } else {
            "f64"
        }
    }

    /// Whether the tree is nested (proxy queries work).
    pub fn nested(&self) -> bool {
        match self.header.scalar_bytes {
            4 => self.image.parse::<f32>().is_ok_and(|i| i.tree.is_nested()),
            _ => self.image.parse::<f64>().is_ok_and(|i| i.tree.is_nested()),
        }
    }
}

/// A leaked boxed slice, freed by [`Owned`]'s `Drop`.
struct Leaked<T>(NonNull<[T]>);

impl<T> Leaked<T> {
    /// Leaks `items`; the returned slice lives until [`Leaked::free`].
    fn new(items: Vec<T>) -> (Self, &'static mut [T]) {
        let slice: &'static mut [T] = Box::leak(items.into_boxed_slice());
        let ptr = NonNull::from(&mut *slice);
        (Self(ptr), slice)
    }

    /// Frees the slice.
    ///
    /// # Safety
    ///
    /// Once, after every reference made from it is gone.
    unsafe fn free(&mut self) {
        // SAFETY: `self.0` came from `Box::leak` of a boxed slice (in `new`); the caller
        // guarantees that this is the only access left and that it happens once.
        drop(unsafe { Box::from_raw(self.0.as_ptr()) });
    }
}

/// A kernel body that owns what it borrows.
pub struct Owned<S: Scalar> {
    /// Borrows `cache`, `modes`, `vertices` and `tree`'s bytes: dropped first (in `Drop`).
    body: Option<Body<'static, 'static, S>>,
    cache: Leaked<CacheEntry<S>>,
    modes: Leaked<S>,
    vertices: Leaked<VertexEntry<S>>,
    /// Keeps the image bytes alive (and unmoved: they are on the heap) while `body` reads them.
    tree: Arc<TreeData>,
}

// SAFETY: the raw pointers of the `Leaked` fields are used only in `Drop`; the body's
// references point into memory this value owns alone (the caches) or shares read-only (the
// image bytes, behind an `Arc`). Moving the value to another thread moves that ownership.
unsafe impl<S: Scalar> Send for Owned<S> {}
// SAFETY: `&Owned` gives no access to the body or the caches (only `&mut` does).
unsafe impl<S: Scalar> Sync for Owned<S> {}

impl<S: Scalar> Owned<S> {
    /// A body over the tree, at the identity pose and `q = 0`, with a vertex cache.
    pub fn new(tree: Arc<TreeData>) -> Result<Self, String> {
        let bytes: &[u8] = tree.image.as_bytes();
        // SAFETY: the bytes are the heap buffer of an `ImageBuf` inside an `Arc<TreeData>` that
        // `Self` keeps (`tree`) for as long as the body lives and never changes.
        let bytes: &'static [u8] =
            unsafe { std::slice::from_raw_parts(bytes.as_ptr(), bytes.len()) };
        let image: Image<'static, S> = Image::parse(bytes).map_err(|e| e.to_string())?;
        let (cache, cache_slice) =
            Leaked::new(vec![CacheEntry::default(); image.tree.node_count()]);
        let (modes, modes_slice) = Leaked::new(vec![S::ZERO; mode_storage(image.tree.modes())]);
        let (vertices, vertex_slice) =
            Leaked::new(vec![VertexEntry::default(); image.model.vertex_count()]);
        let mut owned = Self {
            body: None,
            cache,
            modes,
            vertices,
            tree: Arc::clone(&tree),
        };
        let body = Body::new(&image, cache_slice, modes_slice)
            .and_then(|b| b.with_vertex_cache(vertex_slice))
            .map_err(|e| e.to_string())?;
        owned.body = Some(body);
        Ok(owned)
    }

    /// Nodes of the body's tree.
    pub fn nodes(&self) -> usize {
        self.tree.header.nodes as usize
    }

    /// The kernel body.
    pub fn body(&mut self) -> &mut Body<'static, 'static, S> {
        match self.body.as_mut() {
            Some(b) => b,
            // `new` returns only bodies that hold one.
            None => unreachable!("an Owned body always holds a body"),
        }
    }
}

impl<S: Scalar> Drop for Owned<S> {
    fn drop(&mut self) {
        self.body = None;
        // SAFETY: the only references into these slices were the body's, dropped above.
        unsafe {
            self.cache.free();
            self.modes.free();
            self.vertices.free();
        }
    }
}
