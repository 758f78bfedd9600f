/*
 * rules.c - the referee's rules of play (rules.h): placeholders, openings,
 * the end of a game and the draw rule, forfeit reasons. play.c applies them
 * while a game is played, verify.c and analyze.c when a record is replayed,
 * so a record verify accepts is a game play could have played.
 */
#define _GNU_SOURCE
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

void rules_run_reason(const struct run_result *r, char *reason)
{
    switch (r->end) {
    case RUN_TIMEOUT:
        strcpy(reason, "timeout");
        break;
    case RUN_CPU_LIMIT:
        strcpy(reason, "cpu-limit");
        break;
    case RUN_MEM_LIMIT:
        strcpy(reason, "memory-limit");
        break;
    case RUN_FILE_LIMIT:
        strcpy(reason, "file-limit");
        break;
    case RUN_SIGNALED: {
        const char *abbrev = sigabbrev_np(r->signal);
        if (abbrev)
            snprintf(reason, REC_REASON_MAX, "crashed: SIG%s", abbrev);
        else
            snprintf(reason, REC_REASON_MAX, "crashed: signal %d", r->signal);
        break;
    }
    case RUN_EXEC_FAILED:
        strcpy(reason, "cannot-run");
        break;
    case RUN_CANCELLED:
        strcpy(reason, "cancelled");
        break;
    case RUN_EXITED:
        assert(r->status != 0);
        snprintf(reason, REC_REASON_MAX, "exit-status %d", r->status);
        break;
    }
}

int rules_hit_file_limit(const struct run_result *r, const struct run_limits *l,
                         long long out_size)
{
    return (r->end == RUN_EXITED || r->end == RUN_SIGNALED) && l->file_limit_kb > 0 &&
           out_size >= l->file_limit_kb * 1024;
}

/* The limit a limit's kind names, and the option that sets it, appended
 * to reason: a student sees what was exceeded and what to change. */
void rules_name_limit(const struct run_limits *l, int by_tree, char *reason)
{
    char detail[REC_REASON_MAX] = "";
    int in_ms = l->cpu_ms > 0 && (l->cpu_limit_s == 0 || l->cpu_ms < l->cpu_limit_s * 1000);
    if (strcmp(reason, "timeout") == 0 && l->cpu_ms > 0)
        snprintf(detail, sizeof detail, "no answer within %ld ms of wall time, the guard against "
                 "an engine that sleeps or hangs (its CPU limit: %ld ms)", l->timeout_ms,
                 l->cpu_ms);
    else if (strcmp(reason, "timeout") == 0)
        snprintf(detail, sizeof detail, "no answer within %ld ms of wall time (--timeout-ms)",
                 l->timeout_ms);
    else if (strcmp(reason, "cpu-limit") == 0 && in_ms)
        snprintf(detail, sizeof detail, "%s %ld ms of CPU time%s, its limit",
                 by_tree ? "its processes used" : "used", l->cpu_ms, by_tree ? " together" : "");
    else if (strcmp(reason, "cpu-limit") == 0 && l->cpu_limit_s > 0 && by_tree)
        snprintf(detail, sizeof detail, "its processes used %ld s of CPU time together "
                 "(--cpu-limit-s)", l->cpu_limit_s);
    else if (strcmp(reason, "cpu-limit") == 0 && l->cpu_limit_s > 0)
        snprintf(detail, sizeof detail, "used %ld s of CPU time (--cpu-limit-s)", l->cpu_limit_s);
    else if (strcmp(reason, "memory-limit") == 0 && l->mem_limit_mb > 0 && by_tree)
        snprintf(detail, sizeof detail, "its processes held more than %ld MB of memory "
                 "together (--mem-limit-mb)", l->mem_limit_mb);
    else if (strcmp(reason, "memory-limit") == 0 && l->mem_limit_mb > 0)
        snprintf(detail, sizeof detail, "ran out of its %ld MB of address space (--mem-limit-mb)",
                 l->mem_limit_mb);
    else if (strcmp(reason, "file-limit") == 0 && l->file_limit_kb > 0)
        snprintf(detail, sizeof detail, "wrote a file past %ld KB, the most an engine may write",
                 l->file_limit_kb);
    if (detail[0]) {
        size_t n = strlen(reason);
        snprintf(reason + n, REC_REASON_MAX - n, ": %s", detail);
    }
}

void rules_explain_missing(const struct run_result *r, int persistent, int out_written,
                           char *reason)
{
    char detail[REC_REASON_MAX] = "";
    const struct run_tail *o = &r->out;
    /* A last line without its newline is a line too. */
    long long lines = o->lines + (o->len && o->text[o->len - 1] != '\n');
    if (strcmp(reason, "no-output") == 0 && persistent)
        snprintf(detail, sizeof detail, "it printed done and wrote no OUT file");
    else if (strcmp(reason, "no-output") == 0 && o->total > 0)
        snprintf(detail, sizeof detail, "it wrote %lld line%s to stdout and no OUT file", lines,
                 lines == 1 ? "" : "s");
    else if (strcmp(reason, "no-output") == 0)
        /* A file engine's stdin is empty: an engine waiting there for a
         * move line ends at once, without a word. */
        snprintf(detail, sizeof detail, "it read nothing from stdin and wrote no OUT: is it a "
                 "persistent engine? add proto=persistent");
    else if (strncmp(reason, "timeout", 7) == 0 && persistent && out_written)
        snprintf(detail, sizeof detail, "OUT was written but no done line came (flush stdout "
                 "after done)");
    if (detail[0]) {
        size_t n = strlen(reason);
        snprintf(reason + n, REC_REASON_MAX - n, ": %s", detail);
    }
}

int rules_starved(const struct run_result *r, const struct run_limits *l)
{
    return r->end == RUN_TIMEOUT && l->cpu_ms > 0 &&
           r->cpu_user_ms + r->cpu_sys_ms < (double)l->cpu_ms &&
           r->wait_ms >= (double)l->timeout_ms * PLAY_STARVED_SHARE;
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
