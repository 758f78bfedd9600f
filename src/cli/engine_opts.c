/* engine_opts.c - option values the engine's commands share (engine.h). */
#include <assert.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include "arena/registry.h"
#include "arena/cli.h"
#include "arena/limits.h"
#include "arena/player.h"
#include "engine.h"

static int eopt_game(const char *prog, const char *val, const struct game **out)
{
    char names[REGISTRY_NAMES_MAX];
    registry_names(names, sizeof names, NULL, ", ");
    if (!(*out = registry_find(val)))
        return cli_usage(prog, "unknown game '%s' (%s)", val, names);
    return 0;
}

void eopt_eval_games(const char *name, char *buf, size_t cap)
{
    const struct game *const *all = registry_all();
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; all[i] && len < cap; i++)
        if (game_eval_named(all[i], name))
            len += (size_t)snprintf(buf + len, cap - len, "%s%s", len ? ", " : "", all[i]->name);
}

/* 1 when a game before all[i], or an evaluation before ev in all[i]'s,
 * has ev's name: each name is listed once. */
static int named_before(const struct game *const *all, int i, const struct game_eval *ev)
{
    for (int j = 0; j <= i; j++)
        for (const struct game_eval *o = all[j]->evals; o && o->name && o != ev; o++)
            if (strcmp(o->name, ev->name) == 0)
                return 1;
    return 0;
}

int eopt_eval(const char *prog, const char *val)
{
    const struct game *const *all = registry_all();
    int known = strcmp(val, "game") == 0;
    char names[REGISTRY_NAMES_MAX] = "game";
    size_t len = strlen(names);
    for (int i = 0; all[i]; i++)
        for (const struct game_eval *ev = all[i]->evals; ev && ev->name; ev++) {
            known |= strcmp(ev->name, val) == 0;
            if (len < sizeof names && !named_before(all, i, ev))
                len += (size_t)snprintf(names + len, sizeof names - len, ", %s", ev->name);
        }
    return known ? 0 : cli_usage(prog, "unknown evaluation '%s' (%s)", val, names);
}

static int has_perfect(const struct game *g)
{
    return g->perfect != NULL;
}

static int has_learned(const struct game *g)
{
    return g->learned != NULL;
}

const char *const *eopt_help_args(struct eopt_help *h)
{
    const struct game *const *all = registry_all();
    size_t len = 0;
    for (int i = 0; all[i]; i++)
        len += (size_t)snprintf(h->games + len, sizeof h->games - len, "%s%s%s", i ? ", " : "",
                                all[i]->name,
                                strcmp(all[i]->name, ENGINE_DEFAULT_GAME) == 0 ? " (default)" : "");
    registry_names(h->perfect, sizeof h->perfect, has_perfect, ", ");
    registry_names(h->learned, sizeof h->learned, has_learned, ", ");
    h->args[0] = h->games;
    h->args[1] = h->perfect;
    h->args[2] = h->learned;
    return h->args;
}

static int eopt_depth(const char *prog, const char *val, long *out)
{
    if (cli_int(val, 1, SEARCH_MAX_DEPTH, out) != 0)
        return cli_usage(prog, "--depth must be a number from 1 to %d", SEARCH_MAX_DEPTH);
    return 0;
}

static int eopt_tt_mb(const char *prog, const char *val, long *out)
{
    if (cli_int(val, 1, TT_MAX_MB, out) != 0)
        return cli_usage(prog, "--tt-mb must be a number from 1 to %ld", TT_MAX_MB);
    return 0;
}

static int eopt_player(const char *prog, const char *val, int *out)
{
    if ((*out = player_parse(val)) < 0)
        return cli_usage(prog,
                         "unknown player '%s' (alphabeta, minimax, random, perfect, qlearn, "
                         "qlearn-ab)",
                         val);
    return 0;
}

int eopt_seed(const char *prog, const char *val, unsigned long long *out)
{
    long v;
    if (cli_int(val, 0, LONG_MAX, &v) != 0)
        return cli_usage(prog, "--seed must be a non-negative number");
    *out = (unsigned long long)v;
    return 0;
}

void eopt_start(struct eopt_parse *ep, const char *prog, const char *cmd,
                const struct option *opts, int argc, char **argv)
{
    ep->p = (struct cli_parse){ .prog = prog, .cmd = cmd, .opts = opts,
                                .help = engine_usage_text,
                                .help_args = eopt_help_args(&ep->help), .argc = argc,
                                .argv = argv };
}

/* Reads the shared option c's value into v; 0 or EXIT_BAD_INPUT. */
static int shared(const char *prog, int c, const char *val, struct eopt_values *v)
{
    switch (c) {
    case EOPT_GAME:
        return eopt_game(prog, val, &v->game);
    case EOPT_PLAYER:
        return eopt_player(prog, val, &v->player);
    case EOPT_DEPTH:
        v->depth_given = 1;
        return eopt_depth(prog, val, &v->depth);
    case EOPT_TT:
        return eopt_tt_mb(prog, val, &v->tt_mb);
    default:
        assert(c == EOPT_SEED);
        return eopt_seed(prog, val, &v->seed);
    }
}

int eopt_next(struct eopt_parse *ep)
{
    int c;
    while ((c = cli_next(&ep->p)) >= EOPT_GAME && c < EOPT_OWN)
        if (shared(ep->p.prog, c, optarg, &ep->v) != 0)
            return CLI_BAD;
    return c;
}

int eopt_load_weights(const char *path, struct wts_file *f)
{
    struct err e;
    if (wts_load(path, f, &e) != 0) {
        err_print(stderr, path, &e);
        return EXIT_BAD_INPUT;
    }
    return 0;
}
