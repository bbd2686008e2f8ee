/*
 * supervisor.c — a fault handler actor that retries a failed request a few
 * times and then answers the customer with an error (am_lib.h).
 *
 * Retries and interleaving. The count of retries starts again for a request
 * that differs from the last one delivered -- but only when no retry is in
 * flight. Otherwise two requests that always fail, delivered in turn (A, B,
 * A', B', ...), would each restart the other's count and be retried for
 * ever. A retry is in flight from its resend until the TICK the supervisor
 * sends itself right behind it comes back: a resend that faults is delivered
 * as the very next transaction after it, so before that TICK. While retries
 * are in flight the requests that fault share the count, and every answer
 * restores it: every fault is then answered or retried at most `retries`
 * times per answer, so the faults end.
 */
#include "am_lib.h"
#include "behaviors.h"

void aml_supervisor(am_ctx *ctx)
{
    am_word retries = am_state(ctx, 0), left = am_state(ctx, 1);
    am_word seen = am_state(ctx, 5), inflight = am_state(ctx, 6);
    am_fault_info f;
    if (!am_fault(ctx, &f)) {
        if (am_msg(ctx, 1) == AML_SUP_TICK && am_msg(ctx, 0) == am_self(ctx)) {
            if (inflight > 0) am_set_state(ctx, 6, inflight - 1);
            return;
        }
        if (am_msg(ctx, 1) != AML_READ) am_fail(ctx, AML_E_SER_OP);
        if (am_msg_len(ctx) != 2) am_fail(ctx, AML_E_SER_LEN);
        AML_REPLY(ctx, am_msg(ctx, 0), seen);
        return;
    }
    am_word w[AM_MAX_MSG_WORDS] = { 0 };
    uint32_t n = am_msg_len(ctx);
    aml_msg_copy(ctx, 0, n, w);
    int same = f.target == am_state(ctx, 2) && w[0] == am_state(ctx, 3) &&
               w[1] == am_state(ctx, 4);
    if (!same && inflight == 0) left = retries;
    if (left > 0 && f.cause != AM_FAULT_DEAD_TARGET) {
        am_send(ctx, f.target, n, w);          /* try again */
        AM_SEND(ctx, am_self(ctx), am_self(ctx), AML_SUP_TICK);
        left--;
        inflight++;
    } else {
        AML_REPLY(ctx, n ? w[0] : AM_NIL, AML_FAILED, f.cause, f.code);
        left = retries;
    }
    AM_BECOME(ctx, AMB_SUPERVISOR, retries, left, f.target, w[0], n > 1 ? w[1] : 0, seen + 1,
              inflight);
}

void aml_supervised_div(am_ctx *ctx)
{
    am_word a = am_msg(ctx, 2), b = am_msg(ctx, 3);
    if (am_msg_len(ctx) != 4 || am_msg(ctx, 1) != AML_DIV) am_fail(ctx, AML_E_DIV_ZERO + 1);
    if (b == 0) am_fail(ctx, AML_E_DIV_ZERO);
    AML_REPLY(ctx, am_msg(ctx, 0), a / b);
}
