/*
 * test_e2e.c - the binaries end to end: engine and maxconnect4 on the board
 * files under fixtures/, stdout and written files compared byte for byte,
 * every rejected board file's exact message, exit status and untouched output,
 * the interactive loop on scripted input, usage errors and the benchmark's
 * signature. `make test` runs this suite under valgrind (ARENA_VALGRIND=1).
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <cjson/cJSON.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "e2e_util.h"

#define EXIT_USAGE 2
#define REFERENCE_CRLF "../shared/reference/maxconnect4-input1-crlf.txt"

static char *tmp_path(const char *dir, const char *name)
{
    char *p = malloc(PATH_MAX);
    snprintf(p, PATH_MAX, "%s/%s", dir, name);
    return p;
}

/* Runs a one-move command (prog and its leading words given) on fixture IN and
 * checks stdout and the written board against fixtures. */
static void check_one_move(const char *prog, const char *const *words, const char *in_rel,
                           const char *out_fixture, const char *board_fixture)
{
    char *dir = e2e_tmpdir();
    char *in = e2e_fixture(in_rel);
    char *out = tmp_path(dir, "out.txt");
    struct e2e_run r;
    if (words[2])
        e2e_run(&r, dir, NULL, prog, words[0], words[1], words[2], in, out, words[3], NULL);
    else
        e2e_run(&r, dir, NULL, prog, words[0], in, out, words[1], NULL);
    cr_assert_eq(r.status, 0, "%s exited %d: %s", prog, r.status, r.err);
    e2e_assert_fixture(r.out, r.out_len, out_fixture);
    if (board_fixture) {
        size_t len;
        char *board = e2e_slurp(out, &len);
        cr_assert_not_null(board, "%s wrote no output file", prog);
        e2e_assert_fixture(board, len, board_fixture);
        free(board);
    } else {
        cr_assert(!e2e_exists(out), "%s wrote an output file for a finished game", prog);
    }
    cr_assert(strncmp(r.err, "info game ", 10) == 0 || !board_fixture, "stderr: %s", r.err);
    e2e_run_free(&r);
    unlink(out);
    free(out);
    free(in);
    e2e_rmdir(dir);
}

Test(e2e, maxconnect4_one_move_from_the_empty_board)
{
    const char *w[] = { "one-move", "4", NULL, NULL };
    check_one_move("maxconnect4", w, "maxconnect4/empty.txt", "maxconnect4/onemove-empty-d4.out",
                   "maxconnect4/onemove-empty-d4.board");
}

Test(e2e, maxconnect4_one_move_for_player_2)
{
    const char *w[] = { "one-move", "6", NULL, NULL };
    check_one_move("maxconnect4", w, "maxconnect4/midgame.txt",
                   "maxconnect4/onemove-midgame-d6.out", "maxconnect4/onemove-midgame-d6.board");
}

Test(e2e, engine_one_move_matches_maxconnect4)
{
    const char *w[] = { "one-move", "--game", "maxconnect4", "6" };
    check_one_move("engine", w, "maxconnect4/midgame.txt", "maxconnect4/onemove-midgame-d6.out",
                   "maxconnect4/onemove-midgame-d6.board");
}

Test(e2e, cr_only_and_crlf_inputs_read_like_lf)
{
    const char *w[] = { "one-move", "4", NULL, NULL };
    check_one_move("maxconnect4", w, "maxconnect4/empty-cr.txt",
                   "maxconnect4/onemove-empty-d4.out", "maxconnect4/onemove-empty-d4.board");
    check_one_move("maxconnect4", w, "maxconnect4/empty-crlf.txt",
                   "maxconnect4/onemove-empty-d4.out", "maxconnect4/onemove-empty-d4.board");
}

