/*
 * rng.h - a small seeded random number generator (splitmix64).
 *
 * Deterministic across platforms: the same seed gives the same sequence, so a
 * random player or a random opening is reproducible from its seed. The state
 * lives in the caller's struct; there is no global generator.
 */
#ifndef ARENA_RNG_H
#define ARENA_RNG_H

#include <stdint.h>

struct rng { uint64_t s; };

void rng_seed(struct rng *r, uint64_t seed);
uint64_t rng_next(struct rng *r);
/* Uniform in [0, n); n > 0. */
uint32_t rng_below(struct rng *r, uint32_t n);
/* Uniform in [0, 1), a multiple of 2^-53: for probabilities. */
double rng_unit(struct rng *r);

#endif
