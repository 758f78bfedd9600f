/*
 * train.h - the Q-learning player's learning: the learner (the seed's
 * CompPlayer in its learning mode) and a series of computer-vs-computer games
 * played in process, the fast path of `engine train`.
 *
 * The learner is linear, gradient-descent Q-learning with an epsilon-greedy
 * policy (Sutton & Barto, 1998, section 8.4, figure 8.9, with lambda = 0:
 * one-step, no eligibility traces). On its turn in s' it scores every move,
 * and if it moved before in this game, from s with attributes f = f(s, a),
 * it updates
 *
 *     delta = r + gamma * max_a' Q(s', a') - Q(s, a)       Q = w . f
 *     w    += (alpha / 14) * delta * f                      (the gradient)
 *
 * with r = 0; then it picks, with probability epsilon, a uniformly random
 * move, else the move of highest Q under the updated weights (ties to the
 * lowest column). When the game ends its last move gets delta = r - Q(s, a):
 * r = +1 when it won, -1 when it lost, 0 for a draw. Q(s, a) is always
 * computed with the weights of the moment, so the rule is the semi-gradient
 * one of the book; the seed divides the step size by the number of
 * attributes, 14, and so does this learner.
 *
 * A series plays o.games games between the learner and an opponent:
 *   random       uniform over the legal moves
 *   trained      greedy on Q with the opponent's weights, no learning
 *   alphabeta:D  alpha-beta to depth D, leaves scored by the opponent's
 *                weights (the qlearn-ab player)
 *   learning     a second learner with its own weights (the opponent's),
 *                same settings; its weights are not saved (the seed's
 *                knowledge_other runs)
 *   self         a second learner that shares the learner's weights: both
 *                sides' experience trains one vector
 * The opponent's weights default to the learner's starting weights. The
 * learner starts as player 1; after every game the sides swap with
 * probability switch_prob. The seed swaps its two player slots back before it
 * saves; here the learner's weights are its own wherever it sits, so nothing
 * needs swapping back.
 *
 * The step size may fall linearly over the series, from alpha at the first
 * game to alpha_final at the last (the seed lowered it by hand between runs,
 * 0.2, 0.1, 0.05); alpha_final = alpha keeps it constant, as in the seed.
 *
 * Every random draw comes from the series' one struct rng in a fixed order,
 * and floating-point sums run in a fixed order, so the same settings and seed
 * give bit-identical weights.
 */
#ifndef ARENA_TRAIN_H
#define ARENA_TRAIN_H

#include <stdint.h>
#include <stdio.h>
#include "arena/err.h"
#include "arena/qfunc.h"
#include "arena/rng.h"
#include "arena/search.h"
#include "arena/weights.h"

/* The seed's defaults. */
#define LEARN_DEFAULT_GAMMA   0.95
#define LEARN_DEFAULT_ALPHA   0.2
#define LEARN_DEFAULT_EPSILON 0.1
#define LEARN_DEFAULT_SWITCH  0.3
#define LEARN_WINDOW          1000    /* games behind the logged rates */
#define LEARN_MAX_DEPTH       12      /* alphabeta:D opponents */
#define LEARN_TT_BYTES        ((size_t)1 << 20)   /* the alphabeta opponent's table */

enum learn_opponent { LEARN_RANDOM, LEARN_TRAINED, LEARN_ALPHABETA, LEARN_LEARNING, LEARN_SELF };

struct learn_opts {
    double gamma, alpha, alpha_final, epsilon, switch_prob;
    enum learn_opponent opponent;
    int opponent_depth;   /* alphabeta:D */
    uint64_t seed;
    long long games;
};

/* The defaults above, 0 games, seed 1, opponent random. */
struct learn_opts learn_opts_default(void);

/* Parses an opponent as `engine train --opponent` writes it ("random",
 * "alphabeta:4", ...). Returns 0, or -1 for an unknown one. */
int learn_opponent_parse(const char *text, struct learn_opts *o);
/* The opponent as text (WTS_TOKEN_MAX bytes). */
void learn_opponent_text(const struct learn_opts *o, char *buf);

/* One learning side. w is read and updated in place (two learners may share
 * it); the caller owns it. */
struct learner {
    struct qf_weights *w;
    double gamma;
    double step;        /* alpha / FEAT_COUNT */
    double epsilon;
    int has_prev;       /* moved earlier in this game */
    double prev[FEAT_COUNT];   /* f(s, a) of that move */
};

void learn_init(struct learner *l, struct qf_weights *w, double gamma, double alpha,
                  double epsilon);

/* The update for the learner's previous move (has_prev must hold): delta =
 * reward + gamma * next_max - w . prev, or reward - w . prev when terminal;
 * w += step * delta * prev. Returns delta. */
double learn_update(struct learner *l, double reward, double next_max, int terminal);

/* The learner's turn in p (unfinished): updates for its previous move if any,
 * then picks epsilon-greedily and remembers the move's attributes. Sets *td
 * to |delta| and returns 1 when it updated, else returns 0. Returns the
 * column in *col. */
int learn_move(struct learner *l, const struct c4_pos *p, struct rng *rng, int *col, double *td);

/* The game is over: reward (+1 won, -1 lost, 0 draw) for the last move.
 * Returns |delta|, or -1 when the learner never moved. */
double learn_end(struct learner *l, double reward);

/* A series of games. Everything is inside; free with learn_series_free. */
struct learn_series {
    const struct game *game;   /* the registered game with a learned player */
    struct learn_opts o;
    struct rng rng;
    struct qf_weights w;       /* the learner's: the result */
    struct qf_weights opp_w;   /* the opponent's (trained, alphabeta, learning) */
    struct learner me, other;
    struct search search;      /* the alphabeta opponent */
    int has_search;
    int learner_side;          /* 0: the learner is player 1 */
    long long played;
    signed char window[LEARN_WINDOW];   /* the learner's last results, +1 0 -1 */
    int win, draw, loss;       /* counts in the window */
    double td_sum;             /* sum of |delta| since the last log line */
    long long td_n;
};

/* Starts a series from the learner's weights start and the opponent's
 * weights opponent (NULL: start). Returns 0, or -1 with e filled (out of
 * memory for the search). */
int learn_series_init(struct learn_series *t, const struct learn_opts *o,
                      const struct qf_weights *start, const struct qf_weights *opponent,
                      struct err *e);
void learn_series_free(struct learn_series *t);

/* Plays the next game of the series; returns the learner's result (+1, 0, -1). */
int learn_play_game(struct learn_series *t);

/* Writes one JSON line (cJSON) to out: games played, the learner's win, draw
 * and loss rates over its last LEARN_WINDOW games (or all, when fewer),
 * the mean |delta| of its updates since the previous line (0 when none),
 * the step size of the last game; then restarts the |delta| mean. Returns 0,
 * or -1 when out of memory or the write fails. */
int learn_log_line(struct learn_series *t, FILE *out);

/* The learner's rates over the window (fractions). */
void learn_rates(const struct learn_series *t, double *win, double *draw, double *loss);

/* The weights file of the series so far: settings, games, and total_games
 * = prior_total + games played. */
void learn_result(const struct learn_series *t, long long prior_total, struct wts_file *f);

#endif
