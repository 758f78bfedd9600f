/*
 * gradecheck.c - one rubric check on one submission (gradecheck.h): the
 * seeded positions, the judge of each answer, the score and the evidence.
 * Moves are a game's plies (play.h), the built-in opponents player.h's,
 * the CPU curve refbench.h's; processes outside a ply start in
 * gcheck_shell, the one place this file meets the sandbox.
 */
#define _GNU_SOURCE
#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "gradecheck.h"
#include "gradecopy.h"
#include "referee/run/launcher.h"
#include "arena/forfeit.h"
#include "arena/limits.h"
#include "arena/refbench.h"
#include "arena/rng.h"
#include "arena/rules.h"
#include "arena/sandbox.h"
#include "arena/search.h"
#include "arena/textfile.h"

/* The opponents' transposition table: alphabeta:D of a class's matches at
 * small depths; 16 MiB is more than such a search fills. */
#define OPP_TT_BYTES ((size_t)16 << 20)
/* Bytes of an engine's stderr an item of evidence keeps: its last lines. */
#define EVIDENCE_TAIL 600
/* Items of evidence kept per check: the failures first come to light, and
 * a page stays readable. */
#define EVIDENCE_MAX 20
/* io_input: every try starved by a busy machine. */
#define IO_BUSY 2

/* A seed for position i of check index: the rubric's, mixed so that checks
 * and positions get unrelated streams. */
static uint64_t item_seed(const struct rubric *rb, int index, long i)
{
    return rb->seed * 0x9E3779B97F4A7C15ULL + (uint64_t)(index + 1) * 0xBF58476D1CE4E5B9ULL +
           (uint64_t)i;
}

/* A random playout from the start, every position kept in line (n + 1 of
 * them, the last finished or n == max). */
static int playout(const struct game *g, struct rng *rng, unsigned char *line, int max)
{
    size_t sz = g->state_size;
    game_init(g, line);
    int n = 0, moves[GAME_MAX_MOVES];
    while (n < max && game_result(g, line + (size_t)n * sz) < 0) {
        int k = g->gen(line + (size_t)n * sz, moves);
        if (k == 0)
            break;
        memcpy(line + (size_t)(n + 1) * sz, line + (size_t)n * sz, sz);
        g->play(line + (size_t)(n + 1) * sz, moves[rng_below(rng, (uint32_t)k)]);
        n++;
    }
    return n;
}

/* Plies of pos's longest line to the end, or limit + 1 when more than
 * limit (or when *budget runs out). */
static int longest(const struct game *g, const void *pos, int limit, long *budget)
{
    int value;
    if (g->terminal(pos, &value))
        return 0;
    if (limit == 0 || --*budget < 0)
        return limit + 1;
    int moves[GAME_MAX_MOVES], n = g->gen(pos, moves), best = 0;
    unsigned char child[GAME_MAX_STATE];
    for (int i = 0; i < n && best <= limit; i++) {
        memcpy(child, pos, g->state_size);
        g->play(child, moves[i]);
        int d = 1 + longest(g, child, limit - 1, budget);
        best = d > best ? d : best;
    }
    return best > limit ? limit + 1 : best;
}

/* The best moves of pos (every line ends within depth plies) by a full
 * minimax on terminal values: best[m] 1 for each; returns how many, or -1
 * when every legal move is best. */
static int best_moves(struct search *s, const void *pos, int depth, int *best,
                      int *moves, int *n)
{
    const struct game *g = s->game;
    *n = g->gen(pos, moves);
    int value[GAME_MAX_MOVES], top = -SCORE_INF, count = 0;
    unsigned char child[GAME_MAX_STATE];
    for (int i = 0; i < *n; i++) {
        memcpy(child, pos, g->state_size);
        g->play(child, moves[i]);
        struct search_result r;
        search_minimax(s, child, depth - 1 > 0 ? depth - 1 : 0, &r);
        value[i] = -r.value;
        top = value[i] > top ? value[i] : top;
    }
    for (int i = 0; i < *n; i++) {
        best[i] = value[i] == top;
        count += best[i];
    }
    return count == *n ? -1 : count;
}

/* Position i of a legal (exact 0) or exact check into pos, *ply its plies
 * from the start; for exact also the best-move flags. 0, or -1 with e when
 * the game gives none. */
