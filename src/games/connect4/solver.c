/*
 * solver.c - the perfect Connect-4 solver (c4solver.h).
 *
 * The hot path does not go through struct game: a node is the pair (cur,
 * mask) of Pons' solver on the layout of connect4.h, cur the discs of the
 * side to move and mask every disc. Playing a move bit m gives the child
 * (cur ^ mask, mask | m). cur + mask is a unique key below 2^49: within a
 * column it is the column's discs plus a carry bit on top of them.
 *
 * Invariant of negamax(): the side to move cannot win at once (the parent
 * only plays moves that leave no immediate win to the opponent, and the root
 * checks for one before searching).
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "arena/c4book.h"
#include "arena/c4solver.h"
#include "arena/clock.h"

#define BOTTOM C4_BOTTOM_ROW
#define BOARD  C4_BOARD_MASK
#define COL_FULL_MASK ((UINT64_C(1) << C4_HEIGHT) - 1)

/* How often (in nodes) a budgeted search looks at the clock: reading the
 * CPU clock is a system call, far dearer than a node. */
#define BUDGET_CHECK_NODES 4096

/* Nodes this far from a full board or farther first probe their children
 * (enhanced transposition cutoff: a child already proven bad enough for the
 * opponent ends the node without a search). Measured: 19% fewer nodes on
 * Begin-Medium; nearer the end the probes cost more than they save. */
#define ETC_MIN_EMPTY 12
/* Nodes this far from a full board or farther prefetch their children's
 * buckets before probing their own, so that the children's misses overlap
 * (in the far table only: the near one is in the caches). */
#define PREFETCH_MIN_EMPTY 4

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
/* Past that, positions this near a full board or nearer stay in the near
 * table, the others go far: a far probe costs so much more than a node that
 * searching the near ones' subtrees again is cheaper than remembering them
 * far. Measured back to back on the first 50 Begin-Medium positions with
 * the 512 KiB near table: 12 took 74 ms a position (1,170,930 nodes), 14
 * 65 ms, 16 59 ms, 17 56 ms, 20 59 ms (1,513,378 nodes), 23 69 ms, 26 84 ms;
 * runs of the same binary differ by up to a third here. */
#define NEAR_MAX_EMPTY 20


/* ---- the table ---------------------------------------------------------
 * Two tables of two-slot buckets, the same format: near (NEAR_TT_BYTES, in
 * the caches; a bucket keeps its two newest entries) and far (the rest, huge
 * pages; a bucket keeps the entry nearest the root and the newest). A call
 * starts with every position in the near table; a call that passes
 * SMALL_SEARCH_NODES nodes copies the near entries of positions farther than
 * NEAR_MAX_EMPTY from the end into the far table and from then on files
 * those positions there. An entry holds its full key, so where a position is
 * filed changes how much the search remembers, never a score.
 *
 * An entry is one uint64_t:
 *   bits  0-48  the key (the canonical one when mirrors share entries)
 *   bits 49-54  the score + SCORE_OFFSET
 *   bits 55-56  the bound: 0 empty slot, 1 lower, 2 upper, 3 exact
 *   bits 57-59  the best move's column + 1, 0 for none
 *   bits 60-63  the work class: how far from the end (42 - discs) / 3, so
 *               the bucket's first slot keeps the entry nearest the root.
 */
#define KEY_BITS 49
#define KEY_MASK ((UINT64_C(1) << KEY_BITS) - 1)
#define VAL_SHIFT 49
#define VAL_MASK 0x3F
#define SCORE_OFFSET 32
#define BOUND_SHIFT 55
#define BOUND_MASK 0x3
#define MOVE_SHIFT 57
#define MOVE_MASK 0x7
#define WORK_SHIFT 60
#define WORK_DIV 3

enum { B_EMPTY = 0, B_LOWER = 1, B_UPPER = 2, B_EXACT = 3 };

