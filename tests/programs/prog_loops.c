/*
 * prog_loops.c — behaviors that do not return, the same code on both
 * targets (no prog_trap.h model): each must abort with WATCHDOG, on the
 * SoC (the unit's cycle budget) and on the host (the runtime's CPU-time
 * budget, am_config.watchdog_ms), and in lockstep (the reference takes the
 * hardware's verdict). A loop just under the hardware's budget commits.
 *
 * LOOPS: its boot message sends itself every step ([0] .. [4]) at once, so
 * each runs whatever the one before did:
 *   0  an infinite loop
 *   1  a long loop under the budget (LOOPS_UNDER iterations), then a print
 *   2  an infinite loop inside a nested call
 *   3  an infinite loop after a create, two sends and a become
 *   4  prints that the machine went on
 * The watchdog's faults go to the console (the default fault handler),
 * which prints a line for each.
 */
#include "am.h"
#include "behaviors.h"

/* Iterations of step 1: about 400,000 of the SoC's 1,000,000-cycle budget
 * (each iteration loads and stores a volatile word: ~20 cycles on PicoRV32),
 * milliseconds on the host. */
#define LOOPS_UNDER 20000u

static void spin_forever(void)
{
    volatile am_word spin = 0;
    while (spin == 0) { /* a behavior that never returns */ }
}

__attribute__((noinline)) static am_word inner(volatile am_word *count)
{
    while (*count != 0) { /* never 0: the caller counts up from 1 */ }
    return *count;
}

__attribute__((noinline)) static am_word nested(am_word start)
{
    volatile am_word count = start;
    return inner(&count) + 1;
}

void prog_loops(am_ctx *ctx)
{
    if (am_msg_len(ctx) == 0) {        /* boot: every step, in order */
        for (am_word step = 0; step <= 4; step++) AM_SEND(ctx, am_self(ctx), step);
        return;
    }
    switch (am_msg(ctx, 0)) {
    case 0:
        spin_forever();
        break;
    case 1: {
        volatile am_word n = 0;
        while (n < LOOPS_UNDER) n = n + 1;
        am_print(ctx, "loops: a long loop under the budget committed\n");
        break;
    }
    case 2:
        (void)nested(1);
        break;
    case 3: {
        am_ref c = AM_CREATE(ctx, AMB_PROG_LOOPS, 3);
        AM_SEND(ctx, c, 4);
        am_print(ctx, "loops: staged, never printed\n");
        AM_BECOME(ctx, AMB_PROG_LOOPS, 99);
        spin_forever();
        break;
    }
    default:
        am_print(ctx, "loops: the machine went on after every loop\n");
        break;
    }
}

/* LOOP_AFTER_GC: a loop in the second run of a retried event. Run with the
 * low-water trigger off and a long period (--gc-low 0 --gc-period 60000) and
 * [k] = the free slots / 4 (31 in a 128-slot table: the console and this
 * actor hold 2): [1, k] creates 4 actors nobody keeps and goes on with
 * [1, k - 1] until the table is full of garbage, then [2] creates 3 more and
 * loops. Its first CREATE finds no free slot: the event is dispatched again
 * after a collection on demand, creates its 3 and loops until the watchdog
 * aborts it -- on the SoC and, in lockstep, by the hardware's verdict on the
 * reference, which collects on demand as the hardware did. */
/* The filling part of LOOP_AFTER_GC and LOOP_AFTER_GC_FH: boot [k] and the
 * steps [1, k]; returns 0 for [2], which the caller handles. */
static int loop_gc_fill(am_ctx *ctx, const char *full)
{
    am_ref self = am_self(ctx);
    if (am_msg_len(ctx) < 2 || am_msg(ctx, 0) != 1) {
        if (am_msg_len(ctx) == 1 && am_msg(ctx, 0) == 2) return 0;
        AM_SEND(ctx, self, 1, am_msg_len(ctx) ? am_msg(ctx, 0) : 31);   /* boot: [k] */
        return 1;
    }
    for (am_word i = 0; i < 4; i++) (void)AM_CREATE(ctx, AMB_PROG_LOOPS, 9);
    if (am_msg(ctx, 1) > 1) AM_SEND(ctx, self, 1, am_msg(ctx, 1) - 1);
    else {
        am_print(ctx, full);
        AM_SEND(ctx, self, 2);
    }
    return 1;
}

void prog_loop_gc(am_ctx *ctx)
{
    if (loop_gc_fill(ctx, "loop-after-gc: the table is full of garbage\n")) return;
    for (am_word i = 0; i < 3; i++) (void)AM_CREATE(ctx, AMB_PROG_LOOPS, 9);
    spin_forever();
}

/* LOOP_AFTER_GC_FH: the same, with the create-and-loop step in a fault
 * delivery: this actor is its own fault handler (set by every transaction
 * that commits: the boot and the steps), [2] fails,
 * and the delivery creates 3 and loops. The delivery's first CREATE that
 * finds no slot makes a collection on demand, its second run loops until
 * the watchdog aborts it -- in lockstep by the hardware's verdict, the
 * reference collecting on demand first with the delivery pending. A failed
 * delivery is not delivered again: the machine stops there. */
void prog_loop_gc_fh(am_ctx *ctx)
{
    am_fault_info f;
    if (am_fault(ctx, &f)) {
        for (am_word i = 0; i < 3; i++) (void)AM_CREATE(ctx, AMB_PROG_LOOPS, 9);
        spin_forever();
    }
    if (loop_gc_fill(ctx, "loop-after-gc-fh: the table is full of garbage\n")) {
        am_set_fault_handler(ctx, am_self(ctx));
        return;
    }
    am_fail(ctx, 2);
}
