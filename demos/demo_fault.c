/*
 * demo_fault.c — a behavior that fails after staging effects leaves no trace
 * of them: its create, its sends (console output included) and its BECOME are
 * discarded, the failed event becomes a fault record, and the machine goes on
 * with the next event.
 *
 * FRAGILE: [0] -> stages a create, a send to it, a print and a become, then
 *          fails with code 0xF00D; [1] -> prints that it committed.
 */
#include "demo.h"

#define DEMO_FAULT_CODE 0xF00Du

void demo_fragile(am_ctx *ctx)
{
    if (am_msg(ctx, 0) == 0) {
        am_ref c = AM_CREATE(ctx, AMB_CELL, 1);
        AM_SEND(ctx, c, AM_NIL, AML_READ);
        am_print(ctx, "fault: NEVER PRINTED\n");
        am_become(ctx, AM_BEH_SINK, 0, 0);
        am_fail(ctx, DEMO_FAULT_CODE);
    }
    am_print(ctx, "fault: message 1 committed\n");
}

void demo_fault(am_ctx *ctx)
{
    am_ref f = AM_CREATE(ctx, AMB_DEMO_FRAGILE, 0);
    am_print(ctx, "fault: sending 0 (fails), 1\n");
    AM_SEND(ctx, f, 0);
    AM_SEND(ctx, f, 1);
}
