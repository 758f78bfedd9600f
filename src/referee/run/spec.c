/*
 * spec.c - engine SPECs into engines (spec.h). Words are split the way a
 * POSIX shell splits them, quotes and backslashes included, so users can
 * copy a command line from their terminal; nothing is expanded and no shell
 * ever runs. Everything the engine's files depend on (its folder, its
 * program, its script) is resolved once, before the first game, so every
 * game runs the same files and a bad path stops the referee before it plays.
 */
#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "arena/cli.h"
#include "arena/limits.h"
#include "arena/path.h"
#include "arena/rules.h"
#include "arena/spec.h"
#include "shim.h"

static const char *const key_name[SPEC_KEYS] = {
    "name", "cmd", "dir", "args", "stderr", "depth", "proto"
};
#define KEY_LIST "name, cmd, dir, args, stderr, depth, proto"
/* proto='s values, in enum spec_proto's order. */
static const char *const proto_name[] = { "file", "persistent" };
#define SEPARATORS " \t,"
#define BLANKS " \t"

/* --- words ----------------------------------------------------------- */

/* Copies the word at p into w, quotes and backslashes removed, and returns
 * where it ends: at a blank (when blanks_end) or at end. start and base
 * place errors: the column of p is base + (p - start) + 1. NULL with e on an
 * unterminated quote. */
static const char *scan_word(const char *p, const char *end, int blanks_end, char *w,
                             const char *start, int base, struct err *e)
{
    while (p < end && !(blanks_end && (*p == ' ' || *p == '\t'))) {
        if (*p == '\'') {
            const char *q = memchr(p + 1, '\'', (size_t)(end - p - 1));
            if (!q)
                return err_set(e, 1, base + (int)(p - start) + 1, "unterminated ' quote"), NULL;
            memcpy(w, p + 1, (size_t)(q - p - 1));
            w += q - p - 1;
            p = q + 1;
        } else if (*p == '"') {
            const char *open = p++;
            while (p < end && *p != '"') {
                if (*p == '\\' && p + 1 < end && (p[1] == '"' || p[1] == '\\'))
                    p++;
                *w++ = *p++;
            }
            if (p == end)
                return err_set(e, 1, base + (int)(open - start) + 1, "unterminated \" quote"),
                       NULL;
            p++;
        } else if (*p == '\\') {
            if (p + 1 == end)   /* it would escape the separator after the value */
                return err_set(e, 1, base + (int)(p - start) + 1, "nothing to escape after \\"),
                       NULL;
            *w++ = p[1];
            p += 2;
        } else {
            *w++ = *p++;
        }
    }
    *w = '\0';
    return p;
}

/* Splits cmd (at offset base of what the user wrote, for error columns)
 * into words appended to argv[*argc...] (malloc'd), at most max in all.
 * 0, or -1 with e (the words so far stay in argv for the caller to free). */
static int split_words(const char *cmd, int base, char **argv, int *argc, int max, struct err *e)
{
    size_t len = strlen(cmd);
    const char *p = cmd, *end = cmd + len;
    for (;;) {
        p += strspn(p, BLANKS);
        if (!*p)
            return 0;
        if (*argc == max)
            return err_set(e, 1, base + (int)(p - cmd) + 1, "too many words: at most %d", max);
        char *word = malloc(len + 1);
        if (!word)
            return err_set(e, 1, base + 1, "out of memory");
        argv[(*argc)++] = word;
        const char *start = p;
        if (!(p = scan_word(p, end, 1, word, cmd, base, e)))
            return -1;
        size_t n = strlen(word);
        if (n > SPEC_WORD_MAX)
            return err_set(e, 1, base + (int)(start - cmd) + 1,
                           "a word of %zu bytes: at most %d", n, SPEC_WORD_MAX);
    }
}

static void free_words(char **argv, int *argc)
{
    for (int i = 0; i < *argc; i++)
        free(argv[i]);
    *argc = 0;
    argv[0] = NULL;
}

/* --- SPEC options ------------------------------------------------------ */

/* The length of KEY when p starts with KEY= (a letter, then letters, digits,
 * '_' or '-'), else 0. */
