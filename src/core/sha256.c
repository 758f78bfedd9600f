/* sha256.c - SHA-256 of memory and of files (sha256.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "arena/sha256.h"

#define SHA256_BLOCK 64
#define SHA256_LEN_BYTES 8     /* the message length closing the padding */
#define FILE_CHUNK 65536

static const uint32_t round_k[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
    0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
    0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
    0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
    0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
    0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
    0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
    0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
    0xc67178f2,
};

static uint32_t ror(uint32_t x, int n)
{
    return (x >> n) | (x << (32 - n));
}

static void compress(uint32_t h[8], const unsigned char *p)
{
    uint32_t w[64];
    for (int i = 0; i < 16; i++)
        w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
               (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
    for (int i = 16; i < 64; i++) {
        uint32_t s0 = ror(w[i - 15], 7) ^ ror(w[i - 15], 18) ^ (w[i - 15] >> 3);
        uint32_t s1 = ror(w[i - 2], 17) ^ ror(w[i - 2], 19) ^ (w[i - 2] >> 10);
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], k = h[7];
    for (int i = 0; i < 64; i++) {
        uint32_t t1 = k + (ror(e, 6) ^ ror(e, 11) ^ ror(e, 25)) + ((e & f) ^ (~e & g)) +
                      round_k[i] + w[i];
        uint32_t t2 = (ror(a, 2) ^ ror(a, 13) ^ ror(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
        k = g;
        g = f;
        f = e;
        e = d + t1;
        d = c;
        c = b;
        b = a;
        a = t1 + t2;
    }
    h[0] += a;
    h[1] += b;
    h[2] += c;
    h[3] += d;
    h[4] += e;
    h[5] += f;
    h[6] += g;
    h[7] += k;
}

void sha256_init(struct sha256 *c)
{
    static const uint32_t iv[8] = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                    0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19 };
    memcpy(c->h, iv, sizeof iv);
    c->bytes = 0;
}

void sha256_update(struct sha256 *c, const void *data, size_t len)
{
    const unsigned char *p = data;
    size_t have = (size_t)(c->bytes % SHA256_BLOCK);
    c->bytes += len;
    while (len > 0) {
        size_t take = SHA256_BLOCK - have < len ? SHA256_BLOCK - have : len;
        memcpy(c->block + have, p, take);
        have += take;
        p += take;
        len -= take;
        if (have == SHA256_BLOCK) {
            compress(c->h, c->block);
            have = 0;
        }
    }
}

void sha256_final(struct sha256 *c, char hex[SHA256_HEX])
{
    uint64_t bits = c->bytes * 8;
    static const unsigned char one = 0x80, zero = 0;
    sha256_update(c, &one, 1);
    while (c->bytes % SHA256_BLOCK != SHA256_BLOCK - SHA256_LEN_BYTES)
        sha256_update(c, &zero, 1);
    unsigned char len[SHA256_LEN_BYTES];
    for (int i = 0; i < SHA256_LEN_BYTES; i++)
        len[i] = (unsigned char)(bits >> (56 - 8 * i));
    sha256_update(c, len, sizeof len);
    for (int i = 0; i < 8; i++)
        snprintf(hex + 8 * i, 9, "%08x", c->h[i]);
}

int sha256_file(const char *path, char hex[SHA256_HEX], struct err *e)
{
    /* Only a regular file has contents to hash: a device such as /dev/zero
     * never ends and a FIFO blocks, so neither is read. O_NONBLOCK keeps the
     * open itself from waiting for a FIFO's writer. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return err_set(e, 0, 0, "cannot open: %s", strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return err_set(e, 0, 0, "not a regular file");
    }
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        close(fd);
        return err_set(e, 0, 0, "cannot open: %s", strerror(errno));
    }
    struct sha256 c;
    sha256_init(&c);
    unsigned char buf[FILE_CHUNK];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        sha256_update(&c, buf, n);
    int bad = ferror(f);
    fclose(f);
    if (bad)
        return err_set(e, 0, 0, "cannot read: %s", strerror(EIO));
    sha256_final(&c, hex);
    return 0;
}
