/*
 * am_rt.c — the reference runtime: actor table, event queue, transactional
 * dispatch. The rules implemented here are docs/semantics.md, clause by
 * clause; the hardware (rtl/) implements the same ones and the lockstep
 * co-simulation holds the two to it.
 *
 * Layout, chosen for the dispatch loop (docs/performance.md):
 *   - The actor table is one 48-byte record per slot {state[8], gen<<16 |
 *     live, beh}, so a reference check is one load and compare, and dispatch
 *     touches one record per actor. State words past the written length are
 *     stored as 0, so am_state needs no length.
 *   - The event queue is a ring of queue_depth + max_sends slots. The event
 *     in dispatch is read in place at its ring slot (it has left the queue),
 *     and SENDs are staged directly in the slots after the tail; commit adds
 *     their number to the count, abort simply does not. The extra max_sends
 *     slots guarantee that staging never overwrites a queued event or the
 *     event in dispatch, whatever the outcome of the QUEUE_FULL check at
 *     commit. Message words past the length are stored as 0.
 *   - CREATE, BECOME and SEND stage their words zero-filled to 8, so commit
 *     copies fixed 32-byte blocks; the actor table is written only at
 *     commit. The allocator snapshot is taken by the first CREATE (nothing
 *     else allocates during a transaction).
 *   - The abort jump is armed once per am_run/am_step (run_loop), not per
 *     dispatch, with __builtin_setjmp where available.
 */
/* sigaction, setitimer (the watchdog) are POSIX/XSI, not C11 */
#define _XOPEN_SOURCE 700
#include "am_rt.h"

#include <setjmp.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include "am_console.h"
#include "am_iface.h"
#include "am_trace.h"

#define SLOT_OF(ref) ((ref) & 0xffffu)
#define GEN_OF(ref)  ((ref) >> 16)
#define MAKE_REF(gen, slot) (((am_word)(gen) << 16) | (am_word)(slot))
/* The table word of a live slot whose reference is ref: gen << 16 | 1. */
#define LIVE_KEY(ref) (((ref) & 0xffff0000u) | 1u)
#define NO_BEH 0xffffffffu

/* Orders the runtime's own stores against the watchdog's signal handler
 * (a compiler barrier: no instruction). */
#define SIGNAL_FENCE() __atomic_signal_fence(__ATOMIC_SEQ_CST)
#define WD_TICK_MS 50u   /* the watchdog's tick (CPU time) */

#if defined(__GNUC__) || defined(__clang__)
#define LIKELY(x)   __builtin_expect(!!(x), 1)
#define UNLIKELY(x) __builtin_expect(!!(x), 0)
#define NOINLINE    __attribute__((noinline))
#define INLINE      static inline __attribute__((always_inline))
#else
#define LIKELY(x)   (x)
#define UNLIKELY(x) (x)
#define NOINLINE
#define INLINE      static inline
#endif

/* The abort jump. __builtin_setjmp/__builtin_longjmp save and restore only
 * the frame and stack pointers and a resume address (no signal mask, no
 * libc call); AddressSanitizer does not know them, so sanitized builds (and
 * other compilers) use setjmp/longjmp. */
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(hwaddress_sanitizer)
#define AM_PLAIN_SETJMP 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_HWADDRESS__)
#define AM_PLAIN_SETJMP 1
#endif
#if (defined(__GNUC__) || defined(__clang__)) && !defined(AM_PLAIN_SETJMP) && \
    (defined(__x86_64__) || defined(__i386__) || defined(__aarch64__))
typedef void *am_jmp_buf[5];
#define AM_SETJMP(b)  __builtin_setjmp(b)
#define AM_LONGJMP(b) __builtin_longjmp((b), 1)
#else
typedef jmp_buf am_jmp_buf;
#define AM_SETJMP(b)  setjmp(b)
#define AM_LONGJMP(b) longjmp((b), 1)
#endif

/* 48-byte records, 16-byte aligned (calloc), words first: the 16-byte
 * block moves of the 8 words never straddle a cache line. */
typedef struct event {
    _Alignas(16) am_word msg[AM_MAX_MSG_WORDS];   /* words past len are 0 */
    am_ref target;
    uint32_t len;
} event;

typedef struct actor {
    _Alignas(16) am_word st[AM_MAX_STATE_WORDS];  /* past the written length: 0 */
    uint32_t gl;                     /* generation << 16 | live (0 = never used) */
    am_beh beh;
    uint32_t flags;                  /* A_PINNED, A_MARK (docs/gc.md) */
} actor;

#define A_PINNED 1u                  /* a root: the console, spawned actors */
#define A_MARK   2u                  /* reached, during a collection only */

typedef struct staged_create {
    am_ref ref;
    am_beh beh;
    uint32_t n;                      /* state words given (the trace prints them) */
    am_word state[AM_MAX_STATE_WORDS];   /* words past n are 0 */
} staged_create;

/* The behavior's context is the first member of the runtime. */
struct am_ctx {
    char unused_;
};

struct am_rt {
    am_ctx ctx;                      /* must stay first: RT_OF(ctx) */

    /* ---- hot: the dispatch loop and the behavior's view ---- */
    const event *cur;                /* the event in dispatch (its ring slot) */
    am_word *self_st;                /* self's state words in the table */
    am_beh cur_beh;
    uint32_t nsends, ncreates;
    uint32_t has_become;             /* BECOME_WHOLE | BECOME_WORDS */
    uint32_t has_handler;            /* staged SET_HANDLER */
    am_ref staged_handler;
    am_beh become_beh;
    uint32_t become_n;
    am_word become_state[AM_MAX_STATE_WORDS];
    uint32_t state_set;              /* am_set_state: the words set (BECOME_WORDS) */
    am_word state_setv[AM_MAX_STATE_WORDS];
    /* am_send_word: the words set for the send staged after nsends sends of
     * transaction seq (so no send or dispatch has to clear them) */
    uint32_t send_set, send_set_at;
    uint64_t send_set_seq;
    am_word send_setv[AM_MAX_MSG_WORDS];

    actor *actors;
    event *ring;                     /* ring of cap = queue_depth + max_sends */
    uint32_t cap;
    uint32_t head, count, hwm;

    /* configured bounds (copies of cfg) */
    uint32_t table_size, queue_depth, msg_words, state_words;
    uint32_t max_sends, max_creates, nbehaviors;
    const am_behavior_desc *behaviors;

    staged_create *creates;
    uint32_t *free_stack;            /* slots released by reclamation */
    uint32_t free_top;               /* entries in free_stack */
    uint32_t next;                   /* lowest never-used slot */
    uint32_t nlive;
    uint32_t snap_free_top, snap_next; /* taken by the first CREATE */
    uint64_t snap_seq;               /* the transaction that took them */

