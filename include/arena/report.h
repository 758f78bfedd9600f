/*
 * report.h - `referee report`: a journal's or match log's tally (tally.h)
 * printed as text, JSON or CSV. Each format has its renderer of its own
 * (report_text.h, report_json.h, report_csv.h); this module reads the file
 * and picks one.
 */
#ifndef ARENA_REPORT_H
#define ARENA_REPORT_H

#include <stdio.h>
#include "arena/err.h"
#include "arena/report_csv.h"
#include "arena/tally.h"

enum report_format { REPORT_TEXT, REPORT_JSON, REPORT_CSV };
/* Prints the report of t in format f (sorts t's samples in place): text
 * and JSON hold every table, CSV the one table (report_csv.h). */
void report_print(struct tally *t, enum report_format f, enum report_csv_table table,
                  FILE *out);

/* Prints the report of a journal or match log. 0, or -1 with e (e->line:
 * the journal line of a bad record; nothing printed then). */
int report_file(const char *path, enum report_format f, enum report_csv_table table, FILE *out,
                struct err *e);

#endif
