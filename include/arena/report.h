/*
 * report.h - `referee report`: a journal's or match log's tally (tally.h)
 * printed as text, JSON, CSV or an HTML page. Each format has its renderer
 * of its own (report_text.h, report_json.h, report_csv.h, report_html.h);
 * this module reads the file and picks one. Only the HTML page shows the
 * games themselves, so it keeps them while the file is read.
 */
#ifndef ARENA_REPORT_H
#define ARENA_REPORT_H

#include <stdio.h>
#include "arena/err.h"
#include "arena/report_csv.h"
#include "arena/tally.h"

enum report_format { REPORT_TEXT, REPORT_JSON, REPORT_CSV, REPORT_HTML };
/* Prints the report of t in format f (sorts t's samples in place): text,
 * JSON and HTML hold every table, CSV the one table (report_csv.h); an HTML
 * page printed from a tally alone has no games. */
void report_print(struct tally *t, enum report_format f, enum report_csv_table table,
                  FILE *out);

struct judge_cmd;
/* Prints the report of a journal or match log. A judge's journal is read
 * through judge, the judge the user named (--judge and --judge-sandbox,
 * judge.h; NULL: none), checked
 * against its header (judge_game_of): the HTML replay needs it, the other
 * formats read results only and run it only when named. 0, or -1 with e
 * (e->line: the journal line of a bad record; nothing printed then), or
 * JUDGE_FAILED with e when the judge failed (judge.h). */
int report_file(const char *path, const struct judge_cmd *judge, enum report_format f,
                enum report_csv_table table, FILE *out, struct err *e);
/* report_file with the ratings of n anchors fixed (--anchor, tally.h); an
 * anchor that names no engine of the journal is an error (-1, e filled,
 * nothing printed). */
int report_file_anchored(const char *path, const struct judge_cmd *judge,
                         const struct tally_anchor *anchor, int n, enum report_format f,
                         enum report_csv_table table, FILE *out, struct err *e);

#endif
