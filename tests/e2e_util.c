/* e2e_util.c - spawning binaries for the end-to-end suite (e2e_util.h). */
#define _GNU_SOURCE
#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <criterion/hooks.h>
#include <dirent.h>
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <regex.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netinet/in.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "arena/limits.h"
#include "arena/textfile.h"
#include "e2e_util.h"

#define E2E_MAX_ARGS 32
#define SIGNAL_STATUS_BASE 128
#define E2E_REL_MAX 256           /* a fixture's name under fixtures/ */
#define E2E_SCORE_LINE_MAX 256    /* "Score of A vs B: " for two engine names */

static void own_tree(void);

static char *absolute(const char *rel)
{
    char *p = realpath(rel, NULL);
    cr_assert_not_null(p, "no such path: %s (run the tests from the repository root)", rel);
    return p;
}

void e2e_run(struct e2e_run *r, const char *cwd, const char *stdin_text, const char *prog, ...)
{
    const char *args[E2E_MAX_ARGS + 1];
    int n = 0;
    va_list ap;
    va_start(ap, prog);
    const char *a;
    while ((a = va_arg(ap, const char *)) && n < E2E_MAX_ARGS)
        args[n++] = a;
    va_end(ap);
    args[n] = NULL;
    e2e_runv(r, cwd, stdin_text, prog, args);
}

void e2e_assert_clean_match(const char *a, const char *b, const char *name_a,
                            const char *name_b)
{
    char score[E2E_SCORE_LINE_MAX];
    snprintf(score, sizeof score, "Score of %s vs %s: ", name_a, name_b);
    char *dir = e2e_tmpdir();
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "referee", "match", "--game", "connect4", "--engine", a, "--engine", b,
            "--games", "2", "--depth", "2", "--random-plies", "2", NULL);
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    cr_assert_null(strstr(r.out, "forfeits"), "stdout:\n%s", r.out);
    cr_assert_not_null(strstr(r.out, score), "no '%s' on stdout:\n%s", score, r.out);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

void e2e_assert_transcript(const char *prog, const char *rel, const char *const *args)
{
    char path[E2E_REL_MAX];
    snprintf(path, sizeof path, "%s.in", rel);
    char *in_path = e2e_fixture(path);
    char *input = e2e_slurp(in_path, NULL);
    char *dir = e2e_tmpdir();
    struct e2e_run r;
    e2e_runv(&r, dir, input, prog, args);
    cr_assert_eq(r.status, 0, "%s: exit %d: %s", rel, r.status, r.err);
    cr_assert_eq(r.err_len, 0, "%s: stderr: %s", rel, r.err);
    snprintf(path, sizeof path, "%s.out", rel);
    e2e_assert_fixture(r.out, r.out_len, path);
    e2e_run_free(&r);
    free(input);
    free(in_path);
    e2e_rmdir(dir);
}

char *e2e_fixture(const char *rel)
{
    const char *root = getenv("ARENA_FIXTURES") ? getenv("ARENA_FIXTURES") : "fixtures";
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    return absolute(path);
}

char *e2e_slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    size_t got;
    while ((got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (cap - n < 2)
            buf = realloc(buf, cap *= 2);
    }
    fclose(f);
    buf[n] = '\0';
    if (len)
        *len = n;
    return buf;
}

int e2e_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

char *e2e_tmpdir(void)
{
    char tmpl[] = "/tmp/arena-e2e-XXXXXX";
    own_tree();
    cr_assert_not_null(mkdtemp(tmpl), "mkdtemp failed");
    return strdup(tmpl);
}

void e2e_rmdir(char *dir)
{
    /* A hostile engine may have left folders, FIFOs and symlinks to files
     * outside: tf_remove_tree follows no link. */
    tf_remove_tree(dir);
    free(dir);
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f, "cannot write %s", path);
    fputs(text ? text : "", f);
    fclose(f);
}

/* Runs argv[0] (a path, or a name looked up in PATH) with argv in cwd, stdin
 * from stdin_text, into r; with vg_path, the run went through valgrind,
 * whose report there fails the test. */
