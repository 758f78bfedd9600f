/*
 * test_e2e_gradepaths.c - a graded submission sees itself and the system,
 * nothing else (issue 42, "what to build" item 2; gradepaths.h):
 *   - an ENGINE file whose words name a classmate's file (relative and
 *     absolute), the reference solution kept in the rubric's folder, the
 *     rubric's expected outputs kept in a folder of their own, or OUT's
 *     journal is that submission's error, saying which word reaches where;
 *     none of those files' text gets into OUT; words naming the system
 *     (/etc/hostname, /usr/lib) or the engine's own /tmp are graded as
 *     ever; as root and as an unprivileged grader (nobody, through setpriv;
 *     a test run by someone else runs that case as that user);
 *   - a class kept under /opt (a tmpfs of the test's own, in a private
 *     mount namespace, as root): a submission that opens a classmate's
 *     file, the solution or the journal by their paths finds nothing
 *     there, since the masks hide inside the system folders too; an
 *     ENGINE word naming one is refused; a class folder that is /opt
 *     itself cannot be hidden and is refused before anything runs.
 * Every submission is Python reading the files its command names
 * (reader.py, below): reading one writes its text to stderr, which the
 * feedback shows, so a leak is seen in OUT.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>
#include "arena/sha256.h"
#include "e2e_util.h"

#define NOBODY 65534
#define NOBODY_TEXT "65534"
#define HEADER "submission,total,max,legal,echo,sha256,error\r\n"
/* Texts that must never reach OUT: each is in one file no submission may
 * see. */
#define BOB_SECRET "bob's own source"
#define SOLUTION_SECRET "the TA's solution"
#define KEY_SECRET "the answer key"
#define JOURNAL_TEXT "arena.grade/1"

/* A Max-Connect4 player that first reads every file named after its three
 * placeholders: one it can read ends it (exit status 1) with the file's
 * text on stderr, which its feedback shows. Else it plays the first legal
 * column. READS holds more paths to try (the /opt case). */
#define READER_HEAD "import sys\nREADS = ["
#define READER_TAIL                                                                    \
    "]\n"                                                                              \
    "for p in sys.argv[4:] + READS:\n"                                                 \
    "    try:\n"                                                                       \
    "        text = open(p).read()\n"                                                  \
    "    except OSError:\n"                                                            \
    "        continue\n"                                                               \
    "    sys.stderr.write('read ' + p + ': ' + text[:300] + '\\n')\n"                  \
    "    sys.exit(1)\n"                                                                \
    "t = open(sys.argv[1]).read().split()\n"                                           \
    "g = [list(l) for l in t[:6]]\n"                                                   \
    "me = t[6]\n"                                                                      \
    "c = [c for c in range(7) if g[0][c] == '0'][0]\n"                                 \
    "r = max(r for r in range(6) if g[r][c] == '0')\n"                                 \
    "g[r][c] = me\n"                                                                   \
    "open(sys.argv[2], 'w').write(''.join(''.join(x) + '\\n' for x in g) + "           \
    "str(3 - int(me)) + '\\n')\n"
#define READER READER_HEAD READER_TAIL
/* One that reads nothing: the extra words are only named. */
#define PLAYER "import sys\nsys.argv[4:] = []\nREADS = [" READER_TAIL
#define CMD "/usr/bin/python3 engine.py {in} {out} {depth}"

/* A legal check and an io check whose expected outputs are kept outside the
 * rubric's folder, in answers/ beside the answer key. */
static const char rubric[] =
    "{ \"game\": \"maxconnect4\", \"engine\": \"" CMD "\",\n"
    "  \"timeout_ms\": 4000, \"seed\": 1,\n"
    "  \"checks\": [ {\"id\": \"legal\", \"kind\": \"legal\", \"points\": 10,\n"
    "                 \"positions\": 2, \"depth\": 2},\n"
    "    {\"id\": \"echo\", \"kind\": \"io\", \"points\": 10, \"cmd\": \"cat\",\n"
    "     \"inputs\": \"in/*.in\", \"expected\": \"../answers/*.out\"} ] }\n";

