//! [`Interruptible`]: the kernel's interruptible, budgeted and resumable traversal
//! ([`bdtree_core::Traversal`]) on two host bodies, placed at the pair's floating origin like
//! [`crate::host::pairs`].
//!
//! A run spends a [`Budget`] (tests, or time read from [`std::time::Instant`]) and either
//! completes — [`Progress::Done`]: every intersecting triangle pair, refined in f64 in f32 and
//! sorted, exactly what [`crate::host::pairs`] answers — or stops early — [`Progress::Interrupted`]:
//! an explicit **conservative cover**, the triangle pairs confirmed so far (refined likewise)
//! and the node pairs still pending; every intersecting triangle pair is either confirmed or
//! has its two triangles under one pending node pair. Running again while the bodies keep
//! their states resumes where the last run stopped.
//!
//! [`Interruptible::start_unrefined_at`] runs the same walk as a device that shares one
//! floating origin between many bodies does: both bodies at the caller's origin, no second
//! stage (what `bdtree interrupt` measures, every body of a frame at the frame's origin).
//!
//! ```
//! use bdtree_std::build::{BuildOptions, Precision};
//! use bdtree_std::host::{self, Body, Budget, Interruptible, Order, Progress, Tree};
//!
//! let ball = bdtree_std::shapes::procedural::icosphere(0.5, 2);
//! let options = BuildOptions { precision: Precision::F32, ..BuildOptions::default() };
//! let (tree, _) = Tree::build(&ball, None, options)?;
//! let (mut a, mut b) = (Body::new(&tree)?, Body::new(&tree)?);
//! b.set_state([1.0, 0.0, 0.0, 0.0], [0.9, 0.0, 0.0], &[])?;
//! let mut query = Interruptible::start(&mut a, &mut b, Order::BreadthFirst, 4096)?;
//! // A few tests per tick until done; each interrupted tick has a cover to act on.
//! let pairs = loop {
//!     match query.run(&mut a, &mut b, Budget::Tests(200))? {
//!         Progress::Done(answer) => break answer.items,
//!         Progress::Interrupted(cover) => assert!(!cover.pending.is_empty()),
//!     }
//! };
//! assert_eq!(pairs, host::pairs(&mut a, &mut b)?.items);
//! # Ok::<(), bdtree_std::host::HostError>(())
//! ```

use std::time::{Duration, Instant};

use bdtree_core::walk::budget::{Clock, Deadline, TestBudget};
use bdtree_core::{
    refine, Body as KernelBody, Pending, QueryStats, Scalar, Suspended, Traversal, TrianglePair,
};

pub use bdtree_core::{Order, RunStatus};

use crate::host::answer::Answer;
use crate::host::body::{Body, Kernel, State};
use crate::host::error::HostError;
use crate::host::placing::pair_origin;

/// What pays for one [`Interruptible::run`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Budget {
    /// At most this many tests (sphere overlap tests plus triangle tests): deterministic.
    Tests(u32),
    /// Steps start only within this much time of the call (a step overruns by one step at
    /// most: a few hundred instructions).
    Time(Duration),
    /// Until done.
    Unlimited,
}

/// An interrupted run's conservative cover.
#[derive(Debug, Clone, PartialEq)]
pub struct Cover {
    /// Triangle pairs confirmed over every run since [`Interruptible::start`], refined in f64
    /// in f32 (as [`crate::host::pairs`] refines), sorted.
    pub confirmed: Vec<[u32; 2]>,
    /// Node pairs `[node of a, node of b]` still pending, sorted: every intersecting triangle
    /// pair not in `confirmed` has its triangles in the leaves under one of them. Treat them
    /// as touching.
    pub pending: Vec<[u32; 2]>,
    /// Why the run stopped: [`RunStatus::Interrupted`] (the budget ran out: run again to
    /// resume), [`RunStatus::PendingFull`] (the pending list is full: the query cannot progress
    /// without a larger capacity; start again with one).
    pub status: RunStatus,
}

/// How a run ended.
#[derive(Debug, Clone, PartialEq)]
pub enum Progress {
    /// Complete: every intersecting triangle pair, as [`crate::host::pairs`] answers it; the counters
    /// summed over every run since the start.
    Done(Answer<[u32; 2]>),
    /// Stopped early, with its conservative cover.
    Interrupted(Cover),
}

/// The pending list in the bodies' precision.
enum Storage {
    F32(Vec<Pending<f32>>),
    F64(Vec<Pending<f64>>),
}

/// An interruptible query between two host bodies (module docs). It owns its pending list
/// (`capacity` node pairs) and the pairs confirmed so far; the bodies stay the caller's.
pub struct Interruptible {
    storage: Storage,
    progress: Suspended,
    /// The pair's floating origin at the start.
    origin: [f64; 3],
    /// The bodies' states at the start (a run refuses bodies in other states).
    states: [State; 2],
    /// Whether confirmed pairs are refined in f64 (every query but
    /// [`Interruptible::start_unrefined_at`]'s).
    refine: bool,
    /// Confirmed triangle pairs, as the kernel delivered them (not yet refined).
    found: Vec<TrianglePair>,
    stats: QueryStats,
}

impl std::fmt::Debug for Interruptible {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Interruptible")
            .field("origin", &self.origin)
            .field("confirmed", &self.found.len())
            .finish()
    }
}

/// A monotonic clock in nanoseconds since `Instant`.
struct Nanos(Instant);

impl Clock for Nanos {
    fn now(&mut self) -> u64 {
        u64::try_from(self.0.elapsed().as_nanos()).unwrap_or(u64::MAX)
    }
}

/// A pending list of `capacity` node pairs with the kernel's walk started on it (the root
/// pair tested): the list, the walk's progress and its status.
fn start_kernel<S: Scalar>(
    capacity: usize,
    order: Order,
    a: &mut KernelBody<'_, '_, S>,
    b: &mut KernelBody<'_, '_, S>,
) -> Result<(Vec<Pending<S>>, Suspended, RunStatus), HostError> {
    let mut slots = pending_list::<S>(capacity)?;
    let mut t = Traversal::new(&mut slots, order);
    let status = t.start(a, b);
    let progress = t.suspend();
    Ok((slots, progress, status))
}

/// What a run of the kernel's walk left: the new progress, the run's status and counters, the
/// pairs confirmed so far ([`refined`]) and the node pairs still pending, sorted.
struct Step {
    progress: Suspended,
    status: RunStatus,
    stats: QueryStats,
    confirmed: Vec<[u32; 2]>,
    pending: Vec<[u32; 2]>,
}

/// The kernel's run on the pending list `storage`, resumed from `progress`, its pairs added to
/// `found` (refined in f64 when `second_stage`).
fn run_kernel<S: Scalar>(
    storage: &mut [Pending<S>],
    progress: Suspended,
    a: &mut KernelBody<'_, '_, S>,
    b: &mut KernelBody<'_, '_, S>,
    budget: Budget,
    found: &mut Vec<TrianglePair>,
    second_stage: bool,
) -> Step {
    let mut traversal = Traversal::resume(storage, progress);
    let mut sink = |p: TrianglePair| {
        found.push(p);
        true
    };
    let outcome = match budget {
        Budget::Tests(n) => traversal.run(a, b, &mut TestBudget::new(n), &mut sink),
        Budget::Unlimited => traversal.run(a, b, &mut TestBudget::unlimited(), &mut sink),
        Budget::Time(d) => {
            let deadline = u64::try_from(d.as_nanos()).unwrap_or(u64::MAX);
            let mut budget = Deadline::new(Nanos(Instant::now()), deadline);
            traversal.run(a, b, &mut budget, &mut sink)
        }
    };
    let progress = traversal.suspend();
    Step {
        progress,
        status: outcome.status,
        stats: outcome.stats,
        confirmed: refined(a, b, found, second_stage),
        pending: pending_of(storage, progress),
    }
}

/// The pending node pairs of a suspended traversal, sorted.
fn pending_of<S: Scalar>(storage: &mut [Pending<S>], progress: Suspended) -> Vec<[u32; 2]> {
    let traversal = Traversal::resume(storage, progress);
    let mut pending: Vec<[u32; 2]> = traversal.pending().map(|(a, b)| [a, b]).collect();
    pending.sort_unstable();
    pending
}

/// `found` refined in f64 (f32 bodies; [`bdtree_core::refine()`]) when `second_stage`, else
/// as found, as sorted pairs.
fn refined<S: Scalar>(
    a: &KernelBody<'_, '_, S>,
    b: &KernelBody<'_, '_, S>,
    found: &[TrianglePair],
    second_stage: bool,
) -> Vec<[u32; 2]> {
    let mut pairs = found.to_vec();
    let kept = if second_stage {
        refine(a, b, &mut pairs)
    } else {
        pairs.len()
    };
    let mut items: Vec<[u32; 2]> = pairs.iter().take(kept).map(|p| [p.a, p.b]).collect();
    items.sort_unstable();
    items
}

/// A pending list of `capacity` entries, or an error naming the capacity when it cannot be
/// allocated.
fn pending_list<S: Scalar>(capacity: usize) -> Result<Vec<Pending<S>>, HostError> {
    let mut slots = Vec::new();
    slots
        .try_reserve_exact(capacity)
        .map_err(|_| HostError::Argument {
            name: "capacity",
            message: format!("{capacity} node pairs cannot be allocated"),
        })?;
    slots.resize(capacity, Pending::EMPTY);
    Ok(slots)
}

fn mismatch() -> HostError {
    HostError::MixedPrecision
}

