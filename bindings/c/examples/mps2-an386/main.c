/* The Cortex-M4F program of `cargo xtask c`: replays the f32 fixture pack (linked
 * into the board's PSRAM by pack.S) through libbdtree.a on QEMU's mps2-an386, measuring every
 * call (instructions and stack), and prints the costs and "c api mps2-an386: N frames match". */
#include <stdint.h>

#include "../replay.h"
#include "board.h"

/* The fixture pack, 16-byte aligned in PSRAM (pack.S). */
extern const uint8_t pack_start[], pack_end[];

/* All the replay's working memory: bodies, stacks, buffers and pending lists. */
static uint8_t arena[3u << 20] __attribute__((aligned(16)));

int main(void)
{
    static const replay_meter meter = {board_instructions, board_paint_stack, board_stack_used};
    board_counter_start();
    return replay_pack(pack_start, (size_t)(pack_end - pack_start), arena, sizeof arena,
                       "mps2-an386", board_print, &meter);
}
