/*
 * inplace.S — the in-place loader's entry (firmware/fw_inplace.c): word 0
 * jumps to the loader at the top of RAM, and the image header follows as in
 * every image (crt0.S; scripts/am_program.py loader fills it). Power-on,
 * every restart of the core come here while word 0 is the loader's:
 * a fresh stack, its state cleared, the loader from the start.
 */
    .section .text.start, "ax"
    .globl _start
_start:
    j       inplace_entry
    .word   0x31494D41        /* "AMI1" */
    .word   __image_end
    .word   0                 /* CRC-32 */
    .word   0                 /* behavior-table hash: none */
    .word   0                 /* behaviors: none */
    .word   0                 /* the loader's kind (am_program.py loader) */
    .word   0                 /* minimum stack bytes */
    .word   __ram_top
    .word   __bss_end
    .word   0                 /* source hash: none */
    .word   0                 /* interface identity (AM_IF_ID) */

    .text
inplace_entry:
    la      sp, __ram_top
    la      a0, __bss_start
    la      a1, __bss_end
1:  bgeu    a0, a1, 2f
    sw      zero, 0(a0)
    addi    a0, a0, 4
    j       1b
2:  call    fw_inplace_main
3:  j       3b
