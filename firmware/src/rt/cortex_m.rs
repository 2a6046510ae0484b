//! Cortex-M: cortex-m-rt starts the core; SysTick (core clock, 24 bits) counts time, calibrated
//! in instructions with a loop of known length. On the Cortex-M0 image (ARMv6-M code run on the
//! an385's M3) unaligned accesses are made to trap, as they do on a real M0.

use core::sync::atomic::{AtomicU32, Ordering};

use cortex_m::peripheral::{syst::SystClkSource, SCB, SYST};

/// The core this image is built for (the board may be a superset: see `cargo xtask qemu`).
pub const CORE: &str = if cfg!(armv6m) {
    "Cortex-M0"
} else {
    "Cortex-M"
};

#[cortex_m_rt::entry]
fn main() -> ! {
    if cfg!(armv6m) {
        // SCB.CCR.UNALIGN_TRP: an ARMv6-M core has no unaligned access; make the M3 agree.
        // SAFETY: a documented read-modify-write of a core register, before anything runs.
        unsafe {
            let ccr = 0xE000_ED14 as *mut u32;
            ccr.write_volatile(ccr.read_volatile() | (1 << 3));
        }
    }
    super::start()
}

#[cortex_m_rt::exception]
unsafe fn HardFault(_frame: &cortex_m_rt::ExceptionFrame) -> ! {
    super::write(b"BDTREE fault: HardFault\n");
    super::exit(false)
}

/// A semihosting call (`bkpt 0xab`).
#[inline(always)]
pub fn semihost(op: usize, arg: usize) -> usize {
    let mut r0 = op;
    // SAFETY: the semihosting convention: r0 operation, r1 argument block; returns in r0.
    unsafe {
        core::arch::asm!("bkpt #0xab", inout("r0") r0, in("r1") arg, options(nostack));
    }
    r0
}

const MASK: u32 = 0x00FF_FFFF;
const CALIBRATION_LOOPS: u32 = 500_000;

/// SysTick wraps, counted by the SysTick exception, for [`Counter::now_wide`].
static WRAPS: AtomicU32 = AtomicU32::new(0);

#[cortex_m_rt::exception]
fn SysTick() {
    // A load and a store (ARMv6-M has no atomic read-modify-write): only this handler writes,
    // and an exception does not preempt itself.
    WRAPS.store(
        WRAPS.load(Ordering::Relaxed).wrapping_add(1),
        Ordering::Relaxed,
    );
}

/// SysTick ticks counted down since it started, wraps included.
fn wide_ticks() -> u64 {
    loop {
        let before = WRAPS.load(Ordering::Relaxed);
        let current = SYST::get_current() & MASK;
        // The counter may have reloaded with its exception not yet taken.
        let pending = SCB::is_pendst_pending();
        if WRAPS.load(Ordering::Relaxed) != before {
            continue;
        }
        let wraps = u64::from(before) + u64::from(pending && current > MASK / 2);
        return wraps * (u64::from(MASK) + 1) + u64::from(MASK - current);
    }
}

/// Instructions executed, as a 64-bit count. [`Counter::now`] must be read at least once per
/// 2²⁴ SysTick ticks — about 670 M instructions — which every caller of it does; a longer span
/// (a busy swept motion on a soft-float core) is measured with [`Counter::now_wide`], whose wraps the SysTick
/// exception counts.
pub struct Counter {
    last: core::cell::Cell<u32>,
    total: core::cell::Cell<u64>,
    /// SysTick ticks the calibration loop (`2 · CALIBRATION_LOOPS` instructions) took.
    calibration: u64,
}

impl Counter {
    /// Starts SysTick and calibrates it.
    pub fn new() -> Self {
        // SAFETY: the firmware is single-threaded and nothing else uses SysTick.
        let mut syst = unsafe { cortex_m::Peripherals::steal() }.SYST;
        syst.set_clock_source(SystClkSource::Core);
        syst.set_reload(MASK);
        syst.clear_current();
        syst.enable_interrupt();
        syst.enable_counter();
        // Cleared, the counter reads 0 until its first tick loads the reload value (no wrap, no
        // exception): `now_wide` counts from there.
        for _ in 0..1000 {
            if SYST::get_current() != 0 {
                break;
            }
        }
        let start = SYST::get_current();
        // SAFETY: a register-only countdown loop (ARMv6-M encodings); touches no memory.
        unsafe {
            core::arch::asm!(
                "2:",
                "subs {n}, {n}, #1",
                "bne 2b",
                n = inout(reg) CALIBRATION_LOOPS => _,
                options(nomem, nostack),
            );
        }
        let ticks = start.wrapping_sub(SYST::get_current()) & MASK;
        Self {
            last: core::cell::Cell::new(SYST::get_current()),
            total: core::cell::Cell::new(0),
            calibration: u64::from(ticks.max(1)),
        }
    }

    /// Instructions since [`Counter::new`] (to SysTick's resolution: a few tens).
    pub fn now(&self) -> u64 {
        let current = SYST::get_current();
        let ticks = self.last.get().wrapping_sub(current) & MASK;
        self.last.set(current);
        self.total.set(self.total.get() + u64::from(ticks));
        self.total.get() * 2 * u64::from(CALIBRATION_LOOPS) / self.calibration
    }

    /// Instructions since SysTick started, for spans of any length (two reads of it give a
    /// span; see [`Counter`]).
    pub fn now_wide(&self) -> u64 {
        wide_ticks() * 2 * u64::from(CALIBRATION_LOOPS) / self.calibration
    }
}

// Fills `[bottom, sp)` with `pattern` (ARMv6-M encodings: the M0 image runs it too).
super::paint_loop!("bhs 3f", "str {pat}, [{p}]", "adds {p}, #4");
