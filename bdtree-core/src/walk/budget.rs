//! Budgets: what pays for a walk's steps (see [`crate::query::traversal`]).
//!
//! [`TestBudget`] counts tests (deterministic: for tests, fixtures and worst-case sizing);
//! [`Deadline`] reads a [`Clock`] — a monotonic tick counter the caller supplies (a cycle
//! counter, SysTick, `std::time::Instant`). Uninterruptible queries run with an unlimited
//! budget that costs nothing.

/// Pays for a walk's work: asked before every step with the step's number of tests.
pub trait Budget {
    /// Whether a step of `tests` tests may run (and pays for it when it may).
    fn spend(&mut self, tests: u32) -> bool;
}

/// A budget of tests (sphere overlap tests plus triangle tests): deterministic.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct TestBudget {
    /// Tests still allowed.
    pub remaining: u32,
}

impl TestBudget {
    /// A budget of `tests` tests.
    pub const fn new(tests: u32) -> Self {
        Self { remaining: tests }
    }
    /// No limit (`u32::MAX` tests).
    pub const fn unlimited() -> Self {
        Self::new(u32::MAX)
    }
}

impl Budget for TestBudget {
    fn spend(&mut self, tests: u32) -> bool {
        match self.remaining.checked_sub(tests) {
            Some(left) => {
                self.remaining = left;
                true
            }
            None => false,
        }
    }
}

/// A monotonic tick counter (cycles, microseconds, … — any unit, as long as it only grows).
pub trait Clock {
    /// Ticks now.
    fn now(&mut self) -> u64;
}

/// A budget that lasts until a clock reaches a deadline.
#[derive(Debug, Clone, Copy)]
pub struct Deadline<C> {
    /// The clock.
    pub clock: C,
    /// Steps start only while `clock.now() < deadline`.
    pub deadline: u64,
}

impl<C: Clock> Deadline<C> {
    /// A budget until `deadline` ticks of `clock`.
    pub fn new(clock: C, deadline: u64) -> Self {
        Self { clock, deadline }
    }
}

impl<C: Clock> Budget for Deadline<C> {
    fn spend(&mut self, _tests: u32) -> bool {
        self.clock.now() < self.deadline
    }
}

/// No limit and no bookkeeping: the budget of the uninterruptible queries (compiles to
/// nothing).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Unlimited;

impl Budget for Unlimited {
    #[inline(always)]
    fn spend(&mut self, _tests: u32) -> bool {
        true
    }
}
