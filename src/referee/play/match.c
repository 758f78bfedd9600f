/*
 * match.c - a match of N games between two engines, played one after the
 * other in this process, and its JSON log (match.h).
 *
 * Colours alternate and each pair of games shares its opening, so an
 * opening's advantage cancels out. The log is built with cJSON and written
 * atomically at the end: a match either has its whole log or none.
 */
#include <assert.h>
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "arena/analyze.h"
#include "arena/escape.h"
#include "arena/cgroup.h"
#include "referee/journal/header.h"
#include "arena/journal.h"
#include "arena/match.h"
#include "pool.h"
#include "referee/report/report_text.h"
#include "arena/runner.h"
#include "arena/tally.h"
#include "arena/textfile.h"

/* Characters of an engine's stderr line a forfeit line shows. */
#define TAIL_LINE_MAX 200
/* The last lines of an engine's stderr tail searched for the cause: a
 * traceback's frames and its exception fit. */
#define CAUSE_LINES 64

/* A match being played: the log's JSON, the tally, and with a pool the
 * records that finished ahead of an earlier game (printed in order). */
struct match_state {
    const struct match_opts *o;
    cJSON *root, *games;
    struct tally t;
    FILE *out;
    struct game_record *recs;    /* [games]; with a pool */
    char *have;                  /* have[i]: recs[i] is in */
    int next;                    /* the next game to count and print, 0-based */
    struct pool pool;
};

/* Counts, logs and prints game i's record (in the game's order). */
static int finish_game(struct match_state *m, const struct game_record *rec, struct err *e)
{
    cJSON *gj = rec_encode(rec);
    if (!gj)
        return err_set(e, 0, 0, "out of memory");
    cJSON_AddItemToArray(m->games, gj);
    if (tally_add(&m->t, rec, e) != 0)
        return -1;
    struct match_evidence ev = { m->o->rules.keep_dir, m->o->log_path, "--log", m->o->engine, 2 };
    match_print_result(m->out, rec, &ev);
    fflush(m->out);
    return 0;
}

/* Plays game i (0-based) into rec: colours alternate, pairs share an
 * opening. PLAY_PLAYED, or a failure with e (rec is rec_free'd by the
 * caller whatever this returns). */
static int play_one(const struct match_opts *o, const struct play_rules *rules, int i,
                    struct game_record *rec, struct err *e)
{
    int swap = i % 2;
    const struct spec *const side[2] = { o->engine[swap], o->engine[!swap] };
    int played = play_game(rules, i + 1, i / 2, side, rec, e);
    if (played == PLAY_CANCELLED)
        return err_set(e, 0, 0, "stopped by a signal in game %d: no log written", i + 1);
    return played;
}

static void state_free(struct match_state *m)
{
    for (int i = 0; m->recs && i < m->o->games; i++)
        if (m->have[i])
            rec_free(&m->recs[i]);
    free(m->recs);
    free(m->have);
    tally_free(&m->t);
    cJSON_Delete(m->root);
}

/* In a worker: plays game `index` (1-based) and writes its record to fd;
 * then frees the parent's state and the caller's (worker_free). */
static int match_job(void *ctx, long index, int slot, int fd)
{
    struct match_state *m = ctx;
    const struct match_opts *o = m->o;
    run_become_reaper();
    struct game_record rec;
    struct err e;
    struct play_rules rules = o->rules;
    struct cg_root slot_root;   /* its slot's moves' root, while it plays */
    int rc = play_rules_slot(&rules, slot, &slot_root, &e);
    if (rc == 0)
        rc = play_one(o, &rules, (int)index - 1, &rec, &e);
    else
        rec_init(&rec, -1, -1);
    int status = rc == PLAY_PLAYED ? 0 : POOL_FAILED;
    if (rc != PLAY_PLAYED)
        err_print(stderr, "referee", &e);
    if (rc == PLAY_PLAYED && rec_send(&rec, fd) != 0)
        status = POOL_FAILED;
    rec_free(&rec);
    state_free(m);
    if (o->worker_free)
        o->worker_free(o->worker_ctx);
    return status;
}

