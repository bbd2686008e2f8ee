/*
 * savina.c — the benchmark workloads as a bare hand-written event loop in
 * plain C: the floor for any actor runtime on this machine. Same
 * algorithms, messages, parameters and answer checks as bench/am_bench.c
 * (protocols in bench/workloads/bench.h), with none of a runtime's
 * machinery: one FIFO of fixed-size events, a table of fixed-size actor
 * records, a switch on the target's behavior; no transactions, no bounds or
 * reference checks, no collector (an actor that has finished frees its
 * record itself, as a hand-written program would).
 *
 *   savina-c WORKLOAD RUNS P1 [P2 [P3]]
 *
 * One untimed warm-up run, then RUNS timed runs, each printing
 *   RESULT <workload> <run> <units> <ns>
 * A wrong answer prints "FAIL ..." and exits 1.
 *
 * Every behavior sends what its am_bench.c counterpart sends (Counting's
 * producer 7 increments per dispatch, the fork-join forker 4 workers, Bank's
 * busy account postpones a credit by re-sending it), so both dispatch the
 * same events in the same order, and the dispatch counts are checked
 * against the same expected numbers. Only the exact count is kept in the
 * loop (one add); everything else is checked after the run.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../harness.h"

typedef uint32_t word;

/* ---- the workloads' constants (bench/workloads/bench.h) ------------------- */
enum { T_START, T_PING, T_PONG, T_TOKEN, T_INC, T_GET, T_DONE, T_WORK, T_REQ, T_CREDIT, T_DEBIT, T_ACK };
#define LCG(x) ((word)((x) * 1664525u + 1013904223u))
#define BIG_NB 5u

static word fj_value(word i)
{
    word x = i * 2654435761u;
    x ^= x >> 15;
    return x & 0xffffu;
}

/* ---- the machine ----------------------------------------------------------- */
enum {
    B_FREE, B_LEDGER, B_PING, B_PONG, B_RING_NODE, B_COUNTER, B_PRODUCER,
    B_FJ_FORKER, B_FJ_WORKER, B_FIB, B_FIB_JOIN, B_BIG_NODE, B_ACCOUNT, B_ACCOUNT_BUSY
};

typedef struct event { word to, tag, a, b, c; } event;      /* tag + 3 words */
typedef struct actor { word beh, s[8]; } actor;

typedef struct machine {
    event *q;               /* the FIFO: a ring of mask + 1 events */
    uint32_t mask, head, tail;
    actor *act;
    uint32_t cap;           /* records in act */
    uint32_t nact;          /* records ever used (bump) */
    word *freel;            /* records freed, reused first */
    uint32_t nfree;
    uint64_t dispatches;
} machine;

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

/* A machine whose queue holds `depth` events and whose table `actors`
 * records: am_bench.c's queue depth for the workload (the events are the
 * same, so the queue never holds more than am-bench's does) and an upper
 * bound on the actors alive at once. */
static void m_init(machine *m, uint32_t depth, uint32_t actors)
{
    uint32_t cap = 1;
    while (cap < depth + 1) cap <<= 1;
    memset(m, 0, sizeof *m);
    m->q = malloc(cap * sizeof *m->q);
    m->mask = cap - 1;
    m->act = calloc(actors, sizeof *m->act);
    m->cap = actors;
    m->freel = malloc(actors * sizeof *m->freel);
    if (!m->q || !m->act || !m->freel) fail("out of memory");
}

/* After a run: the records it used fitted (the loop does not check). */
static void m_free(machine *m)
{
    if (m->nact > m->cap) fail("%u actor records used, %u allocated", m->nact, m->cap);
    free(m->q);
    free(m->act);
    free(m->freel);
}

/* live actors: records in use */
static uint32_t m_live(const machine *m) { return m->nact - m->nfree; }

/* Dispatch until the FIFO is empty. The machine's fields live in locals
 * during the loop: they are words like the events and the actors' state,
 * so the compiler would otherwise reload them after every store. */
