/*
 * demo_bank.c — accounts, concurrent transfers, conservation, logs.
 *
 * Accounts A, B, C are opened empty and funded (A 100, B 50). The balances
 * and their total are read, then three transfers run concurrently through
 * BANK: A->B 30, B->C 40 and C->A 500, which is refused for insufficient
 * funds (an answer, not a fault). The balances are read again: the total is
 * unchanged. Finally each account's transaction log is read back entry by
 * entry, refused operations included.
 * State [step, bank, A, B, C, i, sum, total before].
 */
#include "demo.h"

enum { S_BOOT, S_FUNDED, S_BEFORE, S_TRANSFER, S_RESULTS, S_AFTER, S_LOGS, S_DONE };

static const char *const before_lbl[3] = { "bank: before A = ", "bank: before B = ", "bank: before C = " };
static const char *const after_lbl[3]  = { "bank: after A = ", "bank: after B = ", "bank: after C = " };
static const char *const log_lbl[3]    = { "bank: log A: ", "bank: log B: ", "bank: log C: " };
static const char *const xfer_lbl[3]   = { "bank: transfer A->B 30: ", "bank: transfer B->C 40: ",
                                           "bank: transfer C->A 500: " };

static const char *kind_text(am_word kind)
{
    switch (kind) {
    case AML_LOG_DEPOSIT:          return "deposit ";
    case AML_LOG_WITHDRAW:         return "withdraw ";
    case AML_LOG_WITHDRAW_REFUSED: return "refused withdraw ";
    case AML_LOG_DEPOSIT_REFUSED:  return "refused deposit ";
    default:                       return "? ";
    }
}

static const char *status_text(am_word status)
{
    switch (status) {
    case AML_OK:           return "ok\n";
    case AML_INSUFFICIENT: return "insufficient funds\n";
    case AML_REFUNDED:     return "refunded\n";
    default:               return "error\n";
    }
}

void demo_bank(am_ctx *ctx)
{
    am_word st[8];
    for (uint32_t k = 0; k < 8; k++)
        st[k] = am_state(ctx, k);
    am_word step = st[0];
    am_ref bank = st[1];
    const am_ref *acct = &st[2];       /* A, B, C */
    am_word i = st[5], sum = st[6], before = st[7];
    am_ref self = am_self(ctx);

    switch (step) {
    case S_BOOT:
        bank = AM_CREATE(ctx, AMB_BANK, 0);
        st[2] = am_create(ctx, AMB_ACCOUNT, 0, 0);
        st[3] = am_create(ctx, AMB_ACCOUNT, 0, 0);
        st[4] = am_create(ctx, AMB_ACCOUNT, 0, 0);
        AM_SEND(ctx, acct[0], self, AML_DEPOSIT, 100, 1);
        AM_SEND(ctx, acct[1], self, AML_DEPOSIT, 50, 2);
        step = S_FUNDED;
        i = 0;
        break;
    case S_FUNDED:  /* [OK, balance] for the two deposits */
        if (++i == 2) {
            AM_SEND(ctx, acct[0], self, AML_BALANCE);
            step = S_BEFORE;
            i = 0;
            sum = 0;
        }
        break;
    case S_BEFORE:  /* [OK, balance, log length] of account i */
    case S_AFTER:
        demo_say_u(ctx, (step == S_BEFORE ? before_lbl : after_lbl)[i], am_msg(ctx, 1), "\n");
        sum += am_msg(ctx, 1);
        if (++i < 3) {
            AM_SEND(ctx, acct[i], self, AML_BALANCE);
        } else if (step == S_BEFORE) {
            demo_say_u(ctx, "bank: total before = ", sum, "\n");
            before = sum;
            am_send(ctx, self, 0, 0);  /* continue in a new transaction */
            step = S_TRANSFER;
        } else {
            demo_say_u(ctx, "bank: total after = ", sum,
                       sum == before ? " (conserved)\n" : " (NOT conserved)\n");
            AM_SEND(ctx, acct[0], self, AML_LOG, 0);
            step = S_LOGS;
            i = 0;
            sum = 0;
        }
        break;
    case S_TRANSFER:  /* three transfers at once */
        AM_SEND(ctx, bank, self, AML_TRANSFER, acct[0], acct[1], 30, 101);
        AM_SEND(ctx, bank, self, AML_TRANSFER, acct[1], acct[2], 40, 102);
        AM_SEND(ctx, bank, self, AML_TRANSFER, acct[2], acct[0], 500, 103);
        step = S_RESULTS;
        i = 0;
        break;
    case S_RESULTS: {  /* [status, txid], in completion order */
        am_word tx = am_msg(ctx, 1);
        if (tx < 101 || tx > 103)
            demo_unexpected(ctx);
        am_print(ctx, xfer_lbl[tx - 101]);
        am_print(ctx, status_text(am_msg(ctx, 0)));
        if (++i == 3) {
            AM_SEND(ctx, acct[0], self, AML_BALANCE);
            step = S_AFTER;
            i = 0;
            sum = 0;
        }
        break;
    }
    case S_LOGS:  /* account i, entry sum: [OK, kind, amount, txid, after] | [RANGE, n] */
        if (am_msg(ctx, 0) == AML_OK) {
            am_print(ctx, log_lbl[i]);
            demo_say_u(ctx, kind_text(am_msg(ctx, 1)), am_msg(ctx, 2), ", balance ");
            am_print_uint(ctx, am_msg(ctx, 4));
            am_print(ctx, "\n");
            sum++;
            AM_SEND(ctx, acct[i], self, AML_LOG, sum);
        } else if (++i < 3) {
            sum = 0;
            AM_SEND(ctx, acct[i], self, AML_LOG, 0);
        } else {
            step = S_DONE;
        }
        break;
    default:
        demo_unexpected(ctx);
    }
    st[0] = step; st[1] = bank; st[5] = i; st[6] = sum; st[7] = before;
    am_become(ctx, AMB_DEMO_BANK, 8, st);
}
