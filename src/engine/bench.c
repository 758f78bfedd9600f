/* bench.c - fixed positions, fixed depths, cleared TT: speed and node-count
 * signature of the search (bench.h). */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include "arena/bench.h"
#include "arena/clock.h"
#include "arena/search.h"
#include "arena/stats.h"
#include "arena/textfile.h"

#define BENCH_MAX_POSITIONS 32

/* Plays a bench line ("4 4 3") from the start position. */
static int bench_position(const struct game *g, const char *line, void *state, struct err *e)
{
    g->init(state);
    char buf[GAME_FORMAT_MAX];
    snprintf(buf, sizeof buf, "%s", line);
    char *save;
    for (char *tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
        int move;
        if (g->parse_move(state, tok, &move) != 0)
            return err_set(e, 0, 0, "bench position \"%s\": illegal move %s", line, tok);
        g->play(state, move);
    }
    return 0;
}

struct bench_row {
    int depth;
    uint64_t nodes;
    double cpu_s;
    double median_ms, p95_ms, max_ms;   /* of one position's search */
    long peak_rss_kb;                   /* the process's, after this depth */
};

/* The row's per-search figures from the npos searches' CPU ms. */
static void bench_spread(struct bench_row *row, double *ms, int npos)
{
    stats_sort(ms, npos);
    row->median_ms = stats_percentile(ms, npos, 50);
    row->p95_ms = stats_percentile(ms, npos, 95);
    row->max_ms = npos ? ms[npos - 1] : 0.0;
    struct rusage ru;
    row->peak_rss_kb = getrusage(RUSAGE_SELF, &ru) == 0 ? ru.ru_maxrss : 0;
}

static int bench_json(const struct bench_opts *o, const struct bench_row *rows, int nrows,
                      int npos, uint64_t total, struct err *e)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "schema", "arena.bench/1");
    cJSON_AddStringToObject(root, "game", o->game->name);
    cJSON_AddStringToObject(root, "player", player_name(o->player));
    cJSON_AddNumberToObject(root, "positions", npos);
    cJSON_AddNumberToObject(root, "tt_bytes", (double)o->tt_bytes);
    cJSON *arr = cJSON_AddArrayToObject(root, "depths");
    for (int i = 0; i < nrows; i++) {
        cJSON *d = cJSON_CreateObject();
        cJSON_AddNumberToObject(d, "depth", rows[i].depth);
        cJSON_AddNumberToObject(d, "nodes", (double)rows[i].nodes);
        cJSON_AddNumberToObject(d, "cpu_s", rows[i].cpu_s);
        cJSON_AddNumberToObject(d, "nodes_per_s",
                                rows[i].cpu_s > 0 ? rows[i].nodes / rows[i].cpu_s : 0);
        if (i > 0 && rows[i - 1].nodes)
            cJSON_AddNumberToObject(d, "ebf", (double)rows[i].nodes / (double)rows[i - 1].nodes);
        cJSON_AddNumberToObject(d, "moves", npos);
        cJSON *ms = cJSON_AddObjectToObject(d, "cpu_ms");
        cJSON_AddNumberToObject(ms, "median", rows[i].median_ms);
        cJSON_AddNumberToObject(ms, "p95", rows[i].p95_ms);
        cJSON_AddNumberToObject(ms, "max", rows[i].max_ms);
        cJSON_AddNumberToObject(d, "peak_rss_kb", (double)rows[i].peak_rss_kb);
        cJSON_AddItemToArray(arr, d);
    }
    cJSON_AddNumberToObject(root, "total_nodes", (double)total);
    char *text = cJSON_Print(root);
    cJSON_Delete(root);
    if (!text)
        return err_set(e, 0, 0, "out of memory");
    size_t len = strlen(text);
    text[len] = '\n';   /* replaces the NUL; the length is passed explicitly */
    int rc = tf_write_atomic(o->json_path, text, len + 1, e);
    free(text);
    return rc;
}

int bench_run(const struct bench_opts *o, FILE *out, struct err *e)
{
    const struct game *g = o->game;
    unsigned char pos[BENCH_MAX_POSITIONS][GAME_MAX_STATE];
    int npos = 0;
    for (; g->bench[npos] && npos < BENCH_MAX_POSITIONS; npos++)
        if (bench_position(g, g->bench[npos], pos[npos], e) != 0)
            return -1;

    struct search s;
    struct search_opts so = search_opts_default();
    so.tt_bytes = o->player == PLAYER_ALPHABETA ? o->tt_bytes : 0;
    if (search_init(&s, g, &so) != 0)
        return err_set(e, 0, 0, "out of memory for the search");

    int nrows = o->depth_max - o->depth_min + 1;
    struct bench_row *rows = calloc((size_t)nrows, sizeof *rows);
    if (!rows) {
        search_free(&s);
        return err_set(e, 0, 0, "out of memory");
    }
    fprintf(out, "bench %s player %s positions %d tt_mb %zu\n", g->name,
            player_name(o->player), npos, o->tt_bytes >> 20);
    fprintf(out, "%5s %14s %10s %14s %7s\n", "depth", "nodes", "cpu_s", "nodes/s", "ebf");
    uint64_t total = 0;
    struct player_opts po = { .kind = o->player };
    for (int i = 0; i < nrows; i++) {
        struct bench_row *row = &rows[i];
        row->depth = po.depth = o->depth_min + i;
        uint64_t cpu_ns = 0;
        double ms[BENCH_MAX_POSITIONS];
        for (int k = 0; k < npos; k++) {
            struct search_result r;
            search_clear(&s);   /* not timed: clearing is not searching */
            uint64_t t0 = clock_cpu_ns(), spent;
            player_choose(&s, &po, pos[k], &r);
            cpu_ns += spent = clock_cpu_ns() - t0;
            ms[k] = (double)spent / 1e6;
            row->nodes += r.nodes;
        }
        row->cpu_s = (double)cpu_ns / 1e9;
        bench_spread(row, ms, npos);
        total += row->nodes;
        char ebf[16] = "-";
        if (i > 0 && rows[i - 1].nodes)
            snprintf(ebf, sizeof ebf, "%.2f", (double)row->nodes / (double)rows[i - 1].nodes);
        fprintf(out, "%5d %14llu %10.3f %14.0f %7s\n", row->depth,
                (unsigned long long)row->nodes, row->cpu_s,
                row->cpu_s > 0 ? row->nodes / row->cpu_s : 0.0, ebf);
        fflush(out);
    }
    fprintf(out, "signature %llu nodes\n", (unsigned long long)total);
    int rc = o->json_path ? bench_json(o, rows, nrows, npos, total, e) : 0;
    free(rows);
    search_free(&s);
    return rc;
}