    /* ---- garbage collection (docs/gc.md) ---- */
    uint32_t gc_low, gc_period;      /* the triggers (am_config) */
    uint32_t since_gc;               /* dispatches since the last collection */
    uint32_t gc_armed;               /* the low-water trigger is armed: the last
                                        collection left >= 2 * gc_low free */
    uint64_t gc_seq;                 /* the last collection ran after this
                                        transaction (GC_SEQ_NONE: none since a
                                        transaction or am_unpin) */
    uint64_t gc_demand;              /* collections run on demand */
    uint32_t *gc_stack;              /* the mark stack */
    uint64_t gc_runs, gc_reclaimed;
    uint32_t gc_live_max, gc_live_last;
    uint64_t gc_ns;                  /* time spent collecting (am_counters) */

    int in_dispatch;                 /* 1: a built-in behavior runs, 2: a program's */
    uint32_t verdict;                /* am_step_abort: the cause to abort with */
    /* the watchdog (am_config.watchdog_ms): ticks of WD_TICK_MS seen by the
     * same dispatch (wd_seq) while a program's behavior ran */
    uint32_t wd_limit, wd_ticks;
    uint64_t wd_seq;
    int tracing;                     /* trace file or callback set */
    int commit_hooks;                /* tracing or test_perturb_seq set */
    uint32_t fault_cause;
    am_word fault_code;
    uint32_t fault_op;               /* enum am_fault_op */
    am_word fault_value;             /* the offending value (docs/semantics.md) */
    uint64_t seq, commits, aborts, faults;   /* dispatches = seq */
    uint64_t perturb_seq;
    uint64_t end_seq;                /* the innermost run stops at this seq */
    am_jmp_buf abort_jmp;

    /* ---- fault delivery (docs/semantics.md) ---- */
    am_ref handler;                  /* the fault handler, AM_NIL: none */
    int redirect;                    /* the failed event awaits delivery */
    int cur_is_delivery;             /* the event in dispatch is a delivery */
    am_fault_info cur_fault;         /* its fault record */
    event redirect_ev;               /* the failed event, retargeted */

    /* ---- cold ---- */
    am_config cfg;
    am_fault_record last_fault;
    int have_fault;

    /* ASK */
    uint32_t ask_ticket;      /* ticket of the ask in progress, 0 = none */
    uint32_t ask_next_ticket;
    int ask_done;
    uint32_t ask_len;
    am_word ask_reply[AM_MAX_MSG_WORDS];

    am_trace_buf tbuf;
};

#define RT_OF(ctx) ((am_rt *)(void *)(ctx))

/* The collector (docs/gc.md, "When it runs"). */
#define GC_SEQ_NONE UINT64_MAX
/* dispatches added to the period per live actor (include/am_iface.def) */
#define GC_LIVE_SCALE (1u << AM_DEFAULT_GC_LIVE_SHIFT)
/* The internal cause of a CREATE that found no free slot while no
 * collection has run for its transaction yet: not a fault, the transaction
 * is retried after one (do_retry). Never recorded, traced or delivered. */
#define CAUSE_RETRY 0x100u
static uint32_t gc_collect(am_rt *rt, int on_demand);
/* The collector is on unless both triggers are 0 (then nothing is
 * collected automatically, not even on demand). */
INLINE int gc_on(const am_rt *rt) { return rt->gc_low != 0 || rt->gc_period != 0; }
#define CRT_OF(ctx) ((const am_rt *)(const void *)(ctx))

/* Copy n <= 8 words, one word at a time (the source was usually just
 * written word by word by the behavior: wider loads would miss store
 * forwarding). No loop, no library call. */
INLINE void copy_n(am_word *restrict d, const am_word *restrict s, uint32_t n)
{
#if defined(__GNUC__) || defined(__clang__)
    if (n > 8) __builtin_unreachable();   /* callers checked the bound */
#endif
    switch (n) {
    case 8: d[7] = s[7]; /* fall through */
    case 7: d[6] = s[6]; /* fall through */
    case 6: d[5] = s[5]; /* fall through */
    case 5: d[4] = s[4]; /* fall through */
    case 4: d[3] = s[3]; /* fall through */
    case 3: d[2] = s[2]; /* fall through */
    case 2: d[1] = s[1]; /* fall through */
    case 1: d[0] = s[0]; /* fall through */
    default: break;
    }
}

/* Store n words and zero the rest of an 8-word block. */
_Static_assert(AM_MAX_MSG_WORDS == 8 && AM_MAX_STATE_WORDS == 8,
               "message and state blocks are 8 words");
INLINE void put_words(am_word *restrict d, const am_word *restrict s, uint32_t n)
{
    memset(d, 0, 8 * sizeof *d);
    copy_n(d, s, n);
}

/* ---- names ------------------------------------------------------------- */

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
    /* the hardware's defaults (include/am_iface.def) */
    cfg->table_size = AM_DEFAULT_TABLE_SLOTS;
    cfg->queue_depth = (1u << AM_DEFAULT_QUEUE_AW) - 1;   /* one entry kept free */
    cfg->msg_words = AM_DEFAULT_MSG_WORDS;
    cfg->state_words = AM_DEFAULT_STATE_WORDS;
    cfg->max_sends = AM_DEFAULT_MAX_SENDS;
    cfg->max_creates = AM_DEFAULT_MAX_CREATES;
    cfg->fault_handler = AM_CONSOLE;
    cfg->gc_low = AM_DEFAULT_MAX_CREATES;   /* = max_creates: a transaction always finds its slots */
    cfg->gc_period = AM_DEFAULT_GC_PERIOD;
    cfg->watchdog_ms = 1000;
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
        cfg.max_creates > (1u << 16) || cfg.gc_period > 0xffffu ||
        cfg.watchdog_ms > AM_WATCHDOG_MS_MAX)
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
    rt->wd_limit = (cfg.watchdog_ms + WD_TICK_MS - 1) / WD_TICK_MS;
    size_t ts = cfg.table_size;
    rt->table_size = cfg.table_size;
    rt->queue_depth = cfg.queue_depth;
    rt->msg_words = cfg.msg_words;
    rt->state_words = cfg.state_words;
    rt->max_sends = cfg.max_sends;
    rt->max_creates = cfg.max_creates;
    rt->nbehaviors = cfg.nbehaviors;
    rt->behaviors = cfg.behaviors;
    rt->perturb_seq = cfg.test_perturb_seq;
    /* queue_depth queued events + the one in dispatch + max_sends staged,
     * of which at most queue_depth - 1 + max_sends are distinct from the
     * event in dispatch: cap = queue_depth + max_sends (<= 2^24 + 2^16). */
    rt->cap = cfg.queue_depth + cfg.max_sends;
    rt->actors = calloc(ts, sizeof *rt->actors);
    rt->free_stack = calloc(ts, sizeof *rt->free_stack);
    rt->gc_stack = calloc(ts, sizeof *rt->gc_stack);
    rt->ring = calloc(rt->cap, sizeof *rt->ring);
    rt->creates = calloc(cfg.max_creates, sizeof *rt->creates);
    if (!rt->actors || !rt->free_stack || !rt->gc_stack || !rt->ring || !rt->creates) {
        am_rt_free(rt);
        return AM_E_NOMEM;
    }
    /* Slot 0: the console, live from reset with generation 1. */
    rt->actors[0].gl = LIVE_KEY(AM_CONSOLE);
    rt->actors[0].beh = AM_BEH_CONSOLE;
    rt->actors[0].flags = A_PINNED;
    rt->gc_low = cfg.gc_low;
    rt->gc_period = cfg.gc_period;
    rt->gc_armed = 1;
    rt->gc_seq = GC_SEQ_NONE;
    rt->nlive = 1;
    rt->next = 1;
    rt->ask_next_ticket = 1;
    rt->handler = cfg.fault_handler;
    rt->tracing = cfg.trace != NULL || cfg.on_trace != NULL;
    rt->commit_hooks = rt->tracing || cfg.test_perturb_seq != 0;
    *out = rt;
    return AM_OK;
}

