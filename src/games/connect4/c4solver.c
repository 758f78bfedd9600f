/*
 * c4solver.c - the perfect Connect-4 solver's search (c4solver.h).
 *
 * The hot path does not go through struct game: a node is the pair (cur,
 * mask) of Pons' solver on the layout of connect4.h, cur the discs of the
 * side to move and mask every disc. Playing a move bit m gives the child
 * (cur ^ mask, mask | m); its key is c4key.h's.
 *
 * Invariants of negamax() (asserted; all but the first only in the
 * sanitizer build, check.h): alpha < beta, both within the score range; the
 * side to move cannot win at once (the parent only plays moves that leave
 * no immediate win to the opponent, and the root checks for one before
 * searching); opp_win is the opponent's winning cells; every move searched
 * is playable.
 */
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>
#include "arena/c4bound.h"
#include "arena/c4solver.h"
#include "arena/check.h"
#include "arena/clock.h"

/* How often (in nodes) a budgeted search looks at the clock: reading the
 * CPU clock is a system call, far dearer than a node. */
#define BUDGET_CHECK_NODES 4096

/* Nodes this far from a full board or farther first probe their children
 * (enhanced transposition cutoff: a child already proven bad enough for the
 * opponent ends the node without a search). Measured: 19% fewer nodes on
 * Begin-Medium; nearer the end the probes cost more than they save. */
#define ETC_MIN_EMPTY 12
/* Second-player nodes this far from a full board or farther bound their
 * children by claimeven when the table did not decide them. Measured: from
 * 16, the empty board in 16% fewer nodes and a paired time ratio of 0.875;
 * from 12 before the table probe, 11% fewer nodes on Begin-Hard and no
 * time saved (the bounds cost what the nodes did). */
#define CHILD_EVENS_MIN_EMPTY 16
/* Nodes this far from a full board or farther prefetch their children's
 * buckets before probing their own, so that the children's misses overlap
 * (in the far table only: the near one is in the caches). */
#define PREFETCH_MIN_EMPTY 4

/* Centre first: the tie-break of move ordering. */
static const int centre_order[C4_WIDTH] = { 3, 2, 4, 1, 5, 0, 6 };

/* A node being searched. */
struct node {
    uint64_t cur, mask;   /* the side to move's discs, every disc */
    uint64_t key;         /* what the current call files it under */
    uint64_t opp_win;     /* the opponent's winning cells */
    int moves;            /* discs on the board */
    int mirrored;         /* key is the mirror image's: flip move columns */
};

/* The search window (alpha < beta while open). */
struct window {
    int alpha, beta;
};

/* A move to search, with the winning cells it gives the side that plays it
 * (its child's opponent's winning cells). */
struct child {
    uint64_t move, wins;
    int score, col;
};

static inline int budget_spent(struct c4s *s)
{
    if (s->aborted)
        return 1;
    if (s->stop && __atomic_load_n(s->stop, __ATOMIC_RELAXED))
        s->aborted = 1;
    /* A node budget is exact (a compare); the clock is read only every
     * BUDGET_CHECK_NODES nodes, since reading it costs more than a node. */
    if ((s->node_budget && s->nodes > s->node_budget)
        || ((s->nodes & (BUDGET_CHECK_NODES - 1)) == 0 && s->deadline_ns
            && clock_cpu_ns() >= s->deadline_ns))
        s->aborted = 1;
    return s->aborted;
}

static void start_helpers(struct c4s *s);

/* Counts a node; 1 when the call must stop (a budget ran out). A threaded
 * call's helpers start when its main search outgrows the near table. */
static inline int enter_node(struct c4s *s)
{
    s->nodes++;
    if (!s->tt.far_mode && s->nodes > s->tt.small_nodes) {
        c4tt_enter_far(&s->tt);
        if (s->armed)
            start_helpers(s);
    }
    return s->watch && budget_spent(s);
}

/* The key the current call files (cur, mask) under: the canonical one when
 * the call's positions may meet their mirror images, else the position's
 * own. Both agree with what other calls filed: an entry stores its best
 * move as seen from the position its key spells, whichever way it got
 * there. */
