/*
 * test_rt.c — the reference runtime against docs/semantics.md: commit and
 * abort, every bound, references, determinism, the trace format, counters,
 * ASK, and host-API errors. Behaviors here are test-only, with their own
 * behavior table (ids 0..2 are the runtime's built-ins).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "am_rt.h"
#include "t.h"

void am_builtin_console(am_ctx *ctx);
void am_builtin_sink(am_ctx *ctx);
void am_builtin_ask(am_ctx *ctx);

/* ---- test behaviors ------------------------------------------------------ */

enum { B_ECHO = AM_BEH_FIRST_USER, B_COUNTER, B_SPAWNER, B_FAILER, B_OP, B_PRINTER,
       B_SILENT, B_TWICE, B_HANDLER, B_INSTALL, NBEH };

/* [cust, x...] -> cust gets [x...] */
static void echo_beh(am_ctx *ctx)
{
    am_word w[AM_MAX_MSG_WORDS];
    uint32_t n = am_msg_len(ctx);
    if (n == 0) am_fail(ctx, 0xec0);
    for (uint32_t i = 1; i < n; i++) w[i - 1] = am_msg(ctx, i);
    am_send(ctx, am_msg(ctx, 0), n - 1, w);
}

/* state[0] += msg[0]; state[1] counts messages */
static void counter_beh(am_ctx *ctx)
{
    AM_BECOME(ctx, B_COUNTER, am_state(ctx, 0) + am_msg(ctx, 0), am_state(ctx, 1) + 1);
}

/* [cust] -> creates a counter with state [7], sends its ref to cust */
static void spawner_beh(am_ctx *ctx)
{
    am_ref c = AM_CREATE(ctx, B_COUNTER, 7);
    AM_SEND(ctx, am_msg(ctx, 0), c);
}

/* stages a create, two sends (console, self), a become, then fails */
static void failer_beh(am_ctx *ctx)
{
    am_ref c = AM_CREATE(ctx, B_COUNTER, 1, 2, 3);
    AM_SEND(ctx, c, 5);
    am_print(ctx, "never printed");
    AM_BECOME(ctx, B_COUNTER, 99);
    am_fail(ctx, 0x1234);
}

/* One operation per message, for the bound tests:
 *   [0, n]        n sends of [i] to self's console...(to console: empty hex)
 *   [1, n]        n creates
 *   [2, len]      one send of len words to self? (to AM_CONSOLE)
 *   [3, len]      become with len state words
 *   [4, beh]      create with behavior beh
 *   [5, beh]      become beh
 *   [6, ref]      send [] to ref
 *   [7, ref]      create one, then send to ref (ref may be the created one)
 *   [8, n]        n sends of [] to self (queue pressure)
 *   [10, len]     create with len state words
 */
static void op_beh(am_ctx *ctx)
{
    am_word zeros[AM_MAX_MSG_WORDS + 4] = {0};
    uint32_t a = am_msg(ctx, 1);
    switch (am_msg(ctx, 0)) {
    case 0: for (uint32_t i = 0; i < a; i++) am_print_hex(ctx, i); break;
    case 1: for (uint32_t i = 0; i < a; i++) AM_CREATE(ctx, B_COUNTER, i); break;
    case 2: am_send(ctx, AM_CONSOLE, a, zeros); break;
    case 3: am_become(ctx, B_OP, a, zeros); break;
    case 4: am_create(ctx, a, 0, NULL); break;
    case 5: am_become(ctx, a, 0, NULL); break;
    case 6: am_send(ctx, a, 0, NULL); break;
    case 7: { am_ref c = am_create(ctx, B_SILENT, 0, NULL);
              am_send(ctx, a ? a : c, 0, NULL); break; }
    case 8: for (uint32_t i = 0; i < a; i++) AM_SEND(ctx, am_self(ctx), 9, i); break;
    case 9: break;
    case 10: am_create(ctx, B_SILENT, a, zeros); break;
    default: am_fail(ctx, 0xbad);
    }
}

/* eight sends: exactly the default bound */
static void printer_beh(am_ctx *ctx)
{
    am_print(ctx, "hello, ");
    am_print(ctx, "a text longer than twenty-eight bytes, split in two.\n");
    am_print_int(ctx, -42);
    am_print(ctx, " ");
    am_print_uint(ctx, 4000000000u);
    am_print_hex(ctx, 0xdeadbeef);
    AM_SEND(ctx, AM_CONSOLE, 77, 1, 2);   /* not a console format */
}

static void silent_beh(am_ctx *ctx) { (void)ctx; }

/* replies twice to the customer */
static void twice_beh(am_ctx *ctx)
{
    AM_SEND(ctx, am_msg(ctx, 0), 1);
    AM_SEND(ctx, am_msg(ctx, 0), 2);
}

/* a fault handler: records what it was told in its state
 * [deliveries, cause, code, target, beh, len, msg0]; fails when msg0 == 0xdead */
static void handler_beh(am_ctx *ctx)
{
    am_fault_info fi;
    if (!am_fault(ctx, &fi)) am_fail(ctx, 0x404);
    if (am_msg(ctx, 0) == 0xdead) am_fail(ctx, 0x405);
    AM_BECOME(ctx, B_HANDLER, am_state(ctx, 0) + 1, fi.cause, fi.code, fi.target, fi.beh,
              am_msg_len(ctx), am_msg(ctx, 0));
}

/* [ref]: install ref as the fault handler, then fail if ref is 0xbad0 */
static void install_beh(am_ctx *ctx)
{
    am_set_fault_handler(ctx, am_msg(ctx, 0));
    if (am_msg(ctx, 1) == 1) am_fail(ctx, 7);
}

