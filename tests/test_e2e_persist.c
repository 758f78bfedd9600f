/*
 * test_e2e_persist.c - engines that stay for the whole game (SPEC
 * proto=persistent, persist.h) and the game clock in CPU time (--tc).
 *
 * The example engines of docs/persistent (Python, C compiled here, Java
 * compiled here with the JRE's javac module) play the built-in engine in
 * the sandbox; tests/engines/persistent_bad.py breaks the protocol one way
 * each (silent, done before OUT, OUT for another position, a stdout flood,
 * never reading stdin, exiting mid-game, sleeping through quit) and each
 * is its exact forfeit with no process of it left, in the sandbox and
 * without; tests/engines/spin.py burns CPU against a clock: it loses
 * out-of-time, file engine or persistent, and is told BASE exactly in ms
 * at its first move ({time}, TIME_LEFT_MS). A --tc that does not parse is
 * refused with the expected form. An engine that keeps writing in its move
 * folder between its moves (persistent_bad.py churn) forfeits the game
 * whose folder it kept from being reset, and the tournament goes on.
 *
 * Engines find programs through PATH=/usr/bin:/bin: an interpreter outside
 * the system folders (a pyenv shim) is not in an engine's view.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <cjson/cJSON.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "e2e_util.h"

#define SPEC_MAX (4 * PATH_MAX)
#define REASON_MAX 192
#define ENGINE_PATH "/usr/bin:/bin"
#define BUILTIN_C4 "name=builtin,cmd=%s one-move"
#define PERFECT_NIM "name=c,cmd=%s one-move --game nim --player perfect"
#define TC_FORM                                                                              \
    "--tc must be BASE+INC in seconds (BASE above 0, INC 0 or more, whole milliseconds: " \
    "10+0.1, 60+0, 2.5+0.025)"

/* A match of two games of maxconnect4 between spec (named name) and the
 * built-in engine in dir: exit 0, no forfeit, the score line, and the log's
 * header says the engine is persistent. */
static void assert_plays_builtin(const char *dir, const char *spec, const char *name)
{
    /* A root referee's engines run as nobody (sandbox.h). */
    cr_assert_eq(chmod(dir, 0755), 0, "chmod %s", dir);
    char builtin[SPEC_MAX], engine[PATH_MAX], score[128];
    e2e_engine_bin_path("engine", engine, sizeof engine);
    snprintf(builtin, sizeof builtin, BUILTIN_C4, engine);
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "referee", "match", "--game", "maxconnect4", "--games", "2", "--depth",
            "2", "--random-plies", "2", "--engine", spec, "--engine", builtin, "--log",
            "log.json", NULL);
    snprintf(score, sizeof score, "Score of %s vs builtin: ", name);
    cr_assert_eq(r.status, 0, "%s: exit %d: %s%s", name, r.status, r.out, r.err);
    cr_assert_null(strstr(r.out, "forfeits"), "%s: a forfeit:\n%s", name, r.out);
    cr_assert_not_null(strstr(r.out, score), "%s: no '%s':\n%s", name, score, r.out);
    cJSON *log = e2e_read_json(dir, "log.json");
    const cJSON *eng = cJSON_GetArrayItem(cJSON_GetObjectItem(log, "engines"), 0);
    const char *proto = cJSON_GetStringValue(cJSON_GetObjectItem(eng, "proto"));
    cr_assert(proto && strcmp(proto, "persistent") == 0, "%s: the header's proto is %s", name,
              proto ? proto : "missing");
    cJSON_Delete(log);
    e2e_run_free(&r);
}

Test(e2e_persist, the_python_example_plays_the_builtin_engine)
{
    char *dir = e2e_tmpdir(), script[PATH_MAX], spec[SPEC_MAX];
    setenv("PATH", ENGINE_PATH, 1);
    e2e_repo_path("docs/persistent/persistent_engine.py", script, sizeof script);
    snprintf(spec, sizeof spec, "name=py,proto=persistent,cmd=python3 %s", script);
    assert_plays_builtin(dir, spec, "py");
    e2e_rmdir(dir);
}

