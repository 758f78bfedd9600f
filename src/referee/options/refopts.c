/*
 * options.c - the referee's options (refopts.h): the one table behind the
 * command line and the config file, the settings they fill, and the config
 * file reader. Messages name the option as the user wrote it (--rounds on
 * the command line, "rounds" in a file).
 */
#include <assert.h>
#include <cjson/cJSON.h>
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "arena/cli.h"
#include "referee/journal/header.h"
#include "referee/judge/judge.h"
#include "arena/limits.h"
#include "arena/path.h"
#include "arena/refopts.h"
#include "arena/registry.h"
#include "arena/search.h"
#include "arena/textfile.h"

#define KEY_MAX 64               /* bytes of an option name we compare */
#define KEY_QUOTED_MAX 80        /* bytes of "key" searched for a config error */

#define MS_PER_S 1000.0
/* A ms value that is not whole by more than this is refused, not rounded. */
#define TC_MS_SLACK 1e-6

/* Seconds at p (digits with an optional fraction) as whole milliseconds
 * into *ms; the text after it in *end. 0, or -1 when it is not such a
 * number, not a whole number of ms, or over PLAY_TC_MAX_S. */
static int tc_seconds(const char *p, char **end, long *ms)
{
    if (!isdigit((unsigned char)*p) && *p != '.')
        return -1;
    errno = 0;
    double s = strtod(p, end);
    double v = s * MS_PER_S;
    if (*end == p || errno || !isfinite(s) || s > PLAY_TC_MAX_S || fabs(v - round(v)) > TC_MS_SLACK)
        return -1;
    *ms = lround(v);
    return 0;
}

/* --tc BASE+INC (seconds; "+INC" may be left out) into *tc; 0, or -1 when
 * it does not parse or BASE is not above 0. */
static int tc_parse(const char *val, struct play_clock *tc)
{
    char *end;
    struct play_clock c = { 0, 0 };
    if (tc_seconds(val, &end, &c.base_ms) != 0 || c.base_ms <= 0)
        return -1;
    if (*end == '+' && tc_seconds(end + 1, &end, &c.inc_ms) != 0)
        return -1;
    if (*end)
        return -1;
    *tc = c;
    return 0;
}

/* Each command's own table (cli.h's convention). The options of the rules
 * of play are match's and tournament's alike. */
#define RULE_OPTIONS                                                  \
    { "game", required_argument, NULL, REF_OPT_GAME },                \
    { "judge", required_argument, NULL, REF_OPT_JUDGE },              \
    { "judge-sandbox", required_argument, NULL, REF_OPT_JUDGE_SANDBOX }, \
    { "engine", required_argument, NULL, REF_OPT_ENGINE },            \
    { "depth", required_argument, NULL, REF_OPT_DEPTH },              \
    { "random-plies", required_argument, NULL, REF_OPT_PLIES },       \
    { "openings", required_argument, NULL, REF_OPT_OPENINGS },        \
    { "seed", required_argument, NULL, REF_OPT_SEED },                \
    { "timeout-ms", required_argument, NULL, REF_OPT_TIMEOUT },       \
    { "tc", required_argument, NULL, REF_OPT_TC },                    \
    { "ponder", no_argument, NULL, REF_OPT_PONDER },                  \
    { "cpu-limit-s", required_argument, NULL, REF_OPT_CPU },          \
    { "mem-limit-mb", required_argument, NULL, REF_OPT_MEM },         \
    { "draw-plies", required_argument, NULL, REF_OPT_DRAW },          \
    { "keep-files", required_argument, NULL, REF_OPT_KEEP },          \
    { "analyze", no_argument, NULL, REF_OPT_ANALYZE },                \
    { "budget-ms", required_argument, NULL, REF_OPT_BUDGET },         \
    { "max-empty", required_argument, NULL, REF_OPT_MAX_EMPTY },      \
    { "each", required_argument, NULL, REF_OPT_EACH },                \
    { "sandbox", required_argument, NULL, REF_OPT_SANDBOX },          \
    { "sandbox-ro", required_argument, NULL, REF_OPT_SANDBOX_RO },     \
    { "sandbox-env", required_argument, NULL, REF_OPT_SANDBOX_ENV }

static const struct option match_options[] = {
    RULE_OPTIONS,
    { "games", required_argument, NULL, REF_OPT_GAMES },
    { "rounds", required_argument, NULL, REF_OPT_ROUNDS },
    { "concurrency", required_argument, NULL, REF_OPT_CONCURRENCY },
    { "force-concurrency", no_argument, NULL, REF_OPT_FORCE_CONCURRENCY },
    { "log", required_argument, NULL, REF_OPT_LOG },
    CLI_STD_OPTIONS,
};

#define TOURNAMENT_OPTIONS                                            \
    RULE_OPTIONS,                                                     \
    { "config", required_argument, NULL, REF_OPT_CONFIG },            \
    { "format", required_argument, NULL, REF_OPT_FORMAT },            \
    { "rounds", required_argument, NULL, REF_OPT_ROUNDS },            \
    { "concurrency", required_argument, NULL, REF_OPT_CONCURRENCY },  \
    { "force-concurrency", no_argument, NULL, REF_OPT_FORCE_CONCURRENCY }, \
    { "journal", required_argument, NULL, REF_OPT_JOURNAL },          \
    { "resume", no_argument, NULL, REF_OPT_RESUME },                  \
    { "sprt", required_argument, NULL, REF_OPT_SPRT },                \
    { "shard", required_argument, NULL, REF_OPT_SHARD },              \
    { "anchor", required_argument, NULL, REF_OPT_ANCHOR },            \
    { "seeds", required_argument, NULL, REF_OPT_SEEDS }

/* Also the config file's keys. */
static const struct option tournament_options[] = {
    TOURNAMENT_OPTIONS,
    CLI_STD_OPTIONS,
};

