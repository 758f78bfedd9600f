/*
 * analyze.c - blunder analysis of recorded games (analyze.h): the oracles
 * per game, the per-move judgement written into the records, and
 * `referee analyze`.
 */
#include <assert.h>
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>
#include "arena/analyze.h"
#include "arena/escape.h"
#include "referee/journal/header.h"
#include "arena/journal.h"
#include "referee/judge/judge.h"
#include "arena/registry.h"
#include "arena/rules.h"
#include "arena/textfile.h"

#define US_PER_MS 1000
#define ANALYSIS_SCHEMA "arena.analysis/1"

int ana_supports(const struct game *g)
{
    return g->oracle != NULL;
}


int ana_init(struct analyzer *a, const struct game *g, const struct ana_opts *o, struct err *e)
{
    memset(a, 0, sizeof *a);
    a->game = g;
    a->opts = *o;
    if (!ana_supports(g)) {
        char games[ERR_MSG_MAX];
        registry_names(games, sizeof games, ana_supports, " and ");
        return err_set(e, 0, 0, "no exact oracle for %s: analyze handles %s", g->name, games);
    }
    struct game_oracle_opts oo = {
        .budget_us = (uint64_t)o->budget_ms * US_PER_MS,
        .node_budget = o->node_budget,
        .max_empty = o->max_empty,
        .tt_bytes = o->tt_bytes ? o->tt_bytes : (size_t)ANA_TT_MB << 20,
    };
    if (g->oracle->open(&a->oracle, &oo, e) != 0)
        return -1;
    a->open = 1;
    return 0;
}

void ana_free(struct analyzer *a)
{
    if (a->open)
        a->game->oracle->close(a->oracle);
    a->oracle = NULL;
    a->open = 0;
}

static enum rec_outcome outcome_of_sign(int v)
{
    return v > 0 ? REC_WIN : v < 0 ? REC_LOSS : REC_DRAW;
}

static enum rec_outcome negate(enum rec_outcome o)
{
    return o == REC_UNKNOWN ? REC_UNKNOWN : (enum rec_outcome)(-(int)o);
}

enum rec_outcome ana_value(struct analyzer *a, const void *pos)
{
    const struct game *g = a->game;
    int winner = game_result(g, pos);
    if (winner >= 0)
        return winner == 0 ? REC_DRAW : winner == g->to_move(pos) ? REC_WIN : REC_LOSS;
    int v = g->oracle->value(a->oracle, pos);
    return v == GAME_ORACLE_UNKNOWN ? REC_UNKNOWN : outcome_of_sign(v);
}

/* Adds one blunder of engine to the analysis' per-engine counts; -1 when
 * a third engine blunders (no record the referee writes has one). */
static int count_blunder(struct rec_analysis *an, const char *engine)
{
    int k = 0;
    while (k < an->nblunders && strcmp(an->blunders[k].engine, engine) != 0)
        k++;
    if (k == 2)
        return -1;
    if (k == an->nblunders) {
        an->nblunders++;
        strcpy(an->blunders[k].engine, engine);
        an->blunders[k].count = 0;
    }
    an->blunders[k].count++;
    return 0;
}

/* Judges the recorded moves from pos on into rec's moves and an; 0, or -1
 * at a move that is not legal or a third engine's blunder. */
static int judge_moves(struct analyzer *a, struct game_record *rec, void *pos,
                       struct rec_analysis *an)
{
    const struct game *g = a->game;
    /* The outcome after one move is the next move's outcome before, seen
     * from the other side: each position is asked once. */
    enum rec_outcome next_before = ana_value(a, pos);
    for (int i = 0; i < rec->nmoves; i++) {
        struct rec_move *m = &rec->moves[i];
        if (strcmp(m->status, "ok") != 0)
            break;   /* a forfeit ends the game; nothing was played */
        int move;
        if (!m->move[0] || !(m->has & REC_HAS_ENGINE) || game_result(g, pos) >= 0 ||
            g->parse_move(pos, m->move, &move) != 0)
            return -1;
        m->before = next_before;
        g->play(pos, move);
        next_before = ana_value(a, pos);
        m->after = negate(next_before);
        m->blunder = m->before != REC_UNKNOWN && m->after != REC_UNKNOWN && m->after < m->before;
        an->unknown += (m->before == REC_UNKNOWN);
        if (m->blunder) {
            if (count_blunder(an, m->engine) != 0)
                return -1;
            an->has_decisive = 1;
            an->decisive.ply = m->ply;
            strcpy(an->decisive.engine, m->engine);
            strcpy(an->decisive.move, m->move);
            an->decisive.before = m->before;
            an->decisive.after = m->after;
        }
    }
    return 0;
}

