/*
 * test_e2e_play.c - referee play answers its own page only (playgate.h):
 * a request from another site's page (its Origin), through another name
 * (DNS rebinding: its Host) or without the page's token is refused with 403
 * and changes nothing, while the page's own requests play a game; idle and
 * trickling connections neither keep a request out nor stay
 * (playconn.h); a game whose page stops asking is closed, its search or
 * engine's move stopped (--page-timeout-s); a computer move past the cap
 * on searches is told to come back. The requests are raw HTTP from this
 * process, as a browser would send them.
 */
#define _GNU_SOURCE   /* strcasestr */
#include <arpa/inet.h>
#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <errno.h>
#include <limits.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>
#include "arena/limits.h"
#include "e2e_util.h"

/* The longest an answer may take: a server under valgrind is slow. */
#define REPLY_WAIT_S 120
#define REQUEST_MAX 2048

struct play {
    struct e2e_proc p;
    char *dir;
    int port;
    char token[PLAYSRV_TOKEN_BYTES * 2 + 1];
    char host[32];               /* "127.0.0.1:PORT" */
    char origin[48];             /* "http://127.0.0.1:PORT" */
};

/* A request; NULL members are left out (host: the server's own). */
struct req {
    const char *method, *path, *host, *origin, *token, *type, *body;
};

struct reply {
    int status;                  /* 0: the connection closed with no answer */
    int retry_s;                 /* its Retry-After; 0: none */
    char *body;                  /* malloc'd, NUL-terminated */
};

/* A TCP connection to 127.0.0.1:port from address src (NULL: any). */
static int dial(int port, const char *src)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    cr_assert_geq(fd, 0, "socket: %s", strerror(errno));
    struct sockaddr_in a = { .sin_family = AF_INET };
    if (src) {
        inet_pton(AF_INET, src, &a.sin_addr);
        cr_assert_eq(bind(fd, (struct sockaddr *)&a, sizeof a), 0, "bind %s: %s", src,
                     strerror(errno));
    }
    a.sin_port = htons((uint16_t)port);
    inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
    cr_assert_eq(connect(fd, (struct sockaddr *)&a, sizeof a), 0, "connect: %s", strerror(errno));
    struct timeval tv = { REPLY_WAIT_S, 0 };
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    return fd;
}

/* Everything fd gives until the server closes it (or REPLY_WAIT_S), as
 * the reply: its status and its body. */
static void read_reply(int fd, struct reply *r)
{
    size_t cap = 4096, len = 0;
    char *text = malloc(cap);
    ssize_t n;
    while ((n = recv(fd, text + len, cap - len - 1, 0)) > 0)
        if (cap - (len += (size_t)n) < 2)
            text = realloc(text, cap *= 2);
    cr_assert(n == 0 || errno == ECONNRESET, "no answer in %d s: %s", REPLY_WAIT_S,
              strerror(errno));
    text[len] = '\0';
    const char *body = strstr(text, "\r\n\r\n"), *retry = strcasestr(text, "\r\nRetry-After: ");
    r->status = r->retry_s = 0;
    sscanf(text, "HTTP/1.1 %d", &r->status);
    if (retry && (!body || retry < body))
        r->retry_s = atoi(retry + strlen("\r\nRetry-After: "));
    r->body = strdup(body ? body + 4 : "");
    free(text);
}

static void send_all(int fd, const char *buf, size_t len)
{
    while (len) {
        ssize_t n = send(fd, buf, len, MSG_NOSIGNAL);
        cr_assert_gt(n, 0, "send: %s", strerror(errno));
        buf += n, len -= (size_t)n;
    }
}

/* q sent to s on a connection of its own (from src, NULL: any), its answer
 * read into r. */
