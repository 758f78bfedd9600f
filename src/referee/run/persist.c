/*
 * persist.c - engines that stay for the whole game, as a launcher
 * (persist.h, launcher.h).
 *
 * The engine's stdin is one end of a socket pair, not a pipe: a line sent
 * to an engine that has gone fails with EPIPE (MSG_NOSIGNAL) instead of
 * killing the referee with SIGPIPE, and never blocks (MSG_DONTWAIT). Its
 * stdout and stderr are pipes of its own for the whole game, read without
 * blocking; the launcher loop drains a move's pipes (launch_move's), so
 * what the engine writes during a move is passed on to them. The loop
 * sleeps on the engine's stdout (launcher_ops.wait_fd), which its `done`
 * wakes at once, and asks at least every PERSIST_WATCH_MS.
 *
 * Between its moves the engine's cgroup is frozen (cgroup.h's
 * cg_move_freeze) unless it may ponder: frozen once its `done` is read,
 * thawed before its next request is sent, and before anything that must
 * see it run or die (quit, a kill).
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
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "arena/cgroup.h"
#include "arena/clock.h"
#include "launcher.h"
#include "persist.h"
#include "arena/record.h"
#include "arena/sandbox.h"

#define NS_PER_MS 1e6
#define MS_PER_S 1000.0
#define US_PER_MS 1000.0
#define CHUNK 4096
#define STAT_MAX 1024
#define DONE_LINE "done"

struct persist {
    const struct sbx_view *view; /* NULL: no sandbox */
    const struct cg_root *acct;  /* the game's cgroup under it; NULL: none */
    int ponder;                  /* 1: it runs between its moves too */
    int frozen;                  /* its cgroup is frozen now */
    struct cg_move cg;           /* the engine's cgroup for the game */
    int cg_procs[LAUNCH_CG_FILES];
    struct sbx *box;             /* its own sandbox, once started */
    pid_t pid;                   /* the engine as we see it; 0: unknown */
    int started, ended;          /* ended: every process of it is gone */
    int in, out, err;            /* our ends of its stdin, stdout, stderr; -1 */
    double mark_ms;              /* its CPU when its previous move ended */
    char line[sizeof DONE_LINE + 1];  /* the start of the stdout line being read */
    size_t line_len;             /* bytes of that line so far */
    int status;                  /* its wait status, once ended */
    struct rusage ru;            /* its rusage, once ended */
    /* the move in flight */
    int fwd[2];                  /* the move's stdout and stderr pipes; -1 */
    long long out_bytes;         /* stdout it wrote in this move */
    double cpu_limit_ms, cap_ms; /* 0: none */
    int answered, over_cpu, exec_errno, measured;
    int stopped;                 /* the loop stopped the move (deadline, cancel) */
    char why[REC_REASON_MAX];    /* persist_reason's */
    double user_ms, sys_ms;      /* the move's CPU, once measured */
    long peak_kb;
};

/* --- the engine's CPU ---------------------------------------------------- */

static double tv_ms(struct timeval tv)
{
    return (double)tv.tv_sec * MS_PER_S + (double)tv.tv_usec / US_PER_MS;
}

/* The engine's /proc/PID/name into buf, NUL-terminated ("" when it cannot
 * be read). */
static void read_proc(const struct persist *p, const char *name, char buf[STAT_MAX])
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%ld/%s", (long)p->pid, name);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    ssize_t n = fd < 0 ? -1 : read(fd, buf, STAT_MAX - 1);
    if (fd >= 0)
        close(fd);
    buf[n > 0 ? n : 0] = '\0';
}

/* The CPU (ms) of the running engine and of the children it reaped, its
 * user share in *user_ms; -1 when it cannot be read (it is gone). With a
 * cgroup: the cgroup's, every process of it (the user share is the
 * engine's own). */
static double process_cpu_ms(const struct persist *p, double *user_ms);

static double cpu_now_ms(const struct persist *p, double *user_ms)
{
    double cpu = process_cpu_ms(p, user_ms);
    if (!p->cg.root || p->cg.n == 0)
        return cpu;
    double tree = cg_move_cpu_ms(&p->cg);
    *user_ms = cpu > 0 ? tree * *user_ms / cpu : tree;
    return tree;
}

