/*
 * game.c - checkers behind the game interface (game_checkers, checkers.h):
 * board files, keys, move text, the one-move report, the referee's
 * explanations, and the seed's minimax options.
 */
#include <assert.h>
#include <string.h>
#include "arena/checkers.h"
#include "arena/textfile.h"

#define CK_SIDE_LINE   (CK_SIZE + 1)     /* the line after the 8 board rows */
#define CK_PRIORITY_CAPTURE 1            /* searched before plain moves */
/* splitmix64's finaliser, and a constant telling the two sides apart. */
#define CK_MIX_A  UINT64_C(0xbf58476d1ce4e5b9)
#define CK_MIX_B  UINT64_C(0x94d049bb133111eb)
#define CK_SIDE_SALT UINT64_C(0x9e3779b97f4a7c15)

static const char *const side_name[2] = { [CK_BLACK] = "black", [CK_WHITE] = "white" };

static const struct ck_pos *cpos(const void *state) { return state; }

static void ckg_init(void *state)
{
    ck_init(state);
}

/* One board cell of a board file; -1 with e filled when it is refused. */
static int parse_cell(struct ck_pos *p, int row, int col, char ch, int count[2], struct err *e)
{
    int line = row + 1, column = col + 1;
    if (!strchr(".bwBW", ch) || ch == '\0')
        return err_bad_char(e, line, column, ch, "., b, w, B or W");
    if (ch == '.')
        return 0;
    int sq = ck_square(row, col);
    if (sq < 0)
        return err_set(e, line, column, "'%c' on %c%d, a square that is never played", ch,
                       'A' + col, line);
    int side = (ch == 'b' || ch == 'B') ? CK_BLACK : CK_WHITE;
    int tower = ch == 'B' || ch == 'W';
    if (!tower && row == (side == CK_BLACK ? 0 : CK_SIZE - 1))
        return err_set(e, line, column,
                       "a %s piece on row %d, its far row, must be a tower ('%c')",
                       side_name[side], line, side == CK_BLACK ? 'B' : 'W');
    if (++count[side] > CK_MAX_PIECES)
        return err_set(e, line, column, "more than %d %s pieces and towers", CK_MAX_PIECES,
                       side_name[side]);
    if (tower)
        p->tower[side] |= UINT32_C(1) << sq;
    else
        p->piece[side] |= UINT32_C(1) << sq;
    return 0;
}

static int ckg_parse(void *state, const char *text, size_t len, struct err *e)
{
    struct ck_pos *p = state;
    struct tf_lines L;
    if (tf_split(text, len, &L, e) != 0)
        return -1;
    memset(p, 0, sizeof *p);
    int count[2] = { 0, 0 };
    for (int row = 0; row < CK_SIZE; row++) {
        int line = row + 1;
        if (row >= L.n)
            return err_set(e, line, 1, "missing board row %d of %d (8 characters ., b, w, B, W)",
                           line, CK_SIZE);
        const struct tf_line *l = &L.line[row];
        for (int col = 0; col < l->len && col < CK_SIZE; col++)
            if (parse_cell(p, row, col, l->s[col], count, e) != 0)
                return -1;
        if (l->len != CK_SIZE)
            return err_set(e, line, l->len < CK_SIZE ? l->len + 1 : CK_SIZE + 1,
                           "row has %d cells, expected %d", l->len, CK_SIZE);
    }
    if (L.n < CK_SIDE_LINE || L.line[CK_SIDE_LINE - 1].len == 0)
        return err_set(e, CK_SIDE_LINE, 1, "missing the side-to-move line (black or white)");
    const struct tf_line *sl = &L.line[CK_SIDE_LINE - 1];
    int side = -1;
    for (int s = 0; s < 2; s++)
        if ((size_t)sl->len == strlen(side_name[s])
            && memcmp(sl->s, side_name[s], (size_t)sl->len) == 0)
            side = s;
    if (side < 0)
        return err_set(e, CK_SIDE_LINE, 1, "expected the side to move, black or white");
    for (int i = CK_SIDE_LINE; i < L.n; i++)
        if (L.line[i].len > 0)
            return err_set(e, i + 1, 1, "unexpected text after the side-to-move line");
    p->to_move = (uint8_t)side;
    return 0;
}

