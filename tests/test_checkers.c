/*
 * test_checkers.c - the checkers module (checkers.h): the seed's rules
 * position by position (moves, captures, towers, promotion, the end of the
 * game), the canonical order against an independent 8x8-array rule book on
 * random positions, the perft table, the seed's action checks in order,
 * board files (round trips and every rejection with its line and column),
 * move text, keys, the referee's helpers (irreversible, explain), and the
 * search: the seed's minimax (black maximises, white minimises, INT_MIN and
 * INT_MAX for a side that cannot act, the left-most child on ties) written
 * out plainly here, against search_minimax and search_alphabeta with the
 * seed's options on random positions at depths 1 to 5.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include "arena/checkers.h"
#include "arena/record.h"
#include "arena/rng.h"
#include "arena/search.h"

#define MOVES_TEXT_MAX 512
#define RANDOM_POSITIONS 300
#define DEEP_POSITIONS 300
#define MAX_TEST_DEPTH 5
#define MAX_RANDOM_PLIES 80
#define MAX_RANDOM_MEN 6            /* pieces and towers a side in scattered positions */
#define PERFT_MAX_DEPTH 8
#define SMALL_TT_BYTES ((size_t)1 << 20)

/* ---- helpers ------------------------------------------------------------ */

static void load(struct ck_pos *p, const char *text)
{
    struct err e;
    int rc = game_checkers.parse(p, text, strlen(text), &e);
    cr_assert_eq(rc, 0, "board rejected: %d:%d: %s\n%s", e.line, e.col, e.msg, text);
}

/* The actions of p as text, in generation order, separated by spaces. */
static void moves_text(const struct ck_pos *p, char *buf, size_t cap)
{
    int moves[GAME_MAX_MOVES];
    int n = ck_gen(p, moves);
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; i < n && len < cap; i++) {
        char t[GAME_MOVE_TEXT_MAX];
        ck_move_text(moves[i], t, sizeof t);
        len += (size_t)snprintf(buf + len, cap - len, "%s%s", i ? " " : "", t);
    }
}

static void format_text(const struct ck_pos *p, char *buf)
{
    game_checkers.format(p, buf);
}

/* A random position reached by random actions from the start. */
static void random_game_position(struct rng *r, struct ck_pos *p)
{
    ck_init(p);
    int plies = (int)rng_below(r, MAX_RANDOM_PLIES);
    for (int i = 0; i < plies; i++) {
        int moves[GAME_MAX_MOVES];
        int n = ck_gen(p, moves);
        if (n == 0)
            break;
        ck_play(p, moves[rng_below(r, (uint32_t)n)]);
    }
}

/* A random sparse position: a few pieces and towers a side anywhere they
 * may stand, so that towers, captures and lost sides are common. */
static void random_scattered_position(struct rng *r, struct ck_pos *p)
{
    memset(p, 0, sizeof *p);
    for (int side = 0; side < 2; side++) {
        int men = 1 + (int)rng_below(r, MAX_RANDOM_MEN);
        for (int i = 0; i < men; i++) {
            int sq = (int)rng_below(r, CK_SQUARES);
            uint32_t b = UINT32_C(1) << sq;
            if ((ck_all(p, CK_BLACK) | ck_all(p, CK_WHITE)) & b)
                continue;
            int row, col;
            ck_coords(sq, &row, &col);
            int far = row == (side == CK_BLACK ? 0 : CK_SIZE - 1);
            if (far || rng_below(r, 3) == 0)
                p->tower[side] |= b;
            else
                p->piece[side] |= b;
        }
    }
    p->to_move = (uint8_t)rng_below(r, 2);
}

static void random_position(struct rng *r, int i, struct ck_pos *p)
{
    if (i % 2)
        random_scattered_position(r, p);
    else
        random_game_position(r, p);
}

/* ---- an independent rule book on an 8x8 array ----------------------------- */

/* The seed's rules written directly: rows top to bottom from row 1, columns
 * A-H, directions NE SE SW NW as (row, column) steps. */
static const int dir_dr[CK_DIRS] = { -1, +1, +1, -1 };
static const int dir_dc[CK_DIRS] = { +1, +1, -1, -1 };

struct grid {
    char c[CK_SIZE][CK_SIZE];
    int black_to_move;
};

struct grid_move {
    int fr, fc, tr, tc;
};

static void grid_from(const struct ck_pos *p, struct grid *g)
{
    char text[GAME_FORMAT_MAX];
    format_text(p, text);
    for (int r = 0; r < CK_SIZE; r++)
        memcpy(g->c[r], text + r * (CK_SIZE + 1), CK_SIZE);
    g->black_to_move = text[CK_SIZE * (CK_SIZE + 1)] == 'b';
}

static int inside(int r, int c)
{
    return r >= 0 && r < CK_SIZE && c >= 0 && c < CK_SIZE;
}

static int grid_moves(const struct grid *g, struct grid_move *out)
{
    char mine = g->black_to_move ? 'b' : 'w', theirs = g->black_to_move ? 'w' : 'b';
    int forward = g->black_to_move ? -1 : +1, n = 0;
    for (int r = 0; r < CK_SIZE; r++)
        for (int c = 0; c < CK_SIZE; c++) {
            char x = g->c[r][c];
            if (x != mine && x != mine - 'a' + 'A')
                continue;
            for (int d = 0; d < CK_DIRS; d++) {
                if (x == mine && dir_dr[d] != forward)
                    continue;
                int r1 = r + dir_dr[d], c1 = c + dir_dc[d];
                int r2 = r1 + dir_dr[d], c2 = c1 + dir_dc[d];
                if (!inside(r1, c1))
                    continue;
                char y = g->c[r1][c1];
                if (y == '.')
                    out[n++] = (struct grid_move){ r, c, r1, c1 };
                else if ((y == theirs || y == theirs - 'a' + 'A') && inside(r2, c2)
                         && g->c[r2][c2] == '.')
                    out[n++] = (struct grid_move){ r, c, r2, c2 };
            }
        }
    return n;
}

