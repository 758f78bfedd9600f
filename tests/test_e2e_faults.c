/*
 * test_e2e_faults.c - the referee against engines that attack it rather than
 * play badly (tests/engines): one that ignores SIGTERM, one whose children
 * keep the output file open after it exits, one that writes its move and
 * hangs, symlinks and folders where the referee reads and writes, one that
 * fills the disk up to RLIMIT_FSIZE, one that closes its stdio, one that
 * leaves its process group; a tournament killed with SIGKILL 20 times at
 * random points, resumed each time (ARENA_FAULT_SEED=N repeats a run's kill
 * times; the seed is in every failure message); a journal cut inside its
 * header line; and a match killed or stopped while an engine's family of
 * processes thinks.
 *
 * Every case checks the exact result and reason, the match log, that a file
 * outside the engine's folder is unchanged, that the referee left nothing in
 * its TMPDIR, and that no process of the engine outlived its move: the
 * engines record every process they start (tests/engines/pidlog.sh), the
 * opponent (watch.sh) checks at each of its moves that none of them still
 * runs, and the test checks again after the referee has exited.
 *
 * The engines here attack the referee's own handling of a move (its folder,
 * its process group, its deadline), which must hold without the sandbox
 * too; and they record their processes in a file outside their folder,
 * which a sandbox forbids. So they play with --sandbox none; the tournament
 * killed at random points plays once in each mode. test_e2e_sandbox.c tests
 * the sandbox itself.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "e2e_util.h"

#define SPEC_MAX (3 * PATH_MAX)
#define STAT_MAX 1024
#define STARTTIME_FIELD 20       /* of /proc/PID/stat, counted after "pid (comm)" */
#define REASON_MAX 192               /* a forfeit reason's bytes (record.h) */
#define HOSTILE_TIMEOUT_MS "500"   /* for engines that must time out */
#define SOUND_TIMEOUT_MS "20000"   /* for engines that must not: generous under load */
#define SURVIVOR_WAIT_MS 10000     /* for workers to kill their engines after SIGKILL */
#define POLL_MS 10
/* The position after the first move of a game, a legal answer at ply 1: a
 * referee fooled into reading the file outside takes it as a move. */
#define TARGET_BOARD "0000000\n0000000\n0000000\n0000000\n0000000\n0001000\n2\n"

/* --- the test's private folder -------------------------------------------- */

struct fault_dir {
    char *dir;                 /* e2e_tmpdir: the referee's cwd */
    char tmp[PATH_MAX];        /* the referee's TMPDIR */
    char pids[PATH_MAX];       /* ARENA_PID_LOG */
    char target[PATH_MAX];     /* a file outside every engine folder */
    struct stat target_st;
};

static void fault_dir_open(struct fault_dir *f)
{
    f->dir = e2e_tmpdir();
    snprintf(f->tmp, sizeof f->tmp, "%s/tmp", f->dir);
    snprintf(f->pids, sizeof f->pids, "%s/pids", f->dir);
    snprintf(f->target, sizeof f->target, "%s/target.txt", f->dir);
    /* Open to others, as a teacher's folder is: as root, the sandbox runs
     * engines as nobody, who must reach their move folders in tmp (else
     * every game is a forfeit, and the referee says so with status 3). */
    cr_assert_eq(chmod(f->dir, 0755), 0, "chmod %s: %s", f->dir, strerror(errno));
    cr_assert_eq(mkdir(f->tmp, 0755), 0, "mkdir %s: %s", f->tmp, strerror(errno));
    FILE *t = fopen(f->target, "w");
    cr_assert_not_null(t, "cannot write %s", f->target);
    fputs(TARGET_BOARD, t);
    fclose(t);
    cr_assert_eq(stat(f->target, &f->target_st), 0);
    /* Each Criterion test runs in a process of its own: these reach only
     * this test's referee and, through it, its engines. */
    setenv("TMPDIR", f->tmp, 1);
    setenv("ARENA_PID_LOG", f->pids, 1);
}

static void fault_dir_close(struct fault_dir *f)
{
    unsetenv("TMPDIR");
    unsetenv("ARENA_PID_LOG");
    e2e_rmdir(f->dir);   /* frees it */
}

/* --- what no fault may change ------------------------------------------ */

