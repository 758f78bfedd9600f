/*
 * qfunc.h - the linear action-value function of the Q-learning player:
 * Q(s, a) = w . f(s, a), with f the 14 attributes of features.h.
 *
 * Representation: struct qf_weights is the weight vector alone, in the order
 * of enum feat_id; it owns no memory, so copies are plain assignments. A Q
 * value is the expected return of the player who makes move a in s: +1 for a
 * win, -1 for a loss, 0 for a draw or a game still going (the seed's rewards
 * are implicit; these are the ones the learner uses, train.h).
 *
 * Search (qlearn-ab) sees integers for the side to move (game.h). The seed's
 * minimax values a state "as maxQa() does": the value of a leaf s for its
 * side to move is V(s) = max_a Q(s, a), the Q of the move the greedy player
 * would make there, times QF_EVAL_SCALE, rounded and clamped below
 * SCORE_EVAL_MAX. Each leaf so costs one attribute computation per legal
 * move; in exchange it sees the threats the side to move can make or must
 * stop.
 */
#ifndef ARENA_QFUNC_H
#define ARENA_QFUNC_H

#include "arena/connect4.h"
#include "arena/features.h"

/* Q = 1.0 (a sure win) is worth 10,000 evaluation points. */
#define QF_EVAL_SCALE 10000.0
/* The largest evaluation: |value| < SCORE_EVAL_MAX, as game.h asks. */
#define QF_EVAL_MAX (SCORE_EVAL_MAX - 1)

struct qf_weights {
    double w[FEAT_COUNT];
};

/* w . f. */
double qf_value(const struct qf_weights *w, const double f[FEAT_COUNT]);

/* The attributes and Q of every legal move of p (which must not be finished)
 * for its side to move. moves[i] is a column in increasing order, f[i] and
 * q[i] its attributes and value; returns how many (0 on a full board). */
struct qf_choices {
    int n;
    int moves[C4_WIDTH];
    int priority[C4_WIDTH];   /* the game's move ordering: centre first */
    double f[C4_WIDTH][FEAT_COUNT];
    double q[C4_WIDTH];
};
int qf_choices(const struct qf_weights *w, const struct c4_pos *p, struct qf_choices *c);

/* Recomputes c->q with weights w (after an update), attributes unchanged. */
void qf_rescore(const struct qf_weights *w, struct qf_choices *c);

/* The index in c of the best move: the highest Q; among equal Q the move
 * nearest the centre (game->priority, the search's move ordering), then the
 * lowest column. The centre matters: until someone has a threat every
 * attribute is 0, every move has the same Q, and a lowest-column tie-break
 * would fill column 1 first in every opening. c->n must be at least 1. */
int qf_best(const struct qf_choices *c);

/* The search's leaf value V(s) of state (a struct c4_pos, not finished) for
 * its side to move, as described above; weights is a const struct
 * qf_weights *. Fits search_opts.evaluate_with. */
int qf_evaluate(const void *state, const void *weights);

/* The qlearn player's choice, as struct game_learned's choose (game.h) asks:
 * the qf_best move of state (a struct c4_pos, not finished) under weights (a
 * const struct qf_weights *), its Q as an evaluation (qf_to_eval) in *value.
 * Returns how many moves it scored. */
int qf_choose(const void *weights, const void *state, int *move, int *value);

/* Q scaled to evaluation points and clamped to +-QF_EVAL_MAX. */
int qf_to_eval(double q);

#endif
