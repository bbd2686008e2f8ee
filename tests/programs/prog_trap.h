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
#include "am_iface.h"   /* AM_DEFAULT_DISPATCH_PC */

/* The other ways PicoRV32 traps, each with the cause it must give: the
 * SoC restarts the core and the firmware finds the trapping instruction
 * (rtl/am_soc.v, "restart"; firmware/fw_main.c, trap_cause). */
enum {
    PROG_TRAP_MIS_STORE,      /* TRAP_MISALIGNED */
    PROG_TRAP_MIS_JAL,        /* TRAP_MISALIGNED, though an illegal word precedes the target */
    PROG_TRAP_MIS_JALR,       /* TRAP_MISALIGNED */
    PROG_TRAP_MIS_BRANCH,     /* TRAP_MISALIGNED, though an illegal word follows the branch */
    PROG_TRAP_ECALL,          /* TRAP_ILLEGAL */
    PROG_TRAP_BRANCH_EBREAK,  /* TRAP_EBREAK, after a branch not taken */
    PROG_TRAP_MIS_BRANCH_FAR, /* TRAP_MISALIGNED: a taken branch past its successor (a nop) */
    PROG_TRAP_DP_LOAD,        /* TRAP_BUS: a data access of the dispatch point ... */
    PROG_TRAP_DP_STORE,       /* ... a load or a store: a bus error, no commit, no dispatch */
    /* TRAP_BUS: what is the firmware's alone (rtl/am_soc.v, "privilege") */
    PROG_TRAP_FW_WATCHDOG,    /* the unit's WATCHDOG := 0 (the watchdog off) */
    PROG_TRAP_FW_CTRL,        /* CTRL := 0 (dispatching stopped) */
    PROG_TRAP_FW_HANDLER,     /* FAULT_HANDLER := 0 (no fault delivered) */
    PROG_TRAP_FW_COMMIT,      /* COMMIT: the transaction ended from inside */
    PROG_TRAP_SYS_HALT,       /* SYS.HALT := 0x5A (the machine halted) */
    PROG_TRAP_UART_TX,        /* a byte written to the UART (over the host link's frames) */
    PROG_TRAP_UART_RX,        /* a byte read from it (the link's) */
    PROG_TRAP_FW_READ,        /* FAULT_HANDLER read: a reference never given */
    PROG_TRAP_FW_ABORT,       /* ABORT[TABLE_FULL]: a cause that is the firmware's to report */
    PROG_TRAP_DP_SECOND,      /* a jump to the dispatch point's answer (its third word), past its first */
    PROG_TRAP_LINK_STORE,     /* STACK: a store at the stack's top, into the link's state */
};
#define PROG_TRAP_BUS_FIRST PROG_TRAP_DP_LOAD   /* this way and the ones after it: TRAP_BUS,
                                                  but LINK_STORE: STACK */

#if defined(__riscv)
/* a device register, as the firmware names it (firmware/fw.h's FW_REG) */
#define PROG_REG(base, off) (*(volatile uint32_t *)((base) + (off)))
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
static inline void prog_trap_way(am_ctx *ctx, uint32_t way)
{
    (void)ctx;
    switch (way) {
    case PROG_TRAP_MIS_STORE: {
        /* PicoRV32 still writes the aligned word before it stops: aim at
         * one of our own */
        volatile uint32_t w[2] = { 1, 2 };
        __asm__ volatile("sw zero, 2(%0)" : : "r"(w) : "memory");
        break;
    }
    case PROG_TRAP_MIS_JAL:
        __asm__ volatile(".word 0x00a0006f\n"      /* jal x0, . + 10 */
                         ".word 0x00000000\n.word 0x00000000\n.word 0x00000000" ::: "memory");
        break;
    case PROG_TRAP_MIS_JALR: {
        uint32_t t;
        __asm__ volatile("auipc %0, 0\n"
                         "addi %0, %0, 14\n"
                         "jalr x0, 0(%0)\n"            /* to the middle of the next word */
                         ".word 0x00000000\n.word 0x00000000" : "=&r"(t) : : "memory");
        break;
    }
    case PROG_TRAP_MIS_BRANCH:
        __asm__ volatile(".word 0x00000363\n"      /* beq x0, x0, . + 6 */
                         ".word 0x00000000\n.word 0x00000000" ::: "memory");
        break;
    case PROG_TRAP_ECALL:
        __asm__ volatile("ecall" ::: "memory");
        break;
    case PROG_TRAP_BRANCH_EBREAK:
        __asm__ volatile(".word 0x00001463\n"      /* bne x0, x0, . + 8: never taken */
                         "ebreak\n.word 0x00000000" ::: "memory");
        break;
    case PROG_TRAP_MIS_BRANCH_FAR:
        __asm__ volatile(".word 0x00000563\n"      /* beq x0, x0, . + 10 */
                         "nop\n.word 0x00000000\n.word 0x00000000" ::: "memory");
        break;
    case PROG_TRAP_DP_LOAD:
        (void)*(volatile uint32_t *)AM_DEFAULT_DISPATCH_PC;
        break;
    case PROG_TRAP_DP_STORE:
        *(volatile uint32_t *)AM_DEFAULT_DISPATCH_PC = 0;
        break;
    case PROG_TRAP_FW_WATCHDOG: PROG_REG(AU_BASE, AU_WATCHDOG) = 0; break;
    case PROG_TRAP_FW_CTRL:     PROG_REG(AU_BASE, AU_CTRL) = 0; break;
    case PROG_TRAP_FW_HANDLER:  PROG_REG(AU_BASE, AU_FAULT_HANDLER) = 0; break;
    case PROG_TRAP_FW_COMMIT:   PROG_REG(AU_BASE, AU_COMMIT) = 0; break;
    case PROG_TRAP_SYS_HALT:    PROG_REG(SYS_BASE, SYS_HALT) = 0x5Au; break;
    case PROG_TRAP_UART_TX:     PROG_REG(UART_BASE, UART_TXDATA) = '!'; break;
    case PROG_TRAP_UART_RX:     (void)PROG_REG(UART_BASE, UART_RXDATA); break;
    case PROG_TRAP_FW_READ:     (void)PROG_REG(AU_BASE, AU_FAULT_HANDLER); break;
    case PROG_TRAP_FW_ABORT:    PROG_REG(AU_BASE, AU_ABORT + 4u * AM_FAULT_TABLE_FULL) = 0x55u; break;
    case PROG_TRAP_DP_SECOND:   ((void (*)(void))(uintptr_t)(AM_DEFAULT_DISPATCH_PC + 8u))(); break;
    case PROG_TRAP_LINK_STORE: {
        extern char __stack_top[];   /* firmware/link.ld */
        *(volatile uint32_t *)(void *)__stack_top = 0;
        break;
    }
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
static inline void prog_trap_way(am_ctx *ctx, uint32_t way)
{
    am_host_trap(ctx, way == PROG_TRAP_ECALL ? AM_FAULT_TRAP_ILLEGAL
                      : way == PROG_TRAP_BRANCH_EBREAK ? AM_FAULT_TRAP_EBREAK
                      : way == PROG_TRAP_LINK_STORE ? AM_FAULT_STACK
                      : way >= PROG_TRAP_BUS_FIRST ? AM_FAULT_TRAP_BUS
                      : AM_FAULT_TRAP_MISALIGNED);
}
static inline void prog_spin_on_unit(am_ctx *ctx) { am_host_trap(ctx, AM_FAULT_WATCHDOG); }
#endif

#endif /* PROG_TRAP_H */
