/*
 * sandbox.h - the walls around an engine the referee does not trust: what a
 * move can see and reach. runner.h says how a move is run and judged; this
 * says where.
 *
 * One sandbox per game (sbx_open): a small init process, started once per
 * game because a new process costs milliseconds on some machines, in new
 * Linux user, PID, mount, network, IPC and UTS namespaces. Every move of the
 * game is a child of that init (vfork and exec, no copy of the referee), in
 * the file-system view of its engine, which the init builds once per game:
 * a mount namespace whose root is a small read-only tmpfs holding
 *   - the system, read-only: SBX_SYSTEM_DIRS (a symlink there, like /bin on
 *     merged-/usr systems, is copied as the same symlink), and the suite's
 *     installed data folder (datadir.h) when it exists;
 *   - /dev/null, zero, full, random, urandom; /dev/fd and /dev/std*; a /proc
 *     of the game's PID namespace mounted with hidepid=2, so that it shows
 *     the engine's own processes and nothing else; a private /tmp (tmpfs of
 *     SBX_TMP_OPTIONS), always: "/" and "/tmp" are never bound from the
 *     host, whatever the working directory or --sandbox-ro say;
 *   - read-only: the engine's working directory, its own paths
 *     (sbx_own_paths: its program's folder, the folder of every argument
 *     naming an existing file, or the folder such an argument names) and the
 *     policy's read-only paths (--sandbox-ro);
 *   - read-write: its move folder (sbx_view.rw), over which the init mounts
 *     a tmpfs of SBX_MOVE_OPTIONS of the engine's own (sbx_take_move_folder
 *     hands the referee a descriptor of it);
 *   - hidden even inside those (an empty read-only folder or file in their
 *     place): the policy's masks (the referee's journal, log and keep-files
 *     folder, every engine's own paths: so the other engines' folders) unless
 *     the path is exactly one the engine sees by its own right, and the
 *     folder that holds the move folder (other games' folders, when TMPDIR is
 *     not /tmp; a private /tmp hides them otherwise). A mask that holds a
 *     path of the engine's own hides everything else in it.
 * Nothing else exists. Each visible path is mounted at its real place
 * (realpath); one named through a symlink gets the same symlink in the view.
 * Paths inside SBX_SYSTEM_DIRS are masked only when the policy says so
 * (mask_system: grade's masks), never a tournament's.
 *
 * The engine runs as the referee's user, or, when the referee is root, as
 * SBX_ROOT_ENGINE_UID (the kernel never applies RLIMIT_NPROC to root, so a
 * root engine's fork bomb would be unbounded; its files must then be
 * readable by others, as 0644/0755 are). It has no capabilities and no way to
 * gain any (PR_SET_NO_NEW_PRIVS, an empty bounding set), no file descriptor
 * but its stdio (/dev/null), its own process group and the runner's limits.
 * Its PID namespace holds the init and its own processes: the init ignores
 * every signal from inside (a namespace's init does), cannot be traced (not
 * dumpable) and is invisible in /proc. The network namespace has only a
 * loopback that is down: no connection to anything, 127.0.0.1 included;
 * abstract Unix sockets are the game's own, System V IPC the move's (each
 * engine run unshares an IPC namespace, so a segment dies with the move).
 * No user namespace can be made inside (the init sets the namespace's
 * max_user_namespaces to 0). Its environment is sbx_environment's, nothing
 * of the referee's but PATH and the --sandbox-env names.
 *
 * After the engine exits, the init kills every other process of the
 * namespace (kill(-1), which leaves the init alone) and reaps them before it
 * answers, so no process of an engine outlives its move; a setsid escapee
 * included. When the move is over time or cancelled, the referee asks the
 * init (SIGUSR1) to do the same at once; an init that does not answer within
 * LAUNCH_STOP_GRACE_MS (launcher.h) is killed, and with it everything in
 * the namespace. The
 * init dies with the process that opened the sandbox (PR_SET_PDEATHSIG), and
 * the kernel then kills the whole namespace.
 *
 * Costs are paid once per game: the init's fork, the namespaces, the views.
 * A move costs a vfork, a setns and the exec, against a fork and an exec
 * without a sandbox.
 */
#ifndef ARENA_SANDBOX_H
#define ARENA_SANDBOX_H

