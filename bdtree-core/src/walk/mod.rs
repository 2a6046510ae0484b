//! The one pair walk every query runs: node pairs of two trees (or of one tree against itself),
//! each query a short policy over it.
//!
//! ```text
//! while a pair is pending:
//!     visit it (a policy may drop it: pruned by a shrinking bound, culled)
//!     two terminal nodes?  → the leaf step (exact triangle test, distance, proxy report)
//!     otherwise            → split the larger bound (both when within a factor of two),
//!                            test each child pair's bounds, offer the overlapping ones
//! ```
//!
//! A query chooses four things:
//!
//! * the **bound** of a node and the **test** of two bounds (world spheres; spheres enlarged
//!   above the proxy depth; oriented boxes; a distance lower bound against the best distance so
//!   far), with the ordering key an ordered container needs;
//! * which nodes are **terminal** (leaves; proxies) and the **leaf step** on two of them;
//! * the **container** of pending pairs: the caller's stack (depth-first), the
//!   nearest-first stack of the distance query, the interruptible traversal's resumable FIFO or
//!   priority list;
//! * the **budget** that pays for each step ([`Budget`]: unlimited, tests, a deadline).
//!
//! The walk owns what they share: the stack discipline, the split rule, child expansion with the
//! bounds of the side that did not split reused, self-collision's Type 1 units, and the
//! counters. Invariant: every pending pair passed its bound test when it was offered (its
//! parent's expansion), so a pair is never tested twice; a tighter bound in one policy helps
//! every container and budget that runs it.

use crate::body::Body;
use crate::geometry::triangle::triangles_may_intersect_boxed;
use crate::image::tree::NONE;
use crate::scalar::Scalar;
use crate::walk::budget::Budget;
use crate::walk::output::{
    report, ContactSink, QueryOutcome, QueryStats, QueryStatus, TrianglePair,
};

pub mod budget;
pub mod output;
mod pending;
mod side;
pub(crate) use pending::{NearestFirst, Pending, Stack};
pub(crate) use side::Side;

/// Stack entries a depth-first pair walk between trees of these depths needs:
/// `depth_a + depth_b + min(depth_a, depth_b) + 3` node pairs. Each step pops one pair and
/// pushes at most two (one level deeper in one tree, leaving one pending) or four (one level
/// deeper in both, leaving three pending), which bounds the stack by `… + 1`; the walk needs
/// four writable slots above the top when it expands a pair, hence two spare.
pub const fn stack_capacity(depth_a: u32, depth_b: u32) -> usize {
    let (a, b) = (depth_a as usize, depth_b as usize);
    a + b + if a < b { a } else { b } + 3
}

/// A node as the walk sees it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Node {
    /// Children `[left, right]` (meaningless for a terminal node).
    pub children: [u32; 2],
    /// The walk does not descend below it (a leaf; a proxy; a cut node).
    pub terminal: bool,
    /// The leaf's triangle, [`NONE`] for other nodes.
    pub triangle: u32,
}

impl Node {
    /// A node from its links `[left, right, triangle, depth]`, terminal at leaves.
    #[inline(always)]
    pub fn leaf_terminal([left, right, triangle, _]: [u32; 4]) -> Self {
        Node {
            children: [left, right],
            terminal: triangle != NONE,
            triangle,
        }
    }
}

/// Which node(s) of an overlapping pair the walk splits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Split {
    /// Both (four child pairs).
    Both,
    /// The first node (two child pairs, the second node kept).
    First,
    /// The second node.
    Second,
}

/// The split rule: the larger bound, or both when both nodes descend and their sizes are within
/// a factor of two (that saves the intermediate pair, measured 9 % faster); a terminal node is
/// never split.
#[inline(always)]
pub(crate) fn split<S: Scalar>(size_i: S, size_j: S, terminal_i: bool, terminal_j: bool) -> Split {
    let i_larger = size_i >= size_j;
    let (large, small) = if i_larger {
        (size_i, size_j)
    } else {
        (size_j, size_i)
    };
    if !terminal_i & !terminal_j & (small + small >= large) {
        Split::Both
    } else if !terminal_i & (terminal_j | i_larger) {
        Split::First
    } else {
        Split::Second
    }
}

