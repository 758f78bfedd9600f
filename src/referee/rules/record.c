/*
 * record.c - the game record's JSON encoder and decoder (record.h).
 * At the bottom of the referee (src/referee/rules), under run and the
 * journal: the rules replay records, run names engines and reasons in
 * record.h's sizes, and every writer and reader above shares the one type.
 *
 * Both walk the keys in the order the referee has always written them, so
 * the bytes of arena.match/1 logs and arena.journal/1 lines did not change
 * when the record became a struct (fixtures/records holds files written
 * before, and tests/test_e2e_records.c reads them).
 */
#include <assert.h>
#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "arena/record.h"
#include "arena/textfile.h"

#define GROW_START 16

static const char *const result_text[] = { "1/2-1/2", "1-0", "0-1" };

void rec_init(struct game_record *r, long index, long pair)
{
    memset(r, 0, sizeof *r);
    r->index = index;
    r->pair = pair;
    r->result = REC_NO_RESULT;
    r->reason = REC_NO_REASON;
    r->has = REC_HAS_ALL;
}

void rec_move_free(struct rec_move *m)
{
    free(m->stdout_tail);
    free(m->stderr_tail);
    m->stdout_tail = m->stderr_tail = NULL;
}

void rec_free(struct game_record *r)
{
    for (int i = 0; i < r->nmoves; i++)
        rec_move_free(&r->moves[i]);
    free(r->opening);
    free(r->moves);
    r->opening = NULL;
    r->moves = NULL;
    r->nopening = r->nmoves = r->capmoves = 0;
}

void rec_move_init(struct rec_move *m)
{
    memset(m, 0, sizeof *m);
    m->cpu_user_ms = m->cpu_sys_ms = m->wall_ms = m->max_rss_kb = m->referee_ms = NAN;
    m->clock_ms = NAN;
    m->before = m->after = REC_UNANALYSED;
}

int rec_add_opening(struct game_record *r, const char *move)
{
    assert(strlen(move) < GAME_MOVE_TEXT_MAX);
    char (*grown)[GAME_MOVE_TEXT_MAX] = realloc(r->opening, (size_t)(r->nopening + 1) *
                                                                sizeof *r->opening);
    if (!grown)
        return -1;
    r->opening = grown;
    strcpy(r->opening[r->nopening++], move);
    return 0;
}

int rec_add_move(struct game_record *r, const struct rec_move *m)
{
    assert(m->before == REC_UNANALYSED || m->after != REC_UNANALYSED);
    if (r->nmoves == r->capmoves) {
        int cap = r->capmoves ? 2 * r->capmoves : GROW_START;
        struct rec_move *grown = realloc(r->moves, (size_t)cap * sizeof *grown);
        if (!grown) {
            free(m->stdout_tail);
            free(m->stderr_tail);
            return -1;
        }
        r->moves = grown;
        r->capmoves = cap;
    }
    r->moves[r->nmoves++] = *m;
    return 0;
}

void rec_set_end(struct game_record *r, enum rec_result result, enum rec_reason reason,
                 const char *forfeit)
{
    assert(result >= REC_DRAWN && result <= REC_WIN_2);
    assert((reason == REC_FORFEIT) == (forfeit != NULL));
    r->result = result;
    r->reason = reason;
    snprintf(r->forfeit, sizeof r->forfeit, "%s", forfeit ? forfeit : "");
}

void rec_set_score(struct game_record *r, const int side[2], const char *label)
{
    assert(strlen(label) < sizeof r->score.of);
    assert(side[0] >= 0 && side[1] >= 0);
    r->score.set = 1;
    r->score.side[0] = side[0];
    r->score.side[1] = side[1];
    strcpy(r->score.of, label);
}

char *rec_score_text(const struct game_record *r, char *buf)
{
    buf[0] = '\0';
    if (r->score.set) {
        int first = r->result == REC_WIN_2;
        snprintf(buf, REC_SCORE_TEXT_MAX, "%d-%d", r->score.side[first], r->score.side[!first]);
    }
    return buf;
}

const char *rec_result_text(enum rec_result res)
{
    return res == REC_NO_RESULT ? "?" : result_text[res];
}

const char *rec_reason_text(const struct game_record *r)
{
    switch (r->reason) {
    case REC_NORMAL:
        return "normal";
    case REC_DRAW_RULE:
        return "draw-rule";
    case REC_FORFEIT:
        return r->forfeit;
    default:
        return "?";
    }
}

