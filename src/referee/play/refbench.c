/*
 * refbench.c - `referee bench` (refbench.h): every engine's moves through
 * play_solo, summed up per depth with benchdoc.h's figures.
 *
 * Engine after engine, depth after depth, so an engine's budget stops it
 * before its slowest depths, and each engine keeps one sandbox for all its
 * moves as it would for a game's.
 */
#include <assert.h>
#include <cjson/cJSON.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "arena/benchdoc.h"
#include "arena/cgroup.h"
#include "arena/datadir.h"
#include "arena/escape.h"
#include "referee/journal/header.h"
#include "referee/judge/judge.h"
#include "arena/refbench.h"
#include "arena/runner.h"
#include "arena/rules.h"
#include "arena/stats.h"
#include "arena/textfile.h"

/* Distinct forfeit reasons kept per engine and depth; further ones are
 * counted among the failed moves, not named. Eight is every reason a
 * single depth has shown in practice, and more. */
#define REASONS_MAX 8

struct reason_count {
    char text[REC_REASON_MAX];
    long count, first;   /* first: the position (1-based) */
};

/* One engine at one depth. */
struct depth_result {
    struct benchdoc_row fig;
    long failed;
    int nreasons;
    struct reason_count reason[REASONS_MAX];
};

enum stop { STOP_NONE, STOP_BUDGET, STOP_FAILED };

struct engine_result {
    int ndepths;
    struct depth_result depth[SEARCH_MAX_DEPTH];
    enum stop stop;
    int stop_depth;
};

/* The bench's state: positions, the engines' results, the time samples. */
struct bench {
    const struct play_rules *r;
    const struct refbench_opts *o;
    long npos;
    unsigned char (*pos)[GAME_MAX_STATE];
    struct engine_result *res;
    double *ms;                  /* one depth's timed moves */
    double *overhead;            /* referee_ms of every move */
    long noverhead, capoverhead;
    int name_w;                  /* width of the engine column */
};

/* The positions: the book's lines, or random ones (play_opening). */
static int make_positions(struct bench *b, struct err *e)
{
    const struct play_rules *r = b->r;
    b->npos = r->book ? r->book->n : b->o->positions;
    b->pos = calloc((size_t)b->npos, sizeof *b->pos);
    if (!b->pos)
        return err_set(e, 0, 0, "out of memory");
    for (long i = 0; i < b->npos; i++) {
        struct game_record rec;
        rec_init(&rec, 1, i);
        int rc = play_opening(r, i, b->pos[i], &rec);
        rec_free(&rec);
        if (rc != 0)
            return err_set(e, 0, 0, "out of memory");
        if (judge_error(r->judge, e) != 0)
            return -1;
        /* play_opening stops short of a game's end, and books refuse one. */
        assert(game_result(r->game, b->pos[i]) < 0);
    }
    return 0;
}

/* Counts a failed move under its reason's kind (rules.h): the kinds are
 * the names scripts read from the JSON, whatever detail a move's reason
 * carries (which position's disc, which limit). */
static void count_failure(struct depth_result *d, const char *reason, long position)
{
    char why[REC_REASON_MAX];
    (void)rec_reason_split(reason, why);
    d->failed++;
    for (int k = 0; k < d->nreasons; k++)
        if (strcmp(d->reason[k].text, why) == 0) {
            d->reason[k].count++;
            return;
        }
    if (d->nreasons == REASONS_MAX)
        return;
    struct reason_count *c = &d->reason[d->nreasons++];
    snprintf(c->text, sizeof c->text, "%s", why);
    c->count = 1;
    c->first = position;
}

static int add_overhead(struct bench *b, double ms)
{
    if (b->noverhead == b->capoverhead) {
        long cap = b->capoverhead ? 2 * b->capoverhead : 256;
        double *grown = realloc(b->overhead, (size_t)cap * sizeof *grown);
        if (!grown)
            return -1;
        b->overhead = grown;
        b->capoverhead = cap;
    }
    b->overhead[b->noverhead++] = ms;
    return 0;
}

/* Every move of one engine at one depth into d. PLAY_PLAYED, PLAY_CANCELLED
 * or -1 with e. */
