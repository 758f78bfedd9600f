/*
 * tictactoe.c - tic-tac-toe behind the game interface (game_tictactoe, named
 * only by src/engine/registry.c): the 3x3 bitboard, board files, move text,
 * the one-move report, the referee's explanations, and the perfect player
 * and blunder-analysis oracle, an exact search of the whole game.
 *
 * Representation: bit 3 * row + col of mark[0] (X, player 1, who starts) and
 * mark[1] (O, player 2), row 0 the top row. A cell is named by its column
 * letter and row number from the top, a1 to c3; moves are the cell's bit,
 * and the canonical order is a1 b1 c1 a2 ... c3.
 */
#include <assert.h>
#include <stdint.h>
#include <string.h>
#include "arena/game.h"
#include "arena/textfile.h"

#define TTT_SIZE   3
#define TTT_CELLS  9
#define TTT_FULL   0x1ffu
#define TTT_PLAYER_LINE (TTT_SIZE + 1)
/* An open line (no mark of the other side) is worth this per mark of one's
 * own in it: two in a row count more than two single marks. */
#define TTT_EVAL_ONE 1
#define TTT_EVAL_TWO 10
#define TTT_CENTRE 4
#define TTT_MIX_A UINT64_C(0xbf58476d1ce4e5b9)
#define TTT_MIX_B UINT64_C(0x94d049bb133111eb)

struct ttt_pos {
    uint16_t mark[2];   /* X's and O's cells */
    uint8_t side;       /* 0: X to move, 1: O */
    uint8_t pad;        /* always 0 */
};

/* The eight lines: rows, columns, diagonals. */
static const uint16_t ttt_lines[8] = { 0x007, 0x038, 0x1c0, 0x049, 0x092, 0x124, 0x111, 0x054 };
static const char ttt_mark_char[2] = { 'X', 'O' };

static const struct ttt_pos *tpos(const void *state) { return state; }

static int has_line(unsigned m)
{
    for (int i = 0; i < 8; i++)
        if ((m & ttt_lines[i]) == ttt_lines[i])
            return 1;
    return 0;
}

static void ttt_init(void *state)
{
    memset(state, 0, sizeof(struct ttt_pos));
}

/* The counts and lines of a parsed board against the rules: X starts and
 * the game stops at the first three in a row. */
static int check_position(const struct ttt_pos *p, struct err *e)
{
    int x = __builtin_popcount(p->mark[0]), o = __builtin_popcount(p->mark[1]);
    int player = p->side + 1;
    if (x != o && x != o + 1)
        return err_set(e, 1, 1, "X has %d marks and O %d: X starts, so X has as many as O or one more",
                       x, o);
    if (player != (x == o ? 1 : 2))
        return err_set(e, TTT_PLAYER_LINE, 1,
                       "player %d cannot be to move with %d marks of X and %d of O", player, x, o);
    int xl = has_line(p->mark[0]), ol = has_line(p->mark[1]);
    if (xl && ol)
        return err_set(e, 1, 1, "X and O both have three in a row");
    if ((xl && x != o + 1) || (ol && x != o))
        return err_set(e, 1, 1, "%c played on after %c's three in a row", xl ? 'O' : 'X',
                       xl ? 'X' : 'O');
    return 0;
}

/* Reads a board file into p; reachable (1) also checks the counts and
 * lines against the rules (check_position), which explain does without. */
static int read_board(struct ttt_pos *p, const char *text, size_t len, int reachable,
                      struct err *e)
{
    struct tf_lines L;
    if (tf_split(text, len, &L, e) != 0)
        return -1;
    memset(p, 0, sizeof *p);
    for (int row = 0; row < TTT_SIZE; row++) {
        int line = row + 1;
        if (row >= L.n)
            return err_set(e, line, 1, "missing board row %d of %d (3 characters ., X, O)", line,
                           TTT_SIZE);
        const struct tf_line *l = &L.line[row];
        for (int col = 0; col < l->len && col < TTT_SIZE; col++) {
            char ch = l->s[col];
            if (ch != '.' && ch != 'X' && ch != 'O')
                return err_bad_char(e, line, col + 1, ch, "., X or O");
            if (ch != '.')
                p->mark[ch == 'O'] |= (uint16_t)(1u << (TTT_SIZE * row + col));
        }
        if (l->len != TTT_SIZE)
            return err_set(e, line, l->len < TTT_SIZE ? l->len + 1 : TTT_SIZE + 1,
                           "row has %d cells, expected %d", l->len, TTT_SIZE);
    }
    int player;
    if (tf_player_line(&L, TTT_PLAYER_LINE, &player, e) != 0)
        return -1;
    p->side = (uint8_t)(player - 1);
    return reachable ? check_position(p, e) : 0;
}

