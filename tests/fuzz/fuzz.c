/*
 * fuzz.c - the helpers every fuzz target links (fuzz.h). Any failure to get
 * memory or a stream is a broken run, not a finding about the input, but it
 * is still reported loudly instead of being skipped.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fuzz.h"

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
