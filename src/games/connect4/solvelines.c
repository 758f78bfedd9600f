/* solvelines.c - the line format of `engine solve` and of opening books
 * ("MOVES [SCORE]"), and `engine solve` itself: move strings in, scores out
 * (c4solver.h). */
#include <stdlib.h>
#include <string.h>
#include "arena/c4solver.h"
#include "arena/clock.h"
#include "arena/err.h"
#include "arena/textfile.h"

#define NS_PER_US 1000

static int sign(int v)
{
    return (v > 0) - (v < 0);
}

/* Parses the optional score after the moves; returns 0 (with *has set and
 * *col its column when there is one) or the 1-based column of the bad text. */
static int parse_expected(const char *line, size_t at, int *has, int *expected, int *col)
{
    const char *p = line + at;
    *has = 0;
    while (*p == ' ' || *p == '\t')
        p++;
    if (!*p)
        return 0;
    *col = (int)(p - line) + 1;
    char *end;
    long v = strtol(p, &end, 10);
    if (end == p || *end || v < -C4S_SCORE_MAX || v > C4S_SCORE_MAX)
        return (int)(p - line) + 1;
    *has = 1;
    *expected = (int)v;
    return 0;
}

int c4s_parse_line(char *buf, enum tf_getline_result r, int lineno, struct c4s_line *out,
                   struct err *e)
{
    /* A move string of a full board, a space and a score fit in
     * C4S_LINE_MAX with room left; anything longer is not a position. */
    if (r == TF_LINE_TOO_LONG)
        return err_set(e, lineno, C4S_LINE_MAX + 1, "line longer than %d bytes", C4S_LINE_MAX);
    size_t len = strlen(buf);
    while (len && (buf[len - 1] == '\r' || buf[len - 1] == ' ' || buf[len - 1] == '\t'))
        buf[--len] = '\0';
    out->moves_len = strcspn(buf, " \t");
    const char *why;
    int col = c4s_parse_moves(buf, out->moves_len, &out->pos, &why);
    if (col != 0)
        return err_set(e, lineno, col, "%s", why);
    if ((col = parse_expected(buf, out->moves_len, &out->has_score, &out->score,
                              &out->score_col)) != 0)
        return err_set(e, lineno, col, "score must be a number from %d to %d", -C4S_SCORE_MAX,
                       C4S_SCORE_MAX);
    return 0;
}

int c4s_solve_lines(struct c4s *s, FILE *in, const char *name, int weak, FILE *out, FILE *diag)
{
    char buf[C4S_LINE_MAX + 1];
    int status = 0, lineno = 0;
    enum tf_getline_result r;
    while ((r = tf_getline(in, buf, C4S_LINE_MAX)) != TF_LINE_EOF) {
        lineno++;
        if (r == TF_LINE_FAILED) {
            fprintf(diag, "%s: read error\n", name);
            return EXIT_BAD_INPUT;
        }
        struct err e = { 0 };
        struct c4s_line l;
        if (c4s_parse_line(buf, r, lineno, &l, &e) != 0) {
            err_print(diag, name, &e);
            status = EXIT_BAD_INPUT;
            continue;
        }
        /* Wall time, as the anchor's benchmark reads: the CPU clock is a
         * system call (about 1.4 us on this VM, most of an End-Easy solve),
         * the monotonic clock is read in user space. A solve does no I/O,
         * so on an idle core the two agree. */
        uint64_t t0 = clock_wall_ns();
        int score = c4s_solve(s, &l.pos, weak);
        double us = (double)(clock_wall_ns() - t0) / NS_PER_US;
        if (score == C4S_UNKNOWN) {
            fprintf(diag, "%s:%d: budget ran out\n", name, lineno);
            status = EXIT_BAD_INPUT;
            continue;
        }
        fprintf(out, "%.*s %d %llu %.2f\n", (int)l.moves_len, buf, score,
                (unsigned long long)s->nodes, us);
        if (l.has_score && (weak ? sign(l.score) != score : l.score != score)) {
            fprintf(diag, "%s:%d: expected score %d, solved %d\n", name, lineno, l.score, score);
            if (status == 0)
                status = 1;
        }
    }
    fflush(out);
    return status;
}
