/*
 * preflight.h - what the referee checks and sets up once its options are
 * consistent, before the first game of a match, tournament or bench: the
 * engines resolved (spec.h), every file the run will write creatable (so a
 * run never plays its games and then loses them), no engine's stderr= file
 * naming a file of the run or of an engine, the sandbox's policy (its masks:
 * the referee's own files and every engine's) and the probe that a sandbox
 * can be made here, RLIMIT_NPROC and --concurrency against the CPUs; then
 * where each move's cgroup goes and the CPUs of games played at once.
 * The CLI only prints the error (and that no cgroup can be had).
 */
#ifndef ARENA_PREFLIGHT_H
#define ARENA_PREFLIGHT_H

#include <stdio.h>
#include "arena/cgroup.h"
#include "arena/err.h"
#include "arena/play.h"
#include "arena/refopts.h"

/* Checks and completes s as above: refuses more games at once
 * (--concurrency, or the games when fewer) than the CPUs this process may
 * use (unless s->force_concurrency), resolves its engines, creates the
 * keep folder and the engines' stderr= files (so a mask can hide them from
 * the first move on), fills s->sandbox's masks and points the rules at it,
 * sets the rules' process limit. Returns 0, or -1 with e saying what is
 * wrong, naming the option or the engine (nothing played yet). */
int preflight_check(struct refopts_settings *s, struct err *e);

/* After preflight_check (or a grade's set-up, or before a sandboxed
 * judge starts with the options: its cgroup goes there too, judge.h;
 * preflight_check then sets no process limit), where each move's cgroup
 * goes (cgroup.h): 0 with the rules pointed at cg (and no RLIMIT_NPROC:
 * pids.max bounds each move's tree, where RLIMIT_NPROC counts every task of
 * the engines' user, other referees' engines included); or 1 with why
 * saying why no cgroup can be had, and that said on err as PROG's
 * warning: the moves are then billed and limited per process, and the
 * journal says "accounting": "process". cg must outlive the rules' use. */
int preflight_accounting(struct cg_root *cg, struct play_rules *rules, const char *prog,
                         FILE *err, struct err *why);

/* After preflight_accounting, for a match or tournament of
 * s->t.concurrency games at once (or its games, when fewer; nothing for
 * one at a time): splits the referee's CPUs between them (cpus.h) and
 * points the rules at the plan in s, each game then held to its share by
 * a cpuset of the moves' cgroup root. Where none can be had (no cgroup, no cpuset controller for this
 * user) it says so on err in one line, PROG's "cpus: affinity only: WHY",
 * and the games are held by affinity alone, which an engine may widen. */
void preflight_cpus(struct refopts_settings *s, const char *prog, FILE *err);

/* After preflight_check: says on err, as PROG's warning, which engines run
 * a version manager's shim that could not be resolved to its interpreter
 * (spec.h's shim_why), and what that costs each of their moves, measured
 * here once (a run of the shim's --version): CPU billed to the engine that
 * the same engine run by its interpreter does not pay. */
void preflight_shims(const struct refopts_settings *s, const char *prog, FILE *err);

#endif
