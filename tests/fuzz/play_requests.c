/*
 * play_requests.c - fuzz target for what `referee play` answers
 * (playsrv.h's playsrv_answer: what libmicrohttpd's callback in playsrv.c
 * calls with each request's parts), on a server of its own per input and
 * without a socket.
 *
 * Input (text; the seeds are the page's own requests):
 *
 *     GAME LISTEN LOCAL           the first line
 *     METHOD PATH[?QUERY]         then requests, separated by lines "%%"
 *     Name: value                 headers, up to an empty line
 *
 *     BODY                        the rest, up to the next "%%" line
 *
 * GAME: tictactoe, nim, or connect4 (the one with the learning window:
 * the target's trainer is a stub whose weights reader is the real one,
 * wts_parse). The server's stop flag (its answer: 503, "the server is
 * stopping") is raised for every computer move in connect4 (a search asked
 * for at depth 64, or a perfect move, takes minutes) and for one in a game
 * with a searcher deeper than SEARCH_CHEAP plies; searchers get a small
 * table (TABLE_BYTES, playsrv_opts.tt_bytes). LISTEN: the address the server
 * listens on, LOCAL: the one the connection reached ("-": none), IPv4
 * both (else 127.0.0.1). The server's port is 8080. In a header's value
 * @HOST@ stands for LOCAL:8080 (LISTEN's when there is no LOCAL) and
 * @TOKEN@ for the server's token, which the input cannot know. The
 * headers read are Host, Origin and X-Arena-Token (the first of each,
 * any case, as libmicrohttpd finds them); Content-Length above
 * PLAYSRV_BODY_CAP stands for a body that long (the server keeps none of
 * it). The path and the query's id= and learner= are %XX-decoded as
 * libmicrohttpd decodes them.
 *
 * Properties, for every request:
 *   - the gate: a request is refused (403, plain text "refused: ...")
 *     exactly when its Host does not name the server (LOCAL when there is
 *     one, localhost when LOCAL is 127.x.y.z, or LISTEN; port 8080, 80 when
 *     left out), or it has an Origin that is not "http://" and its Host,
 *     or it is neither GET nor HEAD and does not carry the token: so no
 *     request that could change anything is answered without them, and
 *     the page's own always are;
 *   - the answer is well formed: a status of 200 or 4xx/5xx; the page
 *     (text/html, carrying the token) only for GET / and /index.html; a
 *     weights file (text/plain, 200, an attachment) only for GET
 *     /api/train/weights; otherwise application/json whose body is one
 *     JSON object, valid UTF-8 (RFC 8259), with "error" (a non-empty
 *     string) exactly when the status is not 200, and a game's state
 *     (id, board, players, moves, legal, over) for each 200 of the game
 *     requests; Retry-After only on a 503;
 *   - no crash, leak or undefined behaviour (the sanitizers), and every
 *     game and series freed when the server closes.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <cjson/cJSON.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "arena/learn.h"
#include "arena/limits.h"
#include "arena/playsrv.h"
#include "arena/record.h"
#include "arena/registry.h"
#include "arena/tt.h"
#include "arena/weights.h"
#include "fuzz.h"

#define PORT 8080
#define REQUESTS_MAX 64
#define FIELD_MAX 512        /* a header's value after its placeholders */
/* A searcher's table: the smallest (TT_MIN_BYTES, 4,096 entries, most of
 * tictactoe's 5,478 positions), where the server's default of
 * TT_DEFAULT_MB MiB cost 40 ms of CPU a game under the sanitizers (calloc,
 * the first touches, the quarantine), and 256 KiB still a fifth of the
 * run in page faults (a block that size is mmap'd afresh each time). */
#define TABLE_BYTES TT_MIN_BYTES

/* ---- the stub trainer -------------------------------------------------- */

struct series {
    long long played;
    int learning;            /* against "learning": two learners */
};

