/*
 * runner.h - what every launcher (launcher.h) shares to run an engine's
 * move: its limits, its stdout and stderr drained, how it ended judged;
 * the referee's process hygiene (the sweep, the guard); and (run_tool) the
 * referee's one way to run a tool of its own: Slurm's commands, the plot
 * script. launcher.h's launcher_plain is the move without a sandbox: no
 * shell, its own process group, resource limits, a wall deadline, the
 * child's own rusage, and the whole group killed and reaped before the
 * move is over, so no engine process outlives its move.
 *
 * The engine gets stdin from /dev/null and stdout and stderr into pipes that
 * the referee drains while it waits (a chatty engine never blocks on a full
 * pipe): the last RUN_TAIL_MAX bytes of each are kept in memory, and all of
 * stderr can be copied to a file of the caller's. RLIMIT_CPU, RLIMIT_AS,
 * RLIMIT_FSIZE, RLIMIT_NPROC and RLIMIT_CORE 0, and runs in cwd. It dies
 * with the process that started it (PR_SET_PDEATHSIG, SIGKILL); its own
 * children do not: a referee that must survive its own death kills them
 * from a process of its own (tournament.h's workers, run_guard's child for
 * a match).
 *
 * A process that leaves the group (setsid) escapes kill(-group). With
 * reap_all the caller promises it is a child subreaper (run_become_reaper)
 * with no children of its own but the engine: every orphan of the engine
 * then becomes our child, and after the move all of them are killed and
 * reaped, so nothing of the engine survives even a setsid.
 */
#ifndef ARENA_RUNNER_H
#define ARENA_RUNNER_H

#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>
#include "arena/err.h"

#define RUN_MAX_ARGS 64
/* Bytes of an engine's stdout and of its stderr kept per run: a Python
 * traceback's end, a Java stack trace's top, a shell's error line. */
#define RUN_TAIL_MAX 4096

struct run_limits {
    long timeout_ms;     /* wall deadline; > 0 */
    long cpu_limit_s;    /* RLIMIT_CPU; 0: none */
    long cpu_ms;         /* CPU time of the move, ms: of its whole tree where a
                          * cgroup bills it (launcher.h), read every
                          * CPU_POLL_MS, else of its own process when it ends
                          * (RLIMIT_CPU a second past it stops a runaway);
                          * 0: none. With it, timeout_ms is only a guard
                          * against an engine that sleeps or hangs. */
    long mem_limit_mb;   /* RLIMIT_AS; 0: none */
    long file_limit_kb;  /* RLIMIT_FSIZE; 0: none */
    long proc_limit;     /* RLIMIT_NPROC (tasks of the user, all processes
                          * counted); 0: none. See run_proc_limit. */
    int reap_all;        /* 1: sweep every child after the move (above) */
    pid_t spare;         /* the child the sweep spares (a game's judge); 0:
                          * none */
    /* When non-NULL and it becomes non-zero (a signal handler sets it), the
     * run is killed and ends RUN_CANCELLED. */
    const volatile sig_atomic_t *cancel;
};

enum run_end {
    RUN_EXITED,      /* exited on its own; status holds the exit status */
    RUN_SIGNALED,    /* killed by a signal it did not get from us; signal */
    RUN_TIMEOUT,     /* past the wall deadline: we killed the group */
    RUN_CPU_LIMIT,   /* SIGXCPU / SIGKILL from RLIMIT_CPU */
    RUN_MEM_LIMIT,   /* failed (signal or exit status) after its peak RSS
                      * reached half of RLIMIT_AS, or saying in an
                      * interpreter's or VM's words that it could not get
                      * memory (the JVM's heap): an allocation failed.
                      * Half, because growing allocators double. A peak
                      * not above the referee's own size cannot be told
                      * from the forked copy of the referee, so a limit
                      * should be well above the referee's size. */
    RUN_FILE_LIMIT,  /* SIGXFSZ: it wrote past RLIMIT_FSIZE */
    RUN_CANCELLED,   /* *cancel became non-zero: we killed the group */
    RUN_EXEC_FAILED, /* the command could not be started; err holds why */
};

/* The end of what a run wrote to one stream. */
struct run_tail {
    char text[RUN_TAIL_MAX + 1];  /* its last len bytes, then a NUL (the
                                   * bytes themselves may hold NULs) */
    size_t len;                   /* <= RUN_TAIL_MAX */
    long long total;              /* bytes it wrote in all */
    long long lines;              /* newlines it wrote in all */
};

struct run_result {
    enum run_end end;
    int status;             /* RUN_EXITED: exit status */
    int signal;             /* RUN_SIGNALED: the signal */
    double cpu_user_ms, cpu_sys_ms, wall_ms;
    long max_rss_kb;
    int by_tree;            /* RUN_CPU_LIMIT, RUN_MEM_LIMIT: the move's
                             * cgroup passed the limit over all of its
                             * processes (launcher.h), not one process */
    struct run_tail out, err;   /* its stdout and stderr */
    long long err_copied;   /* bytes of stderr written to err_copy */
    double wait_ms;         /* RUN_TIMEOUT with a cgroup: how long its
                             * processes had waited for a CPU (runnable, not
                             * running) when the deadline passed; -1 unknown */
};

/* What every launcher (launcher.h) shares. In the child, before exec: sets
 * limits' rlimits (async-signal-safe, fit for a vfork child). */
