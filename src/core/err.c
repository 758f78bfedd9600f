/* err.c - filling and printing the suite's one error record (err.h). */
#include <stdarg.h>
#include <stdio.h>
#include "arena/err.h"

int err_set(struct err *e, int line, int col, const char *fmt, ...)
{
    if (e) {
        va_list ap;
        e->line = line;
        e->col = col;
        va_start(ap, fmt);
        vsnprintf(e->msg, sizeof e->msg, fmt, ap);
        va_end(ap);
    }
    return -1;
}

void err_print(FILE *out, const char *file, const struct err *e)
{
    if (e->line > 0)
        fprintf(out, "%s:%d:%d: %s\n", file, e->line, e->col, e->msg);
    else
        fprintf(out, "%s: %s\n", file, e->msg);
}
