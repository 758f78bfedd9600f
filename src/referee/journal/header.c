/*
 * header.c - the typed header of a match log or journal and its one
 * encoder and decoder (header.h). One function per object each way; a
 * field is one line in each, in the order of its object's key enum. Also
 * the writers of what run knows (an engine's spec, the sandbox policy):
 * run, below the journal, hands over plain values and never sees a header.
 */
#include <assert.h>
#include <cjson/cJSON.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "header.h"
#include "arena/sandbox.h"
#include "arena/spec.h"

static const char *const top_keys[] = {
    "schema", "game", "judge", "depth", "seed", "random_plies", "openings", "draw_plies",
    "analyze", "limits", "sandbox", "accounting", "engines", "format", "rounds", "shard", "games",
    "sprt", "anchors", "seeds",
};
_Static_assert(sizeof top_keys / sizeof *top_keys == HDR_NKEYS,
               "a name for each enum hdr_key, in its order");
/* A top-level key's name and bit, for get_*; its name, h's has and null
 * and its bit, for put_* (in hdr_encode, where h is the header). */
#define KEY(k) top_keys[k], k
#define TOP(k) top_keys[k], h->has, h->null, k

void hdr_init(struct hdr *h)
{
    memset(h, 0, sizeof *h);
}

static void strs_free(struct hdr_strs *l)
{
    for (int i = 0; i < l->n; i++)
        free(l->v[i]);
    free(l->v);
    l->n = 0;
    l->v = NULL;
}

/* A list of files (an engine's, a judge's). */
static void files_free(struct hdr_file *files, int n)
{
    for (int i = 0; i < n; i++) {
        free(files[i].path);
        free(files[i].sha256);
    }
    free(files);
}

static void engine_free(struct hdr_engine *e)
{
    strs_free(&e->cmd);
    free(e->dir);
    free(e->proto);
    free(e->sha256);
    files_free(e->files, e->nfiles);
    strs_free(&e->runtime);
    free(e->shim);
}

void hdr_free(struct hdr *h)
{
    free(h->schema);
    strs_free(&h->judge.cmd);
    free(h->judge.sha256);
    files_free(h->judge.files, h->judge.nfiles);
    strs_free(&h->openings);
    strs_free(&h->seeds);
    free(h->sandbox.mode);
    strs_free(&h->sandbox.isolates);
    strs_free(&h->sandbox.read_only);
    strs_free(&h->sandbox.env);
    for (int i = 0; i < h->nengines; i++)
        engine_free(&h->engine[i]);
    free(h->accounting);
    free(h->format);
    free(h->sprt.model);
    hdr_init(h);
}

int hdr_set_text(char **dst, const char *s)
{
    char *copy = strdup(s);
    if (!copy)
        return -1;
    free(*dst);
    *dst = copy;
    return 0;
}

int hdr_strs_add(struct hdr_strs *l, const char *s)
{
    char **grown = realloc(l->v, (size_t)(l->n + 1) * sizeof *grown);
    if (!grown)
        return -1;
    l->v = grown;
    if (!(l->v[l->n] = strdup(s)))
        return -1;
    l->n++;
    return 0;
}

struct hdr_engine *hdr_add_engine(struct hdr *h, const char *name)
{
    if (h->nengines == REC_MAX_ENGINES)
        return NULL;
    struct hdr_engine *e = &h->engine[h->nengines++];
    memset(e, 0, sizeof *e);
    snprintf(e->name, sizeof e->name, "%s", name);
    e->has = HDR_BIT(HDR_ENG_NAME);
    h->has |= HDR_BIT(HDR_ENGINES);
    return e;
}

/* Appends f (its strings now the list's) to the list *files of *n. 0, or
 * -1 when out of memory (f's strings then freed). */
static int files_append(struct hdr_file **files, int *n, struct hdr_file f)
{
    struct hdr_file *grown = realloc(*files, (size_t)(*n + 1) * sizeof *grown);
    if (!grown) {
        free(f.path);
        free(f.sha256);
        return -1;
    }
    *files = grown;
    grown[(*n)++] = f;
    return 0;
}

