/*
 * othello.c - Othello (Reversi on 8x8 from the standard start) behind the
 * game interface (game_othello, named only by src/engine/registry.c): the
 * bitboard and its rules, board files, move text, the engine's evaluation
 * and the one-move report.
 *
 * Representation: bit 8 * row + col of disc[0] (X, black, player 1, who
 * starts) and disc[1] (O, white, player 2), row 0 the top row. A square is
 * named by its column letter and row number from the top, a1 to h8; moves
 * are the square's bit in ascending order (the canonical order), and
 * OTH_PASS when the side to move has no move but the other side has: a
 * pass is a ply. The game ends when neither side can move; the side with
 * more discs wins by the difference (the margin), equal counts draw.
 *
 * Score (struct game_score): each side's discs at the end, the game's own
 * result; their difference is the margin.
 */
#include <assert.h>
#include <stdint.h>
#include <string.h>
#include "arena/game.h"
#include "arena/textfile.h"

#define OTH_SIZE   8
#define OTH_SQUARES 64
#define OTH_PASS   OTH_SQUARES
#define OTH_PLAYER_LINE (OTH_SIZE + 1)
#define OTH_NOT_A  UINT64_C(0xfefefefefefefefe)   /* every column but a */
#define OTH_NOT_H  UINT64_C(0x7f7f7f7f7f7f7f7f)   /* every column but h */
#define OTH_CORNERS UINT64_C(0x8100000000000081)
/* The squares diagonally next to a corner: taking one while the corner is
 * empty usually hands the corner over. */
#define OTH_X_SQUARES UINT64_C(0x0042000000004200)
/* The evaluation's weights, per unit of difference between the sides: a
 * corner is never lost again, a move more leaves the other side fewer
 * choices; discs count least before the end. */
#define OTH_EVAL_CORNER   100
#define OTH_EVAL_MOBILITY 10
#define OTH_EVAL_X_SQUARE 30
#define OTH_EVAL_DISC     1
#define OTH_PRIORITY_CORNER 2
#define OTH_MIX_A UINT64_C(0xbf58476d1ce4e5b9)
#define OTH_MIX_B UINT64_C(0x94d049bb133111eb)
#define OTH_SIDE_SALT UINT64_C(0x9e3779b97f4a7c15)
/* The start: white on d4 and e5, black on d5 and e4. */
#define OTH_START_BLACK ((UINT64_C(1) << 28) | (UINT64_C(1) << 35))
#define OTH_START_WHITE ((UINT64_C(1) << 27) | (UINT64_C(1) << 36))

struct oth_pos {
    uint64_t disc[2];   /* X's (black) and O's (white) squares */
    uint8_t side;       /* 0: X to move, 1: O */
    uint8_t pad[7];     /* always 0 */
};

static const char oth_disc_char[2] = { 'X', 'O' };

static const struct oth_pos *opos(const void *state) { return state; }

/* b moved one square in direction d (0-7: E, W, S, N, SE, SW, NE, NW),
 * squares that would wrap round a row edge dropped. */
static uint64_t shift(uint64_t b, int d)
{
    switch (d) {
    case 0: return (b << 1) & OTH_NOT_A;
    case 1: return (b >> 1) & OTH_NOT_H;
    case 2: return b << 8;
    case 3: return b >> 8;
    case 4: return (b << 9) & OTH_NOT_A;
    case 5: return (b << 7) & OTH_NOT_H;
    case 6: return (b >> 7) & OTH_NOT_A;
    default: return (b >> 9) & OTH_NOT_H;
    }
}

/* The empty squares where mine, moving, would enclose a line of theirs. */
static uint64_t legal(uint64_t mine, uint64_t theirs)
{
    uint64_t empty = ~(mine | theirs), moves = 0;
    for (int d = 0; d < 8; d++) {
        uint64_t x = shift(mine, d) & theirs;
        for (int k = 0; k < OTH_SIZE - 3; k++)
            x |= shift(x, d) & theirs;
        moves |= shift(x, d) & empty;
    }
    return moves;
}

/* The discs of theirs that a disc of mine on square sq turns over. */
static uint64_t flips(uint64_t mine, uint64_t theirs, int sq)
{
    uint64_t all = 0;
    for (int d = 0; d < 8; d++) {
        uint64_t line = 0, b = shift(UINT64_C(1) << sq, d);
        while (b & theirs) {
            line |= b;
            b = shift(b, d);
        }
        if (b & mine)
            all |= line;
    }
    return all;
}

