/*
 * test_e2e_report.c - referee report's pentanomial counts, normalized Elo
 * and round-robin crosstable on hand-made journals (fixtures/report, whose
 * README derives the expected counts and one nElo by hand), byte for byte
 * in every format; a log whose engine names and forfeit reason are hostile
 * to CSV and to text columns: each CSV table (--table standings|pairs|cpu|
 * forfeits|forfeit-games) is RFC 4180, read back field for field by a
 * strict reader written here; --table needs --format csv; in text, a name
 * longer than its column still lines up; the ratings of a field against an
 * independent fit (tests/ratings_reference.py); a played tournament's
 * forfeits say why in text, JSON and CSV.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <cjson/cJSON.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "e2e_util.h"

#define EXIT_BAD 2
#define MAX_FIELDS 24
#define MAX_RECORDS 8
#define FIELD_MAX 256

struct report_case {
    char journal[32];   /* fixtures/report/NAME.jsonl */
    char format[8];
    char table[12];     /* csv: the --table (fixture NAME.report.TABLE.csv) */
};

ParameterizedTestParameters(e2e_report, pentanomial_and_crosstable_as_expected)
{
    static struct report_case cases[] = {
        { "penta", "text", "" },
        { "penta", "json", "" },
        { "penta", "csv", "standings" },
        { "penta", "csv", "pairs" },   /* the pentanomial columns */
        { "penta-gauntlet", "text", "" },   /* no crosstable for a gauntlet */
    };
    return cr_make_param_array(struct report_case, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct report_case *c, e2e_report, pentanomial_and_crosstable_as_expected)
{
    char *dir = e2e_fixture("report");
    char file[64], rel[96];
    snprintf(file, sizeof file, "%s.jsonl", c->journal);
    struct e2e_run r;
    if (c->table[0])
        e2e_run(&r, dir, NULL, "referee", "report", file, "--format", c->format, "--table",
                c->table, NULL);
    else
        e2e_run(&r, dir, NULL, "referee", "report", file, "--format", c->format, NULL);
    cr_assert_eq(r.status, 0, "report %s --format %s: exit %d: %s", file, c->format, r.status,
                 r.err);
    if (c->table[0])
        snprintf(rel, sizeof rel, "report/%s.report.%s.csv", c->journal, c->table);
    else
        snprintf(rel, sizeof rel, "report/%s.report.%s", c->journal, c->format);
    e2e_assert_fixture(r.out, r.out_len, rel);
    e2e_run_free(&r);
    free(dir);
}

/* A name with every character CSV must quote, and one longer than the
 * text report's 20-character column. */
static const char evil[] = "evil, \"quoted\"\nname";
static const char long_name[] = "a-student-engine-with-a-long-name";
static const char reason[] = "unreadable: 1:1: unexpected character 'g', expected 0, 1 or 2";

struct csv {
    int nrec;
    int nfield[MAX_RECORDS];
    char field[MAX_RECORDS][MAX_FIELDS][FIELD_MAX];
};

/* RFC 4180, strictly: records end with CRLF (the last one too); fields are
 * separated by commas; a field is quoted ("..." with "" for a quote, and
 * then may hold commas, CR and LF) or holds none of '"', CR, LF. 0, or -1
 * naming the offset of the first violation in *bad. */
static int csv_read(const char *p, struct csv *c, long *bad)
{
    const char *start = p;
    memset(c, 0, sizeof *c);
    while (*p) {
        if (c->nrec == MAX_RECORDS)
            return *bad = p - start, -1;
        int r = c->nrec++;
        for (;;) {
            if (c->nfield[r] == MAX_FIELDS)
                return *bad = p - start, -1;
            char *f = c->field[r][c->nfield[r]++];
            size_t n = 0;
            if (*p == '"') {
                for (p++;; p++) {
                    if (!*p)
                        return *bad = p - start, -1;
                    if (*p == '"' && p[1] != '"')
                        break;
                    if (*p == '"')
                        p++;
                    if (n + 1 < FIELD_MAX)
                        f[n++] = *p;
                }
                p++;
            } else {
                for (; *p && *p != ',' && *p != '\r' && *p != '\n'; p++) {
                    if (*p == '"')
                        return *bad = p - start, -1;
                    if (n + 1 < FIELD_MAX)
                        f[n++] = *p;
                }
            }
            f[n] = '\0';
            if (*p == ',') {
                p++;
                continue;
            }
            if (p[0] != '\r' || p[1] != '\n')
                return *bad = p - start, -1;
            p += 2;
            break;
        }
    }
    return 0;
}

/* A match log of two games of nim between a and b, both won by b: the
 * first a forfeit of a's with reason. */
static char *write_log(const char *dir, const char *a, const char *b)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "schema", "arena.match/1");
    cJSON_AddStringToObject(root, "game", "nim");
    cJSON *engines = cJSON_AddArrayToObject(root, "engines");
    const char *names[2] = { a, b };
    for (int i = 0; i < 2; i++) {
        cJSON *e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "name", names[i]);
        cJSON_AddItemToArray(engines, e);
    }
    cJSON *games = cJSON_AddArrayToObject(root, "games");
    for (int g = 0; g < 2; g++) {
        cJSON *game = cJSON_CreateObject();
        cJSON_AddNumberToObject(game, "index", g + 1);
        cJSON_AddNumberToObject(game, "pair", 0);
        cJSON *players = cJSON_AddObjectToObject(game, "players");
        cJSON_AddStringToObject(players, "1", names[g]);
        cJSON_AddStringToObject(players, "2", names[!g]);
        cJSON_AddArrayToObject(game, "opening");
        cJSON *moves = cJSON_AddArrayToObject(game, "moves");
        cJSON *m = cJSON_CreateObject();
        cJSON_AddNumberToObject(m, "ply", 1);
        cJSON_AddNumberToObject(m, "side", 1);
        cJSON_AddStringToObject(m, "engine", names[g]);
        cJSON_AddNumberToObject(m, "cpu_user_ms", 2);
        cJSON_AddNumberToObject(m, "cpu_sys_ms", 1);
        cJSON_AddNumberToObject(m, "referee_ms", 0.5);
        if (g == 0) {
            cJSON_AddNullToObject(m, "move");
            cJSON_AddStringToObject(m, "status", reason);
        } else {
            cJSON_AddStringToObject(m, "move", "0:1");
            cJSON_AddStringToObject(m, "status", "ok");
        }
        cJSON_AddItemToArray(moves, m);
        cJSON_AddStringToObject(game, "result", g == 0 ? "0-1" : "1-0");
        cJSON_AddStringToObject(game, "winner", b);
        cJSON_AddStringToObject(game, "reason", g == 0 ? reason : "normal");
        cJSON_AddItemToArray(games, game);
    }
    char *text = cJSON_Print(root), path[PATH_MAX];
    snprintf(path, sizeof path, "%s/log.json", dir);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs(text, f);
    fclose(f);
    free(text);
    cJSON_Delete(root);
    return strdup(path);
}

