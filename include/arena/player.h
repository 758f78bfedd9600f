/*
 * player.h - the move choosers an engine offers (--player).
 *
 * A player turns a position into one move: alphabeta (the default engine),
 * minimax (the plain reference, slow on purpose), random (uniform over the
 * legal moves, a function of its seed and the position) and perfect (the
 * game's own solver, game->perfect; only for games that have one). Same
 * position and options give the same move.
 */
#ifndef ARENA_PLAYER_H
#define ARENA_PLAYER_H

#include <stdint.h>
#include "arena/game.h"
#include "arena/search.h"

enum player_kind { PLAYER_ALPHABETA, PLAYER_MINIMAX, PLAYER_RANDOM, PLAYER_PERFECT };

struct player_opts {
    enum player_kind kind;
    int depth;           /* plies, >= 1 (search players) */
    uint64_t seed;       /* random player */
};

/* The kind named name, or -1 for an unknown name. */
int player_parse(const char *name);
const char *player_name(enum player_kind kind);

/* 1 when game g can be played by kind (perfect needs g->perfect). */
int player_supports(const struct game *g, enum player_kind kind);

/* Chooses a move for state, which must not be finished. s is an initialised
 * search for the same game (its TT is reused). Fills r (move, value, depth,
 * nodes; random and perfect players report value 0 and 0 nodes). */
void player_choose(struct search *s, const struct player_opts *p, const void *state,
                   struct search_result *r);

#endif
