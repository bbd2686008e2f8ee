/*
 * am_rt_impl.h — the reference runtime's insides, shared by its modules:
 * am_rt.c (the table, the queue, transactions and the dispatch loop) and
 * am_gc.c (the collector). Not an API: programs include am.h, hosts
 * am_rt.h. Why the data is laid out as it is: am_rt.c's head comment and
 * docs/performance.md, "How the reference runtime is built for speed".
 */
#ifndef AM_RT_IMPL_H
#define AM_RT_IMPL_H

#include "am_rt.h"

#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "am_console.h"
#include "am_iface.h"
#include "am_trace.h"

#define SLOT_OF(ref) ((ref) & 0xffffu)
#define AM_SLOTS 65536u              /* the slots a reference can name */
#define GEN_OF(ref)  ((ref) >> 16)
#define MAKE_REF(gen, slot) (((am_word)(gen) << 16) | (am_word)(slot))
/* KEYS. A slot's table word (am_rt.keys) has its generation in the high
 * half, always. The low half is the slot itself while the slot is live, so
 * the word of a live slot *is* its reference, and a word w is a valid
 * reference exactly when keys[SLOT_OF(w)] == w. Otherwise the low half is
 * anything but the slot: the slot's complement when dead; 0 when never
 * used (slot 0, the console, is live from reset); the live word with
 * PENDING_FLIP flipped while the running transaction's CREATE holds the
 * slot, with GC_MARK flipped while the running collection has marked it. */
#define PENDING_FLIP 1u
#define GC_MARK      2u
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
/* The behavior API's definitions say inline (they stay external
 * definitions: am.h declares them without it), so that a build with -flto
 * (the benchmark's) puts the accessors into the behaviors, and always the
 * staging operations, whose constant lengths then fold. */
#define API_INLINE  __attribute__((always_inline)) inline
#else
#define LIKELY(x)   (x)
#define UNLIKELY(x) (x)
#define NOINLINE
#define INLINE      static inline
#define API_INLINE  inline
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
    am_beh beh;
    uint32_t flags;                  /* A_PINNED (docs/gc.md) */
} actor;

#define A_PINNED 1u                  /* a root: the console, spawned actors */

/* A CREATE of the transaction: its reference (SEND accepts it) and length
 * (the trace prints that many words); behavior and state are in its slot. */
typedef struct staged_create {
    am_ref ref;
    uint32_t n;
} staged_create;

/* What the transaction has staged so far; set from stg_init by one copy
 * per dispatch. more is not 0 when the commit has more to do than append
 * the sends. Each field is written whole (more by |= and &=), so that a
 * later read of it is served by one store. */
typedef struct staged {
    uint32_t nsends;
    uint32_t ncreates;
    uint32_t more;                   /* MORE_*, and the state words am_set_state
                                        staged (MORE_WORDS) */
    uint8_t become;                  /* am_become wrote self's record */
    uint8_t delivery;                /* the event in dispatch is a fault delivery */
    uint8_t send_set;                /* am_send_word: the words set (send_setv) for
                                        the send staged after send_set_at sends */
    uint8_t pad_;
} staged;
#define MORE_CREATES 1u              /* a CREATE */
#define MORE_HANDLER 2u              /* a SET_HANDLER (staged_handler) */
#define MORE_HOOKS   4u              /* tracing or test_perturb_seq (am_rt_new) */
#define MORE_SLOW    0xffu           /* the above: the commit leaves the common path */
/* bit WORD0 + i: state word i was staged (state_setv[i]) */
#define MORE_WORD0   8u
#define MORE_WORDS   (0xffu << MORE_WORD0)
_Static_assert(sizeof(staged) == 16, "one 16-byte store clears it");

/* The behavior's context is the first member of the runtime. */
struct am_ctx {
    char unused_;
};

struct am_rt {
    am_ctx ctx;                      /* must stay first: RT_OF(ctx) */

