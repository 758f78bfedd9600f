/*
 * connect4.h - the Connect-4 bitboard shared by the two rule sets:
 *   connect4     the classic game: four in a row wins, a full board draws;
 *   maxconnect4  the Max-Connect4 seed: play goes on until the board is full
 *                (42 discs); each line of four (all four directions,
 *                overlapping lines counted separately) is a point; most
 *                points wins.
 *
 * Representation: one 64-bit mask of discs per player. Bit col*7 + row holds
 * the cell of column col (0 = left) and row row (0 = bottom); each column has
 * a seventh, always-empty sentinel bit on top, so that shifting a line of four
 * never wraps from one column into the next:
 *
 *      .  .  .  .  .  .  .     sentinel (bits 6, 13, ... 48: always 0)
 *      5 12 19 26 33 40 47     row 6 (top; first line of a board file)
 *      4 11 18 25 32 39 46
 *      3 10 17 24 31 38 45
 *      2  9 16 23 30 37 44
 *      1  8 15 22 29 36 43
 *      0  7 14 21 28 35 42     row 1 (bottom)
 *
 * Lines of four run along the shifts 1 (vertical), 7 (horizontal), 6 (down-
 * right diagonal) and 8 (up-right diagonal). The key of a position is
 * disc[to_move] + (disc[0] | disc[1]), unique on this layout (Pons).
 *
 * Board file (both rule sets): six lines of seven digits, 0 empty, 1 and 2 the
 * players' discs, top row first, then one line with the player to move (1 or
 * 2). Discs rest on discs; the player to move has no more discs than the
 * other, and at most one fewer.
 */
#ifndef ARENA_CONNECT4_H
#define ARENA_CONNECT4_H

#include <stdint.h>
#include "arena/game.h"

#define C4_WIDTH   7
#define C4_HEIGHT  6
#define C4_CELLS   (C4_WIDTH * C4_HEIGHT)
#define C4_COL_BITS (C4_HEIGHT + 1)          /* a column plus its sentinel */

/* Bit helpers on the layout above. */
#define C4_BIT(col, row)   (UINT64_C(1) << ((col) * C4_COL_BITS + (row)))
#define C4_BOTTOM_ROW      UINT64_C(0x0040810204081)   /* row 0 of every column */
#define C4_BOARD_MASK      (C4_BOTTOM_ROW * ((UINT64_C(1) << C4_HEIGHT) - 1))

struct c4_pos {
    uint64_t disc[2];   /* disc[0]: player 1, disc[1]: player 2 */
    uint8_t to_move;    /* 0: player 1 to move, 1: player 2 */
    uint8_t moves;      /* discs on the board */
    uint8_t pad[6];     /* always 0 (positions compare with memcmp) */
};

/* Lines of four a player's discs hold, per kind, for evaluations. */
struct c4_lines {
    int four;    /* complete lines: points in Max-Connect4 */
    int three;   /* three discs and an empty cell, no opposing disc */
    int two;     /* two discs and two empty cells, no opposing disc */
};

extern const struct game game_connect4;
extern const struct game game_maxconnect4;

/* The empty board, player 1 to move. */
void c4_init(struct c4_pos *p);
/* 1 when col (0-based) is on the board and not full. */
int c4_can_play(const struct c4_pos *p, int col);
/* Drops a disc of the side to move into col; c4_can_play must hold. */
void c4_play(struct c4_pos *p, int col);
/* 0 empty, 1 or 2: the disc at (col, row), both 0-based, row 0 at the bottom. */
int c4_cell(const struct c4_pos *p, int col, int row);
/* Lines of four a bitboard holds (overlapping lines counted separately). */
int c4_count_fours(uint64_t discs);
/* 1 when the bitboard holds at least one line of four. */
int c4_has_four(uint64_t discs);
/* Counts mine's open lines (see struct c4_lines) with opp's discs blocking. */
void c4_count_lines(uint64_t mine, uint64_t opp, struct c4_lines *out);

/* c4_winning_cells along one direction, s the bit distance between two
 * neighbouring cells on it. Called with constant s, so the shifts are
 * immediates once inlined. */
static inline uint64_t c4_dir_threats(uint64_t discs, int s)
{
    uint64_t p = (discs << s) & (discs << 2 * s);
    uint64_t r = p & ((discs << 3 * s) | (discs >> s));
    p = (discs >> s) & (discs >> 2 * s);
    return r | (p & ((discs << s) | (discs >> 3 * s)));
}

/* The empty cells that would complete a line of four for discs (a subset of
 * occupied) if discs had a disc there: its threats, playable or not. Discs
 * rest on discs, so a vertical threat is only ever the cell on top of three.
 * Along the other directions a cell is a threat with three own discs beyond
 * it on one side, or two on one side and one on the other (Pons's winning
 * positions). Inline: the solver calls it at every node. */
static inline uint64_t c4_winning_cells(uint64_t discs, uint64_t occupied)
{
    uint64_t r = (discs << 1) & (discs << 2) & (discs << 3);
    r |= c4_dir_threats(discs, C4_COL_BITS);
    r |= c4_dir_threats(discs, C4_COL_BITS - 1);
    r |= c4_dir_threats(discs, C4_COL_BITS + 1);
    return r & (C4_BOARD_MASK ^ occupied);
}

/* The cells a disc can be dropped into now: the lowest empty cell of every
 * column that is not full (the bottom row added to the filled cells carries
 * to each column's lowest empty cell; a full column's carry lands in its
 * sentinel, which the mask drops). */
static inline uint64_t c4_playable_cells(uint64_t occupied)
{
    return (occupied + C4_BOTTOM_ROW) & C4_BOARD_MASK;
}

/* Every cell of column col (0-based). */
static inline uint64_t c4_column_cells(int col)
{
    return ((UINT64_C(1) << C4_HEIGHT) - 1) << (col * C4_COL_BITS);
}

/* The playable cells that neither leave an opponent's immediate win open
 * nor fail to block one, opp_win being the opponent's winning cells
 * (c4_winning_cells); 0 when every move loses at once. */
static inline uint64_t c4_non_losing_moves(uint64_t occupied, uint64_t opp_win)
{
    uint64_t moves = c4_playable_cells(occupied);
    uint64_t forced = moves & opp_win;
    if (forced) {
        if (forced & (forced - 1))
            return 0;   /* two threats at once: cannot block both */
        moves = forced;
    }
    /* Never play right under a cell where the opponent would win. */
    return moves & ~(opp_win >> 1);
}

/* 1 when free (one bit per cell a player may still fill: the board minus
 * the other player's discs) holds four in a row: that player can still win. */
static inline int c4_has_open_line(uint64_t free)
{
    uint64_t m = free & (free >> 1);
    if (m & (m >> 2))
        return 1;
    m = free & (free >> C4_COL_BITS);
    if (m & (m >> 2 * C4_COL_BITS))
        return 1;
    m = free & (free >> (C4_COL_BITS - 1));
    if (m & (m >> 2 * (C4_COL_BITS - 1)))
        return 1;
    m = free & (free >> (C4_COL_BITS + 1));
    return (m & (m >> 2 * (C4_COL_BITS + 1))) != 0;
}

#endif
