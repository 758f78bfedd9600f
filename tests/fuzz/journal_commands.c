/*
 * journal_commands.c - fuzz target for what the referee does with a journal
 * or match log it reads from disk: `referee report` (three formats),
 * `referee verify`, `referee analyze` and `referee merge` (report_file,
 * verify_file, ana_log, journal_merge), each on the file as written.
 *
 * Input: the bytes of a journal or match log, written to a file in a
 * private temporary folder (the commands take paths).
 *
 * Properties:
 *   - every command either succeeds or says why (a message, and a journal
 *     line where it names one); none faults;
 *   - a file the reader refuses (journal_scan) is refused by every command,
 *     with the reader's own message unless a record before the bad line
 *     was refused first;
 *   - merge is idempotent: merging its own output again writes the same
 *     bytes, and that output reads back;
 *   - a journal is data: no command it names runs. Without --judge (the
 *     commands are called with none), verify and analyze never read a
 *     judge's journal (a header with "judge") as consistent, nor does the
 *     HTML report, whose replay needs the judge.
 * Analysis uses the smallest budgets and tables (connect4: 64 nodes or
 * 1 ms a position; maxconnect4: exact within 4 empty cells) to stay cheap.
 */
#include <cjson/cJSON.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "referee/journal/header.h"
#include "arena/analyze.h"
#include "arena/journal.h"
#include "arena/report.h"
#include "arena/verify.h"
#include "fuzz.h"

#define ANA_BUDGET_MS 1
/* Solver nodes per position (past it the analyzer says "unknown"). Unlike
 * the CPU budget it gives the same verdicts on every run, so a finding
 * replays; and inputs holding long Connect-4 games no longer spend 1 ms a
 * position in the solver (70% of the campaign's time at 3c1084c). */
#define ANA_NODE_BUDGET 64
#define ANA_MAX_EMPTY 4
#define ANA_TT_BYTES  (64 << 10)   /* the smallest tables: no 16 MiB clear per input */

int LLVMFuzzerInitialize(int *argc, char ***argv);

/* The files in the private folder (fuzz_tmpdir). */
static char journal[PATH_MAX], merged[PATH_MAX], merged2[PATH_MAX];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    const char *dir = fuzz_tmpdir();
    snprintf(journal, sizeof journal, "%s/j.jsonl", dir);
    snprintf(merged, sizeof merged, "%s/m1.jsonl", dir);
    snprintf(merged2, sizeof merged2, "%s/m2.jsonl", dir);
    return 0;
}

static void write_file(const char *path, const uint8_t *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    FUZZ_CHECK(f && fwrite(data, 1, size, f) == size && fclose(f) == 0, "cannot write %s", path);
}

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    FUZZ_CHECK(f != NULL, "cannot read %s", path);
    struct fuzz_out o;
    fuzz_out_open(&o);
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        fwrite(buf, 1, n, o.f);
    fclose(f);
    fuzz_out_close(&o);
    *len = o.len;
    return o.buf;
}

static int no_op(void *ctx, struct game_record *rec, int line, struct err *e)
{
    (void)ctx, (void)rec, (void)line, (void)e;
    return 0;
}

/* *ctx: 1 once a header is read, 2 when it names a judge. */
static int header_seen(void *ctx, const struct hdr *h, int line, struct err *e)
{
    (void)line, (void)e;
    *(int *)ctx = h->has & HDR_BIT(HDR_JUDGE) ? 2 : 1;
    return 0;
}

/* A command's failure: said, and when the reader failed, either in its
 * words or on a record before the reader's bad line (commands stop at the
 * first record they refuse). */
static void check_failure(const struct err *e, int scan_rc, const struct err *scan_e,
                          const char *what)
{
    fuzz_check_err(e, 0, what);
    if (scan_rc != 0)
        FUZZ_CHECK((strcmp(e->msg, scan_e->msg) == 0 && e->line == scan_e->line)
                       || e->line < scan_e->line,
                   "%s: '%s' at line %d, the reader: '%s' at line %d", what, e->msg, e->line,
                   scan_e->msg, scan_e->line);
}

