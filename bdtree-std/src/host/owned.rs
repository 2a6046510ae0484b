//! Owned storage: a kernel [`KernelBody`] borrows its image bytes and its caches, while a host
//! body (a Python object, a world's entry) must own everything it uses. [`Owned`] owns the
//! caches and keeps the image bytes alive, and holds the kernel body that borrows them.
//!
//! This is the only `unsafe` of the crate, and it is small: the kernel body is stored with
//! `'static` lifetimes over memory this value owns (heap slices from `Box::into_raw`, freed in
//! `Drop` after the body is gone) or shares read-only (the image bytes, behind an `Arc`, never
//! mutated). The `'static` body never leaves this module's crate: [`Owned::body`] is
//! crate-private, and no code of the crate moves a kernel body out of an `Owned` or swaps two of
//! them (either would let a body outlive its caches).

use std::ptr::NonNull;
use std::sync::Arc;

use bdtree_core::{
    mode_storage, Body as KernelBody, BodyError, BoxEntry, CacheEntry, Image, Scalar, TrackEntry,
    VertexEntry,
};

use crate::build::Precision;
use crate::io::ImageBuf;
use bdtree_core::Header;

/// What a [`super::Tree`] shares with its bodies: the bytes (never changed after validation) and
/// what was read from them.
pub(crate) struct TreeData {
    /// The image viewed in its precision (the other is `None`), validated once: borrows
    /// `image`'s bytes (see [`super::owned::static_view`]).
    pub(crate) view32: Option<Image<'static, f32>>,
    pub(crate) view64: Option<Image<'static, f64>>,
    pub(crate) image: ImageBuf,
    pub(crate) header: Header,
    pub(crate) precision: Precision,
    pub(crate) nested: bool,
    /// The root's rest radius (the body's size in the absurd-state rule, [`super::Body`]).
    pub(crate) radius: f64,
    /// The image's depth (for stack capacities).
    pub(crate) depth: u32,
    /// The tree's box table, computed the first time a box-bound query asks for it
    /// ([`super::boxes`]): its `[S; 4]` rows in the tree's scalar, as 8-byte words.
    pub(crate) boxes: std::sync::OnceLock<Vec<u64>>,
    /// What the culled self-collision query reads of the tree, made the first time a body of it
    /// asks for its self pairs ([`super::query::self_pairs`]): vertex signatures, contours and
    /// subspace certificates.
    pub(crate) self_aids: std::sync::OnceLock<SelfTreeAids>,
}

/// The per-tree aids of sound self-collision culling ([`bdtree_core::SelfAids`]).
pub(crate) struct SelfTreeAids {
    pub(crate) signatures: Vec<[u32; 2]>,
    pub(crate) contours: crate::build::ContourTable,
    pub(crate) certificates: Vec<f32>,
    pub(crate) normals: crate::build::NodeRows,
    pub(crate) spheres: crate::build::NodeRows,
}

/// A scalar a tree can be stored in, and the view of a [`TreeData`] in it.
pub(crate) trait Stored: Scalar {
    /// The tree's image viewed in this scalar (`None` when it is stored in the other).
    fn view(tree: &TreeData) -> Option<Image<'static, Self>>;
}

impl Stored for f32 {
    fn view(tree: &TreeData) -> Option<Image<'static, f32>> {
        tree.view32
    }
}

impl Stored for f64 {
    fn view(tree: &TreeData) -> Option<Image<'static, f64>> {
        tree.view64
    }
}

/// Validates `image` in scalar `S` and views it with a `'static` lifetime.
///
/// # Safety
///
/// The view borrows `image`'s heap buffer: the caller must keep `image` alive, unchanged and
/// not dropped for as long as the view (or anything made from it) is used — [`TreeData`] holds
/// both, behind an `Arc`, and gives no mutable access to the bytes.
pub(crate) unsafe fn static_view<S: Scalar>(image: &ImageBuf) -> Result<Image<'static, S>, String> {
    let bytes: &[u8] = image.as_bytes();
    // SAFETY: the caller keeps the buffer alive and unchanged while the view is used (above).
    let bytes: &'static [u8] = unsafe { std::slice::from_raw_parts(bytes.as_ptr(), bytes.len()) };
    Image::parse(bytes).map_err(|e| e.to_string())
}

/// A heap slice owned through a raw pointer (so that the `&'static mut` the kernel body holds
/// is its only live reference), freed on drop.
struct Slots<T>(NonNull<[T]>);

