/*
 * game.c - misère Nim's closed form, the seed driver's perfect move, and the
 * engine's `nim` game (nimgame.h).
 */
#include <assert.h>
#include <string.h>
#include "arena/nimgame.h"
#include "arena/textfile.h"

#define NIM_ROWS_LINE   1
#define NIM_PLAYER_LINE 2
/* A finished-looking score for a position the closed form has decided but
 * play has not: below SCORE_EVAL_MAX (game.h), above nothing else Nim has. */
#define NIM_EVAL_DECIDED 1000
#define NIM_START_ROWS  4               /* the classic start board 1 3 5 7 */
#define FNV_OFFSET UINT64_C(0xcbf29ce484222325)
#define FNV_PRIME  UINT64_C(0x100000001b3)

int nim_losing(const int *rows, int n)
{
    int x = 0, big = 0, ones = 0;
    for (int i = 0; i < n; i++) {
        x ^= rows[i];
        big |= rows[i] > 1;
        ones += rows[i] == 1;
    }
    return big ? x == 0 : ones % 2 == 1;
}

/*
 * For each row in order, the largest number v of matches to leave there
 * (the fewest taken, the first in canonical order) such that the opponent
 * loses: with some other big row, or v > 1, that is v = XOR of the others;
 * with every other row 0 or 1 and v <= 1, the opponent loses when the ones
 * are odd. O(rows) after one pass for the totals.
 */
int nim_perfect_move(const int *rows, int n, int *row, int *matches)
{
    int x = 0, big = 0, ones = 0, first = -1;
    for (int i = 0; i < n; i++) {
        x ^= rows[i];
        big += rows[i] > 1;
        ones += rows[i] == 1;
        if (first < 0 && rows[i] > 0)
            first = i;
    }
    if (first < 0)
        return -1;
    for (int i = 0; i < n; i++) {
        int b = rows[i];
        if (b == 0)
            continue;
        int others_x = x ^ b, others_big = big - (b > 1), others_ones = ones - (b == 1);
        int best = -1;
        if (others_x < b && (others_big > 0 || others_x > 1))
            best = others_x;
        if (others_big == 0)
            for (int v = 1; v >= 0; v--)
                if (v < b && v > best && (others_ones + v) % 2 == 1)
                    best = v;
        if (best >= 0) {
            *row = i;
            *matches = b - best;
            return 0;
        }
    }
    *row = first;
    *matches = 1;
    return 0;
}

/* ---- the engine game --------------------------------------------------- */

static const struct nim_pos *npos(const void *state) { return state; }

static void rows_of(const struct nim_pos *p, int *rows)
{
    for (int i = 0; i < p->rows; i++)
        rows[i] = p->heap[i];
}

static int total_matches(const struct nim_pos *p)
{
    int t = 0;
    for (int i = 0; i < p->rows; i++)
        t += p->heap[i];
    return t;
}

static void nim_init(void *state)
{
    static const uint8_t start[NIM_START_ROWS] = { 1, 3, 5, 7 };
    struct nim_pos *p = state;
    memset(p, 0, sizeof *p);
    p->rows = NIM_START_ROWS;
    memcpy(p->heap, start, sizeof start);
}

static int nim_parse(void *state, const char *text, size_t len, struct err *e)
{
    struct nim_pos *p = state;
    struct tf_lines L;
    if (tf_split(text, len, &L, e) != 0)
        return -1;
    memset(p, 0, sizeof *p);
    if (L.n < NIM_ROWS_LINE || L.line[0].len == 0)
        return err_set(e, NIM_ROWS_LINE, 1, "missing the row sizes (numbers separated by spaces)");
    const struct tf_line *l = &L.line[0];
    int total = 0;
    for (int c = 0; c < l->len;) {
        if (l->s[c] == ' ') {
            c++;
            continue;
        }
        if (l->s[c] < '0' || l->s[c] > '9')
            return err_bad_char(e, NIM_ROWS_LINE, c + 1, l->s[c], "a row size (0-9)");
        if (p->rows == NIM_MAX_ROWS)
            return err_set(e, NIM_ROWS_LINE, c + 1, "too many rows: at most %d", NIM_MAX_ROWS);
        int start = c, v = 0;
        while (c < l->len && l->s[c] >= '0' && l->s[c] <= '9') {
            if (v <= NIM_MAX_MATCHES)
                v = v * 10 + (l->s[c] - '0');
            c++;
        }
        total += v;
        if (total > NIM_MAX_MATCHES)
            return err_set(e, NIM_ROWS_LINE, start + 1, "too many matches: at most %d in all",
                           NIM_MAX_MATCHES);
        p->heap[p->rows++] = (uint8_t)v;
    }
    if (p->rows == 0)
        return err_set(e, NIM_ROWS_LINE, 1, "missing the row sizes (numbers separated by spaces)");
    int player;
    if (tf_player_line(&L, NIM_PLAYER_LINE, &player, e) != 0)
        return -1;
    p->to_move = (uint8_t)(player - 1);
    return 0;
}

