/*
 * am_lib.h — the standard actor library of actormachine: opcodes, reply
 * formats, fault codes and state layouts of every library actor.
 *
 * Everything here is written against include/am.h only and builds for the
 * host runtime and, unchanged, for the rv32im firmware (no libc, no pointers
 * in state or messages, no mutable globals). docs/library.md is the prose
 * version of this header, with the demos.
 *
 * ---- conventions (all library actors) ------------------------------------
 *
 *  * A request is [customer, op, args...]; the reply is one message sent to
 *    the customer. A customer of AM_NIL means "no reply wanted" (the actor
 *    then stages no reply; sending to AM_NIL would be a BAD_REF fault).
 *  * Requests have an exact length per op (listed below). A malformed
 *    message — too short, wrong length for its op, unknown op, or an
 *    unexpected message in an internal waiting state — makes the behavior
 *    call am_fail(code) with a code from the table below, so the event is
 *    kept in a fault record and nothing the behavior staged happens.
 *  * Domain errors (take on an empty queue, insufficient funds, ...) are
 *    *replies* with a status word, never faults.
 *  * Replies are delivered in FIFO order relative to other messages from the
 *    same sender (the single event queue guarantees it); the serializer and
 *    the queue rely on "messages from actor X to actor Y arrive in the order
 *    X sent them".
 *  * Opcodes are distinct across the whole library so that a request sent to
 *    the wrong kind of actor is an unknown op, not a silent misreading.
 *
 * Behavior ids (AMB_*) come from lib/lib_behaviors.def and the program
 * folder's behaviors.def, via lib/behaviors.h.
 */
#ifndef AM_LIB_H
#define AM_LIB_H

#include "am.h"
#include "behaviors.h"

/* ---- status words (first word of replies that can fail) ---------------- */
#define AML_OK           0u  /* success */
#define AML_EMPTY        1u  /* queue: take on an empty queue */
#define AML_INSUFFICIENT 2u  /* bank: withdraw/transfer larger than balance */
#define AML_OVERFLOW     3u  /* bank: deposit would exceed 0xffffffff */
#define AML_RANGE        4u  /* bank: log index past the end */
#define AML_REFUNDED     5u  /* bank: transfer deposit failed, money returned */
#define AML_FAILED       6u  /* supervisor: the request faulted: [FAILED, cause, code] */

/* ---- opcodes ------------------------------------------------------------- */
/* cell */
#define AML_READ      0x10u  /* [cust, READ]            -> [value] */
#define AML_WRITE     0x11u  /* [cust, WRITE, v]        -> [cell] (sync) */
#define AML_CAS       0x12u  /* [cust, CAS, old, new]   -> [previous value] */
/* counter */
#define AML_ADD       0x20u  /* [cust, ADD, amount]     -> [new count] */
/* (AML_READ on a counter: [cust, READ] -> [count]) */
/* queue */
#define AML_PUT       0x30u  /* [cust, PUT, item]       -> [OK, item] */
#define AML_TAKE      0x31u  /* [cust, TAKE]            -> [OK, item] | [EMPTY, 0] */
#define AML_Q_REMOVE  0x32u  /* internal: queue -> entry [queue, REMOVE] */
#define AML_Q_APPEND  0x33u  /* internal: queue -> entry [queue, APPEND, item] */
/* bank */
#define AML_DEPOSIT   0x40u  /* [cust, DEPOSIT, amount, txid]  -> [OK, balance] | [OVERFLOW, balance] */
#define AML_WITHDRAW  0x41u  /* [cust, WITHDRAW, amount, txid] -> [OK, balance] | [INSUFFICIENT, balance] */
#define AML_BALANCE   0x42u  /* [cust, BALANCE]                -> [OK, balance, log length] */
#define AML_LOG       0x43u  /* [cust, LOG, i] (0 = oldest)     -> [OK, kind, amount, txid, balance after] | [RANGE, log length] */
#define AML_TRANSFER  0x44u  /* [cust, TRANSFER, from, to, amount, txid] -> [status, txid] */
#define AML_LOG_GET   0x45u  /* internal: [cust, LOG_GET, k] walks k entries back */
/* serializer (internal, serializer <-> pending entries) */
#define AML_SER_LINK  0x50u  /* [NIL, LINK, entry]: set the entry's next link */
#define AML_SER_POP   0x51u  /* [ser, POP] -> [entry, next, request words...] */
/* slow echo (a multi-step test service) */
#define AML_ECHO      0x60u  /* [cust, ECHO, value, hops] -> [value] after hops self-sends */
#define AML_DIV       0x70u  /* [cust, DIV, a, b] -> [a / b]; faults (FAIL) when b == 0 */
#define AML_SUP_TICK  0x71u  /* internal: [sup, TICK], the supervisor to itself behind a retry */

