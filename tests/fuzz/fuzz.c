/*
 * fuzz.c - the helpers every fuzz target links (fuzz.h). Any failure to get
 * memory or a stream is a broken run, not a finding about the input, but it
 * is still reported loudly instead of being skipped.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "arena/textfile.h"
#include "fuzz.h"

#define TMP_PREFIX "arena-fuzz-"   /* then the owning process id */

static char tmp_dir[PATH_MAX];     /* this process's folder, once made */

void fuzz_fail(const char *file, int line, const char *cond, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "\n%s:%d: property broken: %s\n  ", file, line, cond);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    abort();
}

void fuzz_check_err(const struct err *e, int placed, const char *what)
{
    FUZZ_CHECK(e->msg[0] != '\0', "%s: rejected without a message", what);
    FUZZ_CHECK(memchr(e->msg, '\0', sizeof e->msg) != NULL, "%s: message not terminated", what);
    if (placed)
        FUZZ_CHECK(e->line >= 1 && e->col >= 1, "%s: rejected at %d:%d (%s), not a place", what,
                   e->line, e->col, e->msg);
}

char *fuzz_text(const uint8_t *data, size_t size)
{
    char *t = malloc(size + 1);
    FUZZ_CHECK(t != NULL, "out of memory for %zu bytes", size);
    if (size)
        memcpy(t, data, size);
    t[size] = '\0';
    return t;
}

FILE *fuzz_input(const uint8_t *data, size_t size, char **copy)
{
    *copy = fuzz_text(data, size);
    /* Mode "r": the stream ends at size, NUL bytes are data. */
    FILE *f = fmemopen(*copy, size, "r");
    FUZZ_CHECK(f != NULL, "fmemopen failed");
    return f;
}

void fuzz_out_open(struct fuzz_out *o)
{
    o->buf = NULL;
    o->len = 0;
    o->f = open_memstream(&o->buf, &o->len);
    FUZZ_CHECK(o->f != NULL, "open_memstream failed");
}

void fuzz_out_close(struct fuzz_out *o)
{
    FUZZ_CHECK(fclose(o->f) == 0, "closing the memory stream failed");
    o->f = NULL;
}

void fuzz_out_free(struct fuzz_out *o)
{
    if (o->f)
        fclose(o->f);
    free(o->buf);
    o->buf = NULL;
    o->f = NULL;
}

static void remove_tmp_dir(void)
{
    tf_remove_tree(tmp_dir);
}

/* Removes the folders under base of fuzzer processes that no longer run. */
static void sweep(const char *base)
{
    DIR *d = opendir(base);
    if (!d)
        return;
    for (struct dirent *de; (de = readdir(d));) {
        if (strncmp(de->d_name, TMP_PREFIX, strlen(TMP_PREFIX)) != 0)
            continue;
        char *end;
        long pid = strtol(de->d_name + strlen(TMP_PREFIX), &end, 10);
        if (*end || pid <= 0)
            continue;
        /* Gone (ESRCH), or a folder an earlier process with our id left;
         * EPERM means alive under another user. */
        int gone = pid == (long)getpid() || (kill((pid_t)pid, 0) != 0 && errno == ESRCH);
        if (!gone)
            continue;
        char path[PATH_MAX];
        snprintf(path, sizeof path, "%s/%s", base, de->d_name);
        tf_remove_tree(path);
    }
    closedir(d);
}

const char *fuzz_find(const char *p, const char *end, const char *what)
{
    size_t n = strlen(what);
    while (p < end && (size_t)(end - p) >= n) {
        p = memchr(p, what[0], (size_t)(end - p) - n + 1);
        if (!p)
            return NULL;
        if (memcmp(p, what, n) == 0)
            return p;
        p++;
    }
    return NULL;
}

const char *fuzz_tmpdir(void)
{
    if (tmp_dir[0])
        return tmp_dir;
    const char *base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    sweep(base);
    snprintf(tmp_dir, sizeof tmp_dir, "%s/" TMP_PREFIX "%ld", base, (long)getpid());
    FUZZ_CHECK(mkdir(tmp_dir, 0700) == 0, "cannot make %s: %s", tmp_dir, strerror(errno));
    atexit(remove_tmp_dir);
    return tmp_dir;
}
