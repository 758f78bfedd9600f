/*
 * test_gradepaths.c - what a graded submission's command may name
 * (gradepaths.h), by table: a path judged against the places of a grading
 * (the deepest decides; the same path seen and hidden is hidden), the
 * places a PATH gives, and the folders no mask may hide. What a grading
 * does with a command that names a classmate's file is tested end to end
 * (test_e2e_gradepaths.c); how a command's words are judged on a folder
 * tree (gpath_check_engine), here on a temporary one.
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
#include "referee/grade/gradepaths.h"
#include "arena/runner.h"
#include "arena/textfile.h"

/* A grading in /g: the class in /g/class, OUT in /g/out, the rubric in
 * /g/r with a --sandbox-ro folder inside it, and a second class kept under
 * /opt; the system's /usr and /opt, a pyenv in a home; /srv/both is both. */
#define OWN "/g/out/.work/alice/src"
static const char *const seen[] = { "/usr", "/opt", "/home/t/.pyenv", "/g/r/lib", "/srv/both" };
static const char *const hidden[] = { "/g/class", "/g/out", "/g/r", "/opt/class", "/srv/both" };

struct judged {
    const char *path;
    enum gpath_verdict verdict;
    const char *by;   /* the hidden place that decides; NULL: none */
};

static const struct judged judged[] = {
    { OWN, GPATH_SEEN, NULL },
    { OWN "/lib/util.py", GPATH_SEEN, NULL },
    { "/g/out/.work/alice", GPATH_HIDDEN, "/g/out" },        /* ../ */
    { "/g/out/.work/bob/src", GPATH_HIDDEN, "/g/out" },      /* a classmate's copy */
    { "/g/out", GPATH_HIDDEN, "/g/out" },                    /* the journal */
    { "/g/class/bob", GPATH_HIDDEN, "/g/class" },
    { "/g/r/solution", GPATH_HIDDEN, "/g/r" },
    { "/g/r/lib/helper", GPATH_SEEN, NULL },                 /* --sandbox-ro, deeper */
    { "/opt/class/bob", GPATH_HIDDEN, "/opt/class" },        /* deeper than /opt */
    { "/opt/tool/bin", GPATH_SEEN, NULL },
    { "/usr/bin", GPATH_SEEN, NULL },
    { "/home/t/.pyenv/versions/3.12/bin", GPATH_SEEN, NULL },
    { "/srv/both", GPATH_HIDDEN, "/srv/both" },              /* a tie: hidden */
    { "/home/t", GPATH_OUTSIDE, NULL },
    { "/g", GPATH_OUTSIDE, NULL },
    { "/usrlocal", GPATH_OUTSIDE, NULL },                    /* not inside /usr */
    { "/", GPATH_OUTSIDE, NULL },
};
#define JUDGED (sizeof judged / sizeof judged[0])

static void places(struct gpath_places *pl)
{
    struct err e;
    memset(pl, 0, sizeof *pl);
    for (size_t i = 0; i < sizeof seen / sizeof *seen; i++)
        cr_assert_eq(gpath_add(pl, 0, seen[i], "seen", &e), 0, "%s: %s", seen[i], e.msg);
    for (size_t i = 0; i < sizeof hidden / sizeof *hidden; i++)
        cr_assert_eq(gpath_add(pl, 1, hidden[i], "hidden", &e), 0, "%s: %s", hidden[i], e.msg);
}

/* Criterion runs each parameter in a fresh process: the row's index. */
ParameterizedTestParameters(gradepaths, the_deepest_place_decides)
{
    static int rows[JUDGED];
    for (size_t i = 0; i < JUDGED; i++)
        rows[i] = (int)i;
    return cr_make_param_array(int, rows, JUDGED);
}

ParameterizedTest(int *row, gradepaths, the_deepest_place_decides)
{
    static const char *const names[] = { "seen", "hidden", "outside" };
    const struct judged *j = &judged[*row];
    struct gpath_places pl;
    places(&pl);
    const struct gpath_place *by = NULL;
    enum gpath_verdict v = gpath_judge(&pl, OWN, j->path, &by);
    cr_expect_eq(v, j->verdict, "%s: %s, want %s", j->path, names[v], names[j->verdict]);
    if (j->by && v == GPATH_HIDDEN)
        cr_expect_str_eq(by->path, j->by, "%s: hidden by %s, want %s", j->path, by->path, j->by);
    gpath_free(&pl);
}

Test(gradepaths, a_place_is_added_once)
{
    struct gpath_places pl;
    struct err e;
    memset(&pl, 0, sizeof pl);
    cr_assert_eq(gpath_add(&pl, 1, "/g/class/", "the class", &e), 0);
    cr_assert_eq(gpath_add(&pl, 1, "/g/./class", "the class", &e), 0);
    cr_assert_eq(gpath_add(&pl, 0, "/g/class", "seen", &e), 0);
    cr_expect_eq(pl.nhidden, 1, "%d hidden places", pl.nhidden);
    cr_expect_eq(pl.nseen, 1, "%d seen places", pl.nseen);
    cr_expect_str_eq(pl.hidden[0].path, "/g/class");
    gpath_free(&pl);
}

