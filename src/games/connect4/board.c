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

/* Reads text's cells and player line into p (to_move from the player
 * line, moves the discs). strict: also the checks of a reachable position
 * (no floating disc, the side to move's disc count), in the order a reader
 * meets them; else the layout alone, for judging what an answer changed. */
static int read_board(struct c4_pos *p, const char *text, size_t len, int strict,
                      struct err *e)
{
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
    for (int r = 0; strict && r < C4_HEIGHT - 1; r++) {
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
    if (strict && count[mover] != count[other] && count[mover] != count[other] - 1)
        return err_set(e, C4_PLAYER_LINE, 1,
                       "player %d cannot be to move with %d discs of player 1 and %d of "
                       "player 2",
                       mover + 1, count[0], count[1]);
    p->to_move = (uint8_t)mover;
    p->moves = (uint8_t)(count[0] + count[1]);
    return 0;
}

int c4g_parse(void *state, const char *text, size_t len, struct err *e)
{
    return read_board(state, text, len, 1, e);
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

/* The lowest cell of bits as "row R column C", rows counted as the board
 * file's lines (1 at the top), columns from 1. */
static void cell_name(uint64_t bits, char *buf, size_t cap)
{
    int bit = __builtin_ctzll(bits);
    int col = bit / C4_COL_BITS, row = bit % C4_COL_BITS;
    snprintf(buf, cap, "row %d column %d", C4_HEIGHT - row, col + 1);
}

/* "N disc(s) of player P" for the discs added of each player, into buf. */
static void added_text(const uint64_t added[2], char *buf, size_t cap)
{
    int n0 = __builtin_popcountll(added[0]), n1 = __builtin_popcountll(added[1]);
    if (n0 && n1)
        snprintf(buf, cap, "%d disc%s of player 1 and %d of player 2", n0, n0 > 1 ? "s" : "",
                 n1);
    else
        snprintf(buf, cap, "%d disc%s of player %d", n0 + n1, n0 + n1 > 1 ? "s" : "",
                 n0 ? 1 : 2);
}

/* The answer that adds no disc: the full columns of before, which a move
 * into one of them leaves unchanged. */
static void no_disc(const struct c4_pos *b, const struct c4_pos *a, char *why, size_t cap)
{
    char full[64] = "";
    int n = 0, used = 0;
    for (int c = 0; c < C4_WIDTH; c++)
        if (!c4_can_play(b, c) && used < (int)sizeof full)
            used += snprintf(full + used, sizeof full - (size_t)used, "%s%d", n++ ? ", " : "",
                             c + 1);
    const char *kind = a->to_move == b->to_move ? "wrong-player" : "illegal-move";
    if (n)
        snprintf(why, cap, "%s: adds no disc (full: column%s %s)", kind, n > 1 ? "s" : "", full);
    else
        snprintf(why, cap, "%s: adds no disc", kind);
}

/* The top cell of the column of the lowest bit of bits, as a bit. */
static uint64_t column_top(uint64_t bits)
{
    int col = __builtin_ctzll(bits) / C4_COL_BITS;
    return C4_BIT(col, C4_HEIGHT - 1);
}

int c4g_explain(const void *before, const char *text, size_t len, char *why, size_t cap)
{
    const struct c4_pos *b = cpos(before);
    struct c4_pos a;
    struct err e;
    if (read_board(&a, text, len, 0, &e) != 0)
        return -1;
    int me = b->to_move, op = me ^ 1;
    uint64_t gone[2] = { b->disc[0] & ~a.disc[0], b->disc[1] & ~a.disc[1] };
    uint64_t added[2] = { a.disc[0] & ~b->disc[0], a.disc[1] & ~b->disc[1] };
    uint64_t turned = (gone[0] & added[1]) | (gone[1] & added[0]);
    char cell[32], what[64];
    if (turned) {
        int was = (b->disc[0] & turned) ? 1 : 2;
        cell_name(turned, cell, sizeof cell);
        /* A drop that finds no empty cell lands on the column's top. */
        if (turned & column_top(turned) && !c4_can_play(b, __builtin_ctzll(turned) / C4_COL_BITS))
            snprintf(why, cap, "illegal-move: column %d is full (the answer turns player %d's "
                     "disc at its top into player %d's)", __builtin_ctzll(turned) / C4_COL_BITS
                     + 1, was, 3 - was);
        else
            snprintf(why, cap, "tampered-board: turns player %d's disc at %s into player %d's",
                     was, cell, 3 - was);
        return 0;
    }
    if (gone[0] | gone[1]) {
        int n = __builtin_popcountll(gone[0] | gone[1]);
        cell_name(gone[0] | gone[1], cell, sizeof cell);
        snprintf(why, cap, "tampered-board: removes the disc at %s%s", cell,
                 n > 1 ? " and more" : "");
        return 0;
    }
    int n_me = __builtin_popcountll(added[me]), n_op = __builtin_popcountll(added[op]);
    if (n_me + n_op == 0) {
        no_disc(b, &a, why, cap);
        return 0;
    }
    added_text(added, what, sizeof what);
    if (n_me == 0) {
        if (n_op == 1)
            snprintf(why, cap, "wrong-player: plays for player %d on player %d's turn", op + 1,
                     me + 1);
        else
            snprintf(why, cap, "wrong-player: adds %s on player %d's turn", what, me + 1);
    } else if (n_me + n_op > 1) {
        snprintf(why, cap, "illegal-move: adds %s", what);
    } else if (a.to_move == b->to_move) {
        snprintf(why, cap, "wrong-player: plays column %d but leaves player %d to move",
                 __builtin_ctzll(added[me]) / C4_COL_BITS + 1, me + 1);
    } else if (__builtin_ctzll(added[me]) % C4_COL_BITS &&
               !((b->disc[0] | b->disc[1]) & (added[me] >> 1))) {
        cell_name(added[me], cell, sizeof cell);
        snprintf(why, cap, "illegal-move: the disc at %s floats over an empty cell", cell);
    } else {
        snprintf(why, cap, "illegal-move");
    }
    return 0;
}
