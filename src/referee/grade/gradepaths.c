/*
 * gradepaths.c - what a graded submission's command may name (gradepaths.h).
 */
#define _GNU_SOURCE
#include <assert.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "arena/datadir.h"
#include "arena/path.h"
#include "gradepaths.h"

/* Bytes of a word or a path quoted in a message: the error must fit a
 * grades.csv cell and a terminal line, and the start says which word. */
#define QUOTE_MAX 64

static const char *const system_dirs[] = { PATH_SYSTEM_DIRS };

int gpath_add(struct gpath_places *pl, int hidden, const char *path, const char *what,
              struct err *e)
{
    assert(pl && path && what);
    char lex[PATH_MAX], real[PATH_MAX];
    if (path_lexical(path, NULL, lex, sizeof lex) != 0)
        return err_set(e, 0, 0, "path too long: %.100s", path);
    const char *canon = realpath(lex, real) ? real : lex;
    struct gpath_place *list = hidden ? pl->hidden : pl->seen;
    int *n = hidden ? &pl->nhidden : &pl->nseen;
    for (int i = 0; i < *n; i++)
        if (strcmp(list[i].path, canon) == 0)
            return 0;
    if (*n == GRADE_MAX_PLACES)
        return err_set(e, 0, 0, "more than %d places %s the submissions", GRADE_MAX_PLACES,
                       hidden ? "hidden from" : "shown to");
    if (!(list[*n].path = strdup(canon)))
        return err_set(e, 0, 0, "out of memory");
    list[(*n)++].what = what;
    return 0;
}

int gpath_search_places(const char *search, const char *home,
                        int (*add)(void *ctx, const char *folder), void *ctx)
{
    assert(search && add);
    for (const char *p = search;; p++) {
        size_t len = strcspn(p, ":");
        char folder[PATH_MAX];
        if (len > 0 && p[0] == '/' && len < sizeof folder) {
            memcpy(folder, p, len);
            folder[len] = '\0';
            while (len > 1 && folder[len - 1] == '/')
                folder[--len] = '\0';
            int rc = add(ctx, folder);
            if (rc)
                return rc;
            const char *name = strrchr(folder, '/') + 1;
            if (strcmp(name, "bin") == 0 || strcmp(name, "shims") == 0) {
                path_cut_to_folder(folder);
                if (strcmp(folder, "/") != 0 && !(home && strcmp(folder, home) == 0) &&
                    (rc = add(ctx, folder)) != 0)
                    return rc;
            }
        }
        p += len;
        if (!*p)
            return 0;
    }
}

/* gpath_search_places' callback: a seen place of the grader's PATH. */
struct search_ctx {
    struct gpath_places *pl;
    struct err *e;
};

static int add_search_place(void *ctx, const char *folder)
{
    struct search_ctx *c = ctx;
    return gpath_add(c->pl, 0, folder, "the grader's PATH", c->e);
}

int gpath_add_system(struct gpath_places *pl, const struct sbx_policy *policy, struct err *e)
{
    for (size_t i = 0; i < sizeof system_dirs / sizeof *system_dirs; i++)
        if (gpath_add(pl, 0, system_dirs[i], "the system", e) != 0)
            return -1;
    if (gpath_add(pl, 0, datadir(), "the suite's data", e) != 0)
        return -1;
    struct search_ctx c = { pl, e };
    if (gpath_search_places(path_search(), getenv("HOME"), add_search_place, &c) != 0)
        return -1;
    for (int i = 0; policy && i < policy->ro.n; i++)
        if (gpath_add(pl, 0, policy->ro.path[i], "--sandbox-ro", e) != 0)
            return -1;
    return 0;
}

/* The length of the deepest place of list (n) holding path, or 0; its index
 * into *at. */
static size_t deepest(const struct gpath_place *list, int n, const char *path, int *at)
{
    size_t best = 0;
    for (int i = 0; i < n; i++) {
        size_t len = strlen(list[i].path);
        if (len > best && path_is_inside(path, list[i].path)) {
            best = len;
            *at = i;
        }
    }
    return best;
}

enum gpath_verdict gpath_judge(const struct gpath_places *pl, const char *own, const char *path,
                               const struct gpath_place **by)
{
    assert(pl && own && own[0] == '/' && path && path[0] == '/');
    int seen_at = -1, hidden_at = -1;
    size_t seen = deepest(pl->seen, pl->nseen, path, &seen_at);
    size_t hidden = deepest(pl->hidden, pl->nhidden, path, &hidden_at);
    if (path_is_inside(path, own) && strlen(own) > seen) {
        seen = strlen(own);
        seen_at = -1;
    }
    /* A place "/" (length 1) holds everything and still counts: > 0. */
    if (hidden > 0 && hidden >= seen) {
        if (by)
            *by = &pl->hidden[hidden_at];
        return GPATH_HIDDEN;
    }
    return seen > 0 ? GPATH_SEEN : GPATH_OUTSIDE;
}

