/*
 * lt.h — shared fixture of the actor-library tests (tests/lib/test_*.c).
 *
 * lt_new() makes a runtime with the default (hardware) configuration and
 * the standard behavior table followed by one test-only behavior,
 * LT_RECORDER, which records every message it receives (its own reference
 * and the words) so tests can see replies that are not ASKs. Console output
 * is captured in lt_out, fault records in lt_faults. Host code only: the
 * recorder uses globals, which library behaviors never do.
 */
#ifndef LT_H
#define LT_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "am_rt.h"
#include "am_lib.h"
#include "t.h"

/* The table tests start from: the library's, or -- for a test of a program
 * folder's programs (the Makefile's LT_PROGRAMS) -- that folder's set. */
#ifdef LT_PROGRAMS
#include "am_progset.h"
#define LT_BASE   (am_progsets[0]->behaviors)
#define LT_BASE_N (am_progsets[0]->nbehaviors)
#else
#define LT_BASE   am_std_behaviors
#define LT_BASE_N am_std_nbehaviors
#endif

#define LT_MAX_REC    256
#define LT_MAX_FAULTS 64
#define LT_OUT_SIZE   16384

typedef struct lt_msg {
    am_ref to;
    uint32_t len;
    am_word w[AM_MAX_MSG_WORDS];
} lt_msg;

static lt_msg lt_rec[LT_MAX_REC];
static int lt_nrec;
static char lt_out[LT_OUT_SIZE];
static size_t lt_nout;
static am_fault_record lt_faults[LT_MAX_FAULTS];
static int lt_nfaults;

static am_behavior_desc lt_tab[512];
static am_beh LT_RECORDER;

static inline void lt_recorder_beh(am_ctx *ctx)
{
    if (lt_nrec < LT_MAX_REC) {
        lt_msg *m = &lt_rec[lt_nrec++];
        m->to = am_self(ctx);
        m->len = am_msg_len(ctx);
        for (uint32_t i = 0; i < AM_MAX_MSG_WORDS; i++)
            m->w[i] = am_msg(ctx, i);
    }
}

static inline void lt_on_output(void *user, const char *bytes, size_t n)
{
    (void)user;
    if (lt_nout + n >= LT_OUT_SIZE) n = LT_OUT_SIZE - 1 - lt_nout;
    memcpy(lt_out + lt_nout, bytes, n);
    lt_nout += n;
    lt_out[lt_nout] = 0;
}

static inline void lt_on_fault(void *user, const am_fault_record *rec)
{
    (void)user;
    if (lt_nfaults < LT_MAX_FAULTS)
        lt_faults[lt_nfaults++] = *rec;
}

/* The runtime of the current test: freed by lt_free(), or by the next
 * lt_new()/exit when a failed CHECK returned early (no leak reports). */
static am_rt *lt_cur;
static inline void lt_free(am_rt *rt)
{
    if (rt && rt == lt_cur) lt_cur = NULL;
    am_rt_free(rt);
}
static inline void lt_free_cur(void) { lt_free(lt_cur); }

/* A fresh runtime (default bounds) with the recorder; resets captures.
 * Exits on failure (a broken fixture is not a test result). */
static inline am_rt *lt_new_cfg(am_config *cfg)
{
    static int registered;
    if (!registered) { registered = 1; atexit(lt_free_cur); }
    lt_free_cur();
    lt_nrec = 0;
    lt_nout = 0;
    lt_out[0] = 0;
    lt_nfaults = 0;
    if (LT_BASE_N + 1 > sizeof lt_tab / sizeof lt_tab[0]) {
        fprintf(stderr, "lt.h: behavior table too large\n");
        exit(2);
    }
    memcpy(lt_tab, LT_BASE, LT_BASE_N * sizeof lt_tab[0]);
    LT_RECORDER = LT_BASE_N;
    lt_tab[LT_RECORDER].name = "LT_RECORDER";
    lt_tab[LT_RECORDER].fn = lt_recorder_beh;
    cfg->behaviors = lt_tab;
    cfg->nbehaviors = LT_BASE_N + 1;
    cfg->on_output = lt_on_output;
    cfg->on_fault = lt_on_fault;
    cfg->user = NULL;
    am_rt *rt = NULL;
    am_status s = am_rt_new(cfg, &rt);
    if (s != AM_OK) {
        fprintf(stderr, "lt.h: am_rt_new: %s\n", am_strerror(s));
        exit(2);
    }
    lt_cur = rt;
    return rt;
}

