/*
 * test_e2e_judges.c - games defined by a judge program (docs/judges.md) end
 * to end: the tic-tac-toe judge of docs/judges plays the built-in game's
 * games move for move, and its report draws them as its hello says; a
 * judge is asked one question a move, and "parse" only for an answer not
 * spelled as its boards; a Kalah match between its two engines is verified
 * and reported; an illegal answer forfeits with the judge's reason; a
 * judge named whose script changed since the match is refused; a tournament's workers each
 * start and free their own judge; referee bench through a judge draws the
 * built-in game's positions; a judge that crashes, hangs or answers
 * nonsense (a summary its own answer contradicts, a drawing whose style
 * would end the page's style element) stops the match (or the bench,
 * verify, report) with the judge named, no log, no engine charged, no
 * judge process left, and the referee's memory all freed (valgrind, as
 * every run of the suite).
 */
#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "e2e_util.h"

#define EXIT_JUDGE_FAILED 4
#define EXIT_USAGE 2

/* The moves of every game of a match log, one line per game (opening then
 * moves), into buf. */
static void game_lines(const char *dir, const char *log, char *buf, size_t cap)
{
    cJSON *root = e2e_read_json(dir, log), *g, *m;
    size_t n = 0;
    buf[0] = '\0';
    cJSON_ArrayForEach(g, cJSON_GetObjectItem(root, "games")) {
        cJSON_ArrayForEach(m, cJSON_GetObjectItem(g, "opening"))
            n += (size_t)snprintf(buf + n, cap - n, "%s ", m->valuestring);
        n += (size_t)snprintf(buf + n, cap - n, "|");
        cJSON_ArrayForEach(m, cJSON_GetObjectItem(g, "moves"))
            n += (size_t)snprintf(buf + n, cap - n, " %s",
                                  cJSON_GetObjectItem(m, "move")->valuestring);
        n += (size_t)snprintf(buf + n, cap - n, "\n");
        cr_assert_lt(n, cap, "buffer too small");
    }
    cJSON_Delete(root);
}

/* The built-in tic-tac-toe engine searching depth plies, as an --engine
 * SPEC named name, into buf. */
static void ttt_engine(const char *name, int depth, char *buf, size_t cap)
{
    char engine[PATH_MAX];
    e2e_engine_bin_path("engine", engine, sizeof engine);
    snprintf(buf, cap, "name=%s,depth=%d,cmd=%s one-move --game tictactoe", name, depth, engine);
}

/* The tic-tac-toe judge's command (docs/judges) into cmd, and the built-in
 * engine at depths 1 and 3 (d1, d3) into a and b. */
static void ttt_judged(char *cmd, size_t cmd_cap, char *a, char *b, size_t cap)
{
    char judge[PATH_MAX];
    e2e_repo_path("docs/judges/tictactoe.py", judge, sizeof judge);
    snprintf(cmd, cmd_cap, "python3 %s", judge);
    ttt_engine("d1", 1, a, cap);
    ttt_engine("d3", 3, b, cap);
}

