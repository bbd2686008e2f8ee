/*
 * test_bench_hw.c — the benchmark workloads' boot programs (bench/wl_boot.c,
 * bench/programs.def) on the reference runtime with the hardware's bounds:
 * each must check its answer on the machine and print "bench NAME: ok",
 * without a fault. The lockstep co-simulation (tests/sim/run.sh) then holds
 * the SoC to the same transactions; bench/hw.sh times them.
 */
#include "lt.h"
#include "am_progset.h"

static void run_bench(int *t_failed_, const char *name, const char *want_line)
{
    const am_program *p = am_program_find(name, NULL);
    CHECK(p != NULL);
    if (!p) return;
    am_rt *rt = lt_new();
    am_ref b = AM_NIL;
    CHECK_EQ(am_spawn(rt, p->boot, 0, NULL, &b), AM_OK);
    CHECK_EQ(am_inject(rt, b, 0, NULL), AM_OK);
    CHECK_EQ(am_run(rt, 1000000), AM_OK);
    am_counters c;
    am_get_counters(rt, &c);
    CHECK_EQ(lt_nfaults, 0);
    CHECK_EQ(c.aborts, 0);
    CHECK_EQ(c.queue_len, 0);
    CHECK(c.dispatches > 200);
    CHECK(strstr(lt_out, want_line) != NULL);
    CHECK(strstr(lt_out, "WRONG") == NULL);
    if (!strstr(lt_out, want_line)) fprintf(stderr, "  %s printed: %s\n", name, lt_out);
    lt_free(rt);
}

TEST(bench_pingpong) { run_bench(t_failed_, "bench-pingpong", "bench pingpong: ok 1500 round trips\n"); }
TEST(bench_ring)     { run_bench(t_failed_, "bench-ring", "bench ring: ok 50 = node where the token stopped"); }
TEST(bench_counting) { run_bench(t_failed_, "bench-counting", "bench counting: ok 3000 increments counted\n"); }
TEST(bench_fjcreate) { run_bench(t_failed_, "bench-fjcreate", "bench fjcreate: ok "); }
TEST(bench_fib)      { run_bench(t_failed_, "bench-fib", "bench fib: ok 34 = fib(9)"); }
TEST(bench_big)      { run_bench(t_failed_, "bench-big", "bench big: ok 32 nodes done"); }
TEST(bench_bank)     { run_bench(t_failed_, "bench-bank", "bench bank: ok 600 transfers acknowledged\n"); }

T_MAIN("lib-bench-hw")
