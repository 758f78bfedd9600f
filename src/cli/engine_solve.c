/* engine_solve.c - the options of the solver's commands, `engine solve`
 * and `engine book`, handed to the game's solver capability (game.h, struct
 * game_solver: Connect-4's today), which does the rest. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "arena/cli.h"
#include "arena/limits.h"
#include "arena/registry.h"
#include "engine.h"

enum { OPT_GAME = 256, OPT_WEAK, OPT_TT, OPT_BOOK, OPT_DEPTH, OPT_FROM, OPT_THREADS };

static const struct option solve_options[] = {
    { "game", required_argument, NULL, OPT_GAME },
    { "weak", no_argument, NULL, OPT_WEAK },
    { "tt-mb", required_argument, NULL, OPT_TT },
    { "book", required_argument, NULL, OPT_BOOK },
    { "threads", required_argument, NULL, OPT_THREADS },
    CLI_STD_OPTIONS,
};

static const struct option book_options[] = {
    { "game", required_argument, NULL, OPT_GAME },
    { "depth", required_argument, NULL, OPT_DEPTH },
    { "from", required_argument, NULL, OPT_FROM },
    { "tt-mb", required_argument, NULL, OPT_TT },
    CLI_STD_OPTIONS,
};

struct solver_args {
    struct game_solver_opts o;
    const struct game *game;   /* the game whose solver runs */
    long depth;
    int depth_given;
};

static int has_solver(const struct game *g)
{
    return g->solver != NULL;
}

/* --game for solve and book: a registered game with a solver (cmd names the
 * command in the message); 0 or EXIT_BAD_INPUT. */
static int solver_game(const char *prog, const char *cmd, const char *val,
                       const struct game **out)
{
    const struct game *g = registry_find(val);
    if (g && has_solver(g)) {
        *out = g;
        return 0;
    }
    char games[REGISTRY_NAMES_MAX];
    registry_names(games, sizeof games, has_solver, " and ");
    return cli_usage(prog, "%s: the solver plays %s only, not '%s'", cmd, games, val);
}

/* The first registered game with a solver: solve's and book's default. */
static const struct game *default_solver_game(void)
{
    const struct game *const *all = registry_all();
    for (int i = 0; all[i]; i++)
        if (has_solver(all[i]))
            return all[i];
    return NULL;
}

/* Reads the options of solve or book (their tables) into a; 0, -1 after
 * --help or --version, or EXIT_BAD_INPUT. */
static int parse(const char *prog, const char *cmd, const struct option *opts, int argc,
                 char **argv, struct solver_args *a)
{
    struct eopt_help help;
    struct cli_parse p = { .prog = prog, .cmd = cmd, .opts = opts, .help = engine_usage_text,
                           .help_args = eopt_help_args(&help), .argc = argc, .argv = argv };
    int c, rc = 0;
    while (!rc && (c = cli_next(&p)) != -1) {
        switch (c) {
        case OPT_GAME:
            rc = solver_game(prog, cmd, optarg, &a->game);
            break;
        case OPT_WEAK:
            a->o.weak = 1;
            break;
        case OPT_TT:
            rc = eopt_tt_mb(prog, optarg, &a->o.tt_mb);
            break;
        case OPT_BOOK:
            a->o.book = optarg;
            break;
        case OPT_DEPTH:
            rc = eopt_depth(prog, optarg, &a->depth);
            a->depth_given = 1;
            break;
        case OPT_FROM:
            a->o.from = optarg;
            break;
        case OPT_THREADS:
            if (cli_int(optarg, 1, C4S_MAX_THREADS, &a->o.threads) != 0)
                rc = cli_usage(prog, "--threads must be a number from 1 to %d", C4S_MAX_THREADS);
            a->o.idle_only = 0;   /* --threads N asks for N */
            break;
        default:
            return c == CLI_DONE ? -1 : EXIT_BAD_INPUT;
        }
    }
    if (!rc && !a->game)
        rc = cli_usage(prog, "%s: no game of this build has a solver", cmd);
    return rc;
}

/* solve's threads when --threads is not given: one per online core (the
 * issue's "every core"), within the solver's limit. The scores do not
 * depend on it; NODES and times do, so benches and tests say --threads 1. */
static long default_threads(void)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    return cores < 1 ? 1 : cores > C4S_MAX_THREADS ? C4S_MAX_THREADS : cores;
}

int cmd_solve(const char *prog, int argc, char **argv)
{
    struct solver_args a = { .o = { .prog = prog, .tt_mb = C4S_DEFAULT_TT_MB,
                                    .threads = default_threads(), .idle_only = 1 },
                             .game = default_solver_game() };
    int rc = parse(prog, "solve", solve_options, argc, argv, &a);
    if (rc)
        return rc < 0 ? 0 : rc;
    return a.game->solver->solve(&a.o, argv + optind, argc - optind);
}

int cmd_book(const char *prog, int argc, char **argv)
{
    struct solver_args a = { .o = { .prog = prog, .tt_mb = C4S_DEFAULT_TT_MB },
                             .game = default_solver_game() };
    int rc = parse(prog, "book", book_options, argc, argv, &a);
    if (rc)
        return rc < 0 ? 0 : rc;
    int max = a.game->solver->book_max_depth;
    if (!a.depth_given || a.depth > max)
        return cli_usage(prog, "book needs --depth from 1 to %d", max);
    if (optind != argc - 1)
        return cli_usage(prog, "book takes one OUT file");
    a.o.depth = (int)a.depth;
    return a.game->solver->book(&a.o, argv[optind]);
}
