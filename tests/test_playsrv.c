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
#include <criterion/parameterized.h>
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

/* ---- the API's handlers, on requests in memory --------------------------- */

/* r's JSON (r freed), after checking its status. */
static cJSON *expect_json(struct playsrv_resp *r, unsigned status)
{
    cr_assert_eq(r->status, status, "status %u: %.*s", r->status, (int)r->len, r->body);
    cr_assert_str_eq(r->type, "application/json");
    cr_assert(r->no_store, "an API answer is never cached");
    cJSON *j = cJSON_ParseWithLength(r->body, r->len);
    cr_assert_not_null(j, "%.*s", (int)r->len, r->body);
    playsrv_resp_free(r);
    return j;
}

static const char *text_at(const cJSON *j, const char *key)
{
    const char *s = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(j, key));
    cr_assert_not_null(s, "no string \"%s\"", key);
    return s;
}

static double number_at(const cJSON *j, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, key);
    cr_assert(cJSON_IsNumber(v), "no number \"%s\"", key);
    return v->valuedouble;
}

/* Arrays, not pointers: Criterion hands each case to a new process. */
struct api_case {
    char method[8], path[24], id[8];   /* id: the query's id= ("": none) */
    char body[80];                     /* "": none */
    unsigned status;
    char error[80];
};

