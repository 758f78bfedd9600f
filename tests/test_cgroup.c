/*
 * test_cgroup.c - a move's cgroup (cgroup.h) on both hierarchies: cgroup v1
 * (cpuacct, memory and pids under /sys/fs/cgroup, as on this project's
 * machines) and cgroup v2 (a cgroup2 hierarchy the test mounts on a folder
 * of its own; on a machine whose controllers are bound to v1 it has none,
 * so the v2 case checks the accounting, the kill and the removal, and the
 * limits only where the controllers are there). Each case makes the test's
 * own parent cgroup under this process's, runs a child that enters the
 * move's cgroup through the descriptors cg_move_open gives, and checks what
 * the cgroup billed, that the limits are written, that what is left running
 * is killed, that a frozen cgroup's processes get no CPU until thawed (and
 * still die when it ends frozen), and that nothing is left. Needs root
 * (skipped otherwise); the v1 freezer where it is mounted. The CPUs of
 * game slots: a slot's v1 cpuset holds the processes in it to its CPUs,
 * sched_setaffinity notwithstanding; where none can be had the reason is
 * named (v1 unmounted or not writable, a cgroup2 without the controller).
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "arena/cgroup.h"
#include "arena/cpus.h"

#define V1_MOUNT "/sys/fs/cgroup"
#define PIDS_MAX 7
#define MEM_MB 64
#define BURN_MS 150.0
/* The child's own start and exit: a fork, the writes, the exit. */
#define BILL_SLACK_MS 40.0

/* How long the freeze case watches a spinning child, frozen and thawed. */
#define WATCH_MS 300
/* What a frozen child may still get: what it ran before the kernel stopped
 * it (a tick or so after the write). */
#define FROZEN_SLACK_MS 20.0
/* What a thawed child gets at least in WATCH_MS on a busy machine of two
 * cores (a tenth of a core). */
#define THAWED_MIN_MS 30.0

static const char *const v1_ctrl[CG_MAX_DIRS] = { "cpuacct", "memory", "pids", "freezer" };

/* The test's parent cgroups and, for v2, the mount. */
struct fixture {
    enum cg_version v;
    char mnt[PATH_MAX];
    char dir[CG_MAX_DIRS][PATH_MAX + 64];
    int n;
};

/* This process's cgroup in the v1 hierarchy ctrl ("" at the root). */
static void own_v1(const char *ctrl, char *out, size_t cap)
{
    FILE *f = fopen("/proc/self/cgroup", "r");
    char line[PATH_MAX + 64];
    out[0] = '\0';
    while (f && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
        if (c2 && (*c2 = '\0', strcmp(c1 + 1, ctrl) == 0) && strcmp(c2 + 1, "/") != 0)
            snprintf(out, cap, "%s", c2 + 1);
    }
    if (f)
        fclose(f);
}

static void fixture_open(struct fixture *fx, enum cg_version v)
{
    memset(fx, 0, sizeof *fx);
    fx->v = v;
    if (geteuid() != 0)
        cr_skip_test("needs root");
    if (v == CG_V1) {
        for (int i = 0; i < CG_MAX_DIRS; i++) {
            char own[PATH_MAX], probe[PATH_MAX + 32];
            snprintf(probe, sizeof probe, V1_MOUNT "/%s/cgroup.procs", v1_ctrl[i]);
            if (access(probe, W_OK) != 0 && i >= CG_V1_NEEDED)
                break;   /* no freezer: a root that cannot freeze */
            if (access(probe, W_OK) != 0)
                cr_skip_test("no cgroup v1 %s at " V1_MOUNT, v1_ctrl[i]);
            own_v1(v1_ctrl[i], own, sizeof own);
            snprintf(fx->dir[i], sizeof fx->dir[i], V1_MOUNT "/%s%.2000s/unit-cg-%ld", v1_ctrl[i],
                     own, (long)getpid());
            fx->n = i + 1;
        }
    } else {
        snprintf(fx->mnt, sizeof fx->mnt, "/tmp/unit-cg2-%ld", (long)getpid());
        cr_assert(mkdir(fx->mnt, 0700) == 0 || errno == EEXIST);
        if (mount("none", fx->mnt, "cgroup2", 0, NULL) != 0) {
            rmdir(fx->mnt);
            cr_skip_test("cannot mount cgroup2: %s", strerror(errno));
        }
        snprintf(fx->dir[0], sizeof fx->dir[0], "%s/unit-cg-%ld", fx->mnt, (long)getpid());
        fx->n = 1;
    }
    for (int i = 0; i < fx->n; i++)
        cr_assert(mkdir(fx->dir[i], 0755) == 0, "mkdir %s: %s", fx->dir[i], strerror(errno));
}

