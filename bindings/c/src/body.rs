//! Bodies: the caller's object and storage (`bdtree_body_storage_size_*`,
//! `bdtree_body_init_*`), the state of a step (`bdtree_body_set_state_*`, from doubles at a
//! floating origin: `bdtree_floating_origin`), node spheres.

use core::ffi::c_void;

use bdtree_core::body::{BoxEntry, CacheEntry, VertexEntry};
use bdtree_core::{mode_storage, Body, Image, Pose, Scalar};

use crate::ffi::{self, holds, Precision, Slot};
use crate::image::{bdtree_image_f32, bdtree_image_f64, ImageSlot};
use crate::status::{bdtree_status, status, Result};

/// Alignment, in bytes, of the storage given to `bdtree_body_init_*` and
/// `bdtree_traversal_init_*` (and enough for tree images of either scalar).
pub const BDTREE_STORAGE_ALIGN: usize = 8;

/// `options` bit of `bdtree_body_storage_size_*`/`bdtree_body_init_*`: add a cache of deformed
/// world vertices, one entry per model vertex (`vertices` of `bdtree_image_info`):
/// `BDTREE_VERTEX_ENTRY_BYTES_F32` (16) bytes per vertex in f32, `…_F64` (32) in f64, in the
/// body's storage (`BDTREE_BODY_STORAGE_F32(nodes, modes, vertices)`). Each vertex a leaf test
/// reaches is then deformed once per step instead of once per test, and each leaf is bounded
/// by the sphere of its deformed triangle rather than its BD-Tree sphere (whose radius carries
/// `Σ |q_j| ΔR_j`), so fewer node pairs pass. On the Cortex-M4F this cuts `bdtree_collide_f32`
/// by 1.2× (touching, rigid bodies) to 11.7× (fold, 90 modes) on the fixture scenes, 1.9× on
/// demo (the cost table at the top of this header), and it changes the work counters
/// (`bdtree_stats`: fewer node pairs visited and sphere tests, 27 % and 14 % fewer over those
/// scenes): compare counters only between bodies made with the same options. Answers do not
/// change (the same pairs, contacts and distances). Use it unless RAM is shorter than time.
pub const BDTREE_BODY_VERTEX_CACHE: u32 = 1;

/// `options` bit of `bdtree_body_storage_size_*`/`bdtree_body_init_*`: add a cache of node
/// boxes for the culled self-collision query (`bdtree_collide_self_*` on an image with its
/// self-collision data; not the self pairs of `bdtree_collide_world_*`), one entry per node (`nodes` of `bdtree_image_info`):
/// `BDTREE_BOX_ENTRY_BYTES_F32` (32) bytes per node in f32, `…_F64` (56) in f64, after the
/// other parts of the body's storage (`BDTREE_BODY_STORAGE_F32(nodes, modes, vertices) +
/// BDTREE_BODY_BOX_STORAGE_F32(nodes)`). Each leaf's box of its deformed triangle, and each
/// node's up to four levels above the leaves, is made once per step where the self walk first
/// reads it, and tested instead of the children's spheres: fewer node pairs on a body that
/// folds onto itself. Answers do not change; the work counters of self queries do. Pays with
/// `BDTREE_BODY_VERTEX_CACHE` beside it (without it each leaf's box deforms its triangle
/// again); pair queries do not read it. An f64 body on a bare-metal target does not read it
/// either (the boxes' code is left out of f64 builds there, for the flash).
pub const BDTREE_BODY_BOX_CACHE: u32 = 2;

/// Bytes of one sphere-cache entry in f32 (`[x, y, z, r]` and a step mark).
pub const BDTREE_CACHE_ENTRY_BYTES_F32: usize = 20;

/// Bytes of one sphere-cache entry in f64.
pub const BDTREE_CACHE_ENTRY_BYTES_F64: usize = 40;

/// Bytes of one vertex-cache entry in f32 (`[x, y, z]` and a step mark).
pub const BDTREE_VERTEX_ENTRY_BYTES_F32: usize = 16;

/// Bytes of one vertex-cache entry in f64.
pub const BDTREE_VERTEX_ENTRY_BYTES_F64: usize = 32;

/// Bytes of one box-cache entry in f32 (a box `lo`, `hi`, a step mark and whether it holds).
pub const BDTREE_BOX_ENTRY_BYTES_F32: usize = 32;

