/*
 * persist.c - engines that stay for the whole game (persist.h).
 *
 * The engine's stdin is one end of a socket pair, not a pipe: a line sent
 * to an engine that has gone fails with EPIPE (MSG_NOSIGNAL) instead of
 * killing the referee with SIGPIPE, and never blocks (MSG_DONTWAIT). Its
 * stdout and stderr are pipes read without blocking. While a move runs the
 * referee sleeps in poll on them (and on the sandbox's socket, which says
 * when the engine has ended), waking at least every WATCH_MS to look at
 * the clock, the CPU and the cancel flag.
 */
#define _GNU_SOURCE
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "arena/clock.h"
#include "arena/persist.h"
#include "arena/record.h"
#include "arena/sandbox.h"

#define NS_PER_MS 1e6
#define MS_PER_S 1000.0
#define US_PER_MS 1000.0
/* How often a waiting referee looks at the engine's CPU (when a limit or a
 * clock bounds it) and, without a sandbox, whether it has exited: an
 * engine overspends by at most this much CPU per thread. */
#define WATCH_MS 5
/* How often it looks when nothing bounds the CPU: the cancel flag, and an
 * exit that left a child holding its stdout. */
#define IDLE_WATCH_MS 50
#define CHUNK 4096
#define STAT_MAX 1024
#define DONE_LINE "done"

struct persist {
    const struct sbx_view *view; /* NULL: no sandbox */
    struct sbx *box;             /* its own sandbox, once started */
    pid_t pid;                   /* the engine as we see it; 0: unknown */
    int started, ended;          /* ended: every process of it is gone */
    int in, out, err;            /* our ends of its stdin, stdout, stderr; -1 */
    double mark_ms;              /* its CPU when its previous move ended */
    char line[sizeof DONE_LINE + 1];  /* the start of the stdout line being read */
    size_t line_len;             /* bytes of that line so far */
    int status;                  /* its wait status, once ended */
    struct rusage ru;            /* its rusage, once ended */
};

int persist_open(struct persist **out, const struct sbx_view *view, struct err *e)
{
    struct persist *p = calloc(1, sizeof *p);
    *out = NULL;
    if (!p)
        return err_set(e, 0, 0, "out of memory");
    p->view = view;
    p->in = p->out = p->err = -1;
    *out = p;
    return 0;
}

/* --- the engine's CPU ---------------------------------------------------- */

static double tv_ms(struct timeval tv)
{
    return (double)tv.tv_sec * MS_PER_S + (double)tv.tv_usec / US_PER_MS;
}

/* The CPU (ms) of the running engine and of the children it reaped, its
 * user share in *user_ms; -1 when it cannot be read (it is gone). */
static double cpu_now_ms(const struct persist *p, double *user_ms)
{
    clockid_t id;
    struct timespec ts;
    char path[64], buf[STAT_MAX];
    if (p->pid <= 0 || clock_getcpuclockid(p->pid, &id) != 0 || clock_gettime(id, &ts) != 0)
        return -1;
    double self = (double)ts.tv_sec * MS_PER_S + (double)ts.tv_nsec / NS_PER_MS;
    snprintf(path, sizeof path, "/proc/%ld/stat", (long)p->pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof buf - 1);
    if (fd >= 0)
        close(fd);
    buf[n > 0 ? n : 0] = '\0';
    unsigned long ut = 0, st = 0;
    long cut = 0, cst = 0;
    const char *close_paren = strrchr(buf, ')');
    if (close_paren)
        sscanf(close_paren + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu %ld %ld",
               &ut, &st, &cut, &cst);
    double tick_ms = MS_PER_S / (double)sysconf(_SC_CLK_TCK);
    *user_ms = (ut + st ? self * (double)ut / (double)(ut + st) : self) + (double)cut * tick_ms;
    return self + (double)(cut + cst) * tick_ms;
}

/* The engine's peak resident memory (KiB), 0 if unknown. */
static long peak_kb(const struct persist *p)
{
    char path[64], buf[STAT_MAX];
    snprintf(path, sizeof path, "/proc/%ld/status", (long)p->pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof buf - 1);
    if (fd >= 0)
        close(fd);
    buf[n > 0 ? n : 0] = '\0';
    const char *hwm = strstr(buf, "VmHWM:");
    return hwm ? atol(hwm + strlen("VmHWM:")) : 0;
}

/* --- starting and ending ------------------------------------------------- */