static double process_cpu_ms(const struct persist *p, double *user_ms)
{
    clockid_t id;
    struct timespec ts;
    char buf[STAT_MAX];
    if (p->pid <= 0 || clock_getcpuclockid(p->pid, &id) != 0 || clock_gettime(id, &ts) != 0)
        return -1;
    double self = (double)ts.tv_sec * MS_PER_S + (double)ts.tv_nsec / NS_PER_MS;
    read_proc(p, "stat", buf);
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
    char buf[STAT_MAX];
    read_proc(p, "status", buf);
    const char *hwm = strstr(buf, "VmHWM:");
    return hwm ? atol(hwm + strlen("VmHWM:")) : 0;
}

/* p as new: nothing started, its view, cgroup root and pondering. */
static void init_state(struct persist *p, const struct sbx_view *view,
                       const struct cg_root *acct, int ponder)
{
    p->view = view;
    p->acct = acct;
    p->ponder = ponder;
    p->in = p->out = p->err = p->fwd[0] = p->fwd[1] = -1;
    cg_move_none(&p->cg, p->cg_procs, LAUNCH_CG_FILES);
}

/* --- starting and ending ------------------------------------------------- */

/* Starts argv without a sandbox, std[] its stdout, stderr and stdin: 0
 * (p->exec_errno set when it could not be started), or -1 with e. */
static int spawn_plain(struct persist *p, char *const argv[], const char *cwd,
                       const struct run_limits *l, const int std[3], struct err *e)
{
    int exec_errno;
    int rc = launcher_spawn(argv, cwd, l, std, p->cg_procs, &p->pid, &exec_errno, e);
    if (rc <= 0)
        return rc;
    while (wait4(p->pid, &p->status, 0, &p->ru) < 0 && errno == EINTR)
        ;
    p->ended = 1;
    if (exec_errno < 0)
        return err_set(e, 0, 0, "cannot place the engine in its cgroup: %s",
                       strerror(-exec_errno));
    p->exec_errno = exec_errno;
    err_set(e, 0, 0, "cannot run '%s': %s", argv[0], strerror(exec_errno));
    return 0;
}

/* Starts the engine: its stdin a socket, its stdout and stderr pipes. 0
 * (p->exec_errno set when it could not be started), or -1 with e. */
static int start_engine(struct persist *p, const struct launch_move *m, struct err *e)
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
    if (p->acct && cg_move_open(p->acct, m->limits->mem_limit_mb, &p->cg, p->cg_procs,
                                LAUNCH_CG_FILES, e) != 0) {
        for (int i = 0; i < 2; i++) {
            close(sv[i]);
            close(o[i]);
            close(r[i]);
        }
        return -1;
    }
    p->started = 1;
    p->in = sv[0];
    p->out = o[0];
    p->err = r[0];
    fcntl(p->out, F_SETFL, O_NONBLOCK);
    fcntl(p->err, F_SETFL, O_NONBLOCK);
    shutdown(p->in, SHUT_RD);   /* what it writes to its stdin is nobody's */
    /* RLIMIT_CPU would count the whole game: the CPU limit is per move. */
    struct run_limits l = *m->limits;
    l.cpu_limit_s = 0;
    l.cpu_ms = 0;
    const int std[3] = { o[1], r[1], sv[1] };
    int rc;
    if (!p->view) {
        rc = spawn_plain(p, m->argv, m->cwd, &l, std, e);
    } else if (!p->box) {
        /* Its move folder was this sandbox's tmpfs: a new one would not
         * have the board (persist_sandbox). */
        rc = err_set(e, 0, 0, "the engine's sandbox is gone: its init was killed");
    } else {
        rc = sbx_spawn(p->box, 0, m->argv, m->cwd, &l, std, p->cg_procs, &p->pid,
                       &p->exec_errno, e);
        if (rc == 0 && p->exec_errno)
            p->ended = sbx_collect(p->box, LAUNCH_STOP_GRACE_MS, &p->status, &p->ru, e) != 0;
    }
    close(o[1]);
    close(r[1]);
    close(sv[1]);
    return rc;
}

/* Freezes (1) or thaws (0) every process of the engine, where its cgroup
 * can be frozen. A failed write leaves it as it was: an engine that could
 * not be frozen runs, as one that ponders, billed at its next move. */
