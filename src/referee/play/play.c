/*
 * play.c - one game between two engines through board files (play.h).
 *
 * The referee keeps the position itself and only ever accepts an engine's
 * file when it is the position plus one legal move (rules_judge), so
 * nothing an engine writes can change the game in any other way. The
 * record (record.h) is filled as the game goes, so a match log, a
 * tournament worker's answer and a journal line are one format.
 */
#define _GNU_SOURCE
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <unistd.h>
#include "arena/analyze.h"
#include "arena/clock.h"
#include "arena/cgroup.h"
#include "arena/cpus.h"
#include "arena/escape.h"
#include "arena/forfeit.h"
#include "referee/run/gamedir.h"
#include "referee/journal/header.h"
#include "referee/run/launcher.h"
#include "referee/judge/judge.h"
#include "referee/run/persist.h"
#include "arena/play.h"
#include "arena/rng.h"
#include "arena/rules.h"
#include "arena/sandbox.h"
#include "arena/textfile.h"

#define ARG_MAX_BYTES  PATH_MAX    /* an expanded argument: paths are the longest */
#define OPENING_TRIES  64          /* draws of a random ply before the opening stops short */
#define NS_PER_MS      1e6

int play_opening(const struct play_rules *r, long pair, void *pos, struct game_record *rec)
{
    const struct game *g = r->game;
    struct err e;
    if (r->book)
        return rules_play_line(g, r->book->line[pair % r->book->n], 0, pos, rec, &e);
    struct rng rng;
    rng_seed(&rng, r->seed + (uint64_t)pair);
    game_init(g, pos);
    for (int p = 0; p < r->random_plies; p++) {
        int moves[GAME_MAX_MOVES];
        int n = g->gen(pos, moves);
        if (n == 0)
            return 0;
        unsigned char child[GAME_MAX_STATE];
        int played, tries = 0;
        do {
            played = moves[rng_below(&rng, (uint32_t)n)];
            memcpy(child, pos, g->state_size);
            g->play(child, played);
        } while (game_result(g, child) >= 0 && ++tries < OPENING_TRIES);
        if (game_result(g, child) >= 0)
            return 0;
        char text[GAME_MOVE_TEXT_MAX];
        g->move_text(pos, played, text, sizeof text);
        if (rec_add_opening(rec, text) != 0)
            return -1;
        memcpy(pos, child, g->state_size);
    }
    return 0;
}


/* A run's output tail as a record's text (valid UTF-8, no NUL), malloc'd;
 * NULL when the engine wrote nothing there (or out of memory: the record
 * then lacks it, the game is not lost over it). */
static char *tail_text(const struct run_tail *t)
{
    char *text = t->len ? malloc(t->len + 1) : NULL;
    if (text)
        tf_utf8_copy(text, t->text, t->len);
    return text;
}

/* Records a ply: move is "" on a forfeit, status "ok" or the reason; a
 * forfeit keeps what the engine last wrote. */
static int add_ply(struct game_record *rec, int ply, int side, const char *engine,
                   const char *move, const struct run_result *r, double referee_ms,
                   double clock_ms, const char *status, const char *hint)
{
    struct rec_move m;
    rec_move_init(&m);
    m.ply = ply;
    m.side = side;
    snprintf(m.engine, sizeof m.engine, "%s", engine);
    snprintf(m.move, sizeof m.move, "%s", move);
    m.cpu_user_ms = r->cpu_user_ms;
    m.cpu_sys_ms = r->cpu_sys_ms;
    m.wall_ms = r->wall_ms;
    m.max_rss_kb = (double)r->max_rss_kb;
    m.referee_ms = referee_ms;
    m.clock_ms = clock_ms;
    snprintf(m.status, sizeof m.status, "%s", status);
    m.has = REC_HAS_ENGINE | REC_HAS_MOVE | REC_HAS_STATUS;
    if (strcmp(status, "ok") != 0) {
        m.stdout_tail = tail_text(&r->out);
        m.stderr_tail = tail_text(&r->err);
    }
    if (hint[0] && m.stderr_tail) {
        /* On the engine's last line, where the forfeit line shows it. */
        size_t n = strlen(m.stderr_tail);
        while (n > 0 && m.stderr_tail[n - 1] == '\n')
            n--;
        char *with = malloc(n + strlen(hint) + 2);
        if (with) {
            sprintf(with, "%.*s%s\n", (int)n, m.stderr_tail, hint);
            free(m.stderr_tail);
            m.stderr_tail = with;
        }
    }
    return rec_add_move(rec, &m);
}

