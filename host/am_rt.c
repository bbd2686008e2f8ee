/*
 * am_rt.c — the reference runtime: actor table, event queue, transactional
 * dispatch. The rules implemented here are docs/semantics.md, clause by
 * clause; the hardware (rtl/) implements the same ones and the lockstep
 * co-simulation holds the two to it. The collector is am_gc.c; the data
 * both work on, and the helpers both use, are in am_rt_impl.h.
 *
 * Layout, chosen for the dispatch loop (docs/performance.md, "How the
 * reference runtime is built for speed"):
 *   - Every slot's table word is in one dense array, keys, that covers all
 *     65,536 slots a reference can name. A live slot's word is its
 *     reference, so a reference check (dispatch, SEND, the collector) is
 *     one load and compare with no bound check (a slot past the table reads
 *     0); see KEYS below. The rest of an actor is one 48-byte record
 *     {state[8], beh, flags}. State words past the written length are
 *     stored as 0, so am_state needs no length.
 *   - The event queue is a ring of cap = queue_depth + max_sends slots
 *     (head, tail, count). The event in dispatch is read in place at its
 *     ring slot (it has left the queue), and SENDs are staged directly in
 *     the slots after the tail; commit adds their number to the count,
 *     abort simply does not. The extra max_sends slots guarantee that
 *     staging never overwrites a queued event or the event in dispatch,
 *     whatever the outcome of the QUEUE_FULL check at commit. Behind the
 *     ring lie max_sends more slots, so that staging never wraps around: a
 *     commit moves the sends that landed there to the ring's start. Message
 *     words past the length are stored as 0.
 *   - CREATE writes the new actor into its slot at once, behavior, state
 *     and a *pending* table word: only this transaction's SENDs accept it,
 *     commit makes it live, abort puts the previous word back -- as the
 *     hardware does. The allocator snapshot is taken by the first CREATE
 *     (nothing else allocates during a transaction).
 *   - BECOME writes self's new behavior and state into the table at once,
 *     after saving the state as it was at dispatch (am_state goes on reading
 *     that copy; an abort puts it back). SET_STATE only stages its word
 *     (the table keeps the state as at dispatch, and an abort has nothing
 *     to undo); commit writes the words staged, one store each.
 *   - The staging counters are one 16-byte block, set by one copy per
 *     dispatch; what a commit has to do besides appending the sends (the
 *     words SET_STATE staged; off the common path: a CREATE, a SET_HANDLER,
 *     a trace line) is one word of it. The queue's high-water mark is below
 *     its depth, so one comparison with it stands for the QUEUE_FULL check.
 *   - Everything that must happen between two dispatches -- the end of a
 *     run's budget, a collection the triggers ask for, a fault delivery, a
 *     lockstep verdict -- is folded into one sequence number, stop: the
 *     dispatch loop compares seq with it and takes the slow path only when
 *     it is reached.
 *   - The abort jump is armed once per am_run/am_step (run_loop), not per
 *     dispatch, with __builtin_setjmp where available.
 */
/* sigaction, setitimer (the watchdog) are POSIX/XSI, not C11 */
#define _XOPEN_SOURCE 700
#include "am_rt_impl.h"

#include <signal.h>
#include <stdlib.h>
#include <sys/time.h>
#include <time.h>

/* The collector is on unless both triggers are 0 (then nothing is
 * collected automatically, not even on demand). */
INLINE int gc_on(const am_rt *rt) { return rt->gc_low != 0 || rt->gc_period != 0; }

/* Copy n <= 8 words, one word at a time (the source was usually just
 * written word by word -- by the behavior, or by the actor's last BECOME
 * -- and a wider load of words still in the store buffer would miss store
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

/* ---- the actor table (free_slots, shared with am_gc.c: am_rt_impl.h) ------ */

INLINE int ref_valid(const am_rt *rt, am_ref ref)
{
    return rt->keys[SLOT_OF(ref)] == ref;
}

/* Make the slot of ref live. */
INLINE void set_live(am_rt *rt, uint32_t slot, am_ref ref)
{
    rt->keys[slot] = ref;
    rt->live_bits[slot >> 6] |= (uint64_t)1 << (slot & 63);
}

/* The top of the free stack: the lowest slot from free_cursor on that is
 * not live (free_count > 0: there is one below next). */
INLINE uint32_t free_stack_top(const am_rt *rt)
{
    uint32_t k = rt->free_cursor >> 6;
    uint64_t w = ~rt->live_bits[k] & (~(uint64_t)0 << (rt->free_cursor & 63));
    while (!w) w = ~rt->live_bits[++k];
    return k * 64 + (uint32_t)low_bit(w);
}