Test(e2e_persist, the_c_example_plays_the_builtin_engine)
{
    char *dir = e2e_tmpdir(), source[PATH_MAX], cmd[3 * PATH_MAX], spec[SPEC_MAX];
    e2e_repo_path("docs/persistent/persistent_engine.c", source, sizeof source);
    snprintf(cmd, sizeof cmd, "cc -O2 -Wall -Wextra -Werror -o %s/pe %s", dir, source);
    cr_assert_eq(system(cmd), 0, "%s failed", cmd);
    setenv("PATH", ENGINE_PATH, 1);
    snprintf(spec, sizeof spec, "name=c,proto=persistent,cmd=%s/pe", dir);
    assert_plays_builtin(dir, spec, "c");
    e2e_rmdir(dir);
}

/* Compiled with the JRE's own javac module, as test_e2e_sandbox.c's Java
 * engine is (default-jre-headless has it, no JDK needed). */
Test(e2e_persist, the_java_example_plays_the_builtin_engine, .timeout = 240)
{
    char *dir = e2e_tmpdir(), source[PATH_MAX], classes[PATH_MAX], cmd[3 * PATH_MAX];
    char spec[SPEC_MAX];
    e2e_repo_path("docs/persistent/PersistentEngine.java", source, sizeof source);
    snprintf(classes, sizeof classes, "%s/classes", dir);
    snprintf(cmd, sizeof cmd, "java -m jdk.compiler/com.sun.tools.javac.Main -d %s %s", classes,
             source);
    cr_assert_eq(system(cmd), 0, "%s failed (is default-jre-headless installed?)", cmd);
    setenv("PATH", ENGINE_PATH, 1);
    snprintf(spec, sizeof spec, "name=java,proto=persistent,cmd=java -cp %s PersistentEngine",
             classes);
    assert_plays_builtin(dir, spec, "java");
    e2e_rmdir(dir);
}

/* The Java example under --mem-limit-mb 512 with a 1 GiB heap: the JVM
 * cannot reserve it and says so on stdout, not stderr, and exits 1. The
 * forfeit is the memory limit with its option and the JVM's words, and
 * the line under it says where its stdout is kept. */
Test(e2e_persist, a_jvm_that_cannot_reserve_its_heap_is_a_memory_limit, .timeout = 240)
{
    char *dir = e2e_tmpdir(), source[PATH_MAX], classes[PATH_MAX], cmd[3 * PATH_MAX];
    char spec[SPEC_MAX], builtin[SPEC_MAX], engine[PATH_MAX];
    cr_assert_eq(chmod(dir, 0755), 0, "chmod %s", dir);
    e2e_repo_path("docs/persistent/PersistentEngine.java", source, sizeof source);
    snprintf(classes, sizeof classes, "%s/classes", dir);
    snprintf(cmd, sizeof cmd, "java -m jdk.compiler/com.sun.tools.javac.Main -d %s %s", classes,
             source);
    cr_assert_eq(system(cmd), 0, "%s failed (is default-jre-headless installed?)", cmd);
    chmod(classes, 0755);
    setenv("PATH", ENGINE_PATH, 1);
    snprintf(spec, sizeof spec,
             "name=java,proto=persistent,cmd=java -Xmx1g -cp %s PersistentEngine", classes);
    e2e_engine_bin_path("engine", engine, sizeof engine);
    snprintf(builtin, sizeof builtin, BUILTIN_C4, engine);
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "referee", "match", "--game", "maxconnect4", "--games", "1",
            "--depth", "2", "--mem-limit-mb", "512", "--engine", spec, "--engine", builtin, NULL);
    cr_assert_eq(r.status, 3, "exit %d: %s%s", r.status, r.out, r.err);
    cr_assert_str_eq(r.out,
                     "Finished game 1 (java vs builtin): 0-1 {java forfeits at ply 1: "
                     "memory-limit: ran out of its 512 MB of address space (--mem-limit-mb): "
                     "Could not reserve enough space for 1048576KB object heap}\n"
                     "  ply 1: --keep-files DIR keeps its position (DIR/game-1/ply-001-in.txt); "
                     "its stdout: --log FILE keeps it (\"stdout_tail\")\n"
                     "Score of java vs builtin: 0 - 1 - 0  [0.000] 1\n"
                     "java forfeited every game it played (1): memory-limit\n");
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

