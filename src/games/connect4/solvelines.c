/* solvelines.c - `engine solve`: move strings in, scores out (c4solver.h). */
#include <stdlib.h>
#include <string.h>
#include "arena/c4solver.h"
#include "arena/clock.h"
#include "arena/err.h"
#include "arena/textfile.h"

/* A move string of a full board, a space and a score fit with room left;
 * anything longer is not a position. */
#define LINE_MAX_BYTES 128
#define NS_PER_US 1000

static int sign(int v)
{
    return (v > 0) - (v < 0);
}

/* Parses the optional expected score after the moves; returns 0 (with
 * *has set when there is one) or the 1-based column of the bad text. */
static int parse_expected(const char *line, size_t at, int *has, int *expected)
{
    const char *p = line + at;
    *has = 0;
    while (*p == ' ' || *p == '\t')
        p++;
    if (!*p)
        return 0;
    char *end;
    long v = strtol(p, &end, 10);
    if (end == p || *end || v < -C4S_SCORE_MAX || v > C4S_SCORE_MAX)
        return (int)(p - line) + 1;
    *has = 1;
    *expected = (int)v;
    return 0;
}

int c4s_solve_lines(struct c4s *s, FILE *in, const char *name, int weak, FILE *out, FILE *diag)
{
    char buf[LINE_MAX_BYTES + 1];
    int status = 0, lineno = 0;
    enum tf_getline_result r;
    while ((r = tf_getline(in, buf, LINE_MAX_BYTES)) != TF_LINE_EOF) {
        lineno++;
        if (r == TF_LINE_FAILED) {
            fprintf(diag, "%s: read error\n", name);
            return EXIT_BAD_INPUT;
        }
        struct err e = { 0 };
        size_t len = strlen(buf);
        while (len && (buf[len - 1] == '\r' || buf[len - 1] == ' ' || buf[len - 1] == '\t'))
            buf[--len] = '\0';
        size_t mlen = strcspn(buf, " \t");
        struct c4_pos p;
        const char *why;
        int has = 0, expected = 0, col;
        if (r == TF_LINE_TOO_LONG)
            err_set(&e, lineno, LINE_MAX_BYTES + 1, "line longer than %d bytes", LINE_MAX_BYTES);
        else if ((col = c4s_parse_moves(buf, mlen, &p, &why)) != 0)
            err_set(&e, lineno, col, "%s", why);
        else if ((col = parse_expected(buf, mlen, &has, &expected)) != 0)
            err_set(&e, lineno, col, "expected score must be a number from %d to %d",
                    -C4S_SCORE_MAX, C4S_SCORE_MAX);
        if (e.line) {
            err_print(diag, name, &e);
            status = EXIT_BAD_INPUT;
            continue;
        }
        uint64_t t0 = clock_cpu_ns();
        int score = c4s_solve(s, &p, weak);
        uint64_t us = (clock_cpu_ns() - t0) / NS_PER_US;
        if (score == C4S_UNKNOWN) {
            fprintf(diag, "%s:%d: budget ran out\n", name, lineno);
            status = EXIT_BAD_INPUT;
            continue;
        }
        fprintf(out, "%.*s %d %llu %llu\n", (int)mlen, buf, score,
                (unsigned long long)s->nodes, (unsigned long long)us);
        if (has && (weak ? sign(expected) != score : expected != score)) {
            fprintf(diag, "%s:%d: expected score %d, solved %d\n", name, lineno, expected, score);
            if (status == 0)
                status = 1;
        }
    }
    fflush(out);
    return status;
}
