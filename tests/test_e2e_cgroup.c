/*
 * test_e2e_cgroup.c - each move in a cgroup of its own (cgroup.h,
 * launcher.h) against engines that hide work in their children
 * (tests/engines/tree.py): children that compute and are never reaped are
 * billed (within 10% of what the same work costs when reaped); a chain of
 * four children each burning 0.7 s (CHAIN_S) under --cpu-limit-s 1
 * forfeits `cpu-limit`; four children each holding 300 MiB under --mem-limit-mb 400
 * forfeit `memory-limit`. Each plays a two-game tournament with
 * --concurrency 2 against a sound engine, in the sandbox as root and as an
 * unprivileged user (nobody), and with --sandbox none as root: the opponent
 * plays every move `ok`, and afterwards no process and no cgroup is left.
 * A persistent engine whose children spin after its answer
 * (tests/engines/ponderer.py) against a slow clocked opponent: frozen
 * between its moves, its spinners get next to no CPU in its opponent's
 * turn; with --ponder they get it, and it is billed to its next move.
 * Also: a root fork bomb without a sandbox (no RLIMIT_NPROC for root) is
 * held by pids.max; and where no cgroup can be had the referee says so
 * before the first game and journals "accounting": "process".
 *
 * The referee runs in a cgroup of the test's own (cgroup v1: cpuacct,
 * memory and pids, as on this project's machines, and the freezer where
 * it is mounted; the test is skipped
 * elsewhere or when not root), chown'd to nobody for the unprivileged
 * case, as an administrator delegates a v1 subtree: the referee finds it
 * from /proc/self/cgroup and makes its moves' cgroups inside. That cgroup
 * must hold no process and no child cgroup when the referee is done.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "e2e_util.h"

#define NOBODY 65534
#define SPEC_MAX (4 * PATH_MAX)
#define ENGINE_PATH "/usr/bin:/bin"
#define PERFECT "%s one-move --game nim --player perfect"
#define PLAYS "%s one-move --game nim --player random --seed {player} {in} {out} 1"
#define CG_MOUNT "/sys/fs/cgroup"
#define NCTRL 4
#define NEEDED 3   /* the freezer, the last, may be missing */
/* The unreaped children's work: 4 x 0.2 s. */
#define BURNERS "4"
#define BURN_S "0.2"
#define BILLED_TOLERANCE 0.10
/* Above the tolerance, what the billed move does besides the reference's
 * work, measured at another moment: the engine's move after the burners,
 * and an interpreter's start whose CPU varies with the machine's load (a
 * make test on a fresh clone billed 1038.5 ms for 940.4 ms). Billing the
 * work twice would still be far above it. */
#define BILLED_SLACK_MS 150.0
/* Each link of the chain: under the one second of RLIMIT_CPU each process
 * has, with room: this kernel (6.18) sends a forked child SIGXCPU after
 * 0.8 s of its own CPU under a one-second limit (measured), and a link it
 * stopped would end the attack before the cgroup's limit is tried. */
#define CHAIN_S "0.7"
static const char *const ctrl[NCTRL] = { "cpuacct", "memory", "pids", "freezer" };

enum who { ROOT, NOBODY_USER, ROOT_NO_SANDBOX };
static const char *const who_name[] = { "root", "nobody", "root --sandbox none" };

struct tree_case {
    char attack[16];
    enum who who;
};

ParameterizedTestParameters(e2e_cgroup, whole_tree_billed_and_limited)
{
    static const char *const attacks[] = { "unreaped", "chain", "memory" };
    static struct tree_case cases[9];
    for (int i = 0; i < 9; i++) {
        snprintf(cases[i].attack, sizeof cases[i].attack, "%s", attacks[i / 3]);
        cases[i].who = (enum who)(i % 3);
    }
    return cr_make_param_array(struct tree_case, cases, 9);
}

/* The test's own cgroup of each v1 controller: made under this process's
 * cgroup, owned by uid; the freezer's "" where it is not mounted. */
struct test_cg {
    char dir[NCTRL][PATH_MAX];
    int n;
};

