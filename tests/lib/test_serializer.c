/*
 * test_serializer.c — SERIALIZER (lib/serializer.c): one request at a time,
 * FIFO order, a fresh return proxy per request, replies authenticated by
 * the proxy (forged and duplicate replies never reach the customer), the
 * pending list's fetch races, the 6-word request bound, and faults.
 *
 * Most tests play the service by hand: the service is a recorder, and the
 * test answers each request by injecting the reply into its proxy.
 */
#include "lt.h"

#define OP 0x77u

static am_beh beh_of(am_rt *rt, am_ref r) { am_word st[8]; return lt_peek(rt, r, st); }

TEST(idle_request_passes_through_and_returns_idle)
{
    am_rt *rt = lt_new();
    am_ref cell = LT_SPAWN(rt, AMB_CELL, 31);
    am_ref ser = LT_SPAWN(rt, AMB_SERIALIZER, cell);
    am_word r[8]; uint32_t n;
    CHECK_EQ(LT_ASK(rt, ser, r, &n, AML_READ), AM_OK);
    CHECK_EQ(n, 1);
    CHECK_EQ(r[0], 31);
    CHECK_EQ(LT_ASK(rt, ser, r, &n, AML_CAS, 31, 32), AM_OK);
    CHECK_EQ(r[0], 31);
    CHECK_EQ(LT_ASK(rt, ser, r, &n, AML_READ), AM_OK);
    CHECK_EQ(r[0], 32);
    CHECK_EQ(lt_run(rt), AM_OK);
    am_word st[8];
    CHECK_EQ(lt_peek(rt, ser, st), AMB_SERIALIZER);
    CHECK_EQ(st[0], cell);
    CHECK_EQ(st[1], 0);
    CHECK_EQ(lt_nfaults, 0);
    lt_free(rt);
}

TEST(fifo_order_with_slow_service)
{
    am_rt *rt = lt_new();
    am_ref echo = LT_SPAWN0(rt, AMB_SLOW_ECHO);
    am_ref ser = LT_SPAWN(rt, AMB_SERIALIZER, echo);
    am_ref direct = LT_RECORDER_NEW(rt), serial = LT_RECORDER_NEW(rt);
    static const am_word hops[20] = { 5, 0, 3, 1, 0, 2, 7, 0, 1, 4, 0, 0, 3, 6, 1, 0, 2, 5, 0, 1 };
    for (am_word i = 0; i < 20; i++) {
        LT_SEND(rt, echo, direct, AML_ECHO, i, hops[i]);
        LT_SEND(rt, ser, serial, AML_ECHO, i, hops[i]);
    }
    CHECK_EQ(lt_run(rt), AM_OK);
    CHECK_EQ(lt_nfaults, 0);
    CHECK_EQ(lt_count_for(serial), 20);
    CHECK_EQ(lt_count_for(direct), 20);
    int direct_in_order = 1;
    for (int i = 0; i < 20; i++) {
        CHECK_EQ(lt_nth_for(serial, i)->len, 1);
        CHECK_EQ(lt_nth_for(serial, i)->w[0], (am_word)i);
        direct_in_order &= lt_nth_for(direct, i)->w[0] == (am_word)i;
    }
    CHECK(!direct_in_order);  /* without the serializer they overtake */
    CHECK_EQ(beh_of(rt, ser), AMB_SERIALIZER);
    lt_free(rt);
}

