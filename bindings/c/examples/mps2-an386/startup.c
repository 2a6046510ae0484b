/* Reset, vector table and semihosting of the Cortex-M4F replay (QEMU mps2-an386). */
#include <stdint.h>

#include "board.h"

extern uint32_t _data_start[], _data_end[], _data_load[], _bss_start[], _bss_end[];
/* The top of RAM: a linker symbol, declared as a function so that the vector table (an array
 * of function pointers) can hold it without an object-to-function pointer conversion. */
extern void _stack_top(void);

int main(void);
void reset_handler(void);

static void fault_handler(void)
{
    board_print("fault\n");
    board_exit(1);
}

/* Initial stack pointer, reset, NMI, hard fault, then the other exceptions. */
__attribute__((section(".vectors"), used)) static void (*const vectors[16])(void) = {
    _stack_top, reset_handler, fault_handler, fault_handler, fault_handler,
    fault_handler, fault_handler, 0, 0, 0, 0, fault_handler, fault_handler, 0, fault_handler,
    fault_handler,
};

/* ARM semihosting: operation in r0, argument in r1, `bkpt 0xab`. */
static uint32_t semihost(uint32_t op, const void *arg)
{
    register uint32_t r0 __asm__("r0") = op;
    register const void *r1 __asm__("r1") = arg;
    __asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
    return r0;
}

void board_print(const char *text)
{
    (void)semihost(0x04u, text); /* SYS_WRITE0 */
}

void board_exit(int status)
{
    /* SYS_EXIT: ADP_Stopped_ApplicationExit (QEMU exits 0) or RunTimeErrorUnknown (exits 1). */
    (void)semihost(0x18u, (const void *)(uintptr_t)(status == 0 ? 0x20026u : 0x20023u));
    for (;;) {
    }
}

/* ---- the meter ------------------------------------------------------------------------- */

#define SYST_CSR (*(volatile uint32_t *)0xE000E010u)
#define SYST_RVR (*(volatile uint32_t *)0xE000E014u)
#define SYST_CVR (*(volatile uint32_t *)0xE000E018u)
#define SYST_MASK 0x00FFFFFFu
/* Iterations of the calibration loop (two instructions each). */
#define CALIBRATION_LOOPS 500000u

static uint32_t systick_last;
static uint64_t systick_ticks, calibration_ticks;

void board_counter_start(void)
{
    uint32_t start, n = CALIBRATION_LOOPS;
    int k;
    SYST_RVR = SYST_MASK;
    SYST_CVR = 0u;
    SYST_CSR = 5u; /* core clock, enabled, no interrupt */
    for (k = 0; k < 1000 && SYST_CVR == 0u; k++) {
    }
    start = SYST_CVR;
    __asm__ volatile("1:\n\tsubs %0, %0, #1\n\tbne 1b" : "+r"(n) : : "cc");
    calibration_ticks = (uint64_t)((start - SYST_CVR) & SYST_MASK);
    if (calibration_ticks == 0u) {
        calibration_ticks = 1u;
    }
    systick_last = SYST_CVR;
    systick_ticks = 0u;
}

uint64_t board_instructions(void)
{
    uint32_t now = SYST_CVR;
    systick_ticks += (uint64_t)((systick_last - now) & SYST_MASK);
    systick_last = now;
    return systick_ticks * (2u * (uint64_t)CALIBRATION_LOOPS) / calibration_ticks;
}

#define PAINT_BYTES (64u * 1024u)
#define PAINT_PATTERN 0xC0DE5EEDu

static uintptr_t painted_from;

void board_paint_stack(void)
{
    uintptr_t sp;
    volatile uint32_t *p;
    __asm__ volatile("mov %0, sp" : "=r"(sp));
    painted_from = sp & ~(uintptr_t)7u;
    for (p = (volatile uint32_t *)(painted_from - PAINT_BYTES); (uintptr_t)p < painted_from - 64u;
         p++) {
        *p = PAINT_PATTERN;
    }
}

size_t board_stack_used(void)
{
    const volatile uint32_t *p = (const volatile uint32_t *)(painted_from - PAINT_BYTES);
    while ((uintptr_t)p < painted_from - 64u && *p == PAINT_PATTERN) {
        p++;
    }
    return (size_t)(painted_from - (uintptr_t)p);
}

void reset_handler(void)
{
    uint32_t *p, *src;
    volatile uint32_t *cpacr = (volatile uint32_t *)0xE000ED88u;
    for (p = _data_start, src = _data_load; p < _data_end;) {
        *p++ = *src++;
    }
    for (p = _bss_start; p < _bss_end;) {
        *p++ = 0u;
    }
    *cpacr |= 0xFu << 20; /* CP10, CP11: the FPU */
    __asm__ volatile("dsb\n\tisb" ::: "memory");
    board_exit(main());
}
