/*
 * report_html.h - the HTML report: one self-contained page (styles and
 * script inline, nothing fetched) that shows a tournament without reading
 * a line of text: the standings with each engine's Elo and error bar drawn
 * as an SVG chart, the pairs with their pentanomial counts, the W-L-D
 * crosstable, CPU per move as one box per engine, the referee's overhead,
 * the forfeits, and every game replayable move by move on a drawn board.
 *
 * Everything is written by this C code as static HTML and SVG, so the page
 * reads with JavaScript off; the inline script (report_html_script) only
 * adds the replay's board and controls. Every text from a journal (engine
 * names, reasons, moves, stderr) is HTML-escaped.
 *
 * Representation: the games section is written while the journal is
 * scanned, one record at a time, into a temporary file (so memory does not
 * grow with the journal), and copied after the tables, which need the
 * whole tally. Each game carries its positions as board files (game.h's
 * format): the start in data-start and, per ply (opening moves first), the
 * bytes that changed in data-diff: plies separated by ';', each change
 * OFFSET ':' CHAR (one byte; CHAR may be any byte, ';' included), or
 * '*' LENGTH ':' TEXT when the board's length changed. The positions come
 * from replaying the record through the game's own rules (registry.h); a
 * game the registry does not know, or a move that is not legal where it
 * stands, ends the drawn replay there (said on the page).
 */
#ifndef ARENA_REPORT_HTML_H
#define ARENA_REPORT_HTML_H

#include <stdio.h>
#include "arena/err.h"
#include "arena/game.h"
#include "arena/record.h"
#include "arena/tally.h"

struct report_html {
    char game_name[REC_NAME_MAX];   /* the header's "game"; "" when missing */
    const struct game *game;        /* NULL: not a game of the registry */
    FILE *games, *forfeits;         /* temporary files of the two sections */
    long ngames, nforfeits, nblunders;
};

/* Starts the game sections for a journal of game game_name (the header's
 * "game", may be ""), whose rules are game (NULL: none known; the caller's,
 * alive until report_html). 0, or -1 with e filled (no temporary file). Free
 * with report_html_free either way. */
int report_html_start(struct report_html *h, const char *game_name, const struct game *game,
                      struct err *e);
/* Adds one record (decoded, tallied) to the games and forfeits sections.
 * 0, or -1 with e filled (a write failed). */
int report_html_add(struct report_html *h, const struct game_record *rec, struct err *e);
void report_html_free(struct report_html *h);

/* Prints the page of t on out, with h's games and forfeits (h may be NULL:
 * the page then says no games were kept). Sorts t's samples in place. */
void report_html(struct tally *t, struct report_html *h, FILE *out);

/* The page's script and style sheet, as embedded (for the tests). */
extern const char report_html_script[];
extern const char report_html_style[];

#endif