static const am_behavior_desc tab[NBEH] = {
    { "CONSOLE", am_builtin_console }, { "SINK", am_builtin_sink }, { "ASK", am_builtin_ask },
    { "ECHO", echo_beh }, { "COUNTER", counter_beh }, { "SPAWNER", spawner_beh },
    { "FAILER", failer_beh }, { "OP", op_beh }, { "PRINTER", printer_beh },
    { "SILENT", silent_beh }, { "TWICE", twice_beh }, { "HANDLER", handler_beh },
    { "INSTALL", install_beh },
};

/* ---- harness --------------------------------------------------------------- */

typedef struct fixture {
    am_rt *rt;
    char out[4096];
    size_t nout;
    am_fault_record faults[16];
    int nfaults;
} fixture;

static void cap_out(void *user, const char *p, size_t n)
{
    fixture *f = user;
    if (f->nout + n < sizeof f->out) { memcpy(f->out + f->nout, p, n); f->nout += n; }
    f->out[f->nout] = 0;
}

static void cap_fault(void *user, const am_fault_record *r)
{
    fixture *f = user;
    if (f->nfaults < 16) f->faults[f->nfaults] = *r;
    f->nfaults++;
}

/* A runtime with the test behaviors; faults are read from the records, not
 * delivered to an actor, unless a test asks for a handler. */
static void setup_handler(fixture *f, am_config *cfg_opt, am_ref handler)
{
    am_config cfg;
    if (cfg_opt) cfg = *cfg_opt; else am_config_default(&cfg);
    cfg.fault_handler = handler;
    cfg.behaviors = tab;
    cfg.nbehaviors = NBEH;
    cfg.on_output = cap_out;
    cfg.on_fault = cap_fault;
    cfg.user = f;
    memset(f, 0, sizeof *f);
    if (am_rt_new(&cfg, &f->rt) != AM_OK) { fprintf(stderr, "setup failed\n"); exit(2); }
}

static void setup(fixture *f, am_config *cfg_opt) { setup_handler(f, cfg_opt, AM_NIL); }

static am_ref spawn(fixture *f, am_beh b)
{
    am_ref r = AM_NIL;
    if (am_spawn(f->rt, b, 0, NULL, &r) != AM_OK) { fprintf(stderr, "spawn failed\n"); exit(2); }
    return r;
}

static am_status op(fixture *f, am_ref a, am_word code, am_word arg)
{
    am_word m[2] = { code, arg };
    am_status s = am_inject(f->rt, a, 2, m);
    return s != AM_OK ? s : am_run(f->rt, 0);
}

static int last_cause(fixture *f)
{
    return f->nfaults ? (int)f->faults[(f->nfaults - 1) % 16].cause : 0;
}

/* ---- tests ------------------------------------------------------------------- */

TEST(reset_state)
{
    fixture f; setup(&f, NULL);
    am_counters c; am_get_counters(f.rt, &c);
    CHECK_EQ(c.live, 1);
    am_beh b;
    CHECK_EQ(am_peek(f.rt, AM_CONSOLE, &b, NULL), AM_OK);
    CHECK_EQ(b, AM_BEH_CONSOLE);
    CHECK_EQ(am_peek(f.rt, AM_NIL, NULL, NULL), AM_E_BAD_REF);
    CHECK_EQ(spawn(&f, B_ECHO), 0x00010001u);     /* slot 1, generation 1 */
    CHECK_EQ(spawn(&f, B_ECHO), 0x00010002u);
    am_rt_free(f.rt);
}

TEST(console_formats)
{
    fixture f; setup(&f, NULL);
    am_ref p = spawn(&f, B_PRINTER);
    CHECK_EQ(am_inject(f.rt, p, 0, NULL), AM_OK);
    CHECK_EQ(am_run(f.rt, 0), AM_OK);
    CHECK_STR(f.out, "hello, a text longer than twenty-eight bytes, split in two.\n"
                     "-42 4000000000deadbeef<console: bad message len=3 w0=0000004d>");
    CHECK_EQ(f.nfaults, 0);
    am_rt_free(f.rt);
}

TEST(fifo_order_and_commit)
{
    fixture f; setup(&f, NULL);
    am_ref c = spawn(&f, B_COUNTER);
    for (am_word i = 1; i <= 5; i++) CHECK_EQ(am_inject(f.rt, c, 1, &i), AM_OK);
    CHECK_EQ(am_run(f.rt, 0), AM_OK);
    am_word st[AM_MAX_STATE_WORDS];
    CHECK_EQ(am_peek(f.rt, c, NULL, st), AM_OK);
    CHECK_EQ(st[0], 15);
    CHECK_EQ(st[1], 5);
    CHECK_EQ(st[2], 0);
    am_counters k; am_get_counters(f.rt, &k);
    CHECK_EQ(k.dispatches, 5);
    CHECK_EQ(k.commits, 5);
    CHECK_EQ(k.aborts, 0);
    CHECK_EQ(k.queue_high_water, 5);
    am_rt_free(f.rt);
}

TEST(create_becomes_live_at_commit)
{
    fixture f; setup(&f, NULL);
    am_ref sp = spawn(&f, B_SPAWNER);
    am_word reply[AM_MAX_MSG_WORDS]; uint32_t n;
    CHECK_EQ(am_ask(f.rt, sp, 0, NULL, 0, reply, &n), AM_OK);
    CHECK_EQ(n, 1);
    am_beh b; am_word st[AM_MAX_STATE_WORDS];
    CHECK_EQ(am_peek(f.rt, reply[0], &b, st), AM_OK);
    CHECK_EQ(b, B_COUNTER);
    CHECK_EQ(st[0], 7);
    CHECK_EQ(st[1], 0);
    am_rt_free(f.rt);
}

