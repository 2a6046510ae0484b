//! [`Front`]: a body pair's swept front carried from tick to tick — the kernel's
//! [`bdtree_core::collide_swept_front`] behind the host's checks and placing — and [`Fronts`],
//! one per body pair of a [`crate::host::World`].
//!
//! A controller running the swept query every tick asks, each time, about the motion from the
//! last tick's states to this tick's. The front remembers where the last walk stopped (node
//! pairs apart, leaf pairs tested) with a margin each; while the bodies' motion since stays
//! inside an entry's margin, its pair is skipped. In slow or resting contact most of the walk
//! is skipped: the query costs about one static query per tick, or less, where from the root it
//! costs several (the book's swept chapter has the figures).
//!
//! **What the front needs**: each query's `before` states are the last query's `now` states,
//! placed at the same floating origin. A front therefore keeps its pair's origin (see
//! [`crate::host::placing`]: the swept origin of the tick that placed it, kept while the current
//! swept origin stays within a quarter of the two bodies' radii of it, so the f32 precision
//! bound grows by less than half that distance) and its trees. A jump in state (a `before`
//! state that is not the last `now`), other trees, a new origin or a front too large for its
//! storage make that query walk from the root; the storage then grows. None of these changes
//! an answer: with or without a front the query reports every pair that may touch, with a
//! conservative earliest time.

use bdtree_core::{collide_swept_front, stack_capacity, FrontEntry, FrontState, SweptFront};
use bdtree_core::{Scalar, SweptPair};

use super::{place_four, same_objects, swept_of};
use crate::build::Precision;
use crate::host::answer::{Answer, Swept};
use crate::host::body::{Body, InKernel};
use crate::host::error::HostError;
use crate::host::placing::swept_origin;
use crate::host::stack::{complete, Stack};
use crate::host::tree::Tree;

/// Entries per buffer a new front starts with (it doubles when a front does not fit).
const FIRST_CAPACITY: usize = 1024;
/// The most entries per buffer a front grows to (24 MiB of f64 entries per buffer).
const MAX_CAPACITY: usize = 1 << 20;

/// A front's storage in one precision: the kernel's two buffers and its state between ticks.
#[derive(Debug, Default)]
struct Slots<S: Scalar> {
    entries: Vec<FrontEntry<S>>,
    spare: Vec<FrontEntry<S>>,
    state: FrontState<S>,
}

impl<S: Scalar> Slots<S> {
    /// Buffers of `capacity` entries each, the state afresh.
    fn sized(&mut self, capacity: usize) {
        if self.entries.len() != capacity {
            self.entries = vec![FrontEntry::EMPTY; capacity];
            self.spare = vec![FrontEntry::EMPTY; capacity];
            self.state = FrontState::NEW;
        }
    }
}

/// Both precisions' storage (only the trees' is ever filled).
trait InFront: InKernel {
    fn slots(front: &mut Front) -> &mut Slots<Self>;
}

impl InFront for f32 {
    fn slots(front: &mut Front) -> &mut Slots<f32> {
        &mut front.f32
    }
}

impl InFront for f64 {
    fn slots(front: &mut Front) -> &mut Slots<f64> {
        &mut front.f64
    }
}