static size_t ckg_format(const void *state, char *buf)
{
    const struct ck_pos *p = cpos(state);
    size_t n = 0;
    for (int row = 0; row < CK_SIZE; row++) {
        for (int col = 0; col < CK_SIZE; col++)
            buf[n++] = ck_cell(p, row, col);
        buf[n++] = '\n';
    }
    n += (size_t)snprintf(buf + n, GAME_FORMAT_MAX - n, "%s\n", side_name[p->to_move]);
    return n;
}

static int ckg_gen(const void *state, int *moves)
{
    return ck_gen(state, moves);
}

static void ckg_play(void *state, int move)
{
    ck_play(state, move);
}

static int ckg_to_move(const void *state)
{
    assert(cpos(state)->to_move <= 1);
    return cpos(state)->to_move + 1;
}

/* The seed: a player who cannot act on their turn loses. */
static int ckg_terminal(const void *state, int *value)
{
    if (ck_has_action(cpos(state)))
        return 0;
    *value = -SCORE_WIN;
    return 1;
}

static int ckg_evaluate(const void *state)
{
    const struct ck_pos *p = cpos(state);
    return p->to_move == CK_BLACK ? ck_cost(p) : -ck_cost(p);
}

/* Captures and promotions first: they change the material the evaluation
 * counts, so they decide most cut-offs. */
static int ckg_priority(const void *state, int move)
{
    return ck_irreversible(cpos(state), move) ? CK_PRIORITY_CAPTURE : 0;
}

static uint64_t mix64(uint64_t x)
{
    x = (x ^ (x >> 30)) * CK_MIX_A;
    x = (x ^ (x >> 27)) * CK_MIX_B;
    return x ^ (x >> 31);
}

static uint64_t ckg_hash(const void *state)
{
    const struct ck_pos *p = cpos(state);
    uint64_t pieces = p->piece[CK_BLACK] | (uint64_t)p->piece[CK_WHITE] << 32;
    uint64_t towers = p->tower[CK_BLACK] | (uint64_t)p->tower[CK_WHITE] << 32;
    return mix64(mix64(pieces) ^ towers) ^ (p->to_move ? CK_SIDE_SALT : 0);
}

static int ckg_move_text(const void *state, int move, char *buf, size_t cap)
{
    (void)state;
    return ck_move_text(move, buf, cap);
}

static int ckg_parse_move(const void *state, const char *text, int *move)
{
    int moves[GAME_MAX_MOVES];
    int n = ck_gen(cpos(state), moves);
    for (int i = 0; i < n; i++) {
        char buf[GAME_MOVE_TEXT_MAX];
        ck_move_text(moves[i], buf, sizeof buf);
        if (strcmp(buf, text) == 0) {
            *move = moves[i];
            return 0;
        }
    }
    return -1;
}

/* The one-move report in the seed's shape: cost, board, who moves. */
static void ckg_print(FILE *out, const void *state)
{
    const struct ck_pos *p = cpos(state);
    fprintf(out, "BOARD COST: %d\n", ck_cost(p));
    ck_print_board(out, p);
    fprintf(out, "%s TO MOVE\n\n", ck_side_label(p->to_move));
}

static void ckg_print_move(FILE *out, const void *after, int move, int mover)
{
    (void)after;
    char text[GAME_MOVE_TEXT_MAX];
    ck_move_text(move, text, sizeof text);
    fprintf(out, "*** %s ACTION: %s\n", ck_side_label(mover - 1), text);
}

static void ckg_print_over(FILE *out, const void *state)
{
    ck_print_winner(out, cpos(state));
}

/* Why after is not before plus one legal action, into why (cap bytes) as
 * "KIND: what changed". The other side may only lose the one piece a
 * capture takes, and nothing of it may change kind; the mover's pieces and
 * towers leave exactly one square for one other, and no tower turns back
 * into a piece. Anything else is tampering; a board that passes is an
 * illegal move. */
