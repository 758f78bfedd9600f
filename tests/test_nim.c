/*
 * test_nim.c - misère Nim: the assignment's functions one by one (boards,
 * the hash round trip over every board of several start boards, nimsum
 * cases, each node's moves and nimsum after join_graph, no deep recursion),
 * the graph, the closed form and a brute-force minimax classifying every
 * position identically, the O(rows) perfect move choosing what the course's
 * driver chooses from the graph, the engine game (board files, terminal
 * value, a search never giving away a won position), and the driver's
 * answers (a blank one is no number).
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "arena/nimgame.h"
#include "arena/search.h"
#include "nim.h"

#define MAX_TEST_ROWS 8
#define SMALL_STACK (32 * 1024)
#define DEEP_ROW 2500

struct start_board {
    int rows;
    int start[MAX_TEST_ROWS];
};

/* The start boards, and a few with empty rows and ones. */
static const struct start_board starts[] = {
    { 4, { 1, 3, 5, 7 } }, { 5, { 2, 2, 2, 2, 2 } }, { 3, { 4, 5, 6 } }, { 3, { 1, 1, 1 } },
    { 1, { 7 } },          { 4, { 0, 3, 1, 2 } },    { 2, { 1, 1 } },    { 6, { 3, 1, 4, 1, 5, 2 } },
};
#define NSTARTS ((int)(sizeof starts / sizeof *starts))

static struct node *build(const struct start_board *b, int *max_hash)
{
    *max_hash = compute_max_hash(b->rows, (int *)b->start);
    struct node *t = mk_nim_hash(*max_hash, b->rows, (int *)b->start);
    join_graph(t, *max_hash - 1, b->rows, (int *)b->start);
    return t;
}

static void board_text(const int *board, int rows, char *buf, size_t cap)
{
    size_t n = 0;
    for (int i = 0; i < rows && n < cap; i++)
        n += (size_t)snprintf(buf + n, cap - n, "%s%d", i ? " " : "", board[i]);
}

/* ---- boards ---------------------------------------------------------------- */

Test(nim, board_from_argv_converts_like_atoi)
{
    char *argv[] = { "3", "12abc", "x", " 7", "-2" };
    int *b = board_from_argv(5, argv);
    int want[] = { 3, 12, 0, 7, -2 };
    for (int i = 0; i < 5; i++)
        cr_assert_eq(b[i], want[i], "argv[%d] \"%s\" gave %d", i, argv[i], b[i]);
    int *c = copy_board(5, b);
    cr_assert_neq(c, b, "copy_board returned the same array");
    cr_assert_arr_eq(c, b, 5 * sizeof *b);
    free_board(b);
    free_board(c);
}

Test(nim, game_over_means_exactly_one_match)
{
    int one[] = { 0, 1, 0 }, none[] = { 0, 0, 0 }, two[] = { 1, 1, 0 }, big[] = { 0, 0, 2 };
    cr_assert_eq(game_over(3, one), 1);
    cr_assert_eq(game_over(3, none), 0);
    cr_assert_eq(game_over(3, two), 0);
    cr_assert_eq(game_over(3, big), 0);
}

struct nimsum_case {
    int rows;
    int board[MAX_TEST_ROWS];
    int nimsum;
};