static void fixture_close(struct fixture *fx)
{
    for (int i = 0; i < fx->n; i++)
        cr_assert_eq(rmdir(fx->dir[i]), 0, "rmdir %s: %s (a move's cgroup left?)", fx->dir[i],
                     strerror(errno));
    if (fx->mnt[0]) {
        umount2(fx->mnt, MNT_DETACH);
        rmdir(fx->mnt);
    }
}

static void fixture_root(const struct fixture *fx, struct cg_root *root)
{
    const char *d[CG_MAX_DIRS] = { fx->dir[0], fx->dir[1], fx->dir[2], fx->dir[3] };
    struct err e;
    cr_assert_eq(cg_root_at(root, fx->v, d, fx->n, PIDS_MAX, &e), 0, "%s", e.msg);
}

static double cpu_ms_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* A child that enters the move's cgroup (procs), then does what: burn
 * BURN_MS, touch bytes of memory, leave a sleeping grandchild, or spin
 * until it is killed. */
enum job { BURN, EAT, LEAVE_SLEEPER, SPIN };

static pid_t start_child(const int *procs, enum job job, long bytes)
{
    pid_t pid = fork();
    cr_assert(pid >= 0);
    if (pid)
        return pid;
    for (int i = 0; i < CG_MAX_DIRS; i++)
        if (procs[i] >= 0 && write(procs[i], "0", 1) != 1)
            _exit(10);
    if (job == BURN) {
        /* In a grandchild it never reaps: the cgroup bills it anyway. */
        if (fork() == 0) {
            double end = cpu_ms_now() + BURN_MS;
            while (cpu_ms_now() < end)
                ;
            _exit(0);
        }
        siginfo_t info;
        waitid(P_ALL, 0, &info, WEXITED | WNOWAIT);
    } else if (job == SPIN) {
        for (volatile unsigned long n = 0;; n++)
            ;
    } else if (job == EAT) {
        char *p = malloc((size_t)bytes);
        for (long i = 0; p && i < bytes; i += 4096)
            p[i] = 1;
    } else if (fork() == 0) {
        execlp("sleep", "sleep", "100", (char *)NULL);
        _exit(127);
    }
    _exit(0);
}

static int child_status(pid_t pid)
{
    int status;
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    return status;
}

/* Whether path exists. */
static int exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

static long read_number(const char *dir, const char *name)
{
    char path[PATH_MAX * 2], buf[64] = "";
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f, "cannot open %s", path);
    cr_assert_not_null(fgets(buf, sizeof buf, f));
    fclose(f);
    return atol(buf);
}

ParameterizedTestParameters(cgroup, bills_limits_kills_and_removes)
{
    static enum cg_version v[] = { CG_V1, CG_V2 };
    return cr_make_param_array(enum cg_version, v, 2);
}

