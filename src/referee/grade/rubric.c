/*
 * rubric.c - a grading rubric read and checked (rubric.h). cJSON keeps no
 * positions, so a small scanner finds the line and column of the key or
 * value an error is about in the text itself.
 */
#define _GNU_SOURCE
#include <assert.h>
#include <cjson/cJSON.h>
#include <ctype.h>
#include <glob.h>
#include <libgen.h>
#include <assert.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "arena/cli.h"
#include "arena/limits.h"
#include "arena/registry.h"
#include "rubric.h"
#include "arena/textfile.h"

static const char *const kind_names[] = {
    [RUBRIC_LEGAL] = "legal", [RUBRIC_EXACT] = "exact", [RUBRIC_MATCH] = "match",
    [RUBRIC_CPU] = "cpu",     [RUBRIC_IO] = "io",
};

/* The keys each kind takes besides id, kind and points. */
static const char *const kind_keys[][6] = {
    [RUBRIC_LEGAL] = { "positions", "depth" },
    [RUBRIC_EXACT] = { "positions", "depth" },
    [RUBRIC_MATCH] = { "opponent", "games", "min_score", "depth" },
    [RUBRIC_CPU] = { "positions", "depth", "max_ms" },
    [RUBRIC_IO] = { "cmd", "inputs", "reference", "args", "expected" },
};

static const char *const top_keys[] = {
    "game", "engine", "proto", "build", "build_timeout_ms", "timeout_ms", "cpu_limit_s",
    "mem_limit_mb", "seed", "random_plies", "visibility", "checks",
};

/* Gradescope's words, in enum rubric_visibility's order. */
static const char *const visibility_names[] = {
    [RUBRIC_VISIBLE] = "visible", [RUBRIC_HIDDEN] = "hidden",
    [RUBRIC_AFTER_DUE_DATE] = "after_due_date", [RUBRIC_AFTER_PUBLISHED] = "after_published",
};
#define NVISIBILITY (int)(sizeof visibility_names / sizeof *visibility_names)

/* The suite's programs an io check may compare with. */
static const char *const references[] = { "spfiar", "checkers", "nim", "maxconnect4" };

const char *rubric_kind_name(enum rubric_kind kind)
{
    return kind_names[kind];
}

const char *rubric_visibility_name(enum rubric_visibility v)
{
    assert((int)v >= 0 && (int)v < NVISIBILITY);
    return visibility_names[v];
}

/* --- where a key is: a JSON scanner over the text ----------------------- */

/* Past white space as cJSON reads it: every byte from 1 to 32 (control
 * characters too), or its places would drift from what cJSON accepted. */
static const char *skip_ws(const char *p)
{
    while (*p && (unsigned char)*p <= 32)
        p++;
    return p;
}

/* Past the JSON value at p (cJSON has accepted the text). */
static const char *skip_value(const char *p)
{
    p = skip_ws(p);
    if (*p == '"') {
        for (p++; *p && *p != '"'; p++)
            if (*p == '\\' && p[1])
                p++;
        return *p ? p + 1 : p;
    }
    if (*p == '{' || *p == '[') {
        char close = *p == '{' ? '}' : ']';
        p = skip_ws(p + 1);
        while (*p && *p != close) {
            const char *from = p;
            if (close == '}') {
                p = skip_ws(skip_value(p));   /* the key */
                p = *p == ':' ? p + 1 : p;
            }
            p = skip_ws(skip_value(p));
            p = *p == ',' ? skip_ws(p + 1) : p;
            if (p == from)   /* not JSON after all: never loop */
                return p + strlen(p);
        }
        return *p ? p + 1 : p;
    }
    while (*p && !strchr(",}] \t\r\n", *p))
        p++;
    return p;
}

/* In the object at p: the first member named key; *value its value. NULL
 * when none. */
