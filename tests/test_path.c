/*
 * test_path.c - program lookup and paths (path.h): the lexical form, the
 * PATH search and its one default, shebang lines, and what an interpreter
 * found in a home folder (a pyenv-like shim, a conda-like prefix) reads.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "arena/path.h"
#include "arena/textfile.h"

struct lexical_case {
    char path[32], base[16], want[32];
};

ParameterizedTestParameters(path, lexical_form_removes_dots_and_slashes)
{
    static struct lexical_case cases[] = {
        { "a/./b/../c//", "/w", "/w/a/c" },
        { "/x/y/..", "/w", "/x" },
        { "..", "/", "/" },
        { "../../..", "/a/b", "/" },
        { "/", "/w", "/" },
        { "./", "/w/v", "/w/v" },
        { "a//b/", "/", "/a/b" },
    };
    return cr_make_param_array(struct lexical_case, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct lexical_case *c, path, lexical_form_removes_dots_and_slashes)
{
    char out[PATH_MAX];
    cr_assert_eq(path_lexical(c->path, c->base, out, sizeof out), 0, "%s", c->path);
    cr_assert_str_eq(out, c->want, "'%s' against '%s'", c->path, c->base);
}

Test(path, a_path_that_does_not_fit_is_refused_not_cut)
{
    char out[8];
    cr_assert_eq(path_lexical("/abc/def", "/", out, sizeof out), -1);
    cr_assert_eq(path_lexical("/abc/de", "/", out, sizeof out), 0);
    cr_assert_str_eq(out, "/abc/de");
}

Test(path, inside_and_system_and_folder)
{
    cr_assert(path_is_inside("/a/b", "/a"));
    cr_assert(path_is_inside("/a", "/a"));
    cr_assert(!path_is_inside("/ab", "/a"));
    cr_assert(path_is_inside("/anything", "/"));
    cr_assert(path_is_system("/usr/lib/python3"));
    cr_assert(path_is_system("/etc"));
    cr_assert(!path_is_system("/home/u/.pyenv"));
    cr_assert(!path_is_system("/usrx"));
    char p[] = "/a/b", q[] = "/a";
    path_cut_to_folder(p);
    path_cut_to_folder(q);
    cr_assert_str_eq(p, "/a");
    cr_assert_str_eq(q, "/");
}

/* A private folder; files made under it. */
struct tree {
    char root[PATH_MAX / 2];
};

static void tree_make(struct tree *t)
{
    char tmpl[] = "/tmp/arena-path-test-XXXXXX";
    cr_assert_not_null(mkdtemp(tmpl));
    cr_assert_not_null(realpath(tmpl, t->root));
}

/* root/rel: a folder when rel ends in '/', else a file holding text. */
static void tree_add(const struct tree *t, const char *rel, const char *text, mode_t mode,
                     char *path, size_t cap)
{
    snprintf(path, cap, "%s/%s", t->root, rel);
    size_t n = strlen(path);
    if (path[n - 1] == '/') {
        path[n - 1] = '\0';
        cr_assert_eq(mkdir(path, 0755), 0, "mkdir %s", path);
        return;
    }
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f, "cannot write %s", path);
    fputs(text, f);
    fclose(f);
    chmod(path, mode);
}

/* The search list: PATH, or the default when it is unset or empty (an
 * empty PATH used to find nothing). */
Test(path, an_unset_or_empty_path_searches_the_default)
{
    char out[PATH_MAX];
    const char *saved = getenv("PATH");
    char *copy = saved ? strdup(saved) : NULL;
    setenv("PATH", "", 1);
    cr_expect_str_eq(path_search(), PATH_DEFAULT_SEARCH);
    cr_expect_eq(path_find_program("sh", "/", out, sizeof out), 0, "sh with PATH empty");
    unsetenv("PATH");
    cr_expect_str_eq(path_search(), PATH_DEFAULT_SEARCH);
    cr_expect_eq(path_find_program("sh", "/", out, sizeof out), 0, "sh with PATH unset");
    cr_expect_str_eq(out, "/bin/sh");
    if (copy)
        setenv("PATH", copy, 1);
    free(copy);
}

