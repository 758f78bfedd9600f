/*
 * runner.c - one engine run under limits (runner.h).
 *
 * What every launcher (launcher.h) shares: the engine's pipes drained, its
 * limits applied, its end judged; and the referee's process hygiene (the
 * sweep, the guard, run_tool). Nothing process-wide: several runs may be in
 * flight from several threads.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <limits.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>
#include "arena/clock.h"
#include "arena/runner.h"
#include "arena/textfile.h"

#define NS_PER_MS 1000000.0
#define MS_PER_S 1000L
#define US_PER_MS 1000.0
#define MB (1024L * 1024L)
#define KB 1024L
/* How often the guard looks at its child and at the signals it must pass on. */
#define GUARD_POLL_MS 20
/* A failed run whose peak RSS reached 1/MEM_NEAR_DIVISOR of RLIMIT_AS ran
 * out of memory (runner.h). */
#define MEM_NEAR_DIVISOR 2
#define PROC_STAT_MAX 512
#define MEM_SELF_MARGIN_KB 1024
/* Bytes of one read of the engine's pipes. */
#define STREAM_CHUNK 4096

static double tv_ms(struct timeval tv)
{
    return (double)tv.tv_sec * 1000.0 + (double)tv.tv_usec / US_PER_MS;
}

static void set_limit(int resource, rlim_t value)
{
    struct rlimit rl = { value, value };
    setrlimit(resource, &rl);
}

/* The parent pid from /proc/PID/stat (the field after the ')' that closes
 * the command name, which may itself hold ')' and spaces); -1 if gone. */
static long parent_of(const char *pid)
{
    char path[NAME_MAX + 16], buf[PROC_STAT_MAX];
    snprintf(path, sizeof path, "/proc/%s/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    char *close = strrchr(buf, ')');
    long ppid;
    char state;
    if (!close || sscanf(close + 1, " %c %ld", &state, &ppid) != 2)
        return -1;
    return ppid;
}

/* Kills every child of ours (orphans of an engine adopted by the subreaper,
 * setsid escapees included) and reaps them, until none is left. The cheap
 * check first: most moves leave nothing behind. */
/* Our resident size now, in KiB (0 if unknown). */
static long resident_kb(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    long size, resident = 0;
    if (!f)
        return 0;
    if (fscanf(f, "%ld %ld", &size, &resident) != 2)
        resident = 0;
    fclose(f);
    return resident * (sysconf(_SC_PAGESIZE) / KB);
}

void run_sweep(pid_t spare)
{
    int status;
    pid_t w;
    while ((w = waitpid(-1, &status, WNOHANG)) > 0)
        ;
    if (w < 0)
        return;   /* ECHILD: no descendant is left */
    long self = (long)getpid();
    /* Each child but spare killed and reaped by its pid (a wait for any
     * child would wait for spare too); the orphans a kill hands us, as
     * subreaper, are children on the next pass. */
    for (int found = 1; found;) {
        found = 0;
        DIR *d = opendir("/proc");
        if (!d)
            return;
        struct dirent *de;
        while ((de = readdir(d))) {
            pid_t pid = (pid_t)atol(de->d_name);
            if (de->d_name[0] < '1' || de->d_name[0] > '9' || pid == spare ||
                parent_of(de->d_name) != self)
                continue;
            kill(pid, SIGKILL);
            while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
                ;
            found = 1;
        }
        closedir(d);
    }
}

void run_become_reaper(void)
{
    prctl(PR_SET_CHILD_SUBREAPER, 1L, 0L, 0L, 0L);
}

void run_catch_stops(void (*handler)(int), struct run_stops *saved)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = handler;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &saved->old_int);
    sigaction(SIGTERM, &sa, &saved->old_term);
    sigset_t stops;
    sigemptyset(&stops);
    sigaddset(&stops, SIGINT);
    sigaddset(&stops, SIGTERM);
    sigprocmask(SIG_UNBLOCK, &stops, &saved->old_mask);
}

void run_release_stops(const struct run_stops *saved)
{
    sigaction(SIGINT, &saved->old_int, NULL);
    sigaction(SIGTERM, &saved->old_term, NULL);
    sigprocmask(SIG_SETMASK, &saved->old_mask, NULL);
}

