/*
 * boardhtml.h - a board file drawn as static HTML, the one drawing of a
 * position that the HTML report's replay (report_html_page.c), the play
 * page (playsrv_page.c) and the grade's pages (gradehtml.h) share: the same
 * markup, classes and style sheet, from the game's struct game_drawing
 * (game.h: layout, style rules, labels).
 *
 * The markup, which the two scripts build in the browser and
 * boardhtml_write writes here for pages without a script:
 *   grid     <table class="board GAME">, a <tr> per line of the board file
 *            but the last (the player to move), a <td class="c cN"> per
 *            character, N its code ("c c49" for '1')
 *   checker  the same, each cell also "dark" or "light" ((row + col) odd:
 *            dark), with a <span> on every cell not '.' holding the
 *            piece's letter from the labels ("B=K W=K")
 *   rows     <div class="rows GAME">, a <div> per number of the first line:
 *            "ROW: ||| (COUNT)"
 * BOARDHTML_STYLE dresses .board and its cells; the game's style rules
 * (classes under .GAME) follow it on the page. A game without style rules
 * (a judge's plain grid) gets each cell's character written in it, so its
 * board still shows.
 */
#ifndef ARENA_BOARDHTML_H
#define ARENA_BOARDHTML_H

#include <stdio.h>
#include "arena/game.h"

/* The board cells' style sheet: a string literal, so that each page's own
 * sheet (a literal too) is built around it at compile time. */
#define BOARDHTML_STYLE                                                                         \
    ".board{border-collapse:separate;border-spacing:2px;background:#2458b3;margin:.5em 0}\n"    \
    ".board td{width:26px;height:26px;padding:0;border:0;border-radius:50%;background:#fff;"    \
    "text-align:center;vertical-align:middle}\n"                                                \
    ".rows div{font-family:monospace}\n"

/* Writes the board file text (game.h's format, NUL-terminated) drawn as
 * g->drawing says (NULL g or drawing: a grid) to f. A text with no line
 * before the last, or a rows layout without numbers, draws nothing but
 * that is not an error: the caller shows the text beside it. */
void boardhtml_write(FILE *f, const struct game *g, const char *text);

/* The game's own style rules for its boards ("" when none): after
 * BOARDHTML_STYLE on a page. */
const char *boardhtml_game_style(const struct game *g);

#endif
