/*
 * err.h - the one error record of the suite.
 *
 * Every function that can reject input fills a struct err instead of printing:
 * the caller decides where the message goes and adds the file name, so that a
 * reader can be used by the CLI, the referee and the tests alike. Line and
 * column are 1-based; 0 means "not tied to a place in the file" (for example
 * "cannot open"), and err_print then leaves them out.
 */
#ifndef ARENA_ERR_H
#define ARENA_ERR_H

#include <stdio.h>

#define ERR_MSG_MAX 256

/* Exit status of every binary for bad input or bad usage (DESIGN.md). */
#define EXIT_BAD_INPUT 2

struct err {
    int line;               /* 1-based, 0 when the error has no place */
    int col;                /* 1-based, 0 when the error has no place */
    char msg[ERR_MSG_MAX];  /* what is wrong, no trailing newline */
};

/* Fills e (when e is not NULL) and returns -1, so callers can write
 * `return err_set(e, line, col, "...")`; errno is left as it was. */
int err_set(struct err *e, int line, int col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* err_set for an unexpected character: "unexpected character 'c', expected
 * <expected>", or its byte value when ch is not printable. Returns -1. */
int err_bad_char(struct err *e, int line, int col, char ch, const char *expected);

/* Prints "file:line:col: msg\n" (or "file: msg\n" when line is 0). */
void err_print(FILE *out, const char *file, const struct err *e);

#endif
