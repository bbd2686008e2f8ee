/*
 * am_bench.c — host driver of the benchmark workloads (issue 6).
 *
 *   am-bench WORKLOAD RUNS P1 [P2 [P3]]
 *
 *   pingpong  N                  N round trips            unit: message (2N)
 *   ring      NODES HOPS         token passed HOPS times  unit: message (HOPS)
 *   counting  N                  N increments             unit: message (N)
 *   fjcreate  N REPS             N actors, REPS times     unit: actor (N*REPS)
 *   fib       N REPS             fib(N), actor per call   unit: message (2*calls*REPS)
 *   big       NODES PINGS        each node PINGS pings    unit: message (2*NODES*PINGS)
 *   bank      ACCOUNTS T ROUND   T transfers, ROUND at a time  unit: message (4T)
 *
 * One untimed sizing run, one untimed warm-up run, then RUNS timed runs;
 * each timed run prints
 *   RESULT <workload> <run> <units> <ns> <gc_ns>
 * where gc_ns is the part of ns the collector took (am_counters.gc_ns).
 * Each run checks its own result (values, dispatch counts, no fault, and for
 * Fork-Join and Fibonacci that every finished actor was reclaimed); a wrong
 * answer prints "FAIL ..." and exits 1. The workloads' behaviors are
 * bench/workloads/wl_*.c, protocols in bench/workloads/bench.h. The timed
 * region is the injection of the initial messages and am_run(); creating the
 * runtime, spawning and wiring the initial actors are outside it (as in the
 * Erlang, CAF and bare-C versions).
 *
 * Every runtime runs with the collector's defaults (am_config_default:
 * gc_low 4, gc_period 1024) and an actor table sized by one rule, the one a
 * user follows: the most actors the workload keeps live at once, plus 25%,
 * and at least the default table (128 slots). The most live actors are
 * measured, as a user would measure them, by the sizing run: the workload
 * once with the largest table (65,536 slots), run in slices of SIZING_SLICE
 * dispatches with a collection (am_gc) after each, reading the live actors
 * after setup and after every one of those collections. The rule and the
 * table are printed on stderr.
 */
#define _POSIX_C_SOURCE 200809L
#include <malloc.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "am_rt.h"
#include "bench.h"
#include "harness.h"


/* The workloads' folder (bench/workloads, on the include path) as a table:
 * built-ins, library, workloads -- the table of that folder's image. */
static const am_behavior_desc bench_table[] = {
    AM_BUILTIN_BEHAVIORS,
#define AM_BEHAVIOR(NAME, fn) { #NAME, fn },
#include "behaviors_all.def"
#undef AM_BEHAVIOR
};
static const am_behavior_desc *g_table;
static uint32_t g_ntable;
static const char *g_wl = "?";

static void fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "FAIL %s: ", g_wl);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    exit(1);
}

static void init_table(void)
{
    g_table = bench_table;
    g_ntable = (uint32_t)(sizeof bench_table / sizeof bench_table[0]);
    if (g_ntable != AMB_COUNT_)
        fail("the bench table has %u behaviors, AMB_COUNT_ is %u", g_ntable, (unsigned)AMB_COUNT_);
}

/* The table of the runs being made: AM_TABLE_MAX in the sizing run, then
 * table_for(the peak it measured). */
#define AM_TABLE_MAX 65536u
#define TABLE_DEFAULT 128u        /* am_config_default's table_size */
static uint32_t g_table_size = AM_TABLE_MAX;
static uint32_t g_peak;           /* most live actors seen by the current run */
static int g_sizing;              /* the current run is the sizing run */
/* The sizing run collects after every SIZING_SLICE dispatches. Sampling
 * only at the collections the collector itself makes would miss the peak:
 * its period grows with the live actors, so a workload with a large live
 * set (Fibonacci) is hardly sampled. Between two samples the live set grows
 * by at most the actors created in between, SIZING_SLICE * max_creates. */
#define SIZING_SLICE 64u
#define SIZING_SLACK (SIZING_SLICE * 4u)   /* am_config_default's max_creates */

