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
