/*
 * test_othello.c - Othello behind the game interface (registry "othello"):
 * the start and its moves, discs turned in each of the 8 directions and
 * only on closed lines, passes, the end of the game and its margin, board
 * files (round trips and every rejection with its line and column), move
 * texts, the evaluation's symmetry and the game's own score (the discs).
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <string.h>
#include "arena/registry.h"

#define START_TEXT                                                                       \
    "........\n........\n........\n...OX...\n...XO...\n........\n........\n........\n1\n"

static const struct game *othello(void)
{
    const struct game *g = registry_find("othello");
    cr_assert_not_null(g, "othello is not registered");
    return g;
}

static void load(const struct game *g, void *pos, const char *text)
{
    struct err e;
    cr_assert_eq(g->parse(pos, text, strlen(text), &e), 0, "board rejected: %d:%d: %s\n%s",
                 e.line, e.col, e.msg, text);
}

/* The legal moves of pos as text, in canonical order, separated by spaces. */
static void moves_text(const struct game *g, const void *pos, char *out, size_t cap)
{
    int moves[GAME_MAX_MOVES], n = g->gen(pos, moves);
    out[0] = '\0';
    for (int i = 0; i < n; i++) {
        char t[GAME_MOVE_TEXT_MAX];
        g->move_text(pos, moves[i], t, sizeof t);
        size_t len = strlen(out);
        snprintf(out + len, cap - len, "%s%s", i ? " " : "", t);
    }
}

/* Plays the move written text from pos, in place. */
static void play_text(const struct game *g, void *pos, const char *text)
{
    int move;
    cr_assert_eq(g->parse_move(pos, text, &move), 0, "%s is not legal", text);
    g->play(pos, move);
}

static void expect_board(const struct game *g, const void *pos, const char *text)
{
    char buf[GAME_FORMAT_MAX];
    g->format(pos, buf);
    cr_assert_str_eq(buf, text);
}

Test(othello, start_is_the_standard_one_with_black_to_play_four_moves)
{
    const struct game *g = othello();
    unsigned char pos[GAME_MAX_STATE];
    game_init(g, pos);
    expect_board(g, pos, START_TEXT);
    char moves[256];
    moves_text(g, pos, moves, sizeof moves);
    cr_assert_str_eq(moves, "d3 c4 f5 e6");
    cr_assert_eq(g->to_move(pos), 1);
}

/* X plays d4 with one O disc and an X disc behind it on each of the eight
 * lines through d4: all eight turn, and the two O discs of the line to h8's
 * corner region that no X disc closes (g7, h8 empty) stay. */
Test(othello, a_move_turns_discs_in_all_eight_directions_and_only_closed_lines)
{
    const struct game *g = othello();
    unsigned char pos[GAME_MAX_STATE];
    load(g, pos,
         "........\n"
         ".X.X.X..\n"
         "..OOO...\n"
         ".XO.OX..\n"
         "..OOO...\n"
         ".X.X.X..\n"
         "........\n"
         "......OO\n"
         "1\n");
    play_text(g, pos, "d4");
    expect_board(g, pos,
                 "........\n"
                 ".X.X.X..\n"
                 "..XXX...\n"
                 ".XXXXX..\n"
                 "..XXX...\n"
                 ".X.X.X..\n"
                 "........\n"
                 "......OO\n"
                 "2\n");
}

Test(othello, a_move_turns_every_disc_of_a_long_line)
{
    const struct game *g = othello();
    unsigned char pos[GAME_MAX_STATE];
    load(g, pos,
         "XOOOOOO.\n........\n........\n........\n........\n........\n........\n........\n1\n");
    char moves[256];
    moves_text(g, pos, moves, sizeof moves);
    cr_assert_str_eq(moves, "h1");
    play_text(g, pos, "h1");
    expect_board(g, pos,
                 "XXXXXXXX\n........\n........\n........\n........\n........\n........\n"
                 "........\n2\n");
}

/* X cannot move (nothing beyond O's a1), O can: X's one move is the pass, a
 * ply that changes only the side to move; O then takes b1 and the game ends
 * with O 3 discs to X's 0. */
Test(othello, a_side_that_cannot_move_passes_and_the_game_ends_when_neither_can)
{
    const struct game *g = othello();
    unsigned char pos[GAME_MAX_STATE];
    const char *before =
        "OX......\n........\n........\n........\n........\n........\n........\n........\n1\n";
    load(g, pos, before);
    int value;
    cr_assert_eq(g->terminal(pos, &value), 0);
    char moves[256];
    moves_text(g, pos, moves, sizeof moves);
    cr_assert_str_eq(moves, "pass");
    play_text(g, pos, "pass");
    expect_board(g, pos,
                 "OX......\n........\n........\n........\n........\n........\n........\n"
                 "........\n2\n");
    moves_text(g, pos, moves, sizeof moves);
    cr_assert_str_eq(moves, "c1");
    play_text(g, pos, "c1");
    cr_assert_eq(g->terminal(pos, &value), 1);
    cr_assert_eq(value, -(SCORE_WIN + 3), "X to move, lost 0 to 3: value %d", value);
    cr_assert_eq(game_result(g, pos), 2);
    cr_assert_eq(g->gen(pos, (int[GAME_MAX_MOVES]){ 0 }), 0);
}

