/*
 * c4bookmake.c - `engine book`: the opening book of every position near a
 * root, made with the solver (c4bookmake.h).
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>
#include "c4bookmake.h"
#include "arena/c4key.h"
#include "c4moves.h"

/* A position of the book being made: its key, its score, and the first move
 * string that reached it (the smallest, since moves are tried in column
 * order and a position is entered once). */
struct made {
    uint64_t key;       /* c4key_of | MADE_USED; 0 for a free slot */
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
    struct c4bookmake_stats st;
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

/* The best score of p's moves, as negamax has it, each child reached by
 * path + its column with depth_left - 1 moves still inside the book;
 * C4S_UNKNOWN as make_node. */
static int make_node(struct maker *m, const struct c4_pos *p, char *path, int len,
                     int depth_left);

static int best_child(struct maker *m, const struct c4_pos *p, char *path, int len,
                      int depth_left)
{
    int v = -C4SCORE_MAX - 1;
    for (int c = 0; c < C4_WIDTH; c++) {
        if (!c4_can_play(p, c))
            continue;
        struct c4_pos q = *p;
        c4_play(&q, c);
        int cv;
        if (c4_has_four(q.disc[p->to_move]))
            cv = C4SCORE_WIN_NOW(p->moves);
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
    assert(v >= -C4SCORE_MAX);   /* an unfinished position has a move */
    return v;
}

/* The score of p (not finished), reached by path (len moves from the empty
 * board), with depth_left moves still inside the book; C4S_UNKNOWN when the
 * budget ran out, or out of memory. */
static int make_node(struct maker *m, const struct c4_pos *p, char *path, int len,
                     int depth_left)
{
    assert(depth_left >= 0 && len == p->moves);
    uint64_t key = c4key_of(p);
    struct made *d = made_find(m, key);
    if (d->key)
        return d->score;
    int v;
    if (depth_left == 0) {
        v = c4s_solve(m->s, p, 0);
        m->st.solved++;
        m->st.nodes += m->s->nodes;
    } else {
        v = best_child(m, p, path, len, depth_left);
    }
    if (v == C4S_UNKNOWN)
        return v;
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

/* The book text of m's positions, in book order (m's slots are packed and
 * sorted); NULL when out of memory. */
static char *book_text(struct maker *m, size_t *len)
{
    size_t n = 0;
    for (size_t i = 0; i < m->cap; i++)
        if (m->slot[i].key)
            m->slot[n++] = m->slot[i];
    qsort(m->slot, n, sizeof *m->slot, by_moves);
    /* A line: the moves, a space, a score of at most 3 characters, a
     * newline. */
    size_t cap = 1, at = 0;
    for (size_t i = 0; i < n; i++)
        cap += m->slot[i].len + 6;
    char *out = malloc(cap);
    if (!out)
        return NULL;
    for (size_t i = 0; i < n; i++)
        at += (size_t)snprintf(out + at, cap - at, "%.*s %d\n", m->slot[i].len,
                               m->slot[i].moves, m->slot[i].score);
    m->st.positions = n;
    *len = at;
    return out;
}

int c4bookmake_run(struct c4s *s, const char *root_moves, int depth, char **text, size_t *len,
                   struct c4bookmake_stats *st)
{
    struct maker m = { .s = s };
    char path[C4_CELLS];
    struct c4_pos root;
    const char *why;
    size_t root_len = strlen(root_moves);
    *text = NULL;
    *len = 0;
    if (depth < 0 || depth > C4BOOKMAKE_MAX_DEPTH || root_len >= C4_CELLS
        || c4moves_parse(root_moves, root_len, &root, &why) != 0 || made_grow(&m) != 0)
        return -1;
    memcpy(path, root_moves, root_len);
    if (make_node(&m, &root, path, (int)root_len, depth) != C4S_UNKNOWN)
        *text = book_text(&m, len);
    if (st)
        *st = m.st;
    free(m.slot);
    return *text ? 0 : -1;
}
