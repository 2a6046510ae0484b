//! The C API over the kernel, generic in the scalar: every exported function of
//! [`crate::exports_f32`] and [`crate::exports_f64`] is one call of a function here.
//!
//! Every function validates its pointers first (through [`crate::raw`]), clears its outputs
//! (`*count = 0`, zero statistics), then calls the kernel and maps its outcome to a
//! [`bdtree_status`]. Nothing here allocates or panics.

use core::ffi::{c_char, c_void};
use core::fmt::Write as _;

use bdtree_core::body::{CacheEntry, VertexEntry};
use bdtree_core::interrupt::{Clock, Deadline, Order, Pending, TestBudget};
use bdtree_core::separation::{nearest, Nearest};
use bdtree_core::{
    collide_swept as core_swept, mode_storage, primitive_stack_capacity, proxy_stack_capacity,
    self_stack_capacity, stack_capacity, Body, ContactPoint, Image, NearPair, Pose, Primitive,
    PrimitiveProxy, ProxyPair, QueryOutcome, Scalar, Sink, SweptPair, Traversal, TrianglePair,
};

use crate::raw::{self, mark, Slot};
use crate::types::{
    bdtree_contact_f32, bdtree_contact_f64, bdtree_image_info, bdtree_near_pair_f32,
    bdtree_near_pair_f64, bdtree_nearest_f32, bdtree_nearest_f64, bdtree_node_pair,
    bdtree_primitive_proxy_f32, bdtree_primitive_proxy_f64, bdtree_proxy_pair_f32,
    bdtree_proxy_pair_f64, bdtree_stats, bdtree_status, bdtree_swept_pair_f32,
    bdtree_swept_pair_f64, bdtree_triangle_pair, BDTREE_BODY_VERTEX_CACHE,
    BDTREE_ORDER_BREADTH_FIRST, BDTREE_ORDER_DEEPEST_FIRST, BDTREE_ORDER_LARGEST_FIRST,
    BDTREE_STORAGE_ALIGN,
};

/// A scalar the C API is offered in, with its objects' marks and its C output types.
pub trait Precision: Scalar {
    /// Mark of an initialised image object.
    const IMAGE: u64;
    /// Mark of an initialised body object.
    const BODY: u64;
    /// Mark of an initialised traversal object.
    const TRAVERSAL: u64;
    /// Mark of an initialised primitive object.
    const PRIMITIVE: u64;
    /// The C proxy pair.
    type Proxy: From<ProxyPair<Self>>;
    /// The C nearest-points record.
    type Nearest: From<Nearest<Self>>;
    /// The C swept pair.
    type Swept: From<SweptPair<Self>>;
    /// The C contact.
    type Contact: From<ContactPoint<Self>>;
    /// The C near pair.
    type Near: From<NearPair<Self>>;
    /// The C primitive proxy.
    type PrimitiveProxy: From<PrimitiveProxy<Self>>;
}

impl Precision for f32 {
    const IMAGE: u64 = mark::IMAGE_F32;
    const BODY: u64 = mark::BODY_F32;
    const TRAVERSAL: u64 = mark::TRAVERSAL_F32;
    const PRIMITIVE: u64 = mark::PRIMITIVE_F32;
    type Proxy = bdtree_proxy_pair_f32;
    type Nearest = bdtree_nearest_f32;
    type Swept = bdtree_swept_pair_f32;
    type Contact = bdtree_contact_f32;
    type Near = bdtree_near_pair_f32;
    type PrimitiveProxy = bdtree_primitive_proxy_f32;
}

impl Precision for f64 {
    const IMAGE: u64 = mark::IMAGE_F64;
    const BODY: u64 = mark::BODY_F64;
    const TRAVERSAL: u64 = mark::TRAVERSAL_F64;
    const PRIMITIVE: u64 = mark::PRIMITIVE_F64;
    type Proxy = bdtree_proxy_pair_f64;
    type Nearest = bdtree_nearest_f64;
    type Swept = bdtree_swept_pair_f64;
    type Contact = bdtree_contact_f64;
    type Near = bdtree_near_pair_f64;
    type PrimitiveProxy = bdtree_primitive_proxy_f64;
}

/// What a C image object holds.
pub type ImageSlot<S> = Slot<Image<'static, S>>;
/// What a C body object holds.
pub type BodySlot<S> = Slot<Body<'static, 'static, S>>;
/// What a C traversal object holds.
pub type TraversalSlot<S> = Slot<Traversal<'static, S>>;
/// What a C primitive object holds.
pub type PrimitiveSlot<S> = Slot<Primitive<S>>;

