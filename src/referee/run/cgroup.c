/*
 * cgroup.c - a cgroup per move (cgroup.h): finding where the referee may
 * make them, making one per move, reading what it used, removing it.
 */
#define _GNU_SOURCE
#include <assert.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include "arena/cgroup.h"
#include "arena/textfile.h"

#define MB (1024LL * 1024LL)
#define NS_PER_MS 1e6
#define US_PER_MS 1e3
#define LINE_MAX_BYTES (3 * PATH_MAX)
#define SMALL_FILE 4096
/* How long cg_move_end waits for the killed processes of a move to leave
 * its cgroup, and cg_move_close for the kernel to let the folder go, in
 * tries of TRY_US. */
#define EMPTY_TRIES 2000
#define TRY_US 500
static int sweep(const struct cg_root *root, long owner);

/* v1 hierarchies of a root, in cg_root.dir's order: the first
 * CG_V1_NEEDED always, the freezer where it can be had. */
static const char *const v1_controller[CG_MAX_DIRS] = { "cpuacct", "memory", "pids",
                                                        "freezer" };
enum { V1_FREEZER = 3 };
/* The controller that holds processes to CPUs: a v1 hierarchy of its own
 * (not one of a root's folders: only concurrent games use it), a v2
 * controller. */
#define CPUSET "cpuset"

/* Reads a small file of the cgroup folder dir into buf (NUL-terminated).
 * Returns the length, or -1 with errno. */
