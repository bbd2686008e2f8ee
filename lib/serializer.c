/*
 * serializer.c — the service serializer of seeds 000/002, with a FIFO
 * pending queue built from actors, and SLOW_ECHO, a multi-step service to
 * exercise it.
 *
 * The serializer makes a group of actors (a "service") behave like one
 * actor: the service sees one request at a time, in arrival order. Each
 * request goes to the service with a FRESH return proxy as customer; the
 * proxy's identity is the authentication token of the reply, because only
 * the serializer knows it. While the service is busy, new requests are kept
 * in SER_PENDING actors forming a singly linked FIFO (head -> ... -> tail),
 * since an actor's state (8 words) cannot hold an unbounded queue.
 *
 * States (formats in lib/am_lib.h):
 *   SERIALIZER       [svc]                          idle
 *   SERIALIZER_BUSY  [svc, cust, proxy, head, tail] a request in service
 *   SERIALIZER_FETCH [svc, popping, tail, fresh]    fetching the next one
 *
 * Ordering argument for the pending list. Only the serializer sends to
 * pending entries, and messages from one actor to another arrive in the
 * order they were sent. So when the serializer sends POP to the head, every
 * LINK it sent to that entry before has already been applied: the entry's
 * answer carries the right `next` unless the head was also the tail at POP
 * time, in which case it carries NIL and the serializer, which saw that
 * (tail == popping), has collected later requests in a fresh list instead
 * of LINKing them to the popped entry.
 */
#include "am_lib.h"

/* Send the request at message words from..from+n (its word 0 the
 * customer) to svc through a new proxy -- the message forwarded, its
 * customer replaced, nothing copied -- and become busy with pending list
 * head..tail. */
static void ser_start(am_ctx *ctx, am_ref svc, uint32_t from, uint32_t n,
                      am_ref head, am_ref tail)
{
    am_ref proxy = AM_CREATE(ctx, AMB_SER_PROXY, am_self(ctx));
    AM_BECOME(ctx, AMB_SERIALIZER_BUSY, svc, am_msg(ctx, from), proxy, head, tail);
    am_send_word(ctx, 0, proxy);
    am_forward(ctx, svc, n, (int32_t)from);
}

/* The current message as a request: its length, checked. */
static uint32_t ser_request_len(am_ctx *ctx)
{
    uint32_t n = am_msg_len(ctx);
    if (n < 1 || n > AML_SER_MAX_REQ)
        am_fail(ctx, AML_E_SER_LEN);
    return n;
}

/* Store the current message in a new pending entry. */
static am_ref ser_new_pending(am_ctx *ctx)
{
    am_word st[AM_MAX_STATE_WORDS];  /* only words 0..n+1 are used */
    uint32_t n = ser_request_len(ctx);
    aml_msg_copy(ctx, 0, n, st + 2);
    st[0] = AM_NIL;
    st[1] = n;
    return am_create(ctx, AMB_SER_PENDING, 2 + n, st);
}

void aml_serializer_request(am_ctx *ctx, am_ref svc)
{
    ser_start(ctx, svc, 0, ser_request_len(ctx), AM_NIL, AM_NIL);
}

void aml_serializer(am_ctx *ctx)
{
    aml_serializer_request(ctx, am_state(ctx, 0));
}

void aml_serializer_busy(am_ctx *ctx)
{
    am_ref svc = am_state(ctx, 0), cust = am_state(ctx, 1);
    am_ref proxy = am_state(ctx, 2);
    am_ref head = am_state(ctx, 3), tail = am_state(ctx, 4);
    uint32_t len = am_msg_len(ctx);

    if (len >= 1 && am_msg(ctx, 0) == proxy) {
        /* the reply, authenticated by the proxy's identity: passed on
         * without the proxy */
        if (cust != AM_NIL)
            am_forward(ctx, cust, len - 1, 1);
        if (head == AM_NIL) {
            AM_BECOME(ctx, AMB_SERIALIZER, svc);
        } else {
            AM_SEND(ctx, head, am_self(ctx), AML_SER_POP);
            AM_BECOME(ctx, AMB_SERIALIZER_FETCH, svc, head, tail, AM_NIL);
        }
        return;
    }
    /* a new request while busy: append it to the pending FIFO */
    am_ref e = ser_new_pending(ctx);
    if (tail == AM_NIL) {
        am_set_state(ctx, 3, e);   /* head */
    } else {
        AM_SEND(ctx, tail, AM_NIL, AML_SER_LINK, e);
    }
    am_set_state(ctx, 4, e);       /* tail */
}

