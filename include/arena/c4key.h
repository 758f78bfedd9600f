/*
 * c4key.h - the key a Connect-4 position is filed under, in the solver's
 * table (c4tt.h) and in the opening book (c4book.h).
 *
 * Representation: for a node (cur, mask) on the layout of connect4.h, cur
 * the discs of the side to move and mask every disc, the key is cur + mask:
 * within a column, the column's discs plus a carry bit on top of them. It is
 * unique and below 2^C4KEY_BITS. The mirror image (columns reversed) has the
 * key c4key_mirror(key); the canonical key is the smaller of the two, so a
 * position and its mirror image share it and no two other positions do.
 */
#ifndef ARENA_C4KEY_H
#define ARENA_C4KEY_H

#include <stdint.h>
#include "arena/connect4.h"

#define C4KEY_BITS (C4_WIDTH * C4_COL_BITS)
#define C4KEY_MASK ((UINT64_C(1) << C4KEY_BITS) - 1)

/* The key with the columns in reverse order: the mirror image's key. Three
 * column swaps done at once (no loop: the solver runs this for every node
 * and child). */
#define C4KEY_COL0 ((UINT64_C(1) << C4_COL_BITS) - 1)
_Static_assert(C4_WIDTH == 7, "c4key_mirror swaps columns 0-6, 1-5 and 2-4");
static inline uint64_t c4key_mirror(uint64_t k)
{
    return ((k & C4KEY_COL0) << 6 * C4_COL_BITS) | ((k >> 6 * C4_COL_BITS) & C4KEY_COL0)
           | ((k & C4KEY_COL0 << C4_COL_BITS) << 4 * C4_COL_BITS)
           | ((k >> 4 * C4_COL_BITS) & C4KEY_COL0 << C4_COL_BITS)
           | ((k & C4KEY_COL0 << 2 * C4_COL_BITS) << 2 * C4_COL_BITS)
           | ((k >> 2 * C4_COL_BITS) & C4KEY_COL0 << 2 * C4_COL_BITS)
           | (k & C4KEY_COL0 << 3 * C4_COL_BITS);
}

/* The canonical key of (cur, mask) (cur a subset of mask); *mirrored is 1
 * when it is the mirror image's key, so a move column c read from an entry
 * under it is column C4_WIDTH - 1 - c of this position. */
static inline uint64_t c4key_canonical(uint64_t cur, uint64_t mask, int *mirrored)
{
    uint64_t key = cur + mask;
    uint64_t m = c4key_mirror(key);
    *mirrored = m < key;
    return *mirrored ? m : key;
}

/* The canonical key of p (a valid position: disjoint discs, every one on the
 * layout's board cells). */
uint64_t c4key_of(const struct c4_pos *p);

#endif