static size_t key_at(const char *p)
{
    if (!isalpha((unsigned char)*p))
        return 0;
    size_t n = 1;
    while (isalnum((unsigned char)p[n]) || p[n] == '_' || p[n] == '-')
        n++;
    return p[n] == '=' ? n : 0;
}

/* Where the value that starts at p ends: at the first separator outside
 * quotes that, past more separators, is followed by KEY=, or at the end.
 * Quotes are only skipped here; scan_word reports an unterminated one. */
static const char *value_end(const char *p)
{
    while (*p) {
        if (*p == '\'') {
            const char *q = strchr(p + 1, '\'');
            p = q ? q + 1 : p + strlen(p);
        } else if (*p == '"') {
            for (p++; *p && *p != '"'; p++)
                if (*p == '\\' && (p[1] == '"' || p[1] == '\\'))
                    p++;
            p += *p == '"';
        } else if (*p == '\\' && p[1]) {
            p += 2;
        } else if (strchr(SEPARATORS, *p)) {
            const char *q = p + strspn(p, SEPARATORS);
            if (!*q || key_at(q))
                return p;
            p = q;
        } else {
            p++;
        }
    }
    return p;
}

/* The protocol value names, or -1. */
static int proto_of(const char *value)
{
    for (int p = 0; p < (int)(sizeof proto_name / sizeof *proto_name); p++)
        if (strcmp(value, proto_name[p]) == 0)
            return p;
    return -1;
}

/* Checks value for key k (col: where it starts in what the user wrote, for
 * errors) and stores a copy in keys, replacing what was there. */
static int keys_store(struct spec_keys *keys, int k, const char *value, int col, struct err *e)
{
    if (k == SPEC_NAME) {
        size_t n = strlen(value);
        if (n == 0 || n >= REC_NAME_MAX)
            return err_set(e, 1, col, "the name must have 1 to %d characters", REC_NAME_MAX - 1);
        for (size_t i = 0; i < n; i++)
            if (iscntrl((unsigned char)value[i]))
                return err_set(e, 1, col + (int)i, "a name cannot hold control characters");
    } else if (k == SPEC_DEPTH) {
        long v;
        if (cli_int(value, 1, SEARCH_MAX_DEPTH, &v) != 0)
            return err_set(e, 1, col, "depth= must be a number from 1 to %d, got '%s'",
                           SEARCH_MAX_DEPTH, value);
    } else if (k == SPEC_PROTO) {
        if (proto_of(value) < 0)
            return err_set(e, 1, col, "proto= must be file or persistent, got '%s'", value);
    } else if (k == SPEC_CMD || k == SPEC_ARGS) {
        char *words[RUN_MAX_ARGS];
        int n = 0, rc = split_words(value, col - 1, words, &n, RUN_MAX_ARGS - 1, e);
        if (rc == 0 && k == SPEC_CMD && n == 0)
            rc = err_set(e, 1, col, "empty command");
        else if (rc == 0 && k == SPEC_CMD && !words[0][0])   /* '' or "" */
            rc = err_set(e, 1, col, "empty program name");
        free_words(words, &n);
        if (rc)
            return -1;
    } else if (!value[0]) {
        return err_set(e, 1, col, "%s= needs a path", key_name[k]);
    }
    char *copy = strdup(value);
    if (!copy)
        return err_set(e, 1, col, "out of memory");
    free(keys->value[k]);
    keys->value[k] = copy;
    return 0;
}

/* The key named by the n bytes at key, or -1. */
static int key_index(const char *key, size_t n)
{
    for (int k = 0; k < SPEC_KEYS; k++)
        if (strlen(key_name[k]) == n && strncmp(key, key_name[k], n) == 0)
            return k;
    return -1;
}

