/*
 * session.c - the `nim` binary's games against the perfect computer, as the
 * course's driver plays them (nimgame.h), on the assignment's table and graph
 * (nim.h). Where the driver would crash or loop, this one does not: answers
 * are checked in full (a row from 0 to rows-1, 1 to that row's matches),
 * taking the last match ends the game at once (the taker loses), and end of
 * input ends the session. Everything goes to the caller's stream (stdout
 * for the binary), the board in the course's print_board layout.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include "arena/clock.h"
#include "arena/nimgame.h"
#include "arena/textfile.h"
#include "nim.h"

#define NS_PER_MS 1e6
#define KIB 1024.0

void nim_table_size(const int *start, int rows, long long *boards, long long *edges)
{
    /* Over all boards, row i holds each of 0..start[i] equally often, so
     * the moves (one per match) sum to boards * sum(start[i]) / 2. Capped
     * once past the limits, so the product never overflows. */
    long long b = 1, matches = 0;
    for (int i = 0; i < rows; i++) {
        matches += start[i];
        b *= start[i] + 1LL;
        if (b > NIM_MAX_BOARDS)
            b = NIM_MAX_BOARDS + 1;
    }
    *boards = b;
    *edges = b > NIM_MAX_BOARDS ? NIM_MAX_EDGES + 1 : b * matches / 2;
}

/* Parses a whole answer as an integer (blanks around it allowed). */
static int answer_int(const char *s, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (end == s)   /* no digits: a blank answer is no number, not 0 */
        return -1;
    while (*end == ' ' || *end == '\t' || *end == '\r')
        end++;
    if (*end || errno || v < -1000000 || v > 1000000)
        return -1;
    *out = (int)v;
    return 0;
}

/* The course's print_board (nimhelp.c), on out instead of stdout: one line
 * per row, "[%2d]: " then one '|' per match. */
static void print_rows(FILE *out, int rows, const int *board)
{
    for (int row = 0; row < rows; row++) {
        fprintf(out, "[%2d]: ", row);
        for (int m = 0; m < board[row]; m++)
            fputc('|', out);
        fputc('\n', out);
    }
}

/* Reads one answer after printing prompt: 0, or -1 at end of input. */
static int ask(FILE *in, FILE *out, const char *prompt, char *line)
{
    fputs(prompt, out);
    fflush(out);
    enum tf_getline_result r = tf_getline(in, line, NIM_INPUT_MAX);
    if (r == TF_LINE_EOF || r == TF_LINE_FAILED)
        return -1;
    if (r == TF_LINE_TOO_LONG)
        line[0] = '\0';   /* never a valid answer */
    return 0;
}

static int board_total(const int *board, int rows)
{
    int t = 0;
    for (int i = 0; i < rows; i++)
        t += board[i];
    return t;
}

/* The driver's choice: the first move to a node of nimsum 0, else the
 * first move. */
static void computer_move(const struct node *table, const struct nim_session_opts *o,
                          int *board, FILE *out)
{
    const struct node *n = &table[board2hash(o->rows, (int *)o->start, board)];
    int pick = 0;
    for (int i = 0; i < n->moves; i++)
        if (table[n->move[i].hash].nimsum == 0) {
            pick = i;
            break;
        }
    fprintf(out, "Computer removes %d matches from row %d\n", n->move[pick].matches,
            n->move[pick].row);
    board[n->move[pick].row] -= n->move[pick].matches;
}

enum { COMPUTER = 0, HUMAN = 1 };

/* One game from the start board, player moving first. Returns the loser, or
 * -1 at end of input. */
static int play_game(const struct node *table, const struct nim_session_opts *o, int player,
                     FILE *in, FILE *out, char *line)
{
    int *board = copy_board(o->rows, (int *)o->start);
    int loser = -1;
    for (;;) {
        int total = board_total(board, o->rows);
        if (total == 1) {          /* the player to move must take it */
            loser = player;
            break;
        }
        if (total == 0) {          /* the other player took the last one */
            loser = !player;
            break;
        }
        if (player == HUMAN) {
            int row, matches;
            fputs("Ready Player 1:\n", out);
            fflush(out);
            print_rows(out, o->rows, board);
            if (ask(in, out, "Row: ", line) != 0)
                break;
            int row_ok = answer_int(line, &row) == 0;
            if (ask(in, out, "Matches: ", line) != 0)
                break;
            int matches_ok = answer_int(line, &matches) == 0;
            if (!row_ok || !matches_ok || row < 0 || row >= o->rows || matches <= 0
                || matches > board[row]) {
                fputs("Invalid move!\n", out);
                continue;
            }
            board[row] -= matches;
        } else {
            computer_move(table, o, board, out);
        }
        player = !player;
    }
    free_board(board);
    return loser;
}

int nim_session_run(const struct nim_session_opts *o, FILE *in, FILE *out)
{
    int max_hash = compute_max_hash(o->rows, (int *)o->start);
    struct node *table = mk_nim_hash(max_hash, o->rows, (int *)o->start);
    join_graph(table, max_hash - 1, o->rows, (int *)o->start);
    char line[NIM_INPUT_MAX + 1];
    int player = o->human_first ? HUMAN : COMPUTER;
    for (;;) {
        int loser = play_game(table, o, player, in, out, line);
        if (loser < 0)
            break;
        fputs(loser == HUMAN ? "Sorry, you lost!  Game over.\n" : "Congratulations, you won!\n",
              out);
        /* As in the driver, whoever lost moves first in the next game. */
        player = loser;
        if (ask(in, out, "Play again (y/n): ", line) != 0)
            break;
        size_t len = strlen(line);
        if (len && line[len - 1] == '\r')
            line[--len] = '\0';
        if (strcmp(line, "y") != 0 && strcmp(line, "Y") != 0)
            break;
    }
    free_nim_hash(max_hash, table);
    fflush(out);
    return 0;
}

void nim_bench(const int *start, int rows, FILE *out)
{
    long long boards, edges;
    nim_table_size(start, rows, &boards, &edges);
    uint64_t c0 = clock_cpu_ns(), w0 = clock_wall_ns();
    int max_hash = compute_max_hash(rows, (int *)start);
    struct node *table = mk_nim_hash(max_hash, rows, (int *)start);
    join_graph(table, max_hash - 1, rows, (int *)start);
    uint64_t c1 = clock_cpu_ns(), w1 = clock_wall_ns();
    long long joined = 0, moves = 0;
    for (int h = 0; h < max_hash; h++)
        if (table[h].moves >= 0) {
            joined++;
            moves += table[h].moves;
        }
    free_nim_hash(max_hash, table);
    uint64_t c2 = clock_cpu_ns();
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    fprintf(out, "nim table: %lld boards (%lld joined), %lld moves\n", boards, joined, moves);
    fprintf(out, "build cpu_ms %.1f wall_ms %.1f, free cpu_ms %.1f, peak rss %.1f MiB\n",
            (double)(c1 - c0) / NS_PER_MS, (double)(w1 - w0) / NS_PER_MS,
            (double)(c2 - c1) / NS_PER_MS, (double)ru.ru_maxrss / KIB);
}
