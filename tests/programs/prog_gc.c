/*
 * prog_gc.c — garbage-collection test programs, on both targets (docs/gc.md).
 *
 * Each boot behavior takes its size from the boot message ([N]; [] or [0]:
 * the default in prog_gc.h) and ends with one console line that
 * tests/lib/test_gc.c checks. Every program makes far more actors than the
 * table holds (128 slots by default), so it completes only if the collector
 * reclaims the garbage -- and gives the right result only if it never
 * reclaims a live actor. With the collector off they stop at TABLE_FULL.
 *
 *   gc-serializer  a client sends N compare-and-swap requests, one after
 *                  another, through a library SERIALIZER to a CELL; each
 *                  request leaves a dead return proxy behind.
 *   gc-cycles      N rings A -> B -> C -> A (references in state words), a
 *                  token goes round each, then the ring is dropped: cyclic
 *                  garbage, which reference counting could not reclaim.
 *   gc-keepalive   X (and the cell it holds) is referenced only by a message
 *                  that hops through N freshly created relays while a churner
 *                  fills the table with garbage; X must answer at the end.
 *   gc-abort       Y is referenced only by a SEND staged in a transaction
 *                  that aborts (fault handler AM_NIL: the event goes
 *                  nowhere). Y must be reclaimed and its slot reused; a
 *                  hidden copy of Y's reference then faults BAD_REF and the
 *                  slot's new occupant receives nothing.
 *   gc-storm       N rounds of a fan-out tree of 31 short-lived nodes, each
 *                  message carrying the only reference to a short-lived
 *                  token actor; a join sums the tokens (496 per round).
 *   gc-restart     a supervisor, the fault handler, restarts a failing
 *                  worker N times: every CREATE is a fault delivery's, so
 *                  when the table fills it is a delivery that collects on
 *                  demand; the failed worker and the witness its message
 *                  carried must survive that collection.
 *
 * Portable behaviors only (am.h and the library): no globals, no libc.
 */
#include "am.h"
#include "am_lib.h"
#include "behaviors.h"
#include "prog_gc.h"

#define GC_SLOT(ref) ((ref) & 0xffffu)

/* the boot message's size ([N]; [] or [0]: dflt) */
uint32_t gc_boot_arg(const am_ctx *ctx, uint32_t dflt)
{
    uint32_t n = am_msg_len(ctx) ? am_msg(ctx, 0) : 0;
    return n ? n : dflt;
}

/* "<a><v><b>" */
void gc_say_u(am_ctx *ctx, const char *a, uint32_t v, const char *b)
{
    am_print(ctx, a);
    am_print_uint(ctx, v);
    am_print(ctx, b);
}

/* "<head><n><unit><value>[, <wrong><what>]\n": a program's result line */
static void say_result(am_ctx *ctx, const char *head, uint32_t n, const char *unit, uint32_t value,
                       uint32_t wrong, const char *what)
{
    gc_say_u(ctx, head, n, unit);
    am_print_uint(ctx, value);
    if (wrong) gc_say_u(ctx, ", ", wrong, what);
    am_print(ctx, "\n");
}

/* ---- gc-serializer ------------------------------------------------------- */
/* state [phase, ser, done, n, errors]
 * phase 0: boot [N]: creates CELL [0] and SERIALIZER [cell], sends CAS 0 -> 1
 * phase 1: [previous value] for request `done`; it must equal `done`. Sends
 *          CAS done -> done + 1 until n requests are answered, then READ
 * phase 2: [value]: prints the result */
void prog_gc_serializer(am_ctx *ctx)
{
    am_word phase = am_state(ctx, 0);
    am_ref ser = am_state(ctx, 1);
    am_word done = am_state(ctx, 2), n = am_state(ctx, 3), errors = am_state(ctx, 4);
    am_ref self = am_self(ctx);

    switch (phase) {
    case 0: {
        n = gc_boot_arg(ctx, GC_SER_DEFAULT);
        am_ref cell = AM_CREATE(ctx, AMB_CELL, 0);
        ser = AM_CREATE(ctx, AMB_SERIALIZER, cell);
        AM_SEND(ctx, ser, self, AML_CAS, 0, 1);
        AM_BECOME(ctx, AMB_PROG_GC_SERIALIZER, 1, ser, done, n, errors);
        break;
    }
    case 1:   /* (only the words that change are staged: am_set_state) */
        if (am_msg_len(ctx) != 1) am_fail(ctx, AML_E_DEMO_UNEXPECTED);
        if (am_msg(ctx, 0) != done) am_set_state(ctx, 4, errors + 1);
        done++;
        am_set_state(ctx, 2, done);
        if (done < n) {
            AM_SEND(ctx, ser, self, AML_CAS, done, done + 1);
        } else {
            AM_SEND(ctx, ser, self, AML_READ);
            am_set_state(ctx, 0, 2);
        }
        break;
    case 2:
        say_result(ctx, "gc-serializer: ", n, " requests, counter ", am_msg(ctx, 0), errors,
                   " wrong answers");
        am_set_state(ctx, 0, 3);
        break;
    default:
        am_fail(ctx, AML_E_DEMO_UNEXPECTED);
    }
}

