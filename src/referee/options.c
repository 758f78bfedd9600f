/*
 * options.c - the referee's options (refopts.h): the one table behind the
 * command line and the config file, the settings they fill, and the config
 * file reader. Messages name the option as the user wrote it (--rounds on
 * the command line, "rounds" in a file).
 */
#include <cjson/cJSON.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "arena/cli.h"
#include "arena/refopts.h"
#include "arena/search.h"
#include "arena/textfile.h"

#define DEFAULT_GAMES 2
#define DEFAULT_DEPTH 4
#define DEFAULT_TIMEOUT_MS 10000
#define DEFAULT_FILE_LIMIT_KB 1024
#define MAX_GAMES 1000000
#define MAX_TIMEOUT_MS 86400000L
#define KEY_MAX 64               /* bytes of an option name we compare */
#define KEY_QUOTED_MAX 80        /* bytes of "key" searched for a config error */

#define BOTH (REF_CMD_MATCH | REF_CMD_TOURNAMENT)
static const struct { struct option opt; int commands; } table[] = {
    { { "game", required_argument, NULL, REF_OPT_GAME }, BOTH },
    { { "engine", required_argument, NULL, REF_OPT_ENGINE }, BOTH },
    { { "games", required_argument, NULL, REF_OPT_GAMES }, REF_CMD_MATCH },
    { { "depth", required_argument, NULL, REF_OPT_DEPTH }, BOTH },
    { { "random-plies", required_argument, NULL, REF_OPT_PLIES }, BOTH },
    { { "openings", required_argument, NULL, REF_OPT_OPENINGS }, BOTH },
    { { "seed", required_argument, NULL, REF_OPT_SEED }, BOTH },
    { { "timeout-ms", required_argument, NULL, REF_OPT_TIMEOUT }, BOTH },
    { { "cpu-limit-s", required_argument, NULL, REF_OPT_CPU }, BOTH },
    { { "mem-limit-mb", required_argument, NULL, REF_OPT_MEM }, BOTH },
    { { "draw-plies", required_argument, NULL, REF_OPT_DRAW }, BOTH },
    { { "keep-files", required_argument, NULL, REF_OPT_KEEP }, BOTH },
    { { "log", required_argument, NULL, REF_OPT_LOG }, REF_CMD_MATCH },
    { { "config", required_argument, NULL, REF_OPT_CONFIG }, REF_CMD_TOURNAMENT },
    { { "format", required_argument, NULL, REF_OPT_FORMAT }, REF_CMD_TOURNAMENT | REF_CMD_REPORT },
    { { "rounds", required_argument, NULL, REF_OPT_ROUNDS }, REF_CMD_TOURNAMENT },
    { { "concurrency", required_argument, NULL, REF_OPT_CONCURRENCY }, REF_CMD_TOURNAMENT },
    { { "journal", required_argument, NULL, REF_OPT_JOURNAL }, REF_CMD_TOURNAMENT },
    { { "resume", no_argument, NULL, REF_OPT_RESUME }, REF_CMD_TOURNAMENT },
    { { "sprt", required_argument, NULL, REF_OPT_SPRT }, REF_CMD_TOURNAMENT },
    { { "shard", required_argument, NULL, REF_OPT_SHARD }, REF_CMD_TOURNAMENT },
    { { "analyze", no_argument, NULL, REF_OPT_ANALYZE }, BOTH },
    { { "budget-ms", required_argument, NULL, REF_OPT_BUDGET }, BOTH | REF_CMD_ANALYZE },
    { { "max-empty", required_argument, NULL, REF_OPT_MAX_EMPTY }, BOTH | REF_CMD_ANALYZE },
    { { "json", required_argument, NULL, REF_OPT_JSON }, REF_CMD_ANALYZE },
    { { "each", required_argument, NULL, REF_OPT_EACH }, BOTH },
};
_Static_assert(sizeof table / sizeof *table == REF_OPTIONS, "REF_OPTIONS counts the table");

void ref_settings_init(struct ref_settings *s, int command)
{
    memset(s, 0, sizeof *s);
    s->command = command;
    s->games = DEFAULT_GAMES;
    s->t.rules.depth = DEFAULT_DEPTH;
    s->t.rules.seed = 1;
    s->t.rules.draw_plies = REF_DRAW_PLIES;
    s->t.rules.limits.timeout_ms = DEFAULT_TIMEOUT_MS;
    s->t.rules.limits.file_limit_kb = DEFAULT_FILE_LIMIT_KB;
    s->t.rounds = 1;
    s->t.concurrency = 1;
    s->t.shard_k = s->t.shard_n = 1;
    s->ana.budget_ms = ANA_DEFAULT_BUDGET_MS;
    s->ana.max_empty = ANA_DEFAULT_MAX_EMPTY;
}

