/*
 * test_e2e_gradefaults.c - one submission never stops the class (issue 42,
 * "a submission sees only itself"): each fault a hostile student's folder
 * can hold is that submission's grade error, its row and feedback saying
 * why, while a normal submission beside it gets its grade and the run
 * exits 0 with nothing left in OUT/.work:
 *   - builds that write sparse files (one of 3 GiB past the file-size
 *     limit, twenty of 15 MiB past the folder's), and an io run that
 *     leaves sparse files in its move folder;
 *   - a sparse file of 1.1 GiB, 2,000 nested folders, a symbolic link, ids
 *     that are the names of OUT's own files (grades.csv, index.html, a
 *     shard's journal), and a self-check of a folder named grades.csv;
 *   - a file and a folder of mode 000 under a grader that is not root
 *     (nobody, through setpriv, when the tests run as root);
 *   - a submission's folder swapped for a link to a secret folder after the
 *     class was listed (the swap made by an earlier submission's build,
 *     --sandbox none, so that it falls between the listing and the copy);
 *   - ids a spreadsheet would run as formulas (=, +, -, @, a tab, a CR),
 *     with a comma, a quote, or an ESC sequence: grades.csv quotes them and
 *     prefixes ', the terminal shows \xNN, the pages escape them.
 * The rubric is one io check, `cat` against an expected file: every case
 * runs in about a second. The limits are limits.h's (GRADE_COPY_*,
 * GRADE_BUILD_FILE_LIMIT_KB, GRADE_BACK_MAX_BYTES); the copy's own rules
 * are tested by table in test_gradecopy.c.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "arena/sha256.h"
#include "e2e_util.h"

#define NOBODY 65534
#define NOBODY_TEXT "65534"
/* The hash of a submission without files (SHA-256 of nothing). */
#define EMPTY_SHA "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
#define HEADER "submission,total,max,echo,sha256,error\r\n"
#define OK_ROW "ok,10,10,10," EMPTY_SHA ",\r\n"

/* One io check: its output must be its input. The build and the command
 * run a submission's own build.sh and io.sh when it has them. */
static const char rubric[] =
    "{ \"timeout_ms\": 2000, \"build\": \"test ! -f build.sh || sh build.sh\",\n"
    "  \"checks\": [ {\"id\": \"echo\", \"kind\": \"io\", \"points\": 10,\n"
    "    \"cmd\": \"cat; test ! -f io.sh || sh io.sh\", \"inputs\": \"in/*.in\",\n"
    "    \"expected\": \"in/*.out\"} ] }\n";

static void folder(const char *dir, const char *rel)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", dir, rel);
    cr_assert_eq(mkdir(path, 0755), 0, "%s: %s", path, strerror(errno));
}

/* A fresh folder with the rubric, its input and the class folder holding
 * "ok", a submission without files. */
static char *place(void)
{
    char *dir = e2e_tmpdir();
    e2e_put_at(dir, "r/rubric.json", rubric);
    e2e_put_at(dir, "r/in/a.in", "hi\n");
    e2e_put_at(dir, "r/in/a.out", "hi\n");
    folder(dir, "class");
    folder(dir, "class/ok");
    return dir;
}

/* The hash of a submission of one file, name holding text (grade.h's). */
static void one_file_sha(const char *name, const char *text, char hex[SHA256_HEX])
{
    char size[32];
    int n = snprintf(size, sizeof size, "%zu", strlen(text));
    struct sha256 h;
    sha256_init(&h);
    sha256_update(&h, name, strlen(name) + 1);
    sha256_update(&h, size, (size_t)n + 1);
    sha256_update(&h, text, strlen(text));
    sha256_final(&h, hex);
}

/* grade with the rubric, the class, OUT and more args (NULL-ended). */
static void grade(struct e2e_run *r, const char *dir, const char *const *via,
                  const char *const *more)
{
    const char *args[16] = { "grade", "--rubric", "r/rubric.json", "--submissions", "class",
                             "--out", "out" };
    int n = 7;
    for (; more && *more; more++)
        args[n++] = *more;
    args[n] = NULL;
    e2e_runv_via(r, dir, NULL, via, "referee", args);
}

/* The run exited 0, wrote want as grades.csv, and left no OUT/.work. */
static void expect_graded(const struct e2e_run *r, const char *dir, const char *want)
{
    cr_assert_eq(r->status, 0, "exit %d: %s\nstdout:\n%s", r->status, r->err, r->out);
    char *csv = e2e_slurp_at(dir, "out/grades.csv");
    cr_expect_str_eq(csv, want, "grades.csv is\n%s\nwant\n%s", csv, want);
    free(csv);
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/out/.work", dir);
    cr_expect_not(e2e_exists(path), "out/.work is left");
}

