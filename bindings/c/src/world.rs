//! A world of many bodies: the broad phase over root spheres, a pair filter, then every
//! candidate pair's (and allowed self-collision's) triangle query, over the caller's array of
//! body pointers (`bdtree_collide_world_*`); the filter's words (`bdtree_pair_filter_*`).

use bdtree_core::{
    AllPairs, BitMatrix, BitMatrixView, Body, PairFilter, SweepAndPrune, WorldBodies, WorldOutcome,
    WorldPair,
};

use crate::body::{bdtree_body_f32, bdtree_body_f64, BodySlot};
use crate::ffi::{self, put, Precision};
use crate::query::{bdtree_node_pair, bdtree_stats, stack, CBuffer};
use crate::status::{bdtree_status, status, Result};

/// An intersecting triangle pair of a world: two bodies (indices into the `bodies` array given
/// to `bdtree_collide_world_*`, `a < b`, or `a == b` for a self-collision) and their triangles
/// (each mesh's face order; for a self-collision `triangle_a < triangle_b`).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct bdtree_world_pair {
    /// The first body.
    pub a: u32,
    /// The second body.
    pub b: u32,
    /// Triangle of body `a`.
    pub triangle_a: u32,
    /// Triangle of body `b`.
    pub triangle_b: u32,
}

impl From<WorldPair> for bdtree_world_pair {
    fn from(p: WorldPair) -> Self {
        Self {
            a: p.a,
            b: p.b,
            triangle_a: p.triangles.a,
            triangle_b: p.triangles.b,
        }
    }
}

/// Work counters of a world query (optional output: pass NULL when not wanted).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct bdtree_world_stats {
    /// Root-sphere tests of the broad phase (allowed body pairs whose x extents overlap).
    pub broad_tests: u32,
    /// Body pairs whose root spheres overlap: the pair queries run.
    pub candidate_pairs: u32,
    /// The work counters of every pair and self query, summed.
    pub queries: bdtree_stats,
}

impl From<&WorldOutcome> for bdtree_world_stats {
    fn from(o: &WorldOutcome) -> Self {
        Self {
            broad_tests: o.broad_tests,
            candidate_pairs: o.candidate_pairs,
            queries: o.stats.into(),
        }
    }
}

/// The caller's array of body pointers as the kernel's world bodies: each pointer checked
/// (non-NULL, aligned, an initialised body of the precision) and no two overlapping, before
/// any is used.
struct CBodies<'a, S: Precision> {
    bodies: &'a [*mut BodySlot<S>],
}

impl<'a, S: Precision> CBodies<'a, S> {
    /// Checks every pointer (`NullPointer`, `Misaligned`), that no two bodies overlap
    /// (`SameBody`: `O(n²)` address comparisons), then that each is an initialised body of the
    /// precision (`NotInitialized`).
    ///
    /// # Safety
    ///
    /// Each pointer NULL or a C body object of the precision, accessed through nothing else
    /// for `'a`.
    unsafe fn new(bodies: &'a [*mut BodySlot<S>]) -> Result<Self> {
        for &b in bodies {
            ffi::check(b)?;
        }
        let size = core::mem::size_of::<BodySlot<S>>();
        for (k, &a) in bodies.iter().enumerate() {
            for &b in bodies.iter().skip(k + 1) {
                // Distinct objects lie at least one object apart.
                if (a as usize).abs_diff(b as usize) < size {
                    return Err(bdtree_status::SameBody);
                }
            }
        }
        for &b in bodies {
            // SAFETY: forwarded; only the mark is read (and no reference is kept).
            unsafe { ffi::object_mut(b, S::BODY) }?;
        }
        Ok(Self { bodies })
    }
}

impl<S: Precision> WorldBodies<'static, 'static, S> for CBodies<'_, S> {
    fn count(&self) -> usize {
        self.bodies.len()
    }

    fn body(&mut self, i: usize) -> Option<&mut Body<'static, 'static, S>> {
        let b = *self.bodies.get(i)?;
        // SAFETY: checked in `new` (an initialised body, accessed through this array only);
        // the reference borrows `self`, so no other body reference is alive.
        unsafe { ffi::object_mut(b, S::BODY) }.ok()
    }

    fn pair(
        &mut self,
        i: usize,
        j: usize,
    ) -> Option<(
        &mut Body<'static, 'static, S>,
        &mut Body<'static, 'static, S>,
    )> {
        if i >= j {
            return None;
        }
        let (a, b) = (*self.bodies.get(i)?, *self.bodies.get(j)?);
        // SAFETY: checked in `new`: two initialised bodies that do not overlap, accessed
        // through this array only; both references borrow `self`.
        unsafe {
            Some((
                ffi::object_mut(a, S::BODY).ok()?,
                ffi::object_mut(b, S::BODY).ok()?,
            ))
        }
    }
}