/* In the parent: a worker's game, kept until the games before it are in. */
static int match_done(void *ctx, long index, int status, char *answer, size_t len,
                      struct err *e)
{
    struct match_state *m = ctx;
    (void)len;
    if (status == POOL_FAILED)
        return err_set(e, 0, 0, "game %ld could not be played (the line above says why): no "
                       "log written", index);
    if (status != 0)
        return err_set(e, 0, 0, "stopped by a signal in game %ld: no log written", index);
    cJSON *j = cJSON_Parse(answer);
    int rc = j ? rec_decode(j, &m->recs[index - 1], e)
               : err_set(e, 0, 0, "game %ld: its worker's answer is not JSON", index);
    cJSON_Delete(j);
    m->have[index - 1] = rc == 0;   /* a record that failed is freed already */
    while (!rc && m->next < m->o->games && m->have[m->next])
        rc = finish_game(m, &m->recs[m->next++], e);
    return rc;
}

/* The games played concurrency at a time, each by a worker process
 * (pool.h), counted and printed in the games' order. */
static int play_pooled(struct match_state *m, struct err *e)
{
    const struct match_opts *o = m->o;
    m->recs = calloc((size_t)o->games, sizeof *m->recs);
    m->have = calloc((size_t)o->games, 1);
    if (!m->recs || !m->have || pool_init(&m->pool, o->concurrency) != 0)
        return err_set(e, 0, 0, "out of memory");
    long started = 0;
    int rc = 0;
    while (!rc && (started < o->games || m->pool.running)) {
        while (!rc && started < o->games && m->pool.running < o->concurrency &&
               !(o->rules.limits.cancel && *o->rules.limits.cancel))
            rc = pool_start(&m->pool, ++started, match_job, m, e);
        if (!rc && m->pool.running == 0)
            break;
        if (!rc)
            rc = pool_wait(&m->pool, -1, match_done, m, e);
    }
    if (!rc && m->next < o->games)
        rc = err_set(e, 0, 0, "stopped by a signal in game %d: no log written", m->next + 1);
    pool_kill(&m->pool);
    pool_free(&m->pool);
    return rc;
}

/* One game after the other, in this process. */
static int play_in_order(struct match_state *m, struct err *e)
{
    int rc = 0;
    for (int i = 0; i < m->o->games && !rc; i++) {
        struct game_record rec;
        int played = play_one(m->o, &m->o->rules, i, &rec, e);
        rc = played == PLAY_PLAYED ? finish_game(m, &rec, e) : -1;
        rec_free(&rec);
    }
    return rc;
}

/* The log's header (header.h), encoded; NULL when out of memory. */
static cJSON *match_header(const struct match_opts *o)
{
    struct hdr h;
    hdr_init(&h);
    h.has = HDR_BIT(HDR_SCHEMA);
    int rc = hdr_set_text(&h.schema, JOURNAL_MATCH_SCHEMA) | play_rules_header(&o->rules, &h) |
             hdr_add_spec(&h, o->engine[0]) | hdr_add_spec(&h, o->engine[1]);
    cJSON *j = rc ? NULL : hdr_encode(&h);
    hdr_free(&h);
    return j;
}

int match_run(const struct match_opts *o, FILE *out, struct err *e)
{
    struct match_state m = { .o = o, .out = out, .root = match_header(o) };
    m.games = m.root ? cJSON_AddArrayToObject(m.root, "games") : NULL;
    if (!m.games) {
        cJSON_Delete(m.root);
        return err_set(e, 0, 0, "out of memory");
    }
    const char *const names[2] = { o->engine[0]->name, o->engine[1]->name };
    int rc = tally_init(&m.t, 2, names, e);
    if (!rc)
        rc = o->concurrency > 1 ? play_pooled(&m, e) : play_in_order(&m, e);
    int forfeiters = 0;
    if (!rc) {
        /* Of the first engine. */
        const struct tally *t = &m.t;
        long wins = t->beat[0][1], losses = t->beat[1][0], draws = t->drew[0][1];
        long n = wins + losses + draws;
        char n1[ESC_ROOM(REC_NAME_MAX)], n2[ESC_ROOM(REC_NAME_MAX)];
        fprintf(out, "Score of %s vs %s: %ld - %ld - %ld  [%.3f] %ld\n",
                esc_text(o->engine[0]->name, n1, sizeof n1),
                esc_text(o->engine[1]->name, n2, sizeof n2), wins, losses, draws,
                n ? ((double)wins + 0.5 * (double)draws) / (double)n : 0.0, n);
        forfeiters = report_text_forfeiters(t, out);
    }
    if (!rc && o->log_path) {
        char *text = cJSON_Print(m.root);
        if (!text) {
            rc = err_set(e, 0, 0, "out of memory writing the log");
        } else {
            size_t len = strlen(text);
            text[len] = '\n';
            rc = tf_write_atomic(o->log_path, text, len + 1, e);
            free(text);
        }
    }
    state_free(&m);
    return rc ? rc : forfeiters ? MATCH_FORFEITED : 0;
}

