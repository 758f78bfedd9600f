/*
 * test_connect4.c - the Connect-4 bitboard and its two rule sets.
 *
 * Covers:
 *   - c4_play / c4_can_play / gen: discs drop to the lowest empty cell,
 *     players alternate, full and off-board columns cannot be played, gen
 *     lists the playable columns in increasing order;
 *   - c4_has_four / c4_count_fours: lines in every direction and at every
 *     edge, no line across the column wrap (the sentinel bit), and agreement
 *     with a brute-force count on a 6x7 array over thousands of random
 *     boards (partial, full and arbitrary bit patterns);
 *   - c4_count_lines: agreement with a brute-force count over every window
 *     of four;
 *   - terminal values and game_result in both rule sets: connect4 ends at the
 *     first four or a full board, maxconnect4 only at 42 discs and scores
 *     lines of four;
 *   - move text ("1".."7") in both directions, and position keys.
 *
 * Boards are built cell by cell with C4_BIT(col, row), row 0 at the bottom,
 * or from rows of text written top row first, as in a board file.
 */
#include <criterion/criterion.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "arena/connect4.h"
#include "arena/game.h"
#include "arena/rng.h"
#include "c4_testutil.h"

#define RANDOM_BOARDS 5000
#define FULL_BOARDS 2000
#define ARBITRARY_BOARDS 5000
#define KEY_POSITIONS 20000

#define SEED_PARTIAL UINT64_C(0xC0FFEE)
#define SEED_FULL UINT64_C(0xF011B0A2D)
#define SEED_ARBITRARY UINT64_C(0xB17B0A2D)
#define SEED_LINES UINT64_C(0x11AE5)
#define SEED_TERMINAL UINT64_C(0x7E2)
#define SEED_KEYS UINT64_C(0x4E75)

/* A full board with no line of four for either player, 21 discs each. */
static const char *const draw_rows[C4_HEIGHT] = {
    "1212121",
    "1212121",
    "1212121",
    "2121212",
    "2121212",
    "2121212",
};

/* ---- helpers ------------------------------------------------------------ */

/* The mask of n cells given as (col, row) pairs. */
static uint64_t mask_of(const int cells[][2], int n)
{
    uint64_t m = 0;
    for (int i = 0; i < n; i++)
        m |= C4_BIT(cells[i][0], cells[i][1]);
    return m;
}

/* The board as an array: grid[row][col] is 1 where discs has a disc. */
static void grid_of(uint64_t discs, int grid[C4_HEIGHT][C4_WIDTH])
{
    for (int row = 0; row < C4_HEIGHT; row++)
        for (int col = 0; col < C4_WIDTH; col++)
            grid[row][col] = (discs & C4_BIT(col, row)) != 0;
}

struct brute_fours_ctx {
    int grid[C4_HEIGHT][C4_WIDTH];
    int n;
};

static void brute_fours_window(const int cells[LINE_LEN][2], void *ctx_)
{
    struct brute_fours_ctx *ctx = ctx_;
    int k = 0;
    while (k < LINE_LEN && ctx->grid[cells[k][1]][cells[k][0]])
        k++;
    ctx->n += k == LINE_LEN;
}

/* Brute-force count of a bitboard's lines of four on a 6x7 array. */
static int brute_fours(uint64_t discs)
{
    struct brute_fours_ctx ctx = { .n = 0 };
    grid_of(discs, ctx.grid);
    for_each_window(brute_fours_window, &ctx);
    return ctx.n;
}

struct brute_lines_ctx {
    int mine[C4_HEIGHT][C4_WIDTH];
    int opp[C4_HEIGHT][C4_WIDTH];
    struct c4_lines out;
};

static void brute_lines_window(const int cells[LINE_LEN][2], void *ctx_)
{
    struct brute_lines_ctx *ctx = ctx_;
    int mine = 0, opp = 0;
    for (int k = 0; k < LINE_LEN; k++) {
        mine += ctx->mine[cells[k][1]][cells[k][0]];
        opp += ctx->opp[cells[k][1]][cells[k][0]];
    }
    if (opp)
        return;
    ctx->out.four += mine == 4;
    ctx->out.three += mine == 3;
    ctx->out.two += mine == 2;
}

/* Brute-force c4_count_lines over every window of four. */
static struct c4_lines brute_lines(uint64_t mine, uint64_t opp)
{
    struct brute_lines_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    grid_of(mine, ctx.mine);
    grid_of(opp, ctx.opp);
    for_each_window(brute_lines_window, &ctx);
    return ctx.out;
}

/* Plays nmoves random legal moves (fewer if the board fills) from p. */
static void play_random(struct rng *r, struct c4_pos *p, int nmoves)
{
    for (int i = 0; i < nmoves; i++) {
        int moves[GAME_MAX_MOVES];
        int n = game_maxconnect4.gen(p, moves);
        if (n == 0)
            return;
        c4_play(p, moves[rng_below(r, (uint32_t)n)]);
    }
}