static int run_depth(struct bench *b, struct play_solo *solo, int depth, struct depth_result *d,
                     struct err *e)
{
    long timed = 0;
    d->fig.depth = depth;
    for (long p = 0; p < b->npos; p++)
        for (long k = 0; k < b->o->repeat; k++) {
            struct rec_move m;
            int rc = play_solo_move(solo, b->pos[p], depth, &m, e);
            if (rc != PLAY_PLAYED)
                return rc;
            rec_move_free(&m);   /* its tails: the bench keeps figures only */
            if (add_overhead(b, m.referee_ms) != 0)
                return err_set(e, 0, 0, "out of memory");
            if (strcmp(m.status, "ok") != 0) {
                count_failure(d, m.status, p + 1);
                continue;
            }
            b->ms[timed++] = m.cpu_user_ms + m.cpu_sys_ms;
            if (m.max_rss_kb > d->fig.peak_rss_kb)
                d->fig.peak_rss_kb = (long)m.max_rss_kb;
        }
    benchdoc_spread(&d->fig, b->ms, timed);
    return PLAY_PLAYED;
}

static void print_header(const struct bench *b, FILE *out)
{
    const struct refbench_opts *o = b->o;
    fprintf(out, "Bench %s: %ld position%s ", b->r->game->name, b->npos, b->npos == 1 ? "" : "s");
    if (o->positions)
        fprintf(out, "(%d random plies, seed %llu)", b->r->random_plies,
                (unsigned long long)b->r->seed);
    else
        fprintf(out, "(from %s)", o->positions_path);
    fprintf(out, ", %ld move%s per position and depth, depths %d-%d", o->repeat,
            o->repeat == 1 ? "" : "s", o->depth_min, o->depth_max);
    if (o->budget_ms)
        fprintf(out, ", budget %ld ms", o->budget_ms);
    fprintf(out, "\nCPU time per move (ms, the engine's own user+sys)\n"
                 "%-*s %5s %7s %7s %10s %10s %10s %11s %7s\n",
            b->name_w, "Engine", "Depth", "Moves", "Failed", "Median", "p95", "Max",
            "Peak RSS KB", "Growth");
}

static void print_row(const struct bench *b, const char *name, const struct depth_result *d,
                      const struct depth_result *prev, FILE *out)
{
    const struct benchdoc_row *f = &d->fig;
    fprintf(out, "%-*s %5d %7ld %7ld ", b->name_w, name, f->depth, f->moves, d->failed);
    if (f->moves)
        fprintf(out, "%10.3f %10.3f %10.3f %11ld", f->median_ms, f->p95_ms, f->max_ms,
                f->peak_rss_kb);
    else
        fprintf(out, "%10s %10s %10s %11s", "-", "-", "-", "-");
    double growth = benchdoc_growth(f, prev ? &prev->fig : NULL);
    if (growth > 0)
        fprintf(out, " %7.2f\n", growth);
    else
        fprintf(out, " %7s\n", "-");
    if (!d->failed)
        return;
    fprintf(out, "  %s at depth %d: %ld of %ld moves failed, not timed:", name, f->depth,
            d->failed, d->failed + f->moves);
    for (int k = 0; k < d->nreasons; k++) {
        char why[ESC_ROOM(sizeof d->reason[k].text)];
        fprintf(out, "%s %ld %s (first at position %ld)", k ? "," : "", d->reason[k].count,
                esc_text(d->reason[k].text, why, sizeof why), d->reason[k].first);
    }
    fprintf(out, "\n");
}

/* One engine, depth after depth, until the last or its stop. */
static int bench_engine(struct bench *b, const struct spec *eng, struct engine_result *res,
                            FILE *out, struct err *e)
{
    const struct refbench_opts *o = b->o;
    struct play_solo *solo;
    if (play_solo_open(&solo, b->r, eng, e) != 0)
        return -1;
    int rc = PLAY_PLAYED;
    char name[ESC_ROOM(REC_NAME_MAX)];   /* as the terminal shows it */
    esc_text(eng->name, name, sizeof name);
    for (int depth = o->depth_min; depth <= o->depth_max; depth++) {
        struct depth_result *d = &res->depth[res->ndepths];
        if ((rc = run_depth(b, solo, depth, d, e)) != PLAY_PLAYED)
            break;
        res->ndepths++;
        print_row(b, name, d, res->ndepths > 1 ? d - 1 : NULL, out);
        if (depth == o->depth_max)
            break;
        if (d->fig.moves == 0) {
            res->stop = STOP_FAILED;
            fprintf(out, "%s: every move failed at depth %d: not run deeper\n", name, depth);
        } else if (o->budget_ms && d->fig.median_ms > (double)o->budget_ms) {
            res->stop = STOP_BUDGET;
            fprintf(out, "%s: median %.3f ms at depth %d passes --budget-ms %ld: not run "
                         "deeper\n", name, d->fig.median_ms, depth, o->budget_ms);
        }
        fflush(out);
        if (res->stop) {
            res->stop_depth = depth;
            break;
        }
    }
    play_solo_close(solo);
    return rc;
}

