/*
 * book.c - the Connect-4 opening book (c4book.h): reading a book file into
 * a sorted table, looking positions up, and making a book with the solver.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "arena/c4book.h"
#include "arena/textfile.h"

#define SCORE_BITS 8
#define SCORE_MASK ((UINT64_C(1) << SCORE_BITS) - 1)

static uint64_t pack(uint64_t key, int score)
{
    return key << SCORE_BITS | (uint64_t)(score + C4S_SCORE_MAX);
}

static int unpack_score(uint64_t entry)
{
    return (int)(entry & SCORE_MASK) - C4S_SCORE_MAX;
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

int c4book_read(FILE *in, struct c4book *b, struct err *e)
{
    memset(b, 0, sizeof *b);
    b->max_moves = -1;
    struct read_entry *r = NULL;
    size_t n = 0, cap = 0;
    int lineno = 0, max_moves = -1;
    char buf[C4S_LINE_MAX + 1];
    enum tf_getline_result got;
    while ((got = tf_getline(in, buf, C4S_LINE_MAX)) != TF_LINE_EOF) {
        lineno++;
        struct c4s_line l;
        if (got == TF_LINE_FAILED) {
            err_set(e, 0, 0, "read error");
            goto fail;
        }
        if (c4s_parse_line(buf, got, lineno, &l, e) != 0)
            goto fail;
        if (!l.has_score) {
            err_set(e, lineno, (int)l.moves_len + 1, "missing score after the moves");
            goto fail;
        }
        int lo = C4S_LOSE_NEXT(l.pos.moves), hi = C4S_WIN_NOW(l.pos.moves);
        if (l.score < lo || l.score > hi) {
            err_set(e, lineno, l.score_col, "score out of range for this position (%d to %d)",
                    lo, hi);
            goto fail;
        }
        if (n == C4BOOK_MAX_ENTRIES) {
            err_set(e, lineno, 1, "more than %llu positions",
                    (unsigned long long)C4BOOK_MAX_ENTRIES);
            goto fail;
        }
        if (n == cap) {
            cap = cap ? 2 * cap : 1024;
            struct read_entry *grown = realloc(r, cap * sizeof *r);
            if (!grown) {
                err_set(e, lineno, 1, "out of memory");
                goto fail;
            }
            r = grown;
        }
        r[n].entry = pack(c4s_key(&l.pos), l.score);
        r[n].line = lineno;
        n++;
        if (l.pos.moves > max_moves)
            max_moves = l.pos.moves;
    }
    if (n)
        qsort(r, n, sizeof *r, by_key_line);
    /* The first line, in file order, that repeats a position. */
    int dup = 0, first = 0;
    for (size_t i = 1; i < n; i++)
        if (r[i].entry >> SCORE_BITS == r[i - 1].entry >> SCORE_BITS
            && (i < 2 || r[i - 1].entry >> SCORE_BITS != r[i - 2].entry >> SCORE_BITS)
            && (!dup || r[i].line < dup)) {
            dup = r[i].line;
            first = r[i - 1].line;
        }
    if (dup) {
        err_set(e, dup, 1, "the position of line %d (or its mirror image) again", first);
        goto fail;
    }
    if (n) {
        b->entry = malloc(n * sizeof *b->entry);
        if (!b->entry) {
            err_set(e, 0, 0, "out of memory");
            goto fail;
        }
        for (size_t i = 0; i < n; i++)
            b->entry[i] = r[i].entry;
    }
    b->n = n;
    b->max_moves = max_moves;
    free(r);
    return 0;
fail:
    free(r);
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
    return C4S_UNKNOWN;
}

/* ---- making ------------------------------------------------------------- */

/* A position of the book being made: its key, its score, and the first move
 * string that reached it (the smallest, since moves are tried in column
 * order and a position is entered once). */
struct made {
    uint64_t key;       /* c4s_key | MADE_USED; 0 for a free slot */
    int8_t score;
    uint8_t len;
    char moves[C4_CELLS];
};

#define MADE_USED (UINT64_C(1) << 63)
#define MADE_MIN_SLOTS 1024
/* Fibonacci hashing, as the solver's table. */
#define MADE_MIX UINT64_C(0x9E3779B97F4A7C15)

struct maker {
    struct c4s *s;
    struct made *slot;   /* open addressing, linear probing, half full at most */
    size_t cap, n;
    struct c4book_stats st;
};

