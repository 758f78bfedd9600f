/*
 * playsrv.c - `referee play` (playsrv.h): the HTTP server, the games it
 * holds and their JSON API. libmicrohttpd parses HTTP; this file only
 * answers. The server runs in the caller's thread (MHD's external select
 * loop), so that a stop flag set by a signal ends it between requests and
 * no lock is needed: an engine's move holds up other pages for at most its
 * time limit.
 */
#include "arena/playsrv.h"

#include <assert.h>
#include <arpa/inet.h>
#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <microhttpd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <time.h>
#include <unistd.h>
#include "arena/clock.h"
#include "referee/journal/header.h"
#include "arena/journal.h"
#include "arena/limits.h"
#include "arena/player.h"
#include "arena/rules.h"
#include "arena/search.h"

enum side_kind { SIDE_PERSON, SIDE_BUILTIN, SIDE_ENGINE };

struct side {
    enum side_kind kind;
    char name[REC_NAME_MAX];     /* as the page and the record name it */
    struct player_opts p;        /* SIDE_BUILTIN */
    struct search s;             /* SIDE_BUILTIN; initialised when has_search */
    int has_search;
    const struct spec *eng;      /* SIDE_ENGINE */
    struct play_solo *solo;      /* SIDE_ENGINE while the game goes on */
    void *weights;               /* the learned players' (the trainer's) */
};

struct pgame {
    long id;                     /* 0: a free slot */
    struct side side[2];
    unsigned char start[GAME_MAX_STATE], pos[GAME_MAX_STATE];
    int *moves, nmoves, capmoves;
    int quiet;                   /* plies since an irreversible one (rules.h) */
    struct game_record rec;
    int over;
    time_t last;                 /* the last request's time */
};

/* A training series of the learning window. */
struct ptrain {
    long id;                     /* 0: a free slot */
    void *series;                /* the trainer's */
    long long games, played;
    long long win, draw, loss;   /* the first learner's, over the series */
    int learners;                /* 2 against "learning" */
    time_t last;
};

struct server {
    const struct playsrv_opts *o;
    const struct game *g;
    struct pgame games[PLAYSRV_MAX_GAMES];
    struct ptrain trains[PLAYSRV_MAX_GAMES];
    long next_id;
    /* The players a side can be besides the engines: "person" and the
     * built-in players the game supports, searches at the rules' depth;
     * the journal's header names them (reports count only named players). */
    char builtin[8][REC_NAME_MAX];
    int nbuiltin;
    int journal_fd;              /* -1: none */
    long journal_games;
};

/* One request's body, collected as MHD hands it over. */
struct body {
    char buf[PLAYSRV_BODY_CAP + 1];
    size_t len;
    int too_big;
};

struct reply {
    unsigned status;
    cJSON *json;                 /* the answer, or NULL with error */
    char error[256];
};

static void fail(struct reply *r, unsigned status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void fail(struct reply *r, unsigned status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->error, sizeof r->error, fmt, ap);
    va_end(ap);
    r->status = status;
}

/* ---- the players ------------------------------------------------------ */

static void side_close_engine(struct side *s)
{
    play_solo_close(s->solo);
    s->solo = NULL;
}

static void side_free(const struct server *sv, struct side *s)
{
    side_close_engine(s);
    if (s->weights)
        sv->o->trainer->weights_free(s->weights);
    if (s->has_search)
        search_free(&s->s);
    memset(s, 0, sizeof *s);
}

/* The learned players' weights: text (a weights file; NULL: the shipped
 * one) read by the trainer. 0, or -1 with r failed. */
static int side_weights(struct server *sv, struct side *s, const char *text, struct reply *r)
{
    struct err e;
    if (sv->o->trainer->weights_read(text, text ? strlen(text) : 0, &s->weights, &e) == 0) {
        s->p.weights = s->weights;
        return 0;
    }
    if (text && e.line)
        return fail(r, 422, "player %.40s's weights: %d:%d: %s", s->name, e.line, e.col, e.msg), -1;
    return fail(r, 422, "player %.40s's weights: %s", s->name, e.msg), -1;
}

/* Sets s from the page's name of a player (weights: a learned player's
 * weights file, NULL for the shipped one): 0, or -1 with r failed. */