static int files_add(struct hdr_file **files, int *n, const char *path, const char *sha256)
{
    struct hdr_file f = { strdup(path), strdup(sha256),
                          HDR_BIT(HDR_FILE_PATH) | HDR_BIT(HDR_FILE_SHA256) };
    if (!f.path || !f.sha256) {
        free(f.path);
        free(f.sha256);
        return -1;
    }
    return files_append(files, n, f);
}

int hdr_engine_add_file(struct hdr_engine *e, const char *path, const char *sha256)
{
    if (files_add(&e->files, &e->nfiles, path, sha256) != 0)
        return -1;
    e->has |= HDR_BIT(HDR_ENG_FILES);
    return 0;
}

int hdr_judge_add_file(struct hdr_judge *j, const char *path, const char *sha256)
{
    if (files_add(&j->files, &j->nfiles, path, sha256) != 0)
        return -1;
    j->has |= HDR_BIT(HDR_JUDGE_FILES);
    return 0;
}

/* --- the encoder ---------------------------------------------------------- */

/* Each adds obj's key when bit k of has is set (null when it is in null);
 * a failure shows as a missing key, which hdr_encode turns into NULL. */
static void put_text(cJSON *obj, const char *key, unsigned has, unsigned null, int k,
                     const char *v)
{
    if (!(has & HDR_BIT(k)))
        return;
    if (null & HDR_BIT(k))
        cJSON_AddNullToObject(obj, key);
    else
        cJSON_AddStringToObject(obj, key, v ? v : "");
}

static void put_num(cJSON *obj, const char *key, unsigned has, unsigned null, int k, double v)
{
    if (!(has & HDR_BIT(k)))
        return;
    if (null & HDR_BIT(k))
        cJSON_AddNullToObject(obj, key);
    else
        cJSON_AddNumberToObject(obj, key, v);
}

static void put_strs(cJSON *obj, const char *key, unsigned has, unsigned null, int k,
                     const struct hdr_strs *l)
{
    if (!(has & HDR_BIT(k)))
        return;
    if (null & HDR_BIT(k)) {
        cJSON_AddNullToObject(obj, key);
        return;
    }
    cJSON *list = cJSON_AddArrayToObject(obj, key);
    for (int i = 0; list && i < l->n; i++)
        cJSON_AddItemToArray(list, cJSON_CreateString(l->v[i]));
}

/* Adds a new object under key when bit k is set: it, or NULL. */
static cJSON *put_obj(cJSON *obj, const char *key, unsigned has, unsigned null, int k)
{
    if (!(has & HDR_BIT(k)))
        return NULL;
    if (null & HDR_BIT(k)) {
        cJSON_AddNullToObject(obj, key);
        return NULL;
    }
    return cJSON_AddObjectToObject(obj, key);
}

cJSON *hdr_seed_json(uint64_t seed)
{
    char digits[24];
    if (seed < HDR_SEED_NUMBER_LIMIT)
        return cJSON_CreateNumber((double)seed);
    snprintf(digits, sizeof digits, "%" PRIu64, seed);
    return cJSON_CreateString(digits);
}

/* "files": [{"path", "sha256"}...] into obj when has holds bit k. */
static void put_files(cJSON *obj, unsigned has, int k, const struct hdr_file *files, int n)
{
    cJSON *list = has & HDR_BIT(k) ? cJSON_AddArrayToObject(obj, "files") : NULL;
    for (int i = 0; list && i < n; i++) {
        cJSON *f = cJSON_CreateObject();
        if (!f || !cJSON_AddItemToArray(list, f)) {
            cJSON_Delete(f);
            return;
        }
        put_text(f, "path", files[i].has, 0, HDR_FILE_PATH, files[i].path);
        put_text(f, "sha256", files[i].has, 0, HDR_FILE_SHA256, files[i].sha256);
    }
}

static void encode_engine(cJSON *list, const struct hdr_engine *e)
{
    cJSON *j = cJSON_CreateObject();
    if (!j || !cJSON_AddItemToArray(list, j)) {
        cJSON_Delete(j);
        return;
    }
    put_text(j, "name", e->has, 0, HDR_ENG_NAME, e->name);
    put_strs(j, "cmd", e->has, 0, HDR_ENG_CMD, &e->cmd);
    put_text(j, "dir", e->has, 0, HDR_ENG_DIR, e->dir);
    put_num(j, "depth", e->has, 0, HDR_ENG_DEPTH, e->depth);
    put_text(j, "proto", e->has, 0, HDR_ENG_PROTO, e->proto);
    put_text(j, "sha256", e->has, e->null, HDR_ENG_SHA256, e->sha256);
    put_files(j, e->has, HDR_ENG_FILES, e->files, e->nfiles);
    put_strs(j, "runtime", e->has, 0, HDR_ENG_RUNTIME, &e->runtime);
    put_text(j, "shim", e->has, 0, HDR_ENG_SHIM, e->shim);
}