static void ask_from(const struct play *s, const char *src, const struct req *q, struct reply *r)
{
    char head[REQUEST_MAX];
    int n = snprintf(head, sizeof head, "%s %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n",
                     q->method, q->path, q->host ? q->host : s->host);
    if (q->origin)
        n += snprintf(head + n, sizeof head - (size_t)n, "Origin: %s\r\n", q->origin);
    if (q->token)
        n += snprintf(head + n, sizeof head - (size_t)n, "X-Arena-Token: %s\r\n", q->token);
    if (q->body)
        n += snprintf(head + n, sizeof head - (size_t)n,
                      "Content-Type: %s\r\nContent-Length: %zu\r\n",
                      q->type ? q->type : "application/json", strlen(q->body));
    n += snprintf(head + n, sizeof head - (size_t)n, "\r\n%s", q->body ? q->body : "");
    cr_assert_lt(n, (int)sizeof head);
    int fd = dial(s->port, src);
    send_all(fd, head, (size_t)n);
    read_reply(fd, r);
    close(fd);
}

static void ask(const struct play *s, const struct req *q, struct reply *r)
{
    ask_from(s, NULL, q, r);
}

/* A GET, and a POST as the page's script sends it: its Origin, its token. */
static void get(const struct play *s, const char *path, struct reply *r)
{
    ask(s, &(struct req){ .method = "GET", .path = path }, r);
}

static void post(const struct play *s, const char *path, const char *body, struct reply *r)
{
    ask(s, &(struct req){ .method = "POST", .path = path, .origin = s->origin,
                          .token = s->token, .body = body }, r);
}

/* r's body as JSON (cJSON_Delete it); r's body is freed. */
static cJSON *json_of(struct reply *r)
{
    cJSON *j = cJSON_Parse(r->body);
    cr_assert_not_null(j, "not JSON: %s", r->body);
    free(r->body);
    r->body = NULL;
    return j;
}

static double number(const cJSON *j, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, key);
    cr_assert(cJSON_IsNumber(v), "no number \"%s\"", key);
    return v->valuedouble;
}

/* `referee play --game connect4` with extra (NULL-terminated, NULL: none)
 * started, its address read from its first line and its token from its page. */
static void play_start(struct play *s, const char *const *extra)
{
    memset(s, 0, sizeof *s);
    s->dir = e2e_tmpdir();
    const char *args[16] = { "play", "--game", "connect4" };
    int n = 3;
    for (int i = 0; extra && extra[i] && n < 15; i++)
        args[n++] = extra[i];
    args[n] = NULL;
    e2e_start(&s->p, s->dir, "referee", args);
    char line[128] = "";
    cr_assert_not_null(fgets(line, sizeof line, s->p.out), "referee play printed nothing");
    cr_assert_eq(sscanf(line, "play: http://127.0.0.1:%d/", &s->port), 1, "printed: %s", line);
    snprintf(s->host, sizeof s->host, "127.0.0.1:%d", s->port);
    snprintf(s->origin, sizeof s->origin, "http://127.0.0.1:%d", s->port);
    struct reply r;
    get(s, "/", &r);
    static const char meta[] = "<meta name=\"arena-token\" content=\"";
    const char *at = strstr(r.body, meta);
    cr_assert(r.status == 200 && at, "the page: %d %.200s", r.status, r.body);
    snprintf(s->token, sizeof s->token, "%.*s", PLAYSRV_TOKEN_BYTES * 2, at + strlen(meta));
    cr_assert_eq(strspn(s->token, "0123456789abcdef"), PLAYSRV_TOKEN_BYTES * 2, "token %s",
                 s->token);
    free(r.body);
}

/* SIGTERM: the server exits 0 and has said nothing on stderr. */
static void play_stop(struct play *s)
{
    struct e2e_run r;
    e2e_stop(&s->p, SIGTERM, &r);
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    cr_assert_str_eq(r.err, "");
    e2e_run_free(&r);
    e2e_rmdir(s->dir);
}

