/*
 * test_queue.c — the queue built from actors (lib/queue.c): FIFO put/take,
 * take on empty, concurrent requests through the serializer, the service's
 * states (empty / non-empty / waiting-for-first / waiting-for-last), the
 * entries as actors, and faults.
 */
#include "lt.h"

static am_beh beh_of(am_rt *rt, am_ref r) { am_word st[8]; return lt_peek(rt, r, st); }

TEST(take_on_empty_queue)
{
    am_rt *rt = lt_new();
    am_ref q = LT_SPAWN0(rt, AMB_QUEUE);
    am_word r[8]; uint32_t n;
    CHECK_EQ(LT_ASK(rt, q, r, &n, AML_TAKE), AM_OK);
    CHECK_EQ(n, 2);
    CHECK_EQ(r[0], AML_EMPTY);
    CHECK_EQ(r[1], 0);
    CHECK_EQ(beh_of(rt, q), AMB_SERIALIZER);  /* built on first use */
    CHECK_EQ(lt_nfaults, 0);
    lt_free(rt);
}

TEST(put_take_fifo_one_at_a_time)
{
    am_rt *rt = lt_new();
    am_ref q = LT_SPAWN0(rt, AMB_QUEUE);
    am_word r[8]; uint32_t n;
    for (am_word i = 1; i <= 5; i++) {
        CHECK_EQ(LT_ASK(rt, q, r, &n, AML_PUT, 100 + i), AM_OK);
        CHECK_EQ(n, 2);
        CHECK_EQ(r[0], AML_OK);
        CHECK_EQ(r[1], 100 + i);
    }
    for (am_word i = 1; i <= 5; i++) {
        CHECK_EQ(LT_ASK(rt, q, r, &n, AML_TAKE), AM_OK);
        CHECK_EQ(r[0], AML_OK);
        CHECK_EQ(r[1], 100 + i);
    }
    CHECK_EQ(LT_ASK(rt, q, r, &n, AML_TAKE), AM_OK);
    CHECK_EQ(r[0], AML_EMPTY);
    /* and again after emptying */
    CHECK_EQ(LT_ASK(rt, q, r, &n, AML_PUT, 0), AM_OK);   /* 0 is an item */
    CHECK_EQ(LT_ASK(rt, q, r, &n, AML_TAKE), AM_OK);
    CHECK_EQ(r[0], AML_OK);
    CHECK_EQ(r[1], 0);
    CHECK_EQ(lt_nfaults, 0);
    lt_free(rt);
}

TEST(concurrent_requests_answered_in_order)
{
    am_rt *rt = lt_new();
    am_ref q = LT_SPAWN0(rt, AMB_QUEUE);
    am_ref rec = LT_RECORDER_NEW(rt);
    /* put 1..12 interleaved with takes, all in flight at once */
    int expect_take = 1, nput = 0;
    am_word want[40][2];
    int nreq = 0;
    for (int k = 0; k < 12; k++) {
        LT_SEND(rt, q, rec, AML_PUT, (am_word)(k + 1));
        want[nreq][0] = AML_OK; want[nreq][1] = (am_word)(k + 1); nreq++; nput++;
        if (k % 3 == 2) {  /* two takes after every third put */
            for (int t = 0; t < 2; t++) {
                LT_SEND(rt, q, rec, AML_TAKE);
                want[nreq][0] = AML_OK; want[nreq][1] = (am_word)expect_take++; nreq++;
            }
        }
    }
    for (int t = 0; t < 5; t++) {  /* drain: 4 items left, then empty */
        LT_SEND(rt, q, rec, AML_TAKE);
        if (expect_take <= nput) { want[nreq][0] = AML_OK; want[nreq][1] = (am_word)expect_take++; }
        else { want[nreq][0] = AML_EMPTY; want[nreq][1] = 0; }
        nreq++;
    }
    CHECK_EQ(lt_run(rt), AM_OK);
    CHECK_EQ(lt_nfaults, 0);
    CHECK_EQ(lt_count_for(rec), nreq);
    for (int i = 0; i < nreq; i++) {
        const lt_msg *m = lt_nth_for(rec, i);
        CHECK_EQ(m->len, 2);
        CHECK_EQ(m->w[0], want[i][0]);
        CHECK_EQ(m->w[1], want[i][1]);
    }
    lt_free(rt);
}

