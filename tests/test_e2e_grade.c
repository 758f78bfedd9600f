/*
 * test_e2e_grade.c - `referee grade` end to end on the class of
 * tests/grade/class (ten Max-Connect4 submissions, tests/grade/rubric.json):
 * the grade each gets, check by check, in grades.csv, results.json and the
 * feedback pages; an io rubric for spfiar with a correct and a subtly wrong
 * submission (against the suite's spfiar and against expected files);
 * --resume after a SIGKILL, and shards merged by --resume, give the same
 * grades.csv with nothing graded twice; rubric errors name their line and
 * column and write nothing; docs/rubrics' examples are valid, and each
 * grades its class of tests/grade/examples (a correct program, a random
 * mover, a crasher) as docs/grading.md's tables say.
 *
 * Checks that measure time (cpu) are only asserted where they cannot
 * depend on the machine: a submission that never answers, or never built,
 * gets 0; the Max-Connect4 example's correct engine (bin/maxconnect4: about
 * 10 ms of CPU a move at depth 7, its limit 2000 ms) gets them all.
 */
#define _GNU_SOURCE
#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "e2e_util.h"
#include "referee/report/boardhtml.h"

#define CHECKS 5
static const char *const check_ids[CHECKS] = { "legal", "minimax", "random", "strong", "speed" };
/* How long the killed run may take to journal its first check. */
#define WAIT_MAX_MS 60000
#define POLL_MS 20

/* The class in dir/class (only the submissions named, NULL: all), the
 * neighbour reader told where the others are. */
static void make_class(const char *dir, const char *const *only)
{
    char path[PATH_MAX + 64];
    if (!only) {
        e2e_copy_repo("tests/grade/class", dir, "class");
    } else {
        snprintf(path, sizeof path, "%s/class", dir);
        cr_assert_eq(mkdir(path, 0755), 0);
        for (; *only; only++) {
            char rel[128], name[128];
            snprintf(rel, sizeof rel, "tests/grade/class/%s", *only);
            snprintf(name, sizeof name, "class/%s", *only);
            e2e_copy_repo(rel, dir, name);
        }
    }
    snprintf(path, sizeof path, "%s/class/peek/neighbour.txt", dir);
    FILE *f = fopen(path, "w");
    if (f) {
        fprintf(f, "%s/class/alphabeta\n", dir);
        fclose(f);
    }
}

static void grade(struct e2e_run *r, const char *dir, const char *rubric, const char *extra)
{
    char path[PATH_MAX];
    e2e_repo_path(rubric, path, sizeof path);
    e2e_run(r, dir, NULL, "referee", "grade", "--rubric", path, "--submissions", "class",
            "--out", "out", "--concurrency", "2", extra, NULL);
}

/* One row of grades.csv: id and each check's score, -1 when the file has
 * no such row. */
static void csv_row(const char *csv, const char *id, double score[CHECKS], double *total)
{
    char key[128];
    snprintf(key, sizeof key, "\r\n%s,", id);
    const char *p = strstr(csv, key);
    cr_assert_not_null(p, "no row %s in grades.csv:\n%s", id, csv);
    p += strlen(key);
    double max;
    int n = sscanf(p, "%lf,%lf,%lf,%lf,%lf,%lf,%lf", total, &max, &score[0], &score[1],
                   &score[2], &score[3], &score[4]);
    cr_assert_eq(n, 7, "row %s: %.80s", id, p);
    cr_assert_eq(max, 100, "row %s: max %g", id, max);
}