static uint64_t moves_of(const struct oth_pos *p, int side)
{
    return legal(p->disc[side], p->disc[side ^ 1]);
}

static int finished(const struct oth_pos *p)
{
    return moves_of(p, 0) == 0 && moves_of(p, 1) == 0;
}

static void oth_init(void *state)
{
    struct oth_pos *p = state;
    memset(p, 0, sizeof *p);
    p->disc[0] = OTH_START_BLACK;
    p->disc[1] = OTH_START_WHITE;
}

static int oth_parse(void *state, const char *text, size_t len, struct err *e)
{
    struct oth_pos *p = state;
    struct tf_lines L;
    if (tf_split(text, len, &L, e) != 0)
        return -1;
    memset(p, 0, sizeof *p);
    for (int row = 0; row < OTH_SIZE; row++) {
        int line = row + 1;
        if (row >= L.n)
            return err_set(e, line, 1, "missing board row %d of %d (8 characters ., X, O)", line,
                           OTH_SIZE);
        const struct tf_line *l = &L.line[row];
        for (int col = 0; col < l->len && col < OTH_SIZE; col++) {
            char ch = l->s[col];
            if (ch != '.' && ch != 'X' && ch != 'O')
                return err_bad_char(e, line, col + 1, ch, "., X or O");
            if (ch != '.')
                p->disc[ch == 'O'] |= UINT64_C(1) << (OTH_SIZE * row + col);
        }
        if (l->len != OTH_SIZE)
            return err_set(e, line, l->len < OTH_SIZE ? l->len + 1 : OTH_SIZE + 1,
                           "row has %d cells, expected %d", l->len, OTH_SIZE);
    }
    int player;
    if (tf_player_line(&L, OTH_PLAYER_LINE, &player, e) != 0)
        return -1;
    p->side = (uint8_t)(player - 1);
    return 0;
}

static size_t oth_format(const void *state, char *buf)
{
    const struct oth_pos *p = opos(state);
    size_t n = 0;
    for (int sq = 0; sq < OTH_SQUARES; sq++) {
        uint64_t bit = UINT64_C(1) << sq;
        buf[n++] = p->disc[0] & bit ? 'X' : p->disc[1] & bit ? 'O' : '.';
        if (sq % OTH_SIZE == OTH_SIZE - 1)
            buf[n++] = '\n';
    }
    buf[n++] = (char)('1' + p->side);
    buf[n++] = '\n';
    buf[n] = '\0';
    return n;
}

static int oth_gen(const void *state, int *moves)
{
    const struct oth_pos *p = opos(state);
    uint64_t m = moves_of(p, p->side);
    int n = 0;
    for (; m; m &= m - 1)
        moves[n++] = __builtin_ctzll(m);
    if (n == 0 && moves_of(p, p->side ^ 1))
        moves[n++] = OTH_PASS;
    return n;
}

static void oth_play(void *state, int move)
{
    struct oth_pos *p = state;
    int me = p->side;
    if (move != OTH_PASS) {
        assert(move >= 0 && move < OTH_SQUARES);
        uint64_t f = flips(p->disc[me], p->disc[me ^ 1], move);
        assert(f != 0);
        p->disc[me] |= f | UINT64_C(1) << move;
        p->disc[me ^ 1] &= ~f;
    }
    p->side ^= 1;
}

static int oth_to_move(const void *state)
{
    return opos(state)->side + 1;
}

static int oth_terminal(const void *state, int *value)
{
    const struct oth_pos *p = opos(state);
    if (!finished(p))
        return 0;
    int diff = __builtin_popcountll(p->disc[p->side]) - __builtin_popcountll(p->disc[p->side ^ 1]);
    *value = diff > 0 ? SCORE_WIN + diff : diff < 0 ? -(SCORE_WIN - diff) : 0;
    return 1;
}

static void oth_final(const void *state, int score[2])
{
    const struct oth_pos *p = opos(state);
    score[0] = __builtin_popcountll(p->disc[0]);
    score[1] = __builtin_popcountll(p->disc[1]);
}

static const struct game_score oth_score = { .label = "discs", .final = oth_final };

