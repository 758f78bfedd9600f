/*
 * judge.c - a game whose rules a judge program supplies (judge.h): the
 * judge's process and its JSON-lines exchange, the answers' checks, and the
 * `struct game` whose operations ask it (docs/judges.md).
 */
#define _GNU_SOURCE
#include <assert.h>
#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
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
#include "arena/limits.h"
#include "referee/play/pool.h"
#include "arena/registry.h"
#include "arena/rules.h"
#include "arena/sha256.h"
#include "arena/spec.h"

_Static_assert(JUDGE_BOARD_MAX <= GAME_MAX_STATE, "a board fits a state");
/* A pool worker ending so is a game that "could not be played (the line
 * above says why)" (match.c, tournament.c). */
_Static_assert(JUDGE_EXIT_FAILED == POOL_FAILED, "a judge's failure is a worker's");

#define JUDGE_CACHE 4     /* positions whose moves are kept: a position, its
                             children and the answer being judged */
#define JUDGE_CMD_MAX 512 /* bytes of the command named in messages */

/* The judge's answer about one position. */
struct judge_node {
    char board[JUDGE_BOARD_MAX];
    int valid;
    int to_move;                       /* 1 or 2 */
    int over, winner, margin;          /* winner 0: a draw */
    int n;
    char text[GAME_MAX_MOVES][GAME_MOVE_TEXT_MAX];
    char child[GAME_MAX_MOVES][JUDGE_BOARD_MAX];
};

struct judge {
    struct game game;                  /* first: judge_game's answer */
    char name[REC_NAME_MAX];
    char title[REC_NAME_MAX + 16];
    char cmd[JUDGE_CMD_MAX];           /* as given, for messages */
    char **argv;                       /* resolved words, NULL-terminated */
    int argc;
    char sha256[SHA256_HEX];           /* of its program file ("" none) */
    char start[JUDGE_BOARD_MAX];
    pid_t pid, owner;                  /* the judge, and the process it answers */
    int to, from;                      /* its stdin, its stdout */
    char *line;                        /* JUDGE_LINE_MAX bytes: an answer */
    size_t have;                       /* bytes read past the last answer */
    struct judge_node cache[JUDGE_CACHE];
    int next;                          /* the cache entry to replace next */
};

/* The active judge: struct game's operations have no context (judge.h). */
static struct judge *judge_active;

/* ---- the process ----------------------------------------------------------- */

static void stop_process(struct judge *j)
{
    if (j->to >= 0)
        close(j->to);
    if (j->from >= 0)
        close(j->from);
    j->to = j->from = -1;
    if (j->pid > 0 && j->owner == getpid()) {
        kill(j->pid, SIGKILL);
        while (waitpid(j->pid, NULL, 0) < 0 && errno == EINTR)
            ;
    }
    j->pid = 0;
}

