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
 * Where the referee has a cgroup root for its moves (it does not say
 * "accounting: process"), each sandboxed judge runs in a cgroup of its own
 * under that root, named arena-..., which is gone once the run is (the
 * judge says where it is held: its /proc/self/cgroup); a trusted judge, and
 * a judge where there is no root (nobody's), run in the referee's cgroup.
 * A judge over its memory limit (JUDGE_MEM_MB, limits.h) stops the run,
 * exit 4, its failure naming the limit.
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
#include "arena/limits.h"
#include "e2e_util.h"

#define NOBODY 65534
#define NOBODY_TEXT "65534"
#define JUDGE_PATH "/usr/bin:/bin"
#define EXIT_JUDGE_FAILED 4
#define CMD_MAX (3 * PATH_MAX)
#define CG_LINE_MAX 4096
/* What a referee without a cgroup root says before its first game
 * (preflight_accounting). */
#define NO_CGROUPS "accounting: process: "

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

/* hog_mb: the memory (MB) it holds when first asked "moves"; 0: none. */
static void hostile_open(struct hostile *h, const struct listener *l, struct who who, int hog_mb)
{
    char script[PATH_MAX], rules[PATH_MAX], engine[PATH_MAX];
    e2e_repo_path("tests/engines/hostile_judge.py", script, sizeof script);
    e2e_repo_path("docs/judges", rules, sizeof rules);
    e2e_engine_bin_path("engine", engine, sizeof engine);
    snprintf(h->tag, sizeof h->tag, "jb%ld%s", (long)getpid(), who.nobody ? "n" : "r");
    snprintf(h->cmd, sizeof h->cmd, "python3 %s %s %s %s", script, rules, h->tag, l->port);
    if (hog_mb)
        snprintf(h->cmd + strlen(h->cmd), sizeof h->cmd - strlen(h->cmd), " %d", hog_mb);
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

/* Whether the options of the mount's options list (comma-separated) hold
 * word. */
static int has_option(const char *opts, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = opts; p; p = strchr(p, ','), p = p ? p + 1 : NULL)
        if (strncmp(p, word, n) == 0 && (p[n] == ',' || p[n] == '\0'))
            return 1;
    return 0;
}

/* Where the hierarchy of ctrl is mounted ("pids": cgroup v1's; "": the
 * unified one, cgroup2) into buf; "" when it is not. */
static void cgroup_mount(const char *ctrl, char *buf, size_t cap)
{
    char dev[256], mnt[PATH_MAX], type[64], opts[1024];
    buf[0] = '\0';
    FILE *f = fopen("/proc/self/mounts", "r");
    cr_assert_not_null(f, "/proc/self/mounts: %s", strerror(errno));
    while (!buf[0] && fscanf(f, "%255s %4095s %63s %1023s %*[^\n]\n", dev, mnt, type, opts) == 4)
        if (ctrl[0] ? strcmp(type, "cgroup") == 0 && has_option(opts, ctrl)
                    : strcmp(type, "cgroup2") == 0)
            snprintf(buf, cap, "%s", mnt);
    fclose(f);
}

/* Whether a cgroup's name is a move's or a judge's, arena-OWNER-...; not
 * the leaf a v2 referee may move itself into, arena-referee-PID
 * (cgroup.h), where a trusted judge would be with it. */
static int referees_own(const char *name)
{
    return strncmp(name, "arena-", 6) == 0 && strncmp(name, "arena-referee-", 14) != 0;
}

/* The cgroup of ctrl ("pids", or "" for the unified hierarchy) in text, the
 * lines of a /proc/PID/cgroup joined by spaces, into path; arena: only one
 * a referee made for a move or a judge (referees_own). 0, or -1 when there
 * is none. */
static int cgroup_of(const char *text, const char *ctrl, int arena, char *path, size_t cap)
{
    char copy[CG_LINE_MAX], *save;
    snprintf(copy, sizeof copy, "%s", text);
    for (char *w = strtok_r(copy, " \n", &save); w; w = strtok_r(NULL, " \n", &save)) {
        char *c = strchr(w, ':'), *p = c ? strchr(c + 1, ':') : NULL;
        if (!p)
            continue;
        *p = '\0';
        const char *base = strrchr(p + 1, '/');
        if (strcmp(c + 1, ctrl) == 0 && base && (!arena || referees_own(base + 1))) {
            snprintf(path, cap, "%s", p + 1);
            return 0;
        }
    }
    return -1;
}

/* The test's own cgroup of ctrl (the referee's, which it inherits). */
static void own_cgroup(const char *ctrl, char *path, size_t cap)
{
    size_t len;
    char *text = e2e_slurp("/proc/self/cgroup", &len);
    cr_assert_not_null(text);
    int rc = cgroup_of(text, ctrl, 0, path, cap);
    free(text);
    cr_assert_eq(rc, 0, "the test has no cgroup of '%s'", ctrl);
}

/* One start of the judge said it was held as report (its "cgroup" line):
 * with cgroups (want), in a cgroup of its own, arena-..., right under the
 * referee's root (v1: the referee's own cgroup, the test's; v2: that or
 * the root's folder, /arena) and gone now the run is; without, in none a
 * referee made. Looked for in the pids hierarchy (v1), else the unified
 * one (v2). */
static void assert_cgroup(const char *report, int want, const char *what)
{
    char path[PATH_MAX], own[PATH_MAX], mnt[PATH_MAX], dir[2 * PATH_MAX];
    const char *ctrl = "pids";
    int in = cgroup_of(report, ctrl, 1, path, sizeof path) == 0 ||
             cgroup_of(report, ctrl = "", 1, path, sizeof path) == 0;
    cr_assert_eq(in, want, "%s: the judge is%s in a cgroup of its own: %s", what,
                 in ? "" : " not", report);
    if (!in)
        return;
    own_cgroup(ctrl, own, sizeof own);
    char parent[PATH_MAX];
    snprintf(parent, sizeof parent, "%.*s", (int)(strrchr(path, '/') - path), path);
    if (!parent[0])
        strcpy(parent, "/");
    if (ctrl[0])
        cr_assert_str_eq(parent, own, "%s: the judge's cgroup %s is not in the referee's", what,
                         path);
    else
        cr_assert(strcmp(parent, "/arena") == 0 || strncmp(parent, own, strlen(own)) == 0,
                  "%s: the judge's cgroup %s is not under the referee's root (%s)", what, path,
                  own);
    cgroup_mount(ctrl, mnt, sizeof mnt);
    cr_assert(mnt[0], "%s: no hierarchy '%s' mounted for %s", what, ctrl, path);
    snprintf(dir, sizeof dir, "%s%s", mnt, path);
    cr_assert_neq(access(dir, F_OK), 0, "%s: the judge's cgroup %s is left after the run", what,
                  dir);
}

/* Every start of the judge in run r said where it was held (assert_cgroup);
 * want: the referee has cgroups. */
static void assert_cgroups(const struct hostile *h, const struct e2e_run *r, int want,
                           const char *what)
{
    char head[128], report[CG_LINE_MAX];
    snprintf(head, sizeof head, "hostile_judge %s: cgroup: ", h->tag);
    int n = 0;
    for (const char *p = strstr(r->err, head); p; p = strstr(p + 1, head), n++) {
        p += strlen(head);
        snprintf(report, sizeof report, "%.*s", (int)strcspn(p, "\n"), p);
        assert_cgroup(report, want, what);
    }
    cr_assert_gt(n, 0, "%s: the judge never said where it is held:\n%s", what, r->err);
}

/* Every start of the judge in run r (what: the command, for messages) was
 * held: /etc/shadow and the network refused, its grandchild gone with the
 * referee, nothing at the listener; with cgroups (the referee has a root
 * for its moves), in a cgroup of its own, gone with the run. */
static void assert_held(const struct hostile *h, struct listener *l, const struct e2e_run *r,
                        int cgroups, const char *what)
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
    assert_cgroups(h, r, cgroups, what);
}

