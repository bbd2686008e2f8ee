/*
 * am_rt.h — the host reference runtime: the golden model of the machine.
 *
 * Owns an actor table, a FIFO event queue and the transaction that is being
 * staged; dispatches one event at a time and commits or aborts exactly as
 * docs/semantics.md says. Deterministic: the same program, configuration and
 * calls give the same trace, byte for byte. Host code (tools, tests,
 * embedding) drives it through this header; behaviors only see include/am.h.
 */
#ifndef AM_RT_H
#define AM_RT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "am.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Error codes of the host API (behaviors see fault causes, not these). */
typedef enum am_status {
    AM_OK = 0,
    AM_E_CONFIG,      /* a bound is zero or above its ceiling */
    AM_E_NOMEM,       /* the host could not allocate the runtime */
    AM_E_BAD_REF,     /* inject/ask to a reference that is not valid */
    AM_E_BAD_BEHAVIOR,/* spawn with an unknown behavior id */
    AM_E_TOO_LONG,    /* more words than the configured bound */
    AM_E_TABLE_FULL,  /* spawn with no free slot */
    AM_E_QUEUE_FULL,  /* inject into a full queue */
    AM_E_EMPTY,       /* step with nothing queued */
    AM_E_NO_REPLY,    /* ask: the queue drained before the reply came */
    AM_E_LIMIT,       /* run/ask: the dispatch budget ran out */
    AM_E_REENTRANT,   /* called from inside a behavior */
    AM_STATUS_COUNT_
} am_status;

const char *am_strerror(am_status s);

/* One entry of a behavior table; the id of a behavior is its index. */
typedef struct am_behavior_desc {
    const char *name;
    am_behavior_fn fn;
} am_behavior_desc;

/* A fault record: the whole failed event and why. */
typedef struct am_fault_record {
    uint64_t seq;        /* the transaction's sequence number */
    uint32_t cause;      /* enum am_fault */
    am_word  code;       /* am_fail argument, else 0 */
    am_ref   target;
    am_beh   beh;        /* target's behavior; 0xffffffff if DEAD_TARGET */
    uint32_t op;         /* enum am_fault_op: the operation that failed */
    am_word  value;      /* the offending value (docs/semantics.md), else 0 */
    uint32_t len;
    am_word  msg[AM_MAX_MSG_WORDS];
} am_fault_record;

typedef struct am_rt am_rt;

typedef void (*am_fault_fn)(void *user, const am_fault_record *rec);
typedef void (*am_output_fn)(void *user, const char *bytes, size_t n);
typedef void (*am_trace_fn)(void *user, const char *line, size_t n);

#define AM_WATCHDOG_MS_MAX 3600000u

