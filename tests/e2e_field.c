/*
 * e2e_field.c - the field of five Nim engines the format suites (swiss,
 * knockout) play, and their journals read back game by game
 * (e2e_field.h).
 */
#include <criterion/criterion.h>
#include <cjson/cJSON.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "e2e_field.h"
#include "e2e_util.h"
void e2e_field_make(struct e2e_field *f)
{
    char e[PATH_MAX], slow[PATH_MAX];
    e2e_engine_bin_path("engine", e, sizeof e);
    e2e_repo_path("tests/engines/slow.sh", slow, sizeof slow);
    snprintf(f->spec[0], E2E_FIELD_SPEC_MAX,
             "name=perfect,cmd=%s one-move --game nim --player perfect", e);
    for (int k = 1; k <= 3; k++)
        snprintf(f->spec[k], E2E_FIELD_SPEC_MAX,
                 "name=r%d,cmd=%s one-move --game nim --player random --seed %d {in} {out} 1", k,
                 e, 10 * k);
    snprintf(f->spec[4], E2E_FIELD_SPEC_MAX, "name=slow,cmd=%s %s 0.052 {in} {out}", slow, e);
    static const char *names[E2E_FIELD] = { "perfect", "r1", "r2", "r3", "slow" };
    memcpy(f->name, names, sizeof names);
}

int e2e_field_engine(const struct e2e_field *f, const char *name)
{
    for (int i = 0; i < E2E_FIELD; i++)
        if (strcmp(f->name[i], name) == 0)
            return i;
    cr_assert_fail("an engine named %s", name);
    return -1;
}


void e2e_field_read_journal(const struct e2e_field *f, const char *dir, const char *name,
                            const char *format, struct e2e_field_games *g)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    char *text = e2e_slurp(path, NULL);
    cr_assert_not_null(text, "no journal %s", path);
    memset(g, 0, sizeof *g);
    int first = 1;
    for (char *p = text; *p;) {
        size_t len = strcspn(p, "\n");
        char *line = strndup(p, len);
        cJSON *j = cJSON_Parse(line);
        cr_assert_not_null(j, "not JSON: %s", line);
        if (first) {
            cJSON *fmt = cJSON_GetObjectItemCaseSensitive(j, "format");
            cr_assert(cJSON_IsString(fmt) && strcmp(fmt->valuestring, format) == 0,
                      "header: %s", line);
            first = 0;
        } else {
            int i = cJSON_GetObjectItemCaseSensitive(j, "index")->valueint;
            cr_assert(i >= 1 && i < E2E_FIELD_GAMES, "index %d", i);
            cJSON *players = cJSON_GetObjectItemCaseSensitive(j, "players");
            g->who[i][0] = e2e_field_engine(f, cJSON_GetArrayItem(players, 0)->valuestring);
            g->who[i][1] = e2e_field_engine(f, cJSON_GetArrayItem(players, 1)->valuestring);
            g->pair[i] = (long)cJSON_GetObjectItemCaseSensitive(j, "pair")->valuedouble;
            g->n++;
        }
        cJSON_Delete(j);
        free(line);
        p += len + (p[len] == '\n');
    }
    free(text);
}