void am_rt_free(am_rt *rt)
{
    if (!rt) return;
    free(rt->actors);
    free(rt->free_stack);
    free(rt->gc_stack);
    free(rt->ring);
    free(rt->creates);
    free(rt);
}

/* ---- the actor table ------------------------------------------------------ */

INLINE int ref_valid(const am_rt *rt, am_ref ref)
{
    uint32_t slot = SLOT_OF(ref);
    return slot < rt->table_size && rt->actors[slot].gl == LIVE_KEY(ref);
}

/* Allocate a slot (free stack first, then the bump pointer); returns the
 * new reference or AM_NIL when the table is full. Nothing is made live. */
INLINE am_ref alloc_slot(am_rt *rt)
{
    uint32_t slot;
    if (UNLIKELY(rt->free_top > 0))
        slot = rt->free_stack[--rt->free_top];
    else if (LIKELY(rt->next < rt->table_size))
        slot = rt->next++;
    else
        return AM_NIL;
    uint32_t g = (rt->actors[slot].gl >> 16) + 1;
    if (g > 0xffffu) g = 1;
    return MAKE_REF(g, slot);
}

/* ---- the event queue ------------------------------------------------------ */

INLINE uint32_t ring_index(const am_rt *rt, uint32_t i)
{
    /* i < 2 * cap */
    return i >= rt->cap ? i - rt->cap : i;
}

INLINE void update_hwm(am_rt *rt)
{
    if (rt->count > rt->hwm) rt->hwm = rt->count;
}

/* ---- host operations outside transactions ---------------------------------- */

static am_status spawn(am_rt *rt, am_beh beh, uint32_t n, const am_word *st, uint32_t flags,
                       am_ref *out)
{
    if (rt->in_dispatch) return AM_E_REENTRANT;
    if (beh >= rt->nbehaviors) return AM_E_BAD_BEHAVIOR;
    if (n > rt->state_words) return AM_E_TOO_LONG;
    am_ref ref = alloc_slot(rt);
    if (ref == AM_NIL && gc_on(rt) && rt->gc_seq != rt->seq) {
        gc_collect(rt, 1);            /* garbage never makes a spawn fail */
        ref = alloc_slot(rt);
    }
    if (ref == AM_NIL) return AM_E_TABLE_FULL;
    actor *a = &rt->actors[SLOT_OF(ref)];
    a->beh = beh;
    put_words(a->st, st, n);
    a->gl = LIVE_KEY(ref);
    a->flags = flags;
    rt->nlive++;
    if (out) *out = ref;
    return AM_OK;
}

am_status am_spawn(am_rt *rt, am_beh beh, uint32_t n, const am_word *st, am_ref *out)
{
    return spawn(rt, beh, n, st, A_PINNED, out);
}

am_status am_unpin(am_rt *rt, am_ref ref)
{
    if (rt->in_dispatch) return AM_E_REENTRANT;
    if (!ref_valid(rt, ref) || SLOT_OF(ref) == 0) return AM_E_BAD_REF;
    rt->actors[SLOT_OF(ref)].flags &= ~A_PINNED;
    rt->gc_seq = GC_SEQ_NONE;        /* it may be garbage now: a full table collects again */
    return AM_OK;
}

am_status am_inject(am_rt *rt, am_ref target, uint32_t n, const am_word *msg)
{
    if (rt->in_dispatch) return AM_E_REENTRANT;
    if (n > rt->msg_words) return AM_E_TOO_LONG;
    if (!ref_valid(rt, target)) return AM_E_BAD_REF;
    if (rt->count >= rt->queue_depth) return AM_E_QUEUE_FULL;
    event *ev = &rt->ring[ring_index(rt, rt->head + rt->count)];
    ev->target = target;
    ev->len = n;
    put_words(ev->msg, msg, n);
    rt->count++;
    update_hwm(rt);
    return AM_OK;
}

/* ---- the behavior's view -------------------------------------------------- */

am_ref am_self(const am_ctx *ctx) { return CRT_OF(ctx)->cur->target; }
am_beh am_my_behavior(const am_ctx *ctx) { return CRT_OF(ctx)->cur_beh; }
uint32_t am_msg_len(const am_ctx *ctx) { return CRT_OF(ctx)->cur->len; }

am_word am_msg(const am_ctx *ctx, uint32_t i)
{
    /* words past len are 0 in the event (inject and send zero-fill) */
    return i < AM_MAX_MSG_WORDS ? CRT_OF(ctx)->cur->msg[i] : 0;
}

am_word am_state(const am_ctx *ctx, uint32_t i)
{
    /* words at or past state_words are always 0 in the table (CREATE,
     * BECOME and spawn store at most state_words words and zero the rest) */
    return i < AM_MAX_STATE_WORDS ? CRT_OF(ctx)->self_st[i] : 0;
}

/* ---- staging -------------------------------------------------------------- */

/* Leave the behavior with a fault: its cause, the operation and the
 * offending value (docs/semantics.md, "Fault records"); the code is the
 * value for FAIL (am_fail's argument), else 0. */