static struct made *made_find(const struct maker *m, uint64_t key)
{
    size_t i = (size_t)((key * MADE_MIX) >> 32) & (m->cap - 1);
    while (m->slot[i].key && m->slot[i].key != (key | MADE_USED))
        i = (i + 1) & (m->cap - 1);
    return &m->slot[i];
}

static int made_grow(struct maker *m)
{
    struct maker bigger = *m;
    bigger.cap = m->cap ? 2 * m->cap : MADE_MIN_SLOTS;
    bigger.slot = calloc(bigger.cap, sizeof *bigger.slot);
    if (!bigger.slot)
        return -1;
    for (size_t i = 0; i < m->cap; i++)
        if (m->slot[i].key)
            *made_find(&bigger, m->slot[i].key & ~MADE_USED) = m->slot[i];
    free(m->slot);
    *m = bigger;
    return 0;
}

/* The score of p, reached by path (len moves from the empty board), with
 * depth_left moves still inside the book; C4S_UNKNOWN when the budget ran
 * out, or out of memory. */
static int make_node(struct maker *m, const struct c4_pos *p, char *path, int len,
                     int depth_left)
{
    uint64_t key = c4s_key(p);
    struct made *d = made_find(m, key);
    if (d->key)
        return d->score;
    int v;
    if (depth_left == 0) {
        v = c4s_solve(m->s, p, 0);
        m->st.solved++;
        m->st.nodes += m->s->nodes;
        if (v == C4S_UNKNOWN)
            return v;
    } else {
        v = -C4S_SCORE_MAX - 1;
        for (int c = 0; c < C4_WIDTH; c++) {
            if (!c4_can_play(p, c))
                continue;
            struct c4_pos q = *p;
            c4_play(&q, c);
            int cv;
            if (c4_has_four(q.disc[p->to_move]))
                cv = C4S_WIN_NOW(p->moves);
            else if (q.moves == C4_CELLS)
                cv = 0;
            else {
                path[len] = (char)('1' + c);
                cv = make_node(m, &q, path, len + 1, depth_left - 1);
                if (cv == C4S_UNKNOWN)
                    return cv;
                cv = -cv;
            }
            if (cv > v)
                v = cv;
        }
    }
    /* Room for one more, half full at most (the children may have moved the
     * table). */
    if (2 * (m->n + 1) > m->cap && made_grow(m) != 0)
        return C4S_UNKNOWN;
    d = made_find(m, key);
    d->key = key | MADE_USED;
    d->score = (int8_t)v;
    d->len = (uint8_t)len;
    memcpy(d->moves, path, (size_t)len);
    m->n++;
    return v;
}

/* Book order: fewer moves first, then by move string. */
static int by_moves(const void *a, const void *b)
{
    const struct made *x = a, *y = b;
    if (x->len != y->len)
        return x->len - y->len;
    return memcmp(x->moves, y->moves, x->len);
}

int c4book_make(struct c4s *s, const char *root_moves, int depth, char **text, size_t *len,
                struct c4book_stats *st)
{
    struct maker m = { .s = s };
    char path[C4_CELLS];
    struct c4_pos root;
    const char *why;
    size_t root_len = strlen(root_moves);
    *text = NULL;
    *len = 0;
    if (depth < 0 || depth > C4BOOK_MAX_DEPTH || root_len >= C4_CELLS
        || c4s_parse_moves(root_moves, root_len, &root, &why) != 0 || made_grow(&m) != 0)
        return -1;
    memcpy(path, root_moves, root_len);
    int v = make_node(&m, &root, path, (int)root_len, depth);
    char *out = NULL;
    if (v != C4S_UNKNOWN) {
        /* Pack the used slots at the front, in book order. */
        size_t n = 0;
        for (size_t i = 0; i < m.cap; i++)
            if (m.slot[i].key)
                m.slot[n++] = m.slot[i];
        qsort(m.slot, n, sizeof *m.slot, by_moves);
        /* A line: the moves, a space, a score of at most 3 characters, a
         * newline. */
        size_t cap = 1, at = 0;
        for (size_t i = 0; i < n; i++)
            cap += m.slot[i].len + 6;
        out = malloc(cap);
        for (size_t i = 0; out && i < n; i++)
            at += (size_t)snprintf(out + at, cap - at, "%.*s %d\n", m.slot[i].len,
                                   m.slot[i].moves, m.slot[i].score);
        if (out) {
            *text = out;
            *len = at;
            m.st.positions = n;
        }
    }
    if (st)
        *st = m.st;
    free(m.slot);
    return out ? 0 : -1;
}