TEST(service_states_and_entries)
{
    am_rt *rt = lt_new();
    am_ref svc = LT_SPAWN0(rt, AMB_QUEUE_EMPTY);
    am_ref rec = LT_RECORDER_NEW(rt);
    am_word st[8], r[8]; uint32_t n;
    CHECK_EQ(LT_ASK(rt, svc, r, &n, AML_PUT, 1), AM_OK);
    CHECK_EQ(lt_peek(rt, svc, st), AMB_QUEUE_READY);
    am_ref e1 = st[0];
    CHECK_EQ(st[1], e1);                          /* first == last */
    CHECK_EQ(lt_peek(rt, e1, st), AMB_QUEUE_ENTRY);
    CHECK_EQ(st[0], 1);
    CHECK_EQ(st[1], AM_NIL);

    /* PUT: waiting-for-last, then READY with a new last entry */
    LT_SEND(rt, svc, rec, AML_PUT, 2);
    CHECK_EQ(am_step(rt), AM_OK);
    CHECK_EQ(lt_peek(rt, svc, st), AMB_QUEUE_WAIT_LAST);
    CHECK_EQ(st[0], rec);
    CHECK_EQ(lt_run(rt), AM_OK);
    CHECK_EQ(lt_peek(rt, svc, st), AMB_QUEUE_READY);
    CHECK_EQ(st[0], e1);
    am_ref e2 = st[1];
    CHECK(e2 != e1);
    CHECK_EQ(lt_peek(rt, e1, st), AMB_QUEUE_ENTRY);
    CHECK_EQ(st[1], e2);                          /* linked */

    /* TAKE: waiting-for-first, then READY at e2; e1 retired */
    LT_SEND(rt, svc, rec, AML_TAKE);
    CHECK_EQ(am_step(rt), AM_OK);
    CHECK_EQ(lt_peek(rt, svc, st), AMB_QUEUE_WAIT_FIRST);
    CHECK_EQ(lt_run(rt), AM_OK);
    CHECK_EQ(lt_peek(rt, svc, st), AMB_QUEUE_READY);
    CHECK_EQ(st[0], e2);
    CHECK_EQ(st[1], e2);
    CHECK_EQ(beh_of(rt, e1), AM_BEH_SINK);
    LT_SEND(rt, svc, rec, AML_TAKE);
    CHECK_EQ(lt_run(rt), AM_OK);
    CHECK_EQ(beh_of(rt, svc), AMB_QUEUE_EMPTY);
    CHECK_EQ(lt_count_for(rec), 3);
    CHECK_EQ(lt_nth_for(rec, 1)->w[1], 1);
    CHECK_EQ(lt_nth_for(rec, 2)->w[1], 2);
    CHECK_EQ(lt_nfaults, 0);
    lt_free(rt);
}

TEST(raw_service_rejects_overlapping_requests)
{
    am_rt *rt = lt_new();
    am_ref svc = LT_SPAWN0(rt, AMB_QUEUE_EMPTY);
    am_ref rec = LT_RECORDER_NEW(rt);
    am_word r[8]; uint32_t n;
    CHECK_EQ(LT_ASK(rt, svc, r, &n, AML_PUT, 1), AM_OK);
    LT_SEND(rt, svc, rec, AML_TAKE);     /* -> waiting-for-first */
    LT_SEND(rt, svc, rec, AML_PUT, 2);   /* arrives before the entry answers */
    CHECK_EQ(lt_run(rt), AM_OK);
    CHECK_EQ(lt_nfaults, 1);
    CHECK_EQ(lt_faults[0].cause, AM_FAULT_FAIL);
    CHECK_EQ(lt_faults[0].code, AML_E_QUEUE_BUSY);
    CHECK_EQ(lt_faults[0].msg[1], AML_PUT);   /* the request is kept */
    CHECK_EQ(lt_count_for(rec), 1);           /* the TAKE completed */
    CHECK_EQ(lt_nth_for(rec, 0)->w[1], 1);
    lt_free(rt);
}

TEST(malformed_messages_fault)
{
    am_rt *rt = lt_new();
    am_ref svc = LT_SPAWN0(rt, AMB_QUEUE_EMPTY);
    am_ref rec = LT_RECORDER_NEW(rt);
    LT_CHECK_FAULT(rt, svc, AML_E_QUEUE_LEN, rec);
    LT_CHECK_FAULT(rt, svc, AML_E_QUEUE_OP, rec, AML_READ);
    LT_CHECK_FAULT(rt, svc, AML_E_QUEUE_LEN, rec, AML_PUT);
    LT_CHECK_FAULT(rt, svc, AML_E_QUEUE_LEN, rec, AML_TAKE, 1);
    CHECK_EQ(lt_faults[0].code, 0x0401);
    am_ref e = LT_SPAWN(rt, AMB_QUEUE_ENTRY, 5, AM_NIL);
    LT_CHECK_FAULT(rt, e, AML_E_QUEUE_OP, rec, AML_TAKE);
    LT_CHECK_FAULT(rt, e, AML_E_QUEUE_LEN, rec, AML_Q_APPEND);
    /* through the serializer the service faults and the fault record has
     * the request; the serializer stays busy (no reply will come) and keeps
     * later requests pending — see docs/library.md */
    am_ref q = LT_SPAWN0(rt, AMB_QUEUE);
    int f0 = lt_nfaults;
    LT_SEND(rt, q, rec, 0x999);
    LT_SEND(rt, q, rec, AML_TAKE);
    CHECK_EQ(lt_run(rt), AM_OK);
    CHECK_EQ(lt_nfaults, f0 + 1);
    CHECK_EQ(lt_faults[f0].code, AML_E_QUEUE_OP);
    CHECK_EQ(lt_faults[f0].msg[1], 0x999);
    CHECK_EQ(beh_of(rt, q), AMB_SERIALIZER_BUSY);
    CHECK_EQ(lt_count_for(rec), 0);
    lt_free(rt);
}

T_MAIN("lib-queue")