static void spawn(struct e2e_run *r, const char *cwd, const char *stdin_text,
                  const char *const *argv, const char *io, const char *vg_path)
{
    char in_path[PATH_MAX], out_path[PATH_MAX], err_path[PATH_MAX];
    snprintf(in_path, sizeof in_path, "%s/stdin", io);
    snprintf(out_path, sizeof out_path, "%s/stdout", io);
    snprintf(err_path, sizeof err_path, "%s/stderr", io);
    write_file(in_path, stdin_text);
    own_tree();

    fflush(NULL);
    pid_t pid = fork();
    cr_assert_neq(pid, -1, "fork failed");
    if (pid == 0) {
        int in = open(in_path, O_RDONLY);
        int out = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        int err = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (in < 0 || out < 0 || err < 0 || chdir(cwd) != 0)
            _exit(127);
        dup2(in, 0);
        dup2(out, 1);
        dup2(err, 2);
        execvp(argv[0], (char *const *)argv);
        _exit(127);
    }
    int st;
    waitpid(pid, &st, 0);
    r->status = WIFEXITED(st) ? WEXITSTATUS(st) : SIGNAL_STATUS_BASE + WTERMSIG(st);
    r->out = e2e_slurp(out_path, &r->out_len);
    r->err = e2e_slurp(err_path, &r->err_len);
    if (vg_path) {
        size_t vlen = 0;
        char *report = e2e_slurp(vg_path, &vlen);
        cr_assert(vlen == 0 && r->status != 99, "valgrind findings in %s:\n%s", argv[0],
                  report ? report : "(no report)");
        free(report);
        unlink(vg_path);
    }
    unlink(in_path);
    unlink(out_path);
    unlink(err_path);
}

void e2e_runv(struct e2e_run *r, const char *cwd, const char *stdin_text, const char *prog,
              const char *const *args)
{
    e2e_runv_via(r, cwd, stdin_text, NULL, prog, args);
}

/* The command line of a run of prog (a binary of ARENA_BIN) with args,
 * through prefix (NULL: none), under valgrind when ARENA_VALGRIND=1 with its
 * report written to io/valgrind. */
struct cmdline {
    const char *argv[2 * E2E_MAX_ARGS + 8];
    int valgrind;
    char *bin, *supp;
    char vg_path[PATH_MAX], vg_log[PATH_MAX + 16], vg_supp[PATH_MAX + 16];
};

static void cmdline_make(struct cmdline *c, const char *io, const char *const *prefix,
                         const char *prog, const char *const *args)
{
    const char *bin_dir = getenv("ARENA_BIN") ? getenv("ARENA_BIN") : "bin";
    char bin_rel[PATH_MAX];
    snprintf(bin_rel, sizeof bin_rel, "%s/%s", bin_dir, prog);
    c->bin = absolute(bin_rel);
    c->valgrind = getenv("ARENA_VALGRIND") && strcmp(getenv("ARENA_VALGRIND"), "1") == 0;
    snprintf(c->vg_path, sizeof c->vg_path, "%s/valgrind", io);
    snprintf(c->vg_log, sizeof c->vg_log, "--log-file=%s", c->vg_path);
    int argc = 0;
    for (int i = 0; prefix && prefix[i] && argc < E2E_MAX_ARGS; i++)
        c->argv[argc++] = prefix[i];
    c->supp = c->valgrind ? absolute("tests/valgrind.supp") : NULL;
    if (c->valgrind) {
        snprintf(c->vg_supp, sizeof c->vg_supp, "--suppressions=%s", c->supp);
        c->argv[argc++] = "valgrind";
        c->argv[argc++] = c->vg_supp;
        c->argv[argc++] = "-q";
        /* Reading the inlined frames' debug information is a sixth of
         * valgrind's start-up, paid a thousand times a run; a finding
         * still names the function its code was inlined into. */
        c->argv[argc++] = "--read-inline-info=no";
        /* valgrind runs one thread at a time; its default hand-over lets
         * a thread that computes (a search) take the turn back for
         * seconds, so a server's other threads (a page's /api/alive)
         * would wait behind it. Fair: in the order they asked. */
        c->argv[argc++] = "--fair-sched=yes";
        c->argv[argc++] = "--leak-check=full";
        c->argv[argc++] = "--show-leak-kinds=all";
        c->argv[argc++] = "--errors-for-leak-kinds=all";
        c->argv[argc++] = "--error-exitcode=99";
        c->argv[argc++] = c->vg_log;
    }
    c->argv[argc++] = c->bin;
    for (int i = 0; args[i] && argc < 2 * E2E_MAX_ARGS + 7; i++)
        c->argv[argc++] = args[i];
    c->argv[argc] = NULL;
}

static void cmdline_free(struct cmdline *c)
{
    free(c->supp);
    free(c->bin);
}

