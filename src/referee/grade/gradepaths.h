/*
 * gradepaths.h - what a graded submission's command may name (issue 42): its
 * own copy and the system's programs, nothing else.
 *
 * The sandbox binds read-only the folder of every word of an engine's
 * command that names an existing file, or the folder a word names
 * (sandbox.h's sbx_own_paths), and a path bound that way is shown even
 * inside a mask. A submission's command comes from its ENGINE file, so
 * without a check a word like ../../../../class/bob/engine.py would show a
 * classmate's folder, OUT's journal or the rubric's expected outputs. grade
 * therefore judges the command once, on the host, before anything runs:
 * each place a word, the program or its interpreters (spec.h's runtime)
 * would have bound must be
 *   - seen: inside the submission's own copy, a system folder
 *     (PATH_SYSTEM_DIRS), the suite's data folder, a folder of the grader's
 *     PATH or the installation above one (a pyenv's shims/, a bin/), or a
 *     --sandbox-ro path; and
 *   - not hidden: the class's folder, OUT, the rubric's folder and the
 *     folders of the files the rubric names are hidden wherever they are,
 *     /opt and /usr included.
 * Where a seen place and a hidden one both hold a path, the deeper decides,
 * as in the sandbox's view (a --sandbox-ro path inside the rubric's folder
 * is seen; a class under /opt is hidden); the same path both seen and hidden
 * is hidden. "/" and "/tmp" are never bound (the view's root and /tmp are
 * its own), so a word whose folder is one of them is harmless. A word that
 * names nothing yet is judged by its folder, where it would appear.
 *
 * Paths are canonical (realpath) when they exist, else lexical (path.h).
 */
#ifndef ARENA_GRADEPATHS_H
#define ARENA_GRADEPATHS_H

#include <stddef.h>
#include "arena/err.h"
#include "arena/limits.h"
#include "arena/sandbox.h"
#include "arena/spec.h"

/* A place and what it is, for the message ("the class's folder"). */
struct gpath_place {
    char *path;          /* absolute, malloc'd */
    const char *what;    /* a string literal */
};

/* The places of a grading: seen by every submission, and hidden from
 * every one. Free with gpath_free. */
struct gpath_places {
    int nseen, nhidden;
    struct gpath_place seen[GRADE_MAX_PLACES], hidden[GRADE_MAX_PLACES];
};

enum gpath_verdict {
    GPATH_SEEN,      /* the submission's own, or the system's */
    GPATH_HIDDEN,    /* inside a hidden place, which decides */
    GPATH_OUTSIDE,   /* in none of them */
};

/* Adds path (canonical when it exists, else lexical) to pl's hidden places
 * (hidden 1) or seen ones (0), unless that list holds it already. 0, or -1
 * with e (a path too long, more than GRADE_MAX_PLACES, out of memory). */
int gpath_add(struct gpath_places *pl, int hidden, const char *path, const char *what,
              struct err *e);

/* Adds the places every submission sees: the system folders, the suite's
 * data folder, the grader's PATH places (gpath_search_places) and policy's
 * --sandbox-ro paths. 0, or -1 with e. */
int gpath_add_system(struct gpath_places *pl, const struct sbx_policy *policy, struct err *e);

/* Calls add(ctx, folder) for each absolute folder of search (a PATH: ':'
 * between entries; empty and relative ones skipped, they are the
 * submission's own folder) and, when the folder's name is "bin" or
 * "shims", for the folder above it unless that is "/" or home (NULL:
 * none): an interpreter's installation, as path_runtime names it. Lexical:
 * nothing is looked up. Stops at the first add that returns nonzero and
 * returns that, else 0. */
int gpath_search_places(const char *search, const char *home,
                        int (*add)(void *ctx, const char *folder), void *ctx);

/* What path (absolute) is to a submission whose copy is own (absolute):
 * the deepest place holding it decides (own is seen). With GPATH_HIDDEN,
 * *by (when by is not NULL) is the hidden place. Pure. */
enum gpath_verdict gpath_judge(const struct gpath_places *pl, const char *own, const char *path,
                               const struct gpath_place **by);

/* The system folder (PATH_SYSTEM_DIRS) that path (absolute, canonical) is
 * or holds, or "/" for the root itself: a folder no mask can hide without
 * hiding the system every submission runs on. NULL when it can be hidden.
 * Pure. */
const char *gpath_unhideable(const char *path);

/* Judges engine eng (spec_resolve'd, its dir the submission's copy own)
 * against pl: its program's folder, each runtime folder, and the place of
 * each later word of its command (those with a '{' are the move's files
 * and skipped). 0 when every one is seen; 1 with why (cap bytes: "ENGINE
 * word 5 '../x' reaches /a/x, ...", source naming the command) at the
 * first that is not. written (NULL-terminated, or NULL) are the command's
 * words as written (spec_split), quoted instead of the resolved ones. */
int gpath_check_engine(const struct spec *eng, char *const *written, const char *own,
                       const struct gpath_places *pl, const char *source, char *why,
                       size_t cap);

void gpath_free(struct gpath_places *pl);

#endif