Test(e2e_judges, tictactoe_judge_plays_the_builtin_games_move_for_move)
{
    char judge[PATH_MAX], a[PATH_MAX + 96], b[PATH_MAX + 96], cmd[PATH_MAX + 16];
    e2e_repo_path("docs/judges/tictactoe.py", judge, sizeof judge);
    snprintf(cmd, sizeof cmd, "python3 %s", judge);
    ttt_engine("d1", 1, a, sizeof a);
    ttt_engine("d3", 3, b, sizeof b);
    char *dir = e2e_tmpdir();
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "referee", "match", "--game", "tictactoe", "--engine", a, "--engine",
            b, "--games", "6", "--random-plies", "2", "--seed", "7", "--log", "built.json", NULL);
    cr_assert_eq(r.status, 0, "built-in: exit %d: %s", r.status, r.err);
    e2e_run_free(&r);
    e2e_run(&r, dir, NULL, "referee", "match", "--judge", cmd, "--engine", a, "--engine", b,
            "--games", "6", "--random-plies", "2", "--seed", "7", "--log", "judged.json", NULL);
    cr_assert_eq(r.status, 0, "judged: exit %d: %s", r.status, r.err);
    e2e_run_free(&r);
    char built[4096], judged[4096];
    game_lines(dir, "built.json", built, sizeof built);
    game_lines(dir, "judged.json", judged, sizeof judged);
    cr_assert_str_eq(judged, built, "the judge's games differ from the built-in game's");
    cJSON *root = e2e_read_json(dir, "judged.json");
    cr_assert_str_eq(cJSON_GetObjectItem(root, "game")->valuestring, "tictactoe-judge");
    cJSON *words = cJSON_GetObjectItem(cJSON_GetObjectItem(root, "judge"), "cmd");
    cr_assert_str_eq(cJSON_GetArrayItem(words, 1)->valuestring, judge);
    cJSON_Delete(root);
    e2e_run(&r, dir, NULL, "referee", "verify", "--judge", cmd, "judged.json", NULL);
    cr_assert_eq(r.status, 0, "verify: exit %d: %s", r.status, r.err);
    cr_assert_not_null(strstr(r.out, " moves replayed: consistent\n"), "%s", r.out);
    e2e_run_free(&r);
    /* The replay draws the boards as the judge's hello says. */
    e2e_run(&r, dir, NULL, "referee", "report", "--judge", cmd, "--format", "html", "judged.json",
            NULL);
    cr_assert_eq(r.status, 0, "report: exit %d: %s", r.status, r.err);
    cr_assert_not_null(strstr(r.out, "<section id=\"games\" data-layout=\"grid\">"),
                       "no grid layout on the page");
    cr_assert_not_null(strstr(r.out, ".tictactoe-judge td.c88::after{content:'X';color:#c22}"),
                       "the judge's style is not on the page");
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

/* Without a sandbox, the sweep after each move kills what an engine left
 * among the referee's children: never the judge, a child too (it once
 * did: "closed its output before reading \"moves\""). A match and a
 * tournament of two workers play through it. */
Test(e2e_judges, a_judge_plays_without_a_sandbox)
{
    char a[PATH_MAX + 96], b[PATH_MAX + 96], cmd[PATH_MAX + 16];
    ttt_judged(cmd, sizeof cmd, a, b, sizeof a);
    char *dir = e2e_tmpdir();
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "referee", "match", "--judge", cmd, "--engine", a, "--engine", b,
            "--games", "2", "--sandbox", "none", NULL);
    cr_assert_eq(r.status, 0, "match: exit %d: %s", r.status, r.err);
    cr_assert_not_null(strstr(r.out, "Score of d1 vs d3: "), "%s", r.out);
    e2e_run_free(&r);
    e2e_run(&r, dir, NULL, "referee", "tournament", "--judge", cmd, "--engine", a, "--engine",
            b, "--rounds", "1", "--concurrency", "2", "--sandbox", "none", "--journal", "t.jsonl",
            NULL);
    cr_assert_eq(r.status, 0, "tournament: exit %d: %s", r.status, r.err);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

Test(e2e_judges, kalah_match_verifies_and_reports)
{
    char judges[PATH_MAX], cmd[PATH_MAX + 32], rnd[PATH_MAX + 96], greedy[PATH_MAX + 96];
    e2e_repo_path("docs/judges", judges, sizeof judges);
    snprintf(cmd, sizeof cmd, "python3 %s/kalah.py", judges);
    /* The engines run in their own folder (dir=), where python3 may look. */
    snprintf(rnd, sizeof rnd,
             "name=random,dir=%s,cmd=python3 kalah_engine.py random {player} {in} {out}", judges);
    snprintf(greedy, sizeof greedy, "name=greedy,dir=%s,cmd=python3 kalah_engine.py greedy {in} {out}",
             judges);
    char *dir = e2e_tmpdir();
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "referee", "match", "--judge", cmd, "--engine", greedy, "--engine",
            rnd, "--games", "4", "--random-plies", "1", "--seed", "5", "--log", "k.json", NULL);
    cr_assert_eq(r.status, 0, "exit %d: %s%s", r.status, r.out, r.err);
    cr_assert_null(strstr(r.out, "forfeit"), "stdout:\n%s", r.out);
    cr_assert_not_null(strstr(r.out, "Score of greedy vs random: "), "stdout:\n%s", r.out);
    e2e_run_free(&r);
    e2e_run(&r, dir, NULL, "referee", "verify", "--judge", cmd, "k.json", NULL);
    cr_assert_eq(r.status, 0, "verify: exit %d: %s%s", r.status, r.out, r.err);
    cr_assert(strncmp(r.out, "k.json: 4 games, ", 17) == 0, "%s", r.out);
    cr_assert_not_null(strstr(r.out, " moves replayed: consistent\n"), "%s", r.out);
    e2e_run_free(&r);
    e2e_run(&r, dir, NULL, "referee", "report", "k.json", NULL);
    cr_assert_eq(r.status, 0, "report: exit %d: %s", r.status, r.err);
    cr_assert_not_null(strstr(r.out, "Standings after 4 games\n"), "%s", r.out);
    cr_assert_not_null(strstr(r.out, "Forfeits: none\n"), "%s", r.out);
    e2e_run_free(&r);
    e2e_run(&r, dir, NULL, "referee", "report", "--judge", cmd, "--format", "html", "k.json", NULL);
    cr_assert_eq(r.status, 0, "report: exit %d: %s", r.status, r.err);
    /* The replay starts from the judge's start board, shown as its text. */
    cr_assert_not_null(strstr(r.out, "data-start=\"4 4 4 4 4 4&#10;4 4 4 4 4 4&#10;0 0&#10;1&#10;\""),
                       "no start board on the page");
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