ParameterizedTest(enum cg_version *v, cgroup, bills_limits_kills_and_removes, .timeout = 60)
{
    struct fixture fx;
    fixture_open(&fx, *v);
    struct cg_root root;
    fixture_root(&fx, &root);
    struct cg_move m;
    int procs[CG_MAX_DIRS];
    struct err e;
    cr_assert_eq(cg_move_open(&root, MEM_MB, &m, procs, CG_MAX_DIRS, &e), 0, "%s", e.msg);
    cr_assert_eq(m.n, fx.n);
    for (int i = 0; i < fx.n; i++)
        cr_assert(exists(m.path[i]) && strncmp(m.path[i], fx.dir[i], strlen(fx.dir[i])) == 0,
                  "v%d: %s", *v, m.path[i]);
    const char *mem_dir = *v == CG_V1 ? m.path[1] : m.path[0];
    const char *pids_dir = *v == CG_V1 ? m.path[2] : m.path[0];
    if (root.has & CG_MEMORY)
        cr_assert_eq(read_number(mem_dir, *v == CG_V1 ? "memory.limit_in_bytes" : "memory.max"),
                     (long)MEM_MB << 20);
    if (root.has & CG_PIDS)
        cr_assert_eq(read_number(pids_dir, "pids.max"), PIDS_MAX);

    cr_assert_eq(child_status(start_child(procs, BURN, 0)), 0);
    double now = cg_move_cpu_ms(&m);
    cr_assert(now >= BURN_MS && now <= BURN_MS + BILL_SLACK_MS, "v%d: %.1f ms so far", *v, now);
    cr_assert_eq(child_status(start_child(procs, LEAVE_SLEEPER, 0)), 0);
    cr_assert_eq(cg_move_end(&m, &e), 0, "%s", e.msg);
    struct cg_usage u;
    cr_assert_eq(cg_move_usage(&m, &u), 0);
    cr_assert(u.user_ms + u.sys_ms >= BURN_MS && u.user_ms + u.sys_ms <= BURN_MS + BILL_SLACK_MS,
              "v%d: billed %.1f + %.1f ms for %.0f", *v, u.user_ms, u.sys_ms, BURN_MS);
    cr_assert_eq(u.oom_kills, 0);
    char paths[CG_MAX_DIRS][PATH_MAX];
    for (int i = 0; i < fx.n; i++)
        snprintf(paths[i], PATH_MAX, "%s", m.path[i]);
    cr_assert_eq(cg_move_close(&m), 0, "%s", m.leftover);
    for (int i = 0; i < fx.n; i++)
        cr_assert(!exists(paths[i]), "v%d: %s left", *v, paths[i]);
    for (int i = 0; i < CG_MAX_DIRS; i++)
        cr_assert_eq(procs[i], -1);
    fixture_close(&fx);
}

ParameterizedTestParameters(cgroup, memory_limit_kills_the_tree)
{
    static enum cg_version v[] = { CG_V1, CG_V2 };
    return cr_make_param_array(enum cg_version, v, 2);
}

/* Past the memory limit the kernel kills in the cgroup, and the usage
 * says so: where the memory controller is there (v1 here). */
ParameterizedTest(enum cg_version *v, cgroup, memory_limit_kills_the_tree, .timeout = 60)
{
    struct fixture fx;
    fixture_open(&fx, *v);
    struct cg_root root;
    fixture_root(&fx, &root);
    if (!(root.has & CG_MEMORY)) {
        fixture_close(&fx);
        cr_skip_test("no memory controller in the v%d hierarchy here", *v);
    }
    struct cg_move m;
    int procs[CG_MAX_DIRS];
    struct err e;
    cr_assert_eq(cg_move_open(&root, MEM_MB, &m, procs, CG_MAX_DIRS, &e), 0, "%s", e.msg);
    int status = child_status(start_child(procs, EAT, 2L * MEM_MB << 20));
    cr_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL, "v%d: status %d", *v, status);
    cr_assert_eq(cg_move_end(&m, &e), 0, "%s", e.msg);
    struct cg_usage u;
    cr_assert_eq(cg_move_usage(&m, &u), 0);
    cr_assert(u.oom_kills >= 1, "v%d: %ld OOM kills", *v, u.oom_kills);
    cr_assert_eq(cg_move_close(&m), 0, "%s", m.leftover);
    fixture_close(&fx);
}

ParameterizedTestParameters(cgroup, a_frozen_move_gets_no_cpu_until_thawed)
{
    static enum cg_version v[] = { CG_V1, CG_V2 };
    return cr_make_param_array(enum cg_version, v, 2);
}