/* Sparse files in a build and in an io run's move folder: each past its
 * limit counted at its apparent size, never copied into OUT/.work, with
 * the sandbox and without (where no tmpfs bounds the build's folder). */
Test(e2e_gradefaults, sparse_files_fail_their_own_build_or_input, .timeout = 60)
{
    static const char big[] = "truncate -s 3G big; truncate -s 3G big2\n";
    static const char many[] = "i=0; while [ $i -lt 20 ]; do truncate -s 15M f$i; "
                               "i=$((i + 1)); done\n";
    /* Beside its output (its stdout, a file of the move folder). */
    static const char io[] = "d=$(dirname \"$(readlink /proc/$$/fd/1)\"); i=0; "
                             "while [ $i -lt 20 ]; do truncate -s 1000K \"$d/f$i\"; "
                             "i=$((i + 1)); done\n";
    static const char *const modes[2] = { "namespaces", "none" };
    char sha[3][SHA256_HEX], want[2048];
    one_file_sha("build.sh", big, sha[0]);
    one_file_sha("build.sh", many, sha[1]);
    one_file_sha("io.sh", io, sha[2]);
    snprintf(want, sizeof want, HEADER
             "big,0,10,0,%s,\"the build failed: exit-status 153: it wrote a file past 16 MiB, "
             "the most a build may write\"\r\n"
             "io,0,10,0,%s,\r\n"
             "many,0,10,0,%s,\"the build failed: its folder is not copied back: its files hold "
             "300.0 MiB together, more than 16 MiB (a sparse file counts at its size)\"\r\n"
             OK_ROW, sha[0], sha[2], sha[1]);
    for (int m = 0; m < 2; m++) {
        char *dir = place();
        e2e_put_at(dir, "class/big/build.sh", big);
        e2e_put_at(dir, "class/many/build.sh", many);
        e2e_put_at(dir, "class/io/io.sh", io);
        const char *const more[] = { "--sandbox", modes[m], NULL };
        struct e2e_run r;
        grade(&r, dir, NULL, more);
        expect_graded(&r, dir, want);
        cr_expect_not_null(strstr(r.out, "\nok: 10 of 10 points\n"), "%s: stdout:\n%s",
                           modes[m], r.out);
        char *page = e2e_slurp_at(dir, "out/io/feedback.html");
        cr_expect_not_null(strstr(page, "file-limit: its files hold 19.5 MiB together, more "
                                        "than 16 MiB"), "%s: io's feedback", modes[m]);
        free(page);
        page = e2e_slurp_at(dir, "out/big/feedback.html");
        cr_expect_not_null(strstr(page, "<p class=\"why\">the build failed: exit-status 153: "
                                        "it wrote a file past 16 MiB"), "%s: big's feedback",
                           modes[m]);
        free(page);
        e2e_run_free(&r);
        e2e_rmdir(dir);
    }
}

/* A file of 1.1 GiB (sparse: nothing written), 2,000 nested folders (the
 * copy recursed until SIGSEGV), a symbolic link, and ids that are OUT's
 * own file names (OUT/grades.csv/ was made, then the class stopped). */
