/* engine.c - the one-move engine for every game, and its benchmark. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "arena/bench.h"
#include "arena/c4solver.h"
#include "arena/cli.h"
#include "arena/onemove.h"

#define PROG "engine"
#define DEFAULT_GAME "maxconnect4"
#define DEFAULT_DEPTH 6
#define BENCH_DEFAULT_MIN 1
#define BENCH_DEFAULT_MAX 10
#define TT_MAX_MB 65536L

static const char usage_text[] =
    "Usage: engine COMMAND [OPTIONS]\n"
    "\n"
    "  engine one-move [--game G] [--depth N] [--player P] [--seed N] [--tt-mb N] IN OUT [DEPTH]\n"
    "      Reads the board file IN, makes one move, writes the new board to OUT and\n"
    "      prints the board before and after (the Max-Connect4 sample program's\n"
    "      shape). One line of statistics goes to stderr:\n"
    "        info game G player P depth D nodes N cpu_ms T move M value V\n"
    "      DEPTH (or --depth) is the search depth in plies, default 6.\n"
    "      A finished game is reported and nothing is written.\n"
    "      Players: alphabeta (default), minimax (the plain reference), random\n"
    "      (uniform, a function of --seed and the position), perfect (the game's\n"
    "      solver: connect4, nim; the quickest win, then the lowest column).\n"
    "\n"
    "  engine bench [--game G] [--player alphabeta|minimax] [--depth N | --depths A-B]\n"
    "               [--tt-mb N] [--json FILE]\n"
    "      Searches fixed positions at fixed depths with the TT cleared before each\n"
    "      search; prints nodes, CPU seconds, nodes/s and effective branching factor\n"
    "      per depth, then the total node count (the search's signature).\n"
    "      Default depths 1-10.\n"
    "\n"
    "  engine solve [--weak] [--tt-mb N] [FILE...]\n"
    "      The perfect Connect-4 solver. Reads move strings (1-based column digits\n"
    "      from the empty board, e.g. 4453), one per line, from the FILEs or stdin;\n"
    "      a line may also carry the expected score after a space (the public test\n"
    "      sets' format), which is then checked. Prints per line:\n"
    "        MOVES SCORE NODES MICROSECONDS\n"
    "      SCORE: 0 draw; 22 minus the discs the winner has played at the end when\n"
    "      the side to move wins, its negation when it loses. --weak prints only\n"
    "      1, 0 or -1 (win, draw, loss). A bad line is reported with file:line:col\n"
    "      and the run goes on (exit status 2 at the end; 1 when a score differs\n"
    "      from the expected one). The table (default 64 MiB) is kept across lines.\n"
    "\n"
    "Games: connect4, maxconnect4 (default), nim, checkers. --tt-mb sets the transposition\n"
    "table size in MiB (default 32). Bad input exits with status 2 and writes nothing.\n";

enum { OPT_GAME = 256, OPT_DEPTH, OPT_DEPTHS, OPT_PLAYER, OPT_SEED, OPT_TT, OPT_JSON, OPT_WEAK };

static const struct option long_opts[] = {
    { "game", required_argument, NULL, OPT_GAME },
    { "depth", required_argument, NULL, OPT_DEPTH },
    { "depths", required_argument, NULL, OPT_DEPTHS },
    { "player", required_argument, NULL, OPT_PLAYER },
    { "seed", required_argument, NULL, OPT_SEED },
    { "tt-mb", required_argument, NULL, OPT_TT },
    { "json", required_argument, NULL, OPT_JSON },
    { "weak", no_argument, NULL, OPT_WEAK },
    { "help", no_argument, NULL, 'h' },
    { NULL, 0, NULL, 0 },
};

struct engine_args {
    const struct game *game;
    int player;
    long depth, depth_min, depth_max;
    unsigned long long seed;
    long tt_mb;
    const char *json;
    int depth_given, depths_given, tt_given;
    int weak;
};

/* Parses the options of a command; 0, 1 for --help, or EXIT_BAD_INPUT. */
static int parse_options(int argc, char **argv, const char *cmd, struct engine_args *a)
{
    int c;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, ":h", long_opts, NULL)) != -1) {
        long v;
        switch (c) {
        case 'h':
            return 1;
        case OPT_GAME:
            if (!(a->game = game_find(optarg)))
                return cli_usage(PROG, "unknown game '%s' (connect4, maxconnect4, nim, checkers)",
                                 optarg);
            break;
        case OPT_DEPTH:
            if (cli_int(optarg, 1, SEARCH_MAX_DEPTH, &a->depth) != 0)
                return cli_usage(PROG, "--depth must be a number from 1 to %d", SEARCH_MAX_DEPTH);
            a->depth_given = 1;
            break;
        case OPT_DEPTHS: {
            char lo[16], hi[16];
            if (sscanf(optarg, "%15[0-9]-%15[0-9]", lo, hi) != 2
                || cli_int(lo, 1, SEARCH_MAX_DEPTH, &a->depth_min) != 0
                || cli_int(hi, a->depth_min, SEARCH_MAX_DEPTH, &a->depth_max) != 0)
                return cli_usage(PROG, "--depths must be A-B with 1 <= A <= B <= %d",
                                 SEARCH_MAX_DEPTH);
            a->depths_given = 1;
            break;
        }
        case OPT_PLAYER:
            if ((a->player = player_parse(optarg)) < 0)
                return cli_usage(PROG, "unknown player '%s' (alphabeta, minimax, random, perfect)",
                                 optarg);
            break;
        case OPT_SEED:
            if (cli_int(optarg, 0, LONG_MAX, &v) != 0)
                return cli_usage(PROG, "--seed must be a non-negative number");
            a->seed = (unsigned long long)v;
            break;
        case OPT_TT:
            if (cli_int(optarg, 1, TT_MAX_MB, &a->tt_mb) != 0)
                return cli_usage(PROG, "--tt-mb must be a number from 1 to %ld", TT_MAX_MB);
            a->tt_given = 1;
            break;
        case OPT_WEAK:
            a->weak = 1;
            break;
        case OPT_JSON:
            a->json = optarg;
            break;
        case ':':
            return cli_usage(PROG, "%s: option '%s' needs a value", cmd, argv[optind - 1]);
        default:
            return cli_usage(PROG, "%s: unknown option '%s'", cmd, argv[optind - 1]);
        }
    }
    return 0;
}