static int side_parse(struct server *sv, struct side *s, const char *name, const char *weights,
                      struct reply *r)
{
    memset(s, 0, sizeof *s);
    snprintf(s->name, sizeof s->name, "%s", name);
    if (strcmp(name, "person") == 0)
        return 0;
    for (int i = 0; i < sv->o->nengines; i++)
        if (strcmp(name, sv->o->engines[i].name) == 0) {
            s->kind = SIDE_ENGINE;
            s->eng = &sv->o->engines[i];
            return 0;
        }
    int offered = 0;
    for (int i = 1; i < sv->nbuiltin; i++)
        offered |= strcmp(name, sv->builtin[i]) == 0;
    if (!offered)
        return fail(r, 422, "unknown player '%.60s'", name), -1;
    char kind[32];
    const char *colon = strchr(name, ':');
    size_t n = colon ? (size_t)(colon - name) : strlen(name);
    snprintf(kind, sizeof kind, "%.*s", (int)(n < sizeof kind ? n : sizeof kind - 1), name);
    int k = player_parse(kind);
    if (k < 0 || strlen(name) >= sizeof s->name)
        return fail(r, 422, "unknown player '%.60s'", name), -1;
    if (!player_supports(sv->g, (enum player_kind)k))
        return fail(r, 422, "player '%.60s' cannot play %s", name, sv->g->name), -1;
    s->kind = SIDE_BUILTIN;
    s->p.kind = (enum player_kind)k;
    s->p.depth = sv->o->rules->depth;
    s->p.seed = (uint64_t)time(NULL);
    if (colon) {
        char *end;
        long d = strtol(colon + 1, &end, 10);
        if (*end || d < 1 || d > SEARCH_MAX_DEPTH)
            return fail(r, 422, "player '%.60s': the depth must be 1 to %d", name,
                        SEARCH_MAX_DEPTH), -1;
        s->p.depth = (int)d;
    }
    if ((k == PLAYER_QLEARN || k == PLAYER_QLEARN_AB) && side_weights(sv, s, weights, r) != 0)
        return -1;
    struct search_opts so = player_search_opts(sv->g, &s->p, (size_t)TT_DEFAULT_MB << 20);
    if (search_init(&s->s, sv->g, &so) != 0)
        return fail(r, 503, "out of memory"), -1;
    s->has_search = 1;
    return 0;
}

static int learning(const struct server *sv)
{
    return sv->o->trainer && sv->g->learned;
}

/* ---- games ------------------------------------------------------------ */

static void game_free(const struct server *sv, struct pgame *pg)
{
    for (int s = 0; s < 2; s++)
        side_free(sv, &pg->side[s]);
    free(pg->moves);
    rec_free(&pg->rec);
    memset(pg, 0, sizeof *pg);
}

static struct pgame *game_of(struct server *sv, const cJSON *req, struct reply *r)
{
    const cJSON *id = cJSON_GetObjectItemCaseSensitive(req, "id");
    if (!cJSON_IsNumber(id))
        return fail(r, 400, "\"id\" must be a number"), NULL;
    for (int i = 0; i < PLAYSRV_MAX_GAMES; i++)
        if (sv->games[i].id && sv->games[i].id == (long)id->valuedouble) {
            sv->games[i].last = time(NULL);
            return &sv->games[i];
        }
    fail(r, 404, "no game %.0f (closed, or never started)", id->valuedouble);
    return NULL;
}

/* A free slot: an empty one, else the one idle longest if idle long enough. */
static struct pgame *free_slot(struct server *sv)
{
    struct pgame *old = NULL;
    for (int i = 0; i < PLAYSRV_MAX_GAMES; i++) {
        if (!sv->games[i].id)
            return &sv->games[i];
        if (!old || sv->games[i].last < old->last)
            old = &sv->games[i];
    }
    if (time(NULL) - old->last < PLAYSRV_IDLE_S)
        return NULL;
    game_free(sv, old);
    return old;
}

/* The record goes to the journal; the engines stop. */
static void game_finish(struct server *sv, struct pgame *pg, enum rec_result res,
                        enum rec_reason why, const char *forfeit)
{
    rec_set_end(&pg->rec, res, why, forfeit);
    if (why == REC_NORMAL && sv->g->score) {   /* the game's own result, as play.c keeps it */
        int score[2];
        sv->g->score->final(pg->pos, score);
        rec_set_score(&pg->rec, score, sv->g->score->label);
    }
    pg->over = 1;
    for (int s = 0; s < 2; s++)
        side_close_engine(&pg->side[s]);
    if (sv->journal_fd < 0)
        return;
    pg->rec.index = ++sv->journal_games;
    pg->rec.pair = (pg->rec.index + 1) / 2;
    cJSON *j = rec_encode(&pg->rec);
    char *line = j ? cJSON_PrintUnformatted(j) : NULL;
    struct err e;
    if (!line || journal_append(sv->journal_fd, line, &e) != 0)
        fprintf(stderr, "play: %s: the game was not written: %s\n", sv->o->journal,
                line ? e.msg : "out of memory");
    free(line);
    cJSON_Delete(j);
}

static int push_move(struct pgame *pg, int move)
{
    if (pg->nmoves == pg->capmoves) {
        int cap = pg->capmoves ? 2 * pg->capmoves : 64;
        int *m = realloc(pg->moves, (size_t)cap * sizeof *m);
        if (!m)
            return -1;
        pg->moves = m;
        pg->capmoves = cap;
    }
    pg->moves[pg->nmoves++] = move;
    return 0;
}

/* Plays move (legal) with its record m; ends the game when it is over. */
static int apply_move(struct server *sv, struct pgame *pg, int move, struct rec_move *m,
                      struct reply *r)
{
    const struct game *g = sv->g;
    m->ply = pg->nmoves + 1;
    m->side = g->to_move(pg->pos);
    g->move_text(pg->pos, move, m->move, sizeof m->move);
    m->has |= REC_HAS_MOVE;
    if (push_move(pg, move) != 0 || rec_add_move(&pg->rec, m) != 0)
        return fail(r, 503, "out of memory"), -1;
    pg->quiet = rules_quiet_after(g, pg->pos, move, pg->quiet);
    g->play(pg->pos, move);
    enum rec_reason why;
    enum rec_result res = rules_end(g, pg->pos, sv->o->rules->draw_plies, pg->quiet, &why);
    if (res != REC_NO_RESULT)
        game_finish(sv, pg, res, why, NULL);
    return 0;
}