Test(e2e_judges, verify_refuses_a_judge_that_changed)
{
    char judge[PATH_MAX], engine[PATH_MAX], a[PATH_MAX + 64], copy[PATH_MAX + 64];
    e2e_repo_path("docs/judges/tictactoe.py", judge, sizeof judge);
    e2e_engine_bin_path("engine", engine, sizeof engine);
    snprintf(a, sizeof a, "cmd=%s one-move --game tictactoe", engine);
    char *dir = e2e_tmpdir();
    /* A root referee's judge runs as nobody, who must read judge.py. */
    cr_assert_eq(chmod(dir, 0755), 0, "chmod %s: %s", dir, strerror(errno));
    snprintf(copy, sizeof copy, "%s/judge.py", dir);
    size_t len;
    char *text = e2e_slurp(judge, &len);
    FILE *f = fopen(copy, "w");
    cr_assert_not_null(f);
    fwrite(text, 1, len, f);
    fclose(f);
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "referee", "match", "--judge", "python3 judge.py", "--engine", a,
            "--engine", a, "--games", "2", "--log", "m.json", NULL);
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    e2e_run_free(&r);
    f = fopen(copy, "a");
    fputs("# changed\n", f);
    fclose(f);
    /* Named with --judge, as a journal's judge must be (its own command
     * is never run); report's tables check a judge named too. */
    const char *cmds[] = { "verify", "report", "analyze" };
    for (int k = 0; k < 3; k++) {
        e2e_run(&r, dir, NULL, "referee", cmds[k], "--judge", "python3 judge.py", "m.json", NULL);
        cr_assert_eq(r.status, EXIT_USAGE, "%s: exit %d: %s", cmds[k], r.status, r.err);
        char want[2 * PATH_MAX + 256];
        snprintf(want, sizeof want, "m.json:1:1: --judge: file 2, %s, has SHA-256 ", copy);
        cr_assert(strncmp(r.err, want, strlen(want)) == 0, "%s: stderr: %s\nwanted: %s",
                  cmds[k], r.err, want);
        cr_assert_eq(r.out_len, 0, "%s: stdout: %s", cmds[k], r.out);
        e2e_run_free(&r);
    }
    free(text);
    e2e_rmdir(dir);
}

/* The folder of the rules fixtures/judges' judges import from outside their
 * own (docs/judges), which their sandbox shows only when told: --sandbox-ro
 * (the judge's sandbox takes the engines' read-only paths). */
static void bad_judge_rules(char *buf, size_t cap)
{
    e2e_repo_path("docs/judges", buf, cap);
}

struct bad_judge {
    char mode[12];
    char error[112];   /* what follows "referee: judge '...': " */
};

