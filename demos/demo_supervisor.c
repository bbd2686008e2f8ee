/*
 * demo_supervisor.c — faults handled by an actor: the boot actor installs a
 * SUPERVISOR (2 retries) as the fault handler and asks a divider service
 * for 10/2, 7/0 and 9/3. The division by zero faults three times (the first
 * try and two retries); then the supervisor answers for the service with
 * [FAILED, cause, code], and the customer goes on. The default handler,
 * the console, prints nothing here: the supervisor replaced it.
 */
#include "demo.h"

void demo_supervisor(am_ctx *ctx)
{
    am_word step = am_state(ctx, 0);
    am_ref div = am_state(ctx, 1), sup = am_state(ctx, 2);
    am_ref self = am_self(ctx);
    switch (step) {
    case 0:
        sup = AM_CREATE(ctx, AMB_SUPERVISOR, 2, 2);
        am_set_fault_handler(ctx, sup);
        div = am_create(ctx, AMB_SUPERVISED_DIV, 0, 0);
        AM_SEND(ctx, div, self, AML_DIV, 10, 2);
        break;
    case 1:
        demo_say_u(ctx, "supervisor: 10/2 -> ", am_msg(ctx, 0), "\n");
        AM_SEND(ctx, div, self, AML_DIV, 7, 0);
        break;
    case 2:
        if (am_msg(ctx, 0) == AML_FAILED) {
            am_print(ctx, "supervisor: 7/0 -> failed: ");
            am_print(ctx, am_msg(ctx, 1) == AM_FAULT_FAIL ? "FAIL " : "other ");
            am_print_hex(ctx, am_msg(ctx, 2));
            am_print(ctx, "\n");
        } else {
            demo_say_u(ctx, "supervisor: 7/0 -> ", am_msg(ctx, 0), " ???\n");
        }
        AM_SEND(ctx, div, self, AML_DIV, 9, 3);
        break;
    case 3:
        demo_say_u(ctx, "supervisor: 9/3 -> ", am_msg(ctx, 0), "\n");
        AM_SEND(ctx, sup, self, AML_READ);
        break;
    case 4:
        demo_say_u(ctx, "supervisor: faults handled: ", am_msg(ctx, 0), "\n");
        break;
    default:
        demo_unexpected(ctx);
    }
    AM_BECOME(ctx, AMB_DEMO_SUPERVISOR, step + 1, div, sup);
}
