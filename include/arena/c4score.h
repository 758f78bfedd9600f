/*
 * c4score.h - the score of a Connect-4 position (classic rules), as the
 * public test sets (Pons, "Solving Connect 4"), the solver (c4solver.h), the
 * opening book (c4book.h) and `engine solve` lines (c4moves.h) have it.
 *
 * 0 for a draw; when the side to move wins, 22 minus the discs it has played
 * when the game ends (1: it wins with its last disc, 21: with its first);
 * when it loses, the negation of the same count for the winner. So a score
 * says who wins and how quickly, and the best move maximises it.
 *
 * Macros only (no .c): the bounds are compile-time constants the search
 * folds into its window arithmetic.
 */
#ifndef ARENA_C4SCORE_H
#define ARENA_C4SCORE_H

#include "arena/connect4.h"

/* Scores lie in [-C4SCORE_MAX, C4SCORE_MAX]. */
#define C4SCORE_MAX (C4_CELLS / 2)
/* The score of a position with `moves` discs when the side to move wins
 * with its next disc (the highest it can have), and when it loses to the
 * opponent's next disc (the lowest). */
#define C4SCORE_WIN_NOW(moves)   ((C4_CELLS + 1 - (moves)) / 2)
#define C4SCORE_LOSE_NEXT(moves) (-(C4_CELLS - (moves)) / 2)
/* 1 when a position with `moves` discs can have score v. */
#define C4SCORE_FITS(v, moves) ((v) >= C4SCORE_LOSE_NEXT(moves) && (v) <= C4SCORE_WIN_NOW(moves))

#endif