/* Game id is not there: closed, or never started. */
static void assert_no_game(const struct play *s, int id)
{
    char path[64], want[96];
    snprintf(path, sizeof path, "/api/state?id=%d", id);
    snprintf(want, sizeof want, "{\"error\":\"no game %d (closed, or never started)\"}", id);
    struct reply r;
    get(s, path, &r);
    cr_assert(r.status == 404 && strcmp(r.body, want) == 0, "game %d: %d %s", id, r.status,
              r.body);
    free(r.body);
}

/* The page's own request for a new game: its id. */
static int new_game(const struct play *s, const char *players)
{
    char body[256];
    snprintf(body, sizeof body, "{\"players\": [%s]}", players);
    struct reply r;
    post(s, "/api/new", body, &r);
    cr_assert_eq(r.status, 200, "new game [%s]: %d %s", players, r.status, r.body);
    cJSON *g = json_of(&r);
    int id = (int)number(g, "id");
    cJSON_Delete(g);
    return id;
}

Test(e2e_play, a_cross_origin_post_is_refused_and_starts_no_game, .timeout = 240)
{
    struct play s;
    play_start(&s, NULL);
    char other_port[48];
    snprintf(other_port, sizeof other_port, "http://127.0.0.1:%d", s.port + 1);
    /* A form's or a fetch's POST from another site's page (text/plain needs
     * no preflight), with the token or without, another port's page, a
     * sandboxed frame's. */
    struct { const char *origin, *token, *type; } cases[] = {
        { "http://evil.example", NULL, "text/plain" },
        { "http://evil.example", s.token, "application/json" },
        { other_port, s.token, "text/plain" },
        { "null", NULL, "application/x-www-form-urlencoded" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        struct reply r;
        ask(&s, &(struct req){ .method = "POST", .path = "/api/new", .origin = cases[i].origin,
                               .token = cases[i].token, .type = cases[i].type,
                               .body = "{\"players\": [\"alphabeta:12\", \"random\"]}" }, &r);
        char want[256];
        snprintf(want, sizeof want, "refused: Origin '%s' is not this server's page (%s)",
                 cases[i].origin, s.origin);
        cr_expect(r.status == 403 && strcmp(r.body, want) == 0, "Origin %s: %d %s",
                  cases[i].origin, r.status, r.body);
        free(r.body);
    }
    assert_no_game(&s, 1);
    cr_assert_eq(new_game(&s, "\"person\", \"random\""), 1, "a game was started before");
    play_stop(&s);
}

Test(e2e_play, a_foreign_host_is_refused_as_dns_rebinding_sends_it, .timeout = 240)
{
    struct play s;
    play_start(&s, NULL);
    char evil[64], port80[16], other[32];
    snprintf(evil, sizeof evil, "evil.example:%d", s.port);
    snprintf(port80, sizeof port80, "127.0.0.1");
    snprintf(other, sizeof other, "127.0.0.1:%d", s.port + 1);
    const char *hosts[] = { evil, port80, other };
    for (size_t i = 0; i < sizeof hosts / sizeof *hosts; i++) {
        struct req reqs[] = {
            { .method = "GET", .path = "/", .host = hosts[i] },
            { .method = "GET", .path = "/api/info", .host = hosts[i] },
            { .method = "POST", .path = "/api/new", .host = hosts[i], .token = s.token,
              .body = "{\"players\": [\"person\", \"random\"]}" },
        };
        for (size_t k = 0; k < sizeof reqs / sizeof *reqs; k++) {
            struct reply r;
            ask(&s, &reqs[k], &r);
            char want[256];
            snprintf(want, sizeof want, "refused: Host '%s' is not this server (127.0.0.1:%d "
                     "or localhost:%d)", hosts[i], s.port, s.port);
            cr_expect(r.status == 403 && strcmp(r.body, want) == 0, "%s %s, Host %s: %d %s",
                      reqs[k].method, reqs[k].path, hosts[i], r.status, r.body);
            free(r.body);
        }
    }
    assert_no_game(&s, 1);
    char localhost[32];
    snprintf(localhost, sizeof localhost, "localhost:%d", s.port);
    struct reply r;
    ask(&s, &(struct req){ .method = "GET", .path = "/", .host = localhost }, &r);
    cr_assert(r.status == 200 && strstr(r.body, s.token), "the page by localhost: %d", r.status);
    free(r.body);
    play_stop(&s);
}

Test(e2e_play, a_post_without_the_token_or_with_another_is_refused, .timeout = 240)
{
    struct play s;
    play_start(&s, NULL);
    int id = new_game(&s, "\"person\", \"alphabeta:4\"");
    char wrong[sizeof s.token];
    memcpy(wrong, s.token, sizeof wrong);
    wrong[0] = wrong[0] == '0' ? '1' : '0';
    struct req reqs[] = {
        { .method = "POST", .path = "/api/new", .origin = s.origin,
          .body = "{\"players\": [\"person\", \"random\"]}" },
        { .method = "POST", .path = "/api/new", .token = wrong,
          .body = "{\"players\": [\"person\", \"random\"]}" },
        { .method = "POST", .path = "/api/move", .origin = s.origin,
          .body = "{\"id\": 1, \"move\": \"4\"}" },
        { .method = "POST", .path = "/api/close", .token = "", .body = "{\"id\": 1}" },
        { .method = "POST", .path = "/api/close", .token = wrong, .body = "{\"id\": 1}" },
    };
    for (size_t k = 0; k < sizeof reqs / sizeof *reqs; k++) {
        struct reply r;
        ask(&s, &reqs[k], &r);
        cr_expect(r.status == 403 && strcmp(r.body, "refused: POST without this server's "
                                            "X-Arena-Token: only its own page changes anything "
                                            "(reload the page if the server was restarted)") == 0,
                  "%s without the token: %d %s", reqs[k].path, r.status, r.body);
        free(r.body);
    }
    struct reply r;
    char path[32];
    snprintf(path, sizeof path, "/api/state?id=%d", id);
    get(&s, path, &r);
    cr_assert_eq(r.status, 200, "game %d closed: %s", id, r.body);
    cJSON *g = json_of(&r);
    cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItem(g, "moves")), 0, "a move was played");
    cJSON_Delete(g);
    assert_no_game(&s, id + 1);
    play_stop(&s);
}

