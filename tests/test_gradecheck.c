/*
 * test_gradecheck.c - a rubric check's score and evidence (gradecheck.h):
 * match's points for a score over the games, cpu's points and output for
 * a bench's figures, the cpu curve read from a bench document, and the io
 * check run whole without a sandbox on sh commands (a share per input, the
 * evidence of the first differing line), each in milliseconds.
 */
#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "referee/grade/gradecheck.h"
#include "arena/textfile.h"

struct match_case {
    double points, min_score, score, want;
};

ParameterizedTestParameters(gradecheck, match_gives_full_points_at_min_score_else_a_share)
{
    static struct match_case cases[] = {
        { 10, 0.75, 0.75, 10 },   /* at the bar */
        { 10, 0.75, 1, 10 },      /* past it: no more */
        { 10, 0.8, 0.4, 5 },      /* half the bar, half the points */
        { 10, 0.5, 0, 0 },
        { 6, 1, 0.5, 3 },         /* every game to win: draws count half */
    };
    return cr_make_param_array(struct match_case, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct match_case *c, gradecheck, match_gives_full_points_at_min_score_else_a_share)
{
    struct rubric_check ch = { .points = c->points, .min_score = c->min_score };
    double got = gcheck_match_points(&ch, c->score);
    cr_assert_float_eq(got, c->want, 1e-12, "%g points, bar %g, score %g: %g, not %g", c->points,
                       c->min_score, c->score, got, c->want);
}

struct cpu_case {
    double median;
    long failed;
    double want;
    char msg[100];
};

ParameterizedTestParameters(gradecheck, cpu_gives_all_or_nothing_and_says_why)
{
    static struct cpu_case cases[] = {
        { 12.34, 0, 4, "median CPU per move at depth 5: 12.3 ms (limit 50 ms)" },
        { 50, 0, 4, "median CPU per move at depth 5: 50.0 ms (limit 50 ms)" },
        { 50.01, 0, 0, "median CPU per move at depth 5: 50.0 ms (limit 50 ms)" },
        { 1, 2, 0, "2 of 8 moves at depth 5 failed" },
        { -1, 0, 0, "not run at depth 5: a shallower depth failed or passed 50 ms" },
    };
    return cr_make_param_array(struct cpu_case, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct cpu_case *c, gradecheck, cpu_gives_all_or_nothing_and_says_why)
{
    struct rubric_check ch = { .points = 4, .depth = 5, .positions = 8, .max_ms = 50 };
    char msg[256] = "";
    double got = gcheck_cpu_points(&ch, c->median, c->failed, msg, sizeof msg);
    cr_assert_eq(got, c->want, "median %g, %ld failed: %g points, not %g", c->median, c->failed,
                 got, c->want);
    cr_assert_str_eq(msg, c->msg);
}

/* As refbench writes it: every depth has "failed" and "failures". */
static const char bench_doc[] =
    "{\"schema\":\"arena.bench/1\",\"game\":\"connect4\",\"positions\":3,\"engines\":["
    "{\"name\":\"e\",\"depths\":["
    "{\"depth\":1,\"moves\":3,\"cpu_ms\":{\"median\":0.5,\"p95\":1,\"max\":1},"
    "\"failed\":0,\"failures\":{}},"
    "{\"depth\":2,\"moves\":3,\"failed\":1,\"failures\":{\"timeout\":1},"
    "\"cpu_ms\":{\"median\":7.5,\"p95\":9,\"max\":9}}]},"
    "{\"name\":\"other\",\"depths\":[{\"depth\":3,\"moves\":3,\"cpu_ms\":{\"median\":1},"
    "\"failed\":0,\"failures\":{}}]}]}";

Test(gradecheck, the_cpu_curve_is_each_depth_of_the_bench_and_its_failures)
{
    char path[] = "/tmp/test_gradecheck_XXXXXX";
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    cr_assert_eq(write(fd, bench_doc, sizeof bench_doc - 1), (ssize_t)sizeof bench_doc - 1);
    close(fd);
    cJSON *curve = cJSON_CreateArray();
    long failed = -1;
    double median = gcheck_read_curve(path, 2, &failed, curve);
    cr_assert_eq(median, 7.5);
    cr_assert_eq(failed, 1);
    char *text = cJSON_PrintUnformatted(curve);
    cr_assert_str_eq(text, "[{\"depth\":1,\"median_ms\":0.5,\"failed\":0,\"moves\":3,\"failures\":{}},"
                           "{\"depth\":2,\"median_ms\":7.5,\"failed\":1,\"moves\":3,"
                           "\"failures\":{\"timeout\":1}}]");
    free(text);
    cJSON_Delete(curve);

    curve = cJSON_CreateArray();
    cr_assert_eq(gcheck_read_curve(path, 3, &failed, curve), -1, "depth 3 is another engine's");
    cr_assert_eq(cJSON_GetArraySize(curve), 2);
    cJSON_Delete(curve);
    unlink(path);
    curve = cJSON_CreateArray();
    cr_assert_eq(gcheck_read_curve(path, 1, &failed, curve), -1, "no document");
    cr_assert_eq(cJSON_GetArraySize(curve), 0);
    cJSON_Delete(curve);
}

/* ---- io, run whole ------------------------------------------------------ */

struct io_fixture {
    char dir[64], scratch[128];
    struct rubric rb;
    struct gcheck_env env;
};

static void put(const char *dir, const char *name, const char *text)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f, "%s", path);
    fputs(text, f);
    fclose(f);
}