static int pick_position(const struct gcheck_env *env, int index, long i, int exact,
                         struct search *s, void *pos, int *ply, int *best, int *moves, int *n,
                         struct err *e)
{
    const struct game *g = env->rules.game;
    const struct rubric_check *ch = &env->rb->check[index];
    size_t sz = g->state_size;
    enum { LINE_MAX_PLIES = 400 };
    unsigned char *line = malloc((LINE_MAX_PLIES + 1) * sz);
    if (!line)
        return err_set(e, 0, 0, "out of memory");
    struct rng rng;
    rng_seed(&rng, item_seed(env->rb, index, i));
    int found = 0;
    for (int t = 0; t < GRADE_MAX_TRIES && !found; t++) {
        int len = playout(g, &rng, line, LINE_MAX_PLIES);
        if (len == 0)
            continue;
        if (!exact) {
            int at = (int)rng_below(&rng, (uint32_t)len);
            memcpy(pos, line + (size_t)at * sz, sz);
            *ply = at;
            found = 1;
            break;
        }
        /* Walk back from the end while every line ends within depth; the
         * earliest such position that some wrong move exists in wins. */
        int first = len;
        long budget = GRADE_END_NODES;
        while (first > 0 && longest(g, line + (size_t)(first - 1) * sz, ch->depth, &budget) <=
                                ch->depth)
            first--;
        for (int at = first; at < len && !found; at++)
            if (best_moves(s, line + (size_t)at * sz, ch->depth, best, moves, n) > 0) {
                memcpy(pos, line + (size_t)at * sz, sz);
                *ply = at;
                found = 1;
            }
    }
    free(line);
    return found ? 0 : err_set(e, 0, 0, "check \"%s\": no position found within %d plies of "
                               "the end where a move is wrong", ch->id, ch->depth);
}

/* The last EVIDENCE_TAIL bytes of tail at most, from a character's start. */
static const char *last_bytes(const char *tail)
{
    size_t len = strlen(tail), from = len > EVIDENCE_TAIL ? len - EVIDENCE_TAIL : 0;
    while (from < len && (tail[from] & 0xC0) == 0x80)
        from++;
    return tail + from;
}

/* The end of an engine's stderr as UTF-8 text, at key (nothing when empty). */
static void add_tail(cJSON *obj, const char *key, const char *tail)
{
    if (!tail || !tail[0])
        return;
    const char *from = last_bytes(tail);
    char buf[EVIDENCE_TAIL + 1];
    tf_utf8_copy(buf, from, strlen(from));
    cJSON_AddStringToObject(obj, key, buf);
}

static cJSON *board_item(const struct game *g, const void *pos)
{
    char text[GAME_FORMAT_MAX];
    g->format(pos, text);
    cJSON *it = cJSON_CreateObject();
    cJSON_AddStringToObject(it, "board", text);
    return it;
}

/* The ply's move, or -1 when it failed. */
static int answered(const struct game *g, const void *pos, const struct rec_move *m)
{
    int mv;
    return strcmp(m->status, "ok") == 0 && g->parse_move(pos, m->move, &mv) == 0 ? mv : -1;
}

/* gcheck_run's code for a move play_solo_move did not play. */
static int not_played(int played)
{
    return played == PLAY_CANCELLED ? GCHECK_CANCELLED : played == PLAY_BUSY ? GCHECK_BUSY : -1;
}

/* legal and exact: a share of the points per position answered right
 * (s: the search that finds the best moves). */
