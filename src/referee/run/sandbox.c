/*
 * sandbox.c - a game's sandbox: the namespaces, the init that holds them,
 * the engines' file-system views, and a move run inside (sandbox.h).
 *
 * Three processes take part. The referee (a tournament worker, or the
 * process that plays a match) opens the sandbox: it plans the views (plain
 * stat and realpath), clones the init into new namespaces and writes its
 * user-id maps. The clone then execs the referee's own program as the init
 * (sbx_init_main), which mounts each view once and then serves moves: for
 * each it vforks the engine, waits for it, kills and reaps whatever is
 * left, and answers. The exec gives the init a memory of its own, a few
 * pages, not a copy of the referee's: a vfork from it costs the same in a
 * large tournament as in a small one, and a referee under a memory checker
 * (valgrind follows no exec) does not pay a checked fork for every move.
 * Requests and answers, and the plan the init mounts, live in a shared
 * memory file (memfd) both map; one byte on a socket pair says "go" and
 * "done", so the referee can wait for the answer with poll and a deadline.
 * The init never exits on its own: the referee kills it (SIGKILL from
 * outside the namespace cannot be ignored).
 */
#define _GNU_SOURCE
#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/audit.h>
#include <linux/capability.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include "arena/clock.h"
#include "arena/datadir.h"
#include "launcher.h"
#include "arena/path.h"
#include "arena/sandbox.h"
#include "arena/textfile.h"

#define NS_PER_MS 1e6
/* A game has two engines, the probe one. */
#define SBX_MAX_VIEWS 2
/* Room for a move's argv in the shared page: RUN_MAX_ARGS words. */
#define ARGS_CAP (RUN_MAX_ARGS * PATH_MAX)
/* How often a waiting referee looks at its cancel flag. */
/* Descriptors a move's request carries: stdout, stderr, the cgroup's. */
#define REQUEST_FDS (2 + LAUNCH_CG_FILES)
/* A spawn's (an engine that stays, persist.h): its stdin first. */
#define SPAWN_FDS (1 + REQUEST_FDS)
/* exec_what of an engine that could not enter its move's cgroup: the
 * referee's failure, not the engine's. */
#define CG_ENTER_FAILED "cannot enter the move's cgroup"
/* Room for exec_what's words in the page: the longest is 40 bytes. */
#define EXEC_WHAT_MAX 64
/* The init's descriptors after its exec: the socket, the shared memory. */
#define INIT_SOCK_FD 3
#define INIT_PAGE_FD 4
/* The first words of the image: an init of another build refuses it. */
#define IMAGE_MAGIC "arena sandbox init, image 1"
#define HOSTNAME "arena"
#define MAX_USERNS "/proc/sys/user/max_user_namespaces"
/* The view's root and its masks: tmpfs as small as will do. */
#define ROOT_OPTIONS "size=1m,nr_inodes=1024,mode=0755"
#define MASK_OPTIONS "size=16k,nr_inodes=64,mode=0755"
#define MASKS_NAME ".sbx-masks"   /* in the root while building: masks files */
#define OLD_ROOT_NAME ".sbx-old"
#define MOUNTINFO_LINE_MAX (3 * PATH_MAX)
#define LAST_CAP_GUESS 63         /* capabilities dropped from the bounding set */
/* The source and type of a bind, a remount or a propagation change, which
 * the kernel ignores: not NULL, which valgrind takes for a bad string. */
#define NO_TYPE "none"

static const char *const system_dirs[] = { SBX_SYSTEM_DIRS };
static const char *const devices[] = { "null", "zero", "full", "random", "urandom" };
static const struct { const char *path, *target; } dev_links[] = {
    { "/dev/fd", "/proc/self/fd" },
    { "/dev/stdin", "/proc/self/fd/0" },
    { "/dev/stdout", "/proc/self/fd/1" },
    { "/dev/stderr", "/proc/self/fd/2" },
};

/* --- paths -------------------------------------------------------------- */

/* Appends a copy of s to list (*n entries, max at most) unless it holds
 * it already: the paths' lists and the environment's names alike. 0, or
 * -1 with e ("more than MAX WHAT", out of memory). */
static int add_once(char **list, int *n, int max, const char *s, const char *what,
                    struct err *e)
{
    for (int i = 0; i < *n; i++)
        if (strcmp(list[i], s) == 0)
            return 0;
    if (*n == max)
        return err_set(e, 0, 0, "more than %d %s", max, what);
    if (!(list[*n] = strdup(s)))
        return err_set(e, 0, 0, "out of memory");
    (*n)++;
    return 0;
}

int sbx_paths_add(struct sbx_paths *p, const char *path, struct err *e)
{
    assert(p && path && p->n >= 0 && p->n <= SBX_MAX_PATHS);
    char abs[PATH_MAX];
    if (path_lexical(path, NULL, abs, sizeof abs) != 0)
        return err_set(e, 0, 0, "path too long: %.100s", path);
    return add_once(p->path, &p->n, SBX_MAX_PATHS, abs, "sandbox paths", e);
}

void sbx_paths_free(struct sbx_paths *p)
{
    for (int i = 0; i < p->n; i++)
        free(p->path[i]);
    p->n = 0;
}

/* Adds the folder of file abs (or abs itself, a folder) and, when its real
 * place differs, the real one's: a program reached through a symlink needs
 * both the link and its target. */
static int add_folder_of(struct sbx_paths *own, const char *abs, int is_dir, struct err *e)
{
    char folder[PATH_MAX], real[PATH_MAX];
    const char *where[2] = { folder, NULL };
    snprintf(folder, sizeof folder, "%s", abs);
    if (!is_dir)
        path_cut_to_folder(folder);
    if (realpath(abs, real)) {
        if (!is_dir)
            path_cut_to_folder(real);
        if (strcmp(real, folder) != 0)
            where[1] = real;
    }
    for (int i = 0; i < 2 && where[i]; i++)
        if (!path_is_system(where[i]) && sbx_paths_add(own, where[i], e) != 0)
            return -1;
    return 0;
}

int sbx_own_paths(const char *program, char *const runtime[], int nruntime,
                  char *const argv[], const char *workdir, struct sbx_paths *own, struct err *e)
{
    char abs[PATH_MAX];
    if (program && path_lexical(program, workdir, abs, sizeof abs) != 0)
        return err_set(e, 0, 0, "path too long: %.100s", program);
    if (program && add_folder_of(own, abs, 0, e) != 0)
        return -1;
    for (int i = 0; i < nruntime; i++)
        if (sbx_paths_add(own, runtime[i], e) != 0)
            return -1;
    for (int i = 1; argv[0] && argv[i]; i++) {
        struct stat st;
        if (strchr(argv[i], '{') || path_lexical(argv[i], workdir, abs, sizeof abs) != 0 ||
            stat(abs, &st) != 0)
            continue;
        if (add_folder_of(own, abs, S_ISDIR(st.st_mode), e) != 0)
            return -1;
    }
    return 0;
}

/* --- the policy --------------------------------------------------------- */

void sbx_policy_free(struct sbx_policy *p)
{
    sbx_paths_free(&p->ro);
    sbx_paths_free(&p->mask);
    for (int i = 0; i < p->nenv; i++)
        free(p->env[i]);
    p->nenv = 0;
}

static const char *const env_set[] = { SBX_ENV_SET };

/* 1 when "NAME=..." entry is of name (len bytes). */
static int env_names(const char *entry, const char *name, size_t len)
{
    return strncmp(entry, name, len) == 0 && entry[len] == '=';
}

int sbx_env_add(struct sbx_policy *p, const char *name, struct err *e)
{
    assert(p && name);
    size_t len = strlen(name);
    int ok = len > 0 && (isalpha((unsigned char)name[0]) || name[0] == '_');
    for (size_t i = 1; ok && i < len; i++)
        ok = isalnum((unsigned char)name[i]) || name[i] == '_';
    if (!ok)
        return err_set(e, 0, 0, "not a variable name (letters, digits and _)");
    if (strcmp(name, "PATH") == 0)
        return err_set(e, 0, 0, "the sandbox sets PATH itself (the referee's)");
    for (size_t i = 0; i < sizeof env_set / sizeof *env_set; i++)
        if (env_names(env_set[i], name, len))
            return err_set(e, 0, 0, "the sandbox sets %s itself", env_set[i]);
    return add_once(p->env, &p->nenv, SBX_MAX_ENV, name, "names", e);
}

char **sbx_environment(const struct sbx_policy *p)
{
    enum { SET = sizeof env_set / sizeof *env_set };
    const char *entry[SET + 1 + SBX_MAX_ENV];
    int n = 0;
    for (int i = 0; i < SET; i++)
        entry[n++] = env_set[i];
    const char *search = path_search();
    for (int i = 0; p && i < p->nenv; i++)
        for (char **v = environ; *v; v++)
            if (env_names(*v, p->env[i], strlen(p->env[i]))) {
                entry[n++] = *v;
                break;
            }
    /* One block: the pointers, then the strings. */
    size_t bytes = (size_t)(n + 2) * sizeof(char *) + strlen("PATH=") + strlen(search) + 1;
    for (int i = 0; i < n; i++)
        bytes += strlen(entry[i]) + 1;
    char **env = malloc(bytes);
    if (!env)
        return NULL;
    char *text = (char *)(env + n + 2);
    env[0] = text;
    text += sprintf(text, "PATH=%s", search) + 1;
    for (int i = 0; i < n; i++) {
        env[i + 1] = text;
        text = stpcpy(text, entry[i]) + 1;
    }
    env[n + 1] = NULL;
    return env;
}

/* The seccomp filter's architecture: elsewhere no filter is installed and
 * the journal's isolation list does not name what it closes. */
#if defined(__x86_64__)
#define SBX_SECCOMP_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define SBX_SECCOMP_ARCH AUDIT_ARCH_AARCH64
#endif

/* x86-64 has inotify_init beside inotify_init1; AArch64 only the latter,
 * which then stands in its place in the filter (a check twice over). */
#ifdef __NR_inotify_init
#define SBX_NR_INOTIFY_INIT __NR_inotify_init
#else
#define SBX_NR_INOTIFY_INIT __NR_inotify_init1
#endif