Test(e2e_gradefaults, a_huge_deep_linked_or_clashing_submission_is_its_own_error, .timeout = 60)
{
    char *dir = place();
    char path[PATH_MAX];
    folder(dir, "class/big");
    snprintf(path, sizeof path, "%s/class/big/f", dir);
    int fd = open(path, O_WRONLY | O_CREAT, 0644);
    cr_assert(fd >= 0 && ftruncate(fd, 1100LL << 20) == 0, "%s: %s", path, strerror(errno));
    close(fd);
    folder(dir, "class/deep");
    snprintf(path, sizeof path, "%s/class/deep", dir);
    fd = open(path, O_RDONLY | O_DIRECTORY);
    for (int i = 0; i < 2000 && fd >= 0; i++) {
        cr_assert_eq(mkdirat(fd, "d", 0755), 0);
        int sub = openat(fd, "d", O_RDONLY | O_DIRECTORY);
        close(fd);
        fd = sub;
    }
    cr_assert(fd >= 0);
    close(fd);
    e2e_put_at(dir, "class/link/engine.py", "print(1)\n");
    snprintf(path, sizeof path, "%s/class/link/pw", dir);
    cr_assert_eq(symlink("/etc/passwd", path), 0);
    static const char *const own[] = { "grades.csv", "index.html", "journal-2.jsonl" };
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "class/%s/a", own[i]);
        e2e_put_at(dir, path, "x\n");
    }
    struct e2e_run r;
    grade(&r, dir, NULL, NULL);
    expect_graded(&r, dir, HEADER
        "big,0,10,0,,\"not copied: f: 1.1 GiB, more than the 256 MiB the files may hold "
        "together (a sparse file counts at its size)\"\r\n"
        "deep,0,10,0,,not copied: d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/.../d/d/d/d/d/"
        "d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d: folders nested deeper than 64 levels\r\n"
        "grades.csv,0,10,0,,not graded: its name clashes with OUT's own grades.csv: rename its "
        "folder\r\n"
        "index.html,0,10,0,,not graded: its name clashes with OUT's own index.html: rename its "
        "folder\r\n"
        "journal-2.jsonl,0,10,0,,not graded: its name clashes with OUT's own journal-K.jsonl (a "
        "shard's journal): rename its folder\r\n"
        "link,0,10,0,,\"not copied: pw: a symbolic link: what it names is outside the folder, "
        "so it is never followed or copied (hand in the file itself)\"\r\n"
        OK_ROW);
    /* OUT's own files are files; the clashing ids got no folder. */
    struct stat st;
    snprintf(path, sizeof path, "%s/out/index.html", dir);
    cr_expect(stat(path, &st) == 0 && S_ISREG(st.st_mode), "out/index.html is no file");
    snprintf(path, sizeof path, "%s/out/journal-2.jsonl", dir);
    cr_expect_not(e2e_exists(path), "out/journal-2.jsonl was made");
    char *page = e2e_slurp_at(dir, "out/index.html");
    cr_expect_null(strstr(page, "href=\"grades.csv/"), "index.html links grades.csv/");
    cr_expect_not_null(strstr(page, "<small class=\"why\">not graded: its name clashes with "
                                    "OUT&#39;s own grades.csv"), "index.html: no reason");
    free(page);
    page = e2e_slurp_at(dir, "out/deep/feedback.html");
    cr_expect_not_null(strstr(page, "folders nested deeper than 64 levels"), "deep's feedback");
    free(page);
    e2e_run_free(&r);
    /* A self-check of such a folder says why and names no feedback. */
    const char *const self[] = { "grade", "--rubric", "r/rubric.json", "--submission",
                                 "class/grades.csv", "--out", "self", NULL };
    e2e_runv(&r, dir, NULL, "referee", self);
    cr_expect_eq(r.status, 0, "self-check: exit %d: %s", r.status, r.err);
    cr_expect_not_null(strstr(r.out, "grades.csv: 0 of 10 points: not graded: its name clashes "
                                     "with OUT's own grades.csv: rename its folder\n"),
                       "self-check: stdout:\n%s", r.out);
    cr_expect_null(strstr(r.out, "feedback:"), "self-check: stdout:\n%s", r.out);
    snprintf(path, sizeof path, "%s/self/grades.csv", dir);
    cr_expect(stat(path, &st) == 0 && S_ISREG(st.st_mode), "self/grades.csv is no file");
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

/* A file and a folder of mode 000 stop nobody but their own submission,
 * under a grader who cannot read them. */