/// The split rule of a walk of one tree against itself: both nodes whenever both descend.
/// A self walk's pairs are of nodes of one tree, near each other in size; measured on the
/// crumpling sheets against [`split`]: 2 % fewer instructions.
#[inline(always)]
pub(crate) fn split_both(terminal_i: bool, terminal_j: bool) -> Split {
    match (terminal_i, terminal_j) {
        (false, false) => Split::Both,
        (false, true) => Split::First,
        _ => Split::Second,
    }
}

/// What a popped entry becomes.
pub(crate) enum Visit {
    /// Visit this pair (the entry with any policy tags removed).
    Pair([u32; 2]),
    /// Drop the entry (pruned or culled; the policy did its own accounting).
    Skip,
}

/// What the leaf step says.
pub(crate) enum Flow {
    /// Go on.
    Continue,
    /// The query has its answer (early exit): stop with the walk complete.
    Stop,
}

/// How a walk ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum End {
    /// Nothing is pending (or the leaf step stopped the walk with its answer).
    Complete,
    /// The budget refused a step; the pair is still pending.
    Interrupted,
    /// The container had no room for a pair's children; the pair is still pending.
    Full,
    /// A leaf step or a lookup failed.
    Failed(QueryStatus),
}

impl End {
    /// The status of a walk that has no budget and a container sized in advance (an
    /// interruption or a full container cannot happen; were they to, the tree was not the one
    /// the container was sized for).
    pub fn status(self) -> QueryStatus {
        match self {
            End::Complete => QueryStatus::Complete,
            End::Interrupted | End::Full => QueryStatus::Inconsistent,
            End::Failed(status) => status,
        }
    }
}

/// What a query decides (see the module docs).
pub(crate) trait Policy {
    /// The scalar.
    type S: Scalar;
    /// A node's bound as the walk tests it.
    type Bound: Copy;
    /// The ordering key of a pair (for ordered containers; `()` when unordered).
    type Key: Copy + Default;
    /// The pairs are of one tree with itself: a pair `(i, i)` is a Type 1 unit, expanded into
    /// `(l, l)`, `(r, r)` and, when their bounds overlap, `(l, r)`.
    const SELF: bool = false;

    /// Node `node` of the first (`true`) or second tree.
    fn node(&self, first: bool, node: u32) -> Option<Node>;
    /// The bound of a node (computed on first use in a step, then cached by the body).
    fn bound(&mut self, first: bool, node: u32) -> Option<Self::Bound>;
    /// The bound of a node of a pair this walk pushed: computed when the pair was tested, so a
    /// policy whose bounds the bodies cache may read it without asking whether it is of this
    /// step.
    #[inline(always)]
    fn pending_bound(&mut self, first: bool, node: u32) -> Option<Self::Bound> {
        self.bound(first, node)
    }
    /// The bounds of the two children `[left, right]` of an internal node (in sibling pairs,
    /// `right = left + 1`: a policy whose bounds the bodies cache reads both at once).
    #[inline(always)]
    fn children(&mut self, first: bool, [left, right]: [u32; 2]) -> Option<[Self::Bound; 2]> {
        Some([self.bound(first, left)?, self.bound(first, right)?])
    }
    /// The size the split rule compares (a sphere's radius).
    fn size(bound: &Self::Bound) -> Self::S;
    /// Whether two bounds may overlap (never `None` when the contents may touch), with the
    /// pair's ordering key.
    fn test(&self, a: &Self::Bound, b: &Self::Bound) -> Option<Self::Key>;
    /// A pending entry about to be visited.
    #[inline(always)]
    fn visit(&mut self, entry: [u32; 2]) -> Visit {
        Visit::Pair(entry)
    }
    /// The entry a child pair is stored as (self-collision tags Type 3 pairs).
    #[inline(always)]
    fn tag(&self, child: [u32; 2]) -> [u32; 2] {
        child
    }
    /// A child pair whose bounds are disjoint (self-collision's list records it).
    #[inline(always)]
    fn separated(&mut self, _pair: [u32; 2]) {}
    /// A child pair in the depth-first walk ([`run_query`]): the entry it is stored as and
    /// whether it is kept (its bounds may overlap). The default tests the bounds
    /// ([`Policy::test`]), reports a disjoint pair ([`Policy::separated`]) and tags the entry
    /// ([`Policy::tag`]); a policy that carries what a pair's test found down the walk in the
    /// pair's entry (the swept query's time window) writes its own.
    #[inline(always)]
    fn keep(&mut self, pair: [u32; 2], x: &Self::Bound, y: &Self::Bound) -> ([u32; 2], bool) {
        let overlap = self.test(x, y).is_some();
        if !overlap {
            self.separated(pair);
        }
        (self.tag(pair), overlap)
    }
    /// The sphere updates the bodies walked have made so far (wrapping): what a query's
    /// `sphere_updates` counts is the difference across its walk.
    fn updates(&self) -> u32;
    /// The leaf step on two terminal nodes.
    fn leaf(
        &mut self,
        pair: [u32; 2],
        a: &Node,
        b: &Node,
        stats: &mut QueryStats,
    ) -> Result<Flow, QueryStatus>;
}

