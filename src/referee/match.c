/*
 * match.c - a match between two engines through board files (match.h).
 *
 * Each game runs in its own private folder; the referee keeps the position
 * itself and only ever accepts the engine's file when it is the position
 * plus one legal move, so nothing an engine writes can change the game in
 * any other way. The log is built with cJSON and written atomically at the
 * end of the match.
 */
#define _GNU_SOURCE
#include <cjson/cJSON.h>
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "arena/match.h"
#include "arena/rng.h"
#include "arena/textfile.h"

#define REF_REASON_MAX 64
#define REF_ARG_MAX    PATH_MAX
#define REF_FD_LIMIT   16
#define OPENING_TRIES  64

struct game_record {
    int winner;                   /* 0 draw, 1 or 2 */
    int forfeit_side;             /* 0, or the side that lost by forfeit */
    char reason[REF_REASON_MAX];  /* forfeit reason, "" for a normal end */
};

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

/* The opening: random legal plies that do not end the game. */
static void opening(const struct game *g, int plies, struct rng *rng, void *pos, cJSON *list)
{
    g->init(pos);
    for (int p = 0; p < plies; p++) {
        int moves[GAME_MAX_MOVES];
        int n = g->gen(pos, moves);
        if (n == 0)
            return;
        unsigned char child[GAME_MAX_STATE];
        int played, tries = 0;
        do {
            played = moves[rng_below(rng, (uint32_t)n)];
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
                        const struct run_result *r, const char *status)
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
    cJSON_AddStringToObject(m, "status", status);
    return m;
}

/* Plays one game; side_engine[s] is the engine playing side s+1. */
static int play_game(const struct match_opts *o, const struct ref_engine *side_engine[2],
                     struct rng *open_rng, struct game_record *rec, cJSON *gj, struct err *e)
{
    const struct game *g = o->game;
    char dir_tmpl[PATH_MAX - 16];   /* room for /out.txt */
    const char *tmp = getenv("TMPDIR");
    snprintf(dir_tmpl, sizeof dir_tmpl, "%s/arena-game-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir_tmpl))
        return err_set(e, 0, 0, "cannot create a game folder in %s: %s",
                       tmp && *tmp ? tmp : "/tmp", strerror(errno));
    char in_path[PATH_MAX], out_path[PATH_MAX], depth[16];
    snprintf(in_path, sizeof in_path, "%s/in.txt", dir_tmpl);
    snprintf(out_path, sizeof out_path, "%s/out.txt", dir_tmpl);
    snprintf(depth, sizeof depth, "%d", o->depth);

    unsigned char pos[GAME_MAX_STATE];
    cJSON *open_list = cJSON_AddArrayToObject(gj, "opening");
    opening(g, o->random_plies, open_rng, pos, open_list);
    cJSON *moves = cJSON_AddArrayToObject(gj, "moves");
    memset(rec, 0, sizeof *rec);
    int rc = 0;
    for (int ply = 1; game_result(g, pos) < 0; ply++) {
        int side = g->to_move(pos);
        const struct ref_engine *eng = side_engine[side - 1];
        struct err we;
        if (game_write_file(g, in_path, pos, &we) != 0) {
            rc = err_set(e, 0, 0, "%s: %s", in_path, we.msg);
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
        struct run_result r;
        struct err re;
        if (run_engine(argv, dir_tmpl, &o->limits, &r, &re) != 0) {
            rc = err_set(e, 0, 0, "%s", re.msg);
            break;
        }
        char reason[REF_REASON_MAX] = "";
        int move = -1;
        if (r.end != RUN_EXITED || r.status != 0)
            run_reason(&r, reason);
        else
            judge(g, pos, out_path, &move, reason);
        char text[GAME_MOVE_TEXT_MAX] = "";
        if (!reason[0])
            g->move_text(pos, move, text, sizeof text);
        cJSON_AddItemToArray(moves, move_json(ply, side, eng->name, reason[0] ? NULL : text, &r,
                                              reason[0] ? reason : "ok"));
        if (reason[0]) {
            rec->forfeit_side = side;
            rec->winner = 3 - side;
            snprintf(rec->reason, sizeof rec->reason, "%s", reason);
            break;
        }
        g->play(pos, move);
    }
    if (!rec->forfeit_side && !rc)
        rec->winner = game_result(g, pos);
    nftw(dir_tmpl, rm_entry, REF_FD_LIMIT, FTW_DEPTH | FTW_PHYS);
    return rc;
}

static cJSON *engine_json(const struct ref_engine *eng)
{
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "name", eng->name);
    cJSON *cmd = cJSON_AddArrayToObject(j, "cmd");
    for (int i = 0; i < eng->argc; i++)
        cJSON_AddItemToArray(cmd, cJSON_CreateString(eng->argv[i]));
    return j;
}

int match_run(const struct match_opts *o, FILE *out, struct err *e)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "schema", "arena.match/1");
    cJSON_AddStringToObject(root, "game", o->game->name);
    cJSON_AddNumberToObject(root, "depth", o->depth);
    cJSON_AddNumberToObject(root, "seed", (double)o->seed);
    cJSON_AddNumberToObject(root, "random_plies", o->random_plies);
    cJSON *lim = cJSON_AddObjectToObject(root, "limits");
    cJSON_AddNumberToObject(lim, "timeout_ms", (double)o->limits.timeout_ms);
    cJSON_AddNumberToObject(lim, "cpu_limit_s", (double)o->limits.cpu_limit_s);
    cJSON_AddNumberToObject(lim, "mem_limit_mb", (double)o->limits.mem_limit_mb);
    cJSON *engines = cJSON_AddArrayToObject(root, "engines");
    cJSON_AddItemToArray(engines, engine_json(o->engine[0]));
    cJSON_AddItemToArray(engines, engine_json(o->engine[1]));
    cJSON *games = cJSON_AddArrayToObject(root, "games");

    /* Wins, losses and draws of the first engine. */
    int wins = 0, losses = 0, draws = 0, rc = 0;
    struct rng open_rng;
    for (int i = 0; i < o->games && !rc; i++) {
        /* A pair of games shares its opening: the same generator state. */
        if (i % 2 == 0)
            rng_seed(&open_rng, o->seed + (uint64_t)(i / 2));
        struct rng game_rng = open_rng;
        int swap = i % 2;
        const struct ref_engine *side_engine[2] = { o->engine[swap], o->engine[!swap] };
        cJSON *gj = cJSON_CreateObject();
        cJSON_AddItemToArray(games, gj);
        cJSON_AddNumberToObject(gj, "index", i + 1);
        cJSON *players = cJSON_AddObjectToObject(gj, "players");
        cJSON_AddStringToObject(players, "1", side_engine[0]->name);
        cJSON_AddStringToObject(players, "2", side_engine[1]->name);
        struct game_record rec;
        rc = play_game(o, side_engine, &game_rng, &rec, gj, e);
        if (rc)
            break;
        const char *result = rec.winner == 1 ? "1-0" : rec.winner == 2 ? "0-1" : "1/2-1/2";
        cJSON_AddStringToObject(gj, "result", result);
        if (rec.winner)
            cJSON_AddStringToObject(gj, "winner", side_engine[rec.winner - 1]->name);
        else
            cJSON_AddNullToObject(gj, "winner");
        cJSON_AddStringToObject(gj, "reason", rec.forfeit_side ? rec.reason : "normal");
        int engine0_side = swap ? 2 : 1;
        if (!rec.winner)
            draws++;
        else if (rec.winner == engine0_side)
            wins++;
        else
            losses++;
        if (rec.forfeit_side)
            fprintf(out, "Finished game %d (%s vs %s): %s {%s forfeits: %s}\n", i + 1,
                    side_engine[0]->name, side_engine[1]->name, result,
                    side_engine[rec.forfeit_side - 1]->name, rec.reason);
        else
            fprintf(out, "Finished game %d (%s vs %s): %s {%s}\n", i + 1, side_engine[0]->name,
                    side_engine[1]->name, result,
                    rec.winner ? (rec.winner == 1 ? "player 1 wins" : "player 2 wins") : "draw");
        fflush(out);
    }
    if (!rc) {
        int n = wins + losses + draws;
        fprintf(out, "Score of %s vs %s: %d - %d - %d  [%.3f] %d\n", o->engine[0]->name,
                o->engine[1]->name, wins, losses, draws,
                n ? (wins + 0.5 * draws) / n : 0.0, n);
    }
    if (!rc && o->log_path) {
        char *text = cJSON_Print(root);
        if (!text) {
            rc = err_set(e, 0, 0, "out of memory writing the log");
        } else {
            size_t len = strlen(text);
            text[len] = '\n';
            rc = tf_write_atomic(o->log_path, text, len + 1, e);
            free(text);
        }
    }
    cJSON_Delete(root);
    return rc;
}
