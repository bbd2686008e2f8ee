/*
 * demo_lazy.c — lazy initialization.
 *
 * The boot actor creates LAZY(CELL, [42]) — no cell exists yet — and sends
 * it read, write 7, read, write 8, read at once. The first message creates
 * the cell; all five are forwarded to it in order. A cell answers a write
 * with its own reference, so both writes name the target that served them:
 * the same one. State [step, lazy, answers, first writer].
 */
#include "demo.h"

void demo_lazy(am_ctx *ctx)
{
    am_word step = am_state(ctx, 0);
    am_ref lazy = am_state(ctx, 1);
    am_word i = am_state(ctx, 2);
    am_ref writer = am_state(ctx, 3);
    am_ref self = am_self(ctx);
    am_word v = am_msg(ctx, 0);

    switch (step) {
    case 0: {
        static const am_word init[1] = { 42 };
        lazy = aml_new_lazy(ctx, AMB_CELL, 1, init);
        AM_SEND(ctx, lazy, self, AML_READ);
        AM_SEND(ctx, lazy, self, AML_WRITE, 7);
        AM_SEND(ctx, lazy, self, AML_READ);
        AM_SEND(ctx, lazy, self, AML_WRITE, 8);
        AM_SEND(ctx, lazy, self, AML_READ);
        step = 1;
        break;
    }
    case 1:
        switch (i) {
        case 0: case 2: case 4:
            demo_say_u(ctx, "lazy: read -> ", v, "\n");
            break;
        case 1:
            writer = v;
            am_print(ctx, "lazy: write 7 -> ok\n");
            break;
        case 3:
            am_print(ctx, "lazy: write 8 -> ok\n");
            am_print(ctx, v == writer && v != lazy ? "lazy: one target served all\n"
                                                   : "lazy: different targets!\n");
            break;
        default:
            demo_unexpected(ctx);
        }
        i++;
        break;
    default:
        demo_unexpected(ctx);
    }
    AM_BECOME(ctx, AMB_DEMO_LAZY, step, lazy, i, writer);
}
