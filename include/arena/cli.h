/*
 * cli.h - what every binary's command line shares (DESIGN.md, CLI rules):
 * strict number arguments and the usage-error convention (`prog: message` on
 * stderr, exit status 2).
 */
#ifndef ARENA_CLI_H
#define ARENA_CLI_H

/* Parses all of s as a decimal integer in [lo, hi]. Returns 0 and sets *out,
 * or -1 (empty, trailing characters, out of range). */
int cli_int(const char *s, long lo, long hi, long *out);

/* Parses all of s as a finite decimal number in [lo, hi]. Returns 0 and
 * sets *out, or -1. */
int cli_real(const char *s, double lo, double hi, double *out);

/* Prints "prog: message" and a pointer to --help on stderr; returns
 * EXIT_BAD_INPUT so a main can `return cli_usage(...)`. */
int cli_usage(const char *prog, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
