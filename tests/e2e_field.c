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
#include <unistd.h>
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

void e2e_field_kill_and_resume(const struct e2e_field *f, const char *dir, const char *format,
                               const char *more, int lines, struct e2e_field_games *part)
{
    char ref[PATH_MAX], script[PATH_MAX], cmd[8 * E2E_FIELD_SPEC_MAX];
    e2e_bin_path("referee", ref, sizeof ref);
    snprintf(script, sizeof script, "%s/run.sh", dir);
    FILE *s = fopen(script, "w");
    cr_assert_not_null(s, "cannot write %s", script);
    fprintf(s, "#!/bin/sh\nexec '%s' tournament --game nim --format %s %s "
               "--random-plies 2 --seed 11 --concurrency 2 --journal j.jsonl", ref, format,
            more);
    for (int i = 0; i < E2E_FIELD; i++)
        fprintf(s, " --engine '%s'", f->spec[i]);
    fprintf(s, " \"$@\"\n");
    fclose(s);
    snprintf(cmd, sizeof cmd,
             "cd '%s' && { sh run.sh >first.out 2>&1 & pid=$!; i=0; "
             "while [ $i -lt 400 ] && [ \"$(cat j.jsonl 2>/dev/null | wc -l)\" -lt %d ]; "
             "do sleep 0.05; i=$((i+1)); done; kill -KILL $pid; "
             "wait $pid; echo $? > status; } 2>/dev/null", dir, lines);
    cr_assert_eq(system(cmd), 0);
    char *status = e2e_slurp_at(dir, "status");
    cr_assert_eq(atoi(status), 128 + 9, "exit status %s", status);
    free(status);
    e2e_field_read_journal(f, dir, "j.jsonl", format, part);
    /* Let the killed referee's workers take their engines down. */
    for (int i = 0; i < 100 && e2e_process_alive("sleep 0[.]052"); i++)
        usleep(10000);
    snprintf(cmd, sizeof cmd, "cd '%s' && sh run.sh --resume >second.out 2>&1", dir);
    cr_assert_eq(system(cmd), 0, "resume failed");
}