static void report_csv(const char *dir, const char *table, struct csv *c)
{
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "referee", "report", "log.json", "--format", "csv", "--table", table,
            NULL);
    cr_assert_eq(r.status, 0, "--table %s: exit %d: %s", table, r.status, r.err);
    long bad = -1;
    cr_assert_eq(csv_read(r.out, c, &bad), 0, "--table %s: not RFC 4180 at byte %ld:\n%s", table,
                 bad, r.out);
    e2e_run_free(&r);
}

static void assert_record(const struct csv *c, int r, int n, const char *const want[])
{
    cr_assert_eq(c->nfield[r], n, "record %d: %d fields", r, c->nfield[r]);
    for (int i = 0; i < n; i++)
        if (want[i])
            cr_assert_str_eq(c->field[r][i], want[i], "record %d, field %d", r, i);
}

Test(e2e_report, csv_tables_read_back_field_for_field)
{
    char *dir = e2e_tmpdir(), *log = write_log(dir, evil, long_name);
    struct csv c;
    report_csv(dir, "standings", &c);
    cr_assert_eq(c.nrec, 3);
    static const char *const head[] = { "rank", "engine", "games", "points", "wins",
                                        "draws", "losses", "score", "forfeits" };
    assert_record(&c, 0, 9, head);
    const char *first[] = { "1", long_name, "2", "2.0", "2", "0", "0", "1.0000", "0" };
    const char *second[] = { "2", evil, "2", "0.0", "0", "0", "2", "0.0000", "1" };
    assert_record(&c, 1, 9, first);
    assert_record(&c, 2, 9, second);
    report_csv(dir, "pairs", &c);
    const char *pair[17] = { long_name, evil, "2", "2", "0", "0", "inf" };
    cr_assert_eq(c.nrec, 2);
    assert_record(&c, 1, 17, pair);
    report_csv(dir, "cpu", &c);
    const char *cpu[] = { long_name, "1", "3.000", "3.000", "3.000", "3.000" };
    cr_assert_eq(c.nrec, 3);
    assert_record(&c, 1, 6, cpu);
    report_csv(dir, "forfeits", &c);
    static const char *const fhead[] = { "engine", "reason", "count" };
    const char *forfeit[] = { evil, "unreadable", "1" };
    cr_assert_eq(c.nrec, 2);
    assert_record(&c, 0, 3, fhead);
    assert_record(&c, 1, 3, forfeit);
    report_csv(dir, "forfeit-games", &c);
    static const char *const ghead[] = { "engine", "reason", "detail", "game", "opponent" };
    const char *game[] = { evil, "unreadable", reason + strlen("unreadable: "), "1", long_name };
    cr_assert_eq(c.nrec, 2);
    assert_record(&c, 0, 5, ghead);
    assert_record(&c, 1, 5, game);
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "referee", "report", "log.json", "--table", "pairs", NULL);
    cr_assert_eq(r.status, EXIT_BAD);
    cr_assert_str_eq(r.err, "referee: report: --table is for --format csv (text, json and html "
                            "show every table)\nTry 'referee --help' for more information.\n");
    e2e_run_free(&r);
    free(log);
    e2e_rmdir(dir);
}