TEST(abort_leaves_no_trace)
{
    fixture f; setup(&f, NULL);
    am_ref x = spawn(&f, B_FAILER);
    am_counters before; am_get_counters(f.rt, &before);
    am_word m[3] = { 10, 20, 30 };
    CHECK_EQ(am_inject(f.rt, x, 3, m), AM_OK);
    CHECK_EQ(am_step(f.rt), AM_OK);
    am_counters after; am_get_counters(f.rt, &after);
    CHECK_EQ(after.queue_len, 0);          /* no staged send reached the queue */
    CHECK_EQ(after.live, before.live);     /* the created actor never lived */
    CHECK_EQ(f.nout, 0);                   /* nothing printed */
    am_beh b;
    CHECK_EQ(am_peek(f.rt, x, &b, NULL), AM_OK);
    CHECK_EQ(b, B_FAILER);                 /* the become was discarded */
    CHECK_EQ(after.aborts, 1);
    CHECK_EQ(after.commits, 0);
    /* the fault record carries the whole event */
    CHECK_EQ(f.nfaults, 1);
    CHECK_EQ(f.faults[0].cause, AM_FAULT_FAIL);
    CHECK_EQ(f.faults[0].code, 0x1234);
    CHECK_EQ(f.faults[0].seq, 1);
    CHECK_EQ(f.faults[0].target, x);
    CHECK_EQ(f.faults[0].beh, B_FAILER);
    CHECK_EQ(f.faults[0].len, 3);
    CHECK_EQ(f.faults[0].msg[2], 30);
    CHECK(am_last_fault(f.rt) != NULL);
    /* the free stack was restored; the never-used slot the aborted CREATE
     * took (slot 2) stays used, dead with the generation it was given: the
     * next actor gets slot 3, and slot 2 comes back after a collection at
     * generation 2 -- the aborted reference 0x00010002 names no actor */
    CHECK_EQ(spawn(&f, B_ECHO), 0x00010003u);
    CHECK_EQ(am_gc(f.rt), 0);
    CHECK_EQ(spawn(&f, B_ECHO), 0x00020002u);
    CHECK_EQ(am_inject(f.rt, 0x00010002u, 0, NULL), AM_E_BAD_REF);
    am_rt_free(f.rt);
}

TEST(forged_ref_to_aborted_create_is_bad_ref)
{
    fixture f; setup(&f, NULL);
    am_ref x = spawn(&f, B_FAILER);        /* slot 1 */
    am_ref o = spawn(&f, B_OP);            /* slot 2 */
    CHECK_EQ(am_inject(f.rt, x, 0, NULL), AM_OK);
    CHECK_EQ(am_step(f.rt), AM_OK);        /* created slot 3 gen 1, aborted */
    CHECK_EQ(op(&f, o, 6, 0x00010003u), AM_OK);
    CHECK_EQ(last_cause(&f), AM_FAULT_BAD_REF);
    CHECK_EQ(op(&f, o, 6, AM_NIL), AM_OK);
    CHECK_EQ(last_cause(&f), AM_FAULT_BAD_REF);
    CHECK_EQ(op(&f, o, 6, 0x00020001u), AM_OK);   /* live slot, wrong generation */
    CHECK_EQ(last_cause(&f), AM_FAULT_BAD_REF);
    CHECK_EQ(op(&f, o, 6, 0x0001ffffu), AM_OK);   /* beyond the table */
    CHECK_EQ(last_cause(&f), AM_FAULT_BAD_REF);
    CHECK_EQ(f.nfaults, 5);
    am_ref quiet = spawn(&f, B_SILENT);
    CHECK_EQ(op(&f, o, 6, quiet), AM_OK);         /* a valid one commits */
    CHECK_EQ(f.nfaults, 5);
    CHECK_EQ(op(&f, o, 7, 0), AM_OK);             /* send to own fresh create */
    CHECK_EQ(f.nfaults, 5);
    CHECK_EQ(am_inject(f.rt, 0x00050001u, 0, NULL), AM_E_BAD_REF);
    am_rt_free(f.rt);
}

TEST(every_bound_aborts_with_its_cause)
{
    fixture f; setup(&f, NULL);
    am_ref o = spawn(&f, B_OP);
    /* the record names the operation and the offending value: the target of
     * a SEND, the behavior of a CREATE / BECOME, the length (saturated at
     * AM_FAULT_LEN_MAX, as the hardware's address holds it), FAIL's code */
    struct { am_word code, arg; int cause; uint32_t op; am_word value; } cases[] = {
        { 0, 8, 0, 0, 0 }, { 0, 9, AM_FAULT_TOO_MANY_SENDS, AM_OP_SEND, AM_CONSOLE },
        { 1, 4, 0, 0, 0 }, { 1, 5, AM_FAULT_TOO_MANY_CREATES, AM_OP_CREATE, B_COUNTER },
        { 2, 8, 0, 0, 0 }, { 2, 9, AM_FAULT_MSG_TOO_LONG, AM_OP_SEND, 9 },
        { 2, 100, AM_FAULT_MSG_TOO_LONG, AM_OP_SEND, AM_FAULT_LEN_MAX },
        { 3, 8, 0, 0, 0 }, { 3, 9, AM_FAULT_STATE_TOO_LONG, AM_OP_BECOME, 9 },
        { 10, 8, 0, 0, 0 }, { 10, 12, AM_FAULT_STATE_TOO_LONG, AM_OP_CREATE, 12 },
        { 4, NBEH - 1, 0, 0, 0 }, { 4, NBEH, AM_FAULT_BAD_BEHAVIOR, AM_OP_CREATE, NBEH },
        { 4, 0xffffu, AM_FAULT_BAD_BEHAVIOR, AM_OP_CREATE, 0xffffu },
        { 5, NBEH, AM_FAULT_BAD_BEHAVIOR, AM_OP_BECOME, NBEH },
        { 6, 0x12345678u, AM_FAULT_BAD_REF, AM_OP_SEND, 0x12345678u },
        { 6, AM_NIL, AM_FAULT_BAD_REF, AM_OP_SEND, AM_NIL },
        { 99, 0, AM_FAULT_FAIL, AM_OP_ABORT, 0xbad },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int before = f.nfaults;
        CHECK_EQ(op(&f, o, cases[i].code, cases[i].arg), AM_OK);
        if (cases[i].cause) {
            CHECK_EQ(f.nfaults, before + 1);
            CHECK_EQ(last_cause(&f), cases[i].cause);
            const am_fault_record *r = am_last_fault(f.rt);
            CHECK(r != NULL);
            CHECK_EQ(r->op, cases[i].op);
            CHECK_EQ(r->value, cases[i].value);
            CHECK_EQ(r->code, cases[i].cause == AM_FAULT_FAIL ? cases[i].value : 0);
        } else {
            CHECK_EQ(f.nfaults, before);
        }
        am_run(f.rt, 0);                  /* drain console output */
    }
    am_rt_free(f.rt);
}