static void run(machine *m)
{
    event *const q = m->q;
    actor *const act = m->act;
    word *const freel = m->freel;
    const uint32_t mask = m->mask;
    uint32_t head = m->head, tail = m->tail, nact = m->nact, nfree = m->nfree;
    uint64_t dispatches = m->dispatches;
#define SEND(to_, tag_, a_, b_, c_) (q[tail++ & mask] = (event){ (to_), (tag_), (a_), (b_), (c_) })
#define SPAWN(r_, beh_) ((r_) = nfree ? freel[--nfree] : nact++, act[r_].beh = (beh_))
#define RETIRE(r_) (act[r_].beh = B_FREE, freel[nfree++] = (r_))
    while (head != tail) {
        /* read in place, field by field: the event was usually just
         * written by SEND, and a wider load than its stores would miss
         * store-to-load forwarding. Its slot is not reused during the
         * dispatch: the ring holds the queue's depth + 1 (m_init). */
        const event *ep = &q[head++ & mask];
        actor *a = &act[ep->to];
        word *s = a->s;
        dispatches++;
        switch (a->beh) {
        case B_LEDGER:                        /* [count, sum, last] */
            s[0]++;
            s[1] += ep->a;
            s[2] = ep->a;
            break;
        case B_PING:                          /* [pong, left, received] */
            if (ep->tag == T_PONG) s[2]++;
            if (s[1] > 0) {
                SEND(s[0], T_PING, ep->to, 0, 0);
                s[1]--;
            }
            break;
        case B_PONG:
            SEND(ep->a, T_PONG, 0, 0, 0);
            break;
        case B_RING_NODE:                     /* [next, index]; [TOKEN, hops, ledger] */
            if (ep->a == 0) SEND(ep->b, T_DONE, s[1], 0, 0);
            else SEND(s[0], T_TOKEN, ep->a - 1, ep->b, 0);
            break;
        case B_COUNTER:                       /* [count] */
            if (ep->tag == T_INC) s[0]++;
            else SEND(ep->a, T_DONE, s[0], 0, 0);
            break;
        case B_PRODUCER: {                    /* [counter, left, ledger] */
            word k = s[1] < 7 ? s[1] : 7;
            for (word i = 0; i < k; i++) SEND(s[0], T_INC, 0, 0, 0);
            s[1] -= k;
            if (s[1] > 0) SEND(ep->to, T_START, 0, 0, 0);
            else SEND(s[0], T_GET, s[2], 0, 0);
            break;
        }
        case B_FJ_FORKER: {                   /* [left, ledger, i] */
            word k = s[0] < 4 ? s[0] : 4;
            for (word j = 0; j < k; j++) {
                word w;
                SPAWN(w, B_FJ_WORKER);
                SEND(w, T_WORK, s[2] + j, s[1], 0);
            }
            s[0] -= k;
            s[2] += k;
            if (s[0] > 0) SEND(ep->to, T_START, 0, 0, 0);
            break;
        }
        case B_FJ_WORKER:                     /* [WORK, i, ledger] */
            SEND(ep->b, T_DONE, fj_value(ep->a), 0, 0);
            RETIRE(ep->to);
            break;
        case B_FIB:                           /* [REQ, n, parent] */
            if (ep->a < 2) {
                SEND(ep->b, T_DONE, ep->a, 0, 0);
                RETIRE(ep->to);
            } else {
                word x, y;
                SPAWN(x, B_FIB);
                SPAWN(y, B_FIB);
                SEND(x, T_REQ, ep->a - 1, ep->to, 0);
                SEND(y, T_REQ, ep->a - 2, ep->to, 0);
                a->beh = B_FIB_JOIN;          /* [parent, got, sum] */
                s[0] = ep->b;
                s[1] = 0;
                s[2] = 0;
            }
            break;
        case B_FIB_JOIN:
            s[2] += ep->a;
            if (s[1] == 0) {
                s[1] = 1;
            } else {
                SEND(s[0], T_DONE, s[2], 0, 0);
                RETIRE(ep->to);
            }
            break;
        case B_BIG_NODE:                      /* [ledger, left, rng, nb0..nb4] */
            if (ep->tag == T_PING) {
                SEND(ep->a, T_PONG, 0, 0, 0);
                break;
            }
            if (ep->tag == T_PONG) s[1]--;
            if (s[1] > 0) {
                s[2] = LCG(s[2]);
                SEND(s[3 + (s[2] >> 8) % BIG_NB], T_PING, ep->to, 0, 0);
            } else {
                SEND(s[0], T_DONE, 1, 0, 0);
            }
            break;
        case B_ACCOUNT:                       /* [balance] */
            if (ep->tag == T_CREDIT) {          /* [CREDIT, amount, dest, ledger] */
                SEND(ep->b, T_DEBIT, ep->a, ep->to, 0);
                a->beh = B_ACCOUNT_BUSY;      /* [balance - amount, ledger] */
                s[0] -= ep->a;
                s[1] = ep->c;
            } else {                          /* [DEBIT, amount, src] */
                SEND(ep->b, T_ACK, 0, 0, 0);
                s[0] += ep->a;
            }
            break;
        case B_ACCOUNT_BUSY:
            if (ep->tag == T_ACK) {
                SEND(s[1], T_DONE, 1, 0, 0);
                a->beh = B_ACCOUNT;
            } else if (ep->tag == T_DEBIT) {
                SEND(ep->b, T_ACK, 0, 0, 0);
                s[0] += ep->a;
            } else {                          /* a CREDIT: postpone, in order */
                SEND(ep->to, ep->tag, ep->a, ep->b, ep->c);
            }
            break;
        default:
            break;
        }
    }
#undef SEND
#undef SPAWN
#undef RETIRE
    m->head = head;
    m->tail = tail;
    m->nact = nact;
    m->nfree = nfree;
    m->dispatches = dispatches;
}

