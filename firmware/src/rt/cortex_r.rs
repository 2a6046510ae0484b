//! Cortex-R5F (ARMv7-R, ARM state): start-up code (stack, VFP, `.bss`), a vector table whose
//! entries end the run, semihosting by `svc 0x123456`, and the PMU cycle counter — which QEMU
//! runs at one count per instruction under `-icount shift=0`.

/// The core this image is built for.
pub const CORE: &str = "Cortex-R5F";

core::arch::global_asm!(
    r#"
    .fpu vfpv3-d16
    .section .vectors, "ax"
    .arm
    .global _vectors
_vectors:
    b _start
    b bdtree_fault
    b bdtree_fault
    b bdtree_fault
    b bdtree_fault
    b bdtree_fault
    b bdtree_fault
    b bdtree_fault

    .section .text.start, "ax"
    .arm
    .global _start
_start:
    ldr sp, =_stack_start
    /* CPACR: full access to cp10 and cp11 (the VFP), then FPEXC.EN. */
    mrc p15, 0, r0, c1, c0, 2
    orr r0, r0, #(0xF << 20)
    mcr p15, 0, r0, c1, c0, 2
    isb
    mov r0, #0x40000000
    vmsr fpexc, r0
    /* Zero .bss. */
    ldr r0, =__sbss
    ldr r1, =__ebss
    mov r2, #0
1:
    cmp r0, r1
    strlo r2, [r0], #4
    blo 1b
    /* PMU: enable and reset the cycle counter (PMCR.E, PMCR.C; PMCNTENSET bit 31). */
    mov r0, #5
    mcr p15, 0, r0, c9, c12, 0
    mov r0, #0x80000000
    mcr p15, 0, r0, c9, c12, 1
    bl bdtree_rt_start
2:
    b 2b
"#
);

/// A semihosting call (`svc 0x123456` in ARM state).
#[inline(always)]
pub fn semihost(op: usize, arg: usize) -> usize {
    let mut r0 = op;
    // SAFETY: the semihosting convention: r0 operation, r1 argument block; returns in r0.
    unsafe {
        core::arch::asm!("svc #0x123456", inout("r0") r0, in("r1") arg, options(nostack));
    }
    r0
}

/// The width of the PMU cycle counter (32 bits: [`super::Counter`] reads it at least once per
/// 2³² instructions; the Cortex-R5F runs the swept motions in 34 M instructions, far below
/// that).
pub const CYCLE_MASK: u64 = 0xFFFF_FFFF;

/// The PMU cycle counter.
pub fn cycles() -> u64 {
    let c: u32;
    // SAFETY: reads PMCCNTR, enabled by the start-up code.
    unsafe {
        core::arch::asm!("mrc p15, 0, {c}, c9, c13, 0", c = out(reg) c, options(nomem, nostack));
    }
    u64::from(c)
}

// Fills `[bottom, sp)` with `pattern`.
super::paint_loop!("bhs 3f", "str {pat}, [{p}], #4");
