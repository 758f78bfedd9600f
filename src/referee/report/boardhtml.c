/*
 * boardhtml.c - what the C pages hand the one board drawing script
 * (boardhtml.h): a game's drawing as attributes, and a board left for the
 * script to draw. The script itself is boardhtml.h's BOARDHTML_SCRIPT.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>
#include "boardhtml.h"
#include "arena/escape.h"

static const struct game_drawing *drawing_of(const struct game *g)
{
    return g ? g->drawing : NULL;
}

const char *boardhtml_layout(const struct game *g)
{
    const struct game_drawing *d = drawing_of(g);
    return game_draw_layout_name[d ? d->layout : GAME_DRAW_GRID];
}

const char *boardhtml_labels(const struct game *g)
{
    const struct game_drawing *d = drawing_of(g);
    return d && d->labels ? d->labels : "";
}

const char *boardhtml_game_style(const struct game *g)
{
    const struct game_drawing *d = drawing_of(g);
    return d && d->style ? d->style : "";
}

void boardhtml_attributes(FILE *f, const struct game *g)
{
    assert(f);
    fprintf(f, " data-layout=\"%s\"", boardhtml_layout(g));
    if (boardhtml_labels(g)[0]) {
        fputs(" data-labels=\"", f);
        esc_html(boardhtml_labels(g), f);
        fputc('"', f);
    }
    if (!boardhtml_game_style(g)[0])
        fputs(" data-plain=\"\"", f);
}

/* text HTML-escaped for an attribute with LF endings: a board file read
 * with CRLF or CR-only endings reaches the script as the game wrote it
 * (esc_html would show a CR as U+FFFD). */
static void write_lf(FILE *f, const char *text)
{
    char *copy = malloc(strlen(text) + 1), *out = copy;
    if (!copy) {   /* out of memory: the text as it is */
        esc_html(text, f);
        return;
    }
    for (const char *p = text; *p; p++)
        if (*p != '\r')
            *out++ = *p;
        else if (p[1] != '\n')   /* CR alone ends a line; CRLF's LF follows */
            *out++ = '\n';
    *out = '\0';
    esc_html(copy, f);
    free(copy);
}

void boardhtml_board(FILE *f, const struct game *g, const char *text)
{
    assert(f && text);
    fputs("<div class=\"drawn\"", f);
    if (g) {
        fputs(" data-game=\"", f);
        esc_html(g->name, f);
        fputc('"', f);
    }
    boardhtml_attributes(f, g);
    fputs(" data-board=\"", f);
    write_lf(f, text);
    fputs("\"></div>\n", f);
}
