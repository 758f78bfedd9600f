/* engine_bench.c - `engine bench`: the search on fixed positions at fixed
 * depths, the node-count signature (bench.h). */
#include <stdio.h>
#include "arena/registry.h"
#include "arena/bench.h"
#include "arena/cli.h"
#include "arena/limits.h"
#include "engine.h"

enum { OPT_GAME = 256, OPT_PLAYER, OPT_DEPTH, OPT_DEPTHS, OPT_TT, OPT_JSON };

static const struct option options[] = {
    { "game", required_argument, NULL, OPT_GAME },
    { "player", required_argument, NULL, OPT_PLAYER },
    { "depth", required_argument, NULL, OPT_DEPTH },
    { "depths", required_argument, NULL, OPT_DEPTHS },
    { "tt-mb", required_argument, NULL, OPT_TT },
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
    const struct game *game = registry_find(ENGINE_DEFAULT_GAME);
    int player = PLAYER_ALPHABETA, depth_given = 0, depths_given = 0;
    long depth = 0, lo = BENCH_DEFAULT_DEPTH_MIN, hi = BENCH_DEFAULT_DEPTH_MAX;
    long tt_mb = TT_DEFAULT_MB;
    const char *json = NULL;
    struct eopt_help help;
    struct cli_parse p = { .prog = prog, .cmd = "bench", .opts = options,
                           .help = engine_usage_text,
                           .help_args = eopt_help_args(&help), .argc = argc, .argv = argv };
    int c, rc = 0;
    while (!rc && (c = cli_next(&p)) != -1) {
        switch (c) {
        case OPT_GAME:
            rc = eopt_game(prog, optarg, &game);
            break;
        case OPT_PLAYER:
            rc = eopt_player(prog, optarg, &player);
            break;
        case OPT_DEPTH:
            rc = eopt_depth(prog, optarg, &depth);
            depth_given = 1;
            break;
        case OPT_DEPTHS:
            rc = parse_depths(prog, optarg, &lo, &hi);
            depths_given = 1;
            break;
        case OPT_TT:
            rc = eopt_tt_mb(prog, optarg, &tt_mb);
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
    if (optind != argc)
        return cli_usage(prog, "bench takes no arguments, found '%s'", argv[optind]);
    if (player != PLAYER_ALPHABETA && player != PLAYER_MINIMAX)
        return cli_usage(prog, "bench measures a search: --player alphabeta or minimax");
    if (depth_given && depths_given)
        return cli_usage(prog, "give --depth or --depths, not both");
    if (depth_given)
        lo = hi = depth;
    struct bench_opts o = {
        .game = game,
        .player = (enum player_kind)player,
        .depth_min = (int)lo,
        .depth_max = (int)hi,
        .tt_bytes = (size_t)tt_mb << 20,
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
