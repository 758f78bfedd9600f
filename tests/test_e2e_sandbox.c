/*
 * test_e2e_sandbox.c - the referee's sandbox (sandbox.h) against engines
 * that attack their host (tests/engines/hostile.py, one attack each): kill
 * their parent, every ancestor, every process (kill(-1)); read another
 * engine's program and play it as a move; read and append to the journal;
 * reach 127.0.0.1 by TCP and UDP; fork without end; ptrace their parent;
 * write in /tmp, $HOME and the referee's folder; leave a setsid sleeper
 * behind; pre-create the names the other engine writes its answer through;
 * fill the disk; leave a SysV segment; make a user namespace; read the
 * referee's environment (SECRET_TOKEN); leave a tree deeper than PATH_MAX
 * and a chmod 000 folder. Each plays a tournament against a sound engine
 * (--concurrency 2, the games in a TMPDIR of the test's that must end
 * empty, no segment left in /proc/sysvipc), as root and as an
 * unprivileged user (nobody, through setpriv; a test run by someone other
 * than root runs the second case as that user and skips the first), and
 * each must be harmless: the tournament finishes with every scheduled game
 * once and no forfeit, `referee verify` accepts the journal, no process is
 * left, and what the attack aimed at is unchanged.
 *
 * Also: engines in Python, sh, Java (compiled here, by the JRE's own javac
 * module) and C play normal games in the sandbox, the JVM under
 * --mem-limit-mb too; --sandbox-ro shows a path, and a forfeit names the
 * hidden one; the journal's header says what ran; where user namespaces are
 * refused the referee stops before the first game, naming the cause and
 * --sandbox none; a Python found through a shim in a home folder plays;
 * dir=/, a referee in /, dir=/tmp and --sandbox-ro /tmp keep the host's /tmp
 * untouched; stderr= naming a file of the run and an over-long word are
 * refused before play; leftovers go with and without the sandbox.
 *
 * The engines find programs through PATH=/usr/bin:/bin, so that every
 * case runs the system's python3 (the shim test makes its own PATH).
 * The C engine is e2e_engine_bin_path's: it plays under --mem-limit-mb
 * and next to a fork bomb's exhausted RLIMIT_NPROC, where a sanitized
 * binary cannot start.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>
#include "e2e_util.h"

#define SPEC_MAX (4 * PATH_MAX)
#define NOBODY 65534
#define NOBODY_TEXT "65534"
#define ENGINE_PATH "/usr/bin:/bin"
/* The sound opponent (a perfect Nim player) and the hostile engine's own
 * move (a random one: its games last a few moves). */
#define PERFECT "%s one-move --game nim --player perfect"
#define PLAYS "%s one-move --game nim --player random --seed {player} {in} {out} 1"
#define SECRET "the victim's secret"
/* hostile.py sysv's key: this plus the test's pid, unlikely to be anyone's. */
#define SYSV_KEY_BASE 0x5A000000L
/* A fork bomb's 64 processes take seconds on a loaded 2-core machine. */
#define HOSTILE_TIMEOUT_MS "60000"

/* Who runs the referee: root, or nobody. */
struct who {
    int nobody;
};

/* A test's folder: the referee's working directory, open to nobody. */
struct place {
    char *dir;
    struct who who;
};

static void place_open(struct place *p, struct who who)
{
    if (!who.nobody && geteuid() != 0)
        cr_skip_test("runs as root only");
    p->dir = e2e_tmpdir();
    p->who = who;
    cr_assert_eq(chmod(p->dir, 0755), 0, "chmod %s: %s", p->dir, strerror(errno));
    if (who.nobody && geteuid() == 0)
        cr_assert_eq(chown(p->dir, NOBODY, NOBODY), 0, "chown %s: %s", p->dir, strerror(errno));
    setenv("PATH", ENGINE_PATH, 1);
}

/* Runs the referee in p's folder as p's user. */
static void referee(struct e2e_run *r, const struct place *p, const char *const *args)
{
    static const char *const as_nobody[] = { "setpriv", "--reuid=" NOBODY_TEXT,
                                             "--regid=" NOBODY_TEXT, "--clear-groups", NULL };
    e2e_runv_via(r, p->dir, NULL, p->who.nobody && geteuid() == 0 ? as_nobody : NULL, "referee",
                 args);
}

/* Writes text to p's folder/name, mode 0755, owned by p's user. */
static void place_file(const struct place *p, const char *name, const char *text, char *path,
                       size_t cap)
{
    snprintf(path, cap, "%s/%s", p->dir, name);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f, "cannot write %s", path);
    fputs(text, f);
    fclose(f);
    chmod(path, 0755);
    if (p->who.nobody && geteuid() == 0)
        cr_assert_eq(chown(path, NOBODY, NOBODY), 0);
}

/* A finished tournament of `games` games: exit 0, every game in the
 * standings, no forfeit, and verify accepts the journal j.jsonl. */
