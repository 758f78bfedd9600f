/*
 * playsrv.c - `referee play` (playsrv.h): the HTTP server. libmicrohttpd
 * parses HTTP; this file hands each request's parts to playsrv_answer
 * (playsrv_api.c: the games and the API) and sends the answer back.
 *
 * Requests are answered concurrently, one thread per connection (MHD's
 * MHD_USE_THREAD_PER_CONNECTION): an engine's move takes seconds, and a
 * request waiting for it must hold up its own page only. A thread per
 * connection rather than a pool: a pool's thread serves many connections
 * in turn, so a move would still hold up the pages that share its thread;
 * and rather than moves run in the background and polled, because then
 * every request of the API would change (and the page with it) for what
 * threads give for free. The pages are few (one person's, a class's), so
 * are the threads. The caller's thread waits for the stop flag, and
 * meanwhile cuts the connections that have not sent a whole request in
 * time (playconn.h: a thread each, so idle ones must not stay) and closes
 * the games whose page went quiet; libmicrohttpd caps the connections in
 * all and per address. Stopping the daemon waits for the requests in
 * flight, an engine's move cancelled by the same flag (play.h), a built-in
 * player's search by playsrv_cancel. A request's gate (playgate.h: Host,
 * Origin, the page's token) is asked as soon as its headers are in, so
 * that a refused request's body is not kept.
 */
#include "arena/playsrv.h"

#include <arpa/inet.h>
#include <microhttpd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include "arena/clock.h"
#include "arena/limits.h"
#include "playconn.h"
#include "playgate.h"

struct server {
    const struct playsrv_opts *o;
    struct playsrv *api;         /* the games and what every request gets */
    struct pconns conns;         /* the open connections, each given
                                  * PLAYSRV_REQUEST_S for a request */
};

/* One request: the address its connection reached, the gate's verdict on
 * its headers, its body collected as MHD hands it over. */
struct body {
    char local[INET_ADDRSTRLEN]; /* "": unknown (then only the address
                                  * listened on names the server) */
    int refused;                 /* its body is not kept */
    char buf[PLAYSRV_BODY_CAP + 1];
    size_t len;
    int too_big;
};

/* The address connection c reached, into local ("" when not IPv4). */
static void local_addr(struct MHD_Connection *c, char local[INET_ADDRSTRLEN])
{
    local[0] = '\0';
    const union MHD_ConnectionInfo *ci =
        MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
    struct sockaddr_in a;
    socklen_t len = sizeof a;
    if (ci && getsockname(ci->connect_fd, (struct sockaddr *)&a, &len) == 0 &&
        a.sin_family == AF_INET)
        inet_ntop(AF_INET, &a.sin_addr, local, INET_ADDRSTRLEN);
}

/* The request's parts as playsrv_answer takes them. */
static struct playsrv_req request_of(struct MHD_Connection *c, const char *url,
                                     const char *method, const struct body *b)
{
    return (struct playsrv_req){
        .method = method,
        .path = url,
        .host = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_HOST),
        .origin = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Origin"),
        .token = MHD_lookup_connection_value(c, MHD_HEADER_KIND, PGATE_TOKEN_HEADER),
        .local_addr = b->local,
        .id = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "id"),
        .learner = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "learner"),
        .body = b->buf,
        .body_len = b->len,
        .too_big = b->too_big,
    };
}

/* r queued on c (its body handed to MHD). */
static enum MHD_Result send_resp(struct MHD_Connection *c, struct playsrv_resp *r)
{
    struct MHD_Response *resp = MHD_create_response_from_buffer(
        r->len, r->body, r->persistent ? MHD_RESPMEM_PERSISTENT : MHD_RESPMEM_MUST_FREE);
    if (!resp) {
        playsrv_resp_free(r);
        return MHD_NO;
    }
    MHD_add_response_header(resp, "Content-Type", r->type);
    if (r->no_store)
        MHD_add_response_header(resp, "Cache-Control", "no-store");
    char retry[16];
    snprintf(retry, sizeof retry, "%d", r->retry_s);
    if (r->retry_s)
        MHD_add_response_header(resp, "Retry-After", retry);
    if (r->disposition[0])
        MHD_add_response_header(resp, "Content-Disposition", r->disposition);
    enum MHD_Result ret = MHD_queue_response(c, r->status, resp);
    MHD_destroy_response(resp);
    return ret;
}

/* The connection's place in the table of connections (on_connection), or
 * NULL when it has none. */
static struct pconn *conn_of(struct MHD_Connection *c)
{
    const union MHD_ConnectionInfo *ci =
        MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return ci ? ci->socket_context : NULL;
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *c, const char *url,
                              const char *method, const char *version, const char *upload,
                              size_t *upload_size, void **ctx)
{
    (void)version;
    struct server *sv = cls;
    struct body *b = *ctx;
    if (!b) {   /* the headers are in: judged before the body is read */
        if (!(b = calloc(1, sizeof *b)))
            return MHD_NO;
        *ctx = b;
        local_addr(c, b->local);
        struct playsrv_req q = request_of(c, url, method, b);
        char why[256];
        b->refused = playsrv_gate(sv->api, &q, why, sizeof why) != 0;
        return MHD_YES;
    }
    if (*upload_size) {   /* a body too big or refused is read to its end, kept no further */
        if (b->refused || b->len + *upload_size > PLAYSRV_BODY_CAP)
            b->too_big = 1;
        else
            memcpy(b->buf + b->len, upload, *upload_size), b->len += *upload_size;
        *upload_size = 0;
        return MHD_YES;
    }
    b->buf[b->len] = '\0';
    pconn_busy(&sv->conns, conn_of(c), 1, 0);   /* answered from here on: never cut */
    struct playsrv_req q = request_of(c, url, method, b);
    struct playsrv_resp r;
    if (playsrv_answer(sv->api, &q, &r) != 0)
        return MHD_NO;
    return send_resp(c, &r);
}