static void grid_play(struct grid *g, const struct grid_move *m)
{
    char x = g->c[m->fr][m->fc];
    g->c[m->fr][m->fc] = '.';
    if (m->tr - m->fr == 2 || m->fr - m->tr == 2)
        g->c[(m->fr + m->tr) / 2][(m->fc + m->tc) / 2] = '.';
    if (x == 'b' && m->tr == 0)
        x = 'B';
    if (x == 'w' && m->tr == CK_SIZE - 1)
        x = 'W';
    g->c[m->tr][m->tc] = x;
    g->black_to_move = !g->black_to_move;
}

static long long grid_perft(const struct grid *g, int depth)
{
    struct grid_move m[GAME_MAX_MOVES];
    int n = grid_moves(g, m);
    if (depth == 1)
        return n;
    long long total = 0;
    for (int i = 0; i < n; i++) {
        struct grid child = *g;
        grid_play(&child, &m[i]);
        total += grid_perft(&child, depth - 1);
    }
    return total;
}

static long long ck_perft(const struct ck_pos *p, int depth)
{
    int moves[GAME_MAX_MOVES];
    int n = ck_gen(p, moves);
    if (depth == 1)
        return n;
    long long total = 0;
    for (int i = 0; i < n; i++) {
        struct ck_pos child = *p;
        ck_play(&child, moves[i]);
        total += ck_perft(&child, depth - 1);
    }
    return total;
}

/* ---- the start ------------------------------------------------------------ */

static const char start_text[] =
    ".w.w.w.w\n"
    "w.w.w.w.\n"
    ".w.w.w.w\n"
    "........\n"
    "........\n"
    "b.b.b.b.\n"
    ".b.b.b.b\n"
    "b.b.b.b.\n"
    "black\n";

Test(checkers, initial_setup_is_figure_1a)
{
    struct ck_pos p, q;
    ck_init(&p);
    char text[GAME_FORMAT_MAX];
    format_text(&p, text);
    cr_assert_str_eq(text, start_text);
    game_checkers.init(&q);
    cr_assert_eq(memcmp(&p, &q, sizeof p), 0);
    cr_assert_eq(ck_count(&p, CK_BLACK), CK_MAX_PIECES);
    cr_assert_eq(ck_count(&p, CK_WHITE), CK_MAX_PIECES);
    cr_assert_eq(ck_cost(&p), 0);
    cr_assert_eq(game_checkers.to_move(&p), 1, "black is player 1 and opens");
}

Test(checkers, squares_and_coordinates_agree)
{
    int seen = 0;
    for (int row = -1; row <= CK_SIZE; row++)
        for (int col = -1; col <= CK_SIZE; col++) {
            int sq = ck_square(row, col);
            int playable = inside(row, col) && (row + col) % 2 == 1;
            cr_assert_eq(sq >= 0, playable, "(%d, %d) gave square %d", row, col, sq);
            if (sq < 0)
                continue;
            cr_assert_eq(sq, seen, "(%d, %d) is square %d, expected %d (row-major)", row, col, sq,
                         seen);
            int r, c;
            ck_coords(sq, &r, &c);
            cr_assert(r == row && c == col, "square %d back to (%d, %d), not (%d, %d)", sq, r, c,
                      row, col);
            seen++;
        }
    cr_assert_eq(seen, CK_SQUARES);
}

/* ---- actions, position by position ---------------------------------------- */

struct gen_case {
    char name[40];
    char board[96];      /* the 8 rows, then black or white */
    char moves[200];     /* expected actions in canonical order */
};

