/*
 * spec.c - engine SPECs into argv templates (spec.h). Words are split the
 * way a POSIX shell splits them, quotes and backslashes included, so users
 * can copy a command line from their terminal; nothing is expanded and no
 * shell ever runs.
 */
#include <cjson/cJSON.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "arena/spec.h"
#include "arena/rules.h"

/* Splits cmd (offset base into the SPEC) into words; 0 or -1 with e. */
static int split_words(const char *cmd, int base, struct spec *eng, struct err *e)
{
    size_t len = strlen(cmd);
    const char *p = cmd;
    while (*p) {
        while (*p == ' ' || *p == '\t')
            p++;
        if (!*p)
            break;
        if (eng->argc == RUN_MAX_ARGS - 1)
            return err_set(e, 1, base + (int)(p - cmd) + 1, "too many words: at most %d",
                           RUN_MAX_ARGS - 1);
        char *word = malloc(len + 1), *w = word;
        if (!word)
            return err_set(e, 1, base + 1, "out of memory");
        eng->argv[eng->argc++] = word;
        while (*p && *p != ' ' && *p != '\t') {
            if (*p == '\'') {
                const char *q = strchr(p + 1, '\'');
                if (!q)
                    return err_set(e, 1, base + (int)(p - cmd) + 1, "unterminated ' quote");
                memcpy(w, p + 1, (size_t)(q - p - 1));
                w += q - p - 1;
                p = q + 1;
            } else if (*p == '"') {
                const char *start = p;
                p++;
                while (*p && *p != '"') {
                    if (*p == '\\' && (p[1] == '"' || p[1] == '\\'))
                        p++;
                    *w++ = *p++;
                }
                if (!*p)
                    return err_set(e, 1, base + (int)(start - cmd) + 1, "unterminated \" quote");
                p++;
            } else if (*p == '\\' && p[1]) {
                *w++ = p[1];
                p += 2;
            } else {
                *w++ = *p++;
            }
        }
        *w = '\0';
    }
    eng->argv[eng->argc] = NULL;
    return 0;
}

/* The SHA-256 of the program argv[0] names (looked up in PATH like execvp
 * when it has no '/'), or "" when there is no such readable file. */
static void program_digest(struct spec *eng)
{
    const char *prog = eng->argv[0];
    char path[PATH_MAX];
    struct err e;
    eng->sha256[0] = '\0';
    if (strchr(prog, '/')) {
        if (sha256_file(prog, eng->sha256, &e) != 0)
            eng->sha256[0] = '\0';
        return;
    }
    const char *dirs = getenv("PATH");
    for (const char *d = dirs ? dirs : ""; *d;) {
        size_t n = strcspn(d, ":");
        snprintf(path, sizeof path, "%.*s/%s", (int)n, n ? d : ".", prog);
        if (access(path, X_OK) == 0 && sha256_file(path, eng->sha256, &e) == 0)
            return;
        d += n + (d[n] == ':');
    }
    eng->sha256[0] = '\0';
}

/* The engine of name (NULL: none given; a bad one is reported at column
 * name_col) and cmd, which starts at offset base of what the user wrote (for
 * error columns). */
static int engine_make(const char *name, size_t name_len, int name_col, const char *cmd,
                       int base, struct spec *eng, struct err *e)
{
    memset(eng, 0, sizeof *eng);
    if (name) {
        if (name_len == 0 || name_len >= REC_NAME_MAX)
            return err_set(e, 1, name_col, "the name must have 1 to %d characters",
                           REC_NAME_MAX - 1);
        memcpy(eng->name, name, name_len);
    }
    if (split_words(cmd, base, eng, e) != 0) {
        spec_free(eng);
        return -1;
    }
    if (eng->argc == 0) {
        spec_free(eng);
        return err_set(e, 1, base + 1, "empty command");
    }
    if (!eng->argv[0][0]) {   /* '' or "": nothing could ever run */
        spec_free(eng);
        return err_set(e, 1, base + 1, "empty program name");
    }
    /* Engines run in their game's folder: a relative program path is made
     * absolute now, against the referee's own folder. */
    if (strchr(eng->argv[0], '/') && eng->argv[0][0] != '/') {
        char *abs = realpath(eng->argv[0], NULL);
        if (abs) {
            free(eng->argv[0]);
            eng->argv[0] = abs;
        }
    }
    program_digest(eng);
    if (!eng->name[0]) {
        const char *base_name = strrchr(eng->argv[0], '/');
        /* A path ending in '/' has no base name: the name is the path. */
        base_name = base_name && base_name[1] ? base_name + 1 : eng->argv[0];
        snprintf(eng->name, sizeof eng->name, "%s", base_name);
    }
    int any = 0;
    for (int i = 0; i < eng->argc; i++)
        any |= rules_has_placeholder(eng->argv[i]);
    if (!any) {
        if (eng->argc + RULES_DEFAULT_PLACEHOLDERS > RUN_MAX_ARGS - 1) {
            spec_free(eng);
            return err_set(e, 1, 1, "too many words: at most %d", RUN_MAX_ARGS - 1);
        }
        for (int k = 0; k < RULES_DEFAULT_PLACEHOLDERS; k++)
            eng->argv[eng->argc++] = strdup(rules_placeholder[k]);
        eng->argv[eng->argc] = NULL;
    }
    return 0;
}

int spec_parse(const char *spec, struct spec *eng, struct err *e)
{
    if (strncmp(spec, "name=", 5) == 0) {
        const char *comma = strstr(spec, ",cmd=");
        if (!comma) {
            memset(eng, 0, sizeof *eng);
            return err_set(e, 1, 1, "expected name=NAME,cmd=COMMAND");
        }
        return engine_make(spec + 5, (size_t)(comma - spec - 5), 6, comma + 5,
                           (int)(comma + 5 - spec), eng, e);
    }
    return engine_make(NULL, 0, 0, spec, 0, eng, e);
}

int spec_make(const char *name, const char *cmd, struct spec *eng, struct err *e)
{
    return engine_make(name, strlen(name), 1, cmd, 0, eng, e);
}

void spec_free(struct spec *eng)
{
    for (int i = 0; i < eng->argc; i++)
        free(eng->argv[i]);
    eng->argc = 0;
    eng->argv[0] = NULL;
}

cJSON *spec_json(const struct spec *eng)
{
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "name", eng->name);
    cJSON *cmd = cJSON_AddArrayToObject(j, "cmd");
    for (int i = 0; i < eng->argc; i++)
        cJSON_AddItemToArray(cmd, cJSON_CreateString(eng->argv[i]));
    if (eng->sha256[0])
        cJSON_AddStringToObject(j, "sha256", eng->sha256);
    else
        cJSON_AddNullToObject(j, "sha256");
    return j;
}