const char *rec_reason_split(const char *reason, char *kind)
{
    /* The kinds that carry a detail after ": " (crashed: SIGSEGV is a kind
     * of its own). */
    static const char *const detailed[] = { "unreadable", "illegal-move", "wrong-player",
                                            "tampered-board", "timeout", "cpu-limit",
                                            "memory-limit", "file-limit", "out-of-time",
                                            "no-output", "folder-race" };
    for (size_t k = 0; k < sizeof detailed / sizeof *detailed; k++) {
        size_t n = strlen(detailed[k]);
        if (strncmp(reason, detailed[k], n) == 0 && strncmp(reason + n, ": ", 2) == 0) {
            snprintf(kind, REC_REASON_MAX, "%s", detailed[k]);
            return reason + n + 2;
        }
    }
    snprintf(kind, REC_REASON_MAX, "%s", reason);
    return NULL;
}

const char *rec_outcome_name(enum rec_outcome o)
{
    switch (o) {
    case REC_WIN:
        return "win";
    case REC_DRAW:
        return "draw";
    case REC_LOSS:
        return "loss";
    default:
        return "unknown";
    }
}

const char *rec_winner(const struct game_record *r)
{
    return r->result == REC_WIN_1 || r->result == REC_WIN_2 ? r->player[r->result - 1] : NULL;
}

/* --- the encoder --------------------------------------------------------- */

static void add_outcomes(cJSON *obj, enum rec_outcome before, enum rec_outcome after)
{
    cJSON_AddStringToObject(obj, "before", rec_outcome_name(before));
    cJSON_AddStringToObject(obj, "after", rec_outcome_name(after));
}

static void add_time(cJSON *obj, const char *key, double ms)
{
    if (!isnan(ms))
        cJSON_AddNumberToObject(obj, key, ms);
}

/* A status or reason as its stable kind under key, its detail beside it
 * ("detail", when it has one): scripts compare the kind. */
static void add_reason(cJSON *obj, const char *key, const char *reason)
{
    char kind[REC_REASON_MAX];
    const char *detail = rec_reason_split(reason, kind);
    cJSON_AddStringToObject(obj, key, kind);
    if (detail)
        cJSON_AddStringToObject(obj, "detail", detail);
}

static cJSON *move_json(const struct rec_move *m)
{
    cJSON *j = cJSON_CreateObject();
    if (m->ply)
        cJSON_AddNumberToObject(j, "ply", m->ply);
    if (m->side)
        cJSON_AddNumberToObject(j, "side", m->side);
    if (m->has & REC_HAS_ENGINE)
        cJSON_AddStringToObject(j, "engine", m->engine);
    if (m->has & REC_HAS_MOVE) {
        if (m->move[0])
            cJSON_AddStringToObject(j, "move", m->move);
        else
            cJSON_AddNullToObject(j, "move");
    }
    add_time(j, "cpu_user_ms", m->cpu_user_ms);
    add_time(j, "cpu_sys_ms", m->cpu_sys_ms);
    add_time(j, "wall_ms", m->wall_ms);
    add_time(j, "max_rss_kb", m->max_rss_kb);
    add_time(j, "referee_ms", m->referee_ms);
    add_time(j, "clock_ms", m->clock_ms);
    if (m->has & REC_HAS_STATUS)
        add_reason(j, "status", m->status);
    if (m->stdout_tail)
        cJSON_AddStringToObject(j, "stdout_tail", m->stdout_tail);
    if (m->stderr_tail)
        cJSON_AddStringToObject(j, "stderr_tail", m->stderr_tail);
    if (m->before != REC_UNANALYSED) {
        add_outcomes(j, m->before, m->after);
        cJSON_AddBoolToObject(j, "blunder", m->blunder);
    }
    return j;
}

static cJSON *analysis_json(const struct rec_analysis *a)
{
    cJSON *j = cJSON_CreateObject();
    cJSON *counts = cJSON_AddObjectToObject(j, "blunders");
    for (int i = 0; i < a->nblunders; i++)
        cJSON_AddNumberToObject(counts, a->blunders[i].engine, (double)a->blunders[i].count);
    cJSON_AddNumberToObject(j, "unknown", (double)a->unknown);
    if (!a->has_decisive) {
        cJSON_AddNullToObject(j, "decisive");
        return j;
    }
    cJSON *d = cJSON_AddObjectToObject(j, "decisive");
    cJSON_AddNumberToObject(d, "ply", a->decisive.ply);
    cJSON_AddStringToObject(d, "engine", a->decisive.engine);
    cJSON_AddStringToObject(d, "move", a->decisive.move);
    add_outcomes(d, a->decisive.before, a->decisive.after);
    return j;
}