static void assert_target_unchanged(const struct fault_dir *f, const char *what)
{
    char *text = e2e_slurp(f->target, NULL);
    struct stat st;
    cr_assert(text && lstat(f->target, &st) == 0 && S_ISREG(st.st_mode),
              "%s: %s is gone or no longer a file", what, f->target);
    cr_assert_str_eq(text, TARGET_BOARD, "%s: the referee wrote into %s, outside its folders",
                     what, f->target);
    cr_assert(st.st_ino == f->target_st.st_ino &&
                  st.st_mtim.tv_sec == f->target_st.st_mtim.tv_sec &&
                  st.st_mtim.tv_nsec == f->target_st.st_mtim.tv_nsec,
              "%s: %s was rewritten (inode %lu -> %lu, mtime %ld -> %ld)", what, f->target,
              (unsigned long)f->target_st.st_ino, (unsigned long)st.st_ino,
              (long)f->target_st.st_mtim.tv_sec, (long)st.st_mtim.tv_sec);
    free(text);
}

/* The referee's TMPDIR holds nothing of its game folders: every folder it
 * made, and every folder an engine made of one, is gone. */
static void assert_tmp_clean(const struct fault_dir *f, const char *what)
{
    DIR *d = opendir(f->tmp);
    cr_assert_not_null(d, "%s: %s is gone", what, f->tmp);
    struct dirent *de;
    while ((de = readdir(d)))
        cr_assert(strncmp(de->d_name, "arena-", 6) != 0, "%s: %s/%s is left behind", what,
                  f->tmp, de->d_name);
    closedir(d);
}

/* 1 when the recorded process (pid, start time) still runs; its state and
 * command line go to desc. A zombie has ended: it no longer runs, and once
 * the referee has exited its zombies belong to init, which may never reap
 * them. A pid whose start time differs is someone else's now. */
static int still_runs(long pid, const char *start, char *desc, size_t cap)
{
    char path[64], stat_text[STAT_MAX];
    snprintf(path, sizeof path, "/proc/%ld/stat", pid);
    FILE *s = fopen(path, "r");
    if (!s)
        return 0;
    size_t n = fread(stat_text, 1, sizeof stat_text - 1, s);
    fclose(s);
    stat_text[n] = '\0';
    char *p = strrchr(stat_text, ')');
    if (!p)
        return 0;
    char state = p[2];
    char *save = NULL, *field = strtok_r(p + 2, " ", &save);
    for (int i = 0; field && i < STARTTIME_FIELD - 1; i++)
        field = strtok_r(NULL, " ", &save);
    if (!field || strcmp(field, start) != 0 || state == 'Z' || state == 'X')
        return 0;
    char cmdline[256] = "";
    snprintf(path, sizeof path, "/proc/%ld/cmdline", pid);
    FILE *c = fopen(path, "r");
    if (c) {
        size_t m = fread(cmdline, 1, sizeof cmdline - 1, c);
        fclose(c);
        for (size_t i = 0; i < m; i++)
            if (!cmdline[i])
                cmdline[i] = ' ';
        cmdline[m] = '\0';
    }
    snprintf(desc, cap, "pid %ld state %c: %s", pid, state, cmdline);
    return 1;
}

/* A child of this process (pid, state, command line) into desc. */
static void first_child(char *desc, size_t cap)
{
    DIR *d = opendir("/proc");
    struct dirent *de;
    while (d && (de = readdir(d))) {
        char path[300], stat_text[STAT_MAX];
        snprintf(path, sizeof path, "/proc/%s/stat", de->d_name);
        FILE *s = fopen(path, "r");
        if (!s)
            continue;
        size_t n = fread(stat_text, 1, sizeof stat_text - 1, s);
        fclose(s);
        stat_text[n] = '\0';
        char *p = strrchr(stat_text, ')');
        long ppid = 0;
        char state;
        if (p && sscanf(p + 1, " %c %ld", &state, &ppid) == 2 && ppid == (long)getpid()) {
            snprintf(path, sizeof path, "/proc/%s/cmdline", de->d_name);
            char *cmd = e2e_slurp(path, &n);
            for (size_t i = 0; cmd && i + 1 < n; i++)
                cmd[i] = cmd[i] ? cmd[i] : ' ';
            snprintf(desc, cap, "pid %s state %c: %s", de->d_name, state, cmd ? cmd : "?");
            free(cmd);
            break;
        }
    }
    if (d)
        closedir(d);
}

/* The first recorded process that still runs (desc filled), or 0; count
 * gets the number of records. */
static int first_survivor(const char *pid_log, char *desc, size_t cap, int *count)
{
    FILE *f = fopen(pid_log, "r");
    *count = 0;
    if (!f)
        return 0;
    long pid;
    char start[32];
    int found = 0;
    while (!found && fscanf(f, "%ld %31s", &pid, start) == 2) {
        (*count)++;
        found = still_runs(pid, start, desc, cap);
    }
    fclose(f);
    return found;
}

