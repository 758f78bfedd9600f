/*
 * test_e2e_checkers.c - the checkers binary and checkers in the engine, end
 * to end; `make test` runs every case under valgrind with leak checking.
 *
 *   - the course's nine cases (../shared/reference/checkers-course/testN.txt
 *     on stdin, stdout compared with testN-out.txt byte for byte), also with
 *     CRLF line endings and without the last newline; skipped when that
 *     folder is absent;
 *   - sessions under fixtures/checkers (NAME.in on stdin, an optional board
 *     file and depth, stdout compared with the expected .out): wins by an
 *     input action and by the input leaving the side to move blocked (with
 *     no command, A and P: one WIN line each), none after A's own winning
 *     action (A is one turn, as in the seed), P ending the game early,
 *     towers moving and capturing backwards, promotion by move and by
 *     capture, white to move first from a board file, A at the start, a
 *     command ending the input, blank lines and blanks around actions,
 *     --depth 1 and 5 where they answer differently from depth 3, and every
 *     one of the seed's errors (exit status 2);
 *   - lines that are neither an action nor a command: stdin:line:col on
 *     stderr, exit 2, the boards printed so far on stdout;
 *   - bad board files for `checkers --board` and `engine one-move`: exit 2,
 *     file:line:col on stderr, nothing on stdout, no output file;
 *   - engine one-move on checkers boards (the report and the written board),
 *     a finished board, the benchmark, and the binary's usage errors.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "e2e_util.h"

#define EXIT_BAD 2
#define COURSE_DIR "../shared/reference/checkers-course"
#define COURSE_CASES 9
#define COURSE_FIRST_ERROR 5      /* test5..test8 end with the seed's ERROR line */
#define NAME_MAX_LEN 48

static int starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* How a session's input is fed: as written, with CRLF endings, or without
 * the newline of its last line. */
enum feed { FEED_LF, FEED_CRLF, FEED_NO_LAST_NEWLINE, FEEDS };

static const char *const feed_name[FEEDS] = { "LF", "CRLF", "no last newline" };

/* text rewritten for feed f; malloc'd, caller frees. */
static char *feed_text(const char *text, enum feed f)
{
    size_t len = strlen(text);
    char *out = malloc(2 * len + 1), *o = out;
    for (size_t i = 0; i < len; i++) {
        if (text[i] == '\n' && f == FEED_CRLF)
            *o++ = '\r';
        if (text[i] == '\n' && f == FEED_NO_LAST_NEWLINE && i == len - 1)
            break;
        *o++ = text[i];
    }
    *o = '\0';
    return out;
}

/* Runs checkers in a fresh folder with stdin and args, checks the exit
 * status, that stderr is empty and that stdout equals expected (len bytes). */
