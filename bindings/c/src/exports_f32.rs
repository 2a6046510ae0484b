//! The exported functions in f32 (`exports_f64.rs` is this file with `f32` replaced by `f64`:
//! a test checks it).
// C functions take their buffers as pointer and length pairs.
#![allow(clippy::too_many_arguments)]

use core::ffi::{c_char, c_void};

use crate::api::{self, CClock, RunBudget};
use crate::types::{
    bdtree_body_f32, bdtree_image_f32, bdtree_image_info, bdtree_nearest_f32, bdtree_node_pair,
    bdtree_proxy_pair_f32, bdtree_stats, bdtree_status, bdtree_swept_pair_f32,
    bdtree_traversal_f32, bdtree_triangle_pair,
};

/// Validates a tree image of f32 scalars and views it in place (zero-copy): header, length,
/// checksum, every link, index and value (`O(size)`, once). On success `image` holds the view;
/// on failure it is marked unusable and the status names the problem
/// (`BDTREE_STATUS_IMAGE_…`; `bdtree_image_check_f32` gives the kernel's full message).
///
/// # Safety
///
/// `bytes` must point to `len` readable bytes, aligned to 4 (16 is always enough), that stay
/// valid and unchanged while the image view or any body made from it is used (flash, a
/// `static` array, or a heap block the caller frees afterwards). `image` must be NULL or
/// point to writable memory for a `bdtree_image_f32`.
#[no_mangle]
pub unsafe extern "C" fn bdtree_image_parse_f32(
    bytes: *const u8,
    len: usize,
    image: *mut bdtree_image_f32,
) -> bdtree_status {
    // SAFETY: the caller's contract above is the one `api` requires.
    unsafe { api::image_parse::<f32>(bytes, len, image.cast()) }
}

/// Validates a tree image of f32 scalars and writes the kernel's message into `message`:
/// `"ok"`, or the problem (e.g. `"tree image checksum mismatch (stored 0x…, computed 0x…):
/// the image is corrupt"`), truncated to `capacity − 1` bytes and NUL-terminated. Returns the
/// status `bdtree_image_parse_f32` would.
///
/// # Safety
///
/// `bytes` must point to `len` readable bytes aligned to 4; `message` must point to
/// `capacity` writable bytes (NULL when `capacity` is 0).
#[no_mangle]
pub unsafe extern "C" fn bdtree_image_check_f32(
    bytes: *const u8,
    len: usize,
    message: *mut c_char,
    capacity: usize,
) -> bdtree_status {
    // SAFETY: as above.
    unsafe { api::image_check::<f32>(bytes, len, message, capacity) }
}

/// Writes what a parsed image holds (nodes, triangles, vertices, modes, depth, …) to `info`.
///
/// # Safety
///
/// `image` must be NULL or point to a `bdtree_image_f32` (parsed, or at least zeroed);
/// `info` must be NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn bdtree_image_info_f32(
    image: *const bdtree_image_f32,
    info: *mut bdtree_image_info,
) -> bdtree_status {
    // SAFETY: as above.
    unsafe { api::image_info::<f32>(image.cast(), info) }
}

/// Bytes of storage a body over `image` needs: the sphere cache (`nodes ×
/// BDTREE_CACHE_ENTRY_BYTES_F32`), the mode storage (`5M` floats) and, with
/// `BDTREE_BODY_VERTEX_CACHE` in `options`, the vertex cache (`vertices ×
/// BDTREE_VERTEX_ENTRY_BYTES_F32`), each rounded up to 8 bytes — the same number as the
/// header's `BDTREE_BODY_STORAGE_F32(nodes, modes, vertices)` for static storage. Returns 0
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
    unsafe { api::body_storage_size::<f32>(image.cast(), options) }
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
    unsafe { api::body_init::<f32>(body.cast(), image.cast(), storage, len, options) }
}

/// Starts a new step: sets the body's pose — a unit quaternion `rotation = (w, x, y, z)`
/// (scalar first, normalised before use; refused when `| ‖q‖ − 1 | > 10⁻⁶`) and `translation =
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
    unsafe { api::body_set_state::<f32>(body.cast(), rotation, translation, q, q_len) }
}

