/*
 * playsrv_api.c - what `referee play` answers (playsrv.h): a request as
 * plain values in (playsrv_answer), its answer out; the games the pages
 * hold and their JSON API, the learning window's series, the page with the
 * gate's token, the journal. playsrv.c reads each request from
 * libmicrohttpd and sends the answer given here; nothing here knows of a
 * socket, so the unit suite (test_playsrv.c) and the fuzz target
 * (tests/fuzz/play_requests.c) drive the same code without one.
 *
 * Every request's thread calls playsrv_answer at once (playsrv.c: a
 * thread per connection). What they share is guarded: the tables of games
 * and of training series (playtab.h: each entry its own lock, held by the
 * request working on it), and the journal (journal_mu: its header, its
 * descriptor, its count; each record one write of a whole line, so lines
 * never mix). A game's engines run in a thread of the game's own
 * (playwork.h: their processes die with the thread that started them). An
 * engine's move is cancelled by the server's stop flag (play.h), a
 * built-in player's search by its game's cancel flag (playsrv_cancel,
 * playsrv_expire). Before anything, a request passes the gate (playgate.h:
 * Host, Origin, the page's token).
 */
#include "arena/playsrv.h"

#include <assert.h>
#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "arena/clock.h"
#include "referee/journal/header.h"
#include "arena/journal.h"
#include "arena/limits.h"
#include "arena/match.h"
#include "arena/player.h"
#include "arena/rules.h"
#include "arena/search.h"
#include "arena/textfile.h"
#include "referee/report/boardhtml.h"
#include "playgate.h"
#include "playtab.h"
#include "playwork.h"

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

/* A game (malloc'd, held by the server's table of games). */
struct pgame {
    long id;
    struct side side[2];
    unsigned char start[GAME_MAX_STATE], pos[GAME_MAX_STATE];
    int *moves, nmoves, capmoves;
    int quiet;                   /* plies since an irreversible one (rules.h) */
    struct game_record rec;
    int over;
    struct pwork *work;          /* its engines' thread; NULL: not started */
    /* Set by a close, the server's stop or the page's silence (enum
     * pgame_cancel), without the game's lock (while a request holds it): a
     * built-in player's search ends there (search.h's stop), and so does an
     * engine's move (rules' limits.cancel). */
    volatile sig_atomic_t cancel;
    struct play_rules rules;     /* the server's, but the cancel flag: this */
};

enum pgame_cancel { PGAME_RUNS, PGAME_CLOSED, PGAME_EXPIRED };

/* A training series of the learning window (malloc'd, in the table of
 * training series). */
struct ptrain {
    long id;
    void *series;                /* the trainer's */
    long long games, played;
    long long win, draw, loss;   /* the first learner's, over the series */
    int learners;                /* 2 against "learning" */
};

struct playsrv {
    const struct playsrv_opts *o;
    const struct game *g;
    struct pgate gate;           /* who is answered: Host, Origin, the token */
    char *page;                  /* playsrv_page with the gate's token in it */
    struct ptab games, trains;   /* of struct pgame, struct ptrain */
    /* The players a side can be besides the engines: "person" and the
     * built-in players the game supports, searches at the rules' depth
     * (any other depth too: "alphabeta:D"). Set before the first request. */
    char builtin[8][REC_NAME_MAX];
    int nbuiltin;
    /* The journal's header names every player of its records (reports
     * count only named players): these, the engines, and each built-in
     * player at another depth once a game asks for it (journal_name).
     * header, journal_fd and journal_games are under journal_mu. */
    pthread_mutex_t journal_mu;
    struct hdr header;
    int journal_fd;              /* -1: none */
    long journal_games;
    /* Computer moves running, at most PLAYSRV_MAX_SEARCHES (search_take). */
    pthread_mutex_t search_mu;
    int searches;
};

struct reply {
    unsigned status;
    cJSON *json;                 /* the answer, or NULL with error */
    char error[256];
    int retry_s;                 /* Retry-After: ask again then; 0: none */
};

/* r fails with status and the reason. The reason quotes what the request
 * sent (a path, a player's name, a move), any bytes, and may cut a
 * character in two where it is cut short: it is made UTF-8 ('?' for each
 * byte that is not), as JSON must be (RFC 8259) for its readers to take it
 * (Python's json.loads refuses the answer otherwise). */
