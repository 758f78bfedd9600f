/*
 * similarity.c - `referee similarity` (similarity.h): the positions drawn
 * from seeded random games, every engine's move at each through
 * play_solo, and agree.h's comparison of them.
 *
 * Engine after engine, as referee bench runs them, so each engine keeps one
 * sandbox for all its moves as it would for a game's.
 */
#include <assert.h>
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>
#include "arena/agree.h"
#include "arena/escape.h"
#include "arena/rng.h"
#include "arena/similarity.h"
#include "referee/journal/header.h"
#include "referee/judge/judge.h"

/* The run's state: positions, their labels, every engine's moves. */
struct simil {
    const struct play_rules *r;
    long npos;
    unsigned char (*pos)[GAME_MAX_STATE];
    char **labels;               /* npos, malloc'd */
    char **moves;                /* n x npos, row per engine; NULL: no answer */
    const char **names;          /* n, the engines' own */
};

/* The moves of pos's line as text, blank-separated (k plies of line from
 * the start), replayed into pos; "(start)" for none. malloc'd, or NULL. */
static char *replay_line(const struct game *g, const int *line, int k, unsigned char *pos)
{
    size_t cap = (size_t)k * GAME_MOVE_TEXT_MAX + sizeof "(start)";
    char *text = malloc(cap);
    if (!text)
        return NULL;
    size_t used = 0;
    text[0] = '\0';
    game_init(g, pos);
    for (int i = 0; i < k; i++) {
        char move[GAME_MOVE_TEXT_MAX];
        g->move_text(pos, line[i], move, sizeof move);
        used += (size_t)snprintf(text + used, cap - used, "%s%s", i ? " " : "", move);
        g->play(pos, line[i]);
    }
    if (!k)
        snprintf(text, cap, "(start)");
    return text;
}

/* Attempt seed's position (similarity.h) into pos and its label into
 * *label (malloc'd, or NULL). Returns 1 when it may be asked (not over,
 * two legal moves or more), 0 when refused, -1 when out of memory. */
static int draw_position(const struct game *g, uint64_t seed, unsigned char *pos, char **label)
{
    struct rng rng;
    rng_seed(&rng, seed);
    int line[SIMIL_GAME_PLIES], len = 0;
    unsigned char cur[GAME_MAX_STATE];
    game_init(g, cur);
    while (len < SIMIL_GAME_PLIES && game_result(g, cur) < 0) {
        int moves[GAME_MAX_MOVES];
        int n = g->gen(cur, moves);
        if (n == 0)
            break;
        line[len] = moves[rng_below(&rng, (uint32_t)n)];
        g->play(cur, line[len++]);
    }
    *label = NULL;
    if (len == 0)
        return 0;
    int k = (int)rng_below(&rng, (uint32_t)len);
    if (!(*label = replay_line(g, line, k, pos)))
        return -1;
    int moves[GAME_MAX_MOVES];
    return game_result(g, pos) < 0 && g->gen(pos, moves) >= 2;
}

static int drawn_before(const struct simil *s, long n, const unsigned char *pos)
{
    size_t size = s->r->game->state_size;
    for (long i = 0; i < n; i++)
        if (memcmp(s->pos[i], pos, size) == 0)
            return 1;
    return 0;
}

/* The positions (similarity.h). 0; SIMILARITY_TOO_FEW with e when the
 * attempts ran out; -1 with e when out of memory or the judge failed. */
static int make_positions(struct simil *s, long want, struct err *e)
{
    const struct game *g = s->r->game;
    s->pos = calloc((size_t)want, sizeof *s->pos);
    s->labels = calloc((size_t)want, sizeof *s->labels);
    if (!s->pos || !s->labels)
        return err_set(e, 0, 0, "out of memory");
    long tries = want * SIMIL_TRIES_PER_POSITION, j = 0;
    for (; j < tries && s->npos < want; j++) {
        char *label;
        int ok = draw_position(g, s->r->seed + (uint64_t)j, s->pos[s->npos], &label);
        if (judge_error(s->r->judge, e) != 0) {
            free(label);
            return -1;
        }
        if (ok < 0)
            return err_set(e, 0, 0, "out of memory");
        if (ok && !drawn_before(s, s->npos, s->pos[s->npos]))
            s->labels[s->npos++] = label;
        else
            free(label);
    }
    if (s->npos < want) {
        err_set(e, 0, 0, "--positions %ld: %ld random games of %s gave %ld distinct positions "
                "with a choice of moves; give --positions %ld at most", want, j, g->name,
                s->npos, s->npos);
        return SIMILARITY_TOO_FEW;
    }
    return 0;
}

/* Engine i's move at every position into its row of s->moves. PLAY_PLAYED,
 * PLAY_CANCELLED, PLAY_BUSY, or -1 with e. */