static void set_frozen(struct persist *p, int frozen)
{
    if (p->frozen != frozen && cg_move_freeze(&p->cg, frozen) == 0)
        p->frozen = frozen && cg_root_can_freeze(p->cg.root);
}

/* Kills every process of the engine now and reaps it (ended is set). */
static void kill_engine(struct persist *p)
{
    set_frozen(p, 0);   /* a frozen v1 process does not die */
    if (!p->started || p->ended)
        return;
    if (p->box) {
        sbx_stop_run(p->box);
        struct err e;
        if (sbx_collect(p->box, LAUNCH_STOP_GRACE_MS, &p->status, &p->ru, &e) != 1) {
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
static int engine_ended(struct persist *p, long wait_ms)
{
    if (p->ended || !p->started)
        return p->ended;
    if (p->box) {
        struct err e;
        int rc = sbx_collect(p->box, (int)wait_ms, &p->status, &p->ru, &e);
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
        if ((double)(clock_wall_ns() - t0) / NS_PER_MS >= (double)wait_ms)
            return 0;
        usleep((useconds_t)US_PER_MS);
    }
}

static void close_fd(int *fd)
{
    if (*fd >= 0)
        close(*fd);
    *fd = -1;
}

/* Ends the engine (quit, stdin closed, PERSIST_QUIT_MS, then killed) and
 * closes what it held, leaving p as new but for its view and sandbox. */
static void end_engine(struct persist *p)
{
    set_frozen(p, 0);   /* to read quit, or to die */
    if (p->started && !p->ended) {
        static const char quit[] = "quit\n";
        ssize_t sent = send(p->in, quit, sizeof quit - 1, MSG_NOSIGNAL | MSG_DONTWAIT);
        (void)sent;
        close_fd(&p->in);
        if (!engine_ended(p, PERSIST_QUIT_MS))
            kill_engine(p);
    }
    int *fds[] = { &p->in, &p->out, &p->err, &p->fwd[0], &p->fwd[1] };
    for (size_t i = 0; i < sizeof fds / sizeof *fds; i++)
        close_fd(fds[i]);
    /* What escaped its process group without a sandbox goes with the
     * cgroup. */
    struct err e;
    if (p->cg.root && !p->cg.ended)
        cg_move_end(&p->cg, &e);
    cg_move_close(&p->cg);
    const struct sbx_view *view = p->view;
    const struct cg_root *acct = p->acct;
    int ponder = p->ponder;
    struct sbx *box = p->box;
    memset(p, 0, sizeof *p);
    init_state(p, view, acct, ponder);
    p->box = box;
}

/* --- a move -------------------------------------------------------------- */

/* Passes n bytes on to the move's pipe fd (-1: none); what does not fit
 * now is dropped (the loop keeps only a tail of it anyway). */
static void pass_on(int fd, const char *buf, size_t n)
{
    if (fd >= 0 && n > 0) {
        ssize_t w = write(fd, buf, n);
        (void)w;
    }
}

/* One read of the engine's stream *fd into buf (EINTR retried), *fd
 * closed at its end: the bytes read, or 0 when there are none now. */
static ssize_t read_chunk(int *fd, char buf[CHUNK])
{
    ssize_t n;
    while ((n = read(*fd, buf, CHUNK)) < 0 && errno == EINTR)
        ;
    if (n == 0)
        close_fd(fd);
    return n > 0 ? n : 0;
}

/* Reads what stdout holds, passing it on; 1 when a line "done" (a '\r'
 * before its newline is forgiven) was among it. */
static int read_stdout(struct persist *p)
{
    char buf[CHUNK];
    int done = 0;
    ssize_t n;
    while (p->out >= 0 && (n = read_chunk(&p->out, buf)) > 0) {
        p->out_bytes += n;
        pass_on(p->fwd[0], buf, (size_t)n);
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
    return done;
}

/* Passes on what stderr holds. */
static void read_stderr(struct persist *p)
{
    char buf[CHUNK];
    ssize_t n;
    while (p->err >= 0 && (n = read_chunk(&p->err, buf)) > 0)
        pass_on(p->fwd[1], buf, (size_t)n);
}

/* The move's CPU and peak memory, once: since the previous move's end,
 * from the live engine, or once it is gone from its cgroup or else its
 * rusage. */
static void measure(struct persist *p)
{
    if (p->measured || !p->started)
        return;
    p->measured = 1;
    double user = 0, cpu = p->ended ? -1 : cpu_now_ms(p, &user);
    p->peak_kb = p->ended ? 0 : peak_kb(p);
    if (cpu < 0 && p->cg.root && p->cg.n > 0)   /* gone: its cgroup stays till the end */
        user = cpu = cg_move_cpu_ms(&p->cg);
    if (cpu < 0) {
        user = tv_ms(p->ru.ru_utime);
        cpu = user + tv_ms(p->ru.ru_stime);
        p->peak_kb = p->ru.ru_maxrss;
    }
    double move = cpu - p->mark_ms;
    p->user_ms = move > 0 ? move * (cpu > 0 ? user / cpu : 1) : 0;
    p->sys_ms = move > 0 ? move - p->user_ms : 0;
    p->mark_ms = cpu;
}

static int ps_start(void *self, struct launch_move *m, const int w[2], struct err *e)
{
    struct persist *p = self;
    assert(m->line);
    if (p->ended)   /* a move outside a game (referee bench) after a forfeit */
        end_engine(p);
    p->out_bytes = 0;
    p->answered = p->over_cpu = p->measured = p->stopped = 0;
    p->why[0] = '\0';
    double limit_s = m->limits->cpu_limit_s > 0 ? (double)m->limits->cpu_limit_s * MS_PER_S : 0;
    double limit_ms = m->limits->cpu_ms > 0 ? (double)m->limits->cpu_ms : 0;
    p->cpu_limit_ms = limit_s > 0 && (limit_ms == 0 || limit_s < limit_ms) ? limit_s : limit_ms;
    p->cap_ms = m->cpu_cap_ms;
    /* What it wrote between its moves goes to this move's tails; a stale
     * "done" among it answers nothing. */
    if ((p->fwd[0] = dup(w[0])) < 0 || (p->fwd[1] = dup(w[1])) < 0)
        return err_set(e, 0, 0, "dup: %s", strerror(errno));
    fcntl(p->fwd[0], F_SETFL, O_NONBLOCK);
    fcntl(p->fwd[1], F_SETFL, O_NONBLOCK);
    if (!p->started && start_engine(p, m, e) != 0)
        return -1;
    if (p->exec_errno)
        return 0;
    set_frozen(p, 0);
    read_stderr(p);
    (void)read_stdout(p);
    size_t len = strlen(m->line);
    if (send(p->in, m->line, len, MSG_NOSIGNAL | MSG_DONTWAIT) == (ssize_t)len)
        return 0;
    if (errno == EAGAIN || errno == EWOULDBLOCK) {
        strcpy(p->why, "stdin-full");
        measure(p);
        kill_engine(p);
    } else {   /* EPIPE: it has gone, or is going */
        engine_ended(p, LAUNCH_STOP_GRACE_MS);
    }
    return 0;
}

static int ps_wait_fd(void *self)
{
    return ((struct persist *)self)->out;
}

/* Stops the move on a reason of its own (why, or over its CPU). */
static int stop_move(struct persist *p, const char *why)
{
    measure(p);
    if (why)
        strcpy(p->why, why);
    else
        p->over_cpu = 1;
    kill_engine(p);
    return 1;
}

static int ps_done(void *self, struct err *e)
{
    struct persist *p = self;
    (void)e;
    if (p->exec_errno || p->answered || p->ended)
        return 1;
    read_stderr(p);
    if (read_stdout(p)) {
        measure(p);
        if (!p->ponder)
            set_frozen(p, 1);
        return p->answered = 1;
    }
    if (p->out_bytes > PERSIST_STDOUT_MAX)
        return stop_move(p, "stdout-flood");
    if (p->cpu_limit_ms > 0 || p->cap_ms > 0) {
        double user, cpu = cpu_now_ms(p, &user) - p->mark_ms;
        if ((p->cpu_limit_ms > 0 && cpu >= p->cpu_limit_ms) || (p->cap_ms > 0 && cpu > p->cap_ms))
            return stop_move(p, NULL);
    }
    if (!engine_ended(p, 0))
        return 0;
    read_stderr(p);   /* its last words */
    (void)read_stdout(p);
    return 1;
}

static void ps_stop(void *self)
{
    struct persist *p = self;
    p->stopped = 1;
    measure(p);
    kill_engine(p);
}

static void ps_kill(void *self)
{
    struct persist *p = self;
    p->stopped = 1;
    set_frozen(p, 0);   /* its init's end kills it: a frozen v1 process does not die */
    sbx_close(p->box);
    p->box = NULL;
    p->ended = 1;
}

static int ps_collect(void *self, const struct launch_move *m, struct launch_end *end,
                      struct rusage *ru, struct err *e)
{
    struct persist *p = self;
    if (!p->exec_errno && !p->answered) {
        read_stderr(p);
        (void)read_stdout(p);
    }
    close_fd(&p->fwd[0]);
    close_fd(&p->fwd[1]);
    end->wall_ms = -1;
    if (p->exec_errno) {
        end->exec_errno = p->exec_errno;
        err_set(e, 0, 0, "cannot run '%s': %s", m->argv[0], strerror(p->exec_errno));
        return 0;
    }
    measure(p);
    ru->ru_utime.tv_sec = (time_t)(p->user_ms / MS_PER_S);
    ru->ru_utime.tv_usec = (suseconds_t)fmod(p->user_ms * US_PER_MS, 1e6);
    ru->ru_stime.tv_sec = (time_t)(p->sys_ms / MS_PER_S);
    ru->ru_stime.tv_usec = (suseconds_t)fmod(p->sys_ms * US_PER_MS, 1e6);
    ru->ru_maxrss = p->peak_kb;
    /* Over its CPU: as RLIMIT_CPU would have ended it (run_judge). */
    end->status = p->answered || p->why[0] ? 0 : p->over_cpu ? SIGXCPU : p->status;
    if (!p->answered && !p->why[0] && !p->over_cpu && !p->stopped && WIFEXITED(p->status) &&
        WEXITSTATUS(p->status) == 0)
        strcpy(p->why, "exit-status 0");
    /* A process of it the cgroup's memory limit killed: as a file
     * engine's move under the launcher loop (launcher.h). */
    struct cg_usage u;
    if (!p->answered && p->ended && p->cg.root && !p->cg.ended && cg_move_end(&p->cg, e) == 0 &&
        cg_move_usage(&p->cg, &u) == 0 && u.oom_kills > 0)
        strcpy(p->why, "memory-limit");
    return 0;
}

static void ps_close(void *self)
{
    struct persist *p = self;
    if (!p)
        return;
    end_engine(p);
    sbx_close(p->box);
    free(p);
}

static const struct launcher_ops persist_ops = {
    ps_start, ps_wait_fd, ps_done, ps_stop, ps_kill, ps_collect, ps_close,
};

int launcher_persistent(struct launcher *l, const struct sbx_view *view,
                        const struct cg_root *acct, int ponder, struct err *e)
{
    struct persist *p = calloc(1, sizeof *p);
    if (!p)
        return err_set(e, 0, 0, "out of memory");
    init_state(p, view, acct, ponder);
    /* Now, not at its first move: the init builds its view meanwhile. */
    if (view && sbx_open(&p->box, view, 1, e) != 0) {
        free(p);
        return -1;
    }
    *l = (struct launcher){ .ops = &persist_ops, .self = p, .watch_ms = PERSIST_WATCH_MS };
    return 0;
}

int persist_start(struct launcher *l, const struct launch_move *m, struct err *e)
{
    assert(l->ops == &persist_ops);
    struct persist *p = l->self;
    if (p->started)
        return 0;
    if (start_engine(p, m, e) != 0)
        return -1;
    if (p->exec_errno)   /* its first move says so: cannot-run */
        e->msg[0] = '\0';
    return 0;
}

struct sbx *persist_sandbox(const struct launcher *l)
{
    assert(l->ops == &persist_ops);
    return ((const struct persist *)l->self)->box;
}

const char *persist_reason(const struct launcher *l)
{
    assert(l->ops == &persist_ops);
    return ((const struct persist *)l->self)->why;
}

int persist_move_line(char *buf, size_t cap, const char *in, const char *out, const char *depth,
                      const char *time_ms, const char *inc_ms)
{
    return snprintf(buf, cap, "move %s %s %s %s %s\n", in, out, depth, time_ms, inc_ms);
}
