/*
 * test_e2e_student.c - a student's first match (issue "A student's first
 * match works"), end to end: a Python engine given by a relative path from
 * its own dir= plays a clean match; SPECs written as cutechess users write
 * them (any order, blanks or commas, --each, per-engine depth= and args=);
 * default names made unique and reported apart; two engines given one
 * name, an unknown SPEC key and a program that does not exist stop the
 * referee before any game; a Python traceback in the engine's stderr= file
 * and in --keep-files; a Python engine past the file-size limit loses by
 * file-limit.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <cjson/cJSON.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "arena/sha256.h"
#include "e2e_util.h"

#define EXIT_BAD 2
#define SPEC_MAX (2 * PATH_MAX + 256)

/* dir/sub: a student's folder holding copies of tests/engines/python. */
static void student_folder(const char *dir, const char *sub)
{
    char src[PATH_MAX], cmd[3 * PATH_MAX];
    e2e_repo_path("tests/engines/python", src, sizeof src);
    snprintf(cmd, sizeof cmd, "mkdir '%s/%s' && cp '%s'/*.py '%s'/*.txt '%s/%s'", dir, sub, src,
             src, dir, sub);
    cr_assert_eq(system(cmd), 0, "%s", cmd);
}

/* The engines run Debian's python3 (scripts/install-deps.sh installs it),
 * not a version manager's shim found earlier in PATH: pyenv's takes seconds
 * to start on a loaded machine, and an engine's time is its own. */
static void use_system_python(void)
{
    cr_assert_eq(setenv("PATH", "/usr/bin:/bin", 1), 0);
}


static const cJSON *log_engine(const cJSON *root, int i)
{
    return cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(root, "engines"), i);
}

/* The README's own form with a relative script: the engine runs in its
 * dir= (it reads columns.txt there and imports board.py), its script is
 * made absolute, and every game is a normal one. */
Test(e2e_student, python_engine_by_relative_path_from_its_dir, .timeout = 300)
{
    use_system_python();
    char *dir = e2e_tmpdir(), engine[PATH_MAX];
    student_folder(dir, "alice");
    e2e_engine_bin_path("engine", engine, sizeof engine);
    char b[SPEC_MAX];
    snprintf(b, sizeof b, "%s one-move --game connect4", engine);
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "referee", "match", "--game", "connect4", "--engine",
            "name=alice dir=alice cmd=python3 first.py one-move", "--engine", b, "--games", "2",
            "--depth", "1", "--log", "log.json", NULL);
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    cr_assert_null(strstr(r.out, "forfeits"), "stdout:\n%s", r.out);
    cr_assert_not_null(strstr(r.out, "Finished game 2 (engine vs alice): "), "%s", r.out);
    cr_assert_not_null(strstr(r.out, "Score of alice vs engine: "), "%s", r.out);
    cJSON *log = e2e_read_json(dir, "log.json");
    const cJSON *alice = log_engine(log, 0);
    char want[PATH_MAX];
    snprintf(want, sizeof want, "%s/alice", dir);
    cr_expect_str_eq(cJSON_GetObjectItemCaseSensitive(alice, "dir")->valuestring, want);
    snprintf(want, sizeof want, "%s/alice/first.py", dir);
    const cJSON *cmd = cJSON_GetObjectItemCaseSensitive(alice, "cmd");
    cr_expect_str_eq(cJSON_GetArrayItem(cmd, 0)->valuestring, "python3");
    cr_expect_str_eq(cJSON_GetArrayItem(cmd, 1)->valuestring, want);
    cr_expect_str_eq(cJSON_GetObjectItemCaseSensitive(log_engine(log, 1), "dir")->valuestring,
                     dir);
    cJSON_Delete(log);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

/* cutechess order, blanks and commas, --each with the command, depth= and
 * args= per engine: each engine got its own {depth} (it writes it into a
 * file named after args=, in its working directory, which only --sandbox
 * none lets it write), and the log records it. */