type Result<T> = core::result::Result<T, bdtree_status>;

/// The status of a result.
fn status(result: Result<()>) -> bdtree_status {
    match result {
        Ok(()) => bdtree_status::Ok,
        Err(s) => s,
    }
}

/// Writes `value` to an optional out-parameter (NULL: not wanted).
///
/// # Safety
///
/// `ptr` is NULL or valid for writing a `T`.
unsafe fn put<T>(ptr: *mut T, value: T) -> Result<()> {
    if ptr.is_null() {
        return Ok(());
    }
    // SAFETY: forwarded.
    unsafe { raw::out(ptr) }?.write(value);
    Ok(())
}

/// Parses and validates an image in place (see `bdtree_image_parse_f32`).
///
/// # Safety
///
/// `bytes` valid for `len` bytes for as long as the image or a body made from it is used;
/// `image` NULL or writable for the object.
pub unsafe fn image_parse<S: Precision>(
    bytes: *const u8,
    len: usize,
    image: *mut ImageSlot<S>,
) -> bdtree_status {
    // SAFETY: forwarded.
    unsafe { raw::forget(image) };
    // SAFETY: forwarded.
    let run = || unsafe {
        raw::check(bytes)?;
        let bytes = raw::slice(bytes, len)?;
        raw::check(image)?;
        let parsed = Image::<'static, S>::parse(bytes)?;
        raw::init(image, S::IMAGE, parsed)
    };
    status(run())
}

/// Parses an image and, when it is refused, writes the kernel's message (see
/// `bdtree_image_check_f32`).
///
/// # Safety
///
/// `bytes` valid for `len` bytes; `message` NULL or writable for `capacity` bytes.
pub unsafe fn image_check<S: Precision>(
    bytes: *const u8,
    len: usize,
    message: *mut c_char,
    capacity: usize,
) -> bdtree_status {
    // SAFETY: forwarded.
    let run = || unsafe {
        let text = raw::slice_mut(message.cast::<u8>(), capacity)?;
        let mut w = Text { buf: text, len: 0 };
        let bytes = raw::slice(bytes, len)?;
        match Image::<'_, S>::parse(bytes) {
            Ok(_) => {
                let _ = w.write_str("ok");
                w.finish();
                Ok(())
            }
            Err(e) => {
                let _ = write!(w, "{e}");
                w.finish();
                Err(e.into())
            }
        }
    };
    status(run())
}

/// A C string buffer: text truncated to `capacity − 1` bytes, then a NUL.
struct Text<'a> {
    buf: &'a mut [u8],
    len: usize,
}

impl Text<'_> {
    fn finish(&mut self) {
        let end = self.len.min(self.buf.len().saturating_sub(1));
        if let Some(b) = self.buf.get_mut(end) {
            *b = 0;
        }
    }
}

impl core::fmt::Write for Text<'_> {
    fn write_str(&mut self, s: &str) -> core::fmt::Result {
        for &b in s.as_bytes() {
            if self.len.saturating_add(1) >= self.buf.len() {
                break;
            }
            if let Some(slot) = self.buf.get_mut(self.len) {
                *slot = b;
                self.len += 1;
            }
        }
        Ok(())
    }
}

/// What an image holds.
///
/// # Safety
///
/// `image` NULL or an image object; `info` NULL or writable.
pub unsafe fn image_info<S: Precision>(
    image: *const ImageSlot<S>,
    info: *mut bdtree_image_info,
) -> bdtree_status {
    // SAFETY: forwarded.
    let run = || unsafe {
        let out = raw::out(info)?;
        let image = raw::object(image, S::IMAGE)?;
        let (tree, header) = (&image.tree, &image.header);
        out.write(bdtree_image_info {
            nodes: header.nodes,
            triangles: header.triangles,
            vertices: header.vertices,
            modes: header.modes,
            depth: tree.depth(),
            scalar_bytes: header.scalar_bytes,
            bytes: header.total_len,
            nested: tree.is_nested(),
            bounded: tree.is_bounded(),
        });
        Ok(())
    };
    status(run())
}

/// Byte offsets of a body's parts in its one storage block: the sphere cache, the mode
/// storage, the optional vertex cache, each starting at a multiple of 8 bytes.
struct Parts {
    modes: usize,
    vertices: usize,
    total: usize,
    nodes: usize,
    mode_scalars: usize,
    vertex_count: usize,
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
    let cache = round8(nodes.checked_mul(core::mem::size_of::<CacheEntry<S>>())?)?;
    let modes = round8(mode_scalars.checked_mul(core::mem::size_of::<S>())?)?;
    let vertices = round8(vertex_count.checked_mul(core::mem::size_of::<VertexEntry<S>>())?)?;
    let total = cache.checked_add(modes)?.checked_add(vertices)?;
    Some(Parts {
        modes: cache,
        vertices: cache.checked_add(modes)?,
        total,
        nodes,
        mode_scalars,
        vertex_count,
    })
}