impl Interruptible {
    /// Starts a query on `a` and `b` in their current states, at their pair's floating origin,
    /// with a pending list of `capacity` node pairs (at least 1; a list too short for the
    /// bodies' overlap ends a run with [`RunStatus::PendingFull`] and its cover, never a
    /// panic) and `order` (which pending pair is refined next). Tests the root pair (one test,
    /// charged to no budget).
    pub fn start(
        a: &mut Body,
        b: &mut Body,
        order: Order,
        capacity: usize,
    ) -> Result<Interruptible, HostError> {
        let origin = pair_origin(a, b);
        Interruptible::start_with(a, b, order, capacity, origin, true)
    }

    /// [`Interruptible::start`] as a device that shares one floating origin between many
    /// bodies runs it: both bodies at `origin` (each state still taken in f64 and its rounding
    /// bounded there, [`bdtree_core::Body::set_state_f64`]; the bound grows with the bodies'
    /// distance from `origin`) and no second stage: the confirmed pairs are the kernel's as
    /// found, in f32 with the widened test's extras (never fewer than [`crate::host::pairs`]
    /// answers). What the interrupted-query table measures (`bdtree interrupt`: every body of
    /// a frame at the frame's origin, many pairs per placement).
    pub fn start_unrefined_at(
        a: &mut Body,
        b: &mut Body,
        order: Order,
        capacity: usize,
        origin: [f64; 3],
    ) -> Result<Interruptible, HostError> {
        Interruptible::start_with(a, b, order, capacity, origin, false)
    }

    fn start_with(
        a: &mut Body,
        b: &mut Body,
        order: Order,
        capacity: usize,
        origin: [f64; 3],
        refine: bool,
    ) -> Result<Interruptible, HostError> {
        if capacity == 0 {
            return Err(HostError::Argument {
                name: "capacity",
                message: "0 node pairs: the pending list needs at least 1".into(),
            });
        }
        a.place(origin)?;
        b.place(origin)?;
        let (storage, status) = match (&mut a.kernel, &mut b.kernel) {
            (Kernel::F32(ka), Kernel::F32(kb)) => {
                let (slots, progress, status) =
                    start_kernel(capacity, order, ka.body(), kb.body())?;
                ((Storage::F32(slots), progress), status)
            }
            (Kernel::F64(ka), Kernel::F64(kb)) => {
                let (slots, progress, status) =
                    start_kernel(capacity, order, ka.body(), kb.body())?;
                ((Storage::F64(slots), progress), status)
            }
            _ => return Err(mismatch()),
        };
        match status {
            RunStatus::Done | RunStatus::Interrupted | RunStatus::PendingFull => {}
            status => {
                return Err(HostError::Body {
                    message: format!("the interruptible query could not start: {status:?}"),
                })
            }
        }
        let (storage, progress) = storage;
        let states = [a.state().clone(), b.state().clone()];
        Ok(Interruptible {
            storage,
            progress,
            origin,
            states,
            refine,
            found: Vec::new(),
            stats: QueryStats::default(),
        })
    }

    /// Refines pending pairs while `budget` allows (module docs). `a` and `b` must be the
    /// bodies of [`Interruptible::start`] in the states they had then (else
    /// [`HostError::Argument`]: start again for a new step); another query on them in between
    /// places them elsewhere and also ends the resumption (start again).
    pub fn run(
        &mut self,
        a: &mut Body,
        b: &mut Body,
        budget: Budget,
    ) -> Result<Progress, HostError> {
        for (body, state, name) in [(&*a, &self.states[0], "a"), (&*b, &self.states[1], "b")] {
            if body.state() != state {
                return Err(HostError::Argument {
                    name,
                    message: "its state changed since the interruptible query started: start \
                              a new one for the new state"
                        .into(),
                });
            }
        }
        a.place(self.origin)?;
        b.place(self.origin)?;
        let (found, progress, second_stage) = (&mut self.found, self.progress, self.refine);
        let step = match (&mut a.kernel, &mut b.kernel, &mut self.storage) {
            (Kernel::F32(ka), Kernel::F32(kb), Storage::F32(slots)) => {
                let (ka, kb) = (ka.body(), kb.body());
                run_kernel(slots, progress, ka, kb, budget, found, second_stage)
            }
            (Kernel::F64(ka), Kernel::F64(kb), Storage::F64(slots)) => {
                let (ka, kb) = (ka.body(), kb.body());
                run_kernel(slots, progress, ka, kb, budget, found, second_stage)
            }
            _ => return Err(mismatch()),
        };
        let Step {
            progress,
            status,
            stats,
            confirmed,
            pending,
        } = step;
        self.progress = progress;
        self.stats.add(&stats);
        match status {
            RunStatus::Done => Ok(Progress::Done(Answer {
                items: confirmed,
                stats: self.stats,
            })),
            RunStatus::Interrupted | RunStatus::PendingFull => Ok(Progress::Interrupted(Cover {
                confirmed,
                pending,
                status,
            })),
            RunStatus::StateChanged => Err(HostError::Argument {
                name: "a",
                message: "the bodies were placed by another query since the interruptible \
                          query started: start a new one"
                    .into(),
            }),
            status => Err(HostError::Body {
                message: format!("the interruptible query stopped: {status:?}"),
            }),
        }
    }
}
