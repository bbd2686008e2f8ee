/*
 * am_rt.c — the reference runtime: actor table, event queue, transactional
 * dispatch. The rules implemented here are docs/semantics.md, clause by
 * clause; the hardware (rtl/) implements the same ones and the lockstep
 * co-simulation holds the two to it.
 */
#include "am_rt.h"

#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include "am_console.h"
#include "am_trace.h"

#define SLOT_OF(ref) ((ref) & 0xffffu)
#define GEN_OF(ref)  ((ref) >> 16)
#define MAKE_REF(gen, slot) (((am_word)(gen) << 16) | (am_word)(slot))
#define NO_BEH 0xffffffffu

typedef struct event {
    am_ref target;
    uint32_t len;
    am_word msg[AM_MAX_MSG_WORDS];
} event;

typedef struct staged_create {
    am_ref ref;
    am_beh beh;
    am_word state[AM_MAX_STATE_WORDS];
    uint32_t n;
} staged_create;

struct am_ctx {
    am_rt *rt;
};

struct am_rt {
    am_config cfg;
    am_ctx ctx;

    /* actor table */
    uint16_t *gen;          /* stored generation (0 = never used) */
    uint8_t *live;
    am_beh *beh;
    am_word *state;         /* table_size * AM_MAX_STATE_WORDS */
    uint32_t *free_stack;   /* slots released by reclamation */
    uint32_t free_top;      /* entries in free_stack */
    uint32_t next;          /* lowest never-used slot */
    uint32_t nlive;

    /* event queue: a ring of queue_depth events */
    event *queue;
    uint32_t head, count, hwm;

    /* the transaction being staged */
    int in_dispatch;
    event cur;
    am_beh cur_beh;
    uint32_t snap_free_top, snap_next;
    staged_create *creates;
    uint32_t ncreates;
    event *sends;
    uint32_t nsends;
    int has_become;
    am_beh become_beh;
    uint32_t become_n;
    am_word become_state[AM_MAX_STATE_WORDS];
    uint32_t fault_cause;
    am_word fault_code;
    jmp_buf abort_jmp;

    /* counters */
    uint64_t seq, dispatches, commits, aborts, faults;
    am_fault_record last_fault;
    int have_fault;

    /* ASK */
    uint32_t ask_ticket;      /* ticket of the ask in progress, 0 = none */
    uint32_t ask_next_ticket;
    int ask_done;
    uint32_t ask_len;
    am_word ask_reply[AM_MAX_MSG_WORDS];

    int tracing;              /* trace file or callback set */
    am_trace_buf tbuf;
};

/* Copy n words and zero the rest up to cap (src may be NULL when n is 0). */
static void copy_words(am_word *dst, const am_word *src, uint32_t n, uint32_t cap)
{
    for (uint32_t i = 0; i < n; i++) dst[i] = src[i];
    for (uint32_t i = n; i < cap; i++) dst[i] = 0;
}

/* ---- names ------------------------------------------------------------- */

const char *am_fault_name(uint32_t cause)
{
    static const char *const names[AM_FAULT_COUNT_] = {
        "NONE", "FAIL", "BAD_REF", "BAD_BEHAVIOR", "MSG_TOO_LONG",
        "STATE_TOO_LONG", "TOO_MANY_SENDS", "TOO_MANY_CREATES", "TABLE_FULL",
        "QUEUE_FULL", "DEAD_TARGET", "TRAP_ILLEGAL", "TRAP_MISALIGNED",
        "TRAP_BUS", "TRAP_EBREAK", "WATCHDOG",
    };
    return cause < AM_FAULT_COUNT_ ? names[cause] : "UNKNOWN";
}

const char *am_strerror(am_status s)
{
    static const char *const msgs[AM_STATUS_COUNT_] = {
        "ok",
        "bad configuration: a bound is zero or above its ceiling",
        "out of host memory",
        "reference is not a live actor",
        "unknown behavior id",
        "more words than the configured bound",
        "actor table full",
        "event queue full",
        "event queue empty",
        "queue drained before the reply arrived",
        "dispatch budget exhausted",
        "host API called from inside a behavior",
    };
    return (unsigned)s < AM_STATUS_COUNT_ ? msgs[s] : "unknown status";
}