#define HUGE_PAGE_BYTES ((size_t)2 << 20)
#define TT_BUCKET_BYTES (2 * sizeof(uint64_t))
#define TT_MIN_BUCKETS 4096
#define CACHE_LINE_BYTES 64
/* Fibonacci hashing: the product's top bits pick the bucket. Its bits below
 * 35 depend only on the key's bits below 35 (columns 1-5): an index taken
 * from there filed positions that differ only in columns 6 and 7 in one
 * bucket (22% more nodes on Middle-Medium). */
#define KEY_MIX UINT64_C(0x9E3779B97F4A7C15)

/* Cache-line aligned, or for a multiple of the huge page size on huge
 * pages where the kernel grants them: every far probe lands on a random page,
 * and with 4 KiB pages nearly every probe also misses the TLB. */
static uint64_t *table_alloc(size_t bytes)
{
    if (bytes % HUGE_PAGE_BYTES != 0)
        return aligned_alloc(CACHE_LINE_BYTES, bytes);
    uint64_t *t = aligned_alloc(HUGE_PAGE_BYTES, bytes);
    if (t)
        madvise(t, bytes, MADV_HUGEPAGE);
    return t;
}

int c4s_init(struct c4s *s, size_t tt_bytes)
{
    memset(s, 0, sizeof *s);
    size_t want = tt_bytes / TT_BUCKET_BYTES, n = TT_MIN_BUCKETS;
    while (n * 2 <= want)
        n *= 2;
    s->buckets = n;
    /* A far table no larger than the near one is in the caches already;
     * the near one then only needs its size (callers that solve many tiny
     * inputs ask for the smallest table so that each init clears little). */
    s->near_buckets = NEAR_TT_BYTES / TT_BUCKET_BYTES;
    if (s->near_buckets > n)
        s->near_buckets = n;
    s->small_nodes = SMALL_SEARCH_NODES;
    s->slot = table_alloc(n * TT_BUCKET_BYTES);
    s->near = table_alloc(s->near_buckets * TT_BUCKET_BYTES);
    if (!s->slot || !s->near) {
        c4s_free(s);
        return -1;
    }
    /* Touch every page now: faulting pages in one at a time during the
     * first searches would cost more than those searches. */
    c4s_clear(s);
    return 0;
}

void c4s_free(struct c4s *s)
{
    free(s->slot);
    free(s->near);
    s->slot = s->near = NULL;
}

void c4s_clear(struct c4s *s)
{
    memset(s->slot, 0, s->buckets * TT_BUCKET_BYTES);
    memset(s->near, 0, s->near_buckets * TT_BUCKET_BYTES);
}

void c4s_set_book(struct c4s *s, const struct c4book *book)
{
    s->book = book;
}

void c4s_set_budget(struct c4s *s, uint64_t cpu_us, uint64_t nodes)
{
    s->deadline_ns = cpu_us ? clock_cpu_ns() + cpu_us * 1000 : 0;
    s->node_budget = nodes;
}

static inline uint64_t *bucket_in(uint64_t *table, size_t buckets, uint64_t key)
{
    return table + 2 * ((key * KEY_MIX) >> (64 - __builtin_ctzll(buckets)));
}

/* 1 when a position `empty` cells from a full board is filed far. */
static inline int files_far(const struct c4s *s, int empty)
{
    return s->far_mode && empty > NEAR_MAX_EMPTY;
}

static inline uint64_t *bucket_of(const struct c4s *s, uint64_t key, int moves)
{
    if (files_far(s, C4_CELLS - moves))
        return bucket_in(s->slot, s->buckets, key);
    return bucket_in(s->near, s->near_buckets, key);
}

static inline uint64_t col_mask(int c)
{
    return COL_FULL_MASK << (c * C4_COL_BITS);
}

/* The key with the columns in reverse order: the mirror image's key. Three
 * column swaps done at once (no loop: this runs for every node and child). */
