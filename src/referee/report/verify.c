/*
 * verify.c - `referee verify`: replays every recorded game of a journal or
 * a match log through the game's rules and names the first record that the
 * rules contradict (verify.h). It trusts nothing in the record: the
 * side to move, the legality of every move, the ending, the result and the
 * uniqueness of each game come from the replay.
 */
#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "arena/escape.h"
#include "referee/journal/header.h"
#include "arena/journal.h"
#include "referee/judge/judge.h"
#include "arena/record.h"
#include "arena/rules.h"
#include "arena/verify.h"
#include "arena/registry.h"

struct verify_ctx {
    const struct game *game;
    const struct judge_cmd *judge_cmd; /* --judge: the judge the user named; NULL: none */
    struct judge *judge;   /* the game's judge (judge.h); NULL: built in */
    int draw_plies;
    long *seen;         /* the indices recorded: open addressing, 0 = empty */
    long seen_cap;      /* a power of two, or 0 */
    long seen_n;
    long games, moves;
    int inconsistent;   /* 1 once a record contradicts the rules */
    int judge_failed;   /* 1 once the judge failed: not the journal's fault */
};

#define SEEN_START 1024

/* Records index (>= 1) as seen: 1 when it already was, 0 when new, -1 when
 * out of memory. A set, not an array by index: an index is the record's
 * word, and "index": 1000000000 must not cost gigabytes. */
static int seen_add(struct verify_ctx *v, long index)
{
    if (2 * (v->seen_n + 1) > v->seen_cap) {
        long cap = v->seen_cap ? 2 * v->seen_cap : SEEN_START;
        long *grown = calloc((size_t)cap, sizeof *grown);
        if (!grown)
            return -1;
        for (long i = 0; i < v->seen_cap; i++)
            if (v->seen[i]) {
                long k = v->seen[i] & (cap - 1);
                while (grown[k])
                    k = (k + 1) & (cap - 1);
                grown[k] = v->seen[i];
            }
        free(v->seen);
        v->seen = grown;
        v->seen_cap = cap;
    }
    /* Indices are mostly consecutive: the identity spreads them evenly. */
    long k = index & (v->seen_cap - 1);
    while (v->seen[k]) {
        if (v->seen[k] == index)
            return 1;
        k = (k + 1) & (v->seen_cap - 1);
    }
    v->seen[k] = index;
    v->seen_n++;
    return 0;
}

