/* qfunc.c - the linear Q function, greedy choice and search leaf value
 * (qfunc.h). */
#include <math.h>
#include "arena/qfunc.h"
#include "board.h"

double qf_value(const struct qf_weights *w, const double f[FEAT_COUNT])
{
    /* A fixed summation order keeps training bit-reproducible. */
    double sum = 0.0;
    for (int i = 0; i < FEAT_COUNT; i++)
        sum += w->w[i] * f[i];
    return sum;
}

int qf_choices(const struct qf_weights *w, const struct c4_pos *p, struct qf_choices *c)
{
    c->n = 0;
    for (int col = 0; col < C4_WIDTH; col++) {
        if (!c4_can_play(p, col))
            continue;
        c->moves[c->n] = col;
        c->priority[c->n] = c4g_priority(p, col);
        feat_after(p, col, c->f[c->n]);
        c->q[c->n] = qf_value(w, c->f[c->n]);
        c->n++;
    }
    return c->n;
}

void qf_rescore(const struct qf_weights *w, struct qf_choices *c)
{
    for (int i = 0; i < c->n; i++)
        c->q[i] = qf_value(w, c->f[i]);
}

int qf_best(const struct qf_choices *c)
{
    int best = 0;
    for (int i = 1; i < c->n; i++)
        if (c->q[i] > c->q[best] || (c->q[i] == c->q[best] && c->priority[i] > c->priority[best]))
            best = i;
    return best;
}

int qf_to_eval(double q)
{
    double v = q * QF_EVAL_SCALE;
    /* Weights files hold finite numbers only, but their sums can overflow. */
    if (isnan(v))
        return 0;
    if (v > QF_EVAL_MAX)
        return QF_EVAL_MAX;
    if (v < -QF_EVAL_MAX)
        return -QF_EVAL_MAX;
    return (int)lround(v);
}

int qf_evaluate(const void *state, const void *weights)
{
    struct qf_choices c;
    /* A full board is finished, and search scores it by the rules first. */
    if (qf_choices(weights, state, &c) == 0)
        return 0;
    return qf_to_eval(c.q[qf_best(&c)]);
}

int qf_choose(const void *weights, const void *state, int *move, int *value)
{
    struct qf_choices c;
    qf_choices(weights, state, &c);
    int best = qf_best(&c);
    *move = c.moves[best];
    *value = qf_to_eval(c.q[best]);
    return c.n;
}
