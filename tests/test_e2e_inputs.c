/*
 * test_e2e_inputs.c - the referee's own inputs (issue 33): report, verify,
 * analyze and merge refuse what is not a regular file, or is one over
 * JOURNAL_READ_CAP, before reading a byte of it (exit 2, the cap named);
 * what engines say is shown escaped on the terminal (escape.h), never raw;
 * the seed is written exactly (header.h).
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "arena/limits.h"
#include "e2e_util.h"

#define EXIT_BAD_INPUT 2

/* Runs the command on path (merge: into OUT in dir) in dir. */
static void run_on(struct e2e_run *r, const char *dir, const char *command, const char *path)
{
    if (strcmp(command, "merge") == 0)
        e2e_run(r, dir, NULL, "referee", "merge", "out.jsonl", path, NULL);
    else
        e2e_run(r, dir, NULL, "referee", command, path, NULL);
}

struct refused {
    char command[16];
};

ParameterizedTestParameters(e2e_inputs, devices_fifos_and_oversized_files_are_refused)
{
    static struct refused cases[] = { { "report" }, { "verify" }, { "analyze" }, { "merge" } };
    return cr_make_param_array(struct refused, cases, sizeof cases / sizeof *cases);
}

/* /dev/zero used to grow report to gigabytes; a FIFO blocked it forever;
 * a sparse file one byte over the cap costs nothing to make. */
ParameterizedTest(struct refused *c, e2e_inputs, devices_fifos_and_oversized_files_are_refused)
{
    char *dir = e2e_tmpdir();
    char fifo[PATH_MAX], big[PATH_MAX];
    snprintf(fifo, sizeof fifo, "%s/fifo.jsonl", dir);
    snprintf(big, sizeof big, "%s/big.jsonl", dir);
    cr_assert_eq(mkfifo(fifo, 0600), 0);
    int fd = open(big, O_WRONLY | O_CREAT | O_EXCL, 0600);
    cr_assert(fd >= 0 && ftruncate(fd, JOURNAL_READ_CAP + 1) == 0, "cannot make %s", big);
    close(fd);
    static const char *const irregular = "not a regular file: a journal or match log is one";
    char over[160];
    snprintf(over, sizeof over,
             "file is larger than %ld bytes, the most a journal or match log may hold",
             JOURNAL_READ_CAP);
    const struct { const char *path, *msg; } inputs[] = {
        { "/dev/zero", irregular }, { "fifo.jsonl", irregular }, { "big.jsonl", over },
    };
    for (size_t i = 0; i < sizeof inputs / sizeof *inputs; i++) {
        struct e2e_run r;
        run_on(&r, dir, c->command, inputs[i].path);
        char want[256];
        snprintf(want, sizeof want, "%s: %s\n", inputs[i].path, inputs[i].msg);
        cr_assert_eq(r.status, EXIT_BAD_INPUT, "%s %s: exit %d: %s", c->command, inputs[i].path,
                     r.status, r.err);
        cr_assert_str_eq(r.err, want, "%s %s", c->command, inputs[i].path);
        cr_assert_eq(r.out_len, 0, "%s %s printed: %s", c->command, inputs[i].path, r.out);
        e2e_run_free(&r);
    }
    cr_assert(!e2e_exists("out.jsonl"), "merge wrote its output");
    char out[PATH_MAX];
    snprintf(out, sizeof out, "%s/out.jsonl", dir);
    cr_assert(!e2e_exists(out), "merge wrote %s", out);
    e2e_rmdir(dir);
}

/* An engine's stderr with escape sequences (a new title, a cleared screen,
 * a C1 CSI) shows as \xNN in the forfeit line; the log keeps it as it was
 * (JSON escapes it its own way). */
Test(e2e_inputs, an_engines_stderr_is_escaped_in_the_forfeit_line)
{
    char engine[PATH_MAX], tricks[PATH_MAX], good[PATH_MAX + 64];
    e2e_engine_bin_path("engine", engine, sizeof engine);
    e2e_repo_path("tests/engines/terminal-tricks.sh", tricks, sizeof tricks);
    snprintf(good, sizeof good, "name=ok cmd=%s one-move --game connect4", engine);
    char *dir = e2e_tmpdir();
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "referee", "match", "--game", "connect4", "--engine", tricks,
            "--engine", good, "--games", "1", "--depth", "1", "--log", "log.json", NULL);
    cr_assert_eq(r.status, 3, "exit %d: %s", r.status, r.err);
    cr_assert_str_eq(r.out,
                     "Finished game 1 (terminal-tricks.sh vs ok): 0-1 {terminal-tricks.sh "
                     "forfeits at ply 1: exit-status 1: "
                     "\\x1b]0;owned\\x07\\x1b[2J\\xc2\\x9bJcleared}\n"
                     "  ply 1: --keep-files DIR keeps its position (DIR/game-1/ply-001-in.txt); "
                     "its stderr: \"stderr_tail\" in log.json, or stderr=FILE\n"
                     "Score of terminal-tricks.sh vs ok: 0 - 1 - 0  [0.000] 1\n"
                     "terminal-tricks.sh forfeited every game it played (1): exit-status 1\n");
    e2e_run_free(&r);
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/log.json", dir);
    size_t len;
    char *log = e2e_slurp(path, &len);
    cr_assert_not_null(strstr(log, "\\u001b]0;owned\\u0007\\u001b[2J\xc2\x9b"
                                   "Jcleared"),
                       "%s", log);
    free(log);
    e2e_rmdir(dir);
}

/* Names and reasons a journal holds (written by hand here: the referee
 * refuses a name with a control character) show escaped in the text
 * report, analyze's lines and an option's usage error. */