typedef struct am_config {
    uint32_t table_size;   /* actor slots incl. the console (2..65536) */
    uint32_t queue_depth;  /* events, excluding the one in dispatch (>=1) */
    uint32_t msg_words;    /* bound on message words (1..8) */
    uint32_t state_words;  /* state words per actor (1..8) */
    uint32_t max_sends;    /* sends per transaction (>=1) */
    uint32_t max_creates;  /* creates per transaction (>=1) */
    am_ref fault_handler;  /* where aborted events are delivered (default
                              AM_CONSOLE, as the hardware from reset; AM_NIL:
                              nowhere, records only) */
    /* Garbage collection (docs/gc.md, "When it runs"): a CREATE that finds
     * no free slot collects on demand and its transaction runs again;
     * before a dispatch, collect when fewer than gc_low slots are free (only
     * while the last collection left at least 2 * gc_low), or when gc_period
     * dispatches have run since the last collection. 0 turns that trigger
     * off (both 0: no automatic collection, not even on demand). Defaults:
     * gc_low = max_creates (4), gc_period = 1024, the hardware's reset
     * values. gc_period <= 65535. */
    uint32_t gc_low;
    uint32_t gc_period;
    /* The watchdog (docs/semantics.md): a program's behavior that runs
     * longer than watchdog_ms milliseconds of CPU time aborts with WATCHDOG
     * (within watchdog_ms rounded up to a multiple of 50, + 50). Default 1000; 0: off; at most
     * AM_WATCHDOG_MS_MAX. It uses SIGVTALRM and ITIMER_VIRTUAL (one timer
     * for the process, watching the runtime that is running): a program
     * that needs them, or runs runtimes in several threads, sets 0. */
    uint32_t watchdog_ms;
    /* The behavior table (NULL: am_std_behaviors, the library's; a program
     * folder's is its am_progset's). Entries 0..2 must be the built-ins. */
    const am_behavior_desc *behaviors;
    uint32_t nbehaviors;
    FILE *trace;           /* one line per transaction, or NULL (default) */
    am_trace_fn on_trace;  /* the same lines to a callback (NULL: none) */
    am_output_fn on_output;/* console bytes (NULL: stdout) */
    am_fault_fn on_fault;  /* fault records (NULL: kept for am_last_fault) */
    void *user;            /* passed to on_output / on_fault / on_trace */
    /* Test-only: when non-zero, the transaction with this sequence number
     * is corrupted -- bit 0 of the first word of its first send, else of the
     * lowest state word am_set_state staged, else of its BECOME state, else
     * of its first CREATE's state, or of its fault code
     * if it aborts (nothing if it commits with no effect) -- a deliberate
     * divergence that the lockstep checker must catch. */
    uint64_t test_perturb_seq;
    /* The host link is on (docs/link.md; am-run --link): console output and
     * ask replies leave as frames (am_link_wire.h) through on_output, exactly
     * as the firmware sends them with its link on. Decided when the runtime
     * is made, never by traffic. Default 0: plain console text. */
    uint32_t link;
} am_config;

/* Defaults: the hardware's default parameters (docs/actor-unit.md). */
void am_config_default(am_config *cfg);

/* The built-in behaviors (ids 0..2), the first entries of every table. */
void am_builtin_console(am_ctx *ctx);
void am_builtin_sink(am_ctx *ctx);
void am_builtin_ask(am_ctx *ctx);
#define AM_BUILTIN_BEHAVIORS \
    { "CONSOLE", am_builtin_console }, { "SINK", am_builtin_sink }, { "ASK", am_builtin_ask }

/* The library's behavior table: built-ins, then lib/lib_behaviors.def
 * (a program folder's table continues it: am_progset.h). */
extern const am_behavior_desc am_std_behaviors[];
extern const uint32_t am_std_nbehaviors;
/* Id of a behavior of a table by name, or 0xffffffff. */
am_beh am_behavior_by_name(const am_behavior_desc *tab, uint32_t n, const char *name);

am_status am_rt_new(const am_config *cfg, am_rt **out);
void      am_rt_free(am_rt *rt);

/* Outside transactions: make an actor live at once / append one event.
 * A spawned actor is a garbage-collection root (pinned) until am_unpin.
 * When no slot is free, am_spawn first collects on demand (unless nothing
 * can have become garbage since the last collection: no transaction, no
 * am_unpin), so garbage never makes it fail with AM_E_TABLE_FULL. */
am_status am_spawn(am_rt *rt, am_beh beh, uint32_t n, const am_word *state, am_ref *out);
/* Make a spawned actor collectable: from now on it lives only while it is
 * reachable (docs/gc.md). AM_E_BAD_REF if ref is not a live actor. The
 * console stays pinned (AM_E_BAD_REF for it too). */
am_status am_unpin(am_rt *rt, am_ref ref);
/* Collect now (outside transactions; the automatic trigger is am_config's
 * gc_low / gc_period). Returns the number of actors reclaimed; called from
 * inside a behavior it does nothing and returns 0. */
uint32_t am_gc(am_rt *rt);
am_status am_inject(am_rt *rt, am_ref target, uint32_t n, const am_word *msg);

/* Dispatch the next event (one transaction). AM_E_EMPTY if none queued. */
am_status am_step(am_rt *rt);
/* Lockstep only (sim/am_cosim.c): dispatch the next event as am_step does
 * but abort it with cause instead of running its behavior -- the hardware's
 * verdict on a transaction the host cannot judge (WATCHDOG: the budget is
 * the core's cycles; STACK: the image's stack). ncreates: the CREATEs the
 * hardware's behavior made before the verdict; the reference takes as many
 * slots, and the abort leaves them dead at their new generations, as any
 * abort does (docs/semantics.md, "Allocation"). AM_E_CONFIG for a cause
 * that is not a fault or more CREATEs than a transaction may make. */
