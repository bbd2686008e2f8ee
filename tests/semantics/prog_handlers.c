/*
 * prog_handlers.c -- the fault handler's rules in lockstep (docs/semantics.md,
 * "Fault delivery"; docs/faults.md): two SET_HANDLERs in one transaction, the
 * last wins; an actor created in the same transaction can be the handler;
 * a delivery that fails is recorded, not delivered again; am_fault is 0 in
 * an ordinary transaction (and leaves *info alone); the handler's own failure
 * on an ordinary message is delivered to it; a handler whose slot is in the
 * table but not live: each delivery aborts with DEAD_TARGET, not delivered;
 * a SET_HANDLER staged by a transaction that aborts is not installed; AM_NIL:
 * records only; a failed export-shaped message delivered to the console
 * prints its fault line and exports nothing; the failing actor as its own
 * handler. A handler's line is [cause code target beh op value len msg0]
 * (beh: 76 the victim, 68 a handler). tests/sim/handlers.expected is the
 * output on both sides.
 */
#include "am.h"
#include "behaviors.h"
#include "sem_print.h"

static void show_fault(am_ctx *ctx, am_word tag, const am_fault_info *f)
{
    am_word beh = f->beh == AMB_PROG_HD_VICTIM ? 0x76u : f->beh == AMB_PROG_HD_HANDLER ? 0x68u : f->beh;
    am_word w[8] = { f->cause, f->code, f->target, beh, f->op, f->value, am_msg_len(ctx), am_msg(ctx, 0) };
    sem_hexline(ctx, tag, 8, w);
}

/* HANDLER state [tag]: a delivery prints its record (and fails when the
 * message's word 0 is 0xf01); a plain message prints am_fault's answer
 * (and fails when word 0 is 0xf00) */
void prog_hd_handler(am_ctx *ctx)
{
    am_fault_info f = { 0xee, 0xee, 0xee, 0xee, 0xee, 0xee };
    am_word tag = am_state(ctx, 0);
    if (am_fault(ctx, &f)) {
        show_fault(ctx, tag, &f);
        if (am_msg(ctx, 0) == 0xf01) am_fail(ctx, 0x405);
        return;
    }
    am_word w[3] = { 0x504c41u /* plain */, f.cause, am_msg(ctx, 0) };
    sem_hexline(ctx, tag, 3, w);
    if (am_msg(ctx, 0) == 0xf00) am_fail(ctx, 0x404);
}

/* VICTIM: fails with code 0x100 + word 0 (a print and a send staged first);
 * a delivery (it is its own handler) prints its record */
void prog_hd_victim(am_ctx *ctx)
{
    am_fault_info f;
    if (am_fault(ctx, &f)) { show_fault(ctx, 0x6d697476u /* "vtim" */, &f); return; }
    am_print(ctx, "VICTIM OUTPUT MUST NOT APPEAR\n");
    AM_SEND(ctx, am_self(ctx), 0);
    if (am_msg_len(ctx) == 0) return;
    if (am_msg(ctx, 0) == 0x5e7) am_set_fault_handler(ctx, am_msg(ctx, 1));
    am_fail(ctx, 0x100 + am_msg(ctx, 0));
}

enum { B_START, B_TWICE, B_FRESH, B_DELIVERY_FAILS, B_PLAIN, B_PLAIN_FAILS, B_DEAD,
       B_DEAD_STAGED_FAIL, B_NIL, B_CONSOLE_EXPORT, B_SELF, B_DONE };

/* BOOT state [step, victim, h1, h2, h3]: one step per transaction */
void prog_handlers(am_ctx *ctx)
{
    am_word step = am_state(ctx, 0);
    am_ref v = am_state(ctx, 1), h1 = am_state(ctx, 2), h2 = am_state(ctx, 3), h3 = am_state(ctx, 4);
    switch (step) {
    case B_START:
        v = AM_CREATE(ctx, AMB_PROG_HD_VICTIM, 0);
        h1 = AM_CREATE(ctx, AMB_PROG_HD_HANDLER, 0x2d2d3148u);   /* "H1--" */
        h2 = AM_CREATE(ctx, AMB_PROG_HD_HANDLER, 0x2d2d3248u);   /* "H2--" */
        AM_BECOME(ctx, AMB_PROG_HANDLERS, 0, v, h1, h2);
        break;
    case B_TWICE:               /* the last one wins: H2 */
        am_set_fault_handler(ctx, h1); am_set_fault_handler(ctx, h2);
        AM_SEND(ctx, v, 1); break;
    case B_FRESH:               /* an actor created in this transaction */
        h3 = AM_CREATE(ctx, AMB_PROG_HD_HANDLER, 0x2d2d3348u);  /* "H3--" */
        am_set_state(ctx, 4, h3);
        am_set_fault_handler(ctx, h3);
        AM_SEND(ctx, v, 2); break;
    case B_DELIVERY_FAILS:      /* H3 fails in the delivery: recorded, not delivered again */
        AM_SEND(ctx, v, 0xf01); break;
    case B_PLAIN:               /* am_fault is 0 in an ordinary transaction */
        AM_SEND(ctx, h3, 0x123); break;
    case B_PLAIN_FAILS:         /* the handler's own failure is delivered to it */
        AM_SEND(ctx, h3, 0xf00); break;
    case B_DEAD:                /* slot 100 is in the table, never live: DEAD_TARGET, not delivered */
        am_set_fault_handler(ctx, 0x00010064u);
        AM_SEND(ctx, v, 6); break;
    case B_DEAD_STAGED_FAIL:    /* a staged handler dies with its transaction */
        AM_SEND(ctx, v, 0x5e7, h1); break;
    case B_NIL:
        am_set_fault_handler(ctx, AM_NIL);
        AM_SEND(ctx, v, 8); break;
    case B_CONSOLE_EXPORT:      /* the console prints the fault, exports nothing */
        am_set_fault_handler(ctx, AM_CONSOLE);
        AM_SEND(ctx, v, AM_CON_EXPORT, 2, v); break;
    case B_SELF:                /* the victim is its own handler */
        am_set_fault_handler(ctx, v);
        AM_SEND(ctx, v, 0xa); break;
    case B_DONE:
        am_set_fault_handler(ctx, AM_CONSOLE);
        am_print(ctx, "handlers: done\n");
        return;
    default: return;
    }
    if (step != B_START) am_set_state(ctx, 0, step + 1);
    else am_set_state(ctx, 0, 1);
    AM_SEND(ctx, am_self(ctx), 0);
}