static void test_cg_make(struct test_cg *t, uid_t uid)
{
    char own[NCTRL][PATH_MAX] = { "", "", "", "" };
    memset(t, 0, sizeof *t);
    FILE *f = fopen("/proc/self/cgroup", "r");
    char line[PATH_MAX + 64];
    while (f && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
        if (!c2)
            continue;
        *c2 = '\0';
        for (int i = 0; i < NCTRL; i++)
            if (strcmp(c1 + 1, ctrl[i]) == 0)
                snprintf(own[i], PATH_MAX, "%s", strcmp(c2 + 1, "/") ? c2 + 1 : "");
    }
    if (f)
        fclose(f);
    for (int i = 0; i < NCTRL; i++) {
        char mount[PATH_MAX];
        snprintf(mount, sizeof mount, CG_MOUNT "/%s/cgroup.procs", ctrl[i]);
        if (i >= NEEDED && access(mount, W_OK) != 0)
            break;
        if (geteuid() != 0 || access(mount, W_OK) != 0)
            cr_skip_test("needs root and cgroup v1's %s at " CG_MOUNT "/%s", ctrl[i], ctrl[i]);
        int len = snprintf(t->dir[i], PATH_MAX, CG_MOUNT "/%s%s/e2e-cgroup-%ld", ctrl[i],
                           own[i], (long)getpid());
        cr_assert(len < PATH_MAX, "cgroup path too long: %s", own[i]);
        cr_assert(mkdir(t->dir[i], 0755) == 0 || errno == EEXIST, "mkdir %s: %s", t->dir[i],
                  strerror(errno));
        cr_assert_eq(chown(t->dir[i], uid, uid), 0, "chown %s: %s", t->dir[i], strerror(errno));
        t->n = i + 1;
        /* As an administrator delegates a v1 subtree: the folder and its
         * membership files. */
        for (int k = 0; k < 2; k++) {
            char file[PATH_MAX + 16];
            snprintf(file, sizeof file, "%s/%s", t->dir[i], k ? "tasks" : "cgroup.procs");
            cr_assert_eq(chown(file, uid, uid), 0, "chown %s: %s", file, strerror(errno));
        }
    }
}

/* Into via (NCTRL + 9 entries): a prefix that moves the referee into t's
 * cgroups, then (nobody) gives it nobody's ids. */
static void test_cg_via(const struct test_cg *t, int nobody, const char **via)
{
    static const char enter[] =
        "for d in \"$1\" \"$2\" \"$3\" \"$4\"; do "
        "[ -z \"$d\" ] || echo $$ > \"$d/cgroup.procs\" || exit 125; done; shift 4; exec \"$@\"";
    const char *head[] = { "sh", "-c", enter, "sh", t->dir[0], t->dir[1], t->dir[2], t->dir[3],
                           nobody ? "setpriv" : NULL, "--reuid=65534", "--regid=65534",
                           "--clear-groups", NULL };
    memcpy(via, head, sizeof head);
}

/* Asserts that t holds no process and no cgroup, then removes it. */
static void test_cg_check_and_remove(struct test_cg *t, const char *what)
{
    for (int i = 0; i < t->n; i++) {
        char path[PATH_MAX + 16];
        snprintf(path, sizeof path, "%s/cgroup.procs", t->dir[i]);
        size_t len = 0;
        char *procs = e2e_slurp(path, &len);
        cr_assert(procs && len == 0, "%s: processes left in %s: %s", what, t->dir[i],
                  procs ? procs : "(unreadable)");
        free(procs);
        DIR *d = opendir(t->dir[i]);
        cr_assert_not_null(d);
        struct dirent *de;
        char left[NAME_MAX + 1] = "";
        while ((de = readdir(d)))
            if (de->d_type == DT_DIR && de->d_name[0] != '.')
                snprintf(left, sizeof left, "%s", de->d_name);
        closedir(d);
        cr_assert_str_empty(left, "%s: cgroup %s/%s is left", what, t->dir[i], left);
        cr_assert_eq(rmdir(t->dir[i]), 0, "rmdir %s: %s", t->dir[i], strerror(errno));
    }
}

/* CPU (ms) of `python3 tree.py reaped N S true`, all of it reaped. */
static double reaped_work_ms(const char *tree)
{
    pid_t pid = fork();
    if (pid == 0) {
        execlp("python3", "python3", tree, "reaped", BURNERS, BURN_S, "true", (char *)NULL);
        _exit(127);
    }
    int status;
    struct rusage ru;
    cr_assert_eq(wait4(pid, &status, 0, &ru), pid);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "tree.py reaped: status %d", status);
    return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000.0 +
           (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1000.0;
}

