//! Pairwise traversal: every intersecting triangle pair between two bodies.

use crate::body::Body;
use crate::image::NONE;
use crate::scalar::Scalar;
use crate::sphere::spheres_overlap;
use crate::triangle::triangles_may_intersect;

/// A pair of triangles, one of each body (indices into each model's triangles).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct TrianglePair {
    /// Triangle of the first body.
    pub a: u32,
    /// Triangle of the second body.
    pub b: u32,
}

/// Where a query puts the pairs it finds. A sink that refuses a pair ends the query with
/// [`QueryStatus::OutputFull`] and gets the refused pair back in the status: nothing is dropped
/// silently.
pub trait ContactSink {
    /// Takes a pair, or hands it back when full.
    fn push(&mut self, pair: TrianglePair) -> Result<(), TrianglePair>;
}

/// Any `FnMut(TrianglePair) -> bool` is a sink; returning `false` refuses the pair.
impl<F: FnMut(TrianglePair) -> bool> ContactSink for F {
    fn push(&mut self, pair: TrianglePair) -> Result<(), TrianglePair> {
        if self(pair) {
            Ok(())
        } else {
            Err(pair)
        }
    }
}

/// A fixed-capacity buffer of pairs.
#[derive(Debug, Clone)]
pub struct ContactBuffer<const N: usize> {
    pairs: [TrianglePair; N],
    len: usize,
}

impl<const N: usize> Default for ContactBuffer<N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const N: usize> ContactBuffer<N> {
    /// An empty buffer.
    pub const fn new() -> Self {
        Self {
            pairs: [TrianglePair { a: 0, b: 0 }; N],
            len: 0,
        }
    }
    /// The pairs held, in the order found.
    pub fn as_slice(&self) -> &[TrianglePair] {
        self.pairs.get(..self.len).unwrap_or(&[])
    }
    /// The pairs held, mutable (e.g. to sort them).
    pub fn as_mut_slice(&mut self) -> &mut [TrianglePair] {
        self.pairs.get_mut(..self.len).unwrap_or(&mut [])
    }
    /// Empties the buffer.
    pub fn clear(&mut self) {
        self.len = 0;
    }
    /// Pairs held.
    pub fn len(&self) -> usize {
        self.len
    }
    /// No pairs held.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl<const N: usize> ContactSink for ContactBuffer<N> {
    fn push(&mut self, pair: TrianglePair) -> Result<(), TrianglePair> {
        let slot = self.pairs.get_mut(self.len).ok_or(pair)?;
        *slot = pair;
        self.len += 1;
        Ok(())
    }
}

/// How a query ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum QueryStatus {
    /// Every intersecting pair was delivered to the sink.
    Complete,
    /// The sink refused `pair`; the pairs delivered before it are valid, and more may exist:
    /// treat the bodies as colliding.
    OutputFull {
        /// The first pair that did not fit.
        pair: TrianglePair,
    },
    /// The stack given is smaller than [`stack_capacity`] requires; nothing was done. Treat the
    /// bodies as possibly colliding.
    StackTooSmall {
        /// Entries required.
        needed: usize,
        /// Entries given.
        given: usize,
    },
    /// A proxy query was asked of a tree that is not nested (built without nesting): nothing
    /// was done. Rebuild the tree nested (see [`crate::proxy`]).
    NotNested,
    /// The proxy sink refused the pair of nodes `a`, `b`; the pairs delivered before it are
    /// valid, and more may exist: treat the bodies as colliding.
    ProxyOutputFull {
        /// The first body's proxy node of the refused pair.
        a: u32,
        /// The second body's proxy node.
        b: u32,
    },
    /// A world query was given more bodies than its sweep or root storage holds: nothing was
    /// done.
    TooManyBodies {
        /// Bodies given.
        bodies: usize,
    },
    /// A node index did not resolve (only possible with a tree and model from different
    /// images); the answer is incomplete: treat the bodies as possibly colliding.
    Inconsistent,
    /// A triangle query was asked of a bounded-depth tree ([`crate::TreeView::is_bounded`]),
    /// which stores no leaves below its depth and no mesh: nothing was done. Treat the bodies
    /// as possibly colliding, or ask a proxy query ([`crate::collide_proxies`]).
    Truncated,
}

impl QueryStatus {
    /// Whether the answer is the complete set of pairs. When `false`, the bodies must be treated
    /// as possibly colliding.
    pub fn is_complete(&self) -> bool {
        matches!(self, Self::Complete)
    }
}