/* One KEY=VALUE option at p (key: its length); the value ends at end. */
static int parse_option(const char *text, const char *p, size_t key, const char *end,
                        enum spec_mode mode, struct spec_keys *keys, unsigned *seen,
                        struct err *e)
{
    int col = (int)(p - text) + 1, k = key_index(p, key);
    if (k < 0)
        return err_set(e, 1, col, "unknown key '%.*s' (" KEY_LIST ")", (int)key, p);
    if (*seen & 1u << k)
        return err_set(e, 1, col, "%s= given twice", key_name[k]);
    if (k == SPEC_NAME && mode == SPEC_EACH)
        return err_set(e, 1, col, "name= belongs to one engine, not to --each");
    *seen |= 1u << k;
    const char *v = p + key + 1;
    int vcol = (int)(v - text) + 1;
    char *value = malloc((size_t)(end - v) + 1);
    if (!value)
        return err_set(e, 1, col, "out of memory");
    int rc = 0;
    if (k == SPEC_CMD || k == SPEC_ARGS) {
        /* COMMAND text stays quoted: it is split into words when resolved. */
        memcpy(value, v, (size_t)(end - v));
        value[end - v] = '\0';
    } else if (!scan_word(v, end, 0, value, text, 0, e)) {
        rc = -1;
    }
    if (rc == 0)
        rc = keys_store(keys, k, value, vcol, e);
    free(value);
    return rc;
}

int spec_keys_parse(const char *text, enum spec_mode mode, struct spec_keys *keys,
                    struct err *e)
{
    const char *p = text + strspn(text, SEPARATORS);
    size_t key = key_at(p);
    if (!key && mode == SPEC_ENGINE)
        return keys_store(keys, SPEC_CMD, text, 1, e);
    if (!key)
        return err_set(e, 1, (int)(p - text) + 1,
                       "expected KEY=VALUE options (" KEY_LIST ")");
    unsigned seen = 0;
    while (*p) {
        const char *end = value_end(p + key + 1);
        if (parse_option(text, p, key, end, mode, keys, &seen, e) != 0)
            return -1;
        p = end + strspn(end, SEPARATORS);
        key = key_at(p);
    }
    return 0;
}

int spec_keys_set(struct spec_keys *keys, const char *key, const char *value, struct err *e)
{
    int k = key_index(key, strlen(key));
    if (k < 0)
        return err_set(e, 1, 1, "unknown key '%s' (" KEY_LIST ")", key);
    return keys_store(keys, k, value, 1, e);
}

void spec_keys_free(struct spec_keys *keys)
{
    for (int k = 0; k < SPEC_KEYS; k++) {
        free(keys->value[k]);
        keys->value[k] = NULL;
    }
}

/* --- resolving --------------------------------------------------------- */