int ana_game(struct analyzer *a, struct game_record *rec, struct err *e)
{
    unsigned char pos[GAME_MAX_STATE];
    long index = rec->index > 0 ? rec->index : 0;
    if (rules_replay_opening(a->game, rec, pos) != 0)
        return err_set(e, 0, 0, "game %ld: its opening is not legal", index);
    struct rec_analysis an;
    memset(&an, 0, sizeof an);
    if (judge_moves(a, rec, pos, &an) != 0) {
        for (int i = 0; i < rec->nmoves; i++)
            rec->moves[i].before = rec->moves[i].after = REC_UNANALYSED;
        rec->has &= ~(unsigned)REC_HAS_ANALYSIS;
        return err_set(e, 0, 0, "game %ld: a recorded move is not legal", index);
    }
    rec->analysis = an;
    rec->has |= REC_HAS_ANALYSIS;
    return 0;
}

void ana_print_game(FILE *out, const struct game_record *rec)
{
    assert(rec->has & REC_HAS_ANALYSIS);
    const struct rec_analysis *an = &rec->analysis;
    char name[ESC_ROOM(REC_NAME_MAX)], move[ESC_ROOM(GAME_MOVE_TEXT_MAX)];
    if (an->has_decisive)
        fprintf(out, "  decisive mistake: ply %d by %s (%s): %s -> %s", an->decisive.ply,
                esc_text(an->decisive.engine, name, sizeof name),
                esc_text(an->decisive.move, move, sizeof move),
                rec_outcome_name(an->decisive.before), rec_outcome_name(an->decisive.after));
    else
        fputs("  no blunder", out);
    if (an->unknown)
        fprintf(out, " (%ld position%s unknown)", an->unknown, an->unknown == 1 ? "" : "s");
    fputc('\n', out);
}

/* ---- referee analyze --------------------------------------------------- */

struct engine_stats {
    char name[REC_NAME_MAX];
    long moves, blunders, unknown;
};

struct log_ctx {
    const struct ana_opts *opts;
    struct analyzer an;
    int ready;
    const struct judge_cmd *judge_cmd; /* --judge: the judge the user named; NULL: none */
    struct judge *judge;   /* the journal's judge (judge.h); NULL: none */
    int judge_failed;      /* 1 when it failed */
    FILE *out;
    cJSON *doc, *games;
    int n;
    struct engine_stats eng[REC_MAX_ENGINES];
};

static struct engine_stats *stats_of(struct log_ctx *c, const char *name)
{
    for (int i = 0; i < c->n; i++)
        if (strcmp(c->eng[i].name, name) == 0)
            return &c->eng[i];
    if (c->n == REC_MAX_ENGINES)
        return NULL;
    struct engine_stats *s = &c->eng[c->n++];
    snprintf(s->name, sizeof s->name, "%s", name);
    return s;
}

static int log_header(void *ctx, const struct hdr *h, int line, struct err *e)
{
    (void)line;   /* its errors have no place, as before */
    struct log_ctx *c = ctx;
    if (c->judge)   /* started by an earlier header of the file */
        return 0;
    /* A judge's journal: the judge the user named, refused when it is not
     * the journal's, then the oracle it does not have (no judge gives one). */
    const struct game *g;
    int rc = judge_game_of(h, c->judge_cmd, &g, &c->judge, e);
    c->judge_failed = rc == JUDGE_FAILED;
    if (rc != 0)
        return -1;
    if (ana_init(&c->an, g, c->opts, e) != 0)
        return -1;
    c->ready = 1;
    cJSON_AddStringToObject(c->doc, "game", g->name);
    return 0;
}