_Noreturn static NOINLINE void txn_fault(am_rt *rt, uint32_t cause, uint32_t op, am_word value)
{
    rt->in_dispatch = 0;          /* the watchdog leaves a failing behavior be */
    SIGNAL_FENCE();
    rt->fault_cause = cause;
    rt->fault_code = cause == AM_FAULT_FAIL ? value : 0;
    rt->fault_op = op;
    rt->fault_value = value;
    AM_LONGJMP(rt->abort_jmp);
}

/* A length in a fault record: as the hardware's address carries it. */
INLINE am_word fault_len(uint32_t n) { return n > AM_FAULT_LEN_MAX ? AM_FAULT_LEN_MAX : n; }

void am_fail(am_ctx *ctx, am_word code)
{
    txn_fault(RT_OF(ctx), AM_FAULT_FAIL, AM_OP_ABORT, code);
}

/* The firmware reports a trap with an ABORT[cause] store of 0; WATCHDOG and
 * STACK are the unit's own aborts of the running behavior. */
void am_host_trap(am_ctx *ctx, uint32_t cause)
{
    uint32_t op = cause == AM_FAULT_WATCHDOG || cause == AM_FAULT_STACK ? AM_OP_RUN : AM_OP_ABORT;
    txn_fault(RT_OF(ctx), cause, op, 0);
}

/* A CREATE found no free slot (docs/gc.md, "When it runs"): TABLE_FULL if a
 * collection ran since the last transaction (that collection found none), in
 * a fault delivery, or with the collector off; otherwise the transaction is
 * retried after a collection. */
static NOINLINE uint32_t table_full_cause(const am_rt *rt)
{
    if (rt->gc_seq + 1 == rt->seq || rt->cur_is_delivery || !gc_on(rt)) return AM_FAULT_TABLE_FULL;
    return CAUSE_RETRY;
}

am_ref am_create(am_ctx *ctx, am_beh beh, uint32_t n, const am_word *st)
{
    am_rt *rt = RT_OF(ctx);
    if (UNLIKELY(beh >= rt->nbehaviors)) txn_fault(rt, AM_FAULT_BAD_BEHAVIOR, AM_OP_CREATE, beh);
    if (UNLIKELY(n > rt->state_words))
        txn_fault(rt, AM_FAULT_STATE_TOO_LONG, AM_OP_CREATE, fault_len(n));
    uint32_t nc = rt->ncreates;
    if (UNLIKELY(nc >= rt->max_creates)) txn_fault(rt, AM_FAULT_TOO_MANY_CREATES, AM_OP_CREATE, beh);
    if (nc == 0) {
        /* the allocator as the transaction found it (only CREATE allocates;
         * abort restores it when this transaction took it: also when the
         * watchdog interrupts alloc_slot before ncreates counts the slot) */
        rt->snap_free_top = rt->free_top;
        rt->snap_next = rt->next;
        SIGNAL_FENCE();
        rt->snap_seq = rt->seq;
        SIGNAL_FENCE();
    }
    am_ref ref = alloc_slot(rt);
    if (UNLIKELY(ref == AM_NIL)) txn_fault(rt, table_full_cause(rt), AM_OP_CREATE, beh);
    rt->ncreates = nc + 1;
    staged_create *c = &rt->creates[nc];
    c->ref = ref;
    c->beh = beh;
    c->n = n;
    put_words(c->state, st, n);
    return ref;
}

/* Created earlier in this transaction? (newest first: a SEND to a fresh
 * actor usually follows its CREATE) */
INLINE int created_here(const am_rt *rt, am_ref ref)
{
    for (uint32_t i = rt->ncreates; i-- > 0;)
        if (rt->creates[i].ref == ref) return 1;
    return 0;
}

void am_send(am_ctx *ctx, am_ref target, uint32_t n, const am_word *msg)
{
    am_rt *rt = RT_OF(ctx);
    if (UNLIKELY(n > rt->msg_words)) txn_fault(rt, AM_FAULT_MSG_TOO_LONG, AM_OP_SEND, fault_len(n));
    if (UNLIKELY(rt->nsends >= rt->max_sends))
        txn_fault(rt, AM_FAULT_TOO_MANY_SENDS, AM_OP_SEND, target);
    /* valid, or created earlier in this transaction */
    if (!ref_valid(rt, target) && !created_here(rt, target))
        txn_fault(rt, AM_FAULT_BAD_REF, AM_OP_SEND, target);
    /* Staged in the ring slot after the last staged one; this never reaches
     * a queued event nor the event in dispatch (cap, see am_rt_new). */
    uint32_t ns = rt->nsends;
    event *ev = &rt->ring[ring_index(rt, rt->head + rt->count + ns)];
    rt->nsends = ns + 1;
    ev->target = target;
    ev->len = n;
    put_words(ev->msg, msg, n);
}

void am_set_fault_handler(am_ctx *ctx, am_ref handler)
{
    am_rt *rt = RT_OF(ctx);
    if (handler != AM_NIL && SLOT_OF(handler) >= rt->table_size)
        txn_fault(rt, AM_FAULT_BAD_REF, AM_OP_SET_HANDLER, handler);
    rt->has_handler = 1;
    rt->staged_handler = handler;
}

int am_fault(const am_ctx *ctx, am_fault_info *info)
{
    const am_rt *rt = CRT_OF(ctx);
    if (!rt->cur_is_delivery) return 0;
    *info = rt->cur_fault;
    return 1;
}

/* has_become: what the transaction stages for self's next state */
#define BECOME_WHOLE 1u   /* am_become: behavior and every word */
#define BECOME_WORDS 2u   /* am_set_state since then: the words in state_set */

void am_become(am_ctx *ctx, am_beh beh, uint32_t n, const am_word *st)
{
    am_rt *rt = RT_OF(ctx);
    if (UNLIKELY(beh >= rt->nbehaviors)) txn_fault(rt, AM_FAULT_BAD_BEHAVIOR, AM_OP_BECOME, beh);
    if (UNLIKELY(n > rt->state_words))
        txn_fault(rt, AM_FAULT_STATE_TOO_LONG, AM_OP_BECOME, fault_len(n));
    rt->has_become = BECOME_WHOLE;    /* the words set before are replaced too */
    rt->become_beh = beh;
    rt->become_n = n;
    put_words(rt->become_state, st, n);
}

void am_set_state(am_ctx *ctx, uint32_t i, am_word w)
{
    am_rt *rt = RT_OF(ctx);
    if (UNLIKELY(i >= rt->state_words))
        txn_fault(rt, AM_FAULT_STATE_TOO_LONG, AM_OP_BECOME, fault_len(i < AM_FAULT_LEN_MAX ? i + 1 : i));
    if (!(rt->has_become & BECOME_WORDS)) rt->state_set = 0;
    rt->has_become |= BECOME_WORDS;
    rt->state_set |= 1u << i;
    rt->state_setv[i] = w;
}