/* The JSON document (refbench.h), into path. */
static int write_json(const struct bench *b, const struct spec *engines, int n, double median,
                      double p95, const char *path, struct err *e)
{
    const struct refbench_opts *o = b->o;
    cJSON *doc = benchdoc_new(b->r->game->name);
    int ok = doc != NULL;
    if (ok) {
        cJSON_AddNumberToObject(doc, "positions", (double)b->npos);
        if (o->positions) {
            cJSON_AddNumberToObject(doc, "random_plies", b->r->random_plies);
            cJSON_AddItemToObject(doc, "seed", hdr_seed_json(b->r->seed));
        } else {
            cJSON_AddStringToObject(doc, "positions_file", o->positions_path);
        }
        cJSON_AddNumberToObject(doc, "repeat", (double)o->repeat);
        cJSON_AddStringToObject(doc, "accounting", cg_root_name(b->r->acct));
        if (o->budget_ms)
            cJSON_AddNumberToObject(doc, "budget_ms", (double)o->budget_ms);
        else
            cJSON_AddNullToObject(doc, "budget_ms");
        cJSON *ref = cJSON_AddObjectToObject(doc, "referee_ms");
        ok = ref && cJSON_AddNumberToObject(ref, "median", median) &&
             cJSON_AddNumberToObject(ref, "p95", p95);
    }
    cJSON *arr = ok ? cJSON_AddArrayToObject(doc, "engines") : NULL;
    for (int i = 0; arr && i < n; i++) {
        const struct engine_result *res = &b->res[i];
        struct benchdoc_row fig[SEARCH_MAX_DEPTH];
        for (int k = 0; k < res->ndepths; k++)
            fig[k] = res->depth[k].fig;
        cJSON *eng = cJSON_CreateObject(), *depths = NULL;
        if (!eng || !cJSON_AddItemToArray(arr, eng)) {
            cJSON_Delete(eng);
            arr = NULL;
            break;
        }
        cJSON_AddStringToObject(eng, "name", engines[i].name);
        if (!(depths = benchdoc_add_depths(eng, fig, res->ndepths))) {
            arr = NULL;
            break;
        }
        for (int k = 0; k < res->ndepths; k++) {
            const struct depth_result *d = &res->depth[k];
            cJSON *item = cJSON_GetArrayItem(depths, k);
            cJSON_AddNumberToObject(item, "failed", (double)d->failed);
            cJSON *why = cJSON_AddObjectToObject(item, "failures");
            for (int r = 0; why && r < d->nreasons; r++)
                cJSON_AddNumberToObject(why, d->reason[r].text, (double)d->reason[r].count);
        }
        if (res->stop) {
            cJSON *stop = cJSON_AddObjectToObject(eng, "stopped");
            cJSON_AddNumberToObject(stop, "depth", res->stop_depth);
            cJSON_AddStringToObject(stop, "reason", res->stop == STOP_BUDGET ? "budget" : "failed");
        } else {
            cJSON_AddNullToObject(eng, "stopped");
        }
    }
    if (!arr) {
        cJSON_Delete(doc);
        doc = NULL;
    }
    return benchdoc_write(doc, path, e);
}

static void bench_free(struct bench *b)
{
    free(b->pos);
    free(b->res);
    free(b->ms);
    free(b->overhead);
}

/* The plot script (datadir.h) into script; 0, or -1 with e when there is
 * none, said before the first move rather than after the last. */
static int find_plot(char script[PATH_MAX], struct err *e)
{
    if (access(datadir_find(DATA_PLOT_BENCH, script, PATH_MAX), R_OK) == 0)
        return 0;
    return err_set(e, 0, 0, "--svg: no plot script %s (make install puts it there; an "
                   "uninstalled build uses its tree's scripts/)", script);
}

