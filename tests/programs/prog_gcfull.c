/*
 * prog_gcfull.c — a table nearly full of live actors (docs/gc.md, "When it
 * runs"): the collector must neither thrash nor let garbage cause
 * TABLE_FULL. Each boot behavior takes its size from the boot message ([N];
 * [] or [0]: the default in prog_gc.h) and ends with one console line that
 * tests/lib/test_gc.c and tests/sim/run.sh check.
 *
 *   gc-ring        a ring of GC_FULL_RING live nodes -- with the console and
 *                  the boot actor, 2 slots short of a 128-slot table -- passes
 *                  a token N hops. Nothing is garbage: a collection before
 *                  every dispatch (the old low-water rule) would reclaim
 *                  nothing each time.
 *   gc-ring-churn  the same ring; every hop also creates an actor nobody
 *                  keeps. The 2 free slots run out every 2 hops: each time a
 *                  CREATE finds no slot, a collection runs on demand and the
 *                  hop runs again. It must never fault TABLE_FULL.
 *   gc-sieve       the sieve of Eratosthenes over 2..N as a growing chain of
 *                  filter actors, one per prime (N = 690: 124 primes, so the
 *                  chain, the generator and the console end 2 slots short of
 *                  128). One number is in flight at a time.
 *
 * Portable behaviors only (am.h and the library): no globals, no libc.
 */
#include "am.h"
#include "am_lib.h"
#include "behaviors.h"
#include "prog_gc.h"

/* ---- gc-ring, gc-ring-churn -------------------------------------------------- */
/* FULL_RING (the boot actor) state [hops, churn, built, last, first]
 *   boot [N]: becomes the builder; [] from itself: creates up to 4 nodes,
 *   each pointing at the one before; when all are built, closes the ring
 *   ([CLOSE, last] to the first node) and sends [TOKEN, hops] to the last
 *   one; [DONE] from the node where the token ran out: prints the result.
 * FULL_NODE state [next, boot, churn]
 *   [CLOSE, next]: learns its next node
 *   [TOKEN, h]: with churn, creates a SINK nobody keeps; at h = 0 tells the
 *   boot actor, else passes [TOKEN, h - 1] on */
static void ring_boot(am_ctx *ctx, uint32_t churn, uint32_t dflt)
{
    am_word hops = am_state(ctx, 0), built = am_state(ctx, 2);
    am_ref last = am_state(ctx, 3), first = am_state(ctx, 4);
    am_ref self = am_self(ctx);
    if (hops == 0) {                                  /* the boot message */
        hops = gc_boot_arg(ctx, dflt);
    } else if (am_msg_len(ctx) == 1 && am_msg(ctx, 0) == GC_FULL_DONE) {
        gc_say_u(ctx, churn ? "gc-ring-churn: " : "gc-ring: ", built, " nodes, ");
        gc_say_u(ctx, "", hops, " hops\n");
        return;
    }
    for (uint32_t i = 0; i < 4 && built < GC_FULL_RING; i++, built++) {
        last = AM_CREATE(ctx, AMB_PROG_GC_FULL_NODE, last, self, churn);
        if (!first) first = last;
    }
    if (built < GC_FULL_RING) {
        am_send(ctx, self, 0, 0);
    } else {
        AM_SEND(ctx, first, GC_FULL_CLOSE, last);
        AM_SEND(ctx, last, GC_FULL_TOKEN, hops);
    }
    AM_BECOME(ctx, am_my_behavior(ctx), hops, churn, built, last, first);
}

void prog_gc_ring(am_ctx *ctx) { ring_boot(ctx, 0, GC_FULL_HOPS); }
void prog_gc_ring_churn(am_ctx *ctx) { ring_boot(ctx, 1, GC_FULL_CHURN_HOPS); }

void prog_gc_full_node(am_ctx *ctx)
{
    am_ref next = am_state(ctx, 0), boot = am_state(ctx, 1);
    am_word churn = am_state(ctx, 2);
    if (am_msg(ctx, 0) == GC_FULL_CLOSE) {
        AM_BECOME(ctx, AMB_PROG_GC_FULL_NODE, am_msg(ctx, 1), boot, churn);
        return;
    }
    am_word h = am_msg(ctx, 1);
    if (churn) AM_CREATE(ctx, AM_BEH_SINK, h);        /* garbage at once */
    if (h == 0) AM_SEND(ctx, boot, GC_FULL_DONE);
    else AM_SEND(ctx, next, GC_FULL_TOKEN, h - 1);
}

/* ---- gc-sieve -------------------------------------------------------------------- */
/* SIEVE_GEN state [n, N, first, primes]: sends [n, self] to the first
 *   filter; [isprime] back from the filter that decided n: counts it, goes
 *   on with n + 1, or after N prints the result. The filters stay reachable
 *   from its state (first, then each filter's next).
 * SIEVE_FILTER state [p, next]: [n, gen]: n divisible by p: [0] to gen;
 *   else to the next filter, or, the last one, creates the filter of the new
 *   prime n, keeps it as next, and sends [1] to gen. */
void prog_gc_sieve(am_ctx *ctx)
{
    am_word top = gc_boot_arg(ctx, GC_SIEVE_DEFAULT);
    am_ref first = AM_CREATE(ctx, AMB_PROG_GC_SIEVE_FILTER, 2, 0);
    AM_SEND(ctx, first, 3, am_self(ctx));
    AM_BECOME(ctx, AMB_PROG_GC_SIEVE_GEN, 3, top, first, 1);
}

void prog_gc_sieve_gen(am_ctx *ctx)
{
    am_word n = am_state(ctx, 0), top = am_state(ctx, 1), primes = am_state(ctx, 3);
    am_ref first = am_state(ctx, 2);
    primes += am_msg(ctx, 0);
    if (n >= top) {
        gc_say_u(ctx, "gc-sieve: 2..", top, ": ");
        gc_say_u(ctx, "", primes, " primes\n");
        return;
    }
    AM_SEND(ctx, first, n + 1, am_self(ctx));
    AM_BECOME(ctx, AMB_PROG_GC_SIEVE_GEN, n + 1, top, first, primes);
}

void prog_gc_sieve_filter(am_ctx *ctx)
{
    am_word p = am_state(ctx, 0), n = am_msg(ctx, 0);
    am_ref next = am_state(ctx, 1), gen = am_msg(ctx, 1);
    if (n % p == 0) {
        AM_SEND(ctx, gen, 0);
    } else if (next) {
        AM_SEND(ctx, next, n, gen);
    } else {
        next = AM_CREATE(ctx, AMB_PROG_GC_SIEVE_FILTER, n, 0);
        AM_BECOME(ctx, AMB_PROG_GC_SIEVE_FILTER, p, next);
        AM_SEND(ctx, gen, 1);
    }
}