/* The hash of a submission of ENGINE (engine, or none when NULL) and
 * engine.py (grade.h's order: by path). */
static void submission_sha(const char *engine, const char *source, char hex[SHA256_HEX])
{
    const char *name[2] = { "ENGINE", "engine.py" }, *text[2] = { engine, source };
    struct sha256 h;
    sha256_init(&h);
    for (int i = 0; i < 2; i++) {
        if (!text[i])
            continue;
        char size[32];
        int n = snprintf(size, sizeof size, "%zu", strlen(text[i]));
        sha256_update(&h, name[i], strlen(name[i]) + 1);
        sha256_update(&h, size, (size_t)n + 1);
        sha256_update(&h, text[i], strlen(text[i]));
    }
    sha256_final(&h, hex);
}

/* A submission id of the class in dir/class: its ENGINE file's line
 * (NULL: none) and engine.py; its grades.csv row appended to want (cap):
 * full points, or 0 with error. */
static void submit(const char *dir, const char *id, const char *engine, const char *source,
                   const char *error, char *want, size_t cap)
{
    char rel[PATH_MAX], sha[SHA256_HEX];
    snprintf(rel, sizeof rel, "class/%s/engine.py", id);
    e2e_put_at(dir, rel, source);
    if (engine) {
        snprintf(rel, sizeof rel, "class/%s/ENGINE", id);
        e2e_put_at(dir, rel, engine);
    }
    submission_sha(engine, source, sha);
    size_t n = strlen(want);
    if (error)
        snprintf(want + n, cap - n, "%s,0,20,0,0,%s,\"not graded: %s\"\r\n", id, sha, error);
    else
        snprintf(want + n, cap - n, "%s,20,20,10,10,%s,\r\n", id, sha);
}

/* The grading's folder: the rubric in r/ with its input and the
 * solution, the expected output and the key in answers/. */
static void course(const char *dir)
{
    e2e_put_at(dir, "r/rubric.json", rubric);
    e2e_put_at(dir, "r/in/a.in", "hi\n");
    e2e_put_at(dir, "r/solution/sol.py", "# " SOLUTION_SECRET "\n");
    e2e_put_at(dir, "answers/a.out", "hi\n");
    e2e_put_at(dir, "answers/key.txt", KEY_SECRET "\n");
}

/* Grades dir's class into OUT (dir/out) through via (NULL: as this user). */
static void grade(struct e2e_run *r, const char *dir, const char *subs, const char *const *via)
{
    const char *args[] = { "grade", "--rubric", "r/rubric.json", "--submissions", subs,
                           "--out", "out", NULL };
    e2e_runv_via(r, dir, NULL, via, "referee", args);
}

/* No file the grading wrote holds a secret. */
static void expect_nothing_leaked(const char *dir, const char *const *ids, int n)
{
    static const char *const secrets[] = { BOB_SECRET, SOLUTION_SECRET, KEY_SECRET };
    for (int i = 0; i < n; i++) {
        static const char *const files[] = { "feedback.html", "results.json" };
        for (int f = 0; f < 2; f++) {
            char rel[PATH_MAX];
            snprintf(rel, sizeof rel, "out/%s/%s", ids[i], files[f]);
            char *text = e2e_slurp_at(dir, rel);
            for (size_t s = 0; s < sizeof secrets / sizeof *secrets; s++)
                cr_expect_null(strstr(text, secrets[s]), "%s holds '%s'", rel, secrets[s]);
            if (strcmp(ids[i], "journal") == 0)
                cr_expect_null(strstr(text, JOURNAL_TEXT), "%s holds the journal", rel);
            free(text);
        }
    }
}

