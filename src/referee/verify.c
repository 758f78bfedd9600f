/*
 * verify.c - `referee verify`: replays every recorded game of a journal or
 * a match log through the game's rules and names the first record that the
 * rules contradict (tournament.h). It trusts nothing in the record: the
 * side to move, the legality of every move, the ending, the result and the
 * uniqueness of each game come from the replay.
 */
#include <cjson/cJSON.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "arena/registry.h"
#include "arena/tournament.h"

struct verify_ctx {
    const struct game *game;
    int draw_plies;
    long *seen;         /* the indices recorded: open addressing, 0 = empty */
    long seen_cap;      /* a power of two, or 0 */
    long seen_n;
    long games, moves;
    int inconsistent;   /* 1 once a record contradicts the rules */
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

static int verify_header(struct verify_ctx *v, const cJSON *h, struct err *e)
{
    const char *name = tour_text(h, "game");
    if (!name || !(v->game = registry_find(name)))
        return err_set(e, 1, 1, "unknown game '%s'", name ? name : "(none)");
    const cJSON *dp = cJSON_GetObjectItemCaseSensitive(h, "draw_plies");
    v->draw_plies = cJSON_IsNumber(dp) && dp->valueint > 0 ? dp->valueint : 0;
    return 0;
}

static int verify_game(struct verify_ctx *v, const cJSON *rec, int line, struct err *e)
{
    const struct game *g = v->game;
    long index = tour_index(rec);
    if (index < 1)
        return bad(v, e, line, "a game without an \"index\" from 1 to %ld", TOUR_INDEX_MAX);
    int seen = seen_add(v, index);
    if (seen < 0)
        return err_set(e, line, 1, "out of memory");
    if (seen)
        return bad(v, e, line, "game %ld is recorded twice", index);
    const cJSON *players = cJSON_GetObjectItemCaseSensitive(rec, "players");
    const char *name[2] = { tour_text(players, "1"), tour_text(players, "2") };
    if (!name[0] || !name[1])
        return bad(v, e, line, "game %ld has no \"players\"", index);

    unsigned char pos[GAME_MAX_STATE];
    g->init(pos);
    const cJSON *m;
    cJSON_ArrayForEach(m, cJSON_GetObjectItemCaseSensitive(rec, "opening")) {
        int move;
        if (!cJSON_IsString(m) || game_result(g, pos) >= 0 ||
            g->parse_move(pos, m->valuestring, &move) != 0)
            return bad(v, e, line, "game %ld: its opening is not legal", index);
        g->play(pos, move);
    }
    int ply = 0, quiet = 0, forfeit_side = 0;
    const char *forfeit = NULL;
    cJSON_ArrayForEach(m, cJSON_GetObjectItemCaseSensitive(rec, "moves")) {
        ply++;
        char where[64];
        snprintf(where, sizeof where, "game %ld, ply %d", index, ply);
        if (forfeit)
            return bad(v, e, line, "%s: a move after the forfeit", where);
        if (game_result(g, pos) >= 0)
            return bad(v, e, line, "%s: a move after the game ended", where);
        if (g->irreversible && v->draw_plies > 0 && quiet >= v->draw_plies)
            return bad(v, e, line, "%s: a move after the draw rule ended the game", where);
        const cJSON *side = cJSON_GetObjectItemCaseSensitive(m, "side");
        const cJSON *pl = cJSON_GetObjectItemCaseSensitive(m, "ply");
        const char *status = tour_text(m, "status"), *engine = tour_text(m, "engine");
        if (!cJSON_IsNumber(pl) || pl->valueint != ply)
            return bad(v, e, line, "%s: \"ply\" is out of order", where);
        if (!cJSON_IsNumber(side) || side->valueint != g->to_move(pos))
            return bad(v, e, line, "%s: \"side\" is not the side to move (%d)", where,
                       g->to_move(pos));
        if (!engine || strcmp(engine, name[side->valueint - 1]) != 0)
            return bad(v, e, line, "%s: \"engine\" is not the player of side %d", where,
                       side->valueint);
        if (!status)
            return bad(v, e, line, "%s: no \"status\"", where);
        if (strcmp(status, "ok") != 0) {
            forfeit = status;
            forfeit_side = side->valueint;
            continue;
        }
        const char *text = tour_text(m, "move");
        int move;
        if (!text || g->parse_move(pos, text, &move) != 0)
            return bad(v, e, line, "%s: the move is not legal", where);
        quiet = g->irreversible && g->irreversible(pos, move) ? 0 : quiet + 1;
        g->play(pos, move);
        v->moves++;
    }
    const char *result = tour_text(rec, "result"), *reason = tour_text(rec, "reason");
    if (!result || !reason)
        return bad(v, e, line, "game %ld has no \"result\" or \"reason\"", index);
    int winner;
    const char *expect;
    if (forfeit) {
        winner = 3 - forfeit_side;
        expect = forfeit;
    } else if ((winner = game_result(g, pos)) >= 0) {
        expect = "normal";
    } else if (g->irreversible && v->draw_plies > 0 && quiet >= v->draw_plies) {
        winner = 0;
        expect = "draw-rule";
    } else {
        return bad(v, e, line, "game %ld stops before its end", index);
    }
    const char *want = winner == 1 ? "1-0" : winner == 2 ? "0-1" : "1/2-1/2";
    if (strcmp(result, want) != 0 || strcmp(reason, expect) != 0) {
        return bad(v, e, line, "game %ld: recorded %s {%s}, the replay gives %s {%s}", index,
                   result, reason, want, expect);
    }
    v->games++;
    return 0;
}

static int verify_one(void *ctx, const cJSON *rec, int is_header, int line, struct err *e)
{
    struct verify_ctx *v = ctx;
    return is_header ? verify_header(v, rec, e) : verify_game(v, rec, line, e);
}

int tour_verify(const char *path, FILE *out, struct err *e)
{
    struct verify_ctx v = { 0 };
    int rc = tour_scan(path, verify_one, &v, e);
    free(v.seen);
    if (rc)
        return v.inconsistent ? 1 : -1;
    fprintf(out, "%s: %ld games, %ld moves replayed: consistent\n", path, v.games, v.moves);
    return 0;
}
