/*
 * test_learn.c - the Q-learning player: its attributes, Q function, update
 * rule, weights files and training series.
 *
 * Covers:
 *   - every attribute on hand-built boards, with the count it must find, and
 *     all of them against a brute-force reading of their definitions (every
 *     window of four walked cell by cell) on thousands of random positions;
 *     c4_winning_cells and c4_playable_cells the same way;
 *   - Q = w . f, the greedy choice and its centre tie-break, the search's
 *     leaf value V(s) = max_a Q(s, a);
 *   - the update rule on a hand-computed case (terminal and not), and the
 *     learner's turn: no update on its first move, the greedy pick and its
 *     attributes remembered, exploration;
 *   - weights files: bit-exact round trips, the shortest number text, and
 *     every rejection with its line, column and message;
 *   - training series: same seed, same bits; sides switching; the window
 *     rates; the JSON log line; opponents by name;
 *   - the learned players: qlearn takes a win and blocks a loss, qlearn-ab's
 *     value is the alpha-beta value at the same depth, and the search with a
 *     context evaluation agrees with plain minimax.
 *
 * Boards are written as rows of text, top row first, as in a board file
 * ('.' empty, '1' and '2' the players' discs).
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena/features.h"
#include "arena/player.h"
#include "arena/qfunc.h"
#include "arena/rng.h"
#include "arena/search.h"
#include "arena/learn.h"
#include "arena/weights.h"
#include "c4_testutil.h"

#define RANDOM_POSITIONS 3000
#define SEARCH_POSITIONS 150
#define SEARCH_DEPTH     3
#define SERIES_GAMES     300
#define SMALL_TT_BYTES   (1u << 16)
#define SEED_FEATURES    UINT64_C(0xFEA7)
#define SEED_SEARCH      UINT64_C(0x5EA2C4)
#define SEED_ROUND_TRIP  UINT64_C(0x2017)

/* ---- helpers ------------------------------------------------------------ */

/* A random unfinished connect4 position after a random number of plies. */
static struct c4_pos random_position(struct rng *r)
{
    for (;;) {
        struct c4_pos p;
        c4_init(&p);
        int plies = (int)rng_below(r, C4_CELLS - 1);
        int over = 0;
        for (int i = 0; i < plies && !over; i++) {
            int moves[GAME_MAX_MOVES];
            int n = game_connect4.gen(&p, moves);
            c4_play(&p, moves[rng_below(r, (uint32_t)n)]);
            over = c4_has_four(p.disc[p.to_move ^ 1]);
        }
        if (!over)
            return p;
    }
}

static uint64_t occupied(const struct c4_pos *p)
{
    return p->disc[0] | p->disc[1];
}

/* ---- brute force: the attributes as the seed words them ----------------- */

struct brute {
    uint64_t x, occ;
    uint64_t threats;   /* empty cells completing a window of x's */
};

static void brute_window(const int cells[LINE_LEN][2], void *ctx_)
{
    struct brute *b = ctx_;
    int empty = -1, mine = 0;
    for (int k = 0; k < LINE_LEN; k++) {
        uint64_t bit = C4_BIT(cells[k][0], cells[k][1]);
        if (b->x & bit)
            mine++;
        else if (!(b->occ & bit))
            empty = k;
    }
    if (mine == LINE_LEN - 1 && empty >= 0)
        b->threats |= C4_BIT(cells[empty][0], cells[empty][1]);
}

static uint64_t brute_threats(uint64_t x, uint64_t occ)
{
    struct brute b = { x, occ, 0 };
    for_each_window(brute_window, &b);
    return b.threats;
}

static int brute_playable(uint64_t occ, int col, int row)
{
    return !(occ & C4_BIT(col, row)) && (row == 0 || (occ & C4_BIT(col, row - 1)));
}

static uint64_t brute_playable_mask(uint64_t occ)
{
    uint64_t m = 0;
    for (int col = 0; col < C4_WIDTH; col++)
        for (int row = 0; row < C4_HEIGHT; row++)
            if (brute_playable(occ, col, row))
                m |= C4_BIT(col, row);
    return m;
}

struct brute_counts {
    int pairs, threats, odd, even, win, slots;
};

static struct brute_counts brute_counts(uint64_t x, uint64_t occ)
{
    struct brute_counts c = { 0 };
    uint64_t t = brute_threats(x, occ);
    for (int col = 0; col < C4_WIDTH; col++) {
        for (int row = 0; row < C4_HEIGHT; row++) {
            uint64_t bit = C4_BIT(col, row);
            if (t & bit) {
                c.threats++;
                /* Row numbers from 1 at the bottom: bit row 0 is row 1, odd. */
                if (row % 2 == 0)
                    c.odd++;
                else
                    c.even++;
                if (brute_playable(occ, col, row))
                    c.win++;
                if (row + 1 < C4_HEIGHT && (t & C4_BIT(col, row + 1)))
                    c.pairs++;
            }
            if (brute_playable(occ, col, row)) {
                uint64_t fresh = brute_threats(x | bit, occ | bit) & ~t;
                int immediate = 0;
                for (int c2 = 0; c2 < C4_WIDTH; c2++)
                    for (int r2 = 0; r2 < C4_HEIGHT; r2++)
                        if ((fresh & C4_BIT(c2, r2)) && brute_playable(occ | bit, c2, r2))
                            immediate++;
                if (immediate >= 2)
                    c.slots++;
            }
        }
    }
    return c;
}

/* ---- c4_winning_cells, c4_playable_cells -------------------------------- */

