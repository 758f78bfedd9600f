/*
 * launcher.c - the deadline loop every launcher shares (launcher.h).
 *
 * The loop asks the implementation whether the move is over without
 * blocking, and sleeps in ppoll on the engine's stdout and stderr (read as
 * they come) and on the implementation's descriptor when it has one; an
 * implementation without one (the plain runner: no pidfd, which valgrind
 * lacks) is polled, first often (most moves are short), then every
 * POLL_MAX_US. Nothing process-wide: several moves may be in flight from
 * several threads.
 *
 * The plain launcher (launcher_plain) is here too: its child is forked
 * from the referee and polled with waitid(WNOHANG | WNOWAIT); exec
 * failures travel back through a close-on-exec pipe: the parent reads
 * errno, or EOF when the exec succeeded.
 */
#define _GNU_SOURCE
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "arena/cgroup.h"
#include "arena/clock.h"
#include "launcher.h"

#define NS_PER_MS 1e6
#define US_PER_MS 1000L
#define POLL_MIN_US 20L
#define POLL_MAX_US 1000L
/* How often a cancel flag is looked at while waiting on a descriptor. */
#define CANCEL_POLL_MS 50L
/* How often the cgroup's CPU is read against the CPU limit: a tree of two
 * cores' worth of processes passes the limit by twice this at most. */
#define CPU_POLL_MS 10L

/* Why the loop stopped the move. */
struct stop_state {
    double at_ms;                /* since t0; < 0: not stopped */
    double cpu_read_ms;          /* since t0: when the cgroup's CPU was read */
    double wait_ms;              /* the tree's wait for a CPU at the deadline */
    int timed_out, cancelled, over_cpu, killed;
};

/* The CPU time the move's tree may use, ms: the smaller of its limits in
 * seconds and in ms; 0: none. */
static double cpu_cap_ms(const struct run_limits *lim)
{
    double s = lim->cpu_limit_s > 0 ? (double)lim->cpu_limit_s * US_PER_MS : 0;
    double ms = lim->cpu_ms > 0 ? (double)lim->cpu_ms : 0;
    return s > 0 && (ms == 0 || s < ms) ? s : ms;
}

static double since_ms(uint64_t t0)
{
    return (double)(clock_wall_ns() - t0) / NS_PER_MS;
}

/* Whether the move must be stopped now, and why (into s). */
static int must_stop(const struct launcher *l, const struct launch_move *m,
                     const struct cg_move *cg, double now, struct stop_state *s)
{
    const struct run_limits *lim = m->limits;
    if (lim->cancel && *lim->cancel)
        s->cancelled = 1;
    else if (now >= (double)lim->timeout_ms) {
        s->timed_out = 1;
        s->wait_ms = cg_move_wait_ms(cg);   /* read before the stop */
    } else if (l->acct && cpu_cap_ms(lim) > 0 && now - s->cpu_read_ms >= (double)CPU_POLL_MS) {
        s->cpu_read_ms = now;
        s->over_cpu = cg_move_cpu_ms(cg) >= cpu_cap_ms(lim);
    }
    return s->cancelled || s->timed_out || s->over_cpu;
}

/* How long the loop may sleep now, in microseconds. */
static long pause_us(const struct launcher *l, const struct launch_move *m, int fd,
                     const struct stop_state *s, double now, long step_us)
{
    if (fd < 0)
        return step_us;
    double until = s->at_ms < 0 ? (double)m->limits->timeout_ms : s->at_ms + LAUNCH_STOP_GRACE_MS;
    long us = (long)((until - now) * US_PER_MS) + US_PER_MS;
    if (s->at_ms < 0 && m->limits->cancel && us > CANCEL_POLL_MS * US_PER_MS)
        us = CANCEL_POLL_MS * US_PER_MS;
    if (s->at_ms < 0 && l->acct && cpu_cap_ms(m->limits) > 0 && us > CPU_POLL_MS * US_PER_MS)
        us = CPU_POLL_MS * US_PER_MS;
    if (s->at_ms < 0 && l->watch_ms > 0 && us > l->watch_ms * US_PER_MS)
        us = l->watch_ms * US_PER_MS;
    return us;
}

