/* wl_pingpong.c — Savina PingPong (bench/workloads/bench.h). */
#include "bench.h"

/* state [pong, remaining, received] */
void amb_ping(am_ctx *ctx)
{
    am_word tag = am_msg(ctx, 0), left = am_state(ctx, 1);
    if (tag == BT_PONG) am_set_state(ctx, 2, am_state(ctx, 2) + 1);
    else if (tag != BT_START) am_fail(ctx, BF_UNEXPECTED);
    if (left > 0) {
        AM_SEND(ctx, am_state(ctx, 0), BT_PING, am_self(ctx));
        am_set_state(ctx, 1, left - 1);
    }
}

/* state [] */
void amb_pong(am_ctx *ctx)
{
    if (am_msg(ctx, 0) != BT_PING) am_fail(ctx, BF_UNEXPECTED);
    AM_SEND(ctx, am_msg(ctx, 1), BT_PONG);
}