Test(e2e_student, cutechess_order_specs_and_each, .timeout = 60)
{
    char *dir = e2e_tmpdir(), engine[PATH_MAX], each[SPEC_MAX];
    e2e_engine_bin_path("engine", engine, sizeof engine);
    snprintf(each, sizeof each,
             "cmd=sh -c 'echo $3 >> $0.txt; exec %s one-move --game connect4 \"$1\" \"$2\" $3', "
             "depth=5",
             engine);
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "referee", "match", "--game", "connect4", "--each", each, "--engine",
            "depth=1 args=one {in} {out} {depth} name=d1", "--engine",
            "name=d2,args=two {in} {out} {depth},depth=2", "--games", "2", "--log", "log.json",
            "--sandbox", "none", NULL);
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    cr_assert_not_null(strstr(r.out, "Finished game 1 (d1 vs d2): "), "%s", r.out);
    cr_assert_not_null(strstr(r.out, "Score of d1 vs d2: "), "%s", r.out);
    char path[PATH_MAX];
    const char *const files[2] = { "one.txt", "two.txt" }, *const depth[2] = { "1\n", "2\n" };
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        char *text = e2e_slurp(path, NULL);
        cr_assert_not_null(text, "engine %d never ran in %s", i + 1, dir);
        for (const char *p = text; *p; p += 2)
            cr_assert(strncmp(p, depth[i], 2) == 0, "engine %d got depths:\n%s", i + 1, text);
        free(text);
    }
    cJSON *log = e2e_read_json(dir, "log.json");
    for (int i = 0; i < 2; i++)
        cr_expect_eq(cJSON_GetObjectItemCaseSensitive(log_engine(log, i), "depth")->valueint,
                     i + 1);
    cJSON_Delete(log);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

/* Two engines running one program used to share a name, and report then
 * credited every game to the first. */
Test(e2e_student, default_names_are_unique_and_reported_apart, .timeout = 60)
{
    char *dir = e2e_tmpdir(), engine[PATH_MAX], spec[SPEC_MAX];
    e2e_engine_bin_path("engine", engine, sizeof engine);
    snprintf(spec, sizeof spec, "%s one-move --game connect4", engine);
    struct e2e_run r, rep;
    e2e_run(&r, dir, NULL, "referee", "match", "--game", "connect4", "--engine", spec, "--engine",
            spec, "--games", "2", "--depth", "1", "--log", "log.json", NULL);
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    cr_assert_not_null(strstr(r.out, "Finished game 1 (engine vs engine-2): "), "%s", r.out);
    cr_assert_not_null(strstr(r.out, "Finished game 2 (engine-2 vs engine): "), "%s", r.out);
    e2e_run(&rep, dir, NULL, "referee", "report", "log.json", NULL);
    cr_assert_eq(rep.status, 0, "report: %s", rep.err);
    cr_assert(strstr(rep.out, "  engine                    2 ") &&
                  strstr(rep.out, "  engine-2                  2 "),
              "report:\n%s", rep.out);
    e2e_run_free(&rep);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

struct refusal {
    const char *engine[2];
    const char *err;
};

/* A match in dir between engines a and b is refused before any game with
 * message err: nothing on stdout, no log, status 2. */
static void assert_refused_in(const char *dir, const char *a, const char *b, const char *err)
{
    char log[PATH_MAX];
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "referee", "match", "--game", "connect4", "--engine", a, "--engine", b,
            "--log", "log.json", NULL);
    cr_assert_eq(r.status, EXIT_BAD, "exit %d: %s", r.status, r.err);
    cr_assert_str_eq(r.err, err);
    cr_assert_str_eq(r.out, "");
    snprintf(log, sizeof log, "%s/log.json", dir);
    cr_assert(!e2e_exists(log), "a log was written");
    e2e_run_free(&r);
}

static void assert_refused(const struct refusal *c)
{
    char *dir = e2e_tmpdir();
    assert_refused_in(dir, c->engine[0], c->engine[1], c->err);
    e2e_rmdir(dir);
}

Test(e2e_student, one_name_twice_is_refused_before_any_game)
{
    struct refusal c = { { "name=a cmd=sh", "name=a,cmd=sh -x" },
                         "referee: engines 1 and 2 are both named 'a'\n" };
    assert_refused(&c);
}

Test(e2e_student, missing_program_is_refused_before_any_game)
{
    struct refusal c = { { "cmd=pyhton3 first.py one-move name=alice", "sh" },
                         "referee: engine 'alice': program 'pyhton3' not found in PATH\n" };
    assert_refused(&c);
    struct refusal d = { { "sh", "dir=alice cmd=./first.py" },
                         "referee: engine 2: dir=alice: No such file or directory\n" };
    assert_refused(&d);
}

/* A script named as the program, from the folder it is in: a shell would
 * not run it either, and the message says what would. */
Test(e2e_student, a_script_in_this_folder_is_suggested_as_dot_slash)
{
    char *dir = e2e_tmpdir(), alice[PATH_MAX];
    student_folder(dir, "alice");
    snprintf(alice, sizeof alice, "%s/alice", dir);
    assert_refused_in(alice, "first.py", "sh",
                      "referee: engine 1: program 'first.py' not found in PATH: did you mean "
                      "./first.py?\n");
    e2e_rmdir(dir);
}

