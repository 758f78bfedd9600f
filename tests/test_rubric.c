/*
 * test_rubric.c - a grading rubric read and checked (rubric.h,
 * docs/grading.md) from text in memory: what a good rubric becomes (its
 * defaults, each kind's keys), the error of every bad one at the line and
 * column of the key or value it is about, prerequisites (rubric_requires)
 * and a student's self-check (rubric_keep_visible).
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "referee/grade/rubric.h"
#include "arena/limits.h"

#define GAME "\"game\":\"connect4\",\"engine\":\"./engine\","

static int parse(const char *text, struct rubric *r, struct err *e)
{
    memset(e, 0, sizeof *e);
    return rubric_parse(text, strlen(text), "/nowhere", r, e);
}

Test(rubric, a_rubric_gets_the_defaults_of_what_it_leaves_out)
{
    struct rubric r;
    struct err e;
    cr_assert_eq(parse("{" GAME "\"checks\":[{\"id\":\"legal\",\"kind\":\"legal\",\"points\":10,"
                       "\"positions\":20,\"depth\":2}]}", &r, &e), 0, "%d:%d: %s", e.line, e.col,
                 e.msg);
    cr_assert_str_eq(r.game->name, "connect4");
    cr_assert_str_eq(r.engine, "./engine");
    cr_assert_null(r.build);
    cr_assert_eq(r.proto, SPEC_FILE);
    cr_assert_eq(r.visibility, RUBRIC_VISIBLE);
    cr_assert_eq(r.build_timeout_ms, GRADE_DEFAULT_BUILD_TIMEOUT_MS);
    cr_assert_eq(r.timeout_ms, REF_DEFAULT_TIMEOUT_MS);
    cr_assert(r.cpu_limit_s == 0 && r.mem_limit_mb == 0, "%ld %ld", r.cpu_limit_s, r.mem_limit_mb);
    cr_assert_eq(r.seed, 1);
    cr_assert_eq(r.random_plies, GRADE_DEFAULT_RANDOM_PLIES);
    cr_assert_eq(r.ncheck, 1);
    cr_assert_str_eq(r.check[0].id, "legal");
    cr_assert_eq(r.check[0].kind, RUBRIC_LEGAL);
    cr_assert(r.check[0].positions == 20 && r.check[0].depth == 2, "%ld %d",
              r.check[0].positions, r.check[0].depth);
    cr_assert_eq(r.check[0].visibility, RUBRIC_VISIBLE);
    cr_assert_eq(r.max_total, 10.0);
    cr_assert_eq(strlen(r.sha256), 64, "the file's SHA-256 for the journal");
    rubric_free(&r);
}

Test(rubric, each_kind_reads_its_own_keys)
{
    struct rubric r;
    struct err e;
    cr_assert_eq(parse("{" GAME "\"proto\":\"persistent\",\"visibility\":\"hidden\","
                       "\"seed\":7,\"random_plies\":4,\"build\":\"make\",\"checks\":["
                       "{\"id\":\"x\",\"kind\":\"exact\",\"points\":1.5,\"positions\":3,"
                       "\"depth\":4,\"visibility\":\"visible\"},"
                       "{\"id\":\"m\",\"kind\":\"match\",\"points\":2,\"opponent\":\"alphabeta:3\","
                       "\"games\":6,\"min_score\":0.75,\"depth\":5,\"requires\":{\"x\":0.5}},"
                       "{\"id\":\"c\",\"kind\":\"cpu\",\"points\":1,\"positions\":2,\"depth\":6,"
                       "\"max_ms\":900}]}", &r, &e), 0, "%d:%d: %s", e.line, e.col, e.msg);
    cr_assert_eq(r.proto, SPEC_PERSISTENT);
    cr_assert_eq(r.visibility, RUBRIC_HIDDEN);
    cr_assert_eq(r.seed, 7);
    cr_assert_eq(r.random_plies, 4);
    cr_assert_str_eq(r.build, "make");
    cr_assert_eq(r.ncheck, 3);
    cr_assert_eq(r.check[0].visibility, RUBRIC_VISIBLE, "its own");
    cr_assert_eq(r.check[1].visibility, RUBRIC_HIDDEN, "the rubric's");
    cr_assert_str_eq(r.check[1].opponent, "alphabeta:3");
    cr_assert(r.check[1].opp.kind == PLAYER_ALPHABETA && r.check[1].opp.depth == 3, "%d %d",
              r.check[1].opp.kind, r.check[1].opp.depth);
    cr_assert(r.check[1].games == 6 && r.check[1].min_score == 0.75, "%ld %g",
              r.check[1].games, r.check[1].min_score);
    cr_assert_eq(r.check[1].nrequires, 1);
    cr_assert(r.check[1].requires[0].check == 0 && r.check[1].requires[0].share == 0.5, "%d %g",
              r.check[1].requires[0].check, r.check[1].requires[0].share);
    cr_assert_eq(r.check[2].max_ms, 900);
    cr_assert_eq(r.max_total, 4.5);
    rubric_free(&r);
}

/* Arrays, not pointers: Criterion hands each case to a new process. */
struct bad_case {
    char text[300];
    char at[48];    /* where the error is: the first occurrence in text */
    char msg[160];
};