static void sleep_ms(long ms)
{
    struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

/* A spinning child: frozen it gets no CPU, thawed it does, frozen again
 * cg_move_end still kills it (v1 lets a frozen process die only once
 * thawed) and the cgroup goes. */
ParameterizedTest(enum cg_version *v, cgroup, a_frozen_move_gets_no_cpu_until_thawed,
                  .timeout = 60)
{
    struct fixture fx;
    fixture_open(&fx, *v);
    struct cg_root root;
    fixture_root(&fx, &root);
    if (!cg_root_can_freeze(&root)) {
        fixture_close(&fx);
        cr_skip_test("no freezer in the v%d hierarchy here", *v);
    }
    struct cg_move m;
    int procs[CG_MAX_DIRS];
    struct err e;
    cr_assert_eq(cg_move_open(&root, 0, &m, procs, CG_MAX_DIRS, &e), 0, "%s", e.msg);
    pid_t spinner = start_child(procs, SPIN, 0);
    sleep_ms(WATCH_MS / 10);   /* in its cgroup by now */
    cr_assert_eq(cg_move_freeze(&m, 1), 0, "v%d: freeze: %s", *v, strerror(errno));
    sleep_ms(WATCH_MS / 10);
    double before = cg_move_cpu_ms(&m);
    sleep_ms(WATCH_MS);
    double frozen = cg_move_cpu_ms(&m) - before;
    cr_assert(frozen <= FROZEN_SLACK_MS, "v%d: frozen, it got %.1f ms of CPU in %d ms", *v,
              frozen, WATCH_MS);
    cr_assert_eq(cg_move_freeze(&m, 0), 0, "v%d: thaw: %s", *v, strerror(errno));
    before = cg_move_cpu_ms(&m);
    sleep_ms(WATCH_MS);
    double thawed = cg_move_cpu_ms(&m) - before;
    cr_assert(thawed >= THAWED_MIN_MS, "v%d: thawed, it got %.1f ms of CPU in %d ms", *v,
              thawed, WATCH_MS);
    cr_assert_eq(cg_move_freeze(&m, 1), 0, "v%d: freeze: %s", *v, strerror(errno));
    cr_assert_eq(cg_move_end(&m, &e), 0, "v%d: %s", *v, e.msg);
    int status = child_status(spinner);
    cr_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL, "v%d: status %d", *v, status);
    cr_assert_eq(cg_move_close(&m), 0, "%s", m.leftover);
    fixture_close(&fx);
}

Test(cgroup, a_missing_folder_is_named)
{
    const char *d[] = { "/nonexistent/arena" };
    struct cg_root root;
    struct err e;
    cr_assert_eq(cg_root_at(&root, CG_V2, d, 1, PIDS_MAX, &e), -1);
    cr_assert_str_eq(e.msg, "cannot make cgroups in /nonexistent/arena: No such file or directory");
    cr_assert_eq(cg_root_at(&root, CG_V1, d, 1, PIDS_MAX, &e), -1);
    cr_assert_str_eq(e.msg, "a cgroup v1 root has 3 folders, not 1");
}

Test(cgroup, names_the_accounting)
{
    struct cg_root v1 = { .version = CG_V1 }, v2 = { .version = CG_V2 };
    cr_assert_str_eq(cg_root_name(&v1), "cgroup-v1");
    cr_assert_str_eq(cg_root_name(&v2), "cgroup-v2");
    cr_assert_str_eq(cg_root_name(NULL), "process");
}

/* Where only cgroup2 is mounted (here: the v1 hierarchies unmounted in a
 * mount namespace of the test's own), cg_root_find takes the v2 path: as
 * root, <mount>/arena with the memory and pids controllers, which a
 * hierarchy whose controllers are bound to v1 cannot give: the message
 * names the folder and the cause, and nothing is made. */
Test(cgroup, finds_cgroup2_when_v1_is_absent)
{
    char line[PATH_MAX * 2], v2[PATH_MAX] = "";
    if (geteuid() != 0)
        cr_skip_test("needs root");
    cr_assert_eq(unshare(CLONE_NEWNS), 0, "unshare: %s", strerror(errno));
    cr_assert_eq(mount("none", "/", NULL, MS_REC | MS_PRIVATE, NULL), 0);
    for (int i = 0; i < CG_MAX_DIRS; i++) {
        snprintf(line, sizeof line, V1_MOUNT "/%s", v1_ctrl[i]);
        umount2(line, MNT_DETACH);
    }
    FILE *f = fopen("/proc/self/mountinfo", "r");
    while (f && fgets(line, sizeof line, f))
        if (strstr(line, " - cgroup2 ") && !v2[0])
            sscanf(line, "%*s %*s %*s %*s %4095s", v2);
    if (f)
        fclose(f);
    if (!v2[0])
        cr_skip_test("no cgroup2 hierarchy mounted");
    char controllers[256] = "";
    snprintf(line, sizeof line, "%s/cgroup.controllers", v2);
    f = fopen(line, "r");
    if (f && fgets(controllers, sizeof controllers, f) && strstr(controllers, "memory"))
        cr_skip_test("cgroup2 at %s has the memory controller: not this case", v2);
    if (f)
        fclose(f);
    struct cg_root root;
    struct err e;
    cr_assert_eq(cg_root_find(&root, PIDS_MAX, &e), -1, "found %s", root.dir[0]);
    char want[PATH_MAX * 2];
    snprintf(want, sizeof want,
             "cgroup v2 %s/arena: cannot enable the memory and pids controllers at the root: ", v2);
    cr_assert(strncmp(e.msg, want, strlen(want)) == 0, "%s", e.msg);
    snprintf(line, sizeof line, "%s/arena", v2);
    cr_assert(!exists(line), "%s was made", line);
}