Test(e2e_play, the_pages_own_requests_play_a_game, .timeout = 240)
{
    struct play s;
    play_start(&s, NULL);
    struct reply r;
    get(&s, "/api/info", &r);
    cJSON *info = json_of(&r);
    cr_assert_str_eq(cJSON_GetObjectItem(info, "game")->valuestring, "connect4");
    cJSON_Delete(info);
    int id = new_game(&s, "\"person\", \"random\"");
    char body[64];
    snprintf(body, sizeof body, "{\"id\": %d, \"move\": \"4\"}", id);
    struct { const char *path; int moves; } steps[] = {
        { "/api/move", 1 }, { "/api/computer", 2 }, { "/api/undo", 0 },
    };
    for (size_t k = 0; k < sizeof steps / sizeof *steps; k++) {
        post(&s, steps[k].path, body, &r);
        cr_assert_eq(r.status, 200, "%s: %s", steps[k].path, r.body);
        cJSON *g = json_of(&r);
        cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItem(g, "moves")), steps[k].moves,
                     "moves after %s", steps[k].path);
        cJSON_Delete(g);
    }
    /* The page opened as localhost: its Origin is that name's. */
    char host[32], origin[48];
    snprintf(host, sizeof host, "localhost:%d", s.port);
    snprintf(origin, sizeof origin, "http://localhost:%d", s.port);
    ask(&s, &(struct req){ .method = "POST", .path = "/api/close", .host = host,
                           .origin = origin, .token = s.token, .body = body }, &r);
    cr_assert(r.status == 200 && strcmp(r.body, "{\"closed\":true}") == 0, "close: %d %s",
              r.status, r.body);
    free(r.body);
    assert_no_game(&s, id);
    play_stop(&s);
}