static int cmd_one_move(int argc, char **argv, struct engine_args *a)
{
    int rc = parse_options(argc, argv, "one-move", a);
    if (rc == 1) {
        fputs(usage_text, stdout);
        return 0;
    }
    if (rc)
        return rc;
    int npos = argc - optind;
    if (npos < 2 || npos > 3)
        return cli_usage(PROG, "one-move needs IN OUT [DEPTH]");
    if (npos == 3) {
        long d;
        if (cli_int(argv[optind + 2], 1, SEARCH_MAX_DEPTH, &d) != 0)
            return cli_usage(PROG, "DEPTH must be a number from 1 to %d", SEARCH_MAX_DEPTH);
        if (a->depth_given && d != a->depth)
            return cli_usage(PROG, "--depth %ld and DEPTH %ld disagree", a->depth, d);
        a->depth = d;
    }
    if (a->json)
        return cli_usage(PROG, "--json belongs to bench");
    if (!player_supports(a->game, (enum player_kind)a->player))
        return cli_usage(PROG, "game %s has no %s player", a->game->name,
                         player_name((enum player_kind)a->player));
    struct onemove_opts o = {
        .game = a->game,
        .player = { .kind = (enum player_kind)a->player, .depth = (int)a->depth,
                    .seed = a->seed },
        .tt_bytes = (size_t)a->tt_mb << 20,
        .in = argv[optind],
        .out = argv[optind + 1],
    };
    return onemove_run(&o, stdout, stderr);
}

static int cmd_bench(int argc, char **argv, struct engine_args *a)
{
    int rc = parse_options(argc, argv, "bench", a);
    if (rc == 1) {
        fputs(usage_text, stdout);
        return 0;
    }
    if (rc)
        return rc;
    if (optind != argc)
        return cli_usage(PROG, "bench takes no arguments, found '%s'", argv[optind]);
    if (a->player == PLAYER_RANDOM || a->player == PLAYER_PERFECT)
        return cli_usage(PROG, "bench measures a search: --player alphabeta or minimax");
    if (a->depth_given && a->depths_given)
        return cli_usage(PROG, "give --depth or --depths, not both");
    if (a->depth_given)
        a->depth_min = a->depth_max = a->depth;
    struct bench_opts o = {
        .game = a->game,
        .player = (enum player_kind)a->player,
        .depth_min = (int)a->depth_min,
        .depth_max = (int)a->depth_max,
        .tt_bytes = (size_t)a->tt_mb << 20,
        .json_path = a->json,
    };
    struct err e;
    if (bench_run(&o, stdout, &e) != 0) {
        err_print(stderr, a->json ? a->json : PROG " bench", &e);
        return EXIT_BAD_INPUT;
    }
    return 0;
}

static int cmd_solve(int argc, char **argv, struct engine_args *a)
{
    int rc = parse_options(argc, argv, "solve", a);
    if (rc == 1) {
        fputs(usage_text, stdout);
        return 0;
    }
    if (rc)
        return rc;
    if (a->json || a->depth_given || a->depths_given)
        return cli_usage(PROG, "solve takes --weak and --tt-mb only");
    struct c4s s;
    size_t tt_bytes = (size_t)(a->tt_given ? a->tt_mb : C4S_DEFAULT_TT_MB) << 20;
    if (c4s_init(&s, tt_bytes) != 0) {
        fprintf(stderr, PROG ": out of memory for a %zu-byte table\n", tt_bytes);
        return 1;
    }
    int status = 0;
    if (optind == argc)
        status = c4s_solve_lines(&s, stdin, "<stdin>", a->weak, stdout, stderr);
    for (int i = optind; i < argc; i++) {
        FILE *in = fopen(argv[i], "r");
        int r;
        if (!in) {
            fprintf(stderr, "%s: cannot open: %s\n", argv[i], strerror(errno));
            r = EXIT_BAD_INPUT;
        } else {
            r = c4s_solve_lines(&s, in, argv[i], a->weak, stdout, stderr);
            fclose(in);
        }
        if (r == EXIT_BAD_INPUT || (r && !status))
            status = r;
    }
    c4s_free(&s);
    return status;
}

int main(int argc, char **argv)
{
    struct engine_args a = {
        .game = game_find(DEFAULT_GAME),
        .player = PLAYER_ALPHABETA,
        .depth = DEFAULT_DEPTH,
        .depth_min = BENCH_DEFAULT_MIN,
        .depth_max = BENCH_DEFAULT_MAX,
        .tt_mb = TT_DEFAULT_MB,
    };
    if (argc < 2)
        return cli_usage(PROG, "missing command (one-move, bench, solve)");
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        fputs(usage_text, stdout);
        return 0;
    }
    if (strcmp(argv[1], "one-move") == 0)
        return cmd_one_move(argc - 1, argv + 1, &a);
    if (strcmp(argv[1], "bench") == 0)
        return cmd_bench(argc - 1, argv + 1, &a);
    if (strcmp(argv[1], "solve") == 0)
        return cmd_solve(argc - 1, argv + 1, &a);
    return cli_usage(PROG, "unknown command '%s' (one-move, bench, solve)", argv[1]);
}
