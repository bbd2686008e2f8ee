/*
 * crt0.S — reset entry of the firmware: power-on and every restart.
 *
 * PicoRV32 runs without interrupts (ENABLE_IRQ=0, rtl/am_soc.v): when a
 * behavior traps -- illegal instruction, ebreak/ecall, misaligned access or
 * jump target --, makes a bus error, or overruns the unit's watchdog, the
 * SoC restarts the core, which starts here again. SYS.RESTART says why
 * (0: power-on or the reset button), SYS.RESTART_PC the core's last
 * instruction fetch (fw_trap finds the trapping instruction from it). RAM
 * and the actor unit keep their state.
 *
 * Address 0 jumps over the image header: twelve words that say what the image
 * is (docs/programs.md). The linker fills the sizes, scripts/am_program.py
 * the rest when it makes the image (the hex file):
 *
 *   +0x00  j  entry           +0x14  behaviors in the table
 *   +0x04  magic "AMI1"       +0x18  boot behavior (0 at SYS.BOOT_BEH: this one)
 *   +0x08  image bytes        +0x1C  minimum stack bytes (FW_STACK_MIN)
 *   +0x0C  CRC-32 (this word  +0x20  the stack's top (the RAM less the link's areas)
 *          0 while computed)  +0x24  end of .bss: the stack has the rest
 *   +0x10  behavior-table hash (FNV-1a of the names, host/am_progset.h)
 *   +0x28  hash of the sources (scripts/am_program.py srchash)
 *   +0x2C  the interface's identity (include/am_iface.def's AM_IF_ID):
 *          a loader refuses an image built for another SoC interface
 *
 *   power-on:  stack, clear .bss, fw_main() (also after a reboot into an
 *              image loaded over the link: RESTART.LOADED alone).
 *   reboot:    RESTART.REBOOT: the link's loader asked for it -- jump to
 *              the copy routine at SYS.REBOOT, which moves the received
 *              image to 0 and reboots into it (fw_copy_stub below).
 *   restart:   stack, fw_trap(RESTART, RESTART_PC) -- it aborts the
 *              transaction (or acknowledges the watchdog) -- and back to
 *              the dispatch point (fw_loop). Behaviors hold no resources, so nothing
 *              of the abandoned behavior needs undoing.
 */
/* the registers of include/am_iface.def as symbols (SYS_BASE, SYS_RESTART, ...) */
#define AM_IF_BLOCK(blk, base, bits, doc, notes) .equ blk##_BASE, base;
#define AM_IF_REG(blk, name, off, acc, cyc, doc) .equ blk##_##name, off;
#define AM_IF_SIZE(name, value, doc) .equ AM_DEFAULT_##name, value;
#define AM_IF_FIELD(blk, reg, name, lsb, width, doc) .equ blk##_##reg##_##name, ((1 << (width)) - 1) << (lsb);
#include "am_iface.def"
/* an image built without the host link (FW_LINK=0: the boards') never asks
 * for a reboot into a copy routine: it has no loader */
#ifndef FW_LINK
#define FW_LINK 1
#endif

    .section .text.start, "ax"
    .globl _start
    .globl fw_image_header
_start:
    j       entry
fw_image_header = _start
    .word   0x31494D41        /* "AMI1" */
    .word   __image_end
    .word   0                 /* CRC-32 */
    .word   0                 /* behavior-table hash */
    .word   0                 /* behaviors */
    .word   0                 /* boot behavior */
    .word   __stack_min
    .word   __stack_top
    .word   __bss_end
    .word   0                 /* source hash */
    .word   0                 /* interface identity (AM_IF_ID) */

entry:
    la      sp, __stack_top
    li      t0, SYS_BASE
    lw      a0, SYS_RESTART(t0)
#if FW_LINK
    andi    a1, a0, SYS_RESTART_REBOOT
    bnez    a1, reboot
#endif
    andi    a0, a0, ~SYS_RESTART_LOADED
    bnez    a0, restart
    la      a0, __bss_start
    la      a1, __bss_end
1:  bgeu    a0, a1, 2f
    sw      zero, 0(a0)
    addi    a0, a0, 4
    j       1b
2:  call    fw_main
3:  j       3b

#if FW_LINK
reboot:
    lw      t1, SYS_REBOOT(t0)
    jr      t1
#endif

restart:
    lw      a1, SYS_RESTART_PC(t0)
    call    fw_trap          /* writes ABORT with the cause */
    j       fw_loop

    /* The firmware's dispatch entries (fw.h, FW_DISPATCH_ENTRIES): the
     * device routine, IDLE and the built-in behaviors are the firmware's
     * code and run with its rights (rtl/am_soc.v, "privilege"). A
     * behavior's registers reach them -- the dispatch point jumps there as
     * to any behavior, setting only ra and sp -- so they trust none: their
     * own stack top, and back to the dispatch point by fw_loop, not by ra
     * (a return into a program's code would run it with the firmware's
     * rights). */
    .macro  FW_ENTRY entry, fn
    .globl  \entry
\entry:
    la      sp, __stack_top
    call    \fn
    j       fw_loop
    .endm
#if !defined(FW_LOADER)   /* (the resident loader dispatches nothing) */
    FW_ENTRY fw_device_entry, fw_device
    FW_ENTRY fw_idle_entry, fw_idle
    FW_ENTRY fw_console_entry, fw_console_beh
    FW_ENTRY fw_sink_entry, fw_sink_beh
    FW_ENTRY fw_ask_entry, fw_ask_beh
#endif

    /* fw_restart(): abandon the running behavior (after am_fail wrote
     * ABORT) and continue with the next event on a fresh stack. */
    .globl  fw_restart
fw_restart:
    la      sp, __stack_top
    /* fw_loop(): to the dispatch point, with the return address there: its
     * fetch is answered with a jump to the next behavior, whose `ret`
     * fetches it again (rtl/am_unit_dp.v, docs/firmware.md) */
    .globl  fw_loop
fw_loop:
    li      ra, AM_DEFAULT_DISPATCH_PC
    jr      ra

    /* The loader's copy routine (firmware/fw_link.c): position independent,
     * copied above the image after two words -- the received image's
     * address and its size in bytes -- and entered after a reboot (crt0's
     * "reboot" above), when the stack guard is off. It copies the image to
     * 0 (forward: the source lies above its destination) and reboots into
     * it: SYS.REBOOT = 0, RESTART.LOADED. */
    .section .text.fw_copy_stub, "ax"
    .globl  fw_copy_stub
    .globl  fw_copy_stub_end
    .p2align 2
fw_copy_stub:
    auipc   t2, 0
    lw      a0, -8(t2)
    lw      a1, -4(t2)
    li      a2, 0
1:  beqz    a1, 2f
    lw      a3, 0(a0)
    sw      a3, 0(a2)
    addi    a0, a0, 4
    addi    a2, a2, 4
    addi    a1, a1, -4
    j       1b
2:  li      t0, SYS_BASE
    sw      zero, SYS_REBOOT(t0)
3:  j       3b
fw_copy_stub_end:
