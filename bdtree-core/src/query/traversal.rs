//! Time-critical queries: interruptible, ordered and resumable traversal (Mendoza &
//! O'Sullivan's interruptible collision detection, on the BD-Tree).
//!
//! A control loop has a fixed slot per tick. [`Traversal`] runs the pairwise traversal with a
//! **pending list** of node pairs in the caller's fixed storage and checks a [`Budget`] before
//! each unit of work; when the budget runs out it stops, and its state — the triangle pairs
//! confirmed so far (delivered to the sink) plus the pairs still pending — is a **conservative
//! cover**: every intersecting triangle pair is either confirmed or lies under a pending pair
//! (its triangles are leaves below the pending pair's two nodes). Calling [`Traversal::run`]
//! again in the same step (bodies' states unchanged) resumes where it stopped, so a query spread
//! over several ticks ends with exactly the answer of an uninterrupted one.
//!
//! # The loop (the paper's Fig. 7, with children tested at expansion)
//!
//! Every pending pair overlaps (its spheres were tested when it was pushed). One step takes
//! the next pair by the [`Order`]: two leaves get their exact triangle test (a confirmed pair
//! goes to the sink); otherwise the pair is split as in [`crate::collide()`] and its 2 or 4
//! child pairs are tested, the overlapping ones pushed. The budget is charged before the step
//! with its number of tests (1 triangle test, or 2 or 4 sphere tests), so a step never
//! starts that the budget cannot pay. A pair leaves the list only once its step is done: a full
//! sink or a full list stops the query with the pair still pending, and the cover stays
//! conservative.
//!
//! # Orders
//!
//! * [`Order::BreadthFirst`]: FIFO, the paper's order — an interrupted query has refined all
//!   pairs to about the same level.
//! * [`Order::DeepestFirst`]: the pair with the largest sphere penetration `r_a + r_b − ‖c_a −
//!   c_b‖` first (a binary max-heap): the deepest overlaps reach the leaves first.
//! * [`Order::LargestFirst`]: the pair with the largest `r_a + r_b` first: refines the
//!   coarsest parts of the cover first, shrinking it fastest.
//!
//! `bdtree interrupt` measures them (fraction of the true contacts confirmed and cover size
//! against the budget; see the book's `docs/src/performance/interruptible.md`).
//!
//! # Budgets
//!
//! [`TestBudget`](crate::TestBudget) counts tests (deterministic: for tests, fixtures and worst-case sizing);
//! [`Deadline`](crate::Deadline) reads a [`Clock`](crate::Clock) — a monotonic tick counter the caller supplies. On a
//! Cortex-M with a cycle counter:
//!
//! ```ignore
//! struct Cycles; // DWT CYCCNT, extended to 64 bits by the caller's overflow handling
//! impl bdtree_core::Clock for Cycles {
//!     fn now(&mut self) -> u64 { cortex_m::peripheral::DWT::cycle_count() as u64 }
//! }
//! let budget = Deadline::new(Cycles, start + 200_000); // 200 k cycles of this tick's slot
//! ```
//!
//! and on a host, `std::time::Instant` (see `bdtree-std/examples/interrupt.rs`). A clock is
//! read before every step (a few dozen to a few hundred instructions of work each), so a step
//! never overruns the deadline by more than one step.

use crate::body::Body;
use crate::query::triangles::Triangles;
use crate::scalar::Scalar;
use crate::walk::output::{ContactSink, QueryStats, QueryStatus, TrianglePair};
use crate::walk::{walk_pairs, Bodies, End, Pending as Container, Policy, Rank};

use crate::walk::budget::Budget;