/// Every intersecting triangle pair of a world (see `bdtree_collide_world_f32`).
///
/// # Safety
///
/// `bodies` readable for `count` pointers, each NULL or a body object; `order`, `roots`,
/// `filter`, `stack`, `pairs` valid for their lengths (`roots` for `4 · roots_len` scalars);
/// `pair_count` writable; `stats` NULL or writable; none of them overlapping.
#[allow(clippy::too_many_arguments)]
pub unsafe fn collide_world<S: Precision>(
    bodies: *const *mut BodySlot<S>,
    count: usize,
    order: *mut u32,
    order_len: usize,
    roots: *mut S,
    roots_len: usize,
    filter: *const u32,
    filter_len: usize,
    stack_ptr: *mut bdtree_node_pair,
    stack_len: usize,
    pairs: *mut bdtree_world_pair,
    capacity: usize,
    pair_count: *mut usize,
    stats: *mut bdtree_world_stats,
) -> bdtree_status {
    // SAFETY: forwarded; `[S; 4]` has the alignment of `S`.
    let run = || unsafe {
        ffi::out(pair_count)?.write(0);
        put(stats, bdtree_world_stats::default())?;
        let bodies = ffi::slice(bodies, count)?;
        let mut bodies = CBodies::new(bodies)?;
        if u32::try_from(count).is_err() {
            return Err(bdtree_status::BadArgument);
        }
        if order_len < count || roots_len < count {
            return Err(bdtree_status::StorageTooSmall);
        }
        let order = ffi::slice_mut(order, order_len)?;
        let roots = ffi::slice_mut(roots.cast::<[S; 4]>(), roots_len)?;
        let stack = stack(stack_ptr, stack_len)?;
        let mut sink = CBuffer::new(ffi::slice_mut(pairs, capacity)?);
        let mut sweep = SweepAndPrune::new(order);
        let outcome = if filter.is_null() {
            bdtree_core::collide_world(&mut bodies, &mut sweep, roots, &AllPairs, stack, &mut sink)
        } else {
            let words = ffi::slice(filter, filter_len)?;
            let matrix = BitMatrixView::new(words, count).ok_or(bdtree_status::StorageTooSmall)?;
            bdtree_core::collide_world(&mut bodies, &mut sweep, roots, &matrix, stack, &mut sink)
        };
        ffi::out(pair_count)?.write(sink.len);
        put(stats, bdtree_world_stats::from(&outcome))?;
        match bdtree_status::from(outcome.status) {
            bdtree_status::Ok => Ok(()),
            s => Err(s),
        }
    };
    status(run())
}

/// The caller's filter words as a matrix of `count` bodies, kept as they are.
///
/// # Safety
///
/// `words` readable and writable for `len` words.
unsafe fn matrix<'a>(words: *mut u32, len: usize, count: usize) -> Result<BitMatrix<'a>> {
    ffi::check(words)?;
    let needed = BitMatrix::checked_words_needed(count).ok_or(bdtree_status::BadArgument)?;
    if len < needed {
        return Err(bdtree_status::StorageTooSmall);
    }
    // SAFETY: forwarded.
    let words = unsafe { ffi::slice_mut(words, len) }?;
    BitMatrix::from_words(words, count).ok_or(bdtree_status::StorageTooSmall)
}

/// `uint32_t` words of a pair filter of `count` bodies: `ceil(count (count + 1) / 2 / 32)`, one
/// bit per unordered pair and per body's self-collision (the header's
/// `BDTREE_PAIR_FILTER_WORDS(count)` is the same number as a constant expression); `SIZE_MAX`
/// when that bit count does not fit a `size_t`.
#[no_mangle]
pub extern "C" fn bdtree_pair_filter_words(count: usize) -> usize {
    BitMatrix::words_needed(count)
}