const KNOWN_OPTIONS: u32 = BDTREE_BODY_VERTEX_CACHE;

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
    match unsafe { raw::object(image, S::IMAGE) } {
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
    unsafe { raw::forget(body) };
    // SAFETY: forwarded; the storage parts are disjoint ranges of the caller's block.
    let run = || unsafe {
        raw::check(body)?;
        let image = *raw::object(image, S::IMAGE)?;
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
        let cache = raw::zeroed_part::<CacheEntry<S>>(storage, len, 0, p.nodes)?;
        let modes = raw::zeroed_part::<S>(storage, len, p.modes, p.mode_scalars)?;
        let mut made = Body::new(&image, cache, modes)?;
        if options & BDTREE_BODY_VERTEX_CACHE != 0 {
            let vertices =
                raw::zeroed_part::<VertexEntry<S>>(storage, len, p.vertices, p.vertex_count)?;
            made = made.with_vertex_cache(vertices)?;
        }
        raw::init(body, S::BODY, made)
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
        let body = raw::object_mut(body, S::BODY)?;
        let rotation = raw::slice(rotation, 4)?;
        let translation = raw::slice(translation, 3)?;
        let q = raw::slice(q, q_len)?;
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
fn finite_pose<T: Scalar>(rotation: &[T], translation: &[T]) -> Result<()> {
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
        let body = raw::object_mut(body, S::BODY)?;
        let rotation = raw::slice(rotation, 4)?;
        let translation = raw::slice(translation, 3)?;
        let origin = raw::slice(origin, 3)?;
        let q = raw::slice(q, q_len)?;
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
        let out = raw::slice_mut(sphere, 4)?;
        let body = raw::object_mut(body, S::BODY)?;
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
unsafe fn two_bodies<'a, S: Precision>(
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
    unsafe { Ok((raw::object_mut(a, S::BODY)?, raw::object_mut(b, S::BODY)?)) }
}

/// The stack of a depth-first query.
///
/// # Safety
///
/// `stack` readable and writable for `len` entries.
unsafe fn stack<'a>(stack: *mut bdtree_node_pair, len: usize) -> Result<&'a mut [[u32; 2]]> {
    // SAFETY: forwarded; `bdtree_node_pair` has the layout of `[u32; 2]` (checked in `types`).
    unsafe { raw::slice_mut(stack.cast::<[u32; 2]>(), len) }
}

/// Clears `*count` and the statistics before a query (so an error leaves them defined).
///
/// # Safety
///
/// `count` NULL or writable; `stats` NULL or writable.
unsafe fn clear_outputs(count: *mut usize, stats: *mut bdtree_stats) -> Result<()> {
    // SAFETY: forwarded.
    unsafe {
        raw::out(count)?.write(0);
        put(stats, bdtree_stats::default())
    }
}

/// A C output buffer as a sink: converts and stores items until it is full, then refuses
/// them (the query ends with an output-full status).
struct CBuffer<'a, C> {
    items: &'a mut [C],
    len: usize,
}

impl<'a, C> CBuffer<'a, C> {
    fn new(items: &'a mut [C]) -> Self {
        Self { items, len: 0 }
    }
}

impl<T, C: From<T>> Sink<T> for CBuffer<'_, C> {
    fn push(&mut self, item: T) -> core::result::Result<(), T> {
        match self.items.get_mut(self.len) {
            Some(slot) => {
                *slot = C::from(item);
                self.len += 1;
                Ok(())
            }
            None => Err(item),
        }
    }
}

/// Every intersecting triangle pair of two bodies (see `bdtree_collide_f32`).
///
/// # Safety
///
/// `a`, `b` body objects; `stack` valid for `stack_len` entries, `pairs` for `capacity`;
/// `count` writable; `stats` NULL or writable; none of them overlapping.
#[allow(clippy::too_many_arguments)]
pub unsafe fn collide<S: Precision>(
    a: *mut BodySlot<S>,
    b: *mut BodySlot<S>,
    stack_ptr: *mut bdtree_node_pair,
    stack_len: usize,
    pairs: *mut bdtree_triangle_pair,
    capacity: usize,
    count: *mut usize,
    stats: *mut bdtree_stats,
) -> bdtree_status {
    // SAFETY: forwarded.
    let run = || unsafe {
        clear_outputs(count, stats)?;
        let (a, b) = two_bodies(a, b)?;
        let stack = stack(stack_ptr, stack_len)?;
        let mut sink = CBuffer::new(raw::slice_mut(pairs, capacity)?);
        let outcome = bdtree_core::collide(a, b, stack, &mut sink);
        finish(outcome, sink.len, count, stats)
    };
    status(run())
}