/* Outside the loop (set-up, injection): the same as SEND and SPAWN. */
static void send(machine *m, word to, word tag, word a, word b, word c)
{
    m->q[m->tail++ & m->mask] = (event){ to, tag, a, b, c };
}

static word spawn(machine *m, word beh)
{
    word r = m->nfree ? m->freel[--m->nfree] : m->nact++;
    m->act[r].beh = beh;
    return r;
}

/* ---- the workloads ------------------------------------------------------- */

typedef struct result { uint64_t units, ns; } result;


static void check_dispatches(const machine *m, uint64_t base, uint64_t want)
{
    if (m->dispatches - base != want)
        fail("%llu dispatches, expected %llu", (unsigned long long)(m->dispatches - base),
             (unsigned long long)want);
}

static result wl_pingpong(uint32_t n)
{
    machine m;
    m_init(&m, 16, 2);
    word pong = spawn(&m, B_PONG);
    word ping = spawn(&m, B_PING);
    m.act[ping].s[0] = pong;
    m.act[ping].s[1] = n;
    uint64_t t0 = now_ns();
    send(&m, ping, T_START, 0, 0, 0);
    run(&m);
    uint64_t t1 = now_ns();
    check_dispatches(&m, 0, 1 + 2 * (uint64_t)n);
    if (m.act[ping].s[1] != 0 || m.act[ping].s[2] != n)
        fail("ping state left=%u received=%u", m.act[ping].s[1], m.act[ping].s[2]);
    m_free(&m);
    return (result){ 2 * (uint64_t)n, t1 - t0 };
}

static result wl_ring(uint32_t nodes, uint32_t hops)
{
    if (nodes < 2 || nodes > 60000) fail("ring: 2..60000 nodes");
    machine m;
    m_init(&m, 16, nodes + 1);
    word ledger = spawn(&m, B_LEDGER);
    word first = m.nact;
    for (uint32_t i = 0; i < nodes; i++) {    /* node i at first + i, next = node i+1 */
        word r = spawn(&m, B_RING_NODE);
        m.act[r].s[0] = first + (i + 1) % nodes;
        m.act[r].s[1] = i;
    }
    uint64_t t0 = now_ns();
    send(&m, first, T_TOKEN, hops, ledger, 0);
    run(&m);
    uint64_t t1 = now_ns();
    check_dispatches(&m, 0, (uint64_t)hops + 2);
    const word *l = m.act[ledger].s;
    if (l[0] != 1 || l[2] != hops % nodes) fail("token stopped at node %u, expected %u", l[2], hops % nodes);
    m_free(&m);
    return (result){ hops, t1 - t0 };
}

static result wl_counting(uint32_t n)
{
    machine m;
    m_init(&m, 16, 3);
    word ledger = spawn(&m, B_LEDGER);
    word counter = spawn(&m, B_COUNTER);
    word prod = spawn(&m, B_PRODUCER);
    m.act[prod].s[0] = counter;
    m.act[prod].s[1] = n;
    m.act[prod].s[2] = ledger;
    uint64_t t0 = now_ns();
    send(&m, prod, T_START, 0, 0, 0);
    run(&m);
    uint64_t t1 = now_ns();
    uint64_t ptx = n ? (n + 6) / 7 : 1;
    check_dispatches(&m, 0, ptx + n + 2);
    const word *l = m.act[ledger].s;
    if (l[0] != 1 || l[2] != n) fail("count %u, expected %u", l[2], n);
    m_free(&m);
    return (result){ n, t1 - t0 };
}

