/*
 * onemove.h - the one-move mode of the Max-Connect4 seed, for every game:
 * read a board file, print it, choose one move, print the result, write the
 * new board file. Shared by `engine one-move` and `maxconnect4 one-move`.
 *
 * Stdout follows the course's sample program (game->title, "game state before
 * move:", the board, the move line, "game state after move:", the board).
 * Statistics go to stderr on one line:
 *   info game G player P depth D nodes N cpu_ms T move M value V
 * A finished game is reported with game->print_over and no file is written.
 */
#ifndef ARENA_ONEMOVE_H
#define ARENA_ONEMOVE_H

#include <stdio.h>
#include "arena/game.h"
#include "arena/player.h"

struct onemove_opts {
    const struct game *game;
    struct player_opts player;
    size_t tt_bytes;
    const char *in;      /* board file to read */
    const char *out;     /* board file to write (atomically) */
};

/* Runs one move. Returns the exit status: 0 done (or game already over),
 * EXIT_BAD_INPUT when IN cannot be read or parsed or OUT cannot be written
 * (OUT is then untouched), 1 when out of memory. */
int onemove_run(const struct onemove_opts *o, FILE *out, FILE *diag);

#endif