/* ---- configuration and lifetime ----------------------------------------- */

void am_config_default(am_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->table_size = 128;
    cfg->queue_depth = 63;
    cfg->msg_words = AM_MAX_MSG_WORDS;
    cfg->state_words = AM_MAX_STATE_WORDS;
    cfg->max_sends = 8;
    cfg->max_creates = 4;
}

am_status am_rt_new(const am_config *cfg_in, am_rt **out)
{
    am_config cfg;
    if (cfg_in) cfg = *cfg_in; else am_config_default(&cfg);
    *out = NULL;
    if (cfg.table_size < 2 || cfg.table_size > 65536 || cfg.queue_depth < 1 ||
        cfg.queue_depth > (1u << 24) || cfg.msg_words < 1 ||
        cfg.msg_words > AM_MAX_MSG_WORDS || cfg.state_words < 1 ||
        cfg.state_words > AM_MAX_STATE_WORDS || cfg.max_sends < 1 ||
        cfg.max_sends > (1u << 16) || cfg.max_creates < 1 ||
        cfg.max_creates > (1u << 16))
        return AM_E_CONFIG;
    if (!cfg.behaviors) {
        cfg.behaviors = am_std_behaviors;
        cfg.nbehaviors = am_std_nbehaviors;
    }
    if (cfg.nbehaviors < AM_BEH_FIRST_USER)
        return AM_E_CONFIG;

    am_rt *rt = calloc(1, sizeof *rt);
    if (!rt) return AM_E_NOMEM;
    rt->cfg = cfg;
    rt->ctx.rt = rt;
    size_t ts = cfg.table_size;
    rt->gen = calloc(ts, sizeof *rt->gen);
    rt->live = calloc(ts, sizeof *rt->live);
    rt->beh = calloc(ts, sizeof *rt->beh);
    rt->state = calloc(ts * AM_MAX_STATE_WORDS, sizeof *rt->state);
    rt->free_stack = calloc(ts, sizeof *rt->free_stack);
    rt->queue = calloc(cfg.queue_depth, sizeof *rt->queue);
    rt->creates = calloc(cfg.max_creates, sizeof *rt->creates);
    rt->sends = calloc(cfg.max_sends, sizeof *rt->sends);
    if (!rt->gen || !rt->live || !rt->beh || !rt->state || !rt->free_stack ||
        !rt->queue || !rt->creates || !rt->sends) {
        am_rt_free(rt);
        return AM_E_NOMEM;
    }
    /* Slot 0: the console, live from reset with generation 1. */
    rt->gen[0] = 1;
    rt->live[0] = 1;
    rt->beh[0] = AM_BEH_CONSOLE;
    rt->nlive = 1;
    rt->next = 1;
    rt->ask_next_ticket = 1;
    rt->tracing = cfg.trace != NULL || cfg.on_trace != NULL;
    *out = rt;
    return AM_OK;
}

void am_rt_free(am_rt *rt)
{
    if (!rt) return;
    free(rt->gen);
    free(rt->live);
    free(rt->beh);
    free(rt->state);
    free(rt->free_stack);
    free(rt->queue);
    free(rt->creates);
    free(rt->sends);
    free(rt);
}

/* ---- the actor table ------------------------------------------------------ */

static int ref_valid(const am_rt *rt, am_ref ref)
{
    uint32_t slot = SLOT_OF(ref);
    return slot < rt->cfg.table_size && rt->live[slot] && rt->gen[slot] == GEN_OF(ref);
}

/* Allocate a slot (free stack first, then the bump pointer); returns the
 * new reference or AM_NIL when the table is full. Nothing is made live. */
static am_ref alloc_slot(am_rt *rt)
{
    uint32_t slot;
    if (rt->free_top > 0)
        slot = rt->free_stack[--rt->free_top];
    else if (rt->next < rt->cfg.table_size)
        slot = rt->next++;
    else
        return AM_NIL;
    uint32_t g = (uint32_t)rt->gen[slot] + 1;
    if (g > 0xffffu) g = 1;
    return MAKE_REF(g, slot);
}