/* No process an engine recorded outlived its move: none runs now (the
 * referee has exited), and watch.sh found none at any of its moves. */
static void assert_no_survivor(const struct fault_dir *f, const char *what)
{
    char desc[512], alive[PATH_MAX + 8];
    int count;
    cr_assert(!first_survivor(f->pids, desc, sizeof desc, &count),
              "%s: a process of the engine outlived the match: %s", what, desc);
    cr_assert_gt(count, 0, "%s: the engine recorded no process in %s", what, f->pids);
    snprintf(alive, sizeof alive, "%s.alive", f->pids);
    char *found = e2e_slurp(alive, NULL);
    cr_assert_null(found, "%s: still running at the opponent's next move (pid state): %s", what,
                   found);
}

/* --- the hostile engines ---------------------------------------------- */

struct fault {
    char name[24];       /* the engine's name= */
    char cmd[96];        /* after tests/engines/: ENGINE and TARGET are replaced */
    int slow;            /* 1: must time out (short deadline) */
    char reason[24];     /* its forfeit reason; "" for a normal game */
};

ParameterizedTestParameters(e2e_faults, hostile_engine)
{
    static struct fault cases[] = {
        { "sigterm-ignorer", "sigterm-ignorer.sh", 1, "timeout" },
        { "write-then-hang", "write-then-hang.sh ENGINE {in} {out} 1", 1, "timeout" },
        { "group-jumper", "group-jumper.sh", 1, "timeout" },
        { "lingering-child", "lingering-child.sh ENGINE {in} {out} 1", 0, "" },
        { "late-writer", "late-writer.sh ENGINE {in} {out} 1", 0, "no-output" },
        { "out-link-outside", "symlink.sh out-outside ENGINE TARGET {in} {out} 1", 0,
          "unreadable" },
        { "out-link-inside", "symlink.sh out-inside ENGINE TARGET {in} {out} 1", 0,
          "unreadable" },
        { "in-link", "symlink.sh in ENGINE TARGET {in} {out} 1", 0, "" },
        { "folder-link", "symlink.sh folder ENGINE TARGET {in} {out} 1", 0, "" },
        { "out-folder", "folder-output.sh folder ENGINE {in} {out} 1", 0, "unreadable" },
        { "out-fifo", "folder-output.sh fifo ENGINE {in} {out} 1", 0, "unreadable" },
        { "in-folder", "folder-output.sh input ENGINE {in} {out} 1", 0, "" },
        { "disk-filler", "disk-filler.sh die {in} {out}", 0, "file-limit" },
        { "disk-filler-ignoring", "disk-filler.sh ignore {in} {out}", 0, "file-limit" },
        { "closes-stdio", "closes-stdio.sh ENGINE {in} {out} 1", 0, "" },
    };
    return cr_make_param_array(struct fault, cases, sizeof cases / sizeof *cases);
}

/* Copies src to dst (cap bytes) with each whole word `word` replaced. */
static void replace_word(char *dst, size_t cap, const char *src, const char *word,
                         const char *with)
{
    size_t n = 0, wl = strlen(word);
    while (*src && n + 1 < cap) {
        if (strncmp(src, word, wl) == 0 && (src[wl] == ' ' || !src[wl])) {
            n += (size_t)snprintf(dst + n, cap - n, "%s", with);
            src += wl;
        } else {
            dst[n++] = *src++;
        }
    }
    dst[n < cap ? n : cap - 1] = '\0';
}

/* The whole reason the referee gives for a fault's kind: a limit's kind names the
 * limit and its option (rules.h). */
static void full_reason(const struct fault *c, char *buf, size_t cap)
{
    if (strcmp(c->reason, "timeout") == 0)
        snprintf(buf, cap, "timeout: no answer within %s ms of wall time (--timeout-ms)",
                 c->slow ? HOSTILE_TIMEOUT_MS : SOUND_TIMEOUT_MS);
    else if (strcmp(c->reason, "no-output") == 0)
        snprintf(buf, cap, "no-output: it read nothing from stdin and wrote no OUT: is it a "
                 "persistent engine? add proto=persistent");
    else if (strcmp(c->reason, "file-limit") == 0)
        snprintf(buf, cap, "file-limit: wrote a file past 1024 KB, the most an engine may write");
    else
        snprintf(buf, cap, "%s", c->reason[0] ? c->reason : "normal");
}

/* 1 when obj's "key" is the string want, and its "detail" is detail (NULL:
 * none). */
