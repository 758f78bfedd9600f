/*
 * test_e2e_spfiar.c - the spfiar binary end to end: scripted sessions under
 * fixtures/spfiar (NAME.in fed to stdin, stdout compared with NAME.out byte
 * for byte, exit status 0, nothing on stderr), the course's reference session
 * when ../shared is there, --suggest on board files, and usage errors.
 * `make test` runs them under valgrind with leak checking.
 *
 * The sessions: reference (the published session, level 3), errors (every
 * level and command error, CRLF and blank lines, a line over 1024
 * characters, a full column, the last line without a newline and end of
 * input instead of quit), tie-undo (a level-1 game to a full board, the
 * game-over errors in the seed's order, ten undos of the last 20 discs and
 * the eleventh refused, restart), user-wins (game over, undo of the winning
 * disc alone, undo to the empty board), computer-wins (level 7), and
 * level-option (--level 2: no prompt, also after restart_game).
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "e2e_util.h"

#define EXIT_USAGE 2
#define EXIT_GAME_OVER 1
#define REFERENCE_DIR "../shared/reference/spfiar"

struct session_case {
    char name[32];
    char level[4];   /* --level value, "" for none */
};

ParameterizedTestParameters(e2e_spfiar, session_transcript)
{
    static struct session_case cases[] = {
        { "reference", "" },     { "errors", "" },        { "tie-undo", "" },
        { "user-wins", "" },     { "computer-wins", "" }, { "level-option", "2" },
    };
    return cr_make_param_array(struct session_case, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct session_case *c, e2e_spfiar, session_transcript)
{
    char rel[64];
    snprintf(rel, sizeof rel, "spfiar/%s", c->name);
    const char *with_level[] = { "--level", c->level, NULL }, *none[] = { NULL };
    e2e_assert_transcript("spfiar", rel, c->level[0] ? with_level : none);
}

/* The published session itself, not only the fixture written from it. */
Test(e2e_spfiar, course_reference_session)
{
    if (!e2e_exists(REFERENCE_DIR "/session1.in"))
        cr_skip_test("no %s", REFERENCE_DIR);
    char *input = e2e_slurp(REFERENCE_DIR "/session1.in", NULL);
    size_t want_len;
    char *want = e2e_slurp(REFERENCE_DIR "/session1.out", &want_len);
    cr_assert_not_null(want, "no session1.out");
    char *dir = e2e_tmpdir();
    struct e2e_run r;
    e2e_run(&r, dir, input, "spfiar", NULL);
    cr_assert_eq(r.status, 0, "exit %d", r.status);
    cr_assert_eq(r.out_len, want_len, "%zu bytes, the reference has %zu", r.out_len, want_len);
    cr_assert(memcmp(r.out, want, want_len) == 0, "stdout differs from session1.out:\n%s", r.out);
    e2e_run_free(&r);
    free(input);
    free(want);
    e2e_rmdir(dir);
}

Test(e2e_spfiar, suggest_takes_the_lowest_winning_column)
{
    char *dir = e2e_fixture("spfiar");
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "spfiar", "--suggest", "tiebreak.txt", NULL);
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    e2e_assert_fixture(r.out, r.out_len, "spfiar/tiebreak.out");
    cr_assert(strncmp(r.err, "info level 7 nodes ", 19) == 0, "stderr: %s", r.err);
    e2e_run_free(&r);
    /* At level 1 only the immediate win in column 4 is seen. */
    e2e_run(&r, dir, NULL, "spfiar", "--suggest", "tiebreak.txt", "--level", "1", NULL);
    cr_assert_str_eq(r.out, "Suggested move: drop a disc to column 4\n");
    e2e_run_free(&r);
    free(dir);
}

Test(e2e_spfiar, suggest_on_a_finished_game)
{
    char *dir = e2e_fixture("connect4");
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "spfiar", "--suggest", "win.txt", NULL);
    cr_assert_eq(r.status, EXIT_GAME_OVER, "exit %d", r.status);
    cr_assert_str_eq(r.out, "Error: the game is over\n");
    e2e_run_free(&r);
    free(dir);
}

