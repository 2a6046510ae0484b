/* The f32 fixture pack (target/c-api/fixtures-f32.bin, PACK_FILE), in the board's PSRAM
 * (link.ld), 16-byte aligned. */
    .section .pack, "a"
    .balign 16
    .global pack_start
pack_start:
    .incbin PACK_FILE
    .global pack_end
pack_end:
