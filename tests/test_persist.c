/*
 * test_persist.c - the line protocol of an engine that stays for the game
 * (persist.h, docs/engines.md), through launcher_persistent without a
 * sandbox: the request line each move sends on the engine's stdin, the line
 * `done` on its stdout as the only answer (a '\r' before its newline
 * forgiven), its other lines its own, one process for every move, `quit`
 * at the end, and the reasons of the moves that go wrong (exit-status 0
 * before answering, stdout-flood, the CPU cap). The engines are a few lines
 * of sh, so that each case takes milliseconds.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "referee/run/launcher.h"
#include "referee/run/persist.h"
#include "arena/runner.h"

struct engine {
    struct launcher l;
    struct run_limits limits;
    char *argv[4];
};

static void engine_open(struct engine *g, const char *script)
{
    struct err e;
    memset(g, 0, sizeof *g);
    g->limits.timeout_ms = 10000;
    g->argv[0] = "sh";
    g->argv[1] = "-c";
    g->argv[2] = (char *)script;
    cr_assert_eq(launcher_persistent(&g->l, NULL, NULL, 0, &e), 0, "%s", e.msg);
}

/* One move with request line (NULL: a plain one) and a CPU cap (0: none). */
static void engine_move(struct engine *g, const char *line, double cap_ms, struct run_result *r)
{
    struct err e;
    struct launch_move m = { g->argv, "/", 0, -1, &g->limits, { -1, -1, -1 }, line, cap_ms };
    cr_assert_eq(launcher_move(&g->l, &m, r, &e), 0, "%s", e.msg);
}

static const char *line_of(int n)
{
    static char buf[PERSIST_LINE_MAX];
    char depth[16];
    snprintf(depth, sizeof depth, "%d", n);
    persist_move_line(buf, sizeof buf, "/tmp/g/in.txt", "/tmp/g/out.txt", depth, "1500", "20");
    return buf;
}

Test(persist, the_request_line_names_the_boards_depth_and_clock)
{
    char buf[PERSIST_LINE_MAX];
    int n = persist_move_line(buf, sizeof buf, "/g/in.txt", "/g/out.txt", "7", "0", "0");
    cr_assert_str_eq(buf, "move /g/in.txt /g/out.txt 7 0 0\n");
    cr_assert_eq(n, (int)strlen(buf));
}

Test(persist, each_move_sends_its_line_to_the_one_process_and_done_answers_it)
{
    struct engine g;
    /* Echoes each request on stderr, its pid on stdout, then answers. */
    engine_open(&g, "while read -r l; do printf '%s\\n' \"$l\" >&2; echo $$; echo done; done");
    struct run_result r1, r2;
    engine_move(&g, line_of(1), 0, &r1);
    cr_assert_str_eq(persist_reason(&g.l), "");
    cr_assert(r1.end == RUN_EXITED && r1.status == 0, "end %d, status %d", r1.end, r1.status);
    cr_assert_str_eq(r1.err.text, "move /tmp/g/in.txt /tmp/g/out.txt 1 1500 20\n");
    engine_move(&g, line_of(2), 0, &r2);
    cr_assert(r2.end == RUN_EXITED && r2.status == 0, "end %d, status %d", r2.end, r2.status);
    cr_assert_str_eq(r2.err.text, "move /tmp/g/in.txt /tmp/g/out.txt 2 1500 20\n");
    /* Its stdout lines are the move's own, "done" with them. */
    cr_assert_eq(strcmp(r1.out.text, r2.out.text), 0, "one process: '%s' then '%s'",
                 r1.out.text, r2.out.text);
    cr_assert_eq(strncmp(r1.out.text + strlen(r1.out.text) - 5, "done\n", 5), 0, "'%s'",
                 r1.out.text);
    launcher_close(&g.l);
}

Test(persist, done_with_a_carriage_return_is_an_answer)
{
    struct engine g;
    engine_open(&g, "while read -r l; do printf 'info depth 1\\r\\ndone\\r\\n'; done");
    struct run_result r;
    engine_move(&g, line_of(1), 0, &r);
    cr_assert(r.end == RUN_EXITED && r.status == 0, "end %d, status %d", r.end, r.status);
    cr_assert_str_eq(persist_reason(&g.l), "");
    cr_assert_str_eq(r.out.text, "info depth 1\r\ndone\r\n");
    launcher_close(&g.l);
}

/* Arrays, not pointers: Criterion hands each case to a new process. */
struct line_case {
    char said[16];   /* printf's format: the engine's whole answer */
};