/// Bytes of one box-cache entry in f64.
pub const BDTREE_BOX_ENTRY_BYTES_F64: usize = 56;

/// Scalars of mode storage per mode: `q_j` and the update's weights `[q_j, q_j, q_j, |q_j|]`.
pub const BDTREE_SCALARS_PER_MODE: usize = 5;

// The sizes the header states are the kernel's, on every target this library builds for.
const _: () = {
    use core::mem::{align_of, size_of};
    assert!(size_of::<CacheEntry<f32>>() == BDTREE_CACHE_ENTRY_BYTES_F32);
    assert!(size_of::<CacheEntry<f64>>() == BDTREE_CACHE_ENTRY_BYTES_F64);
    assert!(size_of::<VertexEntry<f32>>() == BDTREE_VERTEX_ENTRY_BYTES_F32);
    assert!(size_of::<VertexEntry<f64>>() == BDTREE_VERTEX_ENTRY_BYTES_F64);
    assert!(align_of::<CacheEntry<f64>>() <= BDTREE_STORAGE_ALIGN);
    assert!(align_of::<VertexEntry<f64>>() <= BDTREE_STORAGE_ALIGN);
    assert!(size_of::<BoxEntry<f32>>() == BDTREE_BOX_ENTRY_BYTES_F32);
    assert!(size_of::<BoxEntry<f64>>() == BDTREE_BOX_ENTRY_BYTES_F64);
    assert!(align_of::<BoxEntry<f64>>() <= BDTREE_STORAGE_ALIGN);
    assert!(mode_storage(1) == BDTREE_SCALARS_PER_MODE);
};

/// 64-bit words of a `bdtree_body_f32` on a 64-bit target.
#[cfg(not(target_pointer_width = "32"))]
pub const BDTREE_BODY_WORDS_F32: usize = 88;

/// 64-bit words of a `bdtree_body_f32` on a 32-bit target.
#[cfg(target_pointer_width = "32")]
pub const BDTREE_BODY_WORDS_F32: usize = 52;

/// 64-bit words of a `bdtree_body_f64` on a 64-bit target.
#[cfg(not(target_pointer_width = "32"))]
pub const BDTREE_BODY_WORDS_F64: usize = 104;

/// 64-bit words of a `bdtree_body_f64` on a 32-bit target.
#[cfg(target_pointer_width = "32")]
pub const BDTREE_BODY_WORDS_F64: usize = 62;

/// A body in f32 (`bdtree_body_init_f32`): pose, `q` and the lazy sphere cache in the caller's
/// storage. It borrows the image bytes and its storage until it is no longer used (there is
/// nothing to free). Opaque; do not copy (two copies would share one cache).
#[repr(C)]
pub struct bdtree_body_f32 {
    _opaque: [u64; BDTREE_BODY_WORDS_F32],
}

/// A body in f64 (`bdtree_body_init_f64`).
#[repr(C)]
pub struct bdtree_body_f64 {
    _opaque: [u64; BDTREE_BODY_WORDS_F64],
}

holds!(bdtree_body_f32, Body<'static, 'static, f32>);
holds!(bdtree_body_f64, Body<'static, 'static, f64>);

/// What a C body object holds.
pub type BodySlot<S> = Slot<Body<'static, 'static, S>>;

/// Byte offsets of a body's parts in its one storage block: the sphere cache, the mode
/// storage, the optional vertex cache, the optional box cache, each starting at a multiple of
/// 8 bytes.
struct Parts {
    modes: usize,
    vertices: usize,
    boxes: usize,
    total: usize,
    nodes: usize,
    mode_scalars: usize,
    vertex_count: usize,
    box_count: usize,
}

fn round8(x: usize) -> Option<usize> {
    x.checked_add(BDTREE_STORAGE_ALIGN - 1)
        .map(|y| y & !(BDTREE_STORAGE_ALIGN - 1))
}

