/*
 * rules.c - the referee's rules of play (rules.h): placeholders, openings,
 * the end of a game and the draw rule, judging an answer. play.c applies
 * them while a game is played, verify.c and analyze.c when a record is
 * replayed, so a record verify accepts is a game play could have played.
 * At the bottom of the referee (src/referee/rules): it knows games and
 * records only; what a failed run's forfeit reason is, which needs run's
 * results, is forfeit.c's, in play.
 */
#include <assert.h>
#include <stdio.h>
#include <string.h>
#include "arena/limits.h"
#include "arena/rules.h"

const char *const rules_placeholder[RULES_PLACEHOLDERS] = { "{in}", "{out}", "{depth}",
                                                            "{player}", "{time}", "{inc}" };

int rules_has_placeholder(const char *word)
{
    for (int k = 0; k < RULES_PLACEHOLDERS; k++)
        if (strstr(word, rules_placeholder[k]))
            return 1;
    return 0;
}

void rules_expand(const char *word, char *buf, size_t cap,
                  const char *const value[RULES_PLACEHOLDERS])
{
    assert(cap > 0);
    size_t n = 0;
    while (*word && n < cap - 1) {
        int hit = 0;
        for (int k = 0; k < RULES_PLACEHOLDERS && !hit; k++) {
            size_t kl = strlen(rules_placeholder[k]);
            if (strncmp(word, rules_placeholder[k], kl) == 0) {
                n += (size_t)snprintf(buf + n, cap - n, "%s", value[k]);
                if (n >= cap)
                    n = cap - 1;
                word += kl;
                hit = 1;
            }
        }
        if (!hit)
            buf[n++] = *word++;
    }
    buf[n] = '\0';
}

int rules_replay_opening(const struct game *g, const struct game_record *rec, void *pos)
{
    assert(rec->nopening == 0 || rec->opening);
    game_init(g, pos);
    for (int i = 0; i < rec->nopening; i++) {
        int move;
        if (game_result(g, pos) >= 0 || g->parse_move(pos, rec->opening[i], &move) != 0)
            return -1;
        g->play(pos, move);
    }
    return 0;
}

int rules_play_line(const struct game *g, const char *line, int lineno, void *pos,
                    struct game_record *rec, struct err *e)
{
    game_init(g, pos);
    const char *p = line, *last = NULL;
    for (;;) {
        while (*p == ' ' || *p == '\t')
            p++;
        if (!*p)
            return last && game_result(g, pos) >= 0
                       ? err_set(e, lineno, (int)(last - line) + 1,
                                 "the opening ends the game: no move is left to play")
                       : 0;
        last = p;
        size_t n = strcspn(p, " \t");
        char text[GAME_MOVE_TEXT_MAX];
        int move;
        if (n >= sizeof text)
            return err_set(e, lineno, (int)(p - line) + 1, "move '%.*s' is too long", (int)n, p);
        memcpy(text, p, n);
        text[n] = '\0';
        if (game_result(g, pos) >= 0)
            return err_set(e, lineno, (int)(p - line) + 1, "the game is over before '%s'", text);
        if (g->parse_move(pos, text, &move) != 0)
            return err_set(e, lineno, (int)(p - line) + 1, "'%s' is not a legal move here", text);
        g->play(pos, move);
        if (rec && rec_add_opening(rec, text) != 0)
            return err_set(e, lineno, 1, "out of memory");
        p += n;
    }
}

int rules_quiet_after(const struct game *g, const void *pos, int move, int quiet)
{
    assert(quiet >= 0);
    return g->irreversible && g->irreversible(pos, move) ? 0 : quiet + 1;
}

enum rec_result rules_end(const struct game *g, const void *pos, int draw_plies, int quiet,
                          enum rec_reason *reason)
{
    int winner = game_result(g, pos);
    *reason = REC_NORMAL;
    if (winner >= 0)
        return (enum rec_result)winner;
    if (g->irreversible && draw_plies > 0 && quiet >= draw_plies) {
        *reason = REC_DRAW_RULE;
        return REC_DRAWN;
    }
    return REC_NO_RESULT;
}

int rules_judge(const struct game *g, const void *before, const char *text, size_t len,
                int *move, char *reason)
{
    unsigned char after[GAME_MAX_STATE];
    struct err e;
    memcpy(after, before, g->state_size);   /* parse's context (game.h) */
    int readable = g->parse(after, text, len, &e) == 0;
    int moves[GAME_MAX_MOVES];
    int n = readable ? g->gen(before, moves) : 0;
    for (int i = 0; i < n; i++) {
        unsigned char child[GAME_MAX_STATE];
        memcpy(child, before, g->state_size);
        g->play(child, moves[i]);
        if (memcmp(child, after, g->state_size) == 0) {
            *move = moves[i];
            return 0;
        }
    }
    /* Parse first, then compare: a board the game can read is judged by
     * what the answer changed, even one no game can reach. */
    if (g->explain && g->explain(before, text, len, reason, REC_REASON_MAX) == 0)
        return -1;
    if (!readable) {
        /* The reader's own words: a student sees what is wrong with the file. */
        if (e.line)
            snprintf(reason, REC_REASON_MAX, "unreadable: %d:%d: %.150s", e.line, e.col, e.msg);
        else
            snprintf(reason, REC_REASON_MAX, "unreadable: %.150s", e.msg);
        return -1;
    }
    snprintf(reason, REC_REASON_MAX, "%s",
             g->to_move(after) == g->to_move(before) ? "wrong-player" : "illegal-move");
    return -1;
}