/* The class graded once: every submission's grade, check by check. */
Test(e2e_grade, the_class_gets_its_grades_check_by_check, .timeout = 300)
{
    char *dir = e2e_tmpdir();
    make_class(dir, NULL);
    struct e2e_run r;
    grade(&r, dir, "tests/grade/rubric.json", NULL);
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    char *csv = e2e_slurp_at(dir, "out/grades.csv");
    cr_assert_eq(strncmp(csv, "submission,total,max,legal,minimax,random,strong,speed,sha256,"
                              "error\r\nalphabeta,", 79), 0, "grades.csv:\n%s", csv);
    double ab[CHECKS], s[CHECKS], total;
    csv_row(csv, "alphabeta", ab, &total);
    /* A correct alpha-beta: every legal and exact answer right, and it
     * reaches the rubric's score against random. */
    cr_expect_eq(ab[0], 10, "alphabeta legal %g", ab[0]);
    cr_expect_eq(ab[1], 30, "alphabeta minimax %g", ab[1]);
    cr_expect_eq(ab[2], 30, "alphabeta random %g", ab[2]);
    /* Plain minimax, CRLF output and the C build play alpha-beta's moves:
     * the same grade on every check that does not measure time. */
    static const char *const same[] = { "minimax", "crlf", "cmake" };
    for (size_t i = 0; i < sizeof same / sizeof *same; i++) {
        csv_row(csv, same[i], s, &total);
        for (int k = 0; k < CHECKS - 1; k++)
            cr_expect_eq(s[k], ab[k], "%s %s: %g, alphabeta %g", same[i], check_ids[k], s[k],
                         ab[k]);
    }
    /* Legal moves, wrong values: no undo, random. */
    static const char *const wrong[] = { "noundo", "random" };
    for (size_t i = 0; i < sizeof wrong / sizeof *wrong; i++) {
        csv_row(csv, wrong[i], s, &total);
        cr_expect_eq(s[0], 10, "%s legal %g", wrong[i], s[0]);
        cr_expect(s[1] > 0 && s[1] < 30, "%s minimax %g (some best moves, not all)", wrong[i],
                  s[1]);
    }
    /* The neighbour reader plays legal moves only while it sees nothing of
     * the others. */
    csv_row(csv, "peek", s, &total);
    cr_expect_eq(s[0], 10, "peek legal %g: it saw a neighbour", s[0]);
    /* Crashes on a full column: every exact position has one. */
    csv_row(csv, "crashfull", s, &total);
    cr_expect(s[0] < 10 && s[1] == 0 && s[2] == 0, "crashfull: legal %g minimax %g random %g",
              s[0], s[1], s[2]);
    char *page = e2e_slurp_at(dir, "out/crashfull/feedback.html");
    cr_expect_not_null(strstr(page, "exit-status 1"), "crashfull's reason");
    cr_expect_not_null(strstr(page, "ValueError: column"), "crashfull's stderr");
    /* Its boards: left for the page's one board drawing (boardhtml.h),
     * which draws cells of the classes the page's style rules dress. */
    cr_expect_not_null(strstr(page, "<div class=\"drawn\" data-game=\"maxconnect4\" "
                                    "data-layout=\"grid\" data-board=\"0"),
                       "crashfull: no board to draw");
    cr_expect_not_null(strstr(page, BOARDHTML_SCRIPT "boardFill(document);"),
                       "crashfull: no board drawing");
    cr_expect_not_null(strstr(page, ".maxconnect4 td.c49{background:"), "no rule for c49");
    cr_expect_not_null(strstr(page, ".maxconnect4 td.c50{background:"), "no rule for c50");
    cr_expect_not_null(strstr(page, ".board td{"), "no rule for the board's cells");
    /* Its first game forfeited at its first move after the opening. */
    static const char forfeit[] = "game 1, as player 1, opening 4 6 7 4 4 6 7 4 2 6 3 5 4 4 "
                                  "3 2 5 6 6 7 1 1 3 1: lost, forfeited at ply 25: exit-status 1";
    cr_expect_not_null(strstr(page, forfeit), "crashfull: no \"%s\"", forfeit);
    cr_expect_not_null(strstr(page, "<p class=\"caption\">the position it forfeited at "
                                    "(ply 25): exit-status 1</p>"), "crashfull: the caption");
    free(page);
    /* A game won or drawn is captioned as finished, never as forfeited. */
    page = e2e_slurp_at(dir, "out/alphabeta/feedback.html");
    cr_expect_not_null(strstr(page, "<p class=\"caption\">final position (after ply "),
                       "alphabeta: no final position");
    cr_expect_null(strstr(page, "forfeit"), "alphabeta's page speaks of a forfeit");
    free(page);
    /* Never answers, never builds: nothing. */
    static const char *const none[] = { "loop", "cbroken" };
    for (size_t i = 0; i < sizeof none / sizeof *none; i++) {
        csv_row(csv, none[i], s, &total);
        cr_expect_eq(total, 0, "%s total %g", none[i], total);
    }
    page = e2e_slurp_at(dir, "out/loop/feedback.html");
    cr_expect_not_null(strstr(page, "cpu-limit: its processes used 1500 ms of CPU time "
                                    "together, its limit"), "loop's feedback names its limit");
    free(page);
    /* The build's failure is its row's error: make's exit status. */
    cr_expect_not_null(strstr(csv, ",the build failed: exit-status 2\r\n"), "grades.csv:\n%s",
                       csv);
    page = e2e_slurp_at(dir, "out/cbroken/feedback.html");
    cr_expect_not_null(strstr(page, "build: <b>failed</b>"), "cbroken: build failed");
    cr_expect_not_null(strstr(page, "missing_name"), "cbroken: the compiler's error");
    free(page);
    page = e2e_slurp_at(dir, "out/cmake/feedback.html");
    cr_expect_not_null(strstr(page, "from its ENGINE file"), "cmake: the ENGINE file said");
    cr_expect_not_null(strstr(page, "build: <b>ok</b>"), "cmake: built");
    free(page);
    /* It would have said so on its stderr. */
    char *journal = e2e_slurp_at(dir, "out/journal.jsonl");
    cr_expect_null(strstr(journal, "saw "), "peek saw a neighbour's files");
    free(journal);
    free(csv);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

/* Gradescope's format: score, and a test per check in the rubric's order. */
Test(e2e_grade, results_json_is_gradescopes_format, .timeout = 120)
{
    char *dir = e2e_tmpdir();
    static const char *const only[] = { "alphabeta", "loop", NULL };
    make_class(dir, only);
    struct e2e_run r;
    grade(&r, dir, "tests/grade/rubric.json", NULL);
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    char path[PATH_MAX + 16];
    snprintf(path, sizeof path, "%s/out/loop", dir);
    cJSON *j = e2e_read_json(path, "results.json");
    cr_assert_eq(cJSON_GetNumberValue(cJSON_GetObjectItem(j, "score")), 0);
    const cJSON *tests = cJSON_GetObjectItem(j, "tests"), *t;
    cr_assert_eq(cJSON_GetArraySize(tests), CHECKS);
    static const double points[CHECKS] = { 10, 30, 30, 20, 10 };
    int k = 0;
    cJSON_ArrayForEach(t, tests) {
        cr_expect_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(t, "name")), check_ids[k]);
        cr_expect_eq(cJSON_GetNumberValue(cJSON_GetObjectItem(t, "max_score")), points[k]);
        cr_expect_eq(cJSON_GetNumberValue(cJSON_GetObjectItem(t, "score")), 0);
        cr_expect(cJSON_IsString(cJSON_GetObjectItem(t, "output")), "test %d has no output", k);
        k++;
    }
    /* Each test's output names the failures' reasons, plies and positions. */
    const char *out = cJSON_GetStringValue(cJSON_GetObjectItem(cJSON_GetArrayItem(tests, 2),
                                                               "output"));
    static const char forfeit[] = "lost, forfeited at ply 25: cpu-limit: its processes used "
                                  "1500 ms of CPU time together, its limit\n"
                                  "the position it forfeited at (ply 25): cpu-limit: ";
    cr_expect_not_null(strstr(out, forfeit), "random's output:\n%s", out);
    out = cJSON_GetStringValue(cJSON_GetObjectItem(cJSON_GetArrayItem(tests, 0), "output"));
    cr_expect_not_null(strstr(out, "position 1 (ply 40): no move (cpu-limit: its processes "
                                   "used 1500 ms of CPU time together, its limit)\nthe position "
                                   "(ply 40):\n"), "legal's output:\n%s", out);
    out = cJSON_GetStringValue(cJSON_GetObjectItem(cJSON_GetArrayItem(tests, 4), "output"));
    cr_expect_not_null(strstr(out, "\ndepth 1: 2 of 2 moves failed: cpu-limit 2"),
                       "speed's output:\n%s", out);
    cJSON_Delete(j);
    char *index = e2e_slurp_at(dir, "out/index.html");
    cr_expect_not_null(strstr(index, "<a href=\"alphabeta/feedback.html\">alphabeta</a>"),
                       "index links alphabeta's feedback");
    /* alphabeta's 100 has a bar of its own, loop's 0 the lowest: each
     * labelled with its range and its count. */
    cr_expect_not_null(strstr(index, "<rect class=\"bin\" data-count=\"1\" data-range=\"100\""),
                       "no bar of 1 at 100:\n%s", index);
    cr_expect_not_null(strstr(index, ">100</text>"), "no label 100");
    cr_expect_not_null(strstr(index, "<rect class=\"bin\" data-count=\"1\" data-range=\"0-9\""),
                       "no bar of 1 at 0-9");
    cr_expect_not_null(strstr(index, "data-range=\"90-99\""), "no bar 90-99");
    cr_expect_null(strstr(index, "data-count=\"2\""), "a bar of both:\n%s", index);
    /* Each of loop's scores says why it is 0. */
    cr_expect_not_null(strstr(index, "<td class=\"none\" title=\"0 of 3 positions answered "
                                     "with a legal move\">0<small class=\"why\">cpu-limit (3)"
                                     "</small></td>"), "loop's legal cell:\n%s", index);
    free(index);
    /* The CPU chart marks the depth whose moves failed, not a time of 0. */
    char *page = e2e_slurp_at(dir, "out/loop/feedback.html");
    cr_expect_not_null(strstr(page, "<text class=\"failed\""), "no failed depth drawn");
    cr_expect_not_null(strstr(page, "<td class=\"none\">failed</td>"), "no failed row");
    cr_expect_not_null(strstr(page, ">depth</text>"), "no depth axis");
    cr_expect_not_null(strstr(page, "CPU ms per move (median)</text>"), "no CPU axis");
    free(page);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

