/*
 * test_boardfile.c - the Connect-4 board-file reader and the text-file layer
 * under it.
 *
 * Covers:
 *   - game_connect4.parse / game_maxconnect4.parse: every accepted variant of
 *     a board file (LF, CRLF and CR-only endings, no final newline, trailing
 *     spaces, trailing empty lines) gives the same position as the canonical
 *     text; format() gives the canonical LF text back byte for byte;
 *   - every rejection, with its exact line, column and message (one
 *     parameterised table run against both rule sets), plus the classic
 *     rule set's extra check (the side to move cannot already hold a four);
 *   - tf_split (line splitting, the line limit, NUL bytes), tf_read (exact
 *     bytes, size cap, missing file, directory) and tf_write_atomic (exact
 *     bytes, missing folder, no temporary file left behind), each in a fresh
 *     folder from mkdtemp that the fixture removes afterwards;
 *   - tf_utf8_copy (valid UTF-8 kept, every other byte '?'), tf_check_creatable
 *     (the reason when not, no probe left) and tf_copy_head;
 *   - tf_remove_at: a tree deeper than PATH_MAX, a chmod 000 folder, a link
 *     whose target stays.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "arena/connect4.h"
#include "arena/err.h"
#include "arena/game.h"
#include "arena/rng.h"
#include "arena/textfile.h"

/* The 1-based line of the player-to-move line: right after the board rows. */
#define PLAYER_LINE (C4_HEIGHT + 1)
/* Room for any variant of a board file the tests build. */
#define TEXT_MAX 4096
/* Random positions checked by the format/parse round trip. */
#define ROUND_TRIP_POSITIONS 500
#define ROUND_TRIP_SEED UINT64_C(0x0B0A4DF11E)

/* A string literal and its length, NUL bytes inside it included. */
#define TEXT(s) s, sizeof(s) - 1

/* An empty board row, with its LF ending. */
#define ROW0 "0000000\n"
/* Four or five empty rows: the top of a board file. */
#define TOP4 ROW0 ROW0 ROW0 ROW0
#define TOP5 TOP4 ROW0

/* Player 1 has five discs, player 2 four, player 2 to move. */
static const char canonical[] =
    "0000000\n"
    "0000000\n"
    "0000000\n"
    "0001000\n"
    "0012000\n"
    "1221210\n"
    "2\n";

static const struct game *const both_games[] = { &game_connect4, &game_maxconnect4 };
#define GAME_COUNT (sizeof both_games / sizeof both_games[0])

/* ---- helpers ---------------------------------------------------------- */

/* Parses text that must be accepted; fails the test with the error if not. */
static struct c4_pos parse_ok(const struct game *g, const char *text, size_t len)
{
    struct c4_pos p;
    struct err e = { 0, 0, "" };
    int rc = g->parse(&p, text, len, &e);
    cr_assert_eq(rc, 0, "%s rejected the board (%d:%d: %s):\n%.*s", g->name, e.line, e.col,
                 e.msg, (int)len, text);
    return p;
}

/* Rewrites canonical LF text with another line ending and, after every
 * line, `pad` (trailing spaces); `final` 0 drops the last line ending. */
static size_t rewrite(const char *lf_text, const char *eol, const char *pad, int final,
                      char *out)
{
    size_t n = 0, len = strlen(lf_text);
    for (size_t i = 0; i < len; i++) {
        if (lf_text[i] != '\n') {
            out[n++] = lf_text[i];
            continue;
        }
        memcpy(out + n, pad, strlen(pad));
        n += strlen(pad);
        if (final || i + 1 < len) {
            memcpy(out + n, eol, strlen(eol));
            n += strlen(eol);
        }
    }
    out[n] = '\0';
    return n;
}

/* The variant parses, in both rule sets, to the canonical position. */
static void assert_same_as_canonical(const char *text, size_t len)
{
    for (size_t i = 0; i < GAME_COUNT; i++) {
        const struct game *g = both_games[i];
        struct c4_pos want = parse_ok(g, canonical, strlen(canonical));
        struct c4_pos got = parse_ok(g, text, len);
        cr_assert_eq(memcmp(&want, &got, sizeof want), 0,
                     "%s: the variant parses to another position:\n%.*s", g->name, (int)len,
                     text);
    }
}

/* parse then format gives the text back, byte for byte, in both rule sets. */
static void assert_round_trip(const char *text)
{
    for (size_t i = 0; i < GAME_COUNT; i++) {
        const struct game *g = both_games[i];
        struct c4_pos p = parse_ok(g, text, strlen(text));
        char buf[GAME_FORMAT_MAX];
        size_t n = g->format(&p, buf);
        cr_assert_eq(n, strlen(text), "%s: format wrote %zu bytes, expected %zu", g->name, n,
                     strlen(text));
        cr_assert_str_eq(buf, text, "%s: format gave\n%s\ninstead of\n%s", g->name, buf, text);
    }
}

static void assert_err(const struct err *e, int line, int col, const char *msg,
                       const char *what)
{
    cr_assert_eq(e->line, line, "%s: line %d, expected %d (%s)", what, e->line, line, e->msg);
    cr_assert_eq(e->col, col, "%s: col %d, expected %d (%s)", what, e->col, col, e->msg);
    cr_assert_str_eq(e->msg, msg, "%s: message \"%s\", expected \"%s\"", what, e->msg, msg);
}

/* ---- accepted variants ------------------------------------------------- */

Test(boardfile, accepts_lf_line_endings)
{
    assert_same_as_canonical(canonical, strlen(canonical));
}

Test(boardfile, accepts_crlf_line_endings)
{
    char text[TEXT_MAX];
    size_t n = rewrite(canonical, "\r\n", "", 1, text);
    assert_same_as_canonical(text, n);
}

