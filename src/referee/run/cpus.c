/*
 * cpus.c - the CPUs of concurrent games (cpus.h): the referee's CPUs, their
 * split between game slots, a slot's worker held to its share.
 */
#define _GNU_SOURCE
#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "arena/cpus.h"

int cpus_own(cpu_set_t *set, struct err *e)
{
    CPU_ZERO(set);
    if (sched_getaffinity(0, sizeof *set, set) != 0)
        return err_set(e, 0, 0, "sched_getaffinity: %s", strerror(errno));
    return 0;
}

int cpus_format(const cpu_set_t *set, char *buf, size_t cap)
{
    assert(cap > 0);
    size_t used = 0;
    buf[0] = '\0';
    for (int c = 0; c < CPU_SETSIZE; c++) {
        if (!CPU_ISSET(c, set))
            continue;
        int last = c;
        while (last + 1 < CPU_SETSIZE && CPU_ISSET(last + 1, set))
            last++;
        int n = last > c ? snprintf(buf + used, cap - used, "%s%d-%d", used ? "," : "", c, last)
                         : snprintf(buf + used, cap - used, "%s%d", used ? "," : "", c);
        if (n < 0 || (size_t)n >= cap - used)
            return -1;
        used += (size_t)n;
        c = last;
    }
    return 0;
}

void cpus_share(const cpu_set_t *all, int slots, int slot, cpu_set_t *out)
{
    int n = CPU_COUNT(all);
    assert(n >= 1 && slots >= 1 && slot >= 0 && slot < slots);
    /* Slot s takes the CPUs of index [s*n/slots, (s+1)*n/slots) in all's
     * order: runs whose sizes differ by at most one; with more slots than
     * CPUs the run would be empty, and the slot takes the CPU it starts
     * at. */
    int lo = (int)((long)slot * n / slots), hi = (int)((long)(slot + 1) * n / slots);
    if (hi == lo)
        hi = lo + 1;
    CPU_ZERO(out);
    for (int c = 0, i = 0; c < CPU_SETSIZE && i < hi; c++)
        if (CPU_ISSET(c, all) && i++ >= lo)
            CPU_SET(c, out);
}

int cpus_plan(struct cpu_plan *p, int slots, struct cg_root *acct, struct err *why)
{
    assert(slots >= 2);
    memset(p, 0, sizeof *p);
    p->slots = slots;
    if (cpus_own(&p->all, why) != 0)
        return -1;
    if (!acct) {
        err_set(why, 0, 0, "no cgroup for the moves (accounting: process)");
        return 1;
    }
    if (cg_root_cpuset(acct, why) != 0)
        return 1;
    for (int k = 0; k < slots; k++) {
        cpu_set_t mine;
        char list[CG_CPUS_MAX];
        cpus_share(&p->all, slots, k, &mine);
        if (cpus_format(&mine, list, sizeof list) != 0) {
            err_set(why, 0, 0, "a CPU list too long: %.40s...", list);
            return 1;
        }
        if (cg_slot_make(acct, k, list, why) != 0)
            return 1;
    }
    p->acct = acct;
    return 0;
}

int cpus_enter(const struct cpu_plan *p, int slot, struct cg_root *slot_root, struct err *e)
{
    assert(p && p->slots >= 2 && slot >= 0 && slot < p->slots);
    cpu_set_t mine;
    char list[CG_CPUS_MAX];
    cpus_share(&p->all, p->slots, slot, &mine);
    if (cpus_format(&mine, list, sizeof list) != 0)
        return err_set(e, 0, 0, "a CPU list too long: %.40s...", list);
    /* The cgroup first: in a v1 cpuset, entering sets the affinity too. */
    if (p->acct && cg_slot_enter(p->acct, slot, list, slot_root, e) != 0)
        return -1;
    if (sched_setaffinity(0, sizeof mine, &mine) != 0)
        return err_set(e, 0, 0, "game slot %d: cannot run on CPUs %s: %s", slot + 1, list,
                       strerror(errno));
    return p->acct ? 1 : 0;
}