/// Starts a new step from a state held in doubles: as `bdtree_body_set_state_f32`, with
/// `translation − origin` computed in double before anything is rounded (a **floating origin**:
/// give every body of a query the same `origin`, near the bodies, and the body's precision
/// depends on how far the bodies are apart, not on where the robot cell sits; every world
/// coordinate the queries then give for this body — spheres, contact points, witnesses — is
/// relative to `origin`). The rounding of the state to the body's scalar is bounded and widens
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
        api::body_set_state_from_f64::<f32>(body.cast(), rotation, translation, origin, q, q_len)
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
    unsafe { api::body_sphere::<f32>(body.cast(), node, sphere) }
}

/// Finds every intersecting triangle pair of two bodies in their current step and writes them
/// to `pairs` (in traversal order; `*count` of them). `stack` is scratch space of `stack_len`
/// entries, at least `bdtree_stack_capacity(depth_a, depth_b)`. When the buffer fills, the
/// query stops with `BDTREE_STATUS_OUTPUT_FULL` and `*count == capacity`: the pairs written are
/// valid and more exist. `stats` (NULL when not wanted) receives the work counters.
///
/// Conservative: every intersecting pair (touching counts) is reported; a pair that misses by
/// less than the documented rounding inflation may be reported too.
///
/// # Safety
///
/// `a` and `b` must be distinct `bdtree_body_f32` objects; `stack` must point to `stack_len`
/// writable entries, `pairs` to `capacity` writable entries; `count` must be writable;
/// `stats` NULL or writable. None of these may overlap.
#[no_mangle]
pub unsafe extern "C" fn bdtree_collide_f32(
    a: *mut bdtree_body_f32,
    b: *mut bdtree_body_f32,
    stack: *mut bdtree_node_pair,
    stack_len: usize,
    pairs: *mut bdtree_triangle_pair,
    capacity: usize,
    count: *mut usize,
    stats: *mut bdtree_stats,
) -> bdtree_status {
    // SAFETY: as above.
    unsafe {
        api::collide::<f32>(
            a.cast(),
            b.cast(),
            stack,
            stack_len,
            pairs,
            capacity,
            count,
            stats,
        )
    }
}

/// Finds every triangle pair of two moving bodies that may touch at **some** time of the motion
/// between two steps (a swept query: a fast body cannot pass through another between ticks
/// unseen) and writes them to `pairs` with a conservative earliest time each (`*count` of them,
/// in traversal order). Each object is given as two bodies over one image: its state at the
/// previous step (`a_from`, `b_from`) and at this one (`a_to`, `b_to`); between them `q` and the
/// translation move linearly and the rotation by slerp on the shorter arc. Set the four states
/// relative to one origin (`bdtree_body_set_state_from_f64_f32`) for bodies far from the world
/// origin. `stack` needs `bdtree_stack_capacity(depth_a, depth_b)` entries. Never misses a pair
/// that touches at some time; a reported pair comes within the rounding bounds of touching at
/// its time, or is not proved apart over 1/64 of the motion from it. Statuses as
/// `bdtree_collide_f32`; the same body twice is `BDTREE_STATUS_SAME_BODY`, bodies of one object
/// over different images `BDTREE_STATUS_INCONSISTENT`. Costs several static queries (README,
/// "Swept queries").
///
/// # Safety
///
/// The four bodies must be distinct `bdtree_body_f32` objects; `stack` must point to
/// `stack_len` writable entries, `pairs` to `capacity` writable entries; `count` must be
/// writable; `stats` NULL or writable. None of these may overlap.
#[no_mangle]
pub unsafe extern "C" fn bdtree_collide_swept_f32(
    a_from: *mut bdtree_body_f32,
    a_to: *mut bdtree_body_f32,
    b_from: *mut bdtree_body_f32,
    b_to: *mut bdtree_body_f32,
    stack: *mut bdtree_node_pair,
    stack_len: usize,
    pairs: *mut bdtree_swept_pair_f32,
    capacity: usize,
    count: *mut usize,
    stats: *mut bdtree_stats,
) -> bdtree_status {
    // SAFETY: as above.
    unsafe {
        api::collide_swept::<f32>(
            a_from.cast(),
            a_to.cast(),
            b_from.cast(),
            b_to.cast(),
            stack,
            stack_len,
            pairs,
            capacity,
            count,
            stats,
        )
    }
}

/// Finds every intersecting pair of non-adjacent triangles of one body (`a < b` in each pair).
/// `stack` needs `bdtree_self_stack_capacity(depth)` entries. Statuses as
/// `bdtree_collide_f32`.
///
/// # Safety
///
/// As `bdtree_collide_f32`, with one body.
#[no_mangle]
pub unsafe extern "C" fn bdtree_collide_self_f32(
    body: *mut bdtree_body_f32,
    stack: *mut bdtree_node_pair,
    stack_len: usize,
    pairs: *mut bdtree_triangle_pair,
    capacity: usize,
    count: *mut usize,
    stats: *mut bdtree_stats,
) -> bdtree_status {
    // SAFETY: as above.
    unsafe {
        api::collide_self::<f32>(body.cast(), stack, stack_len, pairs, capacity, count, stats)
    }
}

