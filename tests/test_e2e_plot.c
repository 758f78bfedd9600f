/*
 * test_e2e_plot.c - scripts/plot-bench.sh on arena.bench/1 documents (of
 * `engine bench`, of `referee bench`, hand-made ones) and `referee bench
 * --svg`, which runs it: the
 * SVG is XML with one series per engine, named as the document names them
 * and in its order; the same document in any layout draws the same bytes;
 * the time axis reads as times; a document it cannot draw is refused with
 * exit status 2 and leaves the SVG alone. xmllint reads the SVGs.
 */
#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "e2e_util.h"

static char *path_in(const char *dir, const char *name)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *p = malloc(n);
    snprintf(p, n, "%s/%s", dir, name);
    return p;
}

/* Runs plot-bench.sh JSON SVG in dir; returns its run (caller frees). */
static struct e2e_run plot(const char *dir, const char *json, const char *svg)
{
    char script[PATH_MAX];
    e2e_repo_path("scripts/plot-bench.sh", script, sizeof script);
    struct e2e_run r;
    e2e_run_tool(&r, dir, NULL, "sh", script, json, svg, NULL);
    return r;
}

/* Runs plot-bench.sh JSON SVG in dir and asserts that it drew SVG. */
static void plot_ok(const char *dir, const char *json, const char *svg)
{
    struct e2e_run r = plot(dir, json, svg);
    cr_assert_eq(r.status, 0, "plot-bench.sh %s: exit %d: %s", json, r.status, r.err);
    char want[PATH_MAX + 16];
    snprintf(want, sizeof want, "wrote %s\n", svg);
    cr_assert_str_eq(r.out, want);
    e2e_run_free(&r);
}

/* xmllint's answer to an XPath expression on svg without the newline after
 * a number (a parse error fails). */
static char *xpath(const char *dir, const char *svg, const char *expr)
{
    struct e2e_run r;
    e2e_run_tool(&r, dir, NULL, "xmllint", "--xpath", expr, svg, NULL);
    cr_assert_eq(r.status, 0, "xmllint --xpath '%s' %s: exit %d: %s", expr, svg, r.status, r.err);
    free(r.err);
    if (r.out_len && r.out[r.out_len - 1] == '\n')
        r.out[r.out_len - 1] = '\0';
    return r.out;
}

/* Asserts svg is well-formed XML whose plot series (gnuplot's
 * gnuplot_plot_N groups, each holding its legend text) are names, in order. */
static void assert_series(const char *dir, const char *svg, const char *const *names, int n)
{
    struct e2e_run r;
    e2e_run_tool(&r, dir, NULL, "xmllint", "--noout", svg, NULL);
    cr_assert_eq(r.status, 0, "%s is not XML: %s", svg, r.err);
    e2e_run_free(&r);
    char *count = xpath(dir, svg, "count(//*[local-name()='g'][starts-with(@id,'gnuplot_plot_')])");
    char want[16];
    snprintf(want, sizeof want, "%d", n);
    cr_assert_str_eq(count, want, "%s: %s series, expected %d", svg, count, n);
    free(count);
    for (int i = 0; i < n; i++) {
        char expr[160];
        snprintf(expr, sizeof expr,
                 "string(//*[local-name()='g'][@id='gnuplot_plot_%d']//*[local-name()='text'])",
                 i + 1);
        char *title = xpath(dir, svg, expr);
        cr_assert_str_eq(title, names[i], "series %d of %s", i + 1, svg);
        free(title);
    }
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f, "cannot write %s", path);
    fputs(text, f);
    fclose(f);
}

/* `engine bench --json` draws as one series, named by its player. */
Test(plot, engine_bench_json_is_one_series)
{
    char *dir = e2e_tmpdir();
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "engine", "bench", "--depths", "1-3", "--tt-mb", "1", "--json",
            "bench.json", NULL);
    cr_assert_eq(r.status, 0, "engine bench: exit %d: %s", r.status, r.err);
    e2e_run_free(&r);
    plot_ok(dir, "bench.json", "bench.svg");
    const char *names[] = { "alphabeta" };
    assert_series(dir, "bench.svg", names, 1);
    e2e_rmdir(dir);
}

