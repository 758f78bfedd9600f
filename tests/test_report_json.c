/*
 * test_report_json.c - the JSON report (report_json.h) on hand-made
 * tallies: each "forfeits" entry (engine, kind, count) with its "details",
 * a detail's count and games with their opponents, exactly; a record
 * without a number; a report without forfeits as it always was. Every
 * figure against the text report is tested end to end
 * (test_e2e_report.c).
 */
#include <criterion/criterion.h>
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>
#include "referee/report/report_json.h"
#include "report_testutil.h"

/* The report's "forfeits", unformatted; fails the test when it is no JSON. */
static char *forfeits_of(struct tally *t)
{
    char *report = tu_print(report_json, t);
    cJSON *root = cJSON_Parse(report);
    cr_assert_not_null(root, "not JSON:\n%s", report);
    char *text = cJSON_PrintUnformatted(cJSON_GetObjectItem(root, "forfeits"));
    cr_assert_not_null(text, "no \"forfeits\" in:\n%s", report);
    cJSON_Delete(root);
    free(report);
    return text;
}

Test(report_json, each_forfeit_kind_lists_its_details_with_count_and_games)
{
    /* Entries in the order their kinds first came (as ever); details most
     * games first, then by their words; games by number. */
    static const char want[] =
        "[{\"engine\":\"beta\",\"reason\":\"timeout\",\"count\":4,\"details\":["
        "{\"detail\":\"no answer within 1000 ms of wall time (--timeout-ms)\",\"count\":3,"
        "\"games\":[{\"game\":1,\"opponent\":\"alpha\"},{\"game\":2,\"opponent\":\"alpha\"},"
        "{\"game\":7,\"opponent\":\"gamma\"}]},"
        "{\"detail\":\"no answer within 2000 ms of wall time (--timeout-ms)\",\"count\":1,"
        "\"games\":[{\"game\":9,\"opponent\":\"gamma\"}]}]},"
        "{\"engine\":\"beta\",\"reason\":\"illegal-move\",\"count\":1,\"details\":["
        "{\"detail\":\"adds no disc\",\"count\":1,\"games\":[{\"game\":3,\"opponent\":\"gamma\"}]}]},"
        "{\"engine\":\"gamma\",\"reason\":\"crashed: SIGSEGV\",\"count\":1,\"details\":["
        "{\"detail\":null,\"count\":1,\"games\":[{\"game\":4,\"opponent\":\"alpha\"}]}]},"
        "{\"engine\":\"gamma\",\"reason\":\"unreadable\",\"count\":1,\"details\":["
        "{\"detail\":\"1:1: unexpected character 'g', expected 0, 1 or 2\",\"count\":1,"
        "\"games\":[{\"game\":6,\"opponent\":\"beta\"}]}]},"
        "{\"engine\":\"alpha\",\"reason\":\"illegal-move\",\"count\":1,\"details\":["
        "{\"detail\":\"=HYPERLINK(\\\"http://x\\\")\",\"count\":1,"
        "\"games\":[{\"game\":8,\"opponent\":\"beta\"}]}]}]";
    struct tally t;
    tu_forfeit_tally(&t, 0);
    char *got = forfeits_of(&t);
    cr_expect_str_eq(got, want, "got:\n%s", got);
    free(got);
    tally_free(&t);
}

/* Each detail's words are the journal's "detail": the kind and the detail
 * joined by ": " give back the reason the record holds, for every entry. */
Test(report_json, kind_and_detail_join_into_the_records_reason)
{
    struct tally t;
    tu_forfeit_tally(&t, 1);
    char *report = tu_print(report_json, &t);
    cJSON *root = cJSON_Parse(report);
    cr_assert_not_null(root, "not JSON:\n%s", report);
    long games = 0;
    const cJSON *f, *d;
    cJSON_ArrayForEach(f, cJSON_GetObjectItem(root, "forfeits")) {
        const char *kind = cJSON_GetObjectItem(f, "reason")->valuestring;
        long sum = 0;
        cJSON_ArrayForEach(d, cJSON_GetObjectItem(f, "details")) {
            const cJSON *detail = cJSON_GetObjectItem(d, "detail");
            char reason[REC_REASON_MAX];
            snprintf(reason, sizeof reason, "%s%s%s", kind, cJSON_IsString(detail) ? ": " : "",
                     cJSON_IsString(detail) ? detail->valuestring : "");
            long count = (long)cJSON_GetObjectItem(d, "count")->valuedouble;
            cr_expect_eq(cJSON_GetArraySize(cJSON_GetObjectItem(d, "games")), count,
                         "%s: %ld games listed for a count of %ld", reason,
                         (long)cJSON_GetArraySize(cJSON_GetObjectItem(d, "games")), count);
            int found = 0;
            for (long k = 0; k < t.nwhy; k++)
                found |= strcmp(t.why[k].reason, reason) == 0 && t.why[k].count == count;
            cr_expect(found, "no reason \"%s\" of %ld games in the tally", reason, count);
            sum += count;
        }
        cr_expect_eq(sum, (long)cJSON_GetObjectItem(f, "count")->valuedouble,
                     "%s: the details count %ld", kind, sum);
        games += sum;
    }
    cr_expect_eq(games, 8, "%ld forfeited games in the details", games);
    cJSON_Delete(root);
    free(report);
    tally_free(&t);
}

Test(report_json, a_game_without_a_number_is_null)
{
    static const char *const names[] = { "a", "b" };
    static const struct tu_game games[] = { { -1, { "a", "b" }, 2, "exit-status 1" } };
    struct tally t;
    tu_tally(&t, 2, names, games, 1);
    char *got = forfeits_of(&t);
    cr_expect_str_eq(got,
                     "[{\"engine\":\"a\",\"reason\":\"exit-status 1\",\"count\":1,\"details\":["
                     "{\"detail\":null,\"count\":1,\"games\":[{\"game\":null,\"opponent\":\"b\"}]}]}]",
                     "got:\n%s", got);
    free(got);
    tally_free(&t);
}

/* Without forfeits "forfeits" is empty and the report has no other new
 * key: its bytes are what they always were. */
Test(report_json, no_forfeits_add_nothing)
{
    static const char *const names[] = { "a", "b" };
    static const struct tu_game games[] = { { 1, { "a", "b" }, 1, NULL } };
    struct tally t;
    tu_tally(&t, 2, names, games, 1);
    char *report = tu_print(report_json, &t);
    const char *end = strstr(report, "\t\"forfeits\":");
    cr_assert_not_null(end, "%s", report);
    cr_expect_str_eq(end, "\t\"forfeits\":\t[]\n}\n", "%s", report);
    free(report);
    tally_free(&t);
}
