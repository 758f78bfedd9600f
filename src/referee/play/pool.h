/*
 * pool.h - a pool of worker processes, one job each: a worker is forked,
 * runs its job, writes its answer into a pipe and exits; the parent polls
 * the pipes, collects each answer and reaps the worker. The tournament runs
 * one game per worker (tournament.h says why processes).
 *
 * A worker dies with its parent (PR_SET_PDEATHSIG, SIGTERM); one whose
 * parent is already gone when it starts exits POOL_CANCELLED at once.
 * Representation: cap slots, each a pid (0: free), the read end of its
 * pipe and the answer so far (malloc'd, owned by the pool).
 */
#ifndef ARENA_POOL_H
#define ARENA_POOL_H

#include <stddef.h>
#include <sys/types.h>
#include "arena/err.h"

/* Exit statuses of a job besides 0 (done, answer sent). */
#define POOL_CANCELLED 3   /* stopped before it finished */
#define POOL_FAILED 4      /* the worker itself failed */
#define POOL_SIGNALED 128  /* + the signal: a worker killed (as sh says) */

struct pool_slot {
    pid_t pid;      /* 0: free */
    int fd;         /* the worker's pipe */
    long job;
    char *buf;      /* what it sent */
    size_t len, cap;
};

struct pool {
    int cap, running;
    struct pool_slot *slot;
};

/* Runs in the worker: does job, writes its answer to fd, and returns the
 * exit status. slot is the worker's slot, 0 to cap - 1, which no other
 * worker running at the same time has (cpus.h gives each its CPUs). The
 * pool is the parent's copy: the job must free what else the parent
 * allocated (the pool frees itself after the job returns), so that each
 * process frees what it holds. */
typedef int (*pool_job_fn)(void *ctx, long job, int slot, int fd);
/* Runs in the parent for each worker that ended: status is its exit status
 * (128 + signal when killed), answer its bytes (len, NUL-terminated, the
 * pool's until the call returns). Returns 0, or -1 with e filled. */
typedef int (*pool_done_fn)(void *ctx, long job, int status, char *answer, size_t len,
                            struct err *e);

/* 0, or -1 when out of memory. Free with pool_free. */
int pool_init(struct pool *p, int cap);
void pool_free(struct pool *p);

/* Starts job in a free slot (assumes p->running < p->cap). 0, or -1 with e
 * filled (pipe or fork failed). */
int pool_start(struct pool *p, long job, pool_job_fn fn, void *ctx, struct err *e);
/* Waits up to timeout_ms for answers; calls done for each worker that
 * ended. Returns 0, or -1 with e filled (the first failure of done or of
 * poll; every ended worker is reaped even so). */
int pool_wait(struct pool *p, int timeout_ms, pool_done_fn done, void *ctx, struct err *e);
/* Sends sig to every running worker. */
void pool_signal(const struct pool *p, int sig);
/* Kills (SIGKILL) and reaps every running worker. */
void pool_kill(struct pool *p);

#endif