TEST(fresh_proxy_forged_and_duplicate_replies)
{
    am_rt *rt = lt_new();
    am_ref svc = LT_RECORDER_NEW(rt);    /* the service, played by the test */
    am_ref ser = LT_SPAWN(rt, AMB_SERIALIZER, svc);
    am_ref cust = LT_RECORDER_NEW(rt), forger = LT_RECORDER_NEW(rt);

    LT_SEND(rt, ser, cust, OP, 1);
    LT_SEND(rt, ser, cust, OP, 2);
    LT_SEND(rt, ser, cust, OP, 3);
    CHECK_EQ(lt_run(rt), AM_OK);
    CHECK_EQ(lt_count_for(svc), 1);           /* one request at a time */
    const lt_msg *m = lt_nth_for(svc, 0);
    CHECK_EQ(m->len, 3);
    CHECK_EQ(m->w[1], OP);
    CHECK_EQ(m->w[2], 1);
    am_ref p1 = m->w[0];
    CHECK(p1 != cust && p1 != ser);
    CHECK_EQ(beh_of(rt, p1), AMB_SER_PROXY);
    CHECK_EQ(beh_of(rt, ser), AMB_SERIALIZER_BUSY);

    /* a forged "reply": first word is not the current proxy */
    LT_SEND(rt, ser, forger, 555);
    CHECK_EQ(lt_run(rt), AM_OK);
    CHECK_EQ(lt_count_for(cust), 0);
    CHECK_EQ(lt_count_for(svc), 1);

    /* the real reply, through p1 */
    LT_SEND(rt, p1, 100, 101);
    CHECK_EQ(lt_run(rt), AM_OK);
    CHECK_EQ(lt_count_for(cust), 1);
    CHECK_EQ(lt_nth_for(cust, 0)->len, 2);
    CHECK_EQ(lt_nth_for(cust, 0)->w[0], 100);
    CHECK_EQ(lt_nth_for(cust, 0)->w[1], 101);
    CHECK_EQ(lt_count_for(svc), 2);
    am_ref p2 = lt_nth_for(svc, 1)->w[0];
    CHECK(p2 != p1);                           /* a fresh proxy */
    CHECK_EQ(lt_nth_for(svc, 1)->w[2], 2);
    CHECK_EQ(beh_of(rt, p1), AM_BEH_SINK);     /* one-shot */

    /* a second reply through the old proxy is swallowed */
    LT_SEND(rt, p1, 999);
    CHECK_EQ(lt_run(rt), AM_OK);
    CHECK_EQ(lt_count_for(cust), 1);
    CHECK_EQ(lt_count_for(svc), 2);

    LT_SEND(rt, p2, 200);
    CHECK_EQ(lt_run(rt), AM_OK);
    CHECK_EQ(lt_nth_for(cust, 1)->w[0], 200);
    am_ref p3 = lt_nth_for(svc, 2)->w[0];
    CHECK_EQ(lt_nth_for(svc, 2)->w[2], 3);
    LT_SEND(rt, p3, 300);
    CHECK_EQ(lt_run(rt), AM_OK);
    CHECK_EQ(lt_nth_for(cust, 2)->w[0], 300);

    /* the forgery was queued as a request from `forger`, op 555 */
    CHECK_EQ(lt_count_for(svc), 4);
    m = lt_nth_for(svc, 3);
    CHECK_EQ(m->len, 2);
    CHECK_EQ(m->w[1], 555);
    LT_SEND(rt, m->w[0], 7);
    CHECK_EQ(lt_run(rt), AM_OK);
    CHECK_EQ(lt_count_for(forger), 1);
    CHECK_EQ(lt_nth_for(forger, 0)->w[0], 7);
    CHECK_EQ(lt_count_for(cust), 3);
    CHECK_EQ(beh_of(rt, ser), AMB_SERIALIZER);
    CHECK_EQ(lt_nfaults, 0);
    lt_free(rt);
}