/* An interpreter's engine is named after its script, not the interpreter:
 * two students' Python engines are first and crash, not python3 and
 * python3-2, in the result lines and the report. */
Test(e2e_student, an_engine_is_named_after_its_script, .timeout = 120)
{
    use_system_python();
    char *dir = e2e_tmpdir(), alice[PATH_MAX];
    student_folder(dir, "alice");
    snprintf(alice, sizeof alice, "%s/alice", dir);
    struct e2e_run r;
    e2e_run(&r, alice, NULL, "referee", "match", "--game", "connect4", "--engine",
            "python3 first.py one-move", "--engine", "python3 -u crash.py one-move", "--games",
            "1", "--depth", "1", NULL);
    cr_assert_eq(r.status, 3, "exit %d: %s%s", r.status, r.out, r.err);
    cr_assert_not_null(strstr(r.out, "Finished game 1 (first vs crash): 1-0 {crash forfeits "
                                     "at ply 2: "), "%s", r.out);
    cr_assert_not_null(strstr(r.out, "\nScore of first vs crash: 1 - 0 - 0  [1.000] 1\n"), "%s",
                       r.out);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

/* Run as root, the referee plays engines as nobody: a program nobody may
 * not run, or a file of its command nobody may not read, is named before
 * the first game with the fix, instead of a bare cannot-run every move. */
struct out_of_reach {
    const char *engine;
    mode_t program_mode, weights_mode;
    const char *err;   /* %s: the test's folder */
};

static void assert_out_of_reach(const struct out_of_reach *c)
{
    if (geteuid() != 0)
        cr_skip_test("runs as root (whose engines play as nobody)");
    char *dir = e2e_tmpdir(), path[PATH_MAX], want[2 * PATH_MAX + 512];
    snprintf(path, sizeof path, "%s/first.py", dir);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs("#!/bin/sh\nexit 1\n", f);
    fclose(f);
    cr_assert_eq(chmod(path, c->program_mode), 0);
    snprintf(path, sizeof path, "%s/w.txt", dir);
    f = fopen(path, "w");
    cr_assert_not_null(f);
    fclose(f);
    cr_assert_eq(chmod(path, c->weights_mode), 0);
    snprintf(want, sizeof want, c->err, dir, dir);
    assert_refused_in(dir, c->engine, "sh", want);
    e2e_rmdir(dir);
}

Test(e2e_student, a_program_nobody_may_run_is_refused_before_any_game)
{
    struct out_of_reach script = {
        "name=alice,cmd=./first.py w.txt", 0700, 0644,
        "referee: engine 'alice': %s/first.py is out of reach of uid 65534 (nobody), who runs "
        "the engines of a referee run as root: mode 0700, owner uid 0; give others read and "
        "execute (chmod o+rx %s/first.py)\n" };
    assert_out_of_reach(&script);
    struct out_of_reach weights = {
        "name=bob,cmd=./first.py w.txt", 0755, 0600,
        "referee: engine 'bob': %s/w.txt is out of reach of uid 65534 (nobody), who runs the "
        "engines of a referee run as root: mode 0600, owner uid 0; give others read (chmod o+r "
        "%s/w.txt)\n" };
    assert_out_of_reach(&weights);
}

/* A file its command names inside a folder nobody may search (its folder
 * is shown at its own path, with its own mode) is named too; the working
 * folder, entered as root, needs no search bit (the tests' own are 0700). */
Test(e2e_student, a_folder_nobody_may_search_is_refused_before_any_game)
{
    if (geteuid() != 0)
        cr_skip_test("runs as root (whose engines play as nobody)");
    char *dir = e2e_tmpdir(), path[PATH_MAX + 16], want[2 * PATH_MAX + 512];
    snprintf(path, sizeof path, "%s/priv", dir);
    cr_assert_eq(mkdir(path, 0700), 0);
    snprintf(path, sizeof path, "%s/priv/e.sh", dir);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs("exit 1\n", f);
    fclose(f);
    cr_assert_eq(chmod(path, 0644), 0);
    snprintf(want, sizeof want,
             "referee: engine 'carol': %s/priv is out of reach of uid 65534 (nobody), who runs "
             "the engines of a referee run as root: mode 0700, owner uid 0; give others search "
             "(chmod o+x %s/priv)\n", dir, dir);
    assert_refused_in(dir, "name=carol,cmd=/bin/sh priv/e.sh", "sh", want);
    e2e_rmdir(dir);
}

Test(e2e_student, unknown_spec_key_is_named)
{
    struct refusal c = { { "cmd=sh nmae=x", "sh" },
                         "referee: --engine 'cmd=sh nmae=x': column 8: unknown key 'nmae' (name, "
                         "cmd, dir, args, stderr, depth, proto)\nTry 'referee --help' for more "
                         "information.\n" };
    assert_refused(&c);
}

/* What crash.py (in folder dir) writes to stderr. */
static void crash_traceback(const char *dir, char *buf, size_t cap)
{
    snprintf(buf, cap,
             "debug: thinking\n"
             "Traceback (most recent call last):\n"
             "  File \"%s/crash.py\", line 11, in <module>\n"
             "    evaluate(None)\n"
             "  File \"%s/crash.py\", line 7, in evaluate\n"
             "    raise ValueError(\"no legal move found\")\n"
             "ValueError: no legal move found\n",
             dir, dir);
}

static void assert_file(const char *dir, const char *rel, const char *want)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", dir, rel);
    char *text = e2e_slurp(path, NULL);
    cr_assert_not_null(text, "no file %s", path);
    cr_assert_str_eq(text, want, "%s", rel);
    free(text);
}