void am_send_word(am_ctx *ctx, uint32_t i, am_word w)
{
    am_rt *rt = RT_OF(ctx);
    if (UNLIKELY(i >= rt->msg_words))
        txn_fault(rt, AM_FAULT_MSG_TOO_LONG, AM_OP_SEND, fault_len(i < AM_FAULT_LEN_MAX ? i + 1 : i));
    if (rt->send_set_seq != rt->seq || rt->send_set_at != rt->nsends) {
        rt->send_set = 0;
        rt->send_set_seq = rt->seq;
        rt->send_set_at = rt->nsends;
    }
    rt->send_set |= 1u << i;
    rt->send_setv[i] = w;
}

void am_forward(am_ctx *ctx, am_ref target, uint32_t n, int32_t from)
{
    am_rt *rt = RT_OF(ctx);
    uint32_t set = rt->send_set_seq == rt->seq && rt->send_set_at == rt->nsends ? rt->send_set : 0;
    am_word w[AM_MAX_MSG_WORDS];
    for (uint32_t i = 0; i < AM_MAX_MSG_WORDS; i++) {
        int64_t j = (int64_t)i + from;
        w[i] = (set >> i & 1u) ? rt->send_setv[i]
             : (j >= 0 && j < (int64_t)rt->cur->len) ? rt->cur->msg[j] : 0;
    }
    am_send(ctx, target, n, w);
}

/* ---- garbage collection (docs/gc.md) ----------------------------------------- */

/* Mark the actor a word refers to, if it is a valid reference to an actor
 * not marked yet, and push it on the mark stack. Any word may be a
 * reference (conservative), but only a valid one, generation included,
 * keeps an actor alive. */
INLINE void gc_word(am_rt *rt, uint32_t *sp, am_word w)
{
    uint32_t slot = SLOT_OF(w);
    if (slot < rt->table_size) {
        actor *a = &rt->actors[slot];
        if (a->gl == LIVE_KEY(w) && !(a->flags & A_MARK)) {
            a->flags |= A_MARK;
            rt->gc_stack[(*sp)++] = slot;
        }
    }
}

INLINE void gc_event(am_rt *rt, uint32_t *sp, const event *ev)
{
    gc_word(rt, sp, ev->target);
    for (uint32_t i = 0; i < ev->len; i++) gc_word(rt, sp, ev->msg[i]);
}

/* Stop-the-world mark and sweep, between transactions, exactly as the
 * hardware's collector (rtl/am_gc.v) does it, so that the free stack comes
 * out in the same order:
 *   roots: the pinned actors, the fault handler, every queued event (target
 *   and message words below its length), a fault delivery not yet made;
 *   trace: the state words of every marked actor;
 *   sweep: slots next-1 down to 0; a live unmarked actor is reclaimed (live
 *   cleared, generation kept), and every slot that is not live afterwards is
 *   pushed on a rebuilt free stack, so the lowest free slot is reused first. */
static uint64_t mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static NOINLINE uint32_t gc_collect(am_rt *rt, int on_demand)
{
    uint64_t t0 = mono_ns();
    uint32_t sp = 0;
    for (uint32_t s = 0; s < rt->next; s++) {
        actor *a = &rt->actors[s];
        if ((a->gl & 1u) && (a->flags & A_PINNED)) {
            a->flags |= A_MARK;
            rt->gc_stack[sp++] = s;
        }
    }
    gc_word(rt, &sp, rt->handler);
    for (uint32_t i = 0, p = rt->head; i < rt->count; i++) {
        gc_event(rt, &sp, &rt->ring[p]);
        p = p + 1 == rt->cap ? 0 : p + 1;
    }
    if (rt->redirect) gc_event(rt, &sp, &rt->redirect_ev);
    while (sp) {
        const actor *a = &rt->actors[rt->gc_stack[--sp]];
        /* state words past the actor's length are 0, never a reference */
        for (uint32_t i = 0; i < AM_MAX_STATE_WORDS; i++) gc_word(rt, &sp, a->st[i]);
    }
    uint32_t reclaimed = 0, top = 0;
    for (uint32_t s = rt->next; s-- > 0;) {
        actor *a = &rt->actors[s];
        if (a->gl & 1u) {
            if (a->flags & A_MARK) {
                a->flags &= ~A_MARK;
                continue;
            }
            a->gl &= 0xffff0000u;          /* dead; the generation stays */
            a->flags = 0;
            reclaimed++;
        }
        rt->free_stack[top++] = s;
    }
    rt->free_top = top;
    rt->nlive -= reclaimed;
    rt->since_gc = 0;
    uint32_t free_after = top + rt->table_size - rt->next;
    rt->gc_armed = free_after / 2 >= rt->gc_low;   /* free_after >= 2 * gc_low */
    rt->gc_seq = rt->seq;
    rt->gc_demand += (uint64_t)(on_demand != 0);
    rt->gc_runs++;
    rt->gc_reclaimed += reclaimed;
    rt->gc_live_last = rt->nlive;
    if (rt->nlive > rt->gc_live_max) rt->gc_live_max = rt->nlive;
    rt->gc_ns += mono_ns() - t0;
    if (rt->tracing) {
        am_trace_buf *b = &rt->tbuf;
        am_trace_gc(b, rt->seq, reclaimed, rt->nlive, free_after, on_demand);
        am_trace_end(b, rt->cfg.trace);
        if (rt->cfg.on_trace) rt->cfg.on_trace(rt->cfg.user, b->text, b->n);
    }
    return reclaimed;
}

/* The proactive trigger, checked before every dispatch that takes an event
 * from the queue (never before a fault delivery): fewer than gc_low free
 * slots while armed (the last collection left at least 2 * gc_low), or
 * gc_period + GC_LIVE_SCALE * (live after the last collection) dispatches
 * since it -- a collection's work grows with the live actors, so its
 * period does too. A CREATE that finds no slot collects on demand
 * (table_full_cause, do_retry). */
INLINE int gc_due(const am_rt *rt)
{
    uint32_t free_slots = rt->free_top + (rt->table_size - rt->next);
    return (rt->gc_armed && free_slots < rt->gc_low) ||
           (rt->gc_period && rt->since_gc >= rt->gc_period + GC_LIVE_SCALE * rt->gc_live_last);
}

uint32_t am_gc(am_rt *rt)
{
    if (rt->in_dispatch) return 0;
    return gc_collect(rt, 0);
}

am_status am_collect_on_demand(am_rt *rt)
{
    if (rt->in_dispatch) return AM_E_REENTRANT;
    gc_collect(rt, 1);
    return AM_OK;
}

