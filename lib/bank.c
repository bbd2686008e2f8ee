/*
 * bank.c — bank accounts with a transaction log, and transfers that never
 * lose or create money (seed 001).
 *
 * An ACCOUNT applies each DEPOSIT/WITHDRAW atomically (one transaction) and
 * records it, refused or not, in an immutable chain of ACCOUNT_LOG actors
 * (newest first). A transfer cannot be atomic across two accounts, so a
 * TRANSFER coordinator (created by BANK per request) withdraws first, then
 * deposits, and if the deposit is refused puts the money back: at every
 * moment each unit of money is in exactly one account or in exactly one
 * coordinator. Formats and fault codes: lib/am_lib.h.
 */
#include "am_lib.h"

#define XFER_WITHDRAWING 1u
#define XFER_DEPOSITING  2u
#define XFER_REFUNDING   3u

/* Record an operation: new log head with the given fields. */
static am_ref log_append(am_ctx *ctx, am_word kind, am_word amount, am_word txid,
                         am_word balance_after, am_ref prev)
{
    return AM_CREATE(ctx, AMB_ACCOUNT_LOG, kind, amount, txid, balance_after, prev);
}

void aml_account(am_ctx *ctx)
{
    uint32_t len = am_msg_len(ctx);
    if (len < 2)
        am_fail(ctx, AML_E_BANK_LEN);
    am_ref cust = am_msg(ctx, 0);
    am_word bal = am_state(ctx, 0);
    am_ref head = am_state(ctx, 1);
    am_word nlog = am_state(ctx, 2);
    am_word amount = am_msg(ctx, 2), txid = am_msg(ctx, 3);

    switch (am_msg(ctx, 1)) {
    case AML_DEPOSIT: {
        if (len != 4) am_fail(ctx, AML_E_BANK_LEN);
        am_word nb = bal + amount;
        if (nb < bal) {  /* would wrap: refuse, balance unchanged */
            am_ref e = log_append(ctx, AML_LOG_DEPOSIT_REFUSED, amount, txid, bal, head);
            AM_BECOME(ctx, AMB_ACCOUNT, bal, e, nlog + 1);
            AML_REPLY(ctx, cust, AML_OVERFLOW, bal);
        } else {
            am_ref e = log_append(ctx, AML_LOG_DEPOSIT, amount, txid, nb, head);
            AM_BECOME(ctx, AMB_ACCOUNT, nb, e, nlog + 1);
            AML_REPLY(ctx, cust, AML_OK, nb);
        }
        break;
    }
    case AML_WITHDRAW:
        if (len != 4) am_fail(ctx, AML_E_BANK_LEN);
        if (amount > bal) {  /* insufficient funds: an answer, not a fault */
            am_ref e = log_append(ctx, AML_LOG_WITHDRAW_REFUSED, amount, txid, bal, head);
            AM_BECOME(ctx, AMB_ACCOUNT, bal, e, nlog + 1);
            AML_REPLY(ctx, cust, AML_INSUFFICIENT, bal);
        } else {
            am_word nb = bal - amount;
            am_ref e = log_append(ctx, AML_LOG_WITHDRAW, amount, txid, nb, head);
            AM_BECOME(ctx, AMB_ACCOUNT, nb, e, nlog + 1);
            AML_REPLY(ctx, cust, AML_OK, nb);
        }
        break;
    case AML_BALANCE:
        if (len != 2) am_fail(ctx, AML_E_BANK_LEN);
        AML_REPLY(ctx, cust, AML_OK, bal, nlog);
        break;
    case AML_LOG: {
        if (len != 3) am_fail(ctx, AML_E_BANK_LEN);
        am_word i = am_msg(ctx, 2);
        if (i >= nlog)
            AML_REPLY(ctx, cust, AML_RANGE, nlog);
        else if (cust != AM_NIL)
            AM_SEND(ctx, head, cust, AML_LOG_GET, nlog - 1u - i);
        break;
    }
    default:
        am_fail(ctx, AML_E_BANK_OP);
    }
}