/* A random position: 0..42 random moves from the start, player 1 first. */
static struct c4_pos random_position(struct rng *r)
{
    struct c4_pos p;
    c4_init(&p);
    play_random(r, &p, (int)rng_below(r, C4_CELLS + 1));
    return p;
}

/* A random full board; player 2 moved first when p2_first. */
static struct c4_pos random_full_board(struct rng *r, int p2_first)
{
    struct c4_pos p;
    c4_init(&p);
    p.to_move = (uint8_t)(p2_first != 0);
    play_random(r, &p, C4_CELLS);
    return p;
}

static int height_of(const struct c4_pos *p, int col)
{
    int h = 0;
    while (h < C4_HEIGHT && c4_cell(p, col, h))
        h++;
    return h;
}

/* The lowest empty cell of col, which must not be full. */
static uint64_t next_cell(const struct c4_pos *p, int col)
{
    return C4_BIT(col, height_of(p, col));
}

static void play_columns(struct c4_pos *p, const int *cols, int n)
{
    for (int i = 0; i < n; i++) {
        cr_assert(c4_can_play(p, cols[i]), "column %d full at move %d", cols[i], i);
        c4_play(p, cols[i]);
    }
}

static void assert_lines_eq(struct c4_lines got, struct c4_lines want, const char *what)
{
    cr_assert_eq(got.four, want.four, "%s: four %d, expected %d", what, got.four, want.four);
    cr_assert_eq(got.three, want.three, "%s: three %d, expected %d", what, got.three,
                 want.three);
    cr_assert_eq(got.two, want.two, "%s: two %d, expected %d", what, got.two, want.two);
}

/* The terminal value maxconnect4 owes a full board, from the side to move. */
static int expected_full_value(const struct c4_pos *p)
{
    int diff = brute_fours(p->disc[p->to_move]) - brute_fours(p->disc[p->to_move ^ 1]);
    return diff > 0 ? SCORE_WIN + diff : diff < 0 ? -(SCORE_WIN - diff) : 0;
}

/* ---- moves ---------------------------------------------------------------- */

Test(connect4, init_gives_empty_board_player_1_to_move)
{
    struct c4_pos a, b;
    memset(&a, 0xAA, sizeof a);
    memset(&b, 0x55, sizeof b);
    c4_init(&a);
    game_connect4.init(&b);
    cr_assert_eq(memcmp(&a, &b, sizeof a), 0, "init left bytes unset");
    cr_assert_eq(a.disc[0] | a.disc[1], 0);
    cr_assert_eq(a.moves, 0);
    cr_assert_eq(game_connect4.to_move(&a), 1);
    cr_assert_eq(game_maxconnect4.state_size, sizeof(struct c4_pos));
}

Test(connect4, play_drops_disc_to_lowest_empty_cell)
{
    struct c4_pos p;
    c4_init(&p);
    c4_play(&p, 3);
    cr_assert_eq(p.disc[0], C4_BIT(3, 0));
    c4_play(&p, 3);
    cr_assert_eq(p.disc[1], C4_BIT(3, 1));
    c4_play(&p, 3);
    cr_assert_eq(p.disc[0], C4_BIT(3, 0) | C4_BIT(3, 2));
    c4_play(&p, 0);
    cr_assert_eq(p.disc[1], C4_BIT(3, 1) | C4_BIT(0, 0));
    cr_assert_eq(c4_cell(&p, 3, 0), 1);
    cr_assert_eq(c4_cell(&p, 3, 1), 2);
    cr_assert_eq(c4_cell(&p, 3, 2), 1);
    cr_assert_eq(c4_cell(&p, 3, 3), 0);
    cr_assert_eq(c4_cell(&p, 0, 0), 2);
    cr_assert_eq(p.moves, 4, "moves %d", p.moves);
}

Test(connect4, play_alternates_players)
{
    struct c4_pos p;
    c4_init(&p);
    for (int i = 0; i < C4_CELLS; i++) {
        int want = i % 2 + 1;
        cr_assert_eq(game_connect4.to_move(&p), want, "move %d: player %d to move", i,
                     game_connect4.to_move(&p));
        int col = i % C4_WIDTH;
        int row = height_of(&p, col);
        game_connect4.play(&p, col);
        cr_assert_eq(c4_cell(&p, col, row), want, "move %d landed as %d", i,
                     c4_cell(&p, col, row));
    }
    cr_assert_eq(p.moves, C4_CELLS);
}

