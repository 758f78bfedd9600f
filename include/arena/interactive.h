/*
 * interactive.h - the interactive mode of the Max-Connect4 seed:
 *   maxconnect4 interactive IN computer-next|human-next DEPTH
 *
 * The loop, per the seed: print the board and score (stop when the board is
 * full); on the computer's turn choose a move (alpha-beta at DEPTH) and save
 * the board to computer.txt; on the human's turn ask for a column, 0 for the
 * leftmost to 6 for the rightmost as the seed says, ask again until the move
 * is valid, and save the board to human.txt. A missing IN starts from the
 * empty board with player 1 to move. End of input ends the game cleanly.
 *
 * Files are written into dir (the current folder for the binary),
 * atomically.
 */
#ifndef ARENA_INTERACTIVE_H
#define ARENA_INTERACTIVE_H

#include <stdio.h>
#include "arena/game.h"

struct interactive_opts {
    const struct game *game;     /* a Connect-4 rule set */
    const char *in;              /* board file; missing means empty board */
    int computer_next;           /* 1: the computer moves first */
    int depth;
    size_t tt_bytes;
    const char *dir;             /* where computer.txt and human.txt go */
};

/* Plays until the board is full or input ends. Returns the exit status: 0,
 * EXIT_BAD_INPUT for an unreadable IN or an unwritable save file, 1 when out
 * of memory. */
int interactive_run(const struct interactive_opts *o, FILE *in, FILE *out, FILE *diag);

#endif
