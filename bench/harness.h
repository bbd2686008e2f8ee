/*
 * harness.h — what the two C benchmark drivers share (bench/am_bench.c, our
 * runtime; bench/c/savina.c, the bare-C loop): the clock, the command-line
 * numbers and the expected answers, so both check the same figures. The
 * includer defines fail(const char *fmt, ...) before including it.
 */
#ifndef BENCH_HARNESS_H
#define BENCH_HARNESS_H

#include <stdint.h>
#include <stdlib.h>
#include <time.h>

static void fail(const char *fmt, ...);

static inline uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* argv[i] as a 32-bit number, dflt when absent */
static inline uint32_t arg(int argc, char **argv, int i, uint32_t dflt)
{
    if (i >= argc) return dflt;
    char *end;
    unsigned long v = strtoul(argv[i], &end, 0);
    if (*end || v > 0xffffffffu) fail("bad number '%s'", argv[i]);
    return (uint32_t)v;
}

/* Fibonacci: the calls (actors) fib(n) makes, and its value (mod 2^32) */
static inline uint64_t fib_calls(uint32_t n) { return n < 2 ? 1 : 1 + fib_calls(n - 1) + fib_calls(n - 2); }
static inline uint32_t fib_value(uint32_t n)
{
    uint32_t a = 0, b = 1;
    for (uint32_t i = 0; i < n; i++) { uint32_t t = a + b; a = b; b = t; }
    return a;
}

#endif /* BENCH_HARNESS_H */