/// The exact second stage of a query: re-tests each of the `count` pairs a query reported
/// (`bdtree_collide_f32`, `bdtree_collide_self_f32` — pass the same body twice —, a traversal)
/// in double precision on the bodies' stored model and current state, widened only by the
/// model's storage rounding, and keeps, in their order at the front of `pairs`, those that may
/// intersect; `*kept` of them. Still conservative: every intersecting pair of the model is
/// kept. On single-precision bodies it drops the pairs the query's own rounding let in (15 % of
/// the true pairs on the query bench's scene, none left after); about 0.2 µs per pair on a
/// desktop, ~21,000 instructions on a Cortex-M4F (soft double). On double-precision bodies,
/// whose query is exact already, it keeps every pair. Call it in the same step as the query
/// (the bodies' state unchanged).
///
/// # Safety
///
/// `a` and `b` must be `bdtree_body_f32` objects (may be the same one); `pairs` must point to
/// `count` readable and writable entries; `kept` must be writable.
#[no_mangle]
pub unsafe extern "C" fn bdtree_refine_f32(
    a: *const bdtree_body_f32,
    b: *const bdtree_body_f32,
    pairs: *mut bdtree_triangle_pair,
    count: usize,
    kept: *mut usize,
) -> bdtree_status {
    // SAFETY: as above.
    unsafe { api::refine::<f32>(a.cast(), b.cast(), pairs, count, kept) }
}

/// The bounded-depth query for contact response: every pair of contact proxies (nodes at depth
/// `depth_a` of `a` and `depth_b` of `b`, or leaves above them) whose world spheres overlap,
/// with both spheres and the penetration depth. The trees must be nested (`bdtree build
/// --nested`; otherwise `BDTREE_STATUS_NOT_NESTED`); every intersecting triangle pair lies
/// under a reported proxy pair. `stack` needs `bdtree_proxy_stack_capacity(…)` entries.
///
/// # Safety
///
/// As `bdtree_collide_f32`.
#[no_mangle]
pub unsafe extern "C" fn bdtree_collide_proxies_f32(
    a: *mut bdtree_body_f32,
    depth_a: u32,
    b: *mut bdtree_body_f32,
    depth_b: u32,
    stack: *mut bdtree_node_pair,
    stack_len: usize,
    pairs: *mut bdtree_proxy_pair_f32,
    capacity: usize,
    count: *mut usize,
    stats: *mut bdtree_stats,
) -> bdtree_status {
    // SAFETY: as above.
    unsafe {
        api::collide_proxies::<f32>(
            a.cast(),
            depth_a,
            b.cast(),
            depth_b,
            stack,
            stack_len,
            pairs,
            capacity,
            count,
            stats,
        )
    }
}

/// The exact minimum distance between two deformed bodies (0 when they intersect) with its
/// witness points, triangles and the unit normal from `a` to `b`, written to `nearest`.
/// `stack` needs `bdtree_stack_capacity(depth_a, depth_b)` entries.
///
/// # Safety
///
/// `a` and `b` must be distinct `bdtree_body_f32` objects; `stack` `stack_len` writable
/// entries; `nearest` writable; `stats` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn bdtree_distance_f32(
    a: *mut bdtree_body_f32,
    b: *mut bdtree_body_f32,
    stack: *mut bdtree_node_pair,
    stack_len: usize,
    nearest: *mut bdtree_nearest_f32,
    stats: *mut bdtree_stats,
) -> bdtree_status {
    // SAFETY: as above.
    unsafe { api::distance::<f32>(a.cast(), b.cast(), stack, stack_len, nearest, stats) }
}

/// Makes an interruptible query in the caller's object, with its pending list in `storage`
/// (`len / BDTREE_PENDING_ENTRY_BYTES_F32` entries, aligned to `BDTREE_STORAGE_ALIGN`; a
/// full list is reported, never overrun) and an order (`BDTREE_ORDER_…`).
///
/// # Safety
///
/// `traversal` must be NULL or point to writable memory for a `bdtree_traversal_f32`;
/// `storage` NULL or `len` writable bytes that nothing else uses while the traversal is used.
#[no_mangle]
pub unsafe extern "C" fn bdtree_traversal_init_f32(
    traversal: *mut bdtree_traversal_f32,
    storage: *mut c_void,
    len: usize,
    order: u32,
) -> bdtree_status {
    // SAFETY: as above.
    unsafe { api::traversal_init::<f32>(traversal.cast(), storage, len, order) }
}

