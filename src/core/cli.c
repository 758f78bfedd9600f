/* cli.c - number arguments, usage errors, --version and the option
 * convention shared by every binary (cli.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "arena/cli.h"
#include "arena/err.h"
#include "arena/escape.h"
#include "arena/version.h"

#define CLI_NAME_MAX 64   /* bytes of an option name compared for a suggestion */

int cli_int(const char *s, long lo, long hi, long *out)
{
    char *end;
    if (!s || !*s)
        return -1;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || *end || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

int cli_range(const char *s, long lo, long hi, long *a, long *b)
{
    char first[32];
    const char *dash = s && *s ? strchr(s + 1, '-') : NULL;
    if (!dash || (size_t)(dash - s) >= sizeof first)
        return -1;
    memcpy(first, s, (size_t)(dash - s));
    first[dash - s] = '\0';
    long x, y;
    if (cli_int(first, lo, hi, &x) != 0 || cli_int(dash + 1, x, hi, &y) != 0)
        return -1;
    *a = x;
    *b = y;
    return 0;
}

int cli_real(const char *s, double lo, double hi, double *out)
{
    char *end;
    if (!s || !*s)
        return -1;
    errno = 0;
    double v = strtod(s, &end);
    /* The comparisons are false for NaN, so it is refused with the rest. */
    if (errno || *end || !(v >= lo && v <= hi))
        return -1;
    *out = v;
    return 0;
}

int cli_usage(const char *prog, const char *fmt, ...)
{
    /* The message quotes arguments: shown escaped (escape.h), as every
     * text on a terminal, so an argument cannot act on it. */
    va_list ap, again;
    va_start(ap, fmt);
    va_copy(again, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *msg = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (msg)
        vsnprintf(msg, (size_t)n + 1, fmt, again);
    va_end(again);
    fprintf(stderr, "%s: ", prog);
    esc_fputs(msg ? msg : fmt, stderr);
    free(msg);
    fprintf(stderr, "\nTry '%s --help' for more information.\n", prog);
    return EXIT_BAD_INPUT;
}

const char *cli_prog(const char *argv0, const char *fallback)
{
    if (!argv0 || !*argv0)
        return fallback;
    const char *slash = strrchr(argv0, '/');
    return slash && slash[1] ? slash + 1 : argv0;
}

int cli_version(const char *prog)
{
    printf("%s (arena) %s\n", prog, ARENA_VERSION);
    return 0;
}

int cli_help(const char *text, const char *prog)
{
    static const char *const none[CLI_HELP_ARGS] = { "", "", "" };
    return cli_help_args(text, prog, none);
}

int cli_help_args(const char *text, const char *prog, const char *const args[CLI_HELP_ARGS])
{
    printf(text, prog, args[0], args[1], args[2]);
    return 0;
}

/* The table entries whose name starts with the len bytes of name: how many,
 * and the first of them in *first. */
static int prefix_matches(const struct option *opts, const char *name, size_t len,
                          const struct option **first)
{
    int n = 0;
    *first = NULL;
    for (const struct option *o = opts; o->name; o++)
        if (strncmp(o->name, name, len) == 0) {
            if (strlen(o->name) == len) {
                *first = o;
                return 1;
            }
            if (!n++)
                *first = o;
        }
    return n;
}

/* The optimal string alignment distance between a (la bytes) and b:
 * insertions, deletions, substitutions and swaps of two neighbours, one
 * each (a swap is the commonest slip: --gmae). */
static int edit_distance(const char *a, size_t la, const char *b)
{
    size_t lb = strlen(b);
    if (la >= CLI_NAME_MAX || lb >= CLI_NAME_MAX)
        return CLI_NAME_MAX;
    int d[CLI_NAME_MAX][CLI_NAME_MAX];
    for (size_t i = 0; i <= la; i++)
        d[i][0] = (int)i;
    for (size_t j = 0; j <= lb; j++)
        d[0][j] = (int)j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            int cost = a[i - 1] != b[j - 1];
            int best = d[i - 1][j - 1] + cost;
            if (d[i - 1][j] + 1 < best)
                best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best)
                best = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    return d[la][lb];
}

/* The option of the table nearest to name (len bytes), when it is near
 * enough to be a slip: at most 2 edits, and fewer than a third of the
 * name's letters plus one, and not a name the option's begins (--games is
 * no slip for --game); NULL otherwise. Ties: the first in the table. */
static const char *nearest_option(const struct option *opts, const char *name, size_t len)
{
    int limit = (int)len / 3 + 1 < 2 ? (int)len / 3 + 1 : 2, best = limit + 1;
    const char *found = NULL;
    for (const struct option *o = opts; o->name; o++) {
        /* --games is not a slip for --game: another command's option. */
        size_t ol = strlen(o->name);
        if (ol < len && strncmp(name, o->name, ol) == 0)
            continue;
        int d = edit_distance(name, len, o->name);
        if (d < best) {
            best = d;
            found = o->name;
        }
    }
    return found;
}

/* The usage error for the word getopt_long refused. */
static int bad_option(const struct cli_parse *p, const char *word)
{
    char where[64] = "";
    if (p->cmd)
        snprintf(where, sizeof where, "%s: ", p->cmd);
    if (strncmp(word, "--", 2) != 0) {
        /* getopt_long stays on a word whose first letter it refused
         * (-engine): that word, else the one before. */
        const char *w = optind < p->argc && p->argv[optind][0] == '-' &&
                                p->argv[optind][1] == optopt && optopt
                            ? p->argv[optind] : word;
        const char *near = w[0] == '-' && w[1] == optopt && optopt && w[2]
                               ? nearest_option(p->opts, w + 1, strcspn(w + 1, "="))
                               : NULL;
        if (near)
            return cli_usage(p->prog, "%sunknown option '%.*s'; did you mean '--%s'?", where,
                             (int)strcspn(w, "="), w, near);
        return cli_usage(p->prog, "%sunknown option '-%c'", where, optopt ? optopt : '?');
    }
    const char *name = word + 2, *eq = strchr(name, '=');
    size_t len = eq ? (size_t)(eq - name) : strlen(name);
    const struct option *o;
    int n = prefix_matches(p->opts, name, len, &o);
    const char *near = n == 0 ? nearest_option(p->opts, name, len) : NULL;
    if (near)
        return cli_usage(p->prog, "%sunknown option '--%.*s'; did you mean '--%s'?", where,
                         (int)len, name, near);
    if (n > 1) {
        char list[256];
        int used = 0;
        for (const struct option *q = p->opts; q->name && used < (int)sizeof list; q++)
            if (strncmp(q->name, name, len) == 0)
                used += snprintf(list + used, sizeof list - (size_t)used, "%s--%s",
                                 used ? ", " : "", q->name);
        return cli_usage(p->prog, "%soption '%.*s' is ambiguous (%s)", where, (int)len + 2, word,
                         list);
    }
    if (n == 1 && eq && o->has_arg == no_argument)
        return cli_usage(p->prog, "%soption '--%s' takes no value", where, o->name);
    return cli_usage(p->prog, "%sunknown option '%s'", where, word);
}

int cli_next(struct cli_parse *p)
{
    if (!p->started) {
        p->started = 1;
        optind = 0;  /* glibc: start afresh, also after another parse */
        opterr = 0;
    }
    /* The seeds' command lines: a word that is not an option ends the
     * options, even one that looks like a negative number. */
    int next = optind ? optind : 1;
    if (p->in_order && next < p->argc) {
        const char *w = p->argv[next];
        if (strncmp(w, "--", 2) != 0 && strcmp(w, "-h") != 0) {
            optind = next;
            return -1;
        }
    }
    int c = getopt_long(p->argc, p->argv, p->in_order ? "+:h" : ":h", p->opts, NULL);
    if (c == ':') {
        const char *word = p->argv[optind - 1];
        char name[64];
        snprintf(name, sizeof name, "%.*s", (int)strcspn(word, "="), word);
        if (p->cmd)
            return cli_usage(p->prog, "%s: option '%s' needs a value", p->cmd, name), CLI_BAD;
        return cli_usage(p->prog, "option '%s' needs a value", name), CLI_BAD;
    }
    if (c == '?')
        return bad_option(p, p->argv[optind - 1]), CLI_BAD;
    if (c == CLI_OPT_HELP && p->help)
        return (p->help_args ? cli_help_args(p->help, p->prog, p->help_args)
                             : cli_help(p->help, p->prog)), CLI_DONE;
    if (c == CLI_OPT_VERSION)
        return cli_version(p->prog), CLI_DONE;
    return c;
}

int cli_stop(int c)
{
    return c == CLI_DONE ? 0 : EXIT_BAD_INPUT;
}
