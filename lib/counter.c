/*
 * counter.c — the counter service of seed 002, built on a cell.
 *
 * COUNTER does a non-atomic read-modify-write: ADD sends READ to the cell
 * with a fresh continuation K_COUNT as customer; K_COUNT adds and sends
 * WRITE; K_SYNC waits for the cell's sync and answers. Nothing stops a
 * second ADD from reading the cell before the first one has written it, so
 * concurrent ADDs lose updates (1, 10, 100 -> 100 on the FIFO machine).
 * Wrapped in a serializer (COUNTER_INIT, or SERIALIZER(COUNTER)) the same
 * service is correct (-> 111). Formats: lib/am_lib.h.
 */
#include "am_lib.h"

void aml_counter(am_ctx *ctx)
{
    uint32_t len = am_msg_len(ctx);
    if (len < 2)
        am_fail(ctx, AML_E_COUNTER_LEN);
    am_ref cust = am_msg(ctx, 0);
    am_ref cell = am_state(ctx, 0);
    switch (am_msg(ctx, 1)) {
    case AML_ADD: {
        if (len != 3) am_fail(ctx, AML_E_COUNTER_LEN);
        am_ref k = AM_CREATE(ctx, AMB_COUNTER_K_COUNT, cust, cell, am_msg(ctx, 2));
        AM_SEND(ctx, cell, k, AML_READ);
        break;
    }
    case AML_READ:
        if (len != 2) am_fail(ctx, AML_E_COUNTER_LEN);
        AM_SEND(ctx, cell, cust, AML_READ);
        break;
    default:
        am_fail(ctx, AML_E_COUNTER_OP);
    }
}

void aml_counter_k_count(am_ctx *ctx)
{
    if (am_msg_len(ctx) != 1)
        am_fail(ctx, AML_E_COUNTER_UNEXPECTED);
    am_ref cust = am_state(ctx, 0), cell = am_state(ctx, 1);
    am_word count = am_msg(ctx, 0) + am_state(ctx, 2); /* mod 2^32 */
    AM_BECOME(ctx, AMB_COUNTER_K_SYNC, cust, cell, count);
    AM_SEND(ctx, cell, am_self(ctx), AML_WRITE, count);
}

void aml_counter_k_sync(am_ctx *ctx)
{
    am_ref cust = am_state(ctx, 0), cell = am_state(ctx, 1);
    if (am_msg_len(ctx) != 1 || am_msg(ctx, 0) != cell)
        am_fail(ctx, AML_E_COUNTER_UNEXPECTED);
    AML_REPLY(ctx, cust, am_state(ctx, 2));
    am_become(ctx, AM_BEH_SINK, 0, 0);
}

void aml_counter_init(am_ctx *ctx)
{
    am_ref cell = AM_CREATE(ctx, AMB_CELL, am_state(ctx, 0));
    am_ref svc = AM_CREATE(ctx, AMB_COUNTER, cell);
    aml_serializer_request(ctx, svc);
}
