/* The host program of `cargo xtask c`: replays the fixture pack given as its argument through
 * the C API (see replay.h) and prints "c api host: N frames match". */
#include <stdio.h>
#include <stdlib.h>

#include "replay.h"

/* Working memory of the replay (every scene's bodies, stacks, buffers and pending list). */
#define ARENA_BYTES ((size_t)64u << 20)

static void print(const char *text)
{
    fputs(text, stdout);
}

int main(int argc, char **argv)
{
    FILE *file;
    long len;
    uint8_t *pack, *arena;
    int result;

    if (argc != 2) {
        fprintf(stderr, "usage: %s target/c-api/fixtures.bin\n", argv[0]);
        return 2;
    }
    file = fopen(argv[1], "rb");
    if (file == NULL || fseek(file, 0, SEEK_END) != 0 || (len = ftell(file)) < 0 ||
        fseek(file, 0, SEEK_SET) != 0) {
        fprintf(stderr, "%s: cannot read\n", argv[1]);
        return 2;
    }
    /* Tree images are read in place: the pack (and so every image in it) is 16-byte aligned. */
    pack = (uint8_t *)aligned_alloc(16u, ((size_t)len + 15u) & ~(size_t)15u);
    arena = (uint8_t *)aligned_alloc(16u, ARENA_BYTES);
    if (pack == NULL || arena == NULL || fread(pack, 1u, (size_t)len, file) != (size_t)len) {
        fprintf(stderr, "%s: out of memory or short read\n", argv[1]);
        return 2;
    }
    fclose(file);
    result = replay_pack(pack, (size_t)len, arena, ARENA_BYTES, "host", print, NULL);
    free(arena);
    free(pack);
    return result;
}
