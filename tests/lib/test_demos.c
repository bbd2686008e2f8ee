/*
 * test_demos.c — every demo of demos/demos.def, run the way am-run runs it
 * (boot actor with empty state, one empty message, run to quiescence):
 * exact console output, no faults, well within the hardware bounds, and
 * deterministic (two runs: same output, same counters).
 */
#include "lt.h"

typedef struct demo { const char *name; am_beh boot; const char *what; } demo;
static const demo demos[] = {
#define AM_DEMO(name, boot, what) { name, boot, what },
#include "programs.def"   /* demos/ (LT_PROGRAMS) */
#undef AM_DEMO
};
#define NDEMOS ((int)(sizeof demos / sizeof demos[0]))

static const struct { const char *name, *out; } expected[] = {
    { "fault",
      "fault: sending 0 (fails), 1\n"
      "fault: FAIL op=ABORT value=0000f00d code=0000f00d target=00010002 beh=%u msg=[00000000]\n"  /* printf format */
      "fault: message 1 committed\n" },
    { "supervisor",
      "supervisor: 10/2 -> 5\n"
      "supervisor: 7/0 -> failed: FAIL 00000d10\n"
      "supervisor: 9/3 -> 3\n"
      "supervisor: faults handled: 3\n" },
    { "cell",
      "cell: write 5 -> ok\n"
      "cell: read -> 5\n"
      "cell: cas 5->7 -> old 5 (swapped)\n"
      "cell: cas 5->9 -> old 7 (kept)\n"
      "cell: read -> 7\n" },
    { "counter-unsafe",
      "counter-unsafe: add 1 -> 1\n"
      "counter-unsafe: add 10 -> 10\n"
      "counter-unsafe: add 100 -> 100\n"
      "counter-unsafe: final 100, lost update (expected 111)\n" },
    { "counter-serialized",
      "counter-serialized: add 1 -> 1\n"
      "counter-serialized: add 10 -> 11\n"
      "counter-serialized: add 100 -> 111\n"
      "counter-serialized: final 111, no lost update\n" },
    { "serializer",
      "serializer: direct -> 3\n"
      "serializer: direct -> 2\n"
      "serializer: direct -> 1\n"
      "serializer: serialized -> 1\n"
      "serializer: serialized -> 2\n"
      "serializer: serialized -> 3\n"
      "serializer: answers in request order\n" },
    { "queue",
      "queue: put 10 -> ok\n"
      "queue: put 20 -> ok\n"
      "queue: take -> 10\n"
      "queue: put 30 -> ok\n"
      "queue: take -> 20\n"
      "queue: take -> 30\n"
      "queue: take -> empty\n" },
    { "lazy",
      "lazy: read -> 42\n"
      "lazy: write 7 -> ok\n"
      "lazy: read -> 7\n"
      "lazy: write 8 -> ok\n"
      "lazy: one target served all\n"
      "lazy: read -> 8\n" },
    { "bank",
      "bank: before A = 100\n"
      "bank: before B = 50\n"
      "bank: before C = 0\n"
      "bank: total before = 150\n"
      "bank: transfer C->A 500: insufficient funds\n"
      "bank: transfer A->B 30: ok\n"
      "bank: transfer B->C 40: ok\n"
      "bank: after A = 70\n"
      "bank: after B = 40\n"
      "bank: after C = 40\n"
      "bank: total after = 150 (conserved)\n"
      "bank: log A: deposit 100, balance 100\n"
      "bank: log A: withdraw 30, balance 70\n"
      "bank: log B: deposit 50, balance 50\n"
      "bank: log B: withdraw 40, balance 10\n"
      "bank: log B: deposit 30, balance 40\n"
      "bank: log C: refused withdraw 500, balance 0\n"
      "bank: log C: deposit 40, balance 40\n" },
    { "beta",
      "beta: continuation saved 100, got 5\n"
      "beta: join of 2 reads, sum 12\n" },
};
#define NEXPECTED ((int)(sizeof expected / sizeof expected[0]))

static char run_out[LT_OUT_SIZE];

/* Run one demo like am-run; output in run_out, counters in *c. */
static am_status run_demo(am_beh boot, am_counters *c)
{
    am_config cfg;
    am_config_default(&cfg);               /* as am-run: the console handles faults */
    am_rt *rt = lt_new_cfg(&cfg);
    am_ref b = AM_NIL;
    am_status s = am_spawn(rt, boot, 0, NULL, &b);
    if (s == AM_OK) s = am_inject(rt, b, 0, NULL);
    if (s == AM_OK) s = am_run(rt, 1000000);
    am_get_counters(rt, c);
    memcpy(run_out, lt_out, lt_nout + 1);
    lt_free(rt);
    return s;
}

