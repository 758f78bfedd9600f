/*
 * playsrv.h - `referee play`: a person against any player in a browser.
 * An HTTP server (libmicrohttpd, a thread per connection: a page waiting
 * for an engine's move holds up no other) serving one self-contained page
 * from memory (playsrv_page.c) and a small JSON API over games held in
 * memory, each with its own id, so that two pages play two independent
 * games. It answers its own page only: every request first passes the
 * checks of playgate.h (Host the server's address, Origin its page's, the
 * page's token on every POST), or gets 403 and nothing is done.
 *
 *   GET  /                 the page
 *   GET  /api/info         the game, how to draw it (struct game_drawing),
 *                          the players a side can be ("depth": the
 *                          searchers' among them, "max_depth"), "poll_ms"
 *                          (how often the page says it is there)
 *   POST /api/new          {"players": [P1, P2], "weights": [W1, W2]} -> a new
 *                          game's state (W: a learned player's weights file,
 *                          null or missing: the shipped one)
 *   GET  /api/state?id=N   the state
 *   POST /api/move         {"id": N, "move": TEXT}: the person to move plays
 *   POST /api/computer     {"id": N}: the computer player to move plays
 *   POST /api/undo         {"id": N}: back to the person's last turn
 *   POST /api/close        {"id": N}: the game ends, its engines too
 *   POST /api/alive        {"id": N}: the page is still there -> {"alive":
 *                          true}, at once (a game is closed, its search
 *                          stopped, after page_timeout_s without a request)
 *   POST /api/train/start  {"opponent", "games", "gamma", "alpha", "epsilon",
 *                          "switch", "seed"} -> a training series' progress
 *   POST /api/train/step   {"id": N, "games": K}: K more games (at most
 *                          PLAYSRV_TRAIN_STEP) -> {"played", "games", "win",
 *                          "draw", "loss" (the first learner's), "done"}
 *   GET  /api/train/weights?id=N&learner=L  learner L's weights file
 *   POST /api/train/close  {"id": N}
 *
 * A player is "person", a built-in player ("random", "perfect",
 * "alphabeta:D", "minimax:D", and with a trainer "qlearn" and
 * "qlearn-ab:D", D any depth from 1 to SEARCH_MAX_DEPTH; player.h) or the
 * name of an --engine, run as
 * a tournament runs it (play.h's play_solo: sandbox, limits, forfeits).
 * The state: {"id", "board" (the board file), "to_move", "players",
 * "moves": [{"side", "move", "cpu_ms", "status"}], "legal": [{"move",
 * "cells": [[row, column] of board the move changes]}], "over", "result",
 * "reason", "score" (the game's own final score where it has one, "14-11
 * points", the winner's first; "" otherwise), "report" (the game's
 * one-move report of the position)}. A request the page would never send gets a
 * 4xx and {"error": REASON}, and changes nothing. Every finished game is
 * a record of the journal, when there is one, whose header names every
 * player of its records (a searcher at a depth first asked for is added:
 * journal.h's journal_reheader). At most PLAYSRV_MAX_SEARCHES computer
 * moves run at once; /api/computer past them is a 503 with Retry-After.
 */
#ifndef ARENA_PLAYSRV_H
#define ARENA_PLAYSRV_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include "arena/err.h"
#include "arena/play.h"

/* The learning window's trainer, given by the caller (the learner lives in
 * a layer beside this one: learn/train.h, the trainer of `engine train`).
 * A series: a learning player against an opponent ("random", "trained",
 * "alphabeta:D", "learning": a second learner, "self"), games played one at
 * a time so the page shows progress and can stop it. */
struct playsrv_train_opts {
    const char *opponent;
    double gamma, alpha, epsilon, switch_prob;
    long long games;
    uint64_t seed;
};

/* Bytes of a weights file the trainer writes (weights.h's WTS_TEXT_MAX fits). */
#define PLAYSRV_WEIGHTS_CAP 4096

struct playsrv_trainer {
    /* 0 with *series made, or -1 with e (a bad opponent, out of memory). */
    int (*start)(void **series, const struct playsrv_train_opts *o, struct err *e);
    /* Plays the next game: the first learner's result, +1, 0 or -1. */
    int (*play)(void *series);
    /* The weights file of learner 1 or 2 (2 only against "learning"), as
     * `engine weights` reads it, into buf (cap bytes); its length, or 0
     * when there is no such learner. */
    size_t (*weights)(void *series, int learner, char *buf, size_t cap);
    void (*free)(void *series);
    /* The learned players' weights (qlearn, qlearn-ab): the text of a
     * weights file (len bytes), or the shipped file when text is NULL, into
     * *weights, the game's weight record (game.h's struct game_learned);
     * 0, or -1 with e (where the file is wrong). Free with weights_free. */
    int (*weights_read)(const char *text, size_t len, void **weights, struct err *e);
    void (*weights_free)(void *weights);
};

