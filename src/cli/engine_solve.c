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

/* --game is solve's and book's own: a game with a solver (solver_game). */
enum { OPT_SOLVER_GAME = EOPT_OWN, OPT_WEAK, OPT_BOOK, OPT_FROM, OPT_THREADS };

static const struct option solve_options[] = {
    { "game", required_argument, NULL, OPT_SOLVER_GAME },
    { "weak", no_argument, NULL, OPT_WEAK },
    { "tt-mb", required_argument, NULL, EOPT_TT },
    { "book", required_argument, NULL, OPT_BOOK },
    { "threads", required_argument, NULL, OPT_THREADS },
    CLI_STD_OPTIONS,
};

static const struct option book_options[] = {
    { "game", required_argument, NULL, OPT_SOLVER_GAME },
    { "depth", required_argument, NULL, EOPT_DEPTH },
    { "from", required_argument, NULL, OPT_FROM },
    { "tt-mb", required_argument, NULL, EOPT_TT },
    CLI_STD_OPTIONS,
};

struct solver_args {
    struct game_solver_opts o;
    struct eopt_values v;   /* the game whose solver runs, --depth, --tt-mb */
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
    struct eopt_parse ep = { .v = a->v };
    eopt_start(&ep, prog, cmd, opts, argc, argv);
    int c, rc = 0;
    while (!rc && (c = eopt_next(&ep)) != -1) {
        switch (c) {
        case OPT_SOLVER_GAME:
            rc = solver_game(prog, cmd, optarg, &ep.v.game);
            break;
        case OPT_WEAK:
            a->o.weak = 1;
            break;
        case OPT_BOOK:
            a->o.book = optarg;
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
    a->v = ep.v;
    a->o.tt_mb = a->v.tt_mb;
    if (!rc && !a->v.game)
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
    struct solver_args a = { .o = { .prog = prog, .threads = default_threads(), .idle_only = 1 },
                             .v = { .game = default_solver_game(),
                                    .tt_mb = C4S_DEFAULT_TT_MB } };
    int rc = parse(prog, "solve", solve_options, argc, argv, &a);
    if (rc)
        return rc < 0 ? 0 : rc;
    return a.v.game->solver->solve(&a.o, argv + optind, argc - optind);
}

int cmd_book(const char *prog, int argc, char **argv)
{
    struct solver_args a = { .o = { .prog = prog },
                             .v = { .game = default_solver_game(),
                                    .tt_mb = C4S_DEFAULT_TT_MB } };
    int rc = parse(prog, "book", book_options, argc, argv, &a);
    if (rc)
        return rc < 0 ? 0 : rc;
    int max = a.v.game->solver->book_max_depth;
    if (!a.v.depth_given || a.v.depth > max)
        return cli_usage(prog, "book needs --depth from 1 to %d", max);
    if (optind != argc - 1)
        return cli_usage(prog, "book takes one OUT file");
    a.o.depth = (int)a.v.depth;
    return a.v.game->solver->book(&a.o, argv[optind]);
}
