//! Instruction counts and stack depth on the emulated core.
//!
//! QEMU run with `-icount shift=0` advances virtual time by one nanosecond per executed
//! instruction, and SysTick (core clock) counts down with virtual time, so SysTick ticks are a
//! fixed number of instructions. [`Clock::calibrate`] measures that number with a loop of known
//! length; [`Clock::instructions`] converts. On real hardware the same code measures cycles only
//! roughly (SysTick runs at the core clock there): use the DWT cycle counter instead.

use cortex_m::peripheral::{syst::SystClkSource, SYST};

/// SysTick's counter is 24 bits wide; a measured region must stay below 2²⁴ ticks.
const MASK: u32 = 0x00FF_FFFF;
/// Iterations of the calibration loop (two instructions each).
const CALIBRATION_LOOPS: u32 = 500_000;

pub struct Clock {
    _syst: SYST,
    /// Ticks that the calibration loop of `2 * CALIBRATION_LOOPS` instructions took.
    calibration: u32,
}

impl Clock {
    pub fn new(mut syst: SYST) -> Self {
        syst.set_clock_source(SystClkSource::Core);
        syst.set_reload(MASK);
        syst.clear_current();
        syst.enable_counter();
        let mut clock = Self {
            _syst: syst,
            calibration: 1,
        };
        clock.calibrate();
        clock
    }

    pub fn now(&self) -> u32 {
        SYST::get_current()
    }

    pub fn ticks_since(&self, start: u32) -> u32 {
        start.wrapping_sub(SYST::get_current()) & MASK
    }

    fn calibrate(&mut self) {
        let start = self.now();
        // SAFETY: a register-only countdown loop; touches no memory and no stack.
        unsafe {
            core::arch::asm!(
                "2:",
                "subs {n}, {n}, #1",
                "bne 2b",
                n = inout(reg) CALIBRATION_LOOPS => _,
                options(nomem, nostack),
            );
        }
        self.calibration = self.ticks_since(start).max(1);
    }

    /// Instructions per SysTick tick, times 1000.
    pub fn milli_instructions_per_tick(&self) -> u64 {
        2_000 * u64::from(CALIBRATION_LOOPS) / u64::from(self.calibration)
    }

    /// Instructions executed in `ticks`.
    pub fn instructions(&self, ticks: u32) -> u64 {
        u64::from(ticks) * 2 * u64::from(CALIBRATION_LOOPS) / u64::from(self.calibration)
    }
}

/// Bytes below the stack pointer that [`paint`] fills and [`high_water`] scans.
pub const PAINT_BYTES: usize = 32 * 1024;
const PATTERN: u32 = 0xC0DE_5EED;

/// Fills the `PAINT_BYTES` below the current stack pointer with a pattern; returns the stack
/// pointer. Runs in registers only, so it does not disturb what it paints.
#[inline(always)]
pub fn paint() -> usize {
    let sp: usize;
    // SAFETY: writes only below the stack pointer, into memory no live frame uses (the stack
    // grows down into it); the RAM region is far larger than PAINT_BYTES plus the statics.
    unsafe {
        core::arch::asm!(
            "mov {sp}, sp",
            "subs {p}, {sp}, {len}",
            "3:",
            "str {pat}, [{p}], #4",
            "cmp {p}, {sp}",
            "blo 3b",
            sp = out(reg) sp,
            p = out(reg) _,
            len = in(reg) PAINT_BYTES,
            pat = in(reg) PATTERN,
            options(nostack),
        );
    }
    sp
}

/// Stack bytes used below `sp` since [`paint`] returned it: the distance from `sp` to the
/// deepest word that no longer holds the pattern.
#[inline(always)]
pub fn high_water(sp: usize) -> usize {
    let mut addr = sp - PAINT_BYTES;
    while addr < sp {
        // SAFETY: reads the painted region, which is valid RAM below `sp`.
        let word = unsafe { core::ptr::read_volatile(addr as *const u32) };
        if word != PATTERN {
            break;
        }
        addr += 4;
    }
    sp - addr
}