TEST(table_full_at_create)
{
    am_config cfg; am_config_default(&cfg);
    cfg.table_size = 5;                    /* console + 4 */
    cfg.gc_low = cfg.gc_period = 0;        /* no collector: the created actors are garbage */
    fixture f; setup(&f, &cfg);
    am_ref o = spawn(&f, B_OP);
    CHECK_EQ(op(&f, o, 1, 3), AM_OK);      /* fills the table */
    CHECK_EQ(f.nfaults, 0);
    CHECK_EQ(op(&f, o, 1, 1), AM_OK);
    CHECK_EQ(last_cause(&f), AM_FAULT_TABLE_FULL);
    CHECK_EQ(am_last_fault(f.rt)->op, AM_OP_CREATE);
    CHECK_EQ(am_last_fault(f.rt)->value, B_COUNTER);   /* the behavior it would have had */
    CHECK_EQ(am_spawn(f.rt, B_ECHO, 0, NULL, NULL), AM_E_TABLE_FULL);
    am_counters c; am_get_counters(f.rt, &c);
    CHECK_EQ(c.live, 5);
    am_rt_free(f.rt);
}

TEST(queue_full_at_commit_is_all_or_nothing)
{
    am_config cfg; am_config_default(&cfg);
    cfg.queue_depth = 4;
    fixture f; setup(&f, &cfg);
    am_ref o = spawn(&f, B_OP);
    am_ref s = spawn(&f, B_SILENT);
    CHECK_EQ(am_inject(f.rt, s, 0, NULL), AM_OK);     /* 1 queued */
    am_word m[2] = { 8, 4 };                          /* 4 sends: 1 + 4 > 4 */
    CHECK_EQ(am_inject(f.rt, o, 2, m), AM_OK);
    CHECK_EQ(am_step(f.rt), AM_OK);                   /* silent */
    CHECK_EQ(am_step(f.rt), AM_OK);                   /* op: 0 queued + 4 fits */
    CHECK_EQ(f.nfaults, 0);
    am_counters c; am_get_counters(f.rt, &c);
    CHECK_EQ(c.queue_len, 4);
    CHECK_EQ(c.queue_high_water, 4);
    /* each queued [9, i] is a no-op; now make one that does not fit */
    CHECK_EQ(am_step(f.rt), AM_OK);                   /* 3 queued */
    CHECK_EQ(am_inject(f.rt, o, 2, m), AM_OK);        /* 4 queued: full */
    CHECK_EQ(am_inject(f.rt, o, 2, m), AM_E_QUEUE_FULL);
    /* a full queue is reported before a bad target, as the hardware does
     * (docs/semantics.md, "Outside the transactions") */
    CHECK_EQ(am_inject(f.rt, 0x00050001u, 0, NULL), AM_E_QUEUE_FULL);
    CHECK_EQ(am_step(f.rt), AM_OK);
    CHECK_EQ(am_step(f.rt), AM_OK);
    CHECK_EQ(am_step(f.rt), AM_OK);                   /* 1 queued: the [8,4] */
    CHECK_EQ(am_inject(f.rt, s, 0, NULL), AM_OK);     /* 2 queued */
    CHECK_EQ(am_step(f.rt), AM_OK);                   /* 1 + 4 > 4: abort */
    CHECK_EQ(last_cause(&f), AM_FAULT_QUEUE_FULL);
    CHECK_EQ(am_last_fault(f.rt)->op, AM_OP_COMMIT);
    CHECK_EQ(am_last_fault(f.rt)->value, 0);
    am_get_counters(f.rt, &c);
    CHECK_EQ(c.queue_len, 1);                         /* none of the 4 */
    CHECK_EQ(f.faults[0].msg[0], 8);
    am_rt_free(f.rt);
}

TEST(first_fault_wins)
{
    /* TOO_MANY_SENDS comes before a later FAIL could: the behavior stops */
    fixture f; setup(&f, NULL);
    am_ref o = spawn(&f, B_OP);
    CHECK_EQ(op(&f, o, 0, 100), AM_OK);
    CHECK_EQ(f.nfaults, 1);
    CHECK_EQ(last_cause(&f), AM_FAULT_TOO_MANY_SENDS);
    am_rt_free(f.rt);
}