/// Begins a query for the bodies' current step (one sphere test, not charged to any budget):
/// `BDTREE_STATUS_OK` when the roots do not even overlap (nothing to do),
/// `BDTREE_STATUS_INTERRUPTED` when work is pending.
///
/// # Safety
///
/// `traversal` must point to a `bdtree_traversal_f32`; `a` and `b` to distinct
/// `bdtree_body_f32` objects.
#[no_mangle]
pub unsafe extern "C" fn bdtree_traversal_start_f32(
    traversal: *mut bdtree_traversal_f32,
    a: *mut bdtree_body_f32,
    b: *mut bdtree_body_f32,
) -> bdtree_status {
    // SAFETY: as above.
    unsafe { api::traversal_start::<f32>(traversal.cast(), a.cast(), b.cast()) }
}

/// Refines pending pairs until `tests` sphere and triangle tests are spent, appending the
/// confirmed triangle pairs at `pairs[*count]` (in: pairs already in the buffer; out: pairs
/// now in it). `BDTREE_STATUS_OK`: done, the buffer holds exactly what `bdtree_collide_f32`
/// finds. `BDTREE_STATUS_INTERRUPTED`: the budget ran out; the pairs so far and the pending
/// pairs cover every contact; call again in the same step to resume.
/// `BDTREE_STATUS_OUTPUT_FULL`: make room and call again (the refused pair stays pending).
///
/// # Safety
///
/// `traversal` must point to a `bdtree_traversal_f32` started on `a` and `b` (distinct
/// `bdtree_body_f32` objects); `pairs` to `capacity` writable entries; `count` readable and
/// writable with `*count ≤ capacity`; `stats` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn bdtree_traversal_run_f32(
    traversal: *mut bdtree_traversal_f32,
    a: *mut bdtree_body_f32,
    b: *mut bdtree_body_f32,
    tests: u32,
    pairs: *mut bdtree_triangle_pair,
    capacity: usize,
    count: *mut usize,
    stats: *mut bdtree_stats,
) -> bdtree_status {
    // SAFETY: as above.
    unsafe {
        api::traversal_run::<f32>(
            traversal.cast(),
            a.cast(),
            b.cast(),
            RunBudget::Tests(tests),
            pairs,
            capacity,
            count,
            stats,
        )
    }
}

/// As `bdtree_traversal_run_f32`, with a clock budget: a step starts only while
/// `now(context) < deadline` (`now`: any monotonic tick counter — a cycle counter, SysTick,
/// microseconds; it is read before every step, so a run overruns the deadline by at most one
/// step, a few dozen to a few hundred instructions).
///
/// # Safety
///
/// As `bdtree_traversal_run_f32`; `now` must be safe to call with `context` (NULL `now` is
/// refused).
#[no_mangle]
pub unsafe extern "C" fn bdtree_traversal_run_until_f32(
    traversal: *mut bdtree_traversal_f32,
    a: *mut bdtree_body_f32,
    b: *mut bdtree_body_f32,
    now: Option<unsafe extern "C" fn(context: *mut c_void) -> u64>,
    context: *mut c_void,
    deadline: u64,
    pairs: *mut bdtree_triangle_pair,
    capacity: usize,
    count: *mut usize,
    stats: *mut bdtree_stats,
) -> bdtree_status {
    let Some(clock) = CClock::new(now, context) else {
        return bdtree_status::NullPointer;
    };
    // SAFETY: as above.
    unsafe {
        api::traversal_run::<f32>(
            traversal.cast(),
            a.cast(),
            b.cast(),
            RunBudget::Until(clock, deadline),
            pairs,
            capacity,
            count,
            stats,
        )
    }
}

/// Pairs still pending in a traversal (the unrefined part of its cover); 0 for NULL or an
/// unusable object.
///
/// # Safety
///
/// `traversal` must be NULL or point to a `bdtree_traversal_f32`.
#[no_mangle]
pub unsafe extern "C" fn bdtree_traversal_pending_f32(
    traversal: *mut bdtree_traversal_f32,
) -> usize {
    // SAFETY: as above.
    unsafe { api::traversal_pending::<f32>(traversal.cast()) }
}
