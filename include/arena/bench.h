/*
 * bench.h - `engine bench`: the search's speed and its signature.
 *
 * Searches every position of game->bench at each depth of [depth_min,
 * depth_max], the TT cleared before each search, and reports per depth the
 * nodes, CPU seconds, nodes per second and effective branching factor (nodes
 * at this depth / nodes at the previous one). The last line is the total node
 * count: a function of the search alone, so it changes exactly when the
 * search does (CPU figures vary, the signature never does).
 */
#ifndef ARENA_BENCH_H
#define ARENA_BENCH_H

#include <stdio.h>
#include "arena/game.h"
#include "arena/player.h"

struct bench_opts {
    const struct game *game;
    enum player_kind player;     /* alphabeta or minimax */
    int depth_min, depth_max;
    size_t tt_bytes;
    const char *json_path;       /* NULL: no JSON */
};

/* Runs the benchmark, printing the table to out. Returns 0, or -1 with e
 * filled (out of memory, a bench position the game rejects, JSON not
 * writable). */
int bench_run(const struct bench_opts *o, FILE *out, struct err *e);

#endif