/* ---- dispatch, commit, abort ------------------------------------------------ */

static NOINLINE void trace_txn(am_rt *rt, int committed)
{
    am_trace_buf *b = &rt->tbuf;
    am_trace_begin(b, rt->seq, committed, rt->cur->target, rt->cur_beh,
                   rt->cur->len, rt->cur->msg);
    if (committed) {
        for (uint32_t i = 0; i < rt->ncreates; i++) {
            const staged_create *c = &rt->creates[i];
            am_trace_new(b, c->ref, c->beh, c->n, c->state);
        }
        uint32_t p = ring_index(rt, rt->head + rt->count - rt->nsends);
        for (uint32_t i = 0; i < rt->nsends; i++) {
            const event *ev = &rt->ring[p];
            am_trace_send(b, ev->target, ev->len, ev->msg);
            p = p + 1 == rt->cap ? 0 : p + 1;
        }
        if (rt->has_become & BECOME_WHOLE)
            am_trace_become(b, rt->become_beh, rt->become_n, rt->become_state);
        if (rt->has_become & BECOME_WORDS)
            for (uint32_t i = 0; i < AM_MAX_STATE_WORDS; i++)
                if (rt->state_set >> i & 1u) am_trace_state(b, i, rt->state_setv[i]);
        if (rt->has_handler)
            am_trace_handler(b, rt->staged_handler);
    } else {
        am_trace_fault(b, rt->fault_cause, rt->fault_code, rt->fault_op, rt->fault_value);
    }
    am_trace_end(b, rt->cfg.trace);
    if (rt->cfg.on_trace) rt->cfg.on_trace(rt->cfg.user, b->text, b->n);
}

static NOINLINE void do_abort(am_rt *rt)
{
    if (UNLIKELY(rt->seq == rt->perturb_seq)) rt->fault_code ^= 1u;
    if (rt->snap_seq == rt->seq) {   /* a CREATE took the snapshot */
        rt->free_top = rt->snap_free_top;
        rt->next = rt->snap_next;
    }
    rt->aborts++;
    rt->faults++;
    am_fault_record *r = &rt->last_fault;
    r->seq = rt->seq;
    r->cause = rt->fault_cause;
    r->code = rt->fault_code;
    r->target = rt->cur->target;
    r->beh = rt->cur_beh;
    r->op = rt->fault_op;
    r->value = rt->fault_value;
    r->len = rt->cur->len;
    memcpy(r->msg, rt->cur->msg, sizeof r->msg);
    rt->have_fault = 1;
    if (rt->tracing) trace_txn(rt, 0);
    /* the failed event goes next to the fault handler, same words; a failed
     * delivery is not delivered again (docs/semantics.md, Fault delivery) */
    if (!rt->cur_is_delivery && rt->handler != AM_NIL) {
        rt->redirect_ev = *rt->cur;
        rt->redirect_ev.target = rt->handler;
        rt->redirect = 1;
        rt->cur_fault.cause = r->cause;
        rt->cur_fault.code = r->code;
        rt->cur_fault.target = r->target;
        rt->cur_fault.beh = r->beh;
        rt->cur_fault.op = r->op;
        rt->cur_fault.value = r->value;
    }
    if (rt->cfg.on_fault) rt->cfg.on_fault(rt->cfg.user, r);
}

/* The transaction's CREATE found no free slot and no collection has run for
 * it (CAUSE_RETRY): it never happened -- no record, no trace line, no
 * counter, no delivery; its staged effects are dropped and the allocator is
 * restored as for an abort. The event goes back to the head of the queue
 * (its ring slot is untouched: staged sends never reach it) and keeps its
 * sequence number; a collection runs, on demand, and the event is
 * dispatched again next, where a CREATE that finds no slot is TABLE_FULL. */
static NOINLINE void do_retry(am_rt *rt)
{
    if (rt->snap_seq == rt->seq) {
        rt->free_top = rt->snap_free_top;
        rt->next = rt->snap_next;
    }
    rt->snap_seq = 0;                 /* the dispatch again takes its own */
    rt->head = rt->head == 0 ? rt->cap - 1 : rt->head - 1;
    rt->count++;
    rt->seq--;
    rt->wd_ticks = 0;                 /* the watchdog times the dispatch again afresh */
    gc_collect(rt, 1);
}

/* The test-only perturbation of a committing transaction (am_config): bit 0
 * of word 0 of its first send, else of its BECOME state (or its lowest
 * word staged by am_set_state), else of its first
 * CREATE's state. As always: a send carries all 8 staged words into the
 * queue (am_msg reads them), a BECOME or CREATE stores only its n words, so
 * a flipped word past n is not stored. */
static NOINLINE void perturb_commit(am_rt *rt)
{
    if (rt->nsends) {
        rt->ring[ring_index(rt, rt->head + rt->count)].msg[0] ^= 1u;
    } else if (rt->has_become & BECOME_WHOLE) {
        if (rt->become_n) rt->become_state[0] ^= 1u;
    } else if (rt->has_become) {
        uint32_t i = 0;
        while (!(rt->state_set >> i & 1u)) i++;
        rt->state_setv[i] ^= 1u;   /* the lowest word am_set_state staged */
    } else if (rt->ncreates) {
        if (rt->creates[0].n) rt->creates[0].state[0] ^= 1u;
    }
}

/* The effects of a committing transaction, in the order of the contract. */
INLINE void commit_effects(am_rt *rt)
{
    uint32_t nc = rt->ncreates;
    if (nc) {
        for (uint32_t i = 0; i < nc; i++) {
            const staged_create *c = &rt->creates[i];
            actor *a = &rt->actors[SLOT_OF(c->ref)];
            a->gl = LIVE_KEY(c->ref);
            a->beh = c->beh;
            a->flags = 0;
            memcpy(a->st, c->state, sizeof a->st);
        }
        rt->nlive += nc;
    }
    if (rt->has_become) {
        actor *a = &rt->actors[SLOT_OF(rt->cur->target)];
        if (rt->has_become & BECOME_WHOLE) {
            a->beh = rt->become_beh;
            memcpy(a->st, rt->become_state, sizeof a->st);
        }
        if (rt->has_become & BECOME_WORDS)
            for (uint32_t i = 0; i < AM_MAX_STATE_WORDS; i++)
                if (rt->state_set >> i & 1u) a->st[i] = rt->state_setv[i];
    }
    rt->count += rt->nsends;
    if (UNLIKELY(rt->has_handler)) rt->handler = rt->staged_handler;
    update_hwm(rt);
    rt->commits++;
}

