/*
 * test_gradeout.c - what the grade's outputs do with a submission's id
 * (gradeout.h), by table: a grades.csv cell (RFC 4180 quoting, and OWASP's
 * leading ' before what a spreadsheet would run as a formula), and the
 * names of OUT's own files an id may not take. The files themselves are
 * tested end to end (test_e2e_grade.c, test_e2e_gradefaults.c).
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "referee/grade/gradeout.h"

struct cell_case {
    const char *text, *cell;
};

Test(gradeout, a_csv_cell_is_quoted_and_never_a_formula)
{
    static const struct cell_case cases[] = {
        { "alice", "alice" },
        { "", "" },
        { "=HYPERLINK(\"http://x\")", "\"'=HYPERLINK(\"\"http://x\"\")\"" },
        { "=1+1", "'=1+1" },
        { "+cmd", "'+cmd" },
        { "-2", "'-2" },
        { "@SUM(1)", "'@SUM(1)" },
        { "\tx", "'\tx" },
        { "\rcr", "\"'\rcr\"" },
        { "a,b", "\"a,b\"" },
        { "say\"hi", "\"say\"\"hi\"" },
        { "two\nlines", "\"two\nlines\"" },
        { "a=b", "a=b" },                 /* only a leading one */
        { "\x1b[31mred", "\x1b[31mred" },  /* a file's data; the terminal escapes it */
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *text = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&text, &len);
        cr_assert_not_null(f);
        gout_csv_cell(cases[i].text, f);
        fclose(f);
        cr_expect_str_eq(text, cases[i].cell, "cell of \"%s\"", cases[i].text);
        free(text);
    }
}

struct name_case {
    const char *id, *own;   /* own: NULL when the id is free */
};

Test(gradeout, ids_that_are_outs_own_names_are_named)
{
    static const struct name_case cases[] = {
        { "grades.csv", "grades.csv" },
        { "index.html", "index.html" },
        { "journal.jsonl", "journal.jsonl" },
        { "grades.csv.tmp123-0", "grades.csv" },
        { "journal-3.jsonl", "journal-K.jsonl (a shard's journal)" },
        { "shard.sh", "shard.sh" },
        { "merge.sh", "merge.sh" },
        { "merge.out", "merge.out" },
        { "shard-12.out", "shard-K.out (a Slurm task's output)" },
        { "alice", NULL },
        { "grades", NULL },
        { "grades.csvx", NULL },
        { "journal-.jsonl", NULL },
        { "index.htm", NULL },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const char *own = gout_own_name(cases[i].id);
        if (cases[i].own)
            cr_expect(own && strcmp(own, cases[i].own) == 0, "%s: %s", cases[i].id,
                      own ? own : "(free)");
        else
            cr_expect_null(own, "%s: %s", cases[i].id, own);
    }
}