void run_apply_limits(const struct run_limits *limits);
/* Before the run: the size of this process that a child's peak memory must
 * exceed to count as its own (see RUN_MEM_LIMIT); 0 without a memory limit. */
long run_self_kb(const struct run_limits *limits);
/* The engine's stdout and stderr while it runs: the read ends of two
 * pipes (non-blocking; -1 at end of file), drained into r's tails, stderr
 * also into err_copy (-1: none) up to the file limit. run_streams_open
 * makes the pipes and gives their write ends in w (the caller hands them to
 * the engine and closes them); 0, or -1 with e. run_streams_drain reads at
 * most chunks reads of each without blocking; run_streams_close closes
 * what is open. */
struct run_streams {
    struct pollfd fd[2];         /* read ends of stdout, stderr; -1 at EOF */
    struct run_tail *tail[2];
    int copy;                    /* gets stderr; -1: none */
    long long copy_left;         /* bytes it may still get; < 0: no cap */
    long long *copied;
};
int run_streams_open(struct run_streams *s, int w[2], int err_copy,
                     const struct run_limits *limits, struct run_result *r, struct err *e);
void run_streams_drain(struct run_streams *s, int chunks);
void run_streams_close(struct run_streams *s);
/* Appends n bytes of buf to t, keeping the last RUN_TAIL_MAX. */
void run_tail_add(struct run_tail *t, const char *buf, size_t n);
/* Reads of each stream between two looks at the clock (a chatty engine
 * must not keep the referee from its deadline), and after the run (what is
 * left in the pipes: 64 KiB each at most, unless an escaped process still
 * writes). */
#define RUN_DRAIN_CHUNKS 16
#define RUN_FINAL_CHUNKS 64
/* r's CPU times and peak memory from the engine's rusage. */
void run_take_usage(const struct rusage *ru, struct run_result *r);
/* r->end, status and signal from how the run ended: status is the engine's
 * wait status (ignored when we killed it: timed_out, cancelled); r's CPU
 * times and peak memory must be filled. */
void run_judge(const struct run_limits *limits, int status, int timed_out, int cancelled,
               long self_kb, struct run_result *r);

/* Kills and reaps every child of this process but spare (0: none) until
 * none is left. */
void run_sweep(pid_t spare);

/* Makes this process the child subreaper of its descendants (Linux). */
void run_become_reaper(void);

/* What run_catch_stops replaced, for run_release_stops. */
struct run_stops {
    struct sigaction old_int, old_term;
    sigset_t old_mask;
};

/* Sends SIGINT and SIGTERM to handler and unblocks them (a mask inherited
 * from whoever started us would hold them back until the work is over);
 * run_release_stops puts back what was there. */
void run_catch_stops(void (*handler)(int), struct run_stops *saved);
void run_release_stops(const struct run_stops *saved);

/* Splits this process in two so that its engines die with it, even by
 * SIGKILL: the child goes on to do the work, the parent waits for it.
 *
 * In the child run_guard returns RUN_GUARD_CHILD with *cancel pointing at a
 * flag that SIGINT, SIGTERM or the parent's death (PR_SET_PDEATHSIG, sent as
 * SIGTERM) sets; the child is a child subreaper, so with that flag as
 * run_limits.cancel and reap_all, a signal or a killed parent ends the move
 * in progress and every process of the engine. In the parent it returns
 * RUN_GUARD_PARENT once the child has ended, *status its exit status (128 +
 * the signal when it was killed); a SIGINT or SIGTERM meanwhile is passed on
 * to the child, and whatever the child left is swept. Returns -1 when fork
 * fails (nothing changed: do the work in this process). */
enum { RUN_GUARD_CHILD = 0, RUN_GUARD_PARENT = 1 };
#define RUN_GUARD_SIGNALED 128   /* + the signal: *status of a killed child */
int run_guard(const volatile sig_atomic_t **cancel, int *status);

/* The fork of a child that answers its parent through a pipe (an engine's
 * start, a worker's result): the pipe made (O_CLOEXEC) into fds, fds[1]
 * the child's end, then fork. *parent is this process's pid, for the
 * child's check after its PR_SET_PDEATHSIG that its parent did not die
 * before. Returns fork's answer (the child's pid here, 0 in the child), or
 * -1 with e ("pipe: ..." or "fork: ...") and the pipe closed. */
pid_t run_fork_piped(int fds[2], pid_t *parent, struct err *e);

/* An RLIMIT_NPROC that lets engines running as uid start `extra` more tasks
 * than that user runs now (the limit counts all of the user's tasks, not the
 * engine's). */
long run_proc_limit(uid_t uid, long extra);

/* Runs one of the tools the referee itself uses (sbatch, squeue, the plot
 * script), not an engine: argv[0] looked up in PATH, no limits, in the
 * caller's folder, waited for. Its stdout goes into buf (cap bytes,
 * NUL-terminated, cut at the first newline; the rest is read and dropped
 * so the tool never blocks) or, buf NULL, to the caller's stdout; its stderr
 * is the caller's unless quiet. Returns its exit status (0: success; 128+N
 * after signal N), or -1 with e when it cannot be started (e says
 * "cannot run ARGV0"). */
int run_tool(char *const argv[], char *buf, size_t cap, int quiet, struct err *e);

#endif
