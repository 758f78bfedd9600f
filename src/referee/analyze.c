/*
 * analyze.c - blunder analysis of recorded games (analyze.h): the oracles
 * per game, the per-move judgement written into the records, and
 * `referee analyze`.
 */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>
#include "arena/analyze.h"
#include "arena/registry.h"
#include "arena/textfile.h"
#include "arena/tournament.h"

#define US_PER_MS 1000
#define ANALYSIS_SCHEMA "arena.analysis/1"

int ana_supports(const struct game *g)
{
    return g->oracle != NULL;
}

/* "connect4, maxconnect4 and nim": the registered games with an oracle. */
static void oracle_games(char *buf, size_t cap)
{
    const struct game *const *all = registry_all();
    int n = 0, left = 0;
    for (int i = 0; all[i]; i++)
        left += ana_supports(all[i]);
    buf[0] = '\0';
    for (int i = 0; all[i]; i++) {
        if (!ana_supports(all[i]))
            continue;
        size_t len = strlen(buf);
        left--;
        snprintf(buf + len, cap - len, "%s%s", n++ == 0 ? "" : left == 0 ? " and " : ", ",
                 all[i]->name);
    }
}

int ana_init(struct analyzer *a, const struct game *g, const struct ana_opts *o, struct err *e)
{
    memset(a, 0, sizeof *a);
    a->game = g;
    a->opts = *o;
    if (!ana_supports(g)) {
        char games[ERR_MSG_MAX];
        oracle_games(games, sizeof games);
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

const char *ana_outcome_name(enum ana_outcome o)
{
    switch (o) {
    case ANA_WIN:
        return "win";
    case ANA_DRAW:
        return "draw";
    case ANA_LOSS:
        return "loss";
    default:
        return "unknown";
    }
}

static enum ana_outcome outcome_of_sign(int v)
{
    return v > 0 ? ANA_WIN : v < 0 ? ANA_LOSS : ANA_DRAW;
}

static enum ana_outcome negate(enum ana_outcome o)
{
    return o == ANA_UNKNOWN ? ANA_UNKNOWN : (enum ana_outcome)(-(int)o);
}

enum ana_outcome ana_value(struct analyzer *a, const void *pos)
{
    const struct game *g = a->game;
    int winner = game_result(g, pos);
    if (winner >= 0)
        return winner == 0 ? ANA_DRAW : winner == g->to_move(pos) ? ANA_WIN : ANA_LOSS;
    int v = g->oracle->value(a->oracle, pos);
    return v == GAME_ORACLE_UNKNOWN ? ANA_UNKNOWN : outcome_of_sign(v);
}

/* The record's index for messages; 0 when it has none. */
static long index_of(const cJSON *rec)
{
    long i = tour_index(rec);
    return i > 0 ? i : 0;
}

/* Adds one blunder of engine to the record's per-engine counts. */
static void count_blunder(cJSON *counts, const char *engine)
{
    cJSON *n = cJSON_GetObjectItemCaseSensitive(counts, engine);
    if (n)
        cJSON_SetNumberValue(n, n->valuedouble + 1);
    else
        cJSON_AddNumberToObject(counts, engine, 1);
}

int ana_game(struct analyzer *a, cJSON *rec, struct err *e)
{
    const struct game *g = a->game;
    unsigned char pos[GAME_MAX_STATE];
    long index = index_of(rec);
    g->init(pos);
    const cJSON *m;
    cJSON_ArrayForEach(m, cJSON_GetObjectItemCaseSensitive(rec, "opening")) {
        int move;
        if (!cJSON_IsString(m) || game_result(g, pos) >= 0
            || g->parse_move(pos, m->valuestring, &move) != 0)
            return err_set(e, 0, 0, "game %ld: its opening is not legal", index);
        g->play(pos, move);
    }

    cJSON *analysis = cJSON_CreateObject();
    cJSON *counts = cJSON_AddObjectToObject(analysis, "blunders");
    cJSON *decisive = NULL;
    long unknown = 0;
    cJSON *mv;
    /* The outcome after one move is the next move's outcome before, seen
     * from the other side: each position is asked once. */
    enum ana_outcome next_before = ana_value(a, pos);
    cJSON_ArrayForEach(mv, cJSON_GetObjectItemCaseSensitive(rec, "moves")) {
        const char *status = tour_text(mv, "status"), *text = tour_text(mv, "move");
        const char *engine = tour_text(mv, "engine");
        if (!status || strcmp(status, "ok") != 0)
            break;   /* a forfeit ends the game; nothing was played */
        int move;
        if (!text || !engine || game_result(g, pos) >= 0 || g->parse_move(pos, text, &move) != 0) {
            cJSON_Delete(analysis);
            cJSON_Delete(decisive);   /* not in analysis yet */
            return err_set(e, 0, 0, "game %ld: a recorded move is not legal", index);
        }
        enum ana_outcome before = next_before;
        g->play(pos, move);
        next_before = ana_value(a, pos);
        enum ana_outcome after = negate(next_before);
        int blunder = before != ANA_UNKNOWN && after != ANA_UNKNOWN && after < before;
        unknown += (before == ANA_UNKNOWN);
        cJSON_DeleteItemFromObjectCaseSensitive(mv, "before");
        cJSON_DeleteItemFromObjectCaseSensitive(mv, "after");
        cJSON_DeleteItemFromObjectCaseSensitive(mv, "blunder");
        cJSON_AddStringToObject(mv, "before", ana_outcome_name(before));
        cJSON_AddStringToObject(mv, "after", ana_outcome_name(after));
        cJSON_AddBoolToObject(mv, "blunder", blunder);
        if (blunder) {
            count_blunder(counts, engine);
            cJSON_Delete(decisive);
            decisive = cJSON_CreateObject();
            cJSON_AddItemToObject(decisive, "ply",
                                  cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(mv, "ply"), 1));
            cJSON_AddStringToObject(decisive, "engine", engine);
            cJSON_AddStringToObject(decisive, "move", text);
            cJSON_AddStringToObject(decisive, "before", ana_outcome_name(before));
            cJSON_AddStringToObject(decisive, "after", ana_outcome_name(after));
        }
    }
    cJSON_AddNumberToObject(analysis, "unknown", (double)unknown);
    if (decisive)
        cJSON_AddItemToObject(analysis, "decisive", decisive);
    else
        cJSON_AddNullToObject(analysis, "decisive");
    cJSON_DeleteItemFromObjectCaseSensitive(rec, "analysis");
    cJSON_AddItemToObject(rec, "analysis", analysis);
    return 0;
}

void ana_print_game(FILE *out, const cJSON *rec)
{
    const cJSON *an = cJSON_GetObjectItemCaseSensitive(rec, "analysis");
    const cJSON *d = cJSON_GetObjectItemCaseSensitive(an, "decisive");
    const cJSON *unknown = cJSON_GetObjectItemCaseSensitive(an, "unknown");
    long nunknown = cJSON_IsNumber(unknown) ? (long)unknown->valuedouble : 0;
    if (cJSON_IsObject(d)) {
        const cJSON *ply = cJSON_GetObjectItemCaseSensitive(d, "ply");
        fprintf(out, "  decisive mistake: ply %d by %s (%s): %s -> %s", ply ? ply->valueint : 0,
                tour_text(d, "engine"), tour_text(d, "move"), tour_text(d, "before"),
                tour_text(d, "after"));
    } else {
        fputs("  no blunder", out);
    }
    if (nunknown)
        fprintf(out, " (%ld position%s unknown)", nunknown, nunknown == 1 ? "" : "s");
    fputc('\n', out);
}

/* ---- referee analyze --------------------------------------------------- */

struct engine_stats {
    char name[REF_NAME_MAX];
    long moves, blunders, unknown;
};

struct log_ctx {
    const struct ana_opts *opts;
    struct analyzer an;
    int ready;
    FILE *out;
    cJSON *doc, *games;
    int n;
    struct engine_stats eng[TOUR_MAX_ENGINES];
};

static struct engine_stats *stats_of(struct log_ctx *c, const char *name)
{
    for (int i = 0; i < c->n; i++)
        if (strcmp(c->eng[i].name, name) == 0)
            return &c->eng[i];
    if (c->n == TOUR_MAX_ENGINES)
        return NULL;
    struct engine_stats *s = &c->eng[c->n++];
    snprintf(s->name, sizeof s->name, "%s", name);
    return s;
}

static int log_header(struct log_ctx *c, const cJSON *h, struct err *e)
{
    const char *name = tour_text(h, "game");
    const struct game *g = name ? registry_find(name) : NULL;
    if (!g)
        return err_set(e, 1, 1, "unknown game '%s'", name ? name : "(none)");
    if (ana_init(&c->an, g, c->opts, e) != 0)
        return -1;
    c->ready = 1;
    cJSON_AddStringToObject(c->doc, "game", g->name);
    return 0;
}

static int log_game(struct log_ctx *c, const cJSON *rec, int line, struct err *e)
{
    cJSON *copy = cJSON_Duplicate(rec, 1);
    if (!copy)
        return err_set(e, line, 1, "out of memory");
    if (ana_game(&c->an, copy, e) != 0) {
        cJSON_Delete(copy);
        e->line = line;
        e->col = line ? 1 : 0;
        return -1;
    }
    const cJSON *players = cJSON_GetObjectItemCaseSensitive(copy, "players");
    const char *p1 = tour_text(players, "1"), *p2 = tour_text(players, "2");
    fprintf(c->out, "Game %ld (%s vs %s): %s\n", index_of(copy), p1 ? p1 : "?", p2 ? p2 : "?",
            tour_text(copy, "result") ? tour_text(copy, "result") : "?");
    ana_print_game(c->out, copy);
    const cJSON *mv;
    cJSON_ArrayForEach(mv, cJSON_GetObjectItemCaseSensitive(copy, "moves")) {
        const char *engine = tour_text(mv, "engine"), *before = tour_text(mv, "before");
        struct engine_stats *s = engine && before ? stats_of(c, engine) : NULL;
        if (!s)
            continue;
        s->moves++;
        s->unknown += strcmp(before, "unknown") == 0;
        s->blunders += cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(mv, "blunder"));
    }
    cJSON_AddItemToArray(c->games, copy);
    return 0;
}

static int log_one(void *ctx, const cJSON *rec, int is_header, int line, struct err *e)
{
    struct log_ctx *c = ctx;
    return is_header ? log_header(c, rec, e) : log_game(c, rec, line, e);
}

int ana_log(const char *path, const struct ana_opts *o, const char *json_path, FILE *out,
            struct err *e)
{
    struct log_ctx c = { .opts = o, .out = out };
    c.doc = cJSON_CreateObject();
    cJSON_AddStringToObject(c.doc, "schema", ANALYSIS_SCHEMA);
    cJSON_AddStringToObject(c.doc, "source", path);
    c.games = cJSON_AddArrayToObject(c.doc, "games");
    int rc = tour_scan(path, log_one, &c, e);
    if (c.ready)
        ana_free(&c.an);
    if (rc == 0) {
        cJSON *engines = cJSON_AddArrayToObject(c.doc, "engines");
        fprintf(out, "\n%-24s %8s %9s %8s\n", "Blunders", "moves", "blunders", "unknown");
        for (int i = 0; i < c.n; i++) {
            const struct engine_stats *s = &c.eng[i];
            fprintf(out, "%-24s %8ld %9ld %8ld\n", s->name, s->moves, s->blunders, s->unknown);
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
