/*
 * wl_boot.c — the benchmark workloads as boot programs for the SoC (issue 6,
 * hardware figures): `am-sim bench-NAME` (bench/workloads/programs.def) runs one
 * workload, scaled for simulation and for the hardware's bounds (actor table
 * 128 slots incl. the console, queue 63 events): fewer than ~120 actors per
 * run, so that the figures measure dispatch, not collection (the gc-*
 * programs measure the collector), and checks its answer on the machine: the boot actor
 * plays the workload's LEDGER (it receives the [DONE, v] results), compares
 * them with the expected values and prints one line
 *     bench NAME: ok ...        or        bench NAME: WRONG ... (expected ...)
 * bench/hw.sh runs them, parses the hardware counters and writes
 * build/bench/hw.md; docs/performance.md explains the method.
 *
 * Behaviors only (include/am.h rules: words only, no libc, no pointers, no
 * globals, <= 8 sends and <= 4 creates per transaction, <= 8 words). The
 * workloads' own behaviors (bench/wl_*.c) do the work unchanged, except
 * PingPong's ping, which has no way to report its count (the host driver
 * reads it with am_peek): BENCH_HW_PING below is amb_ping plus a ledger
 * word and a [DONE, received] after the last pong.
 *
 * A boot actor starts with empty state and one empty message; it builds its
 * workload over several transactions (<= 4 creates each), continuing with
 * [START] messages to itself, then collects [DONE, v]. The figures of a run
 * include this set-up and the check (a few percent of the dispatches).
 */
#include "bench.h"

/* ---- parameters (docs/performance.md, "Hardware") ------------------------ */
#define HW_PINGPONG_N   1500u  /* round trips: 3,000 messages               */
#define HW_RING_NODES    100u  /* actors in the ring                         */
#define HW_RING_HOPS    3050u  /* token hops; stops at node 3050 % 100 = 50  */
#define HW_COUNTING_N   3000u  /* increments                                 */
#define HW_FJ_N          100u  /* workers created (all fit the table of 128) */
#define HW_FIB_N           9u  /* fib(9) = 34: 109 actors, 218 messages      */
#define HW_BIG_NODES      32u  /* nodes, each with neighbours i+1..i+5       */
#define HW_BIG_PINGS      50u  /* pings per node: 3,200 messages             */
#define HW_BANK_ACCOUNTS   6u  /* accounts (the teller holds their refs)     */
#define HW_BANK_TRANSFERS 600u /* transfers, HW_BANK_ROUND at a time         */
#define HW_BANK_ROUND      3u
#define HW_BANK_INITIAL 1000000000u

/* "bench NAME: ok VALUE TEXT" or "bench NAME: WRONG VALUE (expected WANT) TEXT";
 * at most 7 sends. */
static void hw_report(am_ctx *ctx, const char *name, am_word got, am_word want, const char *text)
{
    am_print(ctx, name);
    if (got == want) {
        am_print(ctx, ": ok ");
        am_print_uint(ctx, got);
    } else {
        am_print(ctx, ": WRONG ");
        am_print_uint(ctx, got);
        am_print(ctx, " (expected ");
        am_print_uint(ctx, want);
        am_print(ctx, ")");
    }
    am_print(ctx, text);
}

static int hw_is_boot(const am_ctx *ctx) { return am_msg_len(ctx) == 0; }

/* ---- PingPong ------------------------------------------------------------
 * BENCH_HW_PING [pong, remaining, received, ledger]: amb_ping, and after
 * the last pong [DONE, received] to ledger. */
void amb_hw_ping(am_ctx *ctx)
{
    am_word tag = am_msg(ctx, 0), left = am_state(ctx, 1), got = am_state(ctx, 2);
    if (tag == BT_PONG) am_set_state(ctx, 2, ++got);
    else if (tag != BT_START) am_fail(ctx, BF_UNEXPECTED);
    if (left > 0) {
        AM_SEND(ctx, am_state(ctx, 0), BT_PING, am_self(ctx));
        am_set_state(ctx, 1, left - 1);
    } else if (tag == BT_PONG) {
        AM_SEND(ctx, am_state(ctx, 3), BT_DONE, got);
    }
}