/// Writes a query's count and statistics; its status.
///
/// # Safety
///
/// `count` writable; `stats` NULL or writable.
unsafe fn finish(
    outcome: QueryOutcome,
    len: usize,
    count: *mut usize,
    stats: *mut bdtree_stats,
) -> Result<()> {
    // SAFETY: forwarded.
    unsafe {
        raw::out(count)?.write(len);
        put(stats, outcome.stats.into())?;
    }
    match bdtree_status::from(outcome.status) {
        bdtree_status::Ok => Ok(()),
        s => Err(s),
    }
}

/// Every intersecting pair of non-adjacent triangles of one body.
///
/// # Safety
///
/// As [`collide()`], with one body.
pub unsafe fn collide_self<S: Precision>(
    body: *mut BodySlot<S>,
    stack_ptr: *mut bdtree_node_pair,
    stack_len: usize,
    pairs: *mut bdtree_triangle_pair,
    capacity: usize,
    count: *mut usize,
    stats: *mut bdtree_stats,
) -> bdtree_status {
    // SAFETY: forwarded.
    let run = || unsafe {
        clear_outputs(count, stats)?;
        let body = raw::object_mut(body, S::BODY)?;
        let stack = stack(stack_ptr, stack_len)?;
        let mut sink = CBuffer::new(raw::slice_mut(pairs, capacity)?);
        let outcome = bdtree_core::collide_self(body, stack, &mut sink);
        finish(outcome, sink.len, count, stats)
    };
    status(run())
}

/// The exact second stage of an f32 query (see `bdtree_refine_f32`): keeps, in order at the
/// front of `pairs`, those the f64 re-test on the stored model cannot rule out. Pairs naming a
/// triangle that does not exist are refused, all of them left as given.
///
/// # Safety
///
/// `a`, `b` NULL or body objects (the same one for a self-collision's pairs); `pairs` readable
/// and writable for `count` entries; `kept` writable.
pub unsafe fn refine<S: Precision>(
    a: *const BodySlot<S>,
    b: *const BodySlot<S>,
    pairs: *mut bdtree_triangle_pair,
    count: usize,
    kept: *mut usize,
) -> bdtree_status {
    // SAFETY: forwarded; `bdtree_triangle_pair` has the layout of `TrianglePair` (checked in
    // `types`).
    let run = || unsafe {
        raw::out(kept)?.write(0);
        let (a, b) = (raw::object(a, S::BODY)?, raw::object(b, S::BODY)?);
        let pairs = raw::slice_mut(pairs.cast::<TrianglePair>(), count)?;
        check_triangles(a, b, pairs)?;
        raw::out(kept)?.write(bdtree_core::refine(a, b, pairs));
        Ok(())
    };
    status(run())
}

/// Refuses pairs that name a triangle its body does not have (`Inconsistent`), or bodies of a
/// bounded-depth image, which stores no triangles (`Truncated`), before anything is changed.
fn check_triangles<S: Scalar>(
    a: &Body<'_, '_, S>,
    b: &Body<'_, '_, S>,
    pairs: &[TrianglePair],
) -> Result<()> {
    if a.tree().is_bounded() || b.tree().is_bounded() {
        return Err(bdtree_status::Truncated);
    }
    let (na, nb) = (a.model().triangles().len(), b.model().triangles().len());
    if pairs
        .iter()
        .any(|p| p.a as usize >= na || p.b as usize >= nb)
    {
        return Err(bdtree_status::Inconsistent);
    }
    Ok(())
}

/// The overlapping contact proxies at depths `depth_a`, `depth_b` (nested trees).
///
/// # Safety
///
/// As [`collide()`].
#[allow(clippy::too_many_arguments)]
pub unsafe fn collide_proxies<S: Precision>(
    a: *mut BodySlot<S>,
    depth_a: u32,
    b: *mut BodySlot<S>,
    depth_b: u32,
    stack_ptr: *mut bdtree_node_pair,
    stack_len: usize,
    pairs: *mut S::Proxy,
    capacity: usize,
    count: *mut usize,
    stats: *mut bdtree_stats,
) -> bdtree_status {
    // SAFETY: forwarded.
    let run = || unsafe {
        clear_outputs(count, stats)?;
        let (a, b) = two_bodies(a, b)?;
        let stack = stack(stack_ptr, stack_len)?;
        let mut sink = CBuffer::new(raw::slice_mut(pairs, capacity)?);
        let outcome = bdtree_core::collide_proxies(a, depth_a, b, depth_b, stack, &mut sink);
        finish(outcome, sink.len, count, stats)
    };
    status(run())
}

