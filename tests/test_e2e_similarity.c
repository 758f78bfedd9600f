/*
 * test_e2e_similarity.c - `referee similarity` end to end: in a field of
 * independently written Python engines (tests/engines/similarity: six
 * heuristics) with three copies (panes.py, windows.py renamed;
 * barrier.py, blocker.py reformatted; lookahead.py, minimax.py with two
 * constants changed) every copy's pair is flagged and no other; the
 * built-in engine beside a copy of itself in a field of other players
 * prints the table and the evidence; the same seed gives the same output;
 * the JSON has its keys; an engine whose answers are all refused is
 * compared nowhere and counted; usage errors, and more positions than
 * tic-tac-toe has, exit 2 with their message and print nothing on stdout.
 */
#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "e2e_util.h"

#define EXIT_USAGE 2
#define SPEC_MAX (PATH_MAX + 128)
#define FIELD_MAX 12

/* The Python field: its engines and which of them copies which. */
static const char *const field[] = { "center", "blocker", "windows", "minimax", "hashy",
                                     "neighbours", "panes", "barrier", "lookahead" };
#define NFIELD (int)(sizeof field / sizeof *field)

static int copies(const char *a, const char *b)
{
    static const char *const pairs[][2] = { { "windows", "panes" }, { "blocker", "barrier" },
                                            { "minimax", "lookahead" } };
    for (size_t k = 0; k < sizeof pairs / sizeof *pairs; k++)
        if ((!strcmp(a, pairs[k][0]) && !strcmp(b, pairs[k][1])) ||
            (!strcmp(b, pairs[k][0]) && !strcmp(a, pairs[k][1])))
            return 1;
    return 0;
}

/* argv of `referee similarity --game connect4` with the engines in specs
 * and the words of extra (NULL-terminated), into args (cap entries). */
static void similarity_args(const char **args, int cap, char specs[][SPEC_MAX], int n,
                            const char *const *extra)
{
    int k = 0;
    args[k++] = "similarity";
    args[k++] = "--game";
    args[k++] = "connect4";
    for (int i = 0; i < n; i++) {
        args[k++] = "--engine";
        args[k++] = specs[i];
    }
    for (int i = 0; extra && extra[i]; i++)
        args[k++] = extra[i];
    cr_assert(k < cap);
    args[k] = NULL;
}

static void python_field(char specs[][SPEC_MAX])
{
    char dir[PATH_MAX];
    e2e_repo_path("tests/engines/similarity", dir, sizeof dir);
    for (int i = 0; i < NFIELD; i++)
        snprintf(specs[i], SPEC_MAX, "name=%s,cmd=/usr/bin/python3 %s/%s.py", field[i], dir,
                 field[i]);
}

/* The built-in field: alpha-beta twice under two names, and players that
 * choose otherwise (another evaluation, another depth, the learned player,
 * two random ones). */
#define NBUILTIN 7
static void builtin_field(char specs[][SPEC_MAX])
{
    char engine[PATH_MAX];
    e2e_engine_bin_path("engine", engine, sizeof engine);
    const char *players[NBUILTIN][2] = {
        { "ab", "" },
        { "ab-copy", "" },
        { "ab-spfiar", "--eval spfiar" },
        { "ab-shallow", "--depth 1 {in} {out}" },
        { "qlearn", "--player qlearn" },
        { "random-1", "--player random --seed 1" },
        { "random-2", "--player random --seed 2" },
    };
    for (int i = 0; i < NBUILTIN; i++)
        snprintf(specs[i], SPEC_MAX, "name=%s,cmd=%s one-move --game connect4 %s", players[i][0],
                 engine, players[i][1]);
}

static cJSON *json_of(const struct e2e_run *r)
{
    cJSON *doc = cJSON_Parse(r->out);
    cr_assert_not_null(doc, "not JSON:\n%s", r->out);
    return doc;
}

static void assert_keys(const cJSON *obj, const char *const *keys, const char *what)
{
    int n = 0;
    for (const cJSON *k = obj ? obj->child : NULL; k; k = k->next, n++)
        cr_assert_str_eq(k->string, keys[n], "%s: key %d is \"%s\", expected \"%s\"", what, n,
                         k->string, keys[n] ? keys[n] : "(none)");
    cr_assert_null(keys[n], "%s: key \"%s\" missing", what, keys[n]);
}

