//! Cortex-M: cortex-m-rt starts the core; SysTick (core clock, 24 bits) counts time, calibrated
//! in instructions with a loop of known length. On the Cortex-M0 image (ARMv6-M code run on the
//! an385's M3) unaligned accesses are made to trap, as they do on a real M0.

use cortex_m::peripheral::{syst::SystClkSource, SYST};

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

/// Instructions executed, as a 64-bit count (read at least once per 2²⁴ SysTick ticks — about
/// 670 M instructions — which every caller does).
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
        syst.enable_counter();
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
}

impl Default for Counter {
    fn default() -> Self {
        Self::new()
    }
}

/// Fills `[bottom, sp)` with `pattern` (ARMv6-M encodings: the M0 image runs it too).
#[inline(always)]
pub fn paint(bottom: usize, pattern: u32) {
    // SAFETY: writes only below the stack pointer, into memory no live frame uses; `bottom`
    // is above `.bss`.
    unsafe {
        core::arch::asm!(
            "mov {sp}, sp",
            "2:",
            "cmp {p}, {sp}",
            "bhs 3f",
            "str {pat}, [{p}]",
            "adds {p}, #4",
            "b 2b",
            "3:",
            sp = out(reg) _,
            p = inout(reg) bottom => _,
            pat = in(reg) pattern,
            options(nostack),
        );
    }
}
