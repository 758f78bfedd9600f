/* e2e_util.c - spawning binaries for the end-to-end suite (e2e_util.h). */
#define _GNU_SOURCE
#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "arena/textfile.h"
#include "e2e_util.h"

#define E2E_MAX_ARGS 32
#define SIGNAL_STATUS_BASE 128
#define E2E_REL_MAX 256           /* a fixture's name under fixtures/ */
#define E2E_SCORE_LINE_MAX 256    /* "Score of A vs B: " for two engine names */

static char *absolute(const char *rel)
{
    char *p = realpath(rel, NULL);
    cr_assert_not_null(p, "no such path: %s (run the tests from the repository root)", rel);
    return p;
}

void e2e_run(struct e2e_run *r, const char *cwd, const char *stdin_text, const char *prog, ...)
{
    const char *args[E2E_MAX_ARGS + 1];
    int n = 0;
    va_list ap;
    va_start(ap, prog);
    const char *a;
    while ((a = va_arg(ap, const char *)) && n < E2E_MAX_ARGS)
        args[n++] = a;
    va_end(ap);
    args[n] = NULL;
    e2e_runv(r, cwd, stdin_text, prog, args);
}

void e2e_assert_clean_match(const char *a, const char *b, const char *name_a,
                            const char *name_b)
{
    char score[E2E_SCORE_LINE_MAX];
    snprintf(score, sizeof score, "Score of %s vs %s: ", name_a, name_b);
    char *dir = e2e_tmpdir();
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "referee", "match", "--game", "connect4", "--engine", a, "--engine", b,
            "--games", "2", "--depth", "2", "--random-plies", "2", NULL);
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    cr_assert_null(strstr(r.out, "forfeits"), "stdout:\n%s", r.out);
    cr_assert_not_null(strstr(r.out, score), "no '%s' on stdout:\n%s", score, r.out);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

void e2e_assert_transcript(const char *prog, const char *rel, const char *const *args)
{
    char path[E2E_REL_MAX];
    snprintf(path, sizeof path, "%s.in", rel);
    char *in_path = e2e_fixture(path);
    char *input = e2e_slurp(in_path, NULL);
    char *dir = e2e_tmpdir();
    struct e2e_run r;
    e2e_runv(&r, dir, input, prog, args);
    cr_assert_eq(r.status, 0, "%s: exit %d: %s", rel, r.status, r.err);
    cr_assert_eq(r.err_len, 0, "%s: stderr: %s", rel, r.err);
    snprintf(path, sizeof path, "%s.out", rel);
    e2e_assert_fixture(r.out, r.out_len, path);
    e2e_run_free(&r);
    free(input);
    free(in_path);
    e2e_rmdir(dir);
}

char *e2e_fixture(const char *rel)
{
    const char *root = getenv("ARENA_FIXTURES") ? getenv("ARENA_FIXTURES") : "fixtures";
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    return absolute(path);
}

char *e2e_slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    size_t got;
    while ((got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (cap - n < 2)
            buf = realloc(buf, cap *= 2);
    }
    fclose(f);
    buf[n] = '\0';
    if (len)
        *len = n;
    return buf;
}

int e2e_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

char *e2e_tmpdir(void)
{
    char tmpl[] = "/tmp/arena-e2e-XXXXXX";
    cr_assert_not_null(mkdtemp(tmpl), "mkdtemp failed");
    return strdup(tmpl);
}

void e2e_rmdir(char *dir)
{
    /* A hostile engine may have left folders, FIFOs and symlinks to files
     * outside: tf_remove_tree follows no link. */
    tf_remove_tree(dir);
    free(dir);
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f, "cannot write %s", path);
    fputs(text ? text : "", f);
    fclose(f);
}

/* Runs argv[0] (a path, or a name looked up in PATH) with argv in cwd, stdin
 * from stdin_text, into r; with vg_path, the run went through valgrind,
 * whose report there fails the test. */
static void spawn(struct e2e_run *r, const char *cwd, const char *stdin_text,
                  const char *const *argv, const char *io, const char *vg_path)
{
    char in_path[PATH_MAX], out_path[PATH_MAX], err_path[PATH_MAX];
    snprintf(in_path, sizeof in_path, "%s/stdin", io);
    snprintf(out_path, sizeof out_path, "%s/stdout", io);
    snprintf(err_path, sizeof err_path, "%s/stderr", io);
    write_file(in_path, stdin_text);

    fflush(NULL);
    pid_t pid = fork();
    cr_assert_neq(pid, -1, "fork failed");
    if (pid == 0) {
        int in = open(in_path, O_RDONLY);
        int out = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        int err = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (in < 0 || out < 0 || err < 0 || chdir(cwd) != 0)
            _exit(127);
        dup2(in, 0);
        dup2(out, 1);
        dup2(err, 2);
        execvp(argv[0], (char *const *)argv);
        _exit(127);
    }
    int st;
    waitpid(pid, &st, 0);
    r->status = WIFEXITED(st) ? WEXITSTATUS(st) : SIGNAL_STATUS_BASE + WTERMSIG(st);
    r->out = e2e_slurp(out_path, &r->out_len);
    r->err = e2e_slurp(err_path, &r->err_len);
    if (vg_path) {
        size_t vlen = 0;
        char *report = e2e_slurp(vg_path, &vlen);
        cr_assert(vlen == 0 && r->status != 99, "valgrind findings in %s:\n%s", argv[0],
                  report ? report : "(no report)");
        free(report);
        unlink(vg_path);
    }
    unlink(in_path);
    unlink(out_path);
    unlink(err_path);
}