/* The file that gets each move's whole stderr from the runner, when the
 * engines' stderr= or --keep-files want it: in memory, emptied per move.
 * -1 when nobody does; -2 with e when it cannot be made. */
static int stderr_sink(const struct play_rules *r, const struct spec *const side[2],
                       struct err *e)
{
    if (!r->keep_dir && !side[0]->stderr_path && !side[1]->stderr_path)
        return -1;
    int fd = memfd_create("arena-stderr", MFD_CLOEXEC);
    if (fd < 0)
        err_set(e, 0, 0, "memfd_create: %s", strerror(errno));
    return fd < 0 ? -2 : fd;
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
             tf_copy_head(sink, run->err_copied, fd) != 0 ||
             tf_write_all(fd, cut, strlen(cut)) != 0;
    if (rc)
        err_set(e, 0, 0, "stderr=%s: %s", path, strerror(errno));
    close(fd);   /* and the lock with it */
    return rc ? -1 : 0;
}

/* The clock as engines are told it ({time}, TIME_LEFT_MS): whole ms, never
 * more than is left; 0 without a clock. */
static long clock_text_ms(const struct play_rules *r, double clock_ms)
{
    return r->tc.base_ms > 0 ? (long)floor(clock_ms) : 0;
}

/* The limits of a move with clock_ms on the engine's clock: with a clock,
 * the wall deadline is never tighter than the clock left plus
 * PLAY_TC_WALL_MARGIN_MS, so that an engine loses on its clock, not on the
 * wall (play.h). */
static struct run_limits move_limits(const struct play_rules *r, double clock_ms)
{
    struct run_limits l = r->limits;
    l.spare = judge_pid(r->judge);   /* a sweep after the move spares it */
    if (r->tc.base_ms > 0) {
        long follow = (long)ceil(clock_ms) + PLAY_TC_WALL_MARGIN_MS;
        if (l.timeout_ms < follow)
            l.timeout_ms = follow;
    }
    return l;
}

/* Charges a move's CPU time to *clock_ms (NAN: no clock): "out-of-time"
 * into why when it falls below zero, whatever else went wrong (the clock is
 * what ran out first); the increment is added after a move played. */
static void charge_clock(const struct play_rules *r, double *clock_ms,
                         const struct run_result *run, char *why)
{
    if (isnan(*clock_ms))
        return;
    double before = *clock_ms, cpu = run->cpu_user_ms + run->cpu_sys_ms;
    *clock_ms -= cpu;
    if (*clock_ms < 0)
        snprintf(why, REC_REASON_MAX,
                 "out-of-time: used %.0f ms of CPU time with %.0f ms on its clock (--tc)", cpu,
                 before);
    else if (!why[0])
        *clock_ms += (double)r->tc.inc_ms;
}

/* On a terminal, while an engine thinks: which move is awaited and for how
 * long at most, so that a hung engine is not a silent referee. Cleared
 * (done) before anything else is printed. */
static void show_waiting(const struct play_rules *r, const struct run_limits *l, long game,
                         int ply, const char *name, int side, int done)
{
    if (!r->show_waiting)
        return;
    char shown[ESC_ROOM(REC_NAME_MAX)];   /* as the terminal shows it (escape.h) */
    if (done)
        fputs("\r\033[K", stderr);
    else
        fprintf(stderr, "\r\033[Kgame %ld, ply %d: waiting for %s (player %d), at most %ld ms "
                "(--timeout-ms)", game, ply, esc_text(name, shown, sizeof shown), side,
                l->timeout_ms);
    fflush(stderr);
}

/* What a ply needs besides its position: the sides' move folders, the
 * game's launcher (its sandbox, or the plain runner), keep folder and stderr
 * sink, when the referee's share of the ply began (the first ply's counts
 * opening the sandbox), the clocks and the launchers of the engines that
 * stay. */
struct ply_ctx {
    struct gamedir gd[2];        /* each side's move folder: its own */
    struct launcher lnc;
    struct sbx *box;             /* the launcher's sandbox; NULL: none */
    int sandboxed;               /* the rules want a sandbox: lnc's, or each
                                  * engine that stays has its own */
    const char *keep;            /* NULL: not keeping */
    int sink;                    /* stderr_sink's; -1: none */
    uint64_t t0;
    double clock[2];             /* each side's game clock, ms; NAN: none */
    struct launcher stay[2];     /* each side's when its engine stays for the
                                  * game (persist.h); ops NULL: a file engine */
    int one_engine;              /* 1: one engine plays both sides (play_solo):
                                  * one process, stay[0] */
};