struct end_case {
    char board[96];
    int value;    /* for the side to move */
    int result;   /* game_result */
};

ParameterizedTestParameters(othello, the_margin_is_the_disc_difference)
{
    static struct end_case cases[] = {
        { "XXX.....\n........\n........\n........\n........\n........\n........\n........\n1\n",
          SCORE_WIN + 3, 1 },
        { "XXX.....\n........\n........\n........\n........\n........\n........\n........\n2\n",
          -(SCORE_WIN + 3), 1 },
        { "X.......\n........\n........\n........\n........\n........\n........\n.......O\n1\n",
          0, 0 },
        { "XX......\n........\n........\n........\n........\n........\n........\n.....OOO\n2\n",
          SCORE_WIN + 1, 2 },
    };
    return cr_make_param_array(struct end_case, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct end_case *c, othello, the_margin_is_the_disc_difference)
{
    const struct game *g = othello();
    unsigned char pos[GAME_MAX_STATE];
    load(g, pos, c->board);
    int value;
    cr_assert_eq(g->terminal(pos, &value), 1, "not over:\n%s", c->board);
    cr_assert_eq(value, c->value, "value %d, expected %d", value, c->value);
    cr_assert_eq(game_result(g, pos), c->result);
}

/* The game's own score (struct game_score, "discs"): each side's discs at
 * the end, whose difference is the margin terminal gives the side to move. */
struct final_case {
    char board[96];
    int discs[2];   /* X's (player 1) and O's (player 2) */
};

ParameterizedTestParameters(othello, the_score_is_each_sides_discs_at_the_end)
{
    static struct final_case cases[] = {
        /* a full board */
        { "XXXXXXXX\nXXXXXXXX\nXXXXXXXX\nXXXXXXXX\nXXXXXXXX\nOOOOOOOO\nOOOOOOOO\nOOOOOOOO\n2\n",
          { 40, 24 } },
        /* a full board drawn */
        { "XOXOXOXO\nOXOXOXOX\nXOXOXOXO\nOXOXOXOX\nXOXOXOXO\nOXOXOXOX\nXOXOXOXO\nOXOXOXOX\n1\n",
          { 32, 32 } },
        /* O wiped out with 51 squares empty */
        { "XXXXX...\nXXXX....\nXXXX....\n........\n........\n........\n........\n........\n2\n",
          { 13, 0 } },
        /* X wiped out, O to move */
        { "........\n........\n........\n........\n........\n........\n......OO\n.....OOO\n2\n",
          { 0, 5 } },
    };
    return cr_make_param_array(struct final_case, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct final_case *c, othello, the_score_is_each_sides_discs_at_the_end)
{
    const struct game *g = othello();
    cr_assert_not_null(g->score, "othello has no score");
    cr_assert_str_eq(g->score->label, "discs");
    unsigned char pos[GAME_MAX_STATE];
    load(g, pos, c->board);
    int value;
    cr_assert_eq(g->terminal(pos, &value), 1, "not over:\n%s", c->board);
    int got[2] = { -1, -1 };
    g->score->final(pos, got);
    cr_expect_eq(got[0], c->discs[0], "X has %d discs, expected %d:\n%s", got[0], c->discs[0],
                 c->board);
    cr_expect_eq(got[1], c->discs[1], "O has %d discs, expected %d:\n%s", got[1], c->discs[1],
                 c->board);
    int me = g->to_move(pos) - 1, margin = got[me] - got[!me];
    int want = margin > 0 ? SCORE_WIN + margin : margin < 0 ? -(SCORE_WIN - margin) : 0;
    cr_expect_eq(value, want, "value %d, the discs %d-%d give %d to player %d", value, got[0],
                 got[1], want, me + 1);
}

Test(othello, board_files_round_trip_with_any_line_ending)
{
    const struct game *g = othello();
    unsigned char a[GAME_MAX_STATE], b[GAME_MAX_STATE];
    game_init(g, a);
    play_text(g, a, "d3");
    play_text(g, a, "c5");
    char text[GAME_FORMAT_MAX];
    g->format(a, text);
    load(g, b, text);
    cr_assert_eq(memcmp(a, b, g->state_size), 0, "round trip changed the position");
    char crlf[2 * GAME_FORMAT_MAX];
    size_t n = 0;
    for (const char *s = text; *s; s++) {
        if (*s == '\n')
            crlf[n++] = '\r';
        crlf[n++] = *s;
    }
    crlf[n] = '\0';
    load(g, b, crlf);
    cr_assert_eq(memcmp(a, b, g->state_size), 0, "CRLF changed the position");
}

struct bad_file {
    char text[128];
    int line, col;
    char msg[80];
};

ParameterizedTestParameters(othello, bad_board_files)
{
    static struct bad_file cases[] = {
        { "", 1, 1, "missing board row 1 of 8 (8 characters ., X, O)" },
        { "........\n........\n", 3, 1, "missing board row 3 of 8 (8 characters ., X, O)" },
        { "....x...\n", 1, 5, "unexpected character 'x', expected ., X or O" },
        { "........\n.......\n", 2, 8, "row has 7 cells, expected 8" },
        { "........\n.........\n", 2, 9, "row has 9 cells, expected 8" },
        { "........\n........\n........\n...OX...\n...XO...\n........\n........\n........\n",
          9, 1, "missing the player-to-move line (1 or 2)" },
        { "........\n........\n........\n...OX...\n...XO...\n........\n........\n........\n3\n",
          9, 1, "unexpected character '3', expected the player to move, 1 or 2" },
        { "........\n........\n........\n...OX...\n...XO...\n........\n........\n........\n1\nX\n",
          10, 1, "unexpected text after the player line" },
    };
    return cr_make_param_array(struct bad_file, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct bad_file *c, othello, bad_board_files)
{
    const struct game *g = othello();
    unsigned char pos[GAME_MAX_STATE];
    struct err e;
    cr_assert_eq(g->parse(pos, c->text, strlen(c->text), &e), -1, "\"%s\" accepted", c->text);
    cr_assert(e.line == c->line && e.col == c->col, "\"%s\": at %d:%d, expected %d:%d", c->text,
              e.line, e.col, c->line, c->col);
    cr_assert_str_eq(e.msg, c->msg);
}

Test(othello, move_text_names_only_legal_moves)
{
    const struct game *g = othello();
    unsigned char pos[GAME_MAX_STATE];
    game_init(g, pos);
    int move;
    const char *refused[] = { "d4", "a1", "pass", "D3", "d3 ", "i1", "d9", "" };
    for (size_t i = 0; i < sizeof refused / sizeof *refused; i++)
        cr_expect_eq(g->parse_move(pos, refused[i], &move), -1, "'%s' accepted", refused[i]);
    cr_assert_eq(g->parse_move(pos, "e6", &move), 0);
    char t[GAME_MOVE_TEXT_MAX];
    g->move_text(pos, move, t, sizeof t);
    cr_assert_str_eq(t, "e6");
}

/* The evaluation is the side to move's: a corner of X's is worth as much to X
 * as it costs O. */
Test(othello, evaluation_favours_the_corner_owner_from_either_side)
{
    const struct game *g = othello();
    unsigned char x[GAME_MAX_STATE], o[GAME_MAX_STATE];
    const char *board = "X.......\n.O......\n..OX....\n...OX...\n...XO...\n........\n"
                        "........\n........\n";
    char text[256];
    snprintf(text, sizeof text, "%s1\n", board);
    load(g, x, text);
    snprintf(text, sizeof text, "%s2\n", board);
    load(g, o, text);
    int vx = g->evaluate(x), vo = g->evaluate(o);
    cr_assert_gt(vx, 0, "X to move: %d", vx);
    cr_assert_lt(vo, 0, "O to move: %d", vo);
}

struct explain_case {
    char after[96];
    char why[80];
};

/* From the start (X to move): what the referee says about answers that
 * are not X's d3, c4, f5 or e6. */
ParameterizedTestParameters(othello, explain_says_what_the_answer_changed)
{
    static struct explain_case cases[] = {
        { "........\n........\n........\n....X...\n...XO...\n........\n........\n........\n2\n",
          "tampered-board: removes the disc at d4" },
        { "........\n........\n........\n...OO...\n...XO...\n........\n........\n........\n2\n",
          "tampered-board: turns over e4, a disc of X" },
        { "........\n........\n...X....\n...XX...\n...XO...\n.....X..\n........\n........\n2\n",
          "illegal-move: adds 2 discs" },
        { "........\n........\n........\n...OX...\n..OOO...\n........\n........\n........\n1\n",
          "wrong-player: plays c5 for O on X's turn" },
        { "X.......\n........\n........\n...OX...\n...XO...\n........\n........\n........\n2\n",
          "illegal-move: a1 encloses no disc of O" },
        { "........\n........\n...X....\n...XX...\n...XX...\n........\n........\n........\n2\n",
          "illegal-move: d3 turns 2 discs, not the 1 it encloses" },
        { "........\n........\n...X....\n...XX...\n...XO...\n........\n........\n........\n1\n",
          "wrong-player: plays d3 but leaves X to move" },
        { "........\n........\n........\n...OX...\n...XO...\n........\n........\n........\n1\n",
          "wrong-player: adds no disc and leaves X to move" },
        { "........\n........\n........\n...OX...\n...XO...\n........\n........\n........\n2\n",
          "illegal-move: passes with 4 moves at hand (d3, ...)" },
    };
    return cr_make_param_array(struct explain_case, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct explain_case *c, othello, explain_says_what_the_answer_changed)
{
    const struct game *g = othello();
    unsigned char before[GAME_MAX_STATE];
    game_init(g, before);
    char why[128];
    cr_assert_eq(g->explain(before, c->after, strlen(c->after), why, sizeof why), 0, "%s",
                 c->after);
    cr_assert_str_eq(why, c->why, "%s", c->after);
}
