/*
 * test_e2e_bench.c - `referee bench` end to end: the built-in engine and a
 * user's Python engine side by side print the header, one row per depth
 * (moves, failed, median <= p95 <= max, peak RSS, growth = this median over
 * the last) and the overhead line, and the JSON holds the same figures; an
 * engine past --budget-ms is not run deeper and the output says so; an
 * engine whose answers are illegal gets its reason, not a time; usage
 * errors, a bad positions file and an unwritable --json exit 2 and write
 * nothing.
 *
 * CPU times differ from run to run, so rows are read with sscanf and their
 * numbers checked against each other and against the JSON; every other
 * line is compared byte for byte.
 */
#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "e2e_util.h"

#define EXIT_USAGE 2
#define LINE_MAX_BYTES 512
#define ROWS_MAX 16
#define CPU_TITLE "CPU time per move (ms, the engine's own user+sys)"
#define OVERHEAD_PREFIX "Referee overhead per move (ms, wall outside the engine): median "

/* The engines: the built-in one, the README's greedy Python engine, a
 * Python engine that burns 0.6 s of CPU from depth 2, one that passes. */
static void builtin_spec(char *buf, size_t cap)
{
    char engine[PATH_MAX];
    e2e_engine_bin_path("engine", engine, sizeof engine);
    snprintf(buf, cap, "name=builtin,cmd=%s one-move", engine);
}

static void repo_spec(const char *rel, char *buf, size_t cap)
{
    e2e_repo_path(rel, buf, cap);
}

static void burner_spec(char *buf, size_t cap)
{
    char dir[PATH_MAX];
    e2e_repo_path("tests/engines/python", dir, sizeof dir);
    snprintf(buf, cap, "name=burner dir=%s cmd=./burner.py", dir);
}

/* One row of the table. */
struct row {
    char name[64];
    int depth;
    long moves, failed, rss;
    double median, p95, max;
    char growth[16];
};

/* The header line of the table for engine names as wide as width. */
static void table_header(int width, char *buf, size_t cap)
{
    snprintf(buf, cap, "%-*s %5s %7s %7s %10s %10s %10s %11s %7s", width, "Engine", "Depth",
             "Moves", "Failed", "Median", "p95", "Max", "Peak RSS KB", "Growth");
}

/* Splits text into lines (in place); returns how many. */
static int split_lines(char *text, char **lines, int cap)
{
    int n = 0;
    for (char *p = text; *p && n < cap;) {
        char *nl = strchr(p, '\n');
        cr_assert_not_null(nl, "the output does not end with a newline: '%s'", p);
        *nl = '\0';
        lines[n++] = p;
        p = nl + 1;
    }
    return n;
}

/* Reads a timed row and checks its numbers against each other and the
 * row before (prev: NULL at an engine's first depth). */
static void read_row(const char *line, const char *name, int depth, long moves,
                     const struct row *prev, struct row *r)
{
    int used = 0;
    cr_assert_eq(sscanf(line, "%63s %d %ld %ld %lf %lf %lf %ld %15s%n", r->name, &r->depth,
                        &r->moves, &r->failed, &r->median, &r->p95, &r->max, &r->rss, r->growth,
                        &used), 9, "not a timed row: '%s'", line);
    cr_assert_eq(line[used], '\0', "more after the row: '%s'", line);
    cr_assert_str_eq(r->name, name, "row '%s'", line);
    cr_assert_eq(r->depth, depth, "row '%s'", line);
    cr_assert_eq(r->moves, moves, "row '%s'", line);
    cr_assert_eq(r->failed, 0, "row '%s'", line);
    cr_assert(r->median > 0 && r->median <= r->p95 && r->p95 <= r->max,
              "median <= p95 <= max: '%s'", line);
    cr_assert_gt(r->rss, 0, "row '%s'", line);
    if (!prev) {
        cr_assert_str_eq(r->growth, "-", "row '%s'", line);
        return;
    }
    char want[16];
    snprintf(want, sizeof want, "%.2f", r->median / prev->median);
    /* The printed medians are rounded to 3 decimals: allow one step. */
    double got = atof(r->growth), exact = r->median / prev->median;
    cr_assert(fabs(got - exact) <= 0.011, "growth %s, medians give %s: '%s'", r->growth, want,
              line);
}