Test(boardfile, accepts_cr_only_line_endings)
{
    char text[TEXT_MAX];
    size_t n = rewrite(canonical, "\r", "", 1, text);
    assert_same_as_canonical(text, n);
}

Test(boardfile, accepts_missing_final_newline)
{
    const char *endings[] = { "\n", "\r\n", "\r" };
    for (size_t i = 0; i < sizeof endings / sizeof endings[0]; i++) {
        char text[TEXT_MAX];
        size_t n = rewrite(canonical, endings[i], "", 0, text);
        cr_assert_neq(text[n - 1], '\n');
        cr_assert_neq(text[n - 1], '\r');
        assert_same_as_canonical(text, n);
    }
}

Test(boardfile, accepts_trailing_spaces_on_lines)
{
    const char *endings[] = { "\n", "\r\n", "\r" };
    for (size_t i = 0; i < sizeof endings / sizeof endings[0]; i++) {
        char text[TEXT_MAX];
        size_t n = rewrite(canonical, endings[i], "   ", 1, text);
        assert_same_as_canonical(text, n);
        n = rewrite(canonical, endings[i], " ", 0, text);
        assert_same_as_canonical(text, n);
    }
}

Test(boardfile, accepts_trailing_empty_lines)
{
    const char *tails[] = { "\n", "\n\n\n", "  \n \n", "\r\n\r\n", "\r\r", "   " };
    for (size_t i = 0; i < sizeof tails / sizeof tails[0]; i++) {
        char text[TEXT_MAX];
        snprintf(text, sizeof text, "%s%s", canonical, tails[i]);
        assert_same_as_canonical(text, strlen(text));
    }
}

Test(boardfile, accepts_mixed_line_endings)
{
    static const char text[] =
        "0000000\r\n"
        "0000000\r"
        "0000000\n"
        "0001000  \r\n"
        "0012000\r"
        "1221210 \n"
        "2 \r\n"
        "\r\n";
    assert_same_as_canonical(text, strlen(text));
}

Test(boardfile, parse_sets_discs_player_and_move_count)
{
    struct c4_pos p = parse_ok(&game_maxconnect4, canonical, strlen(canonical));
    /* Bottom row "1221210", then "0012000", then "0001000". */
    static const int bottom[C4_WIDTH] = { 1, 2, 2, 1, 2, 1, 0 };
    for (int c = 0; c < C4_WIDTH; c++)
        cr_assert_eq(c4_cell(&p, c, 0), bottom[c], "cell (%d,0) = %d", c, c4_cell(&p, c, 0));
    cr_assert_eq(c4_cell(&p, 2, 1), 1);
    cr_assert_eq(c4_cell(&p, 3, 1), 2);
    cr_assert_eq(c4_cell(&p, 3, 2), 1);
    cr_assert_eq(c4_cell(&p, 3, 3), 0);
    cr_assert_eq(p.moves, 9, "moves %d", p.moves);
    cr_assert_eq(p.to_move, 1, "to_move %d", p.to_move);
    cr_assert_eq(game_maxconnect4.to_move(&p), 2);
    static const uint8_t zero_pad[sizeof p.pad] = { 0 };
    cr_assert_eq(memcmp(p.pad, zero_pad, sizeof p.pad), 0, "padding not zeroed");
}

/* ---- round trip --------------------------------------------------------- */

Test(boardfile, format_round_trips_canonical_text)
{
    static const char *const boards[] = {
        /* The start position. */
        TOP5 ROW0 "1\n",
        /* Player 2 moved first, nothing on the board yet. */
        TOP5 ROW0 "2\n",
        /* Player 2 to move, player 1 one disc ahead. */
        canonical,
        /* Player 2 started; player 1 to move with one disc fewer. */
        TOP4 "2000000\n" "2100012\n" "1\n",
        /* Full board, no four for anyone. */
        "1212121\n"
        "1212121\n"
        "1212121\n"
        "2121212\n"
        "2121212\n"
        "2121212\n"
        "1\n",
        /* Player 1's four in the bottom row: over for connect4, not for
         * maxconnect4; player 2 to move. */
        TOP4 "2220000\n" "1111000\n" "2\n",
    };
    for (size_t i = 0; i < sizeof boards / sizeof boards[0]; i++)
        assert_round_trip(boards[i]);
}

Test(boardfile, format_then_parse_gives_back_random_positions)
{
    struct rng r;
    rng_seed(&r, ROUND_TRIP_SEED);
    for (int i = 0; i < ROUND_TRIP_POSITIONS; i++) {
        struct c4_pos want;
        c4_init(&want);
        int n = (int)rng_below(&r, C4_CELLS + 1);
        for (int k = 0; k < n; k++) {
            int moves[GAME_MAX_MOVES];
            int m = game_maxconnect4.gen(&want, moves);
            game_maxconnect4.play(&want, moves[rng_below(&r, (uint32_t)m)]);
        }
        char buf[GAME_FORMAT_MAX];
        size_t len = game_maxconnect4.format(&want, buf);
        struct c4_pos got = parse_ok(&game_maxconnect4, buf, len);
        cr_assert_eq(memcmp(&want, &got, sizeof want), 0, "position %d did not survive:\n%s",
                     i, buf);
    }
}

/* ---- accepted move orders ----------------------------------------------- */

Test(boardfile, player_two_may_move_first)
{
    static const char *const boards[] = {
        TOP5 ROW0 "2\n",              /* equal counts, player 2 to move */
        TOP5 "2000000\n" "1\n",       /* player 2 moved, player 1 to move */
        TOP5 "2100000\n" "2\n",       /* one each, player 2 to move again */
    };
    for (size_t i = 0; i < sizeof boards / sizeof boards[0]; i++) {
        for (size_t k = 0; k < GAME_COUNT; k++) {
            struct c4_pos p = parse_ok(both_games[k], boards[i], strlen(boards[i]));
            int want = boards[i][strlen(boards[i]) - 2] - '0';
            cr_assert_eq(both_games[k]->to_move(&p), want, "board %zu: player %d to move", i,
                         both_games[k]->to_move(&p));
        }
    }
}