static int kind_and_detail(const cJSON *obj, const char *key, const char *want,
                           const char *detail)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    const cJSON *d = cJSON_GetObjectItemCaseSensitive(obj, "detail");
    return cJSON_IsString(v) && strcmp(v->valuestring, want) == 0 &&
           (detail ? cJSON_IsString(d) && strcmp(d->valuestring, detail) == 0 : !d);
}

/* The log's one game: its reason's stable kind with the rest of the whole
 * reason beside it ("detail"), and every move "ok" but a forfeit's last,
 * which says the same; returns the number of moves. */
static int check_log(const char *log_path, const struct fault *c)
{
    char *text = e2e_slurp(log_path, NULL);
    cr_assert_not_null(text, "%s: no log %s", c->name, log_path);
    cJSON *root = cJSON_Parse(text);
    cr_assert_not_null(root, "%s: the log is not JSON:\n%.400s", c->name, text);
    const cJSON *games = cJSON_GetObjectItemCaseSensitive(root, "games");
    cr_assert_eq(cJSON_GetArraySize(games), 1, "%s: %d games in the log", c->name,
                 cJSON_GetArraySize(games));
    const cJSON *game = cJSON_GetArrayItem(games, 0);
    char whole[REASON_MAX];
    full_reason(c, whole, sizeof whole);
    const char *kind = c->reason[0] ? c->reason : "normal";
    const char *detail = strncmp(whole, kind, strlen(kind)) == 0 && whole[strlen(kind)] == ':'
                             ? whole + strlen(kind) + 2 : NULL;
    char *json = cJSON_PrintUnformatted(game);
    cr_assert(kind_and_detail(game, "reason", kind, detail),
              "%s: the log's game, want \"reason\":\"%s\" and \"detail\":\"%s\": %.600s",
              c->name, kind, detail ? detail : "(none)", json);
    const cJSON *moves = cJSON_GetObjectItemCaseSensitive(game, "moves");
    int n = cJSON_GetArraySize(moves), i = 0;
    const cJSON *m;
    cJSON_ArrayForEach(m, moves) {
        int last = c->reason[0] && i == n - 1;
        cr_assert(kind_and_detail(m, "status", last ? kind : "ok", last ? detail : NULL),
                  "%s: move %d of %d, want \"status\":\"%s\" (detail %s): %.600s", c->name,
                  i + 1, n, last ? kind : "ok", last && detail ? detail : "none", json);
        i++;
    }
    free(json);
    cJSON_Delete(root);
    free(text);
    return n;
}

ParameterizedTest(struct fault *c, e2e_faults, hostile_engine, .timeout = 120)
{
    struct fault_dir f;
    fault_dir_open(&f);
    char engine[PATH_MAX], engines[PATH_MAX], cmd[SPEC_MAX], with_engine[SPEC_MAX];
    char hostile[SPEC_MAX + PATH_MAX + 64], watch[SPEC_MAX];
    e2e_engine_bin_path("engine", engine, sizeof engine);
    e2e_repo_path("tests/engines", engines, sizeof engines);
    replace_word(with_engine, sizeof with_engine, c->cmd, "ENGINE", engine);
    replace_word(cmd, sizeof cmd, with_engine, "TARGET", f.target);
    snprintf(hostile, sizeof hostile, "name=%s,cmd=%s/%s", c->name, engines, cmd);
    snprintf(watch, sizeof watch, "name=watch,cmd=%s/watch.sh %s {in} {out} 1", engines, engine);
    struct e2e_run r;
    e2e_run(&r, f.dir, NULL, "referee", "match", "--game", "connect4", "--engine", hostile,
            "--engine", watch, "--games", "1", "--depth", "1", "--timeout-ms",
            c->slow ? HOSTILE_TIMEOUT_MS : SOUND_TIMEOUT_MS, "--log", "m.json", "--sandbox",
            "none", NULL);
    /* A forfeit is the hostile engine's only game: exit status 3. */
    int status = c->reason[0] ? 3 : 0;
    cr_assert_eq(r.status, status, "%s: exit %d: %s", c->name, r.status, r.err);
    cr_assert_str_eq(r.err, "", "%s: stderr: %s", c->name, r.err);
    char want[512];
    if (c->reason[0]) {
        /* The reason, then the last line the engine wrote to stderr, if any
         * (the disk filler's child may or may not have said it failed). */
        char reason[REASON_MAX];
        full_reason(c, reason, sizeof reason);
        snprintf(want, sizeof want, "Finished game 1 (%s vs watch): 0-1 {%s forfeits at ply 1: %s",
                 c->name, c->name, reason);
        size_t n = strlen(want);
        cr_assert(strncmp(r.out, want, n) == 0 &&
                      (strncmp(r.out + n, "}\n", 2) == 0 || strncmp(r.out + n, ": ", 2) == 0),
                  "%s: stdout:\n%s\nwant:\n%s}", c->name, r.out, want);
    } else {
        snprintf(want, sizeof want, "Finished game 1 (%s vs watch): ", c->name);
        cr_assert(strncmp(r.out, want, strlen(want)) == 0 && !strstr(r.out, "forfeits"),
                  "%s: not a normal game:\n%s", c->name, r.out);
    }
    char log[PATH_MAX];
    snprintf(log, sizeof log, "%s/m.json", f.dir);
    int moves = check_log(log, c);
    if (!c->reason[0])
        cr_assert_geq(moves, 7, "%s: a normal game of %d moves", c->name, moves);
    assert_no_survivor(&f, c->name);
    assert_target_unchanged(&f, c->name);
    assert_tmp_clean(&f, c->name);
    e2e_run_free(&r);
    fault_dir_close(&f);
}

