/*
 * refbench.h - `referee bench`: depth against CPU time for any engine, each
 * move measured as a game measures it.
 *
 * Every engine moves once from every position at every depth of
 * [depth_min, depth_max] (repeat times), each move a game's ply through
 * play.h's play_solo (the same folder, sandbox, runner and judge), so its
 * CPU time is the child's rusage a game would charge. A move that fails or
 * is refused is reported with its forfeit reason (rules.h) and not timed.
 * Per engine and depth: moves timed, failed moves, median / p95 / max CPU
 * ms of one move, peak RSS and the median's growth over the previous depth
 * (benchdoc.h). An engine is not run deeper once its median passes
 * budget_ms, or once every move of a depth failed; the output says which.
 *
 * Positions: the rules' book (one line of moves per position, book.h), or
 * `positions` random ones: play_opening's, the rules' random_plies from
 * seed + i for position i (play.h), so a seed names the same positions for
 * every engine and every run.
 *
 * The text (CPU in ms, "-" where nothing was timed):
 *   Bench G: N positions (P random plies, seed S | from FILE), R move(s)
 *   per position and depth, depths A-B[, budget MS ms]
 *   CPU time per move (ms, the engine's own user+sys)
 *   Engine  Depth  Moves  Failed  Median  p95  Max  Peak RSS KB  Growth
 *   ...one row per engine and depth, engine after engine; after a row:
 *     NAME at depth D: F of M moves failed, not timed: C REASON (first at
 *     position I)[, ...]
 *   NAME: median X ms at depth D passes --budget-ms MS: not run deeper
 *   NAME: every move failed at depth D: not run deeper
 *   Referee overhead per move (ms, wall outside the engine): median X, p95 Y
 * The JSON (json_path): benchdoc.h's document with "positions", "repeat",
 * "random_plies" and "seed" or "positions_file", "budget_ms" (null: none),
 * "referee_ms" {"median", "p95"}, and "engines": [{"name", "depths",
 * "stopped": {"depth", "reason": "budget"|"failed"}|null}], each depth
 * also with "failed" (count) and "failures" {REASON: count}.
 * The plot (svg_path): that document drawn by the plot script (a JSON file
 * in a private temporary folder when there is no json_path), then the
 * script's line "wrote SVG".
 */
#ifndef ARENA_REFBENCH_H
#define ARENA_REFBENCH_H

#include <stdio.h>
#include "arena/play.h"

struct refbench_opts {
    int depth_min, depth_max;    /* 1 <= min <= max <= SEARCH_MAX_DEPTH */
    long positions;              /* random positions; 0: the rules' book */
    const char *positions_path;  /* the book's file, for the text */
    long repeat;                 /* moves per position and depth, >= 1 */
    long budget_ms;              /* 0: none */
    const char *json_path;       /* NULL: no JSON */
    const char *svg_path;        /* NULL: no plot; else the JSON drawn by
                                  * datadir.h's plot script (gnuplot, jq) */
};

enum { REFBENCH_DONE = 0, REFBENCH_CANCELLED = 1, REFBENCH_BUSY = 2 };

/* Runs the bench of the n (>= 1) engines (resolved, spec.h) under r,
 * printing to out as it goes. Returns REFBENCH_DONE, REFBENCH_CANCELLED
 * (r's cancel flag: what was measured is printed, no JSON written),
 * REFBENCH_BUSY (r's busy_retries: a move was starved by a busy machine on
 * every try, play.h; no JSON written), or -1 with e filled (the referee's
 * own failure, the JSON not writable). */
int refbench_run(const struct play_rules *r, const struct spec *engines, int n,
                 const struct refbench_opts *o, FILE *out, struct err *e);

#endif
