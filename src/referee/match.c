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
#include "arena/escape.h"
#include "arena/header.h"
#include "arena/journal.h"
#include "arena/match.h"
#include "arena/report_text.h"
#include "arena/tally.h"
#include "arena/textfile.h"

/* Characters of an engine's last stderr line a forfeit line shows. */
#define TAIL_LINE_MAX 200

/* The log's header (header.h), encoded; NULL when out of memory. */
static cJSON *match_header(const struct match_opts *o)
{
    struct hdr h;
    hdr_init(&h);
    h.has = HDR_BIT(HDR_SCHEMA);
    int rc = hdr_set_text(&h.schema, JOURNAL_MATCH_SCHEMA) | play_rules_header(&o->rules, &h) |
             spec_header(o->engine[0], &h) | spec_header(o->engine[1], &h);
    cJSON *j = rc ? NULL : hdr_encode(&h);
    hdr_free(&h);
    return j;
}

int match_run(const struct match_opts *o, FILE *out, struct err *e)
{
    cJSON *root = match_header(o);
    cJSON *games = root ? cJSON_AddArrayToObject(root, "games") : NULL;
    if (!games) {
        cJSON_Delete(root);
        return err_set(e, 0, 0, "out of memory");
    }
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
        match_print_result(out, &rec);
        fflush(out);
        rec_free(&rec);
    }
    int forfeiters = 0;
    if (!rc) {
        /* Of the first engine. */
        long wins = t.beat[0][1], losses = t.beat[1][0], draws = t.drew[0][1];
        long n = wins + losses + draws;
        char n1[ESC_ROOM(REC_NAME_MAX)], n2[ESC_ROOM(REC_NAME_MAX)];
        fprintf(out, "Score of %s vs %s: %ld - %ld - %ld  [%.3f] %ld\n",
                esc_text(o->engine[0]->name, n1, sizeof n1),
                esc_text(o->engine[1]->name, n2, sizeof n2), wins, losses, draws,
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

/* The last line of the engine's stderr that holds more than blanks, at most
 * TAIL_LINE_MAX bytes of it (cut on a character), into buf; "" if none. */
static void last_line(const char *tail, char *buf)
{
    const char *end = tail + strlen(tail);
    while (end > tail && strchr(" \t\r\n", end[-1]))
        end--;
    const char *start = end;
    while (start > tail && start[-1] != '\n')
        start--;
    start += strspn(start, " \t");
    size_t n = (size_t)(end - start);
    if (n > TAIL_LINE_MAX) {
        n = TAIL_LINE_MAX;
        while (n > 0 && (start[n] & 0xC0) == 0x80)   /* not inside a UTF-8 character */
            n--;
    }
    memcpy(buf, start, n);
    buf[n] = '\0';
}

void match_print_result(FILE *out, const struct game_record *rec)
{
    /* Names, reasons and output as the terminal can show them (escape.h). */
    char p1[ESC_ROOM(REC_NAME_MAX)], p2[ESC_ROOM(REC_NAME_MAX)];
    esc_text(rec->player[0], p1, sizeof p1);
    esc_text(rec->player[1], p2, sizeof p2);
    int winner = rec->result > 0 ? rec->result : 0;
    /* A forfeit's move is the last; what its engine last said says why. */
    char said[TAIL_LINE_MAX + 1] = "", tail[ESC_ROOM(TAIL_LINE_MAX)];
    const struct rec_move *last = rec->nmoves ? &rec->moves[rec->nmoves - 1] : NULL;
    if (rec->reason == REC_FORFEIT && last && last->stderr_tail)
        last_line(last->stderr_tail, said);
    esc_text(said, tail, sizeof tail);
    char reason[ESC_ROOM(REC_REASON_MAX)];
    esc_text(rec_reason_text(rec), reason, sizeof reason);
    fprintf(out, "Finished game %ld (%s vs %s): %s {", rec->index, p1, p2,
            rec_result_text(rec->result));
    if (rec->reason == REC_NORMAL)
        fprintf(out, "%s}\n", winner ? (winner == 1 ? "player 1 wins" : "player 2 wins") : "draw");
    else if (rec->reason == REC_DRAW_RULE)
        fprintf(out, "draw by the no-progress rule}\n");
    else
        fprintf(out, "%s forfeits: %s%s%s}\n", winner == 1 ? p2 : p1, reason,
                tail[0] ? ": " : "", tail);
    if (rec->has & REC_HAS_ANALYSIS)
        ana_print_game(out, rec);
}
