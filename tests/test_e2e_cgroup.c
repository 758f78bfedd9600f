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
 * held by pids.max; where no cgroup can be had the referee says so
 * before the first game and journals "accounting": "process"; and two
 * games at once each run on CPUs of their own, so that an engine whose
 * children spin on every CPU they can take (tests/engines/tree.py spread)
 * never makes the other game's engine time out.
 *
 * The referee runs in a cgroup of the test's own (cgroup v1: cpuacct,
 * memory and pids, as on this project's machines, and the freezer and the
 * cpuset where they are mounted; the test is skipped
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
#include <sched.h>
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
#define NCTRL 5
#define NEEDED 3   /* the freezer and the cpuset, the last two, may be missing */
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
static const char *const ctrl[NCTRL] = { "cpuacct", "memory", "pids", "freezer", "cpuset" };
enum { FREEZER = 3, CPUSET = 4 };

enum who { ROOT, NOBODY_USER, ROOT_NO_SANDBOX, NOBODY_NO_CGROUP };
static const char *const who_name[] = { "root", "nobody", "root --sandbox none",
                                        "nobody without a cgroup" };

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
 * cgroup, owned by uid; an optional one's (the freezer's, the cpuset's) ""
 * where it is not mounted. */
struct test_cg {
    char dir[NCTRL][PATH_MAX];
};

/* This process's cgroup of each v1 controller, "" at a hierarchy's root. */
static void own_cgroups(char own[NCTRL][PATH_MAX])
{
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
}

/* A v1 cpuset cgroup takes no process until it has CPUs and memory nodes:
 * dir gets its parent's. */
static void cpuset_inherit(const char *dir)
{
    static const char *const file[] = { "cpuset.cpus", "cpuset.mems" };
    for (int k = 0; k < 2; k++) {
        char parent[PATH_MAX + 32], child[PATH_MAX + 32];
        snprintf(parent, sizeof parent, "%s/../%s", dir, file[k]);
        snprintf(child, sizeof child, "%s/%s", dir, file[k]);
        char *value = e2e_slurp(parent, NULL);
        cr_assert_not_null(value, "cannot read %s", parent);
        FILE *f = fopen(child, "w");
        cr_assert(f && fputs(value, f) >= 0 && fclose(f) == 0, "cannot write %s", child);
        free(value);
    }
}