void e2e_runv_via(struct e2e_run *r, const char *cwd, const char *stdin_text,
                  const char *const *prefix, const char *prog, const char *const *args)
{
    char *io = e2e_tmpdir();
    /* A prefix may run it as another user, who writes valgrind's log here. */
    if (prefix)
        chmod(io, 0777);
    struct cmdline c;
    cmdline_make(&c, io, prefix, prog, args);
    spawn(r, cwd, stdin_text, c.argv, io, c.valgrind ? c.vg_path : NULL);
    e2e_rmdir(io);
    cmdline_free(&c);
}

void e2e_start(struct e2e_proc *p, const char *cwd, const char *prog, const char *const *args)
{
    memset(p, 0, sizeof *p);
    p->io = e2e_tmpdir();
    struct cmdline c;
    cmdline_make(&c, p->io, NULL, prog, args);
    p->valgrind = c.valgrind;
    char err_path[PATH_MAX];
    snprintf(err_path, sizeof err_path, "%s/stderr", p->io);
    int out[2];
    cr_assert_eq(pipe(out), 0, "pipe: %s", strerror(errno));
    fflush(NULL);
    pid_t pid = fork();
    cr_assert_neq(pid, -1, "fork: %s", strerror(errno));
    if (pid == 0) {
        /* A test that fails before e2e_stop leaves no server behind. */
        prctl(PR_SET_PDEATHSIG, SIGTERM);
        int err = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        int null = open("/dev/null", O_RDONLY);
        if (err < 0 || null < 0 || chdir(cwd) != 0)
            _exit(127);
        dup2(null, STDIN_FILENO);
        dup2(out[1], STDOUT_FILENO);
        dup2(err, STDERR_FILENO);
        close(out[0]);
        execvp(c.argv[0], (char *const *)c.argv);
        _exit(127);
    }
    close(out[1]);
    p->pid = pid;
    p->out = fdopen(out[0], "r");
    cmdline_free(&c);
    cr_assert_not_null(p->out);
}

void e2e_stop(struct e2e_proc *p, int sig, struct e2e_run *r)
{
    kill((pid_t)p->pid, sig);
    size_t cap = 4096;
    r->out = malloc(cap);
    r->out_len = 0;
    size_t got;
    while ((got = fread(r->out + r->out_len, 1, cap - r->out_len - 1, p->out)) > 0)
        if (cap - (r->out_len += got) < 2)
            r->out = realloc(r->out, cap *= 2);
    r->out[r->out_len] = '\0';
    fclose(p->out);
    int st;
    waitpid((pid_t)p->pid, &st, 0);
    r->status = WIFEXITED(st) ? WEXITSTATUS(st) : SIGNAL_STATUS_BASE + WTERMSIG(st);
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/stderr", p->io);
    r->err = e2e_slurp(path, &r->err_len);
    if (p->valgrind) {
        snprintf(path, sizeof path, "%s/valgrind", p->io);
        size_t vlen = 0;
        char *report = e2e_slurp(path, &vlen);
        cr_assert(vlen == 0 && r->status != 99, "valgrind findings:\n%s",
                  report ? report : "(no report)");
        free(report);
    }
    e2e_rmdir(p->io);
    memset(p, 0, sizeof *p);
}

void e2e_run_tool(struct e2e_run *r, const char *cwd, const char *stdin_text, const char *tool,
                  ...)
{
    const char *argv[E2E_MAX_ARGS + 2] = { tool };
    int n = 1;
    va_list ap;
    va_start(ap, tool);
    const char *a;
    while ((a = va_arg(ap, const char *)) && n < E2E_MAX_ARGS + 1)
        argv[n++] = a;
    va_end(ap);
    argv[n] = NULL;
    char *io = e2e_tmpdir();
    spawn(r, cwd, stdin_text, argv, io, NULL);
    e2e_rmdir(io);
}

void e2e_run_free(struct e2e_run *r)
{
    free(r->out);
    free(r->err);
}

void e2e_assert_fixture(const char *actual, size_t len, const char *rel)
{
    char *path = e2e_fixture(rel);
    size_t elen;
    char *expected = e2e_slurp(path, &elen);
    cr_assert_not_null(expected, "missing fixture %s", rel);
    size_t i = 0;
    while (i < len && i < elen && actual[i] == expected[i])
        i++;
    cr_assert(i == len && i == elen,
              "output differs from %s at byte %zu (lengths %zu and %zu)\n--- got:\n%s\n--- "
              "expected:\n%s",
              rel, i, len, elen, actual, expected);
    free(expected);
    free(path);
}

