/*
 * benchdoc.h - the arena.bench/1 document, depth against CPU time per move,
 * and the per-depth figures both benches compute: `engine bench` (its
 * searches in process) and `referee bench` (any engine, through the
 * referee's runner) write it here, so the one plot script
 * (scripts/plot-bench.sh) draws either and the two cannot drift apart.
 *
 * The document: {"schema": "arena.bench/1", "game": NAME, then the
 * writer's own keys}. Its engines: one at the top, the document itself
 * ("player", "depths": engine bench), or an "engines" array of objects
 * {"name", "depths", ...} (referee bench). A depth: {"depth", "moves" (the
 * moves timed), "cpu_ms": {"median", "p95", "max"} (of one move, nearest
 * rank as stats.h takes it), "peak_rss_kb", "growth" (this median over the
 * previous depth's; absent at the first depth, or when either median is
 * 0), then the writer's own keys}. With no move timed every cpu_ms is 0,
 * which the plot draws as a gap.
 *
 * Representation: cJSON trees the caller owns until benchdoc_write.
 */
#ifndef ARENA_BENCHDOC_H
#define ARENA_BENCHDOC_H

#include "arena/err.h"

struct cJSON;

#define BENCHDOC_SCHEMA "arena.bench/1"

/* One engine at one depth. */
struct benchdoc_row {
    int depth;
    long moves;                       /* moves timed */
    double median_ms, p95_ms, max_ms; /* CPU of one move */
    long peak_rss_kb;
};

/* Sets row's moves and CPU figures from the CPU ms of its n (>= 0) moves,
 * which it sorts in place. */
void benchdoc_spread(struct benchdoc_row *row, double *ms, long n);
/* row's median over prev's; 0 when prev is NULL or a median is 0. */
double benchdoc_growth(const struct benchdoc_row *row, const struct benchdoc_row *prev);

/* A new document {"schema", "game"}, or NULL when out of memory; the
 * caller adds its keys and passes it to benchdoc_write. */
struct cJSON *benchdoc_new(const char *game);
/* Adds "depths": the n rows, in order, to obj; returns the array (its items
 * are the rows' objects, for the caller's own keys), or NULL when out of
 * memory. */
struct cJSON *benchdoc_add_depths(struct cJSON *obj, const struct benchdoc_row *rows, int n);
/* Writes doc, indented, to path atomically (textfile.h) and deletes it.
 * Returns 0, or -1 with e filled (NULL doc: out of memory). */
int benchdoc_write(struct cJSON *doc, const char *path, struct err *e);

#endif