/* The launcher of side (1 or 2)'s moves. */
static struct launcher *side_launcher(struct ply_ctx *c, int side)
{
    struct launcher *stay = &c->stay[c->one_engine ? 0 : side - 1];
    return stay->ops ? stay : &c->lnc;
}

/* The move folder of side (1 or 2): its own, but an engine that stays and
 * plays both sides (play_solo) has one, side 1's: its sandbox's. */
static int side_folder(const struct ply_ctx *c, int side)
{
    return c->one_engine && c->stay[0].ops ? 0 : side - 1;
}

/* The sandbox side (1 or 2)'s engine runs in, its view in *view: an engine
 * that stays has its own (view 0); NULL: none. */
static struct sbx *side_sandbox(struct ply_ctx *c, int side, int *view)
{
    struct launcher *l = side_launcher(c, side);
    *view = l == &c->lnc ? side - 1 : 0;
    return l == &c->lnc ? c->box : persist_sandbox(l);
}

/* A move's words: its placeholders' values and its command expanded. */
struct move_words {
    char in_path[PATH_MAX], out_path[PATH_MAX], player[4], depth[16], time[24], inc[24];
    char args[RUN_MAX_ARGS][ARG_MAX_BYTES];
    char *argv[RUN_MAX_ARGS];
};

/* Fills w for eng's move as side (1 or 2) in c's folder with clock_ms on
 * its clock. */
static void expand_move(const struct play_rules *r, const struct ply_ctx *c,
                        const struct spec *eng, int side, double clock_ms, struct move_words *w)
{
    const char *folder = c->gd[side_folder(c, side)].path;
    snprintf(w->in_path, sizeof w->in_path, "%s/%s", folder, GAMEDIR_IN);
    snprintf(w->out_path, sizeof w->out_path, "%s/%s", folder, GAMEDIR_OUT);
    snprintf(w->player, sizeof w->player, "%d", side);
    snprintf(w->depth, sizeof w->depth, "%d", eng->depth ? eng->depth : r->depth);
    snprintf(w->time, sizeof w->time, "%ld", clock_text_ms(r, clock_ms));
    snprintf(w->inc, sizeof w->inc, "%ld", r->tc.inc_ms);
    const char *const value[RULES_PLACEHOLDERS] = { w->in_path, w->out_path, w->depth,
                                                    w->player, w->time, w->inc };
    for (int i = 0; i < eng->argc; i++) {
        rules_expand(eng->argv[i], w->args[i], sizeof w->args[i], value);
        w->argv[i] = w->args[i];
    }
    w->argv[eng->argc] = NULL;
}

/* Starts the engines that stay before the first move, with their first
 * move's words, so that each starts while the other thinks (their start-up
 * is still their first move's CPU: persist.h). 0, or -1 with e. */
static int start_persistent(const struct play_rules *r, struct ply_ctx *c,
                            const struct spec *const side_engine[2], struct err *e)
{
    for (int s = 0; s < 2; s++) {
        if (!c->stay[s].ops)
            continue;
        struct move_words w;
        expand_move(r, c, side_engine[s], s + 1, c->clock[s], &w);
        struct run_limits limits = move_limits(r, c->clock[s]);
        struct launch_move m = { w.argv, side_engine[s]->dir, s, -1, &limits, { -1, -1, -1 },
                                 NULL, 0 };
        if (persist_start(&c->stay[s], &m, e) != 0)
            return -1;
    }
    return 0;
}

/* Runs eng in its folder on the board: 0 with *run filled (and pwhy, a
 * persistent engine's own forfeit reason, or ""), or -1 with e. c->sink
 * (-1: none) gets its stderr when its stderr= or --keep-files want it; in a
 * sandbox, view side - 1 is eng's. */
static int run_on_board(const struct play_rules *r, struct ply_ctx *c, const struct spec *eng,
                        int side, struct run_result *run, char *pwhy, struct err *e)
{
    double clock_ms = c->clock[side - 1];
    struct move_words w;
    expand_move(r, c, eng, side, clock_ms, &w);
    struct run_limits limits = move_limits(r, clock_ms);
    int copy = eng->stderr_path || r->keep_dir ? c->sink : -1;
    if (copy >= 0 && (lseek(copy, 0, SEEK_SET) != 0 || ftruncate(copy, 0) != 0))
        return err_set(e, 0, 0, "the stderr copy: %s", strerror(errno));
    struct err re;
    struct launcher *l = side_launcher(c, side);
    int stays = l != &c->lnc;
    char line[PERSIST_LINE_MAX] = "";
    if (stays)
        persist_move_line(line, sizeof line, w.in_path, w.out_path, w.depth, w.time, w.inc);
    else if (c->stay[0].ops || c->stay[1].ops)
        /* Without a sandbox the sweep after a move would kill an engine
         * that stays: the game's end sweeps instead (ply_ctx_close). */
        limits.reap_all = 0;
    struct launch_move m = { w.argv, eng->dir, side - 1, copy, &limits, { -1, -1, -1 },
                             stays ? line : NULL, isnan(clock_ms) ? 0 : fmax(clock_ms, 1e-3) };
    int rc = launcher_move(l, &m, run, &re);
    snprintf(pwhy, REC_REASON_MAX, "%s", rc == 0 && stays ? persist_reason(l) : "");
    if (rc != 0)
        return err_set(e, 0, 0, "%s", re.msg);
    return 0;
}