#include <sys/types.h>
#include "arena/err.h"
#include "arena/limits.h"
#include "arena/path.h"
#include "arena/runner.h"

/* The read-only system folders (those that exist): path.h's. */
#define SBX_SYSTEM_DIRS PATH_SYSTEM_DIRS
/* What an engine's environment holds beside PATH and --sandbox-env: a
 * locale every system has, UTC, and its private /tmp as its home and
 * scratch folder. Nothing of the referee's own (tokens, keys, HOME). */
#define SBX_ENV_SET "LANG=C.UTF-8", "TZ=UTC", "HOME=/tmp", "TMPDIR=/tmp"
/* How long a stopped move's init may take to kill and reap the engine
 * before the referee kills it: killing is immediate, reaping a fork bomb's
 * hundred processes takes well under a second on a loaded machine. */
#define SBX_STOP_GRACE_MS 2000
/* How long the init may take to set up its namespaces and views: mounts
 * cost milliseconds, a loaded machine can take a hundred times that. */
#define SBX_SETUP_MS (10 * SBX_STOP_GRACE_MS)

enum sbx_mode {
    SBX_NAMESPACES = 0,  /* the default */
    SBX_NONE,            /* --sandbox none: engines run as the referee's user,
                          * seeing and reaching what it can */
};

/* A list of absolute paths (malloc'd; free with sbx_paths_free). */
struct sbx_paths {
    int n;
    char *path[SBX_MAX_PATHS];
};

/* Adds path, made absolute against the current directory (path_lexical:
 * symlinks are kept, the plan resolves them), unless the list holds it
 * already. Returns 0, or -1 with e when the list is full or
 * out of memory. */
int sbx_paths_add(struct sbx_paths *p, const char *path, struct err *e);
void sbx_paths_free(struct sbx_paths *p);

/* An engine's own paths, given what spec.h resolved: the folder of its
 * program (absolute, or NULL when none was found; its canonical folder too
 * when reached through a symlink), its runtime (path_runtime: interpreters'
 * folders and installations) and, for every word of its argv template after
 * the program naming an existing file (against workdir when relative), that
 * file's folder, or the folder itself when the word names one. Words with a
 * placeholder ('{') are the move's files and are skipped; so are paths
 * inside SBX_SYSTEM_DIRS. Appends to own. Returns 0, or -1 with e (list
 * full, out of memory, a path too long). */
int sbx_own_paths(const char *program, char *const runtime[], int nruntime,
                  char *const argv[], const char *workdir, struct sbx_paths *own, struct err *e);

/* What the referee sets for all engines (refopts.h fills it). */
struct sbx_policy {
    enum sbx_mode mode;
    struct sbx_paths ro;     /* --sandbox-ro: read-only for every engine */
    struct sbx_paths mask;   /* hidden from every engine (see above) */
    int mask_system;         /* 1: the masks hide inside SBX_SYSTEM_DIRS
                              * too (grade's class, OUT and rubric, which
                              * may be kept under /opt); 0: a tournament's,
                              * engines' own folders, which may lie in
                              * the system every engine needs */
    int nenv;
    char *env[SBX_MAX_ENV];  /* --sandbox-env: names passed (malloc'd) */
};

void sbx_policy_free(struct sbx_policy *p);

/* Adds the environment variable name to those p passes to every engine
 * (its value as the referee has it when a game starts; nothing when the
 * referee has none), unless p holds it already. 0, or -1 with e: a name that
 * is not [A-Za-z_][A-Za-z0-9_]*, one the sandbox sets itself
 * (SBX_ENV_SET's), more than SBX_MAX_ENV, out of memory. */
int sbx_env_add(struct sbx_policy *p, const char *name, struct err *e);

/* An engine's environment under p: SBX_ENV_SET, PATH the referee's search
 * list (path.h: the one its program was found with), and p's names that the
 * referee's environment has. A NULL-terminated array of "NAME=value"
 * strings in one malloc'd block; the caller frees it with free(). NULL when
 * out of memory. */
char **sbx_environment(const struct sbx_policy *p);

/* What a policy is, in plain values, for the journal header's
 * "sandbox" (header.h's hdr_set_sandbox writes it; run knows nothing of
 * journals): on, mode "namespaces", with what it isolates, the
 * --sandbox-ro paths and the --sandbox-env names (never values); or off,
 * mode "none", nothing isolated and no lists. The pointers are p's, or
 * static, and live as long as p. */
