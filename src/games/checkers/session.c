/*
 * session.c - the `checkers` binary's replay of an action list from stdin,
 * printed exactly as the course's program prints it (checkers.h): header,
 * boards, the seed's six error messages, and the A and P commands played by
 * the one search with the seed's minimax options.
 */
#include <ctype.h>
#include <string.h>
#include "arena/checkers.h"
#include "arena/textfile.h"

#define CK_DELIMITER "=====================================\n"   /* the seed's 37 '=' */
#define CK_INPUT_NAME "stdin"          /* names the input in file:line:col errors */
#define CK_ROW_DIGITS_CAP 100          /* a row number this big is off the board anyway */
#define CK_SESSION_TT_BYTES ((size_t)TT_DEFAULT_MB << 20)

static const char *const check_message[] = {
    [CK_SOURCE_OUTSIDE] = "Source cell is outside of the board.",
    [CK_TARGET_OUTSIDE] = "Target cell is outside of the board.",
    [CK_SOURCE_EMPTY] = "Source cell is empty.",
    [CK_TARGET_NOT_EMPTY] = "Target cell is not empty.",
    [CK_SOURCE_OPPONENT] = "Source cell holds opponent's piece/tower.",
    [CK_ILLEGAL] = "Illegal action.",
};

/* What a line of input asks for. */
enum ck_line_kind { CK_LINE_ACTION, CK_LINE_COMMAND };

struct ck_line {
    enum ck_line_kind kind;
    char command;             /* 'A' or 'P' */
    /* 0-based, possibly off the board: the seed's checks judge them. */
    int src_row, src_col, dst_row, dst_col;
};

static void print_action(FILE *out, const struct ck_pos *after, int move, int number,
                         int computed)
{
    char text[GAME_MOVE_TEXT_MAX];
    ck_move_text(move, text, sizeof text);
    fputs(CK_DELIMITER, out);
    fprintf(out, "%s%s ACTION #%d: %s\n", computed ? "*** " : "",
            ck_side_label(after->to_move ^ 1), number, text);
    fprintf(out, "BOARD COST: %d\n", ck_cost(after));
    ck_print_board(out, after);
}

/* A cell such as G6 starting at s[i]: a letter, then a row number. Any
 * letter and number are a cell; the seed's checks decide whether it lies on
 * the board. Returns the index after the cell, or -1 with e filled. */
static int parse_cell_text(const char *s, int len, int i, int lineno, int *row, int *col,
                           struct err *e)
{
    if (i >= len || !isalpha((unsigned char)s[i]) || i + 1 >= len
        || !isdigit((unsigned char)s[i + 1]))
        return err_set(e, lineno, i + 1, "expected a cell such as G6 (column letter, row number)");
    *col = s[i++] - 'A';
    int v = 0;
    for (; i < len && isdigit((unsigned char)s[i]); i++)
        if (v < CK_ROW_DIGITS_CAP)
            v = v * 10 + (s[i] - '0');
    *row = v - 1;
    return i;
}

/* Parses one non-blank line (start..end of s, columns counted in s).
 * Returns 0, or -1 with e filled. */
static int parse_line(const char *s, int start, int end, int lineno, struct ck_line *l,
                      struct err *e)
{
    if (end - start == 1 && (s[start] == 'A' || s[start] == 'P')) {
        l->kind = CK_LINE_COMMAND;
        l->command = s[start];
        return 0;
    }
    l->kind = CK_LINE_ACTION;
    int i = parse_cell_text(s, end, start, lineno, &l->src_row, &l->src_col, e);
    if (i < 0)
        return -1;
    if (i >= end || s[i] != '-')
        return err_set(e, lineno, i + 1, "expected '-' between the two cells (as in G6-F5)");
    i = parse_cell_text(s, end, i + 1, lineno, &l->dst_row, &l->dst_col, e);
    if (i < 0)
        return -1;
    if (i != end)
        return err_set(e, lineno, i + 1, "unexpected text after the action");
    return 0;
}

/* Reads lines until one that is not blank. Returns 1 with *l filled, 0 at
 * the end of input, -1 with e filled. */
static int next_line(FILE *in, int *lineno, struct ck_line *l, struct err *e)
{
    char buf[CK_LINE_MAX + 1];
    for (;;) {
        enum tf_getline_result r = tf_getline(in, buf, CK_LINE_MAX);
        if (r == TF_LINE_EOF)
            return 0;
        if (r == TF_LINE_FAILED)
            return err_set(e, 0, 0, "cannot read the input");
        ++*lineno;
        if (r == TF_LINE_TOO_LONG)
            return err_set(e, *lineno, CK_LINE_MAX + 1, "line longer than %d characters",
                           CK_LINE_MAX);
        int start = 0, end = (int)strlen(buf);
        while (start < end && (buf[start] == ' ' || buf[start] == '\t'))
            start++;
        /* CRLF input leaves its CR at the end of the line. */
        while (end > start && strchr(" \t\r", buf[end - 1]))
            end--;
        if (start == end)
            continue;
        return parse_line(buf, start, end, *lineno, l, e) == 0 ? 1 : -1;
    }
}

/* The command's turns (none without a command, then only the end of the
 * game is checked): each either finds that the side to move cannot act,
 * prints the winner and ends play, or plays the search's choice. Returns
 * 0, or -1 when out of memory. */
static int play_turns(struct ck_pos *p, int turns, int depth, int *number, FILE *out)
{
    if (turns == 0) {
        if (!ck_has_action(p))
            ck_print_winner(out, p);
        return 0;
    }
    struct search s;
    struct search_opts so = ck_search_opts(CK_SESSION_TT_BYTES);
    if (search_init(&s, &game_checkers, &so) != 0)
        return -1;
    for (int t = 0; t < turns; t++) {
        if (!ck_has_action(p)) {
            ck_print_winner(out, p);
            break;
        }
        struct search_result r;
        search_alphabeta(&s, p, depth, &r);
        ck_play(p, r.move);
        print_action(out, p, r.move, ++*number, 1);
    }
    search_free(&s);
    return 0;
}

int ck_session_run(const struct ck_session_opts *o, FILE *in, FILE *out, FILE *diag)
{
    struct ck_pos p = *o->start;
    fprintf(out, "BOARD SIZE: %dx%d\n", CK_SIZE, CK_SIZE);
    fprintf(out, "#BLACK PIECES: %d\n", ck_count(&p, CK_BLACK));
    fprintf(out, "#WHITE PIECES: %d\n", ck_count(&p, CK_WHITE));
    ck_print_board(out, &p);

    int lineno = 0, number = 0, rc;
    struct ck_line l = { .kind = CK_LINE_ACTION };
    struct err e;
    while ((rc = next_line(in, &lineno, &l, &e)) == 1 && l.kind == CK_LINE_ACTION) {
        int move = 0;
        enum ck_action_check c = ck_check_action(&p, l.src_row, l.src_col, l.dst_row, l.dst_col,
                                                 &move);
        if (c != CK_ACTION_OK) {
            fprintf(out, "ERROR: %s\n", check_message[c]);
            return EXIT_BAD_INPUT;
        }
        ck_play(&p, move);
        print_action(out, &p, move, ++number, 0);
    }
    if (rc < 0) {
        fflush(out);
        err_print(diag, CK_INPUT_NAME, &e);
        return EXIT_BAD_INPUT;
    }
    int turns = rc == 0 ? 0 : l.command == 'A' ? 1 : CK_PLAY_TURNS;
    if (play_turns(&p, turns, o->depth, &number, out) != 0) {
        fflush(out);
        fputs("checkers: out of memory for the search\n", diag);
        return 1;
    }
    return 0;
}