Test(connect4, play_keeps_the_position_consistent_in_random_games)
{
    struct rng r;
    rng_seed(&r, SEED_PARTIAL);
    static const uint8_t zero_pad[sizeof ((struct c4_pos *)0)->pad] = { 0 };
    for (int game = 0; game < RANDOM_BOARDS / 10; game++) {
        struct c4_pos p;
        c4_init(&p);
        while (p.moves < C4_CELLS) {
            int moves[GAME_MAX_MOVES];
            int n = game_maxconnect4.gen(&p, moves);
            int col = moves[rng_below(&r, (uint32_t)n)];
            int row = height_of(&p, col);
            struct c4_pos before = p;
            c4_play(&p, col);
            cr_assert_eq(p.disc[before.to_move], before.disc[before.to_move] | C4_BIT(col, row),
                         "the disc did not land at (%d,%d)", col, row);
            cr_assert_eq(p.disc[before.to_move ^ 1], before.disc[before.to_move ^ 1]);
            cr_assert_eq(p.to_move, before.to_move ^ 1);
            cr_assert_eq(p.moves, before.moves + 1);
            cr_assert_eq(p.disc[0] & p.disc[1], 0, "a cell holds two discs");
            cr_assert_eq((p.disc[0] | p.disc[1]) & ~C4_BOARD_MASK, 0, "a disc off the board");
            cr_assert_eq(__builtin_popcountll(p.disc[0] | p.disc[1]), p.moves);
            cr_assert_eq(memcmp(p.pad, zero_pad, sizeof p.pad), 0);
        }
    }
}

Test(connect4, can_play_false_for_full_column)
{
    struct c4_pos p;
    c4_init(&p);
    for (int i = 0; i < C4_HEIGHT; i++) {
        cr_assert(c4_can_play(&p, 2), "column 2 refused with %d discs", i);
        c4_play(&p, 2);
    }
    cr_assert_not(c4_can_play(&p, 2), "a full column is playable");
    for (int col = 0; col < C4_WIDTH; col++)
        if (col != 2)
            cr_assert(c4_can_play(&p, col), "column %d refused", col);
}

Test(connect4, can_play_false_for_out_of_range_columns)
{
    struct c4_pos p;
    c4_init(&p);
    static const int bad[] = { -1, C4_WIDTH, C4_WIDTH + 1, 63, 64, INT_MAX, INT_MIN };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        cr_assert_not(c4_can_play(&p, bad[i]), "column %d is playable", bad[i]);
}

Test(connect4, gen_lists_non_full_columns_in_increasing_order)
{
    struct c4_pos p;
    c4_init(&p);
    int moves[GAME_MAX_MOVES];
    int n = game_connect4.gen(&p, moves);
    cr_assert_eq(n, C4_WIDTH);
    for (int i = 0; i < n; i++)
        cr_assert_eq(moves[i], i);

    /* Fill columns 0, 3 and 6. */
    for (int i = 0; i < C4_HEIGHT; i++) {
        c4_play(&p, 0);
        c4_play(&p, 3);
        c4_play(&p, 6);
    }
    static const int want[] = { 1, 2, 4, 5 };
    n = game_maxconnect4.gen(&p, moves);
    cr_assert_eq(n, 4, "%d moves", n);
    for (int i = 0; i < n; i++)
        cr_assert_eq(moves[i], want[i], "moves[%d] = %d", i, moves[i]);
}

Test(connect4, gen_matches_can_play_on_random_positions)
{
    struct rng r;
    rng_seed(&r, SEED_PARTIAL);
    for (int i = 0; i < RANDOM_BOARDS; i++) {
        struct c4_pos p = random_position(&r);
        int moves[GAME_MAX_MOVES];
        int n = game_connect4.gen(&p, moves), k = 0;
        for (int col = 0; col < C4_WIDTH; col++)
            if (c4_can_play(&p, col)) {
                cr_assert_lt(k, n, "gen missed column %d", col);
                cr_assert_eq(moves[k], col, "moves[%d] = %d, expected %d", k, moves[k], col);
                k++;
            }
        cr_assert_eq(k, n, "gen listed %d moves, %d are playable", n, k);
        if (p.moves == C4_CELLS)
            cr_assert_eq(n, 0);
    }
}

/* ---- lines of four ---------------------------------------------------------- */

static void assert_single_four(const int cells[LINE_LEN][2], const char *what)
{
    uint64_t m = mask_of(cells, LINE_LEN);
    cr_assert(c4_has_four(m), "%s: no four found", what);
    cr_assert_eq(c4_count_fours(m), 1, "%s: %d fours", what, c4_count_fours(m));
    cr_assert_eq(brute_fours(m), 1, "%s: brute force disagrees", what);
    /* Any three of the four are no line. */
    for (int k = 0; k < LINE_LEN; k++) {
        uint64_t three = m & ~C4_BIT(cells[k][0], cells[k][1]);
        cr_assert_not(c4_has_four(three), "%s without cell %d: four found", what, k);
        cr_assert_eq(c4_count_fours(three), 0, "%s without cell %d", what, k);
    }
}

Test(connect4, four_detected_horizontally)
{
    const int cells[LINE_LEN][2] = { { 1, 2 }, { 2, 2 }, { 3, 2 }, { 4, 2 } };
    assert_single_four(cells, "horizontal");
}

Test(connect4, four_detected_vertically)
{
    const int cells[LINE_LEN][2] = { { 3, 1 }, { 3, 2 }, { 3, 3 }, { 3, 4 } };
    assert_single_four(cells, "vertical");
}

Test(connect4, four_detected_on_up_right_diagonal)
{
    const int cells[LINE_LEN][2] = { { 1, 1 }, { 2, 2 }, { 3, 3 }, { 4, 4 } };
    assert_single_four(cells, "up-right diagonal");
}

