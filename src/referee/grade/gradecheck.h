/*
 * gradecheck.h - one rubric check (rubric.h) run on one submission, its
 * score and its evidence: what `referee grade` (grade.h) journals for
 * each submission and check.
 *
 *   legal  `positions` positions of seeded random games (each a position
 *          picked along a random playout); the engine's move at each, a
 *          game's ply (play.h's play_solo): a point share per legal answer.
 *   exact  `positions` positions at most `depth` plies from the end (every
 *          line from them ends within depth), found walking back along
 *          seeded random playouts, keeping only those where some legal
 *          move is not best; the best moves by a full minimax to the end
 *          (the game's terminal value, margin included: Max-Connect4's
 *          final score difference); a share per move among them.
 *   match  `games` games against a built-in player (player.h) run in this
 *          process, colours alternating, each pair on play_opening's
 *          opening (the rubric's random_plies and seed); the score is the
 *          submission's (win 1, draw 1/2) over the games: full points at
 *          min_score, else in proportion. A forfeit loses the game.
 *   cpu    refbench.h's bench at depths 1..depth over `positions`
 *          positions GRADE_CPU_PLIES random plies in (its budget max_ms):
 *          full points when the median at `depth` is at most max_ms and no
 *          move failed, else none; the curve is the evidence.
 *   io     the submission's cmd with each input on stdin (sh -c, in its
 *          sandbox, in its folder), its stdout compared byte for byte with
 *          the reference program's or the expected file: a share per input.
 * Same rubric, submission and seed give the same positions, openings and
 * opponents' moves, so the same scores (cpu apart).
 *
 * Evidence (a cJSON object, the journal's and the feedback's): "items": a
 * list of what failed or was judged ({"position", "ply" (the ply the
 * engine was to make), "board", "given", "expected": [...], "status",
 * "stderr", "stdout"} for positions; {"game", "side", "opening", "result",
 * "reason" ("normal", "draw-rule" or the forfeit's), "ply" (the last one
 * played, or the one forfeited), "board" (the final position, or the one
 * it forfeited at), "stderr", "stdout"} for games; {"input", "line",
 * "want", "got", "status", "stderr"} for io), "curve" for cpu ({"depth",
 * "median_ms", "failed", "moves" (timed), "failures": {KIND: COUNT}} a
 * depth run), "score" for match. Statuses and reasons are the referee's
 * forfeit reasons (rules.h), "ok" or "not best"; the tails are the ends of
 * the engine's output, absent when empty.
 */
#ifndef ARENA_GRADECHECK_H
#define ARENA_GRADECHECK_H

#include "arena/play.h"
#include "rubric.h"
#include "arena/sandbox.h"

struct cJSON;

/* What every check of one submission shares. */
struct gcheck_env {
    const struct rubric *rb;
    struct play_rules rules;     /* the game, limits and sandbox (depth,
                                  * seed and random_plies set per check) */
    const struct spec *eng;      /* the submission's engine; NULL: io only */
    const char *workdir;         /* the submission's folder (built) */
    const char *scratch;         /* a folder of its own for io outputs */
    const char *bench_json;      /* where the cpu check's bench document goes */
    /* io: the reference program's stdout per input, for the check at
     * index i: ref_out[i][k] (ref_len[i][k] bytes); NULL for expected
     * files (read when needed). */
    char **ref_out[RUBRIC_MAX_CHECKS];
    size_t *ref_len[RUBRIC_MAX_CHECKS];
};

struct gcheck_result {
    double score, max;
    char *output;            /* the text Gradescope shows (malloc'd) */
    struct cJSON *evidence;  /* owned; see above */
};

enum { GCHECK_DONE = 0, GCHECK_CANCELLED = 1, GCHECK_BUSY = 2 };

/* Runs check `index` of env->rb. Returns GCHECK_DONE with res filled (free
 * with gcheck_result_free), GCHECK_CANCELLED when stopped by the limits'
 * cancel flag, GCHECK_BUSY when a move or io run was starved by a busy
 * machine on every try (env->rules.busy_retries; play.h): the check is not
 * graded (res empty both ways), or -1 with e when the referee itself
 * failed. */
int gcheck_run(const struct gcheck_env *env, int index, struct gcheck_result *res,
               struct err *e);
void gcheck_result_free(struct gcheck_result *res);

/* match's points for the submission's score over its games (win 1, draw
 * 1/2, over the games): ch's full points at min_score or more, else in
 * proportion. */
double gcheck_match_points(const struct rubric_check *ch, double score);

/* cpu's points: ch's full points when the median CPU per move at ch's
 * depth (median; < 0: that depth was not run) is at most max_ms and none
 * of its moves failed (failed), else 0; msg (cap bytes) says which, the
 * check's output. */
double gcheck_cpu_points(const struct rubric_check *ch, double median, long failed, char *msg,
                         size_t cap);

/* The bench document at path (the JSON refbench.h writes, which gives
 * every depth "failed" and "failures"; its first engine): each
 * depth's figures appended to curve, the evidence's ({"depth",
 * "median_ms", "failed", "moves", "failures" when the bench gives it});
 * returns the median CPU per move at depth with *failed its failed moves,
 * or -1 when the document has no such depth or cannot be read. */
double gcheck_read_curve(const char *path, int depth, long *failed, struct cJSON *curve);

/* The reference outputs of every io check of rb, run once for the class
 * from bindir's programs (prefix: the installed names' "arena-", or "").
 * 0, or -1 with e (a reference that cannot run). Free with
 * gcheck_env_free_refs. */
int gcheck_env_refs(struct gcheck_env *env, const char *bindir, const char *prefix,
                    struct err *e);
void gcheck_env_free_refs(struct gcheck_env *env);

/* A shell command of a submission's outside a game's ply (its build, an io
 * input) or of the suite's (a reference program). */
struct gcheck_shell_args {
    const char *text;              /* run as sh -c text */
    const char *workdir;           /* read-only in the sandbox */
    const char *cwd;               /* where it runs (workdir or rw) */
    const char *rw;                /* its move folder (sandbox.h): in the sandbox
                                    * a tmpfs of its own over this empty folder */
    const struct sbx_paths *own;   /* more read-only paths; NULL: none */
    const struct sbx_policy *policy;   /* NULL or SBX_NONE: no sandbox */
    const struct run_limits *limits;
    const struct cg_root *acct;    /* a cgroup per run (cgroup.h); NULL: none */
    const char *in_path;           /* stdin; NULL: /dev/null (it must be visible:
                                    * in own, or no sandbox) */
    const char *stdout_name;       /* stdout into rw/NAME; NULL: stdout and stderr
                                    * together in r's stdout tail */
    const char *back;              /* after the run, every file and folder of the
                                    * move folder is copied into this host folder
                                    * (gradecopy.h, within GRADE_BACK_MAX_BYTES and
                                    * the copy's other limits); NULL: none */
};

/* Runs a->text: the one place grading starts a process outside a game's
 * ply, and the one place it meets the sandbox besides play.h. 0 with r
 * filled; GCOPY_FAULT (gradecopy.h) with r filled and e saying why the
 * move folder was not copied back (sparse files past its size, a link:
 * the command's own fault, nothing copied); or -1 with e (the referee's
 * own failure). */
int gcheck_shell(const struct gcheck_shell_args *a, struct run_result *r, struct err *e);

#endif