static int ttt_parse(void *state, const char *text, size_t len, struct err *e)
{
    return read_board(state, text, len, 1, e);
}

static size_t ttt_format(const void *state, char *buf)
{
    const struct ttt_pos *p = tpos(state);
    size_t n = 0;
    for (int row = 0; row < TTT_SIZE; row++) {
        for (int col = 0; col < TTT_SIZE; col++) {
            unsigned bit = 1u << (TTT_SIZE * row + col);
            buf[n++] = p->mark[0] & bit ? 'X' : p->mark[1] & bit ? 'O' : '.';
        }
        buf[n++] = '\n';
    }
    buf[n++] = (char)('1' + p->side);
    buf[n++] = '\n';
    buf[n] = '\0';
    return n;
}

static int over(const struct ttt_pos *p)
{
    return has_line(p->mark[0]) || has_line(p->mark[1]) || (p->mark[0] | p->mark[1]) == TTT_FULL;
}

static int ttt_gen(const void *state, int *moves)
{
    const struct ttt_pos *p = tpos(state);
    if (over(p))
        return 0;
    unsigned empty = ~(unsigned)(p->mark[0] | p->mark[1]) & TTT_FULL;
    int n = 0;
    for (int c = 0; c < TTT_CELLS; c++)
        if (empty & (1u << c))
            moves[n++] = c;
    return n;
}

static void ttt_play(void *state, int move)
{
    struct ttt_pos *p = state;
    assert(move >= 0 && move < TTT_CELLS && !((p->mark[0] | p->mark[1]) & (1u << move)));
    p->mark[p->side] |= (uint16_t)(1u << move);
    p->side ^= 1;
}

static int ttt_to_move(const void *state)
{
    return tpos(state)->side + 1;
}

/* Only the side that just moved can have three in a row. */
static int ttt_terminal(const void *state, int *value)
{
    const struct ttt_pos *p = tpos(state);
    if (has_line(p->mark[p->side ^ 1])) {
        *value = -SCORE_WIN;
        return 1;
    }
    if ((p->mark[0] | p->mark[1]) == TTT_FULL) {
        *value = 0;
        return 1;
    }
    return 0;
}

/* The open lines of mine minus the other side's, two marks in one worth
 * more than one. */
static int open_lines(unsigned mine, unsigned theirs)
{
    int v = 0;
    for (int i = 0; i < 8; i++) {
        if (theirs & ttt_lines[i])
            continue;
        int k = __builtin_popcount(mine & ttt_lines[i]);
        v += k == 2 ? TTT_EVAL_TWO : k * TTT_EVAL_ONE;
    }
    return v;
}

static int ttt_evaluate(const void *state)
{
    const struct ttt_pos *p = tpos(state);
    unsigned me = p->mark[p->side], them = p->mark[p->side ^ 1];
    return open_lines(me, them) - open_lines(them, me);
}

static int ttt_priority(const void *state, int move)
{
    (void)state;
    return move == TTT_CENTRE;
}

static uint64_t ttt_hash(const void *state)
{
    const struct ttt_pos *p = tpos(state);
    uint64_t x = (uint64_t)p->mark[0] | (uint64_t)p->mark[1] << TTT_CELLS
                 | (uint64_t)p->side << (2 * TTT_CELLS);
    x = (x ^ (x >> 30)) * TTT_MIX_A;
    x = (x ^ (x >> 27)) * TTT_MIX_B;
    return x ^ (x >> 31);
}

