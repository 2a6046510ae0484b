/* Replays the fixture pack of `cargo xtask c` (target/c-api/fixtures*.bin) through the C API
 * and compares every frame with the answers it carries. Shared by the host program (host.c)
 * and the Cortex-M4F program (mps2-an386/main.c): plain C11, no libc beyond <string.h>'s
 * memcpy/memset/memcmp (newlib's on the Cortex-M4F: libbdtree.a brings no libc), all memory
 * from the caller's arena. */
#ifndef BDTREE_REPLAY_H
#define BDTREE_REPLAY_H

#include <stddef.h>
#include <stdint.h>

/* Prints one line of text (it ends with '\n'). */
typedef void (*replay_print)(const char *text);

/* What a board measures the API's calls with (the Cortex-M4F program's; the host passes NULL):
 * instructions executed so far, and the stack a call used — painted below the caller before
 * the call, the depth reached read after it. */
typedef struct {
    uint64_t (*instructions)(void);
    void (*paint_stack)(void);
    size_t (*stack_used)(void);
} replay_meter;

/* Replays every scene of `pack` (16-byte aligned, `len` bytes) with `arena` (16-byte aligned,
 * `arena_len` bytes) as the only working memory, checks the API's error paths on the first
 * scene of each precision, and prints per scene a summary and, at the end,
 * "c api <platform>: N frames match". With a `meter` it also measures every call and prints
 * per function "c api <platform> cost: <function> …" lines (see xtask/src/c.rs). Returns 0
 * when every frame matched and every check passed, 1 otherwise. */
int replay_pack(const uint8_t *pack, size_t len, uint8_t *arena, size_t arena_len,
                const char *platform, replay_print print, const replay_meter *meter);

#endif
