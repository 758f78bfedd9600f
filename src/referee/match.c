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
#include "arena/match.h"
#include "arena/textfile.h"

int match_run(const struct match_opts *o, FILE *out, struct err *e)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "schema", "arena.match/1");
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
        cJSON *gj = cJSON_CreateObject();
        cJSON_AddItemToArray(games, gj);
        int played = ref_play(&o->rules, i + 1, i / 2, side, gj, e);
        if (played != REF_PLAYED) {
            rc = played == REF_CANCELLED
                     ? err_set(e, 0, 0, "stopped by a signal in game %d: no log written", i + 1)
                     : -1;
            break;
        }
        const char *result = cJSON_GetObjectItemCaseSensitive(gj, "result")->valuestring;
        int winner = strcmp(result, "1-0") == 0 ? 1 : strcmp(result, "0-1") == 0 ? 2 : 0;
        if (!winner)
            draws++;
        else if (winner == (swap ? 2 : 1))
            wins++;
        else
            losses++;
        ref_print_result(out, gj);
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
