/* wl_ring.c — Savina ThreadRing (bench/workloads/bench.h). */
#include "bench.h"

/* state [next, index] */
void amb_ring_node(am_ctx *ctx)
{
    am_word tag = am_msg(ctx, 0);
    if (tag == BT_TOKEN) {
        am_word hops = am_msg(ctx, 1);
        if (hops == 0) {
            AM_SEND(ctx, am_msg(ctx, 2), BT_DONE, am_state(ctx, 1));
        } else {   /* the token on, its hop count one less */
            am_send_word(ctx, 1, hops - 1);
            am_forward(ctx, am_state(ctx, 0), 3, 0);
        }
    } else if (tag == BT_LINK) {
        am_set_state(ctx, 0, am_msg(ctx, 1));
    } else {
        am_fail(ctx, BF_UNEXPECTED);
    }
}
