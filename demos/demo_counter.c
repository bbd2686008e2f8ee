/*
 * demo_counter.c — seed 002's counter service, unsafe and serialized.
 *
 * Both demos send ADD 1, ADD 10 and ADD 100 at once, each with its own BETA
 * continuation that returns [amount, new count] to the boot actor; when the
 * three answers are in, the boot actor reads the final count.
 *   counter-unsafe:     COUNTER(cell) directly. All three READs reach the
 *                       cell before any WRITE: the final count is 100.
 *   counter-serialized: SERIALIZER(COUNTER(cell)): one ADD at a time: 111.
 * State [step, counter, answers, serialized].
 */
#include "demo.h"

static void counter_demo(am_ctx *ctx, am_word serialized)
{
    am_word step = am_state(ctx, 0);
    am_ref counter = am_state(ctx, 1);
    am_word answers = am_state(ctx, 2);
    am_ref self = am_self(ctx);
    const char *name = serialized ? "counter-serialized: " : "counter-unsafe: ";
    am_beh me = serialized ? AMB_DEMO_COUNTER_SERIALIZED : AMB_DEMO_COUNTER_UNSAFE;

    switch (step) {
    case 0: {  /* build the service, then continue in a new transaction */
        am_ref cell = AM_CREATE(ctx, AMB_CELL, 0);
        counter = AM_CREATE(ctx, AMB_COUNTER, cell);
        if (serialized)
            counter = AM_CREATE(ctx, AMB_SERIALIZER, counter);
        am_send(ctx, self, 0, 0);
        step = 1;
        break;
    }
    case 1: {  /* three concurrent requests, one continuation each */
        static const am_word amounts[3] = { 1, 10, 100 };
        for (uint32_t i = 0; i < 3; i++) {
            am_ref k = aml_new_beta(ctx, self, 1, &amounts[i]);
            AM_SEND(ctx, counter, k, AML_ADD, amounts[i]);
        }
        step = 2;
        break;
    }
    case 2:  /* [amount, new count] from a continuation */
        am_print(ctx, name);
        demo_say_u(ctx, "add ", am_msg(ctx, 0), " -> ");
        am_print_uint(ctx, am_msg(ctx, 1));
        am_print(ctx, "\n");
        if (++answers == 3) {
            AM_SEND(ctx, counter, self, AML_READ);
            step = 3;
        }
        break;
    case 3: {  /* [final count] */
        am_word v = am_msg(ctx, 0);
        am_print(ctx, name);
        demo_say_u(ctx, "final ", v, v == 111 ? ", no lost update\n"
                                              : ", lost update (expected 111)\n");
        step = 4;
        break;
    }
    default:
        demo_unexpected(ctx);
    }
    AM_BECOME(ctx, me, step, counter, answers);
}

void demo_counter_unsafe(am_ctx *ctx) { counter_demo(ctx, 0); }
void demo_counter_serialized(am_ctx *ctx) { counter_demo(ctx, 1); }
