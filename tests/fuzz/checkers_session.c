/*
 * checkers_session.c - fuzz target for the `checkers` binary's stdin replay
 * (ck_session_run: an action per line, then an optional A or P command).
 *
 * Input: the action list on stdin, from the initial setup; or a board file
 * (what `checkers --board FILE` reads), a line "--", then the action list.
 * A board the reader refuses is not a session, so it ends the run early.
 *
 * Properties:
 *   - the exit status is 0 or 2, never 1 (out of memory);
 *   - status 0 writes nothing on diag; status 2 says why exactly once: the
 *     seed's ERROR line last on stdout for a rejected action, or
 *     stdin:LINE:COL: message on diag for a line that is no action;
 *   - the replay is consistent: every action the run printed (computed
 *     ones included), fed back as a plain action list from the same start,
 *     is accepted and prints the same actions, costs and boards (the winner
 *     lines aside: without a command the end is checked once, at the end).
 */
#define _GNU_SOURCE   /* memmem */
#include <stdlib.h>
#include <string.h>
#include "arena/checkers.h"
#include "fuzz.h"

#define BOARD_END "\n--\n"
#define ACTION_MARK " ACTION #"
#define COMPUTED "*** "

struct run {
    int rc;
    struct fuzz_out out, diag;
};

static void session(const struct ck_pos *start, const uint8_t *in, size_t len, struct run *r)
{
    char *copy;
    FILE *f = fuzz_input(in, len, &copy);
    fuzz_out_open(&r->out);
    fuzz_out_open(&r->diag);
    struct ck_session_opts o = { .start = start, .depth = CK_SEED_DEPTH };
    r->rc = ck_session_run(&o, f, r->out.f, r->diag.f);
    fclose(f);
    free(copy);
    fuzz_out_close(&r->out);
    fuzz_out_close(&r->diag);
}

static void run_free(struct run *r)
{
    fuzz_out_free(&r->out);
    fuzz_out_free(&r->diag);
}

/* The output without "*** " marks and without the lines a replay need not
 * repeat: the winner (checked at other times) and the ERROR line. */
static char *comparable(const char *out)
{
    char *buf = malloc(strlen(out) + 1), *w = buf;
    for (const char *p = out; *p;) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) + 1 : strlen(p);
        if (strncmp(p, COMPUTED, strlen(COMPUTED)) == 0) {
            p += strlen(COMPUTED);
            n -= strlen(COMPUTED);
        }
        if (strncmp(p, "BLACK WIN!", 10) != 0 && strncmp(p, "WHITE WIN!", 10) != 0
            && strncmp(p, "ERROR: ", 7) != 0) {
            memcpy(w, p, n);
            w += n;
        }
        p += n;
    }
    *w = '\0';
    return buf;
}

/* Every printed action ("G6-F5" after "ACTION #N: "), one per line. */
static char *printed_actions(const char *out, size_t *len)
{
    char *buf = malloc(strlen(out) + 1), *w = buf;
    for (const char *p = strstr(out, ACTION_MARK); p; p = strstr(p + 1, ACTION_MARK)) {
        const char *colon = strstr(p, ": "), *nl = strchr(p, '\n');
        FUZZ_CHECK(colon && nl && colon < nl, "an action line without its move");
        memcpy(w, colon + 2, (size_t)(nl - colon - 1));
        w += nl - colon - 1;
    }
    *len = (size_t)(w - buf);
    return buf;
}

static void check_status(const struct run *r)
{
    FUZZ_CHECK(r->rc == 0 || r->rc == EXIT_BAD_INPUT, "exit status %d", r->rc);
    FUZZ_CHECK(strncmp(r->out.buf, "BOARD SIZE: 8x8\n", 16) == 0, "no header:\n%s", r->out.buf);
    /* The last line: from after the newline before the final one. */
    const char *end = r->out.buf + r->out.len;
    const char *start = end > r->out.buf ? end - 1 : end;
    while (start > r->out.buf && start[-1] != '\n')
        start--;
    int error_line = strncmp(start, "ERROR: ", 7) == 0;
    if (r->rc == 0) {
        FUZZ_CHECK(r->diag.len == 0 && !error_line, "status 0 with an error:\n%s%s", r->diag.buf,
                   start);
        return;
    }
    FUZZ_CHECK(error_line != (r->diag.len > 0), "status 2: ERROR line %d, diag '%s'", error_line,
               r->diag.buf);
    if (r->diag.len) {
        int line = 0, col = 0, used = 0;
        FUZZ_CHECK(sscanf(r->diag.buf, "stdin:%d:%d: %n", &line, &col, &used) == 2 && line >= 1
                       && col >= 1 && r->diag.buf[used] && r->diag.buf[r->diag.len - 1] == '\n'
                       && memchr(r->diag.buf, '\n', r->diag.len) == r->diag.buf + r->diag.len - 1,
                   "diag is not one placed message: '%s'", r->diag.buf);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct ck_pos start;
    ck_init(&start);
    const uint8_t *in = data;
    size_t len = size;
    const uint8_t *sep = memmem(data, size, BOARD_END, strlen(BOARD_END));
    if (sep) {
        char *board = fuzz_text(data, (size_t)(sep - data) + 1);
        struct err e;
        int ok = game_checkers.parse(&start, board, (size_t)(sep - data) + 1, &e) == 0;
        free(board);
        if (!ok)
            return 0;
        in = sep + strlen(BOARD_END);
        len = size - (size_t)(in - data);
    }
    struct run first, again;
    session(&start, in, len, &first);
    check_status(&first);
    size_t alen;
    char *actions = printed_actions(first.out.buf, &alen);
    session(&start, (const uint8_t *)actions, alen, &again);
    FUZZ_CHECK(again.rc == 0, "the printed actions replay with status %d:\n%s%s", again.rc,
               actions, again.out.buf);
    char *want = comparable(first.out.buf), *got = comparable(again.out.buf);
    FUZZ_CHECK(strcmp(want, got) == 0, "the replay of the printed actions differs:\n%s---\n%s",
               want, got);
    free(want);
    free(got);
    free(actions);
    run_free(&first);
    run_free(&again);
    return 0;
}
