/* c4solvecmd.c - `engine solve` (move strings in, exact scores out;
 * c4solvelines.h) and `engine book` (an opening book made by the solver;
 * c4bookmake.h) once the CLI has read their options: Connect-4's solver
 * capability (c4solvecmd.h). */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "arena/c4book.h"
#include "arena/c4bookmake.h"
#include "arena/c4moves.h"
#include "arena/c4solvelines.h"
#include "arena/c4solver.h"
#include "arena/cli.h"
#include "arena/clock.h"
#include "arena/connect4.h"
#include "arena/textfile.h"
#include "c4solvecmd.h"

#define NS_PER_S 1e9
/* Bytes of a regular input file looked at for a board file: a board file
 * is at most GAME_FORMAT_MAX bytes canonical, a little more with CRLF and
 * blanks; anything longer is not one. */
#define BOARD_PEEK_MAX (4 * GAME_FORMAT_MAX)

/* The solver with a table of o->tt_mb MiB; 0, or -1 after saying it is out
 * of memory. */
static int init_solver(const struct game_solver_opts *o, struct c4s *s)
{
    size_t tt_bytes = (size_t)o->tt_mb << 20;
    if (c4s_init(s, tt_bytes) == 0)
        return 0;
    fprintf(stderr, "%s: out of memory for a %zu-byte table\n", o->prog, tt_bytes);
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
static int solve_all(struct c4s *s, char *const *files, int n, int weak)
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

static int solve(const struct game_solver_opts *o, char *const *files, int n)
{
    struct c4book book;
    struct err e;
    if (o->book && c4book_load(o->book, &book, &e) != 0) {
        err_print(stderr, o->book, &e);
        return EXIT_BAD_INPUT;
    }
    struct c4s s;
    if (init_solver(o, &s) != 0) {
        if (o->book)
            c4book_free(&book);
        return 1;
    }
    if (o->book)
        c4s_set_book(&s, &book);
    if (o->threads > 1 && c4s_set_threads(&s, (int)o->threads) != 0)
        fprintf(stderr, "%s: out of memory for %ld threads' tables, solving with one\n", o->prog,
                o->threads);
    c4s_set_idle_only(&s, o->idle_only);
    int status = solve_all(&s, files, n, o->weak);
    c4s_free(&s);
    if (o->book)
        c4book_free(&book);
    return status;
}

static int book(const struct game_solver_opts *o, const char *out)
{
    const char *from = o->from ? o->from : "", *why;
    struct c4_pos root;
    int col = c4moves_parse(from, strlen(from), &root, &why);
    if (col != 0)
        return cli_usage(o->prog, "--from '%s': move %d: %s", from, col, why);
    struct c4s s;
    if (init_solver(o, &s) != 0)
        return 1;
    char *text;
    size_t len;
    struct c4bookmake_stats st;
    uint64_t t0 = clock_cpu_ns();
    int rc = c4bookmake_run(&s, from, o->depth, &text, &len, &st);
    double secs = (double)(clock_cpu_ns() - t0) / NS_PER_S;
    c4s_free(&s);
    if (rc != 0) {
        fprintf(stderr, "%s: out of memory making the book\n", o->prog);
        return 1;
    }
    struct err e;
    rc = tf_write_atomic(out, text, len, &e);
    free(text);
    if (rc != 0) {
        err_print(stderr, out, &e);
        return 1;
    }
    printf("%s: %zu positions, %zu solved, %llu nodes, %.2f s\n", out, st.positions, st.solved,
           (unsigned long long)st.nodes, secs);
    return 0;
}

const struct game_solver c4solvecmd_solver = {
    .book_max_depth = C4BOOKMAKE_MAX_DEPTH,
    .solve = solve,
    .book = book,
};