/* Closes channels that namespaces leave open between concurrent games:
 *   - the kernel key quota, shared by every process of one uid (add_key,
 *     keyctl, request_key fail with EPERM);
 *   - file locks on the system files every sandbox binds read-only (the
 *     same inodes). flock and the fcntl lock commands succeed without
 *     locking: a lock taken inside a sandbox can only ever guard the
 *     engine's own private files, which only its own processes touch, so a
 *     no-op breaks no engine that locks its files (SECCOMP_RET_ERRNO with 0
 *     returns 0);
 *   - file watches (inotify, fanotify): the same inodes again, whose opens
 *     and reads a watcher sees when another game's engine starts and what
 *     it loads;
 *   - io_uring, whose requests the kernel carries out without passing
 *     them through this filter (an openat or a connect of its own).
 * The last two fail with ENOSYS, as on a kernel built without them: that is
 * the error their users (runtimes, file-watching libraries) take their
 * fallback path on (poll, epoll, reading again), where EPERM reads as a
 * refusal some of them give up on.
 * A call of another ABI (i386 or x32 on x86_64, whose numbers differ) kills
 * the engine rather than slip past the numbers checked. Returns 0, or -1
 * with errno. */
static int install_seccomp(void)
{
#ifdef SBX_SECCOMP_ARCH
/* The filter's instructions by number: a jump from instruction AT to
 * LABEL skips LABEL - AT - 1. */
#define SBX_IS(at, nr, label) BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, nr, (label) - (at) - 1, 0)
#define SBX_LOAD(field) BPF_STMT(BPF_LD | BPF_W | BPF_ABS, (unsigned)offsetof(struct seccomp_data, field))
#define SBX_RET(what) BPF_STMT(BPF_RET | BPF_K, what)
    enum { X32_BIT = 0x40000000, FCNTL = 20, NO_OP = 26, REFUSED = 27, ABSENT = 28 };
    struct sock_filter code[] = {
        /* 0 */ SBX_LOAD(arch),
        /* 1 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SBX_SECCOMP_ARCH, 1, 0),
        /* 2 */ SBX_RET(SECCOMP_RET_KILL_PROCESS),
        /* 3 */ SBX_LOAD(nr),
        /* 4 */ BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, X32_BIT, 0, 1),
        /* 5 */ SBX_RET(SECCOMP_RET_KILL_PROCESS),
        /* 6 */ SBX_IS(6, __NR_add_key, REFUSED),
        /* 7 */ SBX_IS(7, __NR_keyctl, REFUSED),
        /* 8 */ SBX_IS(8, __NR_request_key, REFUSED),
        /* 9 */ SBX_IS(9, __NR_flock, NO_OP),
        /* 10 */ SBX_IS(10, __NR_fcntl, FCNTL),
        /* 11 */ SBX_IS(11, SBX_NR_INOTIFY_INIT, ABSENT),
        /* 12 */ SBX_IS(12, __NR_inotify_init1, ABSENT),
        /* 13 */ SBX_IS(13, __NR_inotify_add_watch, ABSENT),
        /* 14 */ SBX_IS(14, __NR_fanotify_init, ABSENT),
        /* 15 */ SBX_IS(15, __NR_fanotify_mark, ABSENT),
        /* 16 */ SBX_IS(16, __NR_io_uring_setup, ABSENT),
        /* 17 */ SBX_IS(17, __NR_io_uring_enter, ABSENT),
        /* 18 */ SBX_IS(18, __NR_io_uring_register, ABSENT),
        /* 19 */ SBX_RET(SECCOMP_RET_ALLOW),
        /* FCNTL: the command is an int, the argument's low half (both
         * architectures are little-endian). */
        /* 20 */ SBX_LOAD(args[1]),
        /* 21 */ SBX_IS(21, F_SETLK, NO_OP),
        /* 22 */ SBX_IS(22, F_SETLKW, NO_OP),
        /* 23 */ SBX_IS(23, F_OFD_SETLK, NO_OP),
        /* 24 */ SBX_IS(24, F_OFD_SETLKW, NO_OP),
        /* 25 */ SBX_RET(SECCOMP_RET_ALLOW),
        /* 26 NO_OP */ SBX_RET(SECCOMP_RET_ERRNO | 0),   /* "done", did nothing */
        /* 27 REFUSED */ SBX_RET(SECCOMP_RET_ERRNO | EPERM),
        /* 28 ABSENT */ SBX_RET(SECCOMP_RET_ERRNO | ENOSYS),
    };
    _Static_assert(sizeof code / sizeof *code == ABSENT + 1, "the labels name the last three");
#undef SBX_IS
#undef SBX_LOAD
#undef SBX_RET
    struct sock_fprog prog = { (unsigned short)(sizeof code / sizeof *code), code };
    return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0L, 0L);
#else
    return 0;
#endif
}

void sbx_policy_summary(const struct sbx_policy *p, struct sbx_summary *s)
{
    static const char *const isolates[] = {
        "user", "pid", "mount", "network", "ipc", "uts", "no_new_privs", "no_capabilities",
        "ipc_per_move", "no_user_namespaces", "clean_environment",
#ifdef SBX_SECCOMP_ARCH
        "no_key_quota", "no_shared_locks", "no_file_watches", "no_io_uring",
#endif
    };
    int on = p && p->mode == SBX_NAMESPACES;
    *s = (struct sbx_summary){ .on = on, .isolates = isolates };
    if (!on)
        return;
    s->nisolates = (int)(sizeof isolates / sizeof *isolates);
    s->read_only = p->ro.path;
    s->nread_only = p->ro.n;
    s->env = p->env;
    s->nenv = p->nenv;
}

uid_t sbx_engine_uid(const struct sbx_policy *p)
{
    uid_t uid = geteuid();
    return p && p->mode == SBX_NAMESPACES && uid == 0 ? SBX_ROOT_ENGINE_UID : uid;
}

/* --- the plan ----------------------------------------------------------- */

static int plan_add(struct sbx_plan *pl, enum sbx_kind kind, int is_dir, const char *path,
                    const char *target, struct err *e)
{
    if (pl->n == pl->cap) {
        int cap = pl->cap ? 2 * pl->cap : 32;
        struct sbx_entry *grown = realloc(pl->entry, (size_t)cap * sizeof *grown);
        if (!grown)
            return err_set(e, 0, 0, "out of memory");
        pl->entry = grown;
        pl->cap = cap;
    }
    struct sbx_entry *en = &pl->entry[pl->n];
    en->kind = kind;
    en->is_dir = is_dir;
    en->path = strdup(path);
    en->target = target ? strdup(target) : NULL;
    if (!en->path || (target && !en->target)) {
        free(en->path);
        free(en->target);
        return err_set(e, 0, 0, "out of memory");
    }
    pl->n++;
    return 0;
}

/* A path the engine sees by its own right: bound at its real place, and
 * the path as given made a symlink to it when they differ. A path that
 * does not exist, "/" and "/tmp" are not added. */
static int plan_visible(struct sbx_plan *pl, enum sbx_kind kind, const char *path,
                        struct err *e)
{
    char lex[PATH_MAX], real[PATH_MAX];
    struct stat st;
    if (path_lexical(path, NULL, lex, sizeof lex) != 0 || !realpath(lex, real) ||
        stat(real, &st) != 0)
        return 0;
    /* The view's root and its /tmp are its own, whatever dir=, the
     * referee's folder or --sandbox-ro say: "/" would bring the host's /tmp
     * and everything else, "/tmp" the host's /tmp (and other games'
     * folders). */
    if (strcmp(real, "/") == 0 || strcmp(real, "/tmp") == 0)
        return 0;
    if (plan_add(pl, kind, S_ISDIR(st.st_mode), real, NULL, e) != 0)
        return -1;
    return strcmp(lex, real) == 0 ? 0 : plan_add(pl, SBX_SYMLINK, 0, lex, real, e);
}

/* A path to hide, at its real place; nothing when it does not exist, nor
 * inside the system unless in_system. */
static int plan_mask(struct sbx_plan *pl, const char *path, int in_system, struct err *e)
{
    char real[PATH_MAX];
    struct stat st;
    if (!realpath(path, real) || lstat(real, &st) != 0 || (!in_system && path_is_system(real)))
        return 0;
    return plan_add(pl, SBX_MASK, S_ISDIR(st.st_mode), real, NULL, e);
}

/* The system, the devices, /proc and /tmp: the same in every view. */
static int plan_base(struct sbx_plan *pl, struct err *e)
{
    for (size_t i = 0; i < sizeof system_dirs / sizeof *system_dirs; i++) {
        struct stat st;
        char link[PATH_MAX];
        if (lstat(system_dirs[i], &st) != 0)
            continue;
        if (S_ISLNK(st.st_mode)) {
            ssize_t n = readlink(system_dirs[i], link, sizeof link - 1);
            if (n <= 0)
                continue;
            link[n] = '\0';
            if (plan_add(pl, SBX_SYMLINK, 0, system_dirs[i], link, e) != 0)
                return -1;
        } else if (S_ISDIR(st.st_mode) &&
                   plan_add(pl, SBX_BIND_RO, 1, system_dirs[i], NULL, e) != 0) {
            return -1;
        }
    }
    /* The suite's installed data (datadir.h), read-only: its own engines
     * read their weights and opening book there, whatever the PREFIX. */
    char data[PATH_MAX];
    struct stat dst;
    if (realpath(datadir(), data) && stat(data, &dst) == 0 && S_ISDIR(dst.st_mode) &&
        !path_is_system(data) && plan_add(pl, SBX_BIND_RO, 1, data, NULL, e) != 0)
        return -1;
    for (size_t i = 0; i < sizeof devices / sizeof *devices; i++) {
        char path[32];
        struct stat st;
        snprintf(path, sizeof path, "/dev/%s", devices[i]);
        if (stat(path, &st) == 0 && S_ISCHR(st.st_mode) &&
            plan_add(pl, SBX_DEVICE, 0, path, NULL, e) != 0)
            return -1;
    }
    for (size_t i = 0; i < sizeof dev_links / sizeof *dev_links; i++)
        if (plan_add(pl, SBX_SYMLINK, 0, dev_links[i].path, dev_links[i].target, e) != 0)
            return -1;
    if (plan_add(pl, SBX_PROC, 1, "/proc", NULL, e) != 0 ||
        plan_add(pl, SBX_TMPFS, 1, "/tmp", NULL, e) != 0)
        return -1;
    return 0;
}

