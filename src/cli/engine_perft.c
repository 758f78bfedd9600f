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

enum { OPT_FROM = EOPT_OWN };

static const struct option options[] = {
    { "game", required_argument, NULL, EOPT_GAME },
    { "depth", required_argument, NULL, EOPT_DEPTH },
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
    struct eopt_parse ep = { .v = { .game = registry_find(ENGINE_DEFAULT_GAME) } };
    const char *from = NULL;
    eopt_start(&ep, prog, "perft", options, argc, argv);
    int c;
    while ((c = eopt_next(&ep)) != -1) {
        if (c != OPT_FROM)
            return cli_stop(c);
        from = optarg;
    }
    const struct game *game = ep.v.game;
    if (optind != argc)
        return cli_usage(prog, "perft takes no arguments, found '%s'", argv[optind]);
    if (!ep.v.depth_given)
        return cli_usage(prog, "perft needs --depth from 1 to %d", SEARCH_MAX_DEPTH);
    _Alignas(max_align_t) unsigned char pos[GAME_MAX_STATE];
    struct err e;
    if (!from)
        game_init(game, pos);
    else if (game_read_file(game, from, pos, &e) != 0) {
        err_print(stderr, from, &e);
        return EXIT_BAD_INPUT;
    }
    report(game, pos, from, (int)ep.v.depth);
    return 0;
}
