/*
 * test_e2e_gradescope.c - docs/gradescope's autograder end to end: under a
 * temporary folder standing for /autograder (AUTOGRADER_ROOT), with the
 * built referee where setup.sh leaves it (source/arena/bin), run_autograder
 * grades source/submission and writes results/results.json with the fields
 * Gradescope documents (score, execution_time, stdout_visibility, tests
 * with name, score, max_score, output, visibility), hidden checks included
 * and marked; a rubric the referee refuses gives 0 and says so. setup.sh is
 * checked by `sh -n` and by its refusal without a source; its build (apt-get
 * and a whole `make all`, a minute) is scripts/test-gradescope.sh's, as root
 * (`make test-gradescope`, which CI runs).
 */
#define _GNU_SOURCE
#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "e2e_util.h"

/* tests/grade/visibility/rubric.json on tests/grade/class/alphabeta. */
#define CHECKS 3
static const char *const names[CHECKS] = { "legal", "secret", "tardy" };
static const double points[CHECKS] = { 10, 30, 5 };
static const char *const seen[CHECKS] = { "visible", "hidden", "after_due_date" };

/* A folder standing for /autograder: source/ with the rubric (rel, copied
 * as rubric.json) and arena/bin/referee (the built one), submission/ with
 * alphabeta's engine. AUTOGRADER_ROOT names it for the scripts. */
static char *autograder_root(const char *rubric)
{
    char *root = e2e_tmpdir();
    char path[PATH_MAX + 64], from[PATH_MAX], referee[PATH_MAX];
    static const char *const dirs[] = { "source", "source/arena", "source/arena/bin",
                                        "submission" };
    for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++) {
        snprintf(path, sizeof path, "%s/%s", root, dirs[i]);
        cr_assert_eq(mkdir(path, 0755), 0, "%s", path);
    }
    e2e_bin_path("referee", referee, sizeof referee);
    snprintf(path, sizeof path, "%s/source/arena/bin/referee", root);
    cr_assert_eq(symlink(referee, path), 0);
    static const char *const copies[][2] = { { NULL, "source/rubric.json" },
                                             { "tests/grade/class/alphabeta/engine.py",
                                               "submission/engine.py" } };
    for (int i = 0; i < 2; i++) {
        e2e_repo_path(copies[i][0] ? copies[i][0] : rubric, from, sizeof from);
        snprintf(path, sizeof path, "%s/%s", root, copies[i][1]);
        struct e2e_run r;
        e2e_run_tool(&r, root, NULL, "cp", from, path, NULL);
        cr_assert_eq(r.status, 0, "cp: %s", r.err);
        e2e_run_free(&r);
    }
    setenv("AUTOGRADER_ROOT", root, 1);   /* this test's own process */
    return root;
}

/* Runs docs/gradescope's script in root, as Gradescope does. */
static void run_script(struct e2e_run *r, const char *root, const char *script)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "docs/gradescope/%s", script);
    char abs[PATH_MAX];
    e2e_repo_path(path, abs, sizeof abs);
    e2e_run_tool(r, root, NULL, abs, NULL);
}

static const char *string_at(const cJSON *obj, const char *key)
{
    const cJSON *v = cJSON_GetObjectItem(obj, key);
    cr_assert(cJSON_IsString(v), "\"%s\" is not a string", key);
    return v->valuestring;
}

static double number_at(const cJSON *obj, const char *key)
{
    const cJSON *v = cJSON_GetObjectItem(obj, key);
    cr_assert(cJSON_IsNumber(v), "\"%s\" is not a number", key);
    return v->valuedouble;
}

/* Every check run, hidden ones too, each test as Gradescope documents it;
 * results/ holds results.json alone. */
