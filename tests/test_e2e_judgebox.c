/*
 * test_e2e_judgebox.c - a judge's sandbox (judge.h, docs/judges.md) against
 * a judge that attacks its host (tests/engines/hostile_judge.py: reads
 * /etc/shadow, leaves a setsid grandchild sleeping, connects to
 * 127.0.0.1), then judges tic-tac-toe soundly. Its attacks run when it is
 * asked "hello": in a match (the judge the options start, and the match's
 * own), in each worker of a tournament with --concurrency 2 (each starts
 * its own judge, in a sandbox of its own) and in verify. In its sandbox,
 * the default, each must be harmless: /etc/shadow refused (EACCES: a root
 * referee's judge runs as nobody), no network (ENETUNREACH, nothing
 * reaches the test's listener), no grandchild left once the referee has
 * exited; and the games played, the journal verified. With --judge-sandbox
 * none the judge is the referee's user: as root it reads /etc/shadow, and
 * it reaches the listener. Each runs as root and as nobody (through
 * setpriv; a test run by someone other than root runs the second case as
 * that user and skips the first), the referee in a folder of the test's
 * open to that user.
 *
 * Also: where no sandbox can be made (a user namespace whose limit on new
 * ones is 0), a judge's run stops before its hello, exit 4, naming the
 * cause and --judge-sandbox none, also with --sandbox none for the
 * engines; with --judge-sandbox none it plays. A root referee's judge whose
 * folder nobody may search is refused with the chmod that fixes it.
 *
 * The grandchild is looked for by its command line ("hostile_judge-TAG-
 * sleeper", TAG the test's own): its pid inside the sandbox is its PID
 * namespace's, not the host's. Python is the system's (PATH=/usr/bin:/bin),
 * which nobody can run.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>
#include "e2e_util.h"

#define NOBODY 65534
#define NOBODY_TEXT "65534"
#define JUDGE_PATH "/usr/bin:/bin"
#define EXIT_JUDGE_FAILED 4
#define CMD_MAX (3 * PATH_MAX)

/* Who runs the referee: root, or nobody. */
struct who {
    int nobody;
};

ParameterizedTestParameters(e2e_judgebox, a_hostile_judge_is_held_in_its_sandbox)
{
    static struct who cases[] = { { 0 }, { 1 } };
    return cr_make_param_array(struct who, cases, 2);
}

ParameterizedTestParameters(e2e_judgebox, a_trusted_judge_runs_as_the_referees_user)
{
    static struct who cases[] = { { 0 }, { 1 } };
    return cr_make_param_array(struct who, cases, 2);
}

/* A test's folder, the referee's working directory, open to who's user;
 * PATH the system's. Skips a root case when the test is not root. */
static char *place_open(struct who who)
{
    if (!who.nobody && geteuid() != 0)
        cr_skip_test("runs as root only");
    char *dir = e2e_tmpdir();
    cr_assert_eq(chmod(dir, 0755), 0, "chmod %s: %s", dir, strerror(errno));
    if (who.nobody && geteuid() == 0)
        cr_assert_eq(chown(dir, NOBODY, NOBODY), 0, "chown %s: %s", dir, strerror(errno));
    setenv("PATH", JUDGE_PATH, 1);
    return dir;
}

/* Runs the referee with args in dir as who's user. */
static void referee(struct e2e_run *r, const char *dir, struct who who, const char *const *args)
{
    static const char *const as_nobody[] = { "setpriv", "--reuid=" NOBODY_TEXT,
                                             "--regid=" NOBODY_TEXT, "--clear-groups", NULL };
    e2e_runv_via(r, dir, NULL, who.nobody && geteuid() == 0 ? as_nobody : NULL, "referee",
                 args);
}

/* A TCP listener on 127.0.0.1, its port in text. */
struct listener {
    int fd;
    char port[16];
};

static void listen_local(struct listener *l)
{
    int port = 0;
    l->fd = e2e_listen_local(SOCK_STREAM, &port);
    snprintf(l->port, sizeof l->port, "%d", port);
}

/* How many connections came since the last call. */
static int connections(struct listener *l)
{
    int n = 0, conn;
    while ((conn = accept(l->fd, NULL, NULL)) >= 0) {
        close(conn);
        n++;
    }
    return n;
}

/* The hostile judge's command (tag: this test's own) and the built-in
 * tic-tac-toe engine's SPEC. */
struct hostile {
    char tag[32];
    char cmd[CMD_MAX];
    char engine[PATH_MAX + 64];
    char sleeper[64];    /* the pattern of its grandchild's command line */
};

static void hostile_open(struct hostile *h, const struct listener *l, struct who who)
{
    char script[PATH_MAX], rules[PATH_MAX], engine[PATH_MAX];
    e2e_repo_path("tests/engines/hostile_judge.py", script, sizeof script);
    e2e_repo_path("docs/judges", rules, sizeof rules);
    e2e_engine_bin_path("engine", engine, sizeof engine);
    snprintf(h->tag, sizeof h->tag, "jb%ld%s", (long)getpid(), who.nobody ? "n" : "r");
    snprintf(h->cmd, sizeof h->cmd, "python3 %s %s %s %s", script, rules, h->tag, l->port);
    snprintf(h->engine, sizeof h->engine, "cmd=%s one-move --game tictactoe", engine);
    snprintf(h->sleeper, sizeof h->sleeper, "^hostile_judge-%s-sleeper", h->tag);
}

/* What the judge said of attack on the referee's stderr: the result of
 * its first line "hostile_judge TAG: ATTACK: RESULT" (into buf), and how
 * many such lines there are (each start of the judge says it once). */
static int said(const struct hostile *h, const char *err, const char *attack, char *buf,
                size_t cap)
{
    char head[128];
    snprintf(head, sizeof head, "hostile_judge %s: %s: ", h->tag, attack);
    int n = 0;
    buf[0] = '\0';
    for (const char *p = strstr(err, head); p; p = strstr(p + 1, head), n++)
        if (n == 0)
            snprintf(buf, cap, "%.*s", (int)strcspn(p + strlen(head), "\n"), p + strlen(head));
    return n;
}

/* Every start of the judge in run r (what: the command, for messages) was
 * held: /etc/shadow and the network refused, its grandchild gone with the
 * referee, nothing at the listener. */
static void assert_held(const struct hostile *h, struct listener *l, const struct e2e_run *r,
                        const char *what)
{
    char got[128];
    int left = e2e_process_kill(h->sleeper);   /* killed first: a failure leaves none */
    int starts = said(h, r->err, "sleeper", got, sizeof got);
    cr_assert_gt(starts, 0, "%s: the judge never started:\n%s", what, r->err);
    cr_assert_eq(said(h, r->err, "shadow", got, sizeof got), starts, "%s:\n%s", what, r->err);
    cr_assert_null(strstr(r->err, ": shadow: read"), "%s: the judge read /etc/shadow:\n%s",
                   what, r->err);
    cr_assert_str_eq(got, "refused: EACCES", "%s", what);
    cr_assert_eq(said(h, r->err, "network", got, sizeof got), starts, "%s:\n%s", what, r->err);
    cr_assert_null(strstr(r->err, ": network: connected"), "%s: the judge connected:\n%s", what,
                   r->err);
    cr_assert_str_eq(got, "refused: ENETUNREACH", "%s", what);
    cr_assert_eq(connections(l), 0, "%s: a connection reached 127.0.0.1:%s", what, l->port);
    cr_assert_eq(left, 0, "%s: %d of the judge's setsid grandchildren outlived the referee "
                 "(%s)", what, left, h->sleeper);
}