static uint32_t table_for(uint32_t peak)
{
    uint64_t t = (uint64_t)peak + (peak + 3) / 4;
    if (t < TABLE_DEFAULT) t = TABLE_DEFAULT;
    if (t > AM_TABLE_MAX) fail("%u live actors: with 25%% room that is over %u slots", peak, AM_TABLE_MAX);
    return (uint32_t)t;
}

static void see_live(uint32_t live)
{
    if (live > g_peak) g_peak = live;
}

/* A runtime with the benchmark's table and the collector's defaults; only
 * the queue depth is the workload's. */
static am_rt *new_rt(uint32_t queue)
{
    uint32_t table = g_table_size;
    am_config cfg;
    am_config_default(&cfg);
    cfg.table_size = table;
    cfg.queue_depth = queue;
    cfg.behaviors = g_table;
    cfg.nbehaviors = g_ntable;
    am_rt *rt;
    am_status s = am_rt_new(&cfg, &rt);
    if (s != AM_OK) fail("am_rt_new: %s", am_strerror(s));
    return rt;
}

static am_ref spawn(am_rt *rt, am_beh beh, uint32_t n, const am_word *st)
{
    am_ref r;
    am_status s = am_spawn(rt, beh, n, st, &r);
    if (s != AM_OK) fail("am_spawn: %s", am_strerror(s));
    return r;
}
#define SPAWN(rt, beh, ...) spawn((rt), (beh), AM_NWORDS_(__VA_ARGS__), (const am_word[]){__VA_ARGS__})

static void inject(am_rt *rt, am_ref to, uint32_t n, const am_word *m)
{
    am_status s = am_inject(rt, to, n, m);
    if (s != AM_OK) fail("am_inject: %s", am_strerror(s));
}
#define INJECT(rt, to, ...) inject((rt), (to), AM_NWORDS_(__VA_ARGS__), (const am_word[]){__VA_ARGS__})

static void run(am_rt *rt)
{
    am_status s;
    if (g_sizing) {
        while ((s = am_run(rt, SIZING_SLICE)) == AM_E_LIMIT) {
            am_gc(rt);
            am_counters c;
            am_get_counters(rt, &c);
            see_live(c.live);
        }
    } else {
        s = am_run(rt, 0);
    }
    if (s != AM_OK) fail("am_run: %s", am_strerror(s));
}


static void peek(am_rt *rt, am_ref r, am_word st[AM_MAX_STATE_WORDS])
{
    am_beh b;
    if (am_peek(rt, r, &b, st) != AM_OK) fail("am_peek: actor not live");
}

/* counters since `base`; checks no fault and, when want != 0, the count */
static uint64_t check_counters(am_rt *rt, uint64_t base, uint64_t want)
{
    am_counters c;
    am_get_counters(rt, &c);
    if (c.faults) {
        const am_fault_record *f = am_last_fault(rt);
        fail("%llu faults, last cause %s code %08x", (unsigned long long)c.faults,
             f ? am_fault_name(f->cause) : "?", f ? (unsigned)f->code : 0u);
    }
    if (c.queue_len) fail("queue not drained");
    uint64_t d = c.dispatches - base;
    if (want && d != want)
        fail("%llu dispatches, expected %llu", (unsigned long long)d, (unsigned long long)want);
    return d;
}

static uint64_t dispatches(am_rt *rt)
{
    am_counters c;
    am_get_counters(rt, &c);
    return c.dispatches;
}

/* the collector's time and runs so far, or since a snapshot */
typedef struct gcsnap { uint64_t ns, runs; } gcsnap;
static gcsnap gc_now(am_rt *rt)
{
    am_counters c;
    am_get_counters(rt, &c);
    return (gcsnap){ c.gc_ns, c.gc_runs };
}
static gcsnap gc_since(am_rt *rt, gcsnap base)
{
    gcsnap g = gc_now(rt);
    return (gcsnap){ g.ns - base.ns, g.runs - base.runs };
}