Test(features, winning_and_playable_cells_match_brute_force)
{
    struct rng r;
    rng_seed(&r, SEED_FEATURES);
    for (int i = 0; i < RANDOM_POSITIONS; i++) {
        struct c4_pos p = random_position(&r);
        uint64_t occ = occupied(&p);
        for (int side = 0; side < 2; side++) {
            uint64_t got = c4_winning_cells(p.disc[side], occ);
            uint64_t want = brute_threats(p.disc[side], occ);
            cr_assert_eq(got, want, "position %d, player %d: threats %#llx, expected %#llx", i,
                         side + 1, (unsigned long long)got, (unsigned long long)want);
        }
        cr_assert_eq(c4_playable_cells(occ), brute_playable_mask(occ), "position %d", i);
    }
}

Test(features, full_columns_have_no_playable_cell)
{
    const char *rows[C4_HEIGHT] = { "1......", "2......", "1......", "2......", "1......",
                                    "2......" };
    struct c4_pos p = pos_from_rows(rows, 1);
    uint64_t play = c4_playable_cells(occupied(&p));
    cr_assert_eq(__builtin_popcountll(play), C4_WIDTH - 1, "playable %#llx",
                 (unsigned long long)play);
    cr_assert_eq(play & C4_BIT(0, C4_HEIGHT - 1), 0);
}

/* ---- each attribute on hand-built boards -------------------------------- */

struct feat_case {
    char name[48];
    char rows[C4_HEIGHT][C4_WIDTH + 1];
    int player;   /* whose attributes: 1 or 2 */
    int pairs, threats, four, odd, even, win, slots;
};