pid_t run_fork_piped(int fds[2], pid_t *parent, struct err *e)
{
    if (pipe2(fds, O_CLOEXEC) != 0)
        return err_set(e, 0, 0, "pipe: %s", strerror(errno));
    *parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return err_set(e, 0, 0, "fork: %s", strerror(errno));
    }
    return pid;
}

/* The guard's flag: a signal handler can reach nothing else. */
static volatile sig_atomic_t guard_stop;

static void on_guard_stop(int sig)
{
    guard_stop = sig;
}

int run_guard(const volatile sig_atomic_t **cancel, int *status)
{
    pid_t parent = getpid();
    struct run_stops saved;
    guard_stop = 0;
    run_catch_stops(on_guard_stop, &saved);
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        run_release_stops(&saved);
        return -1;
    }
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, (long)SIGTERM, 0L, 0L, 0L);
        /* A parent that died before the prctl sent nothing. */
        if (getppid() != parent)
            guard_stop = SIGTERM;
        run_become_reaper();
        *cancel = &guard_stop;
        return RUN_GUARD_CHILD;
    }
    /* Orphans of a child killed outright come here and are swept below. */
    run_become_reaper();
    int st = 0, passed_on = 0;
    for (;;) {
        pid_t w = waitpid(pid, &st, WNOHANG);
        if (w == pid || (w < 0 && errno != EINTR))
            break;
        /* Polled rather than blocked in waitpid: a signal that came just
         * before a blocking wait would not be passed on until the end. */
        if (guard_stop && !passed_on) {
            kill(pid, SIGTERM);
            passed_on = 1;
        }
        usleep((useconds_t)(GUARD_POLL_MS * US_PER_MS));
    }
    run_sweep(0);
    run_release_stops(&saved);
    *status = WIFEXITED(st)     ? WEXITSTATUS(st)
              : WIFSIGNALED(st) ? RUN_GUARD_SIGNALED + WTERMSIG(st)
                                : 1;
    return RUN_GUARD_PARENT;
}

long run_proc_limit(uid_t uid, long extra)
{
    long tasks = 0;
    DIR *d = opendir("/proc");
    if (!d)
        return 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        char path[sizeof de->d_name + 16];
        struct stat st;
        if (de->d_name[0] < '1' || de->d_name[0] > '9')
            continue;
        snprintf(path, sizeof path, "/proc/%s/task", de->d_name);
        if (stat(path, &st) != 0 || st.st_uid != uid)
            continue;
        /* A task folder links to itself, its parent and one entry per thread. */
        tasks += st.st_nlink > 2 ? (long)st.st_nlink - 2 : 1;
    }
    closedir(d);
    return tasks + extra;
}


/* Appends n bytes to t, keeping the last RUN_TAIL_MAX. */
static void tail_add(struct run_tail *t, const char *buf, size_t n)
{
    t->total += (long long)n;
    for (const char *p = buf; (p = memchr(p, '\n', n - (size_t)(p - buf))); p++)
        t->lines++;
    if (n >= RUN_TAIL_MAX) {
        memcpy(t->text, buf + n - RUN_TAIL_MAX, RUN_TAIL_MAX);
        t->len = RUN_TAIL_MAX;
    } else {
        size_t keep = t->len + n > RUN_TAIL_MAX ? RUN_TAIL_MAX - n : t->len;
        memmove(t->text, t->text + t->len - keep, keep);
        memcpy(t->text + keep, buf, n);
        t->len = keep + n;
    }
    t->text[t->len] = '\0';
}

void run_tail_add(struct run_tail *t, const char *buf, size_t n)
{
    tail_add(t, buf, n);
}