/* The keys after "sandbox": the engines and the journal's own. */
static void encode_tail(cJSON *j, const struct hdr *h)
{
    if (h->has & HDR_BIT(HDR_ENGINES)) {
        cJSON *list = cJSON_AddArrayToObject(j, top_keys[HDR_ENGINES]);
        for (int i = 0; list && i < h->nengines; i++)
            encode_engine(list, &h->engine[i]);
    }
    put_text(j, TOP(HDR_FORMAT), h->format);
    put_num(j, TOP(HDR_ROUNDS), h->rounds);
    char shard[32];
    snprintf(shard, sizeof shard, "%d/%d", h->shard_k, h->shard_n);
    put_text(j, TOP(HDR_SHARD), shard);
    put_num(j, TOP(HDR_GAMES), (double)h->games);
    cJSON *s = put_obj(j, TOP(HDR_SPRT));
    if (s) {
        put_num(s, "elo0", h->sprt.has, 0, HDR_SPRT_ELO0, h->sprt.elo0);
        put_num(s, "elo1", h->sprt.has, 0, HDR_SPRT_ELO1, h->sprt.elo1);
        put_num(s, "alpha", h->sprt.has, 0, HDR_SPRT_ALPHA, h->sprt.alpha);
        put_num(s, "beta", h->sprt.has, 0, HDR_SPRT_BETA, h->sprt.beta);
        put_text(s, "model", h->sprt.has, 0, HDR_SPRT_MODEL, h->sprt.model);
    }
    cJSON *a = put_obj(j, TOP(HDR_ANCHORS));
    for (int k = 0; a && k < h->nanchors; k++)
        cJSON_AddNumberToObject(a, h->anchor[k].name, h->anchor[k].elo);
    put_strs(j, TOP(HDR_SEEDS), &h->seeds);
}

/* How many keys of has an object holds, to tell a failed add. */
static int keys_of(unsigned has)
{
    int n = 0;
    for (; has; has &= has - 1)
        n++;
    return n;
}