#define CHECK(rest) "{" GAME "\"checks\":[{\"id\":\"a\",\"kind\":\"legal\",\"points\":1," rest "}]}"

ParameterizedTestParameters(rubric, a_bad_rubric_is_refused_at_its_place)
{
    static struct bad_case cases[] = {
        { "[1]", "[1]", "a rubric is a JSON object" },
        { "{\"checks\":[}", "}", "not valid JSON" },
        { "{" GAME "\"check\":[]}", "\"check\"", "unknown key \"check\"" },
        { "{\"game\":\"connect4\",\"engine\":\"./engine\"}", "{", "missing key \"checks\"" },
        { "{" GAME "\"checks\":[]}", "[]", "\"checks\" must be a non-empty list of checks" },
        { "{" GAME "\"checks\":{}}", "{}", "\"checks\" must be a non-empty list of checks" },
        { "{\"game\":\"go\",\"engine\":\"e\",\"checks\":[1]}", "\"go\"", "unknown game \"go\"" },
        { "{\"game\":\"nim\",\"checks\":[1]}", "\"game\"",
          "\"game\" and \"engine\" go together (both, or neither for a rubric of io checks)" },
        { "{" GAME "\"proto\":\"pipe\",\"checks\":[1]}", "\"pipe\"",
          "\"proto\" must be \"file\" or \"persistent\", got \"pipe\"" },
        { "{" GAME "\"seed\":-1,\"checks\":[1]}", "-1",
          "\"seed\" must be a whole number from 0 to 9007199254740992" },
        { "{" GAME "\"timeout_ms\":1.5,\"checks\":[1]}", "1.5",
          "\"timeout_ms\" must be a whole number from 1 to 86400000" },
        { "{" GAME "\"random_plies\":101,\"checks\":[1]}", "101",
          "\"random_plies\" must be a whole number from 0 to 100" },
        { "{\"game\":\"nim\",\"engine\":\"\",\"checks\":[1]}", "\"\"",
          "\"engine\" must be a non-empty string" },
        { "{" GAME "\"visibility\":\"secret\",\"checks\":[1]}", "\"secret\"",
          "\"visibility\" must be \"hidden\", \"after_due_date\", \"after_published\" or "
          "\"visible\", got \"secret\"" },
        { "{" GAME "\"checks\":[1]}", "1]",
          "a check is an object {\"id\", \"kind\", \"points\", ...}" },
        { "{" GAME "\"checks\":[{\"kind\":\"legal\"}]}", "{\"kind\"", "missing key \"id\"" },
        { "{" GAME "\"checks\":[{\"id\":\"a b\",\"kind\":\"legal\"}]}", "\"a b\"",
          "id \"a b\": at most 31 letters, digits, '-' or '_'" },
        { "{" GAME "\"checks\":[{\"id\":\"total\",\"kind\":\"legal\"}]}", "\"total\"",
          "id \"total\" is a column of grades.csv already" },
        { "{" GAME "\"checks\":[{\"id\":\"a\",\"kind\":\"fast\"}]}", "\"fast\"",
          "unknown kind \"fast\" (legal, exact, match, cpu, io)" },
        { CHECK("\"games\":3"), "\"games\"", "unknown key \"games\" in a legal check" },
        { CHECK("\"positions\":0,\"depth\":1"), "0,", "\"positions\" must be a whole number from "
          "1 to 1000" },
        { CHECK("\"depth\":1"), "{\"id\"", "missing key \"positions\"" },
        { "{" GAME "\"checks\":[{\"id\":\"a\",\"kind\":\"legal\",\"points\":0}]}", "0}",
          "\"points\" must be a number above 0 and at most 1e+06" },
        { "{" GAME "\"checks\":[{\"id\":\"a\",\"kind\":\"legal\",\"points\":1,\"positions\":1,"
          "\"depth\":1},{\"id\":\"a\",\"kind\":\"legal\"}]}", "\"a\",\"kind\":\"legal\"}",
          "two checks have the id \"a\"" },
        { CHECK("\"requires\":{\"b\":0.5}"), "{\"b\"",
          "\"requires\": \"b\" is not the id of a check before this one" },
        { CHECK("\"requires\":[]"), "[]", "\"requires\" must be an object of check ids and "
          "shares, e.g. {\"minimax\": 0.8}" },
        { "{\"checks\":[{\"id\":\"a\",\"kind\":\"legal\",\"points\":1}]}", "\"legal\"",
          "a legal check needs the rubric's \"game\" and \"engine\"" },
        { "{" GAME "\"checks\":[{\"id\":\"m\",\"kind\":\"match\",\"points\":1,\"depth\":1,"
          "\"opponent\":\"alphabeta\"}]}", "\"alphabeta\"",
          "unknown opponent \"alphabeta\" (random, alphabeta:D, minimax:D, perfect)" },
        { "{" GAME "\"checks\":[{\"id\":\"m\",\"kind\":\"match\",\"points\":1,\"depth\":1,"
          "\"opponent\":\"minimax:0\"}]}", "\"minimax:0\"",
          "opponent \"minimax:0\": the depth after ':' must be a whole number from 1 to 64" },
        { "{\"game\":\"othello\",\"engine\":\"e\",\"checks\":[{\"id\":\"m\",\"kind\":\"match\","
          "\"points\":1,\"depth\":1,\"opponent\":\"perfect\"}]}", "\"perfect\"",
          "opponent \"perfect\": game othello has no perfect player" },
        { "{\"checks\":[{\"id\":\"i\",\"kind\":\"io\",\"points\":1,\"cmd\":\"x\",\"inputs\":\"*\","
          "\"args\":\"-v\",\"expected\":\"*\"}]}", "\"args\"",
          "\"args\" belongs to \"reference\"" },
        { "{\"checks\":[{\"id\":\"i\",\"kind\":\"io\",\"points\":1,\"cmd\":\"x\",\"inputs\":\"*\"}]}",
          "{\"id\"", "an io check takes \"reference\" or \"expected\" (one of them)" },
        { "{\"checks\":[{\"id\":\"i\",\"kind\":\"io\",\"points\":1,\"cmd\":\"x\",\"inputs\":\"*\","
          "\"reference\":\"chess\"}]}", "\"chess\"",
          "unknown reference \"chess\" (spfiar, checkers, nim, maxconnect4)" },
        { "{\"checks\":[{\"id\":\"i\",\"kind\":\"io\",\"points\":1,\"cmd\":\"x\",\"inputs\":"
          "\"in/*.txt\",\"reference\":\"nim\"}]}", "\"in/*.txt\"",
          "\"inputs\": no file matches in/*.txt" },
    };
    return cr_make_param_array(struct bad_case, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct bad_case *c, rubric, a_bad_rubric_is_refused_at_its_place)
{
    struct rubric r;
    struct err e;
    cr_assert_eq(parse(c->text, &r, &e), -1, "'%s' was taken", c->text);
    const char *at = strstr(c->text, c->at);
    cr_assert_not_null(at, "the case's place '%s'", c->at);
    cr_assert_str_eq(e.msg, c->msg, "'%s'", c->text);
    cr_assert(e.line == 1 && e.col == (int)(at - c->text) + 1, "'%s': %d:%d, not 1:%d (at '%s')",
              c->text, e.line, e.col, (int)(at - c->text) + 1, c->at);
    cr_assert_eq(r.ncheck, 0, "freed");
    cr_assert_null(r.engine, "freed");
}

Test(rubric, lines_and_columns_count_from_one_in_bytes)
{
    struct rubric r;
    struct err e;
    const char text[] = "{\n  \"game\": \"connect4\",\n  \"engine\": \"./e\",\n"
                        "  \"checks\": [\n    {\"id\": \"a\", \"kind\": \"legal\", \"points\": 1,\n"
                        "\t\"positions\": 5, \"depth\": 99}\n  ]\n}\n";
    cr_assert_eq(parse(text, &r, &e), -1);
    cr_assert_str_eq(e.msg, "\"depth\" must be a whole number from 1 to 64");
    cr_assert(e.line == 6 && e.col == 27, "%d:%d", e.line, e.col);
}

Test(rubric, io_expected_files_pair_with_the_inputs_by_base_name)
{
    char dir[] = "/tmp/test_rubric_XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    const char *files[] = { "in/b.txt", "in/a.txt", "out/a.out", "out/b.out" };
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/in", dir);
    mkdir(path, 0700);
    snprintf(path, sizeof path, "%s/out", dir);
    mkdir(path, 0700);
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        FILE *f = fopen(path, "w");
        cr_assert_not_null(f);
        fclose(f);
    }
    struct rubric r;
    struct err e;
    const char *text = "{\"checks\":[{\"id\":\"i\",\"kind\":\"io\",\"points\":2,\"cmd\":\"./run\","
                       "\"inputs\":\"in/*.txt\",\"expected\":\"out/*\"}]}";
    cr_assert_eq(rubric_parse(text, strlen(text), dir, &r, &e), 0, "%d:%d: %s", e.line, e.col,
                 e.msg);
    cr_assert_null(r.game, "io checks only");
    const struct rubric_check *ch = &r.check[0];
    cr_assert_eq(ch->ninputs, 2);
    char want[PATH_MAX];
    snprintf(want, sizeof want, "%s/in/a.txt", dir);
    cr_assert_str_eq(ch->input[0], want, "sorted");
    snprintf(want, sizeof want, "%s/out/a.out", dir);
    cr_assert_str_eq(ch->expected[0], want);
    snprintf(want, sizeof want, "%s/out/b.out", dir);
    cr_assert_str_eq(ch->expected[1], want);
    rubric_free(&r);

    /* An input without its expected file. */
    snprintf(path, sizeof path, "%s/out/b.out", dir);
    unlink(path);
    cr_assert_eq(rubric_parse(text, strlen(text), dir, &r, &e), -1);
    snprintf(want, sizeof want, "\"expected\": no file for input %s/in/b.txt", dir);
    cr_assert_str_eq(e.msg, want);
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        unlink(path);
    }
    snprintf(path, sizeof path, "%s/in", dir);
    rmdir(path);
    snprintf(path, sizeof path, "%s/out", dir);
    rmdir(path);
    rmdir(dir);
}

