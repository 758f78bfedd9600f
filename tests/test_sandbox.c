/*
 * test_sandbox.c - what an engine's view is made of (sandbox.h): its own
 * paths, and the plan of mounts built from them, the policy and the host's
 * file system. Mounting the plan needs namespaces: test_e2e_sandbox.c; a
 * sandbox copied into a forked process is opened here where they can be had.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <cjson/cJSON.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "referee/journal/header.h"
#include "arena/path.h"
#include "arena/sandbox.h"
#include "arena/textfile.h"

/* A private folder with a few files, its path (realpath'd) in root. */
struct tree {
    char root[PATH_MAX / 2];   /* room for the names added under it */
};

static void tree_make(struct tree *t)
{
    char tmpl[] = "/tmp/arena-sbx-test-XXXXXX", real[PATH_MAX];
    cr_assert_not_null(mkdtemp(tmpl));
    cr_assert_not_null(realpath(tmpl, real));
    cr_assert_lt(strlen(real), sizeof t->root);
    strcpy(t->root, real);
}

/* Creates root/rel: a folder when rel ends in '/', else a file of mode. */
static void tree_add(const struct tree *t, const char *rel, mode_t mode, char *path, size_t cap)
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
    fclose(f);
    chmod(path, mode);
}

static const struct sbx_entry *entry_at(const struct sbx_plan *pl, const char *path)
{
    for (int i = 0; i < pl->n; i++)
        if (strcmp(pl->entry[i].path, path) == 0)
            return &pl->entry[i];
    return NULL;
}

static int has_path(const struct sbx_paths *p, const char *path)
{
    for (int i = 0; i < p->n; i++)
        if (strcmp(p->path[i], path) == 0)
            return 1;
    return 0;
}

Test(sandbox, paths_are_absolute_normalised_and_kept_once)
{
    struct sbx_paths p = { 0 };
    struct err e;
    char cwd[PATH_MAX], want[PATH_MAX + 8];
    cr_assert_not_null(getcwd(cwd, sizeof cwd));
    cr_assert_eq(sbx_paths_add(&p, "a/./b/../c//", &e), 0);
    cr_assert_eq(sbx_paths_add(&p, "/x/y/..", &e), 0);
    cr_assert_eq(sbx_paths_add(&p, "/x", &e), 0);
    snprintf(want, sizeof want, "%s/a/c", strcmp(cwd, "/") ? cwd : "");
    cr_assert_eq(p.n, 2, "%d paths", p.n);
    cr_assert_str_eq(p.path[0], want);
    cr_assert_str_eq(p.path[1], "/x");
    sbx_paths_free(&p);
}

Test(sandbox, own_paths_are_the_program_and_argument_folders)
{
    struct tree t;
    tree_make(&t);
    char prog[PATH_MAX], script[PATH_MAX], data[PATH_MAX], lib[PATH_MAX];
    tree_add(&t, "bin/", 0, prog, sizeof prog);
    tree_add(&t, "bin/eng", 0755, prog, sizeof prog);
    tree_add(&t, "src/", 0, script, sizeof script);
    tree_add(&t, "src/a.py", 0644, script, sizeof script);
    tree_add(&t, "data/", 0, data, sizeof data);
    tree_add(&t, "lib/", 0, lib, sizeof lib);
    char bin_dir[PATH_MAX + 8], src_dir[PATH_MAX + 8];
    snprintf(bin_dir, sizeof bin_dir, "%s/bin", t.root);
    snprintf(src_dir, sizeof src_dir, "%s/src", t.root);
    setenv("PATH", bin_dir, 1);
    /* eng from PATH; a.py relative to the working directory; data a
     * folder; a word with a placeholder and one naming nothing skipped;
     * /usr/bin (the system) never listed. */
    char *argv[] = { "eng", "src/a.py", data, "{in}", "no-such-file", "/usr/bin/env", NULL };
    struct sbx_paths own = { 0 };
    struct err e;
    char found[PATH_MAX];
    cr_assert_eq(path_find_program("eng", t.root, found, sizeof found), 0);
    cr_assert_eq(sbx_own_paths(found, NULL, 0, argv, t.root, &own, &e), 0, "%s", e.msg);
    cr_assert_eq(own.n, 3, "%d paths: %s %s %s %s", own.n, own.n > 0 ? own.path[0] : "",
                 own.n > 1 ? own.path[1] : "", own.n > 2 ? own.path[2] : "",
                 own.n > 3 ? own.path[3] : "");
    cr_assert_str_eq(own.path[0], bin_dir);
    cr_assert_str_eq(own.path[1], src_dir);
    cr_assert_str_eq(own.path[2], data);
    sbx_paths_free(&own);
    tf_remove_tree(t.root);
}

