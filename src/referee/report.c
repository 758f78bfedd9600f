/*
 * report.c - `referee report`: reads a journal or match log into a tally
 * and prints it with the renderer of the format asked for (report.h).
 */
#include <cjson/cJSON.h>
#include <string.h>
#include "arena/journal.h"
#include "arena/record.h"
#include "arena/report.h"
#include "arena/report_csv.h"
#include "arena/report_json.h"
#include "arena/report_text.h"

void report_print(struct tally *t, enum report_format f, enum report_csv_table table,
                  FILE *out)
{
    switch (f) {
    case REPORT_TEXT:
        report_text(t, out);
        break;
    case REPORT_JSON:
        report_json(t, out);
        break;
    case REPORT_CSV:
        report_csv(t, table, out);
        break;
    }
}

static int report_header(struct tally *t, const cJSON *json, struct err *e)
{
    struct rec_header h;
    if (rec_header_decode(json, &h, e) != 0)
        return -1;
    const char *name[REC_MAX_ENGINES];
    for (int i = 0; i < h.nengines; i++)
        name[i] = h.engine[i];
    if (tally_init(t, h.nengines, name, e) != 0)
        return -1;
    /* A match log has no "format"; a journal before gauntlets had none either,
     * but a crosstable of two engines says no more than their pair line. */
    const cJSON *format = cJSON_GetObjectItemCaseSensitive(json, "format");
    t->round_robin = !cJSON_IsString(format) || strcmp(format->valuestring, "round-robin") == 0;
    return 0;
}

static int report_add(void *ctx, const cJSON *json, int is_header, int line, struct err *e)
{
    struct tally *t = ctx;
    int rc;
    if (is_header) {
        rc = report_header(t, json, e);
    } else {
        struct game_record rec;
        rc = rec_decode(json, &rec, e) || tally_add(t, &rec, e) ? -1 : 0;
        rec_free(&rec);
    }
    if (rc && line && !e->line)
        e->line = line, e->col = 1;
    return rc;
}

int report_file(const char *path, enum report_format f, enum report_csv_table table, FILE *out,
                struct err *e)
{
    struct tally t;
    memset(&t, 0, sizeof t);
    int rc = journal_scan(path, report_add, &t, e) ? -1 : 0;
    if (!rc)
        report_print(&t, f, table, out);
    tally_free(&t);
    return rc;
}
