/*
 * judge.c - a game whose rules a judge program supplies (judge.h): the
 * judge's process and its JSON-lines exchange, the answers' checks, and the
 * `struct game` whose operations ask it (docs/judges.md).
 */
#define _GNU_SOURCE
#include <assert.h>
#include <cjson/cJSON.h>
#include <stddef.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "referee/journal/header.h"
#include "judge.h"
#include "arena/cgroup.h"
#include "arena/escape.h"
#include "arena/limits.h"
#include "arena/registry.h"
#include "arena/rules.h"
#include "arena/runner.h"
#include "arena/sandbox.h"
#include "arena/sha256.h"
#include "arena/spec.h"
#include "referee/run/gamedir.h"
#include "referee/run/launcher.h"

/* A position: the judge whose game it is, then its canonical board text,
 * NUL padded (judge.h). States are byte arrays without alignment: the
 * pointer is read and written with memcpy. */
struct judge_pos {
    struct judge *judge;
    char board[JUDGE_BOARD_MAX];
};
_Static_assert(sizeof(struct judge_pos) <= GAME_MAX_STATE, "a position fits a state");
_Static_assert(sizeof(struct judge_pos) == sizeof(struct judge *) + JUDGE_BOARD_MAX,
               "no padding: equal positions are equal bytes");

#define JUDGE_CACHE 4     /* positions whose moves are kept: a position, its
                             children and the answer being judged */
#define JUDGE_CMD_MAX 512 /* bytes of the command named in messages */

/* What the judge said of a position short of its moves: all a referee
 * needs to know before an engine thinks on it (whose turn, whether the game
 * is over, and how it ended). */
struct judge_sum {
    int known;                         /* 0: not said */
    int to_move;                       /* 1 or 2 */
    int over, winner, margin;          /* winner 0: a draw */
};

/* One move of an answer: its text and its board (offsets into the node's
 * pool), and what the answer said of that board (docs/judges.md: optional;
 * it saves the question before the board's engine starts). */
struct judge_move {
    unsigned short text, board;
    struct judge_sum sum;
};

/* Every move's text and board, NUL-terminated, fit a node's pool. */
#define JUDGE_POOL (GAME_MAX_MOVES * (GAME_MOVE_TEXT_MAX + JUDGE_BOARD_MAX))
_Static_assert(JUDGE_POOL - 1 <= USHRT_MAX, "pool offsets fit a move's");

/* The judge's answer about one position. Its moves' strings are packed in
 * the pool, so that an answer writes only the bytes it uses: after every
 * fork of an engine, the first write to each page of the referee's memory
 * costs a page fault (copy-on-write), tens of microseconds on a VM. */
struct judge_node {
    char board[JUDGE_BOARD_MAX];
    int valid;
    struct judge_sum sum;
    int n;
    size_t used;                       /* bytes of pool in use */
    struct judge_move move[GAME_MAX_MOVES];
    char pool[JUDGE_POOL];
};

static const char *text_of(const struct judge_node *node, int i)
{
    return node->pool + node->move[i].text;
}

static const char *child_of(const struct judge_node *node, int i)
{
    return node->pool + node->move[i].board;
}

/* s into node's pool; returns its offset. */
static unsigned short pool_add(struct judge_node *node, const char *s)
{
    size_t n = strlen(s) + 1;
    assert(node->used + n <= JUDGE_POOL);
    memcpy(node->pool + node->used, s, n);
    node->used += n;
    return (unsigned short)(node->used - n);
}

struct judge {
    struct game game;                  /* first: judge_game's answer */
    char name[REC_NAME_MAX];
    char title[REC_NAME_MAX + 16];
    char cmd[JUDGE_CMD_MAX];           /* as given, for messages */
    char **argv;                       /* resolved words, NULL-terminated */
    int argc;
    char sha256[SHA256_HEX];           /* of its program file ("" none) */
    struct spec_file *files;           /* every file its command runs or names,
                                          the interpreter first (its whole
                                          program: judge_header) */
    int nfiles;
    char start[JUDGE_BOARD_MAX];
    struct game_drawing drawing;       /* hello's "drawing" (has_drawing) */
    int has_drawing;
    char style[JUDGE_STYLE_MAX], labels[JUDGE_LABELS_MAX];
    struct judge_pos start_pos;        /* the game's start (struct game's start) */
    int boxed;                         /* 1: in a sandbox of its own */
    struct sbx_policy policy;          /* its sandbox's read-only paths and
                                          environment names, copied at the
                                          start (the engines' masks, added
                                          later, are not its) */
    struct sbx_paths own;              /* its own folders (sbx_own_paths) */
    struct sbx_view view;              /* what its sandbox shows it */
    struct sbx *box;                   /* its sandbox while it runs; NULL: none */
    const struct cg_root *acct;        /* where its sandbox's cgroup goes
                                          (judge_cmd's cg); NULL: none */
    struct cg_move cg;                 /* its cgroup while it runs (cg.root
                                          NULL: none), the owner's */
    int cg_procs[LAUNCH_CG_FILES];     /* its membership files, open only
                                          while it starts */
    struct gamedir home;               /* the view's writable folder, where it
                                          runs (a tmpfs of its own over it) */
    struct err unreachable;            /* why a root referee's judge, run as
                                          SBX_ROOT_ENGINE_UID, cannot use its
                                          files (spec_check_reach); "": it can */
    pid_t pid, owner;                  /* the judge, and the process it answers
                                          (whose sandbox box is) */
    int to, from;                      /* its stdin, its stdout */
    char *line;                        /* JUDGE_LINE_MAX bytes: an answer */
    size_t have;                       /* bytes read past the last answer */
    struct judge_node cache[JUDGE_CACHE];
    int next;                          /* the cache entry to replace next */
    char pending[JUDGE_BOARD_MAX];     /* the board of the "moves" question sent
                                          ahead and not yet read (jg_prefetch);
                                          "" none */
    struct err failure;                /* "judge 'CMD': WHAT"; msg "" while it answers */
    struct judge_node over;            /* every position's answer once it failed */
};

/* ---- the process ----------------------------------------------------------- */

/* Ends the judge's cgroup when this process made it: kills whatever is
 * left in it (a process that escaped its sandbox's PID namespace would be
 * one) and removes it. A worker's copy is forgotten, the cgroup left to
 * its parent. */
static void end_cgroup(struct judge *j, int mine)
{
    struct err why;
    if (!mine || !j->cg.root) {
        cg_move_none(&j->cg, j->cg_procs, LAUNCH_CG_FILES);
        return;
    }
    if (!j->cg.ended && cg_move_end(&j->cg, &why) != 0)
        fprintf(stderr, "referee: warning: judge '%s': %s\n", j->cmd, why.msg);
    if (cg_move_close(&j->cg) != 0)
        fprintf(stderr, "referee: warning: judge '%s': %s\n", j->cmd, j->cg.leftover);
    cg_move_none(&j->cg, j->cg_procs, LAUNCH_CG_FILES);
}

