/*
 * player.h - the move choosers an engine offers (--player).
 *
 * A player turns a position into one move: alphabeta (the default engine),
 * minimax (the plain reference, slow on purpose), random (uniform over the
 * legal moves, a function of its seed and the position) and perfect (the
 * game's own solver, game->perfect; only for games that have one). Same
 * position and options give the same move.
 *
 * The learned players (games with game->learned; for connect4 see qfunc.h)
 * need the game's weights: qlearn plays game->learned->choose's move (for
 * connect4 the highest Q = w . f(s, a), ties to the centre) and reports its
 * value; qlearn-ab is alpha-beta to depth, leaves scored by
 * game->learned->evaluate (connect4: V(s) = max_a Q(s, a)), and among root
 * moves of equal value it takes the one the game's move ordering puts first
 * (connect4: nearest the centre).
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

struct player_opts {
    enum player_kind kind;
    int depth;           /* plies, >= 1 (search players) */
    uint64_t seed;       /* random player */
    /* alphabeta and minimax: the leaf evaluation, NULL for the game's own. */
    int (*evaluate)(const void *state);
    /* qlearn, qlearn-ab: the game's learned weights (game->learned); caller
     * owns. */
    const void *weights;
};

/* The kind named name, or -1 for an unknown name. */
int player_parse(const char *name);
const char *player_name(enum player_kind kind);

/* 1 when game g can be played by kind (perfect needs g->perfect; the
 * learned players need g->learned). */
int player_supports(const struct game *g, enum player_kind kind);

/* The options of the search p's moves in game g need: a table of tt_bytes
 * for the alpha-beta players (none for the others), p's evaluation. g must
 * support p->kind (player_supports). */
struct search_opts player_search_opts(const struct game *g, const struct player_opts *p,
                                      size_t tt_bytes);

/* Chooses a move for state, which must not be finished. s is an initialised
 * search for the same game made with player_search_opts(p, ...) (its TT is
 * reused). Fills r (move, value, depth, nodes; random and perfect players
 * report value 0 and 0 nodes, qlearn depth 1 and the moves it scored).
 * A search stopped by s's opts.stop (search.h) gives no move: r->move -1,
 * s->stopped set. */
void player_choose(struct search *s, const struct player_opts *p, const void *state,
                   struct search_result *r);

#endif