static int entry_order(const void *a, const void *b)
{
    const struct sbx_entry *x = a, *y = b;
    int c = strcmp(x->path, y->path);
    return c ? c : (int)x->kind - (int)y->kind;
}

/* The closest earlier kept entry that holds entry i, or NULL (the root). */
static const struct sbx_entry *holder(const struct sbx_plan *pl, const char *keep, int i)
{
    for (int k = i - 1; k >= 0; k--)
        if (keep[k] && path_is_inside(pl->entry[i].path, pl->entry[k].path) &&
            strcmp(pl->entry[i].path, pl->entry[k].path) != 0)
            return &pl->entry[k];
    return NULL;
}

/* Whether sorted entry i changes the view, given which of those before it
 * are kept. */
static int changes_view(const struct sbx_plan *pl, const char *keep, int i)
{
    const struct sbx_entry *en = &pl->entry[i], *in = holder(pl, keep, i);
    int in_bind = in && (in->kind == SBX_BIND_RO || in->kind == SBX_BIND_RW);
    if (i > 0 && strcmp(pl->entry[i - 1].path, en->path) == 0)
        return 0;   /* a path twice: the first kind (entry_order) wins */
    switch (en->kind) {
    case SBX_BIND_RO:
        return !in || in->kind != SBX_BIND_RO;
    case SBX_SYMLINK:
        return !in_bind && !(in && in->kind == SBX_DEVICE);
    case SBX_MASK:
        return in_bind;
    default:
        return 1;
    }
}

/* Sorts the entries and drops those that change nothing. 0, or -1 (out of
 * memory). */
static int plan_settle(struct sbx_plan *pl)
{
    qsort(pl->entry, (size_t)pl->n, sizeof *pl->entry, entry_order);
    char *keep = calloc((size_t)pl->n + 1, 1);
    if (!keep)
        return -1;
    for (int i = 0; i < pl->n; i++)
        keep[i] = (char)changes_view(pl, keep, i);
    int kept = 0;
    for (int i = 0; i < pl->n; i++) {
        if (keep[i]) {
            struct sbx_entry t = pl->entry[kept];
            pl->entry[kept++] = pl->entry[i];
            pl->entry[i] = t;
        } else {
            free(pl->entry[i].path);
            free(pl->entry[i].target);
            pl->entry[i].path = pl->entry[i].target = NULL;
        }
    }
    free(keep);
    pl->n = kept;
    return 0;
}

int sbx_plan_build(const struct sbx_view *v, struct sbx_plan *pl, struct err *e)
{
    assert(v && v->rw);
    memset(pl, 0, sizeof *pl);
    const struct sbx_policy *p = v->policy;
    int rc = plan_base(pl, e);
    if (!rc && v->workdir)
        rc = plan_visible(pl, SBX_BIND_RO, v->workdir, e);
    for (int i = 0; !rc && v->own && i < v->own->n; i++)
        rc = plan_visible(pl, SBX_BIND_RO, v->own->path[i], e);
    for (int i = 0; !rc && p && i < p->ro.n; i++)
        rc = plan_visible(pl, SBX_BIND_RO, p->ro.path[i], e);
    if (!rc)
        rc = plan_visible(pl, SBX_BIND_RW, v->rw, e);
    char beside[PATH_MAX];
    if (!rc && realpath(v->rw, beside)) {
        /* Other games' folders: a private /tmp hides them where they are. */
        path_cut_to_folder(beside);
        if (strcmp(beside, "/tmp") != 0)
            rc = plan_mask(pl, beside, p && p->mask_system, e);
    }
    for (int i = 0; !rc && p && i < p->mask.n; i++)
        rc = plan_mask(pl, p->mask.path[i], p->mask_system, e);
    if (rc) {
        sbx_plan_free(pl);
        return -1;
    }
    if (plan_settle(pl) != 0) {
        sbx_plan_free(pl);
        return err_set(e, 0, 0, "out of memory");
    }
    return 0;
}

void sbx_plan_free(struct sbx_plan *pl)
{
    for (int i = 0; i < pl->n; i++) {
        free(pl->entry[i].path);
        free(pl->entry[i].target);
    }
    free(pl->entry);
    memset(pl, 0, sizeof *pl);
}

/* The entry of pl that decides what the view shows at path: the last
 * (deepest, entries being sorted) that holds it; NULL when none does. */
static const struct sbx_entry *deciding(const struct sbx_plan *pl, const char *path)
{
    const struct sbx_entry *at = NULL;
    for (int i = 0; i < pl->n; i++)
        if (path_is_inside(path, pl->entry[i].path))
            at = &pl->entry[i];
    return at;
}

int sbx_plan_hides(const struct sbx_plan *pl, const char *text, char *path, size_t cap)
{
    assert(pl && text && path && cap > 0);
    /* What programs and shells (sh: "exec: PATH: not found") say. */
    if (!strstr(text, "No such file or directory") && !strstr(text, ": not found"))
        return 0;
    for (const char *p = strchr(text, '/'); p; p = strchr(p + 1, '/')) {
        if (p > text && !strchr(" \t\n'\"`(:=", p[-1]))
            continue;   /* inside a word: not the start of a path */
        size_t n = strcspn(p, " \t\n'\"`):,;");
        while (n > 1 && p[n - 1] == '.')
            n--;
        char cand[PATH_MAX], real[PATH_MAX];
        struct stat st;
        if (n >= sizeof cand)
            continue;
        memcpy(cand, p, n);
        cand[n] = '\0';
        if (lstat(cand, &st) != 0 || !realpath(cand, real))
            continue;
        const struct sbx_entry *at = deciding(pl, real);
        if (at && (at->kind == SBX_BIND_RO || at->kind == SBX_BIND_RW ||
                   at->kind == SBX_DEVICE || at->kind == SBX_PROC))
            continue;
        if ((size_t)snprintf(path, cap, "%s", cand) >= cap)
            continue;
        return 1;
    }
    return 0;
}

/* --- building a view (in the init) -------------------------------------- */

/* Creates the folders of path that are missing, as 0755. */
static int make_folders(char *path)
{
    for (char *p = path + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        int rc = mkdir(path, 0755);
        *p = '/';
        if (rc != 0 && errno != EEXIST)
            return -1;
    }
    return 0;
}

/* Makes the mount point of an entry: a folder, or an empty file. */
static int make_point(const char *target, int is_dir)
{
    if (is_dir)
        return mkdir(target, 0755) == 0 || errno == EEXIST ? 0 : -1;
    struct stat st;
    if (lstat(target, &st) == 0)
        return 0;   /* the file itself, inside a bound folder */
    int fd = open(target, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0444);
    return fd < 0 ? -1 : close(fd);
}

/* Mounts one entry at stage + its path. rw_source names the move folder
 * (the stage hides it). */
static int mount_entry(const struct sbx_entry *en, const char *stage, const char *rw_source,
                       const char *empty)
{
    char target[2 * PATH_MAX];
    snprintf(target, sizeof target, "%s%s", stage, en->path);
    if (make_folders(target) != 0)
        return -1;
    switch (en->kind) {
    case SBX_SYMLINK:
        return symlink(en->target, target) == 0 || errno == EEXIST ? 0 : -1;
    case SBX_BIND_RW:
        /* Not recursive: the view's root is mounted on the move folder. */
        return make_point(target, 1) != 0 ? -1 : mount(rw_source, target, NO_TYPE, MS_BIND, NULL);
    case SBX_BIND_RO:
        if (make_point(target, en->is_dir) != 0)
            return -1;
        return mount(en->path, target, NO_TYPE, MS_BIND | MS_REC, NULL);
    case SBX_DEVICE:
        return make_point(target, 0) != 0 ? -1 : mount(en->path, target, NO_TYPE, MS_BIND, NULL);
    case SBX_TMPFS:
        return make_point(target, 1) != 0
                   ? -1
                   : mount("tmpfs", target, "tmpfs", MS_NOSUID | MS_NODEV, SBX_TMP_OPTIONS);
    case SBX_PROC:
        return make_point(target, 1) != 0
                   ? -1
                   : mount("proc", target, "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC,
                           "hidepid=2");
    case SBX_MASK:
        if (en->is_dir)
            return mount("tmpfs", target, "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC,
                         MASK_OPTIONS);
        return mount(empty, target, NO_TYPE, MS_BIND, NULL);
    }
    return -1;
}

/* The mount flags a read-only remount must keep (a mount made in another
 * user namespace has them locked) from mountinfo's per-mount options. */
static unsigned long kept_flags(const char *opts)
{
    static const struct { const char *name; unsigned long flag; } known[] = {
        { "nosuid", MS_NOSUID }, { "nodev", MS_NODEV }, { "noexec", MS_NOEXEC },
        { "noatime", MS_NOATIME }, { "nodiratime", MS_NODIRATIME },
        { "relatime", MS_RELATIME }, { "strictatime", MS_STRICTATIME },
    };
    unsigned long flags = 0;
    for (const char *p = opts; *p; p += *p == ',') {
        size_t n = strcspn(p, ",");
        for (size_t k = 0; k < sizeof known / sizeof *known; k++)
            if (strlen(known[k].name) == n && strncmp(p, known[k].name, n) == 0)
                flags |= known[k].flag;
        p += n;
    }
    return flags;
}

/* Undoes mountinfo's octal escapes (\040 for a blank) in place. */
static void unescape(char *s)
{
    char *out = s;
    for (; *s; s++) {
        if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] && s[3]) {
            *out++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
            s += 3;
        } else {
            *out++ = *s;
        }
    }
    *out = '\0';
}

/* Remounts read-only every mount of the view but the move folder, /tmp and
 * /proc, submounts of bound folders included (bound with MS_REC, since a
 * folder with mounts under it cannot be bound alone in a user namespace). */
