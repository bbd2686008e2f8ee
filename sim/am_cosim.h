/*
 * am_cosim.h — the lockstep checker: the hardware's transactions, as the
 * Verilator testbench collects them from the actor unit's trace port, are
 * compared one by one with the reference runtime doing the same dispatch.
 *
 * The testbench (sim/am_sim_main.cpp) feeds events in; this module owns the
 * reference runtime, the comparison, and the divergence report. It is plain
 * C so that it links the reference runtime without a C++ layer in between.
 */
#ifndef AM_COSIM_H
#define AM_COSIM_H

#include <stdint.h>
#include <stdio.h>

#include "am.h"
#include "am_rt.h"

#ifdef __cplusplus
extern "C" {
#endif

#define COSIM_MAX_EFFECTS 16

/* One transaction as the hardware reported it. */
typedef struct cosim_txn {
    uint64_t seq;
    int committed;
    am_ref target;
    am_beh beh;            /* 0xffffffff when DEAD_TARGET */
    uint32_t len;
    am_word msg[AM_MAX_MSG_WORDS];
    uint32_t ncreates;
    struct { am_ref ref; am_beh beh; uint32_t n; am_word st[AM_MAX_STATE_WORDS]; } creates[COSIM_MAX_EFFECTS];
    uint32_t nsends;
    struct { am_ref target; uint32_t n; am_word msg[AM_MAX_MSG_WORDS]; } sends[COSIM_MAX_EFFECTS];
    int has_become;
    am_beh become_beh;
    uint32_t become_n;
    am_word become_st[AM_MAX_STATE_WORDS];
    uint32_t state_set;    /* state words staged after the last BECOME (am_set_state) */
    am_word state_v[AM_MAX_STATE_WORDS];
    int has_handler;
    am_ref handler;
    uint32_t cause;
    am_word code;
    uint32_t op;           /* enum am_fault_op */
    am_word value;         /* the offending value */
} cosim_txn;

typedef struct cosim cosim;

/* cfg: the hardware's bounds (behavior table: the standard one). boot: the
 * boot behavior both sides spawn and send one message to: [] when arg is 0,
 * else [arg]. trace_out: where to write every matched transaction line
 * (NULL: nowhere). */
cosim *cosim_new(const am_config *cfg, am_beh boot, am_word arg, FILE *trace_out);
void cosim_free(cosim *c);

/* Reset the transaction being collected (call before filling it). */
void cosim_txn_clear(cosim_txn *t);

/* A byte the hardware's console wrote to the UART. */
void cosim_uart_byte(cosim *c, uint8_t b);

/* A complete hardware transaction: the reference dispatches its next event
 * and the two are compared, console output included. Returns 0 when they
 * match; otherwise writes the divergence report to stderr and returns -1. */
int cosim_check(cosim *c, const cosim_txn *hw);

/* The hardware collected garbage after transaction seq: reclaimed actors,
 * live ones after, free slots after, and whether a CREATE that found no slot
 * asked for it (on demand: that transaction is dispatched again; ncreates:
 * the CREATEs its abandoned attempt made, which it left dead -- needed
 * when the reference does not run that attempt itself: a verdict on the
 * second run, an operation between transactions before it). Checked
 * against the reference runtime's collection (it runs inside the next
 * am_step) at the next cosim_check. */
void cosim_gc(cosim *c, uint64_t seq, uint32_t reclaimed, uint32_t live, uint32_t free_slots,
              int on_demand, uint32_t ncreates);

/* The hardware collected between transactions for COLLECT (trace record
 * GC_COLLECT: a SPAWN found no slot): the reference collects on demand now
 * and the two are compared. A collection the hardware made before (see
 * cosim_gc) that no transaction followed yet is mirrored first -- as it is
 * before an operation between transactions (cosim_ext). 0 when they match,
 * else report and -1. */
int cosim_collect(cosim *c, uint64_t seq, uint32_t reclaimed, uint32_t live, uint32_t free_slots);

/* The hardware halted with an empty queue: the reference must be idle too
 * and the console output identical. 0 when so, else report and -1. */
int cosim_finish(cosim *c);

/* ---- the host link (docs/link.md, am-sim --link) ----------------------------
 * cosim_set_link: the UART carries the link's frames (the reference runs
 * with am_config.link set, so its console and proxies frame their output):
 * the hardware's stream is cut at each delimiter and decoded with the
 * shared codec; frames sent by behaviors (type bit 6) are compared byte for
 * byte with the reference's output, the link service's (acks, credits,
 * errors, stats: between transactions) are counted and left out. */
void cosim_set_link(cosim *c);

/* An operation between transactions, from the trace port: SPAWN (ref, beh,
 * n state words w), INJECT (ref = target, n message words w) or UNPIN (ref),
 * after the transaction the reference last dispatched. A hardware
 * collection reported before it (cosim_gc) is mirrored first. The first SPAWN and
 * INJECT are the boot's (cosim_new made them): they are compared with it.
 * Every later one is done on the reference runtime at this point -- the
 * same transaction boundary -- and must give the same result (a SPAWN the
 * same reference). 0 when so, else report and -1. */
int cosim_ext(cosim *c, unsigned kind, am_ref ref, am_beh beh, uint32_t n, const am_word *w);

/* The hardware stopped at the host's request (SHUTDOWN) with events still
 * queued, perhaps: the reference must hold the same undelivered events and
 * the compared output must be identical. 0 when so, else report and -1. */
int cosim_finish_stopped(cosim *c);

/* Frames the hardware sent: by behaviors (compared), by the link service
 * (left out). */
void cosim_link_frames(const cosim *c, uint64_t *behavior, uint64_t *service);

/* Test only: the conservation model forgets the first send committed by
 * transaction seq, as if the hardware had lost it; the check must report
 * it when the hardware dispatches that event. */
void cosim_test_forget(cosim *c, uint64_t seq);

uint64_t cosim_checked(const cosim *c);
/* The console output so far (NUL-terminated). */
const char *cosim_console(const cosim *c);
am_rt *cosim_ref(cosim *c);

#ifdef __cplusplus
}
#endif
#endif /* AM_COSIM_H */
