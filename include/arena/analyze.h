/*
 * analyze.h - blunder analysis of recorded games (`referee analyze`, and
 * `--analyze` on match and tournament).
 *
 * For every move an engine made, the analyzer asks an exact oracle for the
 * game's outcome with perfect play from the mover's point of view, before
 * the move and after it: "win", "draw", "loss", or "unknown" when the oracle
 * cannot tell within its budget. A move whose outcome after is worse than
 * before (a win turned into a draw or a loss, a draw into a loss) is a
 * blunder. A game's decisive mistake is its last blunder: with no blunder
 * after it, perfect play from there gives the blunderer's opponent at least
 * the outcome it then held.
 *
 * Oracles are the games' own (game->oracle, game.h); today:
 *   connect4     the perfect solver (c4solver.h), weak, with a CPU budget
 *                (and optionally a node budget) per position; early
 *                positions may be "unknown";
 *   nim          the closed form (nimgame.h): always exact;
 *   maxconnect4  an alpha-beta search to the end of the game, for positions
 *                with at most max_empty empty cells; "unknown" before.
 * Games without one are refused.
 *
 * What it writes into a game record (record.h): each analysed move gets
 * its outcomes before and after (above) and whether it is a blunder; the
 * record gets its analysis: blunders per engine, positions unknown, and the
 * decisive mistake or none.
 */
#ifndef ARENA_ANALYZE_H
#define ARENA_ANALYZE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "arena/game.h"
#include "arena/limits.h"
#include "arena/record.h"


struct ana_opts {
    long budget_ms;   /* connect4: CPU per position */
    uint64_t node_budget; /* connect4: solver nodes per position; 0: none. Unlike
                             CPU time, the same on every run and machine */
    int max_empty;    /* maxconnect4: exact within this many empty cells */
    size_t tt_bytes;  /* the oracle's table; 0: ANA_TT_MB MiB */
};

struct analyzer {
    const struct game *game;
    struct ana_opts opts;
    void *oracle;             /* game->oracle's, while open */
    int open;                 /* 1 between ana_init and ana_free */
};

/* 1 when game g has an oracle (game->oracle). */
int ana_supports(const struct game *g);

/* Prepares an analyzer for game g. Returns 0, or -1 with e filled (a game
 * without an oracle, out of memory). Free with ana_free. */
int ana_init(struct analyzer *a, const struct game *g, const struct ana_opts *o, struct err *e);
void ana_free(struct analyzer *a);

/* The outcome of pos (finished or not) for its side to move: REC_WIN,
 * REC_DRAW, REC_LOSS or REC_UNKNOWN (record.h). */
enum rec_outcome ana_value(struct analyzer *a, const void *pos);

/* Replays rec (opening, then moves) and writes the analysis into it as
 * described above (any earlier analysis replaced). Returns 0, or -1 with e
 * filled when a recorded move is not legal (a record verify would reject);
 * rec then keeps its earlier analysis, if any. */
int ana_game(struct analyzer *a, struct game_record *rec, struct err *e);

/* Prints rec's analysis line: "  decisive mistake: ply P by ENGINE (MOVE):
 * win -> loss" or "  no blunder", and how many positions stayed unknown.
 * Assumes rec has an analysis. */
void ana_print_game(FILE *out, const struct game_record *rec);

/* `referee analyze`: analyses every game of a journal or match log, prints
 * each game's decisive mistake and the blunders per engine; with json_path,
 * also writes {"schema": "arena.analysis/1", "source", "game", "engines":
 * [{"name", "moves", "blunders", "unknown"}...], "games": [records with their
 * analysis]} there (atomically). A judge's journal needs judge, the judge
 * the user named (--judge and --judge-sandbox, judge.h; NULL: none, and
 * such a journal is refused),
 * checked against its header (judge_game_of). Returns 0, or -1 with e
 * filled (e->line: the journal line), or JUDGE_FAILED with e when the
 * judge failed (judge.h). */
struct judge_cmd;
int ana_log(const char *path, const struct ana_opts *o, const struct judge_cmd *judge,
            const char *json_path, FILE *out, struct err *e);

#endif