static void test_cg_make(struct test_cg *t, uid_t uid)
{
    char own[NCTRL][PATH_MAX] = { "", "", "", "", "" };
    memset(t, 0, sizeof *t);
    own_cgroups(own);
    for (int i = 0; i < NCTRL; i++) {
        char mount[PATH_MAX];
        snprintf(mount, sizeof mount, CG_MOUNT "/%s/cgroup.procs", ctrl[i]);
        if (i >= NEEDED && access(mount, W_OK) != 0)
            continue;
        if (geteuid() != 0 || access(mount, W_OK) != 0)
            cr_skip_test("needs root and cgroup v1's %s at " CG_MOUNT "/%s", ctrl[i], ctrl[i]);
        int len = snprintf(t->dir[i], PATH_MAX, CG_MOUNT "/%s%s/e2e-cgroup-%ld", ctrl[i],
                           own[i], (long)getpid());
        cr_assert(len < PATH_MAX, "cgroup path too long: %s", own[i]);
        cr_assert(mkdir(t->dir[i], 0755) == 0 || errno == EEXIST, "mkdir %s: %s", t->dir[i],
                  strerror(errno));
        if (i == CPUSET)
            cpuset_inherit(t->dir[i]);
        cr_assert_eq(chown(t->dir[i], uid, uid), 0, "chown %s: %s", t->dir[i], strerror(errno));
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
        "for d in \"$1\" \"$2\" \"$3\" \"$4\" \"$5\"; do "
        "[ -z \"$d\" ] || echo $$ > \"$d/cgroup.procs\" || exit 125; done; shift 5; exec \"$@\"";
    const char *head[] = { "sh", "-c", enter, "sh", t->dir[0], t->dir[1], t->dir[2], t->dir[3],
                           t->dir[4], nobody ? "setpriv" : NULL, "--reuid=65534",
                           "--regid=65534", "--clear-groups", NULL };
    memcpy(via, head, sizeof head);
}

/* Asserts that t holds no process and no cgroup, then removes it. */
static void test_cg_check_and_remove(struct test_cg *t, const char *what)
{
    for (int i = 0; i < NCTRL; i++) {
        if (!t->dir[i][0])
            continue;
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
    e2e_engine_bin_path("engine", engine, sizeof engine);
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
    e2e_engine_bin_path("engine", engine, sizeof engine);
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
    e2e_engine_bin_path("engine", engine, sizeof engine);
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
    if (!cg.dir[FREEZER][0]) {
        test_cg_check_and_remove(&cg, what);
        cr_skip_test("no cgroup v1 freezer at " CG_MOUNT "/freezer");
    }
    char *dir = e2e_tmpdir();
    cr_assert_eq(chmod(dir, 0755), 0);
    if (c->who == NOBODY_USER)
        cr_assert_eq(chown(dir, NOBODY, NOBODY), 0);
    setenv("PATH", ENGINE_PATH, 1);
    char engine[PATH_MAX], ponderer[PATH_MAX], slow[PATH_MAX], err[PATH_MAX + 16];
    e2e_engine_bin_path("engine", engine, sizeof engine);
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

/* --- concurrent games each on CPUs of their own -------------------------- */

/* The spinning engine: as player 1 (game 1 of a match) tree.py spread,
 * SPREADERS children each in a session of its own (so that the
 * scheduler's autogroups give each the share of a whole session) widening
 * their affinity to every CPU, for SPREAD_S, after which it gives up
 * (`false`: its game ends there, a forfeit); as player 2 (game 2) a plain
 * random move. Its words: {player}, tree.py, the engine, {in}, {out}
 * (files the sandbox shows it, being arguments). */
#define SPREADER_SH                                                                         \
    "sh -c 'if [ \"$0\" = 1 ]; then exec python3 \"$1\" spread " SPREADERS " " SPREAD_S   \
    " false; fi; exec \"$2\" one-move --game nim --player random \"$3\" \"$4\" 1' "          \
    "{player} %s %s {in} {out}"
#define SPREAD_S "5"
/* 24 a CPU on two cores (with the engine and what it runs, under the move's
 * pids.max of REF_DEFAULT_PROC_EXTRA, 64). */
#define SPREADERS "48"
/* The honest engine (spin.py) needs 0.05 s of CPU a move, 0.11 s with
 * Python's start; beside 24 spinners on its CPU (no cpusets) about 2.8 s
 * on a machine otherwise idle (a 25th of a CPU), more on a busy one: with
 * 0.2 s a move and a 4 s timeout it timed out at its first move in 3 runs
 * of 3 before the cpusets, under a load of 15 on two cores. The timeout
 * leaves room for a busy machine, whose other work the spinners crowd
 * onto the honest engine's CPU (the scheduler moves what it can off
 * theirs): under valgrind and a load of 18 on two cores its moves took up
 * to 5.7 s of wall time while they ran (their start in the sandbox and
 * Python's at a 20th of a CPU), and 1.2 s after. */
#define HONEST_S "0.05"
#define CPUS_TIMEOUT_MS "10000"

/* The CPUs of a kernel CPU list ("0-3,8") as bits. */
static unsigned long long cpu_bits(const char *list)
{
    unsigned long long bits = 0;
    const char *p = list;
    for (;;) {
        char *end;
        long lo = strtol(p, &end, 10), hi = lo;
        cr_assert(end != p && lo >= 0 && lo < 64, "not a CPU list: %s", list);
        if (*end == '-')
            hi = strtol(end + 1, &end, 10);
        for (long c = lo; c <= hi && c < 64; c++)
            bits |= 1ULL << c;
        if (*end != ',')
            return bits;
        p = end + 1;
    }
}

/* The CPUs named by the `cpus LIST` lines of an engine's stderr= file, by
 * game (its blocks' headers "--- game N, ..."): bits[1] and bits[2]. */
static void cpus_by_game(const char *path, unsigned long long bits[3])
{
    char *text = e2e_slurp(path, NULL);
    cr_assert_not_null(text, "no %s", path);
    int game = 0;
    bits[0] = bits[1] = bits[2] = 0;
    for (char *line = text; line && *line;) {
        int g;
        if (sscanf(line, "--- game %d,", &g) == 1)
            game = g >= 1 && g <= 2 ? g : 0;
        else if (strncmp(line, "cpus ", 5) == 0)
            bits[game] |= cpu_bits(line + 5);
        line = strchr(line, '\n');
        line = line ? line + 1 : NULL;
    }
    free(text);
}

/* How many moves game `game` of the match log has, the first that is not
 * "ok" into bad ("" when none). */
static int moves_of(const char *dir, int game, char *bad, size_t cap)
{
    cJSON *log = e2e_read_json(dir, "log.json");
    const cJSON *m, *g = cJSON_GetArrayItem(cJSON_GetObjectItem(log, "games"), game - 1);
    int n = 0;
    bad[0] = '\0';
    cJSON_ArrayForEach(m, cJSON_GetObjectItem(g, "moves")) {
        const char *eng = cJSON_GetStringValue(cJSON_GetObjectItem(m, "engine"));
        const char *status = cJSON_GetStringValue(cJSON_GetObjectItem(m, "status"));
        n++;
        if (status && strcmp(status, "ok") != 0 && !bad[0])
            snprintf(bad, cap, "ply %d, %s: %s", n, eng ? eng : "?", status);
    }
    cJSON_Delete(log);
    return n;
}

/* One match of two games at once as who: the CPUs that each game's
 * processes reported into game[1] and game[2] (honest[] the honest
 * engine's alone); the referee's run into r. */
static void play_spread(enum who who, struct e2e_run *r, const char *dir,
                        unsigned long long game[3], unsigned long long honest[3])
{
    int nobody = who == NOBODY_USER || who == NOBODY_NO_CGROUP;
    struct test_cg cg;
    memset(&cg, 0, sizeof cg);
    if (who != NOBODY_NO_CGROUP)
        test_cg_make(&cg, nobody ? NOBODY : 0);
    if (who != NOBODY_NO_CGROUP && !cg.dir[CPUSET][0]) {
        test_cg_check_and_remove(&cg, who_name[who]);
        cr_skip_test("no cgroup v1 cpuset at " CG_MOUNT "/cpuset");
    }
    cr_assert_eq(chown(dir, nobody ? NOBODY : 0, nobody ? NOBODY : 0), 0);
    char engine[PATH_MAX], tree[PATH_MAX], spin[PATH_MAX];
    e2e_engine_bin_path("engine", engine, sizeof engine);
    e2e_repo_path("tests/engines/tree.py", tree, sizeof tree);
    e2e_repo_path("tests/engines/spin.py", spin, sizeof spin);
    char hog[SPEC_MAX], fair[SPEC_MAX], hog_err[PATH_MAX + 16], fair_err[PATH_MAX + 16];
    snprintf(hog_err, sizeof hog_err, "%s/hog.txt", dir);
    snprintf(fair_err, sizeof fair_err, "%s/honest.txt", dir);
    unlink(hog_err);
    unlink(fair_err);
    snprintf(hog, sizeof hog, "name=hog,stderr=%s,cmd=" SPREADER_SH, hog_err, tree, engine);
    snprintf(fair, sizeof fair, "name=honest,stderr=%s,cmd=python3 %s " HONEST_S " {in} {out}",
             fair_err, spin);
    const char *args[] = { "match", "--game", "nim", "--games", "2", "--concurrency", "2",
                           "--random-plies", "2", "--timeout-ms", CPUS_TIMEOUT_MS, "--engine",
                           hog, "--engine", fair, "--log", "log.json", "--sandbox",
                           who == ROOT_NO_SANDBOX ? "none" : "namespaces", NULL };
    const char *via[NCTRL + 9];
    static const char *const become[] = { "setpriv", "--reuid=65534", "--regid=65534",
                                          "--clear-groups", NULL };
    if (who != NOBODY_NO_CGROUP)
        test_cg_via(&cg, nobody, via);
    e2e_runv_via(r, dir, NULL, who != NOBODY_NO_CGROUP ? via : become, "referee", args);
    unsigned long long spread[3];
    cpus_by_game(hog_err, spread);
    cpus_by_game(fair_err, honest);
    for (int g = 1; g <= 2; g++)
        game[g] = spread[g] | honest[g];
    if (who != NOBODY_NO_CGROUP)
        test_cg_check_and_remove(&cg, who_name[who]);
}

/* Two games at once (--concurrency 2 on two cores): in game 1 an engine
 * whose move leaves 48 children spinning for 5 s, each on every CPU it can
 * widen its affinity to (tree.py spread), then forfeits; in game 2 an
 * honest engine that needs 0.11 s of CPU a move, and a plain opponent.
 * With a cpuset per game (cgroups: as root, as nobody in a delegated
 * cgroup, without a sandbox) every move of game 2 is ok while game 1's
 * spinners run, and the CPUs the two games' processes report are
 * disjoint. Where no cgroup can be had (nobody, not delegated) the
 * referee says so: the honest engine still runs on its game's CPUs alone
 * (affinity), the spinners widen theirs to the other game's. One case,
 * its runs one after the other: side by side, each run's spinners would
 * take the others' CPUs. */
Test(e2e_cgroup, concurrent_games_each_get_cpus_of_their_own, .timeout = 240)
{
    cpu_set_t mine;
    if (sched_getaffinity(0, sizeof mine, &mine) != 0 || CPU_COUNT(&mine) < 2)
        cr_skip_test("needs two CPUs");
    if (geteuid() != 0)
        cr_skip_test("runs as root (to become nobody)");
    setenv("PATH", ENGINE_PATH, 1);
    static const enum who runs[] = { ROOT, NOBODY_USER, ROOT_NO_SANDBOX, NOBODY_NO_CGROUP };
    for (size_t i = 0; i < sizeof runs / sizeof *runs; i++) {
        const char *what = who_name[runs[i]];
        char *dir = e2e_tmpdir();
        cr_assert_eq(chmod(dir, 0755), 0);
        struct e2e_run r;
        unsigned long long game[3], honest[3];
        play_spread(runs[i], &r, dir, game, honest);
        cr_assert(r.status == 0 || r.status == 3, "%s: exit %d: %s%s", what, r.status, r.out,
                  r.err);
        cr_assert_not_null(strstr(r.out, "Finished game 1 (hog vs honest): 0-1 {hog forfeits "
                                         "at ply 1: "), "%s: %s", what, r.out);
        char bad[128];
        int plies = moves_of(dir, 2, bad, sizeof bad);
        cr_assert(game[1] && honest[2], "%s: CPUs reported: game 1 %#llx, honest %#llx", what,
                  game[1], honest[2]);
        if (runs[i] == NOBODY_NO_CGROUP) {
            cr_assert_not_null(strstr(r.err, "referee: cpus: affinity only: "), "%s: stderr: %s",
                               what, r.err);
            cr_assert(!(game[1] & honest[2]) || (honest[2] & ~game[2]) == 0,
                      "%s: the honest engine left its game's CPUs", what);
            cr_assert(game[1] & honest[2],
                      "%s: the spinners stayed off game 2's CPUs %#llx: %#llx", what, honest[2],
                      game[1]);
        } else {
            cr_assert_null(strstr(r.err, "cpus:"), "%s: %s", what, r.err);
            cr_assert(plies >= 2 && !bad[0], "%s: game 2 has %d plies, one not ok: %s\n%s",
                      what, plies, bad, r.out);
            cr_assert(!(game[1] & game[2]),
                      "%s: game 1's processes ran on CPUs %#llx, game 2's on %#llx", what,
                      game[1], game[2]);
        }
        e2e_run_free(&r);
        e2e_rmdir(dir);
    }
}