ParameterizedTestParameters(features, counts_on_hand_built_boards)
{
    static struct feat_case cases[] = {
        /* No disc, no threat. */
        { "empty board",
          { ".......", ".......", ".......", ".......", ".......", "......." },
          1, 0, 0, 0, 0, 0, 0, 0 },
        /* Three in a row on the bottom, open at both ends: two threats, both
         * on row 1 and playable. */
        { "open three on row 1",
          { ".......", ".......", ".......", ".......", ".......", ".111.22" },
          1, 0, 2, 0, 2, 0, 2, 0 },
        /* X X _ X: the gap is the one threat. */
        { "split three",
          { ".......", ".......", ".......", ".......", ".......", "11.1222" },
          1, 0, 1, 0, 1, 0, 1, 0 },
        /* Three stacked discs: the cell on top, row 4 (even), playable. */
        { "vertical three",
          { ".......", ".......", ".......", "...1...", "...1.2.", "...1.22" },
          1, 0, 1, 0, 0, 1, 1, 0 },
        /* The seed's 2Threats example: XXX_O over OXX_X, the two gaps one
         * above the other; only the lower one is playable. */
        { "seed 2Threats example",
          { ".......", ".......", ".......", ".......", "111.2..", "211.1.." },
          1, 1, 2, 0, 1, 1, 1, 0 },
        /* A rising diagonal missing its top cell, which floats over an empty
         * cell: a threat on row 4, not playable. */
        { "diagonal threat not yet playable",
          { ".......", ".......", ".......", "..1....", ".12....", "122...." },
          1, 0, 1, 0, 0, 1, 0, 0 },
        /* Four in a row whose row is blocked at its end: no threat. */
        { "four in a row",
          { ".......", ".......", ".......", ".......", "222....", "1111222" },
          1, 0, 0, 1, 0, 0, 0, 0 },
        /* The seed's second SlotCreates2Threats example: _X*X_ on row 1; a
         * disc in * makes two playable threats at once. The outer empty
         * cells make one threat each, so they are not traps. */
        { "seed slot example, both ends",
          { ".......", ".......", ".......", ".......", ".......", ".1.1..." },
          1, 0, 0, 0, 0, 0, 0, 1 },
        /* The seed's first example: the slot on row 3 gives a vertical three
         * (threat above it) and a horizontal three (threat at its right end,
         * resting on a disc): two new playable threats. */
        { "seed slot example, vertical and horizontal",
          { ".......", ".......", ".......", ".2.2...", ".1212..", ".1211.." },
          2, 0, 0, 0, 0, 0, 0, 1 },
        /* The rival's view: player 2's threats on the same kind of board. */
        { "player 2 open three",
          { ".......", ".......", ".......", ".......", ".......", ".222.11" },
          2, 0, 2, 0, 2, 0, 2, 0 },
    };
    return cr_make_param_array(struct feat_case, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct feat_case *c, features, counts_on_hand_built_boards)
{
    const char *rows[C4_HEIGHT];
    for (int i = 0; i < C4_HEIGHT; i++)
        rows[i] = c->rows[i];
    struct c4_pos p = pos_from_rows(rows, 1);
    uint64_t x = p.disc[c->player - 1], occ = occupied(&p);
    cr_expect_eq(feat_2threats(x, occ), c->pairs, "%s: 2Threats %d, expected %d", c->name,
                 feat_2threats(x, occ), c->pairs);
    cr_expect_eq(feat_3inrow(x, occ), c->threats, "%s: 3InRow %d, expected %d", c->name,
                 feat_3inrow(x, occ), c->threats);
    cr_expect_eq(feat_4inrow(x), c->four, "%s: 4InRow %d, expected %d", c->name, feat_4inrow(x),
                 c->four);
    cr_expect_eq(feat_odd_threats(x, occ), c->odd, "%s: OddThreats %d, expected %d", c->name,
                 feat_odd_threats(x, occ), c->odd);
    cr_expect_eq(feat_even_threats(x, occ), c->even, "%s: EvenThreats %d, expected %d", c->name,
                 feat_even_threats(x, occ), c->even);
    cr_expect_eq(feat_3inrow_win(x, occ), c->win, "%s: 3InRowWin %d, expected %d", c->name,
                 feat_3inrow_win(x, occ), c->win);
    cr_expect_eq(feat_slot_creates_2threats(x, occ), c->slots,
                 "%s: SlotCreates2Threats %d, expected %d", c->name,
                 feat_slot_creates_2threats(x, occ), c->slots);
}

Test(features, counts_match_brute_force_on_random_positions)
{
    struct rng r;
    rng_seed(&r, SEED_FEATURES + 1);
    for (int i = 0; i < RANDOM_POSITIONS; i++) {
        struct c4_pos p = random_position(&r);
        uint64_t occ = occupied(&p);
        for (int side = 0; side < 2; side++) {
            uint64_t x = p.disc[side];
            struct brute_counts b = brute_counts(x, occ);
            cr_assert_eq(feat_2threats(x, occ), b.pairs, "position %d player %d: 2Threats", i,
                         side + 1);
            cr_assert_eq(feat_3inrow(x, occ), b.threats, "position %d player %d: 3InRow", i,
                         side + 1);
            cr_assert_eq(feat_odd_threats(x, occ), b.odd, "position %d player %d: Odd", i,
                         side + 1);
            cr_assert_eq(feat_even_threats(x, occ), b.even, "position %d player %d: Even", i,
                         side + 1);
            cr_assert_eq(feat_3inrow_win(x, occ), b.win, "position %d player %d: 3InRowWin", i,
                         side + 1);
            cr_assert_eq(feat_slot_creates_2threats(x, occ), b.slots,
                         "position %d player %d: SlotCreates2Threats %d, expected %d", i,
                         side + 1, feat_slot_creates_2threats(x, occ), b.slots);
        }
    }
}

/* feat_compute is the seven counts of each side, scaled, mine first. */
Test(features, compute_scales_the_counts_mine_then_rival)
{
    struct rng r;
    rng_seed(&r, SEED_FEATURES + 2);
    for (int i = 0; i < RANDOM_POSITIONS / 10; i++) {
        struct c4_pos p = random_position(&r);
        uint64_t occ = occupied(&p);
        double f[FEAT_COUNT];
        feat_compute(p.disc[0], p.disc[1], f);
        for (int side = 0; side < 2; side++) {
            uint64_t x = p.disc[side];
            const double *g = f + side * FEAT_RIVAL;
            double want[FEAT_PER_SIDE] = {
                [FEAT_2THREATS] = (double)feat_2threats(x, occ) / FEAT_PAIRS_MAX,
                [FEAT_3INROW] = (double)feat_3inrow(x, occ) / FEAT_CELLS_MAX,
                [FEAT_4INROW] = feat_4inrow(x),
                [FEAT_ODD_THREATS] = (double)feat_odd_threats(x, occ) / FEAT_CELLS_MAX,
                [FEAT_EVEN_THREATS] = (double)feat_even_threats(x, occ) / FEAT_CELLS_MAX,
                [FEAT_3INROW_WIN] = (double)feat_3inrow_win(x, occ) / FEAT_SLOTS_MAX,
                [FEAT_SLOT_CREATES_2THREATS] =
                    (double)feat_slot_creates_2threats(x, occ) / FEAT_SLOTS_MAX,
            };
            for (int k = 0; k < FEAT_PER_SIDE; k++) {
                cr_assert_eq(g[k], want[k], "position %d, %s: %g, expected %g", i,
                             feat_name(side * FEAT_RIVAL + k), g[k], want[k]);
                cr_assert(g[k] >= 0 && g[k] <= 1, "%s out of [0, 1]: %g",
                          feat_name(side * FEAT_RIVAL + k), g[k]);
            }
        }
    }
}

Test(features, after_is_from_the_movers_point_of_view)
{
    /* Player 2 to move completes a four in column 1: its 4InRow, not the
     * rival's. */
    const char *rows[C4_HEIGHT] = { ".......", ".......", "2......", "21.....", "21.....",
                                    "211...." };
    struct c4_pos p = pos_from_rows(rows, 2);
    double f[FEAT_COUNT];
    feat_after(&p, 0, f);
    cr_assert_eq(f[FEAT_4INROW], 1.0);
    cr_assert_eq(f[FEAT_RIVAL + FEAT_4INROW], 0.0);
}

Test(features, names_are_the_seeds_in_order)
{
    static const char *const want[FEAT_COUNT] = {
        "2Threats",      "3InRow",           "4InRow",          "OddThreats",
        "EvenThreats",   "3InRowWin",        "SlotCreates2Threats",
        "Rival2Threats", "Rival3InRow",      "Rival4InRow",     "RivalOddThreats",
        "RivalEvenThreats", "Rival3InRowWin", "RivalSlotCreates2Threats",
    };
    for (int i = 0; i < FEAT_COUNT; i++)
        cr_assert_str_eq(feat_name(i), want[i], "attribute %d", i);
}

/* ---- the Q function ---------------------------------------------------- */

Test(qfunc, value_is_the_dot_product)
{
    struct qf_weights w = { { 0 } };
    double f[FEAT_COUNT] = { 0 };
    w.w[FEAT_3INROW] = 2.0;
    w.w[FEAT_RIVAL + FEAT_3INROW_WIN] = -4.0;
    f[FEAT_3INROW] = 0.5;
    f[FEAT_RIVAL + FEAT_3INROW_WIN] = 0.25;
    f[FEAT_4INROW] = 1.0;   /* weight 0: adds nothing */
    cr_assert_eq(qf_value(&w, f), 0.0, "got %g", qf_value(&w, f));
    f[FEAT_3INROW] = 1.0;
    cr_assert_eq(qf_value(&w, f), 1.0, "got %g", qf_value(&w, f));
}

Test(qfunc, ties_go_to_the_centre)
{
    struct qf_weights zero = { { 0 } };
    struct c4_pos p;
    c4_init(&p);
    struct qf_choices c;
    cr_assert_eq(qf_choices(&zero, &p, &c), C4_WIDTH);
    cr_assert_eq(c.moves[qf_best(&c)], C4_WIDTH / 2, "picked column %d",
                 c.moves[qf_best(&c)] + 1);
    /* A higher Q beats the centre. */
    c.q[0] = 0.5;
    cr_assert_eq(qf_best(&c), 0);
    /* Equally far from the centre: the lower column. */
    c.q[0] = 0.0;
    c.q[2] = c.q[4] = 0.25;
    cr_assert_eq(qf_best(&c), 2);
}

Test(qfunc, to_eval_scales_and_clamps)
{
    cr_assert_eq(qf_to_eval(0.5), 5000);
    cr_assert_eq(qf_to_eval(-0.00004), 0);
    cr_assert_eq(qf_to_eval(1e9), QF_EVAL_MAX);
    cr_assert_eq(qf_to_eval(-1e9), -QF_EVAL_MAX);
    cr_assert_eq(qf_to_eval(NAN), 0);
}

/* The leaf value is the Q of the best move for the side to move. */
Test(qfunc, evaluate_is_the_best_q_of_the_side_to_move)
{
    struct qf_weights w = { { 0 } };
    w.w[FEAT_4INROW] = 1.0;
    w.w[FEAT_RIVAL + FEAT_3INROW_WIN] = -0.5;
    /* Player 1 to move wins in column 4. */
    const char *rows[C4_HEIGHT] = { ".......", ".......", ".......", ".......", ".......",
                                    "111.222" };
    struct c4_pos p = pos_from_rows(rows, 1);
    cr_assert_eq(qf_evaluate(&p, &w), qf_to_eval(1.0), "got %d", qf_evaluate(&p, &w));
    struct qf_choices c;
    qf_choices(&w, &p, &c);
    cr_assert_eq(c.moves[qf_best(&c)], 3);
}

/* ---- the update rule ---------------------------------------------------- */

/* Numbers chosen to be exact in binary: step = 1.75 / 14 = 0.125. */
#define HAND_ALPHA 1.75
#define HAND_GAMMA 0.5

static void hand_learner(struct learner *l, struct qf_weights *w)
{
    memset(w, 0, sizeof *w);
    w->w[0] = 0.5;
    w->w[1] = -0.25;
    learn_init(l, w, HAND_GAMMA, HAND_ALPHA, 0.0);
    l->has_prev = 1;
    l->prev[0] = 1.0;   /* Q(s, a) = 0.5 * 1 - 0.25 * 0.5 = 0.375 */
    l->prev[1] = 0.5;
}

Test(update, step_is_alpha_over_the_attribute_count)
{
    struct qf_weights w;
    struct learner l;
    hand_learner(&l, &w);
    cr_assert_eq(l.step, 0.125, "step %g", l.step);
}

/* delta = 0 + 0.5 * 0.25 - 0.375 = -0.25; w += 0.125 * delta * f. */
Test(update, one_step_with_bootstrap)
{
    struct qf_weights w;
    struct learner l;
    hand_learner(&l, &w);
    double delta = learn_update(&l, 0.0, 0.25, 0);
    cr_assert_eq(delta, -0.25, "delta %.17g", delta);
    cr_assert_eq(w.w[0], 0.46875, "w0 %.17g", w.w[0]);
    cr_assert_eq(w.w[1], -0.265625, "w1 %.17g", w.w[1]);
    for (int i = 2; i < FEAT_COUNT; i++)
        cr_assert_eq(w.w[i], 0.0, "w%d moved without its attribute", i);
}

/* A lost game: delta = -1 - 0.375, no bootstrap (next_max is ignored). */
Test(update, terminal_step_uses_the_reward_alone)
{
    struct qf_weights w;
    struct learner l;
    hand_learner(&l, &w);
    double delta = learn_update(&l, -1.0, 123.0, 1);
    cr_assert_eq(delta, -1.375, "delta %.17g", delta);
    cr_assert_eq(w.w[0], 0.328125, "w0 %.17g", w.w[0]);
    cr_assert_eq(w.w[1], -0.3359375, "w1 %.17g", w.w[1]);
}

Test(update, end_of_game_rewards_the_last_move_once)
{
    struct qf_weights w;
    struct learner l;
    hand_learner(&l, &w);
    /* Won: delta = 1 - 0.375. */
    cr_assert_eq(learn_end(&l, 1.0), 0.625);
    cr_assert_eq(w.w[0], 0.578125, "w0 %.17g", w.w[0]);
    cr_assert_eq(learn_end(&l, 1.0), -1.0, "a second end updates nothing");
    cr_assert_eq(w.w[0], 0.578125);
}

/* The learner's turns: the first has nothing to update; the second updates
 * the first move with the best Q of the new position, then picks greedily. */
Test(update, learner_turns)
{
    struct qf_weights w = { { 0 } };
    w.w[FEAT_3INROW] = 1.0;
    struct learner l;
    learn_init(&l, &w, LEARN_DEFAULT_GAMMA, LEARN_DEFAULT_ALPHA, 0.0);
    struct rng r;
    rng_seed(&r, 1);
    const char *rows[C4_HEIGHT] = { ".......", ".......", ".......", ".......", ".......",
                                    ".11..22" };
    struct c4_pos p = pos_from_rows(rows, 1);
    int col;
    double td = -1;
    cr_assert_eq(learn_move(&l, &p, &r, &col, &td), 0, "updated on its first move");
    cr_assert_eq(td, -1);
    /* Column 4 makes an open three, two threats: the best Q. */
    cr_assert_eq(col, 3, "picked column %d", col + 1);
    cr_assert_eq(l.prev[FEAT_3INROW], 2.0 / FEAT_CELLS_MAX);
    double q_prev = qf_value(&w, l.prev);

    c4_play(&p, col);
    c4_play(&p, 5);   /* the rival blocks nothing */
    struct qf_choices c;
    qf_choices(&w, &p, &c);
    double max_next = c.q[qf_best(&c)];
    double prev[FEAT_COUNT];
    memcpy(prev, l.prev, sizeof prev);
    struct qf_weights before = w;
    cr_assert_eq(learn_move(&l, &p, &r, &col, &td), 1);
    double delta = LEARN_DEFAULT_GAMMA * max_next - q_prev;
    cr_assert_eq(td, fabs(delta), "|delta| %.17g, expected %.17g", td, fabs(delta));
    for (int i = 0; i < FEAT_COUNT; i++)
        cr_assert_eq(w.w[i], before.w[i] + l.step * delta * prev[i], "weight %d", i);
}

Test(update, epsilon_one_explores)
{
    struct qf_weights w = { { 0 } };
    struct learner l;
    learn_init(&l, &w, LEARN_DEFAULT_GAMMA, LEARN_DEFAULT_ALPHA, 1.0);
    struct rng r;
    rng_seed(&r, 3);
    struct c4_pos p;
    c4_init(&p);
    int seen = 0;
    for (int i = 0; i < 200; i++) {
        int col;
        double td;
        l.has_prev = 0;
        learn_move(&l, &p, &r, &col, &td);
        cr_assert(col >= 0 && col < C4_WIDTH);
        seen |= 1 << col;
    }
    cr_assert_eq(seen, (1 << C4_WIDTH) - 1, "columns seen %#x", seen);
}

/* ---- weights files ------------------------------------------------------ */

static struct wts_file sample_file(void)
{
    struct wts_file f;
    memset(&f, 0, sizeof f);
    f.settings.gamma = LEARN_DEFAULT_GAMMA;
    f.settings.alpha = LEARN_DEFAULT_ALPHA;
    f.settings.alpha_final = LEARN_DEFAULT_ALPHA;
    f.settings.epsilon = LEARN_DEFAULT_EPSILON;
    f.settings.switch_prob = LEARN_DEFAULT_SWITCH;
    snprintf(f.settings.opponent, sizeof f.settings.opponent, "alphabeta:4");
    f.settings.seed = UINT64_MAX;
    f.settings.games = 1000;
    f.settings.total_games = 3000;
    for (int i = 0; i < FEAT_COUNT; i++)
        f.weights.w[i] = (i - 7) / 3.0;
    return f;
}

Test(weights, round_trip_is_bit_exact)
{
    struct rng r;
    rng_seed(&r, SEED_ROUND_TRIP);
    static const double specials[] = { 0.0, -0.0, 1e-300, -1e300, 4.9e-324, 0.1, 1.0 / 3 };
    for (int round = 0; round < 200; round++) {
        struct wts_file f = sample_file(), g;
        for (int i = 0; i < FEAT_COUNT; i++) {
            uint64_t bits = rng_next(&r);
            double v;
            memcpy(&v, &bits, sizeof v);
            if (!isfinite(v))
                v = specials[i % (sizeof specials / sizeof *specials)];
            f.weights.w[i] = round % 2 ? v : specials[i % (sizeof specials / sizeof *specials)];
        }
        f.settings.alpha = rng_unit(&r);
        char buf[WTS_TEXT_MAX];
        size_t n = wts_format(&f, buf);
        struct err e;
        cr_assert_eq(wts_parse(buf, n, &g, &e), 0, "round %d: %d:%d: %s\n%s", round, e.line,
                     e.col, e.msg, buf);
        cr_assert_eq(memcmp(&f.weights, &g.weights, sizeof f.weights), 0, "round %d:\n%s",
                     round, buf);
        cr_assert_eq(memcmp(&f.settings.alpha, &g.settings.alpha, sizeof(double)), 0);
        cr_assert_eq(g.settings.seed, UINT64_MAX);
        cr_assert_str_eq(g.settings.opponent, "alphabeta:4");
        cr_assert_eq(g.settings.total_games, 3000);
    }
}

Test(weights, canonical_text)
{
    struct wts_file f = sample_file();
    for (int i = 0; i < FEAT_COUNT; i++)
        f.weights.w[i] = 0;
    f.weights.w[FEAT_4INROW] = 1.5;
    f.weights.w[FEAT_RIVAL + FEAT_3INROW_WIN] = -0.1;
    char buf[WTS_TEXT_MAX];
    wts_format(&f, buf);
    cr_assert_str_eq(buf, "arena-qlearn-weights 1\n"
                          "gamma 0.95\n"
                          "alpha 0.2\n"
                          "alpha-final 0.2\n"
                          "epsilon 0.1\n"
                          "switch-prob 0.3\n"
                          "opponent alphabeta:4\n"
                          "seed 18446744073709551615\n"
                          "games 1000\n"
                          "total-games 3000\n"
                          "2Threats 0\n"
                          "3InRow 0\n"
                          "4InRow 1.5\n"
                          "OddThreats 0\n"
                          "EvenThreats 0\n"
                          "3InRowWin 0\n"
                          "SlotCreates2Threats 0\n"
                          "Rival2Threats 0\n"
                          "Rival3InRow 0\n"
                          "Rival4InRow 0\n"
                          "RivalOddThreats 0\n"
                          "RivalEvenThreats 0\n"
                          "Rival3InRowWin -0.1\n"
                          "RivalSlotCreates2Threats 0\n");
}

Test(weights, shortest_number_text)
{
    char buf[WTS_NUM_MAX];
    wts_format_double(0.95, buf);
    cr_assert_str_eq(buf, "0.95");
    wts_format_double(1.0 / 3, buf);
    cr_assert_str_eq(buf, "0.3333333333333333");
    wts_format_double(-2.5e-7, buf);
    cr_assert_str_eq(buf, "-2.5e-07");
    wts_format_double(0.1 + 0.2, buf);
    cr_assert_str_eq(buf, "0.30000000000000004");
}

Test(weights, crlf_and_blanks_are_read)
{
    struct wts_file f = sample_file(), g;
    char buf[WTS_TEXT_MAX], crlf[2 * WTS_TEXT_MAX];
    size_t n = wts_format(&f, buf), m = 0;
    for (size_t i = 0; i < n; i++) {
        if (buf[i] == '\n') {
            crlf[m++] = ' ';
            crlf[m++] = '\r';
        } else if (buf[i] == ' ') {
            crlf[m++] = '\t';
        }
        crlf[m++] = buf[i];
    }
    struct err e;
    cr_assert_eq(wts_parse(crlf, m, &g, &e), 0, "%d:%d: %s", e.line, e.col, e.msg);
    cr_assert_eq(memcmp(&f.weights, &g.weights, sizeof f.weights), 0);
}

#define EMPTY_FILE (-1)

struct bad_weights {
    char name[40];
    int line;         /* the line to replace, 0: none */
    char text[48];    /* its new text */
    int truncate;     /* keep only this many lines (0: all; EMPTY_FILE: none) */
    char append[24];  /* text added at the end */
    int err_line, err_col;
    char msg[96];     /* the start of the message */
};

ParameterizedTestParameters(weights, bad_file_is_rejected)
{
    static struct bad_weights cases[] = {
        { "empty file", 0, "", EMPTY_FILE, "", 1, 1, "empty file" },
        { "another file", 1, "0000000", 0, "", 1, 1, "not a weights file" },
        { "version 2", 1, "arena-qlearn-weights 2", 0, "", 1, 22,
          "weights format version 2, this program reads 1" },
        { "version missing", 1, "arena-qlearn-weights", 0, "", 1, 1, "not a weights file" },
        { "settings out of order", 3, "alpah 0.2", 0, "", 3, 1, "expected 'alpha', found 'alpah'" },
        { "bad number", 2, "gamma 0.9x", 0, "", 2, 10, "'0.9x' is not a number" },
        { "not finite", 2, "gamma nan", 0, "", 2, 7, "'nan' is not a finite number" },
        { "gamma above 1", 2, "gamma 1.5", 0, "", 2, 7, "gamma must be from 0 to 1" },
        { "negative alpha", 3, "alpha -0.1", 0, "", 3, 7, "alpha must be at least 0" },
        { "negative games", 9, "games -5", 0, "", 9, 7, "unexpected character '-'" },
        { "missing value", 5, "epsilon", 0, "", 5, 8, "missing the value after 'epsilon'" },
        { "text after value", 6, "switch-prob 0.3 0.4", 0, "", 6, 17,
          "unexpected text after the value of 'switch-prob'" },
        { "leading blank", 7, " opponent random", 0, "", 7, 1, "line starts with a blank" },
        { "missing settings", 0, "", 4, "", 5, 1, "missing the 'epsilon' line" },
        { "wrong attribute", 11, "Threats2 0.5", 0, "", 11, 1,
          "attribute 1 is 2Threats, found 'Threats2'" },
        { "attributes swapped", 12, "4InRow 1", 0, "", 12, 1,
          "attribute 2 is 3InRow, found '4InRow'" },
        { "an old attribute name", 24, "AttSlotCreates2ThreatsRival 1", 0, "", 24, 1,
          "attribute 14 is RivalSlotCreates2Threats, found 'AttSlotCreates2ThreatsRival'" },
        { "missing attributes", 0, "", 20, "", 21, 1,
          "missing attribute RivalOddThreats (the file has 10 of the 14 attributes)" },
        { "bad weight", 13, "4InRow 1e999", 0, "", 13, 8, "'1e999' is not a finite number" },
        { "extra line", 0, "", 0, "Extra 1\n", 25, 1, "unexpected text after the last attribute" },
    };
    return cr_make_param_array(struct bad_weights, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct bad_weights *c, weights, bad_file_is_rejected)
{
    struct wts_file f = sample_file(), g;
    char good[WTS_TEXT_MAX], text[2 * WTS_TEXT_MAX];
    size_t n = wts_format(&f, good), m = 0;
    int line = 1;
    for (size_t i = 0; i < n; line++) {
        size_t end = i;
        while (good[end] != '\n')
            end++;
        int keep = !c->truncate || line <= c->truncate;
        if (keep && line == c->line)
            m += (size_t)sprintf(text + m, "%s\n", c->text);
        else if (keep)
            m += (size_t)sprintf(text + m, "%.*s\n", (int)(end - i), good + i);
        i = end + 1;
    }
    m += (size_t)sprintf(text + m, "%s", c->append);
    struct err e = { 0 };
    cr_assert_eq(wts_parse(text, m, &g, &e), -1, "%s: accepted:\n%s", c->name, text);
    cr_assert_eq(e.line, c->err_line, "%s: line %d, expected %d (%s)", c->name, e.line,
                 c->err_line, e.msg);
    cr_assert_eq(e.col, c->err_col, "%s: column %d, expected %d (%s)", c->name, e.col,
                 c->err_col, e.msg);
    cr_assert(strncmp(e.msg, c->msg, strlen(c->msg)) == 0, "%s: message \"%s\", expected \"%s\"",
              c->name, e.msg, c->msg);
}

Test(weights, missing_file_has_no_place)
{
    struct wts_file f;
    struct err e;
    cr_assert_eq(wts_load("/nonexistent/w.weights", &f, &e), -1);
    cr_assert_eq(e.line, 0);
    cr_assert(strncmp(e.msg, "cannot open", strlen("cannot open")) == 0, "%s", e.msg);
}

/* ---- training series ---------------------------------------------------- */

static void run_series(const struct learn_opts *o, struct learn_series *t)
{
    struct qf_weights zero = { { 0 } };
    struct err e;
    cr_assert_eq(learn_series_init(t, o, &zero, NULL, &e), 0, "%s", e.msg);
    while (t->played < o->games)
        learn_play_game(t);
}

struct series_case {
    char opponent[16];
};

ParameterizedTestParameters(series, same_seed_same_bits)
{
    static struct series_case cases[] = {
        { "random" }, { "trained" }, { "alphabeta:2" }, { "learning" }, { "self" },
    };
    return cr_make_param_array(struct series_case, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct series_case *c, series, same_seed_same_bits)
{
    struct learn_opts o = learn_opts_default();
    cr_assert_eq(learn_opponent_parse(c->opponent, &o), 0);
    o.games = SERIES_GAMES / 3;
    o.alpha_final = LEARN_DEFAULT_ALPHA / 2;
    struct learn_series a, b, d;
    run_series(&o, &a);
    run_series(&o, &b);
    o.seed = 2;
    run_series(&o, &d);
    cr_assert_eq(memcmp(&a.w, &b.w, sizeof a.w), 0, "%s: same seed, different weights",
                 c->opponent);
    cr_assert_neq(memcmp(&a.w, &d.w, sizeof a.w), 0, "%s: seeds 1 and 2 gave the same weights",
                  c->opponent);
    learn_series_free(&a);
    learn_series_free(&b);
    learn_series_free(&d);
}

Test(series, learns_to_beat_random)
{
    struct learn_opts o = learn_opts_default();
    o.games = 3000;
    struct learn_series t;
    run_series(&o, &t);
    double win, draw, loss;
    learn_rates(&t, &win, &draw, &loss);
    cr_assert_eq(win + draw + loss, 1.0);
    cr_assert(win > 0.7, "won %.3f of its last %d games", win, LEARN_WINDOW);
    cr_assert_eq(t.w.w[FEAT_RIVAL + FEAT_4INROW], 0.0,
                 "Rival4InRow is never seen after the learner's own move");
    learn_series_free(&t);
}

Test(series, sides_switch_with_their_probability)
{
    struct learn_opts o = learn_opts_default();
    o.games = 50;
    o.switch_prob = 0;
    struct learn_series t;
    run_series(&o, &t);
    cr_assert_eq(t.learner_side, 0, "switched with probability 0");
    learn_series_free(&t);
    o.switch_prob = 1;
    o.games = 51;
    run_series(&o, &t);
    cr_assert_eq(t.learner_side, 1, "51 switches leave the learner as player 2");
    learn_series_free(&t);
}

Test(series, window_counts_the_last_games)
{
    struct learn_opts o = learn_opts_default();
    o.games = LEARN_WINDOW + 100;
    struct learn_series t;
    run_series(&o, &t);
    cr_assert_eq(t.win + t.draw + t.loss, LEARN_WINDOW);
    int win = 0;
    for (int i = 0; i < LEARN_WINDOW; i++)
        win += t.window[i] > 0;
    cr_assert_eq(t.win, win);
    learn_series_free(&t);
}

Test(series, log_line_is_json)
{
    struct learn_opts o = learn_opts_default();
    o.games = 20;
    struct learn_series t;
    run_series(&o, &t);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    cr_assert_eq(learn_log_line(&t, f), 0);
    fclose(f);
    cr_assert(len > 0 && strchr(buf, '\n') == buf + len - 1, "not one line: %s", buf);
    cJSON *root = cJSON_Parse(buf);
    cr_assert_not_null(root, "not JSON: %s", buf);
    static const char *const keys[] = { "games", "window", "win", "draw", "loss", "mean_abs_td",
                                        "alpha" };
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
        cr_assert(cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(root, keys[i])), "no %s in %s",
                  keys[i], buf);
    cr_assert_eq(cJSON_GetObjectItemCaseSensitive(root, "games")->valuedouble, 20);
    cr_assert_eq(cJSON_GetObjectItemCaseSensitive(root, "window")->valuedouble, 20);
    cr_assert(cJSON_GetObjectItemCaseSensitive(root, "mean_abs_td")->valuedouble > 0);
    cJSON_Delete(root);
    free(buf);
    learn_series_free(&t);
}

struct opponent_case {
    char text[24];
    int ok;
    int kind, depth;
};

ParameterizedTestParameters(series, opponent_names)
{
    static struct opponent_case cases[] = {
        { "random", 1, LEARN_RANDOM, 0 },        { "trained", 1, LEARN_TRAINED, 0 },
        { "alphabeta:4", 1, LEARN_ALPHABETA, 4 }, { "alphabeta:12", 1, LEARN_ALPHABETA, 12 },
        { "learning", 1, LEARN_LEARNING, 0 },    { "self", 1, LEARN_SELF, 0 },
        { "alphabeta", 0, 0, 0 },                { "alphabeta:0", 0, 0, 0 },
        { "alphabeta:13", 0, 0, 0 },             { "alphabeta:x", 0, 0, 0 },
        { "random:3", 0, 0, 0 },                 { "rand", 0, 0, 0 },
        { "", 0, 0, 0 },
    };
    return cr_make_param_array(struct opponent_case, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct opponent_case *c, series, opponent_names)
{
    struct learn_opts o = learn_opts_default();
    int rc = learn_opponent_parse(c->text, &o);
    cr_assert_eq(rc == 0, c->ok, "'%s': %s", c->text, rc == 0 ? "accepted" : "rejected");
    if (!c->ok)
        return;
    cr_assert_eq((int)o.opponent, c->kind, "'%s'", c->text);
    cr_assert_eq(o.opponent_depth, c->depth, "'%s'", c->text);
    char back[WTS_TOKEN_MAX];
    learn_opponent_text(&o, back);
    cr_assert_str_eq(back, c->text);
}

Test(series, result_records_the_settings)
{
    struct learn_opts o = learn_opts_default();
    o.games = 10;
    o.seed = 42;
    struct learn_series t;
    run_series(&o, &t);
    struct wts_file f;
    learn_result(&t, 90, &f);
    cr_assert_eq(f.settings.games, 10);
    cr_assert_eq(f.settings.total_games, 100);
    cr_assert_eq(f.settings.seed, 42);
    cr_assert_str_eq(f.settings.opponent, "random");
    cr_assert_eq(memcmp(&f.weights, &t.w, sizeof t.w), 0);
    learn_series_free(&t);
}

/* ---- the learned players ------------------------------------------------ */

static struct qf_weights sensible_weights(void)
{
    struct qf_weights w = { { 0 } };
    w.w[FEAT_4INROW] = 1.0;
    w.w[FEAT_3INROW] = 0.5;
    w.w[FEAT_RIVAL + FEAT_3INROW_WIN] = -1.0;
    return w;
}

static int choose(enum player_kind kind, int depth, const struct qf_weights *w,
                  const struct c4_pos *p, struct search_result *r)
{
    struct player_opts po = { .kind = kind, .depth = depth, .weights = w };
    struct search_opts so = player_search_opts(&game_connect4, &po, SMALL_TT_BYTES);
    struct search s;
    cr_assert_eq(search_init(&s, &game_connect4, &so), 0);
    player_choose(&s, &po, p, r);
    search_free(&s);
    return r->move;
}

Test(players, learned_players_need_connect4)
{
    cr_assert(player_supports(&game_connect4, PLAYER_QLEARN));
    cr_assert(player_supports(&game_connect4, PLAYER_QLEARN_AB));
    cr_assert(!player_supports(&game_maxconnect4, PLAYER_QLEARN));
    cr_assert(!player_supports(&game_maxconnect4, PLAYER_QLEARN_AB));
    cr_assert_eq(player_parse("qlearn"), PLAYER_QLEARN);
    cr_assert_eq(player_parse("qlearn-ab"), PLAYER_QLEARN_AB);
}

Test(players, take_the_win_and_block_the_loss)
{
    struct qf_weights w = sensible_weights();
    struct search_result r;
    /* Player 1 wins in column 5; player 2 threatens column 1. */
    const char *win_rows[C4_HEIGHT] = { ".......", ".......", ".......", "2......", "2......",
                                        "2111.22" };
    struct c4_pos p = pos_from_rows(win_rows, 1);
    cr_assert_eq(choose(PLAYER_QLEARN, 1, &w, &p, &r), 4, "qlearn played %d", r.move + 1);
    cr_assert_eq(choose(PLAYER_QLEARN_AB, 4, &w, &p, &r), 4, "qlearn-ab played %d", r.move + 1);
    cr_assert_eq(r.value, SCORE_WIN - 1);
    /* Player 1 must stop column 1. */
    const char *block_rows[C4_HEIGHT] = { ".......", ".......", ".......", "2......",
                                          "2......", "2.11..1" };
    p = pos_from_rows(block_rows, 1);
    cr_assert_eq(choose(PLAYER_QLEARN, 1, &w, &p, &r), 0, "qlearn played %d", r.move + 1);
    cr_assert_eq(choose(PLAYER_QLEARN_AB, 2, &w, &p, &r), 0, "qlearn-ab played %d",
                 r.move + 1);
}

/* qlearn-ab searches each root move on its own (for the centre tie-break);
 * its value must be the one alpha-beta gives the root, and its move one of
 * that value. */
Test(players, qlearn_ab_value_is_the_alphabeta_value)
{
    struct qf_weights w = sensible_weights();
    w.w[FEAT_ODD_THREATS] = 0.25;
    w.w[FEAT_RIVAL + FEAT_2THREATS] = -0.75;
    struct rng r;
    rng_seed(&r, SEED_SEARCH);
    struct player_opts po = { .kind = PLAYER_QLEARN_AB, .weights = &w };
    struct search_opts so = player_search_opts(&game_connect4, &po, SMALL_TT_BYTES);
    struct search s;
    cr_assert_eq(search_init(&s, &game_connect4, &so), 0);
    for (int i = 0; i < SEARCH_POSITIONS; i++) {
        struct c4_pos p = random_position(&r);
        for (int depth = 1; depth <= SEARCH_DEPTH; depth++) {
            struct search_result mine, ab, child;
            po.depth = depth;
            search_clear(&s);
            player_choose(&s, &po, &p, &mine);
            search_clear(&s);
            search_alphabeta(&s, &p, depth, &ab);
            cr_assert_eq(mine.value, ab.value, "position %d depth %d: value %d, alpha-beta %d",
                         i, depth, mine.value, ab.value);
            struct c4_pos after = p;
            c4_play(&after, mine.move);
            search_clear(&s);
            search_alphabeta(&s, &after, depth - 1, &child);
            int v = -child.value;
            v = v >= SCORE_DECIDED ? v - 1 : v <= -SCORE_DECIDED ? v + 1 : v;
            cr_assert_eq(v, ab.value, "position %d depth %d: move %d is worth %d, not %d", i,
                         depth, mine.move + 1, v, ab.value);
        }
    }
    search_free(&s);
}

/* The search's context evaluation: alpha-beta and plain minimax agree. */
Test(players, search_with_learned_evaluation_matches_minimax)
{
    struct qf_weights w = sensible_weights();
    w.w[FEAT_SLOT_CREATES_2THREATS] = 0.3;
    struct rng r;
    rng_seed(&r, SEED_SEARCH + 1);
    struct player_opts po = { .kind = PLAYER_QLEARN_AB, .weights = &w };
    struct search_opts with_tt = player_search_opts(&game_connect4, &po, SMALL_TT_BYTES);
    struct search_opts no_tt = player_search_opts(&game_connect4, &po, 0);
    struct search ab, mm;
    cr_assert_eq(search_init(&ab, &game_connect4, &with_tt), 0);
    cr_assert_eq(search_init(&mm, &game_connect4, &no_tt), 0);
    for (int i = 0; i < SEARCH_POSITIONS; i++) {
        struct c4_pos p = random_position(&r);
        struct search_result a, m;
        search_alphabeta(&ab, &p, SEARCH_DEPTH, &a);
        search_minimax(&mm, &p, SEARCH_DEPTH, &m);
        cr_assert_eq(a.value, m.value, "position %d: alpha-beta %d, minimax %d", i, a.value,
                     m.value);
        cr_assert_eq(a.move, m.move, "position %d", i);
    }
    search_free(&ab);
    search_free(&mm);
}
