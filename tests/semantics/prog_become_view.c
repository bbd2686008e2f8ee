/*
 * prog_become_view.c -- BECOME and am_set_state together, and what the
 * behavior reads while it stages (docs/semantics.md, "One transaction per
 * dispatch"; include/am.h):
 *   the last BECOME wins, a shorter one zeroes what the longer staged;
 *   a BECOME replaces every word set before it, also past its length;
 *   words set after it stay; a BECOME of 0 words; all eight set, then a
 *   BECOME of one; a BECOME to another behavior then back (last wins);
 *   am_set_state alone keeps the behavior;
 *   am_state, am_my_behavior, am_msg_len and am_msg read the dispatch's
 *   values after any staging (BECOME, set_state, send, send_word), else
 *   PROBE prints a "!!" line;
 *   a fault after a BECOME records the behavior at dispatch;
 *   words set with am_send_word do not outlive their transaction
 *   (committed without a send, or aborted): the next forward is the message.
 * tests/sim/become-view.expected is the output on both sides.
 */
#include "am.h"
#include "behaviors.h"
#include "sem_print.h"

enum { S_BEC_BEC, S_SET_BEC_SHORT, S_SET_BEC_SET, S_BEC0, S_BEC0_SET, S_SET_ALL_BEC1,
       S_BEC_OTHER_LAST, S_BEC_OTHER_SET, S_BACK, S_MSG_AFTER_SEND, S_FAIL_AFTER_BECOME,
       S_WORD_LEFT, S_FWD_AFTER_LEFT, S_WORD_ABORT, S_FWD_AFTER_ABORT, S_SET_FAIL,
       S_STEPS };

/* ECHO state [tag]: prints the message */
void prog_bv_echo(am_ctx *ctx)
{
    am_word w[AM_MAX_MSG_WORDS];
    for (uint32_t i = 0; i < am_msg_len(ctx); i++) w[i] = am_msg(ctx, i);
    sem_hexline(ctx, am_state(ctx, 0), am_msg_len(ctx), w);
}

/* PROBE / PROBE2: message [step, a1, a2, a3, echo]; prints its state as
 * committed and its behavior, does the step, then checks that am_state,
 * am_my_behavior and am_msg still read the dispatch's values */
