/*
 * playgate.h - who `referee play`'s server (playsrv.c) answers: its own page
 * only. Every request is judged here before it is answered (and refused with
 * 403 and a short reason, nothing done, otherwise):
 *
 *   - Host must be the server's own address with the server's port: the
 *     address the connection reached ("127.0.0.1:8080"), localhost when
 *     that address is this machine's (127.x.y.z), or the address it was
 *     told to listen on, as it printed it ("0.0.0.0:8080"). A page of
 *     another site reaches the server by DNS rebinding (its own name, made
 *     to point at 127.0.0.1) only with its own name in Host: refused, so it
 *     cannot read the API's answers.
 *   - Origin, when a browser sends one (every cross-site request and every
 *     POST), must be the server's own page's: "http://" and the Host. A
 *     page of another site posting to the API is refused before anything
 *     starts. A request without Origin (the page's own GET, a script) passes.
 *   - A request other than GET and HEAD (every one that changes something:
 *     a new game, a move, a search, a close) must carry the server's token in
 *     the X-Arena-Token header. The token is random, made when the server
 *     starts, and written only into the page the server serves, which no
 *     other site can read (the same-origin rule, and Host above); the page's
 *     script sends it. Compared in constant time.
 *
 * The checks are pure (strings in, a verdict out) so that the unit suite
 * covers every case; playsrv.c reads the headers and the connection's
 * address from libmicrohttpd.
 */
#ifndef ARENA_PLAYGATE_H
#define ARENA_PLAYGATE_H

#include <stddef.h>
#include "arena/err.h"
#include "arena/limits.h"

/* The header that carries the token, as the page's script names it. */
#define PGATE_TOKEN_HEADER "X-Arena-Token"
/* The token's text: two hex digits a byte. */
#define PGATE_TOKEN_LEN (2 * PLAYSRV_TOKEN_BYTES)

struct pgate {
    char listen[64];                      /* the address it listens on, as given */
    unsigned port;                        /* the server's */
    char token[PGATE_TOKEN_LEN + 1];      /* lower-case hex */
};

/* g for a server listening on address listen (IPv4, dotted) and port, with
 * a new token from the kernel's random source (getrandom, else
 * /dev/urandom): 0, or -1 with e when neither gives one. */
int pgate_init(struct pgate *g, const char *listen, unsigned port, struct err *e);

/* What playsrv.c knows of a request: its headers (NULL: absent) and the
 * IPv4 address, dotted, its connection reached (the server's own end). */
struct pgate_req {
    const char *method;
    const char *host, *origin, *token;
    const char *local_addr;
};

/* 0 when q may be answered; else 403 with why (cap bytes) a short reason
 * in plain text, naming what was wrong and what is expected. */
int pgate_check(const struct pgate *g, const struct pgate_req *q, char *why, size_t cap);

#endif
