/*
 * clock.h - CPU and wall clocks.
 *
 * The seed asks for CPU time, not elapsed time: clock_cpu_ns reads
 * CLOCK_PROCESS_CPUTIME_ID (all threads of this process). clock_wall_ns reads
 * CLOCK_MONOTONIC for deadlines and rates.
 */
#ifndef ARENA_CLOCK_H
#define ARENA_CLOCK_H

#include <stdint.h>

uint64_t clock_cpu_ns(void);
uint64_t clock_wall_ns(void);

#endif