/* A request answered (or its connection gone): the next one's time starts. */
static void completed(void *cls, struct MHD_Connection *c, void **ctx,
                      enum MHD_RequestTerminationCode why)
{
    (void)why;
    struct server *sv = cls;
    pconn_busy(&sv->conns, conn_of(c), 0, clock_wall_ns());
    free(*ctx);
    *ctx = NULL;
}

/* A connection opened (in the table, its socket context its place) or
 * closed (out of it, before MHD closes its socket: playconn.h). */
static void on_connection(void *cls, struct MHD_Connection *c, void **socket_ctx,
                          enum MHD_ConnectionNotificationCode what)
{
    struct server *sv = cls;
    if (what == MHD_CONNECTION_NOTIFY_STARTED) {
        const union MHD_ConnectionInfo *ci =
            MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
        *socket_ctx = ci ? pconn_open(&sv->conns, ci->connect_fd, clock_wall_ns()) : NULL;
    } else {
        pconn_close(&sv->conns, *socket_ctx);
        *socket_ctx = NULL;
    }
}

/* A socket listening on --listen's address and --port (0: any free port):
 * 0 with *fd and *port (the one it got), PLAYSRV_BAD_INPUT with e when the
 * address is no IPv4 one, -1 with e when it cannot listen (the port is
 * taken). */
static int listen_on(const struct playsrv_opts *o, int *fd, unsigned *port, struct err *e)
{
    struct sockaddr_in addr = { .sin_family = AF_INET, .sin_port = htons((uint16_t)o->port) };
    if (inet_pton(AF_INET, o->listen, &addr.sin_addr) != 1) {
        err_set(e, 0, 0, "--listen: '%.60s' is not an IPv4 address", o->listen);
        return PLAYSRV_BAD_INPUT;
    }
    int one = 1;
    socklen_t len = sizeof addr;
    *fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    /* SO_REUSEADDR as MHD sets it: a port a stopped server left in
     * TIME_WAIT can be taken again at once. */
    if (*fd >= 0 && setsockopt(*fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) == 0 &&
        bind(*fd, (struct sockaddr *)&addr, sizeof addr) == 0 && listen(*fd, SOMAXCONN) == 0 &&
        getsockname(*fd, (struct sockaddr *)&addr, &len) == 0) {
        *port = ntohs(addr.sin_port);
        return 0;
    }
    if (*fd >= 0)
        close(*fd);
    *fd = -1;
    return err_set(e, 0, 0, "cannot listen on %s port %d", o->listen, o->port);
}

/* The daemon on the listening socket fd: a thread per connection (poll, not
 * select: a descriptor past FD_SETSIZE is served too), the connections
 * capped in all and per address, one idle for PLAYSRV_REQUEST_S closed
 * (limits.h says why). NULL when it cannot start. */
static struct MHD_Daemon *start_daemon(struct server *sv, int fd)
{
    return MHD_start_daemon(MHD_USE_POLL_INTERNAL_THREAD | MHD_USE_THREAD_PER_CONNECTION, 0,
                            NULL, NULL, handle, sv, MHD_OPTION_LISTEN_SOCKET, fd,
                            MHD_OPTION_CONNECTION_LIMIT, (unsigned)PLAYSRV_MAX_CONNS,
                            MHD_OPTION_PER_IP_CONNECTION_LIMIT,
                            (unsigned)PLAYSRV_MAX_CLIENT_CONNS,
                            MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)PLAYSRV_REQUEST_S,
                            MHD_OPTION_NOTIFY_CONNECTION, on_connection, sv,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, sv, MHD_OPTION_END);
}

/* The caller's thread while the daemon's threads answer: every
 * PLAYSRV_STOP_POLL_MS it cuts the connections late with their request
 * (playconn.h) and closes the games whose page has asked nothing for the
 * page timeout (their searches stopped), until the stop flag (a signal
 * handler's). */
static void watch(struct server *sv)
{
    struct timespec ts = { 0, PLAYSRV_STOP_POLL_MS * 1000000L };
    while (!*sv->o->stop) {
        nanosleep(&ts, NULL);
        pconn_sweep(&sv->conns, clock_wall_ns(), (uint64_t)PLAYSRV_REQUEST_S * 1000000000u);
        playsrv_expire(sv->api);
    }
}

int playsrv_run(const struct playsrv_opts *o, FILE *out, struct err *e)
{
    struct server sv = { .o = o };
    pconns_init(&sv.conns);
    int rc, fd = -1;
    unsigned port = 0;
    struct MHD_Daemon *d = NULL;
    /* Listening before the journal is made (playsrv_open), so that a taken
     * port leaves no journal behind, and the daemon started after, so that
     * no request is answered before the journal is there. */
    if ((rc = listen_on(o, &fd, &port, e)) == 0)
        rc = playsrv_open(&sv.api, o, port, e);
    if (rc == 0 && !(d = start_daemon(&sv, fd)))
        rc = err_set(e, 0, 0, "cannot start the HTTP server on %s port %u", o->listen, port);
    if (!d && fd >= 0)
        close(fd);   /* the daemon's once started: MHD_stop_daemon closes it */
    if (d) {
        fprintf(out, "play: http://%s:%u/\n", o->listen, port);
        fflush(out);
        watch(&sv);
        playsrv_cancel(sv.api);   /* every search ends */
        MHD_stop_daemon(d);       /* waits for the requests in flight */
        rc = 0;
    }
    playsrv_close(sv.api);
    pconns_destroy(&sv.conns);
    return rc;
}
