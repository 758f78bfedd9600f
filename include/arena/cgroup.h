/*
 * cgroup.h - a cgroup per move: the CPU of every process of the move,
 * reaped or not, and limits on the whole tree (launcher.h uses it).
 *
 * A referee finds once, before its first game, where it may make cgroups
 * (cg_root_find): a folder per hierarchy that the moves' cgroups go in.
 *   - cgroup v1 (cpuacct, memory and pids each mounted on its own, as on
 *     this project's CI): the referee's own cgroup of each controller, from
 *     /proc/self/cgroup, which it must be able to write (root, or a subtree
 *     chown'd to its user); and the freezer's likewise where it is mounted
 *     and writable (without it a cgroup cannot be frozen: cg_move_freeze).
 *   - cgroup v2 (one unified hierarchy): as root, <mount>/arena, with the
 *     memory and pids controllers enabled down to it; as another user, the
 *     cgroup systemd delegated to it (/proc/self/cgroup's "0::" line, as
 *     rootless container runtimes find theirs). v2 lets no cgroup with
 *     processes hand controllers to its children, so when the referee is
 *     alone in its cgroup it moves itself into a leaf of it,
 *     arena-referee-PID, first ("systemd-run --user --scope -p
 *     Delegate=yes referee ..." gives it such a cgroup).
 * A move's cgroup is named arena-OWNER-PID-TID-N (OWNER: the process that
 * found the root, the referee's first; PID and TID: the process and thread
 * that runs the move; N: a clock reading that makes it new), unique among
 * the referees and tests running at once; cg_root_sweep removes what a
 * referee whose work was killed left, and cg_root_find what referees killed
 * outright left (their OWNER is gone).
 *
 * A move (cg_move_open .. cg_move_close): the cgroup is made with its
 * memory limit (v1 memory.limit_in_bytes and memsw; v2 memory.max and no
 * swap) and pids.max; the caller's child writes "0" to each of the
 * membership descriptors it is given before exec, which moves it (v1: each
 * hierarchy's tasks file, which moves the writing thread: the child has
 * one; v2: cgroup.procs). The referee opened them: their permission is the
 * referee's, whoever the engine runs as;
 * cg_move_end kills whatever is left in it and reads its usage;
 * cg_move_close removes it.
 *
 * Freezing (cg_move_freeze): an engine that stays for a game (persist.h)
 * is frozen between its moves, every process of it: v1's freezer.state
 * FROZEN and THAWED, v2's cgroup.freeze 1 and 0 (Linux 5.2). A v1 process
 * frozen does not die of SIGKILL until it is thawed, so cg_move_end and the
 * sweeps thaw a cgroup before they kill what it holds.
 *
 * CPU: v2's cpu.stat user_usec and system_usec; v1's cpuacct.usage (exact
 * nanoseconds), split into user and system in the ratio of cpuacct.stat's
 * user to system (which count in scheduler ticks; a move too short for a
 * tick is all user time).
 *
 * CPUs of concurrent games (cpus.h splits them into game slots): the
 * cpuset controller holds every process of a slot's games to the slot's
 * CPUs; an engine's sched_setaffinity cannot widen that (the kernel
 * intersects its mask with the cpuset). v1 (the cpuset hierarchy, mounted
 * on its own): a cgroup per slot, arena-OWNER-slot-K, in the referee's own
 * cpuset cgroup (swept as a move's), made before the first game
 * (cg_slot_make); the slot's worker moves itself in (cg_slot_enter) and
 * whatever it starts, its sandbox and engines, is in it too, since a
 * move's cgroups are in the other hierarchies. v2 (one hierarchy, where a
 * process is in one cgroup): each move's cgroup gets the slot's CPUs as
 * its cpuset.cpus, the cpuset controller enabled for the moves
 * (cg_root_cpuset). Made once per slot in v1 because each change of a v1
 * cpuset's CPUs rebuilds the kernel's scheduling domains; a v2 cpuset
 * that is not a partition does not.
 */
#ifndef ARENA_CGROUP_H
#define ARENA_CGROUP_H

#include <limits.h>
#include "arena/err.h"

enum cg_version { CG_V1 = 1, CG_V2 = 2 };

/* The controllers a root can use (bits of cg_root.has). */
enum { CG_MEMORY = 1, CG_PIDS = 2, CG_FREEZER = 4, CG_CPUSET = 8 };

/* Bytes of a CPU list in the kernel's format ("0-3,8", as cpuset.cpus and
 * Cpus_allowed_list write it): any set of CPU_SETSIZE (1,024) CPUs fits in
 * about 2,000 (every other CPU), with its NUL. */
#define CG_CPUS_MAX 4096

/* Hierarchies of a v1 root: cpuacct, memory, pids (CG_V1_NEEDED, always)
 * and the freezer (where it can be had). */
#define CG_V1_NEEDED 3
#define CG_MAX_DIRS 4

/* Where a referee makes its moves' cgroups. Read-only once found. */
struct cg_root {
    enum cg_version version;
    int n;                          /* v1: CG_V1_NEEDED, or CG_MAX_DIRS with
                                     * the freezer; v2: 1 */
    char dir[CG_MAX_DIRS][PATH_MAX]; /* v1: cpuacct's, memory's, pids',
                                      * freezer's */
    unsigned has;                   /* CG_MEMORY | CG_PIDS | CG_FREEZER
                                     * available */
    long pids_max;                  /* each move's pids.max; 0: none */
    long owner;                     /* the pid that found it (names above) */
    char cpuset[PATH_MAX];          /* v1: the referee's cgroup in the cpuset
                                     * hierarchy, where the slots' cgroups go
                                     * ("": not mounted); cg_root_find's, or
                                     * a test's */
    char cpus[CG_CPUS_MAX];         /* v2: each move's cpuset.cpus ("": its
                                     * parent's CPUs); cg_slot_enter's */
};

