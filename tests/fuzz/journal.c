/*
 * journal.c - fuzz target for the tournament journal and match log reader
 * (journal_scan_text, behind journal_scan: report, verify, analyze, merge and
 * resume all read journals through it), and the report's tally of what it
 * reads.
 *
 * Input: the bytes of a journal (JSON lines) or a match log (one JSON
 * document).
 *
 * Properties:
 *   - a rejection has a message, and a place unless the file is empty;
 *   - the header comes first and only first; journal records carry their
 *     line numbers, increasing;
 *   - every record re-serialises (cJSON_PrintUnformatted) to JSON that
 *     parses to an equal record (cJSON_Compare) and serialises to the same
 *     text: what merge writes back is what it read;
 *   - a journal's last line without its newline (a crash mid-append) is not
 *     a game: reading the file without it gives the same records and the
 *     same verdict;
 *   - the report's tally (tally.h) of the decoded records (record.h)
 *     prints in every format without fault.
 */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>
#include "arena/journal.h"
#include "arena/report.h"
#include "arena/tally.h"
#include "fuzz.h"

#define JOURNAL_SCHEMA "arena.journal/1"

struct scan {
    char **rec;          /* each record as cJSON_PrintUnformatted wrote it */
    int n, cap;
    int last_line;
    int is_journal;
    struct tally tally;
    int tally_state;     /* 0: no header yet, 1: counting, -1: the tally refused */
};

/* The tally of a header, as report starts it: 0 or -1 with e. */
static int tally_header(struct tally *t, const cJSON *json, struct err *e)
{
    struct rec_header h;
    const char *name[REC_MAX_ENGINES];
    if (rec_header_decode(json, &h, e) != 0) {
        memset(t, 0, sizeof *t);
        return -1;
    }
    for (int i = 0; i < h.nengines; i++)
        name[i] = h.engine[i];
    return tally_init(t, h.nengines, name, e);
}

/* A record decoded and counted, as report counts it: 0 or -1 with e. */
static int tally_record(struct tally *t, const cJSON *json, struct err *e)
{
    struct game_record rec;
    int rc = rec_decode(json, &rec, e) || tally_add(t, &rec, e) ? -1 : 0;
    rec_free(&rec);
    return rc;
}

static int on_record(void *vctx, const cJSON *rec, int is_header, int line, struct err *e)
{
    (void)e;
    struct scan *s = vctx;
    FUZZ_CHECK(is_header == (s->n == 0), "record %d: is_header %d", s->n, is_header);
    if (is_header) {
        const cJSON *schema = cJSON_GetObjectItemCaseSensitive(rec, "schema");
        s->is_journal = cJSON_IsString(schema) && strcmp(schema->valuestring, JOURNAL_SCHEMA) == 0;
    }
    FUZZ_CHECK(s->is_journal ? line == s->last_line + 1 : line == 0, "record %d on line %d",
               s->n, line);
    s->last_line = line;
    char *text = cJSON_PrintUnformatted(rec);
    FUZZ_CHECK(text != NULL, "record %d does not serialise", s->n);
    cJSON *back = cJSON_Parse(text);
    FUZZ_CHECK(back != NULL, "record %d serialises to text that does not parse:\n%s", s->n, text);
    FUZZ_CHECK(cJSON_Compare(rec, back, 1), "record %d is another record once re-read:\n%s", s->n,
               text);
    char *again = cJSON_PrintUnformatted(back);
    FUZZ_CHECK(again && strcmp(again, text) == 0, "record %d re-serialises differently:\n%s\n%s",
               s->n, text, again);
    free(again);
    cJSON_Delete(back);
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 16;
        s->rec = realloc(s->rec, (size_t)s->cap * sizeof *s->rec);
        FUZZ_CHECK(s->rec != NULL, "out of memory");
    }
    s->rec[s->n++] = text;
    struct err te = { 0, 0, "" };
    int refused = 0;
    if (is_header)
        refused = tally_header(&s->tally, rec, &te) != 0;
    else if (s->tally_state == 1)
        refused = tally_record(&s->tally, rec, &te) != 0;
    if (refused)
        fuzz_check_err(&te, 0, "tally");
    if (is_header || refused)
        s->tally_state = refused ? -1 : 1;
    return 0;
}

static void scan_free(struct scan *s)
{
    for (int i = 0; i < s->n; i++)
        free(s->rec[i]);
    free(s->rec);
    if (s->tally_state != 0)
        tally_free(&s->tally);
}

/* Scans size bytes of data; *e gets the error. */
static int scan(const uint8_t *data, size_t size, struct scan *s, struct err *e)
{
    memset(s, 0, sizeof *s);
    char *text = fuzz_text(data, size);
    memset(e, 0, sizeof *e);
    int rc = journal_scan_text(text, size, on_record, s, e);
    free(text);
    return rc;
}

static void print_reports(struct scan *s)
{
    static const struct { enum report_format format; enum report_csv_table table; } reports[] = {
        { REPORT_TEXT, REPORT_CSV_STANDINGS }, { REPORT_JSON, REPORT_CSV_STANDINGS },
        { REPORT_CSV, REPORT_CSV_STANDINGS }, { REPORT_CSV, REPORT_CSV_PAIRS },
        { REPORT_CSV, REPORT_CSV_CPU }, { REPORT_CSV, REPORT_CSV_FORFEITS },
        { REPORT_HTML, REPORT_CSV_STANDINGS },
    };
    for (size_t i = 0; i < sizeof reports / sizeof *reports; i++) {
        struct fuzz_out out;
        fuzz_out_open(&out);
        report_print(&s->tally, reports[i].format, reports[i].table, out.f);
        fuzz_out_close(&out);
        fuzz_out_free(&out);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct scan s;
    struct err e;
    int rc = scan(data, size, &s, &e);
    FUZZ_CHECK(rc == 0 || rc == -1, "journal_scan_text returned %d", rc);
    if (rc != 0)
        fuzz_check_err(&e, size > 0, "journal");
    else if (s.tally_state == 1)
        print_reports(&s);
    /* A journal's last line cut short: the file without it reads the same. */
    size_t cut = size;
    while (cut > 0 && data[cut - 1] != '\n')
        cut--;
    if (s.is_journal && cut < size && cut > 0) {
        struct scan t;
        struct err f;
        int rc2 = scan(data, cut, &t, &f);
        FUZZ_CHECK(rc2 == rc, "without its cut last line: %d, with it: %d", rc2, rc);
        FUZZ_CHECK(rc != 0 || t.n == s.n, "without its cut last line: %d records, with it: %d",
                   t.n, s.n);
        for (int i = 0; rc == 0 && i < s.n; i++)
            FUZZ_CHECK(strcmp(t.rec[i], s.rec[i]) == 0, "record %d differs without the cut line",
                       i);
        FUZZ_CHECK(rc == 0 || (e.line == f.line && e.col == f.col && !strcmp(e.msg, f.msg)),
                   "another error without the cut line: %s / %s", e.msg, f.msg);
        scan_free(&t);
    }
    scan_free(&s);
    return 0;
}