/* bank log entry kinds (word 1 of a LOG reply) */
#define AML_LOG_DEPOSIT          1u
#define AML_LOG_WITHDRAW         2u
#define AML_LOG_WITHDRAW_REFUSED 3u  /* insufficient funds; balance unchanged */
#define AML_LOG_DEPOSIT_REFUSED  4u  /* would overflow; balance unchanged */

/* ---- fault codes (am_fail argument) ---------------------------------------
 * code = class << 8 | reason, e.g. 0x0202 = cell, unknown op. */
#define AML_CLS_SER     0x01u
#define AML_CLS_CELL    0x02u
#define AML_CLS_COUNTER 0x03u
#define AML_CLS_QUEUE   0x04u
#define AML_CLS_LAZY    0x05u
#define AML_CLS_BANK    0x06u
#define AML_CLS_BETA    0x07u
#define AML_CLS_DEMO    0x08u

#define AML_WHY_LEN        0x01u /* message too short / wrong length for its op */
#define AML_WHY_OP         0x02u /* unknown opcode */
#define AML_WHY_UNEXPECTED 0x03u /* message not expected in this (waiting) state */
#define AML_WHY_BROKEN     0x04u /* internal invariant broken (should not happen) */

#define AML_FAULT(cls, why) (((am_word)(cls) << 8) | (am_word)(why))

#define AML_E_SER_LEN         AML_FAULT(AML_CLS_SER, AML_WHY_LEN)
#define AML_E_SER_OP          AML_FAULT(AML_CLS_SER, AML_WHY_OP)
#define AML_E_SER_UNEXPECTED  AML_FAULT(AML_CLS_SER, AML_WHY_UNEXPECTED)
#define AML_E_CELL_LEN        AML_FAULT(AML_CLS_CELL, AML_WHY_LEN)
#define AML_E_CELL_OP         AML_FAULT(AML_CLS_CELL, AML_WHY_OP)
#define AML_E_COUNTER_LEN     AML_FAULT(AML_CLS_COUNTER, AML_WHY_LEN)
#define AML_E_COUNTER_OP      AML_FAULT(AML_CLS_COUNTER, AML_WHY_OP)
#define AML_E_COUNTER_UNEXPECTED AML_FAULT(AML_CLS_COUNTER, AML_WHY_UNEXPECTED)
#define AML_E_QUEUE_LEN       AML_FAULT(AML_CLS_QUEUE, AML_WHY_LEN)
#define AML_E_QUEUE_OP        AML_FAULT(AML_CLS_QUEUE, AML_WHY_OP)
#define AML_E_QUEUE_BUSY      AML_FAULT(AML_CLS_QUEUE, AML_WHY_UNEXPECTED)
#define AML_E_LAZY_LEN        AML_FAULT(AML_CLS_LAZY, AML_WHY_LEN)
#define AML_E_BANK_LEN        AML_FAULT(AML_CLS_BANK, AML_WHY_LEN)
#define AML_E_BANK_OP         AML_FAULT(AML_CLS_BANK, AML_WHY_OP)
#define AML_E_BANK_UNEXPECTED AML_FAULT(AML_CLS_BANK, AML_WHY_UNEXPECTED)
#define AML_E_BANK_BROKEN     AML_FAULT(AML_CLS_BANK, AML_WHY_BROKEN)
#define AML_E_BETA_LEN        AML_FAULT(AML_CLS_BETA, AML_WHY_LEN)
#define AML_E_DEMO_UNEXPECTED AML_FAULT(AML_CLS_DEMO, AML_WHY_UNEXPECTED)

/* ---- helpers usable inside behaviors ------------------------------------- */

/* Copy message words [from, from+n) into w (n <= AM_MAX_MSG_WORDS). */
static inline void aml_msg_copy(const am_ctx *ctx, uint32_t from, uint32_t n, am_word *w)
{
    for (uint32_t i = 0; i < n; i++)
        w[i] = am_msg(ctx, from + i);
}