/* Commit with a trace line and/or the test-only perturbation. */
static NOINLINE void commit_hooked(am_rt *rt)
{
    if (rt->seq == rt->perturb_seq) perturb_commit(rt);
    commit_effects(rt);
    if (rt->tracing) trace_txn(rt, 1);
}

INLINE void do_commit(am_rt *rt)
{
    if (UNLIKELY(rt->commit_hooks)) commit_hooked(rt);
    else commit_effects(rt);
}

/* One dispatch; the queue is not empty and no behavior is running. A
 * staging fault does not come back here: txn_fault jumps to run_loop. */
INLINE void dispatch(am_rt *rt)
{
    const event *ev;
    if (UNLIKELY(rt->redirect)) {        /* a fault delivery goes first */
        rt->redirect = 0;
        rt->cur_is_delivery = 1;
        ev = &rt->redirect_ev;
    } else {
        uint32_t h = rt->head;
        ev = &rt->ring[h];
        rt->head = h + 1 == rt->cap ? 0 : h + 1;
        rt->count--;
        rt->cur_is_delivery = 0;
    }
    rt->cur = ev;
    rt->seq++;
    rt->since_gc++;
    rt->ncreates = 0;
    rt->nsends = 0;
    rt->has_become = 0;
    rt->has_handler = 0;

    am_ref target = ev->target;
    uint32_t slot = SLOT_OF(target);
    if (UNLIKELY(!(slot < rt->table_size && rt->actors[slot].gl == LIVE_KEY(target)))) {
        rt->cur_beh = NO_BEH;
        rt->fault_cause = AM_FAULT_DEAD_TARGET;
        rt->fault_code = 0;
        rt->fault_op = AM_OP_DISPATCH;
        rt->fault_value = 0;
        do_abort(rt);
        return;
    }
    actor *a = &rt->actors[slot];
    am_beh beh = a->beh;
    rt->cur_beh = beh;
    rt->self_st = a->st;

    rt->in_dispatch = 1 + (beh >= AM_BEH_FIRST_USER);
    if (UNLIKELY(rt->verdict)) txn_fault(rt, rt->verdict, AM_OP_RUN, 0);   /* am_step_abort */
    rt->behaviors[beh].fn(&rt->ctx);
    rt->in_dispatch = 0;
    if (UNLIKELY(rt->count + rt->nsends > rt->queue_depth)) {
        rt->fault_cause = AM_FAULT_QUEUE_FULL;
        rt->fault_code = 0;
        rt->fault_op = AM_OP_COMMIT;
        rt->fault_value = 0;
        do_abort(rt);
    } else {
        do_commit(rt);
    }
}

/* Dispatch until the queue is empty or the innermost run's budget is
 * spent (seq reaches end_seq). State lives in rt: a staging fault leaves
 * by longjmp. */
static NOINLINE void drain(am_rt *rt)
{
    while ((rt->count != 0 || rt->redirect) && rt->seq != rt->end_seq) {
        if (UNLIKELY(gc_due(rt)) && !rt->redirect) gc_collect(rt, 0);
        dispatch(rt);
    }
}

/* ---- the watchdog (docs/semantics.md, "Watchdog") ---------------------------
 * A program's behavior that runs longer than watchdog_ms of CPU time aborts
 * with WATCHDOG, like the hardware's cycle budget. Nothing is added to a
 * dispatch: one process-wide interval timer (ITIMER_VIRTUAL, SIGVTALRM,
 * every WD_TICK_MS of user CPU time) is started by the first run of a
 * runtime whose budget is not 0 and keeps running; at each tick the handler
 * looks at the runtime inside run_loop (wd_rt). When the same dispatch (seq)
 * is still in a program's behavior at wd_limit ticks in a row, the handler
 * leaves the behavior by the abort jump -- as a staging fault does -- and the
 * transaction aborts with WATCHDOG, within [watchdog_ms, watchdog_ms +
 * WD_TICK_MS] of CPU time. Built-in behaviors (the console writing to a
 * blocked stdout) are never interrupted; nor is the runtime between
 * dispatches. */
static am_rt *volatile wd_rt;        /* the runtime inside run_loop */

static void wd_tick(int sig)
{
    (void)sig;
    am_rt *rt = wd_rt;
    if (!rt || !rt->wd_limit || rt->in_dispatch != 2) return;
    if (rt->wd_seq != rt->seq) {
        rt->wd_seq = rt->seq;
        rt->wd_ticks = 1;
        return;
    }
    if (++rt->wd_ticks <= rt->wd_limit) return;
    rt->in_dispatch = 0;
    rt->fault_cause = AM_FAULT_WATCHDOG;
    rt->fault_code = 0;
    rt->fault_op = AM_OP_RUN;
    rt->fault_value = 0;
    AM_LONGJMP(rt->abort_jmp);      /* SA_NODEFER: the signal stays unblocked */
}

static void wd_start(void)
{
    static int started;
    if (started) return;
    started = 1;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = wd_tick;
    sa.sa_flags = SA_RESTART | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    struct itimerval it = { { 0, WD_TICK_MS * 1000 }, { 0, WD_TICK_MS * 1000 } };
    if (sigaction(SIGVTALRM, &sa, NULL) == 0) setitimer(ITIMER_VIRTUAL, &it, NULL);
}

/* drain() under the abort jump: a staging fault (txn_fault) unwinds the
 * behavior and drain() to here, the transaction aborts and the loop goes
 * on -- one setjmp per run, not per dispatch. A callback may run the
 * machine (am_ask from on_fault): the enclosing run's jump buffer is put
 * back on the way out and its end moves by the dispatches run inside, so
 * that only its own dispatches count against its budget. Returns the
 * budget left (budget 2^64 - 1: no limit). */
static NOINLINE uint64_t run_loop(am_rt *rt, uint64_t budget)
{
    am_jmp_buf saved;
    uint64_t saved_end = rt->end_seq, seq0 = rt->seq;
    am_rt *saved_wd = wd_rt;
    if (rt->wd_limit) wd_start();
    wd_rt = rt;
    memcpy(&saved, &rt->abort_jmp, sizeof saved);
    rt->end_seq = budget > UINT64_MAX - seq0 ? UINT64_MAX : seq0 + budget;
    if (AM_SETJMP(rt->abort_jmp) != 0) {
        rt->in_dispatch = 0;
        if (UNLIKELY(rt->fault_cause == CAUSE_RETRY)) do_retry(rt);
        else do_abort(rt);
    }
    drain(rt);
    wd_rt = saved_wd;
    memcpy(&rt->abort_jmp, &saved, sizeof saved);
    uint64_t left = rt->end_seq - rt->seq;
    uint64_t inner = rt->seq - seq0;
    rt->end_seq = saved_end > UINT64_MAX - inner ? UINT64_MAX : saved_end + inner;
    return left;
}