static const demo *find_demo(const char *name)
{
    for (int i = 0; i < NDEMOS; i++)
        if (strcmp(demos[i].name, name) == 0) return &demos[i];
    return NULL;
}

TEST(every_demo_has_an_expected_output)
{
    CHECK_EQ(NDEMOS, NEXPECTED);
    for (int i = 0; i < NEXPECTED; i++)
        CHECK(find_demo(expected[i].name) != NULL);
    static const char *required[] = { "serializer", "counter-unsafe", "counter-serialized",
                                      "queue", "lazy", "bank", "cell", "beta" };
    for (int i = 0; i < 8; i++)
        CHECK(find_demo(required[i]) != NULL);
}

#define DEMO_TEST(ident, dname)                                             \
    TEST(demo_##ident)                                                      \
    {                                                                       \
        const demo *d = find_demo(dname);                                   \
        CHECK(d != NULL);                                                   \
        const char *want = NULL;                                            \
        for (int i = 0; i < NEXPECTED; i++)                                 \
            if (strcmp(expected[i].name, dname) == 0) want = expected[i].out; \
        CHECK(want != NULL);                                                \
        am_counters c;                                                      \
        CHECK_EQ(run_demo(d->boot, &c), AM_OK);                             \
        CHECK_STR(run_out, want);                                           \
        CHECK_EQ(lt_nfaults, 0);                                            \
        CHECK_EQ(c.faults, 0);                                              \
        CHECK_EQ(c.aborts, 0);                                              \
        CHECK_EQ(c.queue_len, 0);                                           \
        CHECK(c.queue_high_water <= 32);   /* half the hardware queue */    \
        CHECK(c.live <= 64);               /* half the hardware table */    \
    }

DEMO_TEST(cell, "cell")
DEMO_TEST(counter_unsafe, "counter-unsafe")
DEMO_TEST(counter_serialized, "counter-serialized")
DEMO_TEST(serializer, "serializer")
DEMO_TEST(queue, "queue")
DEMO_TEST(lazy, "lazy")
DEMO_TEST(bank, "bank")
DEMO_TEST(beta, "beta")

TEST(demo_fault_leaves_only_the_fault_record)
{
    const demo *d = find_demo("fault");
    CHECK(d != NULL);
    am_counters c;
    CHECK_EQ(run_demo(d->boot, &c), AM_OK);
    char want[256];
    snprintf(want, sizeof want, expected[0].out, (unsigned)AMB_DEMO_FRAGILE);
    CHECK_STR(run_out, want);                      /* no "NEVER PRINTED"; the console's fault line */
    CHECK_EQ(c.aborts, 1);
    CHECK_EQ(c.commits, 5);                        /* incl. the console's fault delivery */
    CHECK_EQ(c.live, 3);                           /* console, boot, fragile: no cell */
    CHECK_EQ(c.dispatches, c.commits + c.aborts);
    CHECK_EQ(lt_nfaults, 1);
    CHECK_EQ(lt_faults[0].cause, AM_FAULT_FAIL);
    CHECK_EQ(lt_faults[0].code, 0xF00D);
    CHECK_EQ(lt_faults[0].beh, AMB_DEMO_FRAGILE);
    CHECK_EQ(lt_faults[0].len, 1);
    CHECK_EQ(lt_faults[0].msg[0], 0);
}

TEST(demo_supervisor_answers_for_the_failing_service)
{
    const demo *d = find_demo("supervisor");
    CHECK(d != NULL);
    am_counters c;
    CHECK_EQ(run_demo(d->boot, &c), AM_OK);
    CHECK_STR(run_out, expected[1].out);           /* no console fault lines: replaced */
    CHECK_EQ(c.aborts, 3);                         /* the first try and two retries */
    CHECK_EQ(lt_nfaults, 3);
    for (int i = 0; i < 3; i++) {
        CHECK_EQ(lt_faults[i].cause, AM_FAULT_FAIL);
        CHECK_EQ(lt_faults[i].code, AML_E_DIV_ZERO);
        CHECK_EQ(lt_faults[i].msg[3], 0);          /* the 7/0 request, the whole event */
    }
    CHECK_EQ(c.dispatches, c.commits + c.aborts);
    CHECK_EQ(c.queue_len, 0);
}

/* [ref]: installs ref as the fault handler (a test behavior after lt.h's table) */
static void seth_beh(am_ctx *ctx) { am_set_fault_handler(ctx, am_msg(ctx, 0)); }

TEST(supervisor_answers_interleaved_failing_requests)
{
    /* two requests that always fail, from two customers, delivered in turn
     * (A, B, A', B', ...): each is answered [FAILED, FAIL, code] and the
     * faults end -- a fault of the other request does not restart the count
     * while a retry is in flight (lib/supervisor.c) */
    am_config cfg;
    am_config_default(&cfg);
    cfg.fault_handler = AM_NIL;
    am_rt *rt = lt_new_cfg(&cfg);
    lt_free(rt);
    am_beh seth = LT_RECORDER + 1;
    lt_tab[seth].name = "T_SETH";
    lt_tab[seth].fn = seth_beh;
    cfg.nbehaviors = seth + 1;
    CHECK_EQ(am_rt_new(&cfg, &rt), AM_OK);
    lt_cur = rt;
    am_ref sup = LT_SPAWN(rt, AMB_SUPERVISOR, 2, 2);
    am_ref set = LT_SPAWN0(rt, seth);
    LT_SEND(rt, set, sup);
    CHECK_EQ(lt_run(rt), AM_OK);
    am_ref div = LT_SPAWN0(rt, AMB_SUPERVISED_DIV);
    am_ref a = LT_RECORDER_NEW(rt), b = LT_RECORDER_NEW(rt);
    LT_SEND(rt, div, a, AML_DIV, 7, 0);
    LT_SEND(rt, div, b, AML_DIV, 8, 0);
    CHECK_EQ(lt_run(rt), AM_OK);                   /* the queue drains */
    am_ref who[2] = { a, b };
    for (int i = 0; i < 2; i++) {
        CHECK_EQ(lt_count_for(who[i]), 1);
        const lt_msg *m = lt_nth_for(who[i], 0);
        CHECK_EQ(m->len, 3);
        CHECK_EQ(m->w[0], AML_FAILED);
        CHECK_EQ(m->w[1], AM_FAULT_FAIL);
        CHECK_EQ(m->w[2], AML_E_DIV_ZERO);
    }
    CHECK(lt_nfaults <= 8);
    am_word st[8];
    CHECK_EQ(lt_peek(rt, sup, st), AMB_SUPERVISOR);
    CHECK_EQ(st[6], 0);                            /* no retry in flight */
    lt_free(rt);
}

TEST(supervisor_read_is_exactly_two_words)
{
    am_rt *rt = lt_new();
    am_ref sup = LT_SPAWN(rt, AMB_SUPERVISOR, 2, 2);
    am_ref rec = LT_RECORDER_NEW(rt);
    LT_CHECK_FAULT(rt, sup, AML_E_SER_LEN, rec, AML_READ, 1);
    LT_CHECK_FAULT(rt, sup, AML_E_SER_OP, rec, 0x99u);
    LT_SEND(rt, sup, rec, AML_READ);
    CHECK_EQ(lt_run(rt), AM_OK);
    CHECK_EQ(lt_count_for(rec), 1);
    CHECK_EQ(lt_nth_for(rec, 0)->w[0], 0);         /* no fault was delivered to it */
    lt_free(rt);
}

TEST(every_demo_is_deterministic)
{
    static char first[LT_OUT_SIZE];
    for (int i = 0; i < NDEMOS; i++) {
        am_counters c1, c2;
        CHECK_EQ(run_demo(demos[i].boot, &c1), AM_OK);
        memcpy(first, run_out, sizeof first);
        CHECK_EQ(run_demo(demos[i].boot, &c2), AM_OK);
        CHECK_STR(run_out, first);
        CHECK(strlen(first) > 0);
        CHECK_EQ(c1.dispatches, c2.dispatches);
        CHECK_EQ(c1.commits, c2.commits);
        CHECK_EQ(c1.seq, c2.seq);
        CHECK_EQ(c1.live, c2.live);
        CHECK_EQ(c1.queue_high_water, c2.queue_high_water);
    }
}

TEST(demo_boot_rejects_a_stray_message)
{
    /* a finished script faults on anything else (documented code) */
    am_rt *rt = lt_new();
    am_ref b = LT_SPAWN0(rt, AMB_DEMO_CELL);
    CHECK_EQ(am_inject(rt, b, 0, NULL), AM_OK);
    CHECK_EQ(lt_run(rt), AM_OK);
    size_t n0 = lt_nout;
    LT_CHECK_FAULT(rt, b, AML_E_DEMO_UNEXPECTED, 1);
    CHECK_EQ(lt_nout, n0);
    CHECK_EQ(lt_faults[0].code, 0x0803);
    lt_free(rt);
}

T_MAIN("lib-demos")
