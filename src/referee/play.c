/*
 * play.c - one game between two engines through board files, and what
 * every game shares: openings, the opening book, engine and rules JSON,
 * the result line (match.h).
 *
 * The referee keeps the position itself and only ever accepts an engine's
 * file when it is the position plus one legal move, so nothing an engine
 * writes can change the game in any other way. The record is JSON from the
 * start, so a match log, a tournament worker's answer and a journal line are
 * one format.
 */
#define _GNU_SOURCE
#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "arena/analyze.h"
#include "arena/clock.h"
#include "arena/match.h"
#include "arena/rng.h"
#include "arena/textfile.h"

#define REF_ARG_MAX    PATH_MAX
#define OPENING_TRIES  64
#define BOOK_CAP       (1 << 20)   /* bytes of an opening book */
#define PLY_NAME_MAX   32
#define NS_PER_MS      1e6
#define IN_NAME        "in.txt"    /* the board the engine gets, in the game's folder */
#define OUT_NAME       "out.txt"   /* its answer, there */

/* Replaces every placeholder of word into buf. */
static void expand(const char *word, char *buf, const char *in, const char *out,
                   const char *depth, const char *player)
{
    static const char *const key[] = { "{in}", "{out}", "{depth}", "{player}" };
    const char *val[] = { in, out, depth, player };
    size_t n = 0;
    while (*word && n < REF_ARG_MAX - 1) {
        int hit = 0;
        for (int k = 0; k < 4 && !hit; k++) {
            size_t kl = strlen(key[k]);
            if (strncmp(word, key[k], kl) == 0) {
                n += (size_t)snprintf(buf + n, REF_ARG_MAX - n, "%s", val[k]);
                if (n >= REF_ARG_MAX)
                    n = REF_ARG_MAX - 1;
                word += kl;
                hit = 1;
            }
        }
        if (!hit)
            buf[n++] = *word++;
    }
    buf[n] = '\0';
}

/* The forfeit reason of a run that did not end with exit status 0. */
static void run_reason(const struct run_result *r, char *reason)
{
    switch (r->end) {
    case RUN_TIMEOUT:
        strcpy(reason, "timeout");
        break;
    case RUN_CPU_LIMIT:
        strcpy(reason, "cpu-limit");
        break;
    case RUN_MEM_LIMIT:
        strcpy(reason, "memory-limit");
        break;
    case RUN_FILE_LIMIT:
        strcpy(reason, "file-limit");
        break;
    case RUN_SIGNALED: {
        const char *abbrev = sigabbrev_np(r->signal);
        if (abbrev)
            snprintf(reason, REF_REASON_MAX, "crashed: SIG%s", abbrev);
        else
            snprintf(reason, REF_REASON_MAX, "crashed: signal %d", r->signal);
        break;
    }
    case RUN_EXEC_FAILED:
        strcpy(reason, "cannot-run");
        break;
    case RUN_CANCELLED:
        strcpy(reason, "cancelled");
        break;
    case RUN_EXITED:
        snprintf(reason, REF_REASON_MAX, "exit-status %d", r->status);
        break;
    }
}

/* Reads the engine's output file through the game folder's descriptor:
 * never through a symlink (O_NOFOLLOW), never from a FIFO or a device
 * (O_NONBLOCK: opening one cannot block, and it is no regular file), at most
 * REF_OUTPUT_CAP bytes into buf (REF_OUTPUT_CAP + 2 bytes, NUL-terminated).
 * Returns the length, or -1 with the forfeit reason. */
static long read_output(int dir_fd, char *buf, char *reason)
{
    int fd = openat(dir_fd, OUT_NAME, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
        strcpy(reason, errno == ENOENT ? "no-output" : "unreadable");
        return -1;
    }
    struct stat st;
    long n = -1;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        strcpy(reason, "unreadable");
    } else if (st.st_size > REF_OUTPUT_CAP) {
        strcpy(reason, "oversized");
    } else {
        ssize_t r;
        n = 0;
        /* One byte past the cap, so a file that grew is noticed. */
        while ((r = read(fd, buf + n, (size_t)(REF_OUTPUT_CAP + 1 - n))) > 0 ||
               (r < 0 && errno == EINTR))
            n += r > 0 ? r : 0;
        if (r < 0 || n > REF_OUTPUT_CAP) {
            strcpy(reason, r < 0 ? "unreadable" : "oversized");
            n = -1;
        } else {
            buf[n] = '\0';
        }
    }
    close(fd);
    return n;
}