static void check_run(const char *what, const char *input, const char *const *args, int status,
                      const char *expected, size_t len)
{
    char *dir = e2e_tmpdir();
    struct e2e_run r;
    e2e_runv(&r, dir, input, "checkers", args);
    cr_assert_eq(r.status, status, "%s: exit %d, expected %d: %s", what, r.status, status, r.err);
    cr_assert_eq(r.err_len, 0, "%s: stderr: %s", what, r.err);
    size_t i = 0;
    while (i < r.out_len && i < len && r.out[i] == expected[i])
        i++;
    cr_assert(i == r.out_len && i == len,
              "%s: stdout differs at byte %zu (lengths %zu and %zu)\n--- got:\n%s", what, i,
              r.out_len, len, r.out);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

/* ---- the course's cases ------------------------------------------------- */

struct course_case {
    int n;
    enum feed feed;
};

ParameterizedTestParameters(e2e_checkers, course_case)
{
    /* Every case as the course gives it, and some with the other feeds. */
    static struct course_case cases[] = {
        { 0, FEED_LF },   { 1, FEED_LF },   { 2, FEED_LF },   { 3, FEED_LF },
        { 4, FEED_LF },   { 5, FEED_LF },   { 6, FEED_LF },   { 7, FEED_LF },
        { 8, FEED_LF },   { 1, FEED_CRLF }, { 3, FEED_CRLF }, { 8, FEED_CRLF },
        { 1, FEED_NO_LAST_NEWLINE },        { 4, FEED_NO_LAST_NEWLINE },
        { 5, FEED_NO_LAST_NEWLINE },
    };
    return cr_make_param_array(struct course_case, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct course_case *c, e2e_checkers, course_case)
{
    if (!e2e_exists(COURSE_DIR))
        cr_skip_test("%s is not here", COURSE_DIR);
    char in_path[PATH_MAX], out_path[PATH_MAX], what[64];
    snprintf(in_path, sizeof in_path, "%s/test%d.txt", COURSE_DIR, c->n);
    snprintf(out_path, sizeof out_path, "%s/test%d-out.txt", COURSE_DIR, c->n);
    snprintf(what, sizeof what, "test%d (%s)", c->n, feed_name[c->feed]);
    char *input = e2e_slurp(in_path, NULL);
    size_t len;
    char *expected = e2e_slurp(out_path, &len);
    cr_assert(input && expected, "cannot read %s or %s", in_path, out_path);
    char *fed = feed_text(input, c->feed);
    const char *args[] = { NULL };
    check_run(what, fed, args, c->n >= COURSE_FIRST_ERROR ? EXIT_BAD : 0, expected, len);
    free(fed);
    free(input);
    free(expected);
}

/* ---- sessions ------------------------------------------------------------- */

struct session {
    char in[NAME_MAX_LEN];      /* fixtures/checkers/IN.in */
    char out[NAME_MAX_LEN];     /* fixtures/checkers/OUT.out */
    char board[NAME_MAX_LEN];   /* --board fixtures/checkers/BOARD.board, "" for none */
    char depth[4];              /* --depth, "" for the default */
    int status;
    int feeds;                  /* how many of enum feed to try, from FEED_LF */
};

ParameterizedTestParameters(e2e_checkers, session)
{
    static struct session cases[] = {
        { "black-wins", "black-wins", "black-wins", "", 0, FEEDS },
        /* A is one turn: the turn after its winning action is not looked at. */
        { "black-wins-a", "black-wins-a", "black-wins", "", 0, 1 },
        { "white-wins-blocked", "white-wins-blocked", "blocked", "", 0, 1 },
        { "white-wins-blocked-a", "white-wins-blocked", "blocked", "", 0, 1 },
        { "white-wins-blocked-p", "white-wins-blocked", "blocked", "", 0, 1 },
        { "no-action-none", "no-action", "no-action", "", 0, 1 },
        { "no-action-a", "no-action", "no-action", "", 0, 1 },
        { "no-action-p", "no-action", "no-action", "", 0, 1 },
        { "white-promotes-p", "white-promotes-p", "white-promotes", "", 0, 1 },
        { "black-hunts-p", "black-hunts-p", "black-hunts", "", 0, 1 },
        { "towers", "towers", "towers", "", 0, FEEDS },
        { "white-first", "white-first", "white-first", "", 0, 1 },
        { "start-a", "start-a", "", "", 0, 1 },
        { "command-ends-input", "command-ends-input", "", "", 0, 1 },
        { "blank-lines", "blank-lines", "", "", 0, FEEDS },
        { "depth", "depth-1", "", "1", 0, 1 },
        { "depth", "depth-5", "", "5", 0, 1 },
        { "err-source-outside", "err-source-outside", "", "", EXIT_BAD, 1 },
        { "err-both-outside", "err-both-outside", "", "", EXIT_BAD, 1 },
        { "err-target-outside", "err-target-outside", "", "", EXIT_BAD, 1 },
        { "err-source-empty", "err-source-empty", "", "", EXIT_BAD, 1 },
        { "err-target-not-empty", "err-target-not-empty", "", "", EXIT_BAD, 1 },
        { "err-white-first", "err-white-first", "", "", EXIT_BAD, FEEDS },
        { "err-illegal-backward", "err-illegal-backward", "", "", EXIT_BAD, 1 },
        { "err-illegal-two-squares", "err-illegal-two-squares", "", "", EXIT_BAD, 1 },
        { "err-illegal-unplayable", "err-illegal-unplayable", "", "", EXIT_BAD, 1 },
        { "err-illegal-capture-own", "err-illegal-capture-own", "", "", EXIT_BAD, 1 },
    };
    return cr_make_param_array(struct session, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct session *c, e2e_checkers, session)
{
    char rel[PATH_MAX];
    snprintf(rel, sizeof rel, "checkers/%s.in", c->in);
    char *in_path = e2e_fixture(rel);
    snprintf(rel, sizeof rel, "checkers/%s.out", c->out);
    char *out_path = e2e_fixture(rel);
    char *board = NULL;
    const char *args[5] = { NULL };
    int n = 0;
    if (c->board[0]) {
        snprintf(rel, sizeof rel, "checkers/%s.board", c->board);
        board = e2e_fixture(rel);
        args[n++] = "--board";
        args[n++] = board;
    }
    if (c->depth[0]) {
        args[n++] = "--depth";
        args[n++] = c->depth;
    }
    char *input = e2e_slurp(in_path, NULL);
    size_t len;
    char *expected = e2e_slurp(out_path, &len);
    for (int f = 0; f < c->feeds; f++) {
        char *fed = feed_text(input, (enum feed)f);
        char what[2 * NAME_MAX_LEN];
        snprintf(what, sizeof what, "%s (%s)", c->in, feed_name[f]);
        check_run(what, fed, args, c->status, expected, len);
        free(fed);
    }
    free(input);
    free(expected);
    free(board);
    free(in_path);
    free(out_path);
}

/* ---- lines that are neither actions nor commands ------------------------ */

struct bad_line {
    char name[NAME_MAX_LEN];    /* NAME.in, NAME.out (stdout), NAME.err (stderr) */
};

ParameterizedTestParameters(e2e_checkers, bad_input_line)
{
    static struct bad_line cases[] = {
        { "bad-line-no-dash" },    { "bad-line-trailing" },          { "bad-line-word" },
        { "bad-line-second-cell" }, { "bad-line-lowercase-command" }, { "bad-line-long" },
        { "bad-line-indented" },
    };
    return cr_make_param_array(struct bad_line, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct bad_line *c, e2e_checkers, bad_input_line)
{
    char rel[PATH_MAX];
    snprintf(rel, sizeof rel, "checkers/%s.in", c->name);
    char *in_path = e2e_fixture(rel);
    char *input = e2e_slurp(in_path, NULL);
    char *dir = e2e_tmpdir();
    struct e2e_run r;
    e2e_run(&r, dir, input, "checkers", NULL);
    cr_assert_eq(r.status, EXIT_BAD, "%s: exit %d", c->name, r.status);
    snprintf(rel, sizeof rel, "checkers/%s.out", c->name);
    e2e_assert_fixture(r.out, r.out_len, rel);
    snprintf(rel, sizeof rel, "checkers/%s.err", c->name);
    e2e_assert_fixture(r.err, r.err_len, rel);
    e2e_run_free(&r);
    e2e_rmdir(dir);
    free(input);
    free(in_path);
}

/* ---- bad board files ------------------------------------------------------ */

struct bad_board {
    char name[NAME_MAX_LEN];    /* fixtures/checkers/bad/NAME.txt and NAME.err */
    int via_checkers;           /* also through `checkers --board` (the same reader) */
};

ParameterizedTestParameters(e2e_checkers, bad_board_is_rejected)
{
    static struct bad_board cases[] = {
        { "empty-file", 1 },        { "too-few-rows", 0 },      { "bad-char", 0 },
        { "short-row", 0 },         { "long-row", 0 },          { "unplayable", 1 },
        { "black-piece-row-1", 0 }, { "white-piece-row-8", 0 }, { "too-many-white", 0 },
        { "too-many-black", 1 },    { "missing-side", 0 },      { "bad-side", 0 },
        { "extra-line", 0 },
    };
    return cr_make_param_array(struct bad_board, cases, sizeof cases / sizeof *cases);
}

/* Exit 2, the exact file:line:col message, nothing on stdout, and no output
 * file from the engine. */
ParameterizedTest(struct bad_board *c, e2e_checkers, bad_board_is_rejected)
{
    char *bad_dir = e2e_fixture("checkers/bad");
    char *dir = e2e_tmpdir();
    char name[NAME_MAX_LEN + 8], out[PATH_MAX], rel[PATH_MAX];
    snprintf(name, sizeof name, "%s.txt", c->name);
    snprintf(out, sizeof out, "%s/out.txt", dir);
    snprintf(rel, sizeof rel, "checkers/bad/%s.err", c->name);
    struct e2e_run r;

    e2e_run(&r, bad_dir, NULL, "engine", "one-move", "--game", "checkers", name, out, "3", NULL);
    cr_assert_eq(r.status, EXIT_BAD, "%s: engine exit %d", c->name, r.status);
    cr_assert_eq(r.out_len, 0, "%s: engine stdout: %s", c->name, r.out);
    e2e_assert_fixture(r.err, r.err_len, rel);
    cr_assert(!e2e_exists(out), "%s: output file created", c->name);
    e2e_run_free(&r);

    if (c->via_checkers) {
        e2e_run(&r, bad_dir, "A\n", "checkers", "--board", name, NULL);
        cr_assert_eq(r.status, EXIT_BAD, "%s: checkers exit %d", c->name, r.status);
        cr_assert_eq(r.out_len, 0, "%s: checkers stdout: %s", c->name, r.out);
        e2e_assert_fixture(r.err, r.err_len, rel);
        e2e_run_free(&r);
    }
    e2e_rmdir(dir);
    free(bad_dir);
}

/* A rejected board leaves an existing output file as it was. */
Test(e2e_checkers, rejected_board_keeps_the_output_file)
{
    char *bad_dir = e2e_fixture("checkers/bad");
    char *dir = e2e_tmpdir();
    char out[PATH_MAX];
    snprintf(out, sizeof out, "%s/out.txt", dir);
    FILE *f = fopen(out, "w");
    fputs("keep me\n", f);
    fclose(f);
    struct e2e_run r;
    e2e_run(&r, bad_dir, NULL, "engine", "one-move", "--game", "checkers", "unplayable.txt", out,
            "3", NULL);
    cr_assert_eq(r.status, EXIT_BAD, "exit %d", r.status);
    char *kept = e2e_slurp(out, NULL);
    cr_assert_str_eq(kept, "keep me\n", "output file changed");
    free(kept);
    e2e_run_free(&r);
    unlink(out);
    e2e_rmdir(dir);
    free(bad_dir);
}

/* ---- the engine ------------------------------------------------------------ */

struct one_move {
    char board[NAME_MAX_LEN];     /* fixtures/checkers/BOARD.board */
    char depth[4];
    char fixture[NAME_MAX_LEN];   /* FIXTURE.out and, unless finished, FIXTURE.board */
    int finished;
};

ParameterizedTestParameters(e2e_checkers, engine_one_move)
{
    static struct one_move cases[] = {
        { "start", "4", "onemove-start-d4", 0 },
        { "black-wins", "2", "onemove-win-d2", 0 },
        { "white-promotes", "3", "onemove-white-d3", 0 },
        { "no-action", "3", "onemove-finished", 1 },
    };
    return cr_make_param_array(struct one_move, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct one_move *c, e2e_checkers, engine_one_move)
{
    char rel[PATH_MAX], out[PATH_MAX];
    snprintf(rel, sizeof rel, "checkers/%s.board", c->board);
    char *in = e2e_fixture(rel);
    char *dir = e2e_tmpdir();
    snprintf(out, sizeof out, "%s/out.txt", dir);
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "engine", "one-move", "--game", "checkers", in, out, c->depth, NULL);
    cr_assert_eq(r.status, 0, "%s: exit %d: %s", c->fixture, r.status, r.err);
    snprintf(rel, sizeof rel, "checkers/%s.out", c->fixture);
    e2e_assert_fixture(r.out, r.out_len, rel);
    if (c->finished) {
        cr_assert(!e2e_exists(out), "%s: a board was written for a finished game", c->fixture);
    } else {
        cr_assert(starts_with(r.err, "info game checkers player alphabeta"), "stderr: %s", r.err);
        size_t len;
        char *board = e2e_slurp(out, &len);
        cr_assert_not_null(board, "%s: no board written", c->fixture);
        snprintf(rel, sizeof rel, "checkers/%s.board", c->fixture);
        e2e_assert_fixture(board, len, rel);
        free(board);
        unlink(out);
    }
    e2e_run_free(&r);
    e2e_rmdir(dir);
    free(in);
}

Test(e2e_checkers, engine_bench_reports_every_depth)
{
    char *dir = e2e_tmpdir();
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "engine", "bench", "--game", "checkers", "--depths", "1-4", NULL);
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    cr_assert(starts_with(r.out, "bench checkers player alphabeta positions 4"), "%s", r.out);
    for (int d = 1; d <= 4; d++) {
        char row[32];
        snprintf(row, sizeof row, "\n    %d ", d);
        cr_assert_not_null(strstr(r.out, row), "no row for depth %d:\n%s", d, r.out);
    }
    cr_assert_not_null(strstr(r.out, "\nsignature "), "%s", r.out);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

/* ---- the command line ------------------------------------------------------- */

struct usage_case {
    char args[3][24];
    char message[96];
};

ParameterizedTestParameters(e2e_checkers, usage_error)
{
    static struct usage_case cases[] = {
        { { "--depth", "0" }, "checkers: --depth must be a number from 1 to 64, got '0'" },
        { { "--depth", "3x" }, "checkers: --depth must be a number from 1 to 64, got '3x'" },
        { { "--depth" }, "checkers: option '--depth' needs a value" },
        { { "--board" }, "checkers: option '--board' needs a value" },
        { { "--fast" }, "checkers: unknown option '--fast'" },
        { { "test1.txt" },
          "checkers: unexpected argument 'test1.txt' (the actions come on stdin)" },
    };
    return cr_make_param_array(struct usage_case, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct usage_case *c, e2e_checkers, usage_error)
{
    char *dir = e2e_tmpdir();
    const char *a[4] = { NULL };
    for (int i = 0; i < 3 && c->args[i][0]; i++)
        a[i] = c->args[i];
    struct e2e_run r;
    e2e_runv(&r, dir, "A\n", "checkers", a);
    cr_assert_eq(r.status, EXIT_BAD, "exit %d", r.status);
    cr_assert_eq(r.out_len, 0, "stdout: %s", r.out);
    char expected[256];
    snprintf(expected, sizeof expected, "%s\nTry 'checkers --help' for more information.\n",
             c->message);
    cr_assert_str_eq(r.err, expected);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

Test(e2e_checkers, missing_board_file)
{
    char *dir = e2e_tmpdir();
    struct e2e_run r;
    e2e_run(&r, dir, "A\n", "checkers", "--board", "nosuch.txt", NULL);
    cr_assert_eq(r.status, EXIT_BAD, "exit %d", r.status);
    cr_assert_eq(r.out_len, 0, "stdout: %s", r.out);
    cr_assert_str_eq(r.err, "nosuch.txt: cannot open: No such file or directory\n");
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

Test(e2e_checkers, help_goes_to_stdout)
{
    char *dir = e2e_tmpdir();
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "checkers", "--help", NULL);
    cr_assert_eq(r.status, 0, "exit %d", r.status);
    cr_assert(starts_with(r.out, "Usage: checkers [--depth N] [--board FILE]"), "%s", r.out);
    cr_assert_eq(r.err_len, 0, "stderr: %s", r.err);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}