cJSON *hdr_encode(const struct hdr *h)
{
    cJSON *j = cJSON_CreateObject();
    if (!j)
        return NULL;
    put_text(j, TOP(HDR_SCHEMA), h->schema);
    put_text(j, TOP(HDR_GAME), h->game);
    cJSON *o = put_obj(j, TOP(HDR_JUDGE));
    if (o) {
        put_strs(o, "cmd", h->judge.has, 0, HDR_JUDGE_CMD, &h->judge.cmd);
        put_text(o, "sha256", h->judge.has, 0, HDR_JUDGE_SHA256, h->judge.sha256);
        put_files(o, h->judge.has, HDR_JUDGE_FILES, h->judge.files, h->judge.nfiles);
    }
    put_num(j, TOP(HDR_DEPTH), h->depth);
    if (h->has & HDR_BIT(HDR_SEED))   /* an old double as it was written (header.h) */
        cJSON_AddItemToObject(j, top_keys[HDR_SEED],
                              h->seed_inexact ? cJSON_CreateNumber((double)h->seed)
                                              : hdr_seed_json(h->seed));
    put_num(j, TOP(HDR_RANDOM_PLIES), h->random_plies);
    put_strs(j, TOP(HDR_OPENINGS), &h->openings);
    put_num(j, TOP(HDR_DRAW_PLIES), h->draw_plies);
    if ((o = put_obj(j, TOP(HDR_ANALYZE)))) {
        put_num(o, "budget_ms", h->analyze.has, 0, HDR_AN_BUDGET_MS, (double)h->analyze.budget_ms);
        put_num(o, "max_empty", h->analyze.has, 0, HDR_AN_MAX_EMPTY, h->analyze.max_empty);
    }
    if ((o = put_obj(j, TOP(HDR_LIMITS)))) {
        const struct hdr_limits *l = &h->limits;
        put_num(o, "timeout_ms", l->has, 0, HDR_LIM_TIMEOUT_MS, (double)l->timeout_ms);
        put_num(o, "cpu_limit_s", l->has, 0, HDR_LIM_CPU_LIMIT_S, (double)l->cpu_limit_s);
        put_num(o, "mem_limit_mb", l->has, 0, HDR_LIM_MEM_LIMIT_MB, (double)l->mem_limit_mb);
        put_num(o, "file_limit_kb", l->has, 0, HDR_LIM_FILE_LIMIT_KB, (double)l->file_limit_kb);
        cJSON *tc = l->has & HDR_BIT(HDR_LIM_TC) ? cJSON_AddObjectToObject(o, "tc") : NULL;
        if (tc) {
            cJSON_AddNumberToObject(tc, "base_ms", (double)l->tc_base_ms);
            cJSON_AddNumberToObject(tc, "inc_ms", (double)l->tc_inc_ms);
        }
        if (l->has & HDR_BIT(HDR_LIM_PONDER))
            cJSON_AddTrueToObject(o, "ponder");
    }
    if ((o = put_obj(j, TOP(HDR_SANDBOX)))) {
        const struct hdr_sandbox *s = &h->sandbox;
        put_text(o, "mode", s->has, 0, HDR_SBX_MODE, s->mode);
        put_strs(o, "isolates", s->has, 0, HDR_SBX_ISOLATES, &s->isolates);
        put_strs(o, "read_only", s->has, 0, HDR_SBX_READ_ONLY, &s->read_only);
        put_strs(o, "env", s->has, 0, HDR_SBX_ENV, &s->env);
    }
    put_text(j, TOP(HDR_ACCOUNTING), h->accounting);
    encode_tail(j, h);
    if (cJSON_GetArraySize(j) != keys_of(h->has)) {   /* out of memory on the way */
        cJSON_Delete(j);
        return NULL;
    }
    return j;
}

/* --- the decoder ---------------------------------------------------------- */

static const cJSON *item(const cJSON *obj, const char *key)
{
    return cJSON_GetObjectItemCaseSensitive(obj, key);
}

static int oom(struct err *e)
{
    return err_set(e, 1, 1, "out of memory");
}

/* A string key into a fixed buffer: sets bit k of *has when it is one;
 * -1 (e filled, at the header's line) when it is too long. */
static int get_name(const cJSON *obj, const char *key, int k, unsigned *has, char *buf,
                    size_t cap, struct err *e)
{
    int got = rec_json_text(obj, key, buf, cap, e);
    if (got < 0 && e)
        e->line = e->col = 1;
    if (got > 0)
        *has |= HDR_BIT(k);
    return got < 0 ? -1 : 0;
}

/* A string key (or null, when null is not NULL) into a malloc'd copy. */
static int get_text(const cJSON *obj, const char *key, int k, unsigned *has, unsigned *null,
                    char **dst, struct err *e)
{
    const cJSON *v = item(obj, key);
    if (null && cJSON_IsNull(v)) {
        *has |= HDR_BIT(k);
        *null |= HDR_BIT(k);
        return 0;
    }
    if (!cJSON_IsString(v))
        return 0;
    if (hdr_set_text(dst, v->valuestring) != 0)
        return oom(e);
    *has |= HDR_BIT(k);
    return 0;
}

/* A whole number from lo to hi: 1 with *out, 0 when v is none. */
static int whole(const cJSON *v, double lo, double hi, long long *out)
{
    if (!cJSON_IsNumber(v))
        return 0;
    double d = v->valuedouble;
    /* Compared as doubles first: a cast of 1e300 is undefined. */
    if (!(d >= lo && d <= hi) || d != floor(d))
        return 0;
    *out = (long long)d;
    return 1;
}

static void get_ll(const cJSON *obj, const char *key, int k, unsigned *has, long long *dst)
{
    if (whole(item(obj, key), -(double)(1LL << 53), (double)(1LL << 53), dst))
        *has |= HDR_BIT(k);
}

static void get_int(const cJSON *obj, const char *key, int k, unsigned *has, int *dst)
{
    long long v;
    if (whole(item(obj, key), INT_MIN, INT_MAX, &v)) {
        *dst = (int)v;
        *has |= HDR_BIT(k);
    }
}