void ref_settings_free(struct ref_settings *s)
{
    for (int i = 0; i < s->t.nengines; i++)
        ref_engine_free(&s->t.engine[i]);
    s->t.nengines = 0;
    ref_spec_free(&s->each);
    ref_book_free(&s->book);
}

int ref_options(int command, struct option *opts)
{
    int n = 0;
    for (int i = 0; i < REF_OPTIONS; i++)
        if (table[i].commands & command)
            opts[n++] = table[i].opt;
    return n;
}

void ref_option_flag(int id, char *buf, size_t cap)
{
    snprintf(buf, cap, "--?");
    for (int i = 0; i < REF_OPTIONS; i++)
        if (table[i].opt.val == id)
            snprintf(buf, cap, "--%s", table[i].opt.name);
}

/* Adds an engine from a SPEC, or from a config file's object of SPEC keys
 * (obj not NULL); it is resolved once every option is read (spec.h). */
static int add_engine(struct ref_settings *s, const cJSON *obj, const char *val,
                      const char *label, char *msg, size_t cap)
{
    struct err e;
    if (s->t.nengines == TOUR_MAX_ENGINES)
        return snprintf(msg, cap, "at most %d engines", TOUR_MAX_ENGINES), -1;
    struct ref_engine *eng = &s->t.engine[s->t.nengines++];
    memset(eng, 0, sizeof *eng);
    const cJSON *key;
    if (!obj) {
        if (ref_spec_parse(val, REF_SPEC_ENGINE, &eng->spec, &e) != 0)
            return snprintf(msg, cap, "%s '%.100s': column %d: %.120s", label, val, e.col,
                            e.msg), -1;
        return 0;
    }
    cJSON_ArrayForEach(key, obj) {
        char number[32];
        const char *v = key->valuestring;
        if (cJSON_IsNumber(key)) {   /* "depth": 3; 2.5 is refused as text */
            snprintf(number, sizeof number, "%.17g", key->valuedouble);
            v = number;
        }
        if (!v)
            return snprintf(msg, cap, "%s: \"%.40s\" must be a string", label, key->string), -1;
        if (ref_spec_set(&eng->spec, key->string, v, &e) != 0)
            return snprintf(msg, cap, "%s: \"%.40s\": %.160s", label, key->string, e.msg), -1;
    }
    return 0;
}