struct sbx_summary {
    int on;
    const char *const *isolates;
    int nisolates;
    char *const *read_only;
    int nread_only;
    char *const *env;
    int nenv;
};
void sbx_policy_summary(const struct sbx_policy *p, struct sbx_summary *s);

/* The user id engines run as under p, as the kernel counts it (for
 * RLIMIT_NPROC, runner.h's run_proc_limit). */
uid_t sbx_engine_uid(const struct sbx_policy *p);

/* One engine's view of the file system (above). All fields must outlive
 * the sandbox opened with it. */
struct sbx_view {
    const char *workdir;              /* its working directory: read-only */
    const char *rw;                   /* its move folder: read-write */
    const struct sbx_paths *own;      /* its own paths: read-only */
    const struct sbx_policy *policy;  /* read-only paths and masks */
};

/* --- the plan of a view (what sbx_open mounts; exposed for tests) ------- */

enum sbx_kind {
    SBX_BIND_RW,   /* the move folder */
    SBX_BIND_RO,   /* a visible folder or file */
    SBX_SYMLINK,   /* path -> target, as on the host */
    SBX_TMPFS,     /* the private /tmp */
    SBX_PROC,      /* the game's /proc */
    SBX_DEVICE,    /* a device file bound from the host's /dev */
    SBX_MASK,      /* an empty read-only folder or file over the path */
};

struct sbx_entry {
    enum sbx_kind kind;
    int is_dir;           /* binds and masks: a folder, not a file */
    char *path;           /* absolute, where it appears in the view */
    char *target;         /* SBX_SYMLINK: the link's text; else NULL */
};

/* The entries of a view, sorted by path (a folder before what is inside
 * it), without those that change nothing (a read-only path inside another,
 * a mask over nothing visible). */
struct sbx_plan {
    int n, cap;
    struct sbx_entry *entry;
};

/* Builds v's plan from the host's file system as it is now. Returns 0, or
 * -1 with e (out of memory, a path too long). Free with sbx_plan_free. */
int sbx_plan_build(const struct sbx_view *v, struct sbx_plan *plan, struct err *e);
void sbx_plan_free(struct sbx_plan *plan);

/* Why an engine failed, when the view hides what it looked for: when text
 * (its stderr) says "No such file or directory" (or a shell's ": not
 * found") and names an absolute path
 * that exists on the host but that the plan does not show (no bind holds
 * it, or a mask or the private /tmp covers it), that path (as written) into
 * path (cap bytes) and 1; else 0. */
int sbx_plan_hides(const struct sbx_plan *pl, const char *text, char *path, size_t cap);

/* --- a game's sandbox --------------------------------------------------- */

struct sbx;

/* Starts a game's sandbox with n views (view i for a move's launch_move.view
 * i; n is 1 or 2, 0 for sbx_probe), which must outlive it, and waits (at most
 * SBX_SETUP_MS) for the init to have built them and sent their move
 * folders. Returns 0 with *box set, or -1 with e naming the cause
 * (namespaces refused: the message names --sandbox none). A view that
 * cannot be built fails the first run in it. The caller must not reap the
 * init (run_sweep with the sandbox open would). */
int sbx_open(struct sbx **box, const struct sbx_view *views, int n, struct err *e);

/* The argument the init is started with: sbx_open's clone execs this
 * program (/proc/self/exe) as `PROGRAM SBX_INIT_ARG`, with what it needs
 * in descriptors it inherits, so that the init runs in a memory of its
 * own (no copy of a large tournament's, nothing a memory checker follows).
 * A program that opens sandboxes calls sbx_init_main first in main: it
 * returns 0 when this process is not an init, and otherwise serves as
 * one and never returns (exit 2, with a message, when started by hand). */
#define SBX_INIT_ARG "--sandbox-init"
int sbx_init_main(int argc, char **argv);

/* What a sandbox's messages call it, whom it holds, and how to do without
 * it: "cannot create SANDBOX: new namespaces: CAUSE; WITHOUT", "SANDBOX
 * does not answer; WITHOUT", "cannot hand FOLDER to HOLDS". String
 * literals. */