/* Idle connections opened before a request: more than libmicrohttpd's
 * default cap (FD_SETSIZE - 4, the server's whole capacity before
 * PLAYSRV_MAX_CONNS) from another address of this machine, and some from
 * the request's own. */
#define IDLE_OTHER 1100
#define IDLE_OWN 16

/* A connection to s from src (NULL: any) that sends nothing: its connect
 * is not waited for. */
static int idle_connection(const struct play *s, const char *src)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    cr_assert_geq(fd, 0, "socket: %s", strerror(errno));
    struct sockaddr_in a = { .sin_family = AF_INET };
    if (src) {
        inet_pton(AF_INET, src, &a.sin_addr);
        cr_assert_eq(bind(fd, (struct sockaddr *)&a, sizeof a), 0, "bind %s: %s", src,
                     strerror(errno));
    }
    a.sin_port = htons((uint16_t)s->port);
    inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
    int rc = connect(fd, (struct sockaddr *)&a, sizeof a);
    cr_assert(rc == 0 || errno == EINPROGRESS, "connect: %s", strerror(errno));
    return fd;
}

/* Room for n more descriptors: the soft limit raised toward the hard one;
 * 0 when the hard one is too low. */
static int room_for(int n)
{
    struct rlimit rl;
    cr_assert_eq(getrlimit(RLIMIT_NOFILE, &rl), 0);
    rlim_t want = (rlim_t)n + 256;
    if (rl.rlim_cur >= want)
        return 1;
    if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < want)
        return 0;
    rl.rlim_cur = want;
    return setrlimit(RLIMIT_NOFILE, &rl) == 0;
}

Test(e2e_play, idle_connections_do_not_keep_a_request_out, .timeout = 240)
{
    if (!room_for(IDLE_OTHER + IDLE_OWN))
        cr_skip_test("RLIMIT_NOFILE's hard limit is under %d", IDLE_OTHER + IDLE_OWN + 256);
    struct play s;
    play_start(&s, NULL);   /* it inherits the raised limit, as a user's shell would give */
    static int fds[IDLE_OTHER + IDLE_OWN];
    for (int i = 0; i < IDLE_OTHER; i++)
        fds[i] = idle_connection(&s, "127.0.0.2");
    for (int i = IDLE_OTHER; i < IDLE_OTHER + IDLE_OWN; i++)
        fds[i] = idle_connection(&s, NULL);
    struct reply r;
    get(&s, "/api/info", &r);
    cr_assert_eq(r.status, 200, "a request after %d idle connections: %d %s",
                 IDLE_OTHER + IDLE_OWN, r.status, r.body);
    free(r.body);
    int id = new_game(&s, "\"person\", \"random\"");
    cr_assert_eq(id, 1);
    for (int i = 0; i < IDLE_OTHER + IDLE_OWN; i++)
        close(fds[i]);
    play_stop(&s);
}

/* 1 when fd's server has ended the connection (its end read, or a reset). */
static int cut_off(int fd, int wait_ms)
{
    struct pollfd p = { .fd = fd, .events = POLLIN };
    char buf[256];
    if (poll(&p, 1, wait_ms) != 1)
        return 0;
    ssize_t n = recv(fd, buf, sizeof buf, MSG_DONTWAIT);
    cr_assert(n <= 0, "an answer to a request never finished: %.*s", (int)n, buf);
    return n == 0 || errno == ECONNRESET;
}

/* A request trickled a header line every half second, and a connection
 * that sends nothing: each is cut within a few times PLAYSRV_REQUEST_S,
 * unanswered; a whole request on a new connection is answered. */