/* Set-up done: its actors are live (and pinned) at once. */
static void setup_done(am_rt *rt)
{
    am_counters c;
    am_get_counters(rt, &c);
    see_live(c.live);
}

/* After the timed region and the checks: the most live actors right after
 * a collection, and what a last collection leaves live. Returns the actors
 * that last collection reclaimed. */
static uint32_t finish(am_rt *rt)
{
    uint32_t reclaimed = am_gc(rt);
    am_counters c;
    am_get_counters(rt, &c);
    see_live(c.gc_live_max);
    return reclaimed;
}

typedef struct result { uint64_t units, ns, gc_ns, gc_runs; } result;

/* ---- the workloads ------------------------------------------------------- */

static result wl_pingpong(uint32_t n)
{
    am_rt *rt = new_rt(16);
    am_ref pong = SPAWN(rt, AMB_BENCH_PONG, 0);
    am_ref ping = SPAWN(rt, AMB_BENCH_PING, pong, n, 0);
    setup_done(rt);
    uint64_t t0 = now_ns();
    INJECT(rt, ping, BT_START);
    run(rt);
    uint64_t t1 = now_ns();
    gcsnap gc = gc_now(rt);
    check_counters(rt, 0, 1 + 2 * (uint64_t)n);
    am_word st[AM_MAX_STATE_WORDS];
    peek(rt, ping, st);
    if (st[1] != 0 || st[2] != n) fail("ping state left=%u received=%u", st[1], st[2]);
    finish(rt);
    am_rt_free(rt);
    return (result){ 2 * (uint64_t)n, t1 - t0, gc.ns, gc.runs };
}

static result wl_ring(uint32_t nodes, uint32_t hops)
{
    if (nodes < 2 || nodes > 60000) fail("ring: 2..60000 nodes");
    am_rt *rt = new_rt(16);
    am_ref ledger = SPAWN(rt, AMB_BENCH_LEDGER, 0);
    am_ref next = AM_NIL, last = AM_NIL;
    for (uint32_t i = nodes; i-- > 0;) {
        next = SPAWN(rt, AMB_BENCH_RING_NODE, next, i);
        if (i == nodes - 1) last = next;
    }
    INJECT(rt, last, BT_LINK, next);  /* close the ring: last -> node 0 */
    run(rt);
    setup_done(rt);
    uint64_t base = dispatches(rt);
    gcsnap gc0 = gc_now(rt);
    uint64_t t0 = now_ns();
    INJECT(rt, next, BT_TOKEN, hops, ledger);
    run(rt);
    uint64_t t1 = now_ns();
    gcsnap gc = gc_since(rt, gc0);
    check_counters(rt, base, (uint64_t)hops + 2);
    am_word st[AM_MAX_STATE_WORDS];
    peek(rt, ledger, st);
    if (st[0] != 1 || st[2] != hops % nodes)
        fail("token stopped at node %u, expected %u", st[2], hops % nodes);
    finish(rt);
    am_rt_free(rt);
    return (result){ hops, t1 - t0, gc.ns, gc.runs };
}

static result wl_counting(uint32_t n)
{
    am_rt *rt = new_rt(16);
    am_ref ledger = SPAWN(rt, AMB_BENCH_LEDGER, 0);
    am_ref counter = SPAWN(rt, AMB_BENCH_COUNTER, 0);
    am_ref prod = SPAWN(rt, AMB_BENCH_PRODUCER, counter, n, ledger);
    setup_done(rt);
    uint64_t t0 = now_ns();
    INJECT(rt, prod, BT_START);
    run(rt);
    uint64_t t1 = now_ns();
    gcsnap gc = gc_now(rt);
    uint64_t ptx = n ? (n + 6) / 7 : 1;
    check_counters(rt, 0, ptx + n + 2);
    am_word st[AM_MAX_STATE_WORDS];
    peek(rt, ledger, st);
    if (st[0] != 1 || st[2] != n) fail("count %u, expected %u", st[2], n);
    finish(rt);
    am_rt_free(rt);
    return (result){ n, t1 - t0, gc.ns, gc.runs };
}

