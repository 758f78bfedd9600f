/* engine_onemove.c - `engine one-move`: one move of any game by any player
 * on a board file (onemove.h), the Max-Connect4 assignment's command line
 * when no option is given. */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include "arena/registry.h"
#include "arena/cli.h"
#include "arena/datadir.h"
#include "arena/limits.h"
#include "arena/onemove.h"
#include "engine.h"

enum { OPT_WEIGHTS = EOPT_OWN, OPT_EVAL };

static const struct option options[] = {
    { "game", required_argument, NULL, EOPT_GAME },
    { "depth", required_argument, NULL, EOPT_DEPTH },
    { "player", required_argument, NULL, EOPT_PLAYER },
    { "seed", required_argument, NULL, EOPT_SEED },
    { "tt-mb", required_argument, NULL, EOPT_TT },
    { "weights", required_argument, NULL, OPT_WEIGHTS },
    { "eval", required_argument, NULL, OPT_EVAL },
    CLI_STD_OPTIONS,
};

struct onemove_args {
    struct eopt_values v;               /* --game, --depth, --player, --seed, --tt-mb */
    const char *weights;                /* --weights */
    const char *eval;                   /* --eval NAME; NULL or "game": the game's own */
};

/* Reads the options into a; 0, -1 after --help or --version (printed), or
 * EXIT_BAD_INPUT. The arguments are left at argv[optind..]. */
static int parse(const char *prog, int argc, char **argv, struct onemove_args *a)
{
    struct eopt_parse ep = { .v = a->v };
    eopt_start(&ep, prog, "one-move", options, argc, argv);
    int c, rc = 0;
    while (!rc && (c = eopt_next(&ep)) != -1) {
        switch (c) {
        case OPT_WEIGHTS:
            a->weights = optarg;
            break;
        case OPT_EVAL:
            rc = eopt_eval(prog, optarg);
            a->eval = strcmp(optarg, "game") == 0 ? NULL : optarg;
            break;
        default:
            return c == CLI_DONE ? -1 : EXIT_BAD_INPUT;
        }
    }
    a->v = ep.v;
    return rc;
}

/* The options' combinations and the positional DEPTH; 0 or EXIT_BAD_INPUT. */
static int check(const char *prog, int npos, char **pos, struct onemove_args *a)
{
    if (npos < 2 || npos > 3)
        return cli_usage(prog, "one-move needs IN OUT [DEPTH]");
    struct eopt_values *v = &a->v;
    if (npos == 3) {
        long d;
        if (cli_int(pos[2], 1, SEARCH_MAX_DEPTH, &d) != 0)
            return cli_usage(prog, "DEPTH must be a number from 1 to %d", SEARCH_MAX_DEPTH);
        if (v->depth_given && d != v->depth)
            return cli_usage(prog, "--depth %ld and DEPTH %ld disagree", v->depth, d);
        v->depth = d;
    }
    enum player_kind kind = (enum player_kind)v->player;
    if (!player_supports(v->game, kind))
        return cli_usage(prog, "game %s has no %s player", v->game->name, player_name(kind));
    int learned = kind == PLAYER_QLEARN || kind == PLAYER_QLEARN_AB;
    if (!learned && a->weights)
        return cli_usage(prog, "--weights belongs to --player qlearn or qlearn-ab");
    if (a->eval && !game_eval_named(v->game, a->eval)) {
        char games[REGISTRY_NAMES_MAX];
        eopt_eval_games(a->eval, games, sizeof games);
        return cli_usage(prog, "--eval %s is for --game %s", a->eval, games);
    }
    if (a->eval && kind != PLAYER_ALPHABETA && kind != PLAYER_MINIMAX)
        return cli_usage(prog, "--eval belongs to --player alphabeta or minimax");
    return 0;
}

int cmd_one_move(const char *prog, int argc, char **argv)
{
    struct onemove_args a = { .v = {
        .game = registry_find(ENGINE_DEFAULT_GAME),
        .player = PLAYER_ALPHABETA,
        .depth = ENGINE_DEFAULT_DEPTH,
        .tt_mb = TT_DEFAULT_MB,
    } };
    int rc = parse(prog, argc, argv, &a);
    if (rc)
        return rc < 0 ? 0 : rc;
    if ((rc = check(prog, argc - optind, argv + optind, &a)) != 0)
        return rc;
    enum player_kind kind = (enum player_kind)a.v.player;
    int learned = kind == PLAYER_QLEARN || kind == PLAYER_QLEARN_AB;
    /* Without --weights, the shipped weights (datadir.h). */
    char shipped[PATH_MAX];
    const char *weights = a.weights ? a.weights
                                    : datadir_find(DATA_QLEARN_WEIGHTS, shipped, sizeof shipped);
    struct wts_file wf;
    if (learned && (rc = eopt_load_weights(weights, &wf)) != 0)
        return rc;
    struct onemove_opts o = {
        .game = a.v.game,
        .player = { .kind = kind, .depth = (int)a.v.depth, .seed = a.v.seed,
                    .evaluate = a.eval ? game_eval_named(a.v.game, a.eval) : NULL, .weights = learned ? &wf.weights : NULL },
        .tt_bytes = (size_t)a.v.tt_mb << 20,
        .in = argv[optind],
        .out = argv[optind + 1],
    };
    return onemove_run(&o, stdout, stderr);
}
