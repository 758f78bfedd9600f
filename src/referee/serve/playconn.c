/*
 * playconn.c - `referee play`'s open connections and the time each has to
 * send a request (playconn.h).
 */
#include "playconn.h"

#include <string.h>
#include <sys/socket.h>

void pconns_init(struct pconns *t)
{
    memset(t, 0, sizeof *t);
    pthread_mutex_init(&t->mu, NULL);
    for (int i = 0; i < PLAYSRV_MAX_CONNS; i++)
        t->conn[i].fd = -1;
}

void pconns_destroy(struct pconns *t)
{
    pthread_mutex_destroy(&t->mu);
}

struct pconn *pconn_open(struct pconns *t, int fd, uint64_t now_ns)
{
    struct pconn *c = NULL;
    pthread_mutex_lock(&t->mu);
    for (int i = 0; i < PLAYSRV_MAX_CONNS && !c; i++)
        if (t->conn[i].fd < 0)
            c = &t->conn[i];
    if (c)
        *c = (struct pconn){ .fd = fd, .since_ns = now_ns };
    pthread_mutex_unlock(&t->mu);
    return c;
}

void pconn_busy(struct pconns *t, struct pconn *c, int busy, uint64_t now_ns)
{
    if (!c)
        return;
    pthread_mutex_lock(&t->mu);
    c->busy = busy;
    if (!busy)
        c->since_ns = now_ns;
    pthread_mutex_unlock(&t->mu);
}

void pconn_close(struct pconns *t, struct pconn *c)
{
    if (!c)
        return;
    pthread_mutex_lock(&t->mu);
    *c = (struct pconn){ .fd = -1 };
    pthread_mutex_unlock(&t->mu);
}

int pconn_sweep(struct pconns *t, uint64_t now_ns, uint64_t limit_ns)
{
    int cut = 0;
    pthread_mutex_lock(&t->mu);
    for (int i = 0; i < PLAYSRV_MAX_CONNS; i++) {
        struct pconn *c = &t->conn[i];
        /* since_ns may be past now_ns: set by a thread that read the
         * clock after the caller did. */
        if (c->fd < 0 || c->busy || c->cut || c->since_ns >= now_ns ||
            now_ns - c->since_ns <= limit_ns)
            continue;
        /* Both ways: its thread's poll wakes to the end of the input. */
        shutdown(c->fd, SHUT_RDWR);
        c->cut = 1;
        cut++;
    }
    pthread_mutex_unlock(&t->mu);
    return cut;
}