Test(boardfile, connect4_accepts_a_finished_game)
{
    /* Player 1 has just made four; player 2, to move, has lost. */
    static const char text[] = TOP4 "2220000\n" "1111000\n" "2\n";
    struct c4_pos p = parse_ok(&game_connect4, text, strlen(text));
    int value = 0;
    cr_assert_eq(game_connect4.terminal(&p, &value), 1);
    cr_assert_eq(value, -SCORE_WIN, "value %d", value);
}

/* ---- rejected inputs ------------------------------------------------------ */

struct reject_case {
    const char *what;   /* for failure messages */
    const char *text;
    size_t len;         /* NUL bytes inside text count */
    int line;
    int col;
    const char *msg;
};

#define ROWS6 TOP5 "1200000\n"   /* a valid board: one disc each */

static const struct reject_case reject_cases[] = {
    /* The file ends before the board does. */
    { "empty file", TEXT(""), 1, 1, "missing board row 1 of 6 (7 digits 0, 1 or 2)" },
    { "blank lines only", TEXT("\n\n  \r\n"), 1, 1,
      "missing board row 1 of 6 (7 digits 0, 1 or 2)" },
    { "three rows", TEXT(ROW0 ROW0 ROW0), 4, 1,
      "missing board row 4 of 6 (7 digits 0, 1 or 2)" },
    { "five rows, no final newline", TEXT(ROW0 ROW0 ROW0 ROW0 "0000000"), 6, 1,
      "missing board row 6 of 6 (7 digits 0, 1 or 2)" },
    /* Rows of the wrong length. */
    { "short row", TEXT(ROW0 ROW0 "00000\n" ROW0 ROW0 "1200000\n1\n"), 3, 6,
      "row has 5 cells, expected 7" },
    { "long row", TEXT(ROW0 "00000000\n" ROW0 ROW0 ROW0 "1200000\n1\n"), 2, 8,
      "row has 8 cells, expected 7" },
    { "blank row inside the board", TEXT(ROW0 "\n" ROW0 ROW0 ROW0 "1200000\n1\n"), 2, 1,
      "row has 0 cells, expected 7" },
    { "player line where the bottom row belongs", TEXT(TOP5 "1\n"), 6, 2,
      "row has 1 cells, expected 7" },
    /* Wrong characters in a row. */
    { "letter", TEXT("000x000\n" ROW0 ROW0 ROW0 ROW0 "1200000\n1\n"), 1, 4,
      "unexpected character 'x', expected 0, 1 or 2" },
    { "digit 3", TEXT(TOP5 "1300000\n1\n"), 6, 2,
      "unexpected character '3', expected 0, 1 or 2" },
    { "space inside a row", TEXT(ROW0 ROW0 ROW0 ROW0 "000 000\n" "1200000\n1\n"), 5, 4,
      "unexpected character ' ', expected 0, 1 or 2" },
    { "leading space", TEXT(" 000000\n" ROW0 ROW0 ROW0 ROW0 "1200000\n1\n"), 1, 1,
      "unexpected character ' ', expected 0, 1 or 2" },
    { "tab", TEXT(TOP5 "12\t0000\n1\n"), 6, 3,
      "unexpected byte 0x09, expected 0, 1 or 2" },
    { "control byte", TEXT(ROW0 ROW0 ROW0 "00\x01" "0000\n" ROW0 "1200000\n1\n"), 4, 3,
      "unexpected byte 0x01, expected 0, 1 or 2" },
    { "DEL byte", TEXT(ROW0 ROW0 "000000\x7F\n" ROW0 ROW0 "1200000\n1\n"), 3, 7,
      "unexpected byte 0x7F, expected 0, 1 or 2" },
    { "byte above 0x7F", TEXT(ROW0 "\xE9" "000000\n" ROW0 ROW0 ROW0 "1200000\n1\n"), 2, 1,
      "unexpected byte 0xE9, expected 0, 1 or 2" },
    /* Discs that do not rest on discs: the floating disc's own place. */
    { "floating disc", TEXT(ROW0 ROW0 ROW0 "0020000\n" ROW0 "1000000\n1\n"), 4, 3,
      "floating disc: the cell below it is empty" },
    { "disc over an empty bottom cell",
      TEXT(TOP4 "0000010\n" "1200000\n2\n"), 5, 6,
      "floating disc: the cell below it is empty" },
    { "disc over a gap", TEXT(ROW0 ROW0 ROW0 "0100000\n" ROW0 "1200000\n2\n"), 4, 2,
      "floating disc: the cell below it is empty" },
    { "two floating discs: the topmost first",
      TEXT(ROW0 "0000002\n" ROW0 "1000000\n" ROW0 "1200000\n1\n"), 2, 7,
      "floating disc: the cell below it is empty" },
    /* The player line. */
    { "no player line", TEXT(ROWS6), PLAYER_LINE, 1,
      "missing the player-to-move line (1 or 2)" },
    { "no player line, blank lines after the board", TEXT(ROWS6 "\n \r\n\n"), PLAYER_LINE,
      1, "missing the player-to-move line (1 or 2)" },
    { "empty player line", TEXT(ROWS6 "\n1\n"), PLAYER_LINE, 1,
      "empty player line, expected 1 or 2" },
    { "player 3", TEXT(ROWS6 "3\n"), PLAYER_LINE, 1,
      "unexpected character '3', expected the player to move, 1 or 2" },
    { "player 0", TEXT(ROWS6 "0\n"), PLAYER_LINE, 1,
      "unexpected character '0', expected the player to move, 1 or 2" },
    { "space before the player", TEXT(ROWS6 " 1\n"), PLAYER_LINE, 1,
      "unexpected character ' ', expected the player to move, 1 or 2" },
    { "player 12", TEXT(ROWS6 "12\n"), PLAYER_LINE, 2,
      "unexpected character '2', expected the end of the line" },
    { "player 1 2", TEXT(ROWS6 "1 2\n"), PLAYER_LINE, 2,
      "unexpected character ' ', expected the end of the line" },
    { "tab after the player", TEXT(ROWS6 "1\t\n"), PLAYER_LINE, 2,
      "unexpected byte 0x09, expected the end of the line" },
    { "text after the player line", TEXT(ROWS6 "1\n1\n"), PLAYER_LINE + 1, 1,
      "unexpected text after the player line" },
    { "text after the player line, CRLF", TEXT(ROWS6 "1\r\nfoo\r\n"), PLAYER_LINE + 1, 1,
      "unexpected text after the player line" },
    /* Disc counts that do not fit the player to move. */
    { "player 1 to move, one disc ahead", TEXT(TOP5 "1000000\n1\n"), PLAYER_LINE, 1,
      "player 1 cannot be to move with 1 discs of player 1 and 0 of player 2" },
    { "player 2 to move, two discs behind", TEXT(TOP5 "1100000\n2\n"), PLAYER_LINE, 1,
      "player 2 cannot be to move with 2 discs of player 1 and 0 of player 2" },
    { "player 2 to move, one disc ahead", TEXT(TOP5 "2000000\n2\n"), PLAYER_LINE, 1,
      "player 2 cannot be to move with 0 discs of player 1 and 1 of player 2" },
    { "player 1 to move, two discs behind", TEXT(TOP5 "2212000\n1\n"), PLAYER_LINE, 1,
      "player 1 cannot be to move with 1 discs of player 1 and 3 of player 2" },
    /* NUL bytes, wherever they are. */
    { "NUL in a row", TEXT(ROW0 "00\0" "0000\n" ROW0 ROW0 ROW0 "1200000\n1\n"), 2, 3,
      "NUL byte in a text file" },
    { "NUL in a CRLF file", TEXT("0000000\r\n0000000\r\n000\0" "000\r\n"), 3, 4,
      "NUL byte in a text file" },
    { "NUL on the player line", TEXT(ROWS6 "1\0\n"), PLAYER_LINE, 2,
      "NUL byte in a text file" },
    { "NUL after the last line", TEXT(ROWS6 "1\n\0"), PLAYER_LINE + 1, 1,
      "NUL byte in a text file" },
};
#define REJECT_CASES (sizeof reject_cases / sizeof reject_cases[0])