/* Ends the judge's process, and its sandbox with every process in it (a
 * setsid grandchild too) and its cgroup, when this process started them. A
 * worker's copy of its parent's judge is only let go: the process, the
 * sandbox, its cgroup and its folder stay the parent's (sbx_close frees a
 * copy only). */
static void stop_process(struct judge *j)
{
    if (j->to >= 0)
        close(j->to);
    if (j->from >= 0)
        close(j->from);
    j->to = j->from = -1;
    int mine = j->owner == getpid();
    if (j->box) {
        sbx_close(j->box);
        j->box = NULL;
    } else if (j->pid > 0 && mine) {
        kill(j->pid, SIGKILL);
        while (waitpid(j->pid, NULL, 0) < 0 && errno == EINTR)
            ;
    }
    j->pid = 0;
    end_cgroup(j, mine);
    struct err ignored;
    if (j->home.fd >= 0 && mine && gamedir_close(&j->home, &ignored) != 0)
        fprintf(stderr, "referee: warning: judge '%s': %s\n", j->cmd, ignored.msg);
    else if (j->home.fd >= 0)
        close(j->home.fd);
    j->home.fd = -1;
}

/* The judge failed, which no engine is charged with: its process is
 * stopped, the first failure kept for judge_error, and from now on every
 * position is a finished game (so that whatever asked winds up at once and
 * its caller, seeing judge_error, stops the run). Returns -1. */
__attribute__((format(printf, 2, 3)))
static int judge_fail(struct judge *j, const char *fmt, ...)
{
    if (j->failure.msg[0])
        return -1;
    char msg[ERR_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    stop_process(j);
    err_set(&j->failure, 0, 0, "judge '%s': %s", j->cmd, msg);
    memset(&j->over, 0, sizeof j->over);
    j->over.valid = 1;
    j->over.sum = (struct judge_sum){ .known = 1, .to_move = 1, .over = 1 };
    return -1;
}

/* What the judge's sandbox's messages call it. */
static const struct sbx_words judge_words = {
    "the judge's sandbox", "the judge",
    "run with --judge-sandbox none to run a judge you trust without one",
};

/* Starts the judge in a sandbox of its own, built as an engine's
 * (sandbox.h): the system and its own folders read-only, a folder of its
 * own to run and write in, no network, its processes in the sandbox's PID
 * namespace and, with a cgroup root, in a cgroup of their own
 * (JUDGE_MEM_MB, the root's pids.max); in[0] its stdin, out[1] its stdout,
 * the referee's stderr its stderr. 0, or -1 with e, "judge 'CMD': ..."
 * (judge_fail: it failed). */
static int spawn_boxed(struct judge *j, const int in[2], const int out[2], struct err *e)
{
    struct err why = j->unreachable;
    j->owner = getpid();   /* its sandbox and folder are this process's */
    if (why.msg[0] || gamedir_open(&j->home, &why) != 0)
        goto fail;
    j->view = (struct sbx_view){ .rw = j->home.path, .own = &j->own, .policy = &j->policy };
    if (sbx_open_as(&j->box, &j->view, 1, &judge_words, &why) != 0)
        goto fail;
    uid_t uid = geteuid() == 0 ? SBX_ROOT_ENGINE_UID : geteuid();
    /* In a cgroup, its pids.max holds its processes, as an engine's
     * (preflight_accounting); else RLIMIT_NPROC. */
    const struct run_limits limits = {
        .timeout_ms = JUDGE_TIMEOUT_MS,
        .proc_limit = j->acct ? 0 : run_proc_limit(uid, JUDGE_PROC_EXTRA),
    };
    const int std[3] = { out[1], STDERR_FILENO, in[0] };
    cg_move_none(&j->cg, j->cg_procs, LAUNCH_CG_FILES);
    if (j->acct && cg_move_open(j->acct, JUDGE_MEM_MB, &j->cg, j->cg_procs, LAUNCH_CG_FILES,
                                &why) != 0)
        goto fail;
    int exec_errno;
    int rc = sbx_spawn(j->box, 0, j->argv, j->home.path, &limits, std, j->cg_procs, &j->pid,
                       &exec_errno, &why);
    /* The judge entered its cgroup before exec: its membership files are
     * done with (forked workers would hold copies). */
    for (int i = 0; i < LAUNCH_CG_FILES; i++)
        if (j->cg_procs[i] >= 0) {
            close(j->cg_procs[i]);
            j->cg_procs[i] = -1;
        }
    if (rc != 0 || exec_errno)
        goto fail;
    return 0;
fail:
    judge_fail(j, "%s", why.msg);
    *e = j->failure;
    return -1;
}

static int spawn(struct judge *j, struct err *e)
{
    int in[2], out[2];
    if (pipe2(in, O_CLOEXEC) != 0)
        return err_set(e, 0, 0, "judge '%s': pipe: %s", j->cmd, strerror(errno));
    if (pipe2(out, O_CLOEXEC) != 0) {
        close(in[0]);
        close(in[1]);
        return err_set(e, 0, 0, "judge '%s': pipe: %s", j->cmd, strerror(errno));
    }
    if (j->boxed) {
        int rc = spawn_boxed(j, in, out, e);
        close(in[0]);
        close(out[1]);
        j->to = rc ? -1 : in[1];
        j->from = rc ? -1 : out[0];
        if (rc) {
            close(in[1]);
            close(out[0]);
        }
        j->have = 0;
        signal(SIGPIPE, SIG_IGN);
        return rc;
    }
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        close(in[0]), close(in[1]), close(out[0]), close(out[1]);
        return err_set(e, 0, 0, "judge '%s': fork: %s", j->cmd, strerror(errno));
    }
    if (pid == 0) {
        /* Never outlive the referee process that asks it. */
        prctl(PR_SET_PDEATHSIG, (long)SIGKILL, 0L, 0L, 0L);
        if (getppid() != parent)
            _exit(127);
        dup2(in[0], STDIN_FILENO);
        dup2(out[1], STDOUT_FILENO);
        execvp(j->argv[0], j->argv);
        fprintf(stderr, "referee: judge '%s': %s: %s\n", j->cmd, j->argv[0], strerror(errno));
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    j->pid = pid;
    j->owner = parent;
    j->to = in[1];
    j->from = out[0];
    j->have = 0;
    /* A judge that dies makes a write fail, not the referee. */
    signal(SIGPIPE, SIG_IGN);
    return 0;
}

/* Whether the judge's cgroup's memory limit killed one of its processes,
 * once its output closed: the cgroup is ended (whatever is left in it
 * killed, its usage read), as the judge is failing. */
static int killed_for_memory(struct judge *j)
{
    struct err ignored;
    struct cg_usage u;
    if (!j->cg.root || j->owner != getpid())
        return 0;
    if (!j->cg.ended && cg_move_end(&j->cg, &ignored) != 0)
        return 0;
    return cg_move_usage(&j->cg, &u) == 0 && u.oom_kills > 0;
}

/* How the judge ended, once its output closed: it is given up to
 * JUDGE_EXIT_WAIT_MS to be reaped, for its status; its memory limit, when
 * that killed it (or a process of it: the judge then ended anyhow). */
#define JUDGE_EXIT_WAIT_MS 1000
static void describe_exit(struct judge *j, char *buf, size_t cap)
{
    int status = 0, ended;
    if (j->box) {   /* the sandbox's init reaps it, and says so */
        struct rusage ru;
        struct err ignored;
        ended = sbx_collect(j->box, JUDGE_EXIT_WAIT_MS, &status, &ru, &ignored) == 1;
    } else if (j->pid <= 0) {   /* judge_open_fds': no process of ours */
        ended = 0;
    } else {
        pid_t r = 0;
        for (int k = 0; k < JUDGE_EXIT_WAIT_MS && (r = waitpid(j->pid, &status, WNOHANG)) == 0;
             k++)
            usleep(1000);
        ended = r == j->pid;
    }
    if (ended)
        j->pid = 0;
    if (killed_for_memory(j))
        snprintf(buf, cap, "was killed by its memory limit (%d MB for all its processes "
                 "together)", JUDGE_MEM_MB);
    else if (!ended)
        snprintf(buf, cap, "closed its output");
    else if (WIFSIGNALED(status))
        snprintf(buf, cap, "crashed (killed by signal %d)", WTERMSIG(status));
    else
        snprintf(buf, cap, "exited with status %d", WEXITSTATUS(status));
}

static long long now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* Reads one line of answer into j->line (NUL-terminated, no newline).
 * 0, or -1 when the judge failed. */
static int read_line(struct judge *j, const char *what)
{
    long long deadline = now_ms() + JUDGE_TIMEOUT_MS;
    for (;;) {
        char *nl = memchr(j->line, '\n', j->have);
        if (nl) {
            *nl = '\0';
            return 0;
        }
        if (j->have >= JUDGE_LINE_MAX - 1)
            return judge_fail(j, "answered %s with a line over %d bytes", what,
                              JUDGE_LINE_MAX - 1);
        long long left = deadline - now_ms();
        struct pollfd p = { .fd = j->from, .events = POLLIN };
        int r = left > 0 ? poll(&p, 1, (int)left) : 0;
        if (r < 0 && errno == EINTR)
            continue;
        if (r == 0)
            return judge_fail(j, "no answer to %s within %d ms", what, JUDGE_TIMEOUT_MS);
        ssize_t n = read(j->from, j->line + j->have, JUDGE_LINE_MAX - 1 - j->have);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            char why[128];
            describe_exit(j, why, sizeof why);
            return judge_fail(j, "%s before answering %s", why, what);
        }
        j->have += (size_t)n;
    }
}

