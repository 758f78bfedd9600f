/*
 * interactive.c - fuzz target for the Max-Connect4 seed's interactive mode
 * (interactive_run: `maxconnect4 interactive IN computer-next|human-next
 * DEPTH`), its board file IN and the human's answers on stdin.
 *
 * Input: one byte (bit 0: the computer moves next), then either the answers
 * alone (IN does not exist: the empty board), or a board file, a line
 * "--", then the answers (IN holds that board).
 *
 * Properties:
 *   - the status is 0, or 2 with a placed message on diag when IN is not
 *     a board (and then nothing is printed on out);
 *   - every prompt reads exactly one line of input: prompts equal the
 *     lines read, plus one when input ended at a prompt ("End of input");
 *   - a line that is not a whole number 0-6 (blanks around it allowed) is
 *     answered "Invalid move", never played;
 *   - the boards it saves (human.txt, computer.txt) read back.
 */
#define _GNU_SOURCE   /* memmem */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "arena/connect4.h"
#include "arena/interactive.h"
#include "fuzz.h"

#define DEPTH 2
#define TT_BYTES (64 << 10)
#define BOARD_END "\n--\n"
#define PROMPT "Your move, player "
#define INVALID "Invalid move: "
#define EOF_LINE "End of input: game stopped."

int LLVMFuzzerInitialize(int *argc, char ***argv);

/* The private folder (fuzz_tmpdir) and the files in it. */
static char dir[PATH_MAX], board[PATH_MAX], human[PATH_MAX], computer[PATH_MAX];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    snprintf(dir, sizeof dir, "%s", fuzz_tmpdir());
    snprintf(board, sizeof board, "%s/in.txt", dir);
    snprintf(human, sizeof human, "%s/human.txt", dir);
    snprintf(computer, sizeof computer, "%s/computer.txt", dir);
    return 0;
}

static int count(const char *text, size_t len, const char *what)
{
    int n = 0;
    for (const char *p = text; (p = fuzz_find(p, text + len, what)); p++)
        n++;
    return n;
}

/* 1 when line (len bytes, its newline excluded) reads as a column 0-6 by
 * the documented rule: a whole decimal number, blanks around it. */
static int ref_column(const char *line, size_t len)
{
    if (len > 1024 || memchr(line, '\0', len))
        return 0;
    char buf[1025], *end;
    memcpy(buf, line, len);
    buf[len] = '\0';
    long v = strtol(buf, &end, 10);
    if (end == buf)
        return 0;
    end += strspn(end, " \t\r");
    return *end == '\0' && v >= 0 && v < C4_WIDTH;
}

/* Each line read that is no column got "Invalid move" after its prompt. */
static void check_answers(const char *in, long read_to, const char *out, size_t out_len)
{
    const char *prompt = out, *end = out + out_len;
    for (const char *p = in; p < in + read_to;) {
        const char *nl = memchr(p, '\n', (size_t)(in + read_to - p));
        size_t n = (size_t)((nl ? nl : in + read_to) - p);
        prompt = fuzz_find(prompt, end, PROMPT);
        FUZZ_CHECK(prompt != NULL, "a line read without a prompt");
        const char *answer = memchr(prompt, ':', (size_t)(end - prompt));
        FUZZ_CHECK(answer != NULL, "a prompt cut short");
        answer = fuzz_find(answer, end, "(rightmost): ");
        FUZZ_CHECK(answer != NULL, "a prompt cut short");
        answer += strlen("(rightmost): ");
        if (!ref_column(p, n))
            FUZZ_CHECK(strncmp(answer, INVALID, strlen(INVALID)) == 0,
                       "the answer '%.*s' is no column, yet it played", (int)n, p);
        prompt = answer;
        p += n + 1;
    }
}

static void check_saved(const char *path)
{
    if (access(path, F_OK) != 0)
        return;
    struct c4_pos p;
    struct err e;
    FUZZ_CHECK(game_read_file(&game_maxconnect4, path, &p, &e) == 0, "%s does not read back: %s",
               path, e.msg);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    int computer_next = data[0] & 1;
    const uint8_t *in = data + 1;
    size_t len = size - 1;
    unlink(board);
    unlink(human);
    unlink(computer);
    const uint8_t *sep = memmem(in, len, BOARD_END, strlen(BOARD_END));
    if (sep) {
        FILE *f = fopen(board, "wb");
        size_t n = (size_t)(sep - in) + 1;
        FUZZ_CHECK(f && fwrite(in, 1, n, f) == n && fclose(f) == 0, "cannot write the board");
        len -= (size_t)(sep - in) + strlen(BOARD_END);
        in = sep + strlen(BOARD_END);
    }
    char *copy;
    FILE *f = fuzz_input(in, len, &copy);
    struct fuzz_out out, diag;
    fuzz_out_open(&out);
    fuzz_out_open(&diag);
    struct interactive_opts o = { .game = &game_maxconnect4, .in = board,
                                  .computer_next = computer_next, .depth = DEPTH,
                                  .tt_bytes = TT_BYTES, .dir = dir };
    int rc = interactive_run(&o, f, out.f, diag.f);
    long read_to = ftell(f);
    fclose(f);
    fuzz_out_close(&out);
    fuzz_out_close(&diag);

    if (rc != 0) {
        FUZZ_CHECK(rc == EXIT_BAD_INPUT && sep && out.len == 0, "status %d:\n%s%s", rc, out.buf,
                   diag.buf);
        int line = 0, col = 0;
        size_t bl = strlen(board);
        FUZZ_CHECK(strncmp(diag.buf, board, bl) == 0
                       && sscanf(diag.buf + bl, ":%d:%d: ", &line, &col) == 2 && line >= 1
                       && col >= 1,
                   "not a placed board error: %s", diag.buf);
    } else {
        FUZZ_CHECK(diag.len == 0, "status 0 with diag: %s", diag.buf);
        int lines = 0;
        for (long i = 0; i < read_to; i++)
            lines += copy[i] == '\n';
        lines += read_to > 0 && copy[read_to - 1] != '\n';
        int prompts = count(out.buf, out.len, PROMPT);
        int at_eof = count(out.buf, out.len, EOF_LINE);
        FUZZ_CHECK(prompts == lines + at_eof, "%d prompts, %d lines read, %d at the end",
                   prompts, lines, at_eof);
        check_answers(copy, read_to, out.buf, out.len);
        check_saved(human);
        check_saved(computer);
    }
    fuzz_out_free(&out);
    fuzz_out_free(&diag);
    free(copy);
    return 0;
}