/* Criterion runs each parameter in a fresh process, where pointers into this
 * one's memory mean nothing: the parameter is the row's index in the table. */
ParameterizedTestParameters(boardfile, rejects_bad_files_with_line_col_and_message)
{
    static int rows[REJECT_CASES];
    for (size_t i = 0; i < REJECT_CASES; i++)
        rows[i] = (int)i;
    return cr_make_param_array(int, rows, REJECT_CASES);
}

ParameterizedTest(int *row, boardfile, rejects_bad_files_with_line_col_and_message)
{
    const struct reject_case *c = &reject_cases[*row];
    for (size_t i = 0; i < GAME_COUNT; i++) {
        const struct game *g = both_games[i];
        struct c4_pos p;
        struct err e = { 0, 0, "" };
        int rc = g->parse(&p, c->text, c->len, &e);
        cr_assert_eq(rc, -1, "%s: %s accepted it", c->what, g->name);
        char what[ERR_MSG_MAX + 32];
        snprintf(what, sizeof what, "%s (%s)", c->what, g->name);
        assert_err(&e, c->line, c->col, c->msg, what);
    }
}

/* The classic rule set stops at the first four, so the side to move cannot
 * hold one; Max-Connect4 plays on and accepts the same board. */
static void assert_only_maxconnect4_accepts(const char *text, int mover)
{
    struct c4_pos p;
    struct err e = { 0, 0, "" };
    cr_assert_eq(game_connect4.parse(&p, text, strlen(text), &e), -1,
                 "connect4 accepted a side to move holding four:\n%s", text);
    char msg[ERR_MSG_MAX];
    snprintf(msg, sizeof msg,
             "impossible position: player %d is to move but already has four in a row", mover);
    assert_err(&e, PLAYER_LINE, 1, msg, "connect4");
    p = parse_ok(&game_maxconnect4, text, strlen(text));
    cr_assert_eq(game_maxconnect4.to_move(&p), mover);
}

Test(boardfile, connect4_rejects_player_1_to_move_holding_four)
{
    /* Player 1: a vertical four in column 1; player 2: four discs, no line. */
    assert_only_maxconnect4_accepts(ROW0 ROW0
                                    "1000000\n"
                                    "1000000\n"
                                    "1200000\n"
                                    "1220200\n"
                                    "1\n",
                                    1);
}

Test(boardfile, connect4_rejects_player_2_to_move_holding_four)
{
    /* Player 2 started and holds the bottom row's four; player 1 has four
     * discs and no line. */
    assert_only_maxconnect4_accepts(TOP4 "1110000\n" "2222100\n" "2\n", 2);
}

/* Reported line of "unexpected text after the player line" when blank lines
 * separate it from the player line: the text itself is on line 10. */