/* boot: a PONG and a ping; [DONE, received] -> check */
void amb_hw_pingpong(am_ctx *ctx)
{
    if (hw_is_boot(ctx)) {
        am_ref pong = am_create(ctx, AMB_BENCH_PONG, 0, 0);
        am_ref ping = AM_CREATE(ctx, AMB_BENCH_HW_PING, pong, HW_PINGPONG_N, 0, am_self(ctx));
        AM_SEND(ctx, ping, BT_START);
    } else if (am_msg(ctx, 0) == BT_DONE) {
        hw_report(ctx, "bench pingpong", am_msg(ctx, 1), HW_PINGPONG_N, " round trips\n");
    } else {
        am_fail(ctx, BF_UNEXPECTED);
    }
}

/* ---- ThreadRing ------------------------------------------------------------
 * boot state [left, next, last]: creates the nodes in reverse order, 4 per
 * transaction, node i with [next = node i+1, i]; closes the ring (LINK of
 * the last node to node 0) and sends the token to node 0. [DONE, index]
 * -> check index == HOPS % NODES. */
void amb_hw_ring(am_ctx *ctx)
{
    am_word tag = am_msg(ctx, 0);
    if (hw_is_boot(ctx) || tag == BT_START) {
        am_word left = hw_is_boot(ctx) ? HW_RING_NODES : am_state(ctx, 0);
        am_ref next = am_state(ctx, 1), last = am_state(ctx, 2);
        for (uint32_t k = 0; k < 4 && left > 0; k++) {
            left--;
            next = AM_CREATE(ctx, AMB_BENCH_RING_NODE, next, left);
            if (left == HW_RING_NODES - 1) last = next;
        }
        if (left > 0) {
            AM_SEND(ctx, am_self(ctx), BT_START);
        } else {
            AM_SEND(ctx, last, BT_LINK, next);               /* last -> node 0 */
            AM_SEND(ctx, next, BT_TOKEN, HW_RING_HOPS, am_self(ctx));
        }
        AM_BECOME(ctx, AMB_BENCH_HW_RING, left, next, last);
    } else if (tag == BT_DONE) {
        hw_report(ctx, "bench ring", am_msg(ctx, 1), HW_RING_HOPS % HW_RING_NODES,
                  " = node where the token stopped (100 nodes, 3050 hops)\n");
    } else {
        am_fail(ctx, BF_UNEXPECTED);
    }
}

/* ---- Counting ------------------------------------------------------------- */
void amb_hw_counting(am_ctx *ctx)
{
    if (hw_is_boot(ctx)) {
        am_ref counter = AM_CREATE(ctx, AMB_BENCH_COUNTER, 0);
        am_ref prod = AM_CREATE(ctx, AMB_BENCH_PRODUCER, counter, HW_COUNTING_N, am_self(ctx));
        AM_SEND(ctx, prod, BT_START);
    } else if (am_msg(ctx, 0) == BT_DONE) {
        hw_report(ctx, "bench counting", am_msg(ctx, 1), HW_COUNTING_N, " increments counted\n");
    } else {
        am_fail(ctx, BF_UNEXPECTED);
    }
}

/* ---- Fork-Join (actor creation) ---------------------------------------------
 * boot state [count, sum]: the LEDGER of the workers' results; after the
 * last one checks the count (implicitly) and the sum of bench_fj_value(i). */
/* the sum of the workers' results against the one expected */
static void hw_fj_check(am_ctx *ctx, am_word sum)
{
    am_word want = 0;
    for (am_word i = 0; i < HW_FJ_N; i++) want += bench_fj_value(i);
    hw_report(ctx, "bench fjcreate", sum, want, " = sum of the results of 100 workers\n");
}

void amb_hw_fjcreate(am_ctx *ctx)
{
    if (hw_is_boot(ctx)) {
        am_ref forker = AM_CREATE(ctx, AMB_BENCH_FJ_FORKER, HW_FJ_N, am_self(ctx), 0);
        AM_SEND(ctx, forker, BT_START);
        return;
    }
    if (am_msg(ctx, 0) != BT_DONE) am_fail(ctx, BF_UNEXPECTED);
    am_word count = am_state(ctx, 0) + 1, sum = am_state(ctx, 1) + am_msg(ctx, 1);
    am_set_state(ctx, 0, count);
    am_set_state(ctx, 1, sum);
    if (count == HW_FJ_N) hw_fj_check(ctx, sum);   /* last: nothing is live across it */
}