cJSON *rec_encode(const struct game_record *r)
{
    assert(r->nopening == 0 || r->opening);
    assert(r->nmoves == 0 || r->moves);
    assert(r->reason == REC_FORFEIT || r->forfeit[0] == '\0');
    cJSON *j = cJSON_CreateObject();
    if (!j)
        return NULL;
    if (r->index > 0)
        cJSON_AddNumberToObject(j, "index", (double)r->index);
    if (r->pair >= 0)
        cJSON_AddNumberToObject(j, "pair", (double)r->pair);
    if (r->has & REC_HAS_PLAYERS) {
        cJSON *players = cJSON_AddObjectToObject(j, "players");
        cJSON_AddStringToObject(players, "1", r->player[0]);
        cJSON_AddStringToObject(players, "2", r->player[1]);
    }
    if (r->has & REC_HAS_OPENING) {
        cJSON *list = cJSON_AddArrayToObject(j, "opening");
        for (int i = 0; i < r->nopening; i++)
            cJSON_AddItemToArray(list, cJSON_CreateString(r->opening[i]));
    }
    if (r->has & REC_HAS_MOVES) {
        cJSON *list = cJSON_AddArrayToObject(j, "moves");
        for (int i = 0; i < r->nmoves; i++)
            cJSON_AddItemToArray(list, move_json(&r->moves[i]));
    }
    if (r->result != REC_NO_RESULT)
        cJSON_AddStringToObject(j, "result", rec_result_text(r->result));
    if (r->has & REC_HAS_WINNER) {
        const char *winner = rec_winner(r);
        if (winner)
            cJSON_AddStringToObject(j, "winner", winner);
        else
            cJSON_AddNullToObject(j, "winner");
    }
    if (r->reason != REC_NO_REASON)
        add_reason(j, "reason", rec_reason_text(r));
    if (r->score.set) {
        cJSON *score = cJSON_AddObjectToObject(j, "score");
        cJSON_AddNumberToObject(score, "1", r->score.side[0]);
        cJSON_AddNumberToObject(score, "2", r->score.side[1]);
        if (r->score.of[0])
            cJSON_AddStringToObject(score, "of", r->score.of);
    }
    if (r->has & REC_HAS_ANALYSIS)
        cJSON_AddItemToObject(j, "analysis", analysis_json(&r->analysis));
    return j;
}

/* --- the decoder --------------------------------------------------------- */

static const cJSON *item(const cJSON *obj, const char *key)
{
    return cJSON_GetObjectItemCaseSensitive(obj, key);
}

/* Copies obj's string member key into buf (cap bytes): 1 when it is a
 * string, 0 when missing or not a string (buf ""), -1 (e filled) when it is
 * too long. */
static int copy_text(const cJSON *obj, const char *key, char *buf, size_t cap, struct err *e)
{
    buf[0] = '\0';
    return rec_json_text(obj, key, buf, cap, e);
}

int rec_json_text(const cJSON *json, const char *key, char *buf, size_t cap, struct err *e)
{
    const cJSON *v = item(json, key);
    if (!cJSON_IsString(v))
        return 0;
    if (strlen(v->valuestring) >= cap)
        return err_set(e, 0, 0, "a \"%s\" longer than %zu bytes", key, cap - 1);
    strcpy(buf, v->valuestring);
    return 1;
}

/* A status or reason (key) with its "detail", when it has one, into buf
 * (REC_REASON_MAX bytes) as the text the referee works with, "KIND:
 * detail"; copy_text's answers. A record from before "detail" holds the
 * whole text under key, which is taken as it is. */
static int copy_reason(const cJSON *obj, const char *key, char *buf, struct err *e)
{
    int rc = copy_text(obj, key, buf, REC_REASON_MAX, e);
    const cJSON *detail = item(obj, "detail");
    if (rc <= 0 || !cJSON_IsString(detail))
        return rc;
    size_t n = strlen(buf);
    if (n + 2 + strlen(detail->valuestring) >= REC_REASON_MAX)
        return err_set(e, 0, 0, "a \"%s\" and its \"detail\" longer than %d bytes", key,
                       REC_REASON_MAX - 1);
    snprintf(buf + n, REC_REASON_MAX - n, ": %s", detail->valuestring);
    return 1;
}

/* A number member's value as the readers always took it (cJSON's valueint:
 * whole part, saturated), 0 when missing or not a number. */
