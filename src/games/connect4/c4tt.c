/*
 * c4tt.c - the Connect-4 solver's transposition tables (c4tt.h): their
 * sizes, memory and the move from near to far.
 */
#include <stdlib.h>
#include <string.h>
#include "arena/c4tt.h"

/* The near table's size: half this machine's 1 MiB L2, where a probe costs
 * about 5 ns against 15-25 ns at 1-2 MiB and 190 ns for a random probe of a
 * 64 MiB table (measured with a pointer chase; the VM's pages are 4 KiB on
 * the host, so huge pages in the guest do not spare the far table's TLB
 * misses). Measured back to back against 2 MiB: Middle-Easy 16.0 against
 * 17.7 us, Begin-Easy 118 against 124 us, Begin-Medium the same time. */
#define NEAR_TT_BYTES ((size_t)512 << 10)
/* A call keeps every position in the near table until it has visited this
 * many: most solves are smaller, and a small solve's entries fit there. */
#define SMALL_SEARCH_NODES 100000

#define TT_BUCKET_BYTES (2 * sizeof(uint64_t))
#define TT_MIN_BUCKETS 4096
#define CACHE_LINE_BYTES 64

/* Cache-line aligned, in the kernel's ordinary pages. Huge pages
 * (MADV_HUGEPAGE) did not make the search faster (the VM's host pages are
 * 4 KiB, see NEAR_TT_BYTES) and made the 1 GiB table's set-up unpredictable:
 * 0.1 s of system time when the kernel had huge pages free, 2.4 s when it
 * had to compact memory first (after another large process), against a
 * steady 0.6 s without them. The empty board, 1 GiB, 3 paired runs after
 * another solver's: 17.1 s wall without, 19.4 s with (user time equal). */
static uint64_t *table_alloc(size_t bytes)
{
    return aligned_alloc(CACHE_LINE_BYTES, bytes);
}

/* Sizes t's near table for a far table of far_buckets buckets: NEAR_TT_BYTES,
 * or the far table's size when that is smaller (callers that solve many
 * tiny inputs ask for the smallest table so that each init clears little;
 * a far table no larger is in the caches already). */
static void size_near(struct c4tt *t, size_t far_buckets)
{
    t->near_buckets = NEAR_TT_BYTES / TT_BUCKET_BYTES;
    if (t->near_buckets > far_buckets)
        t->near_buckets = far_buckets;
    t->near_bits = __builtin_ctzll(t->near_buckets);
    assert(t->near_buckets == (size_t)1 << t->near_bits);
    t->small_nodes = SMALL_SEARCH_NODES;
}

int c4tt_init(struct c4tt *t, size_t tt_bytes)
{
    memset(t, 0, sizeof *t);
    size_t want = tt_bytes / TT_BUCKET_BYTES, n = TT_MIN_BUCKETS;
    while (n * 2 <= want)
        n *= 2;
    t->buckets = n;
    t->bucket_bits = __builtin_ctzll(t->buckets);
    assert(t->buckets == (size_t)1 << t->bucket_bits);
    size_near(t, n);
    t->slot = table_alloc(n * TT_BUCKET_BYTES);
    t->near = table_alloc(t->near_buckets * TT_BUCKET_BYTES);
    if (!t->slot || !t->near) {
        c4tt_free(t);
        return -1;
    }
    /* Touch every page now: faulting pages in one at a time during the
     * first searches would cost more than those searches. */
    c4tt_clear(t);
    return 0;
}

int c4tt_init_sharing(struct c4tt *t, const struct c4tt *owner)
{
    memset(t, 0, sizeof *t);
    assert(owner->slot && !owner->far_borrowed);
    t->slot = owner->slot;
    t->buckets = owner->buckets;
    t->bucket_bits = owner->bucket_bits;
    t->far_borrowed = 1;
    size_near(t, t->buckets);
    t->near = table_alloc(t->near_buckets * TT_BUCKET_BYTES);
    if (!t->near)
        return -1;
    c4tt_clear(t);
    return 0;
}

void c4tt_free(struct c4tt *t)
{
    if (!t->far_borrowed)
        free(t->slot);
    free(t->near);
    t->slot = t->near = NULL;
}

void c4tt_clear(struct c4tt *t)
{
    if (!t->far_borrowed)
        memset(t->slot, 0, t->buckets * TT_BUCKET_BYTES);
    memset(t->near, 0, t->near_buckets * TT_BUCKET_BYTES);
}

/* From now on positions farther than C4TT_NEAR_MAX_EMPTY from the end are
 * filed far, and the near entries that may be such positions (the work
 * class tells empty / C4TT_WORK_DIV) go with them so the search keeps what
 * it learned. */
void c4tt_enter_far(struct c4tt *t)
{
    assert(!t->far_mode);
    t->far_mode = 1;
    for (size_t i = 0; i < 2 * t->near_buckets; i++) {
        uint64_t e = c4tt_load(&t->near[i]);
        int max_empty = (int)(e >> C4TT_WORK_SHIFT) * C4TT_WORK_DIV + C4TT_WORK_DIV - 1;
        if (c4tt_entry_bound(e) && max_empty > C4TT_NEAR_MAX_EMPTY)
            c4tt_store_far(c4tt_bucket_in(t->slot, t->bucket_bits, e & C4KEY_MASK), e);
    }
}