Test(boardfile, text_after_blank_lines_reports_the_line_of_the_text)
{
    static const char text[] = ROWS6 "1\n\n\nfoo\n";
    for (size_t i = 0; i < GAME_COUNT; i++) {
        struct c4_pos p;
        struct err e = { 0, 0, "" };
        cr_assert_eq(both_games[i]->parse(&p, text, strlen(text), &e), -1);
        assert_err(&e, PLAYER_LINE + 3, 1, "unexpected text after the player line",
                   both_games[i]->name);
    }
}

/* ---- tf_split ------------------------------------------------------------ */

Test(boardfile, split_drops_endings_trailing_spaces_and_trailing_empty_lines)
{
    static const char text[] = "ab  \r\n\r c d\rxyz\n \n\r\n  ";
    struct tf_lines L;
    struct err e = { 0, 0, "" };
    cr_assert_eq(tf_split(text, strlen(text), &L, &e), 0, "%s", e.msg);
    /* "ab", "", " c d", "xyz"; the blank lines after it are not kept. */
    cr_assert_eq(L.n, 4, "n %d", L.n);
    static const char *const want[] = { "ab", "", " c d", "xyz" };
    for (int i = 0; i < L.n; i++) {
        cr_assert_eq(L.line[i].len, (int)strlen(want[i]), "line %d len %d", i + 1,
                     L.line[i].len);
        cr_assert_eq(memcmp(L.line[i].s, want[i], strlen(want[i])), 0, "line %d", i + 1);
    }
    /* Lines point into the text itself. */
    cr_assert_eq(L.line[0].s, text);
}

Test(boardfile, split_of_empty_text_has_no_lines)
{
    struct tf_lines L;
    struct err e = { 0, 0, "" };
    cr_assert_eq(tf_split("", 0, &L, &e), 0);
    cr_assert_eq(L.n, 0, "n %d", L.n);
}

Test(boardfile, split_takes_the_line_limit_and_refuses_one_more)
{
    char text[TEXT_MAX];
    size_t n = 0;
    for (int i = 0; i < TF_MAX_LINES; i++)
        n += (size_t)snprintf(text + n, sizeof text - n, "x\n");
    /* Trailing empty lines past the limit are still ignored. */
    n += (size_t)snprintf(text + n, sizeof text - n, "\n\n");
    struct tf_lines L;
    struct err e = { 0, 0, "" };
    cr_assert_eq(tf_split(text, n, &L, &e), 0, "%s", e.msg);
    cr_assert_eq(L.n, TF_MAX_LINES, "n %d", L.n);

    n += (size_t)snprintf(text + n, sizeof text - n, "y\n");
    cr_assert_eq(tf_split(text, n, &L, &e), -1);
    char msg[ERR_MSG_MAX];
    snprintf(msg, sizeof msg, "too many lines (more than %d)", TF_MAX_LINES);
    /* The extra line is line 67: 64 lines, two blank ones, then "y". */
    assert_err(&e, TF_MAX_LINES + 3, 1, msg, "tf_split");
}

Test(boardfile, parse_reports_too_many_lines)
{
    char text[TEXT_MAX];
    size_t n = (size_t)snprintf(text, sizeof text, "%s", ROWS6 "1\n");
    for (int i = PLAYER_LINE; i < TF_MAX_LINES + 1; i++)
        n += (size_t)snprintf(text + n, sizeof text - n, "z\n");
    struct c4_pos p;
    struct err e = { 0, 0, "" };
    cr_assert_eq(game_maxconnect4.parse(&p, text, n, &e), -1);
    char msg[ERR_MSG_MAX];
    snprintf(msg, sizeof msg, "too many lines (more than %d)", TF_MAX_LINES);
    assert_err(&e, TF_MAX_LINES + 1, 1, msg, "maxconnect4");
}

/* ---- files: a fresh folder per test ----------------------------------- */

static char temp_dir[] = "/tmp/arena-boardfile-XXXXXX";
static int temp_dir_made;

static void make_temp_dir(void)
{
    if (!mkdtemp(temp_dir))
        cr_assert_fail("mkdtemp: %s", strerror(errno));
    temp_dir_made = 1;
}

static void remove_temp_dir(void)
{
    if (temp_dir_made)
        tf_remove_tree(temp_dir);
}

static void temp_path(const char *name, char *out)
{
    snprintf(out, PATH_MAX, "%s/%s", temp_dir, name);
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The folder's entries (without . and ..), sorted, joined by spaces into out;
 * returns how many there are. */
static int list_dir(const char *dir, char *out, size_t cap)
{
    enum { MAX_ENTRIES = 32 };
    char names[MAX_ENTRIES][NAME_MAX + 1];
    char *sorted[MAX_ENTRIES];
    int n = 0;
    DIR *d = opendir(dir);
    cr_assert_not_null(d, "opendir %s: %s", dir, strerror(errno));
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
            continue;
        cr_assert_lt(n, MAX_ENTRIES, "too many entries in %s", dir);
        snprintf(names[n], sizeof names[n], "%s", de->d_name);
        sorted[n] = names[n];
        n++;
    }
    closedir(d);
    qsort(sorted, (size_t)n, sizeof sorted[0], compare_names);
    size_t len = 0;
    out[0] = '\0';
    for (int i = 0; i < n; i++)
        len += (size_t)snprintf(out + len, cap - len, "%s%s", i ? " " : "", sorted[i]);
    return n;
}

static void write_plain_file(const char *path, const char *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f, "fopen %s: %s", path, strerror(errno));
    cr_assert_eq(fwrite(data, 1, len, f), len);
    cr_assert_eq(fclose(f), 0);
}