/* The lines of text from the one starting with title to the next blank
 * line all have one length: the columns line up. */
static void assert_table_aligned(const char *text, const char *title)
{
    const char *p = strstr(text, title);
    cr_assert_not_null(p, "no '%s' in:\n%s", title, text);
    p = strchr(p, '\n') + 1;
    size_t width = strcspn(p, "\n");
    for (int rows = 0; *p && *p != '\n'; rows++) {
        size_t n = strcspn(p, "\n");
        if (strncmp(p, "Referee overhead", 16) != 0)
            cr_assert_eq(n, width, "%s: line %d is %zu wide, the header %zu:\n%s", title, rows,
                         n, width, text);
        p += n + (p[n] == '\n');
    }
}

Test(e2e_report, long_names_line_up_in_text)
{
    char *dir = e2e_tmpdir(), *log = write_log(dir, "b", long_name);
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "referee", "report", "log.json", NULL);
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    assert_table_aligned(r.out, "Standings after");
    assert_table_aligned(r.out, "CPU time per move");
    char row[128];
    snprintf(row, sizeof row, "   1  %s      2     2.0", long_name);
    cr_assert_not_null(strstr(r.out, row), "%s", r.out);
    e2e_run_free(&r);
    free(log);
    e2e_rmdir(dir);
}

/* --- the ratings of a field against an independent fit ------------------- */

/* Ratings as printed (one decimal) against tests/ratings_reference.py's
 * (another algorithm on the same model and games, four decimals): equal
 * within the printing's rounding, plus the reference's finite-difference
 * Hessian for the margin. */
#define RATING_TOL 0.051
#define MARGIN_TOL 0.1