/* The run stops: the judge failed, which no engine is charged with. */
__attribute__((noreturn, format(printf, 2, 3)))
static void judge_fail(struct judge *j, const char *fmt, ...)
{
    char msg[ERR_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    stop_process(j);
    fprintf(stderr, "referee: judge '%s': %s\n", j->cmd, msg);
    fflush(stderr);
    _exit(JUDGE_EXIT_FAILED);
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

/* How the judge ended, once its output closed: it is given up to
 * JUDGE_EXIT_WAIT_MS to be reaped, for its status. */
#define JUDGE_EXIT_WAIT_MS 1000
static void describe_exit(struct judge *j, char *buf, size_t cap)
{
    int status = 0;
    pid_t r = 0;
    for (int k = 0; k < JUDGE_EXIT_WAIT_MS && (r = waitpid(j->pid, &status, WNOHANG)) == 0; k++)
        usleep(1000);
    if (r != j->pid) {
        snprintf(buf, cap, "closed its output");
        return;
    }
    j->pid = 0;
    if (WIFSIGNALED(status))
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

/* Reads one line of answer into j->line (NUL-terminated, no newline). */
static void read_line(struct judge *j, const char *what)
{
    long long deadline = now_ms() + JUDGE_TIMEOUT_MS;
    for (;;) {
        char *nl = memchr(j->line, '\n', j->have);
        if (nl) {
            *nl = '\0';
            return;
        }
        if (j->have >= JUDGE_LINE_MAX - 1)
            judge_fail(j, "answered %s with a line over %d bytes", what, JUDGE_LINE_MAX - 1);
        long long left = deadline - now_ms();
        struct pollfd p = { .fd = j->from, .events = POLLIN };
        int r = left > 0 ? poll(&p, 1, (int)left) : 0;
        if (r < 0 && errno == EINTR)
            continue;
        if (r == 0)
            judge_fail(j, "no answer to %s within %d ms", what, JUDGE_TIMEOUT_MS);
        ssize_t n = read(j->from, j->line + j->have, JUDGE_LINE_MAX - 1 - j->have);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            char why[128];
            describe_exit(j, why, sizeof why);
            judge_fail(j, "%s before answering %s", why, what);
        }
        j->have += (size_t)n;
    }
}

static int hello(struct judge *j, struct err *e);

/* A worker forked from the process that started the judge starts its own,
 * and says hello to it as to the first. */
static void own_process(struct judge *j)
{
    if (j->owner == getpid())
        return;
    if (j->to >= 0)
        close(j->to);
    if (j->from >= 0)
        close(j->from);
    j->to = j->from = -1;
    j->pid = 0;
    struct err e;
    if (spawn(j, &e) != 0 || hello(j, &e) != 0)
        judge_fail(j, "%s", e.msg);
}

/* Sends request (deleted here) and returns the answer, an object (the
 * caller deletes it); what names the request in messages. */
static cJSON *ask(struct judge *j, cJSON *request, const char *what)
{
    own_process(j);
    char *text = request ? cJSON_PrintUnformatted(request) : NULL;
    cJSON_Delete(request);
    if (!text)
        judge_fail(j, "out of memory asking %s", what);
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
            judge_fail(j, "%s before reading %s", why, what);
        }
        off += (size_t)n;
    }
    free(text);
    read_line(j, what);
    size_t used = strlen(j->line) + 1;
    cJSON *answer = cJSON_Parse(j->line);
    if (!cJSON_IsObject(answer)) {
        char head[64];
        snprintf(head, sizeof head, "%.60s", j->line);
        cJSON_Delete(answer);
        judge_fail(j, "answered %s with '%s', not a JSON object", what, head);
    }
    memmove(j->line, j->line + used, j->have - used);
    j->have -= used;
    const cJSON *err = cJSON_GetObjectItemCaseSensitive(answer, "error");
    if (cJSON_IsString(err) && !cJSON_GetObjectItemCaseSensitive(answer, "line"))
        judge_fail(j, "answered %s with the error '%.200s'", what, err->valuestring);
    return answer;
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

static const char *get_text(struct judge *j, const cJSON *o, const char *key, size_t cap,
                            const char *what)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!cJSON_IsString(v))
        judge_fail(j, "answered %s without the string \"%s\"", what, key);
    if (strlen(v->valuestring) >= cap)
        judge_fail(j, "answered %s with a \"%s\" of %zu bytes: at most %zu", what, key,
                   strlen(v->valuestring), cap - 1);
    return v->valuestring;
}

static int get_int(struct judge *j, const cJSON *o, const char *key, int lo, int hi,
                   const char *what)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!cJSON_IsNumber(v) || v->valuedouble != (double)(int)v->valuedouble ||
        v->valueint < lo || v->valueint > hi)
        judge_fail(j, "answered %s without \"%s\" a whole number from %d to %d", what, key,
                   lo, hi);
    return v->valueint;
}

/* A board is text lines, each ended by LF: what a board file can hold. */
static void check_board(struct judge *j, const char *b, const char *what)
{
    size_t n = strlen(b);
    if (n == 0 || b[n - 1] != '\n')
        judge_fail(j, "answered %s with a board that does not end in a newline", what);
}

/* The judge's moves of board, into node (checked). */
static void ask_moves(struct judge *j, const char *board, struct judge_node *node)
{
    const char *what = "\"moves\"";
    cJSON *a = ask(j, request("moves", board), what);
    memset(node, 0, sizeof *node);
    snprintf(node->board, sizeof node->board, "%s", board);
    node->to_move = get_int(j, a, "to_move", 1, 2, what);
    const cJSON *over = cJSON_GetObjectItemCaseSensitive(a, "over");
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(a, "moves");
    if (!cJSON_IsBool(over) || !cJSON_IsArray(list))
        judge_fail(j, "answered %s without \"over\" (true or false) and \"moves\" (a list)", what);
    node->over = cJSON_IsTrue(over);
    int n = cJSON_GetArraySize(list);
    if (node->over && n != 0)
        judge_fail(j, "answered %s for a finished game with %d moves", what, n);
    if (!node->over && n == 0)
        judge_fail(j, "answered %s with no move in a game not over (a pass is a move)", what);
    if (n > GAME_MAX_MOVES)
        judge_fail(j, "answered %s with %d moves: at most %d", what, n, GAME_MAX_MOVES);
    if (node->over) {
        node->winner = get_int(j, a, "winner", 0, 2, what);
        node->margin = get_int(j, a, "margin", 0, SCORE_MARGIN_MAX - 1, what);
    }
    const cJSON *m;
    int i = 0;
    cJSON_ArrayForEach(m, list) {
        snprintf(node->text[i], GAME_MOVE_TEXT_MAX, "%s",
                 get_text(j, m, "move", GAME_MOVE_TEXT_MAX, what));
        snprintf(node->child[i], JUDGE_BOARD_MAX, "%s",
                 get_text(j, m, "board", JUDGE_BOARD_MAX, what));
        check_board(j, node->child[i], what);
        for (int k = 0; k < i; k++)
            if (strcmp(node->text[k], node->text[i]) == 0)
                judge_fail(j, "answered %s with the move '%s' twice", what, node->text[i]);
        i++;
    }
    node->n = i;
    node->valid = 1;
    cJSON_Delete(a);
}

