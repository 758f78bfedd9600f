/*
 * test_c4book.c - the Connect-4 opening book (c4book.h): a made book agrees
 * with solving each of its positions alone, its lines are in book order with
 * each position once, it reads back whole, the solver gives the same scores
 * with it and fewer nodes, mirror images share an entry, bad book files
 * are refused at their line and column, and the shipped book holds the
 * known solution of the game.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "arena/c4book.h"
#include "games/connect4/c4bookmake.h"
#include "arena/c4key.h"
#include "arena/c4solver.h"
#include "c4_testutil.h"

#define TT_BYTES ((size_t)4 << 20)
#define MOVES_MAX 64
#define MSG_MAX 96
/* Roots of the books made here: middle-game positions of the public
 * Middle-Medium set (15-28 discs) and one near the end, so the books take
 * milliseconds. */
#define ROOT_MIDDLE "274552224131661"
#define ROOT_LATE "7422341735647741166133573473242566"
#define BOOK_DEPTH 3
#define SHIPPED_BOOK "fixtures/connect4/book.txt"

static char *make_book(const char *root, int depth, size_t *len, struct c4bookmake_stats *st)
{
    struct c4s s;
    cr_assert_eq(c4s_init(&s, TT_BYTES), 0);
    char *text;
    cr_assert_eq(c4bookmake_run(&s, root, depth, &text, len, st), 0, "making the book of %s",
                 root);
    c4s_free(&s);
    return text;
}

static void read_book(const char *text, size_t len, struct c4book *b)
{
    FILE *f = fmemopen((void *)text, len, "r");
    cr_assert_not_null(f);
    struct err e = { 0, 0, "" };
    int rc = c4book_read(f, b, &e);
    fclose(f);
    cr_assert_eq(rc, 0, "the made book is refused at %d:%d: %s", e.line, e.col, e.msg);
}

/* Calls fn on every line of a book text: its move string and score. */
static void each_line(const char *text, void (*fn)(const char *moves, int score, void *ctx),
                      void *ctx)
{
    const char *p = text;
    while (*p) {
        const char *sp = strchr(p, ' '), *nl = strchr(p, '\n');
        cr_assert(sp && nl && sp < nl, "a book line without a score: %.40s", p);
        char moves[MOVES_MAX];
        snprintf(moves, sizeof moves, "%.*s", (int)(sp - p), p);
        fn(moves, atoi(sp + 1), ctx);
        p = nl + 1;
    }
}

struct agree {
    struct c4s s;
    int lines;
};

static void solve_alone(const char *moves, int score, void *ctx)
{
    struct agree *a = ctx;
    struct c4_pos p = pos_from_moves(moves);
    c4s_clear(&a->s);
    int got = c4s_solve(&a->s, &p, 0);
    cr_expect_eq(got, score, "%s: the book says %d, a solve alone %d", moves, score, got);
    a->lines++;
}

struct scored_root {
    char root[MOVES_MAX];
    int depth;
};

ParameterizedTestParameters(c4book, made_book_agrees_with_solving_each_position)
{
    static struct scored_root roots[] = {
        { ROOT_MIDDLE, BOOK_DEPTH },
        { ROOT_LATE, BOOK_DEPTH + 1 },
        /* Deeper than the game lasts: the book ends at the full board. */
        { "545134666557644476121554316222", C4BOOKMAKE_MAX_DEPTH },
    };
    return cr_make_param_array(struct scored_root, roots, sizeof roots / sizeof *roots);
}

ParameterizedTest(struct scored_root *r, c4book, made_book_agrees_with_solving_each_position)
{
    size_t len;
    struct c4bookmake_stats st;
    char *text = make_book(r->root, r->depth, &len, &st);
    struct agree a = { .lines = 0 };
    /* The smallest table: it is cleared before every line. */
    cr_assert_eq(c4s_init(&a.s, 0), 0);
    each_line(text, solve_alone, &a);
    c4s_free(&a.s);
    cr_expect_eq((size_t)a.lines, st.positions, "%d lines, %zu positions reported", a.lines,
                 st.positions);
    /* A book that reaches the full board everywhere solves nothing. */
    if (strlen(r->root) + (size_t)r->depth < C4_CELLS)
        cr_expect_gt(st.solved, 0, "no position solved");
    cr_expect_leq(st.solved, st.positions, "%zu solved of %zu", st.solved, st.positions);
    free(text);
}

/* Each line: a position within depth moves of the root, after the previous
 * line in book order (fewer moves, then by move string), and no position
 * (or its mirror) twice. */
struct order {
    char prev[MOVES_MAX];
    const char *root;
    int depth;
    struct c4book seen;
};

