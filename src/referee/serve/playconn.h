/*
 * playconn.h - the open connections of `referee play`'s server (playsrv.c)
 * and the time each has to send a request.
 *
 * Each connection is a thread of the server (playsrv.c says why), so one
 * that never sends a whole request would hold a thread for ever, and enough
 * of them (half-open connections, or a byte sent now and then: slowloris)
 * would leave none for the page. libmicrohttpd caps the connections
 * (PLAYSRV_MAX_CONNS, PLAYSRV_MAX_CLIENT_CONNS per address) and closes one
 * idle for PLAYSRV_REQUEST_S, but a byte now and then is not idle; this
 * table gives each connection PLAYSRV_REQUEST_S for its whole request,
 * counted from its start or its previous answer, and pconn_sweep cuts
 * (shutdown(2)) the ones past it. A connection whose request is in is
 * being answered (an engine's move takes as long as it takes) and is never
 * cut here.
 *
 * Threads: libmicrohttpd's call pconn_open, pconn_busy and pconn_close;
 * the server's own thread calls pconn_sweep. Everything is under the
 * table's lock, and a connection leaves the table (pconn_close, from
 * libmicrohttpd's notice that it closed) before its socket is closed, so
 * pconn_sweep never shuts down a descriptor that another socket reuses.
 */
#ifndef ARENA_PLAYCONN_H
#define ARENA_PLAYCONN_H

#include <pthread.h>
#include <stdint.h>
#include "arena/limits.h"

struct pconn {
    int fd;                   /* the connection's socket; -1: a free place */
    int busy;                 /* its request is in and being answered */
    int cut;                  /* shut down by pconn_sweep, closing */
    uint64_t since_ns;        /* waiting for a request since (clock_wall_ns) */
};

struct pconns {
    pthread_mutex_t mu;
    struct pconn conn[PLAYSRV_MAX_CONNS];
};

void pconns_init(struct pconns *t);
/* Assumes no connection is open (the server is stopped). */
void pconns_destroy(struct pconns *t);

/* Connection fd opened at now_ns, waiting for its first request: its place,
 * or NULL when the table is full (libmicrohttpd's cap keeps it from being:
 * such a connection is then never cut here, only when idle). */
struct pconn *pconn_open(struct pconns *t, int fd, uint64_t now_ns);
/* c's request is in (busy 1), or answered at now_ns and the next awaited
 * (busy 0). NULL: nothing. */
void pconn_busy(struct pconns *t, struct pconn *c, int busy, uint64_t now_ns);
/* c closed: its place is free. NULL: nothing. */
void pconn_close(struct pconns *t, struct pconn *c);

/* Cuts every connection waiting for a request longer than limit_ns at
 * now_ns: its socket is shut down, so its thread sees the end of it and
 * closes it. Returns how many were cut. */
int pconn_sweep(struct pconns *t, uint64_t now_ns, uint64_t limit_ns);

#endif
