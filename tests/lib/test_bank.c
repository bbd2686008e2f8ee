/*
 * test_bank.c — ACCOUNT, ACCOUNT_LOG, BANK, TRANSFER (lib/bank.c):
 * deposit / withdraw / balance, insufficient funds and overflow as error
 * replies, the transaction log read back, concurrent transfers conserving
 * the total, the refund path, and faults.
 */
#include "lt.h"

static am_word balance_of(am_rt *rt, am_ref acct)
{
    am_word r[8]; uint32_t n;
    if (LT_ASK(rt, acct, r, &n, AML_BALANCE) != AM_OK || n != 3 || r[0] != AML_OK)
        return 0xdeadbeefu;
    return r[1];
}

TEST(deposit_withdraw_balance_and_insufficient_funds)
{
    am_rt *rt = lt_new();
    am_ref a = LT_SPAWN(rt, AMB_ACCOUNT, 100);
    am_word r[8]; uint32_t n;
    CHECK_EQ(LT_ASK(rt, a, r, &n, AML_DEPOSIT, 50, 1), AM_OK);
    CHECK_EQ(n, 2);
    CHECK_EQ(r[0], AML_OK);
    CHECK_EQ(r[1], 150);
    CHECK_EQ(LT_ASK(rt, a, r, &n, AML_WITHDRAW, 30, 2), AM_OK);
    CHECK_EQ(r[0], AML_OK);
    CHECK_EQ(r[1], 120);
    CHECK_EQ(LT_ASK(rt, a, r, &n, AML_WITHDRAW, 500, 3), AM_OK);
    CHECK_EQ(n, 2);
    CHECK_EQ(r[0], AML_INSUFFICIENT);   /* an answer, not a fault */
    CHECK_EQ(r[1], 120);
    CHECK_EQ(LT_ASK(rt, a, r, &n, AML_WITHDRAW, 120, 4), AM_OK);  /* all of it */
    CHECK_EQ(r[0], AML_OK);
    CHECK_EQ(r[1], 0);
    CHECK_EQ(LT_ASK(rt, a, r, &n, AML_BALANCE), AM_OK);
    CHECK_EQ(n, 3);
    CHECK_EQ(r[0], AML_OK);
    CHECK_EQ(r[1], 0);
    CHECK_EQ(r[2], 4);                  /* four log entries */
    CHECK_EQ(lt_nfaults, 0);
    lt_free(rt);
}

TEST(overflowing_deposit_is_refused)
{
    am_rt *rt = lt_new();
    am_ref a = LT_SPAWN(rt, AMB_ACCOUNT, 0xfffffff0u);
    am_word r[8]; uint32_t n;
    CHECK_EQ(LT_ASK(rt, a, r, &n, AML_DEPOSIT, 0x20, 9), AM_OK);
    CHECK_EQ(r[0], AML_OVERFLOW);
    CHECK_EQ(r[1], 0xfffffff0u);
    CHECK_EQ(LT_ASK(rt, a, r, &n, AML_DEPOSIT, 0xf, 10), AM_OK);
    CHECK_EQ(r[0], AML_OK);
    CHECK_EQ(r[1], 0xffffffffu);
    CHECK_EQ(LT_ASK(rt, a, r, &n, AML_LOG, 0), AM_OK);
    CHECK_EQ(r[1], AML_LOG_DEPOSIT_REFUSED);
    lt_free(rt);
}