static int make_read_only(const char *rw)
{
    FILE *f = fopen("/proc/self/mountinfo", "re");
    if (!f)
        return -1;
    char line[MOUNTINFO_LINE_MAX];
    int rc = 0;
    while (!rc && fgets(line, sizeof line, f)) {
        /* ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS ... */
        char *save = NULL, *field = strtok_r(line, " ", &save);
        for (int i = 0; field && i < 4; i++)
            field = strtok_r(NULL, " ", &save);
        char *opts = strtok_r(NULL, " ", &save);
        if (!field || !opts)
            continue;
        unescape(field);
        if (path_is_inside(field, "/proc") || strcmp(field, "/tmp") == 0 ||
            strcmp(field, rw) == 0 || strcmp(opts, "ro") == 0 || strncmp(opts, "ro,", 3) == 0)
            continue;
        unsigned long flags = MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | kept_flags(opts);
        if (!path_is_inside(field, "/dev"))
            flags |= MS_NODEV;
        /* A mount that a later one covers (a mask over a folder with mounts
         * in it) cannot be reached by its path, nor by the engine. */
        if (mount(NO_TYPE, field, NO_TYPE, flags, NULL) != 0 && errno != ENOENT)
            rc = -1;
    }
    fclose(f);
    return rc;
}

/* What failed while building a view, for the message. */
struct build_failure {
    const char *what;
    const char *path;
    int err;
};

static int failed(struct build_failure *bf, const char *what, const char *path)
{
    bf->what = what;
    bf->path = path;
    bf->err = errno;
    return -1;
}

/* The staging of a view: a new mount namespace whose root-to-be is a tmpfs
 * mounted over the move folder (a folder of ours; the view sees the folder
 * itself through rw_fd, opened before), unbindable so that a visible folder
 * that holds the move folder does not bring the root into itself. Beside
 * it, in a small tmpfs of its own (a bind from an unbindable mount is
 * refused), the empty file that masks files. */
struct stage {
    char root[PATH_MAX];
    char masks[PATH_MAX + 16];       /* the masks' tmpfs */
    char empty[PATH_MAX + 32];       /* the empty file in it */
    char rw_source[64];              /* /proc/self/fd/N of the move folder */
    int rw_fd;
};

static int stage_open(struct stage *st, const char *rw, struct build_failure *bf)
{
    st->rw_fd = -1;
    if (!realpath(rw, st->root))
        return failed(bf, "cannot find the move folder", rw);
    snprintf(st->masks, sizeof st->masks, "%s/%s", st->root, MASKS_NAME);
    snprintf(st->empty, sizeof st->empty, "%s/empty", st->masks);
    int fd;
    /* The descriptor after unshare: a bind's source must be a mount of the
     * namespace it goes into. */
    if (unshare(CLONE_NEWNS) != 0)
        return failed(bf, "unshare(CLONE_NEWNS)", "");
    if ((st->rw_fd = open(st->root, O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0)
        return failed(bf, "cannot open the move folder", st->root);
    snprintf(st->rw_source, sizeof st->rw_source, "/proc/self/fd/%d", st->rw_fd);
    if (mount("tmpfs", st->root, "tmpfs", MS_NOSUID | MS_NODEV, ROOT_OPTIONS) != 0 ||
        mount(NO_TYPE, st->root, NO_TYPE, MS_UNBINDABLE, NULL) != 0)
        return failed(bf, "cannot mount the view's root on", st->root);
    if (mkdir(st->masks, 0755) != 0 ||
        mount("tmpfs", st->masks, "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, MASK_OPTIONS) != 0 ||
        (fd = open(st->empty, O_WRONLY | O_CREAT | O_CLOEXEC, 0444)) < 0)
        return failed(bf, "cannot make the masks' empty file", st->empty);
    return close(fd);
}

/* Makes the staged root "/" and drops everything else: the masks' tmpfs
 * (its file stays where it masks) and the old root. */
static int stage_enter(struct stage *st, struct build_failure *bf)
{
    char old[PATH_MAX + 16];
    snprintf(old, sizeof old, "%s/%s", st->root, OLD_ROOT_NAME);
    if (umount2(st->masks, MNT_DETACH) != 0 || rmdir(st->masks) != 0 || mkdir(old, 0755) != 0 ||
        syscall(SYS_pivot_root, st->root, old) != 0 || chdir("/") != 0)
        return failed(bf, "cannot make the view the root", st->root);
    if (umount2("/" OLD_ROOT_NAME, MNT_DETACH) != 0 || rmdir("/" OLD_ROOT_NAME) != 0)
        return failed(bf, "cannot detach the old root", "/");
    return 0;
}

/* Builds a view from its plan in a new mount namespace and returns a
 * descriptor of that namespace; the init is back in m0 after. -1 with bf
 * filled on failure. */
static int build_view(const struct sbx_plan *pl, const char *rw, int m0,
                      struct build_failure *bf)
{
    struct stage st;
    int rc = stage_open(&st, rw, bf);
    for (int i = 0; !rc && i < pl->n; i++)
        if (mount_entry(&pl->entry[i], st.root, st.rw_source, st.empty) != 0)
            rc = failed(bf, "cannot mount", pl->entry[i].path);
    if (st.rw_fd >= 0)
        close(st.rw_fd);
    if (!rc)
        rc = stage_enter(&st, bf);
    if (!rc && make_read_only(st.root) != 0)
        rc = failed(bf, "cannot make the view read-only", "");
    int ns = rc ? -1 : open("/proc/self/ns/mnt", O_RDONLY | O_CLOEXEC);
    if (!rc && ns < 0)
        rc = failed(bf, "cannot open", "/proc/self/ns/mnt");
    if (setns(m0, CLONE_NEWNS) != 0) {
        failed(bf, "cannot leave the view", "");
        if (ns >= 0)
            close(ns);
        return -1;
    }
    return rc ? -1 : ns;
}

/* --- the init ----------------------------------------------------------- */

/* The page the referee and the init share. The referee writes a request
 * and then sends one byte; the init writes the answer and then sends one
 * byte back. stop_seq alone is written while the other side works. */
struct shared {
    /* the request */
    long seq;                    /* the move's number */
    int view;
    struct run_limits limits;    /* cancel is not used there */
    char cwd[PATH_MAX];
    int argc;
    char args[ARGS_CAP];         /* argc NUL-terminated words */
    /* the referee asks the init to kill move stop_seq */
    atomic_long stop_seq;
    /* the answer */
    int failed;                  /* the sandbox itself failed: msg */
    char msg[ERR_MSG_MAX];
    int exec_errno;              /* the engine did not start: exec_what */
    char exec_what[EXEC_WHAT_MAX];  /* which step failed, in words */
    int status;                  /* the engine's wait status */
    struct rusage ru;            /* its rusage */
    double wall_ms;              /* from vfork to its end */
};

struct sbx {
    pid_t init;                  /* 0 once killed */
    pid_t opener;                /* the process that opened it, whose child
                                  * the init is: only it kills the init (a
                                  * process forked since holds a copy) */
    const struct sbx_words *words;  /* what its messages call it */
    int sock;                    /* our end of the socket pair */
    struct shared *sh;
    int n;
    const struct sbx_view *views;
    struct sbx_plan plan[SBX_MAX_VIEWS];
    int root;                    /* engines run as SBX_ROOT_ENGINE_UID */
    char **envp;                 /* the engines' environment (sbx_environment) */
    int folder[SBX_MAX_VIEWS];   /* each view's move folder (the init's
                                  * tmpfs), open; -1: none or taken */
    size_t map_len;              /* the page and the image, mapped at sh */
};

/* What the init holds. */
struct init_ctx {
    const struct sbx *box;
    char setup_failure[ERR_MSG_MAX];   /* "" when the namespaces are set up */
    int tree[SBX_MAX_VIEWS];           /* each view's mount namespace, or -1 */
    char failure[SBX_MAX_VIEWS][ERR_MSG_MAX];
};

/* The init's SIGUSR1 handler can reach nothing else; only the init sets
 * it, once. */
static struct shared *stop_page;

static void on_stop_request(int sig)
{
    (void)sig;
    if (stop_page && atomic_load(&stop_page->stop_seq) == stop_page->seq)
        kill(-1, SIGKILL);
}

/* The engine's side of the vfork: enters the move's cgroup (cg: the
 * referee's descriptors of its membership files, -1 past the last), its
 * view, gives up every privilege and execs, its stdout and stderr into
 * std[] (the referee's pipes; -1: /dev/null), its stdin in_fd (an engine
 * that stays; -1: /dev/null). Never returns; a failure is told through the
 * page. Only system calls here: the child shares the
 * init's memory until exec. */
static void engine_child(const struct init_ctx *in, char *const argv[], const int std[2],
                         const int cg[LAUNCH_CG_FILES], int in_fd)
{
    struct shared *sh = in->box->sh;
    const char *what = CG_ENTER_FAILED;
    for (int i = 0; i < LAUNCH_CG_FILES; i++)
        if (cg[i] >= 0 && write(cg[i], "0", 1) != 1)
            goto fail;
    what = "cannot enter its view";
    if (setns(in->tree[sh->view], CLONE_NEWNS) != 0)
        goto fail;
    setpgid(0, 0);
    what = "cannot enter its working directory";
    if (chdir(sh->cwd) != 0)
        goto fail;
    what = "cannot open /dev/null";
    int null = open("/dev/null", O_RDWR);
    if (null < 0)
        goto fail;
    dup2(in_fd >= 0 ? in_fd : null, STDIN_FILENO);
    dup2(std[0] >= 0 ? std[0] : null, STDOUT_FILENO);
    dup2(std[1] >= 0 ? std[1] : null, STDERR_FILENO);
    close_range(STDERR_FILENO + 1, ~0U, 0);
    run_apply_limits(&sh->limits);
    /* SysV segments, semaphores and queues of its own, which die with
     * the move's last process: none outlives the move or reaches the other
     * engine. */
    what = "cannot get an IPC namespace of its own";
    if (unshare(CLONE_NEWIPC) != 0)
        goto fail;
    what = "cannot give up its privileges";
    /* The bounding set needs CAP_SETPCAP and the ids CAP_SET[UG]ID: first. */
    for (int cap = 0; cap <= LAST_CAP_GUESS; cap++)
        if (prctl(PR_CAPBSET_DROP, (long)cap, 0L, 0L, 0L) != 0 && errno == EINVAL)
            break;   /* past the kernel's last capability */
    prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0L, 0L, 0L);
    const long id = SBX_ROOT_ENGINE_UID;
    if (in->box->root && (syscall(SYS_setgroups, 0L, NULL) != 0 ||
                          syscall(SYS_setresgid, id, id, id) != 0 ||
                          syscall(SYS_setresuid, id, id, id) != 0))
        goto fail;
    struct __user_cap_header_struct head = { _LINUX_CAPABILITY_VERSION_3, 0 };
    struct __user_cap_data_struct none[_LINUX_CAPABILITY_U32S_3];
    memset(none, 0, sizeof none);
    if (syscall(SYS_capset, &head, none) != 0 || prctl(PR_SET_NO_NEW_PRIVS, 1L, 0L, 0L, 0L) != 0)
        goto fail;
    what = "cannot install its system-call filter";
    if (install_seccomp() != 0)
        goto fail;
    what = "cannot run";
    execvp(argv[0], argv);
fail:
    sh->exec_errno = errno ? errno : EINVAL;
    /* By hand: a vfork child calls nothing that may take a lock. */
    size_t i = 0;
    for (; what[i] && i + 1 < sizeof sh->exec_what; i++)
        sh->exec_what[i] = what[i];
    sh->exec_what[i] = '\0';
    _exit(127);
}

/* Kills every process of the namespace but the init and reaps them. */
static void sweep_namespace(void)
{
    for (;;) {
        kill(-1, SIGKILL);
        if (waitpid(-1, NULL, 0) < 0 && errno == ECHILD)
            return;
    }
}

/* One move, its stdout and stderr into fds[0..1], its cgroup's
 * membership files fds[2..], its stdin in_fd (-1: /dev/null; all closed
 * here): the answer goes into the page. A spawn (an engine that stays,
 * tell >= 0) also says "s" on tell once the engine runs or failed to
 * start, before waiting for its end. */
static void serve(struct init_ctx *in, int fds[REQUEST_FDS], int in_fd, int tell)
{
    struct shared *sh = in->box->sh;
    int *std = fds;
    sh->failed = sh->exec_errno = sh->status = 0;
    memset(&sh->ru, 0, sizeof sh->ru);
    sh->wall_ms = 0;
    int v = sh->view;
    if (in->setup_failure[0] || v < 0 || v >= in->box->n || in->tree[v] < 0) {
        for (int i = 0; i < REQUEST_FDS; i++)
            if (fds[i] >= 0)
                close(fds[i]);
        if (in_fd >= 0)
            close(in_fd);
        /* View -1: the probe asks how the setup went. */
        sh->failed = in->setup_failure[0] || v != -1;
        snprintf(sh->msg, sizeof sh->msg, "%s",
                 in->setup_failure[0] ? in->setup_failure
                 : v >= 0 && v < in->box->n ? in->failure[v]
                                            : "no such view");
        return;
    }
    char *argv[RUN_MAX_ARGS + 1];
    char *word = sh->args;
    for (int i = 0; i < sh->argc; i++, word += strlen(word) + 1)
        argv[i] = word;
    argv[sh->argc] = NULL;
    long seq = sh->seq;
    uint64_t t0 = clock_wall_ns();
    pid_t pid = vfork();
    if (pid == 0)
        engine_child(in, argv, std, fds + 2, in_fd);
    /* The engine has them now: the pipes end when its processes do. */
    for (int i = 0; i < REQUEST_FDS; i++)
        if (fds[i] >= 0)
            close(fds[i]);
    if (in_fd >= 0)
        close(in_fd);
    if (pid < 0) {
        sh->failed = 1;
        snprintf(sh->msg, sizeof sh->msg, "vfork: %s", strerror(errno));
        return;
    }
    /* send, not write: a SIGPIPE's default action would be the init's
     * (ignored for a namespace's pid 1, but fatal under valgrind). */
    if (tell >= 0 && send(tell, "s", 1, MSG_NOSIGNAL) != 1)
        _exit(0);   /* the referee is gone */
    /* A stop that came before the engine was there to kill. */
    if (atomic_load(&sh->stop_seq) == seq)
        kill(-1, SIGKILL);
    while (wait4(pid, &sh->status, 0, &sh->ru) < 0 && errno == EINTR)
        ;
    sh->wall_ms = (double)(clock_wall_ns() - t0) / NS_PER_MS;
    sweep_namespace();
}

/* Reads a request's byte from sock into *what, and the descriptors that come with it
 * (the engine's stdout and stderr, then its cgroup's membership files)
 * into fds, -1 each when none came. Returns what recvmsg returns. */
static ssize_t recv_request(int sock, int fds[SPAWN_FDS], char *what)
{
    char control[CMSG_SPACE(SPAWN_FDS * sizeof(int))];
    struct iovec iov = { what, 1 };
    struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = control,
                        .msg_controllen = sizeof control };
    for (int i = 0; i < SPAWN_FDS; i++)
        fds[i] = -1;
    ssize_t n = recvmsg(sock, &m, MSG_CMSG_CLOEXEC);
    struct cmsghdr *cm = n == 1 ? CMSG_FIRSTHDR(&m) : NULL;
    if (cm && cm->cmsg_level == SOL_SOCKET && cm->cmsg_type == SCM_RIGHTS &&
        cm->cmsg_len >= CMSG_LEN(2 * sizeof(int)) &&
        cm->cmsg_len <= CMSG_LEN(SPAWN_FDS * sizeof(int)))
        memcpy(fds, CMSG_DATA(cm), cm->cmsg_len - CMSG_LEN(0));
    return n;
}

/* Sends the byte what on sock with the n descriptors fd (a request's,
 * or the views' move folders): 0, or -1 with errno. */
static int send_fds(int sock, char what, const int *fd, int n)
{
    _Static_assert(SBX_MAX_VIEWS <= SPAWN_FDS, "the folders fit a request's room");
    assert(n >= 0 && n <= SPAWN_FDS);
    char control[CMSG_SPACE(SPAWN_FDS * sizeof(int))];
    memset(control, 0, sizeof control);
    struct iovec iov = { &what, 1 };
    struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1 };
    if (n > 0) {
        m.msg_control = control;
        m.msg_controllen = CMSG_SPACE((size_t)n * sizeof(int));
        struct cmsghdr *cm = CMSG_FIRSTHDR(&m);
        cm->cmsg_level = SOL_SOCKET;
        cm->cmsg_type = SCM_RIGHTS;
        cm->cmsg_len = CMSG_LEN((size_t)n * sizeof(int));
        memcpy(CMSG_DATA(cm), fd, (size_t)n * sizeof(int));
    }
    return sendmsg(sock, &m, MSG_NOSIGNAL) == 1 ? 0 : -1;
}