ParameterizedTest(struct who *who, e2e_judgebox, a_hostile_judge_is_held_in_its_sandbox,
                  .timeout = 240)
{
    char *dir = place_open(*who);
    struct listener l;
    listen_local(&l);
    struct hostile h;
    hostile_open(&h, &l, *who);
    struct e2e_run r;
    const char *match[] = { "match", "--judge", h.cmd, "--engine", h.engine, "--engine",
                            h.engine, "--games", "2", "--log", "m.json", NULL };
    referee(&r, dir, *who, match);
    cr_assert_eq(r.status, 0, "match: exit %d: %s%s", r.status, r.out, r.err);
    assert_held(&h, &l, &r, "match");
    e2e_run_free(&r);
    /* Each worker starts its own judge, in a sandbox of its own. */
    const char *tournament[] = { "tournament", "--judge", h.cmd, "--engine", h.engine,
                                 "--engine", h.engine, "--concurrency", "2", "--journal",
                                 "t.jsonl", NULL };
    referee(&r, dir, *who, tournament);
    cr_assert(r.status == 0 && strstr(r.out, "Standings after 2 games\n"),
              "tournament: exit %d: %s%s", r.status, r.out, r.err);
    assert_held(&h, &l, &r, "tournament");
    e2e_run_free(&r);
    const char *verify[] = { "verify", "--judge", h.cmd, "t.jsonl", NULL };
    referee(&r, dir, *who, verify);
    cr_assert(r.status == 0 && strstr(r.out, " moves replayed: consistent\n"),
              "verify: exit %d: %s%s", r.status, r.out, r.err);
    assert_held(&h, &l, &r, "verify");
    e2e_run_free(&r);
    close(l.fd);
    e2e_rmdir(dir);
}

/* --judge-sandbox none: the judge is the referee's own tool again, as
 * before the sandbox: it reads what the referee's user may read
 * (/etc/shadow as root), and it reaches 127.0.0.1. */
ParameterizedTest(struct who *who, e2e_judgebox, a_trusted_judge_runs_as_the_referees_user,
                  .timeout = 120)
{
    char *dir = place_open(*who);
    struct listener l;
    listen_local(&l);
    struct hostile h;
    hostile_open(&h, &l, *who);
    struct e2e_run r;
    const char *match[] = { "match", "--judge", h.cmd, "--judge-sandbox", "none",
                                  "--engine", h.engine, "--engine", h.engine, "--games", "2",
                                  NULL };
    referee(&r, dir, *who, match);
    e2e_process_kill(h.sleeper);   /* what a trusted judge leaves is its own */
    cr_assert_eq(r.status, 0, "exit %d: %s%s", r.status, r.out, r.err);
    char got[128];
    cr_assert_gt(said(&h, r.err, "shadow", got, sizeof got), 0, "%s", r.err);
    if (who->nobody || geteuid() != 0)
        cr_assert_str_eq(got, "refused: EACCES");
    else
        cr_assert(strncmp(got, "read ", 5) == 0, "as root: shadow: %s", got);
    cr_assert_gt(said(&h, r.err, "network", got, sizeof got), 0, "%s", r.err);
    cr_assert_str_eq(got, "connected");
    cr_assert_gt(connections(&l), 0, "nothing reached 127.0.0.1:%s", l.port);
    e2e_run_free(&r);
    close(l.fd);
    e2e_rmdir(dir);
}

/* A system that refuses user namespaces (a user namespace whose limit on
 * new ones is 0): a judge's run stops before its hello, exit status 4,
 * naming the cause and --judge-sandbox none, engines sandboxed or not
 * (--sandbox none is the engines'); with --judge-sandbox none it plays. */