/* Checks every move of the journal: the opponent's all "ok", the tree's
 * all want_status; with work_ms > 0, each of the tree's billed within the
 * tolerance of it. Returns the tree's moves. */
static int check_moves(const char *journal, const char *want_status, double work_ms,
                       const char *what)
{
    char *text = e2e_slurp(journal, NULL);
    cr_assert_not_null(text, "%s: no journal", what);
    int tree_moves = 0;
    char *save = NULL;
    strtok_r(text, "\n", &save);   /* the header */
    for (char *line; (line = strtok_r(NULL, "\n", &save));) {
        cJSON *g = cJSON_Parse(line);
        cr_assert_not_null(g, "%s: a journal line is not JSON: %s", what, line);
        cJSON *m;
        cJSON_ArrayForEach(m, cJSON_GetObjectItem(g, "moves")) {
            const char *eng = cJSON_GetStringValue(cJSON_GetObjectItem(m, "engine"));
            const char *status = cJSON_GetStringValue(cJSON_GetObjectItem(m, "status"));
            double cpu = cJSON_GetNumberValue(cJSON_GetObjectItem(m, "cpu_user_ms")) +
                         cJSON_GetNumberValue(cJSON_GetObjectItem(m, "cpu_sys_ms"));
            if (strcmp(eng, "other") == 0) {
                cr_assert_str_eq(status, "ok", "%s: the opponent's move: %s", what, status);
                continue;
            }
            tree_moves++;
            /* A record keeps the kind in "status" and what happened in
             * "detail": want_status is "KIND: DETAIL", or KIND alone. */
            const char *detail = cJSON_GetStringValue(cJSON_GetObjectItem(m, "detail"));
            const char *colon = strstr(want_status, ": ");
            size_t kind = colon ? (size_t)(colon - want_status) : strlen(want_status);
            cr_assert(strlen(status) == kind && strncmp(status, want_status, kind) == 0,
                      "%s: the tree's move: %s, want %s", what, status, want_status);
            cr_assert(!colon || (detail && strcmp(detail, colon + 2) == 0),
                      "%s: the tree's move's detail: %s, want %s", what, detail ? detail : "none",
                      colon + 2);
            cr_assert(work_ms <= 0 || (cpu >= work_ms * (1 - BILLED_TOLERANCE) &&
                                       cpu <= work_ms * (1 + BILLED_TOLERANCE) + BILLED_SLACK_MS),
                      "%s: billed %.1f ms for %.1f ms of work", what, cpu, work_ms);
        }
        cJSON_Delete(g);
    }
    free(text);
    return tree_moves;
}

