/*
 * test_cell.c — CELL (lib/cell.c): read, write, CAS (success and failure),
 * customer NIL, and the documented faults of malformed messages.
 */
#include "lt.h"

TEST(read_initial_value)
{
    am_rt *rt = lt_new();
    am_ref c = LT_SPAWN(rt, AMB_CELL, 42);
    am_word r[8]; uint32_t n;
    CHECK_EQ(LT_ASK(rt, c, r, &n, AML_READ), AM_OK);
    CHECK_EQ(n, 1);
    CHECK_EQ(r[0], 42);
    am_ref z = LT_SPAWN0(rt, AMB_CELL);  /* empty state reads 0 */
    CHECK_EQ(LT_ASK(rt, z, r, &n, AML_READ), AM_OK);
    CHECK_EQ(r[0], 0);
    CHECK_EQ(lt_nfaults, 0);
    lt_free(rt);
}

TEST(write_replies_self_and_updates)
{
    am_rt *rt = lt_new();
    am_ref c = LT_SPAWN(rt, AMB_CELL, 1);
    am_word r[8]; uint32_t n;
    CHECK_EQ(LT_ASK(rt, c, r, &n, AML_WRITE, 0xcafef00du), AM_OK);
    CHECK_EQ(n, 1);
    CHECK_EQ(r[0], c);  /* the sync signal is the cell itself */
    CHECK_EQ(LT_ASK(rt, c, r, &n, AML_READ), AM_OK);
    CHECK_EQ(r[0], 0xcafef00du);
    am_word st[8];
    CHECK_EQ(lt_peek(rt, c, st), AMB_CELL);
    CHECK_EQ(st[0], 0xcafef00du);
    lt_free(rt);
}

TEST(cas_success_and_failure)
{
    am_rt *rt = lt_new();
    am_ref c = LT_SPAWN(rt, AMB_CELL, 5);
    am_word r[8]; uint32_t n;
    CHECK_EQ(LT_ASK(rt, c, r, &n, AML_CAS, 5, 7), AM_OK);  /* swaps */
    CHECK_EQ(n, 1);
    CHECK_EQ(r[0], 5);
    CHECK_EQ(LT_ASK(rt, c, r, &n, AML_CAS, 5, 9), AM_OK);  /* does not */
    CHECK_EQ(r[0], 7);
    CHECK_EQ(LT_ASK(rt, c, r, &n, AML_READ), AM_OK);
    CHECK_EQ(r[0], 7);
    CHECK_EQ(LT_ASK(rt, c, r, &n, AML_CAS, 7, 7), AM_OK);  /* same value */
    CHECK_EQ(r[0], 7);
    CHECK_EQ(lt_nfaults, 0);
    lt_free(rt);
}

TEST(concurrent_cas_exactly_one_wins)
{
    am_rt *rt = lt_new();
    am_ref c = LT_SPAWN(rt, AMB_CELL, 0);
    am_ref rec = LT_RECORDER_NEW(rt);
    for (am_word k = 1; k <= 5; k++)
        LT_SEND(rt, c, rec, AML_CAS, 0, k);
    CHECK_EQ(lt_run(rt), AM_OK);
    CHECK_EQ(lt_count_for(rec), 5);
    int winners = 0;
    for (int k = 0; k < 5; k++)
        winners += lt_nth_for(rec, k)->w[0] == 0;
    CHECK_EQ(winners, 1);
    am_word st[8];
    lt_peek(rt, c, st);
    CHECK_EQ(st[0], 1);  /* FIFO: the first CAS won */
    lt_free(rt);
}

TEST(nil_customer_gets_no_reply)
{
    am_rt *rt = lt_new();
    am_ref c = LT_SPAWN(rt, AMB_CELL, 3);
    LT_SEND(rt, c, AM_NIL, AML_WRITE, 4);
    LT_SEND(rt, c, AM_NIL, AML_READ);
    CHECK_EQ(lt_run(rt), AM_OK);
    CHECK_EQ(lt_nfaults, 0);
    am_word st[8];
    lt_peek(rt, c, st);
    CHECK_EQ(st[0], 4);
    am_counters k;
    am_get_counters(rt, &k);
    CHECK_EQ(k.dispatches, 2);  /* no reply events */
    lt_free(rt);
}

TEST(malformed_messages_fault)
{
    am_rt *rt = lt_new();
    am_ref c = LT_SPAWN(rt, AMB_CELL, 9);
    am_ref rec = LT_RECORDER_NEW(rt);
    LT_CHECK_FAULT(rt, c, AML_E_CELL_LEN, rec);                 /* no op */
    LT_CHECK_FAULT(rt, c, AML_E_CELL_OP, rec, 0x999);           /* unknown op */
    LT_CHECK_FAULT(rt, c, AML_E_CELL_LEN, rec, AML_READ, 1);    /* too long */
    LT_CHECK_FAULT(rt, c, AML_E_CELL_LEN, rec, AML_WRITE);      /* too short */
    LT_CHECK_FAULT(rt, c, AML_E_CELL_LEN, rec, AML_CAS, 9);     /* too short */
    CHECK_EQ(lt_faults[0].code, 0x0201);  /* the documented numbering */
    CHECK_EQ(lt_faults[1].code, 0x0202);
    CHECK_EQ(lt_count_for(rec), 0);
    am_word st[8];
    lt_peek(rt, c, st);
    CHECK_EQ(st[0], 9);  /* aborted: state untouched */
    /* an empty message too */
    am_status s = am_inject(rt, c, 0, NULL);
    CHECK_EQ(s, AM_OK);
    CHECK_EQ(lt_run(rt), AM_OK);
    CHECK_EQ(lt_nfaults, 6);
    CHECK_EQ(lt_faults[5].code, AML_E_CELL_LEN);
    lt_free(rt);
}

T_MAIN("lib-cell")
