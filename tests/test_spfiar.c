/*
 * test_spfiar.c - the SPFIAR seed's parts: the span-histogram score (the
 * seed's worked example, hand-counted boards, agreement with a brute-force
 * count over every window of four), the seed's tie-break (a forced win in a
 * lower column beats an immediate win), the command and level parsers on
 * every error case of the issue, the undo history on the seed's 8-step
 * scenario verbatim, and the board's printed form.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "arena/rng.h"
#include "arena/spfiar.h"
#include "c4_testutil.h"

#define RANDOM_BOARDS 5000
#define SEED_HISTOGRAM UINT64_C(0x5BF1A2)
#define SEED_PLAY UINT64_C(0x5BF1A3)

/* ---- the score ----------------------------------------------------------- */

static void assert_histogram_eq(const struct spf_histogram *got, const struct spf_histogram *want,
                                const char *what)
{
    for (int v = -SPF_SPAN; v <= SPF_SPAN; v++)
        cr_assert_eq(got->count[v + SPF_SPAN], want->count[v + SPF_SPAN],
                     "%s: [%d] = %d, expected %d", what, v, got->count[v + SPF_SPAN],
                     want->count[v + SPF_SPAN]);
}

struct brute_ctx {
    uint64_t a, b;
    struct spf_histogram h;
};

static void brute_window(const int cells[LINE_LEN][2], void *ctx_)
{
    struct brute_ctx *ctx = ctx_;
    int v = 0;
    for (int k = 0; k < LINE_LEN; k++) {
        uint64_t bit = C4_BIT(cells[k][0], cells[k][1]);
        v += (ctx->a & bit) != 0;
        v -= (ctx->b & bit) != 0;
    }
    ctx->h.count[v + SPF_SPAN]++;
}

/* The histogram counted the slow way: every window, every cell. */
static struct spf_histogram brute_histogram(uint64_t a, uint64_t b)
{
    struct brute_ctx ctx = { .a = a, .b = b };
    memset(&ctx.h, 0, sizeof ctx.h);
    int n = for_each_window(brute_window, &ctx);
    cr_assert_eq(n, SPF_SPANS, "%d windows", n);
    return ctx.h;
}

/* The seed's example: [-3]=1 [-2]=3 [-1]=17 [1]=12 [2]=5 weighs to -6. */
Test(spfiar, seed_example_histogram_weighs_minus_6)
{
    struct spf_histogram h;
    memset(&h, 0, sizeof h);
    h.count[-3 + SPF_SPAN] = 1;
    h.count[-2 + SPF_SPAN] = 3;
    h.count[-1 + SPF_SPAN] = 17;
    h.count[1 + SPF_SPAN] = 12;
    h.count[2 + SPF_SPAN] = 5;
    h.count[0 + SPF_SPAN] = SPF_SPANS - 38;
    int w = spf_weigh(&h);
    cr_assert_eq(w, -6, "weighs %d", w);
}

Test(spfiar, weights_are_the_seed_vector)
{
    static const int expected[] = { -5, -2, -1, 1, 2, 5 };
    static const int values[] = { -3, -2, -1, 1, 2, 3 };
    for (int i = 0; i < 6; i++) {
        struct spf_histogram h;
        memset(&h, 0, sizeof h);
        h.count[values[i] + SPF_SPAN] = 1;
        cr_assert_eq(spf_weigh(&h), expected[i], "one span of value %d weighs %d", values[i],
                     spf_weigh(&h));
    }
    struct spf_histogram h;
    memset(&h, 0, sizeof h);
    h.count[SPF_SPAN] = 7;
    h.count[0] = h.count[2 * SPF_SPAN] = 1;
    cr_assert_eq(spf_weigh(&h), 0, "values 0 and +-4 weigh nothing");
}

/* Boards whose histograms were counted by hand (see the comments). */
struct hand_board {
    char rows[C4_HEIGHT][C4_WIDTH + 1];
    int count[2 * SPF_SPAN + 1];   /* values -4..4 */
    int score;
};

