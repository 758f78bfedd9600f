/*
 * board.c - the checkers bitboard and the seed's rules (checkers.h): the
 * initial setup, action generation in the seed's canonical order, playing an
 * action, the seed's checks on an input action, the board cost and the
 * printed board.
 */
#include <assert.h>
#include <string.h>
#include "arena/checkers.h"

/* Squares by row parity and by position in their row (see the diagram in
 * checkers.h). A step's shift depends on the row parity; the edge masks keep
 * a shifted bit from wrapping into the wrong row. */
#define CK_EVEN_ROWS   UINT32_C(0x0F0F0F0F)   /* rows 1, 3, 5, 7 (row index even) */
#define CK_ODD_ROWS    UINT32_C(0xF0F0F0F0)   /* rows 2, 4, 6, 8 */
#define CK_ROW_FIRST   UINT32_C(0x11111111)   /* first square of each row */
#define CK_ROW_LAST    UINT32_C(0x88888888)   /* last square of each row */
#define CK_TOP_ROW     UINT32_C(0x0000000F)   /* row 1: black's far row */
#define CK_BOTTOM_ROW  UINT32_C(0xF0000000)   /* row 8: white's far row */
#define CK_INIT_ROWS   3                      /* rows of pieces each side starts with */

/* Square delta of one step, [row index parity][direction]. */
static const int step_delta[2][CK_DIRS] = {
    { -3, +5, +4, -4 },   /* even row index: NE SE SW NW */
    { -4, +4, +3, -5 },   /* odd row index */
};

static uint32_t bit(int sq)
{
    return UINT32_C(1) << sq;
}

/* Every square of x moved one step in direction d; squares whose step leaves
 * the board vanish. The shifts are step_delta's, one per row parity. */
static uint32_t step(uint32_t x, int d)
{
    switch (d) {
    case CK_NE:
        return ((x & CK_EVEN_ROWS & ~CK_ROW_LAST & ~CK_TOP_ROW) >> 3) | ((x & CK_ODD_ROWS) >> 4);
    case CK_SE:
        return ((x & CK_EVEN_ROWS & ~CK_ROW_LAST) << 5)
               | ((x & CK_ODD_ROWS & ~CK_BOTTOM_ROW) << 4);
    case CK_SW:
        return ((x & CK_EVEN_ROWS) << 4)
               | ((x & CK_ODD_ROWS & ~CK_ROW_FIRST & ~CK_BOTTOM_ROW) << 3);
    default:   /* CK_NW */
        return ((x & CK_EVEN_ROWS & ~CK_TOP_ROW) >> 4) | ((x & CK_ODD_ROWS & ~CK_ROW_FIRST) >> 5);
    }
}

static int opposite(int d)
{
    return (d + CK_DIRS / 2) % CK_DIRS;
}

/* Pieces move forward only: north for black, south for white. */
static int forward(int side, int d)
{
    return side == CK_BLACK ? (d == CK_NE || d == CK_NW) : (d == CK_SE || d == CK_SW);
}

static uint32_t far_row(int side)
{
    return side == CK_BLACK ? CK_TOP_ROW : CK_BOTTOM_ROW;
}

/* The side to move's squares that can move, and that can jump, in each
 * direction; returns their union. */
struct ck_sources {
    uint32_t move[CK_DIRS];
    uint32_t jump[CK_DIRS];
};

static uint32_t find_sources(const struct ck_pos *p, struct ck_sources *s)
{
    enum ck_side me = p->to_move, op = me ^ 1;
    uint32_t mine = ck_all(p, me), theirs = ck_all(p, op);
    uint32_t empty = ~(mine | theirs), any = 0;
    for (int d = 0; d < CK_DIRS; d++) {
        uint32_t movers = forward(me, d) ? mine : p->tower[me];
        int back = opposite(d);
        /* Squares whose neighbour in direction d is empty. */
        uint32_t before_empty = step(empty, back);
        s->move[d] = movers & before_empty;
        s->jump[d] = movers & step(theirs & before_empty, back);
        any |= s->move[d] | s->jump[d];
    }
    return any;
}

void ck_init(struct ck_pos *p)
{
    memset(p, 0, sizeof *p);
    uint32_t rows = (UINT32_C(1) << (CK_INIT_ROWS * CK_PER_ROW)) - 1;
    p->piece[CK_WHITE] = rows;
    p->piece[CK_BLACK] = rows << (CK_SQUARES - CK_INIT_ROWS * CK_PER_ROW);
    p->to_move = CK_BLACK;
}

int ck_square(int row, int col)
{
    if (row < 0 || row >= CK_SIZE || col < 0 || col >= CK_SIZE || (row + col) % 2 == 0)
        return -1;
    return row * CK_PER_ROW + col / 2;
}

void ck_coords(int sq, int *row, int *col)
{
    *row = sq / CK_PER_ROW;
    *col = 2 * (sq % CK_PER_ROW) + (*row % 2 == 0);
}

char ck_cell(const struct ck_pos *p, int row, int col)
{
    int sq = ck_square(row, col);
    if (sq < 0)
        return '.';
    uint32_t b = bit(sq);
    if (p->piece[CK_BLACK] & b)
        return 'b';
    if (p->piece[CK_WHITE] & b)
        return 'w';
    if (p->tower[CK_BLACK] & b)
        return 'B';
    if (p->tower[CK_WHITE] & b)
        return 'W';
    return '.';
}

