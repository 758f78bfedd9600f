/*
 * check.h - ARENA_HOT_ASSERT, an assert for the contracts of hot loops (the
 * solver's per node, a table's per probe): checked in the sanitizer build
 * (make SAN=1 defines ARENA_DEEP_CHECKS), compiled out of the release build,
 * where such checks cost several percent of the search's instructions
 * (measured with cachegrind on the solver: 5.8%). Contracts checked once a
 * call use plain assert, on in every build.
 */
#ifndef ARENA_CHECK_H
#define ARENA_CHECK_H

#include <assert.h>

#ifdef ARENA_DEEP_CHECKS
#define ARENA_HOT_ASSERT(x) assert(x)
#else
#define ARENA_HOT_ASSERT(x) ((void)0)
#endif

#endif
