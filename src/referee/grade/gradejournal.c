/*
 * gradejournal.c - a grade's journal read, opened for appending, and
 * rewritten without a regrade's records (gradejournal.h).
 */
#define _GNU_SOURCE
#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include "gradejournal.h"
#include "arena/journal.h"
#include "arena/limits.h"
#include "arena/textfile.h"

/* e's message prefixed with the file's path: -1. */
static int in_file(const char *path, struct err *e)
{
    char msg[ERR_MSG_MAX];
    snprintf(msg, sizeof msg, "%s", e->msg);
    return err_set(e, e->line, e->col, "%s: %s", path, msg);
}

/* A complete record: its line as written (NUL-terminated in place of its
 * newline) and parsed. */
typedef int (*line_fn)(void *ctx, const char *raw, const cJSON *rec, int line, struct err *e);

/* Calls fn on each complete line of text after the header; *complete gets
 * the bytes of the header and complete records. */
static int scan_lines(const char *path, char *text, size_t len, const char *header, line_fn fn,
                      void *ctx, size_t *complete, struct err *e)
{
    char *nl = memchr(text, '\n', len);
    size_t hlen = strlen(header);
    if (!nl || (size_t)(nl - text) != hlen || memcmp(text, header, hlen) != 0)
        return err_set(e, 1, 1, "%s: not the journal of this rubric and seed (its first line "
                       "is not %.60s...)", path, header);
    int rc = 0, line = 2;
    char *p = nl + 1;
    while (!rc && (nl = memchr(p, '\n', len - (size_t)(p - text)))) {
        *nl = '\0';
        cJSON *rec = journal_line(p, (size_t)(nl - p), line, e);
        rc = rec ? fn(ctx, p, rec, line, e) : in_file(path, e);
        cJSON_Delete(rec);
        p = nl + 1;
        line++;
    }
    *complete = (size_t)(p - text);
    return rc;
}

/* A gjour_fn called from scan_lines. */
struct each_record {
    gjour_fn fn;
    void *ctx;
};

static int record_of_line(void *ctx, const char *raw, const cJSON *rec, int line, struct err *e)
{
    (void)raw;
    const struct each_record *each = ctx;
    return each->fn(each->ctx, rec, line, e);
}

static int scan_text(const char *path, char *text, size_t len, const char *header, gjour_fn fn,
                     void *ctx, size_t *complete, struct err *e)
{
    struct each_record each = { fn, ctx };
    return scan_lines(path, text, len, header, record_of_line, &each, complete, e);
}

static int read_all(const char *path, char **text, size_t *len, struct err *e)
{
    if (tf_read(path, JOURNAL_READ_CAP, text, len, e) == 0)
        return 0;
    e->line = e->col = 0;
    return in_file(path, e);
}

int gjour_scan(const char *path, const char *header, gjour_fn fn, void *ctx, struct err *e)
{
    char *text;
    size_t len, complete;
    if (read_all(path, &text, &len, e) != 0)
        return -1;
    int rc = scan_text(path, text, len, header, fn, ctx, &complete, e);
    free(text);
    return rc;
}

static int lock(int fd, const char *path, struct err *e)
{
    if (flock(fd, LOCK_EX | LOCK_NB) == 0)
        return 0;
    return errno == EWOULDBLOCK ? err_set(e, 0, 0, "%s: in use by another referee", path)
                                : err_set(e, 0, 0, "%s: cannot lock: %s", path, strerror(errno));
}

/* The existing journal, resumed. */
static int resume_at(const char *path, const char *header, gjour_fn fn, void *ctx, int *fd,
                     struct err *e)
{
    *fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
    if (*fd < 0)
        return err_set(e, 0, 0, "%s: cannot open: %s", path, strerror(errno));
    char *text = NULL;
    size_t len, complete = 0;
    int rc = lock(*fd, path, e) || read_all(path, &text, &len, e) ||
             scan_text(path, text, len, header, fn, ctx, &complete, e);
    free(text);
    /* A last line cut short by a crash: its check is graded again. */
    if (!rc && complete < len && ftruncate(*fd, (off_t)complete) != 0)
        rc = err_set(e, 0, 0, "%s: cannot truncate: %s", path, strerror(errno));
    if (rc) {
        close(*fd);
        *fd = -1;
        return -1;
    }
    return 0;
}

