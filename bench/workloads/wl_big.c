/* wl_big.c — Savina Big: many-to-many pings (bench/workloads/bench.h). */
#include "bench.h"

/* state [ledger, left, rng, nb0..nb4] */
void amb_big_node(am_ctx *ctx)
{
    am_word tag = am_msg(ctx, 0);
    if (tag == BT_PING) {
        AM_SEND(ctx, am_msg(ctx, 1), BT_PONG);
        return;
    }
    if (tag == BT_LINK) {
        for (uint32_t i = 0; i < BENCH_BIG_NB; i++) am_set_state(ctx, 3 + i, am_msg(ctx, 1 + i));
    } else if (tag == BT_START || tag == BT_PONG) {
        am_word left = am_state(ctx, 1);
        if (tag == BT_PONG) am_set_state(ctx, 1, --left);
        if (left > 0) {
            am_word rng = BENCH_LCG(am_state(ctx, 2));
            am_set_state(ctx, 2, rng);
            AM_SEND(ctx, am_state(ctx, 3 + (rng >> 8) % BENCH_BIG_NB), BT_PING, am_self(ctx));
        } else {
            AM_SEND(ctx, am_state(ctx, 0), BT_DONE, 1);
        }
    } else {
        am_fail(ctx, BF_UNEXPECTED);
    }
}