struct collected {
    int n;
    char folder[16][64];
};

static int collect(void *ctx, const char *folder)
{
    struct collected *c = ctx;
    cr_assert_lt(c->n, 16);
    snprintf(c->folder[c->n++], sizeof c->folder[0], "%s", folder);
    return 0;
}

struct search_case {
    const char *search, *home;
    const char *want;   /* the folders, joined by ' ' */
};

static const struct search_case searches[] = {
    { "/usr/bin:/bin", "/home/t", "/usr/bin /usr /bin" },         /* "/" is no installation */
    { "/home/t/.pyenv/shims:/home/t/.pyenv/bin", "/home/t",
      "/home/t/.pyenv/shims /home/t/.pyenv /home/t/.pyenv/bin /home/t/.pyenv" },
    { "/home/t/bin", "/home/t", "/home/t/bin" },                  /* not $HOME itself */
    { "/home/t/bin", NULL, "/home/t/bin /home/t" },
    { ".::relative/bin:/opt/x/bin/", NULL, "/opt/x/bin /opt/x" }, /* the copy's own, skipped */
    { "/usr/local/sbin", NULL, "/usr/local/sbin" },
    { "", NULL, "" },
};
#define SEARCHES (sizeof searches / sizeof searches[0])

ParameterizedTestParameters(gradepaths, a_path_gives_its_folders_and_their_installations)
{
    static int rows[SEARCHES];
    for (size_t i = 0; i < SEARCHES; i++)
        rows[i] = (int)i;
    return cr_make_param_array(int, rows, SEARCHES);
}

ParameterizedTest(int *row, gradepaths, a_path_gives_its_folders_and_their_installations)
{
    const struct search_case *s = &searches[*row];
    struct collected c = { 0 };
    cr_assert_eq(gpath_search_places(s->search, s->home, collect, &c), 0);
    char got[1024] = "";
    for (int i = 0; i < c.n; i++)
        snprintf(got + strlen(got), sizeof got - strlen(got), "%s%s", i ? " " : "", c.folder[i]);
    cr_expect_str_eq(got, s->want, "PATH=%s HOME=%s: '%s', want '%s'", s->search,
                     s->home ? s->home : "(none)", got, s->want);
}

struct unhideable_case {
    const char *path, *system;   /* system NULL: it can be hidden */
};

static const struct unhideable_case unhideables[] = {
    { "/", "/" },
    { "/usr", "/usr" },
    { "/etc", "/etc" },
    { "/opt", "/opt" },
    { "/opt/class", NULL },
    { "/usr/share/class", NULL },
    { "/etc/course/rubric", NULL },
    { "/home", NULL },
    { "/home/t/class", NULL },
    { "/libexec", NULL },   /* not inside /lib */
};
#define UNHIDEABLES (sizeof unhideables / sizeof unhideables[0])

ParameterizedTestParameters(gradepaths, no_mask_may_hide_a_system_folder)
{
    static int rows[UNHIDEABLES];
    for (size_t i = 0; i < UNHIDEABLES; i++)
        rows[i] = (int)i;
    return cr_make_param_array(int, rows, UNHIDEABLES);
}

ParameterizedTest(int *row, gradepaths, no_mask_may_hide_a_system_folder)
{
    const struct unhideable_case *u = &unhideables[*row];
    const char *got = gpath_unhideable(u->path);
    if (!u->system)
        cr_expect_null(got, "%s: refused for %s", u->path, got);
    else
        cr_expect(got && strcmp(got, u->system) == 0, "%s: %s, want %s", u->path,
                  got ? got : "(hideable)", u->system);
}

/* ---- a command judged on a folder tree (gpath_check_engine) ------------- */

/* A grading in a temporary folder ROOT: the class in ROOT/class (bob's
 * engine.py there), OUT in ROOT/out with alice's copy in .work/alice
 * (engine.sh, and peek.py: a link to bob's engine), ROOT/elsewhere/x. */
struct tree {
    char root[PATH_MAX], own[PATH_MAX + 32];
    struct gpath_places pl;
};

static void make(const char *root, const char *name, int dir)
{
    char path[2 * PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", root, name);
    if (dir) {
        cr_assert_eq(mkdir(path, 0755), 0, "%s", path);
        return;
    }
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f, "%s", path);
    fputs("#!/bin/sh\n", f);
    fclose(f);
    chmod(path, 0755);
}