ParameterizedTestParameters(persist, a_line_that_is_not_done_answers_nothing)
{
    static struct line_case cases[] = {
        { "done \\n" }, { " done\\n" }, { "Done\\n" }, { "DONE\\n" }, { "donee\\n" },
        { "don\\n" }, { "done\\r\\r\\n" }, { "\\n" }, { "done" },   /* no newline */
        { "done\\rx\\n" }, { "xdone\\n" },
    };
    return cr_make_param_array(struct line_case, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct line_case *c, persist, a_line_that_is_not_done_answers_nothing)
{
    struct engine g;
    char script[128];
    /* It says its line and exits, unanswered: exit status 0 before an
     * answer is a forfeit of the protocol's. */
    snprintf(script, sizeof script, "read -r l; printf '%s'; exit 0", c->said);
    engine_open(&g, script);
    struct run_result r;
    engine_move(&g, line_of(1), 0, &r);
    cr_assert_str_eq(persist_reason(&g.l), "exit-status 0", "'%s' taken for done", c->said);
    launcher_close(&g.l);
}

Test(persist, an_engine_that_exits_before_answering_keeps_its_status)
{
    struct engine g;
    engine_open(&g, "read -r l; exit 3");
    struct run_result r;
    engine_move(&g, line_of(1), 0, &r);
    cr_assert(r.end == RUN_EXITED && r.status == 3, "end %d, status %d", r.end, r.status);
    cr_assert_str_eq(persist_reason(&g.l), "");
    launcher_close(&g.l);
}

Test(persist, done_written_between_moves_answers_nothing)
{
    char dir[] = "/tmp/test_persist_XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char script[512], mark[64];
    snprintf(mark, sizeof mark, "%s/both", dir);
    /* Two answers to the first request, then a mark once both are in
     * the pipe: the second is stale, and the second move waits for its
     * own. */
    snprintf(script, sizeof script, "read -r l; echo done; echo done; : > %s; read -r l; "
             "echo late >&2; exit 5", mark);
    struct engine g;
    engine_open(&g, script);
    struct run_result r1, r2;
    engine_move(&g, line_of(1), 0, &r1);
    cr_assert(r1.end == RUN_EXITED && r1.status == 0, "end %d, status %d", r1.end, r1.status);
    for (int i = 0; i < 5000 && access(mark, F_OK) != 0; i++)
        usleep(1000);
    cr_assert_eq(access(mark, F_OK), 0, "the engine never wrote its second done");
    engine_move(&g, line_of(2), 0, &r2);
    cr_assert(r2.end == RUN_EXITED && r2.status == 5, "the stale done answered: end %d, "
              "status %d", r2.end, r2.status);
    cr_assert_str_eq(r2.err.text, "late\n");
    launcher_close(&g.l);
    unlink(mark);
    rmdir(dir);
}

Test(persist, more_stdout_than_a_move_may_write_is_a_flood)
{
    struct engine g;
    engine_open(&g, "read -r l; head -c 1100000 /dev/zero; sleep 10");
    struct run_result r;
    engine_move(&g, line_of(1), 0, &r);
    cr_assert_str_eq(persist_reason(&g.l), "stdout-flood");
    cr_assert(r.end == RUN_EXITED && r.status == 0, "the reason is the forfeit: end %d, "
              "status %d", r.end, r.status);
    launcher_close(&g.l);
}

Test(persist, a_move_past_its_cpu_cap_is_stopped_as_over_the_cpu_limit)
{
    struct engine g;
    engine_open(&g, "read -r l; while :; do :; done");
    struct run_result r;
    engine_move(&g, line_of(1), 30, &r);
    cr_assert_eq(r.end, RUN_CPU_LIMIT, "end %d", r.end);
    cr_assert_str_eq(persist_reason(&g.l), "");
    launcher_close(&g.l);
}

Test(persist, close_says_quit_and_closes_its_stdin)
{
    char dir[] = "/tmp/test_persist_XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char script[1024], path[300];
    snprintf(path, sizeof path, "%s/said", dir);
    snprintf(script, sizeof script,
             "while read -r l; do case $l in move*) echo done;; *) printf '%%s\\n' \"$l\" >> %s;; "
             "esac; done; echo eof >> %s", path, path);
    struct engine g;
    engine_open(&g, script);
    struct run_result r;
    engine_move(&g, line_of(1), 0, &r);
    launcher_close(&g.l);
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f, "it was told nothing");
    char said[64] = "";
    size_t n = fread(said, 1, sizeof said - 1, f);
    said[n] = '\0';
    fclose(f);
    cr_assert_str_eq(said, "quit\neof\n");
    unlink(path);
    rmdir(dir);
}