static void sleep_ms(long ms)
{
    struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

static long lines_of(const char *path)
{
    char *text = e2e_slurp(path, NULL);
    long n = 0;
    for (const char *p = text; p && (p = strchr(p, '\n')); p++)
        n++;
    free(text);
    return n;
}

/* Killed (SIGKILL, its whole process group) once the journal holds a check,
 * then resumed: the same grades.csv as a run never stopped, and each
 * (submission, check) once in the journal. The same class graded in two
 * shards, then merged by a resume that grades nothing: the same again. */
Test(e2e_grade, resume_after_sigkill_gives_the_same_grades, .timeout = 300)
{
    char *dir = e2e_tmpdir();
    static const char *const only[] = { "alphabeta", "random", "noundo", NULL };
    make_class(dir, only);
    char referee[PATH_MAX], rubric[PATH_MAX], journal[PATH_MAX + 32];
    e2e_bin_path("referee", referee, sizeof referee);
    e2e_repo_path("tests/grade/rubric.json", rubric, sizeof rubric);
    snprintf(journal, sizeof journal, "%s/out/journal.jsonl", dir);
    fflush(NULL);
    pid_t pid = fork();
    cr_assert_neq(pid, -1);
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        if (setpgid(0, 0) != 0 || chdir(dir) != 0 || null < 0)
            _exit(127);
        dup2(null, STDOUT_FILENO);
        execl(referee, referee, "grade", "--rubric", rubric, "--submissions", "class", "--out",
              "out", (char *)NULL);
        _exit(127);
    }
    int waited = 0;
    while (lines_of(journal) < 3 && waited < WAIT_MAX_MS) {
        sleep_ms(POLL_MS);
        waited += POLL_MS;
    }
    kill(-pid, SIGKILL);
    int status;
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    /* Its workers hold the journal's lock until they are gone too: the
     * group is dead only once kill(-pid, 0) finds no one. */
    for (waited = 0; kill(-pid, 0) == 0 && waited < WAIT_MAX_MS; waited += POLL_MS)
        sleep_ms(POLL_MS);
    long before = lines_of(journal);
    cr_assert(before >= 3 && before < 1 + 3 * CHECKS, "killed with %ld lines journaled", before);
    struct e2e_run r;
    grade(&r, dir, "tests/grade/rubric.json", "--resume");
    cr_assert_eq(r.status, 0, "resume: exit %d: %s", r.status, r.err);
    cr_expect_eq(lines_of(journal), 1 + 3 * CHECKS, "the journal has each check once");
    char *resumed = e2e_slurp_at(dir, "out/grades.csv");
    e2e_run_free(&r);
    /* The same class, never stopped: the reference, run natively even in
     * the valgrind tier, which checks the same code in the resume above
     * and the shards below (a whole class graded under valgrind is a
     * minute of CPU). */
    char fresh[PATH_MAX + 16];
    snprintf(fresh, sizeof fresh, "%s/fresh", dir);
    cr_assert_eq(mkdir(fresh, 0755), 0);
    make_class(fresh, only);
    e2e_run_tool(&r, fresh, NULL, referee, "grade", "--rubric", rubric, "--submissions", "class",
                 "--out", "out", "--concurrency", "2", NULL);
    cr_assert_eq(r.status, 0, "fresh: exit %d: %s", r.status, r.err);
    char *whole = e2e_slurp_at(fresh, "out/grades.csv");
    cr_expect_str_eq(resumed, whole, "resumed:\n%s\nnever stopped:\n%s", resumed, whole);
    free(resumed);
    e2e_run_free(&r);
    /* In two shards (a job array's tasks), then merged by a resume. */
    char sharded[PATH_MAX + 16];
    snprintf(sharded, sizeof sharded, "%s/sharded", dir);
    cr_assert_eq(mkdir(sharded, 0755), 0);
    make_class(sharded, only);
    static const char *const shards[] = { "--shard=2/2", "--shard=1/2", "--resume" };
    for (int i = 0; i < 3; i++) {
        if (i)
            e2e_run_free(&r);
        grade(&r, sharded, "tests/grade/rubric.json", shards[i]);
        cr_assert_eq(r.status, 0, "%s: exit %d: %s", shards[i], r.status, r.err);
    }
    char path[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/out/journal.jsonl", sharded);
    cr_expect_eq(lines_of(path), 1, "the merge graded again: %ld lines", lines_of(path));
    char *merged = e2e_slurp_at(sharded, "out/grades.csv");
    cr_expect_str_eq(merged, whole, "sharded:\n%s\nnever stopped:\n%s", merged, whole);
    free(merged);
    free(whole);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

/* An io rubric for spfiar: the suite's own program passes every input, one
 * that writes "disk" for "disc" fails each input where the computer moves,
 * and the feedback shows the first differing line, both sides. */
Test(e2e_grade, io_checks_compare_with_the_reference_and_expected_files, .timeout = 120)
{
    char *dir = e2e_tmpdir();
    char path[PATH_MAX + 64], spfiar[PATH_MAX];
    e2e_bin_path("spfiar", spfiar, sizeof spfiar);
    snprintf(path, sizeof path, "%s/class", dir);
    cr_assert_eq(mkdir(path, 0755), 0);
    e2e_copy_repo("tests/grade/io", dir, "io");
    static const char *const ids[] = { "correct", "subtle" };
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/class/%s", dir, ids[i]);
        cr_assert_eq(mkdir(path, 0755), 0);
        struct e2e_run c;
        e2e_run_tool(&c, path, NULL, "cp", spfiar, i ? "real-spfiar" : "spfiar", NULL);
        cr_assert_eq(c.status, 0, "cp: %s", c.err);
        e2e_run_free(&c);
    }
    e2e_copy_repo("tests/grade/io/subtle/spfiar", dir, "class/subtle/spfiar");
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "referee", "grade", "--rubric", "io/rubric.json", "--submissions",
            "class", "--out", "out", NULL);
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    char *csv = e2e_slurp_at(dir, "out/grades.csv");
    cr_expect_not_null(strstr(csv, "submission,total,max,reference,expected,sha256,error\r\n"
                                   "correct,20,20,10,10,"), "grades.csv:\n%s", csv);
    cr_expect_not_null(strstr(csv, "\r\nsubtle,10,20,5,5,"), "grades.csv:\n%s", csv);
    char *page = e2e_slurp_at(dir, "out/subtle/feedback.html");
    cr_expect_not_null(strstr(page, "Computer move: add disc to column"), "the wanted line");
    cr_expect_not_null(strstr(page, "Computer move: add disk to column"), "the given line");
    free(page);
    free(csv);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

/* "proto": "persistent": docs/persistent's engine, staying for each check,
 * gets the grade its file twin (the same moves, a process a move) gets. */
Test(e2e_grade, a_persistent_engine_gets_its_file_twins_grade, .timeout = 300)
{
    char *dir = e2e_tmpdir();
    char path[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/class", dir);
    cr_assert_eq(mkdir(path, 0755), 0);
    e2e_copy_repo("tests/grade/persistent/twin", dir, "class/twin");
    char *csv[2];
    static const char *const proto[2] = { "file", "persistent" };
    for (int i = 0; i < 2; i++) {
        char rubric[64], out[16];
        snprintf(rubric, sizeof rubric, "tests/grade/persistent/%s.json", proto[i]);
        snprintf(out, sizeof out, "out-%s", proto[i]);
        e2e_repo_path(rubric, path, sizeof path);
        struct e2e_run r;
        e2e_run(&r, dir, NULL, "referee", "grade", "--rubric", path, "--submissions", "class",
                "--out", out, NULL);
        cr_assert_eq(r.status, 0, "%s: exit %d: %s", proto[i], r.status, r.err);
        e2e_run_free(&r);
        snprintf(path, sizeof path, "%s/grades.csv", out);
        csv[i] = e2e_slurp_at(dir, path);
    }
    cr_expect_str_eq(csv[1], csv[0], "persistent:\n%s\nfile:\n%s", csv[1], csv[0]);
    /* centre-first: every move legal, two of the four exact, beats random */
    cr_expect_not_null(strstr(csv[0], "\r\ntwin,55,70,10,15,30,"), "grades.csv:\n%s", csv[0]);
    for (int i = 0; i < 2; i++)
        free(csv[i]);
    e2e_rmdir(dir);
}

/* A bad rubric: the message at its line and column, exit 2, no OUT. */
struct bad_rubric {
    char text[320];
    char message[128];   /* after "rubric.json:" */
};

static struct bad_rubric bad_rubrics[] = {
    { "{\"game\": \"chess\", \"engine\": \"x\", \"checks\": []}",
      "1:10: unknown game \"chess\"" },
    { "{\"game\": \"nim\", \"engine\": \"x\",\n \"colour\": 1, \"checks\": []}",
      "2:2: unknown key \"colour\"" },
    { "{\"game\": \"nim\", \"engine\": \"x\", \"checks\": [\n"
      "  {\"id\": \"a\", \"kind\": \"legal\", \"points\": 1, \"positions\": 2, \"depth\": 2},\n"
      "  {\"id\": \"b\", \"kind\": \"guess\", \"points\": 1}]}",
      "3:23: unknown kind \"guess\" (legal, exact, match, cpu, io)" },
    { "{\"game\": \"maxconnect4\", \"engine\": \"x\", \"checks\": [\n"
      "  {\"id\": \"m\", \"kind\": \"match\", \"points\": 1, \"opponent\": \"stockfish\",\n"
      "   \"games\": 2, \"min_score\": 0.5, \"depth\": 2}]}",
      "2:57: unknown opponent \"stockfish\" (random, alphabeta:D, minimax:D, perfect)" },
    { "{\"game\": \"maxconnect4\", \"engine\": \"x\", \"checks\": [\n"
      "  {\"id\": \"m\", \"kind\": \"match\", \"points\": 1, \"opponent\": \"perfect\",\n"
      "   \"games\": 2, \"min_score\": 0.5, \"depth\": 2}]}",
      "2:57: opponent \"perfect\": game maxconnect4 has no perfect player" },
    { "{\"game\": \"nim\", \"engine\": \"x\", \"checks\": [\n"
      "  {\"id\": \"a\", \"kind\": \"legal\", \"points\": 1, \"positions\": 2, \"max_ms\": 5}]}",
      "2:61: unknown key \"max_ms\" in a legal check" },
    { "{\"game\": \"nim\", \"engine\": \"x\", \"checks\": [\n"
      "  {\"id\": \"a\", \"kind\": \"legal\", \"points\": 1, \"positions\": 2}]}",
      "2:3: missing key \"depth\"" },
    { "{\"game\": \"nim\", \"engine\": \"x\", \"checks\": [\n"
      "  {\"id\": \"a\", \"kind\": \"legal\", \"points\": 1, \"positions\": 0, \"depth\": 2}]}",
      "2:58: \"positions\" must be a whole number from 1 to 1000" },
    { "{\"game\": \"nim\", \"engine\": \"x\", \"checks\": [\n"
      "  {\"id\": \"a\", \"kind\": \"legal\", \"points\": 1, \"positions\": 1, \"depth\": 2},\n"
      "  {\"id\": \"a\", \"kind\": \"exact\", \"points\": 1, \"positions\": 1, \"depth\": 2}]}",
      "3:10: two checks have the id \"a\"" },
    { "{\"checks\": [{\"id\": \"s\", \"kind\": \"io\", \"points\": 1, \"cmd\": \"./s\",\n"
      "  \"inputs\": \"*.json\", \"reference\": \"gcc\"}]}",
      "2:36: unknown reference \"gcc\" (spfiar, checkers, nim, maxconnect4)" },
    { "{\"checks\": [{\"id\": \"l\", \"kind\": \"legal\", \"points\": 1, \"positions\": 1, "
      "\"depth\": 1}]}",
      "1:33: a legal check needs the rubric's \"game\" and \"engine\"" },
    { "{\"game\": \"nim\", \"engine\": \"x\", \"proto\": \"uci\", \"checks\": []}",
      "1:41: \"proto\" must be \"file\" or \"persistent\", got \"uci\"" },
    { "{\"game\": \"nim\", \"checks\": [1]", "1:30: not valid JSON" },
    { "{\"game\": \"nim\", \"checks\": [{\"id\": \"s\", \"kind\": \"io\", \"points\": 1,\n"
      "  \"cmd\": \"./s\", \"inputs\": \"*.json\", \"reference\": \"nim\"}]}",
      "1:2: \"game\" and \"engine\" go together (both, or neither for a rubric of io checks)" },
    { "{\"game\": \"nim\", \"engine\": \"x\", \"checks\": [\n"
      "  {\"id\": \"a\", \"kind\": \"legal\", \"points\": 1, \"positions\": 1, \"depth\": 2,\n"
      "   \"requires\": {\"b\": 0.5}},\n"
      "  {\"id\": \"b\", \"kind\": \"legal\", \"points\": 1, \"positions\": 1, \"depth\": 2}]}",
      "3:16: \"requires\": \"b\" is not the id of a check before this one" },
    { "{\"game\": \"nim\", \"engine\": \"x\", \"checks\": [\n"
      "  {\"id\": \"a\", \"kind\": \"legal\", \"points\": 1, \"positions\": 1, \"depth\": 2},\n"
      "  {\"id\": \"b\", \"kind\": \"legal\", \"points\": 1, \"positions\": 1, \"depth\": 2,\n"
      "   \"requires\": {\"a\": 1.5}}]}",
      "4:16: \"requires\": the share of \"a\" must be a number above 0 and at most 1" },
    { "{\"game\": \"nim\", \"engine\": \"x\", \"checks\": [\n"
      "  {\"id\": \"a\", \"kind\": \"legal\", \"points\": 1, \"positions\": 1, \"depth\": 2,\n"
      "   \"requires\": [\"a\"]}]}",
      "3:16: \"requires\" must be an object of check ids and shares, e.g. {\"minimax\": 0.8}" },
    { "{\"game\": \"nim\", \"engine\": \"x\", \"checks\": [\n"
      "  {\"id\": \"a\", \"kind\": \"legal\", \"points\": 1, \"positions\": 2, \"depth\": 2,\n"
      "   \"visibility\": \"secret\"}]}",
      "3:18: \"visibility\" must be \"hidden\", \"after_due_date\", \"after_published\" or "
      "\"visible\", got \"secret\"" },
    { "{\"game\": \"nim\", \"engine\": \"x\", \"visibility\": \"Hidden\", \"checks\": []}",
      "1:46: \"visibility\" must be \"hidden\", \"after_due_date\", \"after_published\" or "
      "\"visible\", got \"Hidden\"" },
};

ParameterizedTestParameters(e2e_grade, a_bad_rubric_is_refused_at_its_place)
{
    return cr_make_param_array(struct bad_rubric, bad_rubrics,
                               sizeof bad_rubrics / sizeof *bad_rubrics);
}

ParameterizedTest(struct bad_rubric *b, e2e_grade, a_bad_rubric_is_refused_at_its_place)
{
    char *dir = e2e_tmpdir();
    char path[PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/rubric.json", dir);
    FILE *f = fopen(path, "w");
    cr_assert(f && fputs(b->text, f) >= 0 && fclose(f) == 0);
    snprintf(path, sizeof path, "%s/class/x", dir);
    char cls[PATH_MAX + 32];
    snprintf(cls, sizeof cls, "%s/class", dir);
    cr_assert_eq(mkdir(cls, 0755) || mkdir(path, 0755), 0);
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "referee", "grade", "--rubric", "rubric.json", "--submissions",
            "class", "--out", "out", NULL);
    char want[512];
    snprintf(want, sizeof want, "rubric.json:%s\n", b->message);
    cr_expect_eq(r.status, 2, "exit %d", r.status);
    cr_expect_str_eq(r.err, want);
    snprintf(path, sizeof path, "%s/out", dir);
    cr_expect_not(e2e_exists(path), "out was made");
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

/* docs/rubrics' examples are rubrics the referee takes: with a file for each
 * of their globs, the run goes past the rubric and stops at the empty class
 * folder. */
struct example {
    char name[32];
};

static struct example examples[] = {
    { "maxconnect4" }, { "spfiar" }, { "checkers" }, { "nim" }, { "qlearning-connect4" },
};

ParameterizedTestParameters(e2e_grade, the_example_rubrics_are_valid)
{
    return cr_make_param_array(struct example, examples, sizeof examples / sizeof *examples);
}

/* Makes dir/pattern with its '*' as "a", and its folders. */
static void make_glob_file(const char *dir, const char *pattern)
{
    char path[PATH_MAX];
    int n = snprintf(path, sizeof path, "%s/", dir);
    for (const char *p = pattern; *p && n < (int)sizeof path - 2; p++) {
        if (*p == '/') {
            path[n] = '\0';
            mkdir(path, 0755);
        }
        path[n++] = *p == '*' ? 'a' : *p;
    }
    path[n] = '\0';
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f, "cannot make %s", path);
    fclose(f);
}

/* The rubric (rel under dir) is taken: grading an empty class folder with
 * it goes past the rubric and stops there. */
static void assert_rubric_taken(const char *dir, const char *rel)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/class", dir);
    cr_assert_eq(mkdir(path, 0755), 0);
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "referee", "grade", "--rubric", rel, "--submissions", "class", "--out",
            "out", NULL);
    cr_expect_eq(r.status, 2, "exit %d", r.status);
    cr_expect_str_eq(r.err, "referee: --submissions class: no submission folder in it\n");
    e2e_run_free(&r);
}

