/* checkers_main.c - the checkers binary, the checkers seed's program:
 * replays an action list from stdin with the A and P commands, from the
 * initial setup or a board file. */
#include <getopt.h>
#include <stdio.h>
#include "arena/checkers.h"
#include "arena/cli.h"

static const char usage_text[] =
    "Usage: %1$s [--depth N] [--board FILE] < ACTIONS\n"
    "\n"
    "Replays a game of the course's checkers variant read from stdin, printing\n"
    "exactly what the course's program prints: the initial board, then each\n"
    "action with the board cost b + 3B - w - 3W and the board. One action per\n"
    "line, source and target cells such as G6-F5, black first. An optional last\n"
    "line holds a command:\n"
    "  A   compute and print the next action (minimax, depth 3)\n"
    "  P   play the next ten actions, or until the game ends\n"
    "Computed actions are marked '***'; a side that cannot act on its turn loses\n"
    "(BLACK WIN! or WHITE WIN!). An illegal action prints the course's ERROR line\n"
    "and exits with status 2.\n"
    "\n"
    "--depth N      search depth in plies for A and P (default 3); alpha-beta,\n"
    "               which picks exactly what minimax picks\n"
    "--board FILE   start from a board file instead of the initial setup: 8\n"
    "               lines of 8 characters (. b w B W), row 1 first, then black\n"
    "               or white, the side to move\n"
    "\n"
    "A line that is not an action or command, or a bad board file, prints\n"
    "file:line:column: what is wrong on stderr and exits with status 2.\n"
    "--version prints the version.\n";

enum { OPT_DEPTH = 256, OPT_BOARD };

static const struct option long_opts[] = {
    { "depth", required_argument, NULL, OPT_DEPTH },
    { "board", required_argument, NULL, OPT_BOARD },
    CLI_STD_OPTIONS,
};

int main(int argc, char **argv)
{
    const char *prog = cli_prog(argv[0], "checkers");
    long depth = CK_SEED_DEPTH;
    const char *board = NULL;
    struct cli_parse p = { .prog = prog, .opts = long_opts, .help = usage_text,
                           .argc = argc, .argv = argv };
    int c;
    while ((c = cli_next(&p)) != -1) {
        switch (c) {
        case OPT_DEPTH:
            if (cli_int(optarg, 1, SEARCH_MAX_DEPTH, &depth) != 0)
                return cli_usage(prog, "--depth must be a number from 1 to %d, got '%s'",
                                 SEARCH_MAX_DEPTH, optarg);
            break;
        case OPT_BOARD:
            board = optarg;
            break;
        default:
            return cli_stop(c);
        }
    }
    if (optind != argc)
        return cli_usage(prog, "unexpected argument '%s' (the actions come on stdin)",
                         argv[optind]);
    struct ck_pos start;
    if (board) {
        struct err e;
        if (game_read_file(&game_checkers, board, &start, &e) != 0) {
            err_print(stderr, board, &e);
            return EXIT_BAD_INPUT;
        }
    } else {
        ck_init(&start);
    }
    struct ck_session_opts o = { .start = &start, .depth = (int)depth };
    return ck_session_run(&o, stdin, stdout, stderr);
}