Test(e2e_similarity, copies_are_flagged_and_independent_engines_are_not, .timeout = 240)
{
    char specs[FIELD_MAX][SPEC_MAX];
    python_field(specs);
    const char *args[2 * FIELD_MAX + 12];
    static const char *const extra[] = { "--positions", "30", "--format", "json", NULL };
    similarity_args(args, sizeof args / sizeof *args, specs, NFIELD, extra);
    char *dir = e2e_tmpdir();
    struct e2e_run r;
    e2e_runv(&r, dir, NULL, "referee", args);
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    cJSON *doc = json_of(&r);
    const cJSON *pairs = cJSON_GetObjectItem(doc, "pairs");
    cr_assert_eq(cJSON_GetArraySize(pairs), NFIELD * (NFIELD - 1) / 2);
    int flagged = 0;
    const cJSON *p;
    cJSON_ArrayForEach(p, pairs) {
        const char *a = cJSON_GetObjectItem(p, "a")->valuestring;
        const char *b = cJSON_GetObjectItem(p, "b")->valuestring;
        double agreement = cJSON_GetObjectItem(p, "agreement")->valuedouble;
        int is_flagged = cJSON_IsTrue(cJSON_GetObjectItem(p, "flagged"));
        cr_assert_eq(is_flagged, copies(a, b), "%s-%s at %.3f (z %.2f): flagged %d (threshold "
                     "%.3f)\n%s", a, b, agreement, cJSON_GetObjectItem(p, "z")->valuedouble,
                     is_flagged, cJSON_GetObjectItem(doc, "threshold_share")->valuedouble, r.out);
        cr_assert(agreement >= 0 && agreement <= 1, "%s-%s: agreement %g", a, b, agreement);
        flagged += is_flagged;
    }
    cr_assert_eq(flagged, 3);
    cJSON_Delete(doc);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

/* The built-in field's run, in format (text or json) with seed. */
static void builtin_run(struct e2e_run *r, const char *dir, const char *format, const char *seed)
{
    char specs[FIELD_MAX][SPEC_MAX];
    builtin_field(specs);
    const char *args[2 * FIELD_MAX + 12];
    const char *const extra[] = { "--positions", "24", "--format", format, "--seed", seed,
                                  NULL };
    similarity_args(args, sizeof args / sizeof *args, specs, NBUILTIN, extra);
    e2e_runv(r, dir, NULL, "referee", args);
    cr_assert_eq(r->status, 0, "exit %d: %s", r->status, r->err);
}

Test(e2e_similarity, the_text_ranks_the_pairs_and_shows_the_evidence)
{
    char *dir = e2e_tmpdir();
    struct e2e_run r;
    builtin_run(&r, dir, "text", "1");
    const char *head = "Similarity connect4: 24 positions from random games (seed 1), depth 4, "
                       "7 engines\nAgreement: identical moves / positions both answered, "
                       "compared as log-odds L = ln((same + 1/2) / (differ + 1/2))\n"
                       "Field of 21 pairs: median L ";
    cr_assert(strncmp(r.out, head, strlen(head)) == 0, "output:\n%s", r.out);
    const char *rows = strstr(r.out, "\nEngine      Engine      Agreement");
    cr_assert_not_null(rows, "no table:\n%s", r.out);
    const char *first = strchr(rows + 1, '\n') + 1;
    cr_assert(strncmp(first, "ab          ab-copy         1.000      24        24", 51) == 0,
              "the first row is not ab and ab-copy agreeing everywhere:\n%s", r.out);
    cr_assert_not_null(strstr(first, "FLAGGED\n"), "%s", r.out);
    const char *flag = strstr(r.out, "FLAGGED");
    cr_assert_null(strstr(flag + 1, "FLAGGED"), "more than one pair flagged:\n%s", r.out);
    cr_assert_not_null(strstr(r.out, "\nab and ab-copy agree on 24 of 24 positions, "), "%s",
                       r.out);
    cr_assert_not_null(strstr(r.out, "\n  position "), "no evidence:\n%s", r.out);
    cr_assert_str_eq(r.err, "");
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

Test(e2e_similarity, the_json_has_its_keys_and_one_seed_gives_one_answer)
{
    char *dir = e2e_tmpdir();
    struct e2e_run r, again, other;
    builtin_run(&r, dir, "json", "7");
    builtin_run(&again, dir, "json", "7");
    builtin_run(&other, dir, "json", "8");
    cr_assert_str_eq(r.out, again.out, "the same seed gave two answers");
    cr_assert_str_neq(r.out, other.out, "another seed gave the same answer");
    cJSON *doc = json_of(&r);
    static const char *const top[] = { "game", "positions", "seed", "depth", "rule", "median",
                                       "mad", "threshold", "threshold_share", "engines",
                                       "pairs", NULL };
    assert_keys(doc, top, "the document");
    cr_assert_str_eq(cJSON_GetObjectItem(doc, "game")->valuestring, "connect4");
    cr_assert_eq(cJSON_GetObjectItem(doc, "positions")->valueint, 24);
    cr_assert_eq(cJSON_GetObjectItem(doc, "seed")->valueint, 7);
    static const char *const rule[] = { "scale", "k", "min_gap", "mad_scale", NULL };
    assert_keys(cJSON_GetObjectItem(doc, "rule"), rule, "rule");
    static const char *const eng[] = { "name", "answered", "failed", NULL };
    assert_keys(cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "engines"), 0), eng, "an engine");
    const cJSON *top_pair = cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "pairs"), 0);
    static const char *const pair[] = { "a", "b", "agreement", "same", "compared", "alone",
                                        "log_odds", "z", "flagged", "evidence", NULL };
    assert_keys(top_pair, pair, "a pair");
    cr_assert(cJSON_IsTrue(cJSON_GetObjectItem(top_pair, "flagged")));
    const cJSON *ev = cJSON_GetArrayItem(cJSON_GetObjectItem(top_pair, "evidence"), 0);
    static const char *const evidence[] = { "position", "moves", "move", "others", NULL };
    assert_keys(ev, evidence, "evidence");
    cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItem(ev, "others")), NBUILTIN - 2);
    cJSON_Delete(doc);
    e2e_run_free(&r);
    e2e_run_free(&again);
    e2e_run_free(&other);
    e2e_rmdir(dir);
}

