/* engine_solve.c - the Connect-4 solver's commands: `engine solve` (move
 * strings in, exact scores out; c4solver.h) and `engine book` (an opening
 * book made by the solver; c4book.h). */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "arena/c4book.h"
#include "arena/c4bookmake.h"
#include "arena/c4moves.h"
#include "arena/c4solvelines.h"
#include "arena/c4solver.h"
#include "arena/cli.h"
#include "arena/clock.h"
#include "arena/connect4.h"
#include "arena/limits.h"
#include "arena/textfile.h"
#include "engine.h"

#define NS_PER_S 1e9
/* Bytes of a regular input file looked at for a board file: a board file
 * is at most GAME_FORMAT_MAX bytes canonical, a little more with CRLF and
 * blanks; anything longer is not one. */
#define BOARD_PEEK_MAX (4 * GAME_FORMAT_MAX)

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
    long tt_mb, depth;
    long threads;   /* solve --threads; the machine's cores unless given */
    int weak, depth_given;
    const char *book, *from;
};

/* Reads the options of solve or book (their tables) into a; 0, -1 after
 * --help or --version, or EXIT_BAD_INPUT. */
static int parse(const char *prog, const char *cmd, const struct option *opts, int argc,
                 char **argv, struct solver_args *a)
{
    struct eopt_help help;
    struct cli_parse p = { .prog = prog, .cmd = cmd, .opts = opts,
                           .help = engine_usage_text,
                           .help_args = eopt_help_args(&help), .argc = argc, .argv = argv };
    int c, rc = 0;
    while (!rc && (c = cli_next(&p)) != -1) {
        switch (c) {
        case OPT_GAME:
            rc = eopt_solver_game(prog, cmd, optarg);
            break;
        case OPT_WEAK:
            a->weak = 1;
            break;
        case OPT_TT:
            rc = eopt_tt_mb(prog, optarg, &a->tt_mb);
            break;
        case OPT_BOOK:
            a->book = optarg;
            break;
        case OPT_DEPTH:
            rc = eopt_depth(prog, optarg, &a->depth);
            a->depth_given = 1;
            break;
        case OPT_FROM:
            a->from = optarg;
            break;
        case OPT_THREADS:
            if (cli_int(optarg, 1, C4S_MAX_THREADS, &a->threads) != 0)
                rc = cli_usage(prog, "--threads must be a number from 1 to %d", C4S_MAX_THREADS);
            break;
        default:
            return c == CLI_DONE ? -1 : EXIT_BAD_INPUT;
        }
    }
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

/* The solver with a table of a->tt_mb MiB; 0, or -1 after saying it is out
 * of memory. */
static int init_solver(const char *prog, const struct solver_args *a, struct c4s *s)
{
    size_t tt_bytes = (size_t)a->tt_mb << 20;
    if (c4s_init(s, tt_bytes) == 0)
        return 0;
    fprintf(stderr, "%s: out of memory for a %zu-byte table\n", prog, tt_bytes);
    return -1;
}

/* 1 when in is a regular file whose rest parses as a Connect-4 or
 * Max-Connect4 board file; in is back where it was after. A pipe or a
 * terminal is never looked at, so that solve answers line by line. */
static int is_board_file(FILE *in)
{
    struct stat st;
    long at = ftell(in);
    if (fstat(fileno(in), &st) != 0 || !S_ISREG(st.st_mode) || at < 0
        || st.st_size - at > BOARD_PEEK_MAX)
        return 0;
    char text[BOARD_PEEK_MAX + 1];
    size_t len = fread(text, 1, BOARD_PEEK_MAX, in);
    text[len] = '\0';
    if (fseek(in, at, SEEK_SET) != 0)
        return 0;
    _Alignas(max_align_t) unsigned char pos[GAME_MAX_STATE];
    struct err e;
    return game_connect4.parse(pos, text, len, &e) == 0
           || game_maxconnect4.parse(pos, text, len, &e) == 0;
}

/* Solves every line of in (named name); the status of c4s_solve_lines, or
 * EXIT_BAD_INPUT for a board file, which is refused before any solve. */
static int solve_input(struct c4s *s, FILE *in, const char *name, int weak)
{
    if (is_board_file(in)) {
        fprintf(stderr,
                "%s:1:1: this looks like a board file; solve reads move strings such as 4453 "
                "(see --help)\n",
                name);
        return EXIT_BAD_INPUT;
    }
    return c4solvelines_run(s, in, name, weak, stdout, stderr);
}

/* Solves the files, or stdin without any; the worst status (bad input
 * first, then a differing score). */
static int solve_all(struct c4s *s, char **files, int n, int weak)
{
    if (n == 0)
        return solve_input(s, stdin, "<stdin>", weak);
    int status = 0;
    for (int i = 0; i < n; i++) {
        FILE *in = fopen(files[i], "r");
        int r;
        if (!in) {
            fprintf(stderr, "%s: cannot open: %s\n", files[i], strerror(errno));
            r = EXIT_BAD_INPUT;
        } else {
            r = solve_input(s, in, files[i], weak);
            fclose(in);
        }
        if (r == EXIT_BAD_INPUT || (r && !status))
            status = r;
    }
    return status;
}

int cmd_solve(const char *prog, int argc, char **argv)
{
    struct solver_args a = { .tt_mb = C4S_DEFAULT_TT_MB, .threads = default_threads() };
    int rc = parse(prog, "solve", solve_options, argc, argv, &a);
    if (rc)
        return rc < 0 ? 0 : rc;
    struct c4book book;
    struct err e;
    if (a.book && c4book_load(a.book, &book, &e) != 0) {
        err_print(stderr, a.book, &e);
        return EXIT_BAD_INPUT;
    }
    struct c4s s;
    if (init_solver(prog, &a, &s) != 0) {
        if (a.book)
            c4book_free(&book);
        return 1;
    }
    if (a.book)
        c4s_set_book(&s, &book);
    if (a.threads > 1 && c4s_set_threads(&s, (int)a.threads) != 0)
        fprintf(stderr, "%s: out of memory for %ld threads' tables, solving with one\n", prog,
                a.threads);
    int status = solve_all(&s, argv + optind, argc - optind, a.weak);
    c4s_free(&s);
    if (a.book)
        c4book_free(&book);
    return status;
}

int cmd_book(const char *prog, int argc, char **argv)
{
    struct solver_args a = { .tt_mb = C4S_DEFAULT_TT_MB };
    int rc = parse(prog, "book", book_options, argc, argv, &a);
    if (rc)
        return rc < 0 ? 0 : rc;
    if (!a.depth_given || a.depth > C4BOOKMAKE_MAX_DEPTH)
        return cli_usage(prog, "book needs --depth from 1 to %d", C4BOOKMAKE_MAX_DEPTH);
    if (optind != argc - 1)
        return cli_usage(prog, "book takes one OUT file");
    const char *from = a.from ? a.from : "", *why;
    struct c4_pos root;
    int col = c4moves_parse(from, strlen(from), &root, &why);
    if (col != 0)
        return cli_usage(prog, "--from '%s': move %d: %s", from, col, why);
    struct c4s s;
    if (init_solver(prog, &a, &s) != 0)
        return 1;
    char *text;
    size_t len;
    struct c4bookmake_stats st;
    uint64_t t0 = clock_cpu_ns();
    rc = c4bookmake_run(&s, from, (int)a.depth, &text, &len, &st);
    double secs = (double)(clock_cpu_ns() - t0) / NS_PER_S;
    c4s_free(&s);
    if (rc != 0) {
        fprintf(stderr, "%s: out of memory making the book\n", prog);
        return 1;
    }
    struct err e;
    rc = tf_write_atomic(argv[optind], text, len, &e);
    free(text);
    if (rc != 0) {
        err_print(stderr, argv[optind], &e);
        return 1;
    }
    printf("%s: %zu positions, %zu solved, %llu nodes, %.2f s\n", argv[optind], st.positions,
           st.solved, (unsigned long long)st.nodes, secs);
    return 0;
}
