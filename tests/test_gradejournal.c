/*
 * test_gradejournal.c - what `referee grade --resume` reads back from its
 * journal (gradejournal.h): a record line is one JSON object as cJSON
 * writes it, or the journal is refused at that line and left as it was
 * (a rewrite copies lines byte for byte, so a line whose record hides
 * part of it would change meaning there); a last line cut short by a
 * crash is cut off. Grading itself is tested end to end
 * (test_e2e_grade.c); the reader is fuzzed (tests/fuzz/grade_journal.c).
 */
#define _GNU_SOURCE
#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "referee/grade/gradejournal.h"

#define HEADER "{\"schema\":\"" GJOUR_SCHEMA "\",\"rubric_sha256\":\"ab\",\"seed\":\"1\"}"
#define RECORD "{\"submission\":{\"id\":\"alice\"},\"check\":\"legal\",\"score\":10,\"max\":10}"

struct journal {
    char dir[64], path[96];
};

static void journal_put(struct journal *j, const char *text, size_t len)
{
    snprintf(j->dir, sizeof j->dir, "/tmp/arena-gjour-XXXXXX");
    cr_assert_not_null(mkdtemp(j->dir));
    snprintf(j->path, sizeof j->path, "%s/journal.jsonl", j->dir);
    FILE *f = fopen(j->path, "w");
    cr_assert_not_null(f);
    cr_assert_eq(fwrite(text, 1, len, f), len);
    fclose(f);
}

/* The file's bytes (malloc'd, NUL-terminated), *len their count. */
static char *journal_text(const struct journal *j, size_t *len)
{
    FILE *f = fopen(j->path, "r");
    cr_assert_not_null(f);
    char *text = calloc(1, 4096);
    *len = fread(text, 1, 4095, f);
    fclose(f);
    return text;
}

static void journal_remove(struct journal *j)
{
    unlink(j->path);
    rmdir(j->dir);
}

static int count(void *ctx, const struct cJSON *rec, int line, struct err *e)
{
    (void)rec, (void)line, (void)e;
    ++*(int *)ctx;
    return 0;
}

struct refusal {
    const char *name;
    const char *line;        /* the second line, after the header */
    size_t len;
    int col;                 /* where the refusal is placed on line 2 */
    const char *msg;         /* after "PATH: " */
};

#define LINE(s) s, sizeof s - 1

/* A record that is not what grade writes is refused at its line, and
 * resume leaves the file as it was (it would otherwise be graded on what a
 * reader saw and rewritten with what it did not see). */
Test(gradejournal, a_line_that_is_not_one_json_object_is_refused_where_it_is)
{
    static const struct refusal cases[] = {
        { "text after the record (found by the fuzzer)", LINE(RECORD ",\"check\":\"speed\"}"),
          (int)sizeof RECORD, "not a JSON object" },
        { "a NUL byte", LINE("{\"check\":\"legal\"}\0{\"check\":\"speed\"}"), 18,
          "NUL byte in a text file" },
        { "a number beyond a double", LINE("{\"check\":\"legal\",\"score\":1e999}"), 1,
          "not a record as the referee writes it: a number out of range" },
        { "a key twice", LINE("{\"check\":\"legal\",\"check\":\"speed\"}"), 1,
          "not a record as the referee writes it: the key \"check\" twice in one object" },
        { "an array", LINE("[1]"), 1, "not a JSON object" },
        { "not JSON", LINE("check legal"), 1, "not a JSON object" },
        { "an empty line", LINE(""), 1, "not a JSON object" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const struct refusal *c = &cases[i];
        char text[512];
        size_t len = strlen(HEADER "\n");
        memcpy(text, HEADER "\n", len);
        memcpy(text + len, c->line, c->len);
        len += c->len;
        text[len++] = '\n';
        struct journal j;
        journal_put(&j, text, len);
        int n = 0, fd = -2;
        struct err e = { 0, 0, "" };
        int rc = gjour_open(j.path, HEADER, 1, count, &n, &fd, &e);
        char want[300];
        snprintf(want, sizeof want, "%s: %s", j.path, c->msg);
        cr_expect(rc == -1 && fd == -1, "%s: rc %d, fd %d", c->name, rc, fd);
        cr_expect(e.line == 2 && e.col == c->col && strcmp(e.msg, want) == 0,
                  "%s: %d:%d: %s", c->name, e.line, e.col, e.msg);
        size_t after;
        char *now = journal_text(&j, &after);
        cr_expect(after == len && memcmp(now, text, len) == 0, "%s: the file changed",
                  c->name);
        free(now);
        journal_remove(&j);
    }
}

Test(gradejournal, resume_reads_each_record_and_cuts_off_a_last_line_cut_short)
{
    static const char text[] = HEADER "\n" RECORD "\n" RECORD "\n{\"submission\":{\"id\"";
    struct journal j;
    journal_put(&j, text, sizeof text - 1);
    int n = 0, fd = -1;
    struct err e;
    cr_assert_eq(gjour_open(j.path, HEADER, 1, count, &n, &fd, &e), 0, "%s", e.msg);
    close(fd);
    cr_expect_eq(n, 2);
    size_t len;
    char *now = journal_text(&j, &len);
    cr_expect_str_eq(now, HEADER "\n" RECORD "\n" RECORD "\n");
    free(now);
    journal_remove(&j);
}