/* Waits until the move started at t0 is over, stopping it when it must
 * stop, and drains st meanwhile. 0, or -1 with e. */
static int await_end(struct launcher *l, const struct launch_move *m, const struct cg_move *cg,
                     uint64_t t0, struct run_streams *st, struct stop_state *s, struct err *e)
{
    int fd = l->ops->wait_fd(l->self);
    long step_us = POLL_MIN_US;
    s->at_ms = -1;
    for (;;) {
        int d = l->ops->done(l->self, e);
        if (d != 0)
            return d < 0 ? -1 : 0;
        double now = since_ms(t0);
        if (s->at_ms < 0 && must_stop(l, m, cg, now, s)) {
            l->ops->stop(l->self);
            s->at_ms = now;
            continue;
        }
        if (s->at_ms >= 0 && now >= s->at_ms + LAUNCH_STOP_GRACE_MS) {
            l->ops->kill(l->self);
            s->killed = 1;
            return 0;
        }
        long us = pause_us(l, m, fd, s, now, step_us);
        struct pollfd p[3] = { st->fd[0], st->fd[1], { fd, POLLIN, 0 } };
        struct timespec pause = { us / 1000000L, (us % 1000000L) * 1000L };
        int ready = ppoll(p, 3, &pause, NULL);
        if (ready > 0 && (p[0].revents || p[1].revents))
            run_streams_drain(st, RUN_DRAIN_CHUNKS);
        else if (ready <= 0 && step_us < POLL_MAX_US)
            step_us *= 2;
    }
}

/* r's CPU from the move's cgroup, and its limits' verdicts over the whole
 * tree, after run_judge's over the leader. */
static void judge_tree(const struct cg_move *cg, const struct run_limits *lim,
                       const struct stop_state *s, struct run_result *r)
{
    struct cg_usage u;
    if (cg_move_usage(cg, &u) != 0)
        return;
    r->cpu_user_ms = u.user_ms;
    r->cpu_sys_ms = u.sys_ms;
    if (r->end == RUN_CANCELLED || r->end == RUN_EXEC_FAILED)
        return;
    if (s->over_cpu || (cpu_cap_ms(lim) > 0 && u.user_ms + u.sys_ms >= cpu_cap_ms(lim)))
        r->end = RUN_CPU_LIMIT, r->by_tree = 1;
    else if (lim->mem_limit_mb > 0 && u.oom_kills > 0)
        r->end = RUN_MEM_LIMIT, r->by_tree = 1;
}

/* r from how the move ended (collect's end and ru), why the loop stopped
 * it, and, with a cgroup, what its whole tree used. */
static void judge_move(const struct launch_move *m, const struct launch_end *end,
                       const struct rusage *ru, const struct stop_state *s, long self_kb,
                       uint64_t t0, struct run_result *r)
{
    r->wall_ms = end->wall_ms >= 0 ? end->wall_ms : since_ms(t0);
    run_take_usage(ru, r);
    if (end->exec_errno)
        r->end = RUN_EXEC_FAILED;
    else
        run_judge(m->limits, end->status, s->timed_out || s->over_cpu, s->cancelled, self_kb, r);
    if (s->over_cpu && r->end == RUN_TIMEOUT)
        r->end = RUN_CPU_LIMIT;
    r->wait_ms = s->timed_out ? s->wait_ms : -1;
}

/* Starts m, waits for its end and collects it into end and ru. 0, or -1
 * with e. */
static int run_move(struct launcher *l, struct launch_move *m, const struct cg_move *cg,
                    struct run_streams *st, const int w[2], uint64_t t0, struct stop_state *s,
                    struct launch_end *end, struct rusage *ru, struct err *e)
{
    int rc = l->ops->start(l->self, m, w, e);
    close(w[0]);
    close(w[1]);
    if (rc == 0)
        rc = await_end(l, m, cg, t0, st, s, e);
    if (rc == 0)
        rc = l->ops->collect(l->self, m, end, ru, e);
    /* Every process that held the pipes is gone by now. */
    run_streams_drain(st, RUN_FINAL_CHUNKS);
    run_streams_close(st);
    return rc;
}

