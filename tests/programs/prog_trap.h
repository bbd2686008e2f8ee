/*
 * prog_trap.h — make a behavior trap, on both targets. On the RISC-V core
 * these are real traps (the firmware's trap handler turns them into aborts);
 * on the host, which cannot take the same traps, the runtime's model of
 * them aborts with the same cause. The one place where test programs differ
 * between targets.
 */
#ifndef PROG_TRAP_H
#define PROG_TRAP_H

#include "am.h"

#if defined(__riscv)
static inline void prog_trap(am_ctx *ctx, uint32_t cause)
{
    (void)ctx;
    switch (cause) {
    case AM_FAULT_TRAP_ILLEGAL:
        __asm__ volatile(".word 0x00000000");          /* an illegal instruction */
        break;
    case AM_FAULT_TRAP_MISALIGNED: {
        /* asm, or GCC would split a known-misaligned load into halves */
        uint32_t v, a = 0x100;                        /* in RAM */
        __asm__ volatile("lw %0, 2(%1)" : "=r"(v) : "r"(a) : "memory");
        (void)v;
        break;
    }
    case AM_FAULT_TRAP_BUS: {
        uint32_t v, a = 0x40000000;                   /* nothing mapped there */
        __asm__ volatile("lw %0, 0(%1)" : "=r"(v) : "r"(a) : "memory");
        (void)v;
        break;
    }
    case AM_FAULT_TRAP_EBREAK:
        __asm__ volatile("ebreak");
        break;
    case AM_FAULT_WATCHDOG:
        for (;;) __asm__ volatile("");   /* an infinite loop: the unit's watchdog */
    default:
        break;
    }
    for (;;) { }   /* not reached: the trap does not return */
}
/* An infinite loop that keeps reading the unit: the watchdog must still get
 * through (docs/actor-unit.md, "Watchdog"). */
static inline void prog_spin_on_unit(am_ctx *ctx)
{
    for (;;) (void)am_self(ctx);
}
#else
#include "am_rt.h"
static inline void prog_trap(am_ctx *ctx, uint32_t cause) { am_host_trap(ctx, cause); }
static inline void prog_spin_on_unit(am_ctx *ctx) { am_host_trap(ctx, AM_FAULT_WATCHDOG); }
#endif

#endif /* PROG_TRAP_H */
