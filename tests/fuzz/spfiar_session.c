/*
 * spfiar_session.c - fuzz target for a whole SPFIAR session
 * (spf_session_run: the level prompt, then commands until quit or end of
 * input), the seed's interactive Connect-4 program.
 *
 * Input: everything the user types, as stdin. Lines that read as a level
 * above FUZZ_LEVEL_MAX become "1" before the session sees them: deeper
 * searches cost far more per move under the sanitizers and read no input
 * (the parsers of those lines are covered whole by spfiar_command).
 *
 * Properties:
 *   - the session ends (end of input quits) with status 0 and "Exiting...";
 *   - every line it prints is one of the seed's messages, a board row, the
 *     rule or the column numbers: nothing else ever reaches the user;
 *   - every board it prints is a position of the game: discs rest on discs,
 *     the user (X) has as many discs as the computer (O) or one more;
 *   - every command line gets an answer: the session prints at least one
 *     line per line it reads, until quit.
 */
#include <stdlib.h>
#include <string.h>
#include "arena/spfiar.h"
#include "fuzz.h"

#define FUZZ_LEVEL_MAX 1
#define FUZZ_TT_BYTES (64 << 10)
#define BOARD_LINE_LEN 17      /* "| X O . . . . . |" */

/* The seed's messages: whole lines, or a prefix followed by a column. */
static const char *const fixed_line[] = {
    "Please enter the difficulty level between [1-7]:",
    "Error: invalid level (should be between 1 to 7)",
    "Please make the next move:",
    "Game over: you win",
    "Game over: computer wins",
    "Game over: it's a tie",
    "Please enter 'quit' to exit or 'restart' to start a new game!",
    "Error: invalid command",
    "Error: column number must be in range 1-7",
    "Error: the game is over",
    "Error: cannot undo previous move!",
    "Game restarted!",
    "Exiting...",
    "-----------------",
    "  1 2 3 4 5 6 7  ",
};
static const char *const column_line[] = {
    "Computer move: add disc to column ",
    "Suggested move: drop a disc to column ",
    "Remove disc: remove computer's disc at column ",
    "Remove disc: remove user's disc at column ",
    "Error: column ",
};

static int is_column_line(const char *l, size_t n)
{
    for (size_t i = 0; i < sizeof column_line / sizeof *column_line; i++) {
        size_t k = strlen(column_line[i]);
        if (n < k + 1 || strncmp(l, column_line[i], k) != 0 || l[k] < '1' || l[k] > '7')
            continue;
        if (i == 4 ? n == k + 9 && strncmp(l + k + 1, " is full", 8) == 0 : n == k + 1)
            return 1;
    }
    return 0;
}

static int is_board_line(const char *l, size_t n)
{
    if (n != BOARD_LINE_LEN || l[0] != '|' || l[1] != ' ' || l[15] != ' ' || l[16] != '|')
        return 0;
    for (int c = 0; c < C4_WIDTH; c++)
        if (!strchr(" XO", l[2 + 2 * c]) || (c < C4_WIDTH - 1 && l[3 + 2 * c] != ' '))
            return 0;
    return 1;
}

/* Checks the board whose six rows start at rows[0] (top row first). */
static void check_board(const char *const rows[C4_HEIGHT])
{
    int x = 0, o = 0;
    for (int c = 0; c < C4_WIDTH; c++) {
        int seen_empty = 0;
        for (int r = C4_HEIGHT - 1; r >= 0; r--) {   /* bottom up */
            char ch = rows[r][2 + 2 * c];
            FUZZ_CHECK(!(seen_empty && ch != ' '), "a floating disc in column %d", c + 1);
            seen_empty |= ch == ' ';
            x += ch == 'X';
            o += ch == 'O';
        }
    }
    FUZZ_CHECK(x == o || x == o + 1, "%d X and %d O discs", x, o);
}

