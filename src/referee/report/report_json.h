/*
 * report_json.h - the JSON report, schema arena.report/1: {"games",
 * "standings", "pairs", "cpu_per_move_ms", "forfeits"}; an infinite Elo is
 * null.
 */
#ifndef ARENA_REPORT_JSON_H
#define ARENA_REPORT_JSON_H

#include <stdio.h>
#include "arena/tally.h"

/* Prints the report of t on out (sorts t's samples in place). */
void report_json(struct tally *t, FILE *out);

#endif