void run_streams_drain(struct run_streams *s, int chunks)
{
    char buf[STREAM_CHUNK];
    for (int i = 0; i < 2; i++)
        for (int k = 0; k < chunks && s->fd[i].fd >= 0; k++) {
            ssize_t n = read(s->fd[i].fd, buf, sizeof buf);
            if (n < 0 && errno == EINTR)
                continue;
            if (n < 0)
                break;   /* EAGAIN: nothing more for now */
            if (n == 0) {
                close(s->fd[i].fd);
                s->fd[i].fd = -1;
                break;
            }
            tail_add(s->tail[i], buf, (size_t)n);
            long long c = i == 1 && s->copy >= 0 ? n : 0;
            if (s->copy_left >= 0 && c > s->copy_left)
                c = s->copy_left;
            if (c > 0 && tf_write_all(s->copy, buf, (size_t)c) == 0) {
                *s->copied += c;
                s->copy_left -= s->copy_left >= 0 ? c : 0;
            }
        }
}

void run_streams_close(struct run_streams *s)
{
    for (int i = 0; i < 2; i++)
        if (s->fd[i].fd >= 0)
            close(s->fd[i].fd);
}

/* RLIMIT_CPU's seconds for l: cpu_limit_s, or the whole seconds at least
 * one past cpu_ms (a backstop: the limit in ms is judged in ms), the
 * smaller; 0: none. */
static long cpu_rlimit_s(const struct run_limits *l)
{
    long past_s = l->cpu_ms > 0 ? l->cpu_ms / MS_PER_S + 2 : 0;
    if (l->cpu_limit_s > 0 && (past_s == 0 || l->cpu_limit_s < past_s))
        return l->cpu_limit_s;
    return past_s;
}

void run_apply_limits(const struct run_limits *l)
{
    long cpu_s = cpu_rlimit_s(l);
    if (cpu_s > 0) {
        /* The soft limit sends SIGXCPU; the hard one, a second later, kills. */
        struct rlimit rl = { (rlim_t)cpu_s, (rlim_t)cpu_s + 1 };
        setrlimit(RLIMIT_CPU, &rl);
    }
    if (l->mem_limit_mb > 0)
        set_limit(RLIMIT_AS, (rlim_t)l->mem_limit_mb * MB);
    if (l->file_limit_kb > 0)
        set_limit(RLIMIT_FSIZE, (rlim_t)l->file_limit_kb * KB);
    if (l->proc_limit > 0)
        set_limit(RLIMIT_NPROC, (rlim_t)l->proc_limit);
    set_limit(RLIMIT_CORE, 0);
}

int run_streams_open(struct run_streams *s, int w[2], int err_copy,
                     const struct run_limits *limits, struct run_result *r, struct err *e)
{
    *s = (struct run_streams){ .tail = { &r->out, &r->err }, .copy = err_copy,
                               .copy_left = limits->file_limit_kb > 0 ? limits->file_limit_kb * KB
                                                                      : -1,
                               .copied = &r->err_copied };
    for (int i = 0; i < 2; i++) {
        int p[2];
        if (pipe2(p, O_CLOEXEC) != 0) {
            int saved = errno;
            if (i) {
                close(s->fd[0].fd);
                close(w[0]);
            }
            return err_set(e, 0, 0, "pipe: %s", strerror(saved));
        }
        fcntl(p[0], F_SETFL, O_NONBLOCK);
        s->fd[i] = (struct pollfd){ .fd = p[0], .events = POLLIN };
        w[i] = p[1];
    }
    return 0;
}

long run_self_kb(const struct run_limits *l)
{
    return l->mem_limit_mb > 0 ? resident_kb() : 0;
}

void run_take_usage(const struct rusage *ru, struct run_result *r)
{
    r->cpu_user_ms = tv_ms(ru->ru_utime);
    r->cpu_sys_ms = tv_ms(ru->ru_stime);
    r->max_rss_kb = ru->ru_maxrss;
}

/* What an interpreter or a VM says when it cannot get the memory it asks
 * for, on stdout or stderr: the JVM reserves its heap's address space at
 * start (and says so on stdout), Python raises MemoryError for one large
 * allocation, others say "out of memory". Such a run fails with a small
 * peak RSS, which the rule of half the limit cannot see. */