Test(e2e_spfiar, suggest_rejects_a_bad_board_file)
{
    char *dir = e2e_fixture("connect4/bad");
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "spfiar", "--suggest", "mover-has-four.txt", NULL);
    cr_assert_eq(r.status, EXIT_USAGE, "exit %d", r.status);
    cr_assert_eq(r.out_len, 0, "stdout: %s", r.out);
    e2e_assert_fixture(r.err, r.err_len, "connect4/bad/mover-has-four.err");
    e2e_run_free(&r);
    free(dir);
}

struct usage_case {
    int argc;
    char args[2][16];
    char err[96];
};

ParameterizedTestParameters(e2e_spfiar, usage_error)
{
    static struct usage_case cases[] = {
        { 2, { "--level", "8" }, "spfiar: --level must be a number from 1 to 7, got '8'\n" },
        { 2, { "--level", "x" }, "spfiar: --level must be a number from 1 to 7, got 'x'\n" },
        { 2, { "--level", "" }, "spfiar: --level must be a number from 1 to 7, got ''\n" },
        { 1, { "--suggest", "" }, "spfiar: option '--suggest' needs a value\n" },
        { 1, { "--bogus", "" }, "spfiar: unknown option '--bogus'\n" },
        { 1, { "play", "" }, "spfiar: unexpected argument 'play'\n" },
    };
    return cr_make_param_array(struct usage_case, cases, sizeof cases / sizeof *cases);
}

/* Exit status 2, the message and the pointer to --help on stderr, no session
 * started (nothing on stdout). */
ParameterizedTest(struct usage_case *c, e2e_spfiar, usage_error)
{
    char *dir = e2e_tmpdir();
    struct e2e_run r;
    const char *args[] = { c->args[0], c->argc == 2 ? c->args[1] : NULL, NULL };
    e2e_runv(&r, dir, "1\nquit\n", "spfiar", args);
    cr_assert_eq(r.status, EXIT_USAGE, "%s: exit %d", c->args[0], r.status);
    cr_assert_eq(r.out_len, 0, "%s: stdout: %s", c->args[0], r.out);
    char want[160];
    snprintf(want, sizeof want, "%sTry 'spfiar --help' for more information.\n", c->err);
    cr_assert_str_eq(r.err, want);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

Test(e2e_spfiar, help_goes_to_stdout)
{
    char *dir = e2e_tmpdir();
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "spfiar", "--help", NULL);
    cr_assert_eq(r.status, 0);
    cr_assert(strncmp(r.out, "Usage: spfiar [--level N]\n", 26) == 0, "stdout: %s", r.out);
    cr_assert_eq(r.err_len, 0);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

/* The benchmark's rows add up to its signature, and a second run gives the
 * same signature (the table is cleared before every move). */
Test(e2e_spfiar, bench_rows_sum_to_a_stable_signature)
{
    char *dir = e2e_tmpdir();
    struct e2e_run r1, r2;
    e2e_run(&r1, dir, NULL, "spfiar", "--bench", "--level", "4", NULL);
    e2e_run(&r2, dir, NULL, "spfiar", "--bench", "--level", "4", NULL);
    cr_assert_eq(r1.status, 0, "exit %d: %s", r1.status, r1.err);
    const char *s1 = strstr(r1.out, "signature "), *s2 = strstr(r2.out, "signature ");
    cr_assert(s1 && s2, "no signature line: %s", r1.out);
    cr_assert_str_eq(s1, s2);
    unsigned long long sig = strtoull(s1 + strlen("signature "), NULL, 10), sum = 0;
    int rows = 0, move, col;
    unsigned long long nodes;
    double ms;
    for (const char *line = strchr(r1.out, '\n') + 1; line && *line; line = strchr(line, '\n')) {
        if (*line == '\n')
            line++;
        if (sscanf(line, "%d %d %llu %lf", &move, &col, &nodes, &ms) == 4) {
            rows++;
            cr_assert_eq(move, rows, "row %d numbered %d", rows, move);
            cr_assert(col >= 1 && col <= 7, "row %d: column %d", rows, col);
            sum += nodes;
        }
    }
    cr_assert(rows > 0, "no move rows: %s", r1.out);
    cr_assert_eq(sum, sig, "rows sum to %llu, signature %llu", sum, sig);
    e2e_run_free(&r1);
    e2e_run_free(&r2);
    e2e_rmdir(dir);
}
