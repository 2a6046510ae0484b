/* What the Cortex-M4F replay needs from the board: text out and exit (semihosting), and the
 * meter of its costs (instructions counted with SysTick, stack by painting). */
#ifndef BOARD_H
#define BOARD_H

#include <stddef.h>
#include <stdint.h>

void board_print(const char *text);
void board_exit(int status);

/* Starts SysTick and calibrates it in instructions (QEMU's `-icount shift=0` makes its clock
 * one tick per instruction executed; SysTick runs at the board's 25 MHz from it). */
void board_counter_start(void);
/* Instructions executed since board_counter_start, to SysTick's resolution (~40). */
uint64_t board_instructions(void);
/* Fills the 64 KiB of stack below the caller with a pattern. */
void board_paint_stack(void);
/* Bytes of stack written below where board_paint_stack painted from, since it painted. */
size_t board_stack_used(void);

#endif