/* Engine name's Elo and margin in the text report's Ratings section. */
static void report_rating(const char *report, const char *name, double *elo, double *margin)
{
    const char *sec = strstr(report, "\nRatings (");
    cr_assert_not_null(sec, "no Ratings section in:\n%s", report);
    const char *end = strstr(sec + 1, "\n\n");
    char pat[128];
    snprintf(pat, sizeof pat, "  %s ", name);
    const char *row = strstr(sec, pat);
    cr_assert(row && (!end || row < end), "no rating of %s in:\n%s", name, sec);
    cr_assert_eq(sscanf(row + strlen(pat), "%lf %lf", elo, margin), 2,
                 "unreadable rating of %s: %.60s", name, row);
}

/* Compares every engine of journal's report with the reference's lines;
 * asserts each rating finite. */
static void assert_ratings_match(const char *dir, const char *journal)
{
    char script[PATH_MAX];
    e2e_repo_path("tests/ratings_reference.py", script, sizeof script);
    struct e2e_run ref, rep;
    e2e_run_tool(&ref, dir, NULL, "python3", script, journal, "2", NULL);
    cr_assert_eq(ref.status, 0, "reference exit %d: %s", ref.status, ref.err);
    e2e_run(&rep, dir, NULL, "referee", "report", journal, NULL);
    cr_assert_eq(rep.status, 0, "report exit %d: %s", rep.status, rep.err);
    int engines = 0;
    for (char *line = strtok(ref.out, "\n"); line; line = strtok(NULL, "\n"), engines++) {
        char name[64];
        double want, want_m, elo, margin;
        cr_assert_eq(sscanf(line, "%63s %lf %lf", name, &want, &want_m), 3, "reference: %s",
                     line);
        report_rating(rep.out, name, &elo, &margin);
        cr_expect(fabs(elo - want) <= RATING_TOL, "%s: Elo %.1f, the reference %.4f", name, elo,
                  want);
        cr_expect(fabs(margin - want_m) <= MARGIN_TOL, "%s: +/- %.1f, the reference %.4f", name,
                  margin, want_m);
    }
    cr_expect_geq(engines, 3, "the reference rated %d engines", engines);
    e2e_run_free(&ref);
    e2e_run_free(&rep);
}

/* A hand-made round robin (fixtures/report/penta.jsonl) and a played one
 * where the perfect Nim player wins every game: every rating finite, and
 * each what the independent fit gives. */
Test(e2e_report, field_ratings_match_an_independent_fit, .timeout = 120)
{
    char *dir = e2e_tmpdir();
    char *penta = e2e_fixture("report/penta.jsonl");
    assert_ratings_match(dir, penta);
    free(penta);

    char engine[PATH_MAX], perfect[PATH_MAX + 96], r1[PATH_MAX + 128], r2[PATH_MAX + 128];
    e2e_engine_bin_path("engine", engine, sizeof engine);
    snprintf(perfect, sizeof perfect,
             "name=perfect,cmd=%s one-move --game nim --player perfect", engine);
    snprintf(r1, sizeof r1, "name=random1,cmd=%s one-move --game nim --player random --seed 1",
             engine);
    snprintf(r2, sizeof r2, "name=random2,cmd=%s one-move --game nim --player random --seed 2",
             engine);
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "referee", "tournament", "--game", "nim", "--engine", perfect,
            "--engine", r1, "--engine", r2, "--rounds", "2", "--random-plies", "2", "--seed",
            "3", "--journal", "field.jsonl", NULL);
    cr_assert_eq(r.status, 0, "tournament exit %d: %s", r.status, r.err);
    e2e_run_free(&r);
    e2e_run(&r, dir, NULL, "referee", "report", "field.jsonl", NULL);
    cr_assert(strstr(r.out, "   1  perfect "), "perfect is not first:\n%s", r.out);
    char *sec = strstr(r.out, "\nRatings ("), *pairs = sec ? strstr(sec, "\nPairs") : NULL;
    cr_assert(sec && pairs, "no Ratings section:\n%s", r.out);
    *pairs = '\0';
    cr_expect_null(strstr(sec, "inf"), "an infinite rating:%s", sec);
    e2e_run_free(&r);
    assert_ratings_match(dir, "field.jsonl");
    e2e_rmdir(dir);
}