/* Arrays, not pointers: Criterion copies a parameter into the test's
 * process, where the string literals may sit elsewhere. */
struct similarity_usage {
    char args[10][48];
    char err[200];
};

ParameterizedTestParameters(e2e_similarity, usage_error)
{
    static struct similarity_usage cases[] = {
        { { "--game", "connect4", "--engine", "sh" },
          "referee: similarity: give at least two --engine options, got 1\n" },
        { { "--engine", "sh", "--engine", "sh" }, "referee: similarity: --game is required\n" },
        { { "--game", "chess", "--engine", "sh", "--engine", "sh" },
          "referee: unknown game 'chess' (connect4, maxconnect4, nim, checkers, othello, "
          "tictactoe)\n" },
        { { "--game", "connect4", "--engine", "sh", "--engine", "sh", "--positions", "0" },
          "referee: --positions must be a number from 1 to 5000, got '0'\n" },
        { { "--game", "connect4", "--engine", "sh", "--engine", "sh", "--positions", "x" },
          "referee: --positions must be a number from 1 to 5000, got 'x'\n" },
        { { "--game", "connect4", "--engine", "sh", "--engine", "sh", "--format", "csv" },
          "referee: --format must be text or json, got 'csv'\n" },
        { { "--game", "connect4", "--engine", "sh", "--engine", "sh", "--games", "2" },
          "referee: similarity: unknown option '--games'\n" },
        { { "--game", "connect4", "--engine", "sh", "--engine", "sh", "extra" },
          "referee: similarity: unexpected argument 'extra'\n" },
    };
    return cr_make_param_array(struct similarity_usage, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct similarity_usage *c, e2e_similarity, usage_error)
{
    char *dir = e2e_tmpdir();
    const char *args[12] = { "similarity" };
    for (int i = 0; i < 10 && c->args[i][0]; i++)
        args[i + 1] = c->args[i];
    struct e2e_run r;
    e2e_runv(&r, dir, NULL, "referee", args);
    cr_assert_eq(r.status, EXIT_USAGE, "exit %d: %s", r.status, r.err);
    char want[512];
    snprintf(want, sizeof want, "%sTry 'referee --help' for more information.\n", c->err);
    cr_assert_str_eq(r.err, want);
    cr_assert_eq(r.out_len, 0, "stdout: %s", r.out);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

/* A game with fewer distinct positions than asked for: the referee says
 * how many it found, before any engine moves. */
Test(e2e_similarity, too_many_positions_for_the_game_are_refused)
{
    char specs[2][SPEC_MAX];
    char engine[PATH_MAX];
    e2e_engine_bin_path("engine", engine, sizeof engine);
    for (int i = 0; i < 2; i++)
        snprintf(specs[i], SPEC_MAX, "name=e%d,cmd=%s one-move --game tictactoe", i, engine);
    const char *args[12] = { "similarity", "--game", "tictactoe", "--engine", specs[0],
                             "--engine", specs[1], "--positions", "5000", NULL };
    char *dir = e2e_tmpdir();
    struct e2e_run r;
    e2e_runv(&r, dir, NULL, "referee", args);
    cr_assert_eq(r.status, EXIT_USAGE, "exit %d: %s", r.status, r.err);
    cr_assert(strncmp(r.err, "referee: --positions 5000: 100000 random games of tictactoe gave ",
                      65) == 0, "stderr: %s", r.err);
    cr_assert_not_null(strstr(r.err, "; give --positions "), "stderr: %s", r.err);
    cr_assert_eq(r.out_len, 0, "stdout: %s", r.out);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

/* An engine whose every answer is refused is compared nowhere: its pairs
 * have no position in common, and the JSON and the text count its
 * failures. */
Test(e2e_similarity, an_engine_without_legal_answers_is_compared_nowhere)
{
    char specs[3][SPEC_MAX], illegal[PATH_MAX], engine[PATH_MAX];
    e2e_engine_bin_path("engine", engine, sizeof engine);
    e2e_repo_path("tests/engines/illegal.sh", illegal, sizeof illegal);
    snprintf(specs[0], SPEC_MAX, "name=ab,cmd=%s one-move --game connect4", engine);
    snprintf(specs[1], SPEC_MAX, "name=rnd,cmd=%s one-move --game connect4 --player random",
             engine);
    snprintf(specs[2], SPEC_MAX, "name=passer,cmd=sh %s", illegal);
    const char *args[16];
    static const char *const extra[] = { "--positions", "6", "--format", "json", NULL };
    similarity_args(args, sizeof args / sizeof *args, specs, 3, extra);
    char *dir = e2e_tmpdir();
    struct e2e_run r;
    e2e_runv(&r, dir, NULL, "referee", args);
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    cJSON *doc = json_of(&r);
    const cJSON *eng = cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "engines"), 2);
    cr_assert_str_eq(cJSON_GetObjectItem(eng, "name")->valuestring, "passer");
    cr_assert_eq(cJSON_GetObjectItem(eng, "answered")->valueint, 0, "%s", r.out);
    cr_assert_eq(cJSON_GetObjectItem(eng, "failed")->valueint, 6, "%s", r.out);
    const cJSON *p;
    cJSON_ArrayForEach(p, cJSON_GetObjectItem(doc, "pairs")) {
        int with_passer = !strcmp(cJSON_GetObjectItem(p, "b")->valuestring, "passer");
        cr_assert_eq(cJSON_GetObjectItem(p, "compared")->valueint, with_passer ? 0 : 6, "%s",
                     r.out);
        cr_assert(cJSON_IsFalse(cJSON_GetObjectItem(p, "flagged")), "%s", r.out);
    }
    cJSON_Delete(doc);
    e2e_run_free(&r);
    const char *text_args[16];
    static const char *const text_extra[] = { "--positions", "6", NULL };
    similarity_args(text_args, sizeof text_args / sizeof *text_args, specs, 3, text_extra);
    e2e_runv(&r, dir, NULL, "referee", text_args);
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    cr_assert_not_null(strstr(r.out, "\npasser: no legal answer at 6 of 6 positions (not "
                                     "compared there)\n"), "%s", r.out);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}