/* Asserts the overhead line: two numbers, median <= p95. */
static void assert_overhead(const char *line)
{
    double median, p95;
    int used = 0;
    cr_assert_eq(strncmp(line, OVERHEAD_PREFIX, strlen(OVERHEAD_PREFIX)), 0, "'%s'", line);
    cr_assert_eq(sscanf(line + strlen(OVERHEAD_PREFIX), "%lf, p95 %lf%n", &median, &p95, &used),
                 2, "'%s'", line);
    cr_assert(line[strlen(OVERHEAD_PREFIX) + (size_t)used] == '\0' && median >= 0 &&
              median <= p95, "'%s'", line);
}

/* The JSON file in dir, parsed; asserts the document's own keys. */
static cJSON *read_json(const char *dir, const char *name, long positions, int nengines)
{
    cJSON *doc = e2e_read_json(dir, name);
    cr_assert_str_eq(cJSON_GetObjectItem(doc, "schema")->valuestring, "arena.bench/1");
    cr_assert_str_eq(cJSON_GetObjectItem(doc, "game")->valuestring, "maxconnect4");
    cr_assert_eq(cJSON_GetObjectItem(doc, "positions")->valuedouble, (double)positions);
    cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItem(doc, "engines")), nengines);
    return doc;
}

/* Asserts that depth k of engine i in doc holds row r's figures. */
static void assert_json_row(const cJSON *doc, int i, int k, const struct row *r)
{
    const cJSON *eng = cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "engines"), i);
    cr_assert_str_eq(cJSON_GetObjectItem(eng, "name")->valuestring, r->name);
    const cJSON *d = cJSON_GetArrayItem(cJSON_GetObjectItem(eng, "depths"), k);
    cr_assert_not_null(d, "%s: no depth %d in the JSON", r->name, r->depth);
    cr_assert_eq(cJSON_GetObjectItem(d, "depth")->valueint, r->depth);
    cr_assert_eq(cJSON_GetObjectItem(d, "moves")->valuedouble, (double)r->moves);
    cr_assert_eq(cJSON_GetObjectItem(d, "failed")->valuedouble, (double)r->failed);
    cr_assert_eq(cJSON_GetObjectItem(d, "peak_rss_kb")->valuedouble, (double)r->rss);
    const cJSON *ms = cJSON_GetObjectItem(d, "cpu_ms");
    const char *keys[] = { "median", "p95", "max" };
    double text[] = { r->median, r->p95, r->max };
    for (int j = 0; j < 3; j++) {
        double v = cJSON_GetObjectItem(ms, keys[j])->valuedouble;
        cr_assert(fabs(v - text[j]) <= 0.0005, "%s depth %d: %s %g in the JSON, %.3f printed",
                  r->name, r->depth, keys[j], v, text[j]);
    }
}

/* Runs referee bench in dir with args (NULL-terminated, after "bench"). */
static void bench(struct e2e_run *r, const char *dir, const char *const *args)
{
    const char *argv[32] = { "bench", "--game", "maxconnect4" };
    int n = 3;
    for (; *args; args++) {
        cr_assert_lt(n, 31);
        argv[n++] = *args;
    }
    argv[n] = NULL;
    e2e_runv(r, dir, NULL, "referee", argv);
}