/* The first executable file of the name in PATH order; an entry that is
 * empty or relative is against the working directory; a word with '/' is
 * against it too and is not searched. */
Test(path, programs_are_found_as_execvp_finds_them)
{
    struct tree t;
    tree_make(&t);
    char a[PATH_MAX / 2], b[PATH_MAX / 2], f[PATH_MAX], out[PATH_MAX], list[3 * PATH_MAX];
    tree_add(&t, "a/", "", 0, a, sizeof a);
    tree_add(&t, "b/", "", 0, b, sizeof b);
    tree_add(&t, "a/eng", "", 0644, f, sizeof f);     /* not executable: skipped */
    tree_add(&t, "b/eng", "", 0755, f, sizeof f);
    tree_add(&t, "b/local", "", 0755, f, sizeof f);
    const char *saved = getenv("PATH");
    char *copy = saved ? strdup(saved) : NULL;
    snprintf(list, sizeof list, "%s:%s:", a, b);
    setenv("PATH", list, 1);
    cr_expect_eq(path_find_program("eng", "/", out, sizeof out), 0);
    snprintf(f, sizeof f, "%s/eng", b);
    cr_expect_str_eq(out, f);
    /* The trailing empty entry: the working directory. */
    cr_expect_eq(path_find_program("local", b, out, sizeof out), 0);
    snprintf(f, sizeof f, "%s/local", b);
    cr_expect_str_eq(out, f);
    cr_expect_eq(path_find_program("missing", b, out, sizeof out), -1);
    cr_expect_eq(path_find_program("./eng", a, out, sizeof out), 0, "a file, executable or not");
    snprintf(f, sizeof f, "%s/eng", a);
    cr_expect_str_eq(out, f);
    cr_expect_eq(path_find_program("./nothing", a, out, sizeof out), -1);
    if (copy)
        setenv("PATH", copy, 1);
    free(copy);
    tf_remove_tree(t.root);
}

struct shebang_case {
    char first_line[48];
    int rc;
    char want[24];
};