ParameterizedTestParameters(nim, compute_nimsum_cases)
{
    static struct nimsum_case cases[] = {
        { 4, { 1, 3, 5, 7 }, 0 },  /* 1^3^5^7 */
        { 3, { 4, 5, 6 }, 7 },     { 2, { 2, 3 }, 1 },     { 2, { 1, 2 }, 3 },
        { 1, { 7 }, 7 },           { 2, { 5, 5 }, 0 },
        /* no row above 1: the logical negation of the XOR */
        { 3, { 1, 1, 1 }, 0 },     /* !1 */
        { 2, { 1, 1 }, 1 },        /* !0 */
        { 1, { 1 }, 0 },           { 3, { 0, 0, 0 }, 1 },  { 4, { 1, 0, 1, 1 }, 0 },
    };
    return cr_make_param_array(struct nimsum_case, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct nimsum_case *c, nim, compute_nimsum_cases)
{
    char text[64];
    board_text(c->board, c->rows, text, sizeof text);
    int got = compute_nimsum(c->rows, c->board);
    cr_assert_eq(got, c->nimsum, "nimsum of %s is %d, expected %d", text, got, c->nimsum);
}

/* ---- the table ------------------------------------------------------------ */

Test(nim, hash_round_trips_over_every_board)
{
    for (int s = 0; s < NSTARTS; s++) {
        const struct start_board *b = &starts[s];
        int max_hash = compute_max_hash(b->rows, (int *)b->start), product = 1;
        for (int i = 0; i < b->rows; i++)
            product *= b->start[i] + 1;
        cr_assert_eq(max_hash, product, "start %d: max_hash %d", s, max_hash);
        for (int h = 0; h < max_hash; h++) {
            int *board = hash2board(b->rows, (int *)b->start, h);
            for (int i = 0; i < b->rows; i++)
                cr_assert(board[i] >= 0 && board[i] <= b->start[i], "start %d hash %d row %d: %d",
                          s, h, i, board[i]);
            int back = board2hash(b->rows, (int *)b->start, board);
            cr_assert_eq(back, h, "start %d: hash %d came back as %d", s, h, back);
            free_board(board);
        }
        /* Row 0 is the lowest digit. */
        int *first = hash2board(b->rows, (int *)b->start, 1);
        if (b->start[0] > 0)
            cr_assert_eq(first[0], 1, "hash 1 is not one match in row 0");
        free_board(first);
        int *last = hash2board(b->rows, (int *)b->start, max_hash - 1);
        cr_assert_arr_eq(last, b->start, (size_t)b->rows * sizeof *last,
                         "start %d: the last hash is not the start board", s);
        free_board(last);
    }
}

Test(nim, mk_nim_hash_initialises_every_node)
{
    const struct start_board *b = &starts[0];
    int max_hash = compute_max_hash(b->rows, (int *)b->start);
    struct node *t = mk_nim_hash(max_hash, b->rows, (int *)b->start);
    for (int h = 0; h < max_hash; h++) {
        cr_assert(t[h].moves == -1 && t[h].move == NULL && t[h].nimsum == -1, "node %d", h);
        cr_assert_eq(board2hash(b->rows, (int *)b->start, t[h].board), h, "node %d's board", h);
    }
    free_nim_hash(max_hash, t);
}

/* Every node's moves: row by row, 1..k matches, each to the right board. */
Test(nim, join_graph_gives_every_node_its_moves_and_nimsum)
{
    for (int s = 0; s < NSTARTS; s++) {
        const struct start_board *b = &starts[s];
        int max_hash;
        struct node *t = build(b, &max_hash);
        for (int h = 0; h < max_hash; h++) {
            const struct node *n = &t[h];
            int total = 0;
            for (int i = 0; i < b->rows; i++)
                total += n->board[i];
            cr_assert_eq(n->moves, total, "start %d node %d: %d moves, rows sum to %d", s, h,
                         n->moves, total);
            cr_assert_eq(n->nimsum, compute_nimsum(b->rows, n->board), "start %d node %d", s, h);
            int k = 0;
            for (int row = 0; row < b->rows; row++)
                for (int m = 1; m <= n->board[row]; m++, k++) {
                    cr_assert(n->move[k].row == row && n->move[k].matches == m,
                              "start %d node %d move %d: row %d matches %d, expected %d %d", s, h,
                              k, n->move[k].row, n->move[k].matches, row, m);
                    int *after = copy_board(b->rows, n->board);
                    after[row] -= m;
                    int want = board2hash(b->rows, (int *)b->start, after);
                    cr_assert_eq(n->move[k].hash, want, "start %d node %d move %d: hash %d", s,
                                 h, k, n->move[k].hash);
                    free_board(after);
                }
        }
        free_nim_hash(max_hash, t);
    }
}

static void *join_deep(void *arg)
{
    int *start = arg;
    int max_hash = compute_max_hash(1, start);
    struct node *t = mk_nim_hash(max_hash, 1, start);
    join_graph(t, max_hash - 1, 1, start);
    long ok = t[0].moves == 0 && t[max_hash - 1].moves == start[0];
    free_nim_hash(max_hash, t);
    return (void *)ok;
}

/* A path of moves is as long as the board has matches: a recursive walk of
 * one row of DEEP_ROW matches would need far more than a 32 KiB stack. */
Test(nim, join_graph_needs_no_deep_recursion)
{
    pthread_attr_t attr;
    pthread_t th;
    int start[1] = { DEEP_ROW };
    void *ok;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, SMALL_STACK);
    cr_assert_eq(pthread_create(&th, &attr, join_deep, start), 0);
    pthread_join(th, &ok);
    pthread_attr_destroy(&attr);
    cr_assert(ok, "the deep graph was not joined");
}

