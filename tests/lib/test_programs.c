/*
 * test_programs.c — the co-simulation test programs (tests/programs/) on the
 * reference runtime: the exact fault records they must produce. The lockstep
 * co-simulation (tests/sim/run.sh) then holds the hardware to the same
 * transactions, so these are also the hardware's expected faults.
 */
#include "lt.h"
#include "am_progset.h"
#include "prog_faults.h"

static am_counters run(const char *name, am_rt **out)
{
    am_counters c;
    memset(&c, 0, sizeof c);
    const am_program *p = am_program_find(name, NULL);
    am_rt *rt = lt_new();
    am_ref b = AM_NIL;
    if (p && am_spawn(rt, p->boot, 0, NULL, &b) == AM_OK && am_inject(rt, b, 0, NULL) == AM_OK)
        am_run(rt, 1000000);
    am_get_counters(rt, &c);
    *out = rt;
    return c;
}

TEST(faults_program_every_class_in_order)
{
    static const uint32_t want[FAULTS_OP_COUNT] = {
        AM_FAULT_TRAP_ILLEGAL, AM_FAULT_TRAP_MISALIGNED, AM_FAULT_TRAP_BUS,
        AM_FAULT_TRAP_EBREAK, AM_FAULT_FAIL, AM_FAULT_TOO_MANY_SENDS,
        AM_FAULT_TOO_MANY_CREATES, AM_FAULT_MSG_TOO_LONG, AM_FAULT_STATE_TOO_LONG,
        AM_FAULT_BAD_BEHAVIOR, AM_FAULT_BAD_BEHAVIOR, AM_FAULT_BAD_REF,
        AM_FAULT_BAD_REF, AM_FAULT_BAD_REF, AM_FAULT_WATCHDOG, AM_FAULT_TOO_MANY_SENDS,
        AM_FAULT_TOO_MANY_SENDS, AM_FAULT_WATCHDOG, AM_FAULT_TRAP_MISALIGNED,
        AM_FAULT_TRAP_MISALIGNED, AM_FAULT_TRAP_MISALIGNED, AM_FAULT_TRAP_MISALIGNED,
        AM_FAULT_TRAP_ILLEGAL, AM_FAULT_TRAP_EBREAK, AM_FAULT_TRAP_MISALIGNED,
        AM_FAULT_TRAP_BUS, AM_FAULT_TRAP_BUS,
        /* the firmware's registers and devices, then the watchdog again */
        AM_FAULT_TRAP_BUS, AM_FAULT_TRAP_BUS, AM_FAULT_TRAP_BUS, AM_FAULT_TRAP_BUS,
        AM_FAULT_TRAP_BUS, AM_FAULT_TRAP_BUS, AM_FAULT_TRAP_BUS, AM_FAULT_TRAP_BUS,
        AM_FAULT_TRAP_BUS, AM_FAULT_TRAP_BUS, AM_FAULT_STACK, AM_FAULT_WATCHDOG,
    };
    /* the operation that failed and the offending value (ANY: the victim's
     * created actor, SELF_NEXT: the victim's reference, next generation) */
    enum { ANY = 0xfffffff0u, SELF_NEXT = 0xfffffff1u };
    static const struct { uint32_t op; am_word value; } want_op[FAULTS_OP_COUNT] = {
        { AM_OP_ABORT, 0 }, { AM_OP_ABORT, 0 }, { AM_OP_ABORT, 0 }, { AM_OP_ABORT, 0 },
        { AM_OP_ABORT, 0x55u }, { AM_OP_SEND, ANY }, { AM_OP_CREATE, AM_BEH_SINK },
        { AM_OP_SEND, 9 }, { AM_OP_BECOME, 9 }, { AM_OP_CREATE, 0xffffu }, { AM_OP_BECOME, 0x7fu },
        { AM_OP_SEND, AM_NIL }, { AM_OP_SEND, 0x0001ffffu }, { AM_OP_SEND, SELF_NEXT },
        { AM_OP_RUN, 0 }, { AM_OP_SEND, ANY }, { AM_OP_SEND, ANY }, { AM_OP_RUN, 0 },
        { AM_OP_ABORT, 0 }, { AM_OP_ABORT, 0 }, { AM_OP_ABORT, 0 }, { AM_OP_ABORT, 0 },
        { AM_OP_ABORT, 0 }, { AM_OP_ABORT, 0 }, { AM_OP_ABORT, 0 },
        { AM_OP_ABORT, 0 }, { AM_OP_ABORT, 0 },
        { AM_OP_ABORT, 0 }, { AM_OP_ABORT, 0 }, { AM_OP_ABORT, 0 }, { AM_OP_ABORT, 0 },
        { AM_OP_ABORT, 0 }, { AM_OP_ABORT, 0 }, { AM_OP_ABORT, 0 }, { AM_OP_ABORT, 0 },
        { AM_OP_ABORT, 0 }, { AM_OP_ABORT, 0 }, { AM_OP_RUN, 0 }, { AM_OP_RUN, 0 },
    };
    am_rt *rt;
    am_counters c = run("faults", &rt);
    CHECK_EQ(lt_nfaults, FAULTS_OP_COUNT);
    for (int i = 0; i < FAULTS_OP_COUNT; i++) {
        CHECK_EQ(lt_faults[i].cause, want[i]);
        CHECK_EQ(lt_faults[i].op, want_op[i].op);
        if (want_op[i].value == SELF_NEXT)
            CHECK_EQ(lt_faults[i].value, lt_faults[i].target + 0x00010000u);
        else if (want_op[i].value == ANY)
            CHECK(lt_faults[i].value != AM_NIL && lt_faults[i].value != lt_faults[i].target);
        else
            CHECK_EQ(lt_faults[i].value, want_op[i].value);
        CHECK_EQ(lt_faults[i].len, 1);
        CHECK_EQ(lt_faults[i].msg[0], (am_word)(i + 1));       /* the whole event */
        CHECK_EQ(lt_faults[i].beh, AMB_PROG_FAULTS_VICTIM);
        CHECK_EQ(lt_faults[i].code, want[i] == AM_FAULT_FAIL ? 0x55u : 0u);
    }
    CHECK(strstr(lt_out, "MUST NOT APPEAR") == NULL);           /* no staged print */
    CHECK(strstr(lt_out, "faults: the machine went on after every fault\n") != NULL);
    CHECK_EQ(c.live, 3);                       /* console, boot, victim: no create */
    CHECK_EQ(c.aborts, FAULTS_OP_COUNT);
    CHECK_EQ(c.dispatches, c.commits + c.aborts);
    CHECK_EQ(c.queue_len, 0);
    lt_free(rt);
}