/* --- bad input ------------------------------------------------------------ */

struct bad_case {
    char mode[24];
    char sandbox[16];
    char reason[160];        /* "": the games are played without a forfeit */
};

#define TIMED_OUT "timeout: no answer within 1500 ms of wall time (--timeout-ms)"

ParameterizedTestParameters(e2e_persist, a_broken_protocol_is_its_named_forfeit)
{
    static struct bad_case cases[] = {
        { "silent", "namespaces", TIMED_OUT },
        { "silent", "none", TIMED_OUT },
        { "early-done", "namespaces", "no-output: it printed done and wrote no OUT file" },
        { "no-flush", "namespaces",
          TIMED_OUT ": OUT was written but no done line came (flush stdout after done)" },
        { "no-flush", "none",
          TIMED_OUT ": OUT was written but no done line came (flush stdout after done)" },
        { "other-position", "namespaces", "illegal-move: takes no match" },
        { "flood", "namespaces", "stdout-flood" },
        { "flood", "none", "stdout-flood" },
        { "deaf", "namespaces", TIMED_OUT },
        { "deaf", "none", TIMED_OUT },
        { "exits", "namespaces", "exit-status 3" },
        { "exits-0", "namespaces", "exit-status 0" },
        { "exits", "none", "exit-status 3" },
        { "stays", "namespaces", "" },
        { "stays", "none", "" },
    };
    return cr_make_param_array(struct bad_case, cases, sizeof cases / sizeof *cases);
}

/* The reason of the result line that starts with head in out (the text
 * between "at ply N: " and the closing brace), into buf; "" when none. */
static void forfeit_of(const char *out, const char *head, char *buf, size_t cap)
{
    const char *line = strstr(out, head), *at = line ? strstr(line, " at ply ") : NULL;
    const char *from = at ? strstr(at, ": ") : NULL, *to = from ? strstr(from, "}\n") : NULL;
    snprintf(buf, cap, "%.*s", to ? (int)(to - from - 2) : 0, to ? from + 2 : "");
}

/* Two games of nim against the perfect player: each game's line names the
 * forfeit exactly, and no process of the engine is left (its TAG, the
 * test's pid, names it for pgrep). */
ParameterizedTest(struct bad_case *c, e2e_persist, a_broken_protocol_is_its_named_forfeit,
                  .timeout = 60)
{
    char *dir = e2e_tmpdir(), script[PATH_MAX], engine[PATH_MAX], spec[SPEC_MAX];
    char perfect[SPEC_MAX], tag[64];
    setenv("PATH", ENGINE_PATH, 1);
    e2e_repo_path("tests/engines/persistent_bad.py", script, sizeof script);
    e2e_engine_bin_path("engine", engine, sizeof engine);
    /* The pid: this test's engine, named in its command line. */
    snprintf(tag, sizeof tag, "persistent_bad[.]py %s %ld", c->mode, (long)getpid());
    snprintf(spec, sizeof spec, "name=bad,proto=persistent,cmd=python3 %s %s %ld", script,
             c->mode, (long)getpid());
    snprintf(perfect, sizeof perfect, PERFECT_NIM, engine);
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "referee", "match", "--game", "nim", "--games", "2",
            "--random-plies", "2", "--timeout-ms", "1500", "--sandbox", c->sandbox, "--engine",
            spec, "--engine", perfect, NULL);
    /* 3: an engine forfeited every game it played. */
    cr_assert_eq(r.status, c->reason[0] ? 3 : 0, "%s (%s): exit %d: %s%s", c->mode, c->sandbox,
                 r.status, r.out, r.err);
    if (c->reason[0]) {
        static const char *const head[2] = { "Finished game 1 (bad vs c): 0-1 {bad forfeits",
                                             "Finished game 2 (c vs bad): 1-0 {bad forfeits" };
        for (int i = 0; i < 2; i++) {
            char got[REASON_MAX];
            forfeit_of(r.out, head[i], got, sizeof got);
            cr_assert_str_eq(got, c->reason, "%s (%s), game %d:\n%s", c->mode, c->sandbox,
                             i + 1, r.out);
        }
    } else {
        cr_assert_null(strstr(r.out, "forfeits"), "%s (%s): a forfeit:\n%s", c->mode,
                       c->sandbox, r.out);
    }
    cr_assert(!e2e_process_alive(tag), "%s (%s): a process of the engine is left", c->mode,
              c->sandbox);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