ParameterizedTestParameters(e2e_judges, a_failing_judge_stops_the_match)
{
    static struct bad_judge cases[] = {
        { "crash", "exited with status 3 before answering \"moves\"" },
        { "nonsense", "answered \"moves\" with 'hello there', not a JSON object" },
        { "hang", "no answer to \"moves\" within 10000 ms" },
        { "contradict", "answered \"moves\" about a board otherwise than its earlier answer "
                        "listing it as a move's board" },
        { "badstyle", "answered \"hello\" with a style holding '<' (it would end the page's "
                      "style element)" },
        { "badlayout", "answered \"hello\" with the layout 'hex': grid, checker or rows" },
    };
    return cr_make_param_array(struct bad_judge, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct bad_judge *c, e2e_judges, a_failing_judge_stops_the_match,
                  .timeout = 60)
{
    char engine[PATH_MAX], a[PATH_MAX + 64], cmd[64], want[256], pattern[64], rules[PATH_MAX];
    e2e_engine_bin_path("engine", engine, sizeof engine);
    snprintf(a, sizeof a, "cmd=%s one-move --game tictactoe", engine);
    snprintf(cmd, sizeof cmd, "python3 bad_judge.py %s", c->mode);
    char *fix = e2e_fixture("judges");
    char *dir = e2e_tmpdir();
    char log[PATH_MAX + 16];
    snprintf(log, sizeof log, "%s/m.json", dir);
    bad_judge_rules(rules, sizeof rules);
    struct e2e_run r;
    e2e_run(&r, fix, NULL, "referee", "match", "--judge", cmd, "--sandbox-ro", rules, "--engine",
            a, "--engine", a, "--games", "2", "--log", log, NULL);
    cr_assert_eq(r.status, EXIT_JUDGE_FAILED, "exit %d: %s", r.status, r.err);
    snprintf(want, sizeof want, "referee: judge '%s': %s\n", cmd, c->error);
    cr_assert_str_eq(r.err, want);
    cr_assert_null(strstr(r.out, "forfeit"), "stdout:\n%s", r.out);
    cr_assert_not(e2e_exists(log), "a log was written");
    snprintf(pattern, sizeof pattern, "bad_judge[.]py %s$", c->mode);   /* this test's */
    cr_assert_not(e2e_process_alive(pattern), "a judge process is left: %s", pattern);
    e2e_run_free(&r);
    e2e_rmdir(dir);
    free(fix);
}

/* An engine's answer that is none of the judge's moves forfeits with the
 * judge's own named reason (its "verdict"), as with a built-in game. */
/* The tic-tac-toe judge's command into cmd, fixtures/judges' SCRIPT as the
 * engine `name` into a, and the built-in engine at depth 1 (d1) into b. */
static void ttt_fixture_vs_d1(const char *name, const char *script, char *cmd, size_t cmd_cap,
                              char *a, char *b, size_t cap)
{
    char judge[PATH_MAX], fix[PATH_MAX];
    e2e_repo_path("docs/judges/tictactoe.py", judge, sizeof judge);
    e2e_repo_path("fixtures/judges", fix, sizeof fix);
    snprintf(cmd, cmd_cap, "python3 %s", judge);
    snprintf(a, cap, "name=%s,dir=%s,cmd=python3 %s {in} {out}", name, fix, script);
    ttt_engine("d1", 1, b, cap);
}

Test(e2e_judges, an_illegal_answer_forfeits_with_the_judges_reason)
{
    char cmd[PATH_MAX + 16], a[PATH_MAX + 96], b[PATH_MAX + 96];
    ttt_fixture_vs_d1("two", "two_marks.py", cmd, sizeof cmd, a, b, sizeof a);
    char *dir = e2e_tmpdir();
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "referee", "match", "--judge", cmd, "--engine", a, "--engine", b,
            "--games", "1", "--log", "m.json", NULL);
    cr_assert_not_null(strstr(r.out, "Finished game 1 (two vs d1): 0-1 {two forfeits at ply 1: "
                                     "illegal-move: adds 2 marks}\n"),
                       "exit %d, stdout:\n%s%s", r.status, r.out, r.err);
    e2e_run_free(&r);
    e2e_run(&r, dir, NULL, "referee", "verify", "--judge", cmd, "m.json", NULL);
    cr_assert_eq(r.status, 0, "verify: exit %d: %s%s", r.status, r.out, r.err);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

/* An answer that is not text (a legal board, then the byte 0xFF) is the
 * engine's forfeit, unreadable with where the text stops; the judge never
 * sees it, so the run goes on (it used to stop the match, the judge reading
 * a character the referee never sent). */
Test(e2e_judges, an_answer_that_is_not_text_is_unreadable_before_the_judge_sees_it)
{
    char cmd[PATH_MAX + 16], a[PATH_MAX + 96], b[PATH_MAX + 96];
    ttt_fixture_vs_d1("bytes", "not_text.py", cmd, sizeof cmd, a, b, sizeof a);
    char *dir = e2e_tmpdir();
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "referee", "match", "--judge", cmd, "--engine", a, "--engine", b,
            "--games", "2", "--log", "m.json", NULL);
    cr_assert_eq(r.status, 3, "exit %d (3: an engine forfeited every game), stdout:\n%s%s",
                 r.status, r.out, r.err);
    cr_assert_not_null(strstr(r.out, "Finished game 1 (bytes vs d1): 0-1 {bytes forfeits at ply "
                                     "1: unreadable: 5:1: byte 0xff is not text (UTF-8 without "
                                     "control characters)}\n"),
                       "stdout:\n%s%s", r.out, r.err);
    cr_assert_not_null(strstr(r.out, "Finished game 2 (d1 vs bytes): 1-0 {bytes forfeits at ply "
                                     "2: unreadable: 5:1: byte 0xff"),
                       "stdout:\n%s%s", r.out, r.err);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

/* referee bench through a judge: the same seed draws the same random
 * positions as the built-in game's (the same moves, in the same canonical
 * order), so an engine that gives up on a board whose centre is taken
 * fails at the same position of the same number through both. */
Test(e2e_judges, bench_through_a_judge_draws_the_builtin_games_positions)
{
    char judge[PATH_MAX], fix[PATH_MAX], cmd[PATH_MAX + 16], shy[PATH_MAX + 96];
    e2e_repo_path("docs/judges/tictactoe.py", judge, sizeof judge);
    e2e_repo_path("fixtures/judges", fix, sizeof fix);
    snprintf(cmd, sizeof cmd, "python3 %s", judge);
    snprintf(shy, sizeof shy, "name=shy,dir=%s,cmd=python3 center_shy.py {in} {out} {depth}",
             fix);
    const char *const how[2][2] = { { "--game", "tictactoe" }, { "--judge", cmd } };
    const char *const names[2] = { "tictactoe", "tictactoe-judge" };
    char *dir = e2e_tmpdir();
    for (int k = 0; k < 2; k++) {
        struct e2e_run r;
        e2e_run(&r, dir, NULL, "referee", "bench", how[k][0], how[k][1], "--engine", shy,
                "--depths", "1-1", "--random-positions", "8", "--plies", "2", "--seed", "3",
                "--json", "b.json", NULL);
        cr_assert_eq(r.status, 0, "%s: exit %d: %s", names[k], r.status, r.err);
        char want[256];
        snprintf(want, sizeof want, "Bench %s: 8 positions (2 random plies, seed 3), 1 move per "
                 "position and depth, depths 1-1\n", names[k]);
        cr_assert(strncmp(r.out, want, strlen(want)) == 0, "stdout:\n%s\nwanted first:\n%s",
                  r.out, want);
        cr_assert_not_null(strstr(r.out, "\n  shy at depth 1: 1 of 8 moves failed, not timed: 1 "
                                         "exit-status 1 (first at position 6)\n"),
                           "%s: stdout:\n%s", names[k], r.out);
        cJSON *doc = e2e_read_json(dir, "b.json");
        cr_assert_str_eq(cJSON_GetObjectItem(doc, "game")->valuestring, names[k]);
        cr_assert_eq(cJSON_GetObjectItem(doc, "positions")->valueint, 8);
        const cJSON *d = cJSON_GetArrayItem(
            cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "engines"), 0),
                                "depths"), 0);
        cr_assert_eq(cJSON_GetObjectItem(d, "moves")->valueint, 7, "%s", names[k]);
        cr_assert_eq(cJSON_GetObjectItem(d, "failed")->valueint, 1, "%s", names[k]);
        cJSON_Delete(doc);
        e2e_run_free(&r);
    }
    e2e_rmdir(dir);
}

