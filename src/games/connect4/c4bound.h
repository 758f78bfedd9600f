/*
 * c4bound.h - bounds on a Connect-4 position's score (c4score.h) that need
 * no search, for the solver (c4solver.h) to narrow its window with.
 *
 * Inline only (no .c): the solver calls them at every node.
 */
#ifndef ARENA_C4BOUND_H
#define ARENA_C4BOUND_H

#include "arena/c4score.h"
#include "arena/connect4.h"

/* The cells of rows 2, 4 and 6 counted from the bottom (bits 1, 3, 5 of
 * every column): the cells claimeven gives the second player. */
#define C4BOUND_EVEN_ROWS (C4_BOTTOM_ROW * UINT64_C(0x2a))
/* No bound: above every score. */
#define C4BOUND_NONE C4SCORE_MAX

/* The first cell of every line of four along shift s that discs fill (the
 * lowest bit of the four). */
static inline uint64_t c4bound_fours(uint64_t discs, int s)
{
    uint64_t m = discs & (discs >> s);
    return m & (m >> 2 * s);
}

/* The cells strictly above x's cells in their columns. */
static inline uint64_t c4bound_above(uint64_t x)
{
    uint64_t a = 0;
    /* A cell of row r has cells k rows above it only when r + k stays on
     * the board (a plain shift would run on into the next column). */
    for (int k = 1; k < C4_HEIGHT; k++)
        a |= (x & (C4_BOTTOM_ROW * ((UINT64_C(1) << (C4_HEIGHT - k)) - 1))) << k;
    return a;
}

/* The cells of the fours along s whose first cells are first. */
static inline uint64_t c4bound_four_cells(uint64_t first, int s)
{
    return first | first << s | first << 2 * s | first << 3 * s;
}

/* An upper bound on the score of (cur, mask) for the side to move (cur its
 * discs, mask every disc), which has moved as often as the opponent: the
 * opponent's claimeven. The opponent answers every disc we drop on row 1,
 * 3 or 5 with one on top of it, and every disc we drop on a cell of row 2,
 * 4 or 6 that is playable now with one on another such cell (there is an
 * even number of them, the discs being even). So the opponent gets at least
 * `theirs` (its discs and the even-row cells not playable now), we at most
 * the rest, `mine`, and every cell of `theirs` is filled before any cell
 * above it. A four of ours above a four of theirs (same columns, our cell
 * higher than theirs in each) is then never completed first. When every four
 * of ours is such, we never win: the score is at most 0, and when they have
 * a four, negative: they complete one by the time its last cell is filled,
 * and whichever cell that is, the cells above it in its column are still
 * empty, so at most 37 + row discs are on the board (row 0-based), a win
 * with their (44 - discs) / 2-th disc from the end. C4BOUND_NONE when we may
 * win. */
static inline int c4bound_evens(uint64_t cur, uint64_t mask)
{
    uint64_t theirs = (cur ^ mask)
                      | (C4BOUND_EVEN_ROWS & ~mask & ~c4_playable_cells(mask));
    uint64_t mine = C4_BOARD_MASK & ~theirs;
    if (c4bound_fours(mine, 1))
        return C4BOUND_NONE;   /* a column of ours is never below a four of theirs */
    uint64_t mh = c4bound_fours(mine, C4_COL_BITS), m1 = c4bound_fours(mine, C4_COL_BITS - 1);
    uint64_t m2 = c4bound_fours(mine, C4_COL_BITS + 1);
    /* Nothing is below the bottom row: the commonest refusal, and the
     * cheapest. */
    if ((mh | m2) & C4_BOTTOM_ROW)
        return C4BOUND_NONE;
    uint64_t h = c4bound_fours(theirs, C4_COL_BITS);
    uint64_t d1 = c4bound_fours(theirs, C4_COL_BITS - 1);
    uint64_t d2 = c4bound_fours(theirs, C4_COL_BITS + 1);
    /* A four of theirs below one of ours on the same columns, as the first
     * cells of ours see it: any four of theirs starting lower in the same
     * column is below a horizontal or up-diagonal four of ours when its own
     * highest cell there is (a horizontal one's row, a down-diagonal's first
     * cell, an up-diagonal's first cell plus 3 for a horizontal of ours); a
     * down-diagonal of ours falls to the right by 3, so only their
     * down-diagonals and their horizontals 3 rows lower are below it. */
    uint64_t low_h = h & (C4_BOTTOM_ROW * ((UINT64_C(1) << (C4_HEIGHT - 3)) - 1));
    /* The cheap refusal first: most of our fours have no four of theirs
     * on their columns. */
    if (((mh | m2) && !(h | d1 | d2)) || (m1 && !(d1 | low_h)))
        return C4BOUND_NONE;
    if ((mh & ~c4bound_above(h | d1 | d2 << 3)) | (m2 & ~c4bound_above(h | d1 | d2))
        | (m1 & ~c4bound_above(d1 | low_h << 3)))
        return C4BOUND_NONE;
    if (!(h | d1 | d2))
        return 0;
    /* The row of the cell completing their first four is at most the
     * lowest row of a horizontal four of theirs, and at most the highest
     * empty cell of any diagonal one. */
    uint64_t diag = (c4bound_four_cells(d1, C4_COL_BITS - 1)
                     | c4bound_four_cells(d2, C4_COL_BITS + 1)) & ~mask;
    int row = C4_HEIGHT - 1;
    for (int r = 0; r < row; r++)
        if (h & (C4_BOTTOM_ROW << r))
            row = r;
    for (int r = 0; r < row; r++)
        if (diag && !(diag & ~(C4_BOTTOM_ROW * ((UINT64_C(1) << (r + 1)) - 1))))
            row = r;
    return -(C4_HEIGHT + 1 - row) / 2;
}

#endif
