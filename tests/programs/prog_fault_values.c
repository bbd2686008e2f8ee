/*
 * prog_fault_values.c — fault records that explain (issue #30): each victim
 * message stages a send, then fails in one way whose record must name the
 * operation and the offending value -- a forged reference 0x12345678 in a
 * SEND, unknown behaviors in CREATE and BECOME, lengths over the bounds
 * (one beyond what the address can carry: saturated at 15), a handler
 * outside the table, am_fail's code, a trap, the bounds on sends and
 * creates, a stale reference, and a forged SEND followed by a bad CREATE
 * (the first fault, and its value, win). The console -- the fault handler
 * -- prints each record; tests/sim/fault-values.expected is the output on
 * both targets (tests/sim/run.sh, tests/host/flags.sh), and the lockstep
 * checker compares each record's op and value in the trace.
 *
 * PROG_FAULT_VALUES: [step] script; FAULT_VALUES_VICTIM: [op].
 */
#include "am.h"
#include "behaviors.h"
#include "prog_trap.h"

enum {
    FV_NONE = 0,
    FV_SEND_FORGED,       /* BAD_REF op=SEND value=12345678 */
    FV_CREATE_BAD_BEH,    /* BAD_BEHAVIOR op=CREATE value=0000ffff */
    FV_BECOME_BAD_BEH,    /* BAD_BEHAVIOR op=BECOME value=deadbeef */
    FV_SEND_LONG,         /* MSG_TOO_LONG op=SEND value=0000000c */
    FV_CREATE_LONG,       /* STATE_TOO_LONG op=CREATE value=00000009 */
    FV_BECOME_HUGE,       /* STATE_TOO_LONG op=BECOME value=0000000f (100, saturated) */
    FV_HANDLER_BAD,       /* BAD_REF op=SET_HANDLER value=12340400 */
    FV_FAIL,              /* FAIL op=ABORT value=00c0ffee */
    FV_EBREAK,            /* TRAP_EBREAK op=ABORT value=00000000 */
    FV_SENDS,             /* TOO_MANY_SENDS op=SEND value=00010000 (the console) */
    FV_CREATES,           /* TOO_MANY_CREATES op=CREATE value=00000001 (SINK) */
    FV_STALE,             /* BAD_REF op=SEND value=self's next generation */
    FV_FIRST_WINS,        /* BAD_REF op=SEND value=12345678, then a bad CREATE */
    FV_COUNT = FV_FIRST_WINS
};

void prog_fault_values_victim(am_ctx *ctx)
{
    am_word words[AM_MAX_MSG_WORDS] = { 1, 2, 3, 4, 5, 6, 7, 8 };
    /* an earlier write the record must not take for the value */
    AM_SEND(ctx, am_self(ctx), 0xaaaaaaaau);
    switch (am_msg(ctx, 0)) {
    case FV_SEND_FORGED:    AM_SEND(ctx, 0x12345678u, 1); break;
    case FV_CREATE_BAD_BEH: am_create(ctx, 0xffffu, 0, 0); break;
    case FV_BECOME_BAD_BEH: am_become(ctx, 0xdeadbeefu, 0, 0); break;
    case FV_SEND_LONG:      am_send(ctx, am_self(ctx), 12, words); break;
    case FV_CREATE_LONG:    am_create(ctx, AM_BEH_SINK, 9, words); break;
    case FV_BECOME_HUGE:    am_become(ctx, AM_BEH_SINK, 100, words); break;
    case FV_HANDLER_BAD:    am_set_fault_handler(ctx, 0x12340400u); break;
    case FV_FAIL:           am_fail(ctx, 0xc0ffeeu); break;
    case FV_EBREAK:         prog_trap(ctx, AM_FAULT_TRAP_EBREAK); break;
    case FV_SENDS:
        for (uint32_t i = 0; i < 8; i++) AM_SEND(ctx, AM_CONSOLE, AM_CON_HEX, i);   /* 1 + 8 > 8 */
        break;
    case FV_CREATES:
        for (uint32_t i = 0; i < 5; i++) AM_CREATE(ctx, AM_BEH_SINK, i);           /* 5 > 4 */
        break;
    case FV_STALE:          AM_SEND(ctx, am_self(ctx) + 0x00010000u, 1); break;
    case FV_FIRST_WINS:
        AM_SEND(ctx, 0x12345678u, 1);
        am_create(ctx, 0xffffu, 0, 0);      /* the hardware runs on: no effect */
        am_fail(ctx, 0x5555u);
        break;
    default: return;   /* FV_NONE: the staged send to self comes back as this */
    }
}

void prog_fault_values(am_ctx *ctx)
{
    am_word step = am_state(ctx, 0);
    am_ref victim = am_state(ctx, 1);
    if (step == 0) victim = am_create(ctx, AMB_PROG_FAULT_VALUES_VICTIM, 0, 0);
    if (step == FV_COUNT) {
        am_print(ctx, "fault-values: done\n");
        return;
    }
    /* the victim's fault and its delivery come first (FIFO), then our next step */
    AM_SEND(ctx, victim, step + 1);
    am_print(ctx, "fault-values: op ");
    am_print_uint(ctx, step + 1);
    am_print(ctx, "\n");
    AM_SEND(ctx, am_self(ctx), 0);
    AM_BECOME(ctx, AMB_PROG_FAULT_VALUES, step + 1, victim);
}
