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
#include "arena/textfile.h"

int match_run(const struct match_opts *o, FILE *out, struct err *e)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "schema", JOURNAL_MATCH_SCHEMA);
    play_rules_json(&o->rules, root);
    cJSON *engines = cJSON_AddArrayToObject(root, "engines");
    cJSON_AddItemToArray(engines, spec_json(o->engine[0]));
    cJSON_AddItemToArray(engines, spec_json(o->engine[1]));
    cJSON *games = cJSON_AddArrayToObject(root, "games");

    /* Wins, losses and draws of the first engine. */
    int wins = 0, losses = 0, draws = 0, rc = 0;
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
        if (rec.result == REC_DRAWN)
            draws++;
        else if (rec.result == (swap ? REC_WIN_2 : REC_WIN_1))
            wins++;
        else
            losses++;
        match_print_result(out, &rec);
        fflush(out);
        rec_free(&rec);
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

void match_print_result(FILE *out, const struct game_record *rec)
{
    const char *p1 = rec->player[0], *p2 = rec->player[1];
    int winner = rec->result > 0 ? rec->result : 0;
    fprintf(out, "Finished game %ld (%s vs %s): %s {", rec->index, p1, p2,
            rec_result_text(rec->result));
    if (rec->reason == REC_NORMAL)
        fprintf(out, "%s}\n", winner ? (winner == 1 ? "player 1 wins" : "player 2 wins") : "draw");
    else if (rec->reason == REC_DRAW_RULE)
        fprintf(out, "draw by the no-progress rule}\n");
    else
        fprintf(out, "%s forfeits: %s}\n", winner == 1 ? p2 : p1, rec_reason_text(rec));
    if (rec->has & REC_HAS_ANALYSIS)
        ana_print_game(out, rec);
}