/* Reclamation: after the run every created actor has finished and nothing
 * refers to it, so the collections during the run and one more after it
 * must have reclaimed exactly `created`, leaving only the pinned actors
 * (`pinned`, the console included). */
static void check_reclaimed(am_rt *rt, uint64_t created, uint32_t pinned)
{
    finish(rt);
    am_counters c;
    am_get_counters(rt, &c);
    if (c.gc_reclaimed != created || c.live != pinned)
        fail("%llu actors reclaimed, %u live after a collection; expected %llu and %u",
             (unsigned long long)c.gc_reclaimed, c.live, (unsigned long long)created, pinned);
}

static result wl_fjcreate(uint32_t n, uint32_t reps)
{
    if (n < 1) fail("fjcreate: at least one actor");
    uint32_t want = 0;
    for (uint32_t i = 0; i < n; i++) want += bench_fj_value(i);
    result r = { 0, 0, 0, 0 };
    for (uint32_t k = 0; k < reps; k++) {
        am_rt *rt = new_rt(64);
        am_ref ledger = SPAWN(rt, AMB_BENCH_LEDGER, 0);
        am_ref forker = SPAWN(rt, AMB_BENCH_FJ_FORKER, n, ledger, 0);
        setup_done(rt);
        uint64_t t0 = now_ns();
        INJECT(rt, forker, BT_START);
        run(rt);
        uint64_t t1 = now_ns();
        gcsnap gc = gc_now(rt);
        r.gc_ns += gc.ns;
        r.gc_runs += gc.runs;
        check_counters(rt, 0, (n + 3) / 4 + 2 * (uint64_t)n);
        am_word st[AM_MAX_STATE_WORDS];
        peek(rt, ledger, st);
        if (st[0] != n || st[1] != want) fail("%u results summing to %u, expected %u, %u", st[0], st[1], n, want);
        check_reclaimed(rt, n, 3);          /* console, ledger, forker */
        am_rt_free(rt);
        r.units += n;
        r.ns += t1 - t0;
    }
    return r;
}


static result wl_fib(uint32_t n, uint32_t reps)
{
    if (n > 40) fail("fib: n <= 40");
    uint64_t calls = fib_calls(n);
    result r = { 0, 0, 0, 0 };
    for (uint32_t k = 0; k < reps; k++) {
        am_rt *rt = new_rt(1u << 16);
        am_ref ledger = SPAWN(rt, AMB_BENCH_LEDGER, 0);
        am_ref root = SPAWN(rt, AMB_BENCH_FIB, 0);
        setup_done(rt);
        uint64_t t0 = now_ns();
        INJECT(rt, root, BT_REQ, n, ledger);
        run(rt);
        uint64_t t1 = now_ns();
        gcsnap gc = gc_now(rt);
        r.gc_ns += gc.ns;
        r.gc_runs += gc.runs;
        check_counters(rt, 0, 2 * calls);
        am_word st[AM_MAX_STATE_WORDS];
        peek(rt, ledger, st);
        if (st[0] != 1 || st[2] != fib_value(n)) fail("fib(%u) = %u, expected %u", n, st[2], fib_value(n));
        check_reclaimed(rt, calls - 1, 3);  /* console, ledger, the root (pinned) */
        am_rt_free(rt);
        r.units += 2 * calls;
        r.ns += t1 - t0;
    }
    return r;
}

/* neighbour k of node i (also in the Erlang, CAF and bare-C versions) */
static const uint32_t big_offsets[BENCH_BIG_NB] = { 1, 3, 7, 15, 31 };

