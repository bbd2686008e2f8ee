/*
 * prog_faults.c — every fault class, on both targets: each victim message
 * stages effects (a console print, a send, a create, a become) and then
 * faults in one particular way. Nothing it staged may become visible; the
 * fault record carries the event; the next message is served as usual.
 * Programs "flood" and "fill" drive the queue to QUEUE_FULL and the table
 * to TABLE_FULL. tests/lib/test_programs.c checks the faults on the host; the
 * lockstep co-simulation holds the hardware to the same transactions.
 *
 * PROG_FAULTS: [step] script; FAULTS_VICTIM: [op]; FAULTS_FLOOD: [depth];
 * FAULTS_FILL: [] creates 4 sinks and sends itself [] until the table is full.
 * Every sink stays reachable (a chain from the FILL actor's state: each sink
 * holds the previous one), so the collector cannot help: the table fills
 * with live actors and CREATE aborts with TABLE_FULL (docs/gc.md).
 */
#include "am.h"
#include "behaviors.h"
#include "prog_faults.h"
#include "prog_trap.h"

void prog_faults_victim(am_ctx *ctx)
{
    am_word op = am_msg(ctx, 0);
    am_word nine[9] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };

    /* effects that must all vanish */
    am_print(ctx, "VICTIM OUTPUT MUST NOT APPEAR\n");
    am_ref c = AM_CREATE(ctx, AMB_PROG_FAULTS_VICTIM, 7);
    AM_SEND(ctx, c, FAULTS_OP_NONE);
    AM_BECOME(ctx, AM_BEH_SINK, 1);

    switch (op) {
    case FAULTS_OP_ILLEGAL:    prog_trap(ctx, AM_FAULT_TRAP_ILLEGAL); break;
    case FAULTS_OP_MISALIGNED: prog_trap(ctx, AM_FAULT_TRAP_MISALIGNED); break;
    case FAULTS_OP_BUS:        prog_trap(ctx, AM_FAULT_TRAP_BUS); break;
    case FAULTS_OP_EBREAK:     prog_trap(ctx, AM_FAULT_TRAP_EBREAK); break;
    case FAULTS_OP_FAIL:       am_fail(ctx, 0x55u); break;
    case FAULTS_OP_SENDS:
        for (uint32_t i = 0; i < 9; i++) AM_SEND(ctx, c, i);   /* 2 + 9 > 8 */
        break;
    case FAULTS_OP_CREATES:
        for (uint32_t i = 0; i < 4; i++) AM_CREATE(ctx, AM_BEH_SINK, i); /* 5 > 4 */
        break;
    case FAULTS_OP_MSG_LONG:   am_send(ctx, c, 9, nine); break;
    case FAULTS_OP_STATE_LONG: am_become(ctx, AM_BEH_SINK, 9, nine); break;
    case FAULTS_OP_BAD_BEH:    am_create(ctx, 0xffffu, 0, 0); break;
    case FAULTS_OP_BECOME_BAD: am_become(ctx, 0x7fu, 0, 0); break;  /* < 2^8, > count */
    case FAULTS_OP_REF_NIL:    AM_SEND(ctx, AM_NIL, 1); break;
    case FAULTS_OP_REF_RANGE:  AM_SEND(ctx, 0x0001ffffu, 1); break;
    case FAULTS_OP_REF_GEN:    AM_SEND(ctx, am_self(ctx) + 0x00010000u, 1); break;
    case FAULTS_OP_WATCHDOG:   prog_trap(ctx, AM_FAULT_WATCHDOG); break;
    case FAULTS_OP_SENDS_LOOP:
        /* the host stops at the 9th send; the hardware records the fault, lets
         * the behavior loop, and its watchdog abort keeps the first cause */
        for (uint32_t i = 0; i < 9; i++) AM_SEND(ctx, c, i);
        prog_trap(ctx, AM_FAULT_WATCHDOG);
        break;
    case FAULTS_OP_SENDS_SPIN:
        /* the host stops at the 9th send; the hardware records the fault and
         * the behavior keeps writing to the unit until the watchdog, whose
         * hold ignores those writes (a waiting write would block its IRQ) */
        for (;;) AM_SEND(ctx, c, 0);
    case FAULTS_OP_READS_SPIN: prog_spin_on_unit(ctx); break;
    case FAULTS_OP_MIS_STORE:     prog_trap_way(ctx, PROG_TRAP_MIS_STORE); break;
    case FAULTS_OP_MIS_JAL:       prog_trap_way(ctx, PROG_TRAP_MIS_JAL); break;
    case FAULTS_OP_MIS_JALR:      prog_trap_way(ctx, PROG_TRAP_MIS_JALR); break;
    case FAULTS_OP_MIS_BRANCH:    prog_trap_way(ctx, PROG_TRAP_MIS_BRANCH); break;
    case FAULTS_OP_ECALL:         prog_trap_way(ctx, PROG_TRAP_ECALL); break;
    case FAULTS_OP_BRANCH_EBREAK: prog_trap_way(ctx, PROG_TRAP_BRANCH_EBREAK); break;
    case FAULTS_OP_MIS_BRANCH_FAR: prog_trap_way(ctx, PROG_TRAP_MIS_BRANCH_FAR); break;
    case FAULTS_OP_DP_LOAD:       prog_trap_way(ctx, PROG_TRAP_DP_LOAD); break;
    case FAULTS_OP_DP_STORE:      prog_trap_way(ctx, PROG_TRAP_DP_STORE); break;
    case FAULTS_OP_FW_WATCHDOG:   prog_trap_way(ctx, PROG_TRAP_FW_WATCHDOG); break;
    case FAULTS_OP_FW_CTRL:       prog_trap_way(ctx, PROG_TRAP_FW_CTRL); break;
    case FAULTS_OP_FW_HANDLER:    prog_trap_way(ctx, PROG_TRAP_FW_HANDLER); break;
    case FAULTS_OP_FW_COMMIT:     prog_trap_way(ctx, PROG_TRAP_FW_COMMIT); break;
    case FAULTS_OP_SYS_HALT:      prog_trap_way(ctx, PROG_TRAP_SYS_HALT); break;
    case FAULTS_OP_UART_TX:       prog_trap_way(ctx, PROG_TRAP_UART_TX); break;
    case FAULTS_OP_UART_RX:       prog_trap_way(ctx, PROG_TRAP_UART_RX); break;
    case FAULTS_OP_FW_READ:       prog_trap_way(ctx, PROG_TRAP_FW_READ); break;
    case FAULTS_OP_FW_ABORT:      prog_trap_way(ctx, PROG_TRAP_FW_ABORT); break;
    case FAULTS_OP_DP_SECOND:     prog_trap_way(ctx, PROG_TRAP_DP_SECOND); break;
    case FAULTS_OP_LINK_STORE:    prog_trap_way(ctx, PROG_TRAP_LINK_STORE); break;
    case FAULTS_OP_WATCHDOG_AGAIN: prog_trap(ctx, AM_FAULT_WATCHDOG); break;
    default:
        /* FAULTS_OP_NONE: a created victim's own message; commit quietly */
        return;
    }
}