/* stderr=FILE gets every move's stderr under a header (the engine's file
 * is relative to the referee's folder, not to dir=); --keep-files keeps
 * each move's stderr beside its boards. */
Test(e2e_student, stderr_file_and_kept_files_hold_the_traceback, .timeout = 120)
{
    use_system_python();
    char *dir = e2e_tmpdir(), engine[PATH_MAX], b[SPEC_MAX], alice[PATH_MAX];
    student_folder(dir, "alice");
    /* The opponent plays under a row's --mem-limit-mb too (RLIMIT_AS). */
    e2e_engine_bin_path("engine", engine, sizeof engine);
    snprintf(b, sizeof b, "%s one-move --game connect4", engine);
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "referee", "match", "--game", "connect4", "--engine",
            "name=crash dir=alice cmd=python3 crash.py one-move stderr=crash.err", "--engine", b,
            "--games", "2", "--depth", "1", "--keep-files", "keep", NULL);
    cr_assert_eq(r.status, 3, "exit %d: %s", r.status, r.err);
    /* The line under each forfeit names the kept position and the file. */
    char under[3 * PATH_MAX];
    snprintf(under, sizeof under,
             "crash.py, line 7, in evaluate)}\n"
             "  ply 2: its position is keep/game-2/ply-002-in.txt; its stderr: %s/crash.err "
             "(stderr=)\n", dir);
    cr_assert_not_null(strstr(r.out, under), "%s", r.out);
    snprintf(alice, sizeof alice, "%s/alice", dir);
    char tb[2 * PATH_MAX + 512], want[2 * sizeof tb + 128];
    crash_traceback(alice, tb, sizeof tb);
    snprintf(want, sizeof want,
             "--- game 1, ply 1, crash (player 1): exit-status 1 ---\n%s"
             "--- game 2, ply 2, crash (player 2): exit-status 1 ---\n%s",
             tb, tb);
    assert_file(dir, "crash.err", want);
    assert_file(dir, "keep/game-1/ply-001-err.txt", tb);
    assert_file(dir, "keep/game-2/ply-002-err.txt", tb);
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/keep/game-2/ply-001-err.txt", dir);
    char *info = e2e_slurp(path, NULL);
    cr_assert(info && strncmp(info, "info game connect4 ", 19) == 0, "engine's stderr: %s", info);
    free(info);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

/* A broken student engine of the gallery (tests/engines/python) and what its
 * two games print: each forfeit names its ply, its reason and the stderr
 * line that says why, then where the position and the whole stderr are. */
struct forfeit {
    char spec[64];       /* the student's engine, in dir/alice; DIR is dir */
    char args[2][24];    /* more referee options ("": none) */
    int ply[2];          /* the ply it forfeits at in games 1 and 2 */
    char why[2][200];    /* its forfeit in games 1 and 2 (it moves first in 1) */
    int stderr_said;     /* 1: it wrote to stderr (the line under says where) */
    char reason[40];     /* the reasons on the last line */
};