void e2e_repo_path(const char *rel, char *buf, size_t cap)
{
    char *abs = realpath(rel, NULL);
    cr_assert_not_null(abs, "no %s", rel);
    snprintf(buf, cap, "%s", abs);
    free(abs);
}

static void bin_path_in(const char *env, const char *prog, char *buf, size_t cap)
{
    char rel[PATH_MAX];
    snprintf(rel, sizeof rel, "%s/%s", getenv(env) ? getenv(env) : "bin", prog);
    e2e_repo_path(rel, buf, cap);
}

void e2e_bin_path(const char *prog, char *buf, size_t cap)
{
    bin_path_in("ARENA_BIN", prog, buf, cap);
}

void e2e_engine_bin_path(const char *prog, char *buf, size_t cap)
{
    bin_path_in(getenv("ARENA_ENGINE_BIN") ? "ARENA_ENGINE_BIN" : "ARENA_BIN", prog, buf, cap);
}

/* ---- a checkout anywhere ------------------------------------------------
 * Run as root, the suite plays engines as nobody (the sandbox's engine
 * user) and runs the referee itself as nobody (setpriv). A checkout in a
 * folder only its owner may enter (root's home, mode 0700) is out of their
 * reach: then, before the first case, the runner copies what the cases
 * read (the tree without .git and objects) into a folder of /tmp open to
 * all and runs every case there; after the last, the copy goes. */
static char public_copy[PATH_MAX];

/* 1 when nobody can run ARENA_BIN's referee and read fixtures/ here. */
static int nobody_reaches_checkout(void)
{
    char rel[PATH_MAX], bin[PATH_MAX], fixtures[PATH_MAX];
    snprintf(rel, sizeof rel, "%s/referee", getenv("ARENA_BIN") ? getenv("ARENA_BIN") : "bin");
    if (!realpath(rel, bin) || !realpath("fixtures", fixtures))
        return 1;   /* nothing to copy: the cases say what is missing */
    pid_t pid = fork();
    if (pid == 0) {
        const long id = SBX_ROOT_ENGINE_UID;
        int dropped = syscall(SYS_setgroups, 0L, NULL) == 0 &&
                      syscall(SYS_setresgid, id, id, id) == 0 &&
                      syscall(SYS_setresuid, id, id, id) == 0;
        _exit(dropped && access(bin, X_OK) == 0 && access(fixtures, R_OK | X_OK) == 0 ? 0 : 1);
    }
    int st;
    return pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

ReportHook(PRE_ALL)(struct criterion_test_set *set)
{
    (void)set;
    if (geteuid() != 0 || nobody_reaches_checkout())
        return;
    char dir[] = "/tmp/arena-e2e-copy-XXXXXX", cmd[3 * PATH_MAX];
    if (!mkdtemp(dir) || chmod(dir, 0755) != 0)
        return;
    snprintf(cmd, sizeof cmd,
             "tar -C . --exclude=./.git --exclude='*.o' --exclude='*.d' -cf - . | tar -C '%s' "
             "-xf - && chmod -R go+rX '%s'", dir, dir);
    if (system(cmd) != 0 || chdir(dir) != 0) {
        fprintf(stderr, "e2e: cannot copy the checkout to %s for nobody\n", dir);
        tf_remove_tree(dir);
        return;
    }
    snprintf(public_copy, sizeof public_copy, "%s", dir);
    fprintf(stderr, "e2e: nobody cannot reach this checkout; the cases run in a copy, %s\n", dir);
}

ReportHook(POST_ALL)(struct criterion_global_stats *stats)
{
    (void)stats;
    if (public_copy[0])
        tf_remove_tree(public_copy);
}

/* Every process of this test is its descendant: the test's process makes
 * itself a child subreaper before it starts any (every case makes its
 * folder with e2e_tmpdir or runs through spawn first, system() included),
 * so what a killed referee or a setsid escapee leaves is reparented here,
 * never to init. Not in Criterion's runner, whose own double-forked
 * workers must go to init. */
static void own_tree(void)
{
    prctl(PR_SET_CHILD_SUBREAPER, 1);
}

/* pid's parent and state from /proc/pid/stat; 0, or -1 when it is gone. */
static int proc_parent(long pid, long *ppid, char *state)
{
    char path[64], buf[512];
    snprintf(path, sizeof path, "/proc/%ld/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    char *close_paren = strrchr(buf, ')');   /* the name may hold spaces and parentheses */
    return close_paren && sscanf(close_paren + 1, " %c %ld", state, ppid) == 2 ? 0 : -1;
}

/* 1 when pid descends from this process (and is not a zombie). */
static int is_descendant(long pid)
{
    long self = getpid(), ppid;
    char state;
    if (proc_parent(pid, &ppid, &state) != 0 || state == 'Z')
        return 0;
    for (int depth = 0; depth < 64 && ppid > 1; depth++) {
        if (ppid == self)
            return 1;
        if (proc_parent(ppid, &ppid, &state) != 0)
            return 0;
    }
    return 0;
}

/* pid's command line, its arguments joined by spaces as pgrep -f reads it. */
static int proc_cmdline(long pid, char *buf, size_t cap)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%ld/cmdline", pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    size_t n = fread(buf, 1, cap - 1, f);
    fclose(f);
    while (n > 0 && buf[n - 1] == '\0')
        n--;
    for (size_t i = 0; i < n; i++)
        if (buf[i] == '\0')
            buf[i] = ' ';
    buf[n] = '\0';
    return 0;
}

/* The processes of this test's own tree whose command line matches
 * pattern: the first's pid when kill_them is 0, else how many were killed
 * (SIGKILL, each by its pid). */
static long own_processes(const char *pattern, int kill_them)
{
    regex_t re;
    cr_assert_eq(regcomp(&re, pattern, REG_EXTENDED | REG_NOSUB), 0, "bad pattern %s", pattern);
    DIR *d = opendir("/proc");
    cr_assert_not_null(d, "cannot read /proc");
    long found = 0;
    char cmd[4096];
    for (struct dirent *de; (kill_them || !found) && (de = readdir(d));) {
        char *end;
        long pid = strtol(de->d_name, &end, 10);
        if (*end || pid <= 0 || pid == getpid() || !is_descendant(pid) ||
            proc_cmdline(pid, cmd, sizeof cmd) != 0 || regexec(&re, cmd, 0, NULL, 0) != 0)
            continue;
        if (!kill_them)
            found = pid;
        else if (kill((pid_t)pid, SIGKILL) == 0)
            found++;
    }
    closedir(d);
    regfree(&re);
    return found;
}

int e2e_process_alive(const char *pattern)
{
    return own_processes(pattern, 0) != 0;
}

int e2e_process_kill(const char *pattern)
{
    return (int)own_processes(pattern, 1);
}

cJSON *e2e_read_json(const char *dir, const char *name)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    char *text = e2e_slurp(path, NULL);
    cr_assert_not_null(text, "no %s", path);
    cJSON *root = cJSON_Parse(text);
    free(text);
    cr_assert_not_null(root, "%s is not JSON", path);
    return root;
}

