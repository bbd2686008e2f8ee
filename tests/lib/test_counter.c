/*
 * test_counter.c — the counter service (lib/counter.c): the unsafe
 * read-modify-write loses updates under concurrency (1, 10, 100 -> 100),
 * the serialized one gives 111, the lazy COUNTER_INIT builds itself once and
 * keeps FIFO order, continuations are one-shot, malformed messages fault.
 */
#include "lt.h"

/* Three concurrent ADDs 1, 10, 100 to `counter`; final count via ASK. */
static am_word add_three(am_rt *rt, am_ref counter, am_ref rec)
{
    LT_SEND(rt, counter, rec, AML_ADD, 1);
    LT_SEND(rt, counter, rec, AML_ADD, 10);
    LT_SEND(rt, counter, rec, AML_ADD, 100);
    if (lt_run(rt) != AM_OK) return 0xffffffffu;
    am_word r[8]; uint32_t n;
    if (LT_ASK(rt, counter, r, &n, AML_READ) != AM_OK || n != 1) return 0xfffffffeu;
    return r[0];
}

TEST(unsafe_counter_loses_updates)
{
    am_rt *rt = lt_new();
    am_ref cell = LT_SPAWN(rt, AMB_CELL, 0);
    am_ref counter = LT_SPAWN(rt, AMB_COUNTER, cell);
    am_ref rec = LT_RECORDER_NEW(rt);
    am_word final = add_three(rt, counter, rec);
    CHECK(final < 111);   /* the lost update */
    CHECK_EQ(final, 100); /* exactly, on the FIFO machine: all reads first */
    CHECK_EQ(lt_count_for(rec), 3);
    CHECK_EQ(lt_nth_for(rec, 0)->w[0], 1);
    CHECK_EQ(lt_nth_for(rec, 1)->w[0], 10);
    CHECK_EQ(lt_nth_for(rec, 2)->w[0], 100);
    CHECK_EQ(lt_nfaults, 0);
    lt_free(rt);
}

TEST(unsafe_counter_is_fine_one_at_a_time)
{
    am_rt *rt = lt_new();
    am_ref cell = LT_SPAWN(rt, AMB_CELL, 0);
    am_ref counter = LT_SPAWN(rt, AMB_COUNTER, cell);
    am_word r[8]; uint32_t n;
    CHECK_EQ(LT_ASK(rt, counter, r, &n, AML_ADD, 5), AM_OK);
    CHECK_EQ(r[0], 5);
    CHECK_EQ(LT_ASK(rt, counter, r, &n, AML_ADD, 6), AM_OK);
    CHECK_EQ(r[0], 11);
    CHECK_EQ(LT_ASK(rt, counter, r, &n, AML_ADD, 0xffffffffu), AM_OK); /* wraps */
    CHECK_EQ(r[0], 10);
    CHECK_EQ(LT_ASK(rt, cell, r, &n, AML_READ), AM_OK);
    CHECK_EQ(r[0], 10);
    lt_free(rt);
}

TEST(serialized_counter_gives_111)
{
    am_rt *rt = lt_new();
    am_ref cell = LT_SPAWN(rt, AMB_CELL, 0);
    am_ref svc = LT_SPAWN(rt, AMB_COUNTER, cell);
    am_ref counter = LT_SPAWN(rt, AMB_SERIALIZER, svc);
    am_ref rec = LT_RECORDER_NEW(rt);
    CHECK_EQ(add_three(rt, counter, rec), 111);
    CHECK_EQ(lt_count_for(rec), 3);
    CHECK_EQ(lt_nth_for(rec, 0)->w[0], 1);
    CHECK_EQ(lt_nth_for(rec, 1)->w[0], 11);
    CHECK_EQ(lt_nth_for(rec, 2)->w[0], 111);
    CHECK_EQ(lt_nfaults, 0);
    lt_free(rt);
}

TEST(serialized_counter_many_concurrent_adds)
{
    am_rt *rt = lt_new();
    am_ref counter = LT_SPAWN(rt, AMB_COUNTER_INIT, 1000);
    am_ref rec = LT_RECORDER_NEW(rt);
    am_word expect = 1000;
    for (am_word k = 1; k <= 12; k++)
        LT_SEND(rt, counter, rec, AML_ADD, k);
    CHECK_EQ(lt_run(rt), AM_OK);
    CHECK_EQ(lt_count_for(rec), 12);
    for (int k = 0; k < 12; k++) {
        expect += (am_word)(k + 1);
        CHECK_EQ(lt_nth_for(rec, k)->w[0], expect);  /* FIFO, no loss */
    }
    am_word r[8]; uint32_t n;
    CHECK_EQ(LT_ASK(rt, counter, r, &n, AML_READ), AM_OK);
    CHECK_EQ(r[0], 1078);
    CHECK_EQ(lt_nfaults, 0);
    lt_free(rt);
}

