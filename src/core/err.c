/* err.c - filling and printing the suite's one error record (err.h). */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include "arena/err.h"
#include "arena/escape.h"

int err_set(struct err *e, int line, int col, const char *fmt, ...)
{
    if (e) {
        /* Kept: a caller may tell causes apart by errno after the message. */
        int saved = errno;
        va_list ap;
        e->line = line;
        e->col = col;
        va_start(ap, fmt);
        vsnprintf(e->msg, sizeof e->msg, fmt, ap);
        va_end(ap);
        errno = saved;
    }
    return -1;
}

int err_bad_char(struct err *e, int line, int col, char ch, const char *expected)
{
    if (isprint((unsigned char)ch))
        return err_set(e, line, col, "unexpected character '%c', expected %s", ch, expected);
    return err_set(e, line, col, "unexpected byte 0x%02X, expected %s", (unsigned char)ch,
                   expected);
}

/* The file and message may hold what an engine or a file said: escaped
 * (escape.h), as every text shown on a terminal. */
void err_print(FILE *out, const char *file, const struct err *e)
{
    esc_fputs(file, out);
    if (e->line > 0)
        fprintf(out, ":%d:%d", e->line, e->col);
    fputs(": ", out);
    esc_fputs(e->msg, out);
    fputc('\n', out);
}