Test(e2e_bench, builtin_and_python_engines_get_a_row_per_depth)
{
    char *dir = e2e_tmpdir(), builtin[PATH_MAX + 64], greedy[PATH_MAX];
    builtin_spec(builtin, sizeof builtin);
    repo_spec("docs/quickstart/greedy_engine.py", greedy, sizeof greedy);
    const char *args[] = { "--engine", builtin, "--engine", greedy, "--depths", "1-3",
                           "--random-positions", "2", "--seed", "7", "--json", "bench.json",
                           NULL };
    struct e2e_run r;
    bench(&r, dir, args);
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    cr_assert_eq(r.err_len, 0, "stderr: %s", r.err);
    char *lines[ROWS_MAX], header[LINE_MAX_BYTES];
    int n = split_lines(r.out, lines, ROWS_MAX);
    cr_assert_eq(n, 10, "%d lines", n);
    cr_assert_str_eq(lines[0], "Bench maxconnect4: 2 positions (6 random plies, seed 7), 1 move "
                               "per position and depth, depths 1-3");
    cr_assert_str_eq(lines[1], CPU_TITLE);
    table_header((int)strlen("greedy_engine.py"), header, sizeof header);
    cr_assert_str_eq(lines[2], header);
    cJSON *doc = read_json(dir, "bench.json", 2, 2);
    const char *names[] = { "builtin", "greedy_engine.py" };
    struct row rows[6];
    for (int e = 0; e < 2; e++)
        for (int k = 0; k < 3; k++) {
            struct row *row = &rows[e * 3 + k];
            read_row(lines[3 + e * 3 + k], names[e], k + 1, 2, k ? row - 1 : NULL, row);
            assert_json_row(doc, e, k, row);
        }
    assert_overhead(lines[9]);
    cr_assert(cJSON_IsNull(cJSON_GetObjectItem(doc, "budget_ms")));
    cr_assert_eq(cJSON_GetObjectItem(doc, "seed")->valueint, 7);
    cr_assert_eq(cJSON_GetObjectItem(doc, "random_plies")->valueint, 6);
    cJSON_Delete(doc);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

Test(e2e_bench, an_engine_past_the_budget_is_not_run_deeper)
{
    char *dir = e2e_tmpdir(), burner[PATH_MAX + 64], builtin[PATH_MAX + 64];
    burner_spec(burner, sizeof burner);
    builtin_spec(builtin, sizeof builtin);
    const char *args[] = { "--engine", burner, "--engine", builtin, "--depths", "1-3",
                           "--random-positions", "2", "--budget-ms", "300", "--json", "b.json",
                           NULL };
    struct e2e_run r;
    bench(&r, dir, args);
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    char *lines[ROWS_MAX], want[LINE_MAX_BYTES];
    int n = split_lines(r.out, lines, ROWS_MAX);
    cr_assert_eq(n, 10, "%d lines:\n%s", n, r.out);
    cr_assert_str_eq(lines[0], "Bench maxconnect4: 2 positions (6 random plies, seed 1), 1 move "
                               "per position and depth, depths 1-3, budget 300 ms");
    struct row rows[5];
    read_row(lines[3], "burner", 1, 2, NULL, &rows[0]);
    read_row(lines[4], "burner", 2, 2, &rows[0], &rows[1]);
    cr_assert_gt(rows[1].median, 300.0, "burner's depth 2: '%s'", lines[4]);
    snprintf(want, sizeof want,
             "burner: median %.3f ms at depth 2 passes --budget-ms 300: not run deeper",
             rows[1].median);
    cr_assert_str_eq(lines[5], want);
    for (int k = 0; k < 3; k++)   /* the others go on */
        read_row(lines[6 + k], "builtin", k + 1, 2, k ? &rows[1 + k] : NULL, &rows[2 + k]);
    assert_overhead(lines[9]);
    cJSON *doc = read_json(dir, "b.json", 2, 2);
    const cJSON *eng = cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "engines"), 0);
    cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItem(eng, "depths")), 2);
    const cJSON *stop = cJSON_GetObjectItem(eng, "stopped");
    cr_assert_eq(cJSON_GetObjectItem(stop, "depth")->valueint, 2);
    cr_assert_str_eq(cJSON_GetObjectItem(stop, "reason")->valuestring, "budget");
    cr_assert_eq(cJSON_GetObjectItem(doc, "budget_ms")->valueint, 300);
    eng = cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "engines"), 1);
    cr_assert(cJSON_IsNull(cJSON_GetObjectItem(eng, "stopped")));
    cJSON_Delete(doc);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