Test(connect4, four_detected_on_down_right_diagonal)
{
    const int cells[LINE_LEN][2] = { { 2, 4 }, { 3, 3 }, { 4, 2 }, { 5, 1 } };
    assert_single_four(cells, "down-right diagonal");
}

Test(connect4, four_detected_at_board_edges)
{
    static const struct {
        const char *what;
        int cells[LINE_LEN][2];
    } edge[] = {
        { "top row, columns 4-7", { { 3, 5 }, { 4, 5 }, { 5, 5 }, { 6, 5 } } },
        { "bottom row, columns 1-4", { { 0, 0 }, { 1, 0 }, { 2, 0 }, { 3, 0 } } },
        { "left column, top four", { { 0, 2 }, { 0, 3 }, { 0, 4 }, { 0, 5 } } },
        { "right column, bottom four", { { 6, 0 }, { 6, 1 }, { 6, 2 }, { 6, 3 } } },
        { "diagonal from the bottom-right", { { 6, 0 }, { 5, 1 }, { 4, 2 }, { 3, 3 } } },
        { "diagonal to the top-right", { { 3, 2 }, { 4, 3 }, { 5, 4 }, { 6, 5 } } },
        { "diagonal from the top-left", { { 0, 5 }, { 1, 4 }, { 2, 3 }, { 3, 2 } } },
        { "diagonal from the bottom-left", { { 0, 0 }, { 1, 1 }, { 2, 2 }, { 3, 3 } } },
    };
    for (size_t i = 0; i < sizeof edge / sizeof edge[0]; i++)
        assert_single_four(edge[i].cells, edge[i].what);
}

static void check_window_alone(const int cells[LINE_LEN][2], void *ctx)
{
    (void)ctx;
    char what[64];
    snprintf(what, sizeof what, "line (%d,%d)-(%d,%d)", cells[0][0], cells[0][1],
             cells[LINE_LEN - 1][0], cells[LINE_LEN - 1][1]);
    assert_single_four(cells, what);
}

Test(connect4, every_line_of_four_counts_once)
{
    int n = for_each_window(check_window_alone, NULL);
    cr_assert_eq(n, LINES_OF_FOUR, "%d lines", n);
}

Test(connect4, no_four_across_column_wrap)
{
    /* Cells that would be lines if columns were stacked without the sentinel
     * bit: the top of one column next to the bottom of the next (shift 1),
     * and the diagonals of a 6-bit column layout (shifts 5 and 7). */
    static const struct {
        const char *what;
        int cells[LINE_LEN][2];
    } wrap[] = {
        { "three on top of column 1, one at the bottom of 2",
          { { 0, 3 }, { 0, 4 }, { 0, 5 }, { 1, 0 } } },
        { "two and two across columns 1-2", { { 0, 4 }, { 0, 5 }, { 1, 0 }, { 1, 1 } } },
        { "one and three across columns 6-7", { { 5, 5 }, { 6, 0 }, { 6, 1 }, { 6, 2 } } },
        { "6-bit up-right diagonal", { { 0, 3 }, { 1, 4 }, { 2, 5 }, { 4, 0 } } },
        { "6-bit down-right diagonal", { { 0, 2 }, { 1, 1 }, { 2, 0 }, { 2, 5 } } },
    };
    for (size_t i = 0; i < sizeof wrap / sizeof wrap[0]; i++) {
        uint64_t m = mask_of(wrap[i].cells, LINE_LEN);
        cr_assert_not(c4_has_four(m), "%s: four found", wrap[i].what);
        cr_assert_eq(c4_count_fours(m), 0, "%s: %d fours", wrap[i].what, c4_count_fours(m));
        cr_assert_eq(brute_fours(m), 0, "%s: brute force disagrees", wrap[i].what);
    }
    /* Two full neighbouring columns: three vertical lines each, none
     * running on from one column into the other. */
    uint64_t two_columns = 0;
    for (int row = 0; row < C4_HEIGHT; row++)
        two_columns |= C4_BIT(2, row) | C4_BIT(3, row);
    cr_assert_eq(c4_count_fours(two_columns), 6, "%d", c4_count_fours(two_columns));
}

Test(connect4, count_fours_known_counts)
{
    uint64_t row5 = 0, row7 = 0, col6 = 0;
    for (int col = 0; col < 5; col++)
        row5 |= C4_BIT(col + 1, 3);
    for (int col = 0; col < C4_WIDTH; col++)
        row7 |= C4_BIT(col, 0);
    for (int row = 0; row < C4_HEIGHT; row++)
        col6 |= C4_BIT(4, row);
    cr_assert_eq(c4_count_fours(row5), 2, "row of 5: %d", c4_count_fours(row5));
    cr_assert_eq(c4_count_fours(row7), 4, "row of 7: %d", c4_count_fours(row7));
    cr_assert_eq(c4_count_fours(col6), 3, "column of 6: %d", c4_count_fours(col6));
    /* A row of 7 and a column of 6 crossing at (4, 0): 4 + 3. */
    cr_assert_eq(c4_count_fours(row7 | col6), 7, "%d", c4_count_fours(row7 | col6));
    cr_assert_eq(c4_count_fours(0), 0);
    cr_assert_eq(c4_count_fours(C4_BOARD_MASK), LINES_OF_FOUR, "full board: %d",
                 c4_count_fours(C4_BOARD_MASK));
    cr_assert_eq(brute_fours(row5), 2);
    cr_assert_eq(brute_fours(row7), 4);
    cr_assert_eq(brute_fours(C4_BOARD_MASK), LINES_OF_FOUR);
}