static int hello(struct judge *j, struct err *e);

/* A worker forked from the process that started the judge starts its own,
 * and says hello to it as to the first. 0, or -1 when the judge failed. */
static int own_process(struct judge *j)
{
    if (j->failure.msg[0])
        return -1;
    if (j->owner == getpid())
        return 0;
    if (!j->argv)   /* judge_open_fds': its process is not ours to start */
        return judge_fail(j, "is reached through its first process's descriptors only");
    stop_process(j);   /* lets go of the first process's judge, never ends it */
    j->pending[0] = '\0';   /* asked of the first process, which is not ours */
    struct err e;
    if (spawn(j, &e) != 0 || hello(j, &e) != 0)
        return judge_fail(j, "%s", e.msg);
    return 0;
}

/* Sends request (deleted here) without waiting for its answer; what names
 * it in messages. 0, or -1 when the judge failed (judge_fail). */
static int send_request(struct judge *j, cJSON *request, const char *what)
{
    if (own_process(j) != 0) {
        cJSON_Delete(request);
        return -1;
    }
    char *text = request ? cJSON_PrintUnformatted(request) : NULL;
    cJSON_Delete(request);
    if (!text)
        return judge_fail(j, "out of memory asking %s", what);
    size_t len = strlen(text);
    text[len] = '\n';   /* cJSON's string has its NUL there: replaced, not grown */
    size_t off = 0;
    while (off < len + 1) {
        ssize_t n = write(j->to, text + off, len + 1 - off);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            free(text);
            char why[128];
            describe_exit(j, why, sizeof why);
            return judge_fail(j, "%s before reading %s", why, what);
        }
        off += (size_t)n;
    }
    free(text);
    return 0;
}

/* The answer to the oldest question not yet answered, an object (the
 * caller deletes it), or NULL when the judge failed. */
static cJSON *receive(struct judge *j, const char *what)
{
    if (j->failure.msg[0] || read_line(j, what) != 0)
        return NULL;
    size_t used = strlen(j->line) + 1;
    cJSON *answer = cJSON_Parse(j->line);
    if (!cJSON_IsObject(answer)) {
        char head[64];
        snprintf(head, sizeof head, "%.60s", j->line);
        cJSON_Delete(answer);
        judge_fail(j, "answered %s with '%s', not a JSON object", what, head);
        return NULL;
    }
    memmove(j->line, j->line + used, j->have - used);
    j->have -= used;
    const cJSON *err = cJSON_GetObjectItemCaseSensitive(answer, "error");
    if (cJSON_IsString(err) && !cJSON_GetObjectItemCaseSensitive(answer, "line")) {
        judge_fail(j, "answered %s with the error '%.200s'", what, err->valuestring);
        cJSON_Delete(answer);
        return NULL;
    }
    return answer;
}

static int settle(struct judge *j);

/* Sends request (deleted here) and returns the answer (receive), once the
 * answer to a question sent ahead is read. */
static cJSON *ask(struct judge *j, cJSON *request, const char *what)
{
    if (settle(j) != 0) {
        cJSON_Delete(request);
        return NULL;
    }
    return send_request(j, request, what) == 0 ? receive(j, what) : NULL;
}

static cJSON *request(const char *op, const char *board)
{
    cJSON *r = cJSON_CreateObject();
    if (r && !cJSON_AddStringToObject(r, "op", op))
        cJSON_Delete(r), r = NULL;
    if (r && board && !cJSON_AddStringToObject(r, "board", board))
        cJSON_Delete(r), r = NULL;
    return r;
}

/* ---- checking answers ------------------------------------------------------ */

/* The string key of answer o (shorter than cap), or NULL when the judge
 * failed by leaving it out. */
static const char *get_text(struct judge *j, const cJSON *o, const char *key, size_t cap,
                            const char *what)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!cJSON_IsString(v)) {
        judge_fail(j, "answered %s without the string \"%s\"", what, key);
        return NULL;
    }
    if (strlen(v->valuestring) >= cap) {
        judge_fail(j, "answered %s with a \"%s\" of %zu bytes: at most %zu", what, key,
                   strlen(v->valuestring), cap - 1);
        return NULL;
    }
    return v->valuestring;
}

