/*
 * test_beta.c — BETA one-shot continuations and JOIN (lib/beta.c): the
 * continuation fires exactly once with [saved..., reply...], then is a
 * sink; the 8-word bound faults and leaves it armed; JOIN sums N replies.
 */
#include "lt.h"

TEST(beta_fires_once_with_saved_context)
{
    am_rt *rt = lt_new();
    am_ref rec = LT_RECORDER_NEW(rt);
    am_ref k = LT_SPAWN(rt, AMB_BETA, rec, 2, 0x11, 0x22);
    LT_SEND(rt, k, 5, 6);
    LT_SEND(rt, k, 7);            /* second reply: ignored */
    CHECK_EQ(lt_run(rt), AM_OK);
    CHECK_EQ(lt_count_for(rec), 1);
    const lt_msg *m = lt_nth_for(rec, 0);
    CHECK_EQ(m->len, 4);
    CHECK_EQ(m->w[0], 0x11);
    CHECK_EQ(m->w[1], 0x22);
    CHECK_EQ(m->w[2], 5);
    CHECK_EQ(m->w[3], 6);
    am_word st[8];
    CHECK_EQ(lt_peek(rt, k, st), AM_BEH_SINK);
    CHECK_EQ(lt_nfaults, 0);
    lt_free(rt);
}

TEST(beta_as_customer_of_a_request)
{
    am_rt *rt = lt_new();
    am_ref rec = LT_RECORDER_NEW(rt);
    am_ref cell = LT_SPAWN(rt, AMB_CELL, 99);
    am_ref k = LT_SPAWN(rt, AMB_BETA, rec, 1, 0xc0de);
    LT_SEND(rt, cell, k, AML_READ);
    LT_SEND(rt, cell, k, AML_READ);
    CHECK_EQ(lt_run(rt), AM_OK);
    CHECK_EQ(lt_count_for(rec), 1);
    CHECK_EQ(lt_nth_for(rec, 0)->len, 2);
    CHECK_EQ(lt_nth_for(rec, 0)->w[0], 0xc0de);
    CHECK_EQ(lt_nth_for(rec, 0)->w[1], 99);
    /* no saved words: a plain one-shot relay, also of empty messages */
    am_ref k0 = LT_SPAWN(rt, AMB_BETA, rec, 0);
    CHECK_EQ(am_inject(rt, k0, 0, NULL), AM_OK);
    CHECK_EQ(lt_run(rt), AM_OK);
    CHECK_EQ(lt_count_for(rec), 2);
    CHECK_EQ(lt_nth_for(rec, 1)->len, 0);
    /* customer NIL: fires silently */
    am_ref kn = LT_SPAWN(rt, AMB_BETA, AM_NIL, 1, 5);
    LT_SEND(rt, kn, 1);
    CHECK_EQ(lt_run(rt), AM_OK);
    am_word st[8];
    CHECK_EQ(lt_peek(rt, kn, st), AM_BEH_SINK);
    CHECK_EQ(lt_nfaults, 0);
    lt_free(rt);
}

TEST(beta_word_bound)
{
    am_rt *rt = lt_new();
    am_ref rec = LT_RECORDER_NEW(rt);
    am_ref k = LT_SPAWN(rt, AMB_BETA, rec, 6, 1, 2, 3, 4, 5, 6);
    LT_CHECK_FAULT(rt, k, AML_E_BETA_LEN, 7, 8, 9);   /* 6 + 3 > 8 */
    CHECK_EQ(lt_faults[0].code, 0x0701);
    am_word st[8];
    CHECK_EQ(lt_peek(rt, k, st), AMB_BETA);           /* still armed */
    LT_SEND(rt, k, 7, 8);                             /* 6 + 2 = 8: fits */
    CHECK_EQ(lt_run(rt), AM_OK);
    CHECK_EQ(lt_count_for(rec), 1);
    CHECK_EQ(lt_nth_for(rec, 0)->len, 8);
    CHECK_EQ(lt_nth_for(rec, 0)->w[5], 6);
    CHECK_EQ(lt_nth_for(rec, 0)->w[7], 8);
    am_ref bad = LT_SPAWN(rt, AMB_BETA, rec, 7, 1, 2, 3, 4, 5, 6);
    LT_CHECK_FAULT(rt, bad, AML_E_BETA_LEN, 1);
    lt_free(rt);
}

TEST(join_sums_n_replies_then_sinks)
{
    am_rt *rt = lt_new();
    am_ref rec = LT_RECORDER_NEW(rt);
    am_ref j = LT_SPAWN(rt, AMB_JOIN, rec, 0x10, 3, 1, 0);
    LT_SEND(rt, j, AML_OK, 100, 9);
    LT_SEND(rt, j, AML_OK, 20);
    CHECK_EQ(lt_run(rt), AM_OK);
    CHECK_EQ(lt_count_for(rec), 0);     /* 2 of 3 */
    LT_SEND(rt, j, AML_OK, 3);
    LT_SEND(rt, j, AML_OK, 1000);       /* after firing: ignored */
    CHECK_EQ(lt_run(rt), AM_OK);
    CHECK_EQ(lt_count_for(rec), 1);
    CHECK_EQ(lt_nth_for(rec, 0)->len, 2);
    CHECK_EQ(lt_nth_for(rec, 0)->w[0], 0x10);
    CHECK_EQ(lt_nth_for(rec, 0)->w[1], 123);
    am_word st[8];
    CHECK_EQ(lt_peek(rt, j, st), AM_BEH_SINK);
    /* remaining 0 behaves as 1; a missing word counts as 0 */
    am_ref j0 = LT_SPAWN(rt, AMB_JOIN, rec, 0x20, 0, 5, 7);
    LT_SEND(rt, j0, 1);
    CHECK_EQ(lt_run(rt), AM_OK);
    CHECK_EQ(lt_nth_for(rec, 1)->w[0], 0x20);
    CHECK_EQ(lt_nth_for(rec, 1)->w[1], 7);
    CHECK_EQ(lt_nfaults, 0);
    lt_free(rt);
}

TEST(join_of_concurrent_reads)
{
    am_rt *rt = lt_new();
    am_ref rec = LT_RECORDER_NEW(rt);
    am_ref j = LT_SPAWN(rt, AMB_JOIN, rec, 1, 4, 0, 0);
    for (am_word v = 1; v <= 4; v++) {
        am_ref c = LT_SPAWN(rt, AMB_CELL, v * 1000);
        LT_SEND(rt, c, j, AML_READ);
    }
    CHECK_EQ(lt_run(rt), AM_OK);
    CHECK_EQ(lt_count_for(rec), 1);
    CHECK_EQ(lt_nth_for(rec, 0)->w[1], 10000);
    lt_free(rt);
}

T_MAIN("lib-beta")