static inline uint64_t node_key(const struct c4s *s, uint64_t cur, uint64_t mask, int *mirrored)
{
    if (s->mirror)
        return c4key_canonical(cur, mask, mirrored);
    *mirrored = 0;
    return cur + mask;
}

/* A column as the table has it for n, or back: the mirror image's column
 * when n's key is the mirror image's. */
static inline int table_col(const struct node *n, int col)
{
    return n->mirrored ? C4_WIDTH - 1 - col : col;
}

/* The book's score of n, or C4BOOK_NONE. */
static inline int book_score(const struct c4s *s, const struct node *n)
{
    if (s->book && n->moves <= s->book->max_moves)
        return c4book_lookup(s->book, n->key);
    return C4BOOK_NONE;
}

/* Starts loading the buckets of n's children (the moves of next) into the
 * caches, when they are far ones. */
static inline void prefetch_children(const struct c4s *s, const struct node *n, uint64_t next)
{
    if (C4_CELLS - n->moves < PREFETCH_MIN_EMPTY || !c4tt_files_far(&s->tt, C4_CELLS - n->moves - 1))
        return;
    for (uint64_t rest = next; rest; rest &= rest - 1) {
        uint64_t m = rest & -rest;
        int cm;
        uint64_t ck = node_key(s, n->cur ^ n->mask, n->mask | m, &cm);
        __builtin_prefetch(c4tt_bucket(&s->tt, ck, n->moves + 1));
    }
}

/* Raises alpha to lo; 1 when that closes the window (*v the score). */
static inline int raise_alpha(struct window *w, int lo, int *v)
{
    if (w->alpha < lo) {
        w->alpha = lo;
        if (w->alpha >= w->beta) {
            *v = w->alpha;
            return 1;
        }
    }
    return 0;
}

/* Lowers beta to hi; 1 when that closes the window (*v the score). */
static inline int lower_beta(struct window *w, int hi, int *v)
{
    if (w->beta > hi) {
        w->beta = hi;
        if (w->alpha >= w->beta) {
            *v = w->beta;
            return 1;
        }
    }
    return 0;
}

/* Narrows w by what n's discs allow without a search; 1 when that decides
 * the node (*v its value). */
static inline int narrow_static(const struct node *n, struct window *w, int *v)
{
    /* The opponent cannot win with its next disc, we cannot with ours. */
    int lo = -(C4_CELLS - 2 - n->moves) / 2, hi = (C4_CELLS - 1 - n->moves) / 2;
    if (raise_alpha(w, lo, v))
        return 1;
    /* A side with no line of four left free of the other's discs can no
     * longer win: the game is at best a draw for it. */
    if (w->beta > 0 && !c4_has_open_line(C4_BOARD_MASK & ~(n->cur ^ n->mask)))
        hi = 0;
    if (w->alpha < 0 && !c4_has_open_line(C4_BOARD_MASK & ~n->cur))
        lo = 0;
    /* The first player to move: the second's claimeven may bound it. */
    if (!(n->moves & 1) && w->beta > -C4_HEIGHT / 2) {
        int evens = c4bound_evens(n->cur, n->mask);
        if (evens < hi)
            hi = evens;
    }
    return raise_alpha(w, lo, v) || lower_beta(w, hi, v);
}

/* With the second player to move (n has an odd number of discs), raises
 * alpha by the children's claimeven bounds: a child's score is at most its
 * bound, so the move is worth at least the bound's negation to n. Only
 * where it can still close the window, and once the solve has gone far (as
 * the threat ordering): in small solves the seven bounds cost more than
 * they save (Begin-Easy 1,200 M instructions with them, 1,141 M without;
 * Middle-Easy 228 M and 225 M; the empty board the same nodes). 1 when it
 * closes the window (*v the score). */
