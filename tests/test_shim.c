/*
 * test_shim.c - version managers' shims resolved as the managers resolve
 * them (shim.h): pyenv's version files (a parent folder's, a prefix), the
 * environment's choice, rbenv's, asdf's .tool-versions and plugins,
 * "system" past the shims, and what is not a shim. Each case builds its
 * home in a fresh folder under /tmp.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "referee/run/shim.h"

static const char pyenv_shim[] =
    "#!/usr/bin/env bash\nset -e\nprogram=\"${0##*/}\"\nexport PYENV_ROOT=\"%s\"\n"
    "exec \"%s/libexec/pyenv\" exec \"$program\" \"$@\"\n";
static const char rbenv_shim[] =
    "#!/usr/bin/env bash\nset -e\nprogram=\"${0##*/}\"\nexport RBENV_ROOT=\"%s\"\n"
    "exec \"/usr/lib/rbenv/libexec/rbenv\" exec \"$program\" \"$@\"\n";
static const char asdf_shim[] =
    "#!/usr/bin/env bash\n# asdf-plugin: python 3.11.0\n# asdf-plugin: python 3.12.1\n"
    "exec %s/bin/asdf exec \"python3\" \"$@\"\n";

/* Writes top/rel (folders made on the way), mode 0755; text is a format
 * given arg twice (a root to name). */
static void put(const char *top, const char *rel, const char *text, const char *arg)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", top, rel);
    for (char *s = strchr(path + strlen(top) + 1, '/'); s; s = strchr(s + 1, '/')) {
        *s = '\0';
        mkdir(path, 0755);
        *s = '/';
    }
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f, "cannot write %s", path);
    fprintf(f, text, arg, arg);
    fclose(f);
    cr_assert_eq(chmod(path, 0755), 0);
}

static char *home(void)
{
    char *dir = strdup("/tmp/arena-shim-XXXXXX");
    cr_assert(dir && mkdtemp(dir), "mkdtemp");
    return dir;
}

static void rm(char *dir)
{
    char cmd[PATH_MAX + 16];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_expect_eq(system(cmd), 0);
    free(dir);
}

/* Resolves top/rel for a process in top/cwd with env; asserts found and,
 * when resolved, the interpreter top/want and version. */
static void expect(const char *top, const char *rel, const char *cwd, char *const *env,
                   enum shim_found found, const char *want, const char *version,
                   struct err *e)
{
    char program[PATH_MAX], dir[PATH_MAX], path[PATH_MAX];
    snprintf(program, sizeof program, "%s/%s", top, rel);
    snprintf(dir, sizeof dir, "%s/%s", top, cwd);
    struct shim s;
    memset(&s, 0, sizeof s);
    enum shim_found got = shim_resolve(program, dir, env, &s, e);
    cr_assert_eq(got, found, "%s from %s: found %d, not %d (%s)", rel, cwd, got, found,
                 got == SHIM_UNRESOLVED ? e->msg : s.interpreter);
    if (found != SHIM_RESOLVED)
        return;
    snprintf(path, sizeof path, "%s/%s", top, want);
    cr_expect_str_eq(s.interpreter, path, "%s from %s runs %s, not %s", rel, cwd,
                     s.interpreter, path);
    cr_expect_str_eq(s.version, version, "%s: version %s, not %s", rel, s.version, version);
}

