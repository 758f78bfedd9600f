/*
 * preflight.c - the referee's checks and set-up before the first game
 * (preflight.h): what the CLI used to hold. In options, above play, not in
 * run: what it checks is a whole refopts_settings (the tournament's
 * engines, shards and concurrency, the journal, log, svg and keep paths,
 * the sandbox policy, the rules it points at the cgroups and CPUs), and
 * run's pieces (spec, sandbox, cgroup, cpus, shim) are what it calls.
 */
#define _GNU_SOURCE
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "arena/cgroup.h"
#include "arena/cpus.h"
#include "arena/limits.h"
#include "arena/path.h"
#include "arena/preflight.h"
#include "arena/runner.h"
#include "arena/sandbox.h"
#include "arena/schedule.h"
#include "arena/spec.h"
#include "arena/textfile.h"
#include "arena/tournament.h"
#include "referee/run/shim.h"

/* Makes an engine's stderr= file now if it is not there, so that a mask
 * can hide it from the other engines from the first move on (only what
 * exists can be masked). 0, or -1 with e. */
static int stderr_file(const char *path, struct err *e)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0)
        return err_set(e, 0, 0, "stderr=%s: %s", path, strerror(errno));
    close(fd);
    return 0;
}

/* The sandbox's masks (the referee's own files: journal, log, keep
 * folder, the engines' stderr= files; every engine's dir= and own paths:
 * sandbox.h), and the probe that it can be made here at all. 0, or -1
 * with e. */
static int sandbox_rules(struct refopts_settings *s, struct err *e)
{
    struct sbx_policy *p = &s->sandbox;
    const char *mine[] = { s->journal, s->log, s->keep };
    int rc = 0;
    for (size_t i = 0; !rc && i < sizeof mine / sizeof *mine; i++)
        if (mine[i][0])
            rc = sbx_paths_add(&p->mask, mine[i], e);
    for (int i = 0; !rc && i < s->t.nengines; i++) {
        const struct spec *eng = &s->t.engine[i];
        rc = sbx_paths_add(&p->mask, eng->dir, e) ||
             (eng->stderr_path && (stderr_file(eng->stderr_path, e) ||
                                   sbx_paths_add(&p->mask, eng->stderr_path, e))) ||
             sbx_own_paths(eng->program, NULL, 0, eng->argv, eng->dir, &p->mask, e);
    }
    if (!rc)
        rc = sbx_probe(e);
    if (rc)
        return -1;
    s->t.rules.sandbox = p;
    return 0;
}

/* path in one form for comparing: canonical when it exists, else lexical
 * against the current directory. 0, or -1 when it does not fit. */
static int same_form(const char *path, char *out, size_t cap)
{
    char lex[PATH_MAX];
    if (path_lexical(path, NULL, lex, sizeof lex) != 0)
        return -1;
    if (realpath(lex, out))
        return 0;
    return (size_t)snprintf(out, cap, "%s", lex) < cap ? 0 : -1;
}

/* Whether a and b (b "" : never) name one file. */
static int same_file(const char *a, const char *b)
{
    char x[PATH_MAX], y[PATH_MAX];
    return b && b[0] && same_form(a, x, sizeof x) == 0 && same_form(b, y, sizeof y) == 0 &&
           strcmp(x, y) == 0;
}

/* spec_check_reach of an engine, which enters its dir= as root. */
static int reach(const struct spec *eng, uid_t uid, struct err *e)
{
    char who[REC_NAME_MAX + 16];
    snprintf(who, sizeof who, "engine '%s'", eng->name);
    return spec_check_reach(eng, who, "the engines", eng->dir, uid, e);
}

/* Checks path for option opt (skipped when path is ""); 0 or -1 with e. */
static int check_output(const char *opt, const char *path, struct err *e)
{
    if (!path || !path[0] || tf_check_creatable(path, e) == 0)
        return 0;
    char msg[ERR_MSG_MAX];
    snprintf(msg, sizeof msg, "%s", e->msg);
    return err_set(e, 0, 0, "%s %s: %s", opt, path, msg);
}

