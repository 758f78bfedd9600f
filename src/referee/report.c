/*
 * report.c - what a tournament's games add up to: the statistics (Elo, LOS,
 * SPRT, percentiles, as cutechess computes them, so users recognise the
 * numbers), the tally of a journal and its report as text, JSON or CSV
 * (tournament.h).
 */
#include <assert.h>
#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "arena/tournament.h"

#define ELO_SCALE 400.0
#define Z95 1.959963984540054   /* the two-sided 95% normal quantile */
#define PERCENT 100.0

double tour_elo(double s)
{
    if (s <= 0.0)
        return -INFINITY;
    if (s >= 1.0)
        return INFINITY;
    return -ELO_SCALE * log10(1.0 / s - 1.0);
}

void tour_elo_interval(long w, long l, long d, double *elo, double *margin)
{
    double n = (double)(w + l + d);
    if (n == 0) {
        *elo = 0.0;
        *margin = INFINITY;
        return;
    }
    double s = ((double)w + 0.5 * (double)d) / n;
    double var = ((double)w * (1 - s) * (1 - s) + (double)d * (0.5 - s) * (0.5 - s) +
                  (double)l * s * s) / n;
    double dev = Z95 * sqrt(var / n);
    *elo = tour_elo(s);
    *margin = isfinite(*elo) ? (tour_elo(s + dev) - tour_elo(s - dev)) / 2.0 : INFINITY;
}

double tour_los(long w, long l)
{
    if (w + l == 0)
        return 0.5;
    return 0.5 * (1.0 + erf((double)(w - l) / sqrt(2.0 * (double)(w + l))));
}

double tour_sprt_llr(long w, long l, long d, double elo0, double elo1)
{
    double n = (double)(w + l + d);
    if (n == 0)
        return 0.0;
    double s = ((double)w + 0.5 * (double)d) / n;
    double var = ((double)w * (1 - s) * (1 - s) + (double)d * (0.5 - s) * (0.5 - s) +
                  (double)l * s * s) / n;
    /* All games alike (every one won, say) leave no variance to measure:
     * one virtual win, draw and loss give a spread that shrinks as real
     * games accumulate, instead of deciding on a handful of games. */
    if (var <= 0.0)
        return tour_sprt_llr(w + 1, l + 1, d + 1, elo0, elo1);
    double s0 = 1.0 / (1.0 + pow(10.0, -elo0 / ELO_SCALE));
    double s1 = 1.0 / (1.0 + pow(10.0, -elo1 / ELO_SCALE));
    return n * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var);
}

void tour_sprt_bounds(double alpha, double beta, double *lower, double *upper)
{
    *lower = log(beta / (1.0 - alpha));
    *upper = log((1.0 - beta) / alpha);
}

double tour_percentile(const double *sorted, long n, double p)
{
    if (n == 0)
        return 0.0;
    long rank = (long)ceil(p / PERCENT * (double)n);
    if (rank < 1)
        rank = 1;
    return sorted[rank - 1];
}

/* --- the tally ---------------------------------------------------------- */

static int engine_number(const struct tour_tally *t, const char *name)
{
    for (int i = 0; i < t->n; i++)
        if (strcmp(t->name[i], name) == 0)
            return i;
    return -1;
}

int tour_tally_init(struct tour_tally *t, int n, const char *const name[], struct err *e)
{
    assert(n >= 0 && n <= TOUR_MAX_ENGINES);
    memset(t, 0, sizeof *t);
    if (n < 2)
        return err_set(e, 1, 1, "the header names %d engines, a tournament has at least 2", n);
    for (t->n = 0; t->n < n; t->n++) {
        assert(strlen(name[t->n]) < REC_NAME_MAX);
        strcpy(t->name[t->n], name[t->n]);
    }
    return 0;
}

void tour_tally_free(struct tour_tally *t)
{
    for (int i = 0; i < t->n; i++)
        free(t->cpu[i]);
    free(t->overhead);
}

static int add_sample(double **v, long *n, long *cap, double x)
{
    if (*n == *cap) {
        long grow = *cap ? 2 * *cap : 64;
        double *grown = realloc(*v, (size_t)grow * sizeof *grown);
        if (!grown)
            return -1;
        *v = grown;
        *cap = grow;
    }
    (*v)[(*n)++] = x;
    return 0;
}