static int bad(struct verify_ctx *v, struct err *e, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int bad(struct verify_ctx *v, struct err *e, int line, const char *fmt, ...)
{
    v->inconsistent = 1;
    char msg[ERR_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return err_set(e, line, line ? 1 : 0, "%s", msg);
}

static int verify_header(void *ctx, const struct hdr *h, int line, struct err *e)
{
    (void)line;
    struct verify_ctx *v = ctx;
    if (v->judge)   /* started by an earlier header of the file */
        return 0;
    int rc = judge_game_of(h, v->judge_cmd, &v->game, &v->judge, e);
    v->judge_failed = rc == JUDGE_FAILED;
    if (rc != 0)
        return -1;
    v->draw_plies = h->draw_plies > 0 ? h->draw_plies : 0;
    return 0;
}

/* Replays rec's moves from pos; 0 with *forfeit_side (0: none) and *quiet
 * set, or -1 through bad() at the first move the rules contradict. */
static int replay_moves(struct verify_ctx *v, const struct game_record *rec, void *pos,
                        int line, int *forfeit_side, int *quiet, struct err *e)
{
    const struct game *g = v->game;
    *forfeit_side = 0;
    *quiet = 0;
    for (int i = 0; i < rec->nmoves; i++) {
        const struct rec_move *m = &rec->moves[i];
        int ply = i + 1;
        char where[64];
        snprintf(where, sizeof where, "game %ld, ply %d", rec->index, ply);
        if (*forfeit_side)
            return bad(v, e, line, "%s: a move after the forfeit", where);
        enum rec_reason why;
        if (rules_end(g, pos, v->draw_plies, *quiet, &why) != REC_NO_RESULT)
            return bad(v, e, line, why == REC_DRAW_RULE
                                       ? "%s: a move after the draw rule ended the game"
                                       : "%s: a move after the game ended",
                       where);
        if (m->ply != ply)
            return bad(v, e, line, "%s: \"ply\" is out of order", where);
        if (m->side != g->to_move(pos))
            return bad(v, e, line, "%s: \"side\" is not the side to move (%d)", where,
                       g->to_move(pos));
        if (!(m->has & REC_HAS_ENGINE) || strcmp(m->engine, rec->player[m->side - 1]) != 0)
            return bad(v, e, line, "%s: \"engine\" is not the player of side %d", where,
                       m->side);
        if (!(m->has & REC_HAS_STATUS))
            return bad(v, e, line, "%s: no \"status\"", where);
        if (strcmp(m->status, "ok") != 0) {
            *forfeit_side = m->side;
            continue;
        }
        int move;
        if (!m->move[0] || g->parse_move(pos, m->move, &move) != 0)
            return bad(v, e, line, "%s: the move is not legal", where);
        *quiet = rules_quiet_after(g, pos, move, *quiet);
        g->play(pos, move);
        v->moves++;
    }
    return 0;
}

/* A recorded score must be the game's own at the end the replay reached
 * (only a game that ended by its rules has one); a record without one (from
 * before scores) passes. */
static int check_score(struct verify_ctx *v, const struct game_record *rec, const void *pos,
                       enum rec_reason why, int line, struct err *e)
{
    if (!rec->score.set)
        return 0;
    const struct game_score *gs = v->game->score;
    if (!gs || why != REC_NORMAL)
        return bad(v, e, line, "game %ld records a \"score\" the game does not have",
                   rec->index);
    int want[2];
    gs->final(pos, want);
    if (want[0] != rec->score.side[0] || want[1] != rec->score.side[1])
        return bad(v, e, line, "game %ld: recorded score %d-%d, the replay gives %d-%d",
                   rec->index, rec->score.side[0], rec->score.side[1], want[0], want[1]);
    return 0;
}

static int verify_record(struct verify_ctx *v, const struct game_record *rec, int line,
                         struct err *e)
{
    assert(v->game != NULL);
    long index = rec->index;
    if (index < 1)
        return bad(v, e, line, "a game without an \"index\" from 1 to %ld", REC_INDEX_MAX);
    int seen = seen_add(v, index);
    if (seen < 0)
        return err_set(e, line, 1, "out of memory");
    if (seen)
        return bad(v, e, line, "game %ld is recorded twice", index);
    if (!rec->player[0][0] || !rec->player[1][0])
        return bad(v, e, line, "game %ld has no \"players\"", index);
    unsigned char pos[GAME_MAX_STATE];
    if (rules_replay_opening(v->game, rec, pos) != 0)
        return bad(v, e, line, "game %ld: its opening is not legal", index);
    int forfeit_side, quiet;
    if (replay_moves(v, rec, pos, line, &forfeit_side, &quiet, e) != 0)
        return -1;
    if (rec->result == REC_NO_RESULT || rec->reason == REC_NO_REASON)
        return bad(v, e, line, "game %ld has no \"result\" or \"reason\"", index);
    enum rec_result want;
    enum rec_reason why;
    const char *forfeit = NULL;
    if (forfeit_side) {
        want = forfeit_side == 1 ? REC_WIN_2 : REC_WIN_1;
        why = REC_FORFEIT;
        forfeit = rec->moves[rec->nmoves - 1].status;
    } else if ((want = rules_end(v->game, pos, v->draw_plies, quiet, &why)) == REC_NO_RESULT) {
        return bad(v, e, line, "game %ld stops before its end", index);
    }
    const char *expect = why == REC_FORFEIT ? forfeit : why == REC_DRAW_RULE ? "draw-rule"
                                                                             : "normal";
    if (rec->result != want || strcmp(rec_reason_text(rec), expect) != 0)
        return bad(v, e, line, "game %ld: recorded %s {%s}, the replay gives %s {%s}", index,
                   rec_result_text(rec->result), rec_reason_text(rec), rec_result_text(want),
                   expect);
    if (check_score(v, rec, pos, why, line, e) != 0)
        return -1;
    v->games++;
    return 0;
}

static int verify_game(void *ctx, struct game_record *rec, int line, struct err *e)
{
    struct verify_ctx *v = ctx;
    int rc = verify_record(v, rec, line, e);
    /* A judge that failed made the game look finished: its words, not the
     * replay's. */
    if (judge_error(v->judge, e) != 0) {
        v->judge_failed = 1;
        return -1;
    }
    return rc;
}

/* A record that does not decode contradicts the format: inconsistent. */
static int verify_bad_game(void *ctx, int line, struct err *e)
{
    char msg[ERR_MSG_MAX];
    snprintf(msg, sizeof msg, "%s", e->msg);
    return bad(ctx, e, line, "%s", msg);
}

int verify_file(const char *path, const struct judge_cmd *judge, FILE *out, struct err *e)
{
    struct verify_ctx v = { .judge_cmd = judge };
    static const struct journal_reader rd = { .header = verify_header, .game = verify_game,
                                              .bad_game = verify_bad_game };
    int rc = journal_scan(path, &rd, &v, e);
    free(v.seen);
    judge_close(v.judge);
    if (rc)
        return v.judge_failed ? JUDGE_FAILED : v.inconsistent ? 1 : -1;
    esc_fputs(path, out);   /* as every text on a terminal (escape.h) */
    fprintf(out, ": %ld games, %ld moves replayed: consistent\n", v.games, v.moves);
    return 0;
}