static result wl_fjcreate(uint32_t n, uint32_t reps)
{
    if (n < 1) fail("fjcreate: at least one actor");
    word want = 0;
    for (uint32_t i = 0; i < n; i++) want += fj_value(i);
    result r = { 0, 0 };
    for (uint32_t k = 0; k < reps; k++) {
        machine m;
        m_init(&m, 64, 16);                   /* at most 4 workers are alive at once */
        word ledger = spawn(&m, B_LEDGER);
        word forker = spawn(&m, B_FJ_FORKER);
        m.act[forker].s[0] = n;
        m.act[forker].s[1] = ledger;
        uint64_t t0 = now_ns();
        send(&m, forker, T_START, 0, 0, 0);
        run(&m);
        uint64_t t1 = now_ns();
        check_dispatches(&m, 0, (n + 3) / 4 + 2 * (uint64_t)n);
        const word *l = m.act[ledger].s;
        if (l[0] != n || l[1] != want) fail("%u results summing to %u, expected %u, %u", l[0], l[1], n, want);
        if (m_live(&m) != 2) fail("%u actors alive, expected 2 (ledger, forker)", m_live(&m));
        m_free(&m);
        r.units += n;
        r.ns += t1 - t0;
    }
    return r;
}


static result wl_fib(uint32_t n, uint32_t reps)
{
    if (n > 40) fail("fib: n <= 40");
    uint64_t calls = fib_calls(n);
    result r = { 0, 0 };
    for (uint32_t k = 0; k < reps; k++) {
        machine m;
        m_init(&m, 1u << 16, (uint32_t)calls + 1);   /* every call's actor: a bound */
        word ledger = spawn(&m, B_LEDGER);
        word root = spawn(&m, B_FIB);
        uint64_t t0 = now_ns();
        send(&m, root, T_REQ, n, ledger, 0);
        run(&m);
        uint64_t t1 = now_ns();
        check_dispatches(&m, 0, 2 * calls);
        const word *l = m.act[ledger].s;
        if (l[0] != 1 || l[2] != fib_value(n)) fail("fib(%u) = %u, expected %u", n, l[2], fib_value(n));
        if (m_live(&m) != 1) fail("%u actors alive, expected 1 (the ledger)", m_live(&m));
        m_free(&m);
        r.units += 2 * calls;
        r.ns += t1 - t0;
    }
    return r;
}

/* neighbour k of node i (also in am_bench.c, the Erlang and CAF versions) */
static const uint32_t big_offsets[BIG_NB] = { 1, 3, 7, 15, 31 };

static result wl_big(uint32_t nodes, uint32_t pings)
{
    if (nodes < 32 || nodes > 60000) fail("big: 32..60000 nodes");
    if (pings < 1) fail("big: at least one ping");
    machine m;
    m_init(&m, 2 * nodes + 16, nodes + 1);
    word ledger = spawn(&m, B_LEDGER);
    word first = m.nact;
    for (uint32_t i = 0; i < nodes; i++) {
        word *s = m.act[spawn(&m, B_BIG_NODE)].s;
        s[0] = ledger;
        s[1] = pings;
        s[2] = i + 1;
        for (uint32_t k = 0; k < BIG_NB; k++) s[3 + k] = first + (i + big_offsets[k]) % nodes;
    }
    uint64_t t0 = now_ns();
    for (uint32_t i = 0; i < nodes; i++) send(&m, first + i, T_START, 0, 0, 0);
    run(&m);
    uint64_t t1 = now_ns();
    uint64_t npings = (uint64_t)nodes * pings;
    check_dispatches(&m, 0, 2 * (uint64_t)nodes + 2 * npings);
    if (m.act[ledger].s[0] != nodes) fail("%u nodes done, expected %u", m.act[ledger].s[0], nodes);
    m_free(&m);
    return (result){ 2 * npings, t1 - t0 };
}

#define BANK_INITIAL 1000000000u

