/* c4moves.c - move strings and "MOVES [SCORE]" lines (c4moves.h). */
#include <assert.h>
#include <stdlib.h>
#include <string.h>
#include "c4moves.h"
#include "arena/c4score.h"

int c4moves_parse(const char *moves, size_t len, struct c4_pos *p, const char **why)
{
    assert(moves || len == 0);
    c4_init(p);
    for (size_t i = 0; i < len; i++) {
        int c = moves[i] - '1';
        if (c < 0 || c >= C4_WIDTH) {
            *why = "not a column digit 1-7";
            return (int)i + 1;
        }
        if (p->moves > 0 && c4_has_four(p->disc[p->to_move ^ 1])) {
            *why = "game is already over";
            return (int)i + 1;
        }
        if (!c4_can_play(p, c)) {
            *why = "column is full";
            return (int)i + 1;
        }
        c4_play(p, c);
    }
    if (c4_has_four(p->disc[p->to_move ^ 1]) || p->moves == C4_CELLS) {
        *why = "game is already over";
        return (int)len + 1;
    }
    return 0;
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
    if (end == p || *end || v < -C4SCORE_MAX || v > C4SCORE_MAX)
        return (int)(p - line) + 1;
    *has = 1;
    *expected = (int)v;
    return 0;
}

int c4moves_parse_line(char *buf, enum tf_getline_result r, int lineno, struct c4moves_line *out,
                       struct err *e)
{
    assert(r == TF_LINE_OK || r == TF_LINE_TOO_LONG);
    if (r == TF_LINE_TOO_LONG)
        return err_set(e, lineno, C4MOVES_LINE_MAX + 1, "line longer than %d bytes",
                       C4MOVES_LINE_MAX);
    size_t len = strlen(buf);
    while (len && (buf[len - 1] == '\r' || buf[len - 1] == ' ' || buf[len - 1] == '\t'))
        buf[--len] = '\0';
    out->moves_len = strcspn(buf, " \t");
    const char *why;
    int col = c4moves_parse(buf, out->moves_len, &out->pos, &why);
    if (col != 0)
        return err_set(e, lineno, col, "%s", why);
    if ((col = parse_expected(buf, out->moves_len, &out->has_score, &out->score,
                              &out->score_col)) != 0)
        return err_set(e, lineno, col, "score must be a number from %d to %d", -C4SCORE_MAX,
                       C4SCORE_MAX);
    return 0;
}