/* The course's own input1.txt, CRLF as its sample programs write it. */
Test(e2e, course_reference_crlf_input)
{
    if (!e2e_exists(REFERENCE_CRLF))
        cr_skip_test("no %s", REFERENCE_CRLF);
    char *dir = e2e_tmpdir();
    char *in = realpath(REFERENCE_CRLF, NULL);
    char *out = tmp_path(dir, "out.txt");
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "maxconnect4", "one-move", in, out, "4", NULL);
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    e2e_assert_fixture(r.out, r.out_len, "maxconnect4/onemove-empty-d4.out");
    e2e_run_free(&r);
    unlink(out);
    free(out);
    free(in);
    e2e_rmdir(dir);
}

Test(e2e, full_board_is_reported_and_nothing_written)
{
    const char *w[] = { "one-move", "3", NULL, NULL };
    check_one_move("maxconnect4", w, "maxconnect4/full.txt", "maxconnect4/full.out", NULL);
}

Test(e2e, connect4_finished_game_is_reported)
{
    const char *w[] = { "one-move", "--game", "connect4", "3" };
    check_one_move("engine", w, "connect4/win.txt", "connect4/win.out", NULL);
}

Test(e2e, connect4_takes_the_immediate_win)
{
    const char *w[] = { "one-move", "--game", "connect4", "4" };
    check_one_move("engine", w, "connect4/threat.txt", "connect4/threat-d4.out",
                   "connect4/threat-d4.board");
}

/* ---- rejected board files --------------------------------------------- */

struct bad_board {
    char game[16];
    char name[32];
};

ParameterizedTestParameters(e2e, bad_board_is_rejected)
{
    static struct bad_board cases[] = {
        { "maxconnect4", "empty-file" },      { "maxconnect4", "too-few-rows" },
        { "maxconnect4", "short-row" },       { "maxconnect4", "long-row" },
        { "maxconnect4", "bad-char" },        { "maxconnect4", "digit-3" },
        { "maxconnect4", "inner-space" },     { "maxconnect4", "floating" },
        { "maxconnect4", "missing-player" },  { "maxconnect4", "bad-player" },
        { "maxconnect4", "player-12" },       { "maxconnect4", "extra-line" },
        { "maxconnect4", "counts" },          { "maxconnect4", "counts-mover-ahead" },
        { "connect4", "mover-has-four" },     { "nim", "bad-char" },
        { "nim", "too-many-matches" },        { "nim", "missing-player" },
        { "nim", "extra-line" },
    };
    return cr_make_param_array(struct bad_board, cases, sizeof cases / sizeof *cases);
}

/* Exit status 2, the exact file:line:col message, and the output file neither
 * created nor, when it exists, changed. */
ParameterizedTest(struct bad_board *c, e2e, bad_board_is_rejected)
{
    char rel[PATH_MAX], name[64];
    snprintf(rel, sizeof rel, "%s/bad", c->game);
    char *bad_dir = e2e_fixture(rel);
    char *dir = e2e_tmpdir();
    char *out = tmp_path(dir, "out.txt");
    snprintf(name, sizeof name, "%s.txt", c->name);
    struct e2e_run r;
    e2e_run(&r, bad_dir, NULL, "engine", "one-move", "--game", c->game, name, out, "3", NULL);
    cr_assert_eq(r.status, EXIT_USAGE, "%s: exit %d", c->name, r.status);
    cr_assert_eq(r.out_len, 0, "%s: stdout not empty: %s", c->name, r.out);
    snprintf(rel, sizeof rel, "%s/bad/%s.err", c->game, c->name);
    e2e_assert_fixture(r.err, r.err_len, rel);
    cr_assert(!e2e_exists(out), "%s: output file created", c->name);
    e2e_run_free(&r);

    /* An existing output file keeps its bytes. */
    FILE *f = fopen(out, "w");
    fputs("keep me\n", f);
    fclose(f);
    e2e_run(&r, bad_dir, NULL, "maxconnect4", "one-move", name, out, "3", NULL);
    if (strcmp(c->game, "maxconnect4") == 0)
        cr_assert_eq(r.status, EXIT_USAGE, "%s: maxconnect4 exit %d", c->name, r.status);
    size_t len;
    char *kept = e2e_slurp(out, &len);
    if (r.status == EXIT_USAGE)
        cr_assert_str_eq(kept, "keep me\n", "%s: output file changed", c->name);
    free(kept);
    e2e_run_free(&r);
    unlink(out);
    free(out);
    free(bad_dir);
    e2e_rmdir(dir);
}