static void fail(struct reply *r, unsigned status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void fail(struct reply *r, unsigned status, const char *fmt, ...)
{
    char text[sizeof r->error];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    tf_utf8_copy(r->error, text, strlen(text));
    r->status = status;
}

/* obj (calloc'd, or NULL when that failed) in t as a new entry, held:
 * the slot, or NULL with r's 503 and obj freed. */
static struct ptab_slot *add_held(struct ptab *t, void *obj, const char *what, struct reply *r)
{
    struct ptab_slot *slot = obj ? ptab_add(t, obj, PLAYSRV_IDLE_S) : NULL;
    if (!slot) {
        if (obj)
            fail(r, 503, "%d %s are open: close one", PLAYSRV_MAX_GAMES, what);
        else
            fail(r, 503, "out of memory");
        free(obj);
    }
    return slot;
}

/* ---- the players ------------------------------------------------------ */

static void side_free(const struct playsrv *sv, struct side *s)
{
    assert(!s->solo);   /* closed by the game's engine thread (engines_close) */
    if (s->weights)
        sv->o->trainer->weights_free(s->weights);
    if (s->has_search)
        search_free(&s->s);
    memset(s, 0, sizeof *s);
}

/* The learned players' weights: text (a weights file; NULL: the shipped
 * one) read by the trainer. 0, or -1 with r failed. */
static int side_weights(struct playsrv *sv, struct side *s, const char *text, struct reply *r)
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

/* s->p's kind and depth from a built-in player's name: one the server
 * offers, a searching player at any depth from 1 to SEARCH_MAX_DEPTH
 * ("alphabeta:6" when --depth is 4), and s->name made the name the record
 * keeps ("alphabeta:06" is "alphabeta:6"). 0, or -1 with r failed. */
static int builtin_parse(struct playsrv *sv, struct side *s, const char *name, struct reply *r)
{
    const char *colon = strchr(name, ':');
    size_t n = colon ? (size_t)(colon - name) : strlen(name);
    int offered = 0;
    for (int i = 1; i < sv->nbuiltin && !offered; i++) {
        const char *b = sv->builtin[i], *bcolon = strchr(b, ':');
        offered = strncmp(b, name, n) == 0 && strlen(b) >= n && (b[n] == ':' || !b[n]) &&
                  !bcolon == !colon;
    }
    char kind[REC_NAME_MAX];
    snprintf(kind, sizeof kind, "%.*s", (int)(n < sizeof kind ? n : sizeof kind - 1), name);
    int k = offered ? player_parse(kind) : -1;
    if (k < 0)
        return fail(r, 422, "unknown player '%.60s'", name), -1;
    s->kind = SIDE_BUILTIN;
    s->p.kind = (enum player_kind)k;
    s->p.depth = sv->o->rules->depth;
    s->p.seed = (uint64_t)time(NULL);
    if (!colon)
        return 0;
    char *end;
    long d = (colon[1] >= '0' && colon[1] <= '9') ? strtol(colon + 1, &end, 10) : 0;
    if (d < 1 || *end || d > SEARCH_MAX_DEPTH)
        return fail(r, 422, "player '%.60s': the depth must be 1 to %d", name,
                    SEARCH_MAX_DEPTH), -1;
    s->p.depth = (int)d;
    snprintf(s->name, sizeof s->name, "%s:%ld", player_name(s->p.kind), d);
    return 0;
}

/* Sets s from the page's name of a player (weights: a learned player's
 * weights file, NULL for the shipped one): 0, or -1 with r failed. */
static int side_parse(struct playsrv *sv, struct side *s, const char *name, const char *weights,
                      const volatile sig_atomic_t *cancel, struct reply *r)
{
    memset(s, 0, sizeof *s);
    if (strlen(name) >= sizeof s->name)
        return fail(r, 422, "unknown player '%.60s'", name), -1;
    snprintf(s->name, sizeof s->name, "%s", name);
    if (strcmp(name, "person") == 0)
        return 0;
    for (int i = 0; i < sv->o->nengines; i++)
        if (strcmp(name, sv->o->engines[i].name) == 0) {
            s->kind = SIDE_ENGINE;
            s->eng = &sv->o->engines[i];
            return 0;
        }
    if (builtin_parse(sv, s, name, r) != 0)
        return -1;
    int k = s->p.kind;
    if ((k == PLAYER_QLEARN || k == PLAYER_QLEARN_AB) && side_weights(sv, s, weights, r) != 0)
        return -1;
    size_t tt = sv->o->tt_bytes ? sv->o->tt_bytes : (size_t)TT_DEFAULT_MB << 20;
    struct search_opts so = player_search_opts(sv->g, &s->p, tt);
    so.stop = cancel;   /* a person may ask for any depth: a close ends it */
    if (search_init(&s->s, sv->g, &so) != 0)
        return fail(r, 503, "out of memory"), -1;
    s->has_search = 1;
    return 0;
}

static int learning(const struct playsrv *sv)
{
    return sv->o->trainer && sv->g->learned;
}

/* ---- the engines, in the game's own thread (playwork.h) ---------------- */

/* A call on a game's engines, run by its thread. */
struct engine_call {
    struct pgame *pg;
    int side;                    /* a move's side, 0 or 1; -1: open or close both */
    int open;                    /* side -1: 1 opens those not open, 0 closes */
    int depth;                   /* a move's */
    struct rec_move *m;          /* a move's record */
    int rc;                      /* play_solo_move's, or -1 with e (at side failed) */
    int failed;
    struct err e;
};

static void engine_call_run(void *arg)
{
    struct engine_call *c = arg;
    struct pgame *pg = c->pg;
    if (c->side >= 0) {
        c->rc = play_solo_move(pg->side[c->side].solo, pg->pos, c->depth, c->m, &c->e);
        return;
    }
    for (int s = 0; s < 2; s++) {
        struct side *sd = &pg->side[s];
        if (sd->kind != SIDE_ENGINE) {
            continue;
        } else if (!c->open) {
            play_solo_close(sd->solo);
            sd->solo = NULL;
        } else if (!c->rc && !sd->solo &&
                   play_solo_open(&sd->solo, &pg->rules, sd->eng, &c->e) != 0) {
            c->rc = -1;
            c->failed = s;
        }
    }
}

/* Starts the game's engines in its thread (started first): 0, or -1 with r
 * failed. */
static int engines_open(struct pgame *pg, struct reply *r)
{
    if (pg->side[0].kind != SIDE_ENGINE && pg->side[1].kind != SIDE_ENGINE)
        return 0;
    if (!pg->work && pwork_start(&pg->work) != 0)
        return fail(r, 503, "out of threads"), -1;
    struct engine_call c = { .pg = pg, .side = -1, .open = 1 };
    pwork_run(pg->work, engine_call_run, &c);
    if (c.rc)
        fail(r, 503, "engine %s: %s", pg->side[c.failed].name, c.e.msg);
    return c.rc;
}

static void engines_close(struct pgame *pg)
{
    struct engine_call c = { .pg = pg, .side = -1, .open = 0 };
    if (pg->work)
        pwork_run(pg->work, engine_call_run, &c);
}

/* ---- games ------------------------------------------------------------ */

static void game_free(const struct playsrv *sv, struct pgame *pg)
{
    engines_close(pg);
    pwork_stop(pg->work);
    for (int s = 0; s < 2; s++)
        side_free(sv, &pg->side[s]);
    free(pg->moves);
    rec_free(&pg->rec);
    memset(pg, 0, sizeof *pg);
}

/* The table's free_obj. */
static void game_drop(void *ctx, void *obj)
{
    game_free(ctx, obj);
    free(obj);
}

/* The entry of table (what: "game", "training") that the request's "id"
 * names, held for the caller (ptab_put lets go), or NULL with r failed. */
static struct ptab_slot *held(struct ptab *table, const char *what, const cJSON *req,
                              struct reply *r)
{
    const cJSON *id = cJSON_GetObjectItemCaseSensitive(req, "id");
    if (!cJSON_IsNumber(id))
        return fail(r, 400, "\"id\" must be a number"), NULL;
    double v = id->valuedouble;
    struct ptab_slot *s = ptab_get(table, v >= 1 && v < PLAYSRV_ID_MAX ? (long)v : 0);
    if (!s)
        fail(r, 404, "no %s %.0f (closed, or never started)", what, v);
    return s;
}

/* The record goes to the journal; the engines stop. */
static void game_finish(struct playsrv *sv, struct pgame *pg, enum rec_result res,
                        enum rec_reason why, const char *forfeit)
{
    rec_set_end(&pg->rec, res, why, forfeit);
    if (why == REC_NORMAL && sv->g->score) {   /* the game's own result, as play.c keeps it */
        int score[2];
        sv->g->score->final(pg->pos, score);
        rec_set_score(&pg->rec, score, sv->g->score->label);
    }
    pg->over = 1;
    engines_close(pg);
    if (!sv->o->journal)
        return;
    pthread_mutex_lock(&sv->journal_mu);
    pg->rec.index = ++sv->journal_games;
    pg->rec.pair = (pg->rec.index + 1) / 2;
    cJSON *j = rec_encode(&pg->rec);
    char *line = j ? cJSON_PrintUnformatted(j) : NULL;
    struct err e;
    if (!line || journal_append(sv->journal_fd, line, &e) != 0)
        fprintf(stderr, "play: %s: the game was not written: %s\n", sv->o->journal,
                line ? e.msg : "out of memory");
    pthread_mutex_unlock(&sv->journal_mu);
    free(line);
    cJSON_Delete(j);
}

/* Names the new game's players in the journal's header, those it does not
 * name yet (a built-in player at a depth other than --depth's): the journal
 * is written again with the header grown (journal_reheader), so that its
 * readers (report, verify, analyze) find every player of its records named,
 * as in a tournament's journal, and by the name the records use. 0, or -1
 * with r failed and the journal as it was. */
static int journal_name(struct playsrv *sv, const struct pgame *pg, struct reply *r)
{
    if (!sv->o->journal)
        return 0;
    pthread_mutex_lock(&sv->journal_mu);
    struct hdr *h = &sv->header;
    int before = h->nengines, rc = 0;
    for (int s = 0; s < 2 && !rc; s++) {
        int named = 0;
        for (int i = 0; i < h->nengines && !named; i++)
            named = strcmp(h->engine[i].name, pg->side[s].name) == 0;
        if (!named && !hdr_add_engine(h, pg->side[s].name)) {
            fail(r, 409, "the journal names %d players, as many as a journal can: "
                 "%s cannot play in it", REC_MAX_ENGINES, pg->side[s].name);
            rc = -1;
        }
    }
    struct err e;
    if (!rc && h->nengines > before &&
        journal_reheader(sv->o->journal, h, &sv->journal_fd, &e) != 0) {
        fail(r, 503, "%s", e.msg);
        rc = -1;
    }
    if (rc)
        h->nengines = before;   /* hdr_add_engine's: names alone, nothing to free */
    pthread_mutex_unlock(&sv->journal_mu);
    return rc;
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
static int apply_move(struct playsrv *sv, struct pgame *pg, int move, struct rec_move *m,
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

static cJSON *state_json(struct playsrv *sv, const struct pgame *pg)
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
    /* A forfeit in the words of the match's result line: who, the ply, the
     * kind, the limit or detail, the line of the engine's output that says
     * why. */
    char forfeit[MATCH_FORFEIT_MAX] = "";
    if (pg->over)
        match_forfeit_words(&pg->rec, forfeit, sizeof forfeit);
    cJSON_AddStringToObject(st, "forfeit", forfeit);
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

static void api_new(struct playsrv *sv, const cJSON *req, struct reply *r)
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
    /* In the table first, held: every failure below is one ptab_put away. */
    struct pgame *pg = calloc(1, sizeof *pg);
    struct ptab_slot *slot = add_held(&sv->games, pg, "games", r);
    if (!slot)
        return;
    pg->id = slot->id;
    pg->rules = *sv->o->rules;
    pg->rules.limits.cancel = &pg->cancel;   /* its engines' moves stop with the game */
    rec_init(&pg->rec, 1, 1);
    int rc = 0;
    for (int s = 0; s < 2 && !rc; s++)
        rc = side_parse(sv, &pg->side[s], cJSON_GetArrayItem(pl, s)->valuestring, weights[s],
                        &pg->cancel, r);
    if (!rc)
        rc = engines_open(pg, r);
    if (!rc)
        rc = journal_name(sv, pg, r);
    if (!rc) {
        game_init(sv->g, pg->start);
        memcpy(pg->pos, pg->start, sv->g->state_size);
        /* Both are REC_NAME_MAX arrays, the name NUL-terminated (a copy, not
         * snprintf: GCC's -Wrestrict at -O1 cannot tell the two apart). */
        for (int s = 0; s < 2; s++)
            memcpy(pg->rec.player[s], pg->side[s].name, REC_NAME_MAX);
        r->json = state_json(sv, pg);
    }
    ptab_put(&sv->games, slot, rc != 0);
}

static const char *side_word(const struct side *s)
{
    return s->kind == SIDE_PERSON ? "a person" : "a computer player";
}

static void api_move(struct playsrv *sv, struct pgame *pg, const cJSON *req, struct reply *r)
{
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

/* A place among the computer moves running at once (PLAYSRV_MAX_SEARCHES):
 * 1, or 0 when every place is taken. search_give gives it back. */
static int search_take(struct playsrv *sv)
{
    pthread_mutex_lock(&sv->search_mu);
    int took = sv->searches < PLAYSRV_MAX_SEARCHES;
    sv->searches += took;
    pthread_mutex_unlock(&sv->search_mu);
    return took;
}

static void search_give(struct playsrv *sv)
{
    pthread_mutex_lock(&sv->search_mu);
    sv->searches--;
    pthread_mutex_unlock(&sv->search_mu);
}

/* r failed for a move its game's cancel flag ended (enum pgame_cancel). */
static void fail_cancelled(const struct playsrv *sv, const struct pgame *pg, struct reply *r)
{
    if (pg->cancel == PGAME_EXPIRED)
        return fail(r, 503, "game %ld was closed: its page asked nothing for %d s",
                    pg->id, sv->o->page_timeout_s);
    fail(r, 503, "the game is closing, or the server is stopping");
}

/* The engine's move into m and *move (the game not over, the engine to
 * move): 0, 1 when it forfeited (m's status says why; the game is over),
 * or -1 with r failed. */
static int engine_move(struct playsrv *sv, struct pgame *pg, int who, struct rec_move *m,
                       int *move, struct reply *r)
{
    const struct side *s = &pg->side[who - 1];
    int depth = s->eng->depth ? s->eng->depth : sv->o->rules->depth;
    struct engine_call c = { .pg = pg, .side = who - 1, .depth = depth, .m = m };
    pwork_run(pg->work, engine_call_run, &c);
    if (c.rc < 0)
        return fail(r, 503, "engine %s: %s", s->name, c.e.msg), -1;
    if (c.rc == PLAY_CANCELLED)
        return fail_cancelled(sv, pg, r), -1;
    if (strcmp(m->status, "ok") != 0) {
        m->ply = pg->nmoves + 1;
        m->side = who;
        char reason[REC_REASON_MAX];
        snprintf(reason, sizeof reason, "%s", m->status);
        if (rec_add_move(&pg->rec, m) != 0)
            return fail(r, 503, "out of memory"), -1;
        game_finish(sv, pg, who == 1 ? REC_WIN_2 : REC_WIN_1, REC_FORFEIT, reason);
        return 1;
    }
    if (sv->g->parse_move(pg->pos, m->move, move) != 0) {
        free(m->stdout_tail);
        free(m->stderr_tail);
        return fail(r, 500, "engine %s: move '%s' not legal after judging", s->name, m->move), -1;
    }
    return 0;
}

/* The computer player's move, played in a search place: the state in r,
 * or r failed. */
static void computer_move(struct playsrv *sv, struct pgame *pg, int who, struct reply *r)
{
    struct side *s = &pg->side[who - 1];
    struct rec_move m;
    rec_move_init(&m);
    int move = -1, rc = 0;
    if (s->kind == SIDE_BUILTIN) {
        move = builtin_move(s, pg->pos, &m);
        if (move < 0 && s->s.stopped)
            return fail_cancelled(sv, pg, r);
        if (move < 0)
            return fail(r, 503, "player %s found no move (out of memory)", s->name);
    } else if ((rc = engine_move(sv, pg, who, &m, &move, r)) < 0) {
        return;
    }
    if (rc == 1 || apply_move(sv, pg, move, &m, r) == 0)
        r->json = state_json(sv, pg);
}

static void api_computer(struct playsrv *sv, struct pgame *pg, const cJSON *req, struct reply *r)
{
    (void)req;
    if (pg->over)
        return fail(r, 409, "the game is over (%s)", rec_reason_text(&pg->rec));
    int who = sv->g->to_move(pg->pos);
    if (pg->side[who - 1].kind == SIDE_PERSON)
        return fail(r, 409, "it is player %d's turn, a person's", who);
    if (*sv->o->stop)   /* after stop's poke (playsrv_run): no move starts */
        return fail(r, 503, "the server is stopping");
    if (!search_take(sv)) {
        r->retry_s = PLAYSRV_RETRY_S;
        return fail(r, 503, "%d computer moves are being played: this one waits its turn",
                    PLAYSRV_MAX_SEARCHES);
    }
    computer_move(sv, pg, who, r);
    search_give(sv);
}

/* Back to the person's turn before their last move: the plies after it and
 * that move are taken back. */
static void api_undo(struct playsrv *sv, struct pgame *pg, const cJSON *req, struct reply *r)
{
    (void)req;
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
    /* The engines were stopped at the end: start them again. */
    if (pg->over && engines_open(pg, r) != 0)
        return;
    pg->over = 0;
    r->json = state_json(sv, pg);
}

/* The game goes once the request lets go of it (closes in posts[]). */
static void api_close(struct playsrv *sv, struct pgame *pg, const cJSON *req, struct reply *r)
{
    (void)sv, (void)pg, (void)req;
    r->json = cJSON_CreateObject();
    cJSON_AddBoolToObject(r->json, "closed", 1);
}

/* The page is still there (it asks every page timeout / PLAYSRV_PAGE_POLLS):
 * its game stays, told without waiting for a move in progress. */
static void api_alive(struct playsrv *sv, const cJSON *req, struct reply *r)
{
    const cJSON *id = cJSON_GetObjectItemCaseSensitive(req, "id");
    if (!cJSON_IsNumber(id))
        return fail(r, 400, "\"id\" must be a number");
    double v = id->valuedouble;
    if (!ptab_touch(&sv->games, v >= 1 && v < PLAYSRV_ID_MAX ? (long)v : 0))
        return fail(r, 404, "no game %.0f (closed, or never started)", v);
    r->json = cJSON_CreateObject();
    cJSON_AddBoolToObject(r->json, "alive", 1);
}

static void api_state(struct playsrv *sv, struct pgame *pg, const cJSON *req, struct reply *r)
{
    (void)req;
    r->json = state_json(sv, pg);
}

static void api_info(struct playsrv *sv, struct reply *r)
{
    const struct game *g = sv->g;
    cJSON *j = r->json = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "game", g->name);
    cJSON_AddStringToObject(j, "title", g->title);
    /* The page's board spec (boardhtml.h): no style, a plain game. */
    cJSON_AddStringToObject(j, "layout", boardhtml_layout(g));
    cJSON_AddStringToObject(j, "labels", boardhtml_labels(g));
    cJSON_AddStringToObject(j, "style", boardhtml_game_style(g));
    cJSON_AddBoolToObject(j, "learning", learning(sv));
    cJSON_AddNumberToObject(j, "depth", sv->o->rules->depth);   /* the searchers' in players */
    cJSON_AddNumberToObject(j, "max_depth", SEARCH_MAX_DEPTH);  /* theirs at most */
    /* How often the page says it is there (api_alive). */
    cJSON_AddNumberToObject(j, "poll_ms", sv->o->page_timeout_s * 1000.0 / PLAYSRV_PAGE_POLLS);
    cJSON *pl = cJSON_AddArrayToObject(j, "players");
    for (int i = 0; i < sv->nbuiltin; i++)
        cJSON_AddItemToArray(pl, cJSON_CreateString(sv->builtin[i]));
    cJSON *en = cJSON_AddArrayToObject(j, "engines");
    for (int i = 0; i < sv->o->nengines; i++) {
        cJSON_AddItemToArray(pl, cJSON_CreateString(sv->o->engines[i].name));
        cJSON_AddItemToArray(en, cJSON_CreateString(sv->o->engines[i].name));
    }
}

static void list_builtin(struct playsrv *sv)
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

/* The table's free_obj. */
static void train_drop(void *ctx, void *obj)
{
    const struct playsrv *sv = ctx;
    struct ptrain *t = obj;
    if (t->series)
        sv->o->trainer->free(t->series);
    free(t);
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

static void api_train_start(struct playsrv *sv, const cJSON *req, struct reply *r)
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
    struct ptrain *t = calloc(1, sizeof *t);
    struct ptab_slot *slot = add_held(&sv->trains, t, "trainings", r);
    if (!slot)
        return;
    struct err e;
    int rc = sv->o->trainer->start(&t->series, &o, &e);
    if (rc != 0) {
        fail(r, 422, "%s", e.msg);
    } else {
        t->id = slot->id;
        t->games = o.games;
        t->learners = strcmp(o.opponent, "learning") == 0 ? 2 : 1;
        r->json = train_json(t);
    }
    ptab_put(&sv->trains, slot, rc != 0);
}

static void api_train_step(struct playsrv *sv, struct ptrain *t, const cJSON *req,
                           struct reply *r)
{
    double n;
    if (number_in(req, "games", 1, PLAYSRV_TRAIN_STEP, PLAYSRV_TRAIN_STEP, &n, r))
        return;
    for (long k = 0; k < (long)n && t->played < t->games; k++, t->played++) {
        int res = sv->o->trainer->play(t->series);
        t->win += res > 0, t->draw += res == 0, t->loss += res < 0;
    }
    r->json = train_json(t);
}

/* The series goes once the request lets go of it (closes in posts[]). */
static void api_train_close(struct playsrv *sv, struct ptrain *t, const cJSON *req,
                            struct reply *r)
{
    (void)sv, (void)t, (void)req;
    r->json = cJSON_CreateObject();
    cJSON_AddBoolToObject(r->json, "closed", 1);
}

/* GET: the weights file as an attachment into out (1), or 0 with r failed. */
static int weights_file(struct playsrv *sv, const struct ptrain *t, const char *which,
                        struct reply *r, struct playsrv_resp *out)
{
    int learner = which ? atoi(which) : 1;
    char *text = malloc(PLAYSRV_WEIGHTS_CAP);
    size_t len = text && (learner == 1 || learner == 2)
                     ? sv->o->trainer->weights(t->series, learner, text, PLAYSRV_WEIGHTS_CAP) : 0;
    if (!len) {
        free(text);
        fail(r, 404, "no learner %.10s in training %ld", which ? which : "1", t->id);
        return 0;
    }
    *out = (struct playsrv_resp){ .status = 200, .type = "text/plain; charset=utf-8",
                                  .body = text, .len = len };
    snprintf(out->disposition, sizeof out->disposition,
             "attachment; filename=\"learner%d-%lld.weights\"", learner, t->played);
    return 1;
}

/* ---- requests ------------------------------------------------------------ */

/* A GET's query as a request: {"id": N} when ?id=N is a number. */
static cJSON *query_req(const char *id)
{
    cJSON *req = cJSON_CreateObject();
    char *end = NULL;
    double v = id ? strtod(id, &end) : 0;
    if (req && id && *id && !*end)
        cJSON_AddNumberToObject(req, "id", v);
    return req;
}

/* The API's requests (but /api/info and the weights file, which are not
 * JSON in, or not JSON out): each works on no entry (plain), on the game
 * its "id" names, or on the training series; closes: the entry goes after. */
struct api_entry {
    const char *url;
    int get;
    void (*plain)(struct playsrv *, const cJSON *, struct reply *);
    void (*game)(struct playsrv *, struct pgame *, const cJSON *, struct reply *);
    void (*train)(struct playsrv *, struct ptrain *, const cJSON *, struct reply *);
    int closes;
};

static const struct api_entry api[] = {
    { "/api/state", 1, NULL, api_state, NULL, 0 },
    { "/api/new", 0, api_new, NULL, NULL, 0 },
    { "/api/move", 0, NULL, api_move, NULL, 0 },
    { "/api/computer", 0, NULL, api_computer, NULL, 0 },
    { "/api/undo", 0, NULL, api_undo, NULL, 0 },
    { "/api/close", 0, NULL, api_close, NULL, 1 },
    { "/api/alive", 0, api_alive, NULL, NULL, 0 },
    { "/api/train/start", 0, api_train_start, NULL, NULL, 0 },
    { "/api/train/step", 0, NULL, NULL, api_train_step, 0 },
    { "/api/train/close", 0, NULL, NULL, api_train_close, 1 },
};

/* ptab_poke's: a search of the game ends (a close, the server's stop). */
static void game_cancel(void *obj)
{
    ((struct pgame *)obj)->cancel = PGAME_CLOSED;
}

/* ptab_expire's: its page has gone quiet; its search ends. */
static void game_expire(void *obj)
{
    ((struct pgame *)obj)->cancel = PGAME_EXPIRED;
}

static void api_call(struct playsrv *sv, const struct api_entry *a, const cJSON *req,
                     struct reply *r)
{
    if (a->plain)
        return a->plain(sv, req, r);
    /* A game closing stops its player's search at once, rather than
     * waiting for it (any depth may be asked for) to let go of the game. */
    const cJSON *id = cJSON_GetObjectItemCaseSensitive(req, "id");
    if (a->game && a->closes && cJSON_IsNumber(id) && id->valuedouble >= 1 &&
        id->valuedouble < PLAYSRV_ID_MAX)
        ptab_poke(&sv->games, (long)id->valuedouble, game_cancel);
    struct ptab *table = a->game ? &sv->games : &sv->trains;
    struct ptab_slot *s = held(table, a->game ? "game" : "training", req, r);
    if (!s)
        return;
    if (a->game)
        a->game(sv, s->obj, req, r);
    else
        a->train(sv, s->obj, req, r);
    ptab_put(table, s, a->closes);
}

/* The answer of an API request (url one of /api/...) into r. */
static void answer_api(struct playsrv *sv, const struct playsrv_req *q, struct reply *r)
{
    if (strcmp(q->path, "/api/info") == 0)
        return api_info(sv, r);
    for (size_t k = 0; k < sizeof api / sizeof *api; k++) {
        if (strcmp(q->path, api[k].url) != 0)
            continue;
        cJSON *req;
        if (api[k].get) {
            if (!(req = query_req(q->id)))
                return fail(r, 503, "out of memory");
        } else {
            if (q->too_big)
                return fail(r, 413, "the request's body is over %d bytes", PLAYSRV_BODY_CAP);
            const char *bad = NULL;
            req = cJSON_ParseWithLengthOpts(q->body, q->body_len, &bad, 0);
            if (!cJSON_IsObject(req)) {
                cJSON_Delete(req);
                return fail(r, 400, "malformed JSON at byte %ld: an object is expected",
                            req || !bad ? 0L : (long)(bad - q->body));
            }
        }
        api_call(sv, &api[k], req, r);
        cJSON_Delete(req);
        return;
    }
    fail(r, 404, "no such page: %.100s", q->path);
}

/* GET /api/train/weights: the file into out (1), or 0 with r failed. */
static int answer_weights(struct playsrv *sv, const struct playsrv_req *q, struct reply *r,
                          struct playsrv_resp *out)
{
    cJSON *req = query_req(q->id);
    struct ptab_slot *s = req ? held(&sv->trains, "training", req, r) : NULL;
    cJSON_Delete(req);
    if (!req)
        return fail(r, 503, "out of memory"), 0;
    if (!s)
        return 0;
    int sent = weights_file(sv, s->obj, q->learner, r, out);
    ptab_put(&sv->trains, s, 0);
    return sent;
}

/* text (a copy) as the answer: 0, or -1 when out of memory. */
static int text_resp(struct playsrv_resp *out, unsigned status, const char *type,
                     const char *text)
{
    *out = (struct playsrv_resp){ .status = status, .type = type, .no_store = 1,
                                  .body = strdup(text), .len = strlen(text) };
    return out->body ? 0 : -1;
}

/* r as the answer: its JSON, or {"error": its reason} (r->json is freed).
 * 0, or -1 when out of memory. */
static int json_resp(struct reply *r, struct playsrv_resp *out)
{
    if (!r->json) {
        r->json = cJSON_CreateObject();
        cJSON_AddStringToObject(r->json, "error", r->error);
    }
    char *text = cJSON_PrintUnformatted(r->json);
    cJSON_Delete(r->json);
    *out = (struct playsrv_resp){ .status = r->status, .type = "application/json",
                                  .no_store = 1, .retry_s = r->retry_s, .body = text,
                                  .len = text ? strlen(text) : 0 };
    return text ? 0 : -1;
}

unsigned playsrv_gate(const struct playsrv *sv, const struct playsrv_req *q, char *why,
                      size_t cap)
{
    struct pgate_req g = { .method = q->method, .host = q->host, .origin = q->origin,
                           .token = q->token, .local_addr = q->local_addr };
    return (unsigned)pgate_check(&sv->gate, &g, why, cap);
}

int playsrv_answer(struct playsrv *sv, const struct playsrv_req *q, struct playsrv_resp *out)
{
    char why[256];
    unsigned refused = playsrv_gate(sv, q, why, sizeof why);
    if (refused)
        return text_resp(out, refused, "text/plain; charset=utf-8", why);
    const char *url = q->path;
    int get = strcmp(q->method, "GET") == 0, post = strcmp(q->method, "POST") == 0;
    if (get && (strcmp(url, "/") == 0 || strcmp(url, "/index.html") == 0)) {
        *out = (struct playsrv_resp){ .status = 200, .type = "text/html; charset=utf-8",
                                      .no_store = 1, .body = sv->page, .len = strlen(sv->page),
                                      .persistent = 1 };
        return 0;
    }
    struct reply r = { .status = 200 };
    int is_get_api = strcmp(url, "/api/info") == 0 || strcmp(url, "/api/state") == 0 ||
                     strcmp(url, "/api/train/weights") == 0;
    if (get && strcmp(url, "/api/train/weights") == 0) {
        if (answer_weights(sv, q, &r, out))
            return 0;
    } else if (strncmp(url, "/api/", 5) == 0 && (is_get_api ? !get : !post)) {
        fail(&r, 405, "%s %.100s: use %s", q->method, url, is_get_api ? "GET" : "POST");
    } else if (strncmp(url, "/api/", 5) == 0) {
        answer_api(sv, q, &r);
    } else {
        fail(&r, 404, "no such page: %.100s", url);
    }
    return json_resp(&r, out);
}

void playsrv_resp_free(struct playsrv_resp *r)
{
    if (!r->persistent)
        free(r->body);
    r->body = NULL;
}

/* ---- the server's state -------------------------------------------------- */

/* The journal, its header naming the players offered (and more later:
 * journal_name), kept in sv->header. */
static int open_journal(struct playsrv *sv, struct err *e)
{
    if (!sv->o->journal)
        return 0;
    struct hdr *h = &sv->header;
    h->has = HDR_BIT(HDR_SCHEMA);
    int rc = hdr_set_text(&h->schema, JOURNAL_SCHEMA) | play_rules_header(sv->o->rules, h);
    for (int i = 0; !rc && i < sv->nbuiltin; i++)
        rc = hdr_add_engine(h, sv->builtin[i]) ? 0 : -1;
    for (int i = 0; !rc && i < sv->o->nengines; i++)
        rc = hdr_add_spec(h, &sv->o->engines[i]);
    if (rc)
        return err_set(e, 0, 0, "out of memory");
    return journal_open(sv->o->journal, h, 0, NULL, NULL, &sv->journal_fd, e);
}

/* The page with the gate's token in place of PLAYSRV_PAGE_TOKEN (malloc'd),
 * or NULL when out of memory. */
static char *page_with_token(const char *token)
{
    const char *at = strstr(playsrv_page, PLAYSRV_PAGE_TOKEN);
    assert(at);
    size_t slot = strlen(PLAYSRV_PAGE_TOKEN);
    size_t len = strlen(playsrv_page) - slot + strlen(token);
    char *page = malloc(len + 1);
    if (page)
        snprintf(page, len + 1, "%.*s%s%s", (int)(at - playsrv_page), playsrv_page, token,
                 at + slot);
    return page;
}

/* The gate of a server on port (its token) and the page that carries the
 * token: 0, or -1 with e. */
static int open_gate(struct playsrv *sv, unsigned port, struct err *e)
{
    if (pgate_init(&sv->gate, sv->o->listen, port, e) != 0)
        return -1;
    if (!(sv->page = page_with_token(sv->gate.token)))
        return err_set(e, 0, 0, "out of memory");
    return 0;
}

int playsrv_open(struct playsrv **out, const struct playsrv_opts *o, unsigned port,
                 struct err *e)
{
    struct playsrv *sv = *out = calloc(1, sizeof *sv);
    if (!sv)
        return err_set(e, 0, 0, "out of memory");
    sv->o = o;
    sv->g = o->rules->game;
    sv->journal_fd = -1;
    hdr_init(&sv->header);
    pthread_mutex_init(&sv->journal_mu, NULL);
    pthread_mutex_init(&sv->search_mu, NULL);
    ptab_init(&sv->games, game_drop, sv);
    ptab_init(&sv->trains, train_drop, sv);
    list_builtin(sv);
    int rc = open_gate(sv, port, e);
    if (rc == 0 && open_journal(sv, e) != 0)
        rc = PLAYSRV_BAD_INPUT;
    if (rc != 0) {
        playsrv_close(sv);
        *out = NULL;
    }
    return rc;
}

void playsrv_cancel(struct playsrv *sv)
{
    ptab_poke(&sv->games, 0, game_cancel);
}

void playsrv_expire(struct playsrv *sv)
{
    ptab_expire(&sv->games, sv->o->page_timeout_s, game_expire);
}

const char *playsrv_token(const struct playsrv *sv)
{
    return sv->gate.token;
}

void playsrv_close(struct playsrv *sv)
{
    if (!sv)
        return;
    ptab_destroy(&sv->games);
    ptab_destroy(&sv->trains);
    if (sv->journal_fd >= 0)
        close(sv->journal_fd);
    hdr_free(&sv->header);
    pthread_mutex_destroy(&sv->journal_mu);
    pthread_mutex_destroy(&sv->search_mu);
    free(sv->page);
    free(sv);
}