TEST(requests_arriving_while_fetching_keep_fifo)
{
    am_rt *rt = lt_new();
    am_ref svc = LT_RECORDER_NEW(rt);
    am_ref ser = LT_SPAWN(rt, AMB_SERIALIZER, svc);
    am_ref cust = LT_RECORDER_NEW(rt);
    LT_SEND(rt, ser, cust, OP, 1);
    LT_SEND(rt, ser, cust, OP, 2);       /* pending: head == tail */
    CHECK_EQ(lt_run(rt), AM_OK);
    LT_SEND(rt, lt_nth_for(svc, 0)->w[0], 10);
    /* step until the serializer is fetching the pending entry */
    int guard = 0;
    while (beh_of(rt, ser) != AMB_SERIALIZER_FETCH && guard++ < 10)
        CHECK_EQ(am_step(rt), AM_OK);
    CHECK_EQ(beh_of(rt, ser), AMB_SERIALIZER_FETCH);
    /* these arrive before the popped entry answers: the first starts a
     * fresh list (the popped entry was the tail), the second is linked */
    LT_SEND(rt, ser, cust, OP, 3);
    LT_SEND(rt, ser, cust, OP, 4);
    int saw_fresh = 0, saw_link_after_fresh = 0;
    while (beh_of(rt, ser) == AMB_SERIALIZER_FETCH && guard++ < 30) {
        CHECK_EQ(am_step(rt), AM_OK);
        am_word st[8];
        if (lt_peek(rt, ser, st) == AMB_SERIALIZER_FETCH && st[3] != AM_NIL) {
            saw_fresh = 1;                       /* fresh list started */
            if (st[2] != st[3]) saw_link_after_fresh = 1; /* tail moved on */
        }
    }
    CHECK(saw_fresh);
    CHECK(saw_link_after_fresh);
    CHECK_EQ(lt_run(rt), AM_OK);
    CHECK_EQ(beh_of(rt, ser), AMB_SERIALIZER_BUSY);
    for (int k = 1; k < 4; k++) {
        CHECK_EQ(lt_count_for(svc), k + 1);
        const lt_msg *m = lt_nth_for(svc, k);
        CHECK_EQ(m->w[2], (am_word)(k + 1));
        LT_SEND(rt, m->w[0], 10 * (k + 1));
        /* one more request arriving while busy, behind the others */
        if (k == 1) LT_SEND(rt, ser, cust, OP, 5);
        CHECK_EQ(lt_run(rt), AM_OK);
    }
    CHECK_EQ(lt_count_for(svc), 5);
    CHECK_EQ(lt_nth_for(svc, 4)->w[2], 5);
    LT_SEND(rt, lt_nth_for(svc, 4)->w[0], 50);
    CHECK_EQ(lt_run(rt), AM_OK);
    CHECK_EQ(lt_count_for(cust), 5);
    for (int k = 0; k < 5; k++)
        CHECK_EQ(lt_nth_for(cust, k)->w[0], (am_word)(10 * (k + 1)));
    CHECK_EQ(beh_of(rt, ser), AMB_SERIALIZER);
    CHECK_EQ(lt_nfaults, 0);
    lt_free(rt);
}

TEST(six_word_requests_and_seven_word_replies_pass)
{
    am_rt *rt = lt_new();
    am_ref svc = LT_RECORDER_NEW(rt);
    am_ref ser = LT_SPAWN(rt, AMB_SERIALIZER, svc);
    am_ref cust = LT_RECORDER_NEW(rt);
    LT_SEND(rt, ser, cust, OP, 1, 2, 3, 4);   /* idle path */
    LT_SEND(rt, ser, cust, OP, 5, 6, 7, 8);   /* pending path */
    CHECK_EQ(lt_run(rt), AM_OK);
    const lt_msg *m = lt_nth_for(svc, 0);
    CHECK_EQ(m->len, 6);
    CHECK_EQ(m->w[5], 4);
    LT_SEND(rt, m->w[0], 1, 2, 3, 4, 5, 6, 7);
    CHECK_EQ(lt_run(rt), AM_OK);
    CHECK_EQ(lt_nth_for(cust, 0)->len, 7);
    CHECK_EQ(lt_nth_for(cust, 0)->w[6], 7);
    m = lt_nth_for(svc, 1);
    CHECK_EQ(m->len, 6);
    CHECK_EQ(m->w[1], OP);
    CHECK_EQ(m->w[2], 5);
    CHECK_EQ(m->w[5], 8);
    /* an 8-word reply cannot be relayed: the proxy faults, keeps waiting */
    am_ref p2 = m->w[0];
    LT_CHECK_FAULT(rt, p2, AML_E_SER_LEN, 1, 2, 3, 4, 5, 6, 7, 8);
    LT_SEND(rt, p2, 42);
    CHECK_EQ(lt_run(rt), AM_OK);
    CHECK_EQ(lt_nth_for(cust, 1)->w[0], 42);
    lt_free(rt);
}