/* ---- the state as JSON ------------------------------------------------- */

/* The cells move changes, as [row, column] pairs of the board file. */
static cJSON *changed_cells(const char *before, const char *after)
{
    cJSON *cells = cJSON_CreateArray();
    int row = 0, col = 0;
    for (size_t i = 0; before[i] && after[i]; i++) {
        if (before[i] == '\n') {
            row++, col = 0;
            continue;
        }
        if (before[i] != after[i]) {
            cJSON *rc = cJSON_CreateArray();
            cJSON_AddItemToArray(rc, cJSON_CreateNumber(row));
            cJSON_AddItemToArray(rc, cJSON_CreateNumber(col));
            cJSON_AddItemToArray(cells, rc);
        }
        col++;
    }
    return cells;
}

static void add_legal(const struct game *g, const struct pgame *pg, const char *board, cJSON *st)
{
    cJSON *legal = cJSON_AddArrayToObject(st, "legal");
    if (pg->over)
        return;
    int moves[GAME_MAX_MOVES], n = g->gen(pg->pos, moves);
    /* The last line (the side to move) changes with every move: not a cell. */
    size_t body = strlen(board);
    while (body && board[body - 1] == '\n')
        body--;
    while (body && board[body - 1] != '\n')
        body--;
    for (int i = 0; i < n; i++) {
        unsigned char next[GAME_MAX_STATE];
        char after[GAME_FORMAT_MAX], text[GAME_MOVE_TEXT_MAX], b[GAME_FORMAT_MAX];
        memcpy(next, pg->pos, g->state_size);
        g->move_text(pg->pos, moves[i], text, sizeof text);
        g->play(next, moves[i]);
        g->format(next, after);
        snprintf(b, sizeof b, "%.*s", (int)body, board);
        after[body < strlen(after) ? body : strlen(after)] = '\0';
        cJSON *one = cJSON_CreateObject();
        cJSON_AddStringToObject(one, "move", text);
        cJSON_AddItemToObject(one, "cells", changed_cells(b, after));
        cJSON_AddItemToArray(legal, one);
    }
}

static void add_report(const struct game *g, const struct pgame *pg, cJSON *st)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return;
    g->print(f, pg->pos);
    if (pg->over && g->print_over)
        g->print_over(f, pg->pos);
    fclose(f);
    cJSON_AddStringToObject(st, "report", text ? text : "");
    free(text);
}

static cJSON *state_json(struct server *sv, const struct pgame *pg)
{
    const struct game *g = sv->g;
    char board[GAME_FORMAT_MAX];
    g->format(pg->pos, board);
    cJSON *st = cJSON_CreateObject();
    cJSON_AddNumberToObject(st, "id", (double)pg->id);
    cJSON_AddStringToObject(st, "board", board);
    cJSON_AddNumberToObject(st, "to_move", g->to_move(pg->pos));
    cJSON *pl = cJSON_AddArrayToObject(st, "players");
    for (int s = 0; s < 2; s++)
        cJSON_AddItemToArray(pl, cJSON_CreateString(pg->side[s].name));
    cJSON *mv = cJSON_AddArrayToObject(st, "moves");
    for (int i = 0; i < pg->rec.nmoves; i++) {
        const struct rec_move *m = &pg->rec.moves[i];
        cJSON *one = cJSON_CreateObject();
        cJSON_AddNumberToObject(one, "side", m->side);
        cJSON_AddStringToObject(one, "move", m->move);
        double cpu = m->cpu_user_ms + m->cpu_sys_ms;
        if (isnan(cpu))
            cJSON_AddNullToObject(one, "cpu_ms");
        else
            cJSON_AddNumberToObject(one, "cpu_ms", cpu);
        cJSON_AddStringToObject(one, "status", m->status);
        cJSON_AddItemToArray(mv, one);
    }
    cJSON_AddBoolToObject(st, "over", pg->over);
    cJSON_AddStringToObject(st, "result", pg->over ? rec_result_text(pg->rec.result) : "");
    cJSON_AddStringToObject(st, "reason", pg->over ? rec_reason_text(&pg->rec) : "");
    char score[REC_SCORE_TEXT_MAX], text[REC_SCORE_TEXT_MAX + REC_LABEL_MAX + 1];
    rec_score_text(&pg->rec, score);   /* the game's own score, the winner's first */
    snprintf(text, sizeof text, "%s%s%s", score, pg->rec.score.set ? " " : "",
             pg->rec.score.set ? pg->rec.score.of : "");
    cJSON_AddStringToObject(st, "score", text);
    add_legal(g, pg, board, st);
    add_report(g, pg, st);
    return st;
}

/* ---- the API ------------------------------------------------------------ */