/* The whole number key of answer o, from lo to hi, into *out; 0, or -1
 * when the judge failed. */
static int get_int(struct judge *j, const cJSON *o, const char *key, int lo, int hi, int *out,
                   const char *what)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!cJSON_IsNumber(v) || v->valuedouble != (double)(int)v->valuedouble ||
        v->valueint < lo || v->valueint > hi)
        return judge_fail(j, "answered %s without \"%s\" a whole number from %d to %d", what,
                          key, lo, hi);
    *out = v->valueint;
    return 0;
}

/* The board key of answer o: text lines, each ended by LF (what a board
 * file can hold); NULL when the judge failed. */
static const char *get_board(struct judge *j, const cJSON *o, const char *key, const char *what)
{
    const char *b = get_text(j, o, key, JUDGE_BOARD_MAX, what);
    size_t n = b ? strlen(b) : 0;
    if (b && (n == 0 || b[n - 1] != '\n')) {
        judge_fail(j, "answered %s with a board that does not end in a newline", what);
        return NULL;
    }
    return b;
}

/* What object o says of its position short of its moves (to_move, over,
 * and winner and margin when over) into *sum, known; 0, or -1 when the
 * judge failed. */
static int read_sum(struct judge *j, const cJSON *o, struct judge_sum *sum, const char *what)
{
    memset(sum, 0, sizeof *sum);
    if (get_int(j, o, "to_move", 1, 2, &sum->to_move, what) != 0)
        return -1;
    const cJSON *over = cJSON_GetObjectItemCaseSensitive(o, "over");
    if (!cJSON_IsBool(over))
        return judge_fail(j, "answered %s without \"over\" (true or false)", what);
    sum->over = cJSON_IsTrue(over);
    if (sum->over && (get_int(j, o, "winner", 0, 2, &sum->winner, what) != 0 ||
                      get_int(j, o, "margin", 0, SCORE_MARGIN_MAX - 1, &sum->margin, what) != 0))
        return -1;
    sum->known = 1;
    return 0;
}

/* One entry m of a moves list into node's move i: its text, its board and,
 * when the entry gives it, its summary; 0, or -1 when the judge failed. */
static int read_move(struct judge *j, const cJSON *m, struct judge_node *node, int i,
                     const char *what)
{
    const char *text = get_text(j, m, "move", GAME_MOVE_TEXT_MAX, what);
    const char *child = text ? get_board(j, m, "board", what) : NULL;
    if (!child)
        return -1;
    for (int k = 0; k < i; k++)
        if (strcmp(text_of(node, k), text) == 0)
            return judge_fail(j, "answered %s with the move '%s' twice", what, text);
    struct judge_move *mv = &node->move[i];
    mv->text = pool_add(node, text);
    mv->board = pool_add(node, child);
    mv->sum.known = 0;
    if (cJSON_GetObjectItemCaseSensitive(m, "to_move"))
        return read_sum(j, m, &mv->sum, what);
    return 0;
}

/* The moves of answer a into node; 0, or -1 when the judge failed. */
static int read_moves(struct judge *j, const cJSON *a, struct judge_node *node, const char *what)
{
    if (read_sum(j, a, &node->sum, what) != 0)
        return -1;
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(a, "moves");
    if (!cJSON_IsArray(list))
        return judge_fail(j, "answered %s without \"moves\" (a list)", what);
    int n = cJSON_GetArraySize(list);
    if (node->sum.over && n != 0)
        return judge_fail(j, "answered %s for a finished game with %d moves", what, n);
    if (!node->sum.over && n == 0)
        return judge_fail(j, "answered %s with no move in a game not over (a pass is a move)",
                          what);
    if (n > GAME_MAX_MOVES)
        return judge_fail(j, "answered %s with %d moves: at most %d", what, n, GAME_MAX_MOVES);
    const cJSON *m;
    int i = 0;
    cJSON_ArrayForEach(m, list)
        if (read_move(j, m, node, i++, what) != 0)
            return -1;
    node->n = i;
    return 0;
}

/* What an earlier answer still cached said of board, as one of its moves'
 * children; NULL when none said. */
static const struct judge_sum *said_of(const struct judge *j, const char *board)
{
    for (int k = 0; k < JUDGE_CACHE; k++)
        for (int i = 0; j->cache[k].valid && i < j->cache[k].n; i++)
            if (j->cache[k].move[i].sum.known && strcmp(child_of(&j->cache[k], i), board) == 0)
                return &j->cache[k].move[i].sum;
    return NULL;
}

/* Answer a (deleted here; NULL: the judge failed) about board into node,
 * checked against what earlier answers said of board; 0, or -1 when the
 * judge failed (node then invalid). */
static int take_moves(struct judge *j, const char *board, cJSON *a, struct judge_node *node)
{
    const char *what = "\"moves\"";
    /* Not a memset of the whole node: only what the answer uses is written
     * (judge_node). */
    node->valid = node->n = 0;
    node->used = 0;
    node->sum = (struct judge_sum){ 0 };
    if (!a)
        return -1;
    snprintf(node->board, sizeof node->board, "%s", board);
    int rc = read_moves(j, a, node, what);
    cJSON_Delete(a);
    const struct judge_sum *said = rc == 0 ? said_of(j, board) : NULL;
    if (said && (said->to_move != node->sum.to_move || said->over != node->sum.over ||
                 said->winner != node->sum.winner || said->margin != node->sum.margin))
        rc = judge_fail(j, "answered %s about a board otherwise than its earlier answer "
                        "listing it as a move's board", what);
    node->valid = rc == 0;
    return rc;
}

/* Reads the answer to the "moves" question sent ahead (jg_prefetch) into
 * the cache. 0, or -1 when the judge failed. */
static int settle(struct judge *j)
{
    if (!j->pending[0] || j->owner != getpid() || j->failure.msg[0]) {
        j->pending[0] = '\0';   /* a forked worker's copy: not its question */
        return j->failure.msg[0] ? -1 : 0;
    }
    char board[JUDGE_BOARD_MAX];
    memcpy(board, j->pending, sizeof board);
    j->pending[0] = '\0';
    struct judge_node *node = &j->cache[j->next];
    if (take_moves(j, board, receive(j, "\"moves\""), node) != 0)
        return -1;
    j->next = (j->next + 1) % JUDGE_CACHE;
    return 0;
}

/* The cached answer about board as the cache holds it now, or NULL. */
static const struct judge_node *held(const struct judge *j, const char *board)
{
    for (int k = 0; k < JUDGE_CACHE; k++)
        if (j->cache[k].valid && strcmp(j->cache[k].board, board) == 0)
            return &j->cache[k];
    return NULL;
}

/* The cached answer about board (once an answer sent ahead is read), or
 * NULL: nothing is asked. */
static const struct judge_node *cached(struct judge *j, const char *board)
{
    return settle(j) == 0 ? held(j, board) : NULL;
}