ParameterizedTest(struct example *x, e2e_grade, the_example_rubrics_are_valid)
{
    char *dir = e2e_tmpdir();
    char rel[64], path[PATH_MAX + 32];
    snprintf(rel, sizeof rel, "docs/rubrics/%s.json", x->name);
    e2e_repo_path(rel, path, sizeof path);
    char *text = e2e_slurp(path, NULL);
    cJSON *root = cJSON_Parse(text);
    cr_assert_not_null(root, "%s is not JSON", rel);
    const cJSON *check;
    cJSON_ArrayForEach(check, cJSON_GetObjectItem(root, "checks")) {
        static const char *const globs[] = { "inputs", "expected" };
        for (int k = 0; k < 2; k++)
            if (cJSON_GetStringValue(cJSON_GetObjectItem(check, globs[k])))
                make_glob_file(dir, cJSON_GetStringValue(cJSON_GetObjectItem(check, globs[k])));
    }
    cJSON_Delete(root);
    snprintf(path, sizeof path, "%s/rubric.json", dir);
    FILE *f = fopen(path, "w");
    cr_assert(f && fputs(text, f) >= 0 && fclose(f) == 0);
    free(text);
    assert_rubric_taken(dir, "rubric.json");
    e2e_rmdir(dir);
}

/* docs/rubrics' examples graded as they are, each on a class of three in
 * tests/grade/examples/NAME (with the io checks' inputs beside it): a
 * correct program (the suite's own binaries, copied in), a random mover and
 * a crasher. Their grades.csv, but for the sha256 column (it hashes the
 * copied binaries), is what docs/grading.md's tables say each scores. */
struct example_class {
    char name[32];
    /* What the test copies into the class: "SUBMISSION/FILE=PROG", PROG a
     * binary of ARENA_ENGINE_BIN, or "SUBMISSION/FILE=@REL", REL a file of
     * the repository; separated by spaces. */
    char copies[160];
    char csv[320];     /* grades.csv without its sha256 column, LF line ends */
    char crash[48];    /* in the crasher's journal lines: how it failed */
};

