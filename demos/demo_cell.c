/*
 * demo_cell.c — the storage cell: write, read, CAS that swaps, CAS that
 * does not, read. The boot actor is the customer of every request and
 * steps through the script with BECOME (state [step, cell]).
 */
#include "demo.h"

void demo_cell(am_ctx *ctx)
{
    am_word step = am_state(ctx, 0);
    am_ref cell = am_state(ctx, 1);
    am_ref self = am_self(ctx);
    am_word v = am_msg(ctx, 0);

    switch (step) {
    case 0:
        cell = AM_CREATE(ctx, AMB_CELL, 0);
        AM_SEND(ctx, cell, self, AML_WRITE, 5);
        break;
    case 1:  /* the write's sync signal is the cell itself */
        am_print(ctx, v == cell ? "cell: write 5 -> ok\n" : "cell: write 5 -> ???\n");
        AM_SEND(ctx, cell, self, AML_READ);
        break;
    case 2:
        demo_say_u(ctx, "cell: read -> ", v, "\n");
        AM_SEND(ctx, cell, self, AML_CAS, 5, 7);
        break;
    case 3:
        demo_say_u(ctx, "cell: cas 5->7 -> old ", v, v == 5 ? " (swapped)\n" : " (kept)\n");
        AM_SEND(ctx, cell, self, AML_CAS, 5, 9);
        break;
    case 4:
        demo_say_u(ctx, "cell: cas 5->9 -> old ", v, v == 5 ? " (swapped)\n" : " (kept)\n");
        AM_SEND(ctx, cell, self, AML_READ);
        break;
    case 5:
        demo_say_u(ctx, "cell: read -> ", v, "\n");
        break;
    default:
        demo_unexpected(ctx);
    }
    AM_BECOME(ctx, AMB_DEMO_CELL, step + 1, cell);
}