/* referee bench goes on after an engine that stays failed a move: the next
 * move starts it again, in the same sandbox (whose move folder the referee
 * writes the board to), so every other move is played and no process of it
 * is left. */
struct bench_case {
    char sandbox[16];   /* --sandbox */
};

ParameterizedTestParameters(e2e_persist, referee_bench_starts_a_failed_engine_again)
{
    static struct bench_case modes[] = { { "namespaces" }, { "none" } };
    return cr_make_param_array(struct bench_case, modes, sizeof modes / sizeof *modes);
}

ParameterizedTest(struct bench_case *c, e2e_persist, referee_bench_starts_a_failed_engine_again,
                  .timeout = 60)
{
    const char *sandbox = c->sandbox;
    char *dir = e2e_tmpdir(), script[PATH_MAX], spec[SPEC_MAX], tag[64];
    setenv("PATH", ENGINE_PATH, 1);
    e2e_repo_path("tests/engines/persistent_bad.py", script, sizeof script);
    snprintf(tag, sizeof tag, "persistent_bad[.]py exits %ld", (long)getpid());
    snprintf(spec, sizeof spec, "name=bad,proto=persistent,cmd=python3 %s exits %ld", script,
             (long)getpid());
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "referee", "bench", "--game", "nim", "--depths", "1-1",
            "--random-positions", "4", "--plies", "1", "--sandbox", sandbox, "--engine", spec,
            NULL);
    cr_assert_eq(r.status, 0, "%s: exit %d: %s%s", sandbox, r.status, r.out, r.err);
    static const char want[] = "\n  bad at depth 1: 2 of 4 moves failed, not timed: 2 "
                               "exit-status 3 (first at position 2)\n";
    cr_assert_not_null(strstr(r.out, want), "%s: no line%s in:\n%s", sandbox, want, r.out);
    cr_assert(!e2e_process_alive(tag), "%s: a process of the engine is left", sandbox);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

/* --- an engine that races the referee in its folder ---------------------- */

#define RACE_HEAD "folder-race: it kept writing in its move folder between its moves, " \
                  "which could not be reset: "
#define RACE_ROUNDS "4"
#define RACE_GAMES 8

struct race_case {
    char sandbox[16];   /* --sandbox */
};

ParameterizedTestParameters(e2e_persist, an_engine_racing_its_folder_reset_forfeits_the_game)
{
    static struct race_case modes[] = { { "namespaces" }, { "none" } };
    return cr_make_param_array(struct race_case, modes, sizeof modes / sizeof *modes);
}

/* persistent_bad.py churn fills its move folder from child processes
 * without end, from its first move on, while the referee empties it for
 * its next move: the reset that cannot complete is that engine's forfeit
 * (folder-race), never the referee's failure, so the tournament plays
 * every game once (no game played again), exits 0 (3 when the engine
 * forfeited every game), and its journal verifies. Each game of the engine is a normal one or that forfeit, and
 * the race is lost at least once (three churners, thousands of files a
 * reset: in 16 games measured here every game but 4 was the forfeit).
 * With --ponder: by default the engine is frozen between its moves, so it
 * cannot race the reset at all; pondering, it runs there, and can. */
