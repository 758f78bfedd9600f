/*
 * test_e2e_shim.c - a version manager's shim in an engine's command
 * (shim.h) under a temporary HOME: a pyenv-like layout whose shim hands its
 * name to a libexec/pyenv script that picks the version and executes
 * versions/V/bin/python3 (a link to /usr/bin/python3). The referee resolves
 * it once before play, runs the interpreter and names both in the header;
 * a version that is not installed is left to the shim, with a warning
 * saying why and what the shim costs a move. The CPU saved per move is in
 * docs/referee.md, not asserted: it is a figure of the machine.
 */
#include <criterion/criterion.h>
#include <cjson/cJSON.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "e2e_util.h"

/* A pyenv-like home under dir: .pyenv/shims/python3, .pyenv/libexec/pyenv,
 * .pyenv/versions/3.0-test/bin/python3 and .pyenv/version naming it; HOME
 * and PATH (the shims first, as pyenv's init puts them) point there. root
 * gets the .pyenv folder. */
static void fake_pyenv(const char *dir, char *root, size_t cap)
{
    char home[PATH_MAX], path[PATH_MAX + 64], search[PATH_MAX + 32];
    /* Open to others: as root, the sandbox runs engines as nobody. */
    cr_assert_eq(chmod(dir, 0755), 0, "chmod %s", dir);
    snprintf(home, sizeof home, "%s/home", dir);
    cr_assert_lt((size_t)snprintf(root, cap, "%s/.pyenv", home), cap, "a long folder");
    const char *const folders[] = { "", "/.pyenv", "/.pyenv/shims", "/.pyenv/libexec",
                                    "/.pyenv/versions", "/.pyenv/versions/3.0-test",
                                    "/.pyenv/versions/3.0-test/bin" };
    for (size_t i = 0; i < sizeof folders / sizeof *folders; i++) {
        snprintf(path, sizeof path, "%s%s", home, folders[i]);
        cr_assert_eq(mkdir(path, 0755), 0, "mkdir %s", path);
    }
    /* pyenv's own shim, word for word but for its root. */
    char text[4 * PATH_MAX];
    snprintf(text, sizeof text,
             "#!/usr/bin/env bash\nset -e\n[ -n \"$PYENV_DEBUG\" ] && set -x\n\n"
             "program=\"${0##*/}\"\n\nexport PYENV_ROOT=\"%s\"\n"
             "exec \"%s/libexec/pyenv\" exec \"$program\" \"$@\"\n",
             root, root);
    const struct { const char *rel, *text; } files[] = {
        { "shims/python3", text },
        /* pyenv exec's steps, in short: the version from PYENV_VERSION,
         * the working folder's .python-version or the root's version file,
         * then the interpreter of that version. */
        { "libexec/pyenv", "#!/usr/bin/env bash\nset -e\nshift\nprogram=\"$1\"; shift\n"
                           "version=\"$PYENV_VERSION\"\n"
                           "[ -z \"$version\" ] && [ -f .python-version ] && "
                           "version=\"$(cat .python-version)\"\n"
                           "[ -z \"$version\" ] && version=\"$(cat \"$PYENV_ROOT/version\")\"\n"
                           "exec \"$PYENV_ROOT/versions/$version/bin/$program\" \"$@\"\n" },
        { "version", "3.0-test\n" },
    };
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        snprintf(path, sizeof path, "%s/%s", root, files[i].rel);
        FILE *f = fopen(path, "w");
        cr_assert_not_null(f, "cannot write %s", path);
        fputs(files[i].text, f);
        fclose(f);
        cr_assert_eq(chmod(path, strcmp(files[i].rel, "version") ? 0755 : 0644), 0);
    }
    snprintf(path, sizeof path, "%s/versions/3.0-test/bin/python3", root);
    cr_assert_eq(symlink("/usr/bin/python3", path), 0, "symlink %s", path);
    snprintf(search, sizeof search, "%s/shims:/usr/bin:/bin", root);
    setenv("HOME", home, 1);
    setenv("PATH", search, 1);
    unsetenv("PYENV_VERSION");
}

/* A two-game Nim match of two `python3 nim_first.py` engines in dir, its
 * log (log.json) parsed; r keeps the run, whose exit status is status. */
static cJSON *shim_match(const char *dir, int status, struct e2e_run *r)
{
    e2e_copy_repo("tests/engines/nim_first.py", dir, "nim_first.py");
    e2e_run(r, dir, NULL, "referee", "match", "--game", "nim", "--engine",
            "name=a,cmd=python3 nim_first.py", "--engine", "name=b,cmd=python3 nim_first.py",
            "--games", "2", "--timeout-ms", "30000", "--log", "log.json", NULL);
    cr_assert_eq(r->status, status, "match exit %d: %s%s", r->status, r->out, r->err);
    return e2e_read_json(dir, "log.json");
}