static void assert_sound_tournament(const struct place *p, const struct e2e_run *r, int games,
                                    const char *what)
{
    char want[64];
    cr_assert_eq(r->status, 0, "%s: exit %d: %s%s", what, r->status, r->out, r->err);
    snprintf(want, sizeof want, "Standings after %d games\n", games);
    cr_assert_not_null(strstr(r->out, want), "%s: no '%s':\n%s", what, want, r->out);
    cr_assert_null(strstr(r->out, "forfeits"), "%s: a forfeit:\n%s", what, r->out);
    struct e2e_run v;
    const char *args[] = { "verify", "j.jsonl", NULL };
    referee(&v, p, args);
    snprintf(want, sizeof want, "j.jsonl: %d games, ", games);
    cr_assert(v.status == 0 && strncmp(v.out, want, strlen(want)) == 0,
              "%s: verify (exit %d): %s%s", what, v.status, v.out, v.err);
    e2e_run_free(&v);
}

/* Makes folder path, open to p's user. */
static void place_folder(const struct place *p, const char *path)
{
    cr_assert_eq(mkdir(path, 0755), 0, "mkdir %s: %s", path, strerror(errno));
    if (p->who.nobody && geteuid() == 0)
        cr_assert_eq(chown(path, NOBODY, NOBODY), 0);
}

/* Nothing is left in folder path. */
static void assert_empty(const char *path, const char *what)
{
    DIR *d = opendir(path);
    cr_assert_not_null(d, "%s: cannot list %s", what, path);
    struct dirent *en;
    while ((en = readdir(d)))
        cr_assert(strcmp(en->d_name, ".") == 0 || strcmp(en->d_name, "..") == 0,
                  "%s: %s/%s is left", what, path, en->d_name);
    closedir(d);
}

/* Whether the host's /proc/sysvipc/shm lists a segment of key. */
static int sysv_has_key(long key)
{
    FILE *f = fopen("/proc/sysvipc/shm", "r");
    cr_assert_not_null(f);
    char line[512];
    int found = 0;
    if (fgets(line, sizeof line, f))   /* the heading */
        while (!found && fgets(line, sizeof line, f))
            found = atol(line) == key;
    fclose(f);
    return found;
}

/* --- the hostile engines ------------------------------------------------ */

struct attack {
    char name[24];   /* hostile.py's ATTACK */
    int nobody;
};

ParameterizedTestParameters(e2e_sandbox, hostile_engine_is_harmless)
{
    static const char *const names[] = {
        "kill-parent", "kill-ancestors", "kill-all", "read-other", "append-journal",
        "network", "fork-bomb", "ptrace-parent", "write-outside", "setsid-sleeper",
        "precreate", "fill-disk", "sysv", "userns", "env", "leftovers", "lock", "keys",
        "file-watches", "io-uring",
    };
    enum { N = sizeof names / sizeof *names };
    static struct attack cases[2 * N];
    for (int i = 0; i < 2 * N; i++) {
        snprintf(cases[i].name, sizeof cases[i].name, "%s", names[i / 2]);
        cases[i].nobody = i % 2;
    }
    return cr_make_param_array(struct attack, cases, 2 * N);
}

/* A TCP listener and a UDP socket on one port of 127.0.0.1. */
struct listener {
    int tcp, udp;
    char port[16];
};

static void listen_local(struct listener *l)
{
    int port = 0;
    l->tcp = e2e_listen_local(SOCK_STREAM, &port);
    l->udp = e2e_listen_local(SOCK_DGRAM, &port);
    snprintf(l->port, sizeof l->port, "%d", port);
}

static void assert_nothing_came(struct listener *l, const char *who)
{
    char buf[16];
    int conn = accept(l->tcp, NULL, NULL);
    if (conn >= 0)
        close(conn);
    cr_assert(conn < 0, "%s: an engine connected to 127.0.0.1:%s", who, l->port);
    cr_assert(recv(l->udp, buf, sizeof buf, 0) < 0, "%s: an engine sent a datagram to port %s",
              who, l->port);
    close(l->tcp);
    close(l->udp);
}