/* 1 when errno, of a move folder's reset or board write that failed, is
 * what a writer racing the referee in the folder causes: a folder that
 * filled again while it was emptied, a name taken again between its removal
 * and the board's write. Nothing but an engine writes there. */
static int raced(int errnum)
{
    return errnum == ENOTEMPTY || errnum == EEXIST || errnum == EISDIR || errnum == ENOTDIR;
}

/* The folder of an engine that stays could not be made ready for its move
 * (what failed in msg): it runs between its moves and kept writing there,
 * so the game is its forfeit (a race of its own, not the referee's
 * failure: play.h), with no run of it. Records the ply; PLAY_PLAYED with
 * why set. */
static int folder_forfeit(struct ply_ctx *c, int ply, int side, const struct spec *eng,
                          const struct gamedir *gd, const char *msg, struct game_record *rec,
                          char *why, struct err *e)
{
    /* The message without the folder's path, which says nothing to a reader
     * of the journal (a name in a folder that is gone). */
    char shown[ERR_MSG_MAX];
    const char *at = strstr(msg, gd->path);
    size_t n = strlen(gd->path);
    if (at && at[n] == '/')
        snprintf(shown, sizeof shown, "%.*s%s", (int)(at - msg), msg, at + n + 1);
    else
        snprintf(shown, sizeof shown, "%s", msg);
    static const char head[] = PLAY_FOLDER_RACE ": it kept writing in its move folder "
                               "between its moves, which could not be reset: ";
    _Static_assert(sizeof head < REC_REASON_MAX, "the reason's head fits");
    /* Cut to fit the record's reason: its head says what happened. */
    snprintf(why, REC_REASON_MAX, "%s%.*s", head, (int)(REC_REASON_MAX - sizeof head), shown);
    struct run_result none;
    memset(&none, 0, sizeof none);
    uint64_t t1 = clock_wall_ns();
    double referee_ms = (double)(t1 - c->t0) / NS_PER_MS;
    c->t0 = t1;
    if (add_ply(rec, ply, side, eng->name, "", &none, referee_ms, c->clock[side - 1], why,
                "") != 0)
        return err_set(e, 0, 0, "out of memory");
    return PLAY_PLAYED;
}

/* Makes side's folder gd ready and writes the board there. 0; 1 when an
 * engine that stays raced the referee in its folder (folder_forfeit's
 * message in e); -1 with e. */
static int ready_folder(struct ply_ctx *c, int side, struct gamedir *gd, const char *board,
                        size_t board_len, struct err *e)
{
    int rc = gamedir_reset(gd, e);
    if (rc == 0 && gamedir_write_board(gd, board, board_len) != 0)
        rc = err_set(e, 0, 0, "%s/%s: cannot write: %s", gd->path, GAMEDIR_IN,
                     strerror(errno));
    return rc != 0 && raced(errno) && side_launcher(c, side) != &c->lnc ? 1 : rc;
}

/* One ply: the board written, the engine run, its answer judged and
 * recorded (and kept, when keeping). Returns PLAY_PLAYED with *move set or
 * why holding the forfeit reason, PLAY_CANCELLED, or -1 with e. */