/* A tournament's options (validated as tournament does) and cluster.h's. */
static const struct option slurm_options[] = {
    TOURNAMENT_OPTIONS,
    REFOPTS_ARRAY_OPTIONS,
    { "out", required_argument, NULL, REF_OPT_OUT },
    { "parallel", no_argument, NULL, REF_OPT_PARALLEL },
    { "sshlogin", required_argument, NULL, REF_OPT_SSHLOGIN },
    CLI_STD_OPTIONS,
};

/* The judge of a judge's journal (never the one it records) and its
 * sandbox's read-only paths and environment, as a match's. */
#define READ_JUDGE_OPTIONS                                            \
    { "judge", required_argument, NULL, REF_OPT_JUDGE },              \
    { "judge-sandbox", required_argument, NULL, REF_OPT_JUDGE_SANDBOX }, \
    { "sandbox-ro", required_argument, NULL, REF_OPT_SANDBOX_RO },     \
    { "sandbox-env", required_argument, NULL, REF_OPT_SANDBOX_ENV }

static const struct option report_options[] = {
    { "format", required_argument, NULL, REF_OPT_FORMAT },
    { "table", required_argument, NULL, REF_OPT_TABLE },
    { "anchor", required_argument, NULL, REF_OPT_ANCHOR },
    READ_JUDGE_OPTIONS,
    CLI_STD_OPTIONS,
};

static const struct option verify_options[] = {
    READ_JUDGE_OPTIONS,
    CLI_STD_OPTIONS,
};

static const struct option analyze_options[] = {
    READ_JUDGE_OPTIONS,
    { "budget-ms", required_argument, NULL, REF_OPT_BUDGET },
    { "max-empty", required_argument, NULL, REF_OPT_MAX_EMPTY },
    { "json", required_argument, NULL, REF_OPT_JSON },
    CLI_STD_OPTIONS,
};

static const struct option bench_options[] = {
    { "game", required_argument, NULL, REF_OPT_GAME },
    { "judge", required_argument, NULL, REF_OPT_JUDGE },
    { "judge-sandbox", required_argument, NULL, REF_OPT_JUDGE_SANDBOX },
    { "engine", required_argument, NULL, REF_OPT_ENGINE },
    { "each", required_argument, NULL, REF_OPT_EACH },
    { "depths", required_argument, NULL, REF_OPT_DEPTHS },
    { "positions", required_argument, NULL, REF_OPT_POSITIONS },
    { "random-positions", required_argument, NULL, REF_OPT_RANDOM_POSITIONS },
    { "plies", required_argument, NULL, REF_OPT_BENCH_PLIES },
    { "seed", required_argument, NULL, REF_OPT_SEED },
    { "repeat", required_argument, NULL, REF_OPT_REPEAT },
    { "budget-ms", required_argument, NULL, REF_OPT_BENCH_BUDGET },
    { "json", required_argument, NULL, REF_OPT_JSON },
    { "svg", required_argument, NULL, REF_OPT_SVG },
    { "timeout-ms", required_argument, NULL, REF_OPT_TIMEOUT },
    { "cpu-limit-s", required_argument, NULL, REF_OPT_CPU },
    { "mem-limit-mb", required_argument, NULL, REF_OPT_MEM },
    { "sandbox", required_argument, NULL, REF_OPT_SANDBOX },
    { "sandbox-ro", required_argument, NULL, REF_OPT_SANDBOX_RO },
    { "sandbox-env", required_argument, NULL, REF_OPT_SANDBOX_ENV },
    CLI_STD_OPTIONS,
};

static const struct option similarity_options[] = {
    { "game", required_argument, NULL, REF_OPT_GAME },
    { "judge", required_argument, NULL, REF_OPT_JUDGE },
    { "judge-sandbox", required_argument, NULL, REF_OPT_JUDGE_SANDBOX },
    { "engine", required_argument, NULL, REF_OPT_ENGINE },
    { "each", required_argument, NULL, REF_OPT_EACH },
    { "depth", required_argument, NULL, REF_OPT_DEPTH },
    { "positions", required_argument, NULL, REF_OPT_SIMIL_POSITIONS },
    { "seed", required_argument, NULL, REF_OPT_SEED },
    { "format", required_argument, NULL, REF_OPT_FORMAT },
    { "timeout-ms", required_argument, NULL, REF_OPT_TIMEOUT },
    { "cpu-limit-s", required_argument, NULL, REF_OPT_CPU },
    { "mem-limit-mb", required_argument, NULL, REF_OPT_MEM },
    { "sandbox", required_argument, NULL, REF_OPT_SANDBOX },
    { "sandbox-ro", required_argument, NULL, REF_OPT_SANDBOX_RO },
    { "sandbox-env", required_argument, NULL, REF_OPT_SANDBOX_ENV },
    CLI_STD_OPTIONS,
};

static const struct option play_options[] = {
    { "game", required_argument, NULL, REF_OPT_GAME },
    { "engine", required_argument, NULL, REF_OPT_ENGINE },
    { "each", required_argument, NULL, REF_OPT_EACH },
    { "depth", required_argument, NULL, REF_OPT_DEPTH },
    { "port", required_argument, NULL, REF_OPT_PORT },
    { "listen", required_argument, NULL, REF_OPT_LISTEN },
    { "page-timeout-s", required_argument, NULL, REF_OPT_PAGE_TIMEOUT },
    { "journal", required_argument, NULL, REF_OPT_JOURNAL },
    { "timeout-ms", required_argument, NULL, REF_OPT_TIMEOUT },
    { "cpu-limit-s", required_argument, NULL, REF_OPT_CPU },
    { "mem-limit-mb", required_argument, NULL, REF_OPT_MEM },
    { "draw-plies", required_argument, NULL, REF_OPT_DRAW },
    { "sandbox", required_argument, NULL, REF_OPT_SANDBOX },
    { "sandbox-ro", required_argument, NULL, REF_OPT_SANDBOX_RO },
    { "sandbox-env", required_argument, NULL, REF_OPT_SANDBOX_ENV },
    CLI_STD_OPTIONS,
};