struct sbx_words {
    const char *sandbox;   /* "the engines' sandbox" */
    const char *holds;     /* "the engines" */
    const char *without;   /* "run with --sandbox none to play without one" */
};
/* The engines' words (sbx_open's, sbx_probe's). */
extern const struct sbx_words sbx_engines_words;

/* sbx_open for another program than a game's engines (a judge: judge.h),
 * its messages in words (which must outlive the sandbox). */
int sbx_open_as(struct sbx **box, const struct sbx_view *views, int n,
                const struct sbx_words *words, struct err *e);

/* The init as this process sees it: the child of the process that opened
 * box (a sweep of that process's children must spare it: runner.h's
 * run_limits.spare). 0 once it was killed, and in a process forked since
 * the sandbox was opened. NULL: 0. */
pid_t sbx_init_pid(const struct sbx *box);

/* The sandbox as a launcher (launcher.h) into *l: each move
 * (launch_move.view: the view it runs in, cwd a path inside it) is a
 * request to box's init, which enters the move's cgroup (acct; NULL: none)
 * and its view, runs argv (argv[0] looked up in PATH) under the move's
 * limits (reap_all is implied: the namespace is swept) with the pipes the
 * referee drains, and answers with its wait status and rusage. A stopped
 * move is killed by the init (SIGUSR1); an init that does not answer within
 * LAUNCH_STOP_GRACE_MS is killed, and with it the sandbox. A launcher
 * failure (-1) is the sandbox's own: the game cannot go on. l owns box from
 * here, whatever this returns: launcher_close closes it. 0, or -1 with e. */
struct launcher;
struct cg_root;
int sbx_launcher(struct launcher *l, struct sbx *box, const struct cg_root *acct, struct err *e);

/* An engine that stays for a game (persist.h) in a sandbox of its own:
 * sbx_spawn starts argv in view `view` as a move would be, in the cgroup
 * whose cgroup.procs files cg names (launcher.h's LAUNCH_CG_FILES of them,
 * -1 past the last), its stdout, stderr
 * and stdin std[0..2] (the caller keeps its copies), and
 * returns once it runs: 0 with *pid its process id as this process sees it
 * (0 if it could not be found), or with *exec_errno when it could not be
 * started (e says why: the engine's failure, not the sandbox's); -1 with e
 * when the sandbox failed. Until the engine's end the box serves nothing
 * else. sbx_wait_fd becomes readable when the engine has ended and every
 * process of it is gone; sbx_stop_run asks the init to kill them now;
 * sbx_collect waits up to wait_ms for the end: 1 with the engine's wait
 * status and rusage, 0 when it has not ended, -1 with e when the init is
 * gone. */
int sbx_spawn(struct sbx *box, int view, char *const argv[], const char *cwd,
              const struct run_limits *limits, const int std[3], const int *cg,
              pid_t *pid, int *exec_errno, struct err *e);
int sbx_wait_fd(const struct sbx *box);
void sbx_stop_run(struct sbx *box);
int sbx_collect(struct sbx *box, int wait_ms, int *status, struct rusage *ru, struct err *e);

/* The move folder of view `view`: a tmpfs of SBX_MOVE_OPTIONS, the
 * engine's own, that the init mounted over views[view].rw in the sandbox
 * (the host's folder stays empty). Returns a descriptor of it open for
 * reading the folder (openat, unlinkat), which the caller now owns; -1 when
 * the view could not be built (its first run says why) or it was taken. The
 * tmpfs goes with the sandbox. */
int sbx_take_move_folder(struct sbx *box, int view);

/* sbx_plan_hides with the plan of box's view `view`. */
int sbx_hidden_path(const struct sbx *box, int view, const char *text, char *path, size_t cap);

/* Kills the init, and with it anything left in the namespaces, and frees
 * box. NULL is fine. In a process forked since box was opened (a worker's
 * copy of its parent's memory) it frees the copy only: the init, its
 * namespaces and everything in them stay the opener's. */
void sbx_close(struct sbx *box);

/* Checks, before the first game, that sandboxes can be made here: opens one
 * without views, whose init sets up its namespaces (a /proc of its own
 * included) and answers. Nothing is left on disk if the referee is killed
 * meanwhile. Returns 0, or -1 with e saying why not and naming --sandbox
 * none. */
int sbx_probe(struct err *e);

#endif