/* Three checks: b requires a at 80%, c requires a at 50% and b at 100%. */
static void chain(struct rubric *r)
{
    struct err e;
    cr_assert_eq(parse("{" GAME "\"checks\":["
                       "{\"id\":\"a\",\"kind\":\"legal\",\"points\":10,\"positions\":1,\"depth\":1},"
                       "{\"id\":\"b\",\"kind\":\"legal\",\"points\":4,\"positions\":1,\"depth\":1,"
                       "\"requires\":{\"a\":0.8},\"visibility\":\"hidden\"},"
                       "{\"id\":\"c\",\"kind\":\"legal\",\"points\":1,\"positions\":1,\"depth\":1,"
                       "\"requires\":{\"a\":0.5,\"b\":1}}]}", r, &e), 0, "%d:%d: %s", e.line,
                 e.col, e.msg);
}

Test(rubric, a_prerequisite_scored_below_its_share_names_both_figures)
{
    struct rubric r;
    chain(&r);
    double score[3] = { 7.5, 4, 0 };
    unsigned char known[3] = { 1, 0, 0 };
    char why[128] = "";
    cr_assert_eq(rubric_requires(&r, 0, score, known, why, sizeof why), 1, "no prerequisite");
    cr_assert_eq(rubric_requires(&r, 1, score, known, why, sizeof why), 0);
    cr_assert_str_eq(why, "it requires a at 80% or more; a scored 75%");
    cr_assert_eq(rubric_requires(&r, 2, score, known, why, sizeof why), -1, "b not graded yet");
    known[1] = 1;
    cr_assert_eq(rubric_requires(&r, 2, score, known, why, sizeof why), 1);
    score[0] = 8;   /* exactly the share */
    cr_assert_eq(rubric_requires(&r, 1, score, known, why, sizeof why), 1);
    score[0] = 10.0 / 3;
    cr_assert_eq(rubric_requires(&r, 2, score, known, why, sizeof why), 0);
    cr_assert_str_eq(why, "it requires a at 50% or more; a scored 33.3%");
    rubric_free(&r);
}

Test(rubric, a_self_check_keeps_the_visible_checks_and_their_visible_prerequisites)
{
    struct rubric r;
    chain(&r);
    cr_assert_eq(rubric_keep_visible(&r), 1);
    cr_assert_eq(r.ncheck, 2);
    cr_assert_str_eq(r.check[0].id, "a");
    cr_assert_str_eq(r.check[1].id, "c");
    cr_assert_eq(r.check[1].nrequires, 1, "b's score cannot be known");
    cr_assert_eq(r.check[1].requires[0].check, 0);
    cr_assert_eq(r.max_total, 11.0);
    rubric_free(&r);
}