/* The lines of text (at most CAUSE_LINES, the last ones), without their
 * line ends, as [start, end) pairs; the count. */
static int split_lines(const char *text, const char *start[], const char *end[])
{
    int n = 0;
    for (const char *p = text; *p;) {
        const char *nl = strchr(p, '\n'), *e = nl ? nl : p + strlen(p);
        if (n == CAUSE_LINES) {
            memmove(start, start + 1, (CAUSE_LINES - 1) * sizeof *start);
            memmove(end, end + 1, (CAUSE_LINES - 1) * sizeof *end);
            n--;
        }
        start[n] = p;
        end[n] = e > p && e[-1] == '\r' ? e - 1 : e;
        n++;
        p = nl ? nl + 1 : e;
    }
    return n;
}

/* 1 when the line [s, e) holds no more than blanks. */
static int blank(const char *s, const char *e)
{
    for (; s < e; s++)
        if (!strchr(" \t", *s))
            return 0;
    return 1;
}

/* 1 when [s, e) starts with prefix. */
static int starts(const char *s, const char *e, const char *prefix)
{
    size_t n = strlen(prefix);
    return (size_t)(e - s) >= n && strncmp(s, prefix, n) == 0;
}

/* 1 when [s, e) holds word. */
static int holds(const char *s, const char *e, const char *word)
{
    size_t n = strlen(word);
    for (; (size_t)(e - s) >= n; s++)
        if (strncmp(s, word, n) == 0)
            return 1;
    return 0;
}

/* 1 when a traceback's frame line [s, e) is in a library's code (the
 * interpreter's, an installed package's), not the engine's own. */
static int library_frame(const char *s, const char *e)
{
    static const char *const lib[] = { "/lib/python", "site-packages", "dist-packages",
                                       "<frozen", "\tat java.", "\tat javax.", "\tat jdk.",
                                       "\tat sun.", "\tat com.sun." };
    for (size_t k = 0; k < sizeof lib / sizeof *lib; k++)
        if (holds(s, e, lib[k]))
            return 1;
    return 0;
}

/* The innermost frame of the engine's own code in a traceback (lines
 * [0, n)): Python's `  File "DIR/x.py", line 12, in f` as "x.py, line 12,
 * in f", Java's `\tat X.f(X.java:12)` as "at X.f(X.java:12)", into buf;
 * "" when none. */
static void own_frame(const char *const ls[], const char *const le[], int n, char *buf,
                      size_t cap)
{
    buf[0] = '\0';
    for (int i = 0; i < n; i++) {
        const char *s = ls[i], *e = le[i];
        if (library_frame(s, e))
            continue;
        if (starts(s, e, "  File \"")) {
            const char *path = s + 8, *q = memchr(path, '"', (size_t)(e - path));
            if (!q)
                continue;
            const char *base = path;
            for (const char *c = path; c < q; c++)
                if (*c == '/')
                    base = c + 1;
            snprintf(buf, cap, "%.*s%.*s", (int)(q - base), base, (int)(e - q - 1), q + 1);
        } else if (starts(s, e, "\tat ") && !buf[0]) {
            snprintf(buf, cap, "%.*s", (int)(e - s - 1), s + 1);   /* Java: innermost first */
        }
    }
}

/* Copies [s, e) into buf, at most TAIL_LINE_MAX bytes cut on a character. */
static void copy_line(const char *s, const char *e, char *buf)
{
    s += strspn(s, " \t");
    size_t n = e > s ? (size_t)(e - s) : 0;
    if (n > TAIL_LINE_MAX) {
        n = TAIL_LINE_MAX;
        while (n > 0 && (s[n] & 0xC0) == 0x80)   /* not inside a UTF-8 character */
            n--;
    }
    memcpy(buf, s, n);
    buf[n] = '\0';
}

