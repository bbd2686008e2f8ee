/*
 * test_lazy.c — LAZY (lib/lazy.c): the target is created on the first
 * message and only once, every message is forwarded in order (also the
 * ones queued before the first was dispatched), state words are passed
 * through, bad configurations fault.
 */
#include "lt.h"

TEST(creates_target_once_and_forwards_in_order)
{
    am_rt *rt = lt_new();
    am_ref lazy = LT_SPAWN(rt, AMB_LAZY, AMB_CELL, 1, 42);
    am_ref rec = LT_RECORDER_NEW(rt);
    am_word st[8];
    CHECK_EQ(lt_peek(rt, lazy, st), AMB_LAZY);
    uint32_t live0 = lt_live(rt);
    LT_SEND(rt, lazy, rec, AML_READ);
    LT_SEND(rt, lazy, rec, AML_WRITE, 7);
    LT_SEND(rt, lazy, rec, AML_READ);
    LT_SEND(rt, lazy, rec, AML_CAS, 7, 8);
    LT_SEND(rt, lazy, rec, AML_READ);
    CHECK_EQ(lt_run(rt), AM_OK);
    CHECK_EQ(lt_live(rt), live0 + 1);           /* exactly one target */
    CHECK_EQ(lt_peek(rt, lazy, st), AMB_LAZY_FWD);
    am_ref target = st[0];
    CHECK_EQ(lt_peek(rt, target, st), AMB_CELL);
    CHECK_EQ(st[0], 8);
    CHECK_EQ(lt_count_for(rec), 5);
    CHECK_EQ(lt_nth_for(rec, 0)->w[0], 42);
    CHECK_EQ(lt_nth_for(rec, 1)->w[0], target); /* the write's sync */
    CHECK_EQ(lt_nth_for(rec, 2)->w[0], 7);
    CHECK_EQ(lt_nth_for(rec, 3)->w[0], 7);
    CHECK_EQ(lt_nth_for(rec, 4)->w[0], 8);
    /* later messages: still the same target, still no creation */
    am_word r[8]; uint32_t n;
    LT_SEND(rt, lazy, rec, AML_WRITE, 9);
    CHECK_EQ(lt_run(rt), AM_OK);
    CHECK_EQ(lt_nth_for(rec, 5)->w[0], target);
    CHECK_EQ(lt_live(rt), live0 + 1);
    CHECK_EQ(LT_ASK(rt, lazy, r, &n, AML_READ), AM_OK);
    CHECK_EQ(r[0], 9);
    CHECK_EQ(lt_nfaults, 0);
    lt_free(rt);
}

TEST(nothing_created_before_first_message)
{
    am_rt *rt = lt_new();
    uint32_t live0 = lt_live(rt);
    am_ref lazy = LT_SPAWN(rt, AMB_LAZY, AMB_CELL, 1, 1);
    CHECK_EQ(lt_run(rt), AM_OK);
    CHECK_EQ(lt_live(rt), live0 + 1);           /* only the lazy actor */
    am_word st[8];
    CHECK_EQ(lt_peek(rt, lazy, st), AMB_LAZY);
    lt_free(rt);
}

TEST(state_words_passed_and_any_message_forwarded)
{
    am_rt *rt = lt_new();
    /* a LAZY JOIN: [cust, tag, remaining 2, index 1, sum 0, extra] */
    am_ref rec = LT_RECORDER_NEW(rt);
    am_ref lazy = LT_SPAWN(rt, AMB_LAZY, AMB_JOIN, 6, rec, 0x77, 2, 1, 0, 0xabc);
    LT_SEND(rt, lazy, 0, 5);
    CHECK_EQ(am_step(rt), AM_OK);               /* LAZY's transaction only */
    am_word st[8];
    CHECK_EQ(lt_peek(rt, lazy, st), AMB_LAZY_FWD);
    am_ref target = st[0];
    CHECK_EQ(lt_peek(rt, target, st), AMB_JOIN);
    CHECK_EQ(st[0], rec);
    CHECK_EQ(st[1], 0x77);
    CHECK_EQ(st[2], 2);
    CHECK_EQ(st[3], 1);
    CHECK_EQ(st[5], 0xabc);                     /* 6th word carried */
    CHECK_EQ(st[6], 0);
    CHECK_EQ(lt_run(rt), AM_OK);
    CHECK_EQ(lt_peek(rt, target, st), AMB_JOIN);
    CHECK_EQ(st[2], 1);
    CHECK_EQ(st[4], 5);
    LT_SEND(rt, lazy, 0, 6, 0, 0, 0, 0, 0, 0);  /* 8 words forwarded */
    CHECK_EQ(lt_run(rt), AM_OK);
    CHECK_EQ(lt_count_for(rec), 1);
    CHECK_EQ(lt_nth_for(rec, 0)->w[0], 0x77);
    CHECK_EQ(lt_nth_for(rec, 0)->w[1], 11);
    /* an empty message is forwarded too */
    am_ref lazy2 = LT_SPAWN(rt, AMB_LAZY, AMB_JOIN, 4, rec, 0x88, 1, 0);
    CHECK_EQ(am_inject(rt, lazy2, 0, NULL), AM_OK);
    CHECK_EQ(lt_run(rt), AM_OK);
    CHECK_EQ(lt_count_for(rec), 2);
    CHECK_EQ(lt_nth_for(rec, 1)->w[0], 0x88);
    CHECK_EQ(lt_nth_for(rec, 1)->w[1], 0);
    CHECK_EQ(lt_nfaults, 0);
    lt_free(rt);
}

TEST(bad_configuration_faults_and_stays_lazy)
{
    am_rt *rt = lt_new();
    am_ref rec = LT_RECORDER_NEW(rt);
    am_ref lazy = LT_SPAWN(rt, AMB_LAZY, AMB_CELL, 7, 1, 2, 3, 4, 5, 6);
    uint32_t live0 = lt_live(rt);
    LT_CHECK_FAULT(rt, lazy, AML_E_LAZY_LEN, rec, AML_READ);
    CHECK_EQ(lt_faults[0].code, 0x0501);
    am_word st[8];
    CHECK_EQ(lt_peek(rt, lazy, st), AMB_LAZY);
    CHECK_EQ(lt_live(rt), live0);
    am_ref bad = LT_SPAWN(rt, AMB_LAZY, 0xfff, 0);
    LT_SEND(rt, bad, rec, AML_READ);
    CHECK_EQ(lt_run(rt), AM_OK);
    CHECK_EQ(lt_nfaults, 2);
    CHECK_EQ(lt_faults[1].cause, AM_FAULT_BAD_BEHAVIOR);
    CHECK_EQ(lt_peek(rt, bad, st), AMB_LAZY);
    CHECK_EQ(lt_count_for(rec), 0);
    lt_free(rt);
}

T_MAIN("lib-lazy")