/* `referee bench --json` draws a series per engine, in its order: the
 * built-in engine and one whose every move failed (a legend, no line). */
Test(plot, referee_bench_json_is_one_series_per_engine)
{
    char *dir = e2e_tmpdir();
    char engine[PATH_MAX], builtin[PATH_MAX + 64], illegal[PATH_MAX];
    e2e_engine_bin_path("engine", engine, sizeof engine);
    snprintf(builtin, sizeof builtin, "name=builtin,cmd=%s one-move", engine);
    e2e_repo_path("tests/engines/illegal.sh", illegal, sizeof illegal);
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "referee", "bench", "--game", "maxconnect4", "--engine", builtin,
            "--engine", illegal, "--depths", "1-2", "--random-positions", "2", "--json",
            "bench.json", NULL);
    cr_assert_eq(r.status, 0, "referee bench: exit %d: %s", r.status, r.err);
    e2e_run_free(&r);
    plot_ok(dir, "bench.json", "bench.svg");
    const char *names[] = { "builtin", "illegal.sh" };
    assert_series(dir, "bench.svg", names, 2);
    e2e_rmdir(dir);
}

/* `referee bench --svg` draws its figures with the same script: beside
 * --json, the very bytes the script draws from that JSON; alone, through a
 * JSON in a private folder of TMPDIR that is gone afterwards. */
Test(plot, referee_bench_svg_is_the_scripts_plot_of_its_json)
{
    char *dir = e2e_tmpdir();
    char engine[PATH_MAX], builtin[PATH_MAX + 64], random[PATH_MAX + 64];
    e2e_engine_bin_path("engine", engine, sizeof engine);
    snprintf(builtin, sizeof builtin, "name=builtin,cmd=%s one-move", engine);
    snprintf(random, sizeof random, "name=random,cmd=%s one-move --player random", engine);
    /* Games' folders go in TMPDIR, here inside the referee's folder, which
     * the sandbox shows as it is: as root the engines run as nobody, who
     * must be able to enter it. */
    char *tmp = path_in(dir, "tmp");
    cr_assert_eq(chmod(dir, 0755), 0, "chmod %s", dir);
    cr_assert_eq(mkdir(tmp, 0755), 0, "mkdir %s", tmp);
    cr_assert_eq(setenv("TMPDIR", tmp, 1), 0);
    const char *both[] = { "--json", "bench.json", "--svg", "direct.svg", NULL };
    const char *alone[] = { "--svg", "alone.svg", NULL, NULL, NULL };
    const char *const *extra[] = { both, alone };
    for (int k = 0; k < 2; k++) {
        const char *argv[24] = { "bench", "--game", "maxconnect4", "--engine", builtin,
                                 "--engine", random, "--depths", "1-2",
                                 "--random-positions", "2" };
        int n = 11;
        for (const char *const *a = extra[k]; *a; a++)
            argv[n++] = *a;
        struct e2e_run r;
        e2e_runv(&r, dir, NULL, "referee", argv);
        cr_assert_eq(r.status, 0, "referee bench: exit %d: %s%s", r.status, r.out, r.err);
        char want[64];
        snprintf(want, sizeof want, "wrote %s\n", k ? "alone.svg" : "direct.svg");
        size_t wl = strlen(want);
        cr_assert(r.out_len >= wl && strcmp(r.out + r.out_len - wl, want) == 0,
                  "stdout does not end with '%s': %s", want, r.out);
        e2e_run_free(&r);
    }
    const char *names[] = { "builtin", "random" };
    assert_series(dir, "direct.svg", names, 2);
    assert_series(dir, "alone.svg", names, 2);
    plot_ok(dir, "bench.json", "script.svg");
    char *direct = path_in(dir, "direct.svg"), *script = path_in(dir, "script.svg");
    size_t dl, sl;
    char *d = e2e_slurp(direct, &dl), *sc = e2e_slurp(script, &sl);
    cr_assert(d && sc && dl == sl && memcmp(d, sc, dl) == 0,
              "referee bench --svg drew other bytes than plot-bench.sh on its --json");
    struct e2e_run r;
    e2e_run_tool(&r, dir, NULL, "ls", "-A", tmp, NULL);
    cr_assert_str_eq(r.out, "", "left in TMPDIR: %s", r.out);
    e2e_run_free(&r);
    free(d);
    free(sc);
    free(direct);
    free(script);
    free(tmp);
    e2e_rmdir(dir);
}