static void get_num(const cJSON *obj, const char *key, int k, unsigned *has, double *dst)
{
    const cJSON *v = item(obj, key);
    if (cJSON_IsNumber(v)) {
        *dst = v->valuedouble;
        *has |= HDR_BIT(k);
    }
}

/* A list of strings (or null, when null is not NULL); a list holding
 * anything but strings is missing. */
static int get_strs(const cJSON *obj, const char *key, int k, unsigned *has, unsigned *null,
                    struct hdr_strs *l, struct err *e)
{
    const cJSON *v = item(obj, key), *s;
    if (null && cJSON_IsNull(v)) {
        *has |= HDR_BIT(k);
        *null |= HDR_BIT(k);
        return 0;
    }
    if (!cJSON_IsArray(v))
        return 0;
    cJSON_ArrayForEach(s, v)
        if (!cJSON_IsString(s))
            return 0;
    cJSON_ArrayForEach(s, v)
        if (hdr_strs_add(l, s->valuestring) != 0)
            return oom(e);
    *has |= HDR_BIT(k);
    return 0;
}

/* The seed in any form a referee wrote (header.h). */
static void get_seed(const cJSON *obj, struct hdr *h)
{
    const cJSON *v = item(obj, top_keys[HDR_SEED]);
    long long small;
    if (whole(v, 0, (double)(HDR_SEED_NUMBER_LIMIT - 1), &small)) {
        h->seed = (uint64_t)small;
    } else if (cJSON_IsNumber(v) && v->valuedouble == floor(v->valuedouble) &&
               v->valuedouble > 0 && v->valuedouble < 18446744073709551616.0) {
        h->seed = (uint64_t)v->valuedouble;
        h->seed_inexact = 1;
    } else if (cJSON_IsString(v)) {
        const char *s = v->valuestring;
        if (!s[0] || strspn(s, "0123456789") != strlen(s) || strlen(s) > 20)
            return;
        unsigned long long u = strtoull(s, NULL, 10);
        if (u == ULLONG_MAX && strcmp(s, "18446744073709551615") != 0)
            return;   /* beyond 64 bits */
        h->seed = u;
    } else {
        return;
    }
    h->has |= HDR_BIT(HDR_SEED);
}

/* obj's "files" list into *files (*n of them), setting bit k of *has
 * when it is a list. */
static int get_files(const cJSON *obj, int k, unsigned *has, struct hdr_file **files, int *n,
                     struct err *e)
{
    const cJSON *list = item(obj, "files"), *j;
    if (!cJSON_IsArray(list))
        return 0;
    *has |= HDR_BIT(k);
    cJSON_ArrayForEach(j, list) {
        struct hdr_file f = { 0 };
        if (get_text(j, "path", HDR_FILE_PATH, &f.has, NULL, &f.path, e) != 0 ||
            get_text(j, "sha256", HDR_FILE_SHA256, &f.has, NULL, &f.sha256, e) != 0) {
            free(f.path);
            return -1;
        }
        if (files_append(files, n, f) != 0)
            return oom(e);
    }
    return 0;
}

static int decode_engine(const cJSON *j, struct hdr *h, struct err *e)
{
    if (h->nengines == REC_MAX_ENGINES)
        return err_set(e, 1, 1, "more than %d engines", REC_MAX_ENGINES);
    struct hdr_engine *eng = &h->engine[h->nengines++];
    if (get_name(j, "name", HDR_ENG_NAME, &eng->has, eng->name, sizeof eng->name, e) != 0)
        return -1;
    if (!(eng->has & HDR_BIT(HDR_ENG_NAME)))
        return err_set(e, 1, 1, "an engine without a \"name\"");
    if (get_strs(j, "cmd", HDR_ENG_CMD, &eng->has, NULL, &eng->cmd, e) != 0 ||
        get_text(j, "dir", HDR_ENG_DIR, &eng->has, NULL, &eng->dir, e) != 0)
        return -1;
    get_int(j, "depth", HDR_ENG_DEPTH, &eng->has, &eng->depth);
    if (get_text(j, "proto", HDR_ENG_PROTO, &eng->has, NULL, &eng->proto, e) != 0 ||
        get_text(j, "sha256", HDR_ENG_SHA256, &eng->has, &eng->null, &eng->sha256, e) != 0)
        return -1;
    if (get_files(j, HDR_ENG_FILES, &eng->has, &eng->files, &eng->nfiles, e) != 0)
        return -1;
    if (get_strs(j, "runtime", HDR_ENG_RUNTIME, &eng->has, NULL, &eng->runtime, e) != 0)
        return -1;
    return get_text(j, "shim", HDR_ENG_SHIM, &eng->has, NULL, &eng->shim, e);
}

