/*
 * test_e2e_gradetime.c - `referee grade`'s limits are CPU time, so a busy
 * machine changes no grade (docs/grading.md, "Time limits"): a class
 * graded quiet and again beside a busy process per core gets the same
 * grades.csv; a move starved of CPU is run again, then left not graded
 * (exit status 3) until a --resume grades it, while an engine that sleeps
 * fails on the wall guard at once; an engine past its CPU limit fails with
 * the limit named; a cpu check times legal moves only, and a check's
 * prerequisites ("requires") take its points from an engine that does not
 * meet them.
 *
 * The busy processes are this test's children, killed when it ends
 * (PR_SET_PDEATHSIG covers a test that fails on an assertion).
 */
#define _GNU_SOURCE
#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "e2e_util.h"

#define BURNERS_MAX 64
/* Resumes beside the burners of a busy run left partly not graded. */
#define BUSY_RESUMES 2

/* dir/class: the named submissions of tests/grade/FROM. */
static void make_class(const char *dir, const char *from, const char *const *names)
{
    char path[PATH_MAX + 16];
    snprintf(path, sizeof path, "%s/class", dir);
    cr_assert_eq(mkdir(path, 0755), 0, "mkdir %s", path);
    for (; *names; names++) {
        char rel[128], name[128];
        snprintf(rel, sizeof rel, "tests/grade/%s/%s", from, *names);
        snprintf(name, sizeof name, "class/%s", *names);
        e2e_copy_repo(rel, dir, name);
    }
}

/* referee grade of dir/class by rubric (a path in the repository) into
 * dir/OUT, two at a time; extra: one more argument or NULL. */
static void grade(struct e2e_run *r, const char *dir, const char *rubric, const char *out,
                  const char *extra)
{
    char path[PATH_MAX];
    e2e_repo_path(rubric, path, sizeof path);
    e2e_run(r, dir, NULL, "referee", "grade", "--rubric", path, "--submissions", "class",
            "--out", out, "--concurrency", "2", extra, NULL);
}

/* A process that computes until killed, on CPU `cpu` (-1: any), dying
 * with this one. */
static pid_t burner(int cpu)
{
    pid_t pid = fork();
    cr_assert_geq(pid, 0, "fork");
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, (long)SIGKILL, 0L, 0L, 0L);
        if (cpu >= 0) {
            cpu_set_t set;
            CPU_ZERO(&set);
            CPU_SET(cpu, &set);
            sched_setaffinity(0, sizeof set, &set);
        }
        for (volatile unsigned long n = 0;; n++)
            ;
    }
    return pid;
}

static void stop_burners(pid_t *pid, int n)
{
    for (int i = 0; i < n; i++) {
        kill(pid[i], SIGKILL);
        waitpid(pid[i], NULL, 0);
    }
}

/* Grades dir/class by load.json into dir/OUT. Beside the burners (pid, n)
 * and whatever else runs (other cases, valgrind), a move may be starved on
 * every try: its check is then not graded (exit 3), never failed, and
 * --resume grades it, as a teacher would run it: up to BUSY_RESUMES times
 * beside the burners, then once more without them (they are stopped). */
static void grade_until_graded(struct e2e_run *r, const char *dir, const char *out, pid_t *pid,
                               int n)
{
    grade(r, dir, "tests/grade/time/load.json", out, NULL);
    for (int k = 0; r->status == 3 && k <= BUSY_RESUMES; k++) {
        if (k == BUSY_RESUMES)
            stop_burners(pid, n), n = 0;
        e2e_run_free(r);
        grade(r, dir, "tests/grade/time/load.json", out, "--resume");
    }
    stop_burners(pid, n);
}

/* The hidden-class promise: the same grades on a quiet machine and beside
 * one busy process per core; a starved move may leave a check not graded
 * until a --resume, never give it another grade. The class: a correct
 * alpha-beta, a random mover, one that never answers, one whose every
 * answer is illegal. Limits are CPU time (800 ms a move, a cpu check at
 * 800 ms); alpha-beta uses about 300 ms a move at depth 6, which a
 * wall-time limit failed once the machine was busy. */
Test(e2e_gradetime, a_busy_machine_gives_the_same_grades, .timeout = 600)
{
    char *dir = e2e_tmpdir();
    static const char *const names[] = { "alphabeta", "random", "loop", NULL };
    make_class(dir, "class", names);
    e2e_copy_repo("tests/grade/time/class/illegal", dir, "class/illegal");
    struct e2e_run quiet, busy;
    grade_until_graded(&quiet, dir, "quiet", NULL, 0);
    cr_assert_eq(quiet.status, 0, "quiet: exit %d: %s", quiet.status, quiet.err);
    pid_t pid[BURNERS_MAX];
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    n = n < 1 ? 1 : n > BURNERS_MAX ? BURNERS_MAX : n;
    for (int i = 0; i < n; i++)
        pid[i] = burner(-1);
    grade_until_graded(&busy, dir, "busy", pid, (int)n);
    cr_assert_eq(busy.status, 0, "busy: exit %d: %s%s", busy.status, busy.out, busy.err);
    char *a = e2e_slurp_at(dir, "quiet/grades.csv"), *b = e2e_slurp_at(dir, "busy/grades.csv");
    cr_expect_str_eq(b, a, "grades.csv beside %ld busy processes:\n%s\nquiet:\n%s", n, b, a);
    /* Not a vacuous equality: alpha-beta earned every point, the loop
     * none, each of its moves stopped at its CPU limit. */
    cr_expect_not_null(strstr(a, "\r\nalphabeta,100,100,20,40,40,"), "grades.csv:\n%s", a);
    cr_expect_not_null(strstr(a, "\r\nloop,0,100,0,0,0,"), "grades.csv:\n%s", a);
    /* A cpu check times legal moves only: fast illegal answers fail it. */
    cr_expect_not_null(strstr(a, "\r\nillegal,0,100,0,0,0,"), "grades.csv:\n%s", a);
    char *journal = e2e_slurp_at(dir, "busy/journal.jsonl");
    cr_expect_not_null(strstr(journal, "cpu-limit: its processes used 800 ms of CPU time "
                                       "together, its limit"), "the loop's reason:\n%s", journal);
    free(journal);
    free(a);
    free(b);
    e2e_run_free(&quiet);
    e2e_run_free(&busy);
    e2e_rmdir(dir);
}