/// Runs `policy` over the pairs `pending` holds until none is left, the budget refuses a step,
/// the container is full, or a step fails.
#[inline(always)]
pub(crate) fn walk_pairs<P, C, B>(
    policy: &mut P,
    pending: &mut C,
    budget: &mut B,
    stats: &mut QueryStats,
) -> End
where
    P: Policy,
    C: Pending<P::Key>,
    B: Budget,
{
    const FAILED: End = End::Failed(QueryStatus::Inconsistent);
    while let Some(entry) = pending.peek() {
        let [i, j] = match policy.visit(entry) {
            Visit::Pair(pair) => pair,
            Visit::Skip => {
                pending.pop();
                continue;
            }
        };
        let (Some(a), Some(b)) = (policy.node(true, i), policy.node(false, j)) else {
            return FAILED;
        };
        if P::SELF && i == j {
            // A Type 1 unit: a node against itself.
            if a.terminal {
                stats.nodes_visited += 1;
                pending.pop();
                continue;
            }
            if !pending.room(3) {
                return End::Full;
            }
            if !budget.spend(1) {
                return End::Interrupted;
            }
            let [l, r] = a.children;
            let Some([bl, br]) = policy.children(true, a.children) else {
                return FAILED;
            };
            stats.nodes_visited += 1;
            stats.overlap_tests += 1;
            pending.pop();
            offer(policy, pending, [l, r], &bl, &br);
            pending.offer([r, r], Some(P::Key::default()));
            pending.offer([l, l], Some(P::Key::default()));
            pending.commit();
            continue;
        }
        if a.terminal & b.terminal {
            if !budget.spend(1) {
                return End::Interrupted;
            }
            stats.nodes_visited += 1;
            match policy.leaf([i, j], &a, &b, stats) {
                Ok(Flow::Continue) => pending.pop(),
                Ok(Flow::Stop) => return End::Complete,
                Err(status) => return End::Failed(status),
            }
            continue;
        }
        // Both bounds were computed when this pair was tested.
        let (bi, bj) = if C::FRESH {
            (
                policy.pending_bound(true, i),
                policy.pending_bound(false, j),
            )
        } else {
            (policy.bound(true, i), policy.bound(false, j))
        };
        let (Some(bi), Some(bj)) = (bi, bj) else {
            return FAILED;
        };
        let how = if P::SELF {
            split_both(a.terminal, b.terminal)
        } else {
            split(P::size(&bi), P::size(&bj), a.terminal, b.terminal)
        };
        let tests = if how == Split::Both { 4 } else { 2 };
        if !pending.room(tests) {
            return End::Full;
        }
        if !budget.spend(tests as u32) {
            return End::Interrupted;
        }
        stats.nodes_visited += 1;
        stats.overlap_tests += tests as u32;
        let ([li, ri], [lj, rj]) = (a.children, b.children);
        match how {
            Split::Both => {
                let (Some([il, ir]), Some([jl, jr])) = (
                    policy.children(true, a.children),
                    policy.children(false, b.children),
                ) else {
                    return FAILED;
                };
                pending.pop();
                let children = [
                    child(policy, [li, lj], &il, &jl),
                    child(policy, [li, rj], &il, &jr),
                    child(policy, [ri, lj], &ir, &jl),
                    child(policy, [ri, rj], &ir, &jr),
                ];
                pending.offer_all(&children);
            }
            Split::First => {
                let Some([il, ir]) = policy.children(true, a.children) else {
                    return FAILED;
                };
                pending.pop();
                let children = [
                    child(policy, [li, j], &il, &bj),
                    child(policy, [ri, j], &ir, &bj),
                ];
                pending.offer_all(&children);
            }
            Split::Second => {
                let Some([jl, jr]) = policy.children(false, b.children) else {
                    return FAILED;
                };
                pending.pop();
                let children = [
                    child(policy, [i, lj], &bi, &jl),
                    child(policy, [i, rj], &bi, &jr),
                ];
                pending.offer_all(&children);
            }
        }
        pending.commit();
    }
    End::Complete
}