static void check_order(const char *moves, int score, void *ctx)
{
    struct order *o = ctx;
    size_t n = strlen(moves), pn = strlen(o->prev), rn = strlen(o->root);
    cr_expect(strncmp(moves, o->root, rn) == 0 && n <= rn + (size_t)o->depth,
              "%s is not within %d moves of %s", moves, o->depth, o->root);
    cr_expect(o->prev[0] == '\0' || n > pn || (n == pn && strcmp(moves, o->prev) > 0),
              "%s comes after %s", moves, o->prev);
    snprintf(o->prev, sizeof o->prev, "%s", moves);
    struct c4_pos p = pos_from_moves(moves);
    cr_expect_eq(c4book_lookup(&o->seen, c4key_of(&p)), score, "%s: looked up %d, line says %d",
                 moves, c4book_lookup(&o->seen, c4key_of(&p)), score);
}

Test(c4book, lines_are_in_book_order_and_read_back)
{
    size_t len;
    struct c4bookmake_stats st;
    char *text = make_book(ROOT_MIDDLE, BOOK_DEPTH, &len, &st);
    struct order o = { .prev = "", .root = ROOT_MIDDLE, .depth = BOOK_DEPTH };
    read_book(text, len, &o.seen);
    cr_expect_eq(o.seen.n, st.positions, "read %zu of %zu positions", o.seen.n, st.positions);
    cr_expect_eq(o.seen.max_moves, (int)strlen(ROOT_MIDDLE) + BOOK_DEPTH, "max_moves %d",
                 o.seen.max_moves);
    each_line(text, check_order, &o);
    c4book_free(&o.seen);
    free(text);
}

Test(c4book, solver_with_the_book_gives_the_same_scores_with_fewer_nodes)
{
    size_t len;
    char *text = make_book(ROOT_MIDDLE, BOOK_DEPTH, &len, NULL);
    struct c4book b;
    read_book(text, len, &b);
    struct c4s plain, booked;
    cr_assert_eq(c4s_init(&plain, TT_BYTES), 0);
    cr_assert_eq(c4s_init(&booked, TT_BYTES), 0);
    c4s_set_book(&booked, &b);
    /* The root and positions under it within the book's reach (a lookup
     * instead of a search: fewer nodes), and one beyond it (no book
     * position below it: the same search); the best moves too, which test
     * every column. */
    static const char *under[] = { "", "1", "4", "7", "44", "17", "2", "4433" };
    for (size_t i = 0; i < sizeof under / sizeof *under; i++) {
        int in_reach = strlen(under[i]) <= BOOK_DEPTH;
        char moves[MOVES_MAX];
        snprintf(moves, sizeof moves, "%s%s", ROOT_MIDDLE, under[i]);
        struct c4_pos p = pos_from_moves(moves);
        c4s_clear(&plain);
        c4s_clear(&booked);
        int want = c4s_solve(&plain, &p, 0), got = c4s_solve(&booked, &p, 0);
        cr_expect_eq(got, want, "%s: %d with the book, %d without", moves, got, want);
        cr_expect(in_reach ? booked.nodes < plain.nodes : booked.nodes == plain.nodes,
                  "%s: %llu nodes with the book, %llu without", moves,
                  (unsigned long long)booked.nodes, (unsigned long long)plain.nodes);
        int ws, bs;
        int wm = c4s_best_move(&plain, &p, &ws), bm = c4s_best_move(&booked, &p, &bs);
        cr_expect(wm == bm && ws == bs, "%s: best move %d (%d) with the book, %d (%d) without",
                  moves, bm, bs, wm, ws);
        cr_expect_eq(c4s_solve(&booked, &p, 1), (want > 0) - (want < 0), "%s: weak", moves);
    }
    c4s_free(&plain);
    c4s_free(&booked);
    c4book_free(&b);
    free(text);
}

Test(c4book, a_position_and_its_mirror_share_an_entry)
{
    static const char text[] = "4453 -2\n";
    struct c4book b;
    read_book(text, strlen(text), &b);
    struct c4_pos p = pos_from_moves("4453"), m = pos_from_moves("4435");
    struct c4_pos other = pos_from_moves("4452");
    cr_expect_eq(c4book_lookup(&b, c4key_of(&p)), -2, "the position itself");
    cr_expect_eq(c4book_lookup(&b, c4key_of(&m)), -2, "its mirror image");
    cr_expect_eq(c4book_lookup(&b, c4key_of(&other)), C4BOOK_NONE, "another position");
    cr_expect_eq(b.max_moves, 4, "max_moves %d", b.max_moves);
    c4book_free(&b);
}

