//! The swept query: every triangle pair two moving bodies may touch between two steps, with a
//! conservative earliest time (`bdtree_collide_swept_*`); and the same query tick after tick
//! with a front of certificates carried in the caller's object and storage
//! (`bdtree_swept_front_*`, `bdtree_collide_swept_front_*`).

use bdtree_core::{
    collide_swept as core_swept, collide_swept_front as core_swept_front, Body, FrontEntry,
    FrontState, SweptFront, SweptPair,
};

use crate::body::{bdtree_body_f32, bdtree_body_f64, two_bodies, BodySlot};
use crate::ffi::{self, holds, mark, put, Precision, Slot};
use crate::query::{bdtree_node_pair, bdtree_stats, clear_outputs, finish, stack, CBuffer};
use crate::status::{bdtree_status, status, Result};

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

/// One entry of a swept front's storage in f32 (`bdtree_collide_swept_front_f32`): a node pair
/// and its margin, written and read by the front only (their contents are meaningless to the
/// caller; do not write to them between calls).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct bdtree_swept_front_entry_f32 {
    /// Node of the first body.
    pub a: u32,
    /// Node of the second body.
    pub b: u32,
    /// The margin left.
    pub margin: f32,
}

/// One entry of a swept front's storage in f64.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct bdtree_swept_front_entry_f64 {
    /// Node of the first body.
    pub a: u32,
    /// Node of the second body.
    pub b: u32,
    /// The margin left.
    pub margin: f64,
}

/// Bytes of one swept front entry in f32 (`bdtree_swept_front_entry_f32`).
pub const BDTREE_SWEPT_FRONT_ENTRY_BYTES_F32: usize = 12;

/// Bytes of one swept front entry in f64 (`bdtree_swept_front_entry_f64`).
pub const BDTREE_SWEPT_FRONT_ENTRY_BYTES_F64: usize = 16;

// The front's storage is handed to the kernel in place: the C entries are the kernel's.
const _: () = {
    use core::mem::{align_of, size_of};
    assert!(size_of::<bdtree_swept_front_entry_f32>() == size_of::<FrontEntry<f32>>());
    assert!(align_of::<bdtree_swept_front_entry_f32>() == align_of::<FrontEntry<f32>>());
    assert!(size_of::<bdtree_swept_front_entry_f64>() == size_of::<FrontEntry<f64>>());
    assert!(align_of::<bdtree_swept_front_entry_f64>() == align_of::<FrontEntry<f64>>());
    assert!(size_of::<FrontEntry<f32>>() == BDTREE_SWEPT_FRONT_ENTRY_BYTES_F32);
    assert!(size_of::<FrontEntry<f64>>() == BDTREE_SWEPT_FRONT_ENTRY_BYTES_F64);
};

/// 64-bit words of a `bdtree_swept_front_f32`/`bdtree_swept_front_f64` on a 64-bit target.
#[cfg(not(target_pointer_width = "32"))]
pub const BDTREE_SWEPT_FRONT_WORDS: usize = 16;

/// 64-bit words of a `bdtree_swept_front_f32`/`bdtree_swept_front_f64` on a 32-bit target.
#[cfg(target_pointer_width = "32")]
pub const BDTREE_SWEPT_FRONT_WORDS: usize = 12;

/// Swept front entries per node of each tree of a pair (`bdtree_swept_front_entries`; the share
/// `bdtree inspect` prints per tree).
pub const BDTREE_SWEPT_FRONT_PER_NODE: usize = 4;