/* Closes every descriptor above last, and reads and writes /dev/null on
 * the standard ones: the init holds nothing of the referee's (a pipe it
 * held would never reach end of file). */
static void close_above(int last)
{
    int null = open("/dev/null", O_RDWR | O_CLOEXEC);
    if (null >= 0) {
        dup2(null, STDIN_FILENO);
        dup2(null, STDOUT_FILENO);
        dup2(null, STDERR_FILENO);
    }
    close_range((unsigned)last + 1, ~0U, 0);
}

/* Mounts a tmpfs of SBX_MOVE_OPTIONS, the engine's own, over the move
 * folder rw in the init's mount namespace: the view binds it from there, and
 * the referee reaches it through the descriptor send_folders hands over. */
static int mount_move_folder(const char *rw, int root)
{
    char opts[128];
    long uid = root ? SBX_ROOT_ENGINE_UID : (long)geteuid();
    long gid = root ? SBX_ROOT_ENGINE_UID : (long)getegid();
    snprintf(opts, sizeof opts, "%s,mode=0700,uid=%ld,gid=%ld", SBX_MOVE_OPTIONS, uid, gid);
    return mount("tmpfs", rw, "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, opts);
}

/* Tells the referee the setup is done, with a descriptor of each view's
 * move folder when every view was built (none otherwise: the first move
 * reports the failure). 0, or -1 when the referee is gone. */
static int send_folders(int sock, const struct init_ctx *in)
{
    int fd[SBX_MAX_VIEWS], n = 0;
    for (int v = 0; v < in->box->n && !in->setup_failure[0]; v++) {
        if (in->tree[v] < 0 ||
            (fd[n] = open(in->box->views[v].rw, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
            break;
        n++;
    }
    if (n < in->box->n) {
        for (int i = 0; i < n; i++)
            close(fd[i]);
        n = 0;
    }
    int rc = send_fds(sock, 's', fd, n);
    for (int i = 0; i < n; i++)
        close(fd[i]);
    return rc;
}

/* The init's setup: the namespace-wide settings and every view. */
static void init_setup(struct init_ctx *in)
{
    const struct sbx *box = in->box;
    struct build_failure bf = { "", "", 0 };
    int m0 = -1;
    sethostname(HOSTNAME, strlen(HOSTNAME));
    /* The game's own /proc over the host's, in the init's namespace: the
     * views' /proc is mounted the same way, and the probe finds out here
     * whether the kernel allows it (a container that hides parts of /proc
     * does not). */
    if (mount(NO_TYPE, "/", NO_TYPE, MS_REC | MS_PRIVATE, NULL) != 0)
        failed(&bf, "cannot make the mounts private", "/");
    else if (mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) != 0)
        failed(&bf, "cannot mount a /proc of its own on", "/proc");
    else if ((m0 = open("/proc/self/ns/mnt", O_RDONLY | O_CLOEXEC)) < 0)
        failed(&bf, "cannot open", "/proc/self/ns/mnt");
    if (m0 < 0)
        snprintf(in->setup_failure, sizeof in->setup_failure, "%s %s: %s", bf.what, bf.path,
                 strerror(bf.err));
    /* No user namespace inside this one: a nested one would give an engine
     * the capabilities to mount (a tmpfs that no limit counts). The limit
     * is this user namespace's own (the kernel counts nested ones against
     * every ancestor's). */
    int fd = m0 < 0 ? -1 : open(MAX_USERNS, O_WRONLY | O_CLOEXEC);
    if (m0 >= 0 && (fd < 0 || write(fd, "0\n", 2) != 2)) {
        snprintf(in->setup_failure, sizeof in->setup_failure,
                 "cannot forbid nested user namespaces (%s): %s", MAX_USERNS, strerror(errno));
    }
    if (fd >= 0)
        close(fd);
    /* Not dumpable: no engine can trace it or read its /proc files. */
    prctl(PR_SET_DUMPABLE, 0L, 0L, 0L, 0L);
    for (int v = 0; v < box->n; v++) {
        in->tree[v] = -1;
        if (m0 >= 0 && mount_move_folder(box->views[v].rw, box->root) != 0)
            failed(&bf, "cannot mount a move folder on", box->views[v].rw);
        else if (m0 >= 0)
            in->tree[v] = build_view(&box->plan[v], box->views[v].rw, m0, &bf);
        if (in->tree[v] < 0)
            snprintf(in->failure[v], sizeof in->failure[v], "%s %s: %s", bf.what, bf.path,
                     strerror(bf.err));
    }
}

/* The init, after its exec: pid 1 of the game's PID namespace, box read
 * from the image. Never returns. */
static _Noreturn void init_serve(const struct sbx *box, int sock)
{
    /* Again after the exec (which keeps it; a set-user-id one would not):
     * the referee's death ends the game. */
    prctl(PR_SET_PDEATHSIG, (long)SIGKILL, 0L, 0L, 0L);
    close_range(INIT_PAGE_FD + 1, ~0U, 0);
    struct init_ctx in;
    memset(&in, 0, sizeof in);
    in.box = box;
    init_setup(&in);
    if (send_folders(sock, &in) != 0)
        _exit(1);
    stop_page = box->sh;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop_request;
    sa.sa_flags = SA_RESTART;
    sigaction(SIGUSR1, &sa, NULL);
    for (;;) {
        int fds[SPAWN_FDS];
        char what = 0;
        ssize_t n = recv_request(sock, fds, &what);
        if (n < 0 && errno == EINTR)
            continue;
        /* The referee closed its end: it is done, or it died, possibly
         * before our PR_SET_PDEATHSIG was set (then no signal comes, and
         * waiting for one would outlive it). Our exit ends the namespace. */
        if (n != 1)
            _exit(0);
        /* A spawn's descriptors: its stdin, then as a move's. */
        int in_fd = -1;
        if (what == 'S') {
            in_fd = fds[0];
            memmove(fds, fds + 1, REQUEST_FDS * sizeof *fds);
        } else if (fds[REQUEST_FDS] >= 0) {
            close(fds[REQUEST_FDS]);   /* one too many for a move */
        }
        serve(&in, fds, in_fd, what == 'S' ? sock : -1);
        if (send(sock, "d", 1, MSG_NOSIGNAL) != 1)   /* as serve's "s" */
            _exit(0);
    }
}

/* --- the image: what the init needs of the box, across its exec --------- */

/* After the page in the shared memory: this head, then its strings (each
 * view's move folder, then each entry of each view's plan: its kind and
 * is_dir as one byte each, its path and its target, "" for none). */
struct image_head {
    char magic[sizeof IMAGE_MAGIC];
    size_t page;                 /* sizeof (struct shared) of the writer */
    int n, root;
    int entries[SBX_MAX_VIEWS];
    size_t len;                  /* the strings' bytes */
};

static size_t image_strings(const struct sbx *box)
{
    size_t len = 0;
    for (int v = 0; v < box->n; v++) {
        len += strlen(box->views[v].rw) + 1;
        for (int i = 0; i < box->plan[v].n; i++) {
            const struct sbx_entry *en = &box->plan[v].entry[i];
            len += 2 + strlen(en->path) + 1 + (en->target ? strlen(en->target) : 0) + 1;
        }
    }
    return len;
}

static char *put_string(char *at, const char *s)
{
    size_t len = strlen(s) + 1;
    memcpy(at, s, len);
    return at + len;
}

/* Writes box's image at h: the head, then image_strings(box) bytes. */
static void image_write(const struct sbx *box, struct image_head *h)
{
    memset(h, 0, sizeof *h);
    memcpy(h->magic, IMAGE_MAGIC, sizeof IMAGE_MAGIC);
    h->page = sizeof(struct shared);
    h->n = box->n;
    h->root = box->root;
    h->len = image_strings(box);
    char *at = (char *)(h + 1);
    for (int v = 0; v < box->n; v++) {
        h->entries[v] = box->plan[v].n;
        at = put_string(at, box->views[v].rw);
        for (int i = 0; i < box->plan[v].n; i++) {
            const struct sbx_entry *en = &box->plan[v].entry[i];
            *at++ = (char)('0' + en->kind);
            *at++ = (char)('0' + en->is_dir);
            at = put_string(at, en->path);
            at = put_string(at, en->target ? en->target : "");
        }
    }
}

/* The next string of the image at *at, before end; NULL past it. */
static const char *take_string(const char **at, const char *end)
{
    const char *s = *at, *nul = s < end ? memchr(s, '\0', (size_t)(end - s)) : NULL;
    if (!nul)
        return NULL;
    *at = nul + 1;
    return s;
}

/* Reads the image of h (len bytes mapped in all) into box, its views'
 * move folders into views and its plans' entries pointing into the image.
 * 0, or -1 when it is not one this build wrote. */
static int image_read(struct sbx *box, struct sbx_view *views, const struct image_head *h,
                      size_t len)
{
    if (len < sizeof *h || memcmp(h->magic, IMAGE_MAGIC, sizeof IMAGE_MAGIC) != 0 ||
        h->page != sizeof(struct shared) || h->n < 0 || h->n > SBX_MAX_VIEWS ||
        h->len > len - sizeof *h)
        return -1;
    const char *at = (const char *)(h + 1), *end = at + h->len;
    box->n = h->n;
    box->root = h->root;
    box->views = views;
    for (int v = 0; v < h->n; v++) {
        if (!(views[v].rw = take_string(&at, end)) || h->entries[v] < 0)
            return -1;
        struct sbx_plan *pl = &box->plan[v];
        pl->n = pl->cap = h->entries[v];
        if (pl->n && !(pl->entry = calloc((size_t)pl->n, sizeof *pl->entry)))
            return -1;
        for (int i = 0; i < pl->n; i++) {
            struct sbx_entry *en = &pl->entry[i];
            if (end - at < 2)
                return -1;
            en->kind = (enum sbx_kind)(at[0] - '0');
            en->is_dir = at[1] - '0';
            at += 2;
            const char *path = take_string(&at, end), *target = take_string(&at, end);
            if (!path || !target)
                return -1;
            en->path = (char *)path;
            en->target = target[0] ? (char *)target : NULL;
        }
    }
    return 0;
}

/* Keeps the clone's capabilities in its user namespace across the exec:
 * a non-root referee maps itself, not root, and an exec by a non-root
 * user drops every capability but the ambient ones. The engines give them
 * all up (engine_child). */
static void keep_capabilities(void)
{
    struct __user_cap_header_struct head = { _LINUX_CAPABILITY_VERSION_3, 0 };
    struct __user_cap_data_struct caps[_LINUX_CAPABILITY_U32S_3];
    if (syscall(SYS_capget, &head, caps) != 0)
        return;
    for (int i = 0; i < _LINUX_CAPABILITY_U32S_3; i++)
        caps[i].inheritable = caps[i].permitted;
    if (syscall(SYS_capset, &head, caps) != 0)
        return;
    for (int cap = 0; cap <= LAST_CAP_GUESS; cap++)
        if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, (long)cap, 0L, 0L) != 0 &&
            errno == EINVAL)
            break;   /* past the kernel's last capability */
}

/* The clone's side, until its exec: waits for the referee's "g" (its ids
 * are mapped then), keeps its capabilities, and execs exe as the init
 * with the socket and the shared memory at INIT_SOCK_FD and INIT_PAGE_FD,
 * in the engines' environment. Never returns; a failed exec is told
 * through the page. */
static _Noreturn void init_exec(const struct sbx *box, int sock, int page_fd, const char *exe)
{
    prctl(PR_SET_PDEATHSIG, (long)SIGKILL, 0L, 0L, 0L);
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    for (int sig = 1; sig < NSIG; sig++)
        sigaction(sig, &dfl, NULL);
    sigset_t all;
    sigemptyset(&all);
    sigprocmask(SIG_SETMASK, &all, NULL);
    /* Both above the places they go to, then there; nothing else open. */
    int s = fcntl(sock, F_DUPFD, INIT_PAGE_FD + 1), pg = fcntl(page_fd, F_DUPFD, INIT_PAGE_FD + 1);
    if (s < 0 || pg < 0 || dup2(s, INIT_SOCK_FD) < 0 || dup2(pg, INIT_PAGE_FD) < 0)
        _exit(1);
    close_above(INIT_PAGE_FD);
    char go;
    if (read(INIT_SOCK_FD, &go, 1) != 1)
        _exit(1);   /* the referee died before our ids were mapped */
    keep_capabilities();
    char *const argv[] = { (char *)exe, (char *)SBX_INIT_ARG, NULL };
    execve(exe, argv, box->envp);
    snprintf(box->sh->msg, sizeof box->sh->msg, "cannot run %.150s as its init: %s", exe,
             strerror(errno));
    _exit(1);
}

int sbx_init_main(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], SBX_INIT_ARG) != 0)
        return 0;
    struct stat st;
    void *map = MAP_FAILED;
    if (argc == 2 && fstat(INIT_PAGE_FD, &st) == 0 && (size_t)st.st_size > sizeof(struct shared))
        map = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, INIT_PAGE_FD, 0);
    struct sbx box;
    struct sbx_view views[SBX_MAX_VIEWS];
    memset(&box, 0, sizeof box);
    memset(views, 0, sizeof views);
    if (map == MAP_FAILED ||
        image_read(&box, views, (const struct image_head *)((char *)map + sizeof(struct shared)),
                   (size_t)st.st_size - sizeof(struct shared)) != 0) {
        fprintf(stderr, "%s: %s is the sandbox's init, which only the referee starts\n",
                argv[0], SBX_INIT_ARG);
        exit(2);
    }
    box.sh = map;
    box.envp = environ;
    init_serve(&box, INIT_SOCK_FD);
}

