/*
 * test_tictactoe.c - tic-tac-toe behind the game interface (registry
 * "tictactoe"): wins on each of the eight lines, the draw, board files
 * (round trips and every rejection with its line and column), move texts,
 * the referee's explanations, and the perfect player and oracle against an
 * exhaustive minimax written out here.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <string.h>
#include "arena/registry.h"

static const struct game *ttt(void)
{
    const struct game *g = registry_find("tictactoe");
    cr_assert_not_null(g, "tictactoe is not registered");
    return g;
}

static void load(const struct game *g, void *pos, const char *text)
{
    struct err e;
    cr_assert_eq(g->parse(pos, text, strlen(text), &e), 0, "board rejected: %d:%d: %s\n%s",
                 e.line, e.col, e.msg, text);
}

struct line_case {
    char board[24];   /* X's line, O to move */
};

ParameterizedTestParameters(tictactoe, three_in_any_line_wins)
{
    static struct line_case cases[] = {
        { "XXX\nOO.\n...\n2\n" }, { "OO.\nXXX\n...\n2\n" }, { "OO.\n...\nXXX\n2\n" },
        { "XO.\nXO.\nX..\n2\n" }, { "OX.\nOX.\n.X.\n2\n" }, { "O.X\nO.X\n..X\n2\n" },
        { "XO.\nOX.\n..X\n2\n" }, { "O.X\nOX.\nX..\n2\n" },
    };
    return cr_make_param_array(struct line_case, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct line_case *c, tictactoe, three_in_any_line_wins)
{
    const struct game *g = ttt();
    unsigned char pos[GAME_MAX_STATE];
    load(g, pos, c->board);
    int value;
    cr_assert_eq(g->terminal(pos, &value), 1, "not over:\n%s", c->board);
    cr_assert_eq(value, -SCORE_WIN, "O to move has lost: %d", value);
    cr_assert_eq(game_result(g, pos), 1);
    cr_assert_eq(g->gen(pos, (int[GAME_MAX_MOVES]){ 0 }), 0, "a finished game has moves");
}

Test(tictactoe, a_full_board_without_a_line_is_a_draw)
{
    const struct game *g = ttt();
    unsigned char pos[GAME_MAX_STATE];
    load(g, pos, "XOX\nXOO\nOXX\n2\n");
    int value;
    cr_assert_eq(g->terminal(pos, &value), 1);
    cr_assert_eq(value, 0);
    cr_assert_eq(game_result(g, pos), 0);
}

Test(tictactoe, start_round_trips_and_lists_cells_row_by_row)
{
    const struct game *g = ttt();
    unsigned char a[GAME_MAX_STATE], b[GAME_MAX_STATE];
    game_init(g, a);
    char text[GAME_FORMAT_MAX];
    g->format(a, text);
    cr_assert_str_eq(text, "...\n...\n...\n1\n");
    int moves[GAME_MAX_MOVES], n = g->gen(a, moves);
    char all[64] = "";
    for (int i = 0; i < n; i++) {
        char t[GAME_MOVE_TEXT_MAX];
        g->move_text(a, moves[i], t, sizeof t);
        strcat(all, i ? " " : "");
        strcat(all, t);
    }
    cr_assert_str_eq(all, "a1 b1 c1 a2 b2 c2 a3 b3 c3");
    int m;
    cr_assert_eq(g->parse_move(a, "c2", &m), 0);
    g->play(a, m);
    g->format(a, text);
    cr_assert_str_eq(text, "...\n..X\n...\n2\n");
    load(g, b, "...\r\n..X  \r\n...\r\n2\r\n\r\n");
    cr_assert_eq(memcmp(a, b, g->state_size), 0, "CRLF and blanks changed the position");
    cr_assert_eq(g->parse_move(a, "c2", &m), -1, "an occupied cell accepted");
}

struct bad_file {
    char text[48];
    int line, col;
    char msg[96];
};

ParameterizedTestParameters(tictactoe, bad_board_files)
{
    static struct bad_file cases[] = {
        { "", 1, 1, "missing board row 1 of 3 (3 characters ., X, O)" },
        { "...\nx..\n...\n1\n", 2, 1, "unexpected character 'x', expected ., X or O" },
        { "...\n..\n...\n1\n", 2, 3, "row has 2 cells, expected 3" },
        { "...\n....\n...\n1\n", 2, 4, "row has 4 cells, expected 3" },
        { "...\n...\n...\n", 4, 1, "missing the player-to-move line (1 or 2)" },
        { "...\n...\n...\nX\n", 4, 1, "unexpected character 'X', expected the player to move, 1 or 2" },
        { "X..\n...\n...\n1\n", 4, 1, "player 1 cannot be to move with 1 marks of X and 0 of O" },
        { "XX.\n...\n...\n2\n", 1, 1,
          "X has 2 marks and O 0: X starts, so X has as many as O or one more" },
        { "XXX\nOOO\nX..\n2\n", 1, 1, "X and O both have three in a row" },
        { "XXX\nOO.\nO..\n1\n", 1, 1, "O played on after X's three in a row" },
        { "OOO\nXX.\nX.X\n2\n", 1, 1, "X played on after O's three in a row" },
    };
    return cr_make_param_array(struct bad_file, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct bad_file *c, tictactoe, bad_board_files)
{
    const struct game *g = ttt();
    unsigned char pos[GAME_MAX_STATE];
    struct err e;
    cr_assert_eq(g->parse(pos, c->text, strlen(c->text), &e), -1, "\"%s\" accepted", c->text);
    cr_assert(e.line == c->line && e.col == c->col, "\"%s\": at %d:%d, expected %d:%d", c->text,
              e.line, e.col, c->line, c->col);
    cr_assert_str_eq(e.msg, c->msg);
}

struct explain_case {
    char before[24];
    char after[24];
    char why[80];
};

/* What the referee says of answers that are not one legal move, boards the
 * rules would refuse included (read without their checks). */
ParameterizedTestParameters(tictactoe, explain_says_what_the_answer_changed)
{
    static struct explain_case cases[] = {
        { "X..\n.O.\n...\n1\n", "...\n.O.\nX.X\n2\n", "tampered-board: removes the mark at a1" },
        { "X..\n.O.\n...\n1\n", "O..\n.O.\n..X\n2\n", "tampered-board: changes the mark at a1" },
        { "X..\n.O.\n...\n1\n", "X..\n.OO\n...\n2\n", "wrong-player: plays for O on X's turn" },
        { "X..\n.O.\n...\n1\n", "X..\n.OO\nO..\n2\n",
          "wrong-player: adds 2 marks of O on X's turn" },
        { "X..\n.O.\n...\n1\n", "XX.\n.O.\nX..\n2\n", "illegal-move: adds 2 marks" },
        { "X..\n.O.\n...\n1\n", "X..\n.O.\n...\n1\n", "wrong-player: adds no mark" },
        { "X..\n.O.\n...\n1\n", "X..\n.O.\n...\n2\n", "illegal-move: adds no mark" },
        { "X..\n.O.\n...\n1\n", "XX.\n.O.\n...\n1\n", "wrong-player: plays b1 but leaves X to move" },
    };
    return cr_make_param_array(struct explain_case, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct explain_case *c, tictactoe, explain_says_what_the_answer_changed)
{
    const struct game *g = ttt();
    unsigned char before[GAME_MAX_STATE];
    load(g, before, c->before);
    char why[128];
    cr_assert_eq(g->explain(before, c->after, strlen(c->after), why, sizeof why), 0, "%s",
                 c->after);
    cr_assert_str_eq(why, c->why, "%s", c->after);
}

Test(tictactoe, explain_leaves_an_unreadable_answer_to_parse)
{
    const struct game *g = ttt();
    unsigned char before[GAME_MAX_STATE];
    game_init(g, before);
    char why[128];
    const char *text = "...\n.x.\n...\n2\n";
    cr_assert_eq(g->explain(before, text, strlen(text), why, sizeof why), -1);
}

/* ---- the perfect player and the oracle ---------------------------------- */

/* Plain minimax of the whole game: 1 win, 0 draw, -1 loss for the side to
 * move, written with the interface only. */
static int minimax(const struct game *g, const void *pos)
{
    int value;
    if (g->terminal(pos, &value))
        return (value > 0) - (value < 0);
    int moves[GAME_MAX_MOVES], n = g->gen(pos, moves), best = -2;
    for (int i = 0; i < n; i++) {
        unsigned char child[GAME_MAX_STATE];
        memcpy(child, pos, g->state_size);
        g->play(child, moves[i]);
        int v = -minimax(g, child);
        best = v > best ? v : best;
    }
    return best;
}

/* Every position reachable from the start: the oracle says what minimax
 * says, and the perfect player's move keeps that value. */
static void check_all(const struct game *g, const void *pos, void *oracle, int *checked)
{
    int value;
    if (g->terminal(pos, &value))
        return;
    int exact = minimax(g, pos);
    cr_assert_eq(g->oracle->value(oracle, pos), exact, "oracle differs on a position");
    unsigned char child[GAME_MAX_STATE];
    memcpy(child, pos, g->state_size);
    g->play(child, g->perfect(pos));
    cr_assert_eq(-minimax(g, child), exact, "the perfect move gives the value away");
    (*checked)++;
    int moves[GAME_MAX_MOVES], n = g->gen(pos, moves);
    for (int i = 0; i < n && *checked < 3000; i++) {
        memcpy(child, pos, g->state_size);
        g->play(child, moves[i]);
        check_all(g, child, oracle, checked);
    }
}

Test(tictactoe, oracle_and_perfect_player_agree_with_minimax)
{
    const struct game *g = ttt();
    cr_assert_not_null(g->perfect);
    cr_assert_not_null(g->oracle);
    void *oracle;
    struct game_oracle_opts o = { .tt_bytes = 1 };
    struct err e;
    cr_assert_eq(g->oracle->open(&oracle, &o, &e), 0);
    unsigned char pos[GAME_MAX_STATE];
    game_init(g, pos);
    cr_assert_eq(g->oracle->value(oracle, pos), 0, "the empty board is a draw");
    int checked = 0;
    check_all(g, pos, oracle, &checked);
    cr_assert_geq(checked, 3000, "only %d positions checked", checked);
    g->oracle->close(oracle);
}

Test(tictactoe, perfect_player_takes_the_quickest_win)
{
    const struct game *g = ttt();
    unsigned char pos[GAME_MAX_STATE];
    /* X wins at c1 now, or later through other lines: c1 is the one. */
    load(g, pos, "XX.\nOO.\nX.O\n1\n");
    char t[GAME_MOVE_TEXT_MAX];
    g->move_text(pos, g->perfect(pos), t, sizeof t);
    cr_assert_str_eq(t, "c1");
}