    /* ---- hot: the dispatch loop and the behavior's view ---- */
    const event *cur;                /* the event in dispatch (its ring slot) */
    const am_word *self_st;          /* self's state as at dispatch: its table
                                        record, or become_undo after am_become */
    actor *self;                     /* self's table record, once am_become ran */
    am_beh cur_beh;                  /* self's behavior as at dispatch */
    staged stg, stg_init;
    uint64_t seq;                    /* the last sequence number used (= dispatches) */
    uint64_t stop;                   /* the loop's slow path runs when seq reaches it:
                                        min(end_seq, gc_at), 0 while a fault delivery
                                        or a verdict waits (update_stop) */

    uint32_t *keys;                  /* every slot's table word, AM_SLOTS of them */
    actor *actors;
    event *ring;                     /* ring of cap = queue_depth + max_sends, then
                                        max_sends slots where staging runs over */
    event *ring_end;                 /* ring + cap */
    event *head, *tail;              /* tail = head + count (mod cap) */
    uint32_t cap, count, hwm;

    /* configured bounds (copies of cfg) */
    uint32_t table_size, queue_depth, msg_words, state_words;
    uint32_t max_sends, max_creates, nbehaviors;
    const am_behavior_desc *behaviors;

    uint32_t become_n;               /* words given to the last BECOME (the trace) */
    am_word become_undo[AM_MAX_STATE_WORDS];   /* self's state at dispatch, once BECOME ran */
    /* For the trace and the test perturbation only (MORE_HOOKS): the last
     * BECOME's words */
    am_word become_words[AM_MAX_STATE_WORDS];
    /* The words am_set_state staged since the last BECOME (stg.more's
     * MORE_WORDS bits say which): the commit writes them into self's
     * record, after the BECOME's words */
    am_word state_setv[AM_MAX_STATE_WORDS];
    /* am_send_word: the words set (stg.send_set, which each dispatch
     * clears) are for the send staged after send_set_at sends, so that no
     * send has to clear them */
    uint32_t send_set_at;
    am_word send_setv[AM_MAX_MSG_WORDS];

    staged_create *creates;
    /* The free stack (docs/semantics.md, "Allocation"): the slots below next
     * that are not live, as the last collection left them, lowest on top.
     * Until the next collection only pops change it (an abort undoes its
     * pops), and a pop takes the lowest, so it is kept as a count and the
     * slot where the search for the next one starts: the lowest slot from
     * free_cursor on whose live bit is clear. */
    uint32_t free_count, free_cursor;
    uint32_t next;                   /* lowest never-used slot */
    uint32_t nlive;
    uint32_t snap_free_count, snap_free_cursor; /* taken by the first CREATE */
    uint64_t snap_seq;               /* the transaction that took them */

    /* ---- garbage collection (docs/gc.md) ---- */
    uint32_t gc_low, gc_period;      /* the triggers (am_config) */
    uint64_t gc_at;                  /* a collection is due before the dispatch
                                        that would take sequence number gc_at + 1
                                        or later (gc_due_at) */
    uint32_t gc_armed;               /* the low-water trigger is armed: the last
                                        collection left >= 2 * gc_low free */
    uint64_t gc_seq;                 /* the last collection ran after this
                                        transaction (GC_SEQ_NONE: none since a
                                        transaction or am_unpin) */
    uint64_t gc_demand;              /* collections run on demand */
    /* The collector's view of the table besides keys (where a collection
     * flips GC_MARK): the live slots, a bitmap for a level of the mark (and
     * then the marked slots), the slots marked in order, the pinned ones. */
    uint64_t *live_bits, *gc_front;
    uint32_t *gc_queue;              /* each marked slot, once: table_size entries */
    uint32_t *pinned;                /* the pinned actors' slots (the roots), in no order */
    uint32_t npinned;
    uint64_t gc_runs, gc_reclaimed;
    uint32_t gc_live_max, gc_live_last;
    uint64_t gc_ns;                  /* time spent collecting (am_counters) */