void e2e_runv(struct e2e_run *r, const char *cwd, const char *stdin_text, const char *prog,
              const char *const *args)
{
    e2e_runv_via(r, cwd, stdin_text, NULL, prog, args);
}

void e2e_runv_via(struct e2e_run *r, const char *cwd, const char *stdin_text,
                  const char *const *prefix, const char *prog, const char *const *args)
{
    const char *bin_dir = getenv("ARENA_BIN") ? getenv("ARENA_BIN") : "bin";
    int valgrind = getenv("ARENA_VALGRIND") && strcmp(getenv("ARENA_VALGRIND"), "1") == 0;
    char bin_rel[PATH_MAX];
    snprintf(bin_rel, sizeof bin_rel, "%s/%s", bin_dir, prog);
    char *bin = absolute(bin_rel);

    char *io = e2e_tmpdir();
    /* A prefix may run it as another user, who writes valgrind's log here. */
    if (prefix)
        chmod(io, 0777);
    char vg_path[PATH_MAX];
    snprintf(vg_path, sizeof vg_path, "%s/valgrind", io);
    char vg_log[PATH_MAX + 16];
    snprintf(vg_log, sizeof vg_log, "--log-file=%s", vg_path);
    const char *argv[2 * E2E_MAX_ARGS + 8];
    int argc = 0;
    for (int i = 0; prefix && prefix[i] && argc < E2E_MAX_ARGS; i++)
        argv[argc++] = prefix[i];
    char *supp = valgrind ? absolute("tests/valgrind.supp") : NULL;
    char vg_supp[PATH_MAX + 16];
    if (valgrind)
        snprintf(vg_supp, sizeof vg_supp, "--suppressions=%s", supp);
    if (valgrind) {
        argv[argc++] = "valgrind";
        argv[argc++] = vg_supp;
        argv[argc++] = "-q";
        argv[argc++] = "--leak-check=full";
        argv[argc++] = "--show-leak-kinds=all";
        argv[argc++] = "--errors-for-leak-kinds=all";
        argv[argc++] = "--error-exitcode=99";
        argv[argc++] = vg_log;
    }
    argv[argc++] = bin;
    for (int i = 0; args[i] && argc < 2 * E2E_MAX_ARGS + 7; i++)
        argv[argc++] = args[i];
    argv[argc] = NULL;
    spawn(r, cwd, stdin_text, argv, io, valgrind ? vg_path : NULL);
    e2e_rmdir(io);
    free(supp);
    free(bin);
}

void e2e_run_tool(struct e2e_run *r, const char *cwd, const char *stdin_text, const char *tool,
                  ...)
{
    const char *argv[E2E_MAX_ARGS + 2] = { tool };
    int n = 1;
    va_list ap;
    va_start(ap, tool);
    const char *a;
    while ((a = va_arg(ap, const char *)) && n < E2E_MAX_ARGS + 1)
        argv[n++] = a;
    va_end(ap);
    argv[n] = NULL;
    char *io = e2e_tmpdir();
    spawn(r, cwd, stdin_text, argv, io, NULL);
    e2e_rmdir(io);
}

void e2e_run_free(struct e2e_run *r)
{
    free(r->out);
    free(r->err);
}

void e2e_assert_fixture(const char *actual, size_t len, const char *rel)
{
    char *path = e2e_fixture(rel);
    size_t elen;
    char *expected = e2e_slurp(path, &elen);
    cr_assert_not_null(expected, "missing fixture %s", rel);
    size_t i = 0;
    while (i < len && i < elen && actual[i] == expected[i])
        i++;
    cr_assert(i == len && i == elen,
              "output differs from %s at byte %zu (lengths %zu and %zu)\n--- got:\n%s\n--- "
              "expected:\n%s",
              rel, i, len, elen, actual, expected);
    free(expected);
    free(path);
}

void e2e_repo_path(const char *rel, char *buf, size_t cap)
{
    char *abs = realpath(rel, NULL);
    cr_assert_not_null(abs, "no %s", rel);
    snprintf(buf, cap, "%s", abs);
    free(abs);
}

static void bin_path_in(const char *env, const char *prog, char *buf, size_t cap)
{
    char rel[PATH_MAX];
    snprintf(rel, sizeof rel, "%s/%s", getenv(env) ? getenv(env) : "bin", prog);
    e2e_repo_path(rel, buf, cap);
}

void e2e_bin_path(const char *prog, char *buf, size_t cap)
{
    bin_path_in("ARENA_BIN", prog, buf, cap);
}

void e2e_limited_bin_path(const char *prog, char *buf, size_t cap)
{
    bin_path_in(getenv("ARENA_LIMITED_BIN") ? "ARENA_LIMITED_BIN" : "ARENA_BIN", prog, buf, cap);
}

int e2e_process_alive(const char *pattern)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "pgrep -f '%s' >/dev/null 2>&1", pattern);
    return system(cmd) == 0;
}

cJSON *e2e_read_json(const char *dir, const char *name)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    char *text = e2e_slurp(path, NULL);
    cr_assert_not_null(text, "no %s", path);
    cJSON *root = cJSON_Parse(text);
    free(text);
    cr_assert_not_null(root, "%s is not JSON", path);
    return root;
}