/// Tests a child pair: the entry it is stored as, and its key when its bounds overlap.
#[inline(always)]
fn child<P: Policy>(
    policy: &mut P,
    pair: [u32; 2],
    x: &P::Bound,
    y: &P::Bound,
) -> ([u32; 2], Option<P::Key>) {
    let key = policy.test(x, y);
    if key.is_none() {
        policy.separated(pair);
    }
    (policy.tag(pair), key)
}

/// Tests a child pair and offers it to the container.
#[inline(always)]
fn offer<P: Policy, C: Pending<P::Key>>(
    policy: &mut P,
    pending: &mut C,
    pair: [u32; 2],
    x: &P::Bound,
    y: &P::Bound,
) {
    let key = policy.test(x, y);
    if key.is_none() {
        policy.separated(pair);
    }
    pending.offer(policy.tag(pair), key);
}

/// The triangle leaf step shared by every triangle query: a box filter (a rejection counts as
/// an overlap test), then the exact test on two world triangles (each vertex known to within `error` per
/// coordinate; counted as a triangle test), and `pair` delivered to the sink when they may
/// intersect.
#[inline(always)]
pub(crate) fn triangle_step<S: Scalar>(
    va: &[[S; 3]; 3],
    vb: &[[S; 3]; 3],
    error: S,
    pair: TrianglePair,
    sink: &mut (impl ContactSink + ?Sized),
    stats: &mut QueryStats,
) -> Result<(), QueryStatus> {
    let (ra, rb) = ([&va[0], &va[1], &va[2]], [&vb[0], &vb[1], &vb[2]]);
    triangle_step_refs(ra, rb, error, pair, false, sink, stats)
}

/// [`triangle_step`] on vertices read in place (the vertex cache's): the box filter reads them
/// where they are, and only a pair that passes it copies its two triangles for the exact test.
/// `boxed`: a walk has already found the pair's coordinate boxes within `error (1 + 2u)` of
/// each other by the same comparisons on the same vertices (the self walk's stored leaf
/// boxes), and the filter is not made again.
#[inline(always)]
pub(crate) fn triangle_step_refs<S: Scalar>(
    va: [&[S; 3]; 3],
    vb: [&[S; 3]; 3],
    error: S,
    pair: TrianglePair,
    boxed: bool,
    sink: &mut (impl ContactSink + ?Sized),
    stats: &mut QueryStats,
) -> Result<(), QueryStatus> {
    // One test per leaf step, as the budgets count them: a box rejection is an overlap test,
    // a pair past the boxes a triangle test.
    if !boxed && boxes_apart(&va, &vb, error) {
        stats.overlap_tests += 1;
        return Ok(());
    }
    stats.triangle_tests += 1;
    let (va, vb) = (va.map(|v| *v), vb.map(|v| *v));
    if triangles_may_intersect_boxed(&va, &vb, error) {
        report(sink, pair, stats)?;
    }
    Ok(())
}

/// Whether the two triangles' coordinate boxes are more than `error` apart on some axis, so
/// that no pair of true triangles (each vertex within `error` of its computed position, both
/// bodies' bounds summed) can meet. The difference `lo - hi` is rounded by at most a relative
/// `u`; requiring it above `error (1 + 2u)` keeps the true gap above `error`.
#[inline(always)]
fn boxes_apart<S: Scalar>(a: &[&[S; 3]; 3], b: &[&[S; 3]; 3], error: S) -> bool {
    let limit = error * (S::ONE + S::from_u32(2) * S::UNIT_ROUNDOFF);
    (0..3).any(|k| {
        let lo = |t: &[&[S; 3]; 3]| t[0][k].min(t[1][k]).min(t[2][k]);
        let hi = |t: &[&[S; 3]; 3]| t[0][k].max(t[1][k]).max(t[2][k]);
        lo(a) - hi(b) > limit || lo(b) - hi(a) > limit
    })
}

