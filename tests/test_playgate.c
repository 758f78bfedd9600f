/*
 * test_playgate.c - who referee play answers (playgate.h): its own address in
 * Host, its own page's Origin, its token on whatever changes something; and
 * the reason a refusal gives.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <string.h>
#include "referee/serve/playgate.h"

/* A server listening on listen and port. */
static struct pgate gate_on(const char *listen, unsigned port)
{
    struct pgate g;
    struct err e;
    cr_assert_eq(pgate_init(&g, listen, port, &e), 0, "pgate_init: %s", e.msg);
    return g;
}

static struct pgate gate(unsigned port)
{
    return gate_on("127.0.0.1", port);
}

Test(playgate, the_token_is_fresh_lower_case_hex)
{
    struct pgate a = gate(8080), b = gate(8080);
    cr_assert_eq(strlen(a.token), PGATE_TOKEN_LEN);
    cr_assert_eq(strspn(a.token, "0123456789abcdef"), PGATE_TOKEN_LEN, "token %s", a.token);
    cr_assert_str_neq(a.token, b.token, "two servers, one token");
}

/* Arrays, not pointers: Criterion hands each case to a new process. */
struct host_case {
    char listen[16], local[16], host[32];
    unsigned port;
    int ok;
};

ParameterizedTestParameters(playgate, host_is_the_address_the_connection_reached)
{
    static struct host_case cases[] = {
        { "127.0.0.1", "127.0.0.1", "127.0.0.1:8080", 8080, 1 },
        { "127.0.0.1", "127.0.0.1", "localhost:8080", 8080, 1 },
        { "127.0.0.1", "127.0.0.1", "LocalHost:8080", 8080, 1 },
        { "127.0.0.1", "127.0.0.1", "127.0.0.1:8081", 8080, 0 },     /* another port */
        { "127.0.0.1", "127.0.0.1", "127.0.0.1", 8080, 0 },          /* port 80 meant */
        { "127.0.0.1", "127.0.0.1", "127.0.0.1:", 8080, 0 },
        { "127.0.0.1", "127.0.0.1", "127.0.0.1:8080x", 8080, 0 },
        { "127.0.0.1", "127.0.0.1", "127.0.0.1:+8080", 8080, 0 },
        { "127.0.0.1", "127.0.0.1", "evil.example:8080", 8080, 0 },  /* DNS rebinding */
        { "127.0.0.1", "127.0.0.1", "localhost.:8080", 8080, 0 },
        { "127.0.0.1", "127.0.0.1", "127.0.0.2:8080", 8080, 0 },
        { "127.0.0.1", "127.0.0.1", "[::1]:8080", 8080, 0 },
        { "127.0.0.1", "127.0.0.1", "127.0.0.1:8080:8080", 8080, 0 },
        { "127.0.0.1", "127.0.0.1", "", 8080, 0 },
        { "127.0.0.1", "127.0.0.1", "127.0.0.1", 80, 1 },
        { "127.0.0.1", "127.0.0.1", "localhost", 80, 1 },
        { "192.168.1.5", "192.168.1.5", "192.168.1.5:8080", 8080, 1 },
        { "192.168.1.5", "192.168.1.5", "localhost:8080", 8080, 0 },   /* not loopback */
        { "192.168.1.5", "192.168.1.5", "127.0.0.1:8080", 8080, 0 },
        { "0.0.0.0", "127.0.0.1", "0.0.0.0:8080", 8080, 1 },       /* the address printed */
        { "0.0.0.0", "192.168.1.5", "192.168.1.5:8080", 8080, 1 },
        { "0.0.0.0", "192.168.1.5", "localhost:8080", 8080, 0 },
        { "127.0.0.1", "127.0.0.1", "0.0.0.0:8080", 8080, 0 },
        /* Found writing the play_requests fuzz target's rule of the gate:
         * with the address the connection reached not known (""), an
         * empty name matched it. */
        { "0.0.0.0", "", ":8080", 8080, 0 },
        { "127.0.0.1", "", ":8080", 8080, 0 },
        { "127.0.0.1", "127.0.0.1", ":8080", 8080, 0 },
        { "0.0.0.0", "", "0.0.0.0:8080", 8080, 1 },
    };
    return cr_make_param_array(struct host_case, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct host_case *c, playgate, host_is_the_address_the_connection_reached)
{
    struct pgate g = gate_on(c->listen, c->port);
    struct pgate_req q = { .method = "GET", .host = c->host, .local_addr = c->local };
    char why[256] = "";
    int rc = pgate_check(&g, &q, why, sizeof why);
    cr_assert_eq(rc, c->ok ? 0 : 403, "Host '%s' on %s port %u (listening on %s): %d (%s)",
                 c->host, c->local, c->port, c->listen, rc, why);
}

struct origin_case {
    char host[32], origin[32];   /* "": no Origin header */
    int ok;
};

ParameterizedTestParameters(playgate, origin_is_the_pages_own)
{
    static struct origin_case cases[] = {
        { "127.0.0.1:8080", "", 1 },
        { "127.0.0.1:8080", "http://127.0.0.1:8080", 1 },
        { "localhost:8080", "http://localhost:8080", 1 },
        { "localhost:8080", "HTTP://LOCALHOST:8080", 1 },
        { "127.0.0.1:8080", "http://localhost:8080", 0 },   /* another origin */
        { "127.0.0.1:8080", "http://evil.example", 0 },
        { "127.0.0.1:8080", "http://127.0.0.1:9090", 0 },   /* another port's page */
        { "127.0.0.1:8080", "https://127.0.0.1:8080", 0 },
        { "127.0.0.1:8080", "null", 0 },                    /* a sandboxed frame, a file */
        { "127.0.0.1:8080", " ", 0 },
    };
    return cr_make_param_array(struct origin_case, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct origin_case *c, playgate, origin_is_the_pages_own)
{
    struct pgate g = gate(8080);
    struct pgate_req q = { .method = "POST", .host = c->host,
                           .origin = c->origin[0] ? c->origin : NULL,
                           .token = g.token, .local_addr = "127.0.0.1" };
    char why[256] = "";
    int rc = pgate_check(&g, &q, why, sizeof why);
    cr_assert_eq(rc, c->ok ? 0 : 403, "Origin '%s', Host '%s': %d (%s)",
                 c->origin[0] ? c->origin : "(none)", c->host, rc, why);
}

Test(playgate, whatever_changes_something_needs_the_token)
{
    struct pgate g = gate(8080);
    char wrong[PGATE_TOKEN_LEN + 1], shorter[PGATE_TOKEN_LEN];
    memcpy(wrong, g.token, sizeof wrong);
    wrong[PGATE_TOKEN_LEN - 1] = wrong[PGATE_TOKEN_LEN - 1] == '0' ? '1' : '0';
    memcpy(shorter, g.token, sizeof shorter - 1);
    shorter[sizeof shorter - 1] = '\0';
    struct { const char *method, *token; int ok; } cases[] = {
        { "GET", NULL, 1 },     { "HEAD", NULL, 1 },   { "POST", g.token, 1 },
        { "POST", NULL, 0 },    { "POST", wrong, 0 },  { "POST", shorter, 0 },
        { "POST", "", 0 },      { "PUT", NULL, 0 },    { "OPTIONS", NULL, 0 },
        { "DELETE", g.token, 1 },   /* the token is the test; the method is the API's */
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        struct pgate_req q = { .method = cases[i].method, .host = "127.0.0.1:8080",
                               .token = cases[i].token, .local_addr = "127.0.0.1" };
        char why[256] = "";
        int rc = pgate_check(&g, &q, why, sizeof why);
        cr_expect_eq(rc, cases[i].ok ? 0 : 403, "%s with token '%s': %d (%s)", cases[i].method,
                     cases[i].token ? cases[i].token : "(none)", rc, why);
    }
}

Test(playgate, a_refusal_says_what_was_wrong_and_what_is_expected)
{
    struct pgate g = gate(8080);
    struct {
        struct pgate_req q;
        const char *why;
    } cases[] = {
        { { "GET", NULL, NULL, NULL, "127.0.0.1" },
          "refused: no Host header (this server is 127.0.0.1:8080 or localhost:8080)" },
        { { "GET", "evil.example:8080", NULL, NULL, "127.0.0.1" },
          "refused: Host 'evil.example:8080' is not this server (127.0.0.1:8080 or "
          "localhost:8080)" },
        { { "GET", "10.0.0.1:8080", NULL, NULL, "192.168.1.5" },
          "refused: Host '10.0.0.1:8080' is not this server (192.168.1.5:8080 or "
          "127.0.0.1:8080)" },
        { { "POST", "127.0.0.1:8080", "http://evil.example", NULL, "127.0.0.1" },
          "refused: Origin 'http://evil.example' is not this server's page "
          "(http://127.0.0.1:8080)" },
        { { "POST", "127.0.0.1:8080", NULL, "nope", "127.0.0.1" },
          "refused: POST without this server's X-Arena-Token: only its own page changes "
          "anything (reload the page if the server was restarted)" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char why[256] = "";
        cr_expect_eq(pgate_check(&g, &cases[i].q, why, sizeof why), 403);
        cr_expect_str_eq(why, cases[i].why);
    }
}
