/*
 * launcher.h - the referee's one way to run an engine's move, whatever
 * starts the engine: a launcher is an implementation (ops) behind one
 * interface, and launcher_move is the one deadline loop every launcher
 * shares: it starts the move, drains the engine's stdout and stderr while it
 * waits, stops the move at the wall deadline, on the caller's cancel flag or
 * past the CPU limit, collects how it ended and its accounting, and judges
 * it (runner.h's run_judge) into a struct run_result.
 *
 * Two implementations today:
 *   - the plain launcher (launcher_plain, below): a fork and an exec per
 *     move, as the referee's user (--sandbox none);
 *   - the sandbox (sandbox.h, sbx_launcher): the game's init in its
 *     namespaces vforks and execs the engine in its view.
 * A third fits the same ops: an engine that stays alive for a whole game
 * (opened once per game by its own constructor, as the sandbox is), whose
 * start writes the move's request line, whose done is its answer line, and
 * whose collect reports the CPU the engine used since the previous move (a
 * delta of its cgroup's or its /proc counters).
 *
 * The accounting (cgroup.h): when the referee found a cgroup hierarchy
 * (launcher.acct non-NULL), each move runs in a cgroup of its own, made
 * before the start and removed after the collect: the move's CPU is the
 * cgroup's (user and system of every process that ran in it, reaped or
 * not), its memory limit and process count apply to the whole tree, and
 * the CPU limit is kept by the loop. The implementation places its child
 * in the cgroup before exec, from the referee's side (launch_move.cg_procs:
 * descriptors of the cgroup's membership files, cgroup.h, that the child
 * writes "0" to).
 * Without one (acct NULL) a move's CPU is the leader's rusage and its
 * children's that it reaped ("accounting: process").
 */
#ifndef ARENA_LAUNCHER_H
#define ARENA_LAUNCHER_H

#include <stdint.h>
#include "arena/err.h"
#include "arena/runner.h"

struct cg_root;

/* Most membership files a move is placed in: one per v1 hierarchy
 * (cgroup.h's CG_MAX_DIRS). */
#define LAUNCH_CG_FILES 4

/* One move's request. */
struct launch_move {
    char *const *argv;                 /* argv[0] looked up in PATH */
    const char *cwd;                   /* where it runs */
    int view;                          /* the sandbox's view; 0 otherwise */
    int err_copy;                      /* gets its stderr (runner.h); -1: none */
    const struct run_limits *limits;
    int cg_procs[LAUNCH_CG_FILES];     /* filled by launcher_move: the move's
                                        * membership files; -1: none */
    const char *line;                  /* an engine that stays (persist.h):
                                        * the move's request line; NULL
                                        * otherwise */
    double cpu_cap_ms;                 /* an engine that stays: its move is
                                        * stopped once its CPU passes this
                                        * (the clock left); 0: none */
};

/* How a move ended, as an implementation's collect reports it. */
struct launch_end {
    int status;                  /* the leader's wait status */
    int exec_errno;              /* != 0: it did not start; why in e */
    double wall_ms;              /* < 0: launcher_move measures it */
};

/* What a launcher does; self is its implementation's state. Each returns
 * 0, or -1 with e when the launcher itself failed (a referee error, not the
 * engine's), unless said otherwise. */
struct launcher_ops {
    /* Starts m; w are the write ends of the engine's stdout and stderr
     * pipes, closed by launcher_move after the start. */
    int (*start)(void *self, struct launch_move *m, const int w[2], struct err *e);
    /* A descriptor that becomes readable when the move is over, or -1: then
     * done is polled, first every 20 us, then every millisecond at most. */
    int (*wait_fd)(void *self);
    /* Without blocking: 1 when the move is over, 0 while it runs, -1 with e
     * when the launcher failed. */
    int (*done)(void *self, struct err *e);
    /* Asks for the move's processes to be killed at once (deadline, cancel,
     * CPU limit); done turns 1 when they are. */
    void (*stop)(void *self);
    /* The stop got no answer within LAUNCH_STOP_GRACE_MS: kills whatever
     * runs the move (the sandbox's init) so that it is over. */
    void (*kill)(void *self);
    /* After done (or kill): reaps what is left, fills end, ru (the leader's
     * rusage, its reaped children's included) and, when exec failed, e. */
    int (*collect)(void *self, const struct launch_move *m, struct launch_end *end,
                   struct rusage *ru, struct err *e);
    /* Frees self (the sandbox's init killed); NULL self is fine. */
    void (*close)(void *self);
};

/* How long a stopped move may take to end before launcher_move kills what
 * runs it: killing is immediate, reaping a fork bomb's hundred processes
 * takes well under a second on a loaded machine. */
#define LAUNCH_STOP_GRACE_MS 2000

struct launcher {
    const struct launcher_ops *ops;
    void *self;
    const struct cg_root *acct;   /* per-move cgroups (cgroup.h); NULL: process
                                   * accounting */
    long watch_ms;                /* > 0: the loop asks done at least this
                                   * often (an implementation that watches
                                   * the engine's CPU itself: persist.h) */
};

/* Runs one move m with l and fills r (memset here): r->end says how it
 * ended (RUN_CPU_LIMIT also when the cgroup's CPU passed limits->cpu_limit_s,
 * RUN_MEM_LIMIT also when the cgroup's memory limit killed a process of it),
 * its CPU, wall and peak memory, its stdout's and stderr's tails, err_copy.
 * Returns 0 (an exec failure is r->end RUN_EXEC_FAILED with e filled), or -1
 * with e when the launcher failed. */
int launcher_move(struct launcher *l, struct launch_move *m, struct run_result *r,
                  struct err *e);

/* The plain launcher into *l: each move a fork and an exec from the
 * referee, as its user, in the move's cwd, its own process group, under the
 * move's rlimits (runner.h), in a cgroup of acct's (NULL: none); after the
 * move the group is killed and the leader reaped, and with reap_all every
 * child of the referee swept (runner.h). 0, or -1 with e (out of memory). */
int launcher_plain(struct launcher *l, const struct cg_root *acct, struct err *e);

/* The plain launcher's start of an engine, which the persistent engine
 * without a sandbox shares: a child that enters the move's cgroup (cg:
 * LAUNCH_CG_FILES membership files, -1: none) before anything else, leads
 * its own process group, dies with the referee, gets std[0] and std[1] as
 * its stdout and stderr and std[2] as its stdin (-1: /dev/null), the
 * rlimits l, and execs argv in cwd. Returns 0 once it has exec'd, *pid its
 * pid; 1 when it could not, *why the errno of the chdir or the exec, or the
 * negated errno of entering the cgroup (the child exits 127, not reaped);
 * -1 with e when no child was made. */
int launcher_spawn(char *const argv[], const char *cwd, const struct run_limits *l,
                   const int std[3], const int *cg, pid_t *pid, int *why, struct err *e);

/* Closes l's implementation (l->ops->close); l may be zeroed. */
void launcher_close(struct launcher *l);

#endif
