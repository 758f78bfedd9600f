/*
 * playgate.c - the checks every request of `referee play` passes before it
 * is answered (playgate.h): Host, Origin, the page's token.
 */
#include "playgate.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>
#include <unistd.h>

/* n random bytes from the kernel: getrandom, or /dev/urandom where the
 * kernel has no getrandom (before 3.17). 0, or -1. */
static int random_bytes(unsigned char *buf, size_t n)
{
    size_t got = 0;
    while (got < n) {
        ssize_t k = getrandom(buf + got, n - got, 0);
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0)
            break;
        got += (size_t)k;
    }
    if (got == n)
        return 0;
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    for (got = 0; fd >= 0 && got < n;) {
        ssize_t k = read(fd, buf + got, n - got);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            break;
        got += (size_t)k;
    }
    if (fd >= 0)
        close(fd);
    return got == n ? 0 : -1;
}

int pgate_init(struct pgate *g, const char *listen, unsigned port, struct err *e)
{
    unsigned char raw[PLAYSRV_TOKEN_BYTES];
    memset(g, 0, sizeof *g);
    snprintf(g->listen, sizeof g->listen, "%s", listen);
    g->port = port;
    if (random_bytes(raw, sizeof raw) != 0)
        return err_set(e, 0, 0, "cannot read random bytes for the page's token "
                       "(getrandom and /dev/urandom failed)");
    for (size_t i = 0; i < sizeof raw; i++)
        snprintf(g->token + 2 * i, 3, "%02x", raw[i]);
    return 0;
}

/* 1 when name (n bytes) is word, ignoring case. */
static int is_name(const char *name, size_t n, const char *word)
{
    return n == strlen(word) && strncasecmp(name, word, n) == 0;
}

/* 1 when host (a Host header: NAME or NAME:PORT) names this server as the
 * connection reached it: NAME the address local, localhost when local is
 * this machine's, or the address listened on; PORT the server's (80 when
 * left out). An empty NAME names nothing: local is "" when the address is
 * not known, and ":8080" matched it. */
static int host_ok(const struct pgate *g, const char *host, const char *local)
{
    const char *colon = strrchr(host, ':');
    size_t n = colon ? (size_t)(colon - host) : strlen(host);
    unsigned long port = 80;
    if (n == 0)
        return 0;
    if (colon) {
        char *end;
        if (colon[1] < '0' || colon[1] > '9')
            return 0;
        port = strtoul(colon + 1, &end, 10);
        if (*end)
            return 0;
    }
    if (port != g->port)
        return 0;
    int loopback = strncmp(local, "127.", 4) == 0;
    return is_name(host, n, local) || (loopback && is_name(host, n, "localhost")) ||
           is_name(host, n, g->listen);
}

/* 1 when origin is the page's own: "http://" and host (already host_ok). */
static int origin_ok(const char *origin, const char *host)
{
    static const char scheme[] = "http://";
    return strncasecmp(origin, scheme, sizeof scheme - 1) == 0 &&
           strcasecmp(origin + sizeof scheme - 1, host) == 0;
}

/* 1 when token is g's, compared in constant time: how long a wrong token
 * takes to refuse says nothing of how much of it was right. */
static int token_ok(const struct pgate *g, const char *token)
{
    if (!token || strlen(token) != PGATE_TOKEN_LEN)
        return 0;
    unsigned char diff = 0;
    for (size_t i = 0; i < PGATE_TOKEN_LEN; i++)
        diff |= (unsigned char)(token[i] ^ g->token[i]);
    return diff == 0;
}

/* The Hosts host_ok takes on a connection that reached local, for a
 * refusal's reason: "127.0.0.1:8080 or localhost:8080". */
static void expected_hosts(const struct pgate *g, const char *local, char *buf, size_t cap)
{
    int n = snprintf(buf, cap, "%s:%u", local, g->port);
    if (strncmp(local, "127.", 4) == 0)
        n += snprintf(buf + n, cap - (size_t)n, " or localhost:%u", g->port);
    if (strcmp(g->listen, local) != 0)
        snprintf(buf + n, cap - (size_t)n, " or %s:%u", g->listen, g->port);
}

int pgate_check(const struct pgate *g, const struct pgate_req *q, char *why, size_t cap)
{
    char expect[192];   /* the Hosts host_ok takes, for the reason */
    expected_hosts(g, q->local_addr, expect, sizeof expect);
    if (!q->host)
        return snprintf(why, cap, "refused: no Host header (this server is %s)", expect), 403;
    if (!host_ok(g, q->host, q->local_addr))
        return snprintf(why, cap, "refused: Host '%.80s' is not this server (%s)", q->host,
                        expect), 403;
    if (q->origin && !origin_ok(q->origin, q->host))
        return snprintf(why, cap, "refused: Origin '%.80s' is not this server's page "
                        "(http://%.80s)", q->origin, q->host), 403;
    int reads = strcmp(q->method, "GET") == 0 || strcmp(q->method, "HEAD") == 0;
    if (!reads && !token_ok(g, q->token))
        return snprintf(why, cap, "refused: %s without this server's %s: only its own page "
                        "changes anything (reload the page if the server was restarted)",
                        q->method, PGATE_TOKEN_HEADER), 403;
    return 0;
}