/* A judge that fails during a bench stops it as it stops a match: the
 * judge named, exit status 4, no JSON, no judge process left. */
Test(e2e_judges, a_failing_judge_stops_the_bench, .timeout = 60)
{
    char engine[PATH_MAX], a[PATH_MAX + 64];
    e2e_engine_bin_path("engine", engine, sizeof engine);
    snprintf(a, sizeof a, "name=d,cmd=%s one-move --game tictactoe {in} {out} {depth}", engine);
    const char *cmd = "python3 bad_judge.py crash bench";   /* "bench": this test's process */
    char *fix = e2e_fixture("judges");
    char *dir = e2e_tmpdir();
    char json[PATH_MAX + 16], rules[PATH_MAX];
    snprintf(json, sizeof json, "%s/b.json", dir);
    bad_judge_rules(rules, sizeof rules);
    struct e2e_run r;
    e2e_run(&r, fix, NULL, "referee", "bench", "--judge", cmd, "--sandbox-ro", rules, "--engine",
            a, "--depths", "1-2", "--random-positions", "2", "--json", json, NULL);
    cr_assert_eq(r.status, EXIT_JUDGE_FAILED, "exit %d: %s", r.status, r.err);
    cr_assert_str_eq(r.err, "referee: judge 'python3 bad_judge.py crash bench': exited with "
                            "status 3 before answering \"moves\"\n");
    cr_assert_not(e2e_exists(json), "a JSON was written");
    cr_assert_not(e2e_process_alive("bad_judge[.]py crash bench$"), "a judge process is left");
    e2e_run_free(&r);
    e2e_rmdir(dir);
    free(fix);
}