static void tree_open(struct tree *t)
{
    char tmp[] = "/tmp/test_gradepaths_XXXXXX";
    cr_assert_not_null(mkdtemp(tmp));
    cr_assert_not_null(realpath(tmp, t->root));
    const char *dirs[] = { "class", "class/bob", "out", "out/.work", "out/.work/alice",
                           "elsewhere" };
    for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++)
        make(t->root, dirs[i], 1);
    make(t->root, "class/bob/engine.py", 0);
    make(t->root, "out/.work/alice/engine.sh", 0);
    make(t->root, "elsewhere/x", 0);
    snprintf(t->own, sizeof t->own, "%s/out/.work/alice", t->root);
    char target[2 * PATH_MAX], link[2 * PATH_MAX];
    snprintf(target, sizeof target, "%s/class/bob/engine.py", t->root);
    snprintf(link, sizeof link, "%s/peek.py", t->own);
    cr_assert_eq(symlink(target, link), 0);
    struct err e;
    struct sbx_policy policy;
    memset(&policy, 0, sizeof policy);
    memset(&t->pl, 0, sizeof t->pl);
    char class[2 * PATH_MAX], out[2 * PATH_MAX];
    snprintf(class, sizeof class, "%s/class", t->root);
    snprintf(out, sizeof out, "%s/out", t->root);
    cr_assert_eq(gpath_add_system(&t->pl, &policy, &e), 0, "%s", e.msg);
    cr_assert_eq(gpath_add(&t->pl, 1, class, "the class's folder", &e), 0, "%s", e.msg);
    cr_assert_eq(gpath_add(&t->pl, 1, out, "OUT", &e), 0, "%s", e.msg);
}

/* gpath_check_engine on ENGINE text cmd ("ROOT" stands for the root) run
 * in alice's copy; why into why. */
static int check(const struct tree *t, const char *cmd, char *why, size_t cap)
{
    char text[4 * PATH_MAX], words[2 * PATH_MAX], *rest;
    const char *from = cmd;
    words[0] = '\0';
    while ((rest = strstr(from, "ROOT"))) {   /* ROOT replaced */
        strncat(words, from, (size_t)(rest - from));
        strcat(words, t->root);
        from = rest + 4;
    }
    strcat(words, from);
    snprintf(text, sizeof text, "cmd=%s,dir=%s", words, t->own);
    struct spec eng;
    struct err e;
    cr_assert_eq(spec_parse(text, &eng, &e), 0, "%s: %s", text, e.msg);
    char *written[RUN_MAX_ARGS];
    cr_assert_geq(spec_split(words, written, RUN_MAX_ARGS, &e), 0, "%s", e.msg);
    why[0] = '\0';
    int rc = gpath_check_engine(&eng, written, t->own, &t->pl, "ENGINE", why, cap);
    spec_split_free(written);
    spec_free(&eng);
    return rc;
}

struct engine_case {
    char cmd[64];
    char why[200];   /* "": allowed; ROOT stands for the root */
};

ParameterizedTestParameters(gradepaths, a_command_may_name_its_own_files_and_the_systems_only)
{
    static struct engine_case cases[] = {
        { "sh engine.sh {in} {out}", "" },
        { "./engine.sh", "" },
        { "sh engine.sh /tmp/scratch", "" },   /* /tmp is the sandbox's own */
        { "sh engine.sh ../bob/x", "ENGINE word 3 '../bob/x' reaches ROOT/out/.work/bob, "
          "inside OUT, which no submission may see" },
        { "sh engine.sh ROOT/class/bob/engine.py", "ENGINE word 3 'ROOT/class/bob/engine.py' "
          "reaches ROOT/class/bob, inside the class's folder, which no submission may see" },
        { "sh peek.py", "ENGINE word 2 'peek.py' reaches ROOT/class/bob, inside the class's "
          "folder, which no submission may see" },   /* where the link leads */
        { "sh engine.sh ROOT/elsewhere/x", "ENGINE word 3 'ROOT/elsewhere/x' reaches "
          "ROOT/elsewhere, outside the submission's files and the system's programs" },
        { "ROOT/class/bob/engine.py", "ENGINE's program ROOT/class/bob/engine.py reaches "
          "ROOT/class/bob, inside the class's folder, which no submission may see" },
    };
    return cr_make_param_array(struct engine_case, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct engine_case *c, gradepaths,
                  a_command_may_name_its_own_files_and_the_systems_only)
{
    struct tree t;
    tree_open(&t);
    char why[1024], want[1024] = "";
    const char *from = c->why;
    for (const char *at; (at = strstr(from, "ROOT")); from = at + 4) {
        strncat(want, from, (size_t)(at - from));
        strcat(want, t.root);
    }
    strcat(want, from);
    int rc = check(&t, c->cmd, why, sizeof why);
    cr_expect_eq(rc, want[0] ? 1 : 0, "'%s': %d (%s)", c->cmd, rc, why);
    cr_expect_str_eq(why, want, "'%s'", c->cmd);
    gpath_free(&t.pl);
    tf_remove_tree(t.root);
}