TEST(flood_program_hits_queue_full_and_drains)
{
    am_rt *rt;
    am_counters c = run("flood", &rt);
    CHECK(lt_nfaults > 0);
    for (int i = 0; i < lt_nfaults && i < LT_MAX_FAULTS; i++)
        CHECK_EQ(lt_faults[i].cause, AM_FAULT_QUEUE_FULL);
    CHECK_EQ(c.queue_high_water, 63);          /* filled exactly, never beyond */
    CHECK_EQ(c.queue_len, 0);
    CHECK_EQ(c.dispatches, c.commits + c.aborts);
    lt_free(rt);
}

TEST(fill_program_hits_table_full)
{
    am_rt *rt;
    am_counters c = run("fill", &rt);
    CHECK_EQ(lt_nfaults, 1);
    CHECK_EQ(lt_faults[0].cause, AM_FAULT_TABLE_FULL);
    CHECK_EQ(c.live, 127);                     /* the failed step's creates undone */
    CHECK_EQ(c.queue_len, 0);
    lt_free(rt);
}

TEST(selfloop_program)
{
    am_rt *rt;
    am_counters c = run("selfloop", &rt);
    CHECK_EQ(lt_nfaults, 0);
    CHECK_EQ(c.dispatches, 1002);              /* boot + 1001 steps (1000..0) */
    CHECK_EQ(c.queue_high_water, 1);
    lt_free(rt);
}

T_MAIN("lib-programs")