/* Refuses engine i's stderr= file when it is a file of the run (the
 * journal, the log, the JSON, inside the keep folder) or of an engine (its
 * program, a file its command names, another engine's stderr=): appending
 * to it would corrupt it, and the journal one would block --resume. */
static int check_stderr(const struct refopts_settings *s, int i, struct err *e)
{
    const struct spec *eng = &s->t.engine[i];
    const char *path = eng->stderr_path, *what = NULL;
    char form[PATH_MAX], keep[PATH_MAX];
    if (same_file(path, s->journal))
        what = "the journal (--journal)";
    else if (same_file(path, s->log))
        what = "the log (--log)";
    else if (same_file(path, s->json))
        what = "the JSON (--json)";
    else if (s->keep[0] && same_form(path, form, sizeof form) == 0 &&
             same_form(s->keep, keep, sizeof keep) == 0 && path_is_inside(form, keep))
        what = "inside the keep folder (--keep-files)";
    for (int j = 0; !what && j < s->t.nengines; j++) {
        const struct spec *other = &s->t.engine[j];
        if (other->program && same_file(path, other->program))
            what = "an engine's program";
        for (int k = 0; !what && k < other->nfiles; k++)
            if (same_file(path, other->files[k].path))
                what = "a file an engine's command names";
        if (!what && j != i && other->stderr_path && same_file(path, other->stderr_path))
            what = "another engine's stderr= file";
    }
    if (!what)
        return 0;
    return err_set(e, 0, 0, "engine '%s': stderr=%s is %s", eng->name, path, what);
}

/* Each engine's version manager's shim resolved as the engine would run
 * it: in its sandbox's environment (sbx_environment), or the referee's. */
static int resolve_shims(struct refopts_settings *s, struct err *e)
{
    char **boxed = NULL;
    if (s->sandbox.mode == SBX_NAMESPACES && !(boxed = sbx_environment(&s->sandbox)))
        return err_set(e, 0, 0, "out of memory");
    int rc = 0;
    for (int i = 0; !rc && i < s->t.nengines; i++)
        rc = spec_resolve_shim(&s->t.engine[i], boxed ? boxed : environ, e);
    free(boxed);
    return rc;
}

/* The games s plays at once: --concurrency, or the games it has when they
 * are fewer (a match of 2 at --concurrency 8; a slot no game uses would
 * only keep CPUs from the others). */
static int games_at_once(const struct refopts_settings *s)
{
    if (s->t.concurrency <= 1)
        return s->t.concurrency;
    long games = s->games;   /* a match's, set by its check */
    if (s->command != REF_CMD_MATCH) {
        struct schedule sched = tour_schedule(&s->t);
        games = schedule_shard_games(schedule_games(&sched), s->t.shard_k, s->t.shard_n);
    }
    return games < s->t.concurrency ? (int)games : s->t.concurrency;
}

/* More games at once than the CPUs the referee may use are refused unless
 * --force-concurrency says to share them: each game would get CPUs of its
 * own (cpus.h), and games sharing one take each other's time, which is
 * what a tight --timeout-ms or a benchmark does not expect. 0, or -1 with
 * e naming the CPUs. */
static int check_concurrency(const struct refopts_settings *s, struct err *e)
{
    cpu_set_t own;
    if (games_at_once(s) <= 1 || s->force_concurrency || cpus_own(&own, e) != 0)
        return 0;
    int n = CPU_COUNT(&own);
    char list[CG_CPUS_MAX];
    if (games_at_once(s) <= n || cpus_format(&own, list, sizeof list) != 0)
        return 0;
    return err_set(e, 0, 0, "--concurrency %d is more than the %d CPU%s this referee may use "
                   "(%s): each game plays on CPUs of its own, so give --concurrency %d at "
                   "most, or --force-concurrency to let games share CPUs", s->t.concurrency, n,
                   n == 1 ? "" : "s", list, n);
}