static inline int narrow_by_child_evens(const struct c4s *s, const struct node *n, uint64_t next,
                                        struct window *w, int *v)
{
    if (!s->tt.far_mode || !(n->moves & 1) || C4_CELLS - n->moves < CHILD_EVENS_MIN_EMPTY
        || w->beta > C4_HEIGHT / 2)
        return 0;
    for (uint64_t rest = next; rest; rest &= rest - 1) {
        uint64_t m = rest & -rest;
        int bound = c4bound_evens(n->cur ^ n->mask, n->mask | m);
        if (bound < C4BOUND_NONE && raise_alpha(w, -bound, v))
            return 1;
    }
    return 0;
}

/* Narrows w by n's table entry; 1 when that decides the node (*v its
 * value). *hint gets the entry's best move (n's column), or -1. */
static inline int narrow_by_table(const struct c4s *s, const struct node *n, struct window *w,
                                  int *hint, int *v)
{
    uint64_t e = c4tt_get(&s->tt, n->key, n->moves);
    *hint = -1;
    if (!e)
        return 0;
    int score = c4tt_entry_score(e), bound = c4tt_entry_bound(e);
    if (bound == C4TT_EXACT) {
        *v = score;
        return 1;
    }
    if ((bound == C4TT_LOWER && raise_alpha(w, score, v))
        || (bound == C4TT_UPPER && lower_beta(w, score, v)))
        return 1;
    int col = c4tt_entry_move(e);
    *hint = col >= 0 ? table_col(n, col) : -1;
    return 0;
}

/* Enhanced transposition cutoff: 1 when a child's table entry already
 * proves n's score at least beta (*v that score, stored as n's lower
 * bound). */
static inline int etc_cutoff(struct c4s *s, const struct node *n, uint64_t next, int beta, int *v)
{
    if (C4_CELLS - n->moves < ETC_MIN_EMPTY)
        return 0;
    for (uint64_t rest = next; rest; rest &= rest - 1) {
        uint64_t m = rest & -rest;
        int cm;
        uint64_t ck = node_key(s, n->cur ^ n->mask, n->mask | m, &cm);
        uint64_t ce = c4tt_get(&s->tt, ck, n->moves + 1);
        if (!ce)
            continue;
        int cb = c4tt_entry_bound(ce), cv = -c4tt_entry_score(ce);
        if ((cb == C4TT_UPPER || cb == C4TT_EXACT) && cv >= beta) {
            int c = __builtin_ctzll(m) / C4_COL_BITS;
            c4tt_put(&s->tt, n->key, n->moves, cv, C4TT_LOWER, table_col(n, c));
            *v = cv;
            return 1;
        }
    }
    return 0;
}

/* Weights of a move's threats in its ordering score (tenths): a threat is
 * worth most when it becomes playable after one more disc in its column
 * (the opponent must not play under it), less after two, least otherwise;
 * a threat right above one of the opponent's never counts (the opponent
 * would win first). ChristopheSteininger/c4's weights 1.2, 0.5, 0.3;
 * measured on Begin-Hard's first 20: 22% fewer nodes than by the count of
 * threats alone (16/6/3 and 12/5/6 within 1%). */
#define ORDER_NEXT_TURN 12
#define ORDER_TURN_AFTER 5
#define ORDER_ANY 3

/* The ordering score of move m from n, wins the threats it gives us: the
 * count of threats until the solve goes far (small solves are mostly quick
 * wins, which it finds sooner: Begin-Easy in 1.19 M nodes against 1.70 M
 * by the weights), the weighted threats after. */
static inline int move_score(const struct c4s *s, const struct node *n, uint64_t m,
                             uint64_t wins)
{
    if (!s->tt.far_mode)
        return __builtin_popcountll(wins);
    uint64_t useful = wins & ~(n->opp_win << 1);
    uint64_t above = c4_playable_cells(n->mask | m) << 1;
    return ORDER_NEXT_TURN * __builtin_popcountll(useful & above)
           + ORDER_TURN_AFTER * __builtin_popcountll(useful & (above << 1))
           + ORDER_ANY * __builtin_popcountll(useful);
}

/* The moves of next, best move_score first, centre first on ties
 * (insertion sort, stable), into ch; returns how many. */