/* What a killed referee left: its own arena-OWNER-* cgroups (a process
 * still in one) go, another referee's stay. */
Test(cgroup, sweep_removes_the_owners_leftovers_only, .timeout = 60)
{
    struct fixture fx;
    fixture_open(&fx, CG_V1);
    struct cg_root root;
    fixture_root(&fx, &root);
    struct cg_move m;
    int procs[CG_MAX_DIRS];
    struct err e;
    cr_assert_eq(cg_move_open(&root, MEM_MB, &m, procs, CG_MAX_DIRS, &e), 0, "%s", e.msg);
    cr_assert_eq(child_status(start_child(procs, LEAVE_SLEEPER, 0)), 0);
    char other[CG_MAX_DIRS][PATH_MAX * 2];
    for (int i = 0; i < fx.n; i++) {
        snprintf(other[i], sizeof other[i], "%s/arena-%ld-1-1-1", fx.dir[i], root.owner + 1);
        cr_assert_eq(mkdir(other[i], 0755), 0);
    }
    for (int i = 0; i < fx.n; i++)
        close(procs[i]);
    cr_assert_eq(cg_root_sweep(&root), 0);
    for (int i = 0; i < fx.n; i++) {
        cr_assert(!exists(m.path[i]), "%s left", m.path[i]);
        cr_assert(exists(other[i]), "%s removed", other[i]);
        cr_assert_eq(rmdir(other[i]), 0);
    }
    fixture_close(&fx);
}

/* A referee killed outright leaves its moves' cgroups (and, v1, its game
 * slots' cpusets): the next cg_root_find removes those whose owner is gone
 * and keeps a live referee's. */
Test(cgroup, find_removes_what_dead_referees_left, .timeout = 60)
{
    struct cg_root root;
    struct err e;
    if (geteuid() != 0 || cg_root_find(&root, PIDS_MAX, &e) != 0)
        cr_skip_test("needs root and a cgroup hierarchy: %s", e.msg);
    pid_t dead = fork();
    if (dead == 0)
        _exit(0);
    child_status(dead);
    const char *folder[CG_MAX_DIRS + 1];
    int n = 0;
    for (int i = 0; i < root.n; i++)
        folder[n++] = root.dir[i];
    if (root.version == CG_V1 && root.cpuset[0])
        folder[n++] = root.cpuset;   /* a slot's cpuset, made empty here */
    char gone[CG_MAX_DIRS + 1][PATH_MAX * 2], live[CG_MAX_DIRS + 1][PATH_MAX * 2];
    for (int i = 0; i < n; i++) {
        snprintf(gone[i], sizeof gone[i], "%s/arena-%ld-1-1-1", folder[i], (long)dead);
        snprintf(live[i], sizeof live[i], "%s/arena-%ld-1-1-1", folder[i], (long)getpid());
        cr_assert_eq(mkdir(gone[i], 0755), 0, "%s: %s", gone[i], strerror(errno));
        cr_assert_eq(mkdir(live[i], 0755), 0, "%s: %s", live[i], strerror(errno));
    }
    cr_assert_eq(cg_root_find(&root, PIDS_MAX, &e), 0, "%s", e.msg);
    for (int i = 0; i < n; i++) {
        cr_assert(!exists(gone[i]), "%s left", gone[i]);
        cr_assert(exists(live[i]), "%s removed", live[i]);
        cr_assert_eq(rmdir(live[i]), 0);
    }
    cr_assert_eq(cg_root_sweep(&root), 0, "its frozen cgroup stays");
}

/* cgroup v1: cg_root_find names the referee's own cpuset cgroup, where
 * its game slots' cgroups would go. */