Test(e2e_play, a_request_not_sent_in_time_is_cut_off, .timeout = 240)
{
    struct play s;
    play_start(&s, NULL);
    int slow = dial(s.port, NULL), idle = dial(s.port, NULL);
    char head[128];
    snprintf(head, sizeof head, "GET /api/info HTTP/1.1\r\nHost: %s\r\n", s.host);
    send_all(slow, head, strlen(head));
    int tries = 4 * PLAYSRV_REQUEST_S * 2, cut = 0;
    for (int i = 0; i < tries && !cut; i++)
        if (!(cut = cut_off(slow, 500)) && send(slow, "X-Slow: 1\r\n", 11, MSG_NOSIGNAL) < 0)
            cut = errno == EPIPE || errno == ECONNRESET;
    cr_assert(cut, "a header line every 0.5 s kept the connection %d s", tries / 2);
    cr_assert(cut_off(idle, 4 * PLAYSRV_REQUEST_S * 1000), "an idle connection kept %d s",
              4 * PLAYSRV_REQUEST_S);
    close(slow);
    close(idle);
    struct reply r;
    get(&s, "/api/info", &r);
    cr_assert_eq(r.status, 200, "a whole request: %d %s", r.status, r.body);
    free(r.body);
    play_stop(&s);
}

/* Sends the page's POST of body to path on a connection of its own, not
 * waiting for the answer: the connection, for read_reply. */
static int post_begin(const struct play *s, const char *path, const char *body)
{
    char head[REQUEST_MAX];
    int n = snprintf(head, sizeof head,
                     "POST %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\nOrigin: %s\r\n"
                     "X-Arena-Token: %s\r\nContent-Type: application/json\r\n"
                     "Content-Length: %zu\r\n\r\n%s",
                     path, s->host, s->origin, s->token, strlen(body), body);
    int fd = dial(s->port, NULL);
    send_all(fd, head, (size_t)n);
    return fd;
}

/* --page-timeout-s: 3 s, ten times the pings' interval, room for a busy
 * machine (the sanitizers' run, jobs beside); 10 under valgrind, which
 * runs one thread at a time (in turn: e2e_util's --fair-sched=yes; its
 * default let a search keep a page's /api/alive waiting for over 10 s on
 * CI's machine). */
#define PAGE_TIMEOUT_S "3"
#define PAGE_TIMEOUT_VALGRIND_S "10"
#define QUIET_WAIT_S 90      /* the longest the quiet games may take to go */

/* Two pages ask for a computer move and then say nothing: alphabeta at
 * depth 64 (hours of search) and an engine that never answers (its
 * --timeout-ms two minutes). A third page says it is there (/api/alive)
 * every 0.3 s. After --page-timeout-s both moves are stopped, answered
 * 503 with why, their games gone and the engine's process with them; the
 * third page's game stays. */
Test(e2e_play, a_game_whose_page_stops_asking_has_its_search_stopped, .timeout = 240)
{
    char sleeper[PATH_MAX];
    e2e_repo_path("tests/engines/sleeper.sh", sleeper, sizeof sleeper);
    const char *vg = getenv("ARENA_VALGRIND");
    const char *timeout = vg && strcmp(vg, "1") == 0 ? PAGE_TIMEOUT_VALGRIND_S : PAGE_TIMEOUT_S;
    struct play s;
    play_start(&s, (const char *[]){ "--page-timeout-s", timeout, "--engine", sleeper,
                                     "--timeout-ms", "120000", "--sandbox", "none", NULL });
    int search = new_game(&s, "\"alphabeta:64\", \"person\"");
    int engine = new_game(&s, "\"sleeper.sh\", \"person\"");
    int kept = new_game(&s, "\"person\", \"random\"");
    char body[3][64];
    snprintf(body[0], sizeof body[0], "{\"id\": %d}", search);
    snprintf(body[1], sizeof body[1], "{\"id\": %d}", engine);
    snprintf(body[2], sizeof body[2], "{\"id\": %d}", kept);
    struct pollfd p[2] = { { .fd = post_begin(&s, "/api/computer", body[0]), .events = POLLIN },
                           { .fd = post_begin(&s, "/api/computer", body[1]), .events = POLLIN } };
    int answered = 0;
    for (int t = 0; t < QUIET_WAIT_S * 10 / 3 && answered < 2; t++) {
        int n = poll(p, 2, 300);
        answered += n > 0 ? n : 0;
        for (int i = 0; i < 2; i++)
            if (p[i].revents)
                p[i].events = 0;   /* its answer is in: read below */
        struct reply r;
        post(&s, "/api/alive", body[2], &r);
        cr_assert(r.status == 200 && strcmp(r.body, "{\"alive\":true}") == 0,
                  "the page that asks lost its game: %d %s", r.status, r.body);
        free(r.body);
    }
    cr_assert_eq(answered, 2, "the quiet pages' moves still run after %d s", QUIET_WAIT_S);
    int ids[2] = { search, engine };
    for (int i = 0; i < 2; i++) {
        struct reply r;
        read_reply(p[i].fd, &r);
        close(p[i].fd);
        char want[128];
        snprintf(want, sizeof want, "{\"error\":\"game %d was closed: its page asked nothing "
                 "for %s s\"}", ids[i], timeout);
        cr_expect(r.status == 503 && strcmp(r.body, want) == 0, "game %d's move: %d %s", ids[i],
                  r.status, r.body);
        free(r.body);
        assert_no_game(&s, ids[i]);
    }
    for (int t = 0; t < 100 && e2e_process_alive("^sleep 6011"); t++)
        usleep(100000);
    cr_assert(!e2e_process_alive("^sleep 6011"), "the engine still runs its move");
    struct reply r;
    post(&s, "/api/alive", body[0], &r);
    cr_assert(r.status == 404, "a closed game is alive: %d %s", r.status, r.body);
    free(r.body);
    play_stop(&s);
}