ParameterizedTestParameters(playsrv, a_request_the_api_cannot_take_says_why)
{
    static struct api_case cases[] = {
        { "GET", "/api/new", "", "", 405, "GET /api/new: use POST" },
        { "POST", "/api/info", "", "{}", 405, "POST /api/info: use GET" },
        { "POST", "/api/state", "", "{}", 405, "POST /api/state: use GET" },
        { "GET", "/nothing", "", "", 404, "no such page: /nothing" },
        { "POST", "/api/nothing", "", "{}", 404, "no such page: /api/nothing" },
        { "POST", "/api/move", "", "[1]", 400, "malformed JSON at byte 0: an object is expected" },
        { "POST", "/api/move", "", "{\"id\":1,}", 400,
          "malformed JSON at byte 8: an object is expected" },
        { "POST", "/api/move", "", "", 400, "malformed JSON at byte 0: an object is expected" },
        { "POST", "/api/move", "", "{}", 400, "\"id\" must be a number" },
        { "POST", "/api/move", "", "{\"id\":\"1\"}", 400, "\"id\" must be a number" },
        { "POST", "/api/move", "", "{\"id\":7}", 404, "no game 7 (closed, or never started)" },
        { "POST", "/api/undo", "", "{\"id\":0}", 404, "no game 0 (closed, or never started)" },
        { "POST", "/api/alive", "", "{\"id\":3}", 404, "no game 3 (closed, or never started)" },
        { "GET", "/api/state", "", "", 400, "\"id\" must be a number" },
        { "GET", "/api/state", "x1", "", 400, "\"id\" must be a number" },
        { "GET", "/api/state", "2", "", 404, "no game 2 (closed, or never started)" },
        { "POST", "/api/new", "", "{\"players\":[\"person\"]}", 400,
          "\"players\" must be two names" },
        { "POST", "/api/new", "", "{\"players\":[\"person\",3]}", 400,
          "\"players\" must be two names" },
        { "POST", "/api/new", "", "{\"players\":[\"person\",\"person\"],\"weights\":[1,null]}",
          400, "\"weights\" must be two weights files (or nulls)" },
        { "POST", "/api/new", "", "{\"players\":[\"chess\",\"person\"]}", 422,
          "unknown player 'chess'" },
        { "POST", "/api/train/step", "", "{\"id\":1}", 404,
          "no training 1 (closed, or never started)" },
    };
    return cr_make_param_array(struct api_case, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct api_case *c, playsrv, a_request_the_api_cannot_take_says_why)
{
    struct playsrv *sv = server();
    struct playsrv_req q = { .method = c->method, .path = c->path, .host = HOST,
                             .origin = "http://" HOST, .token = playsrv_token(sv),
                             .local_addr = "127.0.0.1", .id = c->id[0] ? c->id : NULL,
                             .body = c->body, .body_len = strlen(c->body) };
    struct playsrv_resp r;
    cr_assert_eq(playsrv_answer(sv, &q, &r), 0);
    cJSON *j = expect_json(&r, c->status);
    cr_assert_str_eq(text_at(j, "error"), c->error, "%s %s '%s'", c->method, c->path, c->body);
    cJSON_Delete(j);
    playsrv_close(sv);
}

/* POST path {"id": ID, extra} with the page's token; the answer's JSON. */
static cJSON *post(struct playsrv *sv, const char *path, int id, const char *extra,
                   unsigned status)
{
    char body[256];
    snprintf(body, sizeof body, "{\"id\":%d%s%s}", id, extra[0] ? "," : "", extra);
    struct playsrv_resp r;
    ask(sv, "POST", path, body, 1, &r);
    return expect_json(&r, status);
}

Test(playsrv, a_persons_game_moves_refuses_illegal_moves_undoes_and_closes)
{
    struct playsrv *sv = server();
    struct playsrv_resp r;
    ask(sv, "POST", "/api/new", "{\"players\":[\"person\",\"person\"]}", 1, &r);
    cJSON *st = expect_json(&r, 200);
    int id = (int)number_at(st, "id");
    cr_assert_str_eq(text_at(st, "board"), "...\n...\n...\n1\n");
    cr_assert_eq(number_at(st, "to_move"), 1);
    cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItem(st, "legal")), 9);
    cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItem(st, "moves")), 0);
    cr_assert(cJSON_IsFalse(cJSON_GetObjectItem(st, "over")));
    cJSON_Delete(st);

    st = post(sv, "/api/undo", id, "", 409);
    cr_assert_str_eq(text_at(st, "error"), "the person has not moved yet");
    cJSON_Delete(st);
    st = post(sv, "/api/move", id, "\"move\":\"d1\"", 422);
    cr_assert_str_eq(text_at(st, "error"), "illegal move 'd1': not a legal move of player 1 here");
    cJSON_Delete(st);
    st = post(sv, "/api/move", id, "\"move\":1", 400);
    cr_assert_str_eq(text_at(st, "error"), "\"move\" must be a string");
    cJSON_Delete(st);

    st = post(sv, "/api/move", id, "\"move\":\"b2\"", 200);
    cr_assert_str_eq(text_at(st, "board"), "...\n.X.\n...\n2\n");
    cr_assert_eq(number_at(st, "to_move"), 2);
    cJSON *mv = cJSON_GetArrayItem(cJSON_GetObjectItem(st, "moves"), 0);
    cr_assert_str_eq(text_at(mv, "move"), "b2");
    cr_assert_eq(number_at(mv, "side"), 1);
    cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItem(st, "legal")), 8);
    cJSON_Delete(st);
    st = post(sv, "/api/move", id, "\"move\":\"b2\"", 422);
    cr_assert_str_eq(text_at(st, "error"), "illegal move 'b2': not a legal move of player 2 here");
    cJSON_Delete(st);

    st = post(sv, "/api/undo", id, "", 200);
    cr_assert_str_eq(text_at(st, "board"), "...\n...\n...\n1\n");
    cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItem(st, "moves")), 0);
    cJSON_Delete(st);

    char idtext[16];
    snprintf(idtext, sizeof idtext, "%d", id);
    struct playsrv_req q = { .method = "GET", .path = "/api/state", .host = HOST,
                             .local_addr = "127.0.0.1", .id = idtext };
    cr_assert_eq(playsrv_answer(sv, &q, &r), 0);
    st = expect_json(&r, 200);
    cr_assert_eq(number_at(st, "id"), id, "a GET needs no token");
    cJSON_Delete(st);

    st = post(sv, "/api/alive", id, "", 200);
    cr_assert(cJSON_IsTrue(cJSON_GetObjectItem(st, "alive")));
    cJSON_Delete(st);
    st = post(sv, "/api/close", id, "", 200);
    cr_assert(cJSON_IsTrue(cJSON_GetObjectItem(st, "closed")));
    cJSON_Delete(st);
    cr_assert_eq(playsrv_answer(sv, &q, &r), 0);
    st = expect_json(&r, 404);
    char want[64];
    snprintf(want, sizeof want, "no game %d (closed, or never started)", id);
    cr_assert_str_eq(text_at(st, "error"), want);
    cJSON_Delete(st);
    playsrv_close(sv);
}

