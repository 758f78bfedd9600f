/*
 * agree.c - move agreement between engines (agree.h): each pair's share of
 * identical moves, the field's median and MAD, the flag, the positions a
 * pair agrees on alone, and their text and JSON.
 */
#include <assert.h>
#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "arena/agree.h"
#include "arena/escape.h"
#include "arena/game.h"
#include "arena/record.h"
#include "arena/stats.h"

/* An engine's name and a move as a terminal shows them (escape.h). */
#define NAME_SHOWN ESC_ROOM(REC_NAME_MAX)
#define MOVE_SHOWN ESC_ROOM(GAME_MOVE_TEXT_MAX)

static const char *move_at(const struct agree_table *t, int e, long p)
{
    return t->moves[(size_t)e * (size_t)t->npos + (size_t)p];
}

static int same_move(const char *x, const char *y)
{
    return x && y && strcmp(x, y) == 0;
}

/* 1 when the pair's engines chose the same move at p and no other did. */
static int alone_at(const struct agree_table *t, const struct agree_pair *pr, long p)
{
    const char *m = move_at(t, pr->a, p);
    if (!same_move(m, move_at(t, pr->b, p)))
        return 0;
    for (int e = 0; e < t->nengines; e++)
        if (e != pr->a && e != pr->b && same_move(m, move_at(t, e, p)))
            return 0;
    return 1;
}

static void count_pair(const struct agree_table *t, struct agree_pair *pr)
{
    for (long p = 0; p < t->npos; p++) {
        const char *x = move_at(t, pr->a, p), *y = move_at(t, pr->b, p);
        if (!x || !y)
            continue;
        pr->compared++;
        pr->same += strcmp(x, y) == 0;
        pr->alone += alone_at(t, pr, p);
    }
    pr->agreement = pr->compared ? (double)pr->same / (double)pr->compared : 0.0;
    pr->log_odds = agree_log_odds(pr->same, pr->compared);
}

double agree_log_odds(long same, long compared)
{
    assert(same >= 0 && same <= compared);
    return log(((double)same + 0.5) / ((double)(compared - same) + 0.5));
}

double agree_share(double l)
{
    return 1.0 / (1.0 + exp(-l));
}

/* The median of n (>= 1) values, sorting v in place: the middle one, or
 * the mean of the middle two (stats_percentile's nearest rank would take
 * the lower, which a field of an even number of pairs shows). */