static struct example_class example_classes[] = {
    { "maxconnect4", "correct/maxconnect4=maxconnect4 random/engine=engine",
      "submission,total,max,minimax,alpha-beta,depth-limited,error\n"
      "correct,100,100,35,35,30,\n"
      "crash,0,100,0,0,0,\n"
      "random,37.58,100,19.25,0,18.33,\n",
      "exit-status 1" },
    { "spfiar", "correct/SPFIAR=spfiar",
      "submission,total,max,sessions,course-tests,error\n"
      "correct,100,100,70,30,\n"
      "crash,0,100,0,0,\n"
      "random,0,100,0,0,\n",
      "exit-status 139" },
    { "checkers", "correct/checkers=checkers random/real-checkers=checkers random/engine=engine",
      "submission,total,max,stage0,stage1,stage2,error\n"
      "correct,100,100,60,20,20,\n"
      "crash,0,100,0,0,0,\n"
      "random,60,100,60,0,0,\n",
      "exit-status 139" },
    { "nim", "correct/nim=nim",
      "submission,total,max,you-first,computer-first,error\n"
      "correct,100,100,50,50,\n"
      "crash,0,100,0,0,\n"
      "random,0,100,0,0,\n",
      "exit-status 139" },
    { "qlearning-connect4",
      "correct/engine=engine correct/trained.weights=@fixtures/learn/trained.weights "
      "random/engine=engine",
      "submission,total,max,legal,endgames,beats-random,against-search,error\n"
      "correct,100,100,10,30,40,20,\n"
      "crash,0,100,0,0,0,0,\n"
      "random,44.28,100,10,16.5,17.78,0,\n",
      "exit-status 1" },
};

ParameterizedTestParameters(e2e_grade, each_example_rubric_grades_a_correct_a_random_and_a_crasher)
{
    return cr_make_param_array(struct example_class, example_classes,
                               sizeof example_classes / sizeof *example_classes);
}

/* csv (CRLF line ends) without its next to last column (sha256), with LF
 * line ends. */
static char *without_sha256(const char *csv)
{
    char *out = malloc(strlen(csv) + 1);
    cr_assert_not_null(out);
    size_t n = 0;
    for (const char *line = csv; *line;) {
        const char *end = strstr(line, "\r\n");
        const char *next = end ? end + 2 : line + strlen(line);
        if (!end)
            end = next;
        const char *comma[2] = { line, line };   /* the last two */
        for (const char *p = line; p < end; p++)
            if (*p == ',') {
                comma[0] = comma[1];
                comma[1] = p;
            }
        memcpy(out + n, line, (size_t)(comma[0] - line));
        n += (size_t)(comma[0] - line);
        memcpy(out + n, comma[1], (size_t)(end - comma[1]));
        n += (size_t)(end - comma[1]);
        out[n++] = '\n';
        line = next;
    }
    out[n] = '\0';
    return out;
}

ParameterizedTest(struct example_class *x, e2e_grade,
                  each_example_rubric_grades_a_correct_a_random_and_a_crasher, .timeout = 600)
{
    char *dir = e2e_tmpdir();
    char rel[64], path[PATH_MAX + 64], from[PATH_MAX];
    snprintf(rel, sizeof rel, "tests/grade/examples/%s", x->name);
    e2e_copy_repo(rel, dir, x->name);
    snprintf(rel, sizeof rel, "docs/rubrics/%s.json", x->name);
    snprintf(path, sizeof path, "%s/rubric.json", x->name);
    e2e_copy_repo(rel, dir, path);
    char copies[sizeof x->copies];
    snprintf(copies, sizeof copies, "%s", x->copies);
    for (char *save, *c = strtok_r(copies, " ", &save); c; c = strtok_r(NULL, " ", &save)) {
        char *eq = strchr(c, '=');
        cr_assert_not_null(eq, "%s: copy \"%s\" has no '='", x->name, c);
        *eq = '\0';
        if (eq[1] == '@')
            e2e_repo_path(eq + 2, from, sizeof from);
        else
            e2e_engine_bin_path(eq + 1, from, sizeof from);
        snprintf(path, sizeof path, "%s/%s/class/%s", dir, x->name, c);
        struct e2e_run cp;
        e2e_run_tool(&cp, dir, NULL, "cp", from, path, NULL);
        cr_assert_eq(cp.status, 0, "%s: cp %s: %s", x->name, from, cp.err);
        e2e_run_free(&cp);
    }
    /* The rubrics' python3 is the system's: a pyenv shim found first in
     * PATH would cost each move a second on a busy machine. */
    setenv("PATH", "/usr/local/bin:/usr/bin:/bin", 1);
    char rubric[64], cls[64];
    snprintf(rubric, sizeof rubric, "%s/rubric.json", x->name);
    snprintf(cls, sizeof cls, "%s/class", x->name);
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "referee", "grade", "--rubric", rubric, "--submissions", cls, "--out",
            "out", "--concurrency", "2", NULL);
    cr_assert_eq(r.status, 0, "%s: exit %d: %s", x->name, r.status, r.err);
    char *csv = e2e_slurp_at(dir, "out/grades.csv");
    char *got = without_sha256(csv);
    cr_expect_str_eq(got, x->csv, "%s: grades.csv (its sha256 column left out) is\n%swant\n%s",
                     x->name, got, x->csv);
    /* The crasher's every check failed for the crash, not a failed build. */
    char *journal = e2e_slurp_at(dir, "out/journal.jsonl");
    int lines = 0;
    for (char *line = journal, *nl; (nl = strchr(line, '\n')); line = nl + 1) {
        *nl = '\0';
        if (!strstr(line, "{\"submission\":{\"id\":\"crash\""))
            continue;
        lines++;
        cr_expect_not_null(strstr(line, x->crash), "%s: the crasher's line has no \"%s\": %.300s",
                           x->name, x->crash, line);
    }
    cr_expect_gt(lines, 0, "%s: no journal line of the crasher", x->name);
    free(journal);
    free(got);
    free(csv);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

/* An io check's globs may be absolute (a course's tests outside the rubric's
 * folder): they match as they are, not under the rubric's folder. */
Test(e2e_grade, an_absolute_glob_matches_where_it_points)
{
    char *dir = e2e_tmpdir();
    char path[PATH_MAX + 64], rubric[3 * PATH_MAX];
    make_glob_file(dir, "course/t*.in");
    make_glob_file(dir, "course/t*.out");
    snprintf(rubric, sizeof rubric,
             "{\"checks\": [{\"id\": \"s\", \"kind\": \"io\", \"points\": 1, \"cmd\": \"./s\",\n"
             "  \"inputs\": \"%s/course/*.in\", \"expected\": \"%s/course/*.out\"}]}", dir, dir);
    snprintf(path, sizeof path, "%s/rules", dir);
    cr_assert_eq(mkdir(path, 0755), 0);
    snprintf(path, sizeof path, "%s/rules/rubric.json", dir);
    FILE *f = fopen(path, "w");
    cr_assert(f && fputs(rubric, f) >= 0 && fclose(f) == 0);
    assert_rubric_taken(dir, "rules/rubric.json");
    e2e_rmdir(dir);
}

/* ---- regrading (--only) and the self-check (--submission) ---------------- */

#define VISIBILITY_RUBRIC "tests/grade/visibility/rubric.json"
/* alphabeta's files: its sha256, and its row of grades.csv by the rubric
 * of visibilities (legal visible, secret hidden, tardy after the due date
 * by the rubric's default). */
#define ALPHABETA_SHA "3ed787e755c94c6d6b87df2b54f371074bcba1ac39d1f7105fd1431aa125ae83"
#define ALPHABETA_ROW "45,45,10,30,5," ALPHABETA_SHA ",\r\n"

/* referee grade --rubric VISIBILITY_RUBRIC in dir with args (NULL-terminated). */
static void grade_args(struct e2e_run *r, const char *dir, const char *const *args)
{
    char rubric[PATH_MAX];
    e2e_repo_path(VISIBILITY_RUBRIC, rubric, sizeof rubric);
    const char *argv[16] = { "grade", "--rubric", rubric };
    int n = 3;
    for (int i = 0; args[i]; i++)
        argv[n++] = args[i];
    argv[n] = NULL;
    e2e_runv(r, dir, NULL, "referee", argv);
}