/* In the child of a start without a sandbox: never returns. */
static void child(char *const argv[], const char *cwd, const struct run_limits *l,
                  const int std[3], int err_fd, pid_t parent)
{
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, (long)SIGKILL, 0L, 0L, 0L);
    if (getppid() != parent)
        _exit(127);
    dup2(std[2], STDIN_FILENO);
    dup2(std[0], STDOUT_FILENO);
    dup2(std[1], STDERR_FILENO);
    run_apply_limits(l);
    int saved = 0;
    if (chdir(cwd) != 0)
        saved = errno;
    else
        execvp(argv[0], argv);
    if (!saved)
        saved = errno;
    ssize_t w = write(err_fd, &saved, sizeof saved);
    (void)w;
    _exit(127);
}

/* Starts argv without a sandbox, std[] its stdout, stderr and stdin: 0, 1
 * when it could not be started (e says why), -1 with e. */
static int spawn_plain(struct persist *p, char *const argv[], const char *cwd,
                       const struct run_limits *l, const int std[3], struct err *e)
{
    int ep[2];
    if (pipe2(ep, O_CLOEXEC) != 0)
        return err_set(e, 0, 0, "pipe: %s", strerror(errno));
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        close(ep[0]);
        close(ep[1]);
        return err_set(e, 0, 0, "fork: %s", strerror(errno));
    }
    if (pid == 0)
        child(argv, cwd, l, std, ep[1], parent);
    setpgid(pid, pid);
    close(ep[1]);
    int exec_errno = 0;
    ssize_t got = read(ep[0], &exec_errno, sizeof exec_errno);
    close(ep[0]);
    p->pid = pid;
    if (got <= 0)
        return 0;
    while (wait4(pid, &p->status, 0, &p->ru) < 0 && errno == EINTR)
        ;
    p->ended = 1;
    err_set(e, 0, 0, "cannot run '%s': %s", argv[0], strerror(exec_errno));
    return 1;
}

/* Starts the engine: its stdin a socket, its stdout and stderr pipes. 0,
 * 1 when it could not be started (e says why), -1 with e. */
static int start(struct persist *p, char *const argv[], const char *cwd,
                 const struct run_limits *limits, struct err *e)
{
    int sv[2], o[2] = { -1, -1 }, r[2] = { -1, -1 };
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
        return err_set(e, 0, 0, "socketpair: %s", strerror(errno));
    if (pipe2(o, O_CLOEXEC) != 0 || pipe2(r, O_CLOEXEC) != 0) {
        int saved = errno;
        for (int i = 0; i < 2; i++) {
            close(sv[i]);
            if (o[i] >= 0)
                close(o[i]);
        }
        return err_set(e, 0, 0, "pipe: %s", strerror(saved));
    }
    p->started = 1;
    p->in = sv[0];
    p->out = o[0];
    p->err = r[0];
    fcntl(p->out, F_SETFL, O_NONBLOCK);
    fcntl(p->err, F_SETFL, O_NONBLOCK);
    shutdown(p->in, SHUT_RD);   /* what it writes to its stdin is nobody's */
    /* RLIMIT_CPU would count the whole game: the CPU limit is per move. */
    struct run_limits l = *limits;
    l.cpu_limit_s = 0;
    const int std[3] = { o[1], r[1], sv[1] };
    int rc;
    if (!p->view) {
        rc = spawn_plain(p, argv, cwd, &l, std, e);
    } else if ((rc = sbx_open(&p->box, p->view, 1, e)) == 0) {
        rc = sbx_spawn(p->box, 0, argv, cwd, &l, std, &p->pid, e);
        if (rc == 1)
            p->ended = sbx_collect(p->box, SBX_STOP_GRACE_MS, &p->status, &p->ru, e) != 0;
    }
    close(o[1]);
    close(r[1]);
    close(sv[1]);
    return rc;
}

/* Kills every process of the engine now (ended is set once they are all
 * gone and reaped). */
static void stop(struct persist *p)
{
    if (!p->started || p->ended)
        return;
    if (p->box) {
        sbx_stop_run(p->box);
        struct err e;
        if (sbx_collect(p->box, SBX_STOP_GRACE_MS, &p->status, &p->ru, &e) != 1) {
            /* No answer: the init goes, and with it its namespace. */
            sbx_close(p->box);
            p->box = NULL;
        }
    } else if (p->pid > 0) {
        kill(p->pid, SIGKILL);
        /* Before the leader is reaped: -pid names no other group. */
        kill(-p->pid, SIGKILL);
        while (wait4(p->pid, &p->status, 0, &p->ru) < 0 && errno == EINTR)
            ;
    }
    p->ended = 1;
}

/* 1 when the engine has ended on its own, reaped (and with the sandbox
 * every process of it gone); 0 while it runs. Waits up to wait_ms. */
