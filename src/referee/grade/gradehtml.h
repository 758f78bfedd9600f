/*
 * gradehtml.h - the grade's two HTML pages (gradeout.h), self-contained
 * (style inline: report_html.h's sheet with boardhtml.h's board cells and
 * the game's board rules; nothing fetched; the feedback page's one script
 * is boardhtml.h's board drawing, which draws its boards):
 *   feedback  one submission: its total, its build and engine, then each
 *             check (what ran, the score, the output) with its evidence,
 *             each failure in gradewhy.h's words (the referee's forfeit
 *             reason, the ply): the failing positions drawn as the game
 *             draws them (boardhtml.h) with the given and the best moves,
 *             every game with its opening, result and final position or
 *             the position it forfeited at, the stderr and stdout tails,
 *             the io differences side by side, and for cpu checks the
 *             curve (an SVG of median CPU ms against depth, both axes
 *             valued, a depth where a move failed marked "failed") and its
 *             table
 *   index     the class: the totals' distribution (an SVG histogram of
 *             eleven bars, 0-9 % of the maximum to 90-99 % and full marks
 *             apart, each with its count, both axes valued), each check's
 *             pass rate (full points) and mean, and a row per submission
 *             linking ID/feedback.html, each score short of its points
 *             saying why (gradewhy.h's short reason; the check's output
 *             line as its title)
 * Every text from a submission or the journal is HTML-escaped.
 */
#ifndef ARENA_GRADEHTML_H
#define ARENA_GRADEHTML_H

#include "gradeout.h"

/* The pages as malloc'd NUL-terminated text, or NULL when out of memory. */
char *ghtml_feedback(const struct gout_class *c, const struct gout_row *row);
char *ghtml_index(const struct gout_class *c);

#endif
