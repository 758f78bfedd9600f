/*
 * test_report_text.c - the text report (report_text.h) on hand-made
 * tallies: the forfeits by kind and then why each happened, each engine's
 * reasons in full with their counts and games, byte for byte; a long
 * tournament's section cut to a few lines; nothing added without
 * forfeits. Journals are reported end to end in test_e2e_report.c and
 * test_e2e_records.c.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include "referee/report/report_text.h"
#include "report_testutil.h"

/* The report from its "Forfeits" line on. */
static const char *forfeit_sections(const char *report)
{
    const char *p = strstr(report, "\nForfeits");
    cr_assert_not_null(p, "no Forfeits section in:\n%s", report);
    return p + 1;
}

Test(report_text, each_engines_forfeits_say_why_with_count_and_games)
{
    static const char want[] =
        "Forfeits\n"
        "beta                 timeout                  4\n"
        "beta                 illegal-move             1\n"
        "gamma                crashed: SIGSEGV         1\n"
        "gamma                unreadable               1\n"
        "alpha                illegal-move             1\n"
        "\n"
        "Why each forfeit happened (per engine: each reason in full, most games first, and "
        "its games)\n"
        "alpha: 1 forfeit\n"
        "  1 x illegal-move: =HYPERLINK(\"http://x\")\n"
        "      game 8 against beta\n"
        "gamma: 2 forfeits\n"
        "  1 x crashed: SIGSEGV\n"
        "      game 4 against alpha\n"
        "  1 x unreadable: 1:1: unexpected character 'g', expected 0, 1 or 2\n"
        "      game 6 against beta\n"
        "beta: 5 forfeits\n"
        "  3 x timeout: no answer within 1000 ms of wall time (--timeout-ms)\n"
        "      games 1, 2 against alpha; 7 against gamma\n"
        "  1 x illegal-move: adds no disc\n"
        "      game 3 against gamma\n"
        "  1 x timeout: no answer within 2000 ms of wall time (--timeout-ms)\n"
        "      game 9 against gamma\n";
    struct tally t;
    tu_forfeit_tally(&t, 0);
    char *report = tu_print(report_text, &t);
    cr_expect_str_eq(forfeit_sections(report), want, "got:\n%s", forfeit_sections(report));
    free(report);
    tally_free(&t);
    /* The journal's order shows in the table by kind (first seen, as ever),
     * never in why. */
    tu_forfeit_tally(&t, 1);
    report = tu_print(report_text, &t);
    const char *why = strstr(report, "\nWhy each forfeit");
    cr_assert_not_null(why, "%s", report);
    cr_expect_str_eq(why, strstr(want, "\nWhy each forfeit"), "games reversed:\n%s", why);
    free(report);
    tally_free(&t);
}

/* slow times out in 12 games and makes 12 different illegal moves, one a
 * game: 10 reasons and 10 games a reason are listed, then how many more. */
Test(report_text, a_long_tournaments_forfeits_stay_a_few_lines)
{
    static const char *const names[] = { "slow", "b", "c" };
    struct tu_game games[24];
    char illegal[12][64];
    for (int g = 0; g < 12; g++) {
        games[g] = (struct tu_game){ g + 1, { "slow", g % 4 == 3 ? "c" : "b" }, 2,
                                     "timeout: no answer within 1000 ms of wall time "
                                     "(--timeout-ms)" };
        snprintf(illegal[g], sizeof illegal[g], "illegal-move: plays column %d, which is full",
                 g + 1);
        games[12 + g] = (struct tu_game){ 13 + g, { "b", "slow" }, 1, illegal[g] };
    }
    struct tally t;
    tu_tally(&t, 3, names, games, 24);
    char *report = tu_print(report_text, &t);
    const char *why = strstr(report, "\nWhy each forfeit");
    cr_assert_not_null(why, "%s", report);
    static const char want[] =
        "\nWhy each forfeit happened (per engine: each reason in full, most games first, and "
        "its games)\n"
        "slow: 24 forfeits\n"
        "  12 x timeout: no answer within 1000 ms of wall time (--timeout-ms)\n"
        "       games 1, 2, 3, 5, 6, 7, 9, 10, 11 against b; 4 against c; 2 more\n"
        "   1 x illegal-move: plays column 1, which is full\n"
        "       game 13 against b\n"
        "   1 x illegal-move: plays column 10, which is full\n"
        "       game 22 against b\n"
        "   1 x illegal-move: plays column 11, which is full\n"
        "       game 23 against b\n"
        "   1 x illegal-move: plays column 12, which is full\n"
        "       game 24 against b\n"
        "   1 x illegal-move: plays column 2, which is full\n"
        "       game 14 against b\n"
        "   1 x illegal-move: plays column 3, which is full\n"
        "       game 15 against b\n"
        "   1 x illegal-move: plays column 4, which is full\n"
        "       game 16 against b\n"
        "   1 x illegal-move: plays column 5, which is full\n"
        "       game 17 against b\n"
        "   1 x illegal-move: plays column 6, which is full\n"
        "       game 18 against b\n"
        "  and 3 more reasons (3 games): --format json lists every one\n";
    cr_expect_str_eq(why, want, "got:%s", why);
    free(report);
    tally_free(&t);
}

/* A journal without forfeits reports as it always did: the table says
 * none and is the report's last line. */
Test(report_text, no_forfeits_add_nothing)
{
    static const char *const names[] = { "a", "b" };
    static const struct tu_game games[] = { { 1, { "a", "b" }, 1, NULL },
                                            { 2, { "b", "a" }, 1, NULL } };
    struct tally t;
    tu_tally(&t, 2, names, games, 2);
    char *report = tu_print(report_text, &t);
    cr_expect_str_eq(forfeit_sections(report), "Forfeits: none\n", "%s", report);
    free(report);
    tally_free(&t);
}

/* Words from a journal are shown escaped (escape.h), a record without a
 * number as "?". */
Test(report_text, a_detail_is_escaped_and_a_game_without_a_number_is_a_question_mark)
{
    static const char *const names[] = { "a", "b" };
    static const struct tu_game games[] = {
        { -1, { "a", "b" }, 2, "unreadable: 1:1: unexpected character '\x1b'" }
    };
    struct tally t;
    tu_tally(&t, 2, names, games, 1);
    char *report = tu_print(report_text, &t);
    const char *want = "a: 1 forfeit\n"
                       "  1 x unreadable: 1:1: unexpected character '\\x1b'\n"
                       "      game ? against b\n";
    cr_expect_not_null(strstr(report, want), "no\n%s\nin:\n%s", want, report);
    free(report);
    tally_free(&t);
}
