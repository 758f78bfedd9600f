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
#include "arena/journal.h"
#include "arena/match.h"
#include "arena/textfile.h"

int match_run(const struct match_opts *o, FILE *out, struct err *e)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "schema", JOURNAL_MATCH_SCHEMA);
    ref_rules_to_json(&o->rules, root);
    cJSON *engines = cJSON_AddArrayToObject(root, "engines");
    cJSON_AddItemToArray(engines, ref_engine_json(o->engine[0]));
    cJSON_AddItemToArray(engines, ref_engine_json(o->engine[1]));
    cJSON *games = cJSON_AddArrayToObject(root, "games");

    /* Wins, losses and draws of the first engine. */
    int wins = 0, losses = 0, draws = 0, rc = 0;
    for (int i = 0; i < o->games && !rc; i++) {
        int swap = i % 2;
        const struct ref_engine *const side[2] = { o->engine[swap], o->engine[!swap] };
        struct game_record rec;
        int played = ref_play(&o->rules, i + 1, i / 2, side, &rec, e);
        cJSON *gj = played == REF_PLAYED ? rec_encode(&rec) : NULL;
        if (played != REF_PLAYED || !gj) {
            rc = played == REF_CANCELLED
                     ? err_set(e, 0, 0, "stopped by a signal in game %d: no log written", i + 1)
                 : played == REF_PLAYED ? err_set(e, 0, 0, "out of memory")
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
        ref_print_result(out, &rec);
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