/* One side's material in the evaluation's terms. */
static int side_value(const struct oth_pos *p, int side)
{
    uint64_t mine = p->disc[side], theirs = p->disc[side ^ 1];
    uint64_t empty_corners = OTH_CORNERS & ~(mine | theirs);
    /* An X-square counts against its owner only while its corner is empty. */
    uint64_t risky = mine & OTH_X_SQUARES
                     & (shift(empty_corners, 4) | shift(empty_corners, 5)
                        | shift(empty_corners, 6) | shift(empty_corners, 7));
    return OTH_EVAL_CORNER * __builtin_popcountll(mine & OTH_CORNERS)
           + OTH_EVAL_MOBILITY * __builtin_popcountll(legal(mine, theirs))
           - OTH_EVAL_X_SQUARE * __builtin_popcountll(risky)
           + OTH_EVAL_DISC * __builtin_popcountll(mine);
}

static int oth_evaluate(const void *state)
{
    const struct oth_pos *p = opos(state);
    return side_value(p, p->side) - side_value(p, p->side ^ 1);
}

/* Corners first, X-squares last. */
static int oth_priority(const void *state, int move)
{
    (void)state;
    if (move == OTH_PASS)
        return 0;
    uint64_t bit = UINT64_C(1) << move;
    return bit & OTH_CORNERS ? OTH_PRIORITY_CORNER : bit & OTH_X_SQUARES ? -1 : 0;
}

static uint64_t mix64(uint64_t x)
{
    x = (x ^ (x >> 30)) * OTH_MIX_A;
    x = (x ^ (x >> 27)) * OTH_MIX_B;
    return x ^ (x >> 31);
}

static uint64_t oth_hash(const void *state)
{
    const struct oth_pos *p = opos(state);
    return mix64(mix64(p->disc[0]) ^ p->disc[1]) ^ (p->side ? OTH_SIDE_SALT : 0);
}

static int oth_move_text(const void *state, int move, char *buf, size_t cap)
{
    (void)state;
    if (move == OTH_PASS)
        return snprintf(buf, cap, "pass");
    return snprintf(buf, cap, "%c%d", 'a' + move % OTH_SIZE, move / OTH_SIZE + 1);
}

static int oth_parse_move(const void *state, const char *text, int *move)
{
    int moves[GAME_MAX_MOVES];
    int n = oth_gen(state, moves);
    for (int i = 0; i < n; i++) {
        char buf[GAME_MOVE_TEXT_MAX];
        oth_move_text(state, moves[i], buf, sizeof buf);
        if (strcmp(buf, text) == 0) {
            *move = moves[i];
            return 0;
        }
    }
    return -1;
}

static void oth_print(FILE *out, const void *state)
{
    const struct oth_pos *p = opos(state);
    fputs("   a b c d e f g h\n", out);
    for (int row = 0; row < OTH_SIZE; row++) {
        fprintf(out, " %d", row + 1);
        for (int col = 0; col < OTH_SIZE; col++) {
            uint64_t bit = UINT64_C(1) << (OTH_SIZE * row + col);
            fprintf(out, " %c", p->disc[0] & bit ? 'X' : p->disc[1] & bit ? 'O' : '.');
        }
        fputc('\n', out);
    }
    fprintf(out, "Discs: X %d, O %d\n%c to move\n\n", __builtin_popcountll(p->disc[0]),
            __builtin_popcountll(p->disc[1]), oth_disc_char[p->side]);
}

static void oth_print_move(FILE *out, const void *after, int move, int mover)
{
    char text[GAME_MOVE_TEXT_MAX];
    oth_move_text(after, move, text, sizeof text);
    if (move == OTH_PASS)
        fprintf(out, "move: %c cannot move and passes\n\n", oth_disc_char[mover - 1]);
    else
        fprintf(out, "move: %c plays %s\n\n", oth_disc_char[mover - 1], text);
}

static void oth_print_over(FILE *out, const void *state)
{
    int discs[2];
    oth_final(state, discs);
    int x = discs[0], o = discs[1];
    if (x == o)
        fprintf(out, "Neither side can move: a draw, %d discs each\nGame over!\n\n", x);
    else
        fprintf(out, "Neither side can move: %c wins %d to %d\nGame over!\n\n",
                x > o ? 'X' : 'O', x > o ? x : o, x > o ? o : x);
}

/* The square of the lowest bit of m ("d3"). */
static void square_name(uint64_t m, char *buf, size_t cap)
{
    oth_move_text(NULL, __builtin_ctzll(m), buf, cap);
}

/* What an answer changed beyond the new disc (added, one of the mover's):
 * the discs it turned against those the move encloses. */