/* --- the JSON report holds every figure of the text report --------------- */

/* An Elo as the text report prints it (stats_elo_text: one decimal, never
 * "-0.0"); JSON's null stands for a figure that is not finite. */
static void elo_as_text(const cJSON *v, char *buf, size_t cap)
{
    if (!cJSON_IsNumber(v)) {
        snprintf(buf, cap, "%s", "not finite");
        return;
    }
    snprintf(buf, cap, "%.1f", v->valuedouble);
    if (strcmp(buf, "-0.0") == 0)
        snprintf(buf, cap, "%s", "0.0");
}

static int text_not_finite(const char *s)
{
    return strcmp(s, "inf") == 0 || strcmp(s, "-inf") == 0 || strcmp(s, "nan") == 0;
}

/* Text's figure s against JSON's v, printed the same way. */
static void assert_same_elo(const char *journal, const char *what, const char *s,
                            const cJSON *v)
{
    char want[32];
    elo_as_text(v, want, sizeof want);
    if (strcmp(want, "not finite") == 0)
        cr_expect(text_not_finite(s), "%s: %s: the text says %s, the JSON null", journal,
                  what, s);
    else
        cr_expect_str_eq(s, want, "%s: %s: the text says %s, the JSON %s", journal, what, s,
                         want);
}

/* The text report's Ratings rows against the JSON's "ratings". */
static void assert_ratings_in_json(const char *journal, const char *text, const cJSON *root)
{
    const cJSON *list = cJSON_GetObjectItem(cJSON_GetObjectItem(root, "ratings"), "engines");
    cr_assert(cJSON_IsArray(list), "%s: no ratings.engines in the JSON", journal);
    cr_expect_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(root, "ratings"), "prior_draws")
                     ->valuedouble,
                 2.0, "%s: prior_draws is not the text's 2", journal);
    const char *sec = strstr(text, "\nRatings (");
    cr_assert_not_null(sec, "%s: no Ratings section in the text:\n%s", journal, text);
    sec = strchr(sec + 1, '\n') + 1;                 /* the column titles */
    const char *row = strchr(sec, '\n') + 1;
    int rows = 0;
    for (; *row && *row != '\n'; row = strchr(row, '\n') + 1, rows++) {
        /* "RANK  NAME ELO MARGIN": a name may hold spaces, so read from the
         * ends of the line. */
        char line[256], name[128], elo[32], margin[32];
        int rank, len = (int)(strchr(row, '\n') - row);
        snprintf(line, sizeof line, "%.*s", len, row);
        char *m = strrchr(line, ' ');
        cr_assert_not_null(m, "%s: unreadable rating row: %s", journal, line);
        snprintf(margin, sizeof margin, "%s", m + 1);
        while (m > line && m[-1] == ' ')
            m--;
        *m = '\0';
        char *ev = strrchr(line, ' ');
        cr_assert_not_null(ev, "%s: unreadable rating row: %s", journal, line);
        snprintf(elo, sizeof elo, "%s", ev + 1);
        while (ev > line && ev[-1] == ' ')
            ev--;
        *ev = '\0';
        int at = 0;
        cr_assert_eq(sscanf(line, "%d  %n", &rank, &at), 1, "%s: unreadable rating row: %s",
                     journal, line);
        snprintf(name, sizeof name, "%s", line + at);
        const cJSON *e = cJSON_GetArrayItem(list, rows);
        cr_assert_not_null(e, "%s: the JSON has %d ratings, the text more", journal, rows);
        cr_expect_eq(cJSON_GetObjectItem(e, "rank")->valueint, rank, "%s: rank of row %d",
                     journal, rows + 1);
        cr_expect_str_eq(cJSON_GetObjectItem(e, "engine")->valuestring, name,
                         "%s: engine of rank %d", journal, rank);
        assert_same_elo(journal, name, elo, cJSON_GetObjectItem(e, "elo"));
        assert_same_elo(journal, name, margin, cJSON_GetObjectItem(e, "elo_margin_95"));
    }
    cr_expect_eq(cJSON_GetArraySize(list), rows, "%s: the JSON has %d ratings, the text %d",
                 journal, cJSON_GetArraySize(list), rows);
}