/// Work counters of one query.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct QueryStats {
    /// Node pairs visited: pairs whose spheres overlap, each expanded into its children or, at
    /// two leaves, tested exactly (disjoint pairs are counted in `overlap_tests` only).
    pub nodes_visited: u32,
    /// Spheres updated (first visit of a node in this step; later visits hit the cache).
    pub sphere_updates: u32,
    /// Sphere–sphere overlap tests.
    pub overlap_tests: u32,
    /// Triangle–triangle tests.
    pub triangle_tests: u32,
    /// Pairs delivered to the sink.
    pub pairs: u32,
}

/// The outcome of a query: status and counters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct QueryOutcome {
    /// How it ended.
    pub status: QueryStatus,
    /// What it did.
    pub stats: QueryStats,
}

/// Stack entries a query between trees of these depths needs:
/// `depth_a + depth_b + min(depth_a, depth_b) + 3` node pairs. Each step pops one pair and
/// pushes at most two (one level deeper in one tree, leaving one pending) or four (one level
/// deeper in both, leaving three pending), which bounds the stack by `… + 1`; the traversal
/// needs four writable slots above the top when it expands a pair, hence two spare.
pub const fn stack_capacity(depth_a: u32, depth_b: u32) -> usize {
    let (a, b) = (depth_a as usize, depth_b as usize);
    a + b + if a < b { a } else { b } + 3
}

/// Every pair of triangles, one of `a` and one of `b`, that intersect in the bodies' current
/// states — delivered to `sink` in traversal order (sort them if you need an order).
///
/// Depth-first over node pairs with the caller's `stack` (at least [`stack_capacity`]
/// entries; no recursion, no allocation). A node's sphere is updated the first time any query
/// of the step reaches it. At a pair of overlapping leaves the deformed world vertices of the two
/// triangles are computed and tested exactly (see [`crate::triangle`]); pairs closer than the
/// bodies' rounding-error bounds may be reported, intersecting pairs are never missed.
pub fn collide<S: Scalar>(
    a: &mut Body<'_, '_, S>,
    b: &mut Body<'_, '_, S>,
    stack: &mut [[u32; 2]],
    sink: &mut impl ContactSink,
) -> QueryOutcome {
    let mut stats = QueryStats::default();
    if a.tree().is_bounded() || b.tree().is_bounded() {
        let status = QueryStatus::Truncated;
        return QueryOutcome { status, stats };
    }
    let needed = stack_capacity(a.tree().depth(), b.tree().depth());
    if stack.len() < needed {
        let status = QueryStatus::StackTooSmall {
            needed,
            given: stack.len(),
        };
        return QueryOutcome { status, stats };
    }
    let updates_before = a.update_count().wrapping_add(b.update_count());
    let error = a.error() + b.error();
    let status = run(a, b, stack, sink, error, &mut stats);
    stats.sphere_updates = a
        .update_count()
        .wrapping_add(b.update_count())
        .wrapping_sub(updates_before);
    QueryOutcome { status, stats }
}