ParameterizedTest(struct race_case *c, e2e_persist,
                  an_engine_racing_its_folder_reset_forfeits_the_game, .timeout = 120)
{
    char *dir = e2e_tmpdir(), script[PATH_MAX], engine[PATH_MAX], spec[SPEC_MAX];
    char perfect[SPEC_MAX], tag[64], want[64];
    cr_assert_eq(chmod(dir, 0755), 0, "chmod %s", dir);   /* nobody's engines read it */
    setenv("PATH", ENGINE_PATH, 1);
    e2e_repo_path("tests/engines/persistent_bad.py", script, sizeof script);
    e2e_engine_bin_path("engine", engine, sizeof engine);
    snprintf(tag, sizeof tag, "persistent_bad[.]py churn %ld", (long)getpid());
    snprintf(spec, sizeof spec, "name=churn,proto=persistent,cmd=python3 %s churn %ld", script,
             (long)getpid());
    snprintf(perfect, sizeof perfect, PERFECT_NIM, engine);
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "referee", "tournament", "--game", "nim", "--rounds", RACE_ROUNDS,
            "--random-plies", "2", "--concurrency", "2", "--sandbox", c->sandbox, "--ponder",
            "--engine", spec, "--engine", perfect, "--journal", "j.jsonl", NULL);
    cr_assert_null(strstr(r.out, "could not play it"), "%s: a game played again:\n%s%s",
                   c->sandbox, r.out, r.err);
    snprintf(want, sizeof want, "Standings after %d games\n", RACE_GAMES);
    cr_assert_not_null(strstr(r.out, want), "%s: no '%s':\n%s", c->sandbox, want, r.out);
    int races = 0;
    for (const char *at = r.out; (at = strstr(at, "{churn forfeits at ply ")); at++) {
        const char *reason = strstr(at, ": ") + 2;
        cr_assert(strncmp(reason, RACE_HEAD, strlen(RACE_HEAD)) == 0,
                  "%s: a forfeit that is not the race's:\n%s", c->sandbox, r.out);
        races++;
    }
    cr_assert(races > 0, "%s: the engine never lost the race:\n%s", c->sandbox, r.out);
    /* 3: the engine forfeited every game it played (a slow referee, under
     * valgrind, loses none of the races); else 0. */
    int want_status = races == RACE_GAMES ? 3 : 0;
    cr_assert_eq(r.status, want_status, "%s: exit %d, not %d (%d forfeits): %s%s", c->sandbox,
                 r.status, want_status, races, r.out, r.err);
    cr_assert(!e2e_process_alive(tag), "%s: a process of the engine is left", c->sandbox);
    e2e_run_free(&r);
    e2e_run(&r, dir, NULL, "referee", "verify", "j.jsonl", NULL);
    snprintf(want, sizeof want, "j.jsonl: %d games, ", RACE_GAMES);
    cr_assert(r.status == 0 && strncmp(r.out, want, strlen(want)) == 0,
              "%s: verify (exit %d): %s%s", c->sandbox, r.status, r.out, r.err);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

/* --- the clock ------------------------------------------------------------ */

/* An engine that spends 1 s of CPU a move against a 0.5 s clock loses
 * out-of-time at its first move, a file engine (judged after its run) as a
 * persistent one (stopped when its CPU passes the clock). */
Test(e2e_tc, an_engine_that_overspends_loses_out_of_time, .timeout = 60)
{
    char *dir = e2e_tmpdir(), script[PATH_MAX], engine[PATH_MAX], perfect[SPEC_MAX];
    char spec[2][SPEC_MAX];
    setenv("PATH", ENGINE_PATH, 1);
    e2e_repo_path("tests/engines/spin.py", script, sizeof script);
    e2e_engine_bin_path("engine", engine, sizeof engine);
    snprintf(perfect, sizeof perfect, PERFECT_NIM, engine);
    snprintf(spec[0], sizeof spec[0], "name=spin,cmd=python3 %s 1 {in} {out}", script);
    snprintf(spec[1], sizeof spec[1], "name=spin,proto=persistent,cmd=python3 %s 1 -", script);
    for (int k = 0; k < 2; k++) {
        struct e2e_run r;
        e2e_run(&r, dir, NULL, "referee", "match", "--game", "nim", "--games", "1",
                "--random-plies", "2", "--tc", "0.5+0", "--engine", spec[k], "--engine",
                perfect, "--log", "log.json", NULL);
        cr_assert_eq(r.status, 3, "%s: exit %d: %s%s", spec[k], r.status, r.out, r.err);
        char got[REASON_MAX];
        forfeit_of(r.out, "Finished game 1 (spin vs c): 0-1 {spin forfeits", got, sizeof got);
        cr_assert(strncmp(got, "out-of-time: used ", 18) == 0 &&
                      strstr(got, " ms of CPU time with 500 ms on its clock (--tc)"),
                  "%s: forfeit '%s':\n%s", spec[k], got, r.out);
        cJSON *log = e2e_read_json(dir, "log.json");
        const cJSON *tc =
            cJSON_GetObjectItem(cJSON_GetObjectItem(log, "limits"), "tc");
        cr_assert_eq(cJSON_GetNumberValue(cJSON_GetObjectItem(tc, "base_ms")), 500.0,
                     "the header's clock");
        const cJSON *m = cJSON_GetArrayItem(
            cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(log, "games"), 0),
                                "moves"),
            0);
        double clock = cJSON_GetNumberValue(cJSON_GetObjectItem(m, "clock_ms"));
        cr_assert(clock < 0, "%s: the record's clock_ms is %g", spec[k], clock);
        cJSON_Delete(log);
        e2e_run_free(&r);
    }
    e2e_rmdir(dir);
}