TEST(log_records_every_operation_oldest_first)
{
    am_rt *rt = lt_new();
    am_ref a = LT_SPAWN0(rt, AMB_ACCOUNT);
    am_word r[8]; uint32_t n;
    CHECK_EQ(LT_ASK(rt, a, r, &n, AML_LOG, 0), AM_OK);
    CHECK_EQ(n, 2);
    CHECK_EQ(r[0], AML_RANGE);
    CHECK_EQ(r[1], 0);
    am_ref rec = LT_RECORDER_NEW(rt);
    LT_SEND(rt, a, rec, AML_DEPOSIT, 10, 101);
    LT_SEND(rt, a, rec, AML_WITHDRAW, 25, 102);   /* refused */
    LT_SEND(rt, a, rec, AML_DEPOSIT, 20, 103);
    LT_SEND(rt, a, rec, AML_WITHDRAW, 25, 104);
    LT_SEND(rt, a, rec, AML_BALANCE);             /* not logged */
    CHECK_EQ(lt_run(rt), AM_OK);
    static const am_word want[4][4] = {
        { AML_LOG_DEPOSIT, 10, 101, 10 },
        { AML_LOG_WITHDRAW_REFUSED, 25, 102, 10 },
        { AML_LOG_DEPOSIT, 20, 103, 30 },
        { AML_LOG_WITHDRAW, 25, 104, 5 },
    };
    for (am_word i = 0; i < 4; i++) {
        CHECK_EQ(LT_ASK(rt, a, r, &n, AML_LOG, i), AM_OK);
        CHECK_EQ(n, 5);
        CHECK_EQ(r[0], AML_OK);
        for (int k = 0; k < 4; k++)
            CHECK_EQ(r[1 + k], want[i][k]);
    }
    CHECK_EQ(LT_ASK(rt, a, r, &n, AML_LOG, 4), AM_OK);
    CHECK_EQ(r[0], AML_RANGE);
    CHECK_EQ(r[1], 4);
    CHECK_EQ(LT_ASK(rt, a, r, &n, AML_LOG, 0xffffffffu), AM_OK);
    CHECK_EQ(r[0], AML_RANGE);
    /* a log read is a snapshot: concurrent operations do not disturb it */
    LT_SEND(rt, a, rec, AML_LOG, 0);
    LT_SEND(rt, a, rec, AML_DEPOSIT, 1, 105);
    LT_SEND(rt, a, rec, AML_LOG, 0);
    CHECK_EQ(lt_run(rt), AM_OK);
    int c = lt_count_for(rec);
    CHECK_EQ(lt_nth_for(rec, c - 3)->w[0], AML_OK);      /* deposit reply */
    CHECK_EQ(lt_nth_for(rec, c - 2)->w[3], 101);         /* oldest entry */
    CHECK_EQ(lt_nth_for(rec, c - 1)->w[3], 101);
    CHECK_EQ(lt_nfaults, 0);
    lt_free(rt);
}

TEST(concurrent_transfers_conserve_money)
{
    am_rt *rt = lt_new();
    am_ref acct[3];
    am_word bal[3] = { 1000, 500, 0 };
    for (int i = 0; i < 3; i++)
        acct[i] = LT_SPAWN(rt, AMB_ACCOUNT, bal[i]);
    am_ref bank = LT_SPAWN(rt, AMB_BANK, 0);
    am_ref rec = LT_RECORDER_NEW(rt);
    static const struct { int from, to; am_word amount; } tx[12] = {
        {0, 1, 300}, {1, 2, 700}, {2, 0, 50}, {0, 2, 600}, {1, 0, 100},
        {2, 1, 400}, {0, 1, 900}, {1, 2, 250}, {2, 0, 1}, {0, 0, 10},
        {1, 0, 2000}, {2, 1, 0},
    };
    for (am_word t = 0; t < 12; t++)
        LT_SEND(rt, bank, rec, AML_TRANSFER, acct[tx[t].from], acct[tx[t].to],
                tx[t].amount, 1000 + t);
    CHECK_EQ(lt_run(rt), AM_OK);
    CHECK_EQ(lt_nfaults, 0);
    CHECK_EQ(lt_count_for(rec), 12);
    int seen[12] = {0}, ok = 0, refused = 0;
    for (int k = 0; k < 12; k++) {
        const lt_msg *m = lt_nth_for(rec, k);
        CHECK_EQ(m->len, 2);
        am_word t = m->w[1] - 1000;
        CHECK(t < 12);
        CHECK(!seen[t]);
        seen[t] = 1;
        if (m->w[0] == AML_OK) {
            ok++;
            bal[tx[t].from] -= tx[t].amount;
            bal[tx[t].to] += tx[t].amount;
        } else {
            CHECK_EQ(m->w[0], AML_INSUFFICIENT);
            refused++;
        }
    }
    CHECK(ok > 0);
    CHECK(refused > 0);   /* e.g. the 2000 one */
    am_word total = 0;
    for (int i = 0; i < 3; i++) {
        am_word b = balance_of(rt, acct[i]);
        CHECK_EQ(b, bal[i]);   /* exactly the successful transfers applied */
        total += b;
    }
    CHECK_EQ(total, 1500);
    am_word st[8];
    CHECK_EQ(lt_peek(rt, bank, st), AMB_BANK);
    CHECK_EQ(st[0], 12);
    lt_free(rt);
}

