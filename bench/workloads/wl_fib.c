/* wl_fib.c — Savina Fibonacci, one actor per call (bench/workloads/bench.h). */
#include "bench.h"

/* state [] */
void amb_fib(am_ctx *ctx)
{
    if (am_msg(ctx, 0) != BT_REQ) am_fail(ctx, BF_UNEXPECTED);
    am_word n = am_msg(ctx, 1), parent = am_msg(ctx, 2);
    if (n < 2) {
        AM_SEND(ctx, parent, BT_DONE, n);
        return;
    }
    am_ref self = am_self(ctx);
    am_ref a = am_create(ctx, AMB_BENCH_FIB, 0, 0);
    am_ref b = am_create(ctx, AMB_BENCH_FIB, 0, 0);
    AM_SEND(ctx, a, BT_REQ, n - 1, self);
    AM_SEND(ctx, b, BT_REQ, n - 2, self);
    AM_BECOME(ctx, AMB_BENCH_FIB_JOIN, parent, 0, 0);
}

/* state [parent, got, sum] */
void amb_fib_join(am_ctx *ctx)
{
    if (am_msg(ctx, 0) != BT_DONE) am_fail(ctx, BF_UNEXPECTED);
    am_word parent = am_state(ctx, 0), sum = am_state(ctx, 2) + am_msg(ctx, 1);
    if (am_state(ctx, 1) == 0) {
        am_set_state(ctx, 1, 1);
        am_set_state(ctx, 2, sum);
    } else {
        AM_SEND(ctx, parent, BT_DONE, sum);
    }
}
