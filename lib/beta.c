/*
 * beta.c — BETA continuation actors (Lisp-Actors, seed 003) and JOIN.
 *
 * A BETA is the anonymous one-shot customer of a request: it holds the
 * context words the requester wants back and, on the reply, sends
 * [saved..., reply...] to the saved customer, then becomes the sink.
 * A JOIN is the fork-join counterpart: it waits for N replies and sends one
 * [tag, sum] message. See lib/am_lib.h for the exact formats.
 */
#include "am_lib.h"

void aml_beta(am_ctx *ctx)
{
    am_ref cust = am_state(ctx, 0);
    uint32_t n = am_state(ctx, 1);
    uint32_t len = am_msg_len(ctx);
    if (n > 6 || n + len > AM_MAX_MSG_WORDS)
        am_fail(ctx, AML_E_BETA_LEN);
    am_word out[AM_MAX_MSG_WORDS];
    for (uint32_t i = 0; i < n; i++)
        out[i] = am_state(ctx, 2 + i);
    aml_msg_copy(ctx, 0, len, out + n);
    aml_reply(ctx, cust, n + len, out);
    am_become(ctx, AM_BEH_SINK, 0, 0);
}

void aml_join(am_ctx *ctx)
{
    am_ref cust = am_state(ctx, 0);
    am_word tag = am_state(ctx, 1);
    uint32_t remaining = am_state(ctx, 2);
    uint32_t index = am_state(ctx, 3);
    am_word sum = am_state(ctx, 4) + am_msg(ctx, index);
    if (remaining <= 1) {
        AML_REPLY(ctx, cust, tag, sum);
        am_become(ctx, AM_BEH_SINK, 0, 0);
    } else {
        AM_BECOME(ctx, AMB_JOIN, cust, tag, remaining - 1, index, sum);
    }
}
