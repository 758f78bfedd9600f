/*
 * report_csv.h - the CSV report: a standings table with CPU columns, a pairs
 * table, and a forfeits table when there are forfeits, each with its header
 * line and a blank line between.
 */
#ifndef ARENA_REPORT_CSV_H
#define ARENA_REPORT_CSV_H

#include <stdio.h>
#include "arena/tally.h"

/* Prints the report of t on out (sorts t's samples in place). */
void report_csv(struct tally *t, FILE *out);

#endif