#define COL0 ((UINT64_C(1) << C4_COL_BITS) - 1)
_Static_assert(C4_WIDTH == 7, "mirror_key swaps columns 0-6, 1-5 and 2-4");
static inline uint64_t mirror_key(uint64_t k)
{
    return ((k & COL0) << 6 * C4_COL_BITS) | ((k >> 6 * C4_COL_BITS) & COL0)
           | ((k & COL0 << C4_COL_BITS) << 4 * C4_COL_BITS)
           | ((k >> 4 * C4_COL_BITS) & COL0 << C4_COL_BITS)
           | ((k & COL0 << 2 * C4_COL_BITS) << 2 * C4_COL_BITS)
           | ((k >> 2 * C4_COL_BITS) & COL0 << 2 * C4_COL_BITS)
           | (k & COL0 << 3 * C4_COL_BITS);
}

/* ---- bitboard rules ---------------------------------------------------- */

/* 1 when free (one bit per cell a player may still fill) holds four in a
 * row: that player can still win. */
static inline int has_open_line(uint64_t free)
{
    uint64_t m = free & (free >> 1);
    if (m & (m >> 2))
        return 1;
    m = free & (free >> C4_COL_BITS);
    if (m & (m >> 2 * C4_COL_BITS))
        return 1;
    m = free & (free >> (C4_COL_BITS - 1));
    if (m & (m >> 2 * (C4_COL_BITS - 1)))
        return 1;
    m = free & (free >> (C4_COL_BITS + 1));
    return (m & (m >> 2 * (C4_COL_BITS + 1))) != 0;
}

/* The playable cells that neither leave an opponent's immediate win open
 * nor fail to block one, opp_win being the opponent's winning cells; 0 when
 * every move loses at once. */
static inline uint64_t non_losing_moves(uint64_t mask, uint64_t opp_win)
{
    uint64_t moves = c4_playable_cells(mask);
    uint64_t forced = moves & opp_win;
    if (forced) {
        if (forced & (forced - 1))
            return 0;   /* two threats at once: cannot block both */
        moves = forced;
    }
    /* Never play right under a cell where the opponent would win. */
    return moves & ~(opp_win >> 1);
}

/* ---- the search -------------------------------------------------------- */

/* Centre first: the tie-break of move ordering. */
static const int centre_order[C4_WIDTH] = { 3, 2, 4, 1, 5, 0, 6 };

static inline int budget_spent(struct c4s *s)
{
    if (s->aborted)
        return 1;
    /* A node budget is exact (a compare); the clock is read only every
     * BUDGET_CHECK_NODES nodes, since reading it costs more than a node. */
    if ((s->node_budget && s->nodes > s->node_budget)
        || ((s->nodes & (BUDGET_CHECK_NODES - 1)) == 0 && s->deadline_ns
            && clock_cpu_ns() >= s->deadline_ns))
        s->aborted = 1;
    return s->aborted;
}

/* Files entry e in far bucket b: the first slot keeps the entry nearest the
 * root (the one it displaces moves to the second), the second the newest.
 * The far table outlives calls, and its entries near the root are the ones
 * that save the most work. */
static inline void tt_store_far(uint64_t *b, uint64_t e)
{
    uint64_t key = e & KEY_MASK, work = e >> WORK_SHIFT;
    if ((b[0] & KEY_MASK) == key || (b[0] >> WORK_SHIFT) <= work
        || ((b[0] >> BOUND_SHIFT) & BOUND_MASK) == B_EMPTY) {
        if ((b[0] & KEY_MASK) != key && ((b[0] >> BOUND_SHIFT) & BOUND_MASK))
            b[1] = b[0];
        b[0] = e;
    } else {
        b[1] = e;
    }
}

/* Files entry e in near bucket b: the two newest entries. Preferring the
 * entries nearest the root here would fill the small table's first slots
 * with earlier calls' positions (measured: 16% more nodes on Middle-Medium). */
