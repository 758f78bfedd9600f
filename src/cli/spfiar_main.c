/* spfiar_main.c - the spfiar binary, the SPFIAR assignment's program: a
 * session on stdin/stdout, or one suggestion for a board file. */
#include <getopt.h>
#include <stdio.h>
#include "arena/cli.h"
#include "arena/clock.h"
#include "arena/spfiar.h"

#define NS_PER_MS 1e6

static const char usage_text[] =
    "Usage: %1$s [--level N]\n"
    "       %1$s --suggest FILE [--level N]\n"
    "       %1$s --bench [--level N]\n"
    "\n"
    "Plays Connect-4 against you on the terminal, exactly as the SPFIAR\n"
    "assignment prints it. You are X and move first; the computer is O and\n"
    "plays pure minimax to the difficulty level (1-7). Commands:\n"
    "  add_disc N      drop your disc in column N (1-7)\n"
    "  suggest_move    the column minimax would play for you\n"
    "  undo_move       take back the computer's last disc and yours\n"
    "                  (the last 20 discs can be taken back)\n"
    "  restart_game    start over from the level prompt\n"
    "  quit            exit (end of input does the same)\n"
    "\n"
    "--level N         skip the level prompt: every game at level N\n"
    "--suggest FILE    print the suggested move for the player to move in a\n"
    "                  connect4 board file and exit (level 7 unless --level);\n"
    "                  search figures go to stderr as one 'info' line\n"
    "--bench           time the search: it plays both sides of a game from the\n"
    "                  empty board (level 7 unless --level), per-move nodes and\n"
    "                  CPU time, then a node-count signature\n"
    "\n"
    "A bad board file or option exits with status 2; a finished game given to\n"
    "--suggest prints 'Error: the game is over' and exits with status 1.\n"
    "--version prints the version.\n";

enum { OPT_LEVEL = 256, OPT_SUGGEST, OPT_BENCH };

static const struct option long_opts[] = {
    { "level", required_argument, NULL, OPT_LEVEL },
    { "suggest", required_argument, NULL, OPT_SUGGEST },
    { "bench", no_argument, NULL, OPT_BENCH },
    CLI_STD_OPTIONS,
};

static int suggest_file(const char *path, int level)
{
    struct c4_pos p;
    struct err e;
    if (game_read_file(&game_connect4, path, &p, &e) != 0) {
        err_print(stderr, path, &e);
        return EXIT_BAD_INPUT;
    }
    if (game_result(&game_connect4, &p) >= 0) {
        fputs("Error: the game is over\n", stdout);
        return 1;
    }
    struct search s;
    struct search_opts so = spf_search_opts();
    if (search_init(&s, &game_connect4, &so) != 0) {
        fputs("Error: malloc has failed\n", stdout);
        return 1;
    }
    struct search_result r;
    uint64_t t0 = clock_cpu_ns();
    int col = spf_best_move(&s, &p, level, &r);
    double ms = (double)(clock_cpu_ns() - t0) / NS_PER_MS;
    search_free(&s);
    printf("Suggested move: drop a disc to column %d\n", col + 1);
    fprintf(stderr, "info level %d nodes %llu cpu_ms %.3f move %d value %d\n", level,
            (unsigned long long)r.nodes, ms, col + 1, r.value);
    return 0;
}

int main(int argc, char **argv)
{
    const char *prog = cli_prog(argv[0], "spfiar");
    long level = 0;
    const char *suggest = NULL;
    struct cli_parse p = { .prog = prog, .opts = long_opts, .help = usage_text,
                           .argc = argc, .argv = argv };
    int c, bench = 0;
    while ((c = cli_next(&p)) != -1) {
        switch (c) {
        case OPT_LEVEL:
            if (cli_int(optarg, SPF_LEVEL_MIN, SPF_LEVEL_MAX, &level) != 0)
                return cli_usage(prog, "--level must be a number from %d to %d, got '%s'",
                                 SPF_LEVEL_MIN, SPF_LEVEL_MAX, optarg);
            break;
        case OPT_SUGGEST:
            suggest = optarg;
            break;
        case OPT_BENCH:
            bench = 1;
            break;
        default:
            return cli_stop(c);
        }
    }
    if (optind < argc)
        return cli_usage(prog, "unexpected argument '%s'", argv[optind]);
    if (suggest && bench)
        return cli_usage(prog, "--suggest and --bench exclude each other");
    if (bench) {
        if (spf_bench(stdout, level ? (int)level : SPF_LEVEL_MAX) != 0) {
            fputs("Error: malloc has failed\n", stdout);
            return 1;
        }
        return 0;
    }
    if (suggest)
        return suggest_file(suggest, level ? (int)level : SPF_LEVEL_MAX);
    struct spf_session_opts o = { .level = (int)level, .tt_bytes = SPF_TT_BYTES };
    return spf_session_run(&o, stdin, stdout);
}