static int play_ply(const struct play_rules *r, struct ply_ctx *c, int ply,
                    const struct spec *eng, const void *pos, struct game_record *rec,
                    int *move, char *why, struct err *e)
{
    const struct game *g = r->game;
    struct gamedir *gd;
    const char *keep = c->keep;
    int sink = c->sink;
    uint64_t t0 = c->t0;
    int side = g->to_move(pos);
    gd = &c->gd[side_folder(c, side)];
    /* A plain write, not game_write_file's atomic one: the folder is
     * private and rewritten every ply, so a temporary file, fsync and
     * rename would only cost time. */
    char board[GAME_FORMAT_MAX];
    size_t board_len = g->format(pos, board);
    int ready = ready_folder(c, side, gd, board, board_len, e);
    if (ready != 0)
        return ready < 0 ? -1 : folder_forfeit(c, ply, side, eng, gd, e->msg, rec, why, e);
    struct run_result run;
    double *clock = &c->clock[side - 1];
    struct run_limits limits = move_limits(r, *clock);
    char pwhy[REC_REASON_MAX];
    if (g->prefetch)
        g->prefetch(pos);
    for (int tries = 0;; tries++) {
        show_waiting(r, &limits, rec->index, ply, eng->name, side, 0);
        int ran = run_on_board(r, c, eng, side, &run, pwhy, e);
        show_waiting(r, &limits, rec->index, ply, eng->name, side, 1);
        if (ran != 0)
            return -1;
        if (r->busy_retries == 0 || !forfeit_starved(&run, &limits))
            break;
        if (tries == r->busy_retries)
            return PLAY_BUSY;
        /* Again from the same board: the starved run may have changed it. */
        ready = ready_folder(c, side, gd, board, board_len, e);
        if (ready != 0)
            return ready < 0 ? -1 : folder_forfeit(c, ply, side, eng, gd, e->msg, rec, why, e);
    }
    if (run.end == RUN_CANCELLED)
        return PLAY_CANCELLED;
    /* Every process of the engine is gone by now (runner.h), so what is
     * read is what it left, and nothing changes it any more. */
    char out[PLAY_OUTPUT_CAP + 2];
    int ran_ok = run.end == RUN_EXITED && run.status == 0 && !pwhy[0];
    long out_len = ran_ok || keep ? gamedir_read_output(gd, out, PLAY_OUTPUT_CAP, why) : -1;
    if (pwhy[0])
        strcpy(why, pwhy);
    else if (!ran_ok)
        forfeit_run_reason(&run, why);
    else if (out_len >= 0)
        rules_judge(g, pos, out, (size_t)out_len, move, why);
    if (why[0] && forfeit_hit_file_limit(&run, &r->limits, gamedir_output_size(gd)))
        strcpy(why, "file-limit");
    forfeit_name_limit(&limits, run.by_tree, why);
    forfeit_explain_missing(&run, side_launcher(c, side) != &c->lnc,
                            gamedir_output_size(gd) >= 0, why);
    charge_clock(r, clock, &run, why);
    char text[GAME_MOVE_TEXT_MAX] = "";
    if (!why[0])
        g->move_text(pos, *move, text, sizeof text);
    /* The referee's own share of the ply: everything but the engine since
     * the last ply's figure (the move played, the game's end checked: a
     * judge's questions between plies count too). */
    uint64_t t1 = clock_wall_ns();
    double referee_ms = (double)(t1 - t0) / NS_PER_MS - run.wall_ms;
    c->t0 = t1;
    char hint[2 * PATH_MAX + 64] = "", hidden[PATH_MAX];
    int view;
    struct sbx *box = side_sandbox(c, side, &view);
    if (why[0] && box && run.err.len &&
        sbx_hidden_path(box, view, run.err.text, hidden, sizeof hidden))
        snprintf(hint, sizeof hint, " (hidden by the sandbox: --sandbox-ro %s)", hidden);
    if (add_ply(rec, ply, side, eng->name, text, &run, referee_ms, *clock,
                why[0] ? why : "ok", hint) != 0)
        return err_set(e, 0, 0, "out of memory");
    if (keep && (gamedir_keep_ply(keep, ply, board, board_len, out, out_len, e) != 0 ||
                 gamedir_keep_err(keep, ply, sink, run.err_copied, e) != 0))
        return -1;
    if (eng->stderr_path) {
        char header[REC_NAME_MAX + REC_REASON_MAX + 64];
        snprintf(header, sizeof header, "--- game %ld, ply %d, %s (player %d): %s ---\n",
                 rec->index, ply, eng->name, side, why[0] ? why : "ok");
        if (append_stderr(eng->stderr_path, header, sink, &run, e) != 0)
            return -1;
    }
    return PLAY_PLAYED;
}

/* What a game's sandbox needs that must outlive it: each side's own paths
 * and view (its working directory dir=, its own move folder). */
struct game_box {
    struct sbx_paths own[2];
    struct sbx_view view[2];
};

/* Opens the game's launcher into *lnc: its sandbox (also into *box, which
 * the launcher owns) when the rules want one and an engine runs a process
 * per move, else the plain runner (*box NULL; with gb's views, for the
 * engines that stay). gb must outlive the launcher; free it with
 * game_box_free, whatever this returns. */