/* merge takes no option of its own. */
static const struct option plain_options[] = { CLI_STD_OPTIONS };

void refopts_settings_init(struct refopts_settings *s, enum refopts_command command)
{
    memset(s, 0, sizeof *s);
    s->command = command;
    s->games = REF_DEFAULT_GAMES;
    s->t.rules.depth = REF_DEFAULT_DEPTH;
    s->t.rules.seed = 1;
    s->t.rules.draw_plies = PLAY_DRAW_PLIES;
    s->t.rules.limits.timeout_ms = REF_DEFAULT_TIMEOUT_MS;
    s->t.rules.limits.file_limit_kb = REF_DEFAULT_FILE_LIMIT_KB;
    s->t.rounds = 1;
    s->t.concurrency = 1;
    s->t.shard_k = s->t.shard_n = 1;
    s->cluster.cpus = 1;
    s->ana.budget_ms = ANA_DEFAULT_BUDGET_MS;
    s->ana.max_empty = ANA_DEFAULT_MAX_EMPTY;
    s->bench.repeat = 1;
    s->simil.positions = SIMIL_DEFAULT_POSITIONS;
    if (command == REF_CMD_MATCH)   /* 0: not given; --games and --rounds exclude each other */
        s->games = s->t.rounds = 0;
    if (command == REF_CMD_BENCH)
        s->t.rules.random_plies = REF_BENCH_DEFAULT_PLIES;
    snprintf(s->listen, sizeof s->listen, "%s", PLAYSRV_DEFAULT_LISTEN);
    s->page_timeout_s = PLAYSRV_PAGE_TIMEOUT_S;
}

void refopts_settings_free(struct refopts_settings *s)
{
    for (int i = 0; i < s->t.nengines; i++)
        spec_free(&s->t.engine[i]);
    s->t.nengines = 0;
    spec_keys_free(&s->each);
    book_free(&s->book);
    sbx_policy_free(&s->sandbox);
    judge_close(s->t.rules.judge);
    s->t.rules.judge = NULL;
    free(s->judge_cmd);
    s->judge_cmd = NULL;
}

const struct option *refopts_options(enum refopts_command command)
{
    switch (command) {
    case REF_CMD_MATCH:
        return match_options;
    case REF_CMD_TOURNAMENT:
        return tournament_options;
    case REF_CMD_REPORT:
        return report_options;
    case REF_CMD_ANALYZE:
        return analyze_options;
    case REF_CMD_VERIFY:
        return verify_options;
    case REF_CMD_BENCH:
        return bench_options;
    case REF_CMD_SLURM:
        return slurm_options;
    case REF_CMD_PLAY:
        return play_options;
    case REF_CMD_SIMILARITY:
        return similarity_options;
    case REF_CMD_MERGE:
    case REF_CMD_STATUS:
    case REF_CMD_GRADE:
        break;
    }
    return plain_options;
}

void refopts_option_flag(int id, char *buf, size_t cap)
{
    static const struct option *const tables[] = { match_options, slurm_options,
                                                   report_options, analyze_options,
                                                   bench_options, play_options,
                                                   similarity_options };
    snprintf(buf, cap, "--?");
    for (size_t t = 0; t < sizeof tables / sizeof *tables; t++)
        for (const struct option *o = tables[t]; o->name; o++)
            if (o->val == id) {
                snprintf(buf, cap, "--%s", o->name);
                return;
            }
}

/* Adds an engine from a SPEC, or from a config file's object of SPEC keys
 * (obj not NULL); it is resolved once every option is read (spec.h). */
static int add_engine(struct refopts_settings *s, const cJSON *obj, const char *val,
                      const char *label, struct err *e)
{
    struct err why;
    if (s->t.nengines == TOUR_MAX_ENGINES)
        return err_set(e, 0, 0, "at most %d engines", TOUR_MAX_ENGINES);
    struct spec *eng = &s->t.engine[s->t.nengines++];
    memset(eng, 0, sizeof *eng);
    if (!obj) {
        if (spec_keys_parse(val, SPEC_ENGINE, &eng->keys, &why) != 0)
            return err_set(e, 0, 0, "%s '%.100s': column %d: %.120s", label, val, why.col,
                           why.msg);
        return 0;
    }
    const cJSON *key;
    cJSON_ArrayForEach(key, obj) {
        char number[32];
        const char *v = key->valuestring;
        if (cJSON_IsNumber(key)) {   /* "depth": 3; 2.5 is refused as text */
            snprintf(number, sizeof number, "%.17g", key->valuedouble);
            v = number;
        }
        if (!v)
            return err_set(e, 0, 0, "%s: \"%.40s\" must be a string", label, key->string);
        if (spec_keys_set(&eng->keys, key->string, v, &why) != 0)
            return err_set(e, 0, 0, "%s: \"%.40s\": %.160s", label, key->string, why.msg);
    }
    return 0;
}

/* Copies val into one of CLUSTER_MAX_ARGS strings of list (*n of them so
 * far); 0, or -1 with e. */
static int add_arg(char list[][CLUSTER_ARG_MAX], int *n, const char *name, const char *val,
                   struct err *e)
{
    if (*n == CLUSTER_MAX_ARGS)
        return err_set(e, 0, 0, "%s: at most %d", name, CLUSTER_MAX_ARGS);
    if (!val[0] || strlen(val) >= CLUSTER_ARG_MAX || strpbrk(val, "\n\r"))
        return err_set(e, 0, 0, "%s must be one line of 1 to %d bytes, got '%.60s'", name,
                       CLUSTER_ARG_MAX - 1, val);
    snprintf(list[(*n)++], CLUSTER_ARG_MAX, "%s", val);
    return 0;
}

/* Each apply_* below: 0 when id is one of its options (applied), -1 with e
 * when the value is bad, NOT_MINE when id is not one of them. */
#define NOT_MINE REFOPTS_NOT_MINE

