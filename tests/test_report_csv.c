/*
 * test_report_csv.c - the CSV report (report_csv.h) on hand-made tallies:
 * --table forfeit-games, a row per forfeited game with its kind, detail,
 * number and opponent, byte for byte (RFC 4180 quoting, a detail that
 * reads like a formula after a '); the forfeits table by kind unchanged.
 * The tables of real logs are read back field by field end to end
 * (test_e2e_report.c).
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "arena/report_csv.h"
#include "report_testutil.h"

static char *table_of(struct tally *t, enum report_csv_table table)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    cr_assert_not_null(f);
    report_csv(t, table, f);
    cr_assert_eq(fclose(f), 0);
    return text;
}

Test(report_csv, forfeit_games_has_a_row_per_game_with_its_detail)
{
    static const char want[] =
        "engine,reason,detail,game,opponent\r\n"
        "alpha,illegal-move,\"'=HYPERLINK(\"\"http://x\"\")\",8,beta\r\n"
        "gamma,crashed: SIGSEGV,,4,alpha\r\n"
        "gamma,unreadable,\"1:1: unexpected character 'g', expected 0, 1 or 2\",6,beta\r\n"
        "beta,timeout,no answer within 1000 ms of wall time (--timeout-ms),1,alpha\r\n"
        "beta,timeout,no answer within 1000 ms of wall time (--timeout-ms),2,alpha\r\n"
        "beta,timeout,no answer within 1000 ms of wall time (--timeout-ms),7,gamma\r\n"
        "beta,illegal-move,adds no disc,3,gamma\r\n"
        "beta,timeout,no answer within 2000 ms of wall time (--timeout-ms),9,gamma\r\n";
    for (int reversed = 0; reversed <= 1; reversed++) {
        struct tally t;
        tu_forfeit_tally(&t, reversed);
        char *got = table_of(&t, REPORT_CSV_FORFEIT_GAMES);
        cr_expect_str_eq(got, want, "games %s:\n%s", reversed ? "reversed" : "in order", got);
        free(got);
        tally_free(&t);
    }
}

/* The table by kind keeps its columns and rows: its kinds, their counts. */
Test(report_csv, forfeits_by_kind_are_as_they_were)
{
    struct tally t;
    tu_forfeit_tally(&t, 0);
    char *got = table_of(&t, REPORT_CSV_FORFEITS);
    cr_expect_str_eq(got,
                     "engine,reason,count\r\n"
                     "beta,timeout,4\r\n"
                     "beta,illegal-move,1\r\n"
                     "gamma,crashed: SIGSEGV,1\r\n"
                     "gamma,unreadable,1\r\n"
                     "alpha,illegal-move,1\r\n",
                     "got:\n%s", got);
    free(got);
    tally_free(&t);
}

Test(report_csv, forfeit_games_without_forfeits_is_its_header)
{
    static const char *const names[] = { "a", "b" };
    static const struct tu_game games[] = { { 1, { "a", "b" }, 1, NULL },
                                            { -1, { "b", "a" }, 1, "exit-status 1" } };
    struct tally t;
    tu_tally(&t, 2, names, games, 1);
    char *got = table_of(&t, REPORT_CSV_FORFEIT_GAMES);
    cr_expect_str_eq(got, "engine,reason,detail,game,opponent\r\n", "got:\n%s", got);
    free(got);
    tally_free(&t);
    /* A record without a number: an empty cell. */
    tu_tally(&t, 2, names, games, 2);
    got = table_of(&t, REPORT_CSV_FORFEIT_GAMES);
    cr_expect_str_eq(got, "engine,reason,detail,game,opponent\r\na,exit-status 1,,,b\r\n",
                     "got:\n%s", got);
    free(got);
    tally_free(&t);
}
