/*
 * tt.h - the transposition table of the search.
 *
 * A power-of-two array of 16-byte entries, indexed by the low bits of a
 * mixed key and verified with the full key. One entry per slot, always
 * replaced: iterative deepening refills it every iteration, and the search
 * only trusts an entry searched to exactly the depth it needs (see search.h),
 * so keeping old deep entries would buy nothing.
 */
#ifndef ARENA_TT_H
#define ARENA_TT_H

#include <stddef.h>
#include <stdint.h>
#include "arena/limits.h"   /* TT_DEFAULT_MB */

#define TT_MIN_BYTES  (1u << 16)

enum tt_bound { TT_NONE = 0, TT_EXACT = 1, TT_LOWER = 2, TT_UPPER = 3 };

struct tt_entry {
    uint64_t key;
    int32_t value;
    int16_t move;     /* best move found, -1 when none */
    uint8_t depth;
    uint8_t bound;    /* enum tt_bound; TT_NONE marks an empty slot */
};

struct tt {
    struct tt_entry *slot;
    size_t mask;      /* slots - 1 */
    unsigned shift;   /* 64 - log2(slots): the index is the mixed key's top bits */
};

/* Allocates the largest power-of-two table that fits in bytes (at least
 * TT_MIN_BYTES), cleared. Returns 0, or -1 when out of memory. */
int tt_init(struct tt *t, size_t bytes);
void tt_free(struct tt *t);
void tt_clear(struct tt *t);

/* The entry for key, or NULL when the slot holds another position. */
const struct tt_entry *tt_probe(const struct tt *t, uint64_t key);
void tt_store(struct tt *t, uint64_t key, int value, int move, int depth, int bound);

#endif