/// Writes a pair filter of `count` bodies to `words` (`len` of them, at least
/// `bdtree_pair_filter_words(count)`): every pair of distinct bodies allowed, every body's
/// self-collision off. Pair `(i, j)`, `i <= j < count` (`i == j`: body `i`'s self-collision),
/// is bit `k % 32` of `words[k / 32]` with `k = j (j + 1) / 2 + i`; a set bit allows it (so a
/// table may also be computed offline and kept in flash). Words beyond the bits are zeroed.
///
/// Returns `BDTREE_STATUS_STORAGE_TOO_SMALL` when `len` is too short, `…_BAD_ARGUMENT` when
/// the bit count of `count` overflows.
///
/// # Safety
///
/// `words` must point to `len` writable words.
#[no_mangle]
pub unsafe extern "C" fn bdtree_pair_filter_init(
    words: *mut u32,
    len: usize,
    count: usize,
) -> bdtree_status {
    // SAFETY: the caller's contract above.
    let run = || unsafe {
        ffi::check(words)?;
        let needed = BitMatrix::checked_words_needed(count).ok_or(bdtree_status::BadArgument)?;
        if len < needed {
            return Err(bdtree_status::StorageTooSmall);
        }
        BitMatrix::new(ffi::slice_mut(words, len)?, count).ok_or(bdtree_status::StorageTooSmall)?;
        Ok(())
    };
    status(run())
}

/// Allows (`allowed` true) or forbids pair `(i, j)` in a pair filter of `count` bodies (either
/// order; `i == j` turns body `i`'s self-collision on or off), leaving every other bit as it
/// is: adjacent links of an arm, a tool and the part it holds. Returns
/// `BDTREE_STATUS_BAD_ARGUMENT` when `i` or `j` is not below `count`,
/// `…_STORAGE_TOO_SMALL` when `len` is below `bdtree_pair_filter_words(count)`.
///
/// # Safety
///
/// `words` must point to `len` readable and writable words.
#[no_mangle]
pub unsafe extern "C" fn bdtree_pair_filter_set(
    words: *mut u32,
    len: usize,
    count: usize,
    i: usize,
    j: usize,
    allowed: bool,
) -> bdtree_status {
    // SAFETY: the caller's contract above.
    let run = || unsafe {
        let mut m = matrix(words, len, count)?;
        if i >= count || j >= count {
            return Err(bdtree_status::BadArgument);
        }
        m.set(i, j, allowed);
        Ok(())
    };
    status(run())
}

/// Whether a pair filter of `count` bodies allows pair `(i, j)` (either order; `i == j`: body
/// `i`'s self-collision); false for an index not below `count`, NULL `words` or `len` below
/// `bdtree_pair_filter_words(count)`.
///
/// # Safety
///
/// `words` must be NULL or point to `len` readable words.
#[no_mangle]
pub unsafe extern "C" fn bdtree_pair_filter_allows(
    words: *const u32,
    len: usize,
    count: usize,
    i: usize,
    j: usize,
) -> bool {
    if ffi::check(words).is_err() {
        return false;
    }
    // SAFETY: the caller's contract above.
    let Ok(words) = (unsafe { ffi::slice(words, len) }) else {
        return false;
    };
    BitMatrixView::new(words, count).is_some_and(|m| m.allows(i, j))
}

/// The exported functions of worlds in f32 (`exports_f64` below is generated from them, word
/// for word in the other precision).
#[allow(clippy::too_many_arguments)] // C functions take buffers as pointer and length pairs.
pub mod exports_f32 {
    use super::*;