/* PLAYSRV_MAX_SEARCHES pages wait for alphabeta at depth 64 (hours); a
 * ninth page's computer move is answered 503 with Retry-After, and once the
 * others' games are closed (their searches end) it is played. */
Test(e2e_play, a_computer_move_past_the_search_cap_waits_its_turn, .timeout = 240)
{
    struct play s;
    play_start(&s, NULL);
    int fds[PLAYSRV_MAX_SEARCHES], ids[PLAYSRV_MAX_SEARCHES];
    char body[64];
    for (int i = 0; i < PLAYSRV_MAX_SEARCHES; i++) {
        ids[i] = new_game(&s, "\"alphabeta:64\", \"person\"");
        snprintf(body, sizeof body, "{\"id\": %d}", ids[i]);
        fds[i] = post_begin(&s, "/api/computer", body);
    }
    /* random against random: each request a move, until every place is taken. */
    snprintf(body, sizeof body, "{\"id\": %d}", new_game(&s, "\"random\", \"random\""));
    struct reply r = { 0 };
    for (int t = 0; t < 50 && r.status != 503; t++) {
        free(r.body);
        post(&s, "/api/computer", body, &r);
        cr_assert(r.status == 200 || r.status == 503, "a move: %d %s", r.status, r.body);
        usleep(100000);
    }
    char want[128];
    snprintf(want, sizeof want, "{\"error\":\"%d computer moves are being played: this one "
             "waits its turn\"}", PLAYSRV_MAX_SEARCHES);
    cr_assert(r.status == 503 && r.retry_s == PLAYSRV_RETRY_S && strcmp(r.body, want) == 0,
              "past the cap: %d, Retry-After %d, %s", r.status, r.retry_s, r.body);
    free(r.body);
    for (int i = 0; i < PLAYSRV_MAX_SEARCHES; i++) {
        char close_body[64];
        snprintf(close_body, sizeof close_body, "{\"id\": %d}", ids[i]);
        post(&s, "/api/close", close_body, &r);
        cr_assert_eq(r.status, 200, "close %d: %s", ids[i], r.body);
        free(r.body);
        read_reply(fds[i], &r);
        close(fds[i]);
        cr_expect_eq(r.status, 503, "the closed game's search: %d %s", r.status, r.body);
        free(r.body);
    }
    post(&s, "/api/computer", body, &r);
    cr_assert_eq(r.status, 200, "its turn: %d %s", r.status, r.body);
    free(r.body);
    play_stop(&s);
}