Test(sandbox, a_program_through_a_symlink_shows_both_folders)
{
    struct tree t;
    tree_make(&t);
    char real[PATH_MAX], link_dir[PATH_MAX], link[PATH_MAX + 8];
    tree_add(&t, "real/", 0, real, sizeof real);
    tree_add(&t, "real/eng", 0755, real, sizeof real);
    tree_add(&t, "links/", 0, link_dir, sizeof link_dir);
    snprintf(link, sizeof link, "%s/eng", link_dir);
    cr_assert_eq(symlink(real, link), 0);
    char *argv[] = { link, NULL };
    struct sbx_paths own = { 0 };
    struct err e;
    cr_assert_eq(sbx_own_paths(link, NULL, 0, argv, t.root, &own, &e), 0);
    char real_dir[PATH_MAX + 8];
    snprintf(real_dir, sizeof real_dir, "%s/real", t.root);
    cr_assert(own.n == 2 && has_path(&own, link_dir) && has_path(&own, real_dir),
              "%d paths: %s, %s", own.n, own.path[0], own.n > 1 ? own.path[1] : "");
    sbx_paths_free(&own);
    tf_remove_tree(t.root);
}

/* A view: a working directory with a journal, another engine's folder and
 * an inner folder of its own; the move folder beside in TMPDIR=/tmp. */
struct scene {
    struct tree t;
    char work[PATH_MAX], journal[PATH_MAX], other[PATH_MAX], inner[PATH_MAX], move[PATH_MAX];
    struct sbx_paths own;
    struct sbx_policy policy;
    struct sbx_view view;
    struct sbx_plan plan;
};

static void scene_plan(struct scene *s)
{
    struct err e;
    s->view = (struct sbx_view){ s->work, s->move, &s->own, &s->policy };
    cr_assert_eq(sbx_plan_build(&s->view, &s->plan, &e), 0, "%s", e.msg);
}

static void scene_make(struct scene *s)
{
    memset(s, 0, sizeof *s);
    tree_make(&s->t);
    tree_add(&s->t, "work/", 0, s->work, sizeof s->work);
    tree_add(&s->t, "work/j.jsonl", 0644, s->journal, sizeof s->journal);
    tree_add(&s->t, "work/bob/", 0, s->other, sizeof s->other);
    tree_add(&s->t, "work/lib/", 0, s->inner, sizeof s->inner);
    char tmpl[] = "/tmp/arena-game-XXXXXX";
    cr_assert_not_null(mkdtemp(tmpl));
    cr_assert_not_null(realpath(tmpl, s->move));
    struct err e;
    cr_assert_eq(sbx_paths_add(&s->own, s->inner, &e), 0);
    cr_assert_eq(sbx_paths_add(&s->policy.mask, s->journal, &e), 0);
    cr_assert_eq(sbx_paths_add(&s->policy.mask, s->other, &e), 0);
    cr_assert_eq(sbx_paths_add(&s->policy.mask, s->inner, &e), 0);
    cr_assert_eq(sbx_paths_add(&s->policy.mask, "/usr/bin", &e), 0);
    scene_plan(s);
}

static void scene_free(struct scene *s)
{
    sbx_plan_free(&s->plan);
    sbx_paths_free(&s->own);
    sbx_policy_free(&s->policy);
    rmdir(s->move);
    tf_remove_tree(s->t.root);
}

