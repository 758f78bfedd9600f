/*
 * engine_spec.c - fuzz target for the referee's engine SPEC splitter
 * (spec_parse: --engine SPEC and a config file's engine strings).
 *
 * Input: one SPEC (the bytes up to a NUL: argv and JSON strings end there).
 *
 * Properties:
 *   - a rejection has a message, on line 1, at a column inside the SPEC or
 *     just past its end;
 *   - an accepted SPEC gives 1..RUN_MAX_ARGS-1 words, NULL-terminated, a
 *     program word that is not empty, a name of 1..REC_NAME_MAX-1
 *     characters, a placeholder in some word (appended when none was
 *     written) and a digest that is empty or 64 hex digits;
 *   - the words, quoted back for a shell ('...' with '\'' for a quote) and
 *     given with the same name to spec_make, split to the same words:
 *     the splitter is the inverse of shell quoting, as spec.h promises.
 */
#include <stdlib.h>
#include <string.h>
#include "arena/spec.h"
#include "fuzz.h"

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
    int any = 0;
    for (int i = 0; i < eng->argc; i++) {
        FUZZ_CHECK(eng->argv[i] != NULL, "'%s': word %d is NULL", spec, i);
        any |= strstr(eng->argv[i], "{in}") || strstr(eng->argv[i], "{out}")
               || strstr(eng->argv[i], "{depth}") || strstr(eng->argv[i], "{player}");
    }
    FUZZ_CHECK(any, "'%s': no placeholder in any word", spec);
    size_t hl = strnlen(eng->sha256, sizeof eng->sha256);
    FUZZ_CHECK(hl == 0 || (hl == SHA256_HEX - 1 && strspn(eng->sha256, "0123456789abcdef") == hl),
               "'%s': digest '%s'", spec, eng->sha256);
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
    struct err e = { 0, 0, "" };
    int rc = spec_make(eng->name, cmd, &back, &e);
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
    struct err e = { 0, 0, "" };
    if (spec_parse(spec, &eng, &e) != 0) {
        fuzz_check_err(&e, 1, spec);
        FUZZ_CHECK(e.line == 1 && (size_t)e.col <= strlen(spec) + 1,
                   "'%s': error at %d:%d: %s", spec, e.line, e.col, e.msg);
    } else {
        check_engine(&eng, spec);
        check_requoted(&eng, spec);
        spec_free(&eng);
    }
    free(spec);
    return 0;
}
