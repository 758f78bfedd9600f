/*
 * search.c - plain minimax and alpha-beta over the game interface (search.h).
 *
 * Both walk copy-make: the position at ply p lives in s->stack at slot p, a
 * child is a copy of its parent with one move played, so games need no undo.
 * Leaves are scored by one function (leaf_value) so that the two searches
 * cannot drift apart.
 *
 * Asserts check the game's side of the contract (game.h) as the search meets
 * it: a terminal value is 0 or a win or loss with its margin, a static
 * evaluation stays below SCORE_EVAL_MAX, gen lists at most GAME_MAX_MOVES.
 * Each is a compare or two per node, a few per cent of a node's cost at
 * most (measured with `engine bench`).
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>
#include "arena/search.h"

#define SEARCH_TT_MIN_DEPTH 2

struct search_opts search_opts_default(void)
{
    struct search_opts o = {
        .tt_bytes = (size_t)TT_DEFAULT_MB << 20,
        .mate_distance = 1,
        .evaluate = NULL,
        .evaluate_with = NULL,
        .eval_ctx = NULL,
        .eval_finished = 0,
        .stop = NULL,
    };
    return o;
}

int search_init(struct search *s, const struct game *g, const struct search_opts *opts)
{
    assert(g && opts);
    assert(g->state_size > 0 && g->state_size <= GAME_MAX_STATE);
    assert(opts->evaluate || g->evaluate || opts->evaluate_with);
    memset(s, 0, sizeof *s);
    s->game = g;
    s->opts = *opts;
    if (!s->opts.evaluate)
        s->opts.evaluate = g->evaluate;
    s->stack = malloc((SEARCH_MAX_DEPTH + 2) * g->state_size);
    if (!s->stack)
        return -1;
    if (opts->tt_bytes && tt_init(&s->tt, opts->tt_bytes) != 0) {
        free(s->stack);
        s->stack = NULL;
        return -1;
    }
    return 0;
}

void search_free(struct search *s)
{
    if (s->tt.slot)
        tt_free(&s->tt);
    free(s->stack);
    s->stack = NULL;
}

void search_clear(struct search *s)
{
    if (s->tt.slot)
        tt_clear(&s->tt);
}

static void *slot(const struct search *s, int ply)
{
    return s->stack + (size_t)ply * s->game->state_size;
}

/* The static value of pos for its side to move, by the options' function. */
static int evaluate(const struct search *s, const void *pos)
{
    int v = s->opts.evaluate_with ? s->opts.evaluate_with(pos, s->opts.eval_ctx)
                                  : s->opts.evaluate(pos);
    /* eval_finished evaluations score decided positions beyond it. */
    assert(s->opts.eval_finished || (v > -SCORE_EVAL_MAX && v < SCORE_EVAL_MAX));
    return v;
}

/* game.h: 0, or SCORE_WIN plus a margin in [0, SCORE_MARGIN_MAX), or its
 * negation. */
static inline int terminal_value_ok(int v)
{
    int a = v < 0 ? -v : v;
    return v == 0 || (a >= SCORE_WIN && a < SCORE_WIN + SCORE_MARGIN_MAX);
}

/* The terminal value seen from ply: with mate distance a win found sooner is
 * worth more and a loss found later hurts less. */
static int terminal_at(const struct search *s, int value, int ply)
{
    if (!s->opts.mate_distance || value == 0)
        return value;
    return value > 0 ? value - ply : value + ply;
}

/* 1 when the position at ply is a leaf for a search with depth plies left,
 * with its value in *value. */
static int leaf_value(struct search *s, int ply, int depth, int *value)
{
    const void *pos = slot(s, ply);
    int v;
    if (s->game->terminal(pos, &v)) {
        assert(terminal_value_ok(v));
        *value = s->opts.eval_finished ? evaluate(s, pos) : terminal_at(s, v, ply);
        return 1;
    }
    if (depth == 0) {
        *value = evaluate(s, pos);
        return 1;
    }
    return 0;
}

/* 1 once the caller's stop flag is seen, and from then on until the next
 * search: every value after it is no value. */
static inline int stopping(struct search *s)
{
    if (s->opts.stop && !s->stopped && *s->opts.stop)
        s->stopped = 1;
    return s->stopped;
}