/* ---- perfect play ------------------------------------------------------- */

/* Brute force: the player to move loses when every move (if any) leads to a
 * position where the opponent wins; no move at all means the opponent took
 * the last match, a win. Memoised on the perfect hash. */
static int brute_losing(const struct start_board *b, int *board, signed char *memo)
{
    int h = board2hash(b->rows, (int *)b->start, board);
    if (memo[h] >= 0)
        return memo[h];
    int total = 0, losing = 1;
    for (int i = 0; i < b->rows; i++)
        total += board[i];
    if (total == 0)
        losing = 0;
    for (int row = 0; row < b->rows && losing; row++)
        for (int m = 1; m <= board[row] && losing; m++) {
            board[row] -= m;
            if (brute_losing(b, board, memo))
                losing = 0;
            board[row] += m;
        }
    memo[h] = (signed char)losing;
    return losing;
}

Test(nim, graph_closed_form_and_brute_force_agree_everywhere)
{
    for (int s = 0; s < NSTARTS; s++) {
        const struct start_board *b = &starts[s];
        int max_hash;
        struct node *t = build(b, &max_hash);
        signed char *memo = malloc((size_t)max_hash);
        memset(memo, -1, (size_t)max_hash);
        for (int h = 0; h < max_hash; h++) {
            char text[64];
            board_text(t[h].board, b->rows, text, sizeof text);
            int graph = t[h].nimsum == 0;
            int closed = nim_losing(t[h].board, b->rows);
            int brute = brute_losing(b, t[h].board, memo);
            cr_assert(graph == brute && closed == brute,
                      "board %s: graph says %s, closed form %s, brute force %s", text,
                      graph ? "losing" : "winning", closed ? "losing" : "winning",
                      brute ? "losing" : "winning");
        }
        free(memo);
        free_nim_hash(max_hash, t);
    }
}

/* The course driver's choice from the graph: first move to nimsum 0, else
 * the first move. */
Test(nim, perfect_move_is_the_drivers_choice)
{
    for (int s = 0; s < NSTARTS; s++) {
        const struct start_board *b = &starts[s];
        int max_hash;
        struct node *t = build(b, &max_hash);
        for (int h = 0; h < max_hash; h++) {
            const struct node *n = &t[h];
            int row, matches;
            int rc = nim_perfect_move(n->board, b->rows, &row, &matches);
            if (n->moves == 0) {
                cr_assert_eq(rc, -1, "no match left, yet a move");
                continue;
            }
            int pick = 0;
            for (int i = 0; i < n->moves; i++)
                if (t[n->move[i].hash].nimsum == 0) {
                    pick = i;
                    break;
                }
            char text[64];
            board_text(n->board, b->rows, text, sizeof text);
            cr_assert(rc == 0 && row == n->move[pick].row && matches == n->move[pick].matches,
                      "board %s: took %d from row %d, the driver takes %d from row %d", text,
                      matches, row, n->move[pick].matches, n->move[pick].row);
        }
        free_nim_hash(max_hash, t);
    }
}

