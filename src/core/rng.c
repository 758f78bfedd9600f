/* rng.c - splitmix64 (Steele, Lea, Flood): tiny, fast, every seed is good. */
#include "arena/rng.h"

void rng_seed(struct rng *r, uint64_t seed)
{
    r->s = seed;
}

uint64_t rng_next(struct rng *r)
{
    uint64_t z = (r->s += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

uint32_t rng_below(struct rng *r, uint32_t n)
{
    /* Lemire's multiply-shift: unbiased enough for n far below 2^32, and
     * the same result on every platform. */
    return (uint32_t)(((rng_next(r) >> 32) * (uint64_t)n) >> 32);
}

double rng_unit(struct rng *r)
{
    /* The top 53 bits fill a double's mantissa exactly. */
    return (double)(rng_next(r) >> 11) * 0x1.0p-53;
}
