/*
 * c4_testutil.h - Connect-4 helpers the unit suites share: positions written
 * as rows of text or as move strings, and the brute-force walk over every window of four that
 * the bit-parallel counters are checked against.
 */
#ifndef ARENA_C4_TESTUTIL_H
#define ARENA_C4_TESTUTIL_H

#include "arena/connect4.h"

/* Lines of four on a 6x7 board: 24 horizontal, 21 vertical, 12 + 12 diagonal. */
#define LINES_OF_FOUR 69
#define LINE_LEN 4

/* A position from rows of '0' (or '.'), '1' and '2', top row first, with
 * to_move (1 or 2) to move; fails the test on a row of the wrong length. */
struct c4_pos pos_from_rows(const char *const rows[C4_HEIGHT], int to_move);

/* The position after the 1-based column digits of moves (c4moves_parse);
 * fails the test when they are not a valid, unfinished game. */
struct c4_pos pos_from_moves(const char *moves);

/* 1 when (col, row) is on the board. */
int on_board(int col, int row);

/* Calls fn(cells, ctx) for every quadruple of four consecutive cells on the
 * board, overlapping ones separately, cells as (col, row); returns how many
 * there are (LINES_OF_FOUR). */
typedef void (*window_fn)(const int cells[LINE_LEN][2], void *ctx);
int for_each_window(window_fn fn, void *ctx);

#endif