ParameterizedTest(struct attack *c, e2e_sandbox, hostile_engine_is_harmless, .timeout = 240)
{
    struct place p;
    place_open(&p, (struct who){ c->nobody });
    char what[64], engine[PATH_MAX], hostile[PATH_MAX], journal[PATH_MAX + 16];
    snprintf(what, sizeof what, "%s as %s", c->name, c->nobody ? "nobody" : "root");
    e2e_engine_bin_path("engine", engine, sizeof engine);
    e2e_repo_path("tests/engines/hostile.py", hostile, sizeof hostile);
    snprintf(journal, sizeof journal, "%s/j.jsonl", p.dir);

    /* The hostile engine's opponent: a perfect player, or what it needs. */
    char spec[SPEC_MAX], other[SPEC_MAX], victim[PATH_MAX], escape[64];
    char plays[PATH_MAX + 96], perfect[PATH_MAX + 64];
    snprintf(plays, sizeof plays, PLAYS, engine);
    snprintf(perfect, sizeof perfect, PERFECT, engine);
    char param[32] = "-";
    if (strcmp(c->name, "read-other") == 0)
        snprintf(param, sizeof param, "{out}");
    else if (strcmp(c->name, "sysv") == 0)
        snprintf(param, sizeof param, "%ld", SYSV_KEY_BASE + (long)getpid());
    else if (strcmp(c->name, "lock") == 0)
        snprintf(param, sizeof param, "/etc/passwd");   /* bound read-only in every sandbox */
    snprintf(spec, sizeof spec, "name=%s,cmd=python3 %s %s %s %s", c->name, hostile, c->name,
             param, plays);
    snprintf(other, sizeof other, "name=other,cmd=%s", perfect);
    struct listener l = { -1, -1, "" };
    if (strcmp(c->name, "read-other") == 0) {
        /* The victim's program lies in a folder every engine sees. */
        char vdir[PATH_MAX + 8], text[PATH_MAX + 128];
        snprintf(vdir, sizeof vdir, "%s/victim", p.dir);
        cr_assert_eq(mkdir(vdir, 0755), 0);
        if (p.who.nobody && geteuid() == 0)
            cr_assert_eq(chown(vdir, NOBODY, NOBODY), 0);
        snprintf(text, sizeof text,
                 "#!/bin/sh\n# %s\nengine=$1\nshift\nexec \"$engine\" one-move --game nim "
                 "--player perfect \"$@\"\n", SECRET);
        place_file(&p, "victim/victim.sh", text, victim, sizeof victim);
        snprintf(other, sizeof other, "name=other,cmd=%s %s {in} {out} 1", victim, engine);
        setenv("ARENA_VICTIM", victim, 1);
    } else if (strcmp(c->name, "setsid-sleeper") == 0) {
        snprintf(other, sizeof other, "name=other,cmd=python3 %s watch 6096.%ld %s", hostile,
                 (long)getpid(), perfect);
    } else if (strcmp(c->name, "network") == 0) {
        listen_local(&l);
        setenv("ARENA_PORT", l.port, 1);
    }
    snprintf(escape, sizeof escape, "arena-escape-%ld", (long)getpid());
    char tag[32], sleepers[64];
    snprintf(tag, sizeof tag, "%ld", (long)getpid());
    snprintf(sleepers, sizeof sleepers, "sleep 609[56][.]%s", tag);
    setenv("ARENA_TAG", tag, 1);
    setenv("ARENA_ESCAPE", escape, 1);
    setenv("ARENA_CWD", p.dir, 1);
    setenv("ARENA_JOURNAL", journal, 1);
    setenv("SECRET_TOKEN", SECRET, 1);
    /* The games' folders in a folder of the test's: nothing may be left. */
    char games[PATH_MAX + 8];
    snprintf(games, sizeof games, "%s/games", p.dir);
    place_folder(&p, games);
    setenv("TMPDIR", games, 1);

    /* The referee's folder is readable by every engine: what hides the
     * journal and the victim is the mask, not their absence. */
    const char *args[] = { "tournament", "--game", "nim", "--random-plies", "2", "--engine", spec,
                           "--engine", other, "--concurrency", "2", "--journal", "j.jsonl",
                           "--sandbox-ro", p.dir, "--timeout-ms", HOSTILE_TIMEOUT_MS,
                           "--sandbox-env", "ARENA_TAG", "--sandbox-env", "ARENA_ESCAPE",
                           "--sandbox-env", "ARENA_CWD", "--sandbox-env", "ARENA_JOURNAL",
                           "--sandbox-env", "ARENA_VICTIM", "--sandbox-env", "ARENA_PORT", NULL };
    struct e2e_run r;
    referee(&r, &p, args);
    assert_sound_tournament(&p, &r, 2, what);
    cr_assert(!e2e_process_alive(sleepers), "%s: a sleeper is left", what);
    if (l.tcp >= 0)
        assert_nothing_came(&l, what);
    char outside[3][PATH_MAX];
    snprintf(outside[0], PATH_MAX, "/tmp/%s", escape);
    snprintf(outside[1], PATH_MAX, "%s/%s", getenv("HOME") ? getenv("HOME") : "/", escape);
    snprintf(outside[2], PATH_MAX, "%s/%s", p.dir, escape);
    for (int i = 0; i < 3; i++) {
        cr_assert(!e2e_exists(outside[i]), "%s: an engine wrote %s", what, outside[i]);
        unlink(outside[i]);
    }
    assert_empty(games, what);
    cr_assert(!sysv_has_key(SYSV_KEY_BASE + (long)getpid()), "%s: a SysV segment is left",
              what);
    cr_assert_null(strstr(r.err, "warning"), "%s: %s", what, r.err);
    e2e_run_free(&r);
    e2e_rmdir(p.dir);
}