fn parts<S: Scalar>(image: &Image<'_, S>, options: u32) -> Option<Parts> {
    let nodes = image.tree.node_count();
    let mode_scalars = mode_storage(image.tree.modes());
    let vertex_count = if options & BDTREE_BODY_VERTEX_CACHE != 0 {
        image.model.vertex_count()
    } else {
        0
    };
    let box_count = if options & BDTREE_BODY_BOX_CACHE != 0 {
        nodes
    } else {
        0
    };
    let cache = round8(nodes.checked_mul(core::mem::size_of::<CacheEntry<S>>())?)?;
    let modes = round8(mode_scalars.checked_mul(core::mem::size_of::<S>())?)?;
    let vertices = round8(vertex_count.checked_mul(core::mem::size_of::<VertexEntry<S>>())?)?;
    let boxes = round8(box_count.checked_mul(core::mem::size_of::<BoxEntry<S>>())?)?;
    let before_boxes = cache.checked_add(modes)?.checked_add(vertices)?;
    Some(Parts {
        modes: cache,
        vertices: cache.checked_add(modes)?,
        boxes: before_boxes,
        total: before_boxes.checked_add(boxes)?,
        nodes,
        mode_scalars,
        vertex_count,
        box_count,
    })
}

const KNOWN_OPTIONS: u32 = BDTREE_BODY_VERTEX_CACHE | BDTREE_BODY_BOX_CACHE;

/// Bytes of storage a body over `image` needs with `options`; 0 for a bad image or options.
///
/// # Safety
///
/// `image` NULL or an image object.
pub unsafe fn body_storage_size<S: Precision>(image: *const ImageSlot<S>, options: u32) -> usize {
    if options & !KNOWN_OPTIONS != 0 {
        return 0;
    }
    // SAFETY: forwarded.
    match unsafe { ffi::object(image, S::IMAGE) } {
        Ok(image) => parts(image, options).map_or(0, |p| p.total),
        Err(_) => 0,
    }
}

/// Makes a body over `image` in the caller's object and storage (see `bdtree_body_init_f32`).
///
/// # Safety
///
/// `body` NULL or writable for the object; `image` NULL or an image object; `storage` NULL or
/// writable for `len` bytes, used by nothing else while the body is.
pub unsafe fn body_init<S: Precision>(
    body: *mut BodySlot<S>,
    image: *const ImageSlot<S>,
    storage: *mut c_void,
    len: usize,
    options: u32,
) -> bdtree_status {
    // SAFETY: forwarded.
    unsafe { ffi::forget(body) };
    // SAFETY: forwarded; the storage parts are disjoint ranges of the caller's block.
    let run = || unsafe {
        ffi::check(body)?;
        let image = *ffi::object(image, S::IMAGE)?;
        if options & !KNOWN_OPTIONS != 0 {
            return Err(bdtree_status::BadArgument);
        }
        let p = parts(&image, options).ok_or(bdtree_status::BadArgument)?;
        let storage = storage.cast::<u8>();
        if storage.is_null() {
            return Err(bdtree_status::NullPointer);
        }
        if storage.align_offset(BDTREE_STORAGE_ALIGN) != 0 {
            return Err(bdtree_status::Misaligned);
        }
        if len < p.total {
            return Err(bdtree_status::StorageTooSmall);
        }
        let cache = ffi::zeroed_part::<CacheEntry<S>>(storage, len, 0, p.nodes)?;
        let modes = ffi::zeroed_part::<S>(storage, len, p.modes, p.mode_scalars)?;
        let mut made = Body::new(&image, cache, modes)?;
        if options & BDTREE_BODY_VERTEX_CACHE != 0 {
            let vertices =
                ffi::zeroed_part::<VertexEntry<S>>(storage, len, p.vertices, p.vertex_count)?;
            made = made.with_vertex_cache(vertices)?;
        }
        if options & BDTREE_BODY_BOX_CACHE != 0 {
            let boxes = ffi::zeroed_part::<BoxEntry<S>>(storage, len, p.boxes, p.box_count)?;
            made = made.with_box_cache(boxes)?;
        }
        ffi::init(body, S::BODY, made)
    };
    status(run())
}

/// Sets a body's pose and `q` for a new step.
///
/// # Safety
///
/// `body` NULL or a body object; `rotation` NULL or 4 readable scalars; `translation` NULL or
/// 3; `q` readable for `q_len` scalars (NULL allowed when `q_len` is 0).
pub unsafe fn body_set_state<S: Precision>(
    body: *mut BodySlot<S>,
    rotation: *const S,
    translation: *const S,
    q: *const S,
    q_len: usize,
) -> bdtree_status {
    // SAFETY: forwarded.
    let run = || unsafe {
        let body = ffi::object_mut(body, S::BODY)?;
        let rotation = ffi::slice(rotation, 4)?;
        let translation = ffi::slice(translation, 3)?;
        let q = ffi::slice(q, q_len)?;
        let (Ok(r), Ok(t)) = (rotation.try_into(), translation.try_into()) else {
            return Err(bdtree_status::BadArgument);
        };
        finite_pose(rotation, translation)?;
        let pose = Pose::from_quaternion(r, t)?;
        body.set_state(pose, q)?;
        Ok(())
    };
    status(run())
}

