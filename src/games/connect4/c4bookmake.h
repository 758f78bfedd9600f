/*
 * c4bookmake.h - `engine book`: makes the opening book (c4book.h) of every
 * position near a root with the solver.
 */
#ifndef ARENA_C4BOOKMAKE_H
#define ARENA_C4BOOKMAKE_H

#include <stddef.h>
#include <stdint.h>
#include "arena/c4solver.h"

/* The deepest book c4bookmake_run makes: the number of positions grows
 * about fourfold per disc, and their solves dominate. */
#define C4BOOKMAKE_MAX_DEPTH 12

/* What c4bookmake_run did. */
struct c4bookmake_stats {
    size_t positions;   /* lines written */
    size_t solved;      /* positions the solver searched (the deepest ones) */
    uint64_t nodes;     /* the solver's nodes over those searches */
};

/* Makes the book of every position reachable from root (the position after
 * root_moves, which must be valid and not finished) in at most depth moves
 * (0 <= depth <= C4BOOKMAKE_MAX_DEPTH): the deepest positions are solved
 * with s (its table kept from one to the next), the others are the best of
 * their moves' scores, as negamax would have them. Writes the book text in
 * book order (fewer moves first, then by move string) into *text (malloc'd,
 * NUL-terminated, caller frees; *len its length). Returns 0, or -1 when out
 * of memory or when s's budget ran out (nothing to free). st, when not
 * NULL, gets the figures either way. */
int c4bookmake_run(struct c4s *s, const char *root_moves, int depth, char **text, size_t *len,
                   struct c4bookmake_stats *st);

#endif