static int ttt_move_text(const void *state, int move, char *buf, size_t cap)
{
    (void)state;
    return snprintf(buf, cap, "%c%d", 'a' + move % TTT_SIZE, move / TTT_SIZE + 1);
}

static int ttt_parse_move(const void *state, const char *text, int *move)
{
    if (text[0] < 'a' || text[0] > 'c' || text[1] < '1' || text[1] > '3' || text[2] != '\0')
        return -1;
    int m = (text[1] - '1') * TTT_SIZE + (text[0] - 'a');
    const struct ttt_pos *p = tpos(state);
    if (over(p) || ((p->mark[0] | p->mark[1]) & (1u << m)))
        return -1;
    *move = m;
    return 0;
}

static void ttt_print(FILE *out, const void *state)
{
    const struct ttt_pos *p = tpos(state);
    char buf[GAME_FORMAT_MAX];
    ttt_format(p, buf);
    for (int row = 0; row < TTT_SIZE; row++)
        fprintf(out, " %c %c %c\n", buf[4 * row], buf[4 * row + 1], buf[4 * row + 2]);
    fprintf(out, "%c to move\n\n", ttt_mark_char[p->side]);
}

static void ttt_print_move(FILE *out, const void *after, int move, int mover)
{
    char text[GAME_MOVE_TEXT_MAX];
    ttt_move_text(after, move, text, sizeof text);
    fprintf(out, "move: %c plays %s\n\n", ttt_mark_char[mover - 1], text);
}

static void ttt_print_over(FILE *out, const void *state)
{
    const struct ttt_pos *p = tpos(state);
    if (has_line(p->mark[p->side ^ 1]))
        fprintf(out, "%c has three in a row and wins\nGame over!\n\n", ttt_mark_char[p->side ^ 1]);
    else
        fprintf(out, "The board is full: a draw\nGame over!\n\n");
}

/* The cell of the lowest bit of m ("b2"). */
static void cell_name(unsigned m, char *buf, size_t cap)
{
    int c = __builtin_ctz(m);
    snprintf(buf, cap, "%c%d", 'a' + c % TTT_SIZE, c / TTT_SIZE + 1);
}

/* What an answer changed, read without the rules' checks (game.h): a mark
 * gone or turned is tampering; marks of the other side only, or the same
 * side still to move, the wrong player; more than one mark, or none, an
 * illegal move. */
static int ttt_explain(const void *before, const char *text, size_t len, char *why, size_t cap)
{
    const struct ttt_pos *b = tpos(before);
    struct ttt_pos a;
    struct err e;
    if (read_board(&a, text, len, 0, &e) != 0)
        return -1;
    int me = b->side, op = me ^ 1;
    unsigned gone = (b->mark[0] & ~a.mark[0]) | (b->mark[1] & ~a.mark[1]);
    unsigned added[2] = { a.mark[0] & ~b->mark[0], a.mark[1] & ~b->mark[1] };
    int n_me = __builtin_popcount(added[me]), n_op = __builtin_popcount(added[op]);
    char cell[8];
    if (gone) {
        cell_name(gone, cell, sizeof cell);
        int turned = (a.mark[0] | a.mark[1]) & (gone & -gone) ? 1 : 0;
        snprintf(why, cap, "tampered-board: %s the mark at %s%s", turned ? "changes" : "removes",
                 cell, gone & (gone - 1) ? " and more" : "");
    } else if (n_me == 0 && n_op > 0) {
        if (n_op == 1)
            snprintf(why, cap, "wrong-player: plays for %c on %c's turn", ttt_mark_char[op],
                     ttt_mark_char[me]);
        else
            snprintf(why, cap, "wrong-player: adds %d marks of %c on %c's turn", n_op,
                     ttt_mark_char[op], ttt_mark_char[me]);
    } else if (n_me + n_op > 1) {
        snprintf(why, cap, "illegal-move: adds %d marks", n_me + n_op);
    } else if (n_me == 0) {
        snprintf(why, cap, "%s: adds no mark", a.side == b->side ? "wrong-player" : "illegal-move");
    } else if (a.side == b->side) {
        cell_name(added[me], cell, sizeof cell);
        snprintf(why, cap, "wrong-player: plays %s but leaves %c to move", cell, ttt_mark_char[me]);
    } else {
        snprintf(why, cap, "illegal-move");
    }
    return 0;
}

