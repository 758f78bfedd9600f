/*
 * boardhtml.h - the one drawing of a board: the script that draws a board
 * file in the browser, its style sheet, and what the C pages hand it, all
 * from the game's struct game_drawing (game.h: layout, style rules,
 * labels). The HTML report's replay (report_html_page.c), the play page
 * (playsrv_page.c) and the grade's feedback pages (gradehtml.h) paste
 * BOARDHTML_SCRIPT into their own script and draw every board with it, so
 * a game draws the same on the three pages and no page's script names a
 * game.
 *
 * Why here, in report/: check-layers.sh sees src/referee as one module of
 * layer 3 (its folders are concerns, not layers), so serve/ and grade/ may
 * include it; it includes only core (game.h, escape.h) and nothing of
 * serve/ or grade/, so it sits beneath them with no cycle; and the report
 * is where the referee's HTML lives (grade's pages already build on its
 * style sheet, report_html.h). Below the referee (core, engine) no layer
 * writes a page.
 *
 * What the script draws, from a board file (game.h's format) and a spec
 * (boardSpec: the game's name, layout, labels, and whether the game has
 * no style rules of its own, "plain"): the board file's lines but the last
 * (the player to move), as
 *   grid     <table class="board GAME">, a <tr> per line, a
 *            <td class="c cN"> per character, N its code ("c c49" for '1')
 *   checker  the same, each cell also "dark" or "light" ((row + col) odd:
 *            dark, "dark c c98"), with a <span> on every cell not '.'
 *            holding the piece's letter from the labels ("B=K W=K")
 *   rows     <div class="rows GAME">, a <div> per number of the first
 *            line: "ROW: ||| (COUNT)" (at most BOARDHTML_ROW_BARS bars; a
 *            word that is no count shown as it is: "ROW: WORD")
 * A plain game's cells (a judge without a drawing) hold their character,
 * so its board still shows; a styled game's cells are dressed by its
 * rules. BOARDHTML_STYLE dresses .board and its cells; the game's style
 * rules (classes under .GAME) follow it on the page.
 *
 * The script's functions (plain declarations, pasted inside each page's
 * own function scope):
 *   boardLines(text)            the board file's drawn lines
 *   boardSpec(game, layout, labels, plain)   a spec from its parts (the
 *                               play page's, from /api/info)
 *   boardSpecOf(el, game)       a spec from el's data-layout, data-labels
 *                               and data-plain (boardhtml_attributes)
 *   boardDraw(spec, text, on)   the board's element, not yet placed; on
 *                               (optional) {cell(td, row, col), row(div,
 *                               row)} is called for every cell or row made,
 *                               for the page's own attributes and handlers
 *   boardPiece(spec, ch)        one piece alone, as a one-cell board (the
 *                               report's legend)
 *   boardFill(root)             draws into every element under root that
 *                               boardhtml_board wrote
 */
#ifndef ARENA_BOARDHTML_H
#define ARENA_BOARDHTML_H

#include <stdio.h>
#include "arena/game.h"

/* Bars of a rows layout's row at most: a row of more is drawn cut, its
 * count beside it still exact (Nim's heaps are a few matches; a judge's
 * count of a billion would otherwise hang the page). */
#define BOARDHTML_ROW_BARS 200
#define BOARDHTML_STR_(x) #x
#define BOARDHTML_STR(x) BOARDHTML_STR_(x)

/* The board cells' style sheet: a string literal, so that each page's own
 * sheet (a literal too) is built around it at compile time. */
#define BOARDHTML_STYLE                                                                         \
    ".board{border-collapse:separate;border-spacing:2px;background:#2458b3;margin:.5em 0}\n"    \
    ".board td{width:26px;height:26px;padding:0;border:0;border-radius:50%;background:#fff;"    \
    "text-align:center;vertical-align:middle}\n"                                                \
    ".rows div{font-family:monospace}\n"

/* The drawing script (above): a string literal, for the same reason. It
 * holds no "]]>" (the report's CDATA) and no "</" (a page's <script>). */
