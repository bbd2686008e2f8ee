/*
 * prog_gc.h — parameters and message words of the garbage-collection test
 * programs (prog_gc.c), shared with their host tests (tests/lib/test_gc.c).
 */
#ifndef PROG_GC_H
#define PROG_GC_H

#include "am.h"

/* prog_gc.c's helpers, shared with prog_gcfull.c: the boot message's size
 * ([N]; [] or [0]: dflt), and "<a><v><b>" on the console */
uint32_t gc_boot_arg(const am_ctx *ctx, uint32_t dflt);
void gc_say_u(am_ctx *ctx, const char *a, uint32_t v, const char *b);

/* Default sizes (boot message [] or [0]); --arg N overrides them. */
#define GC_SER_DEFAULT    20000u  /* requests through the serializer (5 dispatches each) */
#define GC_CYCLES_DEFAULT 5000u   /* 3-rings made and dropped (5 dispatches each) */
#define GC_KEEP_DEFAULT   10000u  /* relay hops X's reference makes (2 dispatches each) */
#define GC_STORM_DEFAULT  300u    /* fan-out/fan-in rounds (94 dispatches each) */

/* gc-cycles: ring node messages */
#define GC_RING_SET   0x6c01u     /* [SET, next, driver]: learn next, start the token */
#define GC_RING_TOKEN 0x6c02u     /* [TOKEN, driver, ttl, sum] */
#define GC_RING_SUM   6u          /* tags 1 + 2 + 3: one full turn of a ring */

/* gc-keepalive: the cell behind X holds this value */
#define GC_KEEP_MAGIC 4242u

/* gc-abort: Y's hidden reference is stored as Y ^ GC_ABORT_MASK (same slot,
 * generation ^ 0xa5a5: not a valid reference, so it keeps nothing alive) */
#define GC_ABORT_MASK  0xa5a50000u
#define GC_ABORT_CODE  0x0ab0u    /* the failer's am_fail code */
#define GC_ABORT_HUNT_MAX 0x11000u /* give up: more creates than any table + period */
#define GC_ABORT_GO    0x6a01u    /* boot -> itself: do the stale send */
#define GC_WITNESS_QUERY 0x6a02u  /* [QUERY, cust] -> [messages received] */

/* gc-storm: a binary tree of depth GC_STORM_DEPTH per round; every node
 * gets a token actor holding its heap index (1..31); the join sums them */
#define GC_STORM_DEPTH 4u
#define GC_STORM_NODES 31u        /* 2^(DEPTH+1) - 1 */
#define GC_STORM_SUM   496u       /* 1 + 2 + ... + 31 */

/* gc-ring, gc-ring-churn, gc-sieve (prog_gcfull.c): a table nearly full
 * of live actors. The ring's nodes, the console and the boot actor leave 2
 * of 128 slots free; so do the 124 primes up to GC_SIEVE_DEFAULT's filters
 * with the console and the generator. */
#define GC_FULL_RING       124u
#define GC_FULL_HOPS       20000u  /* gc-ring: token hops (1 dispatch each) */
#define GC_FULL_CHURN_HOPS 2000u   /* gc-ring-churn: hops, one garbage actor each */
#define GC_FULL_CLOSE      0x7a01u /* [CLOSE, next] */
#define GC_FULL_TOKEN      0x7a02u /* [TOKEN, hops left] */
#define GC_FULL_DONE       0x7a03u /* [DONE] to the boot actor */
#define GC_SIEVE_DEFAULT   690u    /* numbers 2..N: 124 primes */

/* gc-restart: a supervisor restarts a failing worker from its fault
 * handler, N times (default GC_RESTART_DEFAULT); each restart creates a
 * worker, its witness and GC_RESTART_JUNK garbage actors (4 = MAX_CREATES) */
#define GC_RESTART_DEFAULT 100u
#define GC_RESTART_JUNK    2u
#define GC_RESTART_WORK    0x6e01u /* [WORK, witness]: the worker fails */
#define GC_RESTART_PING    0x6e02u /* [PING, cust] -> cust [PONG] */
#define GC_RESTART_PONG    0x6e03u
#define GC_RESTART_CODE    0x0e01u /* the worker's am_fail code */

#endif /* PROG_GC_H */
