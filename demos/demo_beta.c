/*
 * demo_beta.c — BETA continuations and a fork-join.
 *
 * Two cells hold 5 and 7. One BETA continuation, saving the context word
 * 100, is the customer of a READ to each cell: it fires once, on the first
 * answer, and sends [tag, 100, 5] to the boot actor; the second answer
 * reaches a sink. A JOIN is the customer of two more READs and sends
 * [tag, 12] when both are in. State [answers].
 */
#include "demo.h"

#define TAG_BETA 1u
#define TAG_JOIN 2u

void demo_beta(am_ctx *ctx)
{
    am_word answers = am_state(ctx, 0);
    am_ref self = am_self(ctx);

    if (am_msg_len(ctx) == 0 && answers == 0) {  /* boot */
        am_ref a = AM_CREATE(ctx, AMB_CELL, 5);
        am_ref b = AM_CREATE(ctx, AMB_CELL, 7);
        static const am_word saved[2] = { TAG_BETA, 100 };
        am_ref k = aml_new_beta(ctx, self, 2, saved);
        am_ref j = aml_new_join(ctx, self, TAG_JOIN, 2, 0);
        AM_SEND(ctx, a, k, AML_READ);
        AM_SEND(ctx, b, k, AML_READ);  /* too late: k is one-shot */
        AM_SEND(ctx, a, j, AML_READ);
        AM_SEND(ctx, b, j, AML_READ);
        AM_BECOME(ctx, AMB_DEMO_BETA, 1);
        return;
    }
    switch (am_msg(ctx, 0)) {
    case TAG_BETA:  /* [TAG_BETA, saved 100, reply] */
        demo_say_u(ctx, "beta: continuation saved ", am_msg(ctx, 1), ", got ");
        am_print_uint(ctx, am_msg(ctx, 2));
        am_print(ctx, "\n");
        break;
    case TAG_JOIN:  /* [TAG_JOIN, sum] */
        demo_say_u(ctx, "beta: join of 2 reads, sum ", am_msg(ctx, 1), "\n");
        break;
    default:
        demo_unexpected(ctx);
    }
    AM_BECOME(ctx, AMB_DEMO_BETA, answers + 1);
}