static result wl_big(uint32_t nodes, uint32_t pings)
{
    if (nodes < 32 || nodes > 60000) fail("big: 32..60000 nodes");
    if (pings < 1) fail("big: at least one ping");
    am_rt *rt = new_rt(2 * nodes + 16);
    am_ref ledger = SPAWN(rt, AMB_BENCH_LEDGER, 0);
    am_ref *node = malloc(nodes * sizeof *node);
    if (!node) fail("out of memory");
    for (uint32_t i = 0; i < nodes; i++)
        node[i] = SPAWN(rt, AMB_BENCH_BIG_NODE, ledger, pings, i + 1);
    for (uint32_t i = 0; i < nodes; i++) {
        am_word m[1 + BENCH_BIG_NB] = { BT_LINK };
        for (uint32_t k = 0; k < BENCH_BIG_NB; k++) m[1 + k] = node[(i + big_offsets[k]) % nodes];
        inject(rt, node[i], 1 + BENCH_BIG_NB, m);
    }
    run(rt);
    setup_done(rt);
    uint64_t base = dispatches(rt);
    gcsnap gc0 = gc_now(rt);
    uint64_t t0 = now_ns();
    for (uint32_t i = 0; i < nodes; i++) INJECT(rt, node[i], BT_START);
    run(rt);
    uint64_t t1 = now_ns();
    gcsnap gc = gc_since(rt, gc0);
    uint64_t npings = (uint64_t)nodes * pings;
    check_counters(rt, base, 2 * (uint64_t)nodes + 2 * npings);
    am_word st[AM_MAX_STATE_WORDS];
    peek(rt, ledger, st);
    if (st[0] != nodes) fail("%u nodes done, expected %u", st[0], nodes);
    finish(rt);
    free(node);
    am_rt_free(rt);
    return (result){ 2 * npings, t1 - t0, gc.ns, gc.runs };
}

#define BANK_INITIAL 1000000000u

static result wl_bank(uint32_t accounts, uint32_t transfers, uint32_t round)
{
    if (accounts < 2 || accounts > 60000 || round < 1) fail("bank: 2..60000 accounts, round >= 1");
    am_rt *rt = new_rt(4 * round + 16);
    am_ref ledger = SPAWN(rt, AMB_BENCH_LEDGER, 0);
    am_ref *acct = malloc(accounts * sizeof *acct);
    uint32_t *want = malloc(accounts * sizeof *want);
    if (!acct || !want) fail("out of memory");
    for (uint32_t i = 0; i < accounts; i++) {
        acct[i] = SPAWN(rt, AMB_BENCH_ACCOUNT, BANK_INITIAL);
        want[i] = BANK_INITIAL;
    }
    setup_done(rt);
    am_word rng = 12345;
    uint64_t t0 = now_ns();
    for (uint32_t done = 0; done < transfers;) {
        uint32_t k = transfers - done < round ? transfers - done : round;
        for (uint32_t j = 0; j < k; j++) {
            rng = BENCH_LCG(rng); uint32_t src = (rng >> 8) % accounts;
            rng = BENCH_LCG(rng); uint32_t dst = (rng >> 8) % (accounts - 1);
            if (dst >= src) dst++;
            rng = BENCH_LCG(rng); uint32_t amount = (rng >> 8) % 1000 + 1;
            want[src] -= amount;
            want[dst] += amount;
            INJECT(rt, acct[src], BT_CREDIT, amount, acct[dst], ledger);
        }
        run(rt);
        done += k;
    }
    uint64_t t1 = now_ns();
    gcsnap gc = gc_now(rt);
    uint64_t d = check_counters(rt, 0, 0);
    if (d < 4 * (uint64_t)transfers) fail("%llu dispatches < 4 per transfer", (unsigned long long)d);
    am_word st[AM_MAX_STATE_WORDS];
    peek(rt, ledger, st);
    if (st[0] != transfers) fail("%u transfers done, expected %u", st[0], transfers);
    uint64_t total = 0;
    for (uint32_t i = 0; i < accounts; i++) {
        am_beh b;
        if (am_peek(rt, acct[i], &b, st) != AM_OK || b != AMB_BENCH_ACCOUNT)
            fail("account %u not idle", i);
        if (st[0] != want[i]) fail("account %u balance %u, expected %u", i, st[0], want[i]);
        total += st[0];
    }
    if (total != (uint64_t)accounts * BANK_INITIAL) fail("money not conserved");
    finish(rt);
    free(acct);
    free(want);
    am_rt_free(rt);
    static int said;
    if (!said++)
        fprintf(stderr, "bank: %llu dispatches for %u transfers (%llu postponed credits)\n",
                (unsigned long long)d, transfers, (unsigned long long)(d - 4 * (uint64_t)transfers));
    return (result){ 4 * (uint64_t)transfers, t1 - t0, gc.ns, gc.runs };
}

