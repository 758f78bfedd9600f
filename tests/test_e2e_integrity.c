/*
 * test_e2e_integrity.c - no game lost or changed without a trace: a
 * tournament's worker that dies has its game played again (at most twice,
 * then the tournament stops with an error naming the game); a match whose
 * process is killed says so and fails; one referee per journal (a second
 * one exits 2 at once, naming the first's pid); report and verify wait for
 * the referee writing a journal.
 *
 * The killers are hostile.py engines (kill-parent, kill-parent-once) with
 * --sandbox none: in the sandbox their parent is an init they cannot kill.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "e2e_util.h"

#define SPEC_MAX (3 * PATH_MAX)
#define WAIT_MAX_MS 30000     /* for a reader to say it waits: generous under load */
#define POLL_MS 10
#define PERFECT "name=perfect,cmd=%s one-move --game nim --player perfect"
#define RANDOM "%s one-move --game nim --player random --seed {player} {in} {out} 1"
#define KILLER "name=killer,cmd=python3 %s %s - " RANDOM

/* Two engines: a perfect Nim player, and a random one that first runs
 * hostile.py's attack (none: attack NULL). */
static void specs(const char *attack, char *perfect, char *other)
{
    char engine[PATH_MAX], hostile[PATH_MAX];
    e2e_engine_bin_path("engine", engine, sizeof engine);
    e2e_repo_path("tests/engines/hostile.py", hostile, sizeof hostile);
    snprintf(perfect, SPEC_MAX, PERFECT, engine);
    if (attack)
        snprintf(other, SPEC_MAX, KILLER, hostile, attack, engine);
    else
        snprintf(other, SPEC_MAX, "name=random,cmd=" RANDOM, engine);
    setenv("PATH", "/usr/bin:/bin", 1);
}

/* Plays `referee COMMAND` (match or tournament) without a sandbox in a new
 * folder (returned), the killer running `attack` against the perfect
 * player; file_option names the log or journal. */
static char *play_killer(struct e2e_run *r, const char *command, const char *attack,
                         const char *file_option, const char *file)
{
    char perfect[SPEC_MAX], killer[SPEC_MAX], once[PATH_MAX];
    specs(attack, perfect, killer);
    char *dir = e2e_tmpdir();
    snprintf(once, sizeof once, "%s/killed-once", dir);
    setenv("ARENA_ONCE", once, 1);
    /* A killed worker leaves its game's folders (it cannot remove them):
     * in the case's own folder, they go with it, not into /tmp. */
    setenv("TMPDIR", dir, 1);
    e2e_run(r, dir, NULL, "referee", command, "--game", "nim", "--engine", killer, "--engine",
            perfect, file_option, file, "--sandbox", "none", NULL);
    return dir;
}

Test(e2e_integrity, a_worker_killed_once_has_its_game_played_again)
{
    struct e2e_run r, v;
    char *dir = play_killer(&r, "tournament", "kill-parent-once", "--journal", "j.jsonl");
    cr_assert_eq(r.status, 0, "exit %d: %s%s", r.status, r.out, r.err);
    const char *want = "Game 1: its worker was killed by SIGKILL; playing it again (1 of 2)\n"
                       "Finished game 1 (killer vs perfect): ";
    cr_assert(strncmp(r.out, want, strlen(want)) == 0, "stdout:\n%s", r.out);
    cr_assert_not_null(strstr(r.out, "Standings after 2 games\n"), "%s", r.out);
    e2e_run(&v, dir, NULL, "referee", "verify", "j.jsonl", NULL);
    cr_assert(v.status == 0 && strncmp(v.out, "j.jsonl: 2 games, ", 18) == 0, "verify: %s%s",
              v.out, v.err);
    e2e_run_free(&r);
    e2e_run_free(&v);
    e2e_rmdir(dir);
}