int refopts_cluster_apply(struct cluster_opts *o, int id, const char *name, const char *val,
                          struct err *e)
{
    long v;
    switch (id) {
    case REF_OPT_SHARDS:
    case REF_OPT_CPUS:
        if (cli_int(val, 1, id == REF_OPT_SHARDS ? CLUSTER_MAX_SHARDS : TOUR_MAX_CONCURRENCY,
                    &v) != 0)
            return err_set(e, 0, 0, "%s must be a number from 1 to %d, got '%s'", name,
                           id == REF_OPT_SHARDS ? CLUSTER_MAX_SHARDS : TOUR_MAX_CONCURRENCY,
                           val);
        *(id == REF_OPT_SHARDS ? &o->shards : &o->cpus) = (int)v;
        return 0;
    case REF_OPT_PARTITION:
    case REF_OPT_TIME:
        if (!val[0] || strlen(val) >= CLUSTER_ARG_MAX || val[strcspn(val, " \t\r\n")])
            return err_set(e, 0, 0, "%s must be one word of at most %d bytes, got '%.60s'",
                           name, CLUSTER_ARG_MAX - 1, val);
        snprintf(id == REF_OPT_TIME ? o->time : o->partition, CLUSTER_ARG_MAX, "%s", val);
        return 0;
    case REF_OPT_SBATCH_ARG:
        if (val[0] != '-')
            return err_set(e, 0, 0, "%s must be an sbatch option (-X or --NAME=VALUE), got "
                           "'%.60s'", name, val);
        return add_arg(o->sbatch, &o->nsbatch, name, val, e);
    case REF_OPT_SSHLOGIN:
        return add_arg(o->ssh, &o->nssh, name, val, e);
    case REF_OPT_OUT:
        snprintf(o->out, sizeof o->out, "%s", val);
        return 0;
    case REF_OPT_DRY_RUN:
        o->dry_run = 1;
        return 0;
    case REF_OPT_PARALLEL:
        o->parallel = 1;
        return 0;
    }
    return NOT_MINE;
}

/* The options whose value is a number in a range. */
static int apply_number(struct refopts_settings *s, int id, const char *name, const char *val,
                        struct err *e)
{
    struct { int id; long lo, hi; long *out; } nums[] = {
        { REF_OPT_GAMES, 1, REF_MAX_GAMES, &s->games },
        { REF_OPT_TIMEOUT, 1, REF_MAX_TIMEOUT_MS, &s->t.rules.limits.timeout_ms },
        { REF_OPT_CPU, 0, REF_MAX_TIMEOUT_MS / 1000, &s->t.rules.limits.cpu_limit_s },
        { REF_OPT_MEM, 0, LONG_MAX / (1 << 20), &s->t.rules.limits.mem_limit_mb },
        { REF_OPT_BUDGET, 1, REF_MAX_TIMEOUT_MS, &s->ana.budget_ms },
        { REF_OPT_BENCH_BUDGET, 1, REF_MAX_TIMEOUT_MS, &s->bench.budget_ms },
        { REF_OPT_RANDOM_POSITIONS, 1, REF_BENCH_MAX_POSITIONS, &s->bench.positions },
        { REF_OPT_REPEAT, 1, REF_BENCH_MAX_REPEAT, &s->bench.repeat },
        { REF_OPT_SIMIL_POSITIONS, 1, SIMIL_MAX_POSITIONS, &s->simil.positions },
        { REF_OPT_SEED, 0, LONG_MAX, NULL },
    };
    for (size_t k = 0; k < sizeof nums / sizeof *nums; k++)
        if (nums[k].id == id) {
            long v;
            if (cli_int(val, nums[k].lo, nums[k].hi, &v) != 0)
                return err_set(e, 0, 0, "%s must be a number from %ld to %ld, got '%s'", name,
                               nums[k].lo, nums[k].hi, val);
            if (nums[k].out)
                *nums[k].out = v;
            else
                s->t.rules.seed = (uint64_t)v;
            return 0;
        }
    struct { int id; long lo, hi; int *out; } ints[] = {
        { REF_OPT_DEPTH, 1, SEARCH_MAX_DEPTH, &s->t.rules.depth },
        { REF_OPT_PLIES, 0, GAME_MAX_MOVES, &s->t.rules.random_plies },
        { REF_OPT_BENCH_PLIES, 0, GAME_MAX_MOVES, &s->t.rules.random_plies },
        { REF_OPT_DRAW, 0, REF_MAX_GAMES, &s->t.rules.draw_plies },
        { REF_OPT_ROUNDS, 1, REF_MAX_GAMES, &s->t.rounds },
        { REF_OPT_CONCURRENCY, 1, TOUR_MAX_CONCURRENCY, &s->t.concurrency },
        { REF_OPT_MAX_EMPTY, 0, ANA_MAX_EMPTY_LIMIT, &s->ana.max_empty },
        { REF_OPT_PORT, 0, 65535, &s->port },
        { REF_OPT_PAGE_TIMEOUT, 1, PLAYSRV_MAX_PAGE_TIMEOUT_S, &s->page_timeout_s },
    };
    for (size_t k = 0; k < sizeof ints / sizeof *ints; k++)
        if (ints[k].id == id) {
            long v;
            if (cli_int(val, ints[k].lo, ints[k].hi, &v) != 0)
                return err_set(e, 0, 0, "%s must be a number from %ld to %ld, got '%s'", name,
                               ints[k].lo, ints[k].hi, val);
            *ints[k].out = (int)v;
            return 0;
        }
    return NOT_MINE;
}

/* The options whose value is a path, checked when it is used. */
static int apply_path(struct refopts_settings *s, int id, const char *val)
{
    struct { int id; char *out; } paths[] = {
        { REF_OPT_OPENINGS, s->openings }, { REF_OPT_POSITIONS, s->openings },
        { REF_OPT_KEEP, s->keep },
        { REF_OPT_LOG, s->log }, { REF_OPT_JOURNAL, s->journal }, { REF_OPT_JSON, s->json },
        { REF_OPT_SVG, s->svg },
    };
    for (size_t k = 0; k < sizeof paths / sizeof *paths; k++)
        if (paths[k].id == id) {
            snprintf(paths[k].out, PATH_MAX, "%s", val);
            return 0;
        }
    if (id == REF_OPT_LISTEN) {   /* an address, read when the server starts */
        snprintf(s->listen, sizeof s->listen, "%s", val);
        return 0;
    }
    return NOT_MINE;
}