static inline void tt_store_near(uint64_t *b, uint64_t e)
{
    if ((b[0] & KEY_MASK) != (e & KEY_MASK))
        b[1] = b[0];
    b[0] = e;
}

static void tt_put(struct c4s *s, uint64_t key, int moves, int score, int bound, int col)
{
    uint64_t work = (uint64_t)((C4_CELLS - moves) / WORK_DIV);
    uint64_t e = key | (uint64_t)(score + SCORE_OFFSET) << VAL_SHIFT
                 | (uint64_t)bound << BOUND_SHIFT | (uint64_t)(col + 1) << MOVE_SHIFT
                 | work << WORK_SHIFT;
    if (files_far(s, C4_CELLS - moves))
        tt_store_far(bucket_in(s->slot, s->buckets, key), e);
    else
        tt_store_near(bucket_in(s->near, s->near_buckets, key), e);
}

/* The call has outgrown the near table: from now on positions farther
 * than NEAR_MAX_EMPTY from the end are filed far, and the near entries that
 * may be such positions (the work class tells empty / WORK_DIV) go with them
 * so the search keeps what it learned. */
static void enter_far_mode(struct c4s *s)
{
    s->far_mode = 1;
    for (size_t i = 0; i < 2 * s->near_buckets; i++) {
        uint64_t e = s->near[i];
        int max_empty = (int)(e >> WORK_SHIFT) * WORK_DIV + WORK_DIV - 1;
        if (((e >> BOUND_SHIFT) & BOUND_MASK) && max_empty > NEAR_MAX_EMPTY)
            tt_store_far(bucket_in(s->slot, s->buckets, e & KEY_MASK), e);
    }
}

static inline uint64_t tt_get(const struct c4s *s, uint64_t key, int moves)
{
    const uint64_t *b = bucket_of(s, key, moves);
    if ((b[0] & KEY_MASK) == key && ((b[0] >> BOUND_SHIFT) & BOUND_MASK))
        return b[0];
    if ((b[1] & KEY_MASK) == key && ((b[1] >> BOUND_SHIFT) & BOUND_MASK))
        return b[1];
    return 0;
}

/* The canonical key of (cur, mask): mirror images share it when mirrored is
 * set on return. */
static inline uint64_t canonical_key(uint64_t cur, uint64_t mask, int *mirrored)
{
    uint64_t key = cur + mask;
    *mirrored = 0;
    uint64_t m = mirror_key(key);
    if (m < key) {
        *mirrored = 1;
        return m;
    }
    return key;
}

uint64_t c4s_key(const struct c4_pos *p)
{
    int mirrored;
    return canonical_key(p->disc[p->to_move], p->disc[0] | p->disc[1], &mirrored);
}

/* The key the current call files (cur, mask) under: the canonical one when
 * the call's positions may meet their mirror images, else the position's
 * own. Both agree with what other calls filed: an entry stores its best
 * move as seen from the position its key spells, whichever way it got
 * there. */
static inline uint64_t node_key(const struct c4s *s, uint64_t cur, uint64_t mask, int *mirrored)
{
    if (s->mirror)
        return canonical_key(cur, mask, mirrored);
    *mirrored = 0;
    return cur + mask;
}

static int negamax(struct c4s *s, uint64_t cur, uint64_t mask, uint64_t opp_win, int moves,
                   int alpha, int beta);

/* Searches one child, wins being c4_winning_cells(cur | m, mask | m); 1 when
 * it cut off (the bound is stored), else 0 with *alpha and *best raised when
 * it improved. */
static inline int search_child(struct c4s *s, uint64_t cur, uint64_t mask, uint64_t m,
                               uint64_t wins, int moves, int *alpha, int beta, int *best,
                               int col)
{
    int v = -negamax(s, cur ^ mask, mask | m, wins, moves + 1, -beta, -*alpha);
    if (v >= beta) {
        *alpha = v;
        *best = col;
        return 1;
    }
    if (v > *alpha) {
        *alpha = v;
        *best = col;
    }
    return 0;
}