static void assert_fours_match(uint64_t discs, const char *what, int i)
{
    int want = brute_fours(discs);
    int got = c4_count_fours(discs);
    cr_assert_eq(got, want, "%s %d (discs 0x%013llx): %d fours, brute force %d", what, i,
                 (unsigned long long)discs, got, want);
    cr_assert_eq(c4_has_four(discs), want > 0, "%s %d: has_four %d with %d fours", what, i,
                 c4_has_four(discs), want);
}

Test(connect4, count_fours_matches_brute_force_on_random_boards)
{
    struct rng r;
    rng_seed(&r, SEED_PARTIAL);
    for (int i = 0; i < RANDOM_BOARDS; i++) {
        struct c4_pos p = random_position(&r);
        assert_fours_match(p.disc[0], "board", i);
        assert_fours_match(p.disc[1], "board", i);
    }
}

Test(connect4, count_fours_matches_brute_force_on_full_boards)
{
    struct rng r;
    rng_seed(&r, SEED_FULL);
    for (int i = 0; i < FULL_BOARDS; i++) {
        struct c4_pos p = random_full_board(&r, 0);
        cr_assert_eq(p.moves, C4_CELLS);
        assert_fours_match(p.disc[0], "full board", i);
        assert_fours_match(p.disc[1], "full board", i);
    }
}

Test(connect4, count_fours_matches_brute_force_on_arbitrary_bitboards)
{
    /* Any set of cells, floating discs included. */
    struct rng r;
    rng_seed(&r, SEED_ARBITRARY);
    for (int i = 0; i < ARBITRARY_BOARDS; i++) {
        uint64_t m = rng_next(&r) & C4_BOARD_MASK;
        if (i % 2)
            m |= rng_next(&r) & C4_BOARD_MASK;   /* denser */
        assert_fours_match(m, "bitboard", i);
    }
}

/* ---- open lines ------------------------------------------------------------- */

Test(connect4, count_lines_known_cases)
{
    struct c4_lines got;
    struct c4_lines none = { 0, 0, 0 };
    c4_count_lines(0, 0, &got);
    assert_lines_eq(got, none, "empty board");

    /* One disc is in no window with another. */
    c4_count_lines(C4_BIT(3, 0), 0, &got);
    assert_lines_eq(got, none, "one disc");

    /* Two side by side at the bottom-left: one window holds both. */
    uint64_t two = C4_BIT(0, 0) | C4_BIT(1, 0);
    c4_count_lines(two, 0, &got);
    assert_lines_eq(got, (struct c4_lines){ 0, 0, 1 }, "two in a row");

    /* Three: columns 1-4 hold three, columns 2-5 two. */
    uint64_t three = two | C4_BIT(2, 0);
    c4_count_lines(three, 0, &got);
    assert_lines_eq(got, (struct c4_lines){ 0, 1, 1 }, "three in a row");

    /* An opposing disc in column 4 blocks both windows. */
    c4_count_lines(three, C4_BIT(3, 0), &got);
    assert_lines_eq(got, none, "three, blocked");

    /* Four: the full window, plus columns 2-5 (three) and 3-6 (two). */
    uint64_t four = three | C4_BIT(3, 0);
    c4_count_lines(four, 0, &got);
    assert_lines_eq(got, (struct c4_lines){ 1, 1, 1 }, "four in a row");
}

Test(connect4, count_lines_matches_brute_force_on_random_boards)
{
    struct rng r;
    rng_seed(&r, SEED_LINES);
    for (int i = 0; i < RANDOM_BOARDS; i++) {
        struct c4_pos p = random_position(&r);
        for (int k = 0; k < 2; k++) {
            uint64_t mine = p.disc[k], opp = p.disc[k ^ 1];
            struct c4_lines got;
            c4_count_lines(mine, opp, &got);
            char what[64];
            snprintf(what, sizeof what, "board %d, player %d", i, k + 1);
            assert_lines_eq(got, brute_lines(mine, opp), what);
            cr_assert_eq(got.four, c4_count_fours(mine), "%s: four vs count_fours", what);
        }
    }
}

Test(connect4, evaluate_stays_below_the_bound)
{
    struct rng r;
    rng_seed(&r, SEED_LINES);
    for (int i = 0; i < RANDOM_BOARDS; i++) {
        struct c4_pos p = random_position(&r);
        int v4 = game_connect4.evaluate(&p), vm = game_maxconnect4.evaluate(&p);
        cr_assert_lt(abs(v4), SCORE_EVAL_MAX, "connect4 evaluate %d", v4);
        cr_assert_lt(abs(vm), SCORE_EVAL_MAX, "maxconnect4 evaluate %d", vm);
    }
}