/* The text's "Referee overhead" line (or none) against "referee_overhead_ms". */
static void assert_overhead_in_json(const char *journal, const char *text, const cJSON *root)
{
    const cJSON *o = cJSON_GetObjectItem(root, "referee_overhead_ms");
    cr_assert_not_null(o, "%s: no referee_overhead_ms in the JSON", journal);
    const char *line = strstr(text, "Referee overhead per move");
    if (!line) {
        cr_expect(cJSON_IsNull(o), "%s: no overhead in the text, one in the JSON", journal);
        return;
    }
    double median, p95;
    cr_assert_eq(sscanf(line, "Referee overhead per move (ms, wall outside the engine): "
                              "median %lf, p95 %lf", &median, &p95), 2,
                 "%s: unreadable: %.100s", journal, line);
    char want[64], got[64];
    snprintf(want, sizeof want, "%.3f %.3f", median, p95);
    snprintf(got, sizeof got, "%.3f %.3f", cJSON_GetObjectItem(o, "median")->valuedouble,
             cJSON_GetObjectItem(o, "p95")->valuedouble);
    cr_expect_str_eq(got, want, "%s: overhead: the text %s, the JSON %s", journal, want, got);
}

/* The pairs' Elo and nElo with their margins, pair by pair in list order. */
static void assert_pairs_in_json(const char *journal, const char *text, const cJSON *root)
{
    const cJSON *pairs = cJSON_GetObjectItem(root, "pairs");
    int k = 0;
    for (const char *p = strstr(text, "Elo difference: "); p;
         p = strstr(p + 1, "Elo difference: "), k++) {
        char elo[32], margin[32], nelo[32], nmargin[32];
        const char *n = strstr(p, "nElo: ");
        cr_assert(n && sscanf(p, "Elo difference: %31s +/- %31[^,]", elo, margin) == 2 &&
                      sscanf(n, "nElo: %31s +/- %31s", nelo, nmargin) == 2,
                  "%s: unreadable pair: %.120s", journal, p);
        const cJSON *j = cJSON_GetArrayItem(pairs, k);
        cr_assert_not_null(j, "%s: the JSON has %d pairs, the text more", journal, k);
        assert_same_elo(journal, "a pair's Elo", elo, cJSON_GetObjectItem(j, "elo"));
        assert_same_elo(journal, "a pair's margin", margin,
                        cJSON_GetObjectItem(j, "elo_margin_95"));
        assert_same_elo(journal, "a pair's nElo", nelo, cJSON_GetObjectItem(j, "nelo"));
        assert_same_elo(journal, "a pair's nElo margin", nmargin,
                        cJSON_GetObjectItem(j, "nelo_margin_95"));
    }
    cr_expect_eq(cJSON_GetArraySize(pairs), k, "%s: the JSON has %d pairs, the text %d",
                 journal, cJSON_GetArraySize(pairs), k);
}

/* Fixture journals of three and more engines (ratings in the text) and of
 * two (none), with and without the referee's overhead: each figure the text
 * report prints of the ratings, the overhead and the pairs is the JSON's,
 * printed the same way. */