/* opp_win: c4_winning_cells(cur ^ mask, mask), the opponent's winning cells;
 * the parent has them (its ordering counted them), so no node computes its
 * opponent's. */
static int negamax(struct c4s *s, uint64_t cur, uint64_t mask, uint64_t opp_win, int moves,
                   int alpha, int beta)
{
    s->nodes++;
    if (!s->far_mode && s->nodes > s->small_nodes)
        enter_far_mode(s);
    if ((s->node_budget || s->deadline_ns) && budget_spent(s))
        return 0;
    /* The exits that need no key first: most leaves end here. */
    uint64_t next = non_losing_moves(mask, opp_win);
    if (!next)
        return -(C4_CELLS - moves) / 2;
    if (moves >= C4_CELLS - 2)
        return 0;   /* two cells left, neither side can win: a draw */
    int mirrored;
    uint64_t key = node_key(s, cur, mask, &mirrored);
    /* An exact score is an answer for any window. */
    if (s->book && moves <= s->book->max_moves) {
        int v = c4book_lookup(s->book, key);
        if (v != C4S_UNKNOWN)
            return v;
    }

    if (C4_CELLS - moves >= PREFETCH_MIN_EMPTY && files_far(s, C4_CELLS - moves - 1))
        for (uint64_t rest = next; rest; rest &= rest - 1) {
            uint64_t m = rest & -rest;
            int cm;
            uint64_t ck = node_key(s, cur ^ mask, mask | m, &cm);
            __builtin_prefetch(bucket_of(s, ck, moves + 1));
        }
    /* The opponent cannot win with its next disc, we cannot with ours. */
    int lo = -(C4_CELLS - 2 - moves) / 2, hi = (C4_CELLS - 1 - moves) / 2;
    if (alpha < lo) {
        alpha = lo;
        if (alpha >= beta)
            return alpha;
    }
    /* A side with no line of four left free of the other's discs can no
     * longer win: the game is at best a draw for it. */
    if (beta > 0 && !has_open_line(BOARD & ~(cur ^ mask)))
        hi = 0;
    if (alpha < 0 && !has_open_line(BOARD & ~cur))
        lo = 0;
    if (alpha < lo) {
        alpha = lo;
        if (alpha >= beta)
            return alpha;
    }
    if (beta > hi) {
        beta = hi;
        if (alpha >= beta)
            return beta;
    }

    int hint = -1;
    uint64_t e = tt_get(s, key, moves);
    if (e) {
        int v = (int)((e >> VAL_SHIFT) & VAL_MASK) - SCORE_OFFSET;
        int bound = (int)((e >> BOUND_SHIFT) & BOUND_MASK);
        if (bound == B_EXACT)
            return v;
        if (bound == B_LOWER && v > alpha) {
            alpha = v;
            if (alpha >= beta)
                return alpha;
        }
        if (bound == B_UPPER && v < beta) {
            beta = v;
            if (alpha >= beta)
                return beta;
        }
        hint = (int)((e >> MOVE_SHIFT) & MOVE_MASK) - 1;
        if (hint >= 0 && mirrored)
            hint = C4_WIDTH - 1 - hint;
    }

    int alpha0 = alpha, best = -1;
    if (C4_CELLS - moves >= ETC_MIN_EMPTY) {
        for (uint64_t rest = next; rest; rest &= rest - 1) {
            uint64_t m = rest & -rest;
            int cm;
            uint64_t ck = node_key(s, cur ^ mask, mask | m, &cm);
            uint64_t ce = tt_get(s, ck, moves + 1);
            if (!ce)
                continue;
            int cb = (int)((ce >> BOUND_SHIFT) & BOUND_MASK);
            int cv = -((int)((ce >> VAL_SHIFT) & VAL_MASK) - SCORE_OFFSET);
            if ((cb == B_UPPER || cb == B_EXACT) && cv >= beta) {
                int c = __builtin_ctzll(m) / C4_COL_BITS;
                tt_put(s, key, moves, cv, B_LOWER, mirrored ? C4_WIDTH - 1 - c : c);
                return cv;
            }
        }
    }
    /* The table's best move first, before paying for ordering the rest: it
     * usually cuts off alone. */
    uint64_t hm = hint >= 0 ? next & col_mask(hint) : 0;
    if (hm) {
        int cut = search_child(s, cur, mask, hm, c4_winning_cells(cur | hm, mask | hm), moves,
                               &alpha, beta, &best, hint);
        if (s->aborted)
            return 0;
        if (cut)
            goto cutoff;
        next ^= hm;
    }

    /* The rest: most winning cells created first, centre first on ties
     * (insertion sort, stable). The children get the cells counted. */
    uint64_t mv[C4_WIDTH], wc[C4_WIDTH];
    int sc[C4_WIDTH], col[C4_WIDTH], n = 0;
    for (int i = 0; i < C4_WIDTH; i++) {
        int c = centre_order[i];
        uint64_t m = next & col_mask(c);
        if (!m)
            continue;
        uint64_t wins = c4_winning_cells(cur | m, mask | m);
        int score = __builtin_popcountll(wins);
        int j = n++;
        for (; j > 0 && sc[j - 1] < score; j--) {
            mv[j] = mv[j - 1];
            wc[j] = wc[j - 1];
            sc[j] = sc[j - 1];
            col[j] = col[j - 1];
        }
        mv[j] = m;
        wc[j] = wins;
        sc[j] = score;
        col[j] = c;
    }
    for (int i = 0; i < n; i++) {
        int cut = search_child(s, cur, mask, mv[i], wc[i], moves, &alpha, beta, &best, col[i]);
        if (s->aborted)
            return 0;
        if (cut)
            goto cutoff;
    }
    if (best < 0)
        best = hm ? hint : col[0];
    tt_put(s, key, moves, alpha, alpha > alpha0 ? B_EXACT : B_UPPER,
           mirrored ? C4_WIDTH - 1 - best : best);
    return alpha;

cutoff:
    tt_put(s, key, moves, alpha, B_LOWER, mirrored ? C4_WIDTH - 1 - best : best);
    return alpha;
}