static void api_new(struct server *sv, const cJSON *req, struct reply *r)
{
    const cJSON *pl = cJSON_GetObjectItemCaseSensitive(req, "players");
    if (!cJSON_IsArray(pl) || cJSON_GetArraySize(pl) != 2 ||
        !cJSON_IsString(cJSON_GetArrayItem(pl, 0)) || !cJSON_IsString(cJSON_GetArrayItem(pl, 1)))
        return fail(r, 400, "\"players\" must be two names");
    const cJSON *wl = cJSON_GetObjectItemCaseSensitive(req, "weights");
    if (wl && !(cJSON_IsArray(wl) && cJSON_GetArraySize(wl) == 2))
        return fail(r, 400, "\"weights\" must be two weights files (or nulls)");
    const char *weights[2] = { NULL, NULL };
    for (int s = 0; wl && s < 2; s++) {
        const cJSON *w = cJSON_GetArrayItem(wl, s);
        if (!cJSON_IsNull(w) && !cJSON_IsString(w))
            return fail(r, 400, "\"weights\" must be two weights files (or nulls)");
        weights[s] = cJSON_IsString(w) ? w->valuestring : NULL;
    }
    struct pgame *pg = free_slot(sv);
    if (!pg)
        return fail(r, 503, "%d games are open: close one", PLAYSRV_MAX_GAMES);
    for (int s = 0; s < 2; s++)
        if (side_parse(sv, &pg->side[s], cJSON_GetArrayItem(pl, s)->valuestring, weights[s],
                       r) != 0) {
            game_free(sv, pg);
            return;
        }
    struct err e;
    for (int s = 0; s < 2; s++)
        if (pg->side[s].kind == SIDE_ENGINE &&
            play_solo_open(&pg->side[s].solo, sv->o->rules, pg->side[s].eng, &e) != 0) {
            fail(r, 503, "engine %s: %s", pg->side[s].name, e.msg);
            game_free(sv, pg);
            return;
        }
    game_init(sv->g, pg->start);
    memcpy(pg->pos, pg->start, sv->g->state_size);
    rec_init(&pg->rec, 1, 1);
    /* Both are REC_NAME_MAX arrays, the name NUL-terminated (a copy, not
     * snprintf: GCC's -Wrestrict at -O1 cannot tell the two apart). */
    for (int s = 0; s < 2; s++)
        memcpy(pg->rec.player[s], pg->side[s].name, REC_NAME_MAX);
    pg->id = ++sv->next_id;
    pg->last = time(NULL);
    r->json = state_json(sv, pg);
}

static const char *side_word(const struct side *s)
{
    return s->kind == SIDE_PERSON ? "a person" : "a computer player";
}

static void api_move(struct server *sv, const cJSON *req, struct reply *r)
{
    struct pgame *pg = game_of(sv, req, r);
    if (!pg)
        return;
    const cJSON *mv = cJSON_GetObjectItemCaseSensitive(req, "move");
    if (!cJSON_IsString(mv))
        return fail(r, 400, "\"move\" must be a string");
    if (pg->over)
        return fail(r, 409, "the game is over (%s)", rec_reason_text(&pg->rec));
    int who = sv->g->to_move(pg->pos);
    const struct side *s = &pg->side[who - 1];
    if (s->kind != SIDE_PERSON)
        return fail(r, 409, "it is player %d's turn, %s (%s)", who, side_word(s), s->name);
    int move;
    if (sv->g->parse_move(pg->pos, mv->valuestring, &move) != 0)
        return fail(r, 422, "illegal move '%.40s': not a legal move of player %d here", mv->valuestring,
                    who);
    struct rec_move m;
    rec_move_init(&m);
    snprintf(m.engine, sizeof m.engine, "%s", s->name);
    snprintf(m.status, sizeof m.status, "ok");
    m.has |= REC_HAS_ENGINE | REC_HAS_STATUS;
    m.cpu_user_ms = m.cpu_sys_ms = m.wall_ms = m.max_rss_kb = m.referee_ms = 0;
    if (apply_move(sv, pg, move, &m, r) == 0)
        r->json = state_json(sv, pg);
}

/* The built-in player's move, its CPU measured around the search. */
static int builtin_move(struct side *s, const void *pos, struct rec_move *m)
{
    struct search_result res;
    uint64_t c0 = clock_cpu_ns(), w0 = clock_wall_ns();
    player_choose(&s->s, &s->p, pos, &res);
    m->cpu_user_ms = (double)(clock_cpu_ns() - c0) / 1e6;
    m->wall_ms = (double)(clock_wall_ns() - w0) / 1e6;
    m->cpu_sys_ms = m->max_rss_kb = m->referee_ms = 0;
    snprintf(m->engine, sizeof m->engine, "%s", s->name);
    snprintf(m->status, sizeof m->status, "ok");
    m->has |= REC_HAS_ENGINE | REC_HAS_STATUS;
    return res.move;
}