static void make_live(am_rt *rt, am_ref ref, am_beh beh, uint32_t n, const am_word *st)
{
    uint32_t slot = SLOT_OF(ref);
    am_word *dst = &rt->state[(size_t)slot * AM_MAX_STATE_WORDS];
    rt->gen[slot] = (uint16_t)GEN_OF(ref);
    rt->live[slot] = 1;
    rt->beh[slot] = beh;
    copy_words(dst, st, n, AM_MAX_STATE_WORDS);
    rt->nlive++;
}

/* ---- the event queue ------------------------------------------------------ */

static void enqueue(am_rt *rt, const event *ev)
{
    uint32_t tail = rt->head + rt->count;
    if (tail >= rt->cfg.queue_depth) tail -= rt->cfg.queue_depth;
    rt->queue[tail] = *ev;
    rt->count++;
}

static void update_hwm(am_rt *rt)
{
    if (rt->count > rt->hwm) rt->hwm = rt->count;
}

/* ---- host operations outside transactions ---------------------------------- */

am_status am_spawn(am_rt *rt, am_beh beh, uint32_t n, const am_word *st, am_ref *out)
{
    if (rt->in_dispatch) return AM_E_REENTRANT;
    if (beh >= rt->cfg.nbehaviors) return AM_E_BAD_BEHAVIOR;
    if (n > rt->cfg.state_words) return AM_E_TOO_LONG;
    am_ref ref = alloc_slot(rt);
    if (ref == AM_NIL) return AM_E_TABLE_FULL;
    make_live(rt, ref, beh, n, st);
    if (out) *out = ref;
    return AM_OK;
}

am_status am_inject(am_rt *rt, am_ref target, uint32_t n, const am_word *msg)
{
    if (rt->in_dispatch) return AM_E_REENTRANT;
    if (n > rt->cfg.msg_words) return AM_E_TOO_LONG;
    if (!ref_valid(rt, target)) return AM_E_BAD_REF;
    if (rt->count >= rt->cfg.queue_depth) return AM_E_QUEUE_FULL;
    event ev;
    ev.target = target;
    ev.len = n;
    copy_words(ev.msg, msg, n, AM_MAX_MSG_WORDS);
    enqueue(rt, &ev);
    update_hwm(rt);
    return AM_OK;
}

/* ---- the behavior's view -------------------------------------------------- */

am_ref am_self(const am_ctx *ctx) { return ctx->rt->cur.target; }
am_beh am_my_behavior(const am_ctx *ctx) { return ctx->rt->cur_beh; }
uint32_t am_msg_len(const am_ctx *ctx) { return ctx->rt->cur.len; }

am_word am_msg(const am_ctx *ctx, uint32_t i)
{
    /* words past len are 0 in the event (inject and send zero-fill) */
    return i < AM_MAX_MSG_WORDS ? ctx->rt->cur.msg[i] : 0;
}

am_word am_state(const am_ctx *ctx, uint32_t i)
{
    const am_rt *rt = ctx->rt;
    if (i >= rt->cfg.state_words) return 0;
    return rt->state[(size_t)SLOT_OF(rt->cur.target) * AM_MAX_STATE_WORDS + i];
}

/* ---- staging -------------------------------------------------------------- */

_Noreturn static void txn_fault(am_rt *rt, uint32_t cause, am_word code)
{
    rt->fault_cause = cause;
    rt->fault_code = code;
    longjmp(rt->abort_jmp, 1);
}

void am_fail(am_ctx *ctx, am_word code)
{
    txn_fault(ctx->rt, AM_FAULT_FAIL, code);
}

void am_host_trap(am_ctx *ctx, uint32_t cause)
{
    txn_fault(ctx->rt, cause, 0);
}

