/* bench.c - fixed positions, fixed depths, cleared TT: speed and node-count
 * signature of the search (bench.h). */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include "arena/bench.h"
#include "arena/benchdoc.h"
#include "arena/clock.h"
#include "arena/search.h"

#define BENCH_MAX_POSITIONS 32

/* Plays a bench line ("4 4 3") from the start position. */
static int bench_position(const struct game *g, const char *line, void *state, struct err *e)
{
    game_init(g, state);
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
    struct benchdoc_row fig;            /* depth, the searches' CPU ms, the
                                         * process's peak RSS after this depth */
    uint64_t nodes;
    double cpu_s;
};

/* The document: benchdoc.h's, this engine at the top with its nodes. */
static int bench_json(const struct bench_opts *o, const struct bench_row *rows, int nrows,
                      int npos, uint64_t total, struct err *e)
{
    struct benchdoc_row fig[SEARCH_MAX_DEPTH];
    for (int i = 0; i < nrows; i++)
        fig[i] = rows[i].fig;
    cJSON *root = benchdoc_new(o->game->name), *arr = NULL;
    if (root) {
        cJSON_AddStringToObject(root, "player", player_name(o->player));
        cJSON_AddNumberToObject(root, "positions", npos);
        cJSON_AddNumberToObject(root, "tt_bytes", (double)o->tt_bytes);
        arr = benchdoc_add_depths(root, fig, nrows);
        cJSON_AddNumberToObject(root, "total_nodes", (double)total);
    }
    for (int i = 0; arr && i < nrows; i++) {
        cJSON *d = cJSON_GetArrayItem(arr, i);
        cJSON_AddNumberToObject(d, "nodes", (double)rows[i].nodes);
        cJSON_AddNumberToObject(d, "cpu_s", rows[i].cpu_s);
        cJSON_AddNumberToObject(d, "nodes_per_s",
                                rows[i].cpu_s > 0 ? rows[i].nodes / rows[i].cpu_s : 0);
        if (i > 0 && rows[i - 1].nodes)
            cJSON_AddNumberToObject(d, "ebf", (double)rows[i].nodes / (double)rows[i - 1].nodes);
    }
    if (!arr) {
        cJSON_Delete(root);
        root = NULL;
    }
    return benchdoc_write(root, o->json_path, e);
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
        row->fig.depth = po.depth = o->depth_min + i;
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
        benchdoc_spread(&row->fig, ms, npos);
        struct rusage ru;
        row->fig.peak_rss_kb = getrusage(RUSAGE_SELF, &ru) == 0 ? ru.ru_maxrss : 0;
        total += row->nodes;
        char ebf[16] = "-";
        if (i > 0 && rows[i - 1].nodes)
            snprintf(ebf, sizeof ebf, "%.2f", (double)row->nodes / (double)rows[i - 1].nodes);
        fprintf(out, "%5d %14llu %10.3f %14.0f %7s\n", row->fig.depth,
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
