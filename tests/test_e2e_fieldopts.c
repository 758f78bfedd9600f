/*
 * test_e2e_fieldopts.c - a tournament's options about its field, end to
 * end: --anchor NAME=ELO (an anchored engine keeps its exact rating in the
 * text and JSON reports, the journal records the anchors so `referee
 * report` reproduces them, report's own --anchor replaces them) and the
 * gauntlet's --seeds (every other engine plays the seeds only, the journal
 * records them); bad values exit 2 and write nothing.
 */
#include <criterion/criterion.h>
#include <cjson/cJSON.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "e2e_util.h"

#define SPEC_MAX (2 * PATH_MAX + 256)

struct specs { char d1[SPEC_MAX], d2[SPEC_MAX], rnd[SPEC_MAX]; };

static void make_specs(struct specs *s)
{
    char e[PATH_MAX];
    e2e_engine_bin_path("engine", e, sizeof e);
    snprintf(s->d1, SPEC_MAX, "name=d1,cmd=%s one-move --game connect4 --depth 1 {in} {out}", e);
    snprintf(s->d2, SPEC_MAX, "name=d2,cmd=%s one-move --game connect4 --depth 2 {in} {out}", e);
    snprintf(s->rnd, SPEC_MAX,
             "name=rnd,cmd=%s one-move --game connect4 --player random --seed {player} {in} "
             "{out} 1", e);
}

/* The JSON report's rating of name, and its margin. */
static void json_rating(const char *json, const char *name, double *elo, double *margin)
{
    cJSON *j = cJSON_Parse(json);
    cr_assert_not_null(j, "not JSON: %s", json);
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(j, "ratings"), "engines"), *e;
    *elo = *margin = NAN;
    cJSON_ArrayForEach(e, list)
        if (strcmp(cJSON_GetObjectItemCaseSensitive(e, "engine")->valuestring, name) == 0) {
            *elo = cJSON_GetObjectItemCaseSensitive(e, "elo")->valuedouble;
            *margin = cJSON_GetObjectItemCaseSensitive(e, "elo_margin_95")->valuedouble;
        }
    cJSON_Delete(j);
}

Test(e2e_fieldopts, an_anchor_keeps_its_rating_and_the_journal_keeps_the_anchor, .timeout = 60)
{
    struct specs s;
    make_specs(&s);
    char *dir = e2e_tmpdir();
    struct e2e_run r, rep, json, over;
    const char *args[] = { "tournament", "--game", "connect4", "--engine", s.d1, "--engine",
                           s.d2, "--engine", s.rnd, "--seed", "3", "--concurrency", "2",
                           "--anchor", "d1=1000", "--journal", "j.jsonl", NULL };
    e2e_runv(&r, dir, NULL, "referee", args);
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    const char *heading = "\nRatings (maximum likelihood over all games, a prior of 2 draws per "
                          "engine; anchored: d1=1000.0; Elo on the anchors' scale, 95% margin)\n";
    cr_assert_not_null(strstr(r.out, heading), "%s", r.out);
    cr_assert_not_null(strstr(r.out, "  d1                    1000.0     0.0\n"), "%s", r.out);
    char *journal = e2e_slurp_at(dir, "j.jsonl");
    cr_assert_not_null(strstr(journal, ",\"anchors\":{\"d1\":1000}}\n"), "%.2000s", journal);
    free(journal);
    /* The journal's anchors, without --anchor. */
    e2e_run(&rep, dir, NULL, "referee", "report", "j.jsonl", NULL);
    cr_assert_eq(rep.status, 0, "%s", rep.err);
    cr_assert_not_null(strstr(rep.out, heading), "%s", rep.out);
    e2e_run(&json, dir, NULL, "referee", "report", "--format", "json", "j.jsonl", NULL);
    double elo, margin;
    json_rating(json.out, "d1", &elo, &margin);
    cr_assert(elo == 1000 && margin == 0, "d1: %.17g +/- %.17g", elo, margin);
    /* report's own anchors replace the journal's. */
    e2e_run(&over, dir, NULL, "referee", "report", "--format", "json", "--anchor", "d2=1500.25",
            "j.jsonl", NULL);
    cr_assert_eq(over.status, 0, "%s", over.err);
    json_rating(over.out, "d2", &elo, &margin);
    cr_assert(elo == 1500.25 && margin == 0, "d2: %.17g +/- %.17g", elo, margin);
    json_rating(over.out, "d1", &elo, &margin);
    cr_assert(elo != 1000 && margin > 0, "d1 is no anchor now: %.17g +/- %.17g", elo, margin);
    cJSON *j = cJSON_Parse(over.out);
    const cJSON *anchors = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(j, "ratings"), "anchors");
    cr_assert(cJSON_GetArraySize(anchors) == 1 &&
              cJSON_GetObjectItemCaseSensitive(anchors, "d2")->valuedouble == 1500.25,
              "%s", over.out);
    cJSON_Delete(j);
    e2e_run_free(&r);
    e2e_run_free(&rep);
    e2e_run_free(&json);
    e2e_run_free(&over);
    e2e_rmdir(dir);
}