/* The file holds exactly len bytes of data. */
static void assert_file_bytes(const char *path, const char *data, size_t len)
{
    char *text = NULL;
    size_t n = 0;
    struct err e = { 0, 0, "" };
    cr_assert_eq(tf_read(path, TF_DEFAULT_CAP, &text, &n, &e), 0, "tf_read %s: %s", path,
                 e.msg);
    cr_assert_eq(n, len, "%s holds %zu bytes, expected %zu", path, n, len);
    cr_assert_eq(memcmp(text, data, len), 0, "%s: other bytes than written", path);
    free(text);
}

/* ---- tf_read ------------------------------------------------------------- */

Test(boardfile, read_returns_exact_bytes_nul_terminated, .init = make_temp_dir,
     .fini = remove_temp_dir)
{
    static const char data[] = "0000000\r\n\x01\xFF\0tail";
    char path[PATH_MAX];
    temp_path("board.txt", path);
    write_plain_file(path, data, sizeof data - 1);
    char *text = NULL;
    size_t n = 0;
    struct err e = { 0, 0, "" };
    cr_assert_eq(tf_read(path, TF_DEFAULT_CAP, &text, &n, &e), 0, "%s", e.msg);
    cr_assert_eq(n, sizeof data - 1, "len %zu", n);
    cr_assert_eq(memcmp(text, data, n), 0);
    cr_assert_eq(text[n], '\0', "not NUL-terminated");
    free(text);
}

Test(boardfile, read_of_empty_file_gives_empty_text, .init = make_temp_dir,
     .fini = remove_temp_dir)
{
    char path[PATH_MAX];
    temp_path("empty.txt", path);
    write_plain_file(path, "", 0);
    char *text = NULL;
    size_t n = 1;
    struct err e = { 0, 0, "" };
    cr_assert_eq(tf_read(path, TF_DEFAULT_CAP, &text, &n, &e), 0, "%s", e.msg);
    cr_assert_eq(n, 0);
    cr_assert_str_eq(text, "");
    free(text);
}

Test(boardfile, read_takes_exactly_cap_bytes_and_refuses_one_more, .init = make_temp_dir,
     .fini = remove_temp_dir)
{
    enum { CAP = 8 };
    char path[PATH_MAX];
    temp_path("capped.txt", path);
    char *text = NULL;
    size_t n = 0;
    struct err e = { 0, 0, "" };

    write_plain_file(path, "12345678", CAP);
    cr_assert_eq(tf_read(path, CAP, &text, &n, &e), 0, "%s", e.msg);
    cr_assert_eq(n, CAP);
    free(text);

    write_plain_file(path, "123456789", CAP + 1);
    text = NULL;
    cr_assert_eq(tf_read(path, CAP, &text, &n, &e), -1);
    cr_assert_null(text, "text set on failure");
    assert_err(&e, 0, 0, "file is larger than 8 bytes", "tf_read");
}

/* The buffer starts at the file's reported size and grows: a file that
 * reports 0 bytes (procfs) is still read whole, and still capped. */
Test(boardfile, read_grows_past_the_reported_size)
{
    char *text = NULL;
    size_t n = 0;
    struct err e = { 0, 0, "" };
    cr_assert_eq(tf_read("/proc/self/status", TF_DEFAULT_CAP, &text, &n, &e), 0, "%s", e.msg);
    cr_assert(n > 0 && strncmp(text, "Name:", 5) == 0 && text[n] == '\0', "%zu bytes", n);
    free(text);
    cr_assert_eq(tf_read("/proc/self/status", 8, &text, &n, &e), -1);
    assert_err(&e, 0, 0, "file is larger than 8 bytes", "tf_read");
}

Test(boardfile, read_of_missing_file_fails_without_place, .init = make_temp_dir,
     .fini = remove_temp_dir)
{
    char path[PATH_MAX];
    temp_path("absent.txt", path);
    char *text = NULL;
    size_t n = 0;
    struct err e = { 0, 0, "" };
    cr_assert_eq(tf_read(path, TF_DEFAULT_CAP, &text, &n, &e), -1);
    char msg[ERR_MSG_MAX];
    snprintf(msg, sizeof msg, "cannot open: %s", strerror(ENOENT));
    assert_err(&e, 0, 0, msg, "tf_read");
}

Test(boardfile, read_of_directory_fails, .init = make_temp_dir, .fini = remove_temp_dir)
{
    char *text = NULL;
    size_t n = 0;
    struct err e = { 0, 0, "" };
    cr_assert_eq(tf_read(temp_dir, TF_DEFAULT_CAP, &text, &n, &e), -1);
    assert_err(&e, 0, 0, "is a directory, not a board file", "tf_read");
}

/* ---- tf_write_atomic ------------------------------------------------------ */

Test(boardfile, write_atomic_writes_exact_bytes_and_leaves_no_temp_file,
     .init = make_temp_dir, .fini = remove_temp_dir)
{
    static const char data[] = "0000000\n\r\n\0\x01\xFFlast line without newline";
    char path[PATH_MAX];
    temp_path("board.txt", path);
    struct err e = { 0, 0, "" };
    cr_assert_eq(tf_write_atomic(path, data, sizeof data - 1, &e), 0, "%s", e.msg);
    assert_file_bytes(path, data, sizeof data - 1);

    char listing[PATH_MAX];
    int n = list_dir(temp_dir, listing, sizeof listing);
    cr_assert_eq(n, 1, "folder holds %d entries: %s", n, listing);
    cr_assert_str_eq(listing, "board.txt");
}

