/*
 * test_watchdog.c — the reference runtime's watchdog (docs/semantics.md,
 * "Watchdog"): a program's behavior that does not return within
 * am_config.watchdog_ms of CPU time aborts with WATCHDOG, in bounded time,
 * with nothing of its staged effects visible; the machine goes on; a
 * behavior under the budget commits; am_ask survives a looping target;
 * am_step_abort gives the hardware's verdict without running the behavior.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "am_rt.h"
#include "t.h"

enum { B_SPIN = AM_BEH_FIRST_USER, B_STAGE_SPIN, B_NESTED, B_BUSY, B_COUNT, B_ECHO, NBEH };

static void spin(void)
{
    volatile am_word s = 0;
    while (s == 0) { }
}

static void spin_beh(am_ctx *ctx) { (void)ctx; spin(); }

/* stages a create, a send and a become, then spins */
static void stage_spin_beh(am_ctx *ctx)
{
    am_ref c = AM_CREATE(ctx, B_COUNT, 1);
    AM_SEND(ctx, c, 1);
    AM_BECOME(ctx, B_COUNT, 42);
    spin();
}

__attribute__((noinline)) static am_word deep(volatile am_word *p, am_word n)
{
    if (n == 0) { while (*p == 0) { } return *p; }
    return deep(p, n - 1) + 1;
}

static void nested_beh(am_ctx *ctx)
{
    volatile am_word z = 0;
    AM_SEND(ctx, AM_CONSOLE, 0);
    (void)deep(&z, 20);
}

/* [ms]: busy for ms milliseconds of CPU time, then counts itself */
static void busy_beh(am_ctx *ctx)
{
    struct timespec t0, t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
    do clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    while ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 < (long)am_msg(ctx, 0));
    AM_BECOME(ctx, B_BUSY, am_state(ctx, 0) + 1);
}

static void count_beh(am_ctx *ctx) { AM_BECOME(ctx, B_COUNT, am_state(ctx, 0) + 1); }

/* [cust, x] -> cust gets [x] */
static void echo_beh(am_ctx *ctx) { AM_SEND(ctx, am_msg(ctx, 0), am_msg(ctx, 1)); }

static const am_behavior_desc tab[NBEH] = {
    AM_BUILTIN_BEHAVIORS,
    { "SPIN", spin_beh }, { "STAGE_SPIN", stage_spin_beh }, { "NESTED", nested_beh },
    { "BUSY", busy_beh }, { "COUNT", count_beh }, { "ECHO", echo_beh },
};

static am_fault_record g_faults[16];
static int g_nfaults;
static void on_fault(void *user, const am_fault_record *r)
{
    (void)user;
    if (g_nfaults < 16) g_faults[g_nfaults] = *r;
    g_nfaults++;
}

static am_rt *new_rt(uint32_t watchdog_ms)
{
    am_config cfg;
    am_config_default(&cfg);
    cfg.behaviors = tab;
    cfg.nbehaviors = NBEH;
    cfg.fault_handler = AM_NIL;
    cfg.on_fault = on_fault;
    cfg.watchdog_ms = watchdog_ms;
    g_nfaults = 0;
    am_rt *rt = NULL;
    if (am_rt_new(&cfg, &rt) != AM_OK) { fprintf(stderr, "am_rt_new failed\n"); exit(2); }
    return rt;
}