static void add_forfeit(struct tour_tally *t, int engine, const char *reason)
{
    int k = 0;
    while (k < t->nforfeit &&
           (t->forfeit[k].engine != engine || strcmp(t->forfeit[k].reason, reason) != 0))
        k++;
    if (k == TOUR_MAX_FORFEITS)
        return;
    if (k == t->nforfeit) {
        t->nforfeit++;
        t->forfeit[k].engine = engine;
        snprintf(t->forfeit[k].reason, REC_REASON_MAX, "%s", reason);
        t->forfeit[k].count = 0;
    }
    t->forfeit[k].count++;
}

int tour_tally_add(struct tour_tally *t, const struct game_record *rec, struct err *e)
{
    if (!rec->player[0][0] || !rec->player[1][0] || rec->result == REC_NO_RESULT ||
        rec->reason == REC_NO_REASON)
        return err_set(e, 0, 0, "a game without \"players\", \"result\" or \"reason\"");
    int side[2] = { engine_number(t, rec->player[0]), engine_number(t, rec->player[1]) };
    if (side[0] < 0 || side[1] < 0)
        return err_set(e, 0, 0, "a game of an engine the header does not name");
    int winner = rec->result;
    t->games++;
    if (winner) {
        int w = side[winner - 1], l = side[2 - winner];
        t->win[w]++;
        t->loss[l]++;
        t->beat[w][l]++;
        if (rec->reason != REC_NORMAL)
            add_forfeit(t, l, rec_reason_text(rec));
    } else {
        t->draw[side[0]]++;
        t->draw[side[1]]++;
        t->drew[side[0]][side[1]]++;
        t->drew[side[1]][side[0]]++;
    }
    for (int k = 0; k < rec->nmoves; k++) {
        const struct rec_move *m = &rec->moves[k];
        if (m->side != 1 && m->side != 2)
            return err_set(e, 0, 0, "a move without a \"side\" of 1 or 2");
        /* A time missing from a hand-made record counts as none. */
        double ms = m->cpu_user_ms + m->cpu_sys_ms;
        int i = side[m->side - 1];
        if (add_sample(&t->cpu[i], &t->ncpu[i], &t->capcpu[i], isnan(ms) ? 0.0 : ms) != 0 ||
            (!isnan(m->referee_ms) &&
             add_sample(&t->overhead, &t->noverhead, &t->capoverhead, m->referee_ms) != 0))
            return err_set(e, 0, 0, "out of memory");
    }
    return 0;
}

/* --- printing ----------------------------------------------------------- */

struct row {
    int engine;
    double points;
};