static void explain_why(const struct ck_pos *b, const struct ck_pos *a, char *why, size_t cap)
{
    enum ck_side me = b->to_move, op = me ^ 1;
    const char *mine = me == CK_BLACK ? "black" : "white", *theirs = op == CK_BLACK ? "black"
                                                                                    : "white";
    uint32_t mine_b = ck_all(b, me), mine_a = ck_all(a, me);
    uint32_t theirs_b = ck_all(b, op), theirs_a = ck_all(a, op);
    uint32_t lost = theirs_b & ~theirs_a;
    uint32_t left = mine_b & ~mine_a, arrived = mine_a & ~mine_b;
    if (a->to_move == b->to_move)
        snprintf(why, cap, "wrong-player: leaves %s to move", mine);
    else if (mine_a == mine_b && theirs_a != theirs_b)
        snprintf(why, cap, "wrong-player: %s moved on %s's turn", theirs, mine);
    else if ((theirs_a & ~theirs_b) || (lost & (lost - 1)) || (a->piece[op] & b->tower[op]) ||
             (a->tower[op] & b->piece[op]))
        snprintf(why, cap, "tampered-board: %s's pieces changed beyond one capture", theirs);
    else if (__builtin_popcount(left) != 1 || __builtin_popcount(arrived) != 1 ||
             (a->piece[me] & b->tower[me]))
        snprintf(why, cap, "tampered-board: %s's pieces changed beyond one move", mine);
    else
        snprintf(why, cap, "illegal-move: no legal %s move does this", mine);
}

/* Checkers reads its answers as parse does (every board it accepts is one
 * a game can hold). */
static int ckg_explain(const void *before, const char *text, size_t len, char *why, size_t cap)
{
    struct ck_pos after;
    struct err e;
    if (ckg_parse(&after, text, len, &e) != 0)
        return -1;
    explain_why(cpos(before), &after, why, cap);
    return 0;
}

static int ckg_irreversible(const void *state, int move)
{
    return ck_irreversible(cpos(state), move);
}

/* The start, an exchange, the course's test4 opening (ten actions), and its
 * game of test3 after promotion, with a black tower. */
static const char *const ckg_bench[] = {
    "",
    "G6-F5 H3-G4 F5-H3 F3-G4",
    "G6-H5 H3-G4 H7-G6 F3-E4 H5-F3 E2-G4 G8-H7 E4-F5 G6-H5 G2-F3",
    "G6-F5 H3-G4 F5-H3 F3-G4 E6-F5 G4-E6 D7-F5 G2-F3 F7-G6 F1-G2 H3-F1 B3-C4",
    NULL,
};

struct search_opts ck_search_opts(size_t tt_bytes)
{
    struct search_opts o = search_opts_default();
    o.tt_bytes = tt_bytes;
    o.mate_distance = 0;
    o.evaluate = ckg_evaluate;
    return o;
}

/* A checkerboard; towers lettered K. */
static const struct game_drawing ckg_drawing = {
    .layout = GAME_DRAW_CHECKER,
    .style = ".checkers{border-collapse:collapse;background:none}\n"
             ".checkers td{width:30px;height:30px;border-radius:0;background:#eed;text-align:center}\n"
             ".checkers td.dark{background:#8a6}.checkers span{display:inline-block;width:22px;"
             "height:22px;border-radius:50%;line-height:22px;font-weight:bold}\n"
             ".checkers .c98 span,.checkers .c66 span{background:#222;color:#fc0}\n"
             ".checkers .c119 span,.checkers .c87 span{background:#fff;color:#c00;"
             "border:1px solid #555}\n",
    .labels = "B=K W=K",
};

const struct game game_checkers = {
    .name = "checkers",
    .title = "Checkers",
    .state_size = sizeof(struct ck_pos),
    .init = ckg_init,
    .parse = ckg_parse,
    .format = ckg_format,
    .gen = ckg_gen,
    .play = ckg_play,
    .to_move = ckg_to_move,
    .terminal = ckg_terminal,
    .evaluate = ckg_evaluate,
    .priority = ckg_priority,
    .hash = ckg_hash,
    .move_text = ckg_move_text,
    .parse_move = ckg_parse_move,
    .print = ckg_print,
    .print_move = ckg_print_move,
    .print_over = ckg_print_over,
    .explain = ckg_explain,
    .perfect = NULL,
    .irreversible = ckg_irreversible,
    .bench = ckg_bench,
    .drawing = &ckg_drawing,
};
