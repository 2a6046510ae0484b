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

#[no_mangle]
extern "C" fn bdtree_rt_start() -> ! {
    super::start()
}

#[no_mangle]
extern "C" fn bdtree_fault() -> ! {
    super::write(b"BDTREE fault: exception\n");
    super::exit(false)
}

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

/// Instructions executed (the 32-bit PMU cycle counter, widened; read at least once per 2³²).
pub struct Counter {
    last: core::cell::Cell<u32>,
    total: core::cell::Cell<u64>,
}

fn cycles() -> u32 {
    let c: u32;
    // SAFETY: reads PMCCNTR, enabled by the start-up code.
    unsafe {
        core::arch::asm!("mrc p15, 0, {c}, c9, c13, 0", c = out(reg) c, options(nomem, nostack));
    }
    c
}

impl Counter {
    /// Starts counting from the current cycle count.
    pub fn new() -> Self {
        Self {
            last: core::cell::Cell::new(cycles()),
            total: core::cell::Cell::new(0),
        }
    }

    /// Instructions since [`Counter::new`].
    pub fn now(&self) -> u64 {
        let c = cycles();
        self.total
            .set(self.total.get() + u64::from(c.wrapping_sub(self.last.get())));
        self.last.set(c);
        self.total.get()
    }

    /// As [`Counter::now`]: a span must stay below 2³² instructions (the Cortex-R5F runs the
    /// swept motions in 34 M instructions, far below that).
    pub fn now_wide(&self) -> u64 {
        self.now()
    }
}

impl Default for Counter {
    fn default() -> Self {
        Self::new()
    }
}

/// Fills `[bottom, sp)` with `pattern`.
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
            "str {pat}, [{p}], #4",
            "b 2b",
            "3:",
            sp = out(reg) _,
            p = inout(reg) bottom => _,
            pat = in(reg) pattern,
            options(nostack),
        );
    }
}