static int run_positions(const struct gcheck_env *env, int index, struct play_solo *solo,
                         struct search *s, cJSON *items, struct gcheck_result *res,
                         struct err *e)
{
    const struct rubric_check *ch = &env->rb->check[index];
    const struct game *g = env->rules.game;
    int exact = ch->kind == RUBRIC_EXACT;
    long good = 0;
    int rc = 0;
    for (long i = 0; i < ch->positions && !rc; i++) {
        unsigned char pos[GAME_MAX_STATE];
        int best[GAME_MAX_MOVES], moves[GAME_MAX_MOVES], n = 0, ply = 0;
        if (pick_position(env, index, i, exact, s, pos, &ply, best, moves, &n, e) != 0) {
            rc = -1;
            break;
        }
        struct rec_move m;
        int played = play_solo_move(solo, pos, ch->depth, &m, e);
        if (played != PLAY_PLAYED) {
            rc = not_played(played);
            break;
        }
        int mv = answered(g, pos, &m), ok = mv >= 0;
        for (int k = 0; exact && ok && k < n; k++)
            if (moves[k] == mv)
                ok = best[k] ? 2 : 0;
        good += ok != 0;
        if (ok || cJSON_GetArraySize(items) >= EVIDENCE_MAX) {
            rec_move_free(&m);
            continue;
        }
        cJSON *it = board_item(g, pos);
        cJSON_AddNumberToObject(it, "position", (double)(i + 1));
        cJSON_AddNumberToObject(it, "ply", ply + 1);   /* the move it was to make */
        cJSON_AddStringToObject(it, "given", m.move[0] ? m.move : "");
        cJSON_AddStringToObject(it, "status", strcmp(m.status, "ok") ? m.status : "not best");
        cJSON *want = cJSON_AddArrayToObject(it, "expected");
        for (int k = 0; exact && k < n; k++) {
            char text[GAME_MOVE_TEXT_MAX];
            if (best[k] && g->move_text(pos, moves[k], text, sizeof text) > 0)
                cJSON_AddItemToArray(want, cJSON_CreateString(text));
        }
        add_tail(it, "stderr", m.stderr_tail);
        add_tail(it, "stdout", m.stdout_tail);
        rec_move_free(&m);
        cJSON_AddItemToArray(items, it);
    }
    if (rc)
        return rc;
    res->score = ch->points * (double)good / (double)ch->positions;
    char out[256];
    snprintf(out, sizeof out, "%ld of %ld positions answered with %s move", good,
             ch->positions, exact ? "a best" : "a legal");
    res->output = strdup(out);
    return 0;
}

/* One game of a match check: the submission plays side `side` (1 or 2);
 * *result its score (1, 1/2, 0). 0, 1 (cancelled) or -1 with e. */
static int match_game(const struct gcheck_env *env, int index, long game,
                      struct play_solo *solo, struct search *opp_search, int side,
                      double *result, cJSON *items, struct err *e)
{
    const struct rubric_check *ch = &env->rb->check[index];
    const struct game *g = env->rules.game;
    struct play_rules rules = env->rules;
    rules.random_plies = env->rb->random_plies;
    rules.seed = env->rb->seed;
    unsigned char pos[GAME_MAX_STATE];
    struct game_record rec;
    rec_init(&rec, game + 1, game / 2);
    if (play_opening(&rules, game / 2, pos, &rec) != 0) {
        rec_free(&rec);
        return err_set(e, 0, 0, "out of memory");
    }
    struct player_opts opp = ch->opp;
    opp.seed = env->rb->seed + (uint64_t)game;
    int quiet = 0, rc = 0, ply = rec.nopening;   /* plies played */
    enum rec_reason why = REC_NORMAL;
    enum rec_result end;
    const char *reason = "normal";
    char status[REC_REASON_MAX] = "", tail[EVIDENCE_TAIL + 1] = "", out[EVIDENCE_TAIL + 1] = "";
    while ((end = rules_end(g, pos, rules.draw_plies, quiet, &why)) == REC_NO_RESULT) {
        int mv;
        if (g->to_move(pos) == side) {
            struct rec_move m;
            int played = play_solo_move(solo, pos, ch->depth, &m, e);
            if (played != PLAY_PLAYED) {
                rc = not_played(played);
                break;
            }
            mv = answered(g, pos, &m);
            if (mv < 0) {
                snprintf(status, sizeof status, "%s", m.status);
                if (m.stderr_tail)
                    snprintf(tail, sizeof tail, "%s", last_bytes(m.stderr_tail));
                if (m.stdout_tail)
                    snprintf(out, sizeof out, "%s", last_bytes(m.stdout_tail));
            }
            rec_move_free(&m);
            if (mv < 0) {
                end = side == 1 ? REC_WIN_2 : REC_WIN_1;
                reason = status;
                ply++;   /* the ply it failed at */
                break;
            }
        } else {
            struct search_result r;
            player_choose(opp_search, &opp, pos, &r);
            mv = r.move;
        }
        quiet = rules_quiet_after(g, pos, mv, quiet);
        g->play(pos, mv);
        ply++;
    }
    if (why == REC_DRAW_RULE && reason[0] == 'n')
        reason = "draw-rule";
    *result = end == REC_DRAWN ? 0.5 : (int)end == side ? 1.0 : 0.0;
    if (!rc && cJSON_GetArraySize(items) < EVIDENCE_MAX) {
        cJSON *it = cJSON_CreateObject();
        cJSON_AddNumberToObject(it, "game", (double)(game + 1));
        cJSON_AddNumberToObject(it, "side", side);
        cJSON *op = cJSON_AddArrayToObject(it, "opening");
        for (int k = 0; k < rec.nopening; k++)
            cJSON_AddItemToArray(op, cJSON_CreateString(rec.opening[k]));
        cJSON_AddNumberToObject(it, "result", *result);
        cJSON_AddStringToObject(it, "reason", reason);
        cJSON_AddNumberToObject(it, "ply", ply);   /* the last played, or forfeited */
        add_tail(it, "stderr", tail);
        add_tail(it, "stdout", out);
        char text[GAME_FORMAT_MAX];   /* the last position, or where it forfeited */
        g->format(pos, text);
        cJSON_AddStringToObject(it, "board", text);
        cJSON_AddItemToArray(items, it);
    }
    rec_free(&rec);
    return rc;
}