static result wl_bank(uint32_t accounts, uint32_t transfers, uint32_t round)
{
    if (accounts < 2 || accounts > 60000 || round < 1) fail("bank: 2..60000 accounts, round >= 1");
    machine m;
    m_init(&m, 4 * round + 16, accounts + 1);
    word ledger = spawn(&m, B_LEDGER);
    word first = m.nact;
    word *want = malloc(accounts * sizeof *want);
    if (!want) fail("out of memory");
    for (uint32_t i = 0; i < accounts; i++) {
        m.act[spawn(&m, B_ACCOUNT)].s[0] = BANK_INITIAL;
        want[i] = BANK_INITIAL;
    }
    word rng = 12345;
    uint64_t t0 = now_ns();
    for (uint32_t done = 0; done < transfers;) {
        uint32_t k = transfers - done < round ? transfers - done : round;
        for (uint32_t j = 0; j < k; j++) {
            rng = LCG(rng); uint32_t src = (rng >> 8) % accounts;
            rng = LCG(rng); uint32_t dst = (rng >> 8) % (accounts - 1);
            if (dst >= src) dst++;
            rng = LCG(rng); uint32_t amount = (rng >> 8) % 1000 + 1;
            want[src] -= amount;
            want[dst] += amount;
            send(&m, first + src, T_CREDIT, amount, first + dst, ledger);
        }
        run(&m);
        done += k;
    }
    uint64_t t1 = now_ns();
    uint64_t d = m.dispatches;
    if (d < 4 * (uint64_t)transfers) fail("%llu dispatches < 4 per transfer", (unsigned long long)d);
    if (m.act[ledger].s[0] != transfers) fail("%u transfers done, expected %u", m.act[ledger].s[0], transfers);
    uint64_t total = 0;
    for (uint32_t i = 0; i < accounts; i++) {
        const actor *a = &m.act[first + i];
        if (a->beh != B_ACCOUNT) fail("account %u not idle", i);
        if (a->s[0] != want[i]) fail("account %u balance %u, expected %u", i, a->s[0], want[i]);
        total += a->s[0];
    }
    if (total != (uint64_t)accounts * BANK_INITIAL) fail("money not conserved");
    free(want);
    m_free(&m);
    static int said;
    if (!said++)
        fprintf(stderr, "bank: %llu dispatches for %u transfers (%llu postponed credits)\n",
                (unsigned long long)d, transfers, (unsigned long long)(d - 4 * (uint64_t)transfers));
    return (result){ 4 * (uint64_t)transfers, t1 - t0 };
}

/* ---- main ---------------------------------------------------------------- */


int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: savina-c WORKLOAD RUNS [params]\n"
                        "  pingpong N | ring NODES HOPS | counting N | fjcreate N REPS |\n"
                        "  fib N REPS | big NODES PINGS | bank ACCOUNTS TRANSFERS ROUND\n");
        return 2;
    }
    g_wl = argv[1];
    uint32_t runs = arg(argc, argv, 2, 5);
    uint32_t p1 = arg(argc, argv, 3, 0), p2 = arg(argc, argv, 4, 0), p3 = arg(argc, argv, 5, 0);
    for (uint32_t r = 0; r <= runs; r++) {   /* run 0: warm-up, not printed */
        result res;
        if (!strcmp(g_wl, "pingpong")) res = wl_pingpong(p1 ? p1 : 1000000);
        else if (!strcmp(g_wl, "ring")) res = wl_ring(p1 ? p1 : 100, p2 ? p2 : 1000000);
        else if (!strcmp(g_wl, "counting")) res = wl_counting(p1 ? p1 : 1000000);
        else if (!strcmp(g_wl, "fjcreate")) res = wl_fjcreate(p1 ? p1 : 60000, p2 ? p2 : 10);
        else if (!strcmp(g_wl, "fib")) res = wl_fib(p1 ? p1 : 22, p2 ? p2 : 10);
        else if (!strcmp(g_wl, "big")) res = wl_big(p1 ? p1 : 120, p2 ? p2 : 5000);
        else if (!strcmp(g_wl, "bank")) res = wl_bank(p1 ? p1 : 1000, p2 ? p2 : 100000, p3 ? p3 : 500);
        else { fprintf(stderr, "unknown workload '%s'\n", g_wl); return 2; }
        if (r > 0)
            printf("RESULT %s %u %llu %llu\n", g_wl, r, (unsigned long long)res.units,
                   (unsigned long long)res.ns);
        fflush(stdout);
    }
    return 0;
}