/* 1 when [s, e) starts with prefix, in any case. */
static int starts_nocase(const char *s, const char *e, const char *prefix)
{
    size_t n = strlen(prefix);
    return (size_t)(e - s) >= n && strncasecmp(s, prefix, n) == 0;
}

/* 1 when [s, e) is a usage error's frame, not its cause: a usage line
 * ("usage: ...", argparse's and getopt's) or a pointer to the help ("Try
 * 'x --help' for more information.", "Try --help", "Run with -h for help"). */
static int usage_frame(const char *s, const char *e)
{
    s += strspn(s, " \t");
    return s < e && (starts_nocase(s, e, "usage:") ||
                     ((starts_nocase(s, e, "try ") || starts_nocase(s, e, "run ")) &&
                      holds(s, e, "help")));
}

/* The line of an engine's output (its stderr, else its stdout) that says
 * why it failed, into buf (TAIL_LINE_MAX + 1 bytes): a traceback's
 * exception with the innermost frame of the engine's own code (Python,
 * Java), the last line that is neither a usage line nor a pointer to the
 * help when the output ends with such a line (a usage error), else the
 * last line that holds more than blanks; "" if none. */
static void cause_line(const char *tail, char *buf)
{
    const char *ls[CAUSE_LINES], *le[CAUSE_LINES];
    int n = split_lines(tail, ls, le), last = n - 1;
    buf[0] = '\0';
    while (last >= 0 && blank(ls[last], le[last]))
        last--;
    if (last < 0)
        return;
    int exc = last, traceback = 0;
    for (int i = 0; i < n; i++) {
        /* A SyntaxError has a frame line but no "Traceback" header. */
        if (starts(ls[i], le[i], "Traceback (most recent call last):") ||
            starts(ls[i], le[i], "  File \""))
            traceback = 1;
        if (starts(ls[i], le[i], "Exception in thread ")) {
            traceback = 1;
            exc = i;
        }
    }
    int cause = last;
    while (!traceback && cause >= 0 && (blank(ls[cause], le[cause]) ||
                                        usage_frame(ls[cause], le[cause])))
        cause--;
    if (!traceback && cause >= 0 && cause < last) {
        copy_line(ls[cause], le[cause], buf);
        return;
    }
    const char *s = ls[exc], *e = le[exc];
    if (starts(s, e, "Exception in thread ")) {   /* Exception in thread "main" X: why */
        const char *q = memchr(s + 21, '"', (size_t)(e - s - 21));
        if (q && q + 2 <= e)
            s = q + 2;
    }
    char frame[TAIL_LINE_MAX + 1] = "";
    if (traceback)
        own_frame(ls, le, n, frame, sizeof frame);
    copy_line(s, e, buf);
    size_t used = strlen(buf);
    if (frame[0] && used + 3 < TAIL_LINE_MAX) {   /* " (" frame ")", cut to fit */
        size_t len = strnlen(frame, TAIL_LINE_MAX - used - 3);
        buf[used++] = ' ';
        buf[used++] = '(';
        memcpy(buf + used, frame, len);
        used += len;
        buf[used++] = ')';
        buf[used] = '\0';
    }
}

/* The output a forfeit's cause is read from: its engine's stderr, else,
 * for a run that failed (an exit status, a signal, a memory limit), its
 * stdout, where a VM may say why (the JVM that cannot reserve its heap);
 * NULL when none. */
static const char *forfeit_tail(const struct game_record *rec, const struct rec_move *last)
{
    if (rec->reason != REC_FORFEIT || !last)
        return NULL;
    if (last->stderr_tail)
        return last->stderr_tail;
    char kind[REC_REASON_MAX];
    (void)rec_reason_split(last->status, kind);
    int failed = strncmp(kind, "exit-status ", 12) == 0 || strncmp(kind, "crashed: ", 9) == 0 ||
                 strcmp(kind, "memory-limit") == 0;
    return failed ? last->stdout_tail : NULL;
}

/* Under a forfeit: its ply, where its position and its engine's whole
 * stderr are, or the options that would keep them. */