/* The score of (cur, mask) with `moves` discs, not finished. */
static int solve_node(struct c4s *s, uint64_t cur, uint64_t mask, int moves, int weak)
{
    if (c4_winning_cells(cur, mask) & c4_playable_cells(mask))
        return weak ? 1 : C4S_WIN_NOW(moves);
    uint64_t opp_win = c4_winning_cells(cur ^ mask, mask);
    int lo = C4S_LOSE_NEXT(moves), hi = C4S_WIN_NOW(moves);
    if (weak) {
        lo = -1;
        hi = 1;
    }
    while (lo < hi) {
        /* Null windows, probing nearer 0 first: small scores (long games)
         * are the expensive ones to prove, and most positions are close. */
        int med = lo + (hi - lo) / 2;
        if (med <= 0 && lo / 2 < med)
            med = lo / 2;
        else if (med >= 0 && hi / 2 > med)
            med = hi / 2;
        int r = negamax(s, cur, mask, opp_win, moves, med, med + 1);
        if (s->aborted)
            return C4S_UNKNOWN;
        if (r <= med)
            hi = r;
        else
            lo = r;
    }
    if (weak)
        return lo > 0 ? 1 : lo < 0 ? -1 : 0;
    return lo;
}

/* Starts a call from the position (cur, mask). A position below it holds
 * its discs; its mirror image holds their mirror image, so both can be met
 * only when no cell of the root holds one side's disc where the root's
 * mirror image holds the other's. Most roots clash, and their calls skip
 * mirroring keys (12% of a node's instructions). */