/* ---- connect4: end of the game ------------------------------------------- */

Test(connect4, not_terminal_while_no_four_and_room)
{
    struct c4_pos p;
    c4_init(&p);
    int value = 12345;
    cr_assert_eq(game_connect4.terminal(&p, &value), 0);
    cr_assert_eq(game_result(&game_connect4, &p), -1);
    static const int cols[] = { 3, 3, 2, 4, 1 };   /* player 1 has three */
    play_columns(&p, cols, sizeof cols / sizeof cols[0]);
    cr_assert_eq(game_connect4.terminal(&p, &value), 0);
    cr_assert_eq(game_result(&game_connect4, &p), -1);
}

Test(connect4, vertical_win_scores_minus_win_for_side_to_move)
{
    struct c4_pos p;
    c4_init(&p);
    static const int cols[] = { 0, 1, 0, 1, 0, 1, 0 };
    play_columns(&p, cols, sizeof cols / sizeof cols[0]);
    int value = 0;
    cr_assert_eq(game_connect4.terminal(&p, &value), 1);
    cr_assert_eq(value, -SCORE_WIN, "value %d", value);
    cr_assert_eq(game_connect4.to_move(&p), 2);
    cr_assert_eq(game_result(&game_connect4, &p), 1);
}

Test(connect4, horizontal_win_of_player_2)
{
    struct c4_pos p;
    c4_init(&p);
    /* Player 2 fills the bottom row's columns 1-4. */
    static const int cols[] = { 6, 0, 6, 1, 5, 2, 6, 3 };
    play_columns(&p, cols, sizeof cols / sizeof cols[0]);
    cr_assert_not(c4_has_four(p.disc[0]));
    int value = 0;
    cr_assert_eq(game_connect4.terminal(&p, &value), 1);
    cr_assert_eq(value, -SCORE_WIN, "value %d", value);
    cr_assert_eq(game_result(&game_connect4, &p), 2);
}

Test(connect4, full_board_without_four_is_a_draw)
{
    struct c4_pos p = pos_from_rows(draw_rows, 1);
    cr_assert_eq(p.moves, C4_CELLS);
    cr_assert_eq(brute_fours(p.disc[0]) + brute_fours(p.disc[1]), 0, "not a drawn board");
    int value = 12345;
    cr_assert_eq(game_connect4.terminal(&p, &value), 1);
    cr_assert_eq(value, 0, "value %d", value);
    cr_assert_eq(game_result(&game_connect4, &p), 0);
    int moves[GAME_MAX_MOVES];
    cr_assert_eq(game_connect4.gen(&p, moves), 0);
}

Test(connect4, four_made_with_the_last_disc_is_a_win_not_a_draw)
{
    /* Player 2 moved last and holds one line; player 1 none. */
    static const char *const rows[C4_HEIGHT] = {
        "1112121",
        "1212121",
        "1222121",
        "2121212",
        "2121212",
        "2121212",
    };
    struct c4_pos p = pos_from_rows(rows, 1);
    cr_assert_eq(p.moves, C4_CELLS);
    cr_assert_eq(brute_fours(p.disc[0]), 0);
    cr_assert_eq(brute_fours(p.disc[1]), 1);
    int value = 0;
    cr_assert_eq(game_connect4.terminal(&p, &value), 1);
    cr_assert_eq(value, -SCORE_WIN, "value %d", value);
    cr_assert_eq(game_result(&game_connect4, &p), 2);
}

/* ---- maxconnect4: end of the game ---------------------------------------- */

Test(maxconnect4, not_terminal_before_42_discs_even_with_fours)
{
    struct c4_pos p;
    c4_init(&p);
    static const int cols[] = { 0, 1, 0, 1, 0, 1, 0 };
    play_columns(&p, cols, sizeof cols / sizeof cols[0]);
    cr_assert(c4_has_four(p.disc[0]));
    int value = 12345;
    cr_assert_eq(game_maxconnect4.terminal(&p, &value), 0);
    cr_assert_eq(game_result(&game_maxconnect4, &p), -1);
    int moves[GAME_MAX_MOVES];
    cr_assert_eq(game_maxconnect4.gen(&p, moves), C4_WIDTH, "play goes on");
}

Test(maxconnect4, terminal_exactly_at_42_discs_in_random_games)
{
    struct rng r;
    rng_seed(&r, SEED_TERMINAL);
    for (int game = 0; game < FULL_BOARDS / 10; game++) {
        struct c4_pos p;
        c4_init(&p);
        int value;
        while (p.moves < C4_CELLS) {
            cr_assert_eq(game_maxconnect4.terminal(&p, &value), 0, "game %d: over after %d",
                         game, p.moves);
            play_random(&r, &p, 1);
        }
        cr_assert_eq(game_maxconnect4.terminal(&p, &value), 1, "game %d: not over", game);
    }
}