ParameterizedTestParameters(e2e_student, every_forfeit_says_why)
{
    static struct forfeit cases[] = {
        /* The README's own form, run from the folder above the script. */
        { "name=rand,cmd=python3 rand_mc4.py one-move", { "" }, { 1, 2 },
          { "exit-status 2: python3: can't open file 'DIR/rand_mc4.py': [Errno 2] No such file "
            "or directory",
            "exit-status 2: python3: can't open file 'DIR/rand_mc4.py': [Errno 2] No such file "
            "or directory" },
          1, "exit-status 2" },
        /* A traceback: the exception, and where in the engine's own code. */
        { "name=crash dir=alice cmd=python3 crash.py one-move", { "" }, { 1, 2 },
          { "exit-status 1: ValueError: no legal move found (crash.py, line 7, in evaluate)",
            "exit-status 1: ValueError: no legal move found (crash.py, line 7, in evaluate)" },
          1, "exit-status 1" },
        /* Raised inside the library (random.py): the frame shown is the
         * engine's own. */
        { "name=traceback dir=alice cmd=python3 traceback.py one-move", { "" }, { 1, 2 },
          { "exit-status 1: IndexError: Cannot choose from an empty sequence (traceback.py, "
            "line 12, in best_move)",
            "exit-status 1: IndexError: Cannot choose from an empty sequence (traceback.py, "
            "line 12, in best_move)" },
          1, "exit-status 1" },
        /* Not Python at all: the error and where, without a traceback. */
        { "name=syntax dir=alice cmd=python3 syntax.py one-move", { "" }, { 1, 2 },
          { "exit-status 1: SyntaxError: '(' was never closed (syntax.py, line 6)",
            "exit-status 1: SyntaxError: '(' was never closed (syntax.py, line 6)" },
          1, "exit-status 1" },
        /* A usage error: the cause is the line before "Try '... --help'". */
        { "name=usage dir=alice cmd=python3 usage.py one-move", { "" }, { 1, 2 },
          { "exit-status 2: usage.py: error: --depth 1 and DEPTH 4 disagree",
            "exit-status 2: usage.py: error: --depth 1 and DEPTH 4 disagree" },
          1, "exit-status 2" },
        /* Usage errors whose last line is no quoted "Try '... --help'":
         * the cause is the last line that is neither a usage line nor a
         * pointer to the help (argparse's two lines end with the cause). */
        { "name=usage dir=alice cmd=python3 usagestyle.py try", { "" }, { 1, 2 },
          { "exit-status 2: usagestyle.py: --depth 2 and DEPTH 1 disagree",
            "exit-status 2: usagestyle.py: --depth 2 and DEPTH 1 disagree" },
          1, "exit-status 2" },
        { "name=usage dir=alice cmd=python3 usagestyle.py run", { "" }, { 1, 2 },
          { "exit-status 2: usagestyle.py: --depth 2 and DEPTH 1 disagree",
            "exit-status 2: usagestyle.py: --depth 2 and DEPTH 1 disagree" },
          1, "exit-status 2" },
        { "name=usage dir=alice cmd=python3 usagestyle.py argparse", { "" }, { 1, 2 },
          { "exit-status 2: usagestyle.py: error: --depth 2 and DEPTH 1 disagree",
            "exit-status 2: usagestyle.py: error: --depth 2 and DEPTH 1 disagree" },
          1, "exit-status 2" },
        /* The board printed to stdout instead of written to OUT. */
        { "name=printer dir=alice cmd=python3 printer.py one-move", { "" }, { 1, 2 },
          { "no-output: it wrote 7 lines to stdout and no OUT file",
            "no-output: it wrote 7 lines to stdout and no OUT file" },
          0, "no-output" },
        /* An engine that stays for the game, started without
         * proto=persistent: its stdin is empty, it ends at once. */
        { "name=waiter dir=alice cmd=python3 waiter.py", { "" }, { 1, 2 },
          { "no-output: it read nothing from stdin and wrote no OUT: is it a persistent "
            "engine? add proto=persistent",
            "no-output: it read nothing from stdin and wrote no OUT: is it a persistent "
            "engine? add proto=persistent" },
          0, "no-output" },
        /* An interpreter that cannot get its memory: the limit, its option,
         * and the interpreter's words. */
        { "name=bigalloc dir=alice cmd=python3 bigalloc.py one-move", { "--mem-limit-mb", "256" },
          { 1, 2 },
          { "memory-limit: ran out of its 256 MB of address space (--mem-limit-mb): "
            "MemoryError (bigalloc.py, line 4, in <module>)",
            "memory-limit: ran out of its 256 MB of address space (--mem-limit-mb): "
            "MemoryError (bigalloc.py, line 4, in <module>)" },
          1, "memory-limit" },
        /* A hang: the limit and its option. */
        { "name=hang dir=alice cmd=python3 hang.py one-move", { "--timeout-ms", "500" }, { 1, 2 },
          { "timeout: no answer within 500 ms of wall time (--timeout-ms)",
            "timeout: no answer within 500 ms of wall time (--timeout-ms)" },
          0, "timeout" },
        { "name=noplayer dir=alice cmd=python3 noplayer.py one-move", { "" }, { 1, 2 },
          { "unreadable: 7:1: missing the player-to-move line (1 or 2)",
            "unreadable: 7:1: missing the player-to-move line (1 or 2)" },
          0, "unreadable" },
        /* The public student solution whose minimax never undoes a move:
         * its board is readable, its answer wrong. */
        { "name=noundo dir=alice cmd=python3 noundo.py one-move", { "" }, { 1, 2 },
          { "illegal-move: adds 41 discs of player 1", "illegal-move: adds 41 discs of player 2" },
          0, "illegal-move" },
        /* Column 3 full after the opening: as player 1 its drop lands on
         * player 2's top disc; as player 2 on its own (nothing changes). */
        { "name=fullcolumn dir=alice cmd=python3 fullcolumn.py one-move",
          { "--openings", "alice/full3.txt" }, { 1, 2 },
          { "illegal-move: column 3 is full (the answer turns player 2's disc at its top into "
            "player 1's)",
            "illegal-move: adds no disc (full: column 3)" },
          0, "illegal-move" },
        { "name=otherside dir=alice cmd=python3 otherside.py one-move", { "" }, { 1, 2 },
          { "wrong-player: plays for player 2 on player 1's turn",
            "wrong-player: plays for player 1 on player 2's turn" },
          0, "wrong-player" },
        { "name=eraser dir=alice cmd=python3 eraser.py one-move", { "" }, { 3, 2 },
          { "tampered-board: removes the disc at row 6 column 1",
            "tampered-board: removes the disc at row 6 column 1" },
          0, "tampered-board" },
        /* Python ignores SIGXFSZ: its write fails with EFBIG and it exits 1;
         * the limit is still why it lost. */
        { "name=big dir=alice cmd=python3 bigfile.py one-move", { "" }, { 1, 2 },
          { "file-limit: wrote a file past 1024 KB, the most an engine may write: OSError: "
            "[Errno 27] File too large (bigfile.py, line 7, in <module>)",
            "file-limit: wrote a file past 1024 KB, the most an engine may write: OSError: "
            "[Errno 27] File too large (bigfile.py, line 7, in <module>)" },
          1, "file-limit" },
    };
    return cr_make_param_array(struct forfeit, cases, sizeof cases / sizeof *cases);
}