/* --- the referee's side ------------------------------------------------- */

#define CLONE_FLAGS (CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNS | CLONE_NEWNET | CLONE_NEWIPC | \
                     CLONE_NEWUTS)

const struct sbx_words sbx_engines_words = {
    "the engines' sandbox", "the engines", "run with --sandbox none to play without one",
};

/* Why the kernel refused the namespaces, in words. */
static const char *clone_cause(int err)
{
    switch (err) {
    case EPERM:
    case EACCES:
        return "this system forbids unprivileged user namespaces (sysctl "
               "kernel.unprivileged_userns_clone, an AppArmor or seccomp policy, a container)";
    case ENOSPC:
    case EUSERS:
        return "the limit on user namespaces is reached (sysctl user.max_user_namespaces)";
    case EINVAL:
        return "this kernel lacks a namespace the sandbox needs";
    default:
        return strerror(err);
    }
}

static int write_text(pid_t pid, const char *name, const char *text, struct err *e)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%ld/%s", (long)pid, name);
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    int rc = fd < 0 ? -1 : tf_write_all(fd, text, strlen(text));
    int saved = errno;
    if (fd >= 0)
        close(fd);
    return rc ? err_set(e, 0, 0, "cannot write %s: %s", path, strerror(saved)) : 0;
}