ParameterizedTest(struct who *who, e2e_judgebox, a_hostile_judge_is_held_in_its_sandbox,
                  .timeout = 240)
{
    char *dir = place_open(*who);
    struct listener l;
    listen_local(&l);
    struct hostile h;
    hostile_open(&h, &l, *who, 0);
    struct e2e_run r;
    const char *match[] = { "match", "--judge", h.cmd, "--engine", h.engine, "--engine",
                            h.engine, "--games", "2", "--log", "m.json", NULL };
    referee(&r, dir, *who, match);
    cr_assert_eq(r.status, 0, "match: exit %d: %s%s", r.status, r.out, r.err);
    /* Where the referee has cgroups for its moves, its judges have theirs. */
    int cgroups = !strstr(r.err, NO_CGROUPS);
    assert_held(&h, &l, &r, cgroups, "match");
    e2e_run_free(&r);
    /* Each worker starts its own judge, in a sandbox of its own. */
    const char *tournament[] = { "tournament", "--judge", h.cmd, "--engine", h.engine,
                                 "--engine", h.engine, "--concurrency", "2", "--journal",
                                 "t.jsonl", NULL };
    referee(&r, dir, *who, tournament);
    cr_assert(r.status == 0 && strstr(r.out, "Standings after 2 games\n"),
              "tournament: exit %d: %s%s", r.status, r.out, r.err);
    assert_held(&h, &l, &r, cgroups, "tournament");
    e2e_run_free(&r);
    const char *verify[] = { "verify", "--judge", h.cmd, "t.jsonl", NULL };
    referee(&r, dir, *who, verify);
    cr_assert(r.status == 0 && strstr(r.out, " moves replayed: consistent\n"),
              "verify: exit %d: %s%s", r.status, r.out, r.err);
    assert_held(&h, &l, &r, cgroups, "verify");
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
    hostile_open(&h, &l, *who, 0);
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
    assert_cgroups(&h, &r, 0, "--judge-sandbox none");   /* the referee's, as before */
    e2e_run_free(&r);
    close(l.fd);
    e2e_rmdir(dir);
}