/// Which pending pair is refined next.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Order {
    /// First in, first out (the paper's breadth-first order).
    #[default]
    BreadthFirst,
    /// Largest sphere penetration `r_a + r_b − ‖c_a − c_b‖` first. The norm is
    /// [`Scalar::sqrt_key`]: libm's square root, or with the `micromath` feature (f32) a bit
    /// approximation within 6.1 % — an order only, never a bound: every pair is still refined
    /// before the traversal reports done.
    DeepestFirst,
    /// Largest `r_a + r_b` first.
    LargestFirst,
}

/// One pending pair: the two nodes and the priority it was pushed with.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Pending<S> {
    /// Node of the first body.
    pub a: u32,
    /// Node of the second body.
    pub b: u32,
    /// Priority (unused by [`Order::BreadthFirst`]).
    pub key: S,
}

impl<S: Scalar> Pending<S> {
    /// An empty slot, to fill storage arrays with.
    pub const EMPTY: Self = Self {
        a: 0,
        b: 0,
        key: S::ZERO,
    };
}

impl<S: Scalar> Default for Pending<S> {
    fn default() -> Self {
        Self::EMPTY
    }
}

/// How a call to [`Traversal::run`] ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum RunStatus {
    /// Nothing is pending: every intersecting pair has been delivered (over all calls since
    /// [`Traversal::start`]).
    Done,
    /// The budget ran out; the pending pairs and the delivered ones form a conservative cover.
    /// Call again (same step) to resume.
    Interrupted,
    /// The pending list is full: a pair could not be refined. The cover is conservative; the
    /// query cannot progress without more storage. Treat the pending pairs as colliding.
    PendingFull,
    /// The sink refused `pair` (it stays pending; a later call retries it).
    OutputFull {
        /// The refused pair.
        pair: TrianglePair,
    },
    /// A body's state changed since [`Traversal::start`] (its spheres are of another step):
    /// nothing was done. Start again.
    StateChanged,
    /// A node or triangle index did not resolve (a tree and model from different images).
    Inconsistent,
    /// A body's tree is bounded-depth ([`crate::TreeView::is_bounded`]): it has no triangles
    /// to refine to. Nothing was done; treat the bodies as possibly colliding.
    Truncated,
}

/// The progress of one call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct RunOutcome {
    /// How the call ended.
    pub status: RunStatus,
    /// Work counters of this call (`pairs`: confirmed pairs delivered in this call).
    pub stats: QueryStats,
}

/// The progress of a [`Traversal`] without its storage ([`Traversal::suspend`],
/// [`Traversal::resume`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Suspended {
    head: usize,
    len: usize,
    order: Order,
    steps: Option<(u32, u32)>,
}

/// A resumable, interruptible query between two bodies; the pending list lives in the caller's
/// storage (`N` entries bound the cover; [`Traversal::needed_capacity`] gives a safe size for
/// breadth-first order on small trees, any size works and a full list is reported).
pub struct Traversal<'p, S: Scalar> {
    pending: &'p mut [Pending<S>],
    /// Ring-buffer start (FIFO) — 0 for the heap orders.
    head: usize,
    len: usize,
    order: Order,
    /// The bodies' steps at [`Traversal::start`].
    steps: Option<(u32, u32)>,
}

impl<'p, S: Scalar> Traversal<'p, S> {
    /// A traversal with this storage and order; call [`Traversal::start`] before running.
    pub fn new(storage: &'p mut [Pending<S>], order: Order) -> Self {
        Self {
            pending: storage,
            head: 0,
            len: 0,
            order,
            steps: None,
        }
    }

    /// A pending-list size that never fills for trees of `nodes_a` and `nodes_b` nodes (every
    /// node pair at once; affordable for small trees only — otherwise size by measurement and
    /// handle [`RunStatus::PendingFull`]).
    pub const fn needed_capacity(nodes_a: usize, nodes_b: usize) -> usize {
        nodes_a.saturating_mul(nodes_b).saturating_add(4)
    }

