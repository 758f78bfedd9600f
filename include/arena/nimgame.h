/*
 * nimgame.h - misère Nim in the suite: the closed-form rule and the perfect
 * move (src/games/nim/game.c), the engine's `nim` game, and the course
 * driver's session behind the `nim` binary (src/games/nim/session.c). The
 * assignment's own API (hash table and graph) is nim.h.
 *
 * Rules: a turn takes one or more matches from one row; whoever takes the
 * last match loses. Rows are 0-based, as the course's driver prints them.
 *
 * Closed form (Bouton, misère): the player to move loses with perfect play
 * exactly when some row holds two or more matches and the rows' XOR is 0, or
 * no row does and an odd number of rows hold one match. It is
 * compute_nimsum(...) == 0 of the seed, in O(rows).
 *
 * Engine position (struct nim_pos): up to NIM_MAX_ROWS rows, at most
 * NIM_MAX_MATCHES matches in all (every move fits GAME_MAX_MOVES). A move is
 * row * NIM_MOVE_BASE + matches, written "row:matches" ("2:3" takes 3 from
 * row 2). Moves come row by row, 1.. matches each: the seed's order. The
 * game ends when no match is left, the player to move having won.
 *
 * Board file: one line of row sizes separated by spaces, then the player to
 * move (1 or 2):
 *     1 3 5 7
 *     1
 */
#ifndef ARENA_NIMGAME_H
#define ARENA_NIMGAME_H

#include <stdint.h>
#include <stdio.h>
#include "arena/game.h"

#define NIM_MAX_ROWS    16
#define NIM_MAX_MATCHES GAME_MAX_MOVES
#define NIM_MOVE_BASE   256           /* > NIM_MAX_MATCHES */

struct nim_pos {
    uint8_t rows;                  /* rows in use */
    uint8_t to_move;               /* 0: player 1, 1: player 2 */
    uint8_t heap[NIM_MAX_ROWS];    /* matches per row; unused rows 0 */
};

extern const struct game game_nim;

/* 1 when the player to move loses with perfect play (closed form above). */
int nim_losing(const int *rows, int n);
/* The seed driver's choice, in O(rows): the first move in canonical order
 * that leaves the opponent a losing board, else the first move. Returns 0 and
 * sets *row, *matches; -1 when no match is left. */
int nim_perfect_move(const int *rows, int n, int *row, int *matches);

/* ---- the `nim` binary: the course driver's session ----------------------- */

/* The largest table the driver builds (boards, and moves over all boards):
 * 3 5 7 9 11 13 needs 322,560 boards and 7,741,440 moves. */
#define NIM_MAX_BOARDS (1L << 22)
#define NIM_MAX_EDGES  (1L << 25)
#define NIM_INPUT_MAX  64             /* characters of an answer */

struct nim_session_opts {
    int human_first;    /* 1: the human moves first, 0: the computer */
    int rows;
    const int *start;   /* rows sizes, each >= 0, at least one match */
};

/* Boards and moves the table and graph of start would hold (exact counts,
 * no overflow for any int rows). */
void nim_table_size(const int *start, int rows, long long *boards, long long *edges);

/* Plays the driver's games, answers read from in, everything printed on out
 * (the binary passes stdout, where the course's print_board writes), until
 * the human declines another game or input ends. The table must fit
 * (nim_table_size within the limits). Returns 0. */
int nim_session_run(const struct nim_session_opts *o, FILE *in, FILE *out);

/* The table benchmark: builds the table and graph for start, prints boards,
 * moves, CPU and wall milliseconds and the peak resident memory, frees it. */
void nim_bench(const int *start, int rows, FILE *out);

#endif
