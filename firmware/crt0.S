/*
 * crt0.S — reset and trap entry of the firmware (PicoRV32, IRQs enabled).
 *
 * 0x00  reset: stack, clear .bss, fw_main().
 * 0x10  PicoRV32's IRQ vector (PROGADDR_IRQ). Every trap a behavior can cause
 *       arrives here: illegal instruction / ebreak / ecall (irq 1), misaligned
 *       access (irq 2), bus error from the SoC (irq 3), the watchdog (irq 4).
 *       Behaviors hold no resources, so the handler does not save registers:
 *       fw_trap() aborts the transaction and we resume the dispatch loop on a
 *       fresh stack, leaving the IRQ context with retirq.
 *       PicoRV32 runs without q-registers (ENABLE_IRQ_QREGS=0, 63 iCE40
 *       LUT4 less): it enters the vector with the return address in x3 (gp)
 *       and the pending IRQ bits in x4 (tp), and retirq returns to x3. The
 *       firmware uses neither register otherwise (no global pointer: the
 *       linker script defines none; no thread pointer), and the interrupted
 *       code is abandoned, so clobbering them is harmless.
 *
 * PicoRV32's custom instructions (its README, "Custom Instructions for IRQ
 * Handling") are written with .insn: opcode custom-0, funct7 selects.
 */
#define RETIRQ        .insn r 0x0b, 0, 2, x0, x0, x0
#define MASKIRQ(rd, rs) .insn r 0x0b, 0, 3, rd, rs, x0

    .section .text.start, "ax"
    .globl _start
_start:
    j       reset
    .balign 16
irq_vector:
    la      sp, __stack_top
    mv      a0, tp           /* x4: pending IRQ bits */
    mv      a1, gp           /* x3: return address, after the faulting instruction */
    call    fw_trap          /* writes ABORT with the cause */
    la      gp, fw_loop      /* retirq returns to x3 */
    RETIRQ                   /* back to the dispatch loop, IRQs live again */

reset:
    la      sp, __stack_top
    la      a0, __bss_start
    la      a1, __bss_end
1:  bgeu    a0, a1, 2f
    sw      zero, 0(a0)
    addi    a0, a0, 4
    j       1b
2:  li      a0, 0
    MASKIRQ(x0, a0)          /* unmask every IRQ */
    call    fw_main
3:  j       3b

    /* fw_restart(): abandon the running behavior (after am_fail wrote
     * ABORT) and continue with the next event on a fresh stack. */
    .globl  fw_restart
fw_restart:
    la      sp, __stack_top
    j       fw_loop
