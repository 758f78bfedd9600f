/*
 * referee_learn.c - referee_learn.h: `referee play`'s trainer, a
 * learn_series (train.h) from all-zero weights, as `engine train` starts
 * without --weights-in.
 */
#include "referee_learn.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "arena/datadir.h"
#include "arena/learn.h"
#include "arena/weights.h"

static int start(void **series, const struct playsrv_train_opts *po, struct err *e)
{
    struct learn_opts o = learn_opts_default();
    if (learn_opponent_parse(po->opponent, &o) != 0)
        return err_set(e, 0, 0, "unknown opponent '%.40s' (random, trained, alphabeta:D, "
                       "learning, self)", po->opponent);
    o.gamma = po->gamma;
    o.alpha = o.alpha_final = po->alpha;
    o.epsilon = po->epsilon;
    o.switch_prob = po->switch_prob;
    o.games = po->games;
    o.seed = po->seed;
    struct learn_series *t = calloc(1, sizeof *t);
    struct qf_weights zero;
    memset(&zero, 0, sizeof zero);
    if (!t)
        return err_set(e, 0, 0, "out of memory");
    if (learn_series_init(t, &o, &zero, NULL, e) != 0) {
        free(t);
        return -1;
    }
    *series = t;
    return 0;
}

static int play(void *series)
{
    return learn_play_game(series);
}

/* The second learner's file: the series' settings, its own weights. */
static size_t weights(void *series, int learner, char *buf, size_t cap)
{
    struct learn_series *t = series;
    if (cap < WTS_TEXT_MAX || (learner == 2 && t->o.opponent != LEARN_LEARNING))
        return 0;
    struct wts_file f;
    learn_result(t, 0, &f);
    if (learner == 2)
        f.weights = t->opp_w;
    return wts_format(&f, buf);
}

static void free_series(void *series)
{
    learn_series_free(series);
    free(series);
}

static int weights_read(const char *text, size_t len, void **out, struct err *e)
{
    struct wts_file *f = malloc(sizeof *f);
    char shipped[PATH_MAX];
    if (!f)
        return err_set(e, 0, 0, "out of memory");
    int rc = text ? wts_parse(text, len, f, e)
                  : wts_load(datadir_find(DATA_QLEARN_WEIGHTS, shipped, sizeof shipped), f, e);
    if (rc != 0 && !text) {   /* the message names the shipped file */
        char msg[sizeof e->msg];
        snprintf(msg, sizeof msg, "%.120s: %.120s", shipped, e->msg);
        snprintf(e->msg, sizeof e->msg, "%s", msg);
    }
    if (rc != 0) {
        free(f);
        return -1;
    }
    /* The record the learned players read is the weights themselves. */
    struct qf_weights *w = malloc(sizeof *w);
    if (w)
        *w = f->weights;
    free(f);
    if (!w)
        return err_set(e, 0, 0, "out of memory");
    *out = w;
    return 0;
}

static void weights_free(void *w)
{
    free(w);
}

const struct playsrv_trainer referee_trainer = { start, play, weights, free_series,
                                                 weights_read, weights_free };
