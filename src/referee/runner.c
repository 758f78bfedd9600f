/*
 * runner.c - one engine run under limits (runner.h).
 *
 * The deadline is kept by polling the child with wait4(WNOHANG), with no
 * signal handlers and nothing process-wide (several runs may be in flight
 * from several threads). exec failures travel
 * back through a close-on-exec pipe: the parent reads errno, or EOF when the
 * exec succeeded.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>
#include "arena/clock.h"
#include "arena/runner.h"

#define NS_PER_MS 1000000.0
#define US_PER_MS 1000.0
#define MB (1024L * 1024L)
#define KB 1024L
/* The child is polled, first often (most engine moves are short), then
 * at most every POLL_MAX_US: no signals, no pidfd (valgrind lacks it). */
#define POLL_MIN_US 20
#define POLL_MAX_US 1000

static double tv_ms(struct timeval tv)
{
    return (double)tv.tv_sec * 1000.0 + (double)tv.tv_usec / US_PER_MS;
}

static void set_limit(int resource, rlim_t value)
{
    struct rlimit rl = { value, value };
    setrlimit(resource, &rl);
}

/* In the child: never returns. */
static void child(char *const argv[], const char *cwd, const struct run_limits *l, int err_fd)
{
    setpgid(0, 0);
    int null = open("/dev/null", O_RDWR);
    if (null >= 0) {
        dup2(null, STDIN_FILENO);
        dup2(null, STDOUT_FILENO);
        dup2(null, STDERR_FILENO);
        if (null > STDERR_FILENO)
            close(null);
    }
    if (l->cpu_limit_s > 0) {
        /* The soft limit sends SIGXCPU; the hard one, a second later, kills. */
        struct rlimit rl = { (rlim_t)l->cpu_limit_s, (rlim_t)l->cpu_limit_s + 1 };
        setrlimit(RLIMIT_CPU, &rl);
    }
    if (l->mem_limit_mb > 0)
        set_limit(RLIMIT_AS, (rlim_t)l->mem_limit_mb * MB);
    if (l->file_limit_kb > 0)
        set_limit(RLIMIT_FSIZE, (rlim_t)l->file_limit_kb * KB);
    set_limit(RLIMIT_CORE, 0);
    int e = 0;
    if (chdir(cwd) != 0)
        e = errno;
    else
        execvp(argv[0], argv);
    if (!e)
        e = errno;
    ssize_t w = write(err_fd, &e, sizeof e);
    (void)w;
    _exit(127);
}

int run_engine(char *const argv[], const char *cwd, const struct run_limits *limits,
               struct run_result *r, struct err *e)
{
    memset(r, 0, sizeof *r);
    int pipefd[2];
    if (pipe2(pipefd, O_CLOEXEC) != 0)
        return err_set(e, 0, 0, "pipe: %s", strerror(errno));
    uint64_t t0 = clock_wall_ns();
    pid_t pid = fork();
    if (pid < 0) {
        close(pipefd[0]);
        close(pipefd[1]);
        return err_set(e, 0, 0, "fork: %s", strerror(errno));
    }
    if (pid == 0)
        child(argv, cwd, limits, pipefd[1]);
    /* Also here, so the group exists before we might signal it. */
    setpgid(pid, pid);
    close(pipefd[1]);
    int exec_errno = 0;
    ssize_t got = read(pipefd[0], &exec_errno, sizeof exec_errno);
    close(pipefd[0]);

    int timed_out = 0, reaped = 0, status = 0;
    struct rusage ru;
    memset(&ru, 0, sizeof ru);
    long step_us = POLL_MIN_US;
    while (got <= 0 && !reaped) {
        pid_t w = wait4(pid, &status, WNOHANG, &ru);
        if (w == pid) {
            reaped = 1;
            break;
        }
        if (w < 0 && errno != EINTR)
            break;
        if ((double)(clock_wall_ns() - t0) / NS_PER_MS >= (double)limits->timeout_ms) {
            timed_out = 1;
            break;
        }
        usleep((useconds_t)step_us);
        if (step_us < POLL_MAX_US)
            step_us *= 2;
    }
    if (timed_out)
        kill(-pid, SIGKILL);
    while (!reaped && wait4(pid, &status, 0, &ru) < 0 && errno == EINTR)
        ;
    r->wall_ms = (double)(clock_wall_ns() - t0) / NS_PER_MS;
    /* Whatever the leader left behind in its group goes with it. */
    kill(-pid, SIGKILL);
    r->cpu_user_ms = tv_ms(ru.ru_utime);
    r->cpu_sys_ms = tv_ms(ru.ru_stime);
    r->max_rss_kb = ru.ru_maxrss;
    if (got > 0) {
        r->end = RUN_EXEC_FAILED;
        err_set(e, 0, 0, "cannot run '%s': %s", argv[0], strerror(exec_errno));
        return 0;
    }
    if (timed_out) {
        r->end = RUN_TIMEOUT;
    } else if (WIFEXITED(status)) {
        r->end = RUN_EXITED;
        r->status = WEXITSTATUS(status);
    } else {
        int sig = WTERMSIG(status);
        int over_cpu = limits->cpu_limit_s > 0 && (r->cpu_user_ms + r->cpu_sys_ms) / 1000.0
                                                      >= (double)limits->cpu_limit_s;
        r->end = sig == SIGXCPU || (sig == SIGKILL && over_cpu) ? RUN_CPU_LIMIT : RUN_SIGNALED;
        r->signal = sig;
    }
    return 0;
}