static void api_computer(struct server *sv, const cJSON *req, struct reply *r)
{
    struct pgame *pg = game_of(sv, req, r);
    if (!pg)
        return;
    if (pg->over)
        return fail(r, 409, "the game is over (%s)", rec_reason_text(&pg->rec));
    int who = sv->g->to_move(pg->pos);
    struct side *s = &pg->side[who - 1];
    if (s->kind == SIDE_PERSON)
        return fail(r, 409, "it is player %d's turn, a person's", who);
    struct rec_move m;
    rec_move_init(&m);
    int move;
    if (s->kind == SIDE_BUILTIN) {
        move = builtin_move(s, pg->pos, &m);
        if (move < 0)
            return fail(r, 503, "player %s found no move (out of memory)", s->name);
    } else {
        struct err e;
        int depth = s->eng->depth ? s->eng->depth : sv->o->rules->depth;
        int rc = play_solo_move(s->solo, pg->pos, depth, &m, &e);
        if (rc < 0)
            return fail(r, 503, "engine %s: %s", s->name, e.msg);
        if (rc == PLAY_CANCELLED)
            return fail(r, 503, "the server is stopping");
        if (strcmp(m.status, "ok") != 0) {
            m.ply = pg->nmoves + 1;
            m.side = who;
            char reason[REC_REASON_MAX];
            snprintf(reason, sizeof reason, "%s", m.status);
            if (rec_add_move(&pg->rec, &m) != 0)
                return fail(r, 503, "out of memory");
            game_finish(sv, pg, who == 1 ? REC_WIN_2 : REC_WIN_1, REC_FORFEIT, reason);
            r->json = state_json(sv, pg);
            return;
        }
        if (sv->g->parse_move(pg->pos, m.move, &move) != 0) {
            free(m.stdout_tail);
            free(m.stderr_tail);
            return fail(r, 500, "engine %s: move '%s' not legal after judging", s->name, m.move);
        }
    }
    if (apply_move(sv, pg, move, &m, r) == 0)
        r->json = state_json(sv, pg);
}

/* Back to the person's turn before their last move: the plies after it and
 * that move are taken back. */
static void api_undo(struct server *sv, const cJSON *req, struct reply *r)
{
    struct pgame *pg = game_of(sv, req, r);
    if (!pg)
        return;
    if (pg->side[0].kind != SIDE_PERSON && pg->side[1].kind != SIDE_PERSON)
        return fail(r, 409, "no person plays this game");
    if (pg->over && pg->rec.reason == REC_FORFEIT)
        return fail(r, 409, "the game ended by a forfeit (%s): start a new one", pg->rec.forfeit);
    int keep = pg->nmoves;
    while (keep > 0 && pg->side[pg->rec.moves[keep - 1].side - 1].kind != SIDE_PERSON)
        keep--;
    if (keep == 0)
        return fail(r, 409, "the person has not moved yet");
    keep--;
    const struct game *g = sv->g;
    memcpy(pg->pos, pg->start, g->state_size);
    pg->quiet = 0;
    for (int i = 0; i < keep; i++) {
        pg->quiet = rules_quiet_after(g, pg->pos, pg->moves[i], pg->quiet);
        g->play(pg->pos, pg->moves[i]);
    }
    for (int i = keep; i < pg->rec.nmoves; i++) {
        free(pg->rec.moves[i].stdout_tail);
        free(pg->rec.moves[i].stderr_tail);
        pg->rec.moves[i].stdout_tail = pg->rec.moves[i].stderr_tail = NULL;
    }
    pg->nmoves = pg->rec.nmoves = keep;
    pg->rec.result = REC_NO_RESULT;
    pg->rec.reason = REC_NO_REASON;
    memset(&pg->rec.score, 0, sizeof pg->rec.score);
    if (pg->over) {   /* the engines were stopped at the end: start them again */
        struct err e;
        for (int s = 0; s < 2; s++)
            if (pg->side[s].kind == SIDE_ENGINE &&
                play_solo_open(&pg->side[s].solo, sv->o->rules, pg->side[s].eng, &e) != 0)
                return fail(r, 503, "engine %s: %s", pg->side[s].name, e.msg);
    }
    pg->over = 0;
    r->json = state_json(sv, pg);
}

static void api_close(struct server *sv, const cJSON *req, struct reply *r)
{
    struct pgame *pg = game_of(sv, req, r);
    if (!pg)
        return;
    game_free(sv, pg);
    r->json = cJSON_CreateObject();
    cJSON_AddBoolToObject(r->json, "closed", 1);
}

static void api_info(struct server *sv, struct reply *r)
{
    const struct game *g = sv->g;
    const struct game_drawing *d = g->drawing;
    static const char *const layouts[] = { "grid", "checker", "rows" };
    cJSON *j = r->json = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "game", g->name);
    cJSON_AddStringToObject(j, "title", g->title);
    cJSON_AddStringToObject(j, "layout", layouts[d ? d->layout : GAME_DRAW_GRID]);
    cJSON_AddStringToObject(j, "labels", d && d->labels ? d->labels : "");
    cJSON_AddStringToObject(j, "style", d && d->style ? d->style : "");
    cJSON_AddBoolToObject(j, "learning", learning(sv));
    cJSON *pl = cJSON_AddArrayToObject(j, "players");
    for (int i = 0; i < sv->nbuiltin; i++)
        cJSON_AddItemToArray(pl, cJSON_CreateString(sv->builtin[i]));
    cJSON *en = cJSON_AddArrayToObject(j, "engines");
    for (int i = 0; i < sv->o->nengines; i++) {
        cJSON_AddItemToArray(pl, cJSON_CreateString(sv->o->engines[i].name));
        cJSON_AddItemToArray(en, cJSON_CreateString(sv->o->engines[i].name));
    }
}