static int game_box_open(struct game_box *gb, const struct play_rules *r,
                         const struct spec *const side_engine[2],
                         const struct gamedir folder[2], struct launcher *lnc,
                         struct sbx **box, struct err *e)
{
    memset(gb, 0, sizeof *gb);
    memset(lnc, 0, sizeof *lnc);
    *box = NULL;
    if (!r->sandbox || r->sandbox->mode == SBX_NONE)
        return launcher_plain(lnc, r->acct, e);
    for (int s = 0; s < 2; s++) {
        const struct spec *eng = side_engine[s];
        if (sbx_own_paths(eng->program, eng->runtime, eng->nruntime, eng->argv, eng->dir,
                          &gb->own[s], e) != 0)
            return -1;
        gb->view[s] = (struct sbx_view){ eng->dir, folder[s].path, &gb->own[s], r->sandbox };
    }
    /* Engines that stay have sandboxes of their own (persist.h): the
     * game's is for file engines. */
    if (side_engine[0]->proto == SPEC_PERSISTENT && side_engine[1]->proto == SPEC_PERSISTENT)
        return launcher_plain(lnc, r->acct, e);
    if (sbx_open(box, gb->view, 2, e) == 0 && sbx_launcher(lnc, *box, r->acct, e) == 0)
        return 0;
    *box = NULL;   /* closed by sbx_launcher, or never opened */
    return -1;
}

static void game_box_free(struct game_box *gb)
{
    sbx_paths_free(&gb->own[0]);
    sbx_paths_free(&gb->own[1]);
}

/* Analyses the finished game into its record, when the rules ask. */
static int analyze(const struct play_rules *r, struct game_record *rec, struct err *e)
{
    rec->has &= ~(unsigned)REC_HAS_ANALYSIS;
    if (!r->analyze)
        return 0;
    struct analyzer an;
    if (ana_init(&an, r->game, r->analyze, e) != 0)
        return -1;
    int rc = ana_game(&an, rec, e);
    ana_free(&an);
    return rc;
}

/* The engines that stay for the game: one per side, or one for both when
 * one engine plays both (play_solo). Not started yet, their sandboxes open
 * (persist.h). */
static int open_persistent(struct ply_ctx *c, struct game_box *gb, const struct play_rules *r,
                           const struct spec *const side_engine[2], struct err *e)
{
    c->one_engine = side_engine[0] == side_engine[1];
    for (int s = 0; s < 2 - c->one_engine; s++)
        if (side_engine[s]->proto == SPEC_PERSISTENT &&
            launcher_persistent(&c->stay[s], c->sandboxed ? &gb->view[s] : NULL, r->acct,
                                r->ponder, e) != 0)
            return -1;
    return 0;
}

/* In a sandbox each engine writes a tmpfs of its own over its move folder:
 * the referee reads and writes it through the sandbox's descriptor (the
 * game's, or an engine that stays's own). */
static void adopt_move_folders(struct ply_ctx *c)
{
    for (int s = 0; s < 2; s++) {
        int view;
        struct sbx *box = side_sandbox(c, s + 1, &view);
        int fd = box && side_folder(c, s + 1) == s ? sbx_take_move_folder(box, view) : -1;
        if (fd >= 0)
            gamedir_adopt(&c->gd[s], fd);
    }
}

/* Opens what the plies of a game share: the stderr sink, the sides' move
 * folders, the sandbox (side_engine's views) and the engines that stay.
 * 0, or -1 with e and nothing left open. */
static int ply_ctx_open(struct ply_ctx *c, struct game_box *gb, const struct play_rules *r,
                        const struct spec *const side_engine[2], struct err *e)
{
    for (int s = 0; s < 2; s++)
        c->clock[s] = r->tc.base_ms > 0 ? (double)r->tc.base_ms : NAN;
    c->sink = stderr_sink(r, side_engine, e);
    memset(gb, 0, sizeof *gb);   /* freed below whatever failed */
    c->gd[0].fd = c->gd[1].fd = -1;
    c->sandboxed = r->sandbox && r->sandbox->mode != SBX_NONE;
    if (c->sink != -2 && gamedir_open(&c->gd[0], e) == 0 && gamedir_open(&c->gd[1], e) == 0 &&
        game_box_open(gb, r, side_engine, c->gd, &c->lnc, &c->box, e) == 0 &&
        open_persistent(c, gb, r, side_engine, e) == 0) {
        adopt_move_folders(c);
        return 0;
    }
    launcher_close(&c->stay[0]);
    launcher_close(&c->stay[1]);
    launcher_close(&c->lnc);
    game_box_free(gb);
    struct err ignored;
    for (int s = 0; s < 2; s++)
        if (c->gd[s].fd >= 0)
            gamedir_close(&c->gd[s], &ignored);
    if (c->sink >= 0)
        close(c->sink);
    return -1;
}