/* --- SIGKILL at random points, resumed 20 times -------------------------- */

#define KILL_ROUNDS 20
#define KILL_MAX_DELAY_MS 400
/* 60 games: here about half of them end between the kills, the rest in
 * the last run; fewer under load. */
#define KILL_TOURNAMENT_ROUNDS "30"
#define KILL_GAMES 60

static uint64_t rng_next(uint64_t *s)
{
    /* xorshift64*: enough for spreading kill times. */
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 2685821657736338717ULL;
}

static void sleep_ms(long ms)
{
    struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

/* Starts the referee itself, never under valgrind (a SIGKILL'd valgrind
 * proves nothing more and costs seconds), output appended to out. */
static pid_t spawn_referee(const char *dir, const char *const *args, const char *out)
{
    char ref[PATH_MAX];
    e2e_bin_path("referee", ref, sizeof ref);
    const char *argv[32] = { ref };
    int n = 1;
    for (int i = 0; args[i] && n < 31; i++)
        argv[n++] = args[i];
    argv[n] = NULL;
    fflush(NULL);
    pid_t pid = fork();
    cr_assert_neq(pid, -1, "fork: %s", strerror(errno));
    if (pid == 0) {
        int fd = open(out, O_WRONLY | O_CREAT | O_APPEND, 0600);
        if (fd < 0 || chdir(dir) != 0)
            _exit(127);
        dup2(fd, STDOUT_FILENO);
        dup2(fd, STDERR_FILENO);
        /* A killed referee leaves its game folders: in the case's own. */
        setenv("TMPDIR", dir, 1);
        execv(ref, (char *const *)argv);
        _exit(127);
    }
    return pid;
}

/* Every whole line of the journal is a JSON object, the first its header,
 * and no game is in it twice. Returns the number of games; *torn: 1 when
 * the last line was cut short. */
static int check_journal(const char *path, uint64_t seed, int round, int *torn)
{
    size_t len;
    char *text = e2e_slurp(path, &len);
    *torn = 0;
    if (!text)
        return 0;   /* killed before it was created */
    int games = 0, lineno = 0;
    char seen[KILL_GAMES + 1] = { 0 };
    for (char *p = text; p < text + len; lineno++) {
        char *nl = memchr(p, '\n', (size_t)(text + len - p));
        if (!nl) {
            *torn = 1;
            break;
        }
        *nl = '\0';
        cJSON *rec = cJSON_Parse(p);
        cr_assert(cJSON_IsObject(rec), "seed %llu, kill %d: journal line %d is not JSON: %.200s",
                  (unsigned long long)seed, round, lineno + 1, p);
        if (lineno > 0) {
            const cJSON *idx = cJSON_GetObjectItemCaseSensitive(rec, "index");
            int i = cJSON_IsNumber(idx) ? idx->valueint : -1;
            cr_assert(i >= 1 && i <= KILL_GAMES, "seed %llu, kill %d: line %d: game index %d",
                      (unsigned long long)seed, round, lineno + 1, i);
            cr_assert(!seen[i], "seed %llu, kill %d: game %d is in the journal twice",
                      (unsigned long long)seed, round, i);
            seen[i] = 1;
            games++;
        }
        cJSON_Delete(rec);
        p = nl + 1;
    }
    free(text);
    return games;
}

/* After the referee's death its workers kill their engines and exit. The
 * test is a child subreaper, so those workers and engines become its
 * children when the referee dies: none may be left after the deadline, and
 * no recorded process may still run. Polling the pid log alone is not
 * enough: a worker that was starting an engine when the referee died
 * records and kills it a moment later. A sandbox's engines are the
 * children of its init, which ends only once they all have: no child left
 * means none of them is left either (and they record nothing). */
static void assert_engines_die_with_referee(const struct fault_dir *f, const char *what)
{
    char desc[512];
    int count, waited = 0;
    pid_t w = 0;
    while (waited < SURVIVOR_WAIT_MS) {
        w = waitpid(-1, NULL, WNOHANG);
        if (w < 0 && errno == ECHILD)
            break;
        if (w > 0)
            continue;
        sleep_ms(POLL_MS);
        waited += POLL_MS;
    }
    char child[512] = "";
    if (w >= 0)
        first_child(child, sizeof child);
    cr_assert(w < 0, "%s: a process of the referee's outlived it by %d ms: %s", what, waited,
              child);
    cr_assert(!first_survivor(f->pids, desc, sizeof desc, &count),
              "%s: an engine outlived the referee by %d ms: %s", what, waited, desc);
}

/* A --sandbox mode (parameters are copied into the test's process: no
 * pointers). */
struct sandbox_mode {
    char name[16];
};

ParameterizedTestParameters(e2e_faults, sigkill_at_random_points_then_resume_keeps_every_game_once)
{
    static struct sandbox_mode modes[] = { { "namespaces" }, { "none" } };
    return cr_make_param_array(struct sandbox_mode, modes, sizeof modes / sizeof *modes);
}

ParameterizedTest(struct sandbox_mode *mode, e2e_faults,
                  sigkill_at_random_points_then_resume_keeps_every_game_once, .timeout = 300)
{
    uint64_t seed = getenv("ARENA_FAULT_SEED") ? strtoull(getenv("ARENA_FAULT_SEED"), NULL, 10)
                                               : (uint64_t)time(NULL) ^ (uint64_t)getpid() << 16;
    uint64_t rng = seed ? seed : 1;
    struct fault_dir f;
    fault_dir_open(&f);
    /* Criterion runs each test in a process of its own: only this test's
     * orphans come here. */
    cr_assert_eq(prctl(PR_SET_CHILD_SUBREAPER, 1L, 0L, 0L, 0L), 0);
    char engine[PATH_MAX], logged[PATH_MAX], perfect[SPEC_MAX], random[SPEC_MAX];
    e2e_engine_bin_path("engine", engine, sizeof engine);
    e2e_repo_path("tests/engines/logged.sh", logged, sizeof logged);
    /* Slowed down, so that kills land in moves, between them, and while
     * the journal is written. */
    snprintf(perfect, sizeof perfect,
             "name=perfect,cmd=%s 0.01 %s one-move --game nim --player perfect {in} {out} 1",
             logged, engine);
    snprintf(random, sizeof random,
             "name=random,cmd=%s 0.01 %s one-move --game nim --player random --seed {player} "
             "{in} {out} 1", logged, engine);
    const char *args[] = { "tournament", "--game", "nim", "--engine", perfect, "--engine",
                           random, "--rounds", KILL_TOURNAMENT_ROUNDS, "--random-plies", "2",
                           "--concurrency", "2", "--sandbox", mode->name, "--journal", "j.jsonl",
                           "--resume", NULL };
    char journal[PATH_MAX], out[PATH_MAX];
    snprintf(journal, sizeof journal, "%s/j.jsonl", f.dir);
    snprintf(out, sizeof out, "%s/killed.out", f.dir);
    int killed = 0, torn_seen = 0, before = 0;
    for (int round = 1; round <= KILL_ROUNDS; round++) {
        long delay = (long)(rng_next(&rng) % KILL_MAX_DELAY_MS);
        /* The first run starts the journal; the others resume it. */
        const char *first[sizeof args / sizeof *args];
        memcpy(first, args, sizeof args);
        if (round == 1)
            first[sizeof args / sizeof *args - 2] = NULL;
        pid_t pid = spawn_referee(f.dir, first, out);
        sleep_ms(delay);
        kill(pid, SIGKILL);
        int status;
        cr_assert_eq(waitpid(pid, &status, 0), pid);
        cr_assert(WIFSIGNALED(status) || (WIFEXITED(status) && WEXITSTATUS(status) == 0),
                  "seed %llu, kill %d after %ld ms: the referee failed (status %d); see %s",
                  (unsigned long long)seed, round, delay, status, out);
        killed += WIFSIGNALED(status);
        char what[64];
        snprintf(what, sizeof what, "--sandbox %s, seed %llu, kill %d", mode->name,
                 (unsigned long long)seed, round);
        assert_engines_die_with_referee(&f, what);
        int torn;
        int games = check_journal(journal, seed, round, &torn);
        torn_seen += torn;
        cr_assert_geq(games, before, "seed %llu, kill %d: the journal lost games: %d, was %d",
                      (unsigned long long)seed, round, games, before);
        before = games;
    }
    /* How far the runs got depends on the machine's load; that some were
     * killed mid-run does not: the first one always is. */
    cr_assert_geq(killed, 1, "seed %llu: no run was killed before it finished",
                  (unsigned long long)seed);

    /* The last resume finishes it (under valgrind when the suite is). */
    struct e2e_run r, v;
    e2e_runv(&r, f.dir, NULL, "referee", args);
    cr_assert_eq(r.status, 0, "seed %llu: the last resume: exit %d: %s",
                 (unsigned long long)seed, r.status, r.err);
    int torn;
    int games = check_journal(journal, seed, KILL_ROUNDS + 1, &torn);
    cr_assert(games == KILL_GAMES && !torn, "seed %llu: %d games in the final journal, want %d%s",
              (unsigned long long)seed, games, KILL_GAMES, torn ? ", its last line torn" : "");
    e2e_run(&v, f.dir, NULL, "referee", "verify", "j.jsonl", NULL);
    cr_assert_eq(v.status, 0, "seed %llu: verify: %s%s", (unsigned long long)seed, v.out, v.err);
    char want[64];
    snprintf(want, sizeof want, "j.jsonl: %d games, ", KILL_GAMES);
    cr_assert(strncmp(v.out, want, strlen(want)) == 0, "seed %llu: verify: %s",
              (unsigned long long)seed, v.out);
    char what[64];
    snprintf(what, sizeof what, "--sandbox %s, seed %llu, the last run", mode->name,
             (unsigned long long)seed);
    assert_engines_die_with_referee(&f, what);
    assert_tmp_clean(&f, "after the kills");
    cr_log_info("seed %llu: %d of %d runs killed mid-run, %d torn journal lines, %d games "
                "journalled during the kills", (unsigned long long)seed, killed, KILL_ROUNDS,
                torn_seen, before);
    e2e_run_free(&r);
    e2e_run_free(&v);
    fault_dir_close(&f);
}

/* Killed after creating the journal but before its header line was
 * whole: the file is empty or a prefix of the header, and --resume starts
 * the tournament anew rather than refusing the file. */
Test(e2e_faults, resume_after_a_kill_inside_the_journal_header)
{
    struct fault_dir f;
    fault_dir_open(&f);
    char engine[PATH_MAX], perfect[SPEC_MAX], random[SPEC_MAX];
    e2e_engine_bin_path("engine", engine, sizeof engine);
    snprintf(perfect, sizeof perfect, "name=perfect,cmd=%s one-move --game nim --player perfect",
             engine);
    snprintf(random, sizeof random,
             "name=random,cmd=%s one-move --game nim --player random --seed {player} {in} {out} 1",
             engine);
    const char *whole[] = { "tournament", "--game", "nim", "--engine", perfect, "--engine",
                            random, "--journal", "whole.jsonl", NULL };
    struct e2e_run r;
    e2e_runv(&r, f.dir, NULL, "referee", whole);
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    e2e_run_free(&r);
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/whole.jsonl", f.dir);
    char *text = e2e_slurp(path, NULL);
    size_t header_len = strcspn(text, "\n");
    snprintf(path, sizeof path, "%s/j.jsonl", f.dir);
    const size_t cuts[] = { 0, header_len / 2, header_len };
    for (size_t k = 0; k < sizeof cuts / sizeof *cuts; k++) {
        FILE *j = fopen(path, "w");
        cr_assert_not_null(j);
        fwrite(text, 1, cuts[k], j);
        fclose(j);
        const char *resume[] = { "tournament", "--game", "nim", "--engine", perfect, "--engine",
                                 random, "--journal", "j.jsonl", "--resume", NULL };
        e2e_runv(&r, f.dir, NULL, "referee", resume);
        cr_assert_eq(r.status, 0, "header cut after %zu of %zu bytes: exit %d: %s", cuts[k],
                     header_len, r.status, r.err);
        char *resumed = e2e_slurp(path, NULL);
        int lines = 0;
        for (const char *p = resumed; (p = strchr(p, '\n')); p++)
            lines++;
        cr_assert(strncmp(resumed, text, header_len + 1) == 0 && lines == 3,
                  "header cut after %zu of %zu bytes: want the header and 2 games, got:\n%s",
                  cuts[k], header_len, resumed);
        free(resumed);
        e2e_run_free(&r);
        e2e_run(&r, f.dir, NULL, "referee", "verify", "j.jsonl", NULL);
        cr_assert_eq(r.status, 0, "header cut after %zu bytes: verify: %s%s", cuts[k], r.out,
                     r.err);
        e2e_run_free(&r);
    }
    /* Anything else that is no journal is still refused, and kept. */
    FILE *j = fopen(path, "w");
    fputs("{\"schema\":\"arena.journal/0\"", j);
    fclose(j);
    const char *resume[] = { "tournament", "--game", "nim", "--engine", perfect, "--engine",
                             random, "--journal", "j.jsonl", "--resume", NULL };
    e2e_runv(&r, f.dir, NULL, "referee", resume);
    cr_assert_eq(r.status, 2, "a foreign file: exit %d: %s", r.status, r.err);
    char *kept = e2e_slurp(path, NULL);
    cr_assert_str_eq(kept, "{\"schema\":\"arena.journal/0\"", "a foreign file was changed");
    free(kept);
    e2e_run_free(&r);
    free(text);
    fault_dir_close(&f);
}

/* --- a match stopped mid-move ------------------------------------------ */

/* family-sleeper.sh's records: itself, its child, the setsid shell (twice:
 * by itself and by its parent) and that shell's child. */
#define FAMILY_RECORDS 5
#define FAMILY_START_MS 20000

struct stop_signal {
    int sig;
    char name[8];
};

ParameterizedTestParameters(e2e_faults, match_stopped_mid_move_takes_the_engine_family_down)
{
    static struct stop_signal cases[] = { { SIGKILL, "SIGKILL" }, { SIGTERM, "SIGTERM" },
                                          { SIGINT, "SIGINT" } };
    return cr_make_param_array(struct stop_signal, cases, sizeof cases / sizeof *cases);
}

/* `referee match` is one process the user may kill at any time: killed
 * mid-move, even by SIGKILL, it takes the engine's whole family down, the
 * setsid grandchild too, not the leader alone; stopped by SIGTERM or SIGINT
 * it also says so and exits 1. No .timeout: every wait here is bounded,
 * and Criterion 2.4 leaks a record (LeakSanitizer in make check) when two
 * parameterised tests of one run have timeouts. */
ParameterizedTest(struct stop_signal *c, e2e_faults,
                  match_stopped_mid_move_takes_the_engine_family_down)
{
    struct fault_dir f;
    fault_dir_open(&f);
    /* Criterion runs each test in a process of its own: only this test's
     * orphans come here. */
    cr_assert_eq(prctl(PR_SET_CHILD_SUBREAPER, 1L, 0L, 0L, 0L), 0);
    char family[PATH_MAX], engine[PATH_MAX], other[SPEC_MAX];
    e2e_repo_path("tests/engines/family-sleeper.sh", family, sizeof family);
    e2e_engine_bin_path("engine", engine, sizeof engine);
    snprintf(other, sizeof other, "%s one-move --game connect4 {in} {out} 2", engine);
    const char *args[] = { "match", "--game", "connect4", "--engine", family, "--engine", other,
                           "--games", "1", "--timeout-ms", SOUND_TIMEOUT_MS, "--sandbox", "none",
                           NULL };
    char out[PATH_MAX];
    snprintf(out, sizeof out, "%s/match.out", f.dir);
    pid_t pid = spawn_referee(f.dir, args, out);
    int count = 0, waited = 0;
    while (waited < FAMILY_START_MS) {
        char *log = e2e_slurp(f.pids, NULL);
        count = 0;
        for (const char *p = log; p && (p = strchr(p, '\n')); p++)
            count++;
        free(log);
        if (count >= FAMILY_RECORDS)
            break;
        sleep_ms(POLL_MS);
        waited += POLL_MS;
    }
    cr_assert_geq(count, FAMILY_RECORDS, "the engine recorded %d processes in %d ms", count,
                  waited);
    kill(pid, c->sig);
    int status;
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    char *said = e2e_slurp(out, NULL);
    if (c->sig == SIGKILL)
        cr_expect(WIFSIGNALED(status), "%s: status %d", c->name, status);
    else
        cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 1
                      && strcmp(said, "referee: stopped by a signal in game 1: no log written\n")
                             == 0,
                  "%s: status %d, said '%s'", c->name, status, said);
    free(said);
    assert_engines_die_with_referee(&f, c->name);
    assert_tmp_clean(&f, c->name);
    fault_dir_close(&f);
}
