/*
 * gradehtml.h - the grade's two HTML pages (gradeout.h), self-contained
 * (style inline: report_html.h's sheet, nothing fetched, no script):
 *   feedback  one submission: its total, its build and engine, then each
 *             check (what ran, the score, the output) with its evidence:
 *             the failing positions drawn with the expected and the given
 *             move, the games with their openings, results and forfeit
 *             reasons, the stderr tails, the io differences side by side,
 *             the CPU curve (an SVG line) for cpu checks
 *   index     the class: the totals' distribution (an SVG histogram of ten
 *             bins), each check's pass rate (full points) and mean, and a
 *             row per submission linking ID/feedback.html
 * Every text from a submission or the journal is HTML-escaped.
 */
#ifndef ARENA_GRADEHTML_H
#define ARENA_GRADEHTML_H

#include "arena/gradeout.h"

/* The pages as malloc'd NUL-terminated text, or NULL when out of memory. */
char *ghtml_feedback(const struct gout_class *c, const struct gout_row *row);
char *ghtml_index(const struct gout_class *c);

#endif