/* verify and report start the judge named with --judge: one that fails
 * stops them as it stops a match (exit status 4, the judge named), not as a
 * journal at fault. The journal is a match's, its judge then made the
 * failing one (its command, its program's SHA-256 and its script in its
 * files recorded). */
Test(e2e_judges, a_failing_judge_stops_verify_and_report, .timeout = 120)
{
    char judge[PATH_MAX], bad[PATH_MAX], engine[PATH_MAX], cmd[PATH_MAX + 16], a[PATH_MAX + 64];
    e2e_repo_path("docs/judges/tictactoe.py", judge, sizeof judge);
    e2e_repo_path("fixtures/judges/bad_judge.py", bad, sizeof bad);
    e2e_engine_bin_path("engine", engine, sizeof engine);
    snprintf(cmd, sizeof cmd, "python3 %s", judge);
    snprintf(a, sizeof a, "cmd=%s one-move --game tictactoe", engine);
    char *dir = e2e_tmpdir();
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "referee", "match", "--judge", cmd, "--engine", a, "--engine", a,
            "--games", "1", "--log", "m.json", NULL);
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    e2e_run_free(&r);
    e2e_run_tool(&r, dir, NULL, "sha256sum", bad, NULL);
    cr_assert_eq(r.status, 0, "sha256sum: %s", r.err);
    char sum[65];
    snprintf(sum, sizeof sum, "%s", r.out);
    e2e_run_free(&r);
    cJSON *root = e2e_read_json(dir, "m.json");
    cJSON *words = cJSON_CreateArray();
    cJSON_AddItemToArray(words, cJSON_CreateString("python3"));
    cJSON_AddItemToArray(words, cJSON_CreateString(bad));
    cJSON_AddItemToArray(words, cJSON_CreateString("crash"));
    cJSON_AddItemToArray(words, cJSON_CreateString("verify"));   /* this test's process */
    cJSON *j = cJSON_GetObjectItem(root, "judge");
    cJSON_ReplaceItemInObject(j, "cmd", words);
    cJSON_ReplaceItemInObject(j, "sha256", cJSON_CreateString(sum));
    cJSON *script = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "files"), 1);
    cJSON_ReplaceItemInObject(script, "path", cJSON_CreateString(bad));
    cJSON_ReplaceItemInObject(script, "sha256", cJSON_CreateString(sum));
    char *text = cJSON_Print(root), path[PATH_MAX + 16];
    snprintf(path, sizeof path, "%s/m.json", dir);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs(text, f);
    fclose(f);
    free(text);
    cJSON_Delete(root);
    char want[2 * PATH_MAX], named[PATH_MAX + 32], rules[PATH_MAX];
    snprintf(named, sizeof named, "python3 %s crash verify", bad);
    bad_judge_rules(rules, sizeof rules);
    snprintf(want, sizeof want, "referee: judge '%s': exited with status 3 before answering "
             "\"moves\"\n", named);
    /* The text report asks no "moves"; the HTML replay does. */
    const char *const runs[2][9] = { { "verify", "--judge", named, "--sandbox-ro", rules,
                                       "m.json" },
                                     { "report", "--judge", named, "--sandbox-ro", rules,
                                       "--format", "html", "m.json" } };
    for (int k = 0; k < 2; k++) {
        e2e_runv(&r, dir, NULL, "referee", runs[k]);
        cr_assert_eq(r.status, EXIT_JUDGE_FAILED, "%s: exit %d: %s", runs[k][0], r.status,
                     r.err);
        cr_assert_str_eq(r.err, want, "%s", runs[k][0]);
        cr_assert_eq(r.out_len, 0, "%s: stdout: %s", runs[k][0], r.out);
        cr_assert_not(e2e_process_alive("bad_judge[.]py crash verify$"),
                      "a judge process is left");
        e2e_run_free(&r);
    }
    e2e_rmdir(dir);
}