/* Send a reply unless the customer is AM_NIL. */
static inline void aml_reply(am_ctx *ctx, am_ref cust, uint32_t n, const am_word *w)
{
    if (cust != AM_NIL)
        am_send(ctx, cust, n, w);
}
#define AML_REPLY(ctx, cust, w0, ...) \
    aml_reply((ctx), (cust), AM_NWORDS_(w0, __VA_ARGS__), (const am_word[]){w0, __VA_ARGS__})

/* =========================================================================
 * beta.c — BETA continuation (Lisp-Actors) and JOIN (fork-join)
 * =========================================================================
 * BETA   state [cust, n, s0..s5]          (n <= 6 saved context words)
 *   The first message m (any words) is answered by sending
 *   [s0..s(n-1), m0..m(len-1)] to cust; the BETA then becomes AM_BEH_SINK,
 *   so later messages are accepted and ignored (one-shot).
 *   Fault AML_E_BETA_LEN if n > 6 or n + len > 8 (nothing is sent, the
 *   BETA stays armed).
 * JOIN   state [cust, tag, remaining, index, sum]
 *   Each message adds its word `index` (0 if absent) to sum (mod 2^32);
 *   when `remaining` messages have arrived it sends [tag, sum] to cust and
 *   becomes AM_BEH_SINK. A JOIN created with remaining = 0 fires on its
 *   first message as if remaining were 1.
 */
static inline am_ref aml_new_beta(am_ctx *ctx, am_ref cust, uint32_t n, const am_word *saved)
{
    am_word s[AM_MAX_STATE_WORDS] = {0};
    s[0] = cust;
    s[1] = n;
    for (uint32_t i = 0; i < n && i < 6; i++)
        s[2 + i] = saved[i];
    return am_create(ctx, AMB_BETA, 2 + (n < 6 ? n : 6), s);
}
static inline am_ref aml_new_join(am_ctx *ctx, am_ref cust, am_word tag,
                                  uint32_t count, uint32_t index)
{
    return AM_CREATE(ctx, AMB_JOIN, cust, tag, count, index, 0);
}

/* =========================================================================
 * serializer.c — the service serializer (seeds 000/002)
 * =========================================================================
 * Wraps a service svc (any actor that answers [cust, op, args...] with one
 * reply to cust) so that it sees one request at a time, in arrival order.
 *
 * SERIALIZER        idle: state [svc]
 *   request [cust, w1..] (1..AML_SER_MAX_REQ words): creates a fresh
 *   SER_PROXY p, sends [p, w1..] to svc, becomes SERIALIZER_BUSY.
 * SERIALIZER_BUSY   state [svc, cust, proxy, head, tail]
 *   [proxy, r...] (from the current proxy only): sends [r...] to cust; then
 *     if no request is pending becomes SERIALIZER, else sends [self, POP] to
 *     the oldest pending entry and becomes SERIALIZER_FETCH.
 *   anything else is a new request: stored in a fresh SER_PENDING actor
 *     appended at the tail of the FIFO (LINK sent to the old tail).
 * SERIALIZER_FETCH  state [svc, popping, tail, fresh]
 *   waiting for the popped entry's [popping, next, cust, w1..]; then starts
 *   that request exactly like the idle case. New requests meanwhile are
 *   appended (to `fresh`, a new list, if the popped entry was the tail).
 * SER_PROXY         state [ser]: the return proxy. Its first message r
 *   (<= 7 words) goes to ser as [self, r...]; then it becomes AM_BEH_SINK, so
 *   a service that answers twice cannot complete a later request.
 * SER_PENDING       state [next, n, w0..w5]: one pending request.
 *   [NIL, LINK, e] sets next = e;  [ser, POP] answers [self, next, w...] and
 *   becomes AM_BEH_SINK.
 *
 * Authentication: only the serializer knows the current proxy, so a message
 * whose first word is not the current proxy is a *request* (seed 000):
 * a forged "reply" [x, v] is queued as a request from customer x with op v
 * and goes to the service, which rejects the unknown op; it never reaches
 * the current customer.
 * Limits: requests through a serializer are at most AML_SER_MAX_REQ words
 * (customer + op + 4 args), replies at most 7 words; longer ones fault
 * with AML_E_SER_LEN. An empty message faults with AML_E_SER_LEN.
 * Stuck for good: a service that faults (until a fault handler answers the
 * proxy, e.g. SUPERVISOR), a reply longer than 7 words (the proxy faults),
 * a customer that is neither AM_NIL nor a valid reference (the forward of
 * the reply faults with BAD_REF): later requests stay pending.
 * Cost per request: one proxy (+ one pending entry if the service is busy).
 *
 * SLOW_ECHO         stateless test service: [cust, ECHO, value, hops]
 *   re-sends itself [cust, ECHO, value, hops-1] until hops = 0, then
 *   replies [value]. Requests with fewer hops overtake earlier ones unless
 *   a serializer is in front. Faults AML_E_SER_LEN / AML_E_SER_OP.
 */
