/*
 * sha256.h - SHA-256 (FIPS 180-4), so the referee can record exactly which
 * engine binary played: a journal names an executable by its digest, not
 * only by a path that may be rebuilt between runs.
 *
 * Streaming: sha256_init, any number of sha256_update calls, sha256_final.
 * The context lives in the caller's struct; nothing is allocated.
 */
#ifndef ARENA_SHA256_H
#define ARENA_SHA256_H

#include <stddef.h>
#include <stdint.h>
#include "arena/err.h"

#define SHA256_BYTES 32
#define SHA256_HEX   (2 * SHA256_BYTES + 1)   /* hex digits and NUL */

struct sha256 {
    uint32_t h[8];
    uint64_t bytes;           /* message length so far */
    unsigned char block[64];  /* pending input, bytes % 64 of it */
};

void sha256_init(struct sha256 *c);
void sha256_update(struct sha256 *c, const void *data, size_t len);
/* Writes the digest as lowercase hex into hex (SHA256_HEX bytes). */
void sha256_final(struct sha256 *c, char hex[SHA256_HEX]);

/* The digest of a regular file's contents into hex. Returns 0, or -1 with e
 * filled when it cannot be read or is not a regular file (a device or FIFO
 * would never end or would block). */
int sha256_file(const char *path, char hex[SHA256_HEX], struct err *e);

#endif