ParameterizedTestParameters(spfiar, hand_counted_histograms)
{
    static struct hand_board cases[] = {
        /* The empty board: 69 spans of value 0. */
        { { "0000000", "0000000", "0000000", "0000000", "0000000", "0000000" },
          { 0, 0, 0, 0, 69, 0, 0, 0, 0 }, 0 },
        /* A corner disc lies in 3 spans (one per direction but down-right). */
        { { "0000000", "0000000", "0000000", "0000000", "0000000", "1000000" },
          { 0, 0, 0, 0, 66, 3, 0, 0, 0 }, 3 },
        /* The bottom centre: 4 horizontal, 1 vertical, 2 diagonal spans. */
        { { "0000000", "0000000", "0000000", "0000000", "0000000", "0001000" },
          { 0, 0, 0, 0, 62, 7, 0, 0, 0 }, 7 },
        /* B above it: B alone in 4 + 1 + 2 + 2 spans, the vertical span of
         * rows 1-4 holds both (value 0). */
        { { "0000000", "0000000", "0000000", "0000000", "0002000", "0001000" },
          { 0, 0, 0, 9, 54, 6, 0, 0, 0 }, -3 },
        /* A three on the bottom row, columns 1-3: span 1-4 holds 3, span
         * 2-5 holds 2, span 3-6 holds 1; verticals 1 each; diagonals
         * up-right 1 each; no down-right span reaches these cells. */
        { { "0000000", "0000000", "0000000", "0000000", "0000000", "1110000" },
          { 0, 0, 0, 0, 60, 7, 1, 1, 0 }, 7 + 2 + 5 },
    };
    return cr_make_param_array(struct hand_board, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct hand_board *c, spfiar, hand_counted_histograms)
{
    const char *rows[C4_HEIGHT];
    for (int r = 0; r < C4_HEIGHT; r++)
        rows[r] = c->rows[r];
    struct c4_pos p = pos_from_rows(rows, 1);
    struct spf_histogram want, got;
    memcpy(want.count, c->count, sizeof want.count);
    spf_histogram(p.disc[0], p.disc[1], &got);
    assert_histogram_eq(&got, &want, c->rows[C4_HEIGHT - 1]);
    struct spf_histogram brute = brute_histogram(p.disc[0], p.disc[1]);
    assert_histogram_eq(&brute, &want, "brute force");
    cr_assert_eq(spf_score(p.disc[0], p.disc[1]), c->score, "score %d, expected %d",
                 spf_score(p.disc[0], p.disc[1]), c->score);
}

Test(spfiar, histogram_matches_brute_force_on_random_boards)
{
    struct rng r;
    rng_seed(&r, SEED_HISTOGRAM);
    for (int i = 0; i < RANDOM_BOARDS; i++) {
        /* Arbitrary disjoint cell sets: the count must not rely on discs
         * resting on discs. */
        uint64_t a = 0, b = 0;
        for (int cell = 0; cell < C4_CELLS; cell++) {
            uint64_t bit = C4_BIT(cell / C4_HEIGHT, cell % C4_HEIGHT);
            uint32_t k = rng_below(&r, 3);
            if (k == 1)
                a |= bit;
            else if (k == 2)
                b |= bit;
        }
        struct spf_histogram got, want = brute_histogram(a, b);
        spf_histogram(a, b, &got);
        char what[64];
        snprintf(what, sizeof what, "board %d (a %llx b %llx)", i, (unsigned long long)a,
                 (unsigned long long)b);
        assert_histogram_eq(&got, &want, what);
    }
}

Test(spfiar, a_four_scores_beyond_any_span_sum)
{
    static const char *const rows[C4_HEIGHT] = {
        "0000000", "0000000", "0000000", "0000000", "2220000", "1111000",
    };
    struct c4_pos p = pos_from_rows(rows, 2);
    cr_assert_eq(spf_score(p.disc[0], p.disc[1]), SCORE_WIN);
    cr_assert_eq(spf_score(p.disc[1], p.disc[0]), -SCORE_WIN);
    /* Player 2 to move has lost: the side to move's view. */
    cr_assert_eq(spf_evaluate(&p), -SCORE_WIN, "evaluate %d", spf_evaluate(&p));
}

Test(spfiar, evaluate_is_the_score_for_the_side_to_move)
{
    struct rng r;
    rng_seed(&r, SEED_PLAY);
    for (int i = 0; i < 1000; i++) {
        struct c4_pos p;
        c4_init(&p);
        int plies = (int)rng_below(&r, C4_CELLS);
        for (int k = 0; k < plies; k++) {
            int moves[GAME_MAX_MOVES];
            int n = game_connect4.gen(&p, moves);
            c4_play(&p, moves[rng_below(&r, (uint32_t)n)]);
        }
        int mover = p.to_move;
        int v = spf_evaluate(&p);
        cr_assert_eq(v, spf_score(p.disc[mover], p.disc[mover ^ 1]), "position %d", i);
        if (v != SCORE_WIN && v != -SCORE_WIN)
            cr_assert_eq(spf_score(p.disc[mover ^ 1], p.disc[mover]), -v,
                         "position %d: the score is not antisymmetric", i);
    }
}

/* ---- the search the seed describes --------------------------------------- */

/*
 * Player 1 to move. Column 4 wins at once (a vertical three); so does
 * column 7. Player 2 threatens column 3 (a vertical three): columns 1, 2, 5
 * and 6 lose at once; column 3 blocks and leaves the two threats, a win two
 * plies later. From depth 3 minimax sees column 3 and column 4 both win, and
 * the seed's tie-break takes the lower: column 3. At depth 1 only column 4's
 * win shows.
 */
static const char *const tiebreak_rows[C4_HEIGHT] = {
    "0000000", "0000000", "0000000", "0021001", "0021001", "2221201",
};

Test(spfiar, forced_win_in_a_lower_column_beats_an_immediate_win)
{
    struct c4_pos p = pos_from_rows(tiebreak_rows, 1);
    struct search_opts o = spf_search_opts();
    struct search s, mm;
    cr_assert_eq(search_init(&s, &game_connect4, &o), 0);
    o.tt_bytes = 0;
    cr_assert_eq(search_init(&mm, &game_connect4, &o), 0);
    for (int level = SPF_LEVEL_MIN; level <= SPF_LEVEL_MAX; level++) {
        struct search_result r, m;
        int col = spf_best_move(&s, &p, level, &r);
        search_minimax(&mm, &p, level, &m);
        int want = level < 3 ? 3 : 2;
        cr_assert_eq(col, want, "level %d: column %d, expected %d", level, col + 1, want + 1);
        cr_assert_eq(m.move, col, "level %d: minimax column %d", level, m.move + 1);
        cr_assert_eq(r.value, SCORE_WIN, "level %d: value %d", level, r.value);
    }
    search_free(&s);
    search_free(&mm);
}

/* A full board without a four is a leaf scored by its spans, as the seed
 * scores every leaf, not a 0 for the draw. */
Test(spfiar, full_board_is_scored_by_its_spans)
{
    static const char *const rows[C4_HEIGHT] = {
        "1122120", "1212111", "1121222", "2221212", "1221112", "2112221",
    };
    struct c4_pos p = pos_from_rows(rows, 1);
    struct c4_pos full = p;
    c4_play(&full, C4_WIDTH - 1);
    int want = -spf_evaluate(&full);
    cr_assert_eq(want, -12, "the full board scores %d for player 1, expected -12", want);
    struct search_opts o = spf_search_opts();
    o.tt_bytes = 0;
    struct search s;
    cr_assert_eq(search_init(&s, &game_connect4, &o), 0);
    struct search_result r;
    search_minimax(&s, &p, 3, &r);
    cr_assert_eq(r.move, C4_WIDTH - 1);
    cr_assert_eq(r.value, want, "value %d, expected %d", r.value, want);
    search_free(&s);
}

/* ---- the parsers ------------------------------------------------------------ */

struct parse_case {
    char line[48];
    enum spf_cmd cmd;
    int valid_arg;
    int arg;
};

ParameterizedTestParameters(spfiar, command_lines)
{
    static struct parse_case cases[] = {
        { "add_disc 1", SPF_CMD_ADD_DISC, 1, 1 },
        { "add_disc 7\n", SPF_CMD_ADD_DISC, 1, 7 },
        { "  add_disc   2  ", SPF_CMD_ADD_DISC, 1, 2 },
        { "\tadd_disc\t3\r\n", SPF_CMD_ADD_DISC, 1, 3 },
        { "add_disc 007", SPF_CMD_ADD_DISC, 1, 7 },
        { "add_disc abc12", SPF_CMD_ADD_DISC, 0, 0 },
        { "add_disc 10.11", SPF_CMD_ADD_DISC, 0, 0 },
        { "add_disc 7.0", SPF_CMD_ADD_DISC, 0, 0 },
        { "add_disc -10", SPF_CMD_ADD_DISC, 0, 0 },
        { "add_disc x", SPF_CMD_ADD_DISC, 0, 0 },
        { "add_disc 8", SPF_CMD_ADD_DISC, 0, 0 },
        { "add_disc 0", SPF_CMD_ADD_DISC, 0, 0 },
        { "add_disc -", SPF_CMD_ADD_DISC, 0, 0 },
        { "add_disc 99999999999999999999", SPF_CMD_ADD_DISC, 0, 0 },
        { "add_disc", SPF_CMD_INVALID, 0, 0 },
        { "add_disc 4 5", SPF_CMD_INVALID, 0, 0 },
        { "suggest_move", SPF_CMD_SUGGEST, 0, 0 },
        { "suggest_move 3", SPF_CMD_INVALID, 0, 0 },
        { "undo_move", SPF_CMD_UNDO, 0, 0 },
        { "undo_move now", SPF_CMD_INVALID, 0, 0 },
        { "quit", SPF_CMD_QUIT, 0, 0 },
        { " quit \r", SPF_CMD_QUIT, 0, 0 },
        { "restart_game", SPF_CMD_RESTART, 0, 0 },
        { "restart", SPF_CMD_INVALID, 0, 0 },
        { "Quit", SPF_CMD_INVALID, 0, 0 },
        { "add_disc4", SPF_CMD_INVALID, 0, 0 },
        { "suggest", SPF_CMD_INVALID, 0, 0 },
        { "", SPF_CMD_INVALID, 0, 0 },
        { "   \t ", SPF_CMD_INVALID, 0, 0 },
    };
    return cr_make_param_array(struct parse_case, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct parse_case *c, spfiar, command_lines)
{
    struct spf_command got = spf_parse_command(c->line);
    cr_assert_eq(got.cmd, c->cmd, "\"%s\": command %d, expected %d", c->line, got.cmd, c->cmd);
    if (c->cmd == SPF_CMD_ADD_DISC) {
        cr_assert_eq(got.valid_arg, c->valid_arg, "\"%s\": valid_arg %d", c->line, got.valid_arg);
        if (c->valid_arg)
            cr_assert_eq(got.arg, c->arg, "\"%s\": column %d", c->line, got.arg);
    }
}

struct level_case {
    char line[24];
    enum spf_level_reply reply;
    int level;
};

ParameterizedTestParameters(spfiar, level_answers)
{
    static struct level_case cases[] = {
        { "1", SPF_LEVEL_OK, 1 },       { "7\n", SPF_LEVEL_OK, 7 },
        { " 3 \r\n", SPF_LEVEL_OK, 3 }, { "03", SPF_LEVEL_OK, 3 },
        { "8", SPF_LEVEL_BAD, 0 },      { "0", SPF_LEVEL_BAD, 0 },
        { "abc", SPF_LEVEL_BAD, 0 },    { "-1", SPF_LEVEL_BAD, 0 },
        { "3.0", SPF_LEVEL_BAD, 0 },    { "3 4", SPF_LEVEL_BAD, 0 },
        { "", SPF_LEVEL_BAD, 0 },       { "quit", SPF_LEVEL_QUIT, 0 },
        { " quit ", SPF_LEVEL_QUIT, 0 }, { "quit now", SPF_LEVEL_BAD, 0 },
        { "restart_game", SPF_LEVEL_BAD, 0 },
    };
    return cr_make_param_array(struct level_case, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct level_case *c, spfiar, level_answers)
{
    int level = 0;
    enum spf_level_reply got = spf_parse_level(c->line, &level);
    cr_assert_eq(got, c->reply, "\"%s\": reply %d, expected %d", c->line, got, c->reply);
    if (c->reply == SPF_LEVEL_OK)
        cr_assert_eq(level, c->level, "\"%s\": level %d", c->line, level);
}

/* ---- the undo history -------------------------------------------------------- */

/* Turn i (1-based) of the scenario: the user's and the computer's columns.
 * Cycling through the columns this way never fills one within the 20 turns
 * the scenario plays (at most 36 discs stay on the board). */
static void turn_columns(int i, int *user, int *computer)
{
    *user = (i - 1) % C4_WIDTH;
    *computer = (i + 2) % C4_WIDTH;
}

static void play_turn(struct spf_game *g, int i)
{
    int u, c;
    turn_columns(i, &u, &c);
    cr_assert(c4_can_play(&g->pos, u), "turn %d: user column %d full", i, u + 1);
    spf_game_add(g, u);
    cr_assert(c4_can_play(&g->pos, c), "turn %d: computer column %d full", i, c + 1);
    spf_game_add(g, c);
}

static void undo_turn(struct spf_game *g, int i, const char *step)
{
    int u, c, removed[2] = { -1, -1 };
    turn_columns(i, &u, &c);
    int n = spf_game_undo(g, removed);
    cr_assert_eq(n, 2, "%s: undo of m%d removed %d discs", step, i, n);
    cr_assert(removed[0] == c && removed[1] == u,
              "%s: undo of m%d removed columns %d then %d, expected %d then %d", step, i,
              removed[0] + 1, removed[1] + 1, c + 1, u + 1);
}

/* The position after the given turns, built from scratch. */
static void assert_turns(const struct spf_game *g, const int *turns, int n, const char *step)
{
    struct c4_pos want;
    c4_init(&want);
    for (int k = 0; k < n; k++) {
        int u, c;
        turn_columns(turns[k], &u, &c);
        c4_play(&want, u);
        c4_play(&want, c);
    }
    cr_assert(memcmp(&g->pos, &want, sizeof want) == 0, "%s: the board is not m%d..m%d", step,
              turns[0], turns[n - 1]);
    cr_assert_eq(g->count, 2 * n, "%s: %d discs recorded, expected %d", step, g->count, 2 * n);
}

/* The seed's "Undo move - Revisited" scenario, step by step; a move m_i is
 * a turn (the user's disc and the computer's reply). */
Test(spfiar, undo_follows_the_seeds_eight_step_scenario)
{
    struct spf_game g;
    int removed[2];
    spf_game_init(&g);
    /* 8 (first clause). Undo before any move is an error. */
    cr_assert_eq(spf_game_undo(&g, removed), 0, "undo on a new game");

    /* 1-3. The user plays column 2, the computer column 6; undo empties
     * the board. */
    spf_game_add(&g, 1);
    spf_game_add(&g, 5);
    cr_assert_eq(spf_game_undo(&g, removed), 2);
    cr_assert(removed[0] == 5 && removed[1] == 1, "removed columns %d, %d", removed[0] + 1,
              removed[1] + 1);
    struct c4_pos empty;
    c4_init(&empty);
    cr_assert(memcmp(&g.pos, &empty, sizeof empty) == 0, "step 3: the board is not empty");

    /* 4. Seventeen moves m1..m17. */
    for (int i = 1; i <= 17; i++)
        play_turn(&g, i);
    /* 5. Two undos cancel m17 then m16. */
    undo_turn(&g, 17, "step 5");
    undo_turn(&g, 16, "step 5");
    int after5[15];
    for (int k = 0; k < 15; k++)
        after5[k] = k + 1;
    assert_turns(&g, after5, 15, "step 5");

    /* 6. Three moves m18, m19, m20: recorded m1..m15, m18, m19, m20. */
    for (int i = 18; i <= 20; i++)
        play_turn(&g, i);
    int after6[18];
    for (int k = 0; k < 15; k++)
        after6[k] = k + 1;
    after6[15] = 18, after6[16] = 19, after6[17] = 20;
    assert_turns(&g, after6, 18, "step 6");

    /* 7. Ten undos in a row: m20, m19, m18, m15 .. m9 go; m1..m8 remain. */
    static const int undone[10] = { 20, 19, 18, 15, 14, 13, 12, 11, 10, 9 };
    for (int k = 0; k < 10; k++)
        undo_turn(&g, undone[k], "step 7");
    assert_turns(&g, after5, 8, "step 7");

    /* 8. Only the last 20 discs could be undone: one more undo fails and
     * changes nothing. */
    struct spf_game before = g;
    cr_assert_eq(spf_game_undo(&g, removed), 0, "an eleventh undo succeeded");
    cr_assert(memcmp(&before, &g, sizeof g) == 0, "a failed undo changed the game");
}

Test(spfiar, undo_after_the_users_winning_disc_removes_only_it)
{
    struct spf_game g;
    spf_game_init(&g);
    static const int cols[] = { 0, 6, 0, 6, 0, 6, 0 };   /* the user's vertical four */
    for (size_t i = 0; i < sizeof cols / sizeof *cols; i++)
        spf_game_add(&g, cols[i]);
    cr_assert_eq(spf_game_status(&g), SPF_USER_WINS);
    int removed[2];
    cr_assert_eq(spf_game_undo(&g, removed), 1);
    cr_assert_eq(removed[0], 0, "removed column %d", removed[0] + 1);
    cr_assert_eq(spf_game_status(&g), SPF_ON);
    cr_assert_eq(g.pos.to_move, 0, "the user is to move again");
    cr_assert_eq(spf_game_undo(&g, removed), 2);
    cr_assert(removed[0] == 6 && removed[1] == 0);
}

Test(spfiar, status_reports_wins_and_the_tie)
{
    static const char *const draw[C4_HEIGHT] = {
        "1212121", "1212121", "1212121", "2121212", "2121212", "2121212",
    };
    struct spf_game g;
    spf_game_init(&g);
    g.pos = pos_from_rows(draw, 1);
    cr_assert_eq(spf_game_status(&g), SPF_TIE);
    spf_game_init(&g);
    static const int cols[] = { 0, 6, 1, 6, 2, 6, 4, 6 };   /* the computer's vertical four */
    for (size_t i = 0; i < sizeof cols / sizeof *cols; i++)
        spf_game_add(&g, cols[i]);
    cr_assert_eq(spf_game_status(&g), SPF_COMPUTER_WINS);
}

/* ---- printing ------------------------------------------------------------ */

Test(spfiar, board_prints_in_the_seeds_eight_lines)
{
    static const char *const rows[C4_HEIGHT] = {
        "0000000", "0000000", "0000100", "0002120", "0021211", "1121221",
    };
    struct c4_pos p = pos_from_rows(rows, 2);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    spf_print_board(f, &p);
    fclose(f);
    static const char want[] = "|               |\n"
                               "|               |\n"
                               "|         X     |\n"
                               "|       O X O   |\n"
                               "|     O X O X X |\n"
                               "| X X O X O O X |\n"
                               "-----------------\n"
                               "  1 2 3 4 5 6 7  \n";
    cr_assert_str_eq(buf, want, "printed:\n%s", buf);
    free(buf);
}
