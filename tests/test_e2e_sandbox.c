/*
 * test_e2e_sandbox.c - the referee's sandbox (sandbox.h) against engines
 * that attack their host (tests/engines/hostile.py, one attack each): kill
 * their parent, every ancestor, every process (kill(-1)); read another
 * engine's program and play it as a move; read and append to the journal;
 * reach 127.0.0.1 by TCP and UDP; fork without end; ptrace their parent;
 * write in /tmp, $HOME and the referee's folder; leave a setsid sleeper
 * behind. Each plays a tournament against a sound engine, as root and as an
 * unprivileged user (nobody, through setpriv; a test run by someone other
 * than root runs the second case as that user and skips the first), and
 * each must be harmless: the tournament finishes with every scheduled game
 * once and no forfeit, `referee verify` accepts the journal, no process is
 * left, and what the attack aimed at is unchanged.
 *
 * Also: engines in Python, sh, Java (compiled here, by the JRE's own javac
 * module) and C play normal games in the sandbox, the JVM under
 * --mem-limit-mb too; --sandbox-ro shows a path; the journal's header says
 * what ran; and where user namespaces are refused the referee stops before
 * the first game, naming the cause and --sandbox none.
 *
 * The engines find programs through PATH=/usr/bin:/bin: an interpreter
 * outside the system folders (a pyenv shim) is not in an engine's view.
 * The C engine is e2e_limited_bin_path's: it plays under --mem-limit-mb
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
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    socklen_t len = sizeof a;
    l->tcp = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    cr_assert(l->tcp >= 0 && bind(l->tcp, (struct sockaddr *)&a, sizeof a) == 0 &&
                  listen(l->tcp, 8) == 0 && getsockname(l->tcp, (struct sockaddr *)&a, &len) == 0,
              "tcp listener: %s", strerror(errno));
    l->udp = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    cr_assert(l->udp >= 0 && bind(l->udp, (struct sockaddr *)&a, sizeof a) == 0,
              "udp socket: %s", strerror(errno));
    snprintf(l->port, sizeof l->port, "%d", ntohs(a.sin_port));
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
    e2e_limited_bin_path("engine", engine, sizeof engine);
    e2e_repo_path("tests/engines/hostile.py", hostile, sizeof hostile);
    snprintf(journal, sizeof journal, "%s/j.jsonl", p.dir);

    /* The hostile engine's opponent: a perfect player, or what it needs. */
    char spec[SPEC_MAX], other[SPEC_MAX], victim[PATH_MAX], escape[64];
    char plays[PATH_MAX + 96], perfect[PATH_MAX + 64];
    snprintf(plays, sizeof plays, PLAYS, engine);
    snprintf(perfect, sizeof perfect, PERFECT, engine);
    snprintf(spec, sizeof spec, "name=%s,cmd=python3 %s %s %s %s", c->name, hostile, c->name,
             strcmp(c->name, "read-other") == 0 ? "{out}" : "-", plays);
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

    /* The referee's folder is readable by every engine: what hides the
     * journal and the victim is the mask, not their absence. */
    const char *args[] = { "tournament", "--game", "nim", "--random-plies", "2", "--engine", spec,
                           "--engine", other, "--concurrency", "2", "--journal", "j.jsonl",
                           "--sandbox-ro", p.dir, "--timeout-ms", HOSTILE_TIMEOUT_MS, NULL };
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
    e2e_limited_bin_path("engine", engine, sizeof engine);
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
    e2e_limited_bin_path("engine", engine, sizeof engine);
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
    e2e_limited_bin_path("engine", engine, sizeof engine);
    e2e_repo_path("tests/engines/hostile.py", hostile, sizeof hostile);
    place_file(&elsewhere, "weights.txt", "1 2 3\n", data, sizeof data);
    snprintf(spec, sizeof spec, "name=needy,cmd=python3 %s needs - " PLAYS, hostile, engine);
    setenv("ARENA_DATA", data, 1);
    snprintf(c_spec, sizeof c_spec, "name=c,cmd=" PERFECT, engine);
    const char *args[] = { "match", "--game", "nim", "--engine", spec, "--engine", c_spec,
                           "--games", "1", "--sandbox-ro", data, NULL };
    const int sandbox_ro_at = 9;
    struct e2e_run r;
    referee(&r, &p, args);
    cr_assert(r.status == 0 && strstr(r.out, "Finished game 1 (needy vs c): ") &&
                  !strstr(r.out, "forfeits"),
              "with --sandbox-ro: exit %d: %s%s", r.status, r.out, r.err);
    e2e_run_free(&r);
    args[sandbox_ro_at] = NULL;
    referee(&r, &p, args);
    /* Hidden, the file is missing, and the forfeit line says so. */
    cr_assert_eq(r.status, 3, "without: exit %d: %s", r.status, r.err);
    char want[4 * PATH_MAX];
    snprintf(want, sizeof want,
             "Finished game 1 (needy vs c): 0-1 {needy forfeits at ply 1: exit-status 1: cannot "
             "read %s: No such file or directory}\n"
             "  ply 1: --keep-files DIR keeps its position (DIR/game-1/ply-001-in.txt); its "
             "stderr: --log FILE keeps it (\"stderr_tail\"), or stderr=FILE\n"
             "Score of needy vs c: 0 - 1 - 0  [0.000] 1\n"
             "needy forfeited every game it played (1): exit-status 1\n",
             data);
    cr_assert_str_eq(r.out, want, "without --sandbox-ro: got\n%s", r.out);
    e2e_run_free(&r);
    e2e_rmdir(p.dir);
    e2e_rmdir(elsewhere.dir);
}

/* The header of the journal says the mode and what it isolates. */
Test(e2e_sandbox, journal_header_says_what_ran)
{
    static const char *const want[] = {
        "\"sandbox\":{\"mode\":\"namespaces\",\"isolates\":[\"user\",\"pid\",\"mount\","
        "\"network\",\"ipc\",\"uts\",\"no_new_privs\",\"no_capabilities\"],\"read_only\":[]}",
        "\"sandbox\":{\"mode\":\"none\",\"isolates\":[]}",
    };
    static const char *const mode[] = { "namespaces", "none" };
    struct place p;
    place_open(&p, (struct who){ geteuid() != 0 });
    char engine[PATH_MAX], a[SPEC_MAX], b[SPEC_MAX], journal[PATH_MAX + 16];
    e2e_limited_bin_path("engine", engine, sizeof engine);
    snprintf(a, sizeof a, "name=a,cmd=" PERFECT, engine);
    snprintf(b, sizeof b, "name=b,cmd=" PERFECT, engine);
    snprintf(journal, sizeof journal, "%s/j.jsonl", p.dir);
    for (int i = 0; i < 2; i++) {
        const char *args[] = { "tournament", "--game", "nim", "--engine", a, "--engine", b,
                               "--journal", "j.jsonl", "--sandbox", mode[i], NULL };
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
    e2e_limited_bin_path("engine", engine, sizeof engine);
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
