/*
 * prog_dpcall.c — a behavior that *calls* the dispatch point, instead of
 * returning to it, gains nothing (docs/semantics.md, "The firmware's
 * registers and devices"). The call commits its transaction there, and the
 * next event -- the console's print, first in the queue -- runs with ra at
 * the dispatch point, not in this behavior's code (the dispatch point sets
 * it, rtl/am_soc.v), and the console's entry goes back to the dispatch
 * point by a jump of its own anyway (firmware/crt0.S, FW_ENTRY). So the
 * code after the call never runs: had it run with the console's rights,
 * its SYS.HALT store would stop the machine with code 0x77.
 *
 * DPCALL (the boot): [] print, send itself [1], call the dispatch point
 * (the RISC-V core only: on the host the C code just returns); [1] print
 * that the machine went on. Both sides commit the same transactions.
 */
#include "am.h"
#include "am_iface.h"   /* AM_DEFAULT_DISPATCH_PC, SYS_BASE */
#include "behaviors.h"

void prog_dpcall(am_ctx *ctx)
{
    if (am_msg_len(ctx) > 0) {
        am_print(ctx, "dpcall: the machine went on\n");
        return;
    }
    am_print(ctx, "dpcall: calling the dispatch point\n");
    AM_SEND(ctx, am_self(ctx), 1);
#if defined(__riscv)
    ((void (*)(void))(uintptr_t)AM_DEFAULT_DISPATCH_PC)();
    *(volatile uint32_t *)(uintptr_t)(SYS_BASE + SYS_HALT) = 0x77u;
    for (;;) { }
#endif
}