int launcher_move(struct launcher *l, struct launch_move *m, struct run_result *r,
                  struct err *e)
{
    assert(l && l->ops && m && m->argv && m->argv[0] && m->cwd && m->limits);
    assert(m->limits->timeout_ms > 0);
    memset(r, 0, sizeof *r);
    struct cg_move cg;
    cg_move_none(&cg, m->cg_procs, LAUNCH_CG_FILES);
    if (l->acct &&
        cg_move_open(l->acct, m->limits->mem_limit_mb, &cg, m->cg_procs, LAUNCH_CG_FILES, e) != 0)
        return -1;
    struct run_streams st;
    int w[2];
    if (run_streams_open(&st, w, m->err_copy, m->limits, r, e) != 0) {
        cg_move_close(&cg);
        return -1;
    }
    long self_kb = run_self_kb(m->limits);
    uint64_t t0 = clock_wall_ns();
    struct stop_state s;
    memset(&s, 0, sizeof s);
    struct launch_end end = { 0, 0, -1 };
    struct rusage ru;
    memset(&ru, 0, sizeof ru);
    int rc = run_move(l, m, &cg, &st, w, t0, &s, &end, &ru, e);
    if (rc == 0)
        judge_move(m, &end, &ru, &s, self_kb, t0, r);
    /* Whatever happened, nothing of the move may outlive it. */
    struct err ce;
    if (l->acct && cg_move_end(&cg, &ce) == 0 && rc == 0)
        judge_tree(&cg, m->limits, &s, r);
    else if (l->acct && rc == 0)
        rc = err_set(e, 0, 0, "%s", ce.msg);
    if (cg_move_close(&cg) != 0 && rc == 0)
        rc = err_set(e, 0, 0, "%s", cg.leftover);
    return rc;
}

/* In the child of launcher_spawn: never returns. It enters the move's
 * cgroup before anything else, so that everything it does is billed
 * there; a failure to enter is sent as the negated errno. */
static void child(char *const argv[], const char *cwd, const struct run_limits *l,
                  const int std[3], const int *cg, int err_fd, pid_t parent)
{
    int e = 0;
    for (int i = 0; i < LAUNCH_CG_FILES && !e; i++)
        if (cg[i] >= 0 && write(cg[i], "0", 1) != 1)
            e = -errno;
    setpgid(0, 0);
    /* If the referee dies (SIGKILL, OOM killer), the engine goes with it
     * rather than running on with nobody to time it out. The check after
     * covers a parent that died before the prctl. */
    prctl(PR_SET_PDEATHSIG, (long)SIGKILL, 0L, 0L, 0L);
    if (getppid() != parent)
        _exit(127);
    int in = std[2] >= 0 ? std[2] : open("/dev/null", O_RDONLY);
    if (in >= 0) {
        dup2(in, STDIN_FILENO);
        if (std[2] < 0 && in > STDIN_FILENO)
            close(in);
    }
    dup2(std[0], STDOUT_FILENO);
    dup2(std[1], STDERR_FILENO);
    run_apply_limits(l);
    if (!e && chdir(cwd) != 0)
        e = errno;
    else if (!e)
        execvp(argv[0], argv);
    if (!e)
        e = errno;
    ssize_t w = write(err_fd, &e, sizeof e);
    (void)w;
    _exit(127);
}

int launcher_spawn(char *const argv[], const char *cwd, const struct run_limits *l,
                   const int std[3], const int *cg, pid_t *pid, int *why, struct err *e)
{
    int pipefd[2];
    pid_t parent;
    pid_t child_pid = run_fork_piped(pipefd, &parent, e);
    if (child_pid < 0)
        return -1;
    if (child_pid == 0)
        child(argv, cwd, l, std, cg, pipefd[1], parent);
    /* Also here, so the group exists before we might signal it. */
    setpgid(child_pid, child_pid);
    close(pipefd[1]);
    *pid = child_pid;
    *why = 0;
    ssize_t got = read(pipefd[0], why, sizeof *why);
    close(pipefd[0]);
    return got > 0;
}