/// The checks every triangle query makes before touching anything: no bounded tree (nothing
/// to descend to), a stack of `needed` entries.
pub(crate) fn check_triangle_query(
    bounded: bool,
    needed: usize,
    given: usize,
) -> Result<(), QueryStatus> {
    if bounded {
        return Err(QueryStatus::Truncated);
    }
    if given < needed {
        return Err(QueryStatus::StackTooSmall { needed, given });
    }
    Ok(())
}

/// The two bodies of a pair query, each with its cache lent to the walk ([`Side`]).
pub(crate) struct Bodies<'q, 'ta, 'ca, 'tb, 'cb, S: Scalar> {
    pub a: Side<'q, 'ta, 'ca, S>,
    pub b: Side<'q, 'tb, 'cb, S>,
}

impl<'q, 'ta, 'ca, 'tb, 'cb, S: Scalar> Bodies<'q, 'ta, 'ca, 'tb, 'cb, S> {
    /// The two bodies of a query.
    #[inline(always)]
    pub fn new(a: &'q mut Body<'ta, 'ca, S>, b: &'q mut Body<'tb, 'cb, S>) -> Self {
        Bodies {
            a: Side::new(a),
            b: Side::new(b),
        }
    }

    /// The checks of a triangle query on these bodies with a stack of `given` entries (see
    /// [`check_triangle_query`]).
    pub fn check(&self, given: usize) -> Result<(), QueryStatus> {
        let (a, b) = (self.a.body.tree(), self.b.body.tree());
        let bounded = a.is_bounded() || b.is_bounded();
        let needed = stack_capacity(a.depth(), b.depth());
        check_triangle_query(bounded, needed, given)
    }

    /// The bound on a vertex's error in the pair: both bodies' [`Body::error`] summed.
    pub fn error(&self) -> S {
        self.a.body.error() + self.b.body.error()
    }

    /// The triangle queries' leaf step on two leaves of these bodies: their world triangles
    /// through [`triangle_step`].
    #[inline(always)]
    pub fn triangle_leaf(
        &mut self,
        a: &Node,
        b: &Node,
        error: S,
        sink: &mut (impl ContactSink + ?Sized),
        stats: &mut QueryStats,
    ) -> Result<Flow, QueryStatus> {
        let pair = TrianglePair {
            a: a.triangle,
            b: b.triangle,
        };
        // The common case: both triangles' vertices in the vertex caches (their leaves' spheres
        // deformed them), read in place.
        #[cfg(feature = "speed")]
        if let (Some(va), Some(vb)) = (
            self.a.cached_triangle(a.triangle),
            self.b.cached_triangle(b.triangle),
        ) {
            triangle_step_refs(va, vb, error, pair, false, sink, stats)?;
            return Ok(Flow::Continue);
        }
        let (Some(va), Some(vb)) = (
            self.a.world_triangle(a.triangle),
            self.b.world_triangle(b.triangle),
        ) else {
            return Err(QueryStatus::Inconsistent);
        };
        triangle_step(&va, &vb, error, pair, sink, stats)?;
        Ok(Flow::Continue)
    }

    /// The world triangles of two leaves.
    #[inline(always)]
    pub fn triangles(&mut self, a: &Node, b: &Node) -> Result<[[[S; 3]; 3]; 2], QueryStatus> {
        match (
            self.a.world_triangle(a.triangle),
            self.b.world_triangle(b.triangle),
        ) {
            (Some(va), Some(vb)) => Ok([va, vb]),
            _ => Err(QueryStatus::Inconsistent),
        }
    }

    /// A node of the first (`true`) or second body's tree, terminal at leaves.
    #[inline(always)]
    pub fn leaf_node(&self, first: bool, node: u32) -> Option<Node> {
        let links = if first {
            self.a.links(node)
        } else {
            self.b.links(node)
        };
        links.map(Node::leaf_terminal)
    }

