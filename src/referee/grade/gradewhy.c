/*
 * gradewhy.c - what a check's evidence says went wrong (gradewhy.h): the
 * lines, captions and short reasons the grade's pages and results.json
 * share.
 */
#define _GNU_SOURCE
#include <assert.h>
#include <cjson/cJSON.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gradewhy.h"
#include "arena/record.h"
#include "arena/rules.h"

/* Kinds of failure gwhy_short counts at most, and names at most. */
#define SHORT_KINDS 8
#define SHORT_NAMED 2

static const char *str(const cJSON *obj, const char *key)
{
    const char *s = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(obj, key));
    return s ? s : "";
}

/* The item's number at key, or -1 when it has none (an older journal). */
static int num(const cJSON *obj, const char *key)
{
    const cJSON *n = cJSON_GetObjectItemCaseSensitive(obj, key);
    return cJSON_IsNumber(n) ? (int)n->valuedouble : -1;
}

/* Appends printf's text to buf (cap bytes, NUL-terminated), cut to fit. */
static void __attribute__((format(printf, 3, 4))) add(char *buf, size_t cap, const char *fmt, ...)
{
    size_t len = strlen(buf);
    if (len + 1 >= cap)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + len, cap - len, fmt, ap);
    va_end(ap);
}

int gwhy_forfeited(const cJSON *game)
{
    const char *r = str(game, "reason");
    return r[0] && strcmp(r, "normal") != 0 && strcmp(r, "draw-rule") != 0;
}

int gwhy_failed(const struct rubric_check *ch, const cJSON *it)
{
    if (ch->kind == RUBRIC_MATCH)
        return cJSON_GetNumberValue(cJSON_GetObjectItem(it, "result")) < 1;
    return ch->kind != RUBRIC_CPU;
}

static const char *result_word(const cJSON *game)
{
    double res = cJSON_GetNumberValue(cJSON_GetObjectItem(game, "result"));
    return res == 1 ? "won" : res == 0 ? "lost" : "drawn";
}

static void position_line(const cJSON *it, char *buf)
{
    add(buf, GWHY_MAX, "position %d", num(it, "position"));
    if (num(it, "ply") >= 0)
        add(buf, GWHY_MAX, " (ply %d)", num(it, "ply"));
    const char *given = str(it, "given");
    add(buf, GWHY_MAX, ": %s%s (%s)", given[0] ? "given " : "no move", given, str(it, "status"));
    const cJSON *want = cJSON_GetObjectItem(it, "expected"), *m;
    if (cJSON_GetArraySize(want) > 0) {
        add(buf, GWHY_MAX, "; expected one of");
        cJSON_ArrayForEach(m, want)
            add(buf, GWHY_MAX, " %s", cJSON_GetStringValue(m) ? m->valuestring : "?");
    }
}

static void game_line(const cJSON *it, char *buf)
{
    add(buf, GWHY_MAX, "game %d, as player %d, opening", num(it, "game"), num(it, "side"));
    const cJSON *m;
    cJSON_ArrayForEach(m, cJSON_GetObjectItem(it, "opening"))
        add(buf, GWHY_MAX, " %s", cJSON_GetStringValue(m) ? m->valuestring : "?");
    add(buf, GWHY_MAX, ": %s", result_word(it));
    int ply = num(it, "ply");
    if (gwhy_forfeited(it)) {
        add(buf, GWHY_MAX, ", forfeited");
        if (ply >= 0)
            add(buf, GWHY_MAX, " at ply %d", ply);
        add(buf, GWHY_MAX, ": %s", str(it, "reason"));
    } else {
        add(buf, GWHY_MAX, " (%s", strcmp(str(it, "reason"), "draw-rule") == 0
                                       ? "by the draw rule" : "the game ended");
        if (ply >= 0)
            add(buf, GWHY_MAX, " after ply %d", ply);
        add(buf, GWHY_MAX, ")");
    }
}

const char *gwhy_item(const struct rubric_check *ch, const cJSON *it, char *buf)
{
    buf[0] = '\0';
    if (ch->kind == RUBRIC_MATCH) {
        game_line(it, buf);
    } else if (ch->kind == RUBRIC_IO) {
        add(buf, GWHY_MAX, "input %s: ", str(it, "input"));
        if (strcmp(str(it, "status"), "ok") != 0)
            add(buf, GWHY_MAX, "%s; ", str(it, "status"));
        add(buf, GWHY_MAX, "first difference at line %d", num(it, "line"));
    } else {
        position_line(it, buf);
    }
    return buf;
}

const char *gwhy_caption(const struct rubric_check *ch, const cJSON *it, char *buf)
{
    buf[0] = '\0';
    int ply = num(it, "ply");
    if (ch->kind != RUBRIC_MATCH) {
        add(buf, GWHY_MAX, "the position");
        if (ply >= 0)
            add(buf, GWHY_MAX, " (ply %d)", ply);
        add(buf, GWHY_MAX, ":");
    } else if (gwhy_forfeited(it)) {
        add(buf, GWHY_MAX, "the position it forfeited at");
        if (ply >= 0)
            add(buf, GWHY_MAX, " (ply %d)", ply);
        add(buf, GWHY_MAX, ": %s", str(it, "reason"));
    } else {
        add(buf, GWHY_MAX, "final position");
        if (ply >= 0)
            add(buf, GWHY_MAX, " (after ply %d)", ply);
        add(buf, GWHY_MAX, ":");
    }
    return buf;
}