static int ended(struct persist *p, int wait_ms)
{
    if (p->ended)
        return 1;
    if (p->box) {
        struct err e;
        int rc = sbx_collect(p->box, wait_ms, &p->status, &p->ru, &e);
        if (rc < 0) {
            sbx_close(p->box);
            p->box = NULL;
        }
        return p->ended = rc != 0;
    }
    uint64_t t0 = clock_wall_ns();
    for (;;) {
        siginfo_t info;
        memset(&info, 0, sizeof info);
        if (waitid(P_PID, (id_t)p->pid, &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
            info.si_pid == p->pid) {
            kill(-p->pid, SIGKILL);   /* what it left in its group */
            while (wait4(p->pid, &p->status, 0, &p->ru) < 0 && errno == EINTR)
                ;
            return p->ended = 1;
        }
        if ((double)(clock_wall_ns() - t0) / NS_PER_MS >= wait_ms)
            return 0;
        usleep((useconds_t)US_PER_MS);
    }
}

/* Ends the engine and closes what it held, leaving p as persist_open made
 * it. */
static void restart(struct persist *p)
{
    if (p->started && !p->ended) {
        static const char quit[] = "quit\n";
        ssize_t sent = send(p->in, quit, sizeof quit - 1, MSG_NOSIGNAL | MSG_DONTWAIT);
        (void)sent;
        close(p->in);
        p->in = -1;
        if (!ended(p, PERSIST_QUIT_MS))
            stop(p);
    }
    int fds[3] = { p->in, p->out, p->err };
    for (int i = 0; i < 3; i++)
        if (fds[i] >= 0)
            close(fds[i]);
    sbx_close(p->box);
    const struct sbx_view *view = p->view;
    memset(p, 0, sizeof *p);
    p->view = view;
    p->in = p->out = p->err = -1;
}

void persist_close(struct persist *p)
{
    if (!p)
        return;
    restart(p);
    free(p);
}

/* --- a move -------------------------------------------------------------- */

/* How a move's wait ended. */
enum wait_end { W_DONE, W_ENDED, W_TIMEOUT, W_CPU, W_CLOCK, W_CANCELLED, W_FLOOD, W_STDIN };

/* Reads what stdout holds into r's tail; 1 when a line "done" (a '\r'
 * before its newline is forgiven) was among it, -1 at end of file. */
static int read_stdout(struct persist *p, struct run_result *r)
{
    char buf[CHUNK];
    int done = 0;
    for (;;) {
        ssize_t n = read(p->out, buf, sizeof buf);
        if (n < 0 && errno == EINTR)
            continue;
        if (n == 0) {
            close(p->out);
            p->out = -1;
            return done ? 1 : -1;
        }
        if (n < 0)
            return done;
        run_tail_add(&r->out, buf, (size_t)n);
        for (ssize_t i = 0; i < n; i++) {
            if (buf[i] == '\n') {
                size_t len = p->line_len;
                if (len > 0 && len <= sizeof DONE_LINE && p->line[len - 1] == '\r')
                    len--;
                done |= len == sizeof DONE_LINE - 1 && memcmp(p->line, DONE_LINE, len) == 0;
                p->line_len = 0;
            } else if (p->line_len++ < sizeof p->line) {
                p->line[p->line_len - 1] = buf[i];
            }
        }
    }
}

/* Waits for the answer of the move sent at t0: W_DONE, or why not. */
static enum wait_end await_answer(struct persist *p, const struct run_limits *l,
                                  double cpu_cap_ms, uint64_t t0, struct run_streams *st,
                                  struct run_result *r)
{
    double cpu_limit_ms = l->cpu_limit_s > 0 ? (double)l->cpu_limit_s * MS_PER_S : 0;
    int watched = cpu_limit_ms > 0 || cpu_cap_ms >= 0;
    for (;;) {
        double now = (double)(clock_wall_ns() - t0) / NS_PER_MS;
        if (l->cancel && *l->cancel)
            return W_CANCELLED;
        if (now >= (double)l->timeout_ms)
            return W_TIMEOUT;
        if (watched) {
            double user, cpu = cpu_now_ms(p, &user) - p->mark_ms;
            if (cpu_limit_ms > 0 && cpu >= cpu_limit_ms)
                return W_CPU;
            if (cpu_cap_ms >= 0 && cpu > cpu_cap_ms)
                return W_CLOCK;
        }
        int wait_ms = (int)ceil((double)l->timeout_ms - now);
        int watch = watched || !p->box ? WATCH_MS : IDLE_WATCH_MS;
        if (wait_ms > watch)
            wait_ms = watch;
        struct pollfd f[3] = { { p->out, POLLIN, 0 }, { p->err, POLLIN, 0 },
                               { p->box ? sbx_wait_fd(p->box) : -1, POLLIN, 0 } };
        int ready = poll(f, 3, wait_ms);
        if (ready < 0 && errno != EINTR)
            return W_ENDED;
        if (f[1].revents) {
            run_streams_drain(st, RUN_DRAIN_CHUNKS);
            p->err = st->fd[1].fd;
        }
        int got = f[0].revents ? read_stdout(p, r) : 0;
        if (got > 0)
            return W_DONE;
        if (r->out.total > PERSIST_STDOUT_MAX)
            return W_FLOOD;
        if (got < 0 || f[2].revents || (!p->box && ready == 0))
            if (ended(p, 0))
                return W_ENDED;
    }
}

/* r's CPU, peak memory and how it ended, after await_answer said how. */
static void settle(struct persist *p, enum wait_end how, const struct run_limits *l,
                   struct run_result *r, char *why)
{
    double user = 0, cpu = p->ended ? -1 : cpu_now_ms(p, &user);
    r->max_rss_kb = p->ended ? 0 : peak_kb(p);
    if (how != W_DONE)
        stop(p);
    if (cpu < 0) {   /* gone: its rusage says what it used in all */
        user = tv_ms(p->ru.ru_utime);
        cpu = user + tv_ms(p->ru.ru_stime);
        if (!r->max_rss_kb)
            r->max_rss_kb = p->ru.ru_maxrss;
    }
    double move = cpu - p->mark_ms, user_share = cpu > 0 ? user / cpu : 1;
    r->cpu_user_ms = move > 0 ? move * user_share : 0;
    r->cpu_sys_ms = move > 0 ? move - r->cpu_user_ms : 0;
    p->mark_ms = cpu;
    switch (how) {
    case W_DONE:
        r->end = RUN_EXITED;
        break;
    case W_FLOOD:
    case W_STDIN:
        r->end = RUN_EXITED;
        strcpy(why, how == W_FLOOD ? "stdout-flood" : "stdin-full");
        break;
    case W_ENDED:
        run_judge(l, p->status, 0, 0, 0, r);
        if (r->end == RUN_EXITED && r->status == 0)
            strcpy(why, "exit-status 0");
        break;
    case W_TIMEOUT:
        r->end = RUN_TIMEOUT;
        break;
    case W_CPU:
    case W_CLOCK:   /* the caller's clock says out-of-time */
        r->end = RUN_CPU_LIMIT;
        break;
    case W_CANCELLED:
        r->end = RUN_CANCELLED;
        break;
    }
}

int persist_move(struct persist *p, char *const argv[], const char *cwd, const char *line,
                 const struct run_limits *limits, double cpu_cap_ms, int err_copy,
                 struct run_result *r, char *why, struct err *e)
{
    assert(p && line && limits && limits->timeout_ms > 0);
    memset(r, 0, sizeof *r);
    why[0] = '\0';
    uint64_t t0 = clock_wall_ns();
    if (p->ended)   /* a move outside a game (referee bench) after a forfeit */
        restart(p);
    if (!p->started) {
        int rc = start(p, argv, cwd, limits, e);
        if (rc != 0) {
            r->end = RUN_EXEC_FAILED;
            r->wall_ms = (double)(clock_wall_ns() - t0) / NS_PER_MS;
            return rc < 0 ? -1 : 0;
        }
    }
    struct run_streams st = { .fd = { { -1, POLLIN, 0 }, { p->err, POLLIN, 0 } },
                              .tail = { &r->out, &r->err }, .copy = err_copy,
                              .copy_left = limits->file_limit_kb > 0
                                               ? limits->file_limit_kb * 1024 : -1,
                              .copied = &r->err_copied };
    /* What it wrote between its moves belongs to this one; a stale "done"
     * among it answers nothing. */
    run_streams_drain(&st, RUN_FINAL_CHUNKS);
    p->err = st.fd[1].fd;
    int stale = p->out >= 0 ? read_stdout(p, r) : 0;
    (void)stale;
    size_t len = strlen(line);
    enum wait_end how;
    if (send(p->in, line, len, MSG_NOSIGNAL | MSG_DONTWAIT) != (ssize_t)len)
        how = errno == EAGAIN || errno == EWOULDBLOCK ? W_STDIN
              : ended(p, SBX_STOP_GRACE_MS)           ? W_ENDED
                                                      : W_TIMEOUT;
    else
        how = await_answer(p, limits, cpu_cap_ms, t0, &st, r);
    r->wall_ms = (double)(clock_wall_ns() - t0) / NS_PER_MS;
    settle(p, how, limits, r, why);
    if (how != W_DONE) {   /* what is left in the pipes: its last words */
        run_streams_drain(&st, RUN_FINAL_CHUNKS);
        p->err = st.fd[1].fd;
    }
    return 0;
}