/* alphabeta and random graded into dir/out by the rubric of visibilities. */
static void grade_pair(const char *dir)
{
    static const char *const only[] = { "alphabeta", "random", NULL };
    make_class(dir, only);
    static const char *const args[] = { "--submissions", "class", "--out", "out", NULL };
    struct e2e_run r;
    grade_args(&r, dir, args);
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    e2e_run_free(&r);
}

static ino_t inode_at(const char *dir, const char *rel)
{
    char path[PATH_MAX + 128];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", dir, rel);
    cr_assert_eq(stat(path, &st), 0, "%s: %s", path, strerror(errno));
    return st.st_ino;
}

/* Every file of dir/out, hidden ones too, with its SHA-256. */
static char *out_snapshot(const char *dir)
{
    struct e2e_run r;
    e2e_run_tool(&r, dir, NULL, "sh", "-c",
                 "cd out && ls -AR && find . -type f | LC_ALL=C sort | xargs sha256sum", NULL);
    cr_assert_eq(r.status, 0, "snapshot: %s", r.err);
    char *text = r.out;
    r.out = NULL;
    e2e_run_free(&r);
    return text;
}

/* The teacher's run carries each check's visibility into results.json: its
 * own, or the rubric's default. */
Test(e2e_grade, results_json_carries_each_checks_visibility, .timeout = 60)
{
    char *dir = e2e_tmpdir();
    grade_pair(dir);
    char path[PATH_MAX + 16];
    snprintf(path, sizeof path, "%s/out/alphabeta", dir);
    cJSON *j = e2e_read_json(path, "results.json");
    static const char *const names[] = { "legal", "secret", "tardy" };
    static const char *const seen[] = { "visible", "hidden", "after_due_date" };
    const cJSON *tests = cJSON_GetObjectItem(j, "tests"), *t;
    cr_assert_eq(cJSON_GetArraySize(tests), 3);
    int k = 0;
    cJSON_ArrayForEach(t, tests) {
        cr_expect_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(t, "name")), names[k]);
        cr_expect_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(t, "visibility")), seen[k]);
        k++;
    }
    cJSON_Delete(j);
    e2e_rmdir(dir);
}

/* --only random after random's files changed (now alphabeta's): its journal
 * lines replaced (the journal keeps its length, random's lines last), its
 * row of grades.csv and its files rewritten, alphabeta's lines and files
 * untouched. */
Test(e2e_grade, only_regrades_the_named_submission_and_nothing_else, .timeout = 60)
{
    char *dir = e2e_tmpdir();
    grade_pair(dir);
    char journal[PATH_MAX + 32], path[PATH_MAX + 64];
    snprintf(journal, sizeof journal, "%s/out/journal.jsonl", dir);
    cr_assert_eq(lines_of(journal), 1 + 2 * 3);
    char *before = e2e_slurp_at(dir, "out/journal.jsonl");
    ino_t kept[2] = { inode_at(dir, "out/alphabeta/results.json"),
                      inode_at(dir, "out/alphabeta/feedback.html") };
    ino_t redone[2] = { inode_at(dir, "out/random/results.json"),
                        inode_at(dir, "out/index.html") };
    snprintf(path, sizeof path, "%s/class/random/engine.py", dir);
    cr_assert_eq(unlink(path), 0);
    e2e_copy_repo("tests/grade/class/alphabeta/engine.py", dir, "class/random/engine.py");
    struct e2e_run r;
    static const char *const args[] = { "--submissions", "class", "--out", "out", "--only",
                                        "random", NULL };
    grade_args(&r, dir, args);
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    cr_expect_eq(strncmp(r.out, "random: 45 of 45 points\n", 24), 0, "stdout:\n%s", r.out);
    e2e_run_free(&r);
    char *csv = e2e_slurp_at(dir, "out/grades.csv");
    cr_expect_str_eq(csv, "submission,total,max,legal,secret,tardy,sha256,error\r\n"
                          "alphabeta," ALPHABETA_ROW "random," ALPHABETA_ROW);
    /* The header and alphabeta's three lines as they were, then random's. */
    char *after = e2e_slurp_at(dir, "out/journal.jsonl");
    cr_expect_eq(lines_of(journal), 1 + 2 * 3);
    const char *cut = before;
    for (int i = 0; i < 4; i++)
        cut = strchr(cut, '\n') + 1;
    cr_expect_eq(strncmp(after, before, (size_t)(cut - before)), 0,
                 "alphabeta's lines changed:\n%s", after);
    for (const char *line = after + (cut - before); *line; line = strchr(line, '\n') + 1)
        cr_expect_eq(strncmp(line, "{\"submission\":{\"id\":\"random\",", 29), 0,
                     "not random's line: %.60s", line);
    cr_expect_eq(inode_at(dir, "out/alphabeta/results.json"), kept[0], "alphabeta's results");
    cr_expect_eq(inode_at(dir, "out/alphabeta/feedback.html"), kept[1], "alphabeta's feedback");
    cr_expect_neq(inode_at(dir, "out/random/results.json"), redone[0], "random's results");
    cr_expect_neq(inode_at(dir, "out/index.html"), redone[1], "index.html");
    snprintf(path, sizeof path, "%s/out/random", dir);
    cJSON *j = e2e_read_json(path, "results.json");
    cr_expect_eq(cJSON_GetNumberValue(cJSON_GetObjectItem(j, "score")), 45);
    cJSON_Delete(j);
    snprintf(path, sizeof path, "%s/out/.work", dir);
    cr_expect_not(e2e_exists(path), ".work is left");
    free(before);
    free(after);
    free(csv);
    e2e_rmdir(dir);
}

/* An id that is not a submission: exit 2, the message, OUT byte for byte as
 * it was. */
Test(e2e_grade, only_an_unknown_id_changes_nothing, .timeout = 60)
{
    char *dir = e2e_tmpdir();
    grade_pair(dir);
    char *before = out_snapshot(dir);
    struct e2e_run r;
    static const char *const args[] = { "--submissions", "class", "--out", "out", "--only",
                                        "random", "--only", "nobody", NULL };
    grade_args(&r, dir, args);
    cr_expect_eq(r.status, 2, "exit %d", r.status);
    cr_expect_str_eq(r.err, "referee: --only nobody: no such submission in --submissions class\n");
    cr_expect_str_eq(r.out, "");
    e2e_run_free(&r);
    char *after = out_snapshot(dir);
    cr_expect_str_eq(after, before);
    free(before);
    free(after);
    e2e_rmdir(dir);
}

/* --only into an OUT without a journal: exit 2, and OUT is not made. */
Test(e2e_grade, only_needs_a_grading_to_regrade)
{
    char *dir = e2e_tmpdir();
    static const char *const only[] = { "random", NULL };
    make_class(dir, only);
    struct e2e_run r;
    static const char *const args[] = { "--submissions", "class", "--out", "out", "--only",
                                        "random", NULL };
    grade_args(&r, dir, args);
    cr_expect_eq(r.status, 2, "exit %d", r.status);
    cr_expect_str_eq(r.err, "referee: --only: out has no grading to regrade (no journal.jsonl): "
                            "grade the class into it first\n");
    char path[PATH_MAX + 8];
    snprintf(path, sizeof path, "%s/out", dir);
    cr_expect_not(e2e_exists(path), "out was made");
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

/* A student's self-check: the visible check alone runs and shows, check by
 * check, with how many were kept out and where the feedback is; the hidden
 * and the after-due-date ones are nowhere in its output. */
Test(e2e_grade, a_self_check_runs_and_shows_the_visible_checks_only, .timeout = 60)
{
    char *dir = e2e_tmpdir();
    static const char *const only[] = { "alphabeta", NULL };
    make_class(dir, only);
    struct e2e_run r;
    static const char *const args[] = { "--submission", "class/alphabeta", "--out", "check",
                                        NULL };
    grade_args(&r, dir, args);
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    char out[PATH_MAX], want[2 * PATH_MAX];
    snprintf(want, sizeof want, "%s/check", dir);
    cr_assert_not_null(realpath(want, out));
    snprintf(want, sizeof want,
             "alphabeta: 10 of 10 points\n"
             "\n"
             "  legal  10 of 10: 2 of 2 positions answered with a legal move\n"
             "  total  10 of 10\n"
             "2 more checks are not visible to students: not run in a self-check\n"
             "feedback: %s/alphabeta/feedback.html\n", out);
    cr_expect_str_eq(r.out, want);
    e2e_run_free(&r);
    static const char *const files[] = { "check/alphabeta/results.json",
                                         "check/alphabeta/feedback.html", "check/grades.csv",
                                         "check/journal.jsonl", "check/index.html" };
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        char *text = e2e_slurp_at(dir, files[i]);
        cr_expect_null(strstr(text, "secret"), "%s shows the hidden check", files[i]);
        cr_expect_null(strstr(text, "tardy"), "%s shows the after-due-date check", files[i]);
        free(text);
    }
    e2e_rmdir(dir);
}