static int whole(const cJSON *obj, const char *key)
{
    const cJSON *v = item(obj, key);
    return cJSON_IsNumber(v) ? v->valueint : 0;
}

static double number(const cJSON *obj, const char *key)
{
    const cJSON *v = item(obj, key);
    return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

/* A whole number from 1 to REC_INDEX_MAX, or -1 (also for pair + 1). */
static long index_of(const cJSON *v)
{
    if (!cJSON_IsNumber(v))
        return -1;
    double d = v->valuedouble;
    /* Compared as doubles first: a cast of 1e300 to long is undefined. */
    return d >= 1 && d <= (double)REC_INDEX_MAX && d == floor(d) ? (long)d : -1;
}

/* "win", "draw", "loss", "unknown" into *o; -1 (e filled) for anything else. */
static int outcome(const cJSON *obj, const char *key, enum rec_outcome *o, struct err *e)
{
    static const enum rec_outcome all[] = { REC_WIN, REC_DRAW, REC_LOSS, REC_UNKNOWN };
    const cJSON *v = item(obj, key);
    for (size_t i = 0; cJSON_IsString(v) && i < sizeof all / sizeof *all; i++)
        if (strcmp(v->valuestring, rec_outcome_name(all[i])) == 0) {
            *o = all[i];
            return 0;
        }
    return err_set(e, 0, 0, "an analysis whose \"%s\" is not win, draw, loss or unknown", key);
}

static int decode_move(const cJSON *j, struct rec_move *m, struct err *e)
{
    rec_move_init(m);
    m->ply = whole(j, "ply");
    m->side = whole(j, "side");
    int rc = copy_text(j, "engine", m->engine, sizeof m->engine, e);
    if (rc < 0)
        return -1;
    m->has |= rc ? REC_HAS_ENGINE : 0;
    if ((rc = copy_text(j, "move", m->move, sizeof m->move, e)) < 0)
        return -1;
    m->has |= rc || cJSON_IsNull(item(j, "move")) ? REC_HAS_MOVE : 0;
    if ((rc = copy_reason(j, "status", m->status, e)) < 0)
        return -1;
    m->has |= rc ? REC_HAS_STATUS : 0;
    m->cpu_user_ms = number(j, "cpu_user_ms");
    m->cpu_sys_ms = number(j, "cpu_sys_ms");
    m->wall_ms = number(j, "wall_ms");
    m->max_rss_kb = number(j, "max_rss_kb");
    m->referee_ms = number(j, "referee_ms");
    m->clock_ms = number(j, "clock_ms");
    if (item(j, "before")) {
        if (outcome(j, "before", &m->before, e) != 0 || outcome(j, "after", &m->after, e) != 0)
            return -1;
        m->blunder = cJSON_IsTrue(item(j, "blunder"));
    }
    /* Last: nothing fails after these copies. */
    const cJSON *out = item(j, "stdout_tail"), *err = item(j, "stderr_tail");
    if ((cJSON_IsString(out) && !(m->stdout_tail = strdup(out->valuestring))) ||
        (cJSON_IsString(err) && !(m->stderr_tail = strdup(err->valuestring)))) {
        free(m->stdout_tail);
        return err_set(e, 0, 0, "out of memory");
    }
    return 0;
}

static int decode_analysis(const cJSON *j, struct rec_analysis *a, struct err *e)
{
    const cJSON *c;
    cJSON_ArrayForEach(c, item(j, "blunders")) {
        if (a->nblunders == 2 || !cJSON_IsNumber(c) || strlen(c->string) >= REC_NAME_MAX)
            return err_set(e, 0, 0, "an analysis whose \"blunders\" are not two engines' counts");
        strcpy(a->blunders[a->nblunders].engine, c->string);
        a->blunders[a->nblunders++].count = (long)c->valuedouble;
    }
    a->unknown = (long)whole(j, "unknown");
    const cJSON *d = item(j, "decisive");
    if (!cJSON_IsObject(d))
        return 0;
    a->has_decisive = 1;
    a->decisive.ply = whole(d, "ply");
    if (copy_text(d, "engine", a->decisive.engine, sizeof a->decisive.engine, e) < 0 ||
        copy_text(d, "move", a->decisive.move, sizeof a->decisive.move, e) < 0 ||
        outcome(d, "before", &a->decisive.before, e) != 0 ||
        outcome(d, "after", &a->decisive.after, e) != 0)
        return -1;
    return 0;
}

/* The result and reason strings; anything else is no result or reason. */
static int decode_end(const cJSON *j, struct game_record *r, struct err *e)
{
    const cJSON *res = item(j, "result");
    if (cJSON_IsString(res)) {
        for (int i = REC_DRAWN; i <= REC_WIN_2; i++)
            if (strcmp(res->valuestring, result_text[i]) == 0)
                r->result = (enum rec_result)i;
        if (r->result == REC_NO_RESULT)
            return err_set(e, 0, 0, "a \"result\" other than 1-0, 0-1 or 1/2-1/2");
    }
    int rc = copy_reason(j, "reason", r->forfeit, e);
    if (rc <= 0)
        return rc;
    r->reason = strcmp(r->forfeit, "normal") == 0      ? REC_NORMAL
                : strcmp(r->forfeit, "draw-rule") == 0 ? REC_DRAW_RULE
                                                       : REC_FORFEIT;
    if (r->reason != REC_FORFEIT)
        r->forfeit[0] = '\0';
    return 0;
}

/* "score": {"1": N, "2": N, "of": LABEL}; a record without one has none. */
static int decode_score(const cJSON *j, struct rec_score *sc, struct err *e)
{
    const cJSON *v = item(j, "score");
    if (!v)
        return 0;
    const cJSON *one = item(v, "1"), *two = item(v, "2");
    if (!cJSON_IsNumber(one) || !cJSON_IsNumber(two) || one->valuedouble < 0 ||
        two->valuedouble < 0 || one->valuedouble >= SCORE_MARGIN_MAX ||
        two->valuedouble >= SCORE_MARGIN_MAX || one->valuedouble != floor(one->valuedouble) ||
        two->valuedouble != floor(two->valuedouble))
        return err_set(e, 0, 0, "a \"score\" without two whole numbers \"1\" and \"2\"");
    if (copy_text(v, "of", sc->of, sizeof sc->of, e) < 0)
        return -1;
    sc->set = 1;
    sc->side[0] = one->valueint;
    sc->side[1] = two->valueint;
    return 0;
}

static int decode(const cJSON *j, struct game_record *r, struct err *e)
{
    r->index = index_of(item(j, "index"));
    const cJSON *pair = item(j, "pair");
    r->pair = cJSON_IsNumber(pair) && pair->valuedouble == 0 ? 0 : index_of(pair);
    const cJSON *players = item(j, "players");
    if (cJSON_IsObject(players)) {
        r->has |= REC_HAS_PLAYERS;
        if (copy_text(players, "1", r->player[0], REC_NAME_MAX, e) < 0 ||
            copy_text(players, "2", r->player[1], REC_NAME_MAX, e) < 0)
            return -1;
    }
    const cJSON *v;
    r->has |= item(j, "opening") ? REC_HAS_OPENING : 0;
    cJSON_ArrayForEach(v, item(j, "opening")) {
        if (!cJSON_IsString(v) || strlen(v->valuestring) >= GAME_MOVE_TEXT_MAX)
            return err_set(e, 0, 0, "an opening move that is not a move's text");
        if (rec_add_opening(r, v->valuestring) != 0)
            return err_set(e, 0, 0, "out of memory");
    }
    r->has |= item(j, "moves") ? REC_HAS_MOVES : 0;
    cJSON_ArrayForEach(v, item(j, "moves")) {
        struct rec_move m;
        if (decode_move(v, &m, e) != 0)
            return -1;
        if (rec_add_move(r, &m) != 0)
            return err_set(e, 0, 0, "out of memory");
    }
    r->has |= item(j, "winner") ? REC_HAS_WINNER : 0;
    if (decode_end(j, r, e) != 0)
        return -1;
    if (decode_score(j, &r->score, e) != 0)
        return -1;
    const cJSON *an = item(j, "analysis");
    if (an) {
        r->has |= REC_HAS_ANALYSIS;
        if (decode_analysis(an, &r->analysis, e) != 0)
            return -1;
    }
    return 0;
}

int rec_decode(const cJSON *json, struct game_record *r, struct err *e)
{
    assert(json != NULL);
    rec_init(r, -1, -1);
    r->has = 0;
    if (decode(json, r, e) == 0)
        return 0;
    rec_free(r);
    return -1;
}

int rec_send(const struct game_record *r, int fd)
{
    cJSON *gj = rec_encode(r);
    char *text = gj ? cJSON_PrintUnformatted(gj) : NULL;
    int rc = text && tf_write_all(fd, text, strlen(text)) == 0 ? 0 : -1;
    free(text);
    cJSON_Delete(gj);
    return rc;
}