/* --- the plain launcher: a fork and an exec per move ------------------ */

/* Its state: the move in flight. */
struct runner {
    pid_t pid;                   /* the leader; 0: none */
    int exec_errno;              /* it did not start: why */
    int exited;                  /* its exit was seen (not reaped yet) */
    int reap_all;                /* sweep every child after the move */
    uint64_t t0;
};

static int runner_start(void *self, struct launch_move *m, const int w[2], struct err *e)
{
    struct runner *rn = self;
    *rn = (struct runner){ .reap_all = m->limits->reap_all, .t0 = clock_wall_ns() };
    const int std[3] = { w[0], w[1], -1 };
    int why;
    int rc = launcher_spawn(m->argv, m->cwd, m->limits, std, m->cg_procs, &rn->pid, &why, e);
    if (rc < 0)
        return -1;
    if (rc && why < 0) {
        kill(rn->pid, SIGKILL);
        while (waitpid(rn->pid, NULL, 0) < 0 && errno == EINTR)
            ;
        rn->pid = 0;
        return err_set(e, 0, 0, "cannot place the engine in its cgroup: %s", strerror(-why));
    }
    rn->exec_errno = rc ? why : 0;
    return 0;
}

static int runner_wait_fd(void *self)
{
    (void)self;
    return -1;
}

static int runner_done(void *self, struct err *e)
{
    struct runner *rn = self;
    (void)e;
    if (rn->exec_errno || rn->exited)
        return 1;
    /* WNOWAIT: the leader's exit is seen but it is not reaped yet. */
    siginfo_t info;
    memset(&info, 0, sizeof info);
    int w = waitid(P_PID, (id_t)rn->pid, &info, WEXITED | WNOHANG | WNOWAIT);
    rn->exited = (w == 0 && info.si_pid == rn->pid) || (w < 0 && errno != EINTR);
    return rn->exited;
}

static void runner_stop(void *self)
{
    struct runner *rn = self;
    /* The leader itself: it may have moved to another process group
     * (setpgid), and then only this reaches it. */
    kill(rn->pid, SIGKILL);
    kill(-rn->pid, SIGKILL);
}

static void runner_kill(void *self)
{
    runner_stop(self);
}

static int runner_collect(void *self, const struct launch_move *m, struct launch_end *end,
                          struct rusage *ru, struct err *e)
{
    struct runner *rn = self;
    /* The group, with whatever the leader left in it, before the leader is
     * reaped: until then its pid stays taken, so -pid can name no other
     * process's group. */
    kill(-rn->pid, SIGKILL);
    while (wait4(rn->pid, &end->status, 0, ru) < 0 && errno == EINTR)
        ;
    end->wall_ms = (double)(clock_wall_ns() - rn->t0) / NS_PER_MS;
    if (rn->reap_all)
        run_sweep(m->limits->spare);
    rn->pid = 0;
    end->exec_errno = rn->exec_errno;
    if (rn->exec_errno)
        err_set(e, 0, 0, "cannot run '%s': %s", m->argv[0], strerror(rn->exec_errno));
    return 0;
}

static void runner_close(void *self)
{
    free(self);
}

static const struct launcher_ops runner_ops = {
    runner_start, runner_wait_fd, runner_done, runner_stop, runner_kill, runner_collect,
    runner_close,
};

int launcher_plain(struct launcher *l, const struct cg_root *acct, struct err *e)
{
    struct runner *rn = calloc(1, sizeof *rn);
    if (!rn)
        return err_set(e, 0, 0, "out of memory");
    *l = (struct launcher){ .ops = &runner_ops, .self = rn, .acct = acct };
    return 0;
}


void launcher_close(struct launcher *l)
{
    if (l && l->ops)
        l->ops->close(l->self);
    if (l)
        memset(l, 0, sizeof *l);
}
