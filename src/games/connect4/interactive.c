/*
 * interactive.c - the Max-Connect4 seed's interactive loop (interactive.h).
 * Human columns are 0-based here because the seed says so; the move lines
 * keep the sample program's 1-based "column C" so transcripts read like
 * one-move output.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "arena/connect4.h"
#include "arena/interactive.h"
#include "arena/search.h"
#include "arena/textfile.h"

#define LINE_MAX_LEN 1024    /* characters of an answer */

static int save(const struct interactive_opts *o, const char *name, const void *state,
                FILE *diag)
{
    char path[4096];
    struct err e;
    snprintf(path, sizeof path, "%s/%s", o->dir, name);
    if (game_write_file(o->game, path, state, &e) != 0) {
        err_print(diag, path, &e);
        return -1;
    }
    return 0;
}

/* Shows the board; 1 when the game is over (and says so). */
static int show(const struct game *g, const void *state, FILE *out)
{
    fputs("game state:\n", out);
    g->print(out, state);
    if (game_result(g, state) >= 0) {
        g->print_over(out, state);
        return 1;
    }
    return 0;
}

/* Reads the human's column; -1 at end of input. One answer is one whole
 * line (tf_getline): a long line is one invalid answer, not several, and a
 * NUL byte cannot cut an answer short. */
static int ask_human(const struct game *g, const void *state, FILE *in, FILE *out)
{
    char line[LINE_MAX_LEN + 1];
    for (;;) {
        fprintf(out, "Your move, player %d: enter a column from 0 (leftmost) to 6 (rightmost): ",
                g->to_move(state));
        fflush(out);
        enum tf_getline_result r = tf_getline(in, line, LINE_MAX_LEN);
        if (r == TF_LINE_EOF || r == TF_LINE_FAILED)
            return -1;
        if (r == TF_LINE_TOO_LONG)
            line[0] = '\0';   /* never a column */
        char *end;
        errno = 0;
        long col = strtol(line, &end, 10);
        /* Digits first: a blank answer (or a CRLF empty line's "\r") is no
         * column, though skipping its blanks moves end past its start. */
        int digits = end != line;
        while (*end == ' ' || *end == '\t' || *end == '\r')
            end++;
        if (digits && *end == '\0' && !errno && col >= 0 && col < C4_WIDTH
            && c4_can_play(state, (int)col))
            return (int)col;
        fputs("Invalid move: the column must be a number from 0 to 6 and not full.\n", out);
    }
}

int interactive_run(const struct interactive_opts *o, FILE *in, FILE *out, FILE *diag)
{
    const struct game *g = o->game;
    unsigned char state[GAME_MAX_STATE];
    struct err e;
    struct stat st;
    if (stat(o->in, &st) != 0 && errno == ENOENT) {
        game_init(g, state);
    } else if (game_read_file(g, o->in, state, &e) != 0) {
        err_print(diag, o->in, &e);
        return EXIT_BAD_INPUT;
    }

    struct search s;
    struct search_opts so = search_opts_default();
    so.tt_bytes = o->tt_bytes;
    if (search_init(&s, g, &so) != 0) {
        fputs("maxconnect4: out of memory\n", diag);
        return 1;
    }
    int status = 0, computer = o->computer_next;
    fprintf(out, "\n%s\n", g->title);
    while (!show(g, state, out)) {
        int mover = g->to_move(state), move;
        if (computer) {
            struct search_result r;
            search_alphabeta(&s, state, o->depth, &r);
            move = r.move;
        } else {
            move = ask_human(g, state, in, out);
            if (move < 0) {
                fputs("\nEnd of input: game stopped.\n", out);
                break;
            }
        }
        g->play(state, move);
        g->print_move(out, state, move, mover);
        if (save(o, computer ? "computer.txt" : "human.txt", state, diag) != 0) {
            status = EXIT_BAD_INPUT;
            break;
        }
        computer = !computer;
    }
    search_free(&s);
    return status;
}