/* Every move failed, nothing timed: still a plot, its legend naming the
 * engine (gnuplot cannot autoscale on no point). */
Test(plot, a_bench_with_nothing_timed_still_draws)
{
    char *dir = e2e_tmpdir();
    char illegal[PATH_MAX];
    e2e_repo_path("tests/engines/illegal.sh", illegal, sizeof illegal);
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "referee", "bench", "--game", "maxconnect4", "--engine", illegal,
            "--depths", "1-2", "--random-positions", "1", "--svg", "bench.svg", NULL);
    cr_assert_eq(r.status, 0, "referee bench: exit %d: %s", r.status, r.err);
    e2e_run_free(&r);
    const char *names[] = { "illegal.sh" };
    assert_series(dir, "bench.svg", names, 1);
    e2e_rmdir(dir);
}

/* A referee neither installed nor in a source tree finds no plot script:
 * it says so before the first move, exit status 1, and draws nothing. (A
 * machine with arena installed under the default prefix has the script,
 * and then the copy draws.) */
Test(plot, a_referee_without_the_plot_script_says_so_before_the_first_move)
{
    char *dir = e2e_tmpdir();
    char referee[PATH_MAX], engine[PATH_MAX], spec[PATH_MAX + 64];
    e2e_bin_path("referee", referee, sizeof referee);
    e2e_engine_bin_path("engine", engine, sizeof engine);
    snprintf(spec, sizeof spec, "name=ab,cmd=%s one-move", engine);
    struct e2e_run r;
    e2e_run_tool(&r, dir, NULL, "cp", referee, "lone-referee", NULL);
    cr_assert_eq(r.status, 0, "cp: %s", r.err);
    e2e_run_free(&r);
    e2e_run_tool(&r, dir, NULL, "./lone-referee", "bench", "--game", "maxconnect4", "--engine",
                 spec, "--depths", "1-2", "--random-positions", "1", "--svg", "b.svg", NULL);
    const char *installed = "/usr/local/share/arena/plot-bench.sh";
    if (access(installed, R_OK) == 0) {
        cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    } else {
        char want[PATH_MAX + 160];
        snprintf(want, sizeof want, "lone-referee: --svg: no plot script %s (make install puts "
                 "it there; an uninstalled build uses its tree's scripts/)\n", installed);
        cr_assert_eq(r.status, 1, "exit %d: %s", r.status, r.err);
        cr_assert_str_eq(r.err, want);
        cr_assert_eq(r.out_len, 0, "stdout: %s", r.out);
        char *svg = path_in(dir, "b.svg");
        cr_assert_not(e2e_exists(svg), "%s was drawn", svg);
        free(svg);
    }
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

/* Several engines: a series each, in the document's order, a name with
 * quotes and gnuplot's markup characters shown as written. */
Test(plot, one_series_per_engine_in_order)
{
    char *dir = e2e_tmpdir(), *json = e2e_fixture("bench/three-engines.json");
    plot_ok(dir, json, "three.svg");
    const char *names[] = { "built-in alphabeta", "o'brien's \"py\" engine_1^2 & {x}",
                            "minimax" };
    assert_series(dir, "three.svg", names, 3);
    free(json);
    e2e_rmdir(dir);
}

/* The time axis: decades labelled as times with their unit, on white. */
Test(plot, time_axis_reads_as_times)
{
    char *dir = e2e_tmpdir(), *json = e2e_fixture("bench/three-engines.json");
    plot_ok(dir, json, "three.svg");
    char *svg = path_in(dir, "three.svg"), *text = e2e_slurp(svg, NULL);
    const char *labels[] = { "<text>1 µs</text>", "<text>10 µs</text>", "<text>100 µs</text>",
                             "<text>1 ms</text>", "<text>10 ms</text>", "<text>100 ms</text>",
                             "<text>1 s</text>", "<text>search depth (plies)</text>",
                             "fill=\"#ffffff\"" };
    for (size_t i = 0; i < sizeof labels / sizeof *labels; i++)
        cr_expect_not_null(strstr(text, labels[i]), "no %s in the SVG", labels[i]);
    free(text);
    free(svg);
    free(json);
    e2e_rmdir(dir);
}

/* The same document, laid out by jq in two ways and printed again by
 * cJSON, draws byte for byte the same SVG. */
Test(plot, any_layout_of_the_json_draws_the_same_svg)
{
    char *dir = e2e_tmpdir(), *json = e2e_fixture("bench/three-engines.json");
    plot_ok(dir, json, "original.svg");
    struct e2e_run r;
    char *original = path_in(dir, "original.svg");
    size_t want_len;
    char *want = e2e_slurp(original, &want_len);

    /* The layouts: compact, sorted keys with 7-space indents, cJSON's. */
    char *doc = e2e_slurp(json, NULL);
    const char *names[] = { "compact.json", "sorted.json", "cjson.json" };
    char *paths[3];
    for (int k = 0; k < 3; k++)
        paths[k] = path_in(dir, names[k]);
    e2e_run_tool(&r, dir, doc, "jq", "-c", ".", NULL);
    cr_assert_eq(r.status, 0, "jq: %s", r.err);
    write_text(paths[0], r.out);
    e2e_run_free(&r);
    e2e_run_tool(&r, dir, doc, "jq", "-S", "--indent", "7", ".", NULL);
    cr_assert_eq(r.status, 0, "jq: %s", r.err);
    write_text(paths[1], r.out);
    e2e_run_free(&r);
    cJSON *root = cJSON_Parse(doc);
    char *again = cJSON_PrintUnformatted(root);
    write_text(paths[2], again);
    free(again);
    cJSON_Delete(root);

    char *again_svg = path_in(dir, "again.svg");
    for (int k = 0; k < 3; k++) {
        plot_ok(dir, names[k], "again.svg");
        size_t len;
        char *got = e2e_slurp(again_svg, &len);
        cr_expect(len == want_len && memcmp(got, want, len) == 0,
                  "%s draws another SVG than the fixture", names[k]);
        free(got);
        free(paths[k]);
    }
    free(again_svg);
    free(doc);
    free(want);
    free(original);
    free(json);
    e2e_rmdir(dir);
}

/* A depth without cpu_ms: exit status 2 naming the engine, and the SVG
 * from before is untouched. */
Test(plot, document_without_cpu_times_is_refused)
{
    char *dir = e2e_tmpdir(), *json = e2e_fixture("bench/no-cpu.json");
    char *svg = path_in(dir, "old.svg");
    write_text(svg, "earlier plot\n");
    struct e2e_run r = plot(dir, json, "old.svg");
    cr_assert_eq(r.status, 2, "exit %d: %s", r.status, r.err);
    char want[PATH_MAX + 128];
    snprintf(want, sizeof want,
             "plot-bench.sh: %s: engine old: a depth without \"depth\" and \"cpu_ms\" "
             "{\"median\", \"p95\"}\n",
             json);
    cr_assert_str_eq(r.err, want);
    e2e_run_free(&r);
    char *text = e2e_slurp(svg, NULL);
    cr_assert_str_eq(text, "earlier plot\n");
    free(text);
    free(svg);
    free(json);
    e2e_rmdir(dir);
}