static int stub_start(void **series, const struct playsrv_train_opts *po, struct err *e)
{
    struct learn_opts o = learn_opts_default();
    if (learn_opponent_parse(po->opponent, &o) != 0)
        return err_set(e, 0, 0, "unknown opponent '%.40s'", po->opponent);
    struct series *s = calloc(1, sizeof *s);
    FUZZ_CHECK(s != NULL, "out of memory");
    s->learning = o.opponent == LEARN_LEARNING;
    *series = s;
    return 0;
}

static int stub_play(void *series)
{
    struct series *s = series;
    return (int)(s->played++ % 3) - 1;
}

static size_t stub_weights(void *series, int learner, char *buf, size_t cap)
{
    const struct series *s = series;
    FUZZ_CHECK(learner == 1 || learner == 2, "weights of learner %d", learner);
    if (learner == 2 && !s->learning)
        return 0;
    int n = snprintf(buf, cap, "learner %d after %lld games\n", learner, s->played);
    return n > 0 && (size_t)n < cap ? (size_t)n : 0;
}

static void stub_free(void *series)
{
    free(series);
}

/* The real reader of a weights file; the shipped one is all zeros here
 * (no disk). */
static int stub_weights_read(const char *text, size_t len, void **weights, struct err *e)
{
    struct wts_file f;
    memset(&f, 0, sizeof f);
    if (text && wts_parse(text, len, &f, e) != 0)
        return -1;
    struct qf_weights *w = malloc(sizeof *w);
    FUZZ_CHECK(w != NULL, "out of memory");
    *w = f.weights;
    *weights = w;
    return 0;
}

static const struct playsrv_trainer trainer = { stub_start, stub_play, stub_weights, stub_free,
                                                stub_weights_read, free };

/* ---- the input --------------------------------------------------------- */

struct setup {
    const struct game *g;
    char listen[INET_ADDRSTRLEN], local[INET_ADDRSTRLEN];
    char self[INET_ADDRSTRLEN + 8];   /* @HOST@ */
};

/* A word of the first line as an IPv4 address into out (def when it is
 * none; "" for "-" when none is allowed). */
static void address(const char *word, const char *def, int none, char *out)
{
    struct in_addr a;
    if (none && strcmp(word, "-") == 0)
        out[0] = '\0';
    else if (inet_pton(AF_INET, word, &a) == 1)
        inet_ntop(AF_INET, &a, out, INET_ADDRSTRLEN);
    else
        snprintf(out, INET_ADDRSTRLEN, "%s", def);
}

static void setup_read(char *line, struct setup *s)
{
    char *save = NULL, *game = strtok_r(line, " ", &save);
    char *listen = strtok_r(NULL, " ", &save), *local = strtok_r(NULL, " ", &save);
    s->g = registry_find(game && (!strcmp(game, "nim") || !strcmp(game, "connect4"))
                             ? game : "tictactoe");
    FUZZ_CHECK(s->g != NULL, "no game %s", game ? game : "tictactoe");
    address(listen ? listen : "", "127.0.0.1", 0, s->listen);
    address(local ? local : "", "127.0.0.1", 1, s->local);
    snprintf(s->self, sizeof s->self, "%s:%d", s->local[0] ? s->local : s->listen, PORT);
}

/* One request's fields (pointers into the input, NUL-terminated there;
 * values rewritten into the arrays). */
struct request {
    char method[64], path[FIELD_MAX], id[FIELD_MAX], learner[FIELD_MAX];
    char host[FIELD_MAX], origin[FIELD_MAX], token[FIELD_MAX];
    int has_id, has_learner, has_host, has_origin, has_token;
    const char *body;
    size_t body_len;
    int too_big;
};

/* text with @HOST@ and @TOKEN@ replaced, into out (FIELD_MAX, cut). */
static void placeholders(const char *text, const char *self, const char *token, char *out)
{
    size_t n = 0;
    while (*text && n + 1 < FIELD_MAX) {
        const char *with = !strncmp(text, "@HOST@", 6) ? self
                           : !strncmp(text, "@TOKEN@", 7) ? token : NULL;
        if (with) {
            n += (size_t)snprintf(out + n, FIELD_MAX - n, "%s", with);
            n = n < FIELD_MAX ? n : FIELD_MAX - 1;
            text += with == self ? 6 : 7;
        } else {
            out[n++] = *text++;
        }
    }
    out[n] = '\0';
}