fn run<S: Scalar>(
    a: &mut Body<'_, '_, S>,
    b: &mut Body<'_, '_, S>,
    stack: &mut [[u32; 2]],
    sink: &mut impl ContactSink,
    error: S,
    stats: &mut QueryStats,
) -> QueryStatus {
    // Invariant: every pair on the stack has overlapping spheres. A pair's children are tested
    // when it is expanded, with the spheres of the side that did not split reused, and only the
    // overlapping ones are pushed: each node sphere is looked up once per test instead of twice,
    // and disjoint pairs never reach the stack.
    let (Some(sa), Some(sb)) = (a.sphere(0), b.sphere(0)) else {
        return QueryStatus::Inconsistent;
    };
    stats.overlap_tests += 1;
    let Some(root) = stack.first_mut() else {
        return QueryStatus::StackTooSmall {
            needed: 1,
            given: 0,
        };
    };
    *root = [0, 0];
    let mut len = usize::from(spheres_overlap(sa, sb));
    while len > 0 {
        len -= 1;
        let Some(&[i, j]) = stack.get(len) else {
            return QueryStatus::Inconsistent;
        };
        stats.nodes_visited += 1;
        let (Some([la, ra, ta, _]), Some([lb, rb, tb, _])) =
            (a.tree().links(i as usize), b.tree().links(j as usize))
        else {
            return QueryStatus::Inconsistent;
        };
        let (leaf_a, leaf_b) = (ta != NONE, tb != NONE);
        if leaf_a & leaf_b {
            let (Some(va), Some(vb)) =
                (a.world_triangle(ta as usize), b.world_triangle(tb as usize))
            else {
                return QueryStatus::Inconsistent;
            };
            stats.triangle_tests += 1;
            if triangles_may_intersect(&va, &vb, error) {
                let pair = TrianglePair { a: ta, b: tb };
                if let Err(pair) = sink.push(pair) {
                    return QueryStatus::OutputFull { pair };
                }
                stats.pairs += 1;
            }
            continue;
        }
        // Cache hits: both spheres were computed when this pair was tested.
        let (Some(sa), Some(sb)) = (a.sphere(i as usize), b.sphere(j as usize)) else {
            return QueryStatus::Inconsistent;
        };
        let how = split(sa[3], sb[3], leaf_a, leaf_b);
        let sphere = |first: bool, node: u32| {
            if first {
                a.sphere(node as usize)
            } else {
                b.sphere(node as usize)
            }
        };
        let Some(slots) = stack.get_mut(len..len + 4) else {
            return QueryStatus::Inconsistent;
        };
        // Children are written whether or not they overlap and kept only if they do: the
        // overlap test is a coin toss the branch predictor cannot learn.
        let mut kept = 0usize;
        let keep = |pair: [u32; 2], x: [S; 4], y: [S; 4]| {
            if let Some(slot) = slots.get_mut(kept) {
                *slot = pair;
            }
            kept += usize::from(spheres_overlap(x, y));
        };
        let Some(tests) = expand(how, (i, [la, ra], sa), (j, [lb, rb], sb), sphere, keep) else {
            return QueryStatus::Inconsistent;
        };
        stats.overlap_tests += tests;
        len += kept;
    }
    QueryStatus::Complete
}

/// Which node(s) of an overlapping pair a traversal splits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Split {
    /// Both (four child pairs).
    Both,
    /// The first node (two child pairs, the second node kept).
    First,
    /// The second node.
    Second,
}

/// The split rule every traversal uses: the larger sphere, or both when both nodes are
/// internal and their radii are within a factor of two (that saves the intermediate pair,
/// measured 9 % faster); a leaf (or whatever the caller treats as one) is never split.
#[inline(always)]
pub(crate) fn split<S: Scalar>(radius_i: S, radius_j: S, leaf_i: bool, leaf_j: bool) -> Split {
    let i_larger = radius_i >= radius_j;
    let (large, small) = if i_larger {
        (radius_i, radius_j)
    } else {
        (radius_j, radius_i)
    };
    if !leaf_i & !leaf_j & (small + small >= large) {
        Split::Both
    } else if !leaf_i & (leaf_j | i_larger) {
        Split::First
    } else {
        Split::Second
    }
}

/// One side of a pair being expanded: node, children `[left, right]`, sphere.
pub(crate) type Side<S> = (u32, [u32; 2], [S; 4]);

/// Expands a pair by `how`: hands each child pair with its two spheres to `keep` (which tests
/// and keeps the overlapping ones), looking spheres up with `sphere(first_side, node)`.
/// Returns the number of child pairs (2 or 4), or `None` if a child's sphere does not resolve
/// (then `keep` was not called).
#[inline(always)]
pub(crate) fn expand<S: Scalar>(
    how: Split,
    (i, [li, ri], si): Side<S>,
    (j, [lj, rj], sj): Side<S>,
    mut sphere: impl FnMut(bool, u32) -> Option<[S; 4]>,
    mut keep: impl FnMut([u32; 2], [S; 4], [S; 4]),
) -> Option<u32> {
    match how {
        Split::Both => {
            let (il, ir, jl, jr) = (
                sphere(true, li)?,
                sphere(true, ri)?,
                sphere(false, lj)?,
                sphere(false, rj)?,
            );
            keep([li, lj], il, jl);
            keep([li, rj], il, jr);
            keep([ri, lj], ir, jl);
            keep([ri, rj], ir, jr);
            Some(4)
        }
        Split::First => {
            let (il, ir) = (sphere(true, li)?, sphere(true, ri)?);
            keep([li, j], il, sj);
            keep([ri, j], ir, sj);
            Some(2)
        }
        Split::Second => {
            let (jl, jr) = (sphere(false, lj)?, sphere(false, rj)?);
            keep([i, lj], si, jl);
            keep([i, rj], si, jr);
            Some(2)
        }
    }
}
