/* tt.c - the transposition table (tt.h). */
#include <stdlib.h>
#include <string.h>
#include "arena/tt.h"

/* Keys from games may have structure in their low bits (the Connect-4 key
 * does); a multiplicative mix spreads them over the index bits. */
static size_t tt_index(const struct tt *t, uint64_t key)
{
    return (size_t)((key * UINT64_C(0x9E3779B97F4A7C15)) >> t->shift);
}

int tt_init(struct tt *t, size_t bytes)
{
    size_t slots = 1;
    unsigned bits = 0;
    if (bytes < TT_MIN_BYTES)
        bytes = TT_MIN_BYTES;
    while (slots * 2 * sizeof(struct tt_entry) <= bytes) {
        slots *= 2;
        bits++;
    }
    t->shift = 64 - bits;
    t->slot = calloc(slots, sizeof(struct tt_entry));
    if (!t->slot)
        return -1;
    t->mask = slots - 1;
    return 0;
}

void tt_free(struct tt *t)
{
    free(t->slot);
    t->slot = NULL;
}

void tt_clear(struct tt *t)
{
    memset(t->slot, 0, (t->mask + 1) * sizeof(struct tt_entry));
}

const struct tt_entry *tt_probe(const struct tt *t, uint64_t key)
{
    const struct tt_entry *e = &t->slot[tt_index(t, key)];
    return (e->bound != TT_NONE && e->key == key) ? e : NULL;
}

void tt_store(struct tt *t, uint64_t key, int value, int move, int depth, int bound)
{
    struct tt_entry *e = &t->slot[tt_index(t, key)];
    e->key = key;
    e->value = value;
    e->move = (int16_t)move;
    e->depth = (uint8_t)depth;
    e->bound = (uint8_t)bound;
}