/* Counts each analysed move of rec for its engine. */
static void count_moves(struct log_ctx *c, const struct game_record *rec)
{
    for (int i = 0; i < rec->nmoves; i++) {
        const struct rec_move *m = &rec->moves[i];
        struct engine_stats *s = m->has & REC_HAS_ENGINE && m->before != REC_UNANALYSED
                                     ? stats_of(c, m->engine)
                                     : NULL;
        if (!s)
            continue;
        s->moves++;
        s->unknown += m->before == REC_UNKNOWN;
        s->blunders += m->blunder;
    }
}

static int log_game(void *ctx, struct game_record *rec, int line, struct err *e)
{
    (void)line;   /* journal.h places the error */
    struct log_ctx *c = ctx;
    cJSON *copy = NULL;
    int rc = ana_game(&c->an, rec, e) != 0 ? -1 : 0;
    if (rc == 0 && !(copy = rec_encode(rec)))
        rc = err_set(e, 0, 0, "out of memory");
    if (rc == 0) {
        char p1[ESC_ROOM(REC_NAME_MAX)], p2[ESC_ROOM(REC_NAME_MAX)];
        esc_text(rec->player[0][0] ? rec->player[0] : "?", p1, sizeof p1);
        esc_text(rec->player[1][0] ? rec->player[1] : "?", p2, sizeof p2);
        fprintf(c->out, "Game %ld (%s vs %s): %s\n", rec->index > 0 ? rec->index : 0, p1, p2,
                rec_result_text(rec->result));
        ana_print_game(c->out, rec);
        count_moves(c, rec);
        cJSON_AddItemToArray(c->games, copy);
    }
    return rc;
}

int ana_log(const char *path, const struct ana_opts *o, const struct judge_cmd *judge,
            const char *json_path, FILE *out, struct err *e)
{
    struct log_ctx c = { .opts = o, .judge_cmd = judge, .out = out };
    c.doc = cJSON_CreateObject();
    cJSON_AddStringToObject(c.doc, "schema", ANALYSIS_SCHEMA);
    cJSON_AddStringToObject(c.doc, "source", path);
    c.games = cJSON_AddArrayToObject(c.doc, "games");
    static const struct journal_reader rd = { .header = log_header, .game = log_game };
    int rc = journal_scan(path, &rd, &c, e);
    if (rc && c.judge_failed)
        rc = JUDGE_FAILED;
    if (c.ready)
        ana_free(&c.an);
    judge_close(c.judge);
    if (rc == 0) {
        cJSON *engines = cJSON_AddArrayToObject(c.doc, "engines");
        fprintf(out, "\n%-24s %8s %9s %8s\n", "Blunders", "moves", "blunders", "unknown");
        for (int i = 0; i < c.n; i++) {
            const struct engine_stats *s = &c.eng[i];
            char name[ESC_ROOM(REC_NAME_MAX)];
            fprintf(out, "%-24s %8ld %9ld %8ld\n", esc_text(s->name, name, sizeof name),
                    s->moves, s->blunders, s->unknown);
            cJSON *j = cJSON_CreateObject();
            cJSON_AddStringToObject(j, "name", s->name);
            cJSON_AddNumberToObject(j, "moves", (double)s->moves);
            cJSON_AddNumberToObject(j, "blunders", (double)s->blunders);
            cJSON_AddNumberToObject(j, "unknown", (double)s->unknown);
            cJSON_AddItemToArray(engines, j);
        }
    }
    if (rc == 0 && json_path) {
        char *text = cJSON_Print(c.doc);
        if (!text)
            rc = err_set(e, 0, 0, "out of memory");
        else if (tf_write_atomic(json_path, text, strlen(text), e) != 0)
            rc = -1;
        free(text);
    }
    cJSON_Delete(c.doc);
    return rc;
}
