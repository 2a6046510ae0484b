//! Cortex-A53 (AArch64, EL1, MMU off): start-up code (stack, FP/SIMD access, `.bss`, vectors),
//! semihosting by `hlt 0xf000`, and the PMU cycle counter — which QEMU runs at one count per
//! instruction under `-icount shift=0`.

/// The core this image is built for.
pub const CORE: &str = "Cortex-A53";

core::arch::global_asm!(
    r#"
    .section .text.start, "ax"
    .global _start
_start:
    ldr x0, =_stack_start
    mov sp, x0
    /* CPACR_EL1.FPEN = 0b11: FP and SIMD at EL1 and EL0. */
    mrs x0, cpacr_el1
    orr x0, x0, #(3 << 20)
    msr cpacr_el1, x0
    isb
    ldr x0, =bdtree_vectors
    msr vbar_el1, x0
    /* Zero .bss. */
    ldr x0, =__sbss
    ldr x1, =__ebss
1:
    cmp x0, x1
    b.hs 2f
    str xzr, [x0], #8
    b 1b
2:
    /* PMU: enable and reset the cycle counter (PMCR_EL0.E, .C; PMCNTENSET_EL0 bit 31). */
    mov x0, #5
    msr pmcr_el0, x0
    mov x0, #0x80000000
    msr pmcntenset_el0, x0
    isb
    bl bdtree_rt_start
3:
    b 3b

    .section .vectors, "ax"
    .balign 2048
bdtree_vectors:
    .rept 16
    .balign 128
    b bdtree_fault
    .endr
"#
);

/// A semihosting call (`hlt 0xf000`).
#[inline(always)]
pub fn semihost(op: usize, arg: usize) -> usize {
    let mut x0 = op;
    // SAFETY: the semihosting convention: x0 operation, x1 argument block; returns in x0.
    unsafe {
        core::arch::asm!("hlt #0xf000", inout("x0") x0, in("x1") arg, options(nostack));
    }
    x0
}

/// The width of the PMU cycle counter (64 bits: it does not wrap).
pub const CYCLE_MASK: u64 = u64::MAX;

/// The PMU cycle counter.
pub fn cycles() -> u64 {
    let c: u64;
    // SAFETY: reads PMCCNTR_EL0, enabled by the start-up code.
    unsafe {
        core::arch::asm!("mrs {c}, pmccntr_el0", c = out(reg) c, options(nomem, nostack));
    }
    c
}

// Fills `[bottom, sp)` with `pattern`.
super::paint_loop!("b.hs 3f", "str {pat:w}, [{p}], #4");