/* Draws the document json as svg with the plot script, whose stderr says
 * why when it cannot; prints its "wrote SVG" line to out. */
static int plot(const char *script, const char *json, const char *svg, FILE *out,
                struct err *e)
{
    char said[PATH_MAX + 16];
    char *argv[] = { "sh", (char *)script, (char *)json, (char *)svg, NULL };
    fflush(out);
    int rc = run_tool(argv, said, sizeof said, 0, e);
    if (rc > 0)
        return err_set(e, 0, 0, "--svg %s: %s failed (exit status %d)", svg, script, rc);
    if (rc == 0)
        fprintf(out, "%s\n", said);
    return rc;
}

/* The JSON's path: --json's, or, for --svg alone, tmp_json in a private
 * folder tmp (the caller removes it) made before the first move. */
static const char *json_target(const struct refbench_opts *o, char tmp[PATH_MAX],
                               char tmp_json[PATH_MAX + 16], struct err *e)
{
    if (o->json_path || !o->svg_path)
        return o->json_path;
    const char *base = getenv("TMPDIR");
    base = base && *base ? base : "/tmp";
    snprintf(tmp, PATH_MAX, "%s/arena-bench-XXXXXX", base);
    if (!mkdtemp(tmp)) {
        err_set(e, 0, 0, "cannot make a folder for the plot's JSON in %s: %s", base,
                strerror(errno));
        tmp[0] = '\0';
        return NULL;
    }
    snprintf(tmp_json, PATH_MAX + 16, "%s/bench.json", tmp);
    return tmp_json;
}

int refbench_run(const struct play_rules *r, const struct spec *engines, int n,
                 const struct refbench_opts *o, FILE *out, struct err *e)
{
    assert(n >= 1 && o->repeat >= 1 && o->depth_min >= 1 && o->depth_min <= o->depth_max);
    assert(o->depth_max <= SEARCH_MAX_DEPTH && (o->positions > 0 || r->book));
    struct bench b = { .r = r, .o = o, .name_w = (int)strlen("Engine") };
    char tmp[PATH_MAX] = "", tmp_json[PATH_MAX + 16], script[PATH_MAX];
    const char *json = NULL;
    if ((o->svg_path && find_plot(script, e) != 0) ||
        (!(json = json_target(o, tmp, tmp_json, e)) && o->svg_path) ||
        make_positions(&b, e) != 0) {
        if (tmp[0])
            tf_remove_tree(tmp);
        bench_free(&b);
        return -1;
    }
    long per_depth = b.npos * o->repeat;
    b.res = calloc((size_t)n, sizeof *b.res);
    b.ms = calloc((size_t)per_depth, sizeof *b.ms);
    int rc = PLAY_PLAYED;
    if (!b.res || !b.ms)
        rc = err_set(e, 0, 0, "out of memory");
    for (int i = 0; i < n; i++) {
        char name[ESC_ROOM(REC_NAME_MAX)];
        if ((int)strlen(esc_text(engines[i].name, name, sizeof name)) > b.name_w)
            b.name_w = (int)strlen(name);
    }
    if (rc == PLAY_PLAYED)
        print_header(&b, out);
    for (int i = 0; i < n && rc == PLAY_PLAYED; i++)
        rc = bench_engine(&b, &engines[i], &b.res[i], out, e);
    if (rc == PLAY_PLAYED || rc == PLAY_CANCELLED) {
        stats_sort(b.overhead, b.noverhead);
        double median = stats_percentile(b.overhead, b.noverhead, 50);
        double p95 = stats_percentile(b.overhead, b.noverhead, 95);
        if (b.noverhead)
            fprintf(out, "Referee overhead per move (ms, wall outside the engine): median %.3f, "
                         "p95 %.3f\n", median, p95);
        if (rc == PLAY_PLAYED && json && write_json(&b, engines, n, median, p95, json, e) != 0)
            rc = -1;
        if (rc == PLAY_PLAYED && o->svg_path && plot(script, json, o->svg_path, out, e) != 0)
            rc = -1;
    }
    if (tmp[0])
        tf_remove_tree(tmp);
    bench_free(&b);
    return rc == PLAY_PLAYED      ? REFBENCH_DONE
           : rc == PLAY_CANCELLED ? REFBENCH_CANCELLED
           : rc == PLAY_BUSY      ? REFBENCH_BUSY
                                  : -1;
}
