/*
 * queue.c — a FIFO queue built from actors (seed 000, "Implementing
 * Queues"): every item lives in its own QUEUE_ENTRY actor; the queue actor
 * holds the first and last entries and moves through the states
 *
 *   empty --PUT--> non-empty (READY) --TAKE--> waiting-for-first --> empty
 *                    |  ^                                        \-> READY
 *                    PUT \-- waiting-for-last <--/
 *
 * The waiting states exist because removing/appending needs a round trip to
 * an entry actor; a request arriving meanwhile would be wrong, so the
 * service is only used behind a serializer: QUEUE, the public entry point,
 * is a lazy constructor that creates QUEUE_EMPTY and becomes its
 * serializer. Formats: lib/am_lib.h.
 */
#include "am_lib.h"

/* Validate a request to the queue service; returns the op. */
static am_word q_request(am_ctx *ctx)
{
    uint32_t len = am_msg_len(ctx);
    if (len < 2)
        am_fail(ctx, AML_E_QUEUE_LEN);
    am_word op = am_msg(ctx, 1);
    if (op == AML_PUT) {
        if (len != 3) am_fail(ctx, AML_E_QUEUE_LEN);
    } else if (op == AML_TAKE) {
        if (len != 2) am_fail(ctx, AML_E_QUEUE_LEN);
    } else {
        am_fail(ctx, AML_E_QUEUE_OP);
    }
    return op;
}

void aml_queue(am_ctx *ctx)
{
    am_ref svc = am_create(ctx, AMB_QUEUE_EMPTY, 0, 0);
    aml_serializer_request(ctx, svc);
}

void aml_queue_empty(am_ctx *ctx)
{
    am_ref cust = am_msg(ctx, 0);
    if (q_request(ctx) == AML_TAKE) {
        AML_REPLY(ctx, cust, AML_EMPTY, 0);
    } else {
        am_word item = am_msg(ctx, 2);
        am_ref e = AM_CREATE(ctx, AMB_QUEUE_ENTRY, item, AM_NIL);
        AM_BECOME(ctx, AMB_QUEUE_READY, e, e);
        AML_REPLY(ctx, cust, AML_OK, item);
    }
}

void aml_queue_ready(am_ctx *ctx)
{
    am_ref cust = am_msg(ctx, 0);
    am_ref first = am_state(ctx, 0), last = am_state(ctx, 1);
    if (q_request(ctx) == AML_TAKE) {
        AM_BECOME(ctx, AMB_QUEUE_WAIT_FIRST, cust, first, last);
        AM_SEND(ctx, first, am_self(ctx), AML_Q_REMOVE);
    } else {
        AM_BECOME(ctx, AMB_QUEUE_WAIT_LAST, cust, first, last);
        AM_SEND(ctx, last, am_self(ctx), AML_Q_APPEND, am_msg(ctx, 2));
    }
}

void aml_queue_wait_first(am_ctx *ctx)
{
    am_ref cust = am_state(ctx, 0);
    am_ref first = am_state(ctx, 1), last = am_state(ctx, 2);
    if (am_msg_len(ctx) != 3 || am_msg(ctx, 0) != first)
        am_fail(ctx, AML_E_QUEUE_BUSY);
    am_word item = am_msg(ctx, 1);
    am_ref next = am_msg(ctx, 2);
    if (next == AM_NIL)
        am_become(ctx, AMB_QUEUE_EMPTY, 0, 0);
    else
        AM_BECOME(ctx, AMB_QUEUE_READY, next, last);
    AML_REPLY(ctx, cust, AML_OK, item);
}

void aml_queue_wait_last(am_ctx *ctx)
{
    am_ref cust = am_state(ctx, 0);
    am_ref first = am_state(ctx, 1), last = am_state(ctx, 2);
    if (am_msg_len(ctx) != 3 || am_msg(ctx, 0) != last)
        am_fail(ctx, AML_E_QUEUE_BUSY);
    AM_BECOME(ctx, AMB_QUEUE_READY, first, am_msg(ctx, 2));
    AML_REPLY(ctx, cust, AML_OK, am_msg(ctx, 1));
}

void aml_queue_entry(am_ctx *ctx)
{
    uint32_t len = am_msg_len(ctx);
    if (len < 2)
        am_fail(ctx, AML_E_QUEUE_LEN);
    am_ref cust = am_msg(ctx, 0);
    am_word item = am_state(ctx, 0);
    am_ref next = am_state(ctx, 1);
    switch (am_msg(ctx, 1)) {
    case AML_Q_REMOVE:
        if (len != 2) am_fail(ctx, AML_E_QUEUE_LEN);
        AM_SEND(ctx, cust, am_self(ctx), item, next);
        am_become(ctx, AM_BEH_SINK, 0, 0);
        break;
    case AML_Q_APPEND: {
        if (len != 3) am_fail(ctx, AML_E_QUEUE_LEN);
        am_word item2 = am_msg(ctx, 2);
        am_ref e = AM_CREATE(ctx, AMB_QUEUE_ENTRY, item2, next);
        AM_BECOME(ctx, AMB_QUEUE_ENTRY, item, e);
        AM_SEND(ctx, cust, am_self(ctx), item2, e);
        break;
    }
    default:
        am_fail(ctx, AML_E_QUEUE_OP);
    }
}