/* Who grades: root, or an unprivileged user. */
enum who { AS_ROOT, AS_USER };

static const char *const *become(enum who who, const char *dir)
{
    static const char *const as_nobody[] = { "setpriv", "--reuid=" NOBODY_TEXT,
                                             "--regid=" NOBODY_TEXT, "--clear-groups", NULL };
    if (who == AS_ROOT && geteuid() != 0)
        cr_skip_test("runs as root only");
    if (who == AS_ROOT || geteuid() != 0)
        return NULL;
    struct e2e_run c;
    e2e_run_tool(&c, dir, NULL, "chown", "-R", NOBODY_TEXT ":" NOBODY_TEXT, dir, NULL);
    cr_assert_eq(c.status, 0, "chown: %s", c.err);
    e2e_run_free(&c);
    return as_nobody;
}

ParameterizedTestParameters(e2e_gradepaths, an_engine_file_reaching_outside_its_copy_is_its_error)
{
    static enum who who[] = { AS_ROOT, AS_USER };
    return cr_make_param_array(enum who, who, 2);
}

ParameterizedTest(enum who *who, e2e_gradepaths,
                  an_engine_file_reaching_outside_its_copy_is_its_error, .timeout = 180)
{
    char *dir = e2e_tmpdir();
    cr_assert_eq(chmod(dir, 0755), 0);
    course(dir);
    char want[8192] = HEADER, engine[3 * PATH_MAX], error[3 * PATH_MAX];
    /* In id order, so that the journal holds the others' lines when
     * "journal" runs. The copy is OUT/.work/ID/src: four folders up is dir. */
    snprintf(engine, sizeof engine, CMD " %s/class/bob/engine.py\n", dir);
    snprintf(error, sizeof error, "ENGINE word 6 '%s/class/bob/engine.py' reaches %s/class/bob, "
             "inside the class's folder, which no submission may see", dir, dir);
    submit(dir, "absolute", engine, READER, error, want, sizeof want);
    snprintf(error, sizeof error, "ENGINE word 6 '../../../../answers/key.txt' reaches %s/answers, "
             "inside the folder of the rubric's expected outputs, which no submission may see",
             dir);
    submit(dir, "answers", CMD " ../../../../answers/key.txt\n", READER, error, want, sizeof want);
    submit(dir, "bob", NULL, "# " BOB_SECRET "\n" READER, NULL, want, sizeof want);
    snprintf(error, sizeof error, "ENGINE word 6 '../../../journal.jsonl' reaches %s/out, inside "
             "OUT, which no submission may see", dir);
    submit(dir, "journal", CMD " ../../../journal.jsonl\n", READER, error, want, sizeof want);
    snprintf(error, sizeof error, "ENGINE word 6 '../../../../class/bob/engine.py' reaches "
             "%s/class/bob, inside the class's folder, which no submission may see", dir);
    submit(dir, "relative", CMD " ../../../../class/bob/engine.py\n", READER, error, want,
           sizeof want);
    snprintf(engine, sizeof engine, CMD " %s/r/solution/sol.py\n", dir);
    snprintf(error, sizeof error, "ENGINE word 6 '%s/r/solution/sol.py' reaches %s/r/solution, "
             "inside the rubric's folder, which no submission may see", dir, dir);
    submit(dir, "solution", engine, READER, error, want, sizeof want);
    submit(dir, "system", CMD " /etc/hostname /usr/lib /tmp/its-own.log\n", PLAYER, NULL, want,
           sizeof want);
    const char *const *via = become(*who, dir);
    struct e2e_run r;
    grade(&r, dir, "class", via);
    cr_assert_eq(r.status, 0, "exit %d: %s\nstdout:\n%s", r.status, r.err, r.out);
    char *csv = e2e_slurp_at(dir, "out/grades.csv");
    cr_expect_str_eq(csv, want, "grades.csv is\n%s\nwant\n%s", csv, want);
    free(csv);
    static const char *const ids[] = { "absolute", "answers", "bob", "journal", "relative",
                                       "solution", "system" };
    expect_nothing_leaked(dir, ids, 7);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

/* A private /opt (a tmpfs, in a mount namespace of the test's own) holding
 * the course: the class, the rubric with its solution, OUT. Root only. */
static void private_opt(void)
{
    if (geteuid() != 0)
        cr_skip_test("needs root (a mount namespace with /opt of its own)");
    cr_assert_eq(unshare(CLONE_NEWNS), 0, "unshare: %s", strerror(errno));
    cr_assert_eq(mount("none", "/", NULL, MS_REC | MS_PRIVATE, NULL), 0, "%s", strerror(errno));
    cr_assert_eq(mount("tmpfs", "/opt", "tmpfs", 0, "size=16m,mode=0755"), 0, "mount /opt: %s",
                 strerror(errno));
}

#define OPT_DIR "/opt/course"

ParameterizedTestParameters(e2e_gradepaths, a_class_kept_under_opt_is_hidden_from_its_submissions)
{
    static enum who who[] = { AS_ROOT, AS_USER };
    return cr_make_param_array(enum who, who, 2);
}

ParameterizedTest(enum who *who, e2e_gradepaths,
                  a_class_kept_under_opt_is_hidden_from_its_submissions, .timeout = 120)
{
    private_opt();
    mkdir(OPT_DIR, 0755);
    course(OPT_DIR);
    char want[4096] = HEADER;
    /* It opens them by their paths, named in its own source. */
    submit(OPT_DIR, "alice", NULL,
           READER_HEAD "'" OPT_DIR "/class/bob/engine.py', '" OPT_DIR "/r/solution/sol.py', '"
           OPT_DIR "/answers/key.txt', '" OPT_DIR "/out/journal.jsonl'" READER_TAIL,
           NULL, want, sizeof want);
    submit(OPT_DIR, "bob", NULL, "# " BOB_SECRET "\n" READER, NULL, want, sizeof want);
    submit(OPT_DIR, "carol", CMD " " OPT_DIR "/class/bob/engine.py\n", READER,
           "ENGINE word 6 '" OPT_DIR "/class/bob/engine.py' reaches " OPT_DIR "/class/bob, "
           "inside the class's folder, which no submission may see", want, sizeof want);
    const char *const *via = become(*who, OPT_DIR);
    struct e2e_run r;
    grade(&r, OPT_DIR, "class", via);
    cr_assert_eq(r.status, 0, "exit %d: %s\nstdout:\n%s", r.status, r.err, r.out);
    char *csv = e2e_slurp_at(OPT_DIR, "out/grades.csv");
    cr_expect_str_eq(csv, want, "grades.csv is\n%s\nwant\n%s", csv, want);
    free(csv);
    static const char *const ids[] = { "alice", "bob", "carol" };
    expect_nothing_leaked(OPT_DIR, ids, 3);
    e2e_run_free(&r);
}

/* A class folder that is /opt itself cannot be masked without hiding the
 * system's /opt: refused before anything runs, nothing written. */
Test(e2e_gradepaths, a_class_folder_that_is_a_system_folder_is_refused)
{
    private_opt();
    e2e_put_at("/opt", "alice/engine.py", READER);
    char *dir = e2e_tmpdir();
    course(dir);
    struct e2e_run r;
    grade(&r, dir, "/opt", NULL);
    cr_expect_eq(r.status, 2, "exit %d: %s", r.status, r.err);
    cr_expect_str_eq(r.err, "referee: the class's folder /opt cannot be hidden from the "
                            "submissions without hiding /opt, which every sandbox shows: keep "
                            "it in a folder of its own\n");
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/out/journal.jsonl", dir);
    cr_expect_not(e2e_exists(path), "a journal was written");
    e2e_run_free(&r);
    e2e_rmdir(dir);
}
