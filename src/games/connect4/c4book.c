/*
 * c4book.c - the Connect-4 opening book (c4book.h): reading a book file into
 * a sorted table and looking positions up.
 */
#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "arena/c4book.h"
#include "arena/c4key.h"
#include "c4moves.h"
#include "arena/c4score.h"
#include "arena/textfile.h"

#define SCORE_BITS 8
#define SCORE_MASK ((UINT64_C(1) << SCORE_BITS) - 1)

static uint64_t pack(uint64_t key, int score)
{
    assert(key <= C4KEY_MASK && score >= -C4SCORE_MAX && score <= C4SCORE_MAX);
    return key << SCORE_BITS | (uint64_t)(score + C4SCORE_MAX);
}

static int unpack_score(uint64_t entry)
{
    return (int)(entry & SCORE_MASK) - C4SCORE_MAX;
}

/* ---- reading ------------------------------------------------------------ */

/* A position read, with its line for the duplicate message. */
struct read_entry {
    uint64_t entry;
    int line;
};

/* By key, then by line: in a run of equal keys the first line comes first. */
static int by_key_line(const void *a, const void *b)
{
    const struct read_entry *x = a, *y = b;
    uint64_t kx = x->entry >> SCORE_BITS, ky = y->entry >> SCORE_BITS;
    if (kx != ky)
        return kx < ky ? -1 : 1;
    return x->line - y->line;
}

/* The lines read so far. */
struct read_list {
    struct read_entry *r;
    size_t n, cap;
    int max_moves;
};

/* Checks one parsed line l (line lineno) and appends it; 0, or -1 with e
 * set. */
static int add_line(struct read_list *rl, const struct c4moves_line *l, int lineno,
                    struct err *e)
{
    if (!l->has_score)
        return err_set(e, lineno, (int)l->moves_len + 1, "missing score after the moves");
    if (!C4SCORE_FITS(l->score, l->pos.moves))
        return err_set(e, lineno, l->score_col,
                       "score out of range for this position (%d to %d)",
                       C4SCORE_LOSE_NEXT(l->pos.moves), C4SCORE_WIN_NOW(l->pos.moves));
    if (rl->n == C4BOOK_MAX_ENTRIES)
        return err_set(e, lineno, 1, "more than %llu positions",
                       (unsigned long long)C4BOOK_MAX_ENTRIES);
    if (rl->n == rl->cap) {
        size_t cap = rl->cap ? 2 * rl->cap : 1024;
        struct read_entry *grown = realloc(rl->r, cap * sizeof *rl->r);
        if (!grown)
            return err_set(e, lineno, 1, "out of memory");
        rl->r = grown;
        rl->cap = cap;
    }
    rl->r[rl->n].entry = pack(c4key_of(&l->pos), l->score);
    rl->r[rl->n].line = lineno;
    rl->n++;
    if (l->pos.moves > rl->max_moves)
        rl->max_moves = l->pos.moves;
    return 0;
}

/* Reads every line of in into rl; 0, or -1 with e set. */
static int read_lines(FILE *in, struct read_list *rl, struct err *e)
{
    int lineno = 0;
    char buf[C4MOVES_LINE_MAX + 1];
    enum tf_getline_result got;
    while ((got = tf_getline(in, buf, C4MOVES_LINE_MAX)) != TF_LINE_EOF) {
        lineno++;
        struct c4moves_line l;
        if (got == TF_LINE_FAILED)
            return err_set(e, 0, 0, "read error");
        if (c4moves_parse_line(buf, got, lineno, &l, e) != 0 || add_line(rl, &l, lineno, e) != 0)
            return -1;
    }
    return 0;
}

/* The first line, in file order, that repeats a position of the sorted list
 * (0: none), with the line it repeats in *first. */
static int first_repeat(const struct read_list *rl, int *first)
{
    const struct read_entry *r = rl->r;
    int dup = 0;
    for (size_t i = 1; i < rl->n; i++)
        if (r[i].entry >> SCORE_BITS == r[i - 1].entry >> SCORE_BITS
            && (i < 2 || r[i - 1].entry >> SCORE_BITS != r[i - 2].entry >> SCORE_BITS)
            && (!dup || r[i].line < dup)) {
            dup = r[i].line;
            *first = r[i - 1].line;
        }
    return dup;
}

int c4book_read(FILE *in, struct c4book *b, struct err *e)
{
    memset(b, 0, sizeof *b);
    b->max_moves = -1;
    struct read_list rl = { .max_moves = -1 };
    if (read_lines(in, &rl, e) != 0)
        goto fail;
    if (rl.n)
        qsort(rl.r, rl.n, sizeof *rl.r, by_key_line);
    int first = 0, dup = first_repeat(&rl, &first);
    if (dup) {
        err_set(e, dup, 1, "the position of line %d (or its mirror image) again", first);
        goto fail;
    }
    if (rl.n) {
        b->entry = malloc(rl.n * sizeof *b->entry);
        if (!b->entry) {
            err_set(e, 0, 0, "out of memory");
            goto fail;
        }
        for (size_t i = 0; i < rl.n; i++)
            b->entry[i] = rl.r[i].entry;
    }
    b->n = rl.n;
    b->max_moves = rl.max_moves;
    free(rl.r);
    return 0;
fail:
    free(rl.r);
    return -1;
}

int c4book_load(const char *path, struct c4book *b, struct err *e)
{
    FILE *in = fopen(path, "r");
    if (!in) {
        memset(b, 0, sizeof *b);
        b->max_moves = -1;
        return err_set(e, 0, 0, "cannot open: %s", strerror(errno));
    }
    int rc = c4book_read(in, b, e);
    fclose(in);
    return rc;
}

void c4book_free(struct c4book *b)
{
    free(b->entry);
    b->entry = NULL;
    b->n = 0;
    b->max_moves = -1;
}

int c4book_lookup(const struct c4book *b, uint64_t key)
{
    assert(key <= C4KEY_MASK);
    size_t lo = 0, hi = b->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        uint64_t k = b->entry[mid] >> SCORE_BITS;
        if (k == key)
            return unpack_score(b->entry[mid]);
        if (k < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return C4BOOK_NONE;
}
