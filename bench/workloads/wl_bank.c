/* wl_bank.c — Savina BankTransaction with serialized accounts (bench/workloads/bench.h). */
#include "bench.h"

/* [DEBIT, amount, src]: credit this account, acknowledge to src. */
static void debit_in(am_ctx *ctx, am_word balance)
{
    if (am_msg_len(ctx) != 3) am_fail(ctx, BF_UNEXPECTED);
    AM_SEND(ctx, am_msg(ctx, 2), BT_ACK);
    am_set_state(ctx, 0, balance + am_msg(ctx, 1));
}

/* idle: state [balance] */
void amb_account(am_ctx *ctx)
{
    am_word tag = am_msg(ctx, 0), balance = am_state(ctx, 0);
    if (tag == BT_CREDIT) {
        am_word amount = am_msg(ctx, 1);
        AM_SEND(ctx, am_msg(ctx, 2), BT_DEBIT, amount, am_self(ctx));
        AM_BECOME(ctx, AMB_BENCH_ACCOUNT_BUSY, balance - amount, am_msg(ctx, 3));
    } else if (tag == BT_DEBIT) {
        debit_in(ctx, balance);
    } else {
        am_fail(ctx, BF_UNEXPECTED);
    }
}

/* waiting for the destination's ACK: state [balance, ledger] */
void amb_account_busy(am_ctx *ctx)
{
    am_word tag = am_msg(ctx, 0), balance = am_state(ctx, 0);
    if (tag == BT_ACK) {
        AM_SEND(ctx, am_state(ctx, 1), BT_DONE, 1);
        AM_BECOME(ctx, AMB_BENCH_ACCOUNT, balance);
    } else if (tag == BT_DEBIT) {
        debit_in(ctx, balance);
    } else if (tag == BT_CREDIT) {
        /* postpone: back to the end of the queue, in order */
        am_forward(ctx, am_self(ctx), 4, 0);
    } else {
        am_fail(ctx, BF_UNEXPECTED);
    }
}