static void placed(const struct oth_pos *b, const struct oth_pos *a, uint64_t added, char *why,
                   size_t cap)
{
    int me = b->side, op = me ^ 1;
    char sq[8];
    square_name(added, sq, sizeof sq);
    uint64_t should = flips(b->disc[me], b->disc[op], __builtin_ctzll(added));
    uint64_t did = b->disc[op] & a->disc[me];
    if (a->side == b->side)
        snprintf(why, cap, "wrong-player: plays %s but leaves %c to move", sq, oth_disc_char[me]);
    else if (!should)
        snprintf(why, cap, "illegal-move: %s encloses no disc of %c", sq, oth_disc_char[op]);
    else if (did == should)
        snprintf(why, cap, "illegal-move");
    else
        snprintf(why, cap, "illegal-move: %s turns %d discs, not the %d it encloses", sq,
                 __builtin_popcountll(did), __builtin_popcountll(should));
}

/* What an answer changed (game.h): a disc gone is tampering; more than
 * one new disc an illegal move; a new disc of the other side the wrong
 * player; a disc of the mover's turned (with one new disc of its own)
 * tampering; a pass with a move at hand or the wrong discs turned an
 * illegal move. */
static int oth_explain(const void *before, const char *text, size_t len, char *why, size_t cap)
{
    const struct oth_pos *b = opos(before);
    struct oth_pos a;
    struct err e;
    if (oth_parse(&a, text, len, &e) != 0)
        return -1;
    int me = b->side, op = me ^ 1;
    uint64_t was = b->disc[0] | b->disc[1], now = a.disc[0] | a.disc[1];
    uint64_t gone = was & ~now, added = now & ~was, lost = b->disc[me] & a.disc[op];
    char sq[8];
    if (gone) {
        square_name(gone, sq, sizeof sq);
        snprintf(why, cap, "tampered-board: removes the disc at %s", sq);
    } else if (added & (added - 1)) {
        snprintf(why, cap, "illegal-move: adds %d discs", __builtin_popcountll(added));
    } else if (added & a.disc[op]) {
        square_name(added, sq, sizeof sq);
        snprintf(why, cap, "wrong-player: plays %s for %c on %c's turn", sq, oth_disc_char[op],
                 oth_disc_char[me]);
    } else if (lost) {
        square_name(lost, sq, sizeof sq);
        snprintf(why, cap, "tampered-board: turns over %s, a disc of %c", sq, oth_disc_char[me]);
    } else if (added) {
        placed(b, &a, added, why, cap);
    } else if (a.side == b->side) {
        snprintf(why, cap, "wrong-player: adds no disc and leaves %c to move", oth_disc_char[me]);
    } else if (!moves_of(b, me)) {
        snprintf(why, cap, "illegal-move");
    } else {
        uint64_t m = moves_of(b, me);
        square_name(m, sq, sizeof sq);
        snprintf(why, cap, "illegal-move: passes with %d moves at hand (%s, ...)",
                 __builtin_popcountll(m), sq);
    }
    return 0;
}

/* The start, two short openings, and a middle game after 20 plies (the
 * engine's own moves at depths 1 to 3). */
static const char *const oth_bench[] = {
    "",
    "f5 f6 e6 f4",
    "f5 d6 c3 d3 c4 f4",
    "d3 c5 c6 e3 c4 b4 c3 b6 b5 a5 d6 e2 b3 c2 a3 a4 a6 a7 a8 b7",
    NULL,
};

static const struct game_drawing oth_drawing = {
    .layout = GAME_DRAW_GRID,
    .style = ".othello{background:#185c2c}.othello td{background:#2e8b47}\n"
             ".othello td.c88{background:#111}.othello td.c79{background:#fafafa}\n",
};

const struct game game_othello = {
    .name = "othello",
    .title = "Othello",
    .state_size = sizeof(struct oth_pos),
    .init = oth_init,
    .parse = oth_parse,
    .format = oth_format,
    .gen = oth_gen,
    .play = oth_play,
    .to_move = oth_to_move,
    .terminal = oth_terminal,
    .evaluate = oth_evaluate,
    .priority = oth_priority,
    .hash = oth_hash,
    .move_text = oth_move_text,
    .parse_move = oth_parse_move,
    .print = oth_print,
    .print_move = oth_print_move,
    .print_over = oth_print_over,
    .explain = oth_explain,
    .bench = oth_bench,
    .drawing = &oth_drawing,
    .score = &oth_score,
};
