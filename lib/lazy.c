/*
 * lazy.c — lazy initialization: an actor that creates its real target on
 * the first message and forwards every message to it, in order.
 *
 * (The seeds' variant BECOMEs the target and re-sends the first message to
 * itself; that re-send goes behind any message already queued for the
 * actor, so it can reorder the first request. LAZY forwards instead; the
 * library's lazy constructors COUNTER_INIT and QUEUE become a serializer
 * and handle the first message in place, which keeps order too.)
 */
#include "am_lib.h"

void aml_lazy(am_ctx *ctx)
{
    am_beh beh = am_state(ctx, 0);
    uint32_t n = am_state(ctx, 1);
    if (n > 6)
        am_fail(ctx, AML_E_LAZY_LEN);
    am_word st[6];
    for (uint32_t i = 0; i < n; i++)
        st[i] = am_state(ctx, 2 + i);
    am_ref target = am_create(ctx, beh, n, st);
    AM_BECOME(ctx, AMB_LAZY_FWD, target);
    am_word m[AM_MAX_MSG_WORDS];
    uint32_t len = am_msg_len(ctx);
    aml_msg_copy(ctx, 0, len, m);
    am_send(ctx, target, len, m);
}

void aml_lazy_fwd(am_ctx *ctx)
{
    am_word m[AM_MAX_MSG_WORDS];
    uint32_t len = am_msg_len(ctx);
    aml_msg_copy(ctx, 0, len, m);
    am_send(ctx, am_state(ctx, 0), len, m);
}