static void list_builtin(struct server *sv)
{
    static const enum player_kind kinds[] = { PLAYER_RANDOM, PLAYER_ALPHABETA, PLAYER_MINIMAX,
                                              PLAYER_PERFECT, PLAYER_QLEARN, PLAYER_QLEARN_AB };
    snprintf(sv->builtin[sv->nbuiltin++], REC_NAME_MAX, "person");
    for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++) {
        int learned = kinds[k] == PLAYER_QLEARN || kinds[k] == PLAYER_QLEARN_AB;
        if (!player_supports(sv->g, kinds[k]) || (learned && !sv->o->trainer))
            continue;
        if (kinds[k] == PLAYER_ALPHABETA || kinds[k] == PLAYER_MINIMAX ||
            kinds[k] == PLAYER_QLEARN_AB)
            snprintf(sv->builtin[sv->nbuiltin++], REC_NAME_MAX, "%s:%d",
                     player_name(kinds[k]), sv->o->rules->depth);
        else
            snprintf(sv->builtin[sv->nbuiltin++], REC_NAME_MAX, "%s", player_name(kinds[k]));
    }
}

/* ---- the learning window --------------------------------------------- */

static void train_free(struct server *sv, struct ptrain *t)
{
    if (t->series)
        sv->o->trainer->free(t->series);
    memset(t, 0, sizeof *t);
}

static struct ptrain *train_of(struct server *sv, double id, struct reply *r)
{
    for (int i = 0; i < PLAYSRV_MAX_GAMES; i++)
        if (sv->trains[i].id && sv->trains[i].id == (long)id) {
            sv->trains[i].last = time(NULL);
            return &sv->trains[i];
        }
    fail(r, 404, "no training %.0f (closed, or never started)", id);
    return NULL;
}

static cJSON *train_json(const struct ptrain *t)
{
    cJSON *j = cJSON_CreateObject();
    cJSON_AddNumberToObject(j, "id", (double)t->id);
    cJSON_AddNumberToObject(j, "played", (double)t->played);
    cJSON_AddNumberToObject(j, "games", (double)t->games);
    cJSON_AddNumberToObject(j, "win", (double)t->win);
    cJSON_AddNumberToObject(j, "draw", (double)t->draw);
    cJSON_AddNumberToObject(j, "loss", (double)t->loss);
    cJSON_AddNumberToObject(j, "learners", t->learners);
    cJSON_AddBoolToObject(j, "done", t->played == t->games);
    return j;
}

/* A number of req in [lo, hi], def when missing: 0, or -1 with r failed. */
static int number_in(const cJSON *req, const char *key, double lo, double hi, double def,
                     double *out, struct reply *r)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(req, key);
    *out = def;
    if (!v)
        return 0;
    if (!cJSON_IsNumber(v) || !(v->valuedouble >= lo && v->valuedouble <= hi))
        return fail(r, 400, "\"%s\" must be a number from %g to %g", key, lo, hi), -1;
    *out = v->valuedouble;
    return 0;
}

static void api_train_start(struct server *sv, const cJSON *req, struct reply *r)
{
    if (!learning(sv))
        return fail(r, 409, "%s has no learning player", sv->g->name);
    const cJSON *opp = cJSON_GetObjectItemCaseSensitive(req, "opponent");
    double games, seed;
    struct playsrv_train_opts o = { .opponent = cJSON_IsString(opp) ? opp->valuestring : "" };
    if (number_in(req, "games", 1, (double)PLAYSRV_TRAIN_MAX_GAMES, 1000, &games, r) ||
        number_in(req, "gamma", 0, 1, 0.95, &o.gamma, r) ||
        number_in(req, "alpha", 0, 1e6, 0.2, &o.alpha, r) ||
        number_in(req, "epsilon", 0, 1, 0.1, &o.epsilon, r) ||
        number_in(req, "switch", 0, 1, 0.3, &o.switch_prob, r) ||
        number_in(req, "seed", 0, 1e15, 1, &seed, r))
        return;
    o.games = (long long)games;
    o.seed = (uint64_t)seed;
    struct ptrain *t = NULL;
    for (int i = 0; i < PLAYSRV_MAX_GAMES && !t; i++)
        if (!sv->trains[i].id)
            t = &sv->trains[i];
    if (!t)
        return fail(r, 503, "%d trainings are open: close one", PLAYSRV_MAX_GAMES);
    struct err e;
    if (sv->o->trainer->start(&t->series, &o, &e) != 0)
        return fail(r, 422, "%s", e.msg);
    t->id = ++sv->next_id;
    t->games = o.games;
    t->learners = strcmp(o.opponent, "learning") == 0 ? 2 : 1;
    t->last = time(NULL);
    r->json = train_json(t);
}

static void api_train_step(struct server *sv, const cJSON *req, struct reply *r)
{
    const cJSON *id = cJSON_GetObjectItemCaseSensitive(req, "id");
    double n;
    if (!cJSON_IsNumber(id))
        return fail(r, 400, "\"id\" must be a number");
    struct ptrain *t = train_of(sv, id->valuedouble, r);
    if (!t || number_in(req, "games", 1, PLAYSRV_TRAIN_STEP, PLAYSRV_TRAIN_STEP, &n, r))
        return;
    for (long k = 0; k < (long)n && t->played < t->games; k++, t->played++) {
        int res = sv->o->trainer->play(t->series);
        t->win += res > 0, t->draw += res == 0, t->loss += res < 0;
    }
    r->json = train_json(t);
}

