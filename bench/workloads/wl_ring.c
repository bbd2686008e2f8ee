/* wl_ring.c — Savina ThreadRing (bench/bench.h). */
#include "bench.h"

/* state [next, index] */
void amb_ring_node(am_ctx *ctx)
{
    am_word tag = am_msg(ctx, 0);
    if (tag == BT_TOKEN) {
        am_word hops = am_msg(ctx, 1), ledger = am_msg(ctx, 2);
        if (hops == 0)
            AM_SEND(ctx, ledger, BT_DONE, am_state(ctx, 1));
        else
            AM_SEND(ctx, am_state(ctx, 0), BT_TOKEN, hops - 1, ledger);
    } else if (tag == BT_LINK) {
        AM_BECOME(ctx, AMB_BENCH_RING_NODE, am_msg(ctx, 1), am_state(ctx, 1));
    } else {
        am_fail(ctx, BF_UNEXPECTED);
    }
}