/// Which part of a pose is not finite, if any: the status that names it.
pub(crate) fn finite_pose<T: Scalar>(rotation: &[T], translation: &[T]) -> Result<()> {
    let finite = |v: &[T]| v.iter().all(|x| x.is_finite());
    if !finite(rotation) {
        Err(bdtree_status::NonFiniteRotation)
    } else if !finite(translation) {
        Err(bdtree_status::NonFiniteTranslation)
    } else {
        Ok(())
    }
}

/// Sets a body's pose and `q` for a new step from doubles, relative to a floating origin
/// (see [`Body::set_state_f64`]).
///
/// # Safety
///
/// `body` NULL or a body object; `rotation` NULL or 4 readable doubles; `translation` and
/// `origin` NULL or 3; `q` readable for `q_len` doubles (NULL allowed when `q_len` is 0).
pub unsafe fn body_set_state_from_f64<S: Precision>(
    body: *mut BodySlot<S>,
    rotation: *const f64,
    translation: *const f64,
    origin: *const f64,
    q: *const f64,
    q_len: usize,
) -> bdtree_status {
    // SAFETY: forwarded.
    let run = || unsafe {
        let body = ffi::object_mut(body, S::BODY)?;
        let rotation = ffi::slice(rotation, 4)?;
        let translation = ffi::slice(translation, 3)?;
        let origin = ffi::slice(origin, 3)?;
        let q = ffi::slice(q, q_len)?;
        let (Ok(r), Ok(t), Ok(o)) = (
            rotation.try_into(),
            translation.try_into(),
            origin.try_into(),
        ) else {
            return Err(bdtree_status::BadArgument);
        };
        finite_pose(rotation, translation)?;
        if !origin.iter().all(|x| x.is_finite()) {
            return Err(bdtree_status::NonFiniteOrigin);
        }
        body.set_state_f64(r, t, q, o)?;
        Ok(())
    };
    status(run())
}

/// A node's world sphere for the body's step.
///
/// # Safety
///
/// `body` NULL or a body object; `sphere` NULL or writable for 4 scalars.
pub unsafe fn body_sphere<S: Precision>(
    body: *mut BodySlot<S>,
    node: u32,
    sphere: *mut S,
) -> bdtree_status {
    // SAFETY: forwarded.
    let run = || unsafe {
        let out = ffi::slice_mut(sphere, 4)?;
        let body = ffi::object_mut(body, S::BODY)?;
        let s = body
            .sphere(node as usize)
            .ok_or(bdtree_status::BadArgument)?;
        out.copy_from_slice(&s);
        Ok(())
    };
    status(run())
}

/// Two distinct bodies, writable.
///
/// # Safety
///
/// Both NULL or body objects.
pub(crate) unsafe fn two_bodies<'a, S: Precision>(
    a: *mut BodySlot<S>,
    b: *mut BodySlot<S>,
) -> Result<(
    &'a mut Body<'static, 'static, S>,
    &'a mut Body<'static, 'static, S>,
)> {
    if !a.is_null() && core::ptr::eq(a, b) {
        return Err(bdtree_status::SameBody);
    }
    // SAFETY: forwarded; `a` and `b` are distinct objects.
    unsafe { Ok((ffi::object_mut(a, S::BODY)?, ffi::object_mut(b, S::BODY)?)) }
}

/// The floating origin of bodies at `count` translations (see `bdtree_floating_origin`).
///
/// # Safety
///
/// `translations` readable for `3 · count` doubles (NULL allowed when `count` is 0); `origin`
/// NULL or writable for 3 doubles.
pub unsafe fn floating_origin(
    translations: *const f64,
    count: usize,
    origin: *mut f64,
) -> bdtree_status {
    // SAFETY: forwarded.
    let run = || unsafe {
        let out = ffi::slice_mut(origin, 3)?;
        out.fill(0.0);
        // `[f64; 3]` has the alignment of `f64`; `slice` checks that `count` triples fit.
        let points = ffi::slice(translations.cast::<[f64; 3]>(), count)?;
        if points.iter().flatten().any(|x| !x.is_finite()) {
            return Err(bdtree_status::NonFiniteTranslation);
        }
        out.copy_from_slice(&bdtree_core::floating_origin(points));
        Ok(())
    };
    status(run())
}