double gcheck_match_points(const struct rubric_check *ch, double score)
{
    return score >= ch->min_score ? ch->points : ch->points * score / ch->min_score;
}

/* match: the games against the opponent (s: its search). */
static int run_match(const struct gcheck_env *env, int index, struct play_solo *solo,
                     struct search *s, cJSON *items, struct gcheck_result *res,
                     struct err *e)
{
    const struct rubric_check *ch = &env->rb->check[index];
    double total = 0;
    int rc = 0;
    for (long i = 0; i < ch->games && !rc; i++) {
        double r = 0;
        search_clear(s);   /* each game alike, whatever came before */
        rc = match_game(env, index, i, solo, s, (int)(i % 2) + 1, &r, items, e);
        total += r;
    }
    if (rc)
        return rc;
    double score = total / (double)ch->games;
    cJSON_AddNumberToObject(res->evidence, "score", score);
    res->score = gcheck_match_points(ch, score);
    char out[256];
    snprintf(out, sizeof out, "scored %.3f against %s in %ld games (full points at %.3f)",
             score, ch->opponent, ch->games, ch->min_score);
    res->output = strdup(out);
    return 0;
}

/* The checks whose moves the submission plays one at a time (legal, exact,
 * match): the engine open, a search beside it (the best moves' judge, or
 * the match's opponent with its table) and the evidence's items. */
static int run_played(const struct gcheck_env *env, int index, struct gcheck_result *res,
                      struct err *e)
{
    const struct rubric_check *ch = &env->rb->check[index];
    const struct game *g = env->rules.game;
    int match = ch->kind == RUBRIC_MATCH;
    struct search_opts so = match ? player_search_opts(g, &ch->opp, OPP_TT_BYTES)
                                  : (struct search_opts){ .mate_distance = 0 };
    struct play_solo *solo;
    int rc = play_solo_open(&solo, &env->rules, env->eng, e);
    struct search s;
    if (!rc && search_init(&s, g, &so) != 0) {
        rc = err_set(e, 0, 0, "out of memory");
    } else if (!rc) {
        cJSON *items = cJSON_AddArrayToObject(res->evidence, "items");
        rc = match ? run_match(env, index, solo, &s, items, res, e)
                   : run_positions(env, index, solo, &s, items, res, e);
        search_free(&s);
    }
    play_solo_close(solo);
    return rc;
}

