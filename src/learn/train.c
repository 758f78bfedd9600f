/* train.c - the gradient-descent Q-learner and in-process training series
 * (train.h). */
#include <assert.h>
#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "arena/cli.h"
#include "arena/player.h"
#include "arena/registry.h"
#include "arena/train.h"

static const char *const opponent_names[] = {
    [LEARN_RANDOM] = "random",
    [LEARN_TRAINED] = "trained",
    [LEARN_ALPHABETA] = "alphabeta",
    [LEARN_LEARNING] = "learning",
    [LEARN_SELF] = "self",
};
#define N_OPPONENTS ((int)(sizeof opponent_names / sizeof *opponent_names))

struct learn_opts learn_opts_default(void)
{
    struct learn_opts o = {
        .gamma = LEARN_DEFAULT_GAMMA,
        .alpha = LEARN_DEFAULT_ALPHA,
        .alpha_final = LEARN_DEFAULT_ALPHA,
        .epsilon = LEARN_DEFAULT_EPSILON,
        .switch_prob = LEARN_DEFAULT_SWITCH,
        .opponent = LEARN_RANDOM,
        .opponent_depth = 0,
        .seed = 1,
        .games = 0,
    };
    return o;
}

int learn_opponent_parse(const char *text, struct learn_opts *o)
{
    const char *colon = strchr(text, ':');
    size_t len = colon ? (size_t)(colon - text) : strlen(text);
    for (int k = 0; k < N_OPPONENTS; k++) {
        if (strlen(opponent_names[k]) != len || strncmp(text, opponent_names[k], len) != 0)
            continue;
        /* Only alpha-beta takes a depth, and it needs one. */
        if ((k == LEARN_ALPHABETA) != (colon != NULL))
            return -1;
        long depth = 0;
        if (colon && cli_int(colon + 1, 1, LEARN_MAX_DEPTH, &depth) != 0)
            return -1;
        o->opponent = (enum learn_opponent)k;
        o->opponent_depth = (int)depth;
        return 0;
    }
    return -1;
}

void learn_opponent_text(const struct learn_opts *o, char *buf)
{
    if (o->opponent == LEARN_ALPHABETA)
        snprintf(buf, WTS_TOKEN_MAX, "%s:%d", opponent_names[o->opponent], o->opponent_depth);
    else
        snprintf(buf, WTS_TOKEN_MAX, "%s", opponent_names[o->opponent]);
}

/* ---- the learner ------------------------------------------------------- */

void learn_init(struct learner *l, struct qf_weights *w, double gamma, double alpha,
                  double epsilon)
{
    memset(l, 0, sizeof *l);
    l->w = w;
    l->gamma = gamma;
    l->step = alpha / FEAT_COUNT;
    l->epsilon = epsilon;
}

double learn_update(struct learner *l, double reward, double next_max, int terminal)
{
    double target = terminal ? reward : reward + l->gamma * next_max;
    double delta = target - qf_value(l->w, l->prev);
    for (int i = 0; i < FEAT_COUNT; i++)
        l->w->w[i] += l->step * delta * l->prev[i];
    return delta;
}

int learn_move(struct learner *l, const struct c4_pos *p, struct rng *rng, int *col, double *td)
{
    struct qf_choices c;
    qf_choices(l->w, p, &c);
    int updated = 0;
    if (l->has_prev) {
        *td = fabs(learn_update(l, 0.0, c.q[qf_best(&c)], 0));
        qf_rescore(l->w, &c);
        updated = 1;
    }
    /* Figure 8.9's order: explore or not, then the greedy move under the
     * weights just updated. */
    int pick = rng_unit(rng) < l->epsilon ? (int)rng_below(rng, (uint32_t)c.n) : qf_best(&c);
    memcpy(l->prev, c.f[pick], sizeof l->prev);
    l->has_prev = 1;
    *col = c.moves[pick];
    return updated;
}

double learn_end(struct learner *l, double reward)
{
    if (!l->has_prev)
        return -1;
    l->has_prev = 0;
    return fabs(learn_update(l, reward, 0.0, 1));
}

/* ---- the series ------------------------------------------------------- */

/* The alpha-beta opponent as a player (player.h). */
static struct player_opts opponent_player(const struct learn_series *t)
{
    struct player_opts po = { .kind = PLAYER_QLEARN_AB, .depth = t->o.opponent_depth,
                              .weights = &t->opp_w };
    return po;
}

/* The game this learner plays: the registered one whose learned player
 * (game.h, struct game_learned) reads these weights. */
static const struct game *learned_game(void)
{
    const struct game *const *all = registry_all();
    for (int i = 0; all[i]; i++)
        if (all[i]->learned)
            return all[i];
    assert(!"no registered game has a learned player");
    return NULL;
}

int learn_series_init(struct learn_series *t, const struct learn_opts *o,
                      const struct qf_weights *start, const struct qf_weights *opponent,
                      struct err *e)
{
    memset(t, 0, sizeof *t);
    t->o = *o;
    t->game = learned_game();
    rng_seed(&t->rng, o->seed);
    t->w = *start;
    t->opp_w = opponent ? *opponent : *start;
    learn_init(&t->me, &t->w, o->gamma, o->alpha, o->epsilon);
    struct qf_weights *other_w = o->opponent == LEARN_SELF ? &t->w : &t->opp_w;
    learn_init(&t->other, other_w, o->gamma, o->alpha, o->epsilon);
    if (o->opponent == LEARN_ALPHABETA) {
        struct player_opts po = opponent_player(t);
        struct search_opts so = player_search_opts(t->game, &po, LEARN_TT_BYTES);
        if (search_init(&t->search, t->game, &so) != 0)
            return err_set(e, 0, 0, "out of memory for the opponent's search");
        t->has_search = 1;
    }
    return 0;
}

void learn_series_free(struct learn_series *t)
{
    if (t->has_search)
        search_free(&t->search);
    t->has_search = 0;
}

/* The step size of game number g (0-based) of the series. */
static double alpha_at(const struct learn_opts *o, long long g)
{
    if (o->games <= 1 || o->alpha_final == o->alpha)
        return o->alpha;
    return o->alpha + (o->alpha_final - o->alpha) * (double)g / (double)(o->games - 1);
}

static int opponent_move(struct learn_series *t, const struct c4_pos *p)
{
    switch (t->o.opponent) {
    case LEARN_RANDOM: {
        int moves[GAME_MAX_MOVES];
        int n = t->game->gen(p, moves);
        return moves[rng_below(&t->rng, (uint32_t)n)];
    }
    case LEARN_TRAINED: {
        struct qf_choices c;
        qf_choices(&t->opp_w, p, &c);
        return c.moves[qf_best(&c)];
    }
    case LEARN_ALPHABETA: {
        struct player_opts po = opponent_player(t);
        struct search_result r;
        player_choose(&t->search, &po, p, &r);
        return r.move;
    }
    case LEARN_LEARNING:
    case LEARN_SELF:
    default: {
        int col;
        double td;
        learn_move(&t->other, p, &t->rng, &col, &td);
        return col;
    }
    }
}

static int opponent_learns(const struct learn_series *t)
{
    return t->o.opponent == LEARN_LEARNING || t->o.opponent == LEARN_SELF;
}

static void record(struct learn_series *t, int result)
{
    int slot = (int)(t->played % LEARN_WINDOW);
    if (t->played >= LEARN_WINDOW) {
        int old = t->window[slot];
        t->win -= old > 0;
        t->draw -= old == 0;
        t->loss -= old < 0;
    }
    t->window[slot] = (signed char)result;
    t->win += result > 0;
    t->draw += result == 0;
    t->loss += result < 0;
    t->played++;
}

int learn_play_game(struct learn_series *t)
{
    double alpha = alpha_at(&t->o, t->played);
    t->me.step = t->other.step = alpha / FEAT_COUNT;
    struct c4_pos p;
    c4_init(&p);
    int winner = -1;   /* 0 or 1: the player who made four; -1: a draw */
    while (p.moves < C4_CELLS) {
        int mover = p.to_move, col;
        if (mover == t->learner_side) {
            double td;
            if (learn_move(&t->me, &p, &t->rng, &col, &td)) {
                t->td_sum += td;
                t->td_n++;
            }
        } else {
            col = opponent_move(t, &p);
        }
        c4_play(&p, col);
        if (c4_has_four(p.disc[mover])) {
            winner = mover;
            break;
        }
    }
    int result = winner < 0 ? 0 : winner == t->learner_side ? 1 : -1;
    double td = learn_end(&t->me, result);
    if (td >= 0) {
        t->td_sum += td;
        t->td_n++;
    }
    if (opponent_learns(t))
        learn_end(&t->other, -result);
    record(t, result);
    if (rng_unit(&t->rng) < t->o.switch_prob)
        t->learner_side ^= 1;
    return result;
}

void learn_rates(const struct learn_series *t, double *win, double *draw, double *loss)
{
    long long n = t->played < LEARN_WINDOW ? t->played : LEARN_WINDOW;
    double d = n > 0 ? (double)n : 1.0;
    *win = t->win / d;
    *draw = t->draw / d;
    *loss = t->loss / d;
}

int learn_log_line(struct learn_series *t, FILE *out)
{
    double win, draw, loss;
    learn_rates(t, &win, &draw, &loss);
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return -1;
    long long window = t->played < LEARN_WINDOW ? t->played : LEARN_WINDOW;
    cJSON_AddNumberToObject(o, "games", (double)t->played);
    cJSON_AddNumberToObject(o, "window", (double)window);
    cJSON_AddNumberToObject(o, "win", win);
    cJSON_AddNumberToObject(o, "draw", draw);
    cJSON_AddNumberToObject(o, "loss", loss);
    cJSON_AddNumberToObject(o, "mean_abs_td", t->td_n ? t->td_sum / (double)t->td_n : 0.0);
    cJSON_AddNumberToObject(o, "alpha", alpha_at(&t->o, t->played > 0 ? t->played - 1 : 0));
    char *text = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    if (!text)
        return -1;
    int rc = fprintf(out, "%s\n", text) < 0 ? -1 : 0;
    cJSON_free(text);
    t->td_sum = 0;
    t->td_n = 0;
    return rc;
}

void learn_result(const struct learn_series *t, long long prior_total, struct wts_file *f)
{
    memset(f, 0, sizeof *f);
    f->settings.gamma = t->o.gamma;
    f->settings.alpha = t->o.alpha;
    f->settings.alpha_final = t->o.alpha_final;
    f->settings.epsilon = t->o.epsilon;
    f->settings.switch_prob = t->o.switch_prob;
    learn_opponent_text(&t->o, f->settings.opponent);
    f->settings.seed = t->o.seed;
    f->settings.games = t->played;
    f->settings.total_games = prior_total + t->played;
    f->weights = t->w;
}