void e2e_put_at(const char *dir, const char *rel, const char *text)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", dir, rel);
    for (char *s = strchr(path + strlen(dir) + 1, '/'); s; s = strchr(s + 1, '/')) {
        *s = '\0';
        mkdir(path, 0755);
        *s = '/';
    }
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f, "%s: %s", path, strerror(errno));
    fputs(text, f);
    cr_assert_eq(fclose(f), 0, "%s: %s", path, strerror(errno));
}

char *e2e_slurp_at(const char *dir, const char *rel)
{
    char path[PATH_MAX + 128];
    snprintf(path, sizeof path, "%s/%s", dir, rel);
    char *text = e2e_slurp(path, NULL);
    cr_assert_not_null(text, "%s is missing", path);
    return text;
}

void e2e_copy_repo(const char *rel, const char *dir, const char *name)
{
    char src[PATH_MAX], dst[PATH_MAX + 64];
    e2e_repo_path(rel, src, sizeof src);
    snprintf(dst, sizeof dst, "%s/%s", dir, name);
    struct e2e_run r;
    e2e_run_tool(&r, dir, NULL, "cp", "-rL", src, dst, NULL);
    cr_assert_eq(r.status, 0, "cp %s: %s", rel, r.err);
    e2e_run_free(&r);
}

int e2e_listen_local(int type, int *port)
{
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)*port),
                             .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    socklen_t len = sizeof a;
    int fd = socket(AF_INET, type | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    cr_assert(fd >= 0 && bind(fd, (struct sockaddr *)&a, sizeof a) == 0 &&
                  (type != SOCK_STREAM || listen(fd, 8) == 0) &&
                  getsockname(fd, (struct sockaddr *)&a, &len) == 0,
              "a socket on 127.0.0.1 port %d: %s", *port, strerror(errno));
    *port = ntohs(a.sin_port);
    return fd;
}