static void run_program(char **buf, size_t *len)
{
    FILE *t = open_memstream(buf, len);
    am_config cfg; am_config_default(&cfg);
    cfg.trace = t;
    fixture f; setup(&f, &cfg);
    am_ref e = spawn(&f, B_ECHO), c = spawn(&f, B_COUNTER), sp = spawn(&f, B_SPAWNER);
    am_ref x = spawn(&f, B_FAILER), p = spawn(&f, B_PRINTER);
    for (am_word i = 0; i < 3; i++) {
        am_word m[3] = { c, i, i * 7 };
        am_inject(f.rt, e, 3, m);
        am_inject(f.rt, sp, 1, &c);
        am_inject(f.rt, x, 1, &i);
    }
    am_inject(f.rt, p, 0, NULL);
    am_run(f.rt, 0);
    am_rt_free(f.rt);
    fclose(t);
}

TEST(deterministic_trace)
{
    char *a, *b; size_t na, nb;
    run_program(&a, &na);
    run_program(&b, &nb);
    CHECK(na > 500);
    CHECK_EQ(na, nb);
    CHECK(memcmp(a, b, na) == 0);
    free(a); free(b);
}

TEST(trace_format)
{
    char *buf; size_t len;
    FILE *t = open_memstream(&buf, &len);
    am_config cfg; am_config_default(&cfg);
    cfg.trace = t;
    fixture f; setup(&f, &cfg);
    am_ref c = spawn(&f, B_COUNTER), sp = spawn(&f, B_SPAWNER), x = spawn(&f, B_FAILER);
    am_word one = 1;
    am_inject(f.rt, c, 1, &one);
    am_inject(f.rt, sp, 1, &c);
    am_inject(f.rt, x, 0, NULL);
    am_run(f.rt, 0);
    am_rt_free(f.rt);
    fclose(t);
    CHECK_STR(buf,
        "000001 C 00010001 b4 [00000001] | become b4 [00000001 00000001]\n"
        "000002 C 00010002 b5 [00010001] | new 00010004 b4 [00000007] | send 00010001 [00010004]\n"
        "000003 A 00010003 b6 [] | fault FAIL 00001234 op ABORT 00001234\n"
        "000004 C 00010001 b4 [00010004] | become b4 [00010005 00000002]\n");
    free(buf);
}

TEST(ask)
{
    fixture f; setup(&f, NULL);
    am_ref e = spawn(&f, B_ECHO);
    am_word req[2] = { 5, 6 }, reply[AM_MAX_MSG_WORDS]; uint32_t n = 99;
    CHECK_EQ(am_ask(f.rt, e, 2, req, 0, reply, &n), AM_OK);
    CHECK_EQ(n, 2);
    CHECK_EQ(reply[0], 5);
    CHECK_EQ(reply[1], 6);
    /* a target that never replies: the queue drains first */
    am_ref s = spawn(&f, B_SILENT);
    CHECK_EQ(am_ask(f.rt, s, 0, NULL, 0, reply, &n), AM_E_NO_REPLY);
    /* budget */
    am_ref c = spawn(&f, B_COUNTER);
    CHECK_EQ(am_ask(f.rt, c, 0, NULL, 0, reply, &n), AM_E_NO_REPLY);
    /* a second reply to a one-shot customer is accepted and ignored */
    am_ref tw = spawn(&f, B_TWICE);
    CHECK_EQ(am_ask(f.rt, tw, 0, NULL, 0, reply, &n), AM_OK);
    CHECK_EQ(reply[0], 1);
    CHECK_EQ(am_run(f.rt, 0), AM_OK);
    CHECK_EQ(f.nfaults, 0);
    /* errors, nothing changed */
    am_counters a, b;
    am_get_counters(f.rt, &a);
    am_word big[AM_MAX_MSG_WORDS] = {0};
    CHECK_EQ(am_ask(f.rt, e, AM_MAX_MSG_WORDS, big, 0, reply, &n), AM_E_TOO_LONG);
    CHECK_EQ(am_ask(f.rt, 0x00090009u, 0, NULL, 0, reply, &n), AM_E_BAD_REF);
    am_get_counters(f.rt, &b);
    CHECK_EQ(a.live, b.live);
    CHECK_EQ(a.dispatches, b.dispatches);
    am_rt_free(f.rt);
}

TEST(ask_budget)
{
    fixture f; setup(&f, NULL);
    am_ref o = spawn(&f, B_OP);
    am_word m[2] = { 8, 3 };
    CHECK_EQ(am_inject(f.rt, o, 2, m), AM_OK);
    am_ref e = spawn(&f, B_ECHO);
    am_word reply[AM_MAX_MSG_WORDS];
    CHECK_EQ(am_ask(f.rt, e, 0, NULL, 1, reply, NULL), AM_E_LIMIT);
    CHECK_EQ(am_run(f.rt, 2), AM_E_LIMIT);
    CHECK_EQ(am_run(f.rt, 0), AM_OK);
    am_rt_free(f.rt);
}

static am_rt *g_rt;
static am_status g_inner;
static void reentrant_beh(am_ctx *ctx) { (void)ctx; g_inner = am_step(g_rt); }

TEST(host_api_inside_behavior_is_refused)
{
    am_behavior_desc t2[AM_BEH_FIRST_USER + 1];
    memcpy(t2, tab, sizeof(am_behavior_desc) * AM_BEH_FIRST_USER);
    t2[AM_BEH_FIRST_USER].name = "REENTRANT";
    t2[AM_BEH_FIRST_USER].fn = reentrant_beh;
    am_config cfg; am_config_default(&cfg);
    cfg.behaviors = t2;
    cfg.nbehaviors = AM_BEH_FIRST_USER + 1;
    CHECK_EQ(am_rt_new(&cfg, &g_rt), AM_OK);
    am_ref r;
    CHECK_EQ(am_spawn(g_rt, AM_BEH_FIRST_USER, 0, NULL, &r), AM_OK);
    CHECK_EQ(am_inject(g_rt, r, 0, NULL), AM_OK);
    CHECK_EQ(am_inject(g_rt, r, 0, NULL), AM_OK);
    CHECK_EQ(am_step(g_rt), AM_OK);
    CHECK_EQ(g_inner, AM_E_REENTRANT);
    am_counters c; am_get_counters(g_rt, &c);
    CHECK_EQ(c.queue_len, 1);
    am_rt_free(g_rt);
}

