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
 *   - a rejection has a message, and a place unless the file is empty or
 *     it is a match log's record;
 *   - the header comes first and only first; journal records carry their
 *     line numbers, increasing;
 *   - the decoded header (header.h) and every decoded record (record.h)
 *     encode to JSON that decodes and encodes to the same text;
 *   - a journal's last line without its newline (a crash mid-append) is not
 *     a game: reading the file without it gives the same records and the
 *     same verdict;
 *   - the report's tally (tally.h) of the decoded records (record.h)
 *     prints in every format without fault.
 */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>
#include "arena/header.h"
#include "arena/journal.h"
#include "arena/report.h"
#include "arena/tally.h"
#include "fuzz.h"

#define JOURNAL_SCHEMA "arena.journal/1"

struct scan {
    char **rec;          /* the header and each record as their encoders wrote them */
    int n, cap;
    int last_line;
    int is_journal;
    struct tally tally;
    int tally_state;     /* 0: no header yet, 1: counting, -1: the tally refused */
};

/* Keeps text (malloc'd) as record s->n. */
static void keep(struct scan *s, char *text)
{
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 16;
        s->rec = realloc(s->rec, (size_t)s->cap * sizeof *s->rec);
        FUZZ_CHECK(s->rec != NULL, "out of memory");
    }
    s->rec[s->n++] = text;
}

static int on_header(void *vctx, const struct hdr *h, int line, struct err *e)
{
    (void)e;
    struct scan *s = vctx;
    FUZZ_CHECK(s->n == 0, "a header after %d records", s->n);
    s->is_journal = h->schema && strcmp(h->schema, JOURNAL_SCHEMA) == 0;
    FUZZ_CHECK(line == s->is_journal, "the header on line %d", line);
    s->last_line = line;
    cJSON *j = hdr_encode(h);
    char *text = j ? cJSON_PrintUnformatted(j) : NULL;
    FUZZ_CHECK(text != NULL, "the header does not encode");
    struct hdr back;
    struct err be;
    FUZZ_CHECK(hdr_decode(j, &back, &be) == 0, "the encoded header does not decode: %s\n%s",
               be.msg, text);
    cJSON *j2 = hdr_encode(&back);
    char *again = j2 ? cJSON_PrintUnformatted(j2) : NULL;
    FUZZ_CHECK(again && strcmp(again, text) == 0, "the header re-encodes differently:\n%s\n%s",
               text, again);
    free(again);
    cJSON_Delete(j2);
    cJSON_Delete(j);
    hdr_free(&back);
    keep(s, text);
    const char *name[REC_MAX_ENGINES];
    for (int i = 0; i < h->nengines; i++)
        name[i] = h->engine[i].name;
    struct err te = { 0, 0, "" };
    int refused = tally_init(&s->tally, h->nengines, name, &te) != 0;
    if (refused) {
        fuzz_check_err(&te, 0, "tally");
        memset(&s->tally, 0, sizeof s->tally);
    }
    s->tally_state = refused ? -1 : 1;
    return 0;
}

static int on_game(void *vctx, struct game_record *rec, int line, struct err *e)
{
    (void)e;
    struct scan *s = vctx;
    FUZZ_CHECK(s->n > 0, "a record before the header");
    FUZZ_CHECK(s->is_journal ? line == s->last_line + 1 : line == 0,
               "record %d on line %d", s->n, line);
    s->last_line = line;
    cJSON *j = rec_encode(rec);
    char *text = j ? cJSON_PrintUnformatted(j) : NULL;
    FUZZ_CHECK(text != NULL, "record %d does not encode", s->n);
    struct game_record back;
    struct err be;
    FUZZ_CHECK(rec_decode(j, &back, &be) == 0, "record %d does not decode again: %s", s->n,
               be.msg);
    cJSON *j2 = rec_encode(&back);
    char *again = j2 ? cJSON_PrintUnformatted(j2) : NULL;
    FUZZ_CHECK(again && strcmp(again, text) == 0, "record %d re-encodes differently:\n%s\n%s",
               s->n, text, again);
    free(again);
    cJSON_Delete(j2);
    cJSON_Delete(j);
    rec_free(&back);
    keep(s, text);
    struct err te = { 0, 0, "" };
    if (s->tally_state == 1 && tally_add(&s->tally, rec, &te) != 0) {
        fuzz_check_err(&te, 0, "tally");
        s->tally_state = -1;
    }
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
    static const struct journal_reader rd = { .header = on_header, .game = on_game };
    int rc = journal_scan_text(text, size, &rd, s, e);
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
    /* A match log's records have no line to place an error at. */
    if (rc != 0)
        fuzz_check_err(&e, size > 0 && (s.is_journal || s.n == 0), "journal");
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