/// Every triangle pair of two moving bodies that may touch during the motion between two
/// steps (see `bdtree_collide_swept_f32`).
///
/// # Safety
///
/// Four distinct body objects; `stack` valid for `stack_len` entries, `pairs` for `capacity`;
/// `count` writable; `stats` NULL or writable.
#[allow(clippy::too_many_arguments)]
pub unsafe fn collide_swept<S: Precision>(
    a_from: *mut BodySlot<S>,
    a_to: *mut BodySlot<S>,
    b_from: *mut BodySlot<S>,
    b_to: *mut BodySlot<S>,
    stack_ptr: *mut bdtree_node_pair,
    stack_len: usize,
    pairs: *mut S::Swept,
    capacity: usize,
    count: *mut usize,
    stats: *mut bdtree_stats,
) -> bdtree_status {
    // SAFETY: forwarded.
    let run = || unsafe {
        clear_outputs(count, stats)?;
        let all = [a_from, a_to, b_from, b_to];
        for (i, x) in all.iter().enumerate() {
            if all
                .iter()
                .skip(i + 1)
                .any(|y| !x.is_null() && core::ptr::eq(*x, *y))
            {
                return Err(bdtree_status::SameBody);
            }
        }
        let (a_from, a_to) = two_bodies(a_from, a_to)?;
        let (b_from, b_to) = two_bodies(b_from, b_to)?;
        let stack = stack(stack_ptr, stack_len)?;
        let mut sink = CBuffer::new(raw::slice_mut(pairs, capacity)?);
        let outcome = core_swept(a_from, a_to, b_from, b_to, stack, &mut sink);
        finish(outcome, sink.len, count, stats)
    };
    status(run())
}

/// The minimum distance between two bodies with witnesses.
///
/// # Safety
///
/// `a`, `b` body objects; `stack` valid for `stack_len` entries; `nearest` writable; `stats`
/// NULL or writable.
pub unsafe fn distance<S: Precision>(
    a: *mut BodySlot<S>,
    b: *mut BodySlot<S>,
    stack_ptr: *mut bdtree_node_pair,
    stack_len: usize,
    out: *mut S::Nearest,
    stats: *mut bdtree_stats,
) -> bdtree_status {
    // SAFETY: forwarded.
    let run = || unsafe {
        put(stats, bdtree_stats::default())?;
        let out = raw::out(out)?;
        let (a, b) = two_bodies(a, b)?;
        let stack = stack(stack_ptr, stack_len)?;
        let outcome = nearest(a, b, stack);
        put(stats, outcome.stats.into())?;
        match (bdtree_status::from(outcome.status), outcome.nearest) {
            (bdtree_status::Ok, Some(n)) => {
                out.write(n.into());
                Ok(())
            }
            (bdtree_status::Ok, None) => Err(bdtree_status::Inconsistent),
            (s, _) => Err(s),
        }
    };
    status(run())
}

/// Every intersecting triangle pair of two bodies with its contact (see
/// `bdtree_collide_contacts_f32`).
///
/// # Safety
///
/// As [`collide()`].
#[allow(clippy::too_many_arguments)]
pub unsafe fn collide_contacts<S: Precision>(
    a: *mut BodySlot<S>,
    b: *mut BodySlot<S>,
    stack_ptr: *mut bdtree_node_pair,
    stack_len: usize,
    contacts: *mut S::Contact,
    capacity: usize,
    count: *mut usize,
    stats: *mut bdtree_stats,
) -> bdtree_status {
    // SAFETY: forwarded.
    let run = || unsafe {
        clear_outputs(count, stats)?;
        let (a, b) = two_bodies(a, b)?;
        let stack = stack(stack_ptr, stack_len)?;
        let mut sink = CBuffer::new(raw::slice_mut(contacts, capacity)?);
        let outcome = bdtree_core::collide_contacts(a, b, stack, &mut sink);
        finish(outcome, sink.len, count, stats)
    };
    status(run())
}

