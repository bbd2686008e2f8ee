/*
 * demo_queue.c — the queue built from actors (seed 000), used concurrently.
 *
 * Seven requests are sent in one transaction to a fresh QUEUE (a lazy
 * constructor that becomes a serializer around the actor queue service):
 * put 10, put 20, take, put 30, take, take, take. The serializer hands
 * them to the service one at a time in this order, so the answers come
 * back in this order too and the boot actor can match each answer with its
 * request: the takes give 10, 20, 30 and the last one finds the queue
 * empty. State [step, queue, answers].
 */
#include "demo.h"

#define NREQ 7u
static const am_word q_op[NREQ]   = { AML_PUT, AML_PUT, AML_TAKE, AML_PUT, AML_TAKE, AML_TAKE, AML_TAKE };
static const am_word q_item[NREQ] = { 10, 20, 0, 30, 0, 0, 0 };

void demo_queue(am_ctx *ctx)
{
    am_word step = am_state(ctx, 0);
    am_ref q = am_state(ctx, 1);
    am_word i = am_state(ctx, 2);

    switch (step) {
    case 0:
        q = am_create(ctx, AMB_QUEUE, 0, 0);
        for (uint32_t k = 0; k < NREQ; k++) {
            if (q_op[k] == AML_PUT)
                AM_SEND(ctx, q, am_self(ctx), AML_PUT, q_item[k]);
            else
                AM_SEND(ctx, q, am_self(ctx), AML_TAKE);
        }
        step = 1;
        break;
    case 1: {  /* [status, item], in request order */
        if (i >= NREQ)
            demo_unexpected(ctx);
        am_word status = am_msg(ctx, 0), item = am_msg(ctx, 1);
        if (q_op[i] == AML_PUT)
            demo_say_u(ctx, "queue: put ", q_item[i], status == AML_OK ? " -> ok\n" : " -> error\n");
        else if (status == AML_EMPTY)
            am_print(ctx, "queue: take -> empty\n");
        else
            demo_say_u(ctx, "queue: take -> ", item, "\n");
        i++;
        break;
    }
    default:
        demo_unexpected(ctx);
    }
    AM_BECOME(ctx, AMB_DEMO_QUEUE, step, q, i);
}
