/*
 * prog_copyfree.c — the copy-free effects (include/am.h): am_set_state,
 * am_send_word and am_forward, each case once, and their faults.
 *
 * The boot actor creates PROBE (state [10 11 12]) and ECHO (prints each
 * message it gets), then sends PROBE the steps 0..CF_STEPS-1 one after
 * another, each as [step, 0xa1, 0xa2, 0xa3, 0xa4]. PROBE prints its state as
 * committed by the step before, then does the step; after the last step it
 * prints its state once more. The console -- the fault handler -- prints
 * the faults. tests/sim/copyfree.expected is the output on both targets
 * (tests/sim/run.sh: am-run and am-sim, in lockstep, where the trace's
 * "state" and "send" records of every step are compared too).
 */
#include "am.h"
#include "behaviors.h"

enum {
    CF_SET_ONE,        /* [10 111 12] */
    CF_SET_PAST_LEN,   /* word 5 of 3: words 3, 4 read 0 */
    CF_BECOME_THEN_SET,/* become [b0 b1], then word 4: [b0 b1 0 0 444] */
    CF_SET_THEN_BECOME,/* the become replaces the word set before it: [c0] */
    CF_SET_TWICE,      /* the last value wins; two words */
    CF_SET_BAD,        /* word 8: STATE_TOO_LONG value 9, nothing staged stays */
    CF_FWD,            /* the message as it is */
    CF_FWD_WORD0,      /* word 0 replaced */
    CF_FWD_PREPEND,    /* self, then the message */
    CF_FWD_DROP,       /* the message without word 0 */
    CF_FWD_PAST,       /* words past the message's end are 0 */
    CF_FWD_USED_UP,    /* a send in between uses up the word set */
    CF_FWD_NEG,        /* from -2: words below the message are 0, the set one stays */
    CF_FWD_FAR,        /* from far out of range either way: all 0 */
    CF_FWD_CREATED,    /* to an actor created in this transaction */
    CF_FWD_LONG,       /* 9 words: MSG_TOO_LONG value 9 */
    CF_WORD_BAD,       /* word 8: MSG_TOO_LONG value 9 */
    CF_FWD_FORGED,     /* BAD_REF value 12345678 */
    CF_FWD_MANY,       /* the 9th send: TOO_MANY_SENDS */
    CF_STEPS
};

/* ECHO, state [tag]: prints "TAG [w0 .. w(n-1)]" (TAG: the tag's four
 * bytes), one line in a few console sends */
void prog_cf_echo(am_ctx *ctx)
{
    char line[5 + 2 + 9 * AM_MAX_MSG_WORDS + 2];
    uint32_t n = 0, tag = am_state(ctx, 0);
    for (uint32_t i = 0; i < 4; i++) line[n++] = (char)(tag >> (8 * i));
    line[n++] = ' ';
    line[n++] = '[';
    for (uint32_t i = 0; i < am_msg_len(ctx); i++) {
        if (i) line[n++] = ' ';
        for (int k = 7; k >= 0; k--) line[n++] = "0123456789abcdef"[am_msg(ctx, i) >> (4 * k) & 15];
    }
    line[n++] = ']';
    line[n++] = '\n';
    line[n] = 0;
    am_print(ctx, line);
}

/* the message: [step, a1, a2, a3, a4, echo, show]: shows the state as the
 * step before committed it, then does the step */
