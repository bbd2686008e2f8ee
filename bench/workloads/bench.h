/*
 * bench.h — the benchmark workloads of actormachine: message tags, state
 * layouts and behavior ids. The behaviors (wl_*.c in this folder) are
 * written against include/am.h only, like lib/: 32-bit words, no libc, no
 * pointers, no globals, <= 8 sends and <= 4 creates per transaction, so
 * they build unchanged for the firmware. The host driver is bench/am_bench.c;
 * the same workloads for Erlang/OTP and CAF are bench/erlang/, bench/caf/.
 *
 * Behavior ids: this folder is a program folder (docs/programs.md); its
 * behaviors.def gives the AMB_BENCH_* ids, after the library's, identical
 * on host and firmware.
 */
#ifndef AM_BENCH_H
#define AM_BENCH_H

#include "am.h"
#include "behaviors.h"


/* ---- message tags (word 0 of every bench message) ----------------------- */
#define BT_START  0xB001u  /* [START]                      begin / continue */
#define BT_PING   0xB002u  /* [PING, from]                                   */
#define BT_PONG   0xB003u  /* [PONG]                                         */
#define BT_LINK   0xB004u  /* [LINK, ref...]               wiring (untimed)  */
#define BT_TOKEN  0xB005u  /* [TOKEN, hops, ledger]        thread ring       */
#define BT_INC    0xB006u  /* [INC]                        counting          */
#define BT_GET    0xB007u  /* [GET, cust] -> [DONE, count]                   */
#define BT_DONE   0xB008u  /* [DONE, value]                to a LEDGER       */
#define BT_WORK   0xB009u  /* [WORK, i, ledger]            fork-join         */
#define BT_REQ    0xB00Au  /* [REQ, n, parent]             fibonacci         */
#define BT_CREDIT 0xB00Bu  /* [CREDIT, amount, dest, ledger]  bank teller    */
#define BT_DEBIT  0xB00Cu  /* [DEBIT, amount, src]         account->account  */
#define BT_ACK    0xB00Du  /* [ACK]                        account->account  */

/* am_fail codes of the bench behaviors: 0xBE00 | behavior-specific reason */
#define BF_UNEXPECTED 0xBE01u  /* a message the behavior does not expect */

/* ---- the workloads -------------------------------------------------------
 * LEDGER      state [count, sum, last]: [DONE, v] -> count+1, sum+v, last=v.
 *             Collects results; the driver reads it with am_peek.
 *
 * PingPong    PING [pong, remaining, received]; PONG [].
 *             [START] or [PONG] to PING: count the pong, and if remaining > 0
 *             send [PING, self] to pong. PONG answers [PONG] to `from`.
 *             N round trips = 2N messages.
 * ThreadRing  RING_NODE [next, index]; [LINK, next] sets next (closes the
 *             ring); [TOKEN, h, ledger]: h == 0 -> [DONE, index] to ledger,
 *             else [TOKEN, h-1, ledger] to next. N hops = N messages; the
 *             token stops at node N mod size.
 * Counting    COUNTER [count]: [INC] -> count+1; [GET, cust] -> [DONE,
 *             count]. PRODUCER [counter, remaining, ledger]: on [START]
 *             sends min(7, remaining) INCs and [START] to itself (the send
 *             bound is 8 per transaction), then [GET, ledger]. N INCs.
 * Fork-Join   FJ_FORKER [remaining, ledger, i]: on [START] creates
 *             min(4, remaining) FJ_WORKERs, sends each [WORK, i, ledger],
 *             and [START] to itself while work remains. FJ_WORKER: on [WORK,
 *             i, ledger] sends [DONE, bench_fj_value(i)] to ledger. N actors.
 * Fibonacci   FIB []: [REQ, n, parent]: n < 2 -> [DONE, n] to parent; else
 *             creates two FIBs, sends them [REQ, n-1, self], [REQ, n-2,
 *             self] and becomes FIB_JOIN [parent, got, sum], which sends
 *             [DONE, sum] to parent after two [DONE, v]. One actor per call,
 *             calls(n) = 2 fib(n+1) - 1, 2 messages per call.
 * Big         BIG_NODE [ledger, left, rng, nb0..nb4]: [LINK, nb0..nb4] sets
 *             the neighbours; [START] or [PONG] -> (after a PONG, left-1)
 *             if left > 0 [PING, self] to nb[rng>>8 % 5] (rng: LCG) else
 *             [DONE, 1] to ledger; [PING, from] -> [PONG] to from.
 *             One ping outstanding per node; N nodes x M pings = 2NM msgs.
 * Bank        ACCOUNT [balance]: [CREDIT, amt, dest, ledger] (a transfer
 *             out of this account) -> [DEBIT, amt, self] to dest, becomes
 *             ACCOUNT_BUSY [balance-amt, ledger] until dest's [ACK], then
 *             [DONE, 1] to ledger. [DEBIT, amt, src] -> balance+amt, [ACK]
 *             to src (also when busy). ACCOUNT_BUSY postpones a new CREDIT
 *             by re-sending it to itself: each account is a serializer of
 *             its outgoing transfers (Savina BankTransaction, where the
 *             source account awaits the destination's reply). 4 messages
 *             per transfer (+ postponements).
 */
#define BENCH_LCG(x) ((am_word)((x) * 1664525u + 1013904223u))
#define BENCH_BIG_NB 5u

/* The fork-join worker's bit of work (also computed by the driver, the
 * Erlang and the CAF versions to check the sum). */
static inline am_word bench_fj_value(am_word i)
{
    am_word x = i * 2654435761u;
    x ^= x >> 15;
    return x & 0xffffu;
}

#endif /* AM_BENCH_H */