Test(e2e_report, json_has_every_rating_and_interval_of_the_text_report)
{
    static const char *const journals[] = { "report/penta.jsonl", "report/html.jsonl",
                                            "report/html-nim.jsonl", "records/old-journal.jsonl",
                                            "records/old-match.json" };
    char *dir = e2e_fixture("report");
    for (size_t i = 0; i < sizeof journals / sizeof *journals; i++) {
        char *path = e2e_fixture(journals[i]);
        struct e2e_run text, json;
        e2e_run(&text, dir, NULL, "referee", "report", path, NULL);
        e2e_run(&json, dir, NULL, "referee", "report", path, "--format", "json", NULL);
        cr_assert_eq(text.status | json.status, 0, "%s: exit %d and %d: %s%s", journals[i],
                     text.status, json.status, text.err, json.err);
        cJSON *root = cJSON_Parse(json.out);
        cr_assert_not_null(root, "%s: the JSON report is not JSON:\n%s", journals[i], json.out);
        if (strstr(text.out, "\nRatings ("))
            assert_ratings_in_json(journals[i], text.out, root);
        else
            cr_expect_not_null(cJSON_GetObjectItem(root, "ratings"),
                               "%s: the JSON has no ratings for two engines", journals[i]);
        assert_overhead_in_json(journals[i], text.out, root);
        assert_pairs_in_json(journals[i], text.out, root);
        cJSON_Delete(root);
        e2e_run_free(&text);
        e2e_run_free(&json);
        free(path);
    }
    free(dir);
}

/* --- why each forfeit happened, from a played tournament ---------------- */

/* The forfeits entry of engine in the JSON report (their order is the order
 * the games finished in, which two workers do not fix). */
static const cJSON *forfeits_of(const cJSON *root, const char *engine)
{
    const cJSON *f;
    cJSON_ArrayForEach(f, cJSON_GetObjectItem(root, "forfeits"))
        if (strcmp(cJSON_GetObjectItem(f, "engine")->valuestring, engine) == 0)
            return f;
    cr_assert_fail("no forfeits of %s in the JSON report", engine);
    return NULL;
}

/* A round robin of d1, crasher.sh and sleeper.sh, one game each way: the
 * crasher dies of SIGSEGV in games 1, 2 and 5, the sleeper times out in 3,
 * 4 and 6. Each report format says why, in the words of the result lines:
 * the text per engine with count and games, the JSON per kind with each
 * detail's count and games, the CSV a row per game. */