Test(e2e_gradefaults, an_unreadable_file_is_its_own_error_under_a_non_root_grader,
     .timeout = 60)
{
    char *dir = place();
    e2e_put_at(dir, "class/locked/secret", "s\n");
    e2e_put_at(dir, "class/shut/sub/f", "f\n");
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/class/locked/secret", dir);
    cr_assert_eq(chmod(path, 0), 0);
    snprintf(path, sizeof path, "%s/class/shut/sub", dir);
    cr_assert_eq(chmod(path, 0), 0);
    static const char *const as_nobody[] = { "setpriv", "--reuid=" NOBODY_TEXT,
                                             "--regid=" NOBODY_TEXT, "--clear-groups", NULL };
    if (geteuid() == 0) {   /* root reads anything: grade as nobody */
        struct e2e_run c;
        e2e_run_tool(&c, dir, NULL, "chown", "-R", NOBODY_TEXT ":" NOBODY_TEXT, dir, NULL);
        cr_assert_eq(c.status, 0, "chown: %s", c.err);
        e2e_run_free(&c);
        cr_assert_eq(chmod(dir, 0755), 0);
    }
    struct e2e_run r;
    grade(&r, dir, geteuid() == 0 ? as_nobody : NULL, NULL);
    expect_graded(&r, dir, HEADER
                  "locked,0,10,0,,not copied: secret: cannot read it: Permission denied\r\n"
                  OK_ROW
                  "shut,0,10,0,,not copied: sub: cannot read it: Permission denied\r\n");
    snprintf(path, sizeof path, "%s/class/shut/sub", dir);
    chmod(path, 0755);   /* for e2e_rmdir, as any user */
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

/* After the class is listed, a student swaps their folder for a link to a
 * folder they may not hand in: the copy refuses it and never reads
 * through it. The swap is made by the build of a submission graded
 * before it (--concurrency 1, id order; --sandbox none lets a build reach
 * the class folder), so it falls between the listing and the copy. */
Test(e2e_gradefaults, a_folder_swapped_for_a_link_after_the_listing_is_refused, .timeout = 60)
{
    char *dir = place();
    e2e_put_at(dir, "secret/answers.txt", "the teacher's answers\n");
    e2e_put_at(dir, "class/b-victim/engine.py", "print(1)\n");
    char script[3 * PATH_MAX], sha[SHA256_HEX], want[1024];
    snprintf(script, sizeof script, "mv %s/class/b-victim %s/class/.gone && "
             "ln -s %s/secret %s/class/b-victim\n", dir, dir, dir, dir);
    e2e_put_at(dir, "class/a-swapper/build.sh", script);
    one_file_sha("build.sh", script, sha);
    const char *const more[] = { "--sandbox", "none", "--concurrency", "1", NULL };
    struct e2e_run r;
    grade(&r, dir, NULL, more);
    snprintf(want, sizeof want, HEADER "a-swapper,10,10,10,%s,\r\n"
             "b-victim,0,10,0,,not copied: its folder changed after the class was listed (it "
             "is no folder now: a link or a file)\r\n" OK_ROW, sha);
    expect_graded(&r, dir, want);
    char *journal = e2e_slurp_at(dir, "out/journal.jsonl");
    char leaked[SHA256_HEX];
    one_file_sha("answers.txt", "the teacher's answers\n", leaked);
    cr_expect_null(strstr(journal, leaked), "the secret folder was copied and hashed");
    free(journal);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

/* Ids a spreadsheet would run, or that hold CSV's own characters, or
 * that would act on a terminal: every output shows them as its format
 * escapes text. */
Test(e2e_gradefaults, ids_are_escaped_in_every_output, .timeout = 60)
{
    static const char *const ids[] = { "\tx", "\rcr", "\x1b[31mred\x1b[0m", "+cmd", "-2",
                                       "=1+1", "@SUM(1)", "a,b", "say\"hi" };
    char *dir = place();
    for (size_t i = 0; i < sizeof ids / sizeof *ids; i++) {
        char rel[64];
        snprintf(rel, sizeof rel, "class/%s", ids[i]);
        folder(dir, rel);
    }
    struct e2e_run r;
    grade(&r, dir, NULL, NULL);
#define ROW(cell) cell ",10,10,10," EMPTY_SHA ",\r\n"
    expect_graded(&r, dir, HEADER ROW("'\tx") ROW("\"'\rcr\"") ROW("\x1b[31mred\x1b[0m")
                  ROW("'+cmd") ROW("'-2") ROW("'=1+1") ROW("'@SUM(1)") ROW("\"a,b\"")
                  OK_ROW ROW("\"say\"\"hi\""));
#undef ROW
    /* The terminal: control characters as \xNN, none raw. */
    cr_expect_not_null(strstr(r.out, "\\x1b[31mred\\x1b[0m: 10 of 10 points\n"), "stdout:\n%s",
                       r.out);
    cr_expect_not_null(strstr(r.out, "\\x09x: 10 of 10 points\n"), "stdout:\n%s", r.out);
    cr_expect_not_null(strstr(r.out, "\n\\x0dcr   "), "the table:\n%s", r.out);
    cr_expect(!strpbrk(r.out, "\x1b\r\t") && !strpbrk(r.err, "\x1b\r\t"),
              "a control character on the terminal:\n%s%s", r.out, r.err);
    /* The pages: as HTML text and as a URL's segment. */
    char *page = e2e_slurp_at(dir, "out/index.html");
    cr_expect_not_null(strstr(page, "<a href=\"say%22hi/feedback.html\">say&quot;hi</a>"),
                       "index.html: say\"hi");
    cr_expect_not_null(strstr(page, "<a href=\"%1B%5B31mred%1B%5B0m/feedback.html\">"),
                       "index.html: the ESC id's link");
    cr_expect_null(strchr(page, '\x1b'), "index.html holds an ESC");
    free(page);
    page = e2e_slurp_at(dir, "out/=1+1/feedback.html");
    cr_expect_not_null(strstr(page, "<h1>=1+1: 10 of 10 points</h1>"), "=1+1's page");
    free(page);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}