static int is_regular(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* The file argv[0] names, as execvp would find it from dir (malloc'd), or
 * NULL when there is none. */
static char *find_program(const struct spec *eng)
{
    char path[PATH_MAX];
    return path_find_program(eng->argv[0], eng->dir, path, sizeof path) == 0 ? strdup(path)
                                                                                : NULL;
}

static int add_runtime(void *ctx, const char *path)
{
    struct spec *eng = ctx;
    for (int i = 0; i < eng->nruntime; i++)
        if (strcmp(eng->runtime[i], path) == 0)
            return 0;
    char **grown = realloc(eng->runtime, (size_t)(eng->nruntime + 1) * sizeof *grown);
    if (!grown)
        return -1;
    eng->runtime = grown;
    return (eng->runtime[eng->nruntime] = strdup(path)) ? (eng->nruntime++, 0) : -1;
}

/* Makes the program word and every word naming a regular file in dir=
 * absolute (words with a placeholder are the referee's, not files). */
static int absolute_words(struct spec *eng, struct err *e)
{
    for (int i = 0; i < eng->argc; i++) {
        const char *w = eng->argv[i];
        if (w[0] == '/' || rules_has_placeholder(w) || (i == 0 && !strchr(w, '/')))
            continue;
        char *abs = path_absolute(eng->dir, w);
        if (!abs)
            return err_set(e, 0, 0, "out of memory");
        if (i > 0 && !is_regular(abs)) {
            free(abs);
            continue;
        }
        free(eng->argv[i]);
        eng->argv[i] = abs;
    }
    return 0;
}

/* The words after the program that name a regular file (absolute by now),
 * with their digests: the student's script is what differs between
 * students, not the interpreter. */
static int hash_files(struct spec *eng, struct err *e)
{
    for (int i = 1; i < eng->argc; i++) {
        struct spec_file f = { eng->argv[i], "" };
        struct err ignored;
        if (f.path[0] != '/' || !is_regular(f.path) || sha256_file(f.path, f.sha256, &ignored))
            continue;
        struct spec_file *grown = realloc(eng->files, (size_t)(eng->nfiles + 1) * sizeof *grown);
        if (!grown || !(f.path = strdup(f.path))) {
            if (grown)
                eng->files = grown;
            return err_set(e, 0, 0, "out of memory");
        }
        eng->files = grown;
        eng->files[eng->nfiles++] = f;
    }
    return 0;
}

/* The base name of word as an engine's default name (a path ending in '/'
 * has none: the name is the path). */
static void default_name(struct spec *eng, const char *word)
{
    const char *base = strrchr(word, '/');
    snprintf(eng->name, sizeof eng->name, "%s", base && base[1] ? base + 1 : word);
    /* Names are printed in result lines and reports: one line each. */
    for (char *c = eng->name; *c; c++)
        if (iscntrl((unsigned char)*c))
            *c = '?';
}

/* An interpreter's engine is named after its script: `python3 mc4.py` is
 * mc4, not python3, so two students' engines differ by name. The script
 * is the first word after the program that is no option and no
 * placeholder, when it names a regular file (absolute by now); the name
 * is its base name without its extension. */
static void script_name(struct spec *eng)
{
    for (int i = 1; i < eng->argc; i++) {
        const char *w = eng->argv[i];
        if (w[0] == '-')
            continue;
        if (w[0] != '/' || rules_has_placeholder(w) || !is_regular(w))
            return;
        default_name(eng, w);
        char *dot = strrchr(eng->name, '.');
        if (dot && dot != eng->name)
            *dot = '\0';
        return;
    }
}

/* What the program reads (path_runtime) and its digest. 0, or -1 when out
 * of memory. */
static int program_facts(struct spec *eng)
{
    for (int i = 0; i < eng->nruntime; i++)
        free(eng->runtime[i]);
    eng->nruntime = 0;
    if (eng->program && path_runtime(eng->program, add_runtime, eng) != 0)
        return -1;
    struct err ignored;
    if (!eng->program || sha256_file(eng->program, eng->sha256, &ignored) != 0)
        eng->sha256[0] = '\0';
    return 0;
}

/* The working directory: dir= made absolute against ours, or ours. */
static int resolve_dir(struct spec *eng, const char *given, struct err *e)
{
    char *cwd = getcwd(NULL, 0);
    if (!cwd)
        return err_set(e, 0, 0, "cannot read the working directory: %s", strerror(errno));
    if (!given) {
        eng->dir = cwd;
        return 0;
    }
    char *abs = path_absolute(cwd, given);
    free(cwd);
    if (!abs)
        return err_set(e, 0, 0, "out of memory");
    struct stat st;
    int rc = 0;
    if (stat(abs, &st) != 0)
        rc = err_set(e, 0, 0, "dir=%s: %s", given, strerror(errno));
    else if (!S_ISDIR(st.st_mode))
        rc = err_set(e, 0, 0, "dir=%s: not a folder", given);
    if (rc)
        free(abs);
    else
        eng->dir = abs;
    return rc;
}

int spec_split(const char *cmd, char **argv, int max, struct err *e)
{
    assert(cmd && argv && max > 0);
    int argc = 0;
    if (split_words(cmd, 0, argv, &argc, max - 1, e) != 0) {
        free_words(argv, &argc);
        return -1;
    }
    argv[argc] = NULL;
    return argc;
}

void spec_split_free(char **argv)
{
    for (int i = 0; argv[i]; i++)
        free(argv[i]);
}

/* The words of cmd= and args=, then {in} {out} {depth} when none holds a
 * placeholder. */
static int resolve_words(struct spec *eng, const char *cmd, const char *args,
                         struct err *e)
{
    /* A persistent engine is told its files on stdin, not by its command. */
    int any = eng->proto == SPEC_PERSISTENT;
    const int max = RUN_MAX_ARGS - 1;
    if (split_words(cmd, 0, eng->argv, &eng->argc, max, e) != 0 ||
        (args && split_words(args, 0, eng->argv, &eng->argc, max, e) != 0)) {
        e->line = e->col = 0;   /* a place in cmd= or args= of the SPEC or --each */
        return -1;
    }
    for (int i = 0; i < eng->argc; i++)
        any |= rules_has_placeholder(eng->argv[i]);
    if (!any) {
        if (eng->argc + RULES_DEFAULT_PLACEHOLDERS > max)
            return err_set(e, 0, 0, "too many words: at most %d", max);
        for (int k = 0; k < RULES_DEFAULT_PLACEHOLDERS; k++)
            if (!(eng->argv[eng->argc++] = strdup(rules_placeholder[k])))
                return err_set(e, 0, 0, "out of memory");
    }
    eng->argv[eng->argc] = NULL;
    return 0;
}

int spec_resolve(struct spec *eng, const struct spec_keys *each, struct err *e)
{
    const char *v[SPEC_KEYS];
    for (int k = 0; k < SPEC_KEYS; k++)
        v[k] = eng->keys.value[k] ? eng->keys.value[k] : each ? each->value[k] : NULL;
    if (!v[SPEC_CMD])
        return err_set(e, 0, 0, "no cmd= (the command that runs the engine)");
    eng->proto = v[SPEC_PROTO] ? (enum spec_proto)proto_of(v[SPEC_PROTO]) : SPEC_FILE;
    if (resolve_dir(eng, v[SPEC_DIR], e) != 0 ||
        resolve_words(eng, v[SPEC_CMD], v[SPEC_ARGS], e) != 0)
        return -1;
    /* The name before the program word becomes a path. */
    eng->named = v[SPEC_NAME] != NULL;
    if (eng->named)
        snprintf(eng->name, sizeof eng->name, "%s", v[SPEC_NAME]);
    else
        default_name(eng, eng->argv[0]);
    if (absolute_words(eng, e) != 0 || hash_files(eng, e) != 0)
        return -1;
    if (!eng->named)
        script_name(eng);
    eng->program = find_program(eng);
    if (program_facts(eng) != 0)
        return err_set(e, 0, 0, "out of memory");
    if (v[SPEC_DEPTH])
        eng->depth = atoi(v[SPEC_DEPTH]);   /* checked when stored */
    if (v[SPEC_STDERR]) {
        char *cwd = getcwd(NULL, 0);
        eng->stderr_path = cwd ? path_absolute(cwd, v[SPEC_STDERR]) : NULL;
        free(cwd);
        if (!eng->stderr_path)
            return err_set(e, 0, 0, "stderr=%s: cannot make it absolute", v[SPEC_STDERR]);
    }
    return 0;
}

int spec_resolve_shim(struct spec *eng, char *const *env, struct err *e)
{
    struct shim sh;
    struct err why;
    enum shim_found found = eng->program && !eng->shim && !eng->shim_why
                                ? shim_resolve(eng->program, eng->dir, env, &sh, &why)
                                : SHIM_NONE;
    if (found == SHIM_UNRESOLVED)
        return (eng->shim_why = strdup(why.msg)) ? 0 : err_set(e, 0, 0, "out of memory");
    if (found == SHIM_NONE)
        return 0;
    char *interpreter = strdup(sh.interpreter), *word = strdup(sh.interpreter);
    if (!interpreter || !word) {
        free(interpreter);
        free(word);
        return err_set(e, 0, 0, "out of memory");
    }
    eng->shim = eng->program;
    eng->program = interpreter;
    free(eng->argv[0]);
    eng->argv[0] = word;
    return program_facts(eng) == 0 ? 0 : err_set(e, 0, 0, "out of memory");
}

int spec_check(const struct spec *eng, struct err *e)
{
    const char *prog = eng->argv[0];
    if (!eng->program && !strchr(prog, '/')) {
        /* A shell runs ./mc4.py, never mc4.py, from the folder it is in. */
        char *here = path_absolute(eng->dir, prog);
        int beside = here && is_regular(here);
        free(here);
        return err_set(e, 0, 0, "program '%s' not found in PATH%s%s%s", prog,
                       beside ? ": did you mean ./" : "", beside ? prog : "", beside ? "?" : "");
    }
    if (!eng->program)
        return err_set(e, 0, 0, "program %s %s", prog,
                       access(prog, F_OK) == 0 ? "is not a file" : "does not exist");
    if (access(eng->program, X_OK) != 0)
        return err_set(e, 0, 0, "program %s is not executable", eng->program);
    return 0;
}

/* Gives default names a suffix until every name is unique: the first of a
 * name keeps it (engine, engine-2, engine-3, ...). Names given with name=
 * are never changed. */
static void unique_names(struct spec *eng, int n)
{
    for (int i = 0; i < n; i++) {
        if (eng[i].named)
            continue;
        char base[REC_NAME_MAX];
        snprintf(base, sizeof base, "%s", eng[i].name);
        for (int suffix = 2;; suffix++) {
            int taken = 0;
            for (int j = 0; j < n && !taken; j++)
                taken = j != i && (eng[j].named || j < i) &&
                        strcmp(eng[j].name, eng[i].name) == 0;
            if (!taken)
                break;
            char tail[16];
            int t = snprintf(tail, sizeof tail, "-%d", suffix);
            snprintf(eng[i].name, sizeof eng[i].name, "%.*s%s", REC_NAME_MAX - 1 - t, base, tail);
        }
    }
}

/* Prefixes e's message with the engine it is about. */
static int engine_error(const struct spec *eng, int i, struct err *e)
{
    char msg[ERR_MSG_MAX];
    snprintf(msg, sizeof msg, "%s", e->msg);
    if (eng->keys.value[SPEC_NAME])
        return err_set(e, 0, 0, "engine '%s': %s", eng->keys.value[SPEC_NAME], msg);
    return err_set(e, 0, 0, "engine %d: %s", i + 1, msg);
}

int spec_resolve_all(struct spec *eng, int n, const struct spec_keys *each, int check,
                     struct err *e)
{
    for (int i = 0; i < n; i++)
        if (spec_resolve(&eng[i], each, e) != 0 ||
            (check && spec_check(&eng[i], e) != 0))
            return engine_error(&eng[i], i, e);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < i; j++)
            if (eng[i].named && eng[j].named && strcmp(eng[i].name, eng[j].name) == 0)
                return err_set(e, 0, 0, "engines %d and %d are both named '%s'", j + 1, i + 1,
                               eng[i].name);
    unique_names(eng, n);
    return 0;
}

int spec_parse(const char *text, struct spec *eng, struct err *e)
{
    memset(eng, 0, sizeof *eng);
    if (spec_keys_parse(text, SPEC_ENGINE, &eng->keys, e) != 0 ||
        spec_resolve(eng, NULL, e) != 0) {
        spec_free(eng);
        return -1;
    }
    return 0;
}

void spec_free(struct spec *eng)
{
    free_words(eng->argv, &eng->argc);
    free(eng->dir);
    free(eng->program);
    free(eng->stderr_path);
    free(eng->shim);
    free(eng->shim_why);
    eng->dir = eng->program = eng->stderr_path = eng->shim = eng->shim_why = NULL;
    for (int i = 0; i < eng->nfiles; i++)
        free(eng->files[i].path);
    free(eng->files);
    eng->files = NULL;
    eng->nfiles = 0;
    for (int i = 0; i < eng->nruntime; i++)
        free(eng->runtime[i]);
    free(eng->runtime);
    eng->runtime = NULL;
    eng->nruntime = 0;
    spec_keys_free(&eng->keys);
}

long spec_quote(const char *word, char *buf, size_t cap, size_t len)
{
    static const char plain[] = "+-./:=@_{}";
    int bare = word[0] != '\0';
    for (const char *p = word; *p && bare; p++)
        bare = isalnum((unsigned char)*p) || strchr(plain, *p);
    size_t need = len + strlen(word) + 1;
    for (const char *p = word; !bare && *p; p++)
        need += *p == '\'' ? 3 : 0;
    if (!bare)
        need += 2;
    if (need > cap)
        return -1;
    char *w = buf + len;
    if (!bare)
        *w++ = '\'';
    for (const char *p = word; *p; p++) {
        if (*p == '\'') {   /* bare words have none */
            memcpy(w, "'\\''", 4);
            w += 4;
        } else {
            *w++ = *p;
        }
    }
    if (!bare)
        *w++ = '\'';
    *w = '\0';
    return (long)(w - buf);
}

long spec_join(char *const *words, int n, char *buf, size_t cap)
{
    assert(cap > 0);
    buf[0] = '\0';
    long len = 0;
    for (int i = 0; i < n; i++) {
        if (i && (size_t)len + 1 >= cap)
            return -1;
        if (i)
            buf[len++] = ' ', buf[len] = '\0';
        long next = spec_quote(words[i], buf, cap, (size_t)len);
        if (next < 0) {
            buf[i ? len - 1 : 0] = '\0';   /* no blank left at the end */
            return -1;
        }
        len = next;
    }
    return len;
}

const char *spec_proto_name(enum spec_proto proto)
{
    assert(proto >= 0 && (size_t)proto < sizeof proto_name / sizeof *proto_name);
    return proto_name[proto];
}

/* --- reach ---------------------------------------------------------------- */

/* 1 when uid (group gid, no other groups: how the sandbox runs a root
 * referee's engines and judge) has every permission of want (4 read, 1
 * execute or search) on st, as the kernel decides without ACLs. */
static int user_may(const struct stat *st, uid_t uid, gid_t gid, unsigned want)
{
    unsigned shift = st->st_uid == uid ? 6 : st->st_gid == gid ? 3 : 0;
    return ((st->st_mode >> shift) & want) == want;
}

/* The error for who's path, which uid may not use as want asks (st its
 * status): its mode, its owner and the chmod that fixes it. -1. */
static int out_of_reach(const char *who, const char *runs, const char *path,
                        const struct stat *st, uid_t uid, unsigned want, struct err *e)
{
    const char *what = want == 5 ? "read and execute" : want == 4 ? "read"
                       : S_ISDIR(st->st_mode) ? "search" : "execute";
    return err_set(e, 0, 0,
                   "%s%s%s is out of reach of uid %ld (nobody), who runs %s of a referee "
                   "run as root: mode %04o, owner uid %ld; give others %s (chmod o+%s %s)",
                   who ? who : "", who ? ": " : "", path, (long)uid, runs,
                   (unsigned)(st->st_mode & 07777), (long)st->st_uid, what,
                   want == 5 ? "rx" : want == 4 ? "r" : "x", path);
}

/* Whether folder (canonical) is the folder entered names (NULL: none). */
static int is_entered(const char *folder, const char *entered)
{
    char real[PATH_MAX];
    return entered && realpath(entered, real) && strcmp(real, folder) == 0;
}

int spec_check_reach(const struct spec *eng, const char *who, const char *runs,
                     const char *entered, uid_t uid, struct err *e)
{
    struct { const char *path; unsigned want; } need[RUN_MAX_ARGS + 1];
    int n = 0;
    if (eng->program) {
        char head[2] = "";
        FILE *f = fopen(eng->program, "rb");
        int script = f && fread(head, 1, 2, f) == 2 && head[0] == '#' && head[1] == '!';
        if (f)
            fclose(f);
        need[n].path = eng->program;
        need[n++].want = script ? 5 : 1;
    }
    for (int i = 0; i < eng->nfiles && n < RUN_MAX_ARGS; i++) {
        need[n].path = eng->files[i].path;
        need[n++].want = 4;
    }
    for (int i = 0; i < n; i++) {
        struct stat st;
        char folder[PATH_MAX];
        if (!need[i].path || stat(need[i].path, &st) != 0)
            continue;
        if (!user_may(&st, uid, uid, need[i].want))
            return out_of_reach(who, runs, need[i].path, &st, uid, need[i].want, e);
        if (!realpath(need[i].path, folder))
            continue;
        char *slash = strrchr(folder, '/');
        slash[slash == folder] = '\0';   /* "/" stays */
        /* The working folder, entered as root, needs no search bit. */
        if (stat(folder, &st) == 0 && !user_may(&st, uid, uid, 1) && !is_entered(folder, entered))
            return out_of_reach(who, runs, folder, &st, uid, 1, e);
    }
    return 0;
}