static const cJSON *engine_of(const cJSON *log, int i)
{
    const cJSON *e = cJSON_GetArrayItem(cJSON_GetObjectItem(log, "engines"), i);
    cr_assert_not_null(e, "no engine %d in the log's header", i + 1);
    return e;
}

/* Resolved: the header's cmd starts with the version's python3, as pyenv
 * names it (the link, not /usr/bin), and "shim" is the shim; nothing warns;
 * the games are played by the interpreter (no forfeit). */
Test(e2e_shim, a_pyenv_shim_is_resolved_once_and_named_in_the_header, .timeout = 120)
{
    char *dir = e2e_tmpdir(), root[PATH_MAX], want[PATH_MAX + 64], shim[PATH_MAX + 64];
    fake_pyenv(dir, root, sizeof root);
    snprintf(want, sizeof want, "%s/versions/3.0-test/bin/python3", root);
    snprintf(shim, sizeof shim, "%s/shims/python3", root);
    struct e2e_run r;
    /* The engines' sandbox does not pass PYENV_VERSION: the shim would
     * not see it, and nor does its resolution. */
    setenv("PYENV_VERSION", "3.99", 1);
    cJSON *log = shim_match(dir, 0, &r);
    for (int i = 0; i < 2; i++) {
        const cJSON *e = engine_of(log, i);
        const cJSON *cmd0 = cJSON_GetArrayItem(cJSON_GetObjectItem(e, "cmd"), 0);
        const cJSON *s = cJSON_GetObjectItem(e, "shim");
        cr_expect(cJSON_IsString(cmd0) && strcmp(cmd0->valuestring, want) == 0,
                  "engine %d runs %s, not %s", i + 1,
                  cJSON_IsString(cmd0) ? cmd0->valuestring : "(none)", want);
        cr_expect(cJSON_IsString(s) && strcmp(s->valuestring, shim) == 0,
                  "engine %d's header names the shim %s, not %s", i + 1,
                  cJSON_IsString(s) ? s->valuestring : "(none)", shim);
    }
    cr_expect_null(strstr(r.err, "shim"), "a warning about the shim:\n%s", r.err);
    cr_expect_null(strstr(r.out, "forfeits"), "a forfeit:\n%s", r.out);
    cJSON_Delete(log);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

/* Not resolved (the engine's folder asks for a version that is not
 * installed): the shim runs as written (and fails, every game a forfeit:
 * exit status 3), the header has no "shim", and the referee says why and
 * what the shim costs a move before the first game. */
Test(e2e_shim, a_shim_that_cannot_be_resolved_is_run_with_a_warning_of_its_cost,
     .timeout = 120)
{
    char *dir = e2e_tmpdir(), root[PATH_MAX], want[4 * PATH_MAX], file[PATH_MAX + 32];
    fake_pyenv(dir, root, sizeof root);
    snprintf(file, sizeof file, "%s/.python-version", dir);
    FILE *f = fopen(file, "w");
    cr_assert_not_null(f, "cannot write %s", file);
    fputs("3.99\n", f);
    fclose(f);
    struct e2e_run r;
    cJSON *log = shim_match(dir, 3, &r);
    const cJSON *e = engine_of(log, 0);
    const cJSON *cmd0 = cJSON_GetArrayItem(cJSON_GetObjectItem(e, "cmd"), 0);
    cr_expect(cJSON_IsString(cmd0) && strcmp(cmd0->valuestring, "python3") == 0,
              "the engine's cmd starts with %s, not python3",
              cJSON_IsString(cmd0) ? cmd0->valuestring : "(none)");
    cr_expect_null(cJSON_GetObjectItem(e, "shim"), "a \"shim\" in the header");
    snprintf(want, sizeof want,
             "referee: warning: engine 'a': %s/shims/python3 is a version manager's shim that "
             "cannot be resolved to its interpreter (pyenv: version '3.99' (%s) is not "
             "installed (%s/versions/3.99)); it runs on every move, billed to the engine: ",
             root, file, root);
    cr_expect(strstr(r.err, want) != NULL, "no warning\n%s\nin:\n%s", want, r.err);
    cr_expect(strstr(r.err, " ms of CPU for '") != NULL, "no cost measured in:\n%s", r.err);
    cJSON_Delete(log);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}