void prog_cf_probe(am_ctx *ctx)
{
    uint32_t step = am_msg(ctx, 0), len = 5;
    am_ref echo = am_msg(ctx, 5), show = am_msg(ctx, 6);
    am_word st[AM_MAX_STATE_WORDS];
    for (uint32_t i = 0; i < AM_MAX_STATE_WORDS; i++) st[i] = am_state(ctx, i);
    am_send(ctx, show, AM_MAX_STATE_WORDS, st);
    switch (step) {
    case CF_SET_ONE:         am_set_state(ctx, 1, 0x111); break;
    case CF_SET_PAST_LEN:    am_set_state(ctx, 5, 0x555); break;
    case CF_BECOME_THEN_SET: AM_BECOME(ctx, AMB_PROG_CF_PROBE, 0xb0, 0xb1);
                             am_set_state(ctx, 4, 0x444); break;
    case CF_SET_THEN_BECOME: am_set_state(ctx, 0, 0xa0);
                             AM_BECOME(ctx, AMB_PROG_CF_PROBE, 0xc0); break;
    case CF_SET_TWICE:       am_set_state(ctx, 7, 0x777); am_set_state(ctx, 0, 0x100);
                             am_set_state(ctx, 7, 0x778); break;
    case CF_SET_BAD:         am_set_state(ctx, 1, 0xbad); am_set_state(ctx, 8, 0xbad); break;
    case CF_FWD:             am_forward(ctx, echo, len, 0); break;
    case CF_FWD_WORD0:       am_send_word(ctx, 0, 0xf0); am_forward(ctx, echo, len, 0); break;
    case CF_FWD_PREPEND:     am_send_word(ctx, 0, am_self(ctx)); am_forward(ctx, echo, len + 1, -1); break;
    case CF_FWD_DROP:        am_forward(ctx, echo, len - 1, 1); break;
    case CF_FWD_PAST:        am_forward(ctx, echo, 6, 3); break;
    case CF_FWD_USED_UP:     am_send_word(ctx, 2, 0x22); AM_SEND(ctx, echo, 0x99);
                             am_forward(ctx, echo, 3, 0); break;
    case CF_FWD_NEG:         am_send_word(ctx, 1, 0x11); am_send_word(ctx, 1, 0x12);
                             am_forward(ctx, echo, 4, -2); break;
    case CF_FWD_FAR:         am_forward(ctx, echo, 3, -100); am_forward(ctx, echo, 3, 100);
                             am_forward(ctx, echo, 2, 8); break;
    case CF_FWD_CREATED: {
        am_ref e2 = AM_CREATE(ctx, AMB_PROG_CF_ECHO, 0x2077656eu);   /* "new " */
        am_send_word(ctx, 4, 0x44);
        am_forward(ctx, e2, 5, 0);
        break;
    }
    case CF_FWD_LONG:        am_forward(ctx, echo, 9, 0); break;
    case CF_WORD_BAD:        am_send_word(ctx, 8, 1); break;
    case CF_FWD_FORGED:      am_forward(ctx, 0x12345678u, 1, 0); break;
    case CF_FWD_MANY:
        for (uint32_t i = 0; i < 9; i++) am_forward(ctx, echo, 1, 0);
        break;
    default: break;
    }
}

/* [] -> PROBE, ECHO ("echo") and SHOW ("stat"), the first step; [step] ->
 * the next one */
void prog_copyfree(am_ctx *ctx)
{
    am_ref probe = am_state(ctx, 0), echo = am_state(ctx, 1), show = am_state(ctx, 2);
    uint32_t step = am_msg_len(ctx) ? am_msg(ctx, 0) + 1 : 0;
    if (!am_msg_len(ctx)) {
        probe = AM_CREATE(ctx, AMB_PROG_CF_PROBE, 10, 11, 12);
        echo = AM_CREATE(ctx, AMB_PROG_CF_ECHO, 0x6f686365u);   /* "echo" */
        show = AM_CREATE(ctx, AMB_PROG_CF_ECHO, 0x74617473u);   /* "stat" */
        AM_BECOME(ctx, AMB_PROG_COPYFREE, probe, echo, show);
    }
    if (step < CF_STEPS) {
        AM_SEND(ctx, probe, step, 0xa1, 0xa2, 0xa3, 0xa4, echo, show);
        AM_SEND(ctx, am_self(ctx), step);   /* after PROBE's step and what it sends */
    } else {
        AM_SEND(ctx, probe, CF_STEPS, 0, 0, 0, 0, echo, show);   /* the last state */
    }
}