Test(e2e_report, a_played_tournaments_forfeits_say_why_in_every_format, .timeout = 120)
{
    char engine[PATH_MAX], crasher[PATH_MAX], sleeper[PATH_MAX];
    e2e_engine_bin_path("engine", engine, sizeof engine);
    e2e_repo_path("tests/engines/crasher.sh", crasher, sizeof crasher);
    e2e_repo_path("tests/engines/sleeper.sh", sleeper, sizeof sleeper);
    char d1[PATH_MAX + 96], c[PATH_MAX + 32], s[PATH_MAX + 32];
    snprintf(d1, sizeof d1, "name=d1,cmd=%s one-move --game connect4 --depth 1 {in} {out}",
             engine);
    snprintf(c, sizeof c, "name=crasher,cmd=%s", crasher);
    snprintf(s, sizeof s, "name=sleeper,cmd=%s", sleeper);
    char *dir = e2e_tmpdir();
    struct e2e_run r;
    /* 1.5 s: each of the sleeper's games waits it out; d1 answers in ms. */
    e2e_run(&r, dir, NULL, "referee", "tournament", "--game", "connect4", "--engine", d1,
            "--engine", c, "--engine", s, "--rounds", "1", "--timeout-ms", "1500",
            "--concurrency", "2", "--journal", "j.jsonl", NULL);
    cr_assert_eq(r.status, 3, "tournament: exit %d (3: every game a forfeit): %s", r.status,
                 r.err);
    static const char timeout[] = "timeout: no answer within 1500 ms of wall time (--timeout-ms)";
    char said[256];   /* the result line says it in these words */
    snprintf(said, sizeof said, "{sleeper forfeits at ply 1: %s}", timeout);
    cr_assert_not_null(strstr(r.out, said), "no '%s' in:\n%s", said, r.out);
    static const char why[] =
        "\nWhy each forfeit happened (per engine: each reason in full, most games first, and "
        "its games)\n"
        "crasher: 3 forfeits\n"
        "  3 x crashed: SIGSEGV\n"
        "      games 1, 2 against d1; 5 against sleeper\n"
        "sleeper: 3 forfeits\n"
        "  3 x timeout: no answer within 1500 ms of wall time (--timeout-ms)\n"
        "      games 3, 4 against d1; 6 against crasher\n";
    /* The tournament's own report ends with it, before the forfeiters' line. */
    cr_expect_not_null(strstr(r.out, why), "no\n%s\nin:\n%s", why, r.out);
    e2e_run_free(&r);

    e2e_run(&r, dir, NULL, "referee", "report", "j.jsonl", NULL);
    cr_assert_eq(r.status, 0, "report: exit %d: %s", r.status, r.err);
    const char *text = strstr(r.out, "\nWhy each forfeit");
    cr_expect(text && strcmp(text, why) == 0, "the text report ends with\n%s\nnot:\n%s", why,
              text ? text : r.out);
    e2e_run_free(&r);

    e2e_run(&r, dir, NULL, "referee", "report", "j.jsonl", "--format", "json", NULL);
    cr_assert_eq(r.status, 0, "report --format json: exit %d: %s", r.status, r.err);
    cJSON *root = cJSON_Parse(r.out);
    cr_assert_not_null(root, "not JSON:\n%s", r.out);
    static const struct {
        const char *engine, *json;
    } want[] = {
        { "crasher", "{\"engine\":\"crasher\",\"reason\":\"crashed: SIGSEGV\",\"count\":3,"
                     "\"details\":[{\"detail\":null,\"count\":3,\"games\":["
                     "{\"game\":1,\"opponent\":\"d1\"},{\"game\":2,\"opponent\":\"d1\"},"
                     "{\"game\":5,\"opponent\":\"sleeper\"}]}]}" },
        { "sleeper", "{\"engine\":\"sleeper\",\"reason\":\"timeout\",\"count\":3,"
                     "\"details\":[{\"detail\":\"no answer within 1500 ms of wall time "
                     "(--timeout-ms)\",\"count\":3,\"games\":["
                     "{\"game\":3,\"opponent\":\"d1\"},{\"game\":4,\"opponent\":\"d1\"},"
                     "{\"game\":6,\"opponent\":\"crasher\"}]}]}" },
    };
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        char *got = cJSON_PrintUnformatted(forfeits_of(root, want[i].engine));
        cr_expect_str_eq(got, want[i].json, "%s's forfeits in the JSON:\n%s", want[i].engine,
                         got);
        free(got);
    }
    cr_expect_eq(cJSON_GetArraySize(cJSON_GetObjectItem(root, "forfeits")), 2,
                 "forfeits entries: %d", cJSON_GetArraySize(cJSON_GetObjectItem(root, "forfeits")));
    cJSON_Delete(root);
    e2e_run_free(&r);

    struct csv t;
    e2e_run(&r, dir, NULL, "referee", "report", "j.jsonl", "--format", "csv", "--table",
            "forfeit-games", NULL);
    cr_assert_eq(r.status, 0, "--table forfeit-games: exit %d: %s", r.status, r.err);
    long bad = -1;
    cr_assert_eq(csv_read(r.out, &t, &bad), 0, "not RFC 4180 at byte %ld:\n%s", bad, r.out);
    e2e_run_free(&r);
    static const char *const rows[][5] = {
        { "engine", "reason", "detail", "game", "opponent" },
        { "crasher", "crashed: SIGSEGV", "", "1", "d1" },
        { "crasher", "crashed: SIGSEGV", "", "2", "d1" },
        { "crasher", "crashed: SIGSEGV", "", "5", "sleeper" },
        { "sleeper", "timeout", timeout + strlen("timeout: "), "3", "d1" },
        { "sleeper", "timeout", timeout + strlen("timeout: "), "4", "d1" },
        { "sleeper", "timeout", timeout + strlen("timeout: "), "6", "crasher" },
    };
    cr_assert_eq(t.nrec, 7, "%d records", t.nrec);
    for (int i = 0; i < 7; i++)
        assert_record(&t, i, 5, rows[i]);
    e2e_rmdir(dir);
}