/* Judges the engine's output text: 0 with *move set, or -1 with the
 * forfeit reason. */
static int judge(const struct game *g, const void *before, const char *text, size_t len,
                 int *move, char *reason)
{
    unsigned char after[GAME_MAX_STATE];
    struct err e;
    if (g->parse(after, text, len, &e) != 0) {
        strcpy(reason, "unreadable");
        return -1;
    }
    int moves[GAME_MAX_MOVES];
    int n = g->gen(before, moves);
    for (int i = 0; i < n; i++) {
        unsigned char child[GAME_MAX_STATE];
        memcpy(child, before, g->state_size);
        g->play(child, moves[i]);
        if (memcmp(child, after, g->state_size) == 0) {
            *move = moves[i];
            return 0;
        }
    }
    const char *why = g->explain ? g->explain(before, after)
                      : g->to_move(after) == g->to_move(before) ? "wrong-player"
                                                               : "illegal-move";
    snprintf(reason, REF_REASON_MAX, "%s", why);
    return -1;
}

/* 1 when the engine's output file reached RLIMIT_FSIZE: whatever its exit
 * status says (Python ignores SIGXFSZ and fails with EFBIG), the limit is
 * why it failed. */
static int at_file_limit(int dir_fd, const struct run_limits *l)
{
    struct stat st;
    return l->file_limit_kb > 0 && fstatat(dir_fd, OUT_NAME, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
           S_ISREG(st.st_mode) && st.st_size >= l->file_limit_kb * 1024;
}

/* Copies the first n bytes of the file from (read at offsets, its position
 * unchanged) to the end of to. 0, or -1 with errno. */
static int copy_head(int from, long long n, int to)
{
    char buf[8192];
    for (long long off = 0; off < n;) {
        size_t want = n - off < (long long)sizeof buf ? (size_t)(n - off) : sizeof buf;
        ssize_t got = pread(from, buf, want, off);
        if (got == 0)
            errno = EIO;   /* the copy is shorter than the runner said */
        if (got <= 0 || tf_write_all(to, buf, (size_t)got) != 0)
            return -1;
        off += got;
    }
    return 0;
}

/* Appends a move's stderr (the run's copy in sink) to path under a header,
 * in one locked piece: an engine's file is shared by its games, which a
 * tournament plays at once. */
static int append_stderr(const char *path, const char *header, int sink,
                         const struct run_result *run, struct err *e)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0)
        return err_set(e, 0, 0, "stderr=%s: %s", path, strerror(errno));
    flock(fd, LOCK_EX);
    char cut[64] = "";
    if (run->err.total > run->err_copied)
        snprintf(cut, sizeof cut, "[%lld more bytes not kept]\n",
                 run->err.total - run->err_copied);
    int rc = tf_write_all(fd, header, strlen(header)) != 0 ||
             copy_head(sink, run->err_copied, fd) != 0 || tf_write_all(fd, cut, strlen(cut)) != 0;
    if (rc)
        err_set(e, 0, 0, "stderr=%s: %s", path, strerror(errno));
    close(fd);   /* and the lock with it */
    return rc ? -1 : 0;
}

/* Plays the book line's moves from the start; 0, or -1 with e at the bad
 * move (column counted in line). Like a random opening, a book line must
 * leave a game to play: a line whose last move ends the game is refused. */
static int play_line(const struct game *g, const char *line, int lineno, void *pos,
                     struct cJSON *list, struct err *e)
{
    g->init(pos);
    const char *p = line, *last = NULL;
    for (;;) {
        while (*p == ' ' || *p == '\t')
            p++;
        if (!*p)
            return last && game_result(g, pos) >= 0
                       ? err_set(e, lineno, (int)(last - line) + 1,
                                 "the opening ends the game: no move is left to play")
                       : 0;
        last = p;
        size_t n = strcspn(p, " \t");
        char text[GAME_MOVE_TEXT_MAX];
        int move;
        if (n >= sizeof text)
            return err_set(e, lineno, (int)(p - line) + 1, "move '%.*s' is too long", (int)n, p);
        memcpy(text, p, n);
        text[n] = '\0';
        if (game_result(g, pos) >= 0)
            return err_set(e, lineno, (int)(p - line) + 1, "the game is over before '%s'", text);
        if (g->parse_move(pos, text, &move) != 0)
            return err_set(e, lineno, (int)(p - line) + 1, "'%s' is not a legal move here", text);
        g->play(pos, move);
        if (list)
            cJSON_AddItemToArray(list, cJSON_CreateString(text));
        p += n;
    }
}