/// The floating origin of a query over bodies at `count` world translations
/// (`translations[3k..3k+3]` is the k-th): the centre of their axis-aligned box,
/// `0.5 · min + 0.5 · max` per axis in double (the world origin for `count` 0). This is the one
/// placing rule of every surface of bdtree (the kernel's `floating_origin`); a client that
/// follows it gets the answers of the Rust kernel placed the same way, bit for bit, and of the
/// command-line tool (its runners place a two-body scene's pairs so: a test holds it):
///
/// * a body pair (`bdtree_collide_*`, `…_contacts_*`, `bdtree_within_*`, `bdtree_distance_*`,
///   `…_proxies_*`, a traversal): the origin of the two bodies' translations;
/// * a swept pair (`bdtree_collide_swept_*`): of the four translations, both bodies at both
///   ends of the motion;
/// * a body's self pairs (`bdtree_collide_self_*`): of its own translation;
/// * a world (`bdtree_collide_world_*`): of every body's translation, one origin for all (each
///   pair's precision is then that of the whole world's extent);
/// * a body against a primitive (`bdtree_collide_primitive_*`): of the body's own
///   translation, the primitive's coordinates given less the same origin (subtracted in double).
///
/// Then set each body of the query with `bdtree_body_set_state_from_f64_*` relative to that
/// origin, and add the origin back (in double) to the points, witnesses and spheres the query
/// gives. A pair's f32 precision then depends on the two bodies' sizes and their distance from
/// each other only, not on where other bodies or the robot cell sit. A body in several pairs
/// takes its state again for each (`O(M)`; its sphere cache starts over).
///
/// Returns `BDTREE_STATUS_NON_FINITE_TRANSLATION` (origin 0) for a NaN or infinite translation.
///
/// # Safety
///
/// `translations` must point to `3 · count` readable doubles (NULL when `count` is 0);
/// `origin` to 3 writable doubles.
#[no_mangle]
pub unsafe extern "C" fn bdtree_floating_origin(
    translations: *const f64,
    count: usize,
    origin: *mut f64,
) -> bdtree_status {
    // SAFETY: the caller's contract above is the one this file's work requires.
    unsafe { floating_origin(translations, count, origin) }
}

/// The exported functions of bodies in f32 (`exports_f64` below is generated from them,
/// word for word in the other precision).
#[allow(clippy::too_many_arguments)] // C functions take buffers as pointer and length pairs.
pub mod exports_f32 {
    use super::*;

    /// Bytes of storage a body over `image` needs: the sphere cache (`nodes ×
    /// BDTREE_CACHE_ENTRY_BYTES_F32`), the mode storage (`5M` floats) and, with
    /// `BDTREE_BODY_VERTEX_CACHE` in `options`, the vertex cache (`vertices ×
    /// BDTREE_VERTEX_ENTRY_BYTES_F32`) and, with `BDTREE_BODY_BOX_CACHE`, the box cache
    /// (`nodes × BDTREE_BOX_ENTRY_BYTES_F32`), each rounded up to 8 bytes — the same number as
    /// the header's `BDTREE_BODY_STORAGE_F32(nodes, modes, vertices)` (plus
    /// `BDTREE_BODY_BOX_STORAGE_F32(nodes)` with the box cache) for static storage. Returns 0
    /// for an unusable image or unknown options.
    ///
    /// # Safety
    ///
    /// `image` must be NULL or point to a `bdtree_image_f32` (parsed, or at least zeroed).
    #[no_mangle]
    pub unsafe extern "C" fn bdtree_body_storage_size_f32(
        image: *const bdtree_image_f32,
        options: u32,
    ) -> usize {
        // SAFETY: as above.
        unsafe { body_storage_size::<f32>(image.cast(), options) }
    }