/* The judge's answer about board: from the cache, or asked; once the judge
 * failed, a finished game (judge_fail). */
static const struct judge_node *node_of(struct judge *j, const char *board)
{
    const struct judge_node *known = cached(j, board);
    if (known)
        return known;
    struct judge_node *node = &j->cache[j->next];
    if (j->failure.msg[0] ||
        take_moves(j, board, ask(j, request("moves", board), "\"moves\""), node) != 0)
        return &j->over;
    j->next = (j->next + 1) % JUDGE_CACHE;
    return node;
}

/* The summary of board: from its own answer or, before that is read, from
 * an earlier answer listing it as a move's board; asked when neither is at
 * hand. */
static const struct judge_sum *sum_of(struct judge *j, const char *board)
{
    if (j->failure.msg[0])
        return &j->over.sum;
    const struct judge_node *known = held(j, board);
    if (known)
        return &known->sum;
    const struct judge_sum *said = said_of(j, board);
    return said ? said : &node_of(j, board)->sum;
}

/* ---- the game's operations ------------------------------------------------- */

/* A position's judge: operations find their judge in the position they
 * are given (judge.h). */
static struct judge *judge_of(const void *state)
{
    struct judge *j;
    memcpy(&j, (const char *)state + offsetof(struct judge_pos, judge), sizeof j);
    assert(j != NULL);
    return j;
}

static const char *board_of(const void *state)
{
    return (const char *)state + offsetof(struct judge_pos, board);
}

static const struct judge_node *node_at(const void *state)
{
    return node_of(judge_of(state), board_of(state));
}

/* Writes the position of j's board into state, every byte. */
static void set_pos(void *state, struct judge *j, const char *board)
{
    struct judge_pos p;
    memset(&p, 0, sizeof p);
    p.judge = j;
    snprintf(p.board, sizeof p.board, "%s", board);
    memcpy(state, &p, sizeof p);
}

/* request(op, board) with text[0..len) (not terminated) as its string
 * key; NULL when out of memory, which ask() reports. */
static cJSON *request_text(const char *op, const char *board, const char *key, const char *text,
                           size_t len)
{
    cJSON *r = request(op, board);
    char *copy = strndup(text, len);
    if (!copy || (r && !cJSON_AddStringToObject(r, key, copy)))
        cJSON_Delete(r), r = NULL;
    free(copy);
    return r;
}

/* The error for text whose byte at `at` is not text: its line and column
 * (1-based, bytes). */
static int not_text(const char *text, size_t at, struct err *e)
{
    int line = 1, col = 1;
    for (size_t i = 0; i < at; i++, col++)
        if (text[i] == '\n')
            line++, col = 0;
    return err_set(e, line, col, "byte 0x%02x is not text (UTF-8 without control characters)",
                   (unsigned char)text[at]);
}

static int jg_parse(void *state, const char *text, size_t len, struct err *e)
{
    struct judge *j = judge_of(state);
    /* A board the judge gave is canonical (docs/judges.md): an answer
     * spelled as one of the position's children is that child, unasked. */
    const struct judge_node *known = cached(j, board_of(state));
    for (int i = 0; known && i < known->n; i++)
        if (strlen(child_of(known, i)) == len && memcmp(child_of(known, i), text, len) == 0) {
            set_pos(state, j, child_of(known, i));
            return 0;
        }
    /* A judge reads JSON strings: bytes that are not text would reach it
     * changed (or stop it), so they are the answer's fault, said here. */
    size_t end = esc_text_end(text, len);
    if (end < len)
        return not_text(text, end, e);
    const char *what = "\"parse\"";
    cJSON *a = ask(j, request_text("parse", NULL, "text", text, len), what);
    if (!a) {
        *e = j->failure;
        return -1;
    }
    const cJSON *err = cJSON_GetObjectItemCaseSensitive(a, "error");
    int line, col, rc = -1;
    const char *msg, *board;
    if (err && get_int(j, a, "line", 0, INT32_MAX, &line, what) == 0 &&
        get_int(j, a, "col", 0, INT32_MAX, &col, what) == 0 &&
        (msg = get_text(j, a, "error", ERR_MSG_MAX, what)))
        err_set(e, line, col, "%s", msg);
    else if (!err && (board = get_board(j, a, "board", what))) {
        set_pos(state, j, board);
        rc = 0;
    }
    if (j->failure.msg[0])
        *e = j->failure;
    cJSON_Delete(a);
    return rc;
}

/* An engine is about to think on this position: its moves are asked now,
 * and their answer read when first needed, so that the judge answers while
 * the engine thinks. Only when its summary is known (whose turn, not over)
 * and nothing else is asked ahead. */
static void jg_prefetch(const void *state)
{
    struct judge *j = judge_of(state);
    const char *board = board_of(state);
    const struct judge_sum *said = said_of(j, board);
    if (j->failure.msg[0] || j->pending[0] || !said || said->over || j->owner != getpid() ||
        held(j, board))
        return;
    if (send_request(j, request("moves", board), "\"moves\"") == 0)
        snprintf(j->pending, sizeof j->pending, "%s", board);
}

static size_t jg_format(const void *state, char *buf)
{
    const char *board = board_of(state);
    size_t n = strlen(board);
    memcpy(buf, board, n + 1);
    return n;
}

static int jg_gen(const void *state, int *moves)
{
    const struct judge_node *node = node_at(state);
    for (int i = 0; i < node->n; i++)
        moves[i] = i;
    return node->n;
}

/* A move of the position's list; after the judge failed, a finished game
 * has none, and the position stays. */
static int known_move(const void *state, const struct judge_node *node, int move)
{
    int known = move >= 0 && move < node->n;
    assert(known || judge_error(judge_of(state), NULL) != 0);
    return known;
}

static void jg_play(void *state, int move)
{
    struct judge *j = judge_of(state);
    const struct judge_node *node = node_of(j, board_of(state));
    if (!known_move(state, node, move))
        return;
    char child[JUDGE_BOARD_MAX];
    snprintf(child, sizeof child, "%s", child_of(node, move));
    set_pos(state, j, child);
}

static const struct judge_sum *sum_at(const void *state)
{
    return sum_of(judge_of(state), board_of(state));
}

static int jg_to_move(const void *state)
{
    return sum_at(state)->to_move;
}

static int jg_terminal(const void *state, int *value)
{
    const struct judge_sum *sum = sum_at(state);
    if (!sum->over)
        return 0;
    int worth = SCORE_WIN + sum->margin;
    *value = sum->winner == 0 ? 0 : sum->winner == sum->to_move ? worth : -worth;
    return 1;
}

static int jg_evaluate(const void *state)
{
    (void)state;
    return 0;
}

static uint64_t jg_hash(const void *state)
{
    uint64_t h = UINT64_C(0xcbf29ce484222325);   /* FNV-1a */
    for (const unsigned char *p = (const unsigned char *)board_of(state); *p; p++)
        h = (h ^ *p) * UINT64_C(0x100000001b3);
    return h;
}