/* ---- the exact search: perfect player and oracle ------------------------ */

/* The exact value of p for its side to move within (alpha, beta): a win is
 * worth 1 plus the empty cells left when it is won (sooner is better), a
 * loss its negation, a draw 0. Fail-soft alpha-beta over the whole game (at
 * most 9! lines; a few thousand nodes with the cut-offs). */
static int solve(const struct ttt_pos *p, int alpha, int beta)
{
    int empties = TTT_CELLS - __builtin_popcount(p->mark[0] | p->mark[1]);
    if (has_line(p->mark[p->side ^ 1]))
        return -(1 + empties);
    if (empties == 0)
        return 0;
    int best = -TTT_CELLS - 1;
    for (int c = 0; c < TTT_CELLS; c++) {
        if ((p->mark[0] | p->mark[1]) & (1u << c))
            continue;
        struct ttt_pos child = *p;
        ttt_play(&child, c);
        int v = -solve(&child, -beta, -(alpha > best ? alpha : best));
        if (v > best)
            best = v;
        if (best >= beta)
            break;
    }
    return best;
}

/* The quickest win, else the slowest loss, lowest cell first on ties. */
static int ttt_perfect(const void *state)
{
    const struct ttt_pos *p = tpos(state);
    int best = -TTT_CELLS - 2, move = -1;
    for (int c = 0; c < TTT_CELLS; c++) {
        if ((p->mark[0] | p->mark[1]) & (1u << c))
            continue;
        struct ttt_pos child = *p;
        ttt_play(&child, c);
        int v = -solve(&child, -TTT_CELLS - 2, -best);
        if (v > best) {
            best = v;
            move = c;
        }
    }
    assert(move >= 0);
    return move;
}

static int ttt_oracle_open(void **oracle, const struct game_oracle_opts *o, struct err *e)
{
    (void)o;
    (void)e;
    *oracle = NULL;
    return 0;
}

static int ttt_oracle_value(void *oracle, const void *state)
{
    (void)oracle;
    int v = solve(tpos(state), -TTT_CELLS - 2, TTT_CELLS + 2);
    return (v > 0) - (v < 0);
}

static void ttt_oracle_close(void *oracle)
{
    (void)oracle;
}

static const struct game_oracle ttt_oracle = {
    .open = ttt_oracle_open,
    .value = ttt_oracle_value,
    .close = ttt_oracle_close,
};

/* The start, a corner opening, the centre answered at the edge, and a
 * position two moves from the end. */
static const char *const ttt_bench[] = {
    "",
    "a1",
    "b2 b1",
    "a1 b2 c3 a3 c1",
    NULL,
};

static const struct game_drawing ttt_drawing = {
    .layout = GAME_DRAW_GRID,
    .style = ".tictactoe{background:#333}.tictactoe td{border-radius:0;"
             "text-align:center;font:bold 20px sans-serif}\n"
             ".tictactoe td.c88::after{content:'X';color:#c22}"
             ".tictactoe td.c79::after{content:'O';color:#25a}\n",
};

const struct game game_tictactoe = {
    .name = "tictactoe",
    .title = "Tic-tac-toe",
    .state_size = sizeof(struct ttt_pos),
    .init = ttt_init,
    .parse = ttt_parse,
    .format = ttt_format,
    .gen = ttt_gen,
    .play = ttt_play,
    .to_move = ttt_to_move,
    .terminal = ttt_terminal,
    .evaluate = ttt_evaluate,
    .priority = ttt_priority,
    .hash = ttt_hash,
    .move_text = ttt_move_text,
    .parse_move = ttt_parse_move,
    .print = ttt_print,
    .print_move = ttt_print_move,
    .print_over = ttt_print_over,
    .explain = ttt_explain,
    .perfect = ttt_perfect,
    .bench = ttt_bench,
    .oracle = &ttt_oracle,
    .drawing = &ttt_drawing,
};
