/* wl_pingpong.c — Savina PingPong (bench/bench.h). */
#include "bench.h"

/* state [pong, remaining, received] */
void amb_ping(am_ctx *ctx)
{
    am_word tag = am_msg(ctx, 0);
    am_word pong = am_state(ctx, 0), left = am_state(ctx, 1), got = am_state(ctx, 2);
    if (tag == BT_PONG) got++;
    else if (tag != BT_START) am_fail(ctx, BF_UNEXPECTED);
    if (left > 0) {
        AM_SEND(ctx, pong, BT_PING, am_self(ctx));
        left--;
    }
    AM_BECOME(ctx, AMB_BENCH_PING, pong, left, got);
}

/* state [] */
void amb_pong(am_ctx *ctx)
{
    if (am_msg(ctx, 0) != BT_PING) am_fail(ctx, BF_UNEXPECTED);
    AM_SEND(ctx, am_msg(ctx, 1), BT_PONG);
}
