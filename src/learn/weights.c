/* weights.c - reading and writing weights files (weights.h). */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "arena/textfile.h"
#include "arena/weights.h"

#define WTS_MAX_PRECISION 17   /* digits that always round-trip a double */

enum wts_kind { WTS_UNIT, WTS_NONNEG, WTS_COUNT, WTS_SEED, WTS_WORD };

/* The settings lines, in file order. */
struct wts_key {
    const char *key;
    enum wts_kind kind;
    size_t offset;   /* into struct wts_settings */
};

static const struct wts_key wts_keys[] = {
    { "gamma", WTS_UNIT, offsetof(struct wts_settings, gamma) },
    { "alpha", WTS_NONNEG, offsetof(struct wts_settings, alpha) },
    { "alpha-final", WTS_NONNEG, offsetof(struct wts_settings, alpha_final) },
    { "epsilon", WTS_UNIT, offsetof(struct wts_settings, epsilon) },
    { "switch-prob", WTS_UNIT, offsetof(struct wts_settings, switch_prob) },
    { "opponent", WTS_WORD, offsetof(struct wts_settings, opponent) },
    { "seed", WTS_SEED, offsetof(struct wts_settings, seed) },
    { "games", WTS_COUNT, offsetof(struct wts_settings, games) },
    { "total-games", WTS_COUNT, offsetof(struct wts_settings, total_games) },
};
#define WTS_NKEYS ((int)(sizeof wts_keys / sizeof *wts_keys))
#define WTS_FIRST_SETTING_LINE 2
#define WTS_FIRST_WEIGHT_LINE (WTS_FIRST_SETTING_LINE + WTS_NKEYS)
#define WTS_LINES (WTS_FIRST_WEIGHT_LINE + FEAT_COUNT - 1)