/* The judge's answer about board: from the cache, or asked. */
static const struct judge_node *node_of(const char *board)
{
    struct judge *j = judge_active;
    assert(j != NULL);
    for (int k = 0; k < JUDGE_CACHE; k++)
        if (j->cache[k].valid && strcmp(j->cache[k].board, board) == 0)
            return &j->cache[k];
    struct judge_node *node = &j->cache[j->next];
    j->next = (j->next + 1) % JUDGE_CACHE;
    ask_moves(j, board, node);
    return node;
}

/* ---- the game's operations ------------------------------------------------- */

static void set_board(void *state, const char *board)
{
    memset(state, 0, JUDGE_BOARD_MAX);
    snprintf(state, JUDGE_BOARD_MAX, "%s", board);
}

static void jg_init(void *state)
{
    set_board(state, judge_active->start);
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

static int jg_parse(void *state, const char *text, size_t len, struct err *e)
{
    struct judge *j = judge_active;
    const char *what = "\"parse\"";
    cJSON *r = request_text("parse", NULL, "text", text, len);
    cJSON *a = ask(j, r, what);
    const cJSON *err = cJSON_GetObjectItemCaseSensitive(a, "error");
    if (err) {
        int line = get_int(j, a, "line", 0, INT32_MAX, what);
        int col = get_int(j, a, "col", 0, INT32_MAX, what);
        char msg[ERR_MSG_MAX];
        snprintf(msg, sizeof msg, "%s", get_text(j, a, "error", ERR_MSG_MAX, what));
        cJSON_Delete(a);
        return err_set(e, line, col, "%s", msg);
    }
    const char *board = get_text(j, a, "board", JUDGE_BOARD_MAX, what);
    check_board(j, board, what);
    set_board(state, board);
    cJSON_Delete(a);
    return 0;
}

static size_t jg_format(const void *state, char *buf)
{
    size_t n = strlen(state);
    memcpy(buf, state, n + 1);
    return n;
}

static int jg_gen(const void *state, int *moves)
{
    const struct judge_node *node = node_of(state);
    for (int i = 0; i < node->n; i++)
        moves[i] = i;
    return node->n;
}

static void jg_play(void *state, int move)
{
    const struct judge_node *node = node_of(state);
    assert(move >= 0 && move < node->n);
    char child[JUDGE_BOARD_MAX];
    memcpy(child, node->child[move], sizeof child);
    set_board(state, child);
}

static int jg_to_move(const void *state)
{
    return node_of(state)->to_move;
}

static int jg_terminal(const void *state, int *value)
{
    const struct judge_node *node = node_of(state);
    if (!node->over)
        return 0;
    int worth = SCORE_WIN + node->margin;
    *value = node->winner == 0 ? 0 : node->winner == node->to_move ? worth : -worth;
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
    for (const unsigned char *p = state; *p; p++)
        h = (h ^ *p) * UINT64_C(0x100000001b3);
    return h;
}

static int jg_move_text(const void *state, int move, char *buf, size_t cap)
{
    const struct judge_node *node = node_of(state);
    assert(move >= 0 && move < node->n);
    return snprintf(buf, cap, "%s", node->text[move]);
}

static int jg_parse_move(const void *state, const char *text, int *move)
{
    const struct judge_node *node = node_of(state);
    for (int i = 0; i < node->n; i++)
        if (strcmp(node->text[i], text) == 0) {
            *move = i;
            return 0;
        }
    return -1;
}

static void jg_print(FILE *out, const void *state)
{
    fprintf(out, "%s\n", (const char *)state);
}

static void jg_print_move(FILE *out, const void *after, int move, int mover)
{
    (void)after;
    fprintf(out, "Player %d plays move %d\n", mover, move + 1);
}

static void jg_print_over(FILE *out, const void *state)
{
    const struct judge_node *node = node_of(state);
    if (node->winner)
        fprintf(out, "Player %d wins\nGame over!\n\n", node->winner);
    else
        fprintf(out, "A draw\nGame over!\n\n");
}

/* The judge's named reason why an answer is not a legal move. */
static int jg_explain(const void *before, const char *text, size_t len, char *why, size_t cap)
{
    struct judge *j = judge_active;
    const char *what = "\"verdict\"";
    cJSON *r = request_text("verdict", before, "answer", text, len);
    cJSON *a = ask(j, r, what);
    const cJSON *legal = cJSON_GetObjectItemCaseSensitive(a, "legal");
    if (!cJSON_IsBool(legal))
        judge_fail(j, "answered %s without \"legal\" (true or false)", what);
    if (cJSON_IsTrue(legal))
        /* The referee found no legal move to this board among the judge's
         * own: the judge contradicts itself. */
        judge_fail(j, "answered %s that an answer is legal which none of its moves gives", what);
    const char *reason = get_text(j, a, "reason", cap, what);
    static const char *const kinds[] = { "illegal-move", "wrong-player", "tampered-board",
                                         "unreadable" };
    int known = 0;
    for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++) {
        size_t n = strlen(kinds[k]);
        known |= strncmp(reason, kinds[k], n) == 0 && (!reason[n] || strncmp(reason + n, ": ", 2) == 0);
    }
    if (!known)
        judge_fail(j, "answered %s with the reason '%.100s', not one of illegal-move, "
                   "wrong-player, tampered-board, unreadable (then ': ' and words)", what, reason);
    snprintf(why, cap, "%s", reason);
    cJSON_Delete(a);
    return 0;
}