/* Copies src into dst (cap bytes) with DIR replaced by dir. */
static void with_dir(char *dst, size_t cap, const char *src, const char *dir)
{
    const char *at = strstr(src, "DIR");
    if (at)
        snprintf(dst, cap, "%.*s%s%s", (int)(at - src), src, dir, at + 3);
    else
        snprintf(dst, cap, "%s", src);
}

/* The line under a forfeit at ply of game (no --keep-files, no --log). */
static void evidence(char *buf, size_t cap, int game, int ply, int stderr_said)
{
    snprintf(buf, cap, "  ply %d: --keep-files DIR keeps its position (DIR/game-%d/ply-%03d-in.txt)%s\n",
             ply, game, ply,
             stderr_said ? "; its stderr: --log FILE keeps it (\"stderr_tail\"), or stderr=FILE"
                         : "");
}

/* Each forfeit line says at which ply, why (the reason, what the answer
 * changed, the limit, the stderr line that explains) and where to look;
 * every game of it a forfeit: a last line says so, and the status is 3. */
ParameterizedTest(struct forfeit *c, e2e_student, every_forfeit_says_why, .timeout = 120)
{
    use_system_python();
    char *dir = e2e_tmpdir(), engine[PATH_MAX], b[SPEC_MAX];
    /* Readable by others, as a teacher's folder is: as root, the sandbox
     * runs engines as nobody, and `rand` runs in this folder itself. */
    cr_assert_eq(chmod(dir, 0755), 0, "chmod %s", dir);
    student_folder(dir, "alice");
    /* The opponent plays under a row's --mem-limit-mb too (RLIMIT_AS). */
    e2e_engine_bin_path("engine", engine, sizeof engine);
    snprintf(b, sizeof b, "%s one-move --game connect4", engine);
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "referee", "match", "--game", "connect4", "--engine", c->spec,
            "--engine", b, "--games", "2", "--depth", "1",
            c->args[0][0] ? c->args[0] : NULL, c->args[1], NULL);
    cr_assert_eq(r.status, 3, "%s: exit %d: %s", c->spec, r.status, r.err);
    const char *name = strchr(c->spec, '=') + 1;
    int nl = (int)strcspn(name, " ,");
    char why[2][2 * PATH_MAX], under[2][256], want[6 * PATH_MAX];
    for (int g = 0; g < 2; g++) {
        with_dir(why[g], sizeof why[g], c->why[g], dir);
        evidence(under[g], sizeof under[g], g + 1, c->ply[g], c->stderr_said);
    }
    snprintf(want, sizeof want,
             "Finished game 1 (%.*s vs engine): 0-1 {%.*s forfeits at ply %d: %s}\n%s"
             "Finished game 2 (engine vs %.*s): 1-0 {%.*s forfeits at ply %d: %s}\n%s"
             "Score of %.*s vs engine: 0 - 2 - 0  [0.000] 2\n"
             "%.*s forfeited every game it played (2): %s\n",
             nl, name, nl, name, c->ply[0], why[0], under[0], nl, name, nl, name, c->ply[1],
             why[1], under[1], nl, name, nl, name, c->reason);
    cr_assert_str_eq(r.out, want, "%s: got\n%s\nwant\n%s", c->spec, r.out, want);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