void aml_account_log(am_ctx *ctx)
{
    if (am_msg_len(ctx) != 3)
        am_fail(ctx, AML_E_BANK_LEN);
    if (am_msg(ctx, 1) != AML_LOG_GET)
        am_fail(ctx, AML_E_BANK_OP);
    am_ref cust = am_msg(ctx, 0);
    am_word k = am_msg(ctx, 2);
    if (k == 0) {
        AML_REPLY(ctx, cust, AML_OK, am_state(ctx, 0), am_state(ctx, 1),
                  am_state(ctx, 2), am_state(ctx, 3));
    } else {
        am_ref prev = am_state(ctx, 4);
        if (prev == AM_NIL)
            am_fail(ctx, AML_E_BANK_BROKEN);
        AM_SEND(ctx, prev, cust, AML_LOG_GET, k - 1u);
    }
}

void aml_bank(am_ctx *ctx)
{
    uint32_t len = am_msg_len(ctx);
    if (len < 2)
        am_fail(ctx, AML_E_BANK_LEN);
    if (am_msg(ctx, 1) != AML_TRANSFER)
        am_fail(ctx, AML_E_BANK_OP);
    if (len != 6)
        am_fail(ctx, AML_E_BANK_LEN);
    am_ref cust = am_msg(ctx, 0), from = am_msg(ctx, 2), to = am_msg(ctx, 3);
    am_word amount = am_msg(ctx, 4), txid = am_msg(ctx, 5);
    am_ref x = AM_CREATE(ctx, AMB_TRANSFER, cust, from, to, amount, txid, XFER_WITHDRAWING);
    AM_SEND(ctx, from, x, AML_WITHDRAW, amount, txid);
    /* `to` is checked here, as `from` is: a SEND to what is no reference
     * fails this request (BAD_REF) with nothing moved. Found only at the
     * deposit, it would fail the coordinator after the withdrawal, and the
     * amount would go with the coordinator. The answer goes to no one. */
    AM_SEND(ctx, to, AM_NIL, AML_BALANCE);
    AM_BECOME(ctx, AMB_BANK, am_state(ctx, 0) + 1u);
}

void aml_transfer(am_ctx *ctx)
{
    am_ref cust = am_state(ctx, 0), from = am_state(ctx, 1), to = am_state(ctx, 2);
    am_word amount = am_state(ctx, 3), txid = am_state(ctx, 4);
    am_word phase = am_state(ctx, 5);
    if (am_msg_len(ctx) != 2)
        am_fail(ctx, AML_E_BANK_UNEXPECTED);
    int ok = am_msg(ctx, 0) == AML_OK;

    switch (phase) {
    case XFER_WITHDRAWING:
        if (ok) {  /* the money is now held by this coordinator */
            AM_SEND(ctx, to, am_self(ctx), AML_DEPOSIT, amount, txid);
            AM_BECOME(ctx, AMB_TRANSFER, cust, from, to, amount, txid, XFER_DEPOSITING);
        } else {   /* nothing moved */
            AML_REPLY(ctx, cust, AML_INSUFFICIENT, txid);
            am_become(ctx, AM_BEH_SINK, 0, 0);
        }
        break;
    case XFER_DEPOSITING:
        if (ok) {
            AML_REPLY(ctx, cust, AML_OK, txid);
            am_become(ctx, AM_BEH_SINK, 0, 0);
        } else {   /* deposit refused: give the money back */
            AM_SEND(ctx, from, am_self(ctx), AML_DEPOSIT, amount, txid);
            AM_BECOME(ctx, AMB_TRANSFER, cust, from, to, amount, txid, XFER_REFUNDING);
        }
        break;
    case XFER_REFUNDING:
        if (!ok)   /* keep the event (and the amount) in a fault record */
            am_fail(ctx, AML_E_BANK_BROKEN);
        AML_REPLY(ctx, cust, AML_REFUNDED, txid);
        am_become(ctx, AM_BEH_SINK, 0, 0);
        break;
    default:
        am_fail(ctx, AML_E_BANK_BROKEN);
    }
}