/* Without --out, a self-check's outputs go to a new folder under $TMPDIR,
 * the one the last line names. */
Test(e2e_grade, a_self_check_without_out_writes_under_tmpdir, .timeout = 60)
{
    char *dir = e2e_tmpdir();
    static const char *const only[] = { "alphabeta", NULL };
    make_class(dir, only);
    char tmp[PATH_MAX + 8];
    snprintf(tmp, sizeof tmp, "%s/tmp", dir);
    cr_assert_eq(mkdir(tmp, 0755), 0);
    setenv("TMPDIR", tmp, 1);   /* this test's own process */
    struct e2e_run r;
    static const char *const args[] = { "--submission", "class/alphabeta", NULL };
    grade_args(&r, dir, args);
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    const char *line = strstr(r.out, "\nfeedback: ");
    cr_assert_not_null(line, "stdout:\n%s", r.out);
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%.*s", (int)strcspn(line + 11, "\n"), line + 11);
    size_t n = strlen(tmp);
    cr_expect(strncmp(path, tmp, n) == 0 && strncmp(path + n, "/arena-selfcheck-", 17) == 0,
              "feedback at %s", path);
    cr_expect(e2e_exists(path), "%s is missing", path);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

/* A case's words: a table's row, "" after the last. */
#define WORD_MAX 24
#define WORDS_MAX 8

/* The row's words as a NULL-terminated list (args: WORDS_MAX + 1). */
static void word_list(const char (*words)[WORD_MAX], const char **args)
{
    int n = 0;
    for (; n < WORDS_MAX && words[n][0]; n++)
        args[n] = words[n];
    args[n] = NULL;
}

struct bad_grade {
    char args[WORDS_MAX][WORD_MAX];   /* after --rubric R */
    char err[160];      /* stderr's first line */
};

static struct bad_grade bad_grades[] = {
    { { "--submission", "class/alphabeta", "--submissions", "class" },
      "referee: grade: --submission (one folder) and --submissions (a class) exclude each "
      "other" },
    { { "--submissions", "class", "--out", "out", "--only", "x", "--resume" },
      "referee: grade: --only regrades submissions of a finished --submissions grading: not "
      "with --submission, --resume or --shard" },
    { { "--submission", "class/alphabeta", "--only", "alphabeta" },
      "referee: grade: --only regrades submissions of a finished --submissions grading: not "
      "with --submission, --resume or --shard" },
    { { "--submissions", "class", "--out", "out", "--all-checks" },
      "referee: grade: --all-checks goes with --submission (a class is graded on every "
      "check)" },
    { { "--submission", "class/alphabeta", "--out", "out", "--shard", "1/2" },
      "referee: grade: --shard splits a class: not with --submission" },
    { { "--submissions", "class" },
      "referee: grade: --rubric, --submissions and --out are required (or --rubric and "
      "--submission)" },
    { { "--submission", "class/nobody", "--out", "out" },
      "referee: --submission class/nobody: No such file or directory" },
    { { "--submission", "class/alphabeta", "--out", "class/alphabeta/out" },
      "" /* filled in: OUT's absolute path */ },
};

ParameterizedTestParameters(e2e_grade, bad_grade_options_exit_2_and_write_nothing)
{
    return cr_make_param_array(struct bad_grade, bad_grades,
                               sizeof bad_grades / sizeof *bad_grades);
}

ParameterizedTest(struct bad_grade *b, e2e_grade, bad_grade_options_exit_2_and_write_nothing)
{
    char *dir = e2e_tmpdir();
    static const char *const only[] = { "alphabeta", NULL };
    make_class(dir, only);
    const char *args[WORDS_MAX + 1];
    word_list(b->args, args);
    char want[3 * PATH_MAX], out[PATH_MAX + 32];
    snprintf(want, sizeof want, "%s", b->err);
    if (!b->err[0]) {   /* inside the submission: realpath's name of it */
        snprintf(out, sizeof out, "%s/class/alphabeta", dir);
        char abs[PATH_MAX];
        cr_assert_not_null(realpath(out, abs));
        snprintf(want, sizeof want, "referee: --out %s/out is inside --submission: it would be "
                 "graded", abs);
    }
    struct e2e_run r;
    grade_args(&r, dir, args);
    cr_assert_eq(r.status, 2, "exit %d: %s", r.status, r.err);
    size_t len = strcspn(r.err, "\n");
    cr_assert(strlen(want) == len && strncmp(r.err, want, len) == 0, "stderr: %s\nwant: %s",
              r.err, want);
    cr_assert_str_eq(r.out, "");
    static const char *const outs[] = { "out", "class/alphabeta/out" };
    for (int i = 0; i < 2; i++) {
        snprintf(out, sizeof out, "%s/%s", dir, outs[i]);
        cr_expect_not(e2e_exists(out), "%s was made", out);
    }
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

/* ---- referee slurm grade ------------------------------------------------- */

/* referee slurm grade in dir on two submissions with args (NULL-terminated
 * after the common ones). */
static void slurm_grade(struct e2e_run *r, const char *dir, const char *const *args)
{
    char rubric[PATH_MAX];
    e2e_repo_path("tests/grade/rubric.json", rubric, sizeof rubric);
    const char *argv[32] = { "slurm", "grade", "--rubric", rubric, "--submissions", "class",
                             "--out", "out", "--dry-run" };
    int n = 9;
    for (int i = 0; args[i]; i++)
        argv[n++] = args[i];
    argv[n] = NULL;
    e2e_runv(r, dir, NULL, "referee", argv);
}

/* --dry-run writes the two job scripts into OUT, word for word, prints the
 * sbatch commands and submits nothing (no sbatch on PATH here would fail). */
Test(e2e_grade, slurm_dry_run_writes_the_job_scripts_and_submits_nothing)
{
    char *dir = e2e_tmpdir();
    static const char *const only[] = { "alphabeta", "random", NULL };
    make_class(dir, only);
    struct e2e_run r;
    static const char *const args[] = { "--shards", "2", "--cpus-per-shard", "3",
                                        "--partition", "short", "--time", "10:00",
                                        "--sbatch-arg=--account=course", "--sandbox", "none",
                                        NULL };
    slurm_grade(&r, dir, args);
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    char out[PATH_MAX], rubric[PATH_MAX], referee[PATH_MAX], self[PATH_MAX], cls[PATH_MAX];
    char want[8 * PATH_MAX];
    snprintf(want, sizeof want, "%s/out", dir);
    cr_assert_not_null(realpath(want, out));
    snprintf(want, sizeof want, "%s/class", dir);
    cr_assert_not_null(realpath(want, cls));
    e2e_repo_path("tests/grade/rubric.json", want, sizeof want);
    cr_assert_not_null(realpath(want, rubric));
    e2e_bin_path("referee", referee, sizeof referee);
    cr_assert_not_null(realpath(referee, self));
    snprintf(want, sizeof want,
             "%1$s: shard.sh, merge.sh written\n"
             "sbatch --parsable --array=1-2 %1$s/shard.sh\n"
             "sbatch --parsable --dependency=afterany:ARRAY_JOB_ID %1$s/merge.sh\n", out);
    cr_assert_str_eq(r.out, want);
    cr_assert_str_eq(r.err, "");
    char *shard = e2e_slurp_at(dir, "out/shard.sh");
    snprintf(want, sizeof want,
             "#!/bin/sh\n"
             "# One shard of the class graded into %1$s: its argument K, else the\n"
             "# Slurm array task's. Written by referee slurm grade; resumes its journal\n"
             "# when there is one.\n"
             "#SBATCH --job-name=arena-grade\n"
             "#SBATCH --array=1-2\n"
             "#SBATCH --cpus-per-task=3\n"
             "#SBATCH --output=%1$s/shard-%%a.out\n"
             "#SBATCH --partition=short\n"
             "#SBATCH --time=10:00\n"
             "#SBATCH --account=course\n"
             "set -eu\n"
             "k=${1:-${SLURM_ARRAY_TASK_ID:?give the shard number}}\n"
             "resume=\n"
             "if [ -e \"%1$s/journal-$k.jsonl\" ]; then resume=--resume; fi\n"
             "exec %2$s grade --rubric %3$s --submissions %4$s --out %1$s --sandbox none "
             "--shard \"$k/2\" $resume --concurrency \"${SLURM_CPUS_PER_TASK:-3}\"\n",
             out, self, rubric, cls);
    cr_assert_str_eq(shard, want);
    char *merge = e2e_slurp_at(dir, "out/merge.sh");
    snprintf(want, sizeof want,
             "#!/bin/sh\n"
             "# Grades what the shards of %1$s left (nothing, when every one\n"
             "# finished) and writes grades.csv, the Gradescope results, the feedback\n"
             "# and index.html from all their journals. Written by referee slurm grade.\n"
             "#SBATCH --job-name=arena-grade-merge\n"
             "#SBATCH --cpus-per-task=3\n"
             "#SBATCH --output=%1$s/merge.out\n"
             "#SBATCH --partition=short\n"
             "#SBATCH --time=10:00\n"
             "#SBATCH --account=course\n"
             "set -eu\n"
             "exec %2$s grade --rubric %3$s --submissions %4$s --out %1$s --sandbox none "
             "--resume --concurrency \"${SLURM_CPUS_PER_TASK:-3}\"\n",
             out, self, rubric, cls);
    cr_assert_str_eq(merge, want);
    /* Nothing graded: the scripts alone. */
    struct e2e_run ls;
    e2e_run_tool(&ls, out, NULL, "ls", "-A", NULL);
    cr_assert_str_eq(ls.out, "merge.sh\nshard.sh\n");
    e2e_run_free(&ls);
    free(shard);
    free(merge);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

struct bad_slurm {
    char args[WORDS_MAX][WORD_MAX];
    char err[160];      /* stderr's first line */
};

static struct bad_slurm bad_slurms[] = {
    { { "" }, "referee: slurm grade: --shards is required" },
    { { "--shards", "3" },
      "referee: slurm grade: --shards must be from 1 to the class's 2 submissions, got 3" },
    { { "--shards", "0" }, "referee: slurm grade: --shards must be a number from 1 to 1000, "
                           "got '0'" },
    { { "--shards", "2", "--concurrency", "2" },
      "referee: slurm grade: --shard and --concurrency are the shards' own (K/N of the array "
      "task, --cpus-per-shard)" },
    { { "--shards", "2", "--shard", "1/2" },
      "referee: slurm grade: --shard and --concurrency are the shards' own (K/N of the array "
      "task, --cpus-per-shard)" },
    { { "--shards", "2", "--time", "1 day" },
      "referee: slurm grade: --time must be one word of at most 255 bytes, got '1 day'" },
};

ParameterizedTestParameters(e2e_grade, slurm_bad_arguments_exit_2_and_change_nothing)
{
    return cr_make_param_array(struct bad_slurm, bad_slurms,
                               sizeof bad_slurms / sizeof *bad_slurms);
}

ParameterizedTest(struct bad_slurm *b, e2e_grade, slurm_bad_arguments_exit_2_and_change_nothing)
{
    char *dir = e2e_tmpdir();
    static const char *const only[] = { "alphabeta", "random", NULL };
    make_class(dir, only);
    const char *args[WORDS_MAX + 1];
    word_list(b->args, args);
    struct e2e_run r;
    slurm_grade(&r, dir, args);
    cr_assert_eq(r.status, 2, "exit %d: %s", r.status, r.err);
    size_t len = strcspn(r.err, "\n");
    cr_assert(strlen(b->err) == len && strncmp(r.err, b->err, len) == 0, "stderr: %s\nwant: %s",
              r.err, b->err);
    cr_assert_str_eq(r.out, "");
    char out[PATH_MAX + 8];
    snprintf(out, sizeof out, "%s/out", dir);
    cr_assert_not(e2e_exists(out), "%s was made", out);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

/* An OUT that holds a shard's journal is another grading: refused, and
 * taken with --resume (the shards then resume their journals). */
Test(e2e_grade, slurm_into_an_out_with_journals_needs_resume)
{
    char *dir = e2e_tmpdir();
    static const char *const only[] = { "alphabeta", "random", NULL };
    make_class(dir, only);
    char path[PATH_MAX + 32], out[PATH_MAX];
    snprintf(path, sizeof path, "%s/out", dir);
    cr_assert_eq(mkdir(path, 0755), 0);
    cr_assert_not_null(realpath(path, out));
    snprintf(path, sizeof path, "%s/out/journal-2.jsonl", dir);
    FILE *f = fopen(path, "w");
    cr_assert(f && fclose(f) == 0);
    struct e2e_run r;
    static const char *const args[] = { "--shards", "2", NULL };
    slurm_grade(&r, dir, args);
    cr_assert_eq(r.status, 2, "exit %d: %s", r.status, r.err);
    char want[3 * PATH_MAX];
    snprintf(want, sizeof want, "referee: slurm grade: --out %s holds a grading already: add "
             "--resume to finish it, or name another --out", out);
    cr_assert(strncmp(r.err, want, strlen(want)) == 0 && r.err[strlen(want)] == '\n',
              "stderr: %s\nwant: %s", r.err, want);
    snprintf(path, sizeof path, "%s/out/shard.sh", dir);
    cr_assert_not(e2e_exists(path), "shard.sh was written");
    e2e_run_free(&r);
    static const char *const resume[] = { "--shards", "2", "--resume", NULL };
    slurm_grade(&r, dir, resume);
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    cr_assert(e2e_exists(path), "no shard.sh");
    e2e_run_free(&r);
    /* Once the merge job has run (its journal), the shards would grade
     * again what it graded: refused. */
    snprintf(path, sizeof path, "%s/out/journal.jsonl", dir);
    f = fopen(path, "w");
    cr_assert(f && fclose(f) == 0);
    slurm_grade(&r, dir, resume);
    cr_assert_eq(r.status, 2, "exit %d: %s", r.status, r.err);
    snprintf(want, sizeof want, "referee: slurm grade: %s/journal.jsonl: the merge job has run; "
             "sbatch %s/merge.sh (or grade --resume) finishes the grading", out, out);
    cr_assert(strncmp(r.err, want, strlen(want)) == 0 && r.err[strlen(want)] == '\n',
              "stderr: %s\nwant: %s", r.err, want);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

/* slurm grade --help: its own usage, then its section and grade's. */
Test(e2e_grade, slurm_grade_help_shows_its_usage_and_sections)
{
    char *dir = e2e_tmpdir();
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "referee", "slurm", "grade", "--help", NULL);
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    const char *usage = "Usage: referee slurm grade --rubric RUBRIC.json --submissions DIR "
                        "--out OUT --shards N\n";
    cr_assert(strncmp(r.out, usage, strlen(usage)) == 0, "slurm grade --help:\n%s", r.out);
    cr_assert_not_null(strstr(r.out, "\nSlurm grade: "), "slurm grade --help:\n%s", r.out);
    cr_assert_not_null(strstr(r.out, "\nGrade: "), "slurm grade --help:\n%s", r.out);
    e2e_run_free(&r);
    e2e_run(&r, dir, NULL, "referee", "slurm", "--help", NULL);
    cr_assert_not_null(strstr(r.out, "\n       referee slurm grade GRADE-OPTIONS --shards N "
                                     "[SLURM-OPTIONS]\n"), "slurm --help:\n%s", r.out);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

/* The cpu check grades the whole tree's CPU, as a tournament bills it: a
 * submission whose engine hides a second of work in children it never
 * reaps gets no points, where the process's own figure would give it all
 * (tests/grade/tree: the same random engine, once honest). */
Test(e2e_grade, the_cpu_check_bills_children_never_reaped, .timeout = 300)
{
    char *dir = e2e_tmpdir();
    e2e_copy_repo("tests/grade/tree/class", dir, "class");
    struct e2e_run r;
    grade(&r, dir, "tests/grade/tree/rubric.json", NULL);
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    cr_expect_null(strstr(r.err, "accounting: process"), "no cgroup here:\n%s", r.err);
    e2e_run_free(&r);
    char *csv = e2e_slurp_at(dir, "out/grades.csv");
    cr_expect_not_null(strstr(csv, "\r\nhider,0,10,0,"), "grades.csv:\n%s", csv);
    cr_expect_not_null(strstr(csv, "\r\nhonest,10,10,10,"), "grades.csv:\n%s", csv);
    free(csv);
    e2e_rmdir(dir);
}