TEST(counter_init_is_lazy_and_builds_once)
{
    am_rt *rt = lt_new();
    am_ref counter = LT_SPAWN(rt, AMB_COUNTER_INIT, 7);
    am_word st[8];
    CHECK_EQ(lt_peek(rt, counter, st), AMB_COUNTER_INIT);
    am_word r[8]; uint32_t n;
    CHECK_EQ(LT_ASK(rt, counter, r, &n, AML_ADD, 1), AM_OK);
    CHECK_EQ(r[0], 8);
    CHECK_EQ(lt_peek(rt, counter, st), AMB_SERIALIZER);
    am_ref svc = st[0];
    CHECK_EQ(lt_peek(rt, svc, st), AMB_COUNTER);
    am_ref cell = st[0];
    CHECK_EQ(lt_peek(rt, cell, st), AMB_CELL);
    CHECK_EQ(st[0], 8);
    /* later requests reuse the same service and cell */
    CHECK_EQ(LT_ASK(rt, counter, r, &n, AML_ADD, 2), AM_OK);
    CHECK_EQ(r[0], 10);
    CHECK_EQ(lt_peek(rt, counter, st), AMB_SERIALIZER);
    CHECK_EQ(st[0], svc);
    CHECK_EQ(lt_peek(rt, cell, st), AMB_CELL);
    CHECK_EQ(st[0], 10);
    CHECK_EQ(lt_nfaults, 0);
    lt_free(rt);
}

TEST(continuations_are_one_shot)
{
    am_rt *rt = lt_new();
    am_ref cell = LT_SPAWN(rt, AMB_CELL, 0);
    am_ref rec = LT_RECORDER_NEW(rt);
    am_ref k = LT_SPAWN(rt, AMB_COUNTER_K_COUNT, rec, cell, 4);
    LT_SEND(rt, k, 3);                      /* as if the cell said 3 */
    CHECK_EQ(lt_run(rt), AM_OK);
    CHECK_EQ(lt_count_for(rec), 1);
    CHECK_EQ(lt_nth_for(rec, 0)->w[0], 7);
    am_word st[8];
    CHECK_EQ(lt_peek(rt, k, st), AM_BEH_SINK);
    LT_SEND(rt, k, cell);                   /* a late duplicate sync */
    CHECK_EQ(lt_run(rt), AM_OK);
    CHECK_EQ(lt_count_for(rec), 1);
    CHECK_EQ(lt_peek(rt, cell, st), AMB_CELL);
    CHECK_EQ(st[0], 7);
    lt_free(rt);
}

TEST(malformed_messages_fault)
{
    am_rt *rt = lt_new();
    am_ref cell = LT_SPAWN(rt, AMB_CELL, 0);
    am_ref counter = LT_SPAWN(rt, AMB_COUNTER, cell);
    am_ref rec = LT_RECORDER_NEW(rt);
    LT_CHECK_FAULT(rt, counter, AML_E_COUNTER_LEN, rec);
    LT_CHECK_FAULT(rt, counter, AML_E_COUNTER_OP, rec, AML_WRITE, 5);
    LT_CHECK_FAULT(rt, counter, AML_E_COUNTER_LEN, rec, AML_ADD);
    LT_CHECK_FAULT(rt, counter, AML_E_COUNTER_LEN, rec, AML_READ, 0);
    CHECK_EQ(lt_faults[0].code, 0x0301);
    am_ref k = LT_SPAWN(rt, AMB_COUNTER_K_COUNT, rec, cell, 4);
    LT_CHECK_FAULT(rt, k, AML_E_COUNTER_UNEXPECTED, 1, 2);
    am_ref ks = LT_SPAWN(rt, AMB_COUNTER_K_SYNC, rec, cell, 9);
    LT_CHECK_FAULT(rt, ks, AML_E_COUNTER_UNEXPECTED, rec);   /* not the cell */
    LT_SEND(rt, ks, cell);
    CHECK_EQ(lt_run(rt), AM_OK);
    CHECK_EQ(lt_count_for(rec), 1);
    CHECK_EQ(lt_nth_for(rec, 0)->w[0], 9);
    am_word st[8];
    CHECK_EQ(lt_peek(rt, cell, st), AMB_CELL);
    CHECK_EQ(st[0], 0);
    lt_free(rt);
}

T_MAIN("lib-counter")