/* Allocate a slot (free stack first, then the bump pointer); returns the
 * new reference or AM_NIL when the table is full. Nothing is made live. */
INLINE am_ref alloc_slot(am_rt *rt)
{
    uint32_t slot;
    if (UNLIKELY(rt->free_count > 0)) {
        slot = free_stack_top(rt);
        rt->free_cursor = slot + 1;
        rt->free_count--;
    } else if (LIKELY(rt->next < rt->table_size))
        slot = rt->next++;
    else
        return AM_NIL;
    uint32_t g = (rt->keys[slot] >> 16) + 1;
    if (g > 0xffffu) g = 1;
    return MAKE_REF(g, slot);
}

/* ---- the event queue ------------------------------------------------------ */

/* e + k, k <= cap, around the ring */
INLINE event *ring_add(const am_rt *rt, event *e, uint32_t k)
{
    return e + k >= rt->ring_end ? e + k - rt->cap : e + k;
}

INLINE void update_hwm(am_rt *rt)
{
    if (rt->count > rt->hwm) rt->hwm = rt->count;
}

/* A commit or am_spawn that allocated for good: the low-water trigger
 * ("when to collect", am_rt_impl.h) makes the collection due at once. */
INLINE void check_low_water(am_rt *rt)
{
    if (UNLIKELY(rt->gc_armed && free_slots(rt) < rt->gc_low)) {
        rt->gc_at = 0;
        rt->stop = 0;                 /* stop <= gc_at always */
    }
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
    rt->keys = calloc(AM_SLOTS, sizeof *rt->keys);
    rt->live_bits = calloc((ts + 63) / 64, sizeof *rt->live_bits);
    rt->gc_front = calloc((ts + 63) / 64, sizeof *rt->gc_front);
    rt->gc_queue = calloc(ts, sizeof *rt->gc_queue);
    rt->pinned = calloc(ts, sizeof *rt->pinned);
    rt->ring = calloc((size_t)rt->cap + cfg.max_sends, sizeof *rt->ring);
    rt->creates = calloc(cfg.max_creates, sizeof *rt->creates);
    if (!rt->actors || !rt->keys || !rt->live_bits ||
        !rt->gc_front || !rt->gc_queue || !rt->pinned || !rt->ring || !rt->creates) {
        am_rt_free(rt);
        return AM_E_NOMEM;
    }
    /* Slot 0: the console, live from reset with generation 1. */
    set_live(rt, 0, AM_CONSOLE);
    rt->actors[0].beh = AM_BEH_CONSOLE;
    rt->actors[0].flags = A_PINNED;
    rt->pinned[rt->npinned++] = 0;
    rt->gc_low = cfg.gc_low;
    rt->gc_period = cfg.gc_period;
    rt->gc_armed = 1;
    rt->gc_seq = GC_SEQ_NONE;
    rt->nlive = 1;
    rt->next = 1;
    rt->end_seq = UINT64_MAX;
    gc_schedule(rt);
    rt->ask_next_ticket = 1;
    rt->handler = cfg.fault_handler;
    rt->tracing = cfg.trace != NULL || cfg.on_trace != NULL;
    if (rt->tracing || cfg.test_perturb_seq != 0) rt->stg_init.more = MORE_HOOKS;
    rt->ring_end = rt->ring + rt->cap;
    rt->head = rt->tail = rt->ring;
    *out = rt;
    return AM_OK;
}

void am_rt_free(am_rt *rt)
{
    if (!rt) return;
    free(rt->actors);
    free(rt->keys);
    free(rt->live_bits);
    free(rt->gc_front);
    free(rt->gc_queue);
    free(rt->pinned);
    free(rt->ring);
    free(rt->creates);
    free(rt);
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
        am_rt_gc_collect(rt, 1);            /* garbage never makes a spawn fail */
        ref = alloc_slot(rt);
    }
    if (ref == AM_NIL) return AM_E_TABLE_FULL;
    actor *a = &rt->actors[SLOT_OF(ref)];
    a->beh = beh;
    put_words(a->st, st, n);
    set_live(rt, SLOT_OF(ref), ref);
    a->flags = flags;
    if (flags & A_PINNED) rt->pinned[rt->npinned++] = SLOT_OF(ref);
    rt->nlive++;
    check_low_water(rt);
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
    actor *a = &rt->actors[SLOT_OF(ref)];
    if (a->flags & A_PINNED) {
        a->flags &= ~A_PINNED;
        /* the roots' order does not matter: the marked set is the same */
        for (uint32_t i = 0; i < rt->npinned; i++)
            if (rt->pinned[i] == SLOT_OF(ref)) {
                rt->pinned[i] = rt->pinned[--rt->npinned];
                break;
            }
    }
    rt->gc_seq = GC_SEQ_NONE;        /* it may be garbage now: a full table collects again */
    return AM_OK;
}

