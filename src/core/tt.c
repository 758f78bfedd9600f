/* tt.c - the transposition table (tt.h). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "arena/tt.h"

/* The kernel's huge page on x86-64 and arm64 (with 4 KiB base pages). */
#define TT_HUGE_PAGE ((uintptr_t)2 << 20)

/* Keys from games may have structure in their low bits (the Connect-4 key
 * does); a multiplicative mix spreads them over the index bits. */
static size_t tt_index(const struct tt *t, uint64_t key)
{
    return (size_t)((key * UINT64_C(0x9E3779B97F4A7C15)) >> t->shift);
}

/* Asks for huge pages under the table's whole 2 MiB pages. A search
 * touches its table all over: with 4 KiB pages a 32 MiB table costs up to
 * 8,192 page faults per process, which on a virtual machine dominate a
 * one-move engine's time (measured: 3,366 faults, 50 of a move's 62 ms).
 * Advice only: where the kernel has no transparent huge pages it is
 * ignored, and the memory stays calloc's (zeroed, freed by free). */
static void advise_huge(void *p, size_t size)
{
    uintptr_t start = ((uintptr_t)p + TT_HUGE_PAGE - 1) & ~(TT_HUGE_PAGE - 1);
    uintptr_t end = ((uintptr_t)p + size) & ~(TT_HUGE_PAGE - 1);
    if (end > start)
        (void)madvise((void *)start, end - start, MADV_HUGEPAGE);
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
    advise_huge(t->slot, slots * sizeof(struct tt_entry));
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
