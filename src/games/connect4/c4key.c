/* c4key.c - the key of a Connect-4 position (c4key.h). */
#include <assert.h>
#include "arena/c4key.h"

uint64_t c4key_of(const struct c4_pos *p)
{
    assert(p->to_move <= 1 && p->moves <= C4_CELLS);
    assert((p->disc[0] & p->disc[1]) == 0);
    assert(((p->disc[0] | p->disc[1]) & ~C4_BOARD_MASK) == 0);
    int mirrored;
    uint64_t key = c4key_canonical(p->disc[p->to_move], p->disc[0] | p->disc[1], &mirrored);
    assert(key <= C4KEY_MASK);
    return key;
}
