/* wl_big.c — Savina Big: many-to-many pings (bench/bench.h). */
#include "bench.h"

/* state [ledger, left, rng, nb0..nb4] */
void amb_big_node(am_ctx *ctx)
{
    am_word tag = am_msg(ctx, 0);
    if (tag == BT_PING) {
        AM_SEND(ctx, am_msg(ctx, 1), BT_PONG);
        return;
    }
    am_word s[AM_MAX_STATE_WORDS];
    for (uint32_t i = 0; i < AM_MAX_STATE_WORDS; i++) s[i] = am_state(ctx, i);
    if (tag == BT_LINK) {
        for (uint32_t i = 0; i < BENCH_BIG_NB; i++) s[3 + i] = am_msg(ctx, 1 + i);
    } else if (tag == BT_START || tag == BT_PONG) {
        if (tag == BT_PONG) s[1]--;
        if (s[1] > 0) {
            s[2] = BENCH_LCG(s[2]);
            AM_SEND(ctx, s[3 + (s[2] >> 8) % BENCH_BIG_NB], BT_PING, am_self(ctx));
        } else {
            AM_SEND(ctx, s[0], BT_DONE, 1);
        }
    } else {
        am_fail(ctx, BF_UNEXPECTED);
    }
    am_become(ctx, AMB_BENCH_BIG_NODE, AM_MAX_STATE_WORDS, s);
}