Test(shim, pyenv_chooses_as_pyenv_does)
{
    char *top = home(), root[PATH_MAX], var[PATH_MAX + 8];
    snprintf(root, sizeof root, "%s/.pyenv", top);
    put(top, ".pyenv/shims/python3", pyenv_shim, root);
    put(top, ".pyenv/versions/3.12.1/bin/python3", "", "");
    put(top, ".pyenv/versions/3.11.7/bin/python3", "", "");
    put(top, ".pyenv/version", "3.11.7\n", "");
    put(top, "proj/.python-version", "# a comment\n\npython-3.12.1 \n", "");
    put(top, "proj/sub/engine.py", "", "");
    snprintf(var, sizeof var, "HOME=%s", top);
    char *env[] = { var, NULL };
    struct err e;
    /* The global version file, then a parent folder's, with its prefix. */
    expect(top, ".pyenv/shims/python3", ".", env, SHIM_RESOLVED,
           ".pyenv/versions/3.11.7/bin/python3", "3.11.7", &e);
    expect(top, ".pyenv/shims/python3", "proj/sub", env, SHIM_RESOLVED,
           ".pyenv/versions/3.12.1/bin/python3", "python-3.12.1", &e);
    /* The environment first: the first of its versions that has it. */
    char *chosen[] = { var, "PYENV_VERSION=3.13:3.12.1", NULL };
    expect(top, ".pyenv/shims/python3", ".", chosen, SHIM_RESOLVED,
           ".pyenv/versions/3.12.1/bin/python3", "3.12.1", &e);
    char *missing[] = { var, "PYENV_VERSION=3.99", NULL };
    expect(top, ".pyenv/shims/python3", ".", missing, SHIM_UNRESOLVED, NULL, NULL, &e);
    cr_expect(strstr(e.msg, "pyenv: version '3.99' ($PYENV_VERSION) is not installed ("),
              "%s", e.msg);
    rm(top);
}

Test(shim, system_is_the_first_in_path_past_the_shims)
{
    char *top = home(), root[PATH_MAX], path[3 * PATH_MAX];
    snprintf(root, sizeof root, "%s/.pyenv", top);
    put(top, ".pyenv/shims/python3", pyenv_shim, root);
    put(top, "bin/python3", "", "");
    snprintf(path, sizeof path, "PATH=%s/.pyenv/shims:%s/bin:/usr/bin", top, top);
    char *env[] = { path, "PYENV_VERSION=system", NULL };
    struct err e;
    expect(top, ".pyenv/shims/python3", ".", env, SHIM_RESOLVED, "bin/python3", "system", &e);
    rm(top);
}

Test(shim, rbenv_and_asdf_are_resolved_too)
{
    char *top = home(), root[PATH_MAX], var[PATH_MAX + 8], data[PATH_MAX + 16];
    snprintf(root, sizeof root, "%s/.rbenv", top);
    put(top, ".rbenv/shims/ruby", rbenv_shim, root);
    put(top, ".rbenv/versions/3.3.0/bin/ruby", "", "");
    put(top, "app/.ruby-version", "ruby-3.3.0\n", "");
    snprintf(root, sizeof root, "%s/.asdf", top);
    put(top, ".asdf/shims/python3", asdf_shim, root);
    put(top, ".asdf/installs/python/3.12.1/bin/python3", "", "");
    put(top, ".tool-versions", "nodejs 20.1.0\npython 3.13.0 3.12.1  # the second\n", "");
    snprintf(var, sizeof var, "HOME=%s", top);
    snprintf(data, sizeof data, "ASDF_DATA_DIR=%s", root);
    char *env[] = { var, data, NULL };
    struct err e;
    expect(top, ".rbenv/shims/ruby", "app", env, SHIM_RESOLVED,
           ".rbenv/versions/3.3.0/bin/ruby", "ruby-3.3.0", &e);
    expect(top, ".asdf/shims/python3", "app", env, SHIM_RESOLVED,
           ".asdf/installs/python/3.12.1/bin/python3", "3.12.1", &e);
    rm(top);
}

/* A program in a shims folder that hands nothing to a manager, and a
 * manager's text outside a shims folder, are programs like any other. */
Test(shim, only_a_managers_shim_is_one)
{
    char *top = home(), root[PATH_MAX];
    snprintf(root, sizeof root, "%s/.pyenv", top);
    put(top, "tools/shims/python3", "#!/bin/sh\nexec /usr/bin/python3 \"$@\"\n", "");
    put(top, "tools/bin/python3", pyenv_shim, root);
    char *env[] = { NULL };
    struct err e;
    expect(top, "tools/shims/python3", ".", env, SHIM_NONE, NULL, NULL, &e);
    expect(top, "tools/bin/python3", ".", env, SHIM_NONE, NULL, NULL, &e);
    rm(top);
}