/* The Java student: compiled here (as tests/engines/NimFirst.java is in
 * the sandbox tests), its exception shown with its own innermost frame
 * (not the JDK's), the forfeit saying where its whole stderr is. */
Test(e2e_student, java_exception_names_its_own_frame, .timeout = 240)
{
    char *dir = e2e_tmpdir(), source[PATH_MAX], cmd[3 * PATH_MAX], engine[PATH_MAX];
    char java[SPEC_MAX], b[SPEC_MAX];
    cr_assert_eq(chmod(dir, 0755), 0, "chmod %s", dir);
    e2e_repo_path("tests/engines/C4Broken.java", source, sizeof source);
    snprintf(cmd, sizeof cmd, "java -m jdk.compiler/com.sun.tools.javac.Main -d %s/classes %s",
             dir, source);
    cr_assert_eq(system(cmd), 0, "%s failed (is default-jre-headless installed?)", cmd);
    snprintf(cmd, sizeof cmd, "%s/classes", dir);
    chmod(cmd, 0755);
    snprintf(java, sizeof java, "name=java,cmd=java -cp %s/classes C4Broken one-move", dir);
    e2e_engine_bin_path("engine", engine, sizeof engine);
    snprintf(b, sizeof b, "%s one-move --game connect4", engine);
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "referee", "match", "--game", "connect4", "--engine", java,
            "--engine", b, "--games", "1", "--depth", "1", "--log", "m.json", NULL);
    cr_assert_eq(r.status, 3, "exit %d: %s", r.status, r.err);
    cr_assert_str_eq(r.out,
                     "Finished game 1 (java vs engine): 0-1 {java forfeits at ply 1: exit-status "
                     "1: java.lang.ArrayIndexOutOfBoundsException: Index 7 out of bounds for "
                     "length 7 (at C4Broken.firstEmpty(C4Broken.java:14))}\n"
                     "  ply 1: --keep-files DIR keeps its position (DIR/game-1/ply-001-in.txt); "
                     "its stderr: \"stderr_tail\" in m.json, or stderr=FILE\n"
                     "Score of java vs engine: 0 - 1 - 0  [0.000] 1\n"
                     "java forfeited every game it played (1): exit-status 1\n");
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

/* A tournament's journal keeps a forfeit's stderr, and the header says what
 * ran: the program's digest, the script's and the working directory. */
