/*
 * report_json.h - the JSON report, schema arena.report/1: {"schema",
 * "games", "standings", "ratings", "pairs", "cpu_per_move_ms",
 * "referee_overhead_ms", "forfeits": [{"engine", "reason" (the kind),
 * "count", "details": [{"detail" (null: the kind has none), "count",
 * "games": [{"game", "opponent"}...]}...]}...]}; an infinite Elo is null.
 * Keys are only ever added, so scripts written for earlier reports read
 * these.
 */
#ifndef ARENA_REPORT_JSON_H
#define ARENA_REPORT_JSON_H

#include <stdio.h>
#include "arena/tally.h"

/* Prints the report of t on out (sorts t's samples and forfeits in place). */
void report_json(struct tally *t, FILE *out);

#endif