TEST(malformed_messages_fault)
{
    am_rt *rt = lt_new();
    am_ref svc = LT_RECORDER_NEW(rt);
    am_ref ser = LT_SPAWN(rt, AMB_SERIALIZER, svc);
    am_ref cust = LT_RECORDER_NEW(rt);
    /* idle: empty and 7-word requests */
    CHECK_EQ(am_inject(rt, ser, 0, NULL), AM_OK);
    CHECK_EQ(lt_run(rt), AM_OK);
    CHECK_EQ(lt_nfaults, 1);
    CHECK_EQ(lt_faults[0].code, AML_E_SER_LEN);
    CHECK_EQ(lt_faults[0].code, 0x0101);
    LT_CHECK_FAULT(rt, ser, AML_E_SER_LEN, cust, OP, 1, 2, 3, 4, 5);
    CHECK_EQ(beh_of(rt, ser), AMB_SERIALIZER);
    CHECK_EQ(lt_count_for(svc), 0);
    /* busy: the same */
    LT_SEND(rt, ser, cust, OP, 1);
    CHECK_EQ(lt_run(rt), AM_OK);
    LT_SEND(rt, ser, cust, OP, 2);
    CHECK_EQ(lt_run(rt), AM_OK);
    LT_CHECK_FAULT(rt, ser, AML_E_SER_LEN, cust, OP, 1, 2, 3, 4, 5);
    /* a pending entry with an unknown op / bad length */
    am_word st[8];
    CHECK_EQ(lt_peek(rt, ser, st), AMB_SERIALIZER_BUSY);
    am_ref head = st[3];
    CHECK_EQ(beh_of(rt, head), AMB_SER_PENDING);
    LT_CHECK_FAULT(rt, head, AML_E_SER_OP, cust, 0x999);
    LT_CHECK_FAULT(rt, head, AML_E_SER_LEN, cust, AML_SER_POP, 1);
    LT_CHECK_FAULT(rt, head, AML_E_SER_LEN, cust);
    /* the serializer still works: both requests complete in order */
    LT_SEND(rt, lt_nth_for(svc, 0)->w[0], 11);
    CHECK_EQ(lt_run(rt), AM_OK);
    LT_SEND(rt, lt_nth_for(svc, 1)->w[0], 22);
    CHECK_EQ(lt_run(rt), AM_OK);
    CHECK_EQ(lt_count_for(cust), 2);
    CHECK_EQ(lt_nth_for(cust, 0)->w[0], 11);
    CHECK_EQ(lt_nth_for(cust, 1)->w[0], 22);
    lt_free(rt);
}

TEST(slow_echo_protocol)
{
    am_rt *rt = lt_new();
    am_ref echo = LT_SPAWN0(rt, AMB_SLOW_ECHO);
    am_word r[8]; uint32_t n;
    CHECK_EQ(LT_ASK(rt, echo, r, &n, AML_ECHO, 77, 3), AM_OK);
    CHECK_EQ(n, 1);
    CHECK_EQ(r[0], 77);
    am_counters c;
    am_get_counters(rt, &c);
    CHECK_EQ(c.dispatches, 5);  /* request + 3 hops + the reply */
    LT_CHECK_FAULT(rt, echo, AML_E_SER_LEN, AM_NIL, AML_ECHO, 1);
    LT_CHECK_FAULT(rt, echo, AML_E_SER_OP, AM_NIL, AML_READ, 1, 0);
    lt_free(rt);
}

T_MAIN("lib-serializer")