TEST(transfer_logs_both_sides)
{
    am_rt *rt = lt_new();
    am_ref a = LT_SPAWN(rt, AMB_ACCOUNT, 80);
    am_ref b = LT_SPAWN(rt, AMB_ACCOUNT, 0);
    am_ref bank = LT_SPAWN0(rt, AMB_BANK);
    am_word r[8]; uint32_t n;
    CHECK_EQ(LT_ASK(rt, bank, r, &n, AML_TRANSFER, a, b, 30, 77), AM_OK);
    CHECK_EQ(n, 2);
    CHECK_EQ(r[0], AML_OK);
    CHECK_EQ(r[1], 77);
    CHECK_EQ(LT_ASK(rt, bank, r, &n, AML_TRANSFER, a, b, 60, 78), AM_OK);
    CHECK_EQ(r[0], AML_INSUFFICIENT);
    CHECK_EQ(r[1], 78);
    CHECK_EQ(LT_ASK(rt, a, r, &n, AML_LOG, 0), AM_OK);
    CHECK_EQ(r[1], AML_LOG_WITHDRAW);
    CHECK_EQ(r[2], 30);
    CHECK_EQ(r[3], 77);
    CHECK_EQ(r[4], 50);
    CHECK_EQ(LT_ASK(rt, a, r, &n, AML_LOG, 1), AM_OK);
    CHECK_EQ(r[1], AML_LOG_WITHDRAW_REFUSED);
    CHECK_EQ(r[3], 78);
    CHECK_EQ(LT_ASK(rt, b, r, &n, AML_LOG, 0), AM_OK);
    CHECK_EQ(r[1], AML_LOG_DEPOSIT);
    CHECK_EQ(r[2], 30);
    CHECK_EQ(r[3], 77);
    CHECK_EQ(r[4], 30);
    CHECK_EQ(LT_ASK(rt, b, r, &n, AML_LOG, 1), AM_OK);
    CHECK_EQ(r[0], AML_RANGE);
    lt_free(rt);
}

TEST(refused_deposit_is_refunded)
{
    am_rt *rt = lt_new();
    am_ref a = LT_SPAWN(rt, AMB_ACCOUNT, 100);
    am_ref b = LT_SPAWN(rt, AMB_ACCOUNT, 0xffffffffu - 10);
    am_ref bank = LT_SPAWN0(rt, AMB_BANK);
    am_word r[8]; uint32_t n;
    CHECK_EQ(LT_ASK(rt, bank, r, &n, AML_TRANSFER, a, b, 50, 5), AM_OK);
    CHECK_EQ(r[0], AML_REFUNDED);
    CHECK_EQ(r[1], 5);
    CHECK_EQ(balance_of(rt, a), 100);
    CHECK_EQ(balance_of(rt, b), 0xffffffffu - 10);
    CHECK_EQ(LT_ASK(rt, a, r, &n, AML_LOG, 0), AM_OK);
    CHECK_EQ(r[1], AML_LOG_WITHDRAW);
    CHECK_EQ(LT_ASK(rt, a, r, &n, AML_LOG, 1), AM_OK);
    CHECK_EQ(r[1], AML_LOG_DEPOSIT);    /* the refund */
    CHECK_EQ(r[2], 50);
    CHECK_EQ(r[4], 100);
    CHECK_EQ(LT_ASK(rt, b, r, &n, AML_LOG, 0), AM_OK);
    CHECK_EQ(r[1], AML_LOG_DEPOSIT_REFUSED);
    CHECK_EQ(lt_nfaults, 0);
    lt_free(rt);
}