static void api_train_close(struct server *sv, const cJSON *req, struct reply *r)
{
    const cJSON *id = cJSON_GetObjectItemCaseSensitive(req, "id");
    if (!cJSON_IsNumber(id))
        return fail(r, 400, "\"id\" must be a number");
    struct ptrain *t = train_of(sv, id->valuedouble, r);
    if (!t)
        return;
    train_free(sv, t);
    r->json = cJSON_CreateObject();
    cJSON_AddBoolToObject(r->json, "closed", 1);
}

/* GET: the weights file as an attachment, or 0 with r failed. */
static enum MHD_Result send_weights(struct server *sv, struct MHD_Connection *c,
                                    struct reply *r, int *sent)
{
    const char *id = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "id");
    const char *which = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "learner");
    *sent = 0;
    struct ptrain *t = train_of(sv, id ? atof(id) : 0, r);
    if (!t)
        return MHD_YES;
    int learner = which ? atoi(which) : 1;
    char *text = malloc(PLAYSRV_WEIGHTS_CAP);
    size_t len = text && (learner == 1 || learner == 2)
                     ? sv->o->trainer->weights(t->series, learner, text, PLAYSRV_WEIGHTS_CAP) : 0;
    if (!len) {
        free(text);
        fail(r, 404, "no learner %.10s in training %ld", which ? which : "1", t->id);
        return MHD_YES;
    }
    struct MHD_Response *resp = MHD_create_response_from_buffer(len, text, MHD_RESPMEM_MUST_FREE);
    if (!resp)
        return MHD_NO;
    char disp[96];
    snprintf(disp, sizeof disp, "attachment; filename=\"learner%d-%lld.weights\"", learner,
             t->played);
    MHD_add_response_header(resp, "Content-Type", "text/plain; charset=utf-8");
    MHD_add_response_header(resp, "Content-Disposition", disp);
    enum MHD_Result ret = MHD_queue_response(c, 200, resp);
    MHD_destroy_response(resp);
    *sent = 1;
    return ret;
}

/* ---- HTTP --------------------------------------------------------------- */

static void answer_api(struct server *sv, const char *url, const struct body *b,
                       struct MHD_Connection *c, struct reply *r)
{
    if (strcmp(url, "/api/info") == 0)
        return api_info(sv, r);
    if (strcmp(url, "/api/state") == 0) {
        const char *id = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "id");
        cJSON *req = cJSON_CreateObject();
        char *end = NULL;
        double v = id ? strtod(id, &end) : 0;
        if (id && *id && !*end)
            cJSON_AddNumberToObject(req, "id", v);
        struct pgame *pg = game_of(sv, req, r);
        cJSON_Delete(req);
        if (pg)
            r->json = state_json(sv, pg);
        return;
    }
    static const struct { const char *url; void (*fn)(struct server *, const cJSON *,
                                                       struct reply *); } posts[] = {
        { "/api/new", api_new }, { "/api/move", api_move }, { "/api/computer", api_computer },
        { "/api/undo", api_undo }, { "/api/close", api_close },
        { "/api/train/start", api_train_start }, { "/api/train/step", api_train_step },
        { "/api/train/close", api_train_close },
    };
    for (size_t k = 0; k < sizeof posts / sizeof *posts; k++) {
        if (strcmp(url, posts[k].url) != 0)
            continue;
        if (b->too_big)
            return fail(r, 413, "the request's body is over %d bytes", PLAYSRV_BODY_CAP);
        const char *bad = NULL;
        cJSON *req = cJSON_ParseWithLengthOpts(b->buf, b->len, &bad, 0);
        if (!cJSON_IsObject(req)) {
            cJSON_Delete(req);
            return fail(r, 400, "malformed JSON at byte %ld: an object is expected",
                        req || !bad ? 0L : (long)(bad - b->buf));
        }
        posts[k].fn(sv, req, r);
        cJSON_Delete(req);
        return;
    }
    fail(r, 404, "no such page: %.100s", url);
}

static enum MHD_Result send_text(struct MHD_Connection *c, unsigned status, const char *type,
                                 char *text, enum MHD_ResponseMemoryMode mode)
{
    struct MHD_Response *resp = MHD_create_response_from_buffer(strlen(text), text, mode);
    if (!resp)
        return MHD_NO;
    MHD_add_response_header(resp, "Content-Type", type);
    MHD_add_response_header(resp, "Cache-Control", "no-store");
    enum MHD_Result ret = MHD_queue_response(c, status, resp);
    MHD_destroy_response(resp);
    return ret;
}