int ck_gen(const struct ck_pos *p, int *moves)
{
    struct ck_sources s;
    uint32_t any = find_sources(p, &s);
    int n = 0;
    while (any) {
        int sq = __builtin_ctz(any);
        any &= any - 1;
        uint32_t b = bit(sq);
        const int *delta = step_delta[(sq / CK_PER_ROW) % 2];
        const int *next_delta = step_delta[(sq / CK_PER_ROW + 1) % 2];
        for (int d = 0; d < CK_DIRS; d++) {
            if (s.move[d] & b)
                moves[n++] = CK_MOVE(sq, sq + delta[d]);
            else if (s.jump[d] & b)
                moves[n++] = CK_MOVE(sq, sq + delta[d] + next_delta[d]);
        }
    }
    return n;
}

int ck_has_action(const struct ck_pos *p)
{
    struct ck_sources s;
    return find_sources(p, &s) != 0;
}

static int is_jump(int move)
{
    int from_row = CK_MOVE_FROM(move) / CK_PER_ROW, to_row = CK_MOVE_TO(move) / CK_PER_ROW;
    return from_row - to_row == 2 || to_row - from_row == 2;
}

void ck_play(struct ck_pos *p, int move)
{
    int me = p->to_move, op = me ^ 1;
    int from = CK_MOVE_FROM(move), to = CK_MOVE_TO(move);
    /* A move of ck_gen: the mover's own man or tower onto an empty square
     * (checking the full rules would cost a generation per move). */
    assert(me <= 1 && move >= 0 && move < CK_MOVE_LIMIT);
    assert((ck_all(p, me) & bit(from)) && !((ck_all(p, me) | ck_all(p, op)) & bit(to)));
    if (is_jump(move)) {
        int fr, fc, tr, tc;
        ck_coords(from, &fr, &fc);
        ck_coords(to, &tr, &tc);
        uint32_t jumped = bit(ck_square((fr + tr) / 2, (fc + tc) / 2));
        p->piece[op] &= ~jumped;
        p->tower[op] &= ~jumped;
    }
    if (p->tower[me] & bit(from)) {
        p->tower[me] ^= bit(from) | bit(to);
    } else {
        p->piece[me] &= ~bit(from);
        if (bit(to) & far_row(me))
            p->tower[me] |= bit(to);
        else
            p->piece[me] |= bit(to);
    }
    p->to_move = (uint8_t)op;
}

int ck_irreversible(const struct ck_pos *p, int move)
{
    int me = p->to_move;
    uint32_t from = bit(CK_MOVE_FROM(move)), to = bit(CK_MOVE_TO(move));
    return is_jump(move) || ((p->piece[me] & from) && (to & far_row(me)));
}

int ck_count(const struct ck_pos *p, enum ck_side s)
{
    return __builtin_popcount(ck_all(p, s));
}

int ck_cost(const struct ck_pos *p)
{
    return __builtin_popcount(p->piece[CK_BLACK])
           + CK_TOWER_COST * __builtin_popcount(p->tower[CK_BLACK])
           - __builtin_popcount(p->piece[CK_WHITE])
           - CK_TOWER_COST * __builtin_popcount(p->tower[CK_WHITE]);
}

int ck_move_text(int move, char *buf, size_t cap)
{
    int fr, fc, tr, tc;
    ck_coords(CK_MOVE_FROM(move), &fr, &fc);
    ck_coords(CK_MOVE_TO(move), &tr, &tc);
    return snprintf(buf, cap, "%c%d-%c%d", 'A' + fc, fr + 1, 'A' + tc, tr + 1);
}

void ck_print_board(FILE *out, const struct ck_pos *p)
{
    static const char rule[] = "   +---+---+---+---+---+---+---+---+\n";
    fputs("     A   B   C   D   E   F   G   H\n", out);
    fputs(rule, out);
    for (int row = 0; row < CK_SIZE; row++) {
        fprintf(out, " %d |", row + 1);
        for (int col = 0; col < CK_SIZE; col++)
            fprintf(out, " %c |", ck_cell(p, row, col));
        fputc('\n', out);
        fputs(rule, out);
    }
}

const char *ck_side_label(enum ck_side s)
{
    return s == CK_BLACK ? "BLACK" : "WHITE";
}

void ck_print_winner(FILE *out, const struct ck_pos *p)
{
    fprintf(out, "%s WIN!\n", ck_side_label(p->to_move ^ 1));
}

static int on_board(int row, int col)
{
    return row >= 0 && row < CK_SIZE && col >= 0 && col < CK_SIZE;
}

enum ck_action_check ck_check_action(const struct ck_pos *p, int src_row, int src_col,
                                     int dst_row, int dst_col, int *move)
{
    if (!on_board(src_row, src_col))
        return CK_SOURCE_OUTSIDE;
    if (!on_board(dst_row, dst_col))
        return CK_TARGET_OUTSIDE;
    char src = ck_cell(p, src_row, src_col);
    if (src == '.')
        return CK_SOURCE_EMPTY;
    if (ck_cell(p, dst_row, dst_col) != '.')
        return CK_TARGET_NOT_EMPTY;
    int black_source = src == 'b' || src == 'B';
    if (black_source != (p->to_move == CK_BLACK))
        return CK_SOURCE_OPPONENT;
    int from = ck_square(src_row, src_col), to = ck_square(dst_row, dst_col);
    if (to < 0)
        return CK_ILLEGAL;
    int moves[GAME_MAX_MOVES];
    int n = ck_gen(p, moves);
    for (int i = 0; i < n; i++)
        if (moves[i] == CK_MOVE(from, to)) {
            *move = moves[i];
            return CK_ACTION_OK;
        }
    return CK_ILLEGAL;
}
