/*
 * test_gradeout.c - what the grade's outputs do with a submission's id
 * (gradeout.h), by table: the names of OUT's own files an id may not take
 * (a grades.csv cell is escape.h's esc_csv, tested in test_escape.c). The
 * files themselves are tested end to end (test_e2e_grade.c,
 * test_e2e_gradefaults.c).
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "referee/grade/gradeout.h"

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