static int jg_move_text(const void *state, int move, char *buf, size_t cap)
{
    const struct judge_node *node = node_at(state);
    return snprintf(buf, cap, "%s", known_move(state, node, move) ? text_of(node, move) : "");
}

static int jg_parse_move(const void *state, const char *text, int *move)
{
    const struct judge_node *node = node_at(state);
    for (int i = 0; i < node->n; i++)
        if (strcmp(text_of(node, i), text) == 0) {
            *move = i;
            return 0;
        }
    return -1;
}

static void jg_print(FILE *out, const void *state)
{
    fprintf(out, "%s\n", board_of(state));
}

static void jg_print_move(FILE *out, const void *after, int move, int mover)
{
    (void)after;
    fprintf(out, "Player %d plays move %d\n", mover, move + 1);
}

static void jg_print_over(FILE *out, const void *state)
{
    const struct judge_sum *sum = sum_at(state);
    if (sum->winner)
        fprintf(out, "Player %d wins\nGame over!\n\n", sum->winner);
    else
        fprintf(out, "A draw\nGame over!\n\n");
}

/* The reason of a verdict, when it is of a known kind (judge_fail else). */
static const char *verdict_reason(struct judge *j, const cJSON *a, size_t cap, const char *what)
{
    const cJSON *legal = cJSON_GetObjectItemCaseSensitive(a, "legal");
    if (!cJSON_IsBool(legal)) {
        judge_fail(j, "answered %s without \"legal\" (true or false)", what);
        return NULL;
    }
    if (cJSON_IsTrue(legal)) {
        /* The referee found no legal move to this board among the judge's
         * own: the judge contradicts itself. */
        judge_fail(j, "answered %s that an answer is legal which none of its moves gives", what);
        return NULL;
    }
    const char *reason = get_text(j, a, "reason", cap, what);
    static const char *const kinds[] = { "illegal-move", "wrong-player", "tampered-board",
                                         "unreadable" };
    int known = 0;
    for (size_t k = 0; reason && k < sizeof kinds / sizeof *kinds; k++) {
        size_t n = strlen(kinds[k]);
        known |= strncmp(reason, kinds[k], n) == 0 && (!reason[n] || strncmp(reason + n, ": ", 2) == 0);
    }
    if (reason && !known) {
        judge_fail(j, "answered %s with the reason '%.100s', not one of illegal-move, "
                   "wrong-player, tampered-board, unreadable (then ': ' and words)", what, reason);
        return NULL;
    }
    return reason;
}

/* The judge's named reason why an answer is not a legal move. */
static int jg_explain(const void *before, const char *text, size_t len, char *why, size_t cap)
{
    struct judge *j = judge_of(before);
    struct err e;
    size_t end = esc_text_end(text, len);
    if (end < len) {
        not_text(text, end, &e);
        snprintf(why, cap, "unreadable: %d:%d: %s", e.line, e.col, e.msg);
        return 0;
    }
    const char *what = "\"verdict\"";
    cJSON *a = ask(j, request_text("verdict", board_of(before), "answer", text, len), what);
    const char *reason = a ? verdict_reason(j, a, cap, what) : NULL;
    if (reason)
        snprintf(why, cap, "%s", reason);
    cJSON_Delete(a);
    return reason ? 0 : -1;
}

/* ---- opening and closing --------------------------------------------------- */

/* Appends a copy of one file of the judge's command to j->files. */
static int add_file(struct judge *j, const char *path, const char *sha256)
{
    struct spec_file *grown = realloc(j->files, (size_t)(j->nfiles + 1) * sizeof *grown);
    if (!grown)
        return -1;
    j->files = grown;
    grown[j->nfiles] = (struct spec_file){ .path = strdup(path) };
    snprintf(grown[j->nfiles].sha256, sizeof grown->sha256, "%s", sha256);
    return grown[j->nfiles].path ? (j->nfiles++, 0) : -1;
}

/* The files s's command runs or names into j->files: its program (argv[0]
 * resolved through PATH) then every other word naming a regular file, each
 * with its SHA-256 (spec_resolve's). 0, or -1 when out of memory. */
static int add_files(struct judge *j, const struct spec *s)
{
    if (s->program && add_file(j, s->program, s->sha256) != 0)
        return -1;
    for (int i = 0; i < s->nfiles; i++)
        if (add_file(j, s->files[i].path, s->files[i].sha256) != 0)
            return -1;
    return 0;
}

/* The judge's words as a SPEC's cmd= resolves them, without the engine's
 * default placeholders, and the files they name (add_files); its program
 * is the last word naming a file (the script of `python3 judge.py`), else
 * the command's program. With a sandbox, what it shows the judge as its
 * own, as an engine's (sbx_own_paths): its program's folder, its
 * interpreter's installation, the folder of each word naming a file (or
 * the folder a word names). */
static int resolve(struct judge *j, const char *cmd, struct err *e)
{
    struct spec s;
    memset(&s, 0, sizeof s);
    struct err why;
    if (spec_parse(cmd, &s, &why) != 0)
        return err_set(e, 0, 0, "--judge '%s': %s", j->cmd, why.msg);
    int user = s.argc - RULES_DEFAULT_PLACEHOLDERS;
    if (user < 1 || strcmp(s.argv[user], rules_placeholder[0]) != 0) {
        spec_free(&s);
        return err_set(e, 0, 0, "--judge '%s': a judge's command takes no placeholder",
                       j->cmd);
    }
    j->argv = calloc((size_t)user + 1, sizeof *j->argv);
    for (int i = 0; j->argv && i < user; i++)
        j->argv[j->argc++] = strdup(s.argv[i]);
    const char *program = s.nfiles ? s.files[s.nfiles - 1].path : s.program;
    const char *sum = s.nfiles ? s.files[s.nfiles - 1].sha256 : s.sha256;
    snprintf(j->sha256, sizeof j->sha256, "%s", program ? sum : "");
    int files = add_files(j, &s);
    int own = j->boxed ? sbx_own_paths(s.program, s.runtime, s.nruntime, s.argv, s.dir,
                                       &j->own, &why)
                       : 0;
    /* Told when it would start (spawn_boxed): a journal's judge is checked
     * against the journal's first. */
    if (j->boxed && geteuid() == 0)
        spec_check_reach(&s, NULL, "the judge", NULL, SBX_ROOT_ENGINE_UID,
                         &j->unreachable);
    spec_free(&s);
    if (own != 0)
        return err_set(e, 0, 0, "--judge '%s': %s", j->cmd, why.msg);
    if (files != 0)
        return err_set(e, 0, 0, "out of memory");
    for (int i = 0; j->argv && i < j->argc; i++)
        if (!j->argv[i])
            return err_set(e, 0, 0, "out of memory");
    return j->argv ? 0 : err_set(e, 0, 0, "out of memory");
}

/* The judge's own copy of what its sandbox takes from the engines' policy
 * p: the read-only paths and the environment's names (their checks were
 * passed already). 0, or -1 with e (out of memory). */