/* ---- gc-cycles ----------------------------------------------------------- */
/* RING_NODE state [next, tag]
 *   [SET, next, driver]: becomes [next, tag] and sends the token
 *     [TOKEN, driver, 2, 0] to next
 *   [TOKEN, driver, ttl, sum]: adds its tag; forwards to next with ttl - 1,
 *     or at ttl 0 sends [sum] to the driver
 * The driver creates A [0, 1], C [A, 3], B [C, 2] and tells A about B, so the
 * ring is closed only by A's BECOME; the token visits B, C, A: sum 6. */
void prog_gc_ring_node(am_ctx *ctx)
{
    am_ref next = am_state(ctx, 0);
    am_word tag = am_state(ctx, 1);
    switch (am_msg(ctx, 0)) {
    case GC_RING_SET:
        next = am_msg(ctx, 1);
        AM_BECOME(ctx, AMB_PROG_GC_RING_NODE, next, tag);
        AM_SEND(ctx, next, GC_RING_TOKEN, am_msg(ctx, 2), 2, 0);
        break;
    case GC_RING_TOKEN: {
        am_ref driver = am_msg(ctx, 1);
        am_word ttl = am_msg(ctx, 2), sum = am_msg(ctx, 3) + tag;
        if (ttl == 0)
            AM_SEND(ctx, driver, sum);
        else
            AM_SEND(ctx, next, GC_RING_TOKEN, driver, ttl - 1, sum);
        break;
    }
    default:
        am_fail(ctx, AML_E_DEMO_UNEXPECTED);
    }
}

static void ring_start(am_ctx *ctx)
{
    am_ref a = AM_CREATE(ctx, AMB_PROG_GC_RING_NODE, AM_NIL, 1);
    am_ref c = AM_CREATE(ctx, AMB_PROG_GC_RING_NODE, a, 3);
    am_ref b = AM_CREATE(ctx, AMB_PROG_GC_RING_NODE, c, 2);
    AM_SEND(ctx, a, GC_RING_SET, b, am_self(ctx));
}

static void storm_round(am_ctx *ctx);

/* The driver of gc-cycles and gc-storm: n rounds, one after another; each
 * round answers with [sum], which must be `expect`.
 * state [phase, rounds done, n, total, wrong]; nothing here refers to a
 * round's actors, so each round is garbage once it has answered. */
static void rounds_driver(am_ctx *ctx, am_beh self_beh, uint32_t dflt, void (*round)(am_ctx *),
                          am_word expect, const char *head, const char *unit)
{
    am_word phase = am_state(ctx, 0), done = am_state(ctx, 1), n = am_state(ctx, 2);
    am_word total = am_state(ctx, 3), wrong = am_state(ctx, 4);
    switch (phase) {
    case 0:
        n = gc_boot_arg(ctx, dflt);
        round(ctx);
        phase = 1;
        break;
    case 1:
        if (am_msg(ctx, 0) != expect) wrong++;
        total += am_msg(ctx, 0);
        if (++done < n) {
            round(ctx);
        } else {
            say_result(ctx, head, n, unit, total, wrong, " wrong");
            phase = 2;
        }
        break;
    default:
        am_fail(ctx, AML_E_DEMO_UNEXPECTED);
    }
    AM_BECOME(ctx, self_beh, phase, done, n, total, wrong);
}

void prog_gc_cycles(am_ctx *ctx)
{
    rounds_driver(ctx, AMB_PROG_GC_CYCLES, GC_CYCLES_DEFAULT, ring_start, GC_RING_SUM,
                  "gc-cycles: ", " rings, sum ");
}

/* ---- gc-keepalive ---------------------------------------------------------- */
/* KEEP_X state [cell]: [cust] -> sends [cust, READ] to its cell */
void prog_gc_keep_x(am_ctx *ctx)
{
    AM_SEND(ctx, am_state(ctx, 0), am_msg(ctx, 0), AML_READ);
}

/* KEEP_RELAY (no state): [hops, x, boot] -> a new relay gets [hops-1, x,
 * boot]; at 0 hops x gets [boot]. This relay is garbage afterwards. */