/* Starved (it runs at the lowest priority on a CPU a busy process holds),
 * a move is tried three times, then its check is left not graded: exit
 * status 3, no journal line, an empty cell. Resumed on a quiet machine, it
 * is graded. An engine that sleeps waits for no CPU: its timeout is its
 * own, at the first try. */
Test(e2e_gradetime, a_starved_move_waits_for_resume_a_sleeping_one_fails, .timeout = 300)
{
    char *dir = e2e_tmpdir();
    static const char *const names[] = { "starve", "sleeper", NULL };
    make_class(dir, "time/class", names);
    pid_t pid = burner(0);
    struct e2e_run r;
    grade(&r, dir, "tests/grade/time/starve.json", "out", NULL);
    stop_burners(&pid, 1);
    cr_assert_eq(r.status, 3, "exit %d: %s%s", r.status, r.out, r.err);
    cr_expect_not_null(strstr(r.out, "starve: check legal not graded: the machine was too busy "
                                     "for its moves (3 tries); grade --resume grades it\n"),
                       "stdout:\n%s", r.out);
    cr_expect_not_null(strstr(r.out, "\n1 check not graded: the machine was too busy for their "
                                     "moves; run the same command with --resume to grade them\n"),
                       "stdout:\n%s", r.out);
    char *csv = e2e_slurp_at(dir, "out/grades.csv");
    cr_expect_not_null(strstr(csv, "\r\nstarve,0,10,,"), "grades.csv:\n%s", csv);
    cr_expect_not_null(strstr(csv, "\r\nsleeper,0,10,0,"), "grades.csv:\n%s", csv);
    free(csv);
    char *journal = e2e_slurp_at(dir, "out/journal.jsonl");
    cr_expect_null(strstr(journal, "\"id\":\"starve\""), "journal:\n%s", journal);
    cr_expect_not_null(strstr(journal, "timeout: no answer within 5000 ms of wall time, the "
                                       "guard against an engine that sleeps or hangs (its CPU "
                                       "limit: 400 ms)"), "the sleeper's reason:\n%s", journal);
    free(journal);
    e2e_run_free(&r);
    grade(&r, dir, "tests/grade/time/starve.json", "out", "--resume");
    cr_assert_eq(r.status, 0, "resume: exit %d: %s%s", r.status, r.out, r.err);
    csv = e2e_slurp_at(dir, "out/grades.csv");
    cr_expect_not_null(strstr(csv, "\r\nstarve,10,10,10,"), "grades.csv:\n%s", csv);
    cr_expect_not_null(strstr(csv, "\r\nsleeper,0,10,0,"), "grades.csv:\n%s", csv);
    free(csv);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

/* With "requires", the speed points go to an engine that plays best
 * moves: the random mover's fast legal moves earn none, and its output
 * says why and what it would have had. */
Test(e2e_gradetime, speed_points_need_the_prerequisite, .timeout = 300)
{
    char *dir = e2e_tmpdir();
    char path[PATH_MAX + 32];
    make_class(dir, "class", (const char *const[]){ "alphabeta", "random", NULL });
    struct e2e_run r;
    grade(&r, dir, "tests/grade/time/requires.json", "out", NULL);
    cr_assert_eq(r.status, 0, "exit %d: %s%s", r.status, r.out, r.err);
    char *csv = e2e_slurp_at(dir, "out/grades.csv");
    cr_expect_not_null(strstr(csv, "\r\nalphabeta,50,50,30,20,"), "grades.csv:\n%s", csv);
    free(csv);
    snprintf(path, sizeof path, "%s/out/random", dir);
    cJSON *j = e2e_read_json(path, "results.json");
    const cJSON *speed = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "tests"), 1);
    const char *out = cJSON_GetStringValue(cJSON_GetObjectItem(speed, "output"));
    cr_expect_eq(cJSON_GetNumberValue(cJSON_GetObjectItem(speed, "score")), 0);
    static const char want[] = "no points: it requires minimax at 80% or more; minimax "
                               "scored 75% (without that: 20; median CPU per move at depth 4: ";
    cr_expect(out && strncmp(out, want, strlen(want)) == 0, "random's speed output: %s", out);
    cJSON_Delete(j);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}