/* The init's user and group ids. A root referee maps root (for the init,
 * which keeps the namespaces' capabilities) and SBX_ROOT_ENGINE_UID (for
 * the engines); anyone else can map only itself. */
static int map_ids(pid_t pid, int root, struct err *e)
{
    char uids[64], gids[64];
    if (root) {
        snprintf(uids, sizeof uids, "0 0 1\n%d %d 1\n", SBX_ROOT_ENGINE_UID,
                 SBX_ROOT_ENGINE_UID);
        snprintf(gids, sizeof gids, "%s", uids);
    } else {
        snprintf(uids, sizeof uids, "%ld %ld 1\n", (long)geteuid(), (long)geteuid());
        snprintf(gids, sizeof gids, "%ld %ld 1\n", (long)getegid(), (long)getegid());
        if (write_text(pid, "setgroups", "deny", e) != 0)
            return -1;
    }
    return write_text(pid, "uid_map", uids, e) != 0 || write_text(pid, "gid_map", gids, e) != 0
               ? -1
               : 0;
}

/* Waits for the init's word that it is set up, and takes the move
 * folders' descriptors that come with it. 0, or -1 with e. */
static int recv_folders(struct sbx *box, struct err *e)
{
    struct pollfd p = { box->sock, POLLIN, 0 };
    int ready;
    while ((ready = poll(&p, 1, SBX_SETUP_MS)) < 0 && errno == EINTR)
        ;
    if (ready <= 0)
        return err_set(e, 0, 0, "%s does not answer; %s", box->words->sandbox,
                       box->words->without);
    char what, control[CMSG_SPACE(SBX_MAX_VIEWS * sizeof(int))];
    struct iovec iov = { &what, 1 };
    struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = control,
                        .msg_controllen = sizeof control };
    if (recvmsg(box->sock, &m, MSG_CMSG_CLOEXEC) != 1 || what != 's')
        return box->sh->msg[0]
                   ? err_set(e, 0, 0, "cannot create %s: %s", box->words->sandbox, box->sh->msg)
                   : err_set(e, 0, 0, "the sandbox's init died while setting up");
    struct cmsghdr *cm = CMSG_FIRSTHDR(&m);
    if (cm && cm->cmsg_level == SOL_SOCKET && cm->cmsg_type == SCM_RIGHTS) {
        int n = (int)((cm->cmsg_len - CMSG_LEN(0)) / sizeof(int));
        int fds[SBX_MAX_VIEWS];
        memcpy(fds, CMSG_DATA(cm), (size_t)n * sizeof(int));
        for (int v = 0; v < n; v++)
            box->folder[v] = fds[v];
    }
    return 0;
}

int sbx_take_move_folder(struct sbx *box, int view)
{
    assert(box && view >= 0 && view < box->n);
    int fd = box->folder[view];
    box->folder[view] = -1;
    return fd;
}

/* The program the init execs (this one: valgrind reports its client's
 * path here) into exe, and the shared memory of the page and the image
 * mapped at box->sh, its descriptor in *page_fd. 0, or -1 with e. */
static int map_shared(struct sbx *box, char exe[PATH_MAX], int *page_fd, struct err *e)
{
    ssize_t len = readlink("/proc/self/exe", exe, PATH_MAX - 1);
    if (len <= 0)
        return err_set(e, 0, 0, "cannot find this program (/proc/self/exe): %s",
                       strerror(errno));
    exe[len] = '\0';
    size_t size = sizeof(struct shared) + sizeof(struct image_head) + image_strings(box);
    int fd = memfd_create("arena-sandbox", MFD_CLOEXEC);
    if (fd < 0 || ftruncate(fd, (off_t)size) != 0) {
        int saved = errno;
        if (fd >= 0)
            close(fd);
        return err_set(e, 0, 0, "cannot make the sandbox's shared memory: %s", strerror(saved));
    }
    void *map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (map == MAP_FAILED) {
        int saved = errno;
        close(fd);
        return err_set(e, 0, 0, "mmap: %s", strerror(saved));
    }
    box->sh = map;
    box->map_len = size;
    image_write(box, (struct image_head *)((char *)map + sizeof(struct shared)));
    *page_fd = fd;
    return 0;
}

int sbx_open(struct sbx **out, const struct sbx_view *views, int n, struct err *e)
{
    return sbx_open_as(out, views, n, &sbx_engines_words, e);
}