static void print_evidence(FILE *out, const struct game_record *rec, const struct rec_move *last,
                           const struct match_evidence *ev)
{
    char pos[64];
    snprintf(pos, sizeof pos, "game-%ld/ply-%03d-in.txt", rec->index, last->ply);
    if (ev->keep_dir)
        fprintf(out, "  ply %d: its position is %s/%s", last->ply, ev->keep_dir, pos);
    else
        fprintf(out, "  ply %d: --keep-files DIR keeps its position (DIR/%s)", last->ply, pos);
    const char *file = NULL;   /* the forfeiter's stderr= */
    for (int i = 0; i < ev->nengines; i++)
        if (strcmp(ev->engine[i]->name, last->engine) == 0)
            file = ev->engine[i]->stderr_path;
    if (!last->stderr_tail && forfeit_tail(rec, last))   /* the cause came from stdout */
        fprintf(out, ev->record ? "; its stdout: \"stdout_tail\" in %s\n"
                                : "; its stdout: %s FILE keeps it (\"stdout_tail\")\n",
                ev->record ? ev->record : ev->record_option);
    else if (!last->stderr_tail)
        fputs("\n", out);
    else if (file)
        fprintf(out, "; its stderr: %s (stderr=)\n", file);
    else if (ev->record)
        fprintf(out, "; its stderr: \"stderr_tail\" in %s, or stderr=FILE\n", ev->record);
    else
        fprintf(out, "; its stderr: %s FILE keeps it (\"stderr_tail\"), or stderr=FILE\n",
                ev->record_option);
}

void match_forfeit_words(const struct game_record *rec, char *buf, size_t cap)
{
    assert(cap > 0);
    buf[0] = '\0';
    if (rec->reason == REC_NORMAL || rec->reason == REC_DRAW_RULE)
        return;
    int winner = rec->result > 0 ? rec->result : 0;
    const char *loser = rec->player[winner == 1 ? 1 : 0];
    /* A forfeit's move is the last; what its engine last said says why. */
    char said[TAIL_LINE_MAX + 1] = "";
    const struct rec_move *last = rec->nmoves ? &rec->moves[rec->nmoves - 1] : NULL;
    const char *why_tail = forfeit_tail(rec, last);
    if (why_tail)
        cause_line(why_tail, said);
    if (last)
        snprintf(buf, cap, "%s forfeits at ply %d: %s%s%s", loser, last->ply,
                 rec_reason_text(rec), said[0] ? ": " : "", said);
    else
        snprintf(buf, cap, "%s forfeits: %s", loser, rec_reason_text(rec));
}

void match_print_result(FILE *out, const struct game_record *rec, const struct match_evidence *ev)
{
    /* Names, reasons and output as the terminal can show them (escape.h). */
    char p1[ESC_ROOM(REC_NAME_MAX)], p2[ESC_ROOM(REC_NAME_MAX)];
    esc_text(rec->player[0], p1, sizeof p1);
    esc_text(rec->player[1], p2, sizeof p2);
    int winner = rec->result > 0 ? rec->result : 0;
    const struct rec_move *last = rec->nmoves ? &rec->moves[rec->nmoves - 1] : NULL;
    char words[MATCH_FORFEIT_MAX], forfeit[ESC_ROOM(MATCH_FORFEIT_MAX)];
    match_forfeit_words(rec, words, sizeof words);
    esc_text(words, forfeit, sizeof forfeit);
    fprintf(out, "Finished game %ld (%s vs %s): %s {", rec->index, p1, p2,
            rec_result_text(rec->result));
    char score[REC_SCORE_TEXT_MAX];
    rec_score_text(rec, score);
    if (rec->reason == REC_NORMAL)
        fprintf(out, "%s%s%s}\n",
                winner ? (winner == 1 ? "player 1 wins" : "player 2 wins") : "draw",
                score[0] ? " " : "", score);
    else if (rec->reason == REC_DRAW_RULE)
        fprintf(out, "draw by the no-progress rule}\n");
    else
        fprintf(out, "%s}\n", forfeit);
    if (rec->reason == REC_FORFEIT && last && ev)
        print_evidence(out, rec, last, ev);
    if (rec->has & REC_HAS_ANALYSIS)
        ana_print_game(out, rec);
}
