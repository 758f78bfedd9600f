/*
 * pool.c - worker processes, one job each, answers through pipes (pool.h).
 */
#define _GNU_SOURCE
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include "pool.h"
#include "arena/runner.h"

#define READ_CHUNK 65536
#define POLL_MAX 256               /* slots polled at once: TOUR_MAX_CONCURRENCY */

int pool_init(struct pool *p, int cap)
{
    assert(cap >= 1 && cap <= POLL_MAX);
    p->cap = cap;
    p->running = 0;
    p->slot = calloc((size_t)cap, sizeof *p->slot);
    return p->slot ? 0 : -1;
}

void pool_free(struct pool *p)
{
    for (int k = 0; k < p->cap && p->slot; k++)
        free(p->slot[k].buf);
    free(p->slot);
    p->slot = NULL;
}

/* In the worker: runs the job and exits, never returns. */
static void worker(struct pool *p, long job, int slot, pool_job_fn fn, void *ctx, int fd,
                   pid_t parent)
{
    prctl(PR_SET_PDEATHSIG, (long)SIGTERM, 0L, 0L, 0L);
    if (getppid() != parent)
        _exit(POOL_CANCELLED);
    int status = fn(ctx, job, slot, fd);
    close(fd);
    pool_free(p);
    _exit(status);
}

int pool_start(struct pool *p, long job, pool_job_fn fn, void *ctx, struct err *e)
{
    assert(p->running < p->cap);
    int k = 0;
    while (p->slot[k].pid)
        k++;
    int fds[2];
    pid_t parent;
    fflush(NULL);
    pid_t pid = run_fork_piped(fds, &parent, e);
    if (pid < 0)
        return -1;
    if (pid == 0) {
        close(fds[0]);
        worker(p, job, k, fn, ctx, fds[1], parent);
    }
    close(fds[1]);
    fcntl(fds[0], F_SETFL, O_NONBLOCK);
    struct pool_slot *w = &p->slot[k];
    w->pid = pid;
    w->fd = fds[0];
    w->job = job;
    w->len = 0;
    p->running++;
    return 0;
}

/* Reads what a worker sent; 1 at end of file. */
static int drain(struct pool_slot *w)
{
    for (;;) {
        if (w->cap - w->len < READ_CHUNK + 1) {
            size_t cap = w->cap ? 2 * w->cap : 4 * READ_CHUNK;
            char *grown = realloc(w->buf, cap);
            if (!grown)
                return 1;
            w->buf = grown;
            w->cap = cap;
        }
        ssize_t r = read(w->fd, w->buf + w->len, READ_CHUNK);
        if (r > 0) {
            w->len += (size_t)r;
            continue;
        }
        if (r < 0 && errno == EINTR)
            continue;
        return r == 0 || errno != EAGAIN;
    }
}

/* A worker's pipe ended: reap it and hand its answer over. */
static int reap(struct pool *p, struct pool_slot *w, pool_done_fn done, void *ctx,
                struct err *e)
{
    int status = 0;
    while (waitpid(w->pid, &status, 0) < 0 && errno == EINTR)
        ;
    close(w->fd);
    w->pid = 0;
    p->running--;
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : POOL_SIGNALED + WTERMSIG(status);
    if (w->buf)
        w->buf[w->len] = '\0';
    int rc = done(ctx, w->job, code, w->buf ? w->buf : (char[]){ "" }, w->len, e);
    w->len = 0;
    return rc;
}

int pool_wait(struct pool *p, int timeout_ms, pool_done_fn done, void *ctx, struct err *e)
{
    struct pollfd pfd[POLL_MAX];
    int map[POLL_MAX], n = 0;
    for (int k = 0; k < p->cap; k++)
        if (p->slot[k].pid) {
            pfd[n].fd = p->slot[k].fd;
            pfd[n].events = POLLIN;
            map[n++] = k;
        }
    int ready = poll(pfd, (nfds_t)n, timeout_ms);
    if (ready < 0)
        return errno == EINTR ? 0 : err_set(e, 0, 0, "poll: %s", strerror(errno));
    int rc = 0;
    for (int i = 0; i < n && ready > 0; i++) {
        if (!(pfd[i].revents & (POLLIN | POLLHUP | POLLERR)))
            continue;
        struct pool_slot *w = &p->slot[map[i]];
        if (drain(w)) {
            int r = reap(p, w, done, ctx, e);
            if (!rc)
                rc = r;
        }
    }
    return rc;
}

void pool_signal(const struct pool *p, int sig)
{
    for (int k = 0; k < p->cap; k++)
        if (p->slot[k].pid)
            kill(p->slot[k].pid, sig);
}

void pool_kill(struct pool *p)
{
    for (int k = 0; k < p->cap && p->slot; k++)
        if (p->slot[k].pid) {
            kill(p->slot[k].pid, SIGKILL);
            waitpid(p->slot[k].pid, NULL, 0);
            close(p->slot[k].fd);
            p->slot[k].pid = 0;
            p->running--;
        }
}
