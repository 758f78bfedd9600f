/*
 * gradeout.h - what `referee grade` writes from its journal (grade.h):
 *   OUT/grades.csv        RFC 4180: submission,total,max, a column per check
 *                         id (its score), sha256, error (why no check ran: the
 *                         submission's own fault; empty when they ran); a row
 *                         per submission by id; a text cell that a spreadsheet
 *                         would take for a formula starts with ' (escape.h's
 *                         esc_csv)
 *   OUT/ID/results.json   Gradescope's autograder results: {"score",
 *                         "tests": [{"name" (the check id), "score",
 *                         "max_score", "output": the check's line, then
 *                         each failure's reason, board and output tails
 *                         (gradewhy.h's gwhy_text), "visibility"}]}
 *   OUT/ID/feedback.html  each check: what ran, the score, the evidence
 *   OUT/index.html        the class: totals' distribution, each check's pass
 *                         rate, a row per submission linking its feedback
 * and the table on the terminal (a self-check: its one row, check by
 * check), ids and outputs escaped (escape.h). Every file is written
 * atomically. A submission whose id is the name of one of OUT's own files
 * (gout_own_name) is not graded, and gets no OUT/ID folder: its row says
 * why. A regrade (--only) rewrites
 * the grades.csv and index.html of the class and the files of the
 * submissions it names alone.
 * Scores are printed with up to two decimals ("%.2f" without trailing
 * zeros), the same in every file.
 */
#ifndef ARENA_GRADEOUT_H
#define ARENA_GRADEOUT_H

#include <stdio.h>
#include "rubric.h"

struct cJSON;

#define GRADE_ID_MAX 256     /* bytes of a submission id (a folder name) */

/* One check of one submission, as journaled. */
struct gout_cell {
    int done;
    double score, max;
    const char *output;            /* the record's (owned by the record) */
    const struct cJSON *evidence;
};

struct gout_row {
    char id[GRADE_ID_MAX];
    char sha256[65];
    const struct cJSON *about;     /* the record's "submission" object: engine,
                                    * build (owned by the record) */
    double total;
    struct gout_cell cell[RUBRIC_MAX_CHECKS];
};

struct gout_class {
    const struct rubric *rb;
    int n;
    struct gout_row *row;          /* sorted by id */
    const unsigned char *only;     /* n flags: the rows whose ID/ files are
                                    * written; NULL: every row's */
};

/* Writes grades.csv and each OUT/ID/results.json (those c->only names,
 * when set) into out (a folder that exists; the pages are gradehtml.h's). 0, or -1 with e naming the file
 * that could not be written. */
int gout_write(const struct gout_class *c, const char *out, struct err *e);
/* Writes text (len bytes; NULL: out of memory) to dir/name atomically and
 * frees it. 0, or -1 with e. */
int gout_put(const char *dir, const char *name, char *text, size_t len, struct err *e);
/* 1 when row i's files (results.json, feedback.html) are to be written. */
int gout_rewritten(const struct gout_class *c, int i);
/* One submission check by check, a line each ("  ID  SCORE of POINTS:
 * OUTPUT"), then its total: what a self-check shows. */
void gout_report(const struct gout_class *c, const struct gout_row *r, FILE *out);
/* The table: a row per submission, its total and each check's score. */
void gout_table(const struct gout_class *c, FILE *out);
/* score as the outputs print it, into buf (32 bytes). */
const char *gout_score(double score, char *buf);
/* The name of OUT's own file that id would clash with as the folder OUT/ID
 * (grades.csv, index.html, journal.jsonl, a shard's journal-K.jsonl, the
 * Slurm scripts shard.sh and merge.sh and their outputs, and the temporary
 * twins tf_write_atomic writes first), as a message says it; NULL when
 * none. Hidden names (.work) are never ids. */
const char *gout_own_name(const char *id);
/* Row r's error, its journal's "error" (why no check ran), or "". */
const char *gout_error(const struct gout_row *r);

#endif