struct playsrv_opts {
    const struct play_rules *rules;   /* game, depth, limits, sandbox */
    const struct spec *engines;       /* resolved (preflight.h) */
    int nengines;
    const char *listen;               /* an IPv4 address: PLAYSRV_DEFAULT_LISTEN */
    int port;                         /* 0: any free port */
    const char *journal;              /* NULL: none */
    int page_timeout_s;               /* a game whose page asks nothing for
                                       * this long is closed (> 0) */
    const volatile sig_atomic_t *stop;  /* non-zero: the server stops */
    const struct playsrv_trainer *trainer;   /* NULL, or the game has no learned
                                              * player: no learning window */
    size_t tt_bytes;                  /* each built-in searcher's table;
                                       * 0: TT_DEFAULT_MB MiB */
};

/* Serves until *o->stop: prints "play: http://ADDR:PORT/" on out once
 * listening (playsrv.c: libmicrohttpd, a thread per connection, each
 * request answered by playsrv_answer below). Returns 0 when stopped, PLAYSRV_BAD_INPUT with e when an
 * option is wrong (listen is no IPv4 address, the journal exists or cannot
 * be made), or -1 with e when the server cannot start (the port is taken).
 * Frees everything it made. */
#define PLAYSRV_BAD_INPUT (-2)
int playsrv_run(const struct playsrv_opts *o, FILE *out, struct err *e);

/* ---- one request, without a socket (playsrv_api.c) ----------------------
 *
 * What the server answers, from plain values: playsrv_run reads each
 * request's parts from libmicrohttpd and sends what playsrv_answer gives;
 * the unit suite and the fuzz target call it the same way. */

/* The server's state: the games and training series, the gate (playgate.h)
 * and the page that carries its token, the journal. */
struct playsrv;

/* The state of a server of o (its stop flag, trainer and engines are read
 * on every request, so they outlive it) on port (the one Host must name):
 * a new token, the page, the journal made when o->journal is set. 0 with
 * *sv; PLAYSRV_BAD_INPUT with e when the journal exists or cannot be made;
 * -1 with e when there is no random token or memory. */
int playsrv_open(struct playsrv **sv, const struct playsrv_opts *o, unsigned port,
                 struct err *e);
/* Every game's search ends at once (the server is stopping). */
void playsrv_cancel(struct playsrv *sv);
/* Closes the games whose page has asked nothing for o->page_timeout_s,
 * their searches stopped (the server's own thread, every
 * PLAYSRV_STOP_POLL_MS). */
void playsrv_expire(struct playsrv *sv);
/* Frees everything; assumes no request is in flight. NULL: nothing. */
void playsrv_close(struct playsrv *sv);
/* The page's token (X-Arena-Token), for a client that is the page. */
const char *playsrv_token(const struct playsrv *sv);

/* A request as libmicrohttpd hands it over. */
struct playsrv_req {
    const char *method;          /* "GET", "POST", ... */
    const char *path;            /* the URL without its query: "/api/state" */
    const char *host, *origin, *token;   /* Host, Origin, X-Arena-Token; NULL: absent */
    const char *local_addr;      /* the address the connection reached, IPv4
                                  * dotted ("": none) */
    const char *id, *learner;    /* the query's id= and learner=; NULL: absent */
    const char *body;            /* body_len bytes (no NUL needed after them) */
    size_t body_len;             /* at most PLAYSRV_BODY_CAP */
    int too_big;                 /* the body was longer and is not kept */
};

/* An answer. */
struct playsrv_resp {
    unsigned status;
    const char *type;            /* Content-Type */
    char *body;                  /* len bytes: malloc'd (playsrv_resp_free), or
                                  * with persistent the server's page */
    size_t len;
    int persistent;              /* body lives as long as the server */
    int no_store;                /* Cache-Control: no-store */
    int retry_s;                 /* Retry-After; 0: none */
    char disposition[96];        /* Content-Disposition; "": none */
};

/* The gate's verdict on q (playgate.h: its method, headers and address
 * only): 0, or 403 with why (cap bytes) the reason. The server asks it
 * once the headers are in, so that a refused request's body is not kept;
 * playsrv_answer asks it again. */
unsigned playsrv_gate(const struct playsrv *sv, const struct playsrv_req *q, char *why,
                      size_t cap);
/* The answer to q into *r: the gate's refusal (403, plain text: nothing
 * done), the page (GET / and /index.html), a training's weights file (GET
 * /api/train/weights), or the API's JSON (the list above; a 4xx or 5xx
 * with {"error": REASON}). Safe from any number of threads at once. 0, or
 * -1 when out of memory (no answer: r holds nothing to free). */
int playsrv_answer(struct playsrv *sv, const struct playsrv_req *q, struct playsrv_resp *r);
void playsrv_resp_free(struct playsrv_resp *r);

/* The page (playsrv_page.c): HTML with its style and script, and once
 * PLAYSRV_PAGE_TOKEN, where the server writes its token (playgate.h) for
 * the script to send. */
extern const char playsrv_page[];
#define PLAYSRV_PAGE_TOKEN "@ARENA_TOKEN@"

#endif
