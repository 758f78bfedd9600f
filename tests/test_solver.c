/*
 * test_solver.c - the perfect Connect-4 solver (c4solver.h): scores on
 * hand-picked positions checked against a plain reference negamax written
 * here (no table, no move pruning or ordering), the tutorial's
 * examples, weak and strong agreeing, mirror images, best moves, budgets,
 * move-string errors, and samples of the public test sets when
 * ../shared/reference is there (`make bench-solver` runs them whole).
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <criterion/redirect.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include "games/connect4/c4bound.h"
#include "arena/c4key.h"
#include "games/connect4/c4moves.h"
#include "arena/c4solver.h"
#include "arena/c4tt.h"
#include "arena/rng.h"
#include "c4_testutil.h"

#define TT_BYTES ((size_t)4 << 20)
#define MOVES_MAX 64
#define SETS_DIR "../shared/reference/connect4-testsets"
#define SET_SAMPLE 60
/* The reference is exhaustive: only for positions this near the end (the
 * tutorial's early examples carry the tutorial's published scores). */
#define REFERENCE_MAX_EMPTY 12

/* The reference: negamax over every legal move, alpha-beta only, scored by
 * the test sets' rule (22 minus the winner's discs at the end). */
static int reference(const struct c4_pos *p, int alpha, int beta)
{
    if (p->moves == C4_CELLS)
        return 0;
    for (int c = 0; c < C4_WIDTH; c++) {
        if (!c4_can_play(p, c))
            continue;
        struct c4_pos q = *p;
        c4_play(&q, c);
        if (c4_has_four(q.disc[p->to_move]))
            return (C4_CELLS + 1 - p->moves) / 2;
    }
    for (int c = 0; c < C4_WIDTH; c++) {
        if (!c4_can_play(p, c))
            continue;
        struct c4_pos q = *p;
        c4_play(&q, c);
        int v = -reference(&q, -beta, -alpha);
        if (v >= beta)
            return v;
        if (v > alpha)
            alpha = v;
    }
    return alpha;
}

struct scored {
    char moves[MOVES_MAX];
    int score;          /* known: the tutorial's, or the reference's below */
    char what[MOVES_MAX];
};

