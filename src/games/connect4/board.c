/*
 * board.c - the Connect-4 bitboard (connect4.h) and the parts of the game
 * interface both rule sets share: board files, move generation, keys, move
 * text and the Max-Connect4 sample program's printed board.
 */
#include <assert.h>
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include "board.h"

/* The four line directions as bit shifts on the layout of connect4.h. */
static const int line_shift[4] = { 1, C4_COL_BITS, C4_COL_BITS - 1, C4_COL_BITS + 1 };

static const struct c4_pos *cpos(const void *state) { return state; }

void c4_init(struct c4_pos *p)
{
    memset(p, 0, sizeof *p);
}

static uint64_t occupied(const struct c4_pos *p)
{
    return p->disc[0] | p->disc[1];
}

int c4_can_play(const struct c4_pos *p, int col)
{
    return col >= 0 && col < C4_WIDTH && (occupied(p) & C4_BIT(col, C4_HEIGHT - 1)) == 0;
}

void c4_play(struct c4_pos *p, int col)
{
    assert(p->to_move <= 1 && p->moves < C4_CELLS);
    assert(c4_can_play(p, col));
    /* Adding the column's bottom bit to the filled cells carries up to the
     * lowest empty cell of that column. */
    uint64_t mask = occupied(p);
    uint64_t bit = (mask + C4_BIT(col, 0)) & c4_column_cells(col);
    p->disc[p->to_move] |= bit;
    p->to_move ^= 1;
    p->moves++;
}

int c4_cell(const struct c4_pos *p, int col, int row)
{
    uint64_t bit = C4_BIT(col, row);
    return (p->disc[0] & bit) ? 1 : (p->disc[1] & bit) ? 2 : 0;
}

int c4_count_fours(uint64_t discs)
{
    int n = 0;
    for (int d = 0; d < 4; d++) {
        int s = line_shift[d];
        uint64_t m = discs & (discs >> s);
        n += __builtin_popcountll(m & (m >> 2 * s));
    }
    return n;
}

int c4_has_four(uint64_t discs)
{
    for (int d = 0; d < 4; d++) {
        int s = line_shift[d];
        uint64_t m = discs & (discs >> s);
        if (m & (m >> 2 * s))
            return 1;
    }
    return 0;
}

/* Open lines of four of `mine` along shift s: bit-sliced sum of the four
 * cells of every window that holds no opposing disc and lies on the board. */
static inline void lines_along(uint64_t mine, uint64_t open, int s, struct c4_lines *out)
{
    uint64_t w = open & (open >> s) & (open >> 2 * s) & (open >> 3 * s);
    uint64_t a = mine, b = mine >> s, c = mine >> 2 * s, e = mine >> 3 * s;
    /* a + b + c + e = low + 2*mid + 4*high, bit by bit. */
    uint64_t s1 = a ^ b, c1 = a & b, s2 = c ^ e, c2 = c & e;
    uint64_t low = s1 ^ s2, carry = s1 & s2;
    uint64_t mid = c1 ^ c2 ^ carry;
    uint64_t high = (c1 & c2) | (c1 & carry) | (c2 & carry);
    out->four += __builtin_popcountll(w & high);
    out->three += __builtin_popcountll(w & low & mid);
    out->two += __builtin_popcountll(w & mid & ~low);
}

void c4_count_lines(uint64_t mine, uint64_t opp, struct c4_lines *out)
{
    uint64_t open = ~opp & C4_BOARD_MASK;
    out->four = out->three = out->two = 0;
    /* Constant shifts, so the compiler unrolls into straight-line code. */
    lines_along(mine, open, 1, out);
    lines_along(mine, open, C4_COL_BITS, out);
    lines_along(mine, open, C4_COL_BITS - 1, out);
    lines_along(mine, open, C4_COL_BITS + 1, out);
}

/* ---- the game interface, shared part ---------------------------------- */

const char *const c4g_bench[] = {
    "",
    "4 4 4 4 3 2",
    "4 3 5 4 4 2 6 3",
    "4 4 3 5 2 1 3 3 5 6",
    "1 2 3 4 5 6 7 7 6 5 4 3 2 1",
    "4 4 4 4 4 4 3 3 3 3 3 3 5 5 5 5 5 5 1 2",
    NULL,
};

void c4g_init(void *state)
{
    c4_init(state);
}

