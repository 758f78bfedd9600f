/*
 * cli.h - what every binary's command line shares (DESIGN.md, CLI rules):
 * strict number arguments, the usage-error convention (`prog: message` on
 * stderr, exit status 2), --version, and the one option convention.
 *
 * The option convention: every binary, and every subcommand of engine and
 * referee, has its own getopt_long table holding exactly the options it
 * takes, ending with CLI_STD_OPTIONS (--help, --version) and a zero entry.
 * cli_next reads it and answers --help (the command's usage text) and
 * --version itself: `--opt value`, `--opt=value` and any unambiguous
 * abbreviation (`--dep 4`) work as getopt_long promises, and an unknown,
 * ambiguous, valueless or superfluous-valued option is one message,
 * `prog: cmd: ...`, exit status 2; an unknown one near an option of the
 * table (at most two edits: --gmae, -engine) says "did you mean '--game'?".
 *
 * The program's name in messages is the name it was run under (cli_prog):
 * `engine` in the build tree, `arena-engine` once installed.
 */
#ifndef ARENA_CLI_H
#define ARENA_CLI_H

#include <getopt.h>

/* Parses all of s as a decimal integer in [lo, hi]. Returns 0 and sets *out,
 * or -1 (empty, trailing characters, out of range). */
int cli_int(const char *s, long lo, long hi, long *out);

/* Parses all of s as "A-B", decimal integers with lo <= A <= B <= hi.
 * Returns 0 and sets *a and *b, or -1. */
int cli_range(const char *s, long lo, long hi, long *a, long *b);

/* Parses all of s as a finite decimal number in [lo, hi]. Returns 0 and
 * sets *out, or -1. */
int cli_real(const char *s, double lo, double hi, double *out);

/* Prints "prog: message" and a pointer to --help on stderr; returns
 * EXIT_BAD_INPUT so a main can `return cli_usage(...)`. */
int cli_usage(const char *prog, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The name a binary was run under: the last component of argv0 (a pointer
 * into it), or fallback when argv0 is NULL or empty. */
const char *cli_prog(const char *argv0, const char *fallback);

/* Prints "prog (arena) VERSION" on stdout (ARENA_VERSION, version.h);
 * returns 0 so a main can `return cli_version(prog)`. */
int cli_version(const char *prog);

/* Prints a usage text with every "%1$s" in it replaced by prog (printf's
 * numbered argument); returns 0. */
int cli_help(const char *text, const char *prog);
/* Most lists a usage text may take besides prog. */
#define CLI_HELP_ARGS 3
/* cli_help for a text that also has %2$s, %3$s and %4$s, lists made at run
 * time (the registry's games): args[0] to args[2]. */
int cli_help_args(const char *text, const char *prog, const char *const args[CLI_HELP_ARGS]);

/* A numeric constant as a string literal, for usage texts that state a
 * default: CLI_STR(ENGINE_DEFAULT_DEPTH) is "6". */
#define CLI_STR(x) CLI_STR_(x)
#define CLI_STR_(x) #x

#define CLI_OPT_HELP 'h'
#define CLI_OPT_VERSION 'V'
#define CLI_STD_OPTIONS                                   \
    { "help", no_argument, NULL, CLI_OPT_HELP },          \
    { "version", no_argument, NULL, CLI_OPT_VERSION },    \
    { NULL, 0, NULL, 0 }

/* cli_next's answers after it has printed a usage error, and after it has
 * printed the usage text or the version (the command exits 0). */
#define CLI_BAD (-2)
#define CLI_DONE (-3)

/* One command line being read. argv[0] is the command's own word (the
 * program, or the subcommand after it); options start at argv[1]. */
struct cli_parse {
    const char *prog;            /* the program's name, for messages */
    const char *cmd;             /* the subcommand ("solve"), or NULL */
    const struct option *opts;   /* the command's table, ending CLI_STD_OPTIONS */
    const char *help;            /* the usage text --help prints (cli_help); NULL:
                                    cli_next returns CLI_OPT_HELP to the caller */
    const char *const *help_args;  /* the text's %2$s to %4$s (cli_help_args);
                                      NULL: it has none */
    int in_order;                /* 1: options stop at the first word that is not
                                    one (the seeds' exact positional lines) */
    int argc;
    char **argv;
    int started;                 /* set by cli_next */
};

/* The next option of p: its table value (optarg set as getopt_long sets
 * it), -1 when the options end (the arguments are p->argv[optind..]),
 * CLI_DONE after printing the usage text or the version, or CLI_BAD after
 * printing the usage error. Uses getopt_long's globals: one parse at a
 * time. */
int cli_next(struct cli_parse *p);
/* The exit status after cli_next answered CLI_DONE (0) or CLI_BAD
 * (EXIT_BAD_INPUT). */
int cli_stop(int c);

#endif