static size_t nim_format(const void *state, char *buf)
{
    const struct nim_pos *p = npos(state);
    size_t n = 0;
    for (int i = 0; i < p->rows; i++)
        n += (size_t)snprintf(buf + n, GAME_FORMAT_MAX - n, i ? " %d" : "%d", p->heap[i]);
    n += (size_t)snprintf(buf + n, GAME_FORMAT_MAX - n, "\n%d\n", p->to_move + 1);
    return n;
}

static int nim_gen(const void *state, int *moves)
{
    const struct nim_pos *p = npos(state);
    int n = 0;
    for (int i = 0; i < p->rows; i++)
        for (int m = 1; m <= p->heap[i]; m++)
            moves[n++] = i * NIM_MOVE_BASE + m;
    return n;
}

static void nim_play(void *state, int move)
{
    struct nim_pos *p = state;
    assert(move >= 0 && move / NIM_MOVE_BASE < p->rows && move % NIM_MOVE_BASE >= 1);
    assert(move % NIM_MOVE_BASE <= p->heap[move / NIM_MOVE_BASE]);
    assert(p->to_move <= 1);
    p->heap[move / NIM_MOVE_BASE] -= (uint8_t)(move % NIM_MOVE_BASE);
    p->to_move ^= 1;
}

static int nim_to_move(const void *state)
{
    assert(npos(state)->to_move <= 1);
    return npos(state)->to_move + 1;
}

/* The player who took the last match lost: the player to move has won. */
static int nim_terminal(const void *state, int *value)
{
    if (total_matches(npos(state)) > 0)
        return 0;
    *value = SCORE_WIN;
    return 1;
}

/* Exact, by the closed form: a search of any depth plays perfectly. */
static int nim_evaluate(const void *state)
{
    const struct nim_pos *p = npos(state);
    int rows[NIM_MAX_ROWS];
    rows_of(p, rows);
    return nim_losing(rows, p->rows) ? -NIM_EVAL_DECIDED : NIM_EVAL_DECIDED;
}

static int nim_perfect(const void *state)
{
    const struct nim_pos *p = npos(state);
    int rows[NIM_MAX_ROWS], row, matches;
    rows_of(p, rows);
    if (nim_perfect_move(rows, p->rows, &row, &matches) != 0)
        return -1;
    return row * NIM_MOVE_BASE + matches;
}

/* The oracle of blunder analysis is the closed form: exact, no memory. */
static int nim_oracle_open(void **oracle, const struct game_oracle_opts *o, struct err *e)
{
    (void)o;
    (void)e;
    *oracle = NULL;
    return 0;
}

static int nim_oracle_value(void *oracle, const void *state)
{
    (void)oracle;
    const struct nim_pos *p = npos(state);
    int rows[NIM_MAX_ROWS];
    rows_of(p, rows);
    return nim_losing(rows, p->rows) ? -1 : 1;
}

static void nim_oracle_close(void *oracle)
{
    (void)oracle;
}

static const struct game_oracle nim_oracle = {
    .open = nim_oracle_open,
    .value = nim_oracle_value,
    .close = nim_oracle_close,
};

/* Nim's answers are read as parse reads them (every board it accepts is
 * one a game can reach); what changed is said row by row. */
static int nim_explain(const void *before, const char *text, size_t len, char *why, size_t cap)
{
    struct nim_pos after;
    struct err e;
    if (nim_parse(&after, text, len, &e) != 0)
        return -1;
    const struct nim_pos *b = npos(before), *a = &after;
    if (a->rows != b->rows) {
        snprintf(why, cap, "tampered-board: has %d rows, not %d", a->rows, b->rows);
        return 0;
    }
    int changed = 0, first = -1;
    for (int i = 0; i < b->rows; i++) {
        if (a->heap[i] > b->heap[i]) {
            snprintf(why, cap, "tampered-board: adds %d to row %d", a->heap[i] - b->heap[i], i + 1);
            return 0;
        }
        if (a->heap[i] != b->heap[i] && !changed++)
            first = i;
    }
    const char *kind = a->to_move == b->to_move ? "wrong-player" : "illegal-move";
    if (changed == 0)
        snprintf(why, cap, "%s: takes no match", kind);
    else if (changed > 1)
        snprintf(why, cap, "%s: takes from %d rows at once", kind, changed);
    else
        snprintf(why, cap, "%s: takes %d from row %d but leaves player %d to move", kind,
                 b->heap[first] - a->heap[first], first + 1, b->to_move + 1);
    return 0;
}