Test(sandbox, a_plan_has_the_system_devices_proc_tmp_and_the_folders)
{
    struct scene s;
    scene_make(&s);
    static const struct { const char *path; enum sbx_kind kind; } want[] = {
        { "/usr", SBX_BIND_RO }, { "/etc", SBX_BIND_RO }, { "/dev/null", SBX_DEVICE },
        { "/dev/fd", SBX_SYMLINK }, { "/proc", SBX_PROC }, { "/tmp", SBX_TMPFS },
    };
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        const struct sbx_entry *en = entry_at(&s.plan, want[i].path);
        cr_assert(en && en->kind == want[i].kind, "%s: %s, kind %d, want %d", want[i].path,
                  en ? "present" : "missing", en ? (int)en->kind : -1, (int)want[i].kind);
    }
    const struct sbx_entry *work = entry_at(&s.plan, s.work), *move = entry_at(&s.plan, s.move);
    cr_assert(work && work->kind == SBX_BIND_RO && work->is_dir, "the working directory");
    cr_assert(move && move->kind == SBX_BIND_RW && move->is_dir, "the move folder");
    for (int i = 1; i < s.plan.n; i++)
        cr_assert_lt(strcmp(s.plan.entry[i - 1].path, s.plan.entry[i].path), 0,
                     "not sorted: %s before %s", s.plan.entry[i - 1].path, s.plan.entry[i].path);
    scene_free(&s);
}

Test(sandbox, masks_hide_what_a_visible_folder_holds_but_not_the_engine_own)
{
    struct scene s;
    scene_make(&s);
    const struct sbx_entry *journal = entry_at(&s.plan, s.journal);
    const struct sbx_entry *other = entry_at(&s.plan, s.other);
    cr_assert(journal && journal->kind == SBX_MASK && !journal->is_dir, "the journal is masked");
    cr_assert(other && other->kind == SBX_MASK && other->is_dir, "bob's folder is masked");
    /* Its own folder is a mask too (every engine's own paths are), but the
     * engine's own right wins; and it adds nothing inside its working
     * directory, which shows it already. */
    cr_assert_null(entry_at(&s.plan, s.inner), "its own folder: %d",
                   (int)entry_at(&s.plan, s.inner)->kind);
    cr_assert_null(entry_at(&s.plan, "/usr/bin"), "a system folder is never masked");
    scene_free(&s);
}

Test(sandbox, a_mask_over_nothing_visible_is_dropped)
{
    struct scene s;
    scene_make(&s);
    sbx_plan_free(&s.plan);
    s.work[0] = '\0';
    s.view.workdir = NULL;
    struct err e;
    s.view = (struct sbx_view){ NULL, s.move, &s.own, &s.policy };
    cr_assert_eq(sbx_plan_build(&s.view, &s.plan, &e), 0);
    cr_assert_null(entry_at(&s.plan, s.journal), "the journal is not visible: no mask");
    cr_assert_null(entry_at(&s.plan, s.other), "bob's folder is not visible: no mask");
    const struct sbx_entry *inner = entry_at(&s.plan, s.inner);
    cr_assert(inner && inner->kind == SBX_BIND_RO, "its own folder is bound");
    scene_free(&s);
}

Test(sandbox, a_path_named_through_a_symlink_is_bound_at_its_real_place)
{
    struct scene s;
    scene_make(&s);
    sbx_plan_free(&s.plan);
    char link[PATH_MAX + 8];
    snprintf(link, sizeof link, "%s/link-to-lib", s.t.root);
    cr_assert_eq(symlink(s.inner, link), 0);
    sbx_paths_free(&s.own);
    struct err e;
    cr_assert_eq(sbx_paths_add(&s.own, link, &e), 0);
    s.view = (struct sbx_view){ NULL, s.move, &s.own, &s.policy };
    cr_assert_eq(sbx_plan_build(&s.view, &s.plan, &e), 0);
    const struct sbx_entry *real = entry_at(&s.plan, s.inner), *alias = entry_at(&s.plan, link);
    cr_assert(real && real->kind == SBX_BIND_RO, "the real folder is bound");
    cr_assert(alias && alias->kind == SBX_SYMLINK && strcmp(alias->target, s.inner) == 0,
              "the link: %s", alias ? alias->target : "missing");
    scene_free(&s);
}

/* With TMPDIR elsewhere than /tmp, the move folder's neighbours (other
 * games' folders) are masked where a visible folder holds them. */
