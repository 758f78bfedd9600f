/*
 * test_e2e_quickstart.c - the README's quick start, run as the README shows
 * it, so that the front door cannot silently go out of date. Every `$ bin/...`
 * command of the ```console blocks in its "Quick start" section runs in one
 * fresh folder (so its log lands there; the relative paths of repository
 * files, the Python engines under docs/quickstart/, are made absolute, which
 * the referee does itself for a program path), and its stdout must be the
 * lines the README prints under it; its exit status is 0, or what a `$ echo $?`
 * right after it shows. The report's CPU times per move and the
 * referee's overhead differ from run to run: on those lines every number
 * with a decimal point counts as '#' and runs of blanks as one; every other
 * byte must match. The README stays a front door: at most README_MAX_LINES
 * lines, what arena is, the two commands, the quick start, and a link to
 * every page of docs/.
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "e2e_util.h"

#define README "README.md"
#define SECTION "\n## Quick start"
#define FENCE_OPEN "```console"
#define FENCE_CLOSE "```"
#define PROMPT "$ "
#define BIN_PREFIX "bin/"
#define ECHO_STATUS "echo $?"    /* the status of the command before, which it shows */
#define QS_MAX_WORDS 31          /* e2e_runv takes at most 32 arguments */
#define QS_MAX_COMMANDS 8
#define QS_TEXT_MAX 8192          /* a command or its expected output */
#define CPU_TABLE "CPU time per move"
#define OVERHEAD_LINE "Referee overhead per move"
/* The README's length: what arena is, the two commands, the five-minute
 * quick start and where each page is fit in this; the rest is in docs/. */
#define README_MAX_LINES 250

struct qs_command {
    char line[QS_TEXT_MAX];       /* the command, continuation lines joined */
    char expected[QS_TEXT_MAX];   /* the lines the README prints under it */
};

/* The README's quick-start section (from its heading to the next one), in
 * place: a pointer into text, which it cuts at the next heading. */
static char *quickstart_section(char *text)
{
    char *start = strstr(text, SECTION);
    cr_assert_not_null(start, "%s has no '%s' section", README, SECTION + 1);
    char *end = strstr(start + 1, "\n## ");
    if (end)
        end[1] = '\0';
    return start;
}

static void append(char *buf, const char *text, size_t len)
{
    size_t have = strlen(buf);
    cr_assert_lt(have + len, (size_t)QS_TEXT_MAX, "quick start text over %d bytes", QS_TEXT_MAX);
    memcpy(buf + have, text, len);
    buf[have + len] = '\0';
}

/* The commands of the section's console blocks with their outputs; returns
 * how many. */
static int parse_commands(const char *section, struct qs_command *cmds)
{
    int n = 0, in_console = 0, continued = 0;
    for (const char *p = section, *nl; *p; p = nl ? nl + 1 : p + strlen(p)) {
        nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        const char *line = p;
        if (!in_console) {
            in_console = len == strlen(FENCE_OPEN) && strncmp(line, FENCE_OPEN, len) == 0;
            continue;
        }
        if (len == strlen(FENCE_CLOSE) && strncmp(line, FENCE_CLOSE, len) == 0) {
            in_console = 0;
            continue;
        }
        if (continued) {              /* the rest of a command cut with '\' */
            while (len > 0 && *line == ' ')
                line++, len--;
            append(cmds[n - 1].line, " ", 1);
        } else if (strncmp(line, PROMPT, strlen(PROMPT)) == 0) {
            cr_assert_lt(n, QS_MAX_COMMANDS, "more than %d commands", QS_MAX_COMMANDS);
            memset(&cmds[n++], 0, sizeof *cmds);
            line += strlen(PROMPT);
            len -= strlen(PROMPT);
        } else {
            cr_assert_gt(n, 0, "output before any command: '%.*s'", (int)len, line);
            append(cmds[n - 1].expected, line, len);
            append(cmds[n - 1].expected, "\n", 1);
            continue;
        }
        continued = len >= 2 && strncmp(line + len - 2, " \\", 2) == 0;
        append(cmds[n - 1].line, line, continued ? len - 2 : len);
    }
    return n;
}

/* Writes line (len bytes) to out with the timing mask: blank runs as one
 * blank, each number holding a '.' as '#'. */
static void mask_line(const char *line, size_t len, char *out, size_t *o)
{
    for (size_t i = 0; i < len;) {
        if (line[i] == ' ') {
            while (i < len && line[i] == ' ')
                i++;
            out[(*o)++] = ' ';
        } else if (line[i] >= '0' && line[i] <= '9') {
            size_t j = i, dot = 0;
            while (j < len && ((line[j] >= '0' && line[j] <= '9') || line[j] == '.'))
                dot |= line[j++] == '.';
            if (dot)
                out[(*o)++] = '#';
            else
                for (size_t k = i; k < j; k++)
                    out[(*o)++] = line[k];
            i = j;
        } else {
            out[(*o)++] = line[i++];
        }
    }
}

/* text with the timing lines masked (the report's CPU table, up to its blank
 * line, and the overhead line), the others as they are. Caller frees. */
static char *mask_timings(const char *text)
{
    char *out = malloc(strlen(text) + 1);
    cr_assert_not_null(out);
    size_t o = 0;
    int in_table = 0;
    for (const char *p = text; *p;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        in_table = (in_table && len > 0) || strncmp(p, CPU_TABLE, strlen(CPU_TABLE)) == 0;
        if (in_table || strncmp(p, OVERHEAD_LINE, strlen(OVERHEAD_LINE)) == 0)
            mask_line(p, len, out, &o);
        else
            for (size_t k = 0; k < len; k++)
                out[o++] = p[k];
        if (nl)
            out[o++] = '\n';
        p += len + (nl != NULL);
    }
    out[o] = '\0';
    return out;
}