static uint64_t nim_hash(const void *state)
{
    const struct nim_pos *p = npos(state);
    uint64_t h = FNV_OFFSET;
    const uint8_t *b = state;
    for (size_t i = 0; i < sizeof *p; i++)
        h = (h ^ b[i]) * FNV_PRIME;
    return h;
}

static int nim_move_text(const void *state, int move, char *buf, size_t cap)
{
    (void)state;
    return snprintf(buf, cap, "%d:%d", move / NIM_MOVE_BASE, move % NIM_MOVE_BASE);
}

/* Reads the digits at *s (at least one, nothing else: no sign, no blank)
 * into *out, capped at cap + 1 so that no digit string overflows; advances
 * *s. Returns 0, or -1 when there is no digit. */
static int parse_digits(const char **s, int cap, int *out)
{
    const char *p = *s;
    long v = 0;
    if (*p < '0' || *p > '9')
        return -1;
    for (; *p >= '0' && *p <= '9'; p++)
        if (v <= cap)
            v = v * 10 + (*p - '0');
    *out = v > cap ? cap + 1 : (int)v;
    *s = p;
    return 0;
}

/* "ROW:MATCHES", decimal digits only (the text nim_move_text writes). */
static int nim_parse_move(const void *state, const char *text, int *move)
{
    const struct nim_pos *p = npos(state);
    int row, matches;
    if (parse_digits(&text, NIM_MOVE_BASE, &row) != 0 || *text++ != ':'
        || parse_digits(&text, NIM_MOVE_BASE, &matches) != 0 || *text != '\0')
        return -1;
    if (row >= p->rows || matches < 1 || matches > p->heap[row])
        return -1;
    *move = row * NIM_MOVE_BASE + matches;
    return 0;
}

/* The course driver's board lines, then who moves. */
static void nim_print(FILE *out, const void *state)
{
    const struct nim_pos *p = npos(state);
    for (int i = 0; i < p->rows; i++) {
        fprintf(out, "[%2d]: ", i);
        for (int m = 0; m < p->heap[i]; m++)
            fputc('|', out);
        fputc('\n', out);
    }
    fprintf(out, "Player %d to move\n\n", p->to_move + 1);
}

static void nim_print_move(FILE *out, const void *after, int move, int mover)
{
    (void)after;
    fprintf(out, "\n\nmove: Player %d removes %d matches from row %d\n", mover,
            move % NIM_MOVE_BASE, move / NIM_MOVE_BASE);
}

static void nim_print_over(FILE *out, const void *state)
{
    int winner = npos(state)->to_move + 1;
    fprintf(out, "\nNO MATCHES LEFT: Player %d took the last one, Player %d wins\nGame over!\n\n",
            3 - winner, winner);
}

static const char *const nim_bench_lines[] = {
    "",
    "3:2",
    "3:1 2:1",
    "0:1 3:3 2:1",
    NULL,
};

/* Rows of matches. */
static const struct game_drawing nim_drawing = {
    .layout = GAME_DRAW_ROWS,
    .style = ".nim div{font-family:monospace;font-size:18px;letter-spacing:2px}.nim b{color:#a52}\n",
};

const struct game game_nim = {
    .name = "nim",
    .title = "Misere Nim",
    .state_size = sizeof(struct nim_pos),
    .init = nim_init,
    .parse = nim_parse,
    .format = nim_format,
    .gen = nim_gen,
    .play = nim_play,
    .to_move = nim_to_move,
    .terminal = nim_terminal,
    .evaluate = nim_evaluate,
    .priority = NULL,
    .hash = nim_hash,
    .move_text = nim_move_text,
    .parse_move = nim_parse_move,
    .print = nim_print,
    .print_move = nim_print_move,
    .print_over = nim_print_over,
    .explain = nim_explain,
    .perfect = nim_perfect,
    .oracle = &nim_oracle,
    .bench = nim_bench_lines,
    .drawing = &nim_drawing,
};