Test(c4book, the_empty_board_and_an_empty_book)
{
    static const char text[] = " 1\r\n1 -1\n";
    struct c4book b;
    read_book(text, strlen(text), &b);
    struct c4_pos empty = pos_from_moves("");
    cr_expect_eq(c4book_lookup(&b, c4key_of(&empty)), 1, "the empty board's line ' 1'");
    cr_expect_eq(b.n, 2, "%zu entries", b.n);
    c4book_free(&b);
    FILE *f = fopen("/dev/null", "r");
    cr_assert_not_null(f);
    struct err e = { 0, 0, "" };
    cr_assert_eq(c4book_read(f, &b, &e), 0, "an empty book: %s", e.msg);
    fclose(f);
    cr_expect_eq(b.n, 0, "%zu entries in an empty book", b.n);
    cr_expect_eq(b.max_moves, -1, "max_moves %d", b.max_moves);
    cr_expect_eq(c4book_lookup(&b, c4key_of(&empty)), C4BOOK_NONE, "nothing in an empty book");
    c4book_free(&b);
}

struct bad_book {
    char text[MSG_MAX];
    int line, col;
    char msg[MSG_MAX];
};

ParameterizedTestParameters(c4book, bad_books_are_refused_at_their_place)
{
    static struct bad_book cases[] = {
        { "4 1\n48 3\n", 2, 2, "not a column digit 1-7" },
        { "4453\n", 1, 5, "missing score after the moves" },
        { "\n", 1, 1, "missing score after the moves" },
        { "4 1\n1111111 2\n", 2, 7, "column is full" },
        { "1212121 5\n", 1, 8, "game is already over" },
        { "44 x\n", 1, 4, "score must be a number from -21 to 21" },
        { "44 22\n", 1, 4, "score must be a number from -21 to 21" },
        { "44 21\n", 1, 4, "score out of range for this position (-20 to 20)" },
        { "4 -21\n", 1, 3, "score out of range for this position (-20 to 21)" },
        { "4 1\n44 2\n4 1\n", 3, 1, "the position of line 1 (or its mirror image) again" },
        { "3 1\n44 2\n5 -1\n", 3, 1, "the position of line 1 (or its mirror image) again" },
        { "44 2\n45 0\n5 1\n43 0\n3 1\n",
          4, 1, "the position of line 2 (or its mirror image) again" },
    };
    return cr_make_param_array(struct bad_book, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct bad_book *c, c4book, bad_books_are_refused_at_their_place)
{
    FILE *f = fmemopen(c->text, strlen(c->text), "r");
    cr_assert_not_null(f);
    struct c4book b;
    struct err e = { 0, 0, "" };
    int rc = c4book_read(f, &b, &e);
    fclose(f);
    cr_assert_eq(rc, -1, "'%s' was accepted", c->text);
    cr_expect(e.line == c->line && e.col == c->col, "'%s': at %d:%d, expected %d:%d", c->text,
              e.line, e.col, c->line, c->col);
    cr_expect_str_eq(e.msg, c->msg, "'%s'", c->text);
    cr_expect(b.entry == NULL && b.n == 0, "'%s': a refused book holds entries", c->text);
}

Test(c4book, load_names_a_missing_file)
{
    struct c4book b;
    struct err e = { 0, 0, "" };
    cr_assert_eq(c4book_load("no/such/book.txt", &b, &e), -1);
    cr_expect_eq(e.line, 0, "line %d", e.line);
    cr_expect_str_eq(e.msg, "cannot open: No such file or directory");
}

/* The shipped book (fixtures/connect4/book.txt, engine book --depth 4) holds
 * the known solution of Connect-4 (Allis, Tromp): the first player wins
 * with its last disc (score 1) by the centre column; the columns next to it
 * draw; the others lose, the farther out the sooner. Read from the
 * second player's side after each first move. */
struct known {
    char moves[MOVES_MAX];
    int score;
};

ParameterizedTestParameters(c4book, shipped_book_holds_the_known_solution)
{
    static struct known cases[] = {
        { "", 1 }, { "4", -1 }, { "3", 0 }, { "5", 0 }, { "2", 1 }, { "6", 1 }, { "1", 2 },
        { "7", 2 },
    };
    return cr_make_param_array(struct known, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct known *c, c4book, shipped_book_holds_the_known_solution)
{
    struct c4book b;
    struct err e = { 0, 0, "" };
    cr_assert_eq(c4book_load(SHIPPED_BOOK, &b, &e), 0, SHIPPED_BOOK ":%d:%d: %s", e.line, e.col,
                 e.msg);
    /* Every position of the first four moves, a position and its mirror
     * once: 1 + 4 + 25 + 121 + 568. */
    cr_expect_eq(b.n, 719, "%zu positions", b.n);
    cr_expect_eq(b.max_moves, 4, "max_moves %d", b.max_moves);
    struct c4_pos p = pos_from_moves(c->moves);
    int got = c4book_lookup(&b, c4key_of(&p));
    cr_expect_eq(got, c->score, "'%s': the book says %d, known %d", c->moves, got, c->score);
    c4book_free(&b);
}
