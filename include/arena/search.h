/*
 * search.h - game-independent search: plain minimax (the reference) and
 * alpha-beta (negamax, transposition table, iterative deepening, move
 * ordering).
 *
 * Contract shared by both: the value of a position at depth d is the negamax
 * value of the tree cut at d plies, leaves scored by the game's evaluation
 * (or opts.evaluate), finished games by game->terminal. With mate_distance on
 * (the default), a win found at ply p is worth its terminal value minus p and
 * a loss plus p, so the engine prefers quicker wins and slower losses; with it
 * off a win is worth the same at any depth (the SPFIAR seed's pure minimax).
 *
 * Both pick, among the root moves of best value, the one first in canonical
 * order (lowest column for Connect-4). Alpha-beta returns exactly the move and
 * value minimax returns: the root searches each later-in-order move with a
 * window that can only admit a strictly better value, each earlier one with a
 * window that also admits an equal value; the TT only answers for an entry
 * searched to exactly the remaining depth; move ordering changes the order of
 * visits, never the result.
 */
#ifndef ARENA_SEARCH_H
#define ARENA_SEARCH_H

#include <signal.h>
#include <stdint.h>
#include "arena/game.h"
#include "arena/limits.h"   /* SEARCH_MAX_DEPTH */
#include "arena/tt.h"

struct search_opts {
    size_t tt_bytes;                       /* 0: no table (minimax only) */
    int mate_distance;                     /* 1: prefer quick wins (default) */
    int (*evaluate)(const void *state);    /* NULL: the game's own */
    /* An evaluation that needs data (learned weights): when not NULL it
     * scores leaves instead of evaluate, called with eval_ctx. */
    int (*evaluate_with)(const void *state, const void *ctx);
    const void *eval_ctx;
    /* 1: finished positions too are scored by evaluate (not game->terminal),
     * which must then give a won or lost one a decided value. The SPFIAR
     * seed scores every leaf, finished or not, with one function, so its
     * full board is worth its span score, not 0. Use with mate_distance 0. */
    int eval_finished;
    /* Not NULL: the search ends early once *stop is non-zero (a flag set by
     * another thread or a signal handler), its result no answer (r->move
     * -1, struct search's stopped set) and nothing of it kept in the table.
     * For a search a person may ask for at any depth (referee play). */
    const volatile sig_atomic_t *stop;
};

struct search_result {
    int move;         /* best move, -1 when the position has none */
    int value;        /* its value for the side to move */
    int depth;        /* depth searched */
    uint64_t nodes;   /* positions visited, the root included */
};

/* The per-search context: game, options, table, node counter. No globals, so
 * several searches may live in one process. */
struct search {
    const struct game *game;
    struct search_opts opts;
    struct tt tt;
    uint64_t nodes;
    unsigned char *stack;   /* one position per ply, state_size each */
    int stopped;            /* 1: the last search saw opts.stop and ended early */
};

/* The defaults: TT_DEFAULT_MB table, mate distance on, game evaluation. */
struct search_opts search_opts_default(void);

/* Returns 0, or -1 when out of memory (nothing to free then). */
int search_init(struct search *s, const struct game *g, const struct search_opts *opts);
void search_free(struct search *s);
/* Forgets everything learned (the TT): the next search starts cold. */
void search_clear(struct search *s);

/* Searches state to depth (1..SEARCH_MAX_DEPTH; 0 scores state itself, with
 * r->move -1). Both fill r; nodes counts this call only. When the position is
 * finished r->move is -1 and r->value its terminal value. */
void search_minimax(struct search *s, const void *state, int depth, struct search_result *r);
void search_alphabeta(struct search *s, const void *state, int depth, struct search_result *r);

#endif