/* Writes the child of ply reached by move into slot ply + 1. */
static void make_child(struct search *s, int ply, int move)
{
    size_t sz = s->game->state_size;
    void *child = slot(s, ply + 1);
    memcpy(child, slot(s, ply), sz);
    s->game->play(child, move);
}

/* Decided values are stored relative to the node, so an entry stays true
 * wherever in the tree the position recurs. */
static int to_tt(const struct search *s, int v, int ply)
{
    if (!s->opts.mate_distance)
        return v;
    return v >= SCORE_DECIDED ? v + ply : v <= -SCORE_DECIDED ? v - ply : v;
}

static int from_tt(const struct search *s, int v, int ply)
{
    if (!s->opts.mate_distance)
        return v;
    return v >= SCORE_DECIDED ? v - ply : v <= -SCORE_DECIDED ? v + ply : v;
}

/* What every node does first: counts itself, then stops, answers by the
 * leaf rules (leaf_value) or, with no move, by its evaluation; else its
 * moves into moves, *n of them. 1 with *value the node's value, or 0 to
 * search the moves. */
static int node_enter(struct search *s, int ply, int depth, int moves[GAME_MAX_MOVES], int *n,
                      int *value)
{
    s->nodes++;
    if (stopping(s)) {
        *value = 0;
        return 1;
    }
    if (leaf_value(s, ply, depth, value))
        return 1;
    *n = s->game->gen(slot(s, ply), moves);
    assert(*n >= 0 && *n <= GAME_MAX_MOVES);
    if (*n == 0) {
        *value = evaluate(s, slot(s, ply));
        return 1;
    }
    return 0;
}

static int minimax(struct search *s, int ply, int depth)
{
    int value, moves[GAME_MAX_MOVES], n;
    if (node_enter(s, ply, depth, moves, &n, &value))
        return value;
    int best = -SCORE_INF;
    for (int i = 0; i < n; i++) {
        make_child(s, ply, moves[i]);
        int v = -minimax(s, ply + 1, depth - 1);
        if (v > best)
            best = v;
    }
    return best;
}

/* Sorts moves for searching: first the hint move (TT or previous iteration),
 * then by the game's priority; equal priorities keep their current order.
 * Key and position are packed into one int (key * ORDER_SLOTS + reversed
 * position) so the sort moves a single array. perm, if not NULL, receives
 * for each new slot the move's old position. */
#define ORDER_SLOTS 256                 /* > GAME_MAX_MOVES */
#define ORDER_HINT_KEY (1 << 20)        /* above any priority (game.h) */

static void order_moves(const struct search *s, const void *pos, int *moves, int n, int hint,
                        int *perm)
{
    int packed[GAME_MAX_MOVES], orig[GAME_MAX_MOVES];
    int (*priority)(const void *, int) = s->game->priority;
    for (int i = 0; i < n; i++) {
        int key = moves[i] == hint ? ORDER_HINT_KEY : priority ? priority(pos, moves[i]) : 0;
        orig[i] = moves[i];
        packed[i] = key * ORDER_SLOTS + (ORDER_SLOTS - 1 - i);
    }
    for (int i = 1; i < n; i++) {
        int v = packed[i], j = i;
        for (; j > 0 && packed[j - 1] < v; j--)
            packed[j] = packed[j - 1];
        packed[j] = v;
    }
    for (int j = 0; j < n; j++) {
        int i = ORDER_SLOTS - 1 - (packed[j] & (ORDER_SLOTS - 1));
        moves[j] = orig[i];
        if (perm)
            perm[j] = i;
    }
}

