/*
 * prog_stale.c — the reference an aborted CREATE returned never names a
 * later actor (docs/semantics.md, "Allocation"), though a fault record can
 * carry it out of the transaction: am_fail's code, or the value of a SEND
 * that failed.
 *
 * STALE (the boot), in steps it sends itself, one transaction each:
 *   a fault handler KEEPER and a worker;
 *   the worker creates x and fails with code x (the handler keeps x), then
 *   creates x2 and sends it one message too many (TOO_MANY_SENDS, value x2;
 *   the handler keeps that too);
 *   the worker creates two actors and keeps them (the allocator gives out
 *   the slots x and x2 took, or others);
 *   KEEPER sends to x and to x2: each send is BAD_REF, and no kept actor
 *   ever gets a message.
 */
#include "am.h"
#include "behaviors.h"

/* STALE_KEPT: an actor only the worker knows */
void prog_stale_kept(am_ctx *ctx)
{
    am_print(ctx, "stale: a kept actor got a message\n");
}

/* STALE_WORKER: [1] fail with a fresh reference as the code; [2] a send
 * too many to a fresh actor; [3] create two actors and keep them */
void prog_stale_worker(am_ctx *ctx)
{
    switch (am_msg(ctx, 0)) {
    case 1:
        am_fail(ctx, am_create(ctx, AMB_PROG_STALE_KEPT, 0, 0));
    case 2: {
        am_ref x2 = am_create(ctx, AMB_PROG_STALE_KEPT, 0, 0);
        for (int i = 0; i <= 8; i++) AM_SEND(ctx, x2, (am_word)i);
        break;
    }
    default:
        AM_BECOME(ctx, AMB_PROG_STALE_WORKER, am_create(ctx, AMB_PROG_STALE_KEPT, 0, 0),
                  am_create(ctx, AMB_PROG_STALE_KEPT, 0, 0));
        am_print(ctx, "stale: the worker keeps two actors\n");
        break;
    }
}

/* STALE_KEEPER state [x, x2]: the fault handler. A fault record: keeps
 * FAIL's code as x and TOO_MANY_SENDS' value as x2, prints any other
 * cause; [1]: sends to x; [2]: to x2 */
void prog_stale_keeper(am_ctx *ctx)
{
    am_fault_info f;
    if (am_fault(ctx, &f)) {
        if (f.cause == AM_FAULT_FAIL) am_set_state(ctx, 0, f.code);
        else if (f.cause == AM_FAULT_TOO_MANY_SENDS) am_set_state(ctx, 1, f.value);
        else {
            am_print(ctx, "stale: ");
            am_print(ctx, am_fault_name(f.cause));
            am_print(ctx, " for the reference a fault record carried\n");
        }
        return;
    }
    AM_SEND(ctx, am_state(ctx, am_msg(ctx, 0) == 1 ? 0 : 1), 666);
}

/* STALE state [keeper, worker, step] */
void prog_stale(am_ctx *ctx)
{
    if (am_msg_len(ctx) == 0) {
        am_ref k = AM_CREATE(ctx, AMB_PROG_STALE_KEEPER, 0, 0);
        am_set_fault_handler(ctx, k);
        AM_BECOME(ctx, AMB_PROG_STALE, k, am_create(ctx, AMB_PROG_STALE_WORKER, 0, 0), 1);
        AM_SEND(ctx, am_self(ctx), 0);
        return;
    }
    am_word step = am_state(ctx, 2);
    if (step <= 3) AM_SEND(ctx, am_state(ctx, 1), step);
    else if (step <= 5) AM_SEND(ctx, am_state(ctx, 0), step - 3);
    else return;
    am_set_state(ctx, 2, step + 1);
    AM_SEND(ctx, am_self(ctx), 0);
}
