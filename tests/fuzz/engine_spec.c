/*
 * engine_spec.c - fuzz target for the referee's engine SPECs (spec.h:
 * spec_parse, behind --engine SPEC and a config file's engine strings).
 *
 * Input: one SPEC (the bytes up to a NUL: argv and JSON strings end there).
 *
 * Properties:
 *   - a refusal of the SPEC's text has a message, on line 1, at a column
 *     inside the SPEC or just past its end; a SPEC that reads but cannot be
 *     resolved (no cmd=, a dir= that is no folder) says why, with no place;
 *   - an accepted SPEC gives 1..RUN_MAX_ARGS-1 words, NULL-terminated, a
 *     program word that is not empty, a name of 1..REC_NAME_MAX-1
 *     characters, none a control character, a placeholder in some word
 *     (appended when none was written), a digest that is empty or 64 hex
 *     digits, an absolute dir that is a folder, a depth of 0 or
 *     1..SEARCH_MAX_DEPTH, and a stderr path that is absolute when given;
 *   - KEY=VALUE options in any order are one SPEC: the keys written back in
 *     the reverse order (plain values single-quoted, COMMAND values as they
 *     were) read back to the same values;
 *   - the words, quoted back for a shell ('...' with '\'' for a quote) and
 *     given as cmd= with the same name and dir, resolve to the same words:
 *     the splitter is the inverse of shell quoting, and resolving is
 *     idempotent.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "arena/limits.h"
#include "arena/rules.h"
#include "arena/spec.h"
#include "fuzz.h"

static const char *const keys[SPEC_KEYS] = { "name", "cmd", "dir", "args", "stderr", "depth" };

/* Appends word to buf in single quotes; returns the new length. */
static size_t quote(char *buf, size_t n, const char *word)
{
    buf[n++] = '\'';
    for (const char *p = word; *p; p++) {
        if (*p == '\'') {
            memcpy(buf + n, "'\\''", 4);
            n += 4;
        } else {
            buf[n++] = *p;
        }
    }
    buf[n++] = '\'';
    return n;
}

static void check_engine(const struct spec *eng, const char *spec)
{
    FUZZ_CHECK(eng->argc >= 1 && eng->argc <= RUN_MAX_ARGS - 1, "'%s': %d words", spec,
               eng->argc);
    FUZZ_CHECK(eng->argv[eng->argc] == NULL, "'%s': argv not NULL-terminated", spec);
    FUZZ_CHECK(eng->argv[0][0] != '\0', "'%s': an empty program word", spec);
    size_t nl = strnlen(eng->name, sizeof eng->name);
    FUZZ_CHECK(nl >= 1 && nl < REC_NAME_MAX, "'%s': a name of %zu characters", spec, nl);
    for (size_t i = 0; i < nl; i++)
        FUZZ_CHECK(!iscntrl((unsigned char)eng->name[i]), "'%s': a control character in the "
                   "name", spec);
    int any = 0;
    for (int i = 0; i < eng->argc; i++) {
        FUZZ_CHECK(eng->argv[i] != NULL, "'%s': word %d is NULL", spec, i);
        for (int k = 0; k < RULES_PLACEHOLDERS; k++)   /* {in} ... {inc}: rules.h's */
            any |= strstr(eng->argv[i], rules_placeholder[k]) != NULL;
    }
    FUZZ_CHECK(any, "'%s': no placeholder in any word", spec);
    size_t hl = strnlen(eng->sha256, sizeof eng->sha256);
    FUZZ_CHECK(hl == 0 || (hl == SHA256_HEX - 1 && strspn(eng->sha256, "0123456789abcdef") == hl),
               "'%s': digest '%s'", spec, eng->sha256);
    struct stat st;
    FUZZ_CHECK(eng->dir && eng->dir[0] == '/' && stat(eng->dir, &st) == 0 && S_ISDIR(st.st_mode),
               "'%s': dir '%s'", spec, eng->dir ? eng->dir : "(null)");
    FUZZ_CHECK(eng->depth >= 0 && eng->depth <= SEARCH_MAX_DEPTH, "'%s': depth %d", spec,
               eng->depth);
    FUZZ_CHECK(!eng->keys.value[SPEC_STDERR] == !eng->stderr_path &&
                   (!eng->stderr_path || eng->stderr_path[0] == '/'),
               "'%s': stderr path '%s'", spec, eng->stderr_path ? eng->stderr_path : "(null)");
}

