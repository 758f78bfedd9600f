/*
 * gradejournal.c - a grade's journal read and opened for appending
 * (gradejournal.h).
 */
#define _GNU_SOURCE
#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include "arena/gradejournal.h"
#include "arena/limits.h"
#include "arena/textfile.h"

/* Calls fn on each complete line of text after the header; *complete gets
 * the bytes of the header and complete records. */
static int scan_text(const char *path, char *text, size_t len, const char *header, gjour_fn fn,
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
        cJSON *rec = cJSON_Parse(p);
        rc = rec ? fn(ctx, rec, line, e) : err_set(e, line, 1, "%s: not a JSON record", path);
        cJSON_Delete(rec);
        p = nl + 1;
        line++;
    }
    *complete = (size_t)(p - text);
    return rc;
}

static int read_all(const char *path, char **text, size_t *len, struct err *e)
{
    if (tf_read(path, JOURNAL_READ_CAP, text, len, e) == 0)
        return 0;
    char msg[ERR_MSG_MAX];
    snprintf(msg, sizeof msg, "%s", e->msg);
    return err_set(e, 0, 0, "%s: %s", path, msg);
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