Test(boardfile, write_atomic_replaces_an_existing_file, .init = make_temp_dir,
     .fini = remove_temp_dir)
{
    char path[PATH_MAX];
    temp_path("board.txt", path);
    write_plain_file(path, "a much longer old content that must disappear\n", 46);
    struct err e = { 0, 0, "" };
    cr_assert_eq(tf_write_atomic(path, "new\n", 4, &e), 0, "%s", e.msg);
    assert_file_bytes(path, "new\n", 4);
    cr_assert_eq(tf_write_atomic(path, "", 0, &e), 0, "%s", e.msg);
    assert_file_bytes(path, "", 0);

    char listing[PATH_MAX];
    int n = list_dir(temp_dir, listing, sizeof listing);
    cr_assert_eq(n, 1, "folder holds %d entries: %s", n, listing);
    cr_assert_str_eq(listing, "board.txt");
}

Test(boardfile, write_atomic_gives_the_file_the_umask_mode, .init = make_temp_dir,
     .fini = remove_temp_dir)
{
    char path[PATH_MAX];
    temp_path("board.txt", path);
    umask(022);   /* each test runs in its own process */
    struct err e = { 0, 0, "" };
    cr_assert_eq(tf_write_atomic(path, "x\n", 2, &e), 0, "%s", e.msg);
    struct stat st;
    cr_assert_eq(stat(path, &st), 0);
    cr_assert_eq(st.st_mode & 0777, 0644, "mode %o", (unsigned)(st.st_mode & 0777));
}

Test(boardfile, write_atomic_never_writes_through_a_taken_temp_name, .init = make_temp_dir,
     .fini = remove_temp_dir)
{
    /* Left by an earlier process with this pid: a file, and a link aimed at
     * a file outside. Both keep their bytes; the write takes the next name. */
    char path[PATH_MAX], stale[PATH_MAX], lnk[PATH_MAX], victim[PATH_MAX], name[NAME_MAX];
    temp_path("board.txt", path);
    snprintf(name, sizeof name, "board.txt.tmp%ld-0", (long)getpid());
    temp_path(name, stale);
    snprintf(name, sizeof name, "board.txt.tmp%ld-1", (long)getpid());
    temp_path(name, lnk);
    temp_path("victim", victim);
    write_plain_file(stale, "stale\n", 6);
    write_plain_file(victim, "keep\n", 5);
    cr_assert_eq(symlink(victim, lnk), 0, "symlink: %s", strerror(errno));
    struct err e = { 0, 0, "" };
    cr_assert_eq(tf_write_atomic(path, "new\n", 4, &e), 0, "%s", e.msg);
    assert_file_bytes(path, "new\n", 4);
    assert_file_bytes(stale, "stale\n", 6);
    assert_file_bytes(victim, "keep\n", 5);
    char listing[PATH_MAX];
    int n = list_dir(temp_dir, listing, sizeof listing);
    cr_assert_eq(n, 4, "folder holds %d entries: %s", n, listing);
}

Test(boardfile, write_atomic_into_missing_folder_fails_and_creates_nothing,
     .init = make_temp_dir, .fini = remove_temp_dir)
{
    char path[PATH_MAX];
    temp_path("missing/board.txt", path);
    struct err e = { 0, 0, "" };
    cr_assert_eq(tf_write_atomic(path, "x\n", 2, &e), -1);
    char msg[ERR_MSG_MAX];
    snprintf(msg, sizeof msg, "cannot create: %s", strerror(ENOENT));
    assert_err(&e, 0, 0, msg, "tf_write_atomic");

    char listing[PATH_MAX];
    int n = list_dir(temp_dir, listing, sizeof listing);
    cr_assert_eq(n, 0, "folder holds %d entries: %s", n, listing);
}

Test(boardfile, write_atomic_over_a_folder_fails_and_leaves_no_temp_file,
     .init = make_temp_dir, .fini = remove_temp_dir)
{
    char path[PATH_MAX];
    temp_path("target", path);
    cr_assert_eq(mkdir(path, 0700), 0);
    struct err e = { 0, 0, "" };
    cr_assert_eq(tf_write_atomic(path, "x\n", 2, &e), -1);
    cr_assert_eq(e.line, 0, "line %d", e.line);
    cr_assert_eq(strncmp(e.msg, "cannot write: ", strlen("cannot write: ")), 0, "msg %s",
                 e.msg);

    char listing[PATH_MAX];
    int n = list_dir(temp_dir, listing, sizeof listing);
    cr_assert_eq(n, 1, "folder holds %d entries: %s", n, listing);
    cr_assert_str_eq(listing, "target");
    struct stat st;
    cr_assert_eq(stat(path, &st), 0);
    cr_assert(S_ISDIR(st.st_mode), "the folder was replaced");
}

/* ---- game_write_file / game_read_file ----------------------------------- */

Test(boardfile, game_files_round_trip_through_disk, .init = make_temp_dir,
     .fini = remove_temp_dir)
{
    char path[PATH_MAX];
    temp_path("board.txt", path);
    for (size_t i = 0; i < GAME_COUNT; i++) {
        const struct game *g = both_games[i];
        struct c4_pos want = parse_ok(g, canonical, strlen(canonical)), got;
        struct err e = { 0, 0, "" };
        cr_assert_eq(game_write_file(g, path, &want, &e), 0, "%s: %s", g->name, e.msg);
        assert_file_bytes(path, canonical, strlen(canonical));
        cr_assert_eq(game_read_file(g, path, &got, &e), 0, "%s: %s", g->name, e.msg);
        cr_assert_eq(memcmp(&want, &got, sizeof want), 0, "%s", g->name);
    }
}

Test(boardfile, game_read_file_reports_parse_errors_with_place, .init = make_temp_dir,
     .fini = remove_temp_dir)
{
    char path[PATH_MAX];
    temp_path("bad.txt", path);
    static const char text[] = "0000000\r\n0000000\r\n00000\r\n";
    write_plain_file(path, text, strlen(text));
    struct c4_pos p;
    struct err e = { 0, 0, "" };
    cr_assert_eq(game_read_file(&game_connect4, path, &p, &e), -1);
    assert_err(&e, 3, 6, "row has 5 cells, expected 7", "game_read_file");
}