/* 1 when text is KEY=VALUE options rather than a bare command (spec.h). */
static int is_options(const char *text)
{
    const char *p = text + strspn(text, " \t,");
    if (!isalpha((unsigned char)*p))
        return 0;
    while (isalnum((unsigned char)*p) || *p == '_' || *p == '-')
        p++;
    return *p == '=';
}

static void check_reordered(const struct spec *eng, const char *spec)
{
    size_t cap = 16;
    for (int k = 0; k < SPEC_KEYS; k++)
        cap += eng->keys.value[k] ? 4 * strlen(eng->keys.value[k]) + 16 : 0;
    char *text = malloc(cap);
    size_t n = 0;
    for (int k = SPEC_KEYS - 1; k >= 0; k--) {
        const char *v = eng->keys.value[k];
        if (!v)
            continue;
        n += (size_t)sprintf(text + n, "%s%s=", n ? (k % 2 ? " " : ", ") : "", keys[k]);
        if (k == SPEC_CMD || k == SPEC_ARGS) {
            strcpy(text + n, v);
            n += strlen(v);
        } else {
            n = quote(text, n, v);
        }
    }
    text[n] = '\0';
    struct spec_keys back = { { NULL } };
    struct err e = { 0, 0, "" };
    FUZZ_CHECK(spec_keys_parse(text, SPEC_ENGINE, &back, &e) == 0,
               "'%s': written back as '%s', refused: %d:%d: %s", spec, text, e.line, e.col, e.msg);
    for (int k = 0; k < SPEC_KEYS; k++) {
        const char *a = eng->keys.value[k], *b = back.value[k];
        FUZZ_CHECK(!a == !b && (!a || strcmp(a, b) == 0), "'%s': %s= '%s' became '%s' in '%s'",
                   spec, keys[k], a ? a : "(none)", b ? b : "(none)", text);
    }
    spec_keys_free(&back);
    free(text);
}

static void check_requoted(const struct spec *eng, const char *spec)
{
    size_t cap = 4;
    for (int i = 0; i < eng->argc; i++)
        cap += 4 * strlen(eng->argv[i]) + 3;
    char *cmd = malloc(cap);
    size_t n = 0;
    for (int i = 0; i < eng->argc; i++) {
        if (i)
            cmd[n++] = ' ';
        n = quote(cmd, n, eng->argv[i]);
    }
    cmd[n] = '\0';
    struct spec back;
    memset(&back, 0, sizeof back);
    struct err e = { 0, 0, "" };
    int rc = spec_keys_set(&back.keys, "name", eng->name, &e);
    rc = rc ? rc : spec_keys_set(&back.keys, "cmd", cmd, &e);
    rc = rc ? rc : spec_keys_set(&back.keys, "dir", eng->dir, &e);
    rc = rc ? rc : spec_resolve(&back, NULL, &e);
    FUZZ_CHECK(rc == 0, "'%s': its words quoted back (%s) are rejected: %s", spec, cmd, e.msg);
    FUZZ_CHECK(strcmp(back.name, eng->name) == 0, "'%s': name '%s' became '%s'", spec, eng->name,
               back.name);
    FUZZ_CHECK(back.argc == eng->argc, "'%s': %d words became %d (%s)", spec, eng->argc,
               back.argc, cmd);
    for (int i = 0; i < eng->argc; i++)
        FUZZ_CHECK(strcmp(back.argv[i], eng->argv[i]) == 0, "'%s': word %d '%s' became '%s'",
                   spec, i, eng->argv[i], back.argv[i]);
    spec_free(&back);
    free(cmd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *spec = fuzz_text(data, size);
    struct spec eng;
    memset(&eng, 0, sizeof eng);
    struct err e = { 0, 0, "" };
    if (spec_keys_parse(spec, SPEC_ENGINE, &eng.keys, &e) != 0) {
        fuzz_check_err(&e, 1, spec);
        FUZZ_CHECK(e.line == 1 && (size_t)e.col <= strlen(spec) + 1,
                   "'%s': error at %d:%d: %s", spec, e.line, e.col, e.msg);
    } else if (spec_resolve(&eng, NULL, &e) != 0) {
        fuzz_check_err(&e, 0, spec);
        FUZZ_CHECK(e.line == 0 && e.col == 0, "'%s': resolving placed at %d:%d: %s", spec,
                   e.line, e.col, e.msg);
    } else {
        check_engine(&eng, spec);
        if (is_options(spec))
            check_reordered(&eng, spec);
        check_requoted(&eng, spec);
    }
    spec_free(&eng);
    free(spec);
    return 0;
}