TEST(config_and_spawn_errors)
{
    am_config cfg; am_config_default(&cfg);
    am_rt *rt;
    cfg.msg_words = 9;
    CHECK_EQ(am_rt_new(&cfg, &rt), AM_E_CONFIG);
    am_config_default(&cfg); cfg.table_size = 1;
    CHECK_EQ(am_rt_new(&cfg, &rt), AM_E_CONFIG);
    am_config_default(&cfg); cfg.queue_depth = 0;
    CHECK_EQ(am_rt_new(&cfg, &rt), AM_E_CONFIG);
    am_config_default(&cfg); cfg.max_sends = 0;
    CHECK_EQ(am_rt_new(&cfg, &rt), AM_E_CONFIG);
    am_config_default(&cfg); cfg.state_words = 4;
    CHECK_EQ(am_rt_new(&cfg, &rt), AM_OK);
    am_word st[5] = {0};
    CHECK_EQ(am_spawn(rt, 999, 0, NULL, NULL), AM_E_BAD_BEHAVIOR);
    CHECK_EQ(am_spawn(rt, AM_BEH_SINK, 5, st, NULL), AM_E_TOO_LONG);
    am_counters c; am_get_counters(rt, &c);
    CHECK_EQ(c.live, 1);
    CHECK_STR(am_strerror(AM_E_QUEUE_FULL), "event queue full");
    CHECK_STR(am_fault_name(AM_FAULT_QUEUE_FULL), "QUEUE_FULL");
    CHECK_STR(am_fault_name(1000), "UNKNOWN");
    am_rt_free(rt);
}

TEST(counters_balance)
{
    char *a; size_t na;
    run_program(&a, &na);
    free(a);
    fixture f; setup(&f, NULL);
    am_ref o = spawn(&f, B_OP);
    for (am_word i = 0; i < 12; i++) op(&f, o, i % 10, i);
    am_run(f.rt, 0);
    am_counters c; am_get_counters(f.rt, &c);
    CHECK_EQ(c.dispatches, c.commits + c.aborts);
    CHECK_EQ(c.faults, c.aborts);
    CHECK_EQ((int)c.faults, f.nfaults);
    CHECK_EQ(c.seq, c.dispatches);
    am_rt_free(f.rt);
}

static char g_lines[4096];
static void cap_trace(void *user, const char *line, size_t n)
{
    (void)user;
    size_t k = strlen(g_lines);
    if (k + n < sizeof g_lines) memcpy(g_lines + k, line, n);
}

TEST(trace_callback_and_test_perturbation)
{
    am_config cfg; am_config_default(&cfg);
    cfg.on_trace = cap_trace;
    cfg.test_perturb_seq = 2;
    fixture f; setup(&f, &cfg);
    g_lines[0] = 0;
    am_ref e = spawn(&f, B_ECHO), s = spawn(&f, B_SILENT);
    am_word m[2] = { s, 0x10 };
    CHECK_EQ(am_inject(f.rt, e, 2, m), AM_OK);
    CHECK_EQ(am_inject(f.rt, e, 2, m), AM_OK);
    CHECK_EQ(am_run(f.rt, 0), AM_OK);
    /* seq 2's send carries 0x11 instead of 0x10: the perturbation */
    CHECK_STR(g_lines,
        "000001 C 00010001 b3 [00010002 00000010] | send 00010002 [00000010]\n"
        "000002 C 00010001 b3 [00010002 00000010] | send 00010002 [00000011]\n"
        "000003 C 00010002 b9 [00000010]\n"
        "000004 C 00010002 b9 [00000011]\n");
    am_rt_free(f.rt);
}

TEST(console_is_the_default_fault_handler)
{
    am_config cfg; am_config_default(&cfg);
    CHECK_EQ(cfg.fault_handler, AM_CONSOLE);
    fixture f; setup_handler(&f, &cfg, AM_CONSOLE);
    am_ref x = spawn(&f, B_FAILER);
    am_word m[2] = { 10, 20 };
    CHECK_EQ(am_inject(f.rt, x, 2, m), AM_OK);
    CHECK_EQ(am_run(f.rt, 0), AM_OK);
    CHECK_STR(f.out, "fault: FAIL op=ABORT value=00001234 code=00001234 target=00010001 beh=6 "
                     "msg=[0000000a 00000014]\n");
    am_counters c; am_get_counters(f.rt, &c);
    CHECK_EQ(c.dispatches, 2);                 /* the failure, then its delivery */
    CHECK_EQ(c.aborts, 1);
    CHECK_EQ(c.commits, 1);
    am_rt_free(f.rt);
}