/* ---- Fibonacci --------------------------------------------------------------- */
void amb_hw_fib(am_ctx *ctx)
{
    if (hw_is_boot(ctx)) {
        am_ref root = am_create(ctx, AMB_BENCH_FIB, 0, 0);
        AM_SEND(ctx, root, BT_REQ, HW_FIB_N, am_self(ctx));
    } else if (am_msg(ctx, 0) == BT_DONE) {
        am_word a = 0, b = 1;
        for (am_word i = 0; i < HW_FIB_N; i++) { am_word t = a + b; a = b; b = t; }
        hw_report(ctx, "bench fib", am_msg(ctx, 1), a, " = fib(9), one actor per call\n");
    } else {
        am_fail(ctx, BF_UNEXPECTED);
    }
}

/* ---- Big ---------------------------------------------------------------------
 * Node i's neighbours are i+1..i+5 (mod NODES): the boot creates the nodes in
 * reverse order keeping a window of the last five references, so node i is
 * created complete ([ledger, PINGS, rng = i+1, r(i+1)..r(i+5)]) and started
 * at once -- except the first five created (NODES-5..NODES-1), whose
 * neighbours wrap around to nodes 0..4. Their references go to a WRAP actor;
 * when node 0 exists the boot sends it [LINK, r(0)..r(4)] and WRAP links and
 * starts them.
 * boot state [left, w0..w4 = r(i)..r(i+4), wrap, done]. */
void amb_hw_big(am_ctx *ctx)
{
    am_word tag = am_msg(ctx, 0);
    am_word s[AM_MAX_STATE_WORDS];
    for (uint32_t i = 0; i < AM_MAX_STATE_WORDS; i++) s[i] = am_state(ctx, i);
    if (hw_is_boot(ctx) || tag == BT_START) {
        if (hw_is_boot(ctx)) s[0] = HW_BIG_NODES;
        for (uint32_t k = 0; k < 4; k++) {
            if (s[0] == HW_BIG_NODES - 5 && s[6] == 0) {  /* the wrapped five exist */
                s[6] = AM_CREATE(ctx, AMB_BENCH_HW_BIG_WRAP, s[1], s[2], s[3], s[4], s[5]);
                continue;
            }
            if (s[0] == 0) break;
            am_word i = --s[0];
            am_ref r = AM_CREATE(ctx, AMB_BENCH_BIG_NODE, am_self(ctx), HW_BIG_PINGS, i + 1,
                                 s[1], s[2], s[3], s[4], s[5]);
            if (i + BENCH_BIG_NB < HW_BIG_NODES) AM_SEND(ctx, r, BT_START);
            for (uint32_t j = BENCH_BIG_NB; j > 1; j--) s[j] = s[j - 1];
            s[1] = r;
        }
        if (s[0] > 0 || s[6] == 0)
            AM_SEND(ctx, am_self(ctx), BT_START);
        else
            AM_SEND(ctx, s[6], BT_LINK, s[1], s[2], s[3], s[4], s[5]);
    } else if (tag == BT_DONE) {
        s[7] += am_msg(ctx, 1);
        if (s[7] == HW_BIG_NODES)
            hw_report(ctx, "bench big", s[7], HW_BIG_NODES,
                      " nodes done, 50 pings each\n");
    } else {
        am_fail(ctx, BF_UNEXPECTED);
    }
    am_become(ctx, AMB_BENCH_HW_BIG, AM_MAX_STATE_WORDS, s);
}

/* WRAP [h0..h4 = r(NODES-5)..r(NODES-1)]: [LINK, z0..z4 = r(0)..r(4)] ->
 * LINK each h_k to its neighbours, START h0, h1; then [START] to itself ->
 * START h2..h4 (LINKs before STARTs in the FIFO; <= 8 sends each). */
