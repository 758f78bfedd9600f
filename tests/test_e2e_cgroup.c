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
 * Also: a root fork bomb without a sandbox (no RLIMIT_NPROC for root) is
 * held by pids.max; and where no cgroup can be had the referee says so
 * before the first game and journals "accounting": "process".
 *
 * The referee runs in a cgroup of the test's own (cgroup v1: cpuacct,
 * memory and pids, as on this project's machines; the test is skipped
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
#define NCTRL 3
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
static const char *const ctrl[NCTRL] = { "cpuacct", "memory", "pids" };

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
 * cgroup, owned by uid. */
struct test_cg {
    char dir[NCTRL][PATH_MAX];
};

static void test_cg_make(struct test_cg *t, uid_t uid)
{
    char own[NCTRL][PATH_MAX] = { "", "", "" };
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
        if (geteuid() != 0 || access(mount, W_OK) != 0)
            cr_skip_test("needs root and cgroup v1's %s at " CG_MOUNT "/%s", ctrl[i], ctrl[i]);
        int len = snprintf(t->dir[i], PATH_MAX, CG_MOUNT "/%s%s/e2e-cgroup-%ld", ctrl[i],
                           own[i], (long)getpid());
        cr_assert(len < PATH_MAX, "cgroup path too long: %s", own[i]);
        cr_assert(mkdir(t->dir[i], 0755) == 0 || errno == EEXIST, "mkdir %s: %s", t->dir[i],
                  strerror(errno));
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

/* Asserts that t holds no process and no cgroup, then removes it. */
static void test_cg_check_and_remove(struct test_cg *t, const char *what)
{
    for (int i = 0; i < NCTRL; i++) {
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
            /* The kind: a limit's reason names the limit after ": ". */
            size_t kind = strlen(want_status);
            cr_assert(strncmp(status, want_status, kind) == 0 &&
                          (status[kind] == '\0' || status[kind] == ':'),
                      "%s: the tree's move: %s", what, status);
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
    /* Into the test's cgroup, then (nobody) the user's ids. */
    const char *via[] = { "sh", "-c",
                          "echo $$ > \"$1/cgroup.procs\" && echo $$ > \"$2/cgroup.procs\" && "
                          "echo $$ > \"$3/cgroup.procs\" && shift 3 && exec \"$@\"",
                          "sh", cg.dir[0], cg.dir[1], cg.dir[2],
                          c->who == NOBODY_USER ? "setpriv" : "env",
                          "--reuid=65534", "--regid=65534", "--clear-groups", NULL };
    if (c->who != NOBODY_USER)
        via[8] = NULL;
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
    const char *via[] = { "sh", "-c",
                          "echo $$ > \"$1/cgroup.procs\" && echo $$ > \"$2/cgroup.procs\" && "
                          "echo $$ > \"$3/cgroup.procs\" && shift 3 && exec \"$@\"",
                          "sh", cg.dir[0], cg.dir[1], cg.dir[2], NULL };
    struct e2e_run r;
    e2e_runv_via(&r, dir, NULL, via, "referee", args);
    cr_assert_eq(r.status, 0, "exit %d: %s%s", r.status, r.out, r.err);
    cr_assert_not_null(strstr(r.out, "Forfeits: none\n"), "%s", r.out);
    cr_assert(!e2e_process_alive(sleepers), "a sleeper is left");
    e2e_run_free(&r);
    test_cg_check_and_remove(&cg, "fork bomb");
    e2e_rmdir(dir);
}
