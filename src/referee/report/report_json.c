/*
 * report_json.c - the JSON report (report_json.h), built with cJSON: every
 * figure of the text report, unrounded (the crosstable's are the pairs'
 * W-L-D); an infinite or uncomputed Elo is null, as JSON has no infinity.
 * The field's ratings are here whatever the number of engines (the text
 * report leaves them out for two, whose pair's line says it all).
 */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "arena/limits.h"
#include "report_json.h"

#define REPORT_SCHEMA "arena.report/1"

static cJSON *json_number(double v)
{
    return isfinite(v) ? cJSON_CreateNumber(v) : cJSON_CreateNull();
}

static cJSON *standing(const struct tally *t, int rank, int i)
{
    long g = t->win[i] + t->draw[i] + t->loss[i];
    double points = tally_points(t, i);
    cJSON *j = cJSON_CreateObject();
    cJSON_AddNumberToObject(j, "rank", rank);
    cJSON_AddStringToObject(j, "engine", t->name[i]);
    cJSON_AddNumberToObject(j, "games", (double)g);
    cJSON_AddNumberToObject(j, "points", points);
    cJSON_AddNumberToObject(j, "wins", (double)t->win[i]);
    cJSON_AddNumberToObject(j, "draws", (double)t->draw[i]);
    cJSON_AddNumberToObject(j, "losses", (double)t->loss[i]);
    cJSON_AddNumberToObject(j, "score", g ? points / (double)g : 0.0);
    double f, a;
    if (t->has_score) {   /* the game's own score: the engine's mean, for and against */
        tally_score(t, i, &f, &a);
        cJSON *gs = cJSON_AddObjectToObject(j, "game_score");
        cJSON_AddNumberToObject(gs, "games", (double)t->scored[i]);
        cJSON_AddNumberToObject(gs, "for", f);
        cJSON_AddNumberToObject(gs, "against", a);
        cJSON_AddStringToObject(gs, "of", t->score_of);
    }
    return j;
}

static cJSON *cpu(struct tally *t, int i)
{
    struct tally_cpu c = tally_cpu(t, i);
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "engine", t->name[i]);
    cJSON_AddNumberToObject(j, "moves", (double)t->ncpu[i]);
    cJSON_AddNumberToObject(j, "mean", c.mean);
    cJSON_AddNumberToObject(j, "median", c.median);
    cJSON_AddNumberToObject(j, "p95", c.p95);
    cJSON_AddNumberToObject(j, "max", c.max);
    return j;
}

static cJSON *pair(const struct tally *t, int a, int b, const struct tally_pair *p)
{
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "engine_a", t->name[a]);
    cJSON_AddStringToObject(j, "engine_b", t->name[b]);
    cJSON_AddNumberToObject(j, "games", (double)p->n);
    cJSON_AddNumberToObject(j, "wins_a", (double)p->w);
    cJSON_AddNumberToObject(j, "losses_a", (double)p->l);
    cJSON_AddNumberToObject(j, "draws", (double)p->d);
    cJSON_AddItemToObject(j, "elo", json_number(p->elo));
    cJSON_AddItemToObject(j, "elo_margin_95", json_number(p->margin));
    cJSON_AddNumberToObject(j, "los", p->los);
    cJSON_AddNumberToObject(j, "draw_ratio", p->draw_ratio);
    cJSON *penta = cJSON_AddArrayToObject(j, "pentanomial");   /* LL, LD, WL+DD, WD, WW */
    for (int k = 0; k < PENTA_OUTCOMES; k++)
        cJSON_AddItemToArray(penta, cJSON_CreateNumber((double)p->penta.count[k]));
    cJSON_AddItemToObject(j, "nelo", json_number(p->nelo));
    cJSON_AddItemToObject(j, "nelo_margin_95", json_number(p->nelo_margin));
    return j;
}

/* The field's ratings (tally_ratings) in the text report's order. */
static cJSON *ratings(const struct tally *t, const int order[])
{
    double elo[REC_MAX_ENGINES], margin[REC_MAX_ENGINES];
    int by[REC_MAX_ENGINES];
    tally_ratings(t, elo, margin);   /* NAN if it fails: null */
    tally_rating_order(t, order, elo, by);
    cJSON *j = cJSON_CreateObject();
    cJSON_AddNumberToObject(j, "prior_draws", RATING_PRIOR_DRAWS);
    if (t->nanchors) {   /* only then: the reports of unanchored fields stay as they were */
        cJSON *anchors = cJSON_AddObjectToObject(j, "anchors");
        for (int i = 0; i < t->n; i++)
            if (t->anchored[i])
                cJSON_AddNumberToObject(anchors, t->name[i], t->anchor_elo[i]);
    }
    cJSON *list = cJSON_AddArrayToObject(j, "engines");
    for (int r = 0; r < t->n; r++) {
        cJSON *e = cJSON_CreateObject();
        cJSON_AddNumberToObject(e, "rank", r + 1);
        cJSON_AddStringToObject(e, "engine", t->name[by[r]]);
        cJSON_AddItemToObject(e, "elo", json_number(elo[by[r]]));
        cJSON_AddItemToObject(e, "elo_margin_95", json_number(margin[by[r]]));
        cJSON_AddItemToArray(list, e);
    }
    return j;
}