/* A tournament through a judge: each game in a worker process of its own,
 * which starts its own judge and frees its copy of it (valgrind follows the
 * workers); its journal verifies. */
Test(e2e_judges, a_tournament_through_a_judge_verifies, .timeout = 120)
{
    char a[PATH_MAX + 96], b[PATH_MAX + 96], cmd[PATH_MAX + 16];
    ttt_judged(cmd, sizeof cmd, a, b, sizeof a);
    char *dir = e2e_tmpdir();
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "referee", "tournament", "--judge", cmd, "--engine", a, "--engine", b,
            "--concurrency", "2", "--journal", "t.jsonl", NULL);
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    cr_assert_not_null(strstr(r.out, "Forfeits: none\n"), "stdout:\n%s", r.out);
    e2e_run_free(&r);
    e2e_run(&r, dir, NULL, "referee", "verify", "--judge", cmd, "t.jsonl", NULL);
    cr_assert_eq(r.status, 0, "verify: exit %d: %s", r.status, r.err);
    cr_assert(strncmp(r.out, "t.jsonl: 2 games, ", 18) == 0, "%s", r.out);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

/* How many lines of the file dir/name are line (with its newline). */
static int count_lines(const char *dir, const char *name, const char *line)
{
    char path[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    size_t len;
    char *text = e2e_slurp(path, &len);
    int n = 0;
    for (char *p = text; (p = strstr(p, line)) != NULL; p += strlen(line))
        n += p == text || p[-1] == '\n';
    free(text);
    return n;
}

/* A judge that says of each move's board whose turn it is there is asked
 * one "moves" a move at most, while the engine thinks, and "parse" only for
 * an answer not spelled as one of its boards: never for the built-in
 * engine's, once for each move of an engine writing CRLF line endings,
 * whose answers are still legal moves (docs/judges.md, "Cost"). */
Test(e2e_judges, a_judge_is_asked_once_a_move_and_parse_only_for_other_spellings,
     .timeout = 60)
{
    char fix[PATH_MAX], cmd[PATH_MAX + 32], a[PATH_MAX + 96], b[PATH_MAX + 96];
    e2e_repo_path("fixtures/judges", fix, sizeof fix);
    snprintf(cmd, sizeof cmd, "python3 %s/counting_judge.py", fix);
    ttt_engine("d1", 1, a, sizeof a);
    snprintf(b, sizeof b, "name=crlf,dir=%s,cmd=python3 crlf_first.py {in} {out}", fix);
    char *dir = e2e_tmpdir();
    struct e2e_run r;
    /* A judge trusted: it writes its log in the referee's folder. */
    e2e_run(&r, dir, NULL, "referee", "match", "--judge", cmd, "--judge-sandbox", "none",
            "--engine", a, "--engine", b, "--games", "4", "--random-plies", "1", "--seed", "2",
            "--log", "m.json", NULL);
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    cr_assert_null(strstr(r.out, "forfeit"), "stdout:\n%s", r.out);
    e2e_run_free(&r);
    cJSON *root = e2e_read_json(dir, "m.json"), *g, *m;
    int plies = 0, crlf = 0;
    cJSON_ArrayForEach(g, cJSON_GetObjectItem(root, "games")) {
        plies += cJSON_GetArraySize(cJSON_GetObjectItem(g, "opening"));
        cJSON_ArrayForEach(m, cJSON_GetObjectItem(g, "moves")) {
            plies++;
            crlf += strcmp(cJSON_GetObjectItem(m, "engine")->valuestring, "crlf") == 0;
        }
    }
    cJSON_Delete(root);
    int moves = count_lines(dir, "judge-questions.log", "moves\n");
    int parse = count_lines(dir, "judge-questions.log", "parse\n");
    cr_assert_gt(crlf, 0, "the CRLF engine never moved");
    cr_assert_eq(parse, crlf, "%d parse questions for the CRLF engine's %d moves", parse, crlf);
    cr_assert_leq(moves, plies, "%d moves questions for %d plies", moves, plies);
    cr_assert_eq(count_lines(dir, "judge-questions.log", "verdict\n"), 0);
    e2e_rmdir(dir);
}
