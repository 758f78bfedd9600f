/*
 * cpus.h - the CPUs of concurrent games: with --concurrency K the CPUs the
 * referee may use are split between K game slots (the worker pool's slots,
 * pool.h), and every process of a game (its worker, its sandbox, its
 * engines and whatever they start) runs on its slot's CPUs only, so that
 * one game's processes cannot take another's time. Both engines of a game
 * share its CPUs: they take turns.
 *
 * The referee's CPUs are those it may run on (sched_getaffinity: what a
 * taskset, a cpuset or a Slurm allocation left it). cpus_share splits them
 * into slots of consecutive CPUs in the order the kernel numbers them: K
 * slots of N CPUs get N/K or N/K + 1 each (K <= N), or one CPU each, slots
 * next to each other sharing one (K > N: --force-concurrency).
 *
 * How a slot is held to its CPUs, chosen once before the first game
 * (cpus_plan) and entered by each game's worker (cpus_enter):
 *   - cpusets (cgroup.h's cg_slot_make, cg_slot_enter), where the moves
 *     have cgroups and the cpuset controller can be had: the kernel holds
 *     every process of the slot to its CPUs, and an engine's
 *     sched_setaffinity only picks among them;
 *   - affinity alone otherwise (no cgroup, or no cpuset for this user):
 *     the worker's CPU mask, which its engines inherit but may widen.
 *
 * Representation: a set is a cpu_set_t (CPU_SETSIZE CPUs); its text is the
 * kernel's list format, "0-3,8". A plan is read-only once made: workers
 * forked after it read their copy.
 */
#ifndef ARENA_CPUS_H
#define ARENA_CPUS_H

#include <sched.h>
#include <stddef.h>
#include "arena/cgroup.h"
#include "arena/err.h"

/* How concurrent games are held to their slots' CPUs. */
struct cpu_plan {
    int slots;                      /* games at once (>= 2) */
    cpu_set_t all;                  /* the referee's CPUs, split between them */
    const struct cg_root *acct;     /* the root whose slot cgroups hold them
                                     * (CG_CPUSET); NULL: affinity alone */
};

/* The CPUs this process may run on, into set. 0, or -1 with e. */
int cpus_own(cpu_set_t *set, struct err *e);

/* set as the kernel writes a CPU list ("0-3,8": runs of two or more CPUs
 * as FIRST-LAST, in order, "" for none) into buf (cap bytes). 0, or -1
 * when it does not fit (buf then holds a cut list). */
int cpus_format(const cpu_set_t *set, char *buf, size_t cap);

/* The CPUs of game slot `slot` of `slots` (0 <= slot < slots) out of all
 * (not empty), into out: the slot's run of consecutive CPUs of all (above).
 * Together the slots use every CPU of all; with slots <= CPU_COUNT(all) no
 * two share one. */
void cpus_share(const cpu_set_t *all, int slots, int slot, cpu_set_t *out);

/* Before the first game of `slots` at once (>= 2), with the moves' cgroup
 * root acct (NULL: none): fills p. Returns 0 when each slot's games will
 * be held to its CPUs by a cpuset (acct's CG_CPUSET set, each slot's
 * cgroup made); 1 with why saying why not, when by affinity alone; -1 with
 * why when this process's CPUs cannot be read (p then holds nothing). */
int cpus_plan(struct cpu_plan *p, int slots, struct cg_root *acct, struct err *why);

/* In the worker of game slot `slot` of p, before it starts anything: holds
 * this process (and so what it starts) to the slot's CPUs: its affinity,
 * and with cpusets the slot's cgroup, slot_root then the root of the
 * slot's moves (cg_slot_enter). Returns 1 with slot_root filled, 0 when p
 * holds by affinity alone (slot_root untouched), -1 with e. */
int cpus_enter(const struct cpu_plan *p, int slot, struct cg_root *slot_root, struct err *e);

#endif