/* The options whose value is one word of a list. */
static int apply_choice(struct refopts_settings *s, int id, const char *name, const char *val,
                        struct err *e)
{
    static const struct { int id, cmd; const char *word; int value; } words[] = {
        { REF_OPT_FORMAT, REF_CMD_REPORT, "text", REPORT_TEXT },
        { REF_OPT_FORMAT, REF_CMD_REPORT, "json", REPORT_JSON },
        { REF_OPT_FORMAT, REF_CMD_REPORT, "csv", REPORT_CSV },
        { REF_OPT_FORMAT, REF_CMD_REPORT, "html", REPORT_HTML },
        { REF_OPT_FORMAT, REF_CMD_SIMILARITY, "text", SIMILARITY_TEXT },
        { REF_OPT_FORMAT, REF_CMD_SIMILARITY, "json", SIMILARITY_JSON },
        { REF_OPT_FORMAT, -1, "round-robin", SCHEDULE_ROUND_ROBIN },
        { REF_OPT_FORMAT, -1, "gauntlet", SCHEDULE_GAUNTLET },
        { REF_OPT_FORMAT, -1, "swiss", SCHEDULE_SWISS },
        { REF_OPT_FORMAT, -1, "knockout", SCHEDULE_KNOCKOUT },
        { REF_OPT_TABLE, -1, "standings", REPORT_CSV_STANDINGS },
        { REF_OPT_TABLE, -1, "pairs", REPORT_CSV_PAIRS },
        { REF_OPT_TABLE, -1, "cpu", REPORT_CSV_CPU },
        { REF_OPT_TABLE, -1, "forfeits", REPORT_CSV_FORFEITS },
        { REF_OPT_TABLE, -1, "forfeit-games", REPORT_CSV_FORFEIT_GAMES },
        { REF_OPT_SANDBOX, -1, "namespaces", SBX_NAMESPACES },
        { REF_OPT_SANDBOX, -1, "none", SBX_NONE },
        { REF_OPT_JUDGE_SANDBOX, -1, "namespaces", SBX_NAMESPACES },
        { REF_OPT_JUDGE_SANDBOX, -1, "none", SBX_NONE },
    };
    int own_format = s->command == REF_CMD_REPORT || s->command == REF_CMD_SIMILARITY;
    int cmd = id == REF_OPT_FORMAT && own_format ? (int)s->command : -1;
    char list[128] = "";
    int n = 0, used = 0;
    for (size_t k = 0; k < sizeof words / sizeof *words; k++) {
        if (words[k].id != id || words[k].cmd != cmd)
            continue;
        if (strcmp(val, words[k].word) == 0) {
            if (id == REF_OPT_FORMAT && cmd == REF_CMD_REPORT)
                s->report_format = (enum report_format)words[k].value;
            else if (id == REF_OPT_FORMAT && cmd == REF_CMD_SIMILARITY)
                s->simil.format = (enum similarity_format)words[k].value;
            else if (id == REF_OPT_FORMAT)
                s->t.format = (enum schedule_format)words[k].value;
            else if (id == REF_OPT_TABLE)
                s->report_table = (enum report_csv_table)words[k].value, s->report_table_given = 1;
            else if (id == REF_OPT_JUDGE_SANDBOX)
                s->judge_sandbox = (enum sbx_mode)words[k].value;
            else
                s->sandbox.mode = (enum sbx_mode)words[k].value;
            return 0;
        }
        n++;
        used += snprintf(list + used, sizeof list - (size_t)used, "%s%s", used ? ", " : "",
                         words[k].word);
    }
    if (!n)
        return NOT_MINE;
    /* "a, b or c" */
    char *last = strrchr(list, ',');
    if (last)
        return err_set(e, 0, 0, "%s must be %.*s or%s, got '%s'", name, (int)(last - list), list,
                       last + 1, val);
    return err_set(e, 0, 0, "%s must be %s, got '%s'", name, list, val);
}

/* --sprt elo0=A,elo1=B,alpha=X,beta=Y[,model=M]. */
static int apply_sprt(struct refopts_settings *s, const char *name, const char *val, struct err *e)
{
    struct tour_sprt p = { .on = 1, .model = PENTA_NORMALIZED };
    int used = 0;
    const char *model = NULL;
    if (sscanf(val, "elo0=%lf,elo1=%lf,alpha=%lf,beta=%lf%n", &p.elo0, &p.elo1, &p.alpha,
               &p.beta, &used) == 4 && strncmp(val + used, ",model=", 7) == 0)
        model = val + used + 7;
    if (model)
        p.model_given = penta_model_parse(model, &p.model) == 0;
    /* penta_llr's bounds: both models stay finite within them. */
    if (used == 0 || (model ? !p.model_given : val[used] != '\0') || p.elo1 <= p.elo0 ||
        fabs(p.elo0) >= PENTA_ELO_MAX || fabs(p.elo1) >= PENTA_ELO_MAX || p.alpha <= 0 ||
        p.alpha >= 1 || p.beta <= 0 || p.beta >= 1)
        return err_set(e, 0, 0,
                       "%s must be elo0=A,elo1=B,alpha=X,beta=Y[,model=normalized|logistic] "
                       "(commas or blanks between) with A < B, |A|, |B| < 1000 and 0 < X, Y < "
                       "1, got '%s'", name, val);
    s->t.sprt = p;
    return 0;
}

/* --judge: kept, not started, since --judge-sandbox may follow. A
 * journal's reader (report, verify, analyze) starts it once its header's
 * files match (judge_game_of); the commands that play, once every option is
 * read (refopts_judge_start). */