/* A judge that holds more memory than a judge may (JUDGE_MEM_MB) when it
 * is first asked "moves": the run stops, exit status 4, its last words the
 * judge's failure naming its memory limit; its cgroup and its grandchild
 * are gone. Where the referee has no cgroups the judge has no such limit:
 * skipped. */
#define HOG_OVER_MB 64
Test(e2e_judgebox, a_judge_over_its_memory_limit_stops_the_run_naming_it, .timeout = 120)
{
    struct who root = { 0 };
    char *dir = place_open(root);
    struct listener l;
    listen_local(&l);
    struct hostile h;
    hostile_open(&h, &l, root, JUDGE_MEM_MB + HOG_OVER_MB);
    struct e2e_run r;
    const char *match[] = { "match", "--judge", h.cmd, "--engine", h.engine, "--engine",
                            h.engine, "--games", "2", "--log", "m.json", NULL };
    referee(&r, dir, root, match);
    int left = e2e_process_kill(h.sleeper);
    close(l.fd);
    e2e_rmdir(dir);
    if (strstr(r.err, NO_CGROUPS)) {
        e2e_run_free(&r);
        cr_skip_test("the referee has no cgroups here");
    }
    char want[CMD_MAX + 256];
    snprintf(want, sizeof want, "referee: judge '%s': was killed by its memory limit (%d MB for "
             "all its processes together) before answering \"moves\"\n", h.cmd, JUDGE_MEM_MB);
    size_t n = strlen(want);
    cr_assert_eq(r.status, EXIT_JUDGE_FAILED, "exit %d: %s%s", r.status, r.out, r.err);
    cr_assert(r.err_len >= n && strcmp(r.err + r.err_len - n, want) == 0,
              "stderr does not end with\n%s:\n%s", want, r.err);
    assert_cgroups(&h, &r, 1, "match");
    cr_assert_eq(left, 0, "%d of the judge's setsid grandchildren outlived the referee", left);
    e2e_run_free(&r);
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
