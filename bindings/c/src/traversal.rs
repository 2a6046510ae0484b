//! The interruptible, resumable query (`bdtree_traversal_*`): its object, its pending list in
//! the caller's storage, runs paid for by a test budget or a clock.

use core::ffi::c_void;

use bdtree_core::query::traversal::{Order, Pending};
use bdtree_core::walk::budget::{Clock, Deadline, TestBudget};
use bdtree_core::Traversal;

use crate::body::{bdtree_body_f32, bdtree_body_f64, two_bodies, BodySlot, BDTREE_STORAGE_ALIGN};
use crate::ffi::{self, holds, put, Precision, Slot};
use crate::query::{bdtree_stats, bdtree_triangle_pair, CBuffer};
use crate::status::{bdtree_status, status};

/// Bytes of one pending pair of a traversal in f32.
pub const BDTREE_PENDING_ENTRY_BYTES_F32: usize = 12;

/// Bytes of one pending pair of a traversal in f64.
pub const BDTREE_PENDING_ENTRY_BYTES_F64: usize = 16;

// The sizes the header states are the kernel's, on every target this library builds for.
const _: () = {
    use core::mem::{align_of, size_of};
    assert!(size_of::<Pending<f32>>() == BDTREE_PENDING_ENTRY_BYTES_F32);
    assert!(size_of::<Pending<f64>>() == BDTREE_PENDING_ENTRY_BYTES_F64);
    assert!(align_of::<Pending<f64>>() <= BDTREE_STORAGE_ALIGN);
};

/// Traversal order (`bdtree_traversal_init_*`): first in, first out — an interrupted query has
/// refined all pairs to about the same level (the interruptible-collision paper's order).
pub const BDTREE_ORDER_BREADTH_FIRST: u32 = 0;

/// Traversal order: the pair with the largest sphere penetration first.
pub const BDTREE_ORDER_DEEPEST_FIRST: u32 = 1;

/// Traversal order: the pair with the largest `r_a + r_b` first (shrinks the cover fastest).
pub const BDTREE_ORDER_LARGEST_FIRST: u32 = 2;

/// 64-bit words of a `bdtree_traversal_f32`/`bdtree_traversal_f64` on a 64-bit target.
#[cfg(not(target_pointer_width = "32"))]
pub const BDTREE_TRAVERSAL_WORDS: usize = 12;

/// 64-bit words of a `bdtree_traversal_f32`/`bdtree_traversal_f64` on a 32-bit target.
#[cfg(target_pointer_width = "32")]
pub const BDTREE_TRAVERSAL_WORDS: usize = 8;

/// An interruptible, resumable query between two f32 bodies (`bdtree_traversal_init_f32`): its
/// pending list lives in the caller's storage. Opaque; do not copy.
#[repr(C)]
pub struct bdtree_traversal_f32 {
    _opaque: [u64; BDTREE_TRAVERSAL_WORDS],
}

/// An interruptible, resumable query between two f64 bodies (`bdtree_traversal_init_f64`).
#[repr(C)]
pub struct bdtree_traversal_f64 {
    _opaque: [u64; BDTREE_TRAVERSAL_WORDS],
}

holds!(bdtree_traversal_f32, Traversal<'static, f32>);
holds!(bdtree_traversal_f64, Traversal<'static, f64>);

/// What a C traversal object holds.
pub type TraversalSlot<S> = Slot<Traversal<'static, S>>;

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
    unsafe { ffi::forget(traversal) };
    // SAFETY: forwarded.
    let run = || unsafe {
        ffi::check(traversal)?;
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
        let pending = ffi::zeroed_part::<Pending<S>>(storage, len, 0, entries)?;
        ffi::init(traversal, S::TRAVERSAL, Traversal::new(pending, order))
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
        let t = ffi::object_mut(traversal, S::TRAVERSAL)?;
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
        ffi::check(count)?;
        let start = count.read();
        let t = ffi::object_mut(traversal, S::TRAVERSAL)?;
        let (a, b) = two_bodies(a, b)?;
        let items = ffi::slice_mut(pairs, capacity)?;
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
    match unsafe { ffi::object_mut(traversal, S::TRAVERSAL) } {
        Ok(t) => t.pending_len(),
        Err(_) => 0,
    }
}

/// The exported functions of the interruptible query in f32 (`exports_f64` below is generated from them,
/// word for word in the other precision).
#[allow(clippy::too_many_arguments)] // C functions take buffers as pointer and length pairs.
pub mod exports_f32 {
    use super::*;

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
        unsafe { traversal_init::<f32>(traversal.cast(), storage, len, order) }
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
        unsafe { traversal_start::<f32>(traversal.cast(), a.cast(), b.cast()) }
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
            traversal_run::<f32>(
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
            traversal_run::<f32>(
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
        unsafe { traversal_pending::<f32>(traversal.cast()) }
    }
}

// `exports_f64`: the functions of `exports_f32` in f64, word for word, written by `build.rs`
// (`twin.rs`).
include!(concat!(env!("OUT_DIR"), "/traversal_f64.rs"));
