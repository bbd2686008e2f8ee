/*
 * link_time.h — the clock the link's tests wait by: milliseconds of
 * CLOCK_MONOTONIC, and a sleep of as many.
 */
#ifndef LINK_TIME_H
#define LINK_TIME_H

#include <stdint.h>
#include <time.h>

static inline uint64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

static inline void sleep_ms(unsigned ms)
{
    struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000 };
    nanosleep(&ts, NULL);
}

#endif
