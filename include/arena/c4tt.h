/*
 * c4tt.h - the Connect-4 solver's transposition tables: where a position's
 * bounds are filed, which entries a bucket keeps, and the entry format.
 *
 * Two tables of two-slot buckets, the same format: near (at most 512 KiB,
 * in the caches; a bucket keeps its two newest entries) and far (tt_bytes,
 * huge pages; a bucket keeps the entry nearest the root and the newest). A
 * call (c4tt_begin_call) starts with every position in the near table; a
 * call that passes small_nodes nodes (c4tt_enter_far) copies the near
 * entries of positions farther than C4TT_NEAR_MAX_EMPTY from the end into
 * the far table and from then on files those positions there. An entry
 * holds its full key, so where a position is filed changes how much the
 * search remembers, never a score.
 *
 * An entry is one uint64_t (0: an empty slot):
 *   bits  0-48  the key (c4key.h; the canonical one when mirrors share)
 *   bits 49-54  the score + C4TT_SCORE_OFFSET
 *   bits 55-56  the bound (enum c4tt_bound), never C4TT_EMPTY when filed
 *   bits 57-59  the best move's column + 1, 0 for none
 *   bits 60-63  the work class: how far from the end (42 - discs) / 3, so
 *               the far bucket's first slot keeps the entry nearest the root.
 *
 * The tables are owned by the struct (c4tt_init allocates and clears,
 * c4tt_free frees); the hot functions are inline here, their contracts
 * asserted in the sanitizer build (check.h).
 */
#ifndef ARENA_C4TT_H
#define ARENA_C4TT_H

#include <assert.h>
#include <stddef.h>
#include <stdint.h>
#include "arena/c4key.h"
#include "arena/c4score.h"
#include "arena/check.h"

/* Past small_nodes, positions this near a full board or nearer stay in the
 * near table, the others go far: a far probe costs so much more than a node
 * that searching the near ones' subtrees again is cheaper than remembering
 * them far. Measured back to back on the first 50 Begin-Medium positions
 * with the 512 KiB near table: 12 took 74 ms a position (1,170,930 nodes),
 * 14 65 ms, 16 59 ms, 17 56 ms, 20 59 ms (1,513,378 nodes), 23 69 ms, 26 84
 * ms; runs of the same binary differ by up to a third here. */
#define C4TT_NEAR_MAX_EMPTY 20

#define C4TT_VAL_SHIFT C4KEY_BITS
#define C4TT_VAL_MASK 0x3F
#define C4TT_SCORE_OFFSET 32
#define C4TT_BOUND_SHIFT 55
#define C4TT_BOUND_MASK 0x3
#define C4TT_MOVE_SHIFT 57
#define C4TT_MOVE_MASK 0x7
#define C4TT_WORK_SHIFT 60
#define C4TT_WORK_DIV 3
_Static_assert(C4SCORE_MAX < C4TT_SCORE_OFFSET && 2 * C4TT_SCORE_OFFSET - 1 <= C4TT_VAL_MASK,
               "a score and its offset fit the entry's value field");
_Static_assert(C4TT_VAL_SHIFT + 6 == C4TT_BOUND_SHIFT, "the fields follow each other");

enum c4tt_bound { C4TT_EMPTY = 0, C4TT_LOWER = 1, C4TT_UPPER = 2, C4TT_EXACT = 3 };

/* Fibonacci hashing: the product's top bits pick the bucket. Its bits below
 * 35 depend only on the key's bits below 35 (columns 1-5): an index taken
 * from there filed positions that differ only in columns 6 and 7 in one
 * bucket (22% more nodes on Middle-Medium). */
#define C4TT_KEY_MIX UINT64_C(0x9E3779B97F4A7C15)

struct c4tt {
    uint64_t *slot;          /* the far table: 2 * buckets entries */
    size_t buckets;          /* a power of two */
    int bucket_bits;         /* log2(buckets) */
    uint64_t *near;          /* the near table: 2 * near_buckets entries */
    size_t near_buckets;     /* a power of two, at most buckets */
    int near_bits;           /* log2(near_buckets) */
    uint64_t small_nodes;    /* a call moves to the far table past this many
                              * nodes (c4tt_init sets the default; 0: at once) */
    int far_mode;            /* the current call has moved */
    int far_borrowed;        /* slot is another c4tt's (c4tt_init_sharing) */
};

/* Allocates the largest far table of two-entry buckets that fits in tt_bytes
 * (at least 64 KiB) and a near table of 512 KiB, or of the far table's size
 * when that is smaller, both cleared. Returns 0, or -1 when out of memory
 * (nothing to free). */
int c4tt_init(struct c4tt *t, size_t tt_bytes);
/* A table for another thread's solver: its own near table, owner's far
 * table (owner must outlive it and not be resized). Returns 0 or -1 as
 * c4tt_init. */
int c4tt_init_sharing(struct c4tt *t, const struct c4tt *owner);
/* Frees what t owns (a shared far table stays with its owner). */
void c4tt_free(struct c4tt *t);
/* Forgets every entry (of both tables; a sharer: of its near table). */
void c4tt_clear(struct c4tt *t);
/* The call has outgrown the near table: files far from now on, taking the
 * near entries that may be far positions along. */
void c4tt_enter_far(struct c4tt *t);

/* A new call starts near. */
static inline void c4tt_begin_call(struct c4tt *t)
{
    t->far_mode = 0;
}