Test(playsrv, a_game_that_ends_says_its_result_and_takes_no_more_moves)
{
    struct playsrv *sv = server();
    struct playsrv_resp r;
    ask(sv, "POST", "/api/new", "{\"players\":[\"person\",\"person\"]}", 1, &r);
    cJSON *st = expect_json(&r, 200);
    int id = (int)number_at(st, "id");
    cJSON_Delete(st);
    const char *moves[] = { "a1", "a2", "b1", "b2", "c1" };   /* X takes the first row */
    for (int i = 0; i < 5; i++) {
        char extra[32];
        snprintf(extra, sizeof extra, "\"move\":\"%s\"", moves[i]);
        st = post(sv, "/api/move", id, extra, 200);
        if (i < 4)
            cJSON_Delete(st);
    }
    cr_assert(cJSON_IsTrue(cJSON_GetObjectItem(st, "over")));
    cr_assert_str_eq(text_at(st, "result"), "1-0");
    cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItem(st, "legal")), 0);
    cJSON_Delete(st);
    st = post(sv, "/api/move", id, "\"move\":\"c3\"", 409);
    cr_assert_eq(strncmp(text_at(st, "error"), "the game is over (", 18), 0, "%s",
                 text_at(st, "error"));
    cJSON_Delete(st);
    playsrv_close(sv);
}

Test(playsrv, the_computers_turn_is_asked_of_the_computer_not_the_person)
{
    struct playsrv *sv = server();
    struct playsrv_resp r;
    ask(sv, "POST", "/api/new", "{\"players\":[\"random\",\"person\"]}", 1, &r);
    cJSON *st = expect_json(&r, 200);
    int id = (int)number_at(st, "id");
    cJSON_Delete(st);
    st = post(sv, "/api/move", id, "\"move\":\"a1\"", 409);
    cr_assert_str_eq(text_at(st, "error"), "it is player 1's turn, a computer player (random)");
    cJSON_Delete(st);
    st = post(sv, "/api/undo", id, "", 409);
    cr_assert_str_eq(text_at(st, "error"), "the person has not moved yet");
    cJSON_Delete(st);
    st = post(sv, "/api/computer", id, "", 200);
    cr_assert_eq(number_at(st, "to_move"), 2);
    cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItem(st, "moves")), 1);
    cJSON_Delete(st);
    st = post(sv, "/api/computer", id, "", 409);
    cr_assert_str_eq(text_at(st, "error"), "it is player 2's turn, a person's");
    cJSON_Delete(st);
    playsrv_close(sv);
}

Test(playsrv, info_names_the_game_its_players_and_the_pages_poll)
{
    struct playsrv *sv = server();
    struct playsrv_req q = { .method = "GET", .path = "/api/info", .host = HOST,
                             .local_addr = "127.0.0.1" };
    struct playsrv_resp r;
    cr_assert_eq(playsrv_answer(sv, &q, &r), 0);
    cJSON *j = expect_json(&r, 200);
    cr_assert_str_eq(text_at(j, "game"), "tictactoe");
    cr_assert_eq(number_at(j, "depth"), 2);
    cr_assert_eq(number_at(j, "max_depth"), SEARCH_MAX_DEPTH);
    cr_assert_eq(number_at(j, "poll_ms"), PLAYSRV_PAGE_TIMEOUT_S * 1000.0 / PLAYSRV_PAGE_POLLS);
    cr_assert(cJSON_IsFalse(cJSON_GetObjectItem(j, "learning")), "no trainer");
    char *players = cJSON_PrintUnformatted(cJSON_GetObjectItem(j, "players"));
    cr_assert_str_eq(players, "[\"person\",\"random\",\"alphabeta:2\",\"minimax:2\",\"perfect\"]");
    free(players);
    cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItem(j, "engines")), 0);
    cJSON_Delete(j);
    playsrv_close(sv);
}
