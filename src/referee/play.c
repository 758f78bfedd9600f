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
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "arena/analyze.h"
#include "arena/clock.h"
#include "arena/match.h"
#include "arena/rng.h"
#include "arena/textfile.h"

#define REF_ARG_MAX    PATH_MAX
#define REF_FD_LIMIT   16
#define OPENING_TRIES  64
#define BOOK_CAP       (1 << 20)   /* bytes of an opening book */
#define PLY_NAME_MAX   32
#define NS_PER_MS      1e6

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

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    remove(path);
    return 0;
}

static void remove_tree(const char *dir)
{
    nftw(dir, rm_entry, REF_FD_LIMIT, FTW_DEPTH | FTW_PHYS);
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

/* Reads and judges the engine's output file: 0 with *move set, or -1 with
 * the forfeit reason. */
static int judge(const struct game *g, const void *before, const char *out_path, int *move,
                 char *reason)
{
    struct stat st;
    if (lstat(out_path, &st) != 0) {
        strcpy(reason, "no-output");
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        strcpy(reason, "unreadable");
        return -1;
    }
    if (st.st_size > REF_OUTPUT_CAP) {
        strcpy(reason, "oversized");
        return -1;
    }
    unsigned char after[GAME_MAX_STATE];
    struct err e;
    if (game_read_file(g, out_path, after, &e) != 0) {
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

/* Plays the book line's moves from the start; 0, or -1 with e at the bad
 * move (column counted in line). */
static int play_line(const struct game *g, const char *line, int lineno, void *pos,
                     struct cJSON *list, struct err *e)
{
    g->init(pos);
    const char *p = line;
    for (;;) {
        while (*p == ' ' || *p == '\t')
            p++;
        if (!*p)
            return 0;
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

int ref_book_read(const struct game *g, const char *path, struct ref_book *b, struct err *e)
{
    memset(b, 0, sizeof *b);
    char *text;
    size_t len;
    if (tf_read(path, BOOK_CAP, &text, &len, e) != 0)
        return -1;
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
    free(text);
    if (!rc && b->n == 0)
        rc = err_set(e, 0, 0, "no opening in the book");
    if (rc)
        ref_book_free(b);
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

/* The game's folder: a fresh private one, or DIR/game-I when files are kept
 * (emptied first: a resumed tournament replays an unfinished game). */
static int game_folder(const struct ref_rules *r, long index, char *dir, size_t cap,
                       struct err *e)
{
    if (r->keep_dir) {
        snprintf(dir, cap, "%s/game-%ld", r->keep_dir, index);
        remove_tree(dir);
        if (mkdir(r->keep_dir, 0700) != 0 && errno != EEXIST)
            return err_set(e, 0, 0, "cannot create %s: %s", r->keep_dir, strerror(errno));
        if (mkdir(dir, 0700) != 0)
            return err_set(e, 0, 0, "cannot create %s: %s", dir, strerror(errno));
        return 0;
    }
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, cap, "%s/arena-game-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir))
        return err_set(e, 0, 0, "cannot create a game folder in %s: %s",
                       tmp && *tmp ? tmp : "/tmp", strerror(errno));
    return 0;
}

/* Writes the position's board file for the engine. A plain write, not
 * game_write_file's atomic one: the folder is private and rewritten every
 * ply, so the temporary file, fsync and rename would only cost time. */
static int write_board(const struct game *g, const char *path, const void *pos)
{
    char text[GAME_FORMAT_MAX];
    size_t len = g->format(pos, text);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0)
        return -1;
    ssize_t w = write(fd, text, len);
    int saved = errno;
    close(fd);
    errno = saved;
    return w == (ssize_t)len ? 0 : -1;
}

/* Keeps this ply's files under names of their own. */
static void keep_ply(const char *dir, int ply, const char *in_path, const char *out_path)
{
    char name[PATH_MAX];
    snprintf(name, sizeof name, "%s/ply-%03d-in.txt", dir, ply);
    rename(in_path, name);
    snprintf(name, sizeof name, "%s/ply-%03d-out.txt", dir, ply);
    rename(out_path, name);
}

int ref_play(const struct ref_rules *r, long index, long pair,
             const struct ref_engine *const side_engine[2], cJSON *gj, struct err *e)
{
    const struct game *g = r->game;
    char dir[PATH_MAX - PLY_NAME_MAX];
    if (game_folder(r, index, dir, sizeof dir, e) != 0)
        return -1;
    char in_path[PATH_MAX], out_path[PATH_MAX], depth[16];
    snprintf(in_path, sizeof in_path, "%s/in.txt", dir);
    snprintf(out_path, sizeof out_path, "%s/out.txt", dir);
    snprintf(depth, sizeof depth, "%d", r->depth);

    cJSON_AddNumberToObject(gj, "index", (double)index);
    cJSON_AddNumberToObject(gj, "pair", (double)pair);
    cJSON *players = cJSON_AddObjectToObject(gj, "players");
    cJSON_AddStringToObject(players, "1", side_engine[0]->name);
    cJSON_AddStringToObject(players, "2", side_engine[1]->name);
    unsigned char pos[GAME_MAX_STATE];
    ref_opening(r, pair, pos, cJSON_AddArrayToObject(gj, "opening"));
    cJSON *moves = cJSON_AddArrayToObject(gj, "moves");

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
        if (write_board(g, in_path, pos) != 0) {
            rc = err_set(e, 0, 0, "%s: cannot write: %s", in_path, strerror(errno));
            break;
        }
        unlink(out_path);
        char player[4], args[RUN_MAX_ARGS][REF_ARG_MAX];
        char *argv[RUN_MAX_ARGS];
        snprintf(player, sizeof player, "%d", side);
        for (int i = 0; i < eng->argc; i++) {
            expand(eng->argv[i], args[i], in_path, out_path, depth, player);
            argv[i] = args[i];
        }
        argv[eng->argc] = NULL;
        struct run_result run;
        struct err re;
        if (run_engine(argv, dir, &r->limits, &run, &re) != 0) {
            rc = err_set(e, 0, 0, "%s", re.msg);
            break;
        }
        if (run.end == RUN_CANCELLED) {
            rc = REF_CANCELLED;
            break;
        }
        char why[REF_REASON_MAX] = "";
        int move = -1;
        if (run.end != RUN_EXITED || run.status != 0)
            run_reason(&run, why);
        else
            judge(g, pos, out_path, &move, why);
        char text[GAME_MOVE_TEXT_MAX] = "";
        if (!why[0])
            g->move_text(pos, move, text, sizeof text);
        /* The referee's own share of the ply: everything but the engine. */
        double referee_ms = (double)(clock_wall_ns() - t0) / NS_PER_MS - run.wall_ms;
        cJSON_AddItemToArray(moves, move_json(ply, side, eng->name, why[0] ? NULL : text, &run,
                                              referee_ms, why[0] ? why : "ok"));
        if (r->keep_dir)
            keep_ply(dir, ply, in_path, out_path);
        if (why[0]) {
            winner = 3 - side;
            strcpy(reason, why);
            break;
        }
        quiet = g->irreversible && g->irreversible(pos, move) ? 0 : quiet + 1;
        g->play(pos, move);
    }
    if (!r->keep_dir)
        remove_tree(dir);
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