int c4g_parse(void *state, const char *text, size_t len, struct err *e)
{
    struct c4_pos *p = state;
    struct tf_lines L;
    if (tf_split(text, len, &L, e) != 0)
        return -1;
    c4_init(p);
    int count[2] = { 0, 0 };
    for (int r = 0; r < C4_HEIGHT; r++) {
        int line = r + 1, row = C4_HEIGHT - 1 - r;
        if (r >= L.n)
            return err_set(e, line, 1, "missing board row %d of %d (7 digits 0, 1 or 2)", line,
                           C4_HEIGHT);
        const struct tf_line *l = &L.line[r];
        for (int c = 0; c < l->len && c < C4_WIDTH; c++) {
            char ch = l->s[c];
            if (ch < '0' || ch > '2')
                return err_bad_char(e, line, c + 1, ch, "0, 1 or 2");
            if (ch != '0') {
                p->disc[ch - '1'] |= C4_BIT(c, row);
                count[ch - '1']++;
            }
        }
        if (l->len != C4_WIDTH)
            return err_set(e, line, l->len < C4_WIDTH ? l->len + 1 : C4_WIDTH + 1,
                           "row has %d cells, expected %d", l->len, C4_WIDTH);
    }
    /* Discs rest on discs: scanning down from the top, a disc must not sit
     * over an empty cell. */
    for (int r = 0; r < C4_HEIGHT - 1; r++) {
        for (int c = 0; c < C4_WIDTH; c++) {
            int row = C4_HEIGHT - 1 - r;
            if (c4_cell(p, c, row) && !c4_cell(p, c, row - 1))
                return err_set(e, r + 1, c + 1, "floating disc: the cell below it is empty");
        }
    }
    int player;
    if (tf_player_line(&L, C4_PLAYER_LINE, &player, e) != 0)
        return -1;
    int mover = player - 1, other = mover ^ 1;
    /* Whoever started, the side to move has as many discs as the other, or
     * one fewer. */
    if (count[mover] != count[other] && count[mover] != count[other] - 1)
        return err_set(e, C4_PLAYER_LINE, 1,
                       "player %d cannot be to move with %d discs of player 1 and %d of "
                       "player 2",
                       mover + 1, count[0], count[1]);
    p->to_move = (uint8_t)mover;
    p->moves = (uint8_t)(count[0] + count[1]);
    return 0;
}

size_t c4g_format(const void *state, char *buf)
{
    const struct c4_pos *p = cpos(state);
    size_t n = 0;
    for (int row = C4_HEIGHT - 1; row >= 0; row--) {
        for (int c = 0; c < C4_WIDTH; c++)
            buf[n++] = (char)('0' + c4_cell(p, c, row));
        buf[n++] = '\n';
    }
    buf[n++] = (char)('1' + p->to_move);
    buf[n++] = '\n';
    buf[n] = '\0';
    return n;
}

int c4g_gen(const void *state, int *moves)
{
    int n = 0;
    for (int c = 0; c < C4_WIDTH; c++)
        if (c4_can_play(cpos(state), c))
            moves[n++] = c;
    return n;
}

void c4g_play(void *state, int move)
{
    c4_play(state, move);
}

int c4g_to_move(const void *state)
{
    assert(cpos(state)->to_move <= 1);
    return cpos(state)->to_move + 1;
}

int c4g_priority(const void *state, int move)
{
    (void)state;
    int off = move - C4_WIDTH / 2;
    return -(off < 0 ? -off : off);   /* centre first */
}

uint64_t c4g_hash(const void *state)
{
    const struct c4_pos *p = cpos(state);
    return p->disc[p->to_move] + occupied(p);
}

int c4g_move_text(const void *state, int move, char *buf, size_t cap)
{
    (void)state;
    return snprintf(buf, cap, "%d", move + 1);
}

int c4g_parse_move(const void *state, const char *text, int *move)
{
    if (text[0] < '1' || text[0] > '0' + C4_WIDTH || text[1] != '\0')
        return -1;
    int col = text[0] - '1';
    if (!c4_can_play(cpos(state), col))
        return -1;
    *move = col;
    return 0;
}

void c4g_print(FILE *out, const void *state)
{
    const struct c4_pos *p = cpos(state);
    fputs(" -----------------\n", out);
    for (int row = C4_HEIGHT - 1; row >= 0; row--) {
        fputs(" | ", out);
        for (int c = 0; c < C4_WIDTH; c++)
            fprintf(out, "%d ", c4_cell(p, c, row));
        fputs("| \n", out);
    }
    fputs(" -----------------\n", out);
    fprintf(out, "Score: Player 1 = %d, Player 2 = %d\n\n", c4_count_fours(p->disc[0]),
            c4_count_fours(p->disc[1]));
}

void c4g_print_move(FILE *out, const void *after, int move, int mover)
{
    fprintf(out, "\n\nmove %d: Player %d, column %d\n", cpos(after)->moves, mover, move + 1);
}

const char *c4g_explain(const void *before, const void *after)
{
    const struct c4_pos *b = cpos(before), *a = cpos(after);
    if ((b->disc[0] & ~a->disc[0]) || (b->disc[1] & ~a->disc[1]))
        return "tampered-board";
    int mover = b->to_move;
    uint64_t added_mover = a->disc[mover] & ~b->disc[mover];
    uint64_t added_other = a->disc[mover ^ 1] & ~b->disc[mover ^ 1];
    if ((added_other && !added_mover) || a->to_move == b->to_move)
        return "wrong-player";
    return "illegal-move";
}