#define AML_SER_MAX_REQ 6u

/* Treat the current message as a request arriving at an idle serializer
 * for svc: self becomes SERIALIZER_BUSY (used by SERIALIZER and by the
 * lazy constructors COUNTER_INIT and QUEUE, so their first request is not
 * re-sent and FIFO order is kept). */
void aml_serializer_request(am_ctx *ctx, am_ref svc);

/* =========================================================================
 * cell.c — storage cell (seed 002)
 * =========================================================================
 * CELL  state [value]
 *   [cust, READ]            -> [value]
 *   [cust, WRITE, v]        -> [self]   (sync signal; value := v)
 *   [cust, CAS, old, new]   -> [value before]; value := new iff value == old
 *   Faults: AML_E_CELL_LEN (len < 2 or wrong length for op), AML_E_CELL_OP.
 */

/* =========================================================================
 * counter.c — counter service over a cell (seed 002)
 * =========================================================================
 * COUNTER          state [cell]   the UNSAFE service: read-modify-write
 *   [cust, ADD, amount] -> creates K_COUNT, sends [k, READ] to the cell;
 *                          eventually [new count] to cust.
 *   [cust, READ]        -> forwarded to the cell: [count] to cust.
 *   Concurrent ADDs interleave (all READs before the WRITEs): lost updates.
 * COUNTER_K_COUNT  state [cust, cell, amount]: on [count] sends
 *   [self, WRITE, count+amount] to the cell, becomes COUNTER_K_SYNC.
 * COUNTER_K_SYNC   state [cust, cell, new]: on [cell] replies [new] to
 *   cust, becomes AM_BEH_SINK.
 * COUNTER_INIT     state [initial]: the serialized counter, lazily built
 *   (seed 002 counter_svc_init): on the first message creates CELL(initial)
 *   and COUNTER(cell), becomes a SERIALIZER of that COUNTER and handles the
 *   message as its first request. Correct under concurrency.
 * Faults: AML_E_COUNTER_LEN, AML_E_COUNTER_OP, AML_E_COUNTER_UNEXPECTED
 * (K_SYNC got something other than the cell's sync); COUNTER_INIT's first
 * message empty or over AML_SER_MAX_REQ words: AML_E_SER_LEN.
 */

/* =========================================================================
 * queue.c — FIFO queue built from actors (seed 000)
 * =========================================================================
 * QUEUE              state []: public entry point. Lazy: on the first
 *   message creates QUEUE_EMPTY and becomes a SERIALIZER for it.
 *   [cust, PUT, item] -> [OK, item];  [cust, TAKE] -> [OK, item] | [EMPTY, 0]
 * The service behind the serializer (one request at a time):
 * QUEUE_EMPTY        state []
 * QUEUE_READY        state [first, last]         (non-empty)
 * QUEUE_WAIT_FIRST   state [cust, first, last]   (waiting-for-first: TAKE
 *                    sent [self, REMOVE] to first)
 * QUEUE_WAIT_LAST    state [cust, first, last]   (waiting-for-last: PUT
 *                    sent [self, APPEND, item] to last)
 * QUEUE_ENTRY        state [item, next]: one item.
 *   [q, REMOVE]       -> [self, item, next] to q, becomes AM_BEH_SINK
 *   [q, APPEND, item']-> creates ENTRY(item', next), links it,
 *                        [self, item', new] to q
 * Faults: AML_E_QUEUE_LEN, AML_E_QUEUE_OP, AML_E_QUEUE_BUSY (a request
 * reached the raw service while it waits for an entry: use QUEUE).
 */

