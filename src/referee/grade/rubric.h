/*
 * rubric.h - a grading rubric (`referee grade --rubric FILE`, docs/grading.md):
 * its JSON read and checked before anything runs, into a typed struct.
 *
 * The file: {"game", "engine", "proto", "build", "build_timeout_ms",
 * "timeout_ms", "cpu_limit_s", "mem_limit_mb", "seed", "random_plies",
 * "checks": [...]},
 * each check {"id", "kind", "points", "requires", ...} with the keys of its
 * kind; "requires" (any kind) is {"ID": SHARE, ...}: no points unless each
 * check ID, one before it, scored at least SHARE (in (0, 1]) of its points
 * (rubric_requires):
 *   legal  positions, depth
 *   exact  positions, depth
 *   match  opponent (random, alphabeta:D, minimax:D, perfect), games,
 *          min_score, depth
 *   cpu    positions, depth, max_ms
 *   io     cmd, inputs (a glob), reference (one of the suite's programs,
 *          args: words it is given, as sh reads them) or expected (a glob,
 *          paired with the inputs by base name)
 * "proto" is the engine's protocol, as an engine SPEC's proto= (file, the
 * default, or persistent). "visibility", at the top (the default) or on a
 * check, is Gradescope's: hidden, after_due_date, after_published or
 * visible (the default). "game" and "engine" are required unless every
 * check is io. Globs are
 * relative to the rubric's folder. An unknown key, kind, opponent, game or
 * reference, a missing key, a value of the wrong type or out of range, or
 * two checks with one id is an error naming it, at its line and column.
 *
 * Representation: fixed-size names, malloc'd commands and file lists (free
 * with rubric_free).
 */
#ifndef ARENA_RUBRIC_H
#define ARENA_RUBRIC_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include "arena/err.h"
#include "arena/game.h"
#include "arena/player.h"
#include "arena/sha256.h"
#include "arena/spec.h"

#define RUBRIC_ID_MAX 32        /* bytes of a check id, with NUL: a CSV header */
#define RUBRIC_MAX_CHECKS 32
#define RUBRIC_NAME_MAX 32      /* an opponent's or a reference program's name */
#define RUBRIC_MAX_REQUIRES 8   /* prerequisites of one check */

enum rubric_kind { RUBRIC_LEGAL, RUBRIC_EXACT, RUBRIC_MATCH, RUBRIC_CPU, RUBRIC_IO };

/* Gradescope's visibility of a test: who sees it, and when. Only
 * RUBRIC_VISIBLE checks run in a student's self-check. */
enum rubric_visibility {
    RUBRIC_VISIBLE, RUBRIC_HIDDEN, RUBRIC_AFTER_DUE_DATE, RUBRIC_AFTER_PUBLISHED
};

struct rubric_check {
    char id[RUBRIC_ID_MAX];     /* letters, digits, '-', '_' */
    enum rubric_kind kind;
    double points;              /* > 0 */
    int nrequires;              /* prerequisites: checks before this one */
    struct { int check; double share; } requires[RUBRIC_MAX_REQUIRES];
    enum rubric_visibility visibility;   /* its own, else the rubric's */
    long positions;             /* legal, exact, cpu */
    int depth;                  /* {depth}; exact: also the plies to the end */
    /* match */
    char opponent[RUBRIC_NAME_MAX];   /* as written */
    struct player_opts opp;           /* its player (seed set per game) */
    long games;
    double min_score;                 /* in (0, 1] */
    /* cpu */
    long max_ms;
    /* io */
    char *cmd;                        /* the submission's command */
    char reference[RUBRIC_NAME_MAX];  /* "": expected files instead */
    char *args;                       /* the reference's arguments; NULL: none */
    int ninputs;
    char **input, **expected;         /* absolute; expected NULL with reference */
};

struct rubric {
    const struct game *game;    /* NULL: io checks only */
    char *engine;               /* the command (spec.h's COMMAND); NULL: io only */
    enum spec_proto proto;      /* how the engine is run; SPEC_FILE by default */
    enum rubric_visibility visibility;   /* the checks' default */
    char *build;                /* sh -c text; NULL: no build */
    long build_timeout_ms, timeout_ms, cpu_limit_s, mem_limit_mb;
    uint64_t seed;
    int random_plies;           /* of the match openings */
    int ncheck;
    struct rubric_check check[RUBRIC_MAX_CHECKS];
    double max_total;           /* the sum of the points */
    char dir[PATH_MAX];         /* the rubric's folder, absolute */
    char sha256[SHA256_HEX];    /* of the file's bytes (the journal's header) */
};

/* Parses text (len bytes, NUL-terminated) of a rubric in folder dir (its
 * globs' base). Returns 0 with r filled (free with rubric_free), or -1 with
 * e at the line and column of the fault and r freed. */
int rubric_parse(const char *text, size_t len, const char *dir, struct rubric *r,
                 struct err *e);
/* Reads path and parses it; errors as rubric_parse (line 0: the file). */
int rubric_read(const char *path, struct rubric *r, struct err *e);
void rubric_free(struct rubric *r);

/* Whether check k's prerequisites are met, given each check's score
 * (score[j], graded when known[j]): 1 met; 0 not, with why (cap bytes)
 * naming the first unmet one: "it requires minimax at 80% or more; minimax
 * scored 40%"; -1 when a prerequisite is not graded yet. */
int rubric_requires(const struct rubric *r, int k, const double *score,
                    const unsigned char *known, char *why, size_t cap);

/* "legal", "exact", "match", "cpu", "io". */
const char *rubric_kind_name(enum rubric_kind kind);
/* "visible", "hidden", "after_due_date", "after_published". */
const char *rubric_visibility_name(enum rubric_visibility v);
/* Keeps the visible checks only, in their order (a student's self-check:
 * the others neither run nor show), max_total their sum; a prerequisite
 * left out is dropped. Returns how many were left out. */
int rubric_keep_visible(struct rubric *r);

#endif