TEST(fault_delivery_to_a_handler_actor)
{
    char *buf; size_t len;
    FILE *t = open_memstream(&buf, &len);
    am_config cfg; am_config_default(&cfg);
    cfg.trace = t;
    fixture f; setup_handler(&f, &cfg, 0x00010001u);   /* slot 1: the handler below */
    am_ref h = spawn(&f, B_HANDLER), x = spawn(&f, B_FAILER), e = spawn(&f, B_ECHO);
    CHECK_EQ(h, 0x00010001u);
    am_word m[3] = { 1, 2, 3 };
    CHECK_EQ(am_inject(f.rt, x, 3, m), AM_OK);
    am_word ok[2] = { h, 5 };
    CHECK_EQ(am_inject(f.rt, e, 2, ok), AM_OK);     /* queued behind: goes after the delivery */
    CHECK_EQ(am_step(f.rt), AM_OK);                 /* x fails */
    am_counters c; am_get_counters(f.rt, &c);
    CHECK_EQ(c.queue_len, 1);                        /* the delivery needs no queue space */
    CHECK_EQ(am_step(f.rt), AM_OK);                 /* delivered to h, next */
    am_word st[AM_MAX_STATE_WORDS];
    CHECK_EQ(am_peek(f.rt, h, NULL, st), AM_OK);
    CHECK_EQ(st[0], 1);
    CHECK_EQ(st[1], AM_FAULT_FAIL);
    CHECK_EQ(st[2], 0x1234);
    CHECK_EQ(st[3], x);
    CHECK_EQ(st[4], B_FAILER);
    CHECK_EQ(st[5], 3);
    CHECK_EQ(st[6], 1);
    /* e's [5] reaches h as an ordinary message: h fails (0x404), and that
     * failure is delivered to h itself, as a delivery */
    CHECK_EQ(am_run(f.rt, 0), AM_OK);
    CHECK_EQ(f.nfaults, 2);
    CHECK_EQ(f.faults[1].code, 0x404);
    CHECK_EQ(am_peek(f.rt, h, NULL, st), AM_OK);
    CHECK_EQ(st[0], 2);
    CHECK_EQ(st[3], h);
    /* the handler fails on a delivery: recorded, not delivered again */
    am_word dead[1] = { 0xdead };
    CHECK_EQ(am_inject(f.rt, x, 1, dead), AM_OK);
    CHECK_EQ(am_run(f.rt, 0), AM_OK);
    CHECK_EQ(f.nfaults, 4);
    CHECK_EQ(f.faults[3].code, 0x405);
    CHECK_EQ(f.faults[3].target, h);
    am_get_counters(f.rt, &c);
    CHECK_EQ(c.dispatches, 7);
    CHECK_EQ(c.aborts, 4);
    am_rt_free(f.rt);
    fclose(t);
    const char *want =
        "000001 A 00010002 b6 [00000001 00000002 00000003] | fault FAIL 00001234 op ABORT 00001234\n"
        "000002 C 00010001 b11 [00000001 00000002 00000003] | become b11 [00000001 00000001 "
        "00001234 00010002 00000006 00000003 00000001]\n";
    CHECK(strncmp(buf, want, strlen(want)) == 0);
    free(buf);
}

/* A delivery waiting between transactions takes a place in the queue for
 * am_inject (not for a commit: none runs before it), as the failed event's
 * entry does on the hardware until it is dispatched (docs/semantics.md,
 * "Outside the transactions"; tests/rtl: a collection puts it back at the
 * queue's head, so the queue must have room for it). */
TEST(a_waiting_delivery_counts_against_inject)
{
    am_config cfg; am_config_default(&cfg);
    cfg.queue_depth = 4;
    fixture f; setup_handler(&f, &cfg, 0x00010001u);
    am_ref h = spawn(&f, B_HANDLER), x = spawn(&f, B_FAILER), s = spawn(&f, B_SILENT);
    CHECK_EQ(h, 0x00010001u);
    am_word m[1] = { 1 };
    CHECK_EQ(am_inject(f.rt, x, 1, m), AM_OK);
    CHECK_EQ(am_step(f.rt), AM_OK);                 /* x fails: its delivery waits */
    for (int i = 0; i < 3; i++) CHECK_EQ(am_inject(f.rt, s, 0, NULL), AM_OK);
    CHECK_EQ(am_inject(f.rt, s, 0, NULL), AM_E_QUEUE_FULL);   /* 3 + the delivery */
    CHECK_EQ(am_gc(f.rt), 0);                       /* a collection meanwhile changes nothing */
    CHECK_EQ(am_inject(f.rt, s, 0, NULL), AM_E_QUEUE_FULL);
    CHECK_EQ(am_step(f.rt), AM_OK);                 /* the delivery */
    CHECK_EQ(am_inject(f.rt, s, 0, NULL), AM_OK);   /* 4 queued: full */
    CHECK_EQ(am_inject(f.rt, s, 0, NULL), AM_E_QUEUE_FULL);
    CHECK_EQ(am_run(f.rt, 0), AM_OK);
    am_counters c; am_get_counters(f.rt, &c);
    CHECK_EQ(c.dispatches, 6);
    CHECK_EQ(f.nfaults, 1);
    am_rt_free(f.rt);
}

