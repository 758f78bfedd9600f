/*
 * c4_moves.c - fuzz target for the Connect-4 solver's move strings
 * (c4moves_parse) and the line reader of `engine solve` around it
 * (c4solvelines_run: "MOVES [SCORE]" per line).
 *
 * Input: the bytes of a move-string file.
 *
 * Properties:
 *   - c4moves_parse on the whole input agrees with a reference that
 *     drops discs into a plain 7x6 grid and looks for fours cell by cell:
 *     the same verdict, the same 1-based index and reason on a rejection,
 *     and on success the same position (the grid written as a board file
 *     and read by game_connect4 gives the same bytes);
 *   - c4solvelines_run on the first lines (a small node budget keeps each
 *     solve short) answers every line exactly once: a result line on out,
 *     or name:line[:col]: why on diag; its exit status is 2 when a line
 *     was bad or ran out of budget, else 1 when a score differed, else 0.
 */
#define _GNU_SOURCE   /* memmem */
#include <stdlib.h>
#include <string.h>
#include "games/connect4/c4moves.h"
#include "games/connect4/c4solvelines.h"
#include "arena/game.h"
#include "fuzz.h"

#define SOLVE_LINES   4            /* lines given to c4solvelines_run */
#define SOLVE_NODES   200          /* node budget per line */
#define SOLVE_TT      (64 << 10)   /* the smallest table */
#define NAME          "fuzz"

struct grid {
    int cell[C4_WIDTH][C4_HEIGHT];   /* 0 empty, 1 or 2 */
    int height[C4_WIDTH];
    int moves;
};

static int grid_four(const struct grid *g, int who)
{
    static const int dir[4][2] = { { 1, 0 }, { 0, 1 }, { 1, 1 }, { 1, -1 } };
    for (int c = 0; c < C4_WIDTH; c++)
        for (int r = 0; r < C4_HEIGHT; r++)
            for (int d = 0; d < 4; d++) {
                int k = 0;
                while (k < 4) {
                    int cc = c + k * dir[d][0], rr = r + k * dir[d][1];
                    if (cc < 0 || cc >= C4_WIDTH || rr < 0 || rr >= C4_HEIGHT
                        || g->cell[cc][rr] != who)
                        break;
                    k++;
                }
                if (k == 4)
                    return 1;
            }
    return 0;
}

/* The documented rules of c4moves_parse, on the grid. */
static int grid_parse(const char *moves, size_t len, struct grid *g, const char **why)
{
    memset(g, 0, sizeof *g);
    for (size_t i = 0; i < len; i++) {
        int c = (unsigned char)moves[i] - '1', last = g->moves % 2 ? 1 : 2;
        if (c < 0 || c >= C4_WIDTH) {
            *why = "not a column digit 1-7";
            return (int)i + 1;
        }
        if (g->moves > 0 && grid_four(g, last)) {
            *why = "game is already over";
            return (int)i + 1;
        }
        if (g->height[c] == C4_HEIGHT) {
            *why = "column is full";
            return (int)i + 1;
        }
        g->cell[c][g->height[c]++] = g->moves % 2 + 1;
        g->moves++;
    }
    if ((g->moves > 0 && grid_four(g, g->moves % 2 ? 1 : 2)) || g->moves == C4_CELLS) {
        *why = "game is already over";
        return (int)len + 1;
    }
    return 0;
}

static void check_parse(const uint8_t *data, size_t size)
{
    struct c4_pos p;
    struct grid g;
    const char *why = "", *want_why = "";
    int got = c4moves_parse((const char *)data, size, &p, &why);
    int want = grid_parse((const char *)data, size, &g, &want_why);
    FUZZ_CHECK(got == want && (got == 0 || strcmp(why, want_why) == 0),
               "c4moves_parse says %d (%s), the grid %d (%s)", got, got ? why : "",
               want, want ? want_why : "");
    if (got != 0)
        return;
    char text[GAME_FORMAT_MAX];
    size_t n = 0;
    for (int r = C4_HEIGHT - 1; r >= 0; r--) {
        for (int c = 0; c < C4_WIDTH; c++)
            text[n++] = (char)('0' + g.cell[c][r]);
        text[n++] = '\n';
    }
    text[n++] = (char)('1' + g.moves % 2);
    text[n++] = '\n';
    text[n] = '\0';
    struct c4_pos q;
    struct err e;
    FUZZ_CHECK(game_connect4.parse(&q, text, n, &e) == 0, "the grid's board is rejected: %s\n%s",
               e.msg, text);
    FUZZ_CHECK(memcmp(&p, &q, sizeof p) == 0, "c4moves_parse built another position:\n%s",
               text);
}

static int count_lines(const char *s, size_t len, const char *skip)
{
    int n = 0;
    for (const char *p = s; p < s + len;) {
        const char *nl = memchr(p, '\n', (size_t)(s + len - p));
        const char *end = nl ? nl : s + len;
        if (!skip || !memmem(p, (size_t)(end - p), skip, strlen(skip)))
            n++;
        p = end + 1;
    }
    return n;
}

static void check_solve_lines(const uint8_t *data, size_t size)
{
    /* The first SOLVE_LINES lines only: every line is a solve. */
    size_t len = 0;
    for (int lines = 0; len < size && lines < SOLVE_LINES; len++)
        lines += data[len] == '\n';
    char *copy;
    FILE *in = fuzz_input(data, len, &copy);
    struct fuzz_out out, diag;
    fuzz_out_open(&out);
    fuzz_out_open(&diag);
    struct c4s s;
    FUZZ_CHECK(c4s_init(&s, SOLVE_TT) == 0, "out of memory for the solver");
    c4s_set_budget(&s, 0, SOLVE_NODES);
    int rc = c4solvelines_run(&s, in, NAME, size % 2, out.f, diag.f);
    c4s_free(&s);
    fclose(in);
    fuzz_out_close(&out);
    fuzz_out_close(&diag);
    int lines = count_lines(copy, len, NULL);
    int answered = count_lines(out.buf, out.len, NULL);
    /* A differing score is reported beside its result line. */
    int bad = count_lines(diag.buf, diag.len, ", solved ");
    int differed = count_lines(diag.buf, diag.len, NULL) - bad;
    FUZZ_CHECK(answered + bad == lines, "%d lines, %d results and %d errors:\n%s---\n%s", lines,
               answered, bad, out.buf, diag.buf);
    FUZZ_CHECK(rc == (bad ? EXIT_BAD_INPUT : differed ? 1 : 0),
               "status %d with %d bad lines and %d differing scores", rc, bad, differed);
    FUZZ_CHECK(diag.len == 0 || strncmp(diag.buf, NAME ":", strlen(NAME) + 1) == 0,
               "diag does not name the input: %s", diag.buf);
    fuzz_out_free(&out);
    fuzz_out_free(&diag);
    free(copy);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    check_parse(data, size);
    check_solve_lines(data, size);
    return 0;
}
