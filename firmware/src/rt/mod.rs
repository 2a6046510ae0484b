//! What differs between cores: start-up, semihosting, the instruction counter and the stack's
//! extent (the Cortex-R and A cores share their entry, fault handler and PMU counter: `bare`;
//! the stack painter's loop is one macro, `paint_loop!`, with each core's instructions). Each
//! firmware binary defines `#[no_mangle] fn firmware_main() -> !`; the runtime starts the core
//! and calls it.
//!
//! * `cortex_m` — Cortex-M0/M3/M4F/M7/M33 (cortex-m-rt; SysTick calibrated in instructions).
//! * `cortex_r` — Cortex-R5F (own start-up in ARM state; the PMU cycle counter).
//! * `aarch64` — Cortex-A53 at EL1 (own start-up; the PMU cycle counter).
//!
//! Under `qemu -icount shift=0` every instruction advances virtual time by one nanosecond, and
//! QEMU's PMU cycle counter runs at 1 GHz of virtual time: on the Cortex-R and A cores the
//! counter *is* the instruction count. SysTick on the mps2 boards runs at 25 MHz of virtual
//! time, so one tick is a fixed number of instructions, which [`Counter::new`] calibrates.

#[cfg(rt = "aarch64")]
mod aarch64;
#[cfg(rt = "cortex_m")]
mod cortex_m;
#[cfg(rt = "cortex_r")]
mod cortex_r;

#[cfg(rt = "aarch64")]
use aarch64 as arch;
#[cfg(rt = "cortex_m")]
use cortex_m as arch;
#[cfg(rt = "cortex_r")]
use cortex_r as arch;

#[cfg(any(rt = "cortex_r", rt = "aarch64"))]
mod bare;

#[cfg(rt = "cortex_m")]
pub use arch::Counter;
pub use arch::{paint, semihost, CORE};
#[cfg(any(rt = "cortex_r", rt = "aarch64"))]
pub use bare::Counter;

impl Default for Counter {
    fn default() -> Self {
        Self::new()
    }
}

/// Defines a core's `paint`: fills `[bottom, sp)` with `pattern`, a loop in registers only whose
/// steps are the core's: leave for `3f` once `{p}` reaches `{sp}`, store `{pat}` at `{p}` and
/// advance it by 4.
macro_rules! paint_loop {
    ($($step:literal),+) => {
        /// Fills `[bottom, sp)` with `pattern`.
        #[inline(always)]
        pub fn paint(bottom: usize, pattern: u32) {
            // SAFETY: writes only below the stack pointer, into memory no live frame uses;
            // `bottom` is above `.bss`.
            unsafe {
                core::arch::asm!(
                    "mov {sp}, sp",
                    "2:",
                    "cmp {p}, {sp}",
                    $($step,)+
                    "b 2b",
                    "3:",
                    sp = out(reg) _,
                    p = inout(reg) bottom => _,
                    pat = in(reg) pattern,
                    options(nostack),
                );
            }
        }
    };
}
use paint_loop;

extern "Rust" {
    /// The binary's entry point.
    fn firmware_main() -> !;
}

/// Called by the start-up code once the core is ready (stack, FPU, zeroed `.bss`).
fn start() -> ! {
    // SAFETY: every firmware binary defines `firmware_main` (a link error otherwise).
    unsafe { firmware_main() }
}

const SYS_OPEN: usize = 0x01;
const SYS_WRITE: usize = 0x05;
const SYS_EXIT: usize = 0x18;
const ADP_STOPPED_APPLICATION_EXIT: usize = 0x20026;
const ADP_STOPPED_RUN_TIME_ERROR: usize = 0x20023;

/// The host's standard output as a semihosting handle (opened on first use).
static mut STDOUT: usize = usize::MAX;

/// Writes bytes to the host's standard output (semihosting `SYS_WRITE` to `:tt`).
pub fn write(bytes: &[u8]) {
    // SAFETY: single-threaded firmware; no interrupt handler writes.
    let mut handle = unsafe { core::ptr::addr_of!(STDOUT).read() };
    if handle == usize::MAX {
        let name = b":tt\0";
        let args = [name.as_ptr() as usize, 4, 3];
        handle = semihost(SYS_OPEN, args.as_ptr() as usize);
        // SAFETY: as above.
        unsafe { core::ptr::addr_of_mut!(STDOUT).write(handle) };
    }
    let args = [handle, bytes.as_ptr() as usize, bytes.len()];
    semihost(SYS_WRITE, args.as_ptr() as usize);
}

/// Ends the emulation: QEMU exits with status 0 for `success`, 1 otherwise.
pub fn exit(success: bool) -> ! {
    let reason = if success {
        ADP_STOPPED_APPLICATION_EXIT
    } else {
        ADP_STOPPED_RUN_TIME_ERROR
    };
    if cfg!(target_pointer_width = "64") {
        // AArch64 passes a block: reason, exit code.
        let block = [reason, usize::from(!success)];
        semihost(SYS_EXIT, block.as_ptr() as usize);
    } else {
        semihost(SYS_EXIT, reason);
    }
    #[allow(clippy::empty_loop)]
    loop {}
}

extern "C" {
    /// Top of the stack (the first address above it), from the linker script.
    static _stack_start: u8;
    /// End of `.bss`: the stack may grow down to here.
    static __ebss: u8;
}

/// Bytes of stack that [`paint_stack`] covers below the top (or down to `.bss`).
pub const STACK_WINDOW: usize = 256 * 1024;
const PATTERN: u32 = 0xC0DE_5EED;

fn stack_bottom() -> usize {
    let top = core::ptr::addr_of!(_stack_start) as usize;
    let ebss = core::ptr::addr_of!(__ebss) as usize;
    (top.saturating_sub(STACK_WINDOW).max(ebss) + 7) & !7
}

/// Fills the free stack (from the bottom of the window to the current stack pointer) with a
/// pattern. Runs in registers only, so it does not disturb what it paints.
#[inline(always)]
pub fn paint_stack() {
    paint(stack_bottom(), PATTERN);
}

/// The deepest the stack has been since [`paint_stack`], in bytes from its top (the top of RAM,
/// where the start-up code put it): every frame counts, from the reset handler down.
#[inline(never)]
pub fn stack_high_water() -> usize {
    let top = core::ptr::addr_of!(_stack_start) as usize;
    let mut addr = stack_bottom();
    while addr < top {
        // SAFETY: reads the painted window, which is RAM below the stack pointer or frames
        // above it — all valid memory.
        let word = unsafe { core::ptr::read_volatile(addr as *const u32) };
        if word != PATTERN {
            break;
        }
        addr += 4;
    }
    top - addr
}