ParameterizedTestParameters(path, shebang_lines_name_the_interpreter)
{
    static struct shebang_case cases[] = {
        { "#!/bin/sh\n", 1, "/bin/sh" },
        { "#! /bin/sh -e\n", 1, "/bin/sh" },
        { "#!/usr/bin/env sh\n", 1, "/bin/sh" },
        { "#!/usr/bin/env -S sh -e\n", 1, "/bin/sh" },
        { "#!/usr/bin/env no-such-interpreter\n", 0, "" },
        { "#!relative\n", 0, "" },
        { "print('no shebang')\n", 0, "" },
        { "#", 0, "" },
    };
    return cr_make_param_array(struct shebang_case, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct shebang_case *c, path, shebang_lines_name_the_interpreter)
{
    struct tree t;
    tree_make(&t);
    char file[PATH_MAX], out[PATH_MAX] = "";
    tree_add(&t, "script", c->first_line, 0755, file, sizeof file);
    const char *saved = getenv("PATH");
    char *copy = saved ? strdup(saved) : NULL;
    setenv("PATH", "/bin:/usr/bin", 1);
    int rc = path_shebang(file, out, sizeof out);
    if (copy)
        setenv("PATH", copy, 1);
    free(copy);
    cr_assert_eq(rc, c->rc, "'%s': %d", c->first_line, rc);
    if (rc == 1)
        cr_assert_str_eq(out, c->want, "'%s'", c->first_line);
    tf_remove_tree(t.root);
    cr_assert_eq(path_shebang("/nonexistent/file", out, sizeof out), -1);
}

/* What path_runtime reports, in order. */
struct found {
    int n;
    char path[8][PATH_MAX];
};

static int collect(void *ctx, const char *path)
{
    struct found *f = ctx;
    cr_assert_lt(f->n, 8, "too many paths");
    snprintf(f->path[f->n++], PATH_MAX, "%s", path);
    return 0;
}

/* A pyenv-like home: a shim whose script runs a helper in libexec, which
 * runs versions/3.12/bin/python3 (a symlink to the system's python): the
 * shim's installation (the folder above shims/), the helper's folder and
 * the version's installation are what it reads; a conda-like python found
 * directly gives its prefix; a system program gives nothing. */
Test(path, an_interpreter_in_a_home_folder_reads_its_installation)
{
    struct tree t;
    tree_make(&t);
    char root[PATH_MAX], shim[PATH_MAX], helper[PATH_MAX], py[PATH_MAX], text[2 * PATH_MAX];
    char conda[PATH_MAX], libexec[PATH_MAX], version[PATH_MAX];
    tree_add(&t, ".fakepy/", "", 0, root, sizeof root);
    tree_add(&t, ".fakepy/shims/", "", 0, shim, sizeof shim);
    tree_add(&t, ".fakepy/libexec/", "", 0, libexec, sizeof libexec);
    tree_add(&t, ".fakepy/versions/", "", 0, version, sizeof version);
    tree_add(&t, ".fakepy/versions/3.12/", "", 0, version, sizeof version);
    tree_add(&t, ".fakepy/versions/3.12/bin/", "", 0, py, sizeof py);
    snprintf(py + strlen(py), sizeof py - strlen(py), "/python3");
    cr_assert_eq(symlink("/usr/bin/python3", py), 0);
    snprintf(text, sizeof text, "#!%s\n", py);
    tree_add(&t, ".fakepy/libexec/fakepy", text, 0755, helper, sizeof helper);
    snprintf(text, sizeof text, "#!%s\n", helper);
    tree_add(&t, ".fakepy/shims/python3", text, 0755, shim, sizeof shim);
    struct found f = { 0 };
    cr_assert_eq(path_runtime(shim, collect, &f), 0);
    cr_assert_eq(f.n, 4, "%d paths: %s %s %s", f.n, f.path[0], f.path[1], f.path[2]);
    cr_expect_str_eq(f.path[0], root, "the shim's installation");
    cr_expect_str_eq(f.path[1], libexec, "the helper's folder");
    snprintf(text, sizeof text, "%s/bin", version);
    cr_expect_str_eq(f.path[2], text, "the interpreter's folder");
    cr_expect_str_eq(f.path[3], version, "the interpreter's installation");

    tree_add(&t, "conda/", "", 0, conda, sizeof conda);
    tree_add(&t, "conda/bin/", "", 0, py, sizeof py);
    tree_add(&t, "conda/bin/python3.12", "", 0755, py, sizeof py);
    f.n = 0;
    cr_assert_eq(path_runtime(py, collect, &f), 0);
    cr_assert_eq(f.n, 1, "%d paths", f.n);
    cr_expect_str_eq(f.path[0], conda);

    f.n = 0;
    cr_assert_eq(path_runtime("/bin/sh", collect, &f), 0);
    cr_expect_eq(f.n, 0, "a system program reads nothing more: %s", f.path[0]);
    tf_remove_tree(t.root);
}

/* The home folder itself is never an installation: ~/bin/python would
 * otherwise show the whole home to the engine. */
Test(path, the_home_folder_is_never_an_installation)
{
    struct tree t;
    tree_make(&t);
    char bin[PATH_MAX], py[PATH_MAX];
    tree_add(&t, "bin/", "", 0, bin, sizeof bin);
    tree_add(&t, "bin/python3", "", 0755, py, sizeof py);
    const char *saved = getenv("HOME");
    char *copy = saved ? strdup(saved) : NULL;
    setenv("HOME", t.root, 1);
    struct found f = { 0 };
    cr_assert_eq(path_runtime(py, collect, &f), 0);
    if (copy)
        setenv("HOME", copy, 1);
    free(copy);
    cr_expect_eq(f.n, 0, "%d paths: %s", f.n, f.path[0]);
    tf_remove_tree(t.root);
}