void prog_faults_flood(am_ctx *ctx)
{
    am_word depth = am_msg(ctx, 0);
    if (depth >= FAULTS_FLOOD_DEPTH) return;
    for (uint32_t i = 0; i < 8; i++) AM_SEND(ctx, am_self(ctx), depth + 1);
}

void prog_faults_fill(am_ctx *ctx)
{
    am_ref chain = am_state(ctx, 0);
    for (uint32_t i = 0; i < 4; i++) chain = AM_CREATE(ctx, AM_BEH_SINK, chain);
    AM_BECOME(ctx, AMB_PROG_FAULTS_FILL, chain);
    am_send(ctx, am_self(ctx), 0, 0);
}

void prog_faults(am_ctx *ctx)
{
    am_word step = am_state(ctx, 0);
    am_ref victim = am_state(ctx, 1);
    if (step == 0) {
        am_print(ctx, "faults: start\n");
        victim = AM_CREATE(ctx, AMB_PROG_FAULTS_VICTIM, 0);
    }
    if (step == FAULTS_OP_COUNT) {
        am_print(ctx, "faults: the machine went on after every fault\n");
        return;
    }
    /* the victim's fault comes first (FIFO), then our next step */
    AM_SEND(ctx, victim, step + 1);
    am_print(ctx, "faults: op ");
    am_print_uint(ctx, step + 1);
    am_print(ctx, "\n");
    AM_SEND(ctx, am_self(ctx), 0);
    AM_BECOME(ctx, AMB_PROG_FAULTS, step + 1, victim);
}

void prog_flood(am_ctx *ctx)
{
    am_print(ctx, "flood: start\n");
    am_ref f = am_create(ctx, AMB_PROG_FAULTS_FLOOD, 0, 0);
    AM_SEND(ctx, f, 0);
}

void prog_fill(am_ctx *ctx)
{
    am_print(ctx, "fill: start\n");
    am_ref f = am_create(ctx, AMB_PROG_FAULTS_FILL, 0, 0);
    am_send(ctx, f, 0, 0);
}