int ref_book_parse(const struct game *g, char *text, size_t len, struct ref_book *b,
                   struct err *e)
{
    memset(b, 0, sizeof *b);
    const char *nul = memchr(text, '\0', len);
    if (nul) {
        int line, col;
        tf_place(text, nul, &line, &col);
        return err_set(e, line, col, "NUL byte in a text file");
    }
    int rc = 0, lineno = 0;
    /* Lines are split by hand: strtok would merge empty lines and lose the
     * line numbers errors need. */
    for (char *p = text; !rc && p < text + len; lineno++) {
        char *end = p + strcspn(p, "\r\n");
        char *next = end;
        if (*next == '\r' && next[1] == '\n')
            next++;
        if (*next)
            next++;
        *end = '\0';
        const char *q = p + strspn(p, " \t");
        if (*q && *q != '#') {
            unsigned char pos[GAME_MAX_STATE];
            char **grown = realloc(b->line, (size_t)(b->n + 1) * sizeof *grown);
            if (!grown) {
                rc = err_set(e, lineno + 1, 1, "out of memory");
            } else {
                b->line = grown;
                if (play_line(g, p, lineno + 1, pos, NULL, e) != 0)
                    rc = -1;
                else if (!(b->line[b->n] = strdup(p)))
                    rc = err_set(e, lineno + 1, 1, "out of memory");
                else
                    b->n++;
            }
        }
        p = next;
    }
    if (!rc && b->n == 0)
        rc = err_set(e, 0, 0, "no opening in the book");
    if (rc)
        ref_book_free(b);
    return rc;
}

int ref_book_read(const struct game *g, const char *path, struct ref_book *b, struct err *e)
{
    memset(b, 0, sizeof *b);
    char *text;
    size_t len;
    if (tf_read(path, BOOK_CAP, &text, &len, e) != 0)
        return -1;
    int rc = ref_book_parse(g, text, len, b, e);
    free(text);
    return rc;
}

void ref_book_free(struct ref_book *b)
{
    for (int i = 0; i < b->n; i++)
        free(b->line[i]);
    free(b->line);
    b->line = NULL;
    b->n = 0;
}

void ref_opening(const struct ref_rules *r, long pair, void *pos, struct cJSON *list)
{
    const struct game *g = r->game;
    if (r->book) {
        struct err e;
        play_line(g, r->book->line[pair % r->book->n], 0, pos, list, &e);
        return;
    }
    struct rng rng;
    rng_seed(&rng, r->seed + (uint64_t)pair);
    g->init(pos);
    for (int p = 0; p < r->random_plies; p++) {
        int moves[GAME_MAX_MOVES];
        int n = g->gen(pos, moves);
        if (n == 0)
            return;
        unsigned char child[GAME_MAX_STATE];
        int played, tries = 0;
        do {
            played = moves[rng_below(&rng, (uint32_t)n)];
            memcpy(child, pos, g->state_size);
            g->play(child, played);
        } while (game_result(g, child) >= 0 && ++tries < OPENING_TRIES);
        if (game_result(g, child) >= 0)
            return;
        char text[GAME_MOVE_TEXT_MAX];
        g->move_text(pos, played, text, sizeof text);
        cJSON_AddItemToArray(list, cJSON_CreateString(text));
        memcpy(pos, child, g->state_size);
    }
}

static cJSON *move_json(int ply, int side, const char *engine, const char *move,
                        const struct run_result *r, double referee_ms, const char *status)
{
    cJSON *m = cJSON_CreateObject();
    cJSON_AddNumberToObject(m, "ply", ply);
    cJSON_AddNumberToObject(m, "side", side);
    cJSON_AddStringToObject(m, "engine", engine);
    if (move)
        cJSON_AddStringToObject(m, "move", move);
    else
        cJSON_AddNullToObject(m, "move");
    cJSON_AddNumberToObject(m, "cpu_user_ms", r->cpu_user_ms);
    cJSON_AddNumberToObject(m, "cpu_sys_ms", r->cpu_sys_ms);
    cJSON_AddNumberToObject(m, "wall_ms", r->wall_ms);
    cJSON_AddNumberToObject(m, "max_rss_kb", (double)r->max_rss_kb);
    cJSON_AddNumberToObject(m, "referee_ms", referee_ms);
    cJSON_AddStringToObject(m, "status", status);
    return m;
}