static void begin_call(struct c4s *s, uint64_t cur, uint64_t mask)
{
    s->mirror = (mirror_key(cur) & (cur ^ mask)) == 0;
    s->far_mode = 0;
    s->nodes = 0;
    s->aborted = 0;
}

int c4s_solve(struct c4s *s, const struct c4_pos *p, int weak)
{
    uint64_t cur = p->disc[p->to_move], mask = p->disc[0] | p->disc[1];
    begin_call(s, cur, mask);
    return solve_node(s, cur, mask, p->moves, weak);
}

int c4s_analyze(struct c4s *s, const struct c4_pos *p, int scores[C4_WIDTH])
{
    uint64_t cur = p->disc[p->to_move], mask = p->disc[0] | p->disc[1];
    begin_call(s, cur, mask);
    uint64_t wins = c4_winning_cells(cur, mask);
    uint64_t nodes = 0;
    int legal = 0;
    for (int c = 0; c < C4_WIDTH; c++) {
        scores[c] = C4S_UNKNOWN;
        uint64_t m = c4_playable_cells(mask) & col_mask(c);
        if (!m)
            continue;
        legal++;
        if (m & wins)
            scores[c] = C4S_WIN_NOW(p->moves);
        else if (p->moves + 1 == C4_CELLS)
            scores[c] = 0;
        else if (!s->aborted) {
            int v = solve_node(s, cur ^ mask, mask | m, p->moves + 1, 0);
            if (v != C4S_UNKNOWN)
                scores[c] = -v;
        }
        nodes += s->nodes;
        s->nodes = 0;
    }
    s->nodes = nodes;
    return legal;
}

int c4s_best_move(struct c4s *s, const struct c4_pos *p, int *score)
{
    uint64_t cur = p->disc[p->to_move], mask = p->disc[0] | p->disc[1];
    begin_call(s, cur, mask);
    uint64_t moves = c4_playable_cells(mask), wins = c4_winning_cells(cur, mask) & moves;
    int best = -1, v;
    if (wins) {
        best = __builtin_ctzll(wins) / C4_COL_BITS;
        v = C4S_WIN_NOW(p->moves);
        goto done;
    }
    v = solve_node(s, cur, mask, p->moves, 0);
    if (s->aborted)
        return -1;
    /* The lowest column that keeps the score: one null-window test per
     * column (is the opponent held to -v?) instead of an exact solve. */
    uint64_t safe = non_losing_moves(mask, c4_winning_cells(cur ^ mask, mask));
    for (int c = 0; c < C4_WIDTH && best < 0; c++) {
        uint64_t m = moves & col_mask(c);
        if (!m)
            continue;
        int got;
        if (p->moves + 1 == C4_CELLS)
            got = 0;
        else if (!(m & safe))
            got = -C4S_WIN_NOW(p->moves + 1);   /* the opponent wins at once */
        else {
            int r = -negamax(s, cur ^ mask, mask | m, c4_winning_cells(cur | m, mask | m),
                             p->moves + 1, -v, -v + 1);
            if (s->aborted)
                return -1;
            got = r >= v ? v : r;
        }
        if (got == v)
            best = c;
    }
done:
    if (score)
        *score = v;
    return best;
}

int c4s_parse_moves(const char *moves, size_t len, struct c4_pos *p, const char **why)
{
    c4_init(p);
    for (size_t i = 0; i < len; i++) {
        int c = moves[i] - '1';
        if (c < 0 || c >= C4_WIDTH) {
            *why = "not a column digit 1-7";
            return (int)i + 1;
        }
        if (p->moves > 0 && c4_has_four(p->disc[p->to_move ^ 1])) {
            *why = "game is already over";
            return (int)i + 1;
        }
        if (!c4_can_play(p, c)) {
            *why = "column is full";
            return (int)i + 1;
        }
        c4_play(p, c);
    }
    if (c4_has_four(p->disc[p->to_move ^ 1]) || p->moves == C4_CELLS) {
        *why = "game is already over";
        return (int)len + 1;
    }
    return 0;
}