Test(sandbox, other_games_folders_are_masked)
{
    struct scene s;
    scene_make(&s);
    sbx_plan_free(&s.plan);
    rmdir(s.move);
    char games[PATH_MAX];
    tree_add(&s.t, "work/tmp/", 0, games, sizeof games);
    tree_add(&s.t, "work/tmp/arena-game-1/", 0, s.move, sizeof s.move);
    scene_plan(&s);
    const struct sbx_entry *beside = entry_at(&s.plan, games);
    const struct sbx_entry *move = entry_at(&s.plan, s.move);
    cr_assert(beside && beside->kind == SBX_MASK, "the games' folder is masked");
    cr_assert(move && move->kind == SBX_BIND_RW, "the move folder is bound inside the mask");
    scene_free(&s);
}

Test(sandbox, the_policy_says_what_it_isolates)
{
    struct sbx_policy on = { .mode = SBX_NAMESPACES }, off = { .mode = SBX_NONE };
    struct err e;
    cr_assert_eq(sbx_paths_add(&on.ro, "/data", &e), 0);
    struct { const struct sbx_policy *p; const char *json; } cases[] = {
        { &on, "{\"mode\":\"namespaces\",\"isolates\":[\"user\",\"pid\",\"mount\",\"network\","
               "\"ipc\",\"uts\",\"no_new_privs\",\"no_capabilities\",\"ipc_per_move\","
               "\"no_user_namespaces\",\"clean_environment\",\"no_key_quota\","
               "\"no_shared_locks\",\"no_file_watches\",\"no_io_uring\"],\"read_only\":[\"/data\"]}" },
        { &off, "{\"mode\":\"none\",\"isolates\":[]}" },
        { NULL, "{\"mode\":\"none\",\"isolates\":[]}" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        struct hdr h;
        hdr_init(&h);
        h.has = HDR_BIT(HDR_SANDBOX);
        cr_assert_eq(hdr_set_sandbox(&h.sandbox, cases[i].p), 0);
        cJSON *j = hdr_encode(&h);
        char *text = cJSON_PrintUnformatted(cJSON_GetObjectItemCaseSensitive(j, "sandbox"));
        cr_assert_str_eq(text, cases[i].json);
        free(text);
        cJSON_Delete(j);
        hdr_free(&h);
    }
    sbx_policy_free(&on);
}

/* The view's root and /tmp are its own: a working directory or a
 * --sandbox-ro of "/" or "/tmp" adds no bind (the host's /tmp would replace
 * the private one). */
Test(sandbox, root_and_tmp_are_never_bound_from_the_host)
{
    struct scene s;
    scene_make(&s);
    sbx_plan_free(&s.plan);
    struct err e;
    cr_assert_eq(sbx_paths_add(&s.policy.ro, "/tmp", &e), 0);
    cr_assert_eq(sbx_paths_add(&s.policy.ro, "/", &e), 0);
    snprintf(s.work, sizeof s.work, "/");
    scene_plan(&s);
    const struct sbx_entry *tmp = entry_at(&s.plan, "/tmp"), *root = entry_at(&s.plan, "/");
    cr_assert(tmp && tmp->kind == SBX_TMPFS, "/tmp: kind %d", tmp ? (int)tmp->kind : -1);
    cr_assert_null(root, "/ is bound");
    scene_free(&s);
}

/* A "No such file or directory" for a path the view hides names it; a path
 * the view shows, one that does not exist on the host, or another message
 * names nothing. */
Test(sandbox, a_missing_path_the_view_hides_is_named)
{
    struct scene s;
    scene_make(&s);
    char text[3 * PATH_MAX], path[PATH_MAX], hidden[PATH_MAX];
    struct tree elsewhere;
    tree_make(&elsewhere);
    tree_add(&elsewhere, "weights.txt", 0644, hidden, sizeof hidden);
    snprintf(text, sizeof text, "Traceback...\ncannot read %s: No such file or directory\n",
             hidden);
    cr_assert_eq(sbx_plan_hides(&s.plan, text, path, sizeof path), 1);
    cr_assert_str_eq(path, hidden);
    snprintf(text, sizeof text, "sh: 1: exec: %s: not found\n", hidden);
    cr_assert_eq(sbx_plan_hides(&s.plan, text, path, sizeof path), 1, "%s", text);
    snprintf(text, sizeof text, "open('%s'): No such file or directory", s.journal);
    cr_assert_eq(sbx_plan_hides(&s.plan, text, path, sizeof path), 1, "masked: %s", text);
    snprintf(text, sizeof text, "%s/missing: No such file or directory", s.work);
    cr_assert_eq(sbx_plan_hides(&s.plan, text, path, sizeof path), 0, "not on the host");
    snprintf(text, sizeof text, "%s/lib: No such file or directory", s.work);
    cr_assert_eq(sbx_plan_hides(&s.plan, text, path, sizeof path), 0, "its own: %s", text);
    snprintf(text, sizeof text, "cannot read %s: Permission denied", hidden);
    cr_assert_eq(sbx_plan_hides(&s.plan, text, path, sizeof path), 0, "another cause");
    tf_remove_tree(elsewhere.root);
    scene_free(&s);
}

/* --sandbox-env: variable names only, none the sandbox sets itself, each
 * once; the environment holds the fixed entries, PATH and the names the
 * referee has, with its values. */
Test(sandbox, the_environment_is_the_referee_set_and_the_names_passed)
{
    struct sbx_policy p = { .mode = SBX_NAMESPACES };
    struct err e;
    static const char *const bad[] = { "", "1X", "A-B", "A=B", "PATH", "HOME", "TMPDIR" };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        cr_expect_eq(sbx_env_add(&p, bad[i], &e), -1, "'%s' accepted", bad[i]);
    cr_assert_eq(sbx_env_add(&p, "OMP_NUM_THREADS", &e), 0, "%s", e.msg);
    cr_assert_eq(sbx_env_add(&p, "OMP_NUM_THREADS", &e), 0);
    cr_assert_eq(sbx_env_add(&p, "ARENA_UNSET_NAME", &e), 0);
    cr_assert_eq(p.nenv, 2);
    setenv("OMP_NUM_THREADS", "3", 1);
    unsetenv("ARENA_UNSET_NAME");
    setenv("SECRET_TOKEN", "x", 1);
    setenv("PATH", "/a:/b", 1);
    char **env = sbx_environment(&p);
    cr_assert_not_null(env);
    static const char *const want[] = { "PATH=/a:/b", "LANG=C.UTF-8", "TZ=UTC", "HOME=/tmp",
                                        "TMPDIR=/tmp", "OMP_NUM_THREADS=3", NULL };
    for (int i = 0; want[i] || env[i]; i++)
        cr_assert(want[i] && env[i] && strcmp(want[i], env[i]) == 0, "entry %d: %s, want %s",
                  i, env[i] ? env[i] : "(end)", want[i] ? want[i] : "(end)");
    free(env);
    struct hdr h;
    hdr_init(&h);
    h.has = HDR_BIT(HDR_SANDBOX);
    cr_assert_eq(hdr_set_sandbox(&h.sandbox, &p), 0);
    cJSON *j = hdr_encode(&h);
    char *text = cJSON_PrintUnformatted(j);
    cr_assert_not_null(strstr(text, "\"env\":[\"OMP_NUM_THREADS\",\"ARENA_UNSET_NAME\"]"), "%s",
                       text);
    free(text);
    cJSON_Delete(j);
    hdr_free(&h);
    sbx_policy_free(&p);
}

/* A process forked while a sandbox is open (a worker, with a copy of its
 * parent's judge) closes its copy without touching the init, which stays
 * the opener's: alive, and the child the opener's sweeps spare
 * (sbx_init_pid); the copy names no init. Needs namespaces (root or user
 * namespaces), skipped without. */
Test(sandbox, a_forked_copy_closed_leaves_the_openers_init)
{
    struct sbx *box;
    struct err e;
    if (sbx_open(&box, NULL, 0, &e) != 0)
        cr_skip_test("no sandbox here: %s", e.msg);
    pid_t init = sbx_init_pid(box);
    cr_assert_gt(init, 0, "the opener sees no init");
    pid_t child = fork();
    cr_assert_geq(child, 0, "fork");
    if (child == 0) {
        int named = sbx_init_pid(box) != 0;
        sbx_close(box);
        _exit(named ? 1 : 0);
    }
    int status;
    cr_assert_eq(waitpid(child, &status, 0), child);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0,
              "the copy named the init (wait status %d)", status);
    cr_assert_eq(waitpid(init, &status, WNOHANG), 0, "the init %d ended with the copy",
                 (int)init);
    cr_assert_eq(sbx_init_pid(box), init);
    sbx_close(box);
    cr_assert_eq(waitpid(init, &status, WNOHANG), -1, "the init %d outlived sbx_close",
                 (int)init);
}