/* The folder that keeps the game's files, DIR/game-I, emptied first: a
 * resumed tournament replays an unfinished game. */
static int keep_folder(const struct ref_rules *r, long index, char *dir, size_t cap,
                       struct err *e)
{
    snprintf(dir, cap, "%s/game-%ld", r->keep_dir, index);
    tf_remove_tree(dir);
    if (mkdir(r->keep_dir, 0700) != 0 && errno != EEXIST)
        return err_set(e, 0, 0, "cannot create %s: %s", r->keep_dir, strerror(errno));
    if (mkdir(dir, 0700) != 0)
        return err_set(e, 0, 0, "cannot create %s: %s", dir, strerror(errno));
    return 0;
}

/* The engines' folder for one game (mkdtemp, 0700). The referee holds it
 * open and reads and writes through that descriptor, and before every move
 * makes sure that the path still names it and that neither in.txt nor
 * out.txt is there, so nothing the last engine left (a symlink or a folder
 * where in.txt goes, a renamed, replaced or deleted folder) reaches the
 * referee's own writes or the next move. One folder per game rather than
 * per move: removing a folder costs milliseconds on some file systems. */
struct game_dir {
    char path[PATH_MAX - PLY_NAME_MAX];
    int fd;
};

/* 1 when path (not followed if a symlink) is the folder open as dir_fd. */
static int names_folder(const char *path, int dir_fd)
{
    struct stat at_path, ours;
    return lstat(path, &at_path) == 0 && fstat(dir_fd, &ours) == 0 &&
           S_ISDIR(at_path.st_mode) && at_path.st_dev == ours.st_dev &&
           at_path.st_ino == ours.st_ino;
}