Test(cgroup, find_names_the_cpuset_folder_of_v1)
{
    struct cg_root root;
    struct err e;
    if (geteuid() != 0 || cg_root_find(&root, PIDS_MAX, &e) != 0 || root.version != CG_V1 ||
        access(V1_MOUNT "/cpuset/cgroup.procs", F_OK) != 0)
        cr_skip_test("needs root and cgroup v1 with its cpuset at " V1_MOUNT "/cpuset");
    char own[PATH_MAX], want[PATH_MAX * 2];
    own_v1("cpuset", own, sizeof own);
    snprintf(want, sizeof want, V1_MOUNT "/cpuset%s", own);
    cr_assert_str_eq(root.cpuset, want);
    cr_assert_eq(root.has & CG_CPUSET, 0, "asked for only by games at once (cg_root_cpuset)");
    cr_assert_eq(cg_root_sweep(&root), 0);
}

/* --- the CPUs of game slots (cpuset) --------------------------------------- */

/* The test's own cgroup in the v1 cpuset hierarchy, under this process's,
 * with its parent's CPUs and memory nodes (a v1 cpuset takes no process
 * without them): where a referee's slots would go. "" when there is none. */
static void cpuset_dir(char *dir, size_t cap)
{
    char own[PATH_MAX], probe[PATH_MAX + 32];
    snprintf(probe, sizeof probe, V1_MOUNT "/cpuset/cgroup.procs");
    dir[0] = '\0';
    if (geteuid() != 0 || access(probe, W_OK) != 0)
        return;
    own_v1("cpuset", own, sizeof own);
    snprintf(dir, cap, V1_MOUNT "/cpuset%.2000s/unit-cpus-%ld", own, (long)getpid());
    cr_assert(mkdir(dir, 0755) == 0, "mkdir %s: %s", dir, strerror(errno));
    static const char *const file[] = { "cpuset.cpus", "cpuset.mems" };
    for (int k = 0; k < 2; k++) {
        char from[PATH_MAX * 2], to[PATH_MAX * 2], value[CG_CPUS_MAX] = "";
        snprintf(from, sizeof from, "%s/../%s", dir, file[k]);
        snprintf(to, sizeof to, "%s/%s", dir, file[k]);
        FILE *f = fopen(from, "r");
        cr_assert(f && fgets(value, sizeof value, f), "cannot read %s", from);
        fclose(f);
        f = fopen(to, "w");
        cr_assert(f && fputs(value, f) >= 0 && fclose(f) == 0, "cannot write %s", to);
    }
}

/* The first line of dir/name, without its line end ("" when empty). */
static void first_line(const char *dir, const char *name, char *buf, size_t cap)
{
    char path[PATH_MAX * 2];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f, "cannot open %s", path);
    if (!fgets(buf, (int)cap, f))
        buf[0] = '\0';
    fclose(f);
    buf[strcspn(buf, "\n")] = '\0';
}

/* A child entering slot `slot`'s cgroup, then widening its affinity (and a
 * grandchild's) to every CPU: exits 0 when both still run on want alone. */
static pid_t enter_and_widen(const struct cg_root *root, int slot, const char *list,
                             const cpu_set_t *every, const cpu_set_t *want)
{
    pid_t pid = fork();
    cr_assert(pid >= 0);
    if (pid)
        return pid;
    struct cg_root *mine = malloc(sizeof *mine);
    struct err e;
    if (!mine || cg_slot_enter(root, slot, list, mine, &e) != 0)
        _exit(2);
    pid_t grandchild = fork();
    cpu_set_t got;
    sched_setaffinity(0, sizeof *every, every);   /* may only pick among the slot's */
    int ok = sched_getaffinity(0, sizeof got, &got) == 0 && CPU_EQUAL(&got, want);
    if (grandchild == 0)
        _exit(ok ? 0 : 1);
    int status = -1;
    waitpid(grandchild, &status, 0);
    _exit(ok && WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1);
}

/* v1: each slot's cgroup has exactly its CPUs; a process that enters one,
 * and what it starts, run there alone even after widening their affinity;
 * the sweep removes the slots' cgroups. */