static int decode_objects(const cJSON *j, struct hdr *h, struct err *e)
{
    const cJSON *o = item(j, top_keys[HDR_JUDGE]);
    if (cJSON_IsObject(o)) {
        h->has |= HDR_BIT(HDR_JUDGE);
        if (get_strs(o, "cmd", HDR_JUDGE_CMD, &h->judge.has, NULL, &h->judge.cmd, e) != 0 ||
            get_text(o, "sha256", HDR_JUDGE_SHA256, &h->judge.has, NULL, &h->judge.sha256, e) != 0 ||
            get_files(o, HDR_JUDGE_FILES, &h->judge.has, &h->judge.files, &h->judge.nfiles, e) != 0)
            return -1;
    }
    if (cJSON_IsObject(o = item(j, top_keys[HDR_ANALYZE]))) {
        h->has |= HDR_BIT(HDR_ANALYZE);
        get_ll(o, "budget_ms", HDR_AN_BUDGET_MS, &h->analyze.has, &h->analyze.budget_ms);
        get_int(o, "max_empty", HDR_AN_MAX_EMPTY, &h->analyze.has, &h->analyze.max_empty);
    }
    if (cJSON_IsObject(o = item(j, top_keys[HDR_LIMITS]))) {
        struct hdr_limits *l = &h->limits;
        h->has |= HDR_BIT(HDR_LIMITS);
        get_ll(o, "timeout_ms", HDR_LIM_TIMEOUT_MS, &l->has, &l->timeout_ms);
        get_ll(o, "cpu_limit_s", HDR_LIM_CPU_LIMIT_S, &l->has, &l->cpu_limit_s);
        get_ll(o, "mem_limit_mb", HDR_LIM_MEM_LIMIT_MB, &l->has, &l->mem_limit_mb);
        get_ll(o, "file_limit_kb", HDR_LIM_FILE_LIMIT_KB, &l->has, &l->file_limit_kb);
        const cJSON *tc = item(o, "tc");
        unsigned got = 0;
        if (cJSON_IsObject(tc)) {
            get_ll(tc, "base_ms", 0, &got, &l->tc_base_ms);
            get_ll(tc, "inc_ms", 1, &got, &l->tc_inc_ms);
        }
        if (got == 3)
            l->has |= HDR_BIT(HDR_LIM_TC);
        if (cJSON_IsTrue(item(o, "ponder")))
            l->has |= HDR_BIT(HDR_LIM_PONDER);
    }
    if (cJSON_IsObject(o = item(j, top_keys[HDR_SANDBOX]))) {
        struct hdr_sandbox *s = &h->sandbox;
        h->has |= HDR_BIT(HDR_SANDBOX);
        if (get_text(o, "mode", HDR_SBX_MODE, &s->has, NULL, &s->mode, e) != 0 ||
            get_strs(o, "isolates", HDR_SBX_ISOLATES, &s->has, NULL, &s->isolates, e) != 0 ||
            get_strs(o, "read_only", HDR_SBX_READ_ONLY, &s->has, NULL, &s->read_only, e) != 0 ||
            get_strs(o, "env", HDR_SBX_ENV, &s->has, NULL, &s->env, e) != 0)
            return -1;
    }
    if (cJSON_IsObject(o = item(j, top_keys[HDR_SPRT]))) {
        struct hdr_sprt *s = &h->sprt;
        h->has |= HDR_BIT(HDR_SPRT);
        get_num(o, "elo0", HDR_SPRT_ELO0, &s->has, &s->elo0);
        get_num(o, "elo1", HDR_SPRT_ELO1, &s->has, &s->elo1);
        get_num(o, "alpha", HDR_SPRT_ALPHA, &s->has, &s->alpha);
        get_num(o, "beta", HDR_SPRT_BETA, &s->has, &s->beta);
        if (get_text(o, "model", HDR_SPRT_MODEL, &s->has, NULL, &s->model, e) != 0)
            return -1;
    } else if (cJSON_IsNull(o)) {
        h->has |= HDR_BIT(HDR_SPRT);
        h->null |= HDR_BIT(HDR_SPRT);
    }
    return 0;
}