am_ref am_create(am_ctx *ctx, am_beh beh, uint32_t n, const am_word *st)
{
    am_rt *rt = ctx->rt;
    if (beh >= rt->cfg.nbehaviors) txn_fault(rt, AM_FAULT_BAD_BEHAVIOR, 0);
    if (n > rt->cfg.state_words) txn_fault(rt, AM_FAULT_STATE_TOO_LONG, 0);
    if (rt->ncreates >= rt->cfg.max_creates) txn_fault(rt, AM_FAULT_TOO_MANY_CREATES, 0);
    am_ref ref = alloc_slot(rt);
    if (ref == AM_NIL) txn_fault(rt, AM_FAULT_TABLE_FULL, 0);
    staged_create *c = &rt->creates[rt->ncreates++];
    c->ref = ref;
    c->beh = beh;
    c->n = n;
    copy_words(c->state, st, n, AM_MAX_STATE_WORDS);
    return ref;
}

static int created_here(const am_rt *rt, am_ref ref)
{
    for (uint32_t i = 0; i < rt->ncreates; i++)
        if (rt->creates[i].ref == ref) return 1;
    return 0;
}

void am_send(am_ctx *ctx, am_ref target, uint32_t n, const am_word *msg)
{
    am_rt *rt = ctx->rt;
    if (n > rt->cfg.msg_words) txn_fault(rt, AM_FAULT_MSG_TOO_LONG, 0);
    if (rt->nsends >= rt->cfg.max_sends) txn_fault(rt, AM_FAULT_TOO_MANY_SENDS, 0);
    if (!ref_valid(rt, target) && !created_here(rt, target))
        txn_fault(rt, AM_FAULT_BAD_REF, 0);
    event *ev = &rt->sends[rt->nsends++];
    ev->target = target;
    ev->len = n;
    copy_words(ev->msg, msg, n, AM_MAX_MSG_WORDS);
}

void am_become(am_ctx *ctx, am_beh beh, uint32_t n, const am_word *st)
{
    am_rt *rt = ctx->rt;
    if (beh >= rt->cfg.nbehaviors) txn_fault(rt, AM_FAULT_BAD_BEHAVIOR, 0);
    if (n > rt->cfg.state_words) txn_fault(rt, AM_FAULT_STATE_TOO_LONG, 0);
    rt->has_become = 1;
    rt->become_beh = beh;
    rt->become_n = n;
    copy_words(rt->become_state, st, n, AM_MAX_STATE_WORDS);
}

/* ---- dispatch, commit, abort ------------------------------------------------ */

static void trace_txn(am_rt *rt, int committed)
{
    am_trace_buf *b = &rt->tbuf;
    am_trace_begin(b, rt->seq, committed, rt->cur.target, rt->cur_beh,
                   rt->cur.len, rt->cur.msg);
    if (committed) {
        for (uint32_t i = 0; i < rt->ncreates; i++) {
            const staged_create *c = &rt->creates[i];
            am_trace_new(b, c->ref, c->beh, c->n, c->state);
        }
        for (uint32_t i = 0; i < rt->nsends; i++)
            am_trace_send(b, rt->sends[i].target, rt->sends[i].len, rt->sends[i].msg);
        if (rt->has_become)
            am_trace_become(b, rt->become_beh, rt->become_n, rt->become_state);
    } else {
        am_trace_fault(b, rt->fault_cause, rt->fault_code);
    }
    am_trace_end(b, rt->cfg.trace);
    if (rt->cfg.on_trace) rt->cfg.on_trace(rt->cfg.user, b->text, b->n);
}

static void do_abort(am_rt *rt)
{
    if (rt->seq == rt->cfg.test_perturb_seq) rt->fault_code ^= 1u;
    rt->free_top = rt->snap_free_top;
    rt->next = rt->snap_next;
    rt->aborts++;
    rt->faults++;
    am_fault_record *r = &rt->last_fault;
    r->seq = rt->seq;
    r->cause = rt->fault_cause;
    r->code = rt->fault_code;
    r->target = rt->cur.target;
    r->beh = rt->cur_beh;
    r->len = rt->cur.len;
    memcpy(r->msg, rt->cur.msg, sizeof r->msg);
    rt->have_fault = 1;
    if (rt->tracing) trace_txn(rt, 0);
    if (rt->cfg.on_fault) rt->cfg.on_fault(rt->cfg.user, r);
}