Test(e2e_student, journal_keeps_the_traceback_and_what_ran, .timeout = 120)
{
    use_system_python();
    char *dir = e2e_tmpdir(), engine[PATH_MAX], b[SPEC_MAX], alice[PATH_MAX], path[PATH_MAX];
    student_folder(dir, "alice");
    /* The opponent plays under a row's --mem-limit-mb too (RLIMIT_AS). */
    e2e_engine_bin_path("engine", engine, sizeof engine);
    snprintf(b, sizeof b, "%s one-move --game connect4", engine);
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "referee", "tournament", "--game", "connect4", "--engine",
            "name=crash dir=alice cmd=python3 crash.py one-move", "--engine", b, "--depth", "1",
            "--journal", "j.jsonl", NULL);
    cr_assert_eq(r.status, 3, "exit %d: %s", r.status, r.err);
    cr_assert_not_null(strstr(r.out, "{crash forfeits at ply 1: exit-status 1: ValueError: no "
                                     "legal move found (crash.py, line 7, in evaluate)}\n"
                                     "  ply 1: --keep-files DIR keeps its position "
                                     "(DIR/game-1/ply-001-in.txt); its stderr: \"stderr_tail\" "
                                     "in j.jsonl, or stderr=FILE\n"), "%s", r.out);
    cr_assert_not_null(strstr(r.out, "\ncrash forfeited every game it played (2): exit-status 1\n"),
                       "%s", r.out);
    snprintf(path, sizeof path, "%s/j.jsonl", dir);
    char *text = e2e_slurp(path, NULL);
    cr_assert_not_null(text);
    char *second = strchr(text, '\n');
    cr_assert_not_null(second);
    *second++ = '\0';
    cJSON *header = cJSON_Parse(text), *game = cJSON_Parse(second);
    cr_assert(header && game, "the journal does not parse:\n%s", text);
    snprintf(alice, sizeof alice, "%s/alice", dir);
    const cJSON *crash = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(header, "engines"), 0);
    cr_expect_str_eq(cJSON_GetObjectItemCaseSensitive(crash, "dir")->valuestring, alice);
    const cJSON *file = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(crash, "files"), 0);
    char script[PATH_MAX + 16], hex[SHA256_HEX];
    snprintf(script, sizeof script, "%s/crash.py", alice);
    struct err e;
    cr_assert_eq(sha256_file(script, hex, &e), 0, "%s", e.msg);
    cr_expect_str_eq(cJSON_GetObjectItemCaseSensitive(file, "path")->valuestring, script);
    cr_expect_str_eq(cJSON_GetObjectItemCaseSensitive(file, "sha256")->valuestring, hex);
    cr_assert_eq(sha256_file("/usr/bin/python3", hex, &e), 0, "%s", e.msg);
    cr_expect_str_eq(cJSON_GetObjectItemCaseSensitive(crash, "sha256")->valuestring, hex);
    const cJSON *moves = cJSON_GetObjectItemCaseSensitive(game, "moves");
    const cJSON *last = cJSON_GetArrayItem(moves, cJSON_GetArraySize(moves) - 1);
    char tb[2 * PATH_MAX + 512];
    crash_traceback(alice, tb, sizeof tb);
    cr_expect_str_eq(cJSON_GetObjectItemCaseSensitive(last, "stderr_tail")->valuestring, tb);
    cr_expect_null(cJSON_GetObjectItemCaseSensitive(last, "stdout_tail"));
    cJSON_Delete(header);
    cJSON_Delete(game);
    free(text);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

/* --log in a folder that does not exist used to play every game and then
 * lose them: refused before any game, the engines never run. */
Test(e2e_student, unwritable_log_is_refused_before_any_game)
{
    char *dir = e2e_tmpdir(), spec[SPEC_MAX];
    snprintf(spec, sizeof spec, "name=marker,cmd=sh -c 'touch %s/ran'", dir);
    static const char *const opts[][2] = {
        { "--log", "missing/x.json" }, { "--keep-files", "missing/keep" },
    };
    static const char *const errs[] = {
        "referee: --log missing/x.json: cannot create files in missing: No such file or "
        "directory\n",
        "referee: --keep-files missing/keep: No such file or directory\n",
    };
    for (int i = 0; i < 2; i++) {
        struct e2e_run r;
        e2e_run(&r, dir, NULL, "referee", "match", "--game", "connect4", "--engine", spec,
                "--engine", "sh", opts[i][0], opts[i][1], NULL);
        cr_assert_eq(r.status, EXIT_BAD, "%s: exit %d: %s", opts[i][0], r.status, r.err);
        cr_assert_str_eq(r.err, errs[i]);
        cr_assert_str_eq(r.out, "");
        e2e_run_free(&r);
    }
    struct e2e_run t;
    e2e_run(&t, dir, NULL, "referee", "tournament", "--game", "connect4", "--engine", spec,
            "--engine", "sh", "--journal", "missing/j.jsonl", NULL);
    cr_assert_eq(t.status, EXIT_BAD, "exit %d: %s", t.status, t.err);
    cr_assert_str_eq(t.err, "referee: --journal missing/j.jsonl: cannot create files in missing: "
                            "No such file or directory\n");
    e2e_run_free(&t);
    char ran[PATH_MAX + 8];
    snprintf(ran, sizeof ran, "%s/ran", dir);
    cr_assert(!e2e_exists(ran), "an engine ran");
    e2e_rmdir(dir);
}