/* ---- main ---------------------------------------------------------------- */


/* One run of the workload; `sizing`: once (REPS 1 for the repeated ones). */
static int run_workload(uint32_t p1, uint32_t p2, uint32_t p3, int sizing, result *res)
{
    if (!strcmp(g_wl, "pingpong")) *res = wl_pingpong(p1 ? p1 : 1000000);
    else if (!strcmp(g_wl, "ring")) *res = wl_ring(p1 ? p1 : 100, p2 ? p2 : 1000000);
    else if (!strcmp(g_wl, "counting")) *res = wl_counting(p1 ? p1 : 1000000);
    else if (!strcmp(g_wl, "fjcreate")) *res = wl_fjcreate(p1 ? p1 : 60000, sizing ? 1 : p2 ? p2 : 10);
    else if (!strcmp(g_wl, "fib")) *res = wl_fib(p1 ? p1 : 22, sizing ? 1 : p2 ? p2 : 10);
    else if (!strcmp(g_wl, "big")) *res = wl_big(p1 ? p1 : 120, p2 ? p2 : 5000);
    else if (!strcmp(g_wl, "bank")) *res = wl_bank(p1 ? p1 : 1000, p2 ? p2 : 100000, p3 ? p3 : 500);
    else return 0;
    return 1;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: am-bench WORKLOAD RUNS [params]\n"
                        "  pingpong N | ring NODES HOPS | counting N | fjcreate N REPS |\n"
                        "  fib N REPS | big NODES PINGS | bank ACCOUNTS TRANSFERS ROUND\n");
        return 2;
    }
    /* Keep freed runtimes in the heap: a fresh am_rt_new then zeroes warm
     * memory (untimed) instead of the timed region taking page faults on
     * fresh mmap()ed pages. */
    mallopt(M_MMAP_THRESHOLD, 1 << 30);
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
    g_wl = argv[1];
    init_table();
    uint32_t runs = arg(argc, argv, 2, 5);
    uint32_t p1 = arg(argc, argv, 3, 0), p2 = arg(argc, argv, 4, 0), p3 = arg(argc, argv, 5, 0);
    result res;
    /* the sizing run: the largest table, the most live actors at once */
    g_table_size = AM_TABLE_MAX;
    g_peak = 0;
    g_sizing = 1;
    if (!run_workload(p1, p2, p3, 1, &res)) { fprintf(stderr, "unknown workload '%s'\n", g_wl); return 2; }
    g_sizing = 0;
    uint32_t peak = g_peak;
    g_table_size = table_for(peak);
    fprintf(stderr, "%s: table %u slots (at most %u live actors + 25%%, at least %u); "
            "collector defaults (gc_low 4, gc_period 1024)\n", g_wl, g_table_size, peak, TABLE_DEFAULT);
    for (uint32_t r = 0; r <= runs; r++) {   /* run 0: warm-up, not printed */
        g_peak = 0;
        run_workload(p1, p2, p3, 0, &res);
        /* the same run has the same live set; these runs only sample it
         * at other points (their own collections) */
        if (g_peak > peak + SIZING_SLACK)
            fail("%u live actors, the sizing run saw at most %u (+%u between its samples)", g_peak,
                 peak, SIZING_SLACK);
        if (r == 1)
            fprintf(stderr, "%s: %llu collections in the timed region of run 1, %.1f us each on average\n",
                    g_wl, (unsigned long long)res.gc_runs,
                    res.gc_runs ? (double)res.gc_ns / (double)res.gc_runs / 1000.0 : 0.0);
        if (r > 0)
            printf("RESULT %s %u %llu %llu %llu\n", g_wl, r, (unsigned long long)res.units,
                   (unsigned long long)res.ns, (unsigned long long)res.gc_ns);
        fflush(stdout);
    }
    return 0;
}