Test(e2e_fieldopts, bad_anchors_exit_2_and_write_nothing, .timeout = 60)
{
    struct specs s;
    make_specs(&s);
    static const struct { const char *anchor, *message; } bad[] = {
        { "d1", "--anchor must be NAME=ELO" },
        { "=1000", "--anchor must be NAME=ELO" },
        { "d1=fast", "--anchor must be NAME=ELO" },
        { "d1=inf", "--anchor must be NAME=ELO" },
        { "zz=1000", "--anchor zz: no engine of the tournament is named zz" },
    };
    char *dir = e2e_tmpdir();
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        struct e2e_run r;
        const char *args[] = { "tournament", "--game", "connect4", "--engine", s.d1, "--engine",
                               s.d2, "--anchor", bad[k].anchor, "--journal", "j.jsonl", NULL };
        e2e_runv(&r, dir, NULL, "referee", args);
        cr_assert_eq(r.status, 2, "--anchor %s: exit %d: %s", bad[k].anchor, r.status, r.err);
        cr_assert_not_null(strstr(r.err, bad[k].message), "--anchor %s: %s", bad[k].anchor,
                           r.err);
        char path[PATH_MAX];
        snprintf(path, sizeof path, "%s/j.jsonl", dir);
        cr_assert(!e2e_exists(path), "--anchor %s wrote a journal", bad[k].anchor);
        e2e_run_free(&r);
    }
    /* report: a journal of d1 and d2 asked for an anchor of neither. */
    struct e2e_run t, r;
    const char *args[] = { "tournament", "--game", "connect4", "--engine", s.d1, "--engine",
                           s.d2, "--journal", "j.jsonl", NULL };
    e2e_runv(&t, dir, NULL, "referee", args);
    cr_assert_eq(t.status, 0, "%s", t.err);
    e2e_run(&r, dir, NULL, "referee", "report", "--anchor", "zz=1000", "j.jsonl", NULL);
    cr_assert_eq(r.status, 2, "exit %d: %s", r.status, r.err);
    cr_assert_not_null(strstr(r.err, "--anchor zz: no engine of the tournament is named zz"),
                       "%s", r.err);
    cr_assert_str_eq(r.out, "");
    e2e_run_free(&t);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

Test(e2e_fieldopts, a_gauntlet_plays_every_other_engine_against_its_seeds, .timeout = 60)
{
    struct specs s;
    make_specs(&s);
    char *dir = e2e_tmpdir();
    struct e2e_run r;
    const char *args[] = { "tournament", "--game", "connect4", "--format", "gauntlet",
                           "--seeds", "d2,rnd", "--engine", s.d1, "--engine", s.d2, "--engine",
                           s.rnd, "--concurrency", "2", "--journal", "j.jsonl", NULL };
    e2e_runv(&r, dir, NULL, "referee", args);
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    /* d2 and rnd (the seeds) against d1, never each other. */
    static const char *const games[] = { "Finished game 1 (d2 vs d1)",
                                         "Finished game 2 (d1 vs d2)",
                                         "Finished game 3 (rnd vs d1)",
                                         "Finished game 4 (d1 vs rnd)" };
    for (size_t k = 0; k < sizeof games / sizeof *games; k++)
        cr_assert_not_null(strstr(r.out, games[k]), "no %s in:\n%s", games[k], r.out);
    cr_assert_null(strstr(r.out, "Finished game 5"), "%s", r.out);
    char *journal = e2e_slurp_at(dir, "j.jsonl");
    cr_assert_not_null(strstr(journal, "\"format\":\"gauntlet\",\"rounds\":1,\"shard\":\"1/1\","
                                       "\"games\":4,\"sprt\":null,\"seeds\":[\"d2\",\"rnd\"]}\n"),
                       "%.3000s", journal);
    free(journal);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

Test(e2e_fieldopts, bad_seeds_exit_2_and_write_nothing, .timeout = 60)
{
    struct specs s;
    make_specs(&s);
    static const struct { const char *format, *seeds, *message; } bad[] = {
        { "gauntlet", "d1,zz", "--seeds zz: no engine of the tournament is named zz" },
        { "gauntlet", "d1,,d2", "--seeds must be NAME[,NAME...]" },
        { "gauntlet", "d1,d2", "--seeds: every engine is a seed" },
        { "round-robin", "d1", "--seeds names a gauntlet's seeds (--format gauntlet)" },
    };
    char *dir = e2e_tmpdir();
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        struct e2e_run r;
        const char *args[] = { "tournament", "--game", "connect4", "--format", bad[k].format,
                               "--seeds", bad[k].seeds, "--engine", s.d1, "--engine", s.d2,
                               "--journal", "j.jsonl", NULL };
        e2e_runv(&r, dir, NULL, "referee", args);
        cr_assert_eq(r.status, 2, "--seeds %s: exit %d: %s", bad[k].seeds, r.status, r.err);
        cr_assert_not_null(strstr(r.err, bad[k].message), "--seeds %s: %s", bad[k].seeds,
                           r.err);
        char path[PATH_MAX];
        snprintf(path, sizeof path, "%s/j.jsonl", dir);
        cr_assert(!e2e_exists(path), "--seeds %s wrote a journal", bad[k].seeds);
        e2e_run_free(&r);
    }
    e2e_rmdir(dir);
}