TEST(set_fault_handler_is_staged_and_checked)
{
    char *buf; size_t len;
    FILE *t = open_memstream(&buf, &len);
    am_config cfg; am_config_default(&cfg);
    cfg.trace = t;
    fixture f; setup_handler(&f, &cfg, AM_CONSOLE);
    am_ref in = spawn(&f, B_INSTALL), h = spawn(&f, B_HANDLER);
    am_word bad[2] = { 0x00010000u | 200u, 0 };     /* slot outside the table */
    CHECK_EQ(am_inject(f.rt, in, 2, bad), AM_OK);
    CHECK_EQ(am_run(f.rt, 0), AM_OK);
    CHECK_EQ(f.faults[0].cause, AM_FAULT_BAD_REF);
    CHECK_EQ(f.faults[0].op, AM_OP_SET_HANDLER);
    CHECK_EQ(f.faults[0].value, 0x00010000u | 200u);
    CHECK(strstr(f.out, "fault: BAD_REF op=SET_HANDLER value=000100c8 ") != NULL);  /* still the console */
    am_word fails[2] = { h, 1 };                     /* staged, then the txn fails */
    CHECK_EQ(am_inject(f.rt, in, 2, fails), AM_OK);
    CHECK_EQ(am_run(f.rt, 0), AM_OK);
    CHECK(strstr(f.out, "fault: FAIL op=ABORT value=00000007 code=00000007") != NULL);
    am_word good[2] = { h, 0 };
    CHECK_EQ(am_inject(f.rt, in, 2, good), AM_OK);   /* committed: h from now on */
    am_word again[2] = { h, 1 };
    CHECK_EQ(am_inject(f.rt, in, 2, again), AM_OK);
    size_t n0 = f.nout;
    CHECK_EQ(am_run(f.rt, 0), AM_OK);
    CHECK_EQ(f.nout, n0);                            /* h, not the console */
    am_word st[AM_MAX_STATE_WORDS];
    CHECK_EQ(am_peek(f.rt, h, NULL, st), AM_OK);
    CHECK_EQ(st[0], 1);
    CHECK_EQ(st[2], 7);
    am_word none[2] = { AM_NIL, 0 }, fail2[2] = { AM_NIL, 1 };
    CHECK_EQ(am_inject(f.rt, in, 2, none), AM_OK);   /* no handler: records only */
    CHECK_EQ(am_inject(f.rt, in, 2, fail2), AM_OK);
    CHECK_EQ(am_run(f.rt, 0), AM_OK);
    CHECK_EQ(am_peek(f.rt, h, NULL, st), AM_OK);
    CHECK_EQ(st[0], 1);
    CHECK_EQ(f.nout, n0);
    fclose(t);
    CHECK(strstr(buf, " | handler 00010002\n") != NULL);
    CHECK(strstr(buf, " | handler 00000000\n") != NULL);
    free(buf);
    am_rt_free(f.rt);
}

/* Issue #30: a SEND to a forged reference names the SEND and the reference,
 * in the record, the trace line, the console's line (through am_fault, as
 * the handler sees it) and am_fault_print_named's. */
TEST(fault_record_names_operation_and_value)
{
    char *buf; size_t len;
    FILE *t = open_memstream(&buf, &len);
    am_config cfg; am_config_default(&cfg);
    cfg.trace = t;
    fixture f; setup_handler(&f, &cfg, AM_CONSOLE);
    am_ref o = spawn(&f, B_OP);
    CHECK_EQ(op(&f, o, 6, 0x12345678u), AM_OK);
    CHECK_EQ(f.nfaults, 1);
    CHECK_EQ(f.faults[0].cause, AM_FAULT_BAD_REF);
    CHECK_EQ(f.faults[0].op, AM_OP_SEND);
    CHECK_EQ(f.faults[0].value, 0x12345678u);
    CHECK_EQ(f.faults[0].code, 0);
    CHECK_EQ(f.faults[0].target, o);                 /* the sender: the event's target */
    CHECK_STR(f.out, "fault: BAD_REF op=SEND value=12345678 code=00000000 target=00010001 beh=7 "
                     "msg=[00000006 12345678]\n");
    char *pl; size_t npl;
    FILE *pf = open_memstream(&pl, &npl);
    am_fault_print_named(pf, &f.faults[0], tab, NBEH);
    fclose(pf);
    CHECK_STR(pl, "fault seq=1 cause=BAD_REF op=SEND value=12345678 code=00000000 target=00010001 "
                  "beh=7(OP) msg=[00000006 12345678]\n");
    free(pl);
    /* DEAD_TARGET: the dispatch, no value; a verdict (WATCHDOG): the run */
    am_word none = 0;
    CHECK_EQ(am_inject(f.rt, o, 1, &none), AM_OK);
    CHECK_EQ(am_step_abort(f.rt, AM_FAULT_WATCHDOG, 0), AM_OK);
    CHECK_EQ(am_last_fault(f.rt)->op, AM_OP_RUN);
    CHECK_EQ(am_last_fault(f.rt)->value, 0);
    CHECK_EQ(am_run(f.rt, 0), AM_OK);
    CHECK(strstr(f.out, "fault: WATCHDOG op=RUN value=00000000 ") != NULL);
    am_rt_free(f.rt);
    fclose(t);
    CHECK(strstr(buf, "000001 A 00010001 b7 [00000006 12345678] | fault BAD_REF 00000000 op SEND 12345678\n")
          != NULL);
    CHECK(strstr(buf, "| fault WATCHDOG 00000000 op RUN 00000000\n") != NULL);
    free(buf);
}

TEST(dead_target_record_names_the_dispatch)
{
    /* a dead handler: the delivery aborts with DEAD_TARGET, at the dispatch */
    fixture f; setup_handler(&f, NULL, 0x00010009u);
    am_ref o = spawn(&f, B_OP);
    CHECK_EQ(op(&f, o, 99, 0), AM_OK);
    CHECK_EQ(f.nfaults, 2);
    CHECK_EQ(f.faults[0].op, AM_OP_ABORT);
    CHECK_EQ(f.faults[1].cause, AM_FAULT_DEAD_TARGET);
    CHECK_EQ(f.faults[1].op, AM_OP_DISPATCH);
    CHECK_EQ(f.faults[1].value, 0);
    CHECK_EQ(f.faults[1].target, 0x00010009u);
    CHECK_STR(am_fault_op_name(AM_OP_DISPATCH), "DISPATCH");
    CHECK_STR(am_fault_op_name(AM_OP_COUNT_), "UNKNOWN");
    am_rt_free(f.rt);
}

T_MAIN("host-rt")
