/*
 * test_gradepaths.c - what a graded submission's command may name
 * (gradepaths.h), by table: a path judged against the places of a grading
 * (the deepest decides; the same path seen and hidden is hidden), the
 * places a PATH gives, and the folders no mask may hide. What a grading
 * does with a command that names a classmate's file is tested end to end
 * (test_e2e_gradepaths.c).
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdio.h>
#include <string.h>
#include "referee/grade/gradepaths.h"

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