static int keep_judge(struct refopts_settings *s, const char *name, const char *val,
                      struct err *e)
{
    if (s->judge_cmd)
        return err_set(e, 0, 0, "%s: one judge only", name);
    if (!(s->judge_cmd = strdup(val)))
        return err_set(e, 0, 0, "out of memory");
    return 0;
}

static int reads_journal(enum refopts_command command)
{
    return command == REF_CMD_REPORT || command == REF_CMD_VERIFY || command == REF_CMD_ANALYZE;
}

/* The options that name things: a game, SPECs, a path that must exist. */
static int apply_named(struct refopts_settings *s, int id, const char *name, const char *val,
                       struct err *e)
{
    struct err why;
    switch (id) {
    case REF_OPT_JUDGE:
        if (!reads_journal(s->command) && (s->t.rules.game || s->judge_cmd))
            return err_set(e, 0, 0, "%s: the game is named already (--game or --judge once)",
                           name);
        return keep_judge(s, name, val, e);
    case REF_OPT_GAME:
        if (s->judge_cmd)
            return err_set(e, 0, 0, "%s: the game is named already (--game or --judge once)",
                           name);
        if (!(s->t.rules.game = registry_find(val))) {
            char games[REGISTRY_NAMES_MAX];
            registry_names(games, sizeof games, NULL, ", ");
            return err_set(e, 0, 0, "unknown game '%s' (%s)", val, games);
        }
        return 0;
    case REF_OPT_ENGINE:
        return add_engine(s, NULL, val, name, e);
    case REF_OPT_TC:
        if (tc_parse(val, &s->t.rules.tc) != 0)
            return err_set(e, 0, 0, "%s must be BASE+INC in seconds (BASE above 0, INC 0 or "
                           "more, whole milliseconds: 10+0.1, 60+0, 2.5+0.025), got '%s'",
                           name, val);
        return 0;
    case REF_OPT_EACH:
        if (spec_keys_parse(val, SPEC_EACH, &s->each, &why) != 0)
            return err_set(e, 0, 0, "%s '%.100s': column %d: %.120s", name, val, why.col,
                           why.msg);
        return 0;
    case REF_OPT_SANDBOX_RO: {
        struct stat st;
        if (stat(val, &st) != 0)
            return err_set(e, 0, 0, "%s '%s': %s", name, val, strerror(errno));
        if (sbx_paths_add(&s->sandbox.ro, val, &why) != 0)
            return err_set(e, 0, 0, "%s '%.100s': %s", name, val, why.msg);
        return 0;
    }
    case REF_OPT_SANDBOX_ENV:
        if (sbx_env_add(&s->sandbox, val, &why) != 0)
            return err_set(e, 0, 0, "%s '%.100s': %s", name, val, why.msg);
        return 0;
    }
    return NOT_MINE;
}

/* --anchor NAME=ELO: NAME an engine's name (which engine is checked once
 * the engines are known: tally_anchor), ELO a finite number; repeatable,
 * a name given again takes the later rating. */
static int apply_anchor(struct refopts_settings *s, const char *name, const char *val,
                        struct err *e)
{
    const char *eq = strrchr(val, '=');
    char *end = NULL;
    double elo = eq ? strtod(eq + 1, &end) : NAN;
    if (!eq || eq == val || (size_t)(eq - val) >= REC_NAME_MAX || end == eq + 1 || *end ||
        !isfinite(elo))
        return err_set(e, 0, 0, "%s must be NAME=ELO (an engine's name, a rating: "
                       "alphabeta:4=1000), got '%s'", name, val);
    struct tour_config *t = &s->t;
    int k = 0;
    while (k < t->nanchors && (strncmp(t->anchor[k].name, val, (size_t)(eq - val)) != 0 ||
                               t->anchor[k].name[eq - val]))
        k++;
    if (k == TOUR_MAX_ENGINES)
        return err_set(e, 0, 0, "%s: more than %d anchors", name, TOUR_MAX_ENGINES);
    snprintf(t->anchor[k].name, sizeof t->anchor[k].name, "%.*s", (int)(eq - val), val);
    t->anchor[k].elo = elo;
    t->nanchors += k == t->nanchors;
    return 0;
}

/* The config's "seeds": the --seeds list as given. 1, or 0 when out of
 * memory. */
static int add_seeds(cJSON *j, const struct tour_config *t)
{
    char list[TOUR_MAX_ENGINES * REC_NAME_MAX];
    size_t used = 0;
    for (int k = 0; k < t->nseeds; k++)
        used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", k ? "," : "",
                                 t->seed_name[k]);
    return cJSON_AddStringToObject(j, "seeds", list) != NULL;
}

/* --seeds NAME[,NAME...]: the gauntlet's seeds, by name (which engines:
 * tour_seeds, once they are named); given again, the later list. */
static int apply_seeds(struct refopts_settings *s, const char *name, const char *val,
                       struct err *e)
{
    struct tour_config *t = &s->t;
    t->nseeds = 0;
    for (const char *p = val;; p++) {
        size_t len = strcspn(p, ",");
        if (len == 0 || len >= REC_NAME_MAX || t->nseeds == TOUR_MAX_ENGINES)
            return err_set(e, 0, 0, "%s must be NAME[,NAME...] (engines' names), got '%s'",
                           name, val);
        snprintf(t->seed_name[t->nseeds++], REC_NAME_MAX, "%.*s", (int)len, p);
        p += len;
        if (!*p)
            return 0;
    }
}

/* The options whose value has a form of its own (A-B, K/N, the SPRT's
 * keys) or none. */
