/*
 * e2e_util.h - running the suite's binaries from Criterion tests.
 *
 * e2e_run starts ARENA_BIN/<prog> (default bin/) in a given folder with a
 * given stdin, captures stdout, stderr and the exit status. With
 * ARENA_VALGRIND=1 every run goes through valgrind with leak checking, and a
 * run with any valgrind finding fails the calling test with valgrind's report.
 */
#ifndef ARENA_E2E_UTIL_H
#define ARENA_E2E_UTIL_H

#include <stddef.h>
#include <stdio.h>

struct e2e_run {
    int status;        /* exit status, or 128 + signal */
    char *out;         /* stdout, NUL-terminated; free with e2e_run_free */
    size_t out_len;
    char *err;         /* stderr, NUL-terminated */
    size_t err_len;
};

/* Runs prog (a binary of ARENA_BIN) with args (NULL-terminated) in folder
 * cwd, stdin fed from stdin_text (NULL: empty). Fails the test on valgrind
 * findings. */
void e2e_run(struct e2e_run *r, const char *cwd, const char *stdin_text, const char *prog, ...);
/* The same with the arguments in a NULL-terminated array. */
void e2e_runv(struct e2e_run *r, const char *cwd, const char *stdin_text, const char *prog,
              const char *const *args);
/* The same, run through prefix (a NULL-terminated argv such as setpriv's or
 * unshare's, which then executes valgrind or the binary); NULL: none. */
void e2e_runv_via(struct e2e_run *r, const char *cwd, const char *stdin_text,
                  const char *const *prefix, const char *prog, const char *const *args);
/* Runs a tool of the system or a script (tool: looked up in PATH, or a
 * path) with args (NULL-terminated), never under valgrind: for the scripts
 * of scripts/ and the programs that check their output. */
void e2e_run_tool(struct e2e_run *r, const char *cwd, const char *stdin_text, const char *tool,
                  ...);
void e2e_run_free(struct e2e_run *r);

/* A binary of ARENA_BIN running in the background (a server), under
 * valgrind as e2e_run's are. */
struct e2e_proc {
    long pid;
    FILE *out;              /* its stdout, for the caller to read */
    char *io;               /* its stderr and valgrind's report */
    int valgrind;
};
/* Starts prog with args (NULL-terminated) in folder cwd, stdin empty,
 * stdout a pipe read through p->out, stderr kept; it gets SIGTERM if the
 * test ends before e2e_stop. */
void e2e_start(struct e2e_proc *p, const char *cwd, const char *prog, const char *const *args);
/* Sends it sig and waits for it: r gets its exit status, the rest of its
 * stdout and its stderr (e2e_run_free them); valgrind's findings fail the
 * test. */
void e2e_stop(struct e2e_proc *p, int sig, struct e2e_run *r);

/* A scripted session: runs prog with args (NULL-terminated) in a fresh
 * folder, the fixture REL.in on stdin, and asserts exit status 0, nothing on
 * stderr and stdout equal to the fixture REL.out byte for byte. */
void e2e_assert_transcript(const char *prog, const char *rel, const char *const *args);

/* A two-game Connect-4 match between engine specs a and b (depth 2, two
 * random plies) in a fresh folder: asserts exit status 0, no forfeit, and
 * the score line "Score of NAME_A vs NAME_B: " (names as the specs give
 * them) on stdout. */
void e2e_assert_clean_match(const char *a, const char *b, const char *name_a,
                            const char *name_b);

/* Absolute path of a file under ARENA_FIXTURES (default fixtures/); fails
 * the test when it does not exist. Returns a malloc'd string: caller frees. */
char *e2e_fixture(const char *rel);

/* Whole file into a malloc'd NUL-terminated buffer, or NULL if missing. */
char *e2e_slurp(const char *path, size_t *len);
/* The file dir/rel's bytes (malloc'd, NUL-terminated); fails the test when
 * it is missing. */
char *e2e_slurp_at(const char *dir, const char *rel);
/* Writes text to the file dir/rel, its missing folders made (0755); fails
 * the test when it cannot. */
void e2e_put_at(const char *dir, const char *rel, const char *text);
/* Copies the repository's folder rel into dir/name (cp -rL). */
void e2e_copy_repo(const char *rel, const char *dir, const char *name);

/* The JSON file dir/name, parsed (a cJSON tree: cJSON_Delete it); fails
 * the test when it is missing or not JSON. */
struct cJSON *e2e_read_json(const char *dir, const char *name);

/* A fresh private folder under /tmp (malloc'd path) and its removal. */
char *e2e_tmpdir(void);
void e2e_rmdir(char *dir);

/* Absolute paths: of a binary of ARENA_BIN (default bin/), and of rel under
 * the repository root (the tests' working folder). Fail the test when the
 * file does not exist. buf holds cap bytes. */
void e2e_bin_path(const char *prog, char *buf, size_t cap);
/* The absolute path of a binary a test hands the referee to run (an engine
 * it plays, a program a grade copies): ARENA_ENGINE_BIN's, default
 * ARENA_BIN's. The checked tiers check the program under test, not its
 * engines: `make check` points ARENA_ENGINE_BIN at the release build, as
 * the valgrind tier runs them natively. A sanitized engine's start and
 * leak check are 0.1 s of CPU a move against 15 ms (thousands of moves a
 * run), and it cannot start at all under --mem-limit-mb (RLIMIT_AS: the
 * sanitizers reserve terabytes of shadow address space) or beside a fork
 * bomb's exhausted RLIMIT_NPROC. The engine's own code is checked where it
 * is the program under test (e2e_run of "engine", the unit suite). */
void e2e_engine_bin_path(const char *prog, char *buf, size_t cap);
void e2e_repo_path(const char *rel, char *buf, size_t cap);

/* 1 when a process of this test's own tree (its descendants, orphans
 * included: the test process is their subreaper) whose command line, the
 * arguments joined by spaces, matches the extended regular expression
 * pattern is alive; another test's or program's processes never count. */
int e2e_process_alive(const char *pattern);
/* Kills (SIGKILL, by pid) every process of this test's own tree that
 * e2e_process_alive's pattern matches: what a test left on purpose. Returns
 * how many. */
int e2e_process_kill(const char *pattern);

/* 1 when path exists. */
int e2e_exists(const char *path);

/* A socket of type (SOCK_STREAM: listening; SOCK_DGRAM) on 127.0.0.1,
 * non-blocking, at *port (0: any free one, written back); fails the test
 * when it cannot be made. */
int e2e_listen_local(int type, int *port);

/* Asserts that actual (len bytes) equals the fixture file rel byte for byte,
 * naming the first differing offset. */
void e2e_assert_fixture(const char *actual, size_t len, const char *rel);

#endif
