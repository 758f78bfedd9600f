/*
 * player.h - the move choosers an engine offers (--player).
 *
 * A player turns a position into one move: alphabeta (the default engine),
 * minimax (the plain reference, slow on purpose), random (uniform over the
 * legal moves, a function of its seed and the position) and perfect (the
 * game's own solver, game->perfect; only for games that have one). Same
 * position and options give the same move.
 *
 * The learned players (connect4 only; qfunc.h) need weights: qlearn plays
 * the move of highest Q = w . f(s, a) (qf_best: ties to the centre) and
 * reports that Q as its value (qf_to_eval); qlearn-ab is alpha-beta to depth,
 * leaves worth V(s) = max_a Q(s, a) (qf_evaluate), and among root moves of
 * equal value it too takes the one nearest the centre.
 */
#ifndef ARENA_PLAYER_H
#define ARENA_PLAYER_H

#include <stdint.h>
#include "arena/game.h"
#include "arena/search.h"

enum player_kind {
    PLAYER_ALPHABETA, PLAYER_MINIMAX, PLAYER_RANDOM, PLAYER_PERFECT,
    PLAYER_QLEARN, PLAYER_QLEARN_AB,
};

struct qf_weights;

struct player_opts {
    enum player_kind kind;
    int depth;           /* plies, >= 1 (search players) */
    uint64_t seed;       /* random player */
    /* alphabeta and minimax: the leaf evaluation, NULL for the game's own. */
    int (*evaluate)(const void *state);
    const struct qf_weights *weights;   /* qlearn, qlearn-ab; caller owns */
};

/* The kind named name, or -1 for an unknown name. */
int player_parse(const char *name);
const char *player_name(enum player_kind kind);

/* 1 when game g can be played by kind (perfect needs g->perfect; the
 * learned players need connect4). */
int player_supports(const struct game *g, enum player_kind kind);

/* The options of the search p's moves need: a table of tt_bytes for the
 * alpha-beta players (none for the others), p's evaluation. */
struct search_opts player_search_opts(const struct player_opts *p, size_t tt_bytes);

/* Chooses a move for state, which must not be finished. s is an initialised
 * search for the same game made with player_search_opts(p, ...) (its TT is
 * reused). Fills r (move, value, depth, nodes; random and perfect players
 * report value 0 and 0 nodes, qlearn depth 1 and the moves it scored). */
void player_choose(struct search *s, const struct player_opts *p, const void *state,
                   struct search_result *r);

#endif