int ref_settings_apply(struct ref_settings *s, int id, const char *name, const char *val,
                       char *msg, size_t cap)
{
    struct { int id; long lo, hi; long *out; } nums[] = {
        { REF_OPT_GAMES, 1, MAX_GAMES, &s->games },
        { REF_OPT_TIMEOUT, 1, MAX_TIMEOUT_MS, &s->t.rules.limits.timeout_ms },
        { REF_OPT_CPU, 0, MAX_TIMEOUT_MS / 1000, &s->t.rules.limits.cpu_limit_s },
        { REF_OPT_MEM, 0, LONG_MAX / (1 << 20), &s->t.rules.limits.mem_limit_mb },
        { REF_OPT_BUDGET, 1, MAX_TIMEOUT_MS, &s->ana.budget_ms },
    };
    for (size_t k = 0; k < sizeof nums / sizeof *nums; k++)
        if (nums[k].id == id) {
            if (cli_int(val, nums[k].lo, nums[k].hi, nums[k].out) != 0)
                return snprintf(msg, cap, "%s must be a number from %ld to %ld, got '%s'", name,
                                nums[k].lo, nums[k].hi, val), -1;
            return 0;
        }
    struct { int id; long lo, hi; int *out; } ints[] = {
        { REF_OPT_DEPTH, 1, SEARCH_MAX_DEPTH, &s->t.rules.depth },
        { REF_OPT_PLIES, 0, GAME_MAX_MOVES, &s->t.rules.random_plies },
        { REF_OPT_DRAW, 0, MAX_GAMES, &s->t.rules.draw_plies },
        { REF_OPT_ROUNDS, 1, MAX_GAMES, &s->t.rounds },
        { REF_OPT_CONCURRENCY, 1, TOUR_MAX_CONCURRENCY, &s->t.concurrency },
        { REF_OPT_MAX_EMPTY, 0, C4_CELLS, &s->ana.max_empty },
    };
    for (size_t k = 0; k < sizeof ints / sizeof *ints; k++)
        if (ints[k].id == id) {
            long v;
            if (cli_int(val, ints[k].lo, ints[k].hi, &v) != 0)
                return snprintf(msg, cap, "%s must be a number from %ld to %ld, got '%s'", name,
                                ints[k].lo, ints[k].hi, val), -1;
            *ints[k].out = (int)v;
            return 0;
        }
    struct { int id; char *out; } paths[] = {
        { REF_OPT_OPENINGS, s->openings }, { REF_OPT_KEEP, s->keep },
        { REF_OPT_LOG, s->log }, { REF_OPT_JOURNAL, s->journal }, { REF_OPT_JSON, s->json },
    };
    for (size_t k = 0; k < sizeof paths / sizeof *paths; k++)
        if (paths[k].id == id) {
            snprintf(paths[k].out, PATH_MAX, "%s", val);
            return 0;
        }
    switch (id) {
    case REF_OPT_GAME:
        if (!(s->t.rules.game = game_find(val))) {
            int n = snprintf(msg, cap, "unknown game '%s' (", val);
            for (const struct game *const *g = game_all(); *g && n > 0 && (size_t)n < cap; g++)
                n += snprintf(msg + n, cap - (size_t)n, "%s%s", (*g)->name, g[1] ? ", " : ")");
            return -1;
        }
        return 0;
    case REF_OPT_ENGINE:
        return add_engine(s, NULL, val, name, msg, cap);
    case REF_OPT_EACH: {
        struct err e;
        if (ref_spec_parse(val, REF_SPEC_EACH, &s->each, &e) != 0)
            return snprintf(msg, cap, "%s '%.100s': column %d: %.120s", name, val, e.col,
                            e.msg), -1;
        return 0;
    }
    case REF_OPT_SEED: {
        long v;
        if (cli_int(val, 0, LONG_MAX, &v) != 0)
            return snprintf(msg, cap, "%s must be a number from 0 to %ld, got '%s'", name,
                            LONG_MAX, val), -1;
        s->t.rules.seed = (uint64_t)v;
        return 0;
    }
    case REF_OPT_FORMAT:
        if (s->command == REF_CMD_REPORT) {
            if (strcmp(val, "text") == 0)
                s->report_format = REPORT_TEXT;
            else if (strcmp(val, "json") == 0)
                s->report_format = REPORT_JSON;
            else if (strcmp(val, "csv") == 0)
                s->report_format = REPORT_CSV;
            else
                return snprintf(msg, cap, "format must be text, json or csv, got '%s'", val), -1;
        } else if (strcmp(val, "round-robin") == 0) {
            s->t.format = TOUR_ROUND_ROBIN;
        } else if (strcmp(val, "gauntlet") == 0) {
            s->t.format = TOUR_GAUNTLET;
        } else {
            return snprintf(msg, cap, "format must be round-robin or gauntlet, got '%s'", val), -1;
        }
        return 0;
    case REF_OPT_RESUME:
        s->t.resume = 1;
        return 0;
    case REF_OPT_ANALYZE:
        s->analyze = 1;
        return 0;
    case REF_OPT_SHARD: {
        int k, n, used = 0;
        if (sscanf(val, "%d/%d%n", &k, &n, &used) != 2 || val[used] || n < 1 || k < 1 || k > n)
            return snprintf(msg, cap, "shard must be K/N with 1 <= K <= N, got '%s'", val), -1;
        s->t.shard_k = k;
        s->t.shard_n = n;
        return 0;
    }
    case REF_OPT_SPRT: {
        struct tour_sprt p = { 1, 0, 0, 0, 0 };
        int used = 0;
        if (sscanf(val, "elo0=%lf,elo1=%lf,alpha=%lf,beta=%lf%n", &p.elo0, &p.elo1, &p.alpha,
                   &p.beta, &used) != 4 || val[used] || p.elo1 <= p.elo0 || p.alpha <= 0 ||
            p.alpha >= 1 || p.beta <= 0 || p.beta >= 1)
            return snprintf(msg, cap,
                            "sprt must be elo0=A,elo1=B,alpha=X,beta=Y with A < B and 0 < X, Y "
                            "< 1, got '%s'", val), -1;
        s->t.sprt = p;
        return 0;
    }
    }
    return snprintf(msg, cap, "'%s' is not an option of this command", name), -1;
}

