/*
 * match.c - a match of N games between two engines, played one after the
 * other in this process, and its JSON log (match.h).
 *
 * Colours alternate and each pair of games shares its opening, so an
 * opening's advantage cancels out. The log is built with cJSON and written
 * atomically at the end: a match either has its whole log or none.
 */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>
#include "arena/analyze.h"
#include "arena/journal.h"
#include "arena/match.h"
#include "arena/report_text.h"
#include "arena/tally.h"
#include "arena/textfile.h"

/* Characters of an engine's stderr line a forfeit line shows. */
#define TAIL_LINE_MAX 200
/* The last lines of an engine's stderr tail searched for the cause: a
 * traceback's frames and its exception fit. */
#define CAUSE_LINES 64

int match_run(const struct match_opts *o, FILE *out, struct err *e)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "schema", JOURNAL_MATCH_SCHEMA);
    play_rules_json(&o->rules, root);
    cJSON *engines = cJSON_AddArrayToObject(root, "engines");
    cJSON_AddItemToArray(engines, spec_json(o->engine[0]));
    cJSON_AddItemToArray(engines, spec_json(o->engine[1]));
    cJSON *games = cJSON_AddArrayToObject(root, "games");
    struct tally t;
    const char *const names[2] = { o->engine[0]->name, o->engine[1]->name };
    int rc = tally_init(&t, 2, names, e);
    for (int i = 0; i < o->games && !rc; i++) {
        int swap = i % 2;
        const struct spec *const side[2] = { o->engine[swap], o->engine[!swap] };
        struct game_record rec;
        int played = play_game(&o->rules, i + 1, i / 2, side, &rec, e);
        cJSON *gj = played == PLAY_PLAYED ? rec_encode(&rec) : NULL;
        if (played != PLAY_PLAYED || !gj) {
            rc = played == PLAY_CANCELLED
                     ? err_set(e, 0, 0, "stopped by a signal in game %d: no log written", i + 1)
                 : played == PLAY_PLAYED ? err_set(e, 0, 0, "out of memory")
                                        : -1;
            rec_free(&rec);
            break;
        }
        cJSON_AddItemToArray(games, gj);
        rc = tally_add(&t, &rec, e);
        struct match_evidence ev = { o->rules.keep_dir, o->log_path, "--log" };
        match_print_result(out, &rec, &ev);
        fflush(out);
        rec_free(&rec);
    }
    int forfeiters = 0;
    if (!rc) {
        /* Of the first engine. */
        long wins = t.beat[0][1], losses = t.beat[1][0], draws = t.drew[0][1];
        long n = wins + losses + draws;
        fprintf(out, "Score of %s vs %s: %ld - %ld - %ld  [%.3f] %ld\n", o->engine[0]->name,
                o->engine[1]->name, wins, losses, draws,
                n ? ((double)wins + 0.5 * (double)draws) / (double)n : 0.0, n);
        forfeiters = report_text_forfeiters(&t, out);
    }
    tally_free(&t);
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

/* The line of an engine's stderr that says why it failed, into buf
 * (TAIL_LINE_MAX + 1 bytes): a traceback's exception with the innermost
 * frame of the engine's own code (Python, Java), the line before a usage
 * error's last "Try '... --help'" line, else the last line that holds more
 * than blanks; "" if none. */
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
        if (starts(ls[i], le[i], "Traceback (most recent call last):"))
            traceback = 1;
        if (starts(ls[i], le[i], "Exception in thread ")) {
            traceback = 1;
            exc = i;
        }
    }
    if (!traceback && last > 0 && holds(ls[last], le[last], "--help") &&
        starts(ls[last], le[last], "Try '")) {
        int before = last - 1;
        while (before > 0 && blank(ls[before], le[before]))
            before--;
        copy_line(ls[before], le[before], buf);
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
    if (frame[0] && used < TAIL_LINE_MAX)
        snprintf(buf + used, TAIL_LINE_MAX + 1 - used, " (%s)", frame);
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
    if (!last->stderr_tail)
        fputs("\n", out);
    else if (ev->record)
        fprintf(out, "; its stderr: \"stderr_tail\" in %s, or stderr=FILE\n", ev->record);
    else
        fprintf(out, "; its stderr: %s FILE keeps it (\"stderr_tail\"), or stderr=FILE\n",
                ev->record_option);
}

void match_print_result(FILE *out, const struct game_record *rec, const struct match_evidence *ev)
{
    const char *p1 = rec->player[0], *p2 = rec->player[1];
    int winner = rec->result > 0 ? rec->result : 0;
    /* A forfeit's move is the last; what its engine last said says why. */
    char tail[TAIL_LINE_MAX + 1] = "";
    const struct rec_move *last = rec->nmoves ? &rec->moves[rec->nmoves - 1] : NULL;
    if (rec->reason == REC_FORFEIT && last && last->stderr_tail)
        cause_line(last->stderr_tail, tail);
    fprintf(out, "Finished game %ld (%s vs %s): %s {", rec->index, p1, p2,
            rec_result_text(rec->result));
    if (rec->reason == REC_NORMAL)
        fprintf(out, "%s}\n", winner ? (winner == 1 ? "player 1 wins" : "player 2 wins") : "draw");
    else if (rec->reason == REC_DRAW_RULE)
        fprintf(out, "draw by the no-progress rule}\n");
    else if (last)
        fprintf(out, "%s forfeits at ply %d: %s%s%s}\n", winner == 1 ? p2 : p1, last->ply,
                rec_reason_text(rec), tail[0] ? ": " : "", tail);
    else
        fprintf(out, "%s forfeits: %s}\n", winner == 1 ? p2 : p1, rec_reason_text(rec));
    if (rec->reason == REC_FORFEIT && last && ev)
        print_evidence(out, rec, last, ev);
    if (rec->has & REC_HAS_ANALYSIS)
        ana_print_game(out, rec);
}