static void ply_ctx_close(struct ply_ctx *c, const struct play_rules *r, struct game_box *gb)
{
    /* What the file engines' moves did not sweep (run_on_board). */
    int sweep = (c->stay[0].ops || c->stay[1].ops) && !c->sandboxed && r->limits.reap_all;
    launcher_close(&c->stay[0]);
    launcher_close(&c->stay[1]);
    launcher_close(&c->lnc);
    if (sweep)
        run_sweep(judge_pid(r->judge));
    game_box_free(gb);
    for (int s = 0; s < 2; s++) {
        struct err e;
        /* A leftover is said, never silently kept; the game stands. */
        if (c->gd[s].fd >= 0 && gamedir_close(&c->gd[s], &e) != 0)
            fprintf(stderr, "referee: warning: %s\n", e.msg);
    }
    if (c->sink >= 0)
        close(c->sink);
}

int play_rules_slot(struct play_rules *r, int slot, struct cg_root *slot_root, struct err *e)
{
    if (!r->cpus)
        return 0;
    int in = cpus_enter(r->cpus, slot, slot_root, e);
    if (in == 1)
        r->acct = slot_root;
    return in < 0 ? -1 : 0;
}

int play_game(const struct play_rules *r, long index, long pair,
              const struct spec *const side_engine[2], struct game_record *rec,
              struct err *e)
{
    assert(index >= 1 && pair >= 0 && side_engine[0] && side_engine[1]);
    assert(!r->book || r->book->n > 0);
    assert(r->busy_retries == 0);   /* a game cannot replay a move (play.h) */
    rec_init(rec, index, pair);
    const struct game *g = r->game;
    char keep[PATH_MAX - GAMEDIR_PLY_NAME_MAX] = "";
    if (r->keep_dir && gamedir_keep_open(r->keep_dir, index, keep, sizeof keep, e) != 0)
        return -1;
    strcpy(rec->player[0], side_engine[0]->name);
    strcpy(rec->player[1], side_engine[1]->name);
    unsigned char pos[GAME_MAX_STATE];
    if (play_opening(r, pair, pos, rec) != 0)
        return err_set(e, 0, 0, "out of memory");
    struct ply_ctx c = { .keep = r->keep_dir ? keep : NULL, .t0 = clock_wall_ns() };
    struct game_box gb;
    if (ply_ctx_open(&c, &gb, r, side_engine, e) != 0)
        return -1;
    if (start_persistent(r, &c, side_engine, e) != 0) {
        ply_ctx_close(&c, r, &gb);
        return -1;
    }
    int rc = PLAY_PLAYED, quiet = 0;
    enum rec_result result;
    enum rec_reason end;
    char why[REC_REASON_MAX] = "";
    for (int ply = 1; (result = rules_end(g, pos, r->draw_plies, quiet, &end)) == REC_NO_RESULT;
         ply++) {
        int side = g->to_move(pos), move = -1;
        rc = play_ply(r, &c, ply, side_engine[side - 1], pos, rec, &move, why, e);
        if (rc != PLAY_PLAYED)
            break;
        if (why[0]) {
            result = side == 1 ? REC_WIN_2 : REC_WIN_1;
            end = REC_FORFEIT;
            break;
        }
        quiet = rules_quiet_after(g, pos, move, quiet);
        g->play(pos, move);
    }
    ply_ctx_close(&c, r, &gb);
    /* A judge that failed ended the game as a finished one: no result
     * counts, the run stops (judge.h). */
    if (rc != PLAY_CANCELLED && judge_error(r->judge, e) != 0)
        return -1;
    if (rc != PLAY_PLAYED)
        return rc;
    rec_set_end(rec, result, end, end == REC_FORFEIT ? why : NULL);
    if (end == REC_NORMAL && g->score) {   /* the game's own result, beyond who won */
        int score[2];
        g->score->final(pos, score);
        rec_set_score(rec, score, g->score->label);
    }
    return analyze(r, rec, e) != 0 ? -1 : PLAY_PLAYED;
}

/* One engine's moves outside a game: a game's ply each, with the engine on
 * both sides of the game's folder and sandbox. */
struct play_solo {
    struct play_rules rules;     /* a copy: depth changes per move */
    const struct spec *eng;
    struct ply_ctx c;
    struct game_box gb;
    struct game_record rec;      /* holds the last move only */
    int ply;
};