/// Every triangle pair of two bodies at most `distance` apart, with witnesses (see
/// `bdtree_within_f32`).
///
/// # Safety
///
/// As [`collide()`].
#[allow(clippy::too_many_arguments)]
pub unsafe fn within<S: Precision>(
    a: *mut BodySlot<S>,
    b: *mut BodySlot<S>,
    distance: S,
    stack_ptr: *mut bdtree_node_pair,
    stack_len: usize,
    pairs: *mut S::Near,
    capacity: usize,
    count: *mut usize,
    stats: *mut bdtree_stats,
) -> bdtree_status {
    // SAFETY: forwarded.
    let run = || unsafe {
        clear_outputs(count, stats)?;
        let (a, b) = two_bodies(a, b)?;
        // NaN fails the test too: a distance must be a finite number ≥ 0.
        if !(distance.is_finite() && distance >= S::ZERO) {
            return Err(bdtree_status::BadArgument);
        }
        let stack = stack(stack_ptr, stack_len)?;
        let mut sink = CBuffer::new(raw::slice_mut(pairs, capacity)?);
        let outcome = bdtree_core::within(a, b, distance, stack, &mut sink);
        finish(outcome, sink.len, count, stats)
    };
    status(run())
}

/// A `[S; 3]` from C.
///
/// # Safety
///
/// `ptr` NULL or 3 readable scalars.
unsafe fn vector<S: Scalar>(ptr: *const S) -> Result<[S; 3]> {
    // SAFETY: forwarded.
    let v = unsafe { raw::slice(ptr, 3) }?;
    v.try_into().map_err(|_| bdtree_status::BadArgument)
}

/// Makes a primitive in the caller's object (`make` validates it); on failure the object is
/// marked unusable.
///
/// # Safety
///
/// `primitive` NULL or writable for the object; `make` reads only what its caller vouched for.
unsafe fn primitive_init<S: Precision>(
    primitive: *mut PrimitiveSlot<S>,
    make: impl FnOnce() -> Result<Primitive<S>>,
) -> bdtree_status {
    // SAFETY: forwarded.
    unsafe { raw::forget(primitive) };
    // SAFETY: forwarded.
    let run = || unsafe {
        raw::check(primitive)?;
        let made = make()?;
        raw::init(primitive, S::PRIMITIVE, made)
    };
    status(run())
}

/// The half-space below a plane (see `bdtree_primitive_plane_f32`).
///
/// # Safety
///
/// `primitive` NULL or writable for the object; `normal` NULL or 3 readable scalars.
pub unsafe fn primitive_plane<S: Precision>(
    primitive: *mut PrimitiveSlot<S>,
    normal: *const S,
    offset: S,
) -> bdtree_status {
    // SAFETY: forwarded.
    unsafe { primitive_init(primitive, || Ok(Primitive::plane(vector(normal)?, offset)?)) }
}

/// A ball (see `bdtree_primitive_sphere_f32`).
///
/// # Safety
///
/// `primitive` NULL or writable for the object; `center` NULL or 3 readable scalars.
pub unsafe fn primitive_sphere<S: Precision>(
    primitive: *mut PrimitiveSlot<S>,
    center: *const S,
    radius: S,
) -> bdtree_status {
    // SAFETY: forwarded.
    unsafe {
        primitive_init(primitive, || {
            Ok(Primitive::sphere(vector(center)?, radius)?)
        })
    }
}

/// A capsule (see `bdtree_primitive_capsule_f32`).
///
/// # Safety
///
/// `primitive` NULL or writable for the object; `a`, `b` NULL or 3 readable scalars each.
pub unsafe fn primitive_capsule<S: Precision>(
    primitive: *mut PrimitiveSlot<S>,
    a: *const S,
    b: *const S,
    radius: S,
) -> bdtree_status {
    // SAFETY: forwarded.
    unsafe {
        primitive_init(primitive, || {
            Ok(Primitive::capsule(vector(a)?, vector(b)?, radius)?)
        })
    }
}

/// An oriented box (see `bdtree_primitive_box_f32`).
///
/// # Safety
///
/// `primitive` NULL or writable for the object; `rotation` NULL or 4 readable scalars,
/// `center` and `half_extents` NULL or 3.
pub unsafe fn primitive_box<S: Precision>(
    primitive: *mut PrimitiveSlot<S>,
    rotation: *const S,
    center: *const S,
    half_extents: *const S,
) -> bdtree_status {
    // SAFETY: forwarded.
    unsafe {
        primitive_init(primitive, || {
            let rotation = raw::slice(rotation, 4)?;
            let center = raw::slice(center, 3)?;
            let half = vector(half_extents)?;
            let (Ok(r), Ok(t)) = (rotation.try_into(), center.try_into()) else {
                return Err(bdtree_status::BadArgument);
            };
            finite_pose(rotation, center)?;
            let pose = Pose::from_quaternion(r, t)?;
            Ok(Primitive::oriented_box(&pose, half)?)
        })
    }
}

