/*
 * nim_session.c - fuzz target for the `nim` binary's games (nim_session_run:
 * the course driver's loop on the assignment's hash table and move graph).
 *
 * Input: a first line as the binary's arguments, "FIRST R0 R1 ..." (FIRST
 * 1 when the human moves first; at most FUZZ_ROWS rows and FUZZ_BOARDS
 * boards in the table, so one run stays cheap; other first lines are not a
 * session), then the human's answers on stdin.
 *
 * Property: the session prints exactly what a reference prints, byte for
 * byte. The reference plays the same driver loop from the documentation
 * (nimgame.h, session.c's header) but picks the computer's move with the
 * closed form (nim_perfect_move) instead of the course's table and graph,
 * and reads answers with strtol as the driver's answers are specified: so
 * the graph's nimsums, the perfect hash and the answer checks are all
 * checked against independent code. The session also returns 0 and reads
 * no further than the answers it asked for.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "arena/nimgame.h"
#include "fuzz.h"

#define FUZZ_ROWS    6
#define FUZZ_BOARDS  512
#define ANSWER_LIMIT 1000000     /* |answer| the driver reads as a number */
#define LINE_MAX_LEN 64
enum { COMPUTER = 0, HUMAN = 1 };

/* Parses "FIRST R0 R1 ..." (single spaces, digits); 0 or -1. */
static int parse_args(const char *s, size_t len, int *first, int *rows, int *start)
{
    int n = -1, total = 0;
    for (size_t i = 0; i < len;) {
        if (i > 0 && s[i++] != ' ')
            return -1;
        int v = 0, digits = 0;
        while (i < len && s[i] >= '0' && s[i] <= '9' && digits < 3)
            v = v * 10 + (s[i++] - '0'), digits++;
        if (!digits || (i < len && s[i] != ' '))
            return -1;
        if (n < 0) {
            if (v > 1)
                return -1;
            *first = v;
        } else {
            if (n == FUZZ_ROWS)
                return -1;
            start[n] = v;
            total += v;
        }
        n++;
    }
    *rows = n;
    long long boards, edges;
    if (n < 1 || total == 0)
        return -1;
    nim_table_size(start, n, &boards, &edges);
    return boards <= FUZZ_BOARDS ? 0 : -1;
}

/* ---- the reference ------------------------------------------------------ */

struct ref {
    const char *in, *end;    /* answers still to read */
    FILE *out;
};

/* One answer after its prompt, as tf_getline reads it; 0, or -1 at the end
 * of input. A line longer than LINE_MAX_LEN is no answer (""). */
static int ref_ask(struct ref *r, const char *prompt, char *line)
{
    fputs(prompt, r->out);
    if (r->in == r->end)
        return -1;
    const char *nl = memchr(r->in, '\n', (size_t)(r->end - r->in));
    size_t n = (size_t)((nl ? nl : r->end) - r->in);
    if (n > LINE_MAX_LEN) {
        line[0] = '\0';
    } else {
        for (size_t i = 0; i < n; i++)
            line[i] = r->in[i] ? r->in[i] : '\x01';
        line[n] = '\0';
    }
    r->in += n + (nl != NULL);
    return 0;
}

/* An answer is a whole number, blanks (space, tab, CR) after it allowed. */
static int ref_number(const char *s, int *v)
{
    char *end;
    errno = 0;
    long x = strtol(s, &end, 10);
    if (end == s || errno || x < -ANSWER_LIMIT || x > ANSWER_LIMIT)
        return -1;
    if (end[strspn(end, " \t\r")])
        return -1;
    *v = (int)x;
    return 0;
}

/* One game; the loser, or -1 when input ends. */
static int ref_game(struct ref *r, const int *start, int rows, int player, char *line)
{
    int board[FUZZ_ROWS];
    memcpy(board, start, (size_t)rows * sizeof *board);
    for (;;) {
        int total = 0;
        for (int i = 0; i < rows; i++)
            total += board[i];
        if (total == 1)
            return player;       /* must take the last match */
        if (total == 0)
            return !player;      /* the other took it */
        if (player == HUMAN) {
            fputs("Ready Player 1:\n", r->out);
            for (int i = 0; i < rows; i++) {
                fprintf(r->out, "[%2d]: ", i);
                for (int m = 0; m < board[i]; m++)
                    fputc('|', r->out);
                fputc('\n', r->out);
            }
            int row = 0, matches = 0;
            if (ref_ask(r, "Row: ", line) != 0)
                return -1;
            int row_ok = ref_number(line, &row) == 0;
            if (ref_ask(r, "Matches: ", line) != 0)
                return -1;
            int matches_ok = ref_number(line, &matches) == 0;
            if (!row_ok || !matches_ok || row < 0 || row >= rows || matches < 1
                || matches > board[row]) {
                fputs("Invalid move!\n", r->out);
                continue;
            }
            board[row] -= matches;
        } else {
            int row, matches;
            FUZZ_CHECK(nim_perfect_move(board, rows, &row, &matches) == 0, "no move");
            fprintf(r->out, "Computer removes %d matches from row %d\n", matches, row);
            board[row] -= matches;
        }
        player = !player;
    }
}

static void ref_session(struct ref *r, const int *start, int rows, int first)
{
    char line[LINE_MAX_LEN + 1];
    int player = first ? HUMAN : COMPUTER;
    for (;;) {
        int loser = ref_game(r, start, rows, player, line);
        if (loser < 0)
            return;
        fputs(loser == HUMAN ? "Sorry, you lost!  Game over.\n" : "Congratulations, you won!\n",
              r->out);
        player = loser;
        if (ref_ask(r, "Play again (y/n): ", line) != 0)
            return;
        size_t len = strlen(line);
        if (len && line[len - 1] == '\r')
            line[len - 1] = '\0';
        if (strcmp(line, "y") != 0 && strcmp(line, "Y") != 0)
            return;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *nl = memchr(data, '\n', size);
    int first, rows, start[FUZZ_ROWS];
    if (!nl || parse_args((const char *)data, (size_t)(nl - data), &first, &rows, start) != 0)
        return 0;
    const uint8_t *answers = nl + 1;
    size_t len = size - (size_t)(answers - data);

    char *copy;
    FILE *in = fuzz_input(answers, len, &copy);
    struct fuzz_out got, want;
    fuzz_out_open(&got);
    struct nim_session_opts o = { .human_first = first, .rows = rows, .start = start };
    int rc = nim_session_run(&o, in, got.f);
    long read_to = ftell(in);
    fclose(in);
    fuzz_out_close(&got);

    fuzz_out_open(&want);
    struct ref r = { copy, copy + len, want.f };
    ref_session(&r, start, rows, first);
    fuzz_out_close(&want);

    FUZZ_CHECK(rc == 0, "status %d", rc);
    FUZZ_CHECK(got.len == want.len && memcmp(got.buf, want.buf, got.len) == 0,
               "the session and the reference differ:\n%s\n---\n%s", got.buf, want.buf);
    FUZZ_CHECK(read_to == r.in - copy, "the session read %ld bytes, the reference %ld", read_to,
               (long)(r.in - copy));
    fuzz_out_free(&got);
    fuzz_out_free(&want);
    free(copy);
    return 0;
}