Test(maxconnect4, full_board_tie_is_worth_zero)
{
    /* No lines at all. */
    struct c4_pos p = pos_from_rows(draw_rows, 1);
    int value = 12345;
    cr_assert_eq(game_maxconnect4.terminal(&p, &value), 1);
    cr_assert_eq(value, 0, "value %d", value);
    cr_assert_eq(game_result(&game_maxconnect4, &p), 0);

    /* Three rows each: 12 lines each. */
    static const char *const halves[C4_HEIGHT] = {
        "2222222", "2222222", "2222222", "1111111", "1111111", "1111111",
    };
    p = pos_from_rows(halves, 2);
    cr_assert_eq(c4_count_fours(p.disc[0]), 12);
    cr_assert_eq(c4_count_fours(p.disc[1]), 12);
    cr_assert_eq(game_maxconnect4.terminal(&p, &value), 1);
    cr_assert_eq(value, 0, "value %d", value);
    cr_assert_eq(game_result(&game_maxconnect4, &p), 0);
}

Test(maxconnect4, hand_built_full_board_scores_points)
{
    /* Cells as (column, row), 1-based from the bottom-left.
     * Player 1: rows 1-3 but (1,1), plus (4,4): bottom row 3 lines, rows 2
     * and 3 four each, column 4 one, the diagonal (4,4)-(7,1) one: 13.
     * Player 2: rows 5 and 6, four each; row 4 is broken at (4,4): 8. */
    static const char *const rows[C4_HEIGHT] = {
        "2222222",
        "2222222",
        "2221222",
        "1111111",
        "1111111",
        "2111111",
    };
    enum { POINTS_1 = 13, POINTS_2 = 8, MARGIN = POINTS_1 - POINTS_2 };
    struct c4_pos p = pos_from_rows(rows, 1);
    cr_assert_eq(c4_count_fours(p.disc[0]), POINTS_1, "%d", c4_count_fours(p.disc[0]));
    cr_assert_eq(c4_count_fours(p.disc[1]), POINTS_2, "%d", c4_count_fours(p.disc[1]));
    cr_assert_eq(brute_fours(p.disc[0]), POINTS_1);
    cr_assert_eq(brute_fours(p.disc[1]), POINTS_2);

    int value = 0;
    cr_assert_eq(game_maxconnect4.terminal(&p, &value), 1);
    cr_assert_eq(value, SCORE_WIN + MARGIN, "player 1 to move: value %d", value);
    cr_assert_eq(game_result(&game_maxconnect4, &p), 1);

    p.to_move = 1;
    cr_assert_eq(game_maxconnect4.terminal(&p, &value), 1);
    cr_assert_eq(value, -(SCORE_WIN + MARGIN), "player 2 to move: value %d", value);
    cr_assert_eq(game_result(&game_maxconnect4, &p), 1);
}

Test(maxconnect4, terminal_value_matches_points_on_random_full_boards)
{
    struct rng r;
    rng_seed(&r, SEED_FULL);
    for (int i = 0; i < FULL_BOARDS; i++) {
        struct c4_pos p = random_full_board(&r, i % 2);
        int points1 = brute_fours(p.disc[0]), points2 = brute_fours(p.disc[1]);
        int value = 0;
        cr_assert_eq(game_maxconnect4.terminal(&p, &value), 1, "board %d", i);
        int want = expected_full_value(&p);
        cr_assert_eq(value, want, "board %d (%d-%d, player %d to move): value %d, expected %d",
                     i, points1, points2, p.to_move + 1, value, want);
        cr_assert_lt(abs(value) - SCORE_WIN, SCORE_MARGIN_MAX);
        int winner = points1 > points2 ? 1 : points2 > points1 ? 2 : 0;
        cr_assert_eq(game_result(&game_maxconnect4, &p), winner,
                     "board %d (%d-%d): result %d", i, points1, points2,
                     game_result(&game_maxconnect4, &p));
    }
}

/* ---- move text ---------------------------------------------------------- */

static void assert_move_text_round_trip(const struct game *g)
{
    struct c4_pos p;
    game_init(g, &p);
    for (int col = 0; col < C4_WIDTH; col++) {
        char buf[GAME_MOVE_TEXT_MAX];
        int n = g->move_text(&p, col, buf, sizeof buf);
        char want[2] = { (char)('1' + col), '\0' };
        cr_assert_eq(n, 1, "%s: move_text length %d", g->name, n);
        cr_assert_str_eq(buf, want, "%s: column %d written \"%s\"", g->name, col, buf);
        int move = -1;
        cr_assert_eq(g->parse_move(&p, buf, &move), 0, "%s: \"%s\" refused", g->name, buf);
        cr_assert_eq(move, col, "%s: \"%s\" read as %d", g->name, buf, move);
    }
}

