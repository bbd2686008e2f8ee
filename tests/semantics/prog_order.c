/*
 * prog_order.c -- several checks of one operation fail at once: the order of
 * docs/semantics.md ("One transaction per dispatch") decides the cause, and
 * the record's op and value ("Fault records"): CREATE of an unknown behavior
 * with 9 words, a 5th CREATE with 9 words or an unknown behavior, a 9th SEND
 * with 9 words or to a forged reference, a SEND of 9 words to a forged one,
 * a BECOME of an unknown behavior with 9 words; indexes of am_set_state /
 * am_send_word past what the address holds (saturated at 15, also for
 * 0xffffffff); a behavior id whose low byte is valid (0x103); a handler with
 * generation bits whose slot is in the table (accepted, then dropped by the
 * abort) and one outside it; a SEND of 0x80000001 words. The console prints
 * each record; tests/sim/check-order.expected is the output on both sides.
 *
 * PROG_ORDER: [step] script; PROG_ORDER_VICTIM: [op].
 */
#include "am.h"
#include "behaviors.h"

#define BIG_BEH 0x1000u      /* outside the table */
#define LOWBYTE_BEH 0x103u   /* its low byte is a valid id */
#define FORGED 0x12345678u

enum { OP_NONE, CRE_BADBEH_LONG, CRE5_LONG, CRE5_BADBEH, SEND9_LONG, SEND9_FORGED,
       SEND_LONG_FORGED, BEC_BADBEH_LONG, SETST_100, SETST_MAX, SENDWORD_MAX,
       FWD9_LONG, CRE_LOWBYTE, BEC_LOWBYTE, CRE_N16, HANDLER_GENBITS_FAIL,
       HANDLER_SLOT128, SEND_N_HUGE, OP_COUNT };

void prog_order_victim(am_ctx *ctx)
{
    static const am_word nine[16] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };   /* read only */
    am_ref me = am_self(ctx);
    switch (am_msg(ctx, 0)) {
    case CRE_BADBEH_LONG: am_create(ctx, BIG_BEH, 9, nine); break;
    case CRE5_LONG:
        for (int i = 0; i < 4; i++) AM_CREATE(ctx, AM_BEH_SINK, 0);
        am_create(ctx, AM_BEH_SINK, 9, nine); break;
    case CRE5_BADBEH:
        for (int i = 0; i < 4; i++) AM_CREATE(ctx, AM_BEH_SINK, 0);
        am_create(ctx, BIG_BEH, 1, nine); break;
    case SEND9_LONG:
        for (int i = 0; i < 8; i++) AM_SEND(ctx, me, 0);
        am_send(ctx, me, 9, nine); break;
    case SEND9_FORGED:
        for (int i = 0; i < 8; i++) AM_SEND(ctx, me, 0);
        AM_SEND(ctx, FORGED, 1); break;
    case SEND_LONG_FORGED: am_send(ctx, FORGED, 9, nine); break;
    case BEC_BADBEH_LONG: am_become(ctx, BIG_BEH, 9, nine); break;
    case SETST_100: am_set_state(ctx, 100, 1); break;
    case SETST_MAX: am_set_state(ctx, 0xffffffffu, 1); break;
    case SENDWORD_MAX: am_send_word(ctx, 0xffffffffu, 1); break;
    case FWD9_LONG:
        for (int i = 0; i < 8; i++) am_forward(ctx, me, 1, 0);
        am_forward(ctx, me, 9, 0); break;
    case CRE_LOWBYTE: am_create(ctx, LOWBYTE_BEH, 0, 0); break;
    case BEC_LOWBYTE: am_become(ctx, LOWBYTE_BEH, 0, 0); break;
    case CRE_N16: am_create(ctx, AM_BEH_SINK, 16, nine); break;
    case HANDLER_GENBITS_FAIL:      /* accepted (slot 5 is in the table), then the abort drops it */
        am_set_fault_handler(ctx, 0x12340005u);
        am_fail(ctx, 0x77u);
    case HANDLER_SLOT128: am_set_fault_handler(ctx, 0x00010080u); break;
    case SEND_N_HUGE: am_send(ctx, me, 0x80000001u, nine); break;
    default: return;
    }
}

void prog_order(am_ctx *ctx)
{
    am_word step = am_state(ctx, 0);
    am_ref victim = am_state(ctx, 1);
    if (step == 0) victim = AM_CREATE(ctx, AMB_PROG_ORDER_VICTIM, 0);
    if (step + 1 == OP_COUNT) { am_print(ctx, "check-order: done\n"); return; }
    AM_SEND(ctx, victim, step + 1);    /* its fault line names the op: msg=[op] */
    AM_SEND(ctx, am_self(ctx), 0);
    AM_BECOME(ctx, AMB_PROG_ORDER, step + 1, victim);
}