static inline int order_moves(const struct c4s *s, const struct node *n, uint64_t next,
                              struct child ch[C4_WIDTH])
{
    int k = 0;
    for (int i = 0; i < C4_WIDTH; i++) {
        int c = centre_order[i];
        uint64_t m = next & c4_column_cells(c);
        if (!m)
            continue;
        uint64_t wins = c4_winning_cells(n->cur | m, n->mask | m);
        int score = move_score(s, n, m, wins);
        int j = k++;
        for (; j > 0 && ch[j - 1].score < score; j--)
            ch[j] = ch[j - 1];
        ch[j] = (struct child){ .move = m, .wins = wins, .score = score, .col = c };
    }
    return k;
}

/* 1 when one of the k moves of ch leaves the opponent no move that does not
 * lose at once: n wins with its second disc (*v that score). Else lowers
 * beta to a win with the third disc; 1 when that closes the window. */
static inline int narrow_by_children(const struct node *n, const struct child *ch, int k,
                                     struct window *w, int *v)
{
    for (int i = 0; i < k; i++)
        if (!c4_non_losing_moves(n->mask | ch[i].move, ch[i].wins)) {
            *v = (C4_CELLS - 1 - n->moves) / 2;
            return 1;
        }
    return lower_beta(w, (C4_CELLS - 3 - n->moves) / 2, v);
}

static int negamax(struct c4s *s, uint64_t cur, uint64_t mask, uint64_t opp_win, int moves,
                   int alpha, int beta);

/* Searches n's child c; 1 when it cut off, else 0 with w->alpha and *best
 * raised when it improved. */
static inline int search_child(struct c4s *s, const struct node *n, const struct child *c,
                               struct window *w, int *best)
{
    ARENA_HOT_ASSERT(c->move & c4_playable_cells(n->mask));
    int v = -negamax(s, n->cur ^ n->mask, n->mask | c->move, c->wins, n->moves + 1, -w->beta,
                     -w->alpha);
    if (v > w->alpha) {
        w->alpha = v;
        *best = c->col;
    }
    return v >= w->beta;
}

/* Searches the moves of next (not empty), the table's best move hint first,
 * and files the result; returns n's value. */
static inline int search_moves(struct c4s *s, const struct node *n, uint64_t next, int hint,
                               struct window w)
{
    int alpha0 = w.alpha, best = -1, cut = 0, k = 0;
    struct child ch[C4_WIDTH];
    /* The table's best move first, before paying for ordering the rest: it
     * usually cuts off alone. */
    uint64_t hm = hint >= 0 ? next & c4_column_cells(hint) : 0;
    if (hm) {
        struct child h = { .move = hm, .wins = c4_winning_cells(n->cur | hm, n->mask | hm),
                           .col = hint };
        cut = search_child(s, n, &h, &w, &best);
        if (s->aborted)
            return 0;
        next ^= hm;
    }
    if (!cut) {
        k = order_moves(s, n, next, ch);
        int v;
        if (narrow_by_children(n, ch, k, &w, &v))
            return v;
        for (int i = 0; i < k && !cut; i++) {
            cut = search_child(s, n, &ch[i], &w, &best);
            if (s->aborted)
                return 0;
        }
    }
    enum c4tt_bound bound = C4TT_LOWER;
    if (!cut) {
        if (best < 0)
            best = hm ? hint : ch[0].col;
        bound = w.alpha > alpha0 ? C4TT_EXACT : C4TT_UPPER;
    }
    c4tt_put(&s->tt, n->key, n->moves, w.alpha, bound, table_col(n, best));
    return w.alpha;
}

/* The value of (cur, mask) with `moves` discs within [alpha, beta], exact
 * inside the window, a bound outside it (fail-soft); opp_win:
 * c4_winning_cells(cur ^ mask, mask), the opponent's winning cells (the
 * parent has them, its ordering counted them). */