static int by_points(const void *a, const void *b)
{
    const struct row *x = a, *y = b;
    if (x->points != y->points)
        return x->points < y->points ? 1 : -1;
    return x->engine - y->engine;   /* ties: the configuration's order */
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

struct cpu_stats {
    double mean, median, p95, max;
};

static struct cpu_stats cpu_of(struct tour_tally *t, int i)
{
    struct cpu_stats c = { 0, 0, 0, 0 };
    long n = t->ncpu[i];
    if (n == 0)
        return c;
    qsort(t->cpu[i], (size_t)n, sizeof *t->cpu[i], by_value);
    double sum = 0;
    for (long k = 0; k < n; k++)
        sum += t->cpu[i][k];
    c.mean = sum / (double)n;
    c.median = tour_percentile(t->cpu[i], n, 50);
    c.p95 = tour_percentile(t->cpu[i], n, 95);
    c.max = t->cpu[i][n - 1];
    return c;
}

static void fmt_elo(char *buf, size_t cap, double v)
{
    if (isfinite(v))
        snprintf(buf, cap, "%.1f", v == 0.0 ? 0.0 : v);   /* never "-0.0" */
    else
        snprintf(buf, cap, "%s", isnan(v) ? "nan" : v > 0 ? "inf" : "-inf");
}

static cJSON *json_number(double v)
{
    return isfinite(v) ? cJSON_CreateNumber(v) : cJSON_CreateNull();
}

void tour_tally_print(struct tour_tally *t, enum tour_report_format f, FILE *out)
{
    struct row rows[TOUR_MAX_ENGINES];
    for (int i = 0; i < t->n; i++) {
        rows[i].engine = i;
        rows[i].points = (double)t->win[i] + 0.5 * (double)t->draw[i];
    }
    qsort(rows, (size_t)t->n, sizeof *rows, by_points);
    cJSON *root = f == REPORT_JSON ? cJSON_CreateObject() : NULL;
    cJSON *jst = NULL, *jpairs = NULL, *jcpu = NULL, *jforf = NULL;
    if (root) {
        cJSON_AddStringToObject(root, "schema", "arena.report/1");
        cJSON_AddNumberToObject(root, "games", (double)t->games);
        jst = cJSON_AddArrayToObject(root, "standings");
        jpairs = cJSON_AddArrayToObject(root, "pairs");
        jcpu = cJSON_AddArrayToObject(root, "cpu_per_move_ms");
        jforf = cJSON_AddArrayToObject(root, "forfeits");
    }
    if (f == REPORT_TEXT)
        fprintf(out, "Standings after %ld games\n%4s  %-20s %6s %7s %5s %5s %5s %7s\n", t->games,
                "Rank", "Engine", "Games", "Points", "W", "D", "L", "Score");
    if (f == REPORT_CSV)
        fprintf(out, "rank,engine,games,points,wins,draws,losses,score,cpu_moves,cpu_mean_ms,"
                     "cpu_median_ms,cpu_p95_ms,cpu_max_ms,forfeits\n");
    for (int r = 0; r < t->n; r++) {
        int i = rows[r].engine;
        long g = t->win[i] + t->draw[i] + t->loss[i];
        double score = g ? rows[r].points / (double)g : 0.0;
        struct cpu_stats c = cpu_of(t, i);
        long forfeits = 0;
        for (int k = 0; k < t->nforfeit; k++)
            if (t->forfeit[k].engine == i)
                forfeits += t->forfeit[k].count;
        if (f == REPORT_TEXT) {
            fprintf(out, "%4d  %-20s %6ld %7.1f %5ld %5ld %5ld %6.1f%%\n", r + 1, t->name[i], g,
                    rows[r].points, t->win[i], t->draw[i], t->loss[i], PERCENT * score);
        } else if (f == REPORT_CSV) {
            fprintf(out, "%d,%s,%ld,%.1f,%ld,%ld,%ld,%.4f,%ld,%.3f,%.3f,%.3f,%.3f,%ld\n", r + 1,
                    t->name[i], g, rows[r].points, t->win[i], t->draw[i], t->loss[i], score,
                    t->ncpu[i], c.mean, c.median, c.p95, c.max, forfeits);
        } else {
            cJSON *j = cJSON_CreateObject();
            cJSON_AddNumberToObject(j, "rank", r + 1);
            cJSON_AddStringToObject(j, "engine", t->name[i]);
            cJSON_AddNumberToObject(j, "games", (double)g);
            cJSON_AddNumberToObject(j, "points", rows[r].points);
            cJSON_AddNumberToObject(j, "wins", (double)t->win[i]);
            cJSON_AddNumberToObject(j, "draws", (double)t->draw[i]);
            cJSON_AddNumberToObject(j, "losses", (double)t->loss[i]);
            cJSON_AddNumberToObject(j, "score", score);
            cJSON_AddItemToArray(jst, j);
            cJSON *cj = cJSON_CreateObject();
            cJSON_AddStringToObject(cj, "engine", t->name[i]);
            cJSON_AddNumberToObject(cj, "moves", (double)t->ncpu[i]);
            cJSON_AddNumberToObject(cj, "mean", c.mean);
            cJSON_AddNumberToObject(cj, "median", c.median);
            cJSON_AddNumberToObject(cj, "p95", c.p95);
            cJSON_AddNumberToObject(cj, "max", c.max);
            cJSON_AddItemToArray(jcpu, cj);
        }
    }
    if (f == REPORT_TEXT)
        fprintf(out, "\nPairs (Elo difference of the first engine, 95%% error margin)\n");
    if (f == REPORT_CSV)
        fprintf(out, "\nengine_a,engine_b,games,wins_a,losses_a,draws,elo,elo_margin_95,los,"
                     "draw_ratio\n");
    for (int ra = 0; ra < t->n; ra++)
        for (int rb = ra + 1; rb < t->n; rb++) {
            int a = rows[ra].engine, b = rows[rb].engine;
            long w = t->beat[a][b], l = t->beat[b][a], d = t->drew[a][b], n = w + l + d;
            if (n == 0)
                continue;
            double elo, margin, los = tour_los(w, l), dr = (double)d / (double)n;
            tour_elo_interval(w, l, d, &elo, &margin);
            char es[32], ms[32];
            fmt_elo(es, sizeof es, elo);
            fmt_elo(ms, sizeof ms, margin);
            if (f == REPORT_TEXT) {
                fprintf(out,
                        "%s vs %s: %ld games, %ld - %ld - %ld, Elo difference: %s +/- %s, "
                        "LOS: %.1f %%, DrawRatio: %.1f %%\n",
                        t->name[a], t->name[b], n, w, l, d, es, ms, PERCENT * los, PERCENT * dr);
            } else if (f == REPORT_CSV) {
                fprintf(out, "%s,%s,%ld,%ld,%ld,%ld,%s,%s,%.4f,%.4f\n", t->name[a], t->name[b],
                        n, w, l, d, es, ms, los, dr);
            } else {
                cJSON *j = cJSON_CreateObject();
                cJSON_AddStringToObject(j, "engine_a", t->name[a]);
                cJSON_AddStringToObject(j, "engine_b", t->name[b]);
                cJSON_AddNumberToObject(j, "games", (double)n);
                cJSON_AddNumberToObject(j, "wins_a", (double)w);
                cJSON_AddNumberToObject(j, "losses_a", (double)l);
                cJSON_AddNumberToObject(j, "draws", (double)d);
                cJSON_AddItemToObject(j, "elo", json_number(elo));
                cJSON_AddItemToObject(j, "elo_margin_95", json_number(margin));
                cJSON_AddNumberToObject(j, "los", los);
                cJSON_AddNumberToObject(j, "draw_ratio", dr);
                cJSON_AddItemToArray(jpairs, j);
            }
        }
    if (f == REPORT_TEXT) {
        fprintf(out, "\nCPU time per move (ms, the engine's own user+sys)\n%-20s %7s %9s %9s %9s "
                     "%9s\n",
                "Engine", "Moves", "Mean", "Median", "p95", "Max");
        for (int r = 0; r < t->n; r++) {
            int i = rows[r].engine;
            struct cpu_stats c = cpu_of(t, i);
            fprintf(out, "%-20s %7ld %9.2f %9.2f %9.2f %9.2f\n", t->name[i], t->ncpu[i], c.mean,
                    c.median, c.p95, c.max);
        }
        if (t->noverhead) {
            qsort(t->overhead, (size_t)t->noverhead, sizeof *t->overhead, by_value);
            fprintf(out, "Referee overhead per move (ms, wall outside the engine): median %.3f, "
                         "p95 %.3f\n",
                    tour_percentile(t->overhead, t->noverhead, 50),
                    tour_percentile(t->overhead, t->noverhead, 95));
        }
        fprintf(out, "\nForfeits%s\n", t->nforfeit ? "" : ": none");
    }
    if (f == REPORT_CSV && t->nforfeit)
        fprintf(out, "\nengine,reason,count\n");
    for (int k = 0; k < t->nforfeit; k++) {
        const char *name = t->name[t->forfeit[k].engine];
        if (f == REPORT_TEXT)
            fprintf(out, "%-20s %-24s %ld\n", name, t->forfeit[k].reason, t->forfeit[k].count);
        else if (f == REPORT_CSV)
            fprintf(out, "%s,%s,%ld\n", name, t->forfeit[k].reason, t->forfeit[k].count);
        else {
            cJSON *j = cJSON_CreateObject();
            cJSON_AddStringToObject(j, "engine", name);
            cJSON_AddStringToObject(j, "reason", t->forfeit[k].reason);
            cJSON_AddNumberToObject(j, "count", (double)t->forfeit[k].count);
            cJSON_AddItemToArray(jforf, j);
        }
    }
    if (root) {
        char *text = cJSON_Print(root);
        if (text)
            fprintf(out, "%s\n", text);
        free(text);
        cJSON_Delete(root);
    }
}

static int report_header(struct tour_tally *t, const cJSON *json, struct err *e)
{
    struct rec_header h;
    if (rec_header_decode(json, &h, e) != 0)
        return -1;
    const char *name[REC_MAX_ENGINES];
    for (int i = 0; i < h.nengines; i++)
        name[i] = h.engine[i];
    return tour_tally_init(t, h.nengines, name, e);
}

static int report_add(void *ctx, const cJSON *json, int is_header, int line, struct err *e)
{
    struct tour_tally *t = ctx;
    int rc;
    if (is_header) {
        rc = report_header(t, json, e);
    } else {
        struct game_record rec;
        rc = rec_decode(json, &rec, e) || tour_tally_add(t, &rec, e) ? -1 : 0;
        rec_free(&rec);
    }
    if (rc && line && !e->line)
        e->line = line, e->col = 1;
    return rc;
}

int tour_report(const char *path, enum tour_report_format f, FILE *out, struct err *e)
{
    struct tour_tally t;
    memset(&t, 0, sizeof t);
    int rc = tour_scan(path, report_add, &t, e) ? -1 : 0;
    if (!rc)
        tour_tally_print(&t, f, out);
    tour_tally_free(&t);
    return rc;
}
