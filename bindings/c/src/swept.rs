//! The swept query: every triangle pair two moving bodies may touch between two steps, with a
//! conservative earliest time (`bdtree_collide_swept_*`).

use bdtree_core::{collide_swept as core_swept, SweptPair};

use crate::body::{bdtree_body_f32, bdtree_body_f64, two_bodies, BodySlot};
use crate::ffi::{self, Precision};
use crate::query::{bdtree_node_pair, bdtree_stats, clear_outputs, finish, stack, CBuffer};
use crate::status::{bdtree_status, status};

/// A triangle pair that may touch during a motion, in f32 (`bdtree_collide_swept_f32`).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct bdtree_swept_pair_f32 {
    /// Triangle of the first body.
    pub a: u32,
    /// Triangle of the second body.
    pub b: u32,
    /// A conservative earliest time of the motion, in [0, 1]: the pair cannot touch before it.
    pub time: f32,
}

/// A triangle pair that may touch during a motion, in f64.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct bdtree_swept_pair_f64 {
    /// Triangle of the first body.
    pub a: u32,
    /// Triangle of the second body.
    pub b: u32,
    /// A conservative earliest time of the motion, in [0, 1].
    pub time: f64,
}

macro_rules! swept_from {
    ($c:ident, $s:ty) => {
        impl From<SweptPair<$s>> for $c {
            fn from(p: SweptPair<$s>) -> Self {
                Self {
                    a: p.a,
                    b: p.b,
                    time: p.time,
                }
            }
        }
    };
}

swept_from!(bdtree_swept_pair_f32, f32);

swept_from!(bdtree_swept_pair_f64, f64);

/// Every triangle pair of two moving bodies that may touch during the motion between two
/// steps (see `bdtree_collide_swept_f32`).
///
/// # Safety
///
/// Four distinct body objects; `stack` valid for `stack_len` entries, `pairs` for `capacity`;
/// `count` writable; `stats` NULL or writable.
#[allow(clippy::too_many_arguments)]
pub unsafe fn collide_swept<S: Precision, P: From<SweptPair<S>>>(
    a_from: *mut BodySlot<S>,
    a_to: *mut BodySlot<S>,
    b_from: *mut BodySlot<S>,
    b_to: *mut BodySlot<S>,
    stack_ptr: *mut bdtree_node_pair,
    stack_len: usize,
    pairs: *mut P,
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
        let mut sink = CBuffer::new(ffi::slice_mut(pairs, capacity)?);
        let outcome = core_swept(a_from, a_to, b_from, b_to, stack, &mut sink);
        finish(outcome, sink.len, count, stats)
    };
    status(run())
}

/// The exported functions of the swept query in f32 (`exports_f64` below is generated from them,
/// word for word in the other precision).
#[allow(clippy::too_many_arguments)] // C functions take buffers as pointer and length pairs.
pub mod exports_f32 {
    use super::*;

    /// Finds every triangle pair of two moving bodies that may touch at **some** time of the motion
    /// between two steps (a swept query: a fast body cannot pass through another between ticks
    /// unseen) and writes them to `pairs` with a conservative earliest time each (`*count` of them,
    /// in traversal order). Each object is given as two bodies over one image: its state at the
    /// previous step (`a_from`, `b_from`) and at this one (`a_to`, `b_to`); between them `q` and the
    /// translation move linearly and the rotation by slerp on the shorter arc. Set the four states
    /// relative to one origin (`bdtree_body_set_state_from_f64_f32`), the `bdtree_floating_origin`
    /// of the four translations, as the command-line tool does. `stack` needs `bdtree_stack_capacity(depth_a, depth_b)` entries. Never misses a pair
    /// that touches at some time; a reported pair comes within the rounding bounds of touching at
    /// its time, or is where a capped conservative advancement stopped. With vertex caches the
    /// leaf reads both ends' vertices from them; bodies without one report the same pairs with
    /// earliest times that may differ in the last advancement step (the command-line tool's
    /// bodies have vertex caches). Statuses as
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
            collide_swept::<f32, _>(
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
}

// @generated below: `exports_f64`, from `exports_f32` by `cargo xtask c --overwrite` (a test
// checks it is current); do not edit it.

/// The functions of `exports_f32` in f64, word for word (its documentation is theirs).
#[allow(clippy::too_many_arguments)] // C functions take buffers as pointer and length pairs.
pub mod exports_f64 {
    use super::*;

    /// Finds every triangle pair of two moving bodies that may touch at **some** time of the motion
    /// between two steps (a swept query: a fast body cannot pass through another between ticks
    /// unseen) and writes them to `pairs` with a conservative earliest time each (`*count` of them,
    /// in traversal order). Each object is given as two bodies over one image: its state at the
    /// previous step (`a_from`, `b_from`) and at this one (`a_to`, `b_to`); between them `q` and the
    /// translation move linearly and the rotation by slerp on the shorter arc. Set the four states
    /// relative to one origin (`bdtree_body_set_state_from_f64_f64`), the `bdtree_floating_origin`
    /// of the four translations, as the command-line tool does. `stack` needs `bdtree_stack_capacity(depth_a, depth_b)` entries. Never misses a pair
    /// that touches at some time; a reported pair comes within the rounding bounds of touching at
    /// its time, or is where a capped conservative advancement stopped. With vertex caches the
    /// leaf reads both ends' vertices from them; bodies without one report the same pairs with
    /// earliest times that may differ in the last advancement step (the command-line tool's
    /// bodies have vertex caches). Statuses as
    /// `bdtree_collide_f64`; the same body twice is `BDTREE_STATUS_SAME_BODY`, bodies of one object
    /// over different images `BDTREE_STATUS_INCONSISTENT`. Costs several static queries (README,
    /// "Swept queries").
    ///
    /// # Safety
    ///
    /// The four bodies must be distinct `bdtree_body_f64` objects; `stack` must point to
    /// `stack_len` writable entries, `pairs` to `capacity` writable entries; `count` must be
    /// writable; `stats` NULL or writable. None of these may overlap.
    #[no_mangle]
    pub unsafe extern "C" fn bdtree_collide_swept_f64(
        a_from: *mut bdtree_body_f64,
        a_to: *mut bdtree_body_f64,
        b_from: *mut bdtree_body_f64,
        b_to: *mut bdtree_body_f64,
        stack: *mut bdtree_node_pair,
        stack_len: usize,
        pairs: *mut bdtree_swept_pair_f64,
        capacity: usize,
        count: *mut usize,
        stats: *mut bdtree_stats,
    ) -> bdtree_status {
        // SAFETY: as above.
        unsafe {
            collide_swept::<f64, _>(
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
}