static int game_dir_open(struct game_dir *d, struct err *e)
{
    const char *tmp = getenv("TMPDIR");
    const char *base = tmp && *tmp ? tmp : "/tmp";
    snprintf(d->path, sizeof d->path, "%s/arena-game-XXXXXX", base);
    if (!mkdtemp(d->path))
        return err_set(e, 0, 0, "cannot create a game folder in %s: %s", base, strerror(errno));
    /* Engines run in their own folder: {in} and {out} must be absolute. */
    char abs[PATH_MAX];
    if (d->path[0] != '/' && realpath(d->path, abs) && strlen(abs) < sizeof d->path)
        strcpy(d->path, abs);
    d->fd = open(d->path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (d->fd < 0) {
        int saved = errno;
        rmdir(d->path);
        return err_set(e, 0, 0, "cannot open %s: %s", d->path, strerror(saved));
    }
    return 0;
}

/* Removes whatever is at the folder's path now (tf_remove_tree follows no
 * symlink, so a link an engine put there goes, not what it points to), and
 * the folder itself where an engine moved it: /proc names its path now, and
 * it goes only if that path still leads to our folder. */
static void game_dir_close(struct game_dir *d)
{
    tf_remove_tree(d->path);
    char fd_link[32], moved[PATH_MAX];
    snprintf(fd_link, sizeof fd_link, "/proc/self/fd/%d", d->fd);
    ssize_t n = readlink(fd_link, moved, sizeof moved - 1);
    if (n > 0) {
        moved[n] = '\0';
        if (names_folder(moved, d->fd))
            tf_remove_tree(moved);
    }
    close(d->fd);
}

/* Makes the folder ready for a move. No process of an engine runs now
 * (runner.h), so nothing changes it between these checks and the move. */
static int game_dir_reset(struct game_dir *d, struct err *e)
{
    if (!names_folder(d->path, d->fd)) {
        /* The last engine moved, removed or replaced it: a new one. */
        game_dir_close(d);
        return game_dir_open(d, e);
    }
    fchmod(d->fd, 0700);
    static const char *const names[] = { IN_NAME, OUT_NAME };
    for (int i = 0; i < 2; i++)
        if (unlinkat(d->fd, names[i], 0) != 0 && errno != ENOENT) {
            /* A folder (EISDIR) or anything else unlinkat cannot take. */
            char path[PATH_MAX];
            snprintf(path, sizeof path, "%s/%s", d->path, names[i]);
            tf_remove_tree(path);
        }
    return 0;
}

/* Writes text to name, a new file: in a folder of the referee's own,
 * O_EXCL and O_NOFOLLOW make sure it is no file of anyone else's. */
static int write_new(int dir_fd, const char *name, const char *text, size_t len)
{
    int fd = openat(dir_fd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0)
        return -1;
    int rc = tf_write_all(fd, text, len);
    int saved = errno;
    close(fd);
    errno = saved;
    return rc;
}

/* Keeps this ply's files in the game's keep folder: the board the engine
 * was given, the bytes the referee read from its output (no file when there
 * were none to read) and its stderr (sink's first err_len bytes; no file
 * when it wrote none). */
static int keep_ply(const char *dir, int ply, const char *board, size_t board_len,
                    const char *out, long out_len, int sink, long long err_len, struct err *e)
{
    int dir_fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir_fd < 0)
        return err_set(e, 0, 0, "cannot open %s: %s", dir, strerror(errno));
    char name[PLY_NAME_MAX];
    snprintf(name, sizeof name, "ply-%03d-in.txt", ply);
    int rc = write_new(dir_fd, name, board, board_len);
    if (rc == 0 && out_len >= 0) {
        snprintf(name, sizeof name, "ply-%03d-out.txt", ply);
        rc = write_new(dir_fd, name, out, (size_t)out_len);
    }
    if (rc == 0 && err_len > 0) {
        snprintf(name, sizeof name, "ply-%03d-err.txt", ply);
        int fd = openat(dir_fd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        rc = fd < 0 ? -1 : copy_head(sink, err_len, fd);
        if (fd >= 0) {
            int saved = errno;
            close(fd);
            errno = saved;
        }
    }
    if (rc != 0)
        err_set(e, 0, 0, "cannot write %s/%s: %s", dir, name, strerror(errno));
    close(dir_fd);
    return rc;
}

/* The file that gets each move's whole stderr from the runner, when the
 * engines' stderr= or --keep-files want it: in memory, emptied per move.
 * -1 when nobody does; -2 with e when it cannot be made. */
static int stderr_sink(const struct ref_rules *r, const struct ref_engine *const side[2],
                       struct err *e)
{
    if (!r->keep_dir && !side[0]->stderr_path && !side[1]->stderr_path)
        return -1;
    int fd = memfd_create("arena-stderr", MFD_CLOEXEC);
    if (fd < 0)
        err_set(e, 0, 0, "memfd_create: %s", strerror(errno));
    return fd < 0 ? -2 : fd;
}

int ref_play(const struct ref_rules *r, long index, long pair,
             const struct ref_engine *const side_engine[2], cJSON *gj, struct err *e)
{
    const struct game *g = r->game;
    char keep[PATH_MAX - PLY_NAME_MAX] = "";
    if (r->keep_dir && keep_folder(r, index, keep, sizeof keep, e) != 0)
        return -1;

    cJSON_AddNumberToObject(gj, "index", (double)index);
    cJSON_AddNumberToObject(gj, "pair", (double)pair);
    cJSON *players = cJSON_AddObjectToObject(gj, "players");
    cJSON_AddStringToObject(players, "1", side_engine[0]->name);
    cJSON_AddStringToObject(players, "2", side_engine[1]->name);
    unsigned char pos[GAME_MAX_STATE];
    ref_opening(r, pair, pos, cJSON_AddArrayToObject(gj, "opening"));
    cJSON *moves = cJSON_AddArrayToObject(gj, "moves");
    int sink = stderr_sink(r, side_engine, e);
    struct game_dir gd;
    if (sink == -2 || game_dir_open(&gd, e) != 0) {
        if (sink >= 0)
            close(sink);
        return -1;
    }

    int rc = REF_PLAYED, winner = -1, quiet = 0;
    char reason[REF_REASON_MAX] = "normal";
    for (int ply = 1; winner < 0; ply++) {
        if ((winner = game_result(g, pos)) >= 0)
            break;
        if (g->irreversible && r->draw_plies > 0 && quiet >= r->draw_plies) {
            winner = 0;
            strcpy(reason, "draw-rule");
            break;
        }
        uint64_t t0 = clock_wall_ns();
        int side = g->to_move(pos);
        const struct ref_engine *eng = side_engine[side - 1];
        if (game_dir_reset(&gd, e) != 0) {
            gd.fd = -1;
            rc = -1;
            break;
        }
        /* A plain write, not game_write_file's atomic one: the folder is
         * private and rewritten every ply, so a temporary file, fsync and
         * rename would only cost time. */
        char board[GAME_FORMAT_MAX];
        size_t board_len = g->format(pos, board);
        if (write_new(gd.fd, IN_NAME, board, board_len) != 0) {
            rc = err_set(e, 0, 0, "%s/%s: cannot write: %s", gd.path, IN_NAME, strerror(errno));
            break;
        }
        char in_path[PATH_MAX], out_path[PATH_MAX], player[4], depth[16];
        snprintf(depth, sizeof depth, "%d", eng->depth ? eng->depth : r->depth);
        snprintf(in_path, sizeof in_path, "%s/%s", gd.path, IN_NAME);
        snprintf(out_path, sizeof out_path, "%s/%s", gd.path, OUT_NAME);
        char args[RUN_MAX_ARGS][REF_ARG_MAX];
        char *argv[RUN_MAX_ARGS];
        snprintf(player, sizeof player, "%d", side);
        for (int i = 0; i < eng->argc; i++) {
            expand(eng->argv[i], args[i], in_path, out_path, depth, player);
            argv[i] = args[i];
        }
        argv[eng->argc] = NULL;
        struct run_result run;
        struct err re;
        int copy = eng->stderr_path || r->keep_dir ? sink : -1;
        if (copy >= 0 && (lseek(copy, 0, SEEK_SET) != 0 || ftruncate(copy, 0) != 0)) {
            rc = err_set(e, 0, 0, "the stderr copy: %s", strerror(errno));
            break;
        }
        if (run_engine(argv, eng->dir, &r->limits, copy, &run, &re) != 0) {
            rc = err_set(e, 0, 0, "%s", re.msg);
            break;
        }
        if (run.end == RUN_CANCELLED) {
            rc = REF_CANCELLED;
            break;
        }
        /* Every process of the engine is gone by now (runner.h), so what
         * is read is what it left, and nothing changes it any more. */
        char why[REF_REASON_MAX] = "", out[REF_OUTPUT_CAP + 2];
        int move = -1, ran_ok = run.end == RUN_EXITED && run.status == 0;
        long out_len = ran_ok || r->keep_dir ? read_output(gd.fd, out, why) : -1;
        if (!ran_ok)
            run_reason(&run, why);
        else if (out_len >= 0)
            judge(g, pos, out, (size_t)out_len, &move, why);
        if (why[0] && (run.end == RUN_EXITED || run.end == RUN_SIGNALED) &&
            at_file_limit(gd.fd, &r->limits))
            strcpy(why, "file-limit");
        char text[GAME_MOVE_TEXT_MAX] = "";
        if (!why[0])
            g->move_text(pos, move, text, sizeof text);
        /* The referee's own share of the ply: everything but the engine. */
        double referee_ms = (double)(clock_wall_ns() - t0) / NS_PER_MS - run.wall_ms;
        cJSON_AddItemToArray(moves, move_json(ply, side, eng->name, why[0] ? NULL : text, &run,
                                              referee_ms, why[0] ? why : "ok"));
        if (r->keep_dir && keep_ply(keep, ply, board, board_len, out, out_len, sink,
                                    run.err_copied, e) != 0) {
            rc = -1;
            break;
        }
        if (eng->stderr_path) {
            char header[REF_NAME_MAX + REF_REASON_MAX + 64];
            snprintf(header, sizeof header, "--- game %ld, ply %d, %s (player %d): %s ---\n",
                     index, ply, eng->name, side, why[0] ? why : "ok");
            if (append_stderr(eng->stderr_path, header, sink, &run, e) != 0) {
                rc = -1;
                break;
            }
        }
        if (why[0]) {
            winner = 3 - side;
            strcpy(reason, why);
            break;
        }
        quiet = g->irreversible && g->irreversible(pos, move) ? 0 : quiet + 1;
        g->play(pos, move);
    }
    if (gd.fd >= 0)
        game_dir_close(&gd);
    if (sink >= 0)
        close(sink);
    if (rc != REF_PLAYED)
        return rc;
    cJSON_AddStringToObject(gj, "result", winner == 1 ? "1-0" : winner == 2 ? "0-1" : "1/2-1/2");
    if (winner)
        cJSON_AddStringToObject(gj, "winner", side_engine[winner - 1]->name);
    else
        cJSON_AddNullToObject(gj, "winner");
    cJSON_AddStringToObject(gj, "reason", reason);
    if (r->analyze) {
        struct analyzer an;
        if (ana_init(&an, g, r->analyze, e) != 0)
            return -1;
        rc = ana_game(&an, gj, e);
        ana_free(&an);
        if (rc != 0)
            return -1;
    }
    return REF_PLAYED;
}

static const char *str_field(const cJSON *obj, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    return cJSON_IsString(v) ? v->valuestring : "?";
}

void ref_print_result(FILE *out, const cJSON *gj)
{
    const cJSON *players = cJSON_GetObjectItemCaseSensitive(gj, "players");
    const char *p1 = str_field(players, "1"), *p2 = str_field(players, "2");
    const char *result = str_field(gj, "result"), *reason = str_field(gj, "reason");
    const cJSON *index = cJSON_GetObjectItemCaseSensitive(gj, "index");
    int winner = strcmp(result, "1-0") == 0 ? 1 : strcmp(result, "0-1") == 0 ? 2 : 0;
    fprintf(out, "Finished game %ld (%s vs %s): %s {", (long)cJSON_GetNumberValue(index), p1, p2,
            result);
    if (strcmp(reason, "normal") == 0)
        fprintf(out, "%s}\n", winner ? (winner == 1 ? "player 1 wins" : "player 2 wins") : "draw");
    else if (strcmp(reason, "draw-rule") == 0)
        fprintf(out, "draw by the no-progress rule}\n");
    else
        fprintf(out, "%s forfeits: %s}\n", winner == 1 ? p2 : p1, reason);
    if (cJSON_GetObjectItemCaseSensitive(gj, "analysis"))
        ana_print_game(out, gj);
}

cJSON *ref_engine_json(const struct ref_engine *eng)
{
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "name", eng->name);
    cJSON *cmd = cJSON_AddArrayToObject(j, "cmd");
    for (int i = 0; i < eng->argc; i++)
        cJSON_AddItemToArray(cmd, cJSON_CreateString(eng->argv[i]));
    cJSON_AddStringToObject(j, "dir", eng->dir);
    if (eng->depth)
        cJSON_AddNumberToObject(j, "depth", eng->depth);
    if (eng->sha256[0])
        cJSON_AddStringToObject(j, "sha256", eng->sha256);
    else
        cJSON_AddNullToObject(j, "sha256");
    return j;
}

