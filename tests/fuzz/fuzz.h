/*
 * fuzz.h - what every fuzz target under tests/fuzz shares (tests/fuzz/README):
 * the property check that ends the run, the fuzzer's bytes as a C string or
 * as a FILE to read, and output captured in memory.
 *
 * A broken property calls abort() after printing what broke, so libFuzzer
 * treats it as a crash: it stops, saves the input as an artifact and exits
 * non-zero, exactly as for a sanitizer report.
 */
#ifndef ARENA_FUZZ_H
#define ARENA_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "arena/err.h"

/* The entry point libFuzzer calls once per input (declared for
 * -Wmissing-prototypes). */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Stops the run when cond is false, printing the place, the condition and
 * a printf-style explanation. */
#define FUZZ_CHECK(cond, ...)                                                   \
    do {                                                                        \
        if (!(cond))                                                            \
            fuzz_fail(__FILE__, __LINE__, #cond, __VA_ARGS__);                  \
    } while (0)

void fuzz_fail(const char *file, int line, const char *cond, const char *fmt, ...)
    __attribute__((noreturn, format(printf, 4, 5)));

/* A rejection must say what is wrong; with placed, also where (line and
 * column both 1-based, as every file reader promises). */
void fuzz_check_err(const struct err *e, int placed, const char *what);

/* A malloc'd NUL-terminated copy of the bytes (NUL bytes inside stay). */
char *fuzz_text(const uint8_t *data, size_t size);

/* The first occurrence of what (NUL-terminated, not empty) in [p, end), or
 * NULL.
 * It reads the haystack only up to the match: the sanitizers' strstr and
 * memmem interceptors check the whole haystack on every call, which made
 * scanning a long output match by match quadratic. */
const char *fuzz_find(const char *p, const char *end, const char *what);

/* The bytes as a readable stream (fmemopen over a private copy, which
 * *copy receives; free it after fclose). */
FILE *fuzz_input(const uint8_t *data, size_t size, char **copy);

/* A private folder for targets whose input path takes files: in /dev/shm
 * when there is one (no disk), removed at exit. A finding ends the process
 * without exit handlers, so each call's first run also removes the folders
 * of fuzzer processes that are gone. The same path on every call. */
const char *fuzz_tmpdir(void);

/* Output written to a FILE and kept in memory (open_memstream). */
struct fuzz_out {
    FILE *f;
    char *buf;     /* valid after fuzz_out_close, NUL-terminated */
    size_t len;
};
void fuzz_out_open(struct fuzz_out *o);
void fuzz_out_close(struct fuzz_out *o);
void fuzz_out_free(struct fuzz_out *o);

#endif