/* The referee's overhead per move, or null without samples (old journals). */
static cJSON *overhead(struct tally *t)
{
    double median, p95;
    if (!tally_overhead(t, &median, &p95))
        return cJSON_CreateNull();
    cJSON *j = cJSON_CreateObject();
    cJSON_AddNumberToObject(j, "moves", (double)t->noverhead);
    cJSON_AddNumberToObject(j, "median", median);
    cJSON_AddNumberToObject(j, "p95", p95);
    return j;
}

/* What engine's forfeits of one kind say (tally_why_sort's order: most
 * games first): per detail, as the journal's "detail" has it (the words
 * rec_reason_split parts from the kind; null for a kind without one), its
 * count and its games by number, each with its opponent. Inside each
 * "forfeits" entry, so a report without forfeits keeps its bytes. */
static cJSON *forfeit_details(const struct tally *t, int engine, const char *kind)
{
    cJSON *list = cJSON_CreateArray();
    for (long k = 0; k < t->nwhy; k++) {
        const struct tally_why *w = &t->why[k];
        char its[REC_REASON_MAX];
        const char *detail = rec_reason_split(w->reason, its);
        if (w->engine != engine || strcmp(its, kind) != 0)
            continue;
        cJSON *j = cJSON_CreateObject();
        cJSON_AddItemToObject(j, "detail", detail ? cJSON_CreateString(detail)
                                                  : cJSON_CreateNull());
        cJSON_AddNumberToObject(j, "count", (double)w->count);
        cJSON *games = cJSON_AddArrayToObject(j, "games");
        for (long g = w->first; g < w->first + w->count; g++) {
            const struct tally_lost *l = &t->lost[g];
            cJSON *game = cJSON_CreateObject();
            cJSON_AddItemToObject(game, "game",   /* null: a record without "index" */
                                  l->game < 0 ? cJSON_CreateNull()
                                              : cJSON_CreateNumber((double)l->game));
            cJSON_AddStringToObject(game, "opponent", t->name[l->opponent]);
            cJSON_AddItemToArray(games, game);
        }
        cJSON_AddItemToArray(list, j);
    }
    return list;
}

void report_json(struct tally *t, FILE *out)
{
    int order[REC_MAX_ENGINES];
    tally_standings(t, order);
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "schema", REPORT_SCHEMA);
    cJSON_AddNumberToObject(root, "games", (double)t->games);
    cJSON *st = cJSON_AddArrayToObject(root, "standings");
    cJSON_AddItemToObject(root, "ratings", ratings(t, order));
    cJSON *pairs = cJSON_AddArrayToObject(root, "pairs");
    cJSON *cpus = cJSON_AddArrayToObject(root, "cpu_per_move_ms");
    cJSON_AddItemToObject(root, "referee_overhead_ms", overhead(t));
    cJSON *forfeits = cJSON_AddArrayToObject(root, "forfeits");
    for (int r = 0; r < t->n; r++) {
        cJSON_AddItemToArray(st, standing(t, r + 1, order[r]));
        cJSON_AddItemToArray(cpus, cpu(t, order[r]));
    }
    struct tally_pair p;
    int a, b;
    for (int k = 0; tally_next_pair(t, order, &k, &a, &b, &p);)
        cJSON_AddItemToArray(pairs, pair(t, a, b, &p));
    tally_why_sort(t, order);
    for (int k = 0; k < t->nforfeit; k++) {
        cJSON *j = cJSON_CreateObject();
        cJSON_AddStringToObject(j, "engine", t->name[t->forfeit[k].engine]);
        cJSON_AddStringToObject(j, "reason", t->forfeit[k].reason);
        cJSON_AddNumberToObject(j, "count", (double)t->forfeit[k].count);
        cJSON_AddItemToObject(j, "details", forfeit_details(t, t->forfeit[k].engine,
                                                            t->forfeit[k].reason));
        cJSON_AddItemToArray(forfeits, j);
    }
    char *text = cJSON_Print(root);
    if (text)
        fprintf(out, "%s\n", text);
    free(text);
    cJSON_Delete(root);
}