static const char *find_key(const char *p, const char *key, const char **value)
{
    p = skip_ws(p);
    if (*p != '{')
        return NULL;
    p = skip_ws(p + 1);
    size_t n = strlen(key);
    while (*p == '"') {
        const char *k = p;
        p = skip_ws(skip_value(p));
        p = skip_ws(*p == ':' ? p + 1 : p);
        if ((size_t)(strchr(k + 1, '"') - k - 1) == n && strncmp(k + 1, key, n) == 0) {
            *value = p;
            return k;
        }
        const char *from = p;
        p = skip_ws(skip_value(p));
        p = *p == ',' ? skip_ws(p + 1) : p;
        if (p == from)
            break;
    }
    return NULL;
}

/* The place of check `index`'s key (index < 0: a top-level key; key NULL:
 * the check itself), at the key or, with at_value, at its value. */
static const char *place(const char *text, int index, const char *key, int at_value)
{
    const char *v = text, *k = NULL;
    if (index >= 0) {
        if (!find_key(text, "checks", &v))
            return text;
        v = skip_ws(v + 1);
        for (int i = 0; i < index && *v; i++) {
            const char *from = v;
            v = skip_ws(skip_value(v));
            v = *v == ',' ? skip_ws(v + 1) : v;
            if (v == from)
                return text;
        }
        if (!key)
            return v;
    }
    const char *obj = v;
    if (!key)   /* the top level itself */
        return obj;
    k = find_key(obj, key, &v);
    return !k ? obj : at_value ? v : k;
}

/* --- reading the values ----------------------------------------------- */

struct ctx {
    const char *text;
    struct err *e;
    int index;               /* the check being read; -1: the top level */
};

static int fail(const struct ctx *c, const char *key, int at_value, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int fail(const struct ctx *c, const char *key, int at_value, const char *fmt, ...)
{
    tf_place(c->text, place(c->text, c->index, key, at_value), &c->e->line, &c->e->col);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->e->msg, sizeof c->e->msg, fmt, ap);
    va_end(ap);
    return -1;
}

/* A whole number in [lo, hi] at key of obj, or def when absent (def < lo:
 * required). */
static int get_long(const struct ctx *c, const cJSON *obj, const char *key, long lo, long hi,
                    long def, long *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!v) {
        if (def < lo)
            return fail(c, NULL, 0, "missing key \"%s\"", key);
        *out = def;
        return 0;
    }
    if (!cJSON_IsNumber(v) || v->valuedouble != floor(v->valuedouble) ||
        v->valuedouble < (double)lo || v->valuedouble > (double)hi)
        return fail(c, key, 1, "\"%s\" must be a whole number from %ld to %ld", key, lo, hi);
    *out = (long)v->valuedouble;
    return 0;
}

/* A string at key, or NULL when absent (required: an error) or null. */
static int get_string(const struct ctx *c, const cJSON *obj, const char *key, int required,
                      const char **out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    *out = NULL;
    if (!v || cJSON_IsNull(v))
        return required ? fail(c, v ? key : NULL, 1, "missing key \"%s\"", key) : 0;
    if (!cJSON_IsString(v) || !v->valuestring[0])
        return fail(c, key, 1, "\"%s\" must be a non-empty string", key);
    *out = v->valuestring;
    return 0;
}

static int get_real(const struct ctx *c, const cJSON *obj, const char *key, double lo,
                    double hi, double *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!v)
        return fail(c, NULL, 0, "missing key \"%s\"", key);
    if (!cJSON_IsNumber(v) || !(v->valuedouble > lo) || v->valuedouble > hi)
        return fail(c, key, 1, "\"%s\" must be a number above %g and at most %g", key, lo, hi);
    *out = v->valuedouble;
    return 0;
}

static char *dup_or_null(const char *s)
{
    return s ? strdup(s) : NULL;
}

/* "visibility" of obj into *out, def when absent: one of Gradescope's
 * words, anything else an error at its value. */