static void do_commit(am_rt *rt)
{
    if (rt->seq == rt->cfg.test_perturb_seq) {
        if (rt->nsends) rt->sends[0].msg[0] ^= 1u;
        else if (rt->has_become) rt->become_state[0] ^= 1u;
        else if (rt->ncreates) rt->creates[0].state[0] ^= 1u;
    }
    for (uint32_t i = 0; i < rt->ncreates; i++) {
        const staged_create *c = &rt->creates[i];
        make_live(rt, c->ref, c->beh, c->n, c->state);
    }
    if (rt->has_become) {
        uint32_t slot = SLOT_OF(rt->cur.target);
        am_word *dst = &rt->state[(size_t)slot * AM_MAX_STATE_WORDS];
        rt->beh[slot] = rt->become_beh;
        copy_words(dst, rt->become_state, rt->become_n, AM_MAX_STATE_WORDS);
    }
    for (uint32_t i = 0; i < rt->nsends; i++)
        enqueue(rt, &rt->sends[i]);
    update_hwm(rt);
    rt->commits++;
    if (rt->tracing) trace_txn(rt, 1);
}

am_status am_step(am_rt *rt)
{
    if (rt->in_dispatch) return AM_E_REENTRANT;
    if (rt->count == 0) return AM_E_EMPTY;

    rt->cur = rt->queue[rt->head];
    if (++rt->head == rt->cfg.queue_depth) rt->head = 0;
    rt->count--;
    rt->seq++;
    rt->dispatches++;
    rt->ncreates = 0;
    rt->nsends = 0;
    rt->has_become = 0;
    rt->fault_cause = AM_FAULT_NONE;
    rt->fault_code = 0;
    rt->snap_free_top = rt->free_top;
    rt->snap_next = rt->next;

    if (!ref_valid(rt, rt->cur.target)) {
        rt->cur_beh = NO_BEH;
        rt->fault_cause = AM_FAULT_DEAD_TARGET;
        do_abort(rt);
        return AM_OK;
    }
    uint32_t slot = SLOT_OF(rt->cur.target);
    rt->cur_beh = rt->beh[slot];

    rt->in_dispatch = 1;
    if (setjmp(rt->abort_jmp) == 0) {
        rt->cfg.behaviors[rt->cur_beh].fn(&rt->ctx);
        if (rt->count + rt->nsends > rt->cfg.queue_depth) {
            rt->fault_cause = AM_FAULT_QUEUE_FULL;
            rt->fault_code = 0;
        }
    }
    rt->in_dispatch = 0;
    if (rt->fault_cause != AM_FAULT_NONE)
        do_abort(rt);
    else
        do_commit(rt);
    return AM_OK;
}

am_status am_run(am_rt *rt, uint64_t max_dispatches)
{
    uint64_t n = 0;
    for (;;) {
        if (max_dispatches && n == max_dispatches)
            return rt->count ? AM_E_LIMIT : AM_OK;
        am_status s = am_step(rt);
        if (s == AM_E_EMPTY) return AM_OK;
        if (s != AM_OK) return s;
        n++;
    }
}

/* ---- ASK ----------------------------------------------------------------- */

am_status am_ask(am_rt *rt, am_ref target, uint32_t n, const am_word *req,
                 uint64_t max_dispatches, am_word reply[AM_MAX_MSG_WORDS],
                 uint32_t *reply_len)
{
    if (rt->in_dispatch) return AM_E_REENTRANT;
    if (n + 1 > rt->cfg.msg_words) return AM_E_TOO_LONG;
    if (!ref_valid(rt, target)) return AM_E_BAD_REF;
    if (rt->count >= rt->cfg.queue_depth) return AM_E_QUEUE_FULL;

    uint32_t ticket = rt->ask_next_ticket++;
    if (rt->ask_next_ticket == 0) rt->ask_next_ticket = 1;
    am_word st[1] = { ticket };
    am_ref cust;
    am_status s = am_spawn(rt, AM_BEH_ASK, 1, st, &cust);
    if (s != AM_OK) return s;
    am_word msg[AM_MAX_MSG_WORDS];
    msg[0] = cust;
    copy_words(msg + 1, req, n, n);
    s = am_inject(rt, target, n + 1, msg);
    if (s != AM_OK) return s;   /* cannot happen: checked above */

    uint32_t saved = rt->ask_ticket;   /* asks may nest via callbacks */
    rt->ask_ticket = ticket;
    rt->ask_done = 0;
    uint64_t k = 0;
    for (;;) {
        if (rt->ask_done) { s = AM_OK; break; }
        if (max_dispatches && k == max_dispatches) { s = AM_E_LIMIT; break; }
        if (am_step(rt) == AM_E_EMPTY) { s = AM_E_NO_REPLY; break; }
        k++;
    }
    if (s == AM_OK) {
        memcpy(reply, rt->ask_reply, sizeof rt->ask_reply);
        if (reply_len) *reply_len = rt->ask_len;
    }
    rt->ask_ticket = saved;
    rt->ask_done = 0;
    return s;
}