ParameterizedTest(struct tree_case *c, e2e_cgroup, whole_tree_billed_and_limited, .timeout = 300)
{
    char what[64];
    snprintf(what, sizeof what, "%s as %s", c->attack, who_name[c->who]);
    struct test_cg cg;
    test_cg_make(&cg, c->who == NOBODY_USER ? NOBODY : 0);
    char *dir = e2e_tmpdir();
    cr_assert_eq(chmod(dir, 0755), 0);
    if (c->who == NOBODY_USER)
        cr_assert_eq(chown(dir, NOBODY, NOBODY), 0);
    setenv("PATH", ENGINE_PATH, 1);
    char engine[PATH_MAX], tree[PATH_MAX], plays[PATH_MAX + 96], perfect[PATH_MAX + 64];
    e2e_limited_bin_path("engine", engine, sizeof engine);
    e2e_repo_path("tests/engines/tree.py", tree, sizeof tree);
    snprintf(plays, sizeof plays, PLAYS, engine);
    snprintf(perfect, sizeof perfect, PERFECT, engine);

    const char *n = "4", *amount = CHAIN_S, *limit_opt = "--cpu-limit-s", *limit = "1";
    const char *want = "cpu-limit: its processes used 1 s of CPU time together (--cpu-limit-s)";
    double work_ms = 0;
    if (strcmp(c->attack, "unreaped") == 0) {
        n = BURNERS, amount = BURN_S, limit_opt = "--cpu-limit-s", limit = "30", want = "ok";
        work_ms = reaped_work_ms(tree);
    } else if (strcmp(c->attack, "memory") == 0) {
        amount = "300", limit_opt = "--mem-limit-mb", limit = "400";
        want = "memory-limit: its processes held more than 400 MB of memory together "
               "(--mem-limit-mb)";
    }
    char spec[SPEC_MAX], other[SPEC_MAX], journal[PATH_MAX + 16];
    snprintf(spec, sizeof spec, "name=tree,cmd=python3 %s %s %s %s %s", tree, c->attack, n,
             amount, plays);
    snprintf(other, sizeof other, "name=other,cmd=%s", perfect);
    snprintf(journal, sizeof journal, "%s/j.jsonl", dir);
    const char *args[] = { "tournament", "--game", "nim", "--random-plies", "2", "--engine", spec,
                           "--engine", other, "--concurrency", "2", "--journal", "j.jsonl",
                           "--timeout-ms", "60000", limit_opt, limit, "--sandbox",
                           c->who == ROOT_NO_SANDBOX ? "none" : "namespaces", NULL };
    const char *via[NCTRL + 9];
    test_cg_via(&cg, c->who == NOBODY_USER, via);
    struct e2e_run r;
    e2e_runv_via(&r, dir, NULL, via, "referee", args);
    int forfeits = strcmp(want, "ok") != 0;
    cr_assert_eq(r.status, forfeits ? 3 : 0, "%s: exit %d: %s%s", what, r.status, r.out, r.err);
    cr_assert_null(strstr(r.err, "accounting: process"), "%s: %s", what, r.err);
    cr_assert_not_null(strstr(r.out, "Standings after 2 games\n"), "%s:\n%s", what, r.out);
    int moves = check_moves(journal, want, work_ms, what);
    cr_assert(forfeits ? moves == 2 : moves >= 2, "%s: the tree moved %d times", what, moves);
    e2e_run_free(&r);
    test_cg_check_and_remove(&cg, what);
    e2e_rmdir(dir);
}

/* Where no cgroup can be had (here: nobody, whose cgroup nobody delegated),
 * the referee says so before the first game, plays, and its journal says
 * "accounting": "process". */
