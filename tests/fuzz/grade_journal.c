/*
 * grade_journal.c - fuzz target for the journal of `referee grade`
 * (gradejournal.h): gjour_open with resume, the reader `grade --resume`
 * calls on OUT/journal.jsonl, then its rewrite (gjour_rewrite: --only) and
 * its scan (gjour_scan: the shards' journals and the outputs).
 *
 * Input: the bytes of the journal, written to a file in the target's
 * private folder (the readers take a path). The journal's header is the one
 * grade writes for tests/grade/rubric.json (seed 1), as in the seeds.
 *
 * Properties:
 *   - a rejection has a message and a place (line and column >= 1: the
 *     file is a regular one, so every fault is in its text), leaves the
 *     file as it was and no descriptor open;
 *   - an accepted journal gives one record per complete line after the
 *     header, in order, with its line number; each is a JSON object that
 *     is its whole line (the line read strictly, nothing after the object,
 *     gives the same value); the file is cut to its complete lines (a last
 *     line cut short by a crash goes, its check graded again);
 *   - the module's writer keeps what it read: a rewrite that keeps every
 *     record leaves the file byte for byte as resume left it, and the
 *     records written again as grade writes them (unformatted JSON, one a
 *     line) read back equal (cJSON_Compare).
 */
#define _GNU_SOURCE
#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "referee/grade/gradejournal.h"
#include "fuzz.h"

#define HEADER                                                                          \
    "{\"schema\":\"" GJOUR_SCHEMA "\",\"rubric_sha256\":"                              \
    "\"64a9e10f513a3aad0574742eac014b54d7d0b1ec7216be2399fa50f050d22817\",\"seed\":\"1\"}"

/* The records a scan gave, copied, with their lines. */
struct got {
    cJSON *recs;          /* an array of copies */
    int last_line;
};

static int on_record(void *ctx, const cJSON *rec, int line, struct err *e)
{
    (void)e;
    struct got *g = ctx;
    FUZZ_CHECK(line == g->last_line + 1, "record on line %d after line %d", line, g->last_line);
    g->last_line = line;
    cJSON *copy = cJSON_Duplicate(rec, 1);
    FUZZ_CHECK(copy != NULL, "out of memory");
    cJSON_AddItemToArray(g->recs, copy);
    return 0;
}

static void got_init(struct got *g)
{
    g->recs = cJSON_CreateArray();
    FUZZ_CHECK(g->recs != NULL, "out of memory");
    g->last_line = 1;
}

static int keep_all(void *ctx, const cJSON *rec)
{
    (void)ctx, (void)rec;
    return 1;
}

static const char *journal_path(void)
{
    static char path[600];
    if (!path[0])
        snprintf(path, sizeof path, "%s/journal.jsonl", fuzz_tmpdir());
    return path;
}

static void put_file(const char *path, const void *data, size_t len)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    FUZZ_CHECK(fd >= 0, "cannot write %s: %s", path, strerror(errno));
    FUZZ_CHECK(len == 0 || write(fd, data, len) == (ssize_t)len, "cannot write %s", path);
    close(fd);
}

/* 1 when the file at path holds exactly len bytes of data. */
static int file_is(const char *path, const void *data, size_t len)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    FUZZ_CHECK(fd >= 0, "cannot read %s: %s", path, strerror(errno));
    char *buf = malloc(len + 1);
    FUZZ_CHECK(buf != NULL, "out of memory");
    ssize_t n = read(fd, buf, len + 1);
    close(fd);
    int same = n == (ssize_t)len && memcmp(buf, data, len) == 0;
    free(buf);
    return same;
}