am_status am_step_abort(am_rt *rt, uint32_t cause, uint32_t ncreates);
/* Lockstep only: the collection on demand that a CREATE finding no free
 * slot runs before its event is dispatched again (docs/gc.md), when the
 * reference did not run that first attempt itself: the hardware gave its
 * verdict (am_step_abort) on the event's second run, or an operation
 * between transactions came before the second run. ncreates: the CREATEs
 * the hardware's first attempt made before the one that found no slot;
 * the reference takes as many slots and leaves them dead, as the attempt
 * did, then collects. AM_E_REENTRANT inside a behavior, AM_E_CONFIG for
 * more CREATEs than a transaction may make. */
am_status am_collect_on_demand(am_rt *rt, uint32_t ncreates);
/* Dispatch until the queue is empty or max_dispatches have run (0 = no
 * limit); AM_OK when it drained, AM_E_LIMIT when the budget ran out. */
am_status am_run(am_rt *rt, uint64_t max_dispatches);

/* ASK: inject [customer, req...] to target with a fresh one-shot customer,
 * dispatch until the customer receives a message (at most max_dispatches,
 * 0 = no limit) and return that message. *reply_len may be NULL. */
am_status am_ask(am_rt *rt, am_ref target, uint32_t n, const am_word *req,
                 uint64_t max_dispatches, am_word reply[AM_MAX_MSG_WORDS],
                 uint32_t *reply_len);

typedef struct am_counters {
    uint64_t dispatches, commits, aborts, faults;
    uint32_t queue_len, queue_high_water;
    uint32_t live;          /* live actors, console included */
    uint64_t seq;           /* last sequence number used */
    uint32_t free;          /* free slots (free stack + never used) */
    uint64_t gc_runs;       /* collections */
    uint64_t gc_reclaimed;  /* actors reclaimed, in total */
    uint32_t gc_live_max;   /* most live actors right after a collection */
    uint32_t gc_live_last;  /* live actors right after the last collection */
    uint64_t gc_demand;     /* collections run on demand: a CREATE (or am_spawn)
                               found no free slot (part of gc_runs) */
    uint64_t gc_ns;         /* time spent collecting, in ns (CLOCK_MONOTONIC, read
                               at the start and end of each collection, never per
                               dispatch): the host's GC_CYCLES; not deterministic,
                               never in the trace */
} am_counters;
void am_get_counters(const am_rt *rt, am_counters *out);

/* The last fault record (for the default fault handler); NULL if none. */
const am_fault_record *am_last_fault(const am_rt *rt);

/* Inspect an actor from host code: AM_E_BAD_REF if not valid. */
am_status am_peek(const am_rt *rt, am_ref ref, am_beh *beh, am_word state[AM_MAX_STATE_WORDS]);

/* The host's model of a firmware trap: abort the running transaction with
 * cause (TRAP_ILLEGAL .. STACK), as the hardware does when a behavior
 * traps: the record's op is ABORT (the firmware's ABORT[cause] store) for a
 * trap, RUN for WATCHDOG and STACK (the unit's own abort), its value 0. For test programs that exercise the trap path on both targets
 * (the project's trap test programs use it); does not return. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noreturn))
#endif
void am_host_trap(am_ctx *ctx, uint32_t cause);

/* Write one fault record as a line ("fault seq=... cause=... op=... value=...
 * code=... target=... beh=N msg=[...]");
 * _named adds the behavior's name from table tab of n entries
 * ("beh=N(NAME)"). */
void am_fault_print(FILE *f, const am_fault_record *rec);
void am_fault_print_named(FILE *f, const am_fault_record *rec, const am_behavior_desc *tab,
                          uint32_t n);

/* The behavior table as "  ID NAME" lines (am-run / am-sim --behaviors). */
void am_behaviors_print(FILE *f, const am_behavior_desc *tab, uint32_t n);

#ifdef __cplusplus
}
#endif
#endif /* AM_RT_H */