static am_ref spawn(am_rt *rt, am_beh b)
{
    am_ref r = AM_NIL;
    if (am_spawn(rt, b, 0, NULL, &r) != AM_OK) { fprintf(stderr, "spawn failed\n"); exit(2); }
    return r;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

TEST(infinite_loop_aborts_with_watchdog_in_bounded_time)
{
    am_rt *rt = new_rt(100);
    am_ref s = spawn(rt, B_SPIN), c = spawn(rt, B_COUNT);
    CHECK_EQ(am_inject(rt, s, 0, NULL), AM_OK);
    CHECK_EQ(am_inject(rt, c, 0, NULL), AM_OK);   /* queued behind the loop */
    double t0 = now();
    CHECK_EQ(am_run(rt, 0), AM_OK);
    double secs = now() - t0;
    CHECK(secs >= 0.09 && secs < 2.0);
    CHECK_EQ(g_nfaults, 1);
    CHECK_EQ(g_faults[0].cause, AM_FAULT_WATCHDOG);
    CHECK_EQ(g_faults[0].target, s);
    am_counters k;
    am_get_counters(rt, &k);
    CHECK_EQ(k.aborts, 1u);
    CHECK_EQ(k.commits, 1u);                       /* the counter ran after it */
    am_word st[AM_MAX_STATE_WORDS];
    am_beh b;
    CHECK_EQ(am_peek(rt, c, &b, st), AM_OK);
    CHECK_EQ(st[0], 1u);
    am_rt_free(rt);
}

TEST(staged_effects_of_a_looping_behavior_stay_invisible)
{
    am_rt *rt = new_rt(100);
    am_ref s = spawn(rt, B_STAGE_SPIN);
    am_counters k0, k1;
    am_get_counters(rt, &k0);
    CHECK_EQ(am_inject(rt, s, 0, NULL), AM_OK);
    CHECK_EQ(am_run(rt, 0), AM_OK);
    CHECK_EQ(g_nfaults, 1);
    CHECK_EQ(g_faults[0].cause, AM_FAULT_WATCHDOG);
    am_get_counters(rt, &k1);
    CHECK_EQ(k1.live, k0.live);                     /* the create is gone */
    CHECK_EQ(k1.free, k0.free - 1);                 /* its never-used slot stays used */
    am_word st[AM_MAX_STATE_WORDS];
    am_beh b;
    CHECK_EQ(am_peek(rt, s, &b, st), AM_OK);
    CHECK_EQ(b, (am_beh)B_STAGE_SPIN);              /* no become */
    /* dead, with the generation the aborted CREATE gave it (the next
     * collection frees it): the next create gets the slot after it */
    am_ref c = spawn(rt, B_COUNT);
    CHECK_EQ(c & 0xffffu, (s & 0xffffu) + 2);
    am_rt_free(rt);
}

TEST(loop_in_a_nested_call_aborts)
{
    am_rt *rt = new_rt(100);
    am_ref s = spawn(rt, B_NESTED);
    CHECK_EQ(am_inject(rt, s, 0, NULL), AM_OK);
    CHECK_EQ(am_run(rt, 0), AM_OK);
    CHECK_EQ(g_nfaults, 1);
    CHECK_EQ(g_faults[0].cause, AM_FAULT_WATCHDOG);
    am_rt_free(rt);
}

TEST(work_under_the_budget_commits)
{
    am_rt *rt = new_rt(300);
    am_ref b = spawn(rt, B_BUSY);
    am_word ms = 150;
    CHECK_EQ(am_inject(rt, b, 1, &ms), AM_OK);
    CHECK_EQ(am_run(rt, 0), AM_OK);
    CHECK_EQ(g_nfaults, 0);
    am_counters k;
    am_get_counters(rt, &k);
    CHECK_EQ(k.commits, 1u);
    am_rt_free(rt);
}

TEST(ask_survives_a_looping_target)
{
    am_rt *rt = new_rt(100);
    am_ref s = spawn(rt, B_SPIN), e = spawn(rt, B_ECHO);
    am_word req[1] = { 7 }, reply[AM_MAX_MSG_WORDS];
    uint32_t n = 0;
    CHECK_EQ(am_ask(rt, s, 1, req, 0, reply, &n), AM_E_NO_REPLY);
    CHECK_EQ(g_nfaults, 1);
    CHECK_EQ(g_faults[0].cause, AM_FAULT_WATCHDOG);
    CHECK_EQ(am_ask(rt, e, 1, req, 0, reply, &n), AM_OK);   /* and the next ask works */
    CHECK_EQ(n, 1u);
    CHECK_EQ(reply[0], 7u);
    am_rt_free(rt);
}

TEST(step_abort_gives_the_hardware_verdict_without_running)
{
    am_rt *rt = new_rt(0);                          /* off: a loop would hang */
    am_ref s = spawn(rt, B_SPIN);
    CHECK_EQ(am_inject(rt, s, 0, NULL), AM_OK);
    CHECK_EQ(am_step_abort(rt, AM_FAULT_WATCHDOG, 0), AM_OK);
    CHECK_EQ(g_nfaults, 1);
    CHECK_EQ(g_faults[0].cause, AM_FAULT_WATCHDOG);
    CHECK_EQ(am_step_abort(rt, AM_FAULT_WATCHDOG, 0), AM_E_EMPTY);
    CHECK_EQ(am_inject(rt, s, 0, NULL), AM_OK);
    CHECK_EQ(am_step_abort(rt, 0, 0), AM_E_CONFIG);
    CHECK_EQ(am_step_abort(rt, AM_FAULT_COUNT_, 0), AM_E_CONFIG);
    CHECK_EQ(am_step_abort(rt, AM_FAULT_WATCHDOG, 5), AM_E_CONFIG);   /* more than MAX_CREATES */
    /* the CREATEs the hardware made before its verdict take their slots,
     * which the abort leaves dead at their new generations: the next
     * actor gets the slot after them */
    CHECK_EQ(am_step_abort(rt, AM_FAULT_STACK, 2), AM_OK);
    CHECK_EQ(g_faults[1].cause, AM_FAULT_STACK);
    CHECK_EQ(spawn(rt, B_COUNT) & 0xffffu, (s & 0xffffu) + 3);
    /* a retried attempt the reference did not run: the slots its CREATEs
     * took are left dead before the collection, which frees them */
    CHECK_EQ(am_collect_on_demand(rt, 5), AM_E_CONFIG);
    CHECK_EQ(am_collect_on_demand(rt, 1), AM_OK);
    am_counters k;
    am_get_counters(rt, &k);
    CHECK_EQ(k.gc_runs, 1u);
    /* the lowest freed slot first: 2, which the verdict's CREATE left dead
     * at generation 1, comes back at 2 */
    CHECK_EQ(spawn(rt, B_COUNT), 0x00020002u);
    am_rt_free(rt);
}

TEST(watchdog_bounds_are_checked)
{
    am_config cfg;
    am_config_default(&cfg);
    CHECK_EQ(cfg.watchdog_ms, 1000u);
    cfg.watchdog_ms = AM_WATCHDOG_MS_MAX + 1;
    am_rt *rt = NULL;
    CHECK_EQ(am_rt_new(&cfg, &rt), AM_E_CONFIG);
    cfg.watchdog_ms = AM_WATCHDOG_MS_MAX;
    CHECK_EQ(am_rt_new(&cfg, &rt), AM_OK);
    am_rt_free(rt);
}

T_MAIN("host-watchdog")