void wts_format_double(double v, char *buf)
{
    for (int prec = 1; prec < WTS_MAX_PRECISION; prec++) {
        snprintf(buf, WTS_NUM_MAX, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            return;
    }
    snprintf(buf, WTS_NUM_MAX, "%.*g", WTS_MAX_PRECISION, v);
}

/* A line split into its key and its value (both pointing into the text). */
struct wts_kv {
    const char *key, *val;
    int key_len, val_len;
    int val_col;   /* 1-based column of the value */
};

static int is_blank(char c)
{
    return c == ' ' || c == '\t';
}

/* Splits line number ln into key and value; a line must hold exactly two
 * words. */
static int split_kv(const struct tf_line *l, int ln, struct wts_kv *kv, struct err *e)
{
    int i = 0;
    while (i < l->len && is_blank(l->s[i]))
        i++;
    if (i > 0)
        return err_set(e, ln, 1, "line starts with a blank, expected a key");
    while (i < l->len && !is_blank(l->s[i]))
        i++;
    kv->key = l->s;
    kv->key_len = i;
    while (i < l->len && is_blank(l->s[i]))
        i++;
    kv->val = l->s + i;
    kv->val_col = i + 1;
    while (i < l->len && !is_blank(l->s[i]))
        i++;
    kv->val_len = (int)(l->s + i - kv->val);
    while (i < l->len && is_blank(l->s[i]))
        i++;
    if (kv->key_len == 0)
        return err_set(e, ln, 1, "empty line, expected a key and a value");
    if (kv->val_len == 0)
        return err_set(e, ln, kv->val_col, "missing the value after '%.*s'", kv->key_len, kv->key);
    if (i < l->len)
        return err_set(e, ln, i + 1, "unexpected text after the value of '%.*s'", kv->key_len,
                       kv->key);
    return 0;
}

static int key_is(const struct wts_kv *kv, const char *want)
{
    return (size_t)kv->key_len == strlen(want) && memcmp(kv->key, want, strlen(want)) == 0;
}

/* The value as a NUL-terminated copy; -1 when it is too long to be one. */
static int value_text(const struct wts_kv *kv, int ln, char *buf, struct err *e)
{
    if (kv->val_len >= WTS_NUM_MAX)
        return err_set(e, ln, kv->val_col, "value of '%.*s' is too long (%d characters)",
                       kv->key_len, kv->key, kv->val_len);
    memcpy(buf, kv->val, (size_t)kv->val_len);
    buf[kv->val_len] = '\0';
    return 0;
}

static int parse_real(const struct wts_kv *kv, int ln, double *out, struct err *e)
{
    char buf[WTS_NUM_MAX], *end;
    if (value_text(kv, ln, buf, e) != 0)
        return -1;
    double v = strtod(buf, &end);
    if (end == buf || *end)
        return err_set(e, ln, kv->val_col + (int)(end - buf), "'%s' is not a number", buf);
    /* Overflow is infinite; underflow (ERANGE too) is the nearest subnormal,
     * which wts_format writes and must read back. */
    if (!isfinite(v))
        return err_set(e, ln, kv->val_col, "'%s' is not a finite number", buf);
    *out = v;
    return 0;
}

static int parse_unsigned(const struct wts_kv *kv, int ln, unsigned long long max,
                          unsigned long long *out, struct err *e)
{
    char buf[WTS_NUM_MAX], *end;
    if (value_text(kv, ln, buf, e) != 0)
        return -1;
    if (buf[0] < '0' || buf[0] > '9')
        return err_bad_char(e, ln, kv->val_col, buf[0], "a digit");
    errno = 0;
    unsigned long long v = strtoull(buf, &end, 10);
    if (*end)
        return err_bad_char(e, ln, kv->val_col + (int)(end - buf), *end, "a digit");
    if (errno == ERANGE || v > max)
        return err_set(e, ln, kv->val_col, "'%s' is out of range (at most %llu)", buf, max);
    *out = v;
    return 0;
}

static int parse_setting(const struct wts_key *k, const struct wts_kv *kv, int ln,
                         struct wts_settings *s, struct err *e)
{
    char *field = (char *)s + k->offset;
    double d;
    unsigned long long u;
    switch (k->kind) {
    case WTS_UNIT:
    case WTS_NONNEG:
        if (parse_real(kv, ln, &d, e) != 0)
            return -1;
        if (d < 0 || (k->kind == WTS_UNIT && d > 1))
            return err_set(e, ln, kv->val_col, "%s must be %s, got %.*s", k->key,
                           k->kind == WTS_UNIT ? "from 0 to 1" : "at least 0", kv->val_len,
                           kv->val);
        memcpy(field, &d, sizeof d);
        return 0;
    case WTS_COUNT: {
        if (parse_unsigned(kv, ln, LLONG_MAX, &u, e) != 0)
            return -1;
        long long c = (long long)u;
        memcpy(field, &c, sizeof c);
        return 0;
    }
    case WTS_SEED: {
        if (parse_unsigned(kv, ln, UINT64_MAX, &u, e) != 0)
            return -1;
        uint64_t seed = u;
        memcpy(field, &seed, sizeof seed);
        return 0;
    }
    case WTS_WORD:
    default:
        if (kv->val_len >= WTS_TOKEN_MAX)
            return err_set(e, ln, kv->val_col, "%s is too long (at most %d characters)", k->key,
                           WTS_TOKEN_MAX - 1);
        memcpy(field, kv->val, (size_t)kv->val_len);
        field[kv->val_len] = '\0';
        return 0;
    }
}

static int parse_header(const struct tf_lines *L, struct err *e)
{
    struct wts_kv kv;
    if (L->n < 1)
        return err_set(e, 1, 1, "empty file, expected '%s %d'", WTS_MAGIC, WTS_VERSION);
    if (split_kv(&L->line[0], 1, &kv, e) != 0 || !key_is(&kv, WTS_MAGIC))
        return err_set(e, 1, 1, "not a weights file: the first line must be '%s %d'", WTS_MAGIC,
                       WTS_VERSION);
    unsigned long long version;
    if (parse_unsigned(&kv, 1, INT32_MAX, &version, e) != 0)
        return -1;
    if (version != WTS_VERSION)
        return err_set(e, 1, kv.val_col, "weights format version %llu, this program reads %d",
                       version, WTS_VERSION);
    return 0;
}

int wts_parse(const char *text, size_t len, struct wts_file *f, struct err *e)
{
    struct tf_lines L;
    if (tf_split(text, len, &L, e) != 0)
        return -1;
    memset(f, 0, sizeof *f);
    if (parse_header(&L, e) != 0)
        return -1;
    struct wts_kv kv;
    for (int k = 0; k < WTS_NKEYS; k++) {
        int ln = WTS_FIRST_SETTING_LINE + k;
        if (ln > L.n)
            return err_set(e, ln, 1, "missing the '%s' line", wts_keys[k].key);
        if (split_kv(&L.line[ln - 1], ln, &kv, e) != 0)
            return -1;
        if (!key_is(&kv, wts_keys[k].key))
            return err_set(e, ln, 1, "expected '%s', found '%.*s'", wts_keys[k].key, kv.key_len,
                           kv.key);
        if (parse_setting(&wts_keys[k], &kv, ln, &f->settings, e) != 0)
            return -1;
    }
    for (int i = 0; i < FEAT_COUNT; i++) {
        int ln = WTS_FIRST_WEIGHT_LINE + i;
        if (ln > L.n)
            return err_set(e, ln, 1, "missing attribute %s (the file has %d of the %d attributes)",
                           feat_name(i), i, FEAT_COUNT);
        if (split_kv(&L.line[ln - 1], ln, &kv, e) != 0)
            return -1;
        if (!key_is(&kv, feat_name(i)))
            return err_set(e, ln, 1,
                           "attribute %d is %s, found '%.*s': these weights are for another "
                           "attribute list",
                           i + 1, feat_name(i), kv.key_len, kv.key);
        if (parse_real(&kv, ln, &f->weights.w[i], e) != 0)
            return -1;
    }
    if (L.n > WTS_LINES)
        return err_set(e, WTS_LINES + 1, 1, "unexpected text after the last attribute (%s)",
                       feat_name(FEAT_COUNT - 1));
    return 0;
}

int wts_load(const char *path, struct wts_file *f, struct err *e)
{
    char *text;
    size_t len;
    if (tf_read(path, WTS_FILE_MAX, &text, &len, e) != 0)
        return -1;
    int rc = wts_parse(text, len, f, e);
    free(text);
    return rc;
}

size_t wts_format(const struct wts_file *f, char *buf)
{
    const struct wts_settings *s = &f->settings;
    char num[WTS_NUM_MAX];
    size_t n = 0;
    n += (size_t)snprintf(buf + n, WTS_TEXT_MAX - n, "%s %d\n", WTS_MAGIC, WTS_VERSION);
    for (int k = 0; k < WTS_NKEYS; k++) {
        const char *field = (const char *)s + wts_keys[k].offset;
        switch (wts_keys[k].kind) {
        case WTS_UNIT:
        case WTS_NONNEG: {
            double d;
            memcpy(&d, field, sizeof d);
            wts_format_double(d, num);
            break;
        }
        case WTS_COUNT: {
            long long c;
            memcpy(&c, field, sizeof c);
            snprintf(num, sizeof num, "%lld", c);
            break;
        }
        case WTS_SEED: {
            uint64_t seed;
            memcpy(&seed, field, sizeof seed);
            snprintf(num, sizeof num, "%" PRIu64, seed);
            break;
        }
        case WTS_WORD:
        default:
            snprintf(num, sizeof num, "%s", field);
            break;
        }
        n += (size_t)snprintf(buf + n, WTS_TEXT_MAX - n, "%s %s\n", wts_keys[k].key, num);
    }
    for (int i = 0; i < FEAT_COUNT; i++) {
        wts_format_double(f->weights.w[i], num);
        n += (size_t)snprintf(buf + n, WTS_TEXT_MAX - n, "%s %s\n", feat_name(i), num);
    }
    return n;
}

int wts_save(const char *path, const struct wts_file *f, struct err *e)
{
    char buf[WTS_TEXT_MAX];
    size_t n = wts_format(f, buf);
    return tf_write_atomic(path, buf, n, e);
}