static void probe(am_ctx *ctx)
{
    am_word st[AM_MAX_STATE_WORDS], m[AM_MAX_MSG_WORDS];
    am_beh b0 = am_my_behavior(ctx);
    uint32_t len = am_msg_len(ctx);
    for (uint32_t i = 0; i < AM_MAX_STATE_WORDS; i++) st[i] = am_state(ctx, i);
    for (uint32_t i = 0; i < AM_MAX_MSG_WORDS; i++) m[i] = am_msg(ctx, i);
    am_word step = m[0];
    am_ref echo = m[4];
    am_word head[2] = { step, b0 == AMB_PROG_BV_PROBE ? 1u : b0 == AMB_PROG_BV_PROBE2 ? 2u : 0xeeu };
    sem_hexline(ctx, 0x70657473u /* "step" */, 2, head);
    sem_hexline(ctx, 0x74617473u /* "stat" */, AM_MAX_STATE_WORDS, st);

    switch (step) {
    case S_BEC_BEC: AM_BECOME(ctx, AMB_PROG_BV_PROBE, 1, 2, 3); AM_BECOME(ctx, AMB_PROG_BV_PROBE, 9); break;
    case S_SET_BEC_SHORT:
        am_set_state(ctx, 5, 0x55); AM_BECOME(ctx, AMB_PROG_BV_PROBE, 0xa, 0xb); break;
    case S_SET_BEC_SET:
        am_set_state(ctx, 5, 0x55); AM_BECOME(ctx, AMB_PROG_BV_PROBE, 0xa, 0xb);
        am_set_state(ctx, 6, 0x66); break;
    case S_BEC0: am_become(ctx, AMB_PROG_BV_PROBE, 0, 0); break;
    case S_BEC0_SET: am_become(ctx, AMB_PROG_BV_PROBE, 0, 0); am_set_state(ctx, 2, 0x22); break;
    case S_SET_ALL_BEC1:
        for (uint32_t i = 0; i < AM_MAX_STATE_WORDS; i++) am_set_state(ctx, i, 0x100 + i);
        AM_BECOME(ctx, AMB_PROG_BV_PROBE, 0x1); break;
    case S_BEC_OTHER_LAST:
        AM_BECOME(ctx, AMB_PROG_BV_PROBE2, 7, 7, 7, 7); AM_BECOME(ctx, AMB_PROG_BV_PROBE, 0xc); break;
    case S_BEC_OTHER_SET:
        AM_BECOME(ctx, AMB_PROG_BV_PROBE2, 1, 2); am_set_state(ctx, 0, 5); break;
    case S_BACK:                 /* as PROBE2: set_state alone keeps the behavior */
        am_set_state(ctx, 3, 0x33); break;
    case S_MSG_AFTER_SEND: {
        am_word big[AM_MAX_MSG_WORDS] = { 0xe0, 0xe1, 0xe2, 0xe3, 0xe4, 0xe5, 0xe6, 0xe7 };
        am_send(ctx, echo, AM_MAX_MSG_WORDS, big);
        am_send_word(ctx, 1, 0xf1);
        am_send_word(ctx, 6, 0xf6);
        AM_BECOME(ctx, AMB_PROG_BV_PROBE, 0xd);
        break;
    }
    case S_FAIL_AFTER_BECOME:
        AM_BECOME(ctx, AMB_PROG_BV_PROBE2, 0xdead); am_fail(ctx, 0x99);
    case S_WORD_LEFT: am_send_word(ctx, 1, 0xdead); am_send_word(ctx, 2, 0xdead); break;
    case S_FWD_AFTER_LEFT: am_forward(ctx, echo, 4, 0); break;
    case S_WORD_ABORT: am_send_word(ctx, 1, 0xbeef); am_set_state(ctx, 0, 0xbad); am_fail(ctx, 0x98);
    case S_FWD_AFTER_ABORT: am_forward(ctx, echo, 4, 0); break;
    case S_SET_FAIL: am_set_state(ctx, 0, 0xbad); AM_SEND(ctx, echo, 0xbad); am_fail(ctx, 0x97);
    default: break;
    }
    /* the behavior's view did not change */
    int bad = am_my_behavior(ctx) != b0 || am_msg_len(ctx) != len;
    for (uint32_t i = 0; i < AM_MAX_STATE_WORDS; i++) bad |= am_state(ctx, i) != st[i];
    for (uint32_t i = 0; i < AM_MAX_MSG_WORDS; i++) bad |= am_msg(ctx, i) != m[i];
    if (bad) {
        am_word now[AM_MAX_STATE_WORDS];
        for (uint32_t i = 0; i < AM_MAX_STATE_WORDS; i++) now[i] = am_state(ctx, i);
        sem_hexline(ctx, 0x21217473u /* "st!!" */, AM_MAX_STATE_WORDS, now);
        for (uint32_t i = 0; i < AM_MAX_MSG_WORDS; i++) now[i] = am_msg(ctx, i);
        sem_hexline(ctx, 0x2121736du /* "ms!!" */, AM_MAX_MSG_WORDS, now);
        am_word bl[2] = { am_my_behavior(ctx), am_msg_len(ctx) };
        sem_hexline(ctx, 0x21216862u /* "bh!!" */, 2, bl);
    }
}

void prog_bv_probe(am_ctx *ctx) { probe(ctx); }
void prog_bv_probe2(am_ctx *ctx) { probe(ctx); }

/* BOOT state [probe, echo]: [] starts; [step] sends the next step */
void prog_become_view(am_ctx *ctx)
{
    am_ref p = am_state(ctx, 0), e = am_state(ctx, 1);
    uint32_t step = am_msg_len(ctx) ? am_msg(ctx, 0) + 1 : 0;
    if (!am_msg_len(ctx)) {
        p = AM_CREATE(ctx, AMB_PROG_BV_PROBE, 10, 11, 12);
        e = AM_CREATE(ctx, AMB_PROG_BV_ECHO, 0x6f686365u);   /* "echo" */
        AM_BECOME(ctx, AMB_PROG_BECOME_VIEW, p, e);
    }
    AM_SEND(ctx, p, step, 0xa1, 0xa2, 0xa3, e);
    if (step < S_STEPS) AM_SEND(ctx, am_self(ctx), step);
}