#define BOARDHTML_SCRIPT                                                                        \
    "function boardLines(text){var L=text.split('\\n');while(L.length&&L[L.length-1]==='')"     \
    "L.pop();L.pop();return L;}\n"                                                              \
    "function boardSpec(game,layout,labels,plain){var lab={};(labels||'').split(' ')."          \
    "forEach(function(p){if(p)lab[p[0]]=p.slice(2);});\n"                                      \
    " return {game:game||'',layout:layout||'grid',labels:lab,plain:!!plain};}\n"                \
    "function boardSpecOf(el,game){return boardSpec(game,el.getAttribute('data-layout'),"       \
    "el.getAttribute('data-labels'),el.hasAttribute('data-plain'));}\n"                         \
    "function boardCell(tr,s,ch,shade){var td=document.createElement('td');"                    \
    "td.className=(shade?shade+' ':'')+'c c'+ch.charCodeAt(0);\n"                               \
    " if(s.layout==='checker'&&ch!=='.'){var p=document.createElement('span');"                 \
    "p.textContent=s.labels[ch]||'';td.appendChild(p);}\n"                                      \
    " else if(s.plain)td.textContent=ch;\n"                                                     \
    " tr.appendChild(td);return td;}\n"                                                         \
    "function boardTable(s){var tb=document.createElement('table');"                            \
    "tb.className='board'+(s.game?' '+s.game:'');return tb;}\n"                                 \
    "function boardRows(s,line,on){var d=document.createElement('div');"                        \
    "d.className='rows'+(s.game?' '+s.game:'');\n"                                              \
    " (line||'').split(' ').filter(function(h){return h!=='';}).forEach(function(h,r){"         \
    "var row=document.createElement('div');\n"                                                  \
    "  row.textContent=r+': '+(/^[0-9]+$/.test(h)?new Array(Math.min(+h,"                      \
    BOARDHTML_STR(BOARDHTML_ROW_BARS) ")+1).join('|')+' ('+h+')':h);\n"                         \
    "  if(on.row)on.row(row,r);d.appendChild(row);});\n"                                        \
    " return d;}\n"                                                                             \
    "function boardDraw(s,text,on){var L=boardLines(text);on=on||{};\n"                         \
    " if(s.layout==='rows')return boardRows(s,L[0],on);\n"                                      \
    " var tb=boardTable(s);\n"                                                                  \
    " L.forEach(function(line,r){var tr=document.createElement('tr');tb.appendChild(tr);\n"     \
    "  for(var c=0;c<line.length;c++){var td=boardCell(tr,s,line[c],s.layout==='checker'?"     \
    "((r+c)%2?'dark':'light'):'');\n"                                                           \
    "   if(on.cell)on.cell(td,r,c);}});\n"                                                      \
    " return tb;}\n"                                                                            \
    "function boardPiece(s,ch){var tb=boardTable(s),tr=document.createElement('tr');"           \
    "tb.appendChild(tr);boardCell(tr,s,ch,s.layout==='checker'?'dark':'');return tb;}\n"        \
    "function boardFill(root){[].forEach.call(root.querySelectorAll('[data-board]'),"           \
    "function(el){\n"                                                                           \
    " el.textContent='';el.appendChild(boardDraw(boardSpecOf(el,el.getAttribute('data-game')),"  \
    "el.getAttribute('data-board')));});}\n"

/* The game's layout by its name ("grid", "checker", "rows"; g NULL or
 * without a drawing: "grid"). */
const char *boardhtml_layout(const struct game *g);
/* The game's labels ("B=K W=K"), or "" when none. */
const char *boardhtml_labels(const struct game *g);
/* The game's own style rules for its boards ("" when none: a plain game,
 * whose cells show their characters): after BOARDHTML_STYLE on a page. */
const char *boardhtml_game_style(const struct game *g);

/* Writes g's drawing as the attributes boardSpecOf reads, each with its
 * leading space: ' data-layout="L"', then ' data-labels="..."' when g has
 * labels, ' data-plain=""' when it has no style rules (HTML-escaped). */
void boardhtml_attributes(FILE *f, const struct game *g);

/* Writes the element boardFill draws a board into: a <div class="drawn">
 * with data-game (g's name; none for NULL g), g's attributes and the board
 * file text (NUL-terminated, any line ending: written with LF) in
 * data-board, empty until the page's script draws it. */
void boardhtml_board(FILE *f, const struct game *g, const char *text);

#endif
