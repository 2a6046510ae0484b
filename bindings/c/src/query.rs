//! What every query shares: its stack (`bdtree_node_pair`, `bdtree_stack_capacity`), its work
//! counters (`bdtree_stats`), the triangle pairs it reports (`bdtree_triangle_pair`), and the
//! frame around the kernel's call — outputs cleared first, a C buffer as the kernel's sink, the
//! count and counters written and the outcome as a status after.

use bdtree_core::{QueryOutcome, QueryStats, Sink, TrianglePair};

use crate::ffi::{self, put};
use crate::status::{bdtree_status, Result};

/// A pair of triangles, one of each body (indices in each mesh's face order; for a
/// self-collision, two triangles of one body with `a < b`).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct bdtree_triangle_pair {
    /// Triangle of the first body.
    pub a: u32,
    /// Triangle of the second body.
    pub b: u32,
}

impl From<TrianglePair> for bdtree_triangle_pair {
    fn from(p: TrianglePair) -> Self {
        Self { a: p.a, b: p.b }
    }
}

// `bdtree_refine_*` hands the caller's pairs to the kernel in place.
const _: () = {
    use core::mem::{align_of, size_of};
    assert!(size_of::<bdtree_triangle_pair>() == size_of::<TrianglePair>());
    assert!(align_of::<bdtree_triangle_pair>() == align_of::<TrianglePair>());
};

/// One stack entry of a depth-first query: a pair of nodes (scratch space; its contents are
/// meaningless to the caller).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct bdtree_node_pair {
    /// Node of the first body.
    pub a: u32,
    /// Node of the second body.
    pub b: u32,
}

const _: () = {
    use core::mem::{align_of, size_of};
    assert!(size_of::<bdtree_node_pair>() == size_of::<[u32; 2]>());
    assert!(align_of::<bdtree_node_pair>() == align_of::<[u32; 2]>());
};

/// Work counters of a query (optional output: pass NULL when not wanted).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct bdtree_stats {
    /// Node pairs visited.
    pub nodes_visited: u32,
    /// Spheres updated (first visit of a node in this step).
    pub sphere_updates: u32,
    /// Sphere overlap tests (and distance bounds).
    pub overlap_tests: u32,
    /// Exact triangle tests.
    pub triangle_tests: u32,
    /// Items delivered.
    pub pairs: u32,
}

impl From<QueryStats> for bdtree_stats {
    fn from(s: QueryStats) -> Self {
        Self {
            nodes_visited: s.nodes_visited,
            sphere_updates: s.sphere_updates,
            overlap_tests: s.overlap_tests,
            triangle_tests: s.triangle_tests,
            pairs: s.pairs,
        }
    }
}

/// The stack of a depth-first query.
///
/// # Safety
///
/// `stack` readable and writable for `len` entries.
pub(crate) unsafe fn stack<'a>(
    stack: *mut bdtree_node_pair,
    len: usize,
) -> Result<&'a mut [[u32; 2]]> {
    // SAFETY: forwarded; `bdtree_node_pair` has the layout of `[u32; 2]` (checked in `types`).
    unsafe { ffi::slice_mut(stack.cast::<[u32; 2]>(), len) }
}

/// Clears `*count` and the statistics before a query (so an error leaves them defined).
///
/// # Safety
///
/// `count` NULL or writable; `stats` NULL or writable.
pub(crate) unsafe fn clear_outputs(count: *mut usize, stats: *mut bdtree_stats) -> Result<()> {
    // SAFETY: forwarded.
    unsafe {
        ffi::out(count)?.write(0);
        put(stats, bdtree_stats::default())
    }
}

/// A C output buffer as a sink: converts and stores items until it is full, then refuses
/// them (the query ends with an output-full status).
pub(crate) struct CBuffer<'a, C> {
    items: &'a mut [C],
    pub(crate) len: usize,
}

impl<'a, C> CBuffer<'a, C> {
    pub(crate) fn new(items: &'a mut [C]) -> Self {
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

/// Writes a query's count and statistics; its status.
///
/// # Safety
///
/// `count` writable; `stats` NULL or writable.
pub(crate) unsafe fn finish(
    outcome: QueryOutcome,
    len: usize,
    count: *mut usize,
    stats: *mut bdtree_stats,
) -> Result<()> {
    // SAFETY: forwarded.
    unsafe {
        ffi::out(count)?.write(len);
        put(stats, outcome.stats.into())?;
    }
    match bdtree_status::from(outcome.status) {
        bdtree_status::Ok => Ok(()),
        s => Err(s),
    }
}

/// Stack entries (`bdtree_node_pair`) a triangle or distance query between trees of depths
/// `depth_a` and `depth_b` needs: `depth_a + depth_b + min(depth_a, depth_b) + 3`.
#[no_mangle]
pub extern "C" fn bdtree_stack_capacity(depth_a: u32, depth_b: u32) -> usize {
    bdtree_core::stack_capacity(depth_a, depth_b)
}