    /// A node's world sphere.
    #[inline(always)]
    pub fn sphere(&mut self, first: bool, node: u32) -> Option<[S; 4]> {
        if first {
            self.a.sphere(node)
        } else {
            self.b.sphere(node)
        }
    }

    /// The world spheres of the two children of a node whose left child is `left` (see
    /// [`Side::child_spheres`]).
    #[inline(always)]
    pub fn child_spheres(&mut self, first: bool, left: u32) -> Option<[[S; 4]; 2]> {
        if first {
            self.a.child_spheres(left)
        } else {
            self.b.child_spheres(left)
        }
    }

    /// A node's world sphere as the cache holds it, without asking whether it is of this step
    /// (see [`Policy::pending_bound`]).
    #[inline(always)]
    pub fn cached_sphere(&self, first: bool, node: u32) -> Option<[S; 4]> {
        if first {
            self.a.cached_sphere(node)
        } else {
            self.b.cached_sphere(node)
        }
    }

    /// The sphere updates both bodies have made (wrapping), to count a query's updates.
    pub fn updates(&self) -> u32 {
        self.a
            .body
            .update_count()
            .wrapping_add(self.b.body.update_count())
    }
}

/// How an ordered container ranks a pair of spheres (unordered: `()`).
pub(crate) trait Rank<S: Scalar> {
    /// The key type.
    type Key: Copy + Default;
    /// The key of two overlapping spheres.
    fn rank(&self, a: &[S; 4], b: &[S; 4]) -> Self::Key;
}

/// No order: the depth-first stack's.
pub(crate) struct Unranked;

impl<S: Scalar> Rank<S> for Unranked {
    type Key = ();
    #[inline(always)]
    fn rank(&self, _: &[S; 4], _: &[S; 4]) {}
}

/// Tests the root pair and, when it overlaps, walks depth-first from it on `stack`.
pub(crate) fn run_from_roots<P: Policy>(
    policy: &mut P,
    stack: &mut [[u32; 2]],
    stats: &mut QueryStats,
) -> QueryStatus {
    let (Some(ra), Some(rb)) = (policy.bound(true, 0), policy.bound(false, 0)) else {
        return QueryStatus::Inconsistent;
    };
    stats.overlap_tests += 1;
    let mut len = 0;
    if policy.test(&ra, &rb).is_some() {
        let Some(slot) = stack.first_mut() else {
            return QueryStatus::StackTooSmall {
                needed: 1,
                given: 0,
            };
        };
        *slot = [0, 0];
        len = 1;
    }
    depth_first(policy, stack, len, stats).status()
}

/// The depth-first walk from one pair whose bounds the policy computed in this query and found
/// overlapping (the swept front re-walks the pairs whose certificates ran out from them).
pub(crate) fn run_from_pair<P: Policy>(
    policy: &mut P,
    stack: &mut [[u32; 2]],
    pair: [u32; 2],
    stats: &mut QueryStats,
) -> QueryStatus {
    let Some(slot) = stack.first_mut() else {
        return QueryStatus::StackTooSmall {
            needed: 1,
            given: 0,
        };
    };
    *slot = pair;
    depth_first(policy, stack, 1, stats).status()
}