/* ---- the engine game ------------------------------------------------------ */

static struct nim_pos parse_ok(const char *text)
{
    struct nim_pos p;
    struct err e;
    int rc = game_nim.parse(&p, text, strlen(text), &e);
    cr_assert_eq(rc, 0, "\"%s\" rejected: %d:%d: %s", text, e.line, e.col, e.msg);
    return p;
}

Test(nim, board_file_round_trips)
{
    static const char *const files[] = { "1 3 5 7\n1\n", "0 4\n2\n", "7\n1\n",
                                         "1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1\n2\n" };
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        struct nim_pos p = parse_ok(files[i]);
        char buf[GAME_FORMAT_MAX];
        game_nim.format(&p, buf);
        cr_assert_str_eq(buf, files[i]);
    }
    struct nim_pos p = parse_ok("  1   3 5\r\n1  \r\n\r\n");
    char buf[GAME_FORMAT_MAX];
    game_nim.format(&p, buf);
    cr_assert_str_eq(buf, "1 3 5\n1\n");
}

struct bad_file {
    char text[48];
    int line, col;
    char msg[80];
};

ParameterizedTestParameters(nim, bad_board_files)
{
    static struct bad_file cases[] = {
        { "", 1, 1, "missing the row sizes (numbers separated by spaces)" },
        { "1 x 3\n1\n", 1, 3, "unexpected character 'x', expected a row size (0-9)" },
        { "1 -3\n1\n", 1, 3, "unexpected character '-', expected a row size (0-9)" },
        { "100 29\n1\n", 1, 5, "too many matches: at most 128 in all" },
        { "1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1\n1\n", 1, 33, "too many rows: at most 16" },
        { "1 3\n", 2, 1, "missing the player-to-move line (1 or 2)" },
        { "1 3\n3\n", 2, 1, "unexpected character '3', expected the player to move, 1 or 2" },
        { "1 3\n12\n", 2, 2, "unexpected character '2', expected the end of the line" },
        { "1 3\n1\nmore\n", 3, 1, "unexpected text after the player line" },
    };
    return cr_make_param_array(struct bad_file, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct bad_file *c, nim, bad_board_files)
{
    struct nim_pos p;
    struct err e;
    int rc = game_nim.parse(&p, c->text, strlen(c->text), &e);
    cr_assert_eq(rc, -1, "\"%s\" accepted", c->text);
    cr_assert(e.line == c->line && e.col == c->col, "\"%s\": at %d:%d, expected %d:%d", c->text,
              e.line, e.col, c->line, c->col);
    cr_assert_str_eq(e.msg, c->msg);
}

/* Move texts on the board "1 3 5": ROW:MATCHES in decimal digits only, as
 * nim_move_text writes them (a sign or a blank was read by sscanf). */
struct move_text {
    char text[32];
    int move;    /* row * NIM_MOVE_BASE + matches, or -1: refused */
};

ParameterizedTestParameters(nim, move_texts)
{
    static struct move_text cases[] = {
        { "0:1", 0 * NIM_MOVE_BASE + 1 },
        { "2:5", 2 * NIM_MOVE_BASE + 5 },
        { "02:05", 2 * NIM_MOVE_BASE + 5 },
        { "1:3", 1 * NIM_MOVE_BASE + 3 },
        { "1:4", -1 },  { "3:1", -1 },  { "0:0", -1 },   { "+1:2", -1 }, { "1:+2", -1 },
        { "1: 2", -1 }, { " 1:2", -1 }, { "1:2 ", -1 },  { "1:-2", -1 }, { "-1:2", -1 },
        { "1:", -1 },   { ":2", -1 },   { "12", -1 },    { "", -1 },     { "1:2:3", -1 },
        { "99999999999999999999:1", -1 }, { "1:99999999999999999999", -1 },
    };
    return cr_make_param_array(struct move_text, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct move_text *c, nim, move_texts)
{
    struct nim_pos p = parse_ok("1 3 5\n1\n");
    int move = -1;
    int rc = game_nim.parse_move(&p, c->text, &move);
    if (c->move < 0) {
        cr_expect_eq(rc, -1, "\"%s\" accepted as %d", c->text, move);
        return;
    }
    cr_expect_eq(rc, 0, "\"%s\" refused", c->text);
    cr_expect_eq(move, c->move, "\"%s\": move %d, expected %d", c->text, move, c->move);
}

Test(nim, no_match_left_means_the_player_to_move_won)
{
    struct nim_pos p = parse_ok("0 0\n2\n");
    int v;
    cr_assert_eq(game_nim.terminal(&p, &v), 1);
    cr_assert_eq(v, SCORE_WIN);
    cr_assert_eq(game_result(&game_nim, &p), 2);
    p = parse_ok("0 1\n2\n");
    cr_assert_eq(game_nim.terminal(&p, &v), 0, "one match left is not yet the end");
}

/* From every winning position of 1 3 5 7, alpha-beta at any depth and the
 * perfect player move to a losing one: a won position is never given away. */
Test(nim, engine_never_gives_away_a_won_position)
{
    const struct start_board *b = &starts[0];
    struct search s;
    struct search_opts o = search_opts_default();
    o.tt_bytes = (size_t)1 << 20;
    cr_assert_eq(search_init(&s, &game_nim, &o), 0);
    int max_hash = compute_max_hash(b->rows, (int *)b->start);
    for (int h = 0; h < max_hash; h++) {
        int *board = hash2board(b->rows, (int *)b->start, h);
        if (nim_losing(board, b->rows) || board[0] + board[1] + board[2] + board[3] == 0) {
            free_board(board);
            continue;
        }
        struct nim_pos p = { .rows = (uint8_t)b->rows, .to_move = 0 };
        for (int i = 0; i < b->rows; i++)
            p.heap[i] = (uint8_t)board[i];
        for (int d = 0; d <= 3; d++) {
            struct search_result r;
            int move;
            if (d == 0) {
                move = game_nim.perfect(&p);
            } else {
                search_alphabeta(&s, &p, d, &r);
                move = r.move;
            }
            struct nim_pos after = p;
            game_nim.play(&after, move);
            int rows[NIM_MAX_ROWS];
            for (int i = 0; i < b->rows; i++)
                rows[i] = after.heap[i];
            char text[64];
            board_text(board, b->rows, text, sizeof text);
            cr_assert(nim_losing(rows, b->rows), "board %s depth %d: move %d:%d leaves a win", text,
                      d, move / NIM_MOVE_BASE, move % NIM_MOVE_BASE);
        }
        free_board(board);
    }
    search_free(&s);
}

/* A blank answer is no number: it used to pass for row 0 (strtol converts
 * nothing, then the blanks after "nothing" were skipped). Found by
 * tests/fuzz/nim_session. */
Test(nim, session_blank_answer_is_an_invalid_move)
{
    static const int start[] = { 2, 3 };
    static char answers[] = " \n1\n";
    FILE *in = fmemopen(answers, strlen(answers), "r");
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    struct nim_session_opts o = { .human_first = 1, .rows = 2, .start = start };
    cr_assert_eq(nim_session_run(&o, in, out), 0);
    fclose(in);
    fclose(out);
    cr_assert_str_eq(text, "Ready Player 1:\n[ 0]: ||\n[ 1]: |||\nRow: Matches: Invalid move!\n"
                           "Ready Player 1:\n[ 0]: ||\n[ 1]: |||\nRow: ");
    free(text);
}