    /// Begins a query for the bodies' current step: tests the root pair and makes it pending
    /// if the roots overlap. Costs one test, not charged to any budget.
    pub fn start(&mut self, a: &mut Body<'_, '_, S>, b: &mut Body<'_, '_, S>) -> RunStatus {
        self.head = 0;
        self.len = 0;
        if a.tree().is_bounded() || b.tree().is_bounded() {
            self.steps = None;
            return RunStatus::Truncated;
        }
        self.steps = Some((a.step(), b.step()));
        let (Some(sa), Some(sb)) = (a.sphere(0), b.sphere(0)) else {
            return RunStatus::Inconsistent;
        };
        if crate::bounds::sphere::spheres_overlap(sa, sb)
            && !self.push(0, 0, self.order.rank(&sa, &sb))
        {
            return RunStatus::PendingFull;
        }
        if self.len == 0 {
            RunStatus::Done
        } else {
            RunStatus::Interrupted
        }
    }

    /// Ends the borrow of the storage and keeps the traversal's progress (ring start, count,
    /// order, the bodies' steps at [`Traversal::start`]), to [`Traversal::resume`] it later
    /// over the same storage — for owners that cannot keep the storage borrowed between calls
    /// (a host object that owns both). Free: copies four words.
    pub fn suspend(self) -> Suspended {
        Suspended {
            head: self.head,
            len: self.len,
            order: self.order,
            steps: self.steps,
        }
    }

    /// A traversal resumed from [`Traversal::suspend`] over `storage`, which must be the
    /// storage it was suspended from, unchanged (its pending pairs are the cover). Storage
    /// shorter than the progress needs gives a traversal whose [`Traversal::run`] reports
    /// [`RunStatus::StateChanged`] (start again); never a panic.
    pub fn resume(storage: &'p mut [Pending<S>], progress: Suspended) -> Self {
        let fits =
            progress.len <= storage.len() && (progress.len == 0 || progress.head < storage.len());
        let (head, len, steps) = if fits {
            (progress.head, progress.len, progress.steps)
        } else {
            (0, 0, None)
        };
        Self {
            pending: storage,
            head,
            len,
            order: progress.order,
            steps,
        }
    }

    /// Pairs pending (the unrefined part of the cover).
    pub fn pending_len(&self) -> usize {
        self.len
    }

    /// The pending pairs `(node_a, node_b)`, in storage order.
    pub fn pending(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        (0..self.len).filter_map(move |k| {
            let slot = match self.order {
                Order::BreadthFirst => self.ring(k),
                _ => k,
            };
            self.pending.get(slot).map(|p| (p.a, p.b))
        })
    }

    /// The storage slot of the `k`-th pair of the FIFO ring (`k < len ≤ capacity`).
    #[inline]
    fn ring(&self, k: usize) -> usize {
        let at = self.head.saturating_add(k);
        match at.checked_sub(self.pending.len()) {
            Some(wrapped) => wrapped,
            None => at,
        }
    }

    /// Pushes a pair with its key; `false` when full.
    fn push(&mut self, a: u32, b: u32, key: S) -> bool {
        if self.len >= self.pending.len() {
            return false;
        }
        let entry = Pending { a, b, key };
        if self.order == Order::BreadthFirst {
            let slot = self.ring(self.len);
            if let Some(s) = self.pending.get_mut(slot) {
                *s = entry;
            }
            self.len += 1;
            return true;
        }
        // Max-heap: sift up.
        let mut k = self.len;
        self.len += 1;
        while k > 0 {
            let parent = (k - 1) / 2;
            match self.pending.get(parent) {
                Some(p) if p.key < entry.key => {
                    let p = *p;
                    if let Some(s) = self.pending.get_mut(k) {
                        *s = p;
                    }
                    k = parent;
                }
                _ => break,
            }
        }
        if let Some(s) = self.pending.get_mut(k) {
            *s = entry;
        }
        true
    }

