/* player.c - the move choosers behind --player (player.h). */
#include <string.h>
#include "arena/player.h"
#include "arena/rng.h"

static const char *const player_names[] = {
    [PLAYER_ALPHABETA] = "alphabeta",
    [PLAYER_MINIMAX] = "minimax",
    [PLAYER_RANDOM] = "random",
    [PLAYER_PERFECT] = "perfect",
};

int player_parse(const char *name)
{
    for (int k = 0; k < (int)(sizeof player_names / sizeof *player_names); k++)
        if (strcmp(name, player_names[k]) == 0)
            return k;
    return -1;
}

const char *player_name(enum player_kind kind)
{
    return player_names[kind];
}

int player_supports(const struct game *g, enum player_kind kind)
{
    return kind != PLAYER_PERFECT || g->perfect != NULL;
}

void player_choose(struct search *s, const struct player_opts *p, const void *state,
                   struct search_result *r)
{
    switch (p->kind) {
    case PLAYER_MINIMAX:
        search_minimax(s, state, p->depth, r);
        return;
    case PLAYER_RANDOM: {
        int moves[GAME_MAX_MOVES];
        int n = s->game->gen(state, moves);
        struct rng rng;
        /* The position is mixed in so that one seed gives different
         * choices from move to move, yet the same choice for the same input. */
        rng_seed(&rng, p->seed ^ s->game->hash(state));
        r->move = n ? moves[rng_below(&rng, (uint32_t)n)] : -1;
        r->value = 0;
        r->depth = 0;
        r->nodes = 0;
        return;
    }
    case PLAYER_PERFECT:
        r->move = s->game->perfect(state);
        r->value = 0;
        r->depth = 0;
        r->nodes = 0;
        return;
    case PLAYER_ALPHABETA:
    default:
        search_alphabeta(s, state, p->depth, r);
        return;
    }
}
