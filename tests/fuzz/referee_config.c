/*
 * referee_config.c - fuzz target for the tournament config file
 * (refopts_config_parse, behind `referee tournament --config FILE`).
 *
 * Input: the bytes of a config file.
 *
 * Properties:
 *   - a rejection has a message and a place (line and column >= 1), like
 *     every other file the suite reads;
 *   - an accepted file leaves settings the command line could have given:
 *     each value within its option's range, at most TOUR_MAX_ENGINES
 *     engines; resolved (spec.h), each has a program word and a name of its
 *     own, or resolving says why not.
 *
 *   - nothing runs: "judge" is kept, never started while options are read
 *     (refopts_judge_start starts it after every option, --judge-sandbox
 *     among them); it once was, and the fuzzer found `{"judge":"yes"}`,
 *     whose judge ended the run. Starting the judge is the e2e suite's
 *     (e2e_judges, e2e_judgebox).
 */
#include <stdlib.h>
#include <string.h>
#include "arena/refopts.h"
#include "arena/search.h"
#include "fuzz.h"

static void check_settings(struct refopts_settings *s)
{
    struct tour_config *t = &s->t;
    FUZZ_CHECK(t->nengines >= 0 && t->nengines <= TOUR_MAX_ENGINES, "%d engines", t->nengines);
    FUZZ_CHECK(!t->rules.judge && (!s->judge_cmd || !t->rules.game),
               "a judge started while the options were read");
    struct err e = { 0, 0, "" };
    if (spec_resolve_all(t->engine, t->nengines, &s->each, 0, &e) != 0)
        fuzz_check_err(&e, 0, "resolving the engines");
    else
        for (int i = 0; i < t->nengines; i++) {
            FUZZ_CHECK(t->engine[i].argc >= 1 && t->engine[i].argv[0][0] && t->engine[i].name[0],
                       "engine %d: %d words, name '%s'", i, t->engine[i].argc, t->engine[i].name);
            for (int j = 0; j < i; j++)
                FUZZ_CHECK(strcmp(t->engine[i].name, t->engine[j].name) != 0,
                           "engines %d and %d: one name '%s'", j, i, t->engine[i].name);
        }
    FUZZ_CHECK(t->rules.depth >= 1 && t->rules.depth <= SEARCH_MAX_DEPTH, "depth %d",
               t->rules.depth);
    FUZZ_CHECK(t->rules.random_plies >= 0 && t->rules.random_plies <= GAME_MAX_MOVES,
               "random plies %d", t->rules.random_plies);
    FUZZ_CHECK(t->rounds >= 1 && t->concurrency >= 1 && t->concurrency <= TOUR_MAX_CONCURRENCY,
               "rounds %d, concurrency %d", t->rounds, t->concurrency);
    FUZZ_CHECK(t->shard_k >= 1 && t->shard_k <= t->shard_n, "shard %d/%d", t->shard_k,
               t->shard_n);
    FUZZ_CHECK(t->rules.limits.timeout_ms >= 1 && t->rules.limits.cpu_limit_s >= 0
                   && t->rules.limits.mem_limit_mb >= 0 && t->rules.draw_plies >= 0,
               "limits");
    FUZZ_CHECK(!t->sprt.on || (t->sprt.elo0 < t->sprt.elo1 && t->sprt.alpha > 0
                               && t->sprt.alpha < 1 && t->sprt.beta > 0 && t->sprt.beta < 1),
               "sprt");
    FUZZ_CHECK(s->ana.budget_ms >= 1 && s->ana.max_empty >= 0 && s->ana.max_empty <= ANA_MAX_EMPTY_LIMIT,
               "analysis budget %ld, max empty %d", s->ana.budget_ms, s->ana.max_empty);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > REF_CONFIG_CAP)
        return 0;   /* refopts_config_read refuses it before parsing */
    char *text = fuzz_text(data, size);
    /* Settings are large (paths, 32 engines): on the heap. */
    struct refopts_settings *s = malloc(sizeof *s);
    FUZZ_CHECK(s != NULL, "out of memory");
    struct err e = { 0, 0, "" };
    refopts_settings_init(s, REF_CMD_TOURNAMENT);
    int rc = refopts_config_parse(s, text, size, &e);
    if (rc != 0) {
        FUZZ_CHECK(rc == -1, "returned %d", rc);
        fuzz_check_err(&e, 1, "config");
    } else {
        check_settings(s);
    }
    refopts_settings_free(s);
    free(s);
    free(text);
    return 0;
}
