/* player.c - the move choosers behind --player (player.h). */
#include <assert.h>
#include <string.h>
#include "arena/player.h"
#include "arena/rng.h"

static const char *const player_names[] = {
    [PLAYER_ALPHABETA] = "alphabeta",
    [PLAYER_MINIMAX] = "minimax",
    [PLAYER_RANDOM] = "random",
    [PLAYER_PERFECT] = "perfect",
    [PLAYER_QLEARN] = "qlearn",
    [PLAYER_QLEARN_AB] = "qlearn-ab",
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
    assert(kind >= 0 && kind < (int)(sizeof player_names / sizeof *player_names));
    return player_names[kind];
}

int player_supports(const struct game *g, enum player_kind kind)
{
    if (kind == PLAYER_QLEARN || kind == PLAYER_QLEARN_AB)
        return g->learned != NULL;
    return kind != PLAYER_PERFECT || g->perfect != NULL;
}

struct search_opts player_search_opts(const struct game *g, const struct player_opts *p,
                                      size_t tt_bytes)
{
    assert(player_supports(g, p->kind));
    struct search_opts so = search_opts_default();
    so.tt_bytes = p->kind == PLAYER_ALPHABETA || p->kind == PLAYER_QLEARN_AB ? tt_bytes : 0;
    if (p->evaluate)
        so.evaluate = p->evaluate;
    if (p->kind == PLAYER_QLEARN_AB) {
        so.evaluate_with = g->learned->evaluate;
        so.eval_ctx = p->weights;
    }
    return so;
}

/* qlearn-ab: each root move searched to depth - 1, so that every root value
 * is exact and ties can go to the move the game orders first (the centre),
 * as qf_best's do: the learned evaluation is 0 wherever nobody has a threat,
 * and a lowest-column tie-break would open in column 1. The value is the one
 * search_alphabeta gives the root at depth. */
static void search_each_move(struct search *s, const struct player_opts *p, const void *state,
                             struct search_result *r)
{
    const struct game *g = s->game;
    int moves[GAME_MAX_MOVES];
    int n = g->gen(state, moves);
    unsigned char child[GAME_MAX_STATE];
    int best_priority = 0;
    r->move = -1;
    r->value = -SCORE_INF;
    r->depth = p->depth;
    r->nodes = 1;
    for (int i = 0; i < n; i++) {
        struct search_result cr;
        memcpy(child, state, g->state_size);
        g->play(child, moves[i]);
        search_alphabeta(s, child, p->depth - 1, &cr);
        r->nodes += cr.nodes;
        if (s->stopped) {   /* no answer (search.h's stop) */
            r->move = -1;
            return;
        }
        int v = -cr.value;
        /* The child's search counts plies from the child: one more from here. */
        if (s->opts.mate_distance)
            v = v >= SCORE_DECIDED ? v - 1 : v <= -SCORE_DECIDED ? v + 1 : v;
        int priority = g->priority ? g->priority(state, moves[i]) : 0;
        if (v > r->value || (v == r->value && priority > best_priority)) {
            r->value = v;
            r->move = moves[i];
            best_priority = priority;
        }
    }
}

void player_choose(struct search *s, const struct player_opts *p, const void *state,
                   struct search_result *r)
{
    assert(player_supports(s->game, p->kind) && game_result(s->game, state) < 0);
    /* Every searching player needs a depth, every learned one weights. */
    assert(p->depth >= 1 || p->kind == PLAYER_RANDOM || p->kind == PLAYER_PERFECT
           || p->kind == PLAYER_QLEARN);
    assert(p->weights || (p->kind != PLAYER_QLEARN && p->kind != PLAYER_QLEARN_AB));
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
    case PLAYER_QLEARN:
        r->nodes = (uint64_t)s->game->learned->choose(p->weights, state, &r->move, &r->value);
        r->depth = 1;
        return;
    case PLAYER_QLEARN_AB:
        search_each_move(s, p, state, r);
        return;
    case PLAYER_ALPHABETA:
    default:
        search_alphabeta(s, state, p->depth, r);
        return;
    }
}
