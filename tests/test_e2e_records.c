/*
 * test_e2e_records.c - journals and match logs written before the typed game
 * record (fixtures/records, see its README) read the same today: report in
 * every format, verify, analyze and merge print what they printed then, byte
 * for byte. The on-disk formats arena.journal/1 and arena.match/1 did not
 * change, and the record decoder reads what the old encoder wrote.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "e2e_util.h"

struct old_file {
    char name[24];     /* fixtures/records/NAME.{jsonl,json} */
    char ext[8];
};

ParameterizedTestParameters(e2e_records, old_files_report_and_verify_as_before)
{
    static struct old_file files[] = {
        { "old-journal", "jsonl" },
        { "old-checkers", "jsonl" },
        { "old-nim", "jsonl" },
        { "old-match", "json" },
        { "old-othello", "jsonl" },
    };
    return cr_make_param_array(struct old_file, files, sizeof files / sizeof *files);
}

ParameterizedTest(struct old_file *f, e2e_records, old_files_report_and_verify_as_before)
{
    static const char *const formats[] = { "text", "json", "csv" };
    char *dir = e2e_fixture("records");
    char file[64], rel[96];
    snprintf(file, sizeof file, "%s.%s", f->name, f->ext);
    for (size_t i = 0; i < sizeof formats / sizeof *formats; i++) {
        struct e2e_run r;
        e2e_run(&r, dir, NULL, "referee", "report", file, "--format", formats[i], NULL);
        cr_assert_eq(r.status, 0, "report %s --format %s: exit %d: %s", file, formats[i],
                     r.status, r.err);
        snprintf(rel, sizeof rel, "records/%s.report.%s", f->name, formats[i]);
        e2e_assert_fixture(r.out, r.out_len, rel);
        e2e_run_free(&r);
    }
    struct e2e_run v;
    e2e_run(&v, dir, NULL, "referee", "verify", file, NULL);
    cr_assert_eq(v.status, 0, "verify %s: exit %d: %s", file, v.status, v.err);
    snprintf(rel, sizeof rel, "records/%s.verify", f->name);
    e2e_assert_fixture(v.out, v.out_len, rel);
    e2e_run_free(&v);
    free(dir);
}

/* Nim's oracle is exact, so the analysis of an old record is the same
 * every run; old-nim.jsonl's records carry the analysis the tournament
 * wrote, which analyze replaces. */
Test(e2e_records, old_files_analyze_as_before)
{
    static const char *const names[][2] = { { "old-match.json", "records/old-match.analyze" },
                                            { "old-nim.jsonl", "records/old-nim.analyze" } };
    char *dir = e2e_fixture("records");
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        struct e2e_run r;
        e2e_run(&r, dir, NULL, "referee", "analyze", names[i][0], NULL);
        cr_assert_eq(r.status, 0, "analyze %s: exit %d: %s", names[i][0], r.status, r.err);
        e2e_assert_fixture(r.out, r.out_len, names[i][1]);
        e2e_run_free(&r);
    }
    free(dir);
}

/* merge copies each old record as it was written. */
Test(e2e_records, old_journal_merges_as_before)
{
    char *dir = e2e_fixture("records");
    char *tmp = e2e_tmpdir();
    char out[PATH_MAX];
    snprintf(out, sizeof out, "%s/merged.jsonl", tmp);
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "referee", "merge", out, "old-nim.jsonl", NULL);
    cr_assert_eq(r.status, 0, "merge: exit %d: %s", r.status, r.err);
    size_t len;
    char *text = e2e_slurp(out, &len);
    cr_assert_not_null(text, "merge wrote no %s", out);
    e2e_assert_fixture(text, len, "records/old-nim.merged.jsonl");
    free(text);
    e2e_run_free(&r);
    e2e_rmdir(tmp);
    free(dir);
}