/* An engine that passes instead of moving: each move reported with its
 * reason, none timed, and no deeper depth tried. From a positions file. */
Test(e2e_bench, an_illegal_answer_is_reported_with_its_reason)
{
    char *dir = e2e_tmpdir(), illegal[PATH_MAX], path[PATH_MAX];
    repo_spec("tests/engines/illegal.sh", illegal, sizeof illegal);
    snprintf(path, sizeof path, "%s/positions.txt", dir);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs("# two openings\n4 4\n\n3 2 1 5\n", f);
    fclose(f);
    const char *args[] = { "--engine", illegal, "--depths", "1-2", "--positions",
                           "positions.txt", "--json", "b.json", NULL };
    struct e2e_run r;
    bench(&r, dir, args);
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    char header[LINE_MAX_BYTES], want[4 * LINE_MAX_BYTES];
    table_header((int)strlen("illegal.sh"), header, sizeof header);
    snprintf(want, sizeof want,
             "Bench maxconnect4: 2 positions (from positions.txt), 1 move per position and "
             "depth, depths 1-2\n" CPU_TITLE "\n%s\n"
             "illegal.sh     1       0       2          -          -          -           -"
             "       -\n"
             "  illegal.sh at depth 1: 2 of 2 moves failed, not timed: 2 illegal-move (first "
             "at position 1)\n"
             "illegal.sh: every move failed at depth 1: not run deeper\n" OVERHEAD_PREFIX,
             header);
    cr_assert_eq(strncmp(r.out, want, strlen(want)), 0, "stdout:\n%s\nexpected it to start:\n%s",
                 r.out, want);
    char *lines[ROWS_MAX];
    cr_assert_eq(split_lines(r.out, lines, ROWS_MAX), 7);
    assert_overhead(lines[6]);
    cJSON *doc = read_json(dir, "b.json", 2, 1);
    const cJSON *eng = cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "engines"), 0);
    const cJSON *d = cJSON_GetArrayItem(cJSON_GetObjectItem(eng, "depths"), 0);
    cr_assert_eq(cJSON_GetObjectItem(d, "moves")->valueint, 0);
    cr_assert_eq(cJSON_GetObjectItem(d, "failed")->valueint, 2);
    cr_assert_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(d, "failures"), "illegal-move")->valueint,
                 2);
    cr_assert_str_eq(cJSON_GetObjectItem(doc, "positions_file")->valuestring, "positions.txt");
    const cJSON *stop = cJSON_GetObjectItem(eng, "stopped");
    cr_assert_str_eq(cJSON_GetObjectItem(stop, "reason")->valuestring, "failed");
    cJSON_Delete(doc);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