void ref_rules_to_json(const struct ref_rules *r, cJSON *obj)
{
    cJSON_AddStringToObject(obj, "game", r->game->name);
    cJSON_AddNumberToObject(obj, "depth", r->depth);
    cJSON_AddNumberToObject(obj, "seed", (double)r->seed);
    cJSON_AddNumberToObject(obj, "random_plies", r->book ? 0 : r->random_plies);
    if (r->book) {
        cJSON *book = cJSON_AddArrayToObject(obj, "openings");
        for (int i = 0; i < r->book->n; i++)
            cJSON_AddItemToArray(book, cJSON_CreateString(r->book->line[i]));
    } else {
        cJSON_AddNullToObject(obj, "openings");
    }
    cJSON_AddNumberToObject(obj, "draw_plies", r->game->irreversible ? r->draw_plies : 0);
    if (r->analyze) {
        cJSON *an = cJSON_AddObjectToObject(obj, "analyze");
        cJSON_AddNumberToObject(an, "budget_ms", (double)r->analyze->budget_ms);
        cJSON_AddNumberToObject(an, "max_empty", r->analyze->max_empty);
    }
    cJSON *lim = cJSON_AddObjectToObject(obj, "limits");
    cJSON_AddNumberToObject(lim, "timeout_ms", (double)r->limits.timeout_ms);
    cJSON_AddNumberToObject(lim, "cpu_limit_s", (double)r->limits.cpu_limit_s);
    cJSON_AddNumberToObject(lim, "mem_limit_mb", (double)r->limits.mem_limit_mb);
    cJSON_AddNumberToObject(lim, "file_limit_kb", (double)r->limits.file_limit_kb);
}
