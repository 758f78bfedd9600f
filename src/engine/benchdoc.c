/* benchdoc.c - the arena.bench/1 document and its per-depth figures
 * (benchdoc.h). */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>
#include "arena/benchdoc.h"
#include "arena/stats.h"
#include "arena/textfile.h"

void benchdoc_spread(struct benchdoc_row *row, double *ms, long n)
{
    stats_sort(ms, n);
    row->moves = n;
    row->median_ms = stats_percentile(ms, n, 50);
    row->p95_ms = stats_percentile(ms, n, 95);
    row->max_ms = n ? ms[n - 1] : 0.0;
}

double benchdoc_growth(const struct benchdoc_row *row, const struct benchdoc_row *prev)
{
    if (!prev || prev->median_ms <= 0 || row->median_ms <= 0)
        return 0;
    return row->median_ms / prev->median_ms;
}

cJSON *benchdoc_new(const char *game)
{
    cJSON *doc = cJSON_CreateObject();
    if (doc && (!cJSON_AddStringToObject(doc, "schema", BENCHDOC_SCHEMA) ||
                !cJSON_AddStringToObject(doc, "game", game))) {
        cJSON_Delete(doc);
        return NULL;
    }
    return doc;
}

cJSON *benchdoc_add_depths(cJSON *obj, const struct benchdoc_row *rows, int n)
{
    cJSON *arr = cJSON_AddArrayToObject(obj, "depths");
    for (int i = 0; arr && i < n; i++) {
        cJSON *d = cJSON_CreateObject(), *ms;
        if (!d || !cJSON_AddItemToArray(arr, d))
            return cJSON_Delete(d), NULL;
        cJSON_AddNumberToObject(d, "depth", rows[i].depth);
        cJSON_AddNumberToObject(d, "moves", (double)rows[i].moves);
        if (!(ms = cJSON_AddObjectToObject(d, "cpu_ms")))
            return NULL;
        cJSON_AddNumberToObject(ms, "median", rows[i].median_ms);
        cJSON_AddNumberToObject(ms, "p95", rows[i].p95_ms);
        cJSON_AddNumberToObject(ms, "max", rows[i].max_ms);
        cJSON_AddNumberToObject(d, "peak_rss_kb", (double)rows[i].peak_rss_kb);
        double growth = benchdoc_growth(&rows[i], i ? &rows[i - 1] : NULL);
        if (growth > 0)
            cJSON_AddNumberToObject(d, "growth", growth);
    }
    return arr;
}

int benchdoc_write(cJSON *doc, const char *path, struct err *e)
{
    char *text = doc ? cJSON_Print(doc) : NULL;
    cJSON_Delete(doc);
    if (!text)
        return err_set(e, 0, 0, "out of memory");
    size_t len = strlen(text);
    text[len] = '\n';   /* replaces the NUL; the length is passed explicitly */
    int rc = tf_write_atomic(path, text, len + 1, e);
    free(text);
    return rc;
}
