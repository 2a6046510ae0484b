//! Triangle pairs: every intersecting pair of two bodies (`bdtree_collide_*`), of one body
//! (`bdtree_collide_self_*`), and the exact second stage of an f32 answer (`bdtree_refine_*`).

use core::ffi::c_void;

use bdtree_core::query::self_collision::UnitCounts;
use bdtree_core::{Body, ConeSlot, Scalar, SelfCones, TrianglePair};

use crate::body::{bdtree_body_f32, bdtree_body_f64, two_bodies, BodySlot};
use crate::ffi::{self, Precision};
use crate::query::{
    bdtree_node_pair, bdtree_stats, bdtree_triangle_pair, clear_outputs, finish, stack, CBuffer,
};
use crate::status::{bdtree_status, status, Result};

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
        let mut sink = CBuffer::new(ffi::slice_mut(pairs, capacity)?);
        let outcome = bdtree_core::collide(a, b, stack, &mut sink);
        finish(outcome, sink.len, count, stats)
    };
    status(run())
}

/// Bytes of cone storage per node a self-collision query on an image with its culling data
/// needs (`bdtree_collide_self_*`): one slot of a mark and a 14-bit cone.
pub const BDTREE_CONE_SLOT_BYTES: usize = 8;

const _: () = assert!(core::mem::size_of::<ConeSlot>() == BDTREE_CONE_SLOT_BYTES);
const _: () = assert!(core::mem::align_of::<ConeSlot>() <= 4);

/// Every intersecting pair of non-adjacent triangles of one body: culled with the image's data
/// when it carries it ([`bdtree_core::collide_self_image`]), in `cones` (`cones_len` bytes,
/// at least `nodes × BDTREE_CONE_SLOT_BYTES`, 4-byte aligned; NULL and 0 for an image
/// without the data).
///
/// # Safety
///
/// As [`collide()`], with one body; `cones` NULL or writable for `cones_len` bytes that
/// nothing else uses during the call.
#[allow(clippy::too_many_arguments)]
pub unsafe fn collide_self<S: Precision>(
    body: *mut BodySlot<S>,
    cones: *mut c_void,
    cones_len: usize,
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
        let body = ffi::object_mut(body, S::BODY)?;
        let stack = stack(stack_ptr, stack_len)?;
        let mut sink = CBuffer::new(ffi::slice_mut(pairs, capacity)?);
        let nodes = if body.tree().self_data().is_some() {
            body.tree().node_count()
        } else {
            0
        };
        let slots: &mut [ConeSlot] = if nodes == 0 {
            &mut []
        } else {
            let cones = cones.cast::<u8>();
            if cones.is_null() {
                return Err(bdtree_status::NullPointer);
            }
            ffi::zeroed_part(cones, cones_len, 0, nodes)?
        };
        let mut cones = SelfCones::new(slots);
        let outcome = bdtree_core::collide_self_image(
            body,
            &mut cones,
            &mut UnitCounts::default(),
            stack,
            &mut sink,
        );
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
        ffi::out(kept)?.write(0);
        let (a, b) = (ffi::object(a, S::BODY)?, ffi::object(b, S::BODY)?);
        let pairs = ffi::slice_mut(pairs.cast::<TrianglePair>(), count)?;
        check_triangles(a, b, pairs)?;
        ffi::out(kept)?.write(bdtree_core::refine(a, b, pairs));
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

/// Stack entries a self-collision query on a tree of depth `depth` needs.
#[no_mangle]
pub extern "C" fn bdtree_self_stack_capacity(depth: u32) -> usize {
    bdtree_core::self_stack_capacity(depth)
}

/// The exported functions of triangle pairs in f32 (`exports_f64` below is generated from them,
/// word for word in the other precision).
#[allow(clippy::too_many_arguments)] // C functions take buffers as pointer and length pairs.
pub mod exports_f32 {
    use super::*;

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
            collide::<f32>(
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

    /// Finds every intersecting pair of non-adjacent triangles of one body (`a < b` in each pair).
    /// `stack` needs `bdtree_self_stack_capacity(depth)` entries. When the body's image carries
    /// the self-collision culling data (`bdtree build --self-cull`; `bdtree_image_info`'s
    /// `self_cull`), the query culls with it — a patch proven free by its certificate, or by its
    /// normal cone and contour, costs no sphere and no triangle test — and `cones` must hold
    /// `nodes × BDTREE_CONE_SLOT_BYTES` bytes (4-byte aligned; scratch, cleared by each call);
    /// without the data `cones` may be NULL and `cones_len` 0 (the plain walk). The same pairs
    /// either way. Statuses as `bdtree_collide_f32`, and `BDTREE_STATUS_STORAGE_TOO_SMALL` for
    /// short cone storage.
    ///
    /// # Safety
    ///
    /// As `bdtree_collide_f32`, with one body; `cones` NULL or writable for `cones_len` bytes.
    #[no_mangle]
    pub unsafe extern "C" fn bdtree_collide_self_f32(
        body: *mut bdtree_body_f32,
        cones: *mut c_void,
        cones_len: usize,
        stack: *mut bdtree_node_pair,
        stack_len: usize,
        pairs: *mut bdtree_triangle_pair,
        capacity: usize,
        count: *mut usize,
        stats: *mut bdtree_stats,
    ) -> bdtree_status {
        // SAFETY: as above.
        unsafe {
            collide_self::<f32>(
                body.cast(),
                cones,
                cones_len,
                stack,
                stack_len,
                pairs,
                capacity,
                count,
                stats,
            )
        }
    }

    /// The exact second stage of a query: re-tests each of the `count` pairs a query reported
    /// (`bdtree_collide_f32`, `bdtree_collide_self_f32` — pass the same body twice —, a traversal)
    /// in double precision on the bodies' stored model and current state, widened only by the
    /// model's storage rounding, and keeps, in their order at the front of `pairs`, those that may
    /// intersect; `*kept` of them. Still conservative: every intersecting pair of the model is
    /// kept. On single-precision bodies it drops the pairs the query's own rounding let in (15 % of
    /// the true pairs on the query bench's scene, none left after); about 0.2 µs per pair on a
    /// desktop; on a Cortex-M4F (soft double) 24,000 instructions per pair on average over the
    /// fixture scenes, from 13,000 (rigid bodies) to 37,000 (90 modes) per scene and up to 97,000
    /// in one call (the cost table at the top of this header), and 5.3 KB of stack (two memos of
    /// 64 f64 vertices). On double-precision bodies,
    /// whose query is exact already, it keeps every pair. Call it in the same step as the query
    /// (the bodies' state unchanged). Every pair must name a triangle of `a` (`.a`) and one of `b`
    /// (`.b`): when one does not, nothing is re-tested and the call returns
    /// `BDTREE_STATUS_INCONSISTENT` with `pairs` as given and `*kept` 0 (treat them all as
    /// possibly intersecting); bodies of a bounded-depth image give `BDTREE_STATUS_TRUNCATED`.
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
        unsafe { refine::<f32>(a.cast(), b.cast(), pairs, count, kept) }
    }
}

// `exports_f64`: the functions of `exports_f32` in f64, word for word, written by `build.rs`
// (`twin.rs`).
include!(concat!(env!("OUT_DIR"), "/triangles_f64.rs"));