/* Finds the root (above) in the hierarchies mounted in this process's
 * mount namespace. With the v1 freezer it keeps an empty cgroup there
 * frozen, arena-OWNER-0-0-warm, until cg_root_sweep (a freeze is 1,500
 * times cheaper while any cgroup is frozen: cgroup.c). Returns 0, or -1
 * with e saying why no cgroup can be had here (no hierarchy, a controller
 * missing, no write permission). */
int cg_root_find(struct cg_root *root, long pids_max, struct err *e);

/* A root at the given folders (tests: a cgroup2 mounted by the test, or a
 * v1 subtree): v1 wants CG_V1_NEEDED folders (cpuacct, memory, pids) and
 * may have a fourth, the freezer's; v2 one whose subtree_control says
 * which controllers the moves get (and which can freeze where its
 * cgroup.freeze is writable). 0, or -1 with e when a folder is missing or
 * not writable. */
int cg_root_at(struct cg_root *root, enum cg_version v, const char *const dir[], int n,
               long pids_max, struct err *e);

/* After every move of root's owner and of its children has ended (their
 * processes killed, e.g. by a guard whose child was killed): kills what is
 * left in root's arena-OWNER-* cgroups and removes them. Returns how many
 * could not be removed. */
int cg_root_sweep(const struct cg_root *root);

/* "cgroup-v1" or "cgroup-v2": the journal's accounting; "process" for
 * NULL. */
const char *cg_root_name(const struct cg_root *root);

/* What a move used. */
struct cg_usage {
    double user_ms, sys_ms;
    long oom_kills;                 /* processes the memory limit killed */
};

/* Whether root can hold moves to CPUs (the cpuset controller): v1, a
 * cpuset hierarchy is mounted and root->cpuset may be written by this
 * user; v2, the cpuset controller is enabled for root's moves (enabled
 * here: as root from the hierarchy's root down; as another user in its
 * delegated cgroup, where it must have been delegated). Sets CG_CPUSET.
 * 0, or -1 with e saying why not. */
int cg_root_cpuset(struct cg_root *root, struct err *e);

/* Before the first game: v1, makes game slot `slot`'s cgroup in the cpuset
 * hierarchy, root->cpuset/arena-OWNER-slot-SLOT, held to cpus (a CPU list
 * in the kernel's format, within the referee's CPUs) and its parent's
 * memory nodes, and checks that the kernel gave it exactly those CPUs; v2,
 * nothing (cg_slot_enter). Needs CG_CPUSET. 0, or -1 with e. */
int cg_slot_make(const struct cg_root *root, int slot, const char *cpus, struct err *e);

/* In the worker of game slot `slot` (a process of its own, before it
 * starts anything): slot_root becomes root for the slot's moves, held to
 * cpus. v1: the calling process moves into the slot's cgroup
 * (cg_slot_make's), and every process it starts is in it; v2: each move's
 * cgroup gets cpus as its cpuset.cpus. Needs CG_CPUSET. 0, or -1 with e. */
int cg_slot_enter(const struct cg_root *root, int slot, const char *cpus,
                  struct cg_root *slot_root, struct err *e);

/* One move's cgroup. */
struct cg_move {
    const struct cg_root *root;     /* NULL: no cgroup (cg_move_none) */
    int n;                          /* folders made */
    char path[CG_MAX_DIRS][PATH_MAX];
    int *procs;                     /* the caller's membership descriptors */
    int nprocs;
    int mem_limited;                /* a memory limit was set */
    struct cg_usage usage;          /* filled by cg_move_end */
    int ended;
    char leftover[ERR_MSG_MAX];     /* cg_move_close's failure */
};

/* A move without a cgroup: procs[0..n) set to -1. */
void cg_move_none(struct cg_move *m, int *procs, int n);

/* Makes the move's cgroup under root with a memory limit of mem_limit_mb
 * (0: none) and root's pids_max, and opens its membership files into
 * procs (n >= root->n; the rest -1). 0, or -1 with e and nothing left. */
int cg_move_open(const struct cg_root *root, long mem_limit_mb, struct cg_move *m, int *procs,
                 int n, struct err *e);

/* The CPU (user + system, ms) the move's processes used so far; 0 for a
 * move without a cgroup. */
double cg_move_cpu_ms(const struct cg_move *m);

/* How long the move's threads alive now have waited for a CPU (runnable
 * but not running: the machine was busy), ms, from /proc/TID/schedstat; -1
 * for a move without a cgroup. */
double cg_move_wait_ms(const struct cg_move *m);

/* Freezes (frozen 1) or thaws (0) every process of the move. The kernel
 * stops them asynchronously, within about a scheduler tick of the write.
 * 0 (also for a move without a cgroup or a root without CG_FREEZER, where
 * nothing is done), or -1 with errno. */
int cg_move_freeze(const struct cg_move *m, int frozen);

/* Whether root's moves can be frozen (CG_FREEZER). */
int cg_root_can_freeze(const struct cg_root *root);

/* Once the move's leader is gone: thaws it, kills every process left in the cgroup,
 * waits until it is empty and reads the usage. 0, or -1 with e. */
int cg_move_end(struct cg_move *m, struct err *e);

/* The usage cg_move_end read: 0, or -1 when there is none (no cgroup, or
 * not ended). */
int cg_move_usage(const struct cg_move *m, struct cg_usage *u);

/* Closes the descriptors and removes the cgroup. 0, or -1 with m->leftover
 * naming the folder that could not be removed. No-op without a cgroup. */
int cg_move_close(struct cg_move *m);

#endif
