/*
 * test_cpus.c - the CPUs of concurrent games (cpus.h): a set is written as
 * the kernel writes a CPU list; N CPUs split among K game slots give each
 * slot a run of consecutive CPUs, the runs' sizes apart by at most one,
 * together every CPU and, with no more slots than CPUs, no CPU twice; a
 * slot's worker runs on its share alone; without a cgroup the plan says it
 * holds games by affinity alone. (The cpusets themselves: test_cgroup.c.)
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "arena/cpus.h"

#define END -1
#define MAX_LISTED 16

/* A set from CPU numbers up to END. */
static cpu_set_t set_of(const int *cpu)
{
    cpu_set_t s;
    CPU_ZERO(&s);
    for (int i = 0; i < MAX_LISTED && cpu[i] != END; i++)
        CPU_SET(cpu[i], &s);
    return s;
}

static void text_of(const cpu_set_t *s, char *buf, size_t cap)
{
    cr_assert_eq(cpus_format(s, buf, cap), 0, "a list does not fit in %zu bytes", cap);
}

struct format_case {
    int cpu[MAX_LISTED];
    char want[48];
};

ParameterizedTestParameters(cpus, format_writes_a_list_as_the_kernel_does)
{
    static struct format_case cases[] = {
        { { END }, "" },
        { { 0, END }, "0" },
        { { 0, 1, END }, "0-1" },
        { { 0, 1, 2, 3, 8, END }, "0-3,8" },
        { { 0, 2, 4, 5, 6, END }, "0,2,4-6" },
        { { 7, 9, 10, END }, "7,9-10" },
        { { 63, 64, 1023, END }, "63-64,1023" },
    };
    return cr_make_param_array(struct format_case, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct format_case *c, cpus, format_writes_a_list_as_the_kernel_does)
{
    cpu_set_t s = set_of(c->cpu);
    char got[64];
    text_of(&s, got, sizeof got);
    cr_assert_str_eq(got, c->want);
}

Test(cpus, format_refuses_a_buffer_too_small)
{
    cpu_set_t s = set_of((int[]){ 0, 1, 2, 3, 8, END });
    char got[6];
    cr_assert_eq(cpus_format(&s, got, 5), -1, "\"0-3,8\" in 5 bytes: %s", got);
    cr_assert_eq(cpus_format(&s, got, sizeof got), 0);
    cr_assert_str_eq(got, "0-3,8");
}

struct share_case {
    int all[MAX_LISTED];
    int slots, slot;
    char want[48];
};

ParameterizedTestParameters(cpus, share_gives_a_slot_its_run_of_cpus)
{
    static struct share_case cases[] = {
        /* one slot: every CPU */
        { { 0, 1, 2, 3, END }, 1, 0, "0-3" },
        /* as many slots as CPUs: one each */
        { { 0, 1, END }, 2, 0, "0" },
        { { 0, 1, END }, 2, 1, "1" },
        /* fewer slots: runs, sizes apart by at most one */
        { { 0, 1, 2, 3, 4, 5, 6, 7, END }, 2, 1, "4-7" },
        { { 0, 1, 2, 3, 4, 5, 6, 7, END }, 3, 0, "0-1" },
        { { 0, 1, 2, 3, 4, 5, 6, 7, END }, 3, 1, "2-4" },
        { { 0, 1, 2, 3, 4, 5, 6, 7, END }, 3, 2, "5-7" },
        { { 0, 1, 2, 3, 4, END }, 2, 0, "0-1" },
        { { 0, 1, 2, 3, 4, END }, 2, 1, "2-4" },
        /* the referee's own CPUs, not 0..N-1: a taskset, a cpuset */
        { { 0, 2, 4, 6, END }, 2, 0, "0,2" },
        { { 0, 2, 4, 6, END }, 2, 1, "4,6" },
        { { 0, 1, 2, 3, 8, END }, 2, 1, "2-3,8" },
        { { 5, 9, END }, 2, 1, "9" },
        /* more slots than CPUs (--force-concurrency): one CPU each, slots
         * next to each other sharing it */
        { { 0, 1, END }, 3, 0, "0" },
        { { 0, 1, END }, 3, 1, "0" },
        { { 0, 1, END }, 3, 2, "1" },
        { { 3, END }, 4, 3, "3" },
    };
    return cr_make_param_array(struct share_case, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct share_case *c, cpus, share_gives_a_slot_its_run_of_cpus)
{
    cpu_set_t all = set_of(c->all), mine;
    char all_text[64], got[64];
    text_of(&all, all_text, sizeof all_text);
    cpus_share(&all, c->slots, c->slot, &mine);
    text_of(&mine, got, sizeof got);
    cr_assert_str_eq(got, c->want, "slot %d of %d on CPUs %s: %s, want %s", c->slot, c->slots,
                     all_text, got, c->want);
}

/* Every split of 1 to 12 CPUs (dense and every other one) among 1 to 16
 * slots: each slot has CPUs of all only, together they are all of it;
 * with no more slots than CPUs they are disjoint and their sizes apart by
 * at most one, with more each has exactly one. */
Test(cpus, every_split_uses_every_cpu_and_keeps_slots_apart)
{
    for (int stride = 1; stride <= 2; stride++)
        for (int n = 1; n <= 12; n++)
            for (int k = 1; k <= 16; k++) {
                cpu_set_t all, seen, mine, both;
                CPU_ZERO(&all);
                CPU_ZERO(&seen);
                for (int i = 0; i < n; i++)
                    CPU_SET(i * stride, &all);
                int least = n, most = 0;
                for (int s = 0; s < k; s++) {
                    cpus_share(&all, k, s, &mine);
                    int size = CPU_COUNT(&mine);
                    CPU_AND(&both, &mine, &seen);
                    cr_assert(k > n || CPU_COUNT(&both) == 0,
                              "%d CPUs (every %d), %d slots: slot %d shares a CPU", n, stride, k,
                              s);
                    CPU_AND(&both, &mine, &all);
                    cr_assert(CPU_EQUAL(&both, &mine), "%d CPUs, %d slots: slot %d leaves them",
                              n, k, s);
                    CPU_OR(&seen, &seen, &mine);
                    least = size < least ? size : least;
                    most = size > most ? size : most;
                }
                cr_assert(CPU_EQUAL(&seen, &all), "%d CPUs (every %d), %d slots: a CPU unused",
                          n, stride, k);
                cr_assert(k > n ? least == 1 && most == 1 : most - least <= 1,
                          "%d CPUs, %d slots: slots of %d to %d CPUs", n, k, least, most);
            }
}

/* Where no cgroup can be had the plan still splits the CPUs, and says it
 * holds the games by affinity alone. */
Test(cpus, without_a_cgroup_the_plan_holds_by_affinity_alone)
{
    struct cpu_plan p;
    struct err why;
    cpu_set_t own;
    cr_assert_eq(cpus_own(&own, &why), 0, "%s", why.msg);
    cr_assert_eq(cpus_plan(&p, 3, NULL, &why), 1);
    cr_assert_str_eq(why.msg, "no cgroup for the moves (accounting: process)");
    cr_assert_eq(p.slots, 3);
    cr_assert_null(p.acct);
    cr_assert(CPU_EQUAL(&p.all, &own), "the plan's CPUs are not this process's");
}

/* A slot's worker (here a child) runs on its slot's CPUs only, as each of
 * its children does. */
Test(cpus, a_slot_s_worker_runs_on_its_share_alone)
{
    struct cpu_plan p = { .slots = 2 };
    struct err e;
    cr_assert_eq(cpus_own(&p.all, &e), 0, "%s", e.msg);
    if (CPU_COUNT(&p.all) < 2)
        cr_skip_test("needs two CPUs");
    for (int slot = 0; slot < 2; slot++) {
        pid_t pid = fork();
        cr_assert(pid >= 0);
        if (pid == 0) {
            cpu_set_t want, got;
            if (cpus_enter(&p, slot, NULL, &e) != 0)
                _exit(2);
            cpus_share(&p.all, 2, slot, &want);
            _exit(sched_getaffinity(0, sizeof got, &got) == 0 && CPU_EQUAL(&got, &want) ? 0 : 1);
        }
        int status;
        cr_assert_eq(waitpid(pid, &status, 0), pid);
        cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0,
                  "slot %d: status %d (1: another affinity, 2: cpus_enter failed)", slot, status);
    }
}