Test(e2e, missing_input_file_is_an_error)
{
    char *dir = e2e_tmpdir();
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "engine", "one-move", "nosuch.txt", "out.txt", "3", NULL);
    cr_assert_eq(r.status, EXIT_USAGE, "exit %d", r.status);
    cr_assert_str_eq(r.err, "nosuch.txt: cannot open: No such file or directory\n");
    cr_assert(r.out_len == 0);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

/* ---- interactive ---------------------------------------------------------- */

Test(e2e, interactive_session_to_the_full_board)
{
    char *dir = e2e_tmpdir();
    char *in = e2e_fixture("maxconnect4/near-full.txt");
    char *script_path = e2e_fixture("maxconnect4/interactive-near-full.in");
    char *script = e2e_slurp(script_path, NULL);
    struct e2e_run r;
    e2e_run(&r, dir, script, "maxconnect4", "interactive", in, "human-next", "3", NULL);
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    e2e_assert_fixture(r.out, r.out_len, "maxconnect4/interactive-near-full.out");
    const char *saved[][2] = {
        { "computer.txt", "maxconnect4/interactive-near-full.computer.txt" },
        { "human.txt", "maxconnect4/interactive-near-full.human.txt" },
    };
    for (int i = 0; i < 2; i++) {
        char *p = tmp_path(dir, saved[i][0]);
        size_t len;
        char *text = e2e_slurp(p, &len);
        cr_assert_not_null(text, "%s not saved", saved[i][0]);
        e2e_assert_fixture(text, len, saved[i][1]);
        free(text);
        unlink(p);
        free(p);
    }
    e2e_run_free(&r);
    free(script);
    free(script_path);
    free(in);
    e2e_rmdir(dir);
}

/* Blank answers (a space, a CRLF empty line) are no column: they played
 * column 0. A line longer than an answer is one invalid answer, not
 * several. Found by tests/fuzz/interactive. */