static int copy_policy(struct judge *j, const struct sbx_policy *p, struct err *e)
{
    j->boxed = 1;
    j->policy.mode = SBX_NAMESPACES;
    for (int i = 0; i < p->ro.n; i++)
        if (sbx_paths_add(&j->policy.ro, p->ro.path[i], e) != 0)
            return -1;
    for (int i = 0; i < p->nenv; i++)
        if (sbx_env_add(&j->policy, p->env[i], e) != 0)
            return -1;
    return 0;
}

/* hello's optional "drawing" of answer a, how the HTML replay draws the
 * game's boards (struct game_drawing): {"layout": grid|checker|rows,
 * "style": CSS, "labels": "B=K W=K"}. Its style goes into the page's
 * style element as it is, so it may not hold a '<'. 0, or -1 when the
 * judge failed. */
static int read_drawing(struct judge *j, const cJSON *a, const char *what)
{
    const cJSON *d = cJSON_GetObjectItemCaseSensitive(a, "drawing");
    if (!d)
        return 0;
    const char *layout = cJSON_IsObject(d) ? get_text(j, d, "layout", 16, what) : NULL;
    if (!cJSON_IsObject(d))
        return judge_fail(j, "answered %s with a \"drawing\" that is not an object", what);
    if (!layout)
        return -1;
    int k = 0;
    while (k <= GAME_DRAW_ROWS && strcmp(game_draw_layout_name[k], layout) != 0)
        k++;
    if (k > GAME_DRAW_ROWS)
        return judge_fail(j, "answered %s with the layout '%s': grid, checker or rows", what,
                          layout);
    const char *style = "", *labels = "";
    if (cJSON_GetObjectItemCaseSensitive(d, "style") &&
        !(style = get_text(j, d, "style", JUDGE_STYLE_MAX, what)))
        return -1;
    if (cJSON_GetObjectItemCaseSensitive(d, "labels") &&
        !(labels = get_text(j, d, "labels", JUDGE_LABELS_MAX, what)))
        return -1;
    if (strchr(style, '<'))
        return judge_fail(j, "answered %s with a style holding '<' (it would end the page's "
                          "style element)", what);
    snprintf(j->style, sizeof j->style, "%s", style);
    snprintf(j->labels, sizeof j->labels, "%s", labels);
    j->drawing = (struct game_drawing){ .layout = (enum game_draw_layout)k,
                                        .style = j->style[0] ? j->style : NULL,
                                        .labels = j->labels[0] ? j->labels : NULL };
    j->has_drawing = 1;
    return 0;
}

/* Says hello and learns the game's name and start board (a worker's own
 * judge: checks they are the first's). 0, or -1 with e: a judge of another
 * protocol, or one that failed (judge_error). */