static int ask_engine(struct simil *s, const struct spec *eng, int i, struct err *e)
{
    struct play_solo *solo;
    if (play_solo_open(&solo, s->r, eng, e) != 0)
        return -1;
    int rc = PLAY_PLAYED;
    char **row = s->moves + (size_t)i * (size_t)s->npos;
    for (long p = 0; p < s->npos && rc == PLAY_PLAYED; p++) {
        struct rec_move m;
        rc = play_solo_move(solo, s->pos[p], s->r->depth, &m, e);
        if (rc != PLAY_PLAYED)
            break;
        rec_move_free(&m);   /* its tails: only the move is compared */
        if (strcmp(m.status, "ok") == 0 && m.move[0] && !(row[p] = strdup(m.move)))
            rc = err_set(e, 0, 0, "out of memory");
    }
    play_solo_close(solo);
    return rc;
}

/* Engine i's line of progress: a run of minutes shows where it is. */
static void say_progress(const struct simil *s, int i, int n, FILE *to)
{
    long answered = 0;
    for (long p = 0; p < s->npos; p++)
        answered += s->moves[(size_t)i * (size_t)s->npos + (size_t)p] != NULL;
    char name[ESC_ROOM(REC_NAME_MAX)];
    fprintf(to, "similarity: %s (%d of %d): %ld of %ld positions answered\n",
            esc_text(s->names[i], name, sizeof name), i + 1, n, answered, s->npos);
    fflush(to);
}

static void print_text(const struct simil *s, const struct agree_table *t,
                       const struct agree_field *f, int n, FILE *out)
{
    const struct play_rules *r = s->r;
    fprintf(out, "Similarity %s: %ld positions from random games (seed %llu), depth %d, %d "
                 "engines\n", r->game->name, s->npos, (unsigned long long)r->seed, r->depth, n);
    agree_text(t, f, out);
}

static int print_json(const struct simil *s, const struct agree_table *t,
                      const struct agree_field *f, FILE *out, struct err *e)
{
    cJSON *doc = cJSON_CreateObject();
    cJSON *seed = hdr_seed_json(s->r->seed);
    int ok = doc && seed;
    if (ok) {
        cJSON_AddStringToObject(doc, "game", s->r->game->name);
        cJSON_AddNumberToObject(doc, "positions", (double)s->npos);
        cJSON_AddItemToObject(doc, "seed", seed);
        seed = NULL;
        cJSON_AddNumberToObject(doc, "depth", s->r->depth);
        ok = agree_json(t, f, doc) == 0;
    }
    char *text = ok ? cJSON_Print(doc) : NULL;
    cJSON_Delete(seed);
    cJSON_Delete(doc);
    if (!text)
        return err_set(e, 0, 0, "out of memory");
    fprintf(out, "%s\n", text);
    free(text);
    return 0;
}

/* The comparison of the answers, printed in o's format. */
static int compare(const struct simil *s, int n, const struct similarity_opts *o, FILE *out,
                   struct err *e)
{
    struct agree_table t = { .nengines = n, .npos = s->npos, .names = s->names,
                             .moves = (const char *const *)s->moves,
                             .labels = (const char *const *)s->labels };
    struct agree_field f;
    if (agree_compute(&t, &f) != 0)
        return err_set(e, 0, 0, "out of memory");
    int rc = 0;
    if (o->format == SIMILARITY_JSON)
        rc = print_json(s, &t, &f, out, e);
    else
        print_text(s, &t, &f, n, out);
    agree_free(&f);
    return rc;
}

static void simil_free(struct simil *s, int n)
{
    for (long p = 0; s->labels && p < s->npos; p++)
        free(s->labels[p]);
    for (long k = 0; s->moves && k < (long)n * s->npos; k++)
        free(s->moves[k]);
    free(s->labels);
    free(s->moves);
    free(s->pos);
    free(s->names);
}

int similarity_run(const struct play_rules *r, const struct spec *engines, int n,
                   const struct similarity_opts *o, FILE *out, struct err *e)
{
    assert(n >= 2 && o->positions >= 1 && o->positions <= SIMIL_MAX_POSITIONS);
    struct simil s = { .r = r };
    int rc = make_positions(&s, o->positions, e);
    if (rc == 0) {
        s.moves = calloc((size_t)n * (size_t)s.npos, sizeof *s.moves);
        s.names = calloc((size_t)n, sizeof *s.names);
        if (!s.moves || !s.names)
            rc = err_set(e, 0, 0, "out of memory");
    }
    for (int i = 0; rc == 0 && i < n; i++) {
        s.names[i] = engines[i].name;
        rc = ask_engine(&s, &engines[i], i, e);
        if (rc == 0 && o->progress)
            say_progress(&s, i, n, o->progress);
    }
    if (rc == PLAY_PLAYED)
        rc = compare(&s, n, o, out, e);
    simil_free(&s, n);
    return rc == PLAY_PLAYED      ? SIMILARITY_DONE
           : rc == PLAY_CANCELLED ? SIMILARITY_CANCELLED
           : rc == PLAY_BUSY      ? SIMILARITY_BUSY
           : rc == SIMILARITY_TOO_FEW ? SIMILARITY_TOO_FEW
                                  : -1;
}