/// Every triangle of a body touching a primitive, with its contact (see
/// `bdtree_collide_primitive_f32`).
///
/// # Safety
///
/// `body` a body object, `primitive` a primitive object; otherwise as [`collide()`].
#[allow(clippy::too_many_arguments)]
pub unsafe fn collide_primitive<S: Precision>(
    body: *mut BodySlot<S>,
    primitive: *const PrimitiveSlot<S>,
    stack_ptr: *mut bdtree_node_pair,
    stack_len: usize,
    contacts: *mut S::Contact,
    capacity: usize,
    count: *mut usize,
    stats: *mut bdtree_stats,
) -> bdtree_status {
    // SAFETY: forwarded.
    let run = || unsafe {
        clear_outputs(count, stats)?;
        let body = raw::object_mut(body, S::BODY)?;
        let primitive = raw::object(primitive, S::PRIMITIVE)?;
        let stack = stack(stack_ptr, stack_len)?;
        let mut sink = CBuffer::new(raw::slice_mut(contacts, capacity)?);
        let outcome = bdtree_core::collide_primitive(body, primitive, stack, &mut sink);
        finish(outcome, sink.len, count, stats)
    };
    status(run())
}

/// The contact proxies of a body at a depth whose spheres may touch a primitive (see
/// `bdtree_collide_primitive_proxies_f32`).
///
/// # Safety
///
/// As [`collide_primitive`].
#[allow(clippy::too_many_arguments)]
pub unsafe fn collide_primitive_proxies<S: Precision>(
    body: *mut BodySlot<S>,
    proxy_depth: u32,
    primitive: *const PrimitiveSlot<S>,
    stack_ptr: *mut bdtree_node_pair,
    stack_len: usize,
    proxies: *mut S::PrimitiveProxy,
    capacity: usize,
    count: *mut usize,
    stats: *mut bdtree_stats,
) -> bdtree_status {
    // SAFETY: forwarded.
    let run = || unsafe {
        clear_outputs(count, stats)?;
        let body = raw::object_mut(body, S::BODY)?;
        let primitive = raw::object(primitive, S::PRIMITIVE)?;
        let stack = stack(stack_ptr, stack_len)?;
        let mut sink = CBuffer::new(raw::slice_mut(proxies, capacity)?);
        let outcome =
            bdtree_core::collide_primitive_proxies(body, proxy_depth, primitive, stack, &mut sink);
        finish(outcome, sink.len, count, stats)
    };
    status(run())
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
        let out = raw::slice_mut(origin, 3)?;
        out.fill(0.0);
        // `[f64; 3]` has the alignment of `f64`; `slice` checks that `count` triples fit.
        let points = raw::slice(translations.cast::<[f64; 3]>(), count)?;
        if points.iter().flatten().any(|x| !x.is_finite()) {
            return Err(bdtree_status::NonFiniteTranslation);
        }
        out.copy_from_slice(&bdtree_core::floating_origin(points));
        Ok(())
    };
    status(run())
}

/// Stack entries a primitive query on a tree of this depth needs.
pub fn primitive_stack_entries(depth: u32) -> usize {
    primitive_stack_capacity(depth)
}

/// Stack entries a query between trees of these depths needs.
pub fn stack_entries(depth_a: u32, depth_b: u32) -> usize {
    stack_capacity(depth_a, depth_b)
}

/// Stack entries a self-collision query on a tree of this depth needs.
pub fn self_stack_entries(depth: u32) -> usize {
    self_stack_capacity(depth)
}

/// Stack entries a proxy query needs.
pub fn proxy_stack_entries(tree_a: u32, proxy_a: u32, tree_b: u32, proxy_b: u32) -> usize {
    proxy_stack_capacity(tree_a, proxy_a, tree_b, proxy_b)
}