static int said_out_of_memory(const struct run_result *r)
{
    static const char *const words[] = {
        "Could not reserve enough space for",               /* the JVM's heap */
        "There is insufficient memory for the Java Runtime", /* the JVM's own */
        "MemoryError",                                       /* Python */
        "Cannot allocate memory",                            /* ENOMEM (strerror) */
        "out of memory",                                     /* Node, Go */
        "memory allocation of ",                             /* Rust */
    };
    const struct run_tail *t[2] = { &r->out, &r->err };
    for (int i = 0; i < 2; i++)
        for (size_t k = 0; k < sizeof words / sizeof *words; k++)
            if (memmem(t[i]->text, t[i]->len, words[k], strlen(words[k])))
                return 1;
    return 0;
}

void run_judge(const struct run_limits *l, int status, int timed_out, int cancelled,
               long self_kb, struct run_result *r)
{
    /* ru_maxrss keeps the high-water mark of the child's life before exec,
     * a copy of us: only a peak above our own size is the engine's. */
    int near_mem = l->mem_limit_mb > 0 && r->max_rss_kb > self_kb + MEM_SELF_MARGIN_KB &&
                   r->max_rss_kb * MEM_NEAR_DIVISOR >= l->mem_limit_mb * KB;
    if (cancelled) {
        r->end = RUN_CANCELLED;
    } else if (timed_out) {
        r->end = RUN_TIMEOUT;
    } else if (WIFEXITED(status)) {
        r->end = WEXITSTATUS(status) != 0 && near_mem ? RUN_MEM_LIMIT : RUN_EXITED;
        r->status = WEXITSTATUS(status);
    } else {
        int sig = WTERMSIG(status);
        int over_cpu = l->cpu_limit_s > 0 &&
                       (r->cpu_user_ms + r->cpu_sys_ms) / 1000.0 >= (double)l->cpu_limit_s;
        r->end = sig == SIGXCPU || (sig == SIGKILL && over_cpu) ? RUN_CPU_LIMIT
                 : sig == SIGXFSZ && l->file_limit_kb > 0      ? RUN_FILE_LIMIT
                 : near_mem                                    ? RUN_MEM_LIMIT
                                                               : RUN_SIGNALED;
        r->signal = sig;
    }
    /* Under a memory limit, a run that failed saying it could not get
     * memory failed on the limit. */
    if ((r->end == RUN_EXITED ? r->status != 0 : r->end == RUN_SIGNALED) &&
        l->mem_limit_mb > 0 && said_out_of_memory(r))
        r->end = RUN_MEM_LIMIT;
    /* A limit in ms is a limit whatever the end: past it, the move failed
     * on its CPU even when it answered or was stopped by the guard. */
    if (l->cpu_ms > 0 && r->cpu_user_ms + r->cpu_sys_ms >= (double)l->cpu_ms &&
        (r->end == RUN_EXITED || r->end == RUN_SIGNALED || r->end == RUN_TIMEOUT))
        r->end = RUN_CPU_LIMIT;
}

/* run_tool (runner.h). */
int run_tool(char *const argv[], char *buf, size_t cap, int quiet, struct err *e)
{
    int fd[2] = { -1, -1 };
    if (buf && pipe(fd) != 0)
        return err_set(e, 0, 0, "pipe: %s", strerror(errno));
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        if (buf && (dup2(fd[1], STDOUT_FILENO) < 0 || close(fd[0]) || close(fd[1])))
            _exit(127);
        if (quiet && !freopen("/dev/null", "w", stderr))
            _exit(127);
        execvp(argv[0], argv);
        fprintf(stderr, "%s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    size_t len = 0;
    if (buf) {
        close(fd[1]);
        char rest[256];   /* past cap: read to the end, so the child never blocks */
        ssize_t r;
        while (pid > 0 && (r = len < cap - 1 ? read(fd[0], buf + len, cap - 1 - len)
                                             : read(fd[0], rest, sizeof rest)) != 0)
            if (r > 0)
                len += len < cap - 1 ? (size_t)r : 0;
            else if (errno != EINTR)
                break;
        close(fd[0]);
        buf[len] = '\0';
        buf[strcspn(buf, "\n")] = '\0';
    }
    if (pid < 0)
        return err_set(e, 0, 0, "fork: %s", strerror(errno));
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return err_set(e, 0, 0, "waitpid: %s", strerror(errno));
    if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
        return err_set(e, 0, 0, "cannot run %s", argv[0]);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