static enum MHD_Result send_reply(struct MHD_Connection *c, struct reply *r)
{
    if (!r->json) {
        r->json = cJSON_CreateObject();
        cJSON_AddStringToObject(r->json, "error", r->error);
    }
    char *text = cJSON_PrintUnformatted(r->json);
    cJSON_Delete(r->json);
    if (!text)
        return MHD_NO;
    return send_text(c, r->status, "application/json", text, MHD_RESPMEM_MUST_FREE);
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *c, const char *url,
                              const char *method, const char *version, const char *upload,
                              size_t *upload_size, void **ctx)
{
    (void)version;
    struct server *sv = cls;
    struct body *b = *ctx;
    if (!b) {
        if (!(b = calloc(1, sizeof *b)))
            return MHD_NO;
        *ctx = b;
        return MHD_YES;
    }
    if (*upload_size) {   /* a body too big is read to its end, kept no further */
        if (b->len + *upload_size > PLAYSRV_BODY_CAP)
            b->too_big = 1;
        else
            memcpy(b->buf + b->len, upload, *upload_size), b->len += *upload_size;
        *upload_size = 0;
        return MHD_YES;
    }
    b->buf[b->len] = '\0';
    int get = strcmp(method, "GET") == 0, post = strcmp(method, "POST") == 0;
    struct reply r = { .status = 200 };
    if (get && (strcmp(url, "/") == 0 || strcmp(url, "/index.html") == 0))
        return send_text(c, 200, "text/html; charset=utf-8", (char *)playsrv_page,
                         MHD_RESPMEM_PERSISTENT);
    int is_get_api = strcmp(url, "/api/info") == 0 || strcmp(url, "/api/state") == 0 ||
                     strcmp(url, "/api/train/weights") == 0;
    if (get && strcmp(url, "/api/train/weights") == 0) {
        int sent;
        enum MHD_Result ret = send_weights(sv, c, &r, &sent);
        return sent || ret == MHD_NO ? ret : send_reply(c, &r);
    }
    if (strncmp(url, "/api/", 5) == 0 && (is_get_api ? !get : !post))
        fail(&r, 405, "%s %.100s: use %s", method, url, is_get_api ? "GET" : "POST");
    else if (strncmp(url, "/api/", 5) == 0)
        answer_api(sv, url, b, c, &r);
    else
        fail(&r, 404, "no such page: %.100s", url);
    return send_reply(c, &r);
}

static void completed(void *cls, struct MHD_Connection *c, void **ctx,
                      enum MHD_RequestTerminationCode why)
{
    (void)cls, (void)c, (void)why;
    free(*ctx);
    *ctx = NULL;
}

static int open_journal(struct server *sv, struct err *e)
{
    sv->journal_fd = -1;
    if (!sv->o->journal)
        return 0;
    struct hdr h;
    hdr_init(&h);
    h.has = HDR_BIT(HDR_SCHEMA);
    int rc = hdr_set_text(&h.schema, JOURNAL_SCHEMA) | play_rules_header(sv->o->rules, &h);
    for (int i = 0; !rc && i < sv->nbuiltin; i++)
        rc = hdr_add_engine(&h, sv->builtin[i]) ? 0 : -1;
    for (int i = 0; !rc && i < sv->o->nengines; i++)
        rc = spec_header(&sv->o->engines[i], &h);
    if (rc) {
        hdr_free(&h);
        return err_set(e, 0, 0, "out of memory");
    }
    rc = journal_open(sv->o->journal, &h, 0, NULL, NULL, &sv->journal_fd, e);
    hdr_free(&h);
    return rc;
}

static void serve(struct MHD_Daemon *d, const volatile sig_atomic_t *stop)
{
    while (!*stop) {
        fd_set rs, ws, es;
        FD_ZERO(&rs);
        FD_ZERO(&ws);
        FD_ZERO(&es);
        MHD_socket max = 0;
        if (MHD_get_fdset(d, &rs, &ws, &es, &max) != MHD_YES)
            break;
        struct timeval tv = { 0, 200000 };   /* how soon a stop is seen */
        if (select(max + 1, &rs, &ws, &es, &tv) < 0 && errno != EINTR)
            break;
        MHD_run(d);
    }
}

int playsrv_run(const struct playsrv_opts *o, FILE *out, struct err *e)
{
    struct server *sv = calloc(1, sizeof *sv);
    if (!sv)
        return err_set(e, 0, 0, "out of memory");
    sv->o = o;
    sv->g = o->rules->game;
    list_builtin(sv);
    struct sockaddr_in addr = { .sin_family = AF_INET, .sin_port = htons((uint16_t)o->port) };
    if (inet_pton(AF_INET, o->listen, &addr.sin_addr) != 1) {
        free(sv);
        err_set(e, 0, 0, "--listen: '%.60s' is not an IPv4 address", o->listen);
        return PLAYSRV_BAD_INPUT;
    }
    /* Listening first, so that a taken port leaves no journal behind. */
    int rc = -1;
    sv->journal_fd = -1;
    struct MHD_Daemon *d = MHD_start_daemon(MHD_NO_FLAG, 0, NULL, NULL, handle, sv,
                                            MHD_OPTION_SOCK_ADDR, &addr,
                                            MHD_OPTION_NOTIFY_COMPLETED, completed, NULL,
                                            MHD_OPTION_END);
    if (!d) {
        err_set(e, 0, 0, "cannot listen on %s port %d", o->listen, o->port);
    } else if (open_journal(sv, e) != 0) {
        MHD_stop_daemon(d);
        d = NULL;
        rc = PLAYSRV_BAD_INPUT;
    }
    if (d) {
        const union MHD_DaemonInfo *info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
        fprintf(out, "play: http://%s:%u/\n", o->listen, info ? info->port : (unsigned)o->port);
        fflush(out);
        serve(d, o->stop);
        MHD_stop_daemon(d);
        rc = 0;
    }
    for (int i = 0; i < PLAYSRV_MAX_GAMES; i++) {
        if (sv->games[i].id)
            game_free(sv, &sv->games[i]);
        if (sv->trains[i].id)
            train_free(sv, &sv->trains[i]);
    }
    if (sv->journal_fd >= 0)
        close(sv->journal_fd);
    free(sv);
    return rc;
}
