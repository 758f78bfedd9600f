/*
 * similarity.h - `referee similarity`: engines that copy each other, found
 * by the moves they choose.
 *
 * Every engine answers the same fixed positions, each move a game's ply
 * through play.h's play_solo (the same folder, sandbox, limits and judge
 * as in a game) at the rules' depth; agree.h then compares every pair's
 * moves against the field's and flags the pairs far above it, with the
 * positions where the two agree and no other engine does.
 *
 * The positions: position attempt j plays a random game of the rules'
 * game from the start, with a generator seeded by seed + j (every legal
 * move equally likely, at most SIMIL_GAME_PLIES plies, to its end), and
 * takes the position before one of its plies, drawn from the same
 * generator; a position that is over, has a single legal move or was drawn
 * already is refused, and attempts go on (at most SIMIL_TRIES_PER_POSITION
 * per position asked for) until there are `positions` of them. So a seed
 * names the same positions for every engine and every run, spread over a
 * whole game rather than its opening. Each is named by its moves from the
 * start (a line an opening book would hold; "(start)" for none).
 *
 * A move that fails or is refused (its forfeit reason, rules.h) is no
 * answer: that position is left out of the engine's pairs.
 *
 * The text: "Similarity GAME: N positions from random games (seed S),
 * depth D, E engines", agree.h's text. The JSON (format json, alone on
 * out): {"game", "positions", "seed", "depth", and agree.h's keys}.
 */
#ifndef ARENA_SIMILARITY_H
#define ARENA_SIMILARITY_H

#include <stdio.h>
#include "arena/play.h"

enum similarity_format { SIMILARITY_TEXT, SIMILARITY_JSON };

struct similarity_opts {
    long positions;                 /* 1 to SIMIL_MAX_POSITIONS */
    enum similarity_format format;
    FILE *progress;                 /* a line per engine once it has answered
                                     * ("similarity: NAME (I of E): N of M
                                     * positions answered"); NULL: none */
};

enum { SIMILARITY_DONE = 0, SIMILARITY_CANCELLED = 1, SIMILARITY_BUSY = 2,
       SIMILARITY_TOO_FEW = 3 };

/* Runs the comparison of the n (>= 2) engines (resolved, spec.h) under r
 * (its depth, seed, limits, sandbox, judge) and prints it to out. Returns
 * SIMILARITY_DONE, SIMILARITY_CANCELLED (r's cancel flag: nothing
 * printed), SIMILARITY_BUSY (r's busy_retries: a move was starved on every
 * try, play.h), SIMILARITY_TOO_FEW with e (the game has fewer distinct
 * positions with a choice than asked for, as the attempts found them: a
 * usage error), or -1 with e filled (the referee's own failure, the
 * judge's). */
int similarity_run(const struct play_rules *r, const struct spec *engines, int n,
                   const struct similarity_opts *o, FILE *out, struct err *e);

#endif