    uint32_t in_dispatch;            /* a behavior runs: its id + 1 (the watchdog
                                        watches the program's, > AM_BEH_FIRST_USER) */
    uint32_t verdict;                /* am_step_abort: the cause to abort with */
    uint32_t verdict_creates;        /* ... after as many CREATEs as the hardware's */
    /* the watchdog (am_config.watchdog_ms): ticks of WD_TICK_MS seen by the
     * same dispatch (wd_seq) while a program's behavior ran */
    uint32_t wd_limit, wd_ticks;
    uint64_t wd_seq;
    int tracing;                     /* trace file or callback set */
    uint32_t fault_cause;
    am_word fault_code;
    uint32_t fault_op;               /* enum am_fault_op */
    am_word fault_value;             /* the offending value (docs/semantics.md) */
    uint64_t aborts, faults;
    uint64_t perturb_seq;
    uint64_t end_seq;                /* the innermost run stops at this seq */
    am_jmp_buf abort_jmp;

    /* ---- fault delivery (docs/semantics.md) ---- */
    am_ref handler;                  /* the fault handler, AM_NIL: none */
    am_ref staged_handler;
    int redirect;                    /* the failed event awaits delivery */
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
/* The collector (am_gc.c): a stop-the-world collection, on demand or not;
 * returns the number of actors reclaimed. */
uint32_t am_rt_gc_collect(am_rt *rt, int on_demand);
/* What an aborted attempt leaves of k CREATEs that the reference did not
 * run (lockstep: the hardware's, before a verdict or a retry): k slots
 * taken as CREATE takes them and left dead at their new generations; the
 * free stack as it was (am_rt.c, undo_txn). */
void am_rt_burn_slots(am_rt *rt, uint32_t k);
#define CRT_OF(ctx) ((const am_rt *)(const void *)(ctx))

/* The lowest set bit of a 64-bit word x != 0. */
#if defined(__GNUC__) || defined(__clang__)
#define PREFETCH(p) __builtin_prefetch(p)
INLINE int low_bit(uint64_t x) { return __builtin_ctzll(x); }
#else
#define PREFETCH(p) ((void)(p))
INLINE int low_bit(uint64_t x) { int b = 0; while (!(x & 1)) x >>= 1, b++; return b; }
#endif

/* ---- the actor table ------------------------------------------------------ */

INLINE uint32_t free_slots(const am_rt *rt)
{
    return rt->free_count + (rt->table_size - rt->next);
}

/* ---- the event queue ------------------------------------------------------ */

INLINE event *ring_next(const am_rt *rt, event *e)
{
    return e + 1 == rt->ring_end ? rt->ring : e + 1;
}

/* ---- when to stop the dispatch loop, when to collect ------------------------
 * The proactive trigger (docs/gc.md, "When it runs") is checked before every
 * dispatch that takes an event from the queue (never before a fault
 * delivery): fewer than gc_low free slots while armed (the last collection
 * left at least 2 * gc_low), or gc_period + GC_LIVE_SCALE * (live after the
 * last collection) dispatches since it -- a collection's work grows with the
 * live actors, so its period does too. Both are one sequence number, gc_at:
 * the collection is due once seq >= gc_at. The period's is set by each
 * collection. Free slots only shrink between two collections (an abort
 * gives back at most the free stack's slots its own transaction took), so
 * the low-water condition, once true, stays true until the next one:
 * whatever allocates for good (a committed CREATE, am_spawn, an abort whose
 * CREATEs took never-used slots) checks it and makes the collection due at
 * once (gc_at = 0). A due collection waits for the next dispatch when one ran
 * since the last (gc_seq == seq: am_gc, am_collect_on_demand), as on the
 * hardware. A CREATE that finds no slot collects on demand
 * (table_full_cause, do_retry). */

static inline void update_stop(am_rt *rt)
{
    uint64_t s = rt->end_seq < rt->gc_at ? rt->end_seq : rt->gc_at;
    rt->stop = rt->redirect || rt->verdict ? 0 : s;
}

/* After a collection (and at reset): the period from now, unless the low
 * water is already reached. */
static inline void gc_schedule(am_rt *rt)
{
    rt->gc_at = rt->gc_period ? rt->seq + rt->gc_period + (uint64_t)GC_LIVE_SCALE * rt->gc_live_last
                              : UINT64_MAX;
    if (rt->gc_armed && free_slots(rt) < rt->gc_low) rt->gc_at = 0;
    update_stop(rt);
}

#endif /* AM_RT_IMPL_H */