int sbx_open_as(struct sbx **out, const struct sbx_view *views, int n,
                const struct sbx_words *words, struct err *e)
{
    assert(out && (views || n == 0) && words);
    *out = NULL;
    if (n < 0 || n > SBX_MAX_VIEWS)
        return err_set(e, 0, 0, "a sandbox holds 0 to %d views, not %d", SBX_MAX_VIEWS, n);
    struct sbx *box = calloc(1, sizeof *box);
    if (!box)
        return err_set(e, 0, 0, "out of memory");
    box->sock = -1;
    box->folder[0] = box->folder[1] = -1;
    box->n = n;
    box->views = views;
    box->words = words;
    box->opener = getpid();
    box->root = geteuid() == 0;
    int rc = 0;
    if (!(box->envp = sbx_environment(n > 0 ? views[0].policy : NULL)))
        rc = err_set(e, 0, 0, "out of memory");
    for (int v = 0; !rc && v < n; v++)
        rc = sbx_plan_build(&views[v], &box->plan[v], e);
    char exe[PATH_MAX];
    int page_fd = -1;
    if (!rc)
        rc = map_shared(box, exe, &page_fd, e);
    int sv[2];
    if (!rc && socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
        rc = err_set(e, 0, 0, "socketpair: %s", strerror(errno));
    if (rc) {
        if (page_fd >= 0)
            close(page_fd);
        sbx_close(box);
        return -1;
    }
    fflush(NULL);
    /* A raw clone: glibc's clone wants a stack of its own, and fork cannot
     * make the child the init of a new PID namespace. */
    pid_t pid = (pid_t)syscall(SYS_clone, (long)(CLONE_FLAGS | SIGCHLD), NULL, NULL, NULL, NULL);
    if (pid == 0)
        init_exec(box, sv[1], page_fd, exe);
    int saved = errno;
    close(sv[1]);
    close(page_fd);
    box->sock = sv[0];
    if (pid < 0) {
        sbx_close(box);
        return err_set(e, 0, 0, "cannot create %s: new namespaces: %s; %s", words->sandbox,
                       clone_cause(saved), words->without);
    }
    box->init = pid;
    /* The engines write their move folder as themselves. After the clone,
     * which says more when it fails: a root in a user namespace that maps
     * no SBX_ROOT_ENGINE_UID cannot make one either. The init waits for
     * "g" before it builds anything. */
    for (int v = 0; box->root && v < n; v++)
        if (chown(views[v].rw, SBX_ROOT_ENGINE_UID, SBX_ROOT_ENGINE_UID) != 0) {
            err_set(e, 0, 0, "cannot hand %s to %s: %s", views[v].rw, words->holds,
                    strerror(errno));
            sbx_close(box);
            return -1;
        }
    if (map_ids(pid, box->root, e) != 0 || write(box->sock, "g", 1) != 1) {
        if (!e->msg[0])
            err_set(e, 0, 0, "cannot start the sandbox: %s", strerror(errno));
        sbx_close(box);
        return -1;
    }
    if (recv_folders(box, e) != 0) {
        sbx_close(box);
        return -1;
    }
    *out = box;
    return 0;
}

/* Kills the init (and so its namespace) and reaps it. A copy of the box in
 * a process forked since it was opened only forgets it: the init is the
 * opener's child, and still the opener's sandbox. */
static void kill_init(struct sbx *box)
{
    if (box->init <= 0)
        return;
    /* Gone already, reaped here or by a sweep of the opener's children
     * (run_sweep): its pid may be another process's by now. */
    if (box->opener != getpid() || waitpid(box->init, NULL, WNOHANG) != 0) {
        box->init = 0;
        return;
    }
    kill(box->init, SIGKILL);
    while (waitpid(box->init, NULL, 0) < 0 && errno == EINTR)
        ;
    box->init = 0;
}

int sbx_hidden_path(const struct sbx *box, int view, const char *text, char *path, size_t cap)
{
    assert(box && view >= 0 && view < box->n);
    return sbx_plan_hides(&box->plan[view], text, path, cap);
}

void sbx_close(struct sbx *box)
{
    if (!box)
        return;
    kill_init(box);
    if (box->sock >= 0)
        close(box->sock);
    if (box->sh)
        munmap(box->sh, box->map_len);
    for (int v = 0; v < box->n; v++)
        sbx_plan_free(&box->plan[v]);
    for (int v = 0; v < SBX_MAX_VIEWS; v++)
        if (box->folder[v] >= 0)
            close(box->folder[v]);
    free(box->envp);
    free(box);
}

/* Writes the move's request into the page; 0, or -1 when it does not fit. */
static int put_request(struct shared *sh, int view, char *const argv[], const char *cwd,
                       const struct run_limits *l, struct err *e)
{
    size_t used = 0;
    int argc = 0;
    for (; argv[argc]; argc++) {
        size_t len = strlen(argv[argc]) + 1;
        if (argc == RUN_MAX_ARGS || used + len > sizeof sh->args)
            return err_set(e, 0, 0, "the command line is too long");
        memcpy(sh->args + used, argv[argc], len);
        used += len;
    }
    if (strlen(cwd) >= sizeof sh->cwd)
        return err_set(e, 0, 0, "working directory too long: %.100s", cwd);
    strcpy(sh->cwd, cwd);
    sh->argc = argc;
    sh->view = view;
    sh->limits = *l;
    sh->limits.cancel = NULL;
    sh->seq++;
    return 0;
}

/* Sends the request's byte, with the descriptors of fds (n of them, -1s
 * skipped; the engine's stdout and stderr pipes first). 0, or -1 with
 * errno. */
static int send_request(int sock, char what, const int *fds, int n)
{
    int send[SPAWN_FDS], k = 0;
    for (int i = 0; i < n && k < SPAWN_FDS && fds[i] >= 0; i++)
        send[k++] = fds[i];
    return send_fds(sock, what, send, k);
}

/* --- the sandbox as a launcher (launcher.h) ----------------------------- */

/* The launcher's state: the game's sandbox and the move in flight. */
struct sbx_move {
    struct sbx *box;
    int answered;                /* the init's answer came */
    int killed;                  /* the init was killed for it */
};

static int box_start(void *self, struct launch_move *m, const int w[2], struct err *e)
{
    struct sbx_move *mv = self;
    struct sbx *box = mv->box;
    assert(m->view >= 0 && m->view < box->n);
    mv->answered = mv->killed = 0;
    if (box->init <= 0)
        return err_set(e, 0, 0, "the sandbox is gone: its init was killed");
    if (put_request(box->sh, m->view, m->argv, m->cwd, m->limits, e) != 0)
        return -1;
    int fds[REQUEST_FDS] = { w[0], w[1] };
    for (int i = 0; i < LAUNCH_CG_FILES; i++)
        fds[2 + i] = m->cg_procs[i];
    if (send_request(box->sock, 'r', fds, REQUEST_FDS) != 0)
        return err_set(e, 0, 0, "cannot reach the sandbox's init: %s", strerror(errno));
    return 0;
}

static int box_wait_fd(void *self)
{
    return ((struct sbx_move *)self)->box->sock;
}

static int box_done(void *self, struct err *e)
{
    struct sbx_move *mv = self;
    if (mv->answered || mv->killed)
        return 1;
    char c;
    ssize_t got = recv(mv->box->sock, &c, 1, MSG_DONTWAIT);
    if (got == 1)
        return mv->answered = 1;
    if (got < 0 && (errno == EAGAIN || errno == EINTR))
        return 0;
    kill_init(mv->box);
    return err_set(e, 0, 0, "the sandbox's init died");
}

/* Asks the init to kill the move's processes (they are its children). */
static void box_stop(void *self)
{
    struct sbx *box = ((struct sbx_move *)self)->box;
    atomic_store(&box->sh->stop_seq, box->sh->seq);
    kill(box->init, SIGUSR1);
}

static void box_kill(void *self)
{
    struct sbx_move *mv = self;
    kill_init(mv->box);
    mv->killed = 1;
}

static int box_collect(void *self, const struct launch_move *m, struct launch_end *end,
                       struct rusage *ru, struct err *e)
{
    struct sbx_move *mv = self;
    const struct shared *sh = mv->box->sh;
    if (mv->killed)
        return 0;   /* stopped and killed: judged by why it was stopped */
    if (sh->failed)
        return err_set(e, 0, 0, "%s: %s; %s", mv->box->words->sandbox, sh->msg,
                       mv->box->words->without);
    end->wall_ms = sh->wall_ms;
    if (sh->exec_errno && strcmp(sh->exec_what, CG_ENTER_FAILED) == 0)
        return err_set(e, 0, 0, "%s: %s", CG_ENTER_FAILED, strerror(sh->exec_errno));
    if (sh->exec_errno) {
        end->exec_errno = sh->exec_errno;
        err_set(e, 0, 0, "%s '%s': %s", sh->exec_what, m->argv[0], strerror(sh->exec_errno));
        return 0;
    }
    end->status = sh->status;
    *ru = sh->ru;
    return 0;
}

static void box_close(void *self)
{
    struct sbx_move *mv = self;
    if (mv)
        sbx_close(mv->box);
    free(mv);
}

static const struct launcher_ops box_ops = {
    box_start, box_wait_fd, box_done, box_stop, box_kill, box_collect, box_close,
};

int sbx_launcher(struct launcher *l, struct sbx *box, const struct cg_root *acct, struct err *e)
{
    assert(box);
    struct sbx_move *mv = calloc(1, sizeof *mv);
    if (!mv) {
        sbx_close(box);
        return err_set(e, 0, 0, "out of memory");
    }
    mv->box = box;
    *l = (struct launcher){ .ops = &box_ops, .self = mv, .acct = acct };
    return 0;
}

/* Waits up to timeout_ms for the init's answer to the probe: 1 when it
 * came, 0 when it did not (the init is then killed), -1 with e when the
 * init is gone. */
static int await_probe(struct sbx *box, long timeout_ms, struct err *e)
{
    uint64_t t0 = clock_wall_ns();
    for (;;) {
        double left = (double)timeout_ms - (double)(clock_wall_ns() - t0) / NS_PER_MS;
        if (left <= 0) {
            kill_init(box);
            return 0;
        }
        struct pollfd p = { box->sock, POLLIN, 0 };
        int ready = poll(&p, 1, (int)left + 1);
        if (ready < 0 && errno != EINTR)
            return err_set(e, 0, 0, "poll: %s", strerror(errno));
        if (ready <= 0)
            continue;
        char c;
        ssize_t got = read(box->sock, &c, 1);
        if (got == 1)
            return 1;
        if (got < 0 && errno == EINTR)
            continue;
        kill_init(box);
        return err_set(e, 0, 0, "the sandbox's init died");
    }
}

int sbx_probe(struct err *e)
{
    struct sbx *box;
    if (sbx_open(&box, NULL, 0, e) != 0)
        return -1;
    /* A request for no view: the init answers once it is set up. */
    box->sh->view = -1;
    box->sh->seq++;
    int rc = 0;
    if (send_request(box->sock, 'p', NULL, 0) != 0)
        rc = err_set(e, 0, 0, "cannot reach the sandbox's init: %s", strerror(errno));
    else if ((rc = await_probe(box, SBX_SETUP_MS, e)) == 0)
        rc = err_set(e, 0, 0, "%s does not answer; %s", box->words->sandbox,
                     box->words->without);
    else if (rc > 0)
        rc = box->sh->failed ? err_set(e, 0, 0, "%s: %s; %s", box->words->sandbox,
                                       box->sh->msg, box->words->without)
                             : 0;
    sbx_close(box);
    return rc;
}

/* --- an engine that stays (persist.h) ------------------------------------ */

/* The one child of the init, as this process sees its pid: the engine a
 * spawn started (no orphan of it can have come to the init before it
 * ran). 0 when there is none. */
static pid_t init_child(pid_t init)
{
    char path[64], buf[64];
    snprintf(path, sizeof path, "/proc/%ld/task/%ld/children", (long)init, (long)init);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof buf - 1);
    if (fd >= 0)
        close(fd);
    buf[n > 0 ? n : 0] = '\0';
    return (pid_t)atol(buf);
}

int sbx_spawn(struct sbx *box, int view, char *const argv[], const char *cwd,
              const struct run_limits *limits, const int std[3], const int *cg,
              pid_t *pid, int *exec_errno, struct err *e)
{
    assert(box && view >= 0 && view < box->n && argv && argv[0] && cwd && limits);
    *pid = 0;
    *exec_errno = 0;
    if (box->init <= 0)
        return err_set(e, 0, 0, "the sandbox is gone: its init was killed");
    struct shared *sh = box->sh;
    if (put_request(sh, view, argv, cwd, limits, e) != 0)
        return -1;
    int fds[SPAWN_FDS] = { std[2], std[0], std[1] };
    for (int i = 0; i < LAUNCH_CG_FILES; i++)
        fds[3 + i] = cg[i];
    if (send_request(box->sock, 'S', fds, SPAWN_FDS) != 0)
        return err_set(e, 0, 0, "cannot reach the sandbox's init: %s", strerror(errno));
    /* The views are built before the first request is served. */
    struct pollfd p = { box->sock, POLLIN, 0 };
    char c = 0;
    int ready;
    while ((ready = poll(&p, 1, SBX_SETUP_MS)) < 0 && errno == EINTR)
        ;
    if (ready <= 0 || read(box->sock, &c, 1) != 1) {
        kill_init(box);
        return err_set(e, 0, 0, "%s does not answer; %s", box->words->sandbox,
                       box->words->without);
    }
    if (c == 'd' && sh->failed)
        return err_set(e, 0, 0, "%s: %s; %s", box->words->sandbox, sh->msg,
                       box->words->without);
    if (sh->exec_errno && strcmp(sh->exec_what, CG_ENTER_FAILED) == 0)
        return err_set(e, 0, 0, "%s: %s", CG_ENTER_FAILED, strerror(sh->exec_errno));
    if (sh->exec_errno) {
        *exec_errno = sh->exec_errno;
        err_set(e, 0, 0, "%s '%s': %s", sh->exec_what, argv[0], strerror(sh->exec_errno));
        return 0;
    }
    *pid = init_child(box->init);
    return 0;
}

pid_t sbx_init_pid(const struct sbx *box)
{
    return box && box->opener == getpid() ? box->init : 0;
}

int sbx_wait_fd(const struct sbx *box)
{
    return box->sock;
}

void sbx_stop_run(struct sbx *box)
{
    if (box->init <= 0)
        return;
    atomic_store(&box->sh->stop_seq, box->sh->seq);
    kill(box->init, SIGUSR1);
}

int sbx_collect(struct sbx *box, int wait_ms, int *status, struct rusage *ru, struct err *e)
{
    if (box->init <= 0)
        return err_set(e, 0, 0, "the sandbox is gone: its init was killed");
    struct pollfd p = { box->sock, POLLIN, 0 };
    int ready;
    while ((ready = poll(&p, 1, wait_ms)) < 0 && errno == EINTR)
        ;
    if (ready == 0)
        return 0;
    char c;
    if (ready < 0 || read(box->sock, &c, 1) != 1) {
        kill_init(box);
        return err_set(e, 0, 0, "the sandbox's init died");
    }
    *status = box->sh->status;
    *ru = box->sh->ru;
    return 1;
}