Test(e2e, interactive_blank_and_long_answers_are_invalid)
{
    char *dir = e2e_tmpdir();
    char script[1200] = " \n\r\n";    /* a space, then a CRLF empty line */
    memset(script + 4, ' ', 1100);
    strcpy(script + 1104, "3\n");       /* one long line ending in a column */
    struct e2e_run r;
    e2e_run(&r, dir, script, "maxconnect4", "interactive", "missing.txt", "human-next", "1",
            NULL);
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    int invalid = 0, prompts = 0;
    for (const char *p = r.out; (p = strstr(p, "Invalid move")); p++)
        invalid++;
    for (const char *p = r.out; (p = strstr(p, "Your move")); p++)
        prompts++;
    cr_assert_eq(invalid, 3, "%d invalid answers:\n%s", invalid, r.out);
    cr_assert_eq(prompts, 4, "%d prompts:\n%s", prompts, r.out);
    char *human = tmp_path(dir, "human.txt");
    cr_assert(!e2e_exists(human), "a blank answer played a move");
    free(human);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

/* A missing IN starts from the empty board; end of input stops cleanly. */
Test(e2e, interactive_missing_file_and_end_of_input)
{
    char *dir = e2e_tmpdir();
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "maxconnect4", "interactive", "missing.txt", "computer-next", "2",
            NULL);
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    e2e_assert_fixture(r.out, r.out_len, "maxconnect4/interactive-eof.out");
    char *c = tmp_path(dir, "computer.txt"), *h = tmp_path(dir, "human.txt");
    cr_assert(e2e_exists(c), "computer.txt not saved");
    cr_assert(!e2e_exists(h), "human.txt saved without a human move");
    unlink(c);
    free(c);
    free(h);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

/* ---- command lines ---------------------------------------------------------- */

struct usage_case {
    char prog[16];
    char args[4][24];
    char message[96];
};

ParameterizedTestParameters(e2e, usage_error)
{
    static struct usage_case cases[] = {
        { "engine", { "" },
          "engine: missing command (one-move, bench, perft, solve, book, train, weights)" },
        { "engine", { "fly" },
          "engine: unknown command 'fly' (one-move, bench, perft, solve, book, train, weights)" },
        { "engine", { "one-move", "a" }, "engine: one-move needs IN OUT [DEPTH]" },
        { "engine", { "one-move", "a", "b", "0" }, "engine: DEPTH must be a number from 1 to 64" },
        { "engine", { "one-move", "--game", "go", "a" },
          "engine: unknown game 'go' (connect4, maxconnect4, nim, checkers, othello, tictactoe)" },
        { "engine", { "one-move", "--player", "oracle", "a" },
          "engine: unknown player 'oracle' (alphabeta, minimax, random, perfect, qlearn, "
          "qlearn-ab)" },
        { "engine", { "bench", "--depths", "5-2" },
          "engine: --depths must be A-B with 1 <= A <= B <= 64" },
        { "maxconnect4", { "one-move", "a", "b" }, "maxconnect4: expected 4 arguments, got 3" },
        { "maxconnect4", { "one-move", "a", "b", "x" },
          "maxconnect4: depth must be a number from 1 to 64, got 'x'" },
        { "maxconnect4", { "interactive", "a", "robot-next", "3" },
          "maxconnect4: expected computer-next or human-next, got 'robot-next'" },
    };
    return cr_make_param_array(struct usage_case, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct usage_case *c, e2e, usage_error)
{
    char *dir = e2e_tmpdir();
    const char *a[4];
    for (int i = 0; i < 4; i++)
        a[i] = c->args[i][0] ? c->args[i] : NULL;
    struct e2e_run r;
    e2e_run(&r, dir, NULL, c->prog, a[0], a[1], a[2], a[3], NULL);
    cr_assert_eq(r.status, EXIT_USAGE, "exit %d", r.status);
    char expected[256];
    snprintf(expected, sizeof expected, "%s\nTry '%s --help' for more information.\n",
             c->message, c->prog);
    cr_assert_str_eq(r.err, expected);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

Test(e2e, help_goes_to_stdout_with_status_0)
{
    const char *progs[] = { "engine", "maxconnect4" };
    for (int i = 0; i < 2; i++) {
        char *dir = e2e_tmpdir();
        struct e2e_run r;
        e2e_run(&r, dir, NULL, progs[i], "--help", NULL);
        cr_assert_eq(r.status, 0, "%s --help exit %d", progs[i], r.status);
        cr_assert(strncmp(r.out, "Usage: ", 7) == 0, "%s --help: %s", progs[i], r.out);
        cr_assert_eq(r.err_len, 0);
        e2e_run_free(&r);
        e2e_rmdir(dir);
    }
}

/* Same input and seed, same move; the random player only plays legal moves. */
Test(e2e, random_player_is_reproducible)
{
    char *dir = e2e_tmpdir();
    char *in = e2e_fixture("maxconnect4/midgame.txt");
    char *o1 = tmp_path(dir, "a.txt"), *o2 = tmp_path(dir, "b.txt");
    struct e2e_run r1, r2;
    e2e_run(&r1, dir, NULL, "engine", "one-move", "--player", "random", "--seed", "7", in, o1,
            NULL);
    e2e_run(&r2, dir, NULL, "engine", "one-move", "--player", "random", "--seed", "7", in, o2,
            NULL);
    cr_assert_eq(r1.status, 0);
    cr_assert_str_eq(r1.out, r2.out);
    char *b1 = e2e_slurp(o1, NULL), *b2 = e2e_slurp(o2, NULL);
    cr_assert_str_eq(b1, b2);
    free(b1);
    free(b2);
    unlink(o1);
    unlink(o2);
    free(o1);
    free(o2);
    free(in);
    e2e_run_free(&r1);
    e2e_run_free(&r2);
    e2e_rmdir(dir);
}

/* The bench signature is the same from run to run, and the JSON says the
 * same, with each depth's CPU time per search and peak memory. */
Test(e2e, bench_signature_is_stable_and_matches_json)
{
    char *dir = e2e_tmpdir();
    char *json = tmp_path(dir, "bench.json");
    struct e2e_run r1, r2;
    e2e_run(&r1, dir, NULL, "engine", "bench", "--depths", "1-5", "--tt-mb", "1", "--json", json,
            NULL);
    e2e_run(&r2, dir, NULL, "engine", "bench", "--depths", "1-5", "--tt-mb", "1", NULL);
    cr_assert_eq(r1.status, 0, "exit %d: %s", r1.status, r1.err);
    const char *s1 = strstr(r1.out, "signature "), *s2 = strstr(r2.out, "signature ");
    cr_assert(s1 && s2, "no signature line: %s", r1.out);
    cr_assert_str_eq(s1, s2);
    unsigned long long sig = strtoull(s1 + strlen("signature "), NULL, 10);
    char *text = e2e_slurp(json, NULL);
    cJSON *root = cJSON_Parse(text);
    cr_assert_not_null(root, "bench JSON does not parse: %s", text);
    cJSON *total = cJSON_GetObjectItemCaseSensitive(root, "total_nodes");
    cr_assert(cJSON_IsNumber(total) && (unsigned long long)total->valuedouble == sig,
              "total_nodes differs from signature %llu", sig);
    cJSON *depths = cJSON_GetObjectItemCaseSensitive(root, "depths");
    cr_assert_eq(cJSON_GetArraySize(depths), 5);
    /* Per depth, one search per position: its CPU time's spread, and the
     * process's peak memory. */
    int positions = cJSON_GetObjectItemCaseSensitive(root, "positions")->valueint;
    const cJSON *d;
    cJSON_ArrayForEach(d, depths) {
        const cJSON *ms = cJSON_GetObjectItemCaseSensitive(d, "cpu_ms");
        double median = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(ms, "median"));
        double p95 = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(ms, "p95"));
        double max = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(ms, "max"));
        double cpu_s = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(d, "cpu_s"));
        cr_expect_eq(cJSON_GetObjectItemCaseSensitive(d, "moves")->valueint, positions);
        cr_expect(median >= 0 && median <= p95 && p95 <= max && max <= cpu_s * 1000 + 1e-9,
                  "cpu_ms median %f, p95 %f, max %f, cpu_s %f", median, p95, max, cpu_s);
        cr_expect_gt(cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(d, "peak_rss_kb")), 0);
    }
    cJSON_Delete(root);
    free(text);
    unlink(json);
    free(json);
    e2e_run_free(&r1);
    e2e_run_free(&r2);
    e2e_rmdir(dir);
}

/* Every game's bench positions are legal, unfinished positions of that game. */
Test(e2e, bench_runs_for_every_game)
{
    const char *games[] = { "connect4", "maxconnect4" };
    for (int i = 0; i < 2; i++) {
        char *dir = e2e_tmpdir();
        struct e2e_run r;
        e2e_run(&r, dir, NULL, "engine", "bench", "--game", games[i], "--depths", "1-2",
                "--tt-mb", "1", NULL);
        cr_assert_eq(r.status, 0, "%s bench exit %d: %s", games[i], r.status, r.err);
        cr_assert_not_null(strstr(r.out, "positions 6 "), "%s: %s", games[i], r.out);
        e2e_run_free(&r);
        e2e_rmdir(dir);
    }
}