Test(e2e_cgroup, without_a_cgroup_the_referee_says_so)
{
    if (geteuid() != 0)
        cr_skip_test("runs as root (to become nobody)");
    char *dir = e2e_tmpdir();
    cr_assert_eq(chmod(dir, 0755), 0);
    cr_assert_eq(chown(dir, NOBODY, NOBODY), 0);
    setenv("PATH", ENGINE_PATH, 1);
    char engine[PATH_MAX], a[SPEC_MAX], b[SPEC_MAX], journal[PATH_MAX + 16];
    e2e_limited_bin_path("engine", engine, sizeof engine);
    snprintf(a, sizeof a, "name=a,cmd=" PERFECT, engine);
    snprintf(b, sizeof b, "name=b,cmd=" PERFECT, engine);
    snprintf(journal, sizeof journal, "%s/j.jsonl", dir);
    const char *args[] = { "tournament", "--game", "nim", "--engine", a, "--engine", b,
                           "--journal", "j.jsonl", NULL };
    const char *via[] = { "setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", NULL };
    struct e2e_run r;
    e2e_runv_via(&r, dir, NULL, via, "referee", args);
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    const char *say = "referee: accounting: process: cannot make cgroups in ";
    const char *end = ": not writable by this user; a move's CPU is then its own and that of the "
                      "children it reaped, and --cpu-limit-s and --mem-limit-mb hold per process\n";
    cr_assert(strncmp(r.err, say, strlen(say)) == 0 && strstr(r.err, end), "stderr: %s", r.err);
    char *text = e2e_slurp(journal, NULL);
    cr_assert(text && strstr(text, "\"accounting\":\"process\""), "journal: %.400s", text);
    free(text);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

/* A fork bomb (hostile.py's: `sleep` until a start fails, exit 3 past 300)
 * run by a root referee without a sandbox, where RLIMIT_NPROC never
 * applies: the move's pids.max stops it, the engine plays, no sleeper is
 * left. */
Test(e2e_cgroup, pids_max_contains_a_root_fork_bomb, .timeout = 240)
{
    struct test_cg cg;
    test_cg_make(&cg, 0);
    char *dir = e2e_tmpdir();
    setenv("PATH", ENGINE_PATH, 1);
    char engine[PATH_MAX], hostile[PATH_MAX], plays[PATH_MAX + 96], spec[SPEC_MAX];
    char other[SPEC_MAX], tag[32], sleepers[64];
    e2e_limited_bin_path("engine", engine, sizeof engine);
    e2e_repo_path("tests/engines/hostile.py", hostile, sizeof hostile);
    snprintf(plays, sizeof plays, PLAYS, engine);
    snprintf(spec, sizeof spec, "name=bomb,cmd=python3 %s fork-bomb - %s", hostile, plays);
    snprintf(other, sizeof other, "name=other,cmd=" PERFECT, engine);
    snprintf(tag, sizeof tag, "%ld", (long)getpid());
    snprintf(sleepers, sizeof sleepers, "sleep 6095[.]%s", tag);
    setenv("ARENA_TAG", tag, 1);
    const char *args[] = { "tournament", "--game", "nim", "--random-plies", "2", "--engine", spec,
                           "--engine", other, "--concurrency", "2", "--journal", "j.jsonl",
                           "--timeout-ms", "60000", "--sandbox", "none", NULL };
    const char *via[NCTRL + 9];
    test_cg_via(&cg, 0, via);
    struct e2e_run r;
    e2e_runv_via(&r, dir, NULL, via, "referee", args);
    cr_assert_eq(r.status, 0, "exit %d: %s%s", r.status, r.out, r.err);
    cr_assert_not_null(strstr(r.out, "Forfeits: none\n"), "%s", r.out);
    cr_assert(!e2e_process_alive(sleepers), "a sleeper is left");
    e2e_run_free(&r);
    test_cg_check_and_remove(&cg, "fork bomb");
    e2e_rmdir(dir);
}

/* --- an engine runs only in its turn ------------------------------------- */

/* ponderer.py's spinners and its opponent's sleep each turn: long beside
 * what leaks around a freeze, so that the shares below stay apart. */
#define SPINNERS "2"
#define OPPONENT_S "0.6"
/* Frozen, the spinners may still run between the engine's `done` and the
 * freeze, and between the thaw and its reading the request: 2 to 22 ms a
 * turn measured here, under a load of 4 and of 42 on two cores (at most
 * 4% of a 0.3 s turn). */
#define FROZEN_SHARE_MAX 0.06
/* Pondering, two spinners get two cores of a quiet machine; under a load of
 * 42 on two cores they got 0.14 of the wall. */
#define PONDER_SHARE_MIN 0.08
#define BILLED_SHARE_MIN 0.90

struct turn_case {
    enum who who;
    int ponder;
};

ParameterizedTestParameters(e2e_cgroup, a_persistent_engine_runs_only_in_its_turn)
{
    static struct turn_case cases[] = {
        { ROOT, 0 }, { NOBODY_USER, 0 }, { ROOT_NO_SANDBOX, 0 }, { ROOT, 1 },
    };
    return cr_make_param_array(struct turn_case, cases, sizeof cases / sizeof *cases);
}

/* Sums ponderer.py's "out-of-turn CPU_MS WALL_MS" lines of text. */
static int out_of_turn(const char *text, double *cpu_ms, double *wall_ms)
{
    int n = 0;
    *cpu_ms = *wall_ms = 0;
    for (const char *p = text; (p = strstr(p, "out-of-turn ")); p++) {
        double c, w;
        if (sscanf(p, "out-of-turn %lf %lf", &c, &w) == 2) {
            *cpu_ms += c;
            *wall_ms += w;
            n++;
        }
    }
    return n;
}

/* The CPU (ms) billed to engine name's moves in the match log, and the
 * status of every move that is not "ok" into bad (first one). */
static double billed_ms(const char *dir, const char *name, char *bad, size_t cap)
{
    cJSON *log = e2e_read_json(dir, "log.json");
    double sum = 0;
    const cJSON *g, *m;
    bad[0] = '\0';
    cJSON_ArrayForEach(g, cJSON_GetObjectItem(log, "games"))
        cJSON_ArrayForEach(m, cJSON_GetObjectItem(g, "moves")) {
            const char *eng = cJSON_GetStringValue(cJSON_GetObjectItem(m, "engine"));
            const char *status = cJSON_GetStringValue(cJSON_GetObjectItem(m, "status"));
            if (status && strcmp(status, "ok") != 0 && !bad[0])
                snprintf(bad, cap, "%s: %s", eng ? eng : "?", status);
            if (eng && strcmp(eng, name) == 0)
                sum += cJSON_GetNumberValue(cJSON_GetObjectItem(m, "cpu_user_ms")) +
                       cJSON_GetNumberValue(cJSON_GetObjectItem(m, "cpu_sys_ms"));
        }
    cJSON_Delete(log);
    return sum;
}

ParameterizedTest(struct turn_case *c, e2e_cgroup, a_persistent_engine_runs_only_in_its_turn,
                  .timeout = 120)
{
    char what[64];
    snprintf(what, sizeof what, "%s as %s", c->ponder ? "--ponder" : "frozen", who_name[c->who]);
    struct test_cg cg;
    test_cg_make(&cg, c->who == NOBODY_USER ? NOBODY : 0);
    if (cg.n < NCTRL) {
        test_cg_check_and_remove(&cg, what);
        cr_skip_test("no cgroup v1 freezer at " CG_MOUNT "/freezer");
    }
    char *dir = e2e_tmpdir();
    cr_assert_eq(chmod(dir, 0755), 0);
    if (c->who == NOBODY_USER)
        cr_assert_eq(chown(dir, NOBODY, NOBODY), 0);
    setenv("PATH", ENGINE_PATH, 1);
    char engine[PATH_MAX], ponderer[PATH_MAX], slow[PATH_MAX], err[PATH_MAX + 16];
    e2e_limited_bin_path("engine", engine, sizeof engine);
    e2e_repo_path("tests/engines/ponderer.py", ponderer, sizeof ponderer);
    e2e_repo_path("tests/engines/slow.sh", slow, sizeof slow);
    snprintf(err, sizeof err, "%s/err.txt", dir);
    char spec[SPEC_MAX], other[SPEC_MAX];
    snprintf(spec, sizeof spec, "name=ponder,proto=persistent,stderr=%s,cmd=python3 %s " SPINNERS,
             err, ponderer);
    snprintf(other, sizeof other, "name=slow,cmd=%s %s " OPPONENT_S " {in} {out}", slow, engine);
    const char *args[] = { "match", "--game", "nim", "--games", "1", "--random-plies", "2",
                           "--tc", "30+0", "--engine", spec, "--engine", other, "--log",
                           "log.json", "--sandbox",
                           c->who == ROOT_NO_SANDBOX ? "none" : "namespaces",
                           c->ponder ? "--ponder" : NULL, NULL };
    const char *via[NCTRL + 9];
    test_cg_via(&cg, c->who == NOBODY_USER, via);
    struct e2e_run r;
    e2e_runv_via(&r, dir, NULL, via, "referee", args);
    cr_assert_eq(r.status, 0, "%s: exit %d: %s%s", what, r.status, r.out, r.err);
    char *text = e2e_slurp(err, NULL);
    cr_assert_not_null(text, "%s: no %s", what, err);
    double cpu, wall;
    int turns = out_of_turn(text, &cpu, &wall);
    free(text);
    cr_assert(turns >= 2, "%s: %d turns of its opponent's", what, turns);
    char bad[128];
    double billed = billed_ms(dir, "ponder", bad, sizeof bad);
    cr_assert_str_empty(bad, "%s: a move not ok: %s", what, bad);
    if (c->ponder) {
        cr_assert(cpu >= PONDER_SHARE_MIN * wall, "%s: its spinners got %.1f ms of CPU in %.1f ms",
                  what, cpu, wall);
        cr_assert(billed >= BILLED_SHARE_MIN * cpu, "%s: billed %.1f ms for %.1f ms pondered",
                  what, billed, cpu);
    } else {
        cr_assert(cpu <= FROZEN_SHARE_MAX * wall,
                  "%s: its spinners got %.1f ms of CPU in %.1f ms of %d opponent's turns", what,
                  cpu, wall, turns);
    }
    e2e_run_free(&r);
    test_cg_check_and_remove(&cg, what);
    e2e_rmdir(dir);
}