double gcheck_read_curve(const char *path, int depth, long *failed, cJSON *curve)
{
    char *text;
    size_t len;
    struct err e;
    double median = -1;
    if (tf_read(path, 1 << 22, &text, &len, &e) != 0)
        return -1;
    cJSON *doc = cJSON_Parse(text);
    free(text);
    const cJSON *eng = cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "engines"), 0);
    const cJSON *d;
    cJSON_ArrayForEach(d, cJSON_GetObjectItem(eng, "depths")) {
        int dd = cJSON_GetObjectItem(d, "depth")->valueint;
        double m = cJSON_GetObjectItem(cJSON_GetObjectItem(d, "cpu_ms"), "median")->valuedouble;
        long f = (long)cJSON_GetNumberValue(cJSON_GetObjectItem(d, "failed"));
        cJSON *pt = cJSON_CreateObject();
        cJSON_AddNumberToObject(pt, "depth", dd);
        cJSON_AddNumberToObject(pt, "median_ms", m);
        cJSON_AddNumberToObject(pt, "failed", (double)f);
        /* The moves timed, and each failure's kind: a depth whose every
         * move failed has no median to draw. */
        cJSON_AddNumberToObject(pt, "moves", cJSON_GetNumberValue(cJSON_GetObjectItem(d, "moves")));
        cJSON *why = cJSON_GetObjectItem(d, "failures");
        if (why)
            cJSON_AddItemToObject(pt, "failures", cJSON_Duplicate(why, 1));
        cJSON_AddItemToArray(curve, pt);
        if (dd == depth) {
            median = m;
            *failed = f;
        }
    }
    cJSON_Delete(doc);
    return median;
}

static int run_cpu(const struct gcheck_env *env, int index, struct gcheck_result *res,
                   struct err *e)
{
    const struct rubric_check *ch = &env->rb->check[index];
    struct play_rules rules = env->rules;
    rules.random_plies = GRADE_CPU_PLIES;
    rules.seed = item_seed(env->rb, index, 0);
    struct refbench_opts o = { .depth_min = 1, .depth_max = ch->depth,
                               .positions = ch->positions, .repeat = 1,
                               .budget_ms = ch->max_ms, .json_path = env->bench_json };
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    if (!out)
        return err_set(e, 0, 0, "out of memory");
    int rc = refbench_run(&rules, env->eng, 1, &o, out, e);
    fclose(out);
    free(text);
    if (rc < 0)
        return -1;
    if (rc == REFBENCH_CANCELLED)
        return GCHECK_CANCELLED;
    if (rc == REFBENCH_BUSY)
        return GCHECK_BUSY;
    cJSON *curve = cJSON_AddArrayToObject(res->evidence, "curve");
    long failed = 0;
    double median = gcheck_read_curve(env->bench_json, ch->depth, &failed, curve);
    unlink(env->bench_json);
    char msg[256];
    res->score = gcheck_cpu_points(ch, median, failed, msg, sizeof msg);
    res->output = strdup(msg);
    return 0;
}

double gcheck_cpu_points(const struct rubric_check *ch, double median, long failed, char *msg,
                         size_t cap)
{
    int ok = median >= 0 && failed == 0 && median <= (double)ch->max_ms;
    if (median < 0)
        snprintf(msg, cap, "not run at depth %d: a shallower depth failed or passed "
                 "%ld ms", ch->depth, ch->max_ms);
    else if (failed)
        snprintf(msg, cap, "%ld of %ld moves at depth %d failed", failed, ch->positions,
                 ch->depth);
    else
        snprintf(msg, cap, "median CPU per move at depth %d: %.1f ms (limit %ld ms)",
                 ch->depth, median, ch->max_ms);
    return ok ? ch->points : 0;
}

/* text quoted for sh into buf (PATH_MAX * 2 bytes); -1 when too long. */
static long quoted(const char *text, char *buf, size_t cap, size_t len)
{
    return spec_quote(text, buf, cap, len);
}

/* The move folder open as dirfd copied into the folder dest, within the
 * limits of a move folder (limits.h: GRADE_BACK_MAX_BYTES; gradecopy.h);
 * links a build made (lib.so -> lib.so.1) skipped, as they always were.
 * 0, GCOPY_FAULT or -1, with e. */