TEST(refused_refund_keeps_the_money_in_a_fault_record)
{
    am_rt *rt = lt_new();
    am_ref a = LT_SPAWN(rt, AMB_ACCOUNT, 100);
    am_ref b = LT_SPAWN(rt, AMB_ACCOUNT, 0xffffffffu);
    am_ref bank = LT_SPAWN0(rt, AMB_BANK);
    am_ref rec = LT_RECORDER_NEW(rt);
    LT_SEND(rt, bank, rec, AML_TRANSFER, a, b, 100, 6);
    CHECK_EQ(am_step(rt), AM_OK);           /* bank: coordinator created */
    CHECK_EQ(am_step(rt), AM_OK);           /* a: withdraw 100 -> 0 */
    LT_SEND(rt, a, rec, AML_DEPOSIT, 0xffffffffu, 7);  /* fills a */
    CHECK_EQ(lt_run(rt), AM_OK);
    CHECK_EQ(lt_nfaults, 1);
    CHECK_EQ(lt_faults[0].cause, AM_FAULT_FAIL);
    CHECK_EQ(lt_faults[0].code, AML_E_BANK_BROKEN);
    am_ref x = lt_faults[0].target;
    am_word st[8];
    CHECK_EQ(lt_peek(rt, x, st), AMB_TRANSFER);   /* still holds the money */
    CHECK_EQ(st[3], 100);
    CHECK_EQ(st[5], 3);                           /* refunding */
    CHECK_EQ(lt_count_for(rec), 1);               /* only the deposit reply */
    lt_free(rt);
}

TEST(a_transfer_to_no_reference_moves_nothing)
{
    am_rt *rt = lt_new();
    am_ref a = LT_SPAWN(rt, AMB_ACCOUNT, 100);
    am_ref bank = LT_SPAWN0(rt, AMB_BANK);
    am_ref rec = LT_RECORDER_NEW(rt);
    LT_SEND(rt, bank, rec, AML_TRANSFER, a, 7, 30, 8);   /* 7: no reference */
    CHECK_EQ(lt_run(rt), AM_OK);
    CHECK_EQ(lt_nfaults, 1);
    CHECK_EQ(lt_faults[0].cause, AM_FAULT_BAD_REF);
    CHECK_EQ(lt_faults[0].target, bank);          /* the request itself */
    CHECK_EQ(lt_faults[0].msg[4], 30);            /* the amount, in the record */
    CHECK_EQ(balance_of(rt, a), 100);             /* nothing moved */
    am_word r[8];
    uint32_t n;
    CHECK_EQ(LT_ASK(rt, a, r, &n, AML_LOG, 0), AM_OK);
    CHECK_EQ(r[0], AML_RANGE);                    /* no withdrawal logged */
    CHECK_EQ(lt_count_for(rec), 0);
    lt_free(rt);
}

TEST(malformed_messages_fault)
{
    am_rt *rt = lt_new();
    am_ref a = LT_SPAWN(rt, AMB_ACCOUNT, 10);
    am_ref bank = LT_SPAWN0(rt, AMB_BANK);
    am_ref rec = LT_RECORDER_NEW(rt);
    LT_CHECK_FAULT(rt, a, AML_E_BANK_LEN, rec);
    LT_CHECK_FAULT(rt, a, AML_E_BANK_OP, rec, AML_READ);
    LT_CHECK_FAULT(rt, a, AML_E_BANK_LEN, rec, AML_DEPOSIT, 5);
    LT_CHECK_FAULT(rt, a, AML_E_BANK_LEN, rec, AML_WITHDRAW, 5, 1, 2);
    LT_CHECK_FAULT(rt, a, AML_E_BANK_LEN, rec, AML_BALANCE, 0);
    LT_CHECK_FAULT(rt, a, AML_E_BANK_LEN, rec, AML_LOG);
    CHECK_EQ(lt_faults[0].code, 0x0601);
    CHECK_EQ(balance_of(rt, a), 10);
    LT_CHECK_FAULT(rt, bank, AML_E_BANK_OP, rec, AML_DEPOSIT, 1, 2);
    LT_CHECK_FAULT(rt, bank, AML_E_BANK_LEN, rec, AML_TRANSFER, a, a, 1);
    am_ref x = LT_SPAWN(rt, AMB_TRANSFER, rec, a, a, 1, 1, 1);
    LT_CHECK_FAULT(rt, x, AML_E_BANK_UNEXPECTED, AML_OK);
    am_ref e = LT_SPAWN(rt, AMB_ACCOUNT_LOG, AML_LOG_DEPOSIT, 1, 1, 1, AM_NIL);
    LT_CHECK_FAULT(rt, e, AML_E_BANK_OP, rec, AML_LOG, 0);
    LT_CHECK_FAULT(rt, e, AML_E_BANK_BROKEN, rec, AML_LOG_GET, 1);
    CHECK_EQ(lt_count_for(rec), 0);
    lt_free(rt);
}

T_MAIN("lib-bank")