impl<T> Slots<T> {
    /// Moves `items` to the heap; the returned slice lives until this value is dropped.
    fn new(items: Vec<T>) -> (Self, &'static mut [T]) {
        let raw: *mut [T] = Box::into_raw(items.into_boxed_slice());
        // SAFETY: `Box::into_raw` never returns null.
        let owner = unsafe { NonNull::new_unchecked(raw) };
        // SAFETY: `raw` points to an initialised, aligned heap slice; the reference made from
        // it (a child of `owner`, which stays valid under it) is the only one until `drop`,
        // which runs after the body holding it is gone (field order of `Owned`).
        let slice: &'static mut [T] = unsafe { &mut *raw };
        (Self(owner), slice)
    }
}

impl<T> Drop for Slots<T> {
    fn drop(&mut self) {
        // SAFETY: the pointer came from `Box::into_raw` in `new`, is freed only here, and the
        // only reference made from it (the kernel body's) was dropped before (field order of
        // `Owned`: `body` is declared, hence dropped, first).
        drop(unsafe { Box::from_raw(self.0.as_ptr()) });
    }
}

/// A kernel body in scalar `S` that owns its caches (sphere cache, mode storage, vertex cache,
/// track cache for the swept queries it ends) and keeps its image bytes alive.
pub(crate) struct Owned<S: Scalar> {
    /// Borrows the fields below: declared first, so dropped first.
    body: KernelBody<'static, 'static, S>,
    _cache: Slots<CacheEntry<S>>,
    _modes: Slots<S>,
    _vertices: Slots<VertexEntry<S>>,
    _boxes: Slots<BoxEntry<S>>,
    _tracks: Slots<TrackEntry<S>>,
    /// Keeps the image bytes alive (and unmoved: they are on the heap) while `body` reads them.
    _tree: Arc<TreeData>,
}

// SAFETY: the raw pointers of the `Slots` fields are used only in `Drop`; the body's
// references point into memory this value owns alone (the caches) or shares read-only (the
// image bytes, behind an `Arc` of immutable data). Moving the value to another thread moves
// that ownership with it.
unsafe impl<S: Scalar> Send for Owned<S> {}
// SAFETY: `&Owned` gives no access to the body or the caches (only `&mut` does).
unsafe impl<S: Scalar> Sync for Owned<S> {}

impl<S: Scalar> Owned<S> {
    /// A body over the tree at the identity pose and `q = 0`, with a sphere cache, mode
    /// storage, a vertex cache and a box cache for the self walks (unless `vertex_cache` is
    /// false: every sphere is then the tree's own update, a leaf's too) and a track cache sized
    /// from the image. The image must
    /// be in scalar `S` (checked: a mismatch is the parser's error).
    pub(crate) fn new(tree: &Arc<TreeData>, vertex_cache: bool) -> Result<Self, String>
    where
        S: Stored,
    {
        // The view of the image validated once by the tree: it borrows the bytes of the
        // `Arc<TreeData>` that `Self` keeps (`_tree`) for as long as the body lives.
        let image =
            S::view(tree).ok_or_else(|| format!("the tree is not stored in {}", S::NAME))?;
        let (cache, cache_slice) = Slots::new(vec![CacheEntry::EMPTY; image.tree.node_count()]);
        let (modes, modes_slice) = Slots::new(vec![S::ZERO; mode_storage(image.tree.modes())]);
        let vertex_count = if vertex_cache {
            image.model.vertex_count()
        } else {
            0
        };
        let (vertices, vertex_slice) = Slots::new(vec![VertexEntry::EMPTY; vertex_count]);
        let box_count = if vertex_cache {
            image.tree.node_count()
        } else {
            0
        };
        let (boxes, box_slice) = Slots::new(vec![BoxEntry::EMPTY; box_count]);
        let (tracks, track_slice) = Slots::new(vec![TrackEntry::EMPTY; image.tree.node_count()]);
        let body = KernelBody::new(&image, cache_slice, modes_slice)
            .and_then(|b| {
                if vertex_cache {
                    b.with_vertex_cache(vertex_slice)
                        .and_then(|b| b.with_box_cache(box_slice))
                } else {
                    Ok(b)
                }
            })
            .and_then(|b| b.with_track_cache(track_slice))
            .map_err(|e: BodyError| e.to_string())?;
        Ok(Self {
            body,
            _cache: cache,
            _modes: modes,
            _vertices: vertices,
            _boxes: boxes,
            _tracks: tracks,
            _tree: Arc::clone(tree),
        })
    }

    /// The kernel body. Crate-private: see the module docs.
    pub(crate) fn body(&mut self) -> &mut KernelBody<'static, 'static, S> {
        &mut self.body
    }
}
