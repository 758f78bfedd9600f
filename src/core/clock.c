/* clock.c - CPU time of this process and a monotonic wall clock (clock.h). */
#define _POSIX_C_SOURCE 200809L
#include <time.h>
#include "arena/clock.h"

#define NS_PER_S UINT64_C(1000000000)

static uint64_t read_clock(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (uint64_t)ts.tv_sec * NS_PER_S + (uint64_t)ts.tv_nsec;
}

uint64_t clock_cpu_ns(void)
{
    return read_clock(CLOCK_PROCESS_CPUTIME_ID);
}

uint64_t clock_wall_ns(void)
{
    return read_clock(CLOCK_MONOTONIC);
}