static int copy_back(int dirfd, const char *dest, struct err *e)
{
    static const struct gcopy_limits lim = { GRADE_BACK_MAX_BYTES, GRADE_COPY_MAX_ENTRIES,
                                             GRADE_COPY_MAX_DEPTH, 1 };
    int to = open(dest, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (to < 0)
        return err_set(e, 0, 0, "%s: %s", dest, strerror(errno));
    int rc = gcopy_tree(dirfd, to, &lim, NULL, e);
    close(to);
    return rc;
}

int gcheck_shell(const struct gcheck_shell_args *a, struct run_result *r, struct err *e)
{
    size_t cap = strlen(a->text) + 2 * PATH_MAX + 64;
    char *cmd = malloc(cap);
    if (!cmd)
        return err_set(e, 0, 0, "out of memory");
    long len = snprintf(cmd, cap, "exec");
    if (a->in_path) {
        len += snprintf(cmd + len, cap - (size_t)len, " <");
        len = spec_quote(a->in_path, cmd, cap, (size_t)len);
    }
    char out[PATH_MAX];
    if (len >= 0 && a->stdout_name) {   /* into the move folder */
        len += snprintf(cmd + len, cap - (size_t)len, " >");
        len = snprintf(out, sizeof out, "%s/%s", a->rw, a->stdout_name) >= (int)sizeof out
                  ? -1 : spec_quote(out, cmd, cap, (size_t)len);
    }
    if (len < 0) {
        free(cmd);
        return err_set(e, 0, 0, "a path too long");
    }
    snprintf(cmd + len, cap - (size_t)len, "%s; %s", a->stdout_name ? "" : " 2>&1", a->text);
    char *argv[] = { "sh", "-c", cmd, NULL };
    int rc, dirfd = -1;
    struct launcher lnc;
    struct launch_move m = { argv, a->cwd, 0, -1, a->limits, { -1, -1, -1 }, NULL, 0 };
    if (!a->policy || a->policy->mode == SBX_NONE) {
        rc = launcher_plain(&lnc, a->acct, e);
        if (!rc) {
            rc = launcher_move(&lnc, &m, r, e);
            launcher_close(&lnc);
        }
        dirfd = rc ? -1 : open(a->rw, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    } else {
        struct sbx_view v = { .workdir = a->workdir, .rw = a->rw, .own = a->own,
                              .policy = a->policy };
        struct sbx *box;
        rc = sbx_open(&box, &v, 1, e) != 0 || sbx_launcher(&lnc, box, a->acct, e) != 0 ? -1 : 0;
        if (!rc) {   /* the launcher owns the sandbox */
            rc = launcher_move(&lnc, &m, r, e);
            dirfd = rc ? -1 : sbx_take_move_folder(box, 0);
            launcher_close(&lnc);
        }
    }
    free(cmd);
    if (!rc && a->back)
        rc = dirfd < 0 ? err_set(e, 0, 0, "%s: the move folder is gone", a->rw)
                       : copy_back(dirfd, a->back, e);
    if (dirfd >= 0)
        close(dirfd);
    return rc;
}

/* The line (1-based) where a and b first differ, into *line, and each
 * side's text of it (or "(end of output)") into the evidence item. */
static void first_difference(const char *a, size_t alen, const char *b, size_t blen,
                             cJSON *it)
{
    size_t i = 0, start = 0;
    long line = 1;
    while (i < alen && i < blen && a[i] == b[i]) {
        if (a[i] == '\n') {
            line++;
            start = i + 1;
        }
        i++;
    }
    cJSON_AddNumberToObject(it, "line", (double)line);
    const char *side[2] = { a, b };
    size_t lens[2] = { alen, blen };
    const char *keys[2] = { "want", "got" };
    for (int k = 0; k < 2; k++) {
        if (start >= lens[k]) {
            cJSON_AddStringToObject(it, keys[k], "(end of output)");
            continue;
        }
        const char *nl = memchr(side[k] + start, '\n', lens[k] - start);
        size_t n = nl ? (size_t)(nl - side[k] - start) : lens[k] - start;
        n = n > EVIDENCE_TAIL ? EVIDENCE_TAIL : n;
        char buf[EVIDENCE_TAIL + 1];
        tf_utf8_copy(buf, side[k] + start, n);
        cJSON_AddStringToObject(it, keys[k], buf);
    }
}

/* An io run's move folder and the folder its files are copied to, empty.
 * 0, or -1 with e. */
static int fresh_folders(const char *scratch, const char *back, const char *move, struct err *e)
{
    tf_remove_tree(back);
    tf_remove_tree(move);
    if (mkdir(back, 0700) != 0 || mkdir(move, 0700) != 0)
        return err_set(e, 0, 0, "%s: %s", scratch, strerror(errno));
    return 0;
}

/* One input of an io check: 1 when the output is the wanted one, 0 when
 * not, IO_BUSY when every try was starved by a busy machine, or -1 with e. */
static int io_input(const struct gcheck_env *env, int index, int k, cJSON *items, struct err *e)
{
    const struct rubric_check *ch = &env->rb->check[index];
    /* The move folder and, apart from it, where its files are copied. */
    char out[PATH_MAX], back[PATH_MAX], move[PATH_MAX];
    if (snprintf(back, sizeof back, "%s/out", env->scratch) >= (int)sizeof back ||
        snprintf(move, sizeof move, "%s/move", env->scratch) >= (int)sizeof move ||
        snprintf(out, sizeof out, "%s/output", back) >= (int)sizeof out)
        return err_set(e, 0, 0, "%s: a path too long", env->scratch);
    struct sbx_paths own = { 0 };
    struct run_result r;
    struct gcheck_shell_args a = { .text = ch->cmd, .workdir = env->workdir,
                                   .cwd = env->workdir, .rw = move, .own = &own,
                                   .policy = env->rules.sandbox, .limits = &env->rules.limits,
                                   .acct = env->rules.acct, .in_path = ch->input[k], .stdout_name = "output",
                                   .back = back };
    /* The input's folder, read-only; the output into the move folder. */
    int rc = fresh_folders(env->scratch, back, move, e) || sbx_paths_add(&own, ch->input[k], e)
                 ? -1 : 0;
    for (int tries = 0; !rc; tries++) {
        rc = gcheck_shell(&a, &r, e);
        if (rc || env->rules.busy_retries == 0 || !forfeit_starved(&r, a.limits))
            break;
        rc = tries == env->rules.busy_retries ? IO_BUSY : fresh_folders(env->scratch, back, move, e);
    }
    sbx_paths_free(&own);
    /* A move folder past its limits (sparse files) is the program's
     * failure on this input, never copied. */
    int refused = rc == GCOPY_FAULT;
    if (rc && !refused)
        return rc;
    char status[REC_REASON_MAX] = "ok";
    if (r.end != RUN_EXITED || r.status != 0) {
        forfeit_run_reason(&r, status);
        forfeit_name_limit(a.limits, r.by_tree, status);
    } else if (refused) {
        snprintf(status, sizeof status, "file-limit: %.*s", (int)sizeof status - 16, e->msg);
    }
    char *got = NULL, *want = NULL;
    size_t glen = 0, wlen = 0;
    struct err ignored;
    if (tf_read(out, (size_t)PLAY_OUTPUT_CAP * 16, &got, &glen, &ignored) != 0)
        got = NULL;
    if (ch->expected) {
        if (tf_read(ch->expected[k], (size_t)PLAY_OUTPUT_CAP * 16, &want, &wlen, e) != 0) {
            free(got);
            return -1;
        }
    }
    const char *w = ch->expected ? want : env->ref_out[index][k];
    wlen = ch->expected ? wlen : env->ref_len[index][k];
    int ok = got && strcmp(status, "ok") == 0 && glen == wlen && memcmp(got, w, wlen) == 0;
    if (!ok && cJSON_GetArraySize(items) < EVIDENCE_MAX) {
        cJSON *it = cJSON_CreateObject();
        const char *base = strrchr(ch->input[k], '/');
        cJSON_AddStringToObject(it, "input", base ? base + 1 : ch->input[k]);
        cJSON_AddStringToObject(it, "status", status);
        first_difference(w, wlen, got ? got : "", got ? glen : 0, it);
        add_tail(it, "stderr", r.err.text);
        cJSON_AddItemToArray(items, it);
    }
    free(got);
    free(want);
    return ok;
}

static int run_io(const struct gcheck_env *env, int index, struct gcheck_result *res,
                  struct err *e)
{
    const struct rubric_check *ch = &env->rb->check[index];
    cJSON *items = cJSON_AddArrayToObject(res->evidence, "items");
    int good = 0;
    for (int k = 0; k < ch->ninputs; k++) {
        if (env->rules.limits.cancel && *env->rules.limits.cancel)
            return GCHECK_CANCELLED;
        int ok = io_input(env, index, k, items, e);
        if (ok < 0 || ok == IO_BUSY)
            return ok < 0 ? -1 : GCHECK_BUSY;
        good += ok;
    }
    res->score = ch->points * good / ch->ninputs;
    char out[128];
    snprintf(out, sizeof out, "%d of %d inputs gave the expected output", good, ch->ninputs);
    res->output = strdup(out);
    return 0;
}

int gcheck_run(const struct gcheck_env *env, int index, struct gcheck_result *res,
               struct err *e)
{
    const struct rubric_check *ch = &env->rb->check[index];
    memset(res, 0, sizeof *res);
    res->max = ch->points;
    res->evidence = cJSON_CreateObject();
    if (!res->evidence)
        return err_set(e, 0, 0, "out of memory");
    int rc;
    if (ch->kind == RUBRIC_IO) {
        rc = run_io(env, index, res, e);
    } else if (ch->kind == RUBRIC_CPU) {
        rc = run_cpu(env, index, res, e);
    } else {
        rc = run_played(env, index, res, e);
    }
    if (!rc && !res->output)
        rc = err_set(e, 0, 0, "out of memory");
    if (rc)
        gcheck_result_free(res);
    return rc;
}

void gcheck_result_free(struct gcheck_result *res)
{
    free(res->output);
    cJSON_Delete(res->evidence);
    res->output = NULL;
    res->evidence = NULL;
}

int gcheck_env_refs(struct gcheck_env *env, const char *bindir, const char *prefix,
                    struct err *e)
{
    const struct rubric *rb = env->rb;
    for (int i = 0; i < rb->ncheck; i++) {
        const struct rubric_check *ch = &rb->check[i];
        if (ch->kind != RUBRIC_IO || ch->expected)
            continue;
        env->ref_out[i] = calloc((size_t)ch->ninputs, sizeof *env->ref_out[i]);
        env->ref_len[i] = calloc((size_t)ch->ninputs, sizeof *env->ref_len[i]);
        if (!env->ref_out[i] || !env->ref_len[i])
            return err_set(e, 0, 0, "out of memory");
        char prog[PATH_MAX], out[PATH_MAX];
        snprintf(prog, sizeof prog, "%s/%s%s", bindir, prefix, ch->reference);
        snprintf(out, sizeof out, "%s/reference-output", env->scratch);
        char cmd[2 * PATH_MAX + 8] = "";
        long len = quoted(prog, cmd, sizeof cmd, 0);
        if (len < 0 || (ch->args && snprintf(cmd + len, sizeof cmd - (size_t)len, " %s",
                                             ch->args) >= (int)(sizeof cmd - (size_t)len)))
            return err_set(e, 0, 0, "a path too long");
        for (int k = 0; k < ch->ninputs; k++) {
            struct run_result r;
            /* The suite's own program: no sandbox, its output read where
             * it was written (back NULL). */
            struct gcheck_shell_args a = { .text = cmd, .workdir = env->scratch,
                                           .cwd = env->scratch, .rw = env->scratch,
                                           .limits = &env->rules.limits,
                                           .in_path = ch->input[k],
                                           .stdout_name = "reference-output" };
            if (gcheck_shell(&a, &r, e) != 0)
                return -1;
            if (r.end != RUN_EXITED || (r.status != 0 && r.status != 1))
                return err_set(e, 0, 0, "the reference %s failed on %s", prog, ch->input[k]);
            if (tf_read(out, (size_t)PLAY_OUTPUT_CAP * 16, &env->ref_out[i][k],
                        &env->ref_len[i][k], e) != 0)
                return -1;
            unlink(out);
        }
    }
    return 0;
}

void gcheck_env_free_refs(struct gcheck_env *env)
{
    for (int i = 0; i < RUBRIC_MAX_CHECKS; i++) {
        for (int k = 0; env->ref_out[i] && k < env->rb->check[i].ninputs; k++)
            free(env->ref_out[i][k]);
        free(env->ref_out[i]);
        free(env->ref_len[i]);
        env->ref_out[i] = NULL;
        env->ref_len[i] = NULL;
    }
}