void amb_hw_big_wrap(am_ctx *ctx)
{
    am_word tag = am_msg(ctx, 0);
    if (tag == BT_LINK) {
        for (uint32_t k = 0; k < BENCH_BIG_NB; k++) {
            am_word m[1 + BENCH_BIG_NB];
            m[0] = BT_LINK;
            for (uint32_t j = 0; j < BENCH_BIG_NB; j++) {
                uint32_t x = k + 1 + j;              /* neighbour = h_x or z_(x-5) */
                m[1 + j] = x < BENCH_BIG_NB ? am_state(ctx, x) : am_msg(ctx, 1 + x - BENCH_BIG_NB);
            }
            am_send(ctx, am_state(ctx, k), 1 + BENCH_BIG_NB, m);
        }
        AM_SEND(ctx, am_state(ctx, 0), BT_START);
        AM_SEND(ctx, am_state(ctx, 1), BT_START);
        AM_SEND(ctx, am_self(ctx), BT_START);
    } else if (tag == BT_START) {
        for (uint32_t k = 2; k < BENCH_BIG_NB; k++) AM_SEND(ctx, am_state(ctx, k), BT_START);
    } else {
        am_fail(ctx, BF_UNEXPECTED);
    }
}

/* ---- Bank ------------------------------------------------------------------
 * The boot actor is the teller and the LEDGER: state [done, rng, a0..a5].
 * Creates the accounts (two transactions), then injects ROUND random
 * transfers (the host driver's LCG sequence) and, each time ROUND of them
 * are acknowledged, ROUND more, until TRANSFERS are done. The accounts are
 * bench/workloads/wl_bank.c's; their balances are checked by the host driver (and, on
 * the SoC, against the reference runtime by the lockstep checker): here the
 * count of acknowledged transfers. */
/* issue k transfers from the teller's state [done, rng, a0..a5]: rng as
 * given, the accounts a (NULL: its state's) */
static void hw_bank_issue(am_ctx *ctx, am_word rng, const am_word *a, uint32_t k)
{
    for (uint32_t j = 0; j < k; j++) {
        rng = BENCH_LCG(rng); am_word src = (rng >> 8) % HW_BANK_ACCOUNTS;
        rng = BENCH_LCG(rng); am_word dst = (rng >> 8) % (HW_BANK_ACCOUNTS - 1);
        if (dst >= src) dst++;
        rng = BENCH_LCG(rng); am_word amount = (rng >> 8) % 1000 + 1;
        am_word as = a ? a[src] : am_state(ctx, 2 + src), ad = a ? a[dst] : am_state(ctx, 2 + dst);
        AM_SEND(ctx, as, BT_CREDIT, amount, ad, am_self(ctx));
    }
    am_set_state(ctx, 1, rng);
}

void amb_hw_bank(am_ctx *ctx)
{
    am_word tag = am_msg(ctx, 0);
    if (hw_is_boot(ctx)) {                     /* accounts 0..3 */
        for (uint32_t i = 0; i < 4; i++)
            am_set_state(ctx, 2 + i, AM_CREATE(ctx, AMB_BENCH_ACCOUNT, HW_BANK_INITIAL));
        AM_SEND(ctx, am_self(ctx), BT_START);
    } else if (tag == BT_START) {              /* accounts 4, 5; the first round */
        am_word a[HW_BANK_ACCOUNTS];
        for (uint32_t i = 0; i < HW_BANK_ACCOUNTS; i++)
            a[i] = i < 4 ? am_state(ctx, 2 + i) : AM_CREATE(ctx, AMB_BENCH_ACCOUNT, HW_BANK_INITIAL);
        for (uint32_t i = 4; i < HW_BANK_ACCOUNTS; i++) am_set_state(ctx, 2 + i, a[i]);
        hw_bank_issue(ctx, 12345, a, HW_BANK_ROUND);   /* the host driver's seed */
    } else if (tag == BT_DONE) {
        am_word done = am_state(ctx, 0) + am_msg(ctx, 1);
        am_set_state(ctx, 0, done);
        if (done == HW_BANK_TRANSFERS)
            hw_report(ctx, "bench bank", done, HW_BANK_TRANSFERS, " transfers acknowledged\n");
        else if (done % HW_BANK_ROUND == 0)
            hw_bank_issue(ctx, am_state(ctx, 1), 0, HW_BANK_ROUND);
    } else {
        am_fail(ctx, BF_UNEXPECTED);
    }
}