static int hello(struct judge *j, struct err *e)
{
    const char *what = "\"hello\"";
    cJSON *r = request("hello", NULL);
    if (r && !cJSON_AddStringToObject(r, "protocol", JUDGE_PROTOCOL))
        cJSON_Delete(r), r = NULL;
    cJSON *a = ask(j, r, what);
    const char *proto = a ? get_text(j, a, "protocol", 64, what) : NULL;
    if (proto && strcmp(proto, JUDGE_PROTOCOL) != 0) {
        err_set(e, 0, 0, "judge '%s' speaks '%s', not %s", j->cmd, proto, JUDGE_PROTOCOL);
        cJSON_Delete(a);
        return -1;
    }
    const char *name = proto ? get_text(j, a, "game", REC_NAME_MAX, what) : NULL;
    const char *start = name ? get_board(j, a, "start", what) : NULL;
    if (start && j->name[0] && (strcmp(name, j->name) != 0 || strcmp(start, j->start) != 0))
        judge_fail(j, "answered %s with another game or start than before", what);
    else if (start && name[strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789-_")])
        judge_fail(j, "answered %s with the game name '%s': lowercase letters, digits, "
                   "- and _ only", what, name);
    else if (start && !*name)
        judge_fail(j, "answered %s with an empty game name", what);
    else if (start && read_drawing(j, a, what) == 0) {
        snprintf(j->name, sizeof j->name, "%s", name);
        snprintf(j->start, sizeof j->start, "%s", start);
    }
    cJSON_Delete(a);
    return judge_error(j, e);
}

static void fill_game(struct judge *j)
{
    snprintf(j->title, sizeof j->title, "%s (judge)", j->name);
    set_pos(&j->start_pos, j, j->start);
    j->game = (struct game){
        .name = j->name, .title = j->title, .state_size = sizeof(struct judge_pos),
        .start = &j->start_pos, .parse = jg_parse, .format = jg_format, .gen = jg_gen,
        .play = jg_play, .to_move = jg_to_move, .terminal = jg_terminal,
        .evaluate = jg_evaluate, .hash = jg_hash, .move_text = jg_move_text,
        .parse_move = jg_parse_move, .print = jg_print, .print_move = jg_print_move,
        .print_over = jg_print_over, .explain = jg_explain, .prefetch = jg_prefetch,
        .drawing = j->has_drawing ? &j->drawing : NULL,
    };
}

/* Whether j is the judge a journal recorded (want): the same files, its
 * interpreter first, with the same SHA-256s in the same order. Paths may
 * differ (the journal may come from another machine), contents not. A
 * journal from before "files" recorded its program's SHA-256 only (the
 * last word naming a file), which must then be j's program's. 0, or -1
 * with e naming the first file that differs (j's; the journal's is in its
 * header) and both SHA-256s: a message holds ERR_MSG_MAX bytes. */
static int same_judge(const struct judge *j, const struct hdr_judge *want, struct err *e)
{
    if (!(want->has & HDR_BIT(HDR_JUDGE_FILES))) {
        const char *sum = want->has & HDR_BIT(HDR_JUDGE_SHA256) ? want->sha256 : "";
        if (strcmp(sum, j->sha256) == 0)
            return 0;
        return err_set(e, 0, 0, "--judge: its program has SHA-256 %s, the journal's judge %s",
                       j->sha256[0] ? j->sha256 : "none", sum[0] ? sum : "none");
    }
    for (int i = 0; i < j->nfiles || i < want->nfiles; i++) {
        const struct spec_file *mine = i < j->nfiles ? &j->files[i] : NULL;
        const struct hdr_file *theirs = i < want->nfiles ? &want->files[i] : NULL;
        const char *sum = theirs && theirs->sha256 ? theirs->sha256 : "none";
        if (!theirs)
            return err_set(e, 0, 0, "--judge: file %d, %s (SHA-256 %s), is not in the "
                           "journal's judge (%d files)", i + 1, mine->path, mine->sha256,
                           want->nfiles);
        if (!mine)
            return err_set(e, 0, 0, "--judge names %d files, the journal's judge %d: its file "
                           "%d is %s (SHA-256 %s)", j->nfiles, want->nfiles, i + 1,
                           theirs->path ? theirs->path : "(no path)", sum);
        if (strcmp(mine->sha256, sum) != 0)
            return err_set(e, 0, 0, "--judge: file %d, %s, has SHA-256 %s, the journal's judge "
                           "%s", i + 1, mine->path, mine->sha256, sum);
    }
    return 0;
}

/* A new judge named cmd in messages, with nothing started; NULL when out
 * of memory. */
static struct judge *judge_new(const char *cmd)
{
    struct judge *j = calloc(1, sizeof *j);
    if (!j || !(j->line = malloc(JUDGE_LINE_MAX))) {
        free(j);
        return NULL;
    }
    j->to = j->from = j->home.fd = -1;
    cg_move_none(&j->cg, j->cg_procs, LAUNCH_CG_FILES);
    snprintf(j->cmd, sizeof j->cmd, "%s", cmd);
    return j;
}

int judge_open(const struct judge_cmd *cmd, const struct hdr_judge *want, struct judge **judge,
               struct err *e)
{
    assert(cmd && cmd->cmd);
    *judge = NULL;
    struct judge *j = judge_new(cmd->cmd);
    if (!j)
        return err_set(e, 0, 0, "out of memory");
    if (cmd->sandbox && copy_policy(j, cmd->sandbox, e) != 0)
        goto fail;
    j->acct = cmd->sandbox ? cmd->cg : NULL;   /* a trusted judge's processes are its own */
    if (resolve(j, cmd->cmd, e) != 0 || (want && same_judge(j, want, e) != 0))
        goto fail;   /* nothing started */
    if (spawn(j, e) != 0 || hello(j, e) != 0)
        goto fail;
    fill_game(j);
    *judge = j;
    return 0;
fail:;
    int rc = judge_error(j, NULL) != 0 ? JUDGE_FAILED : -1;
    judge_close(j);
    return rc;
}

int judge_open_fds(const char *name, int to, int from, struct judge **judge, struct err *e)
{
    *judge = NULL;
    struct judge *j = judge_new(name);
    if (!j) {
        close(to);
        close(from);
        return err_set(e, 0, 0, "out of memory");
    }
    j->owner = getpid();
    j->to = to;
    j->from = from;
    signal(SIGPIPE, SIG_IGN);   /* as spawn: a judge that is gone fails a write */
    if (hello(j, e) != 0) {
        int rc = judge_error(j, NULL) != 0 ? JUDGE_FAILED : -1;
        judge_close(j);
        return rc;
    }
    fill_game(j);
    *judge = j;
    return 0;
}

pid_t judge_pid(const struct judge *j)
{
    if (!j || j->owner != getpid())
        return 0;
    return j->box ? sbx_init_pid(j->box) : j->pid > 0 ? j->pid : 0;
}

const struct game *judge_game(const struct judge *j)
{
    return &j->game;
}

int judge_error(const struct judge *j, struct err *e)
{
    if (!j || !j->failure.msg[0])
        return 0;
    if (e)
        *e = j->failure;
    return -1;
}

int judge_header(const struct judge *j, struct hdr *h)
{
    h->has |= HDR_BIT(HDR_JUDGE);
    h->judge.has = HDR_BIT(HDR_JUDGE_CMD) | HDR_BIT(HDR_JUDGE_SHA256) | HDR_BIT(HDR_JUDGE_FILES);
    for (int i = 0; i < j->argc; i++)
        if (hdr_strs_add(&h->judge.cmd, j->argv[i]) != 0)
            return -1;
    for (int i = 0; i < j->nfiles; i++)
        if (hdr_judge_add_file(&h->judge, j->files[i].path, j->files[i].sha256) != 0)
            return -1;
    return hdr_set_text(&h->judge.sha256, j->sha256);
}

/* Bytes of the recorded command a refusal quotes: the message must still
 * say what to do after it (ERR_MSG_MAX). */
#define JUDGE_QUOTED_MAX 120

/* The recorded words as one command (spec_join), cut with "..." past
 * JUDGE_QUOTED_MAX bytes; cap is more. */
static void quoted_cmd(const struct hdr_strs *words, char *buf, size_t cap)
{
    assert(cap > JUDGE_QUOTED_MAX);
    int whole = spec_join(words->v, words->n, buf, cap) >= 0;
    size_t n = strlen(buf);
    if (whole && n <= JUDGE_QUOTED_MAX)
        return;
    n = n < JUDGE_QUOTED_MAX - 3 ? n : JUDGE_QUOTED_MAX - 3;
    memcpy(buf + n, "...", 4);
}

/* The judge a journal's header names into *judge: the command the user
 * named (cmd), refused unless it is the recorded one (same_judge); never
 * the header's own command, which is data (docs/judges.md). 0, -1 with e,
 * or JUDGE_FAILED. */
static int judge_from_header(const struct hdr *h, const struct judge_cmd *cmd,
                             struct judge **judge, struct err *e)
{
    *judge = NULL;
    const struct hdr_judge *hj = &h->judge;
    if (!cmd || !cmd->cmd) {
        char words[JUDGE_CMD_MAX];
        quoted_cmd(&hj->cmd, words, sizeof words);
        return err_set(e, 0, 0, "its games are a judge's (\"%s\"); name the judge to run: "
                       "--judge CMD (a journal's own command is never run)", words);
    }
    struct judge *j;
    int rc = judge_open(cmd, hj, &j, e);
    if (rc != 0)
        return rc;
    if (strcmp(j->name, h->game) != 0) {
        err_set(e, 0, 0, "judge '%s' plays '%s', the journal's game is '%s'", j->cmd, j->name,
                h->game);
        judge_close(j);
        return -1;
    }
    *judge = j;
    return 0;
}

int judge_game_of(const struct hdr *h, const struct judge_cmd *cmd, const struct game **g,
                  struct judge **judge, struct err *e)
{
    *g = NULL;
    *judge = NULL;
    if (h->has & HDR_BIT(HDR_JUDGE)) {
        int rc = judge_from_header(h, cmd, judge, e);
        if (rc == -1)
            e->line = e->col = 1;
        if (rc == 0)
            *g = judge_game(*judge);
        return rc;
    }
    if (cmd && cmd->cmd)
        return err_set(e, 1, 1, "--judge: the journal's game '%s' is not a judge's",
                       h->game[0] ? h->game : "(none)");
    if (!(*g = registry_find(h->game)))
        return err_set(e, 1, 1, "unknown game '%s'", h->game[0] ? h->game : "(none)");
    return 0;
}

void judge_close(struct judge *j)
{
    if (!j)
        return;
    stop_process(j);
    for (int i = 0; i < j->argc; i++)
        free(j->argv[i]);
    free(j->argv);
    for (int i = 0; i < j->nfiles; i++)
        free(j->files[i].path);
    free(j->files);
    sbx_paths_free(&j->own);
    sbx_policy_free(&j->policy);
    free(j->line);
    free(j);
}