Test(cgroup, a_slot_cpuset_holds_its_processes_against_setaffinity, .timeout = 60)
{
    struct fixture fx;
    fixture_open(&fx, CG_V1);
    char dir[PATH_MAX];
    cpuset_dir(dir, sizeof dir);
    cpu_set_t every;
    struct err e;
    cr_assert_eq(cpus_own(&every, &e), 0, "%s", e.msg);
    if (!dir[0] || CPU_COUNT(&every) < 2) {
        if (dir[0])
            rmdir(dir);
        fixture_close(&fx);
        cr_skip_test("needs the cgroup v1 cpuset at " V1_MOUNT "/cpuset and two CPUs");
    }
    struct cg_root root;
    fixture_root(&fx, &root);
    snprintf(root.cpuset, sizeof root.cpuset, "%s", dir);
    cr_assert_eq(cg_root_cpuset(&root, &e), 0, "%s", e.msg);
    cr_assert(root.has & CG_CPUSET);
    char list[2][CG_CPUS_MAX], slot_dir[2][PATH_MAX * 2], got[CG_CPUS_MAX];
    cpu_set_t share[2];
    for (int k = 0; k < 2; k++) {
        cpus_share(&every, 2, k, &share[k]);
        cr_assert_eq(cpus_format(&share[k], list[k], sizeof list[k]), 0);
        cr_assert_eq(cg_slot_make(&root, k, list[k], &e), 0, "%s", e.msg);
        snprintf(slot_dir[k], sizeof slot_dir[k], "%s/arena-%ld-slot-%d", dir, root.owner, k);
        first_line(slot_dir[k], "cpuset.effective_cpus", got, sizeof got);
        cr_assert_str_eq(got, list[k], "slot %d", k);
    }
    for (int k = 0; k < 2; k++) {
        int status = -1;
        cr_assert(waitpid(enter_and_widen(&root, k, list[k], &every, &share[k]), &status, 0) > 0);
        cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0,
                  "slot %d (CPUs %s): status %d (1: it left them, 2: it could not enter)", k,
                  list[k], status);
    }
    cr_assert_eq(cg_root_sweep(&root), 0);
    for (int k = 0; k < 2; k++)
        cr_assert(!exists(slot_dir[k]), "%s left", slot_dir[k]);
    cr_assert_eq(rmdir(dir), 0, "rmdir %s: %s", dir, strerror(errno));
    fixture_close(&fx);
}

/* Where moves cannot be held to CPUs, the reason is one line: no cpuset
 * hierarchy (v1), one this user may not write (v1, as nobody), a cgroup2
 * without the controller (here its controllers are bound to v1). */
Test(cgroup, without_a_cpuset_the_reason_is_named)
{
    struct cg_root root = { .version = CG_V1 };
    struct err e;
    cr_assert_eq(cg_root_cpuset(&root, &e), -1);
    cr_assert_str_eq(e.msg, "no cgroup v1 cpuset hierarchy is mounted");
    cr_assert_eq(root.has & CG_CPUSET, 0);
    if (geteuid() != 0 || access(V1_MOUNT "/cpuset/cgroup.procs", W_OK) != 0)
        cr_skip_test("the rest needs root and cgroup v1's cpuset at " V1_MOUNT "/cpuset");
    pid_t pid = fork();
    cr_assert(pid >= 0);
    if (pid == 0) {
        snprintf(root.cpuset, sizeof root.cpuset, V1_MOUNT "/cpuset");
        if (setgid(65534) != 0 || setuid(65534) != 0)
            _exit(2);
        _exit(cg_root_cpuset(&root, &e) == -1 &&
              strcmp(e.msg, "cannot make cgroups in " V1_MOUNT
                            "/cpuset: not writable by this user") == 0 ? 0 : 1);
    }
    int status = -1;
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "as nobody: status %d", status);

    struct fixture fx;
    fixture_open(&fx, CG_V2);
    char controllers[256] = "";
    first_line(fx.mnt, "cgroup.controllers", controllers, sizeof controllers);
    if (strstr(controllers, "cpuset")) {
        fixture_close(&fx);
        cr_skip_test("cgroup2 here has the cpuset controller: not this case");
    }
    fixture_root(&fx, &root);
    cr_assert_eq(cg_root_cpuset(&root, &e), -1);
    char want[PATH_MAX * 2];
    snprintf(want, sizeof want, "cgroup v2 %s: the cpuset controller is not available there",
             fx.dir[0]);
    cr_assert_str_eq(e.msg, want);
    fixture_close(&fx);
}