    /// Makes a body over a parsed image at the identity pose and `q = 0`, in the caller's object
    /// `body` and the caller's `storage` (at least `bdtree_body_storage_size_f32(image, options)`
    /// bytes, aligned to `BDTREE_STORAGE_ALIGN`; it is zeroed here). The image view itself may be
    /// discarded afterwards; its bytes may not. On failure `body` is marked unusable.
    ///
    /// # Safety
    ///
    /// `body` must be NULL or point to writable memory for a `bdtree_body_f32`; `image` NULL or a
    /// `bdtree_image_f32`; `storage` NULL or `len` writable bytes that nothing else uses while the
    /// body is used.
    #[no_mangle]
    pub unsafe extern "C" fn bdtree_body_init_f32(
        body: *mut bdtree_body_f32,
        image: *const bdtree_image_f32,
        storage: *mut c_void,
        len: usize,
        options: u32,
    ) -> bdtree_status {
        // SAFETY: as above.
        unsafe { body_init::<f32>(body.cast(), image.cast(), storage, len, options) }
    }

    /// Starts a new step: sets the body's pose — a unit quaternion `rotation = (w, x, y, z)`
    /// (scalar first; refused, not normalised, when `| ‖q‖ − 1 | > 10⁻⁶`) and `translation =
    /// (x, y, z)`, so that a world vertex is `R (p + U q) + t` — and its reduced coordinates `q`
    /// (`q_len` must equal the image's mode count; NULL with 0 for a rigid body). `O(M)`; every
    /// cached sphere becomes stale in `O(1)`. The values are taken as exact: answers are
    /// conservative against them (a caller holding doubles should use
    /// `bdtree_body_set_state_from_f64_f32`). A refused state (any status but `Ok`) changes
    /// nothing: the body keeps its previous state.
    ///
    /// # Safety
    ///
    /// `body` must be NULL or point to a `bdtree_body_f32`; `rotation` NULL or 4 readable floats;
    /// `translation` NULL or 3; `q` `q_len` readable floats (NULL when `q_len` is 0).
    #[no_mangle]
    pub unsafe extern "C" fn bdtree_body_set_state_f32(
        body: *mut bdtree_body_f32,
        rotation: *const f32,
        translation: *const f32,
        q: *const f32,
        q_len: usize,
    ) -> bdtree_status {
        // SAFETY: as above.
        unsafe { body_set_state::<f32>(body.cast(), rotation, translation, q, q_len) }
    }

    /// Starts a new step from a state held in doubles: as `bdtree_body_set_state_f32`, with
    /// `translation − origin` computed in double before anything is rounded (a **floating origin**:
    /// give both bodies of a query the same `origin`, the one `bdtree_floating_origin` computes
    /// from their translations, and the query's precision depends on how far the bodies are apart,
    /// not on where the robot cell sits; every world coordinate the queries then give for this
    /// body — spheres, contact points, witnesses — is relative to `origin`). The rounding of the state to the body's scalar is bounded and widens
    /// every test of the step, so answers are conservative against the state as given. `O(M)` in
    /// double (soft float on most Cortex-M cores). A refused state changes nothing.
    ///
    /// # Safety
    ///
    /// `body` must be NULL or point to a `bdtree_body_f32`; `rotation` NULL or 4 readable
    /// doubles; `translation` and `origin` NULL or 3; `q` `q_len` readable doubles (NULL when
    /// `q_len` is 0).
    #[no_mangle]
    pub unsafe extern "C" fn bdtree_body_set_state_from_f64_f32(
        body: *mut bdtree_body_f32,
        rotation: *const f64,
        translation: *const f64,
        origin: *const f64,
        q: *const f64,
        q_len: usize,
    ) -> bdtree_status {
        // SAFETY: as above.
        unsafe {
            body_set_state_from_f64::<f32>(body.cast(), rotation, translation, origin, q, q_len)
        }
    }

    /// Writes node `node`'s world sphere `[x, y, z, r]` for the body's step to `sphere` (node 0 is
    /// the root: a bounding sphere of the deformed body, for a broad phase). Computed on first use
    /// in the step (`4M + 9` multiply-adds), then read from the cache.
    ///
    /// # Safety
    ///
    /// `body` must be NULL or point to a `bdtree_body_f32`; `sphere` NULL or 4 writable floats.
    #[no_mangle]
    pub unsafe extern "C" fn bdtree_body_sphere_f32(
        body: *mut bdtree_body_f32,
        node: u32,
        sphere: *mut f32,
    ) -> bdtree_status {
        // SAFETY: as above.
        unsafe { body_sphere::<f32>(body.cast(), node, sphere) }
    }
}

// `exports_f64`: the functions of `exports_f32` in f64, word for word, written by `build.rs`
// (`twin.rs`).
include!(concat!(env!("OUT_DIR"), "/body_f64.rs"));