/* ---- opening and closing --------------------------------------------------- */

/* The judge's words as a SPEC's cmd= resolves them, without the engine's
 * default placeholders; its program is the last word naming a file (the
 * script of `python3 judge.py`), else the command's program. */
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
    spec_free(&s);
    for (int i = 0; j->argv && i < j->argc; i++)
        if (!j->argv[i])
            return err_set(e, 0, 0, "out of memory");
    return j->argv ? 0 : err_set(e, 0, 0, "out of memory");
}

static int hello(struct judge *j, struct err *e)
{
    const char *what = "\"hello\"";
    cJSON *r = request("hello", NULL);
    if (r && !cJSON_AddStringToObject(r, "protocol", JUDGE_PROTOCOL))
        cJSON_Delete(r), r = NULL;
    cJSON *a = ask(j, r, what);
    const char *proto = get_text(j, a, "protocol", 64, what);
    if (strcmp(proto, JUDGE_PROTOCOL) != 0) {
        cJSON_Delete(a);
        return err_set(e, 0, 0, "judge '%s' speaks '%s', not %s", j->cmd, proto,
                       JUDGE_PROTOCOL);
    }
    const char *name = get_text(j, a, "game", REC_NAME_MAX, what);
    if (j->name[0]) {   /* a worker's own judge: the same game as the first */
        if (strcmp(name, j->name) != 0 ||
            strcmp(get_text(j, a, "start", JUDGE_BOARD_MAX, what), j->start) != 0)
            judge_fail(j, "answered %s with another game or start than before", what);
        cJSON_Delete(a);
        return 0;
    }
    for (const char *c = name; *c; c++)
        if (!strchr("abcdefghijklmnopqrstuvwxyz0123456789-_", *c))
            judge_fail(j, "answered %s with the game name '%s': lowercase letters, digits, "
                       "- and _ only", what, name);
    if (!*name)
        judge_fail(j, "answered %s with an empty game name", what);
    snprintf(j->name, sizeof j->name, "%s", name);
    snprintf(j->start, sizeof j->start, "%s", get_text(j, a, "start", JUDGE_BOARD_MAX, what));
    check_board(j, j->start, what);
    cJSON_Delete(a);
    return 0;
}

static void fill_game(struct judge *j)
{
    snprintf(j->title, sizeof j->title, "%s (judge)", j->name);
    j->game = (struct game){
        .name = j->name, .title = j->title, .state_size = JUDGE_BOARD_MAX,
        .init = jg_init, .parse = jg_parse, .format = jg_format, .gen = jg_gen,
        .play = jg_play, .to_move = jg_to_move, .terminal = jg_terminal,
        .evaluate = jg_evaluate, .hash = jg_hash, .move_text = jg_move_text,
        .parse_move = jg_parse_move, .print = jg_print, .print_move = jg_print_move,
        .print_over = jg_print_over, .explain = jg_explain,
    };
}