/* "K/N" with 1 <= K <= N into h. */
static void get_shard(const cJSON *j, struct hdr *h)
{
    const cJSON *v = item(j, top_keys[HDR_SHARD]);
    int k, n, used = 0;
    if (cJSON_IsString(v) && sscanf(v->valuestring, "%d/%d%n", &k, &n, &used) == 2 &&
        !v->valuestring[used] && k >= 1 && k <= n) {
        char again[32];   /* only the form the encoder writes back */
        snprintf(again, sizeof again, "%d/%d", k, n);
        if (strcmp(again, v->valuestring) != 0)
            return;
        h->shard_k = k;
        h->shard_n = n;
        h->has |= HDR_BIT(HDR_SHARD);
    }
}

/* "anchors": each member a name and a finite number; others skipped. */
static void get_anchors(const cJSON *j, struct hdr *h)
{
    const cJSON *o = item(j, top_keys[HDR_ANCHORS]), *a;
    if (!cJSON_IsObject(o))
        return;
    h->has |= HDR_BIT(HDR_ANCHORS);
    cJSON_ArrayForEach(a, o) {
        if (!cJSON_IsNumber(a) || !isfinite(a->valuedouble) || h->nanchors == REC_MAX_ENGINES ||
            strlen(a->string) >= REC_NAME_MAX)
            continue;
        struct hdr_anchor *to = &h->anchor[h->nanchors++];
        snprintf(to->name, sizeof to->name, "%s", a->string);
        to->elo = a->valuedouble;
    }
}

static int decode(const cJSON *j, struct hdr *h, struct err *e)
{
    if (get_text(j, KEY(HDR_SCHEMA), &h->has, NULL, &h->schema, e) != 0 ||
        get_name(j, KEY(HDR_GAME), &h->has, h->game, sizeof h->game, e) != 0)
        return -1;
    get_int(j, KEY(HDR_DEPTH), &h->has, &h->depth);
    get_seed(j, h);
    get_int(j, KEY(HDR_RANDOM_PLIES), &h->has, &h->random_plies);
    if (get_strs(j, KEY(HDR_OPENINGS), &h->has, &h->null, &h->openings, e) != 0)
        return -1;
    get_int(j, KEY(HDR_DRAW_PLIES), &h->has, &h->draw_plies);
    if (decode_objects(j, h, e) != 0)
        return -1;
    if (get_text(j, KEY(HDR_ACCOUNTING), &h->has, NULL, &h->accounting, e) != 0)
        return -1;
    const cJSON *engines = item(j, top_keys[HDR_ENGINES]), *eng;
    if (cJSON_IsArray(engines)) {
        h->has |= HDR_BIT(HDR_ENGINES);
        cJSON_ArrayForEach(eng, engines)
            if (decode_engine(eng, h, e) != 0)
                return -1;
    }
    if (get_text(j, KEY(HDR_FORMAT), &h->has, NULL, &h->format, e) != 0)
        return -1;
    get_int(j, KEY(HDR_ROUNDS), &h->has, &h->rounds);
    get_shard(j, h);
    get_anchors(j, h);
    if (get_strs(j, KEY(HDR_SEEDS), &h->has, NULL, &h->seeds, e) != 0)
        return -1;
    long long games;
    if (whole(item(j, top_keys[HDR_GAMES]), 0, (double)REC_INDEX_MAX, &games)) {
        h->games = games;
        h->has |= HDR_BIT(HDR_GAMES);
    }
    return 0;
}

int hdr_decode(const cJSON *json, struct hdr *h, struct err *e)
{
    assert(json != NULL);
    hdr_init(h);
    if (decode(json, h, e) == 0)
        return 0;
    hdr_free(h);
    return -1;
}

/* --- comparing ------------------------------------------------------------ */

/* Whether an old referee, which wrote the seed as cJSON writes a double
 * (15 significant digits), would have written seed as old. */