int gjour_open(const char *path, const char *header, int resume, gjour_fn fn, void *ctx,
               int *fd, struct err *e)
{
    struct stat st;
    if (resume && stat(path, &st) == 0)
        return resume_at(path, header, fn, ctx, fd, e);
    *fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (*fd < 0)
        return errno == EEXIST
                   ? err_set(e, 0, 0, "%s: the journal exists: add --resume to finish its "
                                      "grading, or name another --out", path)
                   : err_set(e, 0, 0, "%s: cannot create: %s", path, strerror(errno));
    size_t n = strlen(header);
    char *line = malloc(n + 2);
    int rc = !line ? err_set(e, 0, 0, "out of memory") : lock(*fd, path, e);
    if (!rc) {
        memcpy(line, header, n);
        line[n] = '\n';
        rc = tf_write_all(*fd, line, n + 1) != 0 || fsync(*fd) != 0
                 ? err_set(e, 0, 0, "%s: cannot write: %s", path, strerror(errno)) : 0;
    }
    free(line);
    if (rc) {
        close(*fd);
        *fd = -1;
        unlink(path);
    }
    return rc;
}

/* What a rewrite keeps: the header, then the lines keep wants. */
struct kept {
    gjour_keep_fn keep;
    void *ctx;
    FILE *to;
};

static int keep_line(void *ctx, const char *raw, const cJSON *rec, int line, struct err *e)
{
    (void)line;
    (void)e;
    struct kept *k = ctx;
    if (k->keep(k->ctx, rec))
        fprintf(k->to, "%s\n", raw);
    return 0;
}

/* The text of path without the records keep drops (malloc'd, *len bytes). */
static char *kept_text(const char *path, char *text, size_t len, const char *header,
                       gjour_keep_fn keep, void *ctx, size_t *out_len, struct err *e)
{
    char *out = NULL;
    struct kept k = { keep, ctx, open_memstream(&out, out_len) };
    if (!k.to)
        return err_set(e, 0, 0, "out of memory"), NULL;
    fprintf(k.to, "%s\n", header);
    size_t complete;
    int rc = scan_lines(path, text, len, header, keep_line, &k, &complete, e);
    if (fclose(k.to) != 0 && !rc)
        rc = err_set(e, 0, 0, "out of memory");
    if (rc) {
        free(out);
        return NULL;
    }
    return out;
}

int gjour_rewrite(const char *path, const char *header, gjour_keep_fn keep, void *ctx, int *fd,
                  struct err *e)
{
    int old = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
    if (old < 0)
        return err_set(e, 0, 0, "%s: cannot open: %s", path, strerror(errno));
    char *text = NULL, *out = NULL;
    size_t len, out_len = 0;
    int rc = lock(old, path, e) || read_all(path, &text, &len, e) ||
             !(out = kept_text(path, text, len, header, keep, ctx, &out_len, e));
    int nfd = -1;
    if (!rc && tf_write_atomic_locked(path, out, out_len, &nfd, e) != 0) {
        char msg[ERR_MSG_MAX];
        snprintf(msg, sizeof msg, "%s", e->msg);
        rc = err_set(e, 0, 0, "%s: %s", path, msg);
    }
    if (!rc && fd) {
        fcntl(nfd, F_SETFL, O_APPEND);   /* as gjour_open's: appends only */
        *fd = nfd;
    } else if (!rc) {
        close(nfd);
    }
    close(old);   /* its lock: the new file's is held from before the rename */
    free(text);
    free(out);
    return rc ? -1 : 0;
}