/* Each complete line after the header, read strictly, is its record. */
static void check_lines(const uint8_t *data, size_t complete, const cJSON *recs)
{
    const char *p = memchr(data, '\n', complete), *end = (const char *)data + complete;
    FUZZ_CHECK(p != NULL, "accepted without a header line");
    const cJSON *rec = recs->child;
    int line = 2;
    for (p++; p < end; line++, rec = rec->next) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        FUZZ_CHECK(rec != NULL, "line %d has no record", line);
        FUZZ_CHECK(cJSON_IsObject(rec), "the record of line %d is not a JSON object", line);
        FUZZ_CHECK(!memchr(p, '\0', (size_t)(nl - p)), "line %d holds a NUL byte", line);
        char *text = fuzz_text((const uint8_t *)p, (size_t)(nl - p));
        /* The NUL at the line's end is part of the length: the parse must
         * end there, so nothing after the object is left unread. */
        cJSON *strict = cJSON_ParseWithLengthOpts(text, (size_t)(nl - p) + 1, NULL, 1);
        FUZZ_CHECK(strict && cJSON_Compare(strict, rec, 1),
                   "line %d is not (only) the record read: %s", line, text);
        cJSON_Delete(strict);
        free(text);
        p = nl + 1;
    }
    FUZZ_CHECK(rec == NULL, "more records than lines");
}

/* The records written again as grade writes them, then scanned. */
static void check_round_trip(const char *path, const cJSON *recs)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    FUZZ_CHECK(f != NULL, "open_memstream failed");
    fputs(HEADER "\n", f);
    for (const cJSON *r = recs->child; r; r = r->next) {
        char *line = cJSON_PrintUnformatted(r);
        FUZZ_CHECK(line != NULL, "a record does not print");
        fprintf(f, "%s\n", line);
        free(line);
    }
    FUZZ_CHECK(fclose(f) == 0, "memory stream");
    put_file(path, text, len);
    free(text);
    struct got back;
    got_init(&back);
    struct err e = { 0, 0, "" };
    FUZZ_CHECK(gjour_scan(path, HEADER, on_record, &back, &e) == 0,
               "the records written again are refused: %d:%d: %s", e.line, e.col, e.msg);
    FUZZ_CHECK(cJSON_Compare(back.recs, recs, 1), "the records written again read back otherwise");
    cJSON_Delete(back.recs);
}

/* AddressSanitizer's quarantine (freed memory held back from reuse, to
 * catch a use after free): 16 MiB, not the default 256. An input here
 * frees far less than that, so a use after free within it is still
 * caught, while the default kept every block new memory, its pages
 * faulted in afresh: 2.1 to 1.2 s of CPU for 6,000 runs (ASAN_OPTIONS still
 * overrides it). */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
    return "quarantine_size_mb=16";
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = journal_path();
    put_file(path, data, size);
    struct got got;
    got_init(&got);
    struct err e = { 0, 0, "" };
    int fd = -2;
    int rc = gjour_open(path, HEADER, 1, on_record, &got, &fd, &e);
    FUZZ_CHECK(rc == 0 || rc == -1, "gjour_open returned %d", rc);
    if (rc != 0) {
        fuzz_check_err(&e, 1, "grade journal");
        FUZZ_CHECK(fd == -1, "refused with descriptor %d", fd);
        FUZZ_CHECK(file_is(path, data, size), "refused (%s), yet the file changed", e.msg);
        cJSON_Delete(got.recs);
        return 0;
    }
    FUZZ_CHECK(fd >= 0, "accepted without a descriptor");
    close(fd);
    size_t complete = size;
    while (complete > 0 && data[complete - 1] != '\n')
        complete--;
    FUZZ_CHECK(file_is(path, data, complete), "resume did not cut the file to its %zu bytes "
               "of complete lines", complete);
    check_lines(data, complete, got.recs);
    FUZZ_CHECK(gjour_rewrite(path, HEADER, keep_all, NULL, NULL, &e) == 0,
               "a rewrite keeping every record failed: %s", e.msg);
    FUZZ_CHECK(file_is(path, data, complete), "a rewrite keeping every record changed the file");
    check_round_trip(path, got.recs);
    cJSON_Delete(got.recs);
    return 0;
}