static int hex(int c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
           : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* n bytes of text %XX-decoded into out (FIELD_MAX, cut), as
 * libmicrohttpd's MHD_http_unescape: a NUL decoded ends the string. */
static void unescape(const char *text, size_t n, char *out)
{
    size_t k = 0;
    for (size_t i = 0; i < n && k + 1 < FIELD_MAX; i++) {
        int hi = i + 2 < n ? hex(text[i + 1]) : -1, lo = i + 2 < n ? hex(text[i + 2]) : -1;
        if (text[i] == '%' && hi >= 0 && lo >= 0) {
            out[k++] = (char)(hi * 16 + lo);
            i += 2;
        } else {
            out[k++] = text[i];
        }
    }
    out[k] = '\0';
}

/* The query's id= and learner=, the first of each. */
static void query_read(const char *q, struct request *r)
{
    while (*q) {
        size_t n = strcspn(q, "&"), key = strcspn(q, "=");
        key = key < n ? key : n;
        const char *value = q + key + (key < n);
        size_t vlen = n - key - (key < n);
        if (key == 2 && !strncmp(q, "id", 2) && !r->has_id)
            unescape(value, vlen, r->id), r->has_id = 1;
        else if (key == 7 && !strncmp(q, "learner", 7) && !r->has_learner)
            unescape(value, vlen, r->learner), r->has_learner = 1;
        q += n + (q[n] == '&');
    }
}

/* Header line (NUL-terminated, without its newline) into r. */
static void header_read(char *line, const struct setup *s, const char *token,
                        struct request *r)
{
    char *colon = strchr(line, ':');
    if (!colon)
        return;
    *colon = '\0';
    const char *value = colon + 1 + strspn(colon + 1, " \t");
    struct { const char *name; char *into; int *has; } known[] = {
        { "Host", r->host, &r->has_host },
        { "Origin", r->origin, &r->has_origin },
        { "X-Arena-Token", r->token, &r->has_token },
    };
    for (size_t k = 0; k < sizeof known / sizeof *known; k++)
        if (strcasecmp(line, known[k].name) == 0 && !*known[k].has) {
            placeholders(value, s->self, token, known[k].into);
            *known[k].has = 1;
        }
    if (strcasecmp(line, "Content-Length") == 0 && strtod(value, NULL) > PLAYSRV_BODY_CAP)
        r->too_big = 1;
}

/* The request in [p, end) (its lines' newlines become NULs). */
static void request_read(char *p, char *end, const struct setup *s, const char *token,
                         struct request *r)
{
    memset(r, 0, sizeof *r);
    char *nl = memchr(p, '\n', (size_t)(end - p));
    char *line_end = nl ? nl : end;
    *line_end = '\0';
    char *target = strchr(p, ' ');
    if (target)
        *target++ = '\0';
    snprintf(r->method, sizeof r->method, "%s", p);
    target = target ? target : line_end;
    size_t plen = strcspn(target, "?");
    unescape(target, plen, r->path);
    if (target[plen] == '?')
        query_read(target + plen + 1, r);
    p = nl ? nl + 1 : end;
    while (p < end) {
        nl = memchr(p, '\n', (size_t)(end - p));
        line_end = nl ? nl : end;
        if (line_end == p) {   /* the empty line: the body follows */
            p = nl ? nl + 1 : end;
            break;
        }
        *line_end = '\0';
        header_read(p, s, token, r);
        p = nl ? nl + 1 : end;
    }
    r->body = p;
    r->body_len = (size_t)(end - p);
}

/* ---- the properties ---------------------------------------------------- */

/* host names the server: NAME[:PORT], NAME its LOCAL address, localhost
 * when that is 127.x.y.z, or LISTEN; PORT 8080 (80 when left out). */
static int host_right(const char *host, const struct setup *s)
{
    const char *colon = strrchr(host, ':');
    size_t n = colon ? (size_t)(colon - host) : strlen(host);
    if (colon) {
        const char *d = colon + 1;
        if (!*d || strspn(d, "0123456789") != strlen(d))
            return 0;
        d += strspn(d, "0");
        if (strlen(d) > 5 || atoi(d) != PORT)
            return 0;
    } else if (PORT != 80) {
        return 0;
    }
    const char *names[3] = { s->local[0] ? s->local : NULL,
                             !strncmp(s->local, "127.", 4) ? "localhost" : NULL, s->listen };
    for (int i = 0; i < 3; i++)
        if (names[i] && strlen(names[i]) == n && strncasecmp(host, names[i], n) == 0)
            return 1;
    return 0;
}

/* The gate's verdict as playgate.h states it: 1 when r may be answered. */
static int gate_right(const struct request *r, const struct setup *s, const char *token)
{
    if (!r->has_host || !host_right(r->host, s))
        return 0;
    if (r->has_origin && (strncasecmp(r->origin, "http://", 7) != 0 ||
                          strcasecmp(r->origin + 7, r->host) != 0))
        return 0;
    int reads = !strcmp(r->method, "GET") || !strcmp(r->method, "HEAD");
    return reads || (r->has_token && strcmp(r->token, token) == 0);
}

/* A game's state, as playsrv.h lists it. */
static void check_state(const cJSON *j, const char *path)
{
    static const char *const keys[] = { "id", "board", "to_move", "players", "moves", "legal",
                                        "over", "result", "reason", "score", "report" };
    for (size_t k = 0; k < sizeof keys / sizeof *keys; k++)
        FUZZ_CHECK(cJSON_GetObjectItemCaseSensitive(j, keys[k]) != NULL,
                   "%s: a state without \"%s\"", path, keys[k]);
    const cJSON *over = cJSON_GetObjectItemCaseSensitive(j, "over");
    const cJSON *legal = cJSON_GetObjectItemCaseSensitive(j, "legal");
    FUZZ_CHECK(cJSON_IsBool(over) && cJSON_IsArray(legal), "%s: over or legal mistyped", path);
    FUZZ_CHECK(!cJSON_IsTrue(over) || cJSON_GetArraySize(legal) == 0,
               "%s: a game over with legal moves", path);
}

/* 1 when s (n bytes) is UTF-8 (RFC 3629: no overlong form, no surrogate,
 * nothing past U+10FFFF), written out apart from the module's own check
 * (textfile.h) so that the two can disagree. */
static int utf8_valid(const unsigned char *s, size_t n)
{
    for (size_t i = 0; i < n;) {
        unsigned c = s[i];
        size_t len = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3
                     : (c & 0xF8) == 0xF0 ? 4 : 0;
        if (!len || i + len > n)
            return 0;
        unsigned long cp = len == 1 ? c : c & (0x7Fu >> len);
        for (size_t k = 1; k < len; k++) {
            if ((s[i + k] & 0xC0) != 0x80)
                return 0;
            cp = cp << 6 | (s[i + k] & 0x3Fu);
        }
        static const unsigned long least[] = { 0, 0, 0x80, 0x800, 0x10000 };
        if (cp < least[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
            return 0;
        i += len;
    }
    return 1;
}

static void check_json(const struct request *q, const struct playsrv_resp *r)
{
    FUZZ_CHECK(memchr(r->body, '\0', r->len) == NULL, "%s: a NUL in the JSON", q->path);
    FUZZ_CHECK(utf8_valid((const unsigned char *)r->body, r->len),
               "%s: the JSON is not UTF-8: %.*s", q->path, (int)r->len, r->body);
    const char *end = NULL;
    cJSON *j = cJSON_ParseWithLengthOpts(r->body, r->len, &end, 0);
    FUZZ_CHECK(cJSON_IsObject(j) && end == r->body + r->len, "%s: not one JSON object: %.*s",
               q->path, (int)r->len, r->body);
    const cJSON *error = cJSON_GetObjectItemCaseSensitive(j, "error");
    if (r->status == 200)
        FUZZ_CHECK(!error, "%s: 200 with an error: %s", q->path, r->body);
    else
        FUZZ_CHECK(cJSON_IsString(error) && error->valuestring[0], "%s: %u without an error: %s",
                   q->path, r->status, r->body);
    static const char *const states[] = { "/api/new", "/api/state", "/api/move",
                                          "/api/computer", "/api/undo" };
    for (size_t k = 0; r->status == 200 && k < sizeof states / sizeof *states; k++)
        if (!strcmp(q->path, states[k]))
            check_state(j, q->path);
    cJSON_Delete(j);
}

static void check_answer(const struct request *q, const struct playsrv_resp *r,
                         const struct setup *s, const char *token)
{
    int right = gate_right(q, s, token);
    int refused = r->status == 403;
    FUZZ_CHECK(refused == !right, "%s %s (Host %s, Origin %s, token %s): %s: %u %.*s",
               q->method, q->path, q->has_host ? q->host : "-", q->has_origin ? q->origin : "-",
               q->has_token ? q->token : "-", right ? "answerable" : "not answerable",
               r->status, (int)r->len, r->body ? r->body : "");
    FUZZ_CHECK(r->status == 200 || (r->status >= 400 && r->status <= 599), "status %u",
               r->status);
    FUZZ_CHECK(r->type && (r->body || r->len == 0), "no type or body");
    FUZZ_CHECK(!r->retry_s || r->status == 503, "Retry-After on a %u", r->status);
    int get = !strcmp(q->method, "GET");
    if (refused) {
        FUZZ_CHECK(!strcmp(r->type, "text/plain; charset=utf-8") && r->len > 9 &&
                       !strncmp(r->body, "refused: ", 9), "a refusal's answer: %s", r->type);
    } else if (!strcmp(r->type, "text/html; charset=utf-8")) {
        FUZZ_CHECK(get && (!strcmp(q->path, "/") || !strcmp(q->path, "/index.html")) &&
                       r->status == 200 && fuzz_find(r->body, r->body + r->len, token),
                   "the page for %s %s", q->method, q->path);
    } else if (!strcmp(r->type, "text/plain; charset=utf-8")) {
        FUZZ_CHECK(get && !strcmp(q->path, "/api/train/weights") && r->status == 200 &&
                       r->disposition[0], "a text answer to %s %s", q->method, q->path);
    } else {
        FUZZ_CHECK(!strcmp(r->type, "application/json"), "type %s", r->type);
        check_json(q, r);
    }
}

/* ---- the run ------------------------------------------------------------ */

/* What the target keeps of an input's run: the players of each game the
 * server started (by id: ids count up from 1, one at most a request), as
 * its answers named them, and the server's stop flag. */
struct run {
    char players[REQUESTS_MAX + 1][2][REC_NAME_MAX];
    int connect4;
    volatile sig_atomic_t stop;
};

/* A searcher deeper than SEARCH_CHEAP plies (the depth /api/info offers
 * here): its move costs milliseconds to seconds under the sanitizers
 * (nim's minimax at depth 4, 10 ms of CPU; tictactoe's whole tree to
 * minimax, 550,000 nodes, 0.1 s; nim's at depth 9, 8 s), and at depth 3
 * the searches still took a sixth of the run. The search is the engine
 * layer's, tested there; what is fuzzed here is the server around it. */
#define SEARCH_CHEAP 2

static int costly(const char *player)
{
    const char *colon = strchr(player, ':');
    return colon && (!strncmp(player, "alphabeta:", 10) || !strncmp(player, "minimax:", 8)) &&
           atoi(colon + 1) > SEARCH_CHEAP;
}

/* The game a new game's answer started, noted. */
static void note_game(struct run *run, const struct playsrv_resp *r)
{
    cJSON *j = cJSON_ParseWithLength(r->body, r->len);
    const cJSON *id = cJSON_GetObjectItemCaseSensitive(j, "id");
    const cJSON *pl = cJSON_GetObjectItemCaseSensitive(j, "players");
    FUZZ_CHECK(cJSON_IsNumber(id) && id->valuedouble >= 1 && id->valuedouble <= REQUESTS_MAX &&
                   cJSON_GetArraySize(pl) == 2,
               "a new game numbered %g after at most %d requests", cJSON_GetNumberValue(id),
               REQUESTS_MAX);
    for (int k = 0; k < 2; k++)
        snprintf(run->players[(int)id->valuedouble][k], sizeof run->players[0][0], "%s",
                 cJSON_GetStringValue(cJSON_GetArrayItem(pl, k)));
    cJSON_Delete(j);
}

/* The server's stop flag for q: up in connect4 (a search there takes
 * minutes) and for a computer move in a game with a costly searcher (the
 * server then answers 503, as while it stops). */
static void set_stop(struct run *run, const struct request *q)
{
    int raise = run->connect4;
    cJSON *j = !raise && !strcmp(q->path, "/api/computer") && !q->too_big
                   ? cJSON_ParseWithLength(q->body, q->body_len) : NULL;
    double id = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(j, "id"));
    if (id >= 1 && id < REQUESTS_MAX + 1)
        raise = costly(run->players[(int)id][0]) || costly(run->players[(int)id][1]);
    cJSON_Delete(j);
    run->stop = raise;
}

static void answer(struct playsrv *sv, const struct request *q, const struct setup *s,
                   struct run *run)
{
    set_stop(run, q);
    const char *token = playsrv_token(sv);
    /* The body in a block of its own size, so that reading past it is a
     * finding. */
    char *body = q->body_len ? malloc(q->body_len) : NULL;
    if (q->body_len)
        memcpy(body, q->body, q->body_len);
    struct playsrv_req req = {
        .method = q->method, .path = q->path,
        .host = q->has_host ? q->host : NULL, .origin = q->has_origin ? q->origin : NULL,
        .token = q->has_token ? q->token : NULL, .local_addr = s->local,
        .id = q->has_id ? q->id : NULL, .learner = q->has_learner ? q->learner : NULL,
        .body = body, .body_len = q->too_big ? 0 : q->body_len, .too_big = q->too_big,
    };
    struct playsrv_resp r;
    FUZZ_CHECK(playsrv_answer(sv, &req, &r) == 0, "no answer to %s %s", q->method, q->path);
    check_answer(q, &r, s, token);
    if (r.status == 200 && !strcmp(q->path, "/api/new"))
        note_game(run, &r);
    playsrv_resp_free(&r);
    free(body);
}

/* AddressSanitizer's quarantine (freed memory held back from reuse, to
 * catch a use after free): 16 MiB, not the default 256. An input here
 * frees far less than that, so a use after free within it is still
 * caught, while the default kept every block new memory, its pages
 * faulted in afresh: 4.4 to 2.3 s of CPU for 6,000 runs (ASAN_OPTIONS still
 * overrides it). */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
    return "quarantine_size_mb=16";
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size), *end = text + size;
    char *nl = memchr(text, '\n', size);
    if (nl)
        *nl = '\0';
    struct setup s;
    setup_read(text, &s);
    struct play_rules rules = { .game = s.g, .depth = 2 };
    struct run *run = calloc(1, sizeof *run);
    FUZZ_CHECK(run != NULL, "out of memory");
    run->connect4 = strcmp(s.g->name, "connect4") == 0;
    struct playsrv_opts o = { .rules = &rules, .listen = s.listen, .port = PORT,
                              .page_timeout_s = PLAYSRV_PAGE_TIMEOUT_S, .stop = &run->stop,
                              .trainer = &trainer, .tt_bytes = TABLE_BYTES };
    struct playsrv *sv;
    struct err e;
    FUZZ_CHECK(playsrv_open(&sv, &o, PORT, &e) == 0, "the server does not open: %s", e.msg);
    char *p = nl ? nl + 1 : end;
    for (int n = 0; p < end && n < REQUESTS_MAX; n++) {
        char *sep = (char *)fuzz_find(p, end, "\n%%\n");
        char *stop_at = sep ? sep : end;
        struct request q;
        request_read(p, stop_at, &s, playsrv_token(sv), &q);
        answer(sv, &q, &s, run);
        p = sep ? sep + 4 : end;
    }
    playsrv_close(sv);
    free(run);
    free(text);
    return 0;
}
