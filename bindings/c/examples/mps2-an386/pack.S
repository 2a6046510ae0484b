/* The f32 fixture pack (target/c-api/fixtures-f32.bin, PACK_FILE), in flash, 16-byte aligned. */
    .section .rodata.pack, "a"
    .balign 16
    .global pack_start
pack_start:
    .incbin PACK_FILE
    .global pack_end
pack_end:
