/* wl_counting.c — Savina Counting (bench/workloads/bench.h). */
#include "bench.h"

/* state [count] */
void amb_counter(am_ctx *ctx)
{
    am_word tag = am_msg(ctx, 0);
    if (tag == BT_INC)
        am_set_state(ctx, 0, am_state(ctx, 0) + 1);
    else if (tag == BT_GET)
        AM_SEND(ctx, am_msg(ctx, 1), BT_DONE, am_state(ctx, 0));
    else
        am_fail(ctx, BF_UNEXPECTED);
}

/* state [counter, remaining, ledger] */
void amb_producer(am_ctx *ctx)
{
    if (am_msg(ctx, 0) != BT_START) am_fail(ctx, BF_UNEXPECTED);
    am_word counter = am_state(ctx, 0), left = am_state(ctx, 1);
    am_word k = left < 7 ? left : 7;
    for (am_word i = 0; i < k; i++)
        AM_SEND(ctx, counter, BT_INC);
    left -= k;
    if (left > 0)
        AM_SEND(ctx, am_self(ctx), BT_START);
    else
        AM_SEND(ctx, counter, BT_GET, am_state(ctx, 2));
    am_set_state(ctx, 1, left);
}