/* =========================================================================
 * lazy.c — lazy initialization
 * =========================================================================
 * LAZY      state [beh, n, s0..s5]: on its first message creates the real
 *   target (behavior beh, state s0..s(n-1)), becomes LAZY_FWD(target) and
 *   forwards the message. The target is created exactly once.
 *   Fault AML_E_LAZY_LEN if n > 6 (invalid beh: BAD_BEHAVIOR fault).
 * LAZY_FWD  state [target]: forwards every message unchanged, in order.
 */
static inline am_ref aml_new_lazy(am_ctx *ctx, am_beh beh, uint32_t n, const am_word *st)
{
    am_word s[AM_MAX_STATE_WORDS] = {0};
    s[0] = beh;
    s[1] = n;
    for (uint32_t i = 0; i < n && i < 6; i++)
        s[2 + i] = st[i];
    return am_create(ctx, AMB_LAZY, 2 + (n < 6 ? n : 6), s);
}

/* =========================================================================
 * bank.c — accounts, transfers, transaction log (seed 001)
 * =========================================================================
 * ACCOUNT    state [balance, log_head, log_len]   (create with [b] or [])
 *   [cust, DEPOSIT, amount, txid]  -> [OK, new balance]
 *                                     | [OVERFLOW, balance] (unchanged)
 *   [cust, WITHDRAW, amount, txid] -> [OK, new balance]
 *                                     | [INSUFFICIENT, balance] (unchanged)
 *   [cust, BALANCE]                -> [OK, balance, log_len]
 *   [cust, LOG, i]                 -> [OK, kind, amount, txid, balance after]
 *                                     | [RANGE, log_len]   (i = 0: oldest)
 *   Every DEPOSIT/WITHDRAW, refused or not, appends one ACCOUNT_LOG entry.
 * ACCOUNT_LOG state [kind, amount, txid, balance_after, prev]: immutable;
 *   [cust, LOG_GET, k]: k = 0 replies the entry, else passes
 *   [cust, LOG_GET, k-1] to prev.
 * BANK       state [transfers started]
 *   [cust, TRANSFER, from, to, amount, txid] -> creates a TRANSFER
 *   coordinator; eventually [status, txid] to cust with status
 *   OK | INSUFFICIENT (nothing moved) | REFUNDED (deposit refused, money
 *   returned to `from`). Also sends [AM_NIL, BALANCE] to `to`: a `from` or
 *   `to` that is no reference fails the request (BAD_REF), nothing moved.
 * TRANSFER   state [cust, from, to, amount, txid, phase]: withdraw from
 *   `from` (phase 1), on success deposit to `to` (phase 2), if that is
 *   refused deposit back to `from` (phase 3). Money is never created or
 *   lost: while in flight it is held by the coordinator. If the refund
 *   itself is refused (only possible when the total money exceeds 2^32-1)
 *   it faults with AML_E_BANK_BROKEN, so the event, amount included, is
 *   kept in the fault record.
 * Faults: AML_E_BANK_LEN, AML_E_BANK_OP, AML_E_BANK_UNEXPECTED,
 * AML_E_BANK_BROKEN.
 */

/* =========================================================================
 * supervisor.c — a fault handler that retries, then answers for the service
 * =========================================================================
 * SUPERVISOR state [retries, left, last target, last w0, last w1, seen,
 *   inflight]  (create with [retries, retries]; the rest starts at 0)
 *   Installed with am_set_fault_handler(ctx, supervisor). For each fault
 *   delivery of a request [cust, op, ...] (the library's convention), it
 *   resends the same request to the same target while `left` > 0, and
 *   otherwise replies [AML_FAILED, cause, code] to cust, so the customer is
 *   never left waiting. A fault of a different request restores `left` to
 *   `retries` when no retry is in flight; while one is (`inflight` retries
 *   whose [self, AML_SUP_TICK], sent right behind each resend, has not come
 *   back), the requests that fault share `left`, which every answer
 *   restores -- so requests that always fail, delivered in turn, cannot be
 *   retried for ever. `seen` counts the faults delivered. Messages that are
 *   not fault deliveries: [cust, AML_READ] -> [seen]; its own TICK.
 * SUPERVISED_DIV state [] : the demo's service, [cust, DIV, a, b] -> [a/b],
 *   am_fail(AML_E_DIV_ZERO) when b == 0.
 */
#define AML_E_DIV_ZERO 0x0D10u

#endif /* AM_LIB_H */