const char *gwhy_depth(const cJSON *pt, char *buf)
{
    int failed = num(pt, "failed"), moves = num(pt, "moves");
    if (failed <= 0)
        return NULL;
    buf[0] = '\0';
    add(buf, GWHY_MAX, "depth %d: %d", num(pt, "depth"), failed);
    if (moves >= 0)
        add(buf, GWHY_MAX, " of %d", failed + moves);
    add(buf, GWHY_MAX, " moves failed");
    const cJSON *k;
    int first = 1;
    cJSON_ArrayForEach(k, cJSON_GetObjectItem(pt, "failures")) {
        add(buf, GWHY_MAX, "%s %s %d", first ? ":" : ",", k->string, (int)k->valuedouble);
        first = 0;
    }
    return buf;
}

/* --- the short reason ---------------------------------------------------- */

struct kind_count {
    char kind[REC_REASON_MAX];
    int count;
};

struct kinds {
    int n;
    struct kind_count k[SHORT_KINDS];
};

static void count_kind(struct kinds *ks, const char *reason, int times)
{
    char kind[REC_REASON_MAX];
    (void)rec_reason_split(reason, kind);
    for (int i = 0; i < ks->n; i++)
        if (strcmp(ks->k[i].kind, kind) == 0) {
            ks->k[i].count += times;
            return;
        }
    if (ks->n == SHORT_KINDS)
        return;
    snprintf(ks->k[ks->n].kind, sizeof ks->k[ks->n].kind, "%s", kind);
    ks->k[ks->n++].count = times;
}

/* The kind of a failed item: its forfeit reason's, else what it lost. */
static const char *item_kind(const struct rubric_check *ch, const cJSON *it)
{
    if (ch->kind == RUBRIC_MATCH)
        return gwhy_forfeited(it) ? str(it, "reason") : result_word(it);
    const char *s = str(it, "status");
    return ch->kind == RUBRIC_IO && strcmp(s, "ok") == 0 ? "wrong output" : s;
}

/* A cpu check's: the failures at its depth, or its median against the
 * limit, or the depth it never reached. */
static void cpu_kinds(const struct rubric_check *ch, const cJSON *curve, struct kinds *ks,
                      char *buf)
{
    const cJSON *pt, *at = NULL, *k;
    cJSON_ArrayForEach(pt, curve) {
        cJSON_ArrayForEach(k, cJSON_GetObjectItem(pt, "failures"))
            count_kind(ks, k->string, (int)k->valuedouble);
        if (num(pt, "depth") == ch->depth)
            at = pt;
    }
    if (ks->n > 0)
        return;
    double median = cJSON_GetNumberValue(cJSON_GetObjectItem(at, "median_ms"));
    if (!at)
        snprintf(buf, GWHY_SHORT_MAX, "not run at depth %d", ch->depth);
    else if (median > (double)ch->max_ms)
        snprintf(buf, GWHY_SHORT_MAX, "median %.0f ms > %ld ms", median, ch->max_ms);
}

const char *gwhy_short(const struct rubric_check *ch, const cJSON *evidence, char *buf)
{
    struct kinds ks = { 0 };
    buf[0] = '\0';
    if (ch->kind == RUBRIC_CPU) {
        cpu_kinds(ch, cJSON_GetObjectItem(evidence, "curve"), &ks, buf);
    } else {
        const cJSON *it;
        cJSON_ArrayForEach(it, cJSON_GetObjectItem(evidence, "items"))
            if (gwhy_failed(ch, it))
                count_kind(&ks, item_kind(ch, it), 1);
    }
    for (int named = 0; named < SHORT_NAMED && named < ks.n; named++) {
        int top = named;   /* the commonest left, the first seen on a tie */
        for (int i = named + 1; i < ks.n; i++)
            top = ks.k[i].count > ks.k[top].count ? i : top;
        if (top != named) {
            struct kind_count t = ks.k[named];
            ks.k[named] = ks.k[top];
            ks.k[top] = t;
        }
        add(buf, GWHY_SHORT_MAX, "%s%s (%d)", named ? ", " : "", ks.k[named].kind,
            ks.k[named].count);
    }
    if (ks.n > SHORT_NAMED)
        add(buf, GWHY_SHORT_MAX, ", ...");
    return buf;
}

/* --- results.json's text ------------------------------------------------- */

/* A tail of the item's output, under its heading, when it has one. */
static void tail_text(FILE *f, const cJSON *it, const char *key)
{
    const char *t = str(it, key);
    if (!t[0])
        return;
    fprintf(f, "its %s ended with:\n%s%s", key, t, t[strlen(t) - 1] == '\n' ? "" : "\n");
}

static void item_text(FILE *f, const struct rubric_check *ch, const cJSON *it)
{
    char line[GWHY_MAX];
    fprintf(f, "\n%s\n", gwhy_item(ch, it, line));
    if (ch->kind == RUBRIC_IO) {
        fprintf(f, "expected: %s\ngiven:    %s\n", str(it, "want"), str(it, "got"));
    } else if (str(it, "board")[0]) {
        fprintf(f, "%s\n%s", gwhy_caption(ch, it, line), str(it, "board"));
    }
    tail_text(f, it, "stderr");
    tail_text(f, it, "stdout");
}

char *gwhy_text(const struct rubric_check *ch, const char *output, const cJSON *evidence)
{
    assert(ch && output);
    char *text = NULL, line[GWHY_MAX];
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return NULL;
    fputs(output, f);
    const cJSON *it;
    if (ch->kind == RUBRIC_CPU) {
        cJSON_ArrayForEach(it, cJSON_GetObjectItem(evidence, "curve"))
            if (gwhy_depth(it, line))
                fprintf(f, "\n%s", line);
    } else {
        cJSON_ArrayForEach(it, cJSON_GetObjectItem(evidence, "items"))
            if (gwhy_failed(ch, it))
                item_text(f, ch, it);
    }
    return fclose(f) == 0 ? text : (free(text), NULL);
}