/* ---- tf_utf8_copy, tf_check_creatable, tf_copy_head --------------------- */

struct utf8_case {
    char in[16];
    size_t len;
    char out[16];
};

ParameterizedTestParameters(boardfile, utf8_copy_keeps_text_and_marks_the_rest)
{
    static struct utf8_case cases[] = {
        { "plain\n", 6, "plain\n" },
        { "caf\xc3\xa9", 5, "caf\xc3\xa9" },               /* é */
        { "\xa9tail", 5, "?tail" },                         /* a cut character's rest */
        { "a\0b", 3, "a?b" },                               /* NUL */
        { "\xc3", 1, "?" },                                 /* cut at the end */
        { "\xe0\x80\x80", 3, "???" },                       /* overlong */
        { "\xed\xa0\x80", 3, "???" },                       /* a surrogate */
        { "\xf0\x9f\x98\x80!", 5, "\xf0\x9f\x98\x80!" },   /* U+1F600 */
        { "\xf4\x90\x80\x80", 4, "????" },                  /* past U+10FFFF */
    };
    return cr_make_param_array(struct utf8_case, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct utf8_case *c, boardfile, utf8_copy_keeps_text_and_marks_the_rest)
{
    char out[32];
    size_t n = tf_utf8_copy(out, c->in, c->len);
    cr_assert_str_eq(out, c->out);
    cr_assert_eq(n, strlen(c->out));
}

Test(boardfile, check_creatable_says_why_not, .init = make_temp_dir, .fini = remove_temp_dir)
{
    char path[PATH_MAX], missing[PATH_MAX + 16];
    struct err e;
    temp_path("log.json", path);
    cr_assert_eq(tf_check_creatable(path, &e), 0, "%s", e.msg);
    int n = list_dir(temp_dir, path, sizeof path);
    cr_assert_eq(n, 0, "the probe was left: %s", path);
    snprintf(missing, sizeof missing, "%s/none/log.json", temp_dir);
    cr_assert_eq(tf_check_creatable(missing, &e), -1);
    char want[PATH_MAX + 64];
    snprintf(want, sizeof want, "cannot create files in %s/none: No such file or directory",
             temp_dir);
    cr_assert_str_eq(e.msg, want);
    cr_assert_eq(tf_check_creatable(temp_dir, &e), -1);
    snprintf(want, sizeof want, "%s is a folder", temp_dir);
    cr_assert_str_eq(e.msg, want);
}

Test(boardfile, copy_head_copies_from_the_start, .init = make_temp_dir, .fini = remove_temp_dir)
{
    FILE *from = tmpfile(), *to = tmpfile();
    fputs("0123456789", from);
    fflush(from);
    cr_assert_eq(tf_copy_head(fileno(from), 4, fileno(to)), 0);
    cr_assert_eq(tf_copy_head(fileno(from), 11, fileno(to)), -1, "past the end");
    char buf[32] = "";
    rewind(to);
    cr_assert_eq(fread(buf, 1, sizeof buf - 1, to), 14);
    cr_assert_str_eq(buf, "01230123456789");
    fclose(from);
    fclose(to);
}

/* ---- tf_remove_at -------------------------------------------------------- */

/* A folder chain of depth levels (each name 30 bytes: deeper than PATH_MAX
 * past 132), made by descriptor, a file at the bottom. */
static void deep_chain(int top, int depth)
{
    int fd = dup(top);
    for (int i = 0; i < depth; i++) {
        cr_assert_eq(mkdirat(fd, "dddddddddddddddddddddddddddddd", 0755), 0, "level %d", i);
        int child = openat(fd, "dddddddddddddddddddddddddddddd", O_RDONLY | O_DIRECTORY);
        cr_assert_geq(child, 0);
        close(fd);
        fd = child;
    }
    int f = openat(fd, "bottom", O_WRONLY | O_CREAT, 0644);
    cr_assert_geq(f, 0);
    close(f);
    close(fd);
}

/* A tree deeper than PATH_MAX, a chmod 000 folder holding a file, and a
 * symlink to a file outside: all removed by descriptor, the link's target
 * kept. */
Test(boardfile, remove_at_takes_deep_trees_and_locked_folders, .init = make_temp_dir,
     .fini = remove_temp_dir)
{
    char tree[PATH_MAX], outside[PATH_MAX], path[PATH_MAX + 64];
    snprintf(tree, sizeof tree, "%s/tree", temp_dir);
    snprintf(outside, sizeof outside, "%s/outside", temp_dir);
    write_plain_file(outside, "kept", 4);
    cr_assert_eq(mkdir(tree, 0755), 0);
    int top = open(tree, O_RDONLY | O_DIRECTORY);
    cr_assert_geq(top, 0);
    deep_chain(top, 200);
    cr_assert_eq(mkdirat(top, "locked", 0755), 0);
    snprintf(path, sizeof path, "%s/locked/file", tree);
    write_plain_file(path, "x", 1);
    snprintf(path, sizeof path, "%s/locked", tree);
    cr_assert_eq(chmod(path, 0), 0);
    cr_assert_eq(symlinkat(outside, top, "link"), 0);
    close(top);
    int dir = open(temp_dir, O_RDONLY | O_DIRECTORY);
    cr_assert_eq(tf_remove_at(dir, "tree"), 0, "tf_remove_at: %s", strerror(errno));
    close(dir);
    struct stat st;
    cr_assert_neq(lstat(tree, &st), 0, "the tree is left");
    assert_file_bytes(outside, "kept", 4);
    cr_assert_eq(tf_remove_tree(tree), 0, "nothing there: nothing to do");
}