/// Entries of swept front storage (`bdtree_collide_swept_front_*`) to give a pair of trees of
/// `nodes_a` and `nodes_b` nodes (`bdtree_image_info`), as a guide:
/// `2 · BDTREE_SWEPT_FRONT_PER_NODE · (nodes_a + nodes_b)` — two halves, each holding a front of
/// 4 entries per node of the two trees (`BDTREE_SWEPT_FRONT_ENTRIES(nodes_a, nodes_b)` for static
/// arrays; saturating). Measured, not proven: the largest front a pair reached on contact in
/// small patches (a pad resting and sliding on a plate at 60 Hz to 1 kHz; a ball through a
/// sheet or a plate, a sheet flapping through a ball and a bar; boxes touching a floor) was 0.8
/// to 3.9 entries per node of the two trees; contact spread over large areas needs more (a cloth
/// on a ball and a ring, a sheet on a bar, a curtain and a cloth, a blob and a
/// torus: 5 to 35). A front keeps the finest partition it reached, so size for the
/// widest contact the pair will see. Too little storage costs time, never an answer: the front
/// overflows (`bdtree_swept_front_info_*`) and the next query walks from the root.
#[no_mangle]
pub extern "C" fn bdtree_swept_front_entries(nodes_a: u32, nodes_b: u32) -> usize {
    let nodes = (nodes_a as usize).saturating_add(nodes_b as usize);
    nodes.saturating_mul(2 * BDTREE_SWEPT_FRONT_PER_NODE)
}

/// The swept front of one body pair in f32 (`bdtree_swept_front_init_f32`,
/// `bdtree_collide_swept_front_f32`): what the front keeps between ticks besides its entries,
/// which live in the caller's storage. Opaque; a zeroed object is refused
/// (`BDTREE_STATUS_NOT_INITIALIZED`) until initialised; do not copy it.
#[repr(C)]
pub struct bdtree_swept_front_f32 {
    _opaque: [u64; BDTREE_SWEPT_FRONT_WORDS],
}

/// The swept front of one body pair in f64 (`bdtree_swept_front_init_f64`).
#[repr(C)]
pub struct bdtree_swept_front_f64 {
    _opaque: [u64; BDTREE_SWEPT_FRONT_WORDS],
}

/// What a swept front's last query did (`bdtree_swept_front_info_f32`/`_f64`).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct bdtree_swept_front_info {
    /// Entries in the front after the last query (0 after one that failed or did not fit).
    pub entries: usize,
    /// Entries the front can hold: half the entries of the storage the last query was given
    /// (0 before the first).
    pub capacity: usize,
    /// Entries the last query skipped on their margins: no work for their pairs.
    pub certified: usize,
    /// Entries the last query walked again (their margins ran out).
    pub retested: usize,
    /// Whether the last query's front did not fit its storage: the answer is complete, but the
    /// next query walks from the root. Give it more storage.
    pub overflowed: bool,
}

/// What a C swept front holds: the kernel's front state and the storage it was taken over (its
/// address and length: other storage starts an empty front, zeroed first).
pub struct Kept<S: Precision> {
    state: FrontState<S>,
    storage: usize,
    len: usize,
}

holds!(bdtree_swept_front_f32, Kept<f32>);
holds!(bdtree_swept_front_f64, Kept<f64>);

/// What a C swept front object holds.
pub type FrontSlot<S> = Slot<Kept<S>>;

/// A precision's swept front mark.
pub trait FrontPrecision: Precision {
    /// Mark of an initialised swept front object.
    const SWEPT_FRONT: u64;
}

impl FrontPrecision for f32 {
    const SWEPT_FRONT: u64 = mark::SWEPT_FRONT_F32;
}

impl FrontPrecision for f64 {
    const SWEPT_FRONT: u64 = mark::SWEPT_FRONT_F64;
}

/// The four bodies of a swept query: distinct objects (`BDTREE_STATUS_SAME_BODY` otherwise),
/// writable.
///
/// # Safety
///
/// Each NULL or a body object.
unsafe fn four_bodies<'a, S: Precision>(
    a_from: *mut BodySlot<S>,
    a_to: *mut BodySlot<S>,
    b_from: *mut BodySlot<S>,
    b_to: *mut BodySlot<S>,
) -> Result<[&'a mut Body<'static, 'static, S>; 4]> {
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
    // SAFETY: forwarded; the four are distinct objects.
    let ((a_from, a_to), (b_from, b_to)) =
        unsafe { (two_bodies(a_from, a_to)?, two_bodies(b_from, b_to)?) };
    Ok([a_from, a_to, b_from, b_to])
}

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
        let [a_from, a_to, b_from, b_to] = four_bodies(a_from, a_to, b_from, b_to)?;
        let stack = stack(stack_ptr, stack_len)?;
        let mut sink = CBuffer::new(ffi::slice_mut(pairs, capacity)?);
        let outcome = core_swept(a_from, a_to, b_from, b_to, stack, &mut sink);
        finish(outcome, sink.len, count, stats)
    };
    status(run())
}