/* A folder with inputs a.in, b.in, c.in and their expected outputs, and an
 * io check of cmd on them. */
static void io_open(struct io_fixture *x, const char *cmd)
{
    memset(x, 0, sizeof *x);
    snprintf(x->dir, sizeof x->dir, "/tmp/test_gradecheck_XXXXXX");
    cr_assert_not_null(mkdtemp(x->dir));
    put(x->dir, "a.in", "one\n");
    put(x->dir, "a.out", "ONE\n");
    put(x->dir, "b.in", "two\nthree\n");
    put(x->dir, "b.out", "TWO\nTHREE!\n");
    put(x->dir, "c.in", "four\n");
    put(x->dir, "c.out", "FOUR\nFIVE\n");
    snprintf(x->scratch, sizeof x->scratch, "%s/scratch", x->dir);
    cr_assert_eq(mkdir(x->scratch, 0700), 0);
    char text[512];
    snprintf(text, sizeof text, "{\"timeout_ms\":5000,\"checks\":[{\"id\":\"io\",\"kind\":\"io\","
             "\"points\":9,\"cmd\":\"%s\",\"inputs\":\"*.in\",\"expected\":\"*.out\"}]}", cmd);
    struct err e;
    cr_assert_eq(rubric_parse(text, strlen(text), x->dir, &x->rb, &e), 0, "%d:%d: %s", e.line,
                 e.col, e.msg);
    x->env.rb = &x->rb;
    x->env.rules.limits.timeout_ms = 5000;
    x->env.workdir = x->dir;
    x->env.scratch = x->scratch;
}

static void io_close(struct io_fixture *x)
{
    rubric_free(&x->rb);
    tf_remove_tree(x->dir);
}

Test(gradecheck, io_scores_a_share_per_input_and_shows_the_first_differing_line)
{
    struct io_fixture x;
    io_open(&x, "tr a-z A-Z");
    struct gcheck_result res;
    struct err e;
    cr_assert_eq(gcheck_run(&x.env, 0, &res, &e), GCHECK_DONE, "%s", e.msg);
    cr_assert_eq(res.max, 9);
    cr_assert_float_eq(res.score, 3, 1e-12, "%g", res.score);
    cr_assert_str_eq(res.output, "1 of 3 inputs gave the expected output");
    char *text = cJSON_PrintUnformatted(res.evidence);
    cr_assert_str_eq(text, "{\"items\":["
                           "{\"input\":\"b.in\",\"status\":\"ok\",\"line\":2,"
                           "\"want\":\"THREE!\",\"got\":\"THREE\"},"
                           "{\"input\":\"c.in\",\"status\":\"ok\",\"line\":2,"
                           "\"want\":\"FIVE\",\"got\":\"(end of output)\"}]}");
    free(text);
    gcheck_result_free(&res);
    io_close(&x);
}

Test(gradecheck, io_a_failing_command_is_its_status_and_its_stderr)
{
    struct io_fixture x;
    io_open(&x, "echo oops >&2; exit 3");
    struct gcheck_result res;
    struct err e;
    cr_assert_eq(gcheck_run(&x.env, 0, &res, &e), GCHECK_DONE, "%s", e.msg);
    cr_assert_eq(res.score, 0);
    cr_assert_str_eq(res.output, "0 of 3 inputs gave the expected output");
    const cJSON *items = cJSON_GetObjectItem(res.evidence, "items");
    cr_assert_eq(cJSON_GetArraySize(items), 3);
    char *text = cJSON_PrintUnformatted(cJSON_GetArrayItem(items, 0));
    cr_assert_str_eq(text, "{\"input\":\"a.in\",\"status\":\"exit-status 3\",\"line\":1,"
                           "\"want\":\"ONE\",\"got\":\"(end of output)\",\"stderr\":\"oops\\n\"}");
    free(text);
    gcheck_result_free(&res);
    io_close(&x);
}
