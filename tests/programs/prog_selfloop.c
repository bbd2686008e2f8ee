/*
 * prog_selfloop.c — the minimal dispatch: a behavior that sends one message
 * to itself. [n] -> sends [n-1] to self while n > 0. Boot sends [1000].
 * Cycles per dispatch of this program are the machine's headline figure.
 */
#include "am.h"
#include "behaviors.h"

#define SELFLOOP_N 1000u

void prog_selfloop_step(am_ctx *ctx)
{
    am_word n = am_msg(ctx, 0);
    if (n) AM_SEND(ctx, am_self(ctx), n - 1);
}

void prog_selfloop(am_ctx *ctx)
{
    am_ref a = am_create(ctx, AMB_PROG_SELFLOOP_STEP, 0, 0);
    AM_SEND(ctx, a, SELFLOOP_N);
}