Test(e2e_judgebox, without_namespaces_the_judge_says_why_it_cannot_start, .timeout = 120)
{
    static const char *const no_userns[] = {
        "unshare", "-Ur", "sh", "-c",
        "echo 0 > /proc/sys/user/max_user_namespaces && exec \"$@\"", "no-userns", NULL,
    };
    char judge[PATH_MAX], engine[PATH_MAX], cmd[PATH_MAX + 16], a[PATH_MAX + 64];
    e2e_repo_path("docs/judges/tictactoe.py", judge, sizeof judge);
    e2e_engine_bin_path("engine", engine, sizeof engine);
    snprintf(cmd, sizeof cmd, "python3 %s", judge);
    snprintf(a, sizeof a, "cmd=%s one-move --game tictactoe", engine);
    char *dir = e2e_tmpdir();
    setenv("PATH", JUDGE_PATH, 1);
    const char *args[] = { "match", "--judge", cmd, "--sandbox", "none", "--engine", a,
                           "--engine", a, "--games", "2", NULL, NULL, NULL };
    const int judge_sandbox_at = 11;
    struct e2e_run r;
    e2e_runv_via(&r, dir, NULL, no_userns, "referee", args);
    char want[2 * PATH_MAX];
    snprintf(want, sizeof want,
             "referee: judge '%s': cannot create the judge's sandbox: new namespaces: the "
             "limit on user namespaces is reached (sysctl user.max_user_namespaces); run with "
             "--judge-sandbox none to run a judge you trust without one\n", cmd);
    cr_assert_eq(r.status, EXIT_JUDGE_FAILED, "exit %d: %s%s", r.status, r.out, r.err);
    cr_assert_str_eq(r.out, "");
    cr_assert_str_eq(r.err, want);
    e2e_run_free(&r);
    args[judge_sandbox_at] = "--judge-sandbox";
    args[judge_sandbox_at + 1] = "none";
    e2e_runv_via(&r, dir, NULL, no_userns, "referee", args);
    cr_assert(r.status == 0 && strstr(r.out, "Score of "),
              "--judge-sandbox none: exit %d: %s%s", r.status, r.out, r.err);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

/* A root referee's judge runs as nobody: a judge in a folder nobody may
 * not search is refused before it starts, exit status 4, with the chmod
 * that fixes it; trusted, it plays as root. */
Test(e2e_judgebox, a_root_referees_judge_out_of_nobodys_reach_is_named, .timeout = 120)
{
    if (geteuid() != 0)
        cr_skip_test("runs as root only");
    char judge[PATH_MAX], engine[PATH_MAX], a[PATH_MAX + 64], want[2 * PATH_MAX];
    e2e_repo_path("docs/judges/tictactoe.py", judge, sizeof judge);
    e2e_engine_bin_path("engine", engine, sizeof engine);
    snprintf(a, sizeof a, "cmd=%s one-move --game tictactoe", engine);
    char *dir = e2e_tmpdir();   /* mode 0700 */
    size_t len;
    char *text = e2e_slurp(judge, &len);
    cr_assert_not_null(text);
    e2e_put_at(dir, "judge.py", text);
    free(text);
    setenv("PATH", JUDGE_PATH, 1);
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "referee", "match", "--judge", "python3 judge.py", "--engine", a,
            "--engine", a, "--games", "2", NULL);
    snprintf(want, sizeof want,
             "referee: judge 'python3 judge.py': %s is out of reach of uid 65534 (nobody), who "
             "runs the judge of a referee run as root: mode 0700, owner uid 0; give others "
             "search (chmod o+x %s)\n", dir, dir);
    cr_assert_eq(r.status, EXIT_JUDGE_FAILED, "exit %d: %s%s", r.status, r.out, r.err);
    cr_assert_str_eq(r.err, want);
    e2e_run_free(&r);
    e2e_run(&r, dir, NULL, "referee", "match", "--judge", "python3 judge.py", "--judge-sandbox",
            "none", "--engine", a, "--engine", a, "--games", "2", NULL);
    cr_assert(r.status == 0 && strstr(r.out, "Score of "), "trusted: exit %d: %s%s", r.status,
              r.out, r.err);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}