int play_solo_open(struct play_solo **solo, const struct play_rules *r, const struct spec *eng,
                   struct err *e)
{
    struct play_solo *s = calloc(1, sizeof *s);
    *solo = NULL;
    if (!s)
        return err_set(e, 0, 0, "out of memory");
    s->rules = *r;
    s->rules.keep_dir = NULL;
    s->rules.analyze = NULL;
    s->eng = eng;
    rec_init(&s->rec, 1, 0);
    const struct spec *const both[2] = { eng, eng };
    if (ply_ctx_open(&s->c, &s->gb, &s->rules, both, e) != 0) {
        rec_free(&s->rec);
        free(s);
        return -1;
    }
    *solo = s;
    return 0;
}

int play_solo_move(struct play_solo *s, const void *pos, int depth, struct rec_move *m,
                   struct err *e)
{
    assert(game_result(s->rules.game, pos) < 0 && depth >= 1);
    s->rules.depth = depth;
    s->rec.nmoves = 0;   /* keeps its room: one move at a time */
    s->c.t0 = clock_wall_ns();
    int move = -1;
    char why[REC_REASON_MAX] = "";
    int rc = play_ply(&s->rules, &s->c, ++s->ply, s->eng, pos, &s->rec, &move, why, e);
    if (rc == PLAY_PLAYED && judge_error(s->rules.judge, e) != 0)
        rc = -1;   /* the move stays in rec, freed with it */
    if (rc == PLAY_PLAYED) {   /* its tails are the caller's now */
        *m = s->rec.moves[0];
        s->rec.moves[0].stdout_tail = s->rec.moves[0].stderr_tail = NULL;
    }
    return rc;
}

void play_solo_close(struct play_solo *s)
{
    if (!s)
        return;
    ply_ctx_close(&s->c, &s->rules, &s->gb);
    rec_free(&s->rec);
    free(s);
}

int play_rules_header(const struct play_rules *r, struct hdr *h)
{
    h->has |= HDR_BIT(HDR_GAME) | HDR_BIT(HDR_DEPTH) | HDR_BIT(HDR_SEED) |
              HDR_BIT(HDR_RANDOM_PLIES) | HDR_BIT(HDR_OPENINGS) | HDR_BIT(HDR_DRAW_PLIES) |
              HDR_BIT(HDR_LIMITS) | HDR_BIT(HDR_SANDBOX) | HDR_BIT(HDR_ACCOUNTING);
    if (hdr_set_text(&h->accounting, cg_root_name(r->acct)) != 0)
        return -1;
    snprintf(h->game, sizeof h->game, "%s", r->game->name);
    h->depth = r->depth;
    h->seed = r->seed;
    h->random_plies = r->book ? 0 : r->random_plies;
    for (int i = 0; r->book && i < r->book->n; i++)
        if (hdr_strs_add(&h->openings, r->book->line[i]) != 0)
            return -1;
    if (!r->book)
        h->null |= HDR_BIT(HDR_OPENINGS);
    h->draw_plies = r->game->irreversible ? r->draw_plies : 0;
    if (r->analyze) {
        h->has |= HDR_BIT(HDR_ANALYZE);
        h->analyze = (struct hdr_analyze){
            .budget_ms = r->analyze->budget_ms, .max_empty = r->analyze->max_empty,
            .has = HDR_BIT(HDR_AN_BUDGET_MS) | HDR_BIT(HDR_AN_MAX_EMPTY) };
    }
    h->limits = (struct hdr_limits){
        .timeout_ms = r->limits.timeout_ms, .cpu_limit_s = r->limits.cpu_limit_s,
        .mem_limit_mb = r->limits.mem_limit_mb, .file_limit_kb = r->limits.file_limit_kb,
        .has = HDR_BIT(HDR_LIM_TIMEOUT_MS) | HDR_BIT(HDR_LIM_CPU_LIMIT_S) |
               HDR_BIT(HDR_LIM_MEM_LIMIT_MB) | HDR_BIT(HDR_LIM_FILE_LIMIT_KB) };
    if (r->judge && judge_header(r->judge, h) != 0)
        return -1;
    if (r->tc.base_ms > 0) {
        h->limits.tc_base_ms = r->tc.base_ms;
        h->limits.tc_inc_ms = r->tc.inc_ms;
        h->limits.has |= HDR_BIT(HDR_LIM_TC);
    }
    if (r->ponder)
        h->limits.has |= HDR_BIT(HDR_LIM_PONDER);
    return hdr_set_sandbox(&h->sandbox, r->sandbox);
}