static double median_of(double *v, long n)
{
    assert(n >= 1);
    stats_sort(v, n);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double agree_threshold(double median, double mad)
{
    double spread = AGREE_FLAG_K * AGREE_MAD_SCALE * mad;
    return median + (spread > AGREE_FLAG_MIN_GAP ? spread : AGREE_FLAG_MIN_GAP);
}

/* Highest log-odds first; ties by the engines' order. */
static int by_agreement(const void *x, const void *y)
{
    const struct agree_pair *p = x, *q = y;
    if (p->log_odds != q->log_odds)
        return p->log_odds < q->log_odds ? 1 : -1;
    return p->a != q->a ? p->a - q->a : p->b - q->b;
}

/* The field's median, MAD and threshold from its pairs' log-odds. */
static int field_figures(struct agree_field *f)
{
    double *v = malloc((size_t)f->npairs * sizeof *v);
    if (!v)
        return -1;
    for (int k = 0; k < f->npairs; k++)
        v[k] = f->pair[k].log_odds;
    f->median = median_of(v, f->npairs);
    for (int k = 0; k < f->npairs; k++)
        v[k] = fabs(f->pair[k].log_odds - f->median);
    f->mad = median_of(v, f->npairs);
    free(v);
    f->threshold = agree_threshold(f->median, f->mad);
    return 0;
}

int agree_compute(const struct agree_table *t, struct agree_field *f)
{
    assert(t->nengines >= 2 && t->npos >= 0);
    memset(f, 0, sizeof *f);
    int n = t->nengines;
    f->npairs = n * (n - 1) / 2;
    if (!(f->pair = calloc((size_t)f->npairs, sizeof *f->pair)))
        return -1;
    int k = 0;
    for (int a = 0; a < n; a++)
        for (int b = a + 1; b < n; b++) {
            f->pair[k] = (struct agree_pair){ .a = a, .b = b };
            count_pair(t, &f->pair[k++]);
        }
    if (field_figures(f) != 0) {
        agree_free(f);
        return -1;
    }
    double sd = AGREE_MAD_SCALE * f->mad;
    for (k = 0; k < f->npairs; k++) {
        struct agree_pair *p = &f->pair[k];
        p->z = sd > 0 ? (p->log_odds - f->median) / sd : 0.0;
        p->flagged = p->log_odds > f->threshold;
    }
    qsort(f->pair, (size_t)f->npairs, sizeof *f->pair, by_agreement);
    return 0;
}

void agree_free(struct agree_field *f)
{
    free(f->pair);
    f->pair = NULL;
    f->npairs = 0;
}

long agree_alone(const struct agree_table *t, const struct agree_pair *p, long *pos, long cap)
{
    long n = 0;
    for (long q = 0; q < t->npos && n < cap; q++)
        if (alone_at(t, p, q))
            pos[n++] = q;
    return n;
}

/* ---- the text ---- */

/* Width of the engine columns: the longest name as the terminal shows it. */
static int name_width(const struct agree_table *t)
{
    int w = (int)strlen("Engine");
    for (int e = 0; e < t->nengines; e++) {
        char name[NAME_SHOWN];
        int len = (int)strlen(esc_text(t->names[e], name, sizeof name));
        w = len > w ? len : w;
    }
    return w;
}

static void text_rows(const struct agree_table *t, const struct agree_field *f, FILE *out)
{
    int w = name_width(t);
    fprintf(out, "%-*s  %-*s  %9s  %6s  %8s  %5s  %6s  %s\n", w, "Engine", w, "Engine",
            "Agreement", "Same", "Compared", "Alone", "z", "Flagged");
    for (int k = 0; k < f->npairs; k++) {
        const struct agree_pair *p = &f->pair[k];
        char a[NAME_SHOWN], b[NAME_SHOWN];
        fprintf(out, "%-*s  %-*s  %9.3f  %6ld  %8ld  %5ld  %6.2f  %s\n", w,
                esc_text(t->names[p->a], a, sizeof a), w, esc_text(t->names[p->b], b, sizeof b),
                p->agreement, p->same, p->compared, p->alone, p->z,
                p->flagged ? "FLAGGED" : "-");
    }
}

/* One position of a flagged pair's evidence: its label, the pair's move,
 * the others'. */
static void text_position(const struct agree_table *t, const struct agree_pair *p, long q,
                          FILE *out)
{
    char move[MOVE_SHOWN];
    fprintf(out, "  position %ld", q + 1);
    if (t->labels && t->labels[q]) {
        fputs(" (", out);
        esc_fputs(t->labels[q], out);
        fputs(")", out);
    }
    fprintf(out, ": both %s; others:", esc_text(move_at(t, p->a, q), move, sizeof move));
    for (int e = 0, first = 1; e < t->nengines; e++) {
        if (e == p->a || e == p->b)
            continue;
        char name[NAME_SHOWN];
        const char *m = move_at(t, e, q);
        fprintf(out, "%s %s %s", first ? "" : ",", esc_text(t->names[e], name, sizeof name),
                m ? esc_text(m, move, sizeof move) : "(none)");
        first = 0;
    }
    fputs("\n", out);
}

static void text_evidence(const struct agree_table *t, const struct agree_pair *p, FILE *out)
{
    long pos[AGREE_EVIDENCE_MAX];
    long n = agree_alone(t, p, pos, AGREE_EVIDENCE_MAX);
    char a[NAME_SHOWN], b[NAME_SHOWN];
    fprintf(out, "\n%s and %s agree on %ld of %ld positions, %ld of them alone (no other "
                 "engine plays their move)%s\n",
            esc_text(t->names[p->a], a, sizeof a), esc_text(t->names[p->b], b, sizeof b),
            p->same, p->compared, p->alone, n ? ":" : ".");
    for (long k = 0; k < n; k++)
        text_position(t, p, pos[k], out);
    if (p->alone > n)
        fprintf(out, "  ... and %ld more\n", p->alone - n);
}

/* Engines that gave no legal answer somewhere: how often. */
static void text_failures(const struct agree_table *t, FILE *out)
{
    for (int e = 0; e < t->nengines; e++) {
        long failed = 0;
        for (long p = 0; p < t->npos; p++)
            failed += move_at(t, e, p) == NULL;
        if (!failed)
            continue;
        char name[NAME_SHOWN];
        fprintf(out, "%s: no legal answer at %ld of %ld positions (not compared there)\n",
                esc_text(t->names[e], name, sizeof name), failed, t->npos);
    }
}

void agree_text(const struct agree_table *t, const struct agree_field *f, FILE *out)
{
    int flagged = 0;
    for (int k = 0; k < f->npairs; k++)
        flagged += f->pair[k].flagged;
    fprintf(out, "Agreement: identical moves / positions both answered, compared as log-odds "
                 "L = ln((same + 1/2) / (differ + 1/2))\n"
                 "Field of %d pairs: median L %.3f (agreement %.3f), MAD %.3f\n"
                 "Flagged above L %.3f (agreement %.3f): median + max(%g x %g x MAD, %g); "
                 "%d pair%s\n\n",
            f->npairs, f->median, agree_share(f->median), f->mad, f->threshold,
            agree_share(f->threshold), AGREE_FLAG_K, AGREE_MAD_SCALE, AGREE_FLAG_MIN_GAP,
            flagged, flagged == 1 ? "" : "s");
    text_rows(t, f, out);
    for (int k = 0; k < f->npairs; k++)
        if (f->pair[k].flagged)
            text_evidence(t, &f->pair[k], out);
    text_failures(t, out);
}

/* ---- the JSON ---- */

static cJSON *json_position(const struct agree_table *t, const struct agree_pair *p, long q)
{
    cJSON *pos = cJSON_CreateObject();
    if (pos) {
        cJSON_AddNumberToObject(pos, "position", (double)(q + 1));
        cJSON_AddStringToObject(pos, "moves", t->labels && t->labels[q] ? t->labels[q] : "");
        cJSON_AddStringToObject(pos, "move", move_at(t, p->a, q));
    }
    cJSON *others = pos ? cJSON_AddObjectToObject(pos, "others") : NULL;
    int ok = others != NULL;
    for (int e = 0; ok && e < t->nengines; e++) {
        if (e == p->a || e == p->b)
            continue;
        const char *m = move_at(t, e, q);
        ok = (m ? cJSON_AddStringToObject(others, t->names[e], m)
                : cJSON_AddNullToObject(others, t->names[e])) != NULL;
    }
    if (!ok) {
        cJSON_Delete(pos);
        return NULL;
    }
    return pos;
}

static cJSON *json_pair(const struct agree_table *t, const struct agree_pair *p)
{
    cJSON *j = cJSON_CreateObject();
    if (!j)
        return NULL;
    cJSON_AddStringToObject(j, "a", t->names[p->a]);
    cJSON_AddStringToObject(j, "b", t->names[p->b]);
    cJSON_AddNumberToObject(j, "agreement", p->agreement);
    cJSON_AddNumberToObject(j, "same", (double)p->same);
    cJSON_AddNumberToObject(j, "compared", (double)p->compared);
    cJSON_AddNumberToObject(j, "alone", (double)p->alone);
    cJSON_AddNumberToObject(j, "log_odds", p->log_odds);
    cJSON_AddNumberToObject(j, "z", p->z);
    cJSON_AddBoolToObject(j, "flagged", p->flagged);
    cJSON *ev = cJSON_AddArrayToObject(j, "evidence");
    if (!ev) {
        cJSON_Delete(j);
        return NULL;
    }
    long pos[AGREE_EVIDENCE_MAX];
    long n = p->flagged ? agree_alone(t, p, pos, AGREE_EVIDENCE_MAX) : 0;
    for (long k = 0; k < n; k++) {
        cJSON *item = json_position(t, p, pos[k]);
        if (!item || !cJSON_AddItemToArray(ev, item)) {
            cJSON_Delete(item);
            cJSON_Delete(j);
            return NULL;
        }
    }
    return j;
}

static int json_engines(const struct agree_table *t, cJSON *obj)
{
    cJSON *arr = cJSON_AddArrayToObject(obj, "engines");
    for (int e = 0; arr && e < t->nengines; e++) {
        long failed = 0;
        for (long p = 0; p < t->npos; p++)
            failed += move_at(t, e, p) == NULL;
        cJSON *eng = cJSON_CreateObject();
        if (!eng || !cJSON_AddItemToArray(arr, eng)) {
            cJSON_Delete(eng);
            return -1;
        }
        cJSON_AddStringToObject(eng, "name", t->names[e]);
        cJSON_AddNumberToObject(eng, "answered", (double)(t->npos - failed));
        cJSON_AddNumberToObject(eng, "failed", (double)failed);
    }
    return arr ? 0 : -1;
}

int agree_json(const struct agree_table *t, const struct agree_field *f, cJSON *obj)
{
    cJSON *rule = cJSON_AddObjectToObject(obj, "rule");
    if (!rule)
        return -1;
    cJSON_AddStringToObject(rule, "scale", "log-odds");
    cJSON_AddNumberToObject(rule, "k", AGREE_FLAG_K);
    cJSON_AddNumberToObject(rule, "min_gap", AGREE_FLAG_MIN_GAP);
    cJSON_AddNumberToObject(rule, "mad_scale", AGREE_MAD_SCALE);
    cJSON_AddNumberToObject(obj, "median", f->median);
    cJSON_AddNumberToObject(obj, "mad", f->mad);
    cJSON_AddNumberToObject(obj, "threshold", f->threshold);
    cJSON_AddNumberToObject(obj, "threshold_share", agree_share(f->threshold));
    if (json_engines(t, obj) != 0)
        return -1;
    cJSON *pairs = cJSON_AddArrayToObject(obj, "pairs");
    for (int k = 0; pairs && k < f->npairs; k++) {
        cJSON *p = json_pair(t, &f->pair[k]);
        if (!p || !cJSON_AddItemToArray(pairs, p)) {
            cJSON_Delete(p);
            return -1;
        }
    }
    return pairs ? 0 : -1;
}