/* ---- built-in behaviors (ids 0..2) ------------------------------------------- */

static void out_bytes(am_rt *rt, const char *p, size_t n)
{
    if (rt->cfg.on_output) rt->cfg.on_output(rt->cfg.user, p, n);
    else fwrite(p, 1, n, stdout);
}

void am_builtin_console(am_ctx *ctx);
void am_builtin_console(am_ctx *ctx)
{
    char buf[AM_CONSOLE_LINE_MAX];
    am_rt *rt = ctx->rt;
    out_bytes(rt, buf, am_console_format(rt->cur.len, rt->cur.msg, buf));
}

void am_builtin_sink(am_ctx *ctx);
void am_builtin_sink(am_ctx *ctx) { (void)ctx; }

/* The one-shot customer of am_ask: state[0] is its ticket. It hands its
 * message to the ask in progress and becomes a sink, so a second reply is
 * accepted and ignored, visibly, in the trace. */
void am_builtin_ask(am_ctx *ctx);
void am_builtin_ask(am_ctx *ctx)
{
    am_rt *rt = ctx->rt;
    if (am_state(ctx, 0) == rt->ask_ticket && rt->ask_ticket != 0) {
        rt->ask_done = 1;
        rt->ask_len = rt->cur.len;
        memcpy(rt->ask_reply, rt->cur.msg, sizeof rt->ask_reply);
    }
    am_become(ctx, AM_BEH_SINK, 0, NULL);
}

/* ---- inspection ------------------------------------------------------------- */

void am_get_counters(const am_rt *rt, am_counters *out)
{
    out->dispatches = rt->dispatches;
    out->commits = rt->commits;
    out->aborts = rt->aborts;
    out->faults = rt->faults;
    out->queue_len = rt->count;
    out->queue_high_water = rt->hwm;
    out->live = rt->nlive;
    out->seq = rt->seq;
}

const am_fault_record *am_last_fault(const am_rt *rt)
{
    return rt->have_fault ? &rt->last_fault : NULL;
}

am_status am_peek(const am_rt *rt, am_ref ref, am_beh *beh, am_word st[AM_MAX_STATE_WORDS])
{
    if (!ref_valid(rt, ref)) return AM_E_BAD_REF;
    uint32_t slot = SLOT_OF(ref);
    if (beh) *beh = rt->beh[slot];
    if (st) memcpy(st, &rt->state[(size_t)slot * AM_MAX_STATE_WORDS],
                   AM_MAX_STATE_WORDS * sizeof *st);
    return AM_OK;
}

void am_fault_print(FILE *f, const am_fault_record *r)
{
    fprintf(f, "fault seq=%llu cause=%s code=%08x target=%08x beh=",
            (unsigned long long)r->seq, am_fault_name(r->cause),
            (unsigned)r->code, (unsigned)r->target);
    if (r->beh == NO_BEH) fprintf(f, "-"); else fprintf(f, "%u", (unsigned)r->beh);
    fprintf(f, " msg=[");
    for (uint32_t i = 0; i < r->len; i++)
        fprintf(f, i ? " %08x" : "%08x", (unsigned)r->msg[i]);
    fprintf(f, "]\n");
}

am_beh am_behavior_by_name(const am_behavior_desc *tab, uint32_t n, const char *name)
{
    for (uint32_t i = 0; i < n; i++)
        if (strcmp(tab[i].name, name) == 0) return i;
    return NO_BEH;
}
