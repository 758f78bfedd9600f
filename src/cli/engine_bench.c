/* engine_bench.c - `engine bench`: the search on fixed positions at fixed
 * depths, the node-count signature (bench.h). */
#include <stdio.h>
#include "arena/registry.h"
#include "arena/bench.h"
#include "arena/cli.h"
#include "arena/limits.h"
#include "engine.h"

enum { OPT_DEPTHS = EOPT_OWN, OPT_JSON };

static const struct option options[] = {
    { "game", required_argument, NULL, EOPT_GAME },
    { "player", required_argument, NULL, EOPT_PLAYER },
    { "depth", required_argument, NULL, EOPT_DEPTH },
    { "depths", required_argument, NULL, OPT_DEPTHS },
    { "tt-mb", required_argument, NULL, EOPT_TT },
    { "json", required_argument, NULL, OPT_JSON },
    CLI_STD_OPTIONS,
};

/* --depths A-B into *lo and *hi; 0 or EXIT_BAD_INPUT. */
static int parse_depths(const char *prog, const char *val, long *lo, long *hi)
{
    if (cli_range(val, 1, SEARCH_MAX_DEPTH, lo, hi) != 0)
        return cli_usage(prog, "--depths must be A-B with 1 <= A <= B <= %d", SEARCH_MAX_DEPTH);
    return 0;
}

int cmd_bench(const char *prog, int argc, char **argv)
{
    struct eopt_parse ep = { .v = { .game = registry_find(ENGINE_DEFAULT_GAME),
                                    .player = PLAYER_ALPHABETA, .tt_mb = TT_DEFAULT_MB } };
    long lo = BENCH_DEFAULT_DEPTH_MIN, hi = BENCH_DEFAULT_DEPTH_MAX;
    int depths_given = 0;
    const char *json = NULL;
    eopt_start(&ep, prog, "bench", options, argc, argv);
    int c, rc = 0;
    while (!rc && (c = eopt_next(&ep)) != -1) {
        switch (c) {
        case OPT_DEPTHS:
            rc = parse_depths(prog, optarg, &lo, &hi);
            depths_given = 1;
            break;
        case OPT_JSON:
            json = optarg;
            break;
        default:
            return cli_stop(c);
        }
    }
    if (rc)
        return rc;
    const struct eopt_values *v = &ep.v;
    if (optind != argc)
        return cli_usage(prog, "bench takes no arguments, found '%s'", argv[optind]);
    if (v->player != PLAYER_ALPHABETA && v->player != PLAYER_MINIMAX)
        return cli_usage(prog, "bench measures a search: --player alphabeta or minimax");
    if (v->depth_given && depths_given)
        return cli_usage(prog, "give --depth or --depths, not both");
    if (v->depth_given)
        lo = hi = v->depth;
    struct bench_opts o = {
        .game = v->game,
        .player = (enum player_kind)v->player,
        .depth_min = (int)lo,
        .depth_max = (int)hi,
        .tt_bytes = (size_t)v->tt_mb << 20,
        .json_path = json,
    };
    struct err e;
    if (bench_run(&o, stdout, &e) != 0) {
        char where[64];
        snprintf(where, sizeof where, "%s bench", prog);
        err_print(stderr, json ? json : where, &e);
        return EXIT_BAD_INPUT;
    }
    return 0;
}