static void assert_parse_move_rejects(const struct game *g)
{
    struct c4_pos p;
    game_init(g, &p);
    static const char *const bad[] = { "0", "8", "9", "44", "10", "01", "", "a", " 1", "1 ",
                                       "-1", "+1", "4\n" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int move = -1;
        cr_assert_eq(g->parse_move(&p, bad[i], &move), -1, "%s: \"%s\" accepted as %d",
                     g->name, bad[i], move);
    }
    /* A full column. */
    for (int i = 0; i < C4_HEIGHT; i++)
        g->play(&p, 3);
    int move = -1;
    cr_assert_eq(g->parse_move(&p, "4", &move), -1, "%s: full column 4 accepted", g->name);
    cr_assert_eq(g->parse_move(&p, "3", &move), 0);
    cr_assert_eq(move, 2);
}

Test(connect4, move_text_and_parse_move_round_trip)
{
    assert_move_text_round_trip(&game_connect4);
}

Test(connect4, parse_move_rejects_bad_text_and_full_column)
{
    assert_parse_move_rejects(&game_connect4);
}

Test(maxconnect4, move_text_and_parse_move_round_trip)
{
    assert_move_text_round_trip(&game_maxconnect4);
}

Test(maxconnect4, parse_move_rejects_bad_text_and_full_column)
{
    assert_parse_move_rejects(&game_maxconnect4);
}

/* ---- keys --------------------------------------------------------------- */

Test(connect4, hash_equal_for_equal_positions)
{
    /* The same position by two move orders. */
    static const int order_a[] = { 0, 1, 2, 3, 3 };
    static const int order_b[] = { 2, 3, 0, 1, 3 };
    struct c4_pos a, b;
    c4_init(&a);
    c4_init(&b);
    play_columns(&a, order_a, sizeof order_a / sizeof order_a[0]);
    play_columns(&b, order_b, sizeof order_b / sizeof order_b[0]);
    cr_assert_eq(memcmp(&a, &b, sizeof a), 0);
    cr_assert_eq(game_connect4.hash(&a), game_connect4.hash(&b));
    cr_assert_eq(game_maxconnect4.hash(&a), game_maxconnect4.hash(&b));

    /* Random positions against their copies rebuilt from the board text. */
    struct rng r;
    rng_seed(&r, SEED_KEYS);
    for (int i = 0; i < RANDOM_BOARDS; i++) {
        struct c4_pos p = random_position(&r), q;
        char buf[GAME_FORMAT_MAX];
        size_t len = game_maxconnect4.format(&p, buf);
        struct err e;
        cr_assert_eq(game_maxconnect4.parse(&q, buf, len, &e), 0, "%s", e.msg);
        cr_assert_eq(game_maxconnect4.hash(&p), game_maxconnect4.hash(&q), "position %d", i);
    }
}

Test(connect4, hash_differs_for_positions_one_disc_apart)
{
    struct rng r;
    rng_seed(&r, SEED_KEYS);
    for (int i = 0; i < RANDOM_BOARDS; i++) {
        struct c4_pos p = random_position(&r);
        uint64_t key = game_connect4.hash(&p);
        for (int col = 0; col < C4_WIDTH; col++) {
            if (!c4_can_play(&p, col))
                continue;
            /* One more disc of either player, same player to move. */
            struct c4_pos q[2] = { p, p };
            for (int k = 0; k < 2; k++) {
                q[k].disc[k] |= next_cell(&p, col);
                q[k].moves++;
                cr_assert_neq(game_connect4.hash(&q[k]), key,
                              "position %d: a disc of player %d in column %d keeps the key",
                              i, k + 1, col);
            }
            cr_assert_neq(game_connect4.hash(&q[0]), game_connect4.hash(&q[1]),
                          "position %d: the colour of the new disc in column %d is lost", i,
                          col);
            /* The position after playing there. */
            struct c4_pos after = p;
            c4_play(&after, col);
            cr_assert_neq(game_connect4.hash(&after), key, "position %d, column %d", i, col);
        }
    }
}

static int compare_keyed(const void *a, const void *b)
{
    const uint64_t ka = *(const uint64_t *)a, kb = *(const uint64_t *)b;
    return ka < kb ? -1 : ka > kb;
}

struct keyed_pos {
    uint64_t key;   /* first, for compare_keyed */
    struct c4_pos pos;
};

Test(connect4, hash_distinct_for_distinct_positions_of_random_games)
{
    /* Every game starts with player 1, as in the classic game: then the key
     * is unique (Pons). */
    static struct keyed_pos seen[KEY_POSITIONS];
    struct rng r;
    rng_seed(&r, SEED_KEYS);
    for (int i = 0; i < KEY_POSITIONS; i++) {
        seen[i].pos = random_position(&r);
        seen[i].key = game_connect4.hash(&seen[i].pos);
    }
    qsort(seen, KEY_POSITIONS, sizeof seen[0], compare_keyed);
    int distinct = 1;
    for (int i = 1; i < KEY_POSITIONS; i++) {
        if (seen[i].key != seen[i - 1].key) {
            distinct++;
            continue;
        }
        cr_assert_eq(memcmp(&seen[i].pos, &seen[i - 1].pos, sizeof seen[i].pos), 0,
                     "two positions share key 0x%016llx", (unsigned long long)seen[i].key);
    }
    cr_assert_gt(distinct, KEY_POSITIONS / 2, "only %d distinct positions", distinct);
}