void prog_gc_keep_relay(am_ctx *ctx)
{
    am_word hops = am_msg(ctx, 0);
    am_ref x = am_msg(ctx, 1), boot = am_msg(ctx, 2);
    if (hops == 0) {
        AM_SEND(ctx, x, boot);
    } else {
        am_ref r = am_create(ctx, AMB_PROG_GC_KEEP_RELAY, 0, 0);
        AM_SEND(ctx, r, hops - 1, x, boot);
    }
}

/* KEEP_CHURN (no state): [n] -> three garbage sinks, [n-1] to itself */
void prog_gc_keep_churn(am_ctx *ctx)
{
    am_word n = am_msg(ctx, 0);
    if (n == 0) return;
    for (uint32_t i = 0; i < 3; i++) am_create(ctx, AM_BEH_SINK, 0, 0);
    AM_SEND(ctx, am_self(ctx), n - 1);
}

/* state [phase, hops]. X's reference is never stored in a state word. */
void prog_gc_keepalive(am_ctx *ctx)
{
    am_word phase = am_state(ctx, 0), hops = am_state(ctx, 1);
    switch (phase) {
    case 0: {
        hops = gc_boot_arg(ctx, GC_KEEP_DEFAULT);
        am_ref cell = AM_CREATE(ctx, AMB_CELL, GC_KEEP_MAGIC);
        am_ref x = AM_CREATE(ctx, AMB_PROG_GC_KEEP_X, cell);
        am_ref relay = am_create(ctx, AMB_PROG_GC_KEEP_RELAY, 0, 0);
        am_ref churn = am_create(ctx, AMB_PROG_GC_KEEP_CHURN, 0, 0);
        AM_SEND(ctx, relay, hops, x, am_self(ctx));
        AM_SEND(ctx, churn, hops);
        phase = 1;
        break;
    }
    case 1:   /* [value] from X's cell */
        if (am_msg(ctx, 0) == GC_KEEP_MAGIC)
            gc_say_u(ctx, "gc-keepalive: X answered ", am_msg(ctx, 0), "");
        else
            gc_say_u(ctx, "gc-keepalive: WRONG ANSWER ", am_msg(ctx, 0), "");
        gc_say_u(ctx, " after ", hops, " hops\n");
        phase = 2;
        break;
    default:
        am_fail(ctx, AML_E_DEMO_UNEXPECTED);
    }
    AM_BECOME(ctx, AMB_PROG_GC_KEEPALIVE, phase, hops);
}

/* ---- gc-abort -------------------------------------------------------------- */
/* WITNESS state [count]: [QUERY, cust] -> [count]; any other message is
 * counted and announced (it must never happen in gc-abort). */
void prog_gc_witness(am_ctx *ctx)
{
    if (am_msg_len(ctx) == 2 && am_msg(ctx, 0) == GC_WITNESS_QUERY) {
        AM_SEND(ctx, am_msg(ctx, 1), am_state(ctx, 0));
        return;
    }
    am_print(ctx, "gc-abort: WITNESS GOT A MESSAGE\n");
    AM_BECOME(ctx, AMB_PROG_GC_WITNESS, am_state(ctx, 0) + 1);
}

/* ABORT_FAILER: [y] -> stages a SEND to y, then fails: nothing is sent. */
void prog_gc_abort_failer(am_ctx *ctx)
{
    AM_SEND(ctx, am_msg(ctx, 0), 1);
    am_fail(ctx, GC_ABORT_CODE);
}

/* state [phase, y ^ MASK, z, creates]
 * phase 0: boot. Fault handler := NIL; creates witness Y and a failer F,
 *          sends F [Y] (F's transaction aborts: Y's only reference was in
 *          its staged send), stores Y only masked, continues at phase 1.
 * phase 1: fault handler := self; hunting: one witness per transaction
 *          until one lands in Y's slot (after a collection reclaims Y, the
 *          lowest free slot is reused first). Keeps that one, Z, then sends
 *          itself GO. (A TABLE_FULL delivered to us: no collector; no
 *          reuse after GC_ABORT_HUNT_MAX creates: Y was never reclaimed.)
 * phase 2: GO: sends to the unmasked Y -- must abort with BAD_REF, which is
 *          delivered to us: asks Z how many messages it got.
 * phase 3: Z's count (must be 0); fault handler := the console again. */
