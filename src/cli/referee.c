/* referee.c - matches between any engines through board files. */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include "arena/cli.h"
#include "arena/match.h"
#include "arena/search.h"

#define PROG "referee"
#define DEFAULT_GAMES 2
#define DEFAULT_DEPTH 4
#define DEFAULT_TIMEOUT_MS 10000
#define DEFAULT_FILE_LIMIT_KB 1024
#define MAX_GAMES 1000000
#define MAX_TIMEOUT_MS 86400000L

static const char usage_text[] =
    "Usage: referee match --game G --engine SPEC --engine SPEC [OPTIONS]\n"
    "\n"
    "Plays games between two engines through board files: for every move the\n"
    "referee writes the position to a private folder, runs the engine (no shell,\n"
    "its own process group, resource limits, a wall deadline) and accepts its\n"
    "output file only when it is the position plus one legal move. Any other\n"
    "ending loses the game with a named reason (timeout, cpu-limit, crashed:\n"
    "SIGNAL, exit-status N, cannot-run, no-output, unreadable, oversized,\n"
    "illegal-move, wrong-player, tampered-board). Colours alternate; each pair\n"
    "of games shares its opening.\n"
    "\n"
    "  --game G             connect4, maxconnect4 or nim\n"
    "  --engine SPEC        name=NAME,cmd=COMMAND or COMMAND (twice). Placeholders\n"
    "                       {in} {out} {depth} {player}; none: {in} {out} {depth}\n"
    "                       are appended\n"
    "  --games N            games in all (default 2)\n"
    "  --depth N            the {depth} given to engines (default 4)\n"
    "  --random-plies N     opening: N random plies from the start (default 0)\n"
    "  --seed N             seed of the openings (default 1)\n"
    "  --timeout-ms N       wall time per move (default 10000)\n"
    "  --cpu-limit-s N      CPU seconds per move (RLIMIT_CPU; default none)\n"
    "  --mem-limit-mb N     address space per move (RLIMIT_AS; default none)\n"
    "  --log FILE           the JSON log (schema arena.match/1), written atomically\n"
    "\n"
    "Prints one line per game and 'Score of A vs B: W - L - D [ratio] N'.\n";

enum {
    OPT_GAME = 256, OPT_ENGINE, OPT_GAMES, OPT_DEPTH, OPT_PLIES, OPT_SEED, OPT_TIMEOUT, OPT_CPU,
    OPT_MEM, OPT_LOG
};

static const struct option long_opts[] = {
    { "game", required_argument, NULL, OPT_GAME },
    { "engine", required_argument, NULL, OPT_ENGINE },
    { "games", required_argument, NULL, OPT_GAMES },
    { "depth", required_argument, NULL, OPT_DEPTH },
    { "random-plies", required_argument, NULL, OPT_PLIES },
    { "seed", required_argument, NULL, OPT_SEED },
    { "timeout-ms", required_argument, NULL, OPT_TIMEOUT },
    { "cpu-limit-s", required_argument, NULL, OPT_CPU },
    { "mem-limit-mb", required_argument, NULL, OPT_MEM },
    { "log", required_argument, NULL, OPT_LOG },
    { "help", no_argument, NULL, 'h' },
    { NULL, 0, NULL, 0 },
};

static int number(const char *name, long lo, long hi, long *out)
{
    if (cli_int(optarg, lo, hi, out) != 0)
        return cli_usage(PROG, "%s must be a number from %ld to %ld, got '%s'", name, lo, hi,
                         optarg);
    return 0;
}

static int cmd_match(int argc, char **argv)
{
    struct ref_engine eng[2];
    int nengines = 0, rc = 0;
    long games = DEFAULT_GAMES, depth = DEFAULT_DEPTH, plies = 0, seed = 1;
    long timeout = DEFAULT_TIMEOUT_MS, cpu = 0, mem = 0;
    const struct game *g = NULL;
    const char *log = NULL;
    int c;
    opterr = 0;
    optind = 1;
    while (!rc && (c = getopt_long(argc, argv, ":h", long_opts, NULL)) != -1) {
        switch (c) {
        case 'h':
            fputs(usage_text, stdout);
            for (int i = 0; i < nengines; i++)
                ref_engine_free(&eng[i]);
            return 0;
        case OPT_GAME:
            if (!(g = game_find(optarg)))
                rc = cli_usage(PROG, "unknown game '%s' (connect4, maxconnect4, nim)", optarg);
            break;
        case OPT_ENGINE: {
            struct err e;
            if (nengines == 2) {
                rc = cli_usage(PROG, "a match takes two engines, got a third: '%s'", optarg);
            } else if (ref_engine_parse(optarg, &eng[nengines], &e) != 0) {
                rc = cli_usage(PROG, "--engine '%s': column %d: %s", optarg, e.col, e.msg);
            } else {
                nengines++;
            }
            break;
        }
        case OPT_GAMES:
            rc = number("--games", 1, MAX_GAMES, &games);
            break;
        case OPT_DEPTH:
            rc = number("--depth", 1, SEARCH_MAX_DEPTH, &depth);
            break;
        case OPT_PLIES:
            rc = number("--random-plies", 0, GAME_MAX_MOVES, &plies);
            break;
        case OPT_SEED:
            rc = number("--seed", 0, LONG_MAX, &seed);
            break;
        case OPT_TIMEOUT:
            rc = number("--timeout-ms", 1, MAX_TIMEOUT_MS, &timeout);
            break;
        case OPT_CPU:
            rc = number("--cpu-limit-s", 0, MAX_TIMEOUT_MS / 1000, &cpu);
            break;
        case OPT_MEM:
            rc = number("--mem-limit-mb", 0, LONG_MAX / (1 << 20), &mem);
            break;
        case OPT_LOG:
            log = optarg;
            break;
        case ':':
            rc = cli_usage(PROG, "match: option '%s' needs a value", argv[optind - 1]);
            break;
        default:
            rc = cli_usage(PROG, "match: unknown option '%s'", argv[optind - 1]);
            break;
        }
    }
    if (!rc && optind < argc)
        rc = cli_usage(PROG, "match: unexpected argument '%s'", argv[optind]);
    if (!rc && !g)
        rc = cli_usage(PROG, "match: --game is required");
    if (!rc && nengines != 2)
        rc = cli_usage(PROG, "match: give two --engine options, got %d", nengines);
    if (!rc) {
        struct match_opts o = {
            .game = g,
            .engine = { &eng[0], &eng[1] },
            .games = (int)games,
            .depth = (int)depth,
            .random_plies = (int)plies,
            .seed = (uint64_t)seed,
            .limits = { .timeout_ms = timeout, .cpu_limit_s = cpu, .mem_limit_mb = mem,
                        .file_limit_kb = DEFAULT_FILE_LIMIT_KB },
            .log_path = log,
        };
        struct err e;
        if (match_run(&o, stdout, &e) != 0) {
            err_print(stderr, log && e.line == 0 && strstr(e.msg, log) == NULL ? log : PROG, &e);
            rc = 1;
        }
    }
    for (int i = 0; i < nengines; i++)
        ref_engine_free(&eng[i]);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return cli_usage(PROG, "missing command (match)");
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        fputs(usage_text, stdout);
        return 0;
    }
    if (strcmp(argv[1], "match") == 0)
        return cmd_match(argc - 1, argv + 1);
    return cli_usage(PROG, "unknown command '%s' (match)", argv[1]);
}
