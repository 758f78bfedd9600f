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

/* Characters of an engine's last stderr line a forfeit line shows. */
#define TAIL_LINE_MAX 200

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
        match_print_result(out, &rec);
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
    const char *p1 = rec->player[0], *p2 = rec->player[1];
    int winner = rec->result > 0 ? rec->result : 0;
    /* A forfeit's move is the last; what its engine last said says why. */
    char tail[TAIL_LINE_MAX + 1] = "";
    const struct rec_move *last = rec->nmoves ? &rec->moves[rec->nmoves - 1] : NULL;
    if (rec->reason == REC_FORFEIT && last && last->stderr_tail)
        last_line(last->stderr_tail, tail);
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
        fprintf(out, "%s forfeits: %s%s%s}\n", winner == 1 ? p2 : p1, rec_reason_text(rec),
                tail[0] ? ": " : "", tail);
    if (rec->has & REC_HAS_ANALYSIS)
        ana_print_game(out, rec);
}
