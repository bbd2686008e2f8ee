/* wl_fjcreate.c — Savina Fork-Join (actor creation) (bench/workloads/bench.h). */
#include "bench.h"

/* state [remaining, ledger, i] */
void amb_fj_forker(am_ctx *ctx)
{
    if (am_msg(ctx, 0) != BT_START) am_fail(ctx, BF_UNEXPECTED);
    am_word left = am_state(ctx, 0), ledger = am_state(ctx, 1), i = am_state(ctx, 2);
    am_word k = left < 4 ? left : 4;
    for (am_word j = 0; j < k; j++) {
        am_ref w = am_create(ctx, AMB_BENCH_FJ_WORKER, 0, 0);
        AM_SEND(ctx, w, BT_WORK, i + j, ledger);
    }
    left -= k;
    if (left > 0)
        AM_SEND(ctx, am_self(ctx), BT_START);
    am_set_state(ctx, 0, left);
    am_set_state(ctx, 2, i + k);
}

/* state [] */
void amb_fj_worker(am_ctx *ctx)
{
    if (am_msg(ctx, 0) != BT_WORK) am_fail(ctx, BF_UNEXPECTED);
    AM_SEND(ctx, am_msg(ctx, 2), BT_DONE, bench_fj_value(am_msg(ctx, 1)));
}