static void check_merge(int scan_rc, const struct err *scan_e)
{
    struct err e = { 0, 0, "" };
    const char *bad = NULL;
    char *in1[] = { journal }, *in2[] = { merged };
    unlink(merged);
    unlink(merged2);
    if (journal_merge(merged, in1, 1, &e, &bad) != 0) {
        check_failure(&e, scan_rc, scan_e, "merge");
        FUZZ_CHECK(bad != NULL, "merge failed without naming the file");
        return;
    }
    FUZZ_CHECK(scan_rc == 0, "merge read a file the reader refuses");
    FUZZ_CHECK(journal_merge(merged2, in2, 1, &e, &bad) == 0, "merging merge's output: %s", e.msg);
    size_t l1, l2;
    char *m1 = read_file(merged, &l1), *m2 = read_file(merged2, &l2);
    FUZZ_CHECK(l1 == l2 && memcmp(m1, m2, l1) == 0, "merge is not idempotent:\n%s---\n%s", m1,
               m2);
    free(m1);
    free(m2);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    write_file(journal, data, size);
    struct err scan_e = { 0, 0, "" }, e = { 0, 0, "" };
    static const struct journal_reader every_game = { .header = header_seen, .game = no_op };
    int seen = 0;
    int scan_rc = journal_scan(journal, &every_game, &seen, &scan_e);
    /* A match log's records have no line: a record's error comes after
     * the header, wherever a command stops first. */
    if (scan_rc != 0 && seen && scan_e.line == 0)
        scan_e.line = INT_MAX;

    static const struct { enum report_format format; enum report_csv_table table; } reports[] = {
        { REPORT_TEXT, REPORT_CSV_STANDINGS }, { REPORT_JSON, REPORT_CSV_STANDINGS },
        { REPORT_CSV, REPORT_CSV_PAIRS },
        { REPORT_HTML, REPORT_CSV_STANDINGS },
    };
    int judged = seen == 2;
    for (size_t i = 0; i < sizeof reports / sizeof *reports; i++) {
        struct fuzz_out out;
        fuzz_out_open(&out);
        int rc = report_file(journal, NULL, reports[i].format, reports[i].table, out.f, &e);
        if (rc != 0)
            check_failure(&e, scan_rc, &scan_e, "report");
        FUZZ_CHECK(!(judged && reports[i].format == REPORT_HTML && rc == 0),
                   "the HTML report replayed a judge's journal without --judge");
        fuzz_out_close(&out);
        fuzz_out_free(&out);
    }

    struct fuzz_out out;
    fuzz_out_open(&out);
    int rc = verify_file(journal, NULL, out.f, &e);
    FUZZ_CHECK(rc >= -1 && rc <= 1, "verify returned %d", rc);
    FUZZ_CHECK(!(judged && rc == 0), "verify read a judge's journal without --judge");
    if (rc != 0)
        check_failure(&e, scan_rc, &scan_e, "verify");
    fuzz_out_close(&out);
    fuzz_out_free(&out);

    struct ana_opts ao = { .budget_ms = ANA_BUDGET_MS, .node_budget = ANA_NODE_BUDGET,
                           .max_empty = ANA_MAX_EMPTY, .tt_bytes = ANA_TT_BYTES };
    fuzz_out_open(&out);
    rc = ana_log(journal, &ao, NULL, NULL, out.f, &e);
    if (rc != 0)
        check_failure(&e, scan_rc, &scan_e, "analyze");
    FUZZ_CHECK(!(judged && rc == 0), "analyze read a judge's journal without --judge");
    fuzz_out_close(&out);
    fuzz_out_free(&out);

    check_merge(scan_rc, &scan_e);
    return 0;
}