static int apply_form(struct refopts_settings *s, int id, const char *name, const char *val,
                      struct err *e)
{
    switch (id) {
    case REF_OPT_SHARD: {
        int k, n, used = 0;
        if (sscanf(val, "%d/%d%n", &k, &n, &used) != 2 || val[used] || n < 1 || k < 1 || k > n)
            return err_set(e, 0, 0, "%s must be K/N with 1 <= K <= N, got '%s'", name, val);
        s->t.shard_k = k;
        s->t.shard_n = n;
        return 0;
    }
    case REF_OPT_DEPTHS: {
        long lo, hi;
        if (cli_range(val, 1, SEARCH_MAX_DEPTH, &lo, &hi) != 0)
            return err_set(e, 0, 0, "%s must be A-B with 1 <= A <= B <= %d, got '%s'", name,
                           SEARCH_MAX_DEPTH, val);
        s->bench.depth_min = (int)lo;
        s->bench.depth_max = (int)hi;
        return 0;
    }
    case REF_OPT_SPRT:
        return apply_sprt(s, name, val, e);
    case REF_OPT_ANCHOR:
        return apply_anchor(s, name, val, e);
    case REF_OPT_SEEDS:
        return apply_seeds(s, name, val, e);
    case REF_OPT_RESUME:
        s->t.resume = 1;
        return 0;
    case REF_OPT_ANALYZE:
        s->analyze = 1;
        return 0;
    case REF_OPT_PONDER:
        s->t.rules.ponder = 1;
        return 0;
    case REF_OPT_FORCE_CONCURRENCY:
        s->force_concurrency = 1;
        return 0;
    }
    return NOT_MINE;
}

int refopts_settings_apply(struct refopts_settings *s, int id, const char *name, const char *val,
                       struct err *e)
{
    int rc = apply_number(s, id, name, val, e);
    if (rc == NOT_MINE)
        rc = apply_path(s, id, val);
    if (rc == NOT_MINE)
        rc = apply_choice(s, id, name, val, e);
    if (rc == NOT_MINE)
        rc = refopts_cluster_apply(&s->cluster, id, name, val, e);
    if (rc == NOT_MINE)
        rc = apply_named(s, id, name, val, e);
    if (rc == NOT_MINE)
        rc = apply_form(s, id, name, val, e);
    if (rc == NOT_MINE)
        rc = err_set(e, 0, 0, "'%s' is not an option of this command", name);
    return rc;
}

void refopts_judge(const struct refopts_settings *s, struct judge_cmd *j)
{
    *j = (struct judge_cmd){ .cmd = s->judge_cmd,
                             .sandbox = s->judge_sandbox == SBX_NONE ? NULL : &s->sandbox,
                             .cg = s->judge_sandbox == SBX_NONE ? NULL : s->t.rules.acct };
}

int refopts_judge_start(struct refopts_settings *s, struct err *e)
{
    if (!s->judge_cmd || reads_journal(s->command) || s->t.rules.judge)
        return 0;
    assert(!s->t.rules.game);   /* --game and --judge exclude each other (apply_named) */
    struct judge_cmd named;
    refopts_judge(s, &named);
    int rc = judge_open(&named, NULL, &s->t.rules.judge, e);   /* -1 or JUDGE_FAILED */
    if (rc == 0)
        s->t.rules.game = judge_game(s->t.rules.judge);
    /* The judge keeps its own words: no worker holds a copy to free (a
     * tournament's frees its tour_config only). */
    free(s->judge_cmd);
    s->judge_cmd = NULL;
    return rc;
}

/* The id of the tournament option a config key names, or 0. */
static int option_of(const char *name)
{
    char norm[KEY_MAX];
    snprintf(norm, sizeof norm, "%s", name);
    for (char *p = norm; *p; p++)
        if (*p == '_')
            *p = '-';
    for (const struct option *o = tournament_options; o->name; o++)
        if (strcmp(o->name, norm) == 0 && o->val != CLI_OPT_HELP && o->val != CLI_OPT_VERSION)
            return o->val;
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
 * "cmd", ...}). 0, or -1 with e. */