static int old_form_of(uint64_t seed, uint64_t old)
{
    char text[32];
    snprintf(text, sizeof text, "%1.15g", (double)seed);
    return strtod(text, NULL) == (double)old;
}

const char *hdr_differs(const struct hdr *want, const struct hdr *have)
{
    struct hdr mine = *have;   /* a shallow copy: only its seed changes */
    if (have->seed_inexact && old_form_of(want->seed, have->seed)) {
        mine.seed = want->seed;
        mine.seed_inexact = want->seed_inexact;
    }
    cJSON *a = hdr_encode(want), *b = hdr_encode(&mine);
    const char *key = a && b ? NULL : "";
    for (size_t k = 0; !key && k < sizeof top_keys / sizeof *top_keys; k++) {
        const cJSON *x = item(a, top_keys[k]), *y = item(b, top_keys[k]);
        if (x && (!y || !cJSON_Compare(x, y, 1)))
            key = top_keys[k];
    }
    cJSON_Delete(a);
    cJSON_Delete(b);
    return key;
}

/* --- from run's values --------------------------------------------------- */
/* The header writers fill the header; run only hands them values (spec.h's
 * struct spec, sandbox.h's summary), so run knows nothing of journals. */

int hdr_add_spec(struct hdr *h, const struct spec *eng)
{
    struct hdr_engine *he = hdr_add_engine(h, eng->name);
    if (!he)
        return -1;
    he->has |= HDR_BIT(HDR_ENG_CMD) | HDR_BIT(HDR_ENG_SHA256);
    for (int i = 0; i < eng->argc; i++)
        if (hdr_strs_add(&he->cmd, eng->argv[i]) != 0)
            return -1;
    if (eng->dir) {   /* resolved engines have one */
        he->has |= HDR_BIT(HDR_ENG_DIR);
        if (hdr_set_text(&he->dir, eng->dir) != 0)
            return -1;
    }
    if (eng->depth) {
        he->depth = eng->depth;
        he->has |= HDR_BIT(HDR_ENG_DEPTH);
    }
    if (eng->proto != SPEC_FILE) {
        he->has |= HDR_BIT(HDR_ENG_PROTO);
        if (hdr_set_text(&he->proto, spec_proto_name(eng->proto)) != 0)
            return -1;
    }
    if (!eng->sha256[0])
        he->null |= HDR_BIT(HDR_ENG_SHA256);
    else if (hdr_set_text(&he->sha256, eng->sha256) != 0)
        return -1;
    for (int i = 0; i < eng->nfiles; i++)
        if (hdr_engine_add_file(he, eng->files[i].path, eng->files[i].sha256) != 0)
            return -1;
    if (eng->nruntime)
        he->has |= HDR_BIT(HDR_ENG_RUNTIME);
    for (int i = 0; i < eng->nruntime; i++)
        if (hdr_strs_add(&he->runtime, eng->runtime[i]) != 0)
            return -1;
    if (eng->shim) {
        he->has |= HDR_BIT(HDR_ENG_SHIM);
        if (hdr_set_text(&he->shim, eng->shim) != 0)
            return -1;
    }
    return 0;
}

int hdr_set_sandbox(struct hdr_sandbox *h, const struct sbx_policy *p)
{
    struct sbx_summary s;
    sbx_policy_summary(p, &s);
    h->has = HDR_BIT(HDR_SBX_MODE) | HDR_BIT(HDR_SBX_ISOLATES);
    if (hdr_set_text(&h->mode, s.on ? "namespaces" : "none") != 0)
        return -1;
    for (int i = 0; i < s.nisolates; i++)
        if (hdr_strs_add(&h->isolates, s.isolates[i]) != 0)
            return -1;
    if (!s.on)
        return 0;
    h->has |= HDR_BIT(HDR_SBX_READ_ONLY);
    for (int i = 0; i < s.nread_only; i++)
        if (hdr_strs_add(&h->read_only, s.read_only[i]) != 0)
            return -1;
    if (s.nenv)
        h->has |= HDR_BIT(HDR_SBX_ENV);
    for (int i = 0; i < s.nenv; i++)
        if (hdr_strs_add(&h->env, s.env[i]) != 0)
            return -1;
    return 0;
}
