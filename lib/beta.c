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
    if (cust != AM_NIL) {   /* [saved..., the reply...]: the reply's words forwarded */
        for (uint32_t i = 0; i < n; i++)
            am_send_word(ctx, i, am_state(ctx, 2 + i));
        am_forward(ctx, cust, n + len, -(int32_t)n);
    }
    am_become(ctx, AM_BEH_SINK, 0, 0);
}

void aml_join(am_ctx *ctx)
{
    uint32_t remaining = am_state(ctx, 2);
    am_word sum = am_state(ctx, 4) + am_msg(ctx, am_state(ctx, 3));
    if (remaining <= 1) {
        AML_REPLY(ctx, am_state(ctx, 0), am_state(ctx, 1), sum);
        am_become(ctx, AM_BEH_SINK, 0, 0);
    } else {
        am_set_state(ctx, 2, remaining - 1);
        am_set_state(ctx, 4, sum);
    }
}