am_status am_inject(am_rt *rt, am_ref target, uint32_t n, const am_word *msg)
{
    if (rt->in_dispatch) return AM_E_REENTRANT;
    if (n > rt->msg_words) return AM_E_TOO_LONG;
    /* the hardware's order (rtl/am_unit_ext.v): a full queue is seen
     * before the target is looked up. A delivery waiting to be made takes
     * a place, as the failed event's entry does on the hardware until it
     * is dispatched (rtl/am_unit_ext.v, q_held_i). */
    if (rt->count + (rt->redirect != 0) >= rt->queue_depth) return AM_E_QUEUE_FULL;
    if (!ref_valid(rt, target)) return AM_E_BAD_REF;
    event *ev = rt->tail;
    ev->target = target;
    ev->len = n;
    put_words(ev->msg, msg, n);
    rt->tail = ring_next(rt, ev);
    rt->count++;
    update_hwm(rt);
    return AM_OK;
}

/* ---- the behavior's view -------------------------------------------------- */

inline am_ref am_self(const am_ctx *ctx) { return CRT_OF(ctx)->cur->target; }
inline am_beh am_my_behavior(const am_ctx *ctx) { return CRT_OF(ctx)->cur_beh; }
inline uint32_t am_msg_len(const am_ctx *ctx) { return CRT_OF(ctx)->cur->len; }

inline am_word am_msg(const am_ctx *ctx, uint32_t i)
{
    /* words past len are 0 in the event (inject and send zero-fill) */
    return i < AM_MAX_MSG_WORDS ? CRT_OF(ctx)->cur->msg[i] : 0;
}