/* The id of the option a config key names for command, or 0. */
static int option_of(const char *name, int command)
{
    char norm[KEY_MAX];
    snprintf(norm, sizeof norm, "%s", name);
    for (char *p = norm; *p; p++)
        if (*p == '_')
            *p = '-';
    for (int i = 0; i < REF_OPTIONS; i++)
        if (strcmp(table[i].opt.name, norm) == 0 && (table[i].commands & command))
            return table[i].opt.val;
    return 0;
}

/* Line and column of the first "key" in text, for a config error. */
static void key_place(const char *text, const char *key, struct err *e)
{
    char quoted[KEY_QUOTED_MAX];
    snprintf(quoted, sizeof quoted, "\"%s\"", key);
    const char *at = strstr(text, quoted);
    tf_place(text, at ? at : text, &e->line, &e->col);
}

/* The "engines" list: SPEC strings or objects of SPEC keys ({"name",
 * "cmd", ...}). */
static void apply_engines(struct ref_settings *s, const cJSON *list, char *msg, size_t cap)
{
    const cJSON *eng;
    cJSON_ArrayForEach(eng, list) {
        if (cJSON_IsString(eng))
            add_engine(s, NULL, eng->valuestring, "engines", msg, cap);
        else if (cJSON_IsObject(eng))
            add_engine(s, eng, NULL, "engines", msg, cap);
        else
            snprintf(msg, cap, "an engine is a SPEC string or an object {\"name\", \"cmd\", ...}");
        if (msg[0])
            return;
    }
}

/* A JSON number as option text: integral values as digits, others in full
 * so that the option's range check refuses them (1.5 is not 2 rounds). */
static void number_text(double v, char *buf, size_t cap)
{
    if (v == floor(v))
        snprintf(buf, cap, "%.0f", v);
    else
        snprintf(buf, cap, "%.17g", v);
}

int ref_config_parse(struct ref_settings *s, const char *text, size_t len, struct err *e)
{
    const char *nul = memchr(text, '\0', len);
    if (nul) {
        tf_place(text, nul, &e->line, &e->col);
        snprintf(e->msg, sizeof e->msg, "NUL byte in a text file");
        return -1;
    }
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithOpts(text, &end, 1);
    if (!root || !cJSON_IsObject(root)) {
        tf_place(text, root ? text : end ? end : text, &e->line, &e->col);
        snprintf(e->msg, sizeof e->msg, root ? "expected a JSON object of options"
                                             : "not valid JSON");
        cJSON_Delete(root);
        return -1;
    }
    int rc = 0;
    const cJSON *item;
    cJSON_ArrayForEach(item, root) {
        char msg[ERR_MSG_MAX] = "", val[PATH_MAX];
        int id = option_of(item->string, REF_CMD_TOURNAMENT);
        if (id == REF_OPT_CONFIG)
            id = 0;
        if (strcmp(item->string, "engines") == 0 && cJSON_IsArray(item)) {
            apply_engines(s, item, msg, sizeof msg);
        } else if (!id) {
            snprintf(msg, sizeof msg, "unknown key \"%s\"", item->string);
        } else if (cJSON_IsString(item)) {
            ref_settings_apply(s, id, item->string, item->valuestring, msg, sizeof msg);
        } else if (cJSON_IsNumber(item)) {
            number_text(item->valuedouble, val, sizeof val);
            ref_settings_apply(s, id, item->string, val, msg, sizeof msg);
        } else if (cJSON_IsBool(item) && id == REF_OPT_RESUME) {
            s->t.resume = cJSON_IsTrue(item);
        } else if (cJSON_IsBool(item) && id == REF_OPT_ANALYZE) {
            s->analyze = cJSON_IsTrue(item);
        } else {
            snprintf(msg, sizeof msg, "\"%s\" must be a string or a number", item->string);
        }
        if (msg[0]) {
            key_place(text, item->string, e);
            snprintf(e->msg, sizeof e->msg, "%s", msg);
            rc = -1;
            break;
        }
    }
    cJSON_Delete(root);
    return rc;
}

int ref_config_read(struct ref_settings *s, const char *path, struct err *e)
{
    char *text;
    size_t len;
    if (tf_read(path, REF_CONFIG_CAP, &text, &len, e) != 0)
        return -1;
    int rc = ref_config_parse(s, text, len, e);
    free(text);
    return rc;
}
