/*
 * test_e2e_report.c - referee report's pentanomial counts, normalized Elo
 * and round-robin crosstable on hand-made journals (fixtures/report, whose
 * README derives the expected counts and one nElo by hand), byte for byte
 * in every format.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdio.h>
#include <stdlib.h>
#include "e2e_util.h"

struct report_case {
    char journal[32];   /* fixtures/report/NAME.jsonl */
    char format[8];
};

ParameterizedTestParameters(e2e_report, pentanomial_and_crosstable_as_expected)
{
    static struct report_case cases[] = {
        { "penta", "text" },
        { "penta", "json" },
        { "penta", "csv" },
        { "penta-gauntlet", "text" },   /* no crosstable for a gauntlet */
    };
    return cr_make_param_array(struct report_case, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct report_case *c, e2e_report, pentanomial_and_crosstable_as_expected)
{
    char *dir = e2e_fixture("report");
    char file[64], rel[96];
    snprintf(file, sizeof file, "%s.jsonl", c->journal);
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "referee", "report", file, "--format", c->format, NULL);
    cr_assert_eq(r.status, 0, "report %s --format %s: exit %d: %s", file, c->format, r.status,
                 r.err);
    snprintf(rel, sizeof rel, "report/%s.report.%s", c->journal, c->format);
    e2e_assert_fixture(r.out, r.out_len, rel);
    e2e_run_free(&r);
    free(dir);
}