void prog_gc_abort(am_ctx *ctx)
{
    am_word phase = am_state(ctx, 0), ymask = am_state(ctx, 1);
    am_ref z = am_state(ctx, 2);
    am_word creates = am_state(ctx, 3);
    am_ref self = am_self(ctx);
    am_fault_info f;
    int fault = am_fault(ctx, &f);

    if (fault && f.cause == AM_FAULT_TABLE_FULL) {
        gc_say_u(ctx, "gc-abort: TABLE_FULL after ", creates, " creates: no collection\n");
        am_set_fault_handler(ctx, AM_CONSOLE);
        AM_BECOME(ctx, AMB_PROG_GC_ABORT, 4);
        return;
    }
    switch (phase) {
    case 0: {
        am_set_fault_handler(ctx, AM_NIL);
        am_ref y = AM_CREATE(ctx, AMB_PROG_GC_WITNESS, 0);
        am_ref fl = am_create(ctx, AMB_PROG_GC_ABORT_FAILER, 0, 0);
        AM_SEND(ctx, fl, y);
        am_send(ctx, self, 0, 0);
        ymask = y ^ GC_ABORT_MASK;
        phase = 1;
        break;
    }
    case 1: {
        if (fault) am_fail(ctx, AML_E_DEMO_UNEXPECTED);
        am_set_fault_handler(ctx, self);
        am_ref w = AM_CREATE(ctx, AMB_PROG_GC_WITNESS, 0);
        creates++;
        /* a test program may compare slots: did the witness get Y's slot? */
        if (GC_SLOT(w) == GC_SLOT(ymask ^ GC_ABORT_MASK)) {
            gc_say_u(ctx, "gc-abort: Y's slot reused after ", creates, " creates\n");
            z = w;
            AM_SEND(ctx, self, GC_ABORT_GO);
            phase = 2;
        } else if (creates >= GC_ABORT_HUNT_MAX) {
            am_print(ctx, "gc-abort: Y NEVER RECLAIMED\n");
            am_set_fault_handler(ctx, AM_CONSOLE);
            phase = 4;
        } else {
            am_send(ctx, self, 0, 0);
        }
        break;
    }
    case 2:
        if (!fault) {   /* GO */
            AM_SEND(ctx, ymask ^ GC_ABORT_MASK, 2);
            am_print(ctx, "gc-abort: STALE SEND ACCEPTED\n");
            break;
        }
        if (f.cause == AM_FAULT_BAD_REF && f.target == self)
            am_print(ctx, "gc-abort: stale send to Y: BAD_REF\n");
        else
            gc_say_u(ctx, "gc-abort: UNEXPECTED FAULT ", f.cause, "\n");
        AM_SEND(ctx, z, GC_WITNESS_QUERY, self);
        phase = 3;
        break;
    case 3:
        if (fault) am_fail(ctx, AML_E_DEMO_UNEXPECTED);
        gc_say_u(ctx, "gc-abort: occupant got ", am_msg(ctx, 0), " messages\n");
        am_set_fault_handler(ctx, AM_CONSOLE);
        phase = 4;
        break;
    default:
        am_fail(ctx, AML_E_DEMO_UNEXPECTED);
    }
    AM_BECOME(ctx, AMB_PROG_GC_ABORT, phase, ymask, z, creates);
}

/* ---- gc-storm -------------------------------------------------------------- */
/* STORM_TOKEN state [v]: [join, v] -> [v] to join (checks v), then SINK */
void prog_gc_storm_token(am_ctx *ctx)
{
    am_word v = am_state(ctx, 0);
    if (am_msg_len(ctx) != 2 || am_msg(ctx, 1) != v) am_fail(ctx, AML_E_DEMO_UNEXPECTED);
    AM_SEND(ctx, am_msg(ctx, 0), v);
    am_become(ctx, AM_BEH_SINK, 0, 0);
}

/* STORM_NODE (no state): [depth, join, token, v] -> token gets [join, v];
 * above the leaves, two new nodes get new tokens 2v and 2v+1. */
void prog_gc_storm_node(am_ctx *ctx)
{
    am_word d = am_msg(ctx, 0), v = am_msg(ctx, 3);
    am_ref join = am_msg(ctx, 1), token = am_msg(ctx, 2);
    AM_SEND(ctx, token, join, v);
    if (d == 0) return;
    for (uint32_t i = 0; i < 2; i++) {
        am_ref t = AM_CREATE(ctx, AMB_PROG_GC_STORM_TOKEN, 2 * v + i);
        am_ref c = am_create(ctx, AMB_PROG_GC_STORM_NODE, 0, 0);
        AM_SEND(ctx, c, d - 1, join, t, 2 * v + i);
    }
}

/* STORM_JOIN state [cust, remaining, sum]: [v] adds; the last one sends
 * [sum] to cust and the join becomes SINK. */