/* Fail-soft negamax alpha-beta. */
static int alphabeta(struct search *s, int ply, int depth, int alpha, int beta)
{
    const struct game *g = s->game;
    const void *pos = slot(s, ply);
    int value, moves[GAME_MAX_MOVES], n;
    if (node_enter(s, ply, depth, moves, &n, &value))
        return value;

    /* Below SEARCH_TT_MIN_DEPTH the table costs more (a cache miss per
     * node) than the few leaves it could save. */
    int use_tt = s->tt.slot && depth >= SEARCH_TT_MIN_DEPTH;
    uint64_t key = use_tt ? g->hash(pos) : 0;
    int hint = -1;
    if (use_tt) {
        const struct tt_entry *e = tt_probe(&s->tt, key);
        if (e) {
            hint = e->move;
            /* Only an entry of exactly this depth: a deeper one would make
             * the result differ from minimax at the requested depth. */
            if (e->depth == depth) {
                int tv = from_tt(s, e->value, ply);
                if (e->bound == TT_EXACT || (e->bound == TT_LOWER && tv >= beta)
                    || (e->bound == TT_UPPER && tv <= alpha))
                    return tv;
            }
        }
    }
    order_moves(s, pos, moves, n, hint, NULL);

    int alpha0 = alpha, best = -SCORE_INF, best_move = moves[0];
    for (int i = 0; i < n; i++) {
        make_child(s, ply, moves[i]);
        int v = -alphabeta(s, ply + 1, depth - 1, -beta, -alpha);
        if (v > best) {
            best = v;
            best_move = moves[i];
            if (v > alpha) {
                alpha = v;
                if (alpha >= beta)
                    break;
            }
        }
    }
    if (use_tt && !s->stopped) {
        int bound = best <= alpha0 ? TT_UPPER : best >= beta ? TT_LOWER : TT_EXACT;
        tt_store(&s->tt, key, to_tt(s, best, ply), best_move, depth, bound);
    }
    return best;
}

/* Common start of both searches: 1 when the root is finished or has no move,
 * with r filled. */
static int root_is_leaf(struct search *s, const void *state, int depth, int *moves, int *n,
                        struct search_result *r)
{
    assert(depth >= 0 && depth <= SEARCH_MAX_DEPTH);
    assert(s->stack && (s->game->to_move(state) == 1 || s->game->to_move(state) == 2));
    memcpy(slot(s, 0), state, s->game->state_size);
    s->nodes = 1;
    s->stopped = 0;
    r->move = -1;
    r->depth = depth;
    if (leaf_value(s, 0, depth, &r->value)) {
        r->nodes = s->nodes;
        return 1;
    }
    *n = s->game->gen(state, moves);
    assert(*n >= 0 && *n <= GAME_MAX_MOVES);
    if (*n == 0) {
        r->value = evaluate(s, state);
        r->nodes = s->nodes;
        return 1;
    }
    return 0;
}

void search_minimax(struct search *s, const void *state, int depth, struct search_result *r)
{
    int moves[GAME_MAX_MOVES], n;
    if (root_is_leaf(s, state, depth, moves, &n, r))
        return;
    int best = -SCORE_INF, best_move = moves[0];
    for (int i = 0; i < n; i++) {
        make_child(s, 0, moves[i]);
        int v = -minimax(s, 1, depth - 1);
        if (v > best) {
            best = v;
            best_move = moves[i];
        }
    }
    r->move = s->stopped ? -1 : best_move;
    r->value = best;
    r->nodes = s->nodes;
}

void search_alphabeta(struct search *s, const void *state, int depth, struct search_result *r)
{
    int moves[GAME_MAX_MOVES], idx[GAME_MAX_MOVES], n;
    if (root_is_leaf(s, state, depth, moves, &n, r))
        return;
    for (int i = 0; i < n; i++)
        idx[i] = i;
    int best = -SCORE_INF, best_move = moves[0];
    for (int d = 1; d <= depth && !s->stopped; d++) {
        int perm[GAME_MAX_MOVES], old_idx[GAME_MAX_MOVES];
        memcpy(old_idx, idx, (size_t)n * sizeof *idx);
        order_moves(s, state, moves, n, d > 1 ? best_move : -1, perm);
        for (int i = 0; i < n; i++)
            idx[i] = old_idx[perm[i]];
        int best_idx = n;
        best = -SCORE_INF;
        for (int i = 0; i < n; i++) {
            make_child(s, 0, moves[i]);
            int v;
            if (i == 0) {
                v = -alphabeta(s, 1, d - 1, -SCORE_INF, SCORE_INF);
            } else {
                /* An earlier move in canonical order wins ties, so it must
                 * be searched with a window that admits an equal value. */
                int floor = idx[i] < best_idx ? best - 1 : best;
                v = -alphabeta(s, 1, d - 1, -SCORE_INF, -floor);
            }
            if (v > best || (v == best && idx[i] < best_idx)) {
                best = v;
                best_move = moves[i];
                best_idx = idx[i];
            }
        }
        if (d > 1)
            s->nodes++;   /* the root, visited again by this iteration */
    }
    r->move = s->stopped ? -1 : best_move;
    r->value = best;
    r->nodes = s->nodes;
}