Test(e2e_integrity, a_game_whose_worker_always_dies_stops_the_tournament)
{
    struct e2e_run r;
    char *dir = play_killer(&r, "tournament", "kill-parent", "--journal", "j.jsonl");
    cr_assert_eq(r.status, 1, "exit %d: %s%s", r.status, r.out, r.err);
    cr_assert_str_eq(r.out, "Game 1: its worker was killed by SIGKILL; playing it again (1 of 2)\n"
                            "Game 1: its worker was killed by SIGKILL; playing it again (2 of 2)\n");
    cr_assert_str_eq(r.err, "referee: game 1: its worker was killed by SIGKILL, 3 times: "
                            "stopped with 0 of 2 games played\n");
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

Test(e2e_integrity, a_killed_match_says_so_and_fails)
{
    struct e2e_run r;
    char *dir = play_killer(&r, "match", "kill-parent", "--log", "m.json");
    cr_assert_eq(r.status, 128 + SIGKILL, "exit %d: %s%s", r.status, r.out, r.err);
    cr_assert_str_eq(r.err, "referee: the process playing the match was killed by SIGKILL: no "
                            "log written\n");
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

/* A journal of a two-game tournament in dir. */
static void make_journal(const char *dir)
{
    char perfect[SPEC_MAX], other[SPEC_MAX];
    specs(NULL, perfect, other);
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "referee", "tournament", "--game", "nim", "--engine", perfect,
            "--engine", other, "--journal", "j.jsonl", NULL);
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    e2e_run_free(&r);
}

/* The journal, open with an exclusive flock, as a running referee holds it. */
static int hold_journal(const char *dir)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/j.jsonl", dir);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    cr_assert(fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) == 0, "cannot lock %s: %s", path,
              strerror(errno));
    return fd;
}

Test(e2e_integrity, a_second_referee_on_a_journal_exits_2_at_once)
{
    char *dir = e2e_tmpdir();
    make_journal(dir);
    int fd = hold_journal(dir);
    char perfect[SPEC_MAX], other[SPEC_MAX];
    specs(NULL, perfect, other);
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "referee", "tournament", "--game", "nim", "--engine", perfect,
            "--engine", other, "--journal", "j.jsonl", "--resume", NULL);
    char want[128];
    snprintf(want, sizeof want, "referee: j.jsonl: in use by another referee (pid %ld)\n",
             (long)getpid());
    cr_assert_eq(r.status, 2, "exit %d: %s%s", r.status, r.out, r.err);
    cr_assert_str_eq(r.err, want);
    cr_assert_str_eq(r.out, "");
    close(fd);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

static void sleep_ms(long ms)
{
    struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

/* verify, started while the journal is held: it says it waits, waits, and
 * verifies the whole journal once it is let go. */
Test(e2e_integrity, verify_waits_for_the_referee_writing_the_journal)
{
    char *dir = e2e_tmpdir();
    make_journal(dir);
    int fd = hold_journal(dir);
    char referee[PATH_MAX], out[PATH_MAX + 8], err[PATH_MAX + 8];
    e2e_bin_path("referee", referee, sizeof referee);
    snprintf(out, sizeof out, "%s/out", dir);
    snprintf(err, sizeof err, "%s/err", dir);
    fflush(NULL);
    pid_t pid = fork();
    cr_assert_neq(pid, -1);
    if (pid == 0) {
        int o = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        int x = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (o < 0 || x < 0 || chdir(dir) != 0)
            _exit(127);
        dup2(o, STDOUT_FILENO);
        dup2(x, STDERR_FILENO);
        execl(referee, referee, "verify", "j.jsonl", (char *)NULL);
        _exit(127);
    }
    char want[128];
    snprintf(want, sizeof want,
             "referee: j.jsonl: waiting for the referee writing it (pid %ld) to finish\n",
             (long)getpid());
    char *said = NULL;
    for (int waited = 0; waited < WAIT_MAX_MS; waited += POLL_MS) {
        free(said);
        said = e2e_slurp(err, NULL);
        if (said && strcmp(said, want) == 0)
            break;
        sleep_ms(POLL_MS);
    }
    cr_assert_str_eq(said, want, "verify did not say it waits");
    free(said);
    cr_assert_eq(waitpid(pid, NULL, WNOHANG), 0, "verify did not wait");
    close(fd);
    int status;
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    char *text = e2e_slurp(out, NULL);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0 && text &&
                  strncmp(text, "j.jsonl: 2 games, ", 18) == 0,
              "verify: status %d: %s", status, text);
    free(text);
    e2e_rmdir(dir);
}