/* Runs cmd in dir and asserts its stdout is what the README shows, and its
 * status 0 or what next shows when next is `echo $?`. */
static void run_and_compare(const struct qs_command *cmd, const struct qs_command *next,
                            const char *dir)
{
    char words[QS_TEXT_MAX], paths[QS_MAX_WORDS][PATH_MAX];
    const char *args[QS_MAX_WORDS + 1];
    int argc = 0;
    snprintf(words, sizeof words, "%s", cmd->line);
    cr_assert_null(strpbrk(words, "'\"`$|;&<>"), "the test splits words on blanks only: '%s'",
                   cmd->line);
    char *prog = strtok(words, " ");
    cr_assert(prog && strncmp(prog, BIN_PREFIX, strlen(BIN_PREFIX)) == 0,
              "a quick-start command must run a binary of bin/: '%s'", cmd->line);
    for (char *w = strtok(NULL, " "); w; w = strtok(NULL, " ")) {
        cr_assert_lt(argc, QS_MAX_WORDS, "too many words: '%s'", cmd->line);
        if (strchr(w, '/') && e2e_exists(w)) {
            e2e_repo_path(w, paths[argc], sizeof paths[argc]);
            w = paths[argc];
        }
        args[argc++] = w;
    }
    args[argc] = NULL;
    struct e2e_run r;
    e2e_runv(&r, dir, NULL, prog + strlen(BIN_PREFIX), args);
    char status[16];
    snprintf(status, sizeof status, "%d\n", r.status);
    cr_assert_str_eq(status, next && strcmp(next->line, ECHO_STATUS) == 0 ? next->expected : "0\n",
                     "'%s': exit %d: %s", cmd->line, r.status, r.err);
    cr_assert_eq(r.err_len, 0, "'%s': stderr: %s", cmd->line, r.err);
    char *got = mask_timings(r.out), *want = mask_timings(cmd->expected);
    cr_assert_str_eq(got, want, "'%s' printed (timings as #):\n%s\nthe README shows:\n%s",
                     cmd->line, got, want);
    free(got);
    free(want);
    e2e_run_free(&r);
}

Test(e2e_quickstart, readme_commands_print_what_the_readme_shows)
{
    char *readme = e2e_slurp(README, NULL);
    cr_assert_not_null(readme, "no %s (run the tests from the repository root)", README);
    static struct qs_command cmds[QS_MAX_COMMANDS];
    int n = parse_commands(quickstart_section(readme), cmds);
    cr_assert_geq(n, 2, "the quick start shows %d commands, expected a match and a report", n);
    cr_assert_not_null(strstr(cmds[0].line, "referee match"), "first command: '%s'",
                       cmds[0].line);
    char *dir = e2e_tmpdir();
    for (int i = 0; i < n; i++)
        if (strcmp(cmds[i].line, ECHO_STATUS) != 0)   /* checked with the command before */
            run_and_compare(&cmds[i], i + 1 < n ? &cmds[i + 1] : NULL, dir);
    e2e_rmdir(dir);
    free(readme);
}

Test(e2e_quickstart, timing_mask_hides_only_the_timings)
{
    char *masked = mask_timings("Elo difference: 338.0 +/- inf\n"
                                "CPU time per move (ms)\n"
                                "greedy          80     83.27     83.25\n"
                                "\n"
                                "Referee overhead per move (ms): median 0.537, p95 0.950\n"
                                "Forfeits: 1.5\n");
    cr_assert_str_eq(masked, "Elo difference: 338.0 +/- inf\n"
                             "CPU time per move (ms)\n"
                             "greedy 80 # #\n"
                             "\n"
                             "Referee overhead per move (ms): median #, p95 #\n"
                             "Forfeits: 1.5\n");
    free(masked);
}

/* The README is a front door: short, the two commands as they are, the
 * quick start, and every page of docs/ named where it can be found. */
Test(e2e_quickstart, the_readme_is_a_front_door_to_every_page)
{
    char *readme = e2e_slurp(README, NULL);
    cr_assert_not_null(readme, "no %s (run the tests from the repository root)", README);
    int lines = 0;
    for (const char *p = readme; *p; p++)
        lines += *p == '\n';
    cr_expect_leq(lines, README_MAX_LINES, "%s has %d lines, more than %d", README, lines,
                  README_MAX_LINES);
    static const char *const parts[] = {
        "\n## The two commands\n",
        "make demo   # builds everything and runs a Max-Connect4 round-robin tournament\n",
        "make test   # installs what is missing, builds, runs every test suite\n",
        SECTION, "\n## Documentation\n",
    };
    for (size_t i = 0; i < sizeof parts / sizeof *parts; i++)
        cr_expect_not_null(strstr(readme, parts[i]), "%s lacks '%s'", README, parts[i]);
    DIR *d = opendir("docs");
    cr_assert_not_null(d, "no docs/ folder");
    int pages = 0;
    for (struct dirent *e; (e = readdir(d));) {
        size_t n = strlen(e->d_name);
        if (n < 4 || strcmp(e->d_name + n - 3, ".md") != 0)
            continue;
        char link[NAME_MAX + 16];
        snprintf(link, sizeof link, "](docs/%s)", e->d_name);
        cr_expect_not_null(strstr(readme, link), "%s does not link docs/%s", README, e->d_name);
        pages++;
    }
    closedir(d);
    cr_expect_geq(pages, 10, "only %d pages in docs/", pages);
    free(readme);
}