/// A body pair's swept front, carried from one tick's query to the next (module docs). Use one
/// per pair of objects with [`swept_front`] (or [`Fronts`] with
/// [`crate::host::world::swept_front`]).
///
/// ```
/// # use bdtree_std::build::BuildOptions;
/// # use bdtree_std::host::{self, Body, Front, Tree};
/// let ball = bdtree_std::shapes::procedural::icosphere(0.5, 2);
/// let (tree, _) = Tree::build(&ball, None, BuildOptions::default())?;
/// let mut before = [Body::new(&tree)?, Body::new(&tree)?];
/// let mut now = [Body::new(&tree)?, Body::new(&tree)?];
/// let mut front = Front::new();
/// let id = [1.0, 0.0, 0.0, 0.0];
/// let at = |k: usize| [1000.0 + 1e-5 * k as f64, 0.0, 0.0];
/// // Two balls of radius 0.5, 1 km from the origin, 0.8 apart: touching.
/// before[0].set_state(id, [999.2, 0.0, 0.0], &[])?;
/// now[0].set_state(id, [999.2, 0.0, 0.0], &[])?;
/// before[1].set_state(id, at(0), &[])?;
/// for k in 1..=20 {
///     // One body creeping along the other: the motion of this tick.
///     now[1].set_state(id, at(k), &[])?;
///     let [a0, b0] = &mut before;
///     let [a1, b1] = &mut now;
///     let touching = host::swept_front(a0, a1, b0, b1, &mut front)?;
///     assert!(!touching.items.is_empty());
///     std::mem::swap(&mut before, &mut now);
/// }
/// assert!(front.certified() > 0, "entries skipped on their margins");
/// # Ok::<(), bdtree_std::host::HostError>(())
/// ```
#[derive(Debug)]
pub struct Front {
    /// Entries per buffer.
    capacity: usize,
    /// The pair's floating origin, kept across ticks.
    origin: Option<[f64; 3]>,
    /// The trees of the last query (the front is theirs).
    trees: Option<[Tree; 2]>,
    f32: Slots<f32>,
    f64: Slots<f64>,
    /// The last query's counters: entries, certified, retested, overflowed.
    last: (usize, usize, usize, bool),
}

impl Default for Front {
    fn default() -> Self {
        Self::new()
    }
}

impl Front {
    /// An empty front: its first query walks from the root.
    pub fn new() -> Front {
        Front {
            capacity: FIRST_CAPACITY,
            origin: None,
            trees: None,
            f32: Slots::default(),
            f64: Slots::default(),
            last: (0, 0, 0, false),
        }
    }

    /// Entries in the front after the last query.
    pub fn len(&self) -> usize {
        self.last.0
    }

    /// Whether the front is empty (before the first query, or after one that did not fit).
    pub fn is_empty(&self) -> bool {
        self.last.0 == 0
    }

    /// Entries the last query skipped on their margins.
    pub fn certified(&self) -> usize {
        self.last.1
    }

    /// Entries the last query walked again (their margins ran out).
    pub fn retested(&self) -> usize {
        self.last.2
    }

    /// Whether the last query's front did not fit (its storage has grown since).
    pub fn overflowed(&self) -> bool {
        self.last.3
    }

    /// Entries per buffer of the storage (two buffers; 12 bytes an entry in f32, 16 in f64).
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// The pair's floating origin (`None` before the first query).
    pub fn origin(&self) -> Option<[f64; 3]> {
        self.origin
    }

    /// The next query walks from the root (as after a jump in state the caller knows of; one
    /// the front sees by itself needs no reset).
    pub fn reset(&mut self) {
        self.origin = None;
        self.trees = None;
        self.f32.state = FrontState::NEW;
        self.f64.state = FrontState::NEW;
    }

    /// The origin of this tick's query: the one kept, unless the swept origin of the four
    /// translations has moved a quarter of the bodies' radii from it (module docs).
    fn place(&mut self, bodies: [&Body; 4]) -> [f64; 3] {
        let [a0, a1, b0, b1] = bodies;
        let fresh = swept_origin(a0, a1, b0, b1);
        let reach = 0.25 * (a1.tree().radius() + b1.tree().radius());
        match self.origin {
            Some(kept) if (0..3).all(|k| (fresh[k] - kept[k]).abs() <= reach) => kept,
            _ => {
                self.origin = Some(fresh);
                fresh
            }
        }
    }
}

