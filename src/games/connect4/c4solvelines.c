/* c4solvelines.c - `engine solve`: move strings in, scores out
 * (c4solvelines.h). */
#include <stdlib.h>
#include <string.h>
#include "c4moves.h"
#include "c4solvelines.h"
#include "arena/clock.h"
#include "arena/err.h"
#include "arena/textfile.h"

#define NS_PER_US 1000

static int sign(int v)
{
    return (v > 0) - (v < 0);
}

/* Solves the parsed line l (line lineno, its text buf) and prints its
 * result; returns the status the line adds: 0, EXIT_BAD_INPUT (budget ran
 * out) or 1 (another score than expected). */
static int solve_line(struct c4s *s, const struct c4moves_line *l, const char *buf, int lineno,
                      const char *name, int weak, FILE *out, FILE *diag)
{
    /* Wall time, as the anchor's benchmark reads: the CPU clock is a
     * system call (about 1.4 us on this VM, most of an End-Easy solve),
     * the monotonic clock is read in user space. A solve does no I/O,
     * so on an idle core the two agree. */
    uint64_t t0 = clock_wall_ns();
    int score = c4s_solve(s, &l->pos, weak);
    double us = (double)(clock_wall_ns() - t0) / NS_PER_US;
    if (score == C4S_UNKNOWN) {
        fprintf(diag, "%s:%d: budget ran out\n", name, lineno);
        return EXIT_BAD_INPUT;
    }
    fprintf(out, "%.*s %d %llu %.2f\n", (int)l->moves_len, buf, score,
            (unsigned long long)s->nodes, us);
    if (l->has_score && (weak ? sign(l->score) != score : l->score != score)) {
        fprintf(diag, "%s:%d: expected score %d, solved %d\n", name, lineno, l->score, score);
        return 1;
    }
    return 0;
}

int c4solvelines_run(struct c4s *s, FILE *in, const char *name, int weak, FILE *out, FILE *diag)
{
    char buf[C4MOVES_LINE_MAX + 1];
    int status = 0, lineno = 0;
    enum tf_getline_result r;
    while ((r = tf_getline(in, buf, C4MOVES_LINE_MAX)) != TF_LINE_EOF) {
        lineno++;
        if (r == TF_LINE_FAILED) {
            fprintf(diag, "%s: read error\n", name);
            return EXIT_BAD_INPUT;
        }
        struct err e = { 0 };
        struct c4moves_line l;
        int got;
        if (c4moves_parse_line(buf, r, lineno, &l, &e) != 0) {
            err_print(diag, name, &e);
            got = EXIT_BAD_INPUT;
        } else {
            got = solve_line(s, &l, buf, lineno, name, weak, out, diag);
        }
        /* A bad line outranks a differing score. */
        if (got == EXIT_BAD_INPUT || (got && !status))
            status = got;
    }
    fflush(out);
    return status;
}