inline am_word am_state(const am_ctx *ctx, uint32_t i)
{
    /* words at or past state_words are always 0 (CREATE, BECOME and spawn
     * store at most state_words words and zero the rest) */
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
 * collection ran since the last transaction (that collection found none) or
 * with the collector off; otherwise the transaction -- a fault delivery
 * too -- is retried after a collection. */
static NOINLINE uint32_t table_full_cause(const am_rt *rt)
{
    if (rt->gc_seq + 1 == rt->seq || !gc_on(rt)) return AM_FAULT_TABLE_FULL;
    return CAUSE_RETRY;
}

API_INLINE am_ref am_create(am_ctx *ctx, am_beh beh, uint32_t n, const am_word *st)
{
    am_rt *rt = RT_OF(ctx);
    if (UNLIKELY(beh >= rt->nbehaviors)) txn_fault(rt, AM_FAULT_BAD_BEHAVIOR, AM_OP_CREATE, beh);
    if (UNLIKELY(n > rt->state_words))
        txn_fault(rt, AM_FAULT_STATE_TOO_LONG, AM_OP_CREATE, fault_len(n));
    uint32_t nc = rt->stg.ncreates;
    if (UNLIKELY(nc >= rt->max_creates)) txn_fault(rt, AM_FAULT_TOO_MANY_CREATES, AM_OP_CREATE, beh);
    if (nc == 0) {
        /* the free stack as the transaction found it (only CREATE allocates;
         * abort restores it when this transaction took it: also when the
         * watchdog interrupts alloc_slot before ncreates counts the slot) */
        rt->snap_free_count = rt->free_count;
        rt->snap_free_cursor = rt->free_cursor;
        SIGNAL_FENCE();
        rt->snap_seq = rt->seq;
        SIGNAL_FENCE();
        rt->stg.more |= MORE_CREATES;
    }
    am_ref ref = alloc_slot(rt);
    if (UNLIKELY(ref == AM_NIL)) txn_fault(rt, table_full_cause(rt), AM_OP_CREATE, beh);
    /* Counted before its slot is written: an abort (the watchdog's too)
     * writes every counted slot's table word dead, with its new generation.
     * Nothing but this transaction's SENDs reads a slot that is not live. */
    uint32_t slot = SLOT_OF(ref);
    rt->creates[nc] = (staged_create){ ref, n };
    rt->stg.ncreates = nc + 1;
    SIGNAL_FENCE();
    rt->keys[slot] = ref ^ PENDING_FLIP;
    actor *a = &rt->actors[slot];
    a->beh = beh;
    put_words(a->st, st, n);
    return ref;
}

/* SEND's checks (docs/semantics.md, in that order); returns the slot the
 * send is staged in, counted, its target and length written. */
INLINE event *stage_send(am_rt *rt, am_ref target, uint32_t n)
{
    uint32_t ns = rt->stg.nsends;
    if (UNLIKELY(n > rt->msg_words)) txn_fault(rt, AM_FAULT_MSG_TOO_LONG, AM_OP_SEND, fault_len(n));
    if (UNLIKELY(ns >= rt->max_sends)) txn_fault(rt, AM_FAULT_TOO_MANY_SENDS, AM_OP_SEND, target);
    /* valid, or created earlier in this transaction */
    uint32_t g = rt->keys[SLOT_OF(target)];
    if (UNLIKELY(g != target) && g != (target ^ PENDING_FLIP))
        txn_fault(rt, AM_FAULT_BAD_REF, AM_OP_SEND, target);
    /* Staged in the slot after the last staged one; this never reaches a
     * queued event nor the event in dispatch (cap, see am_rt_new), and
     * runs over the ring's end into the slots behind it (commit_sends). */
    event *ev = rt->tail + ns;
    rt->stg.nsends = ns + 1;
    ev->target = target;
    ev->len = n;
    return ev;
}

API_INLINE void am_send(am_ctx *ctx, am_ref target, uint32_t n, const am_word *msg)
{
    put_words(stage_send(RT_OF(ctx), target, n)->msg, msg, n);
}

void am_set_fault_handler(am_ctx *ctx, am_ref handler)
{
    am_rt *rt = RT_OF(ctx);
    if (handler != AM_NIL && SLOT_OF(handler) >= rt->table_size)
        txn_fault(rt, AM_FAULT_BAD_REF, AM_OP_SET_HANDLER, handler);
    rt->staged_handler = handler;
    rt->stg.more |= MORE_HANDLER;
}

int am_fault(const am_ctx *ctx, am_fault_info *info)
{
    const am_rt *rt = CRT_OF(ctx);
    if (!rt->stg.delivery) return 0;
    *info = rt->cur_fault;
    return 1;
}

/* Self's record, to write: on the first am_become of the transaction the
 * state as at dispatch is saved -- what am_state reads from now on, and what
 * an abort puts back (undo_txn) -- before the table is written, in case the
 * watchdog aborts in between. (self_st is still self's record then: its
 * state comes first.) */
INLINE actor *self_to_write(am_rt *rt)
{
    if (rt->stg.become) return rt->self;
    actor *a = (actor *)(uintptr_t)rt->self_st;
    rt->self = a;
    copy_n(rt->become_undo, a->st, AM_MAX_STATE_WORDS);   /* word by word: see copy_n */
    rt->self_st = rt->become_undo;
    SIGNAL_FENCE();
    rt->stg.become = 1;
    SIGNAL_FENCE();
    return a;
}

API_INLINE void am_become(am_ctx *ctx, am_beh beh, uint32_t n, const am_word *st)
{
    am_rt *rt = RT_OF(ctx);
    if (UNLIKELY(beh >= rt->nbehaviors)) txn_fault(rt, AM_FAULT_BAD_BEHAVIOR, AM_OP_BECOME, beh);
    if (UNLIKELY(n > rt->state_words))
        txn_fault(rt, AM_FAULT_STATE_TOO_LONG, AM_OP_BECOME, fault_len(n));
    actor *a = self_to_write(rt);
    rt->stg.more &= ~MORE_WORDS;      /* the words set before are replaced too */
    a->beh = beh;
    rt->become_n = n;
    put_words(a->st, st, n);
    if (UNLIKELY(rt->stg.more & MORE_HOOKS)) put_words(rt->become_words, st, n);
}

/* Staged, not written: the table keeps the state as at dispatch, which
 * am_state reads, and an abort has nothing to put back. */
API_INLINE void am_set_state(am_ctx *ctx, uint32_t i, am_word w)
{
    am_rt *rt = RT_OF(ctx);
    if (UNLIKELY(i >= rt->state_words))
        txn_fault(rt, AM_FAULT_STATE_TOO_LONG, AM_OP_BECOME, fault_len(i < AM_FAULT_LEN_MAX ? i + 1 : i));
    rt->state_setv[i] = w;
    rt->stg.more |= 1u << (MORE_WORD0 + i);
}

API_INLINE void am_send_word(am_ctx *ctx, uint32_t i, am_word w)
{
    am_rt *rt = RT_OF(ctx);
    if (UNLIKELY(i >= rt->msg_words))
        txn_fault(rt, AM_FAULT_MSG_TOO_LONG, AM_OP_SEND, fault_len(i < AM_FAULT_LEN_MAX ? i + 1 : i));
    uint32_t ns = rt->stg.nsends;
    if (rt->send_set_at != ns) {      /* the words set before are used up */
        rt->stg.send_set = 0;
        rt->send_set_at = ns;
    }
    rt->stg.send_set |= (uint8_t)(1u << i);
    rt->send_setv[i] = w;
}

/* The message's words past its length are 0 in every event (inject and
 * send zero-fill), so its word j + from is the event's word wherever
 * 0 <= j + from < 8: with a constant from, each word is one copy. */
API_INLINE void am_forward(am_ctx *ctx, am_ref target, uint32_t n, int32_t from)
{
    am_rt *rt = RT_OF(ctx);
    uint32_t set = rt->send_set_at == rt->stg.nsends ? rt->stg.send_set : 0;
    const am_word *restrict src = rt->cur->msg;
    am_word *restrict d = stage_send(rt, target, n)->msg;
    /* word by word, written out: each folds to one copy or one 0 */
#define FWD_WORD(i) d[i] = (i) < n && (int64_t)(i) + from >= 0 && \
                           (int64_t)(i) + from < AM_MAX_MSG_WORDS ? src[(int64_t)(i) + from] : 0
    FWD_WORD(0); FWD_WORD(1); FWD_WORD(2); FWD_WORD(3);
    FWD_WORD(4); FWD_WORD(5); FWD_WORD(6); FWD_WORD(7);
#undef FWD_WORD
    for (set &= (1u << n) - 1; set; set &= set - 1) {   /* n <= 8 */
        uint32_t i = (uint32_t)low_bit(set);
        d[i] = rt->send_setv[i];
    }
}

/* ---- dispatch, commit, abort ------------------------------------------------ */

static NOINLINE void trace_txn(am_rt *rt, int committed)
{
    am_trace_buf *b = &rt->tbuf;
    am_trace_begin(b, rt->seq, committed, rt->cur->target, rt->cur_beh,
                   rt->cur->len, rt->cur->msg);
    if (committed) {
        for (uint32_t i = 0; i < rt->stg.ncreates; i++) {
            const staged_create *c = &rt->creates[i];
            const actor *a = &rt->actors[SLOT_OF(c->ref)];
            am_trace_new(b, c->ref, a->beh, c->n, a->st);
        }
        event *ev = ring_add(rt, rt->tail, rt->cap - rt->stg.nsends);   /* the first send */
        for (uint32_t i = 0; i < rt->stg.nsends; i++, ev = ring_next(rt, ev))
            am_trace_send(b, ev->target, ev->len, ev->msg);
        if (rt->stg.become)
            am_trace_become(b, rt->self->beh, rt->become_n, rt->become_words);
        for (uint32_t i = 0; i < AM_MAX_STATE_WORDS; i++)
            if (rt->stg.more >> (MORE_WORD0 + i) & 1u) am_trace_state(b, i, rt->state_setv[i]);
        if (rt->stg.more & MORE_HANDLER)
            am_trace_handler(b, rt->staged_handler);
    } else {
        am_trace_fault(b, rt->fault_cause, rt->fault_code, rt->fault_op, rt->fault_value);
    }
    am_trace_end(b, rt->cfg.trace);
    if (rt->cfg.on_trace) rt->cfg.on_trace(rt->cfg.user, b->text, b->n);
}

/* What an abort (or a retry) gives back: the free stack, if this
 * transaction's CREATE took the snapshot, and self's behavior and state, if
 * it BECAME. Staged sends are not visible anyway. A created slot stays
 * dead with the generation its CREATE gave it, and a never-used slot it
 * took stays used (next is not put back; the next collection frees it):
 * the aborted CREATE's reference -- which a fault record can carry, as
 * am_fail's code or a SEND's value -- never names the slot's next actor
 * (docs/semantics.md, "Allocation"). */
INLINE void undo_txn(am_rt *rt)
{
    if (rt->snap_seq == rt->seq) {
        rt->free_count = rt->snap_free_count;
        rt->free_cursor = rt->snap_free_cursor;
        check_low_water(rt);          /* the never-used slots it took are gone */
    }
    for (uint32_t i = 0; i < rt->stg.ncreates; i++)
        rt->keys[SLOT_OF(rt->creates[i].ref)] = rt->creates[i].ref ^ 0xffffu;   /* dead */
    if (rt->stg.become) {
        memcpy(rt->self->st, rt->become_undo, sizeof rt->self->st);
        rt->self->beh = rt->cur_beh;
    }
}

void am_rt_burn_slots(am_rt *rt, uint32_t k)
{
    uint32_t count = rt->free_count, cursor = rt->free_cursor;
    for (uint32_t i = 0; i < k; i++) {
        am_ref ref = alloc_slot(rt);
        if (ref == AM_NIL) break;
        rt->keys[SLOT_OF(ref)] = ref ^ 0xffffu;   /* dead */
    }
    rt->free_count = count;
    rt->free_cursor = cursor;
    check_low_water(rt);
}

static NOINLINE void do_abort(am_rt *rt)
{
    if (UNLIKELY(rt->seq == rt->perturb_seq)) rt->fault_code ^= 1u;
    undo_txn(rt);
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
    if (!rt->stg.delivery && rt->handler != AM_NIL) {
        rt->redirect_ev = *rt->cur;
        rt->redirect_ev.target = rt->handler;
        rt->redirect = 1;
        rt->stop = 0;
        rt->cur_fault.cause = r->cause;
        rt->cur_fault.code = r->code;
        rt->cur_fault.target = r->target;
        rt->cur_fault.beh = r->beh;
        rt->cur_fault.op = r->op;
        rt->cur_fault.value = r->value;
    }
    if (rt->cfg.on_fault) rt->cfg.on_fault(rt->cfg.user, r);
}

/* Abort with a cause found outside the behavior. */
static NOINLINE void abort_with(am_rt *rt, uint32_t cause, uint32_t op)
{
    rt->fault_cause = cause;
    rt->fault_code = 0;
    rt->fault_op = op;
    rt->fault_value = 0;
    do_abort(rt);
}

/* The transaction's CREATE found no free slot and no collection has run for
 * it (CAUSE_RETRY): it never happened -- no record, no trace line, no
 * counter, no delivery; its effects are undone as for an abort. The event
 * goes back to the head of the queue (its ring slot is untouched: staged
 * sends never reach it) -- a fault delivery's stays pending, a root like a
 * queued event -- and keeps its sequence number; a collection runs, on
 * demand, and the event is dispatched again next, where a CREATE that
 * finds no slot is TABLE_FULL. */
static NOINLINE void do_retry(am_rt *rt)
{
    undo_txn(rt);
    rt->snap_seq = 0;                 /* the dispatch again takes its own */
    if (rt->stg.delivery) {
        rt->redirect = 1;             /* redirect_ev and cur_fault are as they were */
    } else {
        rt->head = ring_add(rt, rt->head, rt->cap - 1);
        rt->count++;
    }
    rt->seq--;
    rt->wd_ticks = 0;                 /* the watchdog times the dispatch again afresh */
    am_rt_gc_collect(rt, 1);
}

/* The test-only perturbation of a committing transaction (am_config): bit 0
 * of word 0 of its first send, else of the lowest state word am_set_state
 * set, else of its BECOME state, else of its first
 * CREATE's state. As always: a send carries all 8 staged words into the
 * queue (am_msg reads them), a BECOME or CREATE stores only its n words, so
 * a flipped word past n is not stored. */
static NOINLINE void perturb_commit(am_rt *rt)
{
    if (rt->stg.nsends) {
        rt->tail->msg[0] ^= 1u;
    } else if (rt->stg.more & MORE_WORDS) {
        /* the lowest word am_set_state staged (written by commit_words) */
        rt->state_setv[low_bit(rt->stg.more >> MORE_WORD0)] ^= 1u;
    } else if (rt->stg.become) {
        if (rt->become_n) {
            rt->self->st[0] ^= 1u;
            rt->become_words[0] ^= 1u;
        }
    } else if (rt->stg.ncreates) {
        if (rt->creates[0].n) rt->actors[SLOT_OF(rt->creates[0].ref)].st[0] ^= 1u;
    }
}

/* The sends join the queue behind tail (count: the queue's length with
 * them, which commit checked); returns the new tail. Those staged behind
 * the ring's end move to its start, which they never reach while staged
 * (am_rt_new's cap). */
INLINE event *commit_sends(am_rt *rt, event *tail, uint32_t count)
{
    event *t = tail + rt->stg.nsends;
    if (UNLIKELY(t >= rt->ring_end)) {
        memcpy(rt->ring, rt->ring_end, (size_t)(t - rt->ring_end) * sizeof *t);
        t -= rt->cap;
    }
    rt->tail = t;
    rt->count = count;
    return t;
}

/* The state words am_set_state staged go into self's record, over what a
 * BECOME wrote there. */
INLINE void commit_words(am_rt *rt, uint32_t more)
{
    actor *a = rt->stg.become ? rt->self : (actor *)(uintptr_t)rt->self_st;
    for (uint32_t w = more >> MORE_WORD0; w; w &= w - 1) {
        uint32_t i = (uint32_t)low_bit(w);
        a->st[i] = rt->state_setv[i];
    }
}

/* CREATEs and SET_HANDLER: the effects most transactions do not have. */
INLINE void commit_rare(am_rt *rt)
{
    /* The created slots go live. Their flags are 0 already: only a spawned
     * actor is pinned, and a pinned actor is never reclaimed. A transaction's
     * creates usually share a word of the live bitmap: it is written once
     * per run of them. */
    uint32_t nc = rt->stg.ncreates;
    uint32_t k = nc ? SLOT_OF(rt->creates[0].ref) >> 6 : 0;
    uint64_t bits = 0;
    for (uint32_t i = 0; i < nc; i++) {
        am_ref ref = rt->creates[i].ref;
        uint32_t slot = SLOT_OF(ref);
        rt->keys[slot] = ref;
        if (slot >> 6 != k) {
            rt->live_bits[k] |= bits;
            k = slot >> 6;
            bits = 0;
        }
        bits |= (uint64_t)1 << (slot & 63);
    }
    rt->live_bits[k] |= bits;
    rt->nlive += nc;
    if (rt->stg.more & MORE_HANDLER) rt->handler = rt->staged_handler;
    check_low_water(rt);
}

/* A commit off the common path (stg.more & MORE_SLOW): with CREATEs,
 * SET_HANDLER, a trace line and/or the test-only perturbation. */
static NOINLINE void commit_slow(am_rt *rt, uint32_t count)
{
    if (rt->seq == rt->perturb_seq) perturb_commit(rt);
    commit_rare(rt);
    commit_words(rt, rt->stg.more);
    commit_sends(rt, rt->tail, count);
    if (rt->tracing) trace_txn(rt, 1);
}

/* The queue is the longest it has been (count > hwm, the queue's length
 * with the transaction's sends): it becomes the high-water mark, unless the
 * sends do not fit (QUEUE_FULL). hwm <= queue_depth, so one comparison
 * with hwm stands for both on the common path. */
static NOINLINE int queue_full(am_rt *rt, uint32_t count)
{
    if (count > rt->queue_depth) return 1;
    rt->hwm = count;
    return 0;
}

/* The behavior of a transaction runs (rt->cur, seq and stg are set): the
 * target's, if it is live (else the transaction aborts with DEAD_TARGET
 * and 0 is returned); verdict: am_step_abort's cause, else 0. A staging
 * fault does not come back here: txn_fault jumps to run_loop. */
INLINE int run_behavior(am_rt *rt, const event *ev, uint32_t verdict)
{
    am_ref target = ev->target;
    uint32_t slot = SLOT_OF(target);
    if (UNLIKELY(rt->keys[slot] != target)) {
        rt->cur_beh = NO_BEH;
        abort_with(rt, AM_FAULT_DEAD_TARGET, AM_OP_DISPATCH);
        return 0;
    }
    actor *a = &rt->actors[slot];
    am_beh beh = a->beh;
    rt->cur_beh = beh;
    rt->self_st = a->st;

    rt->in_dispatch = beh + 1;
    if (UNLIKELY(verdict)) {                                        /* am_step_abort */
        am_rt_burn_slots(rt, rt->verdict_creates);  /* the hardware's CREATEs before it */
        txn_fault(rt, verdict, AM_OP_RUN, 0);
    }
    rt->behaviors[beh].fn(&rt->ctx);
    rt->in_dispatch = 0;
    return 1;
}

/* The transaction commits, or aborts with QUEUE_FULL; *tail and *count:
 * the queue's, which the common path updates. Returns 0 when it aborted or
 * left the common path (CREATEs, ...): rt then holds the queue, and stop
 * may have changed. */
INLINE int commit(am_rt *rt, event **tail, uint32_t *count)
{
    uint32_t c = *count + rt->stg.nsends, more = rt->stg.more;
    if (UNLIKELY(c > rt->hwm) && queue_full(rt, c)) {
        abort_with(rt, AM_FAULT_QUEUE_FULL, AM_OP_COMMIT);
        return 0;
    }
    if (UNLIKELY(more & MORE_SLOW)) {
        commit_slow(rt, c);
        return 0;
    }
    if (more) commit_words(rt, more);
    *tail = commit_sends(rt, *tail, c);
    *count = c;
    return 1;
}

/* One transaction, the queue's state in rt: the event ev (its ring slot,
 * or the fault delivery); verdict as for run_behavior. */
INLINE void dispatch(am_rt *rt, const event *ev, int delivery, uint32_t verdict)
{
    rt->cur = ev;
    rt->seq++;
    rt->stg = rt->stg_init;
    if (delivery) rt->stg.delivery = 1;
    event *tail = rt->tail;
    uint32_t count = rt->count;
    if (run_behavior(rt, ev, verdict)) commit(rt, &tail, &count);
}

INLINE const event *take_event(am_rt *rt)
{
    event *h = rt->head;
    rt->head = ring_next(rt, h);
    rt->count--;
    return h;
}

/* A dispatch the loop's slow path makes: a fault delivery, or one under a
 * verdict. */
static NOINLINE void dispatch_slow(am_rt *rt, const event *ev, int delivery)
{
    dispatch(rt, ev, delivery, rt->verdict);
}

/* Dispatch while nothing but a dispatch is due (seq < stop). The queue's
 * head, tail and length and seq live in locals (registers), so that no
 * dispatch waits on the stores of the one before; rt gets copies (stores
 * only) before the behavior runs -- which stages behind rt->tail, and may
 * leave by the abort jump -- and at commit. Returns 1 when the queue is
 * empty; 0 when seq reaches stop, and after a transaction off the common
 * path (an abort, a commit with CREATEs, ...), which may change stop and
 * leaves the queue's state in rt. */
INLINE int drain_fast(am_rt *rt)
{
    uint64_t seq = rt->seq;
    const uint64_t stop = rt->stop;
    event *head = rt->head, *tail = rt->tail;
    uint32_t count = rt->count;
    while (seq < stop) {
        if (UNLIKELY(count == 0)) return 1;
        event *ev = head;
        head = ring_next(rt, head);
        count--;
        rt->head = head;
        rt->count = count;
        rt->seq = ++seq;
        rt->cur = ev;
        rt->stg = rt->stg_init;
        if (UNLIKELY(!run_behavior(rt, ev, 0)) || UNLIKELY(!commit(rt, &tail, &count))) return 0;
    }
    return 0;
}

/* Dispatch until the queue is empty or the innermost run's budget is
 * spent (seq reaches end_seq). Below stop nothing but a dispatch is due;
 * at stop the slow path sees what is. A staging fault leaves by longjmp
 * (run_loop calls drain again). */
static NOINLINE void drain(am_rt *rt)
{
    for (;;) {
        if (LIKELY(rt->seq < rt->stop)) {
            if (drain_fast(rt)) return;
            continue;
        }
        if ((rt->count == 0 && !rt->redirect) || rt->seq == rt->end_seq) return;
        if (rt->redirect) {           /* a fault delivery goes first */
            rt->redirect = 0;
            update_stop(rt);
            dispatch_slow(rt, &rt->redirect_ev, 1);
        } else {
            /* due, unless a collection ran since the last dispatch (am_gc,
             * or mirroring the hardware's COLLECT): never two in a row, as
             * the hardware's gc_fresh_q (rtl/am_dispatch.v); am_unpin
             * clears gc_seq as UNPIN clears it */
            if (rt->seq >= rt->gc_at && rt->gc_seq != rt->seq) am_rt_gc_collect(rt, 0);
            update_stop(rt);
            dispatch_slow(rt, take_event(rt), 0);
        }
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
    if (!rt || !rt->wd_limit || rt->in_dispatch <= AM_BEH_FIRST_USER) return;
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
    update_stop(rt);
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
    update_stop(rt);
    return left;
}

am_status am_step(am_rt *rt)
{
    if (rt->in_dispatch) return AM_E_REENTRANT;
    if (rt->count == 0 && !rt->redirect) return AM_E_EMPTY;
    run_loop(rt, 1);
    return AM_OK;
}

am_status am_step_abort(am_rt *rt, uint32_t cause, uint32_t ncreates)
{
    if (rt->in_dispatch) return AM_E_REENTRANT;
    if (rt->count == 0 && !rt->redirect) return AM_E_EMPTY;
    if (cause == AM_FAULT_NONE || cause >= AM_FAULT_COUNT_ || ncreates > rt->max_creates)
        return AM_E_CONFIG;
    rt->verdict = cause;
    rt->verdict_creates = ncreates;
    run_loop(rt, 1);
    rt->verdict = 0;
    update_stop(rt);
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
    /* the hardware's order (rtl/am_unit_ext.v): a full queue is seen
     * before the target is looked up */
    if (rt->count >= rt->queue_depth) return AM_E_QUEUE_FULL;
    if (!ref_valid(rt, target)) return AM_E_BAD_REF;

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
    /* every dispatch ends in a commit or an abort; one that has not ended
     * yet is in dispatch (a callback from the console) */
    out->commits = rt->seq - rt->aborts - (rt->in_dispatch != 0);
    out->aborts = rt->aborts;
    out->faults = rt->faults;
    out->queue_len = rt->count;
    out->queue_high_water = rt->hwm;
    out->live = rt->nlive;
    out->seq = rt->seq;
    out->free = free_slots(rt);
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