    /// Refines pending pairs while `budget` allows; confirmed triangle pairs go to `sink`.
    /// The bodies must be in the step [`Traversal::start`] saw.
    pub fn run(
        &mut self,
        a: &mut Body<'_, '_, S>,
        b: &mut Body<'_, '_, S>,
        budget: &mut impl Budget,
        sink: &mut (impl ContactSink + ?Sized),
    ) -> RunOutcome {
        let mut stats = QueryStats::default();
        if self.steps != Some((a.step(), b.step())) {
            let status = RunStatus::StateChanged;
            return RunOutcome { status, stats };
        }
        let error = a.error() + b.error();
        let mut policy = Triangles {
            bodies: Bodies::new(a, b),
            sink,
            error,
            rank: self.order,
        };
        let before = policy.updates();
        let status = match walk_pairs(&mut policy, self, budget, &mut stats) {
            End::Complete => RunStatus::Done,
            End::Interrupted => RunStatus::Interrupted,
            End::Full => RunStatus::PendingFull,
            End::Failed(QueryStatus::OutputFull { pair }) => RunStatus::OutputFull { pair },
            End::Failed(_) => RunStatus::Inconsistent,
        };
        stats.sphere_updates = policy.updates().wrapping_sub(before);
        RunOutcome { status, stats }
    }
}

/// The priority of a pair of overlapping spheres under an order (see [`Order`]).
impl<S: Scalar> Rank<S> for Order {
    type Key = S;

    #[inline]
    fn rank(&self, sa: &[S; 4], sb: &[S; 4]) -> S {
        match self {
            Order::BreadthFirst => S::ZERO,
            Order::LargestFirst => sa[3] + sb[3],
            Order::DeepestFirst => {
                let d = [sa[0] - sb[0], sa[1] - sb[1], sa[2] - sb[2]];
                // A key, not a bound: `sqrt_key` may approximate (the `micromath` feature).
                sa[3] + sb[3] - (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt_key()
            }
        }
    }
}

/// The pending list as the walk's container: FIFO (a ring) or a max-heap by key.
impl<S: Scalar> Container<S> for Traversal<'_, S> {
    /// Pairs may be pending from an earlier call ([`Traversal::run`] resumes them).
    const FRESH: bool = false;

    fn peek(&self) -> Option<[u32; 2]> {
        if self.len == 0 {
            return None;
        }
        let slot = if self.order == Order::BreadthFirst {
            self.head
        } else {
            0
        };
        self.pending.get(slot).map(|p| [p.a, p.b])
    }

    fn pop(&mut self) {
        if self.len == 0 {
            return;
        }
        if self.order == Order::BreadthFirst {
            self.head = self.ring(1);
            self.len -= 1;
            return;
        }
        // Max-heap: move the last entry to the root and sift down.
        self.len -= 1;
        let Some(&last) = self.pending.get(self.len) else {
            return;
        };
        let mut k = 0;
        loop {
            let (l, r) = (2 * k + 1, 2 * k + 2);
            let mut best = k;
            let mut best_key = last.key;
            for c in [l, r] {
                if c < self.len {
                    if let Some(p) = self.pending.get(c) {
                        if p.key > best_key {
                            best = c;
                            best_key = p.key;
                        }
                    }
                }
            }
            if best == k {
                break;
            }
            let Some(&child) = self.pending.get(best) else {
                break;
            };
            if let Some(s) = self.pending.get_mut(k) {
                *s = child;
            }
            k = best;
        }
        if let Some(s) = self.pending.get_mut(k) {
            *s = last;
        }
    }

    /// Room for every child after the current pair leaves (checked before any work, so a full
    /// list leaves the state untouched).
    fn room(&self, children: usize) -> bool {
        self.len.saturating_sub(1) + children <= self.pending.len()
    }

    fn offer(&mut self, [a, b]: [u32; 2], key: Option<S>) {
        if let Some(key) = key {
            // Cannot fail: room was checked before the expansion.
            self.push(a, b, key);
        }
    }
}