void prog_gc_storm_join(am_ctx *ctx)
{
    am_ref cust = am_state(ctx, 0);
    am_word left = am_state(ctx, 1) - 1, sum = am_state(ctx, 2) + am_msg(ctx, 0);
    if (left == 0) {
        AM_SEND(ctx, cust, sum);
        am_become(ctx, AM_BEH_SINK, 0, 0);
    } else {
        AM_BECOME(ctx, AMB_PROG_GC_STORM_JOIN, cust, left, sum);
    }
}

static void storm_round(am_ctx *ctx)
{
    am_ref j = AM_CREATE(ctx, AMB_PROG_GC_STORM_JOIN, am_self(ctx), GC_STORM_NODES, 0);
    am_ref t = AM_CREATE(ctx, AMB_PROG_GC_STORM_TOKEN, 1);
    am_ref root = am_create(ctx, AMB_PROG_GC_STORM_NODE, 0, 0);
    AM_SEND(ctx, root, GC_STORM_DEPTH, j, t, 1);
}

void prog_gc_storm(am_ctx *ctx)
{
    rounds_driver(ctx, AMB_PROG_GC_STORM, GC_STORM_DEFAULT, storm_round, GC_STORM_SUM,
                  "gc-storm: ", " rounds, sum ");
}

/* ---- gc-restart ----------------------------------------------------------- */
/* RESTART_WORKER: [WORK, witness] -> fails (GC_RESTART_CODE);
 *                 [PING, cust] -> cust [PONG] */
void prog_gc_restart_worker(am_ctx *ctx)
{
    if (am_msg(ctx, 0) == GC_RESTART_PING) {
        AM_SEND(ctx, am_msg(ctx, 1), GC_RESTART_PONG);
        return;
    }
    am_fail(ctx, GC_RESTART_CODE);
}

/* Makes a worker and its witness (which only the WORK message refers to) and
 * GC_RESTART_JUNK actors that nothing refers to, and sends the worker WORK. */
static void restart_worker(am_ctx *ctx)
{
    am_ref w = am_create(ctx, AMB_PROG_GC_RESTART_WORKER, 0, 0);
    am_ref x = am_create(ctx, AMB_PROG_GC_RESTART_WORKER, 0, 0);
    for (uint32_t i = 0; i < GC_RESTART_JUNK; i++) (void)am_create(ctx, AMB_PROG_GC_RESTART_WORKER, 0, 0);
    AM_SEND(ctx, w, GC_RESTART_WORK, x);
}

/* state [phase, n, restarts, pongs, wrong]; the supervisor keeps no
 * reference to its workers.
 * phase 0: boot [N]: fault handler := self, starts the first worker.
 * a delivery (the worker's WORK failed): PING to the failed worker
 *     (f.target) and to the witness (the message's word 1), staged before
 *     the CREATEs -- a collection on demand for one of them must leave both
 *     alive -- then the next worker, until N restarts; then the fault
 *     handler is the console again.
 * [PONG]: counts; the 2N-th prints the result. */
void prog_gc_restart(am_ctx *ctx)
{
    am_word phase = am_state(ctx, 0), n = am_state(ctx, 1), restarts = am_state(ctx, 2);
    am_word pongs = am_state(ctx, 3), wrong = am_state(ctx, 4);
    am_ref self = am_self(ctx);
    am_fault_info f;

    if (phase == 0) {
        n = gc_boot_arg(ctx, GC_RESTART_DEFAULT);
        am_set_fault_handler(ctx, self);
        restart_worker(ctx);
        phase = 1;
    } else if (am_fault(ctx, &f)) {
        if (f.cause != AM_FAULT_FAIL || f.code != GC_RESTART_CODE || am_msg(ctx, 0) != GC_RESTART_WORK)
            wrong++;
        AM_SEND(ctx, f.target, GC_RESTART_PING, self);
        AM_SEND(ctx, am_msg(ctx, 1), GC_RESTART_PING, self);
        restarts++;
        if (restarts < n) restart_worker(ctx);
        else am_set_fault_handler(ctx, AM_CONSOLE);
    } else if (am_msg(ctx, 0) == GC_RESTART_PONG) {
        pongs++;
        if (pongs == 2 * n) {
            gc_say_u(ctx, "gc-restart: ", restarts, " restarts from the fault handler, ");
            gc_say_u(ctx, "", pongs, " pongs");
            if (wrong) gc_say_u(ctx, ", ", wrong, " wrong messages");
            am_print(ctx, "\n");
        }
    } else {
        wrong++;
    }
    AM_BECOME(ctx, AMB_PROG_GC_RESTART, phase, n, restarts, pongs, wrong);
}
