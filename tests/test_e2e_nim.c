/*
 * test_e2e_nim.c - the nim binary and Nim in the engine, end to end: driver
 * sessions under fixtures/nim (NAME.in on stdin, stdout compared with
 * NAME.out byte for byte), usage errors and refused tables, and one-move
 * reports and board files for the alpha-beta and perfect players. `make
 * test` runs them under valgrind with leak checking.
 *
 * The sessions: human-wins (every kind of bad answer: negative and too-large
 * rows, a non-number, a blank line, zero and too many matches; a won game,
 * another game with the loser first, a lost one, 'n'), take-all (taking every
 * match loses at once), computer-first (the computer opens; end of input at
 * the Row prompt ends cleanly).
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "e2e_util.h"

#define EXIT_USAGE 2
#define NIM_MAX_ARGS 4

struct nim_session {
    char name[24];
    char args[NIM_MAX_ARGS][8];   /* FIRST and rows; "" ends */
};

ParameterizedTestParameters(e2e_nim, session_transcript)
{
    static struct nim_session cases[] = {
        { "human-wins", { "1", "2", "3", "" } },
        { "take-all", { "1", "0", "2", "" } },
        { "computer-first", { "0", "3", "4", "5" } },
    };
    return cr_make_param_array(struct nim_session, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct nim_session *c, e2e_nim, session_transcript)
{
    char rel[64];
    snprintf(rel, sizeof rel, "nim/%s", c->name);
    const char *args[NIM_MAX_ARGS + 1] = { NULL };
    for (int i = 0; i < NIM_MAX_ARGS && c->args[i][0]; i++)
        args[i] = c->args[i];
    e2e_assert_transcript("nim", rel, args);
}

struct nim_usage {
    char args[3][12];
    char err[160];
};

ParameterizedTestParameters(e2e_nim, usage_error)
{
    static struct nim_usage cases[] = {
        { { "1", "", "" }, "nim: expected FIRST and at least one row\n" },
        { { "2", "3", "" }, "nim: FIRST must be 0 (computer first) or 1 (you first), got '2'\n" },
        { { "1", "-1", "" },
          "nim: row 0 must be a number of matches from 0 to 1000000, got '-1'\n" },
        { { "1", "3", "x" }, "nim: row 1 must be a number of matches from 0 to 1000000, got 'x'\n" },
        { { "0", "0", "0" }, "nim: the rows hold no match: nothing to play\n" },
        { { "1", "100000", "" },
          "nim: the table for these rows is too large: at most 4194304 boards and 33554432 moves "
          "(the product of rows+1, and boards times matches / 2)\n" },
        { { "1", "3000", "3000" },
          "nim: the table for these rows is too large: at most 4194304 boards and 33554432 moves "
          "(the product of rows+1, and boards times matches / 2)\n" },
    };
    return cr_make_param_array(struct nim_usage, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct nim_usage *c, e2e_nim, usage_error)
{
    char *dir = e2e_tmpdir();
    struct e2e_run r;
    const char *args[4] = { NULL };
    for (int i = 0; i < 3 && c->args[i][0]; i++)
        args[i] = c->args[i];
    e2e_runv(&r, dir, "0\n1\n", "nim", args);
    cr_assert_eq(r.status, EXIT_USAGE, "exit %d", r.status);
    cr_assert_eq(r.out_len, 0, "stdout: %s", r.out);
    char want[256];
    snprintf(want, sizeof want, "%sTry 'nim --help' for more information.\n", c->err);
    cr_assert_str_eq(r.err, want);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

/* One-move on Nim board files: the report and the written board. */
struct nim_onemove {
    char in[24];
    char player[12];
    char depth[4];
    char fixture[40];   /* OUT.out and OUT.board */
};

ParameterizedTestParameters(e2e_nim, one_move)
{
    static struct nim_onemove cases[] = {
        { "start.txt", "alphabeta", "4", "onemove-start-d4" },
        { "winning.txt", "perfect", "1", "onemove-winning-perfect" },
    };
    return cr_make_param_array(struct nim_onemove, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct nim_onemove *c, e2e_nim, one_move)
{
    char *fix = e2e_fixture("nim");
    char *dir = e2e_tmpdir();
    char out[PATH_MAX], rel[80];
    snprintf(out, sizeof out, "%s/out.txt", dir);
    struct e2e_run r;
    e2e_run(&r, fix, NULL, "engine", "one-move", "--game", "nim", "--player", c->player, c->in,
            out, c->depth, NULL);
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    snprintf(rel, sizeof rel, "nim/%s.out", c->fixture);
    e2e_assert_fixture(r.out, r.out_len, rel);
    size_t len;
    char *board = e2e_slurp(out, &len);
    cr_assert_not_null(board, "no board written");
    snprintf(rel, sizeof rel, "nim/%s.board", c->fixture);
    e2e_assert_fixture(board, len, rel);
    free(board);
    e2e_run_free(&r);
    unlink(out);
    free(fix);
    e2e_rmdir(dir);
}

Test(e2e_nim, finished_board_is_reported_and_nothing_written)
{
    char *fix = e2e_fixture("nim");
    char *dir = e2e_tmpdir();
    char out[PATH_MAX];
    snprintf(out, sizeof out, "%s/out.txt", dir);
    struct e2e_run r;
    e2e_run(&r, fix, NULL, "engine", "one-move", "--game", "nim", "finished.txt", out, "2", NULL);
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    e2e_assert_fixture(r.out, r.out_len, "nim/finished.out");
    cr_assert(!e2e_exists(out), "a board was written for a finished game");
    e2e_run_free(&r);
    free(fix);
    e2e_rmdir(dir);
}

Test(e2e_nim, perfect_player_needs_a_solver)
{
    char *fix = e2e_fixture("maxconnect4");
    struct e2e_run r;
    e2e_run(&r, fix, NULL, "engine", "one-move", "--player", "perfect", "empty.txt", "/dev/null",
            "2", NULL);
    cr_assert_eq(r.status, EXIT_USAGE, "exit %d", r.status);
    cr_assert_str_eq(r.err, "engine: game maxconnect4 has no perfect player\n"
                            "Try 'engine --help' for more information.\n");
    e2e_run_free(&r);
    free(fix);
}