static ssize_t read_at(const char *dir, const char *name, char *buf, size_t cap)
{
    char path[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t n = read(fd, buf, cap - 1);
    int saved = errno;
    close(fd);
    errno = saved;
    buf[n > 0 ? n : 0] = '\0';
    return n;
}

/* Writes text to a file of dir. 0, or -1 with errno. */
static int write_at(const char *dir, const char *name, const char *text)
{
    char path[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    int rc = tf_write_all(fd, text, strlen(text));
    int saved = errno;
    close(fd);
    errno = saved;
    return rc;
}

/* The number after "key " in text (a flat-keyed cgroup file); -1 if none. */
static long long keyed(const char *text, const char *key)
{
    size_t k = strlen(key);
    for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
        if (strncmp(p, key, k) == 0 && p[k] == ' ')
            return atoll(p + k + 1);
    return -1;
}

static int has_word(const char *list, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = list; (p = strstr(p, word)); p += n)
        if ((p == list || p[-1] == ' ' || p[-1] == ',') &&
            (p[n] == '\0' || p[n] == ' ' || p[n] == ',' || p[n] == '\n'))
            return 1;
    return 0;
}

/* --- finding the root --------------------------------------------------- */

/* Mount points and own paths of the hierarchies this process sees. */
struct hier {
    char v1_mount[CG_MAX_DIRS][PATH_MAX];
    char v1_path[CG_MAX_DIRS][PATH_MAX];
    char cpuset_mount[PATH_MAX], cpuset_path[PATH_MAX];   /* v1's cpuset */
    char v2_mount[PATH_MAX];
    char v2_path[PATH_MAX];
};

/* From /proc/self/mountinfo: each cgroup mount's point, by controller. */
static void find_mounts(struct hier *h)
{
    FILE *f = fopen("/proc/self/mountinfo", "r");
    char *line = malloc(LINE_MAX_BYTES);
    while (f && line && fgets(line, LINE_MAX_BYTES, f)) {
        char root[PATH_MAX], point[PATH_MAX], type[64], opts[1024];
        char *dash = strstr(line, " - ");
        if (!dash || sscanf(line, "%*s %*s %*s %4095s %4095s", root, point) != 2 ||
            sscanf(dash + 3, "%63s %*s %1023s", type, opts) != 2 || strcmp(root, "/") != 0)
            continue;
        if (strcmp(type, "cgroup2") == 0 && !h->v2_mount[0])
            snprintf(h->v2_mount, sizeof h->v2_mount, "%s", point);
        for (int i = 0; strcmp(type, "cgroup") == 0 && i < CG_MAX_DIRS; i++)
            if (has_word(opts, v1_controller[i]) && !h->v1_mount[i][0])
                snprintf(h->v1_mount[i], sizeof h->v1_mount[i], "%s", point);
        if (strcmp(type, "cgroup") == 0 && has_word(opts, CPUSET) && !h->cpuset_mount[0])
            snprintf(h->cpuset_mount, sizeof h->cpuset_mount, "%s", point);
    }
    free(line);
    if (f)
        fclose(f);
}

/* From /proc/self/cgroup: this process's cgroup in each hierarchy. */
static void find_paths(struct hier *h)
{
    FILE *f = fopen("/proc/self/cgroup", "r");
    char *line = malloc(LINE_MAX_BYTES);
    while (f && line && fgets(line, LINE_MAX_BYTES, f)) {
        line[strcspn(line, "\n")] = '\0';
        char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
        if (!c2)
            continue;
        *c2 = '\0';
        const char *ctrls = c1 + 1, *path = c2 + 1;
        if (!ctrls[0])
            snprintf(h->v2_path, sizeof h->v2_path, "%s", path);
        for (int i = 0; i < CG_MAX_DIRS; i++)
            if (has_word(ctrls, v1_controller[i]))
                snprintf(h->v1_path[i], sizeof h->v1_path[i], "%s", path);
        if (has_word(ctrls, CPUSET))
            snprintf(h->cpuset_path, sizeof h->cpuset_path, "%s", path);
    }
    free(line);
    if (f)
        fclose(f);
}

/* Whether this user may make cgroups in dir and (v2, where a process moves
 * only with write access to the common ancestor's cgroup.procs) move
 * processes there. */
static int writable(const char *dir, enum cg_version v)
{
    char procs[PATH_MAX + 16];
    snprintf(procs, sizeof procs, "%s/cgroup.procs", dir);
    return access(dir, W_OK) == 0 && (v == CG_V1 || access(procs, W_OK) == 0);
}

int cg_root_at(struct cg_root *root, enum cg_version v, const char *const dir[], int n,
               long pids_max, struct err *e)
{
    memset(root, 0, sizeof *root);
    if (v == CG_V1 ? n < CG_V1_NEEDED || n > CG_MAX_DIRS : n != 1)
        return err_set(e, 0, 0, "a cgroup v%d root has %d folders, not %d", (int)v,
                       v == CG_V1 ? CG_V1_NEEDED : 1, n);
    root->version = v;
    root->n = n;
    root->pids_max = pids_max;
    root->owner = (long)getpid();
    for (int i = 0; i < n; i++) {
        if (!writable(dir[i], v))
            return err_set(e, 0, 0, "cannot make cgroups in %s: %s", dir[i],
                           access(dir[i], F_OK) == 0 ? "not writable by this user"
                                                     : strerror(errno));
        snprintf(root->dir[i], sizeof root->dir[i], "%s", dir[i]);
    }
    char ctl[SMALL_FILE], freeze[PATH_MAX + 16];
    if (v == CG_V1) {
        root->has = CG_MEMORY | CG_PIDS | (n > V1_FREEZER ? CG_FREEZER : 0);
        return 0;
    }
    if (read_at(dir[0], "cgroup.subtree_control", ctl, sizeof ctl) >= 0)
        root->has = (has_word(ctl, "memory") ? CG_MEMORY : 0) |
                    (has_word(ctl, "pids") ? CG_PIDS : 0);
    /* Each cgroup under dir has the file dir has (a hierarchy's own root
     * has none, but no move is made there). */
    snprintf(freeze, sizeof freeze, "%s/cgroup.freeze", dir[0]);
    if (access(freeze, W_OK) == 0)
        root->has |= CG_FREEZER;
    return 0;
}

/* v2: hands memory and pids to dir's children. When dir holds processes
 * (EBUSY) and the only one is this process, moves it into a leaf of dir
 * first. 0, or -1 with errno. */
static int v2_delegate(const char *dir)
{
    if (write_at(dir, "cgroup.subtree_control", "+memory +pids") == 0)
        return 0;
    if (errno != EBUSY)
        return -1;
    char procs[SMALL_FILE], self[32], leaf[PATH_MAX];
    snprintf(self, sizeof self, "%ld\n", (long)getpid());
    if (read_at(dir, "cgroup.procs", procs, sizeof procs) < 0 || strcmp(procs, self) != 0) {
        errno = EBUSY;
        return -1;
    }
    if (snprintf(leaf, sizeof leaf, "%s/arena-referee-%ld", dir, (long)getpid()) >=
            (int)sizeof leaf ||
        (mkdir(leaf, 0755) != 0 && errno != EEXIST) || write_at(leaf, "cgroup.procs", self) != 0)
        return -1;
    return write_at(dir, "cgroup.subtree_control", "+memory +pids");
}

static int find_v2(struct cg_root *root, const struct hier *h, long pids_max, struct err *e)
{
    char dir[PATH_MAX];
    const char *why = NULL;
    int too_long = geteuid() == 0
                       ? snprintf(dir, sizeof dir, "%s/arena", h->v2_mount) >= (int)sizeof dir
                       : snprintf(dir, sizeof dir, "%s%s", h->v2_mount,
                                  strcmp(h->v2_path, "/") ? h->v2_path : "") >= (int)sizeof dir;
    errno = 0;
    if (too_long) {
        why = "path too long";
    } else if (geteuid() == 0) {
        if (write_at(h->v2_mount, "cgroup.subtree_control", "+memory +pids") != 0)
            why = "cannot enable the memory and pids controllers at the root";
        else if (mkdir(dir, 0755) != 0 && errno != EEXIST)
            why = "cannot make its folder";
        else if (write_at(dir, "cgroup.subtree_control", "+memory +pids") != 0)
            why = "cannot enable the memory and pids controllers";
    } else {
        if (!writable(dir, CG_V2))
            why = "this user's cgroup is not delegated to it (run the referee under "
                  "systemd-run --user --scope -p Delegate=yes)";
        else if (v2_delegate(dir) != 0)
            why = errno == EBUSY ? "other processes share the referee's cgroup (run it under "
                                   "systemd-run --user --scope -p Delegate=yes)"
                                 : "cannot enable the memory and pids controllers";
    }
    if (why)
        return err_set(e, 0, 0, "cgroup v2 %s: %s%s%s", dir, why, errno ? ": " : "",
                       errno ? strerror(errno) : "");
    const char *d = dir;
    return cg_root_at(root, CG_V2, &d, 1, pids_max, e);
}

/* v1: keeps an empty cgroup of the freezer frozen for the referee's life,
 * arena-OWNER-0-0-warm (a name the sweeps take). The kernel turns its
 * freezer's fast path on and off (a static key, patched on every CPU) as
 * the first cgroup freezes and the last thaws: without one frozen for good,
 * each freeze and each thaw of a move took 22 ms on this machine (a median
 * of 2,000, two cores under a load of 29), with it 15 us. Failing, freezing
 * is only slower. */
static void keep_freezer_warm(const struct cg_root *root)
{
    char warm[PATH_MAX + 64];
    if (root->version != CG_V1 || !(root->has & CG_FREEZER) ||
        snprintf(warm, sizeof warm, "%s/arena-%ld-0-0-warm", root->dir[V1_FREEZER],
                 root->owner) >= (int)sizeof warm)
        return;
    if (mkdir(warm, 0755) == 0 || errno == EEXIST)
        write_at(warm, "freezer.state", "FROZEN");
}

int cg_root_find(struct cg_root *root, long pids_max, struct err *e)
{
    struct hier *h = calloc(1, sizeof *h);
    if (!h)
        return err_set(e, 0, 0, "out of memory");
    find_mounts(h);
    find_paths(h);
    int v1 = 1, rc;
    for (int i = 0; i < CG_V1_NEEDED; i++)
        v1 = v1 && h->v1_mount[i][0];
    if (v1) {
        char dir[CG_MAX_DIRS][PATH_MAX];
        const char *d[CG_MAX_DIRS];
        int n = CG_V1_NEEDED;
        for (int i = 0; i < CG_MAX_DIRS; i++) {
            const char *own = h->v1_path[i][0] && strcmp(h->v1_path[i], "/") ? h->v1_path[i] : "";
            if (snprintf(dir[i], sizeof dir[i], "%s%s", h->v1_mount[i], own) >= PATH_MAX)
                dir[i][0] = '\0';   /* refused by cg_root_at */
            d[i] = dir[i];
        }
        /* The freezer is a bonus: without it engines are not frozen. */
        if (h->v1_mount[V1_FREEZER][0] && dir[V1_FREEZER][0] &&
            writable(dir[V1_FREEZER], CG_V1))
            n = CG_MAX_DIRS;
        rc = cg_root_at(root, CG_V1, d, n, pids_max, e);
        /* Where the game slots' cgroups go; whether they can is
         * cg_root_cpuset's question (only concurrent games ask it). */
        const char *own = strcmp(h->cpuset_path, "/") ? h->cpuset_path : "";
        if (rc == 0 && h->cpuset_mount[0] &&
            snprintf(root->cpuset, sizeof root->cpuset, "%s%s", h->cpuset_mount, own) >=
                (int)sizeof root->cpuset)
            root->cpuset[0] = '\0';   /* too long: games are held by affinity */
    } else if (h->v2_mount[0]) {
        rc = find_v2(root, h, pids_max, e);
        if (rc == 0 && root->has != (CG_MEMORY | CG_PIDS))
            rc = err_set(e, 0, 0, "cgroup v2 %s: the memory and pids controllers are not "
                         "available there", root->dir[0]);
    } else {
        rc = err_set(e, 0, 0, "no cgroup hierarchy with cpuacct, memory and pids is mounted");
    }
    free(h);
    if (rc == 0) {
        sweep(root, 0);   /* what referees killed outright left */
        keep_freezer_warm(root);
    }
    return rc;
}

const char *cg_root_name(const struct cg_root *root)
{
    return !root ? "process" : root->version == CG_V1 ? "cgroup-v1" : "cgroup-v2";
}

/* --- the CPUs of game slots ---------------------------------------------- */

/* v2: enables the cpuset controller in root's folder for its moves; as
 * root, in its parent first where the parent does not hand it down (the
 * hierarchy's root, for <mount>/arena). 0, or -1 with e. */
static int v2_cpuset(const struct cg_root *root, struct err *e)
{
    const char *dir = root->dir[0];
    char ctl[SMALL_FILE], parent[PATH_MAX];
    if (read_at(dir, "cgroup.subtree_control", ctl, sizeof ctl) >= 0 && has_word(ctl, CPUSET))
        return 0;
    snprintf(parent, sizeof parent, "%s", dir);
    char *slash = strrchr(parent, '/');
    if (slash && slash != parent)
        *slash = '\0';
    int handed = read_at(dir, "cgroup.controllers", ctl, sizeof ctl) >= 0 && has_word(ctl, CPUSET);
    if (!handed && geteuid() == 0 && slash &&
        write_at(parent, "cgroup.subtree_control", "+" CPUSET) == 0)
        handed = read_at(dir, "cgroup.controllers", ctl, sizeof ctl) >= 0 &&
                 has_word(ctl, CPUSET);
    if (!handed)
        return err_set(e, 0, 0, "cgroup v2 %s: the cpuset controller is not %s", dir,
                       geteuid() == 0 ? "available there" : "delegated to this user's cgroup");
    if (write_at(dir, "cgroup.subtree_control", "+" CPUSET) != 0)
        return err_set(e, 0, 0, "cgroup v2 %s: cannot enable the cpuset controller: %s", dir,
                       strerror(errno));
    return 0;
}

int cg_root_cpuset(struct cg_root *root, struct err *e)
{
    if (root->version == CG_V2) {
        if (v2_cpuset(root, e) != 0)
            return -1;
    } else if (!root->cpuset[0]) {
        return err_set(e, 0, 0, "no cgroup v1 cpuset hierarchy is mounted");
    } else if (!writable(root->cpuset, CG_V1)) {
        return err_set(e, 0, 0, "cannot make cgroups in %s: %s", root->cpuset,
                       access(root->cpuset, F_OK) == 0 ? "not writable by this user"
                                                       : strerror(errno));
    }
    root->has |= CG_CPUSET;
    return 0;
}

/* v1: the cgroup of game slot `slot` into path (cap bytes); 0, or -1 with
 * e when it does not fit. */
static int slot_path(const struct cg_root *root, int slot, char *path, size_t cap,
                     struct err *e)
{
    if (snprintf(path, cap, "%s/arena-%ld-slot-%d", root->cpuset, root->owner, slot) >=
        (int)cap)
        return err_set(e, 0, 0, "cgroup path too long: %s", root->cpuset);
    return 0;
}

/* The text of a small file of dir without its line end into buf; -1 with
 * errno when it cannot be read. */
static int read_line(const char *dir, const char *name, char *buf, size_t cap)
{
    if (read_at(dir, name, buf, cap) < 0)
        return -1;
    buf[strcspn(buf, "\n")] = '\0';
    return 0;
}

int cg_slot_make(const struct cg_root *root, int slot, const char *cpus, struct err *e)
{
    assert((root->has & CG_CPUSET) && slot >= 0 && cpus[0]);
    if (root->version == CG_V2)
        return 0;
    char path[PATH_MAX + 64], mems[SMALL_FILE], got[CG_CPUS_MAX];
    const char *what = NULL;
    if (slot_path(root, slot, path, sizeof path, e) != 0)
        return -1;
    if (mkdir(path, 0755) != 0 && errno != EEXIST)
        return err_set(e, 0, 0, "cannot make cgroup %s: %s", path, strerror(errno));
    /* A v1 cpuset takes no process before it has CPUs and memory nodes. */
    if (read_line(root->cpuset, "cpuset.effective_mems", mems, sizeof mems) != 0)
        what = "read the memory nodes of its parent";
    else if (write_at(path, "cpuset.cpus", cpus) != 0)
        what = "set cpuset.cpus";
    else if (write_at(path, "cpuset.mems", mems) != 0)
        what = "set cpuset.mems";
    else if (read_line(path, "cpuset.effective_cpus", got, sizeof got) != 0)
        what = "read cpuset.effective_cpus";
    if (what)
        return err_set(e, 0, 0, "cgroup %s: cannot %s: %s", path, what, strerror(errno));
    if (strcmp(got, cpus) != 0)
        return err_set(e, 0, 0, "cgroup %s: the kernel gave it CPUs %s, not %s", path, got, cpus);
    return 0;
}

int cg_slot_enter(const struct cg_root *root, int slot, const char *cpus,
                  struct cg_root *slot_root, struct err *e)
{
    assert((root->has & CG_CPUSET) && slot >= 0 && cpus[0]);
    memcpy(slot_root, root, sizeof *slot_root);
    if (root->version == CG_V2) {
        if (snprintf(slot_root->cpus, sizeof slot_root->cpus, "%s", cpus) >=
            (int)sizeof slot_root->cpus)
            return err_set(e, 0, 0, "a CPU list too long: %.40s...", cpus);
        return 0;
    }
    char path[PATH_MAX + 64];
    if (slot_path(root, slot, path, sizeof path, e) != 0)
        return -1;
    /* "0": the writing process, every thread of it. */
    if (write_at(path, "cgroup.procs", "0") != 0)
        return err_set(e, 0, 0, "cannot enter cgroup %s: %s", path, strerror(errno));
    return 0;
}

/* --- a move ------------------------------------------------------------- */

void cg_move_none(struct cg_move *m, int *procs, int n)
{
    memset(m, 0, sizeof *m);
    m->procs = procs;
    m->nprocs = n;
    for (int i = 0; i < n; i++)
        procs[i] = -1;
}

/* Makes the folder of hierarchy i and sets its limits. 0, or -1 with e. */
static int make_one(struct cg_move *m, int i, const char *name, long mem_limit_mb, struct err *e)
{
    const struct cg_root *root = m->root;
    char *path = m->path[i];
    if (snprintf(path, PATH_MAX, "%s/%s", root->dir[i], name) >= PATH_MAX)
        return err_set(e, 0, 0, "cgroup path too long: %s", root->dir[i]);
    if (mkdir(path, 0755) != 0)
        return err_set(e, 0, 0, "cannot make cgroup %s: %s", path, strerror(errno));
    m->n = i + 1;
    char num[32];
    const char *what = NULL;
    int mem = root->version == CG_V2 || i == 1, pids = root->version == CG_V2 || i == 2;
    if (mem && mem_limit_mb > 0 && (root->has & CG_MEMORY)) {
        m->mem_limited = 1;
        snprintf(num, sizeof num, "%lld", (long long)mem_limit_mb * MB);
        if (root->version == CG_V1) {
            if (write_at(path, "memory.limit_in_bytes", num) != 0)
                what = "memory.limit_in_bytes";
            /* No swap beyond the limit, where the kernel counts it. */
            else if (write_at(path, "memory.memsw.limit_in_bytes", num) != 0 && errno != ENOENT)
                what = "memory.memsw.limit_in_bytes";
        } else if (write_at(path, "memory.max", num) != 0) {
            what = "memory.max";
        } else if (write_at(path, "memory.swap.max", "0") != 0 && errno != ENOENT) {
            what = "memory.swap.max";
        }
    }
    if (!what && pids && root->pids_max > 0 && (root->has & CG_PIDS)) {
        snprintf(num, sizeof num, "%ld", root->pids_max);
        if (write_at(path, "pids.max", num) != 0)
            what = "pids.max";
    }
    /* v2: the game slot's CPUs (v1 holds them in the slot's own cgroup). */
    if (!what && root->version == CG_V2 && root->cpus[0] &&
        write_at(path, "cpuset.cpus", root->cpus) != 0)
        what = "cpuset.cpus";
    if (what)
        return err_set(e, 0, 0, "cannot set %s/%s: %s", path, what, strerror(errno));
    char procs[PATH_MAX + 16];
    /* v1: "tasks", where moving the writing thread itself (a process of
     * one thread, before exec) skips the global lock a process move takes
     * (the kernel waits for an RCU grace period there: about 1 ms a
     * hierarchy on this machine). v2 has no such file in a domain cgroup. */
    snprintf(procs, sizeof procs, "%s/%s", path,
             root->version == CG_V1 ? "tasks" : "cgroup.procs");
    m->procs[i] = open(procs, O_WRONLY | O_CLOEXEC);
    return m->procs[i] < 0 ? err_set(e, 0, 0, "cannot open %s: %s", procs, strerror(errno)) : 0;
}

int cg_move_open(const struct cg_root *root, long mem_limit_mb, struct cg_move *m, int *procs,
                 int n, struct err *e)
{
    assert(root && n >= root->n);
    cg_move_none(m, procs, n);
    m->root = root;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    char name[96];
    /* The clock makes it new within the thread; pid and thread id, among
     * every referee and test running at once. */
    snprintf(name, sizeof name, "arena-%ld-%ld-%ld-%lld%09ld", root->owner, (long)getpid(),
             (long)syscall(SYS_gettid), (long long)ts.tv_sec, ts.tv_nsec);
    for (int i = 0; i < root->n; i++)
        if (make_one(m, i, name, mem_limit_mb, e) != 0) {
            cg_move_close(m);
            return -1;
        }
    return 0;
}

/* v1: cpuacct's folder; v2: the one folder. */
static const char *cpu_dir(const struct cg_move *m)
{
    return m->path[0];
}

double cg_move_cpu_ms(const struct cg_move *m)
{
    char buf[SMALL_FILE];
    if (!m->root || m->n == 0)
        return 0;
    if (m->root->version == CG_V1)
        return read_at(cpu_dir(m), "cpuacct.usage", buf, sizeof buf) > 0
                   ? (double)atoll(buf) / NS_PER_MS : 0;
    return read_at(cpu_dir(m), "cpu.stat", buf, sizeof buf) > 0
               ? (double)keyed(buf, "usage_usec") / US_PER_MS : 0;
}

/* The run-queue wait of thread tid so far (schedstat's second field, ns),
 * in ms; 0 when it is gone or the kernel keeps no such figure. */
static double thread_wait_ms(long tid)
{
    char dir[64], buf[128];
    snprintf(dir, sizeof dir, "/proc/%ld", tid);
    unsigned long long run, wait;
    if (read_at(dir, "schedstat", buf, sizeof buf) <= 0 ||
        sscanf(buf, "%llu %llu", &run, &wait) != 2)
        return 0;
    return (double)wait / NS_PER_MS;
}

double cg_move_wait_ms(const struct cg_move *m)
{
    char buf[SMALL_FILE];
    if (!m->root || m->n == 0)
        return -1;
    /* Every thread: v1's tasks, v2's cgroup.threads. A tree too big for
     * the buffer is summed over its first threads, a lower bound. */
    if (read_at(cpu_dir(m), m->root->version == CG_V1 ? "tasks" : "cgroup.threads", buf,
                sizeof buf) < 0)
        return -1;
    double sum = 0;
    for (char *p = buf, *end; *p; p = end) {
        long tid = strtol(p, &end, 10);
        if (end == p)
            break;
        sum += thread_wait_ms(tid);
    }
    return sum;
}

/* Reads the move's CPU and OOM kills into m->usage. 0, or -1 with e. */
static int read_usage(struct cg_move *m, struct err *e)
{
    char buf[SMALL_FILE];
    struct cg_usage *u = &m->usage;
    memset(u, 0, sizeof *u);
    if (m->root->version == CG_V2) {
        if (read_at(cpu_dir(m), "cpu.stat", buf, sizeof buf) < 0)
            return err_set(e, 0, 0, "cannot read %s/cpu.stat: %s", cpu_dir(m), strerror(errno));
        u->user_ms = (double)keyed(buf, "user_usec") / US_PER_MS;
        u->sys_ms = (double)keyed(buf, "system_usec") / US_PER_MS;
        if (m->mem_limited && read_at(m->path[0], "memory.events", buf, sizeof buf) > 0)
            u->oom_kills = keyed(buf, "oom_kill");
        return 0;
    }
    char ticks[SMALL_FILE];
    if (read_at(cpu_dir(m), "cpuacct.usage", buf, sizeof buf) < 0 ||
        read_at(cpu_dir(m), "cpuacct.stat", ticks, sizeof ticks) < 0)
        return err_set(e, 0, 0, "cannot read %s/cpuacct.usage: %s", cpu_dir(m), strerror(errno));
    double total = (double)atoll(buf) / NS_PER_MS, tu = (double)keyed(ticks, "user"),
           ts = (double)keyed(ticks, "system");
    /* Ticks may not have seen a short move at all: all of it is user time. */
    u->sys_ms = tu + ts > 0 ? total * ts / (tu + ts) : 0;
    u->user_ms = total - u->sys_ms;
    /* Without a memory limit the kernel kills nothing for memory here. */
    if (m->mem_limited && read_at(m->path[1], "memory.oom_control", buf, sizeof buf) > 0)
        u->oom_kills = keyed(buf, "oom_kill");
    return 0;
}

/* Kills every process listed in dir's cgroup.procs; returns how many were
 * listed (0: empty), -1 when it cannot be read. */
static int kill_listed(const char *dir)
{
    char buf[SMALL_FILE * 4];
    if (read_at(dir, "cgroup.procs", buf, sizeof buf) < 0)
        return -1;
    int n = 0;
    for (char *p = buf, *end; *p; p = end) {
        long pid = strtol(p, &end, 10);
        if (end == p)
            break;
        if (pid > 0 && kill((pid_t)pid, SIGKILL) == 0)
            n++;
        else if (pid > 0)
            n += errno != ESRCH;
    }
    return n;
}

/* Thaws the cgroup dir of either version, whichever file it has: a frozen
 * v1 process dies of SIGKILL only once thawed. */
static void thaw_dir(const char *dir)
{
    if (write_at(dir, "freezer.state", "THAWED") != 0)
        write_at(dir, "cgroup.freeze", "0");
}

/* Empties and removes the cgroup dir: 0, or -1 when it stays. */
static int remove_cgroup(const char *dir)
{
    thaw_dir(dir);
    for (int tries = 0; tries < EMPTY_TRIES; tries++) {
        if (rmdir(dir) == 0 || errno == ENOENT)
            return 0;
        if (errno != EBUSY)
            return -1;
        kill_listed(dir);
        usleep(TRY_US);
    }
    return -1;
}

/* Whether the cgroup name is one of owner's moves (owner > 0), or (owner 0)
 * one of a referee that is gone: one killed outright leaves its moves'
 * cgroups, empty once their processes died with it. */
static int swept(const char *name, long owner)
{
    char *end;
    if (strncmp(name, "arena-", 6) != 0)
        return 0;
    long pid = strtol(name + 6, &end, 10);
    if (end == name + 6 || *end != '-' || pid <= 0)
        return 0;
    return owner > 0 ? pid == owner : kill((pid_t)pid, 0) != 0 && errno == ESRCH;
}

/* Removes the cgroups in folder dir that swept() picks; how many stay. */
static int sweep_dir(const char *dir, long owner)
{
    char path[PATH_MAX + NAME_MAX + 2];
    int left = 0;
    DIR *d = opendir(dir);
    struct dirent *de;
    while (d && (de = readdir(d)))
        if (swept(de->d_name, owner) &&
            snprintf(path, sizeof path, "%s/%s", dir, de->d_name) < (int)sizeof path)
            left += remove_cgroup(path) != 0;
    if (d)
        closedir(d);
    return left;
}

/* Removes the cgroups of root's folders that swept() picks. */
static int sweep(const struct cg_root *root, long owner)
{
    int left = 0;
    /* The freezer first, then pids: a frozen v1 process dies only once
     * thawed, v1 lists a move's processes in pids, and a folder with
     * processes cannot go. The game slots' cpusets last: what is left in
     * one is a worker's, whose moves went first. */
    for (int i = root->n - 1; i >= 0; i--)
        left += sweep_dir(root->dir[i], owner);
    if (root->version == CG_V1 && root->cpuset[0])
        left += sweep_dir(root->cpuset, owner);
    return left;
}

int cg_root_sweep(const struct cg_root *root)
{
    return sweep(root, root->owner);
}

int cg_root_can_freeze(const struct cg_root *root)
{
    return root && (root->has & CG_FREEZER);
}

int cg_move_freeze(const struct cg_move *m, int frozen)
{
    if (!m->root || m->n == 0 || !cg_root_can_freeze(m->root))
        return 0;
    if (m->root->version == CG_V1)
        return write_at(m->path[V1_FREEZER], "freezer.state", frozen ? "FROZEN" : "THAWED");
    return write_at(m->path[0], "cgroup.freeze", frozen ? "1" : "0");
}

int cg_move_end(struct cg_move *m, struct err *e)
{
    if (!m->root || m->n == 0)
        return 0;
    cg_move_freeze(m, 0);   /* a frozen v1 process does not die */
    /* v2's cgroup.kill (Linux 5.14) kills the tree at once, forks in flight
     * included; elsewhere what the list shows is killed until it is empty
     * (the pids limit bounds a fork bomb's list). */
    if (m->root->version == CG_V2)
        write_at(m->path[0], "cgroup.kill", "1");
    const char *list = m->path[m->root->version == CG_V1 ? 2 : 0];
    int tries = 0, left;
    while ((left = kill_listed(list)) > 0 && ++tries < EMPTY_TRIES)
        usleep(TRY_US);
    if (left != 0)
        return err_set(e, 0, 0, "cgroup %s: %s", list,
                       left < 0 ? strerror(errno) : "its processes do not die");
    if (read_usage(m, e) != 0)
        return -1;
    m->ended = 1;
    return 0;
}

int cg_move_usage(const struct cg_move *m, struct cg_usage *u)
{
    if (!m->root || !m->ended)
        return -1;
    *u = m->usage;
    return 0;
}

int cg_move_close(struct cg_move *m)
{
    int rc = 0;
    for (int i = 0; i < m->nprocs; i++)
        if (m->procs[i] >= 0) {
            close(m->procs[i]);
            m->procs[i] = -1;
        }
    for (int i = m->n - 1; i >= 0; i--) {
        int tries = 0;
        /* A process killed a moment ago may still be leaving the cgroup. */
        while (rmdir(m->path[i]) != 0 && errno == EBUSY && ++tries < EMPTY_TRIES)
            usleep(TRY_US);
        if (access(m->path[i], F_OK) == 0) {
            snprintf(m->leftover, sizeof m->leftover, "cannot remove cgroup %s: %s", m->path[i],
                     strerror(errno));
            rc = -1;
        }
    }
    m->n = 0;
    return rc;
}