/// [`super::swept()`] with a front carried from the last tick (module docs): the same answer —
/// every triangle pair of the two objects that may touch during the motion from `before` to
/// `now`, with a conservative earliest time, sorted — walking only where the front's margins
/// ran out. `front` belongs to this pair of objects; pass the last query's `now` bodies as this
/// one's `before` (swapping two pairs of bodies each tick, as in [`Front`]'s example).
pub fn swept_front(
    a_before: &mut Body,
    a_now: &mut Body,
    b_before: &mut Body,
    b_now: &mut Body,
    front: &mut Front,
) -> Result<Answer<Swept>, HostError> {
    same_objects([a_before, a_now, b_before, b_now])?;
    let same_trees = front
        .trees
        .as_ref()
        .is_some_and(|[a, b]| a.same(a_now.tree()) && b.same(b_now.tree()));
    if !same_trees {
        front.reset();
        front.trees = Some([a_now.tree().clone(), b_now.tree().clone()]);
    }
    let origin = front.place([a_before, a_now, b_before, b_now]);
    place_four(
        [&mut *a_before, &mut *a_now, &mut *b_before, &mut *b_now],
        origin,
    )?;
    let bodies = [a_before, a_now, b_before, b_now];
    let answer = match bodies[1].precision() {
        Precision::F32 => carried::<f32>(bodies, front),
        Precision::F64 => carried::<f64>(bodies, front),
    };
    if answer.is_err() {
        front.reset();
    }
    answer
}

/// The kernel's carried query on the four bodies in scalar `S`, the front resumed on its
/// storage and suspended after; a front that did not fit grows its storage.
fn carried<S: InFront>(
    bodies: [&mut Body; 4],
    front: &mut Front,
) -> Result<Answer<Swept>, HostError> {
    let [w, x, y, z] = bodies;
    let (Some(a_before), Some(a_now), Some(b_before), Some(b_now)) = (
        w.kernel_in::<S>(),
        x.kernel_in::<S>(),
        y.kernel_in::<S>(),
        z.kernel_in::<S>(),
    ) else {
        return Err(HostError::MixedPrecision);
    };
    let capacity = front.capacity;
    let slots = S::slots(front);
    slots.sized(capacity);
    let mut kernel = SweptFront::resume(&mut slots.entries, &mut slots.spare, slots.state);
    let mut stack = Stack::take(stack_capacity(a_now.tree().depth(), b_now.tree().depth()));
    let mut items = Vec::new();
    let outcome = collide_swept_front(
        a_before,
        a_now,
        b_before,
        b_now,
        &mut kernel,
        &mut stack,
        &mut |p: SweptPair<S>| {
            items.push(swept_of(p));
            true
        },
    );
    let state = kernel.suspend();
    slots.state = state;
    front.last = (
        state.len(),
        state.certified(),
        state.retested(),
        state.overflowed(),
    );
    if state.overflowed() {
        front.capacity = (2 * capacity).min(MAX_CAPACITY);
    }
    complete("collide_swept_front", &outcome)?;
    items.sort_by_key(|s| s.triangles);
    Ok(Answer {
        items,
        stats: outcome.stats,
    })
}

/// The fronts of a [`crate::host::World`]'s body pairs ([`crate::host::world::swept_front`]), one per pair
/// `i < j`, made on first use.
#[derive(Debug, Default)]
pub struct Fronts {
    pairs: Vec<Front>,
}

impl Fronts {
    /// No fronts yet: every pair's first query walks from the root.
    pub fn new() -> Fronts {
        Fronts::default()
    }

    /// The front of bodies `i < j` (made on first use).
    pub fn pair(&mut self, i: usize, j: usize) -> &mut Front {
        let (i, j) = (i.min(j), i.max(j));
        let index = j * j.saturating_sub(1) / 2 + i;
        if self.pairs.len() <= index {
            self.pairs.resize_with(index + 1, Front::new);
        }
        &mut self.pairs[index]
    }

    /// Every front made so far.
    pub fn iter(&self) -> impl Iterator<Item = &Front> {
        self.pairs.iter()
    }

    /// Every pair's next query walks from the root.
    pub fn reset(&mut self) {
        self.pairs.iter_mut().for_each(Front::reset);
    }
}
