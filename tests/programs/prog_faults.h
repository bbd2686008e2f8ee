/*
 * prog_faults.h — ops of the fault test program (prog_faults.c).
 */
#ifndef PROG_FAULTS_H
#define PROG_FAULTS_H

enum {
    FAULTS_OP_NONE = 0,
    FAULTS_OP_ILLEGAL,      /* TRAP_ILLEGAL */
    FAULTS_OP_MISALIGNED,   /* TRAP_MISALIGNED */
    FAULTS_OP_BUS,          /* TRAP_BUS */
    FAULTS_OP_EBREAK,       /* TRAP_EBREAK */
    FAULTS_OP_FAIL,         /* FAIL 0x55 */
    FAULTS_OP_SENDS,        /* TOO_MANY_SENDS */
    FAULTS_OP_CREATES,      /* TOO_MANY_CREATES */
    FAULTS_OP_MSG_LONG,     /* MSG_TOO_LONG */
    FAULTS_OP_STATE_LONG,   /* STATE_TOO_LONG */
    FAULTS_OP_BAD_BEH,      /* BAD_BEHAVIOR (create) */
    FAULTS_OP_BECOME_BAD,   /* BAD_BEHAVIOR (become) */
    FAULTS_OP_REF_NIL,      /* BAD_REF: AM_NIL */
    FAULTS_OP_REF_RANGE,    /* BAD_REF: slot beyond the table */
    FAULTS_OP_REF_GEN,      /* BAD_REF: live slot, wrong generation */
    FAULTS_OP_WATCHDOG,     /* WATCHDOG: an infinite loop */
    FAULTS_OP_SENDS_LOOP,   /* TOO_MANY_SENDS, then an infinite loop: first fault wins */
    FAULTS_OP_SENDS_SPIN,   /* TOO_MANY_SENDS, then sends forever: first fault wins */
    FAULTS_OP_READS_SPIN,   /* WATCHDOG: an infinite loop reading the unit */
    /* the other ways the core traps (prog_trap.h, PROG_TRAP_*): the SoC
     * restarts the core and the firmware tells them apart (firmware.md) */
    FAULTS_OP_MIS_STORE,    /* TRAP_MISALIGNED: a misaligned store */
    FAULTS_OP_MIS_JAL,      /* TRAP_MISALIGNED: a jump to pc + 10, an illegal word before */
    FAULTS_OP_MIS_JALR,     /* TRAP_MISALIGNED: an indirect jump to an odd halfword */
    FAULTS_OP_MIS_BRANCH,   /* TRAP_MISALIGNED: a taken branch to pc + 6, an illegal word after it */
    FAULTS_OP_ECALL,        /* TRAP_ILLEGAL: ecall */
    FAULTS_OP_BRANCH_EBREAK,/* TRAP_EBREAK: a branch not taken, then ebreak */
    FAULTS_OP_MIS_BRANCH_FAR,/* TRAP_MISALIGNED: a taken branch to pc + 10, a nop after it */
    FAULTS_OP_DP_LOAD,      /* TRAP_BUS: a load from the dispatch point (only fetches are its) */
    FAULTS_OP_DP_STORE,     /* TRAP_BUS: a store to the dispatch point */
    /* TRAP_BUS: what is the firmware's alone (prog_trap.h, PROG_TRAP_FW_* ...) */
    FAULTS_OP_FW_WATCHDOG,  /* the unit's WATCHDOG := 0 */
    FAULTS_OP_FW_CTRL,      /* CTRL := 0 */
    FAULTS_OP_FW_HANDLER,   /* FAULT_HANDLER := 0 */
    FAULTS_OP_FW_COMMIT,    /* COMMIT */
    FAULTS_OP_SYS_HALT,     /* SYS.HALT */
    FAULTS_OP_UART_TX,      /* a byte to the UART */
    FAULTS_OP_UART_RX,      /* a byte from it */
    FAULTS_OP_FW_READ,      /* FAULT_HANDLER read */
    FAULTS_OP_FW_ABORT,     /* ABORT[TABLE_FULL] written: the firmware's causes are its own */
    FAULTS_OP_DP_SECOND,    /* a jump to the dispatch point's answer, past its first word */
    FAULTS_OP_LINK_STORE,   /* STACK: a store at the stack's top (the link's state) */
    FAULTS_OP_WATCHDOG_AGAIN, /* WATCHDOG: the watchdog is still on after FW_WATCHDOG */
    FAULTS_OP_COUNT = FAULTS_OP_WATCHDOG_AGAIN
};

#define FAULTS_FLOOD_DEPTH 3u   /* 1 + 8 + 64 + 512 messages if nothing failed */

#endif /* PROG_FAULTS_H */