static int negamax(struct c4s *s, uint64_t cur, uint64_t mask, uint64_t opp_win, int moves,
                   int alpha, int beta)
{
    ARENA_HOT_ASSERT(alpha < beta);
    ARENA_HOT_ASSERT(alpha >= -C4SCORE_MAX && beta <= C4SCORE_MAX);
    ARENA_HOT_ASSERT(!(c4_winning_cells(cur, mask) & c4_playable_cells(mask)));
    ARENA_HOT_ASSERT(opp_win == c4_winning_cells(cur ^ mask, mask));
    if (enter_node(s))
        return 0;
    /* The exits that need no key first: most leaves end here. */
    uint64_t next = c4_non_losing_moves(mask, opp_win);
    if (!next)
        return -(C4_CELLS - moves) / 2;
    if (moves >= C4_CELLS - 2)
        return 0;   /* two cells left, neither side can win: a draw */
    /* One move left (most often a forced block): its child's value is the
     * node's, and the table would only remember what the child's entry
     * holds. */
    if (!(next & (next - 1)))
        return -negamax(s, cur ^ mask, mask | next, c4_winning_cells(cur | next, mask | next),
                        moves + 1, -beta, -alpha);
    struct node n = { .cur = cur, .mask = mask, .opp_win = opp_win, .moves = moves };
    n.key = node_key(s, cur, mask, &n.mirrored);
    /* An exact score is an answer for any window. */
    int v = book_score(s, &n);
    if (v != C4BOOK_NONE)
        return v;
    prefetch_children(s, &n, next);
    struct window w = { alpha, beta };
    int hint;
    if (narrow_static(&n, &w, &v) || narrow_by_table(s, &n, &w, &hint, &v)
        || narrow_by_child_evens(s, &n, next, &w, &v) || etc_cutoff(s, &n, next, w.beta, &v))
        return v;
    return search_moves(s, &n, next, hint, w);
}

/* A helper's null window: helper j probes j/2 + 1 above or below the main
 * search's med (odd j above), kept within [lo, hi - 1] so that it still
 * narrows to the score. */
static int jitter_window(int lo, int hi, int med, int j)
{
    int shifted = med + (j % 2 ? 1 : -1) * (j / 2 + 1);
    return shifted < lo ? lo : shifted > hi - 1 ? hi - 1 : shifted;
}

/* The score of (cur, mask) with `moves` discs, not finished. */
static int solve_node(struct c4s *s, uint64_t cur, uint64_t mask, int moves, int weak)
{
    if (c4_winning_cells(cur, mask) & c4_playable_cells(mask))
        return weak ? 1 : C4SCORE_WIN_NOW(moves);
    uint64_t opp_win = c4_winning_cells(cur ^ mask, mask);
    int lo = C4SCORE_LOSE_NEXT(moves), hi = C4SCORE_WIN_NOW(moves);
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
        if (s->jitter)
            med = jitter_window(lo, hi, med, s->jitter);
        int r = negamax(s, cur, mask, opp_win, moves, med, med + 1);
        if (s->aborted)
            return C4S_UNKNOWN;
        if (r <= med)
            hi = r;
        else
            lo = r;
    }
    assert(C4SCORE_FITS(lo, moves));
    if (weak)
        return lo > 0 ? 1 : lo < 0 ? -1 : 0;
    return lo;
}

/* Starts a call from p (valid, not finished) and sets (*cur, *mask). A
 * position below it holds its discs; its mirror image holds their mirror
 * image, so both can be met only when no cell of the root holds one side's
 * disc where the root's mirror image holds the other's. Most roots clash,
 * and their calls skip mirroring keys (12% of a node's instructions before
 * the skip; skipping saved 9.5% of all). */
static void begin_call(struct c4s *s, const struct c4_pos *p, uint64_t *cur, uint64_t *mask)
{
    *cur = p->disc[p->to_move];
    *mask = p->disc[0] | p->disc[1];
    assert(p->to_move <= 1 && p->moves < C4_CELLS && (p->disc[0] & p->disc[1]) == 0);
    assert(!c4_has_four(p->disc[0]) && !c4_has_four(p->disc[1]));
    s->mirror = (c4key_mirror(*cur) & (*cur ^ *mask)) == 0;
    c4tt_begin_call(&s->tt);
    s->watch = s->node_budget || s->deadline_ns || s->stop;
    s->nodes = 0;
    s->aborted = 0;
}