/// [`walk`] on the caller's stack with no budget, as every query from the root pair runs it:
/// the same steps, pairs and order, in a loop with less to carry — an entry is popped before
/// its step (nothing interrupts the walk, so nothing needs it pending), and an expansion's
/// children are written straight to the stack, each kept when its bounds overlap.
#[inline(always)]
fn depth_first<P: Policy>(
    policy: &mut P,
    stack: &mut [[u32; 2]],
    mut len: usize,
    stats: &mut QueryStats,
) -> End {
    const FAILED: End = End::Failed(QueryStatus::Inconsistent);
    debug_assert!(!P::SELF);
    while len > 0 {
        len -= 1;
        let Some(&entry) = stack.get(len) else {
            return FAILED;
        };
        let [i, j] = match policy.visit(entry) {
            Visit::Pair(pair) => pair,
            Visit::Skip => continue,
        };
        let (Some(a), Some(b)) = (policy.node(true, i), policy.node(false, j)) else {
            return FAILED;
        };
        stats.nodes_visited += 1;
        if a.terminal & b.terminal {
            match policy.leaf([i, j], &a, &b, stats) {
                Ok(Flow::Continue) => continue,
                Ok(Flow::Stop) => return End::Complete,
                Err(status) => return End::Failed(status),
            }
        }
        let (Some(bi), Some(bj)) = (
            policy.pending_bound(true, i),
            policy.pending_bound(false, j),
        ) else {
            return FAILED;
        };
        let how = split(P::size(&bi), P::size(&bj), a.terminal, b.terminal);
        let children = if how == Split::Both { 4 } else { 2 };
        let Some(slots) = stack.get_mut(len..len + children) else {
            return End::Full;
        };
        let mut kept = 0;
        let mut keep = |policy: &mut P, pair: [u32; 2], x: &P::Bound, y: &P::Bound| {
            let (entry, overlap) = policy.keep(pair, x, y);
            if let Some(slot) = slots.get_mut(kept) {
                *slot = entry;
            }
            kept += usize::from(overlap);
        };
        match how {
            Split::Both => {
                let (Some([il, ir]), Some([jl, jr])) = (
                    policy.children(true, a.children),
                    policy.children(false, b.children),
                ) else {
                    return FAILED;
                };
                let ([li, ri], [lj, rj]) = (a.children, b.children);
                stats.overlap_tests += 4;
                keep(policy, [li, lj], &il, &jl);
                keep(policy, [li, rj], &il, &jr);
                keep(policy, [ri, lj], &ir, &jl);
                keep(policy, [ri, rj], &ir, &jr);
            }
            Split::First => {
                let Some([il, ir]) = policy.children(true, a.children) else {
                    return FAILED;
                };
                let [li, ri] = a.children;
                stats.overlap_tests += 2;
                keep(policy, [li, j], &il, &bj);
                keep(policy, [ri, j], &ir, &bj);
            }
            Split::Second => {
                let Some([jl, jr]) = policy.children(false, b.children) else {
                    return FAILED;
                };
                let [lj, rj] = b.children;
                stats.overlap_tests += 2;
                keep(policy, [i, lj], &bi, &jl);
                keep(policy, [i, rj], &bi, &jr);
            }
        }
        len += kept;
    }
    End::Complete
}

/// The frame of a pair query on the caller's stack: the query's entry checks (`check`), the
/// walk from the root pair, and the sphere updates it made counted.
pub(crate) fn run_query<P: Policy>(
    policy: &mut P,
    stack: &mut [[u32; 2]],
    check: Result<(), QueryStatus>,
) -> QueryOutcome {
    let mut stats = QueryStats::default();
    if let Err(status) = check {
        return QueryOutcome { status, stats };
    }
    let before = policy.updates();
    let status = run_from_roots(policy, stack, &mut stats);
    stats.sphere_updates = policy.updates().wrapping_sub(before);
    QueryOutcome { status, stats }
}

/// The part of a policy over two bodies' world spheres that does not change between queries:
/// nodes terminal at leaves, a node's bound its world sphere (its radius the size), the bodies'
/// sphere updates. The policy has a `bodies: Bodies` field and writes its `Key`, `test` and
/// `leaf`.
macro_rules! sphere_walk {
    () => {
        type S = S;
        type Bound = [S; 4];

        #[inline(always)]
        fn node(&self, first: bool, node: u32) -> Option<$crate::walk::Node> {
            self.bodies.leaf_node(first, node)
        }

        #[inline(always)]
        fn bound(&mut self, first: bool, node: u32) -> Option<[S; 4]> {
            self.bodies.sphere(first, node)
        }

        #[inline(always)]
        fn pending_bound(&mut self, first: bool, node: u32) -> Option<[S; 4]> {
            self.bodies.cached_sphere(first, node)
        }

        #[inline(always)]
        fn children(&mut self, first: bool, children: [u32; 2]) -> Option<[[S; 4]; 2]> {
            self.bodies.child_spheres(first, children[0])
        }

        #[inline(always)]
        fn size(bound: &[S; 4]) -> S {
            bound[3]
        }

        fn updates(&self) -> u32 {
            self.bodies.updates()
        }
    };
}
pub(crate) use sphere_walk;
