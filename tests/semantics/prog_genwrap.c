/*
 * prog_genwrap.c -- program gen-wrap. The generation of a slot on the free
 * stack goes up by one with every CREATE that takes it, aborted ones too (an abort restores the free
 * stack, the slot keeps the generation the CREATE gave it), and wraps
 * from 65535 to 1, skipping 0 (docs/semantics.md, "Allocation").
 *
 * BOOT: creates a garbage actor G (slot 2), the handler H and the LOOP,
 *   then makes the collector run (1100 selfsends: GC_PERIOD 1024), which
 *   frees slot 2 onto the free stack.
 * LOOP [n]: creates an actor (slot 2, the next generation) and fails with
 *   its reference as the code; H gets the fault and sends LOOP [n + 1],
 *   printing the reference when its generation is at either end. When the
 *   generation has wrapped LOOP commits a create and pings it.
 * About 132,000 transactions (two for each of the 65,535 generations);
 * tests/sim/gen-wrap.expected is the output on both sides. */
#include "am.h"
#include "behaviors.h"

void prog_gw_ping(am_ctx *ctx)
{
    am_print(ctx, "gen-wrap: the actor created after the wrap got its message, self ");
    am_print_hex(ctx, am_self(ctx));
    am_print(ctx, "\n");
}

void prog_gw_loop(am_ctx *ctx)
{
    am_word n = am_msg(ctx, 0);
    if (n == 0xffffffffu) {          /* after the wrap: a create that commits */
        am_ref r = AM_CREATE(ctx, AMB_PROG_GW_PING, 0);
        AM_SEND(ctx, r, 0);
        am_print(ctx, "gen-wrap: committed create ");
        am_print_hex(ctx, r);
        am_print(ctx, "\n");
        return;
    }
    am_fail(ctx, am_create(ctx, AM_BEH_SINK, 0, 0));
}

/* H state [loop, last generation] */
void prog_gw_handler(am_ctx *ctx)
{
    am_fault_info f;
    if (!am_fault(ctx, &f)) return;
    am_ref loop = am_state(ctx, 0);
    am_word gen = f.code >> 16, last = am_state(ctx, 1);
    if (f.cause != AM_FAULT_FAIL || (f.code & 0xffff) != 2 || (last && gen != (last == 0xffff ? 1 : last + 1))) {
        am_print(ctx, "gen-wrap: UNEXPECTED ");
        am_print_hex(ctx, f.cause);
        am_print(ctx, " ");
        am_print_hex(ctx, f.code);
        am_print(ctx, "\n");
        return;
    }
    am_set_state(ctx, 1, gen);
    if (gen <= 3 || gen >= 0xfffd) {
        am_print(ctx, "gen-wrap: aborted create ");
        am_print_hex(ctx, f.code);
        am_print(ctx, "\n");
    }
    if (last > gen) {           /* wrapped */
        AM_SEND(ctx, loop, 0xffffffffu);
        return;
    }
    AM_SEND(ctx, loop, am_msg(ctx, 0) + 1);
}

/* BOOT state [h, loop]: [] start; [k] count down the selfsends */
void prog_genwrap(am_ctx *ctx)
{
    if (am_msg_len(ctx) == 0) {
        am_ref g = AM_CREATE(ctx, AM_BEH_SINK, 0);      /* slot 2: garbage at once */
        am_ref loop = AM_CREATE(ctx, AMB_PROG_GW_LOOP, 0);
        am_ref h = AM_CREATE(ctx, AMB_PROG_GW_HANDLER, loop);
        am_print(ctx, "gen-wrap: garbage ");
        am_print_hex(ctx, g);
        am_print(ctx, "\n");
        am_set_fault_handler(ctx, h);
        AM_BECOME(ctx, AMB_PROG_GENWRAP, h, loop);
        AM_SEND(ctx, am_self(ctx), 1100);
        return;
    }
    am_word k = am_msg(ctx, 0);
    if (k > 0) { AM_SEND(ctx, am_self(ctx), k - 1); return; }
    AM_SEND(ctx, am_state(ctx, 1), 0);
}