/// Makes a traversal with its pending list in the caller's storage.
///
/// # Safety
///
/// `traversal` NULL or writable for the object; `storage` NULL or writable for `len` bytes,
/// used by nothing else while the traversal is.
pub unsafe fn traversal_init<S: Precision>(
    traversal: *mut TraversalSlot<S>,
    storage: *mut c_void,
    len: usize,
    order: u32,
) -> bdtree_status {
    // SAFETY: forwarded.
    unsafe { raw::forget(traversal) };
    // SAFETY: forwarded.
    let run = || unsafe {
        raw::check(traversal)?;
        let order = match order {
            BDTREE_ORDER_BREADTH_FIRST => Order::BreadthFirst,
            BDTREE_ORDER_DEEPEST_FIRST => Order::DeepestFirst,
            BDTREE_ORDER_LARGEST_FIRST => Order::LargestFirst,
            _ => return Err(bdtree_status::BadArgument),
        };
        let storage = storage.cast::<u8>();
        if storage.is_null() {
            return Err(bdtree_status::NullPointer);
        }
        if storage.align_offset(BDTREE_STORAGE_ALIGN) != 0 {
            return Err(bdtree_status::Misaligned);
        }
        let entries = len / core::mem::size_of::<Pending<S>>();
        if entries == 0 {
            return Err(bdtree_status::StorageTooSmall);
        }
        let pending = raw::zeroed_part::<Pending<S>>(storage, len, 0, entries)?;
        raw::init(traversal, S::TRAVERSAL, Traversal::new(pending, order))
    };
    status(run())
}

/// Begins a traversal for the bodies' current step.
///
/// # Safety
///
/// `traversal` a traversal object; `a`, `b` body objects.
pub unsafe fn traversal_start<S: Precision>(
    traversal: *mut TraversalSlot<S>,
    a: *mut BodySlot<S>,
    b: *mut BodySlot<S>,
) -> bdtree_status {
    // SAFETY: forwarded.
    let run = || unsafe {
        let t = raw::object_mut(traversal, S::TRAVERSAL)?;
        let (a, b) = two_bodies(a, b)?;
        match bdtree_status::from(t.start(a, b)) {
            bdtree_status::Ok => Ok(()),
            s => Err(s),
        }
    };
    status(run())
}

/// What pays for a traversal run.
pub enum RunBudget {
    /// A number of tests.
    Tests(u32),
    /// A C clock and the tick it must not reach.
    Until(CClock, u64),
}

/// A caller's monotonic clock: a C function and its context.
pub struct CClock {
    now: unsafe extern "C" fn(*mut c_void) -> u64,
    context: *mut c_void,
}

impl CClock {
    /// A clock from a C function (NULL: none).
    pub fn new(
        now: Option<unsafe extern "C" fn(*mut c_void) -> u64>,
        context: *mut c_void,
    ) -> Option<Self> {
        Some(Self { now: now?, context })
    }
}

impl Clock for CClock {
    fn now(&mut self) -> u64 {
        // SAFETY: the caller of `bdtree_traversal_run_until_*` vouches that the function may be
        // called with its context.
        unsafe { (self.now)(self.context) }
    }
}

/// Refines pending pairs within a budget, appending confirmed pairs at `pairs[*count]`.
///
/// # Safety
///
/// `traversal` a traversal object; `a`, `b` body objects; `pairs` valid for `capacity`
/// entries; `count` readable and writable; `stats` NULL or writable.
#[allow(clippy::too_many_arguments)]
pub unsafe fn traversal_run<S: Precision>(
    traversal: *mut TraversalSlot<S>,
    a: *mut BodySlot<S>,
    b: *mut BodySlot<S>,
    budget: RunBudget,
    pairs: *mut bdtree_triangle_pair,
    capacity: usize,
    count: *mut usize,
    stats: *mut bdtree_stats,
) -> bdtree_status {
    // SAFETY: forwarded.
    let run = || unsafe {
        put(stats, bdtree_stats::default())?;
        raw::check(count)?;
        let start = count.read();
        let t = raw::object_mut(traversal, S::TRAVERSAL)?;
        let (a, b) = two_bodies(a, b)?;
        let items = raw::slice_mut(pairs, capacity)?;
        let free = items.get_mut(start..).ok_or(bdtree_status::BadArgument)?;
        let mut sink = CBuffer::<bdtree_triangle_pair>::new(free);
        let outcome = match budget {
            RunBudget::Tests(tests) => t.run(a, b, &mut TestBudget::new(tests), &mut sink),
            RunBudget::Until(clock, deadline) => {
                t.run(a, b, &mut Deadline::new(clock, deadline), &mut sink)
            }
        };
        count.write(start.saturating_add(sink.len));
        put(stats, outcome.stats.into())?;
        match bdtree_status::from(outcome.status) {
            bdtree_status::Ok => Ok(()),
            s => Err(s),
        }
    };
    status(run())
}

/// Pairs pending in a traversal (0 for a bad object).
///
/// # Safety
///
/// `traversal` NULL or a traversal object.
pub unsafe fn traversal_pending<S: Precision>(traversal: *mut TraversalSlot<S>) -> usize {
    // SAFETY: forwarded.
    match unsafe { raw::object_mut(traversal, S::TRAVERSAL) } {
        Ok(t) => t.pending_len(),
        Err(_) => 0,
    }
}
