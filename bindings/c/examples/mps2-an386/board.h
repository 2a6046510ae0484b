/* What the Cortex-M4F replay needs from the board: text out and exit (semihosting). */
#ifndef BOARD_H
#define BOARD_H

void board_print(const char *text);
void board_exit(int status);

#endif