/* The input with every line that reads as a level above FUZZ_LEVEL_MAX
 * replaced by "1" (such a line is an invalid command anyway, and so is
 * "1"). Returns a malloc'd text; *len receives its length. */
static char *cap_levels(const uint8_t *data, size_t size, size_t *len)
{
    char *text = malloc(size + 1), line[SPF_LINE_MAX + 1];
    FUZZ_CHECK(text != NULL, "out of memory");
    size_t n = 0;
    for (size_t i = 0; i < size;) {
        const uint8_t *nl = memchr(data + i, '\n', size - i);
        size_t end = nl ? (size_t)(nl - data) : size, k = end - i;
        int level = 0;
        if (k <= SPF_LINE_MAX) {
            for (size_t j = 0; j < k; j++)
                line[j] = data[i + j] ? (char)data[i + j] : '\x01';   /* as tf_getline */
            line[k] = '\0';
        }
        if (k <= SPF_LINE_MAX && spf_parse_level(line, &level) == SPF_LEVEL_OK
            && level > FUZZ_LEVEL_MAX) {
            text[n++] = '1';
        } else {
            memcpy(text + n, data + i, k);
            n += k;
        }
        if (nl)
            text[n++] = '\n';
        i = end + 1;
    }
    text[n] = '\0';
    *len = n;
    return text;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t len;
    char *text = cap_levels(data, size, &len);
    FILE *in = fmemopen(text, len, "r");
    FUZZ_CHECK(in != NULL, "fmemopen failed");
    struct fuzz_out out;
    fuzz_out_open(&out);
    struct spf_session_opts o = { .level = 0, .tt_bytes = FUZZ_TT_BYTES };
    int rc = spf_session_run(&o, in, out.f);
    long read_to = ftell(in);
    fclose(in);
    fuzz_out_close(&out);
    FUZZ_CHECK(rc == 0, "status %d", rc);
    static const char tail[] = "Exiting...\n";
    FUZZ_CHECK(out.len >= sizeof tail - 1
                   && strcmp(out.buf + out.len - (sizeof tail - 1), tail) == 0,
               "the session does not end with Exiting...");
    const char *rows[C4_HEIGHT];
    int nrows = 0, printed = 0;
    for (char *p = out.buf; p < out.buf + out.len;) {
        char *nl = memchr(p, '\n', (size_t)(out.buf + out.len - p));
        FUZZ_CHECK(nl != NULL, "output ends without a newline");
        size_t n = (size_t)(nl - p);
        /* Board rows first: they are most of the output, and each check
         * here runs under the fuzzer's comparison tracing. */
        int board = is_board_line(p, n), fixed = 0;
        for (size_t i = 0; i < sizeof fixed_line / sizeof *fixed_line && !board && !fixed; i++)
            fixed = fixed_line[i][0] == p[0] && strlen(fixed_line[i]) == n
                    && memcmp(p, fixed_line[i], n) == 0;
        FUZZ_CHECK(fixed || board || is_column_line(p, n), "not a line of the seed: '%.*s'",
                   (int)n, p);
        if (board) {
            FUZZ_CHECK(nrows < C4_HEIGHT, "a board of more than %d rows", C4_HEIGHT);
            rows[nrows++] = p;
        } else {
            FUZZ_CHECK(nrows == 0 || nrows == C4_HEIGHT, "a board of %d rows", nrows);
            if (nrows == C4_HEIGHT)
                check_board(rows);
            nrows = 0;
        }
        printed++;
        p = nl + 1;
    }
    /* Lines read: every newline before where reading stopped, and a last
     * line without one. */
    int lines = 0;
    for (long i = 0; i < read_to; i++)
        lines += text[i] == '\n';
    lines += read_to > 0 && text[read_to - 1] != '\n';
    FUZZ_CHECK(printed >= lines, "%d lines read, %d printed", lines, printed);
    fuzz_out_free(&out);
    free(text);
    return 0;
}