am_status am_step(am_rt *rt)
{
    if (rt->in_dispatch) return AM_E_REENTRANT;
    if (rt->count == 0 && !rt->redirect) return AM_E_EMPTY;
    run_loop(rt, 1);
    return AM_OK;
}

am_status am_step_abort(am_rt *rt, uint32_t cause)
{
    if (rt->in_dispatch) return AM_E_REENTRANT;
    if (rt->count == 0 && !rt->redirect) return AM_E_EMPTY;
    if (cause == AM_FAULT_NONE || cause >= AM_FAULT_COUNT_) return AM_E_CONFIG;
    rt->verdict = cause;
    run_loop(rt, 1);
    rt->verdict = 0;
    return AM_OK;
}

am_status am_run(am_rt *rt, uint64_t max_dispatches)
{
    if (rt->in_dispatch) return AM_E_REENTRANT;
    /* 0 = no limit: 2^64 - 1 dispatches are never reached */
    uint64_t left = run_loop(rt, max_dispatches ? max_dispatches : UINT64_MAX);
    return left == 0 && (rt->count || rt->redirect) ? AM_E_LIMIT : AM_OK;
}

/* ---- ASK ----------------------------------------------------------------- */

am_status am_ask(am_rt *rt, am_ref target, uint32_t n, const am_word *req,
                 uint64_t max_dispatches, am_word reply[AM_MAX_MSG_WORDS],
                 uint32_t *reply_len)
{
    if (rt->in_dispatch) return AM_E_REENTRANT;
    if (n + 1 > rt->msg_words) return AM_E_TOO_LONG;
    if (!ref_valid(rt, target)) return AM_E_BAD_REF;
    if (rt->count >= rt->queue_depth) return AM_E_QUEUE_FULL;

    uint32_t ticket = rt->ask_next_ticket++;
    if (rt->ask_next_ticket == 0) rt->ask_next_ticket = 1;
    am_word st[1] = { ticket };
    am_ref cust;
    /* not pinned: the request keeps it alive, then whoever holds it */
    am_status s = spawn(rt, AM_BEH_ASK, 1, st, 0, &cust);
    if (s != AM_OK) return s;
    am_word msg[AM_MAX_MSG_WORDS];
    msg[0] = cust;
    for (uint32_t i = 0; i < n; i++) msg[1 + i] = req[i];   /* n <= 7 */
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

static void put_bytes(void *user, const uint8_t *p, uint32_t n)
{
    out_bytes(user, (const char *)p, n);
}

/* The shared console (lib/am_console.c): the same bytes as the firmware's. */
void am_builtin_console(am_ctx *ctx)
{
    am_rt *rt = RT_OF(ctx);
    am_console_run(ctx, rt->cfg.link != 0, put_bytes, rt);
}

void am_builtin_sink(am_ctx *ctx) { (void)ctx; }

/* The one-shot customer of am_ask: state[0] is its ticket. It hands its
 * message to the ask in progress and becomes a sink, so a second reply is
 * accepted and ignored, visibly, in the trace. State [0, seq] (tickets are
 * never 0) is the host link's proxy of an ask: with the link on it frames
 * its message back (lib/am_console.c, as the firmware does). */
void am_builtin_ask(am_ctx *ctx)
{
    am_rt *rt = RT_OF(ctx);
    if (am_link_proxy_run(ctx, rt->cfg.link != 0, put_bytes, rt)) {
        /* a link proxy: nothing for am_ask */
    } else if (am_state(ctx, 0) == rt->ask_ticket && rt->ask_ticket != 0) {
        rt->ask_done = 1;
        rt->ask_len = rt->cur->len;
        memcpy(rt->ask_reply, rt->cur->msg, sizeof rt->ask_reply);
    }
    am_become(ctx, AM_BEH_SINK, 0, NULL);
}

/* ---- inspection ------------------------------------------------------------- */

void am_get_counters(const am_rt *rt, am_counters *out)
{
    out->dispatches = rt->seq;
    out->commits = rt->commits;
    out->aborts = rt->aborts;
    out->faults = rt->faults;
    out->queue_len = rt->count;
    out->queue_high_water = rt->hwm;
    out->live = rt->nlive;
    out->seq = rt->seq;
    out->free = rt->free_top + (rt->table_size - rt->next);
    out->gc_runs = rt->gc_runs;
    out->gc_reclaimed = rt->gc_reclaimed;
    out->gc_live_max = rt->gc_live_max;
    out->gc_live_last = rt->gc_live_last;
    out->gc_demand = rt->gc_demand;
    out->gc_ns = rt->gc_ns;
}

const am_fault_record *am_last_fault(const am_rt *rt)
{
    return rt->have_fault ? &rt->last_fault : NULL;
}

am_status am_peek(const am_rt *rt, am_ref ref, am_beh *beh, am_word st[AM_MAX_STATE_WORDS])
{
    if (!ref_valid(rt, ref)) return AM_E_BAD_REF;
    const actor *a = &rt->actors[SLOT_OF(ref)];
    if (beh) *beh = a->beh;
    if (st) memcpy(st, a->st, AM_MAX_STATE_WORDS * sizeof *st);
    return AM_OK;
}

void am_fault_print(FILE *f, const am_fault_record *r)
{
    am_fault_print_named(f, r, NULL, 0);
}

void am_fault_print_named(FILE *f, const am_fault_record *r, const am_behavior_desc *tab,
                          uint32_t n)
{
    fprintf(f, "fault seq=%llu cause=%s op=%s value=%08x code=%08x target=%08x beh=",
            (unsigned long long)r->seq, am_fault_name(r->cause), am_fault_op_name(r->op),
            (unsigned)r->value, (unsigned)r->code, (unsigned)r->target);
    if (r->beh == NO_BEH) fprintf(f, "-");
    else if (tab && r->beh < n) fprintf(f, "%u(%s)", (unsigned)r->beh, tab[r->beh].name);
    else fprintf(f, "%u", (unsigned)r->beh);
    fprintf(f, " msg=[");
    for (uint32_t i = 0; i < r->len; i++)
        fprintf(f, i ? " %08x" : "%08x", (unsigned)r->msg[i]);
    fprintf(f, "]\n");
}

void am_behaviors_print(FILE *f, const am_behavior_desc *tab, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) fprintf(f, "%5u %s\n", (unsigned)i, tab[i].name);
}

am_beh am_behavior_by_name(const am_behavior_desc *tab, uint32_t n, const char *name)
{
    for (uint32_t i = 0; i < n; i++)
        if (strcmp(tab[i].name, name) == 0) return i;
    return NO_BEH;
}