static inline am_rt *lt_new(void)
{
    am_config cfg;
    am_config_default(&cfg);
    /* library tests read faults from the records (lt_faults); fault delivery
     * to a handler actor is tested in tests/host and by the demos */
    cfg.fault_handler = AM_NIL;
    return lt_new_cfg(&cfg);
}

/* Spawn an actor (host side); exits if the runtime refuses. */
static inline am_ref lt_spawn_(am_rt *rt, am_beh beh, uint32_t n, const am_word *st)
{
    am_ref r = AM_NIL;
    am_status s = am_spawn(rt, beh, n, st, &r);
    if (s != AM_OK) {
        fprintf(stderr, "lt.h: am_spawn(%u): %s\n", (unsigned)beh, am_strerror(s));
        exit(2);
    }
    return r;
}
#define LT_SPAWN(rt, beh, ...) lt_spawn_((rt), (beh), AM_NWORDS_(__VA_ARGS__), (const am_word[]){__VA_ARGS__})
#define LT_SPAWN0(rt, beh) lt_spawn_((rt), (beh), 0, NULL)
#define LT_RECORDER_NEW(rt) LT_SPAWN0((rt), LT_RECORDER)

/* Inject one event (host side); exits if the runtime refuses. */
static inline void lt_inject_(am_rt *rt, am_ref to, uint32_t n, const am_word *w)
{
    am_status s = am_inject(rt, to, n, w);
    if (s != AM_OK) {
        fprintf(stderr, "lt.h: am_inject: %s\n", am_strerror(s));
        exit(2);
    }
}
#define LT_SEND(rt, to, ...) lt_inject_((rt), (to), AM_NWORDS_(__VA_ARGS__), (const am_word[]){__VA_ARGS__})

/* ASK with a generous dispatch budget; returns the status. */
static inline am_status lt_ask_(am_rt *rt, am_ref to, uint32_t n, const am_word *req,
                         am_word reply[AM_MAX_MSG_WORDS], uint32_t *len)
{
    for (uint32_t i = 0; i < AM_MAX_MSG_WORDS; i++) reply[i] = 0xdeadbeefu;
    return am_ask(rt, to, n, req, 100000, reply, len);
}
#define LT_ASK(rt, to, reply, len, ...) \
    lt_ask_((rt), (to), AM_NWORDS_(__VA_ARGS__), (const am_word[]){__VA_ARGS__}, (reply), (len))

/* Run to quiescence (bounded); returns the status. */
static inline am_status lt_run(am_rt *rt) { return am_run(rt, 1000000); }

/* Messages recorded for one recorder, in arrival order. */
static inline int lt_count_for(am_ref rec)
{
    int c = 0;
    for (int i = 0; i < lt_nrec; i++) c += lt_rec[i].to == rec;
    return c;
}
static inline const lt_msg *lt_nth_for(am_ref rec, int k)
{
    for (int i = 0; i < lt_nrec; i++)
        if (lt_rec[i].to == rec && k-- == 0) return &lt_rec[i];
    return NULL;
}

/* Behavior and state of an actor (behavior 0xffffffff if not valid). */
static inline am_beh lt_peek(am_rt *rt, am_ref r, am_word st[AM_MAX_STATE_WORDS])
{
    am_beh b;
    if (am_peek(rt, r, &b, st) != AM_OK) return 0xffffffffu;
    return b;
}

static inline uint32_t lt_live(am_rt *rt)
{
    am_counters c;
    am_get_counters(rt, &c);
    return c.live;
}

/* Check a malformed message: inject it, run, expect exactly one new FAIL
 * fault with `code`, targeted at `to`, and no console output. */
#define LT_CHECK_FAULT(rt, to, want_code, ...) do {                               \
    int lt_f0_ = lt_nfaults;                                                 \
    size_t lt_o0_ = lt_nout;                                                 \
    LT_SEND((rt), (to), __VA_ARGS__);                                        \
    CHECK_EQ(lt_run(rt), AM_OK);                                             \
    CHECK_EQ(lt_nfaults, lt_f0_ + 1);                                        \
    CHECK_EQ(lt_faults[lt_f0_].cause, AM_FAULT_FAIL);                        \
    CHECK_EQ(lt_faults[lt_f0_].code, (want_code));                                \
    CHECK_EQ(lt_faults[lt_f0_].target, (to));                                \
    CHECK_EQ(lt_nout, lt_o0_);                                               \
} while (0)

#endif /* LT_H */