/// Makes an empty swept front (its first query walks from the root).
///
/// # Safety
///
/// `front` NULL or writable for the object.
pub unsafe fn swept_front_init<S: FrontPrecision>(front: *mut FrontSlot<S>) -> bdtree_status {
    let kept = Kept {
        state: FrontState::NEW,
        storage: 0,
        len: 0,
    };
    // SAFETY: forwarded.
    status(unsafe { ffi::init(front, S::SWEPT_FRONT, kept) })
}

/// What a swept front's last query did.
///
/// # Safety
///
/// `front` NULL or a swept front object; `info` NULL or writable.
pub unsafe fn swept_front_info<S: FrontPrecision>(
    front: *const FrontSlot<S>,
    info: *mut bdtree_swept_front_info,
) -> bdtree_status {
    // SAFETY: forwarded.
    let run = || unsafe {
        ffi::check(info)?;
        let kept = ffi::object(front, S::SWEPT_FRONT)?;
        let s = &kept.state;
        put(
            info,
            bdtree_swept_front_info {
                entries: s.len(),
                capacity: kept.len / 2,
                certified: s.certified(),
                retested: s.retested(),
                overflowed: s.overflowed(),
            },
        )
    };
    status(run())
}

/// The swept query with the front carried from the last call (see
/// `bdtree_collide_swept_front_f32`): `entries` is the front's storage, split in two halves.
///
/// # Safety
///
/// As [`collide_swept`]; `front` a swept front object; `entries` writable for `entries_len`
/// entries, used by nothing else between the front's calls.
#[allow(clippy::too_many_arguments)]
pub unsafe fn collide_swept_front<S: FrontPrecision, P: From<SweptPair<S>>>(
    a_from: *mut BodySlot<S>,
    a_to: *mut BodySlot<S>,
    b_from: *mut BodySlot<S>,
    b_to: *mut BodySlot<S>,
    front: *mut FrontSlot<S>,
    entries: *mut FrontEntry<S>,
    entries_len: usize,
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
        let [a_from, a_to, b_from, b_to] = four_bodies(a_from, a_to, b_from, b_to)?;
        let stack = stack(stack_ptr, stack_len)?;
        let mut sink = CBuffer::new(ffi::slice_mut(pairs, capacity)?);
        let kept = ffi::object_mut(front, S::SWEPT_FRONT)?;
        // The front's own storage holds what it wrote there; other storage (or the first call)
        // is zeroed and starts an empty front.
        let all = if kept.storage == entries.addr() && kept.len == entries_len {
            ffi::slice_mut(entries, entries_len)?
        } else {
            let all = ffi::zeroed_mut(entries, entries_len)?;
            *kept = Kept {
                state: FrontState::NEW,
                storage: entries.addr(),
                len: entries_len,
            };
            all
        };
        let half = entries_len / 2;
        let (first, rest) = all
            .split_at_mut_checked(half)
            .ok_or(bdtree_status::BadArgument)?;
        let second = rest.get_mut(..half).ok_or(bdtree_status::BadArgument)?;
        let mut carried = SweptFront::resume(first, second, kept.state);
        let outcome = core_swept_front(a_from, a_to, b_from, b_to, &mut carried, stack, &mut sink);
        kept.state = carried.suspend();
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

    /// Makes `front` an empty swept front for one body pair (`bdtree_collide_swept_front_f32`):
    /// its first query walks from the root. Call it again to start afresh (as after a jump in
    /// state the caller knows of; a jump it does not say is detected too). The object holds no
    /// pointer: the front's entries are the storage given to each query.
    ///
    /// # Safety
    ///
    /// `front` must be NULL or writable for a `bdtree_swept_front_f32`.
    #[no_mangle]
    pub unsafe extern "C" fn bdtree_swept_front_init_f32(
        front: *mut bdtree_swept_front_f32,
    ) -> bdtree_status {
        // SAFETY: as above.
        unsafe { swept_front_init::<f32>(front.cast()) }
    }

    /// What the front's last query did (`bdtree_swept_front_info`): entries in the front and
    /// room for them, entries certified (skipped on their margins) and retested, whether the
    /// front overflowed its storage.
    ///
    /// # Safety
    ///
    /// `front` must be NULL or a `bdtree_swept_front_f32` object; `info` NULL or writable.
    #[no_mangle]
    pub unsafe extern "C" fn bdtree_swept_front_info_f32(
        front: *const bdtree_swept_front_f32,
        info: *mut bdtree_swept_front_info,
    ) -> bdtree_status {
        // SAFETY: as above.
        unsafe { swept_front_info::<f32>(front.cast(), info) }
    }

    /// `bdtree_collide_swept_f32`'s query tick after tick for one body pair, with a front of
    /// certificates carried from one call to the next in `front` and its storage `entries`: the
    /// node pairs where the last walk stopped, each with a lower bound of its distance at the
    /// end of the motion, lose each body's motion budget per tick and are skipped while it
    /// stays positive, so in slow or resting contact at control rates only the pairs near
    /// contact are walked again. **Answer**: every triangle pair that touches at some time of the
    /// motion, with a conservative earliest time, as `bdtree_collide_swept_f32` (the same leaf
    /// test: a pair both report has the same time; either may report a few pairs that do not
    /// touch which the other does not). **Contract**: the front belongs to one body pair, `a`
    /// then `b`; each call's `a_from` and `b_from` states must be the last call's `a_to` and
    /// `b_to` states, bit for bit — keep two bodies per object and swap their roles each tick,
    /// setting only the new `to` state, at a floating origin kept while the front is (a new
    /// origin is a new state). A call whose `from` states differ (found by a fingerprint of the
    /// states), whose trees differ, after a query that did not complete or after the front
    /// overflowed walks from the root, as the first call after `bdtree_swept_front_init_f32`
    /// does. **Storage**: `entries` holds `entries_len` entries, used as two halves of
    /// `entries_len / 2` (the front and its successor); give the same storage (address and
    /// length) at every call and do not write to it in between. Other storage is zeroed and
    /// starts an empty front (so it may be grown). A front larger than half the storage is
    /// dropped: the answer is complete and the status OK, `bdtree_swept_front_info_f32` says
    /// `overflowed`, and the next call walks from the root — too little storage costs time,
    /// never an answer. How much: `bdtree_swept_front_entries(nodes_a, nodes_b)`, a guide measured
    /// on contact in small patches (`bdtree inspect` prints each tree's share).
    /// `stack` needs `bdtree_stack_capacity(depth_a, depth_b)` entries. Statuses as
    /// `bdtree_collide_swept_f32` (a full output buffer is `BDTREE_STATUS_OUTPUT_FULL`; the next
    /// call then walks from the root); a front not initialised is
    /// `BDTREE_STATUS_NOT_INITIALIZED`.
    ///
    /// # Safety
    ///
    /// As `bdtree_collide_swept_f32`; `front` must be a `bdtree_swept_front_f32` object and
    /// `entries` point to `entries_len` writable entries (NULL allowed when 0) that nothing
    /// else writes to while the front is used. None of these may overlap.
    #[no_mangle]
    pub unsafe extern "C" fn bdtree_collide_swept_front_f32(
        a_from: *mut bdtree_body_f32,
        a_to: *mut bdtree_body_f32,
        b_from: *mut bdtree_body_f32,
        b_to: *mut bdtree_body_f32,
        front: *mut bdtree_swept_front_f32,
        entries: *mut bdtree_swept_front_entry_f32,
        entries_len: usize,
        stack: *mut bdtree_node_pair,
        stack_len: usize,
        pairs: *mut bdtree_swept_pair_f32,
        capacity: usize,
        count: *mut usize,
        stats: *mut bdtree_stats,
    ) -> bdtree_status {
        // SAFETY: as above.
        unsafe {
            collide_swept_front::<f32, _>(
                a_from.cast(),
                a_to.cast(),
                b_from.cast(),
                b_to.cast(),
                front.cast(),
                entries.cast(),
                entries_len,
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

// `exports_f64`: the functions of `exports_f32` in f64, word for word, written by `build.rs`
// (`twin.rs`).
include!(concat!(env!("OUT_DIR"), "/swept_f64.rs"));