static int solve_one(struct c4s *s, const struct c4_pos *p, int weak)
{
    uint64_t cur, mask;
    begin_call(s, p, &cur, &mask);
    return solve_node(s, cur, mask, p->moves, weak);
}

/* A helper's part of a threaded call. */
struct helper_job {
    struct c4s *h;
    const struct c4_pos *p;
    int weak;
};

/* The helpers' threads, allocated with them (c4s_set_threads): started
 * (once) by a threaded call's main search when it goes far, joined when the
 * call is done. Nothing here is touched by a call that never starts them. */
struct c4s_team {
    int stop;
    pthread_t tid[C4S_MAX_THREADS];
    struct helper_job job[C4S_MAX_THREADS];
    int started[C4S_MAX_THREADS];
};

static void *run_helper(void *arg)
{
    struct helper_job *job = arg;
    solve_one(job->h, job->p, job->weak);
    return NULL;
}

/* Helpers the machine can run beside the main search: its cores less its
 * load average (the main search counted in it), at most want. */
static int idle_helpers(int want)
{
    double load;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    if (cores < 1 || getloadavg(&load, 1) != 1)
        return want;
    double idle = (double)cores - load;
    return idle < 1 ? 0 : idle < want ? (int)idle : want;
}

/* A helper that cannot start leaves the work to the others. */
static void start_helpers(struct c4s *s)
{
    struct c4s_team *t = s->team;
    int n = s->idle_only ? idle_helpers(s->threads - 1) : s->threads - 1;
    s->armed = 0;
    s->launched = 1;
    t->stop = 0;
    for (int i = 0; i < s->threads - 1; i++) {
        struct c4s *h = &s->helper[i];
        h->book = s->book;
        h->stop = &t->stop;
        t->job[i] = (struct helper_job){ .h = h, .p = s->root, .weak = s->root_weak };
        t->started[i] = i < n && pthread_create(&t->tid[i], NULL, run_helper, &t->job[i]) == 0;
    }
}

/* Lazy SMP: the helpers search p until the main search (s) knows its score.
 * Most solves of the public sets end within the near table's small_nodes
 * (c4tt.h), where starting a thread costs more than the whole solve (53 us
 * against 1.7 us a position on End-Easy): the helpers start only once the
 * main search passes it, so a small solve is the one-thread solve, and
 * touches only s's own fields to arm them. */
static int solve_threaded(struct c4s *s, const struct c4_pos *p, int weak)
{
    s->root = p;
    s->root_weak = weak;
    s->armed = 1;
    s->launched = 0;
    int v = solve_one(s, p, weak);
    s->armed = 0;
    if (!s->launched)
        return v;
    struct c4s_team *t = s->team;
    __atomic_store_n(&t->stop, 1, __ATOMIC_RELAXED);
    for (int i = 0; i < s->threads - 1; i++)
        if (t->started[i]) {
            pthread_join(t->tid[i], NULL);
            s->nodes += s->helper[i].nodes;
        }
    return v;
}

int c4s_solve(struct c4s *s, const struct c4_pos *p, int weak)
{
    if (s->threads > 1)
        return solve_threaded(s, p, weak);
    return solve_one(s, p, weak);
}

/* The score of playing column c (a legal move bit m) from p, (cur, mask)
 * being p, wins the side to move's winning cells; C4S_UNKNOWN when a budget
 * ran out. */
static int column_score(struct c4s *s, const struct c4_pos *p, uint64_t cur, uint64_t mask,
                        uint64_t m, uint64_t wins)
{
    if (m & wins)
        return C4SCORE_WIN_NOW(p->moves);
    if (p->moves + 1 == C4_CELLS)
        return 0;
    if (s->aborted)
        return C4S_UNKNOWN;
    int v = solve_node(s, cur ^ mask, mask | m, p->moves + 1, 0);
    return v == C4S_UNKNOWN ? v : -v;
}

