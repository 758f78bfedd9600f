/* engine_perft.c - `engine perft`: how many positions lie 1, 2, ..., N
 * plies from the start or a board file (game_perft, game.h), the standard
 * check of a game's move generator, with the deepest count's CPU time. */
#include <stddef.h>
#include <stdio.h>
#include "arena/cli.h"
#include "arena/clock.h"
#include "arena/limits.h"
#include "arena/registry.h"
#include "engine.h"

#define NS_PER_MS 1e6
#define NS_PER_S  1e9

enum { OPT_GAME = 256, OPT_DEPTH, OPT_FROM };

static const struct option options[] = {
    { "game", required_argument, NULL, OPT_GAME },
    { "depth", required_argument, NULL, OPT_DEPTH },
    { "from", required_argument, NULL, OPT_FROM },
    CLI_STD_OPTIONS,
};

/* Prints each depth's count on stdout, the last one's time on stderr. */
static void report(const struct game *g, const void *pos, const char *from, int depth)
{
    printf("perft %s from %s\n", g->name, from ? from : "start");
    uint64_t count = 0, ns = 0;
    for (int d = 1; d <= depth; d++) {
        uint64_t t0 = clock_cpu_ns();
        count = game_perft(g, pos, d);
        ns = clock_cpu_ns() - t0;
        printf("depth %d positions %llu\n", d, (unsigned long long)count);
        fflush(stdout);
    }
    double secs = (double)ns / NS_PER_S;
    fprintf(stderr, "info game %s depth %d positions %llu cpu_ms %.3f positions_per_s %.0f\n",
            g->name, depth, (unsigned long long)count, (double)ns / NS_PER_MS,
            secs > 0 ? (double)count / secs : 0.0);
}

int cmd_perft(const char *prog, int argc, char **argv)
{
    const struct game *game = registry_find(ENGINE_DEFAULT_GAME);
    long depth = 0;
    const char *from = NULL;
    struct eopt_help help;
    struct cli_parse p = { .prog = prog, .cmd = "perft", .opts = options,
                           .help = engine_usage_text,
                           .help_args = eopt_help_args(&help), .argc = argc, .argv = argv };
    int c, rc = 0;
    while (!rc && (c = cli_next(&p)) != -1) {
        switch (c) {
        case OPT_GAME:
            rc = eopt_game(prog, optarg, &game);
            break;
        case OPT_DEPTH:
            rc = eopt_depth(prog, optarg, &depth);
            break;
        case OPT_FROM:
            from = optarg;
            break;
        default:
            return cli_stop(c);
        }
    }
    if (rc)
        return rc;
    if (optind != argc)
        return cli_usage(prog, "perft takes no arguments, found '%s'", argv[optind]);
    if (depth == 0)
        return cli_usage(prog, "perft needs --depth from 1 to %d", SEARCH_MAX_DEPTH);
    _Alignas(max_align_t) unsigned char pos[GAME_MAX_STATE];
    struct err e;
    if (!from)
        game_init(game, pos);
    else if (game_read_file(game, from, pos, &e) != 0) {
        err_print(stderr, from, &e);
        return EXIT_BAD_INPUT;
    }
    report(game, pos, from, (int)depth);
    return 0;
}