/* The first {time} and TIME_LEFT_MS are BASE in ms exactly, {inc} and
 * INC_MS the increment (spin.py writes them to its stderr= file). */
Test(e2e_tc, the_first_time_is_base_exactly_in_ms, .timeout = 60)
{
    char *dir = e2e_tmpdir(), script[PATH_MAX], engine[PATH_MAX], perfect[SPEC_MAX];
    char spec[2][SPEC_MAX];
    setenv("PATH", ENGINE_PATH, 1);
    e2e_repo_path("tests/engines/spin.py", script, sizeof script);
    e2e_engine_bin_path("engine", engine, sizeof engine);
    snprintf(perfect, sizeof perfect, PERFECT_NIM, engine);
    snprintf(spec[0], sizeof spec[0],
             "name=spin,stderr=err.txt,cmd=python3 %s 0 {in} {out} {time} {inc}", script);
    snprintf(spec[1], sizeof spec[1], "name=spin,stderr=err.txt,proto=persistent,cmd=python3 %s 0 -",
             script);
    static const char *const first[2] = { "\n2500 25\n", " 1 2500 25\n" };
    for (int k = 0; k < 2; k++) {
        char err[PATH_MAX + 16];
        snprintf(err, sizeof err, "%s/err.txt", dir);
        unlink(err);
        struct e2e_run r;
        e2e_run(&r, dir, NULL, "referee", "match", "--game", "nim", "--games", "1",
                "--random-plies", "2", "--depth", "1", "--tc", "2.5+0.025", "--engine", spec[k],
                "--engine", perfect, NULL);
        cr_assert_eq(r.status, 0, "%s: exit %d: %s%s", spec[k], r.status, r.out, r.err);
        char *text = e2e_slurp(err, NULL);
        cr_assert_not_null(text, "%s: no %s", spec[k], err);
        /* The first move's lines: the header, then what spin.py wrote. */
        char *second = strstr(text, "--- game 1, ply 2");
        if (second)
            *second = '\0';
        cr_assert_not_null(strstr(text, first[k]), "%s: no '%s' in its first move's stderr:\n%s",
                           spec[k], first[k], text);
        free(text);
        e2e_run_free(&r);
    }
    e2e_rmdir(dir);
}

struct bad_tc {
    char value[24];
};

ParameterizedTestParameters(e2e_tc, a_bad_tc_is_refused_with_the_expected_form)
{
    static struct bad_tc cases[] = {
        { "1+" }, { "abc" }, { "0+1" }, { "-1+0" }, { "1+0.0001" }, { "1+-1" }, { "1+1+1" },
        { "10/40" }, { "" }, { "inf" }, { "1e9" },
    };
    return cr_make_param_array(struct bad_tc, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct bad_tc *c, e2e_tc, a_bad_tc_is_refused_with_the_expected_form)
{
    char *dir = e2e_tmpdir(), want[512], log[PATH_MAX + 16];
    snprintf(log, sizeof log, "%s/log.json", dir);
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "referee", "match", "--game", "nim", "--engine", "x", "--tc",
            c->value, "--log", "log.json", NULL);
    snprintf(want, sizeof want,
             "referee: " TC_FORM ", got '%s'\nTry 'referee --help' for more information.\n",
             c->value);
    cr_assert_eq(r.status, 2, "--tc '%s': exit %d", c->value, r.status);
    cr_assert_str_eq(r.err, want, "--tc '%s'", c->value);
    cr_assert(!e2e_exists(log), "--tc '%s' wrote a log", c->value);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}