int c4s_analyze(struct c4s *s, const struct c4_pos *p, int scores[C4_WIDTH])
{
    uint64_t cur, mask;
    begin_call(s, p, &cur, &mask);
    uint64_t wins = c4_winning_cells(cur, mask);
    uint64_t nodes = 0;
    int legal = 0;
    for (int c = 0; c < C4_WIDTH; c++) {
        scores[c] = C4S_UNKNOWN;
        uint64_t m = c4_playable_cells(mask) & c4_column_cells(c);
        if (!m)
            continue;
        legal++;
        scores[c] = column_score(s, p, cur, mask, m, wins);
        nodes += s->nodes;
        s->nodes = 0;
    }
    s->nodes = nodes;
    return legal;
}

/* 1 when playing m (a legal move bit) from p keeps p's score v, 0 when not,
 * -1 when a budget ran out: one null-window test (is the opponent held to
 * -v?) instead of an exact solve. safe: p's non-losing moves. */
static int keeps_score(struct c4s *s, const struct c4_pos *p, uint64_t cur, uint64_t mask,
                       uint64_t m, uint64_t safe, int v)
{
    if (p->moves + 1 == C4_CELLS)
        return v == 0;
    if (!(m & safe))
        return v == -C4SCORE_WIN_NOW(p->moves + 1);   /* the opponent wins at once */
    int r = -negamax(s, cur ^ mask, mask | m, c4_winning_cells(cur | m, mask | m), p->moves + 1,
                     -v, -v + 1);
    if (s->aborted)
        return -1;
    return r >= v;
}

int c4s_best_move(struct c4s *s, const struct c4_pos *p, int *score)
{
    uint64_t cur, mask;
    begin_call(s, p, &cur, &mask);
    uint64_t moves = c4_playable_cells(mask), wins = c4_winning_cells(cur, mask) & moves;
    int best = -1, v;
    if (wins) {
        best = __builtin_ctzll(wins) / C4_COL_BITS;
        v = C4SCORE_WIN_NOW(p->moves);
    } else {
        v = solve_node(s, cur, mask, p->moves, 0);
        if (s->aborted)
            return -1;
        /* The lowest column that keeps the score. */
        uint64_t safe = c4_non_losing_moves(mask, c4_winning_cells(cur ^ mask, mask));
        for (int c = 0; c < C4_WIDTH && best < 0; c++) {
            uint64_t m = moves & c4_column_cells(c);
            int keeps = m ? keeps_score(s, p, cur, mask, m, safe, v) : 0;
            if (keeps < 0)
                return -1;
            if (keeps)
                best = c;
        }
    }
    if (score)
        *score = v;
    return best;
}

int c4s_init(struct c4s *s, size_t tt_bytes)
{
    *s = (struct c4s){ .threads = 1 };
    return c4tt_init(&s->tt, tt_bytes);
}

static void free_helpers(struct c4s *s)
{
    for (int i = 0; i < s->threads - 1; i++)
        c4tt_free(&s->helper[i].tt);
    free(s->helper);
    free(s->team);
    s->helper = NULL;
    s->team = NULL;
    s->threads = 1;
}

void c4s_free(struct c4s *s)
{
    free_helpers(s);
    c4tt_free(&s->tt);
}

void c4s_clear(struct c4s *s)
{
    c4tt_clear(&s->tt);
    for (int i = 0; i < s->threads - 1; i++)
        c4tt_clear(&s->helper[i].tt);
}

int c4s_set_threads(struct c4s *s, int threads)
{
    assert(threads >= 1 && threads <= C4S_MAX_THREADS);
    free_helpers(s);
    if (threads == 1)
        return 0;
    s->helper = calloc((size_t)threads - 1, sizeof *s->helper);
    s->team = calloc(1, sizeof *s->team);
    if (!s->helper || !s->team) {
        free_helpers(s);
        return -1;
    }
    for (int i = 0; i < threads - 1; i++) {
        s->helper[i] = (struct c4s){ .threads = 1, .jitter = i + 1 };
        if (c4tt_init_sharing(&s->helper[i].tt, &s->tt) != 0) {
            s->threads = i + 1;
            free_helpers(s);
            return -1;
        }
    }
    s->threads = threads;
    return 0;
}

void c4s_set_idle_only(struct c4s *s, int on)
{
    s->idle_only = on;
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