    /// Finds every intersecting triangle pair of a world of `count` bodies in their current step:
    /// between every two bodies the filter allows, and within each body whose self-collision it
    /// allows, and writes them to `pairs` (`*pair_count` of them) as `bdtree_world_pair`s naming
    /// the bodies by their index in `bodies`. The answer is the union of `bdtree_collide_f32` on
    /// each allowed body pair and `bdtree_collide_self_f32` on each allowed body, the same pairs
    /// bit for bit, in the order: body pairs in broad-phase order (each pair's triangles in
    /// traversal order), then self-collisions by body index.
    ///
    /// How: each body's root sphere (node 0, `bdtree_body_sphere_f32`) is written to `roots[4k..4k+4]`
    /// as `[x, y, z, r]`; a sweep-and-prune over them (sorted by the lower end of their x extent,
    /// insertion sort from body order, in `order`) tests every allowed pair whose x extents
    /// overlap (`broad_tests`) and runs the triangle query on each pair whose spheres overlap
    /// (`candidate_pairs`): a pair it skips has no intersecting triangles. Then the allowed
    /// self-collisions.
    ///
    /// **One frame.** All bodies must have their state of this step in one frame: set each with
    /// `bdtree_body_set_state_f32` in world coordinates, or — for a world far from the origin —
    /// each with `bdtree_body_set_state_from_f64_f32` and the same `origin`,
    /// `bdtree_floating_origin` of all `count` translations (then the precision of every pair is
    /// that of the whole world's extent: a small part next to a large body far away gets wider
    /// bounds; for a pair's own precision, query that pair with `bdtree_collide_f32` at the
    /// pair's own floating origin instead).
    ///
    /// Storage, all the caller's and used only during the call:
    ///
    /// * `bodies`: `count` pointers to initialised, distinct bodies (one body twice, or two
    ///   overlapping objects, is `BDTREE_STATUS_SAME_BODY`: checked with `count²/2` address
    ///   comparisons; a NULL entry is `…_NULL_POINTER`, an uninitialised one `…_NOT_INITIALIZED`);
    /// * `order`: `order_len ≥ count` words of scratch for the sweep;
    /// * `roots`: `4 · roots_len` floats, `roots_len ≥ count`: each body's root sphere;
    /// * `filter`: NULL for every pair of distinct bodies and no self-collision, or `filter_len
    ///   ≥ bdtree_pair_filter_words(count)` words written by `bdtree_pair_filter_init` and
    ///   `bdtree_pair_filter_set` (or a `const` table of the same layout);
    /// * `stack`: `stack_len` entries, at least `bdtree_stack_capacity(d, d)` for the deepest
    ///   tree's depth `d`, and `bdtree_self_stack_capacity(d)` when a self-collision is allowed;
    /// * `pairs`: `capacity` entries.
    ///
    /// `order_len` or `roots_len` below `count`, or `filter_len` below what `count` bodies need,
    /// is `BDTREE_STATUS_STORAGE_TOO_SMALL` (nothing done). When `pairs` fills, the query stops
    /// with `BDTREE_STATUS_OUTPUT_FULL` and `*pair_count == capacity`: the pairs written are
    /// valid and more exist. A narrow query that cannot finish (`…_STACK_TOO_SMALL`,
    /// `…_TRUNCATED` for a bounded-depth image) ends the world query with its status: treat the
    /// world as possibly colliding. `stats` (NULL when not wanted) receives the broad phase's
    /// counters and the queries' summed work.
    ///
    /// Conservative as `bdtree_collide_f32`: every intersecting pair (touching counts) is
    /// reported. Refine an f32 answer per body pair with `bdtree_refine_f32`.
    ///
    /// # Safety
    ///
    /// `bodies` must point to `count` readable pointers (NULL when `count` is 0), each NULL or a
    /// `bdtree_body_f32` that nothing else accesses during the call; `order` to `order_len`
    /// writable words; `roots` to `4 · roots_len` writable floats; `filter` NULL or `filter_len`
    /// readable words; `stack` to `stack_len` writable entries; `pairs` to `capacity` writable
    /// entries; `pair_count` writable; `stats` NULL or writable. None of these may overlap.
    #[no_mangle]
    pub unsafe extern "C" fn bdtree_collide_world_f32(
        bodies: *const *mut bdtree_body_f32,
        count: usize,
        order: *mut u32,
        order_len: usize,
        roots: *mut f32,
        roots_len: usize,
        filter: *const u32,
        filter_len: usize,
        stack: *mut bdtree_node_pair,
        stack_len: usize,
        pairs: *mut bdtree_world_pair,
        capacity: usize,
        pair_count: *mut usize,
        stats: *mut bdtree_world_stats,
    ) -> bdtree_status {
        // SAFETY: as above.
        unsafe {
            collide_world::<f32>(
                bodies.cast(),
                count,
                order,
                order_len,
                roots,
                roots_len,
                filter,
                filter_len,
                stack,
                stack_len,
                pairs,
                capacity,
                pair_count,
                stats,
            )
        }
    }
}

// `exports_f64`: the functions of `exports_f32` in f64, word for word, written by `build.rs`
// (`twin.rs`).
include!(concat!(env!("OUT_DIR"), "/world_f64.rs"));