static int get_visibility(const struct ctx *c, const cJSON *obj, enum rubric_visibility def,
                          enum rubric_visibility *out)
{
    const char *text;
    if (get_string(c, obj, "visibility", 0, &text))
        return -1;
    *out = def;
    for (int v = 0; text && v < NVISIBILITY; v++)
        if (strcmp(text, visibility_names[v]) == 0) {
            *out = (enum rubric_visibility)v;
            return 0;
        }
    return !text ? 0 : fail(c, "visibility", 1, "\"visibility\" must be \"hidden\", "
                            "\"after_due_date\", \"after_published\" or \"visible\", got \"%s\"",
                            text);
}

/* "random", "perfect", "alphabeta:D", "minimax:D" into ch->opp. */
static int get_opponent(const struct ctx *c, const struct rubric *r, const cJSON *obj,
                        struct rubric_check *ch)
{
    const char *text;
    if (get_string(c, obj, "opponent", 1, &text))
        return -1;
    snprintf(ch->opponent, sizeof ch->opponent, "%s", text);
    char name[RUBRIC_NAME_MAX];
    snprintf(name, sizeof name, "%s", text);
    char *colon = strchr(name, ':');
    long depth = 0;
    if (colon) {
        *colon = '\0';
        if (cli_int(colon + 1, 1, SEARCH_MAX_DEPTH, &depth) != 0)
            return fail(c, "opponent", 1, "opponent \"%s\": the depth after ':' must be a "
                        "whole number from 1 to %d", text, SEARCH_MAX_DEPTH);
    }
    int kind = player_parse(name);
    int searcher = kind == PLAYER_ALPHABETA || kind == PLAYER_MINIMAX;
    if ((kind != PLAYER_RANDOM && kind != PLAYER_PERFECT && !searcher) || searcher != !!colon)
        return fail(c, "opponent", 1, "unknown opponent \"%s\" (random, alphabeta:D, "
                    "minimax:D, perfect)", text);
    if (r->game && !player_supports(r->game, (enum player_kind)kind))
        return fail(c, "opponent", 1, "opponent \"%s\": game %s has no %s player", text,
                    r->game->name, name);
    ch->opp = (struct player_opts){ .kind = (enum player_kind)kind, .depth = (int)depth };
    return 0;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The files pattern names (relative to r->dir unless absolute), sorted;
 * n 0 is an error. */
static int get_glob(const struct ctx *c, const struct rubric *r, const char *key,
                    const char *pattern, char ***files, int *n)
{
    char full[PATH_MAX];
    if (snprintf(full, sizeof full, "%s%s%s", pattern[0] == '/' ? "" : r->dir,
                 pattern[0] == '/' ? "" : "/", pattern) >= (int)sizeof full)
        return fail(c, key, 1, "\"%s\": path too long", key);
    glob_t g;
    int rc = glob(full, 0, NULL, &g);
    if (rc != 0 || g.gl_pathc == 0) {
        globfree(&g);
        return fail(c, key, 1, "\"%s\": no file matches %s", key, pattern);
    }
    *files = calloc(g.gl_pathc, sizeof **files);
    for (size_t i = 0; *files && i < g.gl_pathc; i++)
        (*files)[i] = strdup(g.gl_pathv[i]);
    *n = (int)g.gl_pathc;
    globfree(&g);
    if (!*files)
        return fail(c, key, 1, "out of memory");
    qsort(*files, (size_t)*n, sizeof **files, cmp_str);
    return 0;
}

/* A file's base name without its last extension, into buf. */
static void stem(const char *path, char *buf, size_t cap)
{
    const char *base = strrchr(path, '/');
    snprintf(buf, cap, "%s", base ? base + 1 : path);
    char *dot = strrchr(buf, '.');
    if (dot && dot != buf)
        *dot = '\0';
}

/* "expected" files paired with the inputs by stem, into ch->expected. */
static int pair_expected(const struct ctx *c, struct rubric_check *ch, char **found, int n)
{
    ch->expected = calloc((size_t)ch->ninputs, sizeof *ch->expected);
    if (!ch->expected)
        return fail(c, "expected", 1, "out of memory");
    for (int i = 0; i < ch->ninputs; i++) {
        char want[PATH_MAX], have[PATH_MAX];
        stem(ch->input[i], want, sizeof want);
        for (int k = 0; k < n && !ch->expected[i]; k++) {
            stem(found[k], have, sizeof have);
            if (strcmp(want, have) == 0)
                ch->expected[i] = strdup(found[k]);
        }
        if (!ch->expected[i])
            return fail(c, "expected", 1, "\"expected\": no file for input %s", ch->input[i]);
    }
    return 0;
}

static int get_io(const struct ctx *c, const struct rubric *r, const cJSON *obj,
                  struct rubric_check *ch)
{
    const char *cmd, *inputs, *ref, *expected, *args;
    if (get_string(c, obj, "cmd", 1, &cmd) || get_string(c, obj, "inputs", 1, &inputs) ||
        get_string(c, obj, "reference", 0, &ref) || get_string(c, obj, "expected", 0, &expected) ||
        get_string(c, obj, "args", 0, &args))
        return -1;
    if (args && !ref)
        return fail(c, "args", 0, "\"args\" belongs to \"reference\"");
    if (args && !(ch->args = strdup(args)))
        return fail(c, "args", 1, "out of memory");
    if (!ref == !expected)
        return fail(c, ref ? "expected" : NULL, 0, "an io check takes \"reference\" or "
                    "\"expected\" (one of them)");
    ch->cmd = strdup(cmd);
    if (ref) {
        size_t i = 0;
        while (i < sizeof references / sizeof *references && strcmp(references[i], ref) != 0)
            i++;
        if (i == sizeof references / sizeof *references)
            return fail(c, "reference", 1, "unknown reference \"%s\" (spfiar, checkers, nim, "
                        "maxconnect4)", ref);
        snprintf(ch->reference, sizeof ch->reference, "%s", ref);
    }
    if (!ch->cmd || get_glob(c, r, "inputs", inputs, &ch->input, &ch->ninputs))
        return ch->cmd ? -1 : fail(c, "cmd", 1, "out of memory");
    if (!expected)
        return 0;
    char **found = NULL;
    int n = 0;
    int rc = get_glob(c, r, "expected", expected, &found, &n) || pair_expected(c, ch, found, n);
    for (int i = 0; i < n; i++)
        free(found[i]);
    free(found);
    return rc ? -1 : 0;
}

/* The keys of obj are id, kind, points and those of its kind. */
static int check_keys(const struct ctx *c, const cJSON *obj, enum rubric_kind kind)
{
    const cJSON *item;
    cJSON_ArrayForEach(item, obj) {
        int ok = !strcmp(item->string, "id") || !strcmp(item->string, "kind") ||
                 !strcmp(item->string, "points") || !strcmp(item->string, "requires") ||
                 !strcmp(item->string, "visibility");
        for (int k = 0; !ok && k < 6 && kind_keys[kind][k]; k++)
            ok = !strcmp(item->string, kind_keys[kind][k]);
        if (!ok)
            return fail(c, item->string, 0, "unknown key \"%s\" in a%s %s check", item->string,
                        kind == RUBRIC_EXACT || kind == RUBRIC_IO ? "n" : "", kind_names[kind]);
    }
    return 0;
}

static int get_id_kind(const struct ctx *c, const struct rubric *r, const cJSON *obj,
                       struct rubric_check *ch)
{
    const char *id, *kind;
    if (get_string(c, obj, "id", 1, &id) || get_string(c, obj, "kind", 1, &kind))
        return -1;
    size_t n = strlen(id);
    if (n >= RUBRIC_ID_MAX || strspn(id, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                          "0123456789-_") != n)
        return fail(c, "id", 1, "id \"%s\": at most %d letters, digits, '-' or '_'", id,
                    RUBRIC_ID_MAX - 1);
    if (strcmp(id, "submission") == 0 || strcmp(id, "total") == 0 || strcmp(id, "max") == 0 ||
        strcmp(id, "sha256") == 0)
        return fail(c, "id", 1, "id \"%s\" is a column of grades.csv already", id);
    for (int i = 0; i < c->index; i++)
        if (strcmp(r->check[i].id, id) == 0)
            return fail(c, "id", 1, "two checks have the id \"%s\"", id);
    snprintf(ch->id, sizeof ch->id, "%s", id);
    int k = 0;
    while (k < RUBRIC_IO + 1 && strcmp(kind_names[k], kind) != 0)
        k++;
    if (k > RUBRIC_IO)
        return fail(c, "kind", 1, "unknown kind \"%s\" (legal, exact, match, cpu, io)", kind);
    ch->kind = (enum rubric_kind)k;
    return 0;
}

/* "requires": {"ID": SHARE, ...}, each ID a check before this one. */
static int get_requires(const struct ctx *c, const struct rubric *r, const cJSON *obj,
                        struct rubric_check *ch)
{
    const cJSON *req = cJSON_GetObjectItemCaseSensitive(obj, "requires"), *item;
    if (!req)
        return 0;
    if (!cJSON_IsObject(req) || cJSON_GetArraySize(req) == 0)
        return fail(c, "requires", 1, "\"requires\" must be an object of check ids and shares, "
                    "e.g. {\"minimax\": 0.8}");
    if (cJSON_GetArraySize(req) > RUBRIC_MAX_REQUIRES)
        return fail(c, "requires", 1, "at most %d checks in \"requires\"", RUBRIC_MAX_REQUIRES);
    cJSON_ArrayForEach(item, req) {
        int j = 0;
        while (j < c->index && strcmp(r->check[j].id, item->string) != 0)
            j++;
        if (j == c->index)
            return fail(c, "requires", 1, "\"requires\": \"%s\" is not the id of a check "
                        "before this one", item->string);
        if (!cJSON_IsNumber(item) || !(item->valuedouble > 0) || item->valuedouble > 1)
            return fail(c, "requires", 1, "\"requires\": the share of \"%s\" must be a "
                        "number above 0 and at most 1", item->string);
        ch->requires[ch->nrequires].check = j;
        ch->requires[ch->nrequires++].share = item->valuedouble;
    }
    return 0;
}

int rubric_requires(const struct rubric *r, int k, const double *score,
                    const unsigned char *known, char *why, size_t cap)
{
    const struct rubric_check *ch = &r->check[k];
    for (int i = 0; i < ch->nrequires; i++) {
        int j = ch->requires[i].check;
        assert(j < k);
        if (!known[j])
            return -1;
        double got = score[j] / r->check[j].points;
        /* A share equal to the wanted one but for rounding meets it. */
        if (got + 1e-9 < ch->requires[i].share) {
            snprintf(why, cap, "it requires %s at %g%% or more; %s scored %g%%",
                     r->check[j].id, ch->requires[i].share * 100, r->check[j].id,
                     floor(got * 1000 + 0.5) / 10);
            return 0;
        }
    }
    return 1;
}

static int get_check(const struct ctx *c, struct rubric *r, const cJSON *obj,
                     struct rubric_check *ch)
{
    if (!cJSON_IsObject(obj))
        return fail(c, NULL, 0, "a check is an object {\"id\", \"kind\", \"points\", ...}");
    if (get_id_kind(c, r, obj, ch) || check_keys(c, obj, ch->kind) ||
        get_real(c, obj, "points", 0, 1e6, &ch->points) || get_requires(c, r, obj, ch) ||
        get_visibility(c, obj, r->visibility, &ch->visibility))
        return -1;
    if (ch->kind != RUBRIC_IO && !r->game)
        return fail(c, "kind", 1, "a%s %s check needs the rubric's \"game\" and \"engine\"",
                    ch->kind == RUBRIC_EXACT ? "n" : "", kind_names[ch->kind]);
    long v = 0;
    int rc = 0;
    if (ch->kind != RUBRIC_IO) {
        rc = get_long(c, obj, "depth", 1, SEARCH_MAX_DEPTH, 0, &v);
        ch->depth = (int)v;
    }
    if (!rc && ch->kind != RUBRIC_IO && ch->kind != RUBRIC_MATCH)
        rc = get_long(c, obj, "positions", 1, GRADE_MAX_POSITIONS, 0, &ch->positions);
    if (!rc && ch->kind == RUBRIC_MATCH)
        rc = get_opponent(c, r, obj, ch) ||
             get_long(c, obj, "games", 1, GRADE_MAX_GAMES, 0, &ch->games) ||
             get_real(c, obj, "min_score", 0, 1, &ch->min_score);
    if (!rc && ch->kind == RUBRIC_CPU)
        rc = get_long(c, obj, "max_ms", 1, REF_MAX_TIMEOUT_MS, 0, &ch->max_ms);
    if (!rc && ch->kind == RUBRIC_IO)
        rc = get_io(c, r, obj, ch);
    return rc ? -1 : 0;
}

/* "proto": one of spec.h's protocol names, SPEC_FILE when absent. */
static int get_proto(const struct ctx *c, struct rubric *r, const cJSON *root)
{
    const char *proto;
    if (get_string(c, root, "proto", 0, &proto))
        return -1;
    r->proto = SPEC_FILE;
    if (!proto)
        return 0;
    for (enum spec_proto p = SPEC_FILE; p <= SPEC_PERSISTENT; p++)
        if (strcmp(proto, spec_proto_name(p)) == 0) {
            r->proto = p;
            return 0;
        }
    return fail(c, "proto", 1, "\"proto\" must be \"file\" or \"persistent\", got \"%s\"",
                proto);
}

static int get_top(const struct ctx *c, struct rubric *r, const cJSON *root)
{
    const cJSON *item;
    cJSON_ArrayForEach(item, root) {
        size_t k = 0;
        while (k < sizeof top_keys / sizeof *top_keys && strcmp(top_keys[k], item->string))
            k++;
        if (k == sizeof top_keys / sizeof *top_keys)
            return fail(c, item->string, 0, "unknown key \"%s\"", item->string);
    }
    const char *game, *engine, *build;
    long seed, plies;
    if (get_string(c, root, "game", 0, &game) || get_string(c, root, "engine", 0, &engine) ||
        get_string(c, root, "build", 0, &build) || get_proto(c, r, root) ||
        get_visibility(c, root, RUBRIC_VISIBLE, &r->visibility) ||
        get_long(c, root, "build_timeout_ms", 1, REF_MAX_TIMEOUT_MS,
                 GRADE_DEFAULT_BUILD_TIMEOUT_MS, &r->build_timeout_ms) ||
        get_long(c, root, "timeout_ms", 1, REF_MAX_TIMEOUT_MS, REF_DEFAULT_TIMEOUT_MS,
                 &r->timeout_ms) ||
        get_long(c, root, "cpu_limit_s", 0, REF_MAX_TIMEOUT_MS / 1000, 0, &r->cpu_limit_s) ||
        get_long(c, root, "mem_limit_mb", 0, 1L << 20, 0, &r->mem_limit_mb) ||
        get_long(c, root, "seed", 0, 1L << 53, 1, &seed) ||
        get_long(c, root, "random_plies", 0, 100, GRADE_DEFAULT_RANDOM_PLIES, &plies))
        return -1;
    r->seed = (uint64_t)seed;
    r->random_plies = (int)plies;
    if (game && !(r->game = registry_find(game)))
        return fail(c, "game", 1, "unknown game \"%s\"", game);
    if (!game != !engine)
        return fail(c, game ? "game" : "engine", 0, "\"game\" and \"engine\" go together "
                    "(both, or neither for a rubric of io checks)");
    r->engine = dup_or_null(engine);
    r->build = dup_or_null(build);
    if ((engine && !r->engine) || (build && !r->build))
        return fail(c, NULL, 0, "out of memory");
    return 0;
}

static int parse_root(const struct ctx *c, struct rubric *r, const cJSON *root)
{
    if (get_top(c, r, root))
        return -1;
    const cJSON *checks = cJSON_GetObjectItemCaseSensitive(root, "checks");
    if (!checks)
        return fail(c, NULL, 0, "missing key \"checks\"");
    if (!cJSON_IsArray(checks) || cJSON_GetArraySize(checks) == 0)
        return fail(c, "checks", 1, "\"checks\" must be a non-empty list of checks");
    if (cJSON_GetArraySize(checks) > RUBRIC_MAX_CHECKS)
        return fail(c, "checks", 1, "at most %d checks", RUBRIC_MAX_CHECKS);
    const cJSON *obj;
    struct ctx cc = *c;
    cJSON_ArrayForEach(obj, checks) {
        cc.index = r->ncheck;
        if (get_check(&cc, r, obj, &r->check[r->ncheck++]))
            return -1;
        r->max_total += r->check[r->ncheck - 1].points;
    }
    return 0;
}

int rubric_parse(const char *text, size_t len, const char *dir, struct rubric *r,
                 struct err *e)
{
    memset(r, 0, sizeof *r);
    snprintf(r->dir, sizeof r->dir, "%s", dir);
    struct sha256 h;
    sha256_init(&h);
    sha256_update(&h, text, len);
    sha256_final(&h, r->sha256);
    struct ctx c = { text, e, -1 };
    cJSON *root = tf_json_object(text, len, "a rubric is a JSON object", e);
    if (!root)
        return -1;
    int rc = parse_root(&c, r, root);
    cJSON_Delete(root);
    if (rc)
        rubric_free(r);
    return rc;
}

int rubric_read(const char *path, struct rubric *r, struct err *e)
{
    char *text, dir[PATH_MAX], copy[PATH_MAX];
    size_t len;
    memset(r, 0, sizeof *r);
    snprintf(copy, sizeof copy, "%s", path);
    if (!realpath(dirname(copy), dir))
        return err_set(e, 0, 0, "cannot find the rubric's folder");
    if (tf_read(path, GRADE_RUBRIC_CAP, &text, &len, e) != 0)
        return -1;
    int rc = rubric_parse(text, len, dir, r, e);
    free(text);
    return rc;
}

static void free_list(char **list, int n)
{
    for (int i = 0; list && i < n; i++)
        free(list[i]);
    free(list);
}

static void free_check(struct rubric_check *ch)
{
    free(ch->cmd);
    free(ch->args);
    free_list(ch->input, ch->ninputs);
    free_list(ch->expected, ch->expected ? ch->ninputs : 0);
}

void rubric_free(struct rubric *r)
{
    free(r->engine);
    free(r->build);
    for (int i = 0; i < r->ncheck; i++)
        free_check(&r->check[i]);
    r->engine = r->build = NULL;
    r->ncheck = 0;
}

/* Check ch's prerequisites renumbered by to[] (-1: left out, and with it
 * the prerequisite: a self-check cannot know a hidden check's score). */
static void renumber_requires(struct rubric_check *ch, const int *to)
{
    int n = 0;
    for (int i = 0; i < ch->nrequires; i++)
        if (to[ch->requires[i].check] >= 0) {
            ch->requires[n] = ch->requires[i];
            ch->requires[n++].check = to[ch->requires[i].check];
        }
    ch->nrequires = n;
}

int rubric_keep_visible(struct rubric *r)
{
    int kept = 0, to[RUBRIC_MAX_CHECKS];
    r->max_total = 0;
    for (int i = 0; i < r->ncheck; i++) {
        to[i] = -1;
        if (r->check[i].visibility != RUBRIC_VISIBLE) {
            free_check(&r->check[i]);
            continue;
        }
        to[i] = kept;
        r->check[kept] = r->check[i];   /* a move: the pointers go with it */
        renumber_requires(&r->check[kept], to);
        r->max_total += r->check[kept++].points;
    }
    int left_out = r->ncheck - kept;
    r->ncheck = kept;
    return left_out;
}