/* A bad line in the positions file: FILE:LINE:COL, exit 2, no output. */
Test(e2e_bench, a_bad_positions_file_is_refused_at_its_place)
{
    char *dir = e2e_tmpdir(), path[PATH_MAX], json[PATH_MAX];
    snprintf(path, sizeof path, "%s/positions.txt", dir);
    snprintf(json, sizeof json, "%s/b.json", dir);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs("4 4\n3 9\n", f);
    fclose(f);
    const char *args[] = { "--engine", "sh", "--depths", "1-2", "--positions", "positions.txt",
                           "--json", "b.json", NULL };
    struct e2e_run r;
    bench(&r, dir, args);
    cr_assert_eq(r.status, EXIT_USAGE, "exit %d: %s", r.status, r.err);
    cr_assert_str_eq(r.err, "positions.txt:2:3: '9' is not a legal move here\n");
    cr_assert_eq(r.out_len, 0, "stdout: %s", r.out);
    cr_assert(!e2e_exists(json), "%s was written", json);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

/* A JSON or SVG file that cannot be written is refused before any move. */
Test(e2e_bench, an_unwritable_json_or_svg_is_refused_before_the_first_move)
{
    char *dir = e2e_tmpdir();
    static const char *const option[] = { "--json", "--svg" };
    for (int k = 0; k < 2; k++) {
        const char *args[] = { "--engine", "sh", "--depths", "1-2", "--random-positions", "1",
                               option[k], "missing/b.out", NULL };
        struct e2e_run r;
        bench(&r, dir, args);
        cr_assert_eq(r.status, EXIT_USAGE, "%s: exit %d: %s", option[k], r.status, r.err);
        char want[160];
        snprintf(want, sizeof want, "referee: %s missing/b.out: cannot create files in missing: "
                 "No such file or directory\n", option[k]);
        cr_assert_str_eq(r.err, want);
        cr_assert_eq(r.out_len, 0, "stdout: %s", r.out);
        e2e_run_free(&r);
    }
    e2e_rmdir(dir);
}

/* Arrays, not pointers: Criterion copies a parameter into the test's
 * process, where the string literals may sit elsewhere. */
struct bench_usage {
    char args[12][48];
    char err[160];
};

ParameterizedTestParameters(e2e_bench, usage_error)
{
    static struct bench_usage cases[] = {
        { { "--engine", "sh", "--random-positions", "2" },
          "referee: bench: --depths A-B is required\n" },
        { { "--engine", "sh", "--depths", "3-1" },
          "referee: --depths must be A-B with 1 <= A <= B <= 64, got '3-1'\n" },
        { { "--depths", "1-2", "--random-positions", "2" },
          "referee: bench: give at least one --engine\n" },
        { { "--engine", "sh", "--depths", "1-2" },
          "referee: bench: give --positions FILE or --random-positions N (one of them)\n" },
        { { "--engine", "sh", "--depths", "1-2", "--random-positions", "2", "--positions", "p" },
          "referee: bench: give --positions FILE or --random-positions N (one of them)\n" },
        { { "--engine", "sh", "--depths", "1-2", "--random-positions", "0" },
          "referee: --random-positions must be a number from 1 to 10000, got '0'\n" },
        { { "--engine", "sh", "--depths", "1-2", "--random-positions", "1", "--budget-ms", "x" },
          "referee: --budget-ms must be a number from 1 to 86400000, got 'x'\n" },
        { { "--engine", "name=x,cmd=sh,depth=3", "--depths", "1-2", "--random-positions", "1" },
          "referee: bench: engine 'x' has depth=, which would replace --depths\n" },
        { { "--engine", "name=x,cmd=sh {in} {out}", "--depths", "1-2", "--random-positions",
            "1" },
          "referee: bench: engine 'x': its command has no {depth}, so every depth would be the "
          "same move\n" },
        { { "--engine", "sh", "--depths", "1-2", "--random-positions", "1", "--games", "2" },
          "referee: bench: unknown option '--games'\n" },
        { { "--engine", "sh", "--depths", "1-2", "--random-positions", "1", "extra" },
          "referee: bench: unexpected argument 'extra'\n" },
    };
    return cr_make_param_array(struct bench_usage, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct bench_usage *c, e2e_bench, usage_error)
{
    char *dir = e2e_tmpdir();
    const char *args[13] = { NULL };
    for (int i = 0; i < 12 && c->args[i][0]; i++)
        args[i] = c->args[i];
    struct e2e_run r;
    bench(&r, dir, args);
    cr_assert_eq(r.status, EXIT_USAGE, "exit %d: %s", r.status, r.err);
    char want[512];
    snprintf(want, sizeof want, "%sTry 'referee --help' for more information.\n", c->err);
    cr_assert_str_eq(r.err, want);
    cr_assert_eq(r.out_len, 0, "stdout: %s", r.out);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}
