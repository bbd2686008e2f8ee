/*
 * demo_serializer.c — what a serializer buys.
 *
 * SLOW_ECHO answers [value] after `hops` self-sends, so a request with fewer
 * hops overtakes an earlier one. Requests (1, 4 hops), (2, 2 hops) and
 * (3, 0 hops) sent straight to the service come back 3, 2, 1; the same
 * requests sent to a SERIALIZER in front of it come back 1, 2, 3 — one
 * request at a time, first come first served, each through a fresh return
 * proxy. State [step, echo, ser, answers, in_order].
 */
#include "demo.h"

static void send_requests(am_ctx *ctx, am_ref to)
{
    AM_SEND(ctx, to, am_self(ctx), AML_ECHO, 1, 4);
    AM_SEND(ctx, to, am_self(ctx), AML_ECHO, 2, 2);
    AM_SEND(ctx, to, am_self(ctx), AML_ECHO, 3, 0);
}

void demo_serializer(am_ctx *ctx)
{
    am_word step = am_state(ctx, 0);
    am_ref echo = am_state(ctx, 1), ser = am_state(ctx, 2);
    am_word answers = am_state(ctx, 3), in_order = am_state(ctx, 4);
    am_word v = am_msg(ctx, 0);

    switch (step) {
    case 0:
        echo = am_create(ctx, AMB_SLOW_ECHO, 0, 0);
        ser = AM_CREATE(ctx, AMB_SERIALIZER, echo);
        send_requests(ctx, echo);
        step = 1;
        break;
    case 1:  /* answers straight from the service */
        demo_say_u(ctx, "serializer: direct -> ", v, "\n");
        if (++answers == 3) {
            send_requests(ctx, ser);
            answers = 0;
            in_order = 1;
            step = 2;
        }
        break;
    case 2:  /* answers through the serializer */
        demo_say_u(ctx, "serializer: serialized -> ", v, "\n");
        if (v != answers + 1)
            in_order = 0;
        if (++answers == 3) {
            am_print(ctx, in_order ? "serializer: answers in request order\n"
                                   : "serializer: answers out of order\n");
            step = 3;
        }
        break;
    default:
        demo_unexpected(ctx);
    }
    AM_BECOME(ctx, AMB_DEMO_SERIALIZER, step, echo, ser, answers, in_order);
}