Test(e2e_gradescope, run_autograder_writes_gradescopes_results_json, .timeout = 60)
{
    char *root = autograder_root("tests/grade/visibility/rubric.json");
    struct e2e_run r;
    run_script(&r, root, "run_autograder");
    cr_assert_eq(r.status, 0, "exit %d: %s\n%s", r.status, r.err, r.out);
    cr_expect_str_eq(r.err, "");
    cr_expect_not_null(strstr(r.out, "submission: 45 of 45 points\n"), "stdout:\n%s", r.out);
    e2e_run_free(&r);
    char results[PATH_MAX + 16];
    snprintf(results, sizeof results, "%s/results", root);
    cJSON *j = e2e_read_json(results, "results.json");
    cr_expect_eq(number_at(j, "score"), 45);
    double seconds = number_at(j, "execution_time");
    cr_expect(seconds >= 0 && seconds < 60, "execution_time %g", seconds);
    cr_expect_str_eq(string_at(j, "stdout_visibility"), "hidden");
    const cJSON *tests = cJSON_GetObjectItem(j, "tests"), *t;
    cr_assert_eq(cJSON_GetArraySize(tests), CHECKS);
    int k = 0;
    cJSON_ArrayForEach(t, tests) {
        cr_expect_str_eq(string_at(t, "name"), names[k]);
        cr_expect_eq(number_at(t, "score"), points[k], "%s: score", names[k]);
        cr_expect_eq(number_at(t, "max_score"), points[k], "%s: max_score", names[k]);
        cr_expect_neq(string_at(t, "output")[0], '\0', "%s: no output", names[k]);
        cr_expect_str_eq(string_at(t, "visibility"), seen[k]);
        k++;
    }
    cJSON_Delete(j);
    struct e2e_run ls;
    e2e_run_tool(&ls, results, NULL, "ls", "-A", NULL);
    cr_expect_str_eq(ls.out, "results.json\n");
    e2e_run_free(&ls);
    e2e_rmdir(root);
}

/* A rubric the referee refuses: the student gets 0 and a line saying so,
 * the instructor the referee's message in the stdout Gradescope keeps. */
Test(e2e_gradescope, a_refused_rubric_gives_zero_and_says_why, .timeout = 60)
{
    char *root = autograder_root("tests/grade/visibility/rubric.json");
    char path[PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/source/rubric.json", root);
    FILE *f = fopen(path, "w");
    cr_assert(f && fputs("{\"game\": \"chess\", \"engine\": \"x\", \"checks\": []}", f) >= 0 &&
              fclose(f) == 0);
    struct e2e_run r;
    run_script(&r, root, "run_autograder");
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    char want[PATH_MAX + 64];
    snprintf(want, sizeof want, "%s:1:10: unknown game \"chess\"\n", path);
    cr_expect_str_eq(r.out, want);
    e2e_run_free(&r);
    snprintf(path, sizeof path, "%s/results", root);
    cJSON *j = e2e_read_json(path, "results.json");
    cr_expect_eq(number_at(j, "score"), 0);
    cr_expect_str_eq(string_at(j, "output"), "The autograder could not grade this submission "
                     "(referee exit status 2); your instructor sees why in its log.");
    cr_expect_eq(cJSON_GetArraySize(cJSON_GetObjectItem(j, "tests")), 0);
    cr_expect_str_eq(string_at(j, "stdout_visibility"), "hidden");
    cJSON_Delete(j);
    e2e_rmdir(root);
}

/* Both scripts parse as POSIX sh; setup.sh refuses a root without arena's
 * source before it installs anything. */
Test(e2e_gradescope, the_scripts_are_sh_and_setup_needs_the_source)
{
    static const char *const scripts[] = { "setup.sh", "run_autograder" };
    char *root = e2e_tmpdir();
    for (int i = 0; i < 2; i++) {
        char rel[64], path[PATH_MAX];
        snprintf(rel, sizeof rel, "docs/gradescope/%s", scripts[i]);
        e2e_repo_path(rel, path, sizeof path);
        cr_expect_eq(access(path, X_OK), 0, "%s is not executable", rel);
        struct e2e_run r;
        e2e_run_tool(&r, root, NULL, "sh", "-n", path, NULL);
        cr_expect_eq(r.status, 0, "sh -n %s: %s", rel, r.err);
        e2e_run_free(&r);
    }
    setenv("AUTOGRADER_ROOT", root, 1);
    struct e2e_run r;
    run_script(&r, root, "setup.sh");
    cr_expect_eq(r.status, 1, "exit %d", r.status);
    char want[PATH_MAX + 128];
    snprintf(want, sizeof want, "setup.sh: no arena source in %s/source/arena: put a copy of "
             "the repository there\n", root);
    cr_expect_str_eq(r.err, want);
    e2e_run_free(&r);
    e2e_rmdir(root);
}