static int apply_engines(struct refopts_settings *s, const cJSON *list, struct err *e)
{
    const cJSON *eng;
    cJSON_ArrayForEach(eng, list) {
        int rc = cJSON_IsString(eng) ? add_engine(s, NULL, eng->valuestring, "engines", e)
                 : cJSON_IsObject(eng)
                     ? add_engine(s, eng, NULL, "engines", e)
                     : err_set(e, 0, 0, "an engine is a SPEC string or an object {\"name\", "
                               "\"cmd\", ...}");
        if (rc)
            return -1;
    }
    return 0;
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

/* Applies one key of a config file; 0, or -1 with e's message (its place
 * is the caller's). */
static int apply_key(struct refopts_settings *s, const cJSON *item, struct err *e)
{
    char val[PATH_MAX];
    int id = option_of(item->string);
    if (id == REF_OPT_CONFIG)
        id = 0;
    if (strcmp(item->string, "engines") == 0 && cJSON_IsArray(item))
        return apply_engines(s, item, e);
    if (!id)
        return err_set(e, 0, 0, "unknown key \"%s\"", item->string);
    if (cJSON_IsString(item))
        return refopts_settings_apply(s, id, item->string, item->valuestring, e);
    if (cJSON_IsNumber(item)) {
        number_text(item->valuedouble, val, sizeof val);
        return refopts_settings_apply(s, id, item->string, val, e);
    }
    if (cJSON_IsArray(item) && (id == REF_OPT_SANDBOX_RO || id == REF_OPT_SANDBOX_ENV)) {
        const cJSON *ro;   /* the repeatable options beside engines */
        cJSON_ArrayForEach(ro, item)
            if (!cJSON_IsString(ro))
                return err_set(e, 0, 0, "\"%s\" must be a list of %s", item->string,
                               id == REF_OPT_SANDBOX_ENV ? "names" : "paths");
            else if (refopts_settings_apply(s, id, item->string, ro->valuestring, e) != 0)
                return -1;
        return 0;
    }
    if (cJSON_IsBool(item) && id == REF_OPT_RESUME) {
        s->t.resume = cJSON_IsTrue(item);
        return 0;
    }
    if (cJSON_IsBool(item) && id == REF_OPT_ANALYZE) {
        s->analyze = cJSON_IsTrue(item);
        return 0;
    }
    if (cJSON_IsBool(item) && id == REF_OPT_PONDER) {
        s->t.rules.ponder = cJSON_IsTrue(item);
        return 0;
    }
    if (cJSON_IsBool(item) && id == REF_OPT_FORCE_CONCURRENCY) {
        s->force_concurrency = cJSON_IsTrue(item);
        return 0;
    }
    return err_set(e, 0, 0, "\"%s\" must be a string or a number", item->string);
}

int refopts_config_parse(struct refopts_settings *s, const char *text, size_t len, struct err *e)
{
    cJSON *root = tf_json_object(text, len, "expected a JSON object of options", e);
    if (!root)
        return -1;
    int rc = 0;
    const cJSON *item;
    cJSON_ArrayForEach(item, root) {
        if ((rc = apply_key(s, item, e)) != 0) {
            key_place(text, item->string, e);
            break;
        }
    }
    cJSON_Delete(root);
    return rc;
}

int refopts_config_read(struct refopts_settings *s, const char *path, struct err *e)
{
    char *text;
    size_t len;
    if (tf_read(path, REF_CONFIG_CAP, &text, &len, e) != 0)
        return -1;
    int rc = refopts_config_parse(s, text, len, e);
    free(text);
    return rc;
}

/* An engine's config object: what spec_resolve made of it, which resolves
 * to itself again. */
static cJSON *engine_json(const struct spec *eng)
{
    char cmd[RUN_MAX_ARGS * 64];
    long len = spec_join(eng->argv, eng->argc, cmd, sizeof cmd);
    cJSON *j = cJSON_CreateObject();
    if (len < 0 || !j)
        return cJSON_Delete(j), NULL;
    cJSON_AddStringToObject(j, "name", eng->name);
    cJSON_AddStringToObject(j, "cmd", cmd);
    cJSON_AddStringToObject(j, "dir", eng->dir);
    if (eng->stderr_path)
        cJSON_AddStringToObject(j, "stderr", eng->stderr_path);
    if (eng->depth)
        cJSON_AddNumberToObject(j, "depth", eng->depth);
    if (eng->proto != SPEC_FILE)
        cJSON_AddStringToObject(j, "proto", spec_proto_name(eng->proto));
    return j;
}

cJSON *refopts_config_json(const struct refopts_settings *s)
{
    const struct play_rules *r = &s->t.rules;
    cJSON *j = cJSON_CreateObject(), *engines = cJSON_AddArrayToObject(j, "engines");
    int ok = r->game && engines;
    if (ok)
        cJSON_AddStringToObject(j, "game", r->game->name);
    for (int i = 0; ok && i < s->t.nengines; i++) {
        cJSON *eng = engine_json(&s->t.engine[i]);
        ok = eng && cJSON_AddItemToArray(engines, eng);
    }
    struct { const char *key; double v; int always; } nums[] = {
        { "depth", r->depth, 1 },
        { "random-plies", r->random_plies, 1 },
        { "timeout-ms", (double)r->limits.timeout_ms, 1 },
        { "cpu-limit-s", (double)r->limits.cpu_limit_s, 0 },
        { "mem-limit-mb", (double)r->limits.mem_limit_mb, 0 },
        { "draw-plies", r->draw_plies, 1 },
        { "rounds", s->t.rounds, 1 },
        { "budget-ms", (double)s->ana.budget_ms, 1 },
        { "max-empty", s->ana.max_empty, 1 },
    };
    for (size_t k = 0; ok && k < sizeof nums / sizeof *nums; k++)
        if (nums[k].always || nums[k].v)
            ok = cJSON_AddNumberToObject(j, nums[k].key, nums[k].v) != NULL;
    char path[PATH_MAX];
    if (ok && r->tc.base_ms > 0) {
        snprintf(path, sizeof path, "%ld.%03ld+%ld.%03ld", r->tc.base_ms / 1000,
                 r->tc.base_ms % 1000, r->tc.inc_ms / 1000, r->tc.inc_ms % 1000);
        ok = cJSON_AddStringToObject(j, "tc", path) != NULL;
    }
    if (ok && r->ponder)
        ok = cJSON_AddTrueToObject(j, "ponder") != NULL;
    cJSON *seed = ok ? hdr_seed_json(r->seed) : NULL;   /* exact, as in a journal */
    if (ok && !(seed && cJSON_AddItemToObject(j, "seed", seed))) {
        cJSON_Delete(seed);
        ok = 0;
    }
    if (ok && s->openings[0])
        ok = path_lexical(s->openings, NULL, path, sizeof path) == 0 &&
             cJSON_AddStringToObject(j, "openings", path);
    if (ok && s->keep[0])
        ok = path_lexical(s->keep, NULL, path, sizeof path) == 0 &&
             cJSON_AddStringToObject(j, "keep-files", path);
    if (ok) {
        cJSON_AddStringToObject(j, "format", schedule_format_name(s->t.format));
        if (s->t.nseeds)   /* the shards play the same gauntlet */
            ok = add_seeds(j, &s->t);
        cJSON_AddBoolToObject(j, "analyze", s->analyze);
        cJSON_AddStringToObject(j, "sandbox",
                                s->sandbox.mode == SBX_NONE ? "none" : "namespaces");
        cJSON *ro = cJSON_AddArrayToObject(j, "sandbox-ro");
        for (int i = 0; ro && i < s->sandbox.ro.n; i++)
            cJSON_AddItemToArray(ro, cJSON_CreateString(s->sandbox.ro.path[i]));
        ok = ro != NULL;
        if (ok && s->sandbox.nenv) {
            cJSON *env = cJSON_AddArrayToObject(j, "sandbox-env");
            for (int i = 0; env && i < s->sandbox.nenv; i++)
                cJSON_AddItemToArray(env, cJSON_CreateString(s->sandbox.env[i]));
            ok = env != NULL;
        }
    }
    if (!ok)
        cJSON_Delete(j);
    return ok ? j : NULL;
}
