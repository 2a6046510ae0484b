//! What the cores with their own start-up code share (`cortex_r`, `aarch64`): the entry that
//! code calls, the handler every exception vector branches to, and the instruction counter — the
//! PMU cycle counter, which QEMU runs at one count per instruction under `-icount shift=0`. The
//! core's module reads it (`cycles`) and gives its width (`CYCLE_MASK`).

use core::cell::Cell;

use super::arch::{cycles, CYCLE_MASK};

/// Called by the start-up code once the core is ready.
#[no_mangle]
extern "C" fn bdtree_rt_start() -> ! {
    super::start()
}

/// Every exception vector's target: the run ends, failed.
#[no_mangle]
extern "C" fn bdtree_fault() -> ! {
    super::write(b"BDTREE fault: exception\n");
    super::exit(false)
}

/// Instructions executed (the PMU cycle counter, widened to 64 bits across its wraps: read at
/// least once per wrap).
pub struct Counter {
    last: Cell<u64>,
    total: Cell<u64>,
}

impl Counter {
    /// Starts counting from the current cycle count.
    pub fn new() -> Self {
        Self {
            last: Cell::new(cycles()),
            total: Cell::new(0),
        }
    }

    /// Instructions since [`Counter::new`].
    pub fn now(&self) -> u64 {
        let c = cycles();
        let ticks = c.wrapping_sub(self.last.get()) & CYCLE_MASK;
        self.total.set(self.total.get() + ticks);
        self.last.set(c);
        self.total.get()
    }

    /// As [`Counter::now`] (a span must stay below one wrap of the counter: see `CYCLE_MASK`).
    pub fn now_wide(&self) -> u64 {
        self.now()
    }
}
