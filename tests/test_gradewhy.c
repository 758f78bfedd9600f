/*
 * test_gradewhy.c - what a check's evidence says went wrong (gradewhy.h),
 * on items written here as gradecheck.c journals them: a forfeited game's
 * reason and ply, a finished game's caption, a position's line, a cpu
 * depth's failures, the class table's short reason and results.json's
 * text. The pages that show them are tested end to end (test_e2e_grade.c).
 */
#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include "referee/grade/gradewhy.h"

static const struct rubric_check match = { .id = "strong", .kind = RUBRIC_MATCH };
static const struct rubric_check exact = { .id = "minimax", .kind = RUBRIC_EXACT, .depth = 4 };
static const struct rubric_check cpu = { .id = "speed", .kind = RUBRIC_CPU, .depth = 3,
                                         .max_ms = 500 };

static cJSON *parse(const char *json)
{
    cJSON *j = cJSON_Parse(json);
    cr_assert_not_null(j, "not JSON: %s", json);
    return j;
}

static const char forfeited[] =
    "{\"game\": 2, \"side\": 1, \"opening\": [\"3\", \"4\"], \"result\": 0, \"reason\": "
    "\"timeout: no answer within 1500 ms of wall time (--timeout-ms)\", \"ply\": 25, "
    "\"stderr\": \"thinking\\n\", \"stdout\": \"depth 9\", \"board\": \"12\\n1\\n\"}";

/* What item json of a check ch says: whether it cost points, its line and
 * its board's caption. */
static void expect_words(const struct rubric_check *ch, const char *json, int failed,
                         const char *line, const char *caption)
{
    cJSON *it = parse(json);
    char buf[GWHY_MAX];
    cr_expect_eq(gwhy_failed(ch, it), failed, "%s: failed %d", json, gwhy_failed(ch, it));
    cr_expect_str_eq(gwhy_item(ch, it, buf), line);
    cr_expect_str_eq(gwhy_caption(ch, it, buf), caption);
    cJSON_Delete(it);
}

Test(gradewhy, a_forfeited_game_says_its_reason_and_ply)
{
    cJSON *it = parse(forfeited);
    cr_expect(gwhy_forfeited(it));
    cJSON_Delete(it);
    expect_words(&match, forfeited, 1,
                 "game 2, as player 1, opening 3 4: lost, forfeited at ply 25: timeout: no "
                 "answer within 1500 ms of wall time (--timeout-ms)",
                 "the position it forfeited at (ply 25): timeout: no answer within 1500 ms "
                 "of wall time (--timeout-ms)");
}

Test(gradewhy, a_won_game_is_captioned_final_not_forfeited)
{
    static const char won[] = "{\"game\": 1, \"side\": 2, \"opening\": [], \"result\": 1, "
                              "\"reason\": \"normal\", \"ply\": 42, \"board\": \"1\\n2\\n\"}";
    cJSON *it = parse(won);
    cr_expect_not(gwhy_forfeited(it));
    cJSON_Delete(it);
    expect_words(&match, won, 0, "game 1, as player 2, opening: won (the game ended after "
                 "ply 42)", "final position (after ply 42):");
}

/* A journal written before items had a ply: the ply is not said. A draw
 * costs points. */
Test(gradewhy, a_game_of_an_older_journal_has_no_ply)
{
    expect_words(&match, "{\"game\": 1, \"side\": 1, \"opening\": [], \"result\": 0.5, "
                 "\"reason\": \"draw-rule\", \"board\": \"1\\n2\\n\"}", 1,
                 "game 1, as player 1, opening: drawn (by the draw rule)", "final position:");
}

Test(gradewhy, a_position_says_the_move_given_and_the_best)
{
    expect_words(&exact, "{\"position\": 3, \"ply\": 12, \"board\": \"0\\n1\\n\", "
                 "\"given\": \"4\", \"status\": \"not best\", \"expected\": [\"2\", \"5\"]}", 1,
                 "position 3 (ply 12): given 4 (not best); expected one of 2 5",
                 "the position (ply 12):");
}

Test(gradewhy, a_cpu_depth_names_its_failures)
{
    cJSON *pt = parse("{\"depth\": 3, \"median_ms\": 0, \"failed\": 2, \"moves\": 0, "
                      "\"failures\": {\"timeout\": 1, \"crashed: SIGSEGV\": 1}}");
    char buf[GWHY_MAX];
    cr_expect_str_eq(gwhy_depth(pt, buf),
                     "depth 3: 2 of 2 moves failed: timeout 1, crashed: SIGSEGV 1");
    cJSON_Delete(pt);
    pt = parse("{\"depth\": 2, \"median_ms\": 40, \"failed\": 0, \"moves\": 2}");
    cr_expect_null(gwhy_depth(pt, buf));
    cJSON_Delete(pt);
}

Test(gradewhy, the_short_reason_counts_the_commonest_kinds)
{
    cJSON *ev = parse("{\"items\": ["
                      "{\"position\": 1, \"status\": \"not best\"},"
                      "{\"position\": 2, \"status\": \"timeout: no answer within 1 ms\"},"
                      "{\"position\": 3, \"status\": \"timeout: no answer within 1 ms\"},"
                      "{\"position\": 4, \"status\": \"exit-status 1\"}]}");
    char buf[GWHY_SHORT_MAX];
    cr_expect_str_eq(gwhy_short(&exact, ev, buf), "timeout (2), not best (1), ...");
    cJSON_Delete(ev);
    ev = parse("{\"curve\": [{\"depth\": 3, \"median_ms\": 812.4, \"failed\": 0}]}");
    cr_expect_str_eq(gwhy_short(&cpu, ev, buf), "median 812 ms > 500 ms");
    cJSON_Delete(ev);
    ev = parse("{\"curve\": [{\"depth\": 1, \"median_ms\": 2, \"failed\": 0}]}");
    cr_expect_str_eq(gwhy_short(&cpu, ev, buf), "not run at depth 3");
    cJSON_Delete(ev);
}

Test(gradewhy, results_text_gives_each_failure_its_reason_board_and_tails)
{
    char json[sizeof forfeited + 64];
    snprintf(json, sizeof json, "{\"items\": [%s]}", forfeited);
    cJSON *ev = parse(json);
    char *text = gwhy_text(&match, "scored 0.000", ev);
    cr_assert_not_null(text);
    cr_expect_str_eq(text, "scored 0.000\n"
                           "game 2, as player 1, opening 3 4: lost, forfeited at ply 25: "
                           "timeout: no answer within 1500 ms of wall time (--timeout-ms)\n"
                           "the position it forfeited at (ply 25): timeout: no answer within "
                           "1500 ms of wall time (--timeout-ms)\n12\n1\n"
                           "its stderr ended with:\nthinking\n"
                           "its stdout ended with:\ndepth 9\n");
    free(text);
    cJSON_Delete(ev);
}