int preflight_check(struct refopts_settings *s, struct err *e)
{
    char keep_probe[PATH_MAX + 8] = "";
    if (check_concurrency(s, e) != 0)
        return -1;
    int rc = 0;
    if (s->keep[0]) {
        if (mkdir(s->keep, 0700) != 0 && errno != EEXIST)
            rc = err_set(e, 0, 0, "--keep-files %s: %s", s->keep, strerror(errno));
        snprintf(keep_probe, sizeof keep_probe, "%s/game-1", s->keep);
    }
    rc = rc || spec_resolve_all(s->t.engine, s->t.nengines, &s->each, 1, e) != 0 ||
         tour_seeds(&s->t, e) != 0 ||
         check_output("--log", s->log, e) != 0 ||
         check_output("--journal", s->journal, e) != 0 ||
         check_output("--json", s->json, e) != 0 ||
         check_output("--svg", s->svg, e) != 0 ||
         check_output("--keep-files", keep_probe, e) != 0;
    if (!rc)
        rc = resolve_shims(s, e);
    for (int i = 0; !rc && i < s->t.nengines; i++)
        rc = s->t.engine[i].stderr_path &&
             (check_stderr(s, i, e) != 0 ||
              check_output("stderr=", s->t.engine[i].stderr_path, e) != 0);
    if (rc)
        return -1;
    if (s->sandbox.mode == SBX_NAMESPACES && sandbox_rules(s, e) != 0)
        return -1;
    uid_t runs_as = sbx_engine_uid(s->sandbox.mode == SBX_NAMESPACES ? &s->sandbox : NULL);
    for (int i = 0; runs_as != geteuid() && i < s->t.nengines; i++)
        if (reach(&s->t.engine[i], runs_as, e) != 0)
            return -1;
    /* Only commands that run engines pay for the /proc scan; none where
     * each move's cgroup holds its processes (preflight_accounting, which
     * a judge's start may have run already). */
    s->t.rules.limits.proc_limit =
        s->t.rules.acct ? 0
                        : run_proc_limit(sbx_engine_uid(s->t.rules.sandbox),
                                         REF_DEFAULT_PROC_EXTRA);
    return 0;
}

int preflight_accounting(struct cg_root *cg, struct play_rules *rules, const char *prog,
                         FILE *err, struct err *why)
{
    if (cg_root_find(cg, REF_DEFAULT_PROC_EXTRA, why) != 0) {
        fprintf(err, "%s: accounting: process: %s; a move's CPU is then its own and that of "
                "the children it reaped, and --cpu-limit-s and --mem-limit-mb hold per "
                "process\n", prog, why->msg);
        return 1;
    }
    rules->acct = cg;
    rules->limits.proc_limit = 0;
    return 0;
}

void preflight_cpus(struct refopts_settings *s, const char *prog, FILE *err)
{
    int slots = games_at_once(s);
    if (slots < 2)
        return;   /* one game at a time has nothing to keep apart */
    assert(!s->t.rules.acct || s->t.rules.acct == &s->cg);
    struct cg_root *acct = s->t.rules.acct ? &s->cg : NULL;
    struct err why;
    int rc = cpus_plan(&s->cpus, slots, acct, &why);
    if (rc < 0) {
        fprintf(err, "%s: cpus: shared: %s; games at once may take each other's CPU time\n",
                prog, why.msg);
        return;
    }
    if (rc == 1)
        fprintf(err, "%s: cpus: affinity only: %s; each game's engines start on CPUs of their "
                "own but may leave them (sched_setaffinity)\n", prog, why.msg);
    s->t.rules.cpus = &s->cpus;
}

void preflight_shims(const struct refopts_settings *s, const char *prog, FILE *err)
{
    for (int i = 0; i < s->t.nengines; i++) {
        const struct spec *eng = &s->t.engine[i];
        if (!eng->shim_why)
            continue;
        fprintf(err, "%s: warning: engine '%s': %s is a version manager's shim that cannot be "
                     "resolved to its interpreter (%s); it runs on every move, billed to the "
                     "engine: %.0f ms of CPU for '%s --version' here; name the interpreter in "
                     "cmd= to avoid it\n",
                prog, eng->name, eng->program, eng->shim_why, shim_cost_ms(eng->program),
                eng->program);
    }
}