Test(e2e_inputs, names_and_reasons_are_escaped_in_every_text)
{
    static const char journal[] =
        "{\"schema\":\"arena.journal/1\",\"game\":\"nim\",\"draw_plies\":0,\"engines\":"
        "[{\"name\":\"ev\\u001bil\"},{\"name\":\"ok\"}],\"format\":\"round-robin\","
        "\"rounds\":1,\"shard\":\"1/1\",\"games\":2,\"sprt\":null}\n"
        "{\"index\":1,\"pair\":0,\"players\":{\"1\":\"ev\\u001bil\",\"2\":\"ok\"},"
        "\"opening\":[],\"moves\":[{\"ply\":1,\"side\":1,\"engine\":\"ev\\u001bil\","
        "\"move\":null,\"status\":\"unreadable: \\u001b[2J\"}],\"result\":\"0-1\","
        "\"winner\":\"ok\",\"reason\":\"unreadable: \\u001b[2J\"}\n";
    char *dir = e2e_tmpdir();
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/j.jsonl", dir);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs(journal, f);
    fclose(f);
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "referee", "report", "j.jsonl", NULL);
    cr_assert_eq(r.status, 0, "report: exit %d: %s", r.status, r.err);
    cr_assert(!strchr(r.out, '\033'), "report printed a raw ESC:\n%s", r.out);
    cr_assert_not_null(strstr(r.out, "\n   2  ev\\x1bil                  1     0.0     0     0     "
                                     "1    0.0%\n"),
                       "%s", r.out);
    cr_assert_not_null(strstr(r.out, "\nev\\x1bil             unreadable               1\n"),
                       "%s", r.out);
    e2e_run_free(&r);
    e2e_run(&r, dir, NULL, "referee", "analyze", "j.jsonl", NULL);
    cr_assert(!strchr(r.out, '\033') && !strchr(r.err, '\033'), "analyze printed a raw ESC");
    cr_assert_not_null(strstr(r.out, "Game 1 (ev\\x1bil vs ok): 0-1\n"), "%s%s", r.out, r.err);
    e2e_run_free(&r);
    e2e_run(&r, dir, NULL, "referee", "match", "--game", "nim", "--engine", "name=e\033v cmd=x",
            "--engine", "y", NULL);
    cr_assert_eq(r.status, EXIT_BAD_INPUT);
    cr_assert_str_eq(r.err, "referee: --engine 'name=e\\x1bv cmd=x': column 7: a name cannot "
                            "hold control characters\nTry 'referee --help' for more "
                            "information.\n");
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

/* --seed beyond a double's 15 digits is written exactly in the journal, the
 * match log and referee bench's JSON (it was 9.00719925474099e+15, another
 * seed), and a resume with a seed one apart is another tournament. */
Test(e2e_inputs, the_seed_is_written_exactly_everywhere)
{
    char engine[PATH_MAX], spec[PATH_MAX + 64], depth_spec[PATH_MAX + 64];
    e2e_engine_bin_path("engine", engine, sizeof engine);
    snprintf(spec, sizeof spec, "%s one-move --game nim --player perfect", engine);
    snprintf(depth_spec, sizeof depth_spec, "%s one-move --game nim --depth {depth}", engine);
    char *dir = e2e_tmpdir();
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "referee", "tournament", "--game", "nim", "--engine", spec,
            "--engine", spec, "--rounds", "1", "--seed", "9007199254740993", "--journal",
            "j.jsonl", NULL);
    cr_assert_eq(r.status, 0, "tournament: exit %d: %s", r.status, r.err);
    e2e_run_free(&r);
    e2e_run(&r, dir, NULL, "referee", "match", "--game", "nim", "--engine", spec, "--engine",
            spec, "--games", "1", "--seed", "9007199254740993", "--log", "m.json", NULL);
    cr_assert_eq(r.status, 0, "match: exit %d: %s", r.status, r.err);
    e2e_run_free(&r);
    e2e_run(&r, dir, NULL, "referee", "bench", "--game", "nim", "--engine", depth_spec,
            "--depths", "1-1", "--random-positions", "1", "--seed", "9007199254740993",
            "--json", "b.json", NULL);
    cr_assert_eq(r.status, 0, "bench: exit %d: %s", r.status, r.err);
    e2e_run_free(&r);
    static const char *const files[][2] = { { "j.jsonl", "\"seed\":\"9007199254740993\"," },
                                            { "m.json", "\"seed\":\t\"9007199254740993\",\n" },
                                            { "b.json", "\"seed\":\t\"9007199254740993\",\n" } };
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        char path[PATH_MAX];
        snprintf(path, sizeof path, "%s/%s", dir, files[i][0]);
        size_t len;
        char *text = e2e_slurp(path, &len);
        cr_assert_not_null(text, "no %s", path);
        cr_assert_not_null(strstr(text, files[i][1]), "%s:\n%.400s", files[i][0], text);
        free(text);
    }
    e2e_run(&r, dir, NULL, "referee", "tournament", "--game", "nim", "--engine", spec,
            "--engine", spec, "--rounds", "1", "--seed", "9007199254740992", "--journal",
            "j.jsonl", "--resume", NULL);
    cr_assert_eq(r.status, EXIT_BAD_INPUT, "resume: exit %d", r.status);
    cr_assert_str_eq(r.err, "j.jsonl:1:1: this journal is of another tournament: its \"seed\" "
                            "differs (resume needs the same engines, rules and shard)\n");
    e2e_run_free(&r);
    e2e_rmdir(dir);
}