/* --- engines of every kind ---------------------------------------------- */

ParameterizedTestParameters(e2e_sandbox, python_sh_and_c_engines_play)
{
    static struct who cases[] = { { 0 }, { 1 } };
    return cr_make_param_array(struct who, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct who *who, e2e_sandbox, python_sh_and_c_engines_play)
{
    struct place p;
    place_open(&p, *who);
    char engine[PATH_MAX], py[PATH_MAX], sh[PATH_MAX];
    char c_spec[SPEC_MAX], py_spec[SPEC_MAX], sh_spec[SPEC_MAX];
    e2e_engine_bin_path("engine", engine, sizeof engine);
    e2e_repo_path("tests/engines/nim_first.py", py, sizeof py);
    e2e_repo_path("tests/engines/nim-first.sh", sh, sizeof sh);
    snprintf(c_spec, sizeof c_spec, "name=c,cmd=" PERFECT, engine);
    snprintf(py_spec, sizeof py_spec, "name=python,cmd=python3 %s", py);
    snprintf(sh_spec, sizeof sh_spec, "name=sh,cmd=%s", sh);
    const char *args[] = { "tournament", "--game", "nim", "--random-plies", "2", "--engine",
                           c_spec, "--engine", py_spec, "--engine", sh_spec, "--journal",
                           "j.jsonl", NULL };
    struct e2e_run r;
    referee(&r, &p, args);
    assert_sound_tournament(&p, &r, 6, who->nobody ? "as nobody" : "as root");
    e2e_run_free(&r);
    e2e_rmdir(p.dir);
}

/* The Java engine, compiled here with the JRE's javac module (java -m
 * jdk.compiler/...: default-jre-headless has it, no JDK needed), plays
 * with its classes in a folder of its own, named by -cp. A JVM reserves
 * about 4 GB of address space, which RLIMIT_AS counts: under
 * --mem-limit-mb it starts when told to reserve less (README). */
Test(e2e_sandbox, java_engine_plays_with_and_without_a_memory_limit, .timeout = 240)
{
    struct place p;
    place_open(&p, (struct who){ geteuid() != 0 });
    char source[PATH_MAX], classes[PATH_MAX + 16], cmd[3 * PATH_MAX], engine[PATH_MAX];
    e2e_repo_path("tests/engines/NimFirst.java", source, sizeof source);
    e2e_engine_bin_path("engine", engine, sizeof engine);
    snprintf(classes, sizeof classes, "%s/classes", p.dir);
    snprintf(cmd, sizeof cmd, "java -m jdk.compiler/com.sun.tools.javac.Main -d %s %s", classes,
             source);
    cr_assert_eq(system(cmd), 0, "%s failed (is default-jre-headless installed?)", cmd);
    chmod(classes, 0755);
    static const char *const flags[] = {
        "",
        "-Xmx64m -XX:ReservedCodeCacheSize=16m -XX:CompressedClassSpaceSize=16m -XX:+UseSerialGC ",
    };
    for (int limited = 0; limited < 2; limited++) {
        char java[SPEC_MAX], c_spec[SPEC_MAX];
        snprintf(java, sizeof java, "name=java,cmd=java %s-cp %s NimFirst", flags[limited],
                 classes);
        snprintf(c_spec, sizeof c_spec, "name=c,cmd=" PERFECT, engine);
        const char *args[] = { "tournament", "--game", "nim", "--random-plies", "2", "--engine",
                               java, "--engine", c_spec, "--journal", "j.jsonl",
                               limited ? "--mem-limit-mb" : NULL, "512", NULL };
        struct e2e_run r;
        char journal[PATH_MAX + 16];
        snprintf(journal, sizeof journal, "%s/j.jsonl", p.dir);
        unlink(journal);
        referee(&r, &p, args);
        assert_sound_tournament(&p, &r, 2, limited ? "java under --mem-limit-mb 512" : "java");
        e2e_run_free(&r);
    }
    e2e_rmdir(p.dir);
}

/* --- paths, the journal, a system without namespaces -------------------- */

/* An engine that needs a file outside its own folders (here: outside the
 * referee's folder, its working directory) gets it with --sandbox-ro, and
 * loses without (it exits 1). */
Test(e2e_sandbox, sandbox_ro_shows_a_path)
{
    struct place p, elsewhere;
    place_open(&p, (struct who){ geteuid() != 0 });
    place_open(&elsewhere, p.who);
    char engine[PATH_MAX], hostile[PATH_MAX], data[PATH_MAX], spec[SPEC_MAX], c_spec[SPEC_MAX];
    e2e_engine_bin_path("engine", engine, sizeof engine);
    e2e_repo_path("tests/engines/hostile.py", hostile, sizeof hostile);
    place_file(&elsewhere, "weights.txt", "1 2 3\n", data, sizeof data);
    snprintf(spec, sizeof spec, "name=needy,cmd=python3 %s needs - " PLAYS, hostile, engine);
    setenv("ARENA_DATA", data, 1);
    snprintf(c_spec, sizeof c_spec, "name=c,cmd=" PERFECT, engine);
    const char *args[] = { "match", "--game", "nim", "--engine", spec, "--engine", c_spec,
                           "--games", "1", "--sandbox-env", "ARENA_DATA", "--sandbox-ro", data,
                           NULL };
    const int sandbox_ro_at = 11;
    struct e2e_run r;
    referee(&r, &p, args);
    cr_assert(r.status == 0 && strstr(r.out, "Finished game 1 (needy vs c): ") &&
                  !strstr(r.out, "forfeits"),
              "with --sandbox-ro: exit %d: %s%s", r.status, r.out, r.err);
    e2e_run_free(&r);
    args[sandbox_ro_at] = NULL;
    referee(&r, &p, args);
    /* Hidden, the file is missing, and the forfeit line says so, with the
     * option that shows it. */
    cr_assert_eq(r.status, 3, "without: exit %d: %s", r.status, r.err);
    char want[4 * PATH_MAX];
    snprintf(want, sizeof want,
             "Finished game 1 (needy vs c): 0-1 {needy forfeits at ply 1: exit-status 1: cannot "
             "read %s: No such file or directory (hidden by the sandbox: --sandbox-ro %s)}\n"
             "  ply 1: --keep-files DIR keeps its position (DIR/game-1/ply-001-in.txt); its "
             "stderr: --log FILE keeps it (\"stderr_tail\"), or stderr=FILE\n"
             "Score of needy vs c: 0 - 1 - 0  [0.000] 1\n"
             "needy forfeited every game it played (1): exit-status 1\n",
             data, data);
    cr_assert_str_eq(r.out, want, "without --sandbox-ro: got\n%s", r.out);
    e2e_run_free(&r);
    e2e_rmdir(p.dir);
    e2e_rmdir(elsewhere.dir);
}

/* The header of the journal says the mode, what it isolates and the
 * names --sandbox-env passes (never their values). */
Test(e2e_sandbox, journal_header_says_what_ran)
{
    static const char *const want[] = {
        "\"sandbox\":{\"mode\":\"namespaces\",\"isolates\":[\"user\",\"pid\",\"mount\","
        "\"network\",\"ipc\",\"uts\",\"no_new_privs\",\"no_capabilities\",\"ipc_per_move\","
        "\"no_user_namespaces\",\"clean_environment\",\"no_key_quota\",\"no_shared_locks\","
        "\"no_file_watches\",\"no_io_uring\"],\"read_only\":[]}",
        "\"sandbox\":{\"mode\":\"none\",\"isolates\":[]}",
        "\"clean_environment\",\"no_key_quota\",\"no_shared_locks\",\"no_file_watches\","
        "\"no_io_uring\"],\"read_only\":[],\"env\":[\"SECRET_TOKEN\"]}",
    };
    static const char *const mode[] = { "namespaces", "none", "namespaces" };
    struct place p;
    place_open(&p, (struct who){ geteuid() != 0 });
    char engine[PATH_MAX], a[SPEC_MAX], b[SPEC_MAX], journal[PATH_MAX + 16];
    e2e_engine_bin_path("engine", engine, sizeof engine);
    snprintf(a, sizeof a, "name=a,cmd=" PERFECT, engine);
    snprintf(b, sizeof b, "name=b,cmd=" PERFECT, engine);
    snprintf(journal, sizeof journal, "%s/j.jsonl", p.dir);
    setenv("SECRET_TOKEN", SECRET, 1);
    for (int i = 0; i < 3; i++) {
        /* The third run: --sandbox-env's name in the header, not its value. */
        const char *args[] = { "tournament", "--game", "nim", "--engine", a, "--engine", b,
                               "--journal", "j.jsonl", "--sandbox", mode[i],
                               i == 2 ? "--sandbox-env" : NULL, "SECRET_TOKEN", NULL };
        struct e2e_run r;
        unlink(journal);
        referee(&r, &p, args);
        cr_assert_eq(r.status, 0, "--sandbox %s: exit %d: %s", mode[i], r.status, r.err);
        char *text = e2e_slurp(journal, NULL);
        char *nl = text ? strchr(text, '\n') : NULL;
        cr_assert_not_null(nl, "--sandbox %s: no header line", mode[i]);
        *nl = '\0';
        cr_assert_not_null(strstr(text, want[i]), "--sandbox %s: header:\n%s\nwant:\n%s",
                           mode[i], text, want[i]);
        cr_assert_null(strstr(text, SECRET), "a value in the header:\n%s", text);
        free(text);
        e2e_run_free(&r);
    }
    e2e_rmdir(p.dir);
}

/* A system that refuses user namespaces (here: a user namespace whose
 * limit on new ones is 0): the referee stops before the first game, exit
 * 2, naming the cause and --sandbox none; with --sandbox none it plays. */
Test(e2e_sandbox, without_namespaces_the_referee_stops_before_the_first_game)
{
    static const char *const no_userns[] = {
        "unshare", "-Ur", "sh", "-c",
        "echo 0 > /proc/sys/user/max_user_namespaces && exec \"$@\"", "no-userns", NULL,
    };
    char *dir = e2e_tmpdir();
    char engine[PATH_MAX], a[SPEC_MAX], b[SPEC_MAX], journal[PATH_MAX + 16];
    e2e_engine_bin_path("engine", engine, sizeof engine);
    snprintf(a, sizeof a, "name=a,cmd=" PERFECT, engine);
    snprintf(b, sizeof b, "name=b,cmd=" PERFECT, engine);
    snprintf(journal, sizeof journal, "%s/j.jsonl", dir);
    const char *args[] = { "tournament", "--game", "nim", "--engine", a, "--engine", b,
                           "--journal", "j.jsonl", NULL, NULL, NULL };
    const int sandbox_at = 9;
    struct e2e_run r;
    e2e_runv_via(&r, dir, NULL, no_userns, "referee", args);
    cr_assert_eq(r.status, 2, "exit %d: %s%s", r.status, r.out, r.err);
    cr_assert_str_eq(r.out, "");
    cr_assert_str_eq(r.err,
                     "referee: cannot create the engines' sandbox: new namespaces: the limit on "
                     "user namespaces is reached (sysctl user.max_user_namespaces); run with "
                     "--sandbox none to play without one\n");
    cr_assert(!e2e_exists(journal), "a journal was created");
    e2e_run_free(&r);
    args[sandbox_at] = "--sandbox";
    args[sandbox_at + 1] = "none";
    e2e_runv_via(&r, dir, NULL, no_userns, "referee", args);
    cr_assert(r.status == 0 && strstr(r.out, "Standings after 2 games\n"),
              "--sandbox none: exit %d: %s%s", r.status, r.out, r.err);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

/* A Python found only in a home folder, through a pyenv-like shim: the
 * shim (a script in HOME/.fakepy/shims, first on PATH) runs a helper in
 * HOME/.fakepy/libexec that runs HOME/.fakepy/versions/3/bin/python3 (a
 * link to the system's). The engine plays as found, its installation
 * (HOME/.fakepy) read-only, named in the journal's header. */
Test(e2e_sandbox, a_python_from_a_home_folder_works_as_found)
{
    struct place p, h;
    place_open(&p, (struct who){ geteuid() != 0 });
    place_open(&h, p.who);   /* the home: outside the referee's folder */
    char home[PATH_MAX], root[PATH_MAX + 16], dir[PATH_MAX + 64], file[PATH_MAX + 64];
    char text[3 * PATH_MAX], py[PATH_MAX], engine[PATH_MAX], spec[SPEC_MAX], c_spec[SPEC_MAX];
    snprintf(home, sizeof home, "%s/home", h.dir);
    snprintf(root, sizeof root, "%s/.fakepy", home);
    place_folder(&h, home);
    place_folder(&h, root);
    static const char *const folders[] = { "shims", "libexec", "versions", "versions/3",
                                           "versions/3/bin" };
    for (size_t i = 0; i < sizeof folders / sizeof *folders; i++) {
        snprintf(dir, sizeof dir, "%s/%s", root, folders[i]);
        place_folder(&h, dir);
    }
    snprintf(file, sizeof file, "%s/versions/3/bin/python3", root);
    cr_assert_eq(symlink("/usr/bin/python3", file), 0);
    snprintf(text, sizeof text,
             "#!/bin/sh\nexport FAKEPY_ROOT=\"%s\"\nexec \"$FAKEPY_ROOT/libexec/fakepy\" exec "
             "python3 \"$@\"\n", root);
    place_file(&h, "home/.fakepy/shims/python3", text, file, sizeof file);
    place_file(&h, "home/.fakepy/libexec/fakepy",
               "#!/bin/sh\nshift\nprog=$1\nshift\n"
               "exec \"$FAKEPY_ROOT/versions/3/bin/$prog\" \"$@\"\n", file, sizeof file);
    e2e_repo_path("tests/engines/nim_first.py", py, sizeof py);
    e2e_engine_bin_path("engine", engine, sizeof engine);
    snprintf(spec, sizeof spec, "name=py,cmd=python3 %s", py);
    snprintf(c_spec, sizeof c_spec, "name=c,cmd=" PERFECT, engine);
    char path[2 * PATH_MAX];
    snprintf(path, sizeof path, "%s/shims:" ENGINE_PATH, root);
    setenv("PATH", path, 1);
    setenv("HOME", home, 1);
    const char *args[] = { "tournament", "--game", "nim", "--random-plies", "2", "--engine",
                           spec, "--engine", c_spec, "--journal", "j.jsonl", NULL };
    struct e2e_run r;
    referee(&r, &p, args);
    assert_sound_tournament(&p, &r, 2, "a shim's python");
    char journal[PATH_MAX + 16], want[PATH_MAX + 32];
    snprintf(journal, sizeof journal, "%s/j.jsonl", p.dir);
    char *header = e2e_slurp(journal, NULL);
    cr_assert_not_null(header);
    *strchr(header, '\n') = '\0';
    snprintf(want, sizeof want, "\"runtime\":[\"%s\"]", root);
    cr_assert_not_null(strstr(header, want), "header:\n%s\nwant %s", header, want);
    free(header);
    e2e_run_free(&r);
    e2e_rmdir(p.dir);
    e2e_rmdir(h.dir);
}

/* --- the referee's own inputs ------------------------------------------- */

struct bad_stderr {
    char stderr_arg[24];   /* stderr=... of engine a; "B" names b's stderr */
    char what[48];         /* what the message says it is */
};

ParameterizedTestParameters(e2e_sandbox, stderr_naming_a_file_of_the_run_is_refused)
{
    static struct bad_stderr cases[] = {
        { "j.jsonl", "the journal (--journal)" },
        { "./j.jsonl", "the journal (--journal)" },
        { "kept/game-1/x", "inside the keep folder (--keep-files)" },
        { "b.err", "another engine's stderr= file" },
        { "script.py", "a file an engine's command names" },
    };
    return cr_make_param_array(struct bad_stderr, cases, sizeof cases / sizeof *cases);
}

/* Refused before play: exit 2, the engine, the path and what it is named,
 * no journal written. */
ParameterizedTest(struct bad_stderr *c, e2e_sandbox, stderr_naming_a_file_of_the_run_is_refused)
{
    struct place p;
    place_open(&p, (struct who){ geteuid() != 0 });
    char engine[PATH_MAX], a[SPEC_MAX], b[SPEC_MAX], script[PATH_MAX], journal[PATH_MAX + 16];
    e2e_engine_bin_path("engine", engine, sizeof engine);
    place_file(&p, "script.py", "", script, sizeof script);
    snprintf(a, sizeof a, "name=a,stderr=%s,cmd=" PERFECT " script.py", c->stderr_arg, engine);
    snprintf(b, sizeof b, "name=b,stderr=b.err,cmd=" PERFECT, engine);
    snprintf(journal, sizeof journal, "%s/j.jsonl", p.dir);
    const char *args[] = { "tournament", "--game", "nim", "--engine", a, "--engine", b,
                           "--journal", "j.jsonl", "--keep-files", "kept", NULL };
    struct e2e_run r;
    referee(&r, &p, args);
    char want[2 * PATH_MAX];
    snprintf(want, sizeof want, "referee: engine 'a': stderr=%s/%s is %s\n", p.dir,
             c->stderr_arg, c->what);
    cr_assert_eq(r.status, 2, "exit %d: %s", r.status, r.err);
    cr_assert_str_eq(r.err, want);
    cr_assert(!e2e_exists(journal), "a journal was written");
    e2e_run_free(&r);
    e2e_rmdir(p.dir);
}

/* A word over SPEC_WORD_MAX (2048) bytes is refused where the option is
 * read (its column named), with the limit, instead of being cut to PATH_MAX
 * bytes when a move is played. */
Test(e2e_sandbox, a_word_over_the_limit_is_refused)
{
    char *dir = e2e_tmpdir();
    char *spec = malloc(100 * 1024 + 64);
    cr_assert_not_null(spec);
    strcpy(spec, "name=a,cmd=echo ");
    size_t n = strlen(spec);
    memset(spec + n, 'x', 100 * 1024);
    spec[n + 100 * 1024] = '\0';
    const char *args[] = { "match", "--game", "nim", "--engine", spec, "--engine", "echo",
                           NULL };
    struct e2e_run r;
    e2e_runv(&r, dir, NULL, "referee", args);
    cr_assert_eq(r.status, 2, "exit %d: %s", r.status, r.err);
    cr_assert_not_null(strstr(r.err, "': column 17: a word of 102400 bytes: at most 2048\n"),
                       "%s", r.err);
    free(spec);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

/* dir=/ and a referee started in / play (the view's root is its own, not
 * the host's); and with dir=/tmp or --sandbox-ro /tmp an engine writing
 * /tmp writes its private /tmp, never the host's. */
ParameterizedTestParameters(e2e_sandbox, root_and_tmp_as_folders_keep_the_host_apart)
{
    static struct who cases[] = { { 0 }, { 1 } };
    return cr_make_param_array(struct who, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct who *who, e2e_sandbox, root_and_tmp_as_folders_keep_the_host_apart,
                  .timeout = 120)
{
    struct place p;
    place_open(&p, *who);
    char engine[PATH_MAX], hostile[PATH_MAX], a[SPEC_MAX], b[SPEC_MAX], escape[64];
    char outside[PATH_MAX];
    e2e_engine_bin_path("engine", engine, sizeof engine);
    e2e_repo_path("tests/engines/hostile.py", hostile, sizeof hostile);
    snprintf(escape, sizeof escape, "arena-escape-tmp-%ld", (long)getpid());
    snprintf(outside, sizeof outside, "/tmp/%s", escape);
    setenv("ARENA_ESCAPE", escape, 1);
    snprintf(b, sizeof b, "name=b,dir=/,cmd=" PERFECT, engine);
    static const char *const where[] = { "dir=/tmp,", "" };
    for (int i = 0; i < 2; i++) {
        snprintf(a, sizeof a, "name=a,%scmd=python3 %s write-tmp - " PLAYS, where[i], hostile,
                 engine);
        const char *args[] = { "tournament", "--game", "nim", "--random-plies", "2", "--engine",
                               a, "--engine", b, "--journal", "j.jsonl", "--concurrency", "2",
                               "--sandbox-env", "ARENA_ESCAPE", i ? "--sandbox-ro" : NULL,
                               "/tmp", NULL };
        char journal[PATH_MAX + 16];
        snprintf(journal, sizeof journal, "%s/j.jsonl", p.dir);
        unlink(journal);
        struct e2e_run r;
        referee(&r, &p, args);
        assert_sound_tournament(&p, &r, 2, where[i][0] ? "dir=/tmp" : "--sandbox-ro /tmp");
        cr_assert(!e2e_exists(outside), "%s: the engine wrote the host's %s", where[i],
                  outside);
        unlink(outside);
        e2e_run_free(&r);
    }
    /* The referee itself in /: the engines' dir= is /. */
    snprintf(a, sizeof a, "name=a,cmd=" PERFECT, engine);
    char journal[PATH_MAX + 16];
    snprintf(journal, sizeof journal, "%s/root.jsonl", p.dir);
    const char *args[] = { "tournament", "--game", "nim", "--engine", a, "--engine", b,
                           "--journal", journal, NULL };
    struct e2e_run r;
    struct place root = { "/", p.who };
    referee(&r, &root, args);
    cr_assert(r.status == 0 && strstr(r.out, "Standings after 2 games\n") &&
                  !strstr(r.out, "forfeits"), "in /: exit %d: %s%s", r.status, r.out, r.err);
    e2e_run_free(&r);
    e2e_rmdir(p.dir);
}

/* What an engine leaves in its move folder (a tree deeper than PATH_MAX,
 * a chmod 000 folder) is gone after the game, with the sandbox and without
 * (where it is on the host's disk). */
ParameterizedTestParameters(e2e_sandbox, leftovers_are_removed_with_and_without_the_sandbox)
{
    static struct who cases[] = { { 0 }, { 1 } };
    return cr_make_param_array(struct who, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct who *who, e2e_sandbox, leftovers_are_removed_with_and_without_the_sandbox,
                  .timeout = 120)
{
    struct place p;
    place_open(&p, *who);
    char engine[PATH_MAX], hostile[PATH_MAX], a[SPEC_MAX], b[SPEC_MAX], games[PATH_MAX + 8];
    e2e_engine_bin_path("engine", engine, sizeof engine);
    e2e_repo_path("tests/engines/hostile.py", hostile, sizeof hostile);
    snprintf(games, sizeof games, "%s/games", p.dir);
    place_folder(&p, games);
    setenv("TMPDIR", games, 1);
    snprintf(a, sizeof a, "name=a,cmd=python3 %s leftovers - " PLAYS, hostile, engine);
    snprintf(b, sizeof b, "name=b,cmd=" PERFECT, engine);
    static const char *const mode[] = { "namespaces", "none" };
    for (int i = 0; i < 2; i++) {
        const char *args[] = { "match", "--game", "nim", "--random-plies", "2", "--engine", a,
                               "--engine", b, "--games", "2", "--sandbox", mode[i], NULL };
        struct e2e_run r;
        referee(&r, &p, args);
        cr_assert(r.status == 0 && !strstr(r.out, "forfeits"), "--sandbox %s: exit %d: %s%s",
                  mode[i], r.status, r.out, r.err);
        /* Nothing but, for a user without a cgroup of its own, the word that
         * moves are billed per process (cgroup.h). */
        const char *err = r.err, *acct = "referee: accounting: process: ";
        if (strncmp(err, acct, strlen(acct)) == 0 && strchr(err, '\n'))
            err = strchr(err, '\n') + 1;
        cr_assert_str_eq(err, "", "--sandbox %s", mode[i]);
        assert_empty(games, mode[i]);
        e2e_run_free(&r);
    }
    e2e_rmdir(p.dir);
}
