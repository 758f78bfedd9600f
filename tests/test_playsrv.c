/*
 * test_playsrv.c - what referee play answers to a request, asked without a
 * socket (playsrv.h's playsrv_answer, which libmicrohttpd's callback
 * calls): the gate first, the page with its token, a game's JSON, and an
 * error's JSON, which stays UTF-8 whatever bytes the request sent. The
 * server over HTTP is tested end to end (test_e2e_play.c) and this
 * function fuzzed (tests/fuzz/play_requests.c).
 */
#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "arena/limits.h"
#include "arena/playsrv.h"
#include "arena/registry.h"

#define HOST "127.0.0.1:8080"

static volatile sig_atomic_t never;
static struct play_rules rules;
static struct playsrv_opts opts;

/* A tictactoe server on 127.0.0.1 port 8080, no journal. */
static struct playsrv *server(void)
{
    rules = (struct play_rules){ .game = registry_find("tictactoe"), .depth = 2 };
    opts = (struct playsrv_opts){ .rules = &rules, .listen = "127.0.0.1", .port = 8080,
                                  .page_timeout_s = PLAYSRV_PAGE_TIMEOUT_S, .stop = &never };
    struct playsrv *sv;
    struct err e;
    cr_assert_eq(playsrv_open(&sv, &opts, 8080, &e), 0, "playsrv_open: %s", e.msg);
    return sv;
}

/* method path with body (NULL: none), as the page sends it (its Host,
 * Origin and token when token is set). */
static void ask(struct playsrv *sv, const char *method, const char *path, const char *body,
                int token, struct playsrv_resp *r)
{
    struct playsrv_req q = { .method = method, .path = path, .host = HOST,
                             .origin = token ? "http://" HOST : NULL,
                             .token = token ? playsrv_token(sv) : NULL,
                             .local_addr = "127.0.0.1", .body = body,
                             .body_len = body ? strlen(body) : 0 };
    cr_assert_eq(playsrv_answer(sv, &q, r), 0, "%s %s: no answer", method, path);
}

/* r's JSON's "error", or "" (r freed). */
static void expect_error(struct playsrv_resp *r, unsigned status, const char *error)
{
    cr_expect_eq(r->status, status, "status %u: %.*s", r->status, (int)r->len, r->body);
    cr_expect_str_eq(r->type, "application/json");
    cJSON *j = cJSON_ParseWithLength(r->body, r->len);
    const char *got = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(j, "error"));
    cr_expect(got && strcmp(got, error) == 0, "error %s, not %s", got ? got : "(none)", error);
    cJSON_Delete(j);
    playsrv_resp_free(r);
}

Test(playsrv, a_post_without_the_token_is_refused_and_the_page_carries_it)
{
    struct playsrv *sv = server();
    struct playsrv_resp r;
    ask(sv, "POST", "/api/new", "{\"players\":[\"person\",\"person\"]}", 0, &r);
    cr_expect_eq(r.status, 403);
    cr_expect_str_eq(r.type, "text/plain; charset=utf-8");
    cr_expect(strncmp(r.body, "refused: POST without", 21) == 0, "%s", r.body);
    playsrv_resp_free(&r);
    ask(sv, "GET", "/", NULL, 0, &r);
    cr_expect(r.status == 200 && r.persistent && strstr(r.body, playsrv_token(sv)),
              "the page: %u", r.status);
    playsrv_resp_free(&r);
    ask(sv, "POST", "/api/new", "{\"players\":[\"person\",\"person\"]}", 1, &r);
    cr_expect_eq(r.status, 200, "%.*s", (int)r.len, r.body);
    cr_expect(strncmp(r.body, "{\"id\":1,", 8) == 0, "%s", r.body);
    playsrv_resp_free(&r);
    playsrv_close(sv);
}

/* Found by the fuzzer: a reason quoting the request's bytes (a path, a
 * player) was sent as they came, so the answer was no UTF-8 and no JSON
 * to a strict reader; each byte that is not UTF-8 is now '?'. */
Test(playsrv, an_error_quoting_bytes_that_are_not_utf8_is_utf8)
{
    struct playsrv *sv = server();
    struct playsrv_resp r;
    ask(sv, "POST", "/ap\xff/train/step", "{}", 1, &r);
    expect_error(&r, 404, "no such page: /ap?/train/step");
    ask(sv, "POST", "/api/new", "{\"players\":[\"caf\xc3\",\"person\"]}", 1, &r);
    expect_error(&r, 422, "unknown player 'caf?'");
    ask(sv, "POST", "/api/new", "{\"players\":[\"caf\xc3\xa9\",\"person\"]}", 1, &r);
    expect_error(&r, 422, "unknown player 'caf\xc3\xa9'");
    playsrv_close(sv);
}

Test(playsrv, a_body_over_the_cap_is_413)
{
    struct playsrv *sv = server();
    struct playsrv_req q = { .method = "POST", .path = "/api/move", .host = HOST,
                             .token = playsrv_token(sv), .local_addr = "127.0.0.1",
                             .too_big = 1 };
    struct playsrv_resp r;
    cr_assert_eq(playsrv_answer(sv, &q, &r), 0);
    char want[64];
    snprintf(want, sizeof want, "the request's body is over %d bytes", PLAYSRV_BODY_CAP);
    expect_error(&r, 413, want);
    playsrv_close(sv);
}