ParameterizedTestParameters(checkers, actions_in_canonical_order)
{
    static struct gen_case cases[] = {
        { "start, black", ".w.w.w.w\nw.w.w.w.\n.w.w.w.w\n........\n........\nb.b.b.b.\n.b.b.b.b\n"
                          "b.b.b.b.\nblack\n",
          "A6-B5 C6-D5 C6-B5 E6-F5 E6-D5 G6-H5 G6-F5" },
        { "start, white", ".w.w.w.w\nw.w.w.w.\n.w.w.w.w\n........\n........\nb.b.b.b.\n.b.b.b.b\n"
                          "b.b.b.b.\nwhite\n",
          "B3-C4 B3-A4 D3-E4 D3-C4 F3-G4 F3-E4 H3-G4" },
        { "black piece goes north only", "........\n........\n........\n........\n...b....\n"
                                         "........\n........\n........\nblack\n",
          "D5-E4 D5-C4" },
        { "white piece goes south only", "........\n........\n........\n........\n...w....\n"
                                         "........\n........\n........\nwhite\n",
          "D5-E6 D5-C6" },
        { "black tower, all four ways", "........\n........\n........\n........\n...B....\n"
                                        "........\n........\n........\nblack\n",
          "D5-E4 D5-E6 D5-C6 D5-C4" },
        { "white tower, all four ways", "........\n........\n........\n........\n...W....\n"
                                        "........\n........\n........\nwhite\n",
          "D5-E4 D5-E6 D5-C6 D5-C4" },
        { "piece captures forward", "........\n........\n........\n....w...\n...b....\n"
                                    "........\n........\n........\nblack\n",
          "D5-F3 D5-C4" },
        { "piece never captures backward", "........\n........\n........\n........\n...b....\n"
                                           "....w...\n........\n........\nblack\n",
          "D5-E4 D5-C4" },
        { "tower captures backward", "........\n........\n........\n........\n...B....\n"
                                     "....w...\n........\n........\nblack\n",
          "D5-E4 D5-F7 D5-C6 D5-C4" },
        { "white tower captures north", "........\n........\n........\n..b.....\n...W....\n"
                                        "........\n........\n........\nwhite\n",
          "D5-E4 D5-E6 D5-C6 D5-B3" },
        { "capture needs an empty landing", "........\n........\n.....w..\n....w...\n...b....\n"
                                            "........\n........\n........\nblack\n",
          "D5-C4" },
        { "no capture of one's own", "........\n........\n........\n....b...\n...b....\n"
                                     "........\n........\n........\nblack\n",
          "E4-F3 E4-D3 D5-C4" },
        { "no jump off the board", "........\n........\n........\nw.......\n.b......\n"
                                   "........\n........\n........\nblack\n",
          "B5-C4" },
        { "captures towers too", "........\n........\n........\n..W.....\n...b....\n"
                                 "........\n........\n........\nblack\n",
          "D5-E4 D5-B3" },
        { "blocked side has none", "........\n........\n........\n........\n........\n"
                                   "..w.....\n.w......\nb.......\nblack\n",
          "" },
        { "no pieces, no actions", "........\n........\n........\n....w...\n........\n"
                                   "........\n........\n........\nblack\n",
          "" },
        { "row-major, then clockwise", ".B......\n........\n........\n........\n........\n"
                                       "........\n.......b\nb.......\nblack\n",
          "B1-C2 B1-A2 H7-G6 A8-B7" },
    };
    return cr_make_param_array(struct gen_case, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct gen_case *c, checkers, actions_in_canonical_order)
{
    struct ck_pos p;
    load(&p, c->board);
    char got[MOVES_TEXT_MAX];
    moves_text(&p, got, sizeof got);
    cr_assert_str_eq(got, c->moves, "%s: actions \"%s\", expected \"%s\"", c->name, got,
                     c->moves);
    cr_assert_eq(ck_has_action(&p), c->moves[0] != '\0', "%s: has_action", c->name);
}

/* The board after one action, and the irreversible flag of that action. */
struct play_case {
    char name[40];
    char before[96];
    char action[8];
    char after[96];
    int irreversible;
};

ParameterizedTestParameters(checkers, playing_an_action)
{
    static struct play_case cases[] = {
        { "black move", "........\n........\n........\n........\n...b....\n........\n........\n"
                        "........\nblack\n",
          "D5-E4",
          "........\n........\n........\n....b...\n........\n........\n........\n........\n"
          "white\n",
          0 },
        { "black promotes", "........\n..b.....\n........\n........\n........\n........\n"
                            "........\n........\nblack\n",
          "C2-D1",
          "...B....\n........\n........\n........\n........\n........\n........\n........\n"
          "white\n",
          1 },
        { "white capture promotes", "........\n........\n........\n........\n........\n"
                                    "..w.....\n...b....\n........\nwhite\n",
          "C6-E8",
          "........\n........\n........\n........\n........\n........\n........\n....W...\n"
          "black\n",
          1 },
        { "tower moves back", "........\n........\n........\n........\n...B....\n........\n"
                              "........\n........\nblack\n",
          "D5-C6",
          "........\n........\n........\n........\n........\n..B.....\n........\n........\n"
          "white\n",
          0 },
        { "white tower captures back", "........\n........\n........\n..b.....\n...W....\n"
                                       "........\n........\n........\nwhite\n",
          "D5-B3",
          "........\n........\n.W......\n........\n........\n........\n........\n........\n"
          "black\n",
          1 },
        { "a tower reaching the far row", "........\n..B.....\n........\n........\n"
                                          "........\n........\n........\n........\nblack\n",
          "C2-D1",
          "...B....\n........\n........\n........\n........\n........\n........\n........\n"
          "white\n",
          0 },
        { "tower captures a tower", "........\n........\n........\n........\n...B....\n"
                                    "..W.....\n........\n........\nblack\n",
          "D5-B7",
          "........\n........\n........\n........\n........\n........\n.B......\n........\n"
          "white\n",
          1 },
        { "a tower on the far row stays one", "...B....\n..w.....\n........\n........\n"
                                              "........\n........\n........\n........\nblack\n",
          "D1-B3",
          "........\n........\n.B......\n........\n........\n........\n........\n........\n"
          "white\n",
          1 },
    };
    return cr_make_param_array(struct play_case, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct play_case *c, checkers, playing_an_action)
{
    struct ck_pos p;
    load(&p, c->before);
    int move;
    int found = game_checkers.parse_move(&p, c->action, &move) == 0;
    cr_assert_eq(found, c->after[0] != '\0', "%s: %s %s", c->name, c->action,
                 found ? "is legal" : "is not legal");
    if (!found)
        return;
    cr_assert_eq(ck_irreversible(&p, move), c->irreversible, "%s: irreversible", c->name);
    cr_assert_eq(game_checkers.irreversible(&p, move), c->irreversible);
    ck_play(&p, move);
    char got[GAME_FORMAT_MAX];
    format_text(&p, got);
    cr_assert_str_eq(got, c->after, "%s: after %s\n%s", c->name, c->action, got);
}

/* One jump per turn: after a capture that could continue, the turn passes. */
Test(checkers, one_jump_per_turn)
{
    struct ck_pos p;
    load(&p, "........\n........\n...w....\n........\n.w......\nb.......\n........\n........\n"
             "black\n");
    int move;
    cr_assert_eq(game_checkers.parse_move(&p, "A6-C4", &move), 0);
    ck_play(&p, move);
    char got[GAME_FORMAT_MAX];
    format_text(&p, got);
    cr_assert_str_eq(got, "........\n........\n...w....\n..b.....\n........\n........\n"
                          "........\n........\nwhite\n",
                     "the jump over D3 to E2 waits: the turn passed\n%s", got);
}

Test(checkers, a_side_that_cannot_act_has_lost)
{
    struct ck_pos p;
    int value;
    load(&p, "........\n........\n........\n....w...\n........\n........\n........\n........\n"
             "black\n");
    cr_assert_eq(game_checkers.terminal(&p, &value), 1, "black has nothing left");
    cr_assert_eq(value, -SCORE_WIN);
    cr_assert_eq(game_result(&game_checkers, &p), 2, "white won");
    load(&p, "........\n........\n........\n........\n........\n..w.....\n.w......\nb.......\n"
             "black\n");
    cr_assert_eq(game_checkers.terminal(&p, &value), 1, "black's only piece is blocked");
    cr_assert_eq(game_result(&game_checkers, &p), 2);
    load(&p, "........\n........\n........\n........\n........\n..w.....\n.w......\nb.......\n"
             "white\n");
    cr_assert_eq(game_checkers.terminal(&p, &value), 0, "white can still act");
    ck_init(&p);
    cr_assert_eq(game_checkers.terminal(&p, &value), 0);
}

Test(checkers, board_cost_counts_a_tower_as_three)
{
    struct ck_pos p;
    load(&p, "...B....\nw.......\n........\nb.......\n........\n..b.....\n.......W\n........\n"
             "white\n");
    /* b = 2, B = 1, w = 1, W = 1: 2 + 3 - 1 - 3 */
    cr_assert_eq(ck_cost(&p), 1);
    cr_assert_eq(game_checkers.evaluate(&p), -1, "white's view");
    p.to_move = CK_BLACK;
    cr_assert_eq(game_checkers.evaluate(&p), 1, "black's view");
    cr_assert_eq(ck_count(&p, CK_BLACK), 3);
    cr_assert_eq(ck_count(&p, CK_WHITE), 2);
}

/* The generator's list, order included, equals the array rule book's on
 * random positions, and playing each action gives the same board. */
Test(checkers, generation_matches_the_rule_book_on_random_positions)
{
    struct rng r;
    rng_seed(&r, 7);
    for (int i = 0; i < 2000; i++) {
        struct ck_pos p;
        random_position(&r, i, &p);
        struct grid g;
        grid_from(&p, &g);
        struct grid_move gm[GAME_MAX_MOVES];
        int moves[GAME_MAX_MOVES];
        int n = ck_gen(&p, moves), gn = grid_moves(&g, gm);
        char board[GAME_FORMAT_MAX];
        format_text(&p, board);
        cr_assert_eq(n, gn, "position %d: %d actions, the rule book has %d\n%s", i, n, gn, board);
        for (int k = 0; k < n; k++) {
            char got[GAME_MOVE_TEXT_MAX], want[GAME_MOVE_TEXT_MAX];
            ck_move_text(moves[k], got, sizeof got);
            snprintf(want, sizeof want, "%c%d-%c%d", 'A' + gm[k].fc, gm[k].fr + 1, 'A' + gm[k].tc,
                     gm[k].tr + 1);
            cr_assert_str_eq(got, want, "position %d action %d: %s, rule book %s\n%s", i, k, got,
                             want, board);
            struct ck_pos child = p;
            ck_play(&child, moves[k]);
            struct grid gchild = g, back;
            grid_play(&gchild, &gm[k]);
            grid_from(&child, &back);
            cr_assert_eq(memcmp(&back, &gchild, sizeof back), 0, "position %d after %s\n%s", i,
                         got, board);
        }
    }
}

/* ---- perft ----------------------------------------------------------------- */

/*
 * Leaf counts from the start, to depth 8. Depths 1-3 by hand:
 *   1: black's row-6 pieces have A6:1, C6:2, E6:2, G6:2 = 7 moves.
 *   2: 7 x 7 = 49: white's row-3 pieces likewise have 7, untouched by any
 *      black first move (nothing can reach row 4 yet, no capture).
 *   3: after black X moved to row 5 and white T moved from row 3 to row 4,
 *      black has the other row-6 pieces' moves (6 for every first move but
 *      G6-H5, which leaves all of A6, C6, E6 free: 7), the row-7 pieces
 *      next to the vacated row-6 square, and X's own: one per empty
 *      diagonal on row 4, plus a capture of T when T's square on X's
 *      diagonal has the vacated row-3 square behind it. Over white's 7
 *      replies X's actions sum to 12 from B5, D5 and F5 and 6 from H5, so
 *      six first moves give 7 x 6 + 12 = 54 and G6-H5 gives 7 x 7 + 6 = 55:
 *      6 x 54 + 55 = 379.
 * Depths 4-8 from the array rule book above (grid_perft), which the test
 * below recomputes to depth PERFT_CHECKED_DEPTH.
 */
static const long long perft_table[PERFT_MAX_DEPTH + 1] = {
    1, 7, 49, 379, 2872, 23582, 189143, 1585096, 13019316,
};

#define PERFT_CHECKED_DEPTH 8

ParameterizedTestParameters(checkers, perft_from_the_start)
{
    static int depths[PERFT_MAX_DEPTH];
    for (int i = 0; i < PERFT_MAX_DEPTH; i++)
        depths[i] = i + 1;
    return cr_make_param_array(int, depths, PERFT_MAX_DEPTH);
}

ParameterizedTest(int *depth, checkers, perft_from_the_start)
{
    struct ck_pos p;
    ck_init(&p);
    long long got = ck_perft(&p, *depth);
    cr_assert_eq(got, perft_table[*depth], "perft(%d) = %lld, expected %lld", *depth, got,
                 perft_table[*depth]);
    if (*depth <= PERFT_CHECKED_DEPTH) {
        struct grid g;
        grid_from(&p, &g);
        long long ref = grid_perft(&g, *depth);
        cr_assert_eq(ref, perft_table[*depth], "rule book perft(%d) = %lld, table %lld", *depth,
                     ref, perft_table[*depth]);
    }
}

/* ---- the seed's checks on input actions ----------------------------------- */

struct check_case {
    int src_row, src_col, dst_row, dst_col;
    enum ck_action_check want;
};

ParameterizedTestParameters(checkers, input_checks_in_the_seeds_order)
{
    /* On the start position, black to move. Rows and columns 0-based. */
    static struct check_case cases[] = {
        { 3, 8, 5, 4, CK_SOURCE_OUTSIDE },      /* I4-E6 (test5) */
        { 8, 0, 9, 9, CK_SOURCE_OUTSIDE },      /* A9-J10: the source first */
        { -1, 0, 4, 5, CK_SOURCE_OUTSIDE },     /* A0-F5 */
        { 5, 6, 4, -1, CK_TARGET_OUTSIDE },     /* G6-@5 */
        { 4, 0, 8, 0, CK_TARGET_OUTSIDE },      /* A5-A9: empty source, checked later */
        { 4, 5, 1, 0, CK_SOURCE_EMPTY },        /* F5-A2: target not empty, checked later */
        { 3, 3, 4, 4, CK_SOURCE_EMPTY },        /* D4-E5: unplayable squares are empty */
        { 5, 6, 6, 7, CK_TARGET_NOT_EMPTY },    /* G6-H7 */
        { 1, 6, 0, 7, CK_TARGET_NOT_EMPTY },    /* G2-H1: before the opponent check */
        { 2, 7, 3, 6, CK_SOURCE_OPPONENT },     /* H3-G4: white moving first */
        { 5, 6, 3, 4, CK_ILLEGAL },             /* G6-E4: two squares, no capture */
        { 5, 6, 4, 6, CK_ILLEGAL },             /* G6-G5: not diagonal, unplayable */
        { 5, 6, 4, 5, CK_ACTION_OK },           /* G6-F5 */
    };
    return cr_make_param_array(struct check_case, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct check_case *c, checkers, input_checks_in_the_seeds_order)
{
    struct ck_pos p;
    ck_init(&p);
    int move = -1;
    enum ck_action_check got = ck_check_action(&p, c->src_row, c->src_col, c->dst_row,
                                               c->dst_col, &move);
    cr_assert_eq(got, c->want, "(%d,%d)-(%d,%d): check %d, expected %d", c->src_row, c->src_col,
                 c->dst_row, c->dst_col, got, c->want);
    if (got == CK_ACTION_OK)
        cr_assert_eq(move, CK_MOVE(ck_square(c->src_row, c->src_col),
                                   ck_square(c->dst_row, c->dst_col)));
}

Test(checkers, backward_piece_move_is_illegal_but_a_towers_is_not)
{
    struct ck_pos p;
    int move;
    load(&p, "........\n........\n........\n........\n...b....\n........\n........\n........\n"
             "black\n");
    cr_assert_eq(ck_check_action(&p, 4, 3, 5, 2, &move), CK_ILLEGAL, "D5-C6 for a piece");
    load(&p, "........\n........\n........\n........\n...B....\n........\n........\n........\n"
             "black\n");
    cr_assert_eq(ck_check_action(&p, 4, 3, 5, 2, &move), CK_ACTION_OK, "D5-C6 for a tower");
}

/* ---- board files ------------------------------------------------------------ */

Test(checkers, board_file_round_trips_in_every_line_ending)
{
    static const char canonical[] =
        "...B....\n"
        "w.......\n"
        "........\n"
        "b.......\n"
        "........\n"
        "..b.....\n"
        ".......W\n"
        "........\n"
        "white\n";
    static const char *const variants[] = {
        canonical,
        "...B....\r\nw.......\r\n........\r\nb.......\r\n........\r\n..b.....\r\n.......W\r\n"
        "........\r\nwhite\r\n",
        "...B....\rw.......\r........\rb.......\r........\r..b.....\r.......W\r........\rwhite",
        "...B....  \nw.......\n........\nb.......\n........\n..b.....\n.......W\n........\n"
        "white  \n\n\n",
    };
    for (size_t i = 0; i < sizeof variants / sizeof *variants; i++) {
        struct ck_pos p;
        load(&p, variants[i]);
        char text[GAME_FORMAT_MAX];
        size_t len = game_checkers.format(&p, text);
        cr_assert_eq(len, strlen(canonical), "variant %zu: length %zu", i, len);
        cr_assert_str_eq(text, canonical, "variant %zu", i);
    }
    struct rng r;
    rng_seed(&r, 11);
    for (int i = 0; i < 500; i++) {
        struct ck_pos p, q;
        random_position(&r, i, &p);
        char text[GAME_FORMAT_MAX];
        format_text(&p, text);
        load(&q, text);
        cr_assert_eq(memcmp(&p, &q, sizeof p), 0, "position %d did not round trip\n%s", i, text);
    }
}

struct bad_file {
    char text[160];
    int line, col;
    char msg[96];
};

ParameterizedTestParameters(checkers, board_file_rejections)
{
#define ROWS_1_7 ".w.w.w.w\nw.w.w.w.\n.w.w.w.w\n........\n........\nb.b.b.b.\n.b.b.b.b\n"
    static struct bad_file cases[] = {
        { "", 1, 1, "missing board row 1 of 8 (8 characters ., b, w, B, W)" },
        { ROWS_1_7, 8, 1, "missing board row 8 of 8 (8 characters ., b, w, B, W)" },
        { ".w.w.w.w\nw.w.x.w.\n", 2, 5, "unexpected character 'x', expected ., b, w, B or W" },
        { ".w.w.w.w\nw.w.w.w\n", 2, 8, "row has 7 cells, expected 8" },
        { ".w.w.w.w.\n", 1, 9, "row has 9 cells, expected 8" },
        { ".w.w.w.w\nw.w w.w.\n", 2, 4, "unexpected character ' ', expected ., b, w, B or W" },
        { "w.......\n", 1, 1, "'w' on A1, a square that is never played" },
        { "........\n........\n........\n...B....\n", 4, 4,
          "'B' on D4, a square that is never played" },
        { ".b......\n", 1, 2, "a black piece on row 1, its far row, must be a tower ('B')" },
        { ".B......\n........\n........\n........\n........\n........\n........\nw.......\n", 8, 1,
          "a white piece on row 8, its far row, must be a tower ('W')" },
        { ".w.w.w.w\nw.w.w.w.\n.w.w.w.w\nw.......\n", 4, 1,
          "more than 12 white pieces and towers" },
        { "........\n........\n........\n........\nbBb.b.b.\n", 5, 1,
          "'b' on A5, a square that is never played" },
        { ROWS_1_7 "b.b.b.b.\n", 9, 1, "missing the side-to-move line (black or white)" },
        { ROWS_1_7 "b.b.b.b.\n\n", 9, 1, "missing the side-to-move line (black or white)" },
        { ROWS_1_7 "b.b.b.b.\nBlack\n", 9, 1, "expected the side to move, black or white" },
        { ROWS_1_7 "b.b.b.b.\n1\n", 9, 1, "expected the side to move, black or white" },
        { ROWS_1_7 "b.b.b.b.\nblack\n\nwhite\n", 11, 1,
          "unexpected text after the side-to-move line" },
    };
#undef ROWS_1_7
    return cr_make_param_array(struct bad_file, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct bad_file *c, checkers, board_file_rejections)
{
    struct ck_pos p;
    struct err e = { 0 };
    int rc = game_checkers.parse(&p, c->text, strlen(c->text), &e);
    cr_assert_eq(rc, -1, "accepted:\n%s", c->text);
    cr_assert(e.line == c->line && e.col == c->col, "%d:%d, expected %d:%d (%s)", e.line, e.col,
              c->line, c->col, e.msg);
    cr_assert_str_eq(e.msg, c->msg);
}

Test(checkers, thirteen_black_pieces_are_refused)
{
    static const char text[] =
        "........\n........\n........\n........\n.b.b.b.b\nb.b.b.b.\n.b.b.b.b\nb.b.....\nblack\n";
    struct ck_pos p;
    struct err e;
    cr_assert_eq(game_checkers.parse(&p, text, strlen(text), &e), -1);
    cr_assert(e.line == 8 && e.col == 1, "%d:%d %s", e.line, e.col, e.msg);
    cr_assert_str_eq(e.msg, "more than 12 black pieces and towers");
}

/* ---- move text -------------------------------------------------------------- */

Test(checkers, move_text_round_trips)
{
    struct rng r;
    rng_seed(&r, 13);
    for (int i = 0; i < 500; i++) {
        struct ck_pos p;
        random_position(&r, i, &p);
        int moves[GAME_MAX_MOVES];
        int n = ck_gen(&p, moves);
        for (int k = 0; k < n; k++) {
            char text[GAME_MOVE_TEXT_MAX];
            int len = game_checkers.move_text(&p, moves[k], text, sizeof text);
            cr_assert_eq(len, 5, "\"%s\"", text);
            int back = -1;
            cr_assert_eq(game_checkers.parse_move(&p, text, &back), 0, "%s not parsed", text);
            cr_assert_eq(back, moves[k], "%s came back as %d, not %d", text, back, moves[k]);
        }
    }
}

Test(checkers, move_text_that_names_no_action_is_refused)
{
    struct ck_pos p;
    ck_init(&p);
    static const char *const bad[] = { "", "G6", "G6-F5 ", "g6-f5", "G6-F4", "G6-E4", "H3-G4",
                                       "G6F5", "G6-F5-E4", "I4-E6" };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        int move;
        cr_assert_eq(game_checkers.parse_move(&p, bad[i], &move), -1, "\"%s\" accepted", bad[i]);
    }
}

/* ---- keys and the referee's helpers --------------------------------------- */

Test(checkers, keys_follow_positions_and_the_side_to_move)
{
    struct ck_pos a, b;
    ck_init(&a);
    ck_init(&b);
    cr_assert_eq(game_checkers.hash(&a), game_checkers.hash(&b));
    b.to_move = CK_WHITE;
    cr_assert_neq(game_checkers.hash(&a), game_checkers.hash(&b), "side to move ignored");
    /* A piece and a tower on the same square differ. */
    load(&a, "........\n........\n........\n........\n...b....\n........\n........\n........\n"
             "black\n");
    load(&b, "........\n........\n........\n........\n...B....\n........\n........\n........\n"
             "black\n");
    cr_assert_neq(game_checkers.hash(&a), game_checkers.hash(&b), "tower ignored");
    /* Two ways to one position. */
    struct ck_pos c, d;
    ck_init(&c);
    ck_init(&d);
    static const char *const line1[] = { "G6-H5", "H3-G4", "E6-F5" };
    static const char *const line2[] = { "E6-F5", "H3-G4", "G6-H5" };
    for (int i = 0; i < 3; i++) {
        int m;
        cr_assert_eq(game_checkers.parse_move(&c, line1[i], &m), 0);
        ck_play(&c, m);
        cr_assert_eq(game_checkers.parse_move(&d, line2[i], &m), 0);
        ck_play(&d, m);
    }
    cr_assert_eq(memcmp(&c, &d, sizeof c), 0);
    cr_assert_eq(game_checkers.hash(&c), game_checkers.hash(&d));
}

struct explain_case {
    char after[96];
    char reason[64];
};

ParameterizedTestParameters(checkers, explain_names_the_fault)
{
    /* before: black b D5, white w E4 and B3, black to move */
    static struct explain_case cases[] = {
        { "........\n........\n.w......\n....w...\n...b....\n........\n........\n........\nblack\n",
          "wrong-player: leaves black to move" },   /* nothing changed, same side to move */
        { "........\n........\n........\n..w.w...\n...b....\n........\n........\n........\nblack\n",
          "wrong-player: leaves black to move" },   /* white moved B3-C4 instead */
        { "........\n........\n........\n..w.w...\n...b....\n........\n........\n........\nwhite\n",
          "wrong-player: white moved on black's turn" },   /* the same, white's turn next */
        { "........\n........\n.w......\n........\n........\n........\n........\n........\nwhite\n",
          "tampered-board: black's pieces changed beyond one move" }, /* D5 and E4 both gone */
        { "........\n........\n.w.....w\n....w...\n........\n..b.....\n........\n........\nwhite\n",
          "tampered-board: white's pieces changed beyond one capture" }, /* a white piece appeared */
        { "........\n........\n.W......\n..b.w...\n........\n........\n........\n........\nwhite\n",
          "tampered-board: white's pieces changed beyond one capture" }, /* B3 became a tower */
        { "........\n........\n.w......\n....w...\n........\n..b.....\n........\n........\nwhite\n",
          "illegal-move: no legal black move does this" },   /* D5-C6, backwards */
        { "........\n........\n.w......\n....w...\n.b......\n........\n........\n........\nwhite\n",
          "illegal-move: no legal black move does this" },   /* D5-B5, sideways */
    };
    return cr_make_param_array(struct explain_case, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct explain_case *c, checkers, explain_names_the_fault)
{
    struct ck_pos before;
    load(&before, "........\n........\n.w......\n....w...\n...b....\n........\n........\n"
                  "........\nblack\n");
    char why[REC_REASON_MAX];
    cr_assert_eq(game_checkers.explain(&before, c->after, strlen(c->after), why, sizeof why), 0,
                 "%s", c->after);
    cr_assert_str_eq(why, c->reason, "%s", c->after);
}

/* ---- the seed's minimax ------------------------------------------------------ */

/* The seed's rule as the assignment words it: board cost at the leaves,
 * INT_MIN (black) or INT_MAX (white) for a board whose side to move cannot
 * act, black maximises, white minimises, the left-most best child. */
static int seed_minimax(const struct ck_pos *p, int depth, int *choice)
{
    int moves[GAME_MAX_MOVES];
    int n = ck_gen(p, moves);
    *choice = -1;
    if (n == 0)
        return p->to_move == CK_BLACK ? INT_MIN : INT_MAX;
    if (depth == 0)
        return ck_cost(p);
    int maximise = p->to_move == CK_BLACK, best = 0;
    for (int i = 0; i < n; i++) {
        struct ck_pos child = *p;
        int unused;
        ck_play(&child, moves[i]);
        int v = seed_minimax(&child, depth - 1, &unused);
        if (i == 0 || (maximise ? v > best : v < best)) {
            best = v;
            *choice = moves[i];
        }
    }
    return best;
}

/* The seed's value as the search reports it: for the side to move, the
 * limits of int standing for a finished game. */
static int negamax_value(int seed_value, int to_move)
{
    int v = seed_value == INT_MIN ? -SCORE_WIN : seed_value == INT_MAX ? SCORE_WIN : seed_value;
    return to_move == CK_BLACK ? v : -v;
}

static void check_seed_choice(struct search *mm, struct search *ab, const struct ck_pos *p,
                              int depth, const char *what)
{
    int want_move;
    int want = negamax_value(seed_minimax(p, depth, &want_move), p->to_move);
    struct search_result a, b;
    search_minimax(mm, p, depth, &a);
    search_alphabeta(ab, p, depth, &b);
    if (a.move != want_move || a.value != want || b.move != want_move || b.value != want) {
        char board[GAME_FORMAT_MAX], t[3][GAME_MOVE_TEXT_MAX] = { "-", "-", "-" };
        format_text(p, board);
        if (want_move >= 0)
            ck_move_text(want_move, t[0], sizeof t[0]);
        if (a.move >= 0)
            ck_move_text(a.move, t[1], sizeof t[1]);
        if (b.move >= 0)
            ck_move_text(b.move, t[2], sizeof t[2]);
        cr_assert_fail("%s depth %d: seed %s (%d), minimax %s (%d), alpha-beta %s (%d)\n%s", what,
                       depth, t[0], want, t[1], a.value, t[2], b.value, board);
    }
}

static void init_searches(struct search *mm, struct search *ab)
{
    struct search_opts o = ck_search_opts(0);
    cr_assert_eq(search_init(mm, &game_checkers, &o), 0);
    o = ck_search_opts(SMALL_TT_BYTES);
    cr_assert_eq(search_init(ab, &game_checkers, &o), 0);
}

Test(checkers, alphabeta_and_minimax_pick_the_seeds_action_on_random_positions)
{
    struct search mm, ab;
    init_searches(&mm, &ab);
    struct rng r;
    rng_seed(&r, 17);
    for (int i = 0; i < RANDOM_POSITIONS; i++) {
        struct ck_pos p;
        random_position(&r, i, &p);
        char what[32];
        snprintf(what, sizeof what, "position %d", i);
        int deepest = i < DEEP_POSITIONS ? MAX_TEST_DEPTH : MAX_TEST_DEPTH - 1;
        for (int d = 1; d <= deepest; d++)
            check_seed_choice(&mm, &ab, &p, d, what);
    }
    search_free(&mm);
    search_free(&ab);
}

/* Both searches at depths 1-3 from p pick want, the first action. */
static void check_first_action(const struct ck_pos *p, const char *want)
{
    struct search mm, ab;
    init_searches(&mm, &ab);
    for (int d = 1; d <= CK_SEED_DEPTH; d++) {
        struct search_result a, b;
        search_minimax(&mm, p, d, &a);
        search_alphabeta(&ab, p, d, &b);
        char t[GAME_MOVE_TEXT_MAX];
        ck_move_text(a.move, t, sizeof t);
        cr_assert_str_eq(t, want, "%s depth %d: minimax chose %s", ck_side_label(p->to_move), d,
                         t);
        cr_assert_eq(a.value, 0, "depth %d: value %d", d, a.value);
        cr_assert(b.move == a.move && b.value == a.value, "depth %d: alpha-beta differs", d);
    }
    search_free(&mm);
    search_free(&ab);
}

/* From the start every child is worth 0 at depths 1-3 (no capture can be
 * forced): the first action wins, for black (max) and for white (min). */
Test(checkers, ties_go_to_the_left_most_child)
{
    struct ck_pos p;
    ck_init(&p);
    check_first_action(&p, "A6-B5");
    p.to_move = CK_WHITE;
    check_first_action(&p, "B3-C4");
}

struct lost_case {
    char name[48];
    char board[96];
    int depth;
    char action[8];       /* expected choice */
    int value;            /* for the side to move */
};

ParameterizedTestParameters(checkers, int_min_and_int_max_for_a_side_that_cannot_act)
{
    static struct lost_case cases[] = {
        /* Both black moves let white take black's last piece: INT_MIN twice,
         * the left-most (NE) child. */
        { "black: every child lost", "........\n........\n.w...w..\n........\n...b....\n........\n"
                                     "........\n........\nblack\n",
          2, "D5-E4", -SCORE_WIN },
        /* The mirror for white: INT_MAX twice, white takes the first (SE). */
        { "white: every child lost", "........\n........\n........\n....w...\n........\n"
                                     "..b...b.\n........\n........\nwhite\n",
          2, "E4-F5", -SCORE_WIN },
        /* Black's capture leaves white nothing: INT_MAX beats any cost. */
        { "black: the win beats material", "........\n........\n........\n....w...\n...b....\n"
                                           "........\n........\n........\nblack\n",
          1, "D5-F3", SCORE_WIN },
        /* The first child (NE) is lost at once, the second is not. */
        { "black: a later child avoids the loss", "........\n........\n.....w..\n........\n"
                                                  "...b....\n........\n........\n........\nblack\n",
          2, "D5-C4", 0 },
        /* No action at the root: the search reports the loss, no move. */
        { "white: nothing to move", "........\n........\n........\n........\n........\n"
                                    "........\n.b......\n........\nwhite\n",
          3, "", -SCORE_WIN },
    };
    return cr_make_param_array(struct lost_case, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct lost_case *c, checkers, int_min_and_int_max_for_a_side_that_cannot_act)
{
    struct search mm, ab;
    init_searches(&mm, &ab);
    struct ck_pos p;
    load(&p, c->board);
    struct search_result a, b;
    search_minimax(&mm, &p, c->depth, &a);
    search_alphabeta(&ab, &p, c->depth, &b);
    char t[GAME_MOVE_TEXT_MAX] = "";
    if (a.move >= 0)
        ck_move_text(a.move, t, sizeof t);
    cr_assert_str_eq(t, c->action, "%s: minimax chose \"%s\"", c->name, t);
    cr_assert_eq(a.value, c->value, "%s: minimax value %d", c->name, a.value);
    cr_assert_eq(b.move, a.move, "%s: alpha-beta chose %d", c->name, b.move);
    cr_assert_eq(b.value, a.value, "%s: alpha-beta value %d", c->name, b.value);
    check_seed_choice(&mm, &ab, &p, c->depth, c->name);
    search_free(&mm);
    search_free(&ab);
}