const char *gpath_unhideable(const char *path)
{
    assert(path && path[0] == '/');
    if (strcmp(path, "/") == 0)
        return "/";
    for (size_t i = 0; i < sizeof system_dirs / sizeof *system_dirs; i++)
        if (path_is_inside(system_dirs[i], path))
            return system_dirs[i];
    return NULL;
}

/* Judges folder (absolute) that the sandbox would bind; "/" and "/tmp"
 * never are. 0 when seen, else 1 with why: "SUBJECT reaches FOLDER, ...". */
static int judge_folder(const struct gpath_places *pl, const char *own, const char *folder,
                        const char *subject, char *why, size_t cap)
{
    if (strcmp(folder, "/") == 0 || strcmp(folder, "/tmp") == 0)
        return 0;
    const struct gpath_place *by = NULL;
    enum gpath_verdict v = gpath_judge(pl, own, folder, &by);
    if (v == GPATH_SEEN)
        return 0;
    if (v == GPATH_HIDDEN)
        snprintf(why, cap, "%s reaches %.*s, inside %s, which no submission may see", subject,
                 QUOTE_MAX, folder, by->what);
    else
        snprintf(why, cap, "%s reaches %.*s, outside the submission's files and the system's "
                 "programs",
                 subject, QUOTE_MAX, folder);
    return 1;
}

/* Judges the places the sandbox binds for abs (absolute, lexical), as
 * sbx_own_paths does: the folder it names, or the folder of the file it
 * names, as written and at its real place (the file's own real place too:
 * a link to a file elsewhere brings that file's folder); where it would
 * appear when it names nothing yet. 0 or 1 with why, as judge_folder. */
static int judge_word(const struct gpath_places *pl, const char *own, const char *abs,
                      const char *subject, char *why, size_t cap)
{
    char folder[PATH_MAX], real[PATH_MAX];
    struct stat st;
    int exists = stat(abs, &st) == 0, is_dir = exists && S_ISDIR(st.st_mode);
    snprintf(folder, sizeof folder, "%s", abs);
    if (!is_dir)
        path_cut_to_folder(folder);
    if (judge_folder(pl, own, folder, subject, why, cap) ||
        (realpath(folder, real) && judge_folder(pl, own, real, subject, why, cap)))
        return 1;
    if (!exists || is_dir || !realpath(abs, real))
        return 0;
    path_cut_to_folder(real);
    return judge_folder(pl, own, real, subject, why, cap);
}

int gpath_check_engine(const struct spec *eng, char *const *written, const char *own,
                       const struct gpath_places *pl, const char *source, char *why,
                       size_t cap)
{
    assert(eng && own && pl && source && why && cap > 0);
    char subject[3 * QUOTE_MAX], abs[PATH_MAX];
    if (eng->program) {
        snprintf(subject, sizeof subject, "%s's program %.*s", source, QUOTE_MAX, eng->program);
        if (judge_word(pl, own, eng->program, subject, why, cap))
            return 1;
    }
    for (int i = 0; i < eng->nruntime; i++) {
        snprintf(subject, sizeof subject, "%s's interpreter", source);
        if (judge_word(pl, own, eng->runtime[i], subject, why, cap))
            return 1;
    }
    int nwritten = 0;
    while (written && written[nwritten])
        nwritten++;
    for (int i = 1; i < eng->argc && eng->argv[i]; i++) {
        if (strchr(eng->argv[i], '{'))
            continue;
        snprintf(subject, sizeof subject, "%s word %d '%.*s'", source, i + 1, QUOTE_MAX,
                 i < nwritten ? written[i] : eng->argv[i]);
        if (path_lexical(eng->argv[i], eng->dir, abs, sizeof abs) != 0) {
            snprintf(why, cap, "%s is too long a path", subject);
            return 1;
        }
        if (judge_word(pl, own, abs, subject, why, cap))
            return 1;
    }
    return 0;
}

void gpath_free(struct gpath_places *pl)
{
    for (int i = 0; i < pl->nseen; i++)
        free(pl->seen[i].path);
    for (int i = 0; i < pl->nhidden; i++)
        free(pl->hidden[i].path);
    pl->nseen = pl->nhidden = 0;
}