/* 1 when a position `empty` cells from a full board is filed far. */
static inline int c4tt_files_far(const struct c4tt *t, int empty)
{
    return t->far_mode && empty > C4TT_NEAR_MAX_EMPTY;
}

static inline uint64_t *c4tt_bucket_in(uint64_t *table, int bits, uint64_t key)
{
    return table + 2 * ((key * C4TT_KEY_MIX) >> (64 - bits));
}

/* The bucket the position with key and `moves` discs is filed in. */
static inline uint64_t *c4tt_bucket(const struct c4tt *t, uint64_t key, int moves)
{
    if (c4tt_files_far(t, C4_CELLS - moves))
        return c4tt_bucket_in(t->slot, t->bucket_bits, key);
    return c4tt_bucket_in(t->near, t->near_bits, key);
}

static inline int c4tt_entry_bound(uint64_t e)
{
    return (int)((e >> C4TT_BOUND_SHIFT) & C4TT_BOUND_MASK);
}

static inline int c4tt_entry_score(uint64_t e)
{
    return (int)((e >> C4TT_VAL_SHIFT) & C4TT_VAL_MASK) - C4TT_SCORE_OFFSET;
}

/* The best move's column as seen from the key's position, -1 for none. */
static inline int c4tt_entry_move(uint64_t e)
{
    return (int)((e >> C4TT_MOVE_SHIFT) & C4TT_MOVE_MASK) - 1;
}

/* A slot read or written once, relaxed: solvers on several threads share
 * the far table (c4tt_init_sharing), an entry is one word holding its key,
 * so a reader sees some whole entry and checks its key; what a lost race
 * costs is an entry, never a score. On x86-64 these are plain moves. */
static inline uint64_t c4tt_load(const uint64_t *slot)
{
    return __atomic_load_n(slot, __ATOMIC_RELAXED);
}

static inline void c4tt_store(uint64_t *slot, uint64_t e)
{
    __atomic_store_n(slot, e, __ATOMIC_RELAXED);
}

/* The entry of the position with key and `moves` discs, or 0. */
static inline uint64_t c4tt_get(const struct c4tt *t, uint64_t key, int moves)
{
    const uint64_t *b = c4tt_bucket(t, key, moves);
    uint64_t e0 = c4tt_load(&b[0]);
    if ((e0 & C4KEY_MASK) == key && c4tt_entry_bound(e0))
        return e0;
    uint64_t e1 = c4tt_load(&b[1]);
    if ((e1 & C4KEY_MASK) == key && c4tt_entry_bound(e1))
        return e1;
    return 0;
}

/* Files entry e in far bucket b: the first slot keeps the entry nearest the
 * root (the one it displaces moves to the second), the second the newest.
 * The far table outlives calls, and its entries near the root are the ones
 * that save the most work. */
static inline void c4tt_store_far(uint64_t *b, uint64_t e)
{
    uint64_t key = e & C4KEY_MASK, work = e >> C4TT_WORK_SHIFT, b0 = c4tt_load(&b[0]);
    if ((b0 & C4KEY_MASK) == key || (b0 >> C4TT_WORK_SHIFT) <= work
        || c4tt_entry_bound(b0) == C4TT_EMPTY) {
        if ((b0 & C4KEY_MASK) != key && c4tt_entry_bound(b0))
            c4tt_store(&b[1], b0);
        c4tt_store(&b[0], e);
    } else {
        c4tt_store(&b[1], e);
    }
}

/* Files entry e in near bucket b: the two newest entries. Preferring the
 * entries nearest the root here would fill the small table's first slots
 * with earlier calls' positions (measured: 16% more nodes on Middle-Medium). */
static inline void c4tt_store_near(uint64_t *b, uint64_t e)
{
    uint64_t b0 = c4tt_load(&b[0]);
    if ((b0 & C4KEY_MASK) != (e & C4KEY_MASK))
        c4tt_store(&b[1], b0);
    c4tt_store(&b[0], e);
}

/* Files a bound on the score of the position with key (c4key.h) and `moves`
 * discs (0-41), col its best move (0-6) as seen from the key's position. */
static inline void c4tt_put(struct c4tt *t, uint64_t key, int moves, int score,
                            enum c4tt_bound bound, int col)
{
    ARENA_HOT_ASSERT(key <= C4KEY_MASK && moves >= 0 && moves < C4_CELLS);
    ARENA_HOT_ASSERT(score >= -C4SCORE_MAX && score <= C4SCORE_MAX);
    ARENA_HOT_ASSERT(bound != C4TT_EMPTY && col >= 0 && col < C4_WIDTH);
    uint64_t work = (uint64_t)((C4_CELLS - moves) / C4TT_WORK_DIV);
    uint64_t e = key | (uint64_t)(score + C4TT_SCORE_OFFSET) << C4TT_VAL_SHIFT
                 | (uint64_t)bound << C4TT_BOUND_SHIFT | (uint64_t)(col + 1) << C4TT_MOVE_SHIFT
                 | work << C4TT_WORK_SHIFT;
    if (c4tt_files_far(t, C4_CELLS - moves))
        c4tt_store_far(c4tt_bucket_in(t->slot, t->bucket_bits, key), e);
    else
        c4tt_store_near(c4tt_bucket_in(t->near, t->near_bits, key), e);
}

#endif
