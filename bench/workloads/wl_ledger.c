/* wl_ledger.c — LEDGER: collects [DONE, v] results (bench/workloads/bench.h). */
#include "bench.h"

void amb_ledger(am_ctx *ctx)
{
    if (am_msg(ctx, 0) != BT_DONE || am_msg_len(ctx) != 2) am_fail(ctx, BF_UNEXPECTED);
    am_word v = am_msg(ctx, 1);
    AM_BECOME(ctx, AMB_BENCH_LEDGER, am_state(ctx, 0) + 1, am_state(ctx, 1) + v, v);
}