ParameterizedTestParameters(solver, hand_picked_positions)
{
    static struct scored cases[] = {
        { "4455", 18, "the tutorial: wins with its 4th disc" },
        { "44455554221", -15, "the tutorial: loses to the opponent's 7th disc" },
        { "112233", 18, "an immediate win in column 4" },
        { "44335", -18, "an open three on the bottom row: two threats, lost" },
        { "545134666557644476121554316222", -1, "no threat on the board: a zugzwang loss" },
        { "612446361123226564136743342112", 2, "no threat on the board: a zugzwang win" },
        { "746531441472644337251357665366", 0, "a forced draw" },
        { "216161531324424664726136474321", 0, "a forced draw" },
        { "425425561655514714266671776144", -3, "late loss, no immediate threat" },
    };
    return cr_make_param_array(struct scored, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct scored *c, solver, hand_picked_positions)
{
    struct c4s s;
    cr_assert_eq(c4s_init(&s, TT_BYTES), 0);
    struct c4_pos p = pos_from_moves(c->moves);
    int got = c4s_solve(&s, &p, 0);
    if (C4_CELLS - p.moves <= REFERENCE_MAX_EMPTY) {
        int ref = reference(&p, -C4SCORE_MAX - 1, C4SCORE_MAX + 1);
        cr_expect_eq(ref, c->score, "%s (%s): the reference says %d, the table %d", c->moves,
                     c->what, ref, c->score);
    }
    cr_expect_eq(got, c->score, "%s (%s): solved %d, expected %d", c->moves, c->what, got,
                 c->score);
    int weak = c4s_solve(&s, &p, 1);
    int sign = (c->score > 0) - (c->score < 0);
    cr_expect_eq(weak, sign, "%s: weak %d, expected %d", c->moves, weak, sign);
    c4s_free(&s);
}

/* Random games stopped at REFERENCE_MAX_EMPTY cells from the end, first
 * player to move, not won and no win at once for either side, that the
 * claimeven bound checks are drawn from; the seed fixes them. */
#define EVENS_GAMES 3000
#define EVENS_SEED 28

/* A random game of C4_CELLS - REFERENCE_MAX_EMPTY discs with nobody able to
 * win at once; 0 when the game went another way. */
static int random_quiet_position(struct rng *r, struct c4_pos *p)
{
    c4_init(p);
    while (p->moves < C4_CELLS - REFERENCE_MAX_EMPTY) {
        /* Moves that neither win nor leave the opponent a win at once. */
        uint64_t mask = p->disc[0] | p->disc[1], cur = p->disc[p->to_move];
        uint64_t quiet = c4_non_losing_moves(mask, c4_winning_cells(cur ^ mask, mask))
                         & ~c4_winning_cells(cur, mask);
        int cols[C4_WIDTH], n = 0;
        for (int c = 0; c < C4_WIDTH; c++)
            if (quiet & c4_column_cells(c))
                cols[n++] = c;
        if (n == 0)
            return 0;
        c4_play(p, cols[rng_below(r, (uint32_t)n)]);
    }
    uint64_t mask = p->disc[0] | p->disc[1];
    return !(c4_winning_cells(p->disc[p->to_move], mask) & c4_playable_cells(mask));
}

/* The claimeven bound (c4bound_evens) is never below the exact score (the
 * reference's), and it decides a share of such late positions: it fires
 * (is below C4BOUND_NONE) on many and equals the score on some. */
Test(solver, evens_bound_is_never_below_the_exact_score)
{
    struct rng r;
    rng_seed(&r, EVENS_SEED);
    int checked = 0, fired = 0, exact = 0;
    for (int g = 0; g < EVENS_GAMES; g++) {
        struct c4_pos p;
        if (!random_quiet_position(&r, &p))
            continue;
        uint64_t mask = p.disc[0] | p.disc[1];
        int bound = c4bound_evens(p.disc[p.to_move], mask);
        int ref = reference(&p, -C4SCORE_MAX - 1, C4SCORE_MAX + 1);
        checked++;
        fired += bound < C4BOUND_NONE;
        exact += bound == ref;
        cr_expect_geq(bound, ref, "game %d (player %d to move, discs %llx / %llx): bound %d, "
                      "exact score %d", g, p.to_move + 1, (unsigned long long)p.disc[0],
                      (unsigned long long)p.disc[1], bound, ref);
    }
    cr_expect_gt(checked, EVENS_GAMES / 4, "only %d quiet positions", checked);
    cr_expect_gt(fired, checked / 10, "the bound fired on %d of %d", fired, checked);
    cr_expect_gt(exact, 0, "the bound was exact on none of %d", fired);
}

/* Hand-made cases of the claimeven bound: the zugzwang loss of the tutorial
 * (no threat on the board; claimeven wins for the second player, with its
 * last disc), and the empty board (our bottom row comes before any four of
 * theirs: no bound; the first player wins). */
struct evens_case {
    char moves[MOVES_MAX];
    int bound;
    char what[MOVES_MAX];
};

ParameterizedTestParameters(solver, evens_bound_cases)
{
    static struct evens_case cases[] = {
        { "545134666557644476121554316222", -1, "zugzwang loss, score -1" },
        { "", C4BOUND_NONE, "the empty board (won by the first player)" },
    };
    return cr_make_param_array(struct evens_case, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct evens_case *c, solver, evens_bound_cases)
{
    struct c4_pos p = pos_from_moves(c->moves);
    int got = c4bound_evens(p.disc[p.to_move], p.disc[0] | p.disc[1]);
    cr_expect_eq(got, c->bound, "%s (%s): bound %d, expected %d", c->moves, c->what, got,
                 c->bound);
}

/* On every position of the public test sets with the first player to move,
 * the claimeven bound is at least the published score. */
Test(solver, evens_bound_holds_on_the_public_sets)
{
    static const char *const sets[] = { "Test_L3_R1", "Test_L2_R1", "Test_L2_R2",
                                        "Test_L1_R1", "Test_L1_R2", "Test_L1_R3" };
    int fired = 0;
    for (size_t i = 0; i < sizeof sets / sizeof *sets; i++) {
        char path[256], moves[MOVES_MAX];
        snprintf(path, sizeof path, "%s/%s", SETS_DIR, sets[i]);
        FILE *f = fopen(path, "r");
        if (!f)
            cr_skip_test("%s is not here", path);
        int expected, line = 0;
        while (fscanf(f, "%63s %d", moves, &expected) == 2) {
            line++;
            struct c4_pos p = pos_from_moves(moves);
            if (p.moves & 1)
                continue;
            int bound = c4bound_evens(p.disc[p.to_move], p.disc[0] | p.disc[1]);
            fired += bound < C4BOUND_NONE;
            cr_expect_geq(bound, expected, "%s line %d (%s): bound %d, published %d", sets[i],
                          line, moves, bound, expected);
        }
        fclose(f);
    }
    cr_expect_gt(fired, 0, "the bound fired on no position of the sets");
}

/* The move string with every column mirrored (1 <-> 7). */
static void mirror_moves(const char *in, char *out)
{
    size_t i = 0;
    for (; in[i]; i++)
        out[i] = (char)('1' + '7' - in[i]);
    out[i] = '\0';
}

/* Every position of the reference check, mirrored, scores the same, and
 * the best move is mirrored too (unless the mirrored column ties lower). */
Test(solver, mirror_images_score_the_same)
{
    static const char *const positions[] = {
        "545134666557644476121554316222", "612446361123226564136743342112",
        "425425561655514714266671776144", "4433", "44335", "112233",
    };
    struct c4s s;
    cr_assert_eq(c4s_init(&s, TT_BYTES), 0);
    for (size_t i = 0; i < sizeof positions / sizeof *positions; i++) {
        char m[MOVES_MAX];
        mirror_moves(positions[i], m);
        struct c4_pos a = pos_from_moves(positions[i]), b = pos_from_moves(m);
        int sa = c4s_solve(&s, &a, 0);
        c4s_clear(&s);
        int sb = c4s_solve(&s, &b, 0);
        cr_expect_eq(sa, sb, "%s scores %d, its mirror %s %d", positions[i], sa, m, sb);
    }
    c4s_free(&s);
}

/* A call files a position and its mirror image under one key only when its
 * root allows both below it (no cell where the root has one side's disc and
 * its mirror image the other's); either way it reads what calls of the
 * other kind left in a shared table, and the scores stay those of a fresh
 * table. */
Test(solver, mirror_keys_only_where_the_root_allows_mirror_images)
{
    static const struct { const char *moves; int mirror; } roots[] = {
        { "4433521", 1 }, { "443352135", 0 }, { "443352145", 0 }, { "443352133", 1 },
        { "4433561", 1 }, { "443356145", 0 }, { "443356131", 1 }, { "443356135", 0 },
        { "545134666557644476121554316222", 0 }, { "4433", 1 },
    };
    struct c4s shared, fresh;
    cr_assert_eq(c4s_init(&shared, TT_BYTES), 0);
    cr_assert_eq(c4s_init(&fresh, TT_BYTES), 0);
    for (size_t i = 0; i < sizeof roots / sizeof *roots; i++) {
        struct c4_pos p = pos_from_moves(roots[i].moves);
        c4s_clear(&fresh);
        int want = c4s_solve(&fresh, &p, 0);
        int got = c4s_solve(&shared, &p, 0);
        cr_expect_eq(shared.mirror, roots[i].mirror, "\"%s\": mirror keys %d, expected %d",
                     roots[i].moves, shared.mirror, roots[i].mirror);
        cr_expect_eq(got, want, "\"%s\" after the others: %d, with a fresh table %d",
                     roots[i].moves, got, want);
    }
    c4s_free(&shared);
    c4s_free(&fresh);
}

/* The best move is the lowest column among those of the highest score, and
 * its score is the position's. */
Test(solver, best_move_is_the_lowest_column_of_the_best_score)
{
    static const char *const positions[] = {
        "4433", "112233", "44335", "545134666557644476121554316222",
        "612446361123226564136743342112", "746531441472644337251357665366",
        "4455", "44455554221",
    };
    struct c4s s;
    cr_assert_eq(c4s_init(&s, TT_BYTES), 0);
    for (size_t i = 0; i < sizeof positions / sizeof *positions; i++) {
        struct c4_pos p = pos_from_moves(positions[i]);
        int scores[C4_WIDTH], want = -1;
        c4s_analyze(&s, &p, scores);
        for (int c = 0; c < C4_WIDTH; c++)
            if (scores[c] != C4S_UNKNOWN && (want < 0 || scores[c] > scores[want]))
                want = c;
        int score;
        int best = c4s_best_move(&s, &p, &score);
        cr_expect_eq(best, want, "%s: best move column %d, the scores say %d", positions[i],
                     best + 1, want + 1);
        cr_expect_eq(score, scores[want], "%s: best score %d, the column's %d", positions[i],
                     score, scores[want]);
        cr_expect_eq(score, c4s_solve(&s, &p, 0), "%s: best score is not the position's",
                     positions[i]);
    }
    c4s_free(&s);
}

/* A win now beats a slower one: in "112233" column 4 wins at once (score
 * 18), while other columns still win later for player 1. */
Test(solver, quickest_win_is_preferred)
{
    struct c4s s;
    cr_assert_eq(c4s_init(&s, TT_BYTES), 0);
    struct c4_pos p = pos_from_moves("112233");
    int score;
    cr_expect_eq(c4s_best_move(&s, &p, &score), 3, "112233: expected column 4");
    cr_expect_eq(score, 18);
    c4s_free(&s);
}

/* A budget that runs out gives C4S_UNKNOWN (this position takes far more
 * than one node), and what the aborted search left in the table does not
 * change the next full solve. */
Test(solver, budget_runs_out_cleanly)
{
    struct c4s s;
    cr_assert_eq(c4s_init(&s, TT_BYTES), 0);
    struct c4_pos p = pos_from_moves("4433521");
    c4s_set_budget(&s, 0, 1);
    cr_expect_eq(c4s_solve(&s, &p, 0), C4S_UNKNOWN, "a one-node budget solved it");
    cr_expect_eq(c4s_best_move(&s, &p, NULL), -1, "a one-node budget found a move");
    c4s_set_budget(&s, 0, 0);
    int v = c4s_solve(&s, &p, 0);
    cr_expect_eq(v, 6, "after an aborted solve: %d, expected 6", v);
    c4s_free(&s);
}

/* Where the solver files a position (the near table, the far one, or the
 * near one first and then far once the call outgrows it, carrying its
 * entries over) changes the work, never a score: the same positions solve
 * the same with a fresh table under every switch point. The first four
 * lines are Begin-Easy's (published scores); 4433521 takes about half a
 * million nodes, so every finite switch point is passed mid-search. */
Test(solver, table_layout_never_changes_a_score)
{
    static const struct { const char *moves; int score; } positions[] = {
        { "32164625", 11 }, { "243335424257", 12 }, { "6146", 18 }, { "5747415", -12 },
        { "4433521", 6 }, { "545134666557644476121554316222", -1 },
        { "746531441472644337251357665366", 0 },
    };
    static const uint64_t switch_at[] = { 0, 50, 5000, UINT64_MAX };
    struct c4s s;
    cr_assert_eq(c4s_init(&s, TT_BYTES), 0);
    cr_expect_gt(s.tt.small_nodes, 0, "the default layout starts near");
    for (size_t k = 0; k < sizeof switch_at / sizeof *switch_at; k++) {
        s.tt.small_nodes = switch_at[k];
        int went_far = 0;
        for (size_t i = 0; i < sizeof positions / sizeof *positions; i++) {
            c4s_clear(&s);
            struct c4_pos p = pos_from_moves(positions[i].moves);
            int got = c4s_solve(&s, &p, 0);
            cr_expect_eq(got, positions[i].score, "%s, switching at %llu nodes: solved %d, "
                         "expected %d", positions[i].moves, (unsigned long long)switch_at[k],
                         got, positions[i].score);
            cr_expect_eq(s.tt.far_mode, s.nodes > switch_at[k], "%s: %llu nodes, switch at %llu, "
                         "far %d", positions[i].moves, (unsigned long long)s.nodes,
                         (unsigned long long)switch_at[k], s.tt.far_mode);
            went_far |= s.tt.far_mode;
        }
        cr_expect_eq(went_far, switch_at[k] != UINT64_MAX, "switch at %llu: far %d",
                     (unsigned long long)switch_at[k], went_far);
    }
    c4s_free(&s);
}

/* The near table is 512 KiB, or the far table's size when that is smaller:
 * callers that init a solver per tiny input (the analyzer's fuzz target)
 * ask for the smallest table and must not pay for a 512 KiB clear. */
Test(solver, near_table_is_never_larger_than_the_far_one)
{
    static const size_t sizes[] = { 0, (size_t)64 << 10, (size_t)1 << 20, (size_t)64 << 20 };
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        struct c4s s;
        cr_assert_eq(c4s_init(&s, sizes[i]), 0);
        size_t near = s.tt.near_buckets * 2 * sizeof(uint64_t);
        size_t far = s.tt.buckets * 2 * sizeof(uint64_t);
        size_t want = far < ((size_t)512 << 10) ? far : (size_t)512 << 10;
        cr_expect_eq(near, want, "tt_bytes %zu: far %zu bytes, near %zu, expected %zu",
                     sizes[i], far, near, want);
        struct c4_pos p = pos_from_moves("4433521");
        cr_expect_eq(c4s_solve(&s, &p, 0), 6, "tt_bytes %zu: 4433521 is not 6", sizes[i]);
        c4s_free(&s);
    }
}

/* A table entry gives back every field it was filed with, at the ends of
 * each field's range (c4tt.h's entry layout), for positions filed near and
 * far. */
Test(solver, table_entries_keep_every_field)
{
    static const int scores[] = { -C4SCORE_MAX, -1, 0, 1, C4SCORE_MAX };
    static const int moves[] = { 0, C4_CELLS - C4TT_NEAR_MAX_EMPTY, C4_CELLS - 1 };
    struct c4tt t;
    cr_assert_eq(c4tt_init(&t, (size_t)1 << 20), 0);
    t.far_mode = 1;
    uint64_t key = C4KEY_MASK;
    for (size_t i = 0; i < sizeof scores / sizeof *scores; i++)
        for (size_t j = 0; j < sizeof moves / sizeof *moves; j++)
            for (int bound = C4TT_LOWER; bound <= C4TT_EXACT; bound++) {
                int col = (int)(i + j + (size_t)bound) % C4_WIDTH;
                key = (key * 0x9E3779B97F4A7C15u + 1) & C4KEY_MASK;
                c4tt_put(&t, key, moves[j], scores[i], bound, col);
                uint64_t e = c4tt_get(&t, key, moves[j]);
                cr_expect(e != 0, "key %llx with %d discs not found", (unsigned long long)key,
                          moves[j]);
                cr_expect_eq(c4tt_entry_score(e), scores[i], "score %d read as %d", scores[i],
                             c4tt_entry_score(e));
                cr_expect_eq(c4tt_entry_bound(e), bound, "bound %d read as %d", bound,
                             c4tt_entry_bound(e));
                cr_expect_eq(c4tt_entry_move(e), col, "column %d read as %d", col,
                             c4tt_entry_move(e));
            }
    c4tt_free(&t);
}

/* The solver's contract: a finished game has no score to search for, and
 * asking for one stops the program (assert) instead of returning garbage.
 * The assert's message goes into Criterion's pipe, not to the terminal,
 * where a passing run would show it as a failure. */
Test(solver, a_finished_game_breaks_the_contract, .signal = SIGABRT, .init = cr_redirect_stderr)
{
    struct c4_pos p;
    c4_init(&p);
    for (const char *m = "1212121"; *m; m++)
        c4_play(&p, *m - '1');
    struct c4s s;
    cr_assert_eq(c4s_init(&s, 0), 0);
    c4s_solve(&s, &p, 0);
    c4s_free(&s);
}

struct bad_moves {
    char moves[MOVES_MAX];
    int at;
    char why[MOVES_MAX];
};

ParameterizedTestParameters(solver, bad_move_strings)
{
    static struct bad_moves cases[] = {
        { "48", 2, "not a column digit 1-7" },
        { "40", 2, "not a column digit 1-7" },
        { "4a4", 2, "not a column digit 1-7" },
        { "1111111", 7, "column is full" },
        { "12121212", 8, "game is already over" },
        { "1212121", 8, "game is already over" },
    };
    return cr_make_param_array(struct bad_moves, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct bad_moves *c, solver, bad_move_strings)
{
    struct c4_pos p;
    const char *why = "";
    int at = c4moves_parse(c->moves, strlen(c->moves), &p, &why);
    cr_expect_eq(at, c->at, "'%s': bad at %d, expected %d", c->moves, at, c->at);
    cr_expect_str_eq(why, c->why, "'%s': '%s'", c->moves, why);
}

/* A sample of each quick public set: every score as published. */
struct set_name {
    char name[MOVES_MAX];
};

ParameterizedTestParameters(solver, public_test_set_samples)
{
    static struct set_name sets[] = { { "Test_L3_R1" }, { "Test_L2_R1" }, { "Test_L1_R1" } };
    return cr_make_param_array(struct set_name, sets, sizeof sets / sizeof *sets);
}

ParameterizedTest(struct set_name *set, solver, public_test_set_samples)
{
    char path[256], moves[MOVES_MAX];
    snprintf(path, sizeof path, "%s/%s", SETS_DIR, set->name);
    FILE *f = fopen(path, "r");
    if (!f)
        cr_skip_test("%s is not here", path);
    struct c4s s;
    cr_assert_eq(c4s_init(&s, TT_BYTES), 0);
    int expected, n = 0;
    while (n < SET_SAMPLE && fscanf(f, "%63s %d", moves, &expected) == 2) {
        struct c4_pos p = pos_from_moves(moves);
        int got = c4s_solve(&s, &p, 0);
        cr_expect_eq(got, expected, "%s line %d (%s): solved %d, published %d", set->name,
                     n + 1, moves, got, expected);
        n++;
    }
    fclose(f);
    cr_expect_eq(n, SET_SAMPLE, "%s: read %d positions", set->name, n);
    c4s_free(&s);
}

/* Lazy SMP (c4s_set_threads): with 1, 2 or 4 threads sharing one table, and
 * a table kept from one position to the next, every score is the published
 * one (Begin-Easy's first lines and positions of the layout test, the same
 * table going far on the larger ones), and clearing between positions does
 * not change that (tests/tsan/solver_threads.c runs the same under
 * ThreadSanitizer, `make tsan`). */
struct threads_case {
    int threads;
};

ParameterizedTestParameters(solver, threads_give_the_published_scores)
{
    static struct threads_case cases[] = { { 1 }, { 2 }, { 4 } };
    return cr_make_param_array(struct threads_case, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct threads_case *c, solver, threads_give_the_published_scores)
{
    static const struct { const char *moves; int score; } positions[] = {
        { "32164625", 11 }, { "243335424257", 12 }, { "6146", 18 }, { "5747415", -12 },
        { "4433521", 6 }, { "545134666557644476121554316222", -1 },
        { "746531441472644337251357665366", 0 },
    };
    struct c4s s;
    cr_assert_eq(c4s_init(&s, TT_BYTES), 0);
    cr_assert_eq(c4s_set_threads(&s, c->threads), 0);
    cr_expect_eq(s.threads, c->threads);
    s.tt.small_nodes = 5000;   /* every larger solve also goes far mid-search */
    for (int round = 0; round < 2; round++)
        for (size_t i = 0; i < sizeof positions / sizeof *positions; i++) {
            if (round)
                c4s_clear(&s);
            struct c4_pos p = pos_from_moves(positions[i].moves);
            int got = c4s_solve(&s, &p, 0);
            cr_expect_eq(got, positions[i].score, "%d threads, %s (%s table): solved %d, "
                         "expected %d", c->threads, positions[i].moves,
                         round ? "cleared" : "kept", got, positions[i].score);
            cr_expect_eq(c4s_solve(&s, &p, 1), (positions[i].score > 0) - (positions[i].score < 0),
                         "%d threads, %s: weak", c->threads, positions[i].moves);
        }
    c4s_free(&s);
}

/* Helpers start only when the main search goes far (c4tt.h's small_nodes):
 * a small solve with 4 threads is the one-thread solve, node for node, and
 * one that goes far brings them in (more nodes, the sum over the threads). */
Test(solver, helpers_start_only_for_solves_that_go_far)
{
    struct c4_pos p = pos_from_moves("32164625");
    uint64_t nodes[2];
    for (int i = 0; i < 2; i++) {
        struct c4s s;
        cr_assert_eq(c4s_init(&s, TT_BYTES), 0);
        cr_assert_eq(c4s_set_threads(&s, i ? 4 : 1), 0);
        cr_expect_eq(c4s_solve(&s, &p, 0), 11);
        nodes[i] = s.nodes;
        c4s_free(&s);
    }
    cr_assert_lt(nodes[0], 100000, "the position is a small solve: %llu nodes",
                 (unsigned long long)nodes[0]);
    cr_expect_eq(nodes[1], nodes[0], "4 threads visited %llu nodes, 1 thread %llu",
                 (unsigned long long)nodes[1], (unsigned long long)nodes[0]);
}

/* Going back to one thread frees the helpers and still solves. */
Test(solver, threads_can_be_set_again)
{
    struct c4s s;
    cr_assert_eq(c4s_init(&s, TT_BYTES), 0);
    cr_assert_eq(c4s_set_threads(&s, 3), 0);
    cr_assert_eq(c4s_set_threads(&s, 1), 0);
    cr_expect_eq(s.threads, 1);
    cr_expect_null(s.helper);
    struct c4_pos p = pos_from_moves("4433521");
    cr_expect_eq(c4s_solve(&s, &p, 0), 6);
    c4s_free(&s);
}