struct judge *judge_open(const char *cmd, const char *want_sha256, struct err *e)
{
    assert(judge_active == NULL);
    struct judge *j = calloc(1, sizeof *j);
    if (!j || !(j->line = malloc(JUDGE_LINE_MAX))) {
        free(j);
        err_set(e, 0, 0, "out of memory");
        return NULL;
    }
    j->to = j->from = -1;
    snprintf(j->cmd, sizeof j->cmd, "%s", cmd);
    if (resolve(j, cmd, e) != 0)
        goto fail;
    if (want_sha256 && strcmp(want_sha256, j->sha256) != 0) {
        err_set(e, 0, 0, "judge '%s' changed since the journal was written: its program's "
                "SHA-256 is %s, the journal's %s", j->cmd, j->sha256[0] ? j->sha256 : "none",
                want_sha256);
        goto fail;
    }
    if (spawn(j, e) != 0)
        goto fail;
    judge_active = j;
    if (hello(j, e) != 0) {
        judge_active = NULL;
        goto fail;
    }
    fill_game(j);
    return j;
fail:
    judge_close(j);
    return NULL;
}

const struct game *judge_game(const struct judge *j)
{
    return &j->game;
}

int judge_header(const struct judge *j, struct hdr *h)
{
    h->has |= HDR_BIT(HDR_JUDGE);
    h->judge.has = HDR_BIT(HDR_JUDGE_CMD) | HDR_BIT(HDR_JUDGE_SHA256);
    for (int i = 0; i < j->argc; i++)
        if (hdr_strs_add(&h->judge.cmd, j->argv[i]) != 0)
            return -1;
    return hdr_set_text(&h->judge.sha256, j->sha256);
}

struct judge *judge_from_header(const struct hdr *h, int *none, struct err *e)
{
    *none = !(h->has & HDR_BIT(HDR_JUDGE));
    if (*none)
        return NULL;
    const struct hdr_judge *hj = &h->judge;
    if (!(hj->has & HDR_BIT(HDR_JUDGE_CMD)) || hj->cmd.n == 0) {
        err_set(e, 0, 0, "the journal's judge has no command");
        return NULL;
    }
    /* The recorded words, quoted back into one command. */
    char cmd[JUDGE_CMD_MAX * 4];
    size_t n = 0;
    for (int i = 0; i < hj->cmd.n && n < sizeof cmd; i++) {
        const char *w = hj->cmd.v[i];
        int bare = *w && !w[strcspn(w, " \t'\"\\,")];   /* a word needing no quotes */
        n += (size_t)snprintf(cmd + n, sizeof cmd - n, "%s%s", i ? " " : "", bare ? w : "'");
        for (const char *c = w; !bare && *c && n + 5 < sizeof cmd; c++)
            n += *c == '\'' ? (size_t)snprintf(cmd + n, sizeof cmd - n, "'\\''")
                            : (size_t)snprintf(cmd + n, sizeof cmd - n, "%c", *c);
        if (!bare && n < sizeof cmd)
            n += (size_t)snprintf(cmd + n, sizeof cmd - n, "'");
    }
    if (n >= sizeof cmd) {
        err_set(e, 0, 0, "the journal's judge command is too long");
        return NULL;
    }
    struct judge *j = judge_open(cmd, hj->has & HDR_BIT(HDR_JUDGE_SHA256) ? hj->sha256 : "", e);
    if (j && strcmp(j->name, h->game) != 0) {
        err_set(e, 0, 0, "judge '%s' plays '%s', the journal's game is '%s'", j->cmd, j->name,
                h->game);
        judge_close(j);
        return NULL;
    }
    return j;
}

const struct game *judge_game_of(const struct hdr *h, struct judge **judge, struct err *e)
{
    int none;
    *judge = judge_from_header(h, &none, e);
    if (*judge)
        return judge_game(*judge);
    if (!none) {
        e->line = e->col = 1;
        return NULL;
    }
    const struct game *g = registry_find(h->game);
    if (!g)
        err_set(e, 1, 1, "unknown game '%s'", h->game[0] ? h->game : "(none)");
    return g;
}

void judge_close(struct judge *j)
{
    if (!j)
        return;
    if (judge_active == j)
        judge_active = NULL;
    stop_process(j);
    for (int i = 0; i < j->argc; i++)
        free(j->argv[i]);
    free(j->argv);
    free(j->line);
    free(j);
}