void aml_serializer_fetch(am_ctx *ctx)
{
    am_ref svc = am_state(ctx, 0), popping = am_state(ctx, 1);
    am_ref tail = am_state(ctx, 2), fresh = am_state(ctx, 3);
    uint32_t len = am_msg_len(ctx);

    if (len >= 1 && am_msg(ctx, 0) == popping) {
        /* [popping, next, cust, w1..]: the oldest pending request */
        if (len < 3)
            am_fail(ctx, AML_E_SER_UNEXPECTED);
        am_ref next = am_msg(ctx, 1);
        am_ref nh = next != AM_NIL ? next : fresh;
        am_ref nt = nh != AM_NIL ? tail : AM_NIL;
        ser_start(ctx, svc, 2, len - 2, nh, nt);
        return;
    }
    am_ref e = ser_new_pending(ctx);
    if (tail == popping) {
        am_set_state(ctx, 3, e);   /* fresh: the popped entry was the tail, a new list */
    } else {
        AM_SEND(ctx, tail, AM_NIL, AML_SER_LINK, e);
    }
    am_set_state(ctx, 2, e);       /* tail */
}

void aml_ser_proxy(am_ctx *ctx)
{
    uint32_t len = am_msg_len(ctx);
    if (len + 1 > AM_MAX_MSG_WORDS)
        am_fail(ctx, AML_E_SER_LEN);
    /* [self, the reply...] to the serializer */
    am_send_word(ctx, 0, am_self(ctx));
    am_forward(ctx, am_state(ctx, 0), len + 1, -1);
    am_become(ctx, AM_BEH_SINK, 0, 0);
}

void aml_ser_pending(am_ctx *ctx)
{
    uint32_t len = am_msg_len(ctx);
    if (len < 2)
        am_fail(ctx, AML_E_SER_LEN);
    am_word st[AM_MAX_STATE_WORDS];
    for (uint32_t i = 0; i < AM_MAX_STATE_WORDS; i++)
        st[i] = am_state(ctx, i);
    uint32_t n = st[1];
    if (n > AML_SER_MAX_REQ)
        am_fail(ctx, AML_E_SER_LEN);
    switch (am_msg(ctx, 1)) {
    case AML_SER_LINK:
        if (len != 3) am_fail(ctx, AML_E_SER_LEN);
        am_set_state(ctx, 0, am_msg(ctx, 2));
        break;
    case AML_SER_POP: {
        if (len != 2) am_fail(ctx, AML_E_SER_LEN);
        am_word out[AM_MAX_MSG_WORDS];
        out[0] = am_self(ctx);
        out[1] = st[0];
        for (uint32_t i = 0; i < n; i++)
            out[2 + i] = st[2 + i];
        am_send(ctx, am_msg(ctx, 0), 2 + n, out);
        am_become(ctx, AM_BEH_SINK, 0, 0);
        break;
    }
    default:
        am_fail(ctx, AML_E_SER_OP);
    }
}

void aml_slow_echo(am_ctx *ctx)
{
    if (am_msg_len(ctx) != 4)
        am_fail(ctx, AML_E_SER_LEN);
    if (am_msg(ctx, 1) != AML_ECHO)
        am_fail(ctx, AML_E_SER_OP);
    am_ref cust = am_msg(ctx, 0);
    am_word value = am_msg(ctx, 2), hops = am_msg(ctx, 3);
    if (hops > 0)
        AM_SEND(ctx, am_self(ctx), cust, AML_ECHO, value, hops - 1);
    else
        AML_REPLY(ctx, cust, value);
}
